/* dual_periodic.h -- the discrete dual action on a circle: periodic orbits (plain C99).
 *
 * Acharya & Sengupta, Sec. 3, Remark 5: for xdot = F(x) rescale time, s = 2 pi t / T, add the
 * unknown P = T / (2 pi) with dP/ds = 0, and look for critical points of the dual action of
 *     dx/ds = P F(x),   dP/ds = 0                                                          (1)
 * among 2 pi-periodic dual fields.  The caller passes the node function of the augmented system (1)
 * (its states y = (x, P), m of them, all differential; dual.h's vm_dual_ode_node of the odesys
 * with right-hand sides P*F_i and 0) and says which component is P (gauge, below).
 *
 * Pre-dual Lagrangian and DtP map as in dual.h, with ng = 0 (u = (Ddot, D), nl = 2 m):
 *     L_H(y, D, Ddot) = -Ddot . y - D . G(y) + 1/2 sum_i c_i (y_i - ybar_i(s))^2,  G = (P F, 0).
 *
 * Periodic grid s_k = k h, h = 2 pi / N, k = 0..N-1, N odd.  Dm is the periodic central difference
 * of order p (the interior stencil of the SBP operators of sbp.h, wrapped around the circle):
 *     (Dm y)_k = (1/h) sum_{d=1..w} c_d (y_{k+d} - y_{k-d}),   indices mod N,   Dm' = -Dm.
 * All weights are h and there are no boundary terms (no closures, no SATs on a circle).
 * For even N the alternating grid function (-1)^k is in Dm's kernel besides the constants; odd N
 * leaves only the constants, so Dm P = 0 means P constant.
 *
 * Phase condition.  The primal problem is invariant under shifts of s; its linearization has the
 * null vector dy/ds and Newton needs one more equation.  We use the integral phase condition of
 * AUTO (Doedel): the solution is the shift of the orbit closest to the base state in L2 of the
 * scaled states y / ys (ys below: the same shift in any units of the states),
 *     phi(y) = int_0^2pi w(s) . (y(s) / ys) ds = 0,   w = (d ybar / ds / ys) / ||d ybar / ds / ys||_L2
 * on the components other than P (d/ds || y(. + sigma) - ybar ||^2 = 0 at sigma = 0 is
 * int (y - ybar) . ybar' = 0, and int ybar . ybar' = 0 on a circle).  It is linear (no second
 * derivative enters the DtP map), needs no Poincare section (a pointwise anchor x_i(0) = a fails
 * where x_i' vanishes at s = 0), and holds identically when ybar = y (h sum_k (Dm y)_k . y_k = 0 for
 * a skew Dm): at the base-state fixed point the duals vanish (Remark 1 of the paper).  Its dual is
 * one scalar nu: S gains nu phi(y^H), which is the same as replacing Ddot_k by Ddot_k - nu w_k
 * in L_H (its -Ddot . y term), so the node function is used unchanged.
 *
 * Gauge.  Dm' 1 = 0: adding a constant to the dual of P changes nothing; the P-dual at node 0 is
 * fixed to 0 (the same for any other component with d/ds = 0, e.g. an unfolding parameter).
 *
 * Integral conditions (optional, ng of them): (1/2pi) int G_a(y) ds = 0, for example a first
 * integral at a given level for a conservative system, whose periodic orbits come in families
 * (the linearization has a second null vector, along the family; the condition selects one member
 * and an unfolding parameter eps with d eps/ds = 0, entering the equations as P (F + eps g), makes
 * the system square again; eps = 0 at the solution when I . g > 0, Munoz-Almaraz et al. 2003).
 * They are the node function's algebraic equations, with one dual mu_a for all nodes: S gains
 * mu_a h sum_k G_a(y_k), which is the node function's D_a . G term with D_a,k = mu_a.
 *
 * Discrete action and unknowns:
 *     S(z) = h sum_k LL(u_k),   u_k = ((Dm D)_k - nu w_k, D_k, mu),
 *     z = (D at every node, node-major, without the gauge duals at node 0; nu; mu),
 *     nz = N m - ngauge + 1 + ng.
 * Stationarity (Dm' = -Dm):
 *     dS/dD_l = h [(Dm y^H)_l - G(y^H_l)]    (the periodic collocation of (1), N m - 1 equations;
 *                                              the P-equation at node 0 follows from the others)
 *     dS/dnu  = h sum_k w_k . y^H_k = phi(y^H),
 *     dS/dmu_a = h sum_k G_a(y^H_k).
 * Newton (csrc/newton/newton.h) runs on the residuals dS/dD_l,i / (h ys_i) (relative collocation
 * residuals: ys_i the peak-to-peak amplitude of component i in the first base state, |P| for P),
 * dS/dnu and dS/dmu_a / (2 pi), in the unknowns D_i / (c_i ys_i) and nu, mu_a / mean_i (c_i ys_i^2)
 * (their sizes per unit of relative deviation of y^H from ybar): its tests, line search and
 * Levenberg-Marquardt steps are then the same in any units of time and of the states, and for
 * weights c scaled alike (doc/periodic.md, "Units").  The
 * Hessian has the banded periodic pattern of the stencil (nodes within 2w of each other on the
 * circle) plus a full row and column for nu and each mu_a, so it is factored by UMFPACK (VM_LINSOLVE_UMFPACK; the corners and nu are not a
 * band).  The recovered period is T = 2 pi P.  The critical point does not depend on the base
 * state except through the phase (which shift of the orbit): the equations are the collocation
 * equations whatever ybar; ybar sets the duals' size, hence Newton's convergence.
 * Cost: per Newton iteration the node function at N points and one sparse LU of the Hessian
 * (nz = N m - ngauge + 1 + ng unknowns, the stencil's band plus the full rows of nu and mu). */
