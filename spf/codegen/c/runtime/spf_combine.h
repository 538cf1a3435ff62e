/* spf's run-time C: how the values of an assembled output's entries at one position combine
   (in a workspace, a row's last key, a builder's duplicates).  Under (+, *) they add; a
   kernel under another semiring (spf.notation.semirings) defines, before it includes any
   assembly file, SPF_COMBINE(a, b) as its monoid on doubles (spf_min_float64, ...), the type
   every entry's value has on its way to the builder.  Then a position's first value is
   taken as it is, not combined with a zero (0 is no identity of min, max or land), and no
   entry is dropped for being zero: GraphBLAS's entries are where the products are.
   Fixed C, included through spf_stream.h and spf_builder.h. */
#ifndef SPF_COMBINE_H
#define SPF_COMBINE_H

#ifndef SPF_COMBINE
#define SPF_COMBINE(a, b) ((a) + (b))
#define SPF_COMBINE_PLUS 1
#else
#define SPF_COMBINE_PLUS 0
#endif

#endif
