/* test_dual.c -- the discrete dual action (csrc/dual/dual.h): derivatives against differences, the
 * discrete primal equations at the critical point, convergence of the recovered primal, the
 * base-state fixed point D = 0, the dual Hamiltonian, and failure reporting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dual/dual.h"
#include "dual/dual_closed.h"
#include "la/dense_lu.h"
#include "sbp/sbp.h"
#include "base/vm_status.h"
#include "vmtest.h"

/* Call the node function fn on the batch p; bad (may be NULL) is in the value p->bad starts
 * from and out the one the function leaves (it writes it only on failure) */
static int
node_call (vm_dual_node_fn fn, void *ctx, vm_dual_points *p, int64_t *bad)
{
  int st;
  p->bad = bad ? *bad : -1;
  st = fn (ctx, p);
  if (bad)
    *bad = p->bad;
  return st;
}

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
  st = vm_dual_init (&d, &(vm_dual_problem) { 3, 3, 0, N, 4, c, vm_dual_ode_node, &e }, 0.0, 0.3,
                     ybar, y0, NULL, 0);
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
      st = vm_dual_init (&d, &(vm_dual_problem) { 3, 3, 0, NN, 4, c, vm_dual_ode_node, &e }, 0.0,
                         0.1, NULL, y0, NULL, 0);
      if (st != VM_OK)
        {
          CHECK (0, "init %d", st);
          continue;
        }
      z = calloc ((size_t) d.nz, sizeof *z);
      res = malloc ((size_t) NN * 3 * sizeof *res);
      st = vm_dual_solve (&d, z, 1e-12, 30, VM_LINSOLVE_AUTO, &info);
      CHECK (st == VM_OK, "Lorenz solve N=%ld: %s", (long) NN, info.message);
      /* S is concave here (the DtP matrices definite): every factorization a Cholesky one */
      CHECK (info.linsolve == VM_LINSOLVE_BANDED && info.nchol == info.nfactor && info.nchol > 0
             && info.nchol_fail == 0, "Lorenz N=%ld: %ld Cholesky factorizations of %ld, %ld not "
             "definite", (long) NN, info.nchol, info.nfactor, info.nchol_fail);
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
          st = vm_dual_init (&d2, &(vm_dual_problem) { 3, 3, 0, NN, 4, c, vm_dual_ode_node, &e },
                             0.0, 0.1, yb, y0, NULL, 0);
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
  s = vm_dual_init (&d, &(vm_dual_problem) { 3, 2, 1, N, 2, c, vm_dual_ode_node, &e }, 0.0, 1.0,
                    ybar, y0, NULL, 0);
  CHECK (s == VM_OK, "init %d", s);
  if (s == VM_OK)
    {
      check_derivatives (&d, "nonlinear DAE N=12 order 2", 0.3);
      vm_dual_free (&d);
    }
  s = vm_dual_init (&d, &(vm_dual_problem) { 3, 2, 1, 16, 6, c, vm_dual_ode_node, &e }, 0.0, 1.0,
                    NULL, y0, NULL, 0);
  if (s == VM_OK)
    {
      check_derivatives (&d, "nonlinear DAE N=16 order 6", 0.3);
      vm_dual_free (&d);
    }
  {
    double DT2[2] = { 0.2, -0.4 };
    s = vm_dual_init (&d, &(vm_dual_problem) { 3, 2, 1, N, 4, c, vm_dual_ode_node, &e }, 0.0, 1.0,
                      ybar, y0, DT2, VM_DUAL_WEAK_FINAL);
    CHECK (s == VM_OK && d.nz == N * 3, "weak nonlinear DAE init %d", s);
    if (s == VM_OK)
      {
        check_derivatives (&d, "weak nonlinear DAE N=12 order 4", 0.3);
        vm_dual_free (&d);
      }
  }
  /* a singular DtP map is reported, not returned as a number */
  {
    double cs[3] = { 1e-3, 1e-3, 1e-3 }, *z;
    vm_dual_ode e2;
    vm_dual_ode_init (&e2, &o, par, cs);
    e2.max_iter = 5;
    s = vm_dual_init (&d, &(vm_dual_problem) { 3, 2, 1, N, 2, cs, vm_dual_ode_node, &e2 }, 0.0, 1.0,
                      ybar, y0, NULL, 0);
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
  s = vm_dual_init (&d, &(vm_dual_problem) { 10, 6, 2, 10, 4, c, vm_dual_ode_node, &e }, 0.0, 1.0,
                    NULL, y0, NULL, 0);
  CHECK (s == VM_OK, "init %d", s);
  if (s == VM_OK)
    {
      check_derivatives (&d, "Pars N=10 order 4", 0.2);
      vm_dual_free (&d);
    }
  s = vm_dual_init (&d, &(vm_dual_problem) { 10, 6, 2, 10, 4, c, vm_dual_ode_node, &e }, 0.0, 1.0,
                    NULL, y0, NULL, VM_DUAL_WEAK_FINAL);
  CHECK (s == VM_OK, "weak Pars init %d", s);
  if (s == VM_OK)
    {
      check_derivatives (&d, "weak Pars N=10 order 4", 0.2);
      vm_dual_free (&d);
    }
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
}


