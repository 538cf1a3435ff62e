#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_0DA1AC67F4_H_STRUCTS
#define SPF_KERNEL_0DA1AC67F4_H_STRUCTS

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

#ifndef SPF_STRUCT_COO3_2EA36B8E
#define SPF_STRUCT_COO3_2EA36B8E
/*
 * COO3: sorted coordinate list, order 3
 */
struct spf_COO3
{
  int n0;
  int n1;
  int n2;
  int nnz;
  int *idx0;
  int *idx1;
  int *idx2;
  double *val;
};
#endif /* SPF_STRUCT_COO3_2EA36B8E */

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


#endif /* SPF_KERNEL_0DA1AC67F4_H_STRUCTS */


int spf_kernel_0da1ac67f4(struct spf_COO3 *B, struct spf_Dense2 *C, struct spf_Dense2 *D, struct spf_Dense2 *A)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_nnz = B->nnz;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_idx2 = B->idx2;
  double * restrict B_val = B->val;
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t D_N0 = D->N0;
  const int64_t D_N1 = D->N1;
  double * restrict D_vals = D->vals;
  const int64_t A_N0 = A->N0;
  const int64_t A_N1 = A->N1;
  double * restrict A_vals = A->vals;
  const int64_t N_k = B_n2;
  const int64_t N_j = B_n1;
  const int64_t N_i = A_N0;
  const int64_t N_a = A_N1;
  if (!(((((A_N1 == D_N1) && (B_n2 == D_N0)) && (A_N1 == C_N1)) && (B_n1 == C_N0)) && (A_N0 == B_n0)))
    return 1;
  for (int64_t spf_zero = 0; spf_zero < (A_N0 * A_N1); spf_zero++)
    A_vals[spf_zero] = 0.0;

  if (A_N1 == 16)
  {
    if (((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= B_nnz))
    {
      for (int64_t pB = 0; pB <= (B_nnz - 1); pB++)
      {
        const int64_t B_idx0_pB = B_idx0[pB];
        const int64_t B_idx1_pB = B_idx1[pB];
        const int64_t B_idx2_pB = B_idx2[pB];
        const int64_t pA0 = B_idx0_pB;
        const int64_t pC0 = B_idx1_pB;
        const int64_t pD0 = B_idx2_pB;
        if (0 <= (A_N1 - 1))
        {
          const double factor_4 = B_val[pB];
          #pragma GCC ivdep
          for (int64_t pC1 = 0; pC1 <= (A_N1 - 1); pC1++)
          {
            const int64_t a = pC1;
            const int64_t pA1 = a;
            const int64_t pD1 = a;
            A_vals[(pA0 * A_N1) + pA1] += (factor_4 * C_vals[(pC0 * C_N1) + pC1]) * D_vals[(pD0 * D_N1) + pD1];
          }

        }
      }

    }
  }
  else
    if (A_N1 == 32)
  {
    if (((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= B_nnz))
    {
      for (int64_t pB = 0; pB <= (B_nnz - 1); pB++)
      {
        const int64_t B_idx0_pB = B_idx0[pB];
        const int64_t B_idx1_pB = B_idx1[pB];
        const int64_t B_idx2_pB = B_idx2[pB];
        const int64_t pA0 = B_idx0_pB;
        const int64_t pC0 = B_idx1_pB;
        const int64_t pD0 = B_idx2_pB;
        if (0 <= (A_N1 - 1))
        {
          const double factor_3 = B_val[pB];
          #pragma GCC ivdep
          for (int64_t pC1 = 0; pC1 <= (A_N1 - 1); pC1++)
          {
            const int64_t a = pC1;
            const int64_t pA1 = a;
            const int64_t pD1 = a;
            A_vals[(pA0 * A_N1) + pA1] += (factor_3 * C_vals[(pC0 * C_N1) + pC1]) * D_vals[(pD0 * D_N1) + pD1];
          }

        }
      }

    }
  }
  else
    if (A_N1 == 64)
  {
    if (((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= B_nnz))
    {
      for (int64_t pB = 0; pB <= (B_nnz - 1); pB++)
      {
        const int64_t B_idx0_pB = B_idx0[pB];
        const int64_t B_idx1_pB = B_idx1[pB];
        const int64_t B_idx2_pB = B_idx2[pB];
        const int64_t pA0 = B_idx0_pB;
        const int64_t pC0 = B_idx1_pB;
        const int64_t pD0 = B_idx2_pB;
        if (0 <= (A_N1 - 1))
        {
          const double factor_2 = B_val[pB];
          #pragma GCC ivdep
          for (int64_t pC1 = 0; pC1 <= (A_N1 - 1); pC1++)
          {
            const int64_t a = pC1;
            const int64_t pA1 = a;
            const int64_t pD1 = a;
            A_vals[(pA0 * A_N1) + pA1] += (factor_2 * C_vals[(pC0 * C_N1) + pC1]) * D_vals[(pD0 * D_N1) + pD1];
          }

        }
      }

    }
  }
  else
  {
    if (((((1 <= A_N0) && (1 <= A_N1)) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= B_nnz))
    {
      for (int64_t pB = 0; pB <= (B_nnz - 1); pB++)
      {
        const int64_t B_idx0_pB = B_idx0[pB];
        const int64_t B_idx1_pB = B_idx1[pB];
        const int64_t B_idx2_pB = B_idx2[pB];
        const int64_t pA0 = B_idx0_pB;
        const int64_t pC0 = B_idx1_pB;
        const int64_t pD0 = B_idx2_pB;
        if (0 <= (A_N1 - 1))
        {
          const double factor_1 = B_val[pB];
          #pragma GCC ivdep
          for (int64_t pC1 = 0; pC1 <= (A_N1 - 1); pC1++)
          {
            const int64_t a = pC1;
            const int64_t pA1 = a;
            const int64_t pD1 = a;
            A_vals[(pA0 * A_N1) + pA1] += (factor_1 * C_vals[(pC0 * C_N1) + pC1]) * D_vals[(pD0 * D_N1) + pD1];
          }

        }
      }

    }
  }
  return 0;
}


void spf_kernel_0da1ac67f4_release_state(void)
{
}
