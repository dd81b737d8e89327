/* vm_dual_sol_mx.h -- the solution schemas (vm_solution_mx.h) of dual_solve, dual_lorenz and
 * dual_pars: the march's (adaptive windows, or fixed ones with predicted base states) and the
 * fixed slabs' (csrc/dual/dual_slabs.h), each the struct the user receives, in its order, and
 * the gateway's one-grid solve ("solve", csrc/dual/dual.h: for tests and benchmarks).
 * vm_dual_mex.c fills a vm_dual_march_out, vm_dual_slabs_out or vm_dual_solve_out (what the
 * makers read besides the C solution) and converts once; the front end
 * (inst/private/vm_dual_driver.m) sets only the slabs' grid t.  Conversion only. */
#ifndef VM_DUAL_SOL_MX_H
#define VM_DUAL_SOL_MX_H

#include <stddef.h>
#include <string.h>

#include "vm_mex.h"
#include "vm_solution_mx.h"
#include "vm_march_mx.h"
#include "vm_linsolve_mx.h"
#include "dual/dual.h"
#include "dual/dual_slabs.h"
#include "march/march.h"
#include "newton/newton.h"

/* What the march's makers read besides the march record (vm_sol_src.sol: a vm_march_sol). */
typedef struct
{
  double N, order, corder;   /* nodes per window, the SBP order and its companion's */
  int adaptive;              /* 1: error control chose the windows */
  int status;                /* the march's status */
  const double *tout;        /* the nout requested times */
  const double *dense;       /* nout x (ny + m): the interpolant at tout */
  double fallbacks, stiff;   /* predictions that fell back / found the system stiff */
  const mxArray *ode;        /* the odesys (its state names), or NULL for a closed form */
} vm_dual_march_out;

/* What the slabs' makers read besides their C solution (a vm_dual_slabs_sol). */
typedef struct
{
  double time, setup_time;   /* wall-clock seconds: the whole call, the setup before the solves */
  double compiles;           /* models compiled by the call */
  const mxArray *ode;        /* the odesys, or NULL */
} vm_dual_slabs_out;

