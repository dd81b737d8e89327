/* test_dual.c -- the discrete dual action (csrc/dual.c): derivatives against differences, the
 * discrete primal equations at the critical point, convergence of the recovered primal, the
 * base-state fixed point D = 0, the dual Hamiltonian, and failure reporting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dual.h"
#include "vm_status.h"
#include "vmtest.h"

static double
urand (void)
{
  return (double) rand () / RAND_MAX;
}

static int
build_ode (vm_ode *o, int ny, const char **st, int np, const char **pa, int nd, const char **rhs,
           int na, const char **alg, int nonsquare)
{
  vm_ode_desc d;
  vm_err err;
  int s;
  memset (&d, 0, sizeof d);
  d.ny = ny;
  d.state = st;
  d.np = np;
  d.param = pa;
  d.nd = nd;
  d.rhs = rhs;
  d.na = na;
  d.alg = alg;
  d.nonsquare = nonsquare;
  s = vm_ode_build (&d, o, &err);
  CHECK (s == VM_OK, "build: %s", err.msg);
  return s;
}

/* gradient against central differences of S, Hessian against central differences of the gradient */
static void
check_derivatives (vm_dual *d, const char *name, double zscale)
{
  int64_t nz = d->nz, j, p;
  double *z = malloc ((size_t) nz * sizeof *z), *g = malloc ((size_t) nz * sizeof *g);
  double *gp = malloc ((size_t) nz * sizeof *gp), *gm = malloc ((size_t) nz * sizeof *gm);
  double *hv = malloc ((size_t) d->nnz * sizeof *hv), S, Sp, Sm, gerr = 0, gmax = 0, herr = 0,
         hmax = 0;
  int st;
  for (j = 0; j < nz; j++)
    z[j] = zscale * (2 * urand () - 1);
  st = vm_dual_eval (d, z, &S, g, hv);
  CHECK (st == VM_OK, "%s: eval status %d", name, st);
  for (j = 0; j < nz; j++)
    {
      double e = 1e-6 * (1 + fabs (z[j])), zj = z[j], fd;
      z[j] = zj + e;
      vm_dual_eval (d, z, &Sp, gp, NULL);
      z[j] = zj - e;
      vm_dual_eval (d, z, &Sm, gm, NULL);
      z[j] = zj;
      fd = (Sp - Sm) / (2 * e);
      if (fabs (fd - g[j]) > gerr)
        gerr = fabs (fd - g[j]);
      if (fabs (g[j]) > gmax)
        gmax = fabs (g[j]);
      /* column j of the Hessian */
      {
        int64_t i;
        for (i = 0; i < nz; i++)
          {
            double hij = 0.0, fdh = (gp[i] - gm[i]) / (2 * e);
            for (p = d->colptr[j]; p < d->colptr[j + 1]; p++)
              if (d->rowind[p] == i)
                hij = hv[p];
            if (fabs (hij - fdh) > herr)
              herr = fabs (hij - fdh);
            if (fabs (hij) > hmax)
              hmax = fabs (hij);
          }
      }
    }
  vm_dual_eval (d, z, &S, g, hv);
  CHECK (gerr <= 1e-7 * (1 + gmax), "%s: gradient vs differences %.3g (max %.3g)", name, gerr, gmax);
  CHECK (herr <= 1e-6 * (1 + hmax), "%s: Hessian vs differences %.3g (max %.3g)", name, herr, hmax);
  /* symmetry of the assembled Hessian */
  {
    double asym = 0.0;
    for (j = 0; j < nz; j++)
      for (p = d->colptr[j]; p < d->colptr[j + 1]; p++)
        {
          int64_t i = d->rowind[p], q;
          double hji = 0.0;
          for (q = d->colptr[i]; q < d->colptr[i + 1]; q++)
            if (d->rowind[q] == j)
              hji = hv[q];
          if (fabs (hv[p] - hji) > asym)
            asym = fabs (hv[p] - hji);
        }
    CHECK (asym <= 1e-13 * (1 + hmax), "%s: Hessian asymmetry %.3g", name, asym);
  }
  printf ("%s: nz %ld nnz %ld, gradient error %.2e (max %.2e), Hessian error %.2e (max %.2e)\n",
          name, (long) nz, (long) d->nnz, gerr, gmax, herr, hmax);
  free (z);
  free (g);
  free (gp);
  free (gm);
  free (hv);
}

