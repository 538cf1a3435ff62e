#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_8E198F8824_H_STRUCTS
#define SPF_KERNEL_8E198F8824_H_STRUCTS

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

#ifndef SPF_STRUCT_CSR_UNSORTED_31B93B1F
#define SPF_STRUCT_CSR_UNSORTED_31B93B1F
/*
 * CSR_UNSORTED: compressed sparse row matrix, columns unsorted within a row
 */
struct spf_CSR_UNSORTED
{
  int numRows;
  int numCols;
  int nnz;
  int *rowPtr;
  int *colIdx;
  double *data;
};
#endif /* SPF_STRUCT_CSR_UNSORTED_31B93B1F */


#endif /* SPF_KERNEL_8E198F8824_H_STRUCTS */

#define SPF_STREAM_ORDER 2
#define SPF_STREAM_COORDINATES(X) X(0) X(1)
#include "spf_stream.h"
#define SPF_BUILDER spf_assemble_8e198f8824
#define SPF_BUILDER_OUTPUT struct spf_CSR_UNSORTED
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
#define SPF_BUILDER_OUTER 0
#define SPF_BUILDER_INNER 1
#include "spf_builder.h"

#define SPF_ASSEMBLE_8E198F8824_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])
#define SPF_ASSEMBLE_8E198F8824_K1(h, e) ((h)->key[1][(e) * (h)->key_stride[1]])

static inline int spf_assemble_8e198f8824_compare(const spf_assemble_8e198f8824_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_8E198F8824_K0(h, a), w = SPF_ASSEMBLE_8E198F8824_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 1) { const int64_t u = SPF_ASSEMBLE_8E198F8824_K1(h, a), w = SPF_ASSEMBLE_8E198F8824_K1(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_8e198f8824_first_difference(const spf_assemble_8e198f8824_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_8E198F8824_K0(h, a) != SPF_ASSEMBLE_8E198F8824_K0(h, b)) return 0;
  if (SPF_ASSEMBLE_8E198F8824_K1(h, a) != SPF_ASSEMBLE_8E198F8824_K1(h, b)) return 1;
  return 2;
}

static int spf_assemble_8e198f8824_check_rows(spf_assemble_8e198f8824_handle *h, struct spf_CSR_UNSORTED *T, int64_t *report, int *ordered) {
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
    const int64_t x_j = keys[e]; (void)x_j;
    const int64_t p_pj = e; (void)p_pj;
    good &= ((x_j) >= (0) && (x_j) < ((s_numCols))) && (x_j == (((x_j))));
  }
  if (ordered) {
    for (int64_t e = 1; e < n; e++) {
      const int64_t x_j = keys[e]; (void)x_j;
      const int64_t p_pj = e; (void)p_pj;
      good &= ((x_j) >= (0) && (x_j) < ((s_numCols))) && (x_j == (((x_j))));
      descents += keys[e - 1] >= keys[e];
    }
  } else {
    for (int64_t e = 1; e < n; e++) {
      const int64_t x_j = keys[e]; (void)x_j;
      const int64_t p_pj = e; (void)p_pj;
      good &= ((x_j) >= (0) && (x_j) < ((s_numCols))) && (x_j == (((x_j))));
    }
  }
  for (int64_t g = 0, begin = 0; g < groups; g++) {
    const int64_t x_i = pointer ? g : group_outer[g]; (void)x_i;
    const int64_t p_pi = (x_i); (void)p_pi;
    const int64_t end = pointer ? (int64_t)pointer[g + 1] : group_end[g];
    const int64_t at = begin < 1 ? 1 : begin > n - 1 ? n - 1 : begin;  /* in [1, n) when n > 1 */
    if (ordered && n > 1) descents_at_starts += (begin > 0) & (begin < end) & (keys[at - 1] >= keys[at]);
    good &= (begin >= end) | ((p_pi >= (0)) && (p_pi <= (-1 + (s_numRows))) && (x_i == ((p_pi))));
    begin = end;
  }
  if (!good) {  /* name the first entry that fails */
    for (int64_t g = 0, e = 0; g < groups; g++) {
      const int64_t x_i = pointer ? g : group_outer[g]; (void)x_i;
      const int64_t p_pi = (x_i); (void)p_pi;
      for (const int64_t end = pointer ? (int64_t)pointer[g + 1] : group_end[g]; e < end; e++) {
        const int64_t x_j = keys[e]; (void)x_j;
        const int64_t p_pj = e; (void)p_pj;
        if (!(p_pi >= (0))) { report[3] = e; report[4] = 0; report[5] = x_i; report[6] = x_j; return 0; }
        if (!(p_pi <= (-1 + (s_numRows)))) { report[3] = e; report[4] = 1; report[5] = x_i; report[6] = x_j; return 0; }
        if (!((x_j) >= (0) && (x_j) < ((s_numCols)))) { report[3] = e; report[4] = 2; report[5] = x_i; report[6] = x_j; return 0; }
        if (!(x_i == ((p_pi)))) { report[3] = e; report[4] = 3; report[5] = x_i; report[6] = x_j; return 0; }
        if (!(x_j == (((x_j))))) { report[3] = e; report[4] = 4; report[5] = x_i; report[6] = x_j; return 0; }
      }
    }
  }
  if (ordered) *ordered = descents == descents_at_starts;
  report[0] = n;
  T->nnz = report[0] - 0;
  return 1;
}

