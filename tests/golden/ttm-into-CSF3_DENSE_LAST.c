#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_9FC932633A_H_STRUCTS
#define SPF_KERNEL_9FC932633A_H_STRUCTS

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

#ifndef SPF_STRUCT_Dense2_35379900
#define SPF_STRUCT_Dense2_35379900
/*
 * Dense2: dense order-2 tensor, row-major
 *   vals: double[N0][N1], flattened row-major
 */
struct spf_Dense2
{
  int N0;
  int N1;
  double *vals;
};
#endif /* SPF_STRUCT_Dense2_35379900 */

#ifndef SPF_STRUCT_CSF3_DENSE_LAST_3E1427BB
#define SPF_STRUCT_CSF3_DENSE_LAST_3E1427BB
/*
 * CSF3_DENSE_LAST: compressed sparse fiber, order 3, with a dense last level
 *   val: double[nnz1][n2], flattened row-major
 */
struct spf_CSF3_DENSE_LAST
{
  int n0;
  int n1;
  int n2;
  int nnz0;
  int nnz1;
  int *idx0;
  int *ptr0;
  int *idx1;
  double *val;
};
#endif /* SPF_STRUCT_CSF3_DENSE_LAST_3E1427BB */


#endif /* SPF_KERNEL_9FC932633A_H_STRUCTS */

#define SPF_STREAM_ORDER 3
#define SPF_STREAM_COORDINATES(X) X(0) X(1) X(2)
#include "spf_stream.h"
#define SPF_BUILDER spf_assemble_9fc932633a
#define SPF_BUILDER_OUTPUT struct spf_CSF3_DENSE_LAST
#define SPF_BUILDER_COORDINATE int64_t
#define SPF_BUILDER_ORDER 3
#define SPF_BUILDER_KEYS 3
#define SPF_BUILDER_ROW_KEY int64_t
#define SPF_BUILDER_ROW_POINTER int64_t
#define SPF_BUILDER_REPORT 12
#define SPF_BUILDER_DUPLICATES 2
#define SPF_BUILDER_FIRST_DUPLICATE 3
#define SPF_BUILDER_FIRST_BAD 4
#define SPF_BUILDER_BAD_CHECK 5
#define SPF_BUILDER_DUPLICATE_AT 9
#define SPF_BUILDER_ROWS 0
#include "spf_builder.h"

#define SPF_ASSEMBLE_9FC932633A_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])
#define SPF_ASSEMBLE_9FC932633A_K1(h, e) ((h)->key[1][(e) * (h)->key_stride[1]])
#define SPF_ASSEMBLE_9FC932633A_K2(h, e) ((h)->key[2][(e) * (h)->key_stride[2]])

