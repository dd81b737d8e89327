/* skg_solve.h -- solve the discrete SKG action (skg.h, formulation F4 of doc/skg_boundary.md) for
 * its critical point grad S = 0 with the globalized Newton solver (newton.h); optional time
 * windows (plain C99, no Octave headers).
 *
 * Modes
 *   VM_SKG_FULL     all unknowns z = per node [q+ (n), q- (n), lambda+ (m), lambda- (m)];
 *                   F = grad S, J = the exact Hessian in the pattern of vm_skg_build.
 *                   Initial guess: q+ = q_i at every node (or the caller's guess), q- = 0,
 *                   lambda+ = lambda- = 0.
 *   VM_SKG_REDUCED  at the critical point q- = 0 and lambda- = 0 (doc/skg_boundary.md sec. 1/6),
 *                   so the equations dS/dq- = 0, dS/dlambda- = 0 evaluated at q- = lambda- = 0
 *                   are N (n + m) equations in y = per node [q+ (n), lambda+ (m)] only; their
 *                   Jacobian is the block d2S / d(q-, lambda-) d(q+, lambda+) of the Hessian.
 *                   Its CSC pattern is built once for the block itself (vm_skg_pattern: the
 *                   full Hessian pattern is never built in this mode); the Hessian's
 *                   contributions are scattered into it by a plan (vm_skg_plan).  This is
 *                   half the unknowns; a Newton step from q- = lambda- = 0 in full mode is exactly
 *                   a Newton step of the reduced system, so both modes give the same q+, lambda+
 *                   (to rounding).  The reduced Jacobian is not symmetric (UMFPACK LU handles it).
 *
 * Time marching (csrc/march/march.h: the driver shared with the dual action)
 *   windows = W >= 1: [t0, tf] is split into W windows of equal length, N points each (total
 *   W (N - 1) + 1 points), without error control.  windows = 0 (adaptive): the driver chooses the
 *   window lengths from an error estimate -- each window is solved at the order and at the
 *   companion order (vm_march_companion_order, same N nodes; started from the first solution) and
 *   err = max |x_p - x_c| / (atol + rtol |x|) over the nodes, x = (q+, Da q+) -- accepting err <= 1,
 *   growing or shrinking the next window, halving after a failed Newton solve (march.h).
 *   Window w is an independent SKG problem on its interval whose initial data are the end state
 *   of window w-1: q_i = q+ at its last node and v_i = (Da q+) at its last node, the velocity
 *   variable of the scheme (p+ = dL/dqdot(q+, Da q+) there is the SBP-SAT momentum, so the next
 *   window's momentum SAT p_i = dL/dqdot(t, q_i, v_i) equals the previous p+_N).  One action per
 *   order is built for the first window and moved to the next ones (vm_skg_set_window): the
 *   tapes, the pattern and UMFPACK's symbolic analysis are shared by all windows.  In the
 *   concatenated output the first node of window w >= 1 is dropped: the junction keeps the
 *   previous window's end node.
 *   Start of each window's Newton iteration: the caller's guess (fixed windows only: sliced per
 *   window), or the prediction ("marching"): the first window at constant velocity from (q_i,
 *   v_i), a later one by a quadratic Taylor step from the previous window's end state with the
 *   acceleration of its last quarter, multipliers held at their last values.
 *   Fixed windows: when window w does not converge, the solve stops there: windows 0..w hold
 *   their (best) iterates, later nodes are NaN, status is Newton's non-OK code.
 *
 * Multipliers: the action's lambda+ is the negative of the physical multiplier of
 * M qddot = dL/dq + F + sum_a lambda_a dg_a/dqdot (the convention of eq. 3 of the rolling-disk
 * paper, and of gauss_integrate).  -lambda+ converges at order p at the interior nodes of a
 * window but only at a lower order at its SBP closure nodes (the first and last few of every
 * window, doc/skg.md), where a marching solution has many of them.  So sol->lambda is the
 * multiplier of the ideal reaction at the solution's own states (q+, Da q+) (multipliers.h),
 * accurate to the states' error at every node; sol->lambda_plus keeps the action's raw lambda+,
 * and sol->lambda_gap the largest |lambda + lambda+| over the interior nodes (a cross-check of
 * the two; it is O(the discretization error)).
 *
 * Output layout: column-major, Octave style: q[k + Ntot c] = q+ at node k, component c.
 */
#ifndef VM_SKG_SOLVE_H
#define VM_SKG_SOLVE_H

#include <stdint.h>

#include "model/model.h"
#include "march/march.h"
#include "newton/newton.h"

