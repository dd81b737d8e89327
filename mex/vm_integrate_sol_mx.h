/* vm_integrate_sol_mx.h -- the solution schema (vm_solution_mx.h) of gauss_integrate: the struct
 * the user receives, in its order, from the integrator's vm_motion_sol (csrc/reference/motion.h).
 * vm_integrate_mex.c fills a vm_integrate_out (what the makers read besides the C solution) and
 * converts once; gauss_integrate.m sets only time (its own wall clock, options included).
 * Conversion only. */
#ifndef VM_INTEGRATE_SOL_MX_H
#define VM_INTEGRATE_SOL_MX_H

#include <stddef.h>
#include <string.h>

#include "vm_mex.h"
#include "vm_solution_mx.h"
#include "reference/motion.h"

/* What the makers read besides the vm_motion_sol. */
typedef struct
{
  size_t n, ny;              /* coordinates; the state's length per point (q, qdot (, mu)) */
  const char *method;        /* the integrator's name */
  int status;                /* the integration's status */
  const char *message;       /* what happened, in words */
  const mxArray *sys;        /* the mechsys struct (its coordinate names) */
  const double *tout;        /* OutputTimes (ntout; 0: not given) */
  size_t ntout;
  size_t nlambda;            /* multipliers per point */
} vm_integrate_out;

/* columns col0 .. col0 + cols - 1 of the point-major p (stride ny per point) */
static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_states (const vm_sol_src *s, const vm_sol_field *f, const double *p, size_t col0)
{
  size_t r = vm_sol_dim (s, f->rows), c = vm_sol_dim (s, f->cols), k, j,
         ny = ((const vm_integrate_out *) s->aux)->ny;
  mxArray *a = mxCreateDoubleMatrix (r, c, mxREAL);
  for (k = 0; p && k < r; k++)
    for (j = 0; j < c; j++)
      mxGetPr (a)[k + r * j] = p[k * ny + col0 + j];
  return a;
}

/* output.t: the requested times, a column */
static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_output_t (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_integrate_out *x = s->aux;
  mxArray *a = mxCreateDoubleMatrix (x->ntout, 1, mxREAL);
  (void) f;
  if (x->ntout > 0)
    memcpy (mxGetPr (a), x->tout, x->ntout * sizeof (double));
  return a;
}

/* columns col0 .. col0 + cols - 1 of the point-major output points p (stride ld): the rows the
 * run reached, NaN after a stop before the last output time */