static const char *lz_st[] = { "x", "y", "z" }, *lz_pa[] = { "s", "r", "b" };
static const char *lz_rhs[] = { "s*(y - x)", "x*(r - z) - y", "x*y - b*z" };

/* the Lorenz system by RK4 with a small step, the reference */
static void
lorenz_rk4 (const double *par, double *y, double T, int nsteps)
{
  int k, i;
  double h = T / nsteps, k1[3], k2[3], k3[3], k4[3], w[3];
#define LZ(o, v)                                                                                  \
  do {                                                                                            \
    (o)[0] = par[0] * ((v)[1] - (v)[0]);                                                          \
    (o)[1] = (v)[0] * (par[1] - (v)[2]) - (v)[1];                                                 \
    (o)[2] = (v)[0] * (v)[1] - par[2] * (v)[2];                                                   \
  } while (0)
  for (k = 0; k < nsteps; k++)
    {
      LZ (k1, y);
      for (i = 0; i < 3; i++)
        w[i] = y[i] + 0.5 * h * k1[i];
      LZ (k2, w);
      for (i = 0; i < 3; i++)
        w[i] = y[i] + 0.5 * h * k2[i];
      LZ (k3, w);
      for (i = 0; i < 3; i++)
        w[i] = y[i] + h * k3[i];
      LZ (k4, w);
      for (i = 0; i < 3; i++)
        y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
#undef LZ
}

static void
test_lorenz (void)
{
  vm_ode o;
  vm_dual_ode e;
  vm_dual d;
  double par[3] = { 10, 28, 8.0 / 3 }, c[3] = { 50, 50, 50 }, y0[3] = { 1, 2, 3 };
  double *ybar, errs[3];
  int64_t N = 13, k;
  int st, level;
  if (build_ode (&o, 3, lz_st, 3, lz_pa, 3, lz_rhs, 0, NULL, 0) != VM_OK)
    return;
  st = vm_dual_ode_init (&e, &o, par, c);
  CHECK (st == VM_OK && e.linear == 1, "Lorenz engine: status %d, linear %d", st, e.linear);
  ybar = malloc ((size_t) N * 3 * sizeof *ybar);
  for (k = 0; k < 3 * N; k++)
    ybar[k] = 4 * urand () - 2;
  st = vm_dual_init (&d, 3, 3, 0, N, 4, 0.0, 0.3, c, ybar, y0, NULL, vm_dual_ode_node, &e);
  CHECK (st == VM_OK, "Lorenz init %d", st);
  if (st == VM_OK)
    {
      check_derivatives (&d, "Lorenz N=13 order 4", 0.5);
      vm_dual_free (&d);
    }
  free (ybar);
  /* solve from the zero base state; the recovered primal against RK4, at three resolutions */
  for (level = 0; level < 3; level++)
    {
      int64_t NN = 17 << level, j;
      double *z, yref[3] = { 1, 2, 3 }, err = 0.0, *res;
      vm_newton_info info;
      vm_newton_info_init (&info);
      st = vm_dual_init (&d, 3, 3, 0, NN, 4, 0.0, 0.1, c, NULL, y0, NULL, vm_dual_ode_node, &e);
      if (st != VM_OK)
        {
          CHECK (0, "init %d", st);
          continue;
        }
      z = calloc ((size_t) d.nz, sizeof *z);
      res = malloc ((size_t) NN * 3 * sizeof *res);
      st = vm_dual_solve (&d, z, 1e-12, 30, &info);
      CHECK (st == VM_OK, "Lorenz solve N=%ld: %s", (long) NN, info.message);
      vm_dual_primal (&d, res, NULL, NULL);
      {
        double rmax = 0.0;
        for (j = 0; j < (NN - 1) * 3; j++)
          if (fabs (res[j]) > rmax)
            rmax = fabs (res[j]);
        CHECK (rmax <= 1e-8, "Lorenz N=%ld (Newton tol 1e-12 x initial RMS ~1e3): discrete primal residual %.3g at nodes 0..N-2",
               (long) NN, rmax);
      }
      /* the error over the whole grid against RK4 */
      for (j = 0; j < NN; j++)
        {
          double yr[3] = { 1, 2, 3 };
          int i;
          lorenz_rk4 (par, yr, d.t[j], 2000);
          for (i = 0; i < 3; i++)
            if (fabs (d.y[j * 3 + i] - yr[i]) > err)
              err = fabs (d.y[j * 3 + i] - yr[i]);
        }
      (void) yref;
      errs[level] = err;
      printf ("Lorenz dual solve N=%ld: %d Newton iterations, max error vs RK4 %.3e\n", (long) NN,
              info.iterations, err);
      /* base-state fixed point: ybar = y^H makes D = 0 critical (up to the last node's equation) */
      if (level == 1)
        {
          vm_dual d2;
          double *yb = malloc ((size_t) NN * 3 * sizeof *yb), *g, gmax = 0.0;
          memcpy (yb, d.y, (size_t) NN * 3 * sizeof *yb);
          st = vm_dual_init (&d2, 3, 3, 0, NN, 4, 0.0, 0.1, c, yb, y0, NULL, vm_dual_ode_node, &e);
          g = malloc ((size_t) d2.nz * sizeof *g);
          memset (z, 0, (size_t) d.nz * sizeof *z);
          st = vm_dual_eval (&d2, z, NULL, g, NULL);
          for (j = 0; j < d2.nz; j++)
            if (fabs (g[j] / d2.hw[j / 3 < NN ? j / 3 : NN - 1]) > gmax)
              gmax = fabs (g[j] / d2.hw[j / 3 < NN ? j / 3 : NN - 1]);
          CHECK (st == VM_OK && gmax <= 1e-8, "base state = primal: |grad/H| at D = 0 is %.3g", gmax);
          free (g);
          free (yb);
          vm_dual_free (&d2);
        }
      vm_newton_info_free (&info);
      free (z);
      free (res);
      vm_dual_free (&d);
    }
  {
    double r1 = log2 (errs[0] / errs[1]), r2 = log2 (errs[1] / errs[2]);
    printf ("Lorenz observed orders %.2f %.2f (order-4 operator: boundary order 2, expected >= 3)\n",
            r1, r2);
    CHECK (r2 >= 2.7, "Lorenz recovered primal: observed order %.2f", r2);
  }
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
}

/* nonlinear DtP (F cubic / transcendental) with an algebraic state and equation */
static void
test_nonlinear (void)
{
  const char *st[] = { "a", "b", "w" }, *pa[] = { "k" };
  const char *rhs[] = { "-k*a^3 + sin(b)", "a*w - b" }, *alg[] = { "w - exp(-a^2)" };
  vm_ode o;
  vm_dual_ode e;
  vm_dual d;
  double par[1] = { 0.7 }, c[3] = { 8, 8, 8 }, y0[2] = { 0.5, -0.2 }, *ybar;
  int64_t N = 12, k;
  int s;
  if (build_ode (&o, 3, st, 1, pa, 2, rhs, 1, alg, 0) != VM_OK)
    return;
  s = vm_dual_ode_init (&e, &o, par, c);
  CHECK (s == VM_OK && e.linear == 0, "nonlinear engine: status %d, linear %d", s, e.linear);
  ybar = malloc ((size_t) N * 3 * sizeof *ybar);
  for (k = 0; k < 3 * N; k++)
    ybar[k] = urand () - 0.5;
  s = vm_dual_init (&d, 3, 2, 1, N, 2, 0.0, 1.0, c, ybar, y0, NULL, vm_dual_ode_node, &e);
  CHECK (s == VM_OK, "init %d", s);
  if (s == VM_OK)
    {
      check_derivatives (&d, "nonlinear DAE N=12 order 2", 0.3);
      vm_dual_free (&d);
    }
  s = vm_dual_init (&d, 3, 2, 1, 16, 6, 0.0, 1.0, c, NULL, y0, NULL, vm_dual_ode_node, &e);
  if (s == VM_OK)
    {
      check_derivatives (&d, "nonlinear DAE N=16 order 6", 0.3);
      vm_dual_free (&d);
    }
  /* a singular DtP map is reported, not returned as a number */
  {
    double cs[3] = { 1e-3, 1e-3, 1e-3 }, *z;
    vm_dual_ode e2;
    vm_dual_ode_init (&e2, &o, par, cs);
    e2.max_iter = 5;
    s = vm_dual_init (&d, 3, 2, 1, N, 2, 0.0, 1.0, cs, ybar, y0, NULL, vm_dual_ode_node, &e2);
    z = malloc ((size_t) d.nz * sizeof *z);
    for (k = 0; k < d.nz; k++)
      z[k] = 50 * (urand () - 0.5);
    s = vm_dual_eval (&d, z, NULL, NULL, NULL);
    CHECK (s == VM_EDTP && d.bad >= 0, "tiny c: status %d (expected VM_EDTP), bad node %ld", s,
           (long) d.bad);
    free (z);
    vm_dual_free (&d);
    vm_dual_ode_free (&e2);
  }
  free (ybar);
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
}

/* the generalized Pars system (Acharya & Sengupta eq. 32): nonsquare, 4 algebraic states, 2
 * equations; derivatives, and the Hamiltonian is constant for a constant base state */
static void
test_pars (void)
{
  const char *st[] = { "x1", "x2", "x3", "v1", "v2", "v3", "Q1", "Q2", "Q3", "s" };
  const char *rhs[] = { "v1", "v2", "v3", "-Q1", "-Q2", "-Q3" };
  const char *alg[] = { "x3*v1 - v2", "Q1*v1 + Q2*v2 + Q3*v3 - s^2/2" };
  vm_ode o;
  vm_dual_ode e;
  vm_dual d;
  double c[10], y0[6] = { 0, 0, 0.5, 1, 0.5, 0.3 };
  int i, s;
  for (i = 0; i < 10; i++)
    c[i] = 20;
  if (build_ode (&o, 10, st, 0, NULL, 6, rhs, 2, alg, 1) != VM_OK)
    return;
  s = vm_dual_ode_init (&e, &o, NULL, c);
  CHECK (s == VM_OK && e.linear == 1, "Pars engine: status %d, linear %d", s, e.linear);
  s = vm_dual_init (&d, 10, 6, 2, 10, 4, 0.0, 1.0, c, NULL, y0, NULL, vm_dual_ode_node, &e);
  CHECK (s == VM_OK, "init %d", s);
  if (s == VM_OK)
    {
      check_derivatives (&d, "Pars N=10 order 4", 0.2);
      vm_dual_free (&d);
    }
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
}

static void
test_args (void)
{
  vm_dual d;
  double c[2] = { 1, -1 }, y0[2] = { 0, 0 };
  CHECK (vm_dual_init (&d, 2, 2, 0, 10, 4, 0, 1, c, NULL, y0, NULL, vm_dual_ode_node, NULL)
         == VM_EARG, "c <= 0 refused");
  c[1] = 1;
  CHECK (vm_dual_init (&d, 2, 2, 0, 3, 4, 0, 1, c, NULL, y0, NULL, vm_dual_ode_node, NULL)
         != VM_OK, "N too small refused");
  CHECK (vm_dual_init (&d, 2, 3, 0, 10, 4, 0, 1, c, NULL, y0, NULL, vm_dual_ode_node, NULL)
         == VM_EARG, "nd > ny refused");
}

int
main (void)
{
  srand (7);
  test_args ();
  test_lorenz ();
  test_nonlinear ();
  test_pars ();
  return vmtest_finish ("test_dual");
}
