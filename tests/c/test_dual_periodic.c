/* test_dual_periodic.c -- the dual action on a circle (csrc/dual/dual_periodic.c) and the flow with its
 * variational equations (csrc/dual/ode_flow.c): derivatives against differences (with and without an
 * integral condition), the collocation equations and the phase condition at the critical point,
 * the period of the Van der Pol limit cycle against a tight DOP853 return, the base-state fixed
 * point (0 iterations), the monodromy matrix against differences of the flow, the same period
 * and iterations in other units of time and length, argument checks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dual/dual.h"
#include "dual/dual_periodic.h"
#include "dual/ode_flow.h"
#include "base/vm_status.h"
#include "vmtest.h"

#define VM_TWO_PI_HALF 3.14159265358979323846

static double
urand (void)
{
  return (double) rand () / RAND_MAX;
}

static int
build (vm_ode *o, vm_dual_ode *e, int ny, const char **st, int np, const char **pa,
       const double *par, const char **rhs, int na, const char **alg, const double *c)
{
  vm_ode_desc d;
  vm_err err;
  int s;
  memset (&d, 0, sizeof d);
  d.ny = ny;
  d.state = st;
  d.np = np;
  d.param = pa;
  d.nd = ny;
  d.rhs = rhs;
  d.na = na;
  d.alg = alg;
  d.nonsquare = na > 0;
  s = vm_ode_build (&d, o, &err);
  CHECK (s == VM_OK, "build: %s", err.msg);
  if (s != VM_OK)
    return s;
  s = vm_dual_ode_init (e, o, par, c);
  CHECK (s == VM_OK, "dual_ode_init: %d", s);
  e->tol = 1e-15;
  return s;
}

/* the slot of (i, j) in the CSC pattern, or -1 */
static int64_t
slot (const vm_dual_periodic *d, int64_t i, int64_t j)
{
  int64_t p;
  for (p = d->colptr[j]; p < d->colptr[j + 1]; p++)
    if (d->rowind[p] == i)
      return p;
  return -1;
}

static void
check_derivatives (vm_dual_periodic *d, const char *name)
{
  int64_t nz = d->nz, j, i;
  double *z = malloc ((size_t) nz * sizeof *z), *g = malloc ((size_t) nz * sizeof *g);
  double *gp = malloc ((size_t) nz * sizeof *gp), *gm = malloc ((size_t) nz * sizeof *gm);
  double *hv = malloc ((size_t) d->nnz * sizeof *hv), S, Sp, Sm, gerr = 0, gmax = 0, herr = 0,
         hmax = 0, asym = 0;
  for (j = 0; j < nz; j++)
    z[j] = 0.01 * (2 * urand () - 1);
  CHECK (vm_dual_periodic_eval (d, z, &S, g, hv) == VM_OK, "%s: eval", name);
  for (j = 0; j < nz; j++)
    {
      double e = 1e-6, zj = z[j];
      z[j] = zj + e;
      vm_dual_periodic_eval (d, z, &Sp, gp, NULL);
      z[j] = zj - e;
      vm_dual_periodic_eval (d, z, &Sm, gm, NULL);
      z[j] = zj;
      gerr = fmax (gerr, fabs ((Sp - Sm) / (2 * e) - g[j]));
      gmax = fmax (gmax, fabs (g[j]));
      for (i = 0; i < nz; i++)
        {
          int64_t p = slot (d, i, j), q = slot (d, j, i);
          double hij = p >= 0 ? hv[p] : 0.0, hji = q >= 0 ? hv[q] : 0.0;
          herr = fmax (herr, fabs (hij - (gp[i] - gm[i]) / (2 * e)));
          hmax = fmax (hmax, fabs (hij));
          asym = fmax (asym, fabs (hij - hji));
        }
    }
  /* central differences with step 1e-6: truncation ~1e-12 |S'''|, rounding ~1e-10 |S| */
  CHECK (gerr <= 1e-7 * (1 + gmax), "%s: gradient vs differences %.3g (max %.3g)", name, gerr, gmax);
  CHECK (herr <= 1e-6 * (1 + hmax), "%s: Hessian vs differences %.3g (max %.3g)", name, herr, hmax);
  CHECK (asym <= 1e-13 * (1 + hmax), "%s: Hessian asymmetry %.3g", name, asym);
  printf ("%s: nz %ld nnz %ld, gradient error %.2e (max %.2e), Hessian error %.2e (max %.2e)\n",
          name, (long) nz, (long) d->nnz, gerr, gmax, herr, hmax);
  free (z);
  free (g);
  free (gp);
  free (gm);
  free (hv);
}

