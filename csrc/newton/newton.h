/* newton.h -- a globalized Newton solver for F(x) = 0, x in R^n, with a sparse Jacobian in a
 * fixed CSC pattern (plain C99).
 *
 * Meant for grad S(x) = 0 of discrete action principles (J the symmetric indefinite Hessian of S),
 * but J is treated as a general square sparse matrix, factored by csrc/la/linsolve.h (option
 * linsolve: UMFPACK's sparse LU, or LAPACK's banded LU on the band of the pattern, which is how
 * the time-node ordering of the actions makes it; VM_LINSOLVE_AUTO picks from the pattern).
 *
 * The sources, from the top down: newton_run.c (vm_newton_run: the loop), newton_args.c (the
 * checks), newton_step.c (one step), newton_lm.c (the Levenberg-Marquardt fallback), newton.c
 * (defaults and the shared helpers); their memory struct is in newton_impl.h.
 *
 * Residual norm: ||F||_W = ||diag(w) F||_2 with per-equation weights w_i > 0 (res_weight; all 1
 * by default).  Every residual norm below (the tests, the line search, the LM problem, the
 * histories and messages) is this one.  Why: with w_i = 1/sqrt(c_i) for an equation that is a
 * quadrature sum c_i r_i, the test is the discrete L2 norm of r, independent of the grid size.
 *
 * Iteration (k = 0, 1, ...; F_k = F(x_k), f_k = ||F_k||_W).  The numbers are referred to as
 * "newton.h 1'" etc. elsewhere.
 *   1.   Converged (residual): f_k <= tol_res scale, scale = res_scale if > 0, else max(1, f_0).
 *        Checked at x_0 too.
 *   1'.  Converged (rounding level; tol_round > 0), after J(x_k) is computed:
 *        f_k <= tol_round eps || W |J(x_k)| |x_k| ||_2 (with x_offset: |x| + |x_offset| in the
 *        rows of offset_rows).  Why: F cannot be evaluated more accurately than the terms it
 *        cancels, and a difference operator with entries ~ 1/h puts that floor above any fixed
 *        tol_res for small h.  The bound is pessimistic by up to about one digit.  Cost: a pass
 *        over J's values for the bound max_i w_i ||J||_F ||x||_2, and one over the pattern for
 *        |J| |x| only when f_k is below that bound.
 *   1''. Converged with the held factorization (tol_round > 0, reuse > 0): a factorization of
 *        J(x_m), m < k, is held, the step to x_k was a full step with f_k <= reuse_theta f_{k-1},
 *        and f_k <= 1/2 tol_round eps || W |J(x_m)| |x_k| ||_2.  Why: saves the Jacobian that 1'
 *        would need where chord steps land at the rounding floor; the factor 1/2 covers the
 *        difference between J(x_m) and J(x_k) where chord steps contract.
 *   2.   Newton step: J(x_k) dx = -F_k.  J counts as singular on an exactly zero pivot, a pivot
 *        ratio min |U_ii| / max |U_ii| below DBL_EPSILON or NaN (linsolve.h), or a non-finite dx.
 *   2'.  Chord step (reuse > 0, tol_round > 0): with a factorization of J(x_m) held that has
 *        served fewer than reuse chord steps, after a full step that contracted (f_k <=
 *        reuse_theta f_{k-1}) and with f_k above the rounding level of 1' estimated with J(x_m), dx = -J(x_m)^{-1} F_k
 *        is taken in full when ||F(x_k + dx)||_W <= reuse_theta f_k; otherwise (or for a
 *        non-finite dx) the trial is discarded (one solve and one residual spent) and J(x_k) is
 *        evaluated for step 2.  No chord step after a damped or LM step, nor from x_0.  Why the
 *        rounding tests are required with it: linear convergence can reach the floor of F with
 *        steps still above tol_step, where only 1' or 1'' can end the iteration.  reuse = 0 is
 *        the plain iteration exactly.
 *   3.   Line search (line_search != 0): backtracking t = 1, 1/2, ... >= 1e-10 on phi = 1/2
 *        ||F||_W^2 with Armijo's condition phi(x + t dx) <= (1 - 2e-4 t) phi(x); a non-finite
 *        trial counts as no decrease.  Non-monotone (nonmonotone > 1): while f_k > 1e3 tol_res
 *        scale, the full step is also taken when ||F(x_k + dx)||_W <= nonmonotone f_best; after
 *        nonmonotone_max steps without a new best the iteration returns to the best iterate
 *        (info->nwatchdog) and stays monotone.  Why: a stiff force makes ||F|| rise along a
 *        right Newton direction, where monotone backtracking creeps (a watchdog as in
 *        Chamberlain, Powell, Lemarechal and Pedersen 1982).  line_search = 0: always the full
 *        step.
 *   4.   Levenberg-Marquardt fallback (lm_fallback != 0) when J is singular or the line search
 *        fails: dx minimizes ||F + J dx||_W^2 + mu ||dx||^2, solved through the quasi-definite
 *        augmented system [I WJ; (WJ)^T -mu I] of order 2n (unknowns interleaved, so it is banded
 *        when J is; J^T J is never formed).  mu starts at 1e-3 max_j ||WJ(:,j)||^2 and follows
 *        Nielsen's rule (accept when the gain ratio exceeds 1e-4), at most 40 trials.  Fails
 *        (VM_ENEWTON_STALL) when J^T W^2 F = 0, when a trial step falls below rounding, or after
 *        40 trials.  Why not (J + mu I): for an indefinite J it can be singular or ascend.
 *   5.   Converged (step; tol_step > 0): the Newton (or chord) correction at x_k satisfies
 *        ||dx_k||_inf <= tol_step (step_scale + ||x_k||_inf) and at most half the previous full
 *        step; x_k + dx_k is taken unless it raises ||F|| (then x_k is returned).  Why the
 *        contraction: it bounds the error of x_k by about 2 ||dx_k||, and keeps short damped or
 *        LM steps from passing for convergence.
 *
 * Limitation: 1/2 ||F||^2 cannot see the distance to a root when components of F saturate
 * (bounded residuals); the iteration can then end in VM_ENEWTON_STALL or _MAXIT in a flat region.
 *
 * Guarantees: x returns the best iterate (smallest ||F||_W seen) on every path after the argument
 * checks, callback errors included; any status other than VM_OK means "not converged", and
 * info->message says why with the best residual.
 *
 * Memory: per solve, the work arrays (eight n-vectors and the Jacobian values, from vm_scratch.h,
 * kept for the next solve), the histories (max_iter + 1 entries) and the linear solver's; the
 * augmented LM system's at the first fallback.  Inside the iteration only UMFPACK allocates (its
 * numeric factorization; at most one of J is alive).  Every path frees everything but info's
 * arrays (vm_newton_info_free).
 */
