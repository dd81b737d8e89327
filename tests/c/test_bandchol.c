/* test_bandchol.c -- unit tests of the banded Cholesky factorization (csrc/la/bandchol.c) against
 * LAPACK's dpbtrf / dpbtrs ("L"), whose algorithm it writes out (dpbtf2), no Octave.
 *
 * Matrices: n x n symmetric with kd subdiagonals, random entries in [-1, 1] on about 60 % of the
 * band, and a diagonal that makes them positive definite: 0.2 + the row's sum of |A_ij| (strictly
 * diagonally dominant), then D A D with D = diag (10^(4 s_i)), s_i in [-1, 1] (condition numbers
 * up to 1e16 in the unscaled sense; Cholesky does not see a diagonal scaling, van der Sluis), for
 * (n, kd) from the 1 x 1 matrix to bands wider than n and the widths of the dual actions (17).
 * Checks, per matrix:
 *   - info 0 from both; the factor equal to dpbtrf's to 100 eps of each column's largest entry:
 *     the same operations up to the rounding of a fused multiply-add in LAPACK's BLAS (the
 *     differences found, printed, are 0 to a few eps);
 *   - vm_band_chol_solve against dpbtrs on the same right-hand side, and the residual
 *     |A x - b|_inf / (|A|_inf |x|_inf) below 1e-14 (backward stability: a few ten eps for
 *     these n); its two halves (vm_band_chol_lower in blocks of 7 columns, vm_band_chol_upper)
 *     give the same x bit for bit;
 *   - the factor (whole, and in steps of 5 columns) equal bit for bit to dpbtf2's algorithm
 *     column by column (chol_reference: each entry the same updates in the same order);
 * A matrix that is not positive definite (a 2 x 2 principal minor made negative in column k): the
 * same info as dpbtrf (the first column whose pivot is not positive, + 1).  A NaN on the diagonal
 * of column k: info k + 1 (dpbtf2 tests DISNAN; OpenBLAS's dpbtrf does not, and returns 0 with NaN
 * factors).  Invalid arguments: -1. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "la/bandchol.h"
#include "vmtest.h"

extern void dpbtrf_ (const char *uplo, const int *n, const int *kd, double *ab, const int *ldab,
                     int *info, size_t uplo_len);
extern void dpbtrs_ (const char *uplo, const int *n, const int *kd, const int *nrhs,
                     const double *ab, const int *ldab, double *b, const int *ldb, int *info,
                     size_t uplo_len);

static double
urand (unsigned *s)   /* uniform in [0, 1), a fixed LCG: the same matrices on every platform */
{
  *s = *s * 1103515245u + 12345u;
  return (double) ((*s >> 8) & 0xffffff) / 16777216.0;
}

/* the lower band (ldab = kd + 1) of a symmetric positive definite matrix, scaled */
static double *
spd_band (int n, int kd, unsigned seed)
{
  const int ld = kd + 1;
  double *ab = calloc ((size_t) n * ld, sizeof *ab), *rs = calloc ((size_t) n, sizeof *rs);
  double *sc = malloc ((size_t) n * sizeof *sc);
  int i, j;
  for (j = 0; j < n; j++)
    for (i = j + 1; i <= j + kd && i < n; i++)
      if (urand (&seed) < 0.6)
        {
          const double v = 2.0 * urand (&seed) - 1.0;
          ab[(i - j) + (size_t) j * ld] = v;
          rs[i] += fabs (v);
          rs[j] += fabs (v);
        }
  for (j = 0; j < n; j++)
    {
      ab[(size_t) j * ld] = 0.2 + rs[j];
      sc[j] = pow (10.0, 4.0 * (2.0 * urand (&seed) - 1.0));
    }
  for (j = 0; j < n; j++)
    for (i = j; i <= j + kd && i < n; i++)
      ab[(i - j) + (size_t) j * ld] *= sc[i] * sc[j];
  free (rs);
  free (sc);
  return ab;
}

/* b = A x for the symmetric band (lower storage) */
static void
band_times (int n, int kd, const double *ab, const double *x, double *b)
{
  const int ld = kd + 1;
  int i, j;
  for (i = 0; i < n; i++)
    b[i] = 0.0;
  for (j = 0; j < n; j++)
    for (i = j; i <= j + kd && i < n; i++)
      {
        const double a = ab[(i - j) + (size_t) j * ld];
        b[i] += a * x[j];
        if (i != j)
          b[j] += a * x[i];
      }
}

/* dpbtf2 ("L") written out column by column, with the skip of a zero multiplier, plain loops: the
 * arithmetic that vm_band_chol (vm_axpy_neg, unrolled and vectorized) and any reordering of its
 * loops must reproduce bit for bit (each entry the same updates in the same order), so that a
 * change of vm_band_chol's loops is held against a fixed order of operations. */
