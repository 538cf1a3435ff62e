"""The kernel's side of assembly in C: the stream of an assembled output's entries, and
Gustavson's workspace that merges and orders them group by group before they enter it.

The stream is a growable list of (coordinates, value), handed to the output's builder
(:mod:`codegen.emit_assembly`) when the loop nests are done.  With a workspace
(:class:`codegen.assembly.Workspace`), the statement adds into a dense accumulator over
one coordinate; whenever the other coordinates change, the touched coordinates are put
in order (a sort, or a scan of the accumulator when they are dense in their range) and
flushed to the stream, each once.
"""

from __future__ import annotations


def stream_source(order: int) -> str:
    """The growable stream of an assembled output's entries (coordinates and values)."""
    coordinates = ", ".join(f"int64_t c{k}" for k in range(order))
    stores = " ".join(f"s->x[{k}][s->n] = c{k};" for k in range(order))
    ones = ", ".join("1" for _ in range(order))
    return f"""
typedef struct spf_stream_ {{
  int64_t n, capacity; int64_t *x[{order}]; double *v; int failed;
  char apart[64];  /* the threads' streams lie side by side: no cache line holds two threads' fields */
}} spf_stream;
static const int64_t spf_unit_strides[{order}] = {{{ones}}};
static int spf_stream_grow(spf_stream *s) {{
  const int64_t capacity = s->capacity ? 2 * s->capacity : 4096;
  for (int k = 0; k < {order}; k++) {{
    int64_t *x = (int64_t *)realloc(s->x[k], (size_t)capacity * sizeof(int64_t));
    if (!x) {{ s->failed = 1; return 0; }}
    s->x[k] = x;
  }}
  double *v = (double *)realloc(s->v, (size_t)capacity * sizeof(double));
  if (!v) {{ s->failed = 1; return 0; }}
  s->v = v;
  s->capacity = capacity;
  return 1;
}}
static inline void spf_append_{order}(spf_stream *s, {coordinates}, double value) {{
  if (s->n == s->capacity && !spf_stream_grow(s)) return;
  {stores}
  s->v[s->n++] = value;
}}
static void spf_stream_forget(spf_stream *s) {{
  for (int k = 0; k < {order}; k++) s->x[k] = 0;
  s->v = 0;
}}
/* the streams (a parallel loop's pieces), one after the other in the loop's order, into
   *joined (0: out of memory) */
static int spf_streams_join(spf_stream *streams, int count, spf_stream *joined) {{
  int64_t total = 0;
  for (int t = 0; t < count; t++) {{
    if (streams[t].failed) return 0;
    total += streams[t].n;
  }}
  if (total == streams[0].n) {{ *joined = streams[0]; spf_stream_forget(&streams[0]); return 1; }}
  for (int k = 0; k < {order}; k++) {{
    joined->x[k] = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
    if (!joined->x[k]) return 0;
  }}
  joined->v = (double *)malloc((size_t)(total > 0 ? total : 1) * sizeof(double));
  if (!joined->v) return 0;
  int64_t at = 0;
  for (int t = 0; t < count; t++) {{
    const int64_t n = streams[t].n;
    if (n == 0) continue;
    for (int k = 0; k < {order}; k++) memcpy(joined->x[k] + at, streams[t].x[k], (size_t)n * sizeof(int64_t));
    memcpy(joined->v + at, streams[t].v, (size_t)n * sizeof(double));
    at += n;
  }}
  joined->n = joined->capacity = total;
  return 1;
}}

static void spf_stream_release(spf_stream *s) {{
  for (int k = 0; k < {order}; k++) free(s->x[k]);
  free(s->v);
  spf_stream_forget(s);
}}
"""


