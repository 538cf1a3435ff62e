/* spf's run-time C: Gustavson's workspace, a dense accumulator over one coordinate of an
   assembled output.  The statement adds into it; whenever the other coordinates change,
   the touched coordinates are put in order (a merge of two runs, a scan of marks, a
   rank or radix sort) and flushed to the stream (spf_stream.h), each once.  Fixed C,
   included by the generated source after spf_stream.h and its parameters:

     SPF_WORKSPACE_FORWARD                  1: flushed in increasing order, 0: decreasing
     SPF_WORKSPACE_COORDINATES(OTHER, KEY)  each coordinate of an entry in turn: KEY(k)
                                            for the accumulator's, OTHER(k, n) for one of
                                            the group's, kept in prefix[n]

   It defines spf_workspace, spf_workspace_add_<SPF_STREAM_ORDER> and
   spf_workspace_flush_<SPF_STREAM_ORDER>, and the workspaces kept between calls. */
#ifndef SPF_WORKSPACE_H
#define SPF_WORKSPACE_H

#include "spf_stream.h"

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  /* a kernel calls some of these, not all */

/* the group's coordinates (at least one slot) */
#define SPF_WORKSPACE_PREFIX (SPF_STREAM_ORDER > 1 ? SPF_STREAM_ORDER - 1 : 1)
/* where the t-th of count touched coordinates in order is flushed from */
#if SPF_WORKSPACE_FORWARD
#define SPF_WORKSPACE_FLUSHED(t, count) t
#else
#define SPF_WORKSPACE_FLUSHED(t, count) count - 1 - t
#endif
#define SPF_WORKSPACE_NOTHING_(...)
#define SPF_WORKSPACE_GROUP_PARAMETER_(k, n) , int64_t c##k
#define SPF_WORKSPACE_KEY_PARAMETER_(k) , int64_t c##k
#define SPF_WORKSPACE_CHANGED_(k, n) || w->prefix[n] != c##k
#define SPF_WORKSPACE_KEEP_(k, n) w->prefix[n] = c##k;
#define SPF_WORKSPACE_KEY_(k) c##k
#define SPF_WORKSPACE_GROUP_ARGUMENT_(k, n) , w->prefix[n]
#define SPF_WORKSPACE_KEY_ARGUMENT_(k) , c

typedef struct spf_workspace_ {
  double *acc; int64_t *stamp; int64_t *touched; uint8_t *marks; int64_t extent, count, group, low, high;
  int64_t prefix[SPF_WORKSPACE_PREFIX]; int drop_zeros, sorted;
  int64_t run_merges, dense_scans, radix_sorts, comparison_sorts;  /* how each group was ordered */
  char apart[64];  /* the threads' workspaces lie side by side: no cache line holds two threads' fields */
} spf_workspace;

static int spf_workspace_init(spf_workspace *w, int64_t extent, int drop_zeros, int sorted) {
  w->acc = (double *)calloc((size_t)(extent > 0 ? extent : 1), sizeof(double));
  w->stamp = (int64_t *)malloc((size_t)(extent > 0 ? extent : 1) * sizeof(int64_t));
  w->touched = (int64_t *)malloc((size_t)(2 * (extent > 0 ? extent : 0) + 8) * sizeof(int64_t));  /* + scratch; 8 at least */
  w->marks = (uint8_t *)calloc((size_t)(extent / 64 + 1), 64);  /* whole blocks of 64 */
  if (!w->acc || !w->stamp || !w->touched || !w->marks) return 0;
  for (int k = 0; k < 8; k++) w->touched[k] = 0;  /* read (not used) by the networks past a short group */
  for (int64_t c = 0; c < extent; c++) w->stamp[c] = -1;
  w->extent = extent; w->count = 0; w->group = 0; w->low = extent; w->high = -1;
  for (int k = 0; k < SPF_WORKSPACE_PREFIX; k++) w->prefix[k] = INT64_MIN;  /* no group yet */
  w->drop_zeros = drop_zeros; w->sorted = sorted;
  w->run_merges = w->dense_scans = w->radix_sorts = w->comparison_sorts = 0;
  return 1;
}

