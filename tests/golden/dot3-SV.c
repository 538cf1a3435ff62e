#include "spf_base.h"
#include "spf_pieces.h"
#include "spf_state.h"
#include "spf_hash.h"

#ifndef SPF_KERNEL_B3A431069B_H_STRUCTS
#define SPF_KERNEL_B3A431069B_H_STRUCTS

#include <stdint.h>

/*
 * ABI of the kernels declared below:
 *
 * - one struct per layout, with exactly the layout file's fields in its order:
 *   scalars by value (int, int64_t), arrays as pointers to their elements;
 * - a multi-dimensional array is one flat block in row-major order
 *   (a[i][j] of a [n][m] array is a[i*m + j]);
 * - arguments: the inputs in the order they first appear in the expression,
 *   then the output (a scalar output is a double *);
 * - the caller allocates and frees every array, the output's included; an
 *   output that shares an input's sparsity points at that input's index arrays;
 * - '=' overwrites the output (it is zeroed first), '+=' adds to it;
 * - kernels return 0 on success and a nonzero error code otherwise: 1 when
 *   the tensors' shapes disagree (nothing is written), 2 when a temporary
 *   (a find's table or positions, a per-thread copy of the output, a fused
 *   kernel's temporary, an assembled output's entries) cannot be allocated,
 *   3 when an entry of an assembled output cannot be stored in its layout;
 * - a library's entry point NAME first runs NAME_check on its arguments
 *   (it reads, never writes), which returns 4 for a NULL argument, 5 for
 *   inconsistent scalar fields, 1 for shapes that disagree and 6 for index
 *   arrays that break their layout's assumptions or properties (the
 *   variants spf_kernel_* do not: call NAME_check before them);
 * - an assembled output (a sparse output whose pattern the kernel computes)
 *   takes two more arguments and two more calls: see its kernel's comment;
 * - kernels do not keep any pointer after they return, and free none (an
 *   assembled output's handle is freed by NAME_fill or NAME_free);
 * - kept memory: each kernel keeps one set of find state (hash-map tables,
 *   positions kept per value; the largest a call has needed) and an assembled
 *   output's scratch (its workspace and rows, at most 64 MiB) for its next
 *   call, taken and given back atomically (a concurrent call makes its own);
 *   NAME_release_state() frees them;
 * - thread-safety: a kernel may be called concurrently on different outputs.
 */

#ifndef SPF_STRUCT_SV_2B89F281
#define SPF_STRUCT_SV_2B89F281
/*
 * SV: sparse vector with sorted indices
 */
struct spf_SV
{
  int n;
  int len;
  int *idx;
  double *val;
};
#endif /* SPF_STRUCT_SV_2B89F281 */


#endif /* SPF_KERNEL_B3A431069B_H_STRUCTS */


int spf_kernel_b3a431069b_v0(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a)
{
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t N_i = z_n;
  if (!((z_n == y_n) && (z_n == x_n)))
    return 1;
  double a_sum = 0.0;
  if ((((1 <= z_n) && (1 <= z_len)) && (1 <= y_len)) && (1 <= x_len))
  {
    int64_t py_position_1 = 0;
    int64_t pz_position_2 = 0;
    for (int64_t px = 0; px <= (x_len - 1); px++)
    {
      const int64_t x_idx_px_2 = x_idx[px];
      {
        const int64_t key_3 = x_idx_px_2;
        while (((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))) && (y_idx[py_position_1] < key_3))
          py_position_1++;

        if (!((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))))
          break;
        if (((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))) && (y_idx[py_position_1] == key_3))
        {
          const int64_t py = py_position_1;
          const int64_t y_idx_py_2 = x_idx_px_2;
          {
            const int64_t key_4 = x_idx_px_2;
            while (((pz_position_2 >= 0) && (pz_position_2 <= (z_len - 1))) && (z_idx[pz_position_2] < key_4))
              pz_position_2++;

            if (((pz_position_2 >= 0) && (pz_position_2 <= (z_len - 1))) && (z_idx[pz_position_2] == key_4))
            {
              const int64_t pz = pz_position_2;
              const int64_t z_idx_pz_2 = x_idx_px_2;
              a_sum += (x_val[px] * y_val[py]) * z_val[pz];
              pz_position_2++;
            }
          }
          py_position_1++;
        }
      }
    }

  }
  *a = a_sum;
  return 0;
}


