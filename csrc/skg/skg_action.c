/* skg_action.c -- one order of the SKG action as a vm_march_action (march.h): the window's
 * units and residual weights, its move, the prediction of Newton's start, the extraction of the
 * trajectory (projected onto holonomic constraints), the contact check.
 *
 * Errors: those of the action's build and evaluation, VM_ENOMEM; a failed projection is not an
 * error (the error estimate judges it).  Cost: one build of the action per order (tapes, pattern,
 * plan), then O(N) per window besides Newton.  Why one action moved from window to window: the
 * tapes, the pattern and the symbolic factorization are shared by all windows. */
#include "skg/skg_solve_impl.h"
#include "sbp/sbp.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- one window ------------------------------------------------------------------------------- */

/* Residual weight of equation i (full numbering; doc/skg.md, "Stopping").  Equation i of node k is
 * a quadrature sum: H_kk times the residual r of the discrete (SBP-SAT) equation of motion or
 * constraint at node k, so it gets rw[c] / sqrt(H_kk) (c its component in the node, rw the unit of
 * that kind of equation: act_scales) and sum_i (w_i F_i)^2 = sum_k H_kk (rw r_k)^2, the
 * L2(t0, tf) norm of r, which does not change with N for the same continuous residual.  With
 * momentum != 0, the q equations of node 0 also hold the momentum condition p+_0 - p_i (the SAT,
 * not multiplied by H_00), which this norm counts as a force of size (p+_0 - p_i) / H_00;
 * scale_weight counts it as a momentum, with 1/sqrt(tf - t0), for the scale of the relative test
 * (the default guess has a momentum jump at t0 whose ||.||_W grows like sqrt(N)). */
static double
eq_weight (const vm_skg *s, int64_t i, int momentum, const double *rw)
{
  int64_t k = i / s->nb;
  int c = (int) (i % s->nb);
  const double q = rw[c];
  if (momentum && k == 0 && c < 2 * s->n)
    return q / sqrt (s->tf - s->t0);
  return q / sqrt (s->hw[k]);
}

/* The size of the window's initial state, ell = max_c max(|q_i,c|, tau |v_i,c|) (tau = tf - t0):
 * the length in which Newton's tests are absolute (0 when the state is zero or not finite). */
static double
state_size (const vm_skg *s)
{
  const double tau = s->tf - s->t0;
  double ell = 0.0;
  int c;
  for (c = 0; c < s->n; c++)
    ell = fmax (ell, fmax (fabs (s->qi[c]), tau * fabs (s->vi[c])));
  return ell <= DBL_MAX ? ell : 0.0;
}

/* The floor of the relative residual test's scale: min(1, ell / tau^(3/2)) (ell = state_size).
 * ell / tau^(3/2) is the L2 norm over the window of the acceleration ell / tau^2 that moves a
 * position by ell in the window: with it alone Newton's absolute target tol ell / tau^(3/2) would
 * be a displacement of about tol ell whatever the units of length and time; an absolute 1 is a
 * displacement of tau^2, loose for long windows but the stricter one for windows shorter than
 * ell^(2/3), where tol ell alone falls short of tight tolerances over many windows.  Why the
 * smaller of the two: each is too loose in one of the regimes.  1 when ell = 0. */
static double
res_floor (const vm_skg *s)
{
  const double tau = s->tf - s->t0;
  double f = state_size (s) / (tau * sqrt (tau));
  return f > 0.0 && f < 1.0 ? f : 1.0;
}

/* F = F(x0), and max(res_floor, ||F(x0)||) with the momentum-aware weights: the scale of the
 * relative residual test.  F is left unweighted, for Newton (vm_newton_opts.F0). */
static int
res_scale0 (skg_ctx *c, int reduced, const double *x, double *F, int64_t n, const double *rw,
            double *scale)
{
  int64_t i;
  double amax = 0.0, sum = 0.0;
  int st = reduced ? skg_red_F (x, F, c) : skg_full_F (x, F, c);
  if (st != VM_OK)
    return st;
  for (i = 0; i < n; i++)
    amax = fmax (amax, fabs (F[i] * eq_weight (c->s, reduced ? c->minus[i] : i, 1, rw)));
  if (amax > 0.0 && isfinite (amax))
    for (i = 0; i < n; i++)
      {
        double fw = F[i] * eq_weight (c->s, reduced ? c->minus[i] : i, 1, rw) / amax;
        sum += fw * fw;
      }
  *scale = fmax (res_floor (c->s), amax * sqrt (sum));
  if (! isfinite (*scale))
    *scale = res_floor (c->s);   /* Newton reports the non-finite residual itself */
  return VM_OK;
}

