/* motion.h -- the equations of motion of a compiled mechanical system, for the reference integrators
 * (plain C99).  Sources: motion.c (one point), motion_layer.c (the soft-contact step check),
 * motion_project.c (projection), motion_integrate.c (the run with impacts), motion_post.c (the
 * solution's multipliers, residuals and drift).
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
 *                      only monitored,
 *   VM_LAW_VAKONOMIC   R = -A^T mudot - W^T mu (vakonomic.h): the Euler-Lagrange equations of
 *                      L + mu . phi for constraints linear in the velocities; mu (m) is a state, the
 *                      state of the integrator is y = [q; qdot; mu] (2n + m), and the block
 *                      "vakonomic" must be attached with vm_motion_set_vakonomic after
 *                      vm_motion_init. */
#ifndef VM_MOTION_H
#define VM_MOTION_H

#include "model/model.h"
#include "reference/integrate.h"
#include "reference/reaction.h"

int vm_mech_motion_block (vm_mech *m, vm_block *b);

enum { VM_LAW_IDEAL = 0, VM_LAW_DIRECTIONS, VM_LAW_EXPLICIT, VM_LAW_VAKONOMIC };

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
  vm_point_block vak;          /* block "vakonomic" (VM_LAW_VAKONOMIC only; else vak.b == NULL) */
  const double *mu;            /* VM_LAW_VAKONOMIC: the multipliers mu (m) of the current point */
  double *fw;                  /* VM_LAW_VAKONOMIC: f - W^T mu (n) */
  const double **in;           /* tape inputs: t | q | qdot | p | lambda | w */
  int *inc;
  double *x;                   /* storage of the per-point inputs */
  const double *p;             /* parameter values (np) */
  double *rwork;               /* reaction solver workspace */
  int *iwork;
  vm_reaction_work rws;        /* rwork and iwork as the reaction solvers take them */
  int hard;                    /* contacts are hard walls: their regularized forces are removed from f */
  int mconst;                  /* the mass matrix is constant (every entry a constant of the tape) */
  int mfactored;               /* rwork holds the factorization of the constant M */
  double *feff;                /* f without the contact forces (n) */
  double rcond;                /* of the last reaction solve */
  double tfail;                /* time of a failure */
  long nrhs;                   /* number of evaluations */
  /* the soft-contact layer check (vm_motion_layer_check) */
  double layer, layer_res;     /* in units of sigma: half-width of the layer (0: VM_CONTACT_LAYER,
                                  6) and largest travel of h inside it per step (0:
                                  VM_CONTACT_RES, 1) (model.h) */
  double *lbuf;                /* two slots of 1 + 2n + 2nc values: t, y, h, hdot at a step end */
  int lslot;                   /* the slot of the last step end checked (-1: none) */
} vm_motion;

/* What vm_motion_init prepares: the blocks of one compiled model and the reaction law. */
typedef struct {
  int n, m, np;                /* coordinates, constraints, parameters */
  const vm_block *eom, *mot;   /* blocks "eom" and "motion" (required) */
  const vm_block *con;         /* block "contacts" (NULL: none) */
  const double *p;             /* np parameter values (kept by pointer) */
  int law, k;                  /* reaction law; reaction directions (VM_LAW_DIRECTIONS, k >= 1) */
  const double *B;             /* k x n, column-major (VM_LAW_DIRECTIONS; kept by pointer) */
} vm_motion_setup;

/* Prepare mo for evaluations of the model in s (the blocks must be the ones of one model, with
 * the fields vm_mech_block compiles).  Returns VM_OK, VM_EARG (s NULL, sizes or blocks that do not
 * fit) or VM_ENOMEM; on failure mo is left freed. */
int vm_motion_init (vm_motion *mo, const vm_motion_setup *s);
void vm_motion_free (vm_motion *mo);

/* Attach the vakonomic block (vakonomic.h: fields W (m x n), nonlin (m x 1)) to a motion prepared
 * with law VM_LAW_VAKONOMIC, and check at (t, q, qdot) that every constraint is linear in the
 * velocities.  Returns VM_OK; VM_EARG for a block that does not fit or a wrong law (*bad = -1) or
 * a constraint that is not linear in the velocities (*bad = its 0-based index); VM_ENOMEM. */
