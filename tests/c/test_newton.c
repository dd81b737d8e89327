/* test_newton.c -- unit tests of the globalized sparse Newton solver (csrc/newton/newton.c), no Octave.
 *
 * Problems:
 *   Bratu    -u'' = lambda e^u on (0, 1), u(0) = u(1) = 0, second-order finite differences on N
 *            interior points (tridiagonal Jacobian).  Reference: the closed form
 *            u(x) = -2 log(cosh((x - 1/2) theta/2) / cosh(theta/4)), theta = sqrt(2 lambda)
 *            cosh(theta/4) (lower branch) found by bisection -- independent of the solver.  The
 *            discrete solution differs from it by O(h^2): checked by the observed order between
 *            N = 100 and N = 200, for lambda = 1 and lambda = 3 (near the turning point 3.51).
 *            Quadratic convergence (check_quadratic): res_{k+1} <= C res_k^2 + (rounding level of
 *            F) for every step, and the ratios ||dx_{k+1}|| / ||dx_k||^2 constant within a factor
 *            2 over the steps above the rounding level of x.
 *   saddle   stationarity of a Lagrangian L(x, y) = 1/2 x'Kx + 1/4 sum x^4 - b'x + y (|x|^2 - 1):
 *            a symmetric indefinite (KKT) Jacobian with a structurally present zero diagonal entry.
 *   arctan   F_i = atan(x_i - a_i) from far starts: plain Newton diverges, the line search converges.
 *   singular 2x2 blocks (x^2 + y - 2, x - y) started at x = -1/2 where J is exactly singular:
 *            the Levenberg-Marquardt fallback moves off; without it the solver reports it.
 *   no root  x^2 + 1 = 0; Bratu with lambda = 4 beyond the turning point (about 3.51): no solution.
 *   wrong J  Bratu with a Jacobian 1000 times too large: tiny, non-contracting steps must not pass
 *            the step test.
 * Failures must give a non-OK status, a message and the best iterate (checked by re-evaluating F
 * at the returned x).  Measured values are printed as "info:" lines. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "newton/newton.h"
#include "base/vm_status.h"
#include "vmtest.h"

/* ---- helpers ------------------------------------------------------------------------------------ */

static double
norm2 (int n, const double *v)  /* plain sum of squares: an independent evaluation */
{
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++)
    s += v[i] * v[i];
  return sqrt (s);
}

static int
has_kind (const vm_newton_info *inf, int kind)
{
  int k;
  for (k = 1; k < inf->nhist; k++)
    if (inf->kind_hist[k] == kind)
      return 1;
  return 0;
}

static double
min_hist (const vm_newton_info *inf)
{
  double m = inf->res_hist[0];
  int k;
  for (k = 1; k < inf->nhist; k++)
    if (inf->res_hist[k] < m)
      m = inf->res_hist[k];
  return m;
}

static void
print_hist (const char *name, const vm_newton_info *inf)
{
  static const char *kn[] = { "start", "newton", "damped", "lm", "chord" };
  int k;
  printf ("info: %s: status %d (%s), %d iterations, nfev %ld, njev %ld, nfactor %ld, nsymbolic %ld\n"
          "info:   %s\n", name, inf->status, vm_status_string (inf->status), inf->iterations,
          inf->nfev, inf->njev, inf->nfactor, inf->nsymbolic, inf->message);
  for (k = 0; k < inf->nhist; k++)
    printf ("info:   k = %2d  ||F|| = %.3e  ||dx|| = %.3e  %-6s %.3g\n", k, inf->res_hist[k],
            inf->step_hist[k], kn[inf->kind_hist[k]], inf->lambda_hist[k]);
}

/* CSC pattern of a tridiagonal n x n matrix (rows j-1, j, j+1 of column j). */
static void
tridiag_pattern (int n, int64_t **cp, int64_t **ri)
{
  int j;
  int64_t p = 0;
  *cp = malloc ((size_t) (n + 1) * sizeof **cp);
  *ri = malloc ((size_t) (3 * n) * sizeof **ri);
  for (j = 0; j < n; j++)
    {
      (*cp)[j] = p;
      if (j > 0)
        (*ri)[p++] = j - 1;
      (*ri)[p++] = j;
      if (j < n - 1)
        (*ri)[p++] = j + 1;
    }
  (*cp)[n] = p;
}

/* ---- Bratu -------------------------------------------------------------------------------------- */

typedef struct
{
  int N;
  double h, lam;
  long ncallF, ncallJ;
  long failF, failJ;  /* return code on this call number (1-based; 0: never) */
  int code;
  int nanF;           /* produce NaN instead of a code */
  double jscale;      /* nonzero: a wrong Jacobian, scaled by this factor */
} bratu_t;

static int
bratu_F (const double *u, double *F, void *c)
{
  bratu_t *b = c;
  const double ih2 = 1.0 / (b->h * b->h);
  int i;
  b->ncallF++;
  if (b->failF && b->ncallF == b->failF)
    {
      if (!b->nanF)
        return b->code;
      for (i = 0; i < b->N; i++)
        F[i] = NAN;
      return 0;
    }
  for (i = 0; i < b->N; i++)
    {
      const double ul = i > 0 ? u[i - 1] : 0.0, ur = i < b->N - 1 ? u[i + 1] : 0.0;
      F[i] = (2.0 * u[i] - ul - ur) * ih2 - b->lam * exp (u[i]);
    }
  return 0;
}

static int
bratu_J (const double *u, double *Jx, void *c)
{
  bratu_t *b = c;
  const double ih2 = 1.0 / (b->h * b->h);
  int j, p = 0;
  b->ncallJ++;
  if (b->failJ && b->ncallJ == b->failJ)
    {
      if (!b->nanF)
        return b->code;
      Jx[0] = INFINITY;
      return 0;
    }
  for (j = 0; j < b->N; j++)
    {
      if (j > 0)
        Jx[p++] = -ih2;
      Jx[p++] = 2.0 * ih2 - b->lam * exp (u[j]);
      if (j < b->N - 1)
        Jx[p++] = -ih2;
    }
  if (b->jscale != 0.0)
    for (j = 0; j < p; j++)
      Jx[j] *= b->jscale;
  return 0;
}

/* theta = sqrt(2 lambda) cosh(theta/4), lower root, by bisection on [0, theta_c] where
 * g(theta) = theta - sqrt(2 lambda) cosh(theta/4) is increasing (theta_c maximizes g). */
static double
bratu_theta (double lam)
{
  const double s = sqrt (2.0 * lam);
  double lo = 0.0, hi = 4.0 * asinh (4.0 / s);
  int it;
  for (it = 0; it < 200; it++)
    {
      const double mid = 0.5 * (lo + hi);
      if (mid - s * cosh (mid / 4.0) < 0.0)
        lo = mid;
      else
        hi = mid;
    }
  return 0.5 * (lo + hi);
}

static double
bratu_exact (double x, double theta)
{
  return -2.0 * log (cosh ((x - 0.5) * theta / 2.0) / cosh (theta / 4.0));
}

static void
bratu_init (bratu_t *b, int N, double lam)
{
  memset (b, 0, sizeof *b);
  b->N = N;
  b->h = 1.0 / (N + 1);
  b->lam = lam;
}

/* solve with N points from u = 0; returns max |u_i - u(x_i)| */
static double
bratu_solve_err (int N, double lam, double theta, vm_newton_info *inf, int *status)
{
  bratu_t b;
  int64_t *cp, *ri;
  double *u = calloc ((size_t) N, sizeof *u), err = 0.0;
  vm_newton_opts o;
  int i;
  bratu_init (&b, N, lam);
  tridiag_pattern (N, &cp, &ri);
  vm_newton_opts_init (&o);
  o.tol_res = 1e-12;  /* scale = ||F(0)|| = sqrt(N): target about 1.7e-11 for N = 200 */
  o.tol_step = 0.0;   /* residual test only, to see the whole convergence history */
  *status = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, inf);
  for (i = 0; i < N; i++)
    {
      const double e = fabs (u[i] - bratu_exact ((i + 1) * b.h, theta));
      if (e > err)
        err = e;
    }
  free (u);
  free (cp);
  free (ri);
  return err;
}

/* Quadratic convergence from the histories of a run that converged by the residual test.
 * Residuals: res_{k+1} <= cres res_k^2 + noise for every step (noise: the rounding level of F), at
 * least two steps informative (cres res_k^2 > noise).  Steps (||dx_k|| estimates the error of x_k
 * near the root): the ratios C_k = ||dx_{k+1}|| / ||dx_k||^2 over the steps above the rounding level
 * of x (1e-11 here) are bounded by cstep and agree within a factor 2 -- a constant C_k is the
 * signature of quadratic convergence (linear convergence makes C_k grow like 1/||dx_k||,
 * superquadratic makes it shrink to 0). */
static void
check_quadratic (const char *name, const vm_newton_info *inf, double cres, double noise,
                 double cstep)
{
  int k, ninf = 0, res_ok = 1, nstep = 0;
  double cmin = INFINITY, cmax = 0.0;
  for (k = 0; k + 1 < inf->nhist; k++)
    {
      const double r0 = inf->res_hist[k], r1 = inf->res_hist[k + 1];
      if (!(r1 <= cres * r0 * r0 + noise))
        res_ok = 0;
      if (cres * r0 * r0 > noise)
        ninf++;
      printf ("info: %s: k = %d: res_k+1 / res_k^2 = %.3e\n", name, k, r1 / (r0 * r0));
    }
  for (k = 1; k + 1 < inf->nhist; k++)
    {
      const double s0 = inf->step_hist[k], s1 = inf->step_hist[k + 1];
      if (s1 > 1e-11 && inf->kind_hist[k] == VM_NEWTON_FULL && inf->kind_hist[k + 1] == VM_NEWTON_FULL
          && s0 < 1.0)
        {
          const double c = s1 / (s0 * s0);
          printf ("info: %s: k = %d: ||dx_k+1|| / ||dx_k||^2 = %.4e\n", name, k, c);
          nstep++;
          if (c < cmin)
            cmin = c;
          if (c > cmax)
            cmax = c;
        }
    }
  CHECK (res_ok && ninf >= 2, "%s: res_k+1 <= %.0e res_k^2 + %.0e (%d informative steps)", name,
         cres, noise, ninf);
  CHECK (nstep >= 2 && cmax <= cstep && cmax <= 2.0 * cmin,
         "%s: step ratios C_k in [%.3e, %.3e] over %d steps", name, cmin, cmax, nstep);
}

