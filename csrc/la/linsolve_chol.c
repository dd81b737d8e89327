/* linsolve_chol.c -- the Cholesky path of the banded backend (linsolve_chol.h; option definite
 * of linsolve.h): a matrix that is symmetric up to a row scaling, diag (d) A, and expected
 * definite is factored as B = +-diag (d) A = L L' (bandchol.h) from its lower band, in its own
 * array of (kl + 1) n doubles; the caller falls back to the LU (whose band it allocates then) when
 * a pivot is not positive.  The singularity test is that of the equilibrated C = S B S (S the
 * diagonal that makes C's diagonal 1), whose factor is S L: its pivots L_jj^2 / B_jj.  B is
 * factored unscaled because the scales S would read A's diagonal before any fill, one cache line
 * per column at a position that the prefetcher does not foresee. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "la/bandchol.h"
#include "la/linsolve_chol.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

/* Option definite on the banded backend: kl = ku, the scales checked, the column scales */
int
vm_ls_chol_init (vm_linsolve *ls, const vm_linsolve_opts *o)
{
  int i;
  if (ls->bkl != ls->bku)
    {
      vm_ls_setmsg (ls, "option definite needs a symmetric band: kl = %d, ku = %d", ls->bkl, ls->bku);
      return VM_EARG;
    }
  if (o->definite_scale)
    for (i = 0; i < ls->n; i++)
      if (! (o->definite_scale[i] > 0.0) || ! (o->definite_scale[i] <= DBL_MAX))
        {
          vm_ls_setmsg (ls, "option definite_scale: entry %d is %g; must be positive and finite", i,
                  o->definite_scale[i]);
          return VM_EARG;
        }
  ls->bdiag = vm_scratch_alloc ((size_t) ls->n * sizeof *ls->bdiag);
  ls->dpos = vm_scratch_alloc ((size_t) ls->n * sizeof *ls->dpos);
  /* not zeroed: chol_fill clears each column's rows before it stores the values */
  ls->cb = vm_scratch_alloc ((size_t) (ls->bkl + 1) * (size_t) ls->n * sizeof *ls->cb);
  ls->rdiag = vm_scratch_alloc ((size_t) ls->n * sizeof *ls->rdiag);
  ls->drun = vm_scratch_alloc ((size_t) (ls->n > 0 ? ls->n : 1));
  if (!ls->bdiag || !ls->dpos || !ls->cb || !ls->rdiag || !ls->drun)
    {
      vm_ls_setmsg (ls, "out of memory for the Cholesky band of %d unknowns (%d x %d doubles)",
                    ls->n, ls->bkl + 1, ls->n);
      return VM_ENOMEM;
    }
  for (i = 0; i < ls->n; i++)   /* the diagonal entry of each column (-1: none) */
    {
      const int64_t c1 = ls->colptr[i + 1];
      int64_t p = ls->colptr[i];
      while (p < c1 && ls->rowind[p] < i)
        p++;
      ls->dpos[i] = p < c1 && ls->rowind[p] == i ? p : -1;
      /* read here once, not in each chol_fill: the last row of every column is one cache line
       * of the pattern per column, a load that would stall the fill */
      ls->drun[i] = (unsigned char) (ls->dpos[i] >= 0 && ls->rowind[c1 - 1] - i == c1 - 1 - p);
    }
  ls->definite = o->definite;
  ls->dscale = o->definite_scale;
  return VM_OK;
}

/* c[i] = sgn a[i], i < len (distinct arrays: vectorized) */
static void
chol_fill_run (double *restrict c, const double *restrict a, double sgn, int len)
{
  int i;
  for (i = 0; i < len; i++)
    c[i] = sgn * a[i];
}

/* c[i] = (sgn d[i]) a[i], i < len */
static void
chol_fill_run_d (double *restrict c, const double *restrict d, const double *restrict a,
                 double sgn, int len)
{
  int i;
  for (i = 0; i < len; i++)
    c[i] = (sgn * d[i]) * a[i];
}

/* The sign of B = +-diag (d) A (option definite) */
static double
chol_sign (const vm_linsolve *ls)
{
  return ls->definite > 0 ? 1.0 : -1.0;
}

/* B (r, j) = +-d_r A (r, j), or row r of the right-hand side +-diag (d) b */
static double
chol_entry (const vm_linsolve *ls, int64_t r, double a)
{
  return chol_sign (ls) * (ls->dscale ? ls->dscale[r] : 1.0) * a;
}

