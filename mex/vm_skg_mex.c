/* vm_skg_mex.c -- MEX gateway of the discrete SKG action (csrc/skg, skg_solve, newton).
 *
 *   sol = vm_skg_mex ("solve", sys, tspan, q0, qdot0, opts)
 *   [S, g, H] = vm_skg_mex ("action", sys, tspan, q0, qdot0, N, order, z)
 *   nmin = vm_skg_mex ("min_n", order, adaptive)
 *   bytes = vm_skg_mex ("memory", n, m, N, order, mode, linsolve)   (vm_skg_memory_estimate, one
 *           window; linsolve 0 auto, 1 umfpack, 2 banded)
 *   n = vm_skg_mex ("compiles")   (mechsys models loaded by this gateway so far: one per call)
 *   n = vm_skg_mex ("model_compiles")   (texts parsed by this gateway's model library: none)
 *
 * sys: a mechsys struct (its model is loaded from sys.compiled, not parsed: the action is built
 * symbolically from L, the forces and the constraints of the loaded graph; parameter values come
 * from sys.parameters).  opts:
 * skg_solve's options struct (vm_options: the public names of csrc/base/vm_schema.c, checked
 * there), with N, Windows (0: error control), MaxIter and Guess ([] or Ntot x n) filled in by
 * skg_solve.m, and the fields estimate (0 or 1) and constraint_tol
 * (ConstraintTol: the initial state is checked against the constraints on the compiled model,
 * csrc/model/initial_check.h, before anything is solved; a finding is the error
 * varmech:skg_solve:initial_state "skg_solve: <report>").  The solution's energy and constraint
 * residuals (fields energy, residual, residual_position) come from the same model
 * (csrc/reference/mech_points.h), loaded once per call.  inst/skg_solve.m and inst/skg_action.m document and check them.  No
 * numerics here: conversion and checks only. */
#include <string.h>

#include "base/vm_scratch.h"
#include "vm_mex.h"
#include "vm_mech_mx.h"
#include "vm_march_mx.h"
#include "vm_linsolve_mx.h"
#include "vm_opts_mx.h"
#include "skg/skg.h"
#include "skg/skg_solve.h"
#include "base/vm_status.h"

#define BAD(...) mexErrMsgIdAndTxt ("varmech:badarg", __VA_ARGS__)

/* mechsys models loaded by model_from_sys since the gateway was loaded ("compiles") */
static double ncompiles = 0.0;

/* the model of sys (loaded from sys.compiled) and its parameter values (mxMalloc'd); d (may be
 * NULL): its description */
static void
model_from_sys (const mxArray *sys, const char *fn, vm_mech *m, double **par, vm_mech_desc *dout)
{
  vm_mech_desc d;
  vm_mx_mech_load (sys, fn, m, &d, par);
  ncompiles += 1.0;
  if (dout)
    *dout = d;
}

/* an Ntot x cols matrix of src, or of NaN when src is NULL (not computed) */
static mxArray *
colmajor_or_nan (const double *src, size_t rows, size_t cols)
{
  mxArray *a = mxCreateDoubleMatrix (rows, cols, mxREAL);
  size_t k;
  if (src && rows * cols > 0)
    memcpy (mxGetPr (a), src, rows * cols * sizeof (double));
  else
    for (k = 0; k < rows * cols; k++)
      mxGetPr (a)[k] = mxGetNaN ();
  return a;
}

/* the number of coordinates of sys (before the model is built: the sizes of q0 and qdot0) */
static int
ncoord (const mxArray *sys, const char *fn)
{
  const mxArray *c;
  vm_arg_struct (sys, fn, "sys");
  c = vm_arg_field (sys, "coordinates", fn, "sys");
  if (! mxIsCell (c) || mxGetNumberOfElements (c) < 1)
    BAD ("%s: sys must be a system made by mechsys (coordinates)", fn);
  return (int) mxGetNumberOfElements (c);
}

static mxArray *
colmajor (const double *src, size_t rows, size_t cols)
{
  mxArray *a = mxCreateDoubleMatrix (rows, cols, mxREAL);
  if (src && rows * cols > 0)
    memcpy (mxGetPr (a), src, rows * cols * sizeof (double));
  return a;
}

