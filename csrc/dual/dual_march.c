/* dual_march.c -- the discrete dual action as a window of the marching driver (see dual_march.h). */
#include "dual/dual_march.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vm_status.h"

/* ---- Newton's callbacks: the gradient and the Hessian of S --------------------------------- */

/* With automatic weights the main and the companion action share one engine whose weights of H
 * each sets for its own window: every evaluation first gives the engine this action's. */
static void
own_weights (vm_dual_march *a)
{
  if (a->set_weights)
    a->set_weights (a->weights_ctx, a->d.c);
}

static int
dm_F (const double *x, double *F, void *self)
{
  vm_dual_march *a = self;
  int64_t j;
  own_weights (a);
  if (vm_dual_eval (&a->d, x, NULL, F, NULL) != VM_OK)
    for (j = 0; j < a->d.nz; j++)   /* a DtP failure: a point Newton must not accept */
      F[j] = NAN;
  return 0;
}

static int
dm_J (const double *x, double *Jx, void *self)
{
  vm_dual_march *a = self;
  int64_t p;
  own_weights (a);
  if (vm_dual_eval (&a->d, x, NULL, a->g, Jx) != VM_OK)
    for (p = 0; p < a->d.nnz; p++)
      Jx[p] = NAN;
  return 0;
}

/* ---- the window interface ------------------------------------------------------------------ */

static int
dm_move (void *self, double ta, double tb, const double *xa)
{
  vm_dual_march *a = self;
  int st = vm_dual_move (&a->d, ta, tb, xa, NULL);
  a->act.t = a->d.t;
  return st;
}

static void
set_base (vm_dual_march *a, const double *ybar, double *x)
{
  memcpy (a->d.ybar, ybar, (size_t) a->d.N * a->d.ny * sizeof *ybar);
  a->d.have_y = 0;
  memset (x, 0, (size_t) a->d.nz * sizeof *x);
}

/* Is the RK4 step from y (stages k1, k2, k3) outside RK4's stability region?  The stages
 * estimate the size of the Jacobian along the step: k3 - k2 = F(y + h/2 k2) - F(y + h/2 k1)
 * ~ J h/2 (k2 - k1), so rho = |k3 - k2| / (h/2 |k2 - k1|) is a lower estimate of the spectral
 * radius of J (the power method's first step, as in Shampine's stiffness detection), in the norm
 * weighted by the states' tolerances.  RK4 is stable on the negative real axis for h |lambda| <=
 * 2.78 and on the imaginary axis to 2.83; beyond h rho = 2.5 a step amplifies the stiff
 * components by |R(h lambda)| > 1, about (h lambda)^4 / 24 for large h lambda, per node
 * interval.  Why the test: a prediction that grows this way, even while it stays finite, starts
 * Newton far from the solution (doc/dual.md, "Stiff systems").  A difference |k2 - k1| at the
 * rounding level of k1 says nothing: no test then. */
static int
rk4_unstable (const vm_dual_march *a, const double *y, const double *k1, const double *k2,
              const double *k3)
{
  int i;
  double num = 0.0, den = 0.0, ref = 0.0;
  for (i = 0; i < a->d.nd; i++)
    {
      double w = 1.0 / (a->atol + a->rtol * fabs (y[i])), d1 = (k2[i] - k1[i]) * w,
             d2 = (k3[i] - k2[i]) * w;
      num += d2 * d2;
      den += d1 * d1;
      ref += k1[i] * w * k1[i] * w;
    }
  if (! (den > 1e-24 * ref))
    return 0;
  return num > 1.5625 * den;   /* h rho = 2 |k3 - k2| / |k2 - k1| > 2.5 */
}

