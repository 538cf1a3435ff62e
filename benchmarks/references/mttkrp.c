/* MTTKRP A(i,r) = B(i,j,k) * C(j,r) * D(k,r), B in CSF3, A, C, D dense row-major: the loop
 * TACO emits for this statement (its default schedule: B's three levels, the dense r loop
 * innermost, every index and position a 32-bit int, restrict pointers).  */
#include <stdint.h>

void mttkrp_taco(int32_t A1_dimension, int32_t A2_dimension, int32_t nnz0, const int32_t * restrict B1_crd,
                 const int32_t * restrict B2_pos, const int32_t * restrict B2_crd, const int32_t * restrict B3_pos,
                 const int32_t * restrict B3_crd, const double * restrict B_vals,
                 int32_t C2_dimension, const double * restrict C_vals,
                 int32_t D2_dimension, const double * restrict D_vals, double * restrict A_vals)
{
  for (int32_t pA = 0; pA < A1_dimension * A2_dimension; pA++)
    A_vals[pA] = 0.0;
  for (int32_t iB = 0; iB < nnz0; iB++) {
    int32_t i = B1_crd[iB];
    for (int32_t jB = B2_pos[iB]; jB < B2_pos[iB + 1]; jB++) {
      int32_t j = B2_crd[jB];
      for (int32_t kB = B3_pos[jB]; kB < B3_pos[jB + 1]; kB++) {
        int32_t k = B3_crd[kB];
        for (int32_t r = 0; r < D2_dimension; r++) {
          int32_t rA = i * A2_dimension + r;
          int32_t rC = j * C2_dimension + r;
          int32_t rD = k * D2_dimension + r;
          A_vals[rA] = A_vals[rA] + (B_vals[kB] * C_vals[rC]) * D_vals[rD];
        }
      }
    }
  }
}