/* skg_solve's options struct o (vm_options' struct of the public names, with the defaults that
 * depend on the grid filled in by skg_solve.m, Windows 0 for error control, and the derived
 * field estimate) into so: read by the schema (vm_opts_mx.h), not checked again; an option
 * that is [] keeps the default that vm_skg_solve_opts_init took from the schema.  The first
 * OutputTimes entry outside [t0, tf] in *tout_bad (-1: none) and a guess of the wrong shape in
 * *guess_bad, both raised by the caller after the initial check. */
static void
solve_opts (const mxArray *o, const char *fn, double t0, double tf, int n, vm_skg_solve_opts *so,
            int64_t *tout_bad, int *guess_bad)
{
  const mxArray *tout, *guess;
  vm_skg_solve_opts_init (so);
  so->t0 = t0;
  so->tf = tf;
  /* the gateway's ceiling of N (skg_solve's rule leaves a large N to the memory estimate) */
  so->N = vm_arg_int (vm_arg_field (o, "N", fn, "the options"), fn, "N", 2, VM_ARG_NMAX);
  so->order = (int) vm_opt_int (o, fn, "Order", so->order);
  so->mode = vm_opt_choice (o, fn, "Mode", so->mode);   /* full 0, reduced 1: VM_SKG_* */
  so->windows = (int) vm_opt_int (o, fn, "Windows", so->windows);
  so->newton.tol_res = vm_opt_real (o, fn, "Tol", so->newton.tol_res);
  so->newton.max_iter = (int) vm_opt_int (o, fn, "MaxIter", so->newton.max_iter);
  so->newton.linsolve = vm_mx_linsolve_kind (vm_opt_choice (o, fn, "LinearSolver", 0));
  so->newton.reuse = (int) vm_opt_int (o, fn, "ReuseFactorization", so->newton.reuse);
  so->rtol = vm_opt_real (o, fn, "RelTol", so->rtol);
  so->atol = vm_opt_real (o, fn, "AbsTol", so->atol);
  so->estimate = (int) vm_arg_field_int (o, "estimate", fn, "estimate", 0, 1, 0);
  so->h0 = vm_opt_real (o, fn, "InitialWindow", so->h0);
  so->hmax = vm_opt_real (o, fn, "MaxWindow", so->hmax);
  so->max_windows = (int) vm_opt_int (o, fn, "MaxWindows", so->max_windows);
  so->display = vm_opt_choice (o, fn, "Display", so->display);   /* off 0, final 1, iter 2 */
  so->print = vm_mex_print;
  *tout_bad = -1;
  *guess_bad = 0;
  tout = vm_opt_get (o, fn, "OutputTimes");
  if (tout)
    {
      size_t k, nq;
      const double *tq = vm_arg_vector_any (tout, fn, "OutputTimes", &nq);
      for (k = 0; k < nq && *tout_bad < 0; k++)
        if (! (tq[k] >= t0 && tq[k] <= tf))
          *tout_bad = (int64_t) k;
      so->t_out = tq;
      so->n_out = (int64_t) nq;
    }
  guess = vm_opt_get (o, fn, "Guess");
  if (guess)
    {
      size_t ntot = (size_t) so->windows * (size_t) (so->N - 1) + 1;
      vm_arg_matrix (guess, fn, "Guess");
      /* skg_solve.m checked the initial state first */
      *guess_bad = so->windows < 1 || mxGetM (guess) != ntot || mxGetN (guess) != (size_t) n;
      so->q_guess = mxGetPr (guess);
    }
}

/* The initial state against the constraints on the compiled model m (with ConstraintTol ctol;
 * vm_check_initial.m does the same through vm_model_mex "check_initial"), then the deferred
 * OutputTimes and Guess errors; m is freed before any error is raised. */
