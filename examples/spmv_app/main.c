/*
 * spmv_app: y = A x with a kernel that spf generated, A read from a Matrix Market file.
 *
 *   spf compile "y(i) = A(i,j) * x(j)" -l A=CSR -l x=Dense -l y=Dense -o build/spmv
 *   cc -O2 main.c -Ibuild -Lbuild -lspmv -Wl,-rpath,"$PWD/build" -o spmv_app
 *   ./spmv_app matrix.mtx
 *
 * Reads a coordinate matrix (real, integer or pattern; general or symmetric) into CSR
 * with sorted rows and duplicates summed (../common/matrix_market.h), sets x[j] = j + 1,
 * calls spmv() and prints y, one value per line (%.17g).
 */

#include <stdio.h>
#include <stdlib.h>

#include "spmv.h"                    /* struct spf_CSR, struct spf_Dense1, int spmv(...) */
#include "../common/matrix_market.h" /* read_csr */

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MATRIX.mtx\n", argv[0]);
        return 2;
    }
    struct spf_CSR A;
    if (read_csr(argv[1], &A, "spmv_app") != 0)
        return 1;

    /* The caller allocates every array, the output's included (see the ABI in spmv.h). */
    double *x = allocate((size_t)A.numCols, sizeof *x);
    double *y = allocate((size_t)A.numRows, sizeof *y);
    if (!x || !y)
        return fail("out of memory", "");
    for (int j = 0; j < A.numCols; j++)
        x[j] = j + 1.0;

    /* The structs have exactly the fields of layouts/Dense1.layout. */
    struct spf_Dense1 xv = {.N0 = A.numCols, .vals = x};
    struct spf_Dense1 yv = {.N0 = A.numRows, .vals = y};
    int status = spmv(&A, &xv, &yv);
    if (status != 0) {
        fprintf(stderr, "spmv_app: the kernel returned %d (%s)\n", status,
                status == 1 ? "shapes disagree" : status == 2 ? "out of memory" : "unknown error");
        return 1;
    }
    for (int i = 0; i < A.numRows; i++)
        printf("%.17g\n", y[i]);

    free(A.rowPtr);
    free(A.colIdx);
    free(A.data);
    free(x);
    free(y);
    return 0;
}
