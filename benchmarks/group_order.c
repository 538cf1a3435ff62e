/* The workspace's run-time choice of how to put a group in order, against the fixed
   policies it chooses among (benchmarks/group_order.py).  A group is the set of columns
   Gustavson's workspace touches for one row of C = A*B, in the order first touched; each
   policy orders every group of the product as it is written to the rows (the choice
   through the kernels' own flush, spf_workspace_flush_rows), and the time it takes beyond
   writing the groups as touched is its cost.  Built with the kernels' flags, against
   spf's run-time C. */
#include <stdint.h>
#include <time.h>

#define SPF_STREAM_ORDER 2
#define SPF_STREAM_COORDINATES(X) X(0) X(1)
#include "spf_stream.h"
#define SPF_WORKSPACE_FORWARD 1
#define SPF_WORKSPACE_COORDINATES(OTHER, KEY) OTHER(0, 0) KEY(1)
#include "spf_workspace.h"

/* the rows a kernel into CSR writes (spf_rows.h), with a builder that is never called */
struct rows_output { int64_t rows; };
static void *no_adopt(struct rows_output *T, int64_t n, int32_t *keys, double *values, int64_t groups, int64_t *outer,
                      int64_t *end, int64_t *report, int trusted) {
  (void)T; (void)n; (void)keys; (void)values; (void)groups; (void)outer; (void)end; (void)report; (void)trusted;
  return 0;
}
static void *no_begin(struct rows_output *T, int64_t n, const int64_t *const *x, const int64_t *stride,
                      const double *v, int64_t *report, int owns_input, int drop_zeros) {
  (void)T; (void)n; (void)x; (void)stride; (void)v; (void)report; (void)owns_input; (void)drop_zeros;
  return 0;
}
#define SPF_ROWS_POSITION 1
#define SPF_ROWS_KEY int32_t
#define SPF_ROWS_OUTPUT struct rows_output
#define SPF_ROWS_ADOPT no_adopt
#define SPF_ROWS_BEGIN no_begin
#define SPF_ROWS_FIRST_BAD 3
#define SPF_ROWS_STATISTICS 9
#define SPF_ROWS_OUT_OF_MEMORY 2
#define SPF_ROWS_UNSTORABLE 3
#include "spf_rows.h"

enum { AS_TOUCHED, CHOICE, SURVEYED, RANKS_ELSE_RADIX, RADIX, MARKS_ELSE_RADIX, RANK_SORT_ELSE_RADIX, POLICIES };

/* whether this build ranks in registers (AVX-512) */
int ranks_in_registers(void) {
#ifdef SPF_RANK_BLOCKS
  return 1;
#else
  return 0;
#endif
}

static const int64_t *radix(spf_workspace *w) {
  spf_workspace_survey(w);
  spf_radix_sort_index(w->touched, w->touched + w->extent, w->count, w->low, w->high);
  return w->touched;
}

/* the group of w in order by one policy (as touched for AS_TOUCHED) */
static const int64_t *order_by(spf_workspace *w, int policy) {
  const int64_t count = w->count;
  switch (policy) {
    case CHOICE: return spf_workspace_order(w);
    case SURVEYED: return count > 2 ? spf_workspace_order_surveyed(w, spf_workspace_survey(w)) : spf_workspace_order(w);
#ifdef SPF_RANK_BLOCKS
    case RANKS_ELSE_RADIX:
      if (count <= SPF_RANK_AT_ONCE) {
        spf_rank_into(w->touched, count, w->touched + w->extent);
        return w->touched + w->extent;
      }
      return radix(w);
#endif
    case RADIX: return radix(w);
    case MARKS_ELSE_RADIX:
      spf_workspace_survey(w);
      if (spf_workspace_dense(w)) {
        int64_t n = 0;
        spf_workspace_mark(w);
        for (int64_t block = w->low >> 6; block <= w->high >> 6; block++)
          for (uint64_t b = spf_workspace_marked(w, block); b; b &= b - 1) w->touched[n++] = block * 64 + __builtin_ctzll(b);
        return w->touched;
      }
      return radix(w);
    case RANK_SORT_ELSE_RADIX:
      if (count <= SPF_RANK_SORTED) {
        spf_rank_sort(w->touched, count, w->touched + w->extent);
        return w->touched;
      }
      return radix(w);
    default: return w->touched;
  }
}

