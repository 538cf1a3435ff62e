#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_3D1D5D4394_H_STRUCTS
#define SPF_KERNEL_3D1D5D4394_H_STRUCTS

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


#endif /* SPF_KERNEL_3D1D5D4394_H_STRUCTS */


int spf_kernel_3d1d5d4394(struct spf_CSR *B, struct spf_Dense2 *C, struct spf_Dense2 *D, struct spf_CSR *A)
{
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t D_N0 = D->N0;
  const int64_t D_N1 = D->N1;
  double * restrict D_vals = D->vals;
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  double * restrict A_data = A->data;
  const int64_t N_k = C_N1;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(((((A_numCols == D_N1) && (C_N1 == D_N0)) && (A_numRows == C_N0)) && (A_numRows == B_numRows)) && (A_numCols == B_numCols)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = B_nnz;
    int64_t spf_reached_to = B_nnz;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= C_N1))
    {
      spf_reached_from = spf_min(spf_max(B_rowPtr[0], 0), B_nnz);
      spf_reached_to = spf_max(spf_reached_from, spf_min((B_rowPtr[(A_numRows - 1) + 1] - 1) + 1, B_nnz));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      A_data[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (B_nnz * spf_row_size); spf_zero++)
      A_data[spf_zero] = 0.0;

  }
  const double * restrict spf_read_D_vals = D_vals;
  int64_t spf_D_vals_row_stride = D_N1;
  int64_t spf_D_vals_column_stride = 1;
  double *spf_D_vals_transposed = 0;
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= C_N1))
  {
    {
      const int64_t spf_first = 0;
      const int64_t spf_last = A_numRows - 1;
      int64_t spf_reads = 0;
      if (spf_first <= spf_last)
      {
        {
          const int64_t pBi = spf_last + 1;
          spf_reads = B_rowPtr[pBi];
        }
        {
          const int64_t pBi = spf_first;
          spf_reads -= B_rowPtr[pBi];
        }
      }
      if (((spf_D_vals_transposed == 0) && (D_N0 > 1)) && (spf_reads >= (((int64_t) 12) * D_N1)))
      {
        spf_D_vals_transposed = (double *) spf_malloc_large(((size_t) (D_N0 * D_N1)) * (sizeof(double)));
        if (spf_D_vals_transposed)
        {
          for (int64_t spf_column = 0; spf_column < D_N1; spf_column++)
            for (int64_t spf_row = 0; spf_row < D_N0; spf_row++)
            spf_D_vals_transposed[(spf_column * D_N0) + spf_row] = D_vals[(spf_row * D_N1) + spf_column];


          spf_read_D_vals = spf_D_vals_transposed;
          spf_D_vals_row_stride = 1;
          spf_D_vals_column_stride = D_N0;
        }
      }
    }
    for (int64_t pBi = 0; pBi < ((A_numRows - 1) + 1); pBi++)
    {
      const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
      const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
      if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
      {
        const int64_t i = pBi;
        const int64_t pC0 = i;
        {
          int64_t spf_jam_1 = B_rowPtr_pBi;
          for (; (spf_jam_1 + 3) <= (B_rowPtr_pBi_1 - 1); spf_jam_1 += 4)
          {
            int64_t pBj_lane0 = spf_jam_1 + 0;
            const int64_t B_colIdx_pBj_lane0 = B_colIdx[pBj_lane0];
            const int64_t pD1_lane0 = B_colIdx_pBj_lane0;
            int64_t pBj_lane1 = spf_jam_1 + 1;
            const int64_t B_colIdx_pBj_lane1 = B_colIdx[pBj_lane1];
            const int64_t pD1_lane1 = B_colIdx_pBj_lane1;
            int64_t pBj_lane2 = spf_jam_1 + 2;
            const int64_t B_colIdx_pBj_lane2 = B_colIdx[pBj_lane2];
            const int64_t pD1_lane2 = B_colIdx_pBj_lane2;
            int64_t pBj_lane3 = spf_jam_1 + 3;
            const int64_t B_colIdx_pBj_lane3 = B_colIdx[pBj_lane3];
            const int64_t pD1_lane3 = B_colIdx_pBj_lane3;
            double sum_2 = 0.0;
            double sum_3 = 0.0;
            double sum_4 = 0.0;
            double sum_5 = 0.0;
            for (int64_t pC1 = 0; pC1 <= (C_N1 - 1); pC1++)
            {
              {
                const int64_t k = pC1;
                const int64_t pD0 = k;
                const int64_t pAj = pBj_lane0;
                sum_2 += C_vals[(pC0 * C_N1) + pC1] * spf_read_D_vals[(pD0 * spf_D_vals_row_stride) + (pD1_lane0 * spf_D_vals_column_stride)];
              }
              {
                const int64_t k = pC1;
                const int64_t pD0 = k;
                const int64_t pAj = pBj_lane1;
                sum_3 += C_vals[(pC0 * C_N1) + pC1] * spf_read_D_vals[(pD0 * spf_D_vals_row_stride) + (pD1_lane1 * spf_D_vals_column_stride)];
              }
              {
                const int64_t k = pC1;
                const int64_t pD0 = k;
                const int64_t pAj = pBj_lane2;
                sum_4 += C_vals[(pC0 * C_N1) + pC1] * spf_read_D_vals[(pD0 * spf_D_vals_row_stride) + (pD1_lane2 * spf_D_vals_column_stride)];
              }
              {
                const int64_t k = pC1;
                const int64_t pD0 = k;
                const int64_t pAj = pBj_lane3;
                sum_5 += C_vals[(pC0 * C_N1) + pC1] * spf_read_D_vals[(pD0 * spf_D_vals_row_stride) + (pD1_lane3 * spf_D_vals_column_stride)];
              }
            }

            {
              {
                const int64_t pAj = pBj_lane0;
                A_data[pAj] = B_data[pBj_lane0] * sum_2;
              }
            }
            {
              {
                const int64_t pAj = pBj_lane1;
                A_data[pAj] = B_data[pBj_lane1] * sum_3;
              }
            }
            {
              {
                const int64_t pAj = pBj_lane2;
                A_data[pAj] = B_data[pBj_lane2] * sum_4;
              }
            }
            {
              {
                const int64_t pAj = pBj_lane3;
                A_data[pAj] = B_data[pBj_lane3] * sum_5;
              }
            }
          }

          for (int64_t pBj = spf_jam_1; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
          {
            const int64_t B_colIdx_pBj = B_colIdx[pBj];
            const int64_t pD1 = B_colIdx_pBj;
            double sum_6 = 0.0;
            for (int64_t pC1 = 0; pC1 <= (C_N1 - 1); pC1++)
            {
              const int64_t k = pC1;
              const int64_t pD0 = k;
              const int64_t pAj = pBj;
              sum_6 += C_vals[(pC0 * C_N1) + pC1] * spf_read_D_vals[(pD0 * spf_D_vals_row_stride) + (pD1 * spf_D_vals_column_stride)];
            }

            {
              const int64_t pAj = pBj;
              A_data[pAj] = B_data[pBj] * sum_6;
            }
          }

        }
      }
    }

  }
  free(spf_D_vals_transposed);
  return 0;
}


void spf_kernel_3d1d5d4394_release_state(void)
{
}
