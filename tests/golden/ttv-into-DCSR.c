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

#ifndef SPF_KERNEL_2D61945271_H_STRUCTS
#define SPF_KERNEL_2D61945271_H_STRUCTS

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
 * CSF3: compressed sparse fiber, order 3
 */
struct spf_CSF3
{
  int n0;
  int n1;
  int n2;
  int nnz0;
  int nnz1;
  int nnz2;
  int *idx0;
  int *ptr0;
  int *idx1;
  int *ptr1;
  int *idx2;
  double *val;
};

/*
 * Dense1: dense order-1 tensor, row-major
 */
struct spf_Dense1
{
  int N0;
  double *vals;
};

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


#endif /* SPF_KERNEL_2D61945271_H_STRUCTS */


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

typedef int64_t spf_assemble_2d61945271_coordinate;
typedef struct {
  int64_t n;
  const spf_assemble_2d61945271_coordinate *x[2];
  int64_t stride[2];
  const double *v;
  int64_t *key[2];
  int64_t key_stride[2];
  int owned[2];
  int64_t *origin;  /* sorted position -> entry, once gathered */
  double *sorted_v;
  unsigned char *diff;
  spf_assemble_2d61945271_coordinate *input_x[2];
  double *input_v;  /* the input, when the builder owns it */
  int64_t groups, *group_outer, *group_end;  /* adopted rows (adopt_rows) */
  int64_t *row_keys;
  double *row_values;
  int64_t sorted_rows;  /* rows sorted after a bucket or two-phase fill */
  int64_t *row_pointer;  /* rows as the layout's pointer array (two phases) */
  int64_t row_count;  /* its number of rows */
  int trusted;  /* the kernel proved its rows storable (and a two-phase fill's keys in order) */
} spf_assemble_2d61945271_handle;

#define SPF_ASSEMBLE_2D61945271_K0(h, e) ((h)->key[0][(e) * (h)->key_stride[0]])
#define SPF_ASSEMBLE_2D61945271_K1(h, e) ((h)->key[1][(e) * (h)->key_stride[1]])

static inline int spf_assemble_2d61945271_compare(const spf_assemble_2d61945271_handle *h, int64_t a, int64_t b, int from) {
  if (from <= 0) { const int64_t u = SPF_ASSEMBLE_2D61945271_K0(h, a), w = SPF_ASSEMBLE_2D61945271_K0(h, b); if (u != w) return u < w ? -1 : 1; }
  if (from <= 1) { const int64_t u = SPF_ASSEMBLE_2D61945271_K1(h, a), w = SPF_ASSEMBLE_2D61945271_K1(h, b); if (u != w) return u < w ? -1 : 1; }
  return 0;
}

static inline int spf_assemble_2d61945271_first_difference(const spf_assemble_2d61945271_handle *h, int64_t a, int64_t b) {
  if (SPF_ASSEMBLE_2D61945271_K0(h, a) != SPF_ASSEMBLE_2D61945271_K0(h, b)) return 0;
  if (SPF_ASSEMBLE_2D61945271_K1(h, a) != SPF_ASSEMBLE_2D61945271_K1(h, b)) return 1;
  return 2;
}

static void spf_assemble_2d61945271_merge_sort(const spf_assemble_2d61945271_handle *h, int64_t *perm, int64_t *tmp, int64_t count, int from) {
  for (int64_t width = 1; width < count; width *= 2) {
    for (int64_t low = 0; low < count; low += 2 * width) {
      const int64_t mid = spf_min(low + width, count), high = spf_min(low + 2 * width, count);
      int64_t a = low, b = mid, t = low;
      if (mid >= high || spf_assemble_2d61945271_compare(h, perm[mid - 1], perm[mid], from) <= 0) {
        memcpy(tmp + low, perm + low, (size_t)(high - low) * sizeof(int64_t));
        continue;
      }
      while (a < mid && b < high) tmp[t++] = spf_assemble_2d61945271_compare(h, perm[b], perm[a], from) < 0 ? perm[b++] : perm[a++];
      while (a < mid) tmp[t++] = perm[a++];
      while (b < high) tmp[t++] = perm[b++];
    }
    memcpy(perm, tmp, (size_t)count * sizeof(int64_t));
  }
}

