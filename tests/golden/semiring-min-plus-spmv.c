#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_8B3F85B59E_H_STRUCTS
#define SPF_KERNEL_8B3F85B59E_H_STRUCTS

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


#endif /* SPF_KERNEL_8B3F85B59E_H_STRUCTS */


int spf_kernel_8b3f85b59e(struct spf_CSR *A, struct spf_Dense1 *x, struct spf_Dense1 *y)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == y_N0) && (A_numCols == x_N0)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = y_N0;
    int64_t spf_reached_to = y_N0;
    if ((1 <= A_numCols) && (1 <= A_numRows))
    {
      spf_reached_from = spf_min(spf_max(0, 0), y_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_numRows - 1) + 1, y_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      y_vals[spf_zero] = INFINITY;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (y_N0 * spf_row_size); spf_zero++)
      y_vals[spf_zero] = INFINITY;

  }
  if ((1 <= A_numCols) && (1 <= A_numRows))
  {
    {
      const int64_t spf_first = 0;
      const int64_t spf_last = A_numRows - 1;
      int64_t spf_base = 0;
      int64_t spf_total = 0;
      if (spf_first <= spf_last)
      {
        {
          const int64_t pAi = spf_first;
          spf_base = A_rowPtr[pAi];
        }
        {
          const int64_t pAi = spf_last + 1;
          spf_total = ((spf_last + 1) - spf_first) + (A_rowPtr[pAi] - spf_base);
        }
      }
      const int64_t spf_work = spf_total * 1;
      const int spf_want = spf_team_for(spf_work);
      if (spf_want == 1)
      {
        const int64_t spf_from = spf_first;
        const int64_t spf_to = spf_last + 1;
        const int spf_stream_index = 0;
        for (int64_t pAi = spf_from; pAi < spf_to; pAi++)
        {
          const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
          const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
          if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
          {
            const int64_t i = pAi;
            const int64_t py0 = i;
            double sum_1 = INFINITY;
            {
              int64_t spf_split_2 = A_rowPtr_pAi;
              if (((A_rowPtr_pAi_1 - 1) - spf_split_2) >= 47)
              {
                double sum_3 = INFINITY;
                double sum_4 = INFINITY;
                double sum_5 = INFINITY;
                for (; (spf_split_2 + 3) <= (A_rowPtr_pAi_1 - 1); spf_split_2 += 4)
                {
                  {
                    const int64_t pAj = spf_split_2 + 0;
                    const int64_t A_colIdx_pAj = A_colIdx[pAj];
                    const int64_t px0 = A_colIdx_pAj;
                    sum_1 = spf_min_float64(sum_1, A_data[pAj] + x_vals[px0]);
                  }
                  {
                    const int64_t pAj = spf_split_2 + 1;
                    const int64_t A_colIdx_pAj = A_colIdx[pAj];
                    const int64_t px0 = A_colIdx_pAj;
                    sum_3 = spf_min_float64(sum_3, A_data[pAj] + x_vals[px0]);
                  }
                  {
                    const int64_t pAj = spf_split_2 + 2;
                    const int64_t A_colIdx_pAj = A_colIdx[pAj];
                    const int64_t px0 = A_colIdx_pAj;
                    sum_4 = spf_min_float64(sum_4, A_data[pAj] + x_vals[px0]);
                  }
                  {
                    const int64_t pAj = spf_split_2 + 3;
                    const int64_t A_colIdx_pAj = A_colIdx[pAj];
                    const int64_t px0 = A_colIdx_pAj;
                    sum_5 = spf_min_float64(sum_5, A_data[pAj] + x_vals[px0]);
                  }
                }

                sum_1 = spf_min_float64(spf_min_float64(sum_1, sum_3), spf_min_float64(sum_4, sum_5));
              }
              for (int64_t pAj = spf_split_2; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
              {
                const int64_t A_colIdx_pAj = A_colIdx[pAj];
                const int64_t px0 = A_colIdx_pAj;
                sum_1 = spf_min_float64(sum_1, A_data[pAj] + x_vals[px0]);
              }

            }
            y_vals[py0] = sum_1;
          }
          else
          {
            y_vals[pAi] = INFINITY;
          }
        }

      }
      else
      {
        const int spf_pieces = spf_pieces_for(spf_want, spf_work);
        int64_t spf_cuts[SPF_MOST_PIECES + 1];
        spf_cuts[0] = spf_first;
        spf_cuts[spf_pieces] = spf_last + 1;
        for (int spf_k = 1; spf_k < spf_pieces; spf_k++)
        {
          const int64_t spf_goal = ((spf_total / spf_pieces) * spf_k) + (((spf_total % spf_pieces) * spf_k) / spf_pieces);
          int64_t spf_low = spf_cuts[spf_k - 1];
          int64_t spf_high = spf_last + 1;
          while (spf_low < spf_high)
          {
            const int64_t spf_middle = spf_low + ((spf_high - spf_low) / 2);
            int64_t spf_weight;
            {
              const int64_t pAi = spf_middle;
              spf_weight = (spf_middle - spf_first) + (A_rowPtr[pAi] - spf_base);
            }
            if (spf_weight >= spf_goal)
              spf_high = spf_middle;
            else
              spf_low = spf_middle + 1;
          }

          spf_cuts[spf_k] = spf_low;
        }

        const int spf_runs_count = (spf_want < SPF_MOST_PIECES) ? (spf_want) : (SPF_MOST_PIECES);
        spf_run spf_runs[SPF_MOST_PIECES];
        spf_runs_init(spf_runs, spf_runs_count, spf_pieces);
        #pragma omp parallel num_threads(spf_want)
        {
          const int spf_me = spf_thread();
          const int spf_present = spf_team_size();
          int spf_piece;
          int spf_stream_index;
          while ((spf_piece = spf_piece_take(spf_runs, spf_runs_count, spf_present, spf_me, spf_pieces, &spf_stream_index)) >= 0)
          {
            const int64_t spf_from = spf_cuts[spf_piece];
            const int64_t spf_to = spf_cuts[spf_piece + 1];
            for (int64_t pAi = spf_from; pAi < spf_to; pAi++)
            {
              const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
              const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
              if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
              {
                const int64_t i = pAi;
                const int64_t py0 = i;
                double sum_1 = INFINITY;
                {
                  int64_t spf_split_2 = A_rowPtr_pAi;
                  if (((A_rowPtr_pAi_1 - 1) - spf_split_2) >= 47)
                  {
                    double sum_3 = INFINITY;
                    double sum_4 = INFINITY;
                    double sum_5 = INFINITY;
                    for (; (spf_split_2 + 3) <= (A_rowPtr_pAi_1 - 1); spf_split_2 += 4)
                    {
                      {
                        const int64_t pAj = spf_split_2 + 0;
                        const int64_t A_colIdx_pAj = A_colIdx[pAj];
                        const int64_t px0 = A_colIdx_pAj;
                        sum_1 = spf_min_float64(sum_1, A_data[pAj] + x_vals[px0]);
                      }
                      {
                        const int64_t pAj = spf_split_2 + 1;
                        const int64_t A_colIdx_pAj = A_colIdx[pAj];
                        const int64_t px0 = A_colIdx_pAj;
                        sum_3 = spf_min_float64(sum_3, A_data[pAj] + x_vals[px0]);
                      }
                      {
                        const int64_t pAj = spf_split_2 + 2;
                        const int64_t A_colIdx_pAj = A_colIdx[pAj];
                        const int64_t px0 = A_colIdx_pAj;
                        sum_4 = spf_min_float64(sum_4, A_data[pAj] + x_vals[px0]);
                      }
                      {
                        const int64_t pAj = spf_split_2 + 3;
                        const int64_t A_colIdx_pAj = A_colIdx[pAj];
                        const int64_t px0 = A_colIdx_pAj;
                        sum_5 = spf_min_float64(sum_5, A_data[pAj] + x_vals[px0]);
                      }
                    }

                    sum_1 = spf_min_float64(spf_min_float64(sum_1, sum_3), spf_min_float64(sum_4, sum_5));
                  }
                  for (int64_t pAj = spf_split_2; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
                  {
                    const int64_t A_colIdx_pAj = A_colIdx[pAj];
                    const int64_t px0 = A_colIdx_pAj;
                    sum_1 = spf_min_float64(sum_1, A_data[pAj] + x_vals[px0]);
                  }

                }
                y_vals[py0] = sum_1;
              }
              else
              {
                y_vals[pAi] = INFINITY;
              }
            }

          }

        }
      }
    }
  }
  return 0;
}


void spf_kernel_8b3f85b59e_release_state(void)
{
}
