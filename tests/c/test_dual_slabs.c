/* test_dual_slabs.c -- the fixed-grid slab loop of the dual action (csrc/dual/dual_slabs.c).
 *
 *   (a) against separate solves: for the closed-form Lorenz kernel, S slabs with base-state
 *       passes, every array of the result equals the one of a fresh vm_dual_init + vm_dual_solve
 *       per slab and pass, chained by hand (the .m loop it replaces), bitwise; also the weak final
 *       dual and an initial-dual guess;
 *   (b) against a closed form: a linear scalar ODE ydot = a y (a node function written here from
 *       dual.h's formulas): the slabs' recovered primal is exp(a t) y0 to the order-4 SBP error,
 *       and the chained slabs' end value converges at the expected rate under refinement;
 *   (c) against a tight reference integrator: Lorenz on 4 slabs against RK4 with 20000 steps;
 *   (d) one pattern (ninit = 1) and one UMFPACK symbolic analysis for all the solves; the live
 *       printing (one header per solve and one line per Newton iterate, through the callback);
 *       the spurious-critical-point test; a slab whose DtP map fails (fail_slab, VM_EDTP); the
 *       argument checks (VM_EARG, slabs too short for their nodes: VM_ESTEP, vm_dual_init's
 *       codes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dual/dual.h"
#include "dual/dual_closed.h"
#include "dual/dual_slabs.h"
#include "base/vm_status.h"
#include "vmtest.h"

/* ---- ydot = a y: L_H = -Ddot y - D a y + c/2 (y - ybar)^2 ------------------------------------ */

typedef struct
{
  double a, c;
  double fail_after;   /* the DtP map "fails" at t > fail_after (test of fail_slab) */
} lin_ctx;

static int
lin_node (void *ctx, vm_dual_points *pts)
{
  const lin_ctx *p = ctx;
  const double *t = pts->t, *u = pts->u, *ybar = pts->ybar;
  double *y = pts->y, *val = pts->val, *grad = pts->grad, *hess = pts->hess;
  int64_t k;
  for (k = 0; k < pts->npts; k++)
    {
      const double Dd = u[2 * k], D = u[2 * k + 1], yb = ybar[k];
      /* r = c (y - ybar) - Ddot - a D = 0 */
      const double yh = yb + (Dd + p->a * D) / p->c;
      if (t && t[k] > p->fail_after)
        {
          pts->bad = k;
          return VM_EDTP;
        }
      y[k] = yh;
      if (val)
        val[k] = -Dd * yh - D * p->a * yh + 0.5 * p->c * (yh - yb) * (yh - yb);
      if (grad)
        {
          grad[2 * k] = -yh;
          grad[2 * k + 1] = -p->a * yh;
        }
      if (hess)
        {
          /* -B' A^{-1} B, B = [-1, -a], A = c */
          hess[4 * k] = -1.0 / p->c;
          hess[4 * k + 1] = hess[4 * k + 2] = -p->a / p->c;
          hess[4 * k + 3] = -p->a * p->a / p->c;
        }
    }
  return VM_OK;
}

/* ---- lines printed through the callback -------------------------------------------------------- */

typedef struct
{
  int nlines, nheader;
  char first[200];
} printed;

static void
catch_line (void *ctx, const char *line)
{
  printed *p = ctx;
  if (p->nlines == 0)
    snprintf (p->first, sizeof p->first, "%s", line);
  p->nlines++;
  if (strstr (line, "Newton residuals"))
    p->nheader++;
}

/* ---- (a) the loop against separate solves, chained by hand ----------------------------------- */

static double
maxdiff (const double *a, const double *b, int64_t n)
{
  double e = 0.0;
  int64_t k;
  for (k = 0; k < n; k++)
    {
      double d = fabs (a[k] - b[k]);
      if (d > e || isnan (d))
        e = isnan (d) ? INFINITY : d;
    }
  return e;
}

