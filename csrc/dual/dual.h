/* dual.h -- the discrete dual action of Acharya & Sengupta for a first-order system (plain C99).
 *
 * Primal system (differential states y_d = y[0..nd-1], algebraic states y[nd..ny-1]):
 *     ydot_d = F(t, y),   G(t, y) = 0 (ng equations),   y_d(t0) = y0.
 * The algebraic equations need not be as many as the algebraic states (the paper's Pars system has
 * 4 algebraic states Q, s and 2 equations): the potential H below makes the dual-to-primal map
 * well defined either way.
 *
 * Duals D = (D_d (nd), D_a (ng)) per time point, m = nd + ng.  Pre-dual Lagrangian (derived from
 * integral D_d . (ydot_d - F) + D_a . G by parts, the paper's eq. 19 for a general system):
 *     L_H(y, D, Ddot, t) = -Ddot_d . y_d - D_d . F(t, y) + D_a . G(t, y) + H(y, ybar(t)),
 *     H = 1/2 sum_i c_i (y_i - ybar_i(t))^2          (shifted quadratic, c_i > 0).
 * Dual-to-primal (DtP) map y^H(D, Ddot, t): the root of r(y) = dL_H/dy = 0,
 *     r = c o (y - ybar) - [Ddot_d; 0] - F_y' D_d + G_y' D_a,
 *     A = dr/dy = diag (c) - sum_i D_d,i F_i,yy + sum_a D_a,a G_a,yy  (symmetric).
 * Dual Lagrangian  LL(D, Ddot, t) = L_H(y^H, D, Ddot, t).  Because L_H is affine in (D, Ddot) and
 * r(y^H) = 0 (envelope theorem), in the local variables u = (Ddot_d, D_d, D_a) (nl = 2 nd + ng):
 *     dLL/du = (-y^H_d, -F(y^H), G(y^H)),
 *     d2LL/du2 = -B' A^{-1} B,   B = dr/du = [-E_d, -F_y', G_y']   (ny x nl, E_d = I(:, 1:nd)).
 *
 * Discretization: grid t_k (k = 0..N-1), SBP operator Dm = H^{-1} Q of interior order 2, 4, 6 or 8,
 * Ddot_d = Dm D_d, and
 *     S = sum_k H_kk LL(D_k, (Dm D)_k, t_k) - D_d,0 . y0,     D_d,N-1 = DT prescribed (Dirichlet).
 * Its stationarity in D_d,j (j < N-1) is, with H Dm = Q = -Q' + diag(-1, 0, ..., 0, 1):
 *     (Dm y^H_d)_j - F_j = -delta_j0 (y^H_d,0 - y0) / H_00,                        (*)
 * the SBP-SAT discretization of the primal IVP at the nodes 0..N-2 (there is no equation at the last
 * node: D_d is prescribed there), and in D_a,j: G(t_j, y^H_j) = 0 at every node.
 *
 * Unknown layout (time-point major): z[k m + i] = component i of D at node k (i < nd: D_d, else
 * D_a) for k < N-1; the last node holds only its D_a: z[(N-1) m + a], a < ng.  nz = N m - nd.
 *
 * Weak final dual (flag VM_DUAL_WEAK_FINAL).  D_d(tf) = DT is not prescribed but imposed weakly by
 * a SAT at tf, the mirror of the SKG's SAT-regularized operator at t0:
 *     Ddot_d = Dm_s D_d + H^{-1} e_N DT,    Dm_s = Dm - H^{-1} e_N e_N'     (e_N: the last node).
 * With H Dm_s = Q - e_N e_N' and Q + Q' = e_N e_N' - e_1 e_1':  Dm_s' H = -Q - e_1 e_1', so
 *     dS/dD_d,j = H_jj [(Dm y^H_d)_j - F_j] + delta_j0 (y^H_d,0 - y0)        j = 0..N-1,
 * the SBP-SAT equations of the primal IVP at EVERY node, the last included (DT drops out of them):
 * the recovered primal is the SBP-SAT solution whatever the base state (which only changes the
 * duals, Newton's convergence and the conditioning of the DtP map).  Dm_s is nonsingular
 * (x' H Dm_s x = -(x_1^2 + x_N^2)/2).  Unknowns: D at every node, z[k m + i], nz = N m.
 *
 * The node functions (the dual Lagrangian at many points, dual_node.h) are pluggable: the general
 * engine (dual_ode.h) works for any compiled vm_ode; closed forms (dual_closed.h) plug in the same
 * way.  The implementation: dual_setup.c (grid, operator), dual_pattern.c (the Hessian's pattern),
 * dual_eval.c (S, its gradient, the primal), dual_hessian.c (the Hessian's values), dual_solve.c
 * (Newton).  Why a struct that keeps the pattern: a sequence of solves on one grid (slabs, march
 * windows) builds it once and moves the discretization between intervals (vm_dual_move). */
