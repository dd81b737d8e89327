/* linsolve_band.c -- the banded backend of the linear solver (linsolve_band.h; its contract in
 * linsolve.h, VM_LINSOLVE_BANDED): LU with partial pivoting of the row-scaled band (bandlu.h below
 * kl = VM_BAND_LU_KL_MAX, LAPACK's dgbtrf above), the relabeling of option block, the U-only
 * variant of option lean; the Cholesky path of option definite (linsolve_chol.h) shares its
 * storage.  Reached only through vm_linsolve_band_ops. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "la/bandlu.h"
#include "la/linsolve_band.h"
#include "la/linsolve_chol.h"
#include "base/vm_bigalloc.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

/* LAPACK (Fortran 77 interface, 32-bit integers as in Octave's LAPACK_LIBS): the banded LU for
 * kl >= VM_BAND_LU_KL_MAX (bandlu.h: below it vm_band_lu, whose factors have LAPACK's storage and
 * pivots), and the solves with A and A^T of the 1-norm condition estimate.  The trailing size_t
 * is the hidden length of the character argument (gfortran ABI); a C implementation ignores it. */
extern void dgbtrf_ (const int *m, const int *n, const int *kl, const int *ku, double *ab,
                     const int *ldab, int *ipiv, int *info);
extern void dgbtrs_ (const char *trans, const int *n, const int *kl, const int *ku,
                     const int *nrhs, const double *ab, const int *ldab, const int *ipiv,
                     double *b, const int *ldb, int *info, size_t trans_len);
extern void dlacn2_ (const int *n, double *v, double *x, int *isgn, double *est, int *kase,
                     int *isave);

int
vm_linsolve_lean_auto (int kl, int ku, double n)
{
  return kl < VM_BAND_LU_KL_MAX && (2.0 * kl + ku + 1.0) * n * sizeof (double) >= VM_LINSOLVE_LEAN_MIN;
}

/* ---- banded backend ----------------------------------------------------------------------------- */

/* The position of unknown i when the first two and the last two blocks of b unknowns are
 * exchanged (option block) */
static int
swapped_position (int i, int n, int b)
{
  const int k = i / b;
  if (k == 0 || k == n / b - 2)
    return i + b;
  if (k == 1 || k == n / b - 1)
    return i - b;
  return i;
}

/* Option block: keep the exchange of the end nodes (ls->pos) when it narrows the band (2 kl + ku,
 * the band's rows); ls->bkl, bku: the band that is factored.  O(nnz). */
static int
band_relabel (vm_linsolve *ls, int block)
{
  const int n = ls->n;
  int64_t p;
  int i, j, kl = 0, ku = 0;
  ls->bkl = ls->kl;
  ls->bku = ls->ku;
  if (block < 1 || n % block != 0 || n / block < 4)
    return VM_OK;
  ls->pos = vm_scratch_alloc ((size_t) n * sizeof *ls->pos);
  if (!ls->pos)
    {
      vm_ls_setmsg (ls, "out of memory for the relabeling of %d unknowns", n);
      return VM_ENOMEM;
    }
  for (i = 0; i < n; i++)
    ls->pos[i] = swapped_position (i, n, block);
  for (j = 0; j < n; j++)
    {
      const int pj = ls->pos[j];
      for (p = ls->colptr[j]; p < ls->colptr[j + 1]; p++)
        {
          const int d = ls->pos[ls->rowind[p]] - pj;
          kl = d > kl ? d : kl;
          ku = -d > ku ? -d : ku;
        }
    }
  if (2 * kl + ku >= 2 * ls->kl + ls->ku)
    {
      vm_scratch_free (ls->pos);
      ls->pos = NULL;
      return VM_OK;
    }
  ls->bkl = kl;
  ls->bku = ku;
  return VM_OK;
}

/* The U-only variant (option lean): U's packed columns (at most kl + ku + 1 values each, the
 * pages touched as they are written), a window of VM_LEAN_WINDOW (kl + ku) + 1 band columns for
 * the fill and the elimination, the relabeled right-hand side; instead of the band of n LDAB
 * doubles. */
#define VM_LEAN_WINDOW 10

