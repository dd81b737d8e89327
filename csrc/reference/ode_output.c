/* ode_output.c -- the solution of vm_ode_solve as it grows: stored points and events, dense output,
 * and the bookkeeping after an accepted step (step check, events, output times, advance).
 *
 * Contract: push_* append to the arrays of a vm_ode_sol, growing them by doubling (amortized O(1)
 * per point; VM_ENOMEM when a length would overflow or realloc fails, the solution then intact up
 * to its last point).  vm_ode_dense_eval costs O(n) (one polynomial per component).  The
 * bookkeeping functions return VM_OK or the first error (a user code passed through unchanged).
 * The step check and the events run before the step is committed, so a rejection or a terminal
 * event leaves the current point where it was.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reference/ode_mem.h"
#include "base/vm_status.h"

int
vm_ode_all_finite (int n, const double *x)
{
  int i;
  for (i = 0; i < n; i++)
    if (! isfinite (x[i]))
      return 0;
  return 1;
}

static int
grow (void **p, size_t *cap, size_t need, size_t elsz)
{
  size_t nc;
  void *q;
  if (need <= *cap)
    return VM_OK;
  nc = *cap ? *cap : 64;
  while (nc < need)
    {
      if (nc > SIZE_MAX / 2)
        return VM_ENOMEM;
      nc *= 2;
    }
  if (nc > SIZE_MAX / elsz)
    return VM_ENOMEM;
  q = realloc (*p, nc * elsz);
  if (q == NULL)
    return VM_ENOMEM;
  *p = q;
  *cap = nc;
  return VM_OK;
}

int
vm_ode_push_point (vm_ode_sol *s, int n, double t, const double *y)
{
  size_t m = s->npts + 1;
  if (m > SIZE_MAX / (size_t) n)
    return VM_ENOMEM;
  if (grow ((void **) &s->t, &s->cap_t, m, sizeof (double))
      || grow ((void **) &s->y, &s->cap_y, m * (size_t) n, sizeof (double)))
    return VM_ENOMEM;
  s->t[s->npts] = t;
  memcpy (s->y + s->npts * (size_t) n, y, (size_t) n * sizeof (double));
  s->npts = m;
  return VM_OK;
}

int
vm_ode_push_event (vm_ode_sol *s, int n, double t, const double *y, int k)
{
  size_t m = s->nevents + 1;
  if (m > SIZE_MAX / (size_t) n)
    return VM_ENOMEM;
  if (grow ((void **) &s->te, &s->cap_te, m, sizeof (double))
      || grow ((void **) &s->ie, &s->cap_ie, m, sizeof (int))
      || grow ((void **) &s->ye, &s->cap_ye, m * (size_t) n, sizeof (double)))
    return VM_ENOMEM;
  s->te[s->nevents] = t;
  s->ie[s->nevents] = k;
  memcpy (s->ye + s->nevents * (size_t) n, y, (size_t) n * sizeof (double));
  s->nevents = m;
  return VM_OK;
}

int
vm_ode_rhs (vm_ode_mem *w, double t, const double *y, double *dy)
{
  w->sol->nfev++;
  return w->f (t, y, dy, w->ctx);
}

/* The explicit Runge-Kutta methods use their continuous extension; the fixed-step methods the
 * cubic Hermite interpolant of the step-end values and derivatives, which needs nothing beyond
 * what the step computed. */
void
vm_ode_dense_eval (const vm_ode_mem *w, double tq, double *out)
{
  const int n = w->n;
  const double h = w->tn - w->t;
  const double th = (tq - w->t) / h, th1 = 1.0 - th;
  int i;
  if (tq == w->tn)
    {
      memcpy (out, w->yn, (size_t) n * sizeof (double));
      return;
    }
  if (tq == w->t)
    {
      memcpy (out, w->y, (size_t) n * sizeof (double));
      return;
    }
  if (w->erk != NULL)
    w->erk->dense_eval (w, th, out);
  else
    {
      /* h00 = (1 + 2 th) th1^2, h10 = th th1^2, h01 = th^2 (3 - 2 th), h11 = -th^2 th1 */
      const double h00 = (1.0 + 2.0 * th) * th1 * th1, h10 = th * th1 * th1 * h;
      const double h01 = th * th * (3.0 - 2.0 * th), h11 = -th * th * th1 * h;
      for (i = 0; i < n; i++)
        out[i] = h00 * w->y[i] + h10 * w->fy[i] + h01 * w->yn[i] + h11 * w->fn[i];
    }
}

/* the output points of the step up to tstop (all w->tout there, else tstop itself) */
static int
push_outputs (vm_ode_mem *w, int terminal, double tstop, const double *ystop)
{
  vm_ode_sol *sol = w->sol;
  const int n = w->n;
  int st;
  if (w->ntout > 0)
    {
      while (w->iout < w->ntout && (w->tout[w->iout] - tstop) * w->dir <= 0.0)
        {
          const double tq = w->tout[w->iout];
          if (tq == tstop)
            st = vm_ode_push_point (sol, n, tq, ystop);
          else
            {
              vm_ode_dense_eval (w, tq, w->yd);
              st = vm_ode_push_point (sol, n, tq, w->yd);
            }
          if (st != VM_OK)
            return st;
          w->iout++;
        }
      if (terminal && ! (sol->npts > 0 && sol->t[sol->npts - 1] == tstop))
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