static void
test_bratu (void)
{
  const double lam = 1.0, theta = bratu_theta (lam), lam3 = 3.0, theta3 = bratu_theta (lam3);
  vm_newton_info inf100, inf200, inf3;
  int st100, st200, st3a, st3b;
  double e100, e200, e3a, e3b, order, order3, h100 = 1.0 / 101, h200 = 1.0 / 201;

  /* the reference itself: theta solves its equation, u solves the ODE (central differences with
   * step 1e-4: truncation ~1e-9, rounding ~1e-8) and the boundary conditions */
  CHECK (fabs (theta - sqrt (2.0 * lam) * cosh (theta / 4.0)) < 1e-14 && theta > 1.0 && theta < 2.0,
         "theta = %.17g", theta);
  CHECK (fabs (theta3 - sqrt (2.0 * lam3) * cosh (theta3 / 4.0)) < 1e-13 && theta3 > theta,
         "theta(3) = %.17g", theta3);
  {
    const double x = 0.3, d = 1e-4;
    const double upp = (bratu_exact (x + d, theta) - 2.0 * bratu_exact (x, theta)
                        + bratu_exact (x - d, theta)) / (d * d);
    CHECK (fabs (upp + lam * exp (bratu_exact (x, theta))) < 1e-6, "closed form: u'' + e^u = %.3e",
           upp + lam * exp (bratu_exact (x, theta)));
    CHECK (fabs (bratu_exact (0.0, theta)) < 1e-15 && fabs (bratu_exact (1.0, theta)) < 1e-15,
           "closed form: boundary values");
  }
  printf ("info: Bratu lambda = 1: theta = %.15f, u(1/2) = %.15f\n", theta, bratu_exact (0.5, theta));

  vm_newton_info_init (&inf100);
  vm_newton_info_init (&inf200);
  vm_newton_info_init (&inf3);
  e100 = bratu_solve_err (100, lam, theta, &inf100, &st100);
  e200 = bratu_solve_err (200, lam, theta, &inf200, &st200);
  print_hist ("Bratu lambda = 1, N = 200", &inf200);
  order = log (e100 / e200) / log (h100 / h200);
  printf ("info: Bratu: max error N = 100: %.3e (%.4f h^2), N = 200: %.3e (%.4f h^2), order %.3f\n",
          e100, e100 / (h100 * h100), e200, e200 / (h200 * h200), order);
  CHECK (st100 == VM_OK && st200 == VM_OK, "Bratu converged: %d %d", st100, st200);
  CHECK (inf200.final_res <= 1e-12 * inf200.res_scale, "Bratu final residual %.3e",
         inf200.final_res);
  CHECK (fabs (inf200.res_scale - sqrt (200.0)) < 1e-12, "scale max(1, ||F(0)||) = %.6f",
         inf200.res_scale);
  CHECK (order > 1.95 && order < 2.05, "Bratu observed order %.4f", order);
  CHECK (e200 < 0.05 * h200 * h200, "Bratu error %.3e vs h^2 = %.3e", e200, h200 * h200);
  /* all full Newton steps from u = 0; one factorization per iteration, by the banded LU (the
   * choice of VM_LINSOLVE_AUTO for a tridiagonal pattern: no symbolic analysis) */
  CHECK (inf200.ndamped == 0 && inf200.nlm == 0 && !has_kind (&inf200, VM_NEWTON_DAMPED),
         "Bratu: undamped Newton");
  CHECK (inf200.linsolve == VM_LINSOLVE_BANDED && inf200.kl == 1 && inf200.ku == 1
         && inf200.linsolve_lm == 0, "Bratu: linear solver %d, kl %d, ku %d, LM %d",
         inf200.linsolve, inf200.kl, inf200.ku, inf200.linsolve_lm);
  CHECK (inf200.nsymbolic == 0 && inf200.nfactor == inf200.iterations
         && inf200.njev == inf200.iterations && inf200.nfev == inf200.iterations + 1,
         "Bratu counts: nsymbolic %ld, nfactor %ld, njev %ld, nfev %ld, iterations %d",
         inf200.nsymbolic, inf200.nfactor, inf200.njev, inf200.nfev, inf200.iterations);
  CHECK (inf200.iterations >= 3 && inf200.iterations <= 6, "Bratu iterations %d",
         inf200.iterations);
  /* rounding level of F: entries (2u_i - u_i-1 - u_i+1)/h^2 with |u| ~ 0.14, h^-2 = 4e4, so about
   * 1e-12 each and 1e-11 in the 2-norm over 200 entries; 1e-10 leaves a margin */
  check_quadratic ("Bratu lambda = 1", &inf200, 1e-3, 1e-10, 0.2);

  /* lambda = 3, near the turning point (about 3.51): more iterations in the quadratic regime */
  e3a = bratu_solve_err (100, lam3, theta3, &inf3, &st3a);
  e3b = bratu_solve_err (200, lam3, theta3, &inf3, &st3b);
  print_hist ("Bratu lambda = 3, N = 200", &inf3);
  order3 = log (e3a / e3b) / log (h100 / h200);
  printf ("info: Bratu lambda = 3: max error N = 100: %.3e, N = 200: %.3e (%.4f h^2), order %.3f\n",
          e3a, e3b, e3b / (h200 * h200), order3);
  CHECK (st3a == VM_OK && st3b == VM_OK && order3 > 1.95 && order3 < 2.05,
         "Bratu lambda = 3: %d %d, order %.4f", st3a, st3b, order3);
  check_quadratic ("Bratu lambda = 3", &inf3, 1e-1, 1e-9, 10.0);

  vm_newton_info_free (&inf100);
  vm_newton_info_free (&inf200);
  vm_newton_info_free (&inf3);
}

/* Option lean (the banded LU keeps U only, linsolve.h): Bratu at lambda = 3, N = 200, whose
 * solve takes chord steps with the defaults.  lean = 1 takes none (no factors held) and factors
 * at every step; its iterates are those of lean = 0 with reuse = 0 (the same Newton steps: the
 * same arithmetic, bandlu.h), so the solutions are equal to the bit (compared with ==); the
 * default (AUTO below 1 GiB) keeps L and U; an out-of-range value is refused. */
static void
test_lean (void)
{
  const int N = 200;
  bratu_t b;
  int64_t *cp, *ri;
  double *u0 = calloc ((size_t) N, sizeof *u0), *u1 = calloc ((size_t) N, sizeof *u1);
  double *u2 = calloc ((size_t) N, sizeof *u2);
  vm_newton_opts o;
  vm_newton_info i0, i1, i2;
  int k, st0, st1, st2, same = 1;
  bratu_init (&b, N, 3.0);
  tridiag_pattern (N, &cp, &ri);
  vm_newton_info_init (&i0);
  vm_newton_info_init (&i1);
  vm_newton_info_init (&i2);
  vm_newton_opts_init (&o);
  CHECK (o.lean == VM_LINSOLVE_LEAN_AUTO, "lean: default VM_LINSOLVE_LEAN_AUTO (%d)", o.lean);
  o.tol_res = 1e-12;
  o.tol_step = 0.0;
  o.tol_round = 1.0;   /* chord steps need the rounding-level test (newton.h 2') */
  st2 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u2, &o, &i2);
  o.reuse = 0;
  o.lean = 0;
  st0 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u0, &o, &i0);
  o.reuse = 2;
  o.lean = 1;
  st1 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &i1);
  for (k = 0; k < N; k++)
    same = same && u0[k] == u1[k];
  CHECK (st2 == VM_OK && !i2.lean && i2.nreuse_factor > 0, "lean: the default keeps L and U and "
         "takes chord steps here (%d, lean %d, %ld chord steps)", st2, i2.lean, i2.nreuse_factor);
  CHECK (st0 == VM_OK && st1 == VM_OK && i1.lean && !i0.lean && i1.nreuse_factor == 0
         && i1.nfactor == i1.iterations && i1.iterations == i0.iterations && same,
         "lean = 1: %d, lean %d, %ld chord steps, %ld factorizations in %d iterations (reuse 0: "
         "%d iterations); the same solution %d", st1, i1.lean, i1.nreuse_factor, i1.nfactor,
         i1.iterations, i0.iterations, same);
  o.lean = 2;
  CHECK (vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &i1) == VM_EARG
         && strstr (i1.message, "lean = 2"), "lean = 2 refused: %s", i1.message);
  vm_newton_info_free (&i0);
  vm_newton_info_free (&i1);
  vm_newton_info_free (&i2);
  free (cp);
  free (ri);
  free (u0);
  free (u1);
  free (u2);
}

/* Option definite on the Bratu problem (lambda = 3, N = 200): J = T / h^2 - lambda diag (e^u) is
 * symmetric and positive definite on the way to the lower solution (its smallest eigenvalue is
 * above pi^2 - lambda e^max(u) > 0), so every factorization is a Cholesky one (nchol = nfactor,
 * no fallback) and the solution is the LU path's to 1e-12 relative (different arithmetic, a
 * condition number of 1e4); with definite = -1 every Cholesky factorization fails and the LU
 * takes over: the LU path's solution to the bit.  A scale that is not positive is refused at
 * set-up with the linear solver's message. */
static void
test_definite (void)
{
  const int N = 200;
  bratu_t b;
  int64_t *cp, *ri;
  double *u0 = calloc ((size_t) N, sizeof *u0), *u1 = calloc ((size_t) N, sizeof *u1);
  double *u2 = calloc ((size_t) N, sizeof *u2), *sc = malloc ((size_t) N * sizeof *sc), dmax = 0.0;
  vm_newton_opts o;
  vm_newton_info i0, i1, i2;
  int k, st0, st1, st2, same = 1;
  memset (&i0, 0, sizeof i0);   /* zeroed: vm_newton_info_init's empty info */
  memset (&i1, 0, sizeof i1);
  memset (&i2, 0, sizeof i2);
  vm_newton_opts_init (&o);
  CHECK (o.definite == 0 && o.definite_scale == NULL, "definite: default 0, NULL");
  bratu_init (&b, N, 3.0);
  tridiag_pattern (N, &cp, &ri);
  o.tol_res = 1e-12;
  o.tol_step = 0.0;
  o.linsolve = VM_LINSOLVE_BANDED;
  st0 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u0, &o, &i0);
  for (k = 0; k < N; k++)
    sc[k] = 1.0;
  o.definite = 1;
  o.definite_scale = sc;
  st1 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &i1);
  o.definite = -1;
  st2 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u2, &o, &i2);
  for (k = 0; k < N; k++)
    {
      dmax = fmax (dmax, fabs (u1[k] - u0[k]) / fabs (u0[k]));
      same = same && u2[k] == u0[k];
    }
  CHECK (st0 == VM_OK && i0.nchol == 0 && i0.nchol_fail == 0, "definite 0: %d, nchol %ld", st0,
         i0.nchol);
  CHECK (st1 == VM_OK && i1.nchol == i1.nfactor && i1.nchol > 0 && i1.nchol_fail == 0
         && i1.iterations == i0.iterations && dmax <= 1e-12,
         "definite 1: %d, %ld Cholesky of %ld factorizations, %ld failed, %d iterations (LU: %d), "
         "|u - u_lu| %.2e", st1, i1.nchol, i1.nfactor, i1.nchol_fail, i1.iterations,
         i0.iterations, dmax);
  CHECK (st2 == VM_OK && i2.nchol == 0 && i2.nchol_fail == i2.nfactor && same,
         "definite -1 on a positive definite J: %d, %ld Cholesky, %ld failed of %ld; the LU's "
         "solution %d", st2, i2.nchol, i2.nchol_fail, i2.nfactor, same);
  sc[3] = -1.0;
  CHECK (vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &i1) == VM_EARG
         && strstr (i1.message, "definite_scale: entry 3 is -1; must be positive and finite"),
         "definite_scale -1 refused: %s", i1.message);
  free (sc);
  free (u0);
  free (u1);
  free (u2);
  free (cp);
  free (ri);
  vm_newton_info_free (&i0);
  vm_newton_info_free (&i1);
  vm_newton_info_free (&i2);
}

