/* integrate.c -- vm_ode_solve (integrate.h): arguments, the memory of one call, the start, and the
 * dispatch to the adaptive explicit Runge-Kutta driver (erk.c) or the fixed-step one (ode_fixed.c).
 *
 * Contract: see integrate.h.  All work storage is one block of doubles and one of ints allocated
 * per call (O(n) for the explicit methods, O((s n)^2) for Gauss), so the only allocations during
 * the integration are the amortized growth of the solution arrays (ode_output.c).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reference/integrate.h"
#include "reference/ode_mem.h"
#include "base/vm_status.h"

void
vm_ode_opts_init (vm_ode_opts *opts, int method)
{
  if (opts == NULL)
    return;
  memset (opts, 0, sizeof *opts);
  opts->method = method;
  opts->rtol = 1e-6;
  opts->atol = 1e-9;
}

void
vm_ode_sol_init (vm_ode_sol *sol)
{
  if (sol != NULL)
    memset (sol, 0, sizeof *sol);
}

void
vm_ode_sol_free (vm_ode_sol *sol)
{
  if (sol == NULL)
    return;
  free (sol->t);
  free (sol->y);
  free (sol->te);
  free (sol->ye);
  free (sol->ie);
  free (sol->tq);
  free (sol->yq);
  memset (sol, 0, sizeof *sol);
}

/* the arguments of vm_ode_solve (sys not NULL): VM_OK, VM_EARG or VM_ETSPAN */
static int
validate (const vm_ode_system *sys, double t0, double tf, const double *y0, const double *tout,
          size_t ntout, const vm_ode_opts *o)
{
  const double dir = tf > t0 ? 1.0 : -1.0;
  const int n = sys->n;
  size_t i;
  int k;
  if (n < 1 || sys->f == NULL || y0 == NULL)
    return VM_EARG;
  if (! isfinite (t0) || ! isfinite (tf) || t0 == tf)
    return VM_ETSPAN;
  if (! vm_ode_all_finite (n, y0))
    return VM_EARG;
  if (o->method < VM_ODE_DOPRI5 || o->method > VM_ODE_DOP853)
    return VM_EARG;
  if (o->method == VM_ODE_DOPRI5 || o->method == VM_ODE_DOP853)
    {
      if (! (o->rtol > 0.0) || ! isfinite (o->rtol) || ! (o->atol >= 0.0) || ! isfinite (o->atol)
          || ! (o->h0 >= 0.0) || ! isfinite (o->h0) || ! (o->hmax >= 0.0) || ! isfinite (o->hmax))
        return VM_EARG;
    }
  else
    {
      if (! (o->h > 0.0) || ! isfinite (o->h))
        return VM_EARG;
      if (o->method != VM_ODE_RK4
          && (! (o->newton_tol >= 0.0) || ! isfinite (o->newton_tol) || o->newton_maxit < 0))
        return VM_EARG;
      if ((o->method == VM_ODE_GL4 && n > 23170) || (o->method == VM_ODE_GL6 && n > 15446))
        return VM_EARG;         /* (s n)^2 must fit the 32-bit LAPACK interface */
    }
  if (o->max_steps < 0 || o->nevent < 0 || ! (o->event_tol >= 0.0) || ! isfinite (o->event_tol))
    return VM_EARG;
  if (o->nevent > 0)
    {
      if (sys->ev == NULL)
        return VM_EARG;
      if (o->event_dir)
        for (k = 0; k < o->nevent; k++)
          if (o->event_dir[k] < -1 || o->event_dir[k] > 1)
            return VM_EARG;
    }
  if (ntout > 0)
    {
      if (tout == NULL)
        return VM_EARG;
      for (i = 0; i < ntout; i++)
        {
          if (! isfinite (tout[i]) || (tout[i] - t0) * dir < 0.0 || (tout[i] - tf) * dir > 0.0)
            return VM_EARG;
          if (i > 0 && ! ((tout[i] - tout[i - 1]) * dir > 0.0))
            return VM_EARG;
        }
    }
  return VM_OK;
}

/* the counters and status of sol, reset for a new solve */
static void
sol_reset (vm_ode_sol *sol, int n, double t0)
{
  sol->npts = 0;
  sol->nevents = 0;
  sol->nout = 0;
  sol->nsteps = sol->naccept = sol->nreject = sol->nfev = sol->nnewton_iter = 0;
  sol->ncheck_reject = 0;
  sol->njac = sol->nlu = sol->ngev = 0;
  sol->n = n;
  sol->t_end = t0;
}


/* the memory's problem data and settings (no arrays yet) */
static void
mem_init (vm_ode_mem *w, const vm_ode_system *sys, double t0, double tf, const double *tout,
          size_t ntout, const vm_ode_opts *opts, vm_ode_sol *sol)
{
  memset (w, 0, sizeof *w);
  w->n = sys->n;
  w->method = opts->method;
  w->nev = opts->nevent;
  w->f = sys->f;
  w->ev = sys->ev;
  w->ctx = sys->ctx;
  w->o = opts;
  w->sol = sol;
  w->t0 = t0;
  w->tf = tf;
  w->dir = tf > t0 ? 1.0 : -1.0;
  w->tout = ntout > 0 ? tout : NULL;
  w->ntout = ntout;
  w->dense = ntout > 0 || w->nev > 0;
  w->event_tol = opts->event_tol;
  w->hlim = HUGE_VAL;
  w->s = w->method == VM_ODE_GL4 ? 2 : w->method == VM_ODE_GL6 ? 3 : 0;
  w->erk = w->method == VM_ODE_DOPRI5 ? &vm_erk_dopri5
           : w->method == VM_ODE_DOP853 ? &vm_erk_dop853 : NULL;
}

