/* band_time.c -- time one factorization + solve of a sparse matrix with both backends of
 * csrc/la/linsolve.h (UMFPACK and LAPACK's banded LU), and one bare dgbtrf of its band: the
 * measurement behind VM_LINSOLVE_AUTO's rule (bench/README_band.md, bench/bench_band.m).
 *
 *   band_time FILE UMFOPTS REPS
 *
 * FILE: int64 n, int64 nnz, int64 colptr[n+1], int64 rowind[nnz], double values[nnz] (little
 * endian, as Octave's fwrite writes them; bench_band.m).  UMFOPTS: "skg" (the natural ordering,
 * unsymmetric strategy and no iterative refinement of skg_solve) or "default" (UMFPACK's defaults,
 * as dual_solve uses them).  REPS: repetitions; each time is the minimum over them.
 * Prints one line of key=value pairs:
 *   n nnz kl ku auto (the rule's choice)
 *   umf_sym       UMFPACK symbolic analysis (once per pattern in a solve: not in the sums)
 *   umf_num umf_solve umf (= num + solve)
 *   band_num (fill of the scaled band + dgbtrf + the pivot ratio) band_solve band (= num + solve:
 *   the backend's factor + solve with its default condition estimate), norm1_con (the 1-norm
 *   condition estimate, VM_LINSOLVE_COND_NORM1, alone), trf_only (a bare dgbtrf of the unscaled
 *   band, filled outside the timing: the "one dgbtrf of the same matrix" of issue 15)
 *   chol_num chol_solve chol (the banded backend with option definite, when A's diagonal has one
 *   sign and kl = ku: the scaled band's fill + the Cholesky factorization + the pivot ratio, the
 *   solve, both; NaN otherwise, or when A is not definite: chol_ok = 0), pbtrf_only (a bare
 *   LAPACK dpbtrf of the lower band of +-A, filled outside the timing; NaN likewise)
 *   umf_lnz umf_unz umf_flops (UMFPACK's Info), band_flops (2 n kl (kl + ku) + ...)
 *   rcond_umf rcond_band (the pivot ratios) rcond_norm1, relerr (||x_band - x_umf||_inf /
 *   ||x_umf||_inf, b = A * ones) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <umfpack.h>

#include "la/linsolve.h"
#include "base/vm_status.h"

extern void dgbtrf_ (const int *m, const int *n, const int *kl, const int *ku, double *ab,
                     const int *ldab, int *ipiv, int *info);
extern void dpbtrf_ (const char *uplo, const int *n, const int *kd, double *ab, const int *ldab,
                     int *info, size_t uplo_len);

typedef struct
{
  int n;
  int64_t nnz, *cp, *ri;
  double *ax;
} mat_t;

static int
read_mat (const char *file, mat_t *a)
{
  FILE *f = fopen (file, "rb");
  int64_t hdr[2];
  int ok;
  if (!f)
    return 0;
  ok = fread (hdr, sizeof hdr[0], 2, f) == 2 && hdr[0] > 0 && hdr[0] < INT32_MAX && hdr[1] >= 0;
  if (ok)
    {
      a->n = (int) hdr[0];
      a->nnz = hdr[1];
      a->cp = malloc ((size_t) (a->n + 1) * sizeof *a->cp);
      a->ri = malloc ((size_t) (a->nnz + 1) * sizeof *a->ri);
      a->ax = malloc ((size_t) (a->nnz + 1) * sizeof *a->ax);
      ok = a->cp && a->ri && a->ax
           && fread (a->cp, sizeof *a->cp, (size_t) a->n + 1, f) == (size_t) a->n + 1
           && fread (a->ri, sizeof *a->ri, (size_t) a->nnz, f) == (size_t) a->nnz
           && fread (a->ax, sizeof *a->ax, (size_t) a->nnz, f) == (size_t) a->nnz;
    }
  fclose (f);
  return ok;
}

/* one factor + solve; t[0..3] the minima over the calls of: numeric, solve, both, dgbcon */
static int
run (vm_linsolve *ls, const mat_t *a, const double *b, double *x, double *t)
{
  double n0 = ls->t_numeric, s0 = ls->t_solve, c0 = ls->t_rcond;
  if (vm_linsolve_factor (ls, a->ax) != VM_OK || ls->singular
      || vm_linsolve_solve (ls, b, x) != VM_OK)
    return 0;
  vm_linsolve_release (ls);
  t[0] = fmin (t[0], ls->t_numeric - n0);
  t[1] = fmin (t[1], ls->t_solve - s0);
  t[2] = fmin (t[2], ls->t_numeric - n0 + ls->t_solve - s0);
  t[3] = fmin (t[3], ls->t_rcond - c0);
  return 1;
}

