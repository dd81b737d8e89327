/* ode_output.c -- the solution of vm_ode_solve as it grows: stored points, output points and
 * events, the counted call of F, and the dense output of the step just taken.
 *
 * Contract: push_* append to the arrays of a vm_ode_sol, growing them by doubling (amortized O(1)
 * per point; VM_ENOMEM when a length would overflow or realloc fails, the solution then intact up
 * to its last point).  vm_ode_dense_eval costs O(n) (one polynomial per component).  Why the
 * bookkeeping after a step is elsewhere (ode_accept.c): it calls the event location, which calls
 * the dense output here, so this file stays at the bottom and calls neither. */
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
vm_ode_push_output (vm_ode_sol *s, int n, double t, const double *y)
{
  size_t m = s->nout + 1;
  if (m > SIZE_MAX / (size_t) n)
    return VM_ENOMEM;
  if (grow ((void **) &s->tq, &s->cap_tq, m, sizeof (double))
      || grow ((void **) &s->yq, &s->cap_yq, m * (size_t) n, sizeof (double)))
    return VM_ENOMEM;
  s->tq[s->nout] = t;
  memcpy (s->yq + s->nout * (size_t) n, y, (size_t) n * sizeof (double));
  s->nout = m;
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