static spf_state *spf_kernel_b3a431069b_v1_kept_state = 0;

static int spf_kernel_b3a431069b_v1_run(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a, spf_state *spf_kept)
{
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t N_i = z_n;
  if (!((z_n == y_n) && (z_n == x_n)))
    return 1;
  double a_sum = 0.0;
  if ((((1 <= z_n) && (1 <= z_len)) && (1 <= y_len)) && (1 <= x_len))
  {
    int64_t py_position_1 = 0;
    int64_t * const pz_table_2 = spf_hash_fill(&spf_kept[0], ((z_len - 1) - 0) + 1);
    for (int64_t fill_3 = 0; fill_3 <= (z_len - 1); fill_3++)
      spf_hash_put(pz_table_2, z_idx[fill_3], fill_3);

    for (int64_t px = 0; px <= (x_len - 1); px++)
    {
      const int64_t x_idx_px_2 = x_idx[px];
      {
        const int64_t key_4 = x_idx_px_2;
        while (((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))) && (y_idx[py_position_1] < key_4))
          py_position_1++;

        if (!((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))))
          break;
        if (((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))) && (y_idx[py_position_1] == key_4))
        {
          const int64_t py = py_position_1;
          const int64_t y_idx_py_2 = x_idx_px_2;
          {
            const int64_t q_5 = spf_hash_get(pz_table_2, x_idx_px_2);
            if (q_5 >= 0)
            {
              const int64_t pz = q_5;
              const int64_t z_idx_pz_2 = x_idx_px_2;
              a_sum += (x_val[px] * y_val[py]) * z_val[pz];
            }
          }
          py_position_1++;
        }
      }
    }

  }
  *a = a_sum;
  return 0;
}


int spf_kernel_b3a431069b_v1(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_b3a431069b_v1_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_b3a431069b_v1_run(x, y, z, a, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_b3a431069b_v1_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_b3a431069b_v2_kept_state = 0;

static int spf_kernel_b3a431069b_v2_run(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a, spf_state *spf_kept)
{
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t N_i = z_n;
  if (!((z_n == y_n) && (z_n == x_n)))
    return 1;
  double a_sum = 0.0;
  if ((((1 <= z_n) && (1 <= z_len)) && (1 <= y_len)) && (1 <= x_len))
  {
    int64_t py_position_1 = 0;
    int64_t * const pz_table_3 = spf_bitmap_fill(&spf_kept[0], z_n);
    for (int64_t fill_4 = 0; fill_4 <= (z_len - 1); fill_4++)
      spf_bitmap_put(pz_table_3, z_idx[fill_4], fill_4);

    const spf_bitmap pz_bitmap_2 = spf_bitmap_view(pz_table_3);
    for (int64_t px = 0; px <= (x_len - 1); px++)
    {
      const int64_t x_idx_px_2 = x_idx[px];
      {
        const int64_t key_5 = x_idx_px_2;
        while (((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))) && (y_idx[py_position_1] < key_5))
          py_position_1++;

        if (!((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))))
          break;
        if (((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))) && (y_idx[py_position_1] == key_5))
        {
          const int64_t py = py_position_1;
          const int64_t y_idx_py_2 = x_idx_px_2;
          {
            const int64_t q_6 = spf_bitmap_get(pz_bitmap_2, x_idx_px_2);
            if (q_6 >= 0)
            {
              const int64_t pz = q_6;
              const int64_t z_idx_pz_2 = x_idx_px_2;
              a_sum += (x_val[px] * y_val[py]) * z_val[pz];
            }
          }
          py_position_1++;
        }
      }
    }

  }
  *a = a_sum;
  return 0;
}