static void
test_against_separate (int weak, int nb, int use_guess)
{
  vm_dual_lorenz lz = { 10.0, 28.0, 8.0 / 3.0, 50.0 };
  const int ny = 3, nd = 3, m = 3, S = 3, order = 4;
  const int64_t N = 17, Ntot = S * (N - 1) + 1;
  double c[3] = { 50, 50, 50 }, y0[3] = { 1, 2, 3 }, tb[4] = { 0, 0.1, 0.2, 0.3 };
  double *ybar = malloc ((size_t) Ntot * ny * sizeof *ybar), *guess = NULL;
  double *slab_base = malloc ((size_t) S * N * ny * sizeof *slab_base);
  double *Y = calloc ((size_t) Ntot * ny, sizeof *Y), *Dg = calloc ((size_t) Ntot * m, sizeof *Dg);
  double *R = calloc ((size_t) Ntot * nd, sizeof *R), *H = calloc ((size_t) Ntot, sizeof *H);
  double *res = malloc ((size_t) N * nd * sizeof *res), *ham = malloc ((size_t) N * sizeof *ham);
  double *z = malloc ((size_t) N * m * sizeof *z), Ssum = 0.0, change[4] = { 0 };
  double ystart[3];
  int iters[3], b, s, st, i, all_ok = 1, ok;
  int64_t k;
  vm_dual_slabs_opts o;
  vm_dual_slabs_sol sol;
  char what[80];
  snprintf (what, sizeof what, "weak %d, %d base passes, guess %d", weak, nb, use_guess);
  for (k = 0; k < Ntot; k++)
    for (i = 0; i < ny; i++)
      ybar[k * ny + i] = 0.5 * sin ((double) (k + 3 * i));
  if (use_guess)
    {
      guess = malloc ((size_t) Ntot * m * sizeof *guess);
      for (k = 0; k < Ntot * m; k++)
        guess[k] = 0.01 * cos ((double) k);
    }
  vm_dual_slabs_opts_init (&o);
  o.slabs = S;
  o.base_iterations = nb;
  o.tol = 1e-11;
  o.max_iter = 50;
  o.weak = weak;
  o.guess = guess;
  vm_dual_slabs_sol_init (&sol);
  st = vm_dual_slabs (&(vm_dual_problem) { ny, nd, 0, N, order, c, vm_dual_lorenz_node, &lz }, tb,
                      ybar, y0, &o, &sol);
  CHECK (st == VM_OK && sol.fail_slab == 0, "%s: status %d, %s", what, st, sol.message);
  /* the reference: the .m loop, one fresh vm_dual per slab and pass */
  for (s = 0; s < S; s++)
    memcpy (slab_base + (size_t) s * N * ny, ybar + (size_t) s * (N - 1) * ny,
            (size_t) N * ny * sizeof *ybar);
  for (b = 0; b <= nb; b++)
    {
      memcpy (ystart, y0, sizeof ystart);
      Ssum = 0.0;
      for (s = 0; s < S; s++)
        {
          vm_dual d;
          vm_newton_info info;
          double Sv = 0.0;
          const int64_t k0 = (int64_t) s * (N - 1);
          vm_newton_info_init (&info);
          st = vm_dual_init (&d, &(vm_dual_problem) { ny, nd, 0, N, order, c, vm_dual_lorenz_node,
                             &lz }, tb[s], tb[s + 1], slab_base + (size_t) s * N * ny, ystart, NULL,
                             weak ? VM_DUAL_WEAK_FINAL : 0);
          if (st != VM_OK)
            {
              CHECK (0, "%s: reference init %d", what, st);
              goto out;
            }
          for (k = 0; k < d.nz; k++)
            z[k] = 0.0;
          if (guess && b == 0)
            for (k = 0; k < N; k++)
              for (i = 0; i < m; i++)
                if (vm_dual_index (&d, k, i) >= 0)
                  z[vm_dual_index (&d, k, i)] = guess[(k0 + k) * m + i];
          vm_dual_solve (&d, z, 1e-11, 50, VM_LINSOLVE_AUTO, &info);
          vm_dual_eval (&d, z, &Sv, NULL, NULL);
          vm_dual_primal (&d, res, NULL, ham);
          memcpy (Y + k0 * ny, d.y, (size_t) N * ny * sizeof *Y);
          memcpy (Dg + k0 * m, d.Dfull, (size_t) N * m * sizeof *Dg);
          memcpy (R + k0 * nd, res, (size_t) N * nd * sizeof *R);
          memcpy (H + k0, ham, (size_t) N * sizeof *H);
          Ssum += Sv;
          iters[s] = info.iterations;
          memcpy (ystart, d.y + (N - 1) * ny, sizeof ystart);
          if (b < nb)
            {
              change[b] = fmax (change[b], maxdiff (slab_base + (size_t) s * N * ny, d.y, N * ny));
              memcpy (slab_base + (size_t) s * N * ny, d.y, (size_t) N * ny * sizeof *d.y);
            }
          vm_newton_info_free (&info);
          vm_dual_free (&d);
        }
    }
  if (st != VM_OK || sol.fail_slab != 0)
    goto out;
  ok = maxdiff (sol.y, Y, Ntot * ny) == 0.0 && maxdiff (sol.D, Dg, Ntot * m) == 0.0
    && maxdiff (sol.res, R, Ntot * nd) == 0.0 && maxdiff (sol.ham, H, Ntot) == 0.0
    && sol.Sval == Ssum;
  CHECK (ok, "%s: y, D, residuals, Hamiltonian and S equal the separate solves' (max diff y %.3g, "
         "D %.3g, S %.3g)", what, maxdiff (sol.y, Y, Ntot * ny), maxdiff (sol.D, Dg, Ntot * m),
         fabs (sol.Sval - Ssum));
  all_ok &= ok;
  for (s = 0; s < S; s++)
    {
      CHECK (sol.slab_iter[s] == iters[s], "%s: slab %d iterations %d, separately %d", what, s + 1,
             sol.slab_iter[s], iters[s]);
      CHECK (maxdiff (sol.end_y + s * ny, Y + (int64_t) (s + 1) * (N - 1) * ny, ny) == 0.0
             || s < S - 1, "%s: end state of the last slab", what);
    }
  for (b = 0; b < nb; b++)
    CHECK (sol.base_change[b] == change[b], "%s: base_change[%d] %.17g, separately %.17g", what, b,
           sol.base_change[b], change[b]);
  CHECK (maxdiff (sol.base + (Ntot - N) * ny, slab_base + (size_t) (S - 1) * N * ny, N * ny) == 0.0,
         "%s: the last slab's base state", what);
  CHECK (sol.nsolve == S * (nb + 1) && sol.npass == nb + 1 && sol.ninit == 1,
         "%s: %d solves, %d passes, %d patterns", what, sol.nsolve, sol.npass, sol.ninit);
  CHECK (sol.exitflag == 1 && strncmp (sol.message, "converged (3 slab(s), ", 22) == 0,
         "%s: exitflag %d, message '%s'", what, sol.exitflag, sol.message);
out:
  vm_dual_slabs_sol_free (&sol);
  free (ybar);
  free (guess);
  free (slab_base);
  free (Y);
  free (Dg);
  free (R);
  free (H);
  free (res);
  free (ham);
  free (z);
}

