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

#ifndef SPF_KERNEL_E2013BC3B5_H_STRUCTS
#define SPF_KERNEL_E2013BC3B5_H_STRUCTS

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
 * ELL: ELLPACK: fixed number of slots per row, padding slots have column -1
 *   col: int[numRows][width], flattened row-major
 *   val: double[numRows][width], flattened row-major
 */
struct spf_ELL
{
  int numRows;
  int numCols;
  int width;
  int *col;
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


#endif /* SPF_KERNEL_E2013BC3B5_H_STRUCTS */


int spf_kernel_e2013bc3b5(struct spf_ELL *A, struct spf_Dense1 *x, struct spf_Dense1 *y)
{
  const int64_t A_numRows = A->numRows;
  const int64_t A_numCols = A->numCols;
  const int64_t A_width = A->width;
  int * restrict A_col = A->col;
  double * restrict A_val = A->val;
  const int64_t x_N0 = x->N0;
  double * restrict x_vals = x->vals;
  const int64_t y_N0 = y->N0;
  double * restrict y_vals = y->vals;
  const int64_t N_j = A_numCols;
  const int64_t N_i = A_numRows;
  if (!((A_numRows == y_N0) && (A_numCols == x_N0)))
    return 1;
  {
    const int64_t spf_row_size = 1;
    int64_t spf_reached_from = y_N0;
    int64_t spf_reached_to = y_N0;
    if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= A_width))
    {
      spf_reached_from = spf_min(spf_max(0, 0), y_N0);
      spf_reached_to = spf_max(spf_reached_from, spf_min((A_numRows - 1) + 1, y_N0));
    }
    for (int64_t spf_zero = 0; spf_zero < (spf_reached_from * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

    for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < (y_N0 * spf_row_size); spf_zero++)
      y_vals[spf_zero] = 0.0;

  }
  if (((1 <= A_numCols) && (1 <= A_numRows)) && (1 <= A_width))
  {
    for (int64_t pAi = 0; pAi < ((A_numRows - 1) + 1); pAi++)
    {
      const int64_t i = pAi;
      const int64_t py0 = i;
      double sum_1 = 0.0;
      for (int64_t pAk = 0; pAk <= (A_width - 1); pAk++)
      {
        const int64_t A_col_pAi_pAk = A_col[(pAi * A_width) + pAk];
        if (0 <= A_col_pAi_pAk)
        {
          const int64_t px0 = A_col_pAi_pAk;
          sum_1 += A_val[(pAi * A_width) + pAk] * x_vals[px0];
        }
      }

      y_vals[py0] = sum_1;
    }

  }
  return 0;
}


void spf_kernel_e2013bc3b5_release_state(void)
{
}
