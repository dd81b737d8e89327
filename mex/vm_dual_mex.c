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
 * vm_options made them), and optionally estimate, guess (Ntot x ny base state, fixed mode) and
 * output_times.
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
 * arguments; the checks here guard the gateway itself.  No numerics here: conversion only. */
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

static const mxArray *
sfield (const mxArray *s, const char *key, const char *fn, const char *what)
{
  return vm_arg_field (s, key, fn, what);
}

/* setup field KEY: a real finite scalar (NAME: the user-facing name) */
static double
num (const mxArray *o, const char *key, const char *fn)
{
  return vm_arg_real (sfield (o, key, fn, "the setup"), fn, key);
}

/* setup field KEY: an integer in [lo, hi], refused under its user-facing NAME */
static int64_t
inum (const mxArray *o, const char *key, const char *name, const char *fn, int64_t lo, int64_t hi)
{
  return vm_arg_int (sfield (o, key, fn, "the setup"), fn, name, lo, hi);
}

/* setup field KEY: a real full finite double vector with exactly n entries, or NULL when empty
 * and allowed */
static const double *
arr (const mxArray *o, const char *key, size_t n, int allow_empty, const char *fn, const char *what)
{
  const mxArray *a = sfield (o, key, fn, "the setup");
  if (allow_empty && mxIsEmpty (a))
    return NULL;
  return vm_arg_vector (a, fn, what, n);
}

typedef struct {
  int kind;                    /* 0 general, 1 lorenz, 2 pars, 3 pars_reduced */
  vm_mx_ode_engine g;          /* the general kernel's compiled odesys */
  vm_dual_lorenz lz;
  vm_dual_pars pa;
  vm_dual_pars_reduced pr;
  int ny, nd, ng;
  vm_dual_node_fn fn;
  void *ctx;
} kernel;

static void
kernel_free (kernel *k)
{
  vm_mx_ode_engine_free (&k->g);
}

/* the general kernel: dimensions only; kernel_build loads and compiles after the setup has been
 * checked */
static void
kernel_general (kernel *k, const mxArray *ode, const char *fn)
{
  int nst, np, nd, na;
  k->kind = 0;
  if (! mxIsStruct (ode) || mxGetNumberOfElements (ode) != 1)
    BAD ("%s: ode must be a system made by odesys", fn);
  vm_arg_cellstr (sfield (ode, "states", fn, "ode"), fn, "ode.states", &nst);
  vm_arg_cellstr (sfield (ode, "parameter_names", fn, "ode"), fn, "ode.parameter_names", &np);
  vm_arg_cellstr (sfield (ode, "rhs", fn, "ode"), fn, "ode.rhs", &nd);
  vm_arg_cellstr (sfield (ode, "algebraic", fn, "ode"), fn, "ode.algebraic", &na);
  if (nd < 1)
    BAD ("%s: the system has no differential state (no right-hand side); expected at least one",
         fn);
  k->ny = nst;
  k->nd = nd;
  k->ng = na;
  k->fn = vm_dual_ode_node;
  k->ctx = &k->g.e;
}

/* the dual Lorenz kernel: kpar = [A R B c] */
static void
kernel_lorenz (kernel *k, const mxArray *o, const char *fn)
{
  const double *p = arr (o, "kpar", 4, 0, fn, "the Lorenz parameters [A R B c]");
  k->kind = 1;
  k->lz.A = p[0];
  k->lz.R = p[1];
  k->lz.B = p[2];
  k->lz.c = p[3];
  if (! (p[3] > 0.0))
    BAD ("%s: c must be positive", fn);
  k->ny = k->nd = 3;
  k->ng = 0;
  k->fn = vm_dual_lorenz_node;
  k->ctx = &k->lz;
}

