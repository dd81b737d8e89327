/* newton_step.c -- one step of the Newton solver (newton.h steps 1', 1'', 2, 2', 3, 5): the
 * Jacobian and its rounding-level test, the factorization and direction, the line search with
 * its non-monotone test, the chord steps with a held factorization.
 *
 * Each function proposes x_{k+1} in w->xt (F there in w->Ft) or reports convergence at x_k; the
 * loop in newton_run.c accepts it.  Errors: a callback's code, VM_ENEWTON_NONFINITE or the linear
 * solver's status (message set).  Cost: see newton.h.  Why chord steps sit with the Newton step:
 * they share the held factorization and the step test. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "newton/newton_impl.h"
#include "base/vm_status.h"
#include "base/vm_sumsq.h"

/* The Newton direction: factor J (the values w->Jx) and solve J dx = -F.  VM_OK with *singular
 * set when J fails the backend's singularity test (linsolve.h) or dx is not finite; otherwise the
 * linear solver's failure (message set).  keep: a nonsingular factorization is held for chord
 * steps (w->held; newton.h 2'), otherwise it is released at once. */
static int
direction (newton_mem *w, vm_newton_info *inf, int k, int verbose, int keep, int *singular)
{
  double t0 = vm_wall_time ();
  int i, st;
  *singular = 1;
  w->held = 0;
  w->nchord = 0;
  for (i = 0; i < w->n; i++)
    w->w[i] = -w->F[i];
  st = vm_linsolve_factor_solve (&w->ls, w->Jx, w->w, w->dx);
  if (st != VM_OK)
    {
      vm_linsolve_release (&w->ls);
      return newton_ls_error (inf, "factorization of the Jacobian and the solve with it", &w->ls, st, k);
    }
  if (verbose && k == 0)
    fprintf (stderr, "newton: linear solver %s%s (kl = %d, ku = %d): first factorization %.3f s, "
             "rcond %.3e\n", vm_linsolve_name (w->ls.kind), w->ls.lean ? " (U only)" : "",
             w->ls.kl, w->ls.ku, vm_wall_time () - t0, w->ls.rcond);
  *singular = w->ls.singular || !isfinite (newton_nrminf (w->n, w->dx));
  if (keep && (!w->ls.lean || w->ls.chol) && !*singular)   /* a U-only LU serves one solve */
    w->held = 1;
  else
    vm_linsolve_release (&w->ls);
  return VM_OK;
}

/* An upper bound of round_level (below) that costs one pass over x instead of one over J: by
 * Cauchy-Schwarz (|J| |x|)_i <= ||J(i,:)||_2 ||x||_2, so || W |J| |x| ||_2 <= max_i w_i ||J||_F
 * ||x||_2; the factor 1.001 covers the rounding of both (relative errors of order nnz eps).  A
 * residual above it cannot pass the rounding-level test, and the pass over J is skipped. */
static double
round_bound (const newton_mem *w, const double *x, const vm_newton_opts *o)
{
  double s = 0.0;
  int i;
  for (i = 0; i < w->n; i++)
    {
      const double a = fabs (x[i]) + (o->x_offset ? fabs (o->x_offset[i]) : 0.0);
      s += a * a;
    }
  return 1.001 * o->tol_round * DBL_EPSILON * w->wmax * w->jfro * sqrt (s);
}

/* jx[r0 + q] += |a[q]| ax, q < len (a column of consecutive rows: no index, vectorized) */
static void
abs_axpy (int64_t len, double ax, const double *restrict a, double *restrict jx)
{
  int64_t q;
  for (q = 0; q < len; q++)
    jx[q] += fabs (a[q]) * ax;
}

/* The rounding level of F at x (newton.h 1'), tol_round eps || W |J| |x| ||_2, with the values
 * J in w->Jx (w->jx is overwritten).  A column whose rows are consecutive (its last row minus its
 * first is its length minus 1: the rows are sorted, check_pattern) is added without reading its
 * row indices (the banded Hessians of the actions: every column but near a fixed node), which
 * halves the bytes the pass reads. */
