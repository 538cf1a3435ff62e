#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_80BABDADFB_H_STRUCTS
#define SPF_FUSED_80BABDADFB_H_STRUCTS

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


#endif /* SPF_FUSED_80BABDADFB_H_STRUCTS */


int spf_fused_80babdadfb(struct spf_CSF3 *A, struct spf_CSF3 *B, struct spf_CSF3 *C, struct spf_CSF3 *D, struct spf_Dense3 *R)
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
  const int64_t N_q = A_n2;
  const int64_t N_p = A_n1;
  const int64_t N_k = C_n0;
  const int64_t N_j = B_n0;
  const int64_t N_i = A_n0;
  const int64_t T_ACD_N0 = N_r;
  const int64_t T_ACD_size = N_r;
  const int64_t T_ACD_vals_stride = ((T_ACD_size / 8) + 1) * 8;
  double *T_ACD_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_ACD_vals_stride));
  const int64_t T_CD_N0 = N_q;
  const int64_t T_CD_N1 = N_r;
  const int64_t T_CD_size = N_q * N_r;
  const int64_t T_CD_vals_stride = ((T_CD_size / 8) + 1) * 8;
  double *T_CD_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_CD_vals_stride));
  if ((T_ACD_vals_all == NULL) || (T_CD_vals_all == NULL))
  {
    free(T_ACD_vals_all);
    free(T_CD_vals_all);
    return 2;
  }
  if (!((((((((((((((B_n2 == D_n2) && (C_n0 == D_n1)) && (B_n0 == D_n0)) && (B_n2 == C_n2)) && (A_n2 == C_n1)) && (A_n1 == B_n1)) && (C_n2 == T_CD_N1)) && (C_n1 == T_CD_N0)) && (C_n2 == D_n2)) && (C_n0 == D_n1)) && (A_n2 == T_CD_N0)) && (T_CD_N1 == T_ACD_N0)) && (B_n2 == T_ACD_N0)) && (B_n0 == R_N1)))
  {
    free(T_ACD_vals_all);
    free(T_CD_vals_all);
    return 1;
  }
  for (int64_t spf_zero = 0; spf_zero < ((R_N0 * R_N1) * R_N2); spf_zero++)
    R_vals[spf_zero] = 0.0;

  if (N_r == 16)
  {
    {
      if ((((((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n0)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= B_nnz0)) && (1 <= A_nnz0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
      {
        for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
        {
          const int64_t A_idx0_pA0 = A_idx0[pA0];
          const int64_t A_ptr0_pA0 = A_ptr0[pA0];
          const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
          if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
          {
            const int64_t i = A_idx0_pA0;
            int64_t pD0_position_46 = 0;
            for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
            {
              const int64_t B_idx0_pB0 = B_idx0[pB0];
              const int64_t B_ptr0_pB0 = B_ptr0[pB0];
              const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
              if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
              {
                {
                  const int64_t key_47 = B_idx0_pB0;
                  while (((pD0_position_46 >= 0) && (pD0_position_46 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_46] < key_47))
                    pD0_position_46++;

                  if (((pD0_position_46 >= 0) && (pD0_position_46 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_46] == key_47))
                  {
                    const int64_t pD0 = pD0_position_46;
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
                          int64_t pB1_position_48 = B_ptr0_pB0;
                          {
                            const int64_t key_51 = C_idx0_pC0;
                            int64_t lo_49 = D_ptr0_pD0;
                            const int64_t end_53 = (D_ptr0_pD0_1 - 1) + 1;
                            int64_t hi_50 = end_53;
                            while (lo_49 < hi_50)
                            {
                              const int64_t mid_52 = lo_49 + ((hi_50 - lo_49) / 2);
                              if (D_idx1[mid_52] < key_51)
                                lo_49 = mid_52 + 1;
                              else
                                hi_50 = mid_52;
                            }

                            if ((lo_49 < end_53) && (D_idx1[lo_49] == key_51))
                            {
                              const int64_t pD1 = lo_49;
                              const int64_t D_idx1_pD1 = C_idx0_pC0;
                              const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                              const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                              if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                              {
                                for (int64_t pA1 = A_ptr0_pA0; pA1 <= (A_ptr0_pA0_1 - 1); pA1++)
                                {
                                  const int64_t A_idx1_pA1 = A_idx1[pA1];
                                  const int64_t A_ptr1_pA1 = A_ptr1[pA1];
                                  const int64_t A_ptr1_pA1_1 = A_ptr1[pA1 + 1];
                                  if ((A_ptr1_pA1 + 1) <= A_ptr1_pA1_1)
                                  {
                                    {
                                      const int64_t key_54 = A_idx1_pA1;
                                      while (((pB1_position_48 >= B_ptr0_pB0) && (pB1_position_48 <= (B_ptr0_pB0_1 - 1))) && (B_idx1[pB1_position_48] < key_54))
                                        pB1_position_48++;

                                      if (((pB1_position_48 >= B_ptr0_pB0) && (pB1_position_48 <= (B_ptr0_pB0_1 - 1))) && (B_idx1[pB1_position_48] == key_54))
                                      {
                                        const int64_t pB1 = pB1_position_48;
                                        const int64_t B_idx1_pB1 = A_idx1_pA1;
                                        const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                                        const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                                        if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                                        {
                                          {
                                            double * restrict T_ACD_vals = T_ACD_vals_all + (spf_thread() * T_ACD_vals_stride);
                                            for (int64_t spf_zero_55 = 0; spf_zero_55 < T_ACD_size; spf_zero_55++)
                                              T_ACD_vals[spf_zero_55] = 0.0;

                                            {
                                              double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
                                              for (int64_t spf_zero_56 = 0; spf_zero_56 < T_CD_size; spf_zero_56++)
                                                T_CD_vals[spf_zero_56] = 0.0;

                                              {
                                                if ((((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= D_n0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
                                                {
                                                  const int64_t C_ptr0_pC0_2 = C_ptr0[pC0];
                                                  const int64_t C_ptr0_pC0_1_2 = C_ptr0[pC0 + 1];
                                                  const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                                  const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                                  for (int64_t pC1 = C_ptr0_pC0_2; pC1 <= (C_ptr0_pC0_1_2 - 1); pC1++)
                                                  {
                                                    const int64_t C_idx1_pC1_2 = C_idx1[pC1];
                                                    const int64_t C_ptr1_pC1_2 = C_ptr1[pC1];
                                                    const int64_t C_ptr1_pC1_1_2 = C_ptr1[pC1 + 1];
                                                    if ((C_ptr1_pC1_2 + 1) <= C_ptr1_pC1_1_2)
                                                    {
                                                      const int64_t pT_CD0 = C_idx1_pC1_2;
                                                      int64_t pD2_position_57 = D_ptr1_pD1_2;
                                                      for (int64_t pC2 = C_ptr1_pC1_2; pC2 <= (C_ptr1_pC1_1_2 - 1); pC2++)
                                                      {
                                                        const int64_t C_idx2_pC2_2 = C_idx2[pC2];
                                                        const int64_t r = C_idx2_pC2_2;
                                                        {
                                                          const int64_t key_58 = C_idx2_pC2_2;
                                                          while (((pD2_position_57 >= D_ptr1_pD1_2) && (pD2_position_57 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_57] < key_58))
                                                            pD2_position_57++;

                                                          if (!((pD2_position_57 >= D_ptr1_pD1_2) && (pD2_position_57 <= (D_ptr1_pD1_1_2 - 1))))
                                                            break;
                                                          if (((pD2_position_57 >= D_ptr1_pD1_2) && (pD2_position_57 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_57] == key_58))
                                                          {
                                                            const int64_t pD2 = pD2_position_57;
                                                            const int64_t D_idx2_pD2_2 = C_idx2_pC2_2;
                                                            const int64_t pT_CD1 = C_idx2_pC2_2;
                                                            T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += C_val[pC2] * D_val[pD2];
                                                            pD2_position_57++;
                                                          }
                                                        }
                                                      }

                                                    }
                                                  }

                                                }
                                              }
                                              {
                                                if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= T_CD_N1)) && (1 <= A_nnz0))
                                                {
                                                  const int64_t A_ptr1_pA1_2 = A_ptr1[pA1];
                                                  const int64_t A_ptr1_pA1_1_2 = A_ptr1[pA1 + 1];
                                                  for (int64_t pA2 = A_ptr1_pA1_2; pA2 <= (A_ptr1_pA1_1_2 - 1); pA2++)
                                                  {
                                                    const int64_t A_idx2_pA2_2 = A_idx2[pA2];
                                                    const int64_t pT_CD0 = A_idx2_pA2_2;
                                                    if (0 <= (N_r - 1))
                                                    {
                                                      const double factor_59 = A_val[pA2];
                                                      #pragma GCC ivdep
                                                      for (int64_t r = 0; r <= (N_r - 1); r++)
                                                      {
                                                        const int64_t pT_CD1 = r;
                                                        const int64_t pT_ACD0 = pT_CD1;
                                                        T_ACD_vals[pT_ACD0] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_59;
                                                      }

                                                    }
                                                  }

                                                }
                                              }
                                            }
                                            {
                                              if ((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= R_N0)) && (1 <= R_N2)) && (1 <= B_nnz0))
                                              {
                                                const int64_t B_idx0_pB0_2 = B_idx0[pB0];
                                                const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                                const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                                const int64_t pR0 = i;
                                                const int64_t pR1 = B_idx0_pB0_2;
                                                const int64_t pR2 = k;
                                                double sum_60 = 0.0;
                                                for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                                {
                                                  const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                                  const int64_t r = B_idx2_pB2_2;
                                                  const int64_t pT_ACD0 = B_idx2_pB2_2;
                                                  sum_60 += T_ACD_vals[pT_ACD0] * B_val[pB2];
                                                }

                                                R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_60;
                                              }
                                            }
                                          }
                                        }
                                        pB1_position_48++;
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
                    pD0_position_46++;
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
      if ((((((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n0)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= B_nnz0)) && (1 <= A_nnz0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
      {
        for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
        {
          const int64_t A_idx0_pA0 = A_idx0[pA0];
          const int64_t A_ptr0_pA0 = A_ptr0[pA0];
          const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
          if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
          {
            const int64_t i = A_idx0_pA0;
            int64_t pD0_position_31 = 0;
            for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
            {
              const int64_t B_idx0_pB0 = B_idx0[pB0];
              const int64_t B_ptr0_pB0 = B_ptr0[pB0];
              const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
              if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
              {
                {
                  const int64_t key_32 = B_idx0_pB0;
                  while (((pD0_position_31 >= 0) && (pD0_position_31 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_31] < key_32))
                    pD0_position_31++;

                  if (((pD0_position_31 >= 0) && (pD0_position_31 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_31] == key_32))
                  {
                    const int64_t pD0 = pD0_position_31;
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
                          int64_t pB1_position_33 = B_ptr0_pB0;
                          {
                            const int64_t key_36 = C_idx0_pC0;
                            int64_t lo_34 = D_ptr0_pD0;
                            const int64_t end_38 = (D_ptr0_pD0_1 - 1) + 1;
                            int64_t hi_35 = end_38;
                            while (lo_34 < hi_35)
                            {
                              const int64_t mid_37 = lo_34 + ((hi_35 - lo_34) / 2);
                              if (D_idx1[mid_37] < key_36)
                                lo_34 = mid_37 + 1;
                              else
                                hi_35 = mid_37;
                            }

                            if ((lo_34 < end_38) && (D_idx1[lo_34] == key_36))
                            {
                              const int64_t pD1 = lo_34;
                              const int64_t D_idx1_pD1 = C_idx0_pC0;
                              const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                              const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                              if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                              {
                                for (int64_t pA1 = A_ptr0_pA0; pA1 <= (A_ptr0_pA0_1 - 1); pA1++)
                                {
                                  const int64_t A_idx1_pA1 = A_idx1[pA1];
                                  const int64_t A_ptr1_pA1 = A_ptr1[pA1];
                                  const int64_t A_ptr1_pA1_1 = A_ptr1[pA1 + 1];
                                  if ((A_ptr1_pA1 + 1) <= A_ptr1_pA1_1)
                                  {
                                    {
                                      const int64_t key_39 = A_idx1_pA1;
                                      while (((pB1_position_33 >= B_ptr0_pB0) && (pB1_position_33 <= (B_ptr0_pB0_1 - 1))) && (B_idx1[pB1_position_33] < key_39))
                                        pB1_position_33++;

                                      if (((pB1_position_33 >= B_ptr0_pB0) && (pB1_position_33 <= (B_ptr0_pB0_1 - 1))) && (B_idx1[pB1_position_33] == key_39))
                                      {
                                        const int64_t pB1 = pB1_position_33;
                                        const int64_t B_idx1_pB1 = A_idx1_pA1;
                                        const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                                        const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                                        if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                                        {
                                          {
                                            double * restrict T_ACD_vals = T_ACD_vals_all + (spf_thread() * T_ACD_vals_stride);
                                            for (int64_t spf_zero_40 = 0; spf_zero_40 < T_ACD_size; spf_zero_40++)
                                              T_ACD_vals[spf_zero_40] = 0.0;

                                            {
                                              double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
                                              for (int64_t spf_zero_41 = 0; spf_zero_41 < T_CD_size; spf_zero_41++)
                                                T_CD_vals[spf_zero_41] = 0.0;

                                              {
                                                if ((((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= D_n0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
                                                {
                                                  const int64_t C_ptr0_pC0_2 = C_ptr0[pC0];
                                                  const int64_t C_ptr0_pC0_1_2 = C_ptr0[pC0 + 1];
                                                  const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                                  const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                                  for (int64_t pC1 = C_ptr0_pC0_2; pC1 <= (C_ptr0_pC0_1_2 - 1); pC1++)
                                                  {
                                                    const int64_t C_idx1_pC1_2 = C_idx1[pC1];
                                                    const int64_t C_ptr1_pC1_2 = C_ptr1[pC1];
                                                    const int64_t C_ptr1_pC1_1_2 = C_ptr1[pC1 + 1];
                                                    if ((C_ptr1_pC1_2 + 1) <= C_ptr1_pC1_1_2)
                                                    {
                                                      const int64_t pT_CD0 = C_idx1_pC1_2;
                                                      int64_t pD2_position_42 = D_ptr1_pD1_2;
                                                      for (int64_t pC2 = C_ptr1_pC1_2; pC2 <= (C_ptr1_pC1_1_2 - 1); pC2++)
                                                      {
                                                        const int64_t C_idx2_pC2_2 = C_idx2[pC2];
                                                        const int64_t r = C_idx2_pC2_2;
                                                        {
                                                          const int64_t key_43 = C_idx2_pC2_2;
                                                          while (((pD2_position_42 >= D_ptr1_pD1_2) && (pD2_position_42 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_42] < key_43))
                                                            pD2_position_42++;

                                                          if (!((pD2_position_42 >= D_ptr1_pD1_2) && (pD2_position_42 <= (D_ptr1_pD1_1_2 - 1))))
                                                            break;
                                                          if (((pD2_position_42 >= D_ptr1_pD1_2) && (pD2_position_42 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_42] == key_43))
                                                          {
                                                            const int64_t pD2 = pD2_position_42;
                                                            const int64_t D_idx2_pD2_2 = C_idx2_pC2_2;
                                                            const int64_t pT_CD1 = C_idx2_pC2_2;
                                                            T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += C_val[pC2] * D_val[pD2];
                                                            pD2_position_42++;
                                                          }
                                                        }
                                                      }

                                                    }
                                                  }

                                                }
                                              }
                                              {
                                                if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= T_CD_N1)) && (1 <= A_nnz0))
                                                {
                                                  const int64_t A_ptr1_pA1_2 = A_ptr1[pA1];
                                                  const int64_t A_ptr1_pA1_1_2 = A_ptr1[pA1 + 1];
                                                  for (int64_t pA2 = A_ptr1_pA1_2; pA2 <= (A_ptr1_pA1_1_2 - 1); pA2++)
                                                  {
                                                    const int64_t A_idx2_pA2_2 = A_idx2[pA2];
                                                    const int64_t pT_CD0 = A_idx2_pA2_2;
                                                    if (0 <= (N_r - 1))
                                                    {
                                                      const double factor_44 = A_val[pA2];
                                                      #pragma GCC ivdep
                                                      for (int64_t r = 0; r <= (N_r - 1); r++)
                                                      {
                                                        const int64_t pT_CD1 = r;
                                                        const int64_t pT_ACD0 = pT_CD1;
                                                        T_ACD_vals[pT_ACD0] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_44;
                                                      }

                                                    }
                                                  }

                                                }
                                              }
                                            }
                                            {
                                              if ((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= R_N0)) && (1 <= R_N2)) && (1 <= B_nnz0))
                                              {
                                                const int64_t B_idx0_pB0_2 = B_idx0[pB0];
                                                const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                                const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                                const int64_t pR0 = i;
                                                const int64_t pR1 = B_idx0_pB0_2;
                                                const int64_t pR2 = k;
                                                double sum_45 = 0.0;
                                                for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                                {
                                                  const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                                  const int64_t r = B_idx2_pB2_2;
                                                  const int64_t pT_ACD0 = B_idx2_pB2_2;
                                                  sum_45 += T_ACD_vals[pT_ACD0] * B_val[pB2];
                                                }

                                                R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_45;
                                              }
                                            }
                                          }
                                        }
                                        pB1_position_33++;
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
                    pD0_position_31++;
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
      if ((((((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n0)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= B_nnz0)) && (1 <= A_nnz0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
      {
        for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
        {
          const int64_t A_idx0_pA0 = A_idx0[pA0];
          const int64_t A_ptr0_pA0 = A_ptr0[pA0];
          const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
          if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
          {
            const int64_t i = A_idx0_pA0;
            int64_t pD0_position_16 = 0;
            for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
            {
              const int64_t B_idx0_pB0 = B_idx0[pB0];
              const int64_t B_ptr0_pB0 = B_ptr0[pB0];
              const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
              if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
              {
                {
                  const int64_t key_17 = B_idx0_pB0;
                  while (((pD0_position_16 >= 0) && (pD0_position_16 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_16] < key_17))
                    pD0_position_16++;

                  if (((pD0_position_16 >= 0) && (pD0_position_16 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_16] == key_17))
                  {
                    const int64_t pD0 = pD0_position_16;
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
                          int64_t pB1_position_18 = B_ptr0_pB0;
                          {
                            const int64_t key_21 = C_idx0_pC0;
                            int64_t lo_19 = D_ptr0_pD0;
                            const int64_t end_23 = (D_ptr0_pD0_1 - 1) + 1;
                            int64_t hi_20 = end_23;
                            while (lo_19 < hi_20)
                            {
                              const int64_t mid_22 = lo_19 + ((hi_20 - lo_19) / 2);
                              if (D_idx1[mid_22] < key_21)
                                lo_19 = mid_22 + 1;
                              else
                                hi_20 = mid_22;
                            }

                            if ((lo_19 < end_23) && (D_idx1[lo_19] == key_21))
                            {
                              const int64_t pD1 = lo_19;
                              const int64_t D_idx1_pD1 = C_idx0_pC0;
                              const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                              const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                              if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                              {
                                for (int64_t pA1 = A_ptr0_pA0; pA1 <= (A_ptr0_pA0_1 - 1); pA1++)
                                {
                                  const int64_t A_idx1_pA1 = A_idx1[pA1];
                                  const int64_t A_ptr1_pA1 = A_ptr1[pA1];
                                  const int64_t A_ptr1_pA1_1 = A_ptr1[pA1 + 1];
                                  if ((A_ptr1_pA1 + 1) <= A_ptr1_pA1_1)
                                  {
                                    {
                                      const int64_t key_24 = A_idx1_pA1;
                                      while (((pB1_position_18 >= B_ptr0_pB0) && (pB1_position_18 <= (B_ptr0_pB0_1 - 1))) && (B_idx1[pB1_position_18] < key_24))
                                        pB1_position_18++;

                                      if (((pB1_position_18 >= B_ptr0_pB0) && (pB1_position_18 <= (B_ptr0_pB0_1 - 1))) && (B_idx1[pB1_position_18] == key_24))
                                      {
                                        const int64_t pB1 = pB1_position_18;
                                        const int64_t B_idx1_pB1 = A_idx1_pA1;
                                        const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                                        const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                                        if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                                        {
                                          {
                                            double * restrict T_ACD_vals = T_ACD_vals_all + (spf_thread() * T_ACD_vals_stride);
                                            for (int64_t spf_zero_25 = 0; spf_zero_25 < T_ACD_size; spf_zero_25++)
                                              T_ACD_vals[spf_zero_25] = 0.0;

                                            {
                                              double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
                                              for (int64_t spf_zero_26 = 0; spf_zero_26 < T_CD_size; spf_zero_26++)
                                                T_CD_vals[spf_zero_26] = 0.0;

                                              {
                                                if ((((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= D_n0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
                                                {
                                                  const int64_t C_ptr0_pC0_2 = C_ptr0[pC0];
                                                  const int64_t C_ptr0_pC0_1_2 = C_ptr0[pC0 + 1];
                                                  const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                                  const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                                  for (int64_t pC1 = C_ptr0_pC0_2; pC1 <= (C_ptr0_pC0_1_2 - 1); pC1++)
                                                  {
                                                    const int64_t C_idx1_pC1_2 = C_idx1[pC1];
                                                    const int64_t C_ptr1_pC1_2 = C_ptr1[pC1];
                                                    const int64_t C_ptr1_pC1_1_2 = C_ptr1[pC1 + 1];
                                                    if ((C_ptr1_pC1_2 + 1) <= C_ptr1_pC1_1_2)
                                                    {
                                                      const int64_t pT_CD0 = C_idx1_pC1_2;
                                                      int64_t pD2_position_27 = D_ptr1_pD1_2;
                                                      for (int64_t pC2 = C_ptr1_pC1_2; pC2 <= (C_ptr1_pC1_1_2 - 1); pC2++)
                                                      {
                                                        const int64_t C_idx2_pC2_2 = C_idx2[pC2];
                                                        const int64_t r = C_idx2_pC2_2;
                                                        {
                                                          const int64_t key_28 = C_idx2_pC2_2;
                                                          while (((pD2_position_27 >= D_ptr1_pD1_2) && (pD2_position_27 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_27] < key_28))
                                                            pD2_position_27++;

                                                          if (!((pD2_position_27 >= D_ptr1_pD1_2) && (pD2_position_27 <= (D_ptr1_pD1_1_2 - 1))))
                                                            break;
                                                          if (((pD2_position_27 >= D_ptr1_pD1_2) && (pD2_position_27 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_27] == key_28))
                                                          {
                                                            const int64_t pD2 = pD2_position_27;
                                                            const int64_t D_idx2_pD2_2 = C_idx2_pC2_2;
                                                            const int64_t pT_CD1 = C_idx2_pC2_2;
                                                            T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += C_val[pC2] * D_val[pD2];
                                                            pD2_position_27++;
                                                          }
                                                        }
                                                      }

                                                    }
                                                  }

                                                }
                                              }
                                              {
                                                if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= T_CD_N1)) && (1 <= A_nnz0))
                                                {
                                                  const int64_t A_ptr1_pA1_2 = A_ptr1[pA1];
                                                  const int64_t A_ptr1_pA1_1_2 = A_ptr1[pA1 + 1];
                                                  for (int64_t pA2 = A_ptr1_pA1_2; pA2 <= (A_ptr1_pA1_1_2 - 1); pA2++)
                                                  {
                                                    const int64_t A_idx2_pA2_2 = A_idx2[pA2];
                                                    const int64_t pT_CD0 = A_idx2_pA2_2;
                                                    if (0 <= (N_r - 1))
                                                    {
                                                      const double factor_29 = A_val[pA2];
                                                      #pragma GCC ivdep
                                                      for (int64_t r = 0; r <= (N_r - 1); r++)
                                                      {
                                                        const int64_t pT_CD1 = r;
                                                        const int64_t pT_ACD0 = pT_CD1;
                                                        T_ACD_vals[pT_ACD0] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_29;
                                                      }

                                                    }
                                                  }

                                                }
                                              }
                                            }
                                            {
                                              if ((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= R_N0)) && (1 <= R_N2)) && (1 <= B_nnz0))
                                              {
                                                const int64_t B_idx0_pB0_2 = B_idx0[pB0];
                                                const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                                const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                                const int64_t pR0 = i;
                                                const int64_t pR1 = B_idx0_pB0_2;
                                                const int64_t pR2 = k;
                                                double sum_30 = 0.0;
                                                for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                                {
                                                  const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                                  const int64_t r = B_idx2_pB2_2;
                                                  const int64_t pT_ACD0 = B_idx2_pB2_2;
                                                  sum_30 += T_ACD_vals[pT_ACD0] * B_val[pB2];
                                                }

                                                R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_30;
                                              }
                                            }
                                          }
                                        }
                                        pB1_position_18++;
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
                    pD0_position_16++;
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
      if ((((((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n0)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= B_nnz0)) && (1 <= A_nnz0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
      {
        for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
        {
          const int64_t A_idx0_pA0 = A_idx0[pA0];
          const int64_t A_ptr0_pA0 = A_ptr0[pA0];
          const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
          if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
          {
            const int64_t i = A_idx0_pA0;
            int64_t pD0_position_1 = 0;
            for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
            {
              const int64_t B_idx0_pB0 = B_idx0[pB0];
              const int64_t B_ptr0_pB0 = B_ptr0[pB0];
              const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
              if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
              {
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
                          int64_t pB1_position_3 = B_ptr0_pB0;
                          {
                            const int64_t key_6 = C_idx0_pC0;
                            int64_t lo_4 = D_ptr0_pD0;
                            const int64_t end_8 = (D_ptr0_pD0_1 - 1) + 1;
                            int64_t hi_5 = end_8;
                            while (lo_4 < hi_5)
                            {
                              const int64_t mid_7 = lo_4 + ((hi_5 - lo_4) / 2);
                              if (D_idx1[mid_7] < key_6)
                                lo_4 = mid_7 + 1;
                              else
                                hi_5 = mid_7;
                            }

                            if ((lo_4 < end_8) && (D_idx1[lo_4] == key_6))
                            {
                              const int64_t pD1 = lo_4;
                              const int64_t D_idx1_pD1 = C_idx0_pC0;
                              const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                              const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                              if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                              {
                                for (int64_t pA1 = A_ptr0_pA0; pA1 <= (A_ptr0_pA0_1 - 1); pA1++)
                                {
                                  const int64_t A_idx1_pA1 = A_idx1[pA1];
                                  const int64_t A_ptr1_pA1 = A_ptr1[pA1];
                                  const int64_t A_ptr1_pA1_1 = A_ptr1[pA1 + 1];
                                  if ((A_ptr1_pA1 + 1) <= A_ptr1_pA1_1)
                                  {
                                    {
                                      const int64_t key_9 = A_idx1_pA1;
                                      while (((pB1_position_3 >= B_ptr0_pB0) && (pB1_position_3 <= (B_ptr0_pB0_1 - 1))) && (B_idx1[pB1_position_3] < key_9))
                                        pB1_position_3++;

                                      if (((pB1_position_3 >= B_ptr0_pB0) && (pB1_position_3 <= (B_ptr0_pB0_1 - 1))) && (B_idx1[pB1_position_3] == key_9))
                                      {
                                        const int64_t pB1 = pB1_position_3;
                                        const int64_t B_idx1_pB1 = A_idx1_pA1;
                                        const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                                        const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                                        if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                                        {
                                          {
                                            double * restrict T_ACD_vals = T_ACD_vals_all + (spf_thread() * T_ACD_vals_stride);
                                            for (int64_t spf_zero_10 = 0; spf_zero_10 < T_ACD_size; spf_zero_10++)
                                              T_ACD_vals[spf_zero_10] = 0.0;

                                            {
                                              double * restrict T_CD_vals = T_CD_vals_all + (spf_thread() * T_CD_vals_stride);
                                              for (int64_t spf_zero_11 = 0; spf_zero_11 < T_CD_size; spf_zero_11++)
                                                T_CD_vals[spf_zero_11] = 0.0;

                                              {
                                                if ((((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= D_n0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
                                                {
                                                  const int64_t C_ptr0_pC0_2 = C_ptr0[pC0];
                                                  const int64_t C_ptr0_pC0_1_2 = C_ptr0[pC0 + 1];
                                                  const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                                  const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                                  for (int64_t pC1 = C_ptr0_pC0_2; pC1 <= (C_ptr0_pC0_1_2 - 1); pC1++)
                                                  {
                                                    const int64_t C_idx1_pC1_2 = C_idx1[pC1];
                                                    const int64_t C_ptr1_pC1_2 = C_ptr1[pC1];
                                                    const int64_t C_ptr1_pC1_1_2 = C_ptr1[pC1 + 1];
                                                    if ((C_ptr1_pC1_2 + 1) <= C_ptr1_pC1_1_2)
                                                    {
                                                      const int64_t pT_CD0 = C_idx1_pC1_2;
                                                      int64_t pD2_position_12 = D_ptr1_pD1_2;
                                                      for (int64_t pC2 = C_ptr1_pC1_2; pC2 <= (C_ptr1_pC1_1_2 - 1); pC2++)
                                                      {
                                                        const int64_t C_idx2_pC2_2 = C_idx2[pC2];
                                                        const int64_t r = C_idx2_pC2_2;
                                                        {
                                                          const int64_t key_13 = C_idx2_pC2_2;
                                                          while (((pD2_position_12 >= D_ptr1_pD1_2) && (pD2_position_12 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_12] < key_13))
                                                            pD2_position_12++;

                                                          if (!((pD2_position_12 >= D_ptr1_pD1_2) && (pD2_position_12 <= (D_ptr1_pD1_1_2 - 1))))
                                                            break;
                                                          if (((pD2_position_12 >= D_ptr1_pD1_2) && (pD2_position_12 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_12] == key_13))
                                                          {
                                                            const int64_t pD2 = pD2_position_12;
                                                            const int64_t D_idx2_pD2_2 = C_idx2_pC2_2;
                                                            const int64_t pT_CD1 = C_idx2_pC2_2;
                                                            T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] += C_val[pC2] * D_val[pD2];
                                                            pD2_position_12++;
                                                          }
                                                        }
                                                      }

                                                    }
                                                  }

                                                }
                                              }
                                              {
                                                if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= T_CD_N1)) && (1 <= A_nnz0))
                                                {
                                                  const int64_t A_ptr1_pA1_2 = A_ptr1[pA1];
                                                  const int64_t A_ptr1_pA1_1_2 = A_ptr1[pA1 + 1];
                                                  for (int64_t pA2 = A_ptr1_pA1_2; pA2 <= (A_ptr1_pA1_1_2 - 1); pA2++)
                                                  {
                                                    const int64_t A_idx2_pA2_2 = A_idx2[pA2];
                                                    const int64_t pT_CD0 = A_idx2_pA2_2;
                                                    if (0 <= (N_r - 1))
                                                    {
                                                      const double factor_14 = A_val[pA2];
                                                      #pragma GCC ivdep
                                                      for (int64_t r = 0; r <= (N_r - 1); r++)
                                                      {
                                                        const int64_t pT_CD1 = r;
                                                        const int64_t pT_ACD0 = pT_CD1;
                                                        T_ACD_vals[pT_ACD0] += T_CD_vals[(pT_CD0 * T_CD_N1) + pT_CD1] * factor_14;
                                                      }

                                                    }
                                                  }

                                                }
                                              }
                                            }
                                            {
                                              if ((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= R_N0)) && (1 <= R_N2)) && (1 <= B_nnz0))
                                              {
                                                const int64_t B_idx0_pB0_2 = B_idx0[pB0];
                                                const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                                const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                                const int64_t pR0 = i;
                                                const int64_t pR1 = B_idx0_pB0_2;
                                                const int64_t pR2 = k;
                                                double sum_15 = 0.0;
                                                for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                                {
                                                  const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                                  const int64_t r = B_idx2_pB2_2;
                                                  const int64_t pT_ACD0 = B_idx2_pB2_2;
                                                  sum_15 += T_ACD_vals[pT_ACD0] * B_val[pB2];
                                                }

                                                R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_15;
                                              }
                                            }
                                          }
                                        }
                                        pB1_position_3++;
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
    }
  }
  free(T_ACD_vals_all);
  free(T_CD_vals_all);
  return 0;
}


void spf_fused_80babdadfb_release_state(void)
{
}
