/* vm_dual_mex.c -- MEX gateway of the discrete dual action (csrc/dual, csrc/dual_closed, newton).
 *
 *   sol         = vm_dual_mex ("solve",  ode, setup)
 *   [S, g, H, y] = vm_dual_mex ("action", ode, setup)
 *   sol         = vm_dual_mex ("march",  ode, setup)   (the user's struct, vm_dual_sol_mx.h)
 *   sol         = vm_dual_mex ("slabs",  ode, setup)   (likewise, but for t; see below)
 *   n           = vm_dual_mex ("compiles")   (odesys models loaded by this gateway so far)
 *   n           = vm_dual_mex ("model_compiles")   (texts parsed by its model library: none)
 *   nmin        = vm_dual_mex ("min_n",  order, adaptive)
 *   h           = vm_dual_mex ("hmin",   t, T, N)   (vm_march_hmin: the shortest slab of N nodes)
 *   schema      = vm_dual_mex ("solution_schema", kind)   (kind "march", "slabs",
 *                 "slabs_diagnostics" or "solve": the fields of those results, vm_dual_sol_mx.h)
 *   bytes       = vm_dual_mex ("memory", nd, ng, N, order, linsolve [, ny, Ntot])
 *                 (vm_dual_memory_estimate, one window; linsolve 0 auto, 1 umfpack, 2 banded; with
 *                 ny and Ntot also the arrays of a fixed grid of Ntot points:
 *                 vm_dual_slabs_memory_estimate)
 *
 * ode: an odesys struct (loaded from ode.compiled, not parsed), used when setup.kernel is "general";
 * for the closed forms it may be [] and setup.kpar holds their parameters.  setup: struct with t0,
 * tf, N, order, c (ny), ybar (N x ny), y0 (nd), DT (nd), z ([] or nz), tol, max_iter, kernel and
 * kpar (and optionally weak: 1 for the weak final dual; linsolve: 0 auto, 1 umfpack, 2 banded,
 * Newton's linear solver, also for "march").  "march" (csrc/dual/dual_march.h, march.h):
 * setup has t0, tf, N, order, c, y0, kernel, kpar, windows (0 adaptive, W fixed), tol (Newton's
 * fraction of the error tolerance), dual_solve's options RelTol, AbsTol ([]: the schema's
 * defaults), MaxIter, LinearSolver, BaseIterations and Display by their public names (as
 * vm_options made them), and optionally estimate, guess (Ntot x ny base state, fixed mode),
 * output_times and check_rhs (1: a right-hand side that is not finite at (t0, y0) is the error
 * varmech:dual_solve:rhs_check, vm_dual_march_mx.h).
 * "slabs" (csrc/dual/dual_slabs.h: every slab and base-state pass of a fixed grid in one call, the
 * model compiled once): setup has tb (S + 1 slab boundaries), N (at least vm_march_min_n; each slab
 * at least vm_march_hmin long), order, c (ny entries, or one for all), ybar ([], ny entries: a
 * constant base state, or Ntot x ny), y0, DT ([] or nd), guess ([] or Ntot x m initial duals),
 * tol, max_iter, kernel, kpar, weak, linsolve, base_iterations, display (0/1/2; 2 prints each
 * slab's Newton residuals live) and name (the printed prefix); optionally max_bytes (refuse, before
 * allocating, work whose estimate, "memory" with ny and Ntot, is not below it) and sol (1: return
 * [sol, failed_slab], sol with the fields of dual_solve's solution, t empty for the caller to
 * fill, and hamiltonian empty unless setup.hamiltonian is 1).
 * inst/dual_solve.m, dual_lorenz.m and dual_pars.m document and check the user-facing
 * arguments; the checks here guard the gateway itself.  No numerics here: conversion only.
 * The setup readers and kernels are in vm_dual_kernel_mx.h, "march" in vm_dual_march_mx.h and
 * "slabs" in vm_dual_slabs_mx.h (one command's reader per file); this file holds "solve",
 * "action", the facts asked by the front ends and the dispatch. */
#include <string.h>

#include "base/vm_scratch.h"
#include "vm_mex.h"
#include "vm_mech_mx.h"
#include "vm_march_mx.h"
#include "vm_linsolve_mx.h"
#include "vm_opts_mx.h"
#include "vm_ode_mx.h"
#include "vm_dual_sol_mx.h"
#include "dual/dual.h"
#include "dual/dual_closed.h"
#include "dual/dual_march.h"
#include "dual/dual_slabs.h"
#include "march/march.h"
#include "base/vm_status.h"

