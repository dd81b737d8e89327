/* test_linsolve.c -- unit tests of Newton's linear solvers (csrc/la/linsolve.c): UMFPACK's sparse LU
 * and LAPACK's banded LU behind one interface, no Octave.
 *
 * Matrices (built dense, with NaN marking the entries outside the pattern; explicit zeros in the
 * pattern are kept, as the Jacobians of the actions have them):
 *   band     n = 300, kl = 3, ku = 5, random entries on 60 % of the band (the band's corners
 *            always present), a diagonal that vanishes in every 7th column (the entry below it
 *            large): partial pivoting must swap rows; x_true = sin(1 + i), b = A x_true.
 *   lower4   n = 120, kl = 4, ku = 1;  upper4: kl = 0, ku = 4 (a triangular band).
 *   arrow    n = 80: the first row and column full, the diagonal, 2 more random entries per
 *            column: kl = ku = n - 1, not banded (AUTO must pick UMFPACK; the banded backend
 *            still solves it, with a band of 3n - 2 rows).
 * Both backends (UMFPACK with its defaults and with skg_solve's options: natural ordering,
 * unsymmetric strategy, no refinement) must give the same solution to 1e-12 relative in the
 * max-norm: the matrices are well conditioned (1-norm condition estimates printed: below 1e3), so
 * both LU solves with partial pivoting are within a few hundred eps of x_true, and the check
 * against x_true is the same bound.
 * Singular matrices on a band: an exactly zero column (dgbtrf's info > 0, UMFPACK's
 * singular-matrix warning) and a 2 x 2 block [1 1; 1 1 + eps] among unit blocks (nonzero pivots,
 * but min |U_ii| / max |U_ii| = eps / 2 below DBL_EPSILON after the row scaling, and the 1-norm
 * estimate below it too): both backends and both estimates report singular; diag (1 .. n) is
 * the identity after the row scaling (to rounding): pivot ratio and 1-norm estimate 1.
 * kl / ku: vm_linsolve_bandwidth on these patterns, the diagonal, one far entry.
 * The interface: bad kind or estimate, solve before a factorization or after a singular one,
 * a band beyond LAPACK's 32-bit indices (refused; AUTO picks UMFPACK), the symbolic cache
 * (reused by UMFPACK, untouched by the banded backend), release. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "la/linsolve.h"
#include "base/vm_status.h"
#include "vmtest.h"

typedef struct
{
  int n;
  int64_t *cp, *ri;
  double *ax;
} csc_t;

/* CSC from a dense column-major n x n array; NaN: not in the pattern. */
static void
csc_from_dense (int n, const double *A, csc_t *m)
{
  int64_t p = 0, cnt = 0;
  int i, j;
  for (i = 0; i < n * n; i++)
    cnt += !isnan (A[i]);
  m->n = n;
  m->cp = malloc ((size_t) (n + 1) * sizeof *m->cp);
  m->ri = malloc ((size_t) (cnt > 0 ? cnt : 1) * sizeof *m->ri);
  m->ax = malloc ((size_t) (cnt > 0 ? cnt : 1) * sizeof *m->ax);
  for (j = 0; j < n; j++)
    {
      m->cp[j] = p;
      for (i = 0; i < n; i++)
        if (!isnan (A[i + (size_t) n * j]))
          {
            m->ri[p] = i;
            m->ax[p++] = A[i + (size_t) n * j];
          }
    }
  m->cp[n] = p;
}

static void
csc_free (csc_t *m)
{
  free (m->cp);
  free (m->ri);
  free (m->ax);
}

static double
urand (unsigned *s)   /* uniform in [0, 1), a fixed LCG: the same matrices on every platform */
{
  *s = *s * 1103515245u + 12345u;
  return (double) ((*s >> 8) & 0xffffff) / 16777216.0;
}

/* band: kl, ku, fill fraction, a vanishing diagonal in every 7th column (when kl > 0) */
static double *
dense_band (int n, int kl, int ku, double fill, unsigned seed)
{
  double *A = malloc ((size_t) n * n * sizeof *A);
  int i, j;
  for (i = 0; i < n * n; i++)
    A[i] = NAN;
  for (j = 0; j < n; j++)
    for (i = j - ku; i <= j + kl; i++)
      if (i >= 0 && i < n && (i == j || i - j == kl || j - i == ku || urand (&seed) < fill))
        A[i + (size_t) n * j] = i == j ? 2.0 + urand (&seed) : 0.6 * (urand (&seed) - 0.5);
  if (kl > 0)
    for (j = 0; j + 1 < n; j += 7)
      {
        A[j + (size_t) n * j] = 0.0;   /* in the pattern, value 0 */
        A[j + 1 + (size_t) n * j] = 3.0;
        if (ku > 0)
          A[j + (size_t) n * (j + 1)] = 1.0;   /* row j: the block [0 1; 3 d] */
      }
  return A;
}

static double *
dense_arrow (int n, unsigned seed)
{
  double *A = malloc ((size_t) n * n * sizeof *A);
  int i, j, k;
  for (i = 0; i < n * n; i++)
    A[i] = NAN;
  for (j = 0; j < n; j++)
    {
      A[(size_t) n * j] = 0.1 * (urand (&seed) - 0.5);
      A[j] = 0.1 * (urand (&seed) - 0.5);
      A[j + (size_t) n * j] = 4.0 + urand (&seed);
      for (k = 0; k < 2; k++)
        {
          i = (int) (urand (&seed) * n);
          A[i + (size_t) n * j] = i == j ? 4.0 : 0.3 * (urand (&seed) - 0.5);
        }
    }
  A[0] = 10.0;
  return A;
}

static double
maxrel (int n, const double *x, const double *y)
{
  double d = 0.0, m = 0.0;
  int i;
  for (i = 0; i < n; i++)
    {
      d = fmax (d, fabs (x[i] - y[i]));
      m = fmax (m, fabs (y[i]));
    }
  return d / m;
}

/* b = A x (b overwritten) */
static void
csc_times (const csc_t *m, const double *x, double *b)
{
  int64_t p;
  int i, j;
  for (i = 0; i < m->n; i++)
    b[i] = 0.0;
  for (j = 0; j < m->n; j++)
    for (p = m->cp[j]; p < m->cp[j + 1]; p++)
      b[m->ri[p]] += m->ax[p] * x[j];
}

/* init with options o, factor A's values, solve A x = b: the first non-OK status */
static int
factor_solve (vm_linsolve *ls, const csc_t *m, const vm_linsolve_opts *o, const double *b,
              double *x)
{
  int st = vm_linsolve_init (ls, m->n, m->cp, m->ri, o);
  st = st ? st : vm_linsolve_factor (ls, m->ax);
  return st ? st : vm_linsolve_solve (ls, b, x);
}

/* Solve with UMFPACK (its defaults and skg_solve's options) and the banded LU, compare with each
 * other and with x_true; the bandwidths and AUTO's choice. */