/* ---- the SKG action as a vm_march_action ------------------------------------------------------- */

/* Residual of the projection onto holonomic constraints (position and velocity level): 0, i.e. to
 * its rounding stop (vm_motion_project).  Why: an absolute tolerance has the constraint's units,
 * too loose for a small system (doc/skg.md, "Units"). */
#define VM_SKG_PROJECT_TOL 0.0

static int
act_F (const double *x, double *F, void *self)
{
  skg_act *A = self;
  return A->mode == VM_SKG_REDUCED ? skg_red_F (x, F, &A->c) : skg_full_F (x, F, &A->c);
}

static int
act_J (const double *x, double *Jx, void *self)
{
  skg_act *A = self;
  return A->mode == VM_SKG_REDUCED ? skg_red_J (x, Jx, &A->c) : skg_full_J (x, Jx, &A->c);
}

/* The units of the window's unknowns and equations (doc/skg.md, "Units"), from the window's length
 * tau = tf - t0, the mass scale and the constraints' scales gscale_a (A->gscale; 1 without them):
 * the positions are solved for as they are, the multipliers (lambda+-) of constraint a as
 * lambda / xs_a with xs_a = mscale / (gscale_a tau^2), the displacement over the window that its
 * force would cause, a length like the positions; the equations of motion are weighted per unit
 * mass (1 / mscale), constraint a's equations by 1 / (gscale_a tau^p), p = 2 for a holonomic one
 * (g, a position) and 1 for the others (a velocity), so that every residual is an acceleration.
 * Then the unknowns, Newton's tests and the columns of J have the same size whatever the units of
 * mass, length, time and the constraints.  Why: otherwise the multiplier columns can be many
 * orders of magnitude from the positions' (Levenberg-Marquardt steps, a wrong motion, or an LU
 * that looks singular). */
static void
act_scales (skg_act *A)
{
  const vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  const int n = sp->n, m = sp->m;
  const double tau = sp->tf - sp->t0;
  double *xc = A->rw + sp->nb;          /* the unknowns' scale per component */
  int c;
  int64_t i;
  for (c = 0; c < 2 * n; c++)
    {
      A->rw[c] = 1.0 / A->mscale;
      xc[c] = 1.0;
    }
  for (c = 2 * n; c < sp->nb; c++)     /* lambda+ and lambda- of constraint a */
    {
      int a = (c - 2 * n) % m;
      double g = A->gscale ? A->gscale[a] : 1.0;
      int hol = A->hol ? A->hol[a] : 0;
      A->rw[c] = 1.0 / (g * (hol ? tau * tau : tau));
      xc[c] = A->mscale / (g * tau * tau);
    }
  for (i = 0; i < A->act.n; i++)
    A->xs[i] = xc[(A->mode == VM_SKG_REDUCED ? cp->plus[i] : i) % sp->nb];
  cp->xs = m > 0 ? A->xs : NULL;
}

