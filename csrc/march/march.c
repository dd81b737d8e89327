/* march.c -- the helpers at the bottom of the march (march.h, march_impl.h): the options'
 * defaults, the SBP facts it asks sbp.h for (companion order, smallest N), the shortest window,
 * the solution's lifetime, and the rounding-level note that both drivers add to their message.
 *
 * Errors: none (the functions fill or free what they are given).  Cost: O(1), the note
 * O(length of the message).  Why these sit apart from the entry (march_run.c): the drivers and
 * the gateways need them, and the entry needs the drivers, so every arrow between the files
 * points down. */
#include "march/march_impl.h"
#include "sbp/sbp.h"
#include "base/vm_schema.h"
#include "base/vm_scratch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
vm_march_opts_init (vm_march_opts *o)
{
  if (! o)
    return;
  memset (o, 0, sizeof *o);
  o->t0 = 0.0;
  o->tf = 1.0;
  o->windows = 0;
  /* the public defaults of the marching solvers' options: one place, the schema */
  o->rtol = vm_schema_default (NULL, "RelTol");
  o->atol = vm_schema_default (NULL, "AbsTol");
  o->max_windows = (int) vm_schema_default (NULL, "MaxWindows");
  vm_newton_opts_init (&o->newton);
  o->name = "march";
}

int
vm_march_companion_order (int order)
{
  return vm_sbp_companion_order (order);
}

int64_t
vm_march_min_n (int order, int with_companion)
{
  int64_t a = vm_sbp_min_n (order), b;
  if (a < 0 || ! with_companion)
    return a;
  b = vm_sbp_min_n (vm_march_companion_order (order));
  return a > b ? a : b;
}

void
vm_march_sol_init (vm_march_sol *s)
{
  if (s)
    memset (s, 0, sizeof *s);
}

void
vm_march_sol_free (vm_march_sol *s)
{
  if (! s)
    return;
  vm_scratch_free (s->t);
  vm_scratch_free (s->traj);
  free (s->win_t0);
  free (s->win_t1);
  free (s->win_err);
  free (s->win_iter);
  free (s->win_citer);
  free (s->win_status);
  free (s->win_first);
  free (s->rej_t0);
  free (s->rej_len);
  free (s->rej_err);
  free (s->rej_reason);
  free (s->hist_win);
  free (s->res_hist);
  free (s->step_hist);
  free (s->lambda_hist);
  free (s->kind_hist);
  memset (s, 0, sizeof *s);
}

double
vm_march_hmin (double t, double T, int64_t N)
{
  double h = 1e-12 * (fabs (t) + fmin (1.0, T)) * (double) (N - 1);
  return fmax (h, 1e-100 * (double) (N - 1));
}

/* ---- the notes of the final message ------------------------------------------------------------ */

/* Append to the message when Newton stopped at the rounding level above Tol somewhere; when that
 * level reached the residual scale itself (VM_MARCH_ROUND_UNRESOLVED), say that the error
 * estimate does not bound the error (and vm_march returns VM_EUNRESOLVED).  Why: then the two
 * orders can agree within the tolerance while both are off by more (states scaled far from their
 * weights), so the estimate alone would pass a wrong solution (doc/dual.md, "Limitations"). */
void
march_round_note (vm_march_sol *s)
{
  size_t len = strlen (s->message);
  if (s->nround > 0 && len < sizeof s->message)
    snprintf (s->message + len, sizeof s->message - len, "; in %d solve%s Newton stopped at the "
              "rounding level of the residual, %.3g (relative), above its tolerance %.3g, which "
              "cannot be reached there%s", s->nround, s->nround == 1 ? "" : "s", s->round_res,
              s->round_tol, s->round_res >= VM_MARCH_ROUND_UNRESOLVED ? ": that level is not "
              "below the error tolerance, so the error estimate does not bound the error; "
              "loosen RelTol/AbsTol or rescale the states (for dual_solve: the weights c_i ~ 10 "
              "/ X_i^2 with X_i the size of state i, or the default c)" : "");
}
