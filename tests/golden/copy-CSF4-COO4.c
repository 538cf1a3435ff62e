#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_3D571E4D62_H_STRUCTS
#define SPF_KERNEL_3D571E4D62_H_STRUCTS

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

#ifndef SPF_STRUCT_CSF4_26D1F9A5
#define SPF_STRUCT_CSF4_26D1F9A5
/*
 * CSF4: compressed sparse fiber, order 4
 */
struct spf_CSF4
{
  int n0;
  int n1;
  int n2;
  int n3;
  int nnz0;
  int nnz1;
  int nnz2;
  int nnz3;
  int *idx0;
  int *ptr0;
  int *idx1;
  int *ptr1;
  int *idx2;
  int *ptr2;
  int *idx3;
  double *val;
};
#endif /* SPF_STRUCT_CSF4_26D1F9A5 */

#ifndef SPF_STRUCT_COO4_9875259A
#define SPF_STRUCT_COO4_9875259A
/*
 * COO4: sorted coordinate list, order 4
 */
struct spf_COO4
{
  int n0;
  int n1;
  int n2;
  int n3;
  int nnz;
  int *idx0;
  int *idx1;
  int *idx2;
  int *idx3;
  double *val;
};
#endif /* SPF_STRUCT_COO4_9875259A */


#endif /* SPF_KERNEL_3D571E4D62_H_STRUCTS */

#define SPF_STREAM_ORDER 4
#define SPF_STREAM_COORDINATES(X) X(0) X(1) X(2) X(3)
#include "spf_stream.h"
#define SPF_BUILDER spf_assemble_3d571e4d62
#define SPF_BUILDER_OUTPUT struct spf_COO4
#define SPF_BUILDER_COORDINATE int64_t
#define SPF_BUILDER_ORDER 4
#define SPF_BUILDER_KEYS 4
#define SPF_BUILDER_ROW_KEY int64_t
#define SPF_BUILDER_ROW_POINTER int64_t
#define SPF_BUILDER_REPORT 13
#define SPF_BUILDER_DUPLICATES 1
#define SPF_BUILDER_FIRST_DUPLICATE 2
#define SPF_BUILDER_FIRST_BAD 3
#define SPF_BUILDER_BAD_CHECK 4
#define SPF_BUILDER_DUPLICATE_AT 9
#define SPF_BUILDER_ROWS 0
#include "spf_builder.h"

#define SPF_ASSEMBLE_3D571E4D62_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])
#define SPF_ASSEMBLE_3D571E4D62_K1(h, e) ((h)->key[1][(e) * (h)->key_stride[1]])
#define SPF_ASSEMBLE_3D571E4D62_K2(h, e) ((h)->key[2][(e) * (h)->key_stride[2]])
#define SPF_ASSEMBLE_3D571E4D62_K3(h, e) ((h)->key[3][(e) * (h)->key_stride[3]])

