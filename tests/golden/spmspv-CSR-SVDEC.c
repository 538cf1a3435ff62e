#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_32EF1A5B9E_H_STRUCTS
#define SPF_KERNEL_32EF1A5B9E_H_STRUCTS

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

#ifndef SPF_STRUCT_SV_DEC_378C9FBF
#define SPF_STRUCT_SV_DEC_378C9FBF
/*
 * SV_DEC: sparse vector with indices in decreasing order
 */
struct spf_SV_DEC
{
  int n;
  int len;
  int *idx;
  double *val;
};
#endif /* SPF_STRUCT_SV_DEC_378C9FBF */

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


#endif /* SPF_KERNEL_32EF1A5B9E_H_STRUCTS */


int spf_kernel_32ef1a5b9e_v0(struct spf_CSR *A, struct spf_SV_DEC *x, struct spf_Dense1 *y)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == y_N0) && (A_numCols == x_n)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = y_N0;
    int64_t spf_reached_to = y_N0;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len))
    {
      spf_reached_from = spf_min(spf_max(0, 0), y_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_numRows - 1) + 1, y_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (y_N0 * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

  }
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len))
  {
    for (int64_t pAi = 0; pAi < ((A_numRows - 1) + 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        const int64_t py0 = i;
        int64_t px_position_1 = x_len - 1;
        double sum_2 = 0.0;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t key_3 = A_colIdx_pAj_2;
            while (((px_position_1 >= 0) && (px_position_1 <= (x_len - 1))) && (x_idx[px_position_1] < key_3))
              px_position_1--;

            if (!((px_position_1 >= 0) && (px_position_1 <= (x_len - 1))))
              break;
            if (((px_position_1 >= 0) && (px_position_1 <= (x_len - 1))) && (x_idx[px_position_1] == key_3))
            {
              const int64_t px = px_position_1;
              const int64_t x_idx_px_2 = A_colIdx_pAj_2;
              sum_2 += A_data[pAj] * x_val[px];
              px_position_1--;
            }
          }
        }

        y_vals[py0] = sum_2;
      }
      else
      {
        y_vals[pAi] = 0.0;
      }
    }

  }
  return 0;
}


static spf_state *spf_kernel_32ef1a5b9e_v1_kept_state = 0;

static int spf_kernel_32ef1a5b9e_v1_run(struct spf_CSR *A, struct spf_SV_DEC *x, struct spf_Dense1 *y, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == y_N0) && (A_numCols == x_n)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = y_N0;
    int64_t spf_reached_to = y_N0;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len))
    {
      spf_reached_from = spf_min(spf_max(0, 0), y_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_numRows - 1) + 1, y_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (y_N0 * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

  }
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len))
  {
    int64_t * const px_table_1 = spf_hash_fill(&spf_kept[0], ((x_len - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (x_len - 1); fill_2++)
      spf_hash_put(px_table_1, x_idx[fill_2], fill_2);

    for (int64_t pAi = 0; pAi < ((A_numRows - 1) + 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        const int64_t py0 = i;
        double sum_3 = 0.0;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t q_4 = spf_hash_get(px_table_1, A_colIdx_pAj_2);
            if (q_4 >= 0)
            {
              const int64_t px = q_4;
              const int64_t x_idx_px_2 = A_colIdx_pAj_2;
              sum_3 += A_data[pAj] * x_val[px];
            }
          }
        }

        y_vals[py0] = sum_3;
      }
      else
      {
        y_vals[pAi] = 0.0;
      }
    }

  }
  return 0;
}