static void
check_solvers (const char *name, const csc_t *m, int kl_want, int ku_want, int auto_want)
{
  const int n = m->n;
  double *xt = malloc ((size_t) n * sizeof *xt), *b = calloc ((size_t) n, sizeof *b);
  double *xu = malloc ((size_t) n * sizeof *xu), *xs = malloc ((size_t) n * sizeof *xs);
  double *xb = malloc ((size_t) n * sizeof *xb);
  vm_linsolve lu, ls, lb, l1;
  vm_linsolve_opts o;
  int i, j, st;
  int64_t p;
  for (i = 0; i < n; i++)
    xt[i] = sin (1.0 + i);
  for (j = 0; j < n; j++)
    for (p = m->cp[j]; p < m->cp[j + 1]; p++)
      b[m->ri[p]] += m->ax[p] * xt[j];
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_UMFPACK;
  st = vm_linsolve_init (&lu, n, m->cp, m->ri, &o);
  st = st ? st : vm_linsolve_factor (&lu, m->ax);
  st = st ? st : vm_linsolve_solve (&lu, b, xu);
  CHECK (st == VM_OK && !lu.singular && lu.kind == VM_LINSOLVE_UMFPACK, "%s: UMFPACK: %s", name,
         lu.message);
  o.umf_ordering = VM_UMF_ORDERING_NONE;
  o.umf_strategy = VM_UMF_STRATEGY_UNSYMMETRIC;
  o.umf_irstep = 0;
  st = vm_linsolve_init (&ls, n, m->cp, m->ri, &o);
  st = st ? st : vm_linsolve_factor (&ls, m->ax);
  st = st ? st : vm_linsolve_solve (&ls, b, xs);
  CHECK (st == VM_OK && !ls.singular, "%s: UMFPACK (skg_solve's options): %s", name, ls.message);
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_BANDED;
  st = vm_linsolve_init (&lb, n, m->cp, m->ri, &o);
  st = st ? st : vm_linsolve_factor (&lb, m->ax);
  st = st ? st : vm_linsolve_solve (&lb, b, xb);
  CHECK (st == VM_OK && !lb.singular && lb.kind == VM_LINSOLVE_BANDED
         && lb.ldab == 2 * kl_want + ku_want + 1, "%s: banded: %s", name, lb.message);
  o.cond = VM_LINSOLVE_COND_NORM1;
  st = vm_linsolve_init (&l1, n, m->cp, m->ri, &o);
  st = st ? st : vm_linsolve_factor (&l1, m->ax);
  CHECK (st == VM_OK && !l1.singular && l1.rcond > 1e-3, "%s: 1-norm rcond %.3e: %s", name,
         l1.rcond, l1.message);
  printf ("info: %s: n %d, nnz %lld, kl %d, ku %d, rcond UMFPACK %.3e, banded pivot ratio %.3e, "
          "1-norm %.3e; |x_band - x_umf| %.2e, |x_skg - x_umf| %.2e, |x_umf - x_true| %.2e, "
          "|x_band - x_true| %.2e (relative, max-norm)\n", name, n, (long long) m->cp[n], lb.kl,
          lb.ku, lu.rcond, lb.rcond, l1.rcond, maxrel (n, xb, xu), maxrel (n, xs, xu),
          maxrel (n, xu, xt), maxrel (n, xb, xt));
  CHECK (lb.kl == kl_want && lb.ku == ku_want && lu.kl == kl_want && lu.ku == ku_want,
         "%s: kl %d ku %d (want %d %d)", name, lb.kl, lb.ku, kl_want, ku_want);
  CHECK (vm_linsolve_auto (n, m->cp[n], lb.kl, lb.ku) == auto_want, "%s: AUTO picks %s", name,
         vm_linsolve_name (vm_linsolve_auto (n, m->cp[n], lb.kl, lb.ku)));
  CHECK (maxrel (n, xb, xu) <= 1e-12 && maxrel (n, xs, xu) <= 1e-12, "%s: backends differ by "
         "%.2e, %.2e", name, maxrel (n, xb, xu), maxrel (n, xs, xu));
  CHECK (maxrel (n, xu, xt) <= 1e-12 && maxrel (n, xb, xt) <= 1e-12, "%s: errors %.2e, %.2e", name,
         maxrel (n, xu, xt), maxrel (n, xb, xt));
  /* the banded factors stay after release; UMFPACK's do not */
  vm_linsolve_release (&lb);
  vm_linsolve_release (&lu);
  CHECK (vm_linsolve_solve (&lb, b, xb) == VM_OK && maxrel (n, xb, xu) <= 1e-12
         && vm_linsolve_solve (&lu, b, xu) == VM_EARG, "%s: solves after release", name);
  vm_linsolve_free (&lu);
  vm_linsolve_free (&ls);
  vm_linsolve_free (&lb);
  vm_linsolve_free (&l1);
  vm_linsolve_free (NULL);
  free (xt);
  free (b);
  free (xu);
  free (xs);
  free (xb);
}

static void
test_solves (void)
{
  static const struct { const char *name; int n, kl, ku; } bands[] = {
    { "band (3, 5)", 300, 3, 5 }, { "lower4 (4, 1)", 120, 4, 1 }, { "upper4 (0, 4)", 120, 0, 4 } };
  size_t c;
  double *A;
  csc_t m;
  for (c = 0; c < sizeof bands / sizeof bands[0]; c++)
    {
      A = dense_band (bands[c].n, bands[c].kl, bands[c].ku, 0.6, 7u + (unsigned) c);
      csc_from_dense (bands[c].n, A, &m);
      check_solvers (bands[c].name, &m, bands[c].kl, bands[c].ku, VM_LINSOLVE_BANDED);
      csc_free (&m);
      free (A);
    }
  A = dense_arrow (80, 5u);
  csc_from_dense (80, A, &m);
  check_solvers ("arrow", &m, 79, 79, VM_LINSOLVE_UMFPACK);
  csc_free (&m);
  free (A);
}

/* factor with a backend and estimate; returns singular, the rcond in *rc */
static int
singular_by (const csc_t *m, int kind, int cond, double *rc)
{
  vm_linsolve ls;
  vm_linsolve_opts o;
  double *b = calloc ((size_t) m->n, sizeof *b), *x = malloc ((size_t) m->n * sizeof *x);
  int st, sing;
  vm_linsolve_opts_init (&o);
  o.kind = kind;
  o.cond = cond;
  st = vm_linsolve_init (&ls, m->n, m->cp, m->ri, &o);
  st = st ? st : vm_linsolve_factor (&ls, m->ax);
  sing = st == VM_OK ? ls.singular : -1;
  *rc = ls.rcond;
  /* a singular factorization is not solved with */
  if (sing == 1)
    CHECK (vm_linsolve_solve (&ls, b, x) == VM_EARG, "solve after a singular factorization");
  vm_linsolve_free (&ls);
  free (b);
  free (x);
  return sing;
}

static void
test_singular (void)
{
  const int n = 60;
  double *A = dense_band (n, 2, 2, 0.6, 11u), rc[3];
  csc_t m;
  int i, j, s[3];
  /* an exactly zero column, structurally present */
  for (i = 0; i < n; i++)
    if (!isnan (A[i + (size_t) n * 10]))
      A[i + (size_t) n * 10] = 0.0;
  csc_from_dense (n, A, &m);
  s[0] = singular_by (&m, VM_LINSOLVE_UMFPACK, VM_LINSOLVE_COND_PIVOT, &rc[0]);
  s[1] = singular_by (&m, VM_LINSOLVE_BANDED, VM_LINSOLVE_COND_PIVOT, &rc[1]);
  s[2] = singular_by (&m, VM_LINSOLVE_BANDED, VM_LINSOLVE_COND_NORM1, &rc[2]);
  CHECK (s[0] == 1 && s[1] == 1 && s[2] == 1 && rc[1] == 0.0 && rc[2] == 0.0,
         "zero column: singular %d %d %d, rcond %.3e %.3e %.3e", s[0], s[1], s[2], rc[0], rc[1],
         rc[2]);
  csc_free (&m);
  /* unit 2 x 2 blocks (tridiagonal pattern), one of them [1 1; 1 1 + eps] */
  for (i = 0; i < n * n; i++)
    A[i] = NAN;
  for (j = 0; j < n; j += 2)
    {
      A[j + (size_t) n * j] = 1.0;
      A[j + 1 + (size_t) n * j] = 0.0;
      A[j + (size_t) n * (j + 1)] = 0.0;
      A[j + 1 + (size_t) n * (j + 1)] = 1.0;
    }
  A[21 + (size_t) n * 20] = A[20 + (size_t) n * 21] = 1.0;
  A[21 + (size_t) n * 21] = 1.0 + DBL_EPSILON;
  csc_from_dense (n, A, &m);
  s[0] = singular_by (&m, VM_LINSOLVE_UMFPACK, VM_LINSOLVE_COND_PIVOT, &rc[0]);
  s[1] = singular_by (&m, VM_LINSOLVE_BANDED, VM_LINSOLVE_COND_PIVOT, &rc[1]);
  s[2] = singular_by (&m, VM_LINSOLVE_BANDED, VM_LINSOLVE_COND_NORM1, &rc[2]);
  printf ("info: block [1 1; 1 1+eps]: rcond UMFPACK %.3e, banded pivot ratio %.3e, 1-norm %.3e\n",
          rc[0], rc[1], rc[2]);
  CHECK (s[0] == 1 && s[1] == 1 && s[2] == 1 && rc[1] > 0.0 && rc[1] < DBL_EPSILON && rc[2] > 0.0
         && rc[2] < DBL_EPSILON, "nearly singular block: singular %d %d %d, rcond %.3e %.3e %.3e",
         s[0], s[1], s[2], rc[0], rc[1], rc[2]);
  /* the same with 1 + 64 eps: not singular (pivot ratio 32 eps, 1-norm estimate 16 eps) */
  A[21 + (size_t) n * 21] = 1.0 + 64.0 * DBL_EPSILON;
  csc_free (&m);
  csc_from_dense (n, A, &m);
  s[1] = singular_by (&m, VM_LINSOLVE_BANDED, VM_LINSOLVE_COND_PIVOT, &rc[1]);
  s[2] = singular_by (&m, VM_LINSOLVE_BANDED, VM_LINSOLVE_COND_NORM1, &rc[2]);
  CHECK (s[1] == 0 && s[2] == 0, "block [1 1; 1 1+64 eps]: singular %d %d, rcond %.3e %.3e", s[1],
         s[2], rc[1], rc[2]);
  csc_free (&m);
  /* diag (1 .. n): the identity after the row scaling */
  for (i = 0; i < n * n; i++)
    A[i] = NAN;
  for (j = 0; j < n; j++)
    A[j + (size_t) n * j] = j + 1.0;
  csc_from_dense (n, A, &m);
  s[0] = singular_by (&m, VM_LINSOLVE_UMFPACK, VM_LINSOLVE_COND_PIVOT, &rc[0]);
  s[1] = singular_by (&m, VM_LINSOLVE_BANDED, VM_LINSOLVE_COND_PIVOT, &rc[1]);
  s[2] = singular_by (&m, VM_LINSOLVE_BANDED, VM_LINSOLVE_COND_NORM1, &rc[2]);
  CHECK (s[0] == 0 && s[1] == 0 && s[2] == 0 && fabs (rc[0] - 1.0) <= 4 * DBL_EPSILON
         && fabs (rc[1] - 1.0) <= 4 * DBL_EPSILON && fabs (rc[2] - 1.0) <= 4 * DBL_EPSILON,
         "diag (1 .. n): rcond %.17g %.17g %.17g", rc[0], rc[1], rc[2]);
  csc_free (&m);
  free (A);
}