static int64_t spf_assemble_8e198f8824_rows_extent(struct spf_CSR_UNSORTED *T) {
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  return ((s_numRows + 1)) - 1;
}

static void spf_assemble_8e198f8824_counts(struct spf_CSR_UNSORTED *T, int64_t *report) {
  T->nnz = report[0] - 0;
}

void *spf_assemble_8e198f8824_begin(struct spf_CSR_UNSORTED *T, int64_t n, const spf_assemble_8e198f8824_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[9];
  if (!report) report = own_report;
  for (int r = 0; r < 9; r++) report[r] = 0;
  report[2] = -1; report[3] = -1; report[4] = -1;
  spf_assemble_8e198f8824_handle *h = (spf_assemble_8e198f8824_handle *)calloc(1, sizeof(spf_assemble_8e198f8824_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 2; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 2; k++) h->input_x[k] = (spf_assemble_8e198f8824_coordinate *)x[k]; h->input_v = (double *)v; }
  h->n = n; h->v = v;
  for (int k = 0; k < 2; k++) { h->x[k] = x[k]; h->stride[k] = stride[k]; }
  h->key[0] = (int64_t *)x[0]; h->key_stride[0] = stride[0];
  h->key[1] = (int64_t *)x[1]; h->key_stride[1] = stride[1];
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    const int64_t x_j = h->x[1][e * h->stride[1]]; (void)x_j;
    const int64_t p_pi = (x_i); (void)p_pi;
    if (!(p_pi >= (0))) { report[3] = e; report[4] = 0; spf_assemble_8e198f8824_bad_entry(h, e, report + 5); spf_assemble_8e198f8824_free(h); return NULL; }
    if (!(p_pi <= (-1 + (s_numRows)))) { report[3] = e; report[4] = 1; spf_assemble_8e198f8824_bad_entry(h, e, report + 5); spf_assemble_8e198f8824_free(h); return NULL; }
    if (!((x_j) >= (0) && (x_j) < ((s_numCols)))) { report[3] = e; report[4] = 2; spf_assemble_8e198f8824_bad_entry(h, e, report + 5); spf_assemble_8e198f8824_free(h); return NULL; }
    if (!(x_i == ((p_pi)))) { report[3] = e; report[4] = 3; spf_assemble_8e198f8824_bad_entry(h, e, report + 5); spf_assemble_8e198f8824_free(h); return NULL; }
    if (!(x_j == (((x_j))))) { report[3] = e; report[4] = 4; spf_assemble_8e198f8824_bad_entry(h, e, report + 5); spf_assemble_8e198f8824_free(h); return NULL; }
  }
  if (spf_assemble_8e198f8824_bucket(h, T, report, drop_zeros)) return h;
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_8e198f8824_compare(h, t - 1, t, 0) <= 0;
  if (!sorted && !spf_assemble_8e198f8824_order(h)) { spf_assemble_8e198f8824_free(h); return NULL; }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_8e198f8824_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_8e198f8824_first_difference(h, end - 1, end) == 2; end++) sum = SPF_COMBINE(sum, h->v[end]);
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_8e198f8824_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 2, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 2;
    if (end - t > 1) { if (report[1] == 0) { report[2] = e; spf_assemble_8e198f8824_bad_entry(h, e, report + 7); } report[1] += end - t - 1; }
  }
  T->nnz = report[0] - 0;
  return h;
}