/* a bare dgbtrf of the band of A (unscaled), timed alone */
static double
bare_trf (const mat_t *a, int kl, int ku, int reps)
{
  const int n = a->n, ldab = 2 * kl + ku + 1;
  double *ab = malloc ((size_t) ldab * (size_t) n * sizeof *ab), best = INFINITY;
  int *ipiv = malloc ((size_t) n * sizeof *ipiv), r, j, info;
  int64_t p;
  if (!ab || !ipiv)
    {
      free (ab);
      free (ipiv);
      return NAN;
    }
  for (r = 0; r < reps; r++)
    {
      double t0;
      memset (ab, 0, (size_t) ldab * (size_t) n * sizeof *ab);
      for (j = 0; j < n; j++)
        for (p = a->cp[j]; p < a->cp[j + 1]; p++)
          ab[(size_t) j * ldab + kl + ku + a->ri[p] - j] = a->ax[p];
      t0 = vm_wall_time ();
      dgbtrf_ (&n, &n, &kl, &ku, ab, &ldab, ipiv, &info);
      best = fmin (best, vm_wall_time () - t0);
    }
  free (ab);
  free (ipiv);
  return best;
}

/* +1 or -1 when every diagonal entry of A is in the pattern with that sign, else 0 */
static int
diagonal_sign (const mat_t *a)
{
  int j, sgn = 0;
  int64_t p;
  for (j = 0; j < a->n; j++)
    {
      int s = 0;
      for (p = a->cp[j]; p < a->cp[j + 1]; p++)
        if (a->ri[p] == j)
          s = a->ax[p] > 0.0 ? 1 : a->ax[p] < 0.0 ? -1 : 0;
      if (s == 0 || (sgn != 0 && s != sgn))
        return 0;
      sgn = s;
    }
  return sgn;
}

/* a bare dpbtrf of the lower band of sgn A (kd = kl), timed alone; NaN when it fails */
static double
bare_pbtrf (const mat_t *a, int kd, int sgn, int reps)
{
  const int n = a->n, ld = kd + 1;
  double *ab = malloc ((size_t) ld * (size_t) n * sizeof *ab), best = INFINITY;
  int r, j, info = 0;
  int64_t p;
  if (!ab)
    return NAN;
  for (r = 0; r < reps && info == 0; r++)
    {
      double t0;
      memset (ab, 0, (size_t) ld * (size_t) n * sizeof *ab);
      for (j = 0; j < n; j++)
        for (p = a->cp[j]; p < a->cp[j + 1]; p++)
          if (a->ri[p] >= j)
            ab[(size_t) j * ld + a->ri[p] - j] = sgn * a->ax[p];
      t0 = vm_wall_time ();
      dpbtrf_ ("L", &n, &kd, ab, &ld, &info, 1);
      best = fmin (best, vm_wall_time () - t0);
    }
  free (ab);
  return info == 0 ? best : NAN;
}