static int
act_move (void *self, double ta, double tb, const double *xa)
{
  skg_act *A = self;
  vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  int n = A->model->n, st;
  int64_t nsol;
  double t0 = vm_wall_time ();
  if (! A->built)
    {
      if ((st = vm_skg_build (sp, A->model, A->par, A->act.N, A->act.order,
                              &(vm_skg_window) { ta, tb, xa, xa + n })) != VM_OK)
        return st;
      A->built = 1;
      if (sp->nz > INT_MAX)
        return VM_EARG;
      cp->s = sp;
      cp->grad = vm_scratch_alloc ((size_t) sp->nz * sizeof *cp->grad);
      cp->z = vm_scratch_alloc ((size_t) sp->nz * sizeof *cp->z);
      /* the solver's unknowns: N (n + m) in reduced mode (the predictor's q and lambda fit in
       * f0 in either mode), nz in full mode */
      nsol = A->mode == VM_SKG_REDUCED ? sp->N * (sp->n + sp->m) : sp->nz;
      A->wt = vm_scratch_alloc ((size_t) nsol * sizeof *A->wt);
      A->f0 = vm_scratch_alloc ((size_t) nsol * sizeof *A->f0);
      A->xs = vm_scratch_alloc ((size_t) nsol * sizeof *A->xs);
      A->xoff = vm_scratch_alloc ((size_t) nsol * sizeof *A->xoff);
      A->orow = vm_scratch_alloc ((size_t) nsol * sizeof *A->orow);
      A->rw = malloc ((size_t) (2 * sp->nb) * sizeof *A->rw);
      if (! cp->grad || ! cp->z || ! A->wt || ! A->f0 || ! A->xs || ! A->xoff || ! A->orow
          || ! A->rw)
        return VM_ENOMEM;
      memset (cp->z, 0, (size_t) sp->nz * sizeof *cp->z);
      if (A->mode == VM_SKG_REDUCED)
        {
          if ((st = skg_red_build (cp)) != VM_OK)
            return st;
          A->act.n = cp->nr;
          A->act.colptr = cp->rcp;
          A->act.rowind = cp->rri;
        }
      else
        {
          if ((st = vm_skg_full_pattern (sp)) != VM_OK)
            return st;
          A->act.n = sp->nz;
          A->act.colptr = sp->colptr;
          A->act.rowind = sp->rowind;
        }
    }
  else if ((st = vm_skg_set_window (sp, ta, tb, xa, xa + n)) != VM_OK)
    return st;
  /* the q+ unknowns are displacements from the window's initial position (vm_skg_set_origin) */
  if ((st = vm_skg_set_origin (sp, xa)) != VM_OK)
    return st;
  act_scales (A);
  A->act.t = sp->t;
  A->t_build += vm_wall_time () - t0;
  return VM_OK;
}

/* The start x from q+ (N x n) and lambda+ (N x m, or NULL: 0) on the window's nodes, column-major
 * with leading dimension ld; q- = lambda- = 0.  q holds positions (origin: the action's origin
 * sp->qo, subtracted here) or, with origin NULL, displacements from sp->qo already. */
static int
act_start (skg_act *A, const double *q, const double *origin, const double *lam, int64_t ld,
           double *x)
{
  vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  int64_t k, i;
  int cc, a;
  memset (cp->z, 0, (size_t) sp->nz * sizeof *cp->z);
  for (k = 0; k < sp->N; k++)
    {
      for (cc = 0; cc < sp->n; cc++)
        cp->z[vm_skg_index (sp, k, 0, cc)] = q[k + ld * cc] - (origin ? origin[cc] : 0.0);
      for (a = 0; a < sp->m; a++)
        cp->z[vm_skg_index (sp, k, 2, a)] = lam ? lam[k + ld * a] : 0.0;
    }
  if (A->mode == VM_SKG_REDUCED)
    for (i = 0; i < cp->nr; i++)
      x[i] = cp->z[cp->plus[i]] / (cp->xs ? cp->xs[i] : 1.0);
  else
    for (i = 0; i < sp->nz; i++)
      x[i] = cp->z[i] / (cp->xs ? cp->xs[i] : 1.0);
  return VM_OK;
}

/* Guess 'marching': the first window from the initial state at constant velocity; a later one
 * from the end state of the previous window (q, v) with the acceleration of its last quarter
 * (a quadratic Taylor step), and its last multipliers held constant. */
static int
act_predict (void *self, const double *xa, const double *pt, const double *ptraj, int64_t pn,
             int64_t ldp, double *x)
{
  skg_act *A = self;
  vm_skg *sp = &A->s;
  int n = sp->n, m = sp->m, cc, a;
  int64_t N = sp->N, k, j = 0;
  double *q = A->f0, *lam = A->f0 + N * n;     /* f0 has at least N (n + m) entries */
  for (k = 0; k < N; k++)
    {
      double tau = sp->t[k] - sp->t[0];
      for (cc = 0; cc < n; cc++)
        {
          double acc = 0.0;
          if (pn > 1)
            {
              int64_t last = pn - 1;
              j = last - (last + 3) / 4;
              acc = (ptraj[last + ldp * (n + cc)] - ptraj[j + ldp * (n + cc)])
                    / (pt[last] - pt[j]);
            }
          /* the displacement from xa, the origin of the unknowns (act_move) */
          q[k + N * cc] = (xa[cc] - sp->qo[cc]) + xa[n + cc] * tau + 0.5 * acc * tau * tau;
        }
      for (a = 0; a < m; a++)
        lam[k + N * a] = pn > 0 ? ptraj[(pn - 1) + ldp * (2 * n + a)] : 0.0;
    }
  return act_start (A, q, NULL, lam, N, x);
}