static inline int spf_assemble_9fc932633a_compare(const spf_assemble_9fc932633a_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_9FC932633A_K0(h, a), w = SPF_ASSEMBLE_9FC932633A_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 1) { const int64_t u = SPF_ASSEMBLE_9FC932633A_K1(h, a), w = SPF_ASSEMBLE_9FC932633A_K1(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 2) { const int64_t u = SPF_ASSEMBLE_9FC932633A_K2(h, a), w = SPF_ASSEMBLE_9FC932633A_K2(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_9fc932633a_first_difference(const spf_assemble_9fc932633a_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_9FC932633A_K0(h, a) != SPF_ASSEMBLE_9FC932633A_K0(h, b)) return 0;
  if (SPF_ASSEMBLE_9FC932633A_K1(h, a) != SPF_ASSEMBLE_9FC932633A_K1(h, b)) return 1;
  if (SPF_ASSEMBLE_9FC932633A_K2(h, a) != SPF_ASSEMBLE_9FC932633A_K2(h, b)) return 2;
  return 3;
}

void *spf_assemble_9fc932633a_begin(struct spf_CSF3_DENSE_LAST *T, int64_t n, const spf_assemble_9fc932633a_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[12];
  if (!report) report = own_report;
  for (int r = 0; r < 12; r++) report[r] = 0;
  report[3] = -1; report[4] = -1; report[5] = -1;
  spf_assemble_9fc932633a_handle *h = (spf_assemble_9fc932633a_handle *)calloc(1, sizeof(spf_assemble_9fc932633a_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 3; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 3; k++) h->input_x[k] = (spf_assemble_9fc932633a_coordinate *)x[k]; h->input_v = (double *)v; }
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
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    const int64_t x_j = h->x[1][e * h->stride[1]]; (void)x_j;
    const int64_t x_k = h->x[2][e * h->stride[2]]; (void)x_k;
    const int64_t p_p2 = (x_k); (void)p_p2;
    if (!(p_p2 >= (0))) { report[4] = e; report[5] = 0; spf_assemble_9fc932633a_bad_entry(h, e, report + 6); spf_assemble_9fc932633a_free(h); return NULL; }
    if (!(p_p2 <= (-1 + (s_n2)))) { report[4] = e; report[5] = 1; spf_assemble_9fc932633a_bad_entry(h, e, report + 6); spf_assemble_9fc932633a_free(h); return NULL; }
    if (!((x_i) >= (0) && (x_i) < ((s_n0)))) { report[4] = e; report[5] = 2; spf_assemble_9fc932633a_bad_entry(h, e, report + 6); spf_assemble_9fc932633a_free(h); return NULL; }
    if (!((x_j) >= (0) && (x_j) < ((s_n1)))) { report[4] = e; report[5] = 3; spf_assemble_9fc932633a_bad_entry(h, e, report + 6); spf_assemble_9fc932633a_free(h); return NULL; }
    if (!(x_i == (((x_i))))) { report[4] = e; report[5] = 4; spf_assemble_9fc932633a_bad_entry(h, e, report + 6); spf_assemble_9fc932633a_free(h); return NULL; }
    if (!(x_j == (((x_j))))) { report[4] = e; report[5] = 5; spf_assemble_9fc932633a_bad_entry(h, e, report + 6); spf_assemble_9fc932633a_free(h); return NULL; }
    if (!(x_k == ((p_p2)))) { report[4] = e; report[5] = 6; spf_assemble_9fc932633a_bad_entry(h, e, report + 6); spf_assemble_9fc932633a_free(h); return NULL; }
  }
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_9fc932633a_compare(h, t - 1, t, 0) <= 0;
  if (!sorted && !spf_assemble_9fc932633a_order(h)) { spf_assemble_9fc932633a_free(h); return NULL; }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_9fc932633a_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_9fc932633a_first_difference(h, end - 1, end) == 3; end++) sum = SPF_COMBINE(sum, h->v[end]);
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_9fc932633a_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 3, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 1;
    report[1] += d < 2;
    if (end - t > 1) { if (report[2] == 0) { report[3] = e; spf_assemble_9fc932633a_bad_entry(h, e, report + 9); } report[2] += end - t - 1; }
  }
  T->nnz0 = report[0] - 0;
  T->nnz1 = report[1] - 0;
  return h;
}