/* What the one-grid solve's makers read besides the vm_dual. */
typedef struct
{
  const vm_newton_info *info;       /* Newton's record */
  const double *res, *gres, *ham;   /* point-major N nd, N ng, N: the primal residuals, the
                                       algebraic equations, the Hamiltonian (nprimal rows) */
  double S, linear_dtp, bad_node;   /* the action; 1 when the DtP map is linear; the failing node
                                       (1-based, 0: none) */
  int status;
  const char *message;
} vm_dual_solve_out;

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_string (const char *s)
{
  return mxCreateString (s);
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_mode (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return vm_dual_sol_string (((const vm_dual_march_out *) s->aux)->adaptive ? "adaptive"
                                                                              : "fixed");
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_guess (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) s;
  (void) f;
  return vm_dual_sol_string ("marching");
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_final_dual (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) s;
  (void) f;
  return vm_dual_sol_string ("weak");
}

/* columns col0 .. col0 + cols - 1 of a rows-by-anything column-major array p */
static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_block (const double *p, size_t r, size_t c, size_t col0)
{
  mxArray *a = mxCreateDoubleMatrix (r, c, mxREAL);
  if (p && r * c > 0)
    memcpy (mxGetPr (a), p + r * col0, r * c * sizeof (double));
  return a;
}

/* D: the march's trajectory after its ny columns of y */
static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_march_D (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_dual_sol_block (((const vm_march_sol *) s->sol)->traj, vm_sol_dim (s, f->rows),
                            vm_sol_dim (s, f->cols), (size_t) s->size[VM_SZ_NY]);
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_output_t (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_mx_col (((const vm_dual_march_out *) s->aux)->tout, vm_sol_dim (s, f->rows));
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_output_y (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_dual_sol_block (((const vm_dual_march_out *) s->aux)->dense, vm_sol_dim (s, f->rows),
                            vm_sol_dim (s, f->cols), 0);
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_output_D (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_dual_sol_block (((const vm_dual_march_out *) s->aux)->dense, vm_sol_dim (s, f->rows),
                            vm_sol_dim (s, f->cols), (size_t) s->size[VM_SZ_NY]);
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_march_exitflag (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateDoubleScalar (((const vm_dual_march_out *) s->aux)->status == VM_OK ? 1.0 : 0.0);
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_march_linsolve (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_march_sol *ms = s->sol;
  (void) f;
  return vm_mx_linsolve (ms->linsolve, ms->kl, ms->ku, ms->lean, ms->nchol, ms->nchol_fail,
                         ms->t_numeric, ms->t_solve);
}

/* solver and names: with an odesys only (dual_solve), size symbol names */
static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_names_of (const mxArray *ode)
{
  mxArray *c = mxDuplicateArray (mxGetField (ode, 0, "states"));
  size_t n = mxGetNumberOfElements (c);
  mxSetM (c, 1);
  mxSetN (c, n);
  return c;
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_solver (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) s;
  (void) f;
  return vm_dual_sol_string ("dual_solve");
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_march_names (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return vm_dual_sol_names_of (((const vm_dual_march_out *) s->aux)->ode);
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_slabs_names (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return vm_dual_sol_names_of (((const vm_dual_slabs_out *) s->aux)->ode);
}

/* hamiltonian: Ntot x 1 when kept, [] otherwise (size symbols nham, ham) */
static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_hamiltonian (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_dual_slabs_sol *ss = s->sol;
  size_t r = vm_sol_dim (s, f->rows), c = vm_sol_dim (s, f->cols);
  mxArray *a = mxCreateDoubleMatrix (r, c, mxREAL);
  if (ss->ham && r * c > 0)
    memcpy (mxGetPr (a), ss->ham, r * sizeof (double));
  return a;
}

/* residual_history: one column per solve, in order (pass-major, then slab) */
static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_slabs_history (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_dual_slabs_sol *ss = s->sol;
  size_t j, ns = vm_sol_dim (s, f->cols);
  mxArray *h = mxCreateCellMatrix (1, ns);
  for (j = 0; j < ns; j++)
    mxSetCell (h, (mwIndex) j, vm_mx_col (ss->hist + ss->hist_p[j],
                                          (size_t) (ss->hist_p[j + 1] - ss->hist_p[j])));
  return h;
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_slabs_linsolve (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_dual_slabs_sol *ss = s->sol;
  (void) f;
  return vm_mx_linsolve (ss->linsolve, ss->kl, ss->ku, ss->lean, ss->nchol, ss->nchol_fail,
                         ss->t_numeric, ss->t_solve);
}

#define VM_DUAL_SOLVE_OUT(s) ((const vm_dual_solve_out *) (s)->aux)

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_solve_iterations (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateDoubleScalar (VM_DUAL_SOLVE_OUT (s)->info->iterations);
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_solve_history (const vm_sol_src *s, const vm_sol_field *f)
{
  return vm_mx_col (VM_DUAL_SOLVE_OUT (s)->info->res_hist, vm_sol_dim (s, f->rows));
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_solve_exitflag (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateDoubleScalar (VM_DUAL_SOLVE_OUT (s)->status == VM_OK ? 1.0 : 0.0);
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_solve_message (const vm_sol_src *s, const vm_sol_field *f)
{
  (void) f;
  return mxCreateString (VM_DUAL_SOLVE_OUT (s)->message);
}

static VM_MAYBE_UNUSED mxArray *
vm_dual_sol_solve_linsolve (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_newton_info *info = VM_DUAL_SOLVE_OUT (s)->info;
  (void) f;
  return vm_mx_linsolve (info->linsolve, info->kl, info->ku, info->lean, info->nchol,
                         info->nchol_fail, info->t_numeric, info->t_solve);
}

#undef VM_DUAL_SOLVE_OUT

#define MS(name, kind, rows, cols, member, unit, meaning) \
  { name, kind, rows, cols, VM_SZ_0, offsetof (vm_march_sol, member), NULL, NULL, unit, meaning }
#define MO(name, kind, member, unit, meaning) \
  { name, (kind) | VM_SOLF_AUX, VM_SZ_1, VM_SZ_1, VM_SZ_0, offsetof (vm_dual_march_out, member), \
    NULL, NULL, unit, meaning }
#define SS(name, kind, rows, cols, member, unit, meaning) \
  { name, kind, rows, cols, VM_SZ_0, offsetof (vm_dual_slabs_sol, member), NULL, NULL, unit, \
    meaning }
#define SO(name, member, unit, meaning) \
  { name, VM_SOLF_DOUBLE | VM_SOLF_AUX, VM_SZ_1, VM_SZ_1, VM_SZ_0, \
    offsetof (vm_dual_slabs_out, member), NULL, NULL, unit, meaning }
#define MK(name, rows, cols, when, make, unit, meaning) \
  { name, VM_SOLF_MAKE, rows, cols, when, 0, make, NULL, unit, meaning }
#define SUB_MARCH(name, sub, meaning) \
  { name, VM_SOLF_STRUCT, VM_SZ_1, VM_SZ_1, VM_SZ_0, 0, NULL, sub, "", meaning }
#define SUB_OUTPUT(name, sub, meaning) \
  { name, VM_SOLF_STRUCT, VM_SZ_1, VM_SZ_1, VM_SZ_NOUT, 0, NULL, sub, "", meaning }
#define END { NULL, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL }

/* sol.output of the march: the solution at the requested times (OutputTimes) */
static VM_MAYBE_UNUSED const vm_sol_field vm_dual_output_schema[] = {
  MK ("t", VM_SZ_NOUT, VM_SZ_1, VM_SZ_0, vm_dual_sol_output_t, "[t]", "the requested times"),
  MK ("y", VM_SZ_NOUT, VM_SZ_NY, VM_SZ_0, vm_dual_sol_output_y, "[y]",
      "the states by the SBP interpolant (NaN outside the solved part)"),
  MK ("D", VM_SZ_NOUT, VM_SZ_M, VM_SZ_0, vm_dual_sol_output_D, "", "the duals likewise"),
  END
};

/* The marching driver's solution (vm_dual_mex "march"; vm_sol_src.sol: the vm_march_sol). */
static VM_MAYBE_UNUSED const vm_sol_field vm_dual_march_schema[] = {
  MS ("t", VM_SOLF_REAL, VM_SZ_NTOT, VM_SZ_1, t, "[t]", "the nodes of the windows"),
  MS ("y", VM_SOLF_REAL, VM_SZ_NTOT, VM_SZ_NY, traj, "[y]", "the recovered primal at the nodes"),
  MK ("D", VM_SZ_NTOT, VM_SZ_M, VM_SZ_0, vm_dual_sol_march_D, "", "the duals at the nodes"),
  MK ("mode", VM_SZ_1, VM_SZ_LEN, VM_SZ_0, vm_dual_sol_mode, "", "'adaptive' or 'fixed'"),
  MK ("guess", VM_SZ_1, VM_SZ_LEN, VM_SZ_0, vm_dual_sol_guess, "", "'marching'"),
  MK ("final_dual", VM_SZ_1, VM_SZ_LEN, VM_SZ_0, vm_dual_sol_final_dual, "", "'weak'"),
  MO ("N", VM_SOLF_DOUBLE, N, "1", "nodes per window"),
  MO ("order", VM_SOLF_DOUBLE, order, "1", "the SBP order"),
  MO ("companion_order", VM_SOLF_DOUBLE, corder, "1", "the order of the error estimate"),
  SUB_MARCH ("windows", vm_march_windows_schema, "the accepted windows"),
  SUB_MARCH ("rejected", vm_march_rejected_schema, "the rejected attempts"),
  MS ("iterations", VM_SOLF_INT, VM_SZ_1, VM_SZ_1, iterations, "1", "Newton steps, all solves"),
  MS ("residual_history", VM_SOLF_REAL, VM_SZ_NHIST, VM_SZ_1, res_hist, "",
      "||F||_W per Newton iterate of the accepted solves"),
  MK ("history_window", VM_SZ_NHIST, VM_SZ_1, VM_SZ_0, vm_march_mx_history_window, "1",
      "the window (1-based) of each history entry"),
  SUB_OUTPUT ("output", vm_dual_output_schema,
              "the solution at OutputTimes (only when they are given)"),
  MO ("predict_fallbacks", VM_SOLF_DOUBLE, fallbacks, "1",
      "windows whose prediction fell back to the constant start"),
  MO ("predict_stiff", VM_SOLF_DOUBLE, stiff, "1", "windows whose prediction found stiffness"),
  MK ("linear_solver", VM_SZ_1, VM_SZ_1, VM_SZ_0, vm_dual_sol_march_linsolve, "",
      "the linear solver of Newton's systems (vm_linsolve_mx.h)"),
  MK ("exitflag", VM_SZ_1, VM_SZ_1, VM_SZ_0, vm_dual_sol_march_exitflag, "1",
      "1 solved, 0 failed"),
  MS ("message", VM_SOLF_TEXT, VM_SZ_1, VM_SZ_LEN, message, "", "what happened, in words"),
  MS ("time", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, t_total, "s", "wall-clock seconds of the march"),
  MK ("solver", VM_SZ_1, VM_SZ_LEN, VM_SZ_NAMES, vm_dual_sol_solver, "",
      "'dual_solve' (an odesys only)"),
  MK ("names", VM_SZ_1, VM_SZ_NY, VM_SZ_NAMES, vm_dual_sol_march_names, "",
      "the states' names (an odesys only)"),
  END
};

/* The fixed slabs' solution (vm_dual_mex "slabs" with setup.sol = 1; vm_sol_src.sol: the
 * vm_dual_slabs_sol). */
static VM_MAYBE_UNUSED const vm_sol_field vm_dual_slabs_schema[] = {
  { "t", VM_SOLF_FRONT, VM_SZ_NTOT, VM_SZ_1, VM_SZ_0, 0, NULL, NULL, "[t]",
    "the grid (set by the front end, which made it)" },
  SS ("y", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_NY, y, "[y]", "the recovered primal"),
  SS ("D", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_M, D, "",
      "the duals, with the prescribed D_d at the slabs' last nodes"),
  SS ("residual", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_ND, res, "", "the primal residuals"),
  SS ("G", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_NG, G, "", "the algebraic equations at y"),
  MK ("hamiltonian", VM_SZ_NHAM, VM_SZ_HAM, VM_SZ_0, vm_dual_sol_hamiltonian, "",
      "the dual Hamiltonian (a constant base state without base passes; [] otherwise)"),
  SS ("S", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, Sval, "", "the action, summed over the slabs"),
  SS ("base", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_NY, base, "[y]",
      "each slab's base state of the last pass"),
  SS ("slab_end_y", VM_SOLF_POINTS, VM_SZ_SLABS, VM_SZ_NY, end_y, "[y]",
      "each slab's recovered primal at its last node"),
  SS ("slab_end_residual", VM_SOLF_POINTS, VM_SZ_SLABS, VM_SZ_ND, end_res, "",
      "each slab's primal residual at its last node"),
  SS ("slab_start_jump", VM_SOLF_REAL, VM_SZ_SLABS, VM_SZ_1, start_jump, "[y]",
      "the jump of y at each slab's start"),
  SS ("base_change", VM_SOLF_REAL, VM_SZ_NBASE, VM_SZ_1, base_change, "[y]",
      "the change of the base state per base pass (0: not made)"),
  SS ("iterations", VM_SOLF_INT, VM_SZ_1, VM_SZ_1, iterations, "1",
      "Newton iterations of the last pass"),
  SS ("slab_iterations", VM_SOLF_INTS, VM_SZ_1, VM_SZ_SLABS, slab_iter, "1",
      "Newton iterations of each slab in the last pass"),
  MK ("residual_history", VM_SZ_1, VM_SZ_SOLVES, VM_SZ_0, vm_dual_sol_slabs_history, "",
      "each solve's ||F_k||_W (a cell, pass-major, then slab)"),
  MK ("linear_solver", VM_SZ_1, VM_SZ_1, VM_SZ_0, vm_dual_sol_slabs_linsolve, "",
      "the last solve's linear solver, times of all (vm_linsolve_mx.h)"),
  SS ("exitflag", VM_SOLF_INT, VM_SZ_1, VM_SZ_1, exitflag, "1",
      "1: every slab of the last pass converged"),
  SS ("message", VM_SOLF_TEXT, VM_SZ_1, VM_SZ_LEN, message, "", "what happened, in words"),
  SO ("time", time, "s", "wall-clock seconds of the call"),
  MK ("solver", VM_SZ_1, VM_SZ_LEN, VM_SZ_NAMES, vm_dual_sol_solver, "",
      "'dual_solve' (an odesys only)"),
  MK ("names", VM_SZ_1, VM_SZ_NY, VM_SZ_NAMES, vm_dual_sol_slabs_names, "",
      "the states' names (an odesys only)"),
  END
};

/* The gateway's diagnostics of "slabs" (without setup.sol), after the fields above. */
static VM_MAYBE_UNUSED const vm_sol_field vm_dual_slabs_diagnostics[] = {
  SS ("failed_slab", VM_SOLF_INT, VM_SZ_1, VM_SZ_1, fail_slab, "1",
      "0, or the slab (1-based) that left no recovered primal"),
  SS ("failed_pass", VM_SOLF_INT, VM_SZ_1, VM_SZ_1, fail_pass, "1", "its pass (0-based)"),
  SO ("setup_time", setup_time, "s", "the setup before the solves"),
  SO ("compiles", compiles, "1", "models compiled by the call"),
  SS ("patterns", VM_SOLF_INT, VM_SZ_1, VM_SZ_1, ninit, "1", "Hessian patterns built"),
  SS ("symbolic_analyses", VM_SOLF_LONG, VM_SZ_1, VM_SZ_1, nsymbolic, "1",
      "symbolic analyses of the linear solver"),
  END
};

/* The gateway's one-grid solve (vm_dual_mex "solve"; vm_sol_src.sol: the vm_dual). */
#define DS(name, kind, rows, cols, member, unit, meaning) \
  { name, kind, rows, cols, VM_SZ_0, offsetof (vm_dual, member), NULL, NULL, unit, meaning }
#define DO(name, kind, rows, cols, member, unit, meaning) \
  { name, (kind) | VM_SOLF_AUX, rows, cols, VM_SZ_0, offsetof (vm_dual_solve_out, member), NULL, \
    NULL, unit, meaning }
static VM_MAYBE_UNUSED const vm_sol_field vm_dual_solve_schema[] = {
  DS ("t", VM_SOLF_REAL, VM_SZ_NTOT, VM_SZ_1, t, "[t]", "the nodes"),
  DS ("y", VM_SOLF_POINTS, VM_SZ_NPRIMAL, VM_SZ_NY, y, "[y]", "the recovered primal y^H"),
  DS ("D", VM_SOLF_POINTS, VM_SZ_NTOT, VM_SZ_M, Dfull, "", "the duals, with the Dirichlet values"),
  DO ("residual", VM_SOLF_POINTS, VM_SZ_NPRIMAL, VM_SZ_ND, res, "", "the primal residuals"),
  DO ("G", VM_SOLF_POINTS, VM_SZ_NPRIMAL, VM_SZ_NG, gres, "", "the algebraic equations at y^H"),
  DO ("hamiltonian", VM_SOLF_POINTS, VM_SZ_NPRIMAL, VM_SZ_1, ham, "", "the dual Hamiltonian"),
  DO ("S", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, S, "", "the action"),
  MK ("iterations", VM_SZ_1, VM_SZ_1, VM_SZ_0, vm_dual_sol_solve_iterations, "1",
      "Newton steps"),
  MK ("residual_history", VM_SZ_NHIST, VM_SZ_1, VM_SZ_0, vm_dual_sol_solve_history, "",
      "||F(x_k)||_W, x_0 the initial guess"),
  MK ("exitflag", VM_SZ_1, VM_SZ_1, VM_SZ_0, vm_dual_sol_solve_exitflag, "1",
      "1 solved, 0 failed"),
  MK ("message", VM_SZ_1, VM_SZ_LEN, VM_SZ_0, vm_dual_sol_solve_message, "",
      "what happened, in words"),
  DO ("linear_dtp", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, linear_dtp, "1",
      "1 when the DtP map is linear"),
  DO ("bad_node", VM_SOLF_DOUBLE, VM_SZ_1, VM_SZ_1, bad_node, "1",
      "the node (1-based) where the DtP map failed, 0: none"),
  MK ("linear_solver", VM_SZ_1, VM_SZ_1, VM_SZ_0, vm_dual_sol_solve_linsolve, "",
      "the linear solver of Newton's systems (vm_linsolve_mx.h)"),
  END
};

#undef DS
#undef DO
#undef MS
#undef MO
#undef SS
#undef SO
#undef MK
#undef SUB_MARCH
#undef SUB_OUTPUT
#undef END

#endif
