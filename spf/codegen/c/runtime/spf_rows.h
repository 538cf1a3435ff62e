/* spf's run-time C: the workspace flushing into rows (spf.codegen.assembly.plan.DirectRows).  Per
   stream (one, or one per piece of a parallel loop, spf_pieces.h's spf_piece_take), the
   keys and values of each group and the group's outer coordinate; at the end
   spf_rows_hand_over gives them to the builder's adopt_rows as they stand when the groups
   arrived in storage order (outer strictly increasing over the streams in turn), else to
   its begin as a stream of entries.  It also writes how often each strategy ran
   (spf.codegen.c.emit_stream.ROW_STRATEGIES) at report[SPF_ROWS_STATISTICS].  Keys are kept in
   SPF_ROWS_KEY, the C type of the layout's key array, so the arrays can become the
   layout's own (NAME_take): stream 0's buffers are the result's arrays, not copied (the
   other streams' rows are copied after its own, on the threads).  Appending
   (spf.codegen.assembly.merge) puts entries straight into the rows through a cursor, no workspace.

   Fixed C, included by the generated source after spf_workspace.h and its parameters:

     SPF_ROWS_POSITION       the key's coordinate (0 or 1; the other is the group's, outer)
     SPF_ROWS_KEY            the C type of the layout's key array
     SPF_ROWS_OUTPUT         the output's struct type
     SPF_ROWS_ADOPT          the builder's adopt_rows and begin functions
     SPF_ROWS_BEGIN
     SPF_ROWS_FIRST_BAD      report slots: the builder's first bad entry, the statistics
     SPF_ROWS_STATISTICS
     SPF_ROWS_OUT_OF_MEMORY  the kernel's status codes
     SPF_ROWS_UNSTORABLE */
#ifndef SPF_ROWS_H
#define SPF_ROWS_H

#include "spf_workspace.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  /* a kernel calls some of these, not all */

/* an entry's key and outer coordinate among its two (c0, c1) */
#if SPF_ROWS_POSITION == 0
#define SPF_ROWS_INNER_ c0
#define SPF_ROWS_OUTER_ c1
#else
#define SPF_ROWS_INNER_ c1
#define SPF_ROWS_OUTER_ c0
#endif
/* whether key c comes before key last in storage order */
#if SPF_WORKSPACE_FORWARD
#define SPF_ROWS_BEFORE_(c, last) c < last
#else
#define SPF_ROWS_BEFORE_(c, last) c > last
#endif

typedef struct spf_rows_ {
  int64_t n, capacity, groups, group_capacity;
  SPF_ROWS_KEY *key; double *v; int64_t *outer, *end;
  int failed, ordered;
  int64_t hint, group_hint;  /* sizes the last call needed: the first reservation of the next */
  int64_t start, current;  /* appending (spf_cursor_put): where the open group starts, its outer coordinate */
  int open, zeros, drop_zeros;  /* a group is open; one of its values was zero */
  char apart[64];  /* the threads' rows lie side by side: no cache line holds two threads' fields */
} spf_rows;

/* r's key and value arrays resized to hold capacity entries (0: out of memory; r->capacity
   then still fits both arrays) */
static int spf_rows_resize(spf_rows *r, int64_t capacity) {
  const size_t count = (size_t)(capacity > 0 ? capacity : 1);
  SPF_ROWS_KEY *key = (SPF_ROWS_KEY *)realloc(r->key, count * sizeof(SPF_ROWS_KEY));
  if (!key) return 0;
  r->key = key;
  if (capacity < r->capacity) r->capacity = capacity;
  double *v = (double *)realloc(r->v, count * sizeof(double));
  if (!v) return 0;
  r->v = v;
  if (capacity > r->capacity) { spf_advise_huge(key, count * sizeof(SPF_ROWS_KEY)); spf_advise_huge(v, count * sizeof(double)); }
  r->capacity = capacity;
  return 1;
}

