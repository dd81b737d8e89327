/* linsolve.c -- sparse LU (UMFPACK) or banded LU (LAPACK) behind one interface; see linsolve.h. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <umfpack.h>

#include "bandchol.h"
#include "bandlu.h"
#include "vm_bigalloc.h"
#include "linsolve.h"
#include "vm_status.h"

/* UMFPACK's 64-bit index type: SuiteSparse_long (long) up to UMFPACK 5, int64_t from UMFPACK 6.
 * Up to UMFPACK 5 the caller's int64_t pattern is copied once into this type when the two are
 * distinct types of the same width (e.g. long and long long, which may not alias); when configure
 * has proved them the same type (VM_UMF_LONG_IS_INT64: long on LP64 glibc), and from UMFPACK 6 on,
 * it is used as it is: one copy of the pattern, the caller's. */
#if defined(UMFPACK_MAIN_VERSION) && UMFPACK_MAIN_VERSION >= 6
typedef int64_t umf_int;
#define VM_UMF_COPY_PATTERN 0
#elif defined(VM_UMF_LONG_IS_INT64)
typedef int64_t umf_int;
#define VM_UMF_COPY_PATTERN 0
typedef char vm_umf_long_is_int64[sizeof (SuiteSparse_long) == sizeof (int64_t) ? 1 : -1];
#else
typedef SuiteSparse_long umf_int;
#define VM_UMF_COPY_PATTERN 1
#endif

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

#define wall vm_wall_time

/* linsolve.h's copies of the UMFPACK codes */
typedef char vm_umf_codes_match[(VM_UMF_ORDERING_AMD == UMFPACK_ORDERING_AMD
                                 && VM_UMF_ORDERING_METIS == UMFPACK_ORDERING_METIS
                                 && VM_UMF_ORDERING_NONE == UMFPACK_ORDERING_NONE
                                 && VM_UMF_ORDERING_CHOLMOD == UMFPACK_ORDERING_CHOLMOD
                                 && VM_UMF_ORDERING_BEST == UMFPACK_ORDERING_BEST
                                 && VM_UMF_STRATEGY_AUTO == UMFPACK_STRATEGY_AUTO
                                 && VM_UMF_STRATEGY_UNSYMMETRIC == UMFPACK_STRATEGY_UNSYMMETRIC
                                 && VM_UMF_STRATEGY_SYMMETRIC == UMFPACK_STRATEGY_SYMMETRIC)
                                ? 1 : -1];

static void
setmsg (vm_linsolve *ls, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (ls->message, sizeof ls->message, fmt, ap);
  va_end (ap);
}

/* ---- the rule of VM_LINSOLVE_AUTO --------------------------------------------------------------- */

/* The rule, from the measurement of bench/README_band.md, part (a) "Where the switch is": one
 * factorization + solve of each backend on the Jacobians of the SKG rolling disk (reduced and
 * full mode, orders 4 and 8), the tumbler, chains of 8 and 16 masses and the dual Lorenz action,
 * N = 64 .. 16384 (n = 128 .. 524288).  What decides is the density of the band,
 * nnz / (n (kl + ku + 1)): UMFPACK factors only the entries the elimination fills (for the disk
 * 0.15-0.35 of the band storage) at 20-100 ns per entry of L + U, dgbtrf the whole band at
 * 0.04-0.5 ns per flop.  Time ratios UMFPACK / banded (over N; nearly constant in N):
 *   density 0.03 (chain16 full) 0.40-0.87, 0.06 (chain8 full) 0.57-1.32       -> UMFPACK
 *   0.066 (chain16 reduced) 1.04-1.24, 0.08 (disk full, order 8) 1.03-2.11,
 *   0.10 (disk full) 1.06-1.83, 0.13-0.18 (disk and chain8 reduced) 1.23-3.26,
 *   0.24-0.48 (tumbler) 3.3-5.3, 0.7-0.77 (dual Lorenz) 5.4-11.8             -> banded
 * so banded from a density of 1/16 on: the faster backend in 59 of the 60 cases (not chain8 full
 * at N = 64), and around the threshold the two are within 0.6 .. 1.7 of each other.  UMFPACK's
 * symbolic analysis (a quarter to a half of a numeric factorization, once per pattern) is not
 * counted: the rule leans towards UMFPACK.  Also UMFPACK when the band exceeds LAPACK's 32-bit
 * indices.  (These ratios were measured with dgbtrf for every band.  Since then the bands with
 * kl < 32 -- all of them above the threshold -- are factored by vm_band_lu, 1.3-2.3 times faster:
 * the rule's choices stand, with a wider margin; bench/README_band.md, the run with bandlu.) */
