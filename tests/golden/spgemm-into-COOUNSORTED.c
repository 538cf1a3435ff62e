#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
static inline int spf_threads(void) { return omp_get_max_threads(); }
static inline int spf_thread(void) { return omp_get_thread_num(); }
static inline int spf_team_size(void) { return omp_get_num_threads(); }
#else
static inline int spf_threads(void) { return 1; }
static inline int spf_thread(void) { return 0; }
static inline int spf_team_size(void) { return 1; }
#endif

/* a large array on transparent huge pages (the 2 MiB pages inside it), as numpy asks for
   its arrays: one page fault per 2 MiB, not per 4 KiB, on first touch */
#ifdef __linux__
#include <sys/mman.h>
#endif
static void spf_advise_huge(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = (uintptr_t)1 << 21;
  if (!p || bytes < 2 * huge) return;
  const uintptr_t from = ((uintptr_t)p + huge - 1) & ~(huge - 1), to = ((uintptr_t)p + bytes) & ~(huge - 1);
  if (to > from) madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
  (void)p; (void)bytes;
#endif
}

static void *spf_malloc_large(size_t bytes) {
  void *p = malloc(bytes);
  spf_advise_huge(p, bytes);
  return p;
}

/* the work (iterations plus the segments they walk) one more thread must get before it
   pays: SPF_PARALLEL_GRAIN in the environment when the library loads, else 4096, about
   4 us of SpMV, where a parallel region whose threads still spin (import spf sets a short
   spin, GOMP_SPINCOUNT) costs 1-3 us; smaller inputs run on fewer threads, the smallest
   on one.  Threads that sleep at once (OMP_WAIT_POLICY=passive alone) take 50-130 us to
   wake on a VM: set a grain of 65536 or more then. */
static int64_t spf_grain = 4096;
__attribute__((constructor)) static void spf_read_grain(void) {
  const char *text = getenv("SPF_PARALLEL_GRAIN");
  const long long grain = text ? strtoll(text, NULL, 10) : 0;
  if (grain >= 1) spf_grain = grain;
}
static inline int spf_team_for(int64_t work) {
  const int64_t most = work / spf_grain, threads = spf_threads();
  return most < 1 ? 1 : (int)(most < threads ? most : threads);
}

/* the pieces a parallel loop of `work` units is cut into for a team of `team` threads: up
   to 4 per thread (64 in all), so a thread that wakes late or loses its core holds up one
   piece, not a share of the loop; but each of 16 grains at least (65536 units), so that a
   piece is long beside the cost of taking it (a shorter loop runs one part per thread, a
   static schedule: measured on mid-sized SpMV, 4 pieces a thread cost 5-15%) */
#define SPF_MOST_PIECES 64
static inline int spf_pieces_for(int team, int64_t work) {
  if (team <= 1) return 1;
  int64_t each = work / ((int64_t)team * 16 * spf_grain);
  each = each < 1 ? 1 : each > 4 ? 4 : each;
  return (int)(team * each < SPF_MOST_PIECES ? team * each : SPF_MOST_PIECES);
}
static inline int spf_most_pieces(int team) { return spf_pieces_for(team, (int64_t)1 << 60); }

/* How a team takes the pieces: thread t owns a run of consecutive pieces and takes its own
   from the front, in order; a thread whose run is done takes the last piece of the run
   with the most left.  A run is one word (its next piece in the high half, its end in the
   low half) changed by compare-and-swap, so each piece is taken once.  A thread's own
   pieces follow each other, so they go to one stream (the run's first piece's) and stay in
   the loop's order; a piece taken from another's run goes to a stream of its own.  Where
   nothing is taken from another, this is a static schedule; with one piece per thread
   nothing is (a thread a microsecond late would lose its whole part to another). */
typedef struct spf_run_ { uint64_t run; char apart[56]; } spf_run;  /* a run per cache line */

