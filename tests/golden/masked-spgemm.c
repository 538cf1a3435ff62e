#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_E7BB3EC942_H_STRUCTS
#define SPF_KERNEL_E7BB3EC942_H_STRUCTS

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


#endif /* SPF_KERNEL_E7BB3EC942_H_STRUCTS */


static spf_state *spf_kernel_e7bb3ec942_v0_kept_state = 0;

static int spf_kernel_e7bb3ec942_v0_run(struct spf_CSR *M, struct spf_CSR *A, struct spf_CSR *B, struct spf_CSR *C, spf_state *spf_kept)
{
  const int64_t M_numRows = M->numRows;
  const int64_t M_numCols = M->numCols;
  const int64_t M_nnz = M->nnz;
  int * restrict M_rowPtr = M->rowPtr;
  int * restrict M_colIdx = M->colIdx;
  double * restrict M_data = M->data;
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t C_numRows = C->numRows;
  const int64_t C_numCols = C->numCols;
  double * restrict C_data = C->data;
  const int64_t N_k = A_numCols;
  const int64_t N_j = B_numCols;
  const int64_t N_i = A_numRows;
  if (!(((((A_numRows == M_numRows) && (B_numCols == M_numCols)) && (A_numRows == C_numRows)) && (B_numCols == C_numCols)) && (A_numCols == B_numRows)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = M_nnz;
    int64_t spf_reached_to = M_nnz;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols))
    {
      spf_reached_from = spf_min(spf_max(M_rowPtr[0], 0), M_nnz);
      spf_reached_to = spf_max(spf_reached_from, spf_min((M_rowPtr[(A_numRows - 1) + 1] - 1) + 1, M_nnz));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      C_data[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (M_nnz * spf_row_size); spf_zero++)
      C_data[spf_zero] = 0.0;

  }
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols))
  {
    {
      const int64_t spf_row_size = 1;
      const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
      const int64_t spf_stop = (A_numRows - 1) + 1;
      for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
      {
        const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
        const int64_t spf_zero_to = spf_min(M_rowPtr[spf_block_end], M_nnz) * spf_row_size;
        for (int64_t spf_zero = spf_max(M_rowPtr[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
          C_data[spf_zero] = 0.0;

        for (int64_t pMi = spf_block; pMi < spf_block_end; pMi++)
        {
          const int64_t M_rowPtr_pMi = M_rowPtr[pMi];
          const int64_t M_rowPtr_pMi_1 = M_rowPtr[pMi + 1];
          if ((M_rowPtr_pMi + 1) <= M_rowPtr_pMi_1)
          {
            const int64_t i = pMi;
            const int64_t pAi = i;
            const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
            const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
            if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
            {
              for (int64_t pMj = M_rowPtr_pMi; pMj <= (M_rowPtr_pMi_1 - 1); pMj++)
              {
                const int64_t M_colIdx_pMj = M_colIdx[pMj];
                double sum_1 = 0.0;
                for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
                {
                  const int64_t A_colIdx_pAj = A_colIdx[pAj];
                  const int64_t pBi = A_colIdx_pAj;
                  const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                  const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                  if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                  {
                    int64_t * const pBj_table_2 = spf_hash_fill(&spf_kept[0], ((B_rowPtr_pBi_1 - 1) - B_rowPtr_pBi) + 1);
                    for (int64_t fill_3 = B_rowPtr_pBi; fill_3 <= (B_rowPtr_pBi_1 - 1); fill_3++)
                      spf_hash_put(pBj_table_2, B_colIdx[fill_3], fill_3);

                    {
                      const int64_t q_4 = spf_hash_get(pBj_table_2, M_colIdx_pMj);
                      if (q_4 >= 0)
                      {
                        const int64_t pBj = q_4;
                        const int64_t B_colIdx_pBj = M_colIdx_pMj;
                        const int64_t pCj = pMj;
                        sum_1 += A_data[pAj] * B_data[pBj];
                      }
                    }
                  }
                }

                {
                  const int64_t pCj = pMj;
                  C_data[pCj] += M_data[pMj] * sum_1;
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


int spf_kernel_e7bb3ec942_v0(struct spf_CSR *M, struct spf_CSR *A, struct spf_CSR *B, struct spf_CSR *C)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_e7bb3ec942_v0_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_e7bb3ec942_v0_run(M, A, B, C, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_e7bb3ec942_v0_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_e7bb3ec942_v1_kept_state = 0;

static int spf_kernel_e7bb3ec942_v1_run(struct spf_CSR *M, struct spf_CSR *A, struct spf_CSR *B, struct spf_CSR *C, spf_state *spf_kept)
{
  const int64_t M_numRows = M->numRows;
  const int64_t M_numCols = M->numCols;
  const int64_t M_nnz = M->nnz;
  int * restrict M_rowPtr = M->rowPtr;
  int * restrict M_colIdx = M->colIdx;
  double * restrict M_data = M->data;
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t C_numRows = C->numRows;
  const int64_t C_numCols = C->numCols;
  double * restrict C_data = C->data;
  const int64_t N_k = A_numCols;
  const int64_t N_j = B_numCols;
  const int64_t N_i = A_numRows;
  if (!(((((A_numRows == M_numRows) && (B_numCols == M_numCols)) && (A_numRows == C_numRows)) && (B_numCols == C_numCols)) && (A_numCols == B_numRows)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = M_nnz;
    int64_t spf_reached_to = M_nnz;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols))
    {
      spf_reached_from = spf_min(spf_max(M_rowPtr[0], 0), M_nnz);
      spf_reached_to = spf_max(spf_reached_from, spf_min((M_rowPtr[(A_numRows - 1) + 1] - 1) + 1, M_nnz));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      C_data[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (M_nnz * spf_row_size); spf_zero++)
      C_data[spf_zero] = 0.0;

  }
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols))
  {
    {
      const int64_t spf_row_size = 1;
      const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
      const int64_t spf_stop = (A_numRows - 1) + 1;
      for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
      {
        const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
        const int64_t spf_zero_to = spf_min(M_rowPtr[spf_block_end], M_nnz) * spf_row_size;
        for (int64_t spf_zero = spf_max(M_rowPtr[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
          C_data[spf_zero] = 0.0;

        for (int64_t pMi = spf_block; pMi < spf_block_end; pMi++)
        {
          const int64_t M_rowPtr_pMi = M_rowPtr[pMi];
          const int64_t M_rowPtr_pMi_1 = M_rowPtr[pMi + 1];
          if ((M_rowPtr_pMi + 1) <= M_rowPtr_pMi_1)
          {
            const int64_t i = pMi;
            const int64_t pAi = i;
            const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
            const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
            if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
            {
              for (int64_t pMj = M_rowPtr_pMi; pMj <= (M_rowPtr_pMi_1 - 1); pMj++)
              {
                const int64_t M_colIdx_pMj = M_colIdx[pMj];
                double sum_1 = 0.0;
                for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
                {
                  const int64_t A_colIdx_pAj = A_colIdx[pAj];
                  const int64_t pBi = A_colIdx_pAj;
                  const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                  const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                  if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                  {
                    int64_t * const pBj_table_3 = spf_bitmap_fill(&spf_kept[0], B_numCols);
                    for (int64_t fill_4 = B_rowPtr_pBi; fill_4 <= (B_rowPtr_pBi_1 - 1); fill_4++)
                      spf_bitmap_put(pBj_table_3, B_colIdx[fill_4], fill_4);

                    const spf_bitmap pBj_bitmap_2 = spf_bitmap_view(pBj_table_3);
                    {
                      const int64_t q_5 = spf_bitmap_get(pBj_bitmap_2, M_colIdx_pMj);
                      if (q_5 >= 0)
                      {
                        const int64_t pBj = q_5;
                        const int64_t B_colIdx_pBj = M_colIdx_pMj;
                        const int64_t pCj = pMj;
                        sum_1 += A_data[pAj] * B_data[pBj];
                      }
                    }
                  }
                }

                {
                  const int64_t pCj = pMj;
                  C_data[pCj] += M_data[pMj] * sum_1;
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


int spf_kernel_e7bb3ec942_v1(struct spf_CSR *M, struct spf_CSR *A, struct spf_CSR *B, struct spf_CSR *C)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_e7bb3ec942_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_e7bb3ec942_v1_run(M, A, B, C, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_e7bb3ec942_v1_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_e7bb3ec942_v2(struct spf_CSR *M, struct spf_CSR *A, struct spf_CSR *B, struct spf_CSR *C)
{
  const int64_t M_numRows = M->numRows;
  const int64_t M_numCols = M->numCols;
  const int64_t M_nnz = M->nnz;
  int * restrict M_rowPtr = M->rowPtr;
  int * restrict M_colIdx = M->colIdx;
  double * restrict M_data = M->data;
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t C_numRows = C->numRows;
  const int64_t C_numCols = C->numCols;
  double * restrict C_data = C->data;
  const int64_t N_k = A_numCols;
  const int64_t N_j = B_numCols;
  const int64_t N_i = A_numRows;
  if (!(((((A_numRows == M_numRows) && (B_numCols == M_numCols)) && (A_numRows == C_numRows)) && (B_numCols == C_numCols)) && (A_numCols == B_numRows)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = M_nnz;
    int64_t spf_reached_to = M_nnz;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols))
    {
      spf_reached_from = spf_min(spf_max(M_rowPtr[0], 0), M_nnz);
      spf_reached_to = spf_max(spf_reached_from, spf_min((M_rowPtr[(A_numRows - 1) + 1] - 1) + 1, M_nnz));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      C_data[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (M_nnz * spf_row_size); spf_zero++)
      C_data[spf_zero] = 0.0;

  }
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols))
  {
    {
      const int64_t spf_row_size = 1;
      const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
      const int64_t spf_stop = (A_numRows - 1) + 1;
      for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
      {
        const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
        const int64_t spf_zero_to = spf_min(M_rowPtr[spf_block_end], M_nnz) * spf_row_size;
        for (int64_t spf_zero = spf_max(M_rowPtr[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
          C_data[spf_zero] = 0.0;

        for (int64_t pMi = spf_block; pMi < spf_block_end; pMi++)
        {
          const int64_t M_rowPtr_pMi = M_rowPtr[pMi];
          const int64_t M_rowPtr_pMi_1 = M_rowPtr[pMi + 1];
          if ((M_rowPtr_pMi + 1) <= M_rowPtr_pMi_1)
          {
            const int64_t i = pMi;
            const int64_t pAi = i;
            const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
            const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
            if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
            {
              for (int64_t pMj = M_rowPtr_pMi; pMj <= (M_rowPtr_pMi_1 - 1); pMj++)
              {
                const int64_t M_colIdx_pMj = M_colIdx[pMj];
                double sum_1 = 0.0;
                for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
                {
                  const int64_t A_colIdx_pAj = A_colIdx[pAj];
                  const int64_t pBi = A_colIdx_pAj;
                  const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
                  const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
                  if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
                  {
                    {
                      const int64_t key_4 = M_colIdx_pMj;
                      int64_t lo_2 = B_rowPtr_pBi;
                      const int64_t end_6 = (B_rowPtr_pBi_1 - 1) + 1;
                      int64_t hi_3 = end_6;
                      while (lo_2 < hi_3)
                      {
                        const int64_t mid_5 = lo_2 + ((hi_3 - lo_2) / 2);
                        if (B_colIdx[mid_5] < key_4)
                          lo_2 = mid_5 + 1;
                        else
                          hi_3 = mid_5;
                      }

                      if ((lo_2 < end_6) && (B_colIdx[lo_2] == key_4))
                      {
                        const int64_t pBj = lo_2;
                        const int64_t B_colIdx_pBj = M_colIdx_pMj;
                        const int64_t pCj = pMj;
                        sum_1 += A_data[pAj] * B_data[pBj];
                      }
                    }
                  }
                }

                {
                  const int64_t pCj = pMj;
                  C_data[pCj] += M_data[pMj] * sum_1;
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


void spf_kernel_e7bb3ec942_release_state(void)
{
  spf_state_release(&spf_kernel_e7bb3ec942_v0_kept_state, 1);
  spf_state_release(&spf_kernel_e7bb3ec942_v1_kept_state, 1);
}