static int
band_init_lean (vm_linsolve *ls)
{
  const int n = ls->n, kv = ls->bkl + ls->bku;
  ls->lean = 1;
  ls->winw = VM_LEAN_WINDOW * kv + 1;
  /* a mapping (lean: a band of 1 GiB or more): the pages of U never written cost neither memory
   * nor clearing */
  ls->u = vm_bigalloc_zero ((size_t) (kv + 1) * (size_t) n, sizeof *ls->u);
  ls->up = vm_scratch_alloc (((size_t) n + 1) * sizeof *ls->up);
  ls->win = vm_scratch_alloc ((size_t) ls->winw * (size_t) ls->ldab * sizeof *ls->win);
  ls->rs = vm_scratch_alloc ((size_t) n * sizeof *ls->rs);
  ls->work = vm_scratch_alloc (2 * (size_t) n * sizeof *ls->work);
  if (!ls->u || !ls->up || !ls->win || !ls->rs || !ls->work)
    {
      vm_ls_setmsg (ls, "out of memory for U (%d x %d doubles)", kv + 1, n);
      return VM_ENOMEM;
    }
  return VM_OK;
}

/* The band of the LU, zeroed: the first fill need not clear it (fresh zero pages: the zeroing is
 * the first touch, which the first factorization pays anyway; with fewer faults where the system
 * allows it, vm_bigalloc.h) */
static int
band_alloc (vm_linsolve *ls)
{
  ls->ab = vm_bigalloc_zero ((size_t) ls->ldab * (size_t) ls->n, sizeof *ls->ab);
  ls->ab_zero = 1;
  if (!ls->ab)
    {
      vm_ls_setmsg (ls, "out of memory for the band (%d x %d doubles)", ls->ldab, ls->n);
      return VM_ENOMEM;
    }
  return VM_OK;
}

static int
band_setup (vm_linsolve *ls, int block, int lean, int cond, int defer)
{
  const int n = ls->n;
  int64_t ldab;
  int st = band_relabel (ls, block);
  if (st != VM_OK)
    return st;
  ldab = 2 * (int64_t) ls->bkl + ls->bku + 1;
  if (ldab * (int64_t) n > INT_MAX)
    {
      vm_ls_setmsg (ls, "the band of %lld x %d entries (kl = %d, ku = %d) exceeds LAPACK's 32-bit "
              "indices", (long long) ldab, n, ls->bkl, ls->bku);
      return VM_EARG;
    }
  ls->ldab = (int) ldab;
  if (ls->bkl < VM_BAND_LU_KL_MAX && cond == VM_LINSOLVE_COND_PIVOT
      && (lean == 1 || (lean == VM_LINSOLVE_LEAN_AUTO && vm_linsolve_lean_auto (ls->bkl, ls->bku, n))))
    return band_init_lean (ls);
  ls->rs = vm_scratch_alloc ((size_t) n * sizeof *ls->rs);
  ls->work = vm_scratch_alloc (2 * (size_t) n * sizeof *ls->work);
  ls->ipiv = vm_scratch_alloc ((size_t) n * sizeof *ls->ipiv);
  ls->iwork = vm_scratch_alloc ((size_t) n * sizeof *ls->iwork);
  if (!ls->rs || !ls->work || !ls->ipiv || !ls->iwork)
    {
      vm_ls_setmsg (ls, "out of memory for the band's scales and pivots (n = %d)", n);
      return VM_ENOMEM;
    }
  /* deferred with option definite: the Cholesky path has its own band, and a band allocated here
   * would be cleared for nothing while every matrix is definite */
  return defer ? VM_OK : band_alloc (ls);
}
/* c[lo .. hi] *= r[lo .. hi] (distinct arrays: vectorized) */
static void
scale_window (int lo, int hi, const double *restrict r, double *restrict c)
{
  int i;
  for (i = lo; i <= hi; i++)
    c[i] *= r[i];
}

/* The reciprocal of a row sum of |A|: 1 for an empty or NaN row, at most DBL_MAX (a subnormal sum
 * would give an infinite scale, and 0 x inf in the band a NaN) */
static double
row_scale (double sum)
{
  const double r = sum > 0.0 ? 1.0 / sum : 1.0;
  return r <= DBL_MAX ? r : DBL_MAX;
}

