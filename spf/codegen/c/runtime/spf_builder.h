/* spf's run-time C: the fixed part of an assembled output's builder (spf.codegen.c.emit_assembly):
   its handle, the sorts that put entries in storage order, and, for a layout of rows
   (spf.codegen.assembly.plan.DirectRows), the rows adopted from a kernel, bucketed from entries or
   filled by a two-phase kernel.  The layout's own part (the keys, the checks, the counts,
   begin, fill, take) is generated after it.  Included by the generated source with these
   parameters defined (the X-macro idiom: it undefines them at the end, so a source may
   hold several builders):

     SPF_BUILDER               the builder's prefix: its functions are SPF_BUILDER_begin, ...
     SPF_BUILDER_OUTPUT        the layout's struct type
     SPF_BUILDER_COORDINATE    the C type of the input's coordinate columns
     SPF_BUILDER_ORDER         the number of coordinates of an entry
     SPF_BUILDER_KEYS          the number of keys of an entry's sort key
     SPF_BUILDER_ROW_KEY       the C types of adopted rows' keys and of the rows' pointer
     SPF_BUILDER_ROW_POINTER   array (the layout's own for rows, else int64_t)
     SPF_BUILDER_REPORT        the length of report[]; its slots for the duplicates, the
     SPF_BUILDER_DUPLICATES    first duplicate, the first bad entry, the check it failed
     SPF_BUILDER_FIRST_DUPLICATE  and the first duplicate's coordinates
     SPF_BUILDER_FIRST_BAD
     SPF_BUILDER_BAD_CHECK
     SPF_BUILDER_DUPLICATE_AT
     SPF_BUILDER_ROWS          1 for a layout of rows, then:
     SPF_BUILDER_OUTER         the coordinate numbers of the rows' outer coordinate
     SPF_BUILDER_INNER         and key

   The generated part defines what this part calls: SPF_BUILDER_compare (and, for rows,
   SPF_BUILDER_check_rows, SPF_BUILDER_rows_extent and SPF_BUILDER_counts). */

#include "spf_base.h"
#include "spf_combine.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  /* a builder calls some of these, not all */

#define SPF_B(name) SPF_CAT(SPF_BUILDER, _##name)
#define SPF_BUILDER_KEY0_(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])
#define SPF_BUILDER_AT_LEAST_ONE_(n) ((n) > 0 ? (n) : 1)

typedef SPF_BUILDER_COORDINATE SPF_B(coordinate);
typedef struct {
  int64_t n;
  const SPF_B(coordinate) *x[SPF_BUILDER_AT_LEAST_ONE_(SPF_BUILDER_ORDER)];
  int64_t stride[SPF_BUILDER_AT_LEAST_ONE_(SPF_BUILDER_ORDER)];
  const double *v;
  int64_t *key[SPF_BUILDER_AT_LEAST_ONE_(SPF_BUILDER_KEYS)];
  int64_t key_stride[SPF_BUILDER_AT_LEAST_ONE_(SPF_BUILDER_KEYS)];
  int owned[SPF_BUILDER_AT_LEAST_ONE_(SPF_BUILDER_KEYS)];
  int64_t *origin;  /* sorted position -> entry, once gathered */
  double *sorted_v;
  unsigned char *diff;
  SPF_B(coordinate) *input_x[SPF_BUILDER_AT_LEAST_ONE_(SPF_BUILDER_ORDER)];
  double *input_v;  /* the input, when the builder owns it */
  int64_t groups, *group_outer, *group_end;  /* adopted rows (adopt_rows) */
  SPF_BUILDER_ROW_KEY *row_keys;
  double *row_values;
  int64_t sorted_rows;  /* rows sorted after a bucket or two-phase fill */
  SPF_BUILDER_ROW_POINTER *row_pointer;  /* rows as the layout's pointer array (two phases) */
  int64_t row_count;  /* its number of rows */
  int trusted;  /* the kernel proved its rows storable (and a two-phase fill's keys in order) */
} SPF_B(handle);

/* entries a and b by their keys from `from` on: -1, 0 or 1 (generated: the layout's keys) */
static inline int SPF_B(compare)(const SPF_B(handle) *h, int64_t a, int64_t b, int from);

