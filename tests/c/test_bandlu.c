/* test_bandlu.c -- unit tests of the banded LU (csrc/la/bandlu.c) against LAPACK's dgbtrf / dgbtrs,
 * whose algorithm it writes out (dgbtf2), no Octave.
 *
 * Matrices: n x n with kl subdiagonals and ku superdiagonals, random entries in [-1, 1] on about
 * 60 % of the band plus a unit-sized diagonal that is exactly zero in every 5th column (partial
 * pivoting must swap rows there; not in a triangular band, which it would make singular), for (n, kl, ku) from the 1 x 1 matrix to bands wider than n,
 * triangular bands (kl = 0 or ku = 0) and the widths of the discrete actions (10, 17, 30).
 * Checks, per matrix:
 *   - the same info and the same pivots as dgbtrf (the same algorithm: the pivot is the first
 *     entry of largest magnitude, as idamax picks it);
 *   - the factors (U, and the multipliers of L) equal dgbtrf's to 100 eps cond_1(A) of their
 *     largest entry: the same operations up to the rounding of a fused multiply-add in LAPACK's
 *     BLAS; a difference of an eps in an entry propagates through the later steps as a
 *     perturbation of A does, bounded by the condition number (the differences found, printed,
 *     are 0 to 1e-11 of the largest entry);
 *   - vm_band_solve against dgbtrs on the same right-hand side: 100 eps cond_1(A) relative in
 *     the max-norm (each backward-stable solve is within about that of the exact solution; the
 *     condition numbers, dgbcon's estimates, are printed: 1 to 1e10);
 *   - the residual |A x - b|_inf / (|A|_inf |x|_inf) below 1e-13 (backward stability: a few
 *     hundred eps for these n);
 *   - dgbtrs ("T") on vm_band_lu's factors solves A^T x = b as on dgbtrf's (the factors are
 *     interchangeable: linsolve.c's 1-norm estimate solves with A^T by dgbtrs).
 *   - vm_band_lu_window in three ranges with vm_band_solve_u (the factorization with the forward
 *     solve, U only, packed): the same info, and for a nonsingular band the same x as vm_band_lu
 *     with vm_band_solve, bit for bit up to the sign of zeros (compared with ==).
 * A zero column: info = its index + 1, as dgbtrf.  Invalid arguments: -1. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "la/bandlu.h"
#include "vmtest.h"

extern void dgbtrf_ (const int *m, const int *n, const int *kl, const int *ku, double *ab,
                     const int *ldab, int *ipiv, int *info);
extern void dgbtrs_ (const char *trans, const int *n, const int *kl, const int *ku,
                     const int *nrhs, const double *ab, const int *ldab, const int *ipiv,
                     double *b, const int *ldb, int *info, size_t len);
extern void dgbcon_ (const char *norm, const int *n, const int *kl, const int *ku,
                     const double *ab, const int *ldab, const int *ipiv, const double *anorm,
                     double *rcond, double *work, int *iwork, int *info, size_t len);

static unsigned long rng = 12345;

static double
urand (void)   /* in [-1, 1) */
{
  rng = rng * 6364136223846793005UL + 1442695040888963407UL;
  return (double) ((rng >> 11) & ((1UL << 52) - 1)) / (double) (1UL << 51) - 1.0;
}

/* the band of a random matrix (LAPACK storage, fill rows zero); zcol: a zero column or -1 */
static double *
make_band (int n, int kl, int ku, int ldab, int zcol)
{
  double *ab = calloc ((size_t) ldab * (size_t) (n > 0 ? n : 1), sizeof *ab);
  int i, j;
  for (j = 0; j < n; j++)
    for (i = (j - ku > 0 ? j - ku : 0); i <= j + kl && i < n; i++)
      {
        double v = i == j ? (j % 5 == 4 && kl > 0 && ku > 0 ? 0.0 : 1.0 + urand ()) : urand ();
        if (i != j && fabs (urand ()) > 0.6 && i != j + kl && i != j - ku)
          v = 0.0;
        ab[(size_t) j * ldab + kl + ku + i - j] = j == zcol ? 0.0 : v;
      }
  return ab;
}