static const char *vdp_st[] = { "x", "v", "P" }, *vdp_pa[] = { "mu" };
static const char *vdp_rhs[] = { "P*(v)", "P*(mu*(1 - x^2)*v - x)", "0" };

/* base state: a circle of radius 2, period guess 6.5 */
static double *
circle (int64_t N, int m)
{
  double *y = calloc ((size_t) (N * m), sizeof *y);
  int64_t k;
  for (k = 0; k < N; k++)
    {
      double s = 2 * VM_TWO_PI_HALF * (double) k / (double) N;
      y[k * m] = 2 * cos (s);
      y[k * m + 1] = -2 * sin (s);
      y[k * m + 2] = 6.5 / (2 * VM_TWO_PI_HALF);
    }
  return y;
}

/* the first return time of the flow from y0 to the plane through y0 normal to F(y0), DOP853 at
 * 1e-13: for y0 on the orbit, its period (independent of the dual solve) */
static double
first_return (vm_dual_ode *e, const double *y0)
{
  vm_ode_flow_opts fo;
  vm_ode_sol sol;
  double a[2], te = NAN;
  memset (&fo, 0, sizeof fo);
  vm_dual_ode_jac (e, 0.0, y0, a, NULL);
  fo.rtol = fo.atol = 1e-13;
  fo.nsec = 1;
  fo.sec_a = a;
  fo.sec_b = a[0] * y0[0] + a[1] * y0[1];
  fo.sec_dir = 1;
  vm_ode_sol_init (&sol);
  CHECK (vm_ode_flow (e, 0.0, 20.0, y0, NULL, 0, &fo, &sol) == VM_OK, "flow to 20");
  {
    size_t k;   /* not the start itself (g(y0) = 0 up to rounding) */
    for (k = 0; k < sol.nevents && isnan (te); k++)
      if (sol.te[k] > 1.0)
        te = sol.te[k];
  }
  vm_ode_sol_free (&sol);
  return te;
}