enum { VM_SKG_FULL = 0, VM_SKG_REDUCED = 1 };

typedef struct
{
  int mode;                /* VM_SKG_FULL or VM_SKG_REDUCED (default VM_SKG_REDUCED) */
  int order;               /* SBP interior order, one of sbp.h's list (default 4) */
  int64_t N;               /* points per window (>= vm_sbp_min_n (order)) (default 81) */
  int windows;             /* W >= 1: fixed windows; 0: adaptive (default 1) */
  double rtol, atol;       /* adaptive error control (default 1e-6, 1e-8) */
  int estimate;            /* fixed windows: also solve the companion order and report the
                              estimate per window (default 0) */
  double h0, hmax;         /* adaptive: first and longest window length (0: automatic) (default 0) */
  int max_windows;         /* adaptive: attempted windows (0: 100000) (default 0) */
  int display;             /* 0 silent, 1 final line, 2 each Newton iteration and window, while
                              the solve runs (default 0) */
  void (*print) (void *ctx, const char *line);   /* where lines go (NULL: stdout) (default NULL) */
  void *print_ctx;
  double t0, tf;           /* time interval, tf > t0 (default 0, 1) */
  const double *q_guess;   /* NULL, or Ntot x n (column-major) initial guess for q+ (fixed
                              windows only) (default NULL) */
  const double *t_out;     /* n_out times in [t0, tf] for dense output (default NULL) */
  int64_t n_out;           /* (default 0) */
  int eom_residual;        /* nonzero: Newton measures the residual of the discrete equations of
                              motion (equations of node k weighted by 1/sqrt(H_kk), newton.h
                              res_weight, and those of motion also by 1/mscale, the mass scale
                              max |M_ij| at the initial state); 0: the plain 2-norm of the action
                              gradient (default 1).  Either way the multipliers are Newton's
                              unknowns divided by mscale (doc/skg.md, "Stopping": the solve does
                              not depend on the units of mass) */
  vm_newton_opts newton;   /* Newton options (default vm_newton_opts_init, with tol_round 1, the
                              natural UMFPACK ordering, the unsymmetric strategy, no iterative
                              refinement, and the non-monotone line search on:
                              nonmonotone = VM_SKG_NONMONOTONE) */
} vm_skg_solve_opts;

/* The non-monotone factor of the SKG solves' Newton (newton.h 3; nonmonotone_max stays at its
 * default 5).  Why: a stiff contact makes ||F|| rise along the right Newton direction
 * (bench/README_skg.md, the tumbler).  The dual solvers keep the monotone search on a fixed grid,
 * where a relaxed detour can cost more iterations than MaxIter allows, and relax it in their
 * adaptive march (VM_DUAL_MARCH_NONMONOTONE, dual_march.h). */
#define VM_SKG_NONMONOTONE 3.0

typedef struct
{
  int status;              /* VM_OK, or the first non-OK status (Newton's, the driver's or a build
                              error) */
  char message[1100];
  int n, m, windows;       /* windows: accepted windows */
  int nwin_done;           /* windows attempted (== windows on success) */
  int64_t Ntot;            /* output nodes */
  /* t, q, v and lambda_plus are views into the march's record (march.t, march.traj), not copies:
   * read-only, valid until vm_skg_solution_free (NULL when Ntot = 0) */
  double *t;               /* Ntot: grid */
  double *q;               /* Ntot x n: q+ */
  double *v;               /* Ntot x n: velocity Da q+ of each window's scheme */
  double *lambda;          /* Ntot x m: the physical multipliers at the states (see above; -lambda+
                              where the multipliers could not be evaluated, lambda_state = 0) */
  double *lambda_plus;     /* Ntot x m: lambda+ of the action */
  int lambda_state;        /* 1: lambda from the states (multipliers.h); 0: lambda = -lambda+ */
  double *energy;          /* Ntot: qdot . dL/dqdot - L + sum_c U_c at the nodes (q, v) */
  double *contact_energy;  /* Ntot: sum_c U_c, the soft contacts' potentials (model.h; 0 without
                              contacts), NaN and NULL as energy */
  double *phi;             /* Ntot x m: every constraint at velocity level (g, or g_q qdot + g_t
                              for a holonomic one) at the nodes */
  double *gpos;            /* Ntot x m: the holonomic constraints g(t, q) at the nodes (0 in the
                              columns of the others); energy, phi and gpos are NaN at a node that is
                              not finite (after a failed window), all three NULL when they could not
                              be computed (mech_points.h, vm_mech_points_residuals) */
  int64_t n_out;           /* dense output (after a successful solve; 0 otherwise) */
  double *out;             /* n_out x (2n + m), column-major: q and qdot at t_out by the SBP
                              solution's own interpolant (degree order + 1 on the window of each
                              time, vm_march_interp), lambda from those states as above */
  double lambda_gap;       /* max |lambda + lambda+| over the nodes of each window at least
                              order + 1 nodes away from its ends (NaN if there are none) */
  double max_qm, max_lm;   /* max |q-|, max |lambda-| over all windows (0 in reduced mode) */
  double max_grad;         /* max over windows of ||grad S||_inf of the full action at the
                              returned point (q-, lambda- = 0 in reduced mode): a cross-check */
  int iterations;          /* Newton steps, all windows and orders */
  long nfactor;            /* numeric LU factorizations */
  long nreuse_factor;      /* Newton's chord steps, each a factorization saved (newton.h 2') */
  long ntape;              /* evaluations of the density tape */
  /* wall-clock seconds: building the actions, Newton's residual and Jacobian callbacks (of
   * which: the density tape, the Hessian assembly), UMFPACK's symbolic analyses, numeric
   * factorizations and solves, and the whole of vm_skg_solve */
  double t_build, t_fun, t_jac, t_tape, t_hess, t_symbolic, t_numeric, t_solve, t_total;
  int nhist;               /* history entries of the accepted main solves */
  int *hist_ptr;           /* windows + 1: res_hist[hist_ptr[w] .. hist_ptr[w+1]-1] = window w */
  double *res_hist;        /* ||F(x_k)||_W per Newton iterate, window after window */
  vm_march_sol march;      /* the driver's record: windows (intervals, error estimates, Newton
                              steps), rejections, the full history, the trajectory */
} vm_skg_solution;