static double
round_level (newton_mem *w, const double *x, const vm_newton_opts *o)
{
  int64_t p;
  int i, j;
  for (i = 0; i < w->n; i++)
    w->jx[i] = 0.0;
  for (j = 0; j < w->n; j++)
    {
      const int64_t p0 = w->Ap[j], p1 = w->Ap[j + 1];
      const double ax = fabs (x[j]), ao = o->x_offset ? fabs (o->x_offset[j]) : 0.0;
      if (ao > 0.0)             /* the rows that evaluate at x + x_offset (newton.h) */
        for (p = p0; p < p1; p++)
          w->jx[w->Ai[p]] += fabs (w->Jx[p])
                             * (! o->offset_rows || o->offset_rows[w->Ai[p]] ? ax + ao : ax);
      else if (p1 > p0 && w->Ai[p1 - 1] - w->Ai[p0] == p1 - 1 - p0)
        abs_axpy (p1 - p0, ax, w->Jx + p0, w->jx + w->Ai[p0]);
      else
        for (p = p0; p < p1; p++)
          w->jx[w->Ai[p]] += fabs (w->Jx[p]) * ax;
    }
  return o->tol_round * DBL_EPSILON * newton_wnrm2 (w->n, w->wt, w->jx);
}

/* J(x_k) into w->Jx, checked finite, then the rounding-level test (newton.h 1').  VM_OK with
 * *stop = 1: converged at the rounding level (message set); otherwise VM_OK, the callback's code
 * or VM_ENEWTON_NONFINITE (message set). */
static int
jacobian (newton_mem *w, const double *x, double f, int k, int *stop)
{
  const vm_newton_opts *o = w->o;
  vm_newton_info *inf = w->inf;
  const double target = w->target;
  double t0, rl, s2 = 0.0;
  int64_t p;
  int st;
  newton_drop_held (w);
  if (o->jac_sumsq)
    *o->jac_sumsq = -1.0;
  t0 = vm_wall_time ();
  st = w->p->J (x, w->Jx, w->p->ctx);
  inf->t_jac += vm_wall_time () - t0;
  inf->njev++;
  if (st != 0)
    {
      newton_msg (inf, "the Jacobian function returned %d at iteration %d", st, k);
      return st;
    }
  /* not finite when an entry is not (or on overflow); the callback's, when it made it */
  s2 = o->jac_sumsq && *o->jac_sumsq != -1.0 ? *o->jac_sumsq : vm_sum_squares (w->nnz, w->Jx);
  if (!isfinite (s2))
    for (p = 0; p < w->nnz; p++)
      if (!isfinite (w->Jx[p]))
        {
          newton_msg (inf, "Jacobian entry %lld not finite at iteration %d (||F|| = %.3e)",
                  (long long) p, k, f);
          return VM_ENEWTON_NONFINITE;
        }
  if (!(o->tol_round > 0.0))
    return VM_OK;
  w->jfro = sqrt (s2);
  if (f > round_bound (w, x, o))
    return VM_OK;   /* the rounding-level test cannot pass */
  rl = round_level (w, x, o);
  inf->round_level = rl;
  if (o->verbose)
    fprintf (stderr, "newton: %4d  rounding level %.3e\n", k, rl);
  if (f <= rl)
    {
      newton_msg (inf, "converged at the rounding level: ||F|| = %.3e <= tol_round*eps*"
              "|| |J| |x| || = %.3e after %d iterations (tol_res*scale = %.3e)", f, rl, k, target);
      *stop = 1;
    }
  return VM_OK;
}


/* The trial point x + t dx into w->xt, F there into w->Ft and its norm into *ft; the callback's
 * code. */
static int
trial (newton_mem *w, const double *x, double t, double *ft)
{
  int i, st;
  for (i = 0; i < w->n; i++)
    w->xt[i] = x[i] + t * w->dx[i];
  st = newton_call_F (w, w->xt, w->Ft);
  *ft = st == 0 ? newton_wnrm2 (w->n, w->wt, w->Ft) : NAN;
  return st;
}

/* The premise of the step test (newton.h 5) for the correction w->dx at x_k (||dx||_inf = dxn):
 * small, and at most half the previous step, which was a full step (Newton or chord). */
static int
step_small (const newton_mem *w, const vm_newton_opts *o, const vm_newton_info *inf, int k,
            const double *x, double dxn)
{
  int kp;
  if (!(o->tol_step > 0.0) || k == 0)
    return 0;
  kp = inf->kind_hist[k];
  return (kp == VM_NEWTON_FULL || kp == VM_NEWTON_CHORD)
         && dxn <= o->tol_step * (o->step_scale + newton_nrminf (w->n, x))
         && dxn <= 0.5 * inf->step_hist[k];
}