static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_output_block (const vm_sol_src *s, const vm_sol_field *f, const double *p,
                               size_t ld, size_t col0)
{
  const vm_motion_sol *sol = s->sol;
  size_t r = vm_sol_dim (s, f->rows), c = vm_sol_dim (s, f->cols), k, j;
  mxArray *a = mxCreateDoubleMatrix (r, c, mxREAL);
  for (k = 0; k < r; k++)
    for (j = 0; j < c; j++)
      mxGetPr (a)[k + r * j] = p && k < sol->nout ? p[k * ld + col0 + j] : mxGetNaN ();
  return a;
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_output_q (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_integrate_out *x = s->aux;
  return vm_integrate_sol_output_block (s, f, ((const vm_motion_sol *) s->sol)->oy, x->ny, 0);
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_output_qdot (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_integrate_out *x = s->aux;
  return vm_integrate_sol_output_block (s, f, ((const vm_motion_sol *) s->sol)->oy, x->ny, x->n);
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_output_lambda (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_integrate_out *x = s->aux;
  return vm_integrate_sol_output_block (s, f, ((const vm_motion_sol *) s->sol)->omult,
                                        x->nlambda, 0);
}

#define VM_INTEGRATE_N(s) (((const vm_integrate_out *) (s)->aux)->n)
#define VM_INTEGRATE_SOL(s) ((const vm_motion_sol *) (s)->sol)

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_q (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_integrate_sol_states (s, f, VM_INTEGRATE_SOL (s)->y, 0);
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_qdot (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_integrate_sol_states (s, f, VM_INTEGRATE_SOL (s)->y, VM_INTEGRATE_N (s));
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_impact_q (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_integrate_sol_states (s, f, VM_INTEGRATE_SOL (s)->yb, 0);
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_impact_before (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_integrate_sol_states (s, f, VM_INTEGRATE_SOL (s)->yb, VM_INTEGRATE_N (s));
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_impact_after (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_integrate_sol_states (s, f, VM_INTEGRATE_SOL (s)->ya, VM_INTEGRATE_N (s));
}

/* impacts.contact: 1-based */
static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_contact (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_motion_sol *sol = VM_INTEGRATE_SOL (s);
  size_t j, ni = vm_sol_dim (s, f->rows);
  mxArray *ci = mxCreateDoubleMatrix (ni, 1, mxREAL);
  for (j = 0; j < ni; j++)
    mxGetPr (ci)[j] = sol->ci[j] + 1;
  return ci;
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_method (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateString (((const vm_integrate_out *) s->aux)->method);
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_exitflag (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateDoubleScalar (((const vm_integrate_out *) s->aux)->status == VM_OK ? 1.0 : 0.0);
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_message (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateString (((const vm_integrate_out *) s->aux)->message);
}

static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_solver (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) s;
  (void) f;
  return mxCreateString ("gauss_integrate");
}

/* names: sys.coordinates as a 1-by-n cell row (a 1-by-0 cell for a struct without them: the
 * gateway checks sys's compiled blocks, not its names) */
static VM_MAYBE_UNUSED mxArray *
vm_integrate_sol_names (const vm_sol_src *s, const vm_sol_field *f)
{
  const mxArray *names = mxGetField (((const vm_integrate_out *) s->aux)->sys, 0, "coordinates");
  mxArray *c = names ? mxDuplicateArray (names) : mxCreateCellMatrix (1, 0);
  size_t n = mxGetNumberOfElements (c);
  (void) f;
  mxSetM (c, 1);
  mxSetN (c, n);
  return c;
}

#define ROW(name, kind, rows, cols, member, unit, meaning) \
  { name, kind, rows, cols, VM_SZ_0, offsetof (vm_motion_sol, member), NULL, NULL, unit, meaning }
#define MK(name, rows, cols, make, unit, meaning) \
  { name, VM_SOLF_MAKE, rows, cols, VM_SZ_0, 0, make, NULL, unit, meaning }
#define SUB(name, sub, meaning) \
  { name, VM_SOLF_STRUCT, VM_SZ_1, VM_SZ_1, VM_SZ_0, 0, NULL, sub, "", meaning }
#define SUB_WHEN(name, when, sub, meaning) \
  { name, VM_SOLF_STRUCT, VM_SZ_1, VM_SZ_1, when, 0, NULL, sub, "", meaning }
#define END { NULL, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL }

/* sol.impacts: one row per impact of a hard contact */
static VM_MAYBE_UNUSED const vm_sol_field vm_integrate_impacts_schema[] = {
  ROW ("t", VM_SOLF_POINTS, VM_SZ_NIMPACT, VM_SZ_1, ti, "[t]", "the time of each impact"),
  MK ("contact", VM_SZ_NIMPACT, VM_SZ_1, vm_integrate_sol_contact, "1",
      "the contact (1-based) that was hit"),
  MK ("q", VM_SZ_NIMPACT, VM_SZ_N, vm_integrate_sol_impact_q, "[q]", "the position at the impact"),
  MK ("qdot_before", VM_SZ_NIMPACT, VM_SZ_N, vm_integrate_sol_impact_before, "[q]/[t]",
      "the velocity before it"),
  MK ("qdot_after", VM_SZ_NIMPACT, VM_SZ_N, vm_integrate_sol_impact_after, "[q]/[t]",
      "the velocity after it"),
  END
};

/* sol.output: the solution at the requested times (OutputTimes) */
static VM_MAYBE_UNUSED const vm_sol_field vm_integrate_output_schema[] = {
  MK ("t", VM_SZ_NOUT, VM_SZ_1, vm_integrate_sol_output_t, "[t]", "the requested times"),
  MK ("q", VM_SZ_NOUT, VM_SZ_N, vm_integrate_sol_output_q, "[q]",
      "positions by the method's dense output (NaN past a stop)"),
  MK ("qdot", VM_SZ_NOUT, VM_SZ_N, vm_integrate_sol_output_qdot, "[q]/[t]",
      "velocities by the same dense output"),
  MK ("lambda", VM_SZ_NOUT, VM_SZ_NLAMBDA, vm_integrate_sol_output_lambda, "[force]",
      "the multipliers at those states"),
  END
};

/* sol.stats: the integrator's counters */
static VM_MAYBE_UNUSED const vm_sol_field vm_integrate_stats_schema[] = {
  ROW ("nsteps", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, nsteps, "1", "steps attempted"),
  ROW ("naccept", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, naccept, "1", "steps accepted"),
  ROW ("nreject", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, nreject, "1", "steps rejected"),
  ROW ("nfev", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, nfev, "1", "evaluations of the equations"),
  ROW ("nnewton", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, nnewton_iter, "1",
       "Newton iterations of the implicit methods"),
  ROW ("nlayer", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, nlayer, "1",
       "steps rejected by the soft-contact layer check (in nreject)"),
  END
};

/* The struct gauss_integrate returns (help gauss_integrate). */
static VM_MAYBE_UNUSED const vm_sol_field vm_integrate_schema[] = {
  ROW ("t", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_1, t, "[t]",
       "t0 and every accepted step (with OutputTimes too)"),
  MK ("q", VM_SZ_NTOT, VM_SZ_N, vm_integrate_sol_q, "[q]", "positions"),
  MK ("qdot", VM_SZ_NTOT, VM_SZ_N, vm_integrate_sol_qdot, "[q]/[t]", "velocities"),
  ROW ("lambda", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_NLAMBDA, mult, "[force]",
       "the multipliers (vakonomic: mu; directions: one per direction)"),
  ROW ("lambda_rate", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_NRATE, mult_rate, "[force]/[t]",
       "mudot (the vakonomic law only; else no columns)"),
  ROW ("power", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_1, power, "[energy]/[t]",
       "the power R . qdot of the reaction"),
  ROW ("energy", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_1, energy, "[energy]",
       "qdot . dL/dqdot - L + contact_energy"),
  ROW ("contact_energy", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_1, contact_energy, "[energy]",
       "the soft contacts' potentials sum_c V0/2 erfc(h/(sqrt(2) sigma)) (0 for hard walls)"),
  ROW ("residual", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_M, phi, "",
       "every constraint at velocity level"),
  ROW ("residual_position", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_M, gpos, "",
       "the holonomic constraints at position level (0 for the others)"),
  SUB ("impacts", vm_integrate_impacts_schema, "the impacts of hard contacts"),
  SUB ("stats", vm_integrate_stats_schema, "the integrator's counters"),
  SUB_WHEN ("output", VM_SZ_NOUT, vm_integrate_output_schema,
            "the solution at OutputTimes (only when they are given)"),
  MK ("method", VM_SZ_1, VM_SZ_LEN, vm_integrate_sol_method, "", "the integrator"),
  MK ("exitflag", VM_SZ_1, VM_SZ_1, vm_integrate_sol_exitflag, "1", "1 reached tf, 0 stopped"),
  MK ("message", VM_SZ_1, VM_SZ_LEN, vm_integrate_sol_message, "", "what happened, in words"),
  { "time", VM_SOLF_FRONT, VM_SZ_1, VM_SZ_1, VM_SZ_0, 0, NULL, NULL, "s",
    "wall-clock seconds of the call (set by gauss_integrate.m, which measures it)" },
  MK ("solver", VM_SZ_1, VM_SZ_LEN, vm_integrate_sol_solver, "", "'gauss_integrate'"),
  MK ("names", VM_SZ_1, VM_SZ_N, vm_integrate_sol_names, "", "the coordinates' names"),
  END
};

#undef ROW
#undef MK
#undef SUB
#undef SUB_WHEN
#undef END
#undef VM_INTEGRATE_N
#undef VM_INTEGRATE_SOL

#endif