static inline int spf_assemble_3d571e4d62_compare(const spf_assemble_3d571e4d62_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_3D571E4D62_K0(h, a), w = SPF_ASSEMBLE_3D571E4D62_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 1) { const int64_t u = SPF_ASSEMBLE_3D571E4D62_K1(h, a), w = SPF_ASSEMBLE_3D571E4D62_K1(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 2) { const int64_t u = SPF_ASSEMBLE_3D571E4D62_K2(h, a), w = SPF_ASSEMBLE_3D571E4D62_K2(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 3) { const int64_t u = SPF_ASSEMBLE_3D571E4D62_K3(h, a), w = SPF_ASSEMBLE_3D571E4D62_K3(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_3d571e4d62_first_difference(const spf_assemble_3d571e4d62_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_3D571E4D62_K0(h, a) != SPF_ASSEMBLE_3D571E4D62_K0(h, b)) return 0;
  if (SPF_ASSEMBLE_3D571E4D62_K1(h, a) != SPF_ASSEMBLE_3D571E4D62_K1(h, b)) return 1;
  if (SPF_ASSEMBLE_3D571E4D62_K2(h, a) != SPF_ASSEMBLE_3D571E4D62_K2(h, b)) return 2;
  if (SPF_ASSEMBLE_3D571E4D62_K3(h, a) != SPF_ASSEMBLE_3D571E4D62_K3(h, b)) return 3;
  return 4;
}

void *spf_assemble_3d571e4d62_begin(struct spf_COO4 *T, int64_t n, const spf_assemble_3d571e4d62_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[13];
  if (!report) report = own_report;
  for (int r = 0; r < 13; r++) report[r] = 0;
  report[2] = -1; report[3] = -1; report[4] = -1;
  spf_assemble_3d571e4d62_handle *h = (spf_assemble_3d571e4d62_handle *)calloc(1, sizeof(spf_assemble_3d571e4d62_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 4; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 4; k++) h->input_x[k] = (spf_assemble_3d571e4d62_coordinate *)x[k]; h->input_v = (double *)v; }
  h->n = n; h->v = v;
  for (int k = 0; k < 4; k++) { h->x[k] = x[k]; h->stride[k] = stride[k]; }
  h->key[0] = (int64_t *)x[0]; h->key_stride[0] = stride[0];
  h->key[1] = (int64_t *)x[1]; h->key_stride[1] = stride[1];
  h->key[2] = (int64_t *)x[2]; h->key_stride[2] = stride[2];
  h->key[3] = (int64_t *)x[3]; h->key_stride[3] = stride[3];
  const int64_t s_n0 = T->n0; (void)s_n0;
  const int64_t s_n1 = T->n1; (void)s_n1;
  const int64_t s_n2 = T->n2; (void)s_n2;
  const int64_t s_n3 = T->n3; (void)s_n3;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    const int64_t x_j = h->x[1][e * h->stride[1]]; (void)x_j;
    const int64_t x_k = h->x[2][e * h->stride[2]]; (void)x_k;
    const int64_t x_l = h->x[3][e * h->stride[3]]; (void)x_l;
    if (!((x_i) >= (0) && (x_i) < ((s_n0)))) { report[3] = e; report[4] = 0; spf_assemble_3d571e4d62_bad_entry(h, e, report + 5); spf_assemble_3d571e4d62_free(h); return NULL; }
    if (!((x_j) >= (0) && (x_j) < ((s_n1)))) { report[3] = e; report[4] = 1; spf_assemble_3d571e4d62_bad_entry(h, e, report + 5); spf_assemble_3d571e4d62_free(h); return NULL; }
    if (!((x_k) >= (0) && (x_k) < ((s_n2)))) { report[3] = e; report[4] = 2; spf_assemble_3d571e4d62_bad_entry(h, e, report + 5); spf_assemble_3d571e4d62_free(h); return NULL; }
    if (!((x_l) >= (0) && (x_l) < ((s_n3)))) { report[3] = e; report[4] = 3; spf_assemble_3d571e4d62_bad_entry(h, e, report + 5); spf_assemble_3d571e4d62_free(h); return NULL; }
    if (!(x_i == (((x_i))))) { report[3] = e; report[4] = 4; spf_assemble_3d571e4d62_bad_entry(h, e, report + 5); spf_assemble_3d571e4d62_free(h); return NULL; }
    if (!(x_j == (((x_j))))) { report[3] = e; report[4] = 5; spf_assemble_3d571e4d62_bad_entry(h, e, report + 5); spf_assemble_3d571e4d62_free(h); return NULL; }
    if (!(x_k == (((x_k))))) { report[3] = e; report[4] = 6; spf_assemble_3d571e4d62_bad_entry(h, e, report + 5); spf_assemble_3d571e4d62_free(h); return NULL; }
    if (!(x_l == (((x_l))))) { report[3] = e; report[4] = 7; spf_assemble_3d571e4d62_bad_entry(h, e, report + 5); spf_assemble_3d571e4d62_free(h); return NULL; }
  }
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_3d571e4d62_compare(h, t - 1, t, 0) <= 0;
  if (!sorted && !spf_assemble_3d571e4d62_order(h)) { spf_assemble_3d571e4d62_free(h); return NULL; }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_3d571e4d62_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_3d571e4d62_first_difference(h, end - 1, end) == 4; end++) sum = SPF_COMBINE(sum, h->v[end]);
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_3d571e4d62_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 4, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 4;
    if (end - t > 1) { if (report[1] == 0) { report[2] = e; spf_assemble_3d571e4d62_bad_entry(h, e, report + 9); } report[1] += end - t - 1; }
  }
  T->nnz = report[0] - 0;
  return h;
}

int spf_assemble_3d571e4d62_fill(void *handle, struct spf_COO4 *T) {
  spf_assemble_3d571e4d62_handle *h = (spf_assemble_3d571e4d62_handle *)handle;
  const int64_t n = h->n;
  const int64_t s_n0 = T->n0; (void)s_n0;
  const int64_t s_n1 = T->n1; (void)s_n1;
  const int64_t s_n2 = T->n2; (void)s_n2;
  const int64_t s_n3 = T->n3; (void)s_n3;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  int *const a_idx0 = T->idx0; (void)a_idx0;
  int *const a_idx1 = T->idx1; (void)a_idx1;
  int *const a_idx2 = T->idx2; (void)a_idx2;
  int *const a_idx3 = T->idx3; (void)a_idx3;
  double *const a_val = T->val; (void)a_val;
  memset(a_val, 0, (size_t)((s_nnz)) * sizeof(*a_val));
  int64_t p_p = -1;
  for (int64_t t = 0; t < n; t++) {
    const int d = h->diff[t];
    if (d == 255) continue;
    if (d < 4) {
      p_p++;
      a_idx0[p_p] = SPF_ASSEMBLE_3D571E4D62_K0(h, t);
      a_idx1[p_p] = SPF_ASSEMBLE_3D571E4D62_K1(h, t);
      a_idx2[p_p] = SPF_ASSEMBLE_3D571E4D62_K2(h, t);
      a_idx3[p_p] = SPF_ASSEMBLE_3D571E4D62_K3(h, t);
    }
    a_val[p_p] = d == 4 ? SPF_COMBINE(a_val[p_p], h->v[t]) : h->v[t];
  }
  spf_assemble_3d571e4d62_free(h);
  return 0;
}

