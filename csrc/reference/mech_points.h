/* mech_points.h -- the equations of motion of a compiled mechanical system evaluated at given
 * states, for the action solvers' output (plain C99, no Octave headers): the multipliers of the
 * ideal constraint reaction, and the projection of a state onto the constraints.
 *
 * At a state (t, q, qdot) the accelerations and multipliers of an ideal reaction solve
 *   M qddot = f + A^T lambda,   A qddot = c
 * (motion.h: f = dL/dq - the velocity terms of d/dt dL/dqdot + F + contact forces; A = dg/dqdot,
 * or dg/dq for a holonomic constraint g(t, q); c from the time derivative of the constraints).
 * lambda is in the convention of eq. 3 of the rolling-disk paper,
 *   M qddot = dL/dq + F + sum_a lambda_a dg_a/dqdot   (+ lambda_a dg_a/dq for g(t, q)),
 * the convention of gauss_integrate.  For an exact motion it is a function of the state alone, so
 * an action solver whose states are accurate to err gets multipliers accurate to O(err) from it,
 * also at nodes where its own multiplier is of lower order (the SBP closure nodes of skg_solve,
 * doc/skg.md).
 *
 * The projection is vm_motion_project (motion.h): the holonomic constraints at position level,
 * then every constraint at velocity level, in the metric M.  skg_solve needs it for holonomic
 * constraints, which its action imposes at position level only: the scheme's velocity Da q+ at
 * a window's last closure nodes has a normal component of low order (doc/skg.md). */
#ifndef VM_MECH_POINTS_H
#define VM_MECH_POINTS_H

#include <stdint.h>

#include "model/model.h"
#include "reference/motion.h"

typedef struct {
  vm_block b[3];               /* eom, motion, contacts */
  int nb;
  vm_motion mo;
  int nhol;                    /* holonomic constraints (no velocity in g) */
} vm_mech_points;

/* Compile the blocks of the model (its graph gains their nodes; nothing else changes) for the
 * parameter values par (np, kept by pointer; NULL if np = 0).  Returns VM_OK, VM_EARG, VM_ENOMEM
 * or a compilation status; on failure p is left freed. */
int vm_mech_points_init (vm_mech_points *p, vm_mech *model, const double *par);
void vm_mech_points_free (vm_mech_points *p);

/* lambda at npts states t[k], q[k + ld i], qdot[k + ld i] (i < n, column-major, leading dimension
 * ld >= npts); lambda[k + ld a] (a < m) is written.  Where A M^-1 A^T is singular lambda is NaN
 * and *nsingular (may be NULL) counts it.  Returns VM_OK or an evaluation status. */
int vm_mech_points_multipliers (vm_mech_points *p, int64_t npts, const double *t, const double *q,
                                const double *qdot, int64_t ld, double *lambda,
                                int64_t *nsingular);

/* The outputs of vm_mech_points_residuals; each may be NULL (not written). */
typedef struct {
  double *energy;              /* npts */
  double *phi, *gpos;          /* m columns of leading dimension ld */
  double *contact_energy;      /* npts */
} vm_mech_residuals;

/* The energy and the constraint residuals at npts states (same layout), in gauss_integrate's
 * definitions (motion.h, the solution of vm_motion_integrate): energy[k] = qdot . dL/dqdot - L
 * + sum_c U_c with the soft contacts' potentials U_c (model.h), contact_energy[k] = sum_c U_c;
 * phi[k + ld a] (a < m) the constraint a at velocity level (g for a constraint with velocities,
 * g_q qdot + g_t for a holonomic one); gpos[k + ld a] g(t, q) for a holonomic constraint and 0
 * for the others.  A point with a non-finite t, q or qdot entry gets NaN in all three.  Returns
 * VM_OK or an evaluation status. */
int vm_mech_points_residuals (vm_mech_points *p, int64_t npts, const double *t, const double *q,
                              const double *qdot, int64_t ld, const vm_mech_residuals *out);

/* The mass scale at the state (t, q, qdot): max_ij |M_ij| of the mass matrix M = d2L/dqdot2, the
 * unit in which skg_solve measures the equations of motion and the multipliers (so that its
 * tolerances mean the same whatever the units of mass: L and c L have the same motion).
 * *scale = 1 when M is zero or not finite.  Returns VM_OK or an evaluation status. */
int vm_mech_points_mass_scale (vm_mech_points *p, double t, const double *q, const double *qdot,
                               double *scale);

/* The constraints' scales at the state (t, q, qdot), for skg_solve's unit of the multipliers and
 * of the constraint equations: gscale[a] = max_j |A_aj| of the constraint matrix A = dphi/dqdot
 * (m x n: the direction of constraint a's force, dg_a/dq for a holonomic constraint and
 * dg_a/dqdot for the others), 1 when that row is zero or not finite; hol[a] = 1 for a holonomic
 * constraint (g_a(t, q), imposed at position level), 0 otherwise.  gscale and hol have m entries
 * (none when m = 0).  Returns VM_OK or an evaluation status (gscale = 1 and hol = 0 then). */
int vm_mech_points_constraint_scales (vm_mech_points *p, double t, const double *q,
                                      const double *qdot, double *gscale, int *hol);

/* Project the npts states (same layout) in place onto the constraints, residuals below tol
 * (vm_motion_project).  Returns VM_OK, or the first failing point's status (the points before it
 * are projected). */
int vm_mech_points_project (vm_mech_points *p, int64_t npts, const double *t, double *q,
                            double *qdot, int64_t ld, double tol);

#endif
