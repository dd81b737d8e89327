/* dual_slabs.h -- the discrete dual action (dual.h) on consecutive time slabs of a fixed grid,
 * with the base-state iteration, in one C loop (plain C99, no Octave headers).
 *
 * The fixed-grid path of dual_solve, dual_lorenz and dual_pars (inst/private/vm_dual_driver.m):
 * S slabs [tb_s, tb_{s+1}] (s = 0..S-1) of N nodes each, sharing their end nodes, Ntot =
 * S (N - 1) + 1 grid points.  One vm_dual object serves every slab and every pass: vm_dual_init
 * once (the Hessian pattern is built once), vm_dual_move per slab, and one cache of UMFPACK's
 * symbolic analysis for all the Newton solves (the pattern does not change).  The node function
 * (a compiled model, a closed form) is the caller's and is set up once.
 *
 * Passes b = 0 .. base_iterations; in each, for s = 0 .. S-1:
 *   1. the slab's discretization: vm_dual_move to [tb_s, tb_{s+1}] with the slab's own base
 *      state (its N rows; a node shared by two slabs has one base value in each) and the initial
 *      state ystart: y0 for the first slab, otherwise the previous slab's recovered end state
 *      y^H_d at its last node;
 *   2. the initial duals: the guess's N rows of the slab (first pass only; the strong mode drops
 *      the prescribed D_d of the last node), else 0;
 *   3. vm_dual_solve_ex (tol, max_iter, linsolve; the shared symbolic cache; with display 2 the
 *      Newton residuals are printed while it runs);
 *   4. the slab's results into the grid arrays (a later slab overwrites the shared node): y^H, D
 *      (with the prescribed values), the primal residuals, G, the Hamiltonian (vm_dual_primal),
 *      and S (summed over the slabs); its Newton iterations, residual history and linear-solver
 *      statistics; its recovered end state and end residual; the start jump max_i |y^H_d,i(tb_s)
 *      - ystart_i|;
 *   5. the exit flag: the first slab of the pass whose Newton did not converge sets exitflag 0 and
 *      the message "slab s of S: <why>"; otherwise, when the start jump exceeds jump_tol
 *      max(1, |ystart|_inf), exitflag 0 and a message that Newton converged to a spurious
 *      critical point (the recovered primal starts far from the initial state: the slab is too
 *      long for its base state; a genuine critical point starts within the SAT term, O(h^(p+1))).
 *      The remaining slabs are still solved (from the recovered end state).
 * Between passes (b < base_iterations) each slab's base state is replaced by its own recovered
 * primal y^H and base_change[b] = max |old base - new base| over all slabs and nodes.  The arrays
 * of the result hold the last pass; the histories, the iteration-free statistics and the linear
 * solver's times accumulate over all passes.  When every slab of the last pass converged the
 * message is "converged (S slab(s), n Newton iterations)" (n: the last pass's iterations).
 *
 * Printing (display 2): for each slab, before its solve, the line
 *   "<name>: slab s of S, base pass b: Newton residuals (RMS of the discrete equations):\n"
 * then per Newton iterate k (live, from Newton's on_iter) "  %3d  %.3e\n" with the RMS
 * ||F_k||_W / sqrt(max(1, N m - nd)).  Iterates Newton recorded without reporting them (a
 * non-finite initial residual) are printed after the solve, so the lines always cover the
 * residual history.
 *
 * Cost: one vm_dual_init (the pattern), then per slab and pass one vm_dual_move (O(N)) and one
 * Newton solve (vm_dual_solve_ex); memory: one slab's discretization plus the grid arrays
 * (vm_dual_slabs_memory_estimate).  Why one loop in C: the slabs share one pattern and one
 * symbolic analysis, which a loop over single-slab calls would rebuild each time.
 */
#ifndef VM_DUAL_SLABS_H
#define VM_DUAL_SLABS_H

#include <stdint.h>

#include "dual/dual.h"

typedef struct
{
  int slabs;            /* S, the number of slabs (>= 1) (default 1) */
  int base_iterations;  /* passes after the first, each from the previous pass's recovered primal
                           as base state (>= 0) (default 0) */
  double tol;           /* vm_dual_solve's residual tolerance (>= 0) (default 1e-11) */
  int max_iter;         /* Newton's maximal number of steps per slab (0 .. 1000000) (default 50) */
  int linsolve;         /* Newton's linear solver: VM_LINSOLVE_AUTO, _UMFPACK or _BANDED
                           (default VM_LINSOLVE_AUTO) */
  int weak;             /* nonzero: the weak final dual on every slab (VM_DUAL_WEAK_FINAL);
                           0: D_d(tb_{s+1}) = DT prescribed (default 0) */
  const double *DT;     /* NULL (0) or nd final duals of every slab (default NULL) */
  const double *guess;  /* NULL (0) or Ntot m initial duals on the grid, point-major
                           (guess[k m + i], D_d then D_a), used in the first pass only
                           (default NULL) */
  double jump_tol;      /* the spurious-critical-point test's relative start jump (> 0)
                           (default 1e-2) */
  int display;          /* 0 silent, 2 each slab's Newton residuals while it runs (1 is silent
                           here: the caller prints the final line) (default 0) */
  void (*print) (void *ctx, const char *line);   /* where lines go (NULL: stdout, flushed)
                           (default NULL) */
  void *print_ctx;      /* (default NULL) */
  const char *name;     /* prefix of the printed lines (default "dual_solve") */
} vm_dual_slabs_opts;