/* An independent SBP-SAT solve of the Lorenz IVP on N nodes: H (Dm y - F(y)) + e_0 (y_0 - y0) = 0,
 * Dm from vm_sbp_csc (not from dual_setup.c), by dense Newton on the N*3 unknowns (node-major). */
static int
lorenz_sbp_sat (const double *par, const double *y0, int64_t N, int order, double T, double *y)
{
  vm_sbp op;
  int64_t nnz, *cp, *ri, j, p, n = 3 * N, it;
  double *dv, *hw, *J, *r;
  int *piv, i, ok = 0;
  if (vm_sbp_init (&op, order, N, 0.0, T) != VM_OK)
    return 0;
  nnz = vm_sbp_nnz (&op);
  cp = malloc ((size_t) (N + 1) * sizeof *cp);
  ri = malloc ((size_t) nnz * sizeof *ri);
  dv = malloc ((size_t) nnz * sizeof *dv);
  hw = malloc ((size_t) N * sizeof *hw);
  J = malloc ((size_t) (n * n) * sizeof *J);
  r = malloc ((size_t) n * sizeof *r);
  piv = malloc ((size_t) n * sizeof *piv);
  vm_sbp_csc (&op, 1, cp, ri, dv);
  vm_sbp_weights (&op, hw);
  for (j = 0; j < N; j++)   /* start: the initial value everywhere */
    for (i = 0; i < 3; i++)
      y[j * 3 + i] = y0[i];
  for (it = 0; it < 30; it++)
    {
      double rmax = 0.0;
      memset (J, 0, (size_t) (n * n) * sizeof *J);
      for (j = 0; j < N; j++)
        {
          const double *v = y + j * 3;
          double f[3] = { par[0] * (v[1] - v[0]), v[0] * (par[1] - v[2]) - v[1],
                          v[0] * v[1] - par[2] * v[2] };
          double fy[3][3] = { { -par[0], par[0], 0 }, { par[1] - v[2], -1, -v[0] },
                              { v[1], v[0], -par[2] } };
          int a, b;
          for (a = 0; a < 3; a++)
            {
              r[j * 3 + a] = -f[a];
              for (b = 0; b < 3; b++)
                J[(j * 3 + a) * n + j * 3 + b] = -fy[a][b];
            }
        }
      for (j = 0; j < N; j++)   /* column j of Dm */
        for (p = cp[j]; p < cp[j + 1]; p++)
          for (i = 0; i < 3; i++)
            {
              r[ri[p] * 3 + i] += dv[p] * y[j * 3 + i];
              J[(ri[p] * 3 + i) * n + j * 3 + i] += dv[p];
            }
      for (i = 0; i < 3; i++)
        {
          r[i] += (y[i] - y0[i]) / hw[0];
          J[i * n + i] += 1.0 / hw[0];
        }
      for (j = 0; j < n; j++)
        if (fabs (r[j]) > rmax)
          rmax = fabs (r[j]);
      if (rmax < 1e-12 * (1 + 1e3))
        {
          ok = 1;
          break;
        }
      if (vm_dense_lu ((int) n, J, piv, 0.0))
        break;
      vm_dense_lu_solve ((int) n, J, piv, r);
      for (j = 0; j < n; j++)
        y[j] -= r[j];
    }
  free (cp);
  free (ri);
  free (dv);
  free (hw);
  free (J);
  free (r);
  free (piv);
  return ok;
}

/* The weak final dual (VM_DUAL_WEAK_FINAL): derivatives (with DT != 0), the primal equations at
 * every node, the recovered primal = an independent SBP-SAT solve for two different base states,
 * vm_dual_move = a fresh setup, and the final-time order. */
