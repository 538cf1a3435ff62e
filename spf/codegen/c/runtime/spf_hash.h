/* spf's run-time C: the tables of the HashMap and Bitmap finds, kept between calls in a
   find state.  Fixed C, included by the generated source. */
#ifndef SPF_HASH_H
#define SPF_HASH_H

#include "spf_state.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  /* a kernel calls some of these, not all */

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

/* A bitmap table (the Bitmap find): positions addressed by value, for values known to lie
   in [0, capacity), in one int64 array: [0] how many values the last fill put, [1] the
   capacity, then `capacity` positions (one per value), then `capacity` bytes of marks (a
   value is present when its byte is 1), then the touched list (the values the last fill
   put, while there are at most `capacity` of them).  Bytes, not bits: a probe is one load
   and no shift (benchmarks/spmv_spmspv.py: 1.5x faster SpMSpV).  A fill first clears what
   the last one set, each touched value's mark and position (or everything, after a fill
   that put more values than the list holds), so a fill costs what it puts, and every
   position of the table is 0 or a position the current fill put: a masked lookup
   (spf_bitmap_masked) may read the searched arrays there without a branch.  A longer range
   gets a new (zeroed) table. */
static int64_t spf_bitmap_none[8] = {0, 0};  /* empty, capacity 0: a table that could not grow */

/* the table's parts (t[1] its capacity): positions at t + 2, then the marks, then the touched list */
static inline unsigned char *spf_bitmap_marks(int64_t *t) { return (unsigned char *)(t + 2 + t[1]); }
static inline int64_t *spf_bitmap_touched(int64_t *t) { return t + 2 + t[1] + (t[1] >> 3) + 1; }

static int64_t *spf_bitmap_fill(spf_state *s, int64_t capacity) {
  if (capacity < 1) capacity = 1;
  int64_t *t = s->array;
  if (t && t[1] >= capacity) {
    const int64_t have = t[1];
    int64_t *const positions = t + 2;
    unsigned char *const marks = spf_bitmap_marks(t);
    const int64_t *const touched = spf_bitmap_touched(t);
    if (t[0] <= have) {
      for (int64_t k = 0; k < t[0]; k++) {
        marks[touched[k]] = 0;
        positions[touched[k]] = 0;
      }
    } else {
      memset(marks, 0, (size_t)have);
      memset(positions, 0, (size_t)have * sizeof(int64_t));
    }
    t[0] = 0;
    return t;
  }
  free(s->array);
  s->length = 2 + 2 * capacity + (capacity >> 3) + 1;
  s->array = t = (int64_t *)calloc((size_t)s->length, sizeof(int64_t));
  if (!t) { s->length = 0; s->failed = 1; return spf_bitmap_none; }
  spf_advise_huge(t, (size_t)s->length * sizeof(int64_t));
  t[1] = capacity;
  return t;
}

static inline void spf_bitmap_put(int64_t *t, int64_t value, int64_t position) {
  if ((uint64_t)value >= (uint64_t)t[1]) return;  /* only data breaking the layout's range property */
  if (t[0] < t[1]) spf_bitmap_touched(t)[t[0]] = value;
  t[0]++;
  spf_bitmap_marks(t)[value] = 1;
  t[2 + value] = position;
}

/* a filled table's parts, read once by the kernel where the fill ends; `masked`: the fill
   put some value (so position 0 is one of the searched arrays') and so many that a
   lookup's hit is too frequent to predict (spf_bitmap_masked) */
typedef struct spf_bitmap_ {
  uint64_t capacity;
  const unsigned char *marks;
  const int64_t *positions;
  int masked;
} spf_bitmap;

/* a share of the capacity from which a fill's lookups are masked: below it a hit is rare
   and its branch predicted (benchmarks/spmv_spmspv.py: SpMSpV on 4elt, bcsstk13,
   BlogCatalog3, EX5 at x densities .001-.5) */
#define SPF_BITMAP_MASKED_SHARE 32

static inline spf_bitmap spf_bitmap_view(const int64_t *t) {
  spf_bitmap view = {(uint64_t)t[1], spf_bitmap_marks((int64_t *)t), t + 2,
                     t[0] > 0 && t[0] * SPF_BITMAP_MASKED_SHARE >= t[1]};
  return view;
}

/* the position of `value`, or -1 */
static inline int64_t spf_bitmap_get(spf_bitmap table, int64_t value) {
  if ((uint64_t)value >= table.capacity || !table.marks[value]) return -1;
  return table.positions[value];
}

/* A masked lookup (where view.masked): the position of `value` if present, else 0 or
   another position the fill put, read without a branch; the term read there is added as
   spf_masked(term, spf_bitmap_hit(...)).  `value` lies in [0, capacity) by the layout's
   range property, which the kernels' reads of dense operands rely on alike (a library's
   NAME_check tests it): spf.codegen.passes.masked_lookup masks only a key that is a value
   of an index array, never arithmetic of loops (checked here, it cost SpMSpV 7-15%). */
static inline int64_t spf_bitmap_masked(spf_bitmap table, int64_t value) { return table.positions[value]; }

static inline uint64_t spf_bitmap_hit(spf_bitmap table, int64_t value) { return table.marks[value]; }

#pragma GCC diagnostic pop
#endif
