#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_FUSED_02CE9959F4_H_STRUCTS
#define SPF_FUSED_02CE9959F4_H_STRUCTS

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


#endif /* SPF_FUSED_02CE9959F4_H_STRUCTS */


int spf_fused_02ce9959f4(struct spf_CSR *A, struct spf_SV *u, struct spf_SV *v, struct spf_Dense1 *Z)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t u_n = u->n;
  const int64_t u_len = u->len;
  int * restrict u_idx = u->idx;
  double * restrict u_val = u->val;
  const int64_t v_n = v->n;
  const int64_t v_len = v->len;
  int * restrict v_idx = v->idx;
  double * restrict v_val = v->val;
  const int64_t Z_N0 = Z->N0;
  double * restrict Z_vals = Z->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  const int64_t N_k = v_n;
  if (!((v_n == u_n) && (A_numRows == Z_N0)))
  {
    return 1;
  }
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = Z_N0;
    int64_t spf_reached_to = Z_N0;
    if ((1 <= A_numCols) && (1 <= A_numRows))
    {
      spf_reached_from = spf_min(spf_max(0, 0), Z_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_numRows - 1) + 1, Z_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      Z_vals[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (Z_N0 * spf_row_size); spf_zero++)
      Z_vals[spf_zero] = 0.0;

  }
  {
    if ((1 <= A_numCols) && (1 <= A_numRows))
    {
      {
        const int64_t spf_row_size = 1;
        const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
        const int64_t spf_stop = (A_numRows - 1) + 1;
        for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
        {
          const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
          const int64_t spf_zero_to = spf_min(spf_block_end, Z_N0) * spf_row_size;
          for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
            Z_vals[spf_zero] = 0.0;

          for (int64_t i = spf_block; i < spf_block_end; i++)
          {
            const int64_t pAi = i;
            const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
            const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
            if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
            {
              {
                double T_uv[1] = {0.0};
                {
                  if (((1 <= v_n) && (1 <= v_len)) && (1 <= u_len))
                  {
                    int64_t pv_position_1 = 0;
                    double sum_2 = 0.0;
                    for (int64_t pu = 0; pu <= (u_len - 1); pu++)
                    {
                      const int64_t u_idx_pu = u_idx[pu];
                      {
                        const int64_t key_3 = u_idx_pu;
                        while (((pv_position_1 >= 0) && (pv_position_1 <= (v_len - 1))) && (v_idx[pv_position_1] < key_3))
                          pv_position_1++;

                        if (!((pv_position_1 >= 0) && (pv_position_1 <= (v_len - 1))))
                          break;
                        if (((pv_position_1 >= 0) && (pv_position_1 <= (v_len - 1))) && (v_idx[pv_position_1] == key_3))
                        {
                          const int64_t pv = pv_position_1;
                          const int64_t v_idx_pv = u_idx_pu;
                          sum_2 += u_val[pu] * v_val[pv];
                          pv_position_1++;
                        }
                      }
                    }

                    T_uv[0] += sum_2;
                  }
                }
                {
                  if ((1 <= A_numCols) && (1 <= A_numRows))
                  {
                    const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
                    const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
                    const int64_t pZ0 = i;
                    double sum_4 = 0.0;
                    for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
                    {
                      sum_4 += A_data[pAj];
                    }

                    Z_vals[pZ0] += T_uv[0] * sum_4;
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


void spf_fused_02ce9959f4_release_state(void)
{
}