static void spf_workspace_release(spf_workspace *w) {
  free(w->acc); free(w->stamp); free(w->touched); free(w->marks);
  w->acc = 0; w->stamp = 0; w->touched = 0; w->marks = 0;
}

/* one workspace per thread (0: out of memory; release them all either way) */
static int spf_workspaces_init(spf_workspace *w, int threads, int64_t extent, int drop_zeros, int sorted) {
  int ok = 1;
  for (int t = 0; t < threads; t++) ok = spf_workspace_init(&w[t], extent, drop_zeros, sorted) && ok;
  return ok;
}

/* The per-thread workspaces of a call that flushes into a stream, kept between calls (as
   the rows' scratch is): one set is held by the library, taken and given back atomically
   (a concurrent call makes its own), while it is at most SPF_WORKSPACES_KEPT bytes, and
   reused when it has as many threads and accumulators at least as wide.  A flush leaves
   the accumulator zero and the bitmap clear, and the stamps name past groups only (the
   group count goes on), so a reused workspace is as new; a call that stopped before a
   flush has its unflushed sums zeroed through the touched list when it gives them back. */
#define SPF_WORKSPACES_KEPT ((int64_t)64 << 20)
typedef struct spf_workspaces_ { int threads; int64_t extent; spf_workspace *w; } spf_workspaces;
static spf_workspaces *spf_spare_workspaces = 0;

static void spf_workspaces_free(spf_workspaces *set) {
  if (!set) return;
  for (int t = 0; set->w && t < set->threads; t++) spf_workspace_release(&set->w[t]);
  free(set->w);
  free(set);
}

static spf_workspaces *spf_workspaces_take(int threads, int64_t extent, int drop_zeros, int sorted) {
  spf_workspaces *set = __atomic_exchange_n(&spf_spare_workspaces, (spf_workspaces *)0, __ATOMIC_ACQ_REL);
  if (set && (set->threads != threads || set->extent < extent)) { spf_workspaces_free(set); set = 0; }
  if (!set) {
    set = (spf_workspaces *)calloc(1, sizeof(spf_workspaces));
    if (!set) return 0;
    set->threads = threads; set->extent = extent;
    set->w = (spf_workspace *)calloc((size_t)threads, sizeof(spf_workspace));
    if (!set->w || !spf_workspaces_init(set->w, threads, extent, drop_zeros, sorted)) {
      spf_workspaces_free(set);
      return 0;
    }
  }
  for (int t = 0; t < threads; t++) {
    spf_workspace *w = &set->w[t];
    w->count = 0; w->group++; w->low = w->extent; w->high = -1;
    for (int k = 0; k < SPF_WORKSPACE_PREFIX; k++) w->prefix[k] = INT64_MIN;
    w->drop_zeros = drop_zeros; w->sorted = sorted;
    w->run_merges = w->dense_scans = w->radix_sorts = w->comparison_sorts = 0;
  }
  return set;
}

/* the group's sums zeroed, unwritten (a call that stopped before a flush, or a flush
   without room for them); the group is then empty */
static void spf_workspace_drop(spf_workspace *w) {
  for (int64_t k = 0; k < w->count; k++) w->acc[w->touched[k]] = 0.0;
  w->count = 0;
}