/* merge sort of the positions perm[0..count) by the keys from `from` on, stable */
static void SPF_B(merge_sort)(const SPF_B(handle) *h, int64_t *perm, int64_t *tmp, int64_t count, int from) {
  for (int64_t width = 1; width < count; width *= 2) {
    for (int64_t low = 0; low < count; low += 2 * width) {
      const int64_t mid = spf_min(low + width, count), high = spf_min(low + 2 * width, count);
      int64_t a = low, b = mid, t = low;
      if (mid >= high || SPF_B(compare)(h, perm[mid - 1], perm[mid], from) <= 0) {
        memcpy(tmp + low, perm + low, (size_t)(high - low) * sizeof(int64_t));
        continue;
      }
      while (a < mid && b < high) tmp[t++] = SPF_B(compare)(h, perm[b], perm[a], from) < 0 ? perm[b++] : perm[a++];
      while (a < mid) tmp[t++] = perm[a++];
      while (b < high) tmp[t++] = perm[b++];
    }
    memcpy(perm, tmp, (size_t)count * sizeof(int64_t));
  }
}

static void SPF_B(bad_entry)(const SPF_B(handle) *h, int64_t e, int64_t *coordinates) {
  for (int k = 0; k < SPF_BUILDER_ORDER; k++) coordinates[k] = h->x[k][e * h->stride[k]];
}

void SPF_B(free)(void *handle) {
  SPF_B(handle) *h = (SPF_B(handle) *)handle;
  if (!h) return;
  for (int k = 0; k < SPF_BUILDER_KEYS; k++) if (h->owned[k]) free(h->key[k]);
  for (int k = 0; k < SPF_BUILDER_ORDER; k++) free(h->input_x[k]);
  free(h->input_v);
  free(h->origin);
  free(h->sorted_v);
  free(h->diff);
  free(h->group_outer);
  free(h->group_end);
  free(h->row_keys);
  free(h->row_values);
  free(h->row_pointer);
  free(h);
}

#if SPF_BUILDER_KEYS > 0
/* the end of the group of equal first keys (everything when from is 0) starting at
   start, and whether it is in order by the keys from `from` on */
static int64_t SPF_B(group_end)(const SPF_B(handle) *h, int64_t start, int from, int *ordered) {
  int64_t end = start + 1;
  *ordered = 1;
  while (end < h->n && (from == 0 || SPF_BUILDER_KEY0_(h, end) == SPF_BUILDER_KEY0_(h, start))) {
    if (*ordered && SPF_B(compare)(h, end - 1, end, from) > 0) *ordered = 0;
    end++;
  }
  return end;
}

/* the keys, values and origins of positions [start, start + count) put in the order of
   position[] (a permutation of them), through scratch */
static void SPF_B(permute)(const SPF_B(handle) *h, int64_t start, const int64_t *position, int64_t count,
                           int64_t *scratch) {
  for (int k = 0; k < SPF_BUILDER_KEYS; k++) {
    for (int64_t i = 0; i < count; i++) scratch[i] = h->key[k][position[i]];
    memcpy(h->key[k] + start, scratch, (size_t)count * sizeof(int64_t));
  }
  for (int64_t i = 0; i < count; i++) scratch[i] = h->origin[position[i]];
  memcpy(h->origin + start, scratch, (size_t)count * sizeof(int64_t));
  double *values = h->sorted_v;
  for (int64_t i = 0; i < count; i++) ((double *)scratch)[i] = values[position[i]];
  memcpy(values + start, scratch, (size_t)count * sizeof(double));
}

/* the entries (not in storage order) put in it: a stable counting sort on the
   first key (its range permitting, else none), the keys and values gathered in that order,
   then a merge sort of each group of equal first keys (or of everything) not yet in order
   by the rest.  0 when out of memory (the handle holds what was allocated: free it). */
