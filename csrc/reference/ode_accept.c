/* ode_accept.c -- the bookkeeping after a step of vm_ode_solve that the method accepted: the step
 * check, the events of the step (ode_events.c), the output points (ode_output.c), and the move of
 * the current point to the step's end.  The adaptive driver (erk.c) and the fixed-step grid
 * (ode_fixed.c) call it.
 *
 * Contract: the functions return VM_OK or the first error (a user code passed through unchanged).
 * The step check and the events run before the step is committed, so a rejection or a terminal
 * event leaves the current point where it was.  Cost: O(n) per output point and the event
 * location's (ode_events.c).  Why a file of its own: it sits above both the events and the
 * output, which then never call each other in a circle.
 */
#include <math.h>

#include "reference/ode_mem.h"
#include "base/vm_status.h"

/* the output points of the step up to tstop (all w->tout there, else tstop itself; with
 * keep_steps the output times apart and tstop as a step) */
static int
push_outputs (vm_ode_mem *w, int terminal, double tstop, const double *ystop)
{
  vm_ode_sol *sol = w->sol;
  const int n = w->n, keep = w->o->keep_steps;
  int st;
  if (w->ntout > 0)
    {
      while (w->iout < w->ntout && (w->tout[w->iout] - tstop) * w->dir <= 0.0)
        {
          const double tq = w->tout[w->iout];
          const double *yq = ystop;
          if (tq != tstop)
            {
              vm_ode_dense_eval (w, tq, w->yd);
              yq = w->yd;
            }
          st = keep ? vm_ode_push_output (sol, n, tq, yq) : vm_ode_push_point (sol, n, tq, yq);
          if (st != VM_OK)
            return st;
          w->iout++;
        }
      if (keep || (terminal && ! (sol->npts > 0 && sol->t[sol->npts - 1] == tstop)))
        {
          st = vm_ode_push_point (sol, n, tstop, ystop);
          if (st != VM_OK)
            return st;
        }
    }
  else
    {
      st = vm_ode_push_point (sol, n, tstop, ystop);
      if (st != VM_OK)
        return st;
    }
  return VM_OK;
}

/* After a terminal event w->tn, w->yn are left as they are; the event is sol->te[last] and
 * sol->t_end is set. */
int
vm_ode_after_step (vm_ode_mem *w, int *terminal)
{
  double tstop = w->tn;
  const double *ystop = w->yn;
  int st, nc = 0;
  *terminal = 0;

  if (w->nev > 0)
    {
      st = vm_ode_event_candidates (w, &nc);
      if (st != VM_OK)
        return st;
      st = vm_ode_push_events (w, nc, terminal, &tstop, &ystop);
      if (st != VM_OK)
        return st;
    }
  st = push_outputs (w, *terminal, tstop, ystop);
  if (st != VM_OK)
    return st;
  if (*terminal)
    w->sol->t_end = tstop;
  return VM_OK;
}

/* swaps the buffers of the two ends, so no state vector is copied */
void
vm_ode_advance (vm_ode_mem *w)
{
  double *p;
  p = w->y;
  w->y = w->yn;
  w->yn = p;
  p = w->fy;
  w->fy = w->fn;
  w->fn = p;
  w->t = w->tn;
  if (w->nev > 0)
    {
      p = w->gold;
      w->gold = w->gnew;
      w->gnew = p;
    }
  w->sol->t_end = w->t;
}

/* The step check of a step [w->t, tn] that the method accepted (new state in w->yn).  *ok = 0:
 * rejected, *factor in [1e-6, 1) the suggested fraction of the step (0.5 for NaN).  *ok = 1:
 * accepted, w->hlim the bound on the next step.  Returns the check's nonzero code, else VM_OK. */
int
vm_ode_check_step (vm_ode_mem *w, double tn, int *ok, double *factor)
{
  double f = 1.0, hn = HUGE_VAL;
  int st;
  *ok = 1;
  *factor = 1.0;
  w->hlim = HUGE_VAL;
  if (w->o->step_check == NULL)
    return VM_OK;
  st = w->o->step_check (w->t, w->y, tn, w->yn, &f, &hn, w->ctx);
  if (st != 0)
    return st;
  if (! (f >= 1.0))
    {
      *ok = 0;
      *factor = isnan (f) ? 0.5 : fmax (f, 1e-6);
      w->sol->nreject++;
      w->sol->ncheck_reject++;
      return VM_OK;
    }
  if (hn > 0.0)
    w->hlim = hn;
  return VM_OK;
}