int spf_assemble_9fc932633a_fill(void *handle, struct spf_CSF3_DENSE_LAST *T) {
  spf_assemble_9fc932633a_handle *h = (spf_assemble_9fc932633a_handle *)handle;
  const int64_t n = h->n;
  const int64_t s_n0 = T->n0; (void)s_n0;
  const int64_t s_n1 = T->n1; (void)s_n1;
  const int64_t s_n2 = T->n2; (void)s_n2;
  const int64_t s_nnz0 = T->nnz0; (void)s_nnz0;
  const int64_t s_nnz1 = T->nnz1; (void)s_nnz1;
  int *const a_idx0 = T->idx0; (void)a_idx0;
  int *const a_ptr0 = T->ptr0; (void)a_ptr0;
  int *const a_idx1 = T->idx1; (void)a_idx1;
  double *const a_val = T->val; (void)a_val;
  memset(a_ptr0, 0, (size_t)(((s_nnz0 + 1))) * sizeof(*a_ptr0));
  memset(a_val, 0, (size_t)((s_nnz1) * (s_n2)) * sizeof(*a_val));
  int64_t p_p0 = -1;
  int64_t p_p1 = -1;
  for (int64_t t = 0; t < n; t++) {
    const int d = h->diff[t];
    if (d == 255) continue;
    if (d < 1) {
      p_p0++;
      a_idx0[p_p0] = SPF_ASSEMBLE_9FC932633A_K0(h, t);
    }
    if (d < 2) {
      p_p1++;
      a_idx1[p_p1] = SPF_ASSEMBLE_9FC932633A_K1(h, t);
      a_ptr0[((p_p0)) + 1]++;
    }
    const int64_t p_p2 = SPF_ASSEMBLE_9FC932633A_K2(h, t); (void)p_p2;
    a_val[(p_p1) * (s_n2) + p_p2] = d == 3 ? SPF_COMBINE(a_val[(p_p1) * (s_n2) + p_p2], h->v[t]) : h->v[t];
  }
  for (int64_t q = 0; q + 1 < (s_nnz0 + 1); q++) a_ptr0[q + 1] += a_ptr0[q];
  spf_assemble_9fc932633a_free(h);
  return 0;
}

int spf_kernel_9fc932633a(struct spf_CSF3 *B, struct spf_Dense2 *C, struct spf_CSF3_DENSE_LAST *A, int64_t *spf_report, void **spf_handle)
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
  const int64_t C_N0 = C->N0;
  const int64_t C_N1 = C->N1;
  double * restrict C_vals = C->vals;
  const int64_t A_n0 = A->n0;
  const int64_t A_n1 = A->n1;
  const int64_t A_n2 = A->n2;
  const int64_t A_nnz0 = A->nnz0;
  const int64_t A_nnz1 = A->nnz1;
  int * restrict A_idx0 = A->idx0;
  int * restrict A_ptr0 = A->ptr0;
  int * restrict A_idx1 = A->idx1;
  double * restrict A_val = A->val;
  const int64_t N_l = C_N1;
  const int64_t N_k = B_n2;
  const int64_t N_j = B_n1;
  const int64_t N_i = B_n0;
  if (!(B_n2 == C_N0))
    return 1;
  A->n0 = N_i;
  A->n1 = N_j;
  A->n2 = N_l;
  const int spf_thread_count = 1;
  const int spf_stream_count = spf_most_pieces(spf_thread_count);
  spf_stream *spf_streams = (spf_stream *) calloc((size_t) spf_stream_count, sizeof(spf_stream));
  if (!spf_streams)
    return 2;
  spf_stream spf_entries = {0};
  spf_stream *spf_my_stream = &spf_streams[0];
  if (((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= C_N1)) && (1 <= B_nnz0))
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
            for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
            {
              const int64_t B_idx2_pB2 = B_idx2[pB2];
              const int64_t pC0 = B_idx2_pB2;
              for (int64_t pC1 = 0; pC1 <= (C_N1 - 1); pC1++)
              {
                const int64_t l = pC1;
                if (C_vals[(pC0 * C_N1) + pC1] != 0.0)
                {
                  spf_append_3(spf_my_stream, i, j, l, B_val[pB2] * C_vals[(pC0 * C_N1) + pC1]);
                }
              }

            }

          }
        }

      }
    }

  }
  int64_t spf_own_report[12];
  if (!spf_report)
    spf_report = spf_own_report;
  int spf_status = (spf_streams_join(spf_streams, spf_stream_count, &spf_entries)) ? (0) : (2);
  if (!spf_status)
  {
    *spf_handle = spf_assemble_9fc932633a_begin(A, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
    spf_stream_forget(&spf_entries);
    if (!(*spf_handle))
      spf_status = (spf_report[4] >= 0) ? (3) : (2);
  }
  for (int spf_t = 0; spf_t < spf_stream_count; spf_t++)
    spf_stream_release(&spf_streams[spf_t]);

  free(spf_streams);
  spf_stream_release(&spf_entries);
  return spf_status;
}


void spf_kernel_9fc932633a_release_state(void)
{
}
