/* test_dual_march.c -- the dual action as a window of the marching driver (csrc/dual/dual_march.c):
 * the RK4 prediction, the fixed-window march against consecutive weak-final dual solves from
 * another base state (the recovered primal is the SBP-SAT solution whatever the base state), and
 * the adaptive march against RK4 with a small step; a stiff system (Robertson's kinetics): the
 * prediction held where RK4 is unstable, the automatic weights of H (the same discrete solution as
 * with fixed weights, fewer Newton iterations) and the march against the reference values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dual/dual_march.h"
#include "base/vm_status.h"
#include "vmtest.h"

static const char *lz_st[] = { "x", "y", "z" }, *lz_pa[] = { "s", "r", "b" };
static const char *lz_rhs[] = { "s*(y - x)", "x*(r - z) - y", "x*y - b*z" };
static const double par[3] = { 10, 28, 8.0 / 3 };

static void
lz (const double *v, double *o)
{
  o[0] = par[0] * (v[1] - v[0]);
  o[1] = v[0] * (par[1] - v[2]) - v[1];
  o[2] = v[0] * v[1] - par[2] * v[2];
}

static void
rk4 (double *y, double T, int nsteps)
{
  int k, i;
  double h = T / nsteps, k1[3], k2[3], k3[3], k4[3], w[3];
  for (k = 0; k < nsteps; k++)
    {
      lz (y, k1);
      for (i = 0; i < 3; i++)
        w[i] = y[i] + 0.5 * h * k1[i];
      lz (w, k2);
      for (i = 0; i < 3; i++)
        w[i] = y[i] + 0.5 * h * k2[i];
      lz (w, k3);
      for (i = 0; i < 3; i++)
        w[i] = y[i] + h * k3[i];
      lz (w, k4);
      for (i = 0; i < 3; i++)
        y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
}

/* Robertson's kinetics with c = 1 - a - b eliminated (stiff: eigenvalues to -1e4) */
static const char *rb_st[] = { "a", "b" }, *rb_pa[] = { "k1", "k2", "k3" };
static const char *rb_rhs[] = { "-k1*a + k3*b*(1 - a - b)", "k1*a - k3*b*(1 - a - b) - k2*b^2" };
static const double rb_par[3] = { 0.04, 3e7, 1e4 };

/* The two-state system st' = rhs with np parameters pa, compiled into o (test_stiff,
 * test_unresolved). */
static int
build_ode2 (vm_ode *o, const char **st, int np, const char **pa, const char **rhs, vm_err *err)
{
  vm_ode_desc de;
  memset (&de, 0, sizeof de);
  de.ny = 2;
  de.state = st;
  de.np = np;
  de.param = pa;
  de.nd = 2;
  de.rhs = rhs;
  return vm_ode_build (&de, o, err);
}

/* The adaptive march of the two-state engine e on [0, tf] from y0 as dual_solve's defaults make
 * it (N = 33, orders 4 and 6, RelTol 1e-6, AbsTol 1e-8, Newton at 1e-3 of the tolerance) with
 * the weights c, or with automatic weights (autow) after c (the engine's weights are set to c
 * first: an automatic march leaves its last window's).  ms (initialized by the caller, who frees
 * it) gets the result, *nstiff the main action's held predictions.  The status of vm_march, or of
 * the set-up. */
static int
march2 (vm_dual_ode *e, const double *c, int autow, double tf, const double *y0,
        vm_march_sol *ms, long *nstiff)
{
  vm_dual_march am, ac;
  vm_march_opts mo;
  int st = vm_dual_ode_set_weights (e, c);
  st = st == VM_OK ? vm_dual_march_init (&am, &(vm_dual_problem) { 2, 2, 0, 33, 4, c,
                                         vm_dual_ode_node, e }, vm_dual_ode_rhs, e, 1e-6, 1e-8) : st;
  if (st != VM_OK)
    return st;
  st = vm_dual_march_init (&ac, &(vm_dual_problem) { 2, 2, 0, 33, 6, c, vm_dual_ode_node, e },
                           vm_dual_ode_rhs, e, 1e-6, 1e-8);
  if (st != VM_OK)
    {
      vm_dual_march_free (&am);
      return st;
    }
  if (autow)
    {
      vm_dual_march_set_auto_weights (&am, 10.0, vm_dual_ode_set_weights, e);
      vm_dual_march_set_auto_weights (&ac, 10.0, vm_dual_ode_set_weights, e);
    }
  vm_march_opts_init (&mo);
  mo.t0 = 0.0;
  mo.tf = tf;
  mo.rtol = 1e-6;
  mo.atol = 1e-8;
  mo.newton.tol_res = 1e-3;
  st = vm_march (&am.act, &ac.act, y0, &mo, ms);
  *nstiff = am.npredict_stiff;
  vm_dual_march_free (&am);
  vm_dual_march_free (&ac);
  return st;
}