static void
test_weak (void)
{
  vm_ode o;
  vm_dual_ode e;
  vm_dual d;
  double par[3] = { 10, 28, 8.0 / 3 }, c[3] = { 50, 50, 50 }, y0[3] = { 1, 2, 3 };
  double DT[3] = { 0.3, -0.2, 0.1 }, *ybar, fin[3];
  int64_t N = 13, k;
  int st, level, order;
  if (build_ode (&o, 3, lz_st, 3, lz_pa, 3, lz_rhs, 0, NULL, 0) != VM_OK)
    return;
  st = vm_dual_ode_init (&e, &o, par, c);
  ybar = calloc ((size_t) 200 * 3, sizeof *ybar);   /* zero after the first N nodes (N = 16 reads 3) */
  for (k = 0; k < 3 * N; k++)
    ybar[k] = 4 * urand () - 2;
  for (order = 2; order <= 6; order += 4)
    {
      int64_t NN = order == 2 ? 13 : 16;
      st = vm_dual_init (&d, &(vm_dual_problem) { 3, 3, 0, NN, order, c, vm_dual_ode_node, &e },
                         0.0, 0.3, ybar, y0, DT, VM_DUAL_WEAK_FINAL);
      CHECK (st == VM_OK && d.nz == NN * 3, "weak Lorenz init %d, nz %ld", st, (long) d.nz);
      if (st == VM_OK)
        {
          check_derivatives (&d, order == 2 ? "weak Lorenz N=13 order 2" : "weak Lorenz N=16 order 6",
                             0.5);
          vm_dual_free (&d);
        }
    }
  /* the recovered primal is the SBP-SAT solution, whatever the base state */
  {
    int64_t NN = 33, j;
    double *yref = malloc ((size_t) NN * 3 * sizeof *yref), dmax[2] = { 0, 0 }, rmax = 0.0;
    double *res = malloc ((size_t) NN * 3 * sizeof *res);
    int b;
    CHECK (lorenz_sbp_sat (par, y0, NN, 4, 0.1, yref), "independent SBP-SAT solve converged");
    for (b = 0; b < 2; b++)
      {
        double *z;
        vm_newton_info info;
        vm_newton_info_init (&info);
        for (k = 0; k < 3 * NN; k++)
          ybar[k] = b == 0 ? 0.0 : yref[k] + 0.5 * (2 * urand () - 1);
        st = vm_dual_init (&d, &(vm_dual_problem) { 3, 3, 0, NN, 4, c, vm_dual_ode_node, &e }, 0.0,
                           0.1, ybar, y0, NULL, VM_DUAL_WEAK_FINAL);
        z = calloc ((size_t) d.nz, sizeof *z);
        st = vm_dual_solve (&d, z, 1e-13, 30, VM_LINSOLVE_AUTO, &info);
        CHECK (st == VM_OK, "weak Lorenz solve (base %d): %s", b, info.message);
        vm_dual_primal (&d, res, NULL, NULL);
        for (j = 0; j < NN * 3; j++)
          {
            if (fabs (d.y[j] - yref[j]) > dmax[b])
              dmax[b] = fabs (d.y[j] - yref[j]);
            if (fabs (res[j]) > rmax)
              rmax = fabs (res[j]);
          }
        /* vm_dual_move back onto the same interval and base state reproduces the same action */
        if (b == 1)
          {
            double S1, S2, *g1 = malloc ((size_t) d.nz * sizeof *g1), *g2 = malloc ((size_t) d.nz * sizeof *g2),
                   gd = 0.0;
            vm_dual d2;
            vm_dual_eval (&d, z, &S1, g1, NULL);
            st = vm_dual_init (&d2, &(vm_dual_problem) { 3, 3, 0, NN, 4, c, vm_dual_ode_node, &e },
                               5.0, 7.0, NULL, DT, NULL, VM_DUAL_WEAK_FINAL);
            st = st == VM_OK ? vm_dual_move (&d2, 0.0, 0.1, y0, ybar) : st;
            st = st == VM_OK ? vm_dual_eval (&d2, z, &S2, g2, NULL) : st;
            for (j = 0; j < d.nz; j++)
              if (fabs (g1[j] - g2[j]) > gd)
                gd = fabs (g1[j] - g2[j]);
            CHECK (st == VM_OK && fabs (S1 - S2) <= 1e-12 * (1 + fabs (S1)) && gd <= 1e-10,
                   "vm_dual_move = fresh setup: status %d, dS %.3g, dgrad %.3g", st, S1 - S2, gd);
            vm_dual_free (&d2);
            free (g1);
            free (g2);
          }
        printf ("weak Lorenz N=33 (base state %s): %d Newton iterations, |y^H - SBP-SAT| %.2e\n",
                b == 0 ? "0" : "SBP-SAT + 0.5 noise", info.iterations, dmax[b]);
        vm_newton_info_free (&info);
        free (z);
        vm_dual_free (&d);
      }
    /* rounding: |y| ~ 10, Dm ~ 1/h = 320, Newton to 1e-13 relative */
    CHECK (dmax[0] <= 1e-10 && dmax[1] <= 1e-10,
           "weak: recovered primal = independent SBP-SAT solve (%.3g, %.3g)", dmax[0], dmax[1]);
    CHECK (rmax <= 1e-8, "weak: discrete primal equations at every node, the last included: %.3g",
           rmax);
    free (yref);
    free (res);
  }
  /* final-time superconvergence: order 2p = 4 for the order-4 operator (max-norm order 3) */
  for (level = 0; level < 3; level++)
    {
      int64_t NN = 9 << level;
      double yr[3] = { 1, 2, 3 }, *z, err = 0.0;
      vm_newton_info info;
      int i;
      vm_newton_info_init (&info);
      st = vm_dual_init (&d, &(vm_dual_problem) { 3, 3, 0, NN, 4, c, vm_dual_ode_node, &e }, 0.0,
                         0.1, NULL, y0, NULL, VM_DUAL_WEAK_FINAL);
      z = calloc ((size_t) d.nz, sizeof *z);
      st = vm_dual_solve (&d, z, 1e-13, 30, VM_LINSOLVE_AUTO, &info);
      CHECK (st == VM_OK, "weak Lorenz N=%ld: %s", (long) NN, info.message);
      lorenz_rk4 (par, yr, 0.1, 4000);
      for (i = 0; i < 3; i++)
        if (fabs (d.y[(NN - 1) * 3 + i] - yr[i]) > err)
          err = fabs (d.y[(NN - 1) * 3 + i] - yr[i]);
      fin[level] = err;
      printf ("weak Lorenz N=%ld: final-time error %.3e\n", (long) NN, err);
      vm_newton_info_free (&info);
      free (z);
      vm_dual_free (&d);
    }
  {
    double r = log2 (fin[1] / fin[2]);
    printf ("weak Lorenz final-time observed orders %.2f %.2f (expected 4)\n", log2 (fin[0] / fin[1]), r);
    CHECK (r >= 3.7, "weak final-time order %.2f (expected 4)", r);
  }
  /* the nonlinear DAE (nonsquare-capable engine) and Pars: derivatives in the weak mode */
  free (ybar);
  vm_dual_ode_free (&e);
  vm_ode_free (&o);
}