#define BAD(...) mexErrMsgIdAndTxt ("varmech:badarg", __VA_ARGS__)

#include "vm_dual_kernel_mx.h"
#include "vm_dual_march_mx.h"
#include "vm_dual_slabs_mx.h"

/* check the setup, build the kernel, then the discretization (raises only before any C
 * allocation, or after freeing it) */
static void
setup_dual (vm_dual *d, kernel *k, const mxArray *ode, const mxArray *o, const char *fn,
            double **ybar_pm)
{
  double t0 = num (o, "t0", fn), tf = num (o, "tf", fn);
  int64_t N = inum (o, "N", "N", fn, 2, VM_ARG_NMAX), j;
  int order = vm_arg_order (sfield (o, "order", fn, "the setup"), fn, "Order");
  const mxArray *yb = sfield (o, "ybar", fn, "the setup");
  const double *c, *ybar = NULL, *y0, *DT;
  int i, st;
  c = arr (o, "c", (size_t) k->ny, 0, fn, "c");
  if (! mxIsEmpty (yb))
    {
      ybar = vm_arg_matrix (yb, fn, "BaseState");
      if (mxGetM (yb) != (size_t) N || mxGetN (yb) != (size_t) k->ny)
        vm_arg_refuse (yb, fn, "BaseState", "an N-by-ny matrix (one row per grid point)");
    }
  y0 = arr (o, "y0", (size_t) k->nd, 0, fn, "y0");
  DT = arr (o, "DT", (size_t) k->nd, 1, fn, "DT");
  for (i = 0; i < k->ny; i++)
    if (! (c[i] > 0.0))
      BAD ("%s: c must be positive (entry %d is not)", fn, i + 1);
  *ybar_pm = NULL;
  if (ybar)
    {
      *ybar_pm = mxMalloc ((size_t) (N * k->ny) * sizeof **ybar_pm);
      for (j = 0; j < N; j++)
        for (i = 0; i < k->ny; i++)
          (*ybar_pm)[j * k->ny + i] = ybar[j + N * i];
    }
  kernel_build (k, ode, c, fn);
  st = vm_dual_init (d, &(vm_dual_problem) { k->ny, k->nd, k->ng, N, order, c, k->fn, k->ctx },
                     t0, tf, *ybar_pm, y0, DT, weak_flag (o, fn));
  if (st != VM_OK)
    {
      kernel_free (k);
      BAD ("%s: the discrete dual action could not be set up (N = %ld, order %d on [%g, %g]): %s",
           fn, (long) N, order, t0, tf, vm_status_string (st));
    }
}

/* the initial duals z (nz): setup.z (zf, taken before d and k were built), or zeros when it is
 * empty (a z of the wrong size raises after freeing d and k) */
static void
solve_guess (vm_dual *d, kernel *k, const mxArray *zf, const char *fn, double *z)
{
  const double *z0 = NULL;
  int64_t j;
  if (! mxIsEmpty (zf))
    {
      if (! vm_arg_is_vector (zf, (size_t) d->nz))
        {
          int64_t nz = d->nz;
          vm_dual_free (d);
          kernel_free (k);
          vm_arg_vector (zf, fn, "the initial duals (Guess)", (size_t) nz);   /* raises */
        }
      z0 = mxGetPr (zf);
    }
  for (j = 0; j < d->nz; j++)
    z[j] = z0 ? z0[j] : 0.0;
}

/* The struct of "solve" (vm_dual_solve_schema), converted once from d, the kernel k and *x
 * (Newton's info, the status and message, the action S and the primal residuals, filled by the
 * caller; the kernel's linearity and the failing node are set here); y, residual, G and
 * hamiltonian have no rows when the primal could not be recovered. */
static mxArray *
solve_output (const vm_dual *d, const kernel *k, vm_dual_solve_out *x)
{
  vm_sol_src s;
  x->linear_dtp = k->kind == 0 ? k->g.e.linear : 1.0;
  x->bad_node = x->status == VM_EDTP ? (double) d->bad + 1 : 0.0;
  memset (&s, 0, sizeof s);
  s.sol = d;
  s.aux = x;
  s.size[VM_SZ_NTOT] = d->N;
  s.size[VM_SZ_NPRIMAL] = d->have_y ? d->N : 0;
  s.size[VM_SZ_NY] = d->ny;
  s.size[VM_SZ_ND] = d->nd;
  s.size[VM_SZ_NG] = d->ng;
  s.size[VM_SZ_M] = d->m;
  s.size[VM_SZ_NHIST] = x->info->nhist;
  return vm_solution_mx (vm_dual_solve_schema, &s);
}

