#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_B6ECD918E5_H_STRUCTS
#define SPF_KERNEL_B6ECD918E5_H_STRUCTS

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

#ifndef SPF_STRUCT_CSC_C5BC41B3
#define SPF_STRUCT_CSC_C5BC41B3
/*
 * CSC: compressed sparse column matrix
 */
struct spf_CSC
{
  int numRows;
  int numCols;
  int nnz;
  int *colPtr;
  int *rowIdx;
  double *data;
};
#endif /* SPF_STRUCT_CSC_C5BC41B3 */


#endif /* SPF_KERNEL_B6ECD918E5_H_STRUCTS */

#define SPF_STREAM_ORDER 2
#define SPF_STREAM_COORDINATES(X) X(0) X(1)
#include "spf_stream.h"
#define SPF_BUILDER spf_assemble_b6ecd918e5
#define SPF_BUILDER_OUTPUT struct spf_CSC
#define SPF_BUILDER_COORDINATE int64_t
#define SPF_BUILDER_ORDER 2
#define SPF_BUILDER_KEYS 2
#define SPF_BUILDER_ROW_KEY int
#define SPF_BUILDER_ROW_POINTER int
#define SPF_BUILDER_REPORT 9
#define SPF_BUILDER_DUPLICATES 1
#define SPF_BUILDER_FIRST_DUPLICATE 2
#define SPF_BUILDER_FIRST_BAD 3
#define SPF_BUILDER_BAD_CHECK 4
#define SPF_BUILDER_DUPLICATE_AT 7
#define SPF_BUILDER_ROWS 1
#define SPF_BUILDER_OUTER 1
#define SPF_BUILDER_INNER 0
#include "spf_builder.h"

#define SPF_ASSEMBLE_B6ECD918E5_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])
#define SPF_ASSEMBLE_B6ECD918E5_K1(h, e) ((h)->key[1][(e) * (h)->key_stride[1]])

