#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_0ADF90E99D_H_STRUCTS
#define SPF_KERNEL_0ADF90E99D_H_STRUCTS

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

#ifndef SPF_STRUCT_CSF3_7390B26C
#define SPF_STRUCT_CSF3_7390B26C
/*
 * CSF3: compressed sparse fiber, order 3
 */
struct spf_CSF3
{
  int n0;
  int n1;
  int n2;
  int nnz0;
  int nnz1;
  int nnz2;
  int *idx0;
  int *ptr0;
  int *idx1;
  int *ptr1;
  int *idx2;
  double *val;
};
#endif /* SPF_STRUCT_CSF3_7390B26C */

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

#ifndef SPF_STRUCT_CSF3_DENSE_LAST_3E1427BB
#define SPF_STRUCT_CSF3_DENSE_LAST_3E1427BB
/*
 * CSF3_DENSE_LAST: compressed sparse fiber, order 3, with a dense last level
 *   val: double[nnz1][n2], flattened row-major
 */
struct spf_CSF3_DENSE_LAST
{
  int n0;
  int n1;
  int n2;
  int nnz0;
  int nnz1;
  int *idx0;
  int *ptr0;
  int *idx1;
  double *val;
};
#endif /* SPF_STRUCT_CSF3_DENSE_LAST_3E1427BB */


#endif /* SPF_KERNEL_0ADF90E99D_H_STRUCTS */