int spf_assemble_8e198f8824_fill(void *handle, struct spf_CSR_UNSORTED *T) {
  spf_assemble_8e198f8824_handle *h = (spf_assemble_8e198f8824_handle *)handle;
  const int64_t n = h->n;
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  int *const a_rowPtr = T->rowPtr; (void)a_rowPtr;
  int *const a_colIdx = T->colIdx; (void)a_colIdx;
  double *const a_data = T->data; (void)a_data;
  if (h->row_pointer) {
    memcpy(a_rowPtr, h->row_pointer, (size_t)((s_numRows + 1)) * sizeof(*a_rowPtr));
    memcpy(a_colIdx, h->row_keys, (size_t)n * sizeof(*a_colIdx));
    memcpy(a_data, h->row_values, (size_t)n * sizeof(double));
    spf_assemble_8e198f8824_free(h);
    return 0;
  }
  if (h->group_end) {
    memset(a_rowPtr, 0, (size_t)((s_numRows + 1)) * sizeof(*a_rowPtr));
    for (int64_t g = 0; g < h->groups; g++) {
      const int64_t x_i = h->group_outer[g];
      const int64_t p_pi = (x_i);
      a_rowPtr[((p_pi)) + 1] = h->group_end[g] - (g ? h->group_end[g - 1] : 0);
    }
    for (int64_t q = 0; q + 1 < (s_numRows + 1); q++) a_rowPtr[q + 1] += a_rowPtr[q];
    for (int64_t e = 0; e < n; e++) a_colIdx[e] = h->row_keys[e];
    memcpy(a_data, h->row_values, (size_t)n * sizeof(double));
    spf_assemble_8e198f8824_free(h);
    return 0;
  }
  memset(a_rowPtr, 0, (size_t)(((s_numRows + 1))) * sizeof(*a_rowPtr));
  memset(a_data, 0, (size_t)((s_nnz)) * sizeof(*a_data));
  int64_t p_pj = -1;
  for (int64_t t = 0; t < n; t++) {
    const int d = h->diff[t];
    if (d == 255) continue;
    const int64_t p_pi = SPF_ASSEMBLE_8E198F8824_K0(h, t); (void)p_pi;
    if (d < 2) {
      p_pj++;
      a_colIdx[p_pj] = SPF_ASSEMBLE_8E198F8824_K1(h, t);
      a_rowPtr[((p_pi)) + 1]++;
    }
    a_data[p_pj] = d == 2 ? SPF_COMBINE(a_data[p_pj], h->v[t]) : h->v[t];
  }
  for (int64_t q = 0; q + 1 < (s_numRows + 1); q++) a_rowPtr[q + 1] += a_rowPtr[q];
  spf_assemble_8e198f8824_free(h);
  return 0;
}