/* Step jb of the fill (jb = 0 .. n + kl + ku - 1): column jb (col: its storage shifted so that
 * col[i] is row i; NULL from jb = n on; cleared first when clear) receives A's values and adds
 * to the row sums rb; row jb - ku has all its entries and gets its scale; column
 * jb - kl - ku (colc, likewise; NULL while negative) is scaled.  Returns the 1-norm of that
 * column when norm, else 0. */
static inline double
fill_step (const vm_linsolve *ls, const double *Ax, int jb, double *col, int clear,
           double *colc, double *rb, int norm)
{
  const int n = ls->n, kl = ls->bkl, ku = ls->bku, ib = jb - ku, jc = jb - kl - ku;
  const int64_t *cp = ls->colptr, *ri = ls->rowind;
  const int *pos = ls->pos;
  double anorm = 0.0;
  int64_t p;
  int i;
  if (col)
    {
      /* A(i, j) goes to ab[off + i - j + j ldab] (LAPACK's AB(KL+KU+1+i-j, j), 1-based) */
      const int j = pos ? pos[jb] : jb;
      if (clear)   /* a loop, not memset: kl + ku + 1 doubles, a call costs more */
        for (i = jb - ku; i <= jb + kl; i++)
          col[i] = 0.0;
      if (pos)
        for (p = cp[j]; p < cp[j + 1]; p++)
          {
            const int r = pos[ri[p]];
            col[r] = Ax[p];
            rb[r] += fabs (Ax[p]);
          }
      else
        for (p = cp[j]; p < cp[j + 1]; p++)
          {
            col[ri[p]] = Ax[p];
            rb[ri[p]] += fabs (Ax[p]);
          }
    }
  if (ib >= 0 && ib < n)
    rb[ib] = row_scale (rb[ib]);
  if (colc)
    {
      const int lo = jc - ku > 0 ? jc - ku : 0, hi = jc + kl < n - 1 ? jc + kl : n - 1;
      scale_window (lo, hi, rb, colc);
      if (norm)
        for (i = lo; i <= hi; i++)
          anorm += fabs (colc[i]);
    }
  return anorm;
}

/* The band of R A (R: the reciprocal row sums of |A|) from the CSC values; returns ||R A||_1 if
 * norm (for the 1-norm condition estimate), 0 otherwise.  Only the rows kl .. ldab-1 of each
 * column are set: the LU sets the kl rows of fill itself.
 *
 * One sweep over the band's columns jb in the band's labels (fill_step): column jb is cleared and
 * receives A's values as they are, adding to the row sums; row jb - ku then has all its entries
 * (its columns are jb - ku - kl .. jb), and column jb - kl - ku all its rows' scales, so it is
 * scaled while it is still in the cache (kl + ku + 1 columns behind).  Why one sweep: each band
 * entry is written once from memory's view, where a clear, a fill and a scaling pass would go
 * over the band three times; and no sum of |R A| (a chain of dependent additions) unless asked
 * for.  The products are those of scaling each value as it is stored.  The row sums in the band's
 * column order: with option block that order differs
 * at the two ends (pos is an involution, the exchange of blocks: pos[jb] is the column of A
 * that becomes band column jb), and a row sum can differ in its last bit. */
static double
band_fill (vm_linsolve *ls, const double *Ax, int norm)
{
  const int n = ls->n, off = ls->bkl + ls->bku, lag = ls->bkl + ls->bku;
  double *rb = ls->pos ? ls->work : ls->rs;   /* row sums, then their reciprocals, band labels */
  double anorm = 0.0;
  int i, jb;
  for (i = 0; i < n; i++)
    rb[i] = 0.0;
  for (jb = 0; jb < n + lag; jb++)
    {
      const int jc = jb - lag;
      double *col = jb < n ? ls->ab + (size_t) jb * (size_t) ls->ldab + off - jb : NULL;
      double *colc = jc >= 0 ? ls->ab + (size_t) jc * (size_t) ls->ldab + off - jc : NULL;
      const double s = fill_step (ls, Ax, jb, col, !ls->ab_zero, colc, rb, norm);
      if (s > anorm || s != s)
        anorm = s;
    }
  ls->ab_zero = 0;
  if (ls->pos)
    for (i = 0; i < n; i++)
      ls->rs[i] = rb[ls->pos[i]];
  return anorm;
}