static void
test_bandwidth (void)
{
  int64_t cp[6] = { 0, 1, 2, 3, 4, 5 }, ri[5] = { 0, 1, 2, 3, 4 }, cpf[6] = { 0, 2, 3, 4, 5, 6 };
  int64_t rif[6] = { 0, 4, 1, 2, 3, 4 };
  int kl = -1, ku = -1;
  vm_linsolve_bandwidth (5, cp, ri, &kl, &ku);
  CHECK (kl == 0 && ku == 0, "diagonal: kl %d ku %d", kl, ku);
  vm_linsolve_bandwidth (5, cpf, rif, &kl, &ku);   /* entry (4, 0): kl = 4 */
  CHECK (kl == 4 && ku == 0, "one far entry below: kl %d ku %d", kl, ku);
  {                                                /* the same pattern transposed: (0, 4) */
    int64_t cpt[6] = { 0, 1, 2, 3, 4, 6 }, rit[6] = { 0, 1, 2, 3, 0, 4 };
    vm_linsolve_bandwidth (5, cpt, rit, &kl, &ku);
    CHECK (kl == 0 && ku == 4, "one far entry above: kl %d ku %d", kl, ku);
  }
  CHECK (vm_linsolve_auto (5, 5, 0, 0) == VM_LINSOLVE_BANDED
         && vm_linsolve_auto (1000, 1000, 999, 999) == VM_LINSOLVE_UMFPACK,
         "AUTO: a diagonal banded, a sparse full band UMFPACK");
  /* the threshold: density 1/16 of the band */
  CHECK (vm_linsolve_auto (1600, 1600 * 2, 15, 16) == VM_LINSOLVE_BANDED
         && vm_linsolve_auto (1600, 1600 * 2 - 1, 15, 16) == VM_LINSOLVE_UMFPACK,
         "AUTO: the density threshold 1/16");
  CHECK (strcmp (vm_linsolve_name (VM_LINSOLVE_BANDED), "banded") == 0
         && strcmp (vm_linsolve_name (VM_LINSOLVE_UMFPACK), "umfpack") == 0
         && strcmp (vm_linsolve_name (VM_LINSOLVE_AUTO), "auto") == 0
         && strcmp (vm_linsolve_name (7), "?") == 0, "names");
}

static void
test_interface (void)
{
  const int n = 30000;   /* an arrow: band of 3n - 2 rows, n (3n - 2) > INT_MAX */
  int64_t *cp = malloc ((size_t) (n + 1) * sizeof *cp), *ri = malloc (3 * (size_t) n * sizeof *ri);
  double *ax = malloc (3 * (size_t) n * sizeof *ax), b[4] = { 1, 2, 3, 4 }, x[4];
  int64_t p = 0, cp4[5] = { 0, 1, 2, 3, 4 }, ri4[4] = { 0, 1, 2, 3 };
  double ax4[4] = { 1, 2, 4, 8 };
  vm_linsolve ls;
  vm_linsolve_opts o;
  vm_linsolve_cache cache;
  int i, j;
  for (j = 0; j < n; j++)
    {
      cp[j] = p;
      if (j > 0)
        ri[p] = 0, ax[p++] = 1.0;
      ri[p] = j, ax[p++] = 4.0;
      if (j == 0)
        for (i = 1; i < n; i++)
          ri[p] = i, ax[p++] = 1.0;
    }
  cp[n] = p;
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_BANDED;
  CHECK (vm_linsolve_init (&ls, n, cp, ri, &o) == VM_EARG && strstr (ls.message, "32-bit"),
         "a band beyond LAPACK's indices: %s", ls.message);
  vm_linsolve_free (&ls);
  o.kind = VM_LINSOLVE_AUTO;
  CHECK (vm_linsolve_init (&ls, n, cp, ri, &o) == VM_OK && ls.kind == VM_LINSOLVE_UMFPACK
         && vm_linsolve_factor (&ls, ax) == VM_OK && !ls.singular, "AUTO on it: UMFPACK: %s",
         ls.message);
  vm_linsolve_free (&ls);
  o.kind = 3;
  CHECK (vm_linsolve_init (&ls, 4, cp4, ri4, &o) == VM_EARG, "kind 3: %s", ls.message);
  vm_linsolve_free (&ls);
  o.kind = VM_LINSOLVE_BANDED;
  o.cond = 2;
  CHECK (vm_linsolve_init (&ls, 4, cp4, ri4, &o) == VM_EARG, "cond 2: %s", ls.message);
  vm_linsolve_free (&ls);
  o.cond = VM_LINSOLVE_COND_PIVOT;
  CHECK (vm_linsolve_init (&ls, 4, cp4, ri4, &o) == VM_OK && vm_linsolve_solve (&ls, b, x) == VM_EARG,
         "solve before a factorization: %s", ls.message);
  CHECK (vm_linsolve_factor (&ls, ax4) == VM_OK && vm_linsolve_solve (&ls, b, x) == VM_OK
         && x[0] == 1.0 && x[1] == 1.0 && x[2] == 0.75 && x[3] == 0.5 && ls.nfactor == 1
         && ls.nsolve == 1 && ls.nsymbolic == 0, "diag (1, 2, 4, 8)");
  vm_linsolve_free (&ls);
  /* the symbolic cache: filled by UMFPACK's first factorization, reused by the next init, left
   * alone by the banded backend */
  vm_linsolve_cache_init (&cache);
  o.cache = &cache;
  for (i = 0; i < 3; i++)
    {
      o.kind = i < 2 ? VM_LINSOLVE_UMFPACK : VM_LINSOLVE_BANDED;
      CHECK (vm_linsolve_init (&ls, 4, cp4, ri4, &o) == VM_OK && vm_linsolve_factor (&ls, ax4) == VM_OK
             && ls.nsymbolic == (i == 0 ? 1 : 0) && cache.sym != NULL && cache.nreuse == (i == 0 ? 0 : 1),
             "cache, init %d: nsymbolic %ld, reuse %ld", i, ls.nsymbolic, cache.nreuse);
      vm_linsolve_free (&ls);
      CHECK (cache.sym != NULL, "the cache survives vm_linsolve_free");
    }
  vm_linsolve_cache_free (&cache);
  vm_linsolve_cache_free (NULL);
  CHECK (cache.sym == NULL, "cache freed");
  free (cp);
  free (ri);
  free (ax);
}