/* vm_dual_ode_algebraic: the pendulum's rod tension from the index-1 equation (closed form
 * T = (m (u^2 + v^2) - m g y) l / (x^2 + y^2), c = 0), the differential states untouched; an
 * index-3 equation (no T in G) is VM_ESINGULAR and leaves y unchanged; a nonsquare system VM_EARG */
static void
test_algebraic (void)
{
  const char *st[] = { "x", "y", "u", "v", "T" };
  const char *rhs[] = { "u", "v", "-T*x", "-g - T*y" };
  const char *alg1[] = { "u^2 + v^2 + x*(-T*x) + y*(-g - T*y)" };
  const char *alg3[] = { "x^2 + y^2 - 1" };
  const char *pa[] = { "g" };
  double par[1] = { 9.81 }, c[5] = { 1, 1, 1, 1, 1 };
  double y[5] = { 0.6, -0.8, 0.3, 0.4, 0 }, y3[5] = { 0.6, -0.8, 0.3, 0.4, 7 };
  double T = (0.25 + 9.81 * 0.8) / 1.0;
  vm_ode o;
  vm_dual_ode e;
  int s;
  if (build_ode (&o, 5, st, 1, pa, 4, rhs, 1, alg1, 0) != VM_OK)
    return;
  s = vm_dual_ode_init (&e, &o, par, c);
  CHECK (s == VM_OK, "algebraic engine %d", s);
  if (s == VM_OK)
    {
      s = vm_dual_ode_algebraic (&e, 0.0, y);
      CHECK (s == VM_OK && fabs (y[4] - T) <= 1e-12 * T, "tension %.16g, expected %.16g (status %d)",
             y[4], T, s);
      CHECK (y[0] == 0.6 && y[1] == -0.8 && y[2] == 0.3 && y[3] == 0.4, "differential states kept");
      vm_dual_ode_free (&e);
    }
  vm_ode_free (&o);
  if (build_ode (&o, 5, st, 1, pa, 4, rhs, 1, alg3, 0) != VM_OK)
    return;
  s = vm_dual_ode_init (&e, &o, par, c);
  if (s == VM_OK)
    {
      s = vm_dual_ode_algebraic (&e, 0.0, y3);
      CHECK (s == VM_ESINGULAR && y3[4] == 7, "index 3: status %d, T %g", s, y3[4]);
      vm_dual_ode_free (&e);
    }
  vm_ode_free (&o);
  CHECK (vm_dual_ode_algebraic (NULL, 0.0, y) == VM_EARG, "NULL engine refused");
}

