/* initial_check.h -- the initial data of a mechanical system checked before a solve (plain C99).
 *
 * The constraints g_a(t, q, qdot) = 0 of a vm_mech are split as in motion.h: a constraint without
 * velocities (holonomic) is used at position level, g_a(t, q), and at velocity level,
 * phi_a = g_q qdot + g_t; every other constraint at velocity level only, phi_a = g_a.  The
 * velocity-level Jacobian A = dphi/dqdot (m x n: g_q for holonomic rows, g_qdot otherwise) is the
 * matrix of the reactions (gauss_integrate: A M^-1 A' must be invertible) and of the multiplier
 * terms of the SKG action (skg.h: a zero or dependent row leaves the Hessian singular).
 *
 * vm_initial_check looks, in this order, for
 *   1. rank deficiency of A at (t0, q0, qdot0):
 *      VM_INITIAL_CONSTANT       a constraint that depends on neither q nor qdot (e.g. "1", "t-1"):
 *                                structurally zero row;
 *      VM_INITIAL_ZERO_ROW       a row that vanishes at the initial state (e.g. "x^2" at x = 0, or a
 *                                velocity constraint quadratic in qdot at qdot0 = 0);
 *      VM_INITIAL_REDUNDANT      rows that are linearly dependent, w' A = 0, and whose constraints
 *                                agree: w . g = 0 (all involved holonomic: at position level) and
 *                                w . phi = 0, to within tol (e.g. {"x", "2*x"});
 *      VM_INITIAL_CONTRADICTORY  dependent rows whose constraints differ by a nonzero combination
 *                                (e.g. {"x", "x-1"}: no state satisfies both);
 *      rows are taken in order and orthogonalized (modified Gram-Schmidt, twice); row a counts as
 *      dependent on the rows before it when the norm of its orthogonal part is at most
 *      VM_INITIAL_RANK_TOL times its norm (a relative angle of 1e-8, so that the Gram matrix
 *      A A', whose condition number is the square, stays above the 1e-13 reciprocal condition of
 *      the reaction solver).  The first dependency found is reported; w (scaled to max |w_j| = 1)
 *      names the constraints involved (|w_j| > 1e-8).
 *   2. VM_INITIAL_POSITION: the holonomic constraints at position level against q0: the largest
 *      |g_a(t0, q0)| above tol;
 *   3. VM_INITIAL_VELOCITY: every constraint at velocity level against qdot0: the largest
 *      |phi_a(t0, q0, qdot0)| above tol.
 * A residual passes when |r| <= tol (NaN fails).  Non-finite values of A, g or phi give
 * VM_INITIAL_NONFINITE.
 *
 * The message (msg) uses the words of gauss_integrate, without the caller's name, e.g.
 *   "the initial state violates constraint 1 (x^2+y^2-1) by 0.75 (ConstraintTol = 1e-08)"
 *   "the initial state violates constraint 1 (x^2+y^2-1) at velocity level (dg/dq qdot + dg/dt) by
 *    0.5 (ConstraintTol = 1e-08)"
 *   "the constraint Jacobian is rank-deficient at the initial state: constraints 1 (x) and 2 (x-1)
 *    are contradictory (...); remove or correct one of them"
 * Expressions longer than VM_INITIAL_EXPR characters are shortened with "...". */
#ifndef VM_INITIAL_CHECK_H
#define VM_INITIAL_CHECK_H

#include "model/model.h"

#define VM_INITIAL_MSG 1024    /* size of the message buffer */
#define VM_INITIAL_EXPR 60     /* longest expression quoted in full */
#define VM_INITIAL_MAXLIST 16  /* constraints listed in a dependency (more are counted) */
#define VM_INITIAL_RANK_TOL 1e-8

enum {
  VM_INITIAL_OK = 0,
  VM_INITIAL_CONSTANT,
  VM_INITIAL_ZERO_ROW,
  VM_INITIAL_REDUNDANT,
  VM_INITIAL_CONTRADICTORY,
  VM_INITIAL_POSITION,
  VM_INITIAL_VELOCITY,
  VM_INITIAL_NONFINITE
};

typedef struct {
  int kind;                    /* VM_INITIAL_*: the first finding (VM_INITIAL_OK: none) */
  int index;                   /* 0-based constraint: the constant / zero row / violated one, or the
                                  dependent row of a dependency; -1 when kind is OK or NONFINITE */
  double value;                /* POSITION, VELOCITY: |residual|; REDUNDANT, CONTRADICTORY: |w . g|
                                  or |w . phi| (the combination's value); else 0 */
  int rank;                    /* numerical rank of A found before the first dependency (m if
                                  none; computed only when no constant row was found) */
  int ninvolved;               /* constraints in the dependency (REDUNDANT, CONTRADICTORY) */
  int involved[VM_INITIAL_MAXLIST];   /* their 0-based indices, ascending (first MAXLIST) */
  char msg[VM_INITIAL_MSG];    /* the report ("" when OK) */
} vm_initial_report;

/* Check the initial state (t0, q0, qdot0) of model with parameter values par (np entries; may be
 * NULL when np = 0) against the constraints, to within tol >= 0 (gauss_integrate's ConstraintTol,
 * default there 1e-8).  expr: the m constraint texts for the message (may be NULL: constraints are
 * then named by number only; entries may be NULL).  The derivatives are built in the model's
 * graph (like vm_mech_motion_block; the model's roots are unchanged).
 * Returns VM_OK when the check ran (the verdict is r->kind), VM_EARG (NULL model, q0, qdot0 or r,
 * missing par, tol < 0 or NaN) or VM_ENOMEM (also when the graph is full); r->kind is then
 * VM_INITIAL_OK and r->msg empty. */
int vm_initial_check (vm_mech *model, const double *par, double t0, const double *q0,
                      const double *qdot0, double tol, const char *const *expr,
                      vm_initial_report *r);

#endif