static int SPF_B(order)(SPF_B(handle) *h) {
  const int64_t n = h->n;
  int64_t *perm = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  if (!perm) return 0;
  int64_t low = SPF_BUILDER_KEY0_(h, 0), high = low;
  for (int64_t e = 1; e < n; e++) { const int64_t k = SPF_BUILDER_KEY0_(h, e); low = spf_min(low, k); high = spf_max(high, k); }
  const int64_t range = high - low + 1;
  int64_t *count = range <= n + (1 << 20) ? (int64_t *)calloc((size_t)range + 1, sizeof(int64_t)) : NULL;
  int from = 1;
  if (count) {  /* stable counting sort on the first key */
    for (int64_t e = 0; e < n; e++) count[SPF_BUILDER_KEY0_(h, e) - low + 1]++;
    for (int64_t r = 0; r < range; r++) count[r + 1] += count[r];
    for (int64_t e = 0; e < n; e++) perm[count[SPF_BUILDER_KEY0_(h, e) - low]++] = e;
    free(count);
  } else {
    for (int64_t e = 0; e < n; e++) perm[e] = e;
    from = 0;
  }
  /* gather keys and values in that order: from here on everything reads positions in order */
  for (int k = 0; k < SPF_BUILDER_KEYS; k++) {
    int64_t *gathered = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    if (!gathered) { free(perm); return 0; }
    for (int64_t t = 0; t < n; t++) gathered[t] = h->key[k][perm[t] * h->key_stride[k]];
    if (h->owned[k]) free(h->key[k]);
    h->key[k] = gathered; h->key_stride[k] = 1; h->owned[k] = 1;
  }
  h->sorted_v = (double *)malloc((size_t)n * sizeof(double));
  if (!h->sorted_v) { free(perm); return 0; }
  for (int64_t t = 0; t < n; t++) h->sorted_v[t] = h->v[perm[t]];
  h->v = h->sorted_v;
  h->origin = perm;
  /* groups of equal first keys (or everything) not yet in order: merge sort them */
  int64_t largest = 0;
  for (int64_t start = 0, end; start < n; start = end) {
    int ordered;
    end = SPF_B(group_end)(h, start, from, &ordered);
    if (!ordered && end - start > largest) largest = end - start;
  }
  if (largest > 0 && SPF_BUILDER_KEYS > from) {
    int64_t *work = (int64_t *)malloc((size_t)largest * 3 * sizeof(int64_t));
    if (!work) return 0;
    for (int64_t start = 0, end; start < n; start = end) {
      int ordered;
      end = SPF_B(group_end)(h, start, from, &ordered);
      if (ordered) continue;
      for (int64_t i = 0; i < end - start; i++) work[i] = start + i;
      SPF_B(merge_sort)(h, work, work + largest, end - start, from);
      SPF_B(permute)(h, start, work, end - start, work + 2 * largest);
    }
    free(work);
  }
  return 1;
}
#endif

#if SPF_BUILDER_ROWS
/* every entry of a handle of rows against the layout's checks: 0 (the report names the
   first entry failing) when one fails, else 1, with the node count and the count fields
   set; *ordered (when not NULL): whether every row's keys are strictly increasing
   (generated: the layout's checks) */
static int SPF_B(check_rows)(SPF_B(handle) *h, SPF_BUILDER_OUTPUT *T, int64_t *report, int *ordered);
/* the rows' outer extent (generated: the layout's pointer array, less one) */
static int64_t SPF_B(rows_extent)(SPF_BUILDER_OUTPUT *T);
/* the layout's count fields from the node counts in report[] (generated) */
static void SPF_B(counts)(SPF_BUILDER_OUTPUT *T, int64_t *report);

/* Entries already in storage order, as groups (one outer coordinate each, in strictly
   increasing order) of distinct inner keys, become the handle as they stand; each entry
   still passes the layout's checks (check_rows).  The handle owns the arrays from the
   call on (freed on failure too). */
void *SPF_B(adopt_rows)(SPF_BUILDER_OUTPUT *T, int64_t n, SPF_BUILDER_ROW_KEY *keys, double *values, int64_t groups,
                        int64_t *group_outer, int64_t *group_end, int64_t *report, int trusted) {
  for (int r = 0; r < SPF_BUILDER_REPORT; r++) report[r] = 0;
  report[SPF_BUILDER_FIRST_DUPLICATE] = -1; report[SPF_BUILDER_FIRST_BAD] = -1; report[SPF_BUILDER_BAD_CHECK] = -1;
  SPF_B(handle) *h = (SPF_B(handle) *)calloc(1, sizeof(SPF_B(handle)));
  if (!h) { free(keys); free(values); free(group_outer); free(group_end); return NULL; }
  h->n = n; h->groups = groups; h->group_outer = group_outer; h->group_end = group_end;
  h->row_keys = keys; h->row_values = values; h->trusted = trusted;
  if (!SPF_B(check_rows)(h, T, report, 0)) { SPF_B(free)(h); return NULL; }
  return h;
}

