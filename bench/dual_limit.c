/* dual_limit.c -- a Newton iteration of the dual solver against the physical limit of its linear
 * algebra: one LAPACK dgbtrf of the same matrix (issue 15, for N = 256 ... 2^20;
 * bench/README_dual.md, "The physical limit").  The dual's counterpart of bench/skg_limit.c.
 *
 * The problem of bench_dual: Lorenz A = 10, R = 28, B = 8/3 from y0 = (1, 1, 1) on [0, 1], one
 * slab of N nodes, order 4, c = 50, D = 0 as the start, and the base state ybar = yref + 0.02
 * max|yref| .* (sin 2 pi t, cos 3 pi t, sin 5 pi t), yref here the classical Runge-Kutta solution
 * with 20 steps per grid interval (bench_dual takes ode45 at 1e-12: the two differ by about 1e-9,
 * nothing to a base state 2 % off).
 *   1. vm_dual_init + vm_dual_solve (what dual_lorenz's gateway runs, with its defaults: tol 1e-11,
 *      LinearSolver auto) R times, the fastest reported: end to end (init + solve), Newton
 *      iterations, factorizations (Cholesky among them), the kernel's split (info.t_fun, t_jac,
 *      t_symbolic, t_numeric, t_solve) and the process's peak resident memory after the first
 *      solve (VmHWM, Linux; -1 elsewhere).  A Newton iteration's time (iter) is the whole
 *      vm_dual_solve call (everything but vm_dual_init: Newton's own passes, its set-up, the
 *      first residual and the final evaluation included) divided by its iterations; printed with
 *      the callbacks' and the linear solver's share (newton_it: t_fun + t_jac + t_symbolic +
 *      t_numeric + t_solve) and its four parts per iteration: residuals (fun_it), Hessians
 *      (jac_it), factorizations (factor_it; with the forward substitution of a Newton step's
 *      solve, which goes with its Cholesky factorization: linsolve_chol.c), solves (solve_it).
 *   2. The Hessian at the solution (vm_dual_eval; the matrix Newton factors) in LAPACK's band
 *      storage (LDAB = 2 kl + ku + 1, kl = ku from its pattern) and dgbtrf of it, once cold (fresh
 *      pages), then max(R, 3) times warm (the band refilled outside the timing, the minimum
 *      taken: one warm call at 2^18 measured 95-320 ms on the virtual machine of the CI); and
 *      dpbtrf of its lower band (the Cholesky of -H, the factorization the solver makes) likewise,
 *      warm.  The limit is the warm dgbtrf, the reference.
 *   The first solve's time per iteration is printed as well (iter_first, ratio_first): in a fresh
 *   process every array is touched for the first time, and on the virtual machines of the CI
 *   that costs the host's backing of the pages on top of the kernel's clearing (bench/
 *   README_dual.md, "the fifth session of 2026-11-28": 0.6-2 GB/s for memory the process has not
 *   used before, 15-20 GB/s for huge pages it has).
 * Printed: one line "DUALLIMIT key value ...", "ratio" = iter / warm dgbtrf (target <= 1.5).
 *
 * Usage: dual_limit N [R]   (R solves and warm repetitions, default 3)
 * Build: make dual_limit; run: make bench-dual (part l of bench_dual calls it per N). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dual/dual.h"
#include "dual/dual_closed.h"
#include "newton/newton.h"
#include "proc_hwm.h"
#include "base/vm_status.h"

extern void dgbtrf_ (const int *m, const int *n, const int *kl, const int *ku, double *ab,
                     const int *ldab, int *ipiv, int *info);
extern void dpbtrf_ (const char *uplo, const int *n, const int *kd, double *ab, const int *ldab,
                     int *info, size_t uplo_len);

static void
lorenz (const double *y, double *d)
{
  d[0] = 10.0 * (y[1] - y[0]);
  d[1] = y[0] * (28.0 - y[2]) - y[1];
  d[2] = y[0] * y[1] - 8.0 / 3.0 * y[2];
}

/* the base state of bench_dual on N nodes of [0, 1] (point-major, N x 3) */
static void
base_state (int64_t N, double *ybar)
{
  const double PI = 3.14159265358979323846, h = 1.0 / (double) (N - 1) / 20.0;
  double y[3] = { 1.0, 1.0, 1.0 }, mx[3] = { 0.0, 0.0, 0.0 };
  int64_t k;
  int i, j;
  for (k = 0; k < N; k++)
    {
      for (i = 0; i < 3; i++)
        {
          ybar[3 * k + i] = y[i];
          if (fabs (y[i]) > mx[i])
            mx[i] = fabs (y[i]);
        }
      for (j = 0; k < N - 1 && j < 20; j++)
        {
          double k1[3], k2[3], k3[3], k4[3], s[3];
          lorenz (y, k1);
          for (i = 0; i < 3; i++)
            s[i] = y[i] + h / 2 * k1[i];
          lorenz (s, k2);
          for (i = 0; i < 3; i++)
            s[i] = y[i] + h / 2 * k2[i];
          lorenz (s, k3);
          for (i = 0; i < 3; i++)
            s[i] = y[i] + h * k3[i];
          lorenz (s, k4);
          for (i = 0; i < 3; i++)
            y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        }
    }
  for (k = 0; k < N; k++)
    {
      const double t = (double) k / (double) (N - 1);
      ybar[3 * k] += 0.02 * mx[0] * sin (2 * PI * t);
      ybar[3 * k + 1] += 0.02 * mx[1] * cos (3 * PI * t);
      ybar[3 * k + 2] += 0.02 * mx[2] * sin (5 * PI * t);
    }
}

