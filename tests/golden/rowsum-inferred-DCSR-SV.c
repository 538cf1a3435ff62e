#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_B3F572D4CE_H_STRUCTS
#define SPF_KERNEL_B3F572D4CE_H_STRUCTS

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


#endif /* SPF_KERNEL_B3F572D4CE_H_STRUCTS */


int spf_kernel_b3f572d4ce(struct spf_DCSR *A, struct spf_SV *y)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t y_n = y->n;
  double * restrict y_val = y->val;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(A_numRows == y_n))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = A_nnzRows;
    int64_t spf_reached_to = A_nnzRows;
    if (((1 <= A_nnzRows) && (1 <= A_numCols)) && (1 <= A_numRows))
    {
      spf_reached_from = spf_min(spf_max(0, 0), A_nnzRows);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_nnzRows - 1) + 1, A_nnzRows));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      y_val[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (A_nnzRows * spf_row_size); spf_zero++)
      y_val[spf_zero] = 0.0;

  }
  if (((1 <= A_nnzRows) && (1 <= A_numCols)) && (1 <= A_numRows))
  {
    for (int64_t pAi = 0; pAi < ((A_nnzRows - 1) + 1); pAi++)
    {
      const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
      {
        double sum_1 = 0.0;
        {
          int64_t spf_split_2 = A_rowPtr_pAi;
          if (((A_rowPtr_pAi_1 - 1) - spf_split_2) >= 47)
          {
            double sum_3 = 0.0;
            double sum_4 = 0.0;
            double sum_5 = 0.0;
            for (; (spf_split_2 + 3) <= (A_rowPtr_pAi_1 - 1); spf_split_2 += 4)
            {
              {
                const int64_t pAj = spf_split_2 + 0;
                const int64_t py = pAi;
                sum_1 += A_data[pAj];
              }
              {
                const int64_t pAj = spf_split_2 + 1;
                const int64_t py = pAi;
                sum_3 += A_data[pAj];
              }
              {
                const int64_t pAj = spf_split_2 + 2;
                const int64_t py = pAi;
                sum_4 += A_data[pAj];
              }
              {
                const int64_t pAj = spf_split_2 + 3;
                const int64_t py = pAi;
                sum_5 += A_data[pAj];
              }
            }

            sum_1 = (sum_1 + sum_3) + (sum_4 + sum_5);
          }
          for (int64_t pAj = spf_split_2; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
          {
            const int64_t py = pAi;
            sum_1 += A_data[pAj];
          }

        }
        {
          const int64_t py = pAi;
          y_val[py] = sum_1;
        }
      }
      else
      {
        y_val[pAi] = 0.0;
      }
    }

  }
  return 0;
}


void spf_kernel_b3f572d4ce_release_state(void)
{
}