#ifndef VM_DUAL_PERIODIC_H
#define VM_DUAL_PERIODIC_H

#include <stdint.h>

#include "dual/dual.h"
#include "newton/newton.h"

#define VM_DUAL_PERIODIC_MAXM 64   /* states of the augmented system */

typedef struct {
  int m, ng, nl, ne;           /* states per node, integral conditions, 2 m + ng, expanded local
                                  variables (2w+1) m + 1 + ng */
  int64_t N, nz, nnz;
  int order, w;
  int gauge[VM_DUAL_PERIODIC_MAXM], ngauge;   /* components whose dual at node 0 is fixed */
  double h;
  const double *cst;           /* the stencil c_1..c_w (sbp_tables.h) */
  double *s;                   /* N nodes */
  double *ybar, *wph, *c;      /* N m base state; N m phase weights; m weights of H */
  double *ys;                  /* m scales of the states: the peak-to-peak amplitudes of the
                                  initial base state (|P| for P, 1 for a component that is 0),
                                  kept through base-state replacements */
  vm_dual_node_fn fn;
  void *ctx;
  int64_t *colptr, *rowind;    /* Hessian pattern (CSC, both triangles, sorted rows) */
  /* state after the last evaluation */
  double *y, *u, *val, *grad, *hess, *Dfull;   /* N m, N nl, N, N nl, N nl nl, N m */
  double nu;
  int have_y;
  int64_t bad;                 /* node where the DtP map failed (VM_EDTP) */
  long dtp_fail;               /* evaluations refused by the DtP map during Newton (line search) */
  vm_newton_symbolic sym;      /* UMFPACK's analysis of the Hessian's pattern, kept between the
                                  Newton runs of a search (one per base state): the pattern does
                                  not change with the base state */
  /* NULL, or Newton's live progress (vm_newton_opts.on_iter), set by the caller after init */
  void (*on_iter) (void *ctx, int k, double res, double step, int kind, double factor);
  void *on_iter_ctx;
} vm_dual_periodic;

/* The smallest admissible N for an order (odd, and the stencils of nodes 2w apart do not wrap onto
 * each other: N >= 4 w + 3), or -1 for an unsupported order. */
int64_t vm_dual_periodic_min_n (int order);

/* Set up.  p: the augmented system, p->ny = p->nd = m states (<= VM_DUAL_PERIODIC_MAXM), all
 * differential, p->ng integral conditions (the node function's algebraic equations G_a, no
 * algebraic states), p->N nodes (odd, >= vm_dual_periodic_min_n), p->order 2, 4, 6 or 8, p->c (m
 * weights > 0), p->fn/ctx its node function; ybar (N m, point-major: the base state, which also
 * defines the phase reference), gauge (m flags: the components with d/ds = 0 -- the period P, an
 * unfolding parameter -- whose dual at node 0 is fixed).  Returns VM_OK, VM_EARG (NULL p, bad
 * sizes, ny != nd, N even, c not > 0, every component a gauge, a base state that is not finite or
 * whose non-gauge components are constant: no phase reference), VM_EORDER, VM_ENOMEM; on failure
 * nothing stays allocated.  Cost: O(N (2w+1)^2 m^2) for the pattern. */
int vm_dual_periodic_init (vm_dual_periodic *d, const vm_dual_problem *p, const double *ybar,
                           const int *gauge);
void vm_dual_periodic_free (vm_dual_periodic *d);

/* Replace the base state (N m) and the phase weights it defines.  VM_OK or VM_EARG. */
int vm_dual_periodic_set_base (vm_dual_periodic *d, const double *ybar);

/* Replace the state scales ys (m values > 0, finite; the default of init: the peak-to-peak
 * amplitude of each component of the base state, the modulus for a gauge component or one
 * whose amplitude is below 1e-8 of it, 1 for a component that is 0) and the phase weights that
 * depend on them.  A caller that solves on several grids passes the same scales to each, so
 * that the tests and the phase condition mean the same on every grid; it knows the scale of a
 * component that is 0 in the base state (an unfolding parameter).  VM_OK, VM_EARG or
 * VM_ENOMEM (d unchanged then). */
int vm_dual_periodic_set_scales (vm_dual_periodic *d, const double *ys);

