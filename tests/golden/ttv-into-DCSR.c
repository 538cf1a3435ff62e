#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_2D61945271_H_STRUCTS
#define SPF_KERNEL_2D61945271_H_STRUCTS

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

#ifndef SPF_STRUCT_CSF3_7390B26C
#define SPF_STRUCT_CSF3_7390B26C
/*
 * CSF3: compressed sparse fiber, order 3
 */
struct spf_CSF3
{
  int n0;
  int n1;
  int n2;
  int nnz0;
  int nnz1;
  int nnz2;
  int *idx0;
  int *ptr0;
  int *idx1;
  int *ptr1;
  int *idx2;
  double *val;
};
#endif /* SPF_STRUCT_CSF3_7390B26C */

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

#ifndef SPF_STRUCT_DCSR_B3ABB36A
#define SPF_STRUCT_DCSR_B3ABB36A
/*
 * DCSR: doubly compressed sparse row matrix (empty rows not stored)
 */
struct spf_DCSR
{
  int numRows;
  int numCols;
  int nnzRows;
  int nnz;
  int *rowIdx;
  int *rowPtr;
  int *colIdx;
  double *data;
};
#endif /* SPF_STRUCT_DCSR_B3ABB36A */


#endif /* SPF_KERNEL_2D61945271_H_STRUCTS */

#define SPF_STREAM_ORDER 2
#define SPF_STREAM_COORDINATES(X) X(0) X(1)
#include "spf_stream.h"
#define SPF_BUILDER spf_assemble_2d61945271
#define SPF_BUILDER_OUTPUT struct spf_DCSR
#define SPF_BUILDER_COORDINATE int64_t
#define SPF_BUILDER_ORDER 2
#define SPF_BUILDER_KEYS 2
#define SPF_BUILDER_ROW_KEY int64_t
#define SPF_BUILDER_ROW_POINTER int64_t
#define SPF_BUILDER_REPORT 10
#define SPF_BUILDER_DUPLICATES 2
#define SPF_BUILDER_FIRST_DUPLICATE 3
#define SPF_BUILDER_FIRST_BAD 4
#define SPF_BUILDER_BAD_CHECK 5
#define SPF_BUILDER_DUPLICATE_AT 8
#define SPF_BUILDER_ROWS 0
#include "spf_builder.h"

#define SPF_ASSEMBLE_2D61945271_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])
#define SPF_ASSEMBLE_2D61945271_K1(h, e) ((h)->key[1][(e) * (h)->key_stride[1]])

static inline int spf_assemble_2d61945271_compare(const spf_assemble_2d61945271_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_2D61945271_K0(h, a), w = SPF_ASSEMBLE_2D61945271_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 1) { const int64_t u = SPF_ASSEMBLE_2D61945271_K1(h, a), w = SPF_ASSEMBLE_2D61945271_K1(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_2d61945271_first_difference(const spf_assemble_2d61945271_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_2D61945271_K0(h, a) != SPF_ASSEMBLE_2D61945271_K0(h, b)) return 0;
  if (SPF_ASSEMBLE_2D61945271_K1(h, a) != SPF_ASSEMBLE_2D61945271_K1(h, b)) return 1;
  return 2;
}

void *spf_assemble_2d61945271_begin(struct spf_DCSR *T, int64_t n, const spf_assemble_2d61945271_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[10];
  if (!report) report = own_report;
  for (int r = 0; r < 10; r++) report[r] = 0;
  report[3] = -1; report[4] = -1; report[5] = -1;
  spf_assemble_2d61945271_handle *h = (spf_assemble_2d61945271_handle *)calloc(1, sizeof(spf_assemble_2d61945271_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 2; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 2; k++) h->input_x[k] = (spf_assemble_2d61945271_coordinate *)x[k]; h->input_v = (double *)v; }
  h->n = n; h->v = v;
  for (int k = 0; k < 2; k++) { h->x[k] = x[k]; h->stride[k] = stride[k]; }
  h->key[0] = (int64_t *)x[0]; h->key_stride[0] = stride[0];
  h->key[1] = (int64_t *)x[1]; h->key_stride[1] = stride[1];
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnzRows = T->nnzRows; (void)s_nnzRows;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    const int64_t x_j = h->x[1][e * h->stride[1]]; (void)x_j;
    if (!((x_i) >= (0) && (x_i) < ((s_numRows)))) { report[4] = e; report[5] = 0; spf_assemble_2d61945271_bad_entry(h, e, report + 6); spf_assemble_2d61945271_free(h); return NULL; }
    if (!((x_j) >= (0) && (x_j) < ((s_numCols)))) { report[4] = e; report[5] = 1; spf_assemble_2d61945271_bad_entry(h, e, report + 6); spf_assemble_2d61945271_free(h); return NULL; }
    if (!(x_i == (((x_i))))) { report[4] = e; report[5] = 2; spf_assemble_2d61945271_bad_entry(h, e, report + 6); spf_assemble_2d61945271_free(h); return NULL; }
    if (!(x_j == (((x_j))))) { report[4] = e; report[5] = 3; spf_assemble_2d61945271_bad_entry(h, e, report + 6); spf_assemble_2d61945271_free(h); return NULL; }
  }
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_2d61945271_compare(h, t - 1, t, 0) <= 0;
  if (!sorted && !spf_assemble_2d61945271_order(h)) { spf_assemble_2d61945271_free(h); return NULL; }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_2d61945271_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_2d61945271_first_difference(h, end - 1, end) == 2; end++) sum = SPF_COMBINE(sum, h->v[end]);
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_2d61945271_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 2, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 1;
    report[1] += d < 2;
    if (end - t > 1) { if (report[2] == 0) { report[3] = e; spf_assemble_2d61945271_bad_entry(h, e, report + 8); } report[2] += end - t - 1; }
  }
  T->nnzRows = report[0] - 0;
  T->nnz = report[1] - 0;
  return h;
}