static int
dm_predict (void *self, const double *xa, const double *pt, const double *ptraj, int64_t pn,
            int64_t ldp, double *x)
{
  vm_dual_march *a = self;
  int ny = a->d.ny, nd = a->d.nd, i, s, ok = 1;
  int64_t N = a->d.N, k;
  double *yb = a->ybar, *k1 = a->stage, *k2 = k1 + ny, *k3 = k2 + ny, *k4 = k3 + ny,
         *w = k4 + ny;
  (void) pt;
  if (pn > 0 && ptraj)   /* the algebraic states at the previous window's last node */
    for (i = nd; i < ny; i++)
      a->ya[i] = ptraj[(pn - 1) + ldp * i];
  for (i = 0; i < nd; i++)
    a->ya[i] = xa[i];
  memcpy (yb, a->ya, (size_t) ny * sizeof *yb);
  if (a->alg && a->rhs   /* consistent algebraic states at the first node (held on failure) */
      && a->alg (a->alg_ctx, a->d.t[0], yb) == VM_OK)
    memcpy (a->ya, yb, (size_t) ny * sizeof *yb);
  /* one classical RK4 step per node interval, the algebraic states held, or solved from G = 0 at
   * every stage and node (alg) */
  for (k = 0; k + 1 < N && a->rhs && ok; k++)
    {
      const double *y = yb + k * ny;
      double t = a->d.t[k], h = a->d.t[k + 1] - a->d.t[k], ts;
      double *kk[4];
      kk[0] = k1;
      kk[1] = k2;
      kk[2] = k3;
      kk[3] = k4;
      for (s = 0; s < 4 && ok; s++)
        {
          double c = s == 0 ? 0.0 : s == 3 ? 1.0 : 0.5;
          memcpy (w, y, (size_t) ny * sizeof *w);
          if (s > 0)
            for (i = 0; i < nd; i++)
              w[i] = y[i] + c * h * kk[s - 1][i];
          ts = t + c * h;
          if (a->alg && s > 0)
            a->alg (a->alg_ctx, ts, w);
          if (a->rhs (a->rhs_ctx, 1, &ts, w, kk[s]) != VM_OK)
            ok = 0;
        }
      if (! ok)
        break;
      if (rk4_unstable (a, y, k1, k2, k3))
        {
          /* the rest of the window held at y (a constant is stable for any h; Newton corrects
           * the slow drift it misses in a few iterations) */
          for (k = k + 1; k < N; k++)
            memcpy (yb + k * ny, y, (size_t) ny * sizeof *yb);
          a->npredict_stiff++;
          break;
        }
      memcpy (yb + (k + 1) * ny, y, (size_t) ny * sizeof *yb);
      for (i = 0; i < nd; i++)
        {
          double v = y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
          if (! isfinite (v))
            ok = 0;
          yb[(k + 1) * ny + i] = v;
        }
      if (ok && a->alg)
        a->alg (a->alg_ctx, a->d.t[k + 1], yb + (k + 1) * ny);
    }
  if (! a->rhs || ! ok)
    {
      if (a->rhs)
        a->npredict_fallback++;
      for (k = 0; k < N; k++)
        memcpy (yb + k * ny, a->ya, (size_t) ny * sizeof *yb);
    }
  set_base (a, yb, x);
  return VM_OK;
}

static int
dm_from_traj (void *self, const double *traj, int64_t ld, double *x)
{
  vm_dual_march *a = self;
  int ny = a->d.ny, i;
  int64_t N = a->d.N, k;
  for (k = 0; k < N; k++)
    for (i = 0; i < ny; i++)
      a->ybar[k * ny + i] = traj[k + ld * i];
  set_base (a, a->ybar, x);
  return VM_OK;
}

/* The automatic weights of H for the window (vm_dual_march_set_auto_weights): c_i = c0 / X_i^2,
 * X_i = max |y_i| over the base state (and y0) + atol / rtol, 1 where that is 0. */
static int
auto_weights (vm_dual_march *a)
{
  vm_dual *d = &a->d;
  double fl = a->rtol > 0.0 ? a->atol / a->rtol : 0.0;
  int64_t k;
  int i;
  for (i = 0; i < d->ny; i++)
    {
      double X = i < d->nd ? fabs (d->y0[i]) : 0.0;
      for (k = 0; k < d->N; k++)
        if (fabs (d->ybar[k * d->ny + i]) > X)
          X = fabs (d->ybar[k * d->ny + i]);
      X += fl;
      if (! (X > 0.0) || ! isfinite (X))
        X = 1.0;
      d->c[i] = a->auto_c / (X * X);
      if (! (d->c[i] > 0.0) || ! isfinite (d->c[i]))   /* X beyond 1e154 or below 1e-154 */
        d->c[i] = a->auto_c;
    }
  return a->set_weights (a->weights_ctx, d->c);
}

static int
dm_newton_setup (void *self, const double *x, vm_newton_opts *o)
{
  vm_dual_march *a = self;
  vm_dual *d = &a->d;
  double L = d->tf - d->t0, tau = INFINITY, ymax = 0.0, fl, *ti = a->tols, *mi = a->tols + d->nd;
  int64_t k, j;
  int i;
  (void) x;
  /* tau_i = AbsTol + RelTol max |y_i| over the window: the error controller's tolerance of state
   * i.  Its equations are weighted tau / tau_i (tau the smallest), so that each state's
   * residual is measured against its own tolerance.  Why: with one weight for all, the equations
   * of a state in large units must reach the tolerance of the smallest, below their rounding
   * level, and Newton fails in windows that the error estimate would accept (doc/dual.md,
   * "Units") */
  for (i = 0; i < d->nd; i++)
    {
      double m = fabs (d->y0[i]);
      for (k = 0; k < d->N; k++)
        if (fabs (d->ybar[k * d->ny + i]) > m)
          m = fabs (d->ybar[k * d->ny + i]);
      mi[i] = m;
      ti[i] = a->atol + a->rtol * m;
      if (ti[i] < tau)
        tau = ti[i];
    }
  for (i = 0; i < d->nd; i++)
    if (mi[i] * tau / ti[i] > ymax)
      ymax = mi[i] * tau / ti[i];
  for (k = 0; k < d->N; k++)
    for (i = 0; i < d->m; i++)
      if ((j = vm_dual_index (d, k, i)) >= 0)
        a->rw[j] = (i < d->nd ? tau / ti[i] : 1.0) / sqrt (d->hw[k] * L);
  if (a->set_weights)
    {
      int st = auto_weights (a);
      if (st != VM_OK)
        return st;
    }
  o->res_weight = a->rw;
  o->definite = -1;   /* J is the Hessian of S, concave where the DtP matrices are definite */
  o->nonmonotone = VM_DUAL_MARCH_NONMONOTONE;
  o->res_scale = tau / L;
  fl = o->tol_res > 0.0 ? 10.0 * DBL_EPSILON * ymax / (d->op.h * o->tol_res) : 0.0;
  if (fl > o->res_scale)
    o->res_scale = fl;
  return VM_OK;
}

