/* vm_ode_mx.h -- an odesys struct (inst/odesys.m) to its compiled vm_ode, shared by the gateways
 * that run odesys models (vm_dual_mex, vm_periodic_mex, vm_model_mex).  Conversion only: the model
 * is loaded from ode.compiled (csrc/model/model_serial.h), not parsed, after the formulas of the
 * struct (states, parameter_names, rhs, algebraic, square) have been compared with the compiled
 * ones. */
#ifndef VM_ODE_MX_H
#define VM_ODE_MX_H

#include <string.h>

#include "mex.h"
#include "vm_mex.h"
#include "dual/dual.h"
#include "model/model.h"
#include "model/model_serial.h"
#include "vm_mex_args.h"
#include "base/vm_status.h"

/* ode (an odesys struct) -> its description d (names and formulas, mxMalloc'd); *pn: the field
 * parameter_names.  Errors (varmech:badarg) name fn. */
static VM_MAYBE_UNUSED void
ode_desc_from_sys (const mxArray *ode, const char *fn, vm_ode_desc *d)
{
  int ns, np, nd, na;
  const mxArray *sq;
  char **st, **pnm, **rhs, **alg;
  if (! mxIsStruct (ode) || mxGetNumberOfElements (ode) != 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: ode must be a system made by odesys", fn);
  st = vm_arg_cellstr (vm_arg_field (ode, "states", fn, "ode"), fn, "ode.states", &ns);
  pnm = vm_arg_cellstr (vm_arg_field (ode, "parameter_names", fn, "ode"), fn,
                        "ode.parameter_names", &np);
  rhs = vm_arg_cellstr (vm_arg_field (ode, "rhs", fn, "ode"), fn, "ode.rhs", &nd);
  alg = vm_arg_cellstr (vm_arg_field (ode, "algebraic", fn, "ode"), fn, "ode.algebraic", &na);
  sq = mxGetField (ode, 0, "square");
  memset (d, 0, sizeof *d);
  d->ny = ns;
  d->state = (const char *const *) st;
  d->np = np;
  d->param = (const char *const *) pnm;
  d->nd = nd;
  d->rhs = (const char *const *) rhs;
  d->na = na;
  d->alg = (const char *const *) alg;
  d->nonsquare = sq && mxGetNumberOfElements (sq) == 1 && mxGetScalar (sq) == 0.0;
}

/* The model compiled into ode.compiled (a uint8 row made by odesys): loaded into *o when o is not
 * NULL, else only its texts read; the formulas of ode (description d) must be the compiled ones.
 * Errors (id, naming fn and ode): a missing or damaged blob, formulas that differ (edited after
 * odesys); nothing is left to free when one is raised. */
static VM_MAYBE_UNUSED void
vm_mx_ode_compiled (const mxArray *ode, const vm_ode_desc *d, const char *fn, const char *id,
                    vm_ode *o)
{
  const mxArray *c = mxGetField (ode, 0, "compiled");
  vm_ode_text t;
  const char *diff;
  int st;
  if (! c)
    mexErrMsgIdAndTxt (id, "%s: ode must be a system made by odesys (no field compiled)", fn);
  if (! mxIsUint8 (c) || mxIsComplex (c) || mxGetM (c) != 1)
    mexErrMsgIdAndTxt (id, "%s: ode.compiled must be the uint8 row made by odesys; make ode "
                       "again with odesys", fn);
  st = vm_ode_load ((const uint8_t *) mxGetData (c), mxGetN (c), o, &t);
  if (st == VM_ENOMEM)
    mexErrMsgIdAndTxt ("varmech:nomem", "%s: loading the compiled model of ode: out of memory", fn);
  if (st != VM_OK)
    mexErrMsgIdAndTxt (id, "%s: ode.compiled is damaged or made by another version of varmech "
                       "(not a model this version of odesys compiles); make ode again with odesys", fn);
  diff = vm_ode_desc_diff (d, &t.d);
  vm_ode_text_free (&t);
  if (diff)
    {
      if (o)
        vm_ode_free (o);
      mexErrMsgIdAndTxt (id, "%s: ode.%s differs from the formulas ode was compiled from (edited "
                         "after odesys?); call odesys again to compile the edited system", fn,
                         diff);
    }
}

/* the odesys model (loaded from ode.compiled) and its parameter values (mxMalloc'ed) */
static VM_MAYBE_UNUSED void
vm_mx_ode_build (const mxArray *ode, const char *fn, vm_ode *o, double **par)
{
  vm_ode_desc d;
  ode_desc_from_sys (ode, fn, &d);
  *par = mxMalloc ((size_t) (d.np > 0 ? d.np : 1) * sizeof **par);
  vm_arg_params (vm_arg_field (ode, "parameters", fn, "ode"), d.param, d.np, fn, "ode", *par);
  vm_mx_ode_compiled (ode, &d, fn, "varmech:badarg", o);
}

/* Only the check that ode's formulas are the compiled ones (for gateways that evaluate the
 * compiled blocks of ode without the model); errors with identifier id. */
static VM_MAYBE_UNUSED void
vm_mx_ode_current (const mxArray *ode, const char *fn, const char *id)
{
  vm_ode_desc d;
  ode_desc_from_sys (ode, fn, &d);
  vm_mx_ode_compiled (ode, &d, fn, id, NULL);
}

/* An odesys compiled for the general dual engine (csrc/dual/dual.h): the model and the engine, each
 * freed by vm_mx_ode_engine_free once built. */
typedef struct {
  vm_ode o;
  vm_dual_ode e;
  double *par;                 /* the parameter values (mxMalloc'ed) */
  int have_o, have_e;
} vm_mx_ode_engine;

static VM_MAYBE_UNUSED void
vm_mx_ode_engine_free (vm_mx_ode_engine *c)
{
  if (c->have_e)
    vm_dual_ode_free (&c->e);
  if (c->have_o)
    vm_ode_free (&c->o);
  c->have_e = c->have_o = 0;
}

/* Load the model (c->o); the caller checks its dimensions before the engine. */
static VM_MAYBE_UNUSED void
vm_mx_ode_engine_model (vm_mx_ode_engine *c, const mxArray *ode, const char *fn)
{
  memset (c, 0, sizeof *c);
  vm_mx_ode_build (ode, fn, &c->o, &c->par);
  c->have_o = 1;
}

/* The engine with the weights cw (c->o.ny of them); raises, after freeing c, when it cannot be
 * compiled. */
static VM_MAYBE_UNUSED void
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
