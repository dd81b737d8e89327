/* vm_ode_mx.h -- an odesys struct (inst/odesys.m) to a compiled vm_ode, shared by the gateways
 * that run odesys models (vm_dual_mex, vm_periodic_mex).  Conversion only: the formulas are parsed
 * again from the struct's fields (states, parameter_names, rhs, algebraic, square, parameters). */
#ifndef VM_ODE_MX_H
#define VM_ODE_MX_H

#include <string.h>

#include "mex.h"
#include "model.h"
#include "vm_mex_args.h"
#include "vm_status.h"

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

#endif
