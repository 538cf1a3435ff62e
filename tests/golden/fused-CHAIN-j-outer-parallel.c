#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_64B6BBBA3E_H_STRUCTS
#define SPF_FUSED_64B6BBBA3E_H_STRUCTS

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


#endif /* SPF_FUSED_64B6BBBA3E_H_STRUCTS */


int spf_fused_64b6bbba3e(struct spf_CSF3 *A, struct spf_CSF3 *B, struct spf_CSF3 *C, struct spf_CSF3 *D, struct spf_Dense3 *R)
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
  const int64_t N_k = D_n1;
  const int64_t N_j = B_n0;
  const int64_t N_i = A_n0;
  const int64_t T_AB_N0 = N_q;
  const int64_t T_AB_N1 = N_r;
  const int64_t T_AB_size = N_q * N_r;
  const int64_t T_AB_vals_stride = ((T_AB_size / 8) + 1) * 8;
  double *T_AB_vals_all = aligned_alloc(64, (sizeof(double)) * (spf_threads() * T_AB_vals_stride));
  if (T_AB_vals_all == NULL)
  {
    free(T_AB_vals_all);
    return 2;
  }
  if (!((((((((((((B_n2 == D_n2) && (B_n0 == D_n0)) && (A_n1 == B_n1)) && (B_n2 == T_AB_N1)) && (A_n2 == T_AB_N0)) && (A_n1 == B_n1)) && (C_n2 == T_AB_N1)) && (C_n1 == T_AB_N0)) && (C_n0 == R_N2)) && (D_n0 == R_N1)) && (C_n2 == D_n2)) && (C_n0 == D_n1)))
  {
    free(T_AB_vals_all);
    return 1;
  }
  #pragma omp parallel for schedule(static) num_threads(spf_team_for((R_N0 * R_N1) * R_N2))
  for (int64_t spf_zero = 0; spf_zero < ((R_N0 * R_N1) * R_N2); spf_zero++)
    R_vals[spf_zero] = 0.0;

  {
    if (((((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n0)) && (1 <= B_n2)) && (1 <= D_n1)) && (1 <= D_nnz0)) && (1 <= B_nnz0)) && (1 <= A_nnz0))
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
                    for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
                    {
                      const int64_t A_idx0_pA0 = A_idx0[pA0];
                      const int64_t A_ptr0_pA0 = A_ptr0[pA0];
                      const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
                      if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
                      {
                        const int64_t i = A_idx0_pA0;
                        {
                          double * restrict T_AB_vals = T_AB_vals_all + (spf_thread() * T_AB_vals_stride);
                          for (int64_t spf_zero_3 = 0; spf_zero_3 < T_AB_size; spf_zero_3++)
                            T_AB_vals[spf_zero_3] = 0.0;

                          {
                            if (((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n0)) && (1 <= B_n2)) && (1 <= B_nnz0)) && (1 <= A_nnz0))
                            {
                              const int64_t B_ptr0_pB0_2 = B_ptr0[pB0];
                              const int64_t B_ptr0_pB0_1_2 = B_ptr0[pB0 + 1];
                              const int64_t A_ptr0_pA0_2 = A_ptr0[pA0];
                              const int64_t A_ptr0_pA0_1_2 = A_ptr0[pA0 + 1];
                              int64_t pB1_position_4 = B_ptr0_pB0_2;
                              for (int64_t pA1 = A_ptr0_pA0_2; pA1 <= (A_ptr0_pA0_1_2 - 1); pA1++)
                              {
                                const int64_t A_idx1_pA1_2 = A_idx1[pA1];
                                const int64_t A_ptr1_pA1_2 = A_ptr1[pA1];
                                const int64_t A_ptr1_pA1_1_2 = A_ptr1[pA1 + 1];
                                if ((A_ptr1_pA1_2 + 1) <= A_ptr1_pA1_1_2)
                                {
                                  {
                                    const int64_t key_5 = A_idx1_pA1_2;
                                    while (((pB1_position_4 >= B_ptr0_pB0_2) && (pB1_position_4 <= (B_ptr0_pB0_1_2 - 1))) && (B_idx1[pB1_position_4] < key_5))
                                      pB1_position_4++;

                                    if (((pB1_position_4 >= B_ptr0_pB0_2) && (pB1_position_4 <= (B_ptr0_pB0_1_2 - 1))) && (B_idx1[pB1_position_4] == key_5))
                                    {
                                      const int64_t pB1 = pB1_position_4;
                                      const int64_t B_idx1_pB1_2 = A_idx1_pA1_2;
                                      const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                      const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                      if ((B_ptr1_pB1_2 + 1) <= B_ptr1_pB1_1_2)
                                      {
                                        for (int64_t pA2 = A_ptr1_pA1_2; pA2 <= (A_ptr1_pA1_1_2 - 1); pA2++)
                                        {
                                          const int64_t A_idx2_pA2_2 = A_idx2[pA2];
                                          const int64_t pT_AB0 = A_idx2_pA2_2;
                                          for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                          {
                                            const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                            const int64_t pT_AB1 = B_idx2_pB2_2;
                                            T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1] += A_val[pA2] * B_val[pB2];
                                          }

                                        }

                                      }
                                      pB1_position_4++;
                                    }
                                  }
                                }
                              }

                            }
                          }
                          {
                            if (((((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= D_n0)) && (1 <= R_N0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
                            {
                              const int64_t D_idx0_pD0_2 = D_idx0[pD0];
                              const int64_t D_ptr0_pD0_2 = D_ptr0[pD0];
                              const int64_t D_ptr0_pD0_1_2 = D_ptr0[pD0 + 1];
                              const int64_t pR0 = i;
                              const int64_t pR1 = D_idx0_pD0_2;
                              int64_t pD1_position_6 = D_ptr0_pD0_2;
                              for (int64_t pC0 = 0; pC0 <= (C_nnz0 - 1); pC0++)
                              {
                                const int64_t C_idx0_pC0 = C_idx0[pC0];
                                const int64_t C_ptr0_pC0 = C_ptr0[pC0];
                                const int64_t C_ptr0_pC0_1 = C_ptr0[pC0 + 1];
                                if ((C_ptr0_pC0 + 1) <= C_ptr0_pC0_1)
                                {
                                  {
                                    const int64_t key_7 = C_idx0_pC0;
                                    while (((pD1_position_6 >= D_ptr0_pD0_2) && (pD1_position_6 <= (D_ptr0_pD0_1_2 - 1))) && (D_idx1[pD1_position_6] < key_7))
                                      pD1_position_6++;

                                    if (((pD1_position_6 >= D_ptr0_pD0_2) && (pD1_position_6 <= (D_ptr0_pD0_1_2 - 1))) && (D_idx1[pD1_position_6] == key_7))
                                    {
                                      const int64_t pD1 = pD1_position_6;
                                      const int64_t D_idx1_pD1_2 = C_idx0_pC0;
                                      const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                      const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                      if ((D_ptr1_pD1_2 + 1) <= D_ptr1_pD1_1_2)
                                      {
                                        const int64_t pR2 = C_idx0_pC0;
                                        double sum_8 = 0.0;
                                        int added_9 = 0;
                                        for (int64_t pC1 = C_ptr0_pC0; pC1 <= (C_ptr0_pC0_1 - 1); pC1++)
                                        {
                                          const int64_t C_idx1_pC1 = C_idx1[pC1];
                                          const int64_t C_ptr1_pC1 = C_ptr1[pC1];
                                          const int64_t C_ptr1_pC1_1 = C_ptr1[pC1 + 1];
                                          if ((C_ptr1_pC1 + 1) <= C_ptr1_pC1_1)
                                          {
                                            const int64_t pT_AB0 = C_idx1_pC1;
                                            int64_t pD2_position_10 = D_ptr1_pD1_2;
                                            for (int64_t pC2 = C_ptr1_pC1; pC2 <= (C_ptr1_pC1_1 - 1); pC2++)
                                            {
                                              const int64_t C_idx2_pC2 = C_idx2[pC2];
                                              {
                                                const int64_t key_11 = C_idx2_pC2;
                                                while (((pD2_position_10 >= D_ptr1_pD1_2) && (pD2_position_10 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_10] < key_11))
                                                  pD2_position_10++;

                                                if (!((pD2_position_10 >= D_ptr1_pD1_2) && (pD2_position_10 <= (D_ptr1_pD1_1_2 - 1))))
                                                  break;
                                                if (((pD2_position_10 >= D_ptr1_pD1_2) && (pD2_position_10 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_10] == key_11))
                                                {
                                                  const int64_t pD2 = pD2_position_10;
                                                  const int64_t D_idx2_pD2_2 = C_idx2_pC2;
                                                  const int64_t pT_AB1 = C_idx2_pC2;
                                                  sum_8 += (T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1] * C_val[pC2]) * D_val[pD2];
                                                  added_9 = 1;
                                                  pD2_position_10++;
                                                }
                                              }
                                            }

                                          }
                                        }

                                        if (added_9)
                                          R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_8;
                                      }
                                      pD1_position_6++;
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
                        for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
                        {
                          const int64_t A_idx0_pA0 = A_idx0[pA0];
                          const int64_t A_ptr0_pA0 = A_ptr0[pA0];
                          const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
                          if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
                          {
                            const int64_t i = A_idx0_pA0;
                            {
                              double * restrict T_AB_vals = T_AB_vals_all + (spf_thread() * T_AB_vals_stride);
                              for (int64_t spf_zero_3 = 0; spf_zero_3 < T_AB_size; spf_zero_3++)
                                T_AB_vals[spf_zero_3] = 0.0;

                              {
                                if (((((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n0)) && (1 <= B_n2)) && (1 <= B_nnz0)) && (1 <= A_nnz0))
                                {
                                  const int64_t B_ptr0_pB0_2 = B_ptr0[pB0];
                                  const int64_t B_ptr0_pB0_1_2 = B_ptr0[pB0 + 1];
                                  const int64_t A_ptr0_pA0_2 = A_ptr0[pA0];
                                  const int64_t A_ptr0_pA0_1_2 = A_ptr0[pA0 + 1];
                                  int64_t pB1_position_4 = B_ptr0_pB0_2;
                                  for (int64_t pA1 = A_ptr0_pA0_2; pA1 <= (A_ptr0_pA0_1_2 - 1); pA1++)
                                  {
                                    const int64_t A_idx1_pA1_2 = A_idx1[pA1];
                                    const int64_t A_ptr1_pA1_2 = A_ptr1[pA1];
                                    const int64_t A_ptr1_pA1_1_2 = A_ptr1[pA1 + 1];
                                    if ((A_ptr1_pA1_2 + 1) <= A_ptr1_pA1_1_2)
                                    {
                                      {
                                        const int64_t key_5 = A_idx1_pA1_2;
                                        while (((pB1_position_4 >= B_ptr0_pB0_2) && (pB1_position_4 <= (B_ptr0_pB0_1_2 - 1))) && (B_idx1[pB1_position_4] < key_5))
                                          pB1_position_4++;

                                        if (((pB1_position_4 >= B_ptr0_pB0_2) && (pB1_position_4 <= (B_ptr0_pB0_1_2 - 1))) && (B_idx1[pB1_position_4] == key_5))
                                        {
                                          const int64_t pB1 = pB1_position_4;
                                          const int64_t B_idx1_pB1_2 = A_idx1_pA1_2;
                                          const int64_t B_ptr1_pB1_2 = B_ptr1[pB1];
                                          const int64_t B_ptr1_pB1_1_2 = B_ptr1[pB1 + 1];
                                          if ((B_ptr1_pB1_2 + 1) <= B_ptr1_pB1_1_2)
                                          {
                                            for (int64_t pA2 = A_ptr1_pA1_2; pA2 <= (A_ptr1_pA1_1_2 - 1); pA2++)
                                            {
                                              const int64_t A_idx2_pA2_2 = A_idx2[pA2];
                                              const int64_t pT_AB0 = A_idx2_pA2_2;
                                              for (int64_t pB2 = B_ptr1_pB1_2; pB2 <= (B_ptr1_pB1_1_2 - 1); pB2++)
                                              {
                                                const int64_t B_idx2_pB2_2 = B_idx2[pB2];
                                                const int64_t pT_AB1 = B_idx2_pB2_2;
                                                T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1] += A_val[pA2] * B_val[pB2];
                                              }

                                            }

                                          }
                                          pB1_position_4++;
                                        }
                                      }
                                    }
                                  }

                                }
                              }
                              {
                                if (((((((1 <= C_n0) && (1 <= C_n1)) && (1 <= C_n2)) && (1 <= D_n0)) && (1 <= R_N0)) && (1 <= D_nnz0)) && (1 <= C_nnz0))
                                {
                                  const int64_t D_idx0_pD0_2 = D_idx0[pD0];
                                  const int64_t D_ptr0_pD0_2 = D_ptr0[pD0];
                                  const int64_t D_ptr0_pD0_1_2 = D_ptr0[pD0 + 1];
                                  const int64_t pR0 = i;
                                  const int64_t pR1 = D_idx0_pD0_2;
                                  int64_t pD1_position_6 = D_ptr0_pD0_2;
                                  for (int64_t pC0 = 0; pC0 <= (C_nnz0 - 1); pC0++)
                                  {
                                    const int64_t C_idx0_pC0 = C_idx0[pC0];
                                    const int64_t C_ptr0_pC0 = C_ptr0[pC0];
                                    const int64_t C_ptr0_pC0_1 = C_ptr0[pC0 + 1];
                                    if ((C_ptr0_pC0 + 1) <= C_ptr0_pC0_1)
                                    {
                                      {
                                        const int64_t key_7 = C_idx0_pC0;
                                        while (((pD1_position_6 >= D_ptr0_pD0_2) && (pD1_position_6 <= (D_ptr0_pD0_1_2 - 1))) && (D_idx1[pD1_position_6] < key_7))
                                          pD1_position_6++;

                                        if (((pD1_position_6 >= D_ptr0_pD0_2) && (pD1_position_6 <= (D_ptr0_pD0_1_2 - 1))) && (D_idx1[pD1_position_6] == key_7))
                                        {
                                          const int64_t pD1 = pD1_position_6;
                                          const int64_t D_idx1_pD1_2 = C_idx0_pC0;
                                          const int64_t D_ptr1_pD1_2 = D_ptr1[pD1];
                                          const int64_t D_ptr1_pD1_1_2 = D_ptr1[pD1 + 1];
                                          if ((D_ptr1_pD1_2 + 1) <= D_ptr1_pD1_1_2)
                                          {
                                            const int64_t pR2 = C_idx0_pC0;
                                            double sum_8 = 0.0;
                                            int added_9 = 0;
                                            for (int64_t pC1 = C_ptr0_pC0; pC1 <= (C_ptr0_pC0_1 - 1); pC1++)
                                            {
                                              const int64_t C_idx1_pC1 = C_idx1[pC1];
                                              const int64_t C_ptr1_pC1 = C_ptr1[pC1];
                                              const int64_t C_ptr1_pC1_1 = C_ptr1[pC1 + 1];
                                              if ((C_ptr1_pC1 + 1) <= C_ptr1_pC1_1)
                                              {
                                                const int64_t pT_AB0 = C_idx1_pC1;
                                                int64_t pD2_position_10 = D_ptr1_pD1_2;
                                                for (int64_t pC2 = C_ptr1_pC1; pC2 <= (C_ptr1_pC1_1 - 1); pC2++)
                                                {
                                                  const int64_t C_idx2_pC2 = C_idx2[pC2];
                                                  {
                                                    const int64_t key_11 = C_idx2_pC2;
                                                    while (((pD2_position_10 >= D_ptr1_pD1_2) && (pD2_position_10 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_10] < key_11))
                                                      pD2_position_10++;

                                                    if (!((pD2_position_10 >= D_ptr1_pD1_2) && (pD2_position_10 <= (D_ptr1_pD1_1_2 - 1))))
                                                      break;
                                                    if (((pD2_position_10 >= D_ptr1_pD1_2) && (pD2_position_10 <= (D_ptr1_pD1_1_2 - 1))) && (D_idx2[pD2_position_10] == key_11))
                                                    {
                                                      const int64_t pD2 = pD2_position_10;
                                                      const int64_t D_idx2_pD2_2 = C_idx2_pC2;
                                                      const int64_t pT_AB1 = C_idx2_pC2;
                                                      sum_8 += (T_AB_vals[(pT_AB0 * T_AB_N1) + pT_AB1] * C_val[pC2]) * D_val[pD2];
                                                      added_9 = 1;
                                                      pD2_position_10++;
                                                    }
                                                  }
                                                }

                                              }
                                            }

                                            if (added_9)
                                              R_vals[(((pR0 * R_N1) + pR1) * R_N2) + pR2] += sum_8;
                                          }
                                          pD1_position_6++;
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
  free(T_AB_vals_all);
  return 0;
}


void spf_fused_64b6bbba3e_release_state(void)
{
}