static int
chol_reference (int n, int kd, double *ab, int ld)
{
  int j, c, i;
  for (j = 0; j < n; j++)
    {
      double *cj = ab + (size_t) j * ld;
      const int kn = kd < n - 1 - j ? kd : n - 1 - j;
      if (! (cj[0] > 0.0))
        return j + 1;
      cj[0] = sqrt (cj[0]);
      {
        const double r = 1.0 / cj[0];
        for (i = 1; i <= kn; i++)
          cj[i] *= r;
      }
      for (c = 1; c <= kn; c++)
        if (cj[c] != 0.0)
          for (i = 0; i <= kn - c; i++)
            cj[(size_t) c * ld + i] -= cj[c] * cj[c + i];
    }
  return 0;
}

static void
check_one (int n, int kd, unsigned seed)
{
  const int ld = kd + 1, one = 1;
  double *a0 = spd_band (n, kd, seed), *a1 = malloc ((size_t) n * ld * sizeof *a1);
  double *a2 = malloc ((size_t) n * ld * sizeof *a2), *x = malloc ((size_t) n * sizeof *x);
  double *b1 = malloc ((size_t) n * sizeof *b1), *b2 = malloc ((size_t) n * sizeof *b2);
  double dmax = 0.0, sdiff = 0.0, smax = 0.0, anorm = 0.0, xn = 0.0, rn = 0.0;
  int i, j, info1, info2 = 0;
  unsigned s = seed + 1;
  memcpy (a1, a0, (size_t) n * ld * sizeof *a1);
  memcpy (a2, a0, (size_t) n * ld * sizeof *a2);
  info1 = vm_band_chol (n, kd, a1, ld);
  dpbtrf_ ("L", &n, &kd, a2, &ld, &info2, 1);
  for (j = 0; j < n; j++)
    {
      double cmax = 0.0, cdiff = 0.0;
      for (i = 0; i <= kd && i + j < n; i++)
        {
          cmax = fmax (cmax, fabs (a2[i + (size_t) j * ld]));
          cdiff = fmax (cdiff, fabs (a1[i + (size_t) j * ld] - a2[i + (size_t) j * ld]));
        }
      dmax = fmax (dmax, cmax > 0.0 ? cdiff / cmax : cdiff);
    }
  CHECK (info1 == 0 && info2 == 0 && dmax <= 100 * DBL_EPSILON,
         "n %d kd %d: info %d (dpbtrf %d), factor difference %.2e of the column's largest entry",
         n, kd, info1, info2, dmax);
  /* the factor against the plain column-by-column loops, whole and in steps of 5 columns: bit for
   * bit */
  {
    double *ar = malloc ((size_t) (n > 0 ? n : 1) * ld * sizeof *ar);
    double *as = malloc ((size_t) (n > 0 ? n : 1) * ld * sizeof *as);
    int j0, infos = 0;
    memcpy (ar, a0, (size_t) n * ld * sizeof *ar);
    memcpy (as, a0, (size_t) n * ld * sizeof *as);
    for (j0 = 0; j0 < n && infos == 0; j0 += 5)
      infos = vm_band_chol_steps (n, kd, as, ld, j0, j0 + 5 < n ? j0 + 5 : n);
    CHECK (chol_reference (n, kd, ar, ld) == 0 && infos == 0
           && (n == 0 || (memcmp (ar, a1, (size_t) n * ld * sizeof *ar) == 0
                          && memcmp (ar, as, (size_t) n * ld * sizeof *ar) == 0)),
           "n %d kd %d: the factor (whole, and in steps of 5) = the plain loops, bit for bit",
           n, kd);
    free (ar);
    free (as);
  }
  for (i = 0; i < n; i++)
    b1[i] = b2[i] = 2.0 * urand (&s) - 1.0;
  memcpy (x, b1, (size_t) n * sizeof *x);
  vm_band_chol_solve (n, kd, a1, ld, NULL, x);
  dpbtrs_ ("L", &n, &kd, &one, a2, &ld, b2, &n, &info2, 1);
  for (i = 0; i < n; i++)
    {
      sdiff = fmax (sdiff, fabs (x[i] - b2[i]));
      smax = fmax (smax, fabs (b2[i]));
    }
  band_times (n, kd, a0, x, b2);
  for (i = 0; i < n; i++)
    {
      double r = 0.0;
      for (j = 0; j < n; j++)
        if (abs (i - j) <= kd)
          r += fabs (i >= j ? a0[(i - j) + (size_t) j * ld] : a0[(j - i) + (size_t) i * ld]);
      anorm = fmax (anorm, r);
      xn = fmax (xn, fabs (x[i]));
      rn = fmax (rn, fabs (b2[i] - b1[i]));
    }
  CHECK (rn <= 1e-14 * anorm * xn,
         "n %d kd %d: residual %.2e of |A| |x| (solve vs dpbtrs: %.2e of max |x|)", n, kd,
         rn / (anorm * xn), sdiff / smax);
  /* the solve with the reciprocals of L's diagonal: the same bound on its residual */
  {
    double *rd = malloc ((size_t) (n > 0 ? n : 1) * sizeof *rd), rr = 0.0, xr = 0.0;
    for (j = 0; j < n; j++)
      rd[j] = 1.0 / a1[(size_t) j * ld];
    memcpy (x, b1, (size_t) n * sizeof *x);
    vm_band_chol_solve (n, kd, a1, ld, rd, x);
    band_times (n, kd, a0, x, b2);
    for (i = 0; i < n; i++)
      {
        rr = fmax (rr, fabs (b2[i] - b1[i]));
        xr = fmax (xr, fabs (x[i]));
      }
    CHECK (rr <= 1e-14 * anorm * xr, "n %d kd %d, reciprocal diagonal: residual %.2e of |A| |x|",
           n, kd, rr / (anorm * xr));
    /* the two halves, the forward one in blocks of 7 columns: the same x bit for bit */
    {
      double *y = malloc ((size_t) (n > 0 ? n : 1) * sizeof *y);
      int j0;
      memcpy (y, b1, (size_t) n * sizeof *y);
      for (j0 = 0; j0 < n; j0 += 7)
        vm_band_chol_lower (n, kd, a1, ld, rd, y, j0, j0 + 7 < n ? j0 + 7 : n);
      vm_band_chol_upper (n, kd, a1, ld, rd, y);
      CHECK (n == 0 || memcmp (x, y, (size_t) n * sizeof *y) == 0,
             "n %d kd %d: lower in blocks, then upper = vm_band_chol_solve, bit for bit", n, kd);
      free (y);
    }
    free (rd);
  }
  if (n > 1)
    printf ("  n %4d kd %2d: factor vs dpbtrf %.1e, x vs dpbtrs %.1e, residual %.1e\n", n, kd, dmax,
            sdiff / smax, rn / (anorm * xn));
  free (a0);
  free (a1);
  free (a2);
  free (x);
  free (b1);
  free (b2);
}