static void
cmd_solve (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "dual_solve";
  kernel k;
  vm_dual d;
  vm_newton_info info;
  vm_dual_solve_out x;
  double *ybar_pm, *z, tol, S = 0.0, *res, *gres, *ham;
  int st, maxit, linsolve;
  mxArray *out;
  const mxArray *zf;
  char msg[400];
  if (nrhs != 3 || ! mxIsStruct (prhs[2]))
    BAD ("%s: internal: \"solve\" takes ode and a setup struct", fn);
  tol = num (prhs[2], "tol", fn);
  maxit = (int) inum (prhs[2], "max_iter", "MaxIter", fn, 0, 1000000);
  linsolve = vm_mx_linsolve_opt (prhs[2], fn);
  zf = sfield (prhs[2], "z", fn, "the setup");   /* a missing field raises before any C allocation */
  kernel_setup (&k, prhs[1], prhs[2], fn);
  setup_dual (&d, &k, prhs[1], prhs[2], fn, &ybar_pm);
  z = mxMalloc ((size_t) d.nz * sizeof *z);
  solve_guess (&d, &k, zf, fn, z);
  vm_newton_info_init (&info);
  st = vm_dual_solve (&d, z, tol, maxit, linsolve, &info);
  vm_dual_solve_message (msg, sizeof msg, st, &d, &info);
  res = mxMalloc ((size_t) (d.N * d.nd + 1) * sizeof *res);
  gres = mxMalloc ((size_t) (d.N * d.ng + 1) * sizeof *gres);
  ham = mxMalloc ((size_t) (d.N + 1) * sizeof *ham);
  if (d.have_y)
    {
      vm_dual_eval (&d, z, &S, NULL, NULL);
      vm_dual_primal (&d, res, gres, ham);
    }
  x.info = &info;
  x.res = res;
  x.gres = gres;
  x.ham = ham;
  x.S = S;
  x.status = st;
  x.message = msg;
  out = solve_output (&d, &k, &x);
  vm_newton_info_free (&info);
  vm_dual_free (&d);
  kernel_free (&k);
  plhs[0] = out;
}

