#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_B1072877D4_H_STRUCTS
#define SPF_KERNEL_B1072877D4_H_STRUCTS

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

#ifndef SPF_STRUCT_BCSR_R2_C2_1C44BDAA
#define SPF_STRUCT_BCSR_R2_C2_1C44BDAA
/*
 * BCSR(R=2, C=2): block compressed sparse row with dense R x C blocks
 *   val: double[nnzBlocks][2][2], flattened row-major
 */
struct spf_BCSR_R2_C2
{
  int numRows;
  int numCols;
  int numBlockRows;
  int numBlockCols;
  int nnzBlocks;
  int *rowPtr;
  int *col;
  double *val;
};
#endif /* SPF_STRUCT_BCSR_R2_C2_1C44BDAA */

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


#endif /* SPF_KERNEL_B1072877D4_H_STRUCTS */


int spf_kernel_b1072877d4(struct spf_BCSR_R2_C2 *A, struct spf_Dense2 *D, struct spf_BCSR_R2_C2 *B)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_numBlockRows = A->numBlockRows;
  const int64_t A_numBlockCols = A->numBlockCols;
  const int64_t A_nnzBlocks = A->nnzBlocks;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_col = A->col;
  double * restrict A_val = A->val;
  const int64_t D_N0 = D->N0;
  const int64_t D_N1 = D->N1;
  double * restrict D_vals = D->vals;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_numBlockRows = B->numBlockRows;
  const int64_t B_numBlockCols = B->numBlockCols;
  double * restrict B_val = B->val;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((((A_numCols == D_N1) && (A_numRows == D_N0)) && (A_numRows == B_numRows)) && (A_numCols == B_numCols)))
    return 1;
  {
    const int64_t spf_row_size = (1 * 2) * 2;
    int64_t spf_reached_from = A_nnzBlocks;
    int64_t spf_reached_to = A_nnzBlocks;
    if ((((1 <= A_numBlockRows) && (1 <= A_numCols)) && (1 <= A_numRows)) && (1 <= B_numBlockRows))
    {
      spf_reached_from = spf_min(spf_max(A_rowPtr[0], 0), A_nnzBlocks);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_rowPtr[spf_min(spf_min(spf_floord(A_numRows - 1, 2), B_numBlockRows - 1), A_numBlockRows - 1) + 1] - 1) + 1, A_nnzBlocks));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      B_val[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (A_nnzBlocks * spf_row_size); spf_zero++)
      B_val[spf_zero] = 0.0;

  }
  if ((((1 <= A_numBlockRows) && (1 <= A_numCols)) && (1 <= A_numRows)) && (1 <= B_numBlockRows))
  {
    {
      const int64_t spf_row_size = (1 * 2) * 2;
      const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
      const int64_t spf_stop = spf_min(spf_min(spf_floord(A_numRows - 1, 2), B_numBlockRows - 1), A_numBlockRows - 1) + 1;
      for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
      {
        const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
        const int64_t spf_zero_to = spf_min(A_rowPtr[spf_block_end], A_nnzBlocks) * spf_row_size;
        for (int64_t spf_zero = spf_max(A_rowPtr[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
          B_val[spf_zero] = 0.0;

        for (int64_t pAI = spf_block; pAI < spf_block_end; pAI++)
        {
          const int64_t A_rowPtr_pAI = A_rowPtr[pAI];
          const int64_t A_rowPtr_pAI_1 = A_rowPtr[pAI + 1];
          if ((A_rowPtr_pAI + 1) <= A_rowPtr_pAI_1)
          {
            for (int64_t pAJ = A_rowPtr_pAI; pAJ <= (A_rowPtr_pAI_1 - 1); pAJ++)
            {
              const int64_t A_col_pAJ = A_col[pAJ];
              if (((2 * A_col_pAJ) + 1) <= A_numCols)
              {
                for (int64_t pAii = 0; pAii <= spf_min((A_numRows - (2 * pAI)) - 1, 1); pAii++)
                {
                  const int64_t i = (2 * pAI) + pAii;
                  const int64_t pD0 = i;
                  #pragma GCC ivdep
                  for (int64_t pAjj = 0; pAjj <= spf_min((A_numCols - (2 * A_col_pAJ)) - 1, 1); pAjj++)
                  {
                    const int64_t j = (2 * A_col_pAJ) + pAjj;
                    const int64_t pD1 = j;
                    const int64_t pBJ = pAJ;
                    const int64_t pBii = i - (2 * pAI);
                    const int64_t pBjj = (-(2 * A_col_pAJ)) + j;
                    B_val[(((pBJ * 2) + pBii) * 2) + pBjj] += A_val[(((pAJ * 2) + pAii) * 2) + pAjj] * D_vals[(pD0 * D_N1) + pD1];
                  }

                }

              }
            }

          }
        }

      }

    }
  }
  return 0;
}


void spf_kernel_b1072877d4_release_state(void)
{
}
