#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_2F69E76000_H_STRUCTS
#define SPF_FUSED_2F69E76000_H_STRUCTS

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

#ifndef SPF_STRUCT_CSF6_64C32B05
#define SPF_STRUCT_CSF6_64C32B05
/*
 * CSF6: compressed sparse fiber, order 6
 */
struct spf_CSF6
{
  int n0;
  int n1;
  int n2;
  int n3;
  int n4;
  int n5;
  int nnz0;
  int nnz1;
  int nnz2;
  int nnz3;
  int nnz4;
  int nnz5;
  int *idx0;
  int *ptr0;
  int *idx1;
  int *ptr1;
  int *idx2;
  int *ptr2;
  int *idx3;
  int *ptr3;
  int *idx4;
  int *ptr4;
  int *idx5;
  double *val;
};
#endif /* SPF_STRUCT_CSF6_64C32B05 */

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

#ifndef SPF_STRUCT_Dense3_EF191ACE
#define SPF_STRUCT_Dense3_EF191ACE
/*
 * Dense3: dense order-3 tensor, row-major
 *   vals: double[N0][N1][N2], flattened row-major
 */
struct spf_Dense3
{
  int N0;
  int N1;
  int N2;
  double *vals;
};
#endif /* SPF_STRUCT_Dense3_EF191ACE */


#endif /* SPF_FUSED_2F69E76000_H_STRUCTS */