#ifndef VM_DUAL_H
#define VM_DUAL_H

#include <stddef.h>
#include <stdint.h>

#include "dual/dual_node.h"
#include "dual/dual_ode.h"
#include "newton/newton.h"
#include "sbp/sbp.h"

typedef struct {
  int ny, nd, ng, m, nl;
  int64_t N, nz;
  int order;
  double t0, tf;
  vm_sbp op;
  double *hw, *t;              /* N */
  int64_t *dp, *dj;            /* Dm in compressed rows */
  double *dv;
  double *dvs;                 /* Dm_s on Dm's pattern: the operator of the action's Ddot_d (= dv
                                  in the strong mode) */
  int weak;                    /* VM_DUAL_WEAK_FINAL given */
  double *ybar;                /* N ny (point-major) */
  double *c;                   /* ny */
  double *y0, *DT;             /* nd, nd */
  vm_dual_node_fn fn;
  void *ctx;
  /* Hessian of S: CSC (full, sorted rows), and where node k's local contributions go.  Node k's
   * expanded variables come in groups: D_d at each node of its support (nd unknowns each, with
   * consecutive global indices), then D_a at k (ng, if ng > 0).  A group's rows are contiguous in
   * every column that holds them, at the same offset from the start of each column of one group
   * (those columns have the same rows), so one offset per pair of groups places the whole block:
   * entry (row a of group A, column b of group B) is at colptr[first column of B + b] + off + a,
   * off = boff[bp[k] + A G_k + B] (G_k groups), -1 when A or B is fixed (strong mode). */
  int64_t nnz;
  int64_t *colptr, *rowind;    /* rowind from vm_scratch.h (kept after vm_dual_free for the next
                                  discretization) */
  int64_t *rowbase;            /* nz: for a column whose rows are consecutive, colptr minus its
                                  first row (entry (r, j) at rowbase[j] + r); INT64_MIN otherwise */
  unsigned char *upper_run;    /* nz: column c's rows are consecutive, and so are those of the
                                  columns of its upper entries, which hold row c (mirror_upper) */
  int64_t *bp;                 /* N+1 */
  int *boff;                   /* bp[N] */
  int maxns;                   /* the largest support */
  int64_t hess_lag;            /* the columns of nodes <= j are complete once node j + hess_lag
                                  has been added (dual_pattern.c, build_lag) */
  unsigned char *regular;      /* N: node k's blocks (ng = 0) are stacked in every column, block
                                  (q, r) at boff (r, r) + (q - r) nd for q >= r (node_run) */
  int64_t *sup_p, *sup;        /* node k's support (sorted {k} U columns of Dm row k) */
  int *kpos, *dpos;            /* position of k, and of each Dm entry of row k, in that support */
  /* state after the last evaluation */
  double *y;                   /* N ny: y^H */
  double *u, *val, *grad;      /* N nl, N, N nl */
  double *hess;                /* the node Hessians of one chunk of VM_DUAL_HESS_CHUNK nodes
                                  (nl nl each), made and assembled chunk by chunk
                                  (dual_hessian.c) */
  double *Dfull;               /* N m: D with the Dirichlet values */
  int have_y;
  int64_t bad;                 /* node where the DtP map failed (VM_EDTP) */
  double hess_sumsq;           /* after vm_dual_eval with Hessian values: the sum of their
                                  squares (NaN when it failed), made in the assembly's sweep
                                  (Newton's jac_sumsq) */
} vm_dual;