/* not positive definite in column k: the same info as dpbtrf */
static void
check_indefinite (int n, int kd, int k, int nan)
{
  const int ld = kd + 1;
  double *a1 = spd_band (n, kd, 31u), *a2 = malloc ((size_t) n * ld * sizeof *a2);
  int info1, info2 = 0;
  if (nan)
    a1[(size_t) k * ld] = NAN;
  else   /* A(k, k-1)^2 > A(k, k) A(k-1, k-1): the 2 x 2 minor of columns k-1, k is negative */
    a1[1 + (size_t) (k - 1) * ld] = 2.0 * sqrt (a1[(size_t) k * ld] * a1[(size_t) (k - 1) * ld]);
  memcpy (a2, a1, (size_t) n * ld * sizeof *a2);
  info1 = vm_band_chol (n, kd, a1, ld);
  dpbtrf_ ("L", &n, &kd, a2, &ld, &info2, 1);
  CHECK (nan ? info1 == k + 1 : (info1 == info2 && info1 >= 2 && info1 <= k + 1),
         "n %d kd %d, %s in column %d: info %d, dpbtrf %d", n, kd, nan ? "NaN" : "negative minor",
         k, info1, info2);
  free (a1);
  free (a2);
}

int
main (void)
{
  static const int cases[][2] = { { 1, 0 }, { 1, 3 }, { 2, 1 }, { 5, 0 }, { 7, 3 }, { 10, 12 },
                                  { 50, 8 }, { 300, 17 }, { 765, 17 }, { 512, 30 }, { 200, 40 } };
  double ab[4] = { 4.0, 1.0, 4.0, 0.0 }, b[2] = { 1.0, 1.0 };
  size_t c;
  for (c = 0; c < sizeof cases / sizeof cases[0]; c++)
    check_one (cases[c][0], cases[c][1], 7u + (unsigned) c);
  check_indefinite (40, 5, 17, 0);
  check_indefinite (40, 5, 1, 0);
  check_indefinite (40, 5, 0, 1);
  check_indefinite (40, 5, 39, 1);
  CHECK (vm_band_chol (0, 3, NULL, 4) == 0, "n = 0");
  CHECK (vm_band_chol (-1, 1, ab, 2) == -1, "n < 0");
  CHECK (vm_band_chol (2, -1, ab, 2) == -1, "kd < 0");
  CHECK (vm_band_chol (2, 1, ab, 1) == -1, "ldab < kd + 1");
  CHECK (vm_band_chol (2, 1, NULL, 2) == -1, "ab NULL");
  CHECK (vm_band_chol (2, 1, ab, 2) == 0 && ab[0] == 2.0, "[4 1; 1 4]: L(0, 0) = 2");
  vm_band_chol_solve (2, 1, ab, 2, NULL, b);
  CHECK (fabs (b[0] - 0.2) <= 1e-15 && fabs (b[1] - 0.2) <= 1e-15, "[4 1; 1 4] x = (1, 1): x = %g, %g",
         b[0], b[1]);
  {
    double rd[2] = { 1.0 / ab[0], 1.0 / ab[2] }, b3[2] = { 1.0, 1.0 };
    vm_band_chol_solve (2, 1, ab, 2, rd, b3);
    CHECK (fabs (b3[0] - 0.2) <= 1e-15 && fabs (b3[1] - 0.2) <= 1e-15,
           "[4 1; 1 4] x = (1, 1) with reciprocals: x = %g, %g", b3[0], b3[1]);
  }
  return vmtest_finish ("test_bandchol");
}