static int spf_rows_resize_groups(spf_rows *r, int64_t capacity) {
  const size_t count = (size_t)(capacity > 0 ? capacity : 1);
  int64_t *outer = (int64_t *)realloc(r->outer, count * sizeof(int64_t));
  if (!outer) return 0;
  r->outer = outer;
  if (capacity < r->group_capacity) r->group_capacity = capacity;
  int64_t *end = (int64_t *)realloc(r->end, count * sizeof(int64_t));
  if (!end) return 0;
  r->end = end;
  r->group_capacity = capacity;
  return 1;
}

/* A call's first reservation: the size the last call needed and an eighth more.  The
   rows' arrays leave with each result (NAME_take), so every call reserves anew; a call
   that needs a little more than the last (operands that differ from call to call) would
   otherwise double and copy its arrays, and fault in pages it never uses. */
#define SPF_ROWS_HEADROOM_(hint) ((hint) + (hint) / 8)

/* room for one more group (0: out of memory) */
static int spf_rows_group_room(spf_rows *r) {
  if (r->groups < r->group_capacity) return 1;
  const int64_t first = spf_max(1024, SPF_ROWS_HEADROOM_(r->group_hint) + 1);
  return spf_rows_resize_groups(r, r->group_capacity ? 2 * r->group_capacity : first);
}

static int spf_rows_reserve(spf_rows *r, int64_t more) {
  if (r->n + more > r->capacity) {
    int64_t capacity = r->capacity ? 2 * r->capacity : spf_max(4096, SPF_ROWS_HEADROOM_(r->hint));
    while (capacity < r->n + more) capacity *= 2;
    if (!spf_rows_resize(r, capacity)) return 0;
  }
  return spf_rows_group_room(r);
}

/* Appending (spf.codegen.assembly.merge): each group's keys arrive in storage order, equal keys side by
   side (one loop proven to walk them strictly increasing, or a merge of such loops), so
   they go straight into the rows, no workspace: a key equal to the last one adds to it,
   and the group's zeros leave when it closes (drop_zeros).  A key below the last
   (only data breaking its layout's order brings one) marks the rows out of order, and
   the builder then sorts them and sums their equal keys.  The open group's state is a
   cursor, a local of the kernel, and so are the groups' count and arrays: their fields
   stay in registers, where the rows' own would be stored and reloaded at every entry and
   every group (rows of a few entries each make the group's cost count). */
typedef SPF_ROWS_KEY spf_cursor_key;
typedef struct spf_cursor_ {
  int64_t n, start, capacity, current; spf_cursor_key *key; double *v; int open, zeros;
  int64_t groups, group_capacity; int64_t *outer, *end;
} spf_cursor;

static inline spf_cursor spf_cursor_of(const spf_rows *r) {
  const spf_cursor k = {r->n, r->start, r->capacity, r->current, r->key, r->v, r->open, r->zeros,
                         r->groups, r->group_capacity, r->outer, r->end};
  return k;
}

static inline void spf_cursor_keep(const spf_cursor *k, spf_rows *r) {
  r->n = k->n; r->start = k->start; r->current = k->current; r->open = k->open; r->zeros = k->zeros;
  r->groups = k->groups;
}

/* room for one more group (0: out of memory, the rows failed) */
static int spf_cursor_group_room(spf_cursor *k, spf_rows *r) {
  r->groups = k->groups;
  if (!spf_rows_group_room(r)) { r->failed = 1; return 0; }
  k->outer = r->outer; k->end = r->end; k->group_capacity = r->group_capacity;
  return 1;
}

/* the open group's values of zero out (only when an entry put or summed was zero) */
static void spf_cursor_drop_zeros(spf_cursor *k) {
  int64_t w = k->start;
  for (int64_t e = k->start; e < k->n; e++)
    if (k->v[e] != 0.0) { k->key[w] = k->key[e]; k->v[w++] = k->v[e]; }
  k->n = w;
}

