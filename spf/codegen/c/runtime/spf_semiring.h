/* spf's run-time C: the monoids and operators of a semiring (spf.notation.semirings), one
   set per value type (spf.notation.value_types: spf_min_float64, spf_min_float32,
   spf_min_int64, ...), as a kernel compiled with semiring= calls them; + - * print as C's
   own.  Min and max follow C's fmin/fmax (and GraphBLAS): a NaN operand gives the other,
   without a call into libm.  Logical ones take a value's truth (nonzero) and give 1 or 0.
   Fixed C, included through spf_base.h. */
#ifndef SPF_SEMIRING_H
#define SPF_SEMIRING_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* any: one of the values, the first that is not 0, so that 0 is an identity (a register or a
   dense output starts at 0 and a reduction that adds no value leaves it as it was) */
#define SPF_SEMIRING_OPERATIONS(T, NAME)                                                               \
  static inline T spf_min_##NAME(T a, T b) { return (b < a || a != a) ? b : a; }                       \
  static inline T spf_max_##NAME(T a, T b) { return (b > a || a != a) ? b : a; }                       \
  static inline T spf_lor_##NAME(T a, T b) { return (T)((a != 0 || b != 0) ? 1 : 0); }                 \
  static inline T spf_land_##NAME(T a, T b) { return (T)((a != 0 && b != 0) ? 1 : 0); }                \
  static inline T spf_any_##NAME(T a, T b) { return a != 0 ? a : b; }                                  \
  static inline T spf_first_##NAME(T a, T b) { (void)b; return a; }                                    \
  static inline T spf_second_##NAME(T a, T b) { (void)a; return b; }                                   \
  static inline T spf_pair_##NAME(T a, T b) { (void)a; (void)b; return (T)1; }

SPF_SEMIRING_OPERATIONS(double, float64)
SPF_SEMIRING_OPERATIONS(float, float32)
SPF_SEMIRING_OPERATIONS(int64_t, int64)
SPF_SEMIRING_OPERATIONS(int32_t, int32)
SPF_SEMIRING_OPERATIONS(bool, bool)

/* complex values: the operations that need no order (min, max and the logical ones have no
   meaning for them; spf.codegen.passes.value_types refuses those semirings).  C99's _Complex
   keyword names the types; <complex.h> is not included, as its macro I would take a tensor
   named I from the kernel's parameters. */
#define SPF_COMPLEX_OPERATIONS(T, NAME)                                                                \
  static inline T spf_any_##NAME(T a, T b) { return a != 0 ? a : b; }                                  \
  static inline T spf_first_##NAME(T a, T b) { (void)b; return a; }                                    \
  static inline T spf_second_##NAME(T a, T b) { (void)a; return b; }                                   \
  static inline T spf_pair_##NAME(T a, T b) { (void)a; (void)b; return (T)1; }

SPF_COMPLEX_OPERATIONS(double _Complex, complex128)
SPF_COMPLEX_OPERATIONS(float _Complex, complex64)

#ifdef _OPENMP
/* a scalar output's OpenMP reduction under any, per value type (min, max, +, ||, && are OpenMP's own) */
#pragma omp declare reduction(spf_any : double : omp_out = spf_any_float64(omp_out, omp_in)) initializer(omp_priv = 0)
#pragma omp declare reduction(spf_any : float : omp_out = spf_any_float32(omp_out, omp_in)) initializer(omp_priv = 0)
#pragma omp declare reduction(spf_any : int64_t : omp_out = spf_any_int64(omp_out, omp_in)) initializer(omp_priv = 0)
#pragma omp declare reduction(spf_any : int32_t : omp_out = spf_any_int32(omp_out, omp_in)) initializer(omp_priv = 0)
#pragma omp declare reduction(spf_any : bool : omp_out = spf_any_bool(omp_out, omp_in)) initializer(omp_priv = 0)
#pragma omp declare reduction(spf_any : double _Complex : omp_out = spf_any_complex128(omp_out, omp_in)) initializer(omp_priv = 0)
#pragma omp declare reduction(spf_any : float _Complex : omp_out = spf_any_complex64(omp_out, omp_in)) initializer(omp_priv = 0)
#endif

#endif
