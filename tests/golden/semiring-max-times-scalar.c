#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_C13DDAF266_H_STRUCTS
#define SPF_KERNEL_C13DDAF266_H_STRUCTS

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


#endif /* SPF_KERNEL_C13DDAF266_H_STRUCTS */


static spf_state *spf_kernel_c13ddaf266_v0_kept_state = 0;

static int spf_kernel_c13ddaf266_v0_run(struct spf_CSR *A, struct spf_DCSR *B, double *s, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnzRows = B->nnzRows;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowIdx = B->rowIdx;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == B_numRows) && (A_numCols == B_numCols)))
    return 1;
  double s_sum = -INFINITY;
  int64_t *pBi_position_1_all = spf_state_array(&spf_kept[0], spf_threads() * (N_j + 1));
  if (pBi_position_1_all == NULL)
  {
    return 2;
  }
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_nnzRows))
  {
    #pragma omp parallel
    {
      int64_t *pBi_position_1 = pBi_position_1_all + (spf_thread() * (N_j + 1));
      for (int64_t start_2 = 0; start_2 < N_j; start_2++)
        pBi_position_1[start_2] = 0;

      #pragma omp for schedule(monotonic: dynamic,32) reduction(max: s_sum)
      for (int64_t pAi = 0; pAi <= (B_numRows - 1); pAi++)
      {
        const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
        const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
        if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
        {
          const int64_t i = pAi;
          for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
          {
            const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
            const int64_t j = A_colIdx_pAj_2;
            {
              const int64_t key_3 = i;
              int64_t position_4 = pBi_position_1[j];
              while (((position_4 >= 0) && (position_4 <= (B_nnzRows - 1))) && (B_rowIdx[position_4] < key_3))
                position_4++;

              if (((position_4 >= 0) && (position_4 <= (B_nnzRows - 1))) && (B_rowIdx[position_4] == key_3))
              {
                const int64_t pBi = position_4;
                const int64_t B_rowIdx_pBi_2 = i;
                const int64_t B_rowPtr_pBi_2 = B_rowPtr[pBi];
                const int64_t B_rowPtr_pBi_1_2 = B_rowPtr[pBi + 1];
                if ((B_rowPtr_pBi_2 + 1) <= B_rowPtr_pBi_1_2)
                {
                  {
                    const int64_t key_7 = A_colIdx_pAj_2;
                    int64_t lo_5 = B_rowPtr_pBi_2;
                    const int64_t end_9 = (B_rowPtr_pBi_1_2 - 1) + 1;
                    int64_t hi_6 = end_9;
                    while (lo_5 < hi_6)
                    {
                      const int64_t mid_8 = lo_5 + ((hi_6 - lo_5) / 2);
                      if (B_colIdx[mid_8] < key_7)
                        lo_5 = mid_8 + 1;
                      else
                        hi_6 = mid_8;
                    }

                    if ((lo_5 < end_9) && (B_colIdx[lo_5] == key_7))
                    {
                      const int64_t pBj = lo_5;
                      const int64_t B_colIdx_pBj_2 = A_colIdx_pAj_2;
                      s_sum = spf_max_float64(s_sum, A_data[pAj] * B_data[pBj]);
                    }
                  }
                }
                position_4++;
              }
              pBi_position_1[j] = position_4;
            }
          }

        }
      }

    }
  }
  *s = s_sum;
  return 0;
}


int spf_kernel_c13ddaf266_v0(struct spf_CSR *A, struct spf_DCSR *B, double *s)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_c13ddaf266_v0_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_c13ddaf266_v0_run(A, B, s, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_c13ddaf266_v0_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_c13ddaf266_v1_kept_state = 0;

static int spf_kernel_c13ddaf266_v1_run(struct spf_CSR *A, struct spf_DCSR *B, double *s, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnzRows = B->nnzRows;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowIdx = B->rowIdx;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == B_numRows) && (A_numCols == B_numCols)))
    return 1;
  double s_sum = -INFINITY;
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_nnzRows))
  {
    int64_t * const pBi_table_1 = spf_hash_fill(&spf_kept[0], ((B_nnzRows - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (B_nnzRows - 1); fill_2++)
      spf_hash_put(pBi_table_1, B_rowIdx[fill_2], fill_2);

    #pragma omp parallel for schedule(dynamic,32) reduction(max: s_sum)
    for (int64_t pAi = 0; pAi <= (B_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t q_3 = spf_hash_get(pBi_table_1, i);
            if (q_3 >= 0)
            {
              const int64_t pBi = q_3;
              const int64_t B_rowIdx_pBi_2 = i;
              const int64_t B_rowPtr_pBi_2 = B_rowPtr[pBi];
              const int64_t B_rowPtr_pBi_1_2 = B_rowPtr[pBi + 1];
              if ((B_rowPtr_pBi_2 + 1) <= B_rowPtr_pBi_1_2)
              {
                {
                  const int64_t key_6 = A_colIdx_pAj_2;
                  int64_t lo_4 = B_rowPtr_pBi_2;
                  const int64_t end_8 = (B_rowPtr_pBi_1_2 - 1) + 1;
                  int64_t hi_5 = end_8;
                  while (lo_4 < hi_5)
                  {
                    const int64_t mid_7 = lo_4 + ((hi_5 - lo_4) / 2);
                    if (B_colIdx[mid_7] < key_6)
                      lo_4 = mid_7 + 1;
                    else
                      hi_5 = mid_7;
                  }

                  if ((lo_4 < end_8) && (B_colIdx[lo_4] == key_6))
                  {
                    const int64_t pBj = lo_4;
                    const int64_t B_colIdx_pBj_2 = A_colIdx_pAj_2;
                    s_sum = spf_max_float64(s_sum, A_data[pAj] * B_data[pBj]);
                  }
                }
              }
            }
          }
        }

      }
    }

  }
  *s = s_sum;
  return 0;
}


