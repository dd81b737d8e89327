/* __vm_skg__.c -- MEX gateway of the discrete SKG action (csrc/skg, skg_solve, newton).
 *
 *   sol = __vm_skg__ ("solve", sys, tspan, q0, qdot0, opts)
 *   [S, g, H] = __vm_skg__ ("action", sys, tspan, q0, qdot0, N, order, z)
 *   nmin = __vm_skg__ ("min_n", order, adaptive)
 *   bytes = __vm_skg__ ("memory", n, m, N, order, mode)   (vm_skg_memory_estimate, one window)
 *
 * sys: a mechsys struct (its formulas are parsed again here: the action is built symbolically
 * from L, the forces and the constraints; parameter values come from sys.parameters).  opts:
 * struct with the numeric fields N, order, mode (0 full, 1 reduced), windows, tol, max_iter and
 * guess ([] or Ntot x n).  inst/skg_solve.m and inst/skg_action.m document and check them.  No
 * numerics here: conversion and checks only. */
#include <string.h>

#include "vm_mex.h"
#include "vm_mech_mx.h"
#include "vm_march_mx.h"
#include "skg.h"
#include "skg_solve.h"
#include "vm_status.h"

#define BAD(...) mexErrMsgIdAndTxt ("varmech:badarg", __VA_ARGS__)

static const mxArray *
field (const mxArray *s, const char *key, const char *fn)
{
  const mxArray *f = mxGetField (s, 0, key);
  if (! f)
    BAD ("%s: sys must be a system made by mechsys (no field %s)", fn, key);
  return f;
}

/* the model of sys and its parameter values (mxMalloc'd) */
static void
model_from_sys (const mxArray *sys, const char *fn, vm_mech *m, double **par)
{
  const mxArray *args[6], *params, *pn;
  vm_mech_desc d;
  vm_err err;
  int k, np;
  if (! mxIsStruct (sys) || mxGetNumberOfElements (sys) != 1)
    BAD ("%s: sys must be a system made by mechsys", fn);
  args[0] = field (sys, "coordinates", fn);
  args[1] = field (sys, "parameter_names", fn);
  args[2] = field (sys, "lagrangian", fn);
  args[3] = field (sys, "forces", fn);
  args[4] = field (sys, "constraints", fn);
  args[5] = field (sys, "contacts", fn);
  mech_desc_from_args (args, fn, &d);
  params = field (sys, "parameters", fn);
  pn = args[1];
  np = d.np;
  *par = mxMalloc ((size_t) (np > 0 ? np : 1) * sizeof **par);
  if (! mxIsStruct (params) || mxGetNumberOfElements (params) != 1)
    BAD ("%s: sys.parameters must be a scalar struct of name = value", fn);
  for (k = 0; k < np; k++)
    {
      char nm[64];
      const mxArray *v;
      if (mxGetString (mxGetCell (pn, (mwIndex) k), nm, sizeof nm) != 0)
        BAD ("%s: sys must be a system made by mechsys (parameter_names)", fn);
      v = mxGetField (params, 0, nm);
      if (! v || ! (mxIsNumeric (v) || mxIsLogical (v)) || mxIsComplex (v)
          || mxGetNumberOfElements (v) != 1 || ! isfinite (mxGetScalar (v)))
        BAD ("%s: parameter '%s' must be a real finite scalar", fn, nm);
      (*par)[k] = mxGetScalar (v);
    }
  if (vm_mech_build (&d, m, &err) != VM_OK)
    mexErrMsgIdAndTxt ("varmech:model", "%s: %s", fn, err.msg);
}

static int
ncoord (const mxArray *sys, const char *fn)
{
  const mxArray *c;
  if (! mxIsStruct (sys) || mxGetNumberOfElements (sys) != 1)
    BAD ("%s: sys must be a system made by mechsys", fn);
  c = field (sys, "coordinates", fn);
  if (! mxIsCell (c) || mxGetNumberOfElements (c) < 1)
    BAD ("%s: sys must be a system made by mechsys (coordinates)", fn);
  return (int) mxGetNumberOfElements (c);
}

static const double *
vec (const mxArray *a, size_t n, const char *fn, const char *what)
{
  size_t k;
  if (! mxIsDouble (a) || mxIsComplex (a) || mxIsSparse (a) || mxGetNumberOfElements (a) != n)
    BAD ("%s: %s must be a real vector with %lu entries", fn, what, (unsigned long) n);
  for (k = 0; k < n; k++)
    if (! isfinite (mxGetPr (a)[k]))
      BAD ("%s: %s must be finite", fn, what);
  return mxGetPr (a);
}

