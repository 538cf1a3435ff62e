#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_02022743AC_H_STRUCTS
#define SPF_FUSED_02022743AC_H_STRUCTS

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

#ifndef SPF_STRUCT_CSF3_7390B26C
#define SPF_STRUCT_CSF3_7390B26C
/*
 * CSF3: compressed sparse fiber, order 3
 */
struct spf_CSF3
{
  int n0;
  int n1;
  int n2;
  int nnz0;
  int nnz1;
  int nnz2;
  int *idx0;
  int *ptr0;
  int *idx1;
  int *ptr1;
  int *idx2;
  double *val;
};
#endif /* SPF_STRUCT_CSF3_7390B26C */

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

#ifndef SPF_STRUCT_CSF3_DENSE_LAST_3E1427BB
#define SPF_STRUCT_CSF3_DENSE_LAST_3E1427BB
/*
 * CSF3_DENSE_LAST: compressed sparse fiber, order 3, with a dense last level
 *   val: double[nnz1][n2], flattened row-major
 */
struct spf_CSF3_DENSE_LAST
{
  int n0;
  int n1;
  int n2;
  int nnz0;
  int nnz1;
  int *idx0;
  int *ptr0;
  int *idx1;
  double *val;
};
#endif /* SPF_STRUCT_CSF3_DENSE_LAST_3E1427BB */


#endif /* SPF_FUSED_02022743AC_H_STRUCTS */