/* the open group, if any, becomes one of the rows' groups */
static inline void spf_cursor_close(spf_cursor *k, spf_rows *r) {
  if (!k->open) return;
  k->open = 0;
  if (k->zeros && r->drop_zeros) spf_cursor_drop_zeros(k);
  k->zeros = 0;
  if (k->n == k->start || r->failed) return;
  if (__builtin_expect(k->groups == k->group_capacity, 0) && !spf_cursor_group_room(k, r)) return;
  if (k->groups && k->current <= k->outer[k->groups - 1]) r->ordered = 0;
  k->outer[k->groups] = k->current;
  k->end[k->groups++] = k->n;
}

/* the rows' last group closed (at the end of the kernel) */
static void spf_rows_close(spf_rows *r) {
  spf_cursor k = spf_cursor_of(r);
  spf_cursor_close(&k, r);
  spf_cursor_keep(&k, r);
}

static inline void spf_cursor_open(spf_cursor *k, spf_rows *r, int64_t outer) {
  if (k->open && k->current == outer) return;
  spf_cursor_close(k, r);
  k->open = 1; k->current = outer; k->start = k->n;
}

/* room for one more entry (0: out of memory, the rows failed) */
static int spf_cursor_room(spf_cursor *k, spf_rows *r) {
  r->n = k->n;
  r->groups = k->groups;
  if (r->failed || !spf_rows_reserve(r, 1)) { r->failed = 1; return 0; }
  k->key = r->key; k->v = r->v; k->capacity = r->capacity;
  k->outer = r->outer; k->end = r->end; k->group_capacity = r->group_capacity;
  return 1;
}

/* an entry whose key the group has not had, after its last (a merge knows it has not) */
static inline void spf_cursor_push(spf_cursor *k, spf_rows *r, int64_t c, double value) {
  if (__builtin_expect(k->n == k->capacity, 0) && !spf_cursor_room(k, r)) return;
  k->key[k->n] = (SPF_ROWS_KEY)c; k->v[k->n++] = value;
  k->zeros |= value == 0.0;
}

/* a term of the key pushed last (a merge knows it is the same key) */
static inline void spf_cursor_add_last(spf_cursor *k, double value) {
  if (k->n <= k->start) return;  /* (only when the push ran out of memory) */
  double *const last = &k->v[k->n - 1];
  *last = SPF_COMBINE(*last, value);
  k->zeros |= *last == 0.0;
}

/* any entry: a key equal to the last adds to it */
static inline void spf_cursor_put(spf_cursor *k, spf_rows *r, int64_t c, double value) {
  if (k->n > k->start) {
    const int64_t last = k->key[k->n - 1];
    if (last == c) { spf_cursor_add_last(k, value); return; }
    if (SPF_ROWS_BEFORE_(c, last)) r->ordered = 0;
  }
  spf_cursor_push(k, r, c, value);
}

/* an entry whose group the nest does not open where it binds the outer coordinate */
static inline void spf_cursor_add(spf_cursor *k, spf_rows *r, int64_t outer, int64_t c, double value) {
  spf_cursor_open(k, r, outer);
  spf_cursor_put(k, r, c, value);
}

static void spf_rows_release(spf_rows *r) {
  free(r->key); free(r->v); free(r->outer); free(r->end);
  r->key = 0; r->v = 0; r->outer = 0; r->end = 0; r->capacity = r->group_capacity = 0;
}

#ifdef SPF_RANK_BLOCKS
/* the group ranked in registers (spf_workspace_ranks): each coordinate and its sum go
   straight to their place in the rows, no list in order first; zeros dropped after */
