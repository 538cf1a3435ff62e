#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_C6CC419C37_H_STRUCTS
#define SPF_KERNEL_C6CC419C37_H_STRUCTS

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

#ifndef SPF_STRUCT_COO3_2EA36B8E
#define SPF_STRUCT_COO3_2EA36B8E
/*
 * COO3: sorted coordinate list, order 3
 */
struct spf_COO3
{
  int n0;
  int n1;
  int n2;
  int nnz;
  int *idx0;
  int *idx1;
  int *idx2;
  double *val;
};
#endif /* SPF_STRUCT_COO3_2EA36B8E */

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


#endif /* SPF_KERNEL_C6CC419C37_H_STRUCTS */

#define SPF_STREAM_ORDER 3
#define SPF_STREAM_COORDINATES(X) X(0) X(1) X(2)
#include "spf_stream.h"
#define SPF_BUILDER spf_assemble_c6cc419c37
#define SPF_BUILDER_OUTPUT struct spf_CSF3
#define SPF_BUILDER_COORDINATE int64_t
#define SPF_BUILDER_ORDER 3
#define SPF_BUILDER_KEYS 3
#define SPF_BUILDER_ROW_KEY int64_t
#define SPF_BUILDER_ROW_POINTER int64_t
#define SPF_BUILDER_REPORT 13
#define SPF_BUILDER_DUPLICATES 3
#define SPF_BUILDER_FIRST_DUPLICATE 4
#define SPF_BUILDER_FIRST_BAD 5
#define SPF_BUILDER_BAD_CHECK 6
#define SPF_BUILDER_DUPLICATE_AT 10
#define SPF_BUILDER_ROWS 0
#include "spf_builder.h"

#define SPF_ASSEMBLE_C6CC419C37_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])
#define SPF_ASSEMBLE_C6CC419C37_K1(h, e) ((h)->key[1][(e) * (h)->key_stride[1]])
#define SPF_ASSEMBLE_C6CC419C37_K2(h, e) ((h)->key[2][(e) * (h)->key_stride[2]])

