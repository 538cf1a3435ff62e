#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_5D293547B9_H_STRUCTS
#define SPF_KERNEL_5D293547B9_H_STRUCTS

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

#ifndef SPF_STRUCT_COO3_2EA36B8E
#define SPF_STRUCT_COO3_2EA36B8E
/*
 * COO3: sorted coordinate list, order 3
 */
struct spf_COO3
{
  int n0;
  int n1;
  int n2;
  int nnz;
  int *idx0;
  int *idx1;
  int *idx2;
  double *val;
};
#endif /* SPF_STRUCT_COO3_2EA36B8E */


#endif /* SPF_KERNEL_5D293547B9_H_STRUCTS */


static spf_state *spf_kernel_5d293547b9_v0_kept_state = 0;

static int spf_kernel_5d293547b9_v0_run(struct spf_CSF3 *B, struct spf_COO3 *C, double *a, spf_state *spf_kept)
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
  const int64_t C_n0 = C->n0;
  const int64_t C_n1 = C->n1;
  const int64_t C_n2 = C->n2;
  const int64_t C_nnz = C->nnz;
  int * restrict C_idx0 = C->idx0;
  int * restrict C_idx1 = C->idx1;
  int * restrict C_idx2 = C->idx2;
  double * restrict C_val = C->val;
  const int64_t N_k = B_n2;
  const int64_t N_j = B_n1;
  const int64_t N_i = B_n0;
  if (!(((B_n2 == C_n2) && (B_n1 == C_n1)) && (B_n0 == C_n0)))
    return 1;
  double a_sum = 0.0;
  if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_nnz)) && (1 <= B_nnz0))
  {
    int64_t * const pB0_table_1 = spf_hash_fill(&spf_kept[0], ((B_nnz0 - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (B_nnz0 - 1); fill_2++)
      spf_hash_put(pB0_table_1, B_idx0[fill_2], fill_2);

    for (int64_t pC = 0; pC <= (C_nnz - 1); pC++)
    {
      const int64_t C_idx0_pC = C_idx0[pC];
      const int64_t C_idx1_pC = C_idx1[pC];
      const int64_t C_idx2_pC = C_idx2[pC];
      {
        const int64_t q_3 = spf_hash_get(pB0_table_1, C_idx0_pC);
        if (q_3 >= 0)
        {
          const int64_t pB0 = q_3;
          const int64_t B_idx0_pB0 = C_idx0_pC;
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            {
              const int64_t key_6 = C_idx1_pC;
              int64_t lo_4 = B_ptr0_pB0;
              const int64_t end_8 = (B_ptr0_pB0_1 - 1) + 1;
              int64_t hi_5 = end_8;
              while (lo_4 < hi_5)
              {
                const int64_t mid_7 = lo_4 + ((hi_5 - lo_4) / 2);
                if (B_idx1[mid_7] < key_6)
                  lo_4 = mid_7 + 1;
                else
                  hi_5 = mid_7;
              }

              if ((lo_4 < end_8) && (B_idx1[lo_4] == key_6))
              {
                const int64_t pB1 = lo_4;
                const int64_t B_idx1_pB1 = C_idx1_pC;
                const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                {
                  {
                    const int64_t key_11 = C_idx2_pC;
                    int64_t lo_9 = B_ptr1_pB1;
                    const int64_t end_13 = (B_ptr1_pB1_1 - 1) + 1;
                    int64_t hi_10 = end_13;
                    while (lo_9 < hi_10)
                    {
                      const int64_t mid_12 = lo_9 + ((hi_10 - lo_9) / 2);
                      if (B_idx2[mid_12] < key_11)
                        lo_9 = mid_12 + 1;
                      else
                        hi_10 = mid_12;
                    }

                    if ((lo_9 < end_13) && (B_idx2[lo_9] == key_11))
                    {
                      const int64_t pB2 = lo_9;
                      const int64_t B_idx2_pB2 = C_idx2_pC;
                      a_sum += B_val[pB2] * C_val[pC];
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
  *a = a_sum;
  return 0;
}


int spf_kernel_5d293547b9_v0(struct spf_CSF3 *B, struct spf_COO3 *C, double *a)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_5d293547b9_v0_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_5d293547b9_v0_run(B, C, a, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_5d293547b9_v0_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_5d293547b9_v1_kept_state = 0;

static int spf_kernel_5d293547b9_v1_run(struct spf_CSF3 *B, struct spf_COO3 *C, double *a, spf_state *spf_kept)
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
  const int64_t C_n0 = C->n0;
  const int64_t C_n1 = C->n1;
  const int64_t C_n2 = C->n2;
  const int64_t C_nnz = C->nnz;
  int * restrict C_idx0 = C->idx0;
  int * restrict C_idx1 = C->idx1;
  int * restrict C_idx2 = C->idx2;
  double * restrict C_val = C->val;
  const int64_t N_k = B_n2;
  const int64_t N_j = B_n1;
  const int64_t N_i = B_n0;
  if (!(((B_n2 == C_n2) && (B_n1 == C_n1)) && (B_n0 == C_n0)))
    return 1;
  double a_sum = 0.0;
  if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_nnz)) && (1 <= B_nnz0))
  {
    int64_t * const pB0_table_2 = spf_bitmap_fill(&spf_kept[0], B_n0);
    for (int64_t fill_3 = 0; fill_3 <= (B_nnz0 - 1); fill_3++)
      spf_bitmap_put(pB0_table_2, B_idx0[fill_3], fill_3);

    const spf_bitmap pB0_bitmap_1 = spf_bitmap_view(pB0_table_2);
    for (int64_t pC = 0; pC <= (C_nnz - 1); pC++)
    {
      const int64_t C_idx0_pC = C_idx0[pC];
      const int64_t C_idx1_pC = C_idx1[pC];
      const int64_t C_idx2_pC = C_idx2[pC];
      {
        const int64_t q_4 = spf_bitmap_get(pB0_bitmap_1, C_idx0_pC);
        if (q_4 >= 0)
        {
          const int64_t pB0 = q_4;
          const int64_t B_idx0_pB0 = C_idx0_pC;
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            {
              const int64_t key_7 = C_idx1_pC;
              int64_t lo_5 = B_ptr0_pB0;
              const int64_t end_9 = (B_ptr0_pB0_1 - 1) + 1;
              int64_t hi_6 = end_9;
              while (lo_5 < hi_6)
              {
                const int64_t mid_8 = lo_5 + ((hi_6 - lo_5) / 2);
                if (B_idx1[mid_8] < key_7)
                  lo_5 = mid_8 + 1;
                else
                  hi_6 = mid_8;
              }

              if ((lo_5 < end_9) && (B_idx1[lo_5] == key_7))
              {
                const int64_t pB1 = lo_5;
                const int64_t B_idx1_pB1 = C_idx1_pC;
                const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                {
                  {
                    const int64_t key_12 = C_idx2_pC;
                    int64_t lo_10 = B_ptr1_pB1;
                    const int64_t end_14 = (B_ptr1_pB1_1 - 1) + 1;
                    int64_t hi_11 = end_14;
                    while (lo_10 < hi_11)
                    {
                      const int64_t mid_13 = lo_10 + ((hi_11 - lo_10) / 2);
                      if (B_idx2[mid_13] < key_12)
                        lo_10 = mid_13 + 1;
                      else
                        hi_11 = mid_13;
                    }

                    if ((lo_10 < end_14) && (B_idx2[lo_10] == key_12))
                    {
                      const int64_t pB2 = lo_10;
                      const int64_t B_idx2_pB2 = C_idx2_pC;
                      a_sum += B_val[pB2] * C_val[pC];
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
  *a = a_sum;
  return 0;
}


int spf_kernel_5d293547b9_v1(struct spf_CSF3 *B, struct spf_COO3 *C, double *a)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_5d293547b9_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_5d293547b9_v1_run(B, C, a, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_5d293547b9_v1_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_5d293547b9_v2(struct spf_CSF3 *B, struct spf_COO3 *C, double *a)
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
  const int64_t C_n0 = C->n0;
  const int64_t C_n1 = C->n1;
  const int64_t C_n2 = C->n2;
  const int64_t C_nnz = C->nnz;
  int * restrict C_idx0 = C->idx0;
  int * restrict C_idx1 = C->idx1;
  int * restrict C_idx2 = C->idx2;
  double * restrict C_val = C->val;
  const int64_t N_k = B_n2;
  const int64_t N_j = B_n1;
  const int64_t N_i = B_n0;
  if (!(((B_n2 == C_n2) && (B_n1 == C_n1)) && (B_n0 == C_n0)))
    return 1;
  double a_sum = 0.0;
  if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_nnz)) && (1 <= B_nnz0))
  {
    for (int64_t pC = 0; pC <= (C_nnz - 1); pC++)
    {
      const int64_t C_idx0_pC = C_idx0[pC];
      const int64_t C_idx1_pC = C_idx1[pC];
      const int64_t C_idx2_pC = C_idx2[pC];
      {
        const int64_t key_3 = C_idx0_pC;
        int64_t lo_1 = 0;
        const int64_t end_5 = (B_nnz0 - 1) + 1;
        int64_t hi_2 = end_5;
        while (lo_1 < hi_2)
        {
          const int64_t mid_4 = lo_1 + ((hi_2 - lo_1) / 2);
          if (B_idx0[mid_4] < key_3)
            lo_1 = mid_4 + 1;
          else
            hi_2 = mid_4;
        }

        if ((lo_1 < end_5) && (B_idx0[lo_1] == key_3))
        {
          const int64_t pB0 = lo_1;
          const int64_t B_idx0_pB0 = C_idx0_pC;
          const int64_t B_ptr0_pB0 = B_ptr0[pB0];
          const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
          if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
          {
            {
              const int64_t key_8 = C_idx1_pC;
              int64_t lo_6 = B_ptr0_pB0;
              const int64_t end_10 = (B_ptr0_pB0_1 - 1) + 1;
              int64_t hi_7 = end_10;
              while (lo_6 < hi_7)
              {
                const int64_t mid_9 = lo_6 + ((hi_7 - lo_6) / 2);
                if (B_idx1[mid_9] < key_8)
                  lo_6 = mid_9 + 1;
                else
                  hi_7 = mid_9;
              }

              if ((lo_6 < end_10) && (B_idx1[lo_6] == key_8))
              {
                const int64_t pB1 = lo_6;
                const int64_t B_idx1_pB1 = C_idx1_pC;
                const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                {
                  {
                    const int64_t key_13 = C_idx2_pC;
                    int64_t lo_11 = B_ptr1_pB1;
                    const int64_t end_15 = (B_ptr1_pB1_1 - 1) + 1;
                    int64_t hi_12 = end_15;
                    while (lo_11 < hi_12)
                    {
                      const int64_t mid_14 = lo_11 + ((hi_12 - lo_11) / 2);
                      if (B_idx2[mid_14] < key_13)
                        lo_11 = mid_14 + 1;
                      else
                        hi_12 = mid_14;
                    }

                    if ((lo_11 < end_15) && (B_idx2[lo_11] == key_13))
                    {
                      const int64_t pB2 = lo_11;
                      const int64_t B_idx2_pB2 = C_idx2_pC;
                      a_sum += B_val[pB2] * C_val[pC];
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
  *a = a_sum;
  return 0;
}


void spf_kernel_5d293547b9_release_state(void)
{
  spf_state_release(&spf_kernel_5d293547b9_v0_kept_state, 1);
  spf_state_release(&spf_kernel_5d293547b9_v1_kept_state, 1);
}
