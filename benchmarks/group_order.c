/* The workspace's run-time choice of how to put a group in order, against the fixed
   policies it chooses among (benchmarks/group_order.py).  A group is the set of columns
   Gustavson's workspace touches for one row of C = A*B, in the order first touched; each
   policy orders every group of the product, and the time it takes beyond handing the
   groups over unordered is its cost.  Built with the kernels' flags, against spf's
   run-time C. */
#include <stdint.h>
#include <time.h>

#define SPF_STREAM_ORDER 2
#define SPF_STREAM_COORDINATES(X) X(0) X(1)
#include "spf_stream.h"
#define SPF_WORKSPACE_FORWARD 1
#define SPF_WORKSPACE_COORDINATES(OTHER, KEY) OTHER(0, 0) KEY(1)
#include "spf_workspace.h"

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
      if (count <= 16 * SPF_RANK_BLOCKS) {
        int64_t *const ranked = w->touched + w->extent;
        __m512i keys[SPF_RANK_BLOCKS];
        const int64_t blocks = spf_rank_keys(w->touched, count, keys);
        for (int64_t t = 0; t < count; t++) ranked[spf_rank_of(keys, blocks, w->touched[t])] = w->touched[t];
        return ranked;
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

/* Seconds to touch and order every group of A*B (CSR, int32 indices) by the policy, best of
   `repeats`; *unordered: how many groups came out not strictly increasing (0 for every
   policy but AS_TOUCHED).  0 on no memory, -1 for a policy this build lacks. */
double time_policy(const int32_t *Ap, const int32_t *Aj, const int32_t *Bp, const int32_t *Bj, int64_t rows,
                   int64_t columns, int policy, int repeats, int64_t *unordered) {
#ifndef SPF_RANK_BLOCKS
  if (policy == RANKS_ELSE_RADIX) return -1.0;
#endif
  spf_workspace w;
  if (!spf_workspace_init(&w, columns, 0, 1)) { spf_workspace_release(&w); return 0.0; }
  double best = 1e30;
  int64_t checksum = 0;
  for (int repeat = 0; repeat < repeats; repeat++) {
    struct timespec start, end;
    int64_t bad = 0;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int64_t i = 0; i < rows; i++) {
      for (int32_t p = Ap[i]; p < Ap[i + 1]; p++)
        for (int32_t q = Bp[Aj[p]]; q < Bp[Aj[p] + 1]; q++) {
          const int64_t c = Bj[q];
          if (w.stamp[c] != w.group) { w.stamp[c] = w.group; w.touched[w.count++] = c; }
        }
      if (w.count) {
        const int64_t *const order = order_by(&w, policy);
        for (int64_t t = 1; t < w.count; t++) bad += order[t] <= order[t - 1];
        checksum += order[0];
      }
      w.count = 0; w.group++;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    const double seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
    best = seconds < best ? seconds : best;
    *unordered = bad;
  }
  spf_workspace_release(&w);
  return best + 0.0 * (double)checksum;
}
