#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_5EE62E5BBC_H_STRUCTS
#define SPF_KERNEL_5EE62E5BBC_H_STRUCTS

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

#ifndef SPF_STRUCT_COO_312222DE
#define SPF_STRUCT_COO_312222DE
/*
 * COO: sorted coordinate list
 */
struct spf_COO
{
  int numRows;
  int numCols;
  int nnz;
  int *row;
  int *col;
  double *val;
};
#endif /* SPF_STRUCT_COO_312222DE */

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


#endif /* SPF_KERNEL_5EE62E5BBC_H_STRUCTS */


int spf_kernel_5ee62e5bbc(struct spf_COO *B, struct spf_Dense2 *C, struct spf_Dense2 *D, struct spf_COO *A)
{
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_row = B->row;
  int * restrict B_col = B->col;
  double * restrict B_val = B->val;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t D_N0 = D->N0;
  const int64_t D_N1 = D->N1;
  double * restrict D_vals = D->vals;
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  double * restrict A_val = A->val;
  const int64_t N_k = C_N1;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(((((A_numCols == D_N1) && (C_N1 == D_N0)) && (A_numRows == C_N0)) && (A_numRows == B_numRows)) && (A_numCols == B_numCols)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = B_nnz;
    int64_t spf_reached_to = B_nnz;
    if ((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_nnz)) && (1 <= C_N1))
    {
      spf_reached_from = spf_min(spf_max(0, 0), B_nnz);
      spf_reached_to = spf_max(spf_reached_from, spf_min((B_nnz - 1) + 1, B_nnz));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      A_val[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (B_nnz * spf_row_size); spf_zero++)
      A_val[spf_zero] = 0.0;

  }
  if ((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_nnz)) && (1 <= C_N1))
  {
    for (int64_t pB = 0; pB < ((B_nnz - 1) + 1); pB++)
    {
      const int64_t B_row_pB = B_row[pB];
      const int64_t B_col_pB = B_col[pB];
      const int64_t pC0 = B_row_pB;
      const int64_t pD1 = B_col_pB;
      double sum_1 = 0.0;
      for (int64_t pC1 = 0; pC1 <= (C_N1 - 1); pC1++)
      {
        const int64_t k = pC1;
        const int64_t pD0 = k;
        const int64_t pA = pB;
        sum_1 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
      }

      {
        const int64_t pA = pB;
        A_val[pA] = B_val[pB] * sum_1;
      }
    }

  }
  return 0;
}


void spf_kernel_5ee62e5bbc_release_state(void)
{
}
