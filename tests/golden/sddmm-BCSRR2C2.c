#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_D804CAC238_H_STRUCTS
#define SPF_KERNEL_D804CAC238_H_STRUCTS

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


#endif /* SPF_KERNEL_D804CAC238_H_STRUCTS */


int spf_kernel_d804cac238(struct spf_BCSR_R2_C2 *B, struct spf_Dense2 *C, struct spf_Dense2 *D, struct spf_BCSR_R2_C2 *A)
{
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_numBlockRows = B->numBlockRows;
  const int64_t B_numBlockCols = B->numBlockCols;
  const int64_t B_nnzBlocks = B->nnzBlocks;
  int * restrict B_rowPtr = B->rowPtr;
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
  const int64_t A_numBlockRows = A->numBlockRows;
  const int64_t A_numBlockCols = A->numBlockCols;
  double * restrict A_val = A->val;
  const int64_t N_k = C_N1;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(((((A_numCols == D_N1) && (C_N1 == D_N0)) && (A_numRows == C_N0)) && (A_numRows == B_numRows)) && (A_numCols == B_numCols)))
    return 1;
  {
    const int64_t spf_row_size = (1 * 2) * 2;
    int64_t spf_reached_from = B_nnzBlocks;
    int64_t spf_reached_to = B_nnzBlocks;
    if (((((1 <= A_numBlockRows) && (1 <= A_numCols)) && (1 <= A_numRows)) && (1 <= B_numBlockRows)) && (1 <= C_N1))
    {
      spf_reached_from = spf_min(spf_max(B_rowPtr[0], 0), B_nnzBlocks);
      spf_reached_to = spf_max(spf_reached_from, spf_min((B_rowPtr[spf_min(spf_min(A_numBlockRows - 1, spf_floord(A_numRows - 1, 2)), B_numBlockRows - 1) + 1] - 1) + 1, B_nnzBlocks));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      A_val[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (B_nnzBlocks * spf_row_size); spf_zero++)
      A_val[spf_zero] = 0.0;

  }
  if (((((1 <= A_numBlockRows) && (1 <= A_numCols)) && (1 <= A_numRows)) && (1 <= B_numBlockRows)) && (1 <= C_N1))
  {
    {
      const int64_t spf_row_size = (1 * 2) * 2;
      const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
      const int64_t spf_stop = spf_min(spf_min(A_numBlockRows - 1, spf_floord(A_numRows - 1, 2)), B_numBlockRows - 1) + 1;
      for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
      {
        const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
        const int64_t spf_zero_to = spf_min(B_rowPtr[spf_block_end], B_nnzBlocks) * spf_row_size;
        for (int64_t spf_zero = spf_max(B_rowPtr[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
          A_val[spf_zero] = 0.0;

        for (int64_t pBI = spf_block; pBI < spf_block_end; pBI++)
        {
          const int64_t B_rowPtr_pBI = B_rowPtr[pBI];
          const int64_t B_rowPtr_pBI_1 = B_rowPtr[pBI + 1];
          if ((B_rowPtr_pBI + 1) <= B_rowPtr_pBI_1)
          {
            for (int64_t pBJ = B_rowPtr_pBI; pBJ <= (B_rowPtr_pBI_1 - 1); pBJ++)
            {
              const int64_t B_col_pBJ = B_col[pBJ];
              if (((2 * B_col_pBJ) + 1) <= A_numCols)
              {
                for (int64_t pBii = 0; pBii <= spf_min(1, (A_numRows - (2 * pBI)) - 1); pBii++)
                {
                  const int64_t i = (2 * pBI) + pBii;
                  const int64_t pC0 = i;
                  {
                    int64_t spf_jam_1 = 0;
                    for (; (spf_jam_1 + 3) <= spf_min(1, (A_numCols - (2 * B_col_pBJ)) - 1); spf_jam_1 += 4)
                    {
                      int64_t pBjj_lane0 = spf_jam_1 + 0;
                      const int64_t j_lane0 = (2 * B_col_pBJ) + pBjj_lane0;
                      const int64_t pD1_lane0 = j_lane0;
                      int64_t pBjj_lane1 = spf_jam_1 + 1;
                      const int64_t j_lane1 = (2 * B_col_pBJ) + pBjj_lane1;
                      const int64_t pD1_lane1 = j_lane1;
                      int64_t pBjj_lane2 = spf_jam_1 + 2;
                      const int64_t j_lane2 = (2 * B_col_pBJ) + pBjj_lane2;
                      const int64_t pD1_lane2 = j_lane2;
                      int64_t pBjj_lane3 = spf_jam_1 + 3;
                      const int64_t j_lane3 = (2 * B_col_pBJ) + pBjj_lane3;
                      const int64_t pD1_lane3 = j_lane3;
                      double sum_2 = 0.0;
                      double sum_3 = 0.0;
                      double sum_4 = 0.0;
                      double sum_5 = 0.0;
                      for (int64_t pC1 = 0; pC1 <= (C_N1 - 1); pC1++)
                      {
                        {
                          const int64_t k = pC1;
                          const int64_t pD0 = k;
                          const int64_t pAI = pBI;
                          const int64_t pAJ = pBJ;
                          const int64_t pAii = i - (2 * pAI);
                          const int64_t pAjj = (-(2 * B_col_pBJ)) + j_lane0;
                          sum_2 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1_lane0];
                        }
                        {
                          const int64_t k = pC1;
                          const int64_t pD0 = k;
                          const int64_t pAI = pBI;
                          const int64_t pAJ = pBJ;
                          const int64_t pAii = i - (2 * pAI);
                          const int64_t pAjj = (-(2 * B_col_pBJ)) + j_lane1;
                          sum_3 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1_lane1];
                        }
                        {
                          const int64_t k = pC1;
                          const int64_t pD0 = k;
                          const int64_t pAI = pBI;
                          const int64_t pAJ = pBJ;
                          const int64_t pAii = i - (2 * pAI);
                          const int64_t pAjj = (-(2 * B_col_pBJ)) + j_lane2;
                          sum_4 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1_lane2];
                        }
                        {
                          const int64_t k = pC1;
                          const int64_t pD0 = k;
                          const int64_t pAI = pBI;
                          const int64_t pAJ = pBJ;
                          const int64_t pAii = i - (2 * pAI);
                          const int64_t pAjj = (-(2 * B_col_pBJ)) + j_lane3;
                          sum_5 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1_lane3];
                        }
                      }

                      {
                        {
                          const int64_t pAI = pBI;
                          const int64_t pAJ = pBJ;
                          const int64_t pAii = i - (2 * pAI);
                          const int64_t pAjj = (-(2 * B_col_pBJ)) + j_lane0;
                          A_val[(((pAJ * 2) + pAii) * 2) + pAjj] += B_val[(((pBJ * 2) + pBii) * 2) + pBjj_lane0] * sum_2;
                        }
                      }
                      {
                        {
                          const int64_t pAI = pBI;
                          const int64_t pAJ = pBJ;
                          const int64_t pAii = i - (2 * pAI);
                          const int64_t pAjj = (-(2 * B_col_pBJ)) + j_lane1;
                          A_val[(((pAJ * 2) + pAii) * 2) + pAjj] += B_val[(((pBJ * 2) + pBii) * 2) + pBjj_lane1] * sum_3;
                        }
                      }
                      {
                        {
                          const int64_t pAI = pBI;
                          const int64_t pAJ = pBJ;
                          const int64_t pAii = i - (2 * pAI);
                          const int64_t pAjj = (-(2 * B_col_pBJ)) + j_lane2;
                          A_val[(((pAJ * 2) + pAii) * 2) + pAjj] += B_val[(((pBJ * 2) + pBii) * 2) + pBjj_lane2] * sum_4;
                        }
                      }
                      {
                        {
                          const int64_t pAI = pBI;
                          const int64_t pAJ = pBJ;
                          const int64_t pAii = i - (2 * pAI);
                          const int64_t pAjj = (-(2 * B_col_pBJ)) + j_lane3;
                          A_val[(((pAJ * 2) + pAii) * 2) + pAjj] += B_val[(((pBJ * 2) + pBii) * 2) + pBjj_lane3] * sum_5;
                        }
                      }
                    }

                    for (int64_t pBjj = spf_jam_1; pBjj <= spf_min(1, (A_numCols - (2 * B_col_pBJ)) - 1); pBjj++)
                    {
                      const int64_t j = (2 * B_col_pBJ) + pBjj;
                      const int64_t pD1 = j;
                      double sum_6 = 0.0;
                      for (int64_t pC1 = 0; pC1 <= (C_N1 - 1); pC1++)
                      {
                        const int64_t k = pC1;
                        const int64_t pD0 = k;
                        const int64_t pAI = pBI;
                        const int64_t pAJ = pBJ;
                        const int64_t pAii = i - (2 * pAI);
                        const int64_t pAjj = (-(2 * B_col_pBJ)) + j;
                        sum_6 += C_vals[(pC0 * C_N1) + pC1] * D_vals[(pD0 * D_N1) + pD1];
                      }

                      {
                        const int64_t pAI = pBI;
                        const int64_t pAJ = pBJ;
                        const int64_t pAii = i - (2 * pAI);
                        const int64_t pAjj = (-(2 * B_col_pBJ)) + j;
                        A_val[(((pAJ * 2) + pAii) * 2) + pAjj] += B_val[(((pBJ * 2) + pBii) * 2) + pBjj] * sum_6;
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
  }
  return 0;
}


void spf_kernel_d804cac238_release_state(void)
{
}