/* A node-major pattern like the SKG Jacobians of order 4 (b unknowns per node, N nodes; the
 * disk's reduced pattern: node 0 couples to nodes 0..5, node 1 to 0..4, node 2 to 0..6): every
 * node couples to the nodes within distance 4 in its own component (a diagonal block) and to
 * its neighbours within distance 1 densely, except node 1 with node 5 (and N-2 with N-6), and
 * the ends as an SBP boundary closure does: node 0 with node 5 and node N-1 with node N-6
 * (component 0).  Natural band: kl = ku = 5 b; with the first two and the last two nodes
 * exchanged (option block) every coupling is within 4 nodes: kl = ku = 4 b.  Values: a dominant
 * diagonal, so that the solution is well conditioned. */
static double *
dense_sbp_like (int b, int N, unsigned seed)
{
  const int n = b * N;
  double *A = malloc ((size_t) n * n * sizeof *A);
  int i, j, k, l, c, d;
  for (i = 0; i < n * n; i++)
    A[i] = NAN;
  for (k = 0; k < N; k++)
    for (l = k - 4; l <= k + 4; l++)
      if (l >= 0 && l < N)
        for (c = 0; c < b; c++)
          for (d = 0; d < b; d++)
            if ((c == d || (l - k <= 1 && k - l <= 1))
                && !((k == 1 && l == 5) || (k == 5 && l == 1) || (k == N - 2 && l == N - 6)
                     || (k == N - 6 && l == N - 2)))
              {
                i = k * b + c;
                j = l * b + d;
                A[i + (size_t) n * j] = i == j ? 4.0 * b + urand (&seed) : urand (&seed) - 0.5;
              }
  A[5 * b + (size_t) n * 0] = 0.25;
  A[0 + (size_t) n * (5 * b)] = -0.25;
  A[(N - 1) * b + (size_t) n * ((N - 6) * b)] = 0.5;
  A[(N - 6) * b + (size_t) n * ((N - 1) * b)] = -0.5;
  return A;
}

/* vm_linsolve_opts.block: the exchange of the end nodes is kept when it narrows the band and the
 * solution is the same; it is not kept when it does not narrow it, nor tried when the blocks do
 * not fit n */
static void
test_relabel (void)
{
  const int b = 3, N = 12, n = b * N;
  double *A = dense_sbp_like (b, N, 5u), *xt = malloc ((size_t) n * sizeof *xt);
  double *rhs = calloc ((size_t) n, sizeof *rhs), *x0 = malloc ((size_t) n * sizeof *x0);
  double *x1 = malloc ((size_t) n * sizeof *x1), *xu = malloc ((size_t) n * sizeof *xu);
  vm_linsolve l0, l1, lu, l2, l3;
  vm_linsolve_opts o;
  csc_t m;
  int i, j, st;
  int64_t p;
  csc_from_dense (n, A, &m);
  for (i = 0; i < n; i++)
    xt[i] = cos (0.3 * i);
  for (j = 0; j < n; j++)
    for (p = m.cp[j]; p < m.cp[j + 1]; p++)
      rhs[m.ri[p]] += m.ax[p] * xt[j];
  vm_linsolve_opts_init (&o);
  CHECK (o.block == 0, "block: default 0 (%d)", o.block);
  o.kind = VM_LINSOLVE_BANDED;
  st = vm_linsolve_init (&l0, n, m.cp, m.ri, &o);
  st = st ? st : vm_linsolve_factor (&l0, m.ax);
  st = st ? st : vm_linsolve_solve (&l0, rhs, x0);
  CHECK (st == VM_OK && !l0.pos && l0.bkl == 5 * b && l0.bku == 5 * b && l0.kl == 5 * b,
         "block 0: the natural band (kl %d bkl %d bku %d): %s", l0.kl, l0.bkl, l0.bku, l0.message);
  o.block = b;
  st = vm_linsolve_init (&l1, n, m.cp, m.ri, &o);
  st = st ? st : vm_linsolve_factor (&l1, m.ax);
  st = st ? st : vm_linsolve_solve (&l1, rhs, x1);
  CHECK (st == VM_OK && l1.pos && l1.kl == 5 * b && l1.ku == 5 * b && l1.bkl == 4 * b
         && l1.bku == 4 * b && l1.ldab == 3 * 4 * b + 1,
         "block %d: the exchanged ends narrow the band to %d, %d (pattern %d, %d; ldab %d): %s", b,
         l1.bkl, l1.bku, l1.kl, l1.ku, l1.ldab, l1.message);
  o.kind = VM_LINSOLVE_UMFPACK;
  st = vm_linsolve_init (&lu, n, m.cp, m.ri, &o);
  st = st ? st : vm_linsolve_factor (&lu, m.ax);
  st = st ? st : vm_linsolve_solve (&lu, rhs, xu);
  CHECK (st == VM_OK && !lu.pos, "UMFPACK ignores block: %s", lu.message);
  CHECK (maxrel (n, x1, xt) <= 1e-13 && maxrel (n, x0, xt) <= 1e-13 && maxrel (n, xu, xt) <= 1e-13,
         "relabeled, natural and UMFPACK solutions: errors %.2e %.2e %.2e", maxrel (n, x1, xt),
         maxrel (n, x0, xt), maxrel (n, xu, xt));
  /* the 1-norm condition number does not depend on the labels: Higham's estimates of the
   * relabeled and the natural band agree within the estimator's factor (it is exact or an
   * underestimate by at most a few) */
  {
    vm_linsolve n0, n1;
    o.kind = VM_LINSOLVE_BANDED;
    o.cond = VM_LINSOLVE_COND_NORM1;
    o.block = 0;
    st = vm_linsolve_init (&n0, n, m.cp, m.ri, &o);
    st = st ? st : vm_linsolve_factor (&n0, m.ax);
    o.block = b;
    st = st ? st : vm_linsolve_init (&n1, n, m.cp, m.ri, &o);
    st = st ? st : vm_linsolve_factor (&n1, m.ax);
    CHECK (st == VM_OK && n1.pos && n1.rcond > 0 && n1.rcond < 3 * n0.rcond
           && n0.rcond < 3 * n1.rcond, "1-norm rcond relabeled %.3e, natural %.3e", n1.rcond,
           n0.rcond);
    vm_linsolve_free (&n0);
    vm_linsolve_free (&n1);
    o.cond = VM_LINSOLVE_COND_PIVOT;
  }
  o.block = 2 * b;   /* blocks of two nodes: the exchange moves node pairs, the band widens */
  st = vm_linsolve_init (&l2, n, m.cp, m.ri, &o);
  CHECK (st == VM_OK && !l2.pos && l2.bkl == 5 * b, "block %d: not kept (bkl %d): %s", 2 * b,
         l2.bkl, l2.message);
  o.block = 5;       /* does not divide n = 36 */
  st = vm_linsolve_init (&l3, n, m.cp, m.ri, &o);
  CHECK (st == VM_OK && !l3.pos && l3.bkl == 5 * b, "block 5: not tried (bkl %d): %s", l3.bkl,
         l3.message);
  vm_linsolve_free (&l0);
  vm_linsolve_free (&l1);
  vm_linsolve_free (&lu);
  vm_linsolve_free (&l2);
  vm_linsolve_free (&l3);
  csc_free (&m);
  free (A);
  free (xt);
  free (rhs);
  free (x0);
  free (x1);
  free (xu);
}

/* A second factorization in the same vm_linsolve: the band's window holds the first LU's factors
 * where the pattern has no entry, so the refill must clear it (natural labels and option block,
 * the fill's two loops); the second values differ (another seed, every 5th entry an explicit zero
 * where the first had a nonzero).  The solution must be the one a fresh UMFPACK factorization of
 * the second values gives (both within 1e-13 of x_true: diagonally dominant, as test_relabel). */