/* vm_dual_init flags */
#define VM_DUAL_WEAK_FINAL 1   /* D_d(tf) = DT weakly (SAT at tf); default (0): strongly */

/* What stays the same on every interval a discretization is used on: the system's dimensions,
 * the grid and the node function.  vm_dual_init, vm_dual_slabs (dual_slabs.h), vm_dual_march_init
 * (dual_march.h) and vm_dual_periodic_init (dual_periodic.h) take it. */
typedef struct
{
  int ny, nd, ng;              /* states, differential states (<= ny), algebraic equations */
  int64_t N;                   /* nodes of one interval (slab, window) */
  int order;                   /* SBP interior order (sbp.h) */
  const double *c;             /* ny weights of H (> 0, finite) */
  vm_dual_node_fn fn;          /* the node function (dual_node.h) */
  void *ctx;                   /* its context */
} vm_dual_problem;

/* Set up the discretization of p on [t0, tf].  ybar: N ny base states (NULL: 0); y0: nd initial
 * values; DT: nd final duals (NULL: 0); flags: 0 (D_d(tf) = DT prescribed, the paper's recipe) or
 * VM_DUAL_WEAK_FINAL.  Builds the Hessian pattern once.  Returns VM_OK, VM_EARG (NULL p, ny < 1,
 * nd < 1, nd > ny, ng < 0, c not > 0, NULL c, y0 or fn, unknown flags), the codes of vm_sbp_init
 * (N below the order's minimum), VM_ENOMEM; on failure nothing stays allocated.  Cost: O(nnz) time
 * and memory (dual_pattern.c). */
int vm_dual_init (vm_dual *d, const vm_dual_problem *p, double t0, double tf, const double *ybar,
                  const double *y0, const double *DT, int flags);

/* Peak memory in bytes of one dual window of N nodes with u = nd + ng duals per node, SBP order p
 * and the linear solver linsolve (linsolve.h): the action, Newton's Hessian and its factorization,
 * and the Levenberg-Marquardt fallback's augmented system (order 2n), which a solve that does not
 * converge builds.  Per node: UMFPACK 2.5 (750 + 878 u^2) bytes, a fit of measured peaks with
 * the fallback's factor 2.5; banded 1.1 (750 + u (660 + 224 kl)) bytes with kl = 1.5 p u, an upper
 * bound of the bandwidth (the band of 2 kl + ku + 1 doubles per unknown, the Cholesky band, the
 * Hessian's CSC, the augmented system's band and the vectors); AUTO the one
 * vm_linsolve_memory_model picks.  The fits and their measurements: doc/dual.md, "Memory", and
 * bench/dual_memory.m.  0 for an unknown linsolve.  Why: to refuse work that cannot fit before
 * allocating it. */
double vm_dual_memory_estimate (int nd, int ng, int64_t N, int order, int linsolve);

/* The same discretization (N, order, pattern, node function) moved to the interval [t0, tf] with
 * initial values y0 (nd) and, if ybar is not NULL, the base state ybar (N ny); the Hessian pattern
 * (colptr, rowind) does not change.  Forgets the last DtP map (the next evaluation starts the
 * per-point Newton from ybar).  Returns VM_OK or VM_EARG (tf <= t0, not finite, NULL y0). */
int vm_dual_move (vm_dual *d, double t0, double tf, const double *y0, const double *ybar);
void vm_dual_free (vm_dual *d);

/* S, its gradient (nz) and Hessian values (nnz, in colptr/rowind) at z; any output may be NULL.
 * Leaves y^H, F and G of every node in the struct (vm_dual_primal).  Returns VM_OK, VM_EARG (NULL
 * z), VM_ENOMEM or the node function's code (VM_EDTP: d->bad the first failing node).  Cost: the
 * node function at N points, and with hval one pass over the nnz values (dual_hessian.c). */
int vm_dual_eval (vm_dual *d, const double *z, double *S, double *grad, double *hval);