int spf_kernel_3d571e4d62(struct spf_CSF4 *A, struct spf_COO4 *B, int64_t *spf_report, void **spf_handle)
{
  const int64_t A_n0 = A->n0;
  const int64_t A_n1 = A->n1;
  const int64_t A_n2 = A->n2;
  const int64_t A_n3 = A->n3;
  const int64_t A_nnz0 = A->nnz0;
  const int64_t A_nnz1 = A->nnz1;
  const int64_t A_nnz2 = A->nnz2;
  const int64_t A_nnz3 = A->nnz3;
  int * restrict A_idx0 = A->idx0;
  int * restrict A_ptr0 = A->ptr0;
  int * restrict A_idx1 = A->idx1;
  int * restrict A_ptr1 = A->ptr1;
  int * restrict A_idx2 = A->idx2;
  int * restrict A_ptr2 = A->ptr2;
  int * restrict A_idx3 = A->idx3;
  double * restrict A_val = A->val;
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_n3 = B->n3;
  const int64_t B_nnz = B->nnz;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_idx2 = B->idx2;
  int * restrict B_idx3 = B->idx3;
  double * restrict B_val = B->val;
  const int64_t N_l = A_n3;
  const int64_t N_k = A_n2;
  const int64_t N_j = A_n1;
  const int64_t N_i = A_n0;
  B->n0 = N_l;
  B->n1 = N_j;
  B->n2 = N_i;
  B->n3 = N_k;
  const int spf_thread_count = 1;
  const int spf_stream_count = spf_most_pieces(spf_thread_count);
  spf_stream *spf_streams = (spf_stream *) calloc((size_t) spf_stream_count, sizeof(spf_stream));
  if (!spf_streams)
    return 2;
  spf_stream spf_entries = {0};
  spf_stream *spf_my_stream = &spf_streams[0];
  if (((((1 <= A_n0) && (1 <= A_n1)) && (1 <= A_n2)) && (1 <= A_n3)) && (1 <= A_nnz0))
  {
    for (int64_t pA0 = 0; pA0 <= (A_nnz0 - 1); pA0++)
    {
      const int64_t A_idx0_pA0 = A_idx0[pA0];
      const int64_t A_ptr0_pA0 = A_ptr0[pA0];
      const int64_t A_ptr0_pA0_1 = A_ptr0[pA0 + 1];
      if ((A_ptr0_pA0 + 1) <= A_ptr0_pA0_1)
      {
        const int64_t i = A_idx0_pA0;
        for (int64_t pA1 = A_ptr0_pA0; pA1 <= (A_ptr0_pA0_1 - 1); pA1++)
        {
          const int64_t A_idx1_pA1 = A_idx1[pA1];
          const int64_t A_ptr1_pA1 = A_ptr1[pA1];
          const int64_t A_ptr1_pA1_1 = A_ptr1[pA1 + 1];
          if ((A_ptr1_pA1 + 1) <= A_ptr1_pA1_1)
          {
            const int64_t j = A_idx1_pA1;
            for (int64_t pA2 = A_ptr1_pA1; pA2 <= (A_ptr1_pA1_1 - 1); pA2++)
            {
              const int64_t A_idx2_pA2 = A_idx2[pA2];
              const int64_t A_ptr2_pA2 = A_ptr2[pA2];
              const int64_t A_ptr2_pA2_1 = A_ptr2[pA2 + 1];
              if ((A_ptr2_pA2 + 1) <= A_ptr2_pA2_1)
              {
                const int64_t k = A_idx2_pA2;
                for (int64_t pA3 = A_ptr2_pA2; pA3 <= (A_ptr2_pA2_1 - 1); pA3++)
                {
                  const int64_t A_idx3_pA3 = A_idx3[pA3];
                  const int64_t l = A_idx3_pA3;
                  spf_append_4(spf_my_stream, l, j, i, k, A_val[pA3]);
                }

              }
            }

          }
        }

      }
    }

  }
  int64_t spf_own_report[13];
  if (!spf_report)
    spf_report = spf_own_report;
  int spf_status = (spf_streams_join(spf_streams, spf_stream_count, &spf_entries)) ? (0) : (2);
  if (!spf_status)
  {
    *spf_handle = spf_assemble_3d571e4d62_begin(B, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
    spf_stream_forget(&spf_entries);
    if (!(*spf_handle))
      spf_status = (spf_report[3] >= 0) ? (3) : (2);
  }
  for (int spf_t = 0; spf_t < spf_stream_count; spf_t++)
    spf_stream_release(&spf_streams[spf_t]);

  free(spf_streams);
  spf_stream_release(&spf_entries);
  return spf_status;
}


void spf_kernel_3d571e4d62_release_state(void)
{
}
