/* vm_mech_mx.h -- a mechanical system from Octave values, shared by the gateways (documented mex.h
 * API only): its description (names and formulas, which mechsys compiles) and the model compiled
 * from it, loaded from sys.compiled (csrc/model/model_serial.h) so that no solver parses the text
 * again.  Strings are mxMalloc'd and released by the MEX API (also on error). */
#ifndef VM_MECH_MX_H
#define VM_MECH_MX_H

#include <stdio.h>
#include <string.h>
#include "mex.h"
#include "vm_mex.h"
#include "model/model.h"
#include "model/model_serial.h"
#include "model/initial_check.h"
#include "base/vm_status.h"

/* args[0..5]: coordinates, parameter names, lagrangian, forces, constraints, contacts (as passed by
 * mechsys.m to "mech", and as stored in a mechsys struct) -> d */
static VM_MAYBE_UNUSED void
mech_desc_from_args (const mxArray *const *args, const char *fn, vm_mech_desc *d)
{
  static const char *ckeys[] = { "h", "sigma", "V0", "mu", "epsv" };
  char **coord, **param, **force, **cons, *lag;
  int n, np, nf, nc, ncon = 0, k, j;
  vm_contact_desc *con = NULL;
  coord = vm_arg_cellstr (args[0], fn, "coordinates", &n);
  param = vm_arg_cellstr (args[1], fn, "parameter names", &np);
  lag = vm_arg_text (args[2], fn, "lagrangian");
  force = vm_arg_cellstr (args[3], fn, "forces", &nf);
  cons = vm_arg_cellstr (args[4], fn, "constraints", &nc);
  if (! mxIsEmpty (args[5]))
    {
      if (! mxIsStruct (args[5]))
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: contacts must be a struct array", fn);
      ncon = (int) mxGetNumberOfElements (args[5]);
      con = mxMalloc ((size_t) ncon * sizeof *con);
      for (k = 0; k < ncon; k++)
        for (j = 0; j < 5; j++)
          {
            const mxArray *f = mxGetField (args[5], (mwIndex) k, ckeys[j]);
            char what[64];
            char *txt;
            sprintf (what, "contacts(%d).%s", k + 1, ckeys[j]);
            if (! f)
              mexErrMsgIdAndTxt ("varmech:badarg", "%s: %s is missing", fn, what);
            txt = vm_arg_text (f, fn, what);
            switch (j)
              {
              case 0: con[k].h = txt; break;
              case 1: con[k].sigma = txt; break;
              case 2: con[k].V0 = txt; break;
              case 3: con[k].mu = txt; break;
              default: con[k].epsv = txt;
              }
          }
    }
  memset (d, 0, sizeof *d);
  d->n = n;
  d->coord = (const char *const *) coord;
  d->np = np;
  d->param = (const char *const *) param;
  d->lagrangian = lag;
  d->nforce = nf;
  d->force = (const char *const *) force;
  d->ncons = nc;
  d->cons = (const char *const *) cons;
  d->ncontact = ncon;
  d->contact = con;
}

/* The model compiled into sys.compiled (a uint8 row made by mechsys): loaded into *m when m is
 * not NULL, else only its texts read.  The formulas of sys (description ds) must be the compiled
 * ones: a system whose formula fields were edited after mechsys is refused rather than solved with
 * a stale compilation.  Errors (id, naming fn and sys): a missing or damaged blob, formulas that
 * differ; nothing is left to free when one is raised. */
static VM_MAYBE_UNUSED void
vm_mx_mech_compiled (const mxArray *sys, const vm_mech_desc *ds, const char *fn, const char *id,
                     vm_mech *m)
{
  const mxArray *c = mxGetField (sys, 0, "compiled");
  vm_mech_text t;
  const char *diff;
  int st;
  if (! c)
    mexErrMsgIdAndTxt (id, "%s: sys must be a system made by mechsys (no field compiled)", fn);
  if (! mxIsUint8 (c) || mxIsComplex (c) || mxGetM (c) != 1)
    mexErrMsgIdAndTxt (id, "%s: sys.compiled must be the uint8 row made by mechsys; make sys "
                       "again with mechsys", fn);
  st = vm_mech_load ((const uint8_t *) mxGetData (c), mxGetN (c), m, &t);
  if (st == VM_ENOMEM)
    mexErrMsgIdAndTxt ("varmech:nomem", "%s: loading the compiled model of sys: out of memory", fn);
  if (st != VM_OK)
    mexErrMsgIdAndTxt (id, "%s: sys.compiled is damaged or made by another version of varmech "
                       "(not a model this version of mechsys compiles); make sys again with mechsys", fn);
  diff = vm_mech_desc_diff (ds, &t.d);
  vm_mech_text_free (&t);
  if (diff)
    {
      if (m)
        vm_mech_free (m);
      mexErrMsgIdAndTxt (id, "%s: sys.%s differs from the formulas sys was compiled from (edited "
                         "after mechsys?); call mechsys again to compile the edited system", fn,
                         diff);
    }
}

