/* vm_integrate_mex.c -- MEX gateway of the reference integrators (csrc/motion, integrate, reaction).
 *
 *   sol = vm_integrate_mex (sys, tspan, q0, qdot0, name, value, ...)
 *   n   = vm_integrate_mex ("model_compiles")   (texts parsed by its model library: none)
 *   schema = vm_integrate_mex ("solution_schema")   (the fields of sol, vm_integrate_sol_mx.h)
 *
 * The whole argument list of gauss_integrate (inst/gauss_integrate.m documents it): the gateway
 * validates sys (a mechsys struct: its compiled blocks are checked completely before use, its
 * formulas against the compiled model sys.compiled, so that edited formulas are refused), the
 * time span, the initial state and every option, and converts the solution into the struct that
 * gauss_integrate returns.  Validation lives here rather than in the m-file because the Octave
 * interpreter's cost per statement (about a millisecond for the checks) would otherwise exceed the
 * whole integration of small systems.  No numerics here: conversion and checks only. */
#include <ctype.h>
#include <string.h>

#include "vm_mex.h"
#include "vm_block_mx.h"
#include "vm_mech_mx.h"
#include "vm_integrate_sol_mx.h"
#include "reference/motion.h"
#include "base/vm_schema.h"
#include "base/vm_status.h"

#define FN "gauss_integrate"
#define BAD(...) mexErrMsgIdAndTxt ("varmech:gauss_integrate:badarg", __VA_ARGS__)

/* the options, in the order of the schema's list of gauss_integrate (csrc/base/vm_schema.c: their
 * names, rules and defaults; checked here, once, where they are stored) */
enum { O_METHOD, O_RELTOL, O_ABSTOL, O_STEP, O_H0, O_HMAX, O_MAXSTEPS, O_TOUT, O_REACTION,
       O_CONTACTS, O_RESTITUTION, O_PROJECTION, O_CTOL, O_MU0, O_COUNT };
#define OPT_NAME_MAX 32

/* the k-th option name of the schema into buf; 0 past the last one */
static int
opt_name (int k, char *buf)
{
  const char *p = vm_schema_names (FN);
  int i;
  for (i = 0; p && *p; i++)
    {
      size_t len = strcspn (p, " ");
      if (i == k)
        {
          snprintf (buf, OPT_NAME_MAX, "%.*s", (int) len, p);
          return 1;
        }
      p += len + (p[len] == ' ');
    }
  return 0;
}

/* "Method, RelTol, ..." (the accepted names, for the messages) */
static const char *
opt_list (void)
{
  static char list[512];
  const char *p = vm_schema_names (FN);
  size_t u = 0;
  for (; *p && u + 3 < sizeof list; p++)
    {
      if (*p == ' ')
        list[u++] = ',';
      list[u++] = *p;
    }
  list[u] = '\0';
  return list;
}

static int
name_eq (const char *a, const char *b)
{
  for (; *a && *b; a++, b++)
    if (tolower ((unsigned char) *a) != tolower ((unsigned char) *b))
      return 0;
  return *a == *b;
}

/* the option NAME (a row of the schema with the range [0, Inf) or (0, Inf)): a real finite
 * scalar within it, or its default when a is NULL */
static double
nonneg (const mxArray *a, const char *name)
{
  const vm_opt_row *r = vm_schema_row (FN, name, 0);
  const char *e = r->bounds[0] == '[' ? "a finite number >= 0" : "a finite number > 0";
  if (! a)
    return vm_schema_default (FN, name);
  if (! mxIsNumeric (a) || mxIsComplex (a) || mxIsSparse (a) || mxGetNumberOfElements (a) != 1
      || ! vm_schema_accepts (r, mxGetScalar (a)))
    vm_arg_refuse (a, FN, name, e);
  return mxGetScalar (a);
}

/* index of a string option value in choices, or an error naming the choices */
static int
choice (const mxArray *a, const char *name, const char *const *choices, int nc, const char *list)
{
  char buf[32];
  int k;
  if (vm_arg_get_string (a, buf, sizeof buf))
    for (k = 0; k < nc; k++)
      if (name_eq (buf, choices[k]))
        return k;
  {
    char e[128];
    snprintf (e, sizeof e, "one of: %s", list);
    vm_arg_refuse (a, FN, name, e);
  }
  return -1;
}