/* step criterion; default options; NULL info; info reuse */
static void
test_bratu_options (void)
{
  bratu_t b;
  int64_t *cp, *ri;
  const int N = 50;
  double u[50];
  vm_newton_opts o;
  vm_newton_info inf;
  int st, i;
  bratu_init (&b, N, 1.0);
  tridiag_pattern (N, &cp, &ri);

  vm_newton_info_init (&inf);
  memset (u, 0, sizeof u);
  vm_newton_opts_init (&o);
  o.tol_res = 0.0;
  o.tol_step = 1e-9;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  CHECK (st == VM_OK && strstr (inf.message, "Newton correction") != NULL && inf.final_res < 1e-8,
         "step criterion: %d %s", st, inf.message);
  /* the step test's absolute part (step_scale): from u = 0 the steps are 0.139 and 1.05e-3 and
   * ||u||_inf is about 0.14, so with tol_step 5e-3 the second correction passes with step_scale 1
   * (bound 5.7e-3) but not with 1e-6 (bound 7e-4), which takes one more iteration (the option is
   * used, not only accepted) */
  {
    int it[2], k;
    double sc[2] = { 1.0, 1e-6 };
    for (k = 0; k < 2; k++)
      {
        memset (u, 0, sizeof u);
        o.tol_step = 5e-3;
        o.step_scale = sc[k];
        st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
        it[k] = st == VM_OK && strstr (inf.message, "Newton correction") != NULL ? inf.iterations
                : -1;
      }
    printf ("info: step test with tol_step 5e-3: step_scale 1: %d iterations, 1e-6: %d\n", it[0],
            it[1]);
    CHECK (it[0] > 0 && it[1] == it[0] + 1, "step_scale: %d and %d iterations", it[0], it[1]);
    o.tol_step = 1e-9;
    o.step_scale = 1.0;
  }

  /* same info again (its arrays are reused / freed), then with defaults */
  memset (u, 0, sizeof u);
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, NULL, &inf);
  CHECK (st == VM_OK && inf.status == VM_OK && inf.final_res <= 1e-10 * inf.res_scale,
         "defaults: %d %s", st, inf.message);

  /* NULL info; verbose output on stderr */
  memset (u, 0, sizeof u);
  o.tol_res = 1e-10;
  o.verbose = 1;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, NULL);
  {
    double F[50];
    bratu_F (u, F, &b);
    CHECK (st == VM_OK && norm2 (N, F) < 1e-8, "NULL info: %d, ||F|| = %.3e", st, norm2 (N, F));
  }

  /* already converged at x0: 0 iterations */
  o.verbose = 0;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  CHECK (st == VM_OK && inf.iterations == 0 && inf.nhist == 1 && inf.njev == 0
         && inf.nsymbolic == 0, "converged at x0: %d iterations", inf.iterations);

  /* the problem struct (vm_newton_run): the same solve as vm_newton_solve; NULL refused */
  {
    const vm_newton_problem pb = { N, cp, ri, bratu_F, bratu_J, &b };
    double u2[50];
    int i, same = 1, st2;
    memset (u, 0, sizeof u);
    memset (u2, 0, sizeof u2);
    st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, NULL);
    st2 = vm_newton_run (&pb, u2, &o, &inf);
    for (i = 0; i < N; i++)
      same = same && u[i] == u2[i];
    CHECK (st == VM_OK && st2 == VM_OK && same, "vm_newton_run: %d %d, same iterate %d", st, st2,
           same);
    st = vm_newton_run (NULL, u2, &o, &inf);
    CHECK (st == VM_EARG && inf.status == VM_EARG && strstr (inf.message, "NULL") != NULL,
           "vm_newton_run (NULL): %d %s", st, inf.message);
  }

  /* max_iter = 0 from a non-solution */
  for (i = 0; i < N; i++)
    u[i] = 0.0;
  o.max_iter = 0;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  CHECK (st == VM_ENEWTON_MAXIT && inf.iterations == 0 && u[0] == 0.0, "max_iter = 0: %d", st);

  /* an explicit residual scale */
  o.max_iter = 50;
  o.res_scale = 1e3;
  o.tol_res = 1e-6;
  o.tol_step = 0.0;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  CHECK (st == VM_OK && inf.res_scale == 1e3 && inf.final_res <= 1e-3
         && inf.res_hist[inf.nhist - 2] > 1e-3, "res_scale: %s", inf.message);

  /* the caller's F(x0) (opts.F0): the same iterates bit for bit, one call of F fewer */
  {
    double u2[50], F0[50];
    long nfev;
    int it;
    memset (u, 0, sizeof u);
    memset (u2, 0, sizeof u2);
    o.res_scale = 0.0;
    o.tol_res = 1e-10;
    st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
    nfev = inf.nfev;
    it = inf.iterations;
    bratu_F (u2, F0, &b);
    o.F0 = F0;
    i = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u2, &o, &inf);
    o.F0 = NULL;
    CHECK (st == VM_OK && i == VM_OK && memcmp (u, u2, sizeof u) == 0 && inf.iterations == it
           && inf.nfev == nfev - 1 && it >= 2, "F0: status %d %d, iterations %d %d, nfev %ld %ld",
           st, i, it, inf.iterations, nfev, inf.nfev);
  }

  vm_newton_info_free (&inf);
  vm_newton_info_free (&inf);  /* idempotent */
  free (cp);
  free (ri);
}

/* ---- saddle (KKT) system ------------------------------------------------------------------------ */

#define SM 40  /* x variables; y is unknown SM */

static double
saddle_b (int i)
{
  return 1.0 + 0.5 * sin ((double) i);
}

static int
saddle_F (const double *z, double *F, void *c)
{
  const double y = z[SM];
  double s = 0.0;
  int i;
  (void) c;
  for (i = 0; i < SM; i++)
    {
      const double xl = i > 0 ? z[i - 1] : 0.0, xr = i < SM - 1 ? z[i + 1] : 0.0, x = z[i];
      F[i] = 2.0 * x - xl - xr + x * x * x - saddle_b (i) + 2.0 * y * x;
      s += x * x;
    }
  F[SM] = s - 1.0;
  return 0;
}

/* pattern: tridiagonal x block plus row/column SM (the constraint gradient), and (SM, SM) = 0 */
static void
saddle_pattern (int64_t **cp, int64_t **ri)
{
  int j;
  int64_t p = 0;
  *cp = malloc ((SM + 2) * sizeof **cp);
  *ri = malloc ((5 * SM) * sizeof **ri);
  for (j = 0; j < SM; j++)
    {
      (*cp)[j] = p;
      if (j > 0)
        (*ri)[p++] = j - 1;
      (*ri)[p++] = j;
      if (j < SM - 1)
        (*ri)[p++] = j + 1;
      (*ri)[p++] = SM;
    }
  (*cp)[SM] = p;
  for (j = 0; j <= SM; j++)
    (*ri)[p++] = j;
  (*cp)[SM + 1] = p;
}

static int
saddle_J (const double *z, double *Jx, void *c)
{
  const double y = z[SM];
  int j, p = 0;
  (void) c;
  for (j = 0; j < SM; j++)
    {
      if (j > 0)
        Jx[p++] = -1.0;
      Jx[p++] = 2.0 + 3.0 * z[j] * z[j] + 2.0 * y;
      if (j < SM - 1)
        Jx[p++] = -1.0;
      Jx[p++] = 2.0 * z[j];
    }
  for (j = 0; j < SM; j++)
    Jx[p++] = 2.0 * z[j];
  Jx[p++] = 0.0;
  return 0;
}

/* value of the CSC matrix at (i, j) (0 outside the pattern) */
static double
csc_get (const int64_t *cp, const int64_t *ri, const double *v, int i, int j)
{
  int64_t p;
  for (p = cp[j]; p < cp[j + 1]; p++)
    if (ri[p] == i)
      return v[p];
  return 0.0;
}

static void
test_saddle (void)
{
  int64_t *cp, *ri;
  double z[SM + 1], F[SM + 1], Jx[5 * SM], s = 0.0, asym = 0.0;
  vm_newton_info inf;
  vm_newton_opts o;
  int st, i, j;
  saddle_pattern (&cp, &ri);
  for (i = 0; i < SM; i++)
    z[i] = 1.0 / sqrt ((double) SM);
  z[SM] = 0.0;
  vm_newton_info_init (&inf);
  vm_newton_opts_init (&o);
  o.tol_res = 1e-12;
  st = vm_newton_solve (SM + 1, cp, ri, saddle_F, saddle_J, NULL, z, &o, &inf);
  print_hist ("saddle", &inf);
  saddle_F (z, F, NULL);
  for (i = 0; i < SM; i++)
    s += z[i] * z[i];
  CHECK (st == VM_OK, "saddle converged: %s", inf.message);
  CHECK (norm2 (SM + 1, F) <= 1e-12 * inf.res_scale && fabs (norm2 (SM + 1, F) - inf.final_res)
         <= 1e-14, "saddle residual %.3e (reported %.3e)", norm2 (SM + 1, F), inf.final_res);
  CHECK (fabs (s - 1.0) < 1e-12, "saddle constraint |x|^2 - 1 = %.3e", s - 1.0);
  /* the Jacobian at the solution: symmetric, e_y' J e_y = 0 with J e_y = 2x != 0, hence indefinite */
  saddle_J (z, Jx, NULL);
  for (j = 0; j <= SM; j++)
    for (i = 0; i <= SM; i++)
      {
        const double d = fabs (csc_get (cp, ri, Jx, i, j) - csc_get (cp, ri, Jx, j, i));
        if (d > asym)
          asym = d;
      }
  CHECK (asym == 0.0 && csc_get (cp, ri, Jx, SM, SM) == 0.0 && sqrt (s) > 0.5,
         "saddle Jacobian symmetric indefinite (asym %.3e)", asym);
  printf ("info: saddle: multiplier y = %.15f, ||x|| = %.15f\n", z[SM], sqrt (s));
  /* fast terminal convergence */
  CHECK (inf.iterations <= 12 && inf.res_hist[inf.nhist - 2] < 1e-5, "saddle iterations %d",
         inf.iterations);
  vm_newton_info_free (&inf);
  free (cp);
  free (ri);
}