/* Sum_k w_k P_k' K_k P_k into the dense Hr (nz x nz, row-major), built from vm_dual_index and Dm_s
 * (P_k maps the unknowns to node k's u = (Ddot_d, D_d, D_a)); P: nl nz work.  The K_k from one
 * call of d->fn for all nodes at the inputs of the last vm_dual_eval (d->hess holds one chunk of
 * nodes only); Hr stays zero if that fails */
static void
dense_hessian (const vm_dual *d, double *Hr, double *P)
{
  const int64_t nz = d->nz;
  const int nd = d->nd, ng = d->ng, nl = d->nl;
  int64_t N = d->N, k, p, r, s, g, bad;
  int i, a, b;
  double *Kall = malloc ((size_t) (N * nl * nl) * sizeof *Kall);
  double *gall = malloc ((size_t) (N * nl) * sizeof *gall);
  double *yall = malloc ((size_t) (N * d->ny) * sizeof *yall);
  double *vall = malloc ((size_t) N * sizeof *vall);
  if (! Kall || ! gall || ! yall || ! vall
      || node_call (d->fn, d->ctx, &(vm_dual_points) { N, d->t, d->u, d->ybar, yall, vall, gall,
                    Kall, -1 }, &bad) != VM_OK)
    N = 0;
  for (k = 0; k < N; k++)
    {
      const double *K = Kall + k * nl * nl;
      memset (P, 0, (size_t) (nl * nz) * sizeof *P);
      for (i = 0; i < nd; i++)
        {
          for (p = d->dp[k]; p < d->dp[k + 1]; p++)
            if ((g = vm_dual_index (d, d->dj[p], i)) >= 0)
              P[i * nz + g] += d->dvs[p];
          if ((g = vm_dual_index (d, k, i)) >= 0)
            P[(nd + i) * nz + g] += 1.0;
        }
      for (i = 0; i < ng; i++)
        P[(2 * nd + i) * nz + vm_dual_index (d, k, nd + i)] += 1.0;
      for (a = 0; a < nl; a++)
        for (b = 0; b < nl; b++)
          for (r = 0; r < nz; r++)
            if (P[a * nz + r] != 0.0)
              for (s = 0; s < nz; s++)
                Hr[r * nz + s] += d->hw[k] * P[a * nz + r] * K[a * nl + b] * P[b * nz + s];
    }
  free (Kall);
  free (gall);
  free (yall);
  free (vall);
}

/* The assembled Hessian (node blocks placed by one offset per pair of groups) against the dense
 * sum: every entry to rounding, and no entry of the sum outside the pattern */
