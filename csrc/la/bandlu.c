/* bandlu.c -- banded LU with partial pivoting and its solve (bandlu.h): LAPACK's dgbtf2 and
 * dgbtrs ("N") written out, with the rank-one update as a loop over the columns that skips the
 * columns with a zero entry in the pivot row; and the same steps on a window of the band that
 * apply L to one right-hand side as they go and keep U only. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "la/bandlu.h"
#include "base/vm_axpy.h"

/* the row of the largest |entry| of c[0 .. km] (the first one on ties: LAPACK's idamax) */
static int
pivot_row (const double *c, int km)
{
  double amax = fabs (c[0]);
  int i, jp = 0;
  for (i = 1; i <= km; i++)
    if (fabs (c[i]) > amax)
      {
        amax = fabs (c[i]);
        jp = i;
      }
  return jp;
}

/* step j: A(j .. j+km, j) at cj[0 .. km]; the entries of row j right of the diagonal are
 * cj[c (ldab - 1)], c = 1 .. ju - j */
static void
eliminate (double *cj, int km, int ncol, int ld1, int jp)
{
  int c;
  if (jp != 0)
    for (c = 0; c <= ncol; c++)
      {
        double *a = cj + (size_t) c * (size_t) ld1, t = a[jp];
        a[jp] = a[0];
        a[0] = t;
      }
  if (km > 0)
    {
      const double r = 1.0 / cj[0];
      int i;
      for (i = 1; i <= km; i++)
        cj[i] *= r;
      for (c = 1; c <= ncol; c++)
        {
          double *a = cj + (size_t) c * (size_t) ld1;
          if (a[0] != 0.0)
            vm_axpy_neg (km, a[0], cj + 1, a + 1);
        }
    }
}

int
vm_band_lu (int n, int kl, int ku, double *ab, int ldab, int *ipiv)
{
  const int kv = kl + ku;
  int i, j, ju = 0, info = 0;
  if (n < 0 || kl < 0 || ku < 0 || ldab < 2 * kl + ku + 1 || (n > 0 && (! ab || ! ipiv)))
    return -1;
  for (j = ku + 1; j < kv && j < n; j++)   /* the fill rows that column j's update reaches */
    for (i = kv - j; i < kl; i++)
      ab[i + (size_t) j * (size_t) ldab] = 0.0;
  for (j = 0; j < n; j++)
    {
      double *cj = ab + (size_t) j * (size_t) ldab + kv;   /* A(j, j) */
      const int km = kl < n - 1 - j ? kl : n - 1 - j;
      int jp;
      if (j + kv < n)
        memset (ab + (size_t) (j + kv) * (size_t) ldab, 0, (size_t) kl * sizeof *ab);
      jp = pivot_row (cj, km);
      ipiv[j] = j + jp + 1;
      if (cj[jp] == 0.0)
        {
          if (info == 0)
            info = j + 1;
          continue;
        }
      if (j + ku + jp > ju)
        ju = j + ku + jp < n - 1 ? j + ku + jp : n - 1;
      eliminate (cj, km, ju - j, ldab - 1, jp);
    }
  return info;
}

void
vm_band_solve (int n, int kl, int ku, const double *ab, int ldab, const int *ipiv, double *b)
{
  const int kv = kl + ku;
  int j;
  for (j = 0; j < n - 1; j++)   /* b := L^{-1} P b */
    {
      const int km = kl < n - 1 - j ? kl : n - 1 - j, l = ipiv[j] - 1;
      const double t = b[l];
      if (l != j)
        {
          b[l] = b[j];
          b[j] = t;
        }
      if (t != 0.0)
        vm_axpy_neg (km, t, ab + (size_t) j * (size_t) ldab + kv + 1, b + j + 1);
    }
  for (j = n - 1; j >= 0; j--)  /* b := U^{-1} b, by columns (U has kv superdiagonals) */
    {
      const double *cj = ab + (size_t) j * (size_t) ldab + kv;
      const int lo = j - kv > 0 ? j - kv : 0;
      b[j] /= cj[0];
      if (b[j] != 0.0)
        vm_axpy_neg (j - lo, b[j], cj - (j - lo), b + lo);
    }
}

int
vm_band_lu_window (const vm_band_u *f, double *ab, int j0, int j1, int *ju)
{
  const int n = f ? f->n : -1, kl = f ? f->kl : 0, ku = f ? f->ku : 0, kv = kl + ku;
  const int ldab = f ? f->ldab : 0;
  double *b = f ? f->b : NULL, *u = f ? f->u : NULL;
  int64_t *up = f ? f->up : NULL;
  int j, info = 0;
  if (n < 0 || kl < 0 || ku < 0 || ldab < 2 * kl + ku + 1 || j0 < 0 || j1 > n || !ju
      || (j0 < j1 && (!ab || !b || !u || !up)))
    return -1;
  for (j = j0; j < j1; j++)
    {
      double *cj = ab + (size_t) (j - j0) * (size_t) ldab + kv;   /* A(j, j) */
      const int km = kl < n - 1 - j ? kl : n - 1 - j;
      const int jp = pivot_row (cj, km);
      double t;
      if (cj[jp] == 0.0)
        {
          if (info == 0)
            info = j + 1;
        }
      else
        {
          if (j + ku + jp > *ju)
            *ju = j + ku + jp < n - 1 ? j + ku + jp : n - 1;
          eliminate (cj, km, *ju - j, ldab - 1, jp);
        }
      /* vm_band_solve's forward step j, with the multipliers where it would read them */
      t = b[j + jp];
      if (jp != 0)
        {
          b[j + jp] = b[j];
          b[j] = t;
        }
      if (t != 0.0)
        vm_axpy_neg (km, t, cj + 1, b + j + 1);
      {
        /* U's column j from its first nonzero row on (rows of the matrix only) */
        int h = j < kv ? j : kv;
        while (h > 0 && cj[-h] == 0.0)
          h--;
        memcpy (u + up[j], cj - h, (size_t) (h + 1) * sizeof *u);
        up[j + 1] = up[j] + h + 1;
      }
    }
  return info;
}

void
vm_band_solve_u (int n, const double *u, const int64_t *up, double *b)
{
  int j;
  for (j = n - 1; j >= 0; j--)  /* vm_band_solve's second half on U's packed columns */
    {
      const double *cj = u + up[j + 1] - 1;   /* U(j, j) */
      const int h = (int) (up[j + 1] - up[j]) - 1;
      b[j] /= cj[0];
      if (b[j] != 0.0)
        vm_axpy_neg (h, b[j], cj - h, b + j - h);
    }
}