static void
test_vdp (void)
{
  vm_ode o, o2;
  vm_dual_ode e, e2;
  vm_dual_periodic d;
  vm_newton_info info;
  vm_dual_periodic_opts so = { 2, 50, 1, 1e-12 };
  const char *st2[] = { "x", "v" }, *rhs2[] = { "v", "mu*(1 - x^2)*v - x" };
  double par = 1.0, c[3] = { 1.0, 1.0, 100.0 }, c2[2] = { 1, 1 }, *ybar, *z, *res, ph, hist[60],
         ch[60], Tref, T, rmax = 0.0;
  int gauge[3] = { 0, 0, 1 }, it, passes, nh, nc, st;
  int64_t N = 129, k;
  if (build (&o, &e, 3, vdp_st, 1, vdp_pa, &par, vdp_rhs, 0, NULL, c) != VM_OK)
    return;
  ybar = circle (N, 3);
  st = vm_dual_periodic_init (&d, &(vm_dual_problem) { 3, 3, 0, N, 8, c, vm_dual_ode_node, &e },
                              ybar, gauge);
  CHECK (st == VM_OK, "init %d", st);
  check_derivatives (&d, "vdp order 8");
  z = calloc ((size_t) d.nz, sizeof *z);
  res = malloc ((size_t) (N * 3) * sizeof *res);
  vm_newton_info_init (&info);
  {
    vm_dual_periodic_trace tr = { 0, 0, hist, 0, ch, 0 };
    st = vm_dual_periodic_search (&d, z, &so, &tr, &info);
    it = tr.iterations;
    passes = tr.passes;
    nh = tr.nhist;
    nc = tr.nchange;
  }
  CHECK (st == VM_OK, "vdp search: %s", info.message);
  /* the last pass starts at the base-state fixed point: 0 iterations */
  CHECK (info.iterations == 0, "vdp: %d iterations after the last replacement", info.iterations);
  vm_dual_periodic_primal (&d, res, &ph, NULL);
  for (k = 0; k < N * 3; k++)
    rmax = fmax (rmax, fabs (res[k]));
  CHECK (rmax <= 1e-8, "vdp: collocation residual %.3g", rmax);
  CHECK (fabs (ph) <= 1e-10, "vdp: phase %.3g", ph);
  T = 2 * VM_TWO_PI_HALF * d.y[2];
  for (k = 1; k < N; k++)
    CHECK (fabs (d.y[k * 3 + 2] - d.y[2]) <= 1e-10, "vdp: P not constant at node %ld", (long) k);
  /* the reference: the DOP853 return time from the orbit's crossing of v = 0 */
  if (build (&o2, &e2, 2, st2, 1, vdp_pa, &par, rhs2, 0, NULL, c2) == VM_OK)
    {
      double y0[2];
      y0[0] = d.y[0];
      y0[1] = d.y[1];
      Tref = first_return (&e2, y0);
      /* order 8 at N = 129: h = 2 pi/129, error ~ (h omega)^8 with omega ~ 3 (the fast part):
       * a few 1e-9 */
      CHECK (fabs (T - Tref) <= 2e-8 * Tref, "vdp: T %.12f against the return time %.12f", T, Tref);
      printf ("vdp N = %ld: T = %.13f, return time %.13f, %d iterations, %d passes\n", (long) N,
              T, Tref, it, passes);
      /* the monodromy matrix: the non-trivial multiplier is exp (int div F dt) and one is 1 */
      {
        vm_ode_flow_opts fo;
        vm_ode_sol sol;
        double y0[2], tr, det;
        memset (&fo, 0, sizeof fo);
        fo.rtol = fo.atol = 1e-12;
        fo.variational = 1;
        y0[0] = d.y[0];
        y0[1] = d.y[1];
        vm_ode_sol_init (&sol);
        CHECK (vm_ode_flow (&e2, 0.0, T, y0, NULL, 0, &fo, &sol) == VM_OK, "variational flow");
        {
          const double *M = sol.y + (sol.npts - 1) * sol.n + 2;
          tr = M[0] + M[3];
          det = M[0] * M[3] - M[1] * M[2];
          /* eigenvalues 1 and det: trace = 1 + det */
          CHECK (fabs (tr - 1.0 - det) <= 1e-6, "monodromy: trace %.9g, 1 + det %.9g", tr, 1 + det);
          CHECK (fabs (sol.y[(sol.npts - 1) * sol.n] - y0[0]) <= 1e-7, "closure x");
          printf ("monodromy: trace %.9f, det %.3e\n", tr, det);
        }
        vm_ode_sol_free (&sol);
      }
      vm_dual_ode_free (&e2);
      vm_ode_free (&o2);
    }
  vm_newton_info_free (&info);
  free (z);
  free (res);
  free (ybar);
  vm_dual_periodic_free (&d);
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
}

/* Van der Pol in units L of x and Ts of time (x = L X, t = Ts tau): with the weights c_i = 1 /
 * ys_i^2 of periodic_orbit the search takes the same iterations and gives the same period in
 * units of Ts.  Before the state scales (csrc/dual/dual_periodic.h) Ts = 1e-6 failed in the DtP map
 * (its pivot test on A = diag (c) saw c_x / c_P ~ 1e-25 as singular) and Ts = 1e6 stopped at the
 * guess's period (absolute tests); set_scales' argument checks. */