/* y = A x from the unfactored band */
static void
band_mul (int n, int kl, int ku, int ldab, const double *ab, const double *x, double *y)
{
  int i, j;
  for (i = 0; i < n; i++)
    y[i] = 0.0;
  for (j = 0; j < n; j++)
    for (i = (j - ku > 0 ? j - ku : 0); i <= j + kl && i < n; i++)
      y[i] += ab[(size_t) j * ldab + kl + ku + i - j] * x[j];
}

static double
maxabs (const double *a, size_t k)
{
  double m = 0.0;
  size_t i;
  for (i = 0; i < k; i++)
    m = fabs (a[i]) > m ? fabs (a[i]) : m;
  return m;
}

static double
maxdiff (const double *a, const double *b, size_t k)
{
  double m = 0.0;
  size_t i;
  for (i = 0; i < k; i++)
    m = fabs (a[i] - b[i]) > m ? fabs (a[i] - b[i]) : m;
  return m;
}

/* max |a - b| over the entries of the factors (U: the rows of column j that are rows >= 0 of
 * the matrix; L: the multipliers of rows j + 1 .. min (n - 1, j + kl)); the other entries of the
 * fill rows are left as they were by both, and need not agree */
static void
factor_diff (int n, int kl, int ku, int ldab, const double *a, const double *b, double *d,
             double *m)
{
  const int kv = kl + ku;
  int i, j;
  *d = *m = 0.0;
  for (j = 0; j < n; j++)
    for (i = 0; i <= kv + kl; i++)
      {
        const int row = j - kv + i;
        const size_t k = (size_t) j * ldab + i;
        if (row < 0 || row >= n)
          continue;
        *d = fabs (a[k] - b[k]) > *d ? fabs (a[k] - b[k]) : *d;
        *m = fabs (a[k]) > *m ? fabs (a[k]) : *m;
      }
}