def workspace_source(order: int, position: int, direction: int) -> str:
    """``spf_workspace_add_<order>`` and ``spf_workspace_flush_<order>``: the accumulator over
    coordinate number ``position``, flushed in increasing (``direction`` 1) or decreasing order."""
    coordinates = ", ".join(f"int64_t c{k}" for k in range(order))
    others = [k for k in range(order) if k != position]
    changed = " || ".join(f"w->prefix[{n}] != c{k}" for n, k in enumerate(others)) or "0"
    keep = " ".join(f"w->prefix[{n}] = c{k};" for n, k in enumerate(others))
    flushed = ", ".join("c" if k == position else f"w->prefix[{others.index(k)}]" for k in range(order))
    forward = direction > 0
    return f"""
typedef struct spf_workspace_ {{
  double *acc; int64_t *stamp; int64_t *touched; uint64_t *bits; int64_t extent, count, group, low, high;
  int64_t prefix[{max(len(others), 1)}]; int drop_zeros, sorted;
  int64_t run_merges, dense_scans, radix_sorts, comparison_sorts;  /* how each group was ordered */
  char apart[64];  /* the threads' workspaces lie side by side: no cache line holds two threads' fields */
}} spf_workspace;

static int spf_workspace_init(spf_workspace *w, int64_t extent, int drop_zeros, int sorted) {{
  w->acc = (double *)calloc((size_t)(extent > 0 ? extent : 1), sizeof(double));
  w->stamp = (int64_t *)malloc((size_t)(extent > 0 ? extent : 1) * sizeof(int64_t));
  w->touched = (int64_t *)malloc((size_t)(extent > 0 ? 2 * extent : 1) * sizeof(int64_t));  /* + radix scratch */
  w->bits = (uint64_t *)calloc((size_t)(extent / 64 + 1), sizeof(uint64_t));
  if (!w->acc || !w->stamp || !w->touched || !w->bits) return 0;
  for (int64_t c = 0; c < extent; c++) w->stamp[c] = -1;
  w->extent = extent; w->count = 0; w->group = 0; w->low = extent; w->high = -1;
  for (int k = 0; k < {max(len(others), 1)}; k++) w->prefix[k] = INT64_MIN;  /* no group yet */
  w->drop_zeros = drop_zeros; w->sorted = sorted;
  w->run_merges = w->dense_scans = w->radix_sorts = w->comparison_sorts = 0;
  return 1;
}}

static void spf_workspace_release(spf_workspace *w) {{
  free(w->acc); free(w->stamp); free(w->touched); free(w->bits);
  w->acc = 0; w->stamp = 0; w->touched = 0; w->bits = 0;
}}

/* one workspace per thread (0: out of memory; release them all either way) */
static int spf_workspaces_init(spf_workspace *w, int threads, int64_t extent, int drop_zeros, int sorted) {{
  int ok = 1;
  for (int t = 0; t < threads; t++) ok = spf_workspace_init(&w[t], extent, drop_zeros, sorted) && ok;
  return ok;
}}

/* The per-thread workspaces of a call that flushes into a stream, kept between calls (as
   the rows' scratch is): one set is held by the library, taken and given back atomically
   (a concurrent call makes its own), while it is at most SPF_WORKSPACES_KEPT bytes, and
   reused when it has as many threads and accumulators at least as wide.  A flush leaves
   the accumulator zero and the bitmap clear, and the stamps name past groups only (the
   group count goes on), so a reused workspace is as new; a call that stopped before a
   flush has its unflushed sums zeroed through the touched list when it gives them back. */
#define SPF_WORKSPACES_KEPT ((int64_t)64 << 20)
typedef struct spf_workspaces_ {{ int threads; int64_t extent; spf_workspace *w; }} spf_workspaces;
static spf_workspaces *spf_spare_workspaces = 0;

static void spf_workspaces_free(spf_workspaces *set) {{
  if (!set) return;
  for (int t = 0; set->w && t < set->threads; t++) spf_workspace_release(&set->w[t]);
  free(set->w);
  free(set);
}}

static spf_workspaces *spf_workspaces_take(int threads, int64_t extent, int drop_zeros, int sorted) {{
  spf_workspaces *set = __atomic_exchange_n(&spf_spare_workspaces, (spf_workspaces *)0, __ATOMIC_ACQ_REL);
  if (set && (set->threads != threads || set->extent < extent)) {{ spf_workspaces_free(set); set = 0; }}
  if (!set) {{
    set = (spf_workspaces *)calloc(1, sizeof(spf_workspaces));
    if (!set) return 0;
    set->threads = threads; set->extent = extent;
    set->w = (spf_workspace *)calloc((size_t)threads, sizeof(spf_workspace));
    if (!set->w || !spf_workspaces_init(set->w, threads, extent, drop_zeros, sorted)) {{
      spf_workspaces_free(set);
      return 0;
    }}
  }}
  for (int t = 0; t < threads; t++) {{
    spf_workspace *w = &set->w[t];
    w->count = 0; w->group++; w->low = w->extent; w->high = -1;
    for (int k = 0; k < {max(len(others), 1)}; k++) w->prefix[k] = INT64_MIN;
    w->drop_zeros = drop_zeros; w->sorted = sorted;
    w->run_merges = w->dense_scans = w->radix_sorts = w->comparison_sorts = 0;
  }}
  return set;
}}

static void spf_workspaces_put(spf_workspaces *set) {{
  if (!set) return;
  for (int t = 0; t < set->threads; t++) {{
    spf_workspace *w = &set->w[t];
    for (int64_t k = 0; k < w->count; k++) w->acc[w->touched[k]] = 0.0;
    w->count = 0;
  }}
  const int64_t bytes = set->threads * set->extent * (int64_t)(sizeof(double) + 3 * sizeof(int64_t) + 1);
  spf_workspaces *empty = 0;
  if (bytes > SPF_WORKSPACES_KEPT ||
      !__atomic_compare_exchange_n(&spf_spare_workspaces, &empty, set, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    spf_workspaces_free(set);
}}

static void spf_workspaces_release(void) {{
  spf_workspaces_free(__atomic_exchange_n(&spf_spare_workspaces, (spf_workspaces *)0, __ATOMIC_ACQ_REL));
}}

/* ascending sort of n distinct keys a[0..n), each below 2^31: each key's place is how many
   keys are less.  One compare-and-count pass per key, in 32 bits, which the compiler
   vectorizes, and no branch per comparison, where a comparison sort mispredicts about half
   of them: 3-5x faster than quicksort with insertion sort below 24 for 8-96 keys, faster
   than three byte passes of a radix sort up to about 190 keys (measured with AVX-512).
   Quadratic: for short groups only.  scratch: room for n int64s. */
#define SPF_RANK_SORTED 128
static void spf_rank_sort(int64_t *a, int64_t n, int64_t *scratch) {{
  int32_t *const key = (int32_t *)scratch, *const out = key + n;
  for (int64_t i = 0; i < n; i++) key[i] = (int32_t)a[i];
  for (int64_t i = 0; i < n; i++) {{
    const int32_t v = key[i];
    int32_t place = 0;
    for (int64_t j = 0; j < n; j++) place += key[j] < v;
    out[place] = v;
  }}
  for (int64_t i = 0; i < n; i++) a[i] = out[i];
}}

/* ascending LSD radix sort of a[0..n) (values in [low, high]) by bytes, through scratch */
static void spf_radix_sort_index(int64_t *a, int64_t *scratch, int64_t n, int64_t low, int64_t high) {{
  int64_t *from = a, *to = scratch;
  for (int shift = 0; shift == 0 || ((high - low) >> shift) > 0; shift += 8) {{
    int64_t count[257] = {{0}};
    for (int64_t i = 0; i < n; i++) count[(((from[i] - low) >> shift) & 255) + 1]++;
    for (int b = 0; b < 256; b++) count[b + 1] += count[b];
    for (int64_t i = 0; i < n; i++) to[count[((from[i] - low) >> shift) & 255]++] = from[i];
    int64_t *swap = from; from = to; to = swap;
  }}
  if (from != a) memcpy(a, from, (size_t)n * sizeof(int64_t));
}}

/* the touched coordinates in storage order (or as touched, when the layout asks no order) */
static void spf_workspace_order(spf_workspace *w) {{
  const int64_t count = w->count;
  if (!w->sorted) return;
  int64_t *const touched = w->touched;
  int64_t second = 0;  /* where a second ascending run starts (0: one run, -1: more than two) */
  int64_t low = touched[0], high = touched[0];
  for (int64_t t = 1; t < count; t++) {{
    const int64_t c = touched[t];
    low = c < low ? c : low;
    high = c > high ? c : high;
    if (c < touched[t - 1]) second = second ? -1 : t;
  }}
  w->low = low; w->high = high;
  if (second >= 0) {{  /* already in order, or two runs (a sum's terms): merge them */
    if (second) {{
      int64_t *const merged = touched + w->extent;
      int64_t a = 0, b = second, m = 0;
      while (a < second && b < count) merged[m++] = touched[a] < touched[b] ? touched[a++] : touched[b++];
      while (a < second) merged[m++] = touched[a++];
      while (b < count) merged[m++] = touched[b++];
      memcpy(touched, merged, (size_t)count * sizeof(int64_t));
    }}
    w->run_merges++;
    return;
  }}
  if ((w->high >> 6) - (w->low >> 6) < 2 * count) {{  /* few words in its range (2 per entry at most): a bitmap, read in order */
    uint64_t *const bits = w->bits;
    for (int64_t t = 0; t < count; t++) bits[touched[t] >> 6] |= (uint64_t)1 << (touched[t] & 63);
    int64_t n = 0;
    for (int64_t word = w->low >> 6; word <= w->high >> 6; word++) {{
      uint64_t b = bits[word];
      bits[word] = 0;
      while (b) {{ touched[n++] = word * 64 + __builtin_ctzll(b); b &= b - 1; }}
    }}
    w->dense_scans++;
  }} else if (count <= SPF_RANK_SORTED && w->extent <= INT32_MAX) {{  /* (the touched keys are distinct) */
    spf_rank_sort(touched, count, touched + w->extent);
    w->comparison_sorts++;
  }} else {{  /* two or three byte passes beat comparisons */
    spf_radix_sort_index(touched, touched + w->extent, count, w->low, w->high);
    w->radix_sorts++;
  }}
}}

static void spf_workspace_flush_{order}(spf_workspace *w, spf_stream *s) {{
  const int64_t count = w->count;
  if (count == 0) return;
  spf_workspace_order(w);
  for (int64_t t = 0; t < count; t++) {{
    const int64_t c = w->touched[{"t" if forward else "count - 1 - t"}];
    const double value = w->acc[c];
    w->acc[c] = 0.0;
    if (w->drop_zeros && value == 0.0) continue;
    spf_append_{order}(s, {flushed}, value);
  }}
  w->count = 0; w->group++; w->low = w->extent; w->high = -1;
}}

{_workspace_add(f"spf_workspace_add_{order}", "spf_stream", f"spf_workspace_flush_{order}", order, position)}
"""