/* ---- arctan: line search ------------------------------------------------------------------------ */

#define AN 5
static const double atan_a[AN] = { -0.5, -0.2, 0.1, 0.4, 0.7 };
static const double atan_off[AN] = { 1.5, -2.0, 3.0, -2.5, 2.0 };  /* all beyond 1.3917: plain
                                                                     Newton diverges */
static const double atan_off_hard[AN] = { 1.5, -3.0, 10.0, 20.0, -50.0 };

static int
atan_F (const double *x, double *F, void *c)
{
  int i;
  (void) c;
  for (i = 0; i < AN; i++)
    F[i] = atan (x[i] - atan_a[i]);
  return 0;
}

static int
atan_J (const double *x, double *Jx, void *c)
{
  int i;
  (void) c;
  for (i = 0; i < AN; i++)
    Jx[i] = 1.0 / (1.0 + (x[i] - atan_a[i]) * (x[i] - atan_a[i]));
  return 0;
}

static void
test_atan (void)
{
  const int64_t cp[AN + 1] = { 0, 1, 2, 3, 4, 5 }, ri[AN] = { 0, 1, 2, 3, 4 };
  double x0[AN], x[AN], F[AN], err = 0.0;
  vm_newton_info inf;
  vm_newton_opts o;
  int st, i, grew = 1, k;
  for (i = 0; i < AN; i++)
    x0[i] = atan_a[i] + atan_off[i];
  vm_newton_info_init (&inf);

  /* plain Newton: diverges; the best iterate is x0 */
  vm_newton_opts_init (&o);
  o.line_search = 0;
  o.lm_fallback = 0;
  memcpy (x, x0, sizeof x);
  st = vm_newton_solve (AN, cp, ri, atan_F, atan_J, NULL, x, &o, &inf);
  print_hist ("arctan, plain Newton", &inf);
  for (k = 1; k < inf.nhist; k++)
    if (!(inf.res_hist[k] >= inf.res_hist[k - 1]) || (k > 1 && !(inf.step_hist[k] > inf.step_hist[k - 1])))
      grew = 0;
  CHECK (st != VM_OK && inf.status == st && strlen (inf.message) > 0, "plain Newton fails: %d", st);
  CHECK (inf.nhist >= 3 && grew && inf.res_hist[inf.nhist - 1] > inf.res_hist[0], "plain Newton: residuals never decrease, steps grow (%d iterates)",
         inf.nhist);
  CHECK (memcmp (x, x0, sizeof x) == 0 && inf.final_res == inf.res_hist[0],
         "plain Newton: the best iterate (x0) returned");

  /* plain Newton, 3 iterations: MAXIT, again x0 returned although x_3 was the last iterate */
  o.max_iter = 3;
  memcpy (x, x0, sizeof x);
  st = vm_newton_solve (AN, cp, ri, atan_F, atan_J, NULL, x, &o, &inf);
  CHECK (st == VM_ENEWTON_MAXIT && inf.iterations == 3 && memcmp (x, x0, sizeof x) == 0
         && strstr (inf.message, "no convergence") != NULL, "plain Newton, max_iter 3: %d %s", st,
         inf.message);

  /* with the monotone line search (the non-monotone test off; without the LM fallback):
   * converges, every step lowers ||F|| */
  o.max_iter = 100;
  o.line_search = 1;
  o.nonmonotone = 0.0;
  memcpy (x, x0, sizeof x);
  st = vm_newton_solve (AN, cp, ri, atan_F, atan_J, NULL, x, &o, &inf);
  print_hist ("arctan, line search", &inf);
  for (i = 0; i < AN; i++)
    if (fabs (x[i] - atan_a[i]) > err)
      err = fabs (x[i] - atan_a[i]);
  CHECK (st == VM_OK && err < 1e-10, "line search converges: %d, error %.3e", st, err);
  CHECK (inf.ndamped >= 1 && has_kind (&inf, VM_NEWTON_DAMPED) && inf.nlm == 0,
         "line search: %d damped steps", inf.ndamped);
  for (k = 1; k < inf.nhist; k++)
    if (!(inf.res_hist[k] < inf.res_hist[k - 1]))
      break;
  CHECK (k == inf.nhist, "line search: monotone residuals");
  atan_F (x, F, NULL);
  CHECK (fabs (norm2 (AN, F) - inf.final_res) <= 1e-15, "arctan final_res");

  /* the non-monotone test (default factor 3, 3 steps): arctan's residual is bounded, so full
   * steps that send x far out raise ||F|| by less than the factor and are taken; after 3 of
   * them without a new best the watchdog goes back to the best iterate and the monotone line
   * search converges from there */
  o.nonmonotone = 3.0;
  o.nonmonotone_max = 3;
  memcpy (x, x0, sizeof x);
  st = vm_newton_solve (AN, cp, ri, atan_F, atan_J, NULL, x, &o, &inf);
  print_hist ("arctan, non-monotone", &inf);
  err = 0.0;
  for (i = 0; i < AN; i++)
    if (fabs (x[i] - atan_a[i]) > err)
      err = fabs (x[i] - atan_a[i]);
  CHECK (st == VM_OK && err < 1e-10 && inf.nrelaxed >= 1 && inf.nwatchdog >= 1,
         "non-monotone: converges after %d relaxed steps and %d watchdog returns: %d, error %.3e",
         inf.nrelaxed, inf.nwatchdog, st, err);
  for (k = 1; k < inf.nhist; k++)
    if (inf.res_hist[k] > inf.res_hist[k - 1])
      break;
  CHECK (k < inf.nhist, "non-monotone: some step raised ||F||");
  o.nonmonotone = -1.0;
  st = vm_newton_solve (AN, cp, ri, atan_F, atan_J, NULL, x, &o, &inf);
  CHECK (st == VM_EARG && strstr (inf.message, "nonmonotone") != NULL, "nonmonotone < 0: %s",
         inf.message);
  o.nonmonotone = 3.0;
  o.nonmonotone_max = -1;
  st = vm_newton_solve (AN, cp, ri, atan_F, atan_J, NULL, x, &o, &inf);
  CHECK (st == VM_EARG && strstr (inf.message, "nonmonotone_max") != NULL,
         "nonmonotone_max < 0: %s", inf.message);
  o.nonmonotone_max = 3;

  /* defaults (line search + LM fallback) */
  memcpy (x, x0, sizeof x);
  st = vm_newton_solve (AN, cp, ri, atan_F, atan_J, NULL, x, NULL, &inf);
  CHECK (st == VM_OK && fabs (x[4] - atan_a[4]) < 1e-10, "arctan with defaults: %s", inf.message);

  /* very different offsets: the line search on ||F||^2 accepts a step that throws the farthest
   * component into the flat tail of atan while the others decrease (the limitation documented in
   * newton.h); the solver must say so rather than claim convergence */
  for (i = 0; i < AN; i++)
    x[i] = atan_a[i] + atan_off_hard[i];
  st = vm_newton_solve (AN, cp, ri, atan_F, atan_J, NULL, x, NULL, &inf);
  atan_F (x, F, NULL);
  printf ("info: arctan, offsets 1.5 -3 10 20 -50: status %d after %d iterations: %s\n", st,
          inf.iterations, inf.message);
  CHECK (st != VM_OK && strlen (inf.message) > 0 && fabs (norm2 (AN, F) - inf.final_res) <= 1e-15
         && inf.final_res == min_hist (&inf) && inf.final_res > 1.0,
         "hard arctan: honest failure, best iterate (||F|| = %.3e)", inf.final_res);
  vm_newton_info_free (&inf);
}

/* ---- singular Jacobian at the start ------------------------------------------------------------- */

#define SB 3  /* blocks */
typedef struct { long ncall, fail; int code; } sing_t;

static int
sing_F (const double *z, double *F, void *c)
{
  sing_t *s = c;
  int b;
  if (s)
    {
      s->ncall++;
      if (s->fail && s->ncall == s->fail)
        return s->code;
    }
  for (b = 0; b < SB; b++)
    {
      const double x = z[2 * b], y = z[2 * b + 1];
      F[2 * b] = x * x + y - 2.0;
      F[2 * b + 1] = x - y;
    }
  return 0;
}

static int
sing_J (const double *z, double *Jx, void *c)
{
  int b;
  (void) c;
  for (b = 0; b < SB; b++)
    {
      Jx[4 * b] = 2.0 * z[2 * b];  /* (2b, 2b) */
      Jx[4 * b + 1] = 1.0;         /* (2b+1, 2b) */
      Jx[4 * b + 2] = 1.0;         /* (2b, 2b+1) */
      Jx[4 * b + 3] = -1.0;        /* (2b+1, 2b+1) */
    }
  return 0;
}

static int
sq1_F (const double *x, double *F, void *c)
{
  (void) c;
  F[0] = x[0] * x[0] + 1.0;
  return 0;
}

static int
sq1_J (const double *x, double *Jx, void *c)
{
  (void) c;
  Jx[0] = 2.0 * x[0];
  return 0;
}