/* After an evaluation: the base state becomes the recovered primal y^H (and the phase weights
 * follow); *change = max |y^H - ybar| (the old base state).  At the new base state D = 0, nu = 0 is
 * a critical point (the collocation equations hold and phi(y) = 0 identically).  VM_OK, or VM_EARG
 * without a successful evaluation. */
int vm_dual_periodic_rebase (vm_dual_periodic *d, double *change);

/* Index of the dual of component i at node k in z (-1 for a gauge-fixed one); after the node duals
 * come nu and the ng multipliers mu_a of the integral conditions (the last 1 + ng entries). */
int64_t vm_dual_periodic_index (const vm_dual_periodic *d, int64_t k, int i);

/* S, its gradient (nz) and Hessian values (nnz) at z; any output may be NULL.  Leaves y^H and the
 * node values in the struct.  Returns VM_OK, VM_EDTP (d->bad: the node), VM_ENOMEM or an
 * evaluation error of the node function. */
int vm_dual_periodic_eval (vm_dual_periodic *d, const double *z, double *S, double *grad,
                           double *hval);

/* After an evaluation: res[k m + i] = (Dm y^H)_k,i - G_i(y^H_k), the collocation residuals of (1)
 * at every node; *phase = phi(y^H); integral[a] = the mean of G_a(y^H) over the nodes (the integral
 * conditions' residuals).  Any may be NULL. */
void vm_dual_periodic_primal (const vm_dual_periodic *d, double *res, double *phase,
                              double *integral);

/* Solve grad S = 0 by Newton with UMFPACK from z (in: the guess, out: the best iterate).  Converged
 * when the RMS of the weighted residuals (res_i / ys_i, the phase) is <= max(tol max(1, r0),
 * floor), r0 the RMS of the terms G_i(ybar) / ys_i and (Dm ybar)_i / ys_i at the base state and
 * floor = VM_DUAL_PERIODIC_FLOOR eps (2 sum_d |c_d| max|ybar_i / ys_i| / h + r0), the level to
 * which rounding lets the equations be computed (Dm's entries are up to c_d / h; the duals are
 * near 0 after base-state replacements, so Newton's own rounding test, which looks at |J| |z|,
 * does not see it).  A trial point where the DtP map has no root is rejected by the line search
 * (counted in d->dtp_fail), not an error.  Returns the status of vm_newton_solve (VM_OK =
 * converged), VM_EDTP when the DtP map fails at the guess, or VM_ENOMEM. */
#define VM_DUAL_PERIODIC_FLOOR 100.0
int vm_dual_periodic_solve (vm_dual_periodic *d, double *z, double tol, int max_iter,
                            vm_newton_info *info);

/* The search with base states (the paper's "base states to steer the search").  From a base state
 * far from an orbit, Newton on grad S = 0 meets strongly nonlinear DtP maps (the duals grow) and
 * stalls.  Here Newton runs at most `inner` iterations from z = 0; when it has not converged, the
 * base state is replaced by the recovered primal of its best iterate (vm_dual_periodic_rebase),
 * z is reset to 0, and Newton starts again -- each pass begins where the duals vanish.  After
 * convergence, `polish` more replacements (each then needs 0 iterations: D = 0 is the critical
 * point once the base state is the orbit).  Why passes from z = 0: a replacement moves the base
 * state to the recovered primal, where the DtP map is nearly linear again, so a search that
 * Newton alone cannot finish converges in a few short passes (doc/periodic.md).
 *   o:   inner (>= 1), max_iter (all passes), polish (>= 0), tol (vm_dual_periodic_solve).
 *   tr:  out iterations (Newton's, in all), passes (Newton runs); hist (in: NULL or room for
 *        max_iter + polish + 2 entries): the residual at the start of each pass and at the end,
 *        nhist of them; change (in: NULL or room for max_iter + polish + 1): max |new - old base
 *        state| of each replacement, nchange of them.
 *   info: the last Newton run's.
 * Returns VM_OK (converged), the status of the last Newton (no convergence within max_iter), or
 * VM_ENEWTON_STALL (a replacement that did not lower the residual, or VM_DUAL_PERIODIC_WINDOW
 * passes that did not halve it: a search that crawls is stopped early; with hist NULL only the
 * first test), or an error.  Cost: one vm_dual_periodic_solve per pass. */
#define VM_DUAL_PERIODIC_WINDOW 10

typedef struct {
  int inner, max_iter, polish;
  double tol;
} vm_dual_periodic_opts;

typedef struct {
  int iterations, passes;      /* out: Newton iterations in all; Newton runs */
  double *hist;                /* in: NULL or the caller's array; out: the residuals */
  int nhist;                   /* out: entries of hist */
  double *change;              /* in: NULL or the caller's array; out: the base-state changes */
  int nchange;                 /* out: entries of change */
} vm_dual_periodic_trace;

int vm_dual_periodic_search (vm_dual_periodic *d, double *z, const vm_dual_periodic_opts *o,
                             vm_dual_periodic_trace *tr, vm_newton_info *info);

#endif