/* VM_LINSOLVE_COND_NORM1: the reciprocal condition number of the factored band in the 1-norm,
 * 1 / (||A||_1 est), est Higham's estimate of ||A^{-1}||_1 (dlacn2, as dgbcon computes it) from
 * solves with A and A^T by dgbtrs: O(n (2 kl + ku)) per solve, about 5 solves.  Not dgbcon
 * itself: its triangular solve (dlatbs) takes its "careful" path with an idamax over all previous
 * entries per column on these Jacobians -- O(n^2), far dearer than the factorization at large n.
 * A solve that overflows
 * gives a NaN or infinite estimate: rcond NaN or 0. */
static int
band_rcond_norm1 (vm_linsolve *ls, double anorm)
{
  const int n = ls->n, one = 1;
  double est = 0.0, *v = ls->work, *x = ls->work + n;
  int kase = 0, isave[3] = { 0, 0, 0 }, info = 0;
  for (;;)
    {
      dlacn2_ (&n, v, x, ls->iwork, &est, &kase, isave);
      if (kase == 0)
        break;
      dgbtrs_ (kase == 1 ? "N" : "T", &n, &ls->bkl, &ls->bku, &one, ls->ab, &ls->ldab, ls->ipiv, x,
               &n, &info, 1);
      if (info < 0)
        return info;
    }
  ls->rcond = est != est ? NAN : est > 0.0 && anorm > 0.0 ? (1.0 / est) / anorm : 0.0;
  return 0;
}

/* VM_LINSOLVE_COND_PIVOT: min |U_jj| / max |U_jj| of the factored band (U's diagonal is row
 * kl + ku of ab), UMFPACK's Info[UMFPACK_RCOND] for this factorization; NaN if a pivot is. */
static void
band_rcond_pivot (vm_linsolve *ls)
{
  const double *d = ls->ab + ls->bkl + ls->bku;
  double lo = INFINITY, hi = 0.0;
  int j;
  for (j = 0; j < ls->n; j++)
    {
      const double a = fabs (d[(size_t) j * (size_t) ls->ldab]);
      if (a != a)
        {
          ls->rcond = NAN;
          return;
        }
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
    }
  ls->rcond = hi > 0.0 ? lo / hi : 0.0;
}
/* ---- the banded LU ---------------------------------------------------------------------------- */

static int
band_factor_lu (vm_linsolve *ls, const double *Ax)
{
  const int n = ls->n;
  double t0, anorm;
  int info = 0;
  ls->chol = 0;
  if (!ls->ab && band_alloc (ls) != VM_OK)
    return VM_ENOMEM;
  t0 = vm_wall_time ();
  anorm = band_fill (ls, Ax, ls->cond == VM_LINSOLVE_COND_NORM1);
  if (ls->bkl < VM_BAND_LU_KL_MAX)
    info = vm_band_lu (n, ls->bkl, ls->bku, ls->ab, ls->ldab, ls->ipiv);
  else
    dgbtrf_ (&n, &n, &ls->bkl, &ls->bku, ls->ab, &ls->ldab, ls->ipiv, &info);
  ls->nfactor++;
  ls->rcond = 0.0;
  if (info == 0)
    {
      double t1 = vm_wall_time ();
      if (ls->cond == VM_LINSOLVE_COND_NORM1)
        info = band_rcond_norm1 (ls, anorm);
      else
        band_rcond_pivot (ls);
      ls->t_rcond += vm_wall_time () - t1;
    }
  ls->t_numeric += vm_wall_time () - t0;
  if (info < 0)
    {
      vm_ls_setmsg (ls, "the banded LU (vm_band_lu) or dgbtrs refused an argument (%d)", info);
      return VM_EARG;
    }
  ls->singular = !(ls->rcond >= DBL_EPSILON);
  return VM_OK;
}