static void
test_refill (void)
{
  const int b = 3, N = 12, n = b * N;
  double *A1 = dense_sbp_like (b, N, 5u), *A2 = dense_sbp_like (b, N, 11u);
  double *xt = malloc ((size_t) n * sizeof *xt), *rhs = calloc ((size_t) n, sizeof *rhs);
  double *xb = malloc ((size_t) n * sizeof *xb), *xu = malloc ((size_t) n * sizeof *xu);
  csc_t m1, m2;
  vm_linsolve lu;
  vm_linsolve_opts o;
  int i, j, blk, st;
  int64_t p;
  csc_from_dense (n, A1, &m1);
  csc_from_dense (n, A2, &m2);
  for (j = 0; j < n; j++)
    for (p = m2.cp[j]; p < m2.cp[j + 1]; p++)
      if (p % 5 == 0 && m2.ri[p] != j)   /* keep the dominant diagonal */
        m2.ax[p] = 0.0;
  for (i = 0; i < n; i++)
    xt[i] = sin (0.7 * i + 0.2);
  csc_times (&m2, xt, rhs);
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_UMFPACK;
  st = factor_solve (&lu, &m2, &o, rhs, xu);
  CHECK (st == VM_OK && maxrel (n, xu, xt) <= 1e-13, "refill: UMFPACK on the second values: %s",
         lu.message);
  for (blk = 0; blk <= b; blk += b)
    {
      vm_linsolve lb;
      o.kind = VM_LINSOLVE_BANDED;
      o.block = blk;
      st = vm_linsolve_init (&lb, n, m1.cp, m1.ri, &o);
      st = st ? st : vm_linsolve_factor (&lb, m1.ax);
      st = st ? st : vm_linsolve_factor (&lb, m2.ax);
      st = st ? st : vm_linsolve_solve (&lb, rhs, xb);
      CHECK (st == VM_OK && (blk == 0 ? !lb.pos : lb.pos != NULL) && lb.nfactor == 2
             && maxrel (n, xb, xu) <= 1e-13 && maxrel (n, xb, xt) <= 1e-13,
             "refill (block %d): the second factorization: |x - x_umf| %.2e, |x - x_true| %.2e: %s",
             blk, maxrel (n, xb, xu), maxrel (n, xb, xt), lb.message);
      vm_linsolve_free (&lb);
    }
  vm_linsolve_free (&lu);
  csc_free (&m1);
  csc_free (&m2);
  free (A1);
  free (A2);
  free (xt);
  free (rhs);
  free (xb);
  free (xu);
}

/* A row of subnormal entries (1e-310 times the band's values: the row sum of |A| is below
 * 1 / DBL_MAX, its reciprocal would overflow; 0 x inf in the band's structural zeros would be
 * NaN): the scale is capped at DBL_MAX and the solve stays finite and accurate.  Subnormals near
 * 1e-310 carry about 44 bits (the smallest is 4.9e-324), so the row's data are exact to 2^-44
 * (6e-14) relative, and with a condition number below 1e3 the solution is within 1e-9. */
static void
test_subnormal_row (void)
{
  const int n = 60, r = 17;
  double *A = dense_band (n, 3, 5, 0.6, 9u), *xt = malloc ((size_t) n * sizeof *xt);
  double *rhs = calloc ((size_t) n, sizeof *rhs), *x = malloc ((size_t) n * sizeof *x);
  vm_linsolve lb;
  vm_linsolve_opts o;
  csc_t m;
  int i, j, st, finite = 1;
  for (j = 0; j < n; j++)
    if (!isnan (A[r + (size_t) n * j]))
      A[r + (size_t) n * j] *= 1e-310;
  csc_from_dense (n, A, &m);
  for (i = 0; i < n; i++)
    xt[i] = cos (1.0 + 0.5 * i);
  csc_times (&m, xt, rhs);
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_BANDED;
  st = factor_solve (&lb, &m, &o, rhs, x);
  for (i = 0; i < n; i++)
    finite = finite && isfinite (x[i]);
  CHECK (st == VM_OK && finite && !lb.singular && maxrel (n, x, xt) <= 1e-9,
         "a subnormal row: finite %d, singular %d, |x - x_true| %.2e: %s", finite, lb.singular,
         maxrel (n, x, xt), lb.message);
  vm_linsolve_free (&lb);
  csc_free (&m);
  free (A);
  free (xt);
  free (rhs);
  free (x);
}

/* Option lean (the U-only band, vm_linsolve_factor_solve): the same x as the band with L kept,
 * bit for bit up to the sign of zeros (the same operations in the same order, less the updates by
 * U's zeros above a column's first nonzero: bandlu.h), for bands narrower and wider
 * than the window (10 (kl + ku) + 1 columns, moved when full), with and without the exchange of
 * the end nodes, one-sided bands, the diagonal, n = 1; a singular band reported singular; a
 * second solve and a plain factorization refused; the option ignored where it cannot apply (the
 * 1-norm estimate, UMFPACK) and checked. */
static int
lean_same (const char *name, const csc_t *m, int block, int *pos_used)
{
  const int n = m->n;
  double *xt = calloc ((size_t) n, sizeof *xt), *b = calloc ((size_t) n, sizeof *b);
  double *x0 = malloc ((size_t) n * sizeof *x0), *x1 = malloc ((size_t) n * sizeof *x1);
  vm_linsolve l0, l1;
  vm_linsolve_opts o;
  int i, st, same = 1;
  for (i = 0; i < n; i++)
    xt[i] = sin (0.3 + 1.7 * i);
  csc_times (m, xt, b);
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_BANDED;
  o.block = block;
  st = vm_linsolve_init (&l0, n, m->cp, m->ri, &o);
  st = st ? st : vm_linsolve_factor_solve (&l0, m->ax, b, x0);
  o.lean = 1;
  st = st ? st : vm_linsolve_init (&l1, n, m->cp, m->ri, &o);
  for (i = 0; i < n; i++)
    x1[i] = NAN;
  st = st ? st : vm_linsolve_factor_solve (&l1, m->ax, b, x1);
  for (i = 0; i < n; i++)   /* the same to the bit, up to the sign of a zero (bandlu.h) */
    same = same && x0[i] == x1[i];
  CHECK (st == VM_OK && l1.lean && !l0.lean && !l1.ab && same && l1.rcond == l0.rcond
         && l1.singular == l0.singular && l1.nfactor == 1 && l1.nsolve == 1,
         "%s (block %d, kl %d ku %d, window %d): lean %d, x bit for bit %d (|x - x_true| %.2e), "
         "rcond %.3e / %.3e: %s", name, block, l1.bkl, l1.bku, l1.winw, l1.lean, same,
         maxrel (n, x1, xt), l1.rcond, l0.rcond, l1.message);
  CHECK (vm_linsolve_solve (&l1, b, x1) == VM_EARG && strstr (l1.message, "U-only")
         && vm_linsolve_factor (&l1, m->ax) == VM_EARG && strstr (l1.message, "factor_solve"),
         "%s: a second solve and a plain factorization refused: %s", name, l1.message);
  *pos_used = l1.pos != NULL;
  vm_linsolve_free (&l0);
  vm_linsolve_free (&l1);
  free (xt);
  free (b);
  free (x0);
  free (x1);
  return same;
}

