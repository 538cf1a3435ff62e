/* spf's run-time C: the monoids and operators of a semiring (spf.notation.semirings) over
   double values, as a kernel compiled with semiring= calls them; + - * print as C's own.
   Min and max follow C's fmin/fmax (and GraphBLAS): a NaN operand gives the other, without
   a call into libm.  Logical ones take a value's truth (nonzero) and give 1.0 or 0.0; any
   takes one of its operands (the latest).  Fixed C, included through spf_base.h. */
#ifndef SPF_SEMIRING_H
#define SPF_SEMIRING_H

#include <math.h>

static inline double spf_plus_value(double a, double b) { return a + b; }
static inline double spf_minus_value(double a, double b) { return a - b; }
static inline double spf_times_value(double a, double b) { return a * b; }
static inline double spf_min_value(double a, double b) { return (b < a || a != a) ? b : a; }
static inline double spf_max_value(double a, double b) { return (b > a || a != a) ? b : a; }
static inline double spf_lor_value(double a, double b) { return (a != 0.0 || b != 0.0) ? 1.0 : 0.0; }
static inline double spf_land_value(double a, double b) { return (a != 0.0 && b != 0.0) ? 1.0 : 0.0; }
static inline double spf_any_value(double a, double b) { (void)a; return b; }
static inline double spf_first_value(double a, double b) { (void)b; return a; }
static inline double spf_second_value(double a, double b) { (void)a; return b; }
static inline double spf_pair_value(double a, double b) { (void)a; (void)b; return 1.0; }

#endif