static double
num (const mxArray *o, const char *key, const char *fn)
{
  const mxArray *f = mxGetField (o, 0, key);
  if (! f || ! mxIsDouble (f) || mxIsComplex (f) || mxGetNumberOfElements (f) != 1
      || ! isfinite (mxGetScalar (f)))
    BAD ("%s: internal: option %s must be a finite real scalar", fn, key);
  return mxGetScalar (f);
}

static mxArray *
colmajor (const double *src, size_t rows, size_t cols)
{
  mxArray *a = mxCreateDoubleMatrix (rows, cols, mxREAL);
  if (src && rows * cols > 0)
    memcpy (mxGetPr (a), src, rows * cols * sizeof (double));
  return a;
}

/* an optional numeric option (default when absent or empty) */
static double
num_opt (const mxArray *o, const char *key, const char *fn, double dflt)
{
  const mxArray *f = mxGetField (o, 0, key);
  if (! f || mxIsEmpty (f))
    return dflt;
  return num (o, key, fn);
}

static void
cmd_solve (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "skg_solve";
  static const char *keys[] = { "t", "q", "qdot", "lambda", "lambda_plus", "lambda_gap", "max_qminus",
                                "max_lambdaminus", "max_gradient", "iterations",
                                "residual_history", "step_history", "step_kind", "step_factor",
                                "history_window", "window_iterations", "windows", "rejected",
                                "exitflag", "message", "timing", "output" };
  static const char *tkeys[] = { "build", "residual", "jacobian", "tape", "hessian", "symbolic",
                                 "numeric", "solve", "total", "factorizations", "tape_evaluations" };
  vm_mech m;
  double *par, t0, tf;
  const double *q0, *v0, *ts;
  const mxArray *o, *guess, *tout;
  vm_skg_solve_opts so;
  vm_skg_solution sol;
  int st, n;
  mxArray *out;
  if (nrhs != 6)
    BAD ("%s: internal: \"solve\" takes 5 arguments", fn);
  o = prhs[5];
  if (! mxIsStruct (o))
    BAD ("%s: internal: options must be a struct", fn);
  ts = vec (prhs[2], 2, fn, "tspan");
  t0 = ts[0];
  tf = ts[1];
  n = ncoord (prhs[1], fn);
  q0 = vec (prhs[3], (size_t) n, fn, "q0");
  v0 = vec (prhs[4], (size_t) n, fn, "qdot0");
  tout = mxGetField (o, 0, "output_times");
  if (tout && ! mxIsEmpty (tout))
    {
      size_t k, nq;
      vm_check_real_matrix (tout, fn, "OutputTimes");
      nq = mxGetNumberOfElements (tout);
      for (k = 0; k < nq; k++)
        if (! (mxGetPr (tout)[k] >= t0 && mxGetPr (tout)[k] <= tf))
          BAD ("%s: OutputTimes must lie in tspan [%g, %g] (entry %lu is %g)", fn, t0, tf,
               (unsigned long) k + 1, mxGetPr (tout)[k]);
    }
  model_from_sys (prhs[1], fn, &m, &par);   /* last: nothing below raises before freeing m */
  vm_skg_solve_opts_init (&so);
  so.t0 = t0;
  so.tf = tf;
  so.N = (int64_t) num (o, "N", fn);
  so.order = (int) num (o, "order", fn);
  so.mode = (int) num (o, "mode", fn);
  so.windows = (int) num (o, "windows", fn);
  so.newton.tol_res = num (o, "tol", fn);
  so.newton.max_iter = (int) num (o, "max_iter", fn);
  so.rtol = num_opt (o, "rtol", fn, so.rtol);
  so.atol = num_opt (o, "atol", fn, so.atol);
  so.estimate = (int) num_opt (o, "estimate", fn, 0.0);
  so.h0 = num_opt (o, "h0", fn, 0.0);
  so.hmax = num_opt (o, "hmax", fn, 0.0);
  so.max_windows = (int) num_opt (o, "max_windows", fn, 0.0);
  so.display = (int) num_opt (o, "display", fn, 0.0);
  so.print = vm_mex_print;
  if (tout && ! mxIsEmpty (tout))
    {
      so.t_out = mxGetPr (tout);
      so.n_out = (int64_t) mxGetNumberOfElements (tout);
    }
  guess = mxGetField (o, 0, "guess");
  if (guess && ! mxIsEmpty (guess))
    {
      size_t ntot = (size_t) so.windows * (size_t) (so.N - 1) + 1;
      if (so.windows < 1 || ! mxIsDouble (guess) || mxIsSparse (guess) || mxIsComplex (guess)
          || mxGetM (guess) != ntot || mxGetN (guess) != (size_t) n)
        {
          vm_mech_free (&m);
          BAD ("%s: the initial guess must be %lu x %d (one row per grid point of a fixed grid)",
               fn, (unsigned long) ntot, n);
        }
      so.q_guess = mxGetPr (guess);
    }
  vm_skg_solution_init (&sol);
  st = vm_skg_solve (&m, par, q0, v0, &so, &sol);
  vm_mech_free (&m);
  if ((st == VM_EARG || st == VM_EORDER || st == VM_ESIZE) && sol.Ntot == 0)
    {
      char msg[700];
      snprintf (msg, sizeof msg, "%s", sol.message);
      vm_skg_solution_free (&sol);
      BAD ("%s: %s", fn, msg[0] ? msg : "invalid arguments");
    }
  out = mxCreateStructMatrix (1, 1, (int) (sizeof keys / sizeof keys[0]), keys);
  mxSetField (out, 0, "t", colmajor (sol.t, (size_t) sol.Ntot, 1));
  mxSetField (out, 0, "q", colmajor (sol.q, (size_t) sol.Ntot, (size_t) sol.n));
  mxSetField (out, 0, "qdot", colmajor (sol.v, (size_t) sol.Ntot, (size_t) sol.n));
  mxSetField (out, 0, "lambda", colmajor (sol.lambda, (size_t) sol.Ntot, (size_t) sol.m));
  mxSetField (out, 0, "lambda_plus", colmajor (sol.lambda_plus, (size_t) sol.Ntot, (size_t) sol.m));
  mxSetField (out, 0, "lambda_gap", mxCreateDoubleScalar (sol.lambda_state ? sol.lambda_gap : mxGetNaN ()));
  mxSetField (out, 0, "max_qminus", mxCreateDoubleScalar (sol.max_qm));
  mxSetField (out, 0, "max_lambdaminus", mxCreateDoubleScalar (sol.max_lm));
  mxSetField (out, 0, "max_gradient", mxCreateDoubleScalar (sol.max_grad));
  mxSetField (out, 0, "iterations", mxCreateDoubleScalar (sol.iterations));
  {
    const vm_march_sol *ms = &sol.march;
    size_t nh = (size_t) ms->nhist, h;
    mxArray *kd = mxCreateDoubleMatrix (nh, 1, mxREAL), *hw = mxCreateDoubleMatrix (nh, 1, mxREAL);
    mxSetField (out, 0, "residual_history", colmajor (ms->res_hist, nh, 1));
    mxSetField (out, 0, "step_history", colmajor (ms->step_hist, nh, 1));
    mxSetField (out, 0, "step_factor", colmajor (ms->lambda_hist, nh, 1));
    for (h = 0; h < nh; h++)
      {
        mxGetPr (kd)[h] = ms->kind_hist[h];
        mxGetPr (hw)[h] = ms->hist_win[h] + 1;
      }
    mxSetField (out, 0, "step_kind", kd);
    mxSetField (out, 0, "history_window", hw);
    {
      mxArray *wi = mxCreateDoubleMatrix (1, (size_t) ms->nwin, mxREAL);
      int w;
      for (w = 0; w < ms->nwin; w++)
        mxGetPr (wi)[w] = ms->win_iter[w];
      mxSetField (out, 0, "window_iterations", wi);
    }
    vm_march_mx_windows (out, ms, so.N);
    if (sol.n_out > 0)
      mxSetField (out, 0, "output", colmajor (sol.out, (size_t) sol.n_out,
                                              (size_t) (2 * sol.n + sol.m)));
  }
  mxSetField (out, 0, "exitflag", mxCreateDoubleScalar (st == VM_OK ? 1.0 : 0.0));
  mxSetField (out, 0, "message", mxCreateString (sol.message));
  {
    mxArray *tm = mxCreateStructMatrix (1, 1, (int) (sizeof tkeys / sizeof tkeys[0]), tkeys);
    const double tv[] = { sol.t_build, sol.t_fun, sol.t_jac, sol.t_tape, sol.t_hess, sol.t_symbolic,
                          sol.t_numeric, sol.t_solve, sol.t_total, (double) sol.nfactor,
                          (double) sol.ntape };
    size_t q;
    for (q = 0; q < sizeof tv / sizeof tv[0]; q++)
      mxSetField (tm, 0, tkeys[q], mxCreateDoubleScalar (tv[q]));
    mxSetField (out, 0, "timing", tm);
  }
  vm_skg_solution_free (&sol);
  plhs[0] = out;
}

