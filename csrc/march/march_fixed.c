/* march_fixed.c -- the fixed grid of the march (march.h, mode windows = W >= 1): W equal windows
 * of N nodes, no error control (an estimate per window with opts.estimate), stopping at the first
 * window whose Newton solve fails.
 *
 * Returns VM_OK (s->message: the converged summary), Newton's code of the failed window (its best
 * iterate kept, later nodes NaN on the grid), or an error of the action.  Cost: W windows.  Why a
 * check's veto does not stop it: the grid is the caller's, so the message reports the windows it
 * does not resolve instead. */
#include "march/march_impl.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The action's check of window k, recorded (the first veto's text kept in check_why) but not
 * rejected. */
static int
fixed_check (march_mem *m, int k)
{
  vm_march_sol *s = m->s;
  int reason = 0, st;
  double f;
  char why[160];
  st = march_check_window (m, &reason, &f, why, sizeof why);
  if (st == VM_OK && reason == VM_MARCH_REJ_CHECK)
    {
      if (s->nunresolved == 0)
        snprintf (s->check_why, sizeof s->check_why, "window %d: %s", k + 1, why);
      s->nunresolved++;
    }
  return st;
}

/* Window k of o->windows (Ntot nodes in all), recorded; a failure sets the message. */
static int
fixed_window (march_mem *m, int k, int64_t Ntot)
{
  const vm_march_opts *o = m->o;
  vm_march_sol *s = m->s;
  int W = o->windows, st;
  double T = o->tf - o->t0;
  const double *guess = o->guess ? o->guess + (int64_t) k * (m->a->N - 1) : NULL;
  m->ta = o->t0 + T * k / W;
  m->tb = k == W - 1 ? o->tf : o->t0 + T * (k + 1) / W;
  m->wnum = k + 1;
  vm_newton_info_init (&m->info);
  st = march_window (m, o->estimate ? m->c : NULL, guess, Ntot);
  if (st == VM_OK && m->reason == VM_MARCH_REJ_COMPANION)
    {
      m->reason = 0;           /* fixed grid: no estimate for this window, not a failure */
      m->err = NAN;
    }
  if (st == VM_OK)
    st = march_add_history (m, s->nwin, &m->info);
  if (st == VM_OK)
    st = march_append_window (m, m->info.iterations, m->reason ? m->info.status : VM_OK);
  if (st == VM_OK && ! m->reason)
    st = fixed_check (m, k);
  if (st == VM_OK && m->reason)
    {
      st = m->reason == VM_MARCH_REJ_NEWTON ? m->info.status : VM_ENEWTON_STALL;
      snprintf (s->message, sizeof s->message, "window %d of %d [%.6g, %.6g]: %s: %s", k + 1,
                W, m->ta, m->tb, march_rej_name (m->reason), m->info.message);
    }
  if (st == VM_OK && o->display >= 2)
    {
      char est[64] = "";
      if (! isnan (m->err))
        snprintf (est, sizeof est, ", error estimate %.3g of the tolerance", m->err);
      say (o, "%s: window %d of %d [%.6g, %.6g]: %d Newton iterations%s\n", o->name, k + 1, W,
           m->ta, m->tb, m->info.iterations, est);
    }
  vm_newton_info_free (&m->info);
  if (st != VM_OK && ! s->message[0])
    snprintf (s->message, sizeof s->message, "window %d of %d [%.6g, %.6g]: %s", k + 1, W, m->ta,
              m->tb, vm_status_string (st));
  return st;
}

/* After a failed window: the nodes up to Ntot on the grid, with NaN values. */
static int
fill_failed (march_mem *m, int64_t Ntot)
{
  const vm_march_opts *o = m->o;
  vm_march_sol *s = m->s;
  double T = o->tf - o->t0;
  int64_t k0 = s->ntot, kk;
  int cc;
  if (march_grow_nodes (m, Ntot) != VM_OK)
    return VM_ENOMEM;
  for (kk = k0; kk < Ntot; kk++)
    {
      m->t[kk] = o->t0 + T * (double) kk / (double) (Ntot - 1);
      for (cc = 0; cc < s->nout; cc++)
        m->rows[kk * s->nout + cc] = NAN;
    }
  s->ntot = Ntot;
  return VM_OK;
}

/* The message of a converged march (with the unresolved checks and rounding). */
static void
fixed_message (march_mem *m)
{
  const vm_march_opts *o = m->o;
  vm_march_sol *s = m->s;
  int W = o->windows;
  snprintf (s->message, sizeof s->message, "converged: %d window%s of %lld nodes, %d Newton "
            "iterations", W, W == 1 ? "" : "s", (long long) m->a->N, s->iterations);
  {
    size_t len = strlen (s->message);
    double emax = -1.0;
    int k;
    for (k = 0; k < s->nwin; k++)
      if (! isnan (s->win_err[k]))
        emax = fmax (emax, s->win_err[k]);
    if (! o->estimate)
      snprintf (s->message + len, sizeof s->message - len, "; no error estimate (a fixed grid: "
                "ErrorEstimate 'on' gives one; error control, the default without N, Windows or "
                "Slabs, controls the error)");
    else if (emax < 0.0)
      snprintf (s->message + len, sizeof s->message - len, "; no error estimate (the companion "
                "order did not converge)");
    else
      snprintf (s->message + len, sizeof s->message - len, "; largest error estimate %.3g of "
                "the tolerance (RelTol %g, AbsTol %g)%s", emax, o->rtol, o->atol,
                emax > 1.0 ? ": the grid does not resolve the motion to the tolerance; give "
                "more nodes or windows, or use the error control (RelTol without N)" : "");
  }
  if (s->nunresolved > 0)
    {
      size_t len = strlen (s->message);
      snprintf (s->message + len, sizeof s->message - len, "; the %s check fails in %d of "
                "the %d windows (first %s): the grid does not resolve it, give more nodes or "
                "use error control", s->check_name, s->nunresolved, W, s->check_why);
    }
  march_round_note (s);
}

int
march_fixed (march_mem *m)
{
  int W = m->o->windows, k, st = VM_OK;
  int64_t Ntot = (int64_t) W * (m->a->N - 1) + 1;
  for (k = 0; k < W; k++)
    {
      st = fixed_window (m, k, Ntot);
      if (st != VM_OK)
        break;
      march_keep_previous (m);
    }
  if (st != VM_OK && m->s->nwin > 0 && m->s->nwin < W)
    {
      if (fill_failed (m, Ntot) != VM_OK)
        return VM_ENOMEM;
    }
  if (st == VM_OK)
    fixed_message (m);
  return st;
}