int spf_kernel_c13ddaf266_v1(struct spf_CSR *A, struct spf_DCSR *B, double *s)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_c13ddaf266_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_c13ddaf266_v1_run(A, B, s, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_c13ddaf266_v1_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_c13ddaf266_v2_kept_state = 0;

static int spf_kernel_c13ddaf266_v2_run(struct spf_CSR *A, struct spf_DCSR *B, double *s, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnzRows = B->nnzRows;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowIdx = B->rowIdx;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == B_numRows) && (A_numCols == B_numCols)))
    return 1;
  double s_sum = -INFINITY;
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_nnzRows))
  {
    int64_t * const pBi_table_2 = spf_bitmap_fill(&spf_kept[0], B_numRows);
    for (int64_t fill_3 = 0; fill_3 <= (B_nnzRows - 1); fill_3++)
      spf_bitmap_put(pBi_table_2, B_rowIdx[fill_3], fill_3);

    const spf_bitmap pBi_bitmap_1 = spf_bitmap_view(pBi_table_2);
    #pragma omp parallel for schedule(dynamic,32) reduction(max: s_sum)
    for (int64_t pAi = 0; pAi <= (B_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t q_4 = spf_bitmap_get(pBi_bitmap_1, i);
            if (q_4 >= 0)
            {
              const int64_t pBi = q_4;
              const int64_t B_rowIdx_pBi_2 = i;
              const int64_t B_rowPtr_pBi_2 = B_rowPtr[pBi];
              const int64_t B_rowPtr_pBi_1_2 = B_rowPtr[pBi + 1];
              if ((B_rowPtr_pBi_2 + 1) <= B_rowPtr_pBi_1_2)
              {
                {
                  const int64_t key_7 = A_colIdx_pAj_2;
                  int64_t lo_5 = B_rowPtr_pBi_2;
                  const int64_t end_9 = (B_rowPtr_pBi_1_2 - 1) + 1;
                  int64_t hi_6 = end_9;
                  while (lo_5 < hi_6)
                  {
                    const int64_t mid_8 = lo_5 + ((hi_6 - lo_5) / 2);
                    if (B_colIdx[mid_8] < key_7)
                      lo_5 = mid_8 + 1;
                    else
                      hi_6 = mid_8;
                  }

                  if ((lo_5 < end_9) && (B_colIdx[lo_5] == key_7))
                  {
                    const int64_t pBj = lo_5;
                    const int64_t B_colIdx_pBj_2 = A_colIdx_pAj_2;
                    s_sum = spf_max_float64(s_sum, A_data[pAj] * B_data[pBj]);
                  }
                }
              }
            }
          }
        }

      }
    }

  }
  *s = s_sum;
  return 0;
}


int spf_kernel_c13ddaf266_v2(struct spf_CSR *A, struct spf_DCSR *B, double *s)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_c13ddaf266_v2_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_c13ddaf266_v2_run(A, B, s, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_c13ddaf266_v2_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_c13ddaf266_v3(struct spf_CSR *A, struct spf_DCSR *B, double *s)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnzRows = B->nnzRows;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowIdx = B->rowIdx;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == B_numRows) && (A_numCols == B_numCols)))
    return 1;
  double s_sum = -INFINITY;
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_nnzRows))
  {
    #pragma omp parallel for schedule(dynamic,32) reduction(max: s_sum)
    for (int64_t pAi = 0; pAi <= (B_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t key_3 = i;
            int64_t lo_1 = 0;
            const int64_t end_5 = (B_nnzRows - 1) + 1;
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
              const int64_t B_rowIdx_pBi_2 = i;
              const int64_t B_rowPtr_pBi_2 = B_rowPtr[pBi];
              const int64_t B_rowPtr_pBi_1_2 = B_rowPtr[pBi + 1];
              if ((B_rowPtr_pBi_2 + 1) <= B_rowPtr_pBi_1_2)
              {
                {
                  const int64_t key_8 = A_colIdx_pAj_2;
                  int64_t lo_6 = B_rowPtr_pBi_2;
                  const int64_t end_10 = (B_rowPtr_pBi_1_2 - 1) + 1;
                  int64_t hi_7 = end_10;
                  while (lo_6 < hi_7)
                  {
                    const int64_t mid_9 = lo_6 + ((hi_7 - lo_6) / 2);
                    if (B_colIdx[mid_9] < key_8)
                      lo_6 = mid_9 + 1;
                    else
                      hi_7 = mid_9;
                  }

                  if ((lo_6 < end_10) && (B_colIdx[lo_6] == key_8))
                  {
                    const int64_t pBj = lo_6;
                    const int64_t B_colIdx_pBj_2 = A_colIdx_pAj_2;
                    s_sum = spf_max_float64(s_sum, A_data[pAj] * B_data[pBj]);
                  }
                }
              }
            }
          }
        }

      }
    }

  }
  *s = s_sum;
  return 0;
}


void spf_kernel_c13ddaf266_release_state(void)
{
  spf_state_release(&spf_kernel_c13ddaf266_v0_kept_state, 1);
  spf_state_release(&spf_kernel_c13ddaf266_v1_kept_state, 1);
  spf_state_release(&spf_kernel_c13ddaf266_v2_kept_state, 1);
}
