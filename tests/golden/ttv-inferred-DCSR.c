#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_46E644F952_H_STRUCTS
#define SPF_KERNEL_46E644F952_H_STRUCTS

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

#ifndef SPF_STRUCT_DCSR_B3ABB36A
#define SPF_STRUCT_DCSR_B3ABB36A
/*
 * DCSR: doubly compressed sparse row matrix (empty rows not stored)
 */
struct spf_DCSR
{
  int numRows;
  int numCols;
  int nnzRows;
  int nnz;
  int *rowIdx;
  int *rowPtr;
  int *colIdx;
  double *data;
};
#endif /* SPF_STRUCT_DCSR_B3ABB36A */


#endif /* SPF_KERNEL_46E644F952_H_STRUCTS */


int spf_kernel_46e644f952(struct spf_CSF3 *B, struct spf_Dense1 *c, struct spf_DCSR *A)
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
  const int64_t c_N0 = c->N0;
  double * restrict c_vals = c->vals;
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  double * restrict A_data = A->data;
  const int64_t N_k = B_n2;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(((B_n2 == c_N0) && (A_numCols == B_n1)) && (A_numRows == B_n0)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = B_nnz1;
    int64_t spf_reached_to = B_nnz1;
    if ((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_n2)) && (1 <= B_nnz0))
    {
      spf_reached_from = spf_min(spf_max(B_ptr0[0], 0), B_nnz1);
      spf_reached_to = spf_max(spf_reached_from, spf_min((B_ptr0[(B_nnz0 - 1) + 1] - 1) + 1, B_nnz1));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      A_data[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (B_nnz1 * spf_row_size); spf_zero++)
      A_data[spf_zero] = 0.0;

  }
  if ((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_n2)) && (1 <= B_nnz0))
  {
    for (int64_t pB0 = 0; pB0 < ((B_nnz0 - 1) + 1); pB0++)
    {
      const int64_t B_ptr0_pB0 = B_ptr0[pB0];
      const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
      if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
      {
        for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
        {
          const int64_t B_ptr1_pB1 = B_ptr1[pB1];
          const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
          if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
          {
            double sum_1 = 0.0;
            for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
            {
              const int64_t B_idx2_pB2 = B_idx2[pB2];
              const int64_t pc0 = B_idx2_pB2;
              const int64_t pAj = pB1;
              sum_1 += B_val[pB2] * c_vals[pc0];
            }

            {
              const int64_t pAj = pB1;
              A_data[pAj] = sum_1;
            }
          }
          else
          {
            A_data[pB1] = 0.0;
          }
        }

      }
    }

  }
  return 0;
}


void spf_kernel_46e644f952_release_state(void)
{
}