/* the adaptive march of Robertson's kinetics on [0, tf], with automatic weights or c = 10 */
static int
robertson_march (vm_dual_ode *e, int autow, double tf, double *yend, int *nwin, int *iters,
                 long *nstiff)
{
  vm_march_sol ms;
  double c[2] = { 10, 10 }, y0[2] = { 1, 0 };
  int st, i;
  vm_march_sol_init (&ms);
  st = march2 (e, c, autow, tf, y0, &ms, nstiff);
  for (i = 0; i < 2; i++)
    yend[i] = ms.ntot > 0 ? ms.traj[(ms.ntot - 1) + ms.ntot * i] : NAN;
  *nwin = ms.nwin;
  *iters = ms.iterations;
  printf ("Robertson [0,%g], %s weights: %s (%ld stiff predictions)\n", tf,
          autow ? "automatic" : "fixed", ms.message, *nstiff);
  vm_march_sol_free (&ms);
  return st;
}

/* A state below AbsTol with weights c far from its size (doc/dual.md, "Limitations"): the
 * oscillator x'' = -w^2 x in SI units at the atomic scale, x0 = 1e-10 m, w = 2 pi / 1e-13 s, over
 * five periods, c = 10 / X^2 with X = (1e-2, 6e3): the floor AbsTol/RelTol taken as x's size.
 * Newton stops at rounding levels far above the residual scale, the error estimate no longer
 * bounds the error: VM_EUNRESOLVED, the message
 * begins "not resolved to the tolerance", and the whole interval is marched.  With x's own size
 * (X = (1e-10, 6e3)) the march converges (VM_OK). */
static void
test_unresolved (void)
{
  static const char *st_[] = { "x", "v" }, *pa[] = { "w" }, *rhs[] = { "v", "-w^2*x" };
  const double w = 2.0 * 3.14159265358979323846 / 1e-13, y0[2] = { 1e-10, 0.0 };
  double cb[2] = { 10.0 / (1e-2 * 1e-2), 10.0 / (6e3 * 6e3) },
         cg[2] = { 10.0 / (1e-10 * 1e-10), 10.0 / (6e3 * 6e3) }, *cc[2];
  vm_ode o;
  vm_err err;
  vm_dual_ode e;
  long nstiff;
  int st, k;
  cc[0] = cb;
  cc[1] = cg;
  st = build_ode2 (&o, st_, 1, pa, rhs, &err);
  CHECK (st == VM_OK, "oscillator build %s", err.msg);
  st = vm_dual_ode_init (&e, &o, &w, cb);
  CHECK (st == VM_OK, "oscillator engine %d", st);
  for (k = 0; k < 2; k++)
    {
      vm_march_sol ms;
      vm_march_sol_init (&ms);
      st = march2 (&e, cc[k], 0, 5e-13, y0, &ms, &nstiff);
      printf ("atomic oscillator, c from X = (%g, 6e3): %s\n", k == 0 ? 1e-2 : 1e-10, ms.message);
      if (k == 0)
        CHECK (st == VM_EUNRESOLVED && ms.round_res >= VM_MARCH_ROUND_UNRESOLVED
               && strncmp (ms.message, "not resolved to the tolerance: ", 31) == 0
               && strstr (ms.message, "does not bound the error") != NULL && ms.ntot > 0
               && ms.t[ms.ntot - 1] == 5e-13, "weights far from x's size: VM_EUNRESOLVED (%d)",
               st);
      else
        CHECK (st == VM_OK && ms.round_res < VM_MARCH_ROUND_UNRESOLVED
               && strncmp (ms.message, "converged: ", 11) == 0, "x's own size: VM_OK (%d)", st);
      vm_march_sol_free (&ms);
    }
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
}