int
vm_linsolve_auto (int n, int64_t nnz, int kl, int ku)
{
  const double band = (double) n * (double) (kl + ku + 1);
  if ((double) n * (double) (2.0 * kl + ku + 1.0) > (double) INT_MAX)
    return VM_LINSOLVE_UMFPACK;
  return 16.0 * (double) nnz >= band ? VM_LINSOLVE_BANDED : VM_LINSOLVE_UMFPACK;
}

double
vm_linsolve_memory_model (int kind, double u, double umfpack, double banded)
{
  if (kind == VM_LINSOLVE_UMFPACK)
    return umfpack;
  if (kind == VM_LINSOLVE_BANDED || (kind == VM_LINSOLVE_AUTO && u <= 12.0))
    return banded;
  if (kind == VM_LINSOLVE_AUTO)
    return umfpack > banded ? umfpack : banded;
  return 0.0;
}

/* ---- small public helpers ----------------------------------------------------------------------- */

void
vm_linsolve_cache_init (vm_linsolve_cache *c)
{
  if (c)
    memset (c, 0, sizeof *c);
}

void
vm_linsolve_cache_free (vm_linsolve_cache *c)
{
  if (!c)
    return;
  if (c->sym)
    umfpack_dl_free_symbolic (&c->sym);
  memset (c, 0, sizeof *c);
}

void
vm_linsolve_opts_init (vm_linsolve_opts *o)
{
  if (!o)
    return;
  o->kind = VM_LINSOLVE_AUTO;
  o->umf_ordering = -1;
  o->umf_strategy = -1;
  o->umf_irstep = -1;
  o->cache = NULL;
  o->cond = VM_LINSOLVE_COND_PIVOT;
  o->block = 0;
  o->lean = 0;
  o->definite = 0;
  o->definite_scale = NULL;
}

int
vm_linsolve_lean_auto (int kl, int ku, double n)
{
  return kl < VM_BAND_LU_KL_MAX && (2.0 * kl + ku + 1.0) * n * sizeof (double) >= VM_LINSOLVE_LEAN_MIN;
}

const char *
vm_linsolve_name (int kind)
{
  switch (kind)
    {
    case VM_LINSOLVE_AUTO: return "auto";
    case VM_LINSOLVE_UMFPACK: return "umfpack";
    case VM_LINSOLVE_BANDED: return "banded";
    default: return "?";
    }
}

void
vm_linsolve_bandwidth (int n, const int64_t *colptr, const int64_t *rowind, int *kl, int *ku)
{
  int64_t lo = 0, up = 0, p;
  int j;
  for (j = 0; j < n; j++)
    for (p = colptr[j]; p < colptr[j + 1]; p++)
      {
        const int64_t d = rowind[p] - j;
        if (d > lo)
          lo = d;
        if (-d > up)
          up = -d;
      }
  *kl = (int) lo;
  *ku = (int) up;
}

/* FNV-1a over the pattern */
static uint64_t
pattern_hash (int n, const int64_t *colptr, const int64_t *rowind)
{
  uint64_t h = 1469598103934665603ull;
  int64_t p;
  int j;
  for (j = 0; j <= n; j++)
    h = (h ^ (uint64_t) colptr[j]) * 1099511628211ull;
  for (p = 0; p < colptr[n]; p++)
    h = (h ^ (uint64_t) rowind[p]) * 1099511628211ull;
  return h;
}

/* ---- UMFPACK backend ---------------------------------------------------------------------------- */

static int
umf_status (vm_linsolve *ls, const char *what, umf_int st)
{
  if (st == UMFPACK_ERROR_out_of_memory)
    {
      setmsg (ls, "%s: UMFPACK ran out of memory", what);
      return VM_ENOMEM;
    }
  setmsg (ls, "%s failed with UMFPACK status %ld", what, (long) st);
  return VM_EUMFPACK;
}

