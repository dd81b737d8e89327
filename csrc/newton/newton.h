/* newton.h -- a globalized Newton solver for F(x) = 0, x in R^n, with a sparse Jacobian (plain C99).
 *
 * Meant for grad S(x) = 0 of discrete action principles, whose Jacobian is the symmetric indefinite
 * Hessian of S; the solver itself treats J as a general square sparse matrix in compressed sparse
 * column (CSC) form with a fixed pattern, given once, and factors it by one of the two backends
 * of csrc/la/linsolve.h (option linsolve): UMFPACK's sparse LU (one umfpack_dl_symbolic per solve --
 * none when opts.symbolic already holds the analysis of this pattern --, one umfpack_dl_numeric
 * per factorization; ordering, strategy and iterative refinement are options: umf_ordering,
 * umf_strategy, umf_irstep) or LAPACK's banded LU (dgbtrf / dgbtrs on the band of the pattern in
 * its natural order, bandwidths kl and ku read from the pattern once per solve; no symbolic
 * phase).  The unknowns of the discrete actions are ordered by time node, so their Jacobians are
 * banded as they come (doc/skg.md); VM_LINSOLVE_AUTO picks the backend from the pattern
 * (vm_linsolve_auto: the measured rule, bench/README_band.md).  vm_newton_info reports the
 * backend, the bandwidths and the wall-clock time spent in the callbacks and in the linear
 * solver's phases.
 *
 * Residual norm: ||F||_W = ||diag(w) F||_2 with the caller's per-equation weights w_i > 0
 * (res_weight; all 1 by default, the plain 2-norm).  Every residual norm below -- the tests, the
 * line-search merit function, the LM least-squares problem, the histories and messages -- is this
 * one.  Weights make the test mean the same thing for discretizations of different sizes: when
 * equation i is a quadrature sum c_i r_i of a residual r_i of a continuous equation (c_i ~ h,
 * e.g. a discrete action gradient), w_i = 1/sqrt(c_i) gives sum_i c_i r_i^2, the discrete L2 norm
 * of r, which does not grow or shrink with the number of equations (doc/skg.md, "Stopping").
 *
 * Iteration (k = 0, 1, ...; F_k = F(x_k), f_k = ||F_k||_W):
 *   1. Convergence (residual): f_k <= tol_res * scale, where scale = res_scale if res_scale > 0,
 *      otherwise max(1, f_0): a relative test for large initial residuals that turns absolute
 *      (f_k <= tol_res) when f_0 <= 1.  Checked at x_0 too (0 iterations when x_0 already passes).
 *   1'. Convergence (rounding level; tol_round > 0): after J(x_k) is computed,
 *      f_k <= tol_round eps || W |J(x_k)| |x_k| ||_2 (eps = DBL_EPSILON; with x_offset, |x_k|
 *      + |x_offset| in the rows of offset_rows: see the option).  (|J| |x|)_i bounds the
 *      size of the terms that the evaluation of F_i cancels when x carries relative errors eps,
 *      so F cannot be computed (nor reduced) reliably below about that level: x_k is a root to
 *      within rounding of its own entries (a componentwise backward error of order eps).  The
 *      test never passes far from a root (there f_k is of the order of the terms, not eps times
 *      them).  Needed for discretizations whose rounding floor grows with the size: a difference
 *      operator with entries ~ 1/h gives F a floor ~ eps |x| / h per equation, above any fixed
 *      tol_res for small h, where Newton would otherwise stall (VM_ENEWTON_STALL or _MAXIT) at
 *      a point that is in fact converged.  The estimate is a bound: measured floors are 3 to 10
 *      times below it, so the iterate returned can be up to about one digit less accurate than
 *      the best attainable one.  Cost per Jacobian: a pass over its values and one over x for
 *      the bound max_i w_i ||J||_F ||x||_2 of || W |J| |x| ||_2 (Cauchy-Schwarz), and the
 *      pass over the pattern for |J| |x| only where f_k is below that bound (the test can
 *      pass only there: near convergence).
 *   1''. Convergence (rounding level with the held factorization; tol_round > 0, reuse > 0): when
 *      a factorization of J(x_m), m < k, is held and the step to x_k was a full (Newton or chord)
 *      step that contracted, f_k <= reuse_theta f_{k-1} (the premise of a chord step, 2'), and
 *      f_k <= 1/2 tol_round eps || W |J(x_m)| |x_k| ||_2, x_k is converged without J(x_k).  The
 *      estimate of 1' with J(x_m) for J(x_k): where steps with J(x_m)'s factors contract, the two
 *      differ little (the dual Lorenz at N = 4096: 8.174e-7 against 8.128e-7; Bratu in
 *      tests/c/test_newton.c: equal to 4 digits), and the factor 1/2 covers what they do.  Saves
 *      the Jacobian that 1' alone needs where a chord sequence lands at the rounding floor, as
 *      the large dual solves do (the floor grows with N; one Hessian of the dual Lorenz at N =
 *      4096 is 1.1 ms of a 23 ms solve).  Between 1/2 and 1 times that level J(x_k) is evaluated
 *      and 1' decides.
 *   2. Newton step: J(x_k) dx = -F_k by LU.  J counts as singular when the factorization meets
 *      an exactly zero pivot, when the pivot-based estimate of the reciprocal condition number
 *      of the row-scaled matrix (min |U_ii| / max |U_ii|: UMFPACK's Info[UMFPACK_RCOND], and the
 *      same for the banded LU; linsolve.h) is below DBL_EPSILON or NaN, or when the computed dx
 *      is not finite.
 *   2'. Chord step (factorization reuse; reuse > 0, tol_round > 0): when a factorization of
      J(x_m), m < k, is held, has served fewer than reuse chord steps, the step to x_k was a full
      (Newton or chord) step that contracted, f_k <= reuse_theta f_{k-1}, and f_k is above the
      rounding level of 1' estimated with J(x_m) (tol_round eps || W |J(x_m)| |x_k| ||_2), the
      correction dx = -J(x_m)^{-1} F_k is computed with the held factors (no Jacobian, no
      factorization) and the full step is taken when ||F(x_k + dx)||_W <= reuse_theta f_k.
      Otherwise (also for a non-finite dx) the trial is discarded -- it cost one solve and one
      residual evaluation -- and J(x_k) is evaluated and factored for the Newton step of 2-3 at
      the same x_k.  No chord step after a damped or LM step, nor from the first iterate.
      Why the rounding-level test is required: chord steps converge linearly, so a chord
      sequence can reach the rounding floor of F while its steps are still above tol_step (Newton
      jumps past that region quadratically); there neither the line search (F cannot decrease)
      nor the step test can end the iteration, and it stalls (VM_ENEWTON_STALL; measured on the
      dual Lorenz action at N = 65536 when its solve had no rounding test, bench/README_skg.md;
      with the test it converges, in 8 iterations from bench_dual.m's base state, csrc/dual/dual.c).
      With tol_round > 0 the fallback's J(x_k) meets test 1' at that point, or 1'' ends the
      iteration before it.  The convergence tests: 1 looks only at F; 1' is checked at every
      evaluated Jacobian; 1'' uses the stale J(x_m) with a margin of 2; 5 accepts a chord correction by the same
      argument as a Newton one: a chord correction at x_k with the factors of J(x_m) is a step of
      the fixed-point map G(x) = x - J(x_m)^{-1} F(x), whose fixed points are the roots, and the
      previous full step (the Newton step from x_m, or a chord step with the same factors) was a
      step of the same G, so ||dx_k|| <= ||x_k - x_{k-1}|| / 2 measures G's contraction q <= 1/2
      and bounds the error of x_k by ||dx_k|| / (1 - q) <= 2 ||dx_k||.  A Newton correction after
      a chord step (a refactorization) approximates -(x_k - x*) to second order whatever step led
      to x_k, so the previous step's length serves as for two Newton steps.  Reuse trades
      factorizations for iterations (bench/README_skg.md, "Factorization reuse"); the result
      meets the same tests.  reuse = 0 gives the plain iteration (2, 3, ...) exactly.
   3. Line search (line_search != 0): backtracking on phi = 1/2 ||F||_W^2 along dx with the Armijo
 *      condition phi(x + t dx) <= (1 - 2 c t) phi(x), c = 1e-4 (phi'(0) = -||F||_W^2 for the Newton
 *      direction, whatever the weights), t = 1, 1/2, 1/4, ... while t >= 1e-10.  A trial point with a non-finite F is
 *      rejected like one without sufficient decrease.  Non-monotone test (nonmonotone > 1): while
 *      f_k > 1e3 tol_res scale (the globalization phase, far from the residual test's bound), the
 *      full step (t = 1) is also taken when ||F(x_k + dx)||_W <= nonmonotone f_best (f_best the
 *      smallest residual norm seen) although it fails Armijo's test.  A new best ends such a
 *      relaxed sequence; when nonmonotone_max steps after its first relaxed step bring no new
 *      best, the iteration goes back to the best iterate (one residual evaluation;
 *      info->nwatchdog) and is monotone from there to the end (a watchdog: Chamberlain,
 *      Powell, Lemarechal and Pedersen 1982; IPOPT's filter accepts such steps as well).  Why: a
 *      stiff force (a contact layer of width sigma) makes ||F|| grow along a Newton direction
 *      that is nevertheless right, and monotone backtracking then creeps with t = 1/16 .. 1/2 for
 *      tens of iterations (the tumbler of bench/README_skg.md from a constant start: 33
 *      iterations monotone, 10 with factor 3 and nonmonotone_max 5 (with 3 or 4 the watchdog
 *      returns too early: 36, 37); IPOPT takes 7 there, accepting steps that raise its
 *      infeasibility 7 times).  The price: a detour that fails costs up to nonmonotone_max + 1
 *      iterations (off by default here; skg_solve.h turns it on).  Near a root Newton's full
 *      steps pass Armijo's test anyway, and the iterate returned is always the best one (below),
 *      so the relaxed steps change the path, not what counts as converged.  line_search == 0: the full step is always
 *      taken (plain Newton; the residual may grow).
 *   4. Levenberg-Marquardt fallback (lm_fallback != 0), when J is singular or the line search
 *      fails: dx solves the regularized least-squares problem min ||F + J dx||_W^2 + mu ||dx||^2
 *      (below, with the weights folded in: F := W F, J := W J), i.e. (J^T J + mu I) dx = -J^T F, which has a unique solution for every mu > 0 and is a descent
 *      direction of phi whenever the gradient J^T F is nonzero -- for a symmetric indefinite J the
 *      shifted system (J + mu I) dx = -F has neither property (J + mu I is singular when -mu is an
 *      eigenvalue, and its step may ascend).  J^T J is never formed (it would square the condition
 *      number and fill in): the equivalent augmented system
 *          [ I    J    ] [ r  ]   [ -F ]
 *          [ J^T  -mu I] [ dx ] = [  0 ]         (r = -(F + J dx), the linearized residual)
 *      of order 2n, quasi-definite hence nonsingular for mu > 0, with 2 nnz(J) + 2n entries and a
 *      pattern independent of mu, is factored by the backend of option linsolve (AUTO: the rule
 *      applied to K's own pattern; UMFPACK's symbolic analysis done once, at the first fallback).
 *      Its unknowns are interleaved (r_i is unknown 2i, dx_j is 2j + 1), so that K is banded
 *      when J is (bandwidths at most 2 max (kl, ku) + 1); a factorization of K that fails the
 *      singularity test of step 2 counts as a too small mu (the trial is rejected).  mu starts at 1e-3 max_j ||J(:,j)||_2^2 and follows Nielsen's rule: a trial
 *      step is accepted when the gain ratio rho = (phi(x) - phi(x + dx)) / (1/2 ||J dx||^2 +
 *      mu ||dx||^2) exceeds 1e-4 (then mu *= max(1/3, 1 - (2 rho - 1)^3)); otherwise mu *= nu,
 *      nu *= 2 (nu starts at 2), at most 40 trials.  The fallback fails (VM_ENEWTON_STALL) when
 *      J^T F = 0 (x is a stationary point of ||F||^2 that is not a root: no descent method can
 *      move), when a trial step falls below rounding (||dx||_inf <= eps (1 + ||x||_inf)) or after
 *      40 trials.  After an LM step the next iteration tries Newton again.
 *   5. Convergence (step): when the Newton correction dx_k (from a nonsingular J; or the chord
 *      correction of 2', see there why it qualifies) satisfies
 *      ||dx_k||_inf <= tol_step (step_scale + ||x_k||_inf) and the previous step was a full
 *      (undamped) Newton or chord step at least twice as long (||dx_k|| <= ||x_k - x_{k-1}|| / 2:
 *      the iteration contracts, so the error of x_k is at most about 2 ||dx_k||, and of order
 *      ||dx_k||^2 with quadratic convergence).  x_k + dx_k is then taken if it does not increase
 *      ||F||, otherwise (at the rounding level of F) x_k is returned.  The contraction
 *      requirement keeps small steps that do not come from a converging Newton iteration --
 *      damped or LM steps, or those of a wrong Jacobian -- from passing for convergence.  tol_step = 0 disables the test.
 *
 * Limitation: 1/2 ||F||^2 is a merit function that cannot see the distance to a root when
 * components of F saturate (arctan-like, bounded residuals): a line search may then accept a step
 * that sends one such component far out while others decrease, and end in a flat region where
 * neither the line search nor LM makes progress.  That ends with VM_ENEWTON_STALL or
 * VM_ENEWTON_MAXIT (the residual stays large and the steps do not contract, so neither convergence
 * test passes).  An affine-invariant monotonicity test (Deuflhard's NLEQ) would avoid it; it is
 * not implemented.
 *
 * The returned x is always the best iterate (smallest ||F||_W seen; with a line search or LM every
 * accepted step decreases ||F||, so that is the last one), on every path after the argument checks,
 * errors of the callbacks included.  A return value other than VM_OK always means "not converged";
 * info->message says why and gives the best residual.
 *
 * Memory: the work arrays (8 n-vectors in one block and the Jacobian values, from vm_scratch.h,
 * which keeps them after the solve for the next one and maps them in huge pages from 2 MB on,
 * whose first touch costs fewer faults and whose passes stream faster than through 4 kB pages;
 * the histories, and the linear
 * solver's: UMFPACK a copy of the pattern in its index type when that is a type distinct from
 * int64_t (linsolve.h); banded the band of (2 kl + ku + 1) n doubles and 2 n ints, or under AUTO
 * for a band of 1 GiB or more U's packed columns, linsolve.h option lean) are allocated
 * once per solve, those of the augmented LM system once at the first fallback; the caller's
 * pattern is not copied otherwise.  Inside the iteration only UMFPACK allocates (its Numeric
 * object; the Symbolic objects are freed at the end, except a cached one).  With reuse = 0 the
 * Numeric object is freed after each Newton solve; with reuse > 0 a nonsingular one is held for
 * chord steps until J is next evaluated (it is dropped before the Jacobian callback and before
 * an LM step, so at most one Numeric object of J exists, as without reuse; it stays alive during
 * the residual callbacks of the chord trials and line searches).  The banded backend keeps its factors in the band in either case.  Every
 * path frees everything except the arrays of info (vm_newton_info_free).
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
                        off, every step refactors) (default 2: the measurement of bench/README_skg.md,
                        "Factorization reuse") */
  double reuse_theta; /* the contraction a chord step must reach, ||F(x_k + dx)||_W <= reuse_theta
                        ||F(x_k)||_W, and the one the previous step must have reached for a chord
                        step to be tried (0 < reuse_theta < 1) (default 0.25) */
  double nonmonotone; /* the non-monotone test of step 3: a full Newton step far from convergence
                        may raise ||F||_W up to this factor times the best residual seen
                        (0 .. 1e6; <= 1: off, the plain monotone line search) (default 0: off;
                        skg_solve.h sets 3, VM_SKG_NONMONOTONE, from the tumbler measurement in
                        step 3; dual_march.h 1e4, VM_DUAL_MARCH_NONMONOTONE, from stiff systems) */
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

