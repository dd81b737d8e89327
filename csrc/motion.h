/* motion.h -- the equations of motion of a compiled mechanical system, for the reference integrators
 * (plain C99).
 *
 * A constraint g_a(t, q, qdot) = 0 that does not depend on the velocities (holonomic) is used at
 * velocity level, phi_a = g_q qdot + g_t; every other constraint is used as it is, phi_a = g_a.
 * The "motion" block holds, built symbolically in the model's graph:
 *   phi (m)        velocity-level constraints,
 *   A (m x n)      dphi/dqdot,
 *   c (m)          -(phi_t + phi_q qdot), so that the constraint accelerations are A qddot = c,
 *   hol (m)        1 for a holonomic constraint, 0 otherwise (constant),
 *   gpos (m), gpos_q (m x n)   the holonomic constraints at position level (0 rows otherwise), for
 *                  projection against drift.
 * The accelerations follow from M qddot = f + R with the reaction R given by the reaction law:
 *   VM_LAW_IDEAL       R = A^T lambda (Gauss's principle in the metric M; Lagrange-d'Alembert-Chetaev),
 *   VM_LAW_DIRECTIONS  R = B^T mu for given reaction directions B (k x n),
 *   VM_LAW_EXPLICIT    R = 0 here: the reaction is part of the model's forces; the constraints are
 *                      only monitored. */
#ifndef VM_MOTION_H
#define VM_MOTION_H

#include "model.h"
#include "integrate.h"

int vm_mech_motion_block (vm_mech *m, vm_block *b);

enum { VM_LAW_IDEAL = 0, VM_LAW_DIRECTIONS, VM_LAW_EXPLICIT };

/* A block prepared for evaluation at one point: outputs written straight into field buffers. */
typedef struct {
  const vm_block *b;
  double **field;              /* field buffers (zero-initialized; structural zeros stay 0) */
  double **out;                /* per tape output: its place in a field buffer */
  double *work;
} vm_point_block;

typedef struct {
  int n, m, nc, np, nvar;
  int law, k;                  /* reaction law; number of reaction directions */
  const double *B;             /* k x n, column-major (VM_LAW_DIRECTIONS) */
  vm_point_block eom, mot, con;   /* blocks "eom", "motion", "contacts" (con.b may be NULL) */
  const double **in;           /* tape inputs: t | q | qdot | p | lambda | w */
  int *inc;
  double *x;                   /* storage of the per-point inputs */
  const double *p;             /* parameter values (np) */
  double *rwork;               /* reaction solver workspace */
  int *iwork;
  int hard;                    /* contacts are hard walls: their regularized forces are removed from f */
  int mconst;                  /* the mass matrix is constant (every entry a constant of the tape) */
  int mfactored;               /* rwork holds the factorization of the constant M */
  double *feff;                /* f without the contact forces (n) */
  double rcond;                /* of the last reaction solve */
  double tfail;                /* time of a failure */
  long nrhs;                   /* number of evaluations */
} vm_motion;

/* Prepare: eom and mot are required, con may be NULL; p: np parameter values (kept by pointer). */
int vm_motion_init (vm_motion *mo, int n, int m, int np, const vm_block *eom, const vm_block *mot,
                    const vm_block *con, const double *p, int law, int k, const double *B);
void vm_motion_free (vm_motion *mo);

/* Evaluate the blocks at (t, q, qdot).  After it: M = mo->eom.field[0] (n x n), f = field[1],
 * energy = field[2]; phi = mo->mot.field[0], A = [1], c = [2], hol = [3], gpos = [4], gpos_q = [5];
 * h = mo->con.field[0], h_q = [1]. */
int vm_motion_eval (vm_motion *mo, double t, const double *q, const double *qdot, int want_contacts);

/* Accelerations qddot (n) and multipliers (m for the ideal law, k for directions; may be NULL)
 * at (t, q, qdot).  A singular constraint matrix returns VM_ESINGULAR with mo->rcond set. */
int vm_motion_accel (vm_motion *mo, double t, const double *q, const double *qdot, double *qddot,
                     double *mult);

/* Check an initial state: every constraint (holonomic ones at position and velocity level) within
 * tol, and with hard walls every gap h >= 0.  Returns VM_OK, or VM_EARG with *what = 1 (constraint,
 * *index 0-based, *value its residual) or 2 (contact, *value = h). */
int vm_motion_check_state (vm_motion *mo, double t, const double *q, const double *qdot, double tol,
                           int hard, int *what, int *index, double *value);

/* Right-hand side of y = [q; qdot] for vm_ode_solve (ctx = vm_motion). */
int vm_motion_rhs (double t, const double *y, double *dydt, void *ctx);

/* Project (q, qdot) onto the constraints in the metric M: the holonomic ones at position level,
 * then all at velocity level, by Newton steps dq = -M^{-1} G^T (G M^{-1} G^T)^{-1} g (at most 20
 * each) until the residuals are below tol.  Returns VM_OK, a solver status, or VM_ENEWTON when the
 * iteration does not converge. */
int vm_motion_project (vm_motion *mo, double t, double *q, double *qdot, double tol);

typedef struct {
  vm_ode_opts ode;             /* method and tolerances of vm_ode_solve */
  int hard;                    /* contacts as hard walls: event h = 0 (falling), restitution impulse */
  double restitution;          /* e in [0, 1] */
  int project;                 /* project onto the constraints at every output time and impact */
  double project_tol;          /* 0: 1e-12 */
  long max_impacts;            /* 0: 100000 */
} vm_motion_opts;

typedef struct {
  int n, m;
  size_t npts;                 /* output points */
  double *t, *y;               /* t[k]; y[k*2n ..]: q then qdot */
  double *mult;                /* npts x m (ideal law) or x k (directions): multipliers, row-major */
  double *energy;              /* npts: qdot . dL/dqdot - L */
  double *phi;                 /* npts x m: velocity-level constraint residuals */
  double *gpos;                /* npts x m: position-level residuals of the holonomic constraints */
  size_t nimpact;              /* impacts: time, contact, state before and after (2n each) */
  double *ti;
  int *ci;
  double *yb, *ya;
  long nsteps, naccept, nreject, nfev, nnewton_iter;
  int status;                  /* VM_OK or the failure */
  double t_end;                /* time reached */
  double rcond;                /* reaction rcond at a singular failure */
  double fail[1 + 2 * 64];     /* t, q, qdot of the failing evaluation (n <= 64; else the first 64) */
} vm_motion_sol;

void vm_motion_sol_free (vm_motion_sol *sol);

/* Integrate from (t0; q0, qdot0) to tf.  tout (ntout, may be 0): output times; without them the
 * accepted steps are returned (with projection on, 100 equal intervals are used).  The solution
 * holds whatever was reached before a failure. */
int vm_motion_integrate (vm_motion *mo, const vm_motion_opts *o, double t0, double tf,
                         const double *y0, const double *tout, size_t ntout, vm_motion_sol *sol);

#endif