static void
test_singular (void)
{
  int64_t cp[2 * SB + 1], ri[4 * SB];
  const double y0[SB] = { 0.0, 1.0, -1.0 };
  double z0[2 * SB], z[2 * SB], F[2 * SB];
  vm_newton_info inf;
  vm_newton_opts o;
  sing_t s;
  int st, b, roots = 1;
  for (b = 0; b < SB; b++)
    {
      cp[2 * b] = 4 * b;
      cp[2 * b + 1] = 4 * b + 2;
      ri[4 * b] = 2 * b;
      ri[4 * b + 1] = 2 * b + 1;
      ri[4 * b + 2] = 2 * b;
      ri[4 * b + 3] = 2 * b + 1;
      z0[2 * b] = -0.5;  /* det [2x 1; 1 -1] = -2x - 1 = 0 */
      z0[2 * b + 1] = y0[b];
    }
  cp[2 * SB] = 4 * SB;
  vm_newton_info_init (&inf);
  vm_newton_opts_init (&o);

  memcpy (z, z0, sizeof z);
  st = vm_newton_solve (2 * SB, cp, ri, sing_F, sing_J, NULL, z, &o, &inf);
  print_hist ("singular start, LM fallback", &inf);
  for (b = 0; b < SB; b++)
    {
      const double x = z[2 * b], y = z[2 * b + 1];
      if (!((fabs (x - 1.0) < 1e-10 && fabs (y - 1.0) < 1e-10)
            || (fabs (x + 2.0) < 1e-10 && fabs (y + 2.0) < 1e-10)))
        roots = 0;
    }
  sing_F (z, F, NULL);
  CHECK (st == VM_OK && roots && norm2 (2 * SB, F) < 1e-10, "LM fallback from a singular start: %s",
         inf.message);
  CHECK (inf.nhist > 1 && inf.kind_hist[1] == VM_NEWTON_LM && inf.nlm >= 1
         && inf.linsolve_lm == VM_LINSOLVE_BANDED && inf.nsymbolic == 0,
         "the first step is LM (kind %d, nlm %d, LM system by %d, nsymbolic %ld)", inf.nhist > 1
         ? inf.kind_hist[1] : -1, inf.nlm, inf.linsolve_lm, inf.nsymbolic);
  /* the same with UMFPACK: one symbolic analysis of J and one of the LM system */
  o.linsolve = VM_LINSOLVE_UMFPACK;
  memcpy (z, z0, sizeof z);
  st = vm_newton_solve (2 * SB, cp, ri, sing_F, sing_J, NULL, z, &o, &inf);
  CHECK (st == VM_OK && inf.nhist > 1 && inf.kind_hist[1] == VM_NEWTON_LM
         && inf.linsolve == VM_LINSOLVE_UMFPACK && inf.linsolve_lm == VM_LINSOLVE_UMFPACK
         && inf.nsymbolic == 2, "UMFPACK: LM from a singular start (LM system by %d, nsymbolic "
         "%ld): %s", inf.linsolve_lm, inf.nsymbolic, inf.message);
  o.linsolve = VM_LINSOLVE_AUTO;
  CHECK (inf.lambda_hist[1] > 0.0, "LM mu = %.3e", inf.lambda_hist[1]);

  /* without the fallback: reported, x0 returned */
  o.lm_fallback = 0;
  memcpy (z, z0, sizeof z);
  st = vm_newton_solve (2 * SB, cp, ri, sing_F, sing_J, NULL, z, &o, &inf);
  CHECK (st == VM_ENEWTON_SINGULAR && memcmp (z, z0, sizeof z) == 0
         && strstr (inf.message, "singular") != NULL && inf.iterations == 0,
         "singular, no fallback: %d %s", st, inf.message);

  /* a callback error inside the LM trials (call 1 is F(x0), call 2 the first LM trial) */
  o.lm_fallback = 1;
  s.ncall = 0;
  s.fail = 2;
  s.code = -5;
  memcpy (z, z0, sizeof z);
  st = vm_newton_solve (2 * SB, cp, ri, sing_F, sing_J, &s, z, &o, &inf);
  CHECK (st == -5 && inf.status == -5 && memcmp (z, z0, sizeof z) == 0
         && strstr (inf.message, "-5") != NULL, "error code in LM trial: %d %s", st, inf.message);

  /* x^2 + 1 = 0 from x = 0: J = 0 and J^T F = 0: no descent direction exists */
  {
    const int64_t cp1[2] = { 0, 1 }, ri1[1] = { 0 };
    double x = 0.0;
    vm_newton_opts_init (&o);
    st = vm_newton_solve (1, cp1, ri1, sq1_F, sq1_J, NULL, &x, &o, &inf);
    CHECK (st == VM_ENEWTON_STALL && x == 0.0 && strstr (inf.message, "stationary") != NULL,
           "x^2 + 1 from 0: %d %s", st, inf.message);
    /* from x = 2: the iterates approach the minimum of |F| at 0 which is not a root */
    x = 2.0;
    st = vm_newton_solve (1, cp1, ri1, sq1_F, sq1_J, NULL, &x, &o, &inf);
    print_hist ("x^2 + 1 from 2", &inf);
    CHECK (st != VM_OK && inf.final_res >= 1.0 && inf.final_res == x * x + 1.0
           && inf.final_res == min_hist (&inf) && strlen (inf.message) > 0,
           "x^2 + 1 from 2: status %d, best |F| = %.17g at x = %.3e", st, inf.final_res, x);
  }
  vm_newton_info_free (&inf);
}

/* ---- non-convergence ---------------------------------------------------------------------------- */

static void
test_noconv (void)
{
  const int N = 200;
  bratu_t b;
  int64_t *cp, *ri;
  double *u = calloc (N, sizeof *u), *F = malloc (N * sizeof *F);
  vm_newton_info inf;
  vm_newton_opts o;
  int st;
  tridiag_pattern (N, &cp, &ri);
  vm_newton_info_init (&inf);
  vm_newton_opts_init (&o);

  /* max_iter = 2 on Bratu lambda = 1 */
  bratu_init (&b, N, 1.0);
  o.max_iter = 2;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  bratu_F (u, F, &b);
  CHECK (st == VM_ENEWTON_MAXIT && inf.status == st && inf.iterations == 2 && inf.nhist == 3
         && strstr (inf.message, "no convergence") != NULL, "max_iter 2: %d %s", st, inf.message);
  CHECK (fabs (norm2 (N, F) - inf.final_res) <= 1e-12 * inf.final_res
         && inf.final_res == min_hist (&inf) && inf.final_res > 1e-10 * inf.res_scale,
         "max_iter 2: best iterate returned, ||F|| = %.3e", inf.final_res);

  /* lambda = 4: beyond the turning point, no solution */
  bratu_init (&b, N, 4.0);
  memset (u, 0, N * sizeof *u);
  vm_newton_opts_init (&o);
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  bratu_F (u, F, &b);
  printf ("info: Bratu lambda = 4: status %d after %d iterations (%d LM, %d damped): %s\n", st,
          inf.iterations, inf.nlm, inf.ndamped, inf.message);
  CHECK (st != VM_OK && strlen (inf.message) > 0, "lambda = 4 not converged: %d", st);
  CHECK (fabs (norm2 (N, F) - inf.final_res) <= 1e-12 * inf.final_res
         && inf.final_res == min_hist (&inf) && inf.final_res > 1.0,
         "lambda = 4: best iterate returned, ||F|| = %.3e", inf.final_res);

  /* a wrong Jacobian (1000 times too large): tiny steps that reduce ||F|| by 0.1% each.  With a
   * loose step tolerance the step test must still not fire (no contraction): MAXIT, not VM_OK */
  bratu_init (&b, N, 1.0);
  b.jscale = 1e3;
  memset (u, 0, N * sizeof *u);
  vm_newton_opts_init (&o);
  o.tol_step = 1e-2;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  b.jscale = 0.0;
  bratu_F (u, F, &b);
  printf ("info: wrong Jacobian: status %d: %s\n", st, inf.message);
  CHECK (st == VM_ENEWTON_MAXIT && inf.final_res > 0.9 * inf.res_hist[0]
         && fabs (norm2 (N, F) - inf.final_res) <= 1e-12 * inf.final_res,
         "wrong Jacobian not reported as converged: %d, ||F|| %.3e of %.3e", st, inf.final_res,
         inf.res_hist[0]);

  vm_newton_info_free (&inf);
  free (u);
  free (F);
  free (cp);
  free (ri);
}

/* ---- callback errors and non-finite values ------------------------------------------------------ */

static void
test_callback_errors (void)
{
  const int N = 30;
  bratu_t b;
  int64_t *cp, *ri;
  double u[30], F[30];
  vm_newton_info inf;
  int st, i, finite = 1;
  tridiag_pattern (N, &cp, &ri);
  vm_newton_info_init (&inf);

  /* residual fails at the initial guess: x unchanged, nothing recorded */
  bratu_init (&b, N, 1.0);
  b.failF = 1;
  b.code = -3;
  memset (u, 0, sizeof u);
  u[3] = 0.25;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, NULL, &inf);
  CHECK (st == -3 && inf.status == -3 && inf.nhist == 0 && u[3] == 0.25 && isnan (inf.final_res)
         && strstr (inf.message, "-3") != NULL, "F error at x0: %d %s", st, inf.message);

  /* residual fails in iteration 2 (call 3): code passed through, best iterate x_1 returned */
  bratu_init (&b, N, 1.0);
  b.failF = 3;
  b.code = -7;
  memset (u, 0, sizeof u);
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, NULL, &inf);
  for (i = 0; i < N; i++)
    if (!isfinite (u[i]))
      finite = 0;
  b.failF = 0;
  bratu_F (u, F, &b);
  CHECK (st == -7 && inf.status == -7 && inf.iterations == 1 && finite
         && strstr (inf.message, "-7") != NULL, "F error: %d %s", st, inf.message);
  CHECK (fabs (norm2 (N, F) - inf.final_res) <= 1e-12 * inf.final_res && inf.final_res
         == inf.res_hist[1], "F error: best iterate");

  /* Jacobian fails at its 2nd call */
  bratu_init (&b, N, 1.0);
  b.failJ = 2;
  b.code = -9;
  memset (u, 0, sizeof u);
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, NULL, &inf);
  CHECK (st == -9 && inf.status == -9 && inf.iterations == 1 && strstr (inf.message, "Jacobian")
         != NULL, "J error: %d %s", st, inf.message);

  /* a positive code that happens to equal a vm_status value is passed through as well */
  bratu_init (&b, N, 1.0);
  b.failJ = 1;
  b.code = 1000;
  memset (u, 0, sizeof u);
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, NULL, &inf);
  CHECK (st == 1000 && u[0] == 0.0, "J error 1000: %d", st);

  /* NaN residual at x0; infinite Jacobian entry */
  bratu_init (&b, N, 1.0);
  b.failF = 1;
  b.nanF = 1;
  memset (u, 0, sizeof u);
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, NULL, &inf);
  CHECK (st == VM_ENEWTON_NONFINITE && isnan (inf.final_res), "NaN F(x0): %d %s", st, inf.message);
  bratu_init (&b, N, 1.0);
  b.failJ = 2;
  b.nanF = 1;
  memset (u, 0, sizeof u);
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, NULL, &inf);
  CHECK (st == VM_ENEWTON_NONFINITE && inf.iterations == 1 && isfinite (u[0])
         && inf.final_res == inf.res_hist[1], "Inf in J: %d %s", st, inf.message);

  /* a NaN trial point in the line search is rejected (halved), not accepted */
  bratu_init (&b, N, 1.0);
  b.failF = 2;
  b.nanF = 1;
  memset (u, 0, sizeof u);
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, NULL, &inf);
  CHECK (st == VM_OK && inf.kind_hist[1] == VM_NEWTON_DAMPED && inf.lambda_hist[1] == 0.5,
         "NaN trial rejected: %d, t = %g", st, inf.nhist > 1 ? inf.lambda_hist[1] : -1.0);

  vm_newton_info_free (&inf);
  free (cp);
  free (ri);
}