static void spf_workspaces_put(spf_workspaces *set) {
  if (!set) return;
  for (int t = 0; t < set->threads; t++) spf_workspace_drop(&set->w[t]);
  const int64_t bytes = set->threads * set->extent * (int64_t)(sizeof(double) + 3 * sizeof(int64_t) + 1);
  spf_workspaces *empty = 0;
  if (bytes > SPF_WORKSPACES_KEPT ||
      !__atomic_compare_exchange_n(&spf_spare_workspaces, &empty, set, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    spf_workspaces_free(set);
}

static void spf_workspaces_release(void) {
  spf_workspaces_free(__atomic_exchange_n(&spf_spare_workspaces, (spf_workspaces *)0, __ATOMIC_ACQ_REL));
}

/* ascending sort of n distinct keys a[0..n), each below 2^31: each key's place is how many
   keys are less.  One compare-and-count pass per key, in 32 bits, which the compiler
   vectorizes, and no branch per comparison, where a comparison sort mispredicts about half
   of them: 3-5x faster than quicksort with insertion sort below 24 for 8-96 keys, faster
   than three byte passes of a radix sort up to about 190 keys (measured with AVX-512).
   Quadratic: for short groups only.  scratch: room for n int64s. */
#define SPF_RANK_SORTED 128
static void spf_rank_sort(int64_t *a, int64_t n, int64_t *scratch) {
  int32_t *const key = (int32_t *)scratch, *const out = key + n;
  for (int64_t i = 0; i < n; i++) key[i] = (int32_t)a[i];
  for (int64_t i = 0; i < n; i++) {
    const int32_t v = key[i];
    int32_t place = 0;
    for (int64_t j = 0; j < n; j++) place += key[j] < v;
    out[place] = v;
  }
  for (int64_t i = 0; i < n; i++) a[i] = out[i];
}

/* Groups of 5 to 16 * SPF_RANK_BLOCKS distinct keys below 2^31 are ranked in registers:
   the keys 16 to a vector (the lanes past the last INT32_MAX, which no key reaches), and a
   key's place is the popcount of the masks of the keys below it, one comparison per
   vector.  The vectors are built one lane at a time from the touched list, because a wide
   load of what the accumulation just wrote waits for every one of those stores to retire
   (it cannot be forwarded), as the rank sort above does on every group.  Against the
   run test followed by a merge, a bitmap scan or that rank sort: 2.5-4x less time on the
   groups of 3-128 keys of A*At on uk, cti, 4elt, vt2010, hep-th, p2p-Gnutella24 (AMD
   Zen 4, a C harness over the rows' touched lists). */
#if defined(__AVX512F__)
#define SPF_RANK_BLOCKS 8
#define SPF_RANK_INLINE static inline __attribute__((always_inline))
/* the n <= 16 * SPF_RANK_BLOCKS keys a[0..n) into vectors; returns how many */
SPF_RANK_INLINE int64_t spf_rank_keys(const int64_t *a, int64_t n, __m512i *keys) {
  const int64_t blocks = (n + 15) >> 4;
  for (int64_t b = 0; b < blocks; b++) {
    __m512i k = _mm512_set1_epi32(INT32_MAX);
    const int64_t lanes = n - 16 * b < 16 ? n - 16 * b : 16;
    for (int64_t q = 0; q < lanes; q++) k = _mm512_mask_set1_epi32(k, (__mmask16)(1u << q), (int32_t)a[16 * b + q]);
    keys[b] = k;
  }
  return blocks;
}

/* how many of the keys are below c: c's place in their order */
SPF_RANK_INLINE int64_t spf_rank_of(const __m512i *keys, int64_t blocks, int64_t c) {
  const __m512i v = _mm512_set1_epi32((int32_t)c);
  int64_t place = 0;
  for (int64_t b = 0; b < blocks; b++) place += __builtin_popcount(_mm512_cmplt_epi32_mask(keys[b], v));
  return place;
}

/* whether the group is ranked in registers at once (the flush then puts each coordinate at
   its place): past 4 keys (a network sorts fewer; flushed into rows, past 8) and up to
   SPF_RANK_AT_ONCE, with no survey of its runs or range first: a survey is a vector pass
   over the touched list the accumulation has just written, which waits for those stores as
   a wide load does; it cost hep-th's groups of 65-128 keys more than ranking them
   (benchmarks/group_order.py) */
#define SPF_RANK_AT_ONCE (16 * SPF_RANK_BLOCKS)
static inline int spf_workspace_ranks(const spf_workspace *w) {
  return w->sorted && w->count > 4 && w->count <= SPF_RANK_AT_ONCE && w->extent <= INT32_MAX;
}

/* the group's keys a[0..n) ranked into ranked[0..n) */
static void spf_rank_into(const int64_t *a, int64_t n, int64_t *ranked) {
  __m512i keys[SPF_RANK_BLOCKS];
  const int64_t blocks = spf_rank_keys(a, n, keys);
  for (int64_t t = 0; t < n; t++) ranked[spf_rank_of(keys, blocks, a[t])] = a[t];
}
#endif

/* ascending LSD radix sort of a[0..n) (values in [low, high]) by bytes, through scratch */
static void spf_radix_sort_index(int64_t *a, int64_t *scratch, int64_t n, int64_t low, int64_t high) {
  int64_t *from = a, *to = scratch;
  for (int shift = 0; shift == 0 || ((high - low) >> shift) > 0; shift += 8) {
    int64_t count[257] = {0};
    for (int64_t i = 0; i < n; i++) count[(((from[i] - low) >> shift) & 255) + 1]++;
    for (int b = 0; b < 256; b++) count[b + 1] += count[b];
    for (int64_t i = 0; i < n; i++) to[count[((from[i] - low) >> shift) & 255]++] = from[i];
    int64_t *swap = from; from = to; to = swap;
  }
  if (from != a) memcpy(a, from, (size_t)n * sizeof(int64_t));
}

/* the bits of the 64 marks at[0..64) that are set */
static inline uint64_t spf_marked(const uint8_t *at) {
#if defined(__AVX512BW__)
  const __m512i block = _mm512_loadu_si512(at);
  return _mm512_test_epi8_mask(block, block);
#elif defined(__AVX2__)
  const __m256i zero = _mm256_setzero_si256();
  const uint32_t low = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)at), zero));
  const uint32_t high = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(at + 32)), zero));
  return (uint64_t)high << 32 | low;