static inline int spf_assemble_b6ecd918e5_compare(const spf_assemble_b6ecd918e5_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_B6ECD918E5_K0(h, a), w = SPF_ASSEMBLE_B6ECD918E5_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 1) { const int64_t u = SPF_ASSEMBLE_B6ECD918E5_K1(h, a), w = SPF_ASSEMBLE_B6ECD918E5_K1(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_b6ecd918e5_first_difference(const spf_assemble_b6ecd918e5_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_B6ECD918E5_K0(h, a) != SPF_ASSEMBLE_B6ECD918E5_K0(h, b)) return 0;
  if (SPF_ASSEMBLE_B6ECD918E5_K1(h, a) != SPF_ASSEMBLE_B6ECD918E5_K1(h, b)) return 1;
  return 2;
}

static int spf_assemble_b6ecd918e5_check_rows(spf_assemble_b6ecd918e5_handle *h, struct spf_CSC *T, int64_t *report, int *ordered) {
  const int *const pointer = h->row_pointer;
  const int64_t n = h->n, groups = pointer ? h->row_count : h->groups;
  const int64_t *const group_outer = h->group_outer, *const group_end = h->group_end;
  const int *const keys = h->row_keys;
  int good = 1;
  int64_t descents = 0, descents_at_starts = 0;
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  if (h->trusted) {  /* proven: every entry storable, a fill's keys in order */
    if (ordered) *ordered = 1;
    report[0] = n;
    T->nnz = report[0] - 0;
    return 1;
  }
  for (int64_t e = 0; e < (n < 1 ? n : 1); e++) {
    const int64_t x_i = keys[e]; (void)x_i;
    const int64_t p_pi = e; (void)p_pi;
    good &= ((x_i) >= (0) && (x_i) < ((s_numRows))) && (x_i == (((x_i))));
  }
  if (ordered) {
    for (int64_t e = 1; e < n; e++) {
      const int64_t x_i = keys[e]; (void)x_i;
      const int64_t p_pi = e; (void)p_pi;
      good &= ((x_i) >= (0) && (x_i) < ((s_numRows))) && (x_i == (((x_i))));
      descents += keys[e - 1] >= keys[e];
    }
  } else {
    for (int64_t e = 1; e < n; e++) {
      const int64_t x_i = keys[e]; (void)x_i;
      const int64_t p_pi = e; (void)p_pi;
      good &= ((x_i) >= (0) && (x_i) < ((s_numRows))) && (x_i == (((x_i))));
    }
  }
  for (int64_t g = 0, begin = 0; g < groups; g++) {
    const int64_t x_j = pointer ? g : group_outer[g]; (void)x_j;
    const int64_t p_pj = (x_j); (void)p_pj;
    const int64_t end = pointer ? (int64_t)pointer[g + 1] : group_end[g];
    const int64_t at = begin < 1 ? 1 : begin > n - 1 ? n - 1 : begin;  /* in [1, n) when n > 1 */
    if (ordered && n > 1) descents_at_starts += (begin > 0) & (begin < end) & (keys[at - 1] >= keys[at]);
    good &= (begin >= end) | ((p_pj >= (0)) && (p_pj <= (-1 + (s_numCols))) && (x_j == ((p_pj))));
    begin = end;
  }
  if (!good) {  /* name the first entry that fails */
    for (int64_t g = 0, e = 0; g < groups; g++) {
      const int64_t x_j = pointer ? g : group_outer[g]; (void)x_j;
      const int64_t p_pj = (x_j); (void)p_pj;
      for (const int64_t end = pointer ? (int64_t)pointer[g + 1] : group_end[g]; e < end; e++) {
        const int64_t x_i = keys[e]; (void)x_i;
        const int64_t p_pi = e; (void)p_pi;
        if (!(p_pj >= (0))) { report[3] = e; report[4] = 0; report[6] = x_j; report[5] = x_i; return 0; }
        if (!(p_pj <= (-1 + (s_numCols)))) { report[3] = e; report[4] = 1; report[6] = x_j; report[5] = x_i; return 0; }
        if (!((x_i) >= (0) && (x_i) < ((s_numRows)))) { report[3] = e; report[4] = 2; report[6] = x_j; report[5] = x_i; return 0; }
        if (!(x_j == ((p_pj)))) { report[3] = e; report[4] = 3; report[6] = x_j; report[5] = x_i; return 0; }
        if (!(x_i == (((x_i))))) { report[3] = e; report[4] = 4; report[6] = x_j; report[5] = x_i; return 0; }
      }
    }
  }
  if (ordered) *ordered = descents == descents_at_starts;
  report[0] = n;
  T->nnz = report[0] - 0;
  return 1;
}

static int64_t spf_assemble_b6ecd918e5_rows_extent(struct spf_CSC *T) {
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  return ((s_numCols + 1)) - 1;
}

static void spf_assemble_b6ecd918e5_counts(struct spf_CSC *T, int64_t *report) {
  T->nnz = report[0] - 0;
}

void *spf_assemble_b6ecd918e5_begin(struct spf_CSC *T, int64_t n, const spf_assemble_b6ecd918e5_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[9];
  if (!report) report = own_report;
  for (int r = 0; r < 9; r++) report[r] = 0;
  report[2] = -1; report[3] = -1; report[4] = -1;
  spf_assemble_b6ecd918e5_handle *h = (spf_assemble_b6ecd918e5_handle *)calloc(1, sizeof(spf_assemble_b6ecd918e5_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 2; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 2; k++) h->input_x[k] = (spf_assemble_b6ecd918e5_coordinate *)x[k]; h->input_v = (double *)v; }
  h->n = n; h->v = v;
  for (int k = 0; k < 2; k++) { h->x[k] = x[k]; h->stride[k] = stride[k]; }
  h->key[0] = (int64_t *)x[1]; h->key_stride[0] = stride[1];
  h->key[1] = (int64_t *)x[0]; h->key_stride[1] = stride[0];
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    const int64_t x_j = h->x[1][e * h->stride[1]]; (void)x_j;
    const int64_t p_pj = (x_j); (void)p_pj;
    if (!(p_pj >= (0))) { report[3] = e; report[4] = 0; spf_assemble_b6ecd918e5_bad_entry(h, e, report + 5); spf_assemble_b6ecd918e5_free(h); return NULL; }
    if (!(p_pj <= (-1 + (s_numCols)))) { report[3] = e; report[4] = 1; spf_assemble_b6ecd918e5_bad_entry(h, e, report + 5); spf_assemble_b6ecd918e5_free(h); return NULL; }
    if (!((x_i) >= (0) && (x_i) < ((s_numRows)))) { report[3] = e; report[4] = 2; spf_assemble_b6ecd918e5_bad_entry(h, e, report + 5); spf_assemble_b6ecd918e5_free(h); return NULL; }
    if (!(x_j == ((p_pj)))) { report[3] = e; report[4] = 3; spf_assemble_b6ecd918e5_bad_entry(h, e, report + 5); spf_assemble_b6ecd918e5_free(h); return NULL; }
    if (!(x_i == (((x_i))))) { report[3] = e; report[4] = 4; spf_assemble_b6ecd918e5_bad_entry(h, e, report + 5); spf_assemble_b6ecd918e5_free(h); return NULL; }
  }
  if (spf_assemble_b6ecd918e5_bucket(h, T, report, drop_zeros)) return h;
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_b6ecd918e5_compare(h, t - 1, t, 0) <= 0;
  if (!sorted && !spf_assemble_b6ecd918e5_order(h)) { spf_assemble_b6ecd918e5_free(h); return NULL; }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_b6ecd918e5_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_b6ecd918e5_first_difference(h, end - 1, end) == 2; end++) sum = SPF_COMBINE(sum, h->v[end]);
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_b6ecd918e5_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 2, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 2;
    if (end - t > 1) { if (report[1] == 0) { report[2] = e; spf_assemble_b6ecd918e5_bad_entry(h, e, report + 7); } report[1] += end - t - 1; }
  }
  T->nnz = report[0] - 0;
  return h;
}