SPF_RANK_INLINE int64_t spf_workspace_place_rows(spf_workspace *w, SPF_ROWS_KEY *restrict key, double *restrict v, int64_t n) {
  const int64_t count = w->count;
  const int64_t *const touched = w->touched;
  __m512i keys[SPF_RANK_BLOCKS];
  const int64_t blocks = spf_rank_keys(touched, count, keys);
  int zeros = 0;
  for (int64_t t = 0; t < count; t++) {
    const int64_t c = touched[t], at = n + SPF_WORKSPACE_FLUSHED(spf_rank_of(keys, blocks, c), count);
    const double value = w->acc[c];
    w->acc[c] = 0.0;
    zeros |= value == 0.0;
    key[at] = (SPF_ROWS_KEY)c; v[at] = value;
  }
  w->comparison_sorts++;
  if (!(zeros && w->drop_zeros)) return n + count;
  int64_t kept = n;
  for (int64_t e = n; e < n + count; e++)
    if (v[e] != 0.0) { key[kept] = key[e]; v[kept++] = v[e]; }
  return kept;
}
#endif

/* a group dense in its range (spf_workspace_dense, surveyed): each key and its sum go to
   the rows as its marks are read, zeros dropped without a branch */
static inline int64_t spf_workspace_place_marked_rows(spf_workspace *w, SPF_ROWS_KEY *restrict key, double *restrict v,
                                                      int64_t n) {
  spf_workspace_mark(w);
  for (int64_t block = w->low >> 6; block <= w->high >> 6; block++)
    for (uint64_t b = spf_workspace_marked(w, block); b; b &= b - 1) {
      const int64_t c = block * 64 + __builtin_ctzll(b);
      const double value = w->acc[c];
      w->acc[c] = 0.0;
      key[n] = (SPF_ROWS_KEY)c; v[n] = value;
      n += !(w->drop_zeros && value == 0.0);
    }
  w->dense_scans++;
  return n;
}

/* the group's keys in `order` (the layout's order, or reversed: SPF_WORKSPACE_FLUSHED) and
   their sums written to key[n..], v[n..], zeros dropped (drop_zeros), the sums zeroed;
   returns where the group ends */
static inline int64_t spf_workspace_write_ordered(spf_workspace *w, const int64_t *order, SPF_ROWS_KEY *restrict key,
                                                  double *restrict v, int64_t n) {
  const int64_t count = w->count;
  for (int64_t t = 0; t < count; t++) {
    const int64_t c = order[SPF_WORKSPACE_FLUSHED(t, count)];
    const double value = w->acc[c];
    w->acc[c] = 0.0;
    if (w->drop_zeros && value == 0.0) continue;
    key[n] = (SPF_ROWS_KEY)c; v[n++] = value;  /* c < the workspace's extent, the key's range */
  }
  return n;
}

/* the group's keys and sums written to key[n..], v[n..] in the order the layout asks,
   zeros dropped (drop_zeros), its sums zeroed; returns where the group ends */
static inline int64_t spf_workspace_write_rows(spf_workspace *w, SPF_ROWS_KEY *restrict key, double *restrict v,
                                               int64_t n) {
  const int64_t count = w->count;
#ifdef SPF_RANK_BLOCKS
  if (spf_workspace_ranks(w)) return spf_workspace_place_rows(w, key, v, n);
#endif
  const int64_t *order;
  if (count > 4 && w->sorted) {  /* surveyed once, here */
    const int64_t descents = spf_workspace_survey(w);
    if (SPF_WORKSPACE_FORWARD && descents > 1 && spf_workspace_dense(w)) return spf_workspace_place_marked_rows(w, key, v, n);
    order = spf_workspace_order_surveyed(w, descents);
  } else {
    order = spf_workspace_order(w);
  }
  return spf_workspace_write_ordered(w, order, key, v, n);
}

/* spf_workspace_write_rows of a group of eight keys or fewer: into an unsorted layout as
   touched; else a network on the keys in registers (for four, inlined where the rows are
   flushed, or for eight, in a small function of its own), then each key and its sum
   written and counted unless a dropped zero (no branch).  Most groups of a product of
   sparse matrices are this short, and the call and AVX-512 frame of the general writer
   cost as much as their ordering (SpGEMM A*At on uk, rows of 5 to 9 entries: 1.15x
   faster than ranking 5 to 8 keys in registers) */
