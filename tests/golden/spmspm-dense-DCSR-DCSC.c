#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_A9224C5CD0_H_STRUCTS
#define SPF_KERNEL_A9224C5CD0_H_STRUCTS

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

#ifndef SPF_STRUCT_DCSC_EEA4E55B
#define SPF_STRUCT_DCSC_EEA4E55B
/*
 * DCSC: doubly compressed sparse column matrix (empty columns not stored)
 */
struct spf_DCSC
{
  int numRows;
  int numCols;
  int nnzCols;
  int nnz;
  int *colIdx;
  int *colPtr;
  int *rowIdx;
  double *data;
};
#endif /* SPF_STRUCT_DCSC_EEA4E55B */

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


#endif /* SPF_KERNEL_A9224C5CD0_H_STRUCTS */


static spf_state *spf_kernel_a9224c5cd0_v0_kept_state = 0;

static int spf_kernel_a9224c5cd0_v0_run(struct spf_DCSR *A, struct spf_DCSC *B, struct spf_Dense2 *C, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnzCols = B->nnzCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_colIdx = B->colIdx;
  int * restrict B_colPtr = B->colPtr;
  int * restrict B_rowIdx = B->rowIdx;
  double * restrict B_data = B->data;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t N_k = A_numCols;
  const int64_t N_j = B_numCols;
  const int64_t N_i = A_numRows;
  if (!(((B_numCols == C_N1) && (A_numRows == C_N0)) && (A_numCols == B_numRows)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < (C_N0 * C_N1); spf_zero++)
    C_vals[spf_zero] = 0.0;

  if (((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols)) && (1 <= B_nnzCols)) && (1 <= A_nnzRows))
  {
    for (int64_t pAi = 0; pAi <= (A_nnzRows - 1); pAi++)
    {
      const int64_t A_rowIdx_pAi = A_rowIdx[pAi];
      const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
      {
        const int64_t pC0 = A_rowIdx_pAi;
        for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj = A_colIdx[pAj];
          for (int64_t pBj = 0; pBj <= (B_nnzCols - 1); pBj++)
          {
            const int64_t B_colIdx_pBj = B_colIdx[pBj];
            const int64_t B_colPtr_pBj = B_colPtr[pBj];
            const int64_t B_colPtr_pBj_1 = B_colPtr[pBj + 1];
            if ((B_colPtr_pBj + 1) <= B_colPtr_pBj_1)
            {
              const int64_t pC1 = B_colIdx_pBj;
              int64_t * const pBi_table_1 = spf_hash_fill(&spf_kept[0], ((B_colPtr_pBj_1 - 1) - B_colPtr_pBj) + 1);
              for (int64_t fill_2 = B_colPtr_pBj; fill_2 <= (B_colPtr_pBj_1 - 1); fill_2++)
                spf_hash_put(pBi_table_1, B_rowIdx[fill_2], fill_2);

              {
                const int64_t q_3 = spf_hash_get(pBi_table_1, A_colIdx_pAj);
                if (q_3 >= 0)
                {
                  const int64_t pBi = q_3;
                  const int64_t B_rowIdx_pBi = A_colIdx_pAj;
                  C_vals[(pC0 * C_N1) + pC1] += A_data[pAj] * B_data[pBi];
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


int spf_kernel_a9224c5cd0_v0(struct spf_DCSR *A, struct spf_DCSC *B, struct spf_Dense2 *C)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_a9224c5cd0_v0_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_a9224c5cd0_v0_run(A, B, C, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_a9224c5cd0_v0_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_a9224c5cd0_v1_kept_state = 0;

static int spf_kernel_a9224c5cd0_v1_run(struct spf_DCSR *A, struct spf_DCSC *B, struct spf_Dense2 *C, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnzCols = B->nnzCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_colIdx = B->colIdx;
  int * restrict B_colPtr = B->colPtr;
  int * restrict B_rowIdx = B->rowIdx;
  double * restrict B_data = B->data;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t N_k = A_numCols;
  const int64_t N_j = B_numCols;
  const int64_t N_i = A_numRows;
  if (!(((B_numCols == C_N1) && (A_numRows == C_N0)) && (A_numCols == B_numRows)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < (C_N0 * C_N1); spf_zero++)
    C_vals[spf_zero] = 0.0;

  if (((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols)) && (1 <= B_nnzCols)) && (1 <= A_nnzRows))
  {
    for (int64_t pAi = 0; pAi <= (A_nnzRows - 1); pAi++)
    {
      const int64_t A_rowIdx_pAi = A_rowIdx[pAi];
      const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
      {
        const int64_t pC0 = A_rowIdx_pAi;
        for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj = A_colIdx[pAj];
          for (int64_t pBj = 0; pBj <= (B_nnzCols - 1); pBj++)
          {
            const int64_t B_colIdx_pBj = B_colIdx[pBj];
            const int64_t B_colPtr_pBj = B_colPtr[pBj];
            const int64_t B_colPtr_pBj_1 = B_colPtr[pBj + 1];
            if ((B_colPtr_pBj + 1) <= B_colPtr_pBj_1)
            {
              const int64_t pC1 = B_colIdx_pBj;
              int64_t * const pBi_table_2 = spf_bitmap_fill(&spf_kept[0], B_numRows);
              for (int64_t fill_3 = B_colPtr_pBj; fill_3 <= (B_colPtr_pBj_1 - 1); fill_3++)
                spf_bitmap_put(pBi_table_2, B_rowIdx[fill_3], fill_3);

              const spf_bitmap pBi_bitmap_1 = spf_bitmap_view(pBi_table_2);
              {
                const int64_t q_4 = spf_bitmap_get(pBi_bitmap_1, A_colIdx_pAj);
                if (q_4 >= 0)
                {
                  const int64_t pBi = q_4;
                  const int64_t B_rowIdx_pBi = A_colIdx_pAj;
                  C_vals[(pC0 * C_N1) + pC1] += A_data[pAj] * B_data[pBi];
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


int spf_kernel_a9224c5cd0_v1(struct spf_DCSR *A, struct spf_DCSC *B, struct spf_Dense2 *C)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_a9224c5cd0_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_a9224c5cd0_v1_run(A, B, C, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_a9224c5cd0_v1_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_a9224c5cd0_v2(struct spf_DCSR *A, struct spf_DCSC *B, struct spf_Dense2 *C)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnzCols = B->nnzCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_colIdx = B->colIdx;
  int * restrict B_colPtr = B->colPtr;
  int * restrict B_rowIdx = B->rowIdx;
  double * restrict B_data = B->data;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t N_k = A_numCols;
  const int64_t N_j = B_numCols;
  const int64_t N_i = A_numRows;
  if (!(((B_numCols == C_N1) && (A_numRows == C_N0)) && (A_numCols == B_numRows)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < (C_N0 * C_N1); spf_zero++)
    C_vals[spf_zero] = 0.0;

  if (((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols)) && (1 <= B_nnzCols)) && (1 <= A_nnzRows))
  {
    for (int64_t pAi = 0; pAi <= (A_nnzRows - 1); pAi++)
    {
      const int64_t A_rowIdx_pAi = A_rowIdx[pAi];
      const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
      {
        const int64_t pC0 = A_rowIdx_pAi;
        for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj = A_colIdx[pAj];
          for (int64_t pBj = 0; pBj <= (B_nnzCols - 1); pBj++)
          {
            const int64_t B_colIdx_pBj = B_colIdx[pBj];
            const int64_t B_colPtr_pBj = B_colPtr[pBj];
            const int64_t B_colPtr_pBj_1 = B_colPtr[pBj + 1];
            if ((B_colPtr_pBj + 1) <= B_colPtr_pBj_1)
            {
              const int64_t pC1 = B_colIdx_pBj;
              {
                const int64_t key_3 = A_colIdx_pAj;
                int64_t lo_1 = B_colPtr_pBj;
                const int64_t end_5 = (B_colPtr_pBj_1 - 1) + 1;
                int64_t hi_2 = end_5;
                while (lo_1 < hi_2)
                {
                  const int64_t mid_4 = lo_1 + ((hi_2 - lo_1) / 2);
                  if (B_rowIdx[mid_4] < key_3)
                    lo_1 = mid_4 + 1;
                  else
                    hi_2 = mid_4;
                }

                if ((lo_1 < end_5) && (B_rowIdx[lo_1] == key_3))
                {
                  const int64_t pBi = lo_1;
                  const int64_t B_rowIdx_pBi = A_colIdx_pAj;
                  C_vals[(pC0 * C_N1) + pC1] += A_data[pAj] * B_data[pBi];
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


void spf_kernel_a9224c5cd0_release_state(void)
{
  spf_state_release(&spf_kernel_a9224c5cd0_v0_kept_state, 1);
  spf_state_release(&spf_kernel_a9224c5cd0_v1_kept_state, 1);
}
