#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_F5CF916994_H_STRUCTS
#define SPF_KERNEL_F5CF916994_H_STRUCTS

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

#ifndef SPF_STRUCT_WARP24_710EEA41
#define SPF_STRUCT_WARP24_710EEA41
/*
 * WARP24: 2:4 structured sparsity (two entries per group of four columns)
 *   val: double[NR][2 * NG], flattened row-major
 *   meta: uint8_t[NR][2 * NG], flattened row-major
 */
struct spf_WARP24
{
  int NR;
  int NC;
  int NG;
  double *val;
  uint8_t *meta;
};
#endif /* SPF_STRUCT_WARP24_710EEA41 */

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


#endif /* SPF_KERNEL_F5CF916994_H_STRUCTS */


int spf_kernel_f5cf916994(struct spf_WARP24 *A, struct spf_Dense1 *x, struct spf_Dense1 *y)
{
  const int64_t A_NR = A->NR;
  const int64_t A_NC = A->NC;
  const int64_t A_NG = A->NG;
  double * restrict A_val = A->val;
  uint8_t * restrict A_meta = A->meta;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_NC;
  const int64_t N_i = A_NR;
  if (!((A_NR == y_N0) && (A_NC == x_N0)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = y_N0;
    int64_t spf_reached_to = y_N0;
    if (((1 <= A_NC) && (1 <= A_NR)) && (1 <= A_NG))
    {
      spf_reached_from = spf_min(spf_max(0, 0), y_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_NR - 1) + 1, y_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (y_N0 * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

  }
  if (((1 <= A_NC) && (1 <= A_NR)) && (1 <= A_NG))
  {
    for (int64_t pAi = 0; pAi < ((A_NR - 1) + 1); pAi++)
    {
      const int64_t i = pAi;
      const int64_t py0 = i;
      double sum_1 = 0.0;
      for (int64_t pAg = 0; pAg <= (A_NG - 1); pAg++)
      {
        for (int64_t pAk = 0; pAk <= 1; pAk++)
        {
          const int64_t A_meta_pAi_2_pAg_pAk = A_meta[(pAi * (2 * A_NG)) + ((2 * pAg) + pAk)];
          if (((A_meta_pAi_2_pAg_pAk + (4 * pAg)) + 1) <= A_NC)
          {
            const int64_t j = A_meta_pAi_2_pAg_pAk + (4 * pAg);
            const int64_t px0 = j;
            sum_1 += A_val[(pAi * (2 * A_NG)) + ((2 * pAg) + pAk)] * x_vals[px0];
          }
        }

      }

      y_vals[py0] = sum_1;
    }

  }
  return 0;
}


void spf_kernel_f5cf916994_release_state(void)
{
}