int spf_assemble_b6ecd918e5_fill(void *handle, struct spf_CSC *T) {
  spf_assemble_b6ecd918e5_handle *h = (spf_assemble_b6ecd918e5_handle *)handle;
  const int64_t n = h->n;
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  int *const a_colPtr = T->colPtr; (void)a_colPtr;
  int *const a_rowIdx = T->rowIdx; (void)a_rowIdx;
  double *const a_data = T->data; (void)a_data;
  if (h->row_pointer) {
    memcpy(a_colPtr, h->row_pointer, (size_t)((s_numCols + 1)) * sizeof(*a_colPtr));
    memcpy(a_rowIdx, h->row_keys, (size_t)n * sizeof(*a_rowIdx));
    memcpy(a_data, h->row_values, (size_t)n * sizeof(double));
    spf_assemble_b6ecd918e5_free(h);
    return 0;
  }
  if (h->group_end) {
    memset(a_colPtr, 0, (size_t)((s_numCols + 1)) * sizeof(*a_colPtr));
    for (int64_t g = 0; g < h->groups; g++) {
      const int64_t x_j = h->group_outer[g];
      const int64_t p_pj = (x_j);
      a_colPtr[((p_pj)) + 1] = h->group_end[g] - (g ? h->group_end[g - 1] : 0);
    }
    for (int64_t q = 0; q + 1 < (s_numCols + 1); q++) a_colPtr[q + 1] += a_colPtr[q];
    for (int64_t e = 0; e < n; e++) a_rowIdx[e] = h->row_keys[e];
    memcpy(a_data, h->row_values, (size_t)n * sizeof(double));
    spf_assemble_b6ecd918e5_free(h);
    return 0;
  }
  memset(a_colPtr, 0, (size_t)(((s_numCols + 1))) * sizeof(*a_colPtr));
  memset(a_data, 0, (size_t)((s_nnz)) * sizeof(*a_data));
  int64_t p_pi = -1;
  for (int64_t t = 0; t < n; t++) {
    const int d = h->diff[t];
    if (d == 255) continue;
    const int64_t p_pj = SPF_ASSEMBLE_B6ECD918E5_K0(h, t); (void)p_pj;
    if (d < 2) {
      p_pi++;
      a_rowIdx[p_pi] = SPF_ASSEMBLE_B6ECD918E5_K1(h, t);
      a_colPtr[((p_pj)) + 1]++;
    }
    a_data[p_pi] = d == 2 ? SPF_COMBINE(a_data[p_pi], h->v[t]) : h->v[t];
  }
  for (int64_t q = 0; q + 1 < (s_numCols + 1); q++) a_colPtr[q + 1] += a_colPtr[q];
  spf_assemble_b6ecd918e5_free(h);
  return 0;
}

