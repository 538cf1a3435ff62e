/* A small program over spf's run-time C alone (spf/codegen/c/runtime), with representative
   parameters: the piece scheduler, the find state and hash map, a stream's append and
   join, a workspace's add and flush (each way of ordering a group), rows with their
   cursor and hand-over, and a builder's fixed part (with its generated part written by
   hand below).  Each part prints "ok NAME"; a failed check prints where and exits 1.
   tests/codegen/c/test_runtime_c.py compiles it with -Wall -Wextra -Werror and runs it under
   AddressSanitizer and UndefinedBehaviorSanitizer. */
#include <stdio.h>

#include "spf_hash.h"
#include "spf_pieces.h"

#define SPF_STREAM_ORDER 2
#define SPF_STREAM_COORDINATES(X) X(0) X(1)
#include "spf_stream.h"

#define SPF_WORKSPACE_FORWARD 1
#define SPF_WORKSPACE_COORDINATES(OTHER, KEY) OTHER(0, 0) KEY(1)
#include "spf_workspace.h"

#define CHECK(condition)                                                    \
  do {                                                                      \
    if (!(condition)) {                                                     \
      printf("failed at line %d: %s\n", __LINE__, #condition);              \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

/* ---------------------------------------------------------------- the rows' builder, a stub */

struct rows_output { int64_t rows; };
static int64_t adopted_entries = -1, adopted_groups = -1, begun_entries = -1;

static void *stub_adopt_rows(struct rows_output *T, int64_t n, int32_t *keys, double *values, int64_t groups,
                             int64_t *outer, int64_t *end, int64_t *report, int trusted) {
  (void)T; (void)report; (void)trusted;
  for (int64_t g = 0; g < groups; g++) CHECK(outer[g] == g && end[g] == 2 * (g + 1));
  for (int64_t e = 0; e < n; e++) CHECK(keys[e] == (int32_t)(e % 2 ? 7 : 3) && values[e] == 1.0 + (double)e);
  adopted_entries = n; adopted_groups = groups;
  free(keys); free(values); free(outer); free(end);
  return &adopted_entries;
}

static void *stub_begin(struct rows_output *T, int64_t n, const int64_t *const *x, const int64_t *stride,
                        const double *v, int64_t *report, int owns_input, int drop_zeros) {
  (void)T; (void)stride; (void)report; (void)drop_zeros;
  CHECK(owns_input);
  begun_entries = n;
  free((void *)x[0]); free((void *)x[1]); free((void *)v);
  return &begun_entries;
}

#define SPF_ROWS_POSITION 1
#define SPF_ROWS_KEY int32_t
#define SPF_ROWS_OUTPUT struct rows_output
#define SPF_ROWS_ADOPT stub_adopt_rows
#define SPF_ROWS_BEGIN stub_begin
#define SPF_ROWS_FIRST_BAD 3
#define SPF_ROWS_STATISTICS 9
#define SPF_ROWS_OUT_OF_MEMORY 2
#define SPF_ROWS_UNSTORABLE 3
#include "spf_rows.h"

/* ---------------------------------------------------------------- a builder of CSR-like rows */

struct matrix { int64_t rows, cols, nnz; };

#define SPF_BUILDER tb
#define SPF_BUILDER_OUTPUT struct matrix
#define SPF_BUILDER_COORDINATE int64_t
#define SPF_BUILDER_ORDER 2
#define SPF_BUILDER_KEYS 2
#define SPF_BUILDER_ROW_KEY int32_t
#define SPF_BUILDER_ROW_POINTER int32_t
#define SPF_BUILDER_REPORT 9
#define SPF_BUILDER_DUPLICATES 1
#define SPF_BUILDER_FIRST_DUPLICATE 2
#define SPF_BUILDER_FIRST_BAD 3
#define SPF_BUILDER_BAD_CHECK 4
#define SPF_BUILDER_DUPLICATE_AT 7
#define SPF_BUILDER_ROWS 1
#define SPF_BUILDER_OUTER 0
#define SPF_BUILDER_INNER 1
#include "spf_builder.h"

/* a second builder in the same source (the X-macro idiom): general entries, no rows */
#define SPF_BUILDER tb_coo
#define SPF_BUILDER_OUTPUT struct matrix
#define SPF_BUILDER_COORDINATE int32_t
#define SPF_BUILDER_ORDER 2
#define SPF_BUILDER_KEYS 2
#define SPF_BUILDER_ROW_KEY int64_t
#define SPF_BUILDER_ROW_POINTER int64_t
#define SPF_BUILDER_REPORT 9
#define SPF_BUILDER_DUPLICATES 1
#define SPF_BUILDER_FIRST_DUPLICATE 2
#define SPF_BUILDER_FIRST_BAD 3
#define SPF_BUILDER_BAD_CHECK 4
#define SPF_BUILDER_DUPLICATE_AT 7
#define SPF_BUILDER_ROWS 0
#include "spf_builder.h"

/* the generated part of both, by hand: keys (row, column), a row's keys strictly increasing */
static inline int tb_compare(const tb_handle *h, int64_t a, int64_t b, int from) {
  for (int k = from; k < 2; k++) {
    const int64_t u = h->key[k][a * h->key_stride[k]], w = h->key[k][b * h->key_stride[k]];
    if (u != w) return u < w ? -1 : 1;
  }
  return 0;
}

static inline int tb_coo_compare(const tb_coo_handle *h, int64_t a, int64_t b, int from) {
  for (int k = from; k < 2; k++) {
    const int64_t u = h->key[k][a * h->key_stride[k]], w = h->key[k][b * h->key_stride[k]];
    if (u != w) return u < w ? -1 : 1;
  }
  return 0;
}

static int tb_check_rows(tb_handle *h, struct matrix *T, int64_t *report, int *ordered) {
  int64_t begin = 0, descents = 0;
  for (int64_t g = 0; g < (h->row_pointer ? h->row_count : h->groups); g++) {
    const int64_t end = h->row_pointer ? h->row_pointer[g + 1] : h->group_end[g];
    for (int64_t e = begin; e < end; e++) {
      if (h->row_keys[e] < 0 || h->row_keys[e] >= T->cols) { report[3] = e; return 0; }
      descents += e > begin && h->row_keys[e - 1] >= h->row_keys[e];
    }
    begin = end;
  }
  if (ordered) *ordered = descents == 0;
  report[0] = h->n;
  T->nnz = report[0];
  return 1;
}

static int64_t tb_rows_extent(struct matrix *T) { return T->rows; }

static void tb_counts(struct matrix *T, int64_t *report) { T->nnz = report[0]; }

/* ---------------------------------------------------------------- the parts */

static void pieces(void) {
  enum { TEAM = 4, PIECES = 16 };
  for (int present = 1; present <= TEAM; present++) {
    spf_run runs[TEAM];
    int taken[PIECES] = {0};
    spf_runs_init(runs, TEAM, PIECES);
#ifdef _OPENMP
#pragma omp parallel num_threads(present)
#endif
    {
      int stream, piece;
      while ((piece = spf_piece_take(runs, TEAM, spf_team_size(), spf_thread(), PIECES, &stream)) >= 0) {
        CHECK(piece < PIECES && stream >= 0 && stream <= piece);
        __atomic_fetch_add(&taken[piece], 1, __ATOMIC_RELAXED);
      }
    }
    for (int p = 0; p < PIECES; p++) CHECK(taken[p] == 1);
  }
  CHECK(spf_pieces_for(1, 1 << 30) == 1);
  CHECK(spf_pieces_for(4, 1) == 4 && spf_pieces_for(4, (int64_t)1 << 40) == 16);
  CHECK(spf_most_pieces(32) == SPF_MOST_PIECES);
  CHECK(spf_team_for(0) == 1);
  puts("ok pieces");
}

static void hash(void) {
  static spf_state *kept = 0;
  spf_state *states = spf_state_take(&kept, 2);
  CHECK(states);
  for (int round = 0; round < 3; round++) {
    const int64_t entries = round == 1 ? 1000 : 100;
    int64_t *table = spf_hash_fill(&states[0], entries);
    for (int64_t p = 0; p < entries; p++) spf_hash_put(table, 3 * p + round, p);
    for (int64_t p = 0; p < entries; p++) CHECK(spf_hash_get(table, 3 * p + round) == p);
    CHECK(spf_hash_get(table, 3 * entries + round) == -1);
    if (round) CHECK(spf_hash_get(table, round - 1) == -1);  /* the last fill's entries are gone */
  }
  int64_t *positions = spf_state_array(&states[1], 50);
  for (int64_t k = 0; k < 50; k++) CHECK(positions[k] == 0);
  CHECK(spf_state_threads(&states[1], 3) && states[1].thread_count == 3);
  CHECK(!spf_state_failed(states, 2));
  spf_state_put(&kept, states, 2);
  CHECK(spf_state_take(&kept, 2) == states);  /* kept between calls */
  spf_state_put(&kept, states, 2);
  spf_state_release(&kept, 2);
  CHECK(kept == 0);
  puts("ok hash");
}

static void stream(void) {
  spf_stream streams[3];
  memset(streams, 0, sizeof streams);
  int64_t n = 0;
  for (int t = 0; t < 3; t++)
    for (int64_t e = 0; e < 3000 * t; e++, n++) spf_append_2(&streams[t], n, -n, 0.5 * (double)n);
  spf_stream joined;
  memset(&joined, 0, sizeof joined);
  CHECK(spf_streams_join(streams, 3, &joined) && joined.n == n);
  for (int64_t e = 0; e < n; e++) CHECK(joined.x[0][e] == e && joined.x[1][e] == -e && joined.v[e] == 0.5 * (double)e);
  for (int t = 0; t < 3; t++) spf_stream_release(&streams[t]);
  spf_stream_release(&joined);
  puts("ok stream");
}

/* the sorting networks (SPF_SORT_FOUR, SPF_SORT_EIGHT), ascending and descending, on every
   arrangement of n distinct keys (n <= 8), the slots past n holding other keys */
static void networks(void) {
  for (int n = 1; n <= 8; n++) {
    int64_t a[8], order[8];
    for (int k = 0; k < 8; k++) order[k] = k;
    for (;;) {
      for (int k = 0; k < 8; k++) a[k] = k < n ? 10 * order[k] + 5 : -7 * k;  /* past n: not the group's */
      for (int descending = 0; descending <= 1; descending++) {
        int64_t got[8];
        if (n <= 4) {
          SPF_SORT_FOUR(a, n, descending, k0, k1, k2, k3)
          got[0] = k0; got[1] = k1; got[2] = k2; got[3] = k3;
        } else {
          SPF_SORT_EIGHT(a, n, descending, k0, k1, k2, k3, k4, k5, k6, k7)
          got[0] = k0; got[1] = k1; got[2] = k2; got[3] = k3; got[4] = k4; got[5] = k5; got[6] = k6; got[7] = k7;
        }
        for (int k = 0; k < n; k++) CHECK(got[k] == 10 * (descending ? n - 1 - k : k) + 5);
      }
      int i = n - 2;  /* the next arrangement of order[0..n) */
      while (i >= 0 && order[i] > order[i + 1]) i--;
      if (i < 0) break;
      int j = n - 1;
      while (order[j] < order[i]) j--;
      int64_t t = order[i]; order[i] = order[j]; order[j] = t;
      for (int l = i + 1, r = n - 1; l < r; l++, r--) { t = order[l]; order[l] = order[r]; order[r] = t; }
    }
  }
  puts("ok networks");
}

static void workspace(void) {
  spf_workspaces *set = spf_workspaces_take(1, 100000, 1, 1);
  CHECK(set);
  spf_workspace *w = &set->w[0];
  spf_stream s;
  memset(&s, 0, sizeof s);
  /* group 0: two ascending runs, a duplicate and a sum of zero (dropped) */
  const int64_t runs[] = {5, 9, 40, 2, 9, 41, 41};
  const double values[] = {1, 2, 3, 4, 5, 6, -6};
  for (int k = 0; k < 7; k++) spf_workspace_add_2(w, &s, 0, runs[k], values[k]);
  /* group 1: dense in its range (a bitmap); group 2: few and far apart (a rank sort) */
  for (int64_t c = 63; c >= 0; c--) spf_workspace_add_2(w, &s, 1, c, 1.0);
  for (int64_t k = 0; k < 20; k++) spf_workspace_add_2(w, &s, 2, (k * 7919) % 20 * 4000, 1.0);
  /* group 3: many and far apart (a radix sort) */
  for (int64_t k = 0; k < 500; k++) spf_workspace_add_2(w, &s, 3, (k * 7919) % 500 * 199, 1.0);
  /* past what registers rank: group 4 dense in three interleaved runs (marks), group 5 two
     ascending runs (a merge), group 6 in order */
  for (int64_t k = 0; k < 300; k++) spf_workspace_add_2(w, &s, 4, k % 3 * 100 + k / 3, 1.0);
  for (int64_t k = 0; k < 200; k++) spf_workspace_add_2(w, &s, 5, k < 100 ? 2 * k * 37 : (2 * (k - 100) + 1) * 37, 1.0);
  for (int64_t k = 0; k < 150; k++) spf_workspace_add_2(w, &s, 6, k * 600, 1.0);
  spf_workspace_flush_2(w, &s);
#ifdef SPF_RANK_BLOCKS  /* groups of up to 128 keys ranked in registers */
  CHECK(w->run_merges == 2 && w->dense_scans == 1 && w->comparison_sorts == 3 && w->radix_sorts == 1);
#else
  CHECK(w->run_merges == 3 && w->dense_scans == 2 && w->comparison_sorts == 1 && w->radix_sorts == 1);
#endif
  CHECK(s.n == 4 + 64 + 20 + 500 + 300 + 200 + 150);
  CHECK(s.x[1][0] == 2 && s.x[1][1] == 5 && s.x[1][2] == 9 && s.v[2] == 7.0 && s.x[1][3] == 40 && s.x[0][4] == 1);
  for (int64_t e = 1; e < s.n; e++)
    CHECK(s.x[0][e - 1] < s.x[0][e] || (s.x[0][e - 1] == s.x[0][e] && s.x[1][e - 1] < s.x[1][e]));
  spf_stream_release(&s);
  memset(&s, 0, sizeof s);
  spf_workspaces_put(set);
  spf_workspaces *again = spf_workspaces_take(1, 1000, 0, 1);  /* the kept set, wide enough */
  CHECK(again == set);
  for (int64_t c = 0; c < 1000; c++) CHECK(again->w[0].acc[c] == 0.0);
  spf_workspace_add_2(&again->w[0], &s, 0, 3, 1.0);  /* left unflushed: put zeroes it */
  spf_workspaces_put(again);
  spf_workspaces_release();
  puts("ok workspace");
}

static void rows(void) {
  struct rows_output T = {4};
  int64_t report[15] = {0};
  int status = -1;
  for (int ordered = 1; ordered >= 0; ordered--) {
    spf_scratch *scratch = spf_scratch_get(2, 1, 10, 1, 1);
    CHECK(scratch);
    spf_workspace *w = &scratch->workspaces[0];
    /* stream 0 by the workspace (rows 0 and 1), stream 1 by the cursor (rows 2 and 3, or
       0 and 1 again: then the groups are not in order); row r holds keys 3 and 7, with
       values 1 + 2r and 2 + 2r */
    spf_workspace_hand h = spf_workspace_hand_of(w);
    for (int64_t row = 0; row < 2; row++) {
      spf_workspace_hand_group_rows(&h, w, &scratch->rows[0], row);
      spf_workspace_hand_put(&h, 7, 2.0 + 2.0 * (double)row);
      spf_workspace_hand_put(&h, 3, 1.0 + 2.0 * (double)row);
    }
    spf_workspace_hand_keep(&h, w);
    spf_workspace_flush_rows(w, &scratch->rows[0]);
    spf_cursor k = spf_cursor_of(&scratch->rows[1]);
    for (int64_t row = 2; row < 4; row++) {
      spf_cursor_add(&k, &scratch->rows[1], ordered ? row : row - 2, 3, 1.0 + 2.0 * (double)row);
      spf_cursor_put(&k, &scratch->rows[1], 7, 1.0);
      spf_cursor_add_last(&k, 1.0 + 2.0 * (double)row);
    }
    spf_cursor_keep(&k, &scratch->rows[1]);
    spf_rows_close(&scratch->rows[1]);
    void *handle = spf_rows_hand_over(&T, scratch->rows, 2, scratch->workspaces, 1, report, 1, 0, &status);
    CHECK(status == 0);
    if (ordered) CHECK(handle == &adopted_entries && adopted_entries == 8 && adopted_groups == 4);
    else CHECK(handle == &begun_entries && begun_entries == 8);
    CHECK(report[9] == (ordered ? 4 : 0) && report[10] == (ordered ? 0 : 4));
    spf_scratch_put(scratch);
  }
  /* a group flushed into rows in key order (ranked in registers where the machine has
     AVX-512): 20 keys touched out of order, one of them twice, one summing to zero (dropped) */
  {
    spf_scratch *scratch = spf_scratch_get(1, 1, 1000, 1, 1);
    CHECK(scratch);
    spf_workspace *w = &scratch->workspaces[0];
    spf_rows *r = &scratch->rows[0];
    spf_workspace_hand h = spf_workspace_hand_of(w);
    spf_workspace_hand_group_rows(&h, w, r, 0);
    for (int64_t k = 0; k < 20; k++) spf_workspace_hand_put(&h, (k * 7) % 20 * 37, (double)(k + 1));
    spf_workspace_hand_put(&h, 3 * 37, 5.0);     /* key 111 (k = 9): 10 + 5 */
    spf_workspace_hand_put(&h, 14 * 37, -3.0);   /* key 518 (k = 2): 3 - 3, dropped */
    spf_workspace_hand_group_rows(&h, w, r, 1);  /* flushes row 0 */
    spf_workspace_hand_put(&h, 999, 1.0);
    /* row 2: 300 keys dense in their range, in three interleaved runs (past what registers
       rank: its marks are read straight into the rows), the sum at 150 cancelled */
    spf_workspace_hand_group_rows(&h, w, r, 2);  /* row 1's one key written here, not flushed by a call */
    for (int64_t k = 0; k < 300; k++) spf_workspace_hand_put(&h, 600 + k % 3 * 100 + k / 3, (double)(k % 3 + 1));
    spf_workspace_hand_put(&h, 750, -2.0);
    /* row 3: four keys out of order, one of them twice, the sum at 40 cancelled (the
       network in registers, written here); row 4: only a cancelled sum (no group) */
    spf_workspace_hand_group_rows(&h, w, r, 3);
    spf_workspace_hand_put(&h, 90, 4.0);
    spf_workspace_hand_put(&h, 40, 1.0);
    spf_workspace_hand_put(&h, 5, 2.0);
    spf_workspace_hand_put(&h, 40, -1.0);
    spf_workspace_hand_put(&h, 60, 3.0);
    spf_workspace_hand_group_rows(&h, w, r, 4);
    spf_workspace_hand_put(&h, 8, 1.0);
    spf_workspace_hand_put(&h, 8, -1.0);
    /* row 5: seven keys out of order, one twice, the sum at 41 cancelled (the network for eight) */
    spf_workspace_hand_group_rows(&h, w, r, 5);
    const int64_t seven[8] = {70, 20, 95, 3, 41, 20, 66, 12};
    for (int k = 0; k < 8; k++) spf_workspace_hand_put(&h, seven[k], (double)seven[k]);
    spf_workspace_hand_put(&h, 41, -41.0);
    spf_workspace_hand_group_rows(&h, w, r, 6);
    spf_workspace_hand_keep(&h, w);
    spf_workspace_flush_rows(w, r);
    CHECK(r->groups == 5 && r->n == 20 + 299 + 3 + 6 && r->end[0] == 19 && r->end[1] == 20 && r->outer[1] == 1 && r->key[19] == 999);
    CHECK(r->outer[3] == 3 && r->end[3] == 322 && r->key[319] == 5 && r->v[319] == 2.0 && r->key[320] == 60 &&
          r->v[320] == 3.0 && r->key[321] == 90 && r->v[321] == 4.0);
    const int64_t row5[6] = {3, 12, 20, 66, 70, 95};
    CHECK(r->outer[4] == 5 && r->end[4] == r->n);
    for (int k = 0; k < 6; k++) CHECK(r->key[322 + k] == row5[k] && r->v[322 + k] == (double)row5[k] * (row5[k] == 20 ? 2 : 1));
    for (int64_t e = 0; e < 19; e++) {
      const int64_t c = e < 14 ? e : e + 1, k = c * 3 % 20;  /* the key 37 c was put at step k: (7k) % 20 == c */
      CHECK(r->key[e] == c * 37 && r->v[e] == (double)(k + 1) + (c == 3 ? 5.0 : 0.0));
    }
    for (int64_t e = 20; e < 20 + 299; e++) {
      const int64_t c = 600 + (e - 20 < 150 ? e - 20 : e - 19);
      CHECK(r->key[e] == c && r->v[e] == (double)((c - 600) / 100 + 1));
    }
    for (int64_t c = 0; c < 1000; c++) CHECK(w->acc[c] == 0.0);
    r->n = 0; r->groups = 0;
    spf_scratch_put(scratch);
  }
  spf_scratch_release();
  puts("ok rows");
}

static void builder(void) {
  struct matrix T = {5, 10, 0};
  int64_t report[9] = {0};
  /* the general path: entries out of order put in storage order */
  {
    int64_t rows_[] = {3, 0, 3, 1, 0, 3}, cols_[] = {2, 9, 1, 4, 0, 1};
    double v[] = {1, 2, 3, 4, 5, 6};
    tb_handle *h = (tb_handle *)calloc(1, sizeof(tb_handle));
    CHECK(h);
    h->n = 6; h->v = v;
    h->x[0] = rows_; h->x[1] = cols_; h->stride[0] = h->stride[1] = 1;
    h->key[0] = rows_; h->key[1] = cols_; h->key_stride[0] = h->key_stride[1] = 1;
    CHECK(tb_order(h));
    for (int64_t t = 1; t < 6; t++) CHECK(tb_compare(h, t - 1, t, 0) <= 0);
    for (int64_t t = 0; t < 6; t++) CHECK(h->v[t] == v[h->origin[t]]);
    CHECK(h->origin[2] == 3 && h->origin[3] == 2 && h->origin[4] == 5);  /* stable */
    int64_t coordinates[2];
    tb_bad_entry(h, 3, coordinates);
    CHECK(coordinates[0] == 1 && coordinates[1] == 4);
    tb_free(h);
  }
  /* a bucket into rows: a duplicate summed, a sum of zero dropped */
  {
    int64_t rows_[] = {3, 0, 3, 1, 0, 3, 3}, cols_[] = {2, 9, 1, 4, 9, 1, 5};
    double v[] = {1, 2, 3, 4, -2, 6, 7};
    tb_handle *h = (tb_handle *)calloc(1, sizeof(tb_handle));
    CHECK(h);
    h->n = 7; h->v = v;
    h->x[0] = rows_; h->x[1] = cols_; h->stride[0] = h->stride[1] = 1;
    CHECK(tb_bucket(h, &T, report, 1));
    CHECK(h->groups == 2 && h->group_outer[0] == 1 && h->group_outer[1] == 3);
    CHECK(h->n == 4 && T.nnz == 4 && report[1] == 2);
    CHECK(h->row_keys[1] == 1 && h->row_values[1] == 9.0 && h->row_keys[3] == 5);
    tb_free(h);
  }
  /* a two-phase kernel's rows: one row out of order, sorted */
  {
    int32_t *pointer = (int32_t *)malloc(6 * sizeof(int32_t)), *keys = (int32_t *)malloc(5 * sizeof(int32_t));
    double *values = (double *)malloc(5 * sizeof(double));
    int64_t statistics[2];
    CHECK(pointer && keys && values);
    const int32_t p[] = {0, 3, 3, 5, 5, 5}, k[] = {2, 0, 1, 4, 6};
    for (int e = 0; e < 6; e++) pointer[e] = p[e];
    for (int e = 0; e < 5; e++) { keys[e] = k[e]; values[e] = 1.0 + (double)e; }
    tb_handle *h = (tb_handle *)tb_adopt_pointer(&T, keys, values, pointer, 5, report, 1, 0, statistics, 0);
    CHECK(h && statistics[0] == 1 && statistics[1] == 1 && h->n == 5);
    CHECK(h->row_keys[0] == 0 && h->row_keys[1] == 1 && h->row_keys[2] == 2 && h->row_values[0] == 2.0);
    tb_free(h);
  }
  /* rows adopted as they stand, and rows the layout cannot hold */
  for (int bad = 0; bad < 2; bad++) {
    int32_t *keys = (int32_t *)malloc(3 * sizeof(int32_t));
    double *values = (double *)malloc(3 * sizeof(double));
    int64_t *outer = (int64_t *)malloc(2 * sizeof(int64_t)), *end = (int64_t *)malloc(2 * sizeof(int64_t));
    CHECK(keys && values && outer && end);
    keys[0] = 1; keys[1] = 4; keys[2] = bad ? 10 : 2;
    values[0] = values[1] = values[2] = 1.0;
    outer[0] = 0; outer[1] = 2; end[0] = 2; end[1] = 3;
    tb_handle *h = (tb_handle *)tb_adopt_rows(&T, 3, keys, values, 2, outer, end, report, 0);
    CHECK(bad ? !h && report[3] == 2 : h && T.nnz == 3);
    tb_free(h);
  }
  /* the second builder's sort, over int32 coordinates */
  {
    int32_t rows_[] = {2, 1, 2}, cols_[] = {0, 5, 0};
    int64_t key0[] = {2, 1, 2}, key1[] = {0, 5, 0};
    double v[] = {1, 2, 3};
    tb_coo_handle *h = (tb_coo_handle *)calloc(1, sizeof(tb_coo_handle));
    CHECK(h);
    h->n = 3; h->v = v;
    h->x[0] = rows_; h->x[1] = cols_; h->stride[0] = h->stride[1] = 1;
    h->key[0] = key0; h->key[1] = key1; h->key_stride[0] = h->key_stride[1] = 1;
    CHECK(tb_coo_order(h) && h->origin[0] == 1 && h->origin[1] == 0 && h->origin[2] == 2);
    tb_coo_free(h);
  }
  puts("ok builder");
}

int main(void) {
  CHECK(spf_min(-3, 2) == -3 && spf_max(-3, 2) == 2);
  CHECK(spf_floord(-7, 2) == -4 && spf_ceild(-7, 2) == -3 && spf_floord(7, 2) == 3 && spf_ceild(7, 2) == 4);
  void *large = spf_malloc_large((size_t)8 << 20);
  CHECK(large);
  memset(large, 1, (size_t)8 << 20);
  free(large);
  puts("ok base");
  pieces();
  hash();
  stream();
  networks();
  workspace();
  rows();
  builder();
  return 0;
}