/* the generalized Pars kernel: kpar = [M, cx, cv, cQ, cs, b (M), L (M x M, column-major)] */
static void
kernel_pars (kernel *k, const mxArray *kp, const char *fn)
{
  const double *p;
  size_t nk;
  int M, i, j;
  double *L;
  p = vm_arg_vector_any (kp, fn, "the Pars parameters", &nk);
  M = nk > 0 ? (int) p[0] : 0;
  if (nk < 1 || M < 1 || M > 1000 || (double) M != p[0] || nk != (size_t) (5 + M + M * M))
    BAD ("%s: internal: Pars parameters must be [M cx cv cQ cs b L(:)']", fn);
  for (i = 1; i < 5; i++)
    if (! (p[i] > 0.0))
      BAD ("%s: cx, cv, cQ and cs must be positive", fn);
  L = mxMalloc ((size_t) M * M * sizeof *L);
  for (i = 0; i < M; i++)
    for (j = 0; j < M; j++)
      L[i * M + j] = p[5 + M + i + M * j];   /* row-major from column-major */
  k->kind = 2;
  k->pa.M = M;
  k->pa.L = L;
  k->pa.b = p + 5;
  k->pa.cx = p[1];
  k->pa.cv = p[2];
  k->pa.cQ = p[3];
  k->pa.cs = p[4];
  k->ny = 3 * M + 1;
  k->nd = 2 * M;
  k->ng = 2;
  k->fn = vm_dual_pars_node;
  k->ctx = &k->pa;
}

/* the reduced Pars kernel: kpar = [v30 x30 c] */
static void
kernel_pars_reduced (kernel *k, const mxArray *o, const char *fn)
{
  const double *p = arr (o, "kpar", 3, 0, fn, "the reduced Pars parameters [v30 x30 c]");
  k->kind = 3;
  k->pr.v30 = p[0];
  k->pr.x30 = p[1];
  k->pr.c = p[2];
  if (! (p[2] > 0.0))
    BAD ("%s: c must be positive", fn);
  k->ny = k->nd = 2;
  k->ng = 0;
  k->fn = vm_dual_pars_reduced_node;
  k->ctx = &k->pr;
}

/* set up the node function; c is validated by the caller (ny entries) */
static void
kernel_setup (kernel *k, const mxArray *ode, const mxArray *o, const char *fn)
{
  char name[32];
  const mxArray *kn = sfield (o, "kernel", fn, "the setup"), *kp;
  memset (k, 0, sizeof *k);
  if (! mxIsChar (kn) || mxGetString (kn, name, sizeof name) != 0)
    BAD ("%s: internal: kernel must be a string", fn);
  kp = sfield (o, "kpar", fn, "the setup");
  if (strcmp (name, "general") == 0)
    kernel_general (k, ode, fn);
  else if (strcmp (name, "lorenz") == 0)
    kernel_lorenz (k, o, fn);
  else if (strcmp (name, "pars") == 0)
    kernel_pars (k, kp, fn);
  else if (strcmp (name, "pars_reduced") == 0)
    kernel_pars_reduced (k, o, fn);
  else
    BAD ("%s: internal: unknown kernel '%s'", fn, name);
}

/* odesys models loaded by kernel_build since the gateway was loaded ("compiles"; none is parsed:
 * "model_compiles" counts parses) */
static double ncompiles = 0.0;

/* load the general kernel's model and compile its engine (after every argument has been checked) */
static void
kernel_build (kernel *k, const mxArray *ode, const double *c, const char *fn)
{
  if (k->kind != 0)
    return;
  ncompiles += 1.0;
  vm_mx_ode_engine_model (&k->g, ode, fn);
  if (k->g.o.ny != k->ny || k->g.o.nd != k->nd || k->g.o.na != k->ng)
    {
      kernel_free (k);
      BAD ("%s: internal: model dimensions changed", fn);
    }
  vm_mx_ode_engine_init (&k->g, c, fn);
}

