/* vm_dual_march_mx.h -- vm_dual_mex ("march", ode, setup): the dual action marched over windows.
 *
 * Reads the setup of "march" (the options by their public names, vm_opts_mx.h; the guess and the
 * output times), builds the main action and, for the error estimate, its companion order
 * (csrc/dual/dual_march.h), runs vm_march and converts its solution once by
 * vm_dual_march_schema (vm_dual_sol_mx.h).  Included once, by vm_dual_mex.c, after
 * vm_dual_kernel_mx.h; kept apart so that each file of the gateway holds one command's reader.
 * Errors: varmech:badarg before any C allocation, or after freeing it.  Cost: one load of the
 * model and the march. */
#ifndef VM_DUAL_MARCH_MX_H
#define VM_DUAL_MARCH_MX_H

#include "vm_dual_kernel_mx.h"
#include "vm_march_mx.h"
#include "vm_opts_mx.h"
#include "vm_dual_sol_mx.h"
#include "dual/dual_march.h"
#include "march/march.h"

#ifndef BAD
#define BAD(...) mexErrMsgIdAndTxt ("varmech:badarg", __VA_ARGS__)
#endif

/* the checked arguments of "march" */
typedef struct
{
  int64_t N;
  int order, corder;            /* the SBP order and its companion's */
  const double *c, *y0;
  const mxArray *tout;          /* setup.output_times, or NULL */
  int auto_c;                   /* setup.auto_c (optional, 0 or 1): automatic weights c(1)/X_i^2 */
  int check_rhs;                /* setup.check_rhs (optional, 0 or 1): march_check_rhs */
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
  a->check_rhs = (int) vm_arg_field_int (o, "check_rhs", fn, "check_rhs", 0, 1, 0);
  march_opts_read (o, fn, &a->mo);
  march_guess_tout (o, k, fn, a);
}

/* With setup.check_rhs = 1 (a general kernel without algebraic states): the right-hand side at the
 * initial state (t0, y0) must be finite, or the error varmech:dual_solve:rhs_check is raised
 * after freeing k, on which vm_dual_driver.m phrases the refusal (check_rhs, which names the
 * equation and its value); the model is the one loaded for the march, so the check costs one
 * evaluation and no crossing. */
static void
march_check_rhs (kernel *k, const march_args *a, const char *fn)
{
  double *F;
  int i, st, ok;
  if (! a->check_rhs || k->kind != 0 || k->ng != 0)
    return;
  F = mxMalloc ((size_t) k->nd * sizeof *F);
  st = vm_dual_ode_rhs (&k->g.e, 1, &a->mo.t0, a->y0, F);
  ok = st == VM_OK;
  for (i = 0; ok && i < k->nd; i++)
    ok = mxIsFinite (F[i]);
  mxFree (F);
  if (! ok)
    {
      kernel_free (k);
      mexErrMsgIdAndTxt ("varmech:dual_solve:rhs_check", "%s: internal: the right-hand side is "
                         "not finite at the initial state", fn);
    }
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
  march_check_rhs (&k, &a, fn);
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

#endif /* VM_DUAL_MARCH_MX_H */
