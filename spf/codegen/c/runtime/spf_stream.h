/* spf's run-time C: the stream of an assembled output's entries (coordinates and values),
   a growable list the kernel appends to and hands to the output's builder when its loop
   nests are done.  Fixed C, included by the generated source after its parameters:

     SPF_STREAM_ORDER           the number of coordinates of an entry
     SPF_STREAM_COORDINATES(X)  X(0) X(1) ... X(SPF_STREAM_ORDER - 1)

   It defines spf_stream and spf_append_<SPF_STREAM_ORDER>(s, c0, c1, ..., value). */
#ifndef SPF_STREAM_H
#define SPF_STREAM_H

#include "spf_base.h"
#include "spf_combine.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  /* a kernel calls some of these, not all */

#define SPF_STREAM_ONE_(k) 1,
#define SPF_STREAM_PARAMETER_(k) , int64_t c##k
#define SPF_STREAM_STORE_(k) s->x[k][s->n] = c##k;

typedef struct spf_stream_ {
  int64_t n, capacity; int64_t *x[SPF_STREAM_ORDER]; double *v; int failed;
  char apart[64];  /* the threads' streams lie side by side: no cache line holds two threads' fields */
} spf_stream;
static const int64_t spf_unit_strides[SPF_STREAM_ORDER] __attribute__((unused)) = {SPF_STREAM_COORDINATES(SPF_STREAM_ONE_)};
static int spf_stream_grow(spf_stream *s) {
  const int64_t capacity = s->capacity ? 2 * s->capacity : 4096;
  for (int k = 0; k < SPF_STREAM_ORDER; k++) {
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
static inline void SPF_CAT(spf_append_, SPF_STREAM_ORDER)(spf_stream *s SPF_STREAM_COORDINATES(SPF_STREAM_PARAMETER_),
                                                           double value) {
  if (s->n == s->capacity && !spf_stream_grow(s)) return;
  SPF_STREAM_COORDINATES(SPF_STREAM_STORE_)
  s->v[s->n++] = value;
}
static void spf_stream_forget(spf_stream *s) {
  for (int k = 0; k < SPF_STREAM_ORDER; k++) s->x[k] = 0;
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
  for (int k = 0; k < SPF_STREAM_ORDER; k++) {
    joined->x[k] = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
    if (!joined->x[k]) return 0;
  }
  joined->v = (double *)malloc((size_t)(total > 0 ? total : 1) * sizeof(double));
  if (!joined->v) return 0;
  int64_t at = 0;
  for (int t = 0; t < count; t++) {
    const int64_t n = streams[t].n;
    if (n == 0) continue;
    for (int k = 0; k < SPF_STREAM_ORDER; k++) memcpy(joined->x[k] + at, streams[t].x[k], (size_t)n * sizeof(int64_t));
    memcpy(joined->v + at, streams[t].v, (size_t)n * sizeof(double));
    at += n;
  }
  joined->n = joined->capacity = total;
  return 1;
}

static void spf_stream_release(spf_stream *s) {
  for (int k = 0; k < SPF_STREAM_ORDER; k++) free(s->x[k]);
  free(s->v);
  spf_stream_forget(s);
}

#undef SPF_STREAM_ONE_
#undef SPF_STREAM_PARAMETER_
#undef SPF_STREAM_STORE_
#pragma GCC diagnostic pop
#endif
