#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_4168D602DB_H_STRUCTS
#define SPF_KERNEL_4168D602DB_H_STRUCTS

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

#ifndef SPF_STRUCT_CSC_C5BC41B3
#define SPF_STRUCT_CSC_C5BC41B3
/*
 * CSC: compressed sparse column matrix
 */
struct spf_CSC
{
  int numRows;
  int numCols;
  int nnz;
  int *colPtr;
  int *rowIdx;
  double *data;
};
#endif /* SPF_STRUCT_CSC_C5BC41B3 */

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


#endif /* SPF_KERNEL_4168D602DB_H_STRUCTS */


static spf_state *spf_kernel_4168d602db_v0_kept_state = 0;

static int spf_kernel_4168d602db_v0_run(struct spf_CSR *A, struct spf_Dense1 *x, struct spf_CSC *B, struct spf_SV *z, struct spf_Dense1 *y, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_colPtr = B->colPtr;
  int * restrict B_rowIdx = B->rowIdx;
  double * restrict B_data = B->data;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((((A_numRows == y_N0) && (A_numCols == x_N0)) && (B_numCols == z_n)) && (B_numRows == y_N0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < y_N0; spf_zero++)
    y_vals[spf_zero] = 0.0;

  int64_t *pz_position_6 = spf_state_array(&spf_kept[0], N_i + 1);
  if (pz_position_6 == NULL)
  {
    return 2;
  }
  if ((1 <= A_numCols) && (1 <= A_numRows))
  {
    for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        const int64_t py0 = i;
        double sum_1 = 0.0;
        {
          int64_t spf_split_2 = A_rowPtr_pAi_2;
          if (((A_rowPtr_pAi_1_2 - 1) - spf_split_2) >= 47)
          {
            double sum_3 = 0.0;
            double sum_4 = 0.0;
            double sum_5 = 0.0;
            for (; (spf_split_2 + 3) <= (A_rowPtr_pAi_1_2 - 1); spf_split_2 += 4)
            {
              {
                const int64_t pAj = spf_split_2 + 0;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_1 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 1;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_3 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 2;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_4 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 3;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_5 += A_data[pAj] * x_vals[px0];
              }
            }

            sum_1 = (sum_1 + sum_3) + (sum_4 + sum_5);
          }
          for (int64_t pAj = spf_split_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
          {
            const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
            const int64_t px0 = A_colIdx_pAj_2;
            sum_1 += A_data[pAj] * x_vals[px0];
          }

        }
        y_vals[py0] += sum_1;
      }
    }

  }
  if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= z_len))
  {
    for (int64_t start_7 = 0; start_7 < N_i; start_7++)
      pz_position_6[start_7] = 0;

    for (int64_t pBj = 0; pBj <= (z_n - 1); pBj++)
    {
      const int64_t B_colPtr_pBj_2 = B_colPtr[pBj];
      const int64_t B_colPtr_pBj_1_2 = B_colPtr[pBj + 1];
      if ((B_colPtr_pBj_2 + 1) <= B_colPtr_pBj_1_2)
      {
        const int64_t j = pBj;
        for (int64_t pBi = B_colPtr_pBj_2; pBi <= (B_colPtr_pBj_1_2 - 1); pBi++)
        {
          const int64_t B_rowIdx_pBi_2 = B_rowIdx[pBi];
          const int64_t i = B_rowIdx_pBi_2;
          const int64_t py0 = B_rowIdx_pBi_2;
          {
            const int64_t key_8 = j;
            int64_t position_9 = pz_position_6[i];
            while (((position_9 >= 0) && (position_9 <= (z_len - 1))) && (z_idx[position_9] < key_8))
              position_9++;

            if (((position_9 >= 0) && (position_9 <= (z_len - 1))) && (z_idx[position_9] == key_8))
            {
              const int64_t pz = position_9;
              const int64_t z_idx_pz_2 = j;
              y_vals[py0] += -2.0 * (B_data[pBi] * z_val[pz]);
              position_9++;
            }
            pz_position_6[i] = position_9;
          }
        }

      }
    }

  }
  return 0;
}


