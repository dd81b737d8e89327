/* vm_ode_mx.h -- an odesys struct (inst/odesys.m) to a compiled vm_ode, shared by the gateways
 * that run odesys models (vm_dual_mex, vm_periodic_mex).  Conversion only: the formulas are parsed
 * again from the struct's fields (states, parameter_names, rhs, algebraic, square, parameters). */
#ifndef VM_ODE_MX_H
#define VM_ODE_MX_H

#include <string.h>

#include "mex.h"
#include "dual/dual.h"
#include "model/model.h"
#include "vm_mex_args.h"
#include "base/vm_status.h"

/* the odesys model (formulas parsed again) and its parameter values (mxMalloc'ed) */
static void
vm_mx_ode_build (const mxArray *ode, const char *fn, vm_ode *o, double **par)
{
  vm_ode_desc d;
  vm_err err;
  int ns, np, nd, na;
  const mxArray *params, *pn, *sq;
  char **st, **pnm, **rhs, **alg;
  if (! mxIsStruct (ode) || mxGetNumberOfElements (ode) != 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: ode must be a system made by odesys", fn);
  st = vm_arg_cellstr (vm_arg_field (ode, "states", fn, "ode"), fn, "ode.states", &ns);
  pn = vm_arg_field (ode, "parameter_names", fn, "ode");
  pnm = vm_arg_cellstr (pn, fn, "ode.parameter_names", &np);
  rhs = vm_arg_cellstr (vm_arg_field (ode, "rhs", fn, "ode"), fn, "ode.rhs", &nd);
  alg = vm_arg_cellstr (vm_arg_field (ode, "algebraic", fn, "ode"), fn, "ode.algebraic", &na);
  sq = mxGetField (ode, 0, "square");
  memset (&d, 0, sizeof d);
  d.ny = ns;
  d.state = (const char *const *) st;
  d.np = np;
  d.param = (const char *const *) pnm;
  d.nd = nd;
  d.rhs = (const char *const *) rhs;
  d.na = na;
  d.alg = (const char *const *) alg;
  d.nonsquare = sq && mxGetNumberOfElements (sq) == 1 && mxGetScalar (sq) == 0.0;
  params = vm_arg_field (ode, "parameters", fn, "ode");
  *par = mxMalloc ((size_t) (np > 0 ? np : 1) * sizeof **par);
  vm_arg_params (params, (const char *const *) pnm, np, fn, "ode", *par);
  if (vm_ode_build (&d, o, &err) != VM_OK)
    mexErrMsgIdAndTxt ("varmech:model", "%s: %s", fn, err.msg);
}


/* An odesys compiled for the general dual engine (csrc/dual/dual.h): the model and the engine, each
 * freed by vm_mx_ode_engine_free once built. */
typedef struct {
  vm_ode o;
  vm_dual_ode e;
  double *par;                 /* the parameter values (mxMalloc'ed) */
  int have_o, have_e;
} vm_mx_ode_engine;

static void
vm_mx_ode_engine_free (vm_mx_ode_engine *c)
{
  if (c->have_e)
    vm_dual_ode_free (&c->e);
  if (c->have_o)
    vm_ode_free (&c->o);
  c->have_e = c->have_o = 0;
}

/* Parse and compile the model (c->o); the caller checks its dimensions before the engine. */
static void
vm_mx_ode_engine_model (vm_mx_ode_engine *c, const mxArray *ode, const char *fn)
{
  memset (c, 0, sizeof *c);
  vm_mx_ode_build (ode, fn, &c->o, &c->par);
  c->have_o = 1;
}

/* The engine with the weights cw (c->o.ny of them); raises, after freeing c, when it cannot be
 * compiled. */
static void
vm_mx_ode_engine_init (vm_mx_ode_engine *c, const double *cw, const char *fn)
{
  if (vm_dual_ode_init (&c->e, &c->o, c->par, cw) != VM_OK)
    {
      vm_mx_ode_engine_free (c);
      mexErrMsgIdAndTxt ("varmech:badarg", "%s: the dual Lagrangian of the system could not be "
                         "compiled", fn);
    }
  c->have_e = 1;
}

#endif