static const mxArray *
sys_field (const mxArray *sys, const char *key)
{
  const mxArray *f = mxGetField (sys, 0, key);
  if (! f)
    BAD ("%s: sys must be a system made by mechsys (no field %s)", FN, key);
  return f;
}

static int
sys_count (const mxArray *sys, const char *key)
{
  char what[32];
  snprintf (what, sizeof what, "sys.%s", key);
  return (int) vm_arg_int (sys_field (sys, key), FN, what, 0, 1000000);
}

static void
append_vec (char *buf, size_t len, const double *x, int n)
{
  int j;
  size_t u = strlen (buf);
  for (j = 0; j < n && u + 32 < len; j++)
    {
      snprintf (buf + u, len - u, "%s%.6g", j ? " " : "", x[j]);
      u = strlen (buf);
    }
}

/* the reaction law of option Reaction: "ideal", "explicit", "vakonomic" or a k-by-n matrix B */
static int
reaction_law (const mxArray *r, int n, int *kdir, const double **B)
{
  static const char *laws[] = { "ideal", "explicit", "vakonomic" };
  static const int codes[] = { VM_LAW_IDEAL, VM_LAW_EXPLICIT, VM_LAW_VAKONOMIC };
  char e[112], buf[32];
  int k;
  snprintf (e, sizeof e, "'ideal', 'explicit', 'vakonomic' or a k-by-%d matrix of reaction directions",
            n);
  if (mxIsChar (r))
    {
      if (vm_arg_get_string (r, buf, sizeof buf))
        for (k = 0; k < 3; k++)
          if (name_eq (buf, laws[k]))
            return codes[k];
      vm_arg_refuse (r, FN, "Reaction", e);
    }
  if (! mxIsDouble (r) || mxIsComplex (r) || mxIsSparse (r) || mxGetNumberOfDimensions (r) != 2
      || mxGetN (r) != (size_t) n || mxGetM (r) < 1)
    vm_arg_refuse (r, FN, "Reaction", e);
  vm_arg_matrix (r, FN, "Reaction");
  *kdir = (int) mxGetM (r);
  *B = mxGetPr (r);
  return VM_LAW_DIRECTIONS;
}

/* the vakonomic law, before vm_motion_init (nothing to free on an error): its block, loaded into
 * vb, and no hard contacts */
static void
load_vakonomic (const mxArray *blocks, int nc, int hard, vm_block *vb, const char ***vnames)
{
  const mxArray *vc = mxGetField (blocks, 0, "vakonomic");
  if (! vc)
    BAD ("%s: sys was compiled by an older varmech (no vakonomic block); rebuild it with mechsys", FN);
  if (hard && nc > 0)
    BAD ("%s: Reaction 'vakonomic' does not handle hard contacts (no impact law for the multiplier "
         "states); use 'Contacts', 'soft'", FN);
  load_block (vc, FN, vb, vnames);
}

/* the vakonomic law, after vm_motion_init: the initial multipliers mu0 (option Multiplier0, m
 * values, checked already; default 0) appended to y0, the block attached, the constraints checked
 * for linearity in the velocities */
static void
setup_vakonomic (vm_motion *mo, const vm_block *vb, const mxArray *mu0, double t0, double *y0)
{
  int n = mo->n, m = mo->m, bad, st;
  memset (y0 + 2 * n, 0, (size_t) m * sizeof *y0);
  if (mu0 && ! mxIsEmpty (mu0))
    memcpy (y0 + 2 * n, mxGetPr (mu0), (size_t) m * sizeof *y0);
  st = vm_motion_set_vakonomic (mo, vb, t0, y0, y0 + n, &bad);
  if (st != VM_OK)
    {
      vm_motion_free (mo);
      if (bad >= 0)
        BAD ("%s: Reaction 'vakonomic' needs constraints linear in the velocities, "
             "g = a(t, q) . qdot + b(t, q); constraint %d is not", FN, bad + 1);
      BAD ("%s: the compiled model does not fit the vakonomic law (%s); rebuild it with mechsys", FN,
           vm_status_string (st));
    }
}

static const char *methods[] = { "dopri5", "gl4", "gl6", "rk4", "dop853" };

/* the arguments of one call, checked and converted */
typedef struct
{
  const mxArray *sys, *blocks;
  const mxArray *opt[O_COUNT];   /* option values by O_*, NULL when not given */
  int n, m, nc, np;
  double t0, tf;
  const double *q0, *qd0;
  int method, law, kdir;         /* Method; reaction law and its k directions B (k x n) */
  const double *B;
  double ctol;                   /* ConstraintTol */
  const double *tout;            /* OutputTimes (ntout) */
  size_t ntout;
  double *p;                     /* parameter values, in compile order (mxMalloc) */
  vm_motion_opts mopt;
} gi_args;