/* Index of D component i (0..m-1) at node k in z, or -1 for the prescribed D_d at the last node
 * (strong mode). */
int64_t vm_dual_index (const vm_dual *d, int64_t k, int i);

/* After vm_dual_eval: the primal residuals, res[k nd + i] = (Dm y_d)_k,i - F_k,i (+ the SAT term at
 * k = 0), the equations (*), for every node (strong mode: the last node's is not an equation of S,
 * it shows how well the recovered primal satisfies the ODE there; weak mode: it is one);
 * gres[k ng + a] = G_a(t_k, y^H_k); ham[k] the dual Hamiltonian D_d . F - D_a . G - H(y^H, ybar) (the Legendre transform of LL in Ddot_d, a
 * constant of motion when ybar and F, G do not depend on t).  Any output may be NULL. */
void vm_dual_primal (const vm_dual *d, double *res, double *gres, double *ham);

/* Options of vm_dual_solve_ex (vm_dual_solve_opts_init gives the defaults). */
typedef struct
{
  double tol;                  /* residual tolerance (>= 0) (default 1e-11) */
  int max_iter;                /* Newton's maximal number of steps (default 50) */
  int linsolve;                /* Newton's linear solver, vm_newton_opts.linsolve:
                                  VM_LINSOLVE_AUTO, _UMFPACK or _BANDED (default AUTO) */
  vm_newton_symbolic *sym;     /* NULL, or a caller-owned cache of UMFPACK's symbolic analysis
                                  (vm_newton_opts.symbolic), for a sequence of solves on one
                                  vm_dual (time slabs, vm_dual_move between them): the pattern
                                  never changes, so it is analysed once for all the solves; free
                                  it with vm_newton_symbolic_free (default NULL) */
  void (*on_iter) (void *ctx, int k, double res, double step, int kind, double factor);
                               /* NULL, or Newton's live progress (vm_newton_opts.on_iter) */
  void *on_iter_ctx;
} vm_dual_solve_opts;

void vm_dual_solve_opts_init (vm_dual_solve_opts *o);

/* Solve grad S = 0 by Newton (newton/newton.h).  Its residuals are the row-scaled equations
 * grad_j / H_jj (the residuals of the discrete primal equations (*) and G, N-independent; Newton's
 * res_weight), its Jacobian the Hessian of S, factored by Cholesky where it is negative definite
 * (vm_newton_opts.definite; S is concave where the DtP matrices are definite, the LU otherwise).
 * Converged when their RMS is <= tol max(1, s), s the RMS of F(ybar) and of Dm ybar_d (the size of
 * the equations' terms at the base state, independent of the guess and of DT) and never below
 * the equations' rounding level, or by the step test.  z: in the guess, out the best iterate, at
 * which the struct's state is left.  o: NULL for the defaults.  info->linsolve reports the linear
 * solver used.  Returns VM_OK, Newton's codes, VM_EDTP (the DtP map fails at the best iterate),
 * VM_ENOMEM.  Cost: one Hessian and one sparse factorization per Newton iteration but the chord
 * steps (at most 4 per factorization). */
int vm_dual_solve_ex (vm_dual *d, double *z, const vm_dual_solve_opts *o, vm_newton_info *info);

/* vm_dual_solve_ex with tol, max_iter and linsolve, the other options at their defaults. */
int vm_dual_solve (vm_dual *d, double *z, double tol, int max_iter, int linsolve,
                   vm_newton_info *info);

/* The message of a solve that returned st (at most n bytes with the terminating zero): for
 * VM_EDTP the time and node where the dual-to-primal map failed, otherwise Newton's message, or
 * "converged" / the status's string when it has none; when Newton ran out of iterations or steps
 * (VM_ENEWTON_MAXIT, _STALL) followed by what to change ("use more slabs or a base state closer to
 * the solution").  One wording for dual_solve's one slab (mex/vm_dual_mex.c) and every slab of
 * vm_dual_slabs. */
void vm_dual_solve_message (char *msg, size_t n, int st, const vm_dual *d,
                            const vm_newton_info *info);

#endif
