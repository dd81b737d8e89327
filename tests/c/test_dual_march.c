/* test_dual_march.c -- the dual action as a window of the marching driver (csrc/dual_march.c):
 * the RK4 prediction, the fixed-window march against consecutive weak-final dual solves from
 * another base state (the recovered primal is the SBP-SAT solution whatever the base state), and
 * the adaptive march against RK4 with a small step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dual_march.h"
#include "vm_status.h"
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
  st = vm_dual_march_init (&am, 3, 3, 0, 17, 4, c, vm_dual_ode_node, &e, vm_dual_ode_rhs, &e,
                           1e-6, 1e-8);
  CHECK (st == VM_OK && am.act.n == 17 * 3 && am.act.nout == 6 && am.act.nerr == 3
         && am.act.nstate == 3, "action init %d", st);
  st = vm_dual_march_init (&ac, 3, 3, 0, 17, 6, c, vm_dual_ode_node, &e, vm_dual_ode_rhs, &e,
                           1e-6, 1e-8);
  CHECK (st == VM_OK, "companion init %d", st);
  {
    vm_dual_march bad;
    CHECK (vm_dual_march_init (&bad, 3, 3, 0, 17, 4, c, vm_dual_ode_node, &e, NULL, NULL, 1e-6,
                               0.0) == VM_EARG, "atol 0 refused");
    CHECK (vm_dual_march_init (&bad, 3, 3, 0, 5, 4, c, vm_dual_ode_node, &e, NULL, NULL, 1e-6,
                               1e-8) != VM_OK, "N below the order's minimum refused");
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
    st = vm_dual_init (&d, 3, 3, 0, 17, 4, 0.0, 0.05, c, NULL, ya, NULL, vm_dual_ode_node, &e,
                       VM_DUAL_WEAK_FINAL);
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
  return vmtest_finish ("test_dual_march");
}