/* the end of the group of equal first keys (everything when from is 0) starting at
   start, and whether it is in order by the keys from `from` on */
static int64_t spf_assemble_2d61945271_group_end(const spf_assemble_2d61945271_handle *h, int64_t start, int from, int *ordered) {
  int64_t end = start + 1;
  *ordered = 1;
  while (end < h->n && (from == 0 || SPF_ASSEMBLE_2D61945271_K0(h, end) == SPF_ASSEMBLE_2D61945271_K0(h, start))) {
    if (*ordered && spf_assemble_2d61945271_compare(h, end - 1, end, from) > 0) *ordered = 0;
    end++;
  }
  return end;
}

/* the keys, values and origins of positions [start, start + count) put in the order of
   position[] (a permutation of them), through scratch */
static void spf_assemble_2d61945271_permute(const spf_assemble_2d61945271_handle *h, int64_t start, const int64_t *position, int64_t count,
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

static void spf_assemble_2d61945271_bad_entry(const spf_assemble_2d61945271_handle *h, int64_t e, int64_t *coordinates) {
  for (int k = 0; k < 2; k++) coordinates[k] = h->x[k][e * h->stride[k]];
}

void spf_assemble_2d61945271_free(void *handle) {
  spf_assemble_2d61945271_handle *h = (spf_assemble_2d61945271_handle *)handle;
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

void *spf_assemble_2d61945271_begin(struct spf_DCSR *T, int64_t n, const spf_assemble_2d61945271_coordinate *const *x, const int64_t *stride, const double *v, int64_t *report, int owns_input, int drop_zeros) {
  int64_t own_report[10];
  if (!report) report = own_report;
  for (int r = 0; r < 10; r++) report[r] = 0;
  report[3] = -1; report[4] = -1; report[5] = -1;
  spf_assemble_2d61945271_handle *h = (spf_assemble_2d61945271_handle *)calloc(1, sizeof(spf_assemble_2d61945271_handle));
  if (!h) {
    if (owns_input) { for (int k = 0; k < 2; k++) free((void *)x[k]); free((void *)v); }
    return NULL;
  }
  if (owns_input) { for (int k = 0; k < 2; k++) h->input_x[k] = (spf_assemble_2d61945271_coordinate *)x[k]; h->input_v = (double *)v; }
  h->n = n; h->v = v;
  for (int k = 0; k < 2; k++) { h->x[k] = x[k]; h->stride[k] = stride[k]; }
  h->key[0] = (int64_t *)x[0]; h->key_stride[0] = stride[0];
  h->key[1] = (int64_t *)x[1]; h->key_stride[1] = stride[1];
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnzRows = T->nnzRows; (void)s_nnzRows;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  for (int64_t e = 0; e < n; e++) {
    const int64_t x_i = h->x[0][e * h->stride[0]]; (void)x_i;
    const int64_t x_j = h->x[1][e * h->stride[1]]; (void)x_j;
    if (!((x_i) >= (0) && (x_i) < ((s_numRows)))) { report[4] = e; report[5] = 0; spf_assemble_2d61945271_bad_entry(h, e, report + 6); spf_assemble_2d61945271_free(h); return NULL; }
    if (!((x_j) >= (0) && (x_j) < ((s_numCols)))) { report[4] = e; report[5] = 1; spf_assemble_2d61945271_bad_entry(h, e, report + 6); spf_assemble_2d61945271_free(h); return NULL; }
    if (!(x_i == (((x_i))))) { report[4] = e; report[5] = 2; spf_assemble_2d61945271_bad_entry(h, e, report + 6); spf_assemble_2d61945271_free(h); return NULL; }
    if (!(x_j == (((x_j))))) { report[4] = e; report[5] = 3; spf_assemble_2d61945271_bad_entry(h, e, report + 6); spf_assemble_2d61945271_free(h); return NULL; }
  }
  int sorted = 1;
  for (int64_t t = 1; t < n && sorted; t++) sorted = spf_assemble_2d61945271_compare(h, t - 1, t, 0) <= 0;
  if (!sorted) {
    int64_t *perm = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    if (!perm) { spf_assemble_2d61945271_free(h); return NULL; }
    int64_t low = SPF_ASSEMBLE_2D61945271_K0(h, 0), high = low;
    for (int64_t e = 1; e < n; e++) { const int64_t k = SPF_ASSEMBLE_2D61945271_K0(h, e); low = spf_min(low, k); high = spf_max(high, k); }
    const int64_t range = high - low + 1;
    int64_t *count = range <= n + (1 << 20) ? (int64_t *)calloc((size_t)range + 1, sizeof(int64_t)) : NULL;
    int from = 1;
    if (count) {  /* stable counting sort on the first key */
      for (int64_t e = 0; e < n; e++) count[SPF_ASSEMBLE_2D61945271_K0(h, e) - low + 1]++;
      for (int64_t r = 0; r < range; r++) count[r + 1] += count[r];
      for (int64_t e = 0; e < n; e++) perm[count[SPF_ASSEMBLE_2D61945271_K0(h, e) - low]++] = e;
      free(count);
    } else {
      for (int64_t e = 0; e < n; e++) perm[e] = e;
      from = 0;
    }
    /* gather keys and values in that order: from here on everything reads positions in order */
    for (int k = 0; k < 2; k++) {
      int64_t *gathered = (int64_t *)malloc((size_t)n * sizeof(int64_t));
      if (!gathered) { free(perm); spf_assemble_2d61945271_free(h); return NULL; }
      for (int64_t t = 0; t < n; t++) gathered[t] = h->key[k][perm[t] * h->key_stride[k]];
      if (h->owned[k]) free(h->key[k]);
      h->key[k] = gathered; h->key_stride[k] = 1; h->owned[k] = 1;
    }
    h->sorted_v = (double *)malloc((size_t)n * sizeof(double));
    if (!h->sorted_v) { free(perm); spf_assemble_2d61945271_free(h); return NULL; }
    for (int64_t t = 0; t < n; t++) h->sorted_v[t] = v[perm[t]];
    h->v = h->sorted_v;
    h->origin = perm;
    /* groups of equal first keys (or everything) not yet in order: merge sort them */
    int64_t largest = 0;
    for (int64_t start = 0, end; start < n; start = end) {
      int ordered;
      end = spf_assemble_2d61945271_group_end(h, start, from, &ordered);
      if (!ordered && end - start > largest) largest = end - start;
    }
    if (largest > 0 && 2 > from) {
      int64_t *work = (int64_t *)malloc((size_t)largest * 3 * sizeof(int64_t));
      if (!work) { spf_assemble_2d61945271_free(h); return NULL; }
      for (int64_t start = 0, end; start < n; start = end) {
        int ordered;
        end = spf_assemble_2d61945271_group_end(h, start, from, &ordered);
        if (ordered) continue;
        for (int64_t i = 0; i < end - start; i++) work[i] = start + i;
        spf_assemble_2d61945271_merge_sort(h, work, work + largest, end - start, from);
        spf_assemble_2d61945271_permute(h, start, work, end - start, work + 2 * largest);
      }
      free(work);
    }
  }
  h->diff = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  if (!h->diff) { spf_assemble_2d61945271_free(h); return NULL; }
  for (int64_t t = 0, last = -1, end; t < n; t = end) {
    const int64_t e = h->origin ? h->origin[t] : t;  /* the entry, for reports */
    double sum = h->v[t];
    for (end = t + 1; end < n && spf_assemble_2d61945271_first_difference(h, end - 1, end) == 2; end++) sum += h->v[end];
    if (drop_zeros && sum == 0.0) { memset(h->diff + t, 255, (size_t)(end - t)); continue; }
    const int d = last < 0 ? 0 : spf_assemble_2d61945271_first_difference(h, last, t);
    h->diff[t] = (unsigned char)d;
    if (end - t > 1) memset(h->diff + t + 1, 2, (size_t)(end - t - 1));
    last = t;
    report[0] += d < 1;
    report[1] += d < 2;
    if (end - t > 1) { if (report[2] == 0) { report[3] = e; spf_assemble_2d61945271_bad_entry(h, e, report + 8); } report[2] += end - t - 1; }
  }
  T->nnzRows = report[0] - 0;
  T->nnz = report[1] - 0;
  return h;
}

int spf_assemble_2d61945271_fill(void *handle, struct spf_DCSR *T) {
  spf_assemble_2d61945271_handle *h = (spf_assemble_2d61945271_handle *)handle;
  const int64_t n = h->n;
  const int64_t s_numRows = T->numRows; (void)s_numRows;
  const int64_t s_numCols = T->numCols; (void)s_numCols;
  const int64_t s_nnzRows = T->nnzRows; (void)s_nnzRows;
  const int64_t s_nnz = T->nnz; (void)s_nnz;
  int *const a_rowIdx = T->rowIdx; (void)a_rowIdx;
  int *const a_rowPtr = T->rowPtr; (void)a_rowPtr;
  int *const a_colIdx = T->colIdx; (void)a_colIdx;
  double *const a_data = T->data; (void)a_data;
  memset(a_rowPtr, 0, (size_t)(((s_nnzRows + 1))) * sizeof(*a_rowPtr));
  memset(a_data, 0, (size_t)((s_nnz)) * sizeof(*a_data));
  int64_t p_pi = -1;
  int64_t p_pj = -1;
  for (int64_t t = 0; t < n; t++) {
    const int d = h->diff[t];
    if (d == 255) continue;
    if (d < 1) {
      p_pi++;
      a_rowIdx[p_pi] = SPF_ASSEMBLE_2D61945271_K0(h, t);
    }
    if (d < 2) {
      p_pj++;
      a_colIdx[p_pj] = SPF_ASSEMBLE_2D61945271_K1(h, t);
      a_rowPtr[((p_pi)) + 1]++;
    }
    a_data[p_pj] += h->v[t];
  }
  for (int64_t q = 0; q + 1 < (s_nnzRows + 1); q++) a_rowPtr[q + 1] += a_rowPtr[q];
  spf_assemble_2d61945271_free(h);
  return 0;
}

typedef struct spf_workspace_ {
  double *acc; int64_t *stamp; int64_t *touched; uint64_t *bits; int64_t extent, count, group, low, high;
  int64_t prefix[1]; int drop_zeros, sorted;
  int64_t run_merges, dense_scans, radix_sorts, comparison_sorts;  /* how each group was ordered */
  char apart[64];  /* the threads' workspaces lie side by side: no cache line holds two threads' fields */
} spf_workspace;

static int spf_workspace_init(spf_workspace *w, int64_t extent, int drop_zeros, int sorted) {
  w->acc = (double *)calloc((size_t)(extent > 0 ? extent : 1), sizeof(double));
  w->stamp = (int64_t *)malloc((size_t)(extent > 0 ? extent : 1) * sizeof(int64_t));
  w->touched = (int64_t *)malloc((size_t)(extent > 0 ? 2 * extent : 1) * sizeof(int64_t));  /* + radix scratch */
  w->bits = (uint64_t *)calloc((size_t)(extent / 64 + 1), sizeof(uint64_t));
  if (!w->acc || !w->stamp || !w->touched || !w->bits) return 0;
  for (int64_t c = 0; c < extent; c++) w->stamp[c] = -1;
  w->extent = extent; w->count = 0; w->group = 0; w->low = extent; w->high = -1;
  for (int k = 0; k < 1; k++) w->prefix[k] = INT64_MIN;  /* no group yet */
  w->drop_zeros = drop_zeros; w->sorted = sorted;
  w->run_merges = w->dense_scans = w->radix_sorts = w->comparison_sorts = 0;
  return 1;
}

static void spf_workspace_release(spf_workspace *w) {
  free(w->acc); free(w->stamp); free(w->touched); free(w->bits);
  w->acc = 0; w->stamp = 0; w->touched = 0; w->bits = 0;
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
    for (int k = 0; k < 1; k++) w->prefix[k] = INT64_MIN;
    w->drop_zeros = drop_zeros; w->sorted = sorted;
    w->run_merges = w->dense_scans = w->radix_sorts = w->comparison_sorts = 0;
  }
  return set;
}

static void spf_workspaces_put(spf_workspaces *set) {
  if (!set) return;
  for (int t = 0; t < set->threads; t++) {
    spf_workspace *w = &set->w[t];
    for (int64_t k = 0; k < w->count; k++) w->acc[w->touched[k]] = 0.0;
    w->count = 0;
  }
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

/* the touched coordinates in storage order (or as touched, when the layout asks no order) */
static void spf_workspace_order(spf_workspace *w) {
  const int64_t count = w->count;
  if (!w->sorted) return;
  int64_t *const touched = w->touched;
  int64_t second = 0;  /* where a second ascending run starts (0: one run, -1: more than two) */
  int64_t low = touched[0], high = touched[0];
  for (int64_t t = 1; t < count; t++) {
    const int64_t c = touched[t];
    low = c < low ? c : low;
    high = c > high ? c : high;
    if (c < touched[t - 1]) second = second ? -1 : t;
  }
  w->low = low; w->high = high;
  if (second >= 0) {  /* already in order, or two runs (a sum's terms): merge them */
    if (second) {
      int64_t *const merged = touched + w->extent;
      int64_t a = 0, b = second, m = 0;
      while (a < second && b < count) merged[m++] = touched[a] < touched[b] ? touched[a++] : touched[b++];
      while (a < second) merged[m++] = touched[a++];
      while (b < count) merged[m++] = touched[b++];
      memcpy(touched, merged, (size_t)count * sizeof(int64_t));
    }
    w->run_merges++;
    return;
  }
  if ((w->high >> 6) - (w->low >> 6) < 2 * count) {  /* few words in its range (2 per entry at most): a bitmap, read in order */
    uint64_t *const bits = w->bits;
    for (int64_t t = 0; t < count; t++) bits[touched[t] >> 6] |= (uint64_t)1 << (touched[t] & 63);
    int64_t n = 0;
    for (int64_t word = w->low >> 6; word <= w->high >> 6; word++) {
      uint64_t b = bits[word];
      bits[word] = 0;
      while (b) { touched[n++] = word * 64 + __builtin_ctzll(b); b &= b - 1; }
    }
    w->dense_scans++;
  } else if (count <= SPF_RANK_SORTED && w->extent <= INT32_MAX) {  /* (the touched keys are distinct) */
    spf_rank_sort(touched, count, touched + w->extent);
    w->comparison_sorts++;
  } else {  /* two or three byte passes beat comparisons */
    spf_radix_sort_index(touched, touched + w->extent, count, w->low, w->high);
    w->radix_sorts++;
  }
}

static void spf_workspace_flush_2(spf_workspace *w, spf_stream *s) {
  const int64_t count = w->count;
  if (count == 0) return;
  spf_workspace_order(w);
  for (int64_t t = 0; t < count; t++) {
    const int64_t c = w->touched[t];
    const double value = w->acc[c];
    w->acc[c] = 0.0;
    if (w->drop_zeros && value == 0.0) continue;
    spf_append_2(s, w->prefix[0], c, value);
  }
  w->count = 0; w->group++; w->low = w->extent; w->high = -1;
}

static inline void spf_workspace_add_2(spf_workspace *w, spf_stream *s, int64_t c0, int64_t c1, double value) {
  if (w->prefix[0] != c0) { spf_workspace_flush_2(w, s); w->prefix[0] = c0; }  /* a new group: the last one goes out */
  const int64_t c = c1;
  if (w->stamp[c] != w->group) {
    w->stamp[c] = w->group;
    w->touched[w->count++] = c;
  }
  w->acc[c] += value;
}

int spf_kernel_2d61945271(struct spf_CSF3 *B, struct spf_Dense1 *c, struct spf_DCSR *A, int64_t *spf_report, void **spf_handle)
{
  const int64_t B_n0 = B->n0;
  const int64_t B_n1 = B->n1;
  const int64_t B_n2 = B->n2;
  const int64_t B_nnz0 = B->nnz0;
  const int64_t B_nnz1 = B->nnz1;
  const int64_t B_nnz2 = B->nnz2;
  int * restrict B_idx0 = B->idx0;
  int * restrict B_ptr0 = B->ptr0;
  int * restrict B_idx1 = B->idx1;
  int * restrict B_ptr1 = B->ptr1;
  int * restrict B_idx2 = B->idx2;
  double * restrict B_val = B->val;
  const int64_t c_N0 = c->N0;
  double * restrict c_vals = c->vals;
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_nnzRows = A->nnzRows;
  const int64_t A_nnz = A->nnz;
  int * restrict A_rowIdx = A->rowIdx;
  int * restrict A_rowPtr = A->rowPtr;
  int * restrict A_colIdx = A->colIdx;
  double * restrict A_data = A->data;
  const int64_t N_k = B_n2;
  const int64_t N_j = B_n1;
  const int64_t N_i = B_n0;
  if (!(B_n2 == c_N0))
    return 1;
  A->numRows = N_i;
  A->numCols = N_j;
  const int spf_thread_count = 1;
  const int spf_stream_count = spf_most_pieces(spf_thread_count);
  spf_stream *spf_streams = (spf_stream *) calloc((size_t) spf_stream_count, sizeof(spf_stream));
  if (!spf_streams)
    return 2;
  spf_stream spf_entries = {0};
  spf_workspaces *spf_call_workspaces = spf_workspaces_take(spf_thread_count, N_j, 1, 1);
  if (!spf_call_workspaces)
  {
    free(spf_streams);
    return 2;
  }
  spf_workspace *spf_accumulators = spf_call_workspaces->w;
  spf_stream *spf_my_stream = &spf_streams[0];
  spf_workspace *spf_my_accumulator = &spf_accumulators[0];
  if ((((1 <= B_n0) && (1 <= B_n1)) && (1 <= B_n2)) && (1 <= B_nnz0))
  {
    for (int64_t pB0 = 0; pB0 <= (B_nnz0 - 1); pB0++)
    {
      const int64_t B_idx0_pB0 = B_idx0[pB0];
      const int64_t B_ptr0_pB0 = B_ptr0[pB0];
      const int64_t B_ptr0_pB0_1 = B_ptr0[pB0 + 1];
      if ((B_ptr0_pB0 + 1) <= B_ptr0_pB0_1)
      {
        const int64_t i = B_idx0_pB0;
        for (int64_t pB1 = B_ptr0_pB0; pB1 <= (B_ptr0_pB0_1 - 1); pB1++)
        {
          const int64_t B_idx1_pB1 = B_idx1[pB1];
          const int64_t B_ptr1_pB1 = B_ptr1[pB1];
          const int64_t B_ptr1_pB1_1 = B_ptr1[pB1 + 1];
          if ((B_ptr1_pB1 + 1) <= B_ptr1_pB1_1)
          {
            const int64_t j = B_idx1_pB1;
            double sum_1 = 0.0;
            int added_2 = 0;
            for (int64_t pB2 = B_ptr1_pB1; pB2 <= (B_ptr1_pB1_1 - 1); pB2++)
            {
              const int64_t B_idx2_pB2 = B_idx2[pB2];
              const int64_t pc0 = B_idx2_pB2;
              if (c_vals[pc0] != 0.0)
              {
                sum_1 += B_val[pB2] * c_vals[pc0];
                added_2 = 1;
              }
            }

            if (added_2)
              spf_workspace_add_2(spf_my_accumulator, spf_my_stream, i, j, sum_1);
          }
        }

      }
    }

  }
  for (int spf_t = 0; spf_t < spf_thread_count; spf_t++)
    spf_workspace_flush_2(&spf_accumulators[spf_t], &spf_streams[spf_t]);

  int64_t spf_own_report[10];
  if (!spf_report)
    spf_report = spf_own_report;
  int spf_status = (spf_streams_join(spf_streams, spf_stream_count, &spf_entries)) ? (0) : (2);
  if (!spf_status)
  {
    *spf_handle = spf_assemble_2d61945271_begin(A, spf_entries.n, (const int64_t * const *) spf_entries.x, spf_unit_strides, spf_entries.v, spf_report, 1, 1);
    spf_stream_forget(&spf_entries);
    if (!(*spf_handle))
      spf_status = (spf_report[4] >= 0) ? (3) : (2);
  }
  for (int spf_t = 0; spf_t < spf_stream_count; spf_t++)
    spf_stream_release(&spf_streams[spf_t]);

  free(spf_streams);
  spf_stream_release(&spf_entries);
  spf_workspaces_put(spf_call_workspaces);
  return spf_status;
}


void spf_kernel_2d61945271_release_state(void)
{
  spf_workspaces_release();
}