int spf_kernel_32ef1a5b9e_v1(struct spf_CSR *A, struct spf_SV_DEC *x, struct spf_Dense1 *y)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_32ef1a5b9e_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_32ef1a5b9e_v1_run(A, x, y, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_32ef1a5b9e_v1_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_32ef1a5b9e_v2_kept_state = 0;

static int spf_kernel_32ef1a5b9e_v2_run(struct spf_CSR *A, struct spf_SV_DEC *x, struct spf_Dense1 *y, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == y_N0) && (A_numCols == x_n)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = y_N0;
    int64_t spf_reached_to = y_N0;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len))
    {
      spf_reached_from = spf_min(spf_max(0, 0), y_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_numRows - 1) + 1, y_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (y_N0 * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

  }
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len))
  {
    int64_t * const px_table_2 = spf_bitmap_fill(&spf_kept[0], x_n);
    for (int64_t fill_3 = 0; fill_3 <= (x_len - 1); fill_3++)
      spf_bitmap_put(px_table_2, x_idx[fill_3], fill_3);

    const spf_bitmap px_bitmap_1 = spf_bitmap_view(px_table_2);
    for (int64_t pAi = 0; pAi < ((A_numRows - 1) + 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        const int64_t py0 = i;
        double sum_4 = 0.0;
        {
          int64_t spf_split_8 = A_rowPtr_pAi_2;
          if (((A_rowPtr_pAi_1_2 - 1) - spf_split_8) >= 47)
          {
            double sum_9 = 0.0;
            double sum_10 = 0.0;
            double sum_11 = 0.0;
            for (; (spf_split_8 + 3) <= (A_rowPtr_pAi_1_2 - 1); spf_split_8 += 4)
            {
              {
                const int64_t pAj = spf_split_8 + 0;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                if (px_bitmap_1.masked)
                {
                  const int64_t key_13 = A_colIdx_pAj_2;
                  const int64_t q_12 = spf_bitmap_masked(px_bitmap_1, key_13);
                  const uint64_t hit_14 = spf_bitmap_hit(px_bitmap_1, key_13);
                  const int64_t px = q_12;
                  const int64_t x_idx_px_2 = A_colIdx_pAj_2;
                  sum_4 += spf_masked(A_data[pAj] * x_val[px], hit_14);
                }
                else
                {
                  const int64_t q_12 = spf_bitmap_get(px_bitmap_1, A_colIdx_pAj_2);
                  if (q_12 >= 0)
                  {
                    const int64_t px = q_12;
                    const int64_t x_idx_px_2 = A_colIdx_pAj_2;
                    sum_4 += A_data[pAj] * x_val[px];
                  }
                }
              }
              {
                const int64_t pAj = spf_split_8 + 1;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                if (px_bitmap_1.masked)
                {
                  const int64_t key_16 = A_colIdx_pAj_2;
                  const int64_t q_15 = spf_bitmap_masked(px_bitmap_1, key_16);
                  const uint64_t hit_17 = spf_bitmap_hit(px_bitmap_1, key_16);
                  const int64_t px = q_15;
                  const int64_t x_idx_px_2 = A_colIdx_pAj_2;
                  sum_9 += spf_masked(A_data[pAj] * x_val[px], hit_17);
                }
                else
                {
                  const int64_t q_15 = spf_bitmap_get(px_bitmap_1, A_colIdx_pAj_2);
                  if (q_15 >= 0)
                  {
                    const int64_t px = q_15;
                    const int64_t x_idx_px_2 = A_colIdx_pAj_2;
                    sum_9 += A_data[pAj] * x_val[px];
                  }
                }
              }
              {
                const int64_t pAj = spf_split_8 + 2;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                if (px_bitmap_1.masked)
                {
                  const int64_t key_19 = A_colIdx_pAj_2;
                  const int64_t q_18 = spf_bitmap_masked(px_bitmap_1, key_19);
                  const uint64_t hit_20 = spf_bitmap_hit(px_bitmap_1, key_19);
                  const int64_t px = q_18;
                  const int64_t x_idx_px_2 = A_colIdx_pAj_2;
                  sum_10 += spf_masked(A_data[pAj] * x_val[px], hit_20);
                }
                else
                {
                  const int64_t q_18 = spf_bitmap_get(px_bitmap_1, A_colIdx_pAj_2);
                  if (q_18 >= 0)
                  {
                    const int64_t px = q_18;
                    const int64_t x_idx_px_2 = A_colIdx_pAj_2;
                    sum_10 += A_data[pAj] * x_val[px];
                  }
                }
              }
              {
                const int64_t pAj = spf_split_8 + 3;
                const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
                if (px_bitmap_1.masked)
                {
                  const int64_t key_22 = A_colIdx_pAj_2;
                  const int64_t q_21 = spf_bitmap_masked(px_bitmap_1, key_22);
                  const uint64_t hit_23 = spf_bitmap_hit(px_bitmap_1, key_22);
                  const int64_t px = q_21;
                  const int64_t x_idx_px_2 = A_colIdx_pAj_2;
                  sum_11 += spf_masked(A_data[pAj] * x_val[px], hit_23);
                }
                else
                {
                  const int64_t q_21 = spf_bitmap_get(px_bitmap_1, A_colIdx_pAj_2);
                  if (q_21 >= 0)
                  {
                    const int64_t px = q_21;
                    const int64_t x_idx_px_2 = A_colIdx_pAj_2;
                    sum_11 += A_data[pAj] * x_val[px];
                  }
                }
              }
            }

            sum_4 = (sum_4 + sum_9) + (sum_10 + sum_11);
          }
          for (int64_t pAj = spf_split_8; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
          {
            const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
            if (px_bitmap_1.masked)
            {
              const int64_t key_6 = A_colIdx_pAj_2;
              const int64_t q_5 = spf_bitmap_masked(px_bitmap_1, key_6);
              const uint64_t hit_7 = spf_bitmap_hit(px_bitmap_1, key_6);
              const int64_t px = q_5;
              const int64_t x_idx_px_2 = A_colIdx_pAj_2;
              sum_4 += spf_masked(A_data[pAj] * x_val[px], hit_7);
            }
            else
            {
              const int64_t q_5 = spf_bitmap_get(px_bitmap_1, A_colIdx_pAj_2);
              if (q_5 >= 0)
              {
                const int64_t px = q_5;
                const int64_t x_idx_px_2 = A_colIdx_pAj_2;
                sum_4 += A_data[pAj] * x_val[px];
              }
            }
          }

        }
        y_vals[py0] = sum_4;
      }
      else
      {
        y_vals[pAi] = 0.0;
      }
    }

  }
  return 0;
}


