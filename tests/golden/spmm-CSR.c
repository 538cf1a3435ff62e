#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_E9220A205A_H_STRUCTS
#define SPF_KERNEL_E9220A205A_H_STRUCTS

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


#endif /* SPF_KERNEL_E9220A205A_H_STRUCTS */


int spf_kernel_e9220a205a(struct spf_CSR *A, struct spf_Dense2 *B, struct spf_Dense2 *C)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_N0 = B->N0;
  const int64_t B_N1 = B->N1;
  double * restrict B_vals = B->vals;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t N_k = B_N1;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(((B_N1 == C_N1) && (A_numRows == C_N0)) && (A_numCols == B_N0)))
    return 1;
  {
    const int64_t spf_row_size = 1 * C_N1;
    int64_t spf_reached_from = C_N0;
    int64_t spf_reached_to = C_N0;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_N1))
    {
      spf_reached_from = spf_min(spf_max(0, 0), C_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_numRows - 1) + 1, C_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      C_vals[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (C_N0 * spf_row_size); spf_zero++)
      C_vals[spf_zero] = 0.0;

  }
  if (B_N1 == 16)
  {
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_N1))
    {
      {
        const int64_t spf_row_size = 1 * C_N1;
        const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
        const int64_t spf_stop = (A_numRows - 1) + 1;
        for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
        {
          const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
          const int64_t spf_zero_to = spf_min(spf_block_end, C_N0) * spf_row_size;
          for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
            C_vals[spf_zero] = 0.0;

          for (int64_t pAi = spf_block; pAi < spf_block_end; pAi++)
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
                const int64_t pB0 = A_colIdx_pAj;
                if (0 <= (B_N1 - 1))
                {
                  const double factor_4 = A_data[pAj];
                  #pragma GCC ivdep
                  for (int64_t pB1 = 0; pB1 <= (B_N1 - 1); pB1++)
                  {
                    const int64_t k = pB1;
                    const int64_t pC1 = k;
                    C_vals[(pC0 * C_N1) + pC1] += factor_4 * B_vals[(pB0 * B_N1) + pB1];
                  }

                }
              }

            }
          }

        }

      }
    }
  }
  else
    if (B_N1 == 32)
  {
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_N1))
    {
      {
        const int64_t spf_row_size = 1 * C_N1;
        const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
        const int64_t spf_stop = (A_numRows - 1) + 1;
        for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
        {
          const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
          const int64_t spf_zero_to = spf_min(spf_block_end, C_N0) * spf_row_size;
          for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
            C_vals[spf_zero] = 0.0;

          for (int64_t pAi = spf_block; pAi < spf_block_end; pAi++)
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
                const int64_t pB0 = A_colIdx_pAj;
                if (0 <= (B_N1 - 1))
                {
                  const double factor_3 = A_data[pAj];
                  #pragma GCC ivdep
                  for (int64_t pB1 = 0; pB1 <= (B_N1 - 1); pB1++)
                  {
                    const int64_t k = pB1;
                    const int64_t pC1 = k;
                    C_vals[(pC0 * C_N1) + pC1] += factor_3 * B_vals[(pB0 * B_N1) + pB1];
                  }

                }
              }

            }
          }

        }

      }
    }
  }
  else
    if (B_N1 == 64)
  {
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_N1))
    {
      {
        const int64_t spf_row_size = 1 * C_N1;
        const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
        const int64_t spf_stop = (A_numRows - 1) + 1;
        for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
        {
          const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
          const int64_t spf_zero_to = spf_min(spf_block_end, C_N0) * spf_row_size;
          for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
            C_vals[spf_zero] = 0.0;

          for (int64_t pAi = spf_block; pAi < spf_block_end; pAi++)
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
                const int64_t pB0 = A_colIdx_pAj;
                if (0 <= (B_N1 - 1))
                {
                  const double factor_2 = A_data[pAj];
                  #pragma GCC ivdep
                  for (int64_t pB1 = 0; pB1 <= (B_N1 - 1); pB1++)
                  {
                    const int64_t k = pB1;
                    const int64_t pC1 = k;
                    C_vals[(pC0 * C_N1) + pC1] += factor_2 * B_vals[(pB0 * B_N1) + pB1];
                  }

                }
              }

            }
          }

        }

      }
    }
  }
  else
  {
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_N1))
    {
      {
        const int64_t spf_row_size = 1 * C_N1;
        const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
        const int64_t spf_stop = (A_numRows - 1) + 1;
        for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
        {
          const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
          const int64_t spf_zero_to = spf_min(spf_block_end, C_N0) * spf_row_size;
          for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
            C_vals[spf_zero] = 0.0;

          for (int64_t pAi = spf_block; pAi < spf_block_end; pAi++)
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
                const int64_t pB0 = A_colIdx_pAj;
                if (0 <= (B_N1 - 1))
                {
                  const double factor_1 = A_data[pAj];
                  #pragma GCC ivdep
                  for (int64_t pB1 = 0; pB1 <= (B_N1 - 1); pB1++)
                  {
                    const int64_t k = pB1;
                    const int64_t pC1 = k;
                    C_vals[(pC0 * C_N1) + pC1] += factor_1 * B_vals[(pB0 * B_N1) + pB1];
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


void spf_kernel_e9220a205a_release_state(void)
{
}
