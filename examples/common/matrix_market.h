/*
 * Reading a Matrix Market coordinate file into spf's CSR layout, for the example
 * applications. Include it after the generated header that declares struct spf_CSR.
 *
 * Reads real, integer or pattern matrices, general or symmetric (both triangles
 * stored), and builds CSR with sorted rows and duplicates summed: what the CSR
 * layout's properties ask for.
 */

#ifndef SPF_EXAMPLES_MATRIX_MARKET_H
#define SPF_EXAMPLES_MATRIX_MARKET_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strcasecmp: the banner's words are case-insensitive */

struct entry {
    int row, col;
    double value;
};

static const char *program_name = "example";

static int fail(const char *message, const char *detail)
{
    fprintf(stderr, "%s: %s%s\n", program_name, message, detail);
    return 1;
}

/* malloc of count elements; never NULL for count = 0 unless out of memory. */
static void *allocate(size_t count, size_t size)
{
    return malloc(count > 0 ? count * size : 1);
}

/* Entries by row, then column. */
static int compare_entries(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

/*
 * Read a Matrix Market coordinate file into a list of 0-based entries (both triangles of
 * a symmetric matrix). Returns 0 on success, else prints why and returns 1.
 */
static int read_matrix_market(FILE *file, int *rows, int *cols, struct entry **entries, long *count)
{
    char line[1024], object[64], format[64], field[64], symmetry[64];
    if (!fgets(line, sizeof line, file)
        || sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", object, format, field, symmetry) != 4)
        return fail("not a Matrix Market file: ", "the first line is not a %%MatrixMarket banner");
    if (strcasecmp(object, "matrix") != 0 || strcasecmp(format, "coordinate") != 0)
        return fail("only coordinate matrices are supported, not ", format);
    int pattern = strcasecmp(field, "pattern") == 0;
    if (!pattern && strcasecmp(field, "real") != 0 && strcasecmp(field, "integer") != 0)
        return fail("unsupported field (real, integer or pattern): ", field);
    int symmetric = strcasecmp(symmetry, "symmetric") == 0;
    if (!symmetric && strcasecmp(symmetry, "general") != 0)
        return fail("unsupported symmetry (general or symmetric): ", symmetry);

    long stored;
    do {
        if (!fgets(line, sizeof line, file))
            return fail("no size line", "");
    } while (line[0] == '%' || line[0] == '\n');
    if (sscanf(line, "%d %d %ld", rows, cols, &stored) != 3 || *rows < 0 || *cols < 0 || stored < 0)
        return fail("malformed size line: ", line);

    *entries = allocate((size_t)(symmetric ? 2 * stored : stored), sizeof **entries);
    if (!*entries)
        return fail("out of memory", "");
    *count = 0;
    for (long k = 0; k < stored; k++) {
        long row, col;
        double value = 1.0;
        int read = pattern ? fscanf(file, "%ld %ld", &row, &col) : fscanf(file, "%ld %ld %lf", &row, &col, &value);
        if (read != (pattern ? 2 : 3))
            return fail("truncated or malformed entry list", "");
        if (row < 1 || row > *rows || col < 1 || col > *cols)
            return fail("entry out of range", "");
        (*entries)[(*count)++] = (struct entry){(int)row - 1, (int)col - 1, value};
        if (symmetric && row != col)
            (*entries)[(*count)++] = (struct entry){(int)col - 1, (int)row - 1, value};
    }
    return 0;
}

/*
 * CSR arrays from entries: rows in order, columns increasing within a row, duplicates
 * summed. Returns the number of stored entries.
 */
static int build_csr(int rows, struct entry *entries, long count, int *rowPtr, int *colIdx, double *data)
{
    qsort(entries, (size_t)count, sizeof *entries, compare_entries);
    int nnz = 0;
    memset(rowPtr, 0, (size_t)(rows + 1) * sizeof *rowPtr);
    for (long k = 0; k < count; k++) {
        if (k > 0 && entries[k].row == entries[k - 1].row && entries[k].col == entries[k - 1].col) {
            data[nnz - 1] += entries[k].value;
            continue;
        }
        colIdx[nnz] = entries[k].col;
        data[nnz] = entries[k].value;
        rowPtr[entries[k].row + 1]++;
        nnz++;
    }
    for (int i = 0; i < rows; i++)
        rowPtr[i + 1] += rowPtr[i];
    return nnz;
}

/* The matrix in `path` as CSR (its arrays malloc'ed); 0 on success, else 1 after a message. */
static int read_csr(const char *path, struct spf_CSR *matrix, const char *program)
{
    program_name = program;
    FILE *file = fopen(path, "r");
    if (!file)
        return fail("cannot open ", path);
    int rows, cols;
    long count;
    struct entry *entries = NULL;
    int status = read_matrix_market(file, &rows, &cols, &entries, &count);
    fclose(file);
    if (status != 0) {
        free(entries);
        return status;
    }
    if (count > 2147483647L) {
        free(entries);
        return fail("more entries than the CSR layout's int nnz holds", "");
    }
    int *rowPtr = allocate((size_t)rows + 1, sizeof *rowPtr);
    int *colIdx = allocate((size_t)count, sizeof *colIdx);
    double *data = allocate((size_t)count, sizeof *data);
    if (!rowPtr || !colIdx || !data) {
        free(entries);
        return fail("out of memory", "");
    }
    int nnz = build_csr(rows, entries, count, rowPtr, colIdx, data);
    free(entries);
    /* The struct has exactly the fields of layouts/CSR.layout. */
    *matrix = (struct spf_CSR){.numRows = rows, .numCols = cols, .nnz = nnz, .rowPtr = rowPtr, .colIdx = colIdx,
                               .data = data};
    return 0;
}

#endif
