/* march_adaptive.c -- the error control of the march (march.h, mode windows = 0): each window
 * solved at two orders, accepted when the estimate is within the tolerance, the next length from
 * the estimate; the stops (MaxWindows, a stalled march, a length below hmin) with messages that
 * say where and why.
 *
 * Returns VM_OK (s->message: the converged summary), VM_EMAXSTEPS, VM_EHMIN, or an error of the
 * action.  Cost: one main and one companion Newton solve (plus the repeats) per attempt.  Why the
 * exponent 1/(p+2): the local error of order p+2 in the window length L (the max-norm order p+1
 * of the SBP-SAT scheme in h = L/(N-1), times L); the estimate grows more slowly in practice, so
 * this exponent is the cautious choice (doc/skg.md, "Controller"). */
#include "march/march_impl.h"
#include "sbp/sbp.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The advice for an accuracy floor: raise the order to one of (at most) the two largest orders
 * above this one, while there is one (sbp.h: the list of orders). */
static void
floor_advice (int order, char *buf, size_t nbuf)
{
  int k, n = vm_sbp_order_count (), above[2], na = 0;
  for (k = n - 1; k >= 0 && na < 2; k--)
    if (vm_sbp_order_at (k) > order)
      above[na++] = vm_sbp_order_at (k);
  if (na == 0)
    snprintf (buf, nbuf, "Loosen RelTol/AbsTol");
  else if (na == 1)
    snprintf (buf, nbuf, "Raise Order (%d) or loosen RelTol/AbsTol", above[0]);
  else
    snprintf (buf, nbuf, "Raise Order (%d or %d) or loosen RelTol/AbsTol", above[1], above[0]);
}

/* The message of a window length that fell below hmin at m->tnow. */
static void
collapse_message (march_mem *m, double hmin)
{
  vm_march_sol *s = m->s;
  const march_last_rej *lr = &m->lr;
  const double t = m->tnow, L = m->L;
  char why[400] = "none rejected", advice[96];
  floor_advice (m->a->order, advice, sizeof advice);
  if (lr->reason == VM_MARCH_REJ_ERROR)
    snprintf (why, sizeof why, "%s (estimate %.3g of the tolerance)", march_rej_name (lr->reason),
              lr->err);
  else if (lr->reason == VM_MARCH_REJ_CHECK)
    snprintf (why, sizeof why, "%s check: %s", s->check_name, lr->why);
  else if (lr->reason)
    snprintf (why, sizeof why, "%s", march_rej_name (lr->reason));
  if (lr->reason == VM_MARCH_REJ_ERROR && lr->ta == t && lr->min_err < 0.5 * lr->err)
    /* shorter windows made the estimate worse: not a resolution problem but a floor */
    snprintf (s->message, sizeof s->message, "stopped at t = %.9g: the window length fell to "
              "%.3g, below the minimum %.3g; the last attempt: %s. The error estimate grew as the "
              "window shrank (smallest %.3g of the tolerance, at length %.3g): the tolerance is "
              "below the accuracy floor of this order on N nodes (rounding). %s", t, L, hmin,
              why, lr->min_err, lr->min_len, advice);
  else
    snprintf (s->message, sizeof s->message, "stopped at t = %.9g: the window length fell to "
              "%.3g, below the minimum %.3g; the last attempt: %s. Loosen RelTol/AbsTol, give "
              "more nodes per window (N), or check the model near this time", t, L, hmin, why);
}

/* Record the rejection of [m->ta, m->tb] (m->reason, m->err) and set m->L to the retry's length:
 * the check's factor fchk (its text why), or from the estimate, or half after a failed Newton
 * solve. */
