/* dual_march.h -- the discrete dual action (dual.h) as a window of the marching driver (march.h)
 * (plain C99, no Octave headers).
 *
 * Each window [ta, tb] is the dual action with the weak final dual (VM_DUAL_WEAK_FINAL) on N nodes,
 * initial values y0 = xa (the differential states, nstate = nd) and DT = 0: its critical point's
 * recovered primal y^H is the SBP-SAT solution of the primal IVP on the window, at every node the
 * last included, whatever the base state.  The base state ybar only decides how far the duals are
 * from 0, hence Newton's convergence and the conditioning of the DtP map:
 *   predict    ybar = the primal predicted by one classical RK4 step per node interval from xa,
 *              using the system's own right-hand side (rhs below).  The algebraic states start
 *              from their last known values (the previous window's last node; 0 for the first
 *              window) and are held, or, with an algebraic solver
 *              (vm_dual_march_set_algebraic_solver), solved from G = 0 at the first node and at
 *              every RK4 stage and node (a failure there holds them); NULL rhs or a non-finite
 *              RK4 value: ybar = xa (with the algebraic states of the first node) at every node.
 *              D = 0.
 *   from_traj  ybar = the given trajectory's first ny columns (y), D = 0 (the companion order
 *              starts from the main order's solution; the base-state iteration "repeat").
 *   extract    per node: y^H (ny values) then D (m = nd + ng: D_d, then D_a), nout = ny + m;
 *              nerr = nd: only the differential states enter the error estimate (the algebraic
 *              states of a nonsquare system depend on the base state -- the paper's
 *              non-uniqueness -- and the duals always do); the end state is y^H_d at the last
 *              node (the superconvergent final value, order 2p for interior order 2p).
 *              A DtP failure at x gives NaN rows (the driver then rejects the window).
 *   F, J       the gradient of S (nz = N m values) and its Hessian in the CSC pattern of vm_dual.
 *              A DtP failure (VM_EDTP) is returned as a non-finite F or J, which Newton's line
 *              search rejects (a trial point) or reports as VM_ENEWTON_NONFINITE (the driver then
 *              retries a shorter window).
 *   newton_setup  residual weights w_j = 1 / sqrt(H_jj L) (L = tb - ta; H_jj of the unknown's
 *              node): ||F||_W = sqrt(sum_j H_jj r_j^2 / L), the time-RMS of the residuals r_j of
 *              the discrete primal equations (Dm y - F + SAT, and G), independent of N and L.
 *              res_scale = max(tau / L, 10 eps ymax / (h tol_res)): tau = min over the
 *              differential states i of (atol + rtol max_k |ybar_k,i|), the error tolerance, over
 *              L (a residual r moves the solution by about L r); the second term keeps the test
 *              above the rounding level of the equations (eps |y| / h).  So o->tol_res is the
 *              fraction of the error tolerance left to Newton (the gateway uses 1e-3); the other
 *              Newton options are the driver's.
 *
 * One compiled model serves both orders: the node function's context (e.g. a vm_dual_ode engine)
 * and the rhs are shared by the main and the companion action (they are called one after the
 * other, never concurrently).
 *
 * Cost: per window the set-up of vm_dual_move (O(N)), N RK4 steps for the prediction, and per
 * Newton iteration of the driver one Hessian of S (dual_hessian.c).  Why the weak final dual: it
 * makes every node's equation, the last included, the SBP-SAT discretization of the IVP, so the
 * window's end value is the superconvergent one the next window starts from.
 */
#ifndef VM_DUAL_MARCH_H
#define VM_DUAL_MARCH_H

#include <stdint.h>

#include "dual/dual.h"
#include "march/march.h"

/* The primal right-hand side at npts points: t[k], y[k ny + i] -> F[k nd + i] (point-major).
 * Returns VM_OK or a vm_status code. */
typedef int (*vm_dual_rhs_fn) (void *ctx, int64_t npts, const double *t, const double *y,
                               double *F);

/* Solve G(t, y) = 0 for the algebraic states of y (ny values) in place; VM_OK, or a failure that
 * leaves y unchanged (vm_dual_ode_algebraic). */
typedef int (*vm_dual_alg_fn) (void *ctx, double t, double *y);

/* Give the node function's engine new weights of H (ny values, each > 0 and finite);
 * VM_OK or VM_EARG (vm_dual_ode_set_weights). */