int spf_fused_2f69e76000(struct spf_CSF6 *T, struct spf_Dense2 *A, struct spf_Dense3 *B, struct spf_Dense3 *C, struct spf_Dense3 *D, struct spf_Dense3 *E, struct spf_Dense2 *Z)
{
  const int64_t T_n0 = T->n0;
  const int64_t T_n1 = T->n1;
  const int64_t T_n2 = T->n2;
  const int64_t T_n3 = T->n3;
  const int64_t T_n4 = T->n4;
  const int64_t T_n5 = T->n5;
  const int64_t T_nnz0 = T->nnz0;
  const int64_t T_nnz1 = T->nnz1;
  const int64_t T_nnz2 = T->nnz2;
  const int64_t T_nnz3 = T->nnz3;
  const int64_t T_nnz4 = T->nnz4;
  const int64_t T_nnz5 = T->nnz5;
  int * restrict T_idx0 = T->idx0;
  int * restrict T_ptr0 = T->ptr0;
  int * restrict T_idx1 = T->idx1;
  int * restrict T_ptr1 = T->ptr1;
  int * restrict T_idx2 = T->idx2;
  int * restrict T_ptr2 = T->ptr2;
  int * restrict T_idx3 = T->idx3;
  int * restrict T_ptr3 = T->ptr3;
  int * restrict T_idx4 = T->idx4;
  int * restrict T_ptr4 = T->ptr4;
  int * restrict T_idx5 = T->idx5;
  double * restrict T_val = T->val;
  const int64_t A_N0 = A->N0;
  const int64_t A_N1 = A->N1;
  double * restrict A_vals = A->vals;
  const int64_t B_N0 = B->N0;
  const int64_t B_N1 = B->N1;
  const int64_t B_N2 = B->N2;
  double * restrict B_vals = B->vals;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  const int64_t C_N2 = C->N2;
  double * restrict C_vals = C->vals;
  const int64_t D_N0 = D->N0;
  const int64_t D_N1 = D->N1;
  const int64_t D_N2 = D->N2;
  double * restrict D_vals = D->vals;
  const int64_t E_N0 = E->N0;
  const int64_t E_N1 = E->N1;
  const int64_t E_N2 = E->N2;
  double * restrict E_vals = E->vals;
  const int64_t Z_N0 = Z->N0;
  const int64_t Z_N1 = Z->N1;
  double * restrict Z_vals = Z->vals;
  const int64_t N_m = E_N1;
  const int64_t N_l = D_N1;
  const int64_t N_e = E_N2;
  const int64_t N_d = D_N2;
  const int64_t N_c = D_N0;
  const int64_t N_k = C_N1;
  const int64_t N_j = B_N1;
  const int64_t N_b = B_N2;
  const int64_t N_a = B_N0;
  const int64_t N_i = A_N0;
  const int64_t N_n = T_n5;
  const int64_t T_ABCDT_N0 = N_n;
  const int64_t T_ABCDT_N1 = N_m;
  const int64_t T_ABCDT_size = N_n * N_m;
  const int64_t T_ABCDT_vals_stride = ((T_ABCDT_size / 8) + 1) * 8;
  double *T_ABCDT_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_ABCDT_vals_stride));
  const int64_t T_AB_N0 = N_i;
  const int64_t T_AB_N1 = N_j;
  const int64_t T_AB_size = N_i * N_j;
  const int64_t T_AB_vals_stride = ((T_AB_size / 8) + 1) * 8;
  double *T_AB_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_AB_vals_stride));
  const int64_t T_CD_N0 = N_k;
  const int64_t T_CD_N1 = N_l;
  const int64_t T_CD_size = N_k * N_l;
  const int64_t T_CD_vals_stride = ((T_CD_size / 8) + 1) * 8;
  double *T_CD_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_CD_vals_stride));
  if (((T_ABCDT_vals_all == NULL) || (T_AB_vals_all == NULL)) || (T_CD_vals_all == NULL))
  {
    free(T_ABCDT_vals_all);
    free(T_AB_vals_all);
    free(T_CD_vals_all);
    return 2;
  }
  if (!(((((((((((((((((D_N2 == E_N0) && (B_N2 == C_N0)) && (B_N1 == T_AB_N1)) && (A_N0 == T_AB_N0)) && (A_N1 == B_N0)) && (D_N1 == T_CD_N1)) && (C_N1 == T_CD_N0)) && (C_N2 == D_N0)) && (T_n3 == T_CD_N1)) && (T_n2 == T_CD_N0)) && (T_n1 == T_AB_N1)) && (T_n0 == T_AB_N0)) && (T_n4 == T_ABCDT_N1)) && (T_n5 == T_ABCDT_N0)) && (E_N2 == Z_N0)) && (E_N1 == T_ABCDT_N1)) && (Z_N1 == T_ABCDT_N0)))
  {
    free(T_ABCDT_vals_all);
    free(T_AB_vals_all);
    free(T_CD_vals_all);
    return 1;
  }
  for (int64_t spf_zero = 0; spf_zero < (Z_N0 * Z_N1); spf_zero++)
    Z_vals[spf_zero] = 0.0;

  if (((B_N1 == 16) && (D_N1 == 16)) && (N_n == 16))
  {
    {
      if (((((1 <= D_N0) && (1 <= D_N1)) && (1 <= D_N2)) && (1 <= E_N1)) && (1 <= E_N2))
      {
        for (int64_t d = 0; d <= (D_N2 - 1); d++)
        {
          const int64_t pE0 = d;
          {
            double * restrict T_ABCDT_vals = T_ABCDT_vals_all + (spf_thread() * T_ABCDT_vals_stride);
            for (int64_t spf_zero_19 = 0; spf_zero_19 < T_ABCDT_size; spf_zero_19++)
              T_ABCDT_vals[spf_zero_19] = 0.0;

            {
              if (((((1 <= B_N0) && (1 <= B_N1)) && (1 <= B_N2)) && (1 <= C_N1)) && (1 <= C_N2))
              {
                for (int64_t b = 0; b <= (B_N2 - 1); b++)
                {
                  const int64_t pC0 = b;
                  {
                    double * restrict T_AB_vals = T_AB_vals_all + (spf_thread() * T_AB_vals_stride);
                    for (int64_t spf_zero_20 = 0; spf_zero_20 < T_AB_size; spf_zero_20++)
                      T_AB_vals[spf_zero_20] = 0.0;

                    {
                      if ((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_N1)) && (1 <= B_N2))
                      {
                        for (int64_t a = 0; a <= (A_N1 - 1); a++)
                        {
                          const int64_t pB0 = a;
                          for (int64_t i = 0; i <= (A_N0 - 1); i++)
                          {
                            const int64_t pA0 = i;
                            const int64_t pT_AB0 = i;
                            const int64_t pA1 = a;
                            if (0 <= (B_N1 - 1))
                            {
                              const double factor_21 = A_vals[(pA0 * A_N1) + pA1];
                              #pragma GCC ivdep
                              for (int64_t j = 0; j <= (B_N1 - 1); j++)
                              {
                                const int64_t pB1 = j;
                                const int64_t pT_AB1 = j;
                                const int64_t pB2 = b;
                                T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1] += factor_21 * B_vals[(((pB0 * B_N1) + pB1) * B_N2) + pB2];
                              }

                            }
                          }

                        }

                      }
                    }
                    {
                      double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
                      for (int64_t spf_zero_22 = 0; spf_zero_22 < T_CD_size; spf_zero_22++)
                        T_CD_vals[spf_zero_22] = 0.0;

                      {
                        if (((((1 <= C_N0) && (1 <= C_N1)) && (1 <= C_N2)) && (1 <= D_N1)) && (1 <= D_N2))
                        {
                          for (int64_t c = 0; c <= (C_N2 - 1); c++)
                          {
                            const int64_t pD0 = c;
                            for (int64_t k = 0; k <= (C_N1 - 1); k++)
                            {
                              const int64_t pC1 = k;
                              const int64_t pT_CD0 = k;
                              const int64_t pC2 = c;
                              if (0 <= (D_N1 - 1))
                              {
                                const double factor_23 = C_vals[(((pC0 * C_N1) + pC1) * C_N2) + pC2];
                                #pragma GCC ivdep
                                for (int64_t l = 0; l <= (D_N1 - 1); l++)
                                {
                                  const int64_t pD1 = l;
                                  const int64_t pT_CD1 = l;
                                  const int64_t pD2 = d;
                                  T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += factor_23 * D_vals[(((pD0 * D_N1) + pD1) * D_N2) + pD2];
                                }

                              }
                            }

                          }

                        }
                      }
                      {
                        if (((((((1 <= T_n0) && (1 <= T_n1)) && (1 <= T_n2)) && (1 <= T_n3)) && (1 <= T_n4)) && (1 <= T_n5)) && (1 <= T_nnz0))
                        {
                          for (int64_t pT0 = 0; pT0 <= (T_nnz0 - 1); pT0++)
                          {
                            const int64_t T_idx0_pT0 = T_idx0[pT0];
                            const int64_t T_ptr0_pT0 = T_ptr0[pT0];
                            const int64_t T_ptr0_pT0_1 = T_ptr0[pT0 + 1];
                            if ((T_ptr0_pT0 + 1) <= T_ptr0_pT0_1)
                            {
                              const int64_t i = T_idx0_pT0;
                              const int64_t pT_AB0 = T_idx0_pT0;
                              for (int64_t pT1 = T_ptr0_pT0; pT1 <= (T_ptr0_pT0_1 - 1); pT1++)
                              {
                                const int64_t T_idx1_pT1 = T_idx1[pT1];
                                const int64_t T_ptr1_pT1 = T_ptr1[pT1];
                                const int64_t T_ptr1_pT1_1 = T_ptr1[pT1 + 1];
                                if ((T_ptr1_pT1 + 1) <= T_ptr1_pT1_1)
                                {
                                  const int64_t j = T_idx1_pT1;
                                  const int64_t pT_AB1 = T_idx1_pT1;
                                  for (int64_t pT2 = T_ptr1_pT1; pT2 <= (T_ptr1_pT1_1 - 1); pT2++)
                                  {
                                    const int64_t T_idx2_pT2 = T_idx2[pT2];
                                    const int64_t T_ptr2_pT2 = T_ptr2[pT2];
                                    const int64_t T_ptr2_pT2_1 = T_ptr2[pT2 + 1];
                                    if ((T_ptr2_pT2 + 1) <= T_ptr2_pT2_1)
                                    {
                                      const int64_t k = T_idx2_pT2;
                                      const int64_t pT_CD0 = T_idx2_pT2;
                                      for (int64_t pT3 = T_ptr2_pT2; pT3 <= (T_ptr2_pT2_1 - 1); pT3++)
                                      {
                                        const int64_t T_idx3_pT3 = T_idx3[pT3];
                                        const int64_t T_ptr3_pT3 = T_ptr3[pT3];
                                        const int64_t T_ptr3_pT3_1 = T_ptr3[pT3 + 1];
                                        if ((T_ptr3_pT3 + 1) <= T_ptr3_pT3_1)
                                        {
                                          const int64_t l = T_idx3_pT3;
                                          const int64_t pT_CD1 = T_idx3_pT3;
                                          for (int64_t pT4 = T_ptr3_pT3; pT4 <= (T_ptr3_pT3_1 - 1); pT4++)
                                          {
                                            const int64_t T_idx4_pT4 = T_idx4[pT4];
                                            const int64_t T_ptr4_pT4 = T_ptr4[pT4];
                                            const int64_t T_ptr4_pT4_1 = T_ptr4[pT4 + 1];
                                            if ((T_ptr4_pT4 + 1) <= T_ptr4_pT4_1)
                                            {
                                              const int64_t m = T_idx4_pT4;
                                              for (int64_t pT5 = T_ptr4_pT4; pT5 <= (T_ptr4_pT4_1 - 1); pT5++)
                                              {
                                                const int64_t T_idx5_pT5 = T_idx5[pT5];
                                                const int64_t n = T_idx5_pT5;
                                                const int64_t pT_ABCDT0 = T_idx5_pT5;
                                                const int64_t pT_ABCDT1 = T_idx4_pT4;
                                                T_ABCDT_vals[(pT_ABCDT0 * T_ABCDT_N1) + pT_ABCDT1] += (T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1]) * T_val[pT5];
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
            }
            {
              if ((((1 <= E_N0) && (1 <= E_N1)) && (1 <= E_N2)) && (1 <= Z_N1))
              {
                for (int64_t e = 0; e <= (E_N2 - 1); e++)
                {
                  const int64_t pZ0 = e;
                  for (int64_t m = 0; m <= (E_N1 - 1); m++)
                  {
                    const int64_t pE1 = m;
                    const int64_t pE2 = e;
                    if (0 <= (N_n - 1))
                    {
                      const double factor_24 = E_vals[(((pE0 * E_N1) + pE1) * E_N2) + pE2];
                      #pragma GCC ivdep
                      for (int64_t n = 0; n <= (N_n - 1); n++)
                      {
                        const int64_t pT_ABCDT0 = n;
                        const int64_t pZ1 = n;
                        const int64_t pT_ABCDT1 = m;
                        Z_vals[(pZ0 * Z_N1) + pZ1] += T_ABCDT_vals[(pT_ABCDT0 * T_ABCDT_N1) + pT_ABCDT1] * factor_24;
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
    if (((B_N1 == 32) && (D_N1 == 32)) && (N_n == 32))
  {
    {
      if (((((1 <= D_N0) && (1 <= D_N1)) && (1 <= D_N2)) && (1 <= E_N1)) && (1 <= E_N2))
      {
        for (int64_t d = 0; d <= (D_N2 - 1); d++)
        {
          const int64_t pE0 = d;
          {
            double * restrict T_ABCDT_vals = T_ABCDT_vals_all + (spf_thread() * T_ABCDT_vals_stride);
            for (int64_t spf_zero_13 = 0; spf_zero_13 < T_ABCDT_size; spf_zero_13++)
              T_ABCDT_vals[spf_zero_13] = 0.0;

            {
              if (((((1 <= B_N0) && (1 <= B_N1)) && (1 <= B_N2)) && (1 <= C_N1)) && (1 <= C_N2))
              {
                for (int64_t b = 0; b <= (B_N2 - 1); b++)
                {
                  const int64_t pC0 = b;
                  {
                    double * restrict T_AB_vals = T_AB_vals_all + (spf_thread() * T_AB_vals_stride);
                    for (int64_t spf_zero_14 = 0; spf_zero_14 < T_AB_size; spf_zero_14++)
                      T_AB_vals[spf_zero_14] = 0.0;

                    {
                      if ((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_N1)) && (1 <= B_N2))
                      {
                        for (int64_t a = 0; a <= (A_N1 - 1); a++)
                        {
                          const int64_t pB0 = a;
                          for (int64_t i = 0; i <= (A_N0 - 1); i++)
                          {
                            const int64_t pA0 = i;
                            const int64_t pT_AB0 = i;
                            const int64_t pA1 = a;
                            if (0 <= (B_N1 - 1))
                            {
                              const double factor_15 = A_vals[(pA0 * A_N1) + pA1];
                              #pragma GCC ivdep
                              for (int64_t j = 0; j <= (B_N1 - 1); j++)
                              {
                                const int64_t pB1 = j;
                                const int64_t pT_AB1 = j;
                                const int64_t pB2 = b;
                                T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1] += factor_15 * B_vals[(((pB0 * B_N1) + pB1) * B_N2) + pB2];
                              }

                            }
                          }

                        }

                      }
                    }
                    {
                      double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
                      for (int64_t spf_zero_16 = 0; spf_zero_16 < T_CD_size; spf_zero_16++)
                        T_CD_vals[spf_zero_16] = 0.0;

                      {
                        if (((((1 <= C_N0) && (1 <= C_N1)) && (1 <= C_N2)) && (1 <= D_N1)) && (1 <= D_N2))
                        {
                          for (int64_t c = 0; c <= (C_N2 - 1); c++)
                          {
                            const int64_t pD0 = c;
                            for (int64_t k = 0; k <= (C_N1 - 1); k++)
                            {
                              const int64_t pC1 = k;
                              const int64_t pT_CD0 = k;
                              const int64_t pC2 = c;
                              if (0 <= (D_N1 - 1))
                              {
                                const double factor_17 = C_vals[(((pC0 * C_N1) + pC1) * C_N2) + pC2];
                                #pragma GCC ivdep
                                for (int64_t l = 0; l <= (D_N1 - 1); l++)
                                {
                                  const int64_t pD1 = l;
                                  const int64_t pT_CD1 = l;
                                  const int64_t pD2 = d;
                                  T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += factor_17 * D_vals[(((pD0 * D_N1) + pD1) * D_N2) + pD2];
                                }

                              }
                            }

                          }

                        }
                      }
                      {
                        if (((((((1 <= T_n0) && (1 <= T_n1)) && (1 <= T_n2)) && (1 <= T_n3)) && (1 <= T_n4)) && (1 <= T_n5)) && (1 <= T_nnz0))
                        {
                          for (int64_t pT0 = 0; pT0 <= (T_nnz0 - 1); pT0++)
                          {
                            const int64_t T_idx0_pT0 = T_idx0[pT0];
                            const int64_t T_ptr0_pT0 = T_ptr0[pT0];
                            const int64_t T_ptr0_pT0_1 = T_ptr0[pT0 + 1];
                            if ((T_ptr0_pT0 + 1) <= T_ptr0_pT0_1)
                            {
                              const int64_t i = T_idx0_pT0;
                              const int64_t pT_AB0 = T_idx0_pT0;
                              for (int64_t pT1 = T_ptr0_pT0; pT1 <= (T_ptr0_pT0_1 - 1); pT1++)
                              {
                                const int64_t T_idx1_pT1 = T_idx1[pT1];
                                const int64_t T_ptr1_pT1 = T_ptr1[pT1];
                                const int64_t T_ptr1_pT1_1 = T_ptr1[pT1 + 1];
                                if ((T_ptr1_pT1 + 1) <= T_ptr1_pT1_1)
                                {
                                  const int64_t j = T_idx1_pT1;
                                  const int64_t pT_AB1 = T_idx1_pT1;
                                  for (int64_t pT2 = T_ptr1_pT1; pT2 <= (T_ptr1_pT1_1 - 1); pT2++)
                                  {
                                    const int64_t T_idx2_pT2 = T_idx2[pT2];
                                    const int64_t T_ptr2_pT2 = T_ptr2[pT2];
                                    const int64_t T_ptr2_pT2_1 = T_ptr2[pT2 + 1];
                                    if ((T_ptr2_pT2 + 1) <= T_ptr2_pT2_1)
                                    {
                                      const int64_t k = T_idx2_pT2;
                                      const int64_t pT_CD0 = T_idx2_pT2;
                                      for (int64_t pT3 = T_ptr2_pT2; pT3 <= (T_ptr2_pT2_1 - 1); pT3++)
                                      {
                                        const int64_t T_idx3_pT3 = T_idx3[pT3];
                                        const int64_t T_ptr3_pT3 = T_ptr3[pT3];
                                        const int64_t T_ptr3_pT3_1 = T_ptr3[pT3 + 1];
                                        if ((T_ptr3_pT3 + 1) <= T_ptr3_pT3_1)
                                        {
                                          const int64_t l = T_idx3_pT3;
                                          const int64_t pT_CD1 = T_idx3_pT3;
                                          for (int64_t pT4 = T_ptr3_pT3; pT4 <= (T_ptr3_pT3_1 - 1); pT4++)
                                          {
                                            const int64_t T_idx4_pT4 = T_idx4[pT4];
                                            const int64_t T_ptr4_pT4 = T_ptr4[pT4];
                                            const int64_t T_ptr4_pT4_1 = T_ptr4[pT4 + 1];
                                            if ((T_ptr4_pT4 + 1) <= T_ptr4_pT4_1)
                                            {
                                              const int64_t m = T_idx4_pT4;
                                              for (int64_t pT5 = T_ptr4_pT4; pT5 <= (T_ptr4_pT4_1 - 1); pT5++)
                                              {
                                                const int64_t T_idx5_pT5 = T_idx5[pT5];
                                                const int64_t n = T_idx5_pT5;
                                                const int64_t pT_ABCDT0 = T_idx5_pT5;
                                                const int64_t pT_ABCDT1 = T_idx4_pT4;
                                                T_ABCDT_vals[(pT_ABCDT0 * T_ABCDT_N1) + pT_ABCDT1] += (T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1]) * T_val[pT5];
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
            }
            {
              if ((((1 <= E_N0) && (1 <= E_N1)) && (1 <= E_N2)) && (1 <= Z_N1))
              {
                for (int64_t e = 0; e <= (E_N2 - 1); e++)
                {
                  const int64_t pZ0 = e;
                  for (int64_t m = 0; m <= (E_N1 - 1); m++)
                  {
                    const int64_t pE1 = m;
                    const int64_t pE2 = e;
                    if (0 <= (N_n - 1))
                    {
                      const double factor_18 = E_vals[(((pE0 * E_N1) + pE1) * E_N2) + pE2];
                      #pragma GCC ivdep
                      for (int64_t n = 0; n <= (N_n - 1); n++)
                      {
                        const int64_t pT_ABCDT0 = n;
                        const int64_t pZ1 = n;
                        const int64_t pT_ABCDT1 = m;
                        Z_vals[(pZ0 * Z_N1) + pZ1] += T_ABCDT_vals[(pT_ABCDT0 * T_ABCDT_N1) + pT_ABCDT1] * factor_18;
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
    if (((B_N1 == 64) && (D_N1 == 64)) && (N_n == 64))
  {
    {
      if (((((1 <= D_N0) && (1 <= D_N1)) && (1 <= D_N2)) && (1 <= E_N1)) && (1 <= E_N2))
      {
        for (int64_t d = 0; d <= (D_N2 - 1); d++)
        {
          const int64_t pE0 = d;
          {
            double * restrict T_ABCDT_vals = T_ABCDT_vals_all + (spf_thread() * T_ABCDT_vals_stride);
            for (int64_t spf_zero_7 = 0; spf_zero_7 < T_ABCDT_size; spf_zero_7++)
              T_ABCDT_vals[spf_zero_7] = 0.0;

            {
              if (((((1 <= B_N0) && (1 <= B_N1)) && (1 <= B_N2)) && (1 <= C_N1)) && (1 <= C_N2))
              {
                for (int64_t b = 0; b <= (B_N2 - 1); b++)
                {
                  const int64_t pC0 = b;
                  {
                    double * restrict T_AB_vals = T_AB_vals_all + (spf_thread() * T_AB_vals_stride);
                    for (int64_t spf_zero_8 = 0; spf_zero_8 < T_AB_size; spf_zero_8++)
                      T_AB_vals[spf_zero_8] = 0.0;

                    {
                      if ((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_N1)) && (1 <= B_N2))
                      {
                        for (int64_t a = 0; a <= (A_N1 - 1); a++)
                        {
                          const int64_t pB0 = a;
                          for (int64_t i = 0; i <= (A_N0 - 1); i++)
                          {
                            const int64_t pA0 = i;
                            const int64_t pT_AB0 = i;
                            const int64_t pA1 = a;
                            if (0 <= (B_N1 - 1))
                            {
                              const double factor_9 = A_vals[(pA0 * A_N1) + pA1];
                              #pragma GCC ivdep
                              for (int64_t j = 0; j <= (B_N1 - 1); j++)
                              {
                                const int64_t pB1 = j;
                                const int64_t pT_AB1 = j;
                                const int64_t pB2 = b;
                                T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1] += factor_9 * B_vals[(((pB0 * B_N1) + pB1) * B_N2) + pB2];
                              }

                            }
                          }

                        }

                      }
                    }
                    {
                      double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
                      for (int64_t spf_zero_10 = 0; spf_zero_10 < T_CD_size; spf_zero_10++)
                        T_CD_vals[spf_zero_10] = 0.0;

                      {
                        if (((((1 <= C_N0) && (1 <= C_N1)) && (1 <= C_N2)) && (1 <= D_N1)) && (1 <= D_N2))
                        {
                          for (int64_t c = 0; c <= (C_N2 - 1); c++)
                          {
                            const int64_t pD0 = c;
                            for (int64_t k = 0; k <= (C_N1 - 1); k++)
                            {
                              const int64_t pC1 = k;
                              const int64_t pT_CD0 = k;
                              const int64_t pC2 = c;
                              if (0 <= (D_N1 - 1))
                              {
                                const double factor_11 = C_vals[(((pC0 * C_N1) + pC1) * C_N2) + pC2];
                                #pragma GCC ivdep
                                for (int64_t l = 0; l <= (D_N1 - 1); l++)
                                {
                                  const int64_t pD1 = l;
                                  const int64_t pT_CD1 = l;
                                  const int64_t pD2 = d;
                                  T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += factor_11 * D_vals[(((pD0 * D_N1) + pD1) * D_N2) + pD2];
                                }

                              }
                            }

                          }

                        }
                      }
                      {
                        if (((((((1 <= T_n0) && (1 <= T_n1)) && (1 <= T_n2)) && (1 <= T_n3)) && (1 <= T_n4)) && (1 <= T_n5)) && (1 <= T_nnz0))
                        {
                          for (int64_t pT0 = 0; pT0 <= (T_nnz0 - 1); pT0++)
                          {
                            const int64_t T_idx0_pT0 = T_idx0[pT0];
                            const int64_t T_ptr0_pT0 = T_ptr0[pT0];
                            const int64_t T_ptr0_pT0_1 = T_ptr0[pT0 + 1];
                            if ((T_ptr0_pT0 + 1) <= T_ptr0_pT0_1)
                            {
                              const int64_t i = T_idx0_pT0;
                              const int64_t pT_AB0 = T_idx0_pT0;
                              for (int64_t pT1 = T_ptr0_pT0; pT1 <= (T_ptr0_pT0_1 - 1); pT1++)
                              {
                                const int64_t T_idx1_pT1 = T_idx1[pT1];
                                const int64_t T_ptr1_pT1 = T_ptr1[pT1];
                                const int64_t T_ptr1_pT1_1 = T_ptr1[pT1 + 1];
                                if ((T_ptr1_pT1 + 1) <= T_ptr1_pT1_1)
                                {
                                  const int64_t j = T_idx1_pT1;
                                  const int64_t pT_AB1 = T_idx1_pT1;
                                  for (int64_t pT2 = T_ptr1_pT1; pT2 <= (T_ptr1_pT1_1 - 1); pT2++)
                                  {
                                    const int64_t T_idx2_pT2 = T_idx2[pT2];
                                    const int64_t T_ptr2_pT2 = T_ptr2[pT2];
                                    const int64_t T_ptr2_pT2_1 = T_ptr2[pT2 + 1];
                                    if ((T_ptr2_pT2 + 1) <= T_ptr2_pT2_1)
                                    {
                                      const int64_t k = T_idx2_pT2;
                                      const int64_t pT_CD0 = T_idx2_pT2;
                                      for (int64_t pT3 = T_ptr2_pT2; pT3 <= (T_ptr2_pT2_1 - 1); pT3++)
                                      {
                                        const int64_t T_idx3_pT3 = T_idx3[pT3];
                                        const int64_t T_ptr3_pT3 = T_ptr3[pT3];
                                        const int64_t T_ptr3_pT3_1 = T_ptr3[pT3 + 1];
                                        if ((T_ptr3_pT3 + 1) <= T_ptr3_pT3_1)
                                        {
                                          const int64_t l = T_idx3_pT3;
                                          const int64_t pT_CD1 = T_idx3_pT3;
                                          for (int64_t pT4 = T_ptr3_pT3; pT4 <= (T_ptr3_pT3_1 - 1); pT4++)
                                          {
                                            const int64_t T_idx4_pT4 = T_idx4[pT4];
                                            const int64_t T_ptr4_pT4 = T_ptr4[pT4];
                                            const int64_t T_ptr4_pT4_1 = T_ptr4[pT4 + 1];
                                            if ((T_ptr4_pT4 + 1) <= T_ptr4_pT4_1)
                                            {
                                              const int64_t m = T_idx4_pT4;
                                              for (int64_t pT5 = T_ptr4_pT4; pT5 <= (T_ptr4_pT4_1 - 1); pT5++)
                                              {
                                                const int64_t T_idx5_pT5 = T_idx5[pT5];
                                                const int64_t n = T_idx5_pT5;
                                                const int64_t pT_ABCDT0 = T_idx5_pT5;
                                                const int64_t pT_ABCDT1 = T_idx4_pT4;
                                                T_ABCDT_vals[(pT_ABCDT0 * T_ABCDT_N1) + pT_ABCDT1] += (T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1]) * T_val[pT5];
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
            }
            {
              if ((((1 <= E_N0) && (1 <= E_N1)) && (1 <= E_N2)) && (1 <= Z_N1))
              {
                for (int64_t e = 0; e <= (E_N2 - 1); e++)
                {
                  const int64_t pZ0 = e;
                  for (int64_t m = 0; m <= (E_N1 - 1); m++)
                  {
                    const int64_t pE1 = m;
                    const int64_t pE2 = e;
                    if (0 <= (N_n - 1))
                    {
                      const double factor_12 = E_vals[(((pE0 * E_N1) + pE1) * E_N2) + pE2];
                      #pragma GCC ivdep
                      for (int64_t n = 0; n <= (N_n - 1); n++)
                      {
                        const int64_t pT_ABCDT0 = n;
                        const int64_t pZ1 = n;
                        const int64_t pT_ABCDT1 = m;
                        Z_vals[(pZ0 * Z_N1) + pZ1] += T_ABCDT_vals[(pT_ABCDT0 * T_ABCDT_N1) + pT_ABCDT1] * factor_12;
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
      if (((((1 <= D_N0) && (1 <= D_N1)) && (1 <= D_N2)) && (1 <= E_N1)) && (1 <= E_N2))
      {
        for (int64_t d = 0; d <= (D_N2 - 1); d++)
        {
          const int64_t pE0 = d;
          {
            double * restrict T_ABCDT_vals = T_ABCDT_vals_all + (spf_thread() * T_ABCDT_vals_stride);
            for (int64_t spf_zero_1 = 0; spf_zero_1 < T_ABCDT_size; spf_zero_1++)
              T_ABCDT_vals[spf_zero_1] = 0.0;

            {
              if (((((1 <= B_N0) && (1 <= B_N1)) && (1 <= B_N2)) && (1 <= C_N1)) && (1 <= C_N2))
              {
                for (int64_t b = 0; b <= (B_N2 - 1); b++)
                {
                  const int64_t pC0 = b;
                  {
                    double * restrict T_AB_vals = T_AB_vals_all + (spf_thread() * T_AB_vals_stride);
                    for (int64_t spf_zero_2 = 0; spf_zero_2 < T_AB_size; spf_zero_2++)
                      T_AB_vals[spf_zero_2] = 0.0;

                    {
                      if ((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_N1)) && (1 <= B_N2))
                      {
                        for (int64_t a = 0; a <= (A_N1 - 1); a++)
                        {
                          const int64_t pB0 = a;
                          for (int64_t i = 0; i <= (A_N0 - 1); i++)
                          {
                            const int64_t pA0 = i;
                            const int64_t pT_AB0 = i;
                            const int64_t pA1 = a;
                            if (0 <= (B_N1 - 1))
                            {
                              const double factor_3 = A_vals[(pA0 * A_N1) + pA1];
                              #pragma GCC ivdep
                              for (int64_t j = 0; j <= (B_N1 - 1); j++)
                              {
                                const int64_t pB1 = j;
                                const int64_t pT_AB1 = j;
                                const int64_t pB2 = b;
                                T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1] += factor_3 * B_vals[(((pB0 * B_N1) + pB1) * B_N2) + pB2];
                              }

                            }
                          }

                        }

                      }
                    }
                    {
                      double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
                      for (int64_t spf_zero_4 = 0; spf_zero_4 < T_CD_size; spf_zero_4++)
                        T_CD_vals[spf_zero_4] = 0.0;

                      {
                        if (((((1 <= C_N0) && (1 <= C_N1)) && (1 <= C_N2)) && (1 <= D_N1)) && (1 <= D_N2))
                        {
                          for (int64_t c = 0; c <= (C_N2 - 1); c++)
                          {
                            const int64_t pD0 = c;
                            for (int64_t k = 0; k <= (C_N1 - 1); k++)
                            {
                              const int64_t pC1 = k;
                              const int64_t pT_CD0 = k;
                              const int64_t pC2 = c;
                              if (0 <= (D_N1 - 1))
                              {
                                const double factor_5 = C_vals[(((pC0 * C_N1) + pC1) * C_N2) + pC2];
                                #pragma GCC ivdep
                                for (int64_t l = 0; l <= (D_N1 - 1); l++)
                                {
                                  const int64_t pD1 = l;
                                  const int64_t pT_CD1 = l;
                                  const int64_t pD2 = d;
                                  T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += factor_5 * D_vals[(((pD0 * D_N1) + pD1) * D_N2) + pD2];
                                }

                              }
                            }

                          }

                        }
                      }
                      {
                        if (((((((1 <= T_n0) && (1 <= T_n1)) && (1 <= T_n2)) && (1 <= T_n3)) && (1 <= T_n4)) && (1 <= T_n5)) && (1 <= T_nnz0))
                        {
                          for (int64_t pT0 = 0; pT0 <= (T_nnz0 - 1); pT0++)
                          {
                            const int64_t T_idx0_pT0 = T_idx0[pT0];
                            const int64_t T_ptr0_pT0 = T_ptr0[pT0];
                            const int64_t T_ptr0_pT0_1 = T_ptr0[pT0 + 1];
                            if ((T_ptr0_pT0 + 1) <= T_ptr0_pT0_1)
                            {
                              const int64_t i = T_idx0_pT0;
                              const int64_t pT_AB0 = T_idx0_pT0;
                              for (int64_t pT1 = T_ptr0_pT0; pT1 <= (T_ptr0_pT0_1 - 1); pT1++)
                              {
                                const int64_t T_idx1_pT1 = T_idx1[pT1];
                                const int64_t T_ptr1_pT1 = T_ptr1[pT1];
                                const int64_t T_ptr1_pT1_1 = T_ptr1[pT1 + 1];
                                if ((T_ptr1_pT1 + 1) <= T_ptr1_pT1_1)
                                {
                                  const int64_t j = T_idx1_pT1;
                                  const int64_t pT_AB1 = T_idx1_pT1;
                                  for (int64_t pT2 = T_ptr1_pT1; pT2 <= (T_ptr1_pT1_1 - 1); pT2++)
                                  {
                                    const int64_t T_idx2_pT2 = T_idx2[pT2];
                                    const int64_t T_ptr2_pT2 = T_ptr2[pT2];
                                    const int64_t T_ptr2_pT2_1 = T_ptr2[pT2 + 1];
                                    if ((T_ptr2_pT2 + 1) <= T_ptr2_pT2_1)
                                    {
                                      const int64_t k = T_idx2_pT2;
                                      const int64_t pT_CD0 = T_idx2_pT2;
                                      for (int64_t pT3 = T_ptr2_pT2; pT3 <= (T_ptr2_pT2_1 - 1); pT3++)
                                      {
                                        const int64_t T_idx3_pT3 = T_idx3[pT3];
                                        const int64_t T_ptr3_pT3 = T_ptr3[pT3];
                                        const int64_t T_ptr3_pT3_1 = T_ptr3[pT3 + 1];
                                        if ((T_ptr3_pT3 + 1) <= T_ptr3_pT3_1)
                                        {
                                          const int64_t l = T_idx3_pT3;
                                          const int64_t pT_CD1 = T_idx3_pT3;
                                          for (int64_t pT4 = T_ptr3_pT3; pT4 <= (T_ptr3_pT3_1 - 1); pT4++)
                                          {
                                            const int64_t T_idx4_pT4 = T_idx4[pT4];
                                            const int64_t T_ptr4_pT4 = T_ptr4[pT4];
                                            const int64_t T_ptr4_pT4_1 = T_ptr4[pT4 + 1];
                                            if ((T_ptr4_pT4 + 1) <= T_ptr4_pT4_1)
                                            {
                                              const int64_t m = T_idx4_pT4;
                                              for (int64_t pT5 = T_ptr4_pT4; pT5 <= (T_ptr4_pT4_1 - 1); pT5++)
                                              {
                                                const int64_t T_idx5_pT5 = T_idx5[pT5];
                                                const int64_t n = T_idx5_pT5;
                                                const int64_t pT_ABCDT0 = T_idx5_pT5;
                                                const int64_t pT_ABCDT1 = T_idx4_pT4;
                                                T_ABCDT_vals[(pT_ABCDT0 * T_ABCDT_N1) + pT_ABCDT1] += (T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1]) * T_val[pT5];
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
            }
            {
              if ((((1 <= E_N0) && (1 <= E_N1)) && (1 <= E_N2)) && (1 <= Z_N1))
              {
                for (int64_t e = 0; e <= (E_N2 - 1); e++)
                {
                  const int64_t pZ0 = e;
                  for (int64_t m = 0; m <= (E_N1 - 1); m++)
                  {
                    const int64_t pE1 = m;
                    const int64_t pE2 = e;
                    if (0 <= (N_n - 1))
                    {
                      const double factor_6 = E_vals[(((pE0 * E_N1) + pE1) * E_N2) + pE2];
                      #pragma GCC ivdep
                      for (int64_t n = 0; n <= (N_n - 1); n++)
                      {
                        const int64_t pT_ABCDT0 = n;
                        const int64_t pZ1 = n;
                        const int64_t pT_ABCDT1 = m;
                        Z_vals[(pZ0 * Z_N1) + pZ1] += T_ABCDT_vals[(pT_ABCDT0 * T_ABCDT_N1) + pT_ABCDT1] * factor_6;
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
  free(T_ABCDT_vals_all);
  free(T_AB_vals_all);
  free(T_CD_vals_all);
  return 0;
}


void spf_fused_2f69e76000_release_state(void)
{
}