#ifndef VM_NEWTON_H
#define VM_NEWTON_H

#include <stdint.h>

#include "la/linsolve.h"

/* F(x) into F (n values).  0 = ok; a nonzero return aborts the solve with that code. */
typedef int (*vm_newton_fn) (const double *x, double *F, void *ctx);
/* The values of J(x) = dF/dx in the fixed CSC pattern: Jx[p] is the entry (rowind[p], j) for
 * colptr[j] <= p < colptr[j+1].  0 = ok; a nonzero return aborts the solve with that code. */
typedef int (*vm_newton_jac) (const double *x, double *Jx, void *ctx);

/* A symbolic analysis of a Jacobian pattern kept between solves (vm_newton_opts.symbolic): the
 * UMFPACK backend's cache (linsolve.h; nreuse counts the solves that reused it). */
typedef vm_linsolve_cache vm_newton_symbolic;

/* An empty cache (or zero the struct). */
void vm_newton_symbolic_init (vm_newton_symbolic *c);
/* Free the analysis and leave the cache empty.  NULL is ignored. */
void vm_newton_symbolic_free (vm_newton_symbolic *c);

typedef struct
{
  double tol_res;    /* residual test ||F||_2 <= tol_res * scale (>= 0; 0: off) (default 1e-10) */
  double res_scale;  /* > 0: the scale of the residual test; 0: max(1, ||F(x0)||_W) (default 0) */
  const double *res_weight; /* NULL (all 1) or n per-equation weights w_i > 0 (finite): every
                        residual norm is ||F||_W = ||diag(w) F||_2 (tests, line search, LM, the
                        histories); only read during the solve (default NULL) */
  const double *x_offset;  /* NULL, or n values: the caller evaluates some equations at
                        x + x_offset (its unknowns are displacements from x_offset; skg_solve.c:
                        the window's initial position for q+, 0 elsewhere); the rows flagged in
                        offset_rows then round at eps |J| |x + x_offset| (test 1' and 1'' use
                        |x_j| + |x_offset_j| in them), the others at eps |J| |x| (default NULL) */
  const unsigned char *offset_rows;  /* n flags (1: the row evaluates at x + x_offset without
                        differencing it, e.g. a constraint g(q) at a node; 0: it differences the
                        displacements, e.g. an SBP derivative); read only with x_offset (NULL
                        with x_offset: every row) (default NULL) */
  const double *F0;  /* NULL, or F(x0), the n residuals at the x passed in, which the caller has
                        evaluated already (skg_solve.c for its residual scale): used instead of a
                        call of F at x0, which nfev then does not count; the caller guarantees
                        that they are F(x0), Newton does not check it; only read before the first
                        step (default NULL) */
  double tol_round;  /* > 0: also converged when ||F||_W <= tol_round eps || W |J(x)| |x| ||_2, the
                        rounding level of F (checked after each Jacobian); 0: off (default 0) */
  double tol_step;   /* step test ||dx||_inf <= tol_step (step_scale + ||x||_inf) after a full
                        Newton step (>= 0; 0: off) (default 1e-12) */
  double step_scale; /* the absolute part of the step test: the size of x below which the test
                        turns absolute (> 0, finite; skg_solve.c: the size of the window's initial
                        state, so that the test means the same in any unit of length)
                        (default 1) */
  int max_iter;      /* maximal number of steps (0 .. 1000000; the histories are allocated for
                        max_iter + 1 entries up front) (default 50) */
  int line_search;   /* nonzero: Armijo backtracking (default 1) */
  int lm_fallback;   /* nonzero: Levenberg-Marquardt steps when J is singular or the line search
                        fails (default 1) */
  int verbose;       /* nonzero: one line per iteration on stderr (default 0) */
  int umf_ordering;  /* UMFPACK Control[UMFPACK_ORDERING] (UMFPACK_ORDERING_AMD, _METIS, _NONE,
                        ...); -1: UMFPACK's default (default -1) */
  int umf_strategy;  /* UMFPACK Control[UMFPACK_STRATEGY] (UMFPACK_STRATEGY_AUTO, _SYMMETRIC,
                        _UNSYMMETRIC); -1: UMFPACK's default (default -1) */
  int umf_irstep;    /* UMFPACK Control[UMFPACK_IRSTEP], iterative refinement steps per solve
                        (0: none; a Newton direction does not need them); -1: UMFPACK's default
                        (2) (default -1) */
  int linsolve;      /* the linear solver (linsolve.h): VM_LINSOLVE_AUTO (the backend that
                        vm_linsolve_auto picks from the pattern; a banded LU keeps U only when
                        its band would take 1 GiB or more, linsolve.h option lean: no chord
                        steps then, except with a Cholesky factor of option definite, which is
                        held as without lean), VM_LINSOLVE_UMFPACK or VM_LINSOLVE_BANDED (LAPACK's banded
                        LU, L and U kept; refused with VM_EARG when the band exceeds LAPACK's
                        32-bit indices) (default VM_LINSOLVE_AUTO) */
  int lean;          /* the banded LU of J keeps U only (linsolve.h option lean; an LU
                        then serves one solve: no chord steps with it; a Cholesky factor of option
                        definite is held as without lean): 0 never, 1 whenever J is banded and
                        kl < VM_BAND_LU_KL_MAX, VM_LINSOLVE_LEAN_AUTO linsolve's rule when linsolve
                        is VM_LINSOLVE_AUTO (a band of 1 GiB or more), never otherwise (default
                        VM_LINSOLVE_LEAN_AUTO) */
  int block;         /* 0, or the unknowns per time node when x is node-major: the banded backend
                        may then factor J with its first two and last two nodes exchanged, when
                        that narrows the band (vm_linsolve_opts.block); not used for the
                        Levenberg-Marquardt systems (default 0) */
  int definite;      /* 0, or +1 / -1 when diag (definite_scale) J is symmetric and expected to be
                        positive / negative definite near the solution (J = diag (w) H, H the
                        Hessian of a convex / concave function): the banded backend then factors J
                        by the Cholesky factorization of +-diag (definite_scale) J, and by its LU where that
                        matrix is not definite (linsolve.h option definite; nchol, nchol_fail); not
                        used for the Levenberg-Marquardt systems (default 0) */
  const double *definite_scale; /* NULL (all 1) or n values > 0, finite (linsolve.h; checked at
                        the solver's set-up: VM_EARG otherwise) (default NULL) */
  void (*on_iter) (void *ctx, int k, double res, double step, int kind, double factor);
                     /* NULL, or called with on_iter_ctx at x_0 (k = 0, kind VM_NEWTON_START) and
                        after every accepted step k: ||F(x_k)||_W, ||x_k - x_{k-1}||_inf, the kind
                        of step (VM_NEWTON_*) and its line-search factor t or LM mu, while the
                        solve runs (live progress) (default NULL) */
  void *on_iter_ctx;
  int reuse;         /* nonzero: factorization reuse (chord steps, step 2' above): at most this
                        many consecutive chord steps with one factorization (0 .. 1000000; 0:
                        off, every step refactors) (default 2, the best trade of
                        factorizations for iterations on the SKG and dual benchmarks) */
  double reuse_theta; /* the contraction a chord step must reach, ||F(x_k + dx)||_W <= reuse_theta
                        ||F(x_k)||_W, and the one the previous step must have reached for a chord
                        step to be tried (0 < reuse_theta < 1) (default 0.25) */
  double nonmonotone; /* the non-monotone test of step 3: a full Newton step far from convergence
                        may raise ||F||_W up to this factor times the best residual seen
                        (0 .. 1e6; <= 1: off, the plain monotone line search) (default 0: off;
                        skg_solve.h sets VM_SKG_NONMONOTONE, dual_march.h
                        VM_DUAL_MARCH_NONMONOTONE) */
  int nonmonotone_max; /* the watchdog's patience: after a relaxed step, at most this many steps
                        without a new best residual before going back to the best iterate
                        (0 .. 1000000) (default 5) */
  vm_newton_symbolic *symbolic; /* NULL, or a caller-owned cache of UMFPACK's symbolic analysis
                        of J: reused when it was made for the same pattern (n, nnz and a hash of
                        colptr and rowind) and the same ordering and strategy, otherwise replaced;
                        successive solves with one pattern (time windows) then analyse it once.
                        Not touched by the banded backend.  Free it with vm_newton_symbolic_free
                        (default NULL) */
  double *jac_sumsq;   /* NULL, or where J's callback may store sum_p Jx[p]^2 of the values it
                        returns (summed in any order; not finite when an entry is not, or on
                        overflow), made while they were in the cache: Newton then skips its own
                        pass over them (the finiteness check, which then only looks for the
                        entry to name when the sum is not finite, and ||J||_F of the bound of
                        1').  Newton stores -1 there before each call; a callback that leaves
                        -1 gets the pass (default NULL) */
} vm_newton_opts;