typedef int (*vm_dual_weights_fn) (void *ctx, const double *c);

/* The non-monotone factor of the windows' Newton (newton.h 3; nonmonotone_max stays at its
 * default 5).  Why: on a stiff system the weighted residual norm rises along Newton's direction
 * by orders of magnitude, so a monotone line search creeps with short steps where full Newton
 * steps converge in a few; of the factors tried, 1e4 was the fastest on stiff systems and left
 * the others unchanged (doc/dual.md, "Stiff systems"; figures in bench/README_dual.md). */
#define VM_DUAL_MARCH_NONMONOTONE 1e4

typedef struct
{
  vm_march_action act;       /* the interface (act.self = this struct) */
  vm_dual d;                 /* the window's discretization (weak final dual, DT = 0) */
  vm_dual_rhs_fn rhs;
  void *rhs_ctx;
  vm_dual_alg_fn alg;        /* NULL (algebraic states held), or their solver from G = 0 */
  void *alg_ctx;
  double rtol, atol;         /* the error tolerance the Newton test is scaled to */
  double *rw;                /* nz residual weights */
  double *g;                 /* nz scratch */
  double *ya;                /* ny: the window's initial primal (xa, then the last known algebraic
                                states: the previous accepted window's last node, 0 at first;
                                solved from G = 0 with an algebraic solver) */
  double *ybar;              /* N ny work */
  double *stage;             /* 5 ny RK4 work */
  double *tols;              /* 2 nd: the states' tolerances and sizes (Newton's weights) */
  vm_dual_weights_fn set_weights; /* NULL, or the engine's setter of the weights of H: automatic
                                weights (vm_dual_march_set_auto_weights) */
  void *weights_ctx;
  double auto_c;             /* c0 of the automatic weights */
  long npredict_fallback;    /* predictions that fell back to a constant base state */
  long npredict_stiff;       /* predictions held constant from the first node interval where
                                the RK4 step was outside its stability region (stiff) */
} vm_dual_march;

/* Set up the action: p as for vm_dual_init (N nodes per window; the node function's context is
 * shared with the companion action, see above); rhs/rhs_ctx the primal right-hand side for
 * predict (may be NULL); rtol >= 0, atol > 0 the error tolerance (see newton_setup above).  The
 * first window is [0, 1] until move.  Returns VM_OK, VM_EARG (NULL p, bad dimensions, c,
 * tolerances, NULL fn), the codes of vm_dual_init (N below the order's minimum), VM_ENOMEM; on
 * failure nothing stays allocated.  Cost: vm_dual_init's. */
int vm_dual_march_init (vm_dual_march *a, const vm_dual_problem *p, vm_dual_rhs_fn rhs,
                        void *rhs_ctx, double rtol, double atol);
void vm_dual_march_free (vm_dual_march *a);

/* Automatic weights of H, window by window (square systems: their discrete solution does not
 * depend on the weights, which only decide how far the DtP map is from linear along Newton's
 * path): before each Newton solve c_i = c0 / X_i^2 with X_i = max |y_i| over the window's base
 * state (and y0) + atol / rtol (the size below which the error controller treats state i
 * absolutely; 0 when rtol = 0), X_i = 1 where that is 0, given to the engine through fn (ctx);
 * every evaluation of this action first gives the engine its own weights, so a main and a
 * companion action may share one engine.  The weights given at init are then unused.  Why: one
 * c for states of different sizes makes the DtP map strongly nonlinear in the duals of the small
 * ones, and c_i ~ 10 / X_i^2 is what makes the march unit-free (doc/dual.md, "Automatic
 * weights").  c0 <= 0 or not finite, or fn NULL: off (the default). */
void vm_dual_march_set_auto_weights (vm_dual_march *a, double c0, vm_dual_weights_fn fn,
                                     void *ctx);

/* An algebraic solver for the prediction (square systems: vm_dual_ode_algebraic with its engine):
 * the base state then satisfies G = 0 along the predicted path, so the duals of G start near 0
 * (without it a changing algebraic state, e.g. a rod's tension, is held at its first value and
 * the duals grow with the window).  NULL: held (the default). */
void vm_dual_march_set_algebraic_solver (vm_dual_march *a, vm_dual_alg_fn alg, void *alg_ctx);

/* The general engine's rhs is vm_dual_ode_rhs (dual.h). */

#endif
