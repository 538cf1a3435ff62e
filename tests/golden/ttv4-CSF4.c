#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_A54CC0248A_H_STRUCTS
#define SPF_KERNEL_A54CC0248A_H_STRUCTS

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

#ifndef SPF_STRUCT_CSF4_26D1F9A5
#define SPF_STRUCT_CSF4_26D1F9A5
/*
 * CSF4: compressed sparse fiber, order 4
 */
struct spf_CSF4
{
  int n0;
  int n1;
  int n2;
  int n3;
  int nnz0;
  int nnz1;
  int nnz2;
  int nnz3;
  int *idx0;
  int *ptr0;
  int *idx1;
  int *ptr1;
  int *idx2;
  int *ptr2;
  int *idx3;
  double *val;
};
#endif /* SPF_STRUCT_CSF4_26D1F9A5 */

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


#endif /* SPF_KERNEL_A54CC0248A_H_STRUCTS */


int spf_kernel_a54cc0248a(struct spf_CSF4 *B, struct spf_Dense1 *c, struct spf_Dense3 *A)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_n3 = B->n3;
  const int64_t B_nnz0 = B->nnz0;
  const int64_t B_nnz1 = B->nnz1;
  const int64_t B_nnz2 = B->nnz2;
  const int64_t B_nnz3 = B->nnz3;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_ptr0 = B->ptr0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_ptr1 = B->ptr1;
  int * restrict B_idx2 = B->idx2;
  int * restrict B_ptr2 = B->ptr2;
  int * restrict B_idx3 = B->idx3;
  double * restrict B_val = B->val;
  const int64_t c_N0 = c->N0;
  double * restrict c_vals = c->vals;
  const int64_t A_N0 = A->N0;
  const int64_t A_N1 = A->N1;
  const int64_t A_N2 = A->N2;
  double * restrict A_vals = A->vals;
  const int64_t N_l = B_n3;
  const int64_t N_k = A_N2;
  const int64_t N_j = A_N1;
  const int64_t N_i = A_N0;
  if (!((((B_n3 == c_N0) && (A_N2 == B_n2)) && (A_N1 == B_n1)) && (A_N0 == B_n0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < ((A_N0 * A_N1) * A_N2); spf_zero++)
    A_vals[spf_zero] = 0.0;

  if (((((1 <= A_N0) && (1 <= A_N1)) && (1 <= A_N2)) && (1 <= B_n3)) && (1 <= B_nnz0))
  {
    for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
    {
      const int64_t B_idx0_pB0 = B_idx0[pB0];
      const int64_t B_ptr0_pB0 = B_ptr0[pB0];
      const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
      if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
      {
        const int64_t pA0 = B_idx0_pB0;
        for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
        {
          const int64_t B_idx1_pB1 = B_idx1[pB1];
          const int64_t B_ptr1_pB1 = B_ptr1[pB1];
          const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
          if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
          {
            const int64_t pA1 = B_idx1_pB1;
            for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
            {
              const int64_t B_idx2_pB2 = B_idx2[pB2];
              const int64_t B_ptr2_pB2 = B_ptr2[pB2];
              const int64_t B_ptr2_pB2_1 = B_ptr2[pB2 + 1];
              if ((B_ptr2_pB2 + 1) <= B_ptr2_pB2_1)
              {
                const int64_t pA2 = B_idx2_pB2;
                double sum_1 = 0.0;
                for (int64_t pB3 = B_ptr2_pB2; pB3 <= (B_ptr2_pB2_1 - 1); pB3++)
                {
                  const int64_t B_idx3_pB3 = B_idx3[pB3];
                  const int64_t pc0 = B_idx3_pB3;
                  sum_1 += B_val[pB3] * c_vals[pc0];
                }

                A_vals[(((pA0 * A_N1) + pA1) * A_N2) + pA2] += sum_1;
              }
            }

          }
        }

      }
    }

  }
  return 0;
}


void spf_kernel_a54cc0248a_release_state(void)
{
}
