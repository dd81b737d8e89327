/* vm_skg_mex.c -- MEX gateway of the discrete SKG action (csrc/skg, skg_solve, newton).
 *
 *   sol = vm_skg_mex ("solve", sys, tspan, q0, qdot0, opts)   (skg_solve's struct, every field
 *           but guess, which the front end sets: skg_solution_schema below, converted once)
 *   [S, g, H] = vm_skg_mex ("action", sys, tspan, q0, qdot0, N, order, z)
 *   nmin = vm_skg_mex ("min_n", order, adaptive)
 *   bytes = vm_skg_mex ("memory", n, m, N, order, mode, linsolve)   (vm_skg_memory_estimate, one
 *           window; linsolve 0 auto, 1 umfpack, 2 banded)
 *   n = vm_skg_mex ("compiles")   (mechsys models loaded by this gateway so far: one per call)
 *   n = vm_skg_mex ("model_compiles")   (texts parsed by this gateway's model library: none)
 *   schema = vm_skg_mex ("solution_schema")   (the fields of sol, vm_solution_mx.h)
 *
 * sys: a mechsys struct (its model is loaded from sys.compiled, not parsed: the action is built
 * symbolically from L, the forces and the constraints of the loaded graph; parameter values come
 * from sys.parameters).  opts:
 * skg_solve's options struct (vm_options: the public names of csrc/base/vm_schema.c, checked
 * there), with N, Windows (0: error control), MaxIter and Guess ([] or Ntot x n) filled in by
 * skg_solve.m, and the fields estimate (0 or 1), constraint_tol
 * (ConstraintTol: the initial state is checked against the constraints on the compiled model,
 * csrc/model/initial_check.h, before anything is solved; a finding is the error
 * varmech:skg_solve:initial_state "skg_solve: <report>") and optionally max_bytes (after the
 * initial check, work whose memory estimate, skg_solve.m's check_memory, is not below it is
 * refused with the identifier varmech:skg_solve:ask_memory, on which the front end asks the
 * system how much is available, then phrases the refusal or solves without the limit: one
 * crossing in the common case, the system asked only for large work).  The solution's energy and constraint
 * residuals (fields energy, residual, residual_position) come from the same model
 * (csrc/reference/mech_points.h), loaded once per call.  inst/skg_solve.m and inst/skg_action.m document and check them.  No
 * numerics here: conversion and checks only. */
#include <stddef.h>
#include <string.h>

#include "base/vm_scratch.h"
#include "vm_mex.h"
#include "vm_mech_mx.h"
#include "vm_march_mx.h"
#include "vm_linsolve_mx.h"
#include "vm_opts_mx.h"
#include "vm_solution_mx.h"
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

/* One call of "solve": its arguments as read, and the deferred findings that are raised only
 * after the initial check (so that a bad initial state is always what is reported first). */
typedef struct
{
  const char *fn;              /* the solver's name, for messages */
  int n;                       /* the number of coordinates */
  const double *q0, *v0;       /* the initial state */
  const mxArray *ctol_arg;     /* constraint_tol, or NULL: no initial check */
  double ctol;                 /* its value */
  int64_t tout_bad;            /* the first OutputTimes entry outside tspan, -1: none */
  int guess_bad;               /* 1: the Guess matrix has the wrong shape */
  double max_bytes;            /* opts.max_bytes, or -1: no memory limit here */
  vm_skg_solve_opts so;        /* the options, read by the schema */
} skg_call;

/* The memory estimate of skg_solve.m's check (check_memory): one window (csrc/skg/skg_solve.h)
 * and the output arrays, about 4 copies of 2n + m + 1 columns on the grid; m constraints. */
static double
memory_need (const skg_call *c, int m)
{
  const vm_skg_solve_opts *so = &c->so;
  double ntot = (double) (so->windows > 0 ? so->windows : 1) * (double) (so->N - 1) + 1.0;
  return vm_skg_memory_estimate (c->n, m, so->N, so->order, so->mode, so->newton.linsolve)
         + 8.0 * 4.0 * ntot * (2.0 * c->n + m + 1.0);
}

/* The initial state of c against the constraints on the compiled model m (with ConstraintTol;
 * vm_check_initial.m does the same through vm_model_mex "check_initial"), then the deferred
 * OutputTimes and Guess errors; m is freed before any error is raised. */
