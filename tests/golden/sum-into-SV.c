#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_89AABE1220_H_STRUCTS
#define SPF_KERNEL_89AABE1220_H_STRUCTS

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

#ifndef SPF_STRUCT_SV_2B89F281
#define SPF_STRUCT_SV_2B89F281
/*
 * SV: sparse vector with sorted indices
 */
struct spf_SV
{
  int n;
  int len;
  int *idx;
  double *val;
};
#endif /* SPF_STRUCT_SV_2B89F281 */

#ifndef SPF_STRUCT_SV_UNSORTED_164F590A
#define SPF_STRUCT_SV_UNSORTED_164F590A
/*
 * SV_UNSORTED: sparse vector with unsorted, distinct indices
 */
struct spf_SV_UNSORTED
{
  int n;
  int len;
  int *idx;
  double *val;
};
#endif /* SPF_STRUCT_SV_UNSORTED_164F590A */


#endif /* SPF_KERNEL_89AABE1220_H_STRUCTS */

#define SPF_STREAM_ORDER 1
#define SPF_STREAM_COORDINATES(X) X(0)
#include "spf_stream.h"
#define SPF_BUILDER spf_assemble_89aabe1220
#define SPF_BUILDER_OUTPUT struct spf_SV
#define SPF_BUILDER_COORDINATE int64_t
#define SPF_BUILDER_ORDER 1
#define SPF_BUILDER_KEYS 1
#define SPF_BUILDER_ROW_KEY int64_t
#define SPF_BUILDER_ROW_POINTER int64_t
#define SPF_BUILDER_REPORT 7
#define SPF_BUILDER_DUPLICATES 1
#define SPF_BUILDER_FIRST_DUPLICATE 2
#define SPF_BUILDER_FIRST_BAD 3
#define SPF_BUILDER_BAD_CHECK 4
#define SPF_BUILDER_DUPLICATE_AT 6
#define SPF_BUILDER_ROWS 0
#include "spf_builder.h"

#define SPF_ASSEMBLE_89AABE1220_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])

static inline int spf_assemble_89aabe1220_compare(const spf_assemble_89aabe1220_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_89AABE1220_K0(h, a), w = SPF_ASSEMBLE_89AABE1220_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_89aabe1220_first_difference(const spf_assemble_89aabe1220_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_89AABE1220_K0(h, a) != SPF_ASSEMBLE_89AABE1220_K0(h, b)) return 0;
  return 1;
}

void *spf_assemble_89aabe1220_begin(struct spf_SV *T, int64_t n, const spf_assemble_89aabe1220_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[7];
  if (!report) report = own_report;
  for (int r = 0; r < 7; r++) report[r] = 0;
  report[2] = -1; report[3] = -1; report[4] = -1;
  spf_assemble_89aabe1220_handle *h = (spf_assemble_89aabe1220_handle *)calloc(1, sizeof(spf_assemble_89aabe1220_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 1; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 1; k++) h->input_x[k] = (spf_assemble_89aabe1220_coordinate *)x[k]; h->input_v = (double *)v; }
  h->n = n; h->v = v;
  for (int k = 0; k < 1; k++) { h->x[k] = x[k]; h->stride[k] = stride[k]; }
  h->key[0] = (int64_t *)x[0]; h->key_stride[0] = stride[0];
  const int64_t s_n = T->n; (void)s_n;
  const int64_t s_len = T->len; (void)s_len;
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    if (!((x_i) >= (0) && (x_i) < ((s_n)))) { report[3] = e; report[4] = 0; spf_assemble_89aabe1220_bad_entry(h, e, report + 5); spf_assemble_89aabe1220_free(h); return NULL; }
    if (!(x_i == (((x_i))))) { report[3] = e; report[4] = 1; spf_assemble_89aabe1220_bad_entry(h, e, report + 5); spf_assemble_89aabe1220_free(h); return NULL; }
  }
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_89aabe1220_compare(h, t - 1, t, 0) <= 0;
  if (!sorted && !spf_assemble_89aabe1220_order(h)) { spf_assemble_89aabe1220_free(h); return NULL; }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_89aabe1220_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_89aabe1220_first_difference(h, end - 1, end) == 1; end++) sum = SPF_COMBINE(sum, h->v[end]);
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_89aabe1220_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 1, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 1;
    if (end - t > 1) { if (report[1] == 0) { report[2] = e; spf_assemble_89aabe1220_bad_entry(h, e, report + 6); } report[1] += end - t - 1; }
  }
  T->len = report[0] - 0;
  return h;
}