/* Columns j0 .. j1 - 1 (band labels) of the lower band of B in LAPACK's "L" storage (ls->cb,
 * leading dimension bkl + 1), and their diagonal into ls->bdiag.  Returns 0, or 1 when a diagonal
 * entry of B is not positive and finite (none in the pattern counts as 0): B is not positive
 * definite. */
static int
chol_fill (vm_linsolve *ls, const double *Ax, int j0, int j1)
{
  const int n = ls->n, kd = ls->bkl, ldc = kd + 1;
  const int64_t *cp = ls->colptr, *ri = ls->rowind, *dg = ls->dpos;
  const int *pos = ls->pos;
  const double sgn = chol_sign (ls);
  int64_t p;
  int i, j, jb;
  for (jb = j0; jb < j1; jb++)
    {
      double *col = ls->cb + (size_t) jb * (size_t) ldc - jb;   /* col[rb]: row rb */
      const int kn = kd < n - 1 - jb ? kd : n - 1 - jb;
      j = pos ? pos[jb] : jb;
      if (dg[j] < 0)
        return 1;
      if (! pos && ls->drun[j])
        {
          /* the rows from the diagonal on are consecutive (every column of the dual Hessians
           * but near the ends): a copy, with no index to follow, and zeros below it */
          const int len = (int) (cp[j + 1] - dg[j]);
          if (ls->dscale)
            chol_fill_run_d (col + jb, ls->dscale + j, Ax + dg[j], sgn, len);
          else
            chol_fill_run (col + jb, Ax + dg[j], sgn, len);
          for (i = jb + len; i <= jb + kn; i++)
            col[i] = 0.0;
        }
      else
        {
          for (i = jb; i <= jb + kn; i++)
            col[i] = 0.0;
          if (pos)
            for (p = cp[j]; p < cp[j + 1]; p++)
              {
                const int rb = pos[ri[p]];
                if (rb >= jb)
                  col[rb] = chol_entry (ls, ri[p], Ax[p]);
              }
          else   /* the rows from the diagonal on: the lower triangle */
            for (p = dg[j]; p < cp[j + 1]; p++)
              col[ri[p]] = chol_entry (ls, ri[p], Ax[p]);
        }
      ls->bdiag[jb] = col[jb];
      if (! (col[jb] > 0.0) || ! (col[jb] <= DBL_MAX))
        return 1;
    }
  return 0;
}

/* Columns filled and factored together (chol_factor): 64 columns and the kd that their steps
 * update stay in the L1 cache between the fill and the factorization for the bands of the dual
 * actions */
#define VM_CHOL_BLOCK 64

/* Columns j0 .. j1 - 1 of the factor are final: the reciprocals 1 / L_jj of the solves (rdiag),
 * and the smallest and largest pivot of C, L_jj^2 / B_jj, into lo, hi (chol_factor) */
static void
chol_diagonal (vm_linsolve *ls, int j0, int j1, double *lo, double *hi)
{
  const int ldc = ls->bkl + 1;
  int j;
  for (j = j0; j < j1; j++)
    {
      const double a = ls->cb[(size_t) j * (size_t) ldc], c = a * a / ls->bdiag[j];
      *lo = c < *lo ? c : *lo;
      *hi = c > *hi ? c : *hi;
      ls->rdiag[j] = 1.0 / a;
    }
}

/* y[i] = +-d_i b[i] for i in [i0, i1) (original labels; band labels under option block's
 * relabeling): the right-hand side of B x = +-diag (d) b */
static void
chol_rhs (const vm_linsolve *ls, const double *b, double *y, int i0, int i1)
{
  const double sgn = chol_sign (ls), *d = ls->dscale;
  int i;
  if (ls->pos)
    for (i = i0; i < i1; i++)
      y[ls->pos[i]] = chol_entry (ls, i, b[i]);
  else if (d)
    for (i = i0; i < i1; i++)
      y[i] = (sgn * d[i]) * b[i];
  else
    for (i = i0; i < i1; i++)
      y[i] = sgn * b[i];
}

/* The Cholesky factorization of B, block by block: the fill of the columns ahead of the steps,
 * the steps, then the block's diagonal (chol_diagonal), while it is all in the cache (separate
 * passes over the diagonal of A and of L would cost a cache line per column each).  Sets
 * ls->rcond = min / max of C's pivots L_jj^2 / B_jj, the pivot ratio of C's LU without pivoting, the LU path's test (band_rcond_pivot) for C.  Returns 0, or as
 * vm_band_chol (j + 1: not positive definite, also 1 for a diagonal entry of B that is not
 * positive and finite) */