/* the band of (colptr, rowind, v) in LAPACK's general band storage (rows kl .. ldab - 1), or, with
 * lower set, -v's lower band in dpbtrf's storage (ldab = kl + 1) */
static void
band_fill (double *ab, int n, int kl, int ku, int ldab, int lower, const vm_dual *d,
           const double *v)
{
  int64_t p;
  int j;
  memset (ab, 0, (size_t) n * (size_t) ldab * sizeof *ab);
  for (j = 0; j < n; j++)
    for (p = d->colptr[j]; p < d->colptr[j + 1]; p++)
      {
        const int i = (int) d->rowind[p];
        if (lower && i >= j)
          ab[(size_t) (i - j) + (size_t) j * (size_t) ldab] = -v[p];
        else if (! lower)
          ab[(size_t) (kl + ku + i - j) + (size_t) j * (size_t) ldab] = v[p];
      }
}

int
main (int argc, char **argv)
{
  const int order = 4;
  int64_t N = argc > 1 ? atol (argv[1]) : 4096, p;
  int reps = argc > 2 ? atoi (argv[2]) : 3, kl = 0, n, ldab, info = 0, pinfo = 0, r, it = 0, j;
  double c[3] = { 50.0, 50.0, 50.0 }, y0[3] = { 1.0, 1.0, 1.0 }, S, t;
  double t_e2e = 1e300, t_init = 0, t_iter = 0, t_first = 0, t_newton = 0, t_num = 0, t_cold,
    t_warm = 1e300, t_pb = 1e300, split[4] = { 0, 0, 0, 0 };
  double *ybar, *z = NULL, *h = NULL, *ab, *pb;
  int *ipiv;
  long hwm = -1, nfactor = 0, nchol = 0;
  vm_dual_lorenz L = { 10.0, 28.0, 8.0 / 3.0, 50.0 };
  vm_dual d;
  vm_newton_info inf;
  if (N < 16 || N > (INT64_C (1) << 24) || reps < 1)
    {
      fprintf (stderr, "usage: dual_limit N [R]  (16 <= N <= 2^24, R >= 1)\n");
      return 2;
    }
  ybar = malloc ((size_t) N * 3 * sizeof *ybar);
  if (! ybar)
    return 1;
  base_state (N, ybar);

  /* 1. the package's solve, the best of R (the first one's peak memory); d of the last kept */
  vm_newton_info_init (&inf);
  for (r = 0; r < reps; r++)
    {
      double t0 = vm_wall_time (), ti;
      int st;
      if (r > 0)
        {
          vm_dual_free (&d);
          free (z);
        }
      st = vm_dual_init (&d, &(vm_dual_problem) { 3, 3, 0, N, order, c, vm_dual_lorenz_node, &L },
                         0.0, 1.0, ybar, y0, NULL, 0);
      ti = vm_wall_time () - t0;
      z = st == VM_OK ? calloc ((size_t) d.nz, sizeof *z) : NULL;
      if (st != VM_OK || ! z)
        {
          fprintf (stderr, "dual_limit: vm_dual_init: %s\n", vm_status_string (st));
          return 1;
        }
      st = vm_dual_solve (&d, z, 1e-11, 50, VM_LINSOLVE_AUTO, &inf);
      t = vm_wall_time () - t0;
      if (st != VM_OK)
        {
          fprintf (stderr, "dual_limit: vm_dual_solve: %s\n", inf.message);
          return 1;
        }
      if (r == 0)
        {
          hwm = vm_hwm_kb ();
          t_first = (t - ti) / (inf.iterations > 0 ? inf.iterations : 1);
        }
      if (t < t_e2e)
        {
          it = inf.iterations > 0 ? inf.iterations : 1;
          t_e2e = t;
          t_init = ti;
          t_iter = (t - ti) / it;
          t_newton = (inf.t_fun + inf.t_jac + inf.t_symbolic + inf.t_numeric + inf.t_solve) / it;
          t_num = inf.t_numeric / (double) (inf.nfactor > 0 ? inf.nfactor : 1);
          nfactor = inf.nfactor;
          nchol = inf.nchol;
          split[0] = inf.t_fun / it;
          split[1] = inf.t_jac / it;
          split[2] = (inf.t_symbolic + inf.t_numeric) / it;
          split[3] = inf.t_solve / it;
        }
    }

  /* 2. the Hessian at the solution, one dgbtrf and one dpbtrf */
  h = malloc ((size_t) d.nnz * sizeof *h);
  if (! h || vm_dual_eval (&d, z, &S, NULL, h) != VM_OK)
    {
      fprintf (stderr, "dual_limit: the Hessian at the solution\n");
      return 1;
    }
  n = (int) d.nz;
  for (j = 0; j < n; j++)
    for (p = d.colptr[j]; p < d.colptr[j + 1]; p++)
      if (d.rowind[p] - j > kl)
        kl = (int) (d.rowind[p] - j);
  ldab = 3 * kl + 1;
  ab = malloc ((size_t) n * (size_t) ldab * sizeof *ab);
  pb = malloc ((size_t) n * (size_t) (kl + 1) * sizeof *pb);
  ipiv = malloc ((size_t) n * sizeof *ipiv);
  if (! ab || ! pb || ! ipiv)
    {
      fprintf (stderr, "dual_limit: out of memory for the band (%d x %d)\n", ldab, n);
      return 1;
    }
  band_fill (ab, n, kl, kl, ldab, 0, &d, h);
  t = vm_wall_time ();
  dgbtrf_ (&n, &n, &kl, &kl, ab, &ldab, ipiv, &info);
  t_cold = vm_wall_time () - t;
  for (r = 0; r < (reps > 3 ? reps : 3); r++)   /* at least 3: a steady reference */
    {
      const int kp = kl + 1;
      band_fill (ab, n, kl, kl, ldab, 0, &d, h);
      t = vm_wall_time ();
      dgbtrf_ (&n, &n, &kl, &kl, ab, &ldab, ipiv, &info);
      t = vm_wall_time () - t;
      if (t < t_warm)
        t_warm = t;
      band_fill (pb, n, kl, kl, kp, 1, &d, h);
      t = vm_wall_time ();
      dpbtrf_ ("L", &n, &kl, pb, &kp, &pinfo, 1);
      t = vm_wall_time () - t;
      if (t < t_pb)
        t_pb = t;
    }
  printf ("DUALLIMIT N %ld unknowns %d kl %d it %d fact %ld chol %ld e2e %.6f init %.6f "
          "iter %.6f newton_it %.6f fun_it %.6f jac_it %.6f factor_it %.6f solve_it %.6f "
          "numeric %.6f dgbtrf_cold %.6f dgbtrf %.6f dpbtrf %.6f ratio %.3f hwm_kb %ld info %d "
          "pinfo %d iter_first %.6f ratio_first %.3f\n", (long) N, n, kl, it, nfactor, nchol,
          t_e2e, t_init, t_iter, t_newton, split[0], split[1], split[2], split[3], t_num, t_cold, t_warm, t_pb, t_iter / t_warm,
          hwm, info, pinfo, t_first, t_first / t_warm);
  free (ab);
  free (pb);
  free (ipiv);
  free (h);
  free (z);
  free (ybar);
  vm_newton_info_free (&inf);
  vm_dual_free (&d);
  return 0;
}