/* Take the analysis from the cache when it matches, else empty it and label it for this pattern
 * (umf_symbolic fills it). */
static void
umf_use_cache (vm_linsolve *ls, const vm_linsolve_opts *o)
{
  vm_linsolve_cache *c = o->cache;
  const uint64_t h = pattern_hash (ls->n, ls->colptr, ls->rowind);
  if (c->sym && c->n == ls->n && c->nnz == ls->nnz && c->hash == h
      && c->ordering == o->umf_ordering && c->strategy == o->umf_strategy)
    {
      ls->sym = c->sym;
      c->nreuse++;
    }
  else
    {
      vm_linsolve_cache_free (c);
      c->n = ls->n;
      c->nnz = ls->nnz;
      c->hash = h;
      c->ordering = o->umf_ordering;
      c->strategy = o->umf_strategy;
    }
  ls->cache = c;
}

static int
umf_init (vm_linsolve *ls, const vm_linsolve_opts *o)
{
  const int n = ls->n;
  double *ctl;
  if (o->umf_ordering < -1 || o->umf_ordering > UMFPACK_ORDERING_NONE
      || o->umf_strategy < -1 || o->umf_strategy > UMFPACK_STRATEGY_SYMMETRIC
      || o->umf_irstep < -1 || o->umf_irstep > 10)
    {
      setmsg (ls, "umf_ordering = %d, umf_strategy = %d, umf_irstep = %d: must be -1 (default) "
              "or a UMFPACK ordering (0..%d), strategy (0..%d), number of refinement steps "
              "(0..10)", o->umf_ordering, o->umf_strategy, o->umf_irstep, UMFPACK_ORDERING_NONE,
              UMFPACK_STRATEGY_SYMMETRIC);
      return VM_EARG;
    }
  ls->control = malloc (UMFPACK_CONTROL * sizeof *ls->control);
  ls->info = malloc (UMFPACK_INFO * sizeof *ls->info);
  if (VM_UMF_COPY_PATTERN)
    {
      ls->Ap = malloc ((size_t) (n + 1) * sizeof (umf_int));
      ls->Ai = malloc ((size_t) (ls->nnz > 0 ? ls->nnz : 1) * sizeof (umf_int));
    }
  if (!ls->control || !ls->info || (VM_UMF_COPY_PATTERN && (!ls->Ap || !ls->Ai)))
    {
      setmsg (ls, "out of memory for UMFPACK's pattern (n = %d, nnz = %lld)", n,
              (long long) ls->nnz);
      return VM_ENOMEM;
    }
  if (VM_UMF_COPY_PATTERN)
    {
      umf_int *ap = ls->Ap, *ai = ls->Ai;
      int64_t p;
      int j;
      for (j = 0; j <= n; j++)
        ap[j] = (umf_int) ls->colptr[j];
      for (p = 0; p < ls->nnz; p++)
        ai[p] = (umf_int) ls->rowind[p];
    }
  ctl = ls->control;
  umfpack_dl_defaults (ctl);
  if (o->umf_ordering >= 0)
    ctl[UMFPACK_ORDERING] = o->umf_ordering;
  if (o->umf_strategy >= 0)
    ctl[UMFPACK_STRATEGY] = o->umf_strategy;
  if (o->umf_irstep >= 0)
    ctl[UMFPACK_IRSTEP] = o->umf_irstep;
  if (o->cache)
    umf_use_cache (ls, o);
  return VM_OK;
}

static const umf_int *
umf_ap (const vm_linsolve *ls)
{
  return VM_UMF_COPY_PATTERN ? (const umf_int *) ls->Ap : (const umf_int *) (const void *) ls->colptr;
}

/* UMFPACK refuses a NULL Ai even with no entries: an empty pattern's rowind may be NULL */
static const umf_int umf_no_rows[1] = { 0 };

static const umf_int *
umf_ai (const vm_linsolve *ls)
{
  if (VM_UMF_COPY_PATTERN)
    return (const umf_int *) ls->Ai;
  return ls->rowind ? (const umf_int *) (const void *) ls->rowind : umf_no_rows;
}

/* The symbolic analysis, at the first factorization (a solve that needs none analyses nothing),
 * into the cache when there is one. */