/* sbp minimum N, asked by the front end (one place for the fact: csrc) */
static void
cmd_min_n (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  int order;
  int64_t a;
  if (nrhs != 3)
    BAD ("skg_solve: internal: \"min_n\" takes 2 arguments");
  order = (int) vm_get_int (prhs[1], "skg_solve", "Order");
  a = vm_march_min_n (order, (int) vm_get_int (prhs[2], "skg_solve", "adaptive"));
  plhs[0] = mxCreateDoubleScalar ((double) a);
}

/* memory of one window, asked by the front end before it solves (csrc/skg_solve.h) */
static void
cmd_memory (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "skg_solve";
  if (nrhs != 6)
    BAD ("%s: internal: \"memory\" takes 5 arguments", fn);
  plhs[0] = mxCreateDoubleScalar (vm_skg_memory_estimate (
    (int) vm_get_int (prhs[1], fn, "n"), (int) vm_get_int (prhs[2], fn, "m"),
    (int64_t) vm_get_int (prhs[3], fn, "N"), (int) vm_get_int (prhs[4], fn, "Order"),
    (int) vm_get_int (prhs[5], fn, "mode") ? VM_SKG_REDUCED : VM_SKG_FULL));
}

static void
cmd_action (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "skg_action";
  vm_mech m;
  vm_skg s;
  double *par, S, *g, *hv;
  const double *q0, *v0, *ts, *z;
  int st, order;
  int64_t N, k;
  mxArray *H;
  if (nrhs != 8)
    BAD ("%s: internal: \"action\" takes 7 arguments", fn);
  ts = vec (prhs[2], 2, fn, "tspan");
  N = vm_get_int (prhs[5], fn, "N");
  order = (int) vm_get_int (prhs[6], fn, "the order");
  q0 = vec (prhs[3], (size_t) ncoord (prhs[1], fn), fn, "q0");
  v0 = vec (prhs[4], (size_t) ncoord (prhs[1], fn), fn, "qdot0");
  model_from_sys (prhs[1], fn, &m, &par);
  memset (&s, 0, sizeof s);
  st = vm_skg_build (&s, &m, par, N, order, ts[0], ts[1], q0, v0);
  vm_mech_free (&m);
  if (st != VM_OK)
    BAD ("%s: the discrete action could not be built (N = %ld, order %d): %s", fn, (long) N, order,
         vm_status_string (st));
  if (! mxIsDouble (prhs[7]) || mxIsComplex (prhs[7]) || mxGetNumberOfElements (prhs[7]) != (size_t) s.nz)
    {
      int64_t nz = s.nz;
      vm_skg_free (&s);
      BAD ("%s: z must have %ld entries (N * (2 n + 2 m))", fn, (long) nz);
    }
  z = mxGetPr (prhs[7]);
  g = mxMalloc ((size_t) s.nz * sizeof *g);
  H = mxCreateSparse ((mwSize) s.nz, (mwSize) s.nz, (mwSize) (s.nnz > 0 ? s.nnz : 1), mxREAL);
  hv = mxGetPr (H);
  for (k = 0; k <= s.nz; k++)
    mxGetJc (H)[k] = (mwIndex) s.colptr[k];
  for (k = 0; k < s.nnz; k++)
    mxGetIr (H)[k] = (mwIndex) s.rowind[k];
  st = vm_skg_eval (&s, z, &S, g, hv);
  vm_skg_free (&s);
  if (st != VM_OK)
    BAD ("%s: evaluation failed: %s", fn, vm_status_string (st));
  plhs[0] = mxCreateDoubleScalar (S);
  if (nlhs > 1)
    {
      plhs[1] = mxCreateDoubleMatrix ((size_t) (mwSize) mxGetM (H), 1, mxREAL);
      memcpy (mxGetPr (plhs[1]), g, (size_t) mxGetM (H) * sizeof (double));
    }
  if (nlhs > 2)
    plhs[2] = H;
  else
    mxDestroyArray (H);
  mxFree (g);
}

void
mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char cmd[16];
  vm_get_command (nrhs, prhs, "__vm_skg__", cmd, sizeof cmd);
  if (strcmp (cmd, "solve") == 0)
    cmd_solve (plhs, nrhs, prhs);
  else if (strcmp (cmd, "action") == 0)
    cmd_action (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "min_n") == 0)
    cmd_min_n (plhs, nrhs, prhs);
  else if (strcmp (cmd, "memory") == 0)
    cmd_memory (plhs, nrhs, prhs);
  else
    BAD ("__vm_skg__: unknown command '%s'; expected solve, action, min_n or memory", cmd);
}