int spf_assemble_89aabe1220_fill(void *handle, struct spf_SV *T) {
  spf_assemble_89aabe1220_handle *h = (spf_assemble_89aabe1220_handle *)handle;
  const int64_t n = h->n;
  const int64_t s_n = T->n; (void)s_n;
  const int64_t s_len = T->len; (void)s_len;
  int *const a_idx = T->idx; (void)a_idx;
  double *const a_val = T->val; (void)a_val;
  memset(a_val, 0, (size_t)((s_len)) * sizeof(*a_val));
  int64_t p_p = -1;
  for (int64_t t = 0; t < n; t++) {
    const int d = h->diff[t];
    if (d == 255) continue;
    if (d < 1) {
      p_p++;
      a_idx[p_p] = SPF_ASSEMBLE_89AABE1220_K0(h, t);
    }
    a_val[p_p] = d == 1 ? SPF_COMBINE(a_val[p_p], h->v[t]) : h->v[t];
  }
  spf_assemble_89aabe1220_free(h);
  return 0;
}
#define SPF_WORKSPACE_FORWARD 1
#define SPF_WORKSPACE_COORDINATES(OTHER, KEY) KEY(0)
#include "spf_workspace.h"

int spf_kernel_89aabe1220(struct spf_SV *x, struct spf_SV_UNSORTED *y, struct spf_SV *z, int64_t *spf_report, void **spf_handle)
{
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t N_i = x_n;
  z->n = N_i;
  const int spf_thread_count = 1;
  const int spf_stream_count = spf_most_pieces(spf_thread_count);
  spf_stream *spf_streams = (spf_stream *) calloc((size_t) spf_stream_count, sizeof(spf_stream));
  if (!spf_streams)
    return 2;
  spf_stream spf_entries = {0};
  spf_workspaces *spf_call_workspaces = spf_workspaces_take(spf_thread_count, N_i, 1, 1);
  if (!spf_call_workspaces)
  {
    free(spf_streams);
    return 2;
  }
  spf_workspace *spf_accumulators = spf_call_workspaces->w;
  spf_stream *spf_my_stream = &spf_streams[0];
  spf_workspace *spf_my_accumulator = &spf_accumulators[0];
  if ((1 <= x_n) && (1 <= x_len))
  {
    for (int64_t px = 0; px <= (x_len - 1); px++)
    {
      const int64_t x_idx_px = x_idx[px];
      const int64_t i = x_idx_px;
      spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, x_val[px]);
    }

  }
  if ((1 <= y_n) && (1 <= y_len))
  {
    for (int64_t py = 0; py <= (y_len - 1); py++)
    {
      const int64_t y_idx_py = y_idx[py];
      const int64_t i = y_idx_py;
      spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, y_val[py]);
    }

  }
  for (int spf_t = 0; spf_t < spf_thread_count; spf_t++)
    spf_workspace_flush_1(&spf_accumulators[spf_t], &spf_streams[spf_t]);

  int64_t spf_own_report[7];
  if (!spf_report)
    spf_report = spf_own_report;
  int spf_status = (spf_streams_join(spf_streams, spf_stream_count, &spf_entries)) ? (0) : (2);
  if (!spf_status)
  {
    *spf_handle = spf_assemble_89aabe1220_begin(z, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
    spf_stream_forget(&spf_entries);
    if (!(*spf_handle))
      spf_status = (spf_report[3] >= 0) ? (3) : (2);
  }
  for (int spf_t = 0; spf_t < spf_stream_count; spf_t++)
    spf_stream_release(&spf_streams[spf_t]);

  free(spf_streams);
  spf_stream_release(&spf_entries);
  spf_workspaces_put(spf_call_workspaces);
  return spf_status;
}


void spf_kernel_89aabe1220_release_state(void)
{
  spf_workspaces_release();
}