int vm_motion_set_vakonomic (vm_motion *mo, const vm_block *vak, double t, const double *q,
                             const double *qdot, int *bad);

/* Evaluate the blocks at (t, q, qdot).  After it: M = mo->eom.field[0] (n x n), f = field[1],
 * energy = field[2], contact_energy = [3]; phi = mo->mot.field[0], A = [1], c = [2], hol = [3], gpos = [4], gpos_q = [5];
 * h = mo->con.field[0], h_q = [1], FN = [2], FR = [3], sigma = [4], mu = [5] (the contacts block
 * must have these six fields, as compiled by vm_mech_block). */
int vm_motion_eval (vm_motion *mo, double t, const double *q, const double *qdot, int want_contacts);

/* Accelerations qddot (n) and multipliers (m for the ideal law, k for directions; may be NULL)
 * at (t, q, qdot).  With VM_LAW_VAKONOMIC, mo->mu must point to mu (m) and mult receives mudot.
 * A singular constraint matrix returns VM_ESINGULAR with mo->rcond set. */
int vm_motion_accel (vm_motion *mo, double t, const double *q, const double *qdot, double *qddot,
                     double *mult);

/* The first violation vm_motion_check_state finds: what = 0 (none), 1 (constraint index,
 * 0-based; value its residual), 2 (contact index; value = h) or 3 (a hard wall with friction;
 * value = its mu). */
typedef struct {
  int what, index;
  double value;
} vm_motion_violation;

/* Check an initial state: every constraint (holonomic ones at position and velocity level) within
 * tol, and with hard walls every gap h >= 0 and no friction (hard walls have no friction law: their
 * impacts change only the normal velocity, and they hold no sliding contact).  Returns VM_OK, an
 * evaluation status, or VM_EARG with the violation in *v. */
int vm_motion_check_state (vm_motion *mo, double t, const double *q, const double *qdot, double tol,
                           int hard, vm_motion_violation *v);

/* Right-hand side of y = [q; qdot] (VM_LAW_VAKONOMIC: y = [q; qdot; mu], dydt ends with mudot) for
 * vm_ode_solve (ctx = vm_motion). */
int vm_motion_rhs (double t, const double *y, double *dydt, void *ctx);

/* ---- soft contacts: no step may cross a contact's layer unseen ----------------------------------
 *
 * The regularized normal force of contact c (model.c, build_contact; doc/language.md Sec. 7) is
 *   FN = V0/sqrt(2 pi sigma^2) exp(-h^2/(2 sigma^2)) grad h = -grad V,   V = V0 Phi(-h/sigma):
 * a Gaussian of width sigma in the gap h.  Its peak grows like V0/sigma, but all of its work
 * V0 is done while h crosses a layer a few sigma wide: beyond |h| = 6 sigma the force is below
 * exp(-18) = 1.5e-8 of its peak, and the work left there is V0 Phi(-6) = 1e-9 V0.  A step whose
 * stages all fall outside the layer does not see the force at all, and an error estimate made from
 * those stages is as small as in free flight, so a long step can jump over a wall and report
 * success.  Error control cannot see this; a resolution test can.
 *
 * The test (vm_motion_layer_check, the step check of vm_ode_solve with soft contacts).  Over a step
 * [t, tn], the path of h is estimated from its values and rates hdot = grad h . qdot at the two
 * ends, three ways: the cubic Hermite interpolant (the path when the step resolves the motion),
 * the line from the start (the path the step would take if the force stayed unseen) and the line
 * back from the end (the path that the end state came from: after a kick by a stage that fell into
 * the layer, the end is far out and fast, and only this line shows where it came from).  The
 * travel of h inside the layer is the total variation of clip(path, -layer sigma, layer sigma)
 * over the step, the largest of the three (vm_motion_layer_travel): the part of a path outside
 * the layer is free, a crossing of the whole layer counts 2 layer sigma, a bounce inside it both
 * ways.  A step is accepted when that travel is at most layer_res sigma for every contact
 * (defaults layer = 6, layer_res = 1, the values of skg_solve's contact check).  Then the stage
 * nodes of every method (largest gap 0.5 of the step for dopri5 and rk4, 0.58 for gl4, 0.39 for
 * gl6, 0.27 for dop853) sample h at most 0.6 sigma apart inside the layer, so the force's peak is
 * always seen, and the error estimate of dopri5 and dop853 sets the accuracy from there (the
 * fixed-step methods have none: their accuracy in the layer is that of about
 * 2 layer / layer_res = 12 steps per crossing).  A rejected step gets the fraction of its length
 * after which the travel (of the first path to get there) reaches 0.8 layer_res sigma; an
 * accepted one bounds the next step by the time to travel 0.8 layer_res sigma in the layer at the
 * speed |hdot| of its end (or to reach the layer and travel that far, when moving towards it),
 * which avoids most rejections.  The test needs no bound on the energy: a particle with more than
 * V0 of normal kinetic energy crosses the barrier, but resolved.  A long stay in the layer at
 * small normal speed (sliding, resting on the wall) is not restricted: its travel is small.
 * Limitation: h is known at the step ends only; a wall crossed and crossed back inside one step
 * without a trace in the end values and rates of h is not seen (such a step does not resolve the
 * free motion either).  Cost: one evaluation of the contacts block per step (the start value is
 * kept from the previous step). */