static int
dm_extract (void *self, const double *x, double *traj, int64_t ld, double *xend)
{
  vm_dual_march *a = self;
  vm_dual *d = &a->d;
  int ny = d->ny, m = d->m, i;
  int64_t N = d->N, k;
  own_weights (a);
  if (vm_dual_eval (d, x, NULL, NULL, NULL) != VM_OK)
    {
      for (k = 0; k < N; k++)
        for (i = 0; i < ny + m; i++)
          traj[k + ld * i] = NAN;
      for (i = 0; i < d->nd; i++)
        xend[i] = NAN;
      return VM_OK;
    }
  for (k = 0; k < N; k++)
    {
      for (i = 0; i < ny; i++)
        traj[k + ld * i] = d->y[k * ny + i];
      for (i = 0; i < m; i++)
        traj[k + ld * (ny + i)] = d->Dfull[k * m + i];
    }
  for (i = 0; i < d->nd; i++)
    xend[i] = d->y[(N - 1) * ny + i];
  return VM_OK;
}

/* ---- setup ------------------------------------------------------------------------------------- */

int
vm_dual_march_init (vm_dual_march *a, const vm_dual_problem *p, vm_dual_rhs_fn rhs, void *rhs_ctx,
                    double rtol, double atol)
{
  int st, ny, nd, order;
  int64_t N;
  double *y0;
  if (! a)
    return VM_EARG;
  memset (a, 0, sizeof *a);
  if (! p)
    return VM_EARG;
  ny = p->ny;
  nd = p->nd;
  N = p->N;
  order = p->order;
  if (! (rtol >= 0.0) || ! (atol > 0.0) || ! isfinite (rtol) || ! isfinite (atol) || nd < 1
      || ny < nd)
    return VM_EARG;
  y0 = calloc ((size_t) nd, sizeof *y0);
  if (! y0)
    return VM_ENOMEM;
  st = vm_dual_init (&a->d, p, 0.0, 1.0, NULL, y0, NULL, VM_DUAL_WEAK_FINAL);
  free (y0);
  if (st != VM_OK)
    {
      memset (a, 0, sizeof *a);
      return st;
    }
  a->rhs = rhs;
  a->rhs_ctx = rhs_ctx;
  a->rtol = rtol;
  a->atol = atol;
  a->rw = malloc ((size_t) a->d.nz * sizeof *a->rw);
  a->g = malloc ((size_t) a->d.nz * sizeof *a->g);
  a->ya = calloc ((size_t) ny, sizeof *a->ya);
  a->ybar = malloc ((size_t) N * ny * sizeof *a->ybar);
  a->stage = malloc ((size_t) 5 * ny * sizeof *a->stage);
  a->tols = malloc ((size_t) 2 * nd * sizeof *a->tols);
  if (! a->rw || ! a->g || ! a->ya || ! a->ybar || ! a->stage || ! a->tols)
    {
      vm_dual_march_free (a);
      return VM_ENOMEM;
    }
  a->act.self = a;
  a->act.nstate = nd;
  a->act.nout = ny + a->d.m;
  a->act.nerr = nd;
  a->act.order = order;
  a->act.N = N;
  a->act.n = a->d.nz;
  a->act.colptr = a->d.colptr;
  a->act.rowind = a->d.rowind;
  a->act.t = a->d.t;
  a->act.F = dm_F;
  a->act.J = dm_J;
  a->act.move = dm_move;
  a->act.predict = dm_predict;
  a->act.from_traj = dm_from_traj;
  a->act.newton_setup = dm_newton_setup;
  a->act.extract = dm_extract;
  return VM_OK;
}

void
vm_dual_march_set_algebraic_solver (vm_dual_march *a, vm_dual_alg_fn alg, void *alg_ctx)
{
  a->alg = alg;
  a->alg_ctx = alg_ctx;
}

void
vm_dual_march_set_auto_weights (vm_dual_march *a, double c0, vm_dual_weights_fn fn, void *ctx)
{
  a->auto_c = c0;
  a->set_weights = c0 > 0.0 && isfinite (c0) ? fn : NULL;
  a->weights_ctx = ctx;
}

void
vm_dual_march_free (vm_dual_march *a)
{
  if (! a)
    return;
  vm_dual_free (&a->d);
  free (a->rw);
  free (a->tols);
  free (a->g);
  free (a->ya);
  free (a->ybar);
  free (a->stage);
  memset (a, 0, sizeof *a);
}
