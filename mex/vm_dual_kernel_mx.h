/* vm_dual_kernel_mx.h -- the setup fields and the kernels of vm_dual_mex.c.
 *
 * Reads the scalar, vector and struct fields of a setup struct (raising varmech:badarg "FN:
 * internal: ..." on a missing or malformed field) and builds the kernel of setup.kernel: the
 * general ODE engine on the odesys loaded from ode.compiled (vm_ode_mx.h), or the closed forms
 * (Lorenz, Pars, Pars reduced) from setup.kpar.  Included once, by vm_dual_mex.c, so that every
 * command of the gateway builds its kernel the same way; a kernel is freed by kernel_free, and
 * nothing here raises while it holds C memory.  Cost: the load of the model (linear in the size
 * of ode.compiled) for the general kernel, constant for the closed forms. */
#ifndef VM_DUAL_KERNEL_MX_H
#define VM_DUAL_KERNEL_MX_H

#include "vm_mex.h"
#include "vm_ode_mx.h"
#include "dual/dual.h"
#include "dual/dual_closed.h"

#ifndef BAD
#define BAD(...) mexErrMsgIdAndTxt ("varmech:badarg", __VA_ARGS__)
#endif

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

#endif /* VM_DUAL_KERNEL_MX_H */