static void
test_stiff (void)
{
  vm_ode o;
  vm_err err;
  vm_dual_ode e;
  double c[2] = { 10, 10 }, ya[2], yf[2], bad[2] = { 1, 0 }, nan2[2] = { 1, NAN };
  /* Hairer and Wanner's reference values at t = 40 */
  const double aref = 0.7158270687193685, bref = 9.185534764651102e-06;
  int st, nwa, nwf, ita, itf;
  long nsa, nsf;
  st = build_ode2 (&o, rb_st, 3, rb_pa, rb_rhs, &err);
  CHECK (st == VM_OK, "build %s", err.msg);
  st = vm_dual_ode_init (&e, &o, rb_par, c);
  CHECK (st == VM_OK, "engine %d", st);
  /* the engine's weights: refused when not positive and finite, nothing changed then */
  CHECK (vm_dual_ode_set_weights (&e, bad) == VM_EARG && vm_dual_ode_set_weights (&e, nan2)
         == VM_EARG && e.c[0] == 10 && e.c[1] == 10, "set_weights refuses 0 and NaN");
  bad[1] = 4;
  CHECK (vm_dual_ode_set_weights (&e, bad) == VM_OK && e.c[1] == 4 && e.cr[1] == 0.5
         && e.c[0] == 1, "set_weights sets c and 1/sqrt(c)");
  CHECK (vm_dual_ode_set_weights (&e, c) == VM_OK, "set_weights back to 10");
  /* the prediction of a stiff window is held, not RK4's amplification (|R(h lambda)|^16 with
   * h lambda ~ -30 would be ~1e40) */
  {
    vm_dual_march am;
    double *x, y0[2] = { 0.9, 1e-5 }, dmax = 0.0;
    int64_t k;
    int i;
    st = vm_dual_march_init (&am, &(vm_dual_problem) { 2, 2, 0, 17, 4, c, vm_dual_ode_node, &e },
                             vm_dual_ode_rhs, &e, 1e-6, 1e-8);
    CHECK (st == VM_OK, "march init %d", st);
    x = malloc ((size_t) am.act.n * sizeof *x);
    st = am.act.move (am.act.self, 1.0, 2.0, y0);
    st = st == VM_OK ? am.act.predict (am.act.self, y0, NULL, NULL, 0, 17, x) : st;
    for (k = 0; k < 17; k++)
      for (i = 0; i < 2; i++)
        dmax = fmax (dmax, fabs (am.d.ybar[k * 2 + i] - y0[i]));
    CHECK (st == VM_OK && am.npredict_stiff == 1 && dmax == 0.0,
           "stiff window: prediction held at y0 (%ld stiff, largest change %.3g)",
           am.npredict_stiff, dmax);
    free (x);
    vm_dual_march_free (&am);
  }
  /* the march on [0, 40] with either weights: the reference within the tolerance */
  st = robertson_march (&e, 1, 40.0, ya, &nwa, &ita, &nsa);
  CHECK (st == VM_OK, "automatic weights: status %d", st);
  st = robertson_march (&e, 0, 40.0, yf, &nwf, &itf, &nsf);
  CHECK (st == VM_OK, "fixed weights: status %d", st);
  printf ("Robertson at t = 40: a %.3e b %.3e (automatic), a %.3e b %.3e (fixed) off the "
          "reference\n", fabs (ya[0] - aref), fabs (ya[1] - bref), fabs (yf[0] - aref),
          fabs (yf[1] - bref));
  /* tolerances: RelTol |a| = 7e-7 for a, AbsTol 1e-8 for b, per window; the fast transient is
   * damped, so the errors do not accumulate over the windows */
  CHECK (fabs (ya[0] - aref) <= 1e-6 && fabs (ya[1] - bref) <= 1e-8, "automatic weights: the "
         "reference within the tolerance");
  CHECK (fabs (yf[0] - aref) <= 1e-6 && fabs (yf[1] - bref) <= 1e-8, "fixed weights: the "
         "reference within the tolerance");
  CHECK (nsa > 0 && nsf > 0, "stiff windows met (%ld, %ld)", nsa, nsf);
  /* on [0, 1000] (b down to 1e-7 while a, c ~ 0.5): the two agree within the tolerance, and
   * the automatic weights take fewer than half the Newton iterations (with one weight the DtP
   * map of the small state is far from linear and the windows that Newton fails on bound the
   * next ones, csrc/march/march_adaptive.c newton_cap) */
  st = robertson_march (&e, 1, 1000.0, ya, &nwa, &ita, &nsa);
  CHECK (st == VM_OK, "automatic weights, [0, 1000]: status %d", st);
  st = robertson_march (&e, 0, 1000.0, yf, &nwf, &itf, &nsf);
  CHECK (st == VM_OK, "fixed weights, [0, 1000]: status %d", st);
  printf ("Robertson at t = 1000: automatic - fixed %.3e %.3e; %d / %d windows, %d / %d Newton "
          "iterations\n", ya[0] - yf[0], ya[1] - yf[1], nwa, nwf, ita, itf);
  CHECK (fabs (ya[0] - yf[0]) <= 2e-6 && fabs (ya[1] - yf[1]) <= 2e-8, "the same solution "
         "within twice the tolerance");
  CHECK (2 * ita < itf, "automatic weights: fewer than half the Newton iterations (%d, %d)", ita,
         itf);
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
}