static void
one_case (int n, int kl, int ku, int zcol)
{
  const int ldab = 2 * kl + ku + 1, one = 1;
  const size_t nab = (size_t) ldab * (size_t) n;
  double *a0 = make_band (n, kl, ku, ldab, zcol);
  double *a1 = malloc (nab * sizeof *a1), *a2 = malloc (nab * sizeof *a2);
  double *b = malloc ((size_t) n * sizeof *b), *x1 = malloc ((size_t) n * sizeof *x1);
  double *x2 = malloc ((size_t) n * sizeof *x2), *r = malloc ((size_t) n * sizeof *r);
  double *work = malloc (3 * (size_t) n * sizeof *work), anorm = 0.0, rc = 0.0;
  int *p1 = malloc ((size_t) n * sizeof *p1), *p2 = malloc ((size_t) n * sizeof *p2);
  int *iw = malloc ((size_t) n * sizeof *iw), info1 = 0, info2, i, j, samepiv = 1;
  double factor_d = 0.0, factor_m = 0.0;
  for (j = 0; j < n; j++)   /* the 1-norm of A */
    {
      double s = 0.0;
      for (i = kl; i < ldab; i++)
        s += fabs (a0[(size_t) j * ldab + i]);
      anorm = s > anorm ? s : anorm;
    }
  memcpy (a1, a0, nab * sizeof *a1);
  memcpy (a2, a0, nab * sizeof *a2);
  for (j = 0; j < n; j++)   /* vm_band_lu need not find the fill rows zero */
    for (i = 0; i < kl; i++)
      a2[(size_t) j * ldab + i] = 99.0;
  dgbtrf_ (&n, &n, &kl, &ku, a1, &ldab, p1, &info1);
  info2 = vm_band_lu (n, kl, ku, a2, ldab, p2);
  for (j = 0; j < n; j++)
    samepiv = samepiv && p1[j] == p2[j];
  CHECK (info1 == info2, "n %d kl %d ku %d: info %d, dgbtrf's %d", n, kl, ku, info2, info1);
  CHECK (samepiv, "n %d kl %d ku %d: pivots differ from dgbtrf's", n, kl, ku);
  {
    double d, m;
    factor_diff (n, kl, ku, ldab, a1, a2, &d, &m);
    factor_d = d;
    factor_m = m;
  }
  if (info1 == 0 && n > 0)
    {
      int info = 0;
      dgbcon_ ("1", &n, &kl, &ku, a1, &ldab, p1, &anorm, &rc, work, iw, &info, 1);
      for (i = 0; i < n; i++)
        b[i] = sin (1.0 + i);
      memcpy (x1, b, (size_t) n * sizeof *x1);
      memcpy (x2, b, (size_t) n * sizeof *x2);
      dgbtrs_ ("N", &n, &kl, &ku, &one, a1, &ldab, p1, x1, &n, &info, 1);
      vm_band_solve (n, kl, ku, a2, ldab, p2, x2);
      CHECK (maxdiff (x1, x2, (size_t) n) <= 100 * DBL_EPSILON / rc * maxabs (x1, (size_t) n),
             "n %d kl %d ku %d: solution differs from dgbtrs' by %.2e (cond %.1e)", n, kl, ku,
             maxdiff (x1, x2, (size_t) n) / maxabs (x1, (size_t) n), 1.0 / rc);
      band_mul (n, kl, ku, ldab, a0, x2, r);
      for (i = 0; i < n; i++)
        r[i] -= b[i];
      {
        double ainf = 0.0;   /* |A|_inf */
        for (i = 0; i < n; i++)
          {
            double s = 0.0;
            for (j = (i - kl > 0 ? i - kl : 0); j <= i + ku && j < n; j++)
              s += fabs (a0[(size_t) j * ldab + kl + ku + i - j]);
            ainf = s > ainf ? s : ainf;
          }
        CHECK (maxabs (r, (size_t) n) <= 1e-13 * ainf * maxabs (x2, (size_t) n),
               "n %d kl %d ku %d: residual %.2e", n, kl, ku,
               maxabs (r, (size_t) n) / (ainf * maxabs (x2, (size_t) n)));
      }
      memcpy (x1, b, (size_t) n * sizeof *x1);
      memcpy (x2, b, (size_t) n * sizeof *x2);
      dgbtrs_ ("T", &n, &kl, &ku, &one, a1, &ldab, p1, x1, &n, &info, 1);
      dgbtrs_ ("T", &n, &kl, &ku, &one, a2, &ldab, p2, x2, &n, &info, 1);
      CHECK (maxdiff (x1, x2, (size_t) n) <= 100 * DBL_EPSILON / rc * maxabs (x1, (size_t) n),
             "n %d kl %d ku %d: A^T solve on the factors differs by %.2e", n, kl, ku,
             maxdiff (x1, x2, (size_t) n) / maxabs (x1, (size_t) n));
      CHECK (factor_d <= 100 * DBL_EPSILON / rc * factor_m,
             "n %d kl %d ku %d: factors differ by %.2e (max %.2e, cond %.1e)", n, kl, ku, factor_d,
             factor_m, 1.0 / rc);
      printf ("  n %4d kl %3d ku %3d: 1-norm condition %.1e, factors differ by %.1e of their max\n",
              n, kl, ku, 1.0 / rc, factor_d / (factor_m > 0.0 ? factor_m : 1.0));
    }
  {
    /* vm_band_lu_window in three ranges (U only, L applied to b as it is made), then
     * vm_band_solve_u: the same info and the same x as vm_band_lu and vm_band_solve, bit for bit */
    const int kv = kl + ku, cuts[4] = { 0, n / 3, 2 * n / 3, n };
    double *a3 = malloc (nab * sizeof *a3 + 1), *u = malloc (((size_t) (kv + 1) * n + 1) * sizeof *u);
    double *x3 = malloc (((size_t) n + 1) * sizeof *x3), *x4 = malloc (((size_t) n + 1) * sizeof *x4);
    int64_t *up = malloc (((size_t) n + 1) * sizeof *up);
    int ju = 0, info3 = 0, st, c, same = 1;
    memcpy (a3, a0, nab * sizeof *a3);
    for (j = 0; j < n; j++)
      for (i = 0; i < kl; i++)
        a3[(size_t) j * ldab + i] = 0.0;
    for (i = 0; i < n; i++)
      x3[i] = x4[i] = sin (1.0 + i);
    up[0] = 0;
    for (c = 0; c < 3; c++)
      {
        const vm_band_u f = { n, kl, ku, ldab, x3, u, up };
        st = vm_band_lu_window (&f, a3 + (size_t) cuts[c] * ldab, cuts[c], cuts[c + 1], &ju);
        if (info3 == 0)
          info3 = st;
      }
    vm_band_solve_u (n, u, up, x3);
    vm_band_solve (n, kl, ku, a2, ldab, p2, x4);
    for (i = 0; i < n && info2 == 0; i++)   /* equal (a zero's sign may differ); after a zero
                                                 pivot x is not a solution (inf x 0 in vm_band_solve's
                                                 updates by U's zeros, skipped here) */
      same = same && x3[i] == x4[i];
    CHECK (info3 == info2 && same && up[n] <= (int64_t) (kv + 1) * n,
           "n %d kl %d ku %d: vm_band_lu_window: info %d (vm_band_lu's %d), x %s, U packed in %lld "
           "of %lld", n, kl, ku, info3, info2, same ? "the same" : "not the same",
           (long long) up[n], (long long) (kv + 1) * n);
    free (a3); free (u); free (x3); free (x4); free (up);
  }
  free (a0); free (a1); free (a2); free (b); free (x1); free (x2); free (r); free (work);
  free (p1); free (p2); free (iw);
}