static void
test_units (void)
{
  static const char *names[] = { "x", "v", "P" }, *pa[] = { "L", "T" };
  static const char *rhs[] = { "P*(v)", "P*(((1 - (x/L)^2)*v*T - x)/T^2)", "0" };
  const double units[4][2] = { { 1, 1 }, { 1e-6, 1 }, { 1, 1e-6 }, { 1e4, 1e6 } };
  double T1 = NAN;
  int it1 = -1, u;
  for (u = 0; u < 4; u++)
    {
      vm_ode o;
      vm_dual_ode e;
      vm_dual_periodic d;
      vm_newton_info info;
      vm_dual_periodic_opts so = { 2, 50, 1, 1e-12 };
      double L = units[u][0], Ts = units[u][1], par[2], c[3], ys[3], *ybar, *z, hist[60], ch[60], T;
      int gauge[3] = { 0, 0, 1 }, it, passes, nh, nc, st, i;
      int64_t N = 129, k;
      par[0] = L;
      par[1] = Ts;
      ybar = circle (N, 3);
      for (k = 0; k < N; k++)
        {
          ybar[k * 3] *= L;
          ybar[k * 3 + 1] *= L / Ts;
          ybar[k * 3 + 2] *= Ts;
        }
      ys[0] = 4 * L;
      ys[1] = 4 * L / Ts;
      ys[2] = 6.5 * Ts / (2 * VM_TWO_PI_HALF);
      for (i = 0; i < 3; i++)
        c[i] = 1.0 / (ys[i] * ys[i]);
      if (build (&o, &e, 3, names, 2, pa, par, rhs, 0, NULL, c) != VM_OK)
        {
          free (ybar);
          return;
        }
      st = vm_dual_periodic_init (&d, &(vm_dual_problem) { 3, 3, 0, N, 8, c, vm_dual_ode_node, &e },
                                  ybar, gauge);
      CHECK (st == VM_OK, "units init %d", st);
      if (st == VM_OK)
        {
          /* the default scales are the amplitudes of the base state (4 L and 4 L / Ts up to the
           * grid) and |P| */
          for (i = 0; i < 3; i++)
            CHECK (fabs (d.ys[i] - ys[i]) <= 1e-3 * ys[i], "units %d: scale %d %.6g, expected %.6g",
                   u, i, d.ys[i], ys[i]);
          if (u == 0)
            {
              double bad[3] = { 1, 0, 1 };
              CHECK (vm_dual_periodic_set_scales (&d, NULL) == VM_EARG, "set_scales NULL");
              CHECK (vm_dual_periodic_set_scales (&d, bad) == VM_EARG, "set_scales 0");
              bad[1] = NAN;
              CHECK (vm_dual_periodic_set_scales (&d, bad) == VM_EARG, "set_scales NaN");
              bad[1] = INFINITY;
              CHECK (vm_dual_periodic_set_scales (&d, bad) == VM_EARG, "set_scales Inf");
            }
          CHECK (vm_dual_periodic_set_scales (&d, ys) == VM_OK, "set_scales");
          z = calloc ((size_t) d.nz, sizeof *z);
          vm_newton_info_init (&info);
          {
            vm_dual_periodic_trace tr = { 0, 0, hist, 0, ch, 0 };
            st = vm_dual_periodic_search (&d, z, &so, &tr, &info);
            it = tr.iterations;
            passes = tr.passes;
            nh = tr.nhist;
            nc = tr.nchange;
          }
          CHECK (st == VM_OK, "units L %g Ts %g: %s", L, Ts, info.message);
          T = 2 * VM_TWO_PI_HALF * d.y[2] / Ts;
          if (u == 0)
            {
              T1 = T;
              it1 = it;
            }
          else
            {
              /* the same iterates in scaled variables: the periods agree to rounding */
              CHECK (fabs (T - T1) <= 1e-11 * T1, "units L %g Ts %g: T/Ts %.15g, in SI %.15g", L,
                     Ts, T, T1);
              CHECK (it == it1, "units L %g Ts %g: %d iterations, in SI %d", L, Ts, it, it1);
            }
          vm_newton_info_free (&info);
          free (z);
          vm_dual_periodic_free (&d);
        }
      free (ybar);
      vm_dual_ode_free (&e);
      vm_ode_free (&o);
    }
}