int
main (void)
{
  vm_ode o;
  vm_ode_desc de;
  vm_err err;
  vm_dual_ode e;
  vm_dual_march am, ac;
  double c[3] = { 10, 10, 10 }, y0[3] = { 1, 1, 1 };
  int st;
  memset (&de, 0, sizeof de);
  de.ny = 3;
  de.state = lz_st;
  de.np = 3;
  de.param = lz_pa;
  de.nd = 3;
  de.rhs = lz_rhs;
  st = vm_ode_build (&de, &o, &err);
  CHECK (st == VM_OK, "build %s", err.msg);
  st = vm_dual_ode_init (&e, &o, par, c);
  CHECK (st == VM_OK, "engine %d", st);
  st = vm_dual_march_init (&am, &(vm_dual_problem) { 3, 3, 0, 17, 4, c, vm_dual_ode_node, &e },
                           vm_dual_ode_rhs, &e, 1e-6, 1e-8);
  CHECK (st == VM_OK && am.act.n == 17 * 3 && am.act.nout == 6 && am.act.nerr == 3
         && am.act.nstate == 3, "action init %d", st);
  st = vm_dual_march_init (&ac, &(vm_dual_problem) { 3, 3, 0, 17, 6, c, vm_dual_ode_node, &e },
                           vm_dual_ode_rhs, &e, 1e-6, 1e-8);
  CHECK (st == VM_OK, "companion init %d", st);
  {
    vm_dual_march bad;
    CHECK (vm_dual_march_init (&bad, &(vm_dual_problem) { 3, 3, 0, 17, 4, c, vm_dual_ode_node, &e },
                               NULL, NULL, 1e-6, 0.0) == VM_EARG, "atol 0 refused");
    CHECK (vm_dual_march_init (&bad, &(vm_dual_problem) { 3, 3, 0, 5, 4, c, vm_dual_ode_node, &e },
                               NULL, NULL, 1e-6, 1e-8) != VM_OK, "N below the order's minimum refused");
  }
  /* predict: one RK4 step per node interval from xa, duals 0 */
  {
    double *x = malloc ((size_t) am.act.n * sizeof *x), yr[3] = { 1, 1, 1 }, d = 0.0;
    int i;
    int64_t j;
    st = am.act.move (am.act.self, 0.0, 0.08, y0);
    st = st == VM_OK ? am.act.predict (am.act.self, y0, NULL, NULL, 0, 17, x) : st;
    rk4 (yr, 0.08, 16);
    for (i = 0; i < 3; i++)
      d = fmax (d, fabs (am.d.ybar[16 * 3 + i] - yr[i]));
    for (j = 0; j < am.act.n; j++)
      d = fmax (d, fabs (x[j]));
    CHECK (st == VM_OK && d <= 1e-12, "predict = RK4 (16 steps) and D = 0: difference %.3g", d);
    free (x);
  }
  /* fixed windows = consecutive weak-final dual solves from the zero base state */
  {
    vm_march_opts mo;
    vm_march_sol ms;
    vm_dual d;
    vm_newton_info info;
    double ya[3] = { 1, 1, 1 }, dmax = 0.0, *z;
    int w, i;
    int64_t k;
    vm_march_opts_init (&mo);
    mo.t0 = 0.0;
    mo.tf = 0.15;
    mo.windows = 3;
    mo.newton.tol_res = 1e-3;
    vm_march_sol_init (&ms);
    st = vm_march (&am.act, NULL, y0, &mo, &ms);
    CHECK (st == VM_OK && ms.nwin == 3 && ms.ntot == 3 * 16 + 1, "fixed march: %s", ms.message);
    vm_newton_info_init (&info);
    st = vm_dual_init (&d, &(vm_dual_problem) { 3, 3, 0, 17, 4, c, vm_dual_ode_node, &e }, 0.0,
                       0.05, NULL, ya, NULL, VM_DUAL_WEAK_FINAL);
    z = malloc ((size_t) d.nz * sizeof *z);
    for (w = 0; w < 3 && st == VM_OK; w++)
      {
        st = vm_dual_move (&d, 0.05 * w, 0.05 * (w + 1), ya, NULL);
        memset (d.ybar, 0, (size_t) 17 * 3 * sizeof *d.ybar);
        memset (z, 0, (size_t) d.nz * sizeof *z);
        st = st == VM_OK ? vm_dual_solve (&d, z, 1e-13, 30, VM_LINSOLVE_AUTO, &info) : st;
        for (k = w > 0 ? 1 : 0; k < 17; k++)   /* a junction node holds the earlier window's */
          for (i = 0; i < 3; i++)
            dmax = fmax (dmax, fabs (d.y[k * 3 + i] - ms.traj[(w * 16 + k) + ms.ntot * i]));
        memcpy (ya, d.y + 16 * 3, sizeof ya);
      }
    /* the march's Newton stops at 1e-3 of the tolerance 1e-8 + 1e-6 |y| (|y| ~ 10) */
    CHECK (st == VM_OK && dmax <= 1e-8, "fixed march = chained weak solves from another base "
           "state: status %d, difference %.3g", st, dmax);
    free (z);
    vm_dual_free (&d);
    vm_newton_info_free (&info);
    vm_march_sol_free (&ms);
  }
  /* adaptive: Lorenz on [0, 1] against RK4 (h = 1e-4) */
  {
    vm_march_opts mo;
    vm_march_sol ms;
    double yr[3] = { 1, 1, 1 }, e1 = 0.0;
    int i;
    vm_march_opts_init (&mo);
    mo.t0 = 0.0;
    mo.tf = 1.0;
    mo.rtol = 1e-6;
    mo.atol = 1e-8;
    mo.newton.tol_res = 1e-3;
    vm_march_sol_init (&ms);
    st = vm_march (&am.act, &ac.act, y0, &mo, &ms);
    rk4 (yr, 1.0, 10000);
    for (i = 0; i < 3; i++)
      e1 = fmax (e1, fabs (ms.traj[(ms.ntot - 1) + ms.ntot * i] - yr[i]));
    printf ("adaptive Lorenz [0,1], RelTol 1e-6: %d windows, %d rejected, %d Newton iterations, "
            "error at t = 1: %.3e\n", ms.nwin, ms.nrej, ms.iterations, e1);
    /* tolerance 1e-6 |y| ~ 2e-5 per window; RK4 at h = 1e-4: ~1e-11 */
    CHECK (st == VM_OK && e1 <= 2e-5, "adaptive march: %s; error %.3g", ms.message, e1);
    vm_march_sol_free (&ms);
  }
  vm_dual_march_free (&am);
  vm_dual_march_free (&ac);
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
  test_stiff ();
  test_unresolved ();
  return vmtest_finish ("test_dual_march");
}
