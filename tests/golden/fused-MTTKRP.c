#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_01261AF021_H_STRUCTS
#define SPF_FUSED_01261AF021_H_STRUCTS

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


#endif /* SPF_FUSED_01261AF021_H_STRUCTS */


int spf_fused_01261af021(struct spf_CSF3 *B, struct spf_Dense2 *C, struct spf_Dense2 *D, struct spf_Dense2 *A)
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
  const int64_t A_N0 = A->N0;
  const int64_t A_N1 = A->N1;
  double * restrict A_vals = A->vals;
  const int64_t N_k = B_n2;
  const int64_t N_j = B_n1;
  const int64_t N_i = B_n0;
  const int64_t N_a = C_N1;
  const int64_t T_BC_N0 = N_a;
  const int64_t T_BC_size = N_a;
  const int64_t T_BC_vals_stride = ((T_BC_size / 8) + 1) * 8;
  double *T_BC_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_BC_vals_stride));
  if (T_BC_vals_all == NULL)
  {
    free(T_BC_vals_all);
    return 2;
  }
  if (!(((((B_n1 == C_N0) && (D_N1 == T_BC_N0)) && (B_n2 == D_N0)) && (A_N1 == T_BC_N0)) && (A_N1 == C_N1)))
  {
    free(T_BC_vals_all);
    return 1;
  }
  for (int64_t spf_zero = 0; spf_zero < (A_N0 * A_N1); spf_zero++)
    A_vals[spf_zero] = 0.0;

  if ((A_N1 == 16) && (D_N1 == 16))
  {
    {
      if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_N1)) && (1 <= B_nnz0))
      {
        for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
        {
          const int64_t B_idx0_pB0 = B_idx0[pB0];
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            const int64_t i = B_idx0_pB0;
            for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
            {
              const int64_t B_idx1_pB1 = B_idx1[pB1];
              const int64_t B_ptr1_pB1 = B_ptr1[pB1];
              const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
              if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
              {
                const int64_t pC0 = B_idx1_pB1;
                {
                  double * restrict T_BC_vals = T_BC_vals_all + (spf_thread() * T_BC_vals_stride);
                  for (int64_t spf_zero_7 = 0; spf_zero_7 < T_BC_size; spf_zero_7++)
                    T_BC_vals[spf_zero_7] = 0.0;

                  {
                    if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= D_N1)) && (1 <= B_nnz0))
                    {
                      const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                      const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                      for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                      {
                        const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                        const int64_t pD0 = B_idx2_pB2_2;
                        if (0 <= (D_N1 - 1))
                        {
                          const double factor_8 = B_val[pB2];
                          #pragma GCC ivdep
                          for (int64_t a = 0; a <= (D_N1 - 1); a++)
                          {
                            const int64_t pD1 = a;
                            const int64_t pT_BC0 = a;
                            T_BC_vals[pT_BC0] += factor_8 * D_vals[(pD0 * D_N1) + pD1];
                          }

                        }
                      }

                    }
                  }
                  {
                    if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= C_N0))
                    {
                      const int64_t pA0 = i;
                      #pragma GCC ivdep
                      for (int64_t a = 0; a <= (A_N1 - 1); a++)
                      {
                        const int64_t pC1 = a;
                        const int64_t pT_BC0 = a;
                        const int64_t pA1 = a;
                        A_vals[(pA0 * A_N1) + pA1] += T_BC_vals[pT_BC0] * C_vals[(pC0 * C_N1) + pC1];
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
    if ((A_N1 == 32) && (D_N1 == 32))
  {
    {
      if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_N1)) && (1 <= B_nnz0))
      {
        for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
        {
          const int64_t B_idx0_pB0 = B_idx0[pB0];
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            const int64_t i = B_idx0_pB0;
            for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
            {
              const int64_t B_idx1_pB1 = B_idx1[pB1];
              const int64_t B_ptr1_pB1 = B_ptr1[pB1];
              const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
              if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
              {
                const int64_t pC0 = B_idx1_pB1;
                {
                  double * restrict T_BC_vals = T_BC_vals_all + (spf_thread() * T_BC_vals_stride);
                  for (int64_t spf_zero_5 = 0; spf_zero_5 < T_BC_size; spf_zero_5++)
                    T_BC_vals[spf_zero_5] = 0.0;

                  {
                    if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= D_N1)) && (1 <= B_nnz0))
                    {
                      const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                      const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                      for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                      {
                        const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                        const int64_t pD0 = B_idx2_pB2_2;
                        if (0 <= (D_N1 - 1))
                        {
                          const double factor_6 = B_val[pB2];
                          #pragma GCC ivdep
                          for (int64_t a = 0; a <= (D_N1 - 1); a++)
                          {
                            const int64_t pD1 = a;
                            const int64_t pT_BC0 = a;
                            T_BC_vals[pT_BC0] += factor_6 * D_vals[(pD0 * D_N1) + pD1];
                          }

                        }
                      }

                    }
                  }
                  {
                    if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= C_N0))
                    {
                      const int64_t pA0 = i;
                      #pragma GCC ivdep
                      for (int64_t a = 0; a <= (A_N1 - 1); a++)
                      {
                        const int64_t pC1 = a;
                        const int64_t pT_BC0 = a;
                        const int64_t pA1 = a;
                        A_vals[(pA0 * A_N1) + pA1] += T_BC_vals[pT_BC0] * C_vals[(pC0 * C_N1) + pC1];
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
    if ((A_N1 == 64) && (D_N1 == 64))
  {
    {
      if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_N1)) && (1 <= B_nnz0))
      {
        for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
        {
          const int64_t B_idx0_pB0 = B_idx0[pB0];
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            const int64_t i = B_idx0_pB0;
            for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
            {
              const int64_t B_idx1_pB1 = B_idx1[pB1];
              const int64_t B_ptr1_pB1 = B_ptr1[pB1];
              const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
              if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
              {
                const int64_t pC0 = B_idx1_pB1;
                {
                  double * restrict T_BC_vals = T_BC_vals_all + (spf_thread() * T_BC_vals_stride);
                  for (int64_t spf_zero_3 = 0; spf_zero_3 < T_BC_size; spf_zero_3++)
                    T_BC_vals[spf_zero_3] = 0.0;

                  {
                    if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= D_N1)) && (1 <= B_nnz0))
                    {
                      const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                      const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                      for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                      {
                        const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                        const int64_t pD0 = B_idx2_pB2_2;
                        if (0 <= (D_N1 - 1))
                        {
                          const double factor_4 = B_val[pB2];
                          #pragma GCC ivdep
                          for (int64_t a = 0; a <= (D_N1 - 1); a++)
                          {
                            const int64_t pD1 = a;
                            const int64_t pT_BC0 = a;
                            T_BC_vals[pT_BC0] += factor_4 * D_vals[(pD0 * D_N1) + pD1];
                          }

                        }
                      }

                    }
                  }
                  {
                    if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= C_N0))
                    {
                      const int64_t pA0 = i;
                      #pragma GCC ivdep
                      for (int64_t a = 0; a <= (A_N1 - 1); a++)
                      {
                        const int64_t pC1 = a;
                        const int64_t pT_BC0 = a;
                        const int64_t pA1 = a;
                        A_vals[(pA0 * A_N1) + pA1] += T_BC_vals[pT_BC0] * C_vals[(pC0 * C_N1) + pC1];
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
      if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_N1)) && (1 <= B_nnz0))
      {
        for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
        {
          const int64_t B_idx0_pB0 = B_idx0[pB0];
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            const int64_t i = B_idx0_pB0;
            for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
            {
              const int64_t B_idx1_pB1 = B_idx1[pB1];
              const int64_t B_ptr1_pB1 = B_ptr1[pB1];
              const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
              if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
              {
                const int64_t pC0 = B_idx1_pB1;
                {
                  double * restrict T_BC_vals = T_BC_vals_all + (spf_thread() * T_BC_vals_stride);
                  for (int64_t spf_zero_1 = 0; spf_zero_1 < T_BC_size; spf_zero_1++)
                    T_BC_vals[spf_zero_1] = 0.0;

                  {
                    if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= D_N1)) && (1 <= B_nnz0))
                    {
                      const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                      const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                      for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                      {
                        const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                        const int64_t pD0 = B_idx2_pB2_2;
                        if (0 <= (D_N1 - 1))
                        {
                          const double factor_2 = B_val[pB2];
                          #pragma GCC ivdep
                          for (int64_t a = 0; a <= (D_N1 - 1); a++)
                          {
                            const int64_t pD1 = a;
                            const int64_t pT_BC0 = a;
                            T_BC_vals[pT_BC0] += factor_2 * D_vals[(pD0 * D_N1) + pD1];
                          }

                        }
                      }

                    }
                  }
                  {
                    if (((1 <= A_N0) && (1 <= A_N1)) && (1 <= C_N0))
                    {
                      const int64_t pA0 = i;
                      #pragma GCC ivdep
                      for (int64_t a = 0; a <= (A_N1 - 1); a++)
                      {
                        const int64_t pC1 = a;
                        const int64_t pT_BC0 = a;
                        const int64_t pA1 = a;
                        A_vals[(pA0 * A_N1) + pA1] += T_BC_vals[pT_BC0] * C_vals[(pC0 * C_N1) + pC1];
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
  free(T_BC_vals_all);
  return 0;
}


void spf_fused_01261af021_release_state(void)
{
}