int spf_kernel_b3a431069b_v2(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_b3a431069b_v2_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_b3a431069b_v2_run(x, y, z, a, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_b3a431069b_v2_kept_state, spf_kept, 1);
  return spf_result;
}

int spf_kernel_b3a431069b_v3(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a)
{
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t N_i = z_n;
  if (!((z_n == y_n) && (z_n == x_n)))
    return 1;
  double a_sum = 0.0;
  if ((((1 <= z_n) && (1 <= z_len)) && (1 <= y_len)) && (1 <= x_len))
  {
    int64_t py_position_1 = 0;
    for (int64_t px = 0; px <= (x_len - 1); px++)
    {
      const int64_t x_idx_px_2 = x_idx[px];
      {
        const int64_t key_2 = x_idx_px_2;
        while (((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))) && (y_idx[py_position_1] < key_2))
          py_position_1++;

        if (!((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))))
          break;
        if (((py_position_1 >= 0) && (py_position_1 <= (y_len - 1))) && (y_idx[py_position_1] == key_2))
        {
          const int64_t py = py_position_1;
          const int64_t y_idx_py_2 = x_idx_px_2;
          {
            const int64_t key_5 = x_idx_px_2;
            int64_t lo_3 = 0;
            const int64_t end_7 = (z_len - 1) + 1;
            int64_t hi_4 = end_7;
            while (lo_3 < hi_4)
            {
              const int64_t mid_6 = lo_3 + ((hi_4 - lo_3) / 2);
              if (z_idx[mid_6] < key_5)
                lo_3 = mid_6 + 1;
              else
                hi_4 = mid_6;
            }

            if ((lo_3 < end_7) && (z_idx[lo_3] == key_5))
            {
              const int64_t pz = lo_3;
              const int64_t z_idx_pz_2 = x_idx_px_2;
              a_sum += (x_val[px] * y_val[py]) * z_val[pz];
            }
          }
          py_position_1++;
        }
      }
    }

  }
  *a = a_sum;
  return 0;
}


static spf_state *spf_kernel_b3a431069b_v4_kept_state = 0;