static int
band_solve (vm_linsolve *ls, const double *b, double *x)
{
  const int n = ls->n, one = 1;
  double t0;
  double *y = ls->pos ? ls->work : x;   /* the right-hand side in the band's labels (work: free
                                           outside the 1-norm estimate of the factorization) */
  int i, info = 0;
  if (ls->chol)
    return vm_ls_chol_solve (ls, b, x);
  t0 = vm_wall_time ();
  for (i = 0; i < n; i++)
    y[ls->pos ? ls->pos[i] : i] = ls->rs[i] * b[i];
  if (ls->bkl < VM_BAND_LU_KL_MAX)
    vm_band_solve (n, ls->bkl, ls->bku, ls->ab, ls->ldab, ls->ipiv, y);
  else
    dgbtrs_ ("N", &n, &ls->bkl, &ls->bku, &one, ls->ab, &ls->ldab, ls->ipiv, y, &n, &info, 1);
  if (ls->pos)
    for (i = 0; i < n; i++)
      x[i] = y[ls->pos[i]];
  ls->t_solve += vm_wall_time () - t0;
  ls->nsolve++;
  if (info < 0)
    {
      vm_ls_setmsg (ls, "dgbtrs refused its argument %d", -info);
      return VM_EARG;
    }
  return VM_OK;
}

/* The elimination of the window's columns je .. je1 - 1 (global labels; the window holds column
 * c0 in its first slot), with the interchanges and multipliers applied to y and U copied out:
 * the first zero pivot's j + 1 kept in *info. */
static int
lean_eliminate (vm_linsolve *ls, int c0, int je, int je1, int *ju, double *y, int *info)
{
  int st;
  const vm_band_u f = { ls->n, ls->bkl, ls->bku, ls->ldab, y, ls->u, ls->up };
  if (je1 <= je)
    return 0;
  st = vm_band_lu_window (&f, ls->win + (size_t) (je - c0) * ls->ldab, je, je1, ju);
  if (st > 0 && *info == 0)
    *info = st;
  return st < 0 ? st : 0;
}

/* The U-only factorization with its solve (option lean): band_fill's sweep over a window of
 * ls->winw band columns, the LU's steps (vm_band_lu_window) kl + ku columns behind the scaling,
 * which is kl + ku behind the fill; when the window is full, the columns that can be are
 * eliminated and the 2 (kl + ku) live ones moved to its front.  The same arithmetic as band_fill,
 * vm_band_lu and vm_band_solve in that order: the same x, bit for bit; U's diagonal gives the
 * pivot ratio (band_rcond_pivot). */
static int
band_factor_solve_lean (vm_linsolve *ls, const double *Ax, const double *b, double *x)
{
  const int n = ls->n, kv = ls->bkl + ls->bku, ku = ls->bku, ldab = ls->ldab;
  const int *pos = ls->pos;
  double *rb = pos ? ls->work : ls->rs, *y = pos ? ls->work + n : x;
  double t0 = vm_wall_time (), t1, lo = INFINITY, hi = 0.0;
  int i, jb, c0 = 0, je = 0, ju = 0, info = 0, st = 0;
  for (i = 0; i < n; i++)
    rb[i] = 0.0;
  ls->up[0] = 0;
  for (jb = 0; jb < n + kv && st == 0; jb++)
    {
      const int ib = jb - ku, jc = jb - kv;
      double *col = NULL;
      if (jb < n)
        {
          if (jb - c0 == ls->winw)
            {
              st = lean_eliminate (ls, c0, je, jc - kv, &ju, y, &info);
              je = jc - kv > je ? jc - kv : je;
              memmove (ls->win, ls->win + (size_t) (je - c0) * ldab,
                       (size_t) (jb - je) * ldab * sizeof *ls->win);
              c0 = je;
            }
          memset (ls->win + (size_t) (jb - c0) * ldab, 0, (size_t) ldab * sizeof *ls->win);
          col = ls->win + (size_t) (jb - c0) * ldab + kv - jb;
        }
      fill_step (ls, Ax, jb, col, 0, jc >= 0 ? ls->win + (size_t) (jc - c0) * ldab + kv - jc : NULL,
                 rb, 0);
      if (ib >= 0 && ib < n)
        y[ib] = rb[ib] * b[pos ? pos[ib] : ib];
    }
  if (st == 0)
    st = lean_eliminate (ls, c0, je, n, &ju, y, &info);
  ls->nfactor++;
  t1 = vm_wall_time ();
  ls->t_numeric += t1 - t0;
  if (st < 0)
    {
      vm_ls_setmsg (ls, "the banded LU (vm_band_lu_window) refused an argument (%d)", st);
      return VM_EARG;
    }
  for (i = 0; i < n && info == 0; i++)   /* band_rcond_pivot on U's diagonal */
    {
      const double a = fabs (ls->u[ls->up[i + 1] - 1]);
      if (a != a)
        break;
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
    }
  ls->rcond = info != 0 ? 0.0 : i < n ? NAN : hi > 0.0 ? lo / hi : 0.0;
  ls->singular = !(ls->rcond >= DBL_EPSILON);
  vm_band_solve_u (n, ls->u, ls->up, y);
  if (pos)
    for (i = 0; i < n; i++)
      x[i] = y[pos[i]];
  ls->nsolve++;
  ls->t_solve += vm_wall_time () - t1;
  return VM_OK;
}

