/* SpMSpV y(i) = A(i,j) * x(j), A in CSR, x a sorted sparse vector, y dense: the loop TACO
 * emits for a compressed x (a two-way merge of each row of A with x, stopping when either
 * runs out).  32-bit positions and coordinates, as TACO's.  */
#include <stdint.h>

void spmspv_merge(int32_t rows, const int32_t * restrict rowPtr, const int32_t * restrict colIdx,
                  const double * restrict A_vals, int32_t x_len, const int32_t * restrict x_idx,
                  const double * restrict x_vals, double * restrict y)
{
  for (int32_t i = 0; i < rows; i++) {
    double tj = 0.0;
    int32_t pA = rowPtr[i];
    int32_t pA_end = rowPtr[i + 1];
    int32_t px = 0;
    while (pA < pA_end && px < x_len) {
      int32_t jA = colIdx[pA];
      int32_t jx = x_idx[px];
      int32_t j = jA < jx ? jA : jx;
      if (jA == j && jx == j)
        tj += A_vals[pA] * x_vals[px];
      pA += (int32_t)(jA == j);
      px += (int32_t)(jx == j);
    }
    y[i] = tj;
  }
}