static int spf_kernel_b3a431069b_v4_run(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a, spf_state *spf_kept)
{
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t N_i = z_n;
  if (!((z_n == y_n) && (z_n == x_n)))
    return 1;
  double a_sum = 0.0;
  if ((((1 <= z_n) && (1 <= z_len)) && (1 <= y_len)) && (1 <= x_len))
  {
    int64_t * const py_table_1 = spf_hash_fill(&spf_kept[0], ((y_len - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (y_len - 1); fill_2++)
      spf_hash_put(py_table_1, y_idx[fill_2], fill_2);

    int64_t pz_position_3 = 0;
    for (int64_t px = 0; px <= (x_len - 1); px++)
    {
      const int64_t x_idx_px_2 = x_idx[px];
      {
        const int64_t q_4 = spf_hash_get(py_table_1, x_idx_px_2);
        if (q_4 >= 0)
        {
          const int64_t py = q_4;
          const int64_t y_idx_py_2 = x_idx_px_2;
          {
            const int64_t key_5 = x_idx_px_2;
            while (((pz_position_3 >= 0) && (pz_position_3 <= (z_len - 1))) && (z_idx[pz_position_3] < key_5))
              pz_position_3++;

            if (((pz_position_3 >= 0) && (pz_position_3 <= (z_len - 1))) && (z_idx[pz_position_3] == key_5))
            {
              const int64_t pz = pz_position_3;
              const int64_t z_idx_pz_2 = x_idx_px_2;
              a_sum += (x_val[px] * y_val[py]) * z_val[pz];
              pz_position_3++;
            }
          }
        }
      }
    }

  }
  *a = a_sum;
  return 0;
}


int spf_kernel_b3a431069b_v4(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_b3a431069b_v4_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_b3a431069b_v4_run(x, y, z, a, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_b3a431069b_v4_kept_state, spf_kept, 1);
  return spf_result;
}

static spf_state *spf_kernel_b3a431069b_v5_kept_state = 0;

static int spf_kernel_b3a431069b_v5_run(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a, spf_state *spf_kept)
{
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t N_i = z_n;
  if (!((z_n == y_n) && (z_n == x_n)))
    return 1;
  double a_sum = 0.0;
  if ((((1 <= z_n) && (1 <= z_len)) && (1 <= y_len)) && (1 <= x_len))
  {
    int64_t * const py_table_1 = spf_hash_fill(&spf_kept[0], ((y_len - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (y_len - 1); fill_2++)
      spf_hash_put(py_table_1, y_idx[fill_2], fill_2);

    int64_t * const pz_table_3 = spf_hash_fill(&spf_kept[1], ((z_len - 1) - 0) + 1);
    for (int64_t fill_4 = 0; fill_4 <= (z_len - 1); fill_4++)
      spf_hash_put(pz_table_3, z_idx[fill_4], fill_4);

    for (int64_t px = 0; px <= (x_len - 1); px++)
    {
      const int64_t x_idx_px_2 = x_idx[px];
      {
        const int64_t q_5 = spf_hash_get(py_table_1, x_idx_px_2);
        if (q_5 >= 0)
        {
          const int64_t py = q_5;
          const int64_t y_idx_py_2 = x_idx_px_2;
          {
            const int64_t q_6 = spf_hash_get(pz_table_3, x_idx_px_2);
            if (q_6 >= 0)
            {
              const int64_t pz = q_6;
              const int64_t z_idx_pz_2 = x_idx_px_2;
              a_sum += (x_val[px] * y_val[py]) * z_val[pz];
            }
          }
        }
      }
    }

  }
  *a = a_sum;
  return 0;
}


int spf_kernel_b3a431069b_v5(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_b3a431069b_v5_kept_state, 2);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_b3a431069b_v5_run(x, y, z, a, spf_kept);
  if (spf_state_failed(spf_kept, 2) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_b3a431069b_v5_kept_state, spf_kept, 2);
  return spf_result;
}

static spf_state *spf_kernel_b3a431069b_v6_kept_state = 0;

static int spf_kernel_b3a431069b_v6_run(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a, spf_state *spf_kept)
{
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t N_i = z_n;
  if (!((z_n == y_n) && (z_n == x_n)))
    return 1;
  double a_sum = 0.0;
  if ((((1 <= z_n) && (1 <= z_len)) && (1 <= y_len)) && (1 <= x_len))
  {
    int64_t * const py_table_1 = spf_hash_fill(&spf_kept[0], ((y_len - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (y_len - 1); fill_2++)
      spf_hash_put(py_table_1, y_idx[fill_2], fill_2);

    int64_t * const pz_table_4 = spf_bitmap_fill(&spf_kept[1], z_n);
    for (int64_t fill_5 = 0; fill_5 <= (z_len - 1); fill_5++)
      spf_bitmap_put(pz_table_4, z_idx[fill_5], fill_5);

    const spf_bitmap pz_bitmap_3 = spf_bitmap_view(pz_table_4);
    for (int64_t px = 0; px <= (x_len - 1); px++)
    {
      const int64_t x_idx_px_2 = x_idx[px];
      {
        const int64_t q_6 = spf_hash_get(py_table_1, x_idx_px_2);
        if (q_6 >= 0)
        {
          const int64_t py = q_6;
          const int64_t y_idx_py_2 = x_idx_px_2;
          {
            const int64_t q_7 = spf_bitmap_get(pz_bitmap_3, x_idx_px_2);
            if (q_7 >= 0)
            {
              const int64_t pz = q_7;
              const int64_t z_idx_pz_2 = x_idx_px_2;
              a_sum += (x_val[px] * y_val[py]) * z_val[pz];
            }
          }
        }
      }
    }

  }
  *a = a_sum;
  return 0;
}


int spf_kernel_b3a431069b_v6(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_b3a431069b_v6_kept_state, 2);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_b3a431069b_v6_run(x, y, z, a, spf_kept);
  if (spf_state_failed(spf_kept, 2) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_b3a431069b_v6_kept_state, spf_kept, 2);
  return spf_result;
}

static spf_state *spf_kernel_b3a431069b_v7_kept_state = 0;

static int spf_kernel_b3a431069b_v7_run(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a, spf_state *spf_kept)
{
  const int64_t x_n = x->n;
  const int64_t x_len = x->len;
  int * restrict x_idx = x->idx;
  double * restrict x_val = x->val;
  const int64_t y_n = y->n;
  const int64_t y_len = y->len;
  int * restrict y_idx = y->idx;
  double * restrict y_val = y->val;
  const int64_t z_n = z->n;
  const int64_t z_len = z->len;
  int * restrict z_idx = z->idx;
  double * restrict z_val = z->val;
  const int64_t N_i = z_n;
  if (!((z_n == y_n) && (z_n == x_n)))
    return 1;
  double a_sum = 0.0;
  if ((((1 <= z_n) && (1 <= z_len)) && (1 <= y_len)) && (1 <= x_len))
  {
    int64_t * const py_table_1 = spf_hash_fill(&spf_kept[0], ((y_len - 1) - 0) + 1);
    for (int64_t fill_2 = 0; fill_2 <= (y_len - 1); fill_2++)
      spf_hash_put(py_table_1, y_idx[fill_2], fill_2);

    for (int64_t px = 0; px <= (x_len - 1); px++)
    {
      const int64_t x_idx_px_2 = x_idx[px];
      {
        const int64_t q_3 = spf_hash_get(py_table_1, x_idx_px_2);
        if (q_3 >= 0)
        {
          const int64_t py = q_3;
          const int64_t y_idx_py_2 = x_idx_px_2;
          {
            const int64_t key_6 = x_idx_px_2;
            int64_t lo_4 = 0;
            const int64_t end_8 = (z_len - 1) + 1;
            int64_t hi_5 = end_8;
            while (lo_4 < hi_5)
            {
              const int64_t mid_7 = lo_4 + ((hi_5 - lo_4) / 2);
              if (z_idx[mid_7] < key_6)
                lo_4 = mid_7 + 1;
              else
                hi_5 = mid_7;
            }

            if ((lo_4 < end_8) && (z_idx[lo_4] == key_6))
            {
              const int64_t pz = lo_4;
              const int64_t z_idx_pz_2 = x_idx_px_2;
              a_sum += (x_val[px] * y_val[py]) * z_val[pz];
            }
          }
        }
      }
    }

  }
  *a = a_sum;
  return 0;
}


int spf_kernel_b3a431069b_v7(struct spf_SV *x, struct spf_SV *y, struct spf_SV *z, double *a)
{
  spf_state *const spf_kept = spf_state_take(&spf_kernel_b3a431069b_v7_kept_state, 1);
  if (!spf_kept) return 2;
  int spf_result = spf_kernel_b3a431069b_v7_run(x, y, z, a, spf_kept);
  if (spf_state_failed(spf_kept, 1) && spf_result == 0) spf_result = 2;
  spf_state_put(&spf_kernel_b3a431069b_v7_kept_state, spf_kept, 1);
  return spf_result;
}

void spf_kernel_b3a431069b_release_state(void)
{
  spf_state_release(&spf_kernel_b3a431069b_v1_kept_state, 1);
  spf_state_release(&spf_kernel_b3a431069b_v2_kept_state, 1);
  spf_state_release(&spf_kernel_b3a431069b_v4_kept_state, 1);
  spf_state_release(&spf_kernel_b3a431069b_v5_kept_state, 2);
  spf_state_release(&spf_kernel_b3a431069b_v6_kept_state, 2);
  spf_state_release(&spf_kernel_b3a431069b_v7_kept_state, 1);
}