/* Kinds of steps in vm_newton_info.kind_hist. */
enum { VM_NEWTON_START = 0, VM_NEWTON_FULL, VM_NEWTON_DAMPED, VM_NEWTON_LM, VM_NEWTON_CHORD };

/* The name of a kind of step as progress output prints it: "start", "newton", "damped", "lm",
 * "chord"; "?" for any other value. */
const char *vm_newton_kind_name (int kind);

typedef struct
{
  int status;          /* the value returned by vm_newton_solve */
  char message[256];   /* what happened, with the best residual */
  int iterations;      /* steps taken */
  int nhist;           /* entries of the histories: iterations + 1 */
  double *res_hist;    /* res_hist[k] = ||F(x_k)||_W, x_0 the initial guess */
  double *step_hist;   /* step_hist[k] = ||x_k - x_{k-1}||_inf (step_hist[0] = 0) */
  double *lambda_hist; /* line-search factor t of the step to x_k (1 full, < 1 damped); the
                          Levenberg-Marquardt parameter mu for an LM step; 0 for k = 0 */
  int *kind_hist;      /* VM_NEWTON_START (k = 0), _FULL, _DAMPED, _LM or _CHORD (a full step
                          with a reused factorization, step 2') */
  double round_level;  /* the last rounding level tol_round eps || W |J| |x| ||_2 computed (0 if
                          off or never needed: f_k above its bound, step 1'); with J(x_m) when
                          1'' ended the solve */
  double final_res;    /* ||F(x)||_W at the returned x (the best iterate; NaN when F(x0) failed) */
  double res_scale;    /* the scale of the residual test that was used */
  long nfev, njev;     /* residual and Jacobian evaluations */
  long nfactor;        /* numeric factorizations (Jacobian and augmented LM systems) */
  long nchol;          /* of those, Cholesky factorizations of J (option definite) */
  long nchol_fail;     /* Cholesky factorizations tried on a J that was not definite (option
                          definite), each followed by an LU of the same J */
  long nreuse_factor;  /* accepted chord steps: steps that reused a factorization instead of
                          evaluating and factoring J (each one a factorization saved) */
  long nreuse_reject;  /* chord trials rejected (not contracting enough, or a non-finite
                          correction): each cost a solve and a residual evaluation, then J was
                          evaluated and factored at the same point */
  long nsymbolic;      /* UMFPACK symbolic analyses: 1 for J (0 when reused from opts.symbolic
                          or with the banded backend), +1 when the LM fallback was needed with
                          UMFPACK */
  int linsolve;        /* the backend of J's systems: VM_LINSOLVE_UMFPACK or _BANDED (the choice
                          of AUTO; 0 when the solve stopped at the argument checks) */
  int kl, ku;          /* the lower and upper bandwidths of J's pattern (either backend) */
  int lean;            /* the banded LU of J keeps U only (linsolve.h option lean; no chord
                          steps with an LU; nchol counts the Cholesky factors, held as without
                          lean) */
  int linsolve_lm;     /* the backend of the LM systems (0: no fallback was needed) */
  double t_fun, t_jac; /* wall-clock seconds in the residual and Jacobian callbacks */
  double t_symbolic, t_numeric, t_solve;  /* ... in the linear solver's symbolic analyses
                          (UMFPACK only), numeric factorizations (banded: the band's fill, dgbtrf
                          and the pivot ratio) and solves (all systems) */
  int nlm;             /* accepted Levenberg-Marquardt steps */
  int ndamped;         /* accepted damped Newton steps (t < 1) */
  int nrelaxed;        /* full Newton steps taken by the non-monotone test (step 3) that raised
                          ||F||_W above the best residual */
  int nwatchdog;       /* returns to the best iterate after nonmonotone_max relaxed steps without
                          a new best (step 3) */
} vm_newton_info;

