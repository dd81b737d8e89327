/* vm_dual_slabs_mx.h -- vm_dual_mex ("slabs", ode, setup): every slab of a fixed grid in one call.
 *
 * Reads the setup of "slabs" (slab boundaries, N, weights, base state, guess, Newton's and the base
 * passes' options; the smallest N and the shortest slab are csrc/march/march.c's facts, the
 * memory limit setup.max_bytes), runs vm_dual_slabs (csrc/dual/dual_slabs.h) and converts its
 * solution once by vm_dual_slabs_schema (vm_dual_sol_mx.h).  Included once, by vm_dual_mex.c,
 * after vm_dual_kernel_mx.h; kept apart so that each file of the gateway holds one command's
 * reader.  Errors: varmech:badarg before any C allocation, or after freeing it.  Cost: one load
 * of the model and the slabs' solves. */
#ifndef VM_DUAL_SLABS_MX_H
#define VM_DUAL_SLABS_MX_H

#include "vm_dual_kernel_mx.h"
#include "vm_dual_sol_mx.h"
#include "dual/dual_slabs.h"
#include "march/march.h"

#ifndef BAD
#define BAD(...) mexErrMsgIdAndTxt ("varmech:badarg", __VA_ARGS__)
#endif

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

#endif /* VM_DUAL_SLABS_MX_H */