/* stable sort of the pairs (k[a], v[a]) by k: equal keys keep their order, so sums of
   duplicates add in the entries' order (as scipy and the general path do) */
static void SPF_B(sort_pairs)(SPF_BUILDER_ROW_KEY *k, double *v, int64_t n, SPF_BUILDER_ROW_KEY *sk, double *sv) {
  if (n <= 32) {  /* each pair's place: the keys below its own, and the equal ones before it (stable);
                    compare-and-count passes the compiler vectorizes, no branch per comparison */
    for (int64_t a = 0; a < n; a++) {
      const SPF_BUILDER_ROW_KEY t = k[a];
      int64_t place = 0;
      for (int64_t b = 0; b < n; b++) place += (k[b] < t) | ((k[b] == t) & (b < a));
      sk[place] = t; sv[place] = v[a];
    }
    memcpy(k, sk, (size_t)n * sizeof(SPF_BUILDER_ROW_KEY)); memcpy(v, sv, (size_t)n * sizeof(double));
    return;
  }
  const int64_t half = n / 2;
  SPF_B(sort_pairs)(k, v, half, sk, sv);
  SPF_B(sort_pairs)(k + half, v + half, n - half, sk, sv);
  if (k[half - 1] <= k[half]) return;
  int64_t a = 0, b = half, m = 0;
  while (a < half && b < n) { if (k[b] < k[a]) { sk[m] = k[b]; sv[m++] = v[b++]; } else { sk[m] = k[a]; sv[m++] = v[a++]; } }
  while (a < half) { sk[m] = k[a]; sv[m++] = v[a++]; }
  while (b < n) { sk[m] = k[b]; sv[m++] = v[b++]; }
  memcpy(k, sk, (size_t)n * sizeof(SPF_BUILDER_ROW_KEY)); memcpy(v, sv, (size_t)n * sizeof(double));
}

/* segments r = [start[r-1], start[r]) of keys and values (start[r] is the end of
   segment r, start[-1] = 0) into the handle's rows: those whose keys are not strictly
   increasing sorted and their equal keys summed, sums of zero dropped with drop_zeros.
   The handle owns keys and values from the call on; 0 when memory runs out. */