static void
check_before_solve (vm_mech *m, const vm_mech_desc *d, const double *par, const double *q0,
                    const double *v0, const mxArray *ctol_arg, double ctol,
                    const vm_skg_solve_opts *so, int64_t tout_bad, int guess_bad, int n,
                    const char *fn)
{
  if (ctol_arg)
    {
      vm_initial_report r;
      vm_mx_initial_check (m, d, par, so->t0, q0, v0, ctol, fn, &r);
      if (r.kind != VM_INITIAL_OK)
        {
          char msg[VM_INITIAL_MSG];
          snprintf (msg, sizeof msg, "%s", r.msg);
          vm_mech_free (m);
          mexErrMsgIdAndTxt ("varmech:skg_solve:initial_state", "%s: %s", fn, msg);
        }
    }
  if (tout_bad >= 0)
    {
      vm_mech_free (m);
      BAD ("%s: OutputTimes must lie in tspan [%g, %g] (entry %lu is %g)", fn, so->t0, so->tf,
           (unsigned long) tout_bad + 1, so->t_out[tout_bad]);
    }
  if (guess_bad)
    {
      vm_mech_free (m);
      BAD ("%s: the initial guess must be %lu x %d (one row per grid point of a fixed grid)", fn,
           (unsigned long) ((size_t) so->windows * (size_t) (so->N - 1) + 1), n);
    }
}

/* The Newton histories of the march into out: residual, step, factor, kind and window per step,
 * iterations per window, the windows' table, and the dense output. */
static void
history_fields (mxArray *out, const vm_skg_solution *sol, int64_t N)
{
  const vm_march_sol *ms = &sol->march;
  size_t nh = (size_t) ms->nhist, h;
  mxArray *kd = mxCreateCellMatrix (nh, 1), *hw = mxCreateDoubleMatrix (nh, 1, mxREAL);
  mxArray *wi = mxCreateDoubleMatrix (1, (size_t) ms->nwin, mxREAL);
  int w;
  mxSetField (out, 0, "residual_history", colmajor (ms->res_hist, nh, 1));
  mxSetField (out, 0, "step_history", colmajor (ms->step_hist, nh, 1));
  mxSetField (out, 0, "step_factor", colmajor (ms->lambda_hist, nh, 1));
  for (h = 0; h < nh; h++)
    {
      mxSetCell (kd, h, mxCreateString (vm_newton_kind_name (ms->kind_hist[h])));
      mxGetPr (hw)[h] = ms->hist_win[h] + 1;
    }
  mxSetField (out, 0, "step_kind", kd);
  mxSetField (out, 0, "history_window", hw);
  for (w = 0; w < ms->nwin; w++)
    mxGetPr (wi)[w] = ms->win_iter[w];
  mxSetField (out, 0, "window_iterations", wi);
  vm_march_mx_windows (out, ms, N);
  if (sol->n_out > 0)
    mxSetField (out, 0, "output", colmajor (sol->out, (size_t) sol->n_out,
                                            (size_t) (2 * sol->n + sol->m)));
}