static void
test_lean (void)
{
  double *A;
  csc_t m;
  vm_linsolve ls;
  vm_linsolve_opts o;
  int pos, nblk = 0, kind;
  double one = 4.0, b1 = 2.0, x1 = 0.0, *x, *rhs;
  int64_t cp1[2] = { 0, 1 }, ri1[1] = { 0 };
  struct { int n, kl, ku; double fill; } bands[] = {
    { 300, 3, 5, 0.6 }, { 1000, 3, 5, 0.6 }, { 120, 4, 1, 0.7 }, { 120, 0, 4, 0.7 },
    { 90, 0, 0, 0.0 }, { 40, 12, 7, 0.9 }, { 2000, 12, 7, 0.5 } };
  size_t k;
  for (k = 0; k < sizeof bands / sizeof bands[0]; k++)
    {
      char name[64];
      snprintf (name, sizeof name, "lean band n %d", bands[k].n);
      A = dense_band (bands[k].n, bands[k].kl, bands[k].ku, bands[k].fill, 21u + (unsigned) k);
      csc_from_dense (bands[k].n, A, &m);
      lean_same (name, &m, 0, &pos);
      csc_free (&m);
      free (A);
    }
  A = dense_sbp_like (3, 200, 7u);   /* n = 600: kl = ku = 15, 12 with the exchange; window 241 */
  csc_from_dense (600, A, &m);
  lean_same ("lean sbp-like", &m, 0, &pos);
  lean_same ("lean sbp-like", &m, 3, &pos);
  nblk += pos;
  CHECK (nblk == 1, "lean with the exchange of the end nodes: the relabeling was used (%d)", nblk);
  /* a singular band: column 17 zero */
  x = malloc (600 * sizeof *x);
  rhs = malloc (600 * sizeof *rhs);
  for (k = 0; k < 600; k++)
    {
      int64_t p;
      rhs[k] = 1.0;
      if (k == 17)
        for (p = m.cp[k]; p < m.cp[k + 1]; p++)
          m.ax[p] = 0.0;
    }
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_BANDED;
  o.lean = 1;
  CHECK (vm_linsolve_init (&ls, 600, m.cp, m.ri, &o) == VM_OK
         && vm_linsolve_factor_solve (&ls, m.ax, rhs, x) == VM_OK && ls.singular && ls.rcond == 0.0,
         "lean: a zero column is singular (singular %d, rcond %.3e): %s", ls.singular, ls.rcond,
         ls.message);
  vm_linsolve_free (&ls);
  /* where it cannot apply: the 1-norm estimate needs L; UMFPACK; AUTO below the size */
  o.cond = VM_LINSOLVE_COND_NORM1;
  CHECK (vm_linsolve_init (&ls, 600, m.cp, m.ri, &o) == VM_OK && !ls.lean && ls.ab,
         "lean ignored with the 1-norm estimate");
  vm_linsolve_free (&ls);
  for (kind = VM_LINSOLVE_AUTO; kind <= VM_LINSOLVE_BANDED; kind++)
    {
      vm_linsolve_opts_init (&o);
      o.kind = kind;
      o.lean = kind == VM_LINSOLVE_AUTO ? VM_LINSOLVE_LEAN_AUTO : 1;
      CHECK (vm_linsolve_init (&ls, 600, m.cp, m.ri, &o) == VM_OK
             && ls.lean == (kind == VM_LINSOLVE_BANDED),
             "lean %d with kind %s: in use %d (AUTO: a band of %d x 600 doubles, below 1 GiB)",
             o.lean, vm_linsolve_name (kind), ls.lean, ls.ldab);
      vm_linsolve_free (&ls);
    }
  o.lean = 2;
  CHECK (vm_linsolve_init (&ls, 600, m.cp, m.ri, &o) == VM_EARG && strstr (ls.message, "lean 2"),
         "lean 2 refused: %s", ls.message);
  vm_linsolve_free (&ls);
  /* n = 1 */
  o.lean = 1;
  o.kind = VM_LINSOLVE_BANDED;
  CHECK (vm_linsolve_init (&ls, 1, cp1, ri1, &o) == VM_OK
         && vm_linsolve_factor_solve (&ls, &one, &b1, &x1) == VM_OK && x1 == 0.5 && !ls.singular,
         "lean n = 1: x %g: %s", x1, ls.message);
  vm_linsolve_free (&ls);
  csc_free (&m);
  free (A);
  free (x);
  free (rhs);
}

/* The matrices of option definite's tests: J = -diag (r) A with A the symmetric part of
 * dense_sbp_like (b, N, mseed) (strictly diagonally dominant: positive definite), r[i] = 0.5 +
 * urand from rseed, d = 1 / r (definite_scale); J2 the same but the 2 x 2 minor of columns k, k +
 * 1 of A made indefinite (A(k + 1, k) = 3 sqrt (A(k, k) A(k + 1, k + 1)), the diagonal positive);
 * x_true[i] = cos (0.4 i + 0.1), rhs = J x_true, rhs2 = J2 x_true; n = b N. */
typedef struct
{
  int n;
  double *d, *xt, *rhs, *rhs2;
  csc_t m, m2;
} definite_pair;

static void
definite_pair_make (definite_pair *p, int b, int N, unsigned mseed, unsigned rseed, int k)
{
  const int n = b * N;
  double *A = dense_sbp_like (b, N, mseed), *A2 = malloc ((size_t) n * n * sizeof *A2);
  double *r = malloc ((size_t) n * sizeof *r), g;
  unsigned seed = rseed;
  int i, j;
  p->n = n;
  p->d = malloc ((size_t) n * sizeof *p->d);
  p->xt = malloc ((size_t) n * sizeof *p->xt);
  p->rhs = calloc ((size_t) n, sizeof *p->rhs);
  p->rhs2 = calloc ((size_t) n, sizeof *p->rhs2);
  for (j = 0; j < n; j++)
    for (i = j + 1; i < n; i++)
      if (!isnan (A[i + (size_t) n * j]))
        A[i + (size_t) n * j] = A[j + (size_t) n * i]
          = 0.5 * (A[i + (size_t) n * j] + A[j + (size_t) n * i]);
  for (i = 0; i < n; i++)
    {
      r[i] = 0.5 + urand (&seed);
      p->d[i] = 1.0 / r[i];
      p->xt[i] = cos (0.4 * i + 0.1);
    }
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      A[i + (size_t) n * j] *= -r[i];
  memcpy (A2, A, (size_t) n * n * sizeof *A2);
  g = sqrt (A[k + (size_t) n * k] * A[k + 1 + (size_t) n * (k + 1)] / (r[k] * r[k + 1]));
  A2[k + 1 + (size_t) n * k] = -r[k + 1] * 3.0 * g;
  A2[k + (size_t) n * (k + 1)] = -r[k] * 3.0 * g;
  csc_from_dense (n, A, &p->m);
  csc_from_dense (n, A2, &p->m2);
  csc_times (&p->m, p->xt, p->rhs);
  csc_times (&p->m2, p->xt, p->rhs2);
  free (A);
  free (A2);
  free (r);
}

static void
definite_pair_free (definite_pair *p)
{
  csc_free (&p->m);
  csc_free (&p->m2);
  free (p->d);
  free (p->xt);
  free (p->rhs);
  free (p->rhs2);
}

/* x1 by vm_linsolve_factor and vm_linsolve_solve on l1, x2 by vm_linsolve_factor_solve on l2
 * (the same set-up), of the values ax and the right-hand side rhs; keep: rhs before */
static int
fused_pair (vm_linsolve *l1, vm_linsolve *l2, const double *ax, const double *rhs, double *x1,
            double *x2, double *keep)
{
  int st = vm_linsolve_factor (l1, ax);
  st = st ? st : vm_linsolve_solve (l1, rhs, x1);
  memcpy (keep, rhs, (size_t) l1->n * sizeof *keep);
  return st ? st : vm_linsolve_factor_solve (l2, ax, rhs, x2);
}

/* vm_linsolve_factor_solve with option definite: the forward substitution goes with the
 * Cholesky factorization, block by block (linsolve_chol.c, vm_band_chol_lower); its x equals
 * that of vm_linsolve_factor + vm_linsolve_solve bit for bit, over several blocks of 64 columns
 * (n = 150), with and without option block's relabeling, also when x is b; b is not written,
 * and on an indefinite J the LU of the same values solves with it (the LU path's x, bit for bit);
 * the solve is counted (nsolve). */