static void
assembly_case_n (const char *name, int ny, int nd, int ng, int64_t N, int order, int weak,
                 vm_dual_node_fn fn, void *ctx, double zs)
{
  vm_dual d;
  double c[32], y0[32], *z, *h, *Hr, *P, hmax = 0.0, err = 0.0, out = 0.0;
  int64_t j, p, nz;
  int i, st;
  for (i = 0; i < ny; i++)
    c[i] = 20.0 + i;
  for (i = 0; i < nd; i++)
    y0[i] = 0.1 * i;
  st = vm_dual_init (&d, &(vm_dual_problem) { ny, nd, ng, N, order, c, fn, ctx }, 0.0, 0.5, NULL,
                     y0, NULL, weak ? VM_DUAL_WEAK_FINAL : 0);
  CHECK (st == VM_OK, "%s: init %d", name, st);
  if (st != VM_OK)
    return;
  nz = d.nz;
  z = malloc ((size_t) nz * sizeof *z);
  h = malloc ((size_t) d.nnz * sizeof *h);
  Hr = calloc ((size_t) (nz * nz), sizeof *Hr);
  P = malloc ((size_t) (d.nl * nz) * sizeof *P);
  for (j = 0; j < nz; j++)
    z[j] = zs * (urand () - 0.5);
  st = vm_dual_eval (&d, z, NULL, NULL, h);
  CHECK (st == VM_OK, "%s: eval %d", name, st);
  if (st == VM_OK)
    {
      dense_hessian (&d, Hr, P);
      for (j = 0; j < nz * nz; j++)
        hmax = fmax (hmax, fabs (Hr[j]));
      for (j = 0; j < nz; j++)
        for (p = d.colptr[j]; p < d.colptr[j + 1]; p++)
          {
            err = fmax (err, fabs (h[p] - Hr[d.rowind[p] * nz + j]));
            Hr[d.rowind[p] * nz + j] = 0.0;
          }
      for (j = 0; j < nz * nz; j++)
        out = fmax (out, fabs (Hr[j]));
      CHECK (err <= 1e-13 * hmax && out == 0.0, "%s: assembled Hessian vs the dense sum %.3g, "
             "outside the pattern %.3g (max %.3g)", name, err, out, hmax);
      {
        /* the sum of squares made in the assembly's sweep (Newton's jac_sumsq) */
        double ss = 0.0;
        for (p = 0; p < d.nnz; p++)
          ss += h[p] * h[p];
        CHECK (fabs (d.hess_sumsq - ss) <= 1e-13 * ss, "%s: hess_sumsq %.17g, sum of squares "
               "%.17g", name, d.hess_sumsq, ss);
      }
    }
  free (z);
  free (h);
  free (Hr);
  free (P);
  vm_dual_free (&d);
}

static void
assembly_case (const char *name, int ny, int nd, int ng, int order, int weak, vm_dual_node_fn fn,
               void *ctx, double zs)
{
  assembly_case_n (name, ny, nd, ng, 13, order, weak, fn, ctx, zs);
}

/* A node function for the assembly alone: ctx points to nd, ng; every node's Hessian a
 * symmetric matrix of smooth values of (k, a, b), its point value and gradient 0, y = ybar
 * (ny = nd + ng) */
static int
synthetic_node (void *ctx, vm_dual_points *p)
{
  const int *dims = ctx, nd = dims[0], ng = dims[1], nl = 2 * nd + ng, ny = nd + ng;
  const int64_t npts = p->npts;
  const double *ybar = p->ybar;
  double *y = p->y, *val = p->val, *grad = p->grad, *hess = p->hess;
  int64_t k;
  int a, b;
  for (k = 0; k < npts; k++)
    {
      val[k] = 0.0;
      for (a = 0; a < ny; a++)
        y[k * ny + a] = ybar ? ybar[k * ny + a] : 0.0;
      for (a = 0; a < nl; a++)
        {
          grad[k * nl + a] = 0.0;
          if (hess)
            for (b = 0; b < nl; b++)
              hess[(k * nl + a) * nl + b] = sin (0.7 * k + 1.3 * (a + b) + 0.1 * a * b)
                                            + (a == b ? 3.0 : 0.0);
        }
    }
  return VM_OK;
}

