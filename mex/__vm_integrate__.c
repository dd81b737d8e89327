/* __vm_integrate__.c -- MEX gateway of the reference integrators (csrc/motion, integrate, reaction).
 *
 *   sol = __vm_integrate__ ({eom, motion, contacts}, p, tspan, y0, tout, opts)
 *
 * eom, motion, contacts: compiled blocks of one mechsys (contacts may be []); p: 1 x np parameter
 * values; tspan: [t0 tf]; y0: [q0; qdot0] (2n); tout: output times or []; opts: struct with the
 * numeric fields method, rtol, atol, h, h0, hmax, max_steps, law, B (k x n or []), hard,
 * restitution, project, project_tol, max_impacts (inst/gauss_integrate.m fills and documents them).
 * Returns a struct: t, q, qdot, mult, energy, phi, gpos, impact_t, impact_contact, impact_before,
 * impact_after, nsteps, naccept, nreject, nfev, nnewton, status (code), status_text, t_end,
 * rcond, fail_state (t, q, qdot of the last evaluation).  No numerics here: conversion only. */
#include <string.h>

#include "vm_mex.h"
#include "vm_block_mx.h"
#include "motion.h"
#include "vm_status.h"

#define FN "gauss_integrate"

static double
opt_num (const mxArray *o, const char *key)
{
  const mxArray *f = mxGetField (o, 0, key);
  double v;
  if (! f || ! mxIsDouble (f) || mxIsComplex (f) || mxGetNumberOfElements (f) != 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: option %s must be a real scalar", FN, key);
  v = mxGetScalar (f);
  if (! isfinite (v))
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: option %s must be finite", FN, key);
  return v;
}

static mxArray *
matrix_rows (const double *src, size_t npts, size_t stride, size_t off, size_t ncol)
{
  /* src row-major with stride per point -> npts x ncol column-major */
  mxArray *a = mxCreateDoubleMatrix (npts, ncol, mxREAL);
  double *d = mxGetPr (a);
  size_t k, j;
  if (src)
    for (k = 0; k < npts; k++)
      for (j = 0; j < ncol; j++)
        d[k + npts * j] = src[k * stride + off + j];
  return a;
}

void
mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  static const char *keys[] = { "t", "q", "qdot", "mult", "energy", "phi", "gpos", "impact_t",
                                "impact_contact", "impact_before", "impact_after", "nsteps",
                                "naccept", "nreject", "nfev", "nnewton", "status", "status_text",
                                "t_end", "rcond", "fail_state" };
  vm_block bl[3];
  const char **fnames[3];
  int nb, k, n, m, np, st, law, kdir = 0, nm;
  const double *p, *ts, *y0, *tout = NULL, *B = NULL;
  size_t ntout = 0, j;
  vm_motion mo;
  vm_motion_opts mopt;
  vm_motion_sol sol;
  mxArray *out;
  const mxArray *o;
  (void) nlhs;
  if (nrhs != 6)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: 6 arguments expected", FN);
  if (! mxIsCell (prhs[0]) || mxGetNumberOfElements (prhs[0]) != 3)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: blocks must be a 1x3 cell", FN);
  nb = mxIsEmpty (mxGetCell (prhs[0], 2)) ? 2 : 3;
  for (k = 0; k < nb; k++)
    {
      const mxArray *c = mxGetCell (prhs[0], (mwIndex) k);
      if (! c)
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: block %d missing", FN, k + 1);
      load_block (c, FN, &bl[k], &fnames[k]);
    }
  if (bl[0].nfield < 1 || bl[1].nfield < 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model is damaged (blocks)", FN);
  n = bl[0].field[0].dim[0];
  m = bl[1].field[0].dim[0];
  vm_check_real_matrix (prhs[1], FN, "the parameter values");
  np = (int) mxGetNumberOfElements (prhs[1]);
  p = mxGetPr (prhs[1]);
  vm_check_real_matrix (prhs[2], FN, "tspan");
  if (mxGetNumberOfElements (prhs[2]) != 2)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: tspan must be [t0 tf]", FN);
  ts = mxGetPr (prhs[2]);
  vm_check_real_matrix (prhs[3], FN, "the initial state");
  if (mxGetNumberOfElements (prhs[3]) != (size_t) 2 * n)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the initial state must have %d values", FN, 2 * n);
  y0 = mxGetPr (prhs[3]);
  if (! mxIsEmpty (prhs[4]))
    {
      vm_check_real_matrix (prhs[4], FN, "OutputTimes");
      tout = mxGetPr (prhs[4]);
      ntout = mxGetNumberOfElements (prhs[4]);
    }
  o = prhs[5];
  if (! mxIsStruct (o) || mxGetNumberOfElements (o) != 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: options must be a struct", FN);
  memset (&mopt, 0, sizeof mopt);
  vm_ode_opts_init (&mopt.ode, (int) opt_num (o, "method"));
  mopt.ode.method = (int) opt_num (o, "method");
  mopt.ode.rtol = opt_num (o, "rtol");
  mopt.ode.atol = opt_num (o, "atol");
  mopt.ode.h = opt_num (o, "h");
  mopt.ode.h0 = opt_num (o, "h0");
  mopt.ode.hmax = opt_num (o, "hmax");
  mopt.ode.max_steps = (long) opt_num (o, "max_steps");
  mopt.hard = opt_num (o, "hard") != 0;
  mopt.restitution = opt_num (o, "restitution");
  mopt.project = opt_num (o, "project") != 0;
  mopt.project_tol = opt_num (o, "project_tol");
  mopt.max_impacts = (long) opt_num (o, "max_impacts");
  law = (int) opt_num (o, "law");
  {
    const mxArray *bm = mxGetField (o, 0, "B");
    if (! bm)
      mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: option B missing", FN);
    if (! mxIsEmpty (bm))
      {
        vm_check_real_matrix (bm, FN, "the reaction directions");
        if (mxGetN (bm) != (size_t) n)
          mexErrMsgIdAndTxt ("varmech:badarg", "%s: the reaction directions must have %d columns",
                             FN, n);
        kdir = (int) mxGetM (bm);
        B = mxGetPr (bm);
      }
  }
  st = vm_motion_init (&mo, n, m, np, &bl[0], &bl[1], nb == 3 ? &bl[2] : NULL, p, law, kdir, B);
  if (st != VM_OK)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model does not fit the equations of "
                       "motion (%s); rebuild it with mechsys", FN, vm_status_string (st));
  {
    int what, idx;
    double val;
    if (vm_motion_check_state (&mo, ts[0], y0, y0 + n, opt_num (o, "ctol"), mopt.hard, &what, &idx,
                               &val) != VM_OK)
      {
        vm_motion_free (&mo);
        if (what == 1)
          mexErrMsgIdAndTxt ("varmech:badarg", "%s: the initial state violates constraint %d by %g "
                             "(ConstraintTol = %g)", FN, idx + 1, val, opt_num (o, "ctol"));
        if (what == 2)
          mexErrMsgIdAndTxt ("varmech:badarg", "%s: the initial position is outside contact %d "
                             "(h = %g < 0)", FN, idx + 1, val);
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: the model cannot be evaluated at the initial "
                           "state (non-finite values)", FN);
      }
  }
  st = vm_motion_integrate (&mo, &mopt, ts[0], ts[1], y0, tout, ntout, &sol);
  nm = law == VM_LAW_DIRECTIONS ? kdir : m;
  out = mxCreateStructMatrix (1, 1, (int) (sizeof keys / sizeof keys[0]), keys);
  mxSetField (out, 0, "t", matrix_rows (sol.t, sol.npts, 1, 0, 1));
  mxSetField (out, 0, "q", matrix_rows (sol.y, sol.npts, (size_t) 2 * n, 0, (size_t) n));
  mxSetField (out, 0, "qdot", matrix_rows (sol.y, sol.npts, (size_t) 2 * n, (size_t) n, (size_t) n));
  mxSetField (out, 0, "mult", matrix_rows (sol.mult, sol.npts, (size_t) nm, 0, (size_t) nm));
  mxSetField (out, 0, "energy", matrix_rows (sol.energy, sol.npts, 1, 0, 1));
  mxSetField (out, 0, "phi", matrix_rows (sol.phi, sol.npts, (size_t) m, 0, (size_t) m));
  mxSetField (out, 0, "gpos", matrix_rows (sol.gpos, sol.npts, (size_t) m, 0, (size_t) m));
  mxSetField (out, 0, "impact_t", matrix_rows (sol.ti, sol.nimpact, 1, 0, 1));
  {
    mxArray *ci = mxCreateDoubleMatrix (sol.nimpact, 1, mxREAL);
    for (j = 0; j < sol.nimpact; j++)
      mxGetPr (ci)[j] = sol.ci[j] + 1;
    mxSetField (out, 0, "impact_contact", ci);
  }
  mxSetField (out, 0, "impact_before", matrix_rows (sol.yb, sol.nimpact, (size_t) 2 * n, 0, (size_t) 2 * n));
  mxSetField (out, 0, "impact_after", matrix_rows (sol.ya, sol.nimpact, (size_t) 2 * n, 0, (size_t) 2 * n));
  mxSetField (out, 0, "nsteps", mxCreateDoubleScalar ((double) sol.nsteps));
  mxSetField (out, 0, "naccept", mxCreateDoubleScalar ((double) sol.naccept));
  mxSetField (out, 0, "nreject", mxCreateDoubleScalar ((double) sol.nreject));
  mxSetField (out, 0, "nfev", mxCreateDoubleScalar ((double) sol.nfev));
  mxSetField (out, 0, "nnewton", mxCreateDoubleScalar ((double) sol.nnewton_iter));
  mxSetField (out, 0, "status", mxCreateDoubleScalar ((double) st));
  mxSetField (out, 0, "status_text", mxCreateString (vm_status_string (st)));
  mxSetField (out, 0, "t_end", mxCreateDoubleScalar (sol.t_end));
  mxSetField (out, 0, "rcond", mxCreateDoubleScalar (sol.rcond));
  mxSetField (out, 0, "fail_state", matrix_rows (sol.fail, 1, 0, 0, (size_t) 1 + 2 * (n < 64 ? n : 64)));
  vm_motion_sol_free (&sol);
  vm_motion_free (&mo);
  for (k = 0; k < nb; k++)
    free_block (&bl[k], fnames[k]);
  plhs[0] = out;
}