/* the memory's arrays, carved from one block of doubles (*mem) and one of ints (*imem):
 * y fy yn fn yd yev ytmp (7n), k (explicit RK: the table's nk n, else 5n), rc (the table's nrc n,
 * else 4n), events (4 nev), Gauss: Z Zp Fz r (4 sn), comp compn (2n), J (n^2), M (sn^2) */
static int
mem_alloc (vm_ode_mem *w, double **mem, int **imem)
{
  const int n = w->n;
  size_t nd, ni, off, sn, nn, nk, nrc;
  sn = (size_t) w->s * (size_t) n;
  nn = (size_t) n * (size_t) n;
  nk = (size_t) (w->erk ? w->erk->nk : 5) * (size_t) n;
  nrc = (size_t) (w->erk ? w->erk->nrc : 4) * (size_t) n;
  nd = 7 * (size_t) n + nk + nrc + 4 * (size_t) w->nev;
  if (w->s > 0)
    {
      if ((size_t) n > SIZE_MAX / sizeof (double) / (size_t) n / 16)
        return VM_ENOMEM;
      nd += 4 * sn + 2 * (size_t) n + nn + sn * sn;
    }
  ni = sn + (size_t) w->nev + 1;
  *mem = malloc (nd * sizeof (double));
  *imem = malloc (ni * sizeof (int));
  if (*mem == NULL || *imem == NULL)
    return VM_ENOMEM;
  off = 0;
#define TAKE(ptr, len) (ptr = *mem + off, off += (len))
  TAKE (w->y, n);
  TAKE (w->fy, n);
  TAKE (w->yn, n);
  TAKE (w->fn, n);
  TAKE (w->yd, n);
  TAKE (w->yev, n);
  TAKE (w->ytmp, n);
  TAKE (w->k, nk);
  TAKE (w->rc, nrc);
  TAKE (w->gold, w->nev);
  TAKE (w->gnew, w->nev);
  TAKE (w->gtmp, w->nev);
  TAKE (w->cte, w->nev);
  if (w->s > 0)
    {
      TAKE (w->Z, sn);
      TAKE (w->Zp, sn);
      TAKE (w->Fz, sn);
      TAKE (w->r, sn);
      TAKE (w->comp, n);
      TAKE (w->compn, n);
      TAKE (w->J, nn);
      TAKE (w->M, sn * sn);
      memset (w->comp, 0, (size_t) n * sizeof (double));
      vm_gl_setup (w);
    }
#undef TAKE
  w->ipiv = *imem;
  w->cidx = *imem + sn;
  return VM_OK;
}

/* the initial point: stored (unless output times start later), F and the events there */
static int
start_point (vm_ode_mem *w, const double *y0)
{
  const int n = w->n;
  const double t0 = w->t0;
  int st = VM_OK;
  w->t = t0;
  memcpy (w->y, y0, (size_t) n * sizeof (double));
  if (w->ntout == 0 || w->o->keep_steps)
    st = vm_ode_push_point (w->sol, n, t0, y0);
  if (st == VM_OK && w->ntout > 0 && w->tout[0] == t0)
    {
      st = w->o->keep_steps ? vm_ode_push_output (w->sol, n, t0, y0)
                            : vm_ode_push_point (w->sol, n, t0, y0);
      w->iout = 1;
    }
  if (st != VM_OK)
    return st;
  st = vm_ode_rhs (w, t0, w->y, w->fy);
  if (st != 0)
    return st;
  if (! vm_ode_all_finite (n, w->fy))
    return VM_ENONFINITE;
  if (w->nev > 0)
    return vm_ode_events_at (w, t0, w->y, w->gold);
  return VM_OK;
}

/* the integration by the method chosen; VM_STOP_EVENT after a terminal event */
static int
run_method (vm_ode_mem *w)
{
  int st = VM_OK, terminal = 0;
  if (w->erk != NULL)
    st = vm_erk_run (w, &terminal);
  else
    {
      if (w->s > 0)
        st = vm_gl_jacobian (w);
      if (st == VM_OK)
        st = vm_ode_run_fixed (w, &terminal);
    }
  if (st == VM_OK && terminal)
    st = VM_STOP_EVENT;
  return st;
}

int
vm_ode_solve (const vm_ode_system *sys, double t0, double tf, const double *y0,
              const double *tout, size_t ntout, const vm_ode_opts *opts, vm_ode_sol *sol)
{
  vm_ode_opts defo;
  vm_ode_mem w;
  double *mem = NULL;
  int *imem = NULL;
  int st;

  if (sol == NULL)
    return VM_EARG;
  sol_reset (sol, sys != NULL ? sys->n : 0, t0);
  if (opts == NULL)
    {
      vm_ode_opts_init (&defo, VM_ODE_DOPRI5);
      opts = &defo;
    }
  st = sys == NULL ? VM_EARG : validate (sys, t0, tf, y0, tout, ntout, opts);
  if (st != VM_OK)
    {
      sol->status = st;
      return st;
    }
  mem_init (&w, sys, t0, tf, tout, ntout, opts, sol);
  if ((st = mem_alloc (&w, &mem, &imem)) == VM_OK && (st = start_point (&w, y0)) == VM_OK)
    st = run_method (&w);
  free (mem);
  free (imem);
  sol->status = st;
  return st;
}
