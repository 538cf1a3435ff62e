/* spf's run-time C: what every kernel and builder uses (the C library, OpenMP's thread
   queries, large arrays on huge pages, integer helpers).  Fixed C, shipped with spf and
   included by the generated source (spf.codegen.c.runtime). */
#ifndef SPF_BASE_H
#define SPF_BASE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* a name pasted from two parts, after their macros expand (spf_append_ and 2: spf_append_2) */
#define SPF_CAT_(a, b) a##b
#define SPF_CAT(a, b) SPF_CAT_(a, b)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  /* a kernel calls some of these, not all */

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

#include "spf_semiring.h"

static inline int64_t spf_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t spf_max(int64_t a, int64_t b) { return a > b ? a : b; }
/* floor and ceiling of a / b for b > 0 */
static inline int64_t spf_floord(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static inline int64_t spf_ceild(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

/* x where keep is 1, +0.0 where it is 0, without a branch (a random `keep` would mispredict
   one): a sum of masked terms is exactly the sum of the kept ones when it starts at +0.0,
   as s + +0.0 == s, whatever a masked term holds (inf, NaN).  A merge's term at a key that
   is not the least (spf_rows.h), a masked bitmap lookup's term (spf_hash.h). */
static inline double spf_masked(double x, uint64_t keep) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  bits &= (uint64_t)0 - keep;
  memcpy(&x, &bits, sizeof bits);
  return x;
}

#pragma GCC diagnostic pop
#endif