/* Solve F(x) = 0.
 *   n              number of unknowns and equations (>= 1)
 *   colptr[n+1]    CSC column pointers of the Jacobian pattern (colptr[0] = 0, nondecreasing)
 *   rowind[nnz]    row indices (nnz = colptr[n]), in [0, n), strictly increasing within a column
 *   F, J, ctx      residual and Jacobian callbacks and their context
 *   x[n]           in: the initial guess (finite); out: the best iterate
 *   o              options (NULL: vm_newton_opts_init)
 *   info           statistics and histories (may be NULL); initialized by vm_newton_info_init or
 *                  zeroed or used before: its previous arrays are freed
 * Returns (and stores in info->status):
 *   VM_OK                  converged (residual or step test)
 *   VM_ENEWTON_MAXIT       max_iter steps without convergence
 *   VM_ENEWTON_STALL       no acceptable step: line search failed (and LM failed or is disabled)
 *   VM_ENEWTON_SINGULAR    singular Jacobian and lm_fallback == 0
 *   VM_ENEWTON_NONFINITE   F(x0) or a Jacobian value not finite, or (plain Newton, no line search)
 *                          F at the new iterate not finite
 *   VM_EUMFPACK            UMFPACK failed (other than for singularity or memory; code in message)
 *   VM_ENOMEM, VM_EARG     (x unchanged on VM_EARG; VM_EARG also for a band too large for
 *                          LAPACK's indices with linsolve = VM_LINSOLVE_BANDED)
 *   the nonzero code of a callback, passed through unchanged (use codes that differ from the
 *   vm_status values, e.g. negative ones). */
int vm_newton_solve (int n, const int64_t *colptr, const int64_t *rowind, vm_newton_fn F,
                     vm_newton_jac J, void *ctx, double *x, const vm_newton_opts *o,
                     vm_newton_info *info);

#endif
