#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_60F2530394_H_STRUCTS
#define SPF_KERNEL_60F2530394_H_STRUCTS

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

#ifndef SPF_STRUCT_DIA_7DEB9B31
#define SPF_STRUCT_DIA_7DEB9B31
/*
 * DIA: diagonal format (offsets sorted, one slot per row and diagonal)
 *   data: double[ndiag][numRows], flattened row-major
 */
struct spf_DIA
{
  int numRows;
  int numCols;
  int ndiag;
  int *offsets;
  double *data;
};
#endif /* SPF_STRUCT_DIA_7DEB9B31 */

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


#endif /* SPF_KERNEL_60F2530394_H_STRUCTS */


int spf_kernel_60f2530394_v0(struct spf_DIA *A, struct spf_Dense1 *x, struct spf_Dense1 *y)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_ndiag = A->ndiag;
  int * restrict A_offsets = A->offsets;
  double * restrict A_data = A->data;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_i = A_numCols;
  if (!(((A_numCols == y_N0) && (A_numCols == x_N0)) && (A_numCols == A_numRows)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < y_N0; spf_zero++)
    y_vals[spf_zero] = 0.0;

  if (A_numCols == 16)
  {
    if ((1 <= A_numCols) && (1 <= A_ndiag))
    {
      int64_t pAd_position_7 = 0;
      {
        const int64_t key_8 = 0;
        while (((pAd_position_7 >= 0) && (pAd_position_7 <= (A_ndiag - 1))) && (A_offsets[pAd_position_7] < key_8))
          pAd_position_7++;

        if (((pAd_position_7 >= 0) && (pAd_position_7 <= (A_ndiag - 1))) && (A_offsets[pAd_position_7] == key_8))
        {
          const int64_t pAd = pAd_position_7;
          const int64_t A_offsets_pAd_2 = 0;
          #pragma GCC ivdep
          for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
          {
            const int64_t i = pAi;
            const int64_t py0 = i;
            const int64_t px0 = i;
            y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
          }

          pAd_position_7++;
        }
      }
    }
  }
  else
    if (A_numCols == 32)
  {
    if ((1 <= A_numCols) && (1 <= A_ndiag))
    {
      int64_t pAd_position_5 = 0;
      {
        const int64_t key_6 = 0;
        while (((pAd_position_5 >= 0) && (pAd_position_5 <= (A_ndiag - 1))) && (A_offsets[pAd_position_5] < key_6))
          pAd_position_5++;

        if (((pAd_position_5 >= 0) && (pAd_position_5 <= (A_ndiag - 1))) && (A_offsets[pAd_position_5] == key_6))
        {
          const int64_t pAd = pAd_position_5;
          const int64_t A_offsets_pAd_2 = 0;
          #pragma GCC ivdep
          for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
          {
            const int64_t i = pAi;
            const int64_t py0 = i;
            const int64_t px0 = i;
            y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
          }

          pAd_position_5++;
        }
      }
    }
  }
  else
    if (A_numCols == 64)
  {
    if ((1 <= A_numCols) && (1 <= A_ndiag))
    {
      int64_t pAd_position_3 = 0;
      {
        const int64_t key_4 = 0;
        while (((pAd_position_3 >= 0) && (pAd_position_3 <= (A_ndiag - 1))) && (A_offsets[pAd_position_3] < key_4))
          pAd_position_3++;

        if (((pAd_position_3 >= 0) && (pAd_position_3 <= (A_ndiag - 1))) && (A_offsets[pAd_position_3] == key_4))
        {
          const int64_t pAd = pAd_position_3;
          const int64_t A_offsets_pAd_2 = 0;
          #pragma GCC ivdep
          for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
          {
            const int64_t i = pAi;
            const int64_t py0 = i;
            const int64_t px0 = i;
            y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
          }

          pAd_position_3++;
        }
      }
    }
  }
  else
  {
    if ((1 <= A_numCols) && (1 <= A_ndiag))
    {
      int64_t pAd_position_1 = 0;
      {
        const int64_t key_2 = 0;
        while (((pAd_position_1 >= 0) && (pAd_position_1 <= (A_ndiag - 1))) && (A_offsets[pAd_position_1] < key_2))
          pAd_position_1++;

        if (((pAd_position_1 >= 0) && (pAd_position_1 <= (A_ndiag - 1))) && (A_offsets[pAd_position_1] == key_2))
        {
          const int64_t pAd = pAd_position_1;
          const int64_t A_offsets_pAd_2 = 0;
          #pragma GCC ivdep
          for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
          {
            const int64_t i = pAi;
            const int64_t py0 = i;
            const int64_t px0 = i;
            y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
          }

          pAd_position_1++;
        }
      }
    }
  }
  return 0;
}