typedef struct
{
  int S, npass;          /* slabs; passes made (base_iterations + 1 unless a slab failed) */
  int ny, nd, ng, m;
  int64_t N, Ntot;
  /* the last pass on the grid, point-major (row k of the grid: [k ny .. k ny + ny - 1] etc.) */
  double *y;             /* Ntot ny: the recovered primal */
  double *D;             /* Ntot m: the duals, with the prescribed D_d at the slabs' last nodes */
  double *res;           /* Ntot nd: the primal residuals (vm_dual_primal) */
  double *G;             /* Ntot ng: the algebraic equations at y^H */
  double *ham;           /* Ntot: the dual Hamiltonian */
  double *base;          /* Ntot ny: each slab's base state of the last pass (a shared node: the
                            later slab's) */
  double Sval;           /* the action, summed over the slabs */
  double *end_y;         /* S ny: each slab's recovered primal at its last node */
  double *end_res;       /* S nd: each slab's primal residual at its last node */
  double *start_jump;    /* S */
  double *base_change;   /* base_iterations entries (0 when that pass was not made) */
  int *slab_iter;        /* S: Newton iterations of each slab in the last pass */
  int iterations;        /* their sum */
  /* residual histories of every solve, in order (pass-major, then slab): solve j's is
   * hist[hist_p[j] .. hist_p[j+1]-1] (||F_k||_W, the row-scaled equations) */
  int nsolve;
  int64_t *hist_p;       /* nsolve + 1 */
  double *hist;
  /* linear solver: the last solve's backend and bandwidths; times summed over all solves */
  int linsolve, kl, ku;
  int lean;              /* the last solve's banded LU kept U only (vm_newton_info.lean) */
  double t_numeric, t_solve;
  long nchol, nchol_fail; /* Cholesky factorizations over all solves, and those tried on a
                            Hessian that was not definite (vm_newton_info) */
  long nsymbolic;        /* UMFPACK symbolic analyses over all solves (1 with UMFPACK, 0 banded;
                            +1 per LM fallback with UMFPACK) */
  int ninit;             /* vm_dual_init calls (Hessian patterns built): 1 */
  int exitflag;          /* 1 every slab of the last pass converged to a genuine critical point */
  char message[800];
  int fail_slab;         /* 0, or the slab (1-based) that left no recovered primal (the return
                            value says why; message: "slab s of S: <why>") */
  int fail_pass;         /* its pass (0-based) */
  double t_total;        /* wall-clock seconds in vm_dual_slabs */
} vm_dual_slabs_sol;

/* Defaults (see vm_dual_slabs_opts). */
void vm_dual_slabs_opts_init (vm_dual_slabs_opts *o);
/* An empty result (NULL arrays); or zero the struct. */
void vm_dual_slabs_sol_init (vm_dual_slabs_sol *s);
/* Free the arrays of s and leave it empty.  NULL is ignored. */
void vm_dual_slabs_sol_free (vm_dual_slabs_sol *s);

/* Solve the dual action on the slabs (see above).
 *   p        as for vm_dual_init (p->N nodes per slab; the node function set up by the caller
 *            once)
 *   tb       S + 1 slab boundaries, strictly increasing and finite (S = o->slabs)
 *   ybar     NULL (0) or the base state on the grid, Ntot ny point-major, Ntot = S (N - 1) + 1
 *   y0       nd initial values
 *   o        options (NULL: vm_dual_slabs_opts_init)
 *   sol      the result (vm_dual_slabs_sol_init'ed or used before: its arrays are freed first)
 * Returns:
 *   VM_OK      every slab of every pass was solved (sol->exitflag says whether all converged;
 *              Newton's failures are in sol->message, not in the return value)
 *   VM_EARG    NULL arguments (p, its c or fn), S < 1, base_iterations < 0, max_iter outside
 *              0 .. 1000000, tol < 0 or not finite, jump_tol not > 0, tb not increasing or
 *              not finite, and the argument errors of vm_dual_init (dimensions, c, flags)
 *   VM_ESTEP   a slab shorter than vm_march_hmin (tb_s, tb_S - tb_0, N) (march.h: its node
 *              spacing would be lost to the rounding of t, or 1/h overflow); sol->message says
 *              which
 *   the codes of vm_dual_init (N below the order's minimum: VM_ESIZE; VM_EORDER), VM_ENOMEM
 *   a slab's failure to leave a recovered primal (the DtP map fails at Newton's best iterate:
 *              VM_EDTP; or Newton's own error when it returned before any evaluation): the loop
 *              stops, sol->fail_slab / fail_pass name the slab and sol->message says why; the
 *              arrays hold what was solved before.
 * Nothing stays allocated except sol's arrays. */
int vm_dual_slabs (const vm_dual_problem *p, const double *tb, const double *ybar,
                   const double *y0, const vm_dual_slabs_opts *o, vm_dual_slabs_sol *sol);

/* Bytes of a vm_dual_slabs call on a grid of Ntot points (an estimate, for a caller to refuse
 * work before it allocates): one slab's discretization and Newton (vm_dual_memory_estimate, for
 * the order and linsolve) and the arrays on the whole grid (base state, primal, duals,
 * residuals: about 6 copies of ny + nd + ng + 1 columns). */
double vm_dual_slabs_memory_estimate (int ny, int nd, int ng, int64_t N, int order, int linsolve,
                                      int64_t Ntot);

#endif