/* sys: a mechsys struct; its sizes n, m, nc and its blocks */
static void
check_sys (gi_args *a, const mxArray *sys)
{
  if (! mxIsStruct (sys) || mxGetNumberOfElements (sys) != 1 || ! mxGetField (sys, 0, "type")
      || ! mxIsChar (mxGetField (sys, 0, "type")))
    BAD ("%s: sys must be a system made by mechsys", FN);
  {
    char ty[16];
    if (mxGetString (mxGetField (sys, 0, "type"), ty, sizeof ty) != 0 || strcmp (ty, "mechsys") != 0)
      BAD ("%s: sys must be a system made by mechsys", FN);
  }
  a->sys = sys;
  a->n = sys_count (sys, "n");
  a->m = sys_count (sys, "m");
  a->nc = sys_count (sys, "nc");
  a->blocks = sys_field (sys, "blocks");
  if (! mxIsStruct (a->blocks) || ! mxGetField (a->blocks, 0, "eom")
      || ! mxGetField (a->blocks, 0, "motion"))
    BAD ("%s: sys was compiled by an older varmech; rebuild it with mechsys", FN);
  /* the blocks are evaluated without the model: only whether they are the formulas' */
  vm_mx_mech_current (sys, FN, "varmech:gauss_integrate:badarg");
}

/* the O_* index of the option named nm (any case), or an error naming the accepted names */
static int
option_index (const char *nm)
{
  char buf[OPT_NAME_MAX];
  int o;
  for (o = 0; o < O_COUNT && opt_name (o, buf); o++)
    if (name_eq (nm, buf))
      return o;
  BAD ("%s: unknown option '%s'; expected one of: %s", FN, nm, opt_list ());
  return -1;
}

/* the options from prhs[4 ..]: one struct, or name/value pairs, into a->opt */
static void
read_options (gi_args *a, int nrhs, const mxArray *prhs[])
{
  int k;
  for (k = 0; k < O_COUNT; k++)
    a->opt[k] = NULL;
  if (nrhs == 5 && mxIsStruct (prhs[4]))
    {
      int nf = mxGetNumberOfFields (prhs[4]), f;
      for (f = 0; f < nf; f++)
        {
          const char *nm = mxGetFieldNameByNumber (prhs[4], f);
          a->opt[option_index (nm)] = mxGetFieldByNumber (prhs[4], 0, f);
        }
      return;
    }
  if ((nrhs - 4) % 2 != 0)
    BAD ("%s: options must be name/value pairs (got an odd number of arguments)", FN);
  for (k = 4; k < nrhs; k += 2)
    {
      char nm[32];
      if (! mxIsChar (prhs[k]) || mxGetM (prhs[k]) > 1)
        BAD ("%s: argument %d must be an option name (a string); expected one of: %s",
             FN, k + 1, opt_list ());
      if (mxGetString (prhs[k], nm, sizeof nm) != 0)
        BAD ("%s: unknown option (name too long); expected one of: %s", FN, opt_list ());
      a->opt[option_index (nm)] = prhs[k + 1];
    }
}