int spf_assemble_b6ecd918e5_take(void *handle, struct spf_CSC *T) {
  spf_assemble_b6ecd918e5_handle *h = (spf_assemble_b6ecd918e5_handle *)handle;
  if (h->row_pointer) {  /* the two-phase kernel's own arrays, as they are */
    T->colPtr = h->row_pointer; T->rowIdx = h->row_keys; T->data = h->row_values;
    h->row_pointer = 0; h->row_keys = 0; h->row_values = 0;
    spf_assemble_b6ecd918e5_free(h);
    return 0;
  }
  if (!h->group_end) return 1;
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  const int64_t length = (s_numCols + 1);
  int *a_colPtr = (int *)calloc((size_t)(length > 0 ? length : 1), sizeof(int));
  if (!a_colPtr) return 2;
  for (int64_t g = 0; g < h->groups; g++) {
    const int64_t x_j = h->group_outer[g];
    const int64_t p_pj = (x_j);
    a_colPtr[((p_pj)) + 1] = h->group_end[g] - (g ? h->group_end[g - 1] : 0);
  }
  for (int64_t q = 0; q + 1 < length; q++) a_colPtr[q + 1] += a_colPtr[q];
  T->colPtr = a_colPtr;
  T->rowIdx = h->row_keys;
  T->data = h->row_values;
  h->row_keys = 0; h->row_values = 0;
  spf_assemble_b6ecd918e5_free(h);
  return 0;
}

int spf_kernel_b6ecd918e5(struct spf_CSR *A, struct spf_CSC *B, int64_t *spf_report, void **spf_handle)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_colPtr = B->colPtr;
  int * restrict B_rowIdx = B->rowIdx;
  double * restrict B_data = B->data;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  B->numRows = N_j;
  B->numCols = N_i;
  typedef int spf_key;
  typedef int spf_pointer_type;
  int64_t spf_own_report[12];
  if (!spf_report)
    spf_report = spf_own_report;
  spf_pointer_type *spf_pointer = (spf_pointer_type *) calloc(((size_t) N_i) + 2, sizeof(spf_pointer_type));
  if (!spf_pointer)
    return 2;
  spf_pointer_type * const spf_my = spf_pointer;
  {
    if ((1 <= A_numCols) && (1 <= A_numRows))
    {
      for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)
      {
        const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
        const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
        if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
        {
          const int64_t i = pAi;
          for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
          {
            {
              spf_my[i + 1]++;
            }
          }

        }
      }

    }
  }
  int64_t spf_n = 0;
  for (int64_t spf_r = 1; spf_r <= N_i; spf_r++)
  {
    spf_n += spf_pointer[spf_r];
    spf_pointer[spf_r] = (spf_pointer_type) spf_n;
  }

  if (spf_n != ((int64_t) ((spf_pointer_type) spf_n)))
  {
    free(spf_pointer);
    for (int spf_k = 0; spf_k < 12; spf_k++)
      spf_report[spf_k] = 0;

    spf_report[3] = -1;
    return 2;
  }
  spf_key *spf_keys = (spf_key *) spf_malloc_large(((size_t) ((spf_n > 0) ? (spf_n) : (1))) * (sizeof(spf_key)));
  double *spf_values = (double *) spf_malloc_large(((size_t) ((spf_n > 0) ? (spf_n) : (1))) * (sizeof(double)));
  if ((!spf_keys) || (!spf_values))
  {
    free(spf_keys);
    free(spf_values);
    free(spf_pointer);
    return 2;
  }
  int spf_zeros = 0;
  {
    if ((1 <= A_numCols) && (1 <= A_numRows))
    {
      for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)
      {
        const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
        const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
        if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
        {
          const int64_t i = pAi;
          for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
          {
            const int64_t A_colIdx_pAj = A_colIdx[pAj];
            const int64_t j = A_colIdx_pAj;
            {
              const double spf_value = A_data[pAj];
              const int64_t spf_at = spf_my[i]++;
              spf_keys[spf_at] = (spf_key) j;
              spf_values[spf_at] = spf_value;
              spf_zeros |= spf_value == 0.0;
            }
          }

        }
      }

    }
  }
  memmove(spf_pointer + 1, spf_pointer, ((size_t) N_i) * (sizeof(spf_pointer_type)));
  spf_pointer[0] = 0;
  *spf_handle = spf_assemble_b6ecd918e5_adopt_pointer(B, spf_keys, spf_values, spf_pointer, N_i, spf_report, 1, spf_zeros, spf_report + 9, 0);
  const int spf_status = (*spf_handle) ? (0) : ((spf_report[3] >= 0) ? (3) : (2));
  if (*spf_handle)
    spf_report[9 + 2] = 0;
  return spf_status;
}


void spf_kernel_b6ecd918e5_release_state(void)
{
}