/* ---- option jac_sumsq: the callback's sum of squares ---------------------------------------------- */

typedef struct
{
  bratu_t b;
  double *ss;         /* Newton's jac_sumsq */
  int mode;           /* 0: the sum; 1: leave -1; 2: +Inf (overflow); 3: a wrong sum, 0 */
  long seen_minus1;   /* calls that found -1 stored before them */
} ssq_t;

static int
ssq_J (const double *u, double *Jx, void *c)
{
  ssq_t *s = c;
  int st = bratu_J (u, Jx, &s->b), p;
  double sum = 0.0;
  s->seen_minus1 += *s->ss == -1.0;
  for (p = 0; p < 3 * s->b.N - 2; p++)
    sum += Jx[p] * Jx[p];
  if (s->mode == 0)
    *s->ss = sum;
  else if (s->mode == 2)
    *s->ss = INFINITY;
  else if (s->mode == 3)
    *s->ss = 0.0;
  return st;
}

static int
ssq_F (const double *u, double *F, void *c)
{
  return bratu_F (u, F, &((ssq_t *) c)->b);
}

/* The callback's sum replaces Newton's pass: the same iterates (the sum enters only the bound that
 * skips the rounding-level pass, an upper bound: an overflowed sum only computes that level more
 * often), -1 stored before each call, -1 left: Newton's own pass, a non-finite sum: the entry
 * named when one is not finite, none when the sum overflowed.  A sum below the true one (a wrong
 * callback) skips the rounding-level test: still converged, by the other tests */
static void
test_jac_sumsq (void)
{
  const int N = 40;
  int64_t *cp, *ri;
  double u0[40], u1[40], ss = 0.0;
  vm_newton_opts o;
  vm_newton_info i0, i1;
  ssq_t s;
  int st0, st1, mode;
  tridiag_pattern (N, &cp, &ri);
  vm_newton_info_init (&i0);
  vm_newton_info_init (&i1);
  vm_newton_opts_init (&o);
  o.tol_round = 1.0;
  o.tol_res = 1e-14;
  memset (&s, 0, sizeof s);
  bratu_init (&s.b, N, 1.0);
  s.ss = &ss;
  memset (u0, 0, sizeof u0);
  st0 = vm_newton_solve (N, cp, ri, ssq_F, ssq_J, &s, u0, &o, &i0);
  o.jac_sumsq = &ss;
  for (mode = 0; mode < 3; mode++)
    {
      memset (&s, 0, sizeof s);
      bratu_init (&s.b, N, 1.0);
      s.ss = &ss;
      s.mode = mode;
      memset (u1, 0, sizeof u1);
      st1 = vm_newton_solve (N, cp, ri, ssq_F, ssq_J, &s, u1, &o, &i1);
      CHECK (st1 == st0 && st0 == VM_OK && i1.iterations == i0.iterations
             && memcmp (u0, u1, sizeof u0) == 0 && s.seen_minus1 == s.b.ncallJ
             && s.b.ncallJ > 0, "jac_sumsq mode %d: status %d / %d, iterations %d / %d, -1 "
             "before %ld of %ld calls: %s", mode, st1, st0, i1.iterations, i0.iterations,
             s.seen_minus1, s.b.ncallJ, i1.message);
    }
  memset (&s, 0, sizeof s);
  bratu_init (&s.b, N, 1.0);
  s.ss = &ss;
  s.mode = 3;
  memset (u1, 0, sizeof u1);
  st1 = vm_newton_solve (N, cp, ri, ssq_F, ssq_J, &s, u1, &o, &i1);
  CHECK (st1 == VM_OK && i1.round_level == 0.0 && fabs (u1[N / 2] - u0[N / 2]) <= 1e-12,
         "jac_sumsq 0 (understated): %d, rounding level %g: %s", st1, i1.round_level, i1.message);
  /* an infinite entry (the sum infinite): named */
  memset (&s, 0, sizeof s);
  bratu_init (&s.b, N, 1.0);
  s.ss = &ss;
  s.b.failJ = 2;
  s.b.nanF = 1;
  memset (u1, 0, sizeof u1);
  st1 = vm_newton_solve (N, cp, ri, ssq_F, ssq_J, &s, u1, &o, &i1);
  CHECK (st1 == VM_ENEWTON_NONFINITE && strstr (i1.message, "Jacobian entry 0 not finite"),
         "jac_sumsq: an infinite entry: %d %s", st1, i1.message);
  vm_newton_info_free (&i0);
  vm_newton_info_free (&i1);
  free (cp);
  free (ri);
}

/* x_offset / offset_rows (newton.h): the rounding level of the flagged rows uses |x| + |x_offset|.
 * Bratu from u = 0, converged at the rounding level only (tol_res 0, tol_step 0): with every row
 * unflagged the solve is the one without an offset, bit for bit; with an offset of 1e6 on every
 * row the rounding level is larger by about 1e6 / max |u| (u <= 0.14 here) and the test passes no
 * later. */
static void
test_offset (void)
{
  const int N = 200;
  bratu_t b;
  int64_t *cp, *ri;
  double u0[200], u1[200], off[200];
  unsigned char rows[200];
  vm_newton_opts o;
  vm_newton_info i0, i1;
  int st0, st1, i;
  tridiag_pattern (N, &cp, &ri);
  vm_newton_info_init (&i0);
  vm_newton_info_init (&i1);
  vm_newton_opts_init (&o);
  o.tol_res = 0.0;
  o.tol_step = 0.0;
  o.tol_round = 1.0;
  for (i = 0; i < N; i++)
    {
      off[i] = 1e6;
      rows[i] = 0;
    }
  bratu_init (&b, N, 1.0);
  memset (u0, 0, sizeof u0);
  st0 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u0, &o, &i0);
  o.x_offset = off;
  o.offset_rows = rows;
  bratu_init (&b, N, 1.0);
  memset (u1, 0, sizeof u1);
  st1 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &i1);
  CHECK (st0 == VM_OK && st1 == VM_OK && memcmp (u0, u1, sizeof u0) == 0
         && i1.iterations == i0.iterations && i1.round_level == i0.round_level,
         "offset on no row: the same solve (%d %d, %d / %d iterations, rounding %g / %g)", st0,
         st1, i0.iterations, i1.iterations, i0.round_level, i1.round_level);
  o.offset_rows = NULL;
  bratu_init (&b, N, 1.0);
  memset (u1, 0, sizeof u1);
  st1 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &i1);
  CHECK (st1 == VM_OK && i1.iterations <= i0.iterations && i1.round_level > 1e6 * i0.round_level,
         "offset 1e6 on every row: %d, %d / %d iterations, rounding level %g / %g", st1,
         i1.iterations, i0.iterations, i1.round_level, i0.round_level);
  vm_newton_info_free (&i0);
  vm_newton_info_free (&i1);
  free (cp);
  free (ri);
}

/* ---- argument checks ---------------------------------------------------------------------------- */

static int
noop_J (const double *x, double *Jx, void *c)
{
  (void) x;
  (void) Jx;
  (void) c;
  return 0;
}

static void
test_args (void)
{
  const int N = 4;
  bratu_t b;
  int64_t *cp, *ri, bad_cp[5], bad_ri[10];
  double u[4] = { 0.1, 0.2, 0.3, 0.4 }, u0[4];
  vm_newton_info inf;
  vm_newton_opts o;
  int st, nbad = 0, nmsg = 0, t;
  bratu_init (&b, N, 1.0);
  tridiag_pattern (N, &cp, &ri);
  memcpy (u0, u, sizeof u);
  vm_newton_info_init (&inf);

  for (t = 0; t < 23; t++)
    {
      int n = N;
      const int64_t *c = cp, *r = ri;
      vm_newton_fn f = bratu_F;
      vm_newton_jac j = bratu_J;
      double *x = u;
      vm_newton_opts_init (&o);
      memcpy (bad_cp, cp, sizeof bad_cp);
      memcpy (bad_ri, ri, sizeof bad_ri);
      switch (t)
        {
        case 0: n = 0; break;
        case 1: n = -3; break;
        case 2: c = NULL; break;
        case 3: r = NULL; break;
        case 4: f = NULL; break;
        case 5: j = NULL; break;
        case 6: x = NULL; break;
        case 7: bad_cp[0] = 1; c = bad_cp; break;
        case 8: bad_cp[2] = bad_cp[1] - 1; c = bad_cp; break;
        case 9: bad_ri[0] = 4; r = bad_ri; break;
        case 10: bad_ri[0] = -1; r = bad_ri; break;
        case 11: bad_ri[0] = 1; bad_ri[1] = 0; r = bad_ri; break;  /* unsorted column 0 */
        case 12: bad_ri[2] = 1; bad_ri[3] = 1; r = bad_ri; break;  /* duplicate in column 1 */
        case 13: o.tol_res = -1.0; break;
        case 14: o.tol_step = NAN; break;
        case 15: o.res_scale = INFINITY; break;
        case 16: o.max_iter = -1; break;
        case 17: o.max_iter = 2000000; break;
        case 18: u[2] = NAN; break;
        case 19: o.block = -1; break;
        case 20: o.block = n + 1; break;
        case 21: o.step_scale = 0.0; break;
        case 22: o.step_scale = INFINITY; break;
        }
      st = vm_newton_solve (n, c, r, f, j, &b, x, &o, &inf);
      if (st == VM_EARG && inf.status == VM_EARG)
        nbad++;
      else
        printf ("info: argument case %d not rejected: %d\n", t, st);
      if (strlen (inf.message) > 0)
        nmsg++;
      if (t == 18)
        CHECK (isnan (u[2]), "x unchanged on VM_EARG");
      u[2] = u0[2];
    }
  CHECK (nbad == 23 && nmsg == 23, "bad arguments rejected: %d of 23 (%d messages)", nbad, nmsg);
  CHECK (memcmp (u, u0, sizeof u) == 0 && b.ncallF == 0 && b.ncallJ == 0,
         "no callback and x unchanged on VM_EARG");
  /* NULL info with a bad argument */
  CHECK (vm_newton_solve (0, cp, ri, bratu_F, bratu_J, &b, u, NULL, NULL) == VM_EARG, "NULL info");
  /* an empty pattern is valid (a structurally singular J): LM cannot move since J^T F = 0 */
  {
    const int64_t cz[5] = { 0, 0, 0, 0, 0 };
    st = vm_newton_solve (N, cz, NULL, bratu_F, noop_J, &b, u, NULL, &inf);
    CHECK (st == VM_ENEWTON_STALL && memcmp (u, u0, sizeof u) == 0, "empty pattern: %d %s", st,
           inf.message);
  }
  vm_newton_info_free (&inf);
  free (cp);
  free (ri);
}