/* Peak memory in bytes of one window of N nodes (the action's tapes and pattern, Newton's
 * Jacobian, the factorization and its work), for n coordinates, m constraints, the SBP order, the
 * mode and the linear solver (linsolve.h: VM_LINSOLVE_AUTO, _UMFPACK or _BANDED); the output
 * arrays are extra.  Two models fitted to peak memory (u = n + m unknowns per node in reduced
 * mode, 2 (n + m) in full mode; the fits and their accuracy: bench/README_band.md, doc/skg.md):
 *   UMFPACK: (744 + 1106 u + 74 u^2) (1 + (p - 4) / 8) bytes per node;
 *   the banded LU (the band of (2 kl + ku + 1) doubles per unknown, kl = ku <= (1.5 p - 0.5) u):
 *     (744 + 350 u) (1 + (p - 4) / 8) + 8 u (3 (1.5 p - 0.5) u + 1) bytes per node, with
 *     2 (1.5 p - 0.5) u + 1 in place of 3 (...) + 1 under AUTO when the band would take 1 GiB or
 *     more (U only: linsolve.h, option lean; vm_linsolve_lean_auto).
 * The estimate is the backend's model (vm_linsolve_memory_model, linsolve.h: AUTO takes the
 * band's while u <= 12, the larger of the two beyond).  Why: to refuse work that cannot fit
 * before allocating it.  0 for a linsolve out of range. */
double vm_skg_memory_estimate (int n, int m, int64_t N, int order, int mode, int linsolve);

void vm_skg_solve_opts_init (vm_skg_solve_opts *o);
void vm_skg_solution_init (vm_skg_solution *sol);
/* Frees the solution's arrays (the large ones -- lambda, energy, phi, gpos and the march's, which
 * t, q, v and lambda_plus point into -- come from vm_scratch.h and go back to its pool: free them
 * only here, never with free) and leaves sol initialized. */
void vm_skg_solution_free (vm_skg_solution *sol);

/* Solve.  model: compiled system (its graph gains the nodes of the multipliers, multipliers.h);
 * par: np parameters (NULL if np = 0); q_i, v_i: n initial positions and velocities; o: options
 * (not NULL); sol: initialized or used before (its arrays are freed first).  Returns sol->status:
 * VM_OK, VM_EARG, VM_EORDER, VM_ESIZE, VM_ENOMEM, the march's codes (march.h vm_march:
 * VM_EHMIN, VM_EMAXSTEPS, VM_EUNRESOLVED), or the vm_newton_solve codes (VM_ENEWTON_MAXIT,
 * ..._STALL, ...) with the best iterate stored; sol->message says what happened.  Cost: the
 * march's (one Newton solve per window and order), plus O(Ntot) for the solution's residuals. */
int vm_skg_solve (vm_mech *model, const double *par, const double *q_i, const double *v_i,
                  const vm_skg_solve_opts *o, vm_skg_solution *sol);

#endif