/* The step test passed for the full step to w->xt (s->ft evaluated): taken when it does not
 * increase ||F|| (s->step_conv), otherwise x_k is returned (s->stop, message set). */
static void
step_converged (vm_newton_info *inf, int k, double f, double dxn, const char *what, newton_step_t *s)
{
  if (!(s->ft <= f))
    {
      newton_msg (inf, "converged: %s correction %.3e <= tol_step*(step_scale + ||x||_inf) and "
              "contracting (previous step %.3e) after %d iterations; not applied since it does "
              "not reduce ||F|| = %.3e (rounding level)", what, dxn, inf->step_hist[k], k, f);
      s->stop = 1;
      return;
    }
  s->step_conv = 1;
  s->accepted = 1;
}

/* The non-monotone test of the full Newton step (newton.h 3): far from the residual test's
 * bound, a full step to ||F||_W = ft <= nonmonotone fbest is taken although it fails Armijo's
 * test, at most nonmonotone_max times in a row without a new best residual.  Updates the count. */
static int
relaxed (newton_mem *w, const vm_newton_opts *o, vm_newton_info *inf, double f, double ft)
{
  if (!(o->nonmonotone > 1.0) || w->relax_off || !isfinite (ft)
      || !(f > NONMONOTONE_FAR * w->target))
    return 0;
  if (ft <= sqrt (1.0 - 2.0 * ARMIJO_C) * w->fbest)
    return 1;   /* a new best by Armijo's margin (accept_step ends the sequence) */
  if (ft > o->nonmonotone * w->fbest || w->nrelax >= o->nonmonotone_max)
    return 0;
  w->relaxed_step = 1;
  inf->nrelaxed++;
  return 1;
}

/* The Newton step from x_k along w->dx (J nonsingular): full (no line search, or when the step
 * test's premise holds) or by backtracking.  VM_OK with s->accepted or not (the line search
 * failed), or s->stop; otherwise a callback's code or VM_ENEWTON_NONFINITE (message set). */
static int
newton_step (newton_mem *w, const double *x, double f, int k, newton_step_t *s)
{
  const vm_newton_opts *o = w->o;
  vm_newton_info *inf = w->inf;
  const double dxn = newton_nrminf (w->n, w->dx);
  const int small = step_small (w, o, inf, k, x, dxn);
  int st;
  if (!o->line_search || small)
    {
      if ((st = trial (w, x, 1.0, &s->ft)) != 0)
        {
          newton_msg (inf, "the residual function returned %d at iteration %d", st, k);
          return st;
        }
      if (small)
        step_converged (inf, k, f, dxn, "Newton", s);
      else if (!isfinite (s->ft))
        {
          newton_msg (inf, "non-finite residual after the Newton step of iteration %d (no line "
                  "search): best ||F|| = %.3e (iteration %d)", k, w->fbest, w->kbest);
          return VM_ENEWTON_NONFINITE;
        }
      else
        s->accepted = 1;
      return VM_OK;
    }
  for (s->t = 1.0; s->t >= T_MIN; s->t *= 0.5)
    {
      if ((st = trial (w, x, s->t, &s->ft)) != 0)
        {
          newton_msg (inf, "the residual function returned %d at iteration %d (line search)", st, k);
          return st;
        }
      if ((isfinite (s->ft) && s->ft <= sqrt (1.0 - 2.0 * ARMIJO_C * s->t) * f)
          || (s->t == 1.0 && relaxed (w, o, inf, f, s->ft)))
        {
          s->accepted = 1;
          break;
        }
    }
  s->kind = s->t == 1.0 ? VM_NEWTON_FULL : VM_NEWTON_DAMPED;
  return VM_OK;
}

/* 1'' (newton.h): at most this fraction of the rounding level estimated with the held J(x_m)
 * ends the solve without J(x_k) */
#define ROUND_HELD 0.5

/* The chord phase at x_k (newton.h 2', 1''): a factorization of J(x_m) is held (tol_round > 0)
 * and the step to x_k was a full (Newton or chord) step that contracted by reuse_theta.  Then
 * ||F(x_k)||_W above the rounding level estimated with J(x_m) allows a chord step while the
 * factorization has served fewer than reuse of them (returns 1); at or below ROUND_HELD times it
 * x_k is converged (returns 2, message and round_level set); otherwise 0: J(x_k) is evaluated. */