int spf_kernel_4168d602db_v0(struct spf_CSR *A, struct spf_Dense1 *x, struct spf_CSC *B, struct spf_SV *z, struct spf_Dense1 *y)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_4168d602db_v0_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_4168d602db_v0_run(A, x, B, z, y, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_4168d602db_v0_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_4168d602db_v1_kept_state = 0;

static int spf_kernel_4168d602db_v1_run(struct spf_CSR *A, struct spf_Dense1 *x, struct spf_CSC *B, struct spf_SV *z, struct spf_Dense1 *y, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_colPtr = B->colPtr;
  int * restrict B_rowIdx = B->rowIdx;
  double * restrict B_data = B->data;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((((A_numRows == y_N0) && (A_numCols == x_N0)) && (B_numCols == z_n)) && (B_numRows == y_N0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < y_N0; spf_zero++)
    y_vals[spf_zero] = 0.0;

  if ((1 <= A_numCols) && (1 <= A_numRows))
  {
    for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        const int64_t py0 = i;
        double sum_1 = 0.0;
        {
          int64_t spf_split_2 = A_rowPtr_pAi_2;
          if (((A_rowPtr_pAi_1_2 - 1) - spf_split_2) >= 47)
          {
            double sum_3 = 0.0;
            double sum_4 = 0.0;
            double sum_5 = 0.0;
            for (; (spf_split_2 + 3) <= (A_rowPtr_pAi_1_2 - 1); spf_split_2 += 4)
            {
              {
                const int64_t pAj = spf_split_2 + 0;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_1 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 1;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_3 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 2;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_4 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 3;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_5 += A_data[pAj] * x_vals[px0];
              }
            }

            sum_1 = (sum_1 + sum_3) + (sum_4 + sum_5);
          }
          for (int64_t pAj = spf_split_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
          {
            const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
            const int64_t px0 = A_colIdx_pAj_2;
            sum_1 += A_data[pAj] * x_vals[px0];
          }

        }
        y_vals[py0] += sum_1;
      }
    }

  }
  if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= z_len))
  {
    int64_t * const pz_table_6 = spf_hash_fill(&spf_kept[0], ((z_len - 1) - 0) + 1);
    for (int64_t fill_7 = 0; fill_7 <= (z_len - 1); fill_7++)
      spf_hash_put(pz_table_6, z_idx[fill_7], fill_7);

    for (int64_t pBj = 0; pBj <= (z_n - 1); pBj++)
    {
      const int64_t B_colPtr_pBj_2 = B_colPtr[pBj];
      const int64_t B_colPtr_pBj_1_2 = B_colPtr[pBj + 1];
      if ((B_colPtr_pBj_2 + 1) <= B_colPtr_pBj_1_2)
      {
        const int64_t j = pBj;
        for (int64_t pBi = B_colPtr_pBj_2; pBi <= (B_colPtr_pBj_1_2 - 1); pBi++)
        {
          const int64_t B_rowIdx_pBi_2 = B_rowIdx[pBi];
          const int64_t py0 = B_rowIdx_pBi_2;
          {
            const int64_t q_8 = spf_hash_get(pz_table_6, j);
            if (q_8 >= 0)
            {
              const int64_t pz = q_8;
              const int64_t z_idx_pz_2 = j;
              y_vals[py0] += -2.0 * (B_data[pBi] * z_val[pz]);
            }
          }
        }

      }
    }

  }
  return 0;
}


int spf_kernel_4168d602db_v1(struct spf_CSR *A, struct spf_Dense1 *x, struct spf_CSC *B, struct spf_SV *z, struct spf_Dense1 *y)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_4168d602db_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_4168d602db_v1_run(A, x, B, z, y, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_4168d602db_v1_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_4168d602db_v2_kept_state = 0;

static int spf_kernel_4168d602db_v2_run(struct spf_CSR *A, struct spf_Dense1 *x, struct spf_CSC *B, struct spf_SV *z, struct spf_Dense1 *y, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_colPtr = B->colPtr;
  int * restrict B_rowIdx = B->rowIdx;
  double * restrict B_data = B->data;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((((A_numRows == y_N0) && (A_numCols == x_N0)) && (B_numCols == z_n)) && (B_numRows == y_N0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < y_N0; spf_zero++)
    y_vals[spf_zero] = 0.0;

  if ((1 <= A_numCols) && (1 <= A_numRows))
  {
    for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        const int64_t py0 = i;
        double sum_1 = 0.0;
        {
          int64_t spf_split_2 = A_rowPtr_pAi_2;
          if (((A_rowPtr_pAi_1_2 - 1) - spf_split_2) >= 47)
          {
            double sum_3 = 0.0;
            double sum_4 = 0.0;
            double sum_5 = 0.0;
            for (; (spf_split_2 + 3) <= (A_rowPtr_pAi_1_2 - 1); spf_split_2 += 4)
            {
              {
                const int64_t pAj = spf_split_2 + 0;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_1 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 1;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_3 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 2;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_4 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 3;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_5 += A_data[pAj] * x_vals[px0];
              }
            }

            sum_1 = (sum_1 + sum_3) + (sum_4 + sum_5);
          }
          for (int64_t pAj = spf_split_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
          {
            const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
            const int64_t px0 = A_colIdx_pAj_2;
            sum_1 += A_data[pAj] * x_vals[px0];
          }

        }
        y_vals[py0] += sum_1;
      }
    }

  }
  if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= z_len))
  {
    int64_t * const pz_table_7 = spf_bitmap_fill(&spf_kept[0], z_n);
    for (int64_t fill_8 = 0; fill_8 <= (z_len - 1); fill_8++)
      spf_bitmap_put(pz_table_7, z_idx[fill_8], fill_8);

    const spf_bitmap pz_bitmap_6 = spf_bitmap_view(pz_table_7);
    for (int64_t pBj = 0; pBj <= (z_n - 1); pBj++)
    {
      const int64_t B_colPtr_pBj_2 = B_colPtr[pBj];
      const int64_t B_colPtr_pBj_1_2 = B_colPtr[pBj + 1];
      if ((B_colPtr_pBj_2 + 1) <= B_colPtr_pBj_1_2)
      {
        const int64_t j = pBj;
        for (int64_t pBi = B_colPtr_pBj_2; pBi <= (B_colPtr_pBj_1_2 - 1); pBi++)
        {
          const int64_t B_rowIdx_pBi_2 = B_rowIdx[pBi];
          const int64_t py0 = B_rowIdx_pBi_2;
          {
            const int64_t q_9 = spf_bitmap_get(pz_bitmap_6, j);
            if (q_9 >= 0)
            {
              const int64_t pz = q_9;
              const int64_t z_idx_pz_2 = j;
              y_vals[py0] += -2.0 * (B_data[pBi] * z_val[pz]);
            }
          }
        }

      }
    }

  }
  return 0;
}


