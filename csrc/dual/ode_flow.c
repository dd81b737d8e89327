/* ode_flow.c -- the flow of a compiled system and its variational equations (see ode_flow.h). */
#include "dual/ode_flow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vm_status.h"

typedef struct {
  vm_dual_ode *e;
  int n, variational;
  double *F, *Fx;
  const vm_ode_flow_opts *o;
} flow_ctx;

static int
flow_rhs (double t, const double *y, double *dydt, void *vctx)
{
  flow_ctx *c = vctx;
  int n = c->n, i, j, k, st;
  st = vm_dual_ode_jac (c->e, t, y, c->F, c->variational ? c->Fx : NULL);
  if (st != VM_OK)
    return -1000 - st;
  memcpy (dydt, c->F, (size_t) n * sizeof *dydt);
  if (c->variational)
    for (j = 0; j < n; j++)          /* (F_x Phi)_ij = sum_k dF_i/dx_k Phi_kj */
      for (i = 0; i < n; i++)
        {
          double acc = 0.0;
          for (k = 0; k < n; k++)
            acc += c->Fx[i + n * k] * y[n + k + n * j];
          dydt[n + i + n * j] = acc;
        }
  return 0;
}

static int
flow_event (double t, const double *y, double *g, void *vctx)
{
  flow_ctx *c = vctx;
  double acc = -c->o->sec_b;
  int i;
  (void) t;
  for (i = 0; i < c->n; i++)
    acc += c->o->sec_a[i] * y[i];
  g[0] = acc;
  return 0;
}

int
vm_ode_flow (vm_dual_ode *e, double t0, double tf, const double *x0, const double *tout,
             size_t ntout, const vm_ode_flow_opts *opts, vm_ode_sol *sol)
{
  flow_ctx c;
  vm_ode_opts o;
  vm_ode_system sys;
  int n, ns, i, st, dir;
  double *y0;
  if (! e || ! x0 || ! opts || ! sol || e->ng != 0 || e->nd != e->ny || ! (opts->rtol > 0.0)
      || ! (opts->atol > 0.0) || (opts->nsec && ! opts->sec_a))
    return VM_EARG;
  n = e->ny;
  ns = opts->variational ? n + n * n : n;
  c.e = e;
  c.n = n;
  c.variational = opts->variational != 0;
  c.o = opts;
  c.F = malloc ((size_t) (n + n * n) * sizeof *c.F);
  y0 = calloc ((size_t) ns, sizeof *y0);
  if (! c.F || ! y0)
    {
      free (c.F);
      free (y0);
      return VM_ENOMEM;
    }
  c.Fx = c.F + n;
  memcpy (y0, x0, (size_t) n * sizeof *y0);
  if (c.variational)
    for (i = 0; i < n; i++)
      y0[n + i + n * i] = 1.0;
  vm_ode_opts_init (&o, VM_ODE_DOP853);
  o.rtol = opts->rtol;
  o.atol = opts->atol;
  o.max_steps = opts->max_steps;
  dir = opts->sec_dir;
  if (opts->nsec)
    {
      o.nevent = 1;
      o.event_dir = &dir;
      o.event_tol = 1e-13 * fmax (1.0, fmax (fabs (t0), fabs (tf)));
    }
  sys.n = ns;
  sys.f = flow_rhs;
  sys.ev = opts->nsec ? flow_event : NULL;
  sys.ctx = &c;
  st = vm_ode_solve (&sys, t0, tf, y0, tout, ntout, &o, sol);
  if (st <= -1000)
    st = -st - 1000;
  free (c.F);
  free (y0);
  return st;
}