/* the integrator's options and the reaction law from a->opt, into a->mopt */
static void
solver_options (gi_args *a)
{
  static const char *cmodes[] = { "hard", "soft" };
  static const char *onoff[] = { "off", "on" };
  const mxArray *const *opt = a->opt;
  vm_motion_opts *mopt = &a->mopt;
  double val;
  memset (mopt, 0, sizeof *mopt);
  if (opt[O_METHOD])
    a->method = choice (opt[O_METHOD], "Method", methods, 5, "dopri5, gl4, gl6, rk4, dop853");
  vm_ode_opts_init (&mopt->ode, a->method);
  mopt->ode.rtol = nonneg (opt[O_RELTOL], "RelTol");
  mopt->ode.atol = nonneg (opt[O_ABSTOL], "AbsTol");
  mopt->ode.h = (opt[O_STEP] && ! mxIsEmpty (opt[O_STEP])) ? nonneg (opt[O_STEP], "Step")
                                                            : fabs (a->tf - a->t0) / 1000;
  mopt->ode.h0 = nonneg (opt[O_H0], "InitialStep");
  mopt->ode.hmax = nonneg (opt[O_HMAX], "MaxStep");
  if (opt[O_MAXSTEPS])
    {
      const vm_opt_row *r = vm_schema_row (FN, "MaxSteps", 0);
      mopt->ode.max_steps = (long) vm_arg_int (opt[O_MAXSTEPS], FN, "MaxSteps", (int64_t) r->lo,
                                               (int64_t) r->hi);
    }
  a->ctol = nonneg (opt[O_CTOL], "ConstraintTol");
  if (opt[O_REACTION])
    a->law = reaction_law (opt[O_REACTION], a->n, &a->kdir, &a->B);
  if (opt[O_MU0] && a->law != VM_LAW_VAKONOMIC)
    BAD ("%s: Multiplier0 applies only to Reaction 'vakonomic'", FN);
  if (opt[O_MU0] && ! mxIsEmpty (opt[O_MU0]))
    vm_arg_vector (opt[O_MU0], FN, "Multiplier0", (size_t) a->m);
  mopt->hard = opt[O_CONTACTS] ? choice (opt[O_CONTACTS], "Contacts", cmodes, 2, "hard, soft") == 0
                               : 1;
  mopt->restitution = vm_schema_default (FN, "Restitution");
  if (opt[O_RESTITUTION])
    {
      val = vm_arg_real (opt[O_RESTITUTION], FN, "Restitution");
      if (! vm_schema_accepts (vm_schema_row (FN, "Restitution", 0), val))
        vm_arg_refuse (opt[O_RESTITUTION], FN, "Restitution", "a number in [0, 1]");
      mopt->restitution = val;
    }
  mopt->project = opt[O_PROJECTION] ? choice (opt[O_PROJECTION], "Projection", onoff, 2, "off, on")
                                    : 0;
}

/* option OutputTimes: strictly monotone, inside tspan */
static void
output_times (gi_args *a)
{
  const mxArray *o = a->opt[O_TOUT];
  double s = a->tf > a->t0 ? 1 : -1, t0 = a->t0, tf = a->tf;
  const double *tout;
  size_t j;
  if (! o || mxIsEmpty (o))
    return;
  tout = a->tout = vm_arg_vector_any (o, FN, "OutputTimes", &a->ntout);
  for (j = 0; j < a->ntout; j++)
    if ((j > 0 && ! (s * (tout[j] - tout[j - 1]) > 0)) || s * (tout[j] - t0) < 0
        || s * (tf - tout[j]) < 0)
      BAD ("%s: OutputTimes must be strictly monotone and inside tspan = [%g %g]", FN, t0, tf);
}

/* the parameter values, in compile order, into a->p */
static void
read_parameters (gi_args *a)
{
  const mxArray *params = sys_field (a->sys, "parameters");
  const mxArray *pnames = sys_field (a->sys, "parameter_names");
  const char **pn;
  int k, np;
  if (! mxIsStruct (params) || mxGetNumberOfElements (params) != 1 || ! mxIsCell (pnames))
    BAD ("%s: sys.parameters must be a scalar struct of name = value", FN);
  np = a->np = (int) mxGetNumberOfElements (pnames);
  a->p = mxMalloc ((size_t) (np > 0 ? np : 1) * sizeof *a->p);
  pn = mxMalloc ((size_t) (np > 0 ? np : 1) * sizeof *pn);
  for (k = 0; k < np; k++)
    {
      const mxArray *c = mxGetCell (pnames, (mwIndex) k);
      if (! c || ! mxIsChar (c) || ! (pn[k] = mxArrayToString (c)))
        BAD ("%s: sys must be a system made by mechsys (parameter_names)", FN);
    }
  vm_arg_params (params, pn, np, FN, "sys", a->p);
  if (mxGetNumberOfFields (params) != np)
    BAD ("%s: sys.parameters must have exactly the fields the system was compiled with", FN);
}

