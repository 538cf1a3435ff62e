/* spf's run-time C: how a parallel loop is cut into pieces and how a team of threads
   takes them (the piece scheduler).  Fixed C, included by the generated source. */
#ifndef SPF_PIECES_H
#define SPF_PIECES_H

#include "spf_base.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  /* a kernel calls some of these, not all */

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
/* SPF_TEAM_GRAIN, defined when compiling, replaces the grain in the choice of the team alone
   (benchmarks/thread_count.py builds kernels with 1, whose every loop takes the whole team
   and is cut as the chosen team's would be: the alternative to the team chosen here) */
#ifdef SPF_TEAM_GRAIN
#define SPF_TEAM_GRAIN_ ((int64_t)SPF_TEAM_GRAIN)
#else
#define SPF_TEAM_GRAIN_ spf_grain
#endif
static inline int spf_team_for(int64_t work) {
  const int64_t most = work / SPF_TEAM_GRAIN_, threads = spf_threads();
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

#pragma GCC diagnostic pop
#endif