int spf_kernel_32ef1a5b9e_v2(struct spf_CSR *A, struct spf_SV_DEC *x, struct spf_Dense1 *y)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_32ef1a5b9e_v2_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_32ef1a5b9e_v2_run(A, x, y, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_32ef1a5b9e_v2_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_32ef1a5b9e_v3(struct spf_CSR *A, struct spf_SV_DEC *x, struct spf_Dense1 *y)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == y_N0) && (A_numCols == x_n)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = y_N0;
    int64_t spf_reached_to = y_N0;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len))
    {
      spf_reached_from = spf_min(spf_max(0, 0), y_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_numRows - 1) + 1, y_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (y_N0 * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

  }
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len))
  {
    for (int64_t pAi = 0; pAi < ((A_numRows - 1) + 1); pAi++)
    {
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = pAi;
        const int64_t py0 = i;
        double sum_1 = 0.0;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t key_4 = A_colIdx_pAj_2;
            int64_t lo_2 = 0;
            const int64_t end_6 = (x_len - 1) + 1;
            int64_t hi_3 = end_6;
            while (lo_2 < hi_3)
            {
              const int64_t mid_5 = lo_2 + ((hi_3 - lo_2) / 2);
              if (x_idx[mid_5] > key_4)
                lo_2 = mid_5 + 1;
              else
                hi_3 = mid_5;
            }

            if ((lo_2 < end_6) && (x_idx[lo_2] == key_4))
            {
              const int64_t px = lo_2;
              const int64_t x_idx_px_2 = A_colIdx_pAj_2;
              sum_1 += A_data[pAj] * x_val[px];
            }
          }
        }

        y_vals[py0] = sum_1;
      }
      else
      {
        y_vals[pAi] = 0.0;
      }
    }

  }
  return 0;
}


void spf_kernel_32ef1a5b9e_release_state(void)
{
  spf_state_release(&spf_kernel_32ef1a5b9e_v1_kept_state, 1);
  spf_state_release(&spf_kernel_32ef1a5b9e_v2_kept_state, 1);
}