def _workspace_add(name: str, sink: str, flush: str, order: int, position: int) -> str:
    """The workspace's add: flush the group when the other coordinates change, then sum in."""
    coordinates = ", ".join(f"int64_t c{k}" for k in range(order))
    others = [k for k in range(order) if k != position]
    changed = " || ".join(f"w->prefix[{n}] != c{k}" for n, k in enumerate(others)) or "0"
    keep = " ".join(f"w->prefix[{n}] = c{k};" for n, k in enumerate(others))
    return f"""static inline void {name}(spf_workspace *w, {sink} *s, {coordinates}, double value) {{
  if ({changed}) {{ {flush}(w, s); {keep} }}  /* a new group: the last one goes out */
  const int64_t c = c{position};
  if (w->stamp[c] != w->group) {{
    w->stamp[c] = w->group;
    w->touched[w->count++] = c;
  }}
  w->acc[c] += value;
}}"""


ROW_STRATEGIES = ("groups handed over as the arrays", "groups through the builder",
                  "groups already in order or merged from two sorted runs",
                  "groups read in order from a bitmap of the coordinates touched",
                  "groups radix-sorted", "groups sorted by comparisons")


TWO_PHASE_STRATEGIES = ("rows filled in storage order", "rows sorted after the fill",
                        "chunks counted and filled by threads of their own")


