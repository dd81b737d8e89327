/* vm_periodic_mex.c -- MEX gateway of periodic orbits (csrc/dual_periodic, csrc/ode_flow).
 *
 *   sol  = vm_periodic_mex ("solve", ode_aug, setup)
 *   flow = vm_periodic_mex ("flow",  ode, setup)
 *   nmin = vm_periodic_mex ("min_n", order)
 *   [S, g, H, y] = vm_periodic_mex ("action", ode_aug, setup)   (setup of "solve" plus z)
 *   n    = vm_periodic_mex ("model_compiles")   (texts parsed by its model library: none; the
 *          systems' models are loaded from their compiled field)
 *
 * "solve": ode_aug is the augmented odesys dx/ds = P F(x), dP/ds = 0 (inst/periodic_orbit.m builds
 * it; its algebraic equations, if any, are integral conditions); setup has N, order, c (m), ybar
 * (N x m base state on the periodic grid), gauge (1-based components with d/ds = 0: P, eps),
 * tol, max_iter, base_iterations (polish passes), inner (Newton iterations per base state before
 * it is replaced), display (0/1).
 * "flow": ode an odesys without algebraic states; setup has t0, tf, x0 (n), tout ([] or a vector),
 * rtol, atol, variational (0/1), section ([] or [a(1..n), b, dir]), max_steps.
 * inst/periodic_orbit.m and periodic_guesses.m document and check the user-facing arguments; the
 * checks here guard the gateway itself.  No numerics here: conversion only. */
#include <string.h>

#include "base/vm_scratch.h"
#include "vm_mex.h"
#include "vm_ode_mx.h"
#include "dual/dual.h"
#include "dual/dual_periodic.h"
#include "dual/ode_flow.h"
#include "base/vm_status.h"

/* the DtP map's tolerance for periodic orbits (dual.h's default is 1e-13): see csrc/dual/dual_periodic.h */
#define VM_PERIODIC_DTP_TOL 1e-15

#define BAD(...) mexErrMsgIdAndTxt ("varmech:badarg", __VA_ARGS__)

static const mxArray *
sfield (const mxArray *s, const char *key, const char *fn)
{
  return vm_arg_field (s, key, fn, "the setup");
}

static double
num (const mxArray *o, const char *key, const char *fn)
{
  return vm_arg_real (sfield (o, key, fn), fn, key);
}

static int64_t
inum (const mxArray *o, const char *key, const char *fn, int64_t lo, int64_t hi)
{
  return vm_arg_int (sfield (o, key, fn), fn, key, lo, hi);
}

/* the model loaded from ode.compiled and its engine compiled; integral: 1 when algebraic
 * equations (integral conditions, no algebraic states) are allowed */
static void
compile (vm_mx_ode_engine *c, const mxArray *ode, const double *cw, int integral, const char *fn)
{
  vm_mx_ode_engine_model (c, ode, fn);
  if ((c->o.na != 0 && ! integral) || c->o.nd != c->o.ny)
    {
      vm_mx_ode_engine_free (c);
      BAD ("%s: the system has algebraic states or equations; expected an ODE xdot = F(x)", fn);
    }
  vm_mx_ode_engine_init (c, cw, fn);
}

static void
live_iter (void *ctx, int k, double res, double step, int kind, double factor)
{
  char line[96];
  snprintf (line, sizeof line, "  %4d  %11.4e  %11.4e  %-6s %9.3g\n", k, res, step,
            vm_newton_kind_name (kind), factor);
  vm_mex_print (ctx, line);
}

/* the number of components of the ODE (the augmented one of "solve": the states) */
static int
ode_size (const mxArray *ode, const char *fn)
{
  int n;
  if (! mxIsStruct (ode) || mxGetNumberOfElements (ode) != 1)
    BAD ("%s: ode must be a system made by odesys", fn);
  vm_arg_cellstr (vm_arg_field (ode, "states", fn, "ode"), fn, "ode.states", &n);
  return n;
}