int
main (int argc, char **argv)
{
  mat_t a;
  vm_linsolve lu, lb, l1;
  vm_linsolve_opts o;
  double *b, *xu, *xb, tu[4] = { INFINITY, INFINITY, INFINITY, INFINITY };
  double tb[4] = { INFINITY, INFINITY, INFINITY, INFINITY }, trf, err = 0.0, xm = 0.0, bflops = 0.0;
  double t1[4] = { INFINITY, INFINITY, INFINITY, INFINITY };
  double tc[4] = { INFINITY, INFINITY, INFINITY, INFINITY }, pbtrf = NAN;
  vm_linsolve lc;
  int reps, r, i, j, ok = 1, sgn, chol_ok = 0;
  int64_t p;
  if (argc != 4 || !read_mat (argv[1], &a) || (reps = atoi (argv[3])) < 1)
    {
      fprintf (stderr, "usage: band_time FILE skg|default REPS\n");
      return 2;
    }
  b = calloc ((size_t) a.n, sizeof *b);
  xu = malloc ((size_t) a.n * sizeof *xu);
  xb = malloc ((size_t) a.n * sizeof *xb);
  for (j = 0; j < a.n; j++)
    for (p = a.cp[j]; p < a.cp[j + 1]; p++)
      b[a.ri[p]] += a.ax[p];
  vm_linsolve_opts_init (&o);
  if (strcmp (argv[2], "skg") == 0)
    {
      o.umf_ordering = VM_UMF_ORDERING_NONE;
      o.umf_strategy = VM_UMF_STRATEGY_UNSYMMETRIC;
      o.umf_irstep = 0;
    }
  o.kind = VM_LINSOLVE_UMFPACK;
  ok = vm_linsolve_init (&lu, a.n, a.cp, a.ri, &o) == VM_OK;
  o.kind = VM_LINSOLVE_BANDED;
  ok = ok && vm_linsolve_init (&lb, a.n, a.cp, a.ri, &o) == VM_OK;
  o.cond = VM_LINSOLVE_COND_NORM1;
  ok = ok && vm_linsolve_init (&l1, a.n, a.cp, a.ri, &o) == VM_OK;
  for (r = 0; ok && r < reps; r++)
    ok = run (&lu, &a, b, xu, tu) && run (&lb, &a, b, xb, tb) && run (&l1, &a, b, xb, t1);
  if (!ok)
    {
      fprintf (stderr, "band_time: failed: %s / %s / %s\n", lu.message, lb.message, l1.message);
      return 1;
    }
  trf = bare_trf (&a, lb.kl, lb.ku, reps);
  sgn = lb.kl == lb.ku ? diagonal_sign (&a) : 0;
  if (sgn != 0)
    {
      o.cond = VM_LINSOLVE_COND_PIVOT;
      o.definite = sgn;
      chol_ok = vm_linsolve_init (&lc, a.n, a.cp, a.ri, &o) == VM_OK;
      for (r = 0; chol_ok && r < reps; r++)
        chol_ok = run (&lc, &a, b, xb, tc) && lc.chol;
      vm_linsolve_free (&lc);
      if (chol_ok)
        pbtrf = bare_pbtrf (&a, lb.kl, sgn, reps);
      else
        tc[0] = tc[1] = tc[2] = NAN;
    }
  else
    tc[0] = tc[1] = tc[2] = NAN;
  for (i = 0; i < a.n; i++)
    {
      err = fmax (err, fabs (xb[i] - xu[i]));
      xm = fmax (xm, fabs (xu[i]));
    }
  for (i = 0; i < a.n; i++)   /* dgbtrf's flops with a full band: 2 kl (kl + ku) per column */
    {
      const double l = fmin (lb.kl, a.n - 1 - i), u = fmin (lb.kl + lb.ku, a.n - 1 - i);
      bflops += l + 2.0 * l * u;
    }
  printf ("n=%d nnz=%lld kl=%d ku=%d auto=%s umf_sym=%.6g umf_num=%.6g umf_solve=%.6g umf=%.6g "
          "band_num=%.6g band_solve=%.6g band=%.6g norm1_con=%.6g trf_only=%.6g "
          "chol_ok=%d chol_num=%.6g chol_solve=%.6g chol=%.6g pbtrf_only=%.6g umf_lnz=%.0f umf_unz=%.0f umf_flops=%.6g band_flops=%.6g rcond_umf=%.3g rcond_band=%.3g "
          "rcond_norm1=%.3g relerr=%.3g\n", a.n, (long long) a.nnz, lb.kl, lb.ku,
          vm_linsolve_name (vm_linsolve_auto (a.n, a.nnz, lb.kl, lb.ku)), lu.t_symbolic, tu[0],
          tu[1], tu[2], tb[0], tb[1], tb[2], t1[3], trf, chol_ok, tc[0], tc[1], tc[2], pbtrf,
          lu.info[UMFPACK_LNZ],
          lu.info[UMFPACK_UNZ], lu.info[UMFPACK_FLOPS], bflops, lu.rcond, lb.rcond, l1.rcond,
          err / xm);
  vm_linsolve_free (&lu);
  vm_linsolve_free (&lb);
  vm_linsolve_free (&l1);
  free (b);
  free (xu);
  free (xb);
  free (a.cp);
  free (a.ri);
  free (a.ax);
  return 0;
}