/* setup.weak (optional; absent or 0: the strong final dual) -> vm_dual_init flags */
static int
weak_flag (const mxArray *o, const char *fn)
{
  const mxArray *f = mxGetField (o, 0, "weak");
  if (! f)
    return 0;
  if (! (mxIsDouble (f) || mxIsLogical (f)) || mxGetNumberOfElements (f) != 1)
    BAD ("%s: internal: weak must be a scalar", fn);
  return mxGetScalar (f) != 0.0 ? VM_DUAL_WEAK_FINAL : 0;
}

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

/* The struct of "solve" (vm_dual_solve_schema), converted once; y, residual, G and hamiltonian
 * have no rows when the primal could not be recovered. */
static mxArray *
solve_output (const vm_dual *d, const kernel *k, const vm_newton_info *info, int st,
              const char *msg, double S, const double *res, const double *gres, const double *ham)
{
  vm_dual_solve_out x;
  vm_sol_src s;
  x.info = info;
  x.res = res;
  x.gres = gres;
  x.ham = ham;
  x.S = S;
  x.linear_dtp = k->kind == 0 ? k->g.e.linear : 1.0;
  x.bad_node = st == VM_EDTP ? (double) d->bad + 1 : 0.0;
  x.status = st;
  x.message = msg;
  memset (&s, 0, sizeof s);
  s.sol = d;
  s.aux = &x;
  s.size[VM_SZ_NTOT] = d->N;
  s.size[VM_SZ_NPRIMAL] = d->have_y ? d->N : 0;
  s.size[VM_SZ_NY] = d->ny;
  s.size[VM_SZ_ND] = d->nd;
  s.size[VM_SZ_NG] = d->ng;
  s.size[VM_SZ_M] = d->m;
  s.size[VM_SZ_NHIST] = info->nhist;
  return vm_solution_mx (vm_dual_solve_schema, &s);
}