int spf_kernel_0adf90e99d(struct spf_CSF3 *B, struct spf_Dense2 *C, struct spf_CSF3_DENSE_LAST *A)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_nnz0 = B->nnz0;
  const int64_t B_nnz1 = B->nnz1;
  const int64_t B_nnz2 = B->nnz2;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_ptr0 = B->ptr0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_ptr1 = B->ptr1;
  int * restrict B_idx2 = B->idx2;
  double * restrict B_val = B->val;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t A_n0 = A->n0;
  const int64_t A_n1 = A->n1;
  const int64_t A_n2 = A->n2;
  double * restrict A_val = A->val;
  const int64_t N_l = A_n2;
  const int64_t N_k = B_n2;
  const int64_t N_j = A_n1;
  const int64_t N_i = A_n0;
  if (!((((A_n2 == C_N1) && (B_n2 == C_N0)) && (A_n1 == B_n1)) && (A_n0 == B_n0)))
    return 1;
  {
    const int64_t spf_row_size = 1 * A_n2;
    int64_t spf_reached_from = B_nnz1;
    int64_t spf_reached_to = B_nnz1;
    if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
    {
      spf_reached_from = spf_min(spf_max(B_ptr0[0], 0), B_nnz1);
      spf_reached_to = spf_max(spf_reached_from, spf_min((B_ptr0[(B_nnz0 - 1) + 1] - 1) + 1, B_nnz1));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      A_val[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (B_nnz1 * spf_row_size); spf_zero++)
      A_val[spf_zero] = 0.0;

  }
  if (A_n2 == 16)
  {
    if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
    {
      {
        const int64_t spf_row_size = 1 * A_n2;
        const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
        const int64_t spf_stop = (B_nnz0 - 1) + 1;
        for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
        {
          const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
          const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
          for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
            A_val[spf_zero] = 0.0;

          for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
          {
            const int64_t B_ptr0_pB0 = B_ptr0[pB0];
            const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
            if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
            {
              for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
              {
                const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                {
                  for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                  {
                    const int64_t B_idx2_pB2 = B_idx2[pB2];
                    const int64_t pC0 = B_idx2_pB2;
                    if (0 <= (A_n2 - 1))
                    {
                      const double factor_4 = B_val[pB2];
                      #pragma GCC ivdep
                      for (int64_t pC1 = 0; pC1 <= (A_n2 - 1); pC1++)
                      {
                        const int64_t l = pC1;
                        const int64_t pA2 = l;
                        const int64_t pA1 = pB1;
                        A_val[(pA1 * A_n2) + pA2] += factor_4 * C_vals[(pC0 * C_N1) + pC1];
                      }

                    }
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
    if (A_n2 == 32)
  {
    if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
    {
      {
        const int64_t spf_row_size = 1 * A_n2;
        const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
        const int64_t spf_stop = (B_nnz0 - 1) + 1;
        for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
        {
          const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
          const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
          for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
            A_val[spf_zero] = 0.0;

          for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
          {
            const int64_t B_ptr0_pB0 = B_ptr0[pB0];
            const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
            if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
            {
              for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
              {
                const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                {
                  for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                  {
                    const int64_t B_idx2_pB2 = B_idx2[pB2];
                    const int64_t pC0 = B_idx2_pB2;
                    if (0 <= (A_n2 - 1))
                    {
                      const double factor_3 = B_val[pB2];
                      #pragma GCC ivdep
                      for (int64_t pC1 = 0; pC1 <= (A_n2 - 1); pC1++)
                      {
                        const int64_t l = pC1;
                        const int64_t pA2 = l;
                        const int64_t pA1 = pB1;
                        A_val[(pA1 * A_n2) + pA2] += factor_3 * C_vals[(pC0 * C_N1) + pC1];
                      }

                    }
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
    if (A_n2 == 64)
  {
    if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
    {
      {
        const int64_t spf_row_size = 1 * A_n2;
        const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
        const int64_t spf_stop = (B_nnz0 - 1) + 1;
        for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
        {
          const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
          const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
          for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
            A_val[spf_zero] = 0.0;

          for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
          {
            const int64_t B_ptr0_pB0 = B_ptr0[pB0];
            const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
            if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
            {
              for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
              {
                const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                {
                  for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                  {
                    const int64_t B_idx2_pB2 = B_idx2[pB2];
                    const int64_t pC0 = B_idx2_pB2;
                    if (0 <= (A_n2 - 1))
                    {
                      const double factor_2 = B_val[pB2];
                      #pragma GCC ivdep
                      for (int64_t pC1 = 0; pC1 <= (A_n2 - 1); pC1++)
                      {
                        const int64_t l = pC1;
                        const int64_t pA2 = l;
                        const int64_t pA1 = pB1;
                        A_val[(pA1 * A_n2) + pA2] += factor_2 * C_vals[(pC0 * C_N1) + pC1];
                      }

                    }
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
    if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= B_n2)) && (1 <= B_nnz0))
    {
      {
        const int64_t spf_row_size = 1 * A_n2;
        const int64_t spf_block_rows = ((spf_row_size > 0) && (spf_row_size < 2048)) ? (2048 / spf_row_size) : (1);
        const int64_t spf_stop = (B_nnz0 - 1) + 1;
        for (int64_t spf_block = 0; spf_block < spf_stop; spf_block += spf_block_rows)
        {
          const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
          const int64_t spf_zero_to = spf_min(B_ptr0[spf_block_end], B_nnz1) * spf_row_size;
          for (int64_t spf_zero = spf_max(B_ptr0[spf_block], 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
            A_val[spf_zero] = 0.0;

          for (int64_t pB0 = spf_block; pB0 < spf_block_end; pB0++)
          {
            const int64_t B_ptr0_pB0 = B_ptr0[pB0];
            const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
            if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
            {
              for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
              {
                const int64_t B_ptr1_pB1 = B_ptr1[pB1];
                const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
                if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
                {
                  for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
                  {
                    const int64_t B_idx2_pB2 = B_idx2[pB2];
                    const int64_t pC0 = B_idx2_pB2;
                    if (0 <= (A_n2 - 1))
                    {
                      const double factor_1 = B_val[pB2];
                      #pragma GCC ivdep
                      for (int64_t pC1 = 0; pC1 <= (A_n2 - 1); pC1++)
                      {
                        const int64_t l = pC1;
                        const int64_t pA2 = l;
                        const int64_t pA1 = pB1;
                        A_val[(pA1 * A_n2) + pA2] += factor_1 * C_vals[(pC0 * C_N1) + pC1];
                      }

                    }
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


void spf_kernel_0adf90e99d_release_state(void)
{
}
