/* TTV A(i,j) = B(i,j,k) * c(k), B in CSF3, A in DCSR: the loop TACO emits when A's
 * pattern is B's first two levels (its levels copied, then one sum per (i, j) fibre
 * written at B's own position).  32-bit positions and coordinates, as TACO's.  */
#include <stdint.h>
#include <string.h>

/* TACO-shaped: copy B's first two levels into A's arrays, walk B, write A's values. */
void ttv_copy_levels(int32_t nnz0, int32_t nnz1, const int32_t * restrict idx0, const int32_t * restrict ptr0,
                     const int32_t * restrict idx1, const int32_t * restrict ptr1, const int32_t * restrict idx2,
                     const double * restrict B_vals, const double * restrict c,
                     int32_t * restrict A_rowIdx, int32_t * restrict A_rowPtr, int32_t * restrict A_colIdx,
                     double * restrict A_vals)
{
  memcpy(A_rowIdx, idx0, sizeof(int32_t) * nnz0);
  memcpy(A_rowPtr, ptr0, sizeof(int32_t) * (nnz0 + 1));
  memcpy(A_colIdx, idx1, sizeof(int32_t) * nnz1);
  for (int32_t p0 = 0; p0 < nnz0; p0++) {
    for (int32_t p1 = ptr0[p0]; p1 < ptr0[p0 + 1]; p1++) {
      double tkA_val = 0.0;
      for (int32_t p2 = ptr1[p1]; p2 < ptr1[p1 + 1]; p2++) {
        int32_t k = idx2[p2];
        tkA_val += B_vals[p2] * c[k];
      }
      A_vals[p1] = tkA_val;
    }
  }
}

/* The same walk with A's pattern given (no copy): the least any TTV into B's pattern does. */
void ttv_pattern_given(int32_t nnz0, const int32_t * restrict ptr0, const int32_t * restrict ptr1,
                       const int32_t * restrict idx2, const double * restrict B_vals, const double * restrict c,
                       double * restrict A_vals)
{
  for (int32_t p0 = 0; p0 < nnz0; p0++) {
    for (int32_t p1 = ptr0[p0]; p1 < ptr0[p0 + 1]; p1++) {
      double tkA_val = 0.0;
      for (int32_t p2 = ptr1[p1]; p2 < ptr1[p1 + 1]; p2++)
        tkA_val += B_vals[p2] * c[idx2[p2]];
      A_vals[p1] = tkA_val;
    }
  }
}