static void
solve_outputs (mxArray *out, vm_dual_periodic *d, const double *z, const vm_newton_info *info)
{
  double *res = mxMalloc ((size_t) (d->N * d->m) * sizeof *res), ph = 0.0;
  double *integ = mxMalloc ((size_t) (d->ng + 1) * sizeof *integ);
  int64_t sb = d->N * d->m - d->ngauge;   /* nu, then mu (dual_periodic.h) */
  mxArray *s = mxCreateDoubleMatrix ((mwSize) d->N, 1, mxREAL);
  memcpy (mxGetPr (s), d->s, (size_t) d->N * sizeof (double));
  mxSetField (out, 0, "s", s);
  vm_dual_periodic_primal (d, res, &ph, integ);
  mxSetField (out, 0, "integral", vm_mx_col (integ, (size_t) d->ng));
  mxSetField (out, 0, "mu", vm_mx_col (z + sb + 1, (size_t) d->ng));
  mxSetField (out, 0, "y", vm_mx_point_major (d->y, d->N, d->m, d->m, 0));
  mxSetField (out, 0, "D", vm_mx_point_major (d->Dfull, d->N, d->m, d->m, 0));
  mxSetField (out, 0, "nu", mxCreateDoubleScalar (z[sb]));
  mxSetField (out, 0, "residual", vm_mx_point_major (res, d->N, d->m, d->m, 0));
  mxSetField (out, 0, "phase", mxCreateDoubleScalar (ph));
  mxSetField (out, 0, "ybar", vm_mx_point_major (d->ybar, d->N, d->m, d->m, 0));
  {
    mxArray *h = mxCreateDoubleMatrix ((mwSize) info->nhist, 1, mxREAL);
    if (info->nhist > 0 && info->res_hist)
      memcpy (mxGetPr (h), info->res_hist, (size_t) info->nhist * sizeof (double));
    mxSetField (out, 0, "residual_history", h);
  }
  mxFree (res);
  mxFree (integ);
}

/* the integration options of the setup: tolerances, variational, max_steps and the optional
 * section [a (n), b, dir] */
static void
flow_opts (const mxArray *o, int n, const char *fn, vm_ode_flow_opts *fo)
{
  const mxArray *sec;
  const double *sv;
  memset (fo, 0, sizeof *fo);
  fo->rtol = num (o, "rtol", fn);
  fo->atol = num (o, "atol", fn);
  fo->variational = (int) inum (o, "variational", fn, 0, 1);
  fo->max_steps = (long) inum (o, "max_steps", fn, 0, INT64_C (1000000000));
  sec = sfield (o, "section", fn);
  if (! mxIsEmpty (sec))
    {
      sv = vm_arg_vector (sec, fn, "section", (size_t) n + 2);
      fo->nsec = 1;
      fo->sec_a = sv;
      fo->sec_b = sv[n];
      fo->sec_dir = sv[n + 1] > 0 ? 1 : (sv[n + 1] < 0 ? -1 : 0);
    }
}

/* sol.t, y (npts x n) and the monodromy matrix (the variational part at the last point, or []) */
static void
flow_traj (mxArray *out, const vm_ode_sol *sol, int n, int variational)
{
  mxArray *t = mxCreateDoubleMatrix ((mwSize) sol->npts, 1, mxREAL), *yy;
  size_t i, k;
  if (sol->npts > 0)
    memcpy (mxGetPr (t), sol->t, sol->npts * sizeof (double));
  mxSetField (out, 0, "t", t);
  yy = mxCreateDoubleMatrix ((mwSize) sol->npts, (mwSize) n, mxREAL);
  for (k = 0; k < sol->npts; k++)
    for (i = 0; i < (size_t) n; i++)
      mxGetPr (yy)[k + sol->npts * i] = sol->y[k * sol->n + i];
  mxSetField (out, 0, "y", yy);
  if (variational && sol->npts > 0)
    {
      mxArray *M = mxCreateDoubleMatrix ((mwSize) n, (mwSize) n, mxREAL);
      memcpy (mxGetPr (M), sol->y + (sol->npts - 1) * sol->n + n,
              (size_t) (n * n) * sizeof (double));
      mxSetField (out, 0, "monodromy", M);
    }
  else
    mxSetField (out, 0, "monodromy", mxCreateDoubleMatrix (0, 0, mxREAL));
}

/* sol.te, ye: the section crossings */
static void
flow_events (mxArray *out, const vm_ode_sol *sol, int n)
{
  mxArray *te = mxCreateDoubleMatrix ((mwSize) sol->nevents, 1, mxREAL);
  mxArray *ye = mxCreateDoubleMatrix ((mwSize) sol->nevents, (mwSize) n, mxREAL);
  size_t i, k;
  for (k = 0; k < sol->nevents; k++)
    {
      mxGetPr (te)[k] = sol->te[k];
      for (i = 0; i < (size_t) n; i++)
        mxGetPr (ye)[k + sol->nevents * i] = sol->ye[k * sol->n + i];
    }
  mxSetField (out, 0, "te", te);
  mxSetField (out, 0, "ye", ye);
}