static void
test_assembly (void)
{
  vm_dual_lorenz lz = { 10, 28, 8.0 / 3, 50 };
  double L[9] = { 0.3, -0.2, 0.1, 0.5, 0.4, -0.3, 0.2, 0.1, 0.6 }, b[3] = { 0.2, -0.1, 0.4 };
  vm_dual_pars pars = { 3, L, b, 20, 25, 30, 35 };
  int order, weak;
  for (order = 2; order <= 6; order += 4)
    for (weak = 0; weak < 2; weak++)
      {
        assembly_case (weak ? "assembly, Lorenz, weak" : "assembly, Lorenz, strong", 3, 3, 0,
                       order, weak, vm_dual_lorenz_node, &lz, 20.0);
        assembly_case (weak ? "assembly, Pars, weak" : "assembly, Pars, strong", 10, 6, 2, order,
                       weak, vm_dual_pars_node, &pars, 1.0);
      }
  /* the stacked blocks of the regular nodes (node_run) for nd = 1, 2, 5 and 17 (past its stack
   * arrays: node_direct), and ng = 1 (no regular node) */
  {
    static const int dims[5][2] = { { 1, 0 }, { 2, 0 }, { 5, 0 }, { 17, 0 }, { 2, 1 } };
    char name[80];
    int c;
    for (c = 0; c < 5; c++)
      for (weak = 0; weak < 2; weak++)
        {
          snprintf (name, sizeof name, "assembly, synthetic nd = %d, ng = %d, %s", dims[c][0],
                    dims[c][1], weak ? "weak" : "strong");
          assembly_case (name, dims[c][0] + dims[c][1], dims[c][0], dims[c][1], 4, weak,
                         synthetic_node, (void *) dims[c], 1.0);
        }
  }
  /* the columns zeroed and mirrored in the sweep of the nodes (dual_hessian.c, add_nodes) across chunks
   * of 64 nodes, and with the widest boundary closures (order 8: hess_lag beyond the interior's) */
  for (order = 4; order <= 8; order += 4)
    for (weak = 0; weak < 2; weak++)
      {
        char name[80];
        snprintf (name, sizeof name, "assembly, Lorenz, N = 150, order %d, %s", order,
                  weak ? "weak" : "strong");
        assembly_case_n (name, 3, 3, 0, 150, order, weak, vm_dual_lorenz_node, &lz, 20.0);
        snprintf (name, sizeof name, "assembly, Pars, N = 150, order %d, %s", order,
                  weak ? "weak" : "strong");
        assembly_case_n (name, 10, 6, 2, 150, order, weak, vm_dual_pars_node, &pars, 1.0);
      }
}

static void
test_args (void)
{
  vm_dual d;
  double c[2] = { 1, -1 }, y0[2] = { 0, 0 };
  CHECK (vm_dual_init (&d, &(vm_dual_problem) { 2, 2, 0, 10, 4, c, vm_dual_ode_node, NULL }, 0, 1,
                       NULL, y0, NULL, 0)
         == VM_EARG, "c <= 0 refused");
  c[1] = 1;
  CHECK (vm_dual_init (&d, &(vm_dual_problem) { 2, 2, 0, 3, 4, c, vm_dual_ode_node, NULL }, 0, 1,
                       NULL, y0, NULL, 0)
         != VM_OK, "N too small refused");
  CHECK (vm_dual_init (&d, &(vm_dual_problem) { 2, 3, 0, 10, 4, c, vm_dual_ode_node, NULL }, 0, 1,
                       NULL, y0, NULL, 0)
         == VM_EARG, "nd > ny refused");
  CHECK (vm_dual_init (&d, &(vm_dual_problem) { 2, 2, 0, 10, 4, c, vm_dual_ode_node, NULL }, 0, 1,
                       NULL, y0, NULL, 4)
         == VM_EARG, "unknown flags refused");
}

/* vm_dual_memory_estimate: the band's model (grows with the order) for BANDED and for AUTO while
 * u <= 12, UMFPACK's fit for UMFPACK, the larger for AUTO beyond, linear in N, 0 for an unknown
 * backend. */
static void
test_memory_estimate (void)
{
  const int64_t N = 65536;
  double a4 = vm_dual_memory_estimate (3, 0, N, 4, VM_LINSOLVE_AUTO);
  double a8 = vm_dual_memory_estimate (3, 0, N, 8, VM_LINSOLVE_AUTO);
  double b4 = vm_dual_memory_estimate (3, 0, N, 4, VM_LINSOLVE_BANDED);
  double u4 = vm_dual_memory_estimate (3, 0, N, 4, VM_LINSOLVE_UMFPACK);
  double a13 = vm_dual_memory_estimate (13, 0, N, 4, VM_LINSOLVE_AUTO);
  CHECK (a4 == b4 && a8 > 1.5 * a4 && u4 > a4, "u = 3: auto %.0f (order 8: %.0f), banded %.0f, umfpack %.0f",
         a4, a8, b4, u4);
  CHECK (a13 == fmax (vm_dual_memory_estimate (13, 0, N, 4, VM_LINSOLVE_UMFPACK),
                      vm_dual_memory_estimate (13, 0, N, 4, VM_LINSOLVE_BANDED)), "u = 13: the larger");
  CHECK (vm_dual_memory_estimate (2, 1, 2 * N, 4, VM_LINSOLVE_AUTO) == 2 * a4, "linear in N");
  CHECK (vm_dual_memory_estimate (3, 0, N, 4, 9) == 0.0, "unknown backend: 0");
}