/* The travel of the gap inside the layer |h| <= band over a step of length dt (signed): the largest
 * total variation of clip(P, -band, band) on the step, over the three paths P above (from h0, h1
 * and the rates hd0, hd1 = dh/dt at the ends).  theta (may be NULL): the smallest fraction of the
 * step at which the travel of one of them reaches target (1 if all stay below target). */
double vm_motion_layer_travel (double h0, double hd0, double h1, double hd1, double dt, double band,
                               double target, double *theta);

/* The step check of vm_ode_solve for soft contacts (ctx = vm_motion with contacts): *factor = 1
 * (accepted; *hnext the bound on the next step, HUGE_VAL when none) or in (0, 1) (rejected: the
 * smallest fraction over the contacts whose travel exceeds layer_res sigma).  A contact with
 * sigma = 0 or non-finite has no layer to resolve and is skipped.  Returns VM_OK, the status of the
 * contacts block evaluation, or VM_ENONFINITE for a non-finite h or hdot. */
int vm_motion_layer_check (double t, const double *y, double tn, const double *yn, double *factor,
                           double *hnext, void *ctx);

/* Project (q, qdot) onto the constraints in the metric M: the holonomic ones at position level,
 * then all at velocity level, by Newton steps dq = -M^{-1} G^T (G M^{-1} G^T)^{-1} g (at most 20
 * each) until the residuals are below tol, or until a step's correction is at the rounding level
 * of q (qdot): every entry below 8 eps max (1, ||q||_inf), where a residual above tol is the
 * rounding of the constraint's own evaluation (x^2 + y^2 - l^2 with l = 1e3).  Returns VM_OK, a
 * solver status, or VM_EPROJECT when the iteration does not converge. */
int vm_motion_project (vm_motion *mo, double t, double *q, double *qdot, double tol);

typedef struct {
  vm_ode_opts ode;             /* method and tolerances of vm_ode_solve */
  int hard;                    /* contacts as hard walls: event h = 0 (falling), restitution impulse */
  double restitution;          /* e in [0, 1] */
  int project;                 /* project onto the constraints at every output time and impact */
  double project_tol;          /* 0: 1e-12 */
  long max_impacts;            /* 0: 100000 */
  double layer, layer_res;     /* soft contacts: the layer check (0: 6, 1); see above */
} vm_motion_opts;