int spf_assemble_8e198f8824_take(void *handle, struct spf_CSR_UNSORTED *T) {
  spf_assemble_8e198f8824_handle *h = (spf_assemble_8e198f8824_handle *)handle;
  if (h->row_pointer) {  /* the two-phase kernel's own arrays, as they are */
    T->rowPtr = h->row_pointer; T->colIdx = h->row_keys; T->data = h->row_values;
    h->row_pointer = 0; h->row_keys = 0; h->row_values = 0;
    spf_assemble_8e198f8824_free(h);
    return 0;
  }
  if (!h->group_end) return 1;
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  const int64_t length = (s_numRows + 1);
  int *a_rowPtr = (int *)calloc((size_t)(length > 0 ? length : 1), sizeof(int));
  if (!a_rowPtr) return 2;
  for (int64_t g = 0; g < h->groups; g++) {
    const int64_t x_i = h->group_outer[g];
    const int64_t p_pi = (x_i);
    a_rowPtr[((p_pi)) + 1] = h->group_end[g] - (g ? h->group_end[g - 1] : 0);
  }
  for (int64_t q = 0; q + 1 < length; q++) a_rowPtr[q + 1] += a_rowPtr[q];
  T->rowPtr = a_rowPtr;
  T->colIdx = h->row_keys;
  T->data = h->row_values;
  h->row_keys = 0; h->row_values = 0;
  spf_assemble_8e198f8824_free(h);
  return 0;
}
#define SPF_WORKSPACE_FORWARD 1
#define SPF_WORKSPACE_COORDINATES(OTHER, KEY) OTHER(0, 0) KEY(1)
#include "spf_workspace.h"
#define SPF_ROWS_POSITION 1
#define SPF_ROWS_KEY int
#define SPF_ROWS_OUTPUT struct spf_CSR_UNSORTED
#define SPF_ROWS_ADOPT spf_assemble_8e198f8824_adopt_rows
#define SPF_ROWS_BEGIN spf_assemble_8e198f8824_begin
#define SPF_ROWS_FIRST_BAD 3
#define SPF_ROWS_STATISTICS 9
#define SPF_ROWS_OUT_OF_MEMORY 2
#define SPF_ROWS_UNSTORABLE 3
#include "spf_rows.h"

int spf_kernel_8e198f8824(struct spf_CSR *A, struct spf_CSR *B, struct spf_CSR_UNSORTED *C, int64_t *spf_report, void **spf_handle)
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
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t C_numRows = C->numRows;
  const int64_t C_numCols = C->numCols;
  const int64_t C_nnz = C->nnz;
  int * restrict C_rowPtr = C->rowPtr;
  int * restrict C_colIdx = C->colIdx;
  double * restrict C_data = C->data;
  const int64_t N_k = A_numCols;
  const int64_t N_j = B_numCols;
  const int64_t N_i = A_numRows;
  if (!(A_numCols == B_numRows))
    return 1;
  C->numRows = N_i;
  C->numCols = N_j;
  const int spf_thread_count = 1;
  const int spf_stream_count = spf_most_pieces(spf_thread_count);
  spf_scratch *spf_call_scratch = spf_scratch_get(spf_stream_count, spf_thread_count, N_j, 1, 0);
  if (!spf_call_scratch)
    return 2;
  spf_rows *spf_streams = spf_call_scratch->rows;
  spf_workspace *spf_accumulators = spf_call_scratch->workspaces;
  spf_rows *spf_my_stream = &spf_streams[0];
  spf_workspace *spf_my_accumulator = &spf_accumulators[0];
  spf_workspace_hand spf_my_hand = spf_workspace_hand_of(spf_my_accumulator);
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols))
  {
    for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
      {
        const int64_t i = pAi;
        spf_workspace_hand_group_rows(&spf_my_hand, spf_my_accumulator, spf_my_stream, i);
        for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj = A_colIdx[pAj];
          const int64_t pBi = A_colIdx_pAj;
          const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
          const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
          if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
          {
            for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
            {
              const int64_t B_colIdx_pBj = B_colIdx[pBj];
              const int64_t j = B_colIdx_pBj;
              spf_workspace_hand_put(&spf_my_hand, j, A_data[pAj] * B_data[pBj]);
            }

          }
        }

      }
    }

  }
  spf_workspace_hand_keep(&spf_my_hand, spf_my_accumulator);
  for (int spf_t = 0; spf_t < spf_thread_count; spf_t++)
    spf_workspace_flush_rows(&spf_accumulators[spf_t], &spf_streams[spf_t]);

  int64_t spf_own_report[15];
  if (!spf_report)
    spf_report = spf_own_report;
  int spf_status = 0;
  *spf_handle = spf_rows_hand_over(C, spf_streams, spf_stream_count, spf_accumulators, spf_thread_count, spf_report, 1, 1, &spf_status);
  spf_scratch_put(spf_call_scratch);
  return spf_status;
}


void spf_kernel_8e198f8824_release_state(void)
{
  spf_scratch_release();
}
