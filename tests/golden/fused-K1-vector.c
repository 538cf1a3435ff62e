#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_B7BF9A4353_H_STRUCTS
#define SPF_FUSED_B7BF9A4353_H_STRUCTS

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


#endif /* SPF_FUSED_B7BF9A4353_H_STRUCTS */


int spf_fused_b7bf9a4353(struct spf_CSR *B, struct spf_Dense2 *C, struct spf_Dense2 *D, struct spf_Dense2 *E, struct spf_Dense2 *A)
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
  const int64_t N_k = C_N1;
  const int64_t N_j = B_numCols;
  const int64_t N_i = B_numRows;
  const int64_t N_l = A_N1;
  const int64_t T_BCD_N0 = N_j;
  const int64_t T_BCD_size = N_j;
  const int64_t T_BCD_vals_stride = ((T_BCD_size / 8) + 1) * 8;
  double *T_BCD_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_BCD_vals_stride));
  if (T_BCD_vals_all == NULL)
  {
    free(T_BCD_vals_all);
    return 2;
  }
  if (!(((((((B_numRows == C_N0) && (B_numCols == T_BCD_N0)) && (C_N1 == D_N1)) && (B_numCols == D_N0)) && (B_numRows == C_N0)) && (E_N0 == T_BCD_N0)) && (A_N1 == E_N1)))
  {
    free(T_BCD_vals_all);
    return 1;
  }
  {
    const int64_t spf_row_size = 1 * A_N1;
    int64_t spf_reached_from = A_N0;
    int64_t spf_reached_to = A_N0;
    if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
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
      if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
      {
        {
          const int64_t spf_row_size = 1 * A_N1;
          const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
          const int64_t spf_stop = (B_numRows - 1) + 1;
          for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
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
                {
                  double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                  for (int64_t spf_zero_25 = 0; spf_zero_25 < T_BCD_size; spf_zero_25++)
                    T_BCD_vals[spf_zero_25] = 0.0;

                  {
                    if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                    {
                      const int64_t B_rowPtr_pBi_2 = B_rowPtr[pBi];
                      const int64_t B_rowPtr_pBi_1_2 = B_rowPtr[pBi + 1];
                      {
                        int64_t spf_jam_26 = B_rowPtr_pBi_2;
                        for (; (spf_jam_26 + 3) <= (B_rowPtr_pBi_1_2 - 1); spf_jam_26 += 4)
                        {
                          int64_t pBj_lane0 = spf_jam_26 + 0;
                          const int64_t B_colIdx_pBj_2_lane0 = B_colIdx[pBj_lane0];
                          const int64_t j_lane0 = B_colIdx_pBj_2_lane0;
                          const int64_t pD0_lane0 = B_colIdx_pBj_2_lane0;
                          const int64_t pT_BCD0_lane0 = B_colIdx_pBj_2_lane0;
                          int64_t pBj_lane1 = spf_jam_26 + 1;
                          const int64_t B_colIdx_pBj_2_lane1 = B_colIdx[pBj_lane1];
                          const int64_t j_lane1 = B_colIdx_pBj_2_lane1;
                          const int64_t pD0_lane1 = B_colIdx_pBj_2_lane1;
                          const int64_t pT_BCD0_lane1 = B_colIdx_pBj_2_lane1;
                          int64_t pBj_lane2 = spf_jam_26 + 2;
                          const int64_t B_colIdx_pBj_2_lane2 = B_colIdx[pBj_lane2];
                          const int64_t j_lane2 = B_colIdx_pBj_2_lane2;
                          const int64_t pD0_lane2 = B_colIdx_pBj_2_lane2;
                          const int64_t pT_BCD0_lane2 = B_colIdx_pBj_2_lane2;
                          int64_t pBj_lane3 = spf_jam_26 + 3;
                          const int64_t B_colIdx_pBj_2_lane3 = B_colIdx[pBj_lane3];
                          const int64_t j_lane3 = B_colIdx_pBj_2_lane3;
                          const int64_t pD0_lane3 = B_colIdx_pBj_2_lane3;
                          const int64_t pT_BCD0_lane3 = B_colIdx_pBj_2_lane3;
                          double sum_27 = 0.0;
                          double sum_28 = 0.0;
                          double sum_29 = 0.0;
                          double sum_30 = 0.0;
                          for (int64_t k = 0; k <= (C_N1 - 1); k++)
                          {
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_27 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane0 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_28 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane1 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_29 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane2 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_30 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane3 * D_N1) + pD1];
                            }
                          }

                          {
                            T_BCD_vals[pT_BCD0_lane0] += B_data[pBj_lane0] * sum_27;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane1] += B_data[pBj_lane1] * sum_28;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane2] += B_data[pBj_lane2] * sum_29;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane3] += B_data[pBj_lane3] * sum_30;
                          }
                        }

                        for (int64_t pBj = spf_jam_26; pBj <= (B_rowPtr_pBi_1_2 - 1); pBj++)
                        {
                          const int64_t B_colIdx_pBj_2 = B_colIdx[pBj];
                          const int64_t j = B_colIdx_pBj_2;
                          const int64_t pD0 = B_colIdx_pBj_2;
                          const int64_t pT_BCD0 = B_colIdx_pBj_2;
                          double sum_31 = 0.0;
                          for (int64_t k = 0; k <= (C_N1 - 1); k++)
                          {
                            const int64_t pC1 = k;
                            const int64_t pD1 = k;
                            sum_31 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                          }

                          T_BCD_vals[pT_BCD0] += B_data[pBj] * sum_31;
                        }

                      }
                    }
                  }
                  {
                    if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                    {
                      const int64_t pA0 = i;
                      for (int64_t j = 0; j <= (E_N0 - 1); j++)
                      {
                        const int64_t pE0 = j;
                        const int64_t pT_BCD0 = j;
                        if (0 <= (A_N1 - 1))
                        {
                          const double factor_32 = T_BCD_vals[pT_BCD0];
                          #pragma GCC ivdep
                          for (int64_t l = 0; l <= (A_N1 - 1); l++)
                          {
                            const int64_t pE1 = l;
                            const int64_t pA1 = l;
                            A_vals[(pA0 * A_N1) + pA1] += factor_32 * E_vals[(pE0 * E_N1) + pE1];
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
      if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
      {
        {
          const int64_t spf_row_size = 1 * A_N1;
          const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
          const int64_t spf_stop = (B_numRows - 1) + 1;
          for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
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
                {
                  double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                  for (int64_t spf_zero_17 = 0; spf_zero_17 < T_BCD_size; spf_zero_17++)
                    T_BCD_vals[spf_zero_17] = 0.0;

                  {
                    if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                    {
                      const int64_t B_rowPtr_pBi_2 = B_rowPtr[pBi];
                      const int64_t B_rowPtr_pBi_1_2 = B_rowPtr[pBi + 1];
                      {
                        int64_t spf_jam_18 = B_rowPtr_pBi_2;
                        for (; (spf_jam_18 + 3) <= (B_rowPtr_pBi_1_2 - 1); spf_jam_18 += 4)
                        {
                          int64_t pBj_lane0 = spf_jam_18 + 0;
                          const int64_t B_colIdx_pBj_2_lane0 = B_colIdx[pBj_lane0];
                          const int64_t j_lane0 = B_colIdx_pBj_2_lane0;
                          const int64_t pD0_lane0 = B_colIdx_pBj_2_lane0;
                          const int64_t pT_BCD0_lane0 = B_colIdx_pBj_2_lane0;
                          int64_t pBj_lane1 = spf_jam_18 + 1;
                          const int64_t B_colIdx_pBj_2_lane1 = B_colIdx[pBj_lane1];
                          const int64_t j_lane1 = B_colIdx_pBj_2_lane1;
                          const int64_t pD0_lane1 = B_colIdx_pBj_2_lane1;
                          const int64_t pT_BCD0_lane1 = B_colIdx_pBj_2_lane1;
                          int64_t pBj_lane2 = spf_jam_18 + 2;
                          const int64_t B_colIdx_pBj_2_lane2 = B_colIdx[pBj_lane2];
                          const int64_t j_lane2 = B_colIdx_pBj_2_lane2;
                          const int64_t pD0_lane2 = B_colIdx_pBj_2_lane2;
                          const int64_t pT_BCD0_lane2 = B_colIdx_pBj_2_lane2;
                          int64_t pBj_lane3 = spf_jam_18 + 3;
                          const int64_t B_colIdx_pBj_2_lane3 = B_colIdx[pBj_lane3];
                          const int64_t j_lane3 = B_colIdx_pBj_2_lane3;
                          const int64_t pD0_lane3 = B_colIdx_pBj_2_lane3;
                          const int64_t pT_BCD0_lane3 = B_colIdx_pBj_2_lane3;
                          double sum_19 = 0.0;
                          double sum_20 = 0.0;
                          double sum_21 = 0.0;
                          double sum_22 = 0.0;
                          for (int64_t k = 0; k <= (C_N1 - 1); k++)
                          {
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_19 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane0 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_20 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane1 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_21 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane2 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_22 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane3 * D_N1) + pD1];
                            }
                          }

                          {
                            T_BCD_vals[pT_BCD0_lane0] += B_data[pBj_lane0] * sum_19;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane1] += B_data[pBj_lane1] * sum_20;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane2] += B_data[pBj_lane2] * sum_21;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane3] += B_data[pBj_lane3] * sum_22;
                          }
                        }

                        for (int64_t pBj = spf_jam_18; pBj <= (B_rowPtr_pBi_1_2 - 1); pBj++)
                        {
                          const int64_t B_colIdx_pBj_2 = B_colIdx[pBj];
                          const int64_t j = B_colIdx_pBj_2;
                          const int64_t pD0 = B_colIdx_pBj_2;
                          const int64_t pT_BCD0 = B_colIdx_pBj_2;
                          double sum_23 = 0.0;
                          for (int64_t k = 0; k <= (C_N1 - 1); k++)
                          {
                            const int64_t pC1 = k;
                            const int64_t pD1 = k;
                            sum_23 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                          }

                          T_BCD_vals[pT_BCD0] += B_data[pBj] * sum_23;
                        }

                      }
                    }
                  }
                  {
                    if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                    {
                      const int64_t pA0 = i;
                      for (int64_t j = 0; j <= (E_N0 - 1); j++)
                      {
                        const int64_t pE0 = j;
                        const int64_t pT_BCD0 = j;
                        if (0 <= (A_N1 - 1))
                        {
                          const double factor_24 = T_BCD_vals[pT_BCD0];
                          #pragma GCC ivdep
                          for (int64_t l = 0; l <= (A_N1 - 1); l++)
                          {
                            const int64_t pE1 = l;
                            const int64_t pA1 = l;
                            A_vals[(pA0 * A_N1) + pA1] += factor_24 * E_vals[(pE0 * E_N1) + pE1];
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
      if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
      {
        {
          const int64_t spf_row_size = 1 * A_N1;
          const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
          const int64_t spf_stop = (B_numRows - 1) + 1;
          for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
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
                {
                  double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                  for (int64_t spf_zero_9 = 0; spf_zero_9 < T_BCD_size; spf_zero_9++)
                    T_BCD_vals[spf_zero_9] = 0.0;

                  {
                    if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                    {
                      const int64_t B_rowPtr_pBi_2 = B_rowPtr[pBi];
                      const int64_t B_rowPtr_pBi_1_2 = B_rowPtr[pBi + 1];
                      {
                        int64_t spf_jam_10 = B_rowPtr_pBi_2;
                        for (; (spf_jam_10 + 3) <= (B_rowPtr_pBi_1_2 - 1); spf_jam_10 += 4)
                        {
                          int64_t pBj_lane0 = spf_jam_10 + 0;
                          const int64_t B_colIdx_pBj_2_lane0 = B_colIdx[pBj_lane0];
                          const int64_t j_lane0 = B_colIdx_pBj_2_lane0;
                          const int64_t pD0_lane0 = B_colIdx_pBj_2_lane0;
                          const int64_t pT_BCD0_lane0 = B_colIdx_pBj_2_lane0;
                          int64_t pBj_lane1 = spf_jam_10 + 1;
                          const int64_t B_colIdx_pBj_2_lane1 = B_colIdx[pBj_lane1];
                          const int64_t j_lane1 = B_colIdx_pBj_2_lane1;
                          const int64_t pD0_lane1 = B_colIdx_pBj_2_lane1;
                          const int64_t pT_BCD0_lane1 = B_colIdx_pBj_2_lane1;
                          int64_t pBj_lane2 = spf_jam_10 + 2;
                          const int64_t B_colIdx_pBj_2_lane2 = B_colIdx[pBj_lane2];
                          const int64_t j_lane2 = B_colIdx_pBj_2_lane2;
                          const int64_t pD0_lane2 = B_colIdx_pBj_2_lane2;
                          const int64_t pT_BCD0_lane2 = B_colIdx_pBj_2_lane2;
                          int64_t pBj_lane3 = spf_jam_10 + 3;
                          const int64_t B_colIdx_pBj_2_lane3 = B_colIdx[pBj_lane3];
                          const int64_t j_lane3 = B_colIdx_pBj_2_lane3;
                          const int64_t pD0_lane3 = B_colIdx_pBj_2_lane3;
                          const int64_t pT_BCD0_lane3 = B_colIdx_pBj_2_lane3;
                          double sum_11 = 0.0;
                          double sum_12 = 0.0;
                          double sum_13 = 0.0;
                          double sum_14 = 0.0;
                          for (int64_t k = 0; k <= (C_N1 - 1); k++)
                          {
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_11 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane0 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_12 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane1 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_13 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane2 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_14 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane3 * D_N1) + pD1];
                            }
                          }

                          {
                            T_BCD_vals[pT_BCD0_lane0] += B_data[pBj_lane0] * sum_11;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane1] += B_data[pBj_lane1] * sum_12;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane2] += B_data[pBj_lane2] * sum_13;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane3] += B_data[pBj_lane3] * sum_14;
                          }
                        }

                        for (int64_t pBj = spf_jam_10; pBj <= (B_rowPtr_pBi_1_2 - 1); pBj++)
                        {
                          const int64_t B_colIdx_pBj_2 = B_colIdx[pBj];
                          const int64_t j = B_colIdx_pBj_2;
                          const int64_t pD0 = B_colIdx_pBj_2;
                          const int64_t pT_BCD0 = B_colIdx_pBj_2;
                          double sum_15 = 0.0;
                          for (int64_t k = 0; k <= (C_N1 - 1); k++)
                          {
                            const int64_t pC1 = k;
                            const int64_t pD1 = k;
                            sum_15 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                          }

                          T_BCD_vals[pT_BCD0] += B_data[pBj] * sum_15;
                        }

                      }
                    }
                  }
                  {
                    if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                    {
                      const int64_t pA0 = i;
                      for (int64_t j = 0; j <= (E_N0 - 1); j++)
                      {
                        const int64_t pE0 = j;
                        const int64_t pT_BCD0 = j;
                        if (0 <= (A_N1 - 1))
                        {
                          const double factor_16 = T_BCD_vals[pT_BCD0];
                          #pragma GCC ivdep
                          for (int64_t l = 0; l <= (A_N1 - 1); l++)
                          {
                            const int64_t pE1 = l;
                            const int64_t pA1 = l;
                            A_vals[(pA0 * A_N1) + pA1] += factor_16 * E_vals[(pE0 * E_N1) + pE1];
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
      if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
      {
        {
          const int64_t spf_row_size = 1 * A_N1;
          const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
          const int64_t spf_stop = (B_numRows - 1) + 1;
          for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
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
                {
                  double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                  for (int64_t spf_zero_1 = 0; spf_zero_1 < T_BCD_size; spf_zero_1++)
                    T_BCD_vals[spf_zero_1] = 0.0;

                  {
                    if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= C_N1))
                    {
                      const int64_t B_rowPtr_pBi_2 = B_rowPtr[pBi];
                      const int64_t B_rowPtr_pBi_1_2 = B_rowPtr[pBi + 1];
                      {
                        int64_t spf_jam_2 = B_rowPtr_pBi_2;
                        for (; (spf_jam_2 + 3) <= (B_rowPtr_pBi_1_2 - 1); spf_jam_2 += 4)
                        {
                          int64_t pBj_lane0 = spf_jam_2 + 0;
                          const int64_t B_colIdx_pBj_2_lane0 = B_colIdx[pBj_lane0];
                          const int64_t j_lane0 = B_colIdx_pBj_2_lane0;
                          const int64_t pD0_lane0 = B_colIdx_pBj_2_lane0;
                          const int64_t pT_BCD0_lane0 = B_colIdx_pBj_2_lane0;
                          int64_t pBj_lane1 = spf_jam_2 + 1;
                          const int64_t B_colIdx_pBj_2_lane1 = B_colIdx[pBj_lane1];
                          const int64_t j_lane1 = B_colIdx_pBj_2_lane1;
                          const int64_t pD0_lane1 = B_colIdx_pBj_2_lane1;
                          const int64_t pT_BCD0_lane1 = B_colIdx_pBj_2_lane1;
                          int64_t pBj_lane2 = spf_jam_2 + 2;
                          const int64_t B_colIdx_pBj_2_lane2 = B_colIdx[pBj_lane2];
                          const int64_t j_lane2 = B_colIdx_pBj_2_lane2;
                          const int64_t pD0_lane2 = B_colIdx_pBj_2_lane2;
                          const int64_t pT_BCD0_lane2 = B_colIdx_pBj_2_lane2;
                          int64_t pBj_lane3 = spf_jam_2 + 3;
                          const int64_t B_colIdx_pBj_2_lane3 = B_colIdx[pBj_lane3];
                          const int64_t j_lane3 = B_colIdx_pBj_2_lane3;
                          const int64_t pD0_lane3 = B_colIdx_pBj_2_lane3;
                          const int64_t pT_BCD0_lane3 = B_colIdx_pBj_2_lane3;
                          double sum_3 = 0.0;
                          double sum_4 = 0.0;
                          double sum_5 = 0.0;
                          double sum_6 = 0.0;
                          for (int64_t k = 0; k <= (C_N1 - 1); k++)
                          {
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_3 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane0 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_4 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane1 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_5 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane2 * D_N1) + pD1];
                            }
                            {
                              const int64_t pC1 = k;
                              const int64_t pD1 = k;
                              sum_6 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0_lane3 * D_N1) + pD1];
                            }
                          }

                          {
                            T_BCD_vals[pT_BCD0_lane0] += B_data[pBj_lane0] * sum_3;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane1] += B_data[pBj_lane1] * sum_4;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane2] += B_data[pBj_lane2] * sum_5;
                          }
                          {
                            T_BCD_vals[pT_BCD0_lane3] += B_data[pBj_lane3] * sum_6;
                          }
                        }

                        for (int64_t pBj = spf_jam_2; pBj <= (B_rowPtr_pBi_1_2 - 1); pBj++)
                        {
                          const int64_t B_colIdx_pBj_2 = B_colIdx[pBj];
                          const int64_t j = B_colIdx_pBj_2;
                          const int64_t pD0 = B_colIdx_pBj_2;
                          const int64_t pT_BCD0 = B_colIdx_pBj_2;
                          double sum_7 = 0.0;
                          for (int64_t k = 0; k <= (C_N1 - 1); k++)
                          {
                            const int64_t pC1 = k;
                            const int64_t pD1 = k;
                            sum_7 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                          }

                          T_BCD_vals[pT_BCD0] += B_data[pBj] * sum_7;
                        }

                      }
                    }
                  }
                  {
                    if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= E_N0))
                    {
                      const int64_t pA0 = i;
                      for (int64_t j = 0; j <= (E_N0 - 1); j++)
                      {
                        const int64_t pE0 = j;
                        const int64_t pT_BCD0 = j;
                        if (0 <= (A_N1 - 1))
                        {
                          const double factor_8 = T_BCD_vals[pT_BCD0];
                          #pragma GCC ivdep
                          for (int64_t l = 0; l <= (A_N1 - 1); l++)
                          {
                            const int64_t pE1 = l;
                            const int64_t pA1 = l;
                            A_vals[(pA0 * A_N1) + pA1] += factor_8 * E_vals[(pE0 * E_N1) + pE1];
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
  free(T_BCD_vals_all);
  return 0;
}


void spf_fused_b7bf9a4353_release_state(void)
{
}