static spf_state *spf_kernel_60f2530394_v1_kept_state = 0;

static int spf_kernel_60f2530394_v1_run(struct spf_DIA *A, struct spf_Dense1 *x, struct spf_Dense1 *y, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_ndiag = A->ndiag;
  int * restrict A_offsets = A->offsets;
  double * restrict A_data = A->data;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_i = A_numCols;
  if (!(((A_numCols == y_N0) && (A_numCols == x_N0)) && (A_numCols == A_numRows)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < y_N0; spf_zero++)
    y_vals[spf_zero] = 0.0;

  if ((1 <= A_numCols) && (1 <= A_ndiag))
  {
    int64_t * const pAd_table_1 = spf_hash_fill(&spf_kept[0], ((A_ndiag - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (A_ndiag - 1); fill_2++)
      spf_hash_put(pAd_table_1, A_offsets[fill_2], fill_2);

    {
      const int64_t q_3 = spf_hash_get(pAd_table_1, 0);
      if (q_3 >= 0)
      {
        const int64_t pAd = q_3;
        const int64_t A_offsets_pAd_2 = 0;
        #pragma GCC ivdep
        for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
        {
          const int64_t i = pAi;
          const int64_t py0 = i;
          const int64_t px0 = i;
          y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
        }

      }
    }
  }
  return 0;
}


int spf_kernel_60f2530394_v1(struct spf_DIA *A, struct spf_Dense1 *x, struct spf_Dense1 *y)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_60f2530394_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_60f2530394_v1_run(A, x, y, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_60f2530394_v1_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_60f2530394_v2_kept_state = 0;

static int spf_kernel_60f2530394_v2_run(struct spf_DIA *A, struct spf_Dense1 *x, struct spf_Dense1 *y, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_ndiag = A->ndiag;
  int * restrict A_offsets = A->offsets;
  double * restrict A_data = A->data;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_i = A_numCols;
  if (!(((A_numCols == y_N0) && (A_numCols == x_N0)) && (A_numCols == A_numRows)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < y_N0; spf_zero++)
    y_vals[spf_zero] = 0.0;

  if ((1 <= A_numCols) && (1 <= A_ndiag))
  {
    int64_t * const pAd_table_2 = spf_bitmap_fill(&spf_kept[0], (A_numCols + A_numRows) - 1);
    for (int64_t fill_3 = 0; fill_3 <= (A_ndiag - 1); fill_3++)
      spf_bitmap_put(pAd_table_2, A_offsets[fill_3] - ((-A_numRows) + 1), fill_3);

    const spf_bitmap pAd_bitmap_1 = spf_bitmap_view(pAd_table_2);
    {
      const int64_t q_4 = spf_bitmap_get(pAd_bitmap_1, A_numRows - 1);
      if (q_4 >= 0)
      {
        const int64_t pAd = q_4;
        const int64_t A_offsets_pAd_2 = 0;
        #pragma GCC ivdep
        for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
        {
          const int64_t i = pAi;
          const int64_t py0 = i;
          const int64_t px0 = i;
          y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
        }

      }
    }
  }
  return 0;
}


int spf_kernel_60f2530394_v2(struct spf_DIA *A, struct spf_Dense1 *x, struct spf_Dense1 *y)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_60f2530394_v2_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_60f2530394_v2_run(A, x, y, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_60f2530394_v2_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_60f2530394_v3(struct spf_DIA *A, struct spf_Dense1 *x, struct spf_Dense1 *y)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_ndiag = A->ndiag;
  int * restrict A_offsets = A->offsets;
  double * restrict A_data = A->data;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_i = A_numCols;
  if (!(((A_numCols == y_N0) && (A_numCols == x_N0)) && (A_numCols == A_numRows)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < y_N0; spf_zero++)
    y_vals[spf_zero] = 0.0;

  if (A_numCols == 16)
  {
    if ((1 <= A_numCols) && (1 <= A_ndiag))
    {
      {
        const int64_t key_18 = 0;
        int64_t lo_16 = 0;
        const int64_t end_20 = (A_ndiag - 1) + 1;
        int64_t hi_17 = end_20;
        while (lo_16 < hi_17)
        {
          const int64_t mid_19 = lo_16 + ((hi_17 - lo_16) / 2);
          if (A_offsets[mid_19] < key_18)
            lo_16 = mid_19 + 1;
          else
            hi_17 = mid_19;
        }

        if ((lo_16 < end_20) && (A_offsets[lo_16] == key_18))
        {
          const int64_t pAd = lo_16;
          const int64_t A_offsets_pAd_2 = 0;
          #pragma GCC ivdep
          for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
          {
            const int64_t i = pAi;
            const int64_t py0 = i;
            const int64_t px0 = i;
            y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
          }

        }
      }
    }
  }
  else
    if (A_numCols == 32)
  {
    if ((1 <= A_numCols) && (1 <= A_ndiag))
    {
      {
        const int64_t key_13 = 0;
        int64_t lo_11 = 0;
        const int64_t end_15 = (A_ndiag - 1) + 1;
        int64_t hi_12 = end_15;
        while (lo_11 < hi_12)
        {
          const int64_t mid_14 = lo_11 + ((hi_12 - lo_11) / 2);
          if (A_offsets[mid_14] < key_13)
            lo_11 = mid_14 + 1;
          else
            hi_12 = mid_14;
        }

        if ((lo_11 < end_15) && (A_offsets[lo_11] == key_13))
        {
          const int64_t pAd = lo_11;
          const int64_t A_offsets_pAd_2 = 0;
          #pragma GCC ivdep
          for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
          {
            const int64_t i = pAi;
            const int64_t py0 = i;
            const int64_t px0 = i;
            y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
          }

        }
      }
    }
  }
  else
    if (A_numCols == 64)
  {
    if ((1 <= A_numCols) && (1 <= A_ndiag))
    {
      {
        const int64_t key_8 = 0;
        int64_t lo_6 = 0;
        const int64_t end_10 = (A_ndiag - 1) + 1;
        int64_t hi_7 = end_10;
        while (lo_6 < hi_7)
        {
          const int64_t mid_9 = lo_6 + ((hi_7 - lo_6) / 2);
          if (A_offsets[mid_9] < key_8)
            lo_6 = mid_9 + 1;
          else
            hi_7 = mid_9;
        }

        if ((lo_6 < end_10) && (A_offsets[lo_6] == key_8))
        {
          const int64_t pAd = lo_6;
          const int64_t A_offsets_pAd_2 = 0;
          #pragma GCC ivdep
          for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
          {
            const int64_t i = pAi;
            const int64_t py0 = i;
            const int64_t px0 = i;
            y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
          }

        }
      }
    }
  }
  else
  {
    if ((1 <= A_numCols) && (1 <= A_ndiag))
    {
      {
        const int64_t key_3 = 0;
        int64_t lo_1 = 0;
        const int64_t end_5 = (A_ndiag - 1) + 1;
        int64_t hi_2 = end_5;
        while (lo_1 < hi_2)
        {
          const int64_t mid_4 = lo_1 + ((hi_2 - lo_1) / 2);
          if (A_offsets[mid_4] < key_3)
            lo_1 = mid_4 + 1;
          else
            hi_2 = mid_4;
        }

        if ((lo_1 < end_5) && (A_offsets[lo_1] == key_3))
        {
          const int64_t pAd = lo_1;
          const int64_t A_offsets_pAd_2 = 0;
          #pragma GCC ivdep
          for (int64_t pAi = 0; pAi <= (A_numCols - 1); pAi++)
          {
            const int64_t i = pAi;
            const int64_t py0 = i;
            const int64_t px0 = i;
            y_vals[py0] += A_data[(pAd * A_numRows) + pAi] * x_vals[px0];
          }

        }
      }
    }
  }
  return 0;
}


void spf_kernel_60f2530394_release_state(void)
{
  spf_state_release(&spf_kernel_60f2530394_v1_kept_state, 1);
  spf_state_release(&spf_kernel_60f2530394_v2_kept_state, 1);
}