static int
chol_factor (vm_linsolve *ls, const double *Ax, const double *b, double *y)
{
  const int n = ls->n, kd = ls->bkl;
  int j0, filled = 0, info;
  double lo = INFINITY, hi = 0.0;
  for (j0 = 0; j0 < n; j0 += VM_CHOL_BLOCK)
    {
      const int j1 = j0 + VM_CHOL_BLOCK < n ? j0 + VM_CHOL_BLOCK : n;
      const int need = j1 + kd < n ? j1 + kd : n;
      if (chol_fill (ls, Ax, filled, need))
        return 1;
      if (y)   /* the rows of the right-hand side that the block's substitution reads */
        chol_rhs (ls, b, y, filled, need);
      filled = need;
      if ((info = vm_band_chol_steps (n, kd, ls->cb, kd + 1, j0, j1)) != 0)
        return info;
      chol_diagonal (ls, j0, j1, &lo, &hi);
      if (y)
        vm_band_chol_lower (n, kd, ls->cb, kd + 1, ls->rdiag, y, j0, j1);
    }
  ls->rcond = hi > 0.0 ? lo / hi : 0.0;
  return 0;
}

/* The factorization, with the forward substitution of the solve of b into y (b and y distinct)
 * block by block when y is not NULL (not with option block's relabeling) */
static int
chol_factor_timed (vm_linsolve *ls, const double *Ax, const double *b, double *y)
{
  double t0 = vm_wall_time ();
  int info;
  ls->chol = 0;
  info = chol_factor (ls, Ax, b, y);
  if (info != 0)
    {
      ls->t_numeric += vm_wall_time () - t0;   /* the attempt's time counts */
      ls->nchol_fail++;
      return 0;
    }
  ls->chol = 1;
  ls->nchol++;
  ls->nfactor++;
  ls->t_numeric += vm_wall_time () - t0;
  ls->singular = !(ls->rcond >= DBL_EPSILON);
  return 1;
}

/* Option definite: the Cholesky factorization of B.  Returns 1 when it is held (ls->chol), 0
 * when B is not positive definite: the caller then factors the LU of the same values. */
int
vm_ls_chol_factor (vm_linsolve *ls, const double *Ax)
{
  return chol_factor_timed (ls, Ax, NULL, NULL);
}

/* The factorization with its solve.  Without option block's relabeling, the forward substitution
 * goes with the factorization, a block of 64 columns of L at a time while they are in the cache
 * (vm_band_chol_lower, the same arithmetic as vm_ls_chol_solve's): one pass over the factor
 * less per Newton step */
int
vm_ls_chol_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x)
{
  const int n = ls->n;
  double t0;
  if (ls->pos || b == x)
    {
      if (! vm_ls_chol_factor (ls, Ax))
        return 0;
      if (! ls->singular)
        vm_ls_chol_solve (ls, b, x);
      return 1;
    }
  if (! chol_factor_timed (ls, Ax, b, x))
    return 0;
  if (ls->singular)
    return 1;
  t0 = vm_wall_time ();
  vm_band_chol_upper (n, ls->bkl, ls->cb, ls->bkl + 1, ls->rdiag, x);
  ls->t_solve += vm_wall_time () - t0;
  ls->nsolve++;
  return 1;
}

int
vm_ls_chol_solve (vm_linsolve *ls, const double *b, double *x)
{
  const int n = ls->n;
  double t0 = vm_wall_time ();
  double *y = ls->pos ? ls->work : x;
  int i;
  chol_rhs (ls, b, y, 0, n);
  vm_band_chol_solve (n, ls->bkl, ls->cb, ls->bkl + 1, ls->rdiag, y);
  if (ls->pos)
    for (i = 0; i < n; i++)
      x[i] = y[ls->pos[i]];
  ls->t_solve += vm_wall_time () - t0;
  ls->nsolve++;
  return VM_OK;
}

void
vm_ls_chol_free (vm_linsolve *ls)
{
  vm_scratch_free (ls->bdiag);
  vm_scratch_free (ls->dpos);
  vm_scratch_free (ls->cb);
  vm_scratch_free (ls->rdiag);
  vm_scratch_free (ls->drun);
}