static int
act_from_traj (void *self, const double *traj, int64_t ld, double *x)
{
  skg_act *A = self;
  return act_start (A, traj, A->s.qo, A->s.m > 0 ? traj + ld * 2 * A->s.n : NULL, ld, x);
}

static int
act_newton_setup (void *self, const double *x, vm_newton_opts *o)
{
  skg_act *A = self;
  vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  int64_t i, nsol = A->act.n;
  double ell;
  int reduced = A->mode == VM_SKG_REDUCED;
  sp->ntape = 0;
  sp->t_tape = sp->t_hess = sp->t_grad = 0.0;
  /* node-major unknowns: the banded LU may exchange the end nodes when that narrows the band */
  o->block = reduced ? sp->n + sp->m : sp->nb;
  /* the step test's absolute part no larger than the state (positions and, per act_scales,
   * multipliers are lengths), so that the test means the same in any unit of length; as
   * res_floor, never looser than 1 */
  ell = state_size (sp);
  o->step_scale = ell > 0.0 ? fmin (1.0, ell) : 1.0;
  /* the rounding level of the constraints' rows: g is evaluated at the positions qo + z, whose
   * rounding (eps |qo|) the displacements z do not show (vm_skg_set_origin); the equations of
   * motion difference z (Ds z) and round at eps |J| |z| */
  for (i = 0; i < nsol; i++)
    {
      int64_t zu = reduced ? cp->plus[i] : i, ze = reduced ? cp->minus[i] : i;
      int cu = (int) (zu % sp->nb), ce = (int) (ze % sp->nb);
      A->xoff[i] = cu < sp->n ? sp->qo[cu] / (cp->xs ? cp->xs[i] : 1.0) : 0.0;
      A->orow[i] = ce >= 2 * sp->n + sp->m;
    }
  o->x_offset = A->xoff;
  o->offset_rows = A->orow;
  if (! A->eom_residual)
    return VM_OK;
  for (i = 0; i < nsol; i++)
    A->wt[i] = eq_weight (sp, reduced ? cp->minus[i] : i, 0, A->rw);
  o->res_weight = A->wt;
  if (! (o->res_scale > 0.0))
    {
      /* F(x0) is evaluated for the scale; Newton takes it as its first residual */
      int st = res_scale0 (cp, reduced, x, A->f0, nsol, A->rw, &o->res_scale);
      if (st == VM_OK)
        o->F0 = A->f0;
      return st;
    }
  return VM_OK;
}