/* Defaults (see vm_newton_opts). */
void vm_newton_opts_init (vm_newton_opts *o);

/* An empty info (NULL arrays); call once before the first vm_newton_solve (or zero the struct). */
void vm_newton_info_init (vm_newton_info *info);

/* Free the arrays of info and leave it empty (reusable).  NULL is ignored. */
void vm_newton_info_free (vm_newton_info *info);

/* The problem: F(x) = 0 with the Jacobian pattern (colptr[n+1], rowind[nnz], CSC, rows strictly
 * increasing in each column, nnz = colptr[n]), the callbacks and their context. */
typedef struct
{
  int n;                       /* unknowns and equations (>= 1) */
  const int64_t *colptr, *rowind;
  vm_newton_fn F;
  vm_newton_jac J;
  void *ctx;                   /* passed to F and J */
} vm_newton_problem;

/* Solve F(x) = 0 (the iteration above).
 *   p      the problem (not copied; read during the solve)
 *   x[n]   in: the initial guess (finite); out: the best iterate
 *   o      options (NULL: vm_newton_opts_init)
 *   info   statistics and histories (may be NULL); initialized, zeroed or used before (its
 *          previous arrays are freed)
 * Returns (and stores in info->status):
 *   VM_OK                  converged (residual, rounding-level or step test)
 *   VM_ENEWTON_MAXIT       max_iter steps without convergence
 *   VM_ENEWTON_STALL       no acceptable step (line search and LM failed, or LM disabled)
 *   VM_ENEWTON_SINGULAR    singular Jacobian and lm_fallback == 0
 *   VM_ENEWTON_NONFINITE   F(x0) or a Jacobian value not finite, or (no line search) F at the new
 *                          iterate not finite
 *   VM_EUMFPACK            UMFPACK failed (other than for singularity or memory; code in message)
 *   VM_ENOMEM, VM_EARG     (x unchanged on VM_EARG: a bad pattern, option or guess, or a band
 *                          too large for LAPACK's indices with linsolve = VM_LINSOLVE_BANDED)
 *   a callback's nonzero code, passed through (use codes distinct from vm_status values).
 * Cost per iteration: one Jacobian and one factorization (none for a chord step), one solve, one
 * residual per line-search or chord trial; the argument checks read the pattern once. */
int vm_newton_run (const vm_newton_problem *p, double *x, const vm_newton_opts *o,
                   vm_newton_info *info);

/* vm_newton_run with the problem's members as arguments (the form most callers use). */
#define vm_newton_solve(n, colptr, rowind, F, J, ctx, x, o, info)                             \
  vm_newton_run (&(const vm_newton_problem) { (n), (colptr), (rowind), (F), (J), (ctx) }, (x), \
                 (o), (info))

#endif