static void
cmd_flow (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "periodic_orbit";
  static const char *keys[] = { "t", "y", "monodromy", "te", "ye", "status", "message", "nsteps",
                                "nfev" };
  const mxArray *o, *tf_;
  vm_mx_ode_engine c;
  vm_ode_flow_opts fo;
  vm_ode_sol sol;
  double t0, tf, one = 1.0;
  const double *x0, *tout = NULL;
  size_t ntout = 0, k;
  int n, st;
  mxArray *out;
  if (nrhs != 3 || ! mxIsStruct (prhs[2]))
    BAD ("%s: internal: \"flow\" takes ode and a setup struct", fn);
  o = prhs[2];
  n = ode_size (prhs[1], fn);
  t0 = num (o, "t0", fn);
  tf = num (o, "tf", fn);
  x0 = vm_arg_vector (sfield (o, "x0", fn), fn, "x0", (size_t) n);
  tf_ = sfield (o, "tout", fn);
  if (! mxIsEmpty (tf_))
    tout = vm_arg_vector_any (tf_, fn, "tout", &ntout);
  flow_opts (o, n, fn, &fo);
  if (! (fo.rtol > 0.0) || ! (fo.atol > 0.0) || t0 == tf)
    BAD ("%s: internal: flow needs rtol, atol > 0 and t0 ~= tf", fn);
  {
    double *cw = mxMalloc ((size_t) n * sizeof *cw);
    for (k = 0; k < (size_t) n; k++)
      cw[k] = one;
    compile (&c, prhs[1], cw, 0, fn);
  }
  vm_ode_sol_init (&sol);
  st = vm_ode_flow (&c.e, t0, tf, x0, tout, ntout, &fo, &sol);
  out = mxCreateStructMatrix (1, 1, (int) (sizeof keys / sizeof keys[0]), keys);
  flow_traj (out, &sol, n, fo.variational);
  flow_events (out, &sol, n);
  mxSetField (out, 0, "status", mxCreateDoubleScalar (st));
  mxSetField (out, 0, "message", mxCreateString (vm_status_string (st)));
  mxSetField (out, 0, "nsteps", mxCreateDoubleScalar ((double) sol.nsteps));
  mxSetField (out, 0, "nfev", mxCreateDoubleScalar ((double) sol.nfev));
  vm_ode_sol_free (&sol);
  vm_mx_ode_engine_free (&c);
  plhs[0] = out;
}

/* the setup shared by "solve" and "action": checked, compiled, discretized (raises before any C
 * allocation, or after freeing it) */
static void
setup_periodic (vm_dual_periodic *d, vm_mx_ode_engine *c, const mxArray *ode, const mxArray *o,
                const char *fn)
{
  const mxArray *yb;
  int64_t N, j, q;
  int order, m, ng, st, gauge[VM_DUAL_PERIODIC_MAXM];
  const double *cw, *ybar, *gv, *ys = NULL;
  size_t ngv;
  double *ypm;
  m = ode_size (ode, fn);
  if (m > VM_DUAL_PERIODIC_MAXM)
    BAD ("%s: at most %d states (with P and the unfolding parameter); got %d", fn,
         VM_DUAL_PERIODIC_MAXM, m);
  vm_arg_cellstr (vm_arg_field (ode, "algebraic", fn, "ode"), fn, "ode.algebraic", &ng);
  N = inum (o, "N", fn, 1, INT64_C (100000000));
  order = vm_arg_order (sfield (o, "order", fn), fn, "Order");
  cw = vm_arg_vector (sfield (o, "c", fn), fn, "c", (size_t) m);
  yb = sfield (o, "ybar", fn);
  ybar = vm_arg_matrix (yb, fn, "the base state");
  if (mxGetM (yb) != (size_t) N || mxGetN (yb) != (size_t) m)
    vm_arg_refuse (yb, fn, "the base state", "an N-by-m matrix (one row per grid point)");
  gv = vm_arg_vector_any (sfield (o, "gauge", fn), fn, "gauge", &ngv);
  for (j = 0; j < m; j++)
    gauge[j] = 0;
  for (j = 0; j < (int64_t) ngv; j++)
    {
      if (! (gv[j] >= 1 && gv[j] <= m) || gv[j] != (double) (int) gv[j])
        BAD ("%s: internal: gauge entries must be state indices 1..%d", fn, m);
      gauge[(int) gv[j] - 1] = 1;
    }
  for (j = 0; j < m; j++)
    if (! (cw[j] > 0.0))
      BAD ("%s: c must be positive (entry %d is not)", fn, (int) j + 1);
  if (mxGetField (o, 0, "scale"))   /* optional: the state scales (vm_dual_periodic_set_scales) */
    {
      ys = vm_arg_vector (mxGetField (o, 0, "scale"), fn, "scale", (size_t) m);
      for (j = 0; j < m; j++)
        if (! (ys[j] > 0.0) || ! mxIsFinite (ys[j]))
          BAD ("%s: internal: the state scales must be positive and finite (entry %d is not)",
               fn, (int) j + 1);
    }
  ypm = mxMalloc ((size_t) (N * m) * sizeof *ypm);
  for (q = 0; q < N; q++)
    for (j = 0; j < m; j++)
      ypm[q * m + j] = ybar[q + N * j];
  compile (c, ode, cw, 1, fn);
  c->e.tol = VM_PERIODIC_DTP_TOL;
  st = vm_dual_periodic_init (d, &(vm_dual_problem) { m, m, ng, N, order, cw, vm_dual_ode_node,
                                                       &c->e }, ypm, gauge);
  mxFree (ypm);
  if (st == VM_OK && ys && (st = vm_dual_periodic_set_scales (d, ys)) != VM_OK)
    vm_dual_periodic_free (d);
  if (st != VM_OK)
    {
      vm_mx_ode_engine_free (c);
      BAD ("%s: the periodic dual action could not be set up (N = %ld, order %d): %s%s", fn,
           (long) N, order, vm_status_string (st),
           st == VM_EARG ? " (N must be odd and at least the order's minimum, and the base state "
                           "must not be constant)" : "");
    }
}

