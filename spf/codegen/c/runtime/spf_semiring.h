/* spf's run-time C: the monoids and operators of a semiring (spf.notation.semirings) over
   double values, as a kernel compiled with semiring= calls them; + - * print as C's own.
   Min and max follow C's fmin/fmax (and GraphBLAS): a NaN operand gives the other, without
   a call into libm.  Logical ones take a value's truth (nonzero) and give 1.0 or 0.0.  Fixed
   C, included through spf_base.h. */
#ifndef SPF_SEMIRING_H
#define SPF_SEMIRING_H

#include <math.h>

static inline double spf_min_value(double a, double b) { return (b < a || a != a) ? b : a; }
static inline double spf_max_value(double a, double b) { return (b > a || a != a) ? b : a; }
static inline double spf_lor_value(double a, double b) { return (a != 0.0 || b != 0.0) ? 1.0 : 0.0; }
static inline double spf_land_value(double a, double b) { return (a != 0.0 && b != 0.0) ? 1.0 : 0.0; }
/* any: one of the values, the first that is not 0, so that 0 is an identity (a register or a
   dense output starts at 0 and a reduction that adds no value leaves it as it was) */
static inline double spf_any_value(double a, double b) { return a != 0.0 ? a : b; }
static inline double spf_first_value(double a, double b) { (void)b; return a; }
static inline double spf_second_value(double a, double b) { (void)a; return b; }
static inline double spf_pair_value(double a, double b) { (void)a; (void)b; return 1.0; }

#ifdef _OPENMP
/* a scalar output's OpenMP reduction under any (min, max, +, ||, && are OpenMP's own) */
#pragma omp declare reduction(spf_any : double : omp_out = spf_any_value(omp_out, omp_in)) initializer(omp_priv = 0.0)
#endif

#endif