/* The struct skg_solve.m receives, from the solution and the status st. */
static mxArray *
solution_struct (const vm_skg_solution *sol, int st, int64_t N)
{
  static const char *keys[] = { "t", "q", "qdot", "lambda", "lambda_plus", "lambda_gap", "max_qminus",
                                "max_lambdaminus", "max_gradient", "iterations",
                                "residual_history", "step_history", "step_kind", "step_factor",
                                "history_window", "window_iterations", "windows", "rejected",
                                "exitflag", "message", "timing", "output", "linear_solver",
                                "residual", "residual_position", "energy" };
  static const char *tkeys[] = { "build", "residual", "jacobian", "tape", "hessian", "symbolic",
                                 "numeric", "solve", "total", "factorizations", "tape_evaluations",
                                 "reused_factorizations" };
  mxArray *out = mxCreateStructMatrix (1, 1, (int) (sizeof keys / sizeof keys[0]), keys), *tm;
  const double tv[] = { sol->t_build, sol->t_fun, sol->t_jac, sol->t_tape, sol->t_hess,
                        sol->t_symbolic, sol->t_numeric, sol->t_solve, sol->t_total,
                        (double) sol->nfactor, (double) sol->ntape, (double) sol->nreuse_factor };
  size_t q, Nt = (size_t) sol->Ntot;
  mxSetField (out, 0, "t", colmajor (sol->t, Nt, 1));
  mxSetField (out, 0, "q", colmajor (sol->q, Nt, (size_t) sol->n));
  mxSetField (out, 0, "qdot", colmajor (sol->v, Nt, (size_t) sol->n));
  mxSetField (out, 0, "lambda", colmajor (sol->lambda, Nt, (size_t) sol->m));
  mxSetField (out, 0, "lambda_plus", colmajor (sol->lambda_plus, Nt, (size_t) sol->m));
  mxSetField (out, 0, "lambda_gap",
              mxCreateDoubleScalar (sol->lambda_state ? sol->lambda_gap : mxGetNaN ()));
  mxSetField (out, 0, "max_qminus", mxCreateDoubleScalar (sol->max_qm));
  mxSetField (out, 0, "max_lambdaminus", mxCreateDoubleScalar (sol->max_lm));
  mxSetField (out, 0, "max_gradient", mxCreateDoubleScalar (sol->max_grad));
  mxSetField (out, 0, "iterations", mxCreateDoubleScalar (sol->iterations));
  history_fields (out, sol, N);
  mxSetField (out, 0, "residual", colmajor_or_nan (sol->phi, Nt, (size_t) sol->m));
  mxSetField (out, 0, "residual_position", colmajor_or_nan (sol->gpos, Nt, (size_t) sol->m));
  mxSetField (out, 0, "energy", colmajor_or_nan (sol->energy, Nt, 1));
  mxSetField (out, 0, "exitflag", mxCreateDoubleScalar (st == VM_OK ? 1.0 : 0.0));
  mxSetField (out, 0, "message", mxCreateString (sol->message));
  tm = mxCreateStructMatrix (1, 1, (int) (sizeof tkeys / sizeof tkeys[0]), tkeys);
  for (q = 0; q < sizeof tv / sizeof tv[0]; q++)
    mxSetField (tm, 0, tkeys[q], mxCreateDoubleScalar (tv[q]));
  mxSetField (out, 0, "timing", tm);
  mxSetField (out, 0, "linear_solver", vm_mx_linsolve (sol->march.linsolve, sol->march.kl,
                                                       sol->march.ku, sol->march.lean,
                                                       sol->march.nchol, sol->march.nchol_fail,
                                                       sol->t_numeric, sol->t_solve));
  return out;
}

/* vm_skg_mex ("solve", sys, tspan, q0, qdot0, opts): skg_solve's gateway. */
static void
cmd_solve (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "skg_solve";
  vm_mech m;
  vm_mech_desc d;
  double *par, t0, tf, ctol = 0.0;
  const double *q0, *v0;
  const mxArray *o, *ctol_arg;
  int guess_bad, st, n;
  int64_t tout_bad;
  vm_skg_solve_opts so;
  vm_skg_solution sol;
  if (nrhs != 6)
    BAD ("%s: internal: \"solve\" takes 5 arguments", fn);
  o = prhs[5];
  vm_arg_struct (o, fn, "the options");
  vm_arg_interval (prhs[2], fn, "tspan", 1, &t0, &tf);
  n = ncoord (prhs[1], fn);
  q0 = vm_arg_vector (prhs[3], fn, "q0", (size_t) n);
  v0 = vm_arg_vector (prhs[4], fn, "qdot0", (size_t) n);
  solve_opts (o, fn, t0, tf, n, &so, &tout_bad, &guess_bad);
  ctol_arg = vm_arg_field_opt (o, "constraint_tol");
  if (ctol_arg)
    {
      ctol = vm_arg_real (ctol_arg, fn, "ConstraintTol");
      if (! (ctol >= 0))
        vm_arg_refuse (ctol_arg, fn, "ConstraintTol", "a finite scalar >= 0");
    }
  model_from_sys (prhs[1], fn, &m, &par, &d);   /* last: nothing below raises before freeing m */
  check_before_solve (&m, &d, par, q0, v0, ctol_arg, ctol, &so, tout_bad, guess_bad, n, fn);
  vm_skg_solution_init (&sol);
  st = vm_skg_solve (&m, par, q0, v0, &so, &sol);
  vm_mech_free (&m);
  if ((st == VM_EARG || st == VM_EORDER || st == VM_ESIZE) && sol.Ntot == 0)
    {
      char msg[sizeof sol.message];
      snprintf (msg, sizeof msg, "%s", sol.message);
      vm_skg_solution_free (&sol);
      BAD ("%s: %s", fn, msg[0] ? msg : "invalid arguments");
    }
  plhs[0] = solution_struct (&sol, st, so.N);
  vm_skg_solution_free (&sol);
}