/* the pendulum with its energy fixed by an integral condition and an unfolding parameter */
static void
test_integral (void)
{
  const char *st[] = { "th", "w", "P", "e" }, *pa[] = { "g" };
  const char *rhs[] = { "P*(w + e*g*sin(th))", "P*(-g*sin(th) + e*w)", "0", "0" };
  const char *alg[] = { "w^2/2 - g*cos(th) + cos(2)" };
  double par = 1.0, c[4] = { 1, 2, 3, 4 }, *ybar;
  int gauge[4] = { 0, 0, 1, 1 }, st_;
  int64_t N = 41, k;
  vm_ode o;
  vm_dual_ode e;
  vm_dual_periodic d;
  if (build (&o, &e, 4, st, 1, pa, &par, rhs, 1, alg, c) != VM_OK)
    return;
  ybar = calloc ((size_t) (N * 4), sizeof *ybar);
  for (k = 0; k < N; k++)
    {
      double s = 2 * VM_TWO_PI_HALF * (double) k / (double) N;
      ybar[k * 4] = 2 * cos (s);
      ybar[k * 4 + 1] = -1.5 * sin (s);
      ybar[k * 4 + 2] = 8.35 / (2 * VM_TWO_PI_HALF);
      ybar[k * 4 + 3] = 0.01;
    }
  st_ = vm_dual_periodic_init (&d, &(vm_dual_problem) { 4, 4, 1, N, 4, c, vm_dual_ode_node, &e },
                               ybar, gauge);
  CHECK (st_ == VM_OK, "init %d", st_);
  CHECK (d.nz == N * 4 - 2 + 1 + 1, "nz %ld", (long) d.nz);
  check_derivatives (&d, "pendulum with the energy, order 4");
  free (ybar);
  vm_dual_periodic_free (&d);
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
}

static void
test_args (void)
{
  vm_dual_periodic d;
  double c[3] = { 1, 1, 1 }, *ybar = circle (41, 3);
  int gauge[3] = { 0, 0, 1 }, all[3] = { 1, 1, 1 };
  CHECK (vm_dual_periodic_min_n (2) == 7 && vm_dual_periodic_min_n (8) == 19
         && vm_dual_periodic_min_n (5) == -1, "min_n");
  CHECK (vm_dual_periodic_init (&d, &(vm_dual_problem) { 3, 3, 0, 40, 4, c, vm_dual_ode_node,
                                NULL }, ybar, gauge) == VM_EARG,
         "even N");
  CHECK (vm_dual_periodic_init (&d, &(vm_dual_problem) { 3, 3, 0, 9, 4, c, vm_dual_ode_node, NULL },
                                ybar, gauge) == VM_EARG,
         "N below the minimum");
  CHECK (vm_dual_periodic_init (&d, &(vm_dual_problem) { 3, 3, 0, 41, 5, c, vm_dual_ode_node,
                                NULL }, ybar, gauge)
         == VM_EORDER, "order 5");
  CHECK (vm_dual_periodic_init (&d, &(vm_dual_problem) { 3, 3, 0, 41, 4, c, vm_dual_ode_node,
                                NULL }, ybar, all) == VM_EARG,
         "every component a gauge");
  c[1] = 0.0;
  CHECK (vm_dual_periodic_init (&d, &(vm_dual_problem) { 3, 3, 0, 41, 4, c, vm_dual_ode_node,
                                NULL }, ybar, gauge) == VM_EARG,
         "c = 0");
  c[1] = 1.0;
  {
    int64_t k;
    for (k = 0; k < 41 * 3; k++)
      ybar[k] = 1.0;
  }
  CHECK (vm_dual_periodic_init (&d, &(vm_dual_problem) { 3, 3, 0, 41, 4, c, vm_dual_ode_node,
                                NULL }, ybar, gauge) == VM_EARG,
         "constant base state: no phase reference");
  free (ybar);
}

int
main (void)
{
  srand (11);
  test_args ();
  test_vdp ();
  test_units ();
  test_integral ();
  return vmtest_finish ("test_dual_periodic");
}