/* the group of w into the rows r in the order of a fixed policy, as spf_workspace_flush_rows
   writes it (sums taken from the accumulator, zeros dropped) */
static void flush_by(spf_workspace *w, spf_rows *r, int policy) {
  if (!spf_rows_reserve(r, w->count)) { r->failed = 1; return; }
  const int64_t n = spf_workspace_write_ordered(w, order_by(w, policy), r->key, r->v, r->n);
  r->outer[r->groups] = w->prefix[0];
  r->end[r->groups++] = n;
  r->n = n;
  w->count = 0; w->group++;
}

/* Seconds to accumulate every row of A*B (CSR, int32 indices, values 1) in the workspace and
   write it to rows, each group ordered by the policy (CHOICE: as the kernels flush, through
   spf_workspace_hand_group_rows; AS_TOUCHED: the same flush into an unsorted layout), best of `repeats`;
   *unordered: how many neighbouring pairs of a row came out not strictly increasing (0 for
   every policy but AS_TOUCHED).  0 on no memory, -1 for a policy this build lacks. */
double time_policy(const int32_t *Ap, const int32_t *Aj, const int32_t *Bp, const int32_t *Bj, int64_t rows,
                   int64_t columns, int policy, int repeats, int64_t *unordered) {
#ifndef SPF_RANK_BLOCKS
  if (policy == RANKS_ELSE_RADIX) return -1.0;
#endif
  spf_workspace w;
  spf_rows r;
  memset(&r, 0, sizeof r);
  r.ordered = 1;
  if (!spf_workspace_init(&w, columns, 1, policy != AS_TOUCHED)) { spf_workspace_release(&w); return 0.0; }
  double best = 1e30;
  for (int repeat = 0; repeat < repeats; repeat++) {
    struct timespec start, end;
    r.n = 0; r.groups = 0;
    const int kernels = policy == CHOICE || policy == AS_TOUCHED;  /* flushed as the kernels flush */
    clock_gettime(CLOCK_MONOTONIC, &start);
    spf_workspace_hand h = spf_workspace_hand_of(&w);
    for (int64_t i = 0; i < rows; i++) {
      if (kernels) spf_workspace_hand_group_rows(&h, &w, &r, i);
      else h.outer = w.prefix[0] = i;
      for (int32_t p = Ap[i]; p < Ap[i + 1]; p++)
        for (int32_t q = Bp[Aj[p]]; q < Bp[Aj[p] + 1]; q++) spf_workspace_hand_put(&h, Bj[q], 1.0);
      if (kernels || !h.count) continue;
      spf_workspace_hand_keep(&h, &w);
      flush_by(&w, &r, policy);
      h.count = 0; h.group = w.group;
    }
    spf_workspace_hand_keep(&h, &w);
    if (kernels) spf_workspace_flush_rows(&w, &r);
    w.prefix[0] = INT64_MIN;
    clock_gettime(CLOCK_MONOTONIC, &end);
    const double seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
    best = seconds < best ? seconds : best;
  }
  int64_t bad = 0;
  for (int64_t g = 0, e = 0; g < r.groups; e = r.end[g++])
    for (int64_t k = e + 1; k < r.end[g]; k++) bad += r.key[k] <= r.key[k - 1];
  *unordered = bad;
  const int failed = r.failed;
  spf_rows_release(&r);
  spf_workspace_release(&w);
  return failed ? 0.0 : best;
}