static int SPF_B(segments)(SPF_B(handle) *h, SPF_BUILDER_OUTPUT *T, int64_t *report, int drop_zeros,
                           SPF_BUILDER_ROW_KEY *keys, double *values, int64_t *start, int64_t extent) {
  int64_t groups = 0;
  for (int64_t r = 0, begin = 0; r < extent; begin = start[r], r++) groups += start[r] > begin;
  const int64_t kept = extent > 0 ? start[extent - 1] : 0;
  int64_t *group_outer = (int64_t *)malloc((size_t)(groups > 0 ? groups : 1) * sizeof(int64_t));
  int64_t *group_end = (int64_t *)malloc((size_t)(groups > 0 ? groups : 1) * sizeof(int64_t));
  if (!group_outer || !group_end) {
    free(keys); free(values); free(group_outer); free(group_end); return 0;
  }
  int ordered = 1;
  SPF_BUILDER_ROW_KEY *scratch_keys = 0;
  double *scratch_values = 0;
  for (int64_t r = 0, begin = 0; r < extent; begin = start[r], r++) {
    int64_t p = begin + 1;
    while (p < start[r] && keys[p - 1] < keys[p]) p++;
    if (p >= start[r]) continue;
    if (ordered) {  /* the first segment out of order: scratch for the merges */
      ordered = 0;
      scratch_keys = (SPF_BUILDER_ROW_KEY *)malloc((size_t)(kept > 0 ? kept : 1) * sizeof(SPF_BUILDER_ROW_KEY));
      scratch_values = (double *)malloc((size_t)(kept > 0 ? kept : 1) * sizeof(double));
      if (!scratch_keys || !scratch_values) {
        free(scratch_keys); free(scratch_values); free(keys); free(values);
        free(group_outer); free(group_end); return 0;
      }
    }
    h->sorted_rows++;
    SPF_B(sort_pairs)(keys + begin, values + begin, start[r] - begin, scratch_keys, scratch_values);
  }
  free(scratch_keys); free(scratch_values);
  int64_t w = 0, g = 0;
  for (int64_t r = 0, begin = 0; r < extent; begin = start[r], r++) {
    const int64_t first = w;
    if (ordered) {
      w = start[r];
    } else {
      for (int64_t p = begin; p < start[r]; p++) {
        if (w > first && keys[w - 1] == keys[p]) {
          if (report[SPF_BUILDER_DUPLICATES]++ == 0) {
            report[SPF_BUILDER_FIRST_DUPLICATE] = 0;  /* the entry's number is not kept here */
            report[SPF_BUILDER_DUPLICATE_AT + SPF_BUILDER_OUTER] = r;
            report[SPF_BUILDER_DUPLICATE_AT + SPF_BUILDER_INNER] = keys[p];
          }
          values[w - 1] = SPF_COMBINE(values[w - 1], values[p]);
        } else {
          keys[w] = keys[p]; values[w++] = values[p];
        }
      }
      if (drop_zeros) {  /* a sum of zero is no entry */
        int64_t kept_here = first;
        for (int64_t p = first; p < w; p++)
          if (values[p] != 0.0) { keys[kept_here] = keys[p]; values[kept_here++] = values[p]; }
        w = kept_here;
      }
    }
    if (w > first) { group_outer[g] = r; group_end[g++] = w; }
  }
  h->groups = g; h->group_outer = group_outer; h->group_end = group_end;
  h->row_keys = keys; h->row_values = values; h->n = w;
  report[0] = w;
  SPF_B(counts)(T, report);
  return 1;
}

/* Checked entries into rows by one stable counting sort on the outer coordinate (CSR from
   COO, CSC from a row-major stream: a conversion's usual case); a segment whose keys do
   not come out strictly increasing is sorted (with its values) and its equal keys summed
   (counted in the report as duplicates; sums of zero dropped with drop_zeros), so the
   segments are in storage order with distinct keys; then the handle holds the rows as
   adopt_rows makes them.  Returns 0 (nothing changed) when the outer extent is far larger
   than the entries (the general path's merge sort is cheaper) or memory runs out. */
static int SPF_B(bucket)(SPF_B(handle) *h, SPF_BUILDER_OUTPUT *T, int64_t *report, int drop_zeros) {
  const int64_t n = h->n;
  const int64_t extent = SPF_B(rows_extent)(T);
  if (extent < 0 || extent > 4 * n + (1 << 16)) return 0;
  const SPF_B(coordinate) *const xo = h->x[SPF_BUILDER_OUTER], *const xi = h->x[SPF_BUILDER_INNER];
  const int64_t so = h->stride[SPF_BUILDER_OUTER], si = h->stride[SPF_BUILDER_INNER];
  int64_t *start = (int64_t *)calloc((size_t)extent + 2, sizeof(int64_t));
  if (!start) return 0;
  for (int64_t e = 0; e < n; e++) if (!drop_zeros || h->v[e] != 0.0) start[xo[e * so] + 1]++;
  for (int64_t r = 0; r < extent; r++) start[r + 1] += start[r];
  const int64_t kept = start[extent];
  SPF_BUILDER_ROW_KEY *keys = (SPF_BUILDER_ROW_KEY *)malloc((size_t)(kept > 0 ? kept : 1) * sizeof(SPF_BUILDER_ROW_KEY));
  double *values = (double *)malloc((size_t)(kept > 0 ? kept : 1) * sizeof(double));
  if (!keys || !values) { free(start); free(keys); free(values); return 0; }
  for (int64_t e = 0; e < n; e++) {
    if (drop_zeros && h->v[e] == 0.0) continue;
    const int64_t p = start[xo[e * so]]++;
    keys[p] = (SPF_BUILDER_ROW_KEY)xi[e * si]; values[p] = h->v[e];
  }
  const int done = SPF_B(segments)(h, T, report, drop_zeros, keys, values, start, extent);
  free(start);
  return done;
}