int spf_kernel_4168d602db_v2(struct spf_CSR *A, struct spf_Dense1 *x, struct spf_CSC *B, struct spf_SV *z, struct spf_Dense1 *y)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_4168d602db_v2_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_4168d602db_v2_run(A, x, B, z, y, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_4168d602db_v2_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_4168d602db_v3(struct spf_CSR *A, struct spf_Dense1 *x, struct spf_CSC *B, struct spf_SV *z, struct spf_Dense1 *y)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_colPtr = B->colPtr;
  int * restrict B_rowIdx = B->rowIdx;
  double * restrict B_data = B->data;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((((A_numRows == y_N0) && (A_numCols == x_N0)) && (B_numCols == z_n)) && (B_numRows == y_N0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < y_N0; spf_zero++)
    y_vals[spf_zero] = 0.0;

  if ((1 <= A_numCols) && (1 <= A_numRows))
  {
    for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        const int64_t py0 = i;
        double sum_1 = 0.0;
        {
          int64_t spf_split_2 = A_rowPtr_pAi_2;
          if (((A_rowPtr_pAi_1_2 - 1) - spf_split_2) >= 47)
          {
            double sum_3 = 0.0;
            double sum_4 = 0.0;
            double sum_5 = 0.0;
            for (; (spf_split_2 + 3) <= (A_rowPtr_pAi_1_2 - 1); spf_split_2 += 4)
            {
              {
                const int64_t pAj = spf_split_2 + 0;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_1 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 1;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_3 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 2;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_4 += A_data[pAj] * x_vals[px0];
              }
              {
                const int64_t pAj = spf_split_2 + 3;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj_2;
                sum_5 += A_data[pAj] * x_vals[px0];
              }
            }

            sum_1 = (sum_1 + sum_3) + (sum_4 + sum_5);
          }
          for (int64_t pAj = spf_split_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
          {
            const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
            const int64_t px0 = A_colIdx_pAj_2;
            sum_1 += A_data[pAj] * x_vals[px0];
          }

        }
        y_vals[py0] += sum_1;
      }
    }

  }
  if (((1 <= B_numCols) && (1 <= B_numRows)) && (1 <= z_len))
  {
    for (int64_t pBj = 0; pBj <= (z_n - 1); pBj++)
    {
      const int64_t B_colPtr_pBj_2 = B_colPtr[pBj];
      const int64_t B_colPtr_pBj_1_2 = B_colPtr[pBj + 1];
      if ((B_colPtr_pBj_2 + 1) <= B_colPtr_pBj_1_2)
      {
        const int64_t j = pBj;
        for (int64_t pBi = B_colPtr_pBj_2; pBi <= (B_colPtr_pBj_1_2 - 1); pBi++)
        {
          const int64_t B_rowIdx_pBi_2 = B_rowIdx[pBi];
          const int64_t py0 = B_rowIdx_pBi_2;
          {
            const int64_t key_8 = j;
            int64_t lo_6 = 0;
            const int64_t end_10 = (z_len - 1) + 1;
            int64_t hi_7 = end_10;
            while (lo_6 < hi_7)
            {
              const int64_t mid_9 = lo_6 + ((hi_7 - lo_6) / 2);
              if (z_idx[mid_9] < key_8)
                lo_6 = mid_9 + 1;
              else
                hi_7 = mid_9;
            }

            if ((lo_6 < end_10) && (z_idx[lo_6] == key_8))
            {
              const int64_t pz = lo_6;
              const int64_t z_idx_pz_2 = j;
              y_vals[py0] += -2.0 * (B_data[pBi] * z_val[pz]);
            }
          }
        }

      }
    }

  }
  return 0;
}


void spf_kernel_4168d602db_release_state(void)
{
  spf_state_release(&spf_kernel_4168d602db_v0_kept_state, 1);
  spf_state_release(&spf_kernel_4168d602db_v1_kept_state, 1);
  spf_state_release(&spf_kernel_4168d602db_v2_kept_state, 1);
}