static int
umf_symbolic (vm_linsolve *ls)
{
  double t0 = wall ();
  umf_int st = umfpack_dl_symbolic (ls->n, ls->n, umf_ap (ls), umf_ai (ls), NULL, &ls->sym,
                                    ls->control, ls->info);
  ls->t_symbolic += wall () - t0;
  ls->nsymbolic++;
  if (st != UMFPACK_OK)
    {
      ls->sym = NULL;
      return umf_status (ls, "symbolic analysis", st);
    }
  if (ls->cache)
    ls->cache->sym = ls->sym;
  return VM_OK;
}

static int
umf_factor (vm_linsolve *ls, const double *Ax)
{
  umf_int st;
  double t0;
  int rc;
  if (!ls->sym && (rc = umf_symbolic (ls)) != VM_OK)
    return rc;
  vm_linsolve_release (ls);
  t0 = wall ();
  st = umfpack_dl_numeric (umf_ap (ls), umf_ai (ls), Ax, ls->sym, &ls->num, ls->control, ls->info);
  ls->t_numeric += wall () - t0;
  ls->nfactor++;
  if (st < 0)
    {
      vm_linsolve_release (ls);
      return umf_status (ls, "numeric factorization", st);
    }
  ls->rcond = ls->info[UMFPACK_RCOND];
  ls->singular = st == UMFPACK_WARNING_singular_matrix || !(ls->rcond >= DBL_EPSILON);
  return VM_OK;
}

