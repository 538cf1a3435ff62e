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
typedef struct spf_stream_ {{ int64_t n, capacity; int64_t *x[{order}]; double *v; int failed; }} spf_stream;
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
/* the threads' streams, one after the other in thread order, into *joined (0: out of memory) */
static int spf_streams_join(spf_stream *streams, int threads, spf_stream *joined) {{
  int64_t total = 0;
  for (int t = 0; t < threads; t++) {{
    if (streams[t].failed) return 0;
    total += streams[t].n;
  }}
  if (threads == 1) {{ *joined = streams[0]; spf_stream_forget(&streams[0]); return 1; }}
  for (int k = 0; k < {order}; k++) {{
    joined->x[k] = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
    if (!joined->x[k]) return 0;
  }}
  joined->v = (double *)malloc((size_t)(total > 0 ? total : 1) * sizeof(double));
  if (!joined->v) return 0;
  int64_t at = 0;
  for (int t = 0; t < threads; t++) {{
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
  double *acc; int64_t *stamp; int64_t *touched; int64_t extent, count, group, low, high;
  int64_t prefix[{max(len(others), 1)}]; int started, drop_zeros;
}} spf_workspace;

static int spf_workspace_init(spf_workspace *w, int64_t extent, int drop_zeros) {{
  w->acc = (double *)calloc((size_t)(extent > 0 ? extent : 1), sizeof(double));
  w->stamp = (int64_t *)malloc((size_t)(extent > 0 ? extent : 1) * sizeof(int64_t));
  w->touched = (int64_t *)malloc((size_t)(extent > 0 ? 2 * extent : 1) * sizeof(int64_t));  /* + radix scratch */
  if (!w->acc || !w->stamp || !w->touched) return 0;
  for (int64_t c = 0; c < extent; c++) w->stamp[c] = -1;
  w->extent = extent; w->count = 0; w->group = 0; w->low = extent; w->high = -1;
  w->started = 0; w->drop_zeros = drop_zeros;
  return 1;
}}

static void spf_workspace_release(spf_workspace *w) {{
  free(w->acc); free(w->stamp); free(w->touched);
  w->acc = 0; w->stamp = 0; w->touched = 0;
}}

/* one workspace per thread (0: out of memory; release them all either way) */
static int spf_workspaces_init(spf_workspace *w, int threads, int64_t extent, int drop_zeros) {{
  int ok = 1;
  for (int t = 0; t < threads; t++) ok = spf_workspace_init(&w[t], extent, drop_zeros) && ok;
  return ok;
}}

/* ascending sort of a[0..n): quicksort on the middle of three, insertion sort below 24 */
static void spf_sort_index(int64_t *a, int64_t n) {{
  while (n > 24) {{
    const int64_t x = a[0], y = a[n / 2], z = a[n - 1];
    const int64_t pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
    int64_t i = 0, j = n - 1;
    for (;;) {{
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i >= j) break;
      const int64_t t = a[i]; a[i] = a[j]; a[j] = t;
      i++; j--;
    }}
    if (j + 1 < n - j - 1) {{ spf_sort_index(a, j + 1); a += j + 1; n -= j + 1; }}
    else {{ spf_sort_index(a + j + 1, n - j - 1); n = j + 1; }}
  }}
  for (int64_t i = 1; i < n; i++) {{
    const int64_t v = a[i];
    int64_t j = i;
    while (j > 0 && a[j - 1] > v) {{ a[j] = a[j - 1]; j--; }}
    a[j] = v;
  }}
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

static void spf_workspace_flush_{order}(spf_workspace *w, spf_stream *s) {{
  const int64_t count = w->count;
  if (count == 0) return;
  if (count * 8 >= w->high - w->low + 1) {{  /* dense in its range: read the accumulator in order */
    int64_t n = 0;
    for (int64_t c = w->low; c <= w->high; c++)
      if (w->stamp[c] == w->group) w->touched[n++] = c;
  }} else if (count >= 96) {{  /* two or three byte passes beat comparisons */
    spf_radix_sort_index(w->touched, w->touched + w->extent, count, w->low, w->high);
  }} else {{
    spf_sort_index(w->touched, count);
  }}
  for (int64_t t = 0; t < count; t++) {{
    const int64_t c = w->touched[{"t" if forward else "count - 1 - t"}];
    const double value = w->acc[c];
    w->acc[c] = 0.0;
    if (w->drop_zeros && value == 0.0) continue;
    spf_append_{order}(s, {flushed}, value);
  }}
  w->count = 0; w->group++; w->low = w->extent; w->high = -1;
}}

static inline void spf_workspace_add_{order}(spf_workspace *w, spf_stream *s, {coordinates}, double value) {{
  if (w->started && ({changed})) spf_workspace_flush_{order}(w, s);
  {keep}
  w->started = 1;
  const int64_t c = c{position};
  if (w->stamp[c] != w->group) {{
    w->stamp[c] = w->group;
    w->touched[w->count++] = c;
    if (c < w->low) w->low = c;
    if (c > w->high) w->high = c;
  }}
  w->acc[c] += value;
}}
"""