static void
band_free (vm_linsolve *ls)
{
  vm_bigalloc_free (ls->ab, (size_t) ls->ldab * (size_t) ls->n, sizeof *ls->ab);
  vm_bigalloc_free (ls->u, (size_t) (ls->bkl + ls->bku + 1) * (size_t) ls->n, sizeof *ls->u);
  vm_scratch_free (ls->up);
  vm_scratch_free (ls->win);
  vm_scratch_free (ls->rs);
  vm_scratch_free (ls->work);
  vm_scratch_free (ls->ipiv);
  vm_scratch_free (ls->iwork);
  vm_scratch_free (ls->pos);
}
/* ---- the operations (linsolve_band.h) ----------------------------------------------------------- */

/* The band (its allocation deferred with option definite: the Cholesky path has its own band, and
 * the LU's is made at the first matrix that is not definite), then the Cholesky path's arrays */
static int
band_op_init (vm_linsolve *ls, const vm_linsolve_opts *o)
{
  const int chol = o->definite != 0 && o->cond == VM_LINSOLVE_COND_PIVOT;
  int st = band_setup (ls, o->block, o->lean, o->cond, chol);
  if (st == VM_OK && chol)   /* with lean too: the Cholesky band is (kl + 1) n, U only the fallback */
    st = vm_ls_chol_init (ls, o);
  return st;
}

static int
band_op_factor (vm_linsolve *ls, const double *Ax)
{
  if (ls->definite && vm_ls_chol_factor (ls, Ax))
    return VM_OK;   /* a Cholesky factor, held with lean too */
  if (ls->lean)
    {
      vm_ls_setmsg (ls, "the U-only band (option lean) factors with its solve: vm_linsolve_factor_solve");
      return VM_EARG;
    }
  return band_factor_lu (ls, Ax);
}

static int
band_op_solve (vm_linsolve *ls, const double *b, double *x)
{
  if (ls->singular || (ls->lean && !ls->chol) || ls->nfactor == 0)
    return vm_ls_refuse_solve (ls);
  return band_solve (ls, b, x);
}

/* The Cholesky factor (held, with lean too) with its solve, else the LU of the same values; the
 * U-only LU with its solve in one pass */
static int
band_op_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x)
{
  int st;
  if (ls->definite)
    {
      if (vm_ls_chol_factor_solve (ls, Ax, b, x))
        return VM_OK;
      if (ls->lean)
        return band_factor_solve_lean (ls, Ax, b, x);
      if ((st = band_factor_lu (ls, Ax)) != VM_OK || ls->singular)
        return st;
      return band_solve (ls, b, x);
    }
  if (ls->lean)
    return band_factor_solve_lean (ls, Ax, b, x);
  if ((st = band_op_factor (ls, Ax)) != VM_OK || ls->singular)
    return st;
  return band_op_solve (ls, b, x);
}

static void
band_op_free (vm_linsolve *ls)
{
  band_free (ls);
  vm_ls_chol_free (ls);
}

const vm_linsolve_ops vm_linsolve_band_ops = {
  band_op_init, band_op_factor, band_op_solve, band_op_factor_solve, NULL, band_op_free
};