typedef struct {
  int n, m, ny;                /* ny: the state length, 2n (2n + m for VM_LAW_VAKONOMIC) */
  size_t npts;                 /* stored points: t0 and every accepted step (see below) */
  double *t, *y;               /* t[k]; y[k*ny ..]: q then qdot (then mu) */
  double *mult;                /* npts x m (ideal law; vakonomic: mu) or x k (directions):
                                  multipliers, row-major */
  double *mult_rate;           /* npts x m: mudot (VM_LAW_VAKONOMIC only, else NULL) */
  double *power;               /* npts: the power R . qdot of the reaction, R = M qddot - f */
  double *energy;              /* npts: qdot . dL/dqdot - L + contact_energy */
  double *contact_energy;      /* npts: the soft contacts' potentials sum_c U_c (model.h); 0 without
                                  contacts and with hard walls (their forces are not the model's) */
  double *phi;                 /* npts x m: velocity-level constraint residuals */
  double *gpos;                /* npts x m: position-level residuals of the holonomic constraints */
  size_t nout;                 /* output points (the output times reached; 0 without them) */
  double *ot, *oy;             /* ot[k]; oy[k*ny ..]: the dense output of the method there */
  double *omult;               /* nout x nm: the multipliers at the output points */
  size_t nimpact;              /* impacts: time, contact, state before and after (2n each) */
  double *ti;
  int *ci;
  double *yb, *ya;
  long nsteps, naccept, nreject, nfev, nnewton_iter;
  long nlayer;                 /* steps rejected by the soft-contact layer check (in nreject) */
  int status;                  /* VM_OK or the failure */
  double t_end;                /* time reached */
  double rcond;                /* reaction rcond at a singular failure */
  double drift;                /* the constraints' drift against the tolerances: the largest over
                                  the stored points and constraints of |g_a| / (tol_q ||dg_a/dq||_1)
                                  (holonomic, position level) and |phi_a| / (tol_v ||A_a||_1)
                                  (velocity level), tol_q = AbsTol + RelTol max_k ||q_k||_inf and
                                  tol_v likewise with qdot: how many tolerances of the state the
                                  residual stands for (0 without constraints) */
  int drift_note;              /* 1: drift > VM_MOTION_DRIFT_NOTE with projection off under a law
                                  that keeps the constraints (ideal, directions, vakonomic): the
                                  equations of motion hold them at acceleration level only, and
                                  Projection would keep them (the message says so) */
  double fail[1 + 2 * 64];     /* t, q, qdot of the failing evaluation (n <= 64; else the first 64) */
} vm_motion_sol;

/* The drift above which vm_motion_sol.drift_note is set: a hundred tolerances (the global error
 * of a long run reaches a few tens of local tolerances; beyond that the drift, which projection
 * removes, dominates the error of the positions). */
#define VM_MOTION_DRIFT_NOTE 100.0

void vm_motion_sol_free (vm_motion_sol *sol);

/* Integrate from (t0; q0, qdot0) to tf (VM_LAW_VAKONOMIC: y0 = [q0; qdot0; mu0], 2n + m values;
 * hard contacts are refused with VM_EARG: the impact law of a vakonomic motion is not defined
 * here).  sol->t, y hold t0 and the accepted steps (with projection on, the 101 times
 * t0 + k (tf - t0)/100 where the state is projected), whatever tout is; tout (ntout, may be 0):
 * output times, strictly monotone inside [t0, tf], served by the method's dense output into
 * sol->ot, oy, omult (nout: those reached; one on a projection time gets the projected state,
 * one on an impact the state before it).  With soft
 * contacts (o->hard == 0, nc > 0) every step passes vm_motion_layer_check (fixed-step methods:
 * sub-steps; VM_ELAYER when 2^-30 of the step is not enough).  The solution holds whatever was
 * reached before a failure.  Returns sol->status: VM_OK, or the failure (vm_ode_solve's codes,
 * VM_EIMPACTS, VM_ECONTACT, VM_EPROJECT, VM_ENOMEM, VM_EARG). */
int vm_motion_integrate (vm_motion *mo, const vm_motion_opts *o, double t0, double tf,
                         const double *y0, const double *tout, size_t ntout, vm_motion_sol *sol);

#endif
