#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_EE3746292E_H_STRUCTS
#define SPF_FUSED_EE3746292E_H_STRUCTS

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


#endif /* SPF_FUSED_EE3746292E_H_STRUCTS */


int spf_fused_ee3746292e(struct spf_CSF3 *A, struct spf_CSF3 *B, struct spf_CSF3 *C, struct spf_CSF3 *D, struct spf_Dense3 *R)
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
  #pragma omp parallel for schedule(static) num_threads(spf_team_for((R_N0 * R_N1) * R_N2))
  for (int64_t spf_zero = 0; spf_zero < ((R_N0 * R_N1) * R_N2); spf_zero++)
    R_vals[spf_zero] = 0.0;

  if (N_p == 16)
  {
    {
      if ((((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= C_n1)) && (1 <= C_nnz0)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
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
            int64_t pD0_position_43 = 0;
            const int64_t spf_from = spf_first;
            const int64_t spf_to = spf_last + 1;
            const int spf_stream_index = 0;
            for (int64_t pB0 = spf_from; pB0 < spf_to; pB0++)
            {
              const int64_t B_idx0_pB0 = B_idx0[pB0];
              const int64_t B_ptr0_pB0 = B_ptr0[pB0];
              const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
              if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
              {
                const int64_t j = B_idx0_pB0;
                {
                  const int64_t key_44 = B_idx0_pB0;
                  while (((pD0_position_43 >= 0) && (pD0_position_43 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_43] < key_44))
                    pD0_position_43++;

                  if (((pD0_position_43 >= 0) && (pD0_position_43 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_43] == key_44))
                  {
                    const int64_t pD0 = pD0_position_43;
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
                            const int64_t key_47 = C_idx0_pC0;
                            int64_t lo_45 = D_ptr0_pD0;
                            const int64_t end_49 = (D_ptr0_pD0_1 - 1) + 1;
                            int64_t hi_46 = end_49;
                            while (lo_45 < hi_46)
                            {
                              const int64_t mid_48 = lo_45 + ((hi_46 - lo_45) / 2);
                              if (D_idx1[mid_48] < key_47)
                                lo_45 = mid_48 + 1;
                              else
                                hi_46 = mid_48;
                            }

                            if ((lo_45 < end_49) && (D_idx1[lo_45] == key_47))
                            {
                              const int64_t pD1 = lo_45;
                              const int64_t D_idx1_pD1 = C_idx0_pC0;
                              const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                              const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                              if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                              {
                                {
                                  double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                                  for (int64_t spf_zero_50 = 0; spf_zero_50 < T_BD_size; spf_zero_50++)
                                    T_BD_vals[spf_zero_50] = 0.0;

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
                                          int64_t pD2_position_51 = D_ptr1_pD1_2;
                                          for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                          {
                                            const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                            {
                                              const int64_t key_52 = B_idx2_pB2_2;
                                              while (((pD2_position_51 >= D_ptr1_pD1_2) && (pD2_position_51 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_51] < key_52))
                                                pD2_position_51++;

                                              if (!((pD2_position_51 >= D_ptr1_pD1_2) && (pD2_position_51 <= (D_ptr1_pD1_1_2 - 1))))
                                                break;
                                              if (((pD2_position_51 >= D_ptr1_pD1_2) && (pD2_position_51 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_51] == key_52))
                                              {
                                                const int64_t pD2 = pD2_position_51;
                                                const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                                const int64_t pT_BD1 = B_idx2_pB2_2;
                                                T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                                pD2_position_51++;
                                              }
                                            }
                                          }

                                        }
                                      }

                                    }
                                  }
                                  {
                                    double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                    for (int64_t spf_zero_53 = 0; spf_zero_53 < T_BCD_size; spf_zero_53++)
                                      T_BCD_vals[spf_zero_53] = 0.0;

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
                                                const double factor_54 = C_val[pC2];
                                                #pragma GCC ivdep
                                                for (int64_t p = 0; p <= (N_p - 1); p++)
                                                {
                                                  const int64_t pT_BD0 = p;
                                                  const int64_t pT_BCD0 = p;
                                                  const int64_t pT_BD1 = C_idx2_pC2_2;
                                                  const int64_t pT_BCD1 = C_idx1_pC1_2;
                                                  T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_54;
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
                                            double sum_55 = 0.0;
                                            int added_56 = 0;
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
                                                  sum_55 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                                  added_56 = 1;
                                                }

                                              }
                                            }

                                            if (added_56)
                                              R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_55;
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
                    pD0_position_43++;
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
                int64_t pD0_position_43 = 0;
                for (int64_t pB0 = spf_from; pB0 < spf_to; pB0++)
                {
                  const int64_t B_idx0_pB0 = B_idx0[pB0];
                  const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                  const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                  if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                  {
                    const int64_t j = B_idx0_pB0;
                    {
                      const int64_t key_44 = B_idx0_pB0;
                      while (((pD0_position_43 >= 0) && (pD0_position_43 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_43] < key_44))
                        pD0_position_43++;

                      if (((pD0_position_43 >= 0) && (pD0_position_43 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_43] == key_44))
                      {
                        const int64_t pD0 = pD0_position_43;
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
                                const int64_t key_47 = C_idx0_pC0;
                                int64_t lo_45 = D_ptr0_pD0;
                                const int64_t end_49 = (D_ptr0_pD0_1 - 1) + 1;
                                int64_t hi_46 = end_49;
                                while (lo_45 < hi_46)
                                {
                                  const int64_t mid_48 = lo_45 + ((hi_46 - lo_45) / 2);
                                  if (D_idx1[mid_48] < key_47)
                                    lo_45 = mid_48 + 1;
                                  else
                                    hi_46 = mid_48;
                                }

                                if ((lo_45 < end_49) && (D_idx1[lo_45] == key_47))
                                {
                                  const int64_t pD1 = lo_45;
                                  const int64_t D_idx1_pD1 = C_idx0_pC0;
                                  const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                                  const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                                  if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                                  {
                                    {
                                      double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                                      for (int64_t spf_zero_50 = 0; spf_zero_50 < T_BD_size; spf_zero_50++)
                                        T_BD_vals[spf_zero_50] = 0.0;

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
                                              int64_t pD2_position_51 = D_ptr1_pD1_2;
                                              for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                              {
                                                const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                                {
                                                  const int64_t key_52 = B_idx2_pB2_2;
                                                  while (((pD2_position_51 >= D_ptr1_pD1_2) && (pD2_position_51 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_51] < key_52))
                                                    pD2_position_51++;

                                                  if (!((pD2_position_51 >= D_ptr1_pD1_2) && (pD2_position_51 <= (D_ptr1_pD1_1_2 - 1))))
                                                    break;
                                                  if (((pD2_position_51 >= D_ptr1_pD1_2) && (pD2_position_51 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_51] == key_52))
                                                  {
                                                    const int64_t pD2 = pD2_position_51;
                                                    const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                                    const int64_t pT_BD1 = B_idx2_pB2_2;
                                                    T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                                    pD2_position_51++;
                                                  }
                                                }
                                              }

                                            }
                                          }

                                        }
                                      }
                                      {
                                        double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                        for (int64_t spf_zero_53 = 0; spf_zero_53 < T_BCD_size; spf_zero_53++)
                                          T_BCD_vals[spf_zero_53] = 0.0;

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
                                                    const double factor_54 = C_val[pC2];
                                                    #pragma GCC ivdep
                                                    for (int64_t p = 0; p <= (N_p - 1); p++)
                                                    {
                                                      const int64_t pT_BD0 = p;
                                                      const int64_t pT_BCD0 = p;
                                                      const int64_t pT_BD1 = C_idx2_pC2_2;
                                                      const int64_t pT_BCD1 = C_idx1_pC1_2;
                                                      T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_54;
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
                                                double sum_55 = 0.0;
                                                int added_56 = 0;
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
                                                      sum_55 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                                      added_56 = 1;
                                                    }

                                                  }
                                                }

                                                if (added_56)
                                                  R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_55;
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
                        pD0_position_43++;
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
    if (N_p == 32)
  {
    {
      if ((((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= C_n1)) && (1 <= C_nnz0)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
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
            int64_t pD0_position_29 = 0;
            const int64_t spf_from = spf_first;
            const int64_t spf_to = spf_last + 1;
            const int spf_stream_index = 0;
            for (int64_t pB0 = spf_from; pB0 < spf_to; pB0++)
            {
              const int64_t B_idx0_pB0 = B_idx0[pB0];
              const int64_t B_ptr0_pB0 = B_ptr0[pB0];
              const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
              if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
              {
                const int64_t j = B_idx0_pB0;
                {
                  const int64_t key_30 = B_idx0_pB0;
                  while (((pD0_position_29 >= 0) && (pD0_position_29 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_29] < key_30))
                    pD0_position_29++;

                  if (((pD0_position_29 >= 0) && (pD0_position_29 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_29] == key_30))
                  {
                    const int64_t pD0 = pD0_position_29;
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
                            const int64_t key_33 = C_idx0_pC0;
                            int64_t lo_31 = D_ptr0_pD0;
                            const int64_t end_35 = (D_ptr0_pD0_1 - 1) + 1;
                            int64_t hi_32 = end_35;
                            while (lo_31 < hi_32)
                            {
                              const int64_t mid_34 = lo_31 + ((hi_32 - lo_31) / 2);
                              if (D_idx1[mid_34] < key_33)
                                lo_31 = mid_34 + 1;
                              else
                                hi_32 = mid_34;
                            }

                            if ((lo_31 < end_35) && (D_idx1[lo_31] == key_33))
                            {
                              const int64_t pD1 = lo_31;
                              const int64_t D_idx1_pD1 = C_idx0_pC0;
                              const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                              const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                              if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                              {
                                {
                                  double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                                  for (int64_t spf_zero_36 = 0; spf_zero_36 < T_BD_size; spf_zero_36++)
                                    T_BD_vals[spf_zero_36] = 0.0;

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
                                          int64_t pD2_position_37 = D_ptr1_pD1_2;
                                          for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                          {
                                            const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                            {
                                              const int64_t key_38 = B_idx2_pB2_2;
                                              while (((pD2_position_37 >= D_ptr1_pD1_2) && (pD2_position_37 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_37] < key_38))
                                                pD2_position_37++;

                                              if (!((pD2_position_37 >= D_ptr1_pD1_2) && (pD2_position_37 <= (D_ptr1_pD1_1_2 - 1))))
                                                break;
                                              if (((pD2_position_37 >= D_ptr1_pD1_2) && (pD2_position_37 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_37] == key_38))
                                              {
                                                const int64_t pD2 = pD2_position_37;
                                                const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                                const int64_t pT_BD1 = B_idx2_pB2_2;
                                                T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                                pD2_position_37++;
                                              }
                                            }
                                          }

                                        }
                                      }

                                    }
                                  }
                                  {
                                    double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                    for (int64_t spf_zero_39 = 0; spf_zero_39 < T_BCD_size; spf_zero_39++)
                                      T_BCD_vals[spf_zero_39] = 0.0;

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
                                                const double factor_40 = C_val[pC2];
                                                #pragma GCC ivdep
                                                for (int64_t p = 0; p <= (N_p - 1); p++)
                                                {
                                                  const int64_t pT_BD0 = p;
                                                  const int64_t pT_BCD0 = p;
                                                  const int64_t pT_BD1 = C_idx2_pC2_2;
                                                  const int64_t pT_BCD1 = C_idx1_pC1_2;
                                                  T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_40;
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
                                            double sum_41 = 0.0;
                                            int added_42 = 0;
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
                                                  sum_41 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                                  added_42 = 1;
                                                }

                                              }
                                            }

                                            if (added_42)
                                              R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_41;
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
                    pD0_position_29++;
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
                int64_t pD0_position_29 = 0;
                for (int64_t pB0 = spf_from; pB0 < spf_to; pB0++)
                {
                  const int64_t B_idx0_pB0 = B_idx0[pB0];
                  const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                  const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                  if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                  {
                    const int64_t j = B_idx0_pB0;
                    {
                      const int64_t key_30 = B_idx0_pB0;
                      while (((pD0_position_29 >= 0) && (pD0_position_29 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_29] < key_30))
                        pD0_position_29++;

                      if (((pD0_position_29 >= 0) && (pD0_position_29 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_29] == key_30))
                      {
                        const int64_t pD0 = pD0_position_29;
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
                                const int64_t key_33 = C_idx0_pC0;
                                int64_t lo_31 = D_ptr0_pD0;
                                const int64_t end_35 = (D_ptr0_pD0_1 - 1) + 1;
                                int64_t hi_32 = end_35;
                                while (lo_31 < hi_32)
                                {
                                  const int64_t mid_34 = lo_31 + ((hi_32 - lo_31) / 2);
                                  if (D_idx1[mid_34] < key_33)
                                    lo_31 = mid_34 + 1;
                                  else
                                    hi_32 = mid_34;
                                }

                                if ((lo_31 < end_35) && (D_idx1[lo_31] == key_33))
                                {
                                  const int64_t pD1 = lo_31;
                                  const int64_t D_idx1_pD1 = C_idx0_pC0;
                                  const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                                  const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                                  if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                                  {
                                    {
                                      double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                                      for (int64_t spf_zero_36 = 0; spf_zero_36 < T_BD_size; spf_zero_36++)
                                        T_BD_vals[spf_zero_36] = 0.0;

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
                                              int64_t pD2_position_37 = D_ptr1_pD1_2;
                                              for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                              {
                                                const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                                {
                                                  const int64_t key_38 = B_idx2_pB2_2;
                                                  while (((pD2_position_37 >= D_ptr1_pD1_2) && (pD2_position_37 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_37] < key_38))
                                                    pD2_position_37++;

                                                  if (!((pD2_position_37 >= D_ptr1_pD1_2) && (pD2_position_37 <= (D_ptr1_pD1_1_2 - 1))))
                                                    break;
                                                  if (((pD2_position_37 >= D_ptr1_pD1_2) && (pD2_position_37 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_37] == key_38))
                                                  {
                                                    const int64_t pD2 = pD2_position_37;
                                                    const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                                    const int64_t pT_BD1 = B_idx2_pB2_2;
                                                    T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                                    pD2_position_37++;
                                                  }
                                                }
                                              }

                                            }
                                          }

                                        }
                                      }
                                      {
                                        double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                        for (int64_t spf_zero_39 = 0; spf_zero_39 < T_BCD_size; spf_zero_39++)
                                          T_BCD_vals[spf_zero_39] = 0.0;

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
                                                    const double factor_40 = C_val[pC2];
                                                    #pragma GCC ivdep
                                                    for (int64_t p = 0; p <= (N_p - 1); p++)
                                                    {
                                                      const int64_t pT_BD0 = p;
                                                      const int64_t pT_BCD0 = p;
                                                      const int64_t pT_BD1 = C_idx2_pC2_2;
                                                      const int64_t pT_BCD1 = C_idx1_pC1_2;
                                                      T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_40;
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
                                                double sum_41 = 0.0;
                                                int added_42 = 0;
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
                                                      sum_41 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                                      added_42 = 1;
                                                    }

                                                  }
                                                }

                                                if (added_42)
                                                  R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_41;
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
                        pD0_position_29++;
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
    if (N_p == 64)
  {
    {
      if ((((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= C_n1)) && (1 <= C_nnz0)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
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
            int64_t pD0_position_15 = 0;
            const int64_t spf_from = spf_first;
            const int64_t spf_to = spf_last + 1;
            const int spf_stream_index = 0;
            for (int64_t pB0 = spf_from; pB0 < spf_to; pB0++)
            {
              const int64_t B_idx0_pB0 = B_idx0[pB0];
              const int64_t B_ptr0_pB0 = B_ptr0[pB0];
              const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
              if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
              {
                const int64_t j = B_idx0_pB0;
                {
                  const int64_t key_16 = B_idx0_pB0;
                  while (((pD0_position_15 >= 0) && (pD0_position_15 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_15] < key_16))
                    pD0_position_15++;

                  if (((pD0_position_15 >= 0) && (pD0_position_15 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_15] == key_16))
                  {
                    const int64_t pD0 = pD0_position_15;
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
                            const int64_t key_19 = C_idx0_pC0;
                            int64_t lo_17 = D_ptr0_pD0;
                            const int64_t end_21 = (D_ptr0_pD0_1 - 1) + 1;
                            int64_t hi_18 = end_21;
                            while (lo_17 < hi_18)
                            {
                              const int64_t mid_20 = lo_17 + ((hi_18 - lo_17) / 2);
                              if (D_idx1[mid_20] < key_19)
                                lo_17 = mid_20 + 1;
                              else
                                hi_18 = mid_20;
                            }

                            if ((lo_17 < end_21) && (D_idx1[lo_17] == key_19))
                            {
                              const int64_t pD1 = lo_17;
                              const int64_t D_idx1_pD1 = C_idx0_pC0;
                              const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                              const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                              if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                              {
                                {
                                  double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                                  for (int64_t spf_zero_22 = 0; spf_zero_22 < T_BD_size; spf_zero_22++)
                                    T_BD_vals[spf_zero_22] = 0.0;

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
                                          int64_t pD2_position_23 = D_ptr1_pD1_2;
                                          for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                          {
                                            const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                            {
                                              const int64_t key_24 = B_idx2_pB2_2;
                                              while (((pD2_position_23 >= D_ptr1_pD1_2) && (pD2_position_23 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_23] < key_24))
                                                pD2_position_23++;

                                              if (!((pD2_position_23 >= D_ptr1_pD1_2) && (pD2_position_23 <= (D_ptr1_pD1_1_2 - 1))))
                                                break;
                                              if (((pD2_position_23 >= D_ptr1_pD1_2) && (pD2_position_23 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_23] == key_24))
                                              {
                                                const int64_t pD2 = pD2_position_23;
                                                const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                                const int64_t pT_BD1 = B_idx2_pB2_2;
                                                T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                                pD2_position_23++;
                                              }
                                            }
                                          }

                                        }
                                      }

                                    }
                                  }
                                  {
                                    double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                    for (int64_t spf_zero_25 = 0; spf_zero_25 < T_BCD_size; spf_zero_25++)
                                      T_BCD_vals[spf_zero_25] = 0.0;

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
                                                const double factor_26 = C_val[pC2];
                                                #pragma GCC ivdep
                                                for (int64_t p = 0; p <= (N_p - 1); p++)
                                                {
                                                  const int64_t pT_BD0 = p;
                                                  const int64_t pT_BCD0 = p;
                                                  const int64_t pT_BD1 = C_idx2_pC2_2;
                                                  const int64_t pT_BCD1 = C_idx1_pC1_2;
                                                  T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_26;
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
                                            double sum_27 = 0.0;
                                            int added_28 = 0;
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
                                                  sum_27 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                                  added_28 = 1;
                                                }

                                              }
                                            }

                                            if (added_28)
                                              R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_27;
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
                    pD0_position_15++;
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
                int64_t pD0_position_15 = 0;
                for (int64_t pB0 = spf_from; pB0 < spf_to; pB0++)
                {
                  const int64_t B_idx0_pB0 = B_idx0[pB0];
                  const int64_t B_ptr0_pB0 = B_ptr0[pB0];
                  const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
                  if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
                  {
                    const int64_t j = B_idx0_pB0;
                    {
                      const int64_t key_16 = B_idx0_pB0;
                      while (((pD0_position_15 >= 0) && (pD0_position_15 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_15] < key_16))
                        pD0_position_15++;

                      if (((pD0_position_15 >= 0) && (pD0_position_15 <= (D_nnz0 - 1))) && (D_idx0[pD0_position_15] == key_16))
                      {
                        const int64_t pD0 = pD0_position_15;
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
                                const int64_t key_19 = C_idx0_pC0;
                                int64_t lo_17 = D_ptr0_pD0;
                                const int64_t end_21 = (D_ptr0_pD0_1 - 1) + 1;
                                int64_t hi_18 = end_21;
                                while (lo_17 < hi_18)
                                {
                                  const int64_t mid_20 = lo_17 + ((hi_18 - lo_17) / 2);
                                  if (D_idx1[mid_20] < key_19)
                                    lo_17 = mid_20 + 1;
                                  else
                                    hi_18 = mid_20;
                                }

                                if ((lo_17 < end_21) && (D_idx1[lo_17] == key_19))
                                {
                                  const int64_t pD1 = lo_17;
                                  const int64_t D_idx1_pD1 = C_idx0_pC0;
                                  const int64_t D_ptr1_pD1 = D_ptr1[pD1];
                                  const int64_t D_ptr1_pD1_1 = D_ptr1[pD1 + 1];
                                  if ((D_ptr1_pD1 + 1) <= D_ptr1_pD1_1)
                                  {
                                    {
                                      double * restrict T_BD_vals = T_BD_vals_all + (spf_thread() * T_BD_vals_stride);
                                      for (int64_t spf_zero_22 = 0; spf_zero_22 < T_BD_size; spf_zero_22++)
                                        T_BD_vals[spf_zero_22] = 0.0;

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
                                              int64_t pD2_position_23 = D_ptr1_pD1_2;
                                              for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                              {
                                                const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                                {
                                                  const int64_t key_24 = B_idx2_pB2_2;
                                                  while (((pD2_position_23 >= D_ptr1_pD1_2) && (pD2_position_23 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_23] < key_24))
                                                    pD2_position_23++;

                                                  if (!((pD2_position_23 >= D_ptr1_pD1_2) && (pD2_position_23 <= (D_ptr1_pD1_1_2 - 1))))
                                                    break;
                                                  if (((pD2_position_23 >= D_ptr1_pD1_2) && (pD2_position_23 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_23] == key_24))
                                                  {
                                                    const int64_t pD2 = pD2_position_23;
                                                    const int64_t D_idx2_pD2_2 = B_idx2_pB2_2;
                                                    const int64_t pT_BD1 = B_idx2_pB2_2;
                                                    T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] += B_val[pB2] * D_val[pD2];
                                                    pD2_position_23++;
                                                  }
                                                }
                                              }

                                            }
                                          }

                                        }
                                      }
                                      {
                                        double * restrict T_BCD_vals = T_BCD_vals_all + (spf_thread() * T_BCD_vals_stride);
                                        for (int64_t spf_zero_25 = 0; spf_zero_25 < T_BCD_size; spf_zero_25++)
                                          T_BCD_vals[spf_zero_25] = 0.0;

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
                                                    const double factor_26 = C_val[pC2];
                                                    #pragma GCC ivdep
                                                    for (int64_t p = 0; p <= (N_p - 1); p++)
                                                    {
                                                      const int64_t pT_BD0 = p;
                                                      const int64_t pT_BCD0 = p;
                                                      const int64_t pT_BD1 = C_idx2_pC2_2;
                                                      const int64_t pT_BCD1 = C_idx1_pC1_2;
                                                      T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] += T_BD_vals[(pT_BD0 * T_BD_N1) + pT_BD1] * factor_26;
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
                                                double sum_27 = 0.0;
                                                int added_28 = 0;
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
                                                      sum_27 += T_BCD_vals[(pT_BCD0 * T_BCD_N1) + pT_BCD1] * A_val[pA2];
                                                      added_28 = 1;
                                                    }

                                                  }
                                                }

                                                if (added_28)
                                                  R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_27;
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
                        pD0_position_15++;
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
      if ((((((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_n0)) && (1 <= C_n1)) && (1 <= C_nnz0)) && (1 <= D_nnz0)) && (1 <= B_nnz0))
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
            int64_t pD0_position_1 = 0;
            const int64_t spf_from = spf_first;
            const int64_t spf_to = spf_last + 1;
            const int spf_stream_index = 0;
            for (int64_t pB0 = spf_from; pB0 < spf_to; pB0++)
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
                                            int added_14 = 0;
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
                                                  added_14 = 1;
                                                }

                                              }
                                            }

                                            if (added_14)
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
                int64_t pD0_position_1 = 0;
                for (int64_t pB0 = spf_from; pB0 < spf_to; pB0++)
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
                                                int added_14 = 0;
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
                                                      added_14 = 1;
                                                    }

                                                  }
                                                }

                                                if (added_14)
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
        }
      }
    }
  }
  free(T_BD_vals_all);
  free(T_BCD_vals_all);
  return 0;
}


void spf_fused_ee3746292e_release_state(void)
{
}
