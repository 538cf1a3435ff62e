/*
 * spgemm_app: C = A A^T with a kernel spf generated, A read from a Matrix Market file,
 * C assembled in CSR by the kernel (its pattern is what the product produces).
 *
 *   spf compile "C(i,j) = A(i,k) * B(j,k)" -l A=CSR -l B=CSR -l C=CSR -o build/spgemm
 *   cc -O2 main.c -Ibuild -Lbuild -lspgemm -Wl,-rpath,"$PWD/build" -o spgemm_app
 *   ./spgemm_app matrix.mtx
 *
 * The output's arrays are sized by the kernel: spgemm() computes and orders the
 * entries and sets C.nnz; the caller allocates C's arrays and spgemm_fill() writes
 * them (see docs/c-abi.md, "Outputs whose pattern the kernel computes").  Prints C as
 * a Matrix Market coordinate file (1-based, %.17g).
 */

#include <stdio.h>
#include <stdlib.h>

#include "spgemm.h"                  /* struct spf_CSR, spgemm, spgemm_fill, spgemm_free */
#include "../common/matrix_market.h" /* read_csr (after the header declaring struct spf_CSR) */

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MATRIX.mtx\n", argv[0]);
        return 2;
    }
    struct spf_CSR A;
    if (read_csr(argv[1], &A, "spgemm_app") != 0)
        return 1;

    /* 1. compute: the kernel sets C's shape and its count (C.nnz) and keeps the entries */
    struct spf_CSR C = {0};
    void *handle = NULL;
    int status = spgemm(&A, &A, &C, NULL, &handle);
    if (status != 0) {
        fprintf(stderr, "spgemm_app: the kernel returned %d (%s)\n", status,
                status == 1 ? "shapes disagree" : status == 2 ? "out of memory" : "an entry C's layout cannot hold");
        return 1;
    }
    /* 2. the caller allocates C's arrays, at the lengths the layout declares */
    C.rowPtr = malloc(((size_t)C.numRows + 1) * sizeof *C.rowPtr);
    C.colIdx = malloc((size_t)(C.nnz > 0 ? C.nnz : 1) * sizeof *C.colIdx);
    C.data = malloc((size_t)(C.nnz > 0 ? C.nnz : 1) * sizeof *C.data);
    if (!C.rowPtr || !C.colIdx || !C.data) {
        spgemm_free(handle);
        fprintf(stderr, "spgemm_app: out of memory\n");
        return 1;
    }
    /* 3. fill writes them and releases the handle */
    spgemm_fill(handle, &C);

    printf("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", C.numRows, C.numCols, C.nnz);
    for (int i = 0; i < C.numRows; i++)
        for (int p = C.rowPtr[i]; p < C.rowPtr[i + 1]; p++)
            printf("%d %d %.17g\n", i + 1, C.colIdx[p] + 1, C.data[p]);

    free(A.rowPtr);
    free(A.colIdx);
    free(A.data);
    free(C.rowPtr);
    free(C.colIdx);
    free(C.data);
    return 0;
}