#define SPF_WRITE_SHORT_(k, t) \
  if (count > t) { \
    const double value = acc[k]; \
    acc[k] = 0.0; \
    key[n] = (SPF_ROWS_KEY)k; v[n] = value; \
    n += !(drop_zeros && value == 0.0); \
  }
/* a group of 5 to 8 keys: out of line, so the inlined path of the shorter ones stays small */
static __attribute__((noinline)) int64_t spf_workspace_write_eight_rows(spf_workspace *w, SPF_ROWS_KEY *restrict key,
                                                                        double *restrict v, int64_t n) {
  const int64_t count = w->count;
  double *const acc = w->acc;
  const int drop_zeros = w->drop_zeros;
  w->comparison_sorts++;
  SPF_SORT_EIGHT(w->touched, count, !SPF_WORKSPACE_FORWARD, k0, k1, k2, k3, k4, k5, k6, k7)
  SPF_WRITE_SHORT_(k0, 0) SPF_WRITE_SHORT_(k1, 1) SPF_WRITE_SHORT_(k2, 2) SPF_WRITE_SHORT_(k3, 3)
  SPF_WRITE_SHORT_(k4, 4) SPF_WRITE_SHORT_(k5, 5) SPF_WRITE_SHORT_(k6, 6) SPF_WRITE_SHORT_(k7, 7)
  return n;
}

static inline int64_t spf_workspace_write_short_rows(spf_workspace *w, SPF_ROWS_KEY *restrict key, double *restrict v,
                                                     int64_t n) {
  const int64_t count = w->count;
  if (!w->sorted) return spf_workspace_write_ordered(w, w->touched, key, v, n);  /* as touched */
  if (count > 4) return spf_workspace_write_eight_rows(w, key, v, n);
  double *const acc = w->acc;
  const int drop_zeros = w->drop_zeros;
  spf_workspace_count_few(w, count);
  SPF_SORT_FOUR(w->touched, count, !SPF_WORKSPACE_FORWARD, k0, k1, k2, k3)
  SPF_WRITE_SHORT_(k0, 0) SPF_WRITE_SHORT_(k1, 1) SPF_WRITE_SHORT_(k2, 2) SPF_WRITE_SHORT_(k3, 3)
  return n;
}
#undef SPF_WRITE_SHORT_

/* the group of outer coordinate `outer`, written to the rows up to n, closed there (none
   when all its sums were dropped zeros) */
static inline void spf_rows_close_group(spf_rows *r, int64_t outer, int64_t n) {
  if (n > r->n) {
    if (r->groups && outer <= r->outer[r->groups - 1]) r->ordered = 0;
    r->outer[r->groups] = outer;
    r->end[r->groups++] = n;
    r->n = n;
  }
}

static void spf_workspace_flush_rows(spf_workspace *w, spf_rows *r) {
  if (w->count == 0) return;
  if (r->failed || !spf_rows_reserve(r, w->count)) {
    r->failed = 1;
    spf_workspace_drop(w);
  } else {
    const int short_group = w->count <= 8;
    spf_rows_close_group(r, w->prefix[0], short_group ? spf_workspace_write_short_rows(w, r->key, r->v, r->n)
                                                      : spf_workspace_write_rows(w, r->key, r->v, r->n));
  }
  w->count = 0; w->group++; w->low = w->extent; w->high = -1;
}

