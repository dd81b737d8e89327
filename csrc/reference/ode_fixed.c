/* ode_fixed.c -- the fixed-step methods of vm_ode_solve: GL4, GL6 (gauss_legendre.c) and RK4 on the
 * grid t0 + k h.
 *
 * Contract: vm_ode_run_fixed steps from (w->t, w->y), F(t, y) in w->fy (and, for Gauss, the
 * Jacobian made), over the grid t0 + k h (no accumulation of h), the last step shortened to end
 * at tf (a last step within 1e-12 h of h is merged, so an integral (tf - t0)/h gives no sliver).
 * A grid step is covered by 2^level equal sub-steps: level rises by 1 after a Newton failure (at
 * most MAX_HALVINGS times per grid step) and by ceil(log2(1/factor)) after a step check's
 * rejection (VM_ELAYER beyond VM_ODE_CHECK_LEVELS levels), and starts where the step check's bound
 * on the next step puts it.  Cost per sub-step: RK4 4 evaluations of F, Gauss the Newton
 * iterations (s evaluations each), one LU and a Jacobian per grid step.  Returns VM_OK at tf (or
 * *terminal = 1 at a terminal event), VM_EMAXSTEPS, VM_EHMIN, VM_ENEWTON, VM_ENONFINITE,
 * VM_ELAYER, VM_ENOMEM, or a user code.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "reference/ode_mem.h"
#include "base/vm_status.h"

#define MAX_HALVINGS 10

/* one RK4 step of size hs from (w->t, w->y) to tn into w->yn (F at tn is left to the caller) */
static int
rk4_step (vm_ode_mem *w, double hs, double tn)
{
  const int n = w->n;
  const double t = w->t, *y = w->y, *k1 = w->fy;
  double *k2 = w->k, *k3 = w->k + n, *k4 = w->k + 2 * n, *ys = w->ytmp;
  int i, st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + 0.5 * hs * k1[i];
  if ((st = vm_ode_rhs (w, t + 0.5 * hs, ys, k2)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + 0.5 * hs * k2[i];
  if ((st = vm_ode_rhs (w, t + 0.5 * hs, ys, k3)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + hs * k3[i];
  if ((st = vm_ode_rhs (w, tn, ys, k4)) != 0)
    return st;
  for (i = 0; i < n; i++)
    w->yn[i] = y[i] + hs / 6.0 * (k1[i] + 2.0 * (k2[i] + k3[i]) + k4[i]);
  if (! vm_ode_all_finite (n, w->yn))
    return VM_ENONFINITE;
  return VM_OK;
}

/* One sub-step of a fixed-step method from (w->t, w->y) to tn (length hs), then the step check.
 * *ok = 1: kept (w->yn; w->fn when need_fn; GL: the collocation polynomial and compensation
 * committed).  *ok = 0: not kept; *newton = 1 (2: caused by non-finite values) after a Newton
 * failure, else the step check rejected it with the fraction *factor. */
static int
fixed_substep (vm_ode_mem *w, double hs, double tn, int need_fn, int *ok, int *newton,
               double *factor)
{
  const int n = w->n;
  int st, nonfinite = 0;
  *ok = 0;
  *newton = 0;
  if (w->s == 0)
    st = rk4_step (w, hs, tn);
  else
    {
      st = vm_gl_attempt (w, hs, ok, &nonfinite);
      if (st == VM_OK && ! *ok)
        {
          *newton = nonfinite ? 2 : 1;
          return VM_OK;
        }
      if (st == VM_OK && ! vm_ode_all_finite (n, w->yn))
        st = VM_ENONFINITE;
    }
  if (st != VM_OK || (st = vm_ode_check_step (w, tn, ok, factor)) != VM_OK || ! *ok)
    return st;
  if (w->s > 0)
    {
      memcpy (w->Zp, w->Z, (size_t) w->s * (size_t) n * sizeof (double));
      memcpy (w->comp, w->compn, (size_t) n * sizeof (double));
      w->hprev = hs;
      w->have_prev = 1;
    }
  if (need_fn)
    {
      if ((st = vm_ode_rhs (w, tn, w->yn, w->fn)) != 0)
        return st;
      if (! vm_ode_all_finite (n, w->fn))
        return VM_ENONFINITE;
    }
  return VM_OK;
}

/* the sub-step level at which a grid step of length hfull starts: sub-steps of at most w->hlim */
static int
start_level (double hfull, double hlim)
{
  int level = 0;
  while (level < VM_ODE_CHECK_LEVELS && fabs (ldexp (hfull, -level)) > hlim)
    level++;
  return level;
}

/* The sub-steps of hfull / 2^level that cover the grid step from w->t to tt; level rises after a
 * Newton failure (by 1, at most MAX_HALVINGS times) or a step check's rejection (by
 * ceil(log2(1/factor)), at most VM_ODE_CHECK_LEVELS levels in all). */
static int
fixed_grid_step (vm_ode_mem *w, double tt, int last, int *terminal)
{
  vm_ode_sol *sol = w->sol;
  const double dir = w->dir, hfull = tt - w->t;
  const long max_steps = w->o->max_steps > 0 ? w->o->max_steps : 10000000L;
  int level = start_level (hfull, w->hlim), nhalve = 0, clevel = level, st;

  while (w->t != tt)
    {
      const double hsub = ldexp (hfull, -level);
      double hs = tt - w->t, tn, factor;
      int sublast = 1, ok, newton;
      if (sol->nsteps >= max_steps)
        return VM_EMAXSTEPS;
      if (level > 0 && ! (fabs (hsub) >= 16.0 * DBL_EPSILON * fabs (w->t)))
        return VM_EHMIN;
      if (level > 0 && (tt - w->t) * dir > fabs (hsub) * (1.0 + 1e-12))
        {
          hs = hsub;
          sublast = 0;
        }
      tn = sublast ? tt : w->t + hs;
      sol->nsteps++;
      st = fixed_substep (w, hs, tn, w->dense || ! (last && sublast), &ok, &newton, &factor);
      if (st != VM_OK)
        return st;
      if (! ok && newton)
        {
          sol->nreject++;
          if (nhalve++ >= MAX_HALVINGS)
            return newton == 2 ? VM_ENONFINITE : VM_ENEWTON;
          level++;
          continue;
        }
      if (! ok)
        {
          const int add = factor > 0.5 ? 1 : (int) ceil (-log2 (factor));
          if (clevel + add > VM_ODE_CHECK_LEVELS)
            return VM_ELAYER;
          clevel += add;
          level += add;
          continue;
        }
      sol->naccept++;
      w->tn = tn;
      st = vm_ode_after_step (w, terminal);
      if (st != VM_OK || *terminal)
        return st;
      vm_ode_advance (w);
      if (w->s > 0 && ! (last && w->t == tt) && (st = vm_gl_jacobian (w)) != VM_OK)
        return st;              /* once per step, at its start */
    }
  return VM_OK;
}

int
vm_ode_run_fixed (vm_ode_mem *w, int *terminal)
{
  const double dir = w->dir, hnom = w->o->h, t0 = w->t0, tf = w->tf;
  long kgrid = 0;
  int st;

  for (;;)
    {
      /* the nominal step [t, tt] of the grid t0 + k h; the last one ends at tf */
      const double ts = w->t;
      double tt;
      int last;
      if ((tf - ts) * dir <= hnom * (1.0 + 1e-12))
        {
          tt = tf;
          last = 1;
        }
      else
        {
          tt = t0 + dir * (double) (kgrid + 1) * hnom;
          last = 0;
        }
      if (! (hnom >= 16.0 * DBL_EPSILON * fabs (ts)))
        return VM_EHMIN;
      st = fixed_grid_step (w, tt, last, terminal);
      if (st != VM_OK || *terminal || last)
        return st;
      kgrid++;
    }
}

