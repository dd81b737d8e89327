/* dual_solve.c -- Newton's method on grad S = 0 for the discrete dual action (dual.h).
 *
 * Takes a set-up vm_dual and a guess z; runs vm_newton_solve (newton.h) with grad S as the
 * residual, the Hessian of S as its Jacobian, residual weights 1 / H_kk and a scale from the base
 * state; returns the best iterate in z and leaves the struct's state there.  Errors: Newton's
 * codes, VM_EDTP, VM_ENOMEM.  Cost: per iteration one Hessian (dual_hessian.c) and one sparse
 * factorization.  Why the residuals are weighted by 1 / H_kk: the weighted residuals are the
 * discrete primal equations, whose size does not depend on N.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/vm_scratch.h"
#include "base/vm_status.h"
#include "dual/dual_impl.h"

/* F = grad S and J = its Hessian, with Newton's residual weights rw = 1 / H_kk of the unknown's
 * node (vm_newton_opts.res_weight): the norms are those of the row-scaled equations, the discrete
 * primal residuals (dual.h), whose Newton steps are the same.  Why weights and not scaled rows: J
 * stays symmetric for the Cholesky factorization (option definite) and needs no scaling pass. */
typedef struct {
  vm_dual *d;
  double *rw;     /* nz: 1 / H_kk of the unknown's node */
  double *g;
  double ss;      /* Newton's jac_sumsq: the Hessian's sum of squares, made in its sweep */
} solve_ctx;

static int
solve_F (const double *z, double *F, void *vctx)
{
  solve_ctx *c = vctx;
  int st = vm_dual_eval (c->d, z, NULL, F, NULL);
  return st != VM_OK ? -1000 - st : 0;
}

static int
solve_J (const double *z, double *Jx, void *vctx)
{
  solve_ctx *c = vctx;
  int st = vm_dual_eval (c->d, z, NULL, NULL, Jx);   /* the gradient: solve_F's */
  c->ss = c->d->hess_sumsq;
  return st != VM_OK ? -1000 - st : 0;
}

void
vm_dual_solve_opts_init (vm_dual_solve_opts *o)
{
  o->tol = 1e-11;
  o->max_iter = 50;
  o->linsolve = VM_LINSOLVE_AUTO;
  o->sym = NULL;
  o->on_iter = NULL;
  o->on_iter_ctx = NULL;
}

int
vm_dual_solve (vm_dual *d, double *z, double tol, int max_iter, int linsolve,
               vm_newton_info *info)
{
  vm_dual_solve_opts o;
  vm_dual_solve_opts_init (&o);
  o.tol = tol;
  o.max_iter = max_iter;
  o.linsolve = linsolve;
  return vm_dual_solve_ex (d, z, &o, info);
}

/* rw[j] = 1 / H_kk of unknown j's node k */
static void
row_weights (const vm_dual *d, double *rw)
{
  int64_t k, j;
  int i;
  for (k = 0; k < d->N; k++)
    for (i = 0; i < d->m; i++)
      if ((j = dual_index (d, k, i)) >= 0)
        rw[j] = 1.0 / d->hw[k];
}

/* the larger of the RMS of F (in g0, the gradient at D = 0) and of Dm ybar_d */
static double
base_rms (const vm_dual *d, const double *g0)
{
  const int64_t N = d->N;
  double sf = 0.0, sd = 0.0;
  int64_t k, p;
  int i;
  for (k = 0; k < N; k++)
    for (i = 0; i < d->nd; i++)
      {
        double f = g0[k * d->nl + d->nd + i], dy = 0.0;
        for (p = d->dp[k]; p < d->dp[k + 1]; p++)
          dy += d->dv[p] * d->ybar[d->dj[p] * d->ny + i];
        sf += f * f;
        sd += dy * dy;
      }
  sf = sqrt (sf / (double) (N * d->nd));
  sd = sqrt (sd / (double) (N * d->nd));
  return sf > sd ? sf : sd;
}

/* the scale of the equations, from the problem and not from the guess: the RMS of F and of
 * Dm ybar_d at the base state (the DtP map at D = 0 is ybar); 0 when the base state is outside
 * the domain (or out of memory): the absolute test */