static void
cmd_action (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "dual_action";
  kernel k;
  vm_dual d;
  double *ybar_pm, S, *g, *hv;
  const mxArray *zf;
  int st;
  int64_t j;
  mxArray *H;
  if (nrhs != 3 || ! mxIsStruct (prhs[2]))
    BAD ("%s: internal: \"action\" takes ode and a setup struct", fn);
  zf = sfield (prhs[2], "z", fn, "the setup");   /* a missing field raises before any C allocation */
  kernel_setup (&k, prhs[1], prhs[2], fn);
  setup_dual (&d, &k, prhs[1], prhs[2], fn, &ybar_pm);
  if (! vm_arg_is_vector (zf, (size_t) d.nz))
    {
      int64_t nz = d.nz;
      vm_dual_free (&d);
      kernel_free (&k);
      vm_arg_vector (zf, fn, "z", (size_t) nz);   /* raises */
    }
  g = mxMalloc ((size_t) d.nz * sizeof *g);
  H = mxCreateSparse ((mwSize) d.nz, (mwSize) d.nz, (mwSize) (d.nnz > 0 ? d.nnz : 1), mxREAL);
  hv = mxGetPr (H);
  for (j = 0; j <= d.nz; j++)
    mxGetJc (H)[j] = (mwIndex) d.colptr[j];
  for (j = 0; j < d.nnz; j++)
    mxGetIr (H)[j] = (mwIndex) d.rowind[j];
  st = vm_dual_eval (&d, mxGetPr (zf), &S, g, hv);
  if (st != VM_OK)
    {
      double tb = d.bad >= 0 ? d.t[d.bad] : d.t0;
      vm_dual_free (&d);
      kernel_free (&k);
      mxDestroyArray (H);
      mexErrMsgIdAndTxt ("varmech:dual", "%s: %s at t = %g", fn, vm_status_string (st), tb);
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
    plhs[3] = vm_mx_point_major (d.y, d.N, d.ny, d.ny, 0);
  vm_dual_free (&d);
  kernel_free (&k);
}


/* the smallest N per window (csrc/march/march.c: one place for the fact) */
static void
cmd_min_n (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "dual_solve";
  int order, adaptive;
  if (nrhs != 3)
    BAD ("%s: internal: \"min_n\" takes 2 arguments", fn);
  order = vm_arg_order (prhs[1], fn, "Order");
  adaptive = (int) vm_arg_int (prhs[2], fn, "adaptive", 0, 1);
  plhs[0] = mxCreateDoubleScalar ((double) vm_march_min_n (order, adaptive));
}

/* the shortest window that N nodes resolve at t on an interval of length T (csrc/march/march.c) */
static void
cmd_hmin (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "dual_solve";
  if (nrhs != 4)
    BAD ("%s: internal: \"hmin\" takes 3 arguments", fn);
  plhs[0] = mxCreateDoubleScalar (vm_march_hmin (vm_arg_real (prhs[1], fn, "t"),
                                                 vm_arg_real (prhs[2], fn, "T"),
                                                 (int64_t) vm_arg_int (prhs[3], fn, "N", 2,
                                                                       VM_ARG_NMAX)));
}

/* memory of one window, asked by the front end before it allocates (csrc/dual/dual.h) */
static void
cmd_memory (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "dual_solve";
  int nd, ng, order, ls, ny = 0;
  int64_t N, Ntot = 0;
  if (nrhs != 6 && nrhs != 8)
    BAD ("%s: internal: \"memory\" takes 5 or 7 arguments", fn);
  nd = (int) vm_arg_int (prhs[1], fn, "nd", 0, 1000000);
  ng = (int) vm_arg_int (prhs[2], fn, "ng", 0, 1000000);
  N = (int64_t) vm_arg_int (prhs[3], fn, "N", 1, INT64_C (9007199254740992));
  order = vm_arg_order (prhs[4], fn, "Order");
  ls = vm_mx_linsolve_arg (prhs[5], fn);
  if (nrhs == 8)
    {
      ny = (int) vm_arg_int (prhs[6], fn, "ny", 0, 1000000);
      Ntot = (int64_t) vm_arg_int (prhs[7], fn, "Ntot", 1, INT64_C (9007199254740992));
    }
  plhs[0] = mxCreateDoubleScalar (nrhs == 8
                                  ? vm_dual_slabs_memory_estimate (ny, nd, ng, N, order, ls, Ntot)
                                  : vm_dual_memory_estimate (nd, ng, N, order, ls));
}

/* the schema of a solution: "march", "slabs" or "slabs_diagnostics" (vm_dual_sol_mx.h) */
static void
cmd_schema (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char kind[24];
  if (nrhs != 2 || ! mxIsChar (prhs[1]) || mxGetString (prhs[1], kind, sizeof kind) != 0)
    BAD ("vm_dual_mex: internal: \"solution_schema\" takes march, slabs, slabs_diagnostics or solve");
  if (strcmp (kind, "march") == 0)
    plhs[0] = vm_solution_schema_mx (vm_dual_march_schema);
  else if (strcmp (kind, "slabs") == 0)
    plhs[0] = vm_solution_schema_mx (vm_dual_slabs_schema);
  else if (strcmp (kind, "slabs_diagnostics") == 0)
    plhs[0] = vm_solution_schema_mx (vm_dual_slabs_diagnostics);
  else if (strcmp (kind, "solve") == 0)
    plhs[0] = vm_solution_schema_mx (vm_dual_solve_schema);
  else
    BAD ("vm_dual_mex: internal: \"solution_schema\" takes march, slabs, slabs_diagnostics or solve");
}

void
mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char cmd[16];
  mexAtExit (vm_scratch_release);   /* the kept work arrays go with the gateway (vm_scratch.h) */
  vm_arg_command (nrhs, prhs, "vm_dual_mex", cmd, sizeof cmd);
  if (strcmp (cmd, "solve") == 0)
    cmd_solve (plhs, nrhs, prhs);
  else if (strcmp (cmd, "action") == 0)
    cmd_action (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "march") == 0)
    cmd_march (plhs, nrhs, prhs);
  else if (strcmp (cmd, "slabs") == 0)
    cmd_slabs (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "hmin") == 0)
    cmd_hmin (plhs, nrhs, prhs);
  else if (strcmp (cmd, "compiles") == 0)
    plhs[0] = mxCreateDoubleScalar (ncompiles);
  else if (strcmp (cmd, "model_compiles") == 0)
    plhs[0] = mxCreateDoubleScalar ((double) vm_model_compiles ());
  else if (strcmp (cmd, "memory") == 0)
    cmd_memory (plhs, nrhs, prhs);
  else if (strcmp (cmd, "min_n") == 0)
    cmd_min_n (plhs, nrhs, prhs);
  else if (strcmp (cmd, "solution_schema") == 0)
    cmd_schema (plhs, nrhs, prhs);
  else
    BAD ("vm_dual_mex: unknown command '%s'; expected solve, action, march, slabs, compiles, hmin, "
         "min_n, memory or solution_schema", cmd);
}
