#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_D09F34009A_H_STRUCTS
#define SPF_KERNEL_D09F34009A_H_STRUCTS

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


#endif /* SPF_KERNEL_D09F34009A_H_STRUCTS */

#define SPF_STREAM_ORDER 1
#define SPF_STREAM_COORDINATES(X) X(0)
#include "spf_stream.h"
#define SPF_BUILDER spf_assemble_d09f34009a
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

#define SPF_ASSEMBLE_D09F34009A_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])

static inline int spf_assemble_d09f34009a_compare(const spf_assemble_d09f34009a_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_D09F34009A_K0(h, a), w = SPF_ASSEMBLE_D09F34009A_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_d09f34009a_first_difference(const spf_assemble_d09f34009a_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_D09F34009A_K0(h, a) != SPF_ASSEMBLE_D09F34009A_K0(h, b)) return 0;
  return 1;
}

void *spf_assemble_d09f34009a_begin(struct spf_SV *T, int64_t n, const spf_assemble_d09f34009a_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[7];
  if (!report) report = own_report;
  for (int r = 0; r < 7; r++) report[r] = 0;
  report[2] = -1; report[3] = -1; report[4] = -1;
  spf_assemble_d09f34009a_handle *h = (spf_assemble_d09f34009a_handle *)calloc(1, sizeof(spf_assemble_d09f34009a_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 1; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 1; k++) h->input_x[k] = (spf_assemble_d09f34009a_coordinate *)x[k]; h->input_v = (double *)v; }
  h->n = n; h->v = v;
  for (int k = 0; k < 1; k++) { h->x[k] = x[k]; h->stride[k] = stride[k]; }
  h->key[0] = (int64_t *)x[0]; h->key_stride[0] = stride[0];
  const int64_t s_n = T->n; (void)s_n;
  const int64_t s_len = T->len; (void)s_len;
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    if (!((x_i) >= (0) && (x_i) < ((s_n)))) { report[3] = e; report[4] = 0; spf_assemble_d09f34009a_bad_entry(h, e, report + 5); spf_assemble_d09f34009a_free(h); return NULL; }
    if (!(x_i == (((x_i))))) { report[3] = e; report[4] = 1; spf_assemble_d09f34009a_bad_entry(h, e, report + 5); spf_assemble_d09f34009a_free(h); return NULL; }
  }
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_d09f34009a_compare(h, t - 1, t, 0) <= 0;
  if (!sorted && !spf_assemble_d09f34009a_order(h)) { spf_assemble_d09f34009a_free(h); return NULL; }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_d09f34009a_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_d09f34009a_first_difference(h, end - 1, end) == 1; end++) sum = SPF_COMBINE(sum, h->v[end]);
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_d09f34009a_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 1, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 1;
    if (end - t > 1) { if (report[1] == 0) { report[2] = e; spf_assemble_d09f34009a_bad_entry(h, e, report + 6); } report[1] += end - t - 1; }
  }
  T->len = report[0] - 0;
  return h;
}

int spf_assemble_d09f34009a_fill(void *handle, struct spf_SV *T) {
  spf_assemble_d09f34009a_handle *h = (spf_assemble_d09f34009a_handle *)handle;
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
      a_idx[p_p] = SPF_ASSEMBLE_D09F34009A_K0(h, t);
    }
    a_val[p_p] = d == 1 ? SPF_COMBINE(a_val[p_p], h->v[t]) : h->v[t];
  }
  spf_assemble_d09f34009a_free(h);
  return 0;
}
#define SPF_WORKSPACE_FORWARD 1
#define SPF_WORKSPACE_COORDINATES(OTHER, KEY) KEY(0)
#include "spf_workspace.h"