static void
test_status_strings (void)
{
  const int codes[] = { VM_ENEWTON_MAXIT, VM_ENEWTON_STALL, VM_ENEWTON_SINGULAR,
                        VM_ENEWTON_NONFINITE, VM_EUMFPACK };
  int i, ok = 1;
  for (i = 0; i < 5; i++)
    if (strcmp (vm_status_string (codes[i]), "unknown status") == 0)
      ok = 0;
  CHECK (ok && VM_ENEWTON_MAXIT == VM_ECONTACT + 1 && VM_EUMFPACK == VM_ECONTACT + 5,
         "new status codes appended with strings");
  /* the names of the kinds of steps, one table for every progress output */
  CHECK (!strcmp (vm_newton_kind_name (VM_NEWTON_START), "start")
         && !strcmp (vm_newton_kind_name (VM_NEWTON_FULL), "newton")
         && !strcmp (vm_newton_kind_name (VM_NEWTON_DAMPED), "damped")
         && !strcmp (vm_newton_kind_name (VM_NEWTON_LM), "lm")
         && !strcmp (vm_newton_kind_name (VM_NEWTON_CHORD), "chord")
         && !strcmp (vm_newton_kind_name (-1), "?") && !strcmp (vm_newton_kind_name (5), "?"),
         "vm_newton_kind_name");
}

/* ---- residual weights and the rounding-level test ----------------------------------------------- */

static void
test_weights_round (void)
{
  const int N = 20000;
  bratu_t b;
  int64_t *cp, *ri;
  double *u = malloc ((size_t) N * sizeof *u), *u1 = malloc ((size_t) N * sizeof *u1);
  double *wt = malloc ((size_t) N * sizeof *wt), d = 0.0;
  vm_newton_opts o;
  vm_newton_info inf, inf1;
  int st, st1, i, k;
  tridiag_pattern (N, &cp, &ri);
  vm_newton_info_init (&inf);
  vm_newton_info_init (&inf1);
  /* a constant weight c: ||F||_W = c ||F||_2, the relative test and the line search are invariant:
   * the same iterates */
  bratu_init (&b, N, 1.0);
  vm_newton_opts_init (&o);
  for (i = 0; i < N; i++)
    u[i] = u1[i] = 0.0;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  for (i = 0; i < N; i++)
    wt[i] = 4.0;           /* both ||F(0)|| > 1: the scale max(1, ||F(0)||) is relative */
  o.res_weight = wt;
  st1 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &inf1);
  for (i = 0; i < N; i++)
    d = fmax (d, fabs (u[i] - u1[i]));
  CHECK (st == VM_OK && st1 == VM_OK && inf.iterations == inf1.iterations && d <= 1e-14
         && fabs (inf1.res_hist[0] / inf.res_hist[0] - 4.0) <= 1e-12,
         "constant weight: %d / %d iterations, |du| %.2e", inf.iterations, inf1.iterations, d);
  /* the rounding level: F = (2u_i - u_i-1 - u_i+1)/h^2 - e^u has a floor about eps |u| / h^2
   * (here ~1e-4 relative to ||F(0)||_2 = sqrt(N)): with tol_res = 1e-16 and no step test Newton
   * cannot converge; with tol_round = 1 it stops at the rounding level within a few steps */
  o.res_weight = NULL;
  o.tol_res = 1e-16;
  o.tol_step = 0.0;
  o.max_iter = 12;
  for (i = 0; i < N; i++)
    u[i] = 0.0;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  print_hist ("Bratu N = 20000, tol_res 1e-16, no rounding test", &inf);
  CHECK (st != VM_OK, "no rounding test: converged? %s", inf.message);
  o.tol_round = 1.0;
  for (i = 0; i < N; i++)
    u[i] = 0.0;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  print_hist ("Bratu N = 20000, tol_res 1e-16, tol_round 1", &inf);
  CHECK (st == VM_OK && strstr (inf.message, "rounding level") && inf.iterations <= 6
         && inf.round_level > 0.0 && inf.final_res <= inf.round_level,
         "rounding test: %s", inf.message);
  /* the same with weights h^2 (F in the units of u): the rounding level scales with them */
  for (i = 0; i < N; i++)
    wt[i] = b.h * b.h;
  for (k = 0; k < 2; k++)
    {
      o.res_weight = k ? wt : NULL;
      for (i = 0; i < N; i++)
        u1[i] = 0.0;
      st1 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &inf1);
      CHECK (st1 == VM_OK && inf1.iterations == inf.iterations, "weighted rounding test: %s",
             inf1.message);
    }
  /* invalid weights */
  wt[7] = 0.0;
  o.res_weight = wt;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  CHECK (st == VM_EARG && strstr (inf.message, "res_weight[7]"), "zero weight: %s", inf.message);
  wt[7] = NAN;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  CHECK (st == VM_EARG, "NaN weight: %s", inf.message);
  o.res_weight = NULL;
  o.tol_round = -1.0;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
  CHECK (st == VM_EARG, "negative tol_round: %s", inf.message);
  /* UMFPACK options and the symbolic cache: the natural ordering gives the same iterates on this
   * tridiagonal system; a second solve with the cache does no symbolic analysis; a changed option
   * replaces the cached analysis */
  {
    vm_newton_symbolic cache;
    int r;
    vm_newton_symbolic_init (&cache);
    vm_newton_opts_init (&o);
    o.linsolve = VM_LINSOLVE_BANDED;   /* the banded backend leaves the cache alone */
    o.symbolic = &cache;
    for (i = 0; i < N; i++)
      u[i] = 0.0;
    st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
    CHECK (st == VM_OK && cache.sym == NULL && cache.n == 0 && inf.nsymbolic == 0,
           "banded: the symbolic cache untouched: %s", inf.message);
    o.linsolve = VM_LINSOLVE_UMFPACK;
    o.umf_ordering = VM_UMF_ORDERING_NONE;
    o.umf_strategy = VM_UMF_STRATEGY_UNSYMMETRIC;
    o.umf_irstep = 0;
    o.symbolic = &cache;
    for (r = 0; r < 3; r++)
      {
        if (r == 2)
          o.umf_strategy = VM_UMF_STRATEGY_SYMMETRIC;
        for (i = 0; i < N; i++)
          u[i] = 0.0;
        st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
        CHECK (st == VM_OK && inf.nsymbolic == (r == 1 ? 0 : 1) && cache.sym != NULL
               && cache.nreuse == (r == 1 ? 1 : 0) && inf.t_numeric > 0.0,
               "symbolic cache, solve %d: nsymbolic %ld, reuse %ld: %s", r, inf.nsymbolic,
               cache.nreuse, inf.message);
      }
    vm_newton_symbolic_free (&cache);
    CHECK (cache.sym == NULL, "symbolic cache freed");
    vm_newton_symbolic_free (NULL);
    o.symbolic = NULL;
    o.umf_ordering = 6;         /* UMFPACK_ORDERING_USER: not accepted */
    st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
    CHECK (st == VM_EARG, "umf_ordering 6: %s", inf.message);
    o.umf_ordering = -1;
    o.umf_irstep = 11;
    st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
    CHECK (st == VM_EARG, "umf_irstep 11: %s", inf.message);
    o.umf_irstep = -1;
    o.linsolve = 3;
    st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, &inf);
    CHECK (st == VM_EARG && strstr (inf.message, "linsolve = 3"), "linsolve 3: %s", inf.message);
  }
  vm_newton_info_free (&inf);
  vm_newton_info_free (&inf1);
  free (cp);
  free (ri);
  free (u);
  free (u1);
  free (wt);
}

/* ---- factorization reuse (chord steps, newton.h 2') --------------------------------------------- */

/* Bratu with N points from u = 0, the rounding-level test on, reuse = r, both backends. */
static int
bratu_reuse (int N, double lam, int r, int linsolve, int tol_round, double *u, vm_newton_info *inf)
{
  bratu_t b;
  int64_t *cp, *ri;
  vm_newton_opts o;
  int i, st;
  tridiag_pattern (N, &cp, &ri);
  bratu_init (&b, N, lam);
  vm_newton_opts_init (&o);
  o.tol_round = tol_round;
  o.reuse = r;
  o.linsolve = linsolve;
  for (i = 0; i < N; i++)
    u[i] = 0.0;
  st = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u, &o, inf);
  free (cp);
  free (ri);
  return st;
}

/* The counts of a solve with reuse: every Newton step has its own Jacobian and factorization (a
 * last Jacobian without one when the rounding-level test stopped), every chord step is counted,
 * and every residual evaluation is the initial one, an accepted step's or a rejected chord
 * trial's (no line search, no LM here). */
static int
reuse_counts_ok (const vm_newton_info *inf)
{
  /* a last Jacobian for the test 1', none when the held one served (1'') */
  const int round_stop = strstr (inf->message, "rounding level") != NULL
                         && strstr (inf->message, "held factorization") == NULL;
  int k, nchord = 0, nnewton = 0;
  for (k = 1; k < inf->nhist; k++)
    {
      nchord += inf->kind_hist[k] == VM_NEWTON_CHORD;
      nnewton += inf->kind_hist[k] == VM_NEWTON_FULL;
    }
  return nchord + nnewton == inf->iterations && inf->nfactor == nnewton
         && inf->njev == nnewton + round_stop && nchord == inf->nreuse_factor
         && inf->nfev == 1 + inf->iterations + inf->nreuse_reject;
}

/* ||F(u)||_2 of Bratu, evaluated afresh */
static double
bratu_resid (int N, double lam, const double *u)
{
  bratu_t b;
  double *F = malloc ((size_t) N * sizeof *F), r;
  bratu_init (&b, N, lam);
  bratu_F (u, F, &b);
  r = norm2 (N, F);
  free (F);
  return r;
}

