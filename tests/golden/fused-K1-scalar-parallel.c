#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_EF59DECE66_H_STRUCTS
#define SPF_FUSED_EF59DECE66_H_STRUCTS

#include <stdint.h>

/*
 * ABI of the kernels declared below:
 *
 * - one struct per layout, with exactly the layout file's fields in its order:
 *   scalars by value (int, int64_t), arrays as pointers to their elements;
 * - a multi-dimensional array is one flat block in row-major order
 *   (a[i][j] of a [n][m] array is a[i*m + j]);
 * - arguments: the inputs in the order they first appear in the expression,
 *   then the output (a scalar output is a double *);
 * - the caller allocates and frees every array, the output's included; an
 *   output that shares an input's sparsity points at that input's index arrays;
 * - '=' overwrites the output (it is zeroed first), '+=' adds to it;
 * - kernels return 0 on success and a nonzero error code otherwise: 1 when
 *   the tensors' shapes disagree (nothing is written), 2 when a temporary
 *   (a find's table or positions, a per-thread copy of the output, a fused
 *   kernel's temporary, an assembled output's entries) cannot be allocated,
 *   3 when an entry of an assembled output cannot be stored in its layout;
 * - a library's entry point NAME first runs NAME_check on its arguments
 *   (it reads, never writes), which returns 4 for a NULL argument, 5 for
 *   inconsistent scalar fields, 1 for shapes that disagree and 6 for index
 *   arrays that break their layout's assumptions or properties (the
 *   variants spf_kernel_* do not: call NAME_check before them);
 * - an assembled output (a sparse output whose pattern the kernel computes)
 *   takes two more arguments and two more calls: see its kernel's comment;
 * - kernels do not keep any pointer after they return, and free none (an
 *   assembled output's handle is freed by NAME_fill or NAME_free);
 * - kept memory: each kernel keeps one set of find state (hash-map tables,
 *   positions kept per value; the largest a call has needed) and an assembled
 *   output's scratch (its workspace and rows, at most 64 MiB) for its next
 *   call, taken and given back atomically (a concurrent call makes its own);
 *   NAME_release_state() frees them;
 * - thread-safety: a kernel may be called concurrently on different outputs.
 */

#ifndef SPF_STRUCT_CSR_D3F970C7
#define SPF_STRUCT_CSR_D3F970C7
/*
 * CSR: compressed sparse row matrix
 */
struct spf_CSR
{
  int numRows;
  int numCols;
  int nnz;
  int *rowPtr;
  int *colIdx;
  double *data;
};
#endif /* SPF_STRUCT_CSR_D3F970C7 */

#ifndef SPF_STRUCT_Dense2_35379900
#define SPF_STRUCT_Dense2_35379900
/*
 * Dense2: dense order-2 tensor, row-major
 *   vals: double[N0][N1], flattened row-major
 */
struct spf_Dense2
{
  int N0;
  int N1;
  double *vals;
};
#endif /* SPF_STRUCT_Dense2_35379900 */


#endif /* SPF_FUSED_EF59DECE66_H_STRUCTS */