static inline void spf_workspace_add_rows(spf_workspace *w, spf_rows *s, int64_t c0, int64_t c1, double value) {
  if (w->prefix[0] != SPF_ROWS_OUTER_) { spf_workspace_flush_rows(w, s); w->prefix[0] = SPF_ROWS_OUTER_; }  /* a new group: the last one goes out */
  const int64_t c = SPF_ROWS_INNER_;
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

/* The open group of a kernel whose groups open where the row is bound, as a local of the
   kernel (spf_workspace_hand_of, kept back with spf_workspace_hand_keep where its scope
   ends): its arrays, count, stamp and outer coordinate stay in registers, where the
   workspace's own fields would be stored and reloaded at every entry (a store to touched
   may alias them), a chain through memory at each new key.  (A put without a branch,
   touched written at every entry and counted only when new, ran 1.2x slower on Pd: the
   count then waits on each stamp's load.) */
typedef struct spf_workspace_hand_ {
  double *acc; int64_t *stamp, *touched; int64_t count, group, outer;
} spf_workspace_hand;

static inline spf_workspace_hand spf_workspace_hand_of(const spf_workspace *w) {
  const spf_workspace_hand h = {w->acc, w->stamp, w->touched, w->count, w->group, w->prefix[0]};
  return h;
}

static inline void spf_workspace_hand_keep(const spf_workspace_hand *h, spf_workspace *w) {
  w->count = h->count; w->prefix[0] = h->outer;
}

/* a new group where the outer coordinate changed, the last one flushed: a group of eight
   keys or fewer (sorted, or as touched into an unsorted layout), where the rows have room,
   written here (spf_workspace_write_short_rows: rows of a few entries each make a group's
   cost count), any other through spf_workspace_flush_rows */
static inline void spf_workspace_hand_group_rows(spf_workspace_hand *h, spf_workspace *w, spf_rows *s, int64_t outer) {
  if (h->outer != outer) {
    w->count = h->count;
    if (h->count <= 8 && !s->failed && s->n + 8 <= s->capacity && s->groups < s->group_capacity) {
      spf_rows_close_group(s, h->outer, spf_workspace_write_short_rows(w, s->key, s->v, s->n));
      w->count = 0; w->group++;
    } else {
      spf_workspace_flush_rows(w, s);
    }
    h->count = 0; h->group = w->group; h->outer = w->prefix[0] = outer;
  }
}

static inline void spf_workspace_hand_put(spf_workspace_hand *h, int64_t c, double value) {
  if (h->stamp[c] != h->group) {
    h->stamp[c] = h->group;
    h->touched[h->count++] = c;
#if !SPF_COMBINE_PLUS
    h->acc[c] = value;  /* a position's first value, as it is */
    return;
#endif
  }
  h->acc[c] = SPF_COMBINE(h->acc[c], value);
}

/* the rows of each stream (a parallel loop's pieces, in the loop's order; released here) to
   the builder, and the statistics of the threads' workspaces: see the top of this file */
static void *spf_rows_hand_over(SPF_ROWS_OUTPUT *T, spf_rows *rows, int streams, const spf_workspace *w, int threads,
                                int64_t *report, int drop_zeros, int trusted, int *status) {
  int64_t n = 0, groups = 0, last = 0;
  int ordered = 1, seen = 0;
  void *handle = 0;
  for (int t = 0; t < streams; t++) {
    if (rows[t].failed) { *status = SPF_ROWS_OUT_OF_MEMORY; goto done; }
    n += rows[t].n; groups += rows[t].groups;
    if (!rows[t].groups) continue;
    if (!rows[t].ordered || (seen && rows[t].outer[0] <= last)) ordered = 0;
    last = rows[t].outer[rows[t].groups - 1]; seen = 1;
  }
  /* stream 0's buffers become the result's arrays: resized to the result (in place when
     last call's size, its hint, reserved enough), the other streams' rows copied after
     its own on the threads, then taken from the scratch (the rows start anew next call) */
  spf_rows *const first = &rows[0];
  const int64_t n0 = first->n, g0 = first->groups;
  if (!spf_rows_resize(first, n) || !spf_rows_resize_groups(first, groups)) { *status = SPF_ROWS_OUT_OF_MEMORY; goto done; }
  SPF_ROWS_KEY *const key = first->key;
  double *const v = first->v;
  int64_t *const outer = first->outer, *const end = first->end;
  first->key = 0; first->v = 0; first->outer = 0; first->end = 0; first->capacity = first->group_capacity = 0;
  first->hint = n; first->group_hint = groups;
  const int64_t block = (int64_t)1 << 16;  /* entries a thread copies at a time */
  int64_t blocks = 0;
  for (int t = 1; t < streams; t++) {
    blocks += (rows[t].n + block - 1) / block;
    rows[t].hint = rows[t].n; rows[t].group_hint = rows[t].groups;
  }
#ifdef _OPENMP
  #pragma omp parallel for schedule(static) num_threads(threads) if(threads > 1 && blocks > 1)
#endif
  for (int64_t b = 0; b < blocks; b++) {
    int t = 1;
    int64_t at = n0, from = b;
    while (from >= (rows[t].n + block - 1) / block) { from -= (rows[t].n + block - 1) / block; at += rows[t].n; t++; }
    from *= block;
    const int64_t count = spf_min(block, rows[t].n - from);
    memcpy(key + at + from, rows[t].key + from, (size_t)count * sizeof(SPF_ROWS_KEY));
    memcpy(v + at + from, rows[t].v + from, (size_t)count * sizeof(double));
  }
  for (int64_t t = 1, at = n0, g = g0; t < streams; t++) {
    for (int64_t k = 0; k < rows[t].groups; k++) { outer[g + k] = rows[t].outer[k]; end[g + k] = rows[t].end[k] + at; }
    at += rows[t].n; g += rows[t].groups;
  }
  if (ordered) {
    handle = SPF_ROWS_ADOPT(T, n, key, v, groups, outer, end, report, trusted);
  } else {  /* the entries' coordinates in full, and the builder orders them */
    int64_t *expanded = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    int64_t *wide = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    if (expanded && wide)
      for (int64_t g = 0, e = 0; g < groups; g++)
        for (; e < end[g]; e++) { expanded[e] = outer[g]; wide[e] = key[e]; }
    free(outer); free(end); free(key);
    if (!expanded || !wide) { free(expanded); free(wide); free(v); *status = SPF_ROWS_OUT_OF_MEMORY; goto done; }
    const int64_t *x[2];
    x[SPF_ROWS_POSITION] = wide; x[1 - SPF_ROWS_POSITION] = expanded;
    handle = SPF_ROWS_BEGIN(T, n, x, spf_unit_strides, v, report, 1, drop_zeros);
  }
  *status = handle ? 0 : report[SPF_ROWS_FIRST_BAD] >= 0 ? SPF_ROWS_UNSTORABLE : SPF_ROWS_OUT_OF_MEMORY;
  report[SPF_ROWS_STATISTICS] = ordered ? groups : 0;
  report[SPF_ROWS_STATISTICS + 1] = ordered ? 0 : groups;
  for (int t = 0; t < threads; t++) {
    report[SPF_ROWS_STATISTICS + 2] += w[t].run_merges;
    report[SPF_ROWS_STATISTICS + 3] += w[t].dense_scans;
    report[SPF_ROWS_STATISTICS + 4] += w[t].radix_sorts;
    report[SPF_ROWS_STATISTICS + 5] += w[t].comparison_sorts;
  }
done:
  return handle;
}

/* The scratch of a call (a workspace per thread, rows per stream: one, or one per piece of
   a parallel loop), kept between calls: one set is held by the library (taken and given
   back atomically, so concurrent calls each get their own) while it is at most
   SPF_SCRATCH_KEPT bytes, and reused when it has as many threads and streams and an
   accumulator at least as wide; its memory then needs no new pages.  Stream 0's rows
   leave with each result (they are its arrays): the scratch keeps their sizes, so the
   next call reserves them at once, from memory the last result gave back. */
#define SPF_SCRATCH_KEPT ((int64_t)64 << 20)
typedef struct spf_scratch_ {
  int threads, streams; int64_t extent; spf_workspace *workspaces; spf_rows *rows;
} spf_scratch;
static spf_scratch *spf_spare_scratch = 0;

static void spf_scratch_free(spf_scratch *s) {
  if (!s) return;
  for (int t = 0; s->workspaces && t < s->threads; t++) spf_workspace_release(&s->workspaces[t]);
  for (int t = 0; s->rows && t < s->streams; t++) spf_rows_release(&s->rows[t]);
  free(s->workspaces); free(s->rows); free(s);
}

static spf_scratch *spf_scratch_get(int streams, int threads, int64_t extent, int drop_zeros, int sorted) {
  spf_scratch *s = __atomic_exchange_n(&spf_spare_scratch, (spf_scratch *)0, __ATOMIC_ACQ_REL);
  if (s && (s->threads != threads || s->streams != streams || s->extent < extent)) { spf_scratch_free(s); s = 0; }
  if (!s) {
    s = (spf_scratch *)calloc(1, sizeof(spf_scratch));
    if (!s) return 0;
    s->threads = threads; s->streams = streams; s->extent = extent;
    s->workspaces = (spf_workspace *)calloc((size_t)threads, sizeof(spf_workspace));
    s->rows = (spf_rows *)calloc((size_t)streams, sizeof(spf_rows));
    if (!s->workspaces || !s->rows || !spf_workspaces_init(s->workspaces, threads, extent, drop_zeros, sorted)) {
      spf_scratch_free(s);
      return 0;
    }
  }
  for (int t = 0; t < threads; t++) {  /* as new: the accumulator is all zeros after each flush */
    spf_workspace *w = &s->workspaces[t];
    w->count = 0; w->group++; w->low = w->extent; w->high = -1;
    w->prefix[0] = INT64_MIN; w->drop_zeros = drop_zeros; w->sorted = sorted;
    w->run_merges = w->dense_scans = w->radix_sorts = w->comparison_sorts = 0;
  }
  for (int t = 0; t < streams; t++) {
    spf_rows *r = &s->rows[t];
    r->n = 0; r->groups = 0; r->failed = 0; r->ordered = 1; r->open = 0; r->zeros = 0; r->drop_zeros = drop_zeros;
  }
  return s;
}

static void spf_scratch_release(void) {
  spf_scratch_free(__atomic_exchange_n(&spf_spare_scratch, (spf_scratch *)0, __ATOMIC_ACQ_REL));
}

static void spf_scratch_put(spf_scratch *s) {
  if (!s) return;
  for (int t = 0; t < s->threads; t++) spf_workspace_drop(&s->workspaces[t]);  /* a call that stopped early */
  /* each stream's buffers cut to what this call put in them (and an eighth more), so the
     scratch holds what a call of the same size needs; over the limit, the rows' buffers
     go and their sizes stay, the next call's first reservation */
  const int64_t workspace_bytes = s->threads * s->extent * (int64_t)(sizeof(double) + 3 * sizeof(int64_t) + 1);
  int64_t bytes = workspace_bytes;
  for (int t = 0; t < s->streams; t++) {
    spf_rows *r = &s->rows[t];
    const int64_t entries = r->n + r->n / 8, groups = r->groups + r->groups / 8;
    if (r->capacity > entries && entries >= 4096) spf_rows_resize(r, entries);
    if (r->group_capacity > groups && groups >= 1024) spf_rows_resize_groups(r, groups);
    bytes += r->capacity * (int64_t)(sizeof(SPF_ROWS_KEY) + sizeof(double)) +
             r->group_capacity * (int64_t)(2 * sizeof(int64_t));
  }
  if (bytes > SPF_SCRATCH_KEPT)
    for (int t = 0; t < s->streams; t++) spf_rows_release(&s->rows[t]);
  spf_scratch *empty = 0;
  if (workspace_bytes > SPF_SCRATCH_KEPT ||
      !__atomic_compare_exchange_n(&spf_spare_scratch, &empty, s, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    spf_scratch_free(s);
}

#undef SPF_ROWS_INNER_
#undef SPF_ROWS_OUTER_
#undef SPF_ROWS_BEFORE_
#pragma GCC diagnostic pop
#endif