/* sbp minimum N, asked by the front end (one place for the fact: csrc) */
static void
cmd_min_n (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  int order, adaptive;
  if (nrhs != 3)
    BAD ("skg_solve: internal: \"min_n\" takes 2 arguments");
  order = vm_arg_order (prhs[1], "skg_solve", "Order");
  adaptive = (int) vm_arg_int (prhs[2], "skg_solve", "adaptive", 0, 1);
  plhs[0] = mxCreateDoubleScalar ((double) vm_march_min_n (order, adaptive));
}

/* memory of one window, asked by the front end before it solves (csrc/skg/skg_solve.h) */
static void
cmd_memory (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "skg_solve";
  if (nrhs != 7)
    BAD ("%s: internal: \"memory\" takes 6 arguments", fn);
  plhs[0] = mxCreateDoubleScalar (vm_skg_memory_estimate (
    (int) vm_arg_int (prhs[1], fn, "n", 1, 1000000), (int) vm_arg_int (prhs[2], fn, "m", 0, 1000000),
    vm_arg_int (prhs[3], fn, "N", 2, 9007199254740992LL), vm_arg_order (prhs[4], fn, "Order"),
    vm_arg_int (prhs[5], fn, "mode", 0, 1) ? VM_SKG_REDUCED : VM_SKG_FULL,
    vm_mx_linsolve_arg (prhs[6], fn)));
}

static void
cmd_action (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "skg_action";
  vm_mech m;
  vm_skg s;
  double *par, S, *g, *hv, t0, tf;
  const double *q0, *v0, *z;
  int st, order, n;
  int64_t N, k;
  mxArray *H;
  if (nrhs != 8)
    BAD ("%s: internal: \"action\" takes 7 arguments", fn);
  vm_arg_interval (prhs[2], fn, "tspan", 1, &t0, &tf);
  N = vm_arg_int (prhs[5], fn, "N", 2, VM_ARG_NMAX);
  order = vm_arg_order (prhs[6], fn, "order");
  n = ncoord (prhs[1], fn);
  q0 = vm_arg_vector (prhs[3], fn, "q0", (size_t) n);
  v0 = vm_arg_vector (prhs[4], fn, "qdot0", (size_t) n);
  if (! mxIsDouble (prhs[7]) || mxIsComplex (prhs[7]) || mxIsSparse (prhs[7]))
    vm_arg_refuse (prhs[7], fn, "z", "a real full double vector");   /* its length: after the build */
  model_from_sys (prhs[1], fn, &m, &par, NULL);
  memset (&s, 0, sizeof s);
  st = vm_skg_build (&s, &m, par, N, order, &(vm_skg_window) { t0, tf, q0, v0 });
  vm_mech_free (&m);
  if (st == VM_OK && (st = vm_skg_full_pattern (&s)) != VM_OK)
    vm_skg_free (&s);
  if (st != VM_OK)
    BAD ("%s: the discrete action could not be built (N = %ld, order %d): %s", fn, (long) N, order,
         vm_status_string (st));
  if (! vm_arg_is_vector (prhs[7], (size_t) s.nz))
    {
      int64_t nz = s.nz;
      vm_skg_free (&s);
      vm_arg_vector (prhs[7], fn, "z", (size_t) nz);   /* raises */
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
  mexAtExit (vm_scratch_release);   /* the kept work arrays go with the gateway (vm_scratch.h) */
  vm_arg_command (nrhs, prhs, "vm_skg_mex", cmd, sizeof cmd);
  if (strcmp (cmd, "solve") == 0)
    cmd_solve (plhs, nrhs, prhs);
  else if (strcmp (cmd, "action") == 0)
    cmd_action (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "min_n") == 0)
    cmd_min_n (plhs, nrhs, prhs);
  else if (strcmp (cmd, "memory") == 0)
    cmd_memory (plhs, nrhs, prhs);
  else if (strcmp (cmd, "compiles") == 0)
    plhs[0] = mxCreateDoubleScalar (ncompiles);
  else if (strcmp (cmd, "model_compiles") == 0)
    plhs[0] = mxCreateDoubleScalar ((double) vm_model_compiles ());
  else
    BAD ("vm_skg_mex: unknown command '%s'; expected solve, action, min_n, memory or compiles",
         cmd);
}