static int
umf_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x)
{
  double t0 = wall ();
  umf_int st = umfpack_dl_solve (UMFPACK_A, umf_ap (ls), umf_ai (ls), Ax, x, b, ls->num,
                                 ls->control, ls->info);
  ls->t_solve += wall () - t0;
  ls->nsolve++;
  if (st < 0)
    return umf_status (ls, "solve", st);
  if (st != UMFPACK_OK)
    ls->singular = 1;
  return VM_OK;
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
  ls->pos = malloc ((size_t) n * sizeof *ls->pos);
  if (!ls->pos)
    {
      setmsg (ls, "out of memory for the relabeling of %d unknowns", n);
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
      free (ls->pos);
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
  ls->u = vm_bigalloc_lazy ((size_t) (kv + 1) * (size_t) n, sizeof *ls->u);
  ls->up = malloc (((size_t) n + 1) * sizeof *ls->up);
  ls->win = malloc ((size_t) ls->winw * (size_t) ls->ldab * sizeof *ls->win);
  ls->rs = malloc ((size_t) n * sizeof *ls->rs);
  ls->work = malloc (2 * (size_t) n * sizeof *ls->work);
  if (!ls->u || !ls->up || !ls->win || !ls->rs || !ls->work)
    {
      setmsg (ls, "out of memory for U (%d x %d doubles)", kv + 1, n);
      return VM_ENOMEM;
    }
  return VM_OK;
}

static int
band_init (vm_linsolve *ls, int block, int lean, int cond)
{
  const int n = ls->n;
  int64_t ldab;
  int st = band_relabel (ls, block);
  if (st != VM_OK)
    return st;
  ldab = 2 * (int64_t) ls->bkl + ls->bku + 1;
  if (ldab * (int64_t) n > INT_MAX)
    {
      setmsg (ls, "the band of %lld x %d entries (kl = %d, ku = %d) exceeds LAPACK's 32-bit "
              "indices", (long long) ldab, n, ls->bkl, ls->bku);
      return VM_EARG;
    }
  ls->ldab = (int) ldab;
  if (ls->bkl < VM_BAND_LU_KL_MAX && cond == VM_LINSOLVE_COND_PIVOT
      && (lean == 1 || (lean == VM_LINSOLVE_LEAN_AUTO && vm_linsolve_lean_auto (ls->bkl, ls->bku, n))))
    return band_init_lean (ls);
  /* zeroed: the first fill need not clear the band (fresh zero pages: the zeroing is the first
   * touch, which the first factorization pays anyway; with fewer faults where the system allows
   * it, vm_bigalloc.h) */
  ls->ab = vm_bigalloc_zero ((size_t) ldab * (size_t) n, sizeof *ls->ab);
  ls->ab_zero = 1;
  ls->rs = malloc ((size_t) n * sizeof *ls->rs);
  ls->work = malloc (2 * (size_t) n * sizeof *ls->work);
  ls->ipiv = malloc ((size_t) n * sizeof *ls->ipiv);
  ls->iwork = malloc ((size_t) n * sizeof *ls->iwork);
  if (!ls->ab || !ls->rs || !ls->work || !ls->ipiv || !ls->iwork)
    {
      setmsg (ls, "out of memory for the band (%lld x %d doubles)", (long long) ldab, n);
      return VM_ENOMEM;
    }
  return VM_OK;
}

/* The position of the diagonal entry in column j (rows sorted), or -1 */
static int64_t
diag_entry (const int64_t *colptr, const int64_t *rowind, int j)
{
  int64_t lo = colptr[j], hi = colptr[j + 1] - 1;
  while (lo <= hi)
    {
      const int64_t mid = lo + (hi - lo) / 2;
      if (rowind[mid] == j)
        return mid;
      if (rowind[mid] < j)
        lo = mid + 1;
      else
        hi = mid - 1;
    }
  return -1;
}

/* Option definite on the banded backend: kl = ku, the scales checked, the column scales */
static int
band_init_definite (vm_linsolve *ls, const vm_linsolve_opts *o)
{
  int i;
  if (ls->bkl != ls->bku)
    {
      setmsg (ls, "option definite needs a symmetric band: kl = %d, ku = %d", ls->bkl, ls->bku);
      return VM_EARG;
    }
  if (o->definite_scale)
    for (i = 0; i < ls->n; i++)
      if (! (o->definite_scale[i] > 0.0) || ! (o->definite_scale[i] <= DBL_MAX))
        {
          setmsg (ls, "option definite_scale: entry %d is %g; must be positive and finite", i,
                  o->definite_scale[i]);
          return VM_EARG;
        }
  ls->cs = malloc ((size_t) ls->n * sizeof *ls->cs);
  ls->dpos = malloc ((size_t) ls->n * sizeof *ls->dpos);
  if (!ls->cs || !ls->dpos)
    {
      setmsg (ls, "out of memory for the column scales of %d unknowns", ls->n);
      return VM_ENOMEM;
    }
  for (i = 0; i < ls->n; i++)
    ls->dpos[i] = diag_entry (ls->colptr, ls->rowind, i);
  ls->definite = o->definite;
  ls->dscale = o->definite_scale;
  return VM_OK;
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
 * scaled while it is still in the cache (kl + ku + 1 columns behind: 14 kB for the dual Lorenz).
 * Each band entry is written once from memory's view, where a clear, a fill and a scaling pass
 * went over the band three times; and no sum of |R A| (a chain of dependent additions, 4 cycles
 * an entry) unless asked for.  The products are those of scaling each value as it is stored.  The
 * dual Lorenz at N = 4096 (n = 12285, kl = ku = 17): one factorization (fill and LU) 2.0 -> 1.7
 * ms.  The row sums in the band's column order: with option block that order differs
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
 * entries per column on these Jacobians -- O(n^2), 18 s of dgbcon against 0.33 s of dgbtrf at
 * n = 196608 (the disk in full mode, N = 16384; bench/README_band.md).  A solve that overflows
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

/* ---- the Cholesky path of option definite ----------------------------------------------------- */

/* The scales of C = S B S, B = sign diag (d) A: cs = S, rs = sign d S (original labels).  Returns
 * 0, or 1 when a diagonal entry of B is not positive and finite (B is not positive definite). */
static int
chol_scales (vm_linsolve *ls, const double *Ax)
{
  const double sgn = ls->definite > 0 ? 1.0 : -1.0, *d = ls->dscale;
  int j;
  for (j = 0; j < ls->n; j++)
    {
      const int64_t q = ls->dpos[j];
      const double bjj = q < 0 ? 0.0 : sgn * (d ? d[j] : 1.0) * Ax[q];
      if (! (bjj > 0.0) || ! (bjj <= DBL_MAX))
        return 1;
      ls->cs[j] = 1.0 / sqrt (bjj);
      ls->rs[j] = sgn * (d ? d[j] : 1.0) * ls->cs[j];
    }
  return 0;
}

/* Columns j0 .. j1 - 1 (band labels) of the lower band of C in LAPACK's "L" storage (leading
 * dimension bkl + 1), from the scales of chol_scales */
static void
chol_fill (vm_linsolve *ls, const double *Ax, int j0, int j1)
{
  const int n = ls->n, kd = ls->bkl, ldc = kd + 1;
  const int64_t *cp = ls->colptr, *ri = ls->rowind, *dg = ls->dpos;
  const int *pos = ls->pos;
  const double *sc = ls->cs;
  int64_t p;
  int i, j, jb;
  for (jb = j0; jb < j1; jb++)
    {
      double *col = ls->ab + (size_t) jb * (size_t) ldc - jb;   /* col[rb]: row rb */
      const int kn = kd < n - 1 - jb ? kd : n - 1 - jb;
      j = pos ? pos[jb] : jb;
      for (i = jb; i <= jb + kn; i++)
        col[i] = 0.0;
      if (pos)
        for (p = cp[j]; p < cp[j + 1]; p++)
          {
            const int r = ri[p], rb = pos[r];
            if (rb >= jb)
              col[rb] = (ls->rs[r] * Ax[p]) * sc[j];
          }
      else   /* the rows from the diagonal on: the lower triangle */
        for (p = dg[j]; p < cp[j + 1]; p++)
          col[ri[p]] = (ls->rs[ri[p]] * Ax[p]) * sc[j];
    }
}

/* Columns filled and factored together (chol_factor): 64 columns and the kd that their steps
 * update stay in the L1 cache between the fill and the factorization (20 kB at kd = 17) */
#define VM_CHOL_BLOCK 64

/* The Cholesky factorization of C, filled block by block ahead of the steps: 0, or as
 * vm_band_chol (j + 1: not positive definite, also 1 for a diagonal entry of B that is not
 * positive and finite) */
static int
chol_factor (vm_linsolve *ls, const double *Ax)
{
  const int n = ls->n, kd = ls->bkl;
  int j0, filled = 0, info;
  if (chol_scales (ls, Ax))
    return 1;
  for (j0 = 0; j0 < n; j0 += VM_CHOL_BLOCK)
    {
      const int j1 = j0 + VM_CHOL_BLOCK < n ? j0 + VM_CHOL_BLOCK : n;
      const int need = j1 + kd < n ? j1 + kd : n;
      chol_fill (ls, Ax, filled, need);
      filled = need;
      if ((info = vm_band_chol_steps (n, kd, ls->ab, kd + 1, j0, j1)) != 0)
        return info;
    }
  return 0;
}

/* (min L_jj / max L_jj)^2 of the Cholesky factor in ab: the pivot ratio of C's LU without
 * pivoting (U_jj = L_jj^2), the LU path's test (band_rcond_pivot) for C */
static void
chol_rcond (vm_linsolve *ls)
{
  const int ldc = ls->bkl + 1;
  double lo = INFINITY, hi = 0.0;
  int j;
  for (j = 0; j < ls->n; j++)
    {
      const double a = ls->ab[(size_t) j * (size_t) ldc];
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
    }
  ls->rcond = hi > 0.0 ? (lo / hi) * (lo / hi) : 0.0;
}

/* Option definite: the Cholesky factorization of C.  Returns 1 when it is held (ls->chol), 0
 * when C is not positive definite: the caller then factors the LU of the same values. */
static int
band_factor_chol (vm_linsolve *ls, const double *Ax)
{
  double t0 = wall (), t1;
  int info;
  ls->chol = 0;
  ls->ab_zero = 0;   /* the LU's fill must clear what this one wrote */
  info = chol_factor (ls, Ax);
  if (info != 0)
    {
      ls->t_numeric += wall () - t0;   /* the attempt's time counts */
      ls->nchol_fail++;
      return 0;
    }
  ls->chol = 1;
  ls->nchol++;
  ls->nfactor++;
  t1 = wall ();
  chol_rcond (ls);
  ls->t_rcond += wall () - t1;
  ls->t_numeric += wall () - t0;
  ls->singular = !(ls->rcond >= DBL_EPSILON);
  return 1;
}

static int
band_solve_chol (vm_linsolve *ls, const double *b, double *x)
{
  const int n = ls->n;
  double t0 = wall ();
  double *y = ls->pos ? ls->work : x;
  int i;
  for (i = 0; i < n; i++)
    y[ls->pos ? ls->pos[i] : i] = ls->rs[i] * b[i];
  vm_band_chol_solve (n, ls->bkl, ls->ab, ls->bkl + 1, y);
  for (i = 0; i < n; i++)
    x[i] = ls->cs[i] * y[ls->pos ? ls->pos[i] : i];
  ls->t_solve += wall () - t0;
  ls->nsolve++;
  return VM_OK;
}

/* ---- the banded LU ---------------------------------------------------------------------------- */

static int
band_factor (vm_linsolve *ls, const double *Ax)
{
  const int n = ls->n;
  double t0, anorm;
  int info = 0;
  if (ls->definite && band_factor_chol (ls, Ax))
    return VM_OK;
  ls->chol = 0;
  t0 = wall ();
  anorm = band_fill (ls, Ax, ls->cond == VM_LINSOLVE_COND_NORM1);
  if (ls->bkl < VM_BAND_LU_KL_MAX)
    info = vm_band_lu (n, ls->bkl, ls->bku, ls->ab, ls->ldab, ls->ipiv);
  else
    dgbtrf_ (&n, &n, &ls->bkl, &ls->bku, ls->ab, &ls->ldab, ls->ipiv, &info);
  ls->nfactor++;
  ls->rcond = 0.0;
  if (info == 0)
    {
      double t1 = wall ();
      if (ls->cond == VM_LINSOLVE_COND_NORM1)
        info = band_rcond_norm1 (ls, anorm);
      else
        band_rcond_pivot (ls);
      ls->t_rcond += wall () - t1;
    }
  ls->t_numeric += wall () - t0;
  if (info < 0)
    {
      setmsg (ls, "the banded LU (vm_band_lu) or dgbtrs refused an argument (%d)", info);
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
    return band_solve_chol (ls, b, x);
  t0 = wall ();
  for (i = 0; i < n; i++)
    y[ls->pos ? ls->pos[i] : i] = ls->rs[i] * b[i];
  if (ls->bkl < VM_BAND_LU_KL_MAX)
    vm_band_solve (n, ls->bkl, ls->bku, ls->ab, ls->ldab, ls->ipiv, y);
  else
    dgbtrs_ ("N", &n, &ls->bkl, &ls->bku, &one, ls->ab, &ls->ldab, ls->ipiv, y, &n, &info, 1);
  if (ls->pos)
    for (i = 0; i < n; i++)
      x[i] = y[ls->pos[i]];
  ls->t_solve += wall () - t0;
  ls->nsolve++;
  if (info < 0)
    {
      setmsg (ls, "dgbtrs refused its argument %d", -info);
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
  if (je1 <= je)
    return 0;
  st = vm_band_lu_window (ls->n, ls->bkl, ls->bku, ls->win + (size_t) (je - c0) * ls->ldab,
                          ls->ldab, je, je1, ju, y, ls->u, ls->up);
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
  double t0 = wall (), t1, lo = INFINITY, hi = 0.0;
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
  t1 = wall ();
  ls->t_numeric += t1 - t0;
  if (st < 0)
    {
      setmsg (ls, "the banded LU (vm_band_lu_window) refused an argument (%d)", st);
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
  ls->t_solve += wall () - t1;
  return VM_OK;
}

/* ---- the interface ------------------------------------------------------------------------------ */

int
vm_linsolve_init (vm_linsolve *ls, int n, const int64_t *colptr, const int64_t *rowind,
                  const vm_linsolve_opts *o)
{
  vm_linsolve_opts defaults;
  int st;
  memset (ls, 0, sizeof *ls);
  if (!o)
    {
      vm_linsolve_opts_init (&defaults);
      o = &defaults;
    }
  ls->n = n;
  ls->colptr = colptr;
  ls->rowind = rowind;
  ls->rcond = NAN;
  if (n < 1 || !colptr || (colptr[n] > 0 && !rowind))
    {
      setmsg (ls, "n = %d or the pattern is not valid", n);
      return VM_EARG;
    }
  ls->nnz = colptr[n];
  vm_linsolve_bandwidth (n, colptr, rowind, &ls->kl, &ls->ku);
  ls->cond = o->cond;
  if (o->cond != VM_LINSOLVE_COND_PIVOT && o->cond != VM_LINSOLVE_COND_NORM1)
    {
      setmsg (ls, "condition estimate %d: must be VM_LINSOLVE_COND_PIVOT or _NORM1", o->cond);
      return VM_EARG;
    }
  if (o->kind == VM_LINSOLVE_AUTO)
    ls->kind = vm_linsolve_auto (n, ls->nnz, ls->kl, ls->ku);
  else if (o->kind == VM_LINSOLVE_UMFPACK || o->kind == VM_LINSOLVE_BANDED)
    ls->kind = o->kind;
  else
    {
      setmsg (ls, "linear solver %d: must be VM_LINSOLVE_AUTO, _UMFPACK or _BANDED", o->kind);
      return VM_EARG;
    }
  if (o->lean != 0 && o->lean != 1 && o->lean != VM_LINSOLVE_LEAN_AUTO)
    {
      setmsg (ls, "option lean %d: must be 0, 1 or VM_LINSOLVE_LEAN_AUTO", o->lean);
      return VM_EARG;
    }
  if (o->definite != 0 && o->definite != 1 && o->definite != -1)
    {
      setmsg (ls, "option definite %d: must be 0, 1 or -1", o->definite);
      return VM_EARG;
    }
  if (ls->kind == VM_LINSOLVE_UMFPACK)
    return umf_init (ls, o);
  st = band_init (ls, o->block, o->lean, o->cond);
  if (st == VM_OK && o->definite != 0 && !ls->lean && o->cond == VM_LINSOLVE_COND_PIVOT)
    st = band_init_definite (ls, o);
  return st;
}

int
vm_linsolve_factor (vm_linsolve *ls, const double *Ax)
{
  ls->singular = 1;
  ls->Ax = Ax;
  if (ls->lean)
    {
      setmsg (ls, "the U-only band (option lean) factors with its solve: vm_linsolve_factor_solve");
      return VM_EARG;
    }
  return ls->kind == VM_LINSOLVE_BANDED ? band_factor (ls, Ax) : umf_factor (ls, Ax);
}

int
vm_linsolve_solve (vm_linsolve *ls, const double *b, double *x)
{
  if (ls->singular || ls->lean || (ls->kind == VM_LINSOLVE_UMFPACK && !ls->num)
      || (ls->kind == VM_LINSOLVE_BANDED && ls->nfactor == 0))
    {
      setmsg (ls, ls->lean ? "a second solve with a U-only factorization (option lean)"
              : "solve without a nonsingular factorization");
      return VM_EARG;
    }
  return ls->kind == VM_LINSOLVE_BANDED ? band_solve (ls, b, x) : umf_solve (ls, ls->Ax, b, x);
}

int
vm_linsolve_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x)
{
  int st;
  if (ls->lean)
    {
      ls->singular = 1;
      ls->Ax = Ax;
      return band_factor_solve_lean (ls, Ax, b, x);
    }
  if ((st = vm_linsolve_factor (ls, Ax)) != VM_OK || ls->singular)
    return st;
  return vm_linsolve_solve (ls, b, x);
}

void
vm_linsolve_release (vm_linsolve *ls)
{
  if (ls && ls->num)
    umfpack_dl_free_numeric (&ls->num);
}

void
vm_linsolve_free (vm_linsolve *ls)
{
  if (!ls)
    return;
  vm_linsolve_release (ls);
  if (ls->sym && !ls->cache)
    umfpack_dl_free_symbolic (&ls->sym);
  free (ls->Ap);
  free (ls->Ai);
  free (ls->control);
  free (ls->info);
  vm_bigalloc_free (ls->ab, (size_t) ls->ldab * (size_t) ls->n, sizeof *ls->ab);
  vm_bigalloc_free (ls->u, (size_t) (ls->bkl + ls->bku + 1) * (size_t) ls->n, sizeof *ls->u);
  free (ls->up);
  free (ls->win);
  free (ls->rs);
  free (ls->work);
  free (ls->ipiv);
  free (ls->iwork);
  free (ls->pos);
  free (ls->cs);
  free (ls->dpos);
  memset (ls, 0, sizeof *ls);
}