static int
reject (march_mem *m, double fchk, const char *why)
{
  const vm_march_opts *o = m->o;
  vm_march_sol *s = m->s;
  march_last_rej *lr = &m->lr;
  const double ta = m->ta, tb = m->tb, err = m->err;
  const int reason = m->reason;
  double f = reason == VM_MARCH_REJ_CHECK ? fchk
             : reason == VM_MARCH_REJ_ERROR && isfinite (err) ? fmax (0.1, 0.9 * pow (err, -m->expo))
             : 0.5;
  if (o->display >= 2)
    say (o, "%s: window [%.6g, %.6g] rejected: %s%s%s (estimate %.3g of the tolerance); "
         "length %.3g -> %.3g\n", o->name, ta, tb,
         reason == VM_MARCH_REJ_CHECK ? s->check_name : march_rej_name (reason),
         reason == VM_MARCH_REJ_CHECK ? " check: " : "",
         reason == VM_MARCH_REJ_CHECK ? why : "", err, tb - ta, (tb - ta) * fmin (f, 0.9));
  snprintf (lr->why, sizeof lr->why, "%s", reason == VM_MARCH_REJ_CHECK ? why : "");
  lr->reason = reason;
  lr->err = err;
  if (reason == VM_MARCH_REJ_ERROR && isfinite (err) && (lr->ta != ta || err < lr->min_err))
    {
      lr->ta = ta;             /* a new window start, or a smaller estimate for this one */
      lr->min_err = err;
      lr->min_len = tb - ta;
    }
  m->L = (tb - ta) * fmin (f, 0.9);
  return march_add_rejection (m, ta, tb - ta, reason, err);
}

/* Accept [m->ta, m->tb]: output, history, the next length m->L (at most the present one after a
 * rejection). */
static int
accept (march_mem *m)
{
  const vm_march_opts *o = m->o;
  vm_march_sol *s = m->s;
  const vm_newton_info *info = &m->info;
  int st;
  double f = m->err > 0.0 ? 0.9 * pow (m->err, -m->expo) : 4.0;
  if ((st = march_add_history (m, s->nwin, info)) != VM_OK
      || (st = march_append_window (m, info->iterations, VM_OK)) != VM_OK)
    return st;
  if (o->display >= 2)
    say (o, "%s: window %d [%.6g, %.6g] accepted: error estimate %.3g of the tolerance, "
         "Newton iterations %d + %d (companion)\n", o->name, s->nwin, m->ta, m->tb, m->err,
         info->iterations, m->citer);
  march_keep_previous (m);
  f = fmin (4.0, fmax (0.2, f));
  if (m->rejected)
    f = fmin (f, 1.0);
  m->L = fmin ((m->tb - m->ta) * f, m->hmax);
  return VM_OK;
}

/* The stops before an attempt at m->tnow with length m->L (MaxWindows, a stall, a length below
 * hmin), with their messages; updates the checkpoint of the stall test. */
static int
guard (march_mem *m)
{
  const vm_march_opts *o = m->o;
  vm_march_sol *s = m->s;
  const double t = m->tnow, L = m->L, lbig = m->lbig;
  const int attempts = m->attempts;
  double T = o->tf - o->t0;
  double hmin = o->hmin > 0.0 ? o->hmin : vm_march_hmin (t, T, m->a->N);
  if (attempts >= o->max_windows)
    {
      snprintf (s->message, sizeof s->message, "stopped at t = %.9g after %d windows "
                "(accepted and rejected; MaxWindows): at the present window length %.3g the "
                "rest of the interval needs about %.3g more; the problem needs more windows "
                "than allowed, or is too stiff for the tolerance", t, attempts, L,
                (o->tf - t) / L);
      return VM_EMAXSTEPS;
    }
  if (attempts > 0 && attempts % VM_MARCH_STALL_WINDOWS == 0)
    {
      /* fail fast: the window length has not doubled over the last VM_MARCH_STALL_WINDOWS
       * attempts, and the rest of the interval needs more than VM_MARCH_STALL_FACTOR times the
       * windows that MaxWindows leaves, at the longest length accepted so far or at the pace of
       * those attempts (windows that stay far below the longest one, and rejections) */
      const double left = VM_MARCH_STALL_FACTOR * (double) (o->max_windows - attempts);
      const double need = (o->tf - t) / fmax (lbig, L);
      const double pace = t > m->t_check ? (o->tf - t) / (t - m->t_check) * VM_MARCH_STALL_WINDOWS
                                         : INFINITY;
      if (lbig < 2.0 * m->lbig_check && (need > left || pace > left))
        {
          if (need > left)
            snprintf (s->message, sizeof s->message, "stopped early at t = %.9g after %d "
                      "windows: the window length has stayed at most %.3g over the last %d "
                      "windows, and at that length the rest of the interval needs about %.3g "
                      "more windows, over %d times the %d that MaxWindows (%d) leaves: the "
                      "problem needs more windows than allowed; shorten tspan or loosen "
                      "RelTol/AbsTol", t, attempts, fmax (lbig, L), VM_MARCH_STALL_WINDOWS,
                      need, VM_MARCH_STALL_FACTOR, o->max_windows - attempts, o->max_windows);
          else
            snprintf (s->message, sizeof s->message, "stopped early at t = %.9g after %d "
                      "windows: the last %d windows advanced t by %.3g (the longest window "
                      "%.3g), and at that pace the rest of the interval needs about %.3g more, "
                      "over %d times the %d that MaxWindows (%d) leaves: the problem needs more "
                      "windows than allowed; shorten tspan or loosen RelTol/AbsTol", t,
                      attempts, VM_MARCH_STALL_WINDOWS, t - m->t_check, fmax (lbig, L), pace,
                      VM_MARCH_STALL_FACTOR, o->max_windows - attempts, o->max_windows);
          return VM_EMAXSTEPS;
        }
      m->lbig_check = lbig;
      m->t_check = t;
    }
  if (L < hmin)
    {
      collapse_message (m, hmin);
      return VM_EHMIN;
    }
  return VM_OK;
}