static void
test_definite_fused (void)
{
  const int b = 3, N = 50, n = b * N;
  double *keep = malloc ((size_t) n * sizeof *keep), *x1 = malloc ((size_t) n * sizeof *x1);
  double *x2 = malloc ((size_t) n * sizeof *x2), *x3 = malloc ((size_t) n * sizeof *x3);
  definite_pair dp;
  vm_linsolve l1, l2;
  vm_linsolve_opts o;
  int blk, st, c;
  definite_pair_make (&dp, b, N, 13u, 5u, 100);   /* the indefinite minor in the third block */
  for (blk = 0; blk <= b; blk += b)
    {
      vm_linsolve_opts_init (&o);
      o.kind = VM_LINSOLVE_BANDED;
      o.block = blk;
      o.definite = -1;
      o.definite_scale = dp.d;
      st = vm_linsolve_init (&l1, n, dp.m.cp, dp.m.ri, &o);
      st = st ? st : vm_linsolve_init (&l2, n, dp.m.cp, dp.m.ri, &o);
      for (c = 0; st == VM_OK && c < 2; c++)   /* J (Cholesky), then the indefinite J2 (the LU) */
        {
          const double *ax = c ? dp.m2.ax : dp.m.ax, *rhs = c ? dp.rhs2 : dp.rhs;
          st = fused_pair (&l1, &l2, ax, rhs, x1, x2, keep);
          CHECK (st == VM_OK && l1.chol == !c && l2.chol == !c && l2.nchol_fail == c
                 && (c || (l2.nsolve == 1 && l2.nfactor == 1))
                 && memcmp (x1, x2, (size_t) n * sizeof *x1) == 0
                 && memcmp (keep, rhs, (size_t) n * sizeof *keep) == 0
                 && maxrel (n, x2, dp.xt) <= (c ? 1e-11 : 1e-12),
                 "definite fused (block %d, %s J): factor_solve = factor + solve bit for bit, b "
                 "untouched: st %d, chol %d, fail %ld, nsolve %ld, |x - x_true| %.2e: %s", blk,
                 c ? "indefinite" : "definite", st, l2.chol, l2.nchol_fail, l2.nsolve,
                 maxrel (n, x2, dp.xt), l2.message);
          if (c == 0)
            {
              memcpy (x3, dp.rhs, (size_t) n * sizeof *x3);   /* x is b */
              st = vm_linsolve_factor_solve (&l2, dp.m.ax, x3, x3);
              CHECK (st == VM_OK && l2.chol && memcmp (x1, x3, (size_t) n * sizeof *x1) == 0,
                     "definite fused (block %d): x is b: st %d: %s", blk, st, l2.message);
            }
        }
      vm_linsolve_free (&l1);
      vm_linsolve_free (&l2);
    }
  definite_pair_free (&dp);
  free (keep);
  free (x1);
  free (x2);
  free (x3);
}

/* Option definite: J = -diag (r) A with A symmetric positive definite (dense_sbp_like made
 * symmetric, strictly diagonally dominant) and definite_scale = 1 / r.  With and without the
 * exchange of the end nodes (block): the Cholesky path is taken (chol, nchol) and its x agrees
 * with the LU's and with x_true to 1e-13 (diagonally dominant: condition below 10); with
 * definite = +1 (the wrong sign) and on an indefinite J (one 2 x 2 minor negative, the diagonal
 * positive) the Cholesky factorization fails (nchol_fail) and the LU of the same values gives
 * the LU path's x bit for bit; on the same solver a definite J after that is factored by
 * Cholesky again (the band's layout switches both ways).  Ignored by UMFPACK, with cond NORM1
 * and with lean; refused for a band with kl != ku, a scale that is not positive and finite, or
 * a value other than 0, 1, -1. */
static void
test_definite (void)
{
  const int b = 3, N = 12, n = b * N;
  double *xl = malloc ((size_t) n * sizeof *xl), *xc = malloc ((size_t) n * sizeof *xc);
  double *xl2 = malloc ((size_t) n * sizeof *xl2);
  double *d, *xt, *rhs, *rhs2;
  definite_pair dp;
  csc_t m, m2, mw;
  vm_linsolve ll, lc;
  vm_linsolve_opts o;
  int blk, st, sgn;
  /* columns 7, 8: the minor A(7:8, 7:8) negative definite in -A (the entry (8, 7) is in the
   * pattern: nodes 2, same node) */
  definite_pair_make (&dp, b, N, 7u, 3u, 7);
  d = dp.d;
  xt = dp.xt;
  rhs = dp.rhs;
  rhs2 = dp.rhs2;
  m = dp.m;
  m2 = dp.m2;
  for (blk = 0; blk <= b; blk += b)
    {
      vm_linsolve_opts_init (&o);
      o.kind = VM_LINSOLVE_BANDED;
      o.block = blk;
      st = factor_solve (&ll, &m, &o, rhs, xl);
      st = st ? st : vm_linsolve_factor (&ll, m2.ax);
      st = st ? st : vm_linsolve_solve (&ll, rhs2, xl2);
      CHECK (st == VM_OK && !ll.chol && ll.nchol == 0, "definite (block %d): the LU: %s", blk,
             ll.message);
      o.definite = -1;
      o.definite_scale = d;
      st = factor_solve (&lc, &m, &o, rhs, xc);
      CHECK (st == VM_OK && lc.chol && lc.nchol == 1 && lc.nchol_fail == 0 && lc.nfactor == 1
             && (blk == 0 ? !lc.pos : lc.pos != NULL) && !lc.singular
             && lc.rcond > DBL_EPSILON && lc.rcond <= 1.0 && maxrel (n, xc, xt) <= 1e-13
             && maxrel (n, xc, xl) <= 1e-13 && lc.cb != NULL && lc.ab == NULL,
             "definite (block %d): Cholesky: chol %d, nchol %ld, rcond %.2e, |x - x_true| %.2e, "
             "|x - x_lu| %.2e, LU band %s (none until an LU): %s", blk, lc.chol, lc.nchol,
             lc.rcond, maxrel (n, xc, xt), maxrel (n, xc, xl), lc.ab ? "allocated" : "none",
             lc.message);
      /* indefinite: the LU of the same values, its x to the bit */
      st = vm_linsolve_factor (&lc, m2.ax);
      st = st ? st : vm_linsolve_solve (&lc, rhs2, xc);
      CHECK (st == VM_OK && !lc.chol && lc.nchol_fail == 1 && lc.nfactor == 2 && lc.ab != NULL
             && memcmp (xc, xl2, (size_t) n * sizeof *xc) == 0
             && maxrel (n, xc, xt) <= 1e-12,
             "definite (block %d): an indefinite J falls back to the LU: chol %d, fail %ld, "
             "|x - x_lu| %.2e, |x - x_true| %.2e: %s", blk, lc.chol, lc.nchol_fail,
             maxrel (n, xc, xl2), maxrel (n, xc, xt), lc.message);
      st = vm_linsolve_factor (&lc, m.ax);
      st = st ? st : vm_linsolve_solve (&lc, rhs, xc);
      CHECK (st == VM_OK && lc.chol && lc.nchol == 2 && maxrel (n, xc, xt) <= 1e-13,
             "definite (block %d): Cholesky again after the LU: chol %d, |x - x_true| %.2e: %s",
             blk, lc.chol, maxrel (n, xc, xt), lc.message);
      vm_linsolve_free (&lc);
      /* the wrong sign: C's diagonal is negative, the LU */
      o.definite = 1;
      st = factor_solve (&lc, &m, &o, rhs, xc);
      CHECK (st == VM_OK && !lc.chol && lc.nchol_fail == 1 && memcmp (xc, xl, (size_t) n * sizeof *xc) == 0,
             "definite (block %d): +1 on a negative definite J: chol %d, fail %ld: %s", blk,
             lc.chol, lc.nchol_fail, lc.message);
      vm_linsolve_free (&lc);
      vm_linsolve_free (&ll);
    }
  /* where it does not apply: UMFPACK, NORM1 */
  for (sgn = 0; sgn < 2; sgn++)
    {
      vm_linsolve_opts_init (&o);
      o.kind = sgn == 0 ? VM_LINSOLVE_UMFPACK : VM_LINSOLVE_BANDED;
      o.cond = sgn == 1 ? VM_LINSOLVE_COND_NORM1 : VM_LINSOLVE_COND_PIVOT;
      o.definite = -1;
      o.definite_scale = d;
      st = vm_linsolve_init (&lc, n, m.cp, m.ri, &o);
      st = st ? st : vm_linsolve_factor_solve (&lc, m.ax, rhs, xc);
      CHECK (st == VM_OK && lc.definite == 0 && lc.nchol == 0 && maxrel (n, xc, xt) <= 1e-13,
             "definite ignored (%s): definite %d, nchol %ld, |x - x_true| %.2e: %s",
             sgn == 0 ? "UMFPACK" : "NORM1", lc.definite, lc.nchol, maxrel (n, xc, xt),
             lc.message);
      vm_linsolve_free (&lc);
    }
  /* with lean: the Cholesky factor held as without it, the U-only LU its fallback */
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_BANDED;
  o.lean = 1;
  st = vm_linsolve_init (&ll, n, m.cp, m.ri, &o);
  st = st ? st : vm_linsolve_factor_solve (&ll, m.ax, rhs, xl);   /* the plain U-only LU */
  CHECK (st == VM_OK && ll.lean && maxrel (n, xl, xt) <= 1e-13, "lean alone: %s", ll.message);
  o.definite = -1;
  o.definite_scale = d;
  st = vm_linsolve_init (&lc, n, m.cp, m.ri, &o);
  st = st ? st : vm_linsolve_factor_solve (&lc, m.ax, rhs, xc);
  CHECK (st == VM_OK && lc.lean && lc.definite == -1 && lc.chol && lc.nchol == 1
         && maxrel (n, xc, xt) <= 1e-13, "definite with lean: lean %d, chol %d, nchol %ld, "
         "|x - x_true| %.2e: %s", lc.lean, lc.chol, lc.nchol, maxrel (n, xc, xt), lc.message);
  memset (xc, 0, (size_t) n * sizeof *xc);
  st = vm_linsolve_solve (&lc, rhs, xc);   /* held: a chord step's solve */
  CHECK (st == VM_OK && maxrel (n, xc, xt) <= 1e-13, "definite with lean: a second solve with "
         "the Cholesky factor: %d, |x - x_true| %.2e: %s", st, maxrel (n, xc, xt), lc.message);
  st = vm_linsolve_factor (&lc, m.ax);
  st = st ? st : vm_linsolve_solve (&lc, rhs, xc);
  CHECK (st == VM_OK && lc.chol && lc.nchol == 2 && maxrel (n, xc, xt) <= 1e-13,
         "definite with lean: factor, then solve: %d, nchol %ld: %s", st, lc.nchol, lc.message);
  vm_linsolve_free (&lc);
  o.definite = 1;   /* the wrong sign: the U-only LU, bit for bit, and no second solve */
  st = vm_linsolve_init (&lc, n, m.cp, m.ri, &o);
  st = st ? st : vm_linsolve_factor_solve (&lc, m.ax, rhs, xc);
  CHECK (st == VM_OK && !lc.chol && lc.nchol_fail == 1
         && memcmp (xc, xl, (size_t) n * sizeof *xc) == 0,
         "definite with lean, +1 on a negative definite J: chol %d, fail %ld: %s", lc.chol,
         lc.nchol_fail, lc.message);
  st = vm_linsolve_solve (&lc, rhs, xc);
  CHECK (st == VM_EARG && strstr (lc.message, "U-only"), "definite with lean: no second solve "
         "with the U-only LU: %d, %s", st, lc.message);
  st = vm_linsolve_factor (&lc, m.ax);
  CHECK (st == VM_EARG && lc.nchol_fail == 2 && strstr (lc.message, "vm_linsolve_factor_solve"),
         "definite with lean: factor alone refused after a failed Cholesky: %d, %s", st,
         lc.message);
  vm_linsolve_free (&lc);
  vm_linsolve_free (&ll);
  /* refused */
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_BANDED;
  o.definite = 2;
  st = vm_linsolve_init (&lc, n, m.cp, m.ri, &o);
  CHECK (st == VM_EARG && strstr (lc.message, "option definite 2: must be 0, 1 or -1"),
         "definite = 2: %d, %s", st, lc.message);
  vm_linsolve_free (&lc);
  o.definite = -1;
  o.definite_scale = d;
  d[5] = 0.0;
  st = vm_linsolve_init (&lc, n, m.cp, m.ri, &o);
  CHECK (st == VM_EARG && strstr (lc.message, "definite_scale: entry 5 is 0; must be positive and finite"),
         "definite_scale 0: %d, %s", st, lc.message);
  vm_linsolve_free (&lc);
  d[5] = NAN;
  st = vm_linsolve_init (&lc, n, m.cp, m.ri, &o);
  CHECK (st == VM_EARG && strstr (lc.message, "entry 5 is nan"), "definite_scale NaN: %d, %s", st,
         lc.message);
  vm_linsolve_free (&lc);
  {
    double *W = dense_band (n, 2, 4, 0.6, 13u);
    csc_from_dense (n, W, &mw);
    o.definite_scale = NULL;
    st = vm_linsolve_init (&lc, n, mw.cp, mw.ri, &o);
    CHECK (st == VM_EARG && strstr (lc.message, "option definite needs a symmetric band: kl = 2, ku = 4"),
           "definite, kl != ku: %d, %s", st, lc.message);
    vm_linsolve_free (&lc);
    csc_free (&mw);
    free (W);
  }
  definite_pair_free (&dp);
  free (xl);
  free (xl2);
  free (xc);
}