int spf_kernel_d09f34009a_v0(struct spf_DCSR *A, struct spf_SV *x, struct spf_SV *z, struct spf_SV *y, int64_t *spf_report, void **spf_handle)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(A_numCols == x_n))
    return 1;
  y->n = N_i;
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
  if ((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len)) && (1 <= A_nnzRows))
  {
    for (int64_t pAi = 0; pAi <= (A_nnzRows - 1); pAi++)
    {
      const int64_t A_rowIdx_pAi_2 = A_rowIdx[pAi];
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = A_rowIdx_pAi_2;
        int64_t px_position_1 = 0;
        double sum_2 = 0.0;
        int added_3 = 0;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t key_4 = A_colIdx_pAj_2;
            while (((px_position_1 >= 0) && (px_position_1 <= (x_len - 1))) && (x_idx[px_position_1] < key_4))
              px_position_1++;

            if (!((px_position_1 >= 0) && (px_position_1 <= (x_len - 1))))
              break;
            if (((px_position_1 >= 0) && (px_position_1 <= (x_len - 1))) && (x_idx[px_position_1] == key_4))
            {
              const int64_t px = px_position_1;
              const int64_t x_idx_px_2 = A_colIdx_pAj_2;
              sum_2 += A_data[pAj] * x_val[px];
              added_3 = 1;
              px_position_1++;
            }
          }
        }

        if (added_3)
          spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, sum_2);
      }
    }

  }
  if ((1 <= z_n) && (1 <= z_len))
  {
    for (int64_t pz = 0; pz <= (z_len - 1); pz++)
    {
      const int64_t z_idx_pz_2 = z_idx[pz];
      const int64_t i = z_idx_pz_2;
      spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, z_val[pz]);
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
    *spf_handle = spf_assemble_d09f34009a_begin(y, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
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


static spf_state *spf_kernel_d09f34009a_v1_kept_state = 0;

static int spf_kernel_d09f34009a_v1_run(struct spf_DCSR *A, struct spf_SV *x, struct spf_SV *z, struct spf_SV *y, int64_t *spf_report, void **spf_handle, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(A_numCols == x_n))
    return 1;
  y->n = N_i;
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
  if ((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len)) && (1 <= A_nnzRows))
  {
    int64_t * const px_table_1 = spf_hash_fill(&spf_kept[0], ((x_len - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (x_len - 1); fill_2++)
      spf_hash_put(px_table_1, x_idx[fill_2], fill_2);

    for (int64_t pAi = 0; pAi <= (A_nnzRows - 1); pAi++)
    {
      const int64_t A_rowIdx_pAi_2 = A_rowIdx[pAi];
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = A_rowIdx_pAi_2;
        double sum_3 = 0.0;
        int added_4 = 0;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t q_5 = spf_hash_get(px_table_1, A_colIdx_pAj_2);
            if (q_5 >= 0)
            {
              const int64_t px = q_5;
              const int64_t x_idx_px_2 = A_colIdx_pAj_2;
              sum_3 += A_data[pAj] * x_val[px];
              added_4 = 1;
            }
          }
        }

        if (added_4)
          spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, sum_3);
      }
    }

  }
  if ((1 <= z_n) && (1 <= z_len))
  {
    for (int64_t pz = 0; pz <= (z_len - 1); pz++)
    {
      const int64_t z_idx_pz_2 = z_idx[pz];
      const int64_t i = z_idx_pz_2;
      spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, z_val[pz]);
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
    *spf_handle = spf_assemble_d09f34009a_begin(y, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
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


int spf_kernel_d09f34009a_v1(struct spf_DCSR *A, struct spf_SV *x, struct spf_SV *z, struct spf_SV *y, int64_t *spf_report, void **spf_handle)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_d09f34009a_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_d09f34009a_v1_run(A, x, z, y, spf_report, spf_handle, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_d09f34009a_v1_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_d09f34009a_v2_kept_state = 0;

static int spf_kernel_d09f34009a_v2_run(struct spf_DCSR *A, struct spf_SV *x, struct spf_SV *z, struct spf_SV *y, int64_t *spf_report, void **spf_handle, spf_state *spf_kept)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(A_numCols == x_n))
    return 1;
  y->n = N_i;
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
  if ((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len)) && (1 <= A_nnzRows))
  {
    int64_t * const px_table_2 = spf_bitmap_fill(&spf_kept[0], x_n);
    for (int64_t fill_3 = 0; fill_3 <= (x_len - 1); fill_3++)
      spf_bitmap_put(px_table_2, x_idx[fill_3], fill_3);

    const spf_bitmap px_bitmap_1 = spf_bitmap_view(px_table_2);
    for (int64_t pAi = 0; pAi <= (A_nnzRows - 1); pAi++)
    {
      const int64_t A_rowIdx_pAi_2 = A_rowIdx[pAi];
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = A_rowIdx_pAi_2;
        double sum_4 = 0.0;
        int added_5 = 0;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t q_6 = spf_bitmap_get(px_bitmap_1, A_colIdx_pAj_2);
            if (q_6 >= 0)
            {
              const int64_t px = q_6;
              const int64_t x_idx_px_2 = A_colIdx_pAj_2;
              sum_4 += A_data[pAj] * x_val[px];
              added_5 = 1;
            }
          }
        }

        if (added_5)
          spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, sum_4);
      }
    }

  }
  if ((1 <= z_n) && (1 <= z_len))
  {
    for (int64_t pz = 0; pz <= (z_len - 1); pz++)
    {
      const int64_t z_idx_pz_2 = z_idx[pz];
      const int64_t i = z_idx_pz_2;
      spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, z_val[pz]);
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
    *spf_handle = spf_assemble_d09f34009a_begin(y, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
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


int spf_kernel_d09f34009a_v2(struct spf_DCSR *A, struct spf_SV *x, struct spf_SV *z, struct spf_SV *y, int64_t *spf_report, void **spf_handle)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_d09f34009a_v2_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_d09f34009a_v2_run(A, x, z, y, spf_report, spf_handle, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_d09f34009a_v2_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_d09f34009a_v3(struct spf_DCSR *A, struct spf_SV *x, struct spf_SV *z, struct spf_SV *y, int64_t *spf_report, void **spf_handle)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!(A_numCols == x_n))
    return 1;
  y->n = N_i;
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
  if ((((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= x_len)) && (1 <= A_nnzRows))
  {
    for (int64_t pAi = 0; pAi <= (A_nnzRows - 1); pAi++)
    {
      const int64_t A_rowIdx_pAi_2 = A_rowIdx[pAi];
      const int64_t A_rowPtr_pAi_2 = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1_2 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi_2 + 1) <= A_rowPtr_pAi_1_2)
      {
        const int64_t i = A_rowIdx_pAi_2;
        double sum_1 = 0.0;
        int added_2 = 0;
        for (int64_t pAj = A_rowPtr_pAi_2; pAj <= (A_rowPtr_pAi_1_2 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj_2 = A_colIdx[pAj];
          {
            const int64_t key_5 = A_colIdx_pAj_2;
            int64_t lo_3 = 0;
            const int64_t end_7 = (x_len - 1) + 1;
            int64_t hi_4 = end_7;
            while (lo_3 < hi_4)
            {
              const int64_t mid_6 = lo_3 + ((hi_4 - lo_3) / 2);
              if (x_idx[mid_6] < key_5)
                lo_3 = mid_6 + 1;
              else
                hi_4 = mid_6;
            }

            if ((lo_3 < end_7) && (x_idx[lo_3] == key_5))
            {
              const int64_t px = lo_3;
              const int64_t x_idx_px_2 = A_colIdx_pAj_2;
              sum_1 += A_data[pAj] * x_val[px];
              added_2 = 1;
            }
          }
        }

        if (added_2)
          spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, sum_1);
      }
    }

  }
  if ((1 <= z_n) && (1 <= z_len))
  {
    for (int64_t pz = 0; pz <= (z_len - 1); pz++)
    {
      const int64_t z_idx_pz_2 = z_idx[pz];
      const int64_t i = z_idx_pz_2;
      spf_workspace_add_1(spf_my_accumulator, spf_my_stream, i, z_val[pz]);
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
    *spf_handle = spf_assemble_d09f34009a_begin(y, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
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


void spf_kernel_d09f34009a_release_state(void)
{
  spf_state_release(&spf_kernel_d09f34009a_v1_kept_state, 1);
  spf_state_release(&spf_kernel_d09f34009a_v2_kept_state, 1);
  spf_workspaces_release();
}