static void
check_before_solve (vm_mech *m, const vm_mech_desc *d, const double *par, const skg_call *c)
{
  const vm_skg_solve_opts *so = &c->so;
  const char *fn = c->fn;
  if (c->ctol_arg)
    {
      vm_initial_report r;
      vm_mx_initial_at at;
      at.par = par;
      at.t0 = so->t0;
      at.q0 = c->q0;
      at.qdot0 = c->v0;
      at.tol = c->ctol;
      vm_mx_initial_check (m, d, &at, fn, &r);
      if (r.kind != VM_INITIAL_OK)
        {
          char msg[VM_INITIAL_MSG];
          snprintf (msg, sizeof msg, "%s", r.msg);
          vm_mech_free (m);
          mexErrMsgIdAndTxt ("varmech:skg_solve:initial_state", "%s: %s", fn, msg);
        }
    }
  if (c->tout_bad >= 0)
    {
      vm_mech_free (m);
      BAD ("%s: OutputTimes must lie in tspan [%g, %g] (entry %lu is %g)", fn, so->t0, so->tf,
           (unsigned long) c->tout_bad + 1, so->t_out[c->tout_bad]);
    }
  if (c->guess_bad)
    {
      vm_mech_free (m);
      BAD ("%s: the initial guess must be %lu x %d (one row per grid point of a fixed grid)", fn,
           (unsigned long) ((size_t) so->windows * (size_t) (so->N - 1) + 1), c->n);
    }
}

/* ---- the solution: skg_solve's schema (vm_solution_mx.h), converted once ---------------------- */

/* What the makers of skg_solve's rows read besides the C solution. */
typedef struct
{
  const vm_skg_solve_opts *so;   /* t_out: the requested output times; windows: 0 adaptive */
  const mxArray *sys;            /* the mechsys struct (its coordinate names) */
  const char *fn;                /* the solver's name */
} skg_sol_aux;

static mxArray *
skg_lambda_gap (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_skg_solution *sol = s->sol;
  (void) f;
  return mxCreateDoubleScalar (sol->lambda_state ? sol->lambda_gap : mxGetNaN ());
}

static mxArray *
skg_exitflag (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateDoubleScalar (((const vm_skg_solution *) s->sol)->status == VM_OK ? 1.0 : 0.0);
}

static mxArray *
skg_linear_solver (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_skg_solution *sol = s->sol;
  const vm_march_sol *ms = &sol->march;
  (void) f;
  return vm_mx_linsolve (ms->linsolve, ms->kl, ms->ku, ms->lean, ms->nchol, ms->nchol_fail,
                         sol->t_numeric, sol->t_solve);
}

/* output.t: the requested times, a column */
static mxArray *
skg_output_t (const vm_sol_src *s, const vm_sol_field *f)
{
  const skg_sol_aux *x = s->aux;
  (void) f;
  return vm_mx_col (x->so->t_out, (size_t) x->so->n_out);
}

/* columns col0 .. col0 + cols - 1 of the dense output sol->out (n_out x (2n + m)); NaN after a
 * failed solve, which has none */
static mxArray *
skg_output_block (const vm_sol_src *s, const vm_sol_field *f, size_t col0)
{
  const vm_skg_solution *sol = s->sol;
  size_t r = vm_sol_dim (s, f->rows), c = vm_sol_dim (s, f->cols), k;
  mxArray *a = mxCreateDoubleMatrix (r, c, mxREAL);
  if (sol->n_out > 0 && sol->out && (size_t) sol->n_out == r)
    memcpy (mxGetPr (a), sol->out + r * col0, r * c * sizeof (double));
  else
    for (k = 0; k < r * c; k++)
      mxGetPr (a)[k] = mxGetNaN ();
  return a;
}

static mxArray *
skg_output_q (const vm_sol_src *s, const vm_sol_field *f)
{
  return skg_output_block (s, f, 0);
}

static mxArray *
skg_output_qdot (const vm_sol_src *s, const vm_sol_field *f)
{
  return skg_output_block (s, f, (size_t) s->size[VM_SZ_N]);
}

static mxArray *
skg_output_lambda (const vm_sol_src *s, const vm_sol_field *f)
{
  return skg_output_block (s, f, 2 * (size_t) s->size[VM_SZ_N]);
}

static mxArray *
skg_adaptive (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateLogicalScalar (((const skg_sol_aux *) s->aux)->so->windows == 0);
}

static mxArray *
skg_solver (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateString (((const skg_sol_aux *) s->aux)->fn);
}

