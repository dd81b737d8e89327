/* sbp.c -- diagonal-norm SBP first-derivative operators: H, Q and D as CSC, matrix-free apply. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sbp/sbp.h"
#include "sbp/sbp_tables.h"
#include "base/vm_status.h"

/* The supported orders, ascending: the one list that every other place asks (through the
 * functions below).  Adding an order: its tables in sbp_tables.h and one row here. */
static const struct
{
  int order;
  int64_t min_n;      /* smallest admissible n */
  int nb, w;          /* boundary rows with a closure, interior half-width */
  const double *wb, *c, *qb;
} families[] = {
  { 2, 2, 1, 1, vm_sbp2_w, vm_sbp2_c, vm_sbp2_q },
  { 4, 8, 4, 2, vm_sbp4_w, vm_sbp4_c, vm_sbp4_q },
  { 6, 12, 6, 3, vm_sbp6_w, vm_sbp6_c, vm_sbp6_q },
  { 8, 16, 8, 4, vm_sbp8_w, vm_sbp8_c, vm_sbp8_q },
};

#define NFAMILIES ((int) (sizeof families / sizeof families[0]))

/* index of order in families, -1 if unsupported */
static int
family (int order)
{
  int k;
  for (k = 0; k < NFAMILIES; k++)
    if (families[k].order == order)
      return k;
  return -1;
}

int
vm_sbp_order_count (void)
{
  return NFAMILIES;
}

int
vm_sbp_order_at (int k)
{
  return k >= 0 && k < NFAMILIES ? families[k].order : -1;
}

int
vm_sbp_max_order (void)
{
  return families[NFAMILIES - 1].order;
}

int
vm_sbp_companion_order (int order)
{
  int k = family (order);
  if (k < 0 || NFAMILIES < 2)
    return -1;
  return k + 1 < NFAMILIES ? families[k + 1].order : families[k - 1].order;
}

size_t
vm_sbp_orders_text (char *buf, size_t nbuf)
{
  size_t len = 0;
  int k;
  for (k = 0; k < NFAMILIES; k++)
    {
      char item[16];
      int m = snprintf (item, sizeof item, "%s%d", k > 0 ? ", " : "", families[k].order);
      if (buf && len + (size_t) m < nbuf)
        memcpy (buf + len, item, (size_t) m + 1);
      len += (size_t) m;
    }
  if (buf && nbuf > 0 && len >= nbuf)
    buf[0] = '\0';
  return len;
}

int64_t
vm_sbp_min_n (int order)
{
  int k = family (order);
  return k < 0 ? -1 : families[k].min_n;
}

int
vm_sbp_init (vm_sbp *op, int order, int64_t n, double t0, double tf)
{
  int64_t nmin = vm_sbp_min_n (order);
  if (op == NULL)
    return VM_EARG;
  if (nmin < 0)
    return VM_EORDER;
  if (n < nmin)
    return VM_ESIZE;
  if (! isfinite (t0) || ! isfinite (tf) || ! (tf > t0))
    return VM_EINTERVAL;
  op->h = (tf - t0) / (double) (n - 1);
  if (! isfinite (op->h) || ! (op->h > 0.0))
    return VM_EINTERVAL;
  op->order = order;
  op->n = n;
  op->t0 = t0;
  op->tf = tf;
  {
    const int k = family (order);
    op->nb = families[k].nb;
    op->w = families[k].w;
    op->wb = families[k].wb;
    op->c = families[k].c;
    op->qb = families[k].qb;
  }
  op->bw = op->nb - 1 > op->w ? op->nb - 1 : op->w;
  {
    /* every entry of D is Q(i,j) / (h w_i): keep max|Q| / (h min w) finite */
    double wmin = 1.0, qmax = 0.0;
    int i;
    for (i = 0; i < op->nb; i++)
      if (op->wb[i] < wmin)
        wmin = op->wb[i];
    for (i = 0; i < op->nb * op->nb; i++)
      if (fabs (op->qb[i]) > qmax)
        qmax = fabs (op->qb[i]);
    for (i = 0; i < op->w; i++)
      if (fabs (op->c[i]) > qmax)
        qmax = fabs (op->c[i]);
    if (! isfinite (qmax / (op->h * wmin)))
      return VM_ESTEP;
  }
  return VM_OK;
}

double
vm_sbp_q (const vm_sbp *op, int64_t i, int64_t j)
{
  const int64_t n = op->n, nb = op->nb;
  int64_t d;
  if (i < nb && j < nb)
    return op->qb[i * nb + j];
  if (i >= n - nb && j >= n - nb)
    return -op->qb[(n - 1 - i) * nb + (n - 1 - j)];
  d = j - i;
  if (d > 0 && d <= op->w)
    return op->c[d - 1];
  if (d < 0 && -d <= op->w)
    return -op->c[-d - 1];
  return 0.0;
}

/* H weight of point i with h = 1. */
static double
weight (const vm_sbp *op, int64_t i)
{
  if (i < op->nb)
    return op->wb[i];
  if (i >= op->n - op->nb)
    return op->wb[op->n - 1 - i];
  return 1.0;
}

