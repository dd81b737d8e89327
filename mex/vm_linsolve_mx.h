/* vm_linsolve_mx.h -- Newton's linear solver (csrc/la/linsolve.h) in the gateways of the action
 * solvers (vm_skg_mex, vm_dual_mex): the option read from the options struct, the choice made
 * reported as a struct.  Conversion only. */
#ifndef VM_LINSOLVE_MX_H
#define VM_LINSOLVE_MX_H

#include "mex.h"
#include "la/linsolve.h"
#include "vm_mex_args.h"

/* The gateways' code of the linear solver, 0 auto, 1 umfpack, 2 banded (the order of the choices
 * of LinearSolver in inst/private/vm_option_rule.m), as VM_LINSOLVE_* (code checked by the caller). */
static int
vm_mx_linsolve_kind (int64_t code)
{
  static const int kind[] = { VM_LINSOLVE_AUTO, VM_LINSOLVE_UMFPACK, VM_LINSOLVE_BANDED };
  return kind[code];
}

/* Options field "linsolve" (absent: 0) -> VM_LINSOLVE_*. */
static inline int
vm_mx_linsolve_opt (const mxArray *o, const char *fn)
{
  return vm_mx_linsolve_kind (vm_arg_field_int (o, "linsolve", fn, "LinearSolver", 0, 2, 0));
}

/* An argument holding the code (the "memory" commands) -> VM_LINSOLVE_*. */
static int
vm_mx_linsolve_arg (const mxArray *a, const char *fn)
{
  return vm_mx_linsolve_kind (vm_arg_int (a, fn, "linsolve", 0, 2));
}

/* sol.linear_solver: kind ('umfpack' or 'banded'; '' when no solve chose one), kl, ku (the
 * bandwidths of the Jacobian pattern), factors ('LU'; 'U' when the banded LU kept U only:
 * linsolve.h option lean; 'Cholesky' when every factorization was a Cholesky one, 'Cholesky, LU'
 * when some Hessians were not definite: option definite; '' with kind), cholesky and
 * not_definite (nchol, nchol_fail: the Cholesky factorizations, and the Hessians found not
 * definite and factored by the LU), factor_time, solve_time (wall-clock seconds in the numeric
 * factorizations and the solves of all of Newton's linear systems). */
static mxArray *
vm_mx_linsolve (int kind, int kl, int ku, int lean, long nchol, long nchol_fail, double t_factor,
                double t_solve)
{
  static const char *keys[] = { "kind", "kl", "ku", "factors", "cholesky", "not_definite",
                                "factor_time", "solve_time" };
  mxArray *s = mxCreateStructMatrix (1, 1, 8, keys);
  const int known = kind == VM_LINSOLVE_UMFPACK || kind == VM_LINSOLVE_BANDED;
  mxSetField (s, 0, "kind", mxCreateString (known ? vm_linsolve_name (kind) : ""));
  mxSetField (s, 0, "factors", mxCreateString (! known ? "" : nchol > 0 && nchol_fail > 0
                                               ? "Cholesky, LU" : nchol > 0 ? "Cholesky"
                                               : lean ? "U" : "LU"));
  mxSetField (s, 0, "cholesky", mxCreateDoubleScalar ((double) nchol));
  mxSetField (s, 0, "not_definite", mxCreateDoubleScalar ((double) nchol_fail));
  mxSetField (s, 0, "kl", mxCreateDoubleScalar (kl));
  mxSetField (s, 0, "ku", mxCreateDoubleScalar (ku));
  mxSetField (s, 0, "factor_time", mxCreateDoubleScalar (t_factor));
  mxSetField (s, 0, "solve_time", mxCreateDoubleScalar (t_solve));
  return s;
}

#endif