/* ---- (b) the closed form exp(a t) -------------------------------------------------------------- */

static double
lin_end_error (int64_t N, int S, int weak)
{
  lin_ctx P = { -1.3, 4.0, INFINITY };
  double c = 4.0, y0 = 2.0, *tb = malloc ((size_t) (S + 1) * sizeof *tb), err;
  vm_dual_slabs_opts o;
  vm_dual_slabs_sol sol;
  int s, st;
  int64_t k;
  for (s = 0; s <= S; s++)
    tb[s] = 2.0 * s / S;
  vm_dual_slabs_opts_init (&o);
  o.slabs = S;
  o.weak = weak;
  o.tol = 1e-13;
  vm_dual_slabs_sol_init (&sol);
  st = vm_dual_slabs (&(vm_dual_problem) { 1, 1, 0, N, 4, &c, lin_node, &P }, tb, NULL, &y0, &o,
                      &sol);
  CHECK (st == VM_OK && sol.exitflag == 1, "linear N=%ld S=%d weak %d: %s", (long) N, S, weak,
         sol.message);
  err = 0.0;
  for (k = 0; k < sol.Ntot; k++)
    {
      /* the grid of slab s, node j: tb[s] + j h */
      int64_t s2 = k / (N - 1) < S ? k / (N - 1) : S - 1, j = k - s2 * (N - 1);
      double t = j == N - 1 ? tb[s2 + 1] : tb[s2] + (double) j * (tb[s2 + 1] - tb[s2]) / (N - 1);
      double e = fabs (sol.y[k] - y0 * exp (P.a * t));
      if (e > err)
        err = e;
    }
  /* the slabs are chained: the last end value against the closed form */
  CHECK (fabs (sol.end_y[S - 1] - y0 * exp (P.a * 2.0)) <= err + 1e-15,
         "linear: the end value is on the grid");
  vm_dual_slabs_sol_free (&sol);
  free (tb);
  return err;
}