int spf_fused_02022743ac(struct spf_CSF3 *B, struct spf_Dense2 *C, struct spf_Dense2 *D, struct spf_CSF3_DENSE_LAST *A)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_nnz0 = B->nnz0;
  const int64_t B_nnz1 = B->nnz1;
  const int64_t B_nnz2 = B->nnz2;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_ptr0 = B->ptr0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_ptr1 = B->ptr1;
  int * restrict B_idx2 = B->idx2;
  double * restrict B_val = B->val;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t D_N0 = D->N0;
  const int64_t D_N1 = D->N1;
  double * restrict D_vals = D->vals;
  const int64_t A_n0 = A->n0;
  const int64_t A_n1 = A->n1;
  const int64_t A_n2 = A->n2;
  double * restrict A_val = A->val;
  const int64_t N_m = D_N1;
  const int64_t N_l = C_N1;
  const int64_t N_k = C_N0;
  const int64_t N_j = A_n1;
  const int64_t N_i = A_n0;
  const int64_t T_CD_N0 = N_k;
  const int64_t T_CD_N1 = N_m;
  const int64_t T_CD_size = N_k * N_m;
  const int64_t T_CD_vals_stride = ((T_CD_size / 8) + 1) * 8;
  double *T_CD_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_CD_vals_stride));
  if (T_CD_vals_all == NULL)
  {
    free(T_CD_vals_all);
    return 2;
  }
  if (!(((((((D_N1 == T_CD_N1) && (C_N0 == T_CD_N0)) && (C_N1 == D_N0)) && (A_n2 == T_CD_N1)) && (B_n2 == T_CD_N0)) && (A_n1 == B_n1)) && (A_n0 == B_n0)))
  {
    free(T_CD_vals_all);
    return 1;
  }
  {
    const int64_t spf_row_size = 1 * A_n2;
    int64_t spf_reached_from = B_nnz1;
    int64_t spf_reached_to = B_nnz1;
    if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
    {
      spf_reached_from = spf_min(spf_max(B_ptr0[0], 0), B_nnz1);
      spf_reached_to = spf_max(spf_reached_from, spf_min((B_ptr0[(B_nnz0 - 1) + 1] - 1) + 1, B_nnz1));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      A_val[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (B_nnz1 * spf_row_size); spf_zero++)
      A_val[spf_zero] = 0.0;

  }
  if ((A_n2 == 16) && (D_N1 == 16))
  {
    {
      double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
      for (int64_t spf_zero_10 = 0; spf_zero_10 < T_CD_size; spf_zero_10++)
        T_CD_vals[spf_zero_10] = 0.0;

      {
        if (((1 <= C_N0) && (1 <= C_N1)) && (1 <= D_N1))
        {
          #pragma omp parallel for schedule(static) num_threads(spf_team_for((C_N0 * C_N1) * D_N1))
          for (int64_t k = 0; k <= (C_N0 - 1); k++)
          {
            const int64_t pC0 = k;
            const int64_t pT_CD0 = k;
            for (int64_t l = 0; l <= (C_N1 - 1); l++)
            {
              const int64_t pC1 = l;
              const int64_t pD0 = l;
              if (0 <= (D_N1 - 1))
              {
                const double factor_11 = C_vals[(pC0 * C_N1) + pC1];
                #pragma GCC ivdep
                for (int64_t m = 0; m <= (D_N1 - 1); m++)
                {
                  const int64_t pD1 = m;
                  const int64_t pT_CD1 = m;
                  T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += factor_11 * D_vals[(pD0 * D_N1) + pD1];
                }

              }
            }

          }

        }
      }
      {
        if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
        {
          {
            const int64_t spf_first = 0;
            const int64_t spf_last = B_nnz0 - 1;
            int64_t spf_base = 0;
            int64_t spf_total = 0;
            if (spf_first <= spf_last)
            {
              {
                const int64_t pB0 = spf_first;
                spf_base = B_ptr0[pB0];
              }
              {
                const int64_t pB0 = spf_last + 1;
                spf_total = ((spf_last + 1) - spf_first) + (B_ptr0[pB0] - spf_base);
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
                const int64_t spf_row_size = 1 * A_n2;
                const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                const int64_t spf_stop = spf_to;
                for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                {
                  const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                  const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
                  for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                    A_val[spf_zero] = 0.0;

                  for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
                  {
                    const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                    const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                    if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                    {
                      for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
                      {
                        const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                        const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                        if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                        {
                          const int64_t pA1 = pB1;
                          for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                          {
                            const int64_t B_idx2_pB2 = B_idx2[pB2];
                            const int64_t k = B_idx2_pB2;
                            const int64_t pT_CD0 = B_idx2_pB2;
                            if (0 <= (A_n2 - 1))
                            {
                              const double factor_12 = B_val[pB2];
                              #pragma GCC ivdep
                              for (int64_t m = 0; m <= (A_n2 - 1); m++)
                              {
                                const int64_t pT_CD1 = m;
                                const int64_t pA2 = m;
                                A_val[(pA1 * A_n2) + pA2] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_12;
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
                    const int64_t pB0 = spf_middle;
                    spf_weight = (spf_middle - spf_first) + (B_ptr0[pB0] - spf_base);
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
                    const int64_t spf_row_size = 1 * A_n2;
                    const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                    const int64_t spf_stop = spf_to;
                    for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                    {
                      const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                      const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
                      for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                        A_val[spf_zero] = 0.0;

                      for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
                      {
                        const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                        const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                        if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                        {
                          for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
                          {
                            const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                            const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                            if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                            {
                              const int64_t pA1 = pB1;
                              for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                              {
                                const int64_t B_idx2_pB2 = B_idx2[pB2];
                                const int64_t k = B_idx2_pB2;
                                const int64_t pT_CD0 = B_idx2_pB2;
                                if (0 <= (A_n2 - 1))
                                {
                                  const double factor_12 = B_val[pB2];
                                  #pragma GCC ivdep
                                  for (int64_t m = 0; m <= (A_n2 - 1); m++)
                                  {
                                    const int64_t pT_CD1 = m;
                                    const int64_t pA2 = m;
                                    A_val[(pA1 * A_n2) + pA2] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_12;
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
    if ((A_n2 == 32) && (D_N1 == 32))
  {
    {
      double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
      for (int64_t spf_zero_7 = 0; spf_zero_7 < T_CD_size; spf_zero_7++)
        T_CD_vals[spf_zero_7] = 0.0;

      {
        if (((1 <= C_N0) && (1 <= C_N1)) && (1 <= D_N1))
        {
          #pragma omp parallel for schedule(static) num_threads(spf_team_for((C_N0 * C_N1) * D_N1))
          for (int64_t k = 0; k <= (C_N0 - 1); k++)
          {
            const int64_t pC0 = k;
            const int64_t pT_CD0 = k;
            for (int64_t l = 0; l <= (C_N1 - 1); l++)
            {
              const int64_t pC1 = l;
              const int64_t pD0 = l;
              if (0 <= (D_N1 - 1))
              {
                const double factor_8 = C_vals[(pC0 * C_N1) + pC1];
                #pragma GCC ivdep
                for (int64_t m = 0; m <= (D_N1 - 1); m++)
                {
                  const int64_t pD1 = m;
                  const int64_t pT_CD1 = m;
                  T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += factor_8 * D_vals[(pD0 * D_N1) + pD1];
                }

              }
            }

          }

        }
      }
      {
        if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
        {
          {
            const int64_t spf_first = 0;
            const int64_t spf_last = B_nnz0 - 1;
            int64_t spf_base = 0;
            int64_t spf_total = 0;
            if (spf_first <= spf_last)
            {
              {
                const int64_t pB0 = spf_first;
                spf_base = B_ptr0[pB0];
              }
              {
                const int64_t pB0 = spf_last + 1;
                spf_total = ((spf_last + 1) - spf_first) + (B_ptr0[pB0] - spf_base);
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
                const int64_t spf_row_size = 1 * A_n2;
                const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                const int64_t spf_stop = spf_to;
                for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                {
                  const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                  const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
                  for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                    A_val[spf_zero] = 0.0;

                  for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
                  {
                    const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                    const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                    if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                    {
                      for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
                      {
                        const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                        const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                        if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                        {
                          const int64_t pA1 = pB1;
                          for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                          {
                            const int64_t B_idx2_pB2 = B_idx2[pB2];
                            const int64_t k = B_idx2_pB2;
                            const int64_t pT_CD0 = B_idx2_pB2;
                            if (0 <= (A_n2 - 1))
                            {
                              const double factor_9 = B_val[pB2];
                              #pragma GCC ivdep
                              for (int64_t m = 0; m <= (A_n2 - 1); m++)
                              {
                                const int64_t pT_CD1 = m;
                                const int64_t pA2 = m;
                                A_val[(pA1 * A_n2) + pA2] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_9;
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
                    const int64_t pB0 = spf_middle;
                    spf_weight = (spf_middle - spf_first) + (B_ptr0[pB0] - spf_base);
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
                    const int64_t spf_row_size = 1 * A_n2;
                    const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                    const int64_t spf_stop = spf_to;
                    for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                    {
                      const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                      const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
                      for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                        A_val[spf_zero] = 0.0;

                      for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
                      {
                        const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                        const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                        if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                        {
                          for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
                          {
                            const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                            const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                            if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                            {
                              const int64_t pA1 = pB1;
                              for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                              {
                                const int64_t B_idx2_pB2 = B_idx2[pB2];
                                const int64_t k = B_idx2_pB2;
                                const int64_t pT_CD0 = B_idx2_pB2;
                                if (0 <= (A_n2 - 1))
                                {
                                  const double factor_9 = B_val[pB2];
                                  #pragma GCC ivdep
                                  for (int64_t m = 0; m <= (A_n2 - 1); m++)
                                  {
                                    const int64_t pT_CD1 = m;
                                    const int64_t pA2 = m;
                                    A_val[(pA1 * A_n2) + pA2] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_9;
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
    if ((A_n2 == 64) && (D_N1 == 64))
  {
    {
      double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
      for (int64_t spf_zero_4 = 0; spf_zero_4 < T_CD_size; spf_zero_4++)
        T_CD_vals[spf_zero_4] = 0.0;

      {
        if (((1 <= C_N0) && (1 <= C_N1)) && (1 <= D_N1))
        {
          #pragma omp parallel for schedule(static) num_threads(spf_team_for((C_N0 * C_N1) * D_N1))
          for (int64_t k = 0; k <= (C_N0 - 1); k++)
          {
            const int64_t pC0 = k;
            const int64_t pT_CD0 = k;
            for (int64_t l = 0; l <= (C_N1 - 1); l++)
            {
              const int64_t pC1 = l;
              const int64_t pD0 = l;
              if (0 <= (D_N1 - 1))
              {
                const double factor_5 = C_vals[(pC0 * C_N1) + pC1];
                #pragma GCC ivdep
                for (int64_t m = 0; m <= (D_N1 - 1); m++)
                {
                  const int64_t pD1 = m;
                  const int64_t pT_CD1 = m;
                  T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += factor_5 * D_vals[(pD0 * D_N1) + pD1];
                }

              }
            }

          }

        }
      }
      {
        if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
        {
          {
            const int64_t spf_first = 0;
            const int64_t spf_last = B_nnz0 - 1;
            int64_t spf_base = 0;
            int64_t spf_total = 0;
            if (spf_first <= spf_last)
            {
              {
                const int64_t pB0 = spf_first;
                spf_base = B_ptr0[pB0];
              }
              {
                const int64_t pB0 = spf_last + 1;
                spf_total = ((spf_last + 1) - spf_first) + (B_ptr0[pB0] - spf_base);
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
                const int64_t spf_row_size = 1 * A_n2;
                const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                const int64_t spf_stop = spf_to;
                for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                {
                  const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                  const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
                  for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                    A_val[spf_zero] = 0.0;

                  for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
                  {
                    const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                    const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                    if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                    {
                      for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
                      {
                        const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                        const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                        if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                        {
                          const int64_t pA1 = pB1;
                          for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                          {
                            const int64_t B_idx2_pB2 = B_idx2[pB2];
                            const int64_t k = B_idx2_pB2;
                            const int64_t pT_CD0 = B_idx2_pB2;
                            if (0 <= (A_n2 - 1))
                            {
                              const double factor_6 = B_val[pB2];
                              #pragma GCC ivdep
                              for (int64_t m = 0; m <= (A_n2 - 1); m++)
                              {
                                const int64_t pT_CD1 = m;
                                const int64_t pA2 = m;
                                A_val[(pA1 * A_n2) + pA2] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_6;
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
                    const int64_t pB0 = spf_middle;
                    spf_weight = (spf_middle - spf_first) + (B_ptr0[pB0] - spf_base);
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
                    const int64_t spf_row_size = 1 * A_n2;
                    const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                    const int64_t spf_stop = spf_to;
                    for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                    {
                      const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                      const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
                      for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                        A_val[spf_zero] = 0.0;

                      for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
                      {
                        const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                        const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                        if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                        {
                          for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
                          {
                            const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                            const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                            if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                            {
                              const int64_t pA1 = pB1;
                              for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                              {
                                const int64_t B_idx2_pB2 = B_idx2[pB2];
                                const int64_t k = B_idx2_pB2;
                                const int64_t pT_CD0 = B_idx2_pB2;
                                if (0 <= (A_n2 - 1))
                                {
                                  const double factor_6 = B_val[pB2];
                                  #pragma GCC ivdep
                                  for (int64_t m = 0; m <= (A_n2 - 1); m++)
                                  {
                                    const int64_t pT_CD1 = m;
                                    const int64_t pA2 = m;
                                    A_val[(pA1 * A_n2) + pA2] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_6;
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
      double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
      for (int64_t spf_zero_1 = 0; spf_zero_1 < T_CD_size; spf_zero_1++)
        T_CD_vals[spf_zero_1] = 0.0;

      {
        if (((1 <= C_N0) && (1 <= C_N1)) && (1 <= D_N1))
        {
          #pragma omp parallel for schedule(static) num_threads(spf_team_for((C_N0 * C_N1) * D_N1))
          for (int64_t k = 0; k <= (C_N0 - 1); k++)
          {
            const int64_t pC0 = k;
            const int64_t pT_CD0 = k;
            for (int64_t l = 0; l <= (C_N1 - 1); l++)
            {
              const int64_t pC1 = l;
              const int64_t pD0 = l;
              if (0 <= (D_N1 - 1))
              {
                const double factor_2 = C_vals[(pC0 * C_N1) + pC1];
                #pragma GCC ivdep
                for (int64_t m = 0; m <= (D_N1 - 1); m++)
                {
                  const int64_t pD1 = m;
                  const int64_t pT_CD1 = m;
                  T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += factor_2 * D_vals[(pD0 * D_N1) + pD1];
                }

              }
            }

          }

        }
      }
      {
        if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
        {
          {
            const int64_t spf_first = 0;
            const int64_t spf_last = B_nnz0 - 1;
            int64_t spf_base = 0;
            int64_t spf_total = 0;
            if (spf_first <= spf_last)
            {
              {
                const int64_t pB0 = spf_first;
                spf_base = B_ptr0[pB0];
              }
              {
                const int64_t pB0 = spf_last + 1;
                spf_total = ((spf_last + 1) - spf_first) + (B_ptr0[pB0] - spf_base);
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
                const int64_t spf_row_size = 1 * A_n2;
                const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                const int64_t spf_stop = spf_to;
                for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                {
                  const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                  const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
                  for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                    A_val[spf_zero] = 0.0;

                  for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
                  {
                    const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                    const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                    if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                    {
                      for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
                      {
                        const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                        const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                        if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                        {
                          const int64_t pA1 = pB1;
                          for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                          {
                            const int64_t B_idx2_pB2 = B_idx2[pB2];
                            const int64_t k = B_idx2_pB2;
                            const int64_t pT_CD0 = B_idx2_pB2;
                            if (0 <= (A_n2 - 1))
                            {
                              const double factor_3 = B_val[pB2];
                              #pragma GCC ivdep
                              for (int64_t m = 0; m <= (A_n2 - 1); m++)
                              {
                                const int64_t pT_CD1 = m;
                                const int64_t pA2 = m;
                                A_val[(pA1 * A_n2) + pA2] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_3;
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
                    const int64_t pB0 = spf_middle;
                    spf_weight = (spf_middle - spf_first) + (B_ptr0[pB0] - spf_base);
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
                    const int64_t spf_row_size = 1 * A_n2;
                    const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
                    const int64_t spf_stop = spf_to;
                    for (int64_t spf_block = spf_from; spf_block < spf_stop; spf_block += spf_block_rows)
                    {
                      const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                      const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
                      for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                        A_val[spf_zero] = 0.0;

                      for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
                      {
                        const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                        const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                        if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                        {
                          for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
                          {
                            const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                            const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                            if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                            {
                              const int64_t pA1 = pB1;
                              for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                              {
                                const int64_t B_idx2_pB2 = B_idx2[pB2];
                                const int64_t k = B_idx2_pB2;
                                const int64_t pT_CD0 = B_idx2_pB2;
                                if (0 <= (A_n2 - 1))
                                {
                                  const double factor_3 = B_val[pB2];
                                  #pragma GCC ivdep
                                  for (int64_t m = 0; m <= (A_n2 - 1); m++)
                                  {
                                    const int64_t pT_CD1 = m;
                                    const int64_t pA2 = m;
                                    A_val[(pA1 * A_n2) + pA2] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_3;
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
  free(T_CD_vals_all);
  return 0;
}


void spf_fused_02022743ac_release_state(void)
{
}