def run_time_strategies(workspace, two_phase=None) -> tuple[str, ...]:
    """The run-time choices a kernel counts after the builder's report, in that order."""
    if two_phase is not None:
        return TWO_PHASE_STRATEGIES
    return ROW_STRATEGIES if workspace is not None and workspace.direct else ()


def kernel_report_length(plan, workspace, two_phase=None) -> int:
    """The length of a kernel's report: the builder's, then how often each run-time choice ran."""
    from .emit_assembly import report_length
    return report_length(plan) + len(run_time_strategies(workspace, two_phase))


def rows_source(position: int, direction: int, prefix: str, struct: str, key_type: str, first_bad: int,
                statistics: int, out_of_memory: int, unstorable: int) -> str:
    """The workspace flushing into rows (:class:`codegen.assembly.DirectRows`): per stream
    (one, or one per piece of a parallel loop, codegen.emit_c's spf_piece_take), the keys
    and values of each group and the group's ``outer`` coordinate; at the end
    ``spf_rows_hand_over`` gives them to the builder's ``adopt_rows`` as they stand when
    the groups arrived in storage order (``outer`` strictly increasing over the streams
    in turn), else to its ``begin`` as a stream of entries.  It also writes how often
    each strategy ran (:data:`ROW_STRATEGIES`) at ``report[statistics]``.  Keys are kept in
    ``key_type``, the C type of the layout's key array, so the arrays can become the
    layout's own (``NAME_take``): stream 0's buffers are the result's arrays, not copied
    (the other streams' rows are copied after its own, on the threads)."""
    other = 1 - position
    forward = direction > 0
    return f"""
typedef struct spf_rows_ {{
  int64_t n, capacity, groups, group_capacity;
  {key_type} *key; double *v; int64_t *outer, *end;
  int failed, ordered;
  int64_t hint, group_hint;  /* sizes the last call needed: the first reservation of the next */
  int64_t start, current;  /* appending (spf_cursor_put): where the open group starts, its outer coordinate */
  int open, zeros, drop_zeros;  /* a group is open; one of its values was zero */
  char apart[64];  /* the threads' rows lie side by side: no cache line holds two threads' fields */
}} spf_rows;

/* r's key and value arrays resized to hold capacity entries (0: out of memory; r->capacity
   then still fits both arrays) */
static int spf_rows_resize(spf_rows *r, int64_t capacity) {{
  const size_t count = (size_t)(capacity > 0 ? capacity : 1);
  {key_type} *key = ({key_type} *)realloc(r->key, count * sizeof({key_type}));
  if (!key) return 0;
  r->key = key;
  if (capacity < r->capacity) r->capacity = capacity;
  double *v = (double *)realloc(r->v, count * sizeof(double));
  if (!v) return 0;
  r->v = v;
  if (capacity > r->capacity) {{ spf_advise_huge(key, count * sizeof({key_type})); spf_advise_huge(v, count * sizeof(double)); }}
  r->capacity = capacity;
  return 1;
}}

static int spf_rows_resize_groups(spf_rows *r, int64_t capacity) {{
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
}}

/* room for one more group (0: out of memory) */
static int spf_rows_group_room(spf_rows *r) {{
  if (r->groups < r->group_capacity) return 1;
  return spf_rows_resize_groups(r, r->group_capacity ? 2 * r->group_capacity : spf_max(1024, r->group_hint + 1));
}}

static int spf_rows_reserve(spf_rows *r, int64_t more) {{
  if (r->n + more > r->capacity) {{
    int64_t capacity = r->capacity ? 2 * r->capacity : spf_max(4096, r->hint);
    while (capacity < r->n + more) capacity *= 2;
    if (!spf_rows_resize(r, capacity)) return 0;
  }}
  return spf_rows_group_room(r);
}}

/* Appending (codegen.merge): each group's keys arrive in storage order, equal keys side by
   side (one loop proven to walk them strictly increasing, or a merge of such loops), so
   they go straight into the rows, no workspace: a key equal to the last one adds to it,
   and the group's zeros leave when it closes (drop_zeros).  A key below the last
   (only data breaking its layout's order brings one) marks the rows out of order, and
   the builder then sorts them and sums their equal keys.  The open group's state is a
   cursor, a local of the kernel, and so are the groups' count and arrays: their fields
   stay in registers, where the rows' own would be stored and reloaded at every entry and
   every group (rows of a few entries each make the group's cost count). */
typedef {key_type} spf_cursor_key;
typedef struct spf_cursor_ {{
  int64_t n, start, capacity, current; spf_cursor_key *key; double *v; int open, zeros;
  int64_t groups, group_capacity; int64_t *outer, *end;
}} spf_cursor;

static inline spf_cursor spf_cursor_of(const spf_rows *r) {{
  const spf_cursor k = {{r->n, r->start, r->capacity, r->current, r->key, r->v, r->open, r->zeros,
                         r->groups, r->group_capacity, r->outer, r->end}};
  return k;
}}

static inline void spf_cursor_keep(const spf_cursor *k, spf_rows *r) {{
  r->n = k->n; r->start = k->start; r->current = k->current; r->open = k->open; r->zeros = k->zeros;
  r->groups = k->groups;
}}

/* room for one more group (0: out of memory, the rows failed) */
static int spf_cursor_group_room(spf_cursor *k, spf_rows *r) {{
  r->groups = k->groups;
  if (!spf_rows_group_room(r)) {{ r->failed = 1; return 0; }}
  k->outer = r->outer; k->end = r->end; k->group_capacity = r->group_capacity;
  return 1;
}}

/* the open group's values of zero out (only when an entry put or summed was zero) */
static void spf_cursor_drop_zeros(spf_cursor *k) {{
  int64_t w = k->start;
  for (int64_t e = k->start; e < k->n; e++)
    if (k->v[e] != 0.0) {{ k->key[w] = k->key[e]; k->v[w++] = k->v[e]; }}
  k->n = w;
}}

/* the open group, if any, becomes one of the rows' groups */
static inline void spf_cursor_close(spf_cursor *k, spf_rows *r) {{
  if (!k->open) return;
  k->open = 0;
  if (k->zeros && r->drop_zeros) spf_cursor_drop_zeros(k);
  k->zeros = 0;
  if (k->n == k->start || r->failed) return;
  if (__builtin_expect(k->groups == k->group_capacity, 0) && !spf_cursor_group_room(k, r)) return;
  if (k->groups && k->current <= k->outer[k->groups - 1]) r->ordered = 0;
  k->outer[k->groups] = k->current;
  k->end[k->groups++] = k->n;
}}

/* the rows' last group closed (at the end of the kernel) */
static void spf_rows_close(spf_rows *r) {{
  spf_cursor k = spf_cursor_of(r);
  spf_cursor_close(&k, r);
  spf_cursor_keep(&k, r);
}}

static inline void spf_cursor_open(spf_cursor *k, spf_rows *r, int64_t outer) {{
  if (k->open && k->current == outer) return;
  spf_cursor_close(k, r);
  k->open = 1; k->current = outer; k->start = k->n;
}}

/* room for one more entry (0: out of memory, the rows failed) */
static int spf_cursor_room(spf_cursor *k, spf_rows *r) {{
  r->n = k->n;
  r->groups = k->groups;
  if (r->failed || !spf_rows_reserve(r, 1)) {{ r->failed = 1; return 0; }}
  k->key = r->key; k->v = r->v; k->capacity = r->capacity;
  k->outer = r->outer; k->end = r->end; k->group_capacity = r->group_capacity;
  return 1;
}}

/* x where keep is 1, +0.0 where it is 0 (a merge's term at a key that is not the least), without a branch */
static inline double spf_masked(double x, int keep) {{
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  bits &= -(uint64_t)keep;
  memcpy(&x, &bits, sizeof bits);
  return x;
}}

/* an entry whose key the group has not had, after its last (a merge knows it has not) */
static inline void spf_cursor_push(spf_cursor *k, spf_rows *r, int64_t c, double value) {{
  if (__builtin_expect(k->n == k->capacity, 0) && !spf_cursor_room(k, r)) return;
  k->key[k->n] = ({key_type})c; k->v[k->n++] = value;
  k->zeros |= value == 0.0;
}}

/* a term of the key pushed last (a merge knows it is the same key) */
static inline void spf_cursor_add_last(spf_cursor *k, double value) {{
  if (k->n <= k->start) return;  /* (only when the push ran out of memory) */
  double *const last = &k->v[k->n - 1];
  *last += value;
  k->zeros |= *last == 0.0;
}}

/* any entry: a key equal to the last adds to it */
static inline void spf_cursor_put(spf_cursor *k, spf_rows *r, int64_t c, double value) {{
  if (k->n > k->start) {{
    const int64_t last = k->key[k->n - 1];
    if (last == c) {{ spf_cursor_add_last(k, value); return; }}
    if ({"c < last" if forward else "c > last"}) r->ordered = 0;
  }}
  spf_cursor_push(k, r, c, value);
}}

/* an entry whose group the nest does not open where it binds the outer coordinate */
static inline void spf_cursor_add(spf_cursor *k, spf_rows *r, int64_t outer, int64_t c, double value) {{
  spf_cursor_open(k, r, outer);
  spf_cursor_put(k, r, c, value);
}}

static void spf_rows_release(spf_rows *r) {{
  free(r->key); free(r->v); free(r->outer); free(r->end);
  r->key = 0; r->v = 0; r->outer = 0; r->end = 0; r->capacity = r->group_capacity = 0;
}}

static void spf_workspace_flush_rows(spf_workspace *w, spf_rows *r) {{
  const int64_t count = w->count;
  if (count == 0) return;
  spf_workspace_order(w);
  const int room = !r->failed && spf_rows_reserve(r, count);
  if (!room) r->failed = 1;
  int64_t n = r->n;
  {key_type} *restrict key = r->key;
  double *restrict v = r->v;
  for (int64_t t = 0; t < count; t++) {{
    const int64_t c = w->touched[{"t" if forward else "count - 1 - t"}];
    const double value = w->acc[c];
    w->acc[c] = 0.0;
    if (!room || (w->drop_zeros && value == 0.0)) continue;
    key[n] = ({key_type})c; v[n++] = value;  /* c < the workspace's extent, the key's range */
  }}
  if (room && n > r->n) {{
    const int64_t outer = w->prefix[0];
    if (r->groups && outer <= r->outer[r->groups - 1]) r->ordered = 0;
    r->outer[r->groups] = outer;
    r->end[r->groups++] = n;
    r->n = n;
  }}
  w->count = 0; w->group++; w->low = w->extent; w->high = -1;
}}

{_workspace_add("spf_workspace_add_rows", "spf_rows", "spf_workspace_flush_rows", 2, position)}

/* where the nest binds the outer coordinate: a new group when it changed, so the entries
   below need no test of their own (spf_workspace_put) */
static inline void spf_workspace_group_rows(spf_workspace *w, spf_rows *s, int64_t outer) {{
  if (w->prefix[0] != outer) {{ spf_workspace_flush_rows(w, s); w->prefix[0] = outer; }}
}}

static inline void spf_workspace_put(spf_workspace *w, int64_t c, double value) {{
  if (w->stamp[c] != w->group) {{
    w->stamp[c] = w->group;
    w->touched[w->count++] = c;
  }}
  w->acc[c] += value;
}}

/* the rows of each stream (a parallel loop's pieces, in the loop's order; released here) to
   the builder, and the statistics of the threads' workspaces: see rows_source */
static void *spf_rows_hand_over({struct} *T, spf_rows *rows, int streams, const spf_workspace *w, int threads,
                                int64_t *report, int drop_zeros, int trusted, int *status) {{
  int64_t n = 0, groups = 0, last = 0;
  int ordered = 1, seen = 0;
  void *handle = 0;
  for (int t = 0; t < streams; t++) {{
    if (rows[t].failed) {{ *status = {out_of_memory}; goto done; }}
    n += rows[t].n; groups += rows[t].groups;
    if (!rows[t].groups) continue;
    if (!rows[t].ordered || (seen && rows[t].outer[0] <= last)) ordered = 0;
    last = rows[t].outer[rows[t].groups - 1]; seen = 1;
  }}
  /* stream 0's buffers become the result's arrays: resized to the result (in place when
     last call's size, its hint, reserved enough), the other streams' rows copied after
     its own on the threads, then taken from the scratch (the rows start anew next call) */
  spf_rows *const first = &rows[0];
  const int64_t n0 = first->n, g0 = first->groups;
  if (!spf_rows_resize(first, n) || !spf_rows_resize_groups(first, groups)) {{ *status = {out_of_memory}; goto done; }}
  {key_type} *const key = first->key;
  double *const v = first->v;
  int64_t *const outer = first->outer, *const end = first->end;
  first->key = 0; first->v = 0; first->outer = 0; first->end = 0; first->capacity = first->group_capacity = 0;
  first->hint = n; first->group_hint = groups;
  const int64_t block = (int64_t)1 << 16;  /* entries a thread copies at a time */
  int64_t blocks = 0;
  for (int t = 1; t < streams; t++) {{
    blocks += (rows[t].n + block - 1) / block;
    rows[t].hint = rows[t].n; rows[t].group_hint = rows[t].groups;
  }}
  #pragma omp parallel for schedule(static) num_threads(threads) if(threads > 1 && blocks > 1)
  for (int64_t b = 0; b < blocks; b++) {{
    int t = 1;
    int64_t at = n0, from = b;
    while (from >= (rows[t].n + block - 1) / block) {{ from -= (rows[t].n + block - 1) / block; at += rows[t].n; t++; }}
    from *= block;
    const int64_t count = spf_min(block, rows[t].n - from);
    memcpy(key + at + from, rows[t].key + from, (size_t)count * sizeof({key_type}));
    memcpy(v + at + from, rows[t].v + from, (size_t)count * sizeof(double));
  }}
  for (int64_t t = 1, at = n0, g = g0; t < streams; t++) {{
    for (int64_t k = 0; k < rows[t].groups; k++) {{ outer[g + k] = rows[t].outer[k]; end[g + k] = rows[t].end[k] + at; }}
    at += rows[t].n; g += rows[t].groups;
  }}
  if (ordered) {{
    handle = {prefix}_adopt_rows(T, n, key, v, groups, outer, end, report, trusted);
  }} else {{  /* the entries' coordinates in full, and the builder orders them */
    int64_t *expanded = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    int64_t *wide = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    if (expanded && wide)
      for (int64_t g = 0, e = 0; g < groups; g++)
        for (; e < end[g]; e++) {{ expanded[e] = outer[g]; wide[e] = key[e]; }}
    free(outer); free(end); free(key);
    if (!expanded || !wide) {{ free(expanded); free(wide); free(v); *status = {out_of_memory}; goto done; }}
    const int64_t *x[2];
    x[{position}] = wide; x[{other}] = expanded;
    handle = {prefix}_begin(T, n, x, spf_unit_strides, v, report, 1, drop_zeros);
  }}
  *status = handle ? 0 : report[{first_bad}] >= 0 ? {unstorable} : {out_of_memory};
  report[{statistics}] = ordered ? groups : 0;
  report[{statistics} + 1] = ordered ? 0 : groups;
  for (int t = 0; t < threads; t++) {{
    report[{statistics} + 2] += w[t].run_merges;
    report[{statistics} + 3] += w[t].dense_scans;
    report[{statistics} + 4] += w[t].radix_sorts;
    report[{statistics} + 5] += w[t].comparison_sorts;
  }}
done:
  return handle;
}}

/* The scratch of a call (a workspace per thread, rows per stream: one, or one per piece of
   a parallel loop), kept between calls: one set is held by the library (taken and given
   back atomically, so concurrent calls each get their own) while it is at most
   SPF_SCRATCH_KEPT bytes, and reused when it has as many threads and streams and an
   accumulator at least as wide; its memory then needs no new pages.  Stream 0's rows
   leave with each result (they are its arrays): the scratch keeps their sizes, so the
   next call reserves them at once, from memory the last result gave back. */
#define SPF_SCRATCH_KEPT ((int64_t)64 << 20)
typedef struct spf_scratch_ {{
  int threads, streams; int64_t extent; spf_workspace *workspaces; spf_rows *rows;
}} spf_scratch;
static spf_scratch *spf_spare_scratch = 0;

static void spf_scratch_free(spf_scratch *s) {{
  if (!s) return;
  for (int t = 0; s->workspaces && t < s->threads; t++) spf_workspace_release(&s->workspaces[t]);
  for (int t = 0; s->rows && t < s->streams; t++) spf_rows_release(&s->rows[t]);
  free(s->workspaces); free(s->rows); free(s);
}}

static spf_scratch *spf_scratch_get(int streams, int threads, int64_t extent, int drop_zeros, int sorted) {{
  spf_scratch *s = __atomic_exchange_n(&spf_spare_scratch, (spf_scratch *)0, __ATOMIC_ACQ_REL);
  if (s && (s->threads != threads || s->streams != streams || s->extent < extent)) {{ spf_scratch_free(s); s = 0; }}
  if (!s) {{
    s = (spf_scratch *)calloc(1, sizeof(spf_scratch));
    if (!s) return 0;
    s->threads = threads; s->streams = streams; s->extent = extent;
    s->workspaces = (spf_workspace *)calloc((size_t)threads, sizeof(spf_workspace));
    s->rows = (spf_rows *)calloc((size_t)streams, sizeof(spf_rows));
    if (!s->workspaces || !s->rows || !spf_workspaces_init(s->workspaces, threads, extent, drop_zeros, sorted)) {{
      spf_scratch_free(s);
      return 0;
    }}
  }}
  for (int t = 0; t < threads; t++) {{  /* as new: the accumulator is all zeros after each flush */
    spf_workspace *w = &s->workspaces[t];
    w->count = 0; w->group++; w->low = w->extent; w->high = -1;
    w->prefix[0] = INT64_MIN; w->drop_zeros = drop_zeros; w->sorted = sorted;
    w->run_merges = w->dense_scans = w->radix_sorts = w->comparison_sorts = 0;
  }}
  for (int t = 0; t < streams; t++) {{
    spf_rows *r = &s->rows[t];
    r->n = 0; r->groups = 0; r->failed = 0; r->ordered = 1; r->open = 0; r->zeros = 0; r->drop_zeros = drop_zeros;
  }}
  return s;
}}

static void spf_scratch_release(void) {{
  spf_scratch_free(__atomic_exchange_n(&spf_spare_scratch, (spf_scratch *)0, __ATOMIC_ACQ_REL));
}}

static void spf_scratch_put(spf_scratch *s) {{
  if (!s) return;
  for (int t = 0; t < s->threads; t++) {{  /* a call that stopped early may leave a group unflushed */
    spf_workspace *w = &s->workspaces[t];
    for (int64_t k = 0; k < w->count; k++) w->acc[w->touched[k]] = 0.0;
    w->count = 0;
  }}
  /* each stream's buffers cut to what this call put in them (and an eighth more), so the
     scratch holds what a call of the same size needs; over the limit, the rows' buffers
     go and their sizes stay, the next call's first reservation */
  const int64_t workspace_bytes = s->threads * s->extent * (int64_t)(sizeof(double) + 3 * sizeof(int64_t) + 1);
  int64_t bytes = workspace_bytes;
  for (int t = 0; t < s->streams; t++) {{
    spf_rows *r = &s->rows[t];
    const int64_t entries = r->n + r->n / 8, groups = r->groups + r->groups / 8;
    if (r->capacity > entries && entries >= 4096) spf_rows_resize(r, entries);
    if (r->group_capacity > groups && groups >= 1024) spf_rows_resize_groups(r, groups);
    bytes += r->capacity * (int64_t)(sizeof({key_type}) + sizeof(double)) +
             r->group_capacity * (int64_t)(2 * sizeof(int64_t));
  }}
  if (bytes > SPF_SCRATCH_KEPT)
    for (int t = 0; t < s->streams; t++) spf_rows_release(&s->rows[t]);
  spf_scratch *empty = 0;
  if (workspace_bytes > SPF_SCRATCH_KEPT ||
      !__atomic_compare_exchange_n(&spf_spare_scratch, &empty, s, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    spf_scratch_free(s);
}}
"""