static inline int spf_assemble_c6cc419c37_compare(const spf_assemble_c6cc419c37_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_C6CC419C37_K0(h, a), w = SPF_ASSEMBLE_C6CC419C37_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 1) { const int64_t u = SPF_ASSEMBLE_C6CC419C37_K1(h, a), w = SPF_ASSEMBLE_C6CC419C37_K1(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 2) { const int64_t u = SPF_ASSEMBLE_C6CC419C37_K2(h, a), w = SPF_ASSEMBLE_C6CC419C37_K2(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_c6cc419c37_first_difference(const spf_assemble_c6cc419c37_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_C6CC419C37_K0(h, a) != SPF_ASSEMBLE_C6CC419C37_K0(h, b)) return 0;
  if (SPF_ASSEMBLE_C6CC419C37_K1(h, a) != SPF_ASSEMBLE_C6CC419C37_K1(h, b)) return 1;
  if (SPF_ASSEMBLE_C6CC419C37_K2(h, a) != SPF_ASSEMBLE_C6CC419C37_K2(h, b)) return 2;
  return 3;
}

void *spf_assemble_c6cc419c37_begin(struct spf_CSF3 *T, int64_t n, const spf_assemble_c6cc419c37_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[13];
  if (!report) report = own_report;
  for (int r = 0; r < 13; r++) report[r] = 0;
  report[4] = -1; report[5] = -1; report[6] = -1;
  spf_assemble_c6cc419c37_handle *h = (spf_assemble_c6cc419c37_handle *)calloc(1, sizeof(spf_assemble_c6cc419c37_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 3; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 3; k++) h->input_x[k] = (spf_assemble_c6cc419c37_coordinate *)x[k]; h->input_v = (double *)v; }
  h->n = n; h->v = v;
  for (int k = 0; k < 3; k++) { h->x[k] = x[k]; h->stride[k] = stride[k]; }
  h->key[0] = (int64_t *)x[0]; h->key_stride[0] = stride[0];
  h->key[1] = (int64_t *)x[1]; h->key_stride[1] = stride[1];
  h->key[2] = (int64_t *)x[2]; h->key_stride[2] = stride[2];
  const int64_t s_n0 = T->n0; (void)s_n0;
  const int64_t s_n1 = T->n1; (void)s_n1;
  const int64_t s_n2 = T->n2; (void)s_n2;
  const int64_t s_nnz0 = T->nnz0; (void)s_nnz0;
  const int64_t s_nnz1 = T->nnz1; (void)s_nnz1;
  const int64_t s_nnz2 = T->nnz2; (void)s_nnz2;
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    const int64_t x_j = h->x[1][e * h->stride[1]]; (void)x_j;
    const int64_t x_k = h->x[2][e * h->stride[2]]; (void)x_k;
    if (!((x_i) >= (0) && (x_i) < ((s_n0)))) { report[5] = e; report[6] = 0; spf_assemble_c6cc419c37_bad_entry(h, e, report + 7); spf_assemble_c6cc419c37_free(h); return NULL; }
    if (!((x_j) >= (0) && (x_j) < ((s_n1)))) { report[5] = e; report[6] = 1; spf_assemble_c6cc419c37_bad_entry(h, e, report + 7); spf_assemble_c6cc419c37_free(h); return NULL; }
    if (!((x_k) >= (0) && (x_k) < ((s_n2)))) { report[5] = e; report[6] = 2; spf_assemble_c6cc419c37_bad_entry(h, e, report + 7); spf_assemble_c6cc419c37_free(h); return NULL; }
    if (!(x_i == (((x_i))))) { report[5] = e; report[6] = 3; spf_assemble_c6cc419c37_bad_entry(h, e, report + 7); spf_assemble_c6cc419c37_free(h); return NULL; }
    if (!(x_j == (((x_j))))) { report[5] = e; report[6] = 4; spf_assemble_c6cc419c37_bad_entry(h, e, report + 7); spf_assemble_c6cc419c37_free(h); return NULL; }
    if (!(x_k == (((x_k))))) { report[5] = e; report[6] = 5; spf_assemble_c6cc419c37_bad_entry(h, e, report + 7); spf_assemble_c6cc419c37_free(h); return NULL; }
  }
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_c6cc419c37_compare(h, t - 1, t, 0) <= 0;
  if (!sorted && !spf_assemble_c6cc419c37_order(h)) { spf_assemble_c6cc419c37_free(h); return NULL; }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_c6cc419c37_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_c6cc419c37_first_difference(h, end - 1, end) == 3; end++) sum = SPF_COMBINE(sum, h->v[end]);
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_c6cc419c37_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 3, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 1;
    report[1] += d < 2;
    report[2] += d < 3;
    if (end - t > 1) { if (report[3] == 0) { report[4] = e; spf_assemble_c6cc419c37_bad_entry(h, e, report + 10); } report[3] += end - t - 1; }
  }
  T->nnz0 = report[0] - 0;
  T->nnz1 = report[1] - 0;
  T->nnz2 = report[2] - 0;
  return h;
}

int spf_assemble_c6cc419c37_fill(void *handle, struct spf_CSF3 *T) {
  spf_assemble_c6cc419c37_handle *h = (spf_assemble_c6cc419c37_handle *)handle;
  const int64_t n = h->n;
  const int64_t s_n0 = T->n0; (void)s_n0;
  const int64_t s_n1 = T->n1; (void)s_n1;
  const int64_t s_n2 = T->n2; (void)s_n2;
  const int64_t s_nnz0 = T->nnz0; (void)s_nnz0;
  const int64_t s_nnz1 = T->nnz1; (void)s_nnz1;
  const int64_t s_nnz2 = T->nnz2; (void)s_nnz2;
  int *const a_idx0 = T->idx0; (void)a_idx0;
  int *const a_ptr0 = T->ptr0; (void)a_ptr0;
  int *const a_idx1 = T->idx1; (void)a_idx1;
  int *const a_ptr1 = T->ptr1; (void)a_ptr1;
  int *const a_idx2 = T->idx2; (void)a_idx2;
  double *const a_val = T->val; (void)a_val;
  memset(a_ptr0, 0, (size_t)(((s_nnz0 + 1))) * sizeof(*a_ptr0));
  memset(a_ptr1, 0, (size_t)(((s_nnz1 + 1))) * sizeof(*a_ptr1));
  memset(a_val, 0, (size_t)((s_nnz2)) * sizeof(*a_val));
  int64_t p_p0 = -1;
  int64_t p_p1 = -1;
  int64_t p_p2 = -1;
  for (int64_t t = 0; t < n; t++) {
    const int d = h->diff[t];
    if (d == 255) continue;
    if (d < 1) {
      p_p0++;
      a_idx0[p_p0] = SPF_ASSEMBLE_C6CC419C37_K0(h, t);
    }
    if (d < 2) {
      p_p1++;
      a_idx1[p_p1] = SPF_ASSEMBLE_C6CC419C37_K1(h, t);
      a_ptr0[((p_p0)) + 1]++;
    }
    if (d < 3) {
      p_p2++;
      a_idx2[p_p2] = SPF_ASSEMBLE_C6CC419C37_K2(h, t);
      a_ptr1[((p_p1)) + 1]++;
    }
    a_val[p_p2] = d == 3 ? SPF_COMBINE(a_val[p_p2], h->v[t]) : h->v[t];
  }
  for (int64_t q = 0; q + 1 < (s_nnz0 + 1); q++) a_ptr0[q + 1] += a_ptr0[q];
  for (int64_t q = 0; q + 1 < (s_nnz1 + 1); q++) a_ptr1[q + 1] += a_ptr1[q];
  spf_assemble_c6cc419c37_free(h);
  return 0;
}
#define SPF_WORKSPACE_FORWARD 1
#define SPF_WORKSPACE_COORDINATES(OTHER, KEY) OTHER(0, 0) OTHER(1, 1) KEY(2)
#include "spf_workspace.h"