static double
base_scale (const vm_dual *d)
{
  int64_t N = d->N;
  double *u0 = vm_scratch_alloc ((size_t) N * d->nl * sizeof *u0);
  double *y0 = vm_scratch_alloc ((size_t) N * d->ny * sizeof *y0);
  double *v0 = vm_scratch_alloc ((size_t) N * sizeof *v0);
  double *g0 = vm_scratch_alloc ((size_t) N * d->nl * sizeof *g0);
  double r0 = 0.0;
  int st;
  if (! u0 || ! y0 || ! v0 || ! g0)
    st = VM_ENOMEM;
  else
    {
      memset (u0, 0, (size_t) N * d->nl * sizeof *u0);
      memcpy (y0, d->ybar, (size_t) N * d->ny * sizeof *y0);
      vm_dual_points pts = { N, d->t, u0, d->ybar, y0, v0, g0, NULL, -1 };
      st = d->fn (d->ctx, &pts);
    }
  if (st == VM_OK)
    r0 = base_rms (d, g0);
  vm_scratch_free (u0);
  vm_scratch_free (y0);
  vm_scratch_free (v0);
  vm_scratch_free (g0);
  return st != VM_OK ? 0.0 : r0;
}

/* the rounding level of the equations, about eps |y| / h (Dm has entries 1/h), relative to tol:
 * the test must be reachable on fine grids */
static double
rounding_floor (const vm_dual *d, double tol)
{
  double ymax = 0.0;
  int64_t q;
  int i;
  for (i = 0; i < d->nd; i++)
    if (fabs (d->y0[i]) > ymax)
      ymax = fabs (d->y0[i]);
  for (q = 0; q < d->N * d->ny; q++)
    if (fabs (d->ybar[q]) > ymax)
      ymax = fabs (d->ybar[q]);
  return (tol > 0.0) ? 10.0 * DBL_EPSILON * ymax / (d->op.h * tol) : 0.0;
}

/* Newton's chord steps (newton.h 2') in vm_dual_solve_ex: at most this many per factorization.
 * Why 4: of 2 to 5 it saved the most time on the dual Lorenz (bench/bench_dual.m, figures in
 * bench/README_dual.md) without changing the errors; the adaptive march (its own Newton) and
 * slabs of 1-2 iterations do not reach a chord step. */
#define VM_DUAL_REUSE 4

int
vm_dual_solve_ex (vm_dual *d, double *z, const vm_dual_solve_opts *so, vm_newton_info *info)
{
  solve_ctx c;
  vm_newton_opts o;
  vm_dual_solve_opts def;
  int st;
  double r0, fl, tol;
  if (! so)
    {
      vm_dual_solve_opts_init (&def);
      so = &def;
    }
  tol = so->tol;
  c.d = d;
  c.rw = vm_scratch_alloc ((size_t) d->nz * sizeof *c.rw);
  c.g = vm_scratch_alloc ((size_t) d->nz * sizeof *c.g);
  if (! c.rw || ! c.g)
    {
      vm_scratch_free (c.rw);
      vm_scratch_free (c.g);
      return VM_ENOMEM;
    }
  row_weights (d, c.rw);
  /* the scale of the equations, and never below their rounding level */
  r0 = base_scale (d);
  fl = rounding_floor (d, tol);
  if (fl > r0)
    r0 = fl;
  vm_newton_opts_init (&o);
  o.tol_res = tol;
  o.res_scale = sqrt ((double) d->nz) * (r0 > 1.0 ? r0 : 1.0);
  o.max_iter = so->max_iter;
  o.linsolve = so->linsolve;
  o.symbolic = so->sym;
  o.on_iter = so->on_iter;
  o.on_iter_ctx = so->on_iter_ctx;
  o.tol_round = 1.0;        /* the rounding-level test, which chord steps need (newton.h 2') */
  o.reuse = VM_DUAL_REUSE;
  o.res_weight = c.rw;
  o.definite = -1;          /* S is concave where the DtP matrices are definite (dual.h) */
  o.jac_sumsq = &c.ss;
  st = vm_newton_solve ((int) d->nz, d->colptr, d->rowind, solve_F, solve_J, &c, z, &o, info);
  if (st <= -1000)
    st = -st - 1000;
  /* leave the struct's state at the returned iterate */
  if (vm_dual_eval (d, z, NULL, c.g, NULL) != VM_OK && st == VM_OK)
    st = VM_EDTP;
  vm_scratch_free (c.rw);
  vm_scratch_free (c.g);
  return st;
}

void
vm_dual_solve_message (char *msg, size_t n, int st, const vm_dual *d, const vm_newton_info *info)
{
  if (st == VM_EDTP)
    snprintf (msg, n, "%s at t = %g (node %ld)", vm_status_string (st),
              d->bad >= 0 ? d->t[d->bad] : d->t0, (long) d->bad + 1);
  else if (st == VM_OK)
    snprintf (msg, n, "%s", info->message[0] ? info->message : "converged");
  else
    snprintf (msg, n, "%s%s", info->message[0] ? info->message : vm_status_string (st),
              /* what to change: the duals grow with the slab's length and the base state's
               * distance from the solution (doc/dual.md), and Newton fails once they do */
              st == VM_ENEWTON_MAXIT || st == VM_ENEWTON_STALL
              ? "; use more slabs or a base state closer to the solution" : "");
}