static void
cmd_action (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "periodic_orbit";
  vm_mx_ode_engine c;
  vm_dual_periodic d;
  const mxArray *zf;
  double S, *g;
  mxArray *H;
  int64_t j;
  int st;
  if (nrhs != 3 || ! mxIsStruct (prhs[2]))
    BAD ("%s: internal: \"action\" takes ode and a setup struct", fn);
  setup_periodic (&d, &c, prhs[1], prhs[2], fn);
  zf = sfield (prhs[2], "z", fn);
  if (! vm_arg_is_vector (zf, (size_t) d.nz))
    {
      int64_t nz = d.nz;
      vm_dual_periodic_free (&d);
      vm_mx_ode_engine_free (&c);
      vm_arg_vector (zf, fn, "z", (size_t) nz);   /* raises */
    }
  g = mxMalloc ((size_t) d.nz * sizeof *g);
  H = mxCreateSparse ((mwSize) d.nz, (mwSize) d.nz, (mwSize) d.nnz, mxREAL);
  for (j = 0; j <= d.nz; j++)
    mxGetJc (H)[j] = (mwIndex) d.colptr[j];
  for (j = 0; j < d.nnz; j++)
    mxGetIr (H)[j] = (mwIndex) d.rowind[j];
  st = vm_dual_periodic_eval (&d, mxGetPr (zf), &S, g, mxGetPr (H));
  if (st != VM_OK)
    {
      vm_dual_periodic_free (&d);
      vm_mx_ode_engine_free (&c);
      mxDestroyArray (H);
      mexErrMsgIdAndTxt ("varmech:dual", "%s: %s", fn, vm_status_string (st));
    }
  plhs[0] = mxCreateDoubleScalar (S);
  if (nlhs > 1)
    {
      plhs[1] = mxCreateDoubleMatrix ((mwSize) d.nz, 1, mxREAL);
      memcpy (mxGetPr (plhs[1]), g, (size_t) d.nz * sizeof (double));
    }
  if (nlhs > 2)
    plhs[2] = H;
  else
    mxDestroyArray (H);
  if (nlhs > 3)
    plhs[3] = vm_mx_point_major (d.y, d.N, d.m, d.m, 0);
  vm_dual_periodic_free (&d);
  vm_mx_ode_engine_free (&c);
}