void
vm_sbp_weights (const vm_sbp *op, double *hdiag)
{
  int64_t i;
  for (i = 0; i < op->n; i++)
    hdiag[i] = op->h * weight (op, i);
}

/* Column j is "interior" when every row of its band is an interior row of Q:
 * then its nonzeros are exactly rows j-w..j+w without j. */
static int
interior_column (const vm_sbp *op, int64_t j)
{
  return j - op->bw >= op->nb && j + op->bw < op->n - op->nb;
}

int64_t
vm_sbp_nnz (const vm_sbp *op)
{
  int64_t j, i, nnz = 0;
  for (j = 0; j < op->n; j++)
    {
      if (interior_column (op, j))
        {
          /* all remaining columns up to the right boundary region are interior */
          int64_t jend = op->n - op->nb - op->bw;   /* first non-interior column on the right */
          nnz += (jend - j) * 2 * op->w;
          j = jend - 1;
          continue;
        }
      for (i = j - op->bw; i <= j + op->bw; i++)
        if (i >= 0 && i < op->n && vm_sbp_q (op, i, j) != 0.0)
          nnz++;
    }
  return nnz;
}

void
vm_sbp_csc (const vm_sbp *op, int want_d, int64_t *colptr, int64_t *rowind, double *val)
{
  const int64_t n = op->n;
  const int w = op->w;
  const double invh = 1.0 / op->h;
  int64_t i, j, k = 0;
  for (j = 0; j < n; j++)
    {
      colptr[j] = k;
      if (interior_column (op, j))
        {
          int d;
          /* rows j-w .. j-1: Q(i, j) = c[j-i-1];  rows j+1 .. j+w: Q(i, j) = -c[i-j-1] */
          for (d = w; d >= 1; d--)
            {
              rowind[k] = j - d;
              val[k++] = want_d ? op->c[d - 1] * invh : op->c[d - 1];
            }
          for (d = 1; d <= w; d++)
            {
              rowind[k] = j + d;
              val[k++] = want_d ? -op->c[d - 1] * invh : -op->c[d - 1];
            }
          continue;
        }
      for (i = j - op->bw; i <= j + op->bw; i++)
        {
          double q;
          if (i < 0 || i >= n)
            continue;
          q = vm_sbp_q (op, i, j);
          if (q == 0.0)
            continue;
          rowind[k] = i;
          val[k++] = want_d ? q / (op->h * weight (op, i)) : q;
        }
    }
  colptr[n] = k;
}

/* sum_j Q(i, j) s_j x_j over the band of row i, with s_j = 1/weight(j) when scaled. */
static double
row_dot (const vm_sbp *op, int64_t i, const double *x, int scaled)
{
  int64_t j, jlo = i - op->bw, jhi = i + op->bw;
  double s = 0.0;
  if (jlo < 0)
    jlo = 0;
  if (jhi > op->n - 1)
    jhi = op->n - 1;
  for (j = jlo; j <= jhi; j++)
    {
      double q = vm_sbp_q (op, i, j);
      if (q != 0.0)
        s += scaled ? q * x[j] / weight (op, j) : q * x[j];
    }
  return s;
}

void
vm_sbp_apply (const vm_sbp *op, int trans, int64_t ncol,
              const double *x, int64_t ldx, double *y, int64_t ldy)
{
  const int64_t n = op->n;
  const int w = op->w;
  const double *c = op->c;
  const double invh = 1.0 / op->h;
  /* rows [lo, hi) have a pure interior stencil whose neighbours all have weight 1 */
  const int64_t lo = op->nb + (trans ? w : 0), hi = n - op->nb - (trans ? w : 0);
  int64_t k, i;

  for (k = 0; k < ncol; k++)
    {
      const double *xk = x + k * ldx;
      double *yk = y + k * ldy;
      if (! trans)
        {
          /* (D x)_i = (Q x)_i / (h w_i) */
          for (i = 0; i < n && i < lo; i++)
            yk[i] = row_dot (op, i, xk, 0) * invh / weight (op, i);
          for (i = lo; i < hi; i++)
            {
              double s = 0.0;
              int d;
              for (d = 1; d <= w; d++)
                s += c[d - 1] * (xk[i + d] - xk[i - d]);
              yk[i] = s * invh;
            }
          for (i = (hi > lo ? hi : lo); i < n; i++)
            yk[i] = row_dot (op, i, xk, 0) * invh / weight (op, i);
        }
      else
        {
          /* D^T x = Q^T H^{-1} x = (B - Q) H^{-1} x */
          for (i = 0; i < n && i < lo; i++)
            yk[i] = -row_dot (op, i, xk, 1) * invh;
          for (i = lo; i < hi; i++)
            {
              double s = 0.0;
              int d;
              for (d = 1; d <= w; d++)
                s += c[d - 1] * (xk[i - d] - xk[i + d]);
              yk[i] = s * invh;
            }
          for (i = (hi > lo ? hi : lo); i < n; i++)
            yk[i] = -row_dot (op, i, xk, 1) * invh;
          yk[0] -= xk[0] / (op->h * weight (op, 0));
          yk[n - 1] += xk[n - 1] / (op->h * weight (op, n - 1));
        }
    }
}