static int
chord_phase (newton_mem *w, const double *x, const vm_newton_opts *o, vm_newton_info *inf, int k)
{
  const double f = inf->res_hist[k];
  double rl;
  int kp;
  if (!(o->tol_round > 0.0) || !w->held || k == 0)
    return 0;
  kp = inf->kind_hist[k];
  if (!((kp == VM_NEWTON_FULL || kp == VM_NEWTON_CHORD) && f <= o->reuse_theta * inf->res_hist[k - 1]))
    return 0;
  if (f > round_bound (w, x, o) || f > (rl = round_level (w, x, o)))
    return w->nchord < o->reuse;
  if (!(f <= ROUND_HELD * rl))
    return 0;
  inf->round_level = rl;
  if (o->verbose)
    fprintf (stderr, "newton: %4d  rounding level %.3e (the held factorization's J)\n", k, rl);
  newton_msg (inf, "converged at the rounding level: ||F|| = %.3e <= %g tol_round*eps*|| |J| |x| || "
          "= %.3e (J of the held factorization) after %d iterations (tol_res*scale = %.3e)", f,
          ROUND_HELD, ROUND_HELD * rl, k, w->target);
  return 2;
}

/* The chord step from x_k (newton.h 2'): dx = -J(x_m)^{-1} F(x_k) with the held factorization,
 * taken in full when ||F(x_k + dx)||_W <= reuse_theta ||F(x_k)||_W or when the step test passes
 * (s->step_conv or s->stop, as for a Newton step).  Otherwise (also for a non-finite dx) rejected:
 * VM_OK with s->accepted = 0, and the caller evaluates and factors J(x_k).  Another status: a
 * callback's code or the linear solver's failure (message set). */
static int
chord_step (newton_mem *w, const double *x, double f, int k, newton_step_t *s)
{
  const vm_newton_opts *o = w->o;
  vm_newton_info *inf = w->inf;
  double dxn;
  int i, st;
  for (i = 0; i < w->n; i++)
    w->w[i] = -w->F[i];
  if ((st = vm_linsolve_solve (&w->ls, w->w, w->dx)) != VM_OK)
    return newton_ls_error (inf, "chord solve with the held factorization", &w->ls, st, k);
  w->nchord++;
  dxn = newton_nrminf (w->n, w->dx);
  if (!w->ls.singular && isfinite (dxn))
    {
      const int small = step_small (w, o, inf, k, x, dxn);
      if ((st = trial (w, x, 1.0, &s->ft)) != 0)
        {
          newton_msg (inf, "the residual function returned %d at iteration %d (chord step)", st, k);
          return st;
        }
      if (small)
        step_converged (inf, k, f, dxn, "chord", s);
      else if (isfinite (s->ft) && s->ft <= o->reuse_theta * f)
        s->accepted = 1;
      if (s->accepted)
        {
          s->kind = VM_NEWTON_CHORD;
          inf->nreuse_factor++;
        }
      if (s->accepted || s->stop)
        return VM_OK;
    }
  inf->nreuse_reject++;
  return VM_OK;
}

/* One step from x_k: a chord step when allowed and accepted, otherwise J(x_k), its factorization
 * and the Newton step, or the LM fallback.  VM_OK with s->accepted, or s->stop (converged at
 * x_k); another status ends the solve (message set). */
int
newton_one_step (newton_mem *w, const double *x, double f, int k, newton_step_t *s)
{
  const vm_newton_opts *o = w->o;
  vm_newton_info *inf = w->inf;
  const int phase = chord_phase (w, x, o, inf, k);
  int singular = 1, st;
  if (phase == 2)
    {
      s->stop = 1;
      return VM_OK;
    }
  if (phase == 1
      && ((st = chord_step (w, x, f, k, s)) != VM_OK || s->accepted || s->stop))
    return st;
  if ((st = jacobian (w, x, f, k, &s->stop)) != VM_OK || s->stop)
    return st;
  if ((st = direction (w, inf, k, o->verbose, o->reuse > 0, &singular)) != VM_OK)
    return st;
  if (!singular && ((st = newton_step (w, x, f, k, s)) != VM_OK
                    || s->accepted || s->stop))
    return st;
  return newton_fallback (w, x, f, singular, k, s);
}
