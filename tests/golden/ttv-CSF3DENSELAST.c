#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_FE4FB91BEE_H_STRUCTS
#define SPF_KERNEL_FE4FB91BEE_H_STRUCTS

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

#ifndef SPF_STRUCT_Dense1_107BF9A6
#define SPF_STRUCT_Dense1_107BF9A6
/*
 * Dense1: dense order-1 tensor, row-major
 */
struct spf_Dense1
{
  int N0;
  double *vals;
};
#endif /* SPF_STRUCT_Dense1_107BF9A6 */

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


#endif /* SPF_KERNEL_FE4FB91BEE_H_STRUCTS */


int spf_kernel_fe4fb91bee(struct spf_CSF3_DENSE_LAST *B, struct spf_Dense1 *c, struct spf_Dense2 *A)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_nnz0 = B->nnz0;
  const int64_t B_nnz1 = B->nnz1;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_ptr0 = B->ptr0;
  int * restrict B_idx1 = B->idx1;
  double * restrict B_val = B->val;
  const int64_t c_N0 = c->N0;
  double * restrict c_vals = c->vals;
  const int64_t A_N0 = A->N0;
  const int64_t A_N1 = A->N1;
  double * restrict A_vals = A->vals;
  const int64_t N_k = B_n2;
  const int64_t N_j = A_N1;
  const int64_t N_i = A_N0;
  if (!(((B_n2 == c_N0) && (A_N1 == B_n1)) && (A_N0 == B_n0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < (A_N0 * A_N1); spf_zero++)
    A_vals[spf_zero] = 0.0;

  if ((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_n2)) && (1 <= B_nnz0))
  {
    for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
    {
      const int64_t B_idx0_pB0 = B_idx0[pB0];
      const int64_t B_ptr0_pB0 = B_ptr0[pB0];
      const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
      if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
      {
        const int64_t pA0 = B_idx0_pB0;
        {
          int64_t spf_jam_1 = B_ptr0_pB0;
          for (; (spf_jam_1 + 3) <= (B_ptr0_pB0_1 - 1); spf_jam_1 += 4)
          {
            int64_t pB1_lane0 = spf_jam_1 + 0;
            const int64_t B_idx1_pB1_lane0 = B_idx1[pB1_lane0];
            const int64_t pA1_lane0 = B_idx1_pB1_lane0;
            int64_t pB1_lane1 = spf_jam_1 + 1;
            const int64_t B_idx1_pB1_lane1 = B_idx1[pB1_lane1];
            const int64_t pA1_lane1 = B_idx1_pB1_lane1;
            int64_t pB1_lane2 = spf_jam_1 + 2;
            const int64_t B_idx1_pB1_lane2 = B_idx1[pB1_lane2];
            const int64_t pA1_lane2 = B_idx1_pB1_lane2;
            int64_t pB1_lane3 = spf_jam_1 + 3;
            const int64_t B_idx1_pB1_lane3 = B_idx1[pB1_lane3];
            const int64_t pA1_lane3 = B_idx1_pB1_lane3;
            double sum_2 = 0.0;
            double sum_3 = 0.0;
            double sum_4 = 0.0;
            double sum_5 = 0.0;
            for (int64_t pB2 = 0; pB2 <= (B_n2 - 1); pB2++)
            {
              {
                const int64_t k = pB2;
                const int64_t pc0 = k;
                sum_2 += B_val[(pB1_lane0 * B_n2) + pB2] * c_vals[pc0];
              }
              {
                const int64_t k = pB2;
                const int64_t pc0 = k;
                sum_3 += B_val[(pB1_lane1 * B_n2) + pB2] * c_vals[pc0];
              }
              {
                const int64_t k = pB2;
                const int64_t pc0 = k;
                sum_4 += B_val[(pB1_lane2 * B_n2) + pB2] * c_vals[pc0];
              }
              {
                const int64_t k = pB2;
                const int64_t pc0 = k;
                sum_5 += B_val[(pB1_lane3 * B_n2) + pB2] * c_vals[pc0];
              }
            }

            {
              A_vals[(pA0 * A_N1) + pA1_lane0] += sum_2;
            }
            {
              A_vals[(pA0 * A_N1) + pA1_lane1] += sum_3;
            }
            {
              A_vals[(pA0 * A_N1) + pA1_lane2] += sum_4;
            }
            {
              A_vals[(pA0 * A_N1) + pA1_lane3] += sum_5;
            }
          }

          for (int64_t pB1 = spf_jam_1; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
          {
            const int64_t B_idx1_pB1 = B_idx1[pB1];
            const int64_t pA1 = B_idx1_pB1;
            double sum_6 = 0.0;
            for (int64_t pB2 = 0; pB2 <= (B_n2 - 1); pB2++)
            {
              const int64_t k = pB2;
              const int64_t pc0 = k;
              sum_6 += B_val[(pB1 * B_n2) + pB2] * c_vals[pc0];
            }

            A_vals[(pA0 * A_N1) + pA1] += sum_6;
          }

        }
      }
    }

  }
  return 0;
}


void spf_kernel_fe4fb91bee_release_state(void)
{
}
