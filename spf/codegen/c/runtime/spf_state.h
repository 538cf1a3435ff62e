/* spf's run-time C: the find state a kernel keeps between calls (hash tables, SeqIter
   positions).  Fixed C, included by the generated source. */
#ifndef SPF_STATE_H
#define SPF_STATE_H

#include "spf_base.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  /* a kernel calls some of these, not all */

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

#pragma GCC diagnostic pop
#endif
