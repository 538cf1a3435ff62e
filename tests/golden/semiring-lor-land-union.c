#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_91F11D1CDC_H_STRUCTS
#define SPF_KERNEL_91F11D1CDC_H_STRUCTS

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

#ifndef SPF_STRUCT_CSR_D3F970C7
#define SPF_STRUCT_CSR_D3F970C7
/*
 * CSR: compressed sparse row matrix
 */
struct spf_CSR
{
  int numRows;
  int numCols;
  int nnz;
  int *rowPtr;
  int *colIdx;
  double *data;
};
#endif /* SPF_STRUCT_CSR_D3F970C7 */

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


#endif /* SPF_KERNEL_91F11D1CDC_H_STRUCTS */


int spf_kernel_91f11d1cdc(struct spf_CSR *A, struct spf_COO *B, struct spf_Dense2 *C)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_row = B->row;
  int * restrict B_col = B->col;
  double * restrict B_val = B->val;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((((A_numCols == C_N1) && (A_numRows == C_N0)) && (B_numCols == C_N1)) && (B_numRows == C_N0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < (C_N0 * C_N1); spf_zero++)
    C_vals[spf_zero] = 0.0;

  if ((1 <= A_numCols) && (1 <= A_numRows))
  {
    for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
      {
        const int64_t i = pAi;
        const int64_t pC0 = i;
        for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj = A_colIdx[pAj];
          const int64_t pC1 = A_colIdx_pAj;
          C_vals[(pC0 * C_N1) + pC1] = spf_lor_float64(C_vals[(pC0 * C_N1) + pC1], A_data[pAj]);
        }

      }
    }

  }
  if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= B_nnz))
  {
    for (int64_t pB = 0; pB <= (B_nnz - 1); pB++)
    {
      const int64_t B_row_pB = B_row[pB];
      const int64_t B_col_pB = B_col[pB];
      const int64_t pC0 = B_row_pB;
      const int64_t pC1 = B_col_pB;
      C_vals[(pC0 * C_N1) + pC1] = spf_lor_float64(C_vals[(pC0 * C_N1) + pC1], B_val[pB]);
    }

  }
  return 0;
}


void spf_kernel_91f11d1cdc_release_state(void)
{
}