static void
cmd_solve (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "dual_solve";
  kernel k;
  vm_dual d;
  vm_newton_info info;
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
  out = solve_output (&d, &k, &info, st, msg, S, res, gres, ham);
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

/* the checked arguments of "march" */
typedef struct
{
  int64_t N;
  int order, corder;            /* the SBP order and its companion's */
  const double *c, *y0;
  const mxArray *tout;          /* setup.output_times, or NULL */
  int auto_c;                   /* setup.auto_c (optional, 0 or 1): automatic weights c(1)/X_i^2 */
  vm_march_opts mo;
} march_args;

/* the march options of the setup: interval, windows and Newton's fraction tol of the error
 * tolerance (derived by vm_dual_driver.m), and dual_solve's options by their public names
 * (RelTol, AbsTol, MaxIter, LinearSolver, BaseIterations, Display: checked by vm_options, read by
 * the schema, vm_opts_mx.h; [] keeps the default that vm_march_opts_init took from the schema) */
static void
march_opts_read (const mxArray *o, const char *fn, vm_march_opts *mo)
{
  vm_march_opts_init (mo);
  mo->t0 = num (o, "t0", fn);
  mo->tf = num (o, "tf", fn);
  mo->windows = (int) inum (o, "windows", "Slabs", fn, 0, VM_ARG_WINDOWS_MAX);
  mo->rtol = vm_opt_real (o, fn, "RelTol", mo->rtol);
  mo->atol = vm_opt_real (o, fn, "AbsTol", mo->atol);
  mo->newton.tol_res = num (o, "tol", fn);
  mo->newton.max_iter = (int) vm_opt_int (o, fn, "MaxIter", mo->newton.max_iter);
  mo->newton.linsolve = vm_mx_linsolve_kind (vm_opt_choice (o, fn, "LinearSolver", 0));
  mo->repeat = (int) vm_opt_int (o, fn, "BaseIterations", 0);
  mo->estimate = (int) vm_arg_field_int (o, "estimate", fn, "estimate", 0, 1, 0);
  mo->display = vm_opt_choice (o, fn, "Display", 0);   /* off 0, final 1, iter 2 */
  mo->print = vm_mex_print;
  mo->name = fn;
  if (! (mo->tf > mo->t0) || mo->windows < 0)   /* the tolerances: vm_options, the schema */
    BAD ("%s: internal: bad march setup", fn);
}

/* setup.guess (optional: a base state on the fixed grid) and setup.output_times (optional) */
static void
march_guess_tout (const mxArray *o, const kernel *k, const char *fn, march_args *a)
{
  const mxArray *guess = vm_arg_field_opt (o, "guess");
  size_t ntot = (size_t) (a->mo.windows > 0 ? a->mo.windows : 0) * (size_t) (a->N - 1) + 1;
  if (guess)
    {
      if (a->mo.windows < 1)
        BAD ("%s: internal: a base state needs a fixed grid", fn);
      vm_arg_matrix (guess, fn, "the base state");
      if (mxGetM (guess) != ntot || mxGetN (guess) != (size_t) k->ny)
        BAD ("%s: the base state must be %lu x %d (one row per grid point)", fn,
             (unsigned long) ntot, k->ny);
      a->mo.guess = mxGetPr (guess);
    }
  a->tout = vm_arg_field_opt (o, "output_times");
  if (a->tout)
    {
      size_t nq;
      vm_arg_vector_any (a->tout, fn, "OutputTimes", &nq);
    }
}

/* check the setup of "march" (raises before any C allocation) */
static void
march_setup (const mxArray *o, const kernel *k, const char *fn, march_args *a)
{
  int i;
  a->N = inum (o, "N", "N", fn, 2, VM_ARG_NMAX);
  a->order = vm_arg_order (sfield (o, "order", fn, "the setup"), fn, "Order");
  a->corder = vm_march_companion_order (a->order);
  a->c = arr (o, "c", (size_t) k->ny, 0, fn, "c");
  a->y0 = arr (o, "y0", (size_t) k->nd, 0, fn, "y0");
  for (i = 0; i < k->ny; i++)
    if (! (a->c[i] > 0.0))
      BAD ("%s: c must be positive (entry %d is not)", fn, i + 1);
  a->auto_c = vm_arg_field_opt (o, "auto_c") != NULL
              && vm_arg_int (mxGetField (o, 0, "auto_c"), fn, "auto_c", 0, 1);
  march_opts_read (o, fn, &a->mo);
  march_guess_tout (o, k, fn, a);
}

/* the dual actions of the order and of its companion, with the algebraic solver of a general
 * DAE kernel (raises after freeing k when they cannot be set up) */
static void
march_init (vm_dual_march *am, vm_dual_march *ac, kernel *k, const march_args *a, const char *fn)
{
  vm_dual_problem p = { k->ny, k->nd, k->ng, a->N, a->order, a->c, k->fn, k->ctx };
  int st;
  st = vm_dual_march_init (am, &p, k->kind == 0 ? vm_dual_ode_rhs : NULL, &k->g.e, a->mo.rtol,
                           a->mo.atol);
  if (st == VM_OK)
    {
      p.order = a->corder;
      st = vm_dual_march_init (ac, &p, k->kind == 0 ? vm_dual_ode_rhs : NULL, &k->g.e, a->mo.rtol,
                               a->mo.atol);
      if (st != VM_OK)
        vm_dual_march_free (am);
    }
  if (st != VM_OK)
    {
      kernel_free (k);
      BAD ("%s: the discrete dual action could not be set up (N = %ld, orders %d and %d): %s", fn,
           (long) a->N, a->order, a->corder, vm_status_string (st));
    }
  if (k->kind == 0 && k->ny > k->nd && k->ng == k->ny - k->nd)
    {
      vm_dual_march_set_algebraic_solver (am, vm_dual_ode_algebraic, &k->g.e);
      vm_dual_march_set_algebraic_solver (ac, vm_dual_ode_algebraic, &k->g.e);
    }
  if (a->auto_c && k->kind == 0 && k->ng == k->ny - k->nd)   /* square systems only */
    {
      vm_dual_march_set_auto_weights (am, a->c[0], vm_dual_ode_set_weights, &k->g.e);
      vm_dual_march_set_auto_weights (ac, a->c[0], vm_dual_ode_set_weights, &k->g.e);
    }
}

/* The struct of "march" (vm_dual_march_schema), converted once; the dense output at
 * setup.output_times by the SBP solution's interpolant of degree order + 1 on each window (NaN
 * outside the solved part) is computed here first. */
static mxArray *
march_output (const vm_march_sol *ms, const vm_dual_march *am, const vm_dual_march *ac,
              const kernel *k, const march_args *a, int st, const mxArray *ode)
{
  vm_dual_march_out x;
  vm_sol_src s;
  size_t nq = a->tout ? mxGetNumberOfElements (a->tout) : 0, e;
  size_t ncol = (size_t) (k->ny + k->nd + k->ng);   /* y and D: the march's columns */
  int deg = a->order + 1 < a->N - 1 ? a->order + 1 : (int) (a->N - 1);
  double *dense = mxCalloc (nq * (ncol > (size_t) ms->nout ? ncol : (size_t) ms->nout) + 1,
                            sizeof *dense);
  mxArray *out;
  if (nq > 0 && ms->ntot > 0
      && vm_march_interp (ms, deg, mxGetPr (a->tout), (int64_t) nq, dense) != VM_OK)
    for (e = 0; e < nq * (size_t) ms->nout; e++)   /* outside the solved part */
      dense[e] = mxGetNaN ();
  memset (&x, 0, sizeof x);
  x.N = (double) a->N;
  x.order = a->order;
  x.corder = a->corder;
  x.adaptive = a->mo.windows == 0;
  x.status = st;
  x.tout = nq > 0 ? mxGetPr (a->tout) : NULL;
  x.dense = dense;
  x.fallbacks = (double) (am->npredict_fallback + ac->npredict_fallback);
  x.stiff = (double) (am->npredict_stiff + ac->npredict_stiff);
  x.ode = mxIsStruct (ode) ? ode : NULL;
  memset (&s, 0, sizeof s);
  s.sol = ms;
  s.aux = &x;
  s.size[VM_SZ_NTOT] = ms->ntot;
  s.size[VM_SZ_NY] = k->ny;
  s.size[VM_SZ_M] = k->nd + k->ng;
  s.size[VM_SZ_NOUT] = (int64_t) nq;
  s.size[VM_SZ_NAMES] = x.ode ? k->ny : 0;
  vm_march_mx_sizes (&s, ms, a->N);
  out = vm_solution_mx (vm_dual_march_schema, &s);
  mxFree (dense);
  return out;
}

static void
cmd_march (mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "dual_solve";
  const mxArray *o;
  kernel k;
  march_args a;
  vm_dual_march am, ac;
  vm_march_sol ms;
  int st;
  mxArray *out;
  if (nrhs != 3 || ! mxIsStruct (prhs[2]))
    BAD ("%s: internal: \"march\" takes ode and a setup struct", fn);
  o = prhs[2];
  kernel_setup (&k, prhs[1], o, fn);
  march_setup (o, &k, fn, &a);
  kernel_build (&k, prhs[1], a.c, fn);   /* the one load of the model, for both orders */
  march_init (&am, &ac, &k, &a, fn);
  vm_march_sol_init (&ms);
  st = vm_march (&am.act, (a.mo.windows == 0 || a.mo.estimate) ? &ac.act : NULL, a.y0, &a.mo, &ms);
  out = march_output (&ms, &am, &ac, &k, &a, st, prhs[1]);
  vm_march_sol_free (&ms);
  vm_dual_march_free (&am);
  vm_dual_march_free (&ac);
  kernel_free (&k);
  plhs[0] = out;
}

/* an optional Ntot x ncol setup matrix KEY (empty: NULL), converted to point-major (mxMalloc'ed) */
static double *
grid_matrix (const mxArray *o, const char *key, const char *what, size_t ntot, int ncol,
             const char *fn)
{
  const mxArray *a = sfield (o, key, fn, "the setup");
  const double *p;
  double *pm;
  size_t k;
  int i;
  if (mxIsEmpty (a))
    return NULL;
  p = vm_arg_matrix (a, fn, what);
  if (mxGetM (a) != ntot || mxGetN (a) != (size_t) ncol)
    BAD ("%s: %s must be %lu x %d (one row per grid point)", fn, what, (unsigned long) ntot, ncol);
  pm = mxMalloc ((ntot * (size_t) ncol + 1) * sizeof *pm);
  for (k = 0; k < ntot; k++)
    for (i = 0; i < ncol; i++)
      pm[k * (size_t) ncol + (size_t) i] = p[k + ntot * (size_t) i];
  return pm;
}

/* the checked arguments of "slabs" */
typedef struct
{
  int64_t N, Ntot;
  int order, S;                 /* the SBP order; the number of slabs */
  const double *tb, *y0;
  double *c;                    /* ny weights (mxMalloc'ed) */
  double *ybar;                 /* NULL or the point-major base state (mxMalloc'ed) */
} slabs_args;

/* setup.name (optional): the prefix of the printed lines, into pname (len chars) */
static void
slabs_name (const mxArray *o, char *pname, mwSize len)
{
  const mxArray *nm = mxGetField (o, 0, "name");
  if (nm && mxIsChar (nm))
    mxGetString (nm, pname, len);
}

/* the Newton and base-pass options of the setup (after N and order) */
static void
slabs_opts_read (const mxArray *o, const char *fn, const char *pname, vm_dual_slabs_opts *so)
{
  so->tol = num (o, "tol", fn);
  so->max_iter = (int) inum (o, "max_iter", "MaxIter", fn, 0, 1000000);
  so->linsolve = vm_mx_linsolve_opt (o, fn);
  so->base_iterations = (int) inum (o, "base_iterations", "BaseIterations", fn, 0, 1000000);
  so->display = (int) inum (o, "display", "Display", fn, 0, 2);
  so->weak = weak_flag (o, fn) != 0;
  so->print = vm_mex_print;
  so->name = pname;
}

/* setup.tb: S + 1 increasing slab boundaries (*S receives S) */
static const double *
slab_bounds (const mxArray *o, const char *fn, int *S)
{
  size_t nt;
  int i;
  const double *tb = vm_arg_vector_any (sfield (o, "tb", fn, "the setup"), fn,
                                        "the slab boundaries", &nt);
  if (nt < 2 || nt - 1 > (size_t) VM_ARG_WINDOWS_MAX)
    BAD ("%s: internal: tb must hold S + 1 slab boundaries", fn);
  *S = (int) (nt - 1);
  for (i = 0; i < *S; i++)
    if (! (tb[i + 1] > tb[i]))
      BAD ("%s: internal: the slab boundaries must increase", fn);
  return tb;
}

/* setup.c: ny positive weights, or one for every state (into an mxMalloc'ed copy) */
static double *
slabs_weights (const mxArray *o, int ny, const char *fn)
{
  const mxArray *a = sfield (o, "c", fn, "the setup");
  const double *p = arr (o, "c", vm_arg_is_vector (a, 1) ? 1 : (size_t) ny, 0, fn, "c");
  double *c = mxMalloc ((size_t) ny * sizeof *c);
  int i;
  for (i = 0; i < ny; i++)
    {
      c[i] = p[mxGetNumberOfElements (a) == 1 ? 0 : i];
      if (! (c[i] > 0.0))
        BAD ("%s: c must be positive (entry %d is not)", fn, i + 1);
    }
  return c;
}

/* setup.ybar: [] (NULL), ny entries (a constant base state, copied to every point) or Ntot x ny */
static double *
slabs_base (const mxArray *o, size_t ntot, int ny, const char *fn)
{
  const mxArray *a = sfield (o, "ybar", fn, "the setup");
  const double *p;
  double *pm;
  size_t k;
  int i;
  if (mxIsEmpty (a) || ! vm_arg_is_vector (a, (size_t) ny) || ntot < 2)
    return grid_matrix (o, "ybar", "BaseState", ntot, ny, fn);
  p = mxGetPr (a);
  pm = mxMalloc ((ntot * (size_t) ny + 1) * sizeof *pm);
  for (k = 0; k < ntot; k++)
    for (i = 0; i < ny; i++)
      pm[k * (size_t) ny + (size_t) i] = p[i];
  return pm;
}

/* N at least the smallest a slab takes, every slab at least the shortest N nodes resolve
 * (csrc/march/march.c: the facts), and the memory below setup.max_bytes when given */
static void
slabs_limits (const mxArray *o, const kernel *k, const char *fn, const vm_dual_slabs_opts *so,
              const slabs_args *a)
{
  const mxArray *mb = vm_arg_field_opt (o, "max_bytes");
  int64_t nmin = vm_march_min_n (a->order, 0);
  double T = a->tb[a->S] - a->tb[0];
  if (a->N < nmin)
    BAD ("%s: N must be an integer >= %ld for order %d", fn, (long) nmin, a->order);
  if (! (T / a->S >= vm_march_hmin (a->tb[0], T, a->N)))
    BAD ("%s: the %d slab(s) of N = %ld nodes on [%.9g, %.9g] are shorter than the shortest that "
         "N nodes resolve", fn, a->S, (long) a->N, a->tb[0], a->tb[a->S]);
  if (mb != NULL
      && ! (vm_dual_slabs_memory_estimate (k->ny, k->nd, k->ng, a->N, a->order, so->linsolve,
                                           a->Ntot) < vm_arg_real (mb, fn, "max_bytes")))
    BAD ("%s: internal: the work needs max_bytes or more", fn);
}

/* check the setup of "slabs" into a and so (raises before any C allocation) */
static void
slabs_setup (const mxArray *o, const kernel *k, const char *fn, const char *pname,
             vm_dual_slabs_opts *so, slabs_args *a)
{
  vm_dual_slabs_opts_init (so);
  a->N = inum (o, "N", "N", fn, 2, VM_ARG_NMAX);
  a->order = vm_arg_order (sfield (o, "order", fn, "the setup"), fn, "Order");
  slabs_opts_read (o, fn, pname, so);
  a->tb = slab_bounds (o, fn, &a->S);
  so->slabs = a->S;
  a->Ntot = (int64_t) a->S * (a->N - 1) + 1;
  slabs_limits (o, k, fn, so, a);
  a->y0 = arr (o, "y0", (size_t) k->nd, 0, fn, "y0");
  so->DT = arr (o, "DT", (size_t) k->nd, 1, fn, "DT");
  a->c = slabs_weights (o, k->ny, fn);
  a->ybar = slabs_base (o, (size_t) a->Ntot, k->ny, fn);
  so->guess = grid_matrix (o, "guess", "the initial duals (Guess)", (size_t) a->Ntot,
                           k->nd + k->ng, fn);
}

/* The struct of "slabs" (vm_dual_slabs_schema), converted once: with setup.sol = 1 the solution of
 * the front ends, t empty (the caller's grid) and hamiltonian empty unless setup.hamiltonian is 1
 * (a constant base state, no base pass); without it, the same with the hamiltonian and then the
 * gateway's diagnostics (vm_dual_slabs_diagnostics). */
static mxArray *
slabs_output (const vm_dual_slabs_sol *ss, const kernel *k, const slabs_args *a,
              int base_iterations, const vm_dual_slabs_out *x, int user, int keep_ham)
{
  vm_sol_src s;
  mxArray *out;
  memset (&s, 0, sizeof s);
  s.sol = ss;
  s.aux = x;
  s.size[VM_SZ_NTOT] = a->Ntot;
  s.size[VM_SZ_NY] = k->ny;
  s.size[VM_SZ_ND] = k->nd;
  s.size[VM_SZ_NG] = k->ng;
  s.size[VM_SZ_M] = ss->m;
  s.size[VM_SZ_SLABS] = a->S;
  s.size[VM_SZ_NBASE] = base_iterations;
  s.size[VM_SZ_SOLVES] = ss->nsolve;
  s.size[VM_SZ_NHAM] = keep_ham ? a->Ntot : 0;
  s.size[VM_SZ_HAM] = keep_ham ? 1 : 0;
  s.size[VM_SZ_NAMES] = x->ode ? k->ny : 0;
  out = vm_solution_mx (vm_dual_slabs_schema, &s);
  if (! user)
    vm_solution_mx_append (out, vm_dual_slabs_diagnostics, &s);
  return out;
}

static void
cmd_slabs (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "dual_solve";
  char pname[32] = "dual_solve";   /* the prefix of the printed lines (setup.name) */
  const mxArray *o;
  kernel k;
  slabs_args a;
  vm_dual_slabs_opts so;
  vm_dual_slabs_sol ss;
  vm_dual_slabs_out x;
  double t_start = vm_wall_time (), t_setup, compiles0 = ncompiles;
  int st, user, keep_ham;
  const mxArray *h;
  if (nrhs != 3 || ! mxIsStruct (prhs[2]) || mxGetNumberOfElements (prhs[2]) != 1)
    BAD ("%s: internal: \"slabs\" takes ode and a setup struct", fn);
  o = prhs[2];
  /* the kind of result, read before anything is allocated (a refusal raises) */
  user = vm_arg_field_opt (o, "sol") != NULL
         && vm_arg_int (mxGetField (o, 0, "sol"), fn, "sol", 0, 1);
  h = vm_arg_field_opt (o, "hamiltonian");
  keep_ham = ! user || (h != NULL && vm_arg_int (h, fn, "hamiltonian", 0, 1) == 1);
  slabs_name (o, pname, sizeof pname);
  kernel_setup (&k, prhs[1], o, fn);
  slabs_setup (o, &k, fn, pname, &so, &a);
  kernel_build (&k, prhs[1], a.c, fn);   /* the one load of the model, for every slab and pass */
  t_setup = vm_wall_time () - t_start;
  vm_dual_slabs_sol_init (&ss);
  st = vm_dual_slabs (&(vm_dual_problem) { k.ny, k.nd, k.ng, a.N, a.order, a.c, k.fn, k.ctx }, a.tb,
                      a.ybar, a.y0, &so, &ss);
  if (st != VM_OK && ss.fail_slab == 0)
    {
      char why[800];
      snprintf (why, sizeof why, "%s", st == VM_ESTEP ? ss.message : vm_status_string (st));
      vm_dual_slabs_sol_free (&ss);
      kernel_free (&k);
      BAD ("%s: the discrete dual action could not be set up (N = %ld, order %d, %d slab(s) on "
           "[%g, %g]): %s", fn, (long) a.N, a.order, a.S, a.tb[0], a.tb[a.S], why);
    }
  x.time = vm_wall_time () - t_start;
  x.setup_time = t_setup;
  x.compiles = ncompiles - compiles0;
  x.ode = mxIsStruct (prhs[1]) ? prhs[1] : NULL;
  plhs[0] = slabs_output (&ss, &k, &a, so.base_iterations, &x, user, keep_ham);
  if (user && nlhs > 1)
    plhs[1] = mxCreateDoubleScalar ((double) ss.fail_slab);
  vm_dual_slabs_sol_free (&ss);
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