#else
  uint64_t b = 0;
  for (int k = 0; k < 64; k++) b |= (uint64_t)(at[k] != 0) << k;
  return b;
#endif
}

/* the group's least and greatest keys (w->low, w->high), and how many times a key is less
   than the one before it: one pass the compiler vectorizes */
static int64_t spf_workspace_survey(spf_workspace *w) {
  const int64_t *const touched = w->touched;
  int64_t low = touched[0], high = touched[0], descents = 0;
  for (int64_t t = 1; t < w->count; t++) {
    const int64_t c = touched[t];
    low = c < low ? c : low;
    high = c > high ? c : high;
    descents += c < touched[t - 1];
  }
  w->low = low; w->high = high;
  return descents;
}

/* whether the surveyed group spans few blocks of 64 (one per 4 keys at most): its keys are
   then marked and read back in order, block by block.  Sparser, two or three radix passes
   cost less (benchmarks/group_order.py: at one block per 2 keys, astro-ph's and ca-HepPh's
   long groups took 1.3-1.7x the radix sort's time; at one per 8, EX5's 1.6x the marks') */
static inline int spf_workspace_dense(const spf_workspace *w) {
  return (w->high >> 6) - (w->low >> 6) < w->count / 4;
}

/* a byte mark per key, so marking is a store, not a chain of or-s into one word */
static inline void spf_workspace_mark(spf_workspace *w) {
  for (int64_t t = 0; t < w->count; t++) w->marks[w->touched[t]] = 1;
}

/* the keys marked in block [64 block, 64 block + 64), as bits; the marks cleared */
static inline uint64_t spf_workspace_marked(spf_workspace *w, int64_t block) {
  uint8_t *const at = w->marks + 64 * block;
  const uint64_t b = spf_marked(at);
  memset(at, 0, 64);
  return b;
}

/* spf_workspace_order of a surveyed group of five keys or more (descents: the survey's) */
static const int64_t *spf_workspace_order_surveyed(spf_workspace *w, int64_t descents) {
  const int64_t count = w->count;
  int64_t *const touched = w->touched;
  if (descents <= 1) {  /* already in order, or two runs (a sum's terms): merge them */
    int64_t second = 0;  /* where the second ascending run starts (0: one run) */
    while (descents && touched[second + 1] >= touched[second]) second++;
    second += descents;
    if (second) {
      int64_t *const merged = touched + w->extent;
      int64_t a = 0, b = second, m = 0;
      while (a < second && b < count) merged[m++] = touched[a] < touched[b] ? touched[a++] : touched[b++];
      while (a < second) merged[m++] = touched[a++];
      while (b < count) merged[m++] = touched[b++];
      w->run_merges++;
      return merged;
    }
    w->run_merges++;
    return touched;
  }
  if (spf_workspace_dense(w)) {
    int64_t n = 0;
    spf_workspace_mark(w);
    for (int64_t block = w->low >> 6; block <= w->high >> 6; block++)
      for (uint64_t b = spf_workspace_marked(w, block); b; b &= b - 1) touched[n++] = block * 64 + __builtin_ctzll(b);
    w->dense_scans++;
  } else if (count <= SPF_RANK_SORTED && w->extent <= INT32_MAX) {  /* (the touched keys are distinct) */
    w->comparison_sorts++;
#ifdef SPF_RANK_BLOCKS
    spf_rank_into(touched, count, touched + w->extent);
    return touched + w->extent;
#else
    spf_rank_sort(touched, count, touched + w->extent);
#endif
  } else {  /* two or three byte passes beat comparisons */
    spf_radix_sort_index(touched, touched + w->extent, count, w->low, w->high);
    w->radix_sorts++;
  }
  return touched;
}