static int
act_extract (void *self, const double *x, double *traj, int64_t ld, double *xend)
{
  skg_act *A = self;
  vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  int n = sp->n, m = sp->m, cc, a;
  int64_t N = sp->N, k, e, i;
  A->ntape += sp->ntape;
  A->t_tape += sp->t_tape;
  A->t_hess += sp->t_hess;
  sp->ntape = 0;
  sp->t_tape = sp->t_hess = 0.0;
  if (A->mode == VM_SKG_REDUCED)
    skg_red_point (cp, x);         /* q- = lambda- = 0 */
  else if (cp->xs)
    skg_full_point (cp, x);        /* z = x .* xs */
  else
    memcpy (cp->z, x, (size_t) sp->nz * sizeof *x);
  for (k = 0; k < N; k++)
    {
      for (cc = 0; cc < n; cc++)
        {
          double sum = 0.0;
          for (e = sp->dsp[k]; e < sp->dsp[k + 1]; e++)
            sum += sp->dsv[e] * cp->z[vm_skg_index (sp, sp->dsj[e], 0, cc)];
          if (k == 0)
            sum += (sp->qo[cc] - sp->qi[cc]) / sp->hw[0];
          traj[k + ld * cc] = sp->qo[cc] + cp->z[vm_skg_index (sp, k, 0, cc)];
          traj[k + ld * (n + cc)] = sum;
          if (k == N - 1)
            {
              xend[cc] = traj[k + ld * cc];
              xend[n + cc] = sum;
            }
        }
      for (a = 0; a < m; a++)
        traj[k + ld * (2 * n + a)] = cp->z[vm_skg_index (sp, k, 2, a)];
    }
  if (A->pts && vm_mech_points_project (A->pts, N, sp->t, traj, traj + ld * n, ld,
                                        VM_SKG_PROJECT_TOL) == VM_OK)
    for (cc = 0; cc < n; cc++)
      {
        xend[cc] = traj[N - 1 + ld * cc];
        xend[n + cc] = traj[N - 1 + ld * (n + cc)];
      }
  A->last_qm = A->last_lm = A->last_grad = 0.0;
  for (k = 0; k < N; k++)
    {
      for (cc = 0; cc < n; cc++)
        A->last_qm = fmax (A->last_qm, fabs (cp->z[vm_skg_index (sp, k, 1, cc)]));
      for (a = 0; a < m; a++)
        A->last_lm = fmax (A->last_lm, fabs (cp->z[vm_skg_index (sp, k, 3, a)]));
    }
  /* cross-check: the full gradient at the returned point (reduced mode: from the reduced tape,
   * whose zero plus components are those of the full gradient at q- = lambda- = 0, skg.h) */
  if ((A->mode == VM_SKG_REDUCED ? vm_skg_eval_reduced (sp, cp->z, cp->grad, NULL, NULL)
       : vm_skg_eval (sp, cp->z, NULL, cp->grad, NULL)) == VM_OK)
    for (i = 0; i < sp->nz; i++)
      A->last_grad = fmax (A->last_grad, fabs (cp->grad[i]));
  else
    A->last_grad = NAN;
  return VM_OK;
}

static void
act_accepted (void *self)
{
  skg_act *A = self;
  A->max_qm = fmax (A->max_qm, A->last_qm);
  A->max_lm = fmax (A->max_lm, A->last_lm);
  A->max_grad = isnan (A->last_grad) ? NAN : fmax (A->max_grad, A->last_grad);
}

/* The window's contact layers resolved (contact_check.h): q and Da q+ of the trajectory. */
static int
act_check (void *self, const double *traj, int64_t ld, int *ok, double *factor, char *why,
           size_t nwhy)
{
  skg_act *A = self;
  int st;
  if (! A->cc_ok)
    {
      if ((st = vm_contact_check_init (&A->cc, A->model, A->par)) != VM_OK)
        return st;
      A->cc_ok = 1;
    }
  return vm_contact_check_eval (&A->cc,
                                &(vm_contact_traj) { A->s.N, A->s.t, traj, traj + ld * A->s.n, ld },
                                ok, factor, why, nwhy);
}

void
skg_act_init (skg_act *A, const vm_mech *model, const double *par, int order, int64_t N, int mode,
          int eom_residual)
{
  memset (A, 0, sizeof *A);
  A->model = model;
  A->par = par;
  A->mode = mode;
  A->eom_residual = eom_residual;
  A->mscale = 1.0;
  A->act.self = A;
  A->act.nstate = 2 * model->n;
  A->act.nout = 2 * model->n + model->m;
  A->act.nerr = 2 * model->n;    /* q and qdot: the multipliers of a window disagree between orders at its first nodes (the weak initial data) whatever its length */
  A->act.order = order;
  A->act.N = N;
  A->act.F = act_F;
  A->act.J = act_J;
  A->act.move = act_move;
  A->act.predict = act_predict;
  A->act.from_traj = act_from_traj;
  A->act.newton_setup = act_newton_setup;
  A->act.extract = act_extract;
  A->act.accepted = act_accepted;
  A->act.check = model->nc > 0 ? act_check : NULL;
  A->act.check_name = "contact";
}

void
skg_act_free (skg_act *A)
{
  skg_ctx_free (&A->c);
  if (A->cc_ok)
    vm_contact_check_free (&A->cc);
  vm_scratch_free (A->wt);
  vm_scratch_free (A->f0);
  vm_scratch_free (A->xs);
  vm_scratch_free (A->xoff);
  vm_scratch_free (A->orow);
  free (A->rw);
  if (A->built)
    vm_skg_free (&A->s);
  memset (A, 0, sizeof *A);
}

