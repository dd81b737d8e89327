/* ode_events.c -- event location for vm_ode_solve (integrate.h, "Events").
 *
 * Contract: after an accepted step [w->t, w->tn] the event functions are evaluated at the step
 * end (w->gnew; w->gold holds the values at the start).  An event k fires on a sign change from a
 * nonzero value in the direction event_dir allows; its time is located on the dense output by the
 * Illinois method to event_tol, at most 400 iterations, each one evaluation of the event functions
 * and one of the dense output (O(n + nevent)).  The located time is on the far side of the zero so
 * that a restart from the event state does not find the same crossing again.  Errors: the event
 * function's nonzero code, VM_ENONFINITE for non-finite event values, VM_ENOMEM.
 */
#include <math.h>
#include <string.h>

#include "reference/ode_mem.h"
#include "base/vm_status.h"

int
vm_ode_events_at (vm_ode_mem *w, double t, const double *y, double *g)
{
  int st;
  w->sol->ngev++;
  st = w->ev (t, y, g, w->ctx);
  if (st != 0)
    return st;
  return vm_ode_all_finite (w->nev, g) ? VM_OK : VM_ENONFINITE;
}

/* The zero of g_k in the step by the Illinois method on the dense output; the result is on the
 * far side of the sign change (g_k zero or of the sign it has at the step end). */
static int
locate_event (vm_ode_mem *w, int k, double *te)
{
  double a = w->t, b = w->tn, ga = w->gold[k], gb = w->gnew[k];
  const double dir = w->dir;
  double tol = w->event_tol;
  int side = 0, it, st;
  if (tol <= 0.0)
    tol = 1e-12 * fmax (1.0, fmax (fabs (a), fabs (b)));
  if (gb == 0.0)
    {
      *te = b;
      return VM_OK;
    }
  for (it = 0; it < 400; it++)
    {
      double c, lo, hi, gcv;
      if (fabs (b - a) <= tol)
        break;
      c = a - ga * (b - a) / (gb - ga);
      /* keep c at least tol/2 inside the bracket so that the bracket shrinks to tol */
      lo = a + dir * 0.5 * tol;
      hi = b - dir * 0.5 * tol;
      if (! isfinite (c) || (c - lo) * dir < 0.0)
        c = lo;
      if ((c - hi) * dir > 0.0)
        c = hi;
      vm_ode_dense_eval (w, c, w->yd);
      st = vm_ode_events_at (w, c, w->yd, w->gtmp);
      if (st != VM_OK)
        return st;
      gcv = w->gtmp[k];
      if (gcv == 0.0)
        {
          b = c;
          break;
        }
      if ((gcv > 0.0) == (ga > 0.0))
        {
          a = c;
          ga = gcv;
          if (side == -1)
            gb *= 0.5;
          side = -1;
        }
      else
        {
          b = c;
          gb = gcv;
          if (side == 1)
            ga *= 0.5;
          side = 1;
        }
    }
  *te = b;
  return VM_OK;
}

int
vm_ode_event_candidates (vm_ode_mem *w, int *ncp)
{
  const vm_ode_opts *o = w->o;
  int st, k, nc = 0, i;
  st = vm_ode_events_at (w, w->tn, w->yn, w->gnew);
  if (st != VM_OK)
    return st;
  for (k = 0; k < w->nev; k++)
    {
      const double go = w->gold[k], gn = w->gnew[k];
      const int dk = o->event_dir ? o->event_dir[k] : 0;
      const int rising = go < 0.0 && gn >= 0.0, falling = go > 0.0 && gn <= 0.0;
      double tk;
      if (! ((rising && dk >= 0) || (falling && dk <= 0)))
        continue;
      st = locate_event (w, k, &tk);
      if (st != VM_OK)
        return st;
      /* insertion into the candidates, ordered by time (stable in k) */
      for (i = nc; i > 0 && (w->cte[i - 1] - tk) * w->dir > 0.0; i--)
        {
          w->cte[i] = w->cte[i - 1];
          w->cidx[i] = w->cidx[i - 1];
        }
      w->cte[i] = tk;
      w->cidx[i] = k;
      nc++;
    }
  *ncp = nc;
  return VM_OK;
}

int
vm_ode_push_events (vm_ode_mem *w, int nc, int *terminal, double *tstop, const double **ystop)
{
  const vm_ode_opts *o = w->o;
  const int n = w->n;
  int st, j;
  for (j = 0; j < nc; j++)
    {
      const int kk = w->cidx[j];
      if (*terminal && w->cte[j] != *tstop)
        break;
      vm_ode_dense_eval (w, w->cte[j], w->yd);
      st = vm_ode_push_event (w->sol, n, w->cte[j], w->yd, kk);
      if (st != VM_OK)
        return st;
      if (! *terminal && o->event_terminal && o->event_terminal[kk])
        {
          *terminal = 1;
          *tstop = w->cte[j];
          memcpy (w->yev, w->yd, (size_t) n * sizeof (double));
          *ystop = w->yev;
        }
    }
  return VM_OK;
}