/* names: sys.coordinates as a 1-by-n cell row */
static mxArray *
skg_names (const vm_sol_src *s, const vm_sol_field *f)
{
  mxArray *c = mxDuplicateArray (mxGetField (((const skg_sol_aux *) s->aux)->sys, 0,
                                             "coordinates"));
  size_t n = mxGetNumberOfElements (c);
  (void) f;
  mxSetM (c, 1);
  mxSetN (c, n);
  return c;
}

#define ROW(name, kind, rows, cols, member, make, unit, meaning) \
  { name, kind, rows, cols, VM_SZ_0, offsetof (vm_skg_solution, member), make, NULL, unit, meaning }
#define MAKE(name, rows, cols, make, unit, meaning) \
  { name, VM_SOLF_MAKE, rows, cols, VM_SZ_0, 0, make, NULL, unit, meaning }
#define MARCH_MAKE(name, rows, cols, make, unit, meaning) \
  { name, VM_SOLF_MAKE, rows, cols, VM_SZ_0, offsetof (vm_skg_solution, march), make, NULL, unit, \
    meaning }
#define SUB(name, when, member, sub, meaning) \
  { name, VM_SOLF_STRUCT, VM_SZ_1, VM_SZ_1, when, offsetof (vm_skg_solution, member), NULL, sub, \
    "", meaning }
/* a struct field whose rows address the solution itself */
#define SUB_HERE(name, when, sub, meaning) \
  { name, VM_SOLF_STRUCT, VM_SZ_1, VM_SZ_1, when, 0, NULL, sub, "", meaning }
#define END { NULL, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL }

/* sol.timing: wall-clock seconds and counts of the solve's parts */
static const vm_sol_field skg_timing_schema[] = {
  ROW ("build", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_build, NULL, "s", "building the actions"),
  ROW ("residual", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_fun, NULL, "s",
       "Newton's residual callbacks"),
  ROW ("jacobian", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_jac, NULL, "s",
       "Newton's Jacobian callbacks"),
  ROW ("tape", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_tape, NULL, "s", "the density tape"),
  ROW ("hessian", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_hess, NULL, "s", "the Hessian assembly"),
  ROW ("symbolic", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_symbolic, NULL, "s",
       "symbolic analyses of the linear solver"),
  ROW ("numeric", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_numeric, NULL, "s",
       "numeric factorizations"),
  ROW ("solve", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_solve, NULL, "s",
       "solves with the factors"),
  ROW ("total", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_total, NULL, "s", "the whole solve"),
  ROW ("factorizations", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, nfactor, NULL, "1",
       "numeric factorizations"),
  ROW ("tape_evaluations", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, ntape, NULL, "1",
       "evaluations of the density tape"),
  ROW ("reused_factorizations", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, nreuse_factor, NULL, "1",
       "Newton's chord steps, each a factorization saved"),
  END
};

/* sol.output: the solution at the requested times (OutputTimes) */
static const vm_sol_field skg_output_schema[] = {
  MAKE ("t", VM_SZ_NOUT, VM_SZ_1, skg_output_t, "[t]", "the requested times"),
  MAKE ("q", VM_SZ_NOUT, VM_SZ_N, skg_output_q, "[q]",
        "positions by the SBP solution's own interpolant (NaN after a failed solve)"),
  MAKE ("qdot", VM_SZ_NOUT, VM_SZ_N, skg_output_qdot, "[q]/[t]",
        "velocities by the same interpolant"),
  MAKE ("lambda", VM_SZ_NOUT, VM_SZ_M, skg_output_lambda, "[force]",
        "the multipliers at those states"),
  END
};