static void
test_closed_form (void)
{
  int weak;
  for (weak = 0; weak <= 1; weak++)
    {
      double e1 = lin_end_error (17, 4, weak), e2 = lin_end_error (33, 4, weak);
      double e3 = lin_end_error (65, 4, weak);
      CHECK (e1 < 1e-3 && e3 < 1e-5, "linear weak %d: errors %.3g, %.3g (N = 17, 65; 4 slabs)",
             weak, e1, e3);
      /* order 4 interior (boundary order 2, global 3 or better): at least a factor 7 per halving */
      CHECK (e1 / e2 > 7.0 && e2 / e3 > 7.0, "linear weak %d: error ratios %.3g, %.3g", weak,
             e1 / e2, e2 / e3);
    }
}

/* ---- (c) Lorenz against RK4 -------------------------------------------------------------------- */

static void
lorenz_f (const double *y, double *f)
{
  f[0] = 10.0 * (y[1] - y[0]);
  f[1] = y[0] * (28.0 - y[2]) - y[1];
  f[2] = y[0] * y[1] - 8.0 / 3.0 * y[2];
}

static void
rk4 (double *y, double T, int n)
{
  double h = T / n, k1[3], k2[3], k3[3], k4[3], w[3];
  int s, i;
  for (s = 0; s < n; s++)
    {
      lorenz_f (y, k1);
      for (i = 0; i < 3; i++)
        w[i] = y[i] + 0.5 * h * k1[i];
      lorenz_f (w, k2);
      for (i = 0; i < 3; i++)
        w[i] = y[i] + 0.5 * h * k2[i];
      lorenz_f (w, k3);
      for (i = 0; i < 3; i++)
        w[i] = y[i] + h * k3[i];
      lorenz_f (w, k4);
      for (i = 0; i < 3; i++)
        y[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
}

static void
test_rk4 (void)
{
  vm_dual_lorenz lz = { 10.0, 28.0, 8.0 / 3.0, 50.0 };
  double c[3] = { 50, 50, 50 }, y0[3] = { 1, 1, 1 }, tb[5] = { 0, 0.05, 0.1, 0.15, 0.2 };
  double yr[3] = { 1, 1, 1 }, err;
  vm_dual_slabs_opts o;
  vm_dual_slabs_sol sol;
  int st, i;
  printed pr = { 0, 0, "" };
  vm_dual_slabs_opts_init (&o);
  o.slabs = 4;
  o.base_iterations = 1;
  o.linsolve = VM_LINSOLVE_UMFPACK;
  o.display = 2;
  o.print = catch_line;
  o.print_ctx = &pr;
  o.name = "dual_lorenz";
  vm_dual_slabs_sol_init (&sol);
  st = vm_dual_slabs (&(vm_dual_problem) { 3, 3, 0, 129, 4, c, vm_dual_lorenz_node, &lz }, tb, NULL,
                      y0, &o, &sol);
  CHECK (st == VM_OK && sol.exitflag == 1, "Lorenz 4 slabs: %d %s", st, sol.message);
  rk4 (yr, 0.2, 20000);
  err = 0.0;
  for (i = 0; i < 3; i++)
    err = fmax (err, fabs (sol.end_y[3 * 3 + i] - yr[i]));
  CHECK (err < 1e-5, "Lorenz 4 slabs N=129: end state off RK4 by %.3g", err);
  /* one pattern, one symbolic analysis for the 8 solves */
  CHECK (sol.ninit == 1 && sol.nsymbolic == 1 && sol.linsolve == VM_LINSOLVE_UMFPACK,
         "Lorenz: %d patterns, %ld symbolic analyses (backend %d)", sol.ninit, sol.nsymbolic,
         sol.linsolve);
  /* printing: one header per solve, one line per Newton iterate */
  CHECK (pr.nheader == 8 && pr.nlines == 8 + (int) sol.hist_p[sol.nsolve],
         "printing: %d headers, %d lines, %ld history entries", pr.nheader, pr.nlines,
         (long) sol.hist_p[sol.nsolve]);
  CHECK (strcmp (pr.first, "dual_lorenz: slab 1 of 4, base pass 0: Newton residuals (RMS of the "
                 "discrete equations):\n") == 0, "first line '%s'", pr.first);
  CHECK (sol.base_change[0] > 0.0 && sol.iterations <= 4,
         "base pass: change %.3g, %d iterations in the second pass", sol.base_change[0],
         sol.iterations);
  vm_dual_slabs_sol_free (&sol);
  /* the spurious-critical-point test: a start jump above jump_tol max(1, |ystart|) */
  vm_dual_slabs_opts_init (&o);
  o.slabs = 4;
  o.jump_tol = 1e-300;
  st = vm_dual_slabs (&(vm_dual_problem) { 3, 3, 0, 33, 4, c, vm_dual_lorenz_node, &lz }, tb, NULL,
                      y0, &o, &sol);
  CHECK (st == VM_OK && sol.exitflag == 0
         && strstr (sol.message, "slab 1 of 4: Newton converged to a spurious critical point"),
         "spurious test: %d '%s'", sol.exitflag, sol.message);
  vm_dual_slabs_sol_free (&sol);
  /* Newton's failure is reported, the other slabs are still solved */
  vm_dual_slabs_opts_init (&o);
  o.slabs = 4;
  o.max_iter = 1;
  st = vm_dual_slabs (&(vm_dual_problem) { 3, 3, 0, 33, 4, c, vm_dual_lorenz_node, &lz }, tb, NULL,
                      y0, &o, &sol);
  CHECK (st == VM_OK && sol.exitflag == 0 && sol.nsolve == 4
         && strstr (sol.message, "slab 1 of 4: no convergence in 1 iterations")
         && strstr (sol.message, "; use more slabs or a base state closer to the solution"),
         "max_iter 1: %d solves, '%s'", sol.nsolve, sol.message);
  vm_dual_slabs_sol_free (&sol);
}

/* ---- (d) a failing slab, argument checks ------------------------------------------------------- */

static void
test_failures (void)
{
  lin_ctx P = { -1.0, 1.0, 1.5 };
  vm_dual_lorenz lz = { 10.0, 28.0, 8.0 / 3.0, 50.0 };
  double c = 1.0, y0 = 1.0, tb[3] = { 0.0, 1.0, 2.0 }, c3[3] = { 1, 1, 1 }, y3[3] = { 1, 1, 1 };
  double tbad[3] = { 0.0, 1.0, 1.0 };
  vm_dual_slabs_opts o;
  vm_dual_slabs_sol sol;
  int st;
  vm_dual_slabs_opts_init (&o);
  o.slabs = 2;
  vm_dual_slabs_sol_init (&sol);
  st = vm_dual_slabs (&(vm_dual_problem) { 1, 1, 0, 17, 4, &c, lin_node, &P }, tb, NULL, &y0, &o,
                      &sol);
  CHECK (st == VM_EDTP && sol.fail_slab == 2 && sol.fail_pass == 0 && sol.exitflag == 0
         && strncmp (sol.message, "slab 2 of 2: ", 13) == 0 && sol.nsolve == 1,
         "DtP failure in slab 2: status %d, slab %d, '%s'", st, sol.fail_slab, sol.message);
  vm_dual_slabs_sol_free (&sol);
  CHECK (vm_dual_slabs (&(vm_dual_problem) { 1, 1, 0, 17, 4, &c, lin_node, &P }, tbad, NULL, &y0,
                        &o, &sol) == VM_EARG,
         "equal slab boundaries");
  {
    double tiny[3] = { 0.0, 5e-301, 1e-300 };
    st = vm_dual_slabs (&(vm_dual_problem) { 1, 1, 0, 17, 4, &c, lin_node, &P }, tiny, NULL, &y0,
                        &o, &sol);
    CHECK (st == VM_ESTEP && strstr (sol.message, "slab 1 of [0, 1e-300] is 5e-301 long, below "
                                     "the shortest that 17 nodes resolve"),
           "slabs below vm_march_hmin: %d '%s'", st, sol.message);
  }
  o.slabs = 0;
  CHECK (vm_dual_slabs (&(vm_dual_problem) { 1, 1, 0, 17, 4, &c, lin_node, &P }, tb, NULL, &y0, &o,
                        &sol) == VM_EARG,
         "no slab");
  o.slabs = 2;
  o.base_iterations = -1;
  CHECK (vm_dual_slabs (&(vm_dual_problem) { 1, 1, 0, 17, 4, &c, lin_node, &P }, tb, NULL, &y0, &o,
                        &sol) == VM_EARG,
         "negative base iterations");
  o.base_iterations = 0;
  CHECK (vm_dual_slabs (&(vm_dual_problem) { 1, 1, 0, 17, 4, &c, NULL, &P }, tb, NULL, &y0, &o,
                        &sol) == VM_EARG,
         "NULL node function");
  CHECK (vm_dual_slabs (&(vm_dual_problem) { 1, 1, 0, 17, 4, &c, lin_node, &P }, tb, NULL, &y0, &o,
                        NULL) == VM_EARG,
         "NULL result");
  c = -1.0;
  CHECK (vm_dual_slabs (&(vm_dual_problem) { 1, 1, 0, 17, 4, &c, lin_node, &P }, tb, NULL, &y0, &o,
                        &sol) == VM_EARG,
         "c < 0");
  st = vm_dual_slabs (&(vm_dual_problem) { 3, 3, 0, 4, 8, c3, vm_dual_lorenz_node, &lz }, tb, NULL,
                      y3, &o, &sol);
  CHECK (st != VM_OK && st != VM_EARG, "N below the order's minimum: %d (vm_dual_init's code)", st);
  CHECK (sol.y == NULL || sol.fail_slab == 0, "nothing solved");
  vm_dual_slabs_sol_free (&sol);
  vm_dual_slabs_sol_free (NULL);
}

int
main (void)
{
  test_against_separate (0, 0, 0);
  test_against_separate (0, 2, 0);
  test_against_separate (1, 1, 0);
  test_against_separate (0, 1, 1);
  test_closed_form ();
  test_rk4 ();
  test_failures ();
  return vmtest_finish ("test_dual_slabs");
}