static void spf_runs_init(spf_run *runs, int team, int pieces) {
  for (int t = 0; t < team; t++)
    runs[t].run = ((uint64_t)((int64_t)t * pieces / team) << 32) | (uint64_t)((int64_t)(t + 1) * pieces / team);
}

/* the next piece for thread `me` of a team of `present` threads (-1: none left), and the
   stream its entries go to; `team` runs were made, and a run whose thread the region did
   not get (an OpenMP runtime may give fewer threads than asked: nested in another
   region, OMP_DYNAMIC, a thread limit) is taken by the others whatever the pieces */
static int spf_piece_take(spf_run *runs, int team, int present, int me, int pieces, int *stream) {
  if (me < team) {
    uint64_t r = __atomic_load_n(&runs[me].run, __ATOMIC_ACQUIRE);
    while ((r >> 32) < (r & 0xffffffffu))
      if (__atomic_compare_exchange_n(&runs[me].run, &r, r + ((uint64_t)1 << 32), 0, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE)) {
        *stream = (int)((int64_t)me * pieces / team);
        return (int)(r >> 32);
      }
  }
  if (pieces <= team && present >= team) return -1;
  for (;;) {
    int victim = -1;
    uint64_t most = 0;
    for (int t = 0; t < team; t++) {
      const uint64_t r = __atomic_load_n(&runs[t].run, __ATOMIC_ACQUIRE);
      const uint64_t left = (r & 0xffffffffu) > (r >> 32) ? (r & 0xffffffffu) - (r >> 32) : 0;
      if (left > most) { most = left; victim = t; }
    }
    if (victim < 0) return -1;
    uint64_t r = __atomic_load_n(&runs[victim].run, __ATOMIC_ACQUIRE);
    if ((r >> 32) < (r & 0xffffffffu) &&
        __atomic_compare_exchange_n(&runs[victim].run, &r, r - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      *stream = (int)((r & 0xffffffffu) - 1);
      return *stream;
    }
  }
}

/* Find state kept between calls (a hash map's table, SeqIter positions kept per value):
   each kernel function keeps one set of states.  A call takes the set with an atomic
   exchange and gives it back when it returns; a call running beside it finds none, makes
   its own, and frees it on return when the kept set is back by then.  An array grows (new
   and zeroed) when a call needs it longer, so each stays the longest a call has needed
   until the library's release_state frees the set.  A state filled inside a parallel
   loop has one sub-state per thread (`threads`). */
typedef struct spf_state_ {
  int64_t *array; int64_t length;
  struct spf_state_ *threads; int64_t thread_count;
  int failed;  /* a table could not grow inside the loops: the call returns 2 */
} spf_state;

static spf_state *spf_state_take(spf_state **kept, int count) {
  spf_state *s = __atomic_exchange_n(kept, (spf_state *)0, __ATOMIC_ACQ_REL);
  return s ? s : (spf_state *)calloc((size_t)count, sizeof(spf_state));
}

static int64_t *spf_state_array(spf_state *s, int64_t length) {
  if (length < 1) length = 1;
  if (s->length < length) {
    free(s->array);
    s->array = (int64_t *)calloc((size_t)length, sizeof(int64_t));
    s->length = s->array ? length : 0;
    spf_advise_huge(s->array, (size_t)s->length * sizeof(int64_t));
  }
  return s->array;
}

/* one sub-state per thread (those of earlier calls kept), or 0 when out of memory */
static spf_state *spf_state_threads(spf_state *s, int64_t count) {
  if (s->thread_count < count) {
    spf_state *more = (spf_state *)realloc(s->threads, (size_t)count * sizeof(spf_state));
    if (!more) return 0;
    memset(more + s->thread_count, 0, (size_t)(count - s->thread_count) * sizeof(spf_state));
    s->threads = more;
    s->thread_count = count;
  }
  return s->threads;
}

static void spf_state_clear(spf_state *s) {
  for (int64_t t = 0; t < s->thread_count; t++) spf_state_clear(&s->threads[t]);
  free(s->threads);
  free(s->array);
}

static void spf_state_free(spf_state *s, int count) {
  if (!s) return;
  for (int k = 0; k < count; k++) spf_state_clear(&s[k]);
  free(s);
}

/* whether a table of the call could not grow (and forget it) */
static int spf_state_failed(spf_state *s, int count) {
  int failed = 0;
  for (int k = 0; k < count; k++) {
    failed |= s[k].failed;
    s[k].failed = 0;
    failed |= spf_state_failed(s[k].threads, (int)s[k].thread_count);
  }
  return failed;
}

static void spf_state_put(spf_state **kept, spf_state *s, int count) {
  spf_state *empty = 0;
  if (s && !__atomic_compare_exchange_n(kept, &empty, s, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    spf_state_free(s, count);
}

static void spf_state_release(spf_state **kept, int count) {
  spf_state_free(__atomic_exchange_n(kept, (spf_state *)0, __ATOMIC_ACQ_REL), count);
}

/* A hash map from a searched array's values to their positions, in one int64 array:
   [0] how many entries the last fill put, [1] b (2**b slots), then 2**(b-1) words of a
   filter (for each entry the bit its hash's top bits name: a value not in the table
   mostly stops there, on a branch that is rarely taken), then the 2**b slots (value,
   position + 1; 0: empty), then the touched list (the slots the last fill took).  A fill
   first empties what the last one put, through the touched list, so the table is never
   cleared whole, and it is left ready for the next fill whatever that fill's arrays are.
   It has at least twice as many slots as the fill's range has positions, growing (new
   and zeroed) for a longer range. */
#define SPF_HASH UINT64_C(0x9E3779B97F4A7C15) /* Fibonacci hashing: the product's top bits */
static int64_t spf_hash_none[9] = {1, 1};  /* full and empty: a table that could not grow */

static int64_t *spf_hash_fill(spf_state *s, int64_t entries) {
  int b = 1;
  while (b < 58 && ((int64_t)1 << b) < 2 * entries) b++;
  int64_t *t = s->array;
  if (t && t[1] >= b) {
    int64_t *const filter = t + 2, *const slots = filter + ((int64_t)1 << (t[1] - 1));
    int64_t *const touched = slots + ((int64_t)2 << t[1]);
    const int bit_shift = 64 - ((int)t[1] + 5);
    for (int64_t k = 0; k < t[0]; k++) {
      const int64_t slot = touched[k];
      filter[((uint64_t)slots[2 * slot] * SPF_HASH >> bit_shift) >> 6] = 0;
      slots[2 * slot + 1] = 0;
    }
    t[0] = 0;
    return t;
  }
  free(s->array);
  s->length = 2 + ((int64_t)1 << (b - 1)) + 3 * ((int64_t)1 << b);
  s->array = t = (int64_t *)calloc((size_t)s->length, sizeof(int64_t));
  if (!t) { s->length = 0; s->failed = 1; return spf_hash_none; }
  spf_advise_huge(t, (size_t)s->length * sizeof(int64_t));
  t[1] = b;
  return t;
}

static inline void spf_hash_put(int64_t *t, int64_t value, int64_t position) {
  const int b = (int)t[1];
  const int64_t mask = ((int64_t)1 << b) - 1;
  if (t[0] >= mask) return;  /* a slot stays empty, so a probe ends (only data breaking the layout fill it) */
  int64_t *const filter = t + 2, *const slots = filter + ((int64_t)1 << (b - 1)), *const touched = slots + 2 * (mask + 1);
  const uint64_t h = (uint64_t)value * SPF_HASH, bit = h >> (64 - (b + 5));
  filter[bit >> 6] |= (int64_t)((uint64_t)1 << (bit & 63));
  int64_t s = (int64_t)(h >> (64 - b));
  while (slots[2 * s + 1]) s = (s + 1) & mask;
  slots[2 * s] = value;
  slots[2 * s + 1] = position + 1;
  touched[t[0]++] = s;
}

/* the position of `value`, or -1 */
static inline int64_t spf_hash_get(const int64_t *t, int64_t value) {
  const int b = (int)t[1];
  const uint64_t h = (uint64_t)value * SPF_HASH, bit = h >> (64 - (b + 5));
  if (!(((uint64_t)t[2 + (bit >> 6)] >> (bit & 63)) & 1)) return -1;
  const int64_t mask = ((int64_t)1 << b) - 1, *const slots = t + 2 + ((int64_t)1 << (b - 1));
  for (int64_t s = (int64_t)(h >> (64 - b)); slots[2 * s + 1]; s = (s + 1) & mask)
    if (slots[2 * s] == value) return slots[2 * s + 1] - 1;
  return -1;
}

static inline int64_t spf_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t spf_max(int64_t a, int64_t b) { return a > b ? a : b; }
/* floor and ceiling of a / b for b > 0 */
static inline int64_t spf_floord(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static inline int64_t spf_ceild(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

#ifndef SPF_KERNEL_CA47799D9F_H_STRUCTS
#define SPF_KERNEL_CA47799D9F_H_STRUCTS

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

/*
 * CSR: compressed sparse row matrix
 */
struct spf_CSR
{
  int numRows;
  int numCols;
  int nnz;
  int *rowPtr;
  int *colIdx;
  double *data;
};

/*
 * COO_UNSORTED: unsorted coordinate list without duplicates
 */
struct spf_COO_UNSORTED
{
  int numRows;
  int numCols;
  int nnz;
  int *row;
  int *col;
  double *val;
};


#endif /* SPF_KERNEL_CA47799D9F_H_STRUCTS */


typedef struct spf_stream_ {
  int64_t n, capacity; int64_t *x[2]; double *v; int failed;
  char apart[64];  /* the threads' streams lie side by side: no cache line holds two threads' fields */
} spf_stream;
static const int64_t spf_unit_strides[2] = {1, 1};
static int spf_stream_grow(spf_stream *s) {
  const int64_t capacity = s->capacity ? 2 * s->capacity : 4096;
  for (int k = 0; k < 2; k++) {
    int64_t *x = (int64_t *)realloc(s->x[k], (size_t)capacity * sizeof(int64_t));
    if (!x) { s->failed = 1; return 0; }
    s->x[k] = x;
  }
  double *v = (double *)realloc(s->v, (size_t)capacity * sizeof(double));
  if (!v) { s->failed = 1; return 0; }
  s->v = v;
  s->capacity = capacity;
  return 1;
}
static inline void spf_append_2(spf_stream *s, int64_t c0, int64_t c1, double value) {
  if (s->n == s->capacity && !spf_stream_grow(s)) return;
  s->x[0][s->n] = c0; s->x[1][s->n] = c1;
  s->v[s->n++] = value;
}
static void spf_stream_forget(spf_stream *s) {
  for (int k = 0; k < 2; k++) s->x[k] = 0;
  s->v = 0;
}
/* the streams (a parallel loop's pieces), one after the other in the loop's order, into
   *joined (0: out of memory) */
static int spf_streams_join(spf_stream *streams, int count, spf_stream *joined) {
  int64_t total = 0;
  for (int t = 0; t < count; t++) {
    if (streams[t].failed) return 0;
    total += streams[t].n;
  }
  if (total == streams[0].n) { *joined = streams[0]; spf_stream_forget(&streams[0]); return 1; }
  for (int k = 0; k < 2; k++) {
    joined->x[k] = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
    if (!joined->x[k]) return 0;
  }
  joined->v = (double *)malloc((size_t)(total > 0 ? total : 1) * sizeof(double));
  if (!joined->v) return 0;
  int64_t at = 0;
  for (int t = 0; t < count; t++) {
    const int64_t n = streams[t].n;
    if (n == 0) continue;
    for (int k = 0; k < 2; k++) memcpy(joined->x[k] + at, streams[t].x[k], (size_t)n * sizeof(int64_t));
    memcpy(joined->v + at, streams[t].v, (size_t)n * sizeof(double));
    at += n;
  }
  joined->n = joined->capacity = total;
  return 1;
}

static void spf_stream_release(spf_stream *s) {
  for (int k = 0; k < 2; k++) free(s->x[k]);
  free(s->v);
  spf_stream_forget(s);
}
#include <string.h>

typedef int64_t spf_assemble_ca47799d9f_coordinate;
typedef struct {
  int64_t n;
  const spf_assemble_ca47799d9f_coordinate *x[2];
  int64_t stride[2];
  const double *v;
  int64_t *key[2];
  int64_t key_stride[2];
  int owned[2];
  int64_t *origin;  /* sorted position -> entry, once gathered */
  double *sorted_v;
  unsigned char *diff;
  spf_assemble_ca47799d9f_coordinate *input_x[2];
  double *input_v;  /* the input, when the builder owns it */
  int64_t groups, *group_outer, *group_end;  /* adopted rows (adopt_rows) */
  int64_t *row_keys;
  double *row_values;
  int64_t sorted_rows;  /* rows sorted after a bucket or two-phase fill */
  int64_t *row_pointer;  /* rows as the layout's pointer array (two phases) */
  int64_t row_count;  /* its number of rows */
  int trusted;  /* the kernel proved its rows storable (and a two-phase fill's keys in order) */
} spf_assemble_ca47799d9f_handle;

#define SPF_ASSEMBLE_CA47799D9F_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])
#define SPF_ASSEMBLE_CA47799D9F_K1(h, e) ((h)->key[1][(e) * (h)->key_stride[1]])

static inline int spf_assemble_ca47799d9f_compare(const spf_assemble_ca47799d9f_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_CA47799D9F_K0(h, a), w = SPF_ASSEMBLE_CA47799D9F_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 1) { const int64_t u = SPF_ASSEMBLE_CA47799D9F_K1(h, a), w = SPF_ASSEMBLE_CA47799D9F_K1(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_ca47799d9f_first_difference(const spf_assemble_ca47799d9f_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_CA47799D9F_K0(h, a) != SPF_ASSEMBLE_CA47799D9F_K0(h, b)) return 0;
  if (SPF_ASSEMBLE_CA47799D9F_K1(h, a) != SPF_ASSEMBLE_CA47799D9F_K1(h, b)) return 1;
  return 2;
}

static void spf_assemble_ca47799d9f_merge_sort(const spf_assemble_ca47799d9f_handle *h, int64_t *perm, int64_t *tmp, int64_t count, int from) {
  for (int64_t width = 1; width < count; width *= 2) {
    for (int64_t low = 0; low < count; low += 2 * width) {
      const int64_t mid = spf_min(low + width, count), high = spf_min(low + 2 * width, count);
      int64_t a = low, b = mid, t = low;
      if (mid >= high || spf_assemble_ca47799d9f_compare(h, perm[mid - 1], perm[mid], from) <= 0) {
        memcpy(tmp + low, perm + low, (size_t)(high - low) * sizeof(int64_t));
        continue;
      }
      while (a < mid && b < high) tmp[t++] = spf_assemble_ca47799d9f_compare(h, perm[b], perm[a], from) < 0 ? perm[b++] : perm[a++];
      while (a < mid) tmp[t++] = perm[a++];
      while (b < high) tmp[t++] = perm[b++];
    }
    memcpy(perm, tmp, (size_t)count * sizeof(int64_t));
  }
}

/* the end of the group of equal first keys (everything when from is 0) starting at
   start, and whether it is in order by the keys from `from` on */
static int64_t spf_assemble_ca47799d9f_group_end(const spf_assemble_ca47799d9f_handle *h, int64_t start, int from, int *ordered) {
  int64_t end = start + 1;
  *ordered = 1;
  while (end < h->n && (from == 0 || SPF_ASSEMBLE_CA47799D9F_K0(h, end) == SPF_ASSEMBLE_CA47799D9F_K0(h, start))) {
    if (*ordered && spf_assemble_ca47799d9f_compare(h, end - 1, end, from) > 0) *ordered = 0;
    end++;
  }
  return end;
}

/* the keys, values and origins of positions [start, start + count) put in the order of
   position[] (a permutation of them), through scratch */
static void spf_assemble_ca47799d9f_permute(const spf_assemble_ca47799d9f_handle *h, int64_t start, const int64_t *position, int64_t count,
                             int64_t *scratch) {
  for (int k = 0; k < 2; k++) {
    for (int64_t i = 0; i < count; i++) scratch[i] = h->key[k][position[i]];
    memcpy(h->key[k] + start, scratch, (size_t)count * sizeof(int64_t));
  }
  for (int64_t i = 0; i < count; i++) scratch[i] = h->origin[position[i]];
  memcpy(h->origin + start, scratch, (size_t)count * sizeof(int64_t));
  double *values = h->sorted_v;
  for (int64_t i = 0; i < count; i++) ((double *)scratch)[i] = values[position[i]];
  memcpy(values + start, scratch, (size_t)count * sizeof(double));
}

static void spf_assemble_ca47799d9f_bad_entry(const spf_assemble_ca47799d9f_handle *h, int64_t e, int64_t *coordinates) {
  for (int k = 0; k < 2; k++) coordinates[k] = h->x[k][e * h->stride[k]];
}

void spf_assemble_ca47799d9f_free(void *handle) {
  spf_assemble_ca47799d9f_handle *h = (spf_assemble_ca47799d9f_handle *)handle;
  if (!h) return;
  for (int k = 0; k < 2; k++) if (h->owned[k]) free(h->key[k]);
  for (int k = 0; k < 2; k++) free(h->input_x[k]);
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

void *spf_assemble_ca47799d9f_begin(struct spf_COO_UNSORTED *T, int64_t n, const spf_assemble_ca47799d9f_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[9];
  if (!report) report = own_report;
  for (int r = 0; r < 9; r++) report[r] = 0;
  report[2] = -1; report[3] = -1; report[4] = -1;
  spf_assemble_ca47799d9f_handle *h = (spf_assemble_ca47799d9f_handle *)calloc(1, sizeof(spf_assemble_ca47799d9f_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 2; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 2; k++) h->input_x[k] = (spf_assemble_ca47799d9f_coordinate *)x[k]; h->input_v = (double *)v; }
  h->n = n; h->v = v;
  for (int k = 0; k < 2; k++) { h->x[k] = x[k]; h->stride[k] = stride[k]; }
  h->key[0] = (int64_t *)x[0]; h->key_stride[0] = stride[0];
  h->key[1] = (int64_t *)x[1]; h->key_stride[1] = stride[1];
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    const int64_t x_j = h->x[1][e * h->stride[1]]; (void)x_j;
    if (!((x_i) >= (0) && (x_i) < ((s_numRows)))) { report[3] = e; report[4] = 0; spf_assemble_ca47799d9f_bad_entry(h, e, report + 5); spf_assemble_ca47799d9f_free(h); return NULL; }
    if (!((x_j) >= (0) && (x_j) < ((s_numCols)))) { report[3] = e; report[4] = 1; spf_assemble_ca47799d9f_bad_entry(h, e, report + 5); spf_assemble_ca47799d9f_free(h); return NULL; }
    if (!(x_i == (((x_i))))) { report[3] = e; report[4] = 2; spf_assemble_ca47799d9f_bad_entry(h, e, report + 5); spf_assemble_ca47799d9f_free(h); return NULL; }
    if (!(x_j == (((x_j))))) { report[3] = e; report[4] = 3; spf_assemble_ca47799d9f_bad_entry(h, e, report + 5); spf_assemble_ca47799d9f_free(h); return NULL; }
  }
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_ca47799d9f_compare(h, t - 1, t, 0) <= 0;
  if (!sorted) {
    int64_t *perm = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    if (!perm) { spf_assemble_ca47799d9f_free(h); return NULL; }
    int64_t low = SPF_ASSEMBLE_CA47799D9F_K0(h, 0), high = low;
    for (int64_t e = 1; e < n; e++) { const int64_t k = SPF_ASSEMBLE_CA47799D9F_K0(h, e); low = spf_min(low, k); high = spf_max(high, k); }
    const int64_t range = high - low + 1;
    int64_t *count = range <= n + (1 << 20) ? (int64_t *)calloc((size_t)range + 1, sizeof(int64_t)) : NULL;
    int from = 1;
    if (count) {  /* stable counting sort on the first key */
      for (int64_t e = 0; e < n; e++) count[SPF_ASSEMBLE_CA47799D9F_K0(h, e) - low + 1]++;
      for (int64_t r = 0; r < range; r++) count[r + 1] += count[r];
      for (int64_t e = 0; e < n; e++) perm[count[SPF_ASSEMBLE_CA47799D9F_K0(h, e) - low]++] = e;
      free(count);
    } else {
      for (int64_t e = 0; e < n; e++) perm[e] = e;
      from = 0;
    }
    /* gather keys and values in that order: from here on everything reads positions in order */
    for (int k = 0; k < 2; k++) {
      int64_t *gathered = (int64_t *)malloc((size_t)n * sizeof(int64_t));
      if (!gathered) { free(perm); spf_assemble_ca47799d9f_free(h); return NULL; }
      for (int64_t t = 0; t < n; t++) gathered[t] = h->key[k][perm[t] * h->key_stride[k]];
      if (h->owned[k]) free(h->key[k]);
      h->key[k] = gathered; h->key_stride[k] = 1; h->owned[k] = 1;
    }
    h->sorted_v = (double *)malloc((size_t)n * sizeof(double));
    if (!h->sorted_v) { free(perm); spf_assemble_ca47799d9f_free(h); return NULL; }
    for (int64_t t = 0; t < n; t++) h->sorted_v[t] = v[perm[t]];
    h->v = h->sorted_v;
    h->origin = perm;
    /* groups of equal first keys (or everything) not yet in order: merge sort them */
    int64_t largest = 0;
    for (int64_t start = 0, end; start < n; start = end) {
      int ordered;
      end = spf_assemble_ca47799d9f_group_end(h, start, from, &ordered);
      if (!ordered && end - start > largest) largest = end - start;
    }
    if (largest > 0 && 2 > from) {
      int64_t *work = (int64_t *)malloc((size_t)largest * 3 * sizeof(int64_t));
      if (!work) { spf_assemble_ca47799d9f_free(h); return NULL; }
      for (int64_t start = 0, end; start < n; start = end) {
        int ordered;
        end = spf_assemble_ca47799d9f_group_end(h, start, from, &ordered);
        if (ordered) continue;
        for (int64_t i = 0; i < end - start; i++) work[i] = start + i;
        spf_assemble_ca47799d9f_merge_sort(h, work, work + largest, end - start, from);
        spf_assemble_ca47799d9f_permute(h, start, work, end - start, work + 2 * largest);
      }
      free(work);
    }
  }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_ca47799d9f_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_ca47799d9f_first_difference(h, end - 1, end) == 2; end++) sum += h->v[end];
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_ca47799d9f_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 2, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 2;
    if (end - t > 1) { if (report[1] == 0) { report[2] = e; spf_assemble_ca47799d9f_bad_entry(h, e, report + 7); } report[1] += end - t - 1; }
  }
  T->nnz = report[0] - 0;
  return h;
}

int spf_assemble_ca47799d9f_fill(void *handle, struct spf_COO_UNSORTED *T) {
  spf_assemble_ca47799d9f_handle *h = (spf_assemble_ca47799d9f_handle *)handle;
  const int64_t n = h->n;
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  int *const a_row = T->row; (void)a_row;
  int *const a_col = T->col; (void)a_col;
  double *const a_val = T->val; (void)a_val;
  memset(a_val, 0, (size_t)((s_nnz)) * sizeof(*a_val));
  int64_t p_p = -1;
  for (int64_t t = 0; t < n; t++) {
    const int d = h->diff[t];
    if (d == 255) continue;
    if (d < 2) {
      p_p++;
      a_row[p_p] = SPF_ASSEMBLE_CA47799D9F_K0(h, t);
      a_col[p_p] = SPF_ASSEMBLE_CA47799D9F_K1(h, t);
    }
    a_val[p_p] += h->v[t];
  }
  spf_assemble_ca47799d9f_free(h);
  return 0;
}

int spf_kernel_ca47799d9f(struct spf_CSR *A, struct spf_CSR *B, struct spf_COO_UNSORTED *C, int64_t *spf_report, void **spf_handle)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t B_numRows = B->numRows;
  const int64_t B_numCols = B->numCols;
  const int64_t B_nnz = B->nnz;
  int * restrict B_rowPtr = B->rowPtr;
  int * restrict B_colIdx = B->colIdx;
  double * restrict B_data = B->data;
  const int64_t C_numRows = C->numRows;
  const int64_t C_numCols = C->numCols;
  const int64_t C_nnz = C->nnz;
  int * restrict C_row = C->row;
  int * restrict C_col = C->col;
  double * restrict C_val = C->val;
  const int64_t N_k = A_numCols;
  const int64_t N_j = B_numCols;
  const int64_t N_i = A_numRows;
  if (!(A_numCols == B_numRows))
    return 1;
  C->numRows = N_i;
  C->numCols = N_j;
  const int spf_thread_count = 1;
  const int spf_stream_count = spf_most_pieces(spf_thread_count);
  spf_stream *spf_streams = (spf_stream *) calloc((size_t) spf_stream_count, sizeof(spf_stream));
  if (!spf_streams)
    return 2;
  spf_stream spf_entries = {0};
  spf_stream *spf_my_stream = &spf_streams[0];
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= B_numCols))
  {
    for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)
    {
      const int64_t A_rowPtr_pAi = A_rowPtr[pAi];
      const int64_t A_rowPtr_pAi_1 = A_rowPtr[pAi + 1];
      if ((A_rowPtr_pAi + 1) <= A_rowPtr_pAi_1)
      {
        const int64_t i = pAi;
        for (int64_t pAj = A_rowPtr_pAi; pAj <= (A_rowPtr_pAi_1 - 1); pAj++)
        {
          const int64_t A_colIdx_pAj = A_colIdx[pAj];
          const int64_t pBi = A_colIdx_pAj;
          const int64_t B_rowPtr_pBi = B_rowPtr[pBi];
          const int64_t B_rowPtr_pBi_1 = B_rowPtr[pBi + 1];
          if ((B_rowPtr_pBi + 1) <= B_rowPtr_pBi_1)
          {
            for (int64_t pBj = B_rowPtr_pBi; pBj <= (B_rowPtr_pBi_1 - 1); pBj++)
            {
              const int64_t B_colIdx_pBj = B_colIdx[pBj];
              const int64_t j = B_colIdx_pBj;
              spf_append_2(spf_my_stream, i, j, A_data[pAj] * B_data[pBj]);
            }

          }
        }

      }
    }

  }
  int64_t spf_own_report[9];
  if (!spf_report)
    spf_report = spf_own_report;
  int spf_status = (spf_streams_join(spf_streams, spf_stream_count, &spf_entries)) ? (0) : (2);
  if (!spf_status)
  {
    *spf_handle = spf_assemble_ca47799d9f_begin(C, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
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


void spf_kernel_ca47799d9f_release_state(void)
{
}