/* The struct skg_solve returns, field by field in its order (doc: help skg_solve). */
static const vm_sol_field skg_solution_schema[] = {
  ROW ("t", VM_SOLF_REAL, VM_SZ_NTOT, VM_SZ_1, t, NULL, "[t]", "the nodes"),
  ROW ("q", VM_SOLF_REAL, VM_SZ_NTOT, VM_SZ_N, q, NULL, "[q]", "positions q+ at the nodes"),
  ROW ("qdot", VM_SOLF_REAL, VM_SZ_NTOT, VM_SZ_N, v, NULL, "[q]/[t]",
       "velocities Da q+ of each window's scheme"),
  ROW ("lambda", VM_SOLF_REAL, VM_SZ_NTOT, VM_SZ_M, lambda, NULL, "[force]",
       "the physical multipliers at the states"),
  ROW ("lambda_plus", VM_SOLF_REAL, VM_SZ_NTOT, VM_SZ_M, lambda_plus, NULL, "[force]",
       "the action's raw multipliers lambda+"),
  MAKE ("lambda_gap", VM_SZ_1, VM_SZ_1, skg_lambda_gap, "[force]",
        "max |lambda + lambda+| over the interior nodes (NaN if none)"),
  ROW ("max_qminus", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, max_qm, NULL, "[q]",
       "max |q-| over the windows (0 in reduced mode)"),
  ROW ("max_lambdaminus", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, max_lm, NULL, "[force]",
       "max |lambda-| over the windows (0 in reduced mode)"),
  ROW ("max_gradient", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, max_grad, NULL, "",
       "max over the windows of ||grad S||_inf of the full action"),
  ROW ("iterations", VM_SOLF_INT, VM_SZ_1, VM_SZ_1, iterations, NULL, "1",
       "Newton steps, all windows and orders"),
  ROW ("residual_history", VM_SOLF_REAL, VM_SZ_NHIST, VM_SZ_1, march.res_hist, NULL, "",
       "||F||_W per Newton iterate of the accepted solves"),
  ROW ("step_history", VM_SOLF_REAL, VM_SZ_NHIST, VM_SZ_1, march.step_hist, NULL, "",
       "||dx||_inf per Newton step"),
  MARCH_MAKE ("step_kind", VM_SZ_NHIST, VM_SZ_1, vm_march_mx_step_kinds, "",
              "the kind of each Newton step"),
  ROW ("step_factor", VM_SOLF_REAL, VM_SZ_NHIST, VM_SZ_1, march.lambda_hist, NULL, "1",
       "the line search's factor of each step"),
  MARCH_MAKE ("history_window", VM_SZ_NHIST, VM_SZ_1, vm_march_mx_history_window, "1",
              "the window (1-based) of each history entry"),
  ROW ("window_iterations", VM_SOLF_INTS, VM_SZ_1, VM_SZ_NWIN, march.win_iter, NULL, "1",
       "Newton steps per accepted window"),
  SUB ("windows", VM_SZ_0, march, vm_march_windows_schema, "the accepted windows"),
  SUB ("rejected", VM_SZ_0, march, vm_march_rejected_schema, "the rejected attempts"),
  MAKE ("exitflag", VM_SZ_1, VM_SZ_1, skg_exitflag, "1", "1 solved, 0 failed"),
  ROW ("message", VM_SOLF_TEXT, VM_SZ_1, VM_SZ_LEN, message, NULL, "",
       "what happened, in words"),
  SUB_HERE ("timing", VM_SZ_0, skg_timing_schema, "wall-clock seconds and counts"),
  SUB_HERE ("output", VM_SZ_NOUT, skg_output_schema,
       "the solution at OutputTimes (only when they are given)"),
  MAKE ("linear_solver", VM_SZ_1, VM_SZ_1, skg_linear_solver, "",
        "the linear solver of Newton's systems (vm_linsolve_mx.h)"),
  ROW ("residual", VM_SOLF_REAL_NAN, VM_SZ_NTOT, VM_SZ_M, phi, NULL, "",
       "every constraint at velocity level at the nodes"),
  ROW ("residual_position", VM_SOLF_REAL_NAN, VM_SZ_NTOT, VM_SZ_M, gpos, NULL, "",
       "the holonomic constraints g(t, q) at the nodes (0 for the others)"),
  ROW ("energy", VM_SOLF_REAL_NAN, VM_SZ_NTOT, VM_SZ_1, energy, NULL, "[energy]",
       "qdot . dL/dqdot - L + contact_energy at the nodes"),
  ROW ("contact_energy", VM_SOLF_REAL_NAN, VM_SZ_NTOT, VM_SZ_1, contact_energy, NULL, "[energy]",
       "the contacts' potentials sum_c V0/2 erfc(h/(sqrt(2) sigma)) at the nodes"),
  ROW ("unresolved_windows", VM_SOLF_INT, VM_SZ_1, VM_SZ_1, march.nunresolved, NULL, "1",
       "fixed grid: windows the action's check vetoes (kept)"),
  { "guess", VM_SOLF_FRONT, VM_SZ_1, VM_SZ_LEN, VM_SZ_0, 0, NULL, NULL, "",
    "the start of Newton's iteration (set by skg_solve.m, which chooses it)" },
  MAKE ("adaptive", VM_SZ_1, VM_SZ_1, skg_adaptive, "", "true: error control chose the windows"),
  MAKE ("solver", VM_SZ_1, VM_SZ_LEN, skg_solver, "", "'skg_solve'"),
  MAKE ("names", VM_SZ_1, VM_SZ_N, skg_names, "", "the coordinates' names"),
  END
};

