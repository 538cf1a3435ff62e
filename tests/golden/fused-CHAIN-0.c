#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_7166DEE0AD_H_STRUCTS
#define SPF_FUSED_7166DEE0AD_H_STRUCTS

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


#endif /* SPF_FUSED_7166DEE0AD_H_STRUCTS */


int spf_fused_7166dee0ad(struct spf_CSF3 *A, struct spf_CSF3 *B, struct spf_CSF3 *C, struct spf_CSF3 *D, struct spf_Dense3 *R)
{
  const int64_t A_n0 = A->n0;
  const int64_t A_n1 = A->n1;
  const int64_t A_n2 = A->n2;
  const int64_t A_nnz0 = A->nnz0;
  const int64_t A_nnz1 = A->nnz1;
  const int64_t A_nnz2 = A->nnz2;
  int * restrict A_idx0 = A->idx0;
  int * restrict A_ptr0 = A->ptr0;
  int * restrict A_idx1 = A->idx1;
  int * restrict A_ptr1 = A->ptr1;
  int * restrict A_idx2 = A->idx2;
  double * restrict A_val = A->val;
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
  const int64_t C_n0 = C->n0;
  const int64_t C_n1 = C->n1;
  const int64_t C_n2 = C->n2;
  const int64_t C_nnz0 = C->nnz0;
  const int64_t C_nnz1 = C->nnz1;
  const int64_t C_nnz2 = C->nnz2;
  int * restrict C_idx0 = C->idx0;
  int * restrict C_ptr0 = C->ptr0;
  int * restrict C_idx1 = C->idx1;
  int * restrict C_ptr1 = C->ptr1;
  int * restrict C_idx2 = C->idx2;
  double * restrict C_val = C->val;
  const int64_t D_n0 = D->n0;
  const int64_t D_n1 = D->n1;
  const int64_t D_n2 = D->n2;
  const int64_t D_nnz0 = D->nnz0;
  const int64_t D_nnz1 = D->nnz1;
  const int64_t D_nnz2 = D->nnz2;
  int * restrict D_idx0 = D->idx0;
  int * restrict D_ptr0 = D->ptr0;
  int * restrict D_idx1 = D->idx1;
  int * restrict D_ptr1 = D->ptr1;
  int * restrict D_idx2 = D->idx2;
  double * restrict D_val = D->val;
  const int64_t R_N0 = R->N0;
  const int64_t R_N1 = R->N1;
  const int64_t R_N2 = R->N2;
  double * restrict R_vals = R->vals;
  const int64_t N_r = B_n2;
  const int64_t N_q = C_n1;
  const int64_t N_p = B_n1;
  const int64_t N_k = C_n0;
  const int64_t N_j = B_n0;
  const int64_t N_i = A_n0;
  const int64_t T_BD_N0 = N_p;
  const int64_t T_BD_N1 = N_r;
  const int64_t T_BD_size = N_p * N_r;
  const int64_t T_BD_vals_stride = ((T_BD_size / 8) + 1) * 8;
  double *T_BD_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_BD_vals_stride));
  const int64_t T_BCD_N0 = N_p;
  const int64_t T_BCD_N1 = N_q;
  const int64_t T_BCD_size = N_p * N_q;
  const int64_t T_BCD_vals_stride = ((T_BCD_size / 8) + 1) * 8;
  double *T_BCD_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_BCD_vals_stride));
  if ((T_BD_vals_all == NULL) || (T_BCD_vals_all == NULL))
  {
    free(T_BD_vals_all);
    free(T_BCD_vals_all);
    return 2;
  }
  if (!((((((((((((((B_n2 == D_n2) && (C_n0 == D_n1)) && (B_n0 == D_n0)) && (B_n2 == C_n2)) && (B_n2 == T_BD_N1)) && (B_n1 == T_BD_N0)) && (B_n2 == D_n2)) && (B_n0 == D_n0)) && (C_n2 == T_BD_N1)) && (C_n1 == T_BCD_N1)) && (T_BD_N0 == T_BCD_N0)) && (A_n2 == T_BCD_N1)) && (A_n1 == T_BCD_N0)) && (A_n0 == R_N0)))
  {
    free(T_BD_vals_all);
    free(T_BCD_vals_all);
    return 1;
  }
  for (int64_t spf_zero = 0; spf_zero < ((R_N0 * R_N1) * R_N2); spf_zero++)
    R_vals[spf_zero] = 0.0;

  if (N_p == 16)
  {
    {
      if ((((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= C_n1)) && (1 <= C_nnz0)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
      {
        int64_t pD0_position_40 = 0;
        for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
        {
          const int64_t B_idx0_pB0 = B_idx0[pB0];
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            const int64_t j = B_idx0_pB0;
            {
              const int64_t key_41 = B_idx0_pB0;
              while (((pD0_position_40 >= 0) && (pD0_position_40 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_40] < key_41))
                pD0_position_40++;

              if (((pD0_position_40 >= 0) && (pD0_position_40 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_40] == key_41))
              {
                const int64_t pD0 = pD0_position_40;
                const int64_t D_idx0_pD0 = B_idx0_pB0;
                const int64_t D_ptr0_pD0 = D_ptr0[pD0];
                const int64_t D_ptr0_pD0_1 = D_ptr0[pD0 + 1];
                if ((D_ptr0_pD0 + 1) <= D_ptr0_pD0_1)
                {
                  for (int64_t pC0 = 0; pC0 <= (C_nnz0 - 1); pC0++)
                  {
                    const int64_t C_idx0_pC0 = C_idx0[pC0];
                    const int64_t C_ptr0_pC0 = C_ptr0[pC0];
                    const int64_t C_ptr0_pC0_1 = C_ptr0[pC0 + 1];
                    if ((C_ptr0_pC0 + 1) <= C_ptr0_pC0_1)
                    {
                      const int64_t k = C_idx0_pC0;
                      {
                        const int64_t key_44 = C_idx0_pC0;
                        int64_t lo_42 = D_ptr0_pD0;
                        const int64_t end_46 = (D_ptr0_pD0_1 - 1) + 1;
                        int64_t hi_43 = end_46;
                        while (lo_42 < hi_43)
                        {
                          const int64_t mid_45 = lo_42 + ((hi_43 - lo_42) / 2);
                          if (D_idx1[mid_45] < key_44)
                            lo_42 = mid_45 + 1;
                          else
                            hi_43 = mid_45;
                        }

                        if ((lo_42 < end_46) && (D_idx1[lo_42] == key_44))
                        {
                          const int64_t pD1 = lo_42;
                          const int64_t D_idx1_pD1 = C_idx0_pC0;
                          const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                          const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                          if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                          {
                            {
                              double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                              for (int64_t spf_zero_47 = 0; spf_zero_47 < T_BD_size; spf_zero_47++)
                                T_BD_vals[spf_zero_47] = 0.0;

                              {
                                if ((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= D_n1)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
                                {
                                  const int64_t B_ptr0_pB0_2 = B_ptr0[pB0];
                                  const int64_t B_ptr0_pB0_1_2 = B_ptr0[pB0 + 1];
                                  const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                  const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                  for (int64_t pB1 = B_ptr0_pB0_2; pB1 <= (B_ptr0_pB0_1_2 - 1); pB1++)
                                  {
                                    const int64_t B_idx1_pB1_2 = B_idx1[pB1];
                                    const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                    const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                    if ((B_ptr1_pB1_2 + 1) <= B_ptr1_pB1_1_2)
                                    {
                                      const int64_t p = B_idx1_pB1_2;
                                      const int64_t pT_BD0 = B_idx1_pB1_2;
                                      int64_t pD2_position_48 = D_ptr1_pD1_2;
                                      for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                      {
                                        const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                        {
                                          const int64_t key_49 = B_idx2_pB2_2;
                                          while (((pD2_position_48 >= D_ptr1_pD1_2) && (pD2_position_48 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_48] < key_49))
                                            pD2_position_48++;

                                          if (!((pD2_position_48 >= D_ptr1_pD1_2) && (pD2_position_48 <= (D_ptr1_pD1_1_2 - 1))))
                                            break;
                                          if (((pD2_position_48 >= D_ptr1_pD1_2) && (pD2_position_48 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_48] == key_49))
                                          {
                                            const int64_t pD2 = pD2_position_48;
                                            const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                            const int64_t pT_BD1 = B_idx2_pB2_2;
                                            T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                            pD2_position_48++;
                                          }
                                        }
                                      }

                                    }
                                  }

                                }
                              }
                              {
                                double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                for (int64_t spf_zero_50 = 0; spf_zero_50 < T_BCD_size; spf_zero_50++)
                                  T_BCD_vals[spf_zero_50] = 0.0;

                                {
                                  if (((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= T_BD_N0)) && (1 <= C_nnz0))
                                  {
                                    const int64_t C_ptr0_pC0_2 = C_ptr0[pC0];
                                    const int64_t C_ptr0_pC0_1_2 = C_ptr0[pC0 + 1];
                                    for (int64_t pC1 = C_ptr0_pC0_2; pC1 <= (C_ptr0_pC0_1_2 - 1); pC1++)
                                    {
                                      const int64_t C_idx1_pC1_2 = C_idx1[pC1];
                                      const int64_t C_ptr1_pC1_2 = C_ptr1[pC1];
                                      const int64_t C_ptr1_pC1_1_2 = C_ptr1[pC1 + 1];
                                      if ((C_ptr1_pC1_2 + 1) <= C_ptr1_pC1_1_2)
                                      {
                                        for (int64_t pC2 = C_ptr1_pC1_2; pC2 <= (C_ptr1_pC1_1_2 - 1); pC2++)
                                        {
                                          const int64_t C_idx2_pC2_2 = C_idx2[pC2];
                                          if (0 <= (N_p - 1))
                                          {
                                            const double factor_51 = C_val[pC2];
                                            #pragma GCC ivdep
                                            for (int64_t p = 0; p <= (N_p - 1); p++)
                                            {
                                              const int64_t pT_BD0 = p;
                                              const int64_t pT_BCD0 = p;
                                              const int64_t pT_BD1 = C_idx2_pC2_2;
                                              const int64_t pT_BCD1 = C_idx1_pC1_2;
                                              T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_51;
                                            }

                                          }
                                        }

                                      }
                                    }

                                  }
                                }
                                {
                                  if ((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= R_N1)) && (1 <= R_N2)) && (1 <= A_nnz0))
                                  {
                                    for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
                                    {
                                      const int64_t A_idx0_pA0 = A_idx0[pA0];
                                      const int64_t A_ptr0_pA0 = A_ptr0[pA0];
                                      const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
                                      if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
                                      {
                                        const int64_t pR0 = A_idx0_pA0;
                                        const int64_t pR1 = j;
                                        const int64_t pR2 = k;
                                        double sum_52 = 0.0;
                                        for (int64_t pA1 = A_ptr0_pA0; pA1 <= (A_ptr0_pA0_1 - 1); pA1++)
                                        {
                                          const int64_t A_idx1_pA1 = A_idx1[pA1];
                                          const int64_t A_ptr1_pA1 = A_ptr1[pA1];
                                          const int64_t A_ptr1_pA1_1 = A_ptr1[pA1 + 1];
                                          if ((A_ptr1_pA1 + 1) <= A_ptr1_pA1_1)
                                          {
                                            const int64_t p = A_idx1_pA1;
                                            const int64_t pT_BCD0 = A_idx1_pA1;
                                            for (int64_t pA2 = A_ptr1_pA1; pA2 <= (A_ptr1_pA1_1 - 1); pA2++)
                                            {
                                              const int64_t A_idx2_pA2 = A_idx2[pA2];
                                              const int64_t pT_BCD1 = A_idx2_pA2;
                                              sum_52 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                            }

                                          }
                                        }

                                        R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_52;
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
                pD0_position_40++;
              }
            }
          }
        }

      }
    }
  }
  else
    if (N_p == 32)
  {
    {
      if ((((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= C_n1)) && (1 <= C_nnz0)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
      {
        int64_t pD0_position_27 = 0;
        for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
        {
          const int64_t B_idx0_pB0 = B_idx0[pB0];
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            const int64_t j = B_idx0_pB0;
            {
              const int64_t key_28 = B_idx0_pB0;
              while (((pD0_position_27 >= 0) && (pD0_position_27 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_27] < key_28))
                pD0_position_27++;

              if (((pD0_position_27 >= 0) && (pD0_position_27 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_27] == key_28))
              {
                const int64_t pD0 = pD0_position_27;
                const int64_t D_idx0_pD0 = B_idx0_pB0;
                const int64_t D_ptr0_pD0 = D_ptr0[pD0];
                const int64_t D_ptr0_pD0_1 = D_ptr0[pD0 + 1];
                if ((D_ptr0_pD0 + 1) <= D_ptr0_pD0_1)
                {
                  for (int64_t pC0 = 0; pC0 <= (C_nnz0 - 1); pC0++)
                  {
                    const int64_t C_idx0_pC0 = C_idx0[pC0];
                    const int64_t C_ptr0_pC0 = C_ptr0[pC0];
                    const int64_t C_ptr0_pC0_1 = C_ptr0[pC0 + 1];
                    if ((C_ptr0_pC0 + 1) <= C_ptr0_pC0_1)
                    {
                      const int64_t k = C_idx0_pC0;
                      {
                        const int64_t key_31 = C_idx0_pC0;
                        int64_t lo_29 = D_ptr0_pD0;
                        const int64_t end_33 = (D_ptr0_pD0_1 - 1) + 1;
                        int64_t hi_30 = end_33;
                        while (lo_29 < hi_30)
                        {
                          const int64_t mid_32 = lo_29 + ((hi_30 - lo_29) / 2);
                          if (D_idx1[mid_32] < key_31)
                            lo_29 = mid_32 + 1;
                          else
                            hi_30 = mid_32;
                        }

                        if ((lo_29 < end_33) && (D_idx1[lo_29] == key_31))
                        {
                          const int64_t pD1 = lo_29;
                          const int64_t D_idx1_pD1 = C_idx0_pC0;
                          const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                          const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                          if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                          {
                            {
                              double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                              for (int64_t spf_zero_34 = 0; spf_zero_34 < T_BD_size; spf_zero_34++)
                                T_BD_vals[spf_zero_34] = 0.0;

                              {
                                if ((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= D_n1)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
                                {
                                  const int64_t B_ptr0_pB0_2 = B_ptr0[pB0];
                                  const int64_t B_ptr0_pB0_1_2 = B_ptr0[pB0 + 1];
                                  const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                  const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                  for (int64_t pB1 = B_ptr0_pB0_2; pB1 <= (B_ptr0_pB0_1_2 - 1); pB1++)
                                  {
                                    const int64_t B_idx1_pB1_2 = B_idx1[pB1];
                                    const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                    const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                    if ((B_ptr1_pB1_2 + 1) <= B_ptr1_pB1_1_2)
                                    {
                                      const int64_t p = B_idx1_pB1_2;
                                      const int64_t pT_BD0 = B_idx1_pB1_2;
                                      int64_t pD2_position_35 = D_ptr1_pD1_2;
                                      for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                      {
                                        const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                        {
                                          const int64_t key_36 = B_idx2_pB2_2;
                                          while (((pD2_position_35 >= D_ptr1_pD1_2) && (pD2_position_35 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_35] < key_36))
                                            pD2_position_35++;

                                          if (!((pD2_position_35 >= D_ptr1_pD1_2) && (pD2_position_35 <= (D_ptr1_pD1_1_2 - 1))))
                                            break;
                                          if (((pD2_position_35 >= D_ptr1_pD1_2) && (pD2_position_35 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_35] == key_36))
                                          {
                                            const int64_t pD2 = pD2_position_35;
                                            const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                            const int64_t pT_BD1 = B_idx2_pB2_2;
                                            T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                            pD2_position_35++;
                                          }
                                        }
                                      }

                                    }
                                  }

                                }
                              }
                              {
                                double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                for (int64_t spf_zero_37 = 0; spf_zero_37 < T_BCD_size; spf_zero_37++)
                                  T_BCD_vals[spf_zero_37] = 0.0;

                                {
                                  if (((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= T_BD_N0)) && (1 <= C_nnz0))
                                  {
                                    const int64_t C_ptr0_pC0_2 = C_ptr0[pC0];
                                    const int64_t C_ptr0_pC0_1_2 = C_ptr0[pC0 + 1];
                                    for (int64_t pC1 = C_ptr0_pC0_2; pC1 <= (C_ptr0_pC0_1_2 - 1); pC1++)
                                    {
                                      const int64_t C_idx1_pC1_2 = C_idx1[pC1];
                                      const int64_t C_ptr1_pC1_2 = C_ptr1[pC1];
                                      const int64_t C_ptr1_pC1_1_2 = C_ptr1[pC1 + 1];
                                      if ((C_ptr1_pC1_2 + 1) <= C_ptr1_pC1_1_2)
                                      {
                                        for (int64_t pC2 = C_ptr1_pC1_2; pC2 <= (C_ptr1_pC1_1_2 - 1); pC2++)
                                        {
                                          const int64_t C_idx2_pC2_2 = C_idx2[pC2];
                                          if (0 <= (N_p - 1))
                                          {
                                            const double factor_38 = C_val[pC2];
                                            #pragma GCC ivdep
                                            for (int64_t p = 0; p <= (N_p - 1); p++)
                                            {
                                              const int64_t pT_BD0 = p;
                                              const int64_t pT_BCD0 = p;
                                              const int64_t pT_BD1 = C_idx2_pC2_2;
                                              const int64_t pT_BCD1 = C_idx1_pC1_2;
                                              T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_38;
                                            }

                                          }
                                        }

                                      }
                                    }

                                  }
                                }
                                {
                                  if ((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= R_N1)) && (1 <= R_N2)) && (1 <= A_nnz0))
                                  {
                                    for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
                                    {
                                      const int64_t A_idx0_pA0 = A_idx0[pA0];
                                      const int64_t A_ptr0_pA0 = A_ptr0[pA0];
                                      const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
                                      if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
                                      {
                                        const int64_t pR0 = A_idx0_pA0;
                                        const int64_t pR1 = j;
                                        const int64_t pR2 = k;
                                        double sum_39 = 0.0;
                                        for (int64_t pA1 = A_ptr0_pA0; pA1 <= (A_ptr0_pA0_1 - 1); pA1++)
                                        {
                                          const int64_t A_idx1_pA1 = A_idx1[pA1];
                                          const int64_t A_ptr1_pA1 = A_ptr1[pA1];
                                          const int64_t A_ptr1_pA1_1 = A_ptr1[pA1 + 1];
                                          if ((A_ptr1_pA1 + 1) <= A_ptr1_pA1_1)
                                          {
                                            const int64_t p = A_idx1_pA1;
                                            const int64_t pT_BCD0 = A_idx1_pA1;
                                            for (int64_t pA2 = A_ptr1_pA1; pA2 <= (A_ptr1_pA1_1 - 1); pA2++)
                                            {
                                              const int64_t A_idx2_pA2 = A_idx2[pA2];
                                              const int64_t pT_BCD1 = A_idx2_pA2;
                                              sum_39 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                            }

                                          }
                                        }

                                        R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_39;
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
                pD0_position_27++;
              }
            }
          }
        }

      }
    }
  }
  else
    if (N_p == 64)
  {
    {
      if ((((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= C_n1)) && (1 <= C_nnz0)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
      {
        int64_t pD0_position_14 = 0;
        for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
        {
          const int64_t B_idx0_pB0 = B_idx0[pB0];
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            const int64_t j = B_idx0_pB0;
            {
              const int64_t key_15 = B_idx0_pB0;
              while (((pD0_position_14 >= 0) && (pD0_position_14 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_14] < key_15))
                pD0_position_14++;

              if (((pD0_position_14 >= 0) && (pD0_position_14 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_14] == key_15))
              {
                const int64_t pD0 = pD0_position_14;
                const int64_t D_idx0_pD0 = B_idx0_pB0;
                const int64_t D_ptr0_pD0 = D_ptr0[pD0];
                const int64_t D_ptr0_pD0_1 = D_ptr0[pD0 + 1];
                if ((D_ptr0_pD0 + 1) <= D_ptr0_pD0_1)
                {
                  for (int64_t pC0 = 0; pC0 <= (C_nnz0 - 1); pC0++)
                  {
                    const int64_t C_idx0_pC0 = C_idx0[pC0];
                    const int64_t C_ptr0_pC0 = C_ptr0[pC0];
                    const int64_t C_ptr0_pC0_1 = C_ptr0[pC0 + 1];
                    if ((C_ptr0_pC0 + 1) <= C_ptr0_pC0_1)
                    {
                      const int64_t k = C_idx0_pC0;
                      {
                        const int64_t key_18 = C_idx0_pC0;
                        int64_t lo_16 = D_ptr0_pD0;
                        const int64_t end_20 = (D_ptr0_pD0_1 - 1) + 1;
                        int64_t hi_17 = end_20;
                        while (lo_16 < hi_17)
                        {
                          const int64_t mid_19 = lo_16 + ((hi_17 - lo_16) / 2);
                          if (D_idx1[mid_19] < key_18)
                            lo_16 = mid_19 + 1;
                          else
                            hi_17 = mid_19;
                        }

                        if ((lo_16 < end_20) && (D_idx1[lo_16] == key_18))
                        {
                          const int64_t pD1 = lo_16;
                          const int64_t D_idx1_pD1 = C_idx0_pC0;
                          const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                          const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                          if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                          {
                            {
                              double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                              for (int64_t spf_zero_21 = 0; spf_zero_21 < T_BD_size; spf_zero_21++)
                                T_BD_vals[spf_zero_21] = 0.0;

                              {
                                if ((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= D_n1)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
                                {
                                  const int64_t B_ptr0_pB0_2 = B_ptr0[pB0];
                                  const int64_t B_ptr0_pB0_1_2 = B_ptr0[pB0 + 1];
                                  const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                  const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                  for (int64_t pB1 = B_ptr0_pB0_2; pB1 <= (B_ptr0_pB0_1_2 - 1); pB1++)
                                  {
                                    const int64_t B_idx1_pB1_2 = B_idx1[pB1];
                                    const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                    const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                    if ((B_ptr1_pB1_2 + 1) <= B_ptr1_pB1_1_2)
                                    {
                                      const int64_t p = B_idx1_pB1_2;
                                      const int64_t pT_BD0 = B_idx1_pB1_2;
                                      int64_t pD2_position_22 = D_ptr1_pD1_2;
                                      for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                      {
                                        const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                        {
                                          const int64_t key_23 = B_idx2_pB2_2;
                                          while (((pD2_position_22 >= D_ptr1_pD1_2) && (pD2_position_22 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_22] < key_23))
                                            pD2_position_22++;

                                          if (!((pD2_position_22 >= D_ptr1_pD1_2) && (pD2_position_22 <= (D_ptr1_pD1_1_2 - 1))))
                                            break;
                                          if (((pD2_position_22 >= D_ptr1_pD1_2) && (pD2_position_22 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_22] == key_23))
                                          {
                                            const int64_t pD2 = pD2_position_22;
                                            const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                            const int64_t pT_BD1 = B_idx2_pB2_2;
                                            T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                            pD2_position_22++;
                                          }
                                        }
                                      }

                                    }
                                  }

                                }
                              }
                              {
                                double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                for (int64_t spf_zero_24 = 0; spf_zero_24 < T_BCD_size; spf_zero_24++)
                                  T_BCD_vals[spf_zero_24] = 0.0;

                                {
                                  if (((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= T_BD_N0)) && (1 <= C_nnz0))
                                  {
                                    const int64_t C_ptr0_pC0_2 = C_ptr0[pC0];
                                    const int64_t C_ptr0_pC0_1_2 = C_ptr0[pC0 + 1];
                                    for (int64_t pC1 = C_ptr0_pC0_2; pC1 <= (C_ptr0_pC0_1_2 - 1); pC1++)
                                    {
                                      const int64_t C_idx1_pC1_2 = C_idx1[pC1];
                                      const int64_t C_ptr1_pC1_2 = C_ptr1[pC1];
                                      const int64_t C_ptr1_pC1_1_2 = C_ptr1[pC1 + 1];
                                      if ((C_ptr1_pC1_2 + 1) <= C_ptr1_pC1_1_2)
                                      {
                                        for (int64_t pC2 = C_ptr1_pC1_2; pC2 <= (C_ptr1_pC1_1_2 - 1); pC2++)
                                        {
                                          const int64_t C_idx2_pC2_2 = C_idx2[pC2];
                                          if (0 <= (N_p - 1))
                                          {
                                            const double factor_25 = C_val[pC2];
                                            #pragma GCC ivdep
                                            for (int64_t p = 0; p <= (N_p - 1); p++)
                                            {
                                              const int64_t pT_BD0 = p;
                                              const int64_t pT_BCD0 = p;
                                              const int64_t pT_BD1 = C_idx2_pC2_2;
                                              const int64_t pT_BCD1 = C_idx1_pC1_2;
                                              T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_25;
                                            }

                                          }
                                        }

                                      }
                                    }

                                  }
                                }
                                {
                                  if ((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= R_N1)) && (1 <= R_N2)) && (1 <= A_nnz0))
                                  {
                                    for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
                                    {
                                      const int64_t A_idx0_pA0 = A_idx0[pA0];
                                      const int64_t A_ptr0_pA0 = A_ptr0[pA0];
                                      const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
                                      if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
                                      {
                                        const int64_t pR0 = A_idx0_pA0;
                                        const int64_t pR1 = j;
                                        const int64_t pR2 = k;
                                        double sum_26 = 0.0;
                                        for (int64_t pA1 = A_ptr0_pA0; pA1 <= (A_ptr0_pA0_1 - 1); pA1++)
                                        {
                                          const int64_t A_idx1_pA1 = A_idx1[pA1];
                                          const int64_t A_ptr1_pA1 = A_ptr1[pA1];
                                          const int64_t A_ptr1_pA1_1 = A_ptr1[pA1 + 1];
                                          if ((A_ptr1_pA1 + 1) <= A_ptr1_pA1_1)
                                          {
                                            const int64_t p = A_idx1_pA1;
                                            const int64_t pT_BCD0 = A_idx1_pA1;
                                            for (int64_t pA2 = A_ptr1_pA1; pA2 <= (A_ptr1_pA1_1 - 1); pA2++)
                                            {
                                              const int64_t A_idx2_pA2 = A_idx2[pA2];
                                              const int64_t pT_BCD1 = A_idx2_pA2;
                                              sum_26 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                            }

                                          }
                                        }

                                        R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_26;
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
                pD0_position_14++;
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
      if ((((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= C_n1)) && (1 <= C_nnz0)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
      {
        int64_t pD0_position_1 = 0;
        for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
        {
          const int64_t B_idx0_pB0 = B_idx0[pB0];
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            const int64_t j = B_idx0_pB0;
            {
              const int64_t key_2 = B_idx0_pB0;
              while (((pD0_position_1 >= 0) && (pD0_position_1 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_1] < key_2))
                pD0_position_1++;

              if (((pD0_position_1 >= 0) && (pD0_position_1 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_1] == key_2))
              {
                const int64_t pD0 = pD0_position_1;
                const int64_t D_idx0_pD0 = B_idx0_pB0;
                const int64_t D_ptr0_pD0 = D_ptr0[pD0];
                const int64_t D_ptr0_pD0_1 = D_ptr0[pD0 + 1];
                if ((D_ptr0_pD0 + 1) <= D_ptr0_pD0_1)
                {
                  for (int64_t pC0 = 0; pC0 <= (C_nnz0 - 1); pC0++)
                  {
                    const int64_t C_idx0_pC0 = C_idx0[pC0];
                    const int64_t C_ptr0_pC0 = C_ptr0[pC0];
                    const int64_t C_ptr0_pC0_1 = C_ptr0[pC0 + 1];
                    if ((C_ptr0_pC0 + 1) <= C_ptr0_pC0_1)
                    {
                      const int64_t k = C_idx0_pC0;
                      {
                        const int64_t key_5 = C_idx0_pC0;
                        int64_t lo_3 = D_ptr0_pD0;
                        const int64_t end_7 = (D_ptr0_pD0_1 - 1) + 1;
                        int64_t hi_4 = end_7;
                        while (lo_3 < hi_4)
                        {
                          const int64_t mid_6 = lo_3 + ((hi_4 - lo_3) / 2);
                          if (D_idx1[mid_6] < key_5)
                            lo_3 = mid_6 + 1;
                          else
                            hi_4 = mid_6;
                        }

                        if ((lo_3 < end_7) && (D_idx1[lo_3] == key_5))
                        {
                          const int64_t pD1 = lo_3;
                          const int64_t D_idx1_pD1 = C_idx0_pC0;
                          const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                          const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                          if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                          {
                            {
                              double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                              for (int64_t spf_zero_8 = 0; spf_zero_8 < T_BD_size; spf_zero_8++)
                                T_BD_vals[spf_zero_8] = 0.0;

                              {
                                if ((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= D_n1)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
                                {
                                  const int64_t B_ptr0_pB0_2 = B_ptr0[pB0];
                                  const int64_t B_ptr0_pB0_1_2 = B_ptr0[pB0 + 1];
                                  const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                  const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                  for (int64_t pB1 = B_ptr0_pB0_2; pB1 <= (B_ptr0_pB0_1_2 - 1); pB1++)
                                  {
                                    const int64_t B_idx1_pB1_2 = B_idx1[pB1];
                                    const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                    const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                    if ((B_ptr1_pB1_2 + 1) <= B_ptr1_pB1_1_2)
                                    {
                                      const int64_t p = B_idx1_pB1_2;
                                      const int64_t pT_BD0 = B_idx1_pB1_2;
                                      int64_t pD2_position_9 = D_ptr1_pD1_2;
                                      for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                      {
                                        const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                        {
                                          const int64_t key_10 = B_idx2_pB2_2;
                                          while (((pD2_position_9 >= D_ptr1_pD1_2) && (pD2_position_9 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_9] < key_10))
                                            pD2_position_9++;

                                          if (!((pD2_position_9 >= D_ptr1_pD1_2) && (pD2_position_9 <= (D_ptr1_pD1_1_2 - 1))))
                                            break;
                                          if (((pD2_position_9 >= D_ptr1_pD1_2) && (pD2_position_9 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_9] == key_10))
                                          {
                                            const int64_t pD2 = pD2_position_9;
                                            const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                            const int64_t pT_BD1 = B_idx2_pB2_2;
                                            T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                            pD2_position_9++;
                                          }
                                        }
                                      }

                                    }
                                  }

                                }
                              }
                              {
                                double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                for (int64_t spf_zero_11 = 0; spf_zero_11 < T_BCD_size; spf_zero_11++)
                                  T_BCD_vals[spf_zero_11] = 0.0;

                                {
                                  if (((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= T_BD_N0)) && (1 <= C_nnz0))
                                  {
                                    const int64_t C_ptr0_pC0_2 = C_ptr0[pC0];
                                    const int64_t C_ptr0_pC0_1_2 = C_ptr0[pC0 + 1];
                                    for (int64_t pC1 = C_ptr0_pC0_2; pC1 <= (C_ptr0_pC0_1_2 - 1); pC1++)
                                    {
                                      const int64_t C_idx1_pC1_2 = C_idx1[pC1];
                                      const int64_t C_ptr1_pC1_2 = C_ptr1[pC1];
                                      const int64_t C_ptr1_pC1_1_2 = C_ptr1[pC1 + 1];
                                      if ((C_ptr1_pC1_2 + 1) <= C_ptr1_pC1_1_2)
                                      {
                                        for (int64_t pC2 = C_ptr1_pC1_2; pC2 <= (C_ptr1_pC1_1_2 - 1); pC2++)
                                        {
                                          const int64_t C_idx2_pC2_2 = C_idx2[pC2];
                                          if (0 <= (N_p - 1))
                                          {
                                            const double factor_12 = C_val[pC2];
                                            #pragma GCC ivdep
                                            for (int64_t p = 0; p <= (N_p - 1); p++)
                                            {
                                              const int64_t pT_BD0 = p;
                                              const int64_t pT_BCD0 = p;
                                              const int64_t pT_BD1 = C_idx2_pC2_2;
                                              const int64_t pT_BCD1 = C_idx1_pC1_2;
                                              T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_12;
                                            }

                                          }
                                        }

                                      }
                                    }

                                  }
                                }
                                {
                                  if ((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= R_N1)) && (1 <= R_N2)) && (1 <= A_nnz0))
                                  {
                                    for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
                                    {
                                      const int64_t A_idx0_pA0 = A_idx0[pA0];
                                      const int64_t A_ptr0_pA0 = A_ptr0[pA0];
                                      const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
                                      if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
                                      {
                                        const int64_t pR0 = A_idx0_pA0;
                                        const int64_t pR1 = j;
                                        const int64_t pR2 = k;
                                        double sum_13 = 0.0;
                                        for (int64_t pA1 = A_ptr0_pA0; pA1 <= (A_ptr0_pA0_1 - 1); pA1++)
                                        {
                                          const int64_t A_idx1_pA1 = A_idx1[pA1];
                                          const int64_t A_ptr1_pA1 = A_ptr1[pA1];
                                          const int64_t A_ptr1_pA1_1 = A_ptr1[pA1 + 1];
                                          if ((A_ptr1_pA1 + 1) <= A_ptr1_pA1_1)
                                          {
                                            const int64_t p = A_idx1_pA1;
                                            const int64_t pT_BCD0 = A_idx1_pA1;
                                            for (int64_t pA2 = A_ptr1_pA1; pA2 <= (A_ptr1_pA1_1 - 1); pA2++)
                                            {
                                              const int64_t A_idx2_pA2 = A_idx2[pA2];
                                              const int64_t pT_BCD1 = A_idx2_pA2;
                                              sum_13 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                            }

                                          }
                                        }

                                        R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_13;
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
                pD0_position_1++;
              }
            }
          }
        }

      }
    }
  }
  free(T_BD_vals_all);
  free(T_BCD_vals_all);
  return 0;
}


void spf_fused_7166dee0ad_release_state(void)
{
}