/* a group of at most 4 keys in order by a network of compare-and-swaps, in registers and
   without a branch (on n either), into k0..k3 (declared here): ascending, or descending
   where `descending`, the keys past n read as the last (a[0..4) is always allocated,
   spf_workspace_init).  Kept in registers where inlined: a caller reading them back from
   memory right after a wide store of them would stall on the store's forwarding */
#define SPF_SORT_FOUR(a, n, descending, k0, k1, k2, k3) \
  int64_t k0, k1, k2, k3; \
  { \
    const int64_t pad_ = (descending) ? INT64_MIN : INT64_MAX; \
    const int64_t r1_ = (a)[1], r2_ = (a)[2], r3_ = (a)[3]; \
    k0 = (a)[0]; k1 = (n) > 1 ? r1_ : pad_; k2 = (n) > 2 ? r2_ : pad_; k3 = (n) > 3 ? r3_ : pad_; \
    SPF_SWAP_(k0, k1, descending) SPF_SWAP_(k2, k3, descending) SPF_SWAP_(k0, k2, descending) \
    SPF_SWAP_(k1, k3, descending) SPF_SWAP_(k1, k2, descending) \
  }
/* the same for a group of 5 to 8 keys (n <= 8), into k0..k7: 19 compare-and-swaps (the
   optimal network for 8, depth 6) */
#define SPF_SORT_EIGHT(a, n, descending, k0, k1, k2, k3, k4, k5, k6, k7) \
  int64_t k0, k1, k2, k3, k4, k5, k6, k7; \
  { \
    const int64_t pad_ = (descending) ? INT64_MIN : INT64_MAX; \
    const int64_t r5_ = (a)[5], r6_ = (a)[6], r7_ = (a)[7]; \
    k0 = (a)[0]; k1 = (a)[1]; k2 = (a)[2]; k3 = (a)[3]; k4 = (a)[4]; \
    k5 = (n) > 5 ? r5_ : pad_; k6 = (n) > 6 ? r6_ : pad_; k7 = (n) > 7 ? r7_ : pad_; \
    SPF_SWAP_(k0, k2, descending) SPF_SWAP_(k1, k3, descending) SPF_SWAP_(k4, k6, descending) \
    SPF_SWAP_(k5, k7, descending) SPF_SWAP_(k0, k4, descending) SPF_SWAP_(k1, k5, descending) \
    SPF_SWAP_(k2, k6, descending) SPF_SWAP_(k3, k7, descending) SPF_SWAP_(k0, k1, descending) \
    SPF_SWAP_(k2, k3, descending) SPF_SWAP_(k4, k5, descending) SPF_SWAP_(k6, k7, descending) \
    SPF_SWAP_(k2, k4, descending) SPF_SWAP_(k3, k5, descending) SPF_SWAP_(k1, k4, descending) \
    SPF_SWAP_(k3, k6, descending) SPF_SWAP_(k1, k2, descending) SPF_SWAP_(k3, k4, descending) \
    SPF_SWAP_(k5, k6, descending) \
  }
#define SPF_SWAP_(x, y, descending) \
  { const int64_t first_ = (x < y) != (descending) ? x : y, second_ = (x < y) != (descending) ? y : x; x = first_; y = second_; }

/* how a group of at most 4 keys was ordered, in the statistics: one key is in order, more
   are sorted by comparisons (the network) */
static inline void spf_workspace_count_few(spf_workspace *w, int64_t count) {
  w->run_merges += count == 1;
  w->comparison_sorts += count > 1;
}

