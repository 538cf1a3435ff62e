#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_16E354EBEB_H_STRUCTS
#define SPF_FUSED_16E354EBEB_H_STRUCTS

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


#endif /* SPF_FUSED_16E354EBEB_H_STRUCTS */


int spf_fused_16e354ebeb(struct spf_CSF3 *T, struct spf_Dense2 *U, struct spf_Dense2 *V, struct spf_Dense2 *W, struct spf_CSF3 *S)
{
  const int64_t T_n0 = T->n0;
  const int64_t T_n1 = T->n1;
  const int64_t T_n2 = T->n2;
  const int64_t T_nnz0 = T->nnz0;
  const int64_t T_nnz1 = T->nnz1;
  const int64_t T_nnz2 = T->nnz2;
  int * restrict T_idx0 = T->idx0;
  int * restrict T_ptr0 = T->ptr0;
  int * restrict T_idx1 = T->idx1;
  int * restrict T_ptr1 = T->ptr1;
  int * restrict T_idx2 = T->idx2;
  double * restrict T_val = T->val;
  const int64_t U_N0 = U->N0;
  const int64_t U_N1 = U->N1;
  double * restrict U_vals = U->vals;
  const int64_t V_N0 = V->N0;
  const int64_t V_N1 = V->N1;
  double * restrict V_vals = V->vals;
  const int64_t W_N0 = W->N0;
  const int64_t W_N1 = W->N1;
  double * restrict W_vals = W->vals;
  const int64_t S_n0 = S->n0;
  const int64_t S_n1 = S->n1;
  const int64_t S_n2 = S->n2;
  double * restrict S_val = S->val;
  const int64_t N_r = V_N1;
  const int64_t N_j = V_N0;
  const int64_t N_i = U_N0;
  const int64_t N_k = T_n2;
  const int64_t T_UV_N0 = N_r;
  const int64_t T_UV_size = N_r;
  const int64_t T_UV_vals_stride = ((T_UV_size / 8) + 1) * 8;
  double *T_UV_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_UV_vals_stride));
  if (T_UV_vals_all == NULL)
  {
    free(T_UV_vals_all);
    return 2;
  }
  if (!((((((((((V_N1 == U_N1) && (V_N0 == T_n1)) && (U_N0 == T_n0)) && (V_N1 == U_N1)) && (V_N1 == T_UV_N0)) && (W_N0 == T_n2)) && (W_N1 == T_UV_N0)) && (W_N0 == S_n2)) && (T_n1 == S_n1)) && (T_n0 == S_n0)))
  {
    free(T_UV_vals_all);
    return 1;
  }
  for (int64_t spf_zero = 0; spf_zero < T_nnz2; spf_zero++)
    S_val[spf_zero] = 0.0;

  if (N_r == 16)
  {
    {
      if (((((1 <= U_N0) && (1 <= V_N0)) && (1 <= T_n2)) && (1 <= V_N1)) && (1 <= T_nnz0))
      {
        for (int64_t pT0 = 0; pT0 <= (T_nnz0 - 1); pT0++)
        {
          const int64_t T_idx0_pT0 = T_idx0[pT0];
          const int64_t T_ptr0_pT0 = T_ptr0[pT0];
          const int64_t T_ptr0_pT0_1 = T_ptr0[pT0 + 1];
          if ((T_ptr0_pT0 + 1) <= T_ptr0_pT0_1)
          {
            const int64_t pU0 = T_idx0_pT0;
            for (int64_t pT1 = T_ptr0_pT0; pT1 <= (T_ptr0_pT0_1 - 1); pT1++)
            {
              const int64_t T_idx1_pT1 = T_idx1[pT1];
              const int64_t T_ptr1_pT1 = T_ptr1[pT1];
              const int64_t T_ptr1_pT1_1 = T_ptr1[pT1 + 1];
              if ((T_ptr1_pT1 + 1) <= T_ptr1_pT1_1)
              {
                const int64_t pV0 = T_idx1_pT1;
                {
                  double * restrict T_UV_vals = T_UV_vals_all + (spf_thread() * T_UV_vals_stride);
                  for (int64_t spf_zero_22 = 0; spf_zero_22 < T_UV_size; spf_zero_22++)
                    T_UV_vals[spf_zero_22] = 0.0;

                  {
                    if (((1 <= U_N0) && (1 <= V_N0)) && (1 <= V_N1))
                    {
                      #pragma GCC ivdep
                      for (int64_t r = 0; r <= (N_r - 1); r++)
                      {
                        const int64_t pU1 = r;
                        const int64_t pV1 = pU1;
                        const int64_t pT_UV0 = pU1;
                        T_UV_vals[pT_UV0] += U_vals[(pU0 * U_N1) + pU1] * V_vals[(pV0 * V_N1) + pV1];
                      }

                    }
                  }
                  {
                    if (((((1 <= T_n0) && (1 <= T_n1)) && (1 <= W_N0)) && (1 <= W_N1)) && (1 <= T_nnz0))
                    {
                      const int64_t T_ptr1_pT1_2 = T_ptr1[pT1];
                      const int64_t T_ptr1_pT1_1_2 = T_ptr1[pT1 + 1];
                      {
                        int64_t spf_jam_23 = T_ptr1_pT1_2;
                        for (; (spf_jam_23 + 3) <= (T_ptr1_pT1_1_2 - 1); spf_jam_23 += 4)
                        {
                          int64_t pT2_lane0 = spf_jam_23 + 0;
                          const int64_t T_idx2_pT2_2_lane0 = T_idx2[pT2_lane0];
                          const int64_t pW0_lane0 = T_idx2_pT2_2_lane0;
                          const int64_t pS2_lane0 = pT2_lane0;
                          int64_t pT2_lane1 = spf_jam_23 + 1;
                          const int64_t T_idx2_pT2_2_lane1 = T_idx2[pT2_lane1];
                          const int64_t pW0_lane1 = T_idx2_pT2_2_lane1;
                          const int64_t pS2_lane1 = pT2_lane1;
                          int64_t pT2_lane2 = spf_jam_23 + 2;
                          const int64_t T_idx2_pT2_2_lane2 = T_idx2[pT2_lane2];
                          const int64_t pW0_lane2 = T_idx2_pT2_2_lane2;
                          const int64_t pS2_lane2 = pT2_lane2;
                          int64_t pT2_lane3 = spf_jam_23 + 3;
                          const int64_t T_idx2_pT2_2_lane3 = T_idx2[pT2_lane3];
                          const int64_t pW0_lane3 = T_idx2_pT2_2_lane3;
                          const int64_t pS2_lane3 = pT2_lane3;
                          double sum_24 = 0.0;
                          double sum_25 = 0.0;
                          double sum_26 = 0.0;
                          double sum_27 = 0.0;
                          for (int64_t r = 0; r <= (N_r - 1); r++)
                          {
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_24 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane0 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_25 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane1 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_26 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane2 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_27 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane3 * W_N1) + pW1];
                            }
                          }

                          {
                            S_val[pS2_lane0] += T_val[pT2_lane0] * sum_24;
                          }
                          {
                            S_val[pS2_lane1] += T_val[pT2_lane1] * sum_25;
                          }
                          {
                            S_val[pS2_lane2] += T_val[pT2_lane2] * sum_26;
                          }
                          {
                            S_val[pS2_lane3] += T_val[pT2_lane3] * sum_27;
                          }
                        }

                        for (int64_t pT2 = spf_jam_23; pT2 <= (T_ptr1_pT1_1_2 - 1); pT2++)
                        {
                          const int64_t T_idx2_pT2_2 = T_idx2[pT2];
                          const int64_t pW0 = T_idx2_pT2_2;
                          const int64_t pS2 = pT2;
                          double sum_28 = 0.0;
                          for (int64_t r = 0; r <= (N_r - 1); r++)
                          {
                            const int64_t pW1 = r;
                            const int64_t pT_UV0 = pW1;
                            sum_28 += T_UV_vals[pT_UV0] * W_vals[(pW0 * W_N1) + pW1];
                          }

                          S_val[pS2] += T_val[pT2] * sum_28;
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
    if (N_r == 32)
  {
    {
      if (((((1 <= U_N0) && (1 <= V_N0)) && (1 <= T_n2)) && (1 <= V_N1)) && (1 <= T_nnz0))
      {
        for (int64_t pT0 = 0; pT0 <= (T_nnz0 - 1); pT0++)
        {
          const int64_t T_idx0_pT0 = T_idx0[pT0];
          const int64_t T_ptr0_pT0 = T_ptr0[pT0];
          const int64_t T_ptr0_pT0_1 = T_ptr0[pT0 + 1];
          if ((T_ptr0_pT0 + 1) <= T_ptr0_pT0_1)
          {
            const int64_t pU0 = T_idx0_pT0;
            for (int64_t pT1 = T_ptr0_pT0; pT1 <= (T_ptr0_pT0_1 - 1); pT1++)
            {
              const int64_t T_idx1_pT1 = T_idx1[pT1];
              const int64_t T_ptr1_pT1 = T_ptr1[pT1];
              const int64_t T_ptr1_pT1_1 = T_ptr1[pT1 + 1];
              if ((T_ptr1_pT1 + 1) <= T_ptr1_pT1_1)
              {
                const int64_t pV0 = T_idx1_pT1;
                {
                  double * restrict T_UV_vals = T_UV_vals_all + (spf_thread() * T_UV_vals_stride);
                  for (int64_t spf_zero_15 = 0; spf_zero_15 < T_UV_size; spf_zero_15++)
                    T_UV_vals[spf_zero_15] = 0.0;

                  {
                    if (((1 <= U_N0) && (1 <= V_N0)) && (1 <= V_N1))
                    {
                      #pragma GCC ivdep
                      for (int64_t r = 0; r <= (N_r - 1); r++)
                      {
                        const int64_t pU1 = r;
                        const int64_t pV1 = pU1;
                        const int64_t pT_UV0 = pU1;
                        T_UV_vals[pT_UV0] += U_vals[(pU0 * U_N1) + pU1] * V_vals[(pV0 * V_N1) + pV1];
                      }

                    }
                  }
                  {
                    if (((((1 <= T_n0) && (1 <= T_n1)) && (1 <= W_N0)) && (1 <= W_N1)) && (1 <= T_nnz0))
                    {
                      const int64_t T_ptr1_pT1_2 = T_ptr1[pT1];
                      const int64_t T_ptr1_pT1_1_2 = T_ptr1[pT1 + 1];
                      {
                        int64_t spf_jam_16 = T_ptr1_pT1_2;
                        for (; (spf_jam_16 + 3) <= (T_ptr1_pT1_1_2 - 1); spf_jam_16 += 4)
                        {
                          int64_t pT2_lane0 = spf_jam_16 + 0;
                          const int64_t T_idx2_pT2_2_lane0 = T_idx2[pT2_lane0];
                          const int64_t pW0_lane0 = T_idx2_pT2_2_lane0;
                          const int64_t pS2_lane0 = pT2_lane0;
                          int64_t pT2_lane1 = spf_jam_16 + 1;
                          const int64_t T_idx2_pT2_2_lane1 = T_idx2[pT2_lane1];
                          const int64_t pW0_lane1 = T_idx2_pT2_2_lane1;
                          const int64_t pS2_lane1 = pT2_lane1;
                          int64_t pT2_lane2 = spf_jam_16 + 2;
                          const int64_t T_idx2_pT2_2_lane2 = T_idx2[pT2_lane2];
                          const int64_t pW0_lane2 = T_idx2_pT2_2_lane2;
                          const int64_t pS2_lane2 = pT2_lane2;
                          int64_t pT2_lane3 = spf_jam_16 + 3;
                          const int64_t T_idx2_pT2_2_lane3 = T_idx2[pT2_lane3];
                          const int64_t pW0_lane3 = T_idx2_pT2_2_lane3;
                          const int64_t pS2_lane3 = pT2_lane3;
                          double sum_17 = 0.0;
                          double sum_18 = 0.0;
                          double sum_19 = 0.0;
                          double sum_20 = 0.0;
                          for (int64_t r = 0; r <= (N_r - 1); r++)
                          {
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_17 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane0 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_18 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane1 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_19 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane2 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_20 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane3 * W_N1) + pW1];
                            }
                          }

                          {
                            S_val[pS2_lane0] += T_val[pT2_lane0] * sum_17;
                          }
                          {
                            S_val[pS2_lane1] += T_val[pT2_lane1] * sum_18;
                          }
                          {
                            S_val[pS2_lane2] += T_val[pT2_lane2] * sum_19;
                          }
                          {
                            S_val[pS2_lane3] += T_val[pT2_lane3] * sum_20;
                          }
                        }

                        for (int64_t pT2 = spf_jam_16; pT2 <= (T_ptr1_pT1_1_2 - 1); pT2++)
                        {
                          const int64_t T_idx2_pT2_2 = T_idx2[pT2];
                          const int64_t pW0 = T_idx2_pT2_2;
                          const int64_t pS2 = pT2;
                          double sum_21 = 0.0;
                          for (int64_t r = 0; r <= (N_r - 1); r++)
                          {
                            const int64_t pW1 = r;
                            const int64_t pT_UV0 = pW1;
                            sum_21 += T_UV_vals[pT_UV0] * W_vals[(pW0 * W_N1) + pW1];
                          }

                          S_val[pS2] += T_val[pT2] * sum_21;
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
    if (N_r == 64)
  {
    {
      if (((((1 <= U_N0) && (1 <= V_N0)) && (1 <= T_n2)) && (1 <= V_N1)) && (1 <= T_nnz0))
      {
        for (int64_t pT0 = 0; pT0 <= (T_nnz0 - 1); pT0++)
        {
          const int64_t T_idx0_pT0 = T_idx0[pT0];
          const int64_t T_ptr0_pT0 = T_ptr0[pT0];
          const int64_t T_ptr0_pT0_1 = T_ptr0[pT0 + 1];
          if ((T_ptr0_pT0 + 1) <= T_ptr0_pT0_1)
          {
            const int64_t pU0 = T_idx0_pT0;
            for (int64_t pT1 = T_ptr0_pT0; pT1 <= (T_ptr0_pT0_1 - 1); pT1++)
            {
              const int64_t T_idx1_pT1 = T_idx1[pT1];
              const int64_t T_ptr1_pT1 = T_ptr1[pT1];
              const int64_t T_ptr1_pT1_1 = T_ptr1[pT1 + 1];
              if ((T_ptr1_pT1 + 1) <= T_ptr1_pT1_1)
              {
                const int64_t pV0 = T_idx1_pT1;
                {
                  double * restrict T_UV_vals = T_UV_vals_all + (spf_thread() * T_UV_vals_stride);
                  for (int64_t spf_zero_8 = 0; spf_zero_8 < T_UV_size; spf_zero_8++)
                    T_UV_vals[spf_zero_8] = 0.0;

                  {
                    if (((1 <= U_N0) && (1 <= V_N0)) && (1 <= V_N1))
                    {
                      #pragma GCC ivdep
                      for (int64_t r = 0; r <= (N_r - 1); r++)
                      {
                        const int64_t pU1 = r;
                        const int64_t pV1 = pU1;
                        const int64_t pT_UV0 = pU1;
                        T_UV_vals[pT_UV0] += U_vals[(pU0 * U_N1) + pU1] * V_vals[(pV0 * V_N1) + pV1];
                      }

                    }
                  }
                  {
                    if (((((1 <= T_n0) && (1 <= T_n1)) && (1 <= W_N0)) && (1 <= W_N1)) && (1 <= T_nnz0))
                    {
                      const int64_t T_ptr1_pT1_2 = T_ptr1[pT1];
                      const int64_t T_ptr1_pT1_1_2 = T_ptr1[pT1 + 1];
                      {
                        int64_t spf_jam_9 = T_ptr1_pT1_2;
                        for (; (spf_jam_9 + 3) <= (T_ptr1_pT1_1_2 - 1); spf_jam_9 += 4)
                        {
                          int64_t pT2_lane0 = spf_jam_9 + 0;
                          const int64_t T_idx2_pT2_2_lane0 = T_idx2[pT2_lane0];
                          const int64_t pW0_lane0 = T_idx2_pT2_2_lane0;
                          const int64_t pS2_lane0 = pT2_lane0;
                          int64_t pT2_lane1 = spf_jam_9 + 1;
                          const int64_t T_idx2_pT2_2_lane1 = T_idx2[pT2_lane1];
                          const int64_t pW0_lane1 = T_idx2_pT2_2_lane1;
                          const int64_t pS2_lane1 = pT2_lane1;
                          int64_t pT2_lane2 = spf_jam_9 + 2;
                          const int64_t T_idx2_pT2_2_lane2 = T_idx2[pT2_lane2];
                          const int64_t pW0_lane2 = T_idx2_pT2_2_lane2;
                          const int64_t pS2_lane2 = pT2_lane2;
                          int64_t pT2_lane3 = spf_jam_9 + 3;
                          const int64_t T_idx2_pT2_2_lane3 = T_idx2[pT2_lane3];
                          const int64_t pW0_lane3 = T_idx2_pT2_2_lane3;
                          const int64_t pS2_lane3 = pT2_lane3;
                          double sum_10 = 0.0;
                          double sum_11 = 0.0;
                          double sum_12 = 0.0;
                          double sum_13 = 0.0;
                          for (int64_t r = 0; r <= (N_r - 1); r++)
                          {
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_10 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane0 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_11 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane1 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_12 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane2 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_13 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane3 * W_N1) + pW1];
                            }
                          }

                          {
                            S_val[pS2_lane0] += T_val[pT2_lane0] * sum_10;
                          }
                          {
                            S_val[pS2_lane1] += T_val[pT2_lane1] * sum_11;
                          }
                          {
                            S_val[pS2_lane2] += T_val[pT2_lane2] * sum_12;
                          }
                          {
                            S_val[pS2_lane3] += T_val[pT2_lane3] * sum_13;
                          }
                        }

                        for (int64_t pT2 = spf_jam_9; pT2 <= (T_ptr1_pT1_1_2 - 1); pT2++)
                        {
                          const int64_t T_idx2_pT2_2 = T_idx2[pT2];
                          const int64_t pW0 = T_idx2_pT2_2;
                          const int64_t pS2 = pT2;
                          double sum_14 = 0.0;
                          for (int64_t r = 0; r <= (N_r - 1); r++)
                          {
                            const int64_t pW1 = r;
                            const int64_t pT_UV0 = pW1;
                            sum_14 += T_UV_vals[pT_UV0] * W_vals[(pW0 * W_N1) + pW1];
                          }

                          S_val[pS2] += T_val[pT2] * sum_14;
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
      if (((((1 <= U_N0) && (1 <= V_N0)) && (1 <= T_n2)) && (1 <= V_N1)) && (1 <= T_nnz0))
      {
        for (int64_t pT0 = 0; pT0 <= (T_nnz0 - 1); pT0++)
        {
          const int64_t T_idx0_pT0 = T_idx0[pT0];
          const int64_t T_ptr0_pT0 = T_ptr0[pT0];
          const int64_t T_ptr0_pT0_1 = T_ptr0[pT0 + 1];
          if ((T_ptr0_pT0 + 1) <= T_ptr0_pT0_1)
          {
            const int64_t pU0 = T_idx0_pT0;
            for (int64_t pT1 = T_ptr0_pT0; pT1 <= (T_ptr0_pT0_1 - 1); pT1++)
            {
              const int64_t T_idx1_pT1 = T_idx1[pT1];
              const int64_t T_ptr1_pT1 = T_ptr1[pT1];
              const int64_t T_ptr1_pT1_1 = T_ptr1[pT1 + 1];
              if ((T_ptr1_pT1 + 1) <= T_ptr1_pT1_1)
              {
                const int64_t pV0 = T_idx1_pT1;
                {
                  double * restrict T_UV_vals = T_UV_vals_all + (spf_thread() * T_UV_vals_stride);
                  for (int64_t spf_zero_1 = 0; spf_zero_1 < T_UV_size; spf_zero_1++)
                    T_UV_vals[spf_zero_1] = 0.0;

                  {
                    if (((1 <= U_N0) && (1 <= V_N0)) && (1 <= V_N1))
                    {
                      #pragma GCC ivdep
                      for (int64_t r = 0; r <= (N_r - 1); r++)
                      {
                        const int64_t pU1 = r;
                        const int64_t pV1 = pU1;
                        const int64_t pT_UV0 = pU1;
                        T_UV_vals[pT_UV0] += U_vals[(pU0 * U_N1) + pU1] * V_vals[(pV0 * V_N1) + pV1];
                      }

                    }
                  }
                  {
                    if (((((1 <= T_n0) && (1 <= T_n1)) && (1 <= W_N0)) && (1 <= W_N1)) && (1 <= T_nnz0))
                    {
                      const int64_t T_ptr1_pT1_2 = T_ptr1[pT1];
                      const int64_t T_ptr1_pT1_1_2 = T_ptr1[pT1 + 1];
                      {
                        int64_t spf_jam_2 = T_ptr1_pT1_2;
                        for (; (spf_jam_2 + 3) <= (T_ptr1_pT1_1_2 - 1); spf_jam_2 += 4)
                        {
                          int64_t pT2_lane0 = spf_jam_2 + 0;
                          const int64_t T_idx2_pT2_2_lane0 = T_idx2[pT2_lane0];
                          const int64_t pW0_lane0 = T_idx2_pT2_2_lane0;
                          const int64_t pS2_lane0 = pT2_lane0;
                          int64_t pT2_lane1 = spf_jam_2 + 1;
                          const int64_t T_idx2_pT2_2_lane1 = T_idx2[pT2_lane1];
                          const int64_t pW0_lane1 = T_idx2_pT2_2_lane1;
                          const int64_t pS2_lane1 = pT2_lane1;
                          int64_t pT2_lane2 = spf_jam_2 + 2;
                          const int64_t T_idx2_pT2_2_lane2 = T_idx2[pT2_lane2];
                          const int64_t pW0_lane2 = T_idx2_pT2_2_lane2;
                          const int64_t pS2_lane2 = pT2_lane2;
                          int64_t pT2_lane3 = spf_jam_2 + 3;
                          const int64_t T_idx2_pT2_2_lane3 = T_idx2[pT2_lane3];
                          const int64_t pW0_lane3 = T_idx2_pT2_2_lane3;
                          const int64_t pS2_lane3 = pT2_lane3;
                          double sum_3 = 0.0;
                          double sum_4 = 0.0;
                          double sum_5 = 0.0;
                          double sum_6 = 0.0;
                          for (int64_t r = 0; r <= (N_r - 1); r++)
                          {
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_3 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane0 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_4 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane1 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_5 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane2 * W_N1) + pW1];
                            }
                            {
                              const int64_t pW1 = r;
                              const int64_t pT_UV0 = pW1;
                              sum_6 += T_UV_vals[pT_UV0] * W_vals[(pW0_lane3 * W_N1) + pW1];
                            }
                          }

                          {
                            S_val[pS2_lane0] += T_val[pT2_lane0] * sum_3;
                          }
                          {
                            S_val[pS2_lane1] += T_val[pT2_lane1] * sum_4;
                          }
                          {
                            S_val[pS2_lane2] += T_val[pT2_lane2] * sum_5;
                          }
                          {
                            S_val[pS2_lane3] += T_val[pT2_lane3] * sum_6;
                          }
                        }

                        for (int64_t pT2 = spf_jam_2; pT2 <= (T_ptr1_pT1_1_2 - 1); pT2++)
                        {
                          const int64_t T_idx2_pT2_2 = T_idx2[pT2];
                          const int64_t pW0 = T_idx2_pT2_2;
                          const int64_t pS2 = pT2;
                          double sum_7 = 0.0;
                          for (int64_t r = 0; r <= (N_r - 1); r++)
                          {
                            const int64_t pW1 = r;
                            const int64_t pT_UV0 = pW1;
                            sum_7 += T_UV_vals[pT_UV0] * W_vals[(pW0 * W_N1) + pW1];
                          }

                          S_val[pS2] += T_val[pT2] * sum_7;
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
  free(T_UV_vals_all);
  return 0;
}


void spf_fused_16e354ebeb_release_state(void)
{
}