static void
test_reuse (void)
{
  static const double lams[2] = { 1.0, 3.5 };
  const int N = 200;
  double *u0 = malloc (N * sizeof *u0), *u1 = malloc (N * sizeof *u1);
  vm_newton_info i0, i1;
  int c, be, i, st0, st1;
  vm_newton_info_init (&i0);
  vm_newton_info_init (&i1);
  for (c = 0; c < 2; c++)
    for (be = VM_LINSOLVE_UMFPACK; be <= VM_LINSOLVE_BANDED; be++)
      {
        double du = 0.0, ref = 0.0;
        st0 = bratu_reuse (N, lams[c], 0, be, 1, u0, &i0);
        st1 = bratu_reuse (N, lams[c], 2, be, 1, u1, &i1);
        for (i = 0; i < N; i++)
          {
            du = fabs (u1[i] - u0[i]) > du ? fabs (u1[i] - u0[i]) : du;
            ref = fabs (u0[i]) > ref ? fabs (u0[i]) : ref;
          }
        print_hist (lams[c] == 1.0 ? "reuse, Bratu lambda = 1" : "reuse, Bratu lambda = 3.5", &i1);
        printf ("info: reuse lambda = %g %s: %d it / %ld factorizations without, %d / %ld with "
                "(%ld chord, %ld rejected), max |du| = %.2e\n", lams[c], vm_linsolve_name (be),
                i0.iterations, i0.nfactor, i1.iterations, i1.nfactor, i1.nreuse_factor,
                i1.nreuse_reject, du);
        CHECK (st0 == VM_OK && st1 == VM_OK && i0.nreuse_factor == 0 && i0.nreuse_reject == 0,
               "reuse lambda = %g: %s / %s", lams[c], i0.message, i1.message);
        /* saves factorizations (lambda = 1: no chord rejected; lambda = 3.5, near the turning
         * point 3.51, where J changes fast: chord trials fall back to a refactorization) */
        CHECK (i1.nfactor < i0.nfactor && i1.nreuse_factor >= 2 && has_kind (&i1, VM_NEWTON_CHORD),
               "reuse lambda = %g: %ld factorizations, %ld chord steps", lams[c], i1.nfactor,
               i1.nreuse_factor);
        CHECK (c == 0 ? i1.nreuse_reject == 0 : i1.nreuse_reject >= 1,
               "reuse lambda = %g: %ld chord trials rejected", lams[c], i1.nreuse_reject);
        CHECK (reuse_counts_ok (&i1), "reuse lambda = %g: counts: it %d, nfactor %ld, njev %ld, "
               "nfev %ld, chord %ld, rejected %ld", lams[c], i1.iterations, i1.nfactor, i1.njev,
               i1.nfev, i1.nreuse_factor, i1.nreuse_reject);
        /* the same root: both residuals are below tol_res ||F(0)|| ~ 5e-9, ||J^-1||_2 <= 1e2 even
         * at lambda = 3.5 (J's smallest eigenvalue ~ 1e-2 there): |du| <= 1e-6 with a margin */
        CHECK (du <= 1e-6 * ref && fabs (bratu_resid (N, lams[c], u1)) <= i1.res_scale * 1e-10,
               "reuse lambda = %g: max |du| = %.2e (max |u| %.2e), ||F(u)|| = %.2e", lams[c], du,
               ref, bratu_resid (N, lams[c], u1));
      }
  /* without the rounding-level test no chord step is taken (a chord sequence could end at the
   * rounding floor of F with a step above tol_step: newton.h 2'): the same iterates */
  st0 = bratu_reuse (N, 3.5, 0, VM_LINSOLVE_BANDED, 0, u0, &i0);
  st1 = bratu_reuse (N, 3.5, 2, VM_LINSOLVE_BANDED, 0, u1, &i1);
  CHECK (st0 == VM_OK && st1 == VM_OK && i1.nreuse_factor == 0 && i1.nreuse_reject == 0
         && i1.iterations == i0.iterations && memcmp (u0, u1, N * sizeof *u0) == 0,
         "reuse without tol_round: %ld chord steps, %d / %d iterations", i1.nreuse_factor,
         i0.iterations, i1.iterations);
  /* newton.h 1'': with only the rounding-level tests able to stop (tol_res below the floor,
   * tol_step = 0), Bratu (N = 20000, the case of test_weights) reaches the rounding floor, below
   * half the level estimated with the held J(x_m), after a full step and ends there -- no J(x_k):
   * one Jacobian per Newton step -- and the point passes the test 1' with its own J as well,
   * whose estimate is within 5 % */
  for (c = 0; c < 1; c++)
    {
      const int n2 = 20000;
      double *u2 = malloc (n2 * sizeof *u2), *Jx = malloc (3 * (size_t) n2 * sizeof *Jx);
      double *ax = calloc (n2, sizeof *ax), rl = 0.0, f = 0.0;
      int64_t *cp, *ri, p;
      bratu_t b;
      vm_newton_opts o;
      int nnewton = 0, j;
      tridiag_pattern (n2, &cp, &ri);
      bratu_init (&b, n2, 1.0);
      vm_newton_opts_init (&o);
      o.tol_res = 1e-16;   /* Bratu's floor is about 1e-4 of ||F(0)||: below it */
      o.tol_step = 0.0;
      o.tol_round = 1.0;
      o.max_iter = 12;
      for (i = 0; i < n2; i++)
        u2[i] = 0.0;
      st1 = vm_newton_solve (n2, cp, ri, bratu_F, bratu_J, &b, u2, &o, &i1);
      for (i = 1; i < i1.nhist; i++)
        nnewton += i1.kind_hist[i] == VM_NEWTON_FULL;
      /* the test 1' at the returned point, with J(u): tol_round eps || |J| |u| ||_2 */
      bratu_J (u2, Jx, &b);
      for (j = 0; j < n2; j++)
        for (p = cp[j]; p < cp[j + 1]; p++)
          ax[ri[p]] += fabs (Jx[p]) * fabs (u2[j]);
      for (i = 0; i < n2; i++)
        rl += ax[i] * ax[i];
      rl = DBL_EPSILON * sqrt (rl);
      f = bratu_resid (n2, 1.0, u2);
      print_hist ("rounding level with the held J", &i1);
      CHECK (st1 == VM_OK && strstr (i1.message, "held factorization") != NULL
             && i1.njev == nnewton
             && fabs (f - i1.final_res) <= 1e-12 * f && f <= 0.5 * i1.round_level && f <= rl
             && fabs (i1.round_level - rl) <= 0.05 * rl,
             "held rounding level (N = %d): status %d, njev %ld for %d Newton steps, last step "
             "kind %d, ||F|| %.3e (%.3e in the history), estimate %.3e (held J) / %.3e (J(u)): %s",
             n2, st1, i1.njev, nnewton, i1.kind_hist[i1.nhist - 1], f, i1.final_res,
             i1.round_level, rl, i1.message);
      CHECK (reuse_counts_ok (&i1), "held rounding level: counts: it %d, nfactor %ld, njev %ld",
             i1.iterations, i1.nfactor, i1.njev);
      free (u2);
      free (Jx);
      free (ax);
      free (cp);
      free (ri);
    }
  /* reuse = 1: at most one chord step per factorization */
  st1 = bratu_reuse (N, 1.0, 1, VM_LINSOLVE_BANDED, 1, u1, &i1);
  for (i = 2, c = 0; i < i1.nhist; i++)
    c |= i1.kind_hist[i] == VM_NEWTON_CHORD && i1.kind_hist[i - 1] == VM_NEWTON_CHORD;
  CHECK (st1 == VM_OK && i1.nreuse_factor >= 1 && !c, "reuse = 1: two chord steps in a row");
  /* the options' range */
  {
    bratu_t b;
    int64_t *cp, *ri;
    vm_newton_opts o;
    tridiag_pattern (N, &cp, &ri);
    bratu_init (&b, N, 1.0);
    vm_newton_opts_init (&o);
    CHECK (o.reuse == 2 && o.reuse_theta == 0.25, "reuse defaults %d, %g", o.reuse, o.reuse_theta);
    o.reuse = -1;
    st1 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &i1);
    CHECK (st1 == VM_EARG && strstr (i1.message, "reuse"), "reuse = -1: %s", i1.message);
    o.reuse = 2;
    o.reuse_theta = 1.0;
    st1 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &i1);
    CHECK (st1 == VM_EARG && strstr (i1.message, "reuse_theta"), "reuse_theta = 1: %s",
           i1.message);
    o.reuse = 0;   /* reuse_theta is not read when reuse is off */
    st1 = vm_newton_solve (N, cp, ri, bratu_F, bratu_J, &b, u1, &o, &i1);
    CHECK (st1 == VM_OK, "reuse = 0, reuse_theta = 1: %s", i1.message);
    free (cp);
    free (ri);
  }
  vm_newton_info_free (&i0);
  vm_newton_info_free (&i1);
  free (u0);
  free (u1);
}

/* F(x) = 1e200 (x - c) on 6 unknowns: a finite Jacobian 1e200 I whose sum of squares (the
 * non-finite check's and ||J||_F's) overflows to Inf.  It is not a non-finite Jacobian: Newton
 * solves the linear system in one step, with the rounding-level test (||J||_F = Inf: its bound
 * cannot skip the test) and without. */
#define HN 6
static int
huge_F (const double *x, double *F, void *c)
{
  int i;
  (void) c;
  for (i = 0; i < HN; i++)
    F[i] = 1e200 * (x[i] - (i + 1.0));
  return 0;
}

static int
huge_J (const double *x, double *Jx, void *c)
{
  int i;
  (void) x;
  (void) c;
  for (i = 0; i < HN; i++)
    Jx[i] = 1e200;
  return 0;
}

static void
test_huge_jacobian (void)
{
  const int64_t cp[HN + 1] = { 0, 1, 2, 3, 4, 5, 6 }, ri[HN] = { 0, 1, 2, 3, 4, 5 };
  double x[HN];
  vm_newton_info inf;
  vm_newton_opts o;
  int st, i, r, ok;
  vm_newton_info_init (&inf);
  for (r = 0; r < 2; r++)
    {
      vm_newton_opts_init (&o);
      o.tol_round = r;
      for (i = 0; i < HN; i++)
        x[i] = 0.0;
      st = vm_newton_solve (HN, cp, ri, huge_F, huge_J, NULL, x, &o, &inf);
      ok = 1;
      for (i = 0; i < HN; i++)
        ok = ok && fabs (x[i] - (i + 1.0)) <= 4 * DBL_EPSILON * (i + 1.0);
      CHECK (st == VM_OK && ok && inf.iterations == 1, "1e200 I (tol_round %d): %d, %d "
             "iterations: %s", r, st, inf.iterations, inf.message);
    }
  vm_newton_info_free (&inf);
}

int
main (void)
{
  test_definite ();
  test_huge_jacobian ();
  test_bratu ();
  test_bratu_options ();
  test_lean ();
  test_saddle ();
  test_atan ();
  test_singular ();
  test_noconv ();
  test_callback_errors ();
  test_jac_sumsq ();
  test_offset ();
  test_args ();
  test_status_strings ();
  test_weights_round ();
  test_reuse ();
  return vmtest_finish ("test_newton");
}