static void
cmd_solve (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "periodic_orbit";
  static const char *keys[] = { "s", "y", "D", "nu", "mu", "residual", "phase", "integral",
                                "ybar", "iterations",
                                "residual_history", "base_change", "pass_residuals", "passes",
                                "exitflag", "message",
                                "dtp_failures", "bad_node" };
  const mxArray *o;
  vm_mx_ode_engine c;
  vm_dual_periodic d;
  vm_newton_info info;
  vm_dual_periodic_opts so;
  vm_dual_periodic_trace tr = { 0, 0, NULL, 0, NULL, 0 };
  int maxit, nbase, inner, display, st, iters = 0, passes = 0, nhist = 0, nchange = 0;
  double tol, *z, *change, *hist;
  mxArray *out;
  char msg[800];
  if (nrhs != 3 || ! mxIsStruct (prhs[2]))
    BAD ("%s: internal: \"solve\" takes ode and a setup struct", fn);
  o = prhs[2];
  tol = num (o, "tol", fn);
  maxit = (int) inum (o, "max_iter", fn, 0, 1000000);
  nbase = (int) inum (o, "base_iterations", fn, 0, 1000);
  inner = (int) inum (o, "inner", fn, 1, 1000000);
  display = (int) inum (o, "display", fn, 0, 1);
  setup_periodic (&d, &c, prhs[1], o, fn);
  if (display)
    {
      d.on_iter = live_iter;
      mexPrintf ("  iter     residual         step  kind      factor\n");
    }
  z = mxCalloc ((size_t) d.nz, sizeof *z);
  hist = mxCalloc ((size_t) (maxit + nbase + 2), sizeof *hist);
  change = mxCalloc ((size_t) (maxit + nbase + 1), sizeof *change);
  vm_newton_info_init (&info);
  so.inner = inner;
  so.max_iter = maxit;
  so.polish = nbase;
  so.tol = tol;
  tr.hist = hist;
  tr.change = change;
  st = vm_dual_periodic_search (&d, z, &so, &tr, &info);
  iters = tr.iterations;
  passes = tr.passes;
  nhist = tr.nhist;
  nchange = tr.nchange;
  if (st == VM_EDTP)
    snprintf (msg, sizeof msg, "%s at s = %g (node %ld): the base state is too far from an orbit "
              "for the weights c, or the orbit leaves the domain of F", vm_status_string (st),
              d.bad >= 0 ? d.s[d.bad] : 0.0, (long) d.bad + 1);
  else if (st != VM_OK && nhist >= 2)
    snprintf (msg, sizeof msg, "the search stopped (%s): residual %.3e -> %.3e in %d base-state "
              "passes, %d Newton iterations; last run: %s",
              st == VM_ENEWTON_STALL ? "a replacement of the base state did not lower the residual "
                                       "or 10 did not halve it"
                                     : (iters >= maxit ? "MaxIter reached" : "Newton failed"),
              hist[0], hist[nhist - 1], passes, iters,
              info.message[0] ? info.message : vm_status_string (st));
  else
    snprintf (msg, sizeof msg, "%s", info.message[0] ? info.message : vm_status_string (st));
  out = mxCreateStructMatrix (1, 1, (int) (sizeof keys / sizeof keys[0]), keys);
  if (d.have_y)
    solve_outputs (out, &d, z, &info);
  mxSetField (out, 0, "iterations", mxCreateDoubleScalar (iters));
  mxSetField (out, 0, "base_change", vm_mx_col (change, (size_t) nchange));
  mxSetField (out, 0, "pass_residuals", vm_mx_col (hist, (size_t) nhist));
  mxSetField (out, 0, "passes", mxCreateDoubleScalar (passes));
  mxSetField (out, 0, "exitflag", mxCreateDoubleScalar (st == VM_OK ? 1.0 : 0.0));
  mxSetField (out, 0, "message", mxCreateString (msg));
  mxSetField (out, 0, "dtp_failures", mxCreateDoubleScalar ((double) d.dtp_fail));
  mxSetField (out, 0, "bad_node", mxCreateDoubleScalar (st == VM_EDTP ? (double) d.bad + 1 : 0.0));
  vm_newton_info_free (&info);
  vm_dual_periodic_free (&d);
  vm_mx_ode_engine_free (&c);
  plhs[0] = out;
}

static void
cmd_min_n (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "periodic_orbit";
  int order;
  if (nrhs != 2)
    BAD ("%s: internal: \"min_n\" takes the order", fn);
  order = vm_arg_order (prhs[1], fn, "Order");
  plhs[0] = mxCreateDoubleScalar ((double) vm_dual_periodic_min_n (order));
}

void
mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char cmd[16];
  (void) nlhs;
  mexAtExit (vm_scratch_release);   /* the kept work arrays go with the gateway (vm_scratch.h) */
  vm_arg_command (nrhs, prhs, "vm_periodic_mex", cmd, sizeof cmd);
  if (strcmp (cmd, "solve") == 0)
    cmd_solve (plhs, nrhs, prhs);
  else if (strcmp (cmd, "flow") == 0)
    cmd_flow (plhs, nrhs, prhs);
  else if (strcmp (cmd, "action") == 0)
    cmd_action (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "min_n") == 0)
    cmd_min_n (plhs, nrhs, prhs);
  else if (strcmp (cmd, "model_compiles") == 0)
    plhs[0] = mxCreateDoubleScalar ((double) vm_model_compiles ());
  else
    BAD ("vm_periodic_mex: unknown command '%s'; expected solve, action, flow or min_n", cmd);
}