int
main (void)
{
  static const int cases[][3] = {
    { 1, 0, 0 }, { 5, 0, 0 }, { 9, 2, 0 }, { 9, 0, 3 }, { 40, 3, 5 }, { 300, 10, 10 },
    { 400, 17, 17 }, { 384, 30, 30 }, { 300, 7, 31 }, { 200, 33, 6 }, { 10, 12, 12 },
    { 30, 40, 25 }, { 2, 1, 1 }
  };
  double ab[8];
  int k, ipiv[2];
  for (k = 0; k < (int) (sizeof cases / sizeof cases[0]); k++)
    one_case (cases[k][0], cases[k][1], cases[k][2], -1);
  one_case (50, 4, 6, 23);    /* a zero column: info 24, as dgbtrf */
  one_case (50, 4, 6, 0);
  one_case (50, 4, 6, 49);
  CHECK (vm_band_lu (-1, 0, 0, ab, 1, ipiv) == -1, "n < 0 accepted");
  CHECK (vm_band_lu (2, -1, 0, ab, 1, ipiv) == -1, "kl < 0 accepted");
  CHECK (vm_band_lu (2, 1, 1, ab, 3, ipiv) == -1, "ldab < 2 kl + ku + 1 accepted");
  CHECK (vm_band_lu (2, 0, 0, NULL, 1, ipiv) == -1, "NULL band accepted");
  CHECK (vm_band_lu (0, 0, 0, NULL, 1, NULL) == 0, "n = 0 refused");
  {
    /* the factor's shape and arrays of one vm_band_lu_window call */
#define WIN(n, kl, ku, ldab, b, u, up) (&(vm_band_u) { (n), (kl), (ku), (ldab), (b), (u), (up) })
    int ju = 0;
    double b2[2], u2[6];
    int64_t up2[3] = { 0, 0, 0 };
    CHECK (vm_band_lu_window (WIN (2, 1, 1, 3, b2, u2, up2), ab, 0, 2, &ju) == -1,
           "window: ldab accepted");
    CHECK (vm_band_lu_window (WIN (2, 1, 1, 4, b2, u2, up2), ab, 0, 3, &ju) == -1,
           "window: j1 > n accepted");
    CHECK (vm_band_lu_window (WIN (2, 1, 1, 4, b2, u2, up2), ab, -1, 2, &ju) == -1,
           "window: j0 < 0 accepted");
    CHECK (vm_band_lu_window (WIN (2, 1, 1, 4, b2, u2, up2), ab, 0, 2, NULL) == -1,
           "window: NULL ju accepted");
    CHECK (vm_band_lu_window (WIN (2, 1, 1, 4, NULL, u2, up2), ab, 0, 2, &ju) == -1,
           "window: NULL b accepted");
    CHECK (vm_band_lu_window (WIN (2, 1, 1, 4, b2, u2, NULL), ab, 0, 2, &ju) == -1,
           "window: NULL up accepted");
    CHECK (vm_band_lu_window (WIN (2, 1, 1, 4, NULL, NULL, NULL), ab, 1, 1, &ju) == 0,
           "window: empty range");
  }
  return vmtest_finish ("test_bandlu");
}