int spf_kernel_c6cc419c37(struct spf_COO3 *A, struct spf_CSF3 *B, int64_t *spf_report, void **spf_handle)
{
  const int64_t A_n0 = A->n0;
  const int64_t A_n1 = A->n1;
  const int64_t A_n2 = A->n2;
  const int64_t A_nnz = A->nnz;
  int * restrict A_idx0 = A->idx0;
  int * restrict A_idx1 = A->idx1;
  int * restrict A_idx2 = A->idx2;
  double * restrict A_val = A->val;
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
  const int64_t N_k = A_n2;
  const int64_t N_j = A_n1;
  const int64_t N_i = A_n0;
  B->n0 = N_i;
  B->n1 = N_j;
  B->n2 = N_k;
  const int spf_thread_count = 1;
  const int spf_stream_count = spf_most_pieces(spf_thread_count);
  spf_stream *spf_streams = (spf_stream *) calloc((size_t) spf_stream_count, sizeof(spf_stream));
  if (!spf_streams)
    return 2;
  spf_stream spf_entries = {0};
  spf_workspaces *spf_call_workspaces = spf_workspaces_take(spf_thread_count, N_k, 1, 1);
  if (!spf_call_workspaces)
  {
    free(spf_streams);
    return 2;
  }
  spf_workspace *spf_accumulators = spf_call_workspaces->w;
  spf_stream *spf_my_stream = &spf_streams[0];
  spf_workspace *spf_my_accumulator = &spf_accumulators[0];
  if ((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= A_nnz))
  {
    for (int64_t pA = 0; pA <= (A_nnz - 1); pA++)
    {
      const int64_t A_idx0_pA = A_idx0[pA];
      const int64_t A_idx1_pA = A_idx1[pA];
      const int64_t A_idx2_pA = A_idx2[pA];
      const int64_t i = A_idx0_pA;
      const int64_t j = A_idx1_pA;
      const int64_t k = A_idx2_pA;
      spf_workspace_add_3(spf_my_accumulator, spf_my_stream, i, j, k, A_val[pA]);
    }

  }
  for (int spf_t = 0; spf_t < spf_thread_count; spf_t++)
    spf_workspace_flush_3(&spf_accumulators[spf_t], &spf_streams[spf_t]);

  int64_t spf_own_report[13];
  if (!spf_report)
    spf_report = spf_own_report;
  int spf_status = (spf_streams_join(spf_streams, spf_stream_count, &spf_entries)) ? (0) : (2);
  if (!spf_status)
  {
    *spf_handle = spf_assemble_c6cc419c37_begin(B, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
    spf_stream_forget(&spf_entries);
    if (!(*spf_handle))
      spf_status = (spf_report[5] >= 0) ? (3) : (2);
  }
  for (int spf_t = 0; spf_t < spf_stream_count; spf_t++)
    spf_stream_release(&spf_streams[spf_t]);

  free(spf_streams);
  spf_stream_release(&spf_entries);
  spf_workspaces_put(spf_call_workspaces);
  return spf_status;
}


void spf_kernel_c6cc419c37_release_state(void)
{
  spf_workspaces_release();
}