/* One attempt at [m->ta, m->tb], accepted or rejected (m->reason), m->L the next length, m->err
 * the estimate. */
static int
attempt (march_mem *m)
{
  vm_march_sol *s = m->s;
  double fchk = 0.5;
  int st;
  char why[320] = "";
  m->wnum = s->nwin + 1;
  vm_newton_info_init (&m->info);
  st = march_window (m, m->c, NULL, 0);
  if (st == VM_OK && ! m->reason && ! (m->err <= 1.0))
    m->reason = VM_MARCH_REJ_ERROR;
  if (st == VM_OK && ! m->reason)
    st = march_check_window (m, &m->reason, &fchk, why, sizeof why);
  if (st != VM_OK)
    snprintf (s->message, sizeof s->message, "window [%.9g, %.9g]: %s", m->ta, m->tb,
              vm_status_string (st));
  else if (m->reason)
    st = reject (m, fchk, why);
  else
    st = accept (m);
  vm_newton_info_free (&m->info);
  return st;
}

/* Bound m->L after an attempt that failed in Newton: the retry's length (half the failed one)
 * becomes a cap, which grows by VM_MARCH_NEWTON_CAP_GROWTH with each accepted window (march.h).
 * Why: a problem whose Newton solves fail above some length while the estimate allows 4 times
 * more (a stiff one on its slow manifold) would otherwise cycle between growth and failures. */
static void
newton_cap (march_mem *m)
{
  if (m->reason == VM_MARCH_REJ_NEWTON || m->reason == VM_MARCH_REJ_COMPANION)
    m->lcap = m->L;
  else if (! m->reason)
    m->lcap *= VM_MARCH_NEWTON_CAP_GROWTH;
  m->L = fmin (m->L, m->lcap);
}

int
march_adaptive (march_mem *m)
{
  const vm_march_opts *o = m->o;
  vm_march_sol *s = m->s;
  double T = o->tf - o->t0, emax = 0.0;
  int st = VM_OK;
  m->tnow = o->t0;
  m->expo = 1.0 / (m->a->order + 2);
  m->lbig = m->lbig_check = 0.0;
  m->t_check = o->t0;
  m->lcap = INFINITY;
  m->attempts = m->rejected = 0;
  memset (&m->lr, 0, sizeof m->lr);
  m->lr.ta = NAN;
  m->hmax = o->hmax > 0.0 ? fmin (o->hmax, T) : T;
  m->L = fmin (o->h0 > 0.0 ? o->h0 : T / 16.0, m->hmax);
  while (m->tnow < o->tf)
    {
      if ((st = guard (m)) != VM_OK)
        return st;
      m->ta = m->tnow;
      m->tb = o->tf - m->tnow <= 1.1 * m->L ? o->tf : m->tnow + m->L;
      m->attempts++;
      if ((st = attempt (m)) != VM_OK)
        return st;
      if (! m->reason)
        {
          emax = fmax (emax, m->err);
          m->lbig = fmax (m->lbig, m->tb - m->ta);
          m->tnow = m->tb;
        }
      m->rejected = m->reason != 0;
      newton_cap (m);
    }
  snprintf (s->message, sizeof s->message, "converged: %d windows of %lld nodes (%d rejected), "
            "%d Newton iterations, largest error estimate %.3g of the tolerance", s->nwin,
            (long long) m->a->N, s->nrej, s->iterations, emax);
  march_round_note (s);
  return VM_OK;
}
