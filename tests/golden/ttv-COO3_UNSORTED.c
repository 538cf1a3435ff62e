#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_0B95936E89_H_STRUCTS
#define SPF_KERNEL_0B95936E89_H_STRUCTS

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

#ifndef SPF_STRUCT_COO3_UNSORTED_A6DA61AE
#define SPF_STRUCT_COO3_UNSORTED_A6DA61AE
/*
 * COO3_UNSORTED: unsorted coordinate list without duplicates, order 3
 */
struct spf_COO3_UNSORTED
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
#endif /* SPF_STRUCT_COO3_UNSORTED_A6DA61AE */

#ifndef SPF_STRUCT_SV_2B89F281
#define SPF_STRUCT_SV_2B89F281
/*
 * SV: sparse vector with sorted indices
 */
struct spf_SV
{
  int n;
  int len;
  int *idx;
  double *val;
};
#endif /* SPF_STRUCT_SV_2B89F281 */

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


#endif /* SPF_KERNEL_0B95936E89_H_STRUCTS */


static spf_state *spf_kernel_0b95936e89_v0_kept_state = 0;

static int spf_kernel_0b95936e89_v0_run(struct spf_COO3_UNSORTED *B, struct spf_SV *c, struct spf_Dense2 *A, spf_state *spf_kept)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_nnz = B->nnz;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_idx2 = B->idx2;
  double * restrict B_val = B->val;
  const int64_t c_n = c->n;
  const int64_t c_len = c->len;
  int * restrict c_idx = c->idx;
  double * restrict c_val = c->val;
  const int64_t A_N0 = A->N0;
  const int64_t A_N1 = A->N1;
  double * restrict A_vals = A->vals;
  const int64_t N_k = B_n2;
  const int64_t N_j = A_N1;
  const int64_t N_i = A_N0;
  if (!(((B_n2 == c_n) && (A_N1 == B_n1)) && (A_N0 == B_n0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < (A_N0 * A_N1); spf_zero++)
    A_vals[spf_zero] = 0.0;

  if (((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_n2)) && (1 <= c_len)) && (1 <= B_nnz))
  {
    int64_t * const pc_table_1 = spf_hash_fill(&spf_kept[0], ((c_len - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (c_len - 1); fill_2++)
      spf_hash_put(pc_table_1, c_idx[fill_2], fill_2);

    for (int64_t pB = 0; pB <= (B_nnz - 1); pB++)
    {
      const int64_t B_idx0_pB = B_idx0[pB];
      const int64_t B_idx1_pB = B_idx1[pB];
      const int64_t B_idx2_pB = B_idx2[pB];
      const int64_t pA0 = B_idx0_pB;
      const int64_t pA1 = B_idx1_pB;
      {
        const int64_t q_3 = spf_hash_get(pc_table_1, B_idx2_pB);
        if (q_3 >= 0)
        {
          const int64_t pc = q_3;
          const int64_t c_idx_pc = B_idx2_pB;
          A_vals[(pA0 * A_N1) + pA1] += B_val[pB] * c_val[pc];
        }
      }
    }

  }
  return 0;
}


int spf_kernel_0b95936e89_v0(struct spf_COO3_UNSORTED *B, struct spf_SV *c, struct spf_Dense2 *A)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_0b95936e89_v0_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_0b95936e89_v0_run(B, c, A, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_0b95936e89_v0_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_0b95936e89_v1_kept_state = 0;

static int spf_kernel_0b95936e89_v1_run(struct spf_COO3_UNSORTED *B, struct spf_SV *c, struct spf_Dense2 *A, spf_state *spf_kept)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_nnz = B->nnz;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_idx2 = B->idx2;
  double * restrict B_val = B->val;
  const int64_t c_n = c->n;
  const int64_t c_len = c->len;
  int * restrict c_idx = c->idx;
  double * restrict c_val = c->val;
  const int64_t A_N0 = A->N0;
  const int64_t A_N1 = A->N1;
  double * restrict A_vals = A->vals;
  const int64_t N_k = B_n2;
  const int64_t N_j = A_N1;
  const int64_t N_i = A_N0;
  if (!(((B_n2 == c_n) && (A_N1 == B_n1)) && (A_N0 == B_n0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < (A_N0 * A_N1); spf_zero++)
    A_vals[spf_zero] = 0.0;

  if (((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_n2)) && (1 <= c_len)) && (1 <= B_nnz))
  {
    int64_t * const pc_table_2 = spf_bitmap_fill(&spf_kept[0], c_n);
    for (int64_t fill_3 = 0; fill_3 <= (c_len - 1); fill_3++)
      spf_bitmap_put(pc_table_2, c_idx[fill_3], fill_3);

    const spf_bitmap pc_bitmap_1 = spf_bitmap_view(pc_table_2);
    for (int64_t pB = 0; pB <= (B_nnz - 1); pB++)
    {
      const int64_t B_idx0_pB = B_idx0[pB];
      const int64_t B_idx1_pB = B_idx1[pB];
      const int64_t B_idx2_pB = B_idx2[pB];
      const int64_t pA0 = B_idx0_pB;
      const int64_t pA1 = B_idx1_pB;
      {
        const int64_t q_4 = spf_bitmap_get(pc_bitmap_1, B_idx2_pB);
        if (q_4 >= 0)
        {
          const int64_t pc = q_4;
          const int64_t c_idx_pc = B_idx2_pB;
          A_vals[(pA0 * A_N1) + pA1] += B_val[pB] * c_val[pc];
        }
      }
    }

  }
  return 0;
}


int spf_kernel_0b95936e89_v1(struct spf_COO3_UNSORTED *B, struct spf_SV *c, struct spf_Dense2 *A)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_0b95936e89_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_0b95936e89_v1_run(B, c, A, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_0b95936e89_v1_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_0b95936e89_v2(struct spf_COO3_UNSORTED *B, struct spf_SV *c, struct spf_Dense2 *A)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_nnz = B->nnz;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_idx2 = B->idx2;
  double * restrict B_val = B->val;
  const int64_t c_n = c->n;
  const int64_t c_len = c->len;
  int * restrict c_idx = c->idx;
  double * restrict c_val = c->val;
  const int64_t A_N0 = A->N0;
  const int64_t A_N1 = A->N1;
  double * restrict A_vals = A->vals;
  const int64_t N_k = B_n2;
  const int64_t N_j = A_N1;
  const int64_t N_i = A_N0;
  if (!(((B_n2 == c_n) && (A_N1 == B_n1)) && (A_N0 == B_n0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < (A_N0 * A_N1); spf_zero++)
    A_vals[spf_zero] = 0.0;

  if (((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_n2)) && (1 <= c_len)) && (1 <= B_nnz))
  {
    for (int64_t pB = 0; pB <= (B_nnz - 1); pB++)
    {
      const int64_t B_idx0_pB = B_idx0[pB];
      const int64_t B_idx1_pB = B_idx1[pB];
      const int64_t B_idx2_pB = B_idx2[pB];
      const int64_t pA0 = B_idx0_pB;
      const int64_t pA1 = B_idx1_pB;
      {
        const int64_t key_3 = B_idx2_pB;
        int64_t lo_1 = 0;
        const int64_t end_5 = (c_len - 1) + 1;
        int64_t hi_2 = end_5;
        while (lo_1 < hi_2)
        {
          const int64_t mid_4 = lo_1 + ((hi_2 - lo_1) / 2);
          if (c_idx[mid_4] < key_3)
            lo_1 = mid_4 + 1;
          else
            hi_2 = mid_4;
        }

        if ((lo_1 < end_5) && (c_idx[lo_1] == key_3))
        {
          const int64_t pc = lo_1;
          const int64_t c_idx_pc = B_idx2_pB;
          A_vals[(pA0 * A_N1) + pA1] += B_val[pB] * c_val[pc];
        }
      }
    }

  }
  return 0;
}


void spf_kernel_0b95936e89_release_state(void)
{
  spf_state_release(&spf_kernel_0b95936e89_v0_kept_state, 1);
  spf_state_release(&spf_kernel_0b95936e89_v1_kept_state, 1);
}