/* the network in place (a[n..4) left with what the group does not use) */
static inline void spf_sort_few(int64_t *a, int64_t n) {
  SPF_SORT_FOUR(a, n, 0, k0, k1, k2, k3)
  a[0] = k0; a[1] = k1; a[2] = k2; a[3] = k3;
}

/* spf_workspace_order of a group of five keys or more */
static const int64_t *spf_workspace_order_longer(spf_workspace *w) {
#ifdef SPF_RANK_BLOCKS
  if (spf_workspace_ranks(w)) {
    spf_rank_into(w->touched, w->count, w->touched + w->extent);
    w->comparison_sorts++;
    return w->touched + w->extent;
  }
#endif
  return spf_workspace_order_surveyed(w, spf_workspace_survey(w));
}

/* the touched coordinates in storage order (or as touched, when the layout asks no order):
   the touched list itself, or its scratch half where they were ranked or merged into it.
   Inline for the groups of up to four keys, the most of a product of very sparse rows */
static inline const int64_t *spf_workspace_order(spf_workspace *w) {
  int64_t *const touched = w->touched;
  const int64_t count = w->count;
  if (!w->sorted) return touched;
  if (count > 4) return spf_workspace_order_longer(w);
  spf_sort_few(touched, count);
  spf_workspace_count_few(w, count);
  return touched;
}

static void SPF_CAT(spf_workspace_flush_, SPF_STREAM_ORDER)(spf_workspace *w, spf_stream *s) {
  const int64_t count = w->count;
  if (count == 0) return;
  const int64_t *const order = spf_workspace_order(w);
  for (int64_t t = 0; t < count; t++) {
    const int64_t c = order[SPF_WORKSPACE_FLUSHED(t, count)];
    const double value = w->acc[c];
    w->acc[c] = 0.0;
    if (w->drop_zeros && value == 0.0) continue;
    SPF_CAT(spf_append_, SPF_STREAM_ORDER)(s SPF_WORKSPACE_COORDINATES(SPF_WORKSPACE_GROUP_ARGUMENT_,
                                                                       SPF_WORKSPACE_KEY_ARGUMENT_), value);
  }
  w->count = 0; w->group++; w->low = w->extent; w->high = -1;
}

/* the workspace's add: flush the group when the other coordinates change, then sum in */
static inline void SPF_CAT(spf_workspace_add_, SPF_STREAM_ORDER)(
    spf_workspace *w, spf_stream *s SPF_WORKSPACE_COORDINATES(SPF_WORKSPACE_GROUP_PARAMETER_, SPF_WORKSPACE_KEY_PARAMETER_),
    double value) {
  if (0 SPF_WORKSPACE_COORDINATES(SPF_WORKSPACE_CHANGED_, SPF_WORKSPACE_NOTHING_)) {  /* a new group: the last one goes out */
    SPF_CAT(spf_workspace_flush_, SPF_STREAM_ORDER)(w, s);
    SPF_WORKSPACE_COORDINATES(SPF_WORKSPACE_KEEP_, SPF_WORKSPACE_NOTHING_)
  }
  const int64_t c = SPF_WORKSPACE_COORDINATES(SPF_WORKSPACE_NOTHING_, SPF_WORKSPACE_KEY_);
  if (w->stamp[c] != w->group) {
    w->stamp[c] = w->group;
    w->touched[w->count++] = c;
#if !SPF_COMBINE_PLUS
    w->acc[c] = value;  /* a position's first value, as it is */
    return;
#endif
  }
  w->acc[c] = SPF_COMBINE(w->acc[c], value);
}

#undef SPF_WORKSPACE_NOTHING_
#undef SPF_WORKSPACE_GROUP_PARAMETER_
#undef SPF_WORKSPACE_KEY_PARAMETER_
#undef SPF_WORKSPACE_CHANGED_
#undef SPF_WORKSPACE_KEEP_
#undef SPF_WORKSPACE_KEY_
#undef SPF_WORKSPACE_GROUP_ARGUMENT_
#undef SPF_WORKSPACE_KEY_ARGUMENT_
#pragma GCC diagnostic pop
#endif