/* The node Hessians are made and assembled 64 nodes at a time (dual_hessian.c): N = 150,
 * chunks of 64, 64 and 22 nodes, against differences for the compiled engine with an algebraic
 * equation (blocks by add_node) and for the closed-form Lorenz (node_run); a DtP failure in the
 * third chunk is reported at its node by the Hessian's evaluation as by the gradient's, which
 * evaluates every node in one call. */
static void
test_chunks (void)
{
  const char *st[] = { "a", "b", "w" }, *pa[] = { "k" };
  const char *rhs[] = { "-k*a^3 + sin(b)", "a*w - b" }, *alg[] = { "w - exp(-a^2)" };
  vm_ode o;
  vm_dual_ode e;
  vm_dual d;
  vm_dual_lorenz L = { 10, 28, 8.0 / 3, 50 };
  double par[1] = { 0.7 }, c[3] = { 8, 8, 8 }, cl[3] = { 50, 50, 50 }, y0[2] = { 0.5, -0.2 };
  double y0l[3] = { 1, 1, 1 }, *ybar, *z, *hv;
  const int64_t N = 150, kbad = 140;
  int64_t k;
  int s, sh, sg;
  ybar = malloc ((size_t) N * 3 * sizeof *ybar);
  for (k = 0; k < 3 * N; k++)
    ybar[k] = urand () - 0.5;
  if (build_ode (&o, 3, st, 1, pa, 2, rhs, 1, alg, 0) == VM_OK)
    {
      s = vm_dual_ode_init (&e, &o, par, c);
      if (s == VM_OK)
        s = vm_dual_init (&d, &(vm_dual_problem) { 3, 2, 1, N, 4, c, vm_dual_ode_node, &e }, 0.0,
                          1.0, ybar, y0, NULL, 0);
      CHECK (s == VM_OK, "chunks: DAE init %d", s);
      if (s == VM_OK)
        {
          check_derivatives (&d, "nonlinear DAE N=150 order 4 (3 chunks)", 0.02);
          vm_dual_free (&d);
        }
      vm_dual_ode_free (&e);
      vm_ode_free (&o);
    }
  for (k = 0; k < 3 * N; k++)
    ybar[k] = 20 * urand () - 10;
  s = vm_dual_init (&d, &(vm_dual_problem) { 3, 3, 0, N, 4, cl, vm_dual_lorenz_node, &L }, 0.0, 1.0,
                    ybar, y0l, NULL, 0);
  CHECK (s == VM_OK, "chunks: Lorenz init %d", s);
  if (s != VM_OK)
    {
      free (ybar);
      return;
    }
  check_derivatives (&d, "closed-form Lorenz N=150 order 4 (3 chunks)", 10.0);
  z = malloc ((size_t) d.nz * sizeof *z);
  hv = malloc ((size_t) d.nnz * sizeof *hv);
  for (k = 0; k < d.nz; k++)
    z[k] = 10 * (2 * urand () - 1);
  /* gamma^2 + mu^2 = c^2 at node kbad: its DtP matrix is singular */
  z[kbad * 3 + 1] = 50 * sin (0.7);
  z[kbad * 3 + 2] = 50 * cos (0.7);
  sh = vm_dual_eval (&d, z, NULL, NULL, hv);
  k = d.bad;
  sg = vm_dual_eval (&d, z, NULL, NULL, NULL);
  CHECK (sh == VM_EDTP && k == kbad && sg == VM_EDTP && d.bad == kbad,
         "chunks: singular node %ld: with the Hessian status %d at node %ld, gradient only status "
         "%d at node %ld", (long) kbad, sh, (long) k, sg, (long) d.bad);
  free (z);
  free (hv);
  free (ybar);
  vm_dual_free (&d);
}

int
main (void)
{
  srand (7);
  test_memory_estimate ();
  test_args ();
  test_assembly ();
  test_lorenz ();
  test_nonlinear ();
  test_pars ();
  test_weak ();
  test_algebraic ();
  test_chunks ();
  return vmtest_finish ("test_dual");
}