int spf_assemble_2d61945271_fill(void *handle, struct spf_DCSR *T) {
  spf_assemble_2d61945271_handle *h = (spf_assemble_2d61945271_handle *)handle;
  const int64_t n = h->n;
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnzRows = T->nnzRows; (void)s_nnzRows;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  int *const a_rowIdx = T->rowIdx; (void)a_rowIdx;
  int *const a_rowPtr = T->rowPtr; (void)a_rowPtr;
  int *const a_colIdx = T->colIdx; (void)a_colIdx;
  double *const a_data = T->data; (void)a_data;
  memset(a_rowPtr, 0, (size_t)(((s_nnzRows + 1))) * sizeof(*a_rowPtr));
  memset(a_data, 0, (size_t)((s_nnz)) * sizeof(*a_data));
  int64_t p_pi = -1;
  int64_t p_pj = -1;
  for (int64_t t = 0; t < n; t++) {
    const int d = h->diff[t];
    if (d == 255) continue;
    if (d < 1) {
      p_pi++;
      a_rowIdx[p_pi] = SPF_ASSEMBLE_2D61945271_K0(h, t);
    }
    if (d < 2) {
      p_pj++;
      a_colIdx[p_pj] = SPF_ASSEMBLE_2D61945271_K1(h, t);
      a_rowPtr[((p_pi)) + 1]++;
    }
    a_data[p_pj] = d == 2 ? SPF_COMBINE(a_data[p_pj], h->v[t]) : h->v[t];
  }
  for (int64_t q = 0; q + 1 < (s_nnzRows + 1); q++) a_rowPtr[q + 1] += a_rowPtr[q];
  spf_assemble_2d61945271_free(h);
  return 0;
}
#define SPF_WORKSPACE_FORWARD 1
#define SPF_WORKSPACE_COORDINATES(OTHER, KEY) OTHER(0, 0) KEY(1)
#include "spf_workspace.h"

int spf_kernel_2d61945271(struct spf_CSF3 *B, struct spf_Dense1 *c, struct spf_DCSR *A, int64_t *spf_report, void **spf_handle)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_nnz0 = B->nnz0;
  const int64_t B_nnz1 = B->nnz1;
  const int64_t B_nnz2 = B->nnz2;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_ptr0 = B->ptr0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_ptr1 = B->ptr1;
  int * restrict B_idx2 = B->idx2;
  double * restrict B_val = B->val;
  const int64_t c_N0 = c->N0;
  double * restrict c_vals = c->vals;
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t N_k = B_n2;
  const int64_t N_j = B_n1;
  const int64_t N_i = B_n0;
  if (!(B_n2 == c_N0))
    return 1;
  A->numRows = N_i;
  A->numCols = N_j;
  const int spf_thread_count = 1;
  const int spf_stream_count = spf_most_pieces(spf_thread_count);
  spf_stream *spf_streams = (spf_stream *) calloc((size_t) spf_stream_count, sizeof(spf_stream));
  if (!spf_streams)
    return 2;
  spf_stream spf_entries = {0};
  spf_workspaces *spf_call_workspaces = spf_workspaces_take(spf_thread_count, N_j, 1, 1);
  if (!spf_call_workspaces)
  {
    free(spf_streams);
    return 2;
  }
  spf_workspace *spf_accumulators = spf_call_workspaces->w;
  spf_stream *spf_my_stream = &spf_streams[0];
  spf_workspace *spf_my_accumulator = &spf_accumulators[0];
  if ((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= B_nnz0))
  {
    for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
    {
      const int64_t B_idx0_pB0 = B_idx0[pB0];
      const int64_t B_ptr0_pB0 = B_ptr0[pB0];
      const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
      if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
      {
        const int64_t i = B_idx0_pB0;
        for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
        {
          const int64_t B_idx1_pB1 = B_idx1[pB1];
          const int64_t B_ptr1_pB1 = B_ptr1[pB1];
          const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
          if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
          {
            const int64_t j = B_idx1_pB1;
            double sum_1 = 0.0;
            int added_2 = 0;
            for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
            {
              const int64_t B_idx2_pB2 = B_idx2[pB2];
              const int64_t pc0 = B_idx2_pB2;
              if (c_vals[pc0] != 0.0)
              {
                sum_1 += B_val[pB2] * c_vals[pc0];
                added_2 = 1;
              }
            }

            if (added_2)
              spf_workspace_add_2(spf_my_accumulator, spf_my_stream, i, j, sum_1);
          }
        }

      }
    }

  }
  for (int spf_t = 0; spf_t < spf_thread_count; spf_t++)
    spf_workspace_flush_2(&spf_accumulators[spf_t], &spf_streams[spf_t]);

  int64_t spf_own_report[10];
  if (!spf_report)
    spf_report = spf_own_report;
  int spf_status = (spf_streams_join(spf_streams, spf_stream_count, &spf_entries)) ? (0) : (2);
  if (!spf_status)
  {
    *spf_handle = spf_assemble_2d61945271_begin(A, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
    spf_stream_forget(&spf_entries);
    if (!(*spf_handle))
      spf_status = (spf_report[4] >= 0) ? (3) : (2);
  }
  for (int spf_t = 0; spf_t < spf_stream_count; spf_t++)
    spf_stream_release(&spf_streams[spf_t]);

  free(spf_streams);
  spf_stream_release(&spf_entries);
  spf_workspaces_put(spf_call_workspaces);
  return spf_status;
}


void spf_kernel_2d61945271_release_state(void)
{
  spf_workspaces_release();
}