/* sys (a mechsys struct) -> its description d (names and formulas, mxMalloc'd).  Errors
 * (varmech:badarg) name fn. */
static VM_MAYBE_UNUSED void
mech_desc_from_sys (const mxArray *sys, const char *fn, vm_mech_desc *d)
{
  static const char *keys[] = { "coordinates", "parameter_names", "lagrangian", "forces",
                                "constraints", "contacts" };
  const mxArray *args[6];
  int k;
  if (! mxIsStruct (sys) || mxGetNumberOfElements (sys) != 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: sys must be a system made by mechsys", fn);
  for (k = 0; k < 6; k++)
    if (! (args[k] = mxGetField (sys, 0, keys[k])))
      mexErrMsgIdAndTxt ("varmech:badarg", "%s: sys must be a system made by mechsys (no field %s)",
                         fn, keys[k]);
  mech_desc_from_args (args, fn, d);
}

/* sys (a mechsys struct) -> its description d (as mech_desc_from_sys) and its parameter values
 * *par (np, mxMalloc'd, in compile order, from sys.parameters).  Errors (varmech:badarg) name
 * fn. */
static VM_MAYBE_UNUSED void
vm_mech_from_sys (const mxArray *sys, const char *fn, vm_mech_desc *d, double **par)
{
  const mxArray *params;
  mech_desc_from_sys (sys, fn, d);
  params = mxGetField (sys, 0, "parameters");
  if (! params)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: sys must be a system made by mechsys (no field "
                       "parameters)", fn);
  *par = mxMalloc ((size_t) (d->np > 0 ? d->np : 1) * sizeof **par);
  vm_arg_params (params, d->param, d->np, fn, "sys", *par);
}

/* sys (a mechsys struct) -> its compiled model *m (loaded, not parsed: vm_mx_mech_compiled), its
 * description d and its parameter values *par (as vm_mech_from_sys).  The caller frees *m
 * (vm_mech_free) before it raises an error.  Cost: linear in the size of sys.compiled. */
static VM_MAYBE_UNUSED void
vm_mx_mech_load (const mxArray *sys, const char *fn, vm_mech *m, vm_mech_desc *d, double **par)
{
  vm_mech_from_sys (sys, fn, d, par);
  vm_mx_mech_compiled (sys, d, fn, "varmech:badarg", m);
}

/* Only the check that sys's formulas are the compiled ones (for gateways that evaluate the
 * compiled blocks of sys without the model); errors with identifier id. */
static VM_MAYBE_UNUSED void
vm_mx_mech_current (const mxArray *sys, const char *fn, const char *id)
{
  vm_mech_desc d;
  mech_desc_from_sys (sys, fn, &d);
  vm_mx_mech_compiled (sys, &d, fn, id, NULL);
}

/* Where vm_mx_initial_check looks: parameter values par, the initial state (t0, q0, qdot0) and
 * the tolerance tol (one struct, so that the check takes few arguments). */
typedef struct
{
  const double *par;
  double t0;
  const double *q0;
  const double *qdot0;
  double tol;
} vm_mx_initial_at;

/* vm_initial_check (csrc/model/initial_check.h) of the built model m of description d (its constraint
 * texts name the constraints in r->msg) at the point and tolerance of *at.  When the check itself
 * fails, m is freed and the error (varmech:nomem or varmech:badarg) raised, naming fn; otherwise
 * the verdict is r->kind and m is left to the caller. */
static VM_MAYBE_UNUSED void
vm_mx_initial_check (vm_mech *m, const vm_mech_desc *d, const vm_mx_initial_at *at, const char *fn,
                     vm_initial_report *r)
{
  int st = vm_initial_check (m, at->par, at->t0, at->q0, at->qdot0, at->tol, d->cons, r);
  if (st != VM_OK)
    {
      vm_mech_free (m);
      mexErrMsgIdAndTxt (st == VM_ENOMEM ? "varmech:nomem" : "varmech:badarg",
                         "%s: checking the initial state failed: %s", fn, vm_status_string (st));
    }
}

#endif