int spf_fused_ef59dece66(struct spf_CSR *B, struct spf_Dense2 *C, struct spf_Dense2 *D, struct spf_Dense2 *E, struct spf_Dense2 *A)
{
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t D_N0 = D->N0;
  const int64_t D_N1 = D->N1;
  double * restrict D_vals = D->vals;
  const int64_t E_N0 = E->N0;
  const int64_t E_N1 = E->N1;
  double * restrict E_vals = E->vals;
  const int64_t A_N0 = A->N0;
  const int64_t A_N1 = A->N1;
  double * restrict A_vals = A->vals;
  const int64_t N_l = E_N1;
  const int64_t N_k = C_N1;
  const int64_t N_j = B_numCols;
  const int64_t N_i = B_numRows;
  if (!((((((((B_numCols == E_N0) && (C_N1 == D_N1)) && (B_numCols == D_N0)) && (B_numRows == C_N0)) && (C_N1 == D_N1)) && (B_numCols == D_N0)) && (B_numRows == C_N0)) && (A_N1 == E_N1)))
  {
    return 1;
  }
  {
    const int64_t spf_row_size = 1 * A_N1;
    int64_t spf_reached_from = A_N0;
    int64_t spf_reached_to = A_N0;
    if ((((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1)) && (1 <= E_N1))
    {
      spf_reached_from = spf_min(spf_max(0, 0), A_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((B_numRows - 1) + 1, A_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      A_vals[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (A_N0 * spf_row_size); spf_zero++)
      A_vals[spf_zero] = 0.0;

  }
  if (A_N1 == 16)
  {
    {
      if ((((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1)) && (1 <= E_N1))
      {
        {
          const int64_t spf_first = 0;
          const int64_t spf_last = B_numRows - 1;
          int64_t spf_base = 0;
          int64_t spf_total = 0;
          if (spf_first <= spf_last)
          {
            {
              const int64_t i = spf_first;
              spf_base = B_rowPtr[i];
            }
            {
              const int64_t i = spf_last + 1;
              spf_total = ((spf_last + 1) - spf_first) + (B_rowPtr[i] - spf_base);
            }
          }
          const int64_t spf_work = spf_total * 16;
          const int spf_want = spf_team_for(spf_work);
          if (spf_want == 1)
          {
            const int64_t spf_from = spf_first;
            const int64_t spf_to = spf_last + 1;
            const int spf_stream_index = 0;
            {
              const int64_t spf_row_size = 1 * A_N1;
              const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
              const int64_t spf_stop = spf_to;
              for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
              {
                const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                const int64_t spf_zero_to = spf_min(spf_block_end, A_N0) * spf_row_size;
                for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                  A_vals[spf_zero] = 0.0;

                for (int64_t i = spf_block; i < spf_block_end; i++)
                {
                  const int64_t pBi = i;
                  const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                  const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                  if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                  {
                    const int64_t pC0 = i;
                    for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
                    {
                      const int64_t B_colIdx_pBj = B_colIdx[pBj];
                      const int64_t pD0 = B_colIdx_pBj;
                      const int64_t pE0 = B_colIdx_pBj;
                      {
                        double T_BCD[1] = {0.0};
                        {
                          if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                          {
                            double sum_10 = 0.0;
                            int added_11 = 0;
                            for (int64_t k = 0; k <= (C_N1 - 1); k++)
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_10 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                              added_11 = 1;
                            }

                            if (added_11)
                              T_BCD[0] += B_data[pBj] * sum_10;
                          }
                        }
                        {
                          if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                          {
                            const int64_t pA0 = i;
                            if (0 <= (A_N1 - 1))
                            {
                              const double factor_12 = T_BCD[0];
                              #pragma GCC ivdep
                              for (int64_t l = 0; l <= (A_N1 - 1); l++)
                              {
                                const int64_t pE1 = l;
                                const int64_t pA1 = l;
                                A_vals[(pA0 * A_N1) + pA1] += E_vals[(pE0 * E_N1) + pE1] * factor_12;
                              }

                            }
                          }
                        }
                      }
                    }

                  }
                }

              }

            }
          }
          else
          {
            const int spf_pieces = spf_most_pieces(spf_want);
            int64_t spf_cuts[SPF_MOST_PIECES + 1];
            spf_cuts[0] = spf_first;
            spf_cuts[spf_pieces] = spf_last + 1;
            for (int spf_k = 1; spf_k < spf_pieces; spf_k++)
            {
              const int64_t spf_goal = ((spf_total / spf_pieces) * spf_k) + (((spf_total % spf_pieces) * spf_k) / spf_pieces);
              int64_t spf_low = spf_cuts[spf_k - 1];
              int64_t spf_high = spf_last + 1;
              while (spf_low < spf_high)
              {
                const int64_t spf_middle = spf_low + ((spf_high - spf_low) / 2);
                int64_t spf_weight;
                {
                  const int64_t i = spf_middle;
                  spf_weight = (spf_middle - spf_first) + (B_rowPtr[i] - spf_base);
                }
                if (spf_weight >= spf_goal)
                  spf_high = spf_middle;
                else
                  spf_low = spf_middle + 1;
              }

              spf_cuts[spf_k] = spf_low;
            }

            const int spf_runs_count = (spf_want < SPF_MOST_PIECES) ? (spf_want) : (SPF_MOST_PIECES);
            spf_run spf_runs[SPF_MOST_PIECES];
            spf_runs_init(spf_runs, spf_runs_count, spf_pieces);
            #pragma omp parallel num_threads(spf_want)
            {
              const int spf_me = spf_thread();
              const int spf_present = spf_team_size();
              int spf_piece;
              int spf_stream_index;
              while ((spf_piece = spf_piece_take(spf_runs, spf_runs_count, spf_present, spf_me, spf_pieces, &spf_stream_index)) >= 0)
              {
                const int64_t spf_from = spf_cuts[spf_piece];
                const int64_t spf_to = spf_cuts[spf_piece + 1];
                {
                  const int64_t spf_row_size = 1 * A_N1;
                  const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                  const int64_t spf_stop = spf_to;
                  for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                  {
                    const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                    const int64_t spf_zero_to = spf_min(spf_block_end, A_N0) * spf_row_size;
                    for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                      A_vals[spf_zero] = 0.0;

                    for (int64_t i = spf_block; i < spf_block_end; i++)
                    {
                      const int64_t pBi = i;
                      const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                      const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                      if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                      {
                        const int64_t pC0 = i;
                        for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
                        {
                          const int64_t B_colIdx_pBj = B_colIdx[pBj];
                          const int64_t pD0 = B_colIdx_pBj;
                          const int64_t pE0 = B_colIdx_pBj;
                          {
                            double T_BCD[1] = {0.0};
                            {
                              if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                              {
                                double sum_10 = 0.0;
                                int added_11 = 0;
                                for (int64_t k = 0; k <= (C_N1 - 1); k++)
                                {
                                  const int64_t pC1 = k;
                                  const int64_t pD1 = k;
                                  sum_10 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                                  added_11 = 1;
                                }

                                if (added_11)
                                  T_BCD[0] += B_data[pBj] * sum_10;
                              }
                            }
                            {
                              if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                              {
                                const int64_t pA0 = i;
                                if (0 <= (A_N1 - 1))
                                {
                                  const double factor_12 = T_BCD[0];
                                  #pragma GCC ivdep
                                  for (int64_t l = 0; l <= (A_N1 - 1); l++)
                                  {
                                    const int64_t pE1 = l;
                                    const int64_t pA1 = l;
                                    A_vals[(pA0 * A_N1) + pA1] += E_vals[(pE0 * E_N1) + pE1] * factor_12;
                                  }

                                }
                              }
                            }
                          }
                        }

                      }
                    }

                  }

                }
              }

            }
          }
        }
      }
    }
  }
  else
    if (A_N1 == 32)
  {
    {
      if ((((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1)) && (1 <= E_N1))
      {
        {
          const int64_t spf_first = 0;
          const int64_t spf_last = B_numRows - 1;
          int64_t spf_base = 0;
          int64_t spf_total = 0;
          if (spf_first <= spf_last)
          {
            {
              const int64_t i = spf_first;
              spf_base = B_rowPtr[i];
            }
            {
              const int64_t i = spf_last + 1;
              spf_total = ((spf_last + 1) - spf_first) + (B_rowPtr[i] - spf_base);
            }
          }
          const int64_t spf_work = spf_total * 16;
          const int spf_want = spf_team_for(spf_work);
          if (spf_want == 1)
          {
            const int64_t spf_from = spf_first;
            const int64_t spf_to = spf_last + 1;
            const int spf_stream_index = 0;
            {
              const int64_t spf_row_size = 1 * A_N1;
              const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
              const int64_t spf_stop = spf_to;
              for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
              {
                const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                const int64_t spf_zero_to = spf_min(spf_block_end, A_N0) * spf_row_size;
                for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                  A_vals[spf_zero] = 0.0;

                for (int64_t i = spf_block; i < spf_block_end; i++)
                {
                  const int64_t pBi = i;
                  const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                  const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                  if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                  {
                    const int64_t pC0 = i;
                    for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
                    {
                      const int64_t B_colIdx_pBj = B_colIdx[pBj];
                      const int64_t pD0 = B_colIdx_pBj;
                      const int64_t pE0 = B_colIdx_pBj;
                      {
                        double T_BCD[1] = {0.0};
                        {
                          if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                          {
                            double sum_7 = 0.0;
                            int added_8 = 0;
                            for (int64_t k = 0; k <= (C_N1 - 1); k++)
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_7 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                              added_8 = 1;
                            }

                            if (added_8)
                              T_BCD[0] += B_data[pBj] * sum_7;
                          }
                        }
                        {
                          if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                          {
                            const int64_t pA0 = i;
                            if (0 <= (A_N1 - 1))
                            {
                              const double factor_9 = T_BCD[0];
                              #pragma GCC ivdep
                              for (int64_t l = 0; l <= (A_N1 - 1); l++)
                              {
                                const int64_t pE1 = l;
                                const int64_t pA1 = l;
                                A_vals[(pA0 * A_N1) + pA1] += E_vals[(pE0 * E_N1) + pE1] * factor_9;
                              }

                            }
                          }
                        }
                      }
                    }

                  }
                }

              }

            }
          }
          else
          {
            const int spf_pieces = spf_most_pieces(spf_want);
            int64_t spf_cuts[SPF_MOST_PIECES + 1];
            spf_cuts[0] = spf_first;
            spf_cuts[spf_pieces] = spf_last + 1;
            for (int spf_k = 1; spf_k < spf_pieces; spf_k++)
            {
              const int64_t spf_goal = ((spf_total / spf_pieces) * spf_k) + (((spf_total % spf_pieces) * spf_k) / spf_pieces);
              int64_t spf_low = spf_cuts[spf_k - 1];
              int64_t spf_high = spf_last + 1;
              while (spf_low < spf_high)
              {
                const int64_t spf_middle = spf_low + ((spf_high - spf_low) / 2);
                int64_t spf_weight;
                {
                  const int64_t i = spf_middle;
                  spf_weight = (spf_middle - spf_first) + (B_rowPtr[i] - spf_base);
                }
                if (spf_weight >= spf_goal)
                  spf_high = spf_middle;
                else
                  spf_low = spf_middle + 1;
              }

              spf_cuts[spf_k] = spf_low;
            }

            const int spf_runs_count = (spf_want < SPF_MOST_PIECES) ? (spf_want) : (SPF_MOST_PIECES);
            spf_run spf_runs[SPF_MOST_PIECES];
            spf_runs_init(spf_runs, spf_runs_count, spf_pieces);
            #pragma omp parallel num_threads(spf_want)
            {
              const int spf_me = spf_thread();
              const int spf_present = spf_team_size();
              int spf_piece;
              int spf_stream_index;
              while ((spf_piece = spf_piece_take(spf_runs, spf_runs_count, spf_present, spf_me, spf_pieces, &spf_stream_index)) >= 0)
              {
                const int64_t spf_from = spf_cuts[spf_piece];
                const int64_t spf_to = spf_cuts[spf_piece + 1];
                {
                  const int64_t spf_row_size = 1 * A_N1;
                  const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                  const int64_t spf_stop = spf_to;
                  for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                  {
                    const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                    const int64_t spf_zero_to = spf_min(spf_block_end, A_N0) * spf_row_size;
                    for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                      A_vals[spf_zero] = 0.0;

                    for (int64_t i = spf_block; i < spf_block_end; i++)
                    {
                      const int64_t pBi = i;
                      const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                      const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                      if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                      {
                        const int64_t pC0 = i;
                        for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
                        {
                          const int64_t B_colIdx_pBj = B_colIdx[pBj];
                          const int64_t pD0 = B_colIdx_pBj;
                          const int64_t pE0 = B_colIdx_pBj;
                          {
                            double T_BCD[1] = {0.0};
                            {
                              if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                              {
                                double sum_7 = 0.0;
                                int added_8 = 0;
                                for (int64_t k = 0; k <= (C_N1 - 1); k++)
                                {
                                  const int64_t pC1 = k;
                                  const int64_t pD1 = k;
                                  sum_7 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                                  added_8 = 1;
                                }

                                if (added_8)
                                  T_BCD[0] += B_data[pBj] * sum_7;
                              }
                            }
                            {
                              if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                              {
                                const int64_t pA0 = i;
                                if (0 <= (A_N1 - 1))
                                {
                                  const double factor_9 = T_BCD[0];
                                  #pragma GCC ivdep
                                  for (int64_t l = 0; l <= (A_N1 - 1); l++)
                                  {
                                    const int64_t pE1 = l;
                                    const int64_t pA1 = l;
                                    A_vals[(pA0 * A_N1) + pA1] += E_vals[(pE0 * E_N1) + pE1] * factor_9;
                                  }

                                }
                              }
                            }
                          }
                        }

                      }
                    }

                  }

                }
              }

            }
          }
        }
      }
    }
  }
  else
    if (A_N1 == 64)
  {
    {
      if ((((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1)) && (1 <= E_N1))
      {
        {
          const int64_t spf_first = 0;
          const int64_t spf_last = B_numRows - 1;
          int64_t spf_base = 0;
          int64_t spf_total = 0;
          if (spf_first <= spf_last)
          {
            {
              const int64_t i = spf_first;
              spf_base = B_rowPtr[i];
            }
            {
              const int64_t i = spf_last + 1;
              spf_total = ((spf_last + 1) - spf_first) + (B_rowPtr[i] - spf_base);
            }
          }
          const int64_t spf_work = spf_total * 16;
          const int spf_want = spf_team_for(spf_work);
          if (spf_want == 1)
          {
            const int64_t spf_from = spf_first;
            const int64_t spf_to = spf_last + 1;
            const int spf_stream_index = 0;
            {
              const int64_t spf_row_size = 1 * A_N1;
              const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
              const int64_t spf_stop = spf_to;
              for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
              {
                const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                const int64_t spf_zero_to = spf_min(spf_block_end, A_N0) * spf_row_size;
                for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                  A_vals[spf_zero] = 0.0;

                for (int64_t i = spf_block; i < spf_block_end; i++)
                {
                  const int64_t pBi = i;
                  const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                  const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                  if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                  {
                    const int64_t pC0 = i;
                    for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
                    {
                      const int64_t B_colIdx_pBj = B_colIdx[pBj];
                      const int64_t pD0 = B_colIdx_pBj;
                      const int64_t pE0 = B_colIdx_pBj;
                      {
                        double T_BCD[1] = {0.0};
                        {
                          if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                          {
                            double sum_4 = 0.0;
                            int added_5 = 0;
                            for (int64_t k = 0; k <= (C_N1 - 1); k++)
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_4 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                              added_5 = 1;
                            }

                            if (added_5)
                              T_BCD[0] += B_data[pBj] * sum_4;
                          }
                        }
                        {
                          if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                          {
                            const int64_t pA0 = i;
                            if (0 <= (A_N1 - 1))
                            {
                              const double factor_6 = T_BCD[0];
                              #pragma GCC ivdep
                              for (int64_t l = 0; l <= (A_N1 - 1); l++)
                              {
                                const int64_t pE1 = l;
                                const int64_t pA1 = l;
                                A_vals[(pA0 * A_N1) + pA1] += E_vals[(pE0 * E_N1) + pE1] * factor_6;
                              }

                            }
                          }
                        }
                      }
                    }

                  }
                }

              }

            }
          }
          else
          {
            const int spf_pieces = spf_most_pieces(spf_want);
            int64_t spf_cuts[SPF_MOST_PIECES + 1];
            spf_cuts[0] = spf_first;
            spf_cuts[spf_pieces] = spf_last + 1;
            for (int spf_k = 1; spf_k < spf_pieces; spf_k++)
            {
              const int64_t spf_goal = ((spf_total / spf_pieces) * spf_k) + (((spf_total % spf_pieces) * spf_k) / spf_pieces);
              int64_t spf_low = spf_cuts[spf_k - 1];
              int64_t spf_high = spf_last + 1;
              while (spf_low < spf_high)
              {
                const int64_t spf_middle = spf_low + ((spf_high - spf_low) / 2);
                int64_t spf_weight;
                {
                  const int64_t i = spf_middle;
                  spf_weight = (spf_middle - spf_first) + (B_rowPtr[i] - spf_base);
                }
                if (spf_weight >= spf_goal)
                  spf_high = spf_middle;
                else
                  spf_low = spf_middle + 1;
              }

              spf_cuts[spf_k] = spf_low;
            }

            const int spf_runs_count = (spf_want < SPF_MOST_PIECES) ? (spf_want) : (SPF_MOST_PIECES);
            spf_run spf_runs[SPF_MOST_PIECES];
            spf_runs_init(spf_runs, spf_runs_count, spf_pieces);
            #pragma omp parallel num_threads(spf_want)
            {
              const int spf_me = spf_thread();
              const int spf_present = spf_team_size();
              int spf_piece;
              int spf_stream_index;
              while ((spf_piece = spf_piece_take(spf_runs, spf_runs_count, spf_present, spf_me, spf_pieces, &spf_stream_index)) >= 0)
              {
                const int64_t spf_from = spf_cuts[spf_piece];
                const int64_t spf_to = spf_cuts[spf_piece + 1];
                {
                  const int64_t spf_row_size = 1 * A_N1;
                  const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                  const int64_t spf_stop = spf_to;
                  for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                  {
                    const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                    const int64_t spf_zero_to = spf_min(spf_block_end, A_N0) * spf_row_size;
                    for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                      A_vals[spf_zero] = 0.0;

                    for (int64_t i = spf_block; i < spf_block_end; i++)
                    {
                      const int64_t pBi = i;
                      const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                      const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                      if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                      {
                        const int64_t pC0 = i;
                        for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
                        {
                          const int64_t B_colIdx_pBj = B_colIdx[pBj];
                          const int64_t pD0 = B_colIdx_pBj;
                          const int64_t pE0 = B_colIdx_pBj;
                          {
                            double T_BCD[1] = {0.0};
                            {
                              if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                              {
                                double sum_4 = 0.0;
                                int added_5 = 0;
                                for (int64_t k = 0; k <= (C_N1 - 1); k++)
                                {
                                  const int64_t pC1 = k;
                                  const int64_t pD1 = k;
                                  sum_4 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                                  added_5 = 1;
                                }

                                if (added_5)
                                  T_BCD[0] += B_data[pBj] * sum_4;
                              }
                            }
                            {
                              if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                              {
                                const int64_t pA0 = i;
                                if (0 <= (A_N1 - 1))
                                {
                                  const double factor_6 = T_BCD[0];
                                  #pragma GCC ivdep
                                  for (int64_t l = 0; l <= (A_N1 - 1); l++)
                                  {
                                    const int64_t pE1 = l;
                                    const int64_t pA1 = l;
                                    A_vals[(pA0 * A_N1) + pA1] += E_vals[(pE0 * E_N1) + pE1] * factor_6;
                                  }

                                }
                              }
                            }
                          }
                        }

                      }
                    }

                  }

                }
              }

            }
          }
        }
      }
    }
  }
  else
  {
    {
      if ((((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1)) && (1 <= E_N1))
      {
        {
          const int64_t spf_first = 0;
          const int64_t spf_last = B_numRows - 1;
          int64_t spf_base = 0;
          int64_t spf_total = 0;
          if (spf_first <= spf_last)
          {
            {
              const int64_t i = spf_first;
              spf_base = B_rowPtr[i];
            }
            {
              const int64_t i = spf_last + 1;
              spf_total = ((spf_last + 1) - spf_first) + (B_rowPtr[i] - spf_base);
            }
          }
          const int64_t spf_work = spf_total * 16;
          const int spf_want = spf_team_for(spf_work);
          if (spf_want == 1)
          {
            const int64_t spf_from = spf_first;
            const int64_t spf_to = spf_last + 1;
            const int spf_stream_index = 0;
            {
              const int64_t spf_row_size = 1 * A_N1;
              const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
              const int64_t spf_stop = spf_to;
              for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
              {
                const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                const int64_t spf_zero_to = spf_min(spf_block_end, A_N0) * spf_row_size;
                for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                  A_vals[spf_zero] = 0.0;

                for (int64_t i = spf_block; i < spf_block_end; i++)
                {
                  const int64_t pBi = i;
                  const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                  const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                  if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                  {
                    const int64_t pC0 = i;
                    for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
                    {
                      const int64_t B_colIdx_pBj = B_colIdx[pBj];
                      const int64_t pD0 = B_colIdx_pBj;
                      const int64_t pE0 = B_colIdx_pBj;
                      {
                        double T_BCD[1] = {0.0};
                        {
                          if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                          {
                            double sum_1 = 0.0;
                            int added_2 = 0;
                            for (int64_t k = 0; k <= (C_N1 - 1); k++)
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_1 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                              added_2 = 1;
                            }

                            if (added_2)
                              T_BCD[0] += B_data[pBj] * sum_1;
                          }
                        }
                        {
                          if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                          {
                            const int64_t pA0 = i;
                            if (0 <= (A_N1 - 1))
                            {
                              const double factor_3 = T_BCD[0];
                              #pragma GCC ivdep
                              for (int64_t l = 0; l <= (A_N1 - 1); l++)
                              {
                                const int64_t pE1 = l;
                                const int64_t pA1 = l;
                                A_vals[(pA0 * A_N1) + pA1] += E_vals[(pE0 * E_N1) + pE1] * factor_3;
                              }

                            }
                          }
                        }
                      }
                    }

                  }
                }

              }

            }
          }
          else
          {
            const int spf_pieces = spf_most_pieces(spf_want);
            int64_t spf_cuts[SPF_MOST_PIECES + 1];
            spf_cuts[0] = spf_first;
            spf_cuts[spf_pieces] = spf_last + 1;
            for (int spf_k = 1; spf_k < spf_pieces; spf_k++)
            {
              const int64_t spf_goal = ((spf_total / spf_pieces) * spf_k) + (((spf_total % spf_pieces) * spf_k) / spf_pieces);
              int64_t spf_low = spf_cuts[spf_k - 1];
              int64_t spf_high = spf_last + 1;
              while (spf_low < spf_high)
              {
                const int64_t spf_middle = spf_low + ((spf_high - spf_low) / 2);
                int64_t spf_weight;
                {
                  const int64_t i = spf_middle;
                  spf_weight = (spf_middle - spf_first) + (B_rowPtr[i] - spf_base);
                }
                if (spf_weight >= spf_goal)
                  spf_high = spf_middle;
                else
                  spf_low = spf_middle + 1;
              }

              spf_cuts[spf_k] = spf_low;
            }

            const int spf_runs_count = (spf_want < SPF_MOST_PIECES) ? (spf_want) : (SPF_MOST_PIECES);
            spf_run spf_runs[SPF_MOST_PIECES];
            spf_runs_init(spf_runs, spf_runs_count, spf_pieces);
            #pragma omp parallel num_threads(spf_want)
            {
              const int spf_me = spf_thread();
              const int spf_present = spf_team_size();
              int spf_piece;
              int spf_stream_index;
              while ((spf_piece = spf_piece_take(spf_runs, spf_runs_count, spf_present, spf_me, spf_pieces, &spf_stream_index)) >= 0)
              {
                const int64_t spf_from = spf_cuts[spf_piece];
                const int64_t spf_to = spf_cuts[spf_piece + 1];
                {
                  const int64_t spf_row_size = 1 * A_N1;
                  const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                  const int64_t spf_stop = spf_to;
                  for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                  {
                    const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                    const int64_t spf_zero_to = spf_min(spf_block_end, A_N0) * spf_row_size;
                    for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                      A_vals[spf_zero] = 0.0;

                    for (int64_t i = spf_block; i < spf_block_end; i++)
                    {
                      const int64_t pBi = i;
                      const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                      const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                      if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                      {
                        const int64_t pC0 = i;
                        for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
                        {
                          const int64_t B_colIdx_pBj = B_colIdx[pBj];
                          const int64_t pD0 = B_colIdx_pBj;
                          const int64_t pE0 = B_colIdx_pBj;
                          {
                            double T_BCD[1] = {0.0};
                            {
                              if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                              {
                                double sum_1 = 0.0;
                                int added_2 = 0;
                                for (int64_t k = 0; k <= (C_N1 - 1); k++)
                                {
                                  const int64_t pC1 = k;
                                  const int64_t pD1 = k;
                                  sum_1 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                                  added_2 = 1;
                                }

                                if (added_2)
                                  T_BCD[0] += B_data[pBj] * sum_1;
                              }
                            }
                            {
                              if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                              {
                                const int64_t pA0 = i;
                                if (0 <= (A_N1 - 1))
                                {
                                  const double factor_3 = T_BCD[0];
                                  #pragma GCC ivdep
                                  for (int64_t l = 0; l <= (A_N1 - 1); l++)
                                  {
                                    const int64_t pE1 = l;
                                    const int64_t pA1 = l;
                                    A_vals[(pA0 * A_N1) + pA1] += E_vals[(pE0 * E_N1) + pE1] * factor_3;
                                  }

                                }
                              }
                            }
                          }
                        }

                      }
                    }

                  }

                }
              }

            }
          }
        }
      }
    }
  }
  return 0;
}


void spf_fused_ef59dece66_release_state(void)
{
}