/* load the blocks (bl[0..*nb-1]; bl[3] for the vakonomic law) and prepare the motion mo */
static void
init_motion (const gi_args *a, vm_motion *mo, vm_block bl[4], const char **fnames[4], int *nb)
{
  const mxArray *bcells[3];
  int k, st;
  bcells[0] = mxGetField (a->blocks, 0, "eom");
  bcells[1] = mxGetField (a->blocks, 0, "motion");
  bcells[2] = a->nc > 0 ? mxGetField (a->blocks, 0, "contacts") : NULL;
  *nb = bcells[2] ? 3 : 2;
  for (k = 0; k < *nb; k++)
    load_block (bcells[k], FN, &bl[k], &fnames[k]);
  if (a->law == VM_LAW_VAKONOMIC)
    load_vakonomic (a->blocks, a->nc, a->mopt.hard, &bl[3], &fnames[3]);
  {
    const vm_motion_setup ms = { a->n, a->m, a->np, &bl[0], &bl[1], *nb == 3 ? &bl[2] : NULL,
                                 a->p, a->law, a->kdir, a->B };
    st = vm_motion_init (mo, &ms);
  }
  if (st != VM_OK)
    BAD ("%s: the compiled model does not fit the equations of motion (%s); rebuild it with "
         "mechsys", FN, vm_status_string (st));
}

/* the initial state y0 (ny values, mxMalloc; the multipliers are set by setup_vakonomic), checked
 * against the constraints and the contacts */
static double *
initial_state (const gi_args *a, vm_motion *mo, size_t ny)
{
  int n = a->n, what, idx;
  double val, *y0 = mxMalloc (ny * sizeof *y0);
  vm_motion_violation v;
  memcpy (y0, a->q0, (size_t) n * sizeof *y0);
  memcpy (y0 + n, a->qd0, (size_t) n * sizeof *y0);
  if (vm_motion_check_state (mo, a->t0, y0, y0 + n, a->ctol, a->mopt.hard, &v) != VM_OK)
    {
      what = v.what;
      idx = v.index;
      val = v.value;
      vm_motion_free (mo);
      if (what == 1)
        BAD ("%s: the initial state violates constraint %d by %g (ConstraintTol = %g)", FN, idx + 1,
             val, a->ctol);
      if (what == 2)
        BAD ("%s: the initial position is outside contact %d (h = %g < 0)", FN, idx + 1, val);
      if (what == 3)
        BAD ("%s: contact %d has Coulomb friction (mu = %g), which hard walls do not model (an impact "
             "changes only the normal velocity, and a hard wall holds no sliding contact); use "
             "'Contacts', 'soft' (the model's regularized normal and friction forces, as in "
             "skg_solve)", FN, idx + 1, val);
      BAD ("%s: the model cannot be evaluated at the initial state (non-finite values)", FN);
    }
  return y0;
}

/* the field "message" in msg (2048 chars): the time reached, or the failure with its state.  A
 * fixed-step run (gl4, gl6, rk4: no error control) with constraints also gives the largest drift
 * it saw against the tolerance scale (vm_motion_sol.drift), which is all that tells its user
 * whether the step was small enough (gauss_integrate.m adds the energy's change). */
static void
message_text (const vm_motion_sol *sol, const gi_args *a, int st, char *msg)
{
  const size_t len = 2048;
  const int n = a->n;
  const int fixed = a->method == VM_ODE_GL4 || a->method == VM_ODE_GL6 || a->method == VM_ODE_RK4;
  if (st == VM_OK)
    {
      snprintf (msg, len, "reached t = %g", sol->t_end);
      if (fixed && a->m > 0 && ! sol->drift_note)
        snprintf (msg + strlen (msg), len - strlen (msg), "; the constraints stayed within %.3g "
                  "times the tolerance scale (AbsTol + RelTol max|q|; sol.residual)", sol->drift);
      if (sol->drift_note)
        snprintf (msg + strlen (msg), len - strlen (msg), "; the constraints drifted to "
                  "%.3g times the tolerance (sol.residual_position, sol.residual): the equations "
                  "of motion hold them at acceleration level only; 'Projection', 'on' keeps them",
                  sol->drift);
    }
  else
    {
      int nn = n < 64 ? n : 64;
      /* a singular mass matrix is the cause, not a circumstance of the stop: it leads (and
       * gauss_integrate.m names the coordinates without kinetic term after the state) */
      if (st == VM_ENOTSPD)
        snprintf (msg, len, "the mass matrix d2L/dqdot2 is singular or not positive definite at "
                  "t = %.17g (rcond %.3g)", sol->fail[0], sol->rcond);
      else
        snprintf (msg, len, "stopped at t = %.17g: %s", sol->fail[0], vm_status_string (st));
      if (st == VM_ESINGULAR)
        snprintf (msg + strlen (msg), len - strlen (msg), " (rcond %.3g)", sol->rcond);
      snprintf (msg + strlen (msg), len - strlen (msg), "; q = [");
      append_vec (msg, len, sol->fail + 1, nn);
      snprintf (msg + strlen (msg), len - strlen (msg), "], qdot = [");
      append_vec (msg, len, sol->fail + 1 + nn, nn);
      snprintf (msg + strlen (msg), len - strlen (msg), "]");
    }
}