/* a two-phase kernel's rows (spf.codegen.assembly.plan.TwoPhase): the layout's pointer array
   (rows r = [pointer[r], pointer[r+1]) of keys and values) with every entry checked as
   adopt_rows does; rows whose keys are not strictly increasing (found by the same
   pass) go through segments (sorted, equal keys summed) and are checked again.
   zeros_put: the kernel put entries whose value is zero; with drop_zeros they are dropped
   first (and sums of equal keys that cancel, in a row sorted).
   The handle owns the arrays from the call on (freed on failure too).
   statistics[0..1]: the rows kept as filled, the rows sorted */
void *SPF_B(adopt_pointer)(SPF_BUILDER_OUTPUT *T, SPF_BUILDER_ROW_KEY *keys, double *values,
                           SPF_BUILDER_ROW_POINTER *pointer, int64_t extent, int64_t *report, int drop_zeros,
                           int zeros_put, int64_t *statistics, int trusted) {
  for (int r = 0; r < SPF_BUILDER_REPORT; r++) report[r] = 0;
  report[SPF_BUILDER_FIRST_DUPLICATE] = -1; report[SPF_BUILDER_FIRST_BAD] = -1; report[SPF_BUILDER_BAD_CHECK] = -1;
  SPF_B(handle) *h = (SPF_B(handle) *)calloc(1, sizeof(SPF_B(handle)));
  if (!h) { free(keys); free(values); free(pointer); return NULL; }
  if (drop_zeros && zeros_put) {  /* the kernel put zeros too: drop them */
    int64_t w = 0;
    for (int64_t r = 0, begin = 0; r < extent; r++) {
      const int64_t end = pointer[r + 1];
      for (int64_t e = begin; e < end; e++) if (values[e] != 0.0) { keys[w] = keys[e]; values[w++] = values[e]; }
      begin = end; pointer[r + 1] = (SPF_BUILDER_ROW_POINTER)w;
    }
  }
  h->row_pointer = pointer; h->row_count = extent; h->n = pointer[extent];
  h->row_keys = keys; h->row_values = values; h->trusted = trusted;
  int ordered = 1;
  if (!SPF_B(check_rows)(h, T, report, &ordered)) { SPF_B(free)(h); return NULL; }
  if (!ordered) {
    int64_t *ends = (int64_t *)malloc((size_t)(extent > 0 ? extent : 1) * sizeof(int64_t));
    if (!ends) { SPF_B(free)(h); return NULL; }
    for (int64_t r = 0; r < extent; r++) ends[r] = pointer[r + 1];
    free(pointer); h->row_pointer = 0; h->row_keys = 0; h->row_values = 0; h->trusted = 0;
    const int done = SPF_B(segments)(h, T, report, drop_zeros, keys, values, ends, extent);
    free(ends);
    if (!done || !SPF_B(check_rows)(h, T, report, 0)) { SPF_B(free)(h); return NULL; }
    statistics[0] = h->groups - h->sorted_rows; statistics[1] = h->sorted_rows;
  } else {
    statistics[0] = extent; statistics[1] = 0;
  }
  return h;
}
#endif

#pragma GCC diagnostic pop
#undef SPF_B
#undef SPF_BUILDER_KEY0_
#undef SPF_BUILDER_AT_LEAST_ONE_
#undef SPF_BUILDER
#undef SPF_BUILDER_OUTPUT
#undef SPF_BUILDER_COORDINATE
#undef SPF_BUILDER_ORDER
#undef SPF_BUILDER_KEYS
#undef SPF_BUILDER_ROW_KEY
#undef SPF_BUILDER_ROW_POINTER
#undef SPF_BUILDER_REPORT
#undef SPF_BUILDER_DUPLICATES
#undef SPF_BUILDER_FIRST_DUPLICATE
#undef SPF_BUILDER_FIRST_BAD
#undef SPF_BUILDER_BAD_CHECK
#undef SPF_BUILDER_DUPLICATE_AT
#undef SPF_BUILDER_ROWS
#undef SPF_BUILDER_OUTER
#undef SPF_BUILDER_INNER