#undef ROW
#undef MAKE
#undef MARCH_MAKE
#undef SUB
#undef SUB_HERE
#undef END

/* The struct skg_solve returns, converted once from the solution sol of the options so. */
static mxArray *
solution_struct (const vm_skg_solution *sol, const vm_skg_solve_opts *so, const mxArray *sys,
                 const char *fn)
{
  skg_sol_aux x;
  vm_sol_src s;
  x.so = so;
  x.sys = sys;
  x.fn = fn;
  memset (&s, 0, sizeof s);
  s.sol = sol;
  s.aux = &x;
  s.size[VM_SZ_NTOT] = sol->Ntot;
  s.size[VM_SZ_N] = sol->n;
  s.size[VM_SZ_M] = sol->m;
  s.size[VM_SZ_NOUT] = so->n_out;
  vm_march_mx_sizes (&s, &sol->march, so->N);
  return vm_solution_mx (skg_solution_schema, &s);
}

/* vm_skg_mex ("solve", sys, tspan, q0, qdot0, opts): skg_solve's gateway. */
static void
cmd_solve (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "skg_solve";
  vm_mech m;
  vm_mech_desc d;
  double *par, t0, tf;
  const mxArray *o;
  int st;
  skg_call c;
  const vm_skg_solve_opts *so = &c.so;
  vm_skg_solution sol;
  if (nrhs != 6)
    BAD ("%s: internal: \"solve\" takes 5 arguments", fn);
  c.fn = fn;
  o = prhs[5];
  vm_arg_struct (o, fn, "the options");
  vm_arg_interval (prhs[2], fn, "tspan", 1, &t0, &tf);
  c.n = ncoord (prhs[1], fn);
  c.q0 = vm_arg_vector (prhs[3], fn, "q0", (size_t) c.n);
  c.v0 = vm_arg_vector (prhs[4], fn, "qdot0", (size_t) c.n);
  solve_opts (o, fn, t0, tf, c.n, &c.so, &c.tout_bad, &c.guess_bad);
  c.ctol = 0.0;
  c.ctol_arg = vm_arg_field_opt (o, "constraint_tol");
  if (c.ctol_arg)
    {
      c.ctol = vm_arg_real (c.ctol_arg, fn, "ConstraintTol");
      if (! (c.ctol >= 0))
        vm_arg_refuse (c.ctol_arg, fn, "ConstraintTol", "a finite scalar >= 0");
    }
  c.max_bytes = -1.0;
  if (vm_arg_field_opt (o, "max_bytes"))
    c.max_bytes = vm_arg_real (vm_arg_field_opt (o, "max_bytes"), fn, "max_bytes");
  model_from_sys (prhs[1], fn, &m, &par, &d);   /* last: nothing below raises before freeing m */
  check_before_solve (&m, &d, par, &c);
  if (c.max_bytes >= 0.0 && ! (memory_need (&c, m.m) < c.max_bytes))
    {
      vm_mech_free (&m);
      mexErrMsgIdAndTxt ("varmech:skg_solve:ask_memory", "%s: internal: the memory estimate is "
                         "not below max_bytes (the front end asks the system)", fn);
    }
  vm_skg_solution_init (&sol);
  st = vm_skg_solve (&m, par, c.q0, c.v0, so, &sol);
  vm_mech_free (&m);
  if ((st == VM_EARG || st == VM_EORDER || st == VM_ESIZE) && sol.Ntot == 0)
    {
      char msg[sizeof sol.message];
      snprintf (msg, sizeof msg, "%s", sol.message);
      vm_skg_solution_free (&sol);
      BAD ("%s: %s", fn, msg[0] ? msg : "invalid arguments");
    }
  plhs[0] = solution_struct (&sol, so, prhs[1], fn);
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
  else if (strcmp (cmd, "solution_schema") == 0)
    plhs[0] = vm_solution_schema_mx (skg_solution_schema);
  else
    BAD ("vm_skg_mex: unknown command '%s'; expected solve, action, min_n, memory, compiles "
         "or solution_schema", cmd);
}