/* The struct gauss_integrate returns (vm_integrate_schema, vm_integrate_sol_mx.h), converted once
 * from the integrator's solution sol of status st; ny: the state's length per point. */
static mxArray *
solution_struct (const gi_args *a, const vm_motion_sol *sol, size_t ny, int st)
{
  char msg[2048];
  vm_integrate_out x;
  vm_sol_src s;
  message_text (sol, a, st, msg);
  x.n = (size_t) a->n;
  x.ny = ny;
  x.method = methods[a->method];
  x.status = st;
  x.message = msg;
  x.sys = a->sys;
  x.tout = a->tout;
  x.ntout = a->ntout;
  x.nlambda = (size_t) (a->law == VM_LAW_DIRECTIONS ? a->kdir : a->m);
  memset (&s, 0, sizeof s);
  s.sol = sol;
  s.aux = &x;
  s.size[VM_SZ_NTOT] = (int64_t) sol->npts;
  s.size[VM_SZ_N] = a->n;
  s.size[VM_SZ_M] = a->m;
  s.size[VM_SZ_NLAMBDA] = a->law == VM_LAW_DIRECTIONS ? a->kdir : a->m;
  s.size[VM_SZ_NRATE] = a->law == VM_LAW_VAKONOMIC ? a->m : 0;
  s.size[VM_SZ_NIMPACT] = (int64_t) sol->nimpact;
  s.size[VM_SZ_NOUT] = (int64_t) a->ntout;
  return vm_solution_mx (vm_integrate_schema, &s);
}

void
mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  gi_args a;
  vm_block bl[4];
  const char **fnames[4];
  int nb, k, st;
  double *y0;
  size_t ny;
  vm_motion mo;
  vm_motion_sol sol;
  (void) nlhs;

  if (nrhs == 1 && mxIsChar (prhs[0]))
    {
      char cmd[16];
      if (mxGetString (prhs[0], cmd, sizeof cmd) == 0 && strcmp (cmd, "model_compiles") == 0)
        {
          /* texts parsed by this gateway's model library (it loads, never parses) */
          plhs[0] = mxCreateDoubleScalar ((double) vm_model_compiles ());
          return;
        }
      if (mxGetString (prhs[0], cmd, sizeof cmd) == 0 && strcmp (cmd, "solution_schema") == 0)
        {
          plhs[0] = vm_solution_schema_mx (vm_integrate_schema);
          return;
        }
    }
  if (nrhs < 4)
    BAD ("%s: expected at least 4 inputs: sys, tspan, q0, qdot0 (see help gauss_integrate)", FN);
  memset (&a, 0, sizeof a);
  a.law = VM_LAW_IDEAL;
  check_sys (&a, prhs[0]);
  read_options (&a, nrhs, prhs);
  /* time span and initial state */
  vm_arg_interval (prhs[1], FN, "tspan", 0, &a.t0, &a.tf);
  a.q0 = vm_arg_vector (prhs[2], FN, "q0", (size_t) a.n);
  a.qd0 = vm_arg_vector (prhs[3], FN, "qdot0", (size_t) a.n);
  solver_options (&a);
  output_times (&a);
  read_parameters (&a);

  init_motion (&a, &mo, bl, fnames, &nb);
  ny = (size_t) 2 * a.n + (a.law == VM_LAW_VAKONOMIC ? (size_t) a.m : 0);
  y0 = initial_state (&a, &mo, ny);
  if (a.law == VM_LAW_VAKONOMIC)
    setup_vakonomic (&mo, &bl[3], a.opt[O_MU0], a.t0, y0);
  st = vm_motion_integrate (&mo, &a.mopt, a.t0, a.tf, y0, a.tout, a.ntout, &sol);

  plhs[0] = solution_struct (&a, &sol, ny, st);
  vm_motion_sol_free (&sol);
  vm_motion_free (&mo);
  for (k = 0; k < nb; k++)
    free_block (&bl[k], fnames[k]);
  if (a.law == VM_LAW_VAKONOMIC)
    free_block (&bl[3], fnames[3]);
  mxFree (a.p);
  mxFree (y0);
}