/* Option definite's singularity test is that of the equilibrated matrix: B = S M S with M =
 * tridiag (-1, 4, -1) (condition below 3) and S = diag (10^(8 (i mod 3))), a spread of 10^16 in
 * B's diagonal, is factored by Cholesky, not singular, its rcond the pivot ratio of C = D B D
 * (D = diag (B)^(-1/2)) from a dense Cholesky here, to 1e-12 (about 0.93, where the ratio of B's
 * own pivots is about 10^-32), and x = S^-1 z solved to 1e-14 (z_i = cos (0.3 i + 0.2)). */
static void
test_definite_rcond (void)
{
  const int n = 30;
  double *A = calloc ((size_t) n * n, sizeof *A), *C = calloc ((size_t) n * n, sizeof *C);
  double xt[30], rhs[30], x[30], s[30], z, lo = INFINITY, hi = 0.0, ref;
  vm_linsolve ls;
  vm_linsolve_opts o;
  csc_t m;
  int i, j, k, st;
  for (i = 0; i < n; i++)
    {
      s[i] = pow (10.0, 8.0 * (i % 3));
      xt[i] = cos (0.3 * i + 0.2) / s[i];
    }
  for (i = 0; i < n; i++)
    {
      A[i + (size_t) n * i] = 4.0 * s[i] * s[i];
      if (i + 1 < n)
        A[i + 1 + (size_t) n * i] = A[i + (size_t) n * (i + 1)] = -1.0 * s[i] * s[i + 1];
    }
  for (i = 0; i < n; i++)   /* rhs = S M z, z = S x_true: no cancellation */
    {
      z = 4.0 * cos (0.3 * i + 0.2);
      if (i > 0)
        z -= cos (0.3 * (i - 1) + 0.2);
      if (i + 1 < n)
        z -= cos (0.3 * (i + 1) + 0.2);
      rhs[i] = s[i] * z;
    }
  /* the reference: the dense Cholesky of C, its pivots L_jj^2 */
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      C[i + (size_t) n * j] = A[i + (size_t) n * j]
                              / sqrt (A[i + (size_t) n * i] * A[j + (size_t) n * j]);
  for (j = 0; j < n; j++)
    {
      double p = C[j + (size_t) n * j];
      for (k = 0; k < j; k++)
        p -= C[j + (size_t) n * k] * C[j + (size_t) n * k];
      lo = p < lo ? p : lo;
      hi = p > hi ? p : hi;
      C[j + (size_t) n * j] = sqrt (p);
      for (i = j + 1; i < n; i++)
        {
          double v = C[i + (size_t) n * j];
          for (k = 0; k < j; k++)
            v -= C[i + (size_t) n * k] * C[j + (size_t) n * k];
          C[i + (size_t) n * j] = v / C[j + (size_t) n * j];
        }
    }
  ref = lo / hi;
  for (i = 0; i < n * n; i++)   /* the pattern: the tridiagonal */
    if (A[i] == 0.0)
      A[i] = NAN;
  csc_from_dense (n, A, &m);
  vm_linsolve_opts_init (&o);
  o.kind = VM_LINSOLVE_BANDED;
  o.definite = 1;
  st = vm_linsolve_init (&ls, n, m.cp, m.ri, &o);
  st = st ? st : vm_linsolve_factor_solve (&ls, m.ax, rhs, x);
  CHECK (st == VM_OK && ls.chol && ! ls.singular && fabs (ls.rcond - ref) <= 1e-12 * ref
         && maxrel (n, x, xt) <= 1e-14, "definite, diagonal spread 1e16: chol %d, singular %d, "
         "rcond %.15e (C's pivot ratio %.15e), |x - x_true| %.2e: %s", ls.chol, ls.singular,
         ls.rcond, ref, maxrel (n, x, xt), ls.message);
  vm_linsolve_free (&ls);
  csc_free (&m);
  free (A);
  free (C);
}

int
main (void)
{
  test_definite ();
  test_definite_fused ();
  test_definite_rcond ();
  test_relabel ();
  test_refill ();
  test_subnormal_row ();
  test_lean ();
  test_solves ();
  test_singular ();
  test_bandwidth ();
  test_interface ();
  return vmtest_finish ("test_linsolve");
}
