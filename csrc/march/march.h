/* march.h -- one time-marching driver for the discrete actions (SKG, dual): windows, guesses or base
 * states, Newton, error control, history (plain C99, no Octave headers).
 *
 * An action family implements vm_march_action: a discrete problem on one time window [ta, tb] with
 * N grid nodes whose critical point is the root of F(x) = 0 (n unknowns, a fixed CSC Jacobian
 * pattern).  The driver owns everything between windows: where the next window starts and how long
 * it is, the start of Newton's iteration (asked from the action), the Newton solve itself
 * (csrc/newton/newton.h), the error estimate and the accept / reject decision, and the output.
 * Its state is one memory struct (march_impl.h); the files, from the top down: march_run.c (the
 * entry vm_march and its checks), march_fixed.c, march_adaptive.c (the two modes),
 * march_window.c (one window), march_record.c (the output), march.c (defaults, SBP facts,
 * messages, the solution's lifetime), march_interp.c (dense output).
 *
 * Window state.  What passes from one window to the next is the state xa (nstate values: SKG the
 * position and the scheme velocity; dual the differential states).  Each window's output is its
 * trajectory on its N nodes: nout values per node, of which the first nerr enter the error
 * estimate (SKG: q, qdot, then the multipliers; dual: y, then the duals).
 *
 * Modes (vm_march_opts.windows)
 *   fixed (windows = W >= 1)  W windows of equal length, N nodes each; no error control (an
 *                             estimate is still computed when estimate != 0).  A window whose
 *                             Newton solve fails ends the march: its best iterate is kept, later
 *                             nodes are NaN.
 *   adaptive (windows = 0)    the driver chooses each window's length L (N fixed): the window is
 *                             solved with the main action (order p) and, from that solution, with
 *                             the companion action (vm_march_companion_order, on the same N
 *                             nodes); err = max over nodes and over the nerr values of
 *                             |x_p - x_c| / (atol + rtol max_window |x_p|), and at least the
 *                             defect of the window's initial data.
 *                             err <= 1: accepted (the main solution is kept, as an embedded
 *                             Runge-Kutta pair keeps its lower-order solution when it does not
 *                             extrapolate); the next length is
 *                             L min(4, max(0.2, 0.9 err^(-1/(p+2)))), at most L after a
 *                             rejection.  Why 1/(p+2): the local error of order p+2 in L (the
 *                             max-norm order p+1 of the SBP-SAT scheme in h = L/(N-1), times L);
 *                             the estimate grows more slowly in practice (doc/skg.md,
 *                             "Controller"), so this exponent is the cautious one.
 *                             err > 1: rejected, retried with L max(0.1, 0.9 err^(-1/(p+2))).  A
 *                             failed Newton solve (main or companion): rejected, retried with L/2,
 *                             and that length L/2 bounds the following windows, the bound growing
 *                             by VM_MARCH_NEWTON_CAP_GROWTH with each accepted one.  Why: a stiff
 *                             problem whose solves fail above some length returns there every few
 *                             windows, not after every second one, and a local failure (an
 *                             impact) is forgotten after a few windows.
 *                             An accepted estimate is followed by the action's check, when it
 *                             has one (vm_march_action.check): a veto rejects the window too
 *                             (VM_MARCH_REJ_CHECK), retried with the length the check suggests.
 *                             Below hmin the march stops with VM_EHMIN and a message that says
 *                             where and why.  The first length is h0, or T/16 when 0 (at most
 *                             hmax).  An interval shorter than hmin is refused before the first
 *                             window (VM_EARG).  MaxWindows: after max_windows attempts the march
 *                             stops (VM_EMAXSTEPS) with an estimate of the windows still needed;
 *                             it stops early, at a multiple of VM_MARCH_STALL_WINDOWS attempts,
 *                             when the longest accepted length has not doubled over the last
 *                             VM_MARCH_STALL_WINDOWS attempts and the rest of the interval would
 *                             need, at that length or at the pace of those attempts (the time
 *                             they advanced), more than VM_MARCH_STALL_FACTOR times the attempts
 *                             left.  Why: a march that cannot finish says so early instead of
 *                             running all max_windows attempts.
 *
 * Each rejection is recorded (time, length, reason, err).  The driver prints through opts.print
 * while it runs (display 2: each Newton iteration and each window; 1: one final line).
 */
#ifndef VM_MARCH_H
#define VM_MARCH_H

#define VM_MARCH_STALL_WINDOWS 1000   /* attempts between the checks of a stalled march */
#define VM_MARCH_STALL_FACTOR 100     /* windows needed / windows left that stops it early */
#define VM_MARCH_NEWTON_CAP_GROWTH 1.1 /* growth per accepted window of the bound after a failed
                                         Newton solve */

#include <stddef.h>
#include <stdint.h>

#include "newton/newton.h"

/* The discrete problem of one window.  Every function returns VM_OK or a vm_status code (a
 * failure of move/predict/from_traj/extract ends the march; Newton's failures are handled by the
 * driver).  self is the implementation's context, also the ctx of F and J. */
typedef struct
{
  void *self;
  int nstate;               /* values of the state passed between windows */
  int nout;                 /* values per node in a window's trajectory */
  int nerr;                 /* the first nerr of them enter the error estimate */
  int order;                /* SBP interior order (for the controller's exponent and messages) */
  int64_t N;                /* nodes per window */
  int64_t n;                /* Newton unknowns per window */
  const int64_t *colptr, *rowind;   /* the Jacobian pattern (valid after the first move) */
  const double *t;          /* the N nodes of the current window (valid after move) */
  vm_newton_fn F;
  vm_newton_jac J;
  /* Move to the window [ta, tb] with initial state xa. */
  int (*move) (void *self, double ta, double tb, const double *xa);
  /* The start x (n) of Newton's iteration (and, for the dual, the base state) on the current
   * window, predicted from xa and the previous accepted window: its nodes pt (pn of them, or
   * pn = 0 for the first window) and trajectory ptraj (column-major, leading dimension ldp). */
  int (*predict) (void *self, const double *xa, const double *pt, const double *ptraj, int64_t pn,
                  int64_t ldp, double *x);
  /* The start x from a trajectory on the current window's nodes (another order's solution, or a
   * caller's guess): traj column-major, leading dimension ld, at least the values the action
   * needs (SKG: the first n columns, q; dual: the first ny, y). */
  int (*from_traj) (void *self, const double *traj, int64_t ld, double *x);
  /* Residual weights and scale of the Newton test at the start x (newton.h res_weight,
   * res_scale); o holds the driver's options and is completed here. */
  int (*newton_setup) (void *self, const double *x, vm_newton_opts *o);
  /* The trajectory (N x nout, leading dimension ld) and the end state (nstate) at the solution x. */
  int (*extract) (void *self, const double *x, double *traj, int64_t ld, double *xend);
  /* NULL, or told that the window of the last extract was accepted (diagnostics). */
  void (*accepted) (void *self);
  /* NULL (default: no check), or the acceptance check of an adaptive window whose error estimate
   * passed (called after the repeats; never on a fixed grid, never for the companion): what the
   * estimate cannot see, e.g. a contact layer that both orders step over (skg_solve.c,
   * contact_check.h).  traj: the window's trajectory as extract wrote it (N x nout, leading
   * dimension ld, on the nodes t).  Returns VM_OK and sets *ok: 1 accepts the window; 0 rejects
   * it (VM_MARCH_REJ_CHECK, recorded with its error estimate): *factor is the suggested length
   * of the retry relative to this window (the driver uses it clamped to [0.01, 0.9], and 0.5
   * when it is not a number > 0), why gets a one-line reason (at most nwhy bytes; the driver
   * prints it with display 2 and in its message when the window length collapses).  Any other
   * return code ends the march with that status. */
  int (*check) (void *self, const double *traj, int64_t ld, int *ok, double *factor, char *why,
                size_t nwhy);
  const char *check_name;   /* a word for the check's rejections, e.g. "contact" (NULL: "check") */
} vm_march_action;

/* Why a window was rejected (vm_march_sol.rej_reason). */
enum { VM_MARCH_REJ_ERROR = 1,      /* error estimate above the tolerance */
       VM_MARCH_REJ_NEWTON = 2,     /* Newton did not converge (main action) */
       VM_MARCH_REJ_COMPANION = 3,  /* Newton did not converge for the companion order */
       VM_MARCH_REJ_CHECK = 4 };    /* the action's check vetoed the window (vm_march_action.check) */

typedef struct
{
  double t0, tf;            /* the interval, tf > t0 (default 0, 1) */
  int windows;              /* W >= 1: fixed grid; 0: adaptive (default 0) */
  double rtol, atol;        /* error control (defaults: the schema's RelTol, AbsTol; atol > 0, rtol >= 0) */
  int estimate;             /* fixed mode: also solve the companion and report the estimate
                               (default 0) */
  double h0;                /* adaptive: first window length (0: automatic) (default 0) */
  double hmax;              /* adaptive: longest window (0: tf - t0) (default 0) */
  double hmin;              /* adaptive: shortest window (0: vm_march_hmin) (default 0) */
  int max_windows;          /* adaptive: attempted windows, accepted or not (default 100000) */
  int repeat;               /* solve each accepted window this many more times, each from the
                               previous solve's trajectory (from_traj): the dual's base-state
                               iteration (default 0) */
  const double *guess;      /* fixed mode: NULL, or a trajectory on the whole grid (Ntot rows,
                               leading dimension Ntot, the columns from_traj reads) (default NULL) */
  vm_newton_opts newton;    /* Newton options of every window (default vm_newton_opts_init) */
  int display;              /* 0 silent, 1 final line, 2 every Newton iteration and window
                               (default 0) */
  void (*print) (void *ctx, const char *line);   /* where lines go (NULL: stdout) */
  void *print_ctx;
  const char *name;         /* prefix of the printed lines (default "march") */
} vm_march_opts;

typedef struct
{
  int status;               /* VM_OK, VM_EHMIN, VM_EMAXSTEPS, a Newton code (fixed mode), or an
                               error of the action */
  char message[1024];
  int nout;
  int64_t ntot;             /* nodes of the output (the junction node of two windows once) */
  double *t;                /* ntot */
  double *traj;             /* ntot x nout, column-major (leading dimension ntot) */
  int nwin;                 /* accepted windows */
  double *win_t0, *win_t1;  /* nwin: their intervals */
  double *win_err;          /* nwin: their error estimates (NaN when not estimated) */
  int *win_iter;            /* nwin: Newton steps of the main solve */
  int *win_citer;           /* nwin: Newton steps of the companion solve (0 when none) */
  int *win_status;          /* nwin: Newton status of the main solve (fixed mode: non-OK for
                               the failed window) */
  int64_t *win_first;       /* nwin + 1: window w's nodes are win_first[w] .. win_first[w+1]-1 of
                               the output, plus the shared node win_first[w] - 1 for w > 0 */
  int nrej;                 /* rejected attempts */
  double *rej_t0, *rej_len, *rej_err;   /* nrej: start, length, error estimate (NaN if none) */
  int *rej_reason;          /* nrej: VM_MARCH_REJ_* */
  char check_name[24];      /* the main action's check_name ("check" when it has none) */
  int nunresolved;          /* fixed grid: windows the action's check vetoes (they are kept:
                               the grid is the caller's; the message says so) */
  char check_why[200];      /* the first of them: "window k: " and the check's text */
  int iterations;           /* Newton steps, all solves (main, companion, rejected) */
  int nround;               /* successful solves that stopped at the rounding level of the
                               residual (newton.h test 1') or at a step below rounding, above
                               the residual tolerance: Tol cannot be reached there */
  double round_res;         /* the largest final ||F||_W / scale among them (0 if none) ... */
  double round_tol;         /* ... and the tolerance tol_res of that solve */
  long nfactor;
  long nreuse_factor;       /* Newton's chord steps (newton.h 2'): factorizations saved */
  long nchol, nchol_fail;   /* Cholesky factorizations, and those tried on a Jacobian that was
                               not definite (newton.h option definite; all solves) */
  int linsolve, kl, ku;     /* the linear solver of the main action's Newton systems (newton.h
                               vm_newton_info: VM_LINSOLVE_UMFPACK or _BANDED, the bandwidths of
                               its Jacobian pattern), from its first solve; 0 before one */
  int lean;                 /* ... whose banded LU kept U only (vm_newton_info.lean) */
  double t_newton, t_total; /* wall-clock seconds: in Newton, in the whole march */
  double t_fun, t_jac, t_symbolic, t_numeric, t_solve;   /* Newton's parts (newton.h) */
  /* Newton history of the accepted main solves, window after window */
  int nhist;
  int *hist_win;            /* nhist: the accepted window (0-based) */
  double *res_hist, *step_hist, *lambda_hist;
  int *kind_hist;
} vm_march_sol;

void vm_march_opts_init (vm_march_opts *o);

/* The shortest window that N nodes resolve at time t of an interval of length T:
 * max (1e-12 (|t| + min (1, T)) (N - 1), 1e-100 (N - 1)): node spacings stay above rounding of t,
 * and the discrete equations' 1/h above overflow.  A fixed grid with shorter windows is refused
 * (VM_EARG, with a message), and so is an adaptive march over an interval shorter than it; the
 * adaptive march stops when a window would be shorter (VM_EHMIN). */
double vm_march_hmin (double t, double T, int64_t N);

/* The rounding level of Newton's residual (relative to the residual scale of the solve's test)
 * from which the message says that the error estimate does not bound the error (march.c
 * round_note) and vm_march returns VM_EUNRESOLVED: the dual's scale is the error tolerance's
 * residual, AbsTol + RelTol max|y| over the window's length; skg_solve's is the residual of the
 * window's start, so that its Newton made no progress at all. */
#define VM_MARCH_ROUND_UNRESOLVED 1.0

/* The companion order of the error estimate (sbp.h vm_sbp_companion_order: the next order of the
 * list, the one below for the largest); -1 for an unsupported order. */
int vm_march_companion_order (int order);
/* The smallest N per window for the SBP order (with_companion != 0: and for its companion order,
 * as the adaptive march needs); -1 for an order that sbp.h does not list.  The one place that the
 * front ends ask (through their gateways). */
int64_t vm_march_min_n (int order, int with_companion);
void vm_march_sol_init (vm_march_sol *s);
/* Frees the result's arrays (t and traj come from vm_scratch.h: free them only here, never with
 * free). */
void vm_march_sol_free (vm_march_sol *s);

/* March from (t0, xa0) to tf.  main: the action of the order returned; comp: the companion
 * action (same N, same window interface; may be NULL in fixed mode without estimate, required
 * otherwise); sol: initialized or used before (its arrays are freed first).  Returns
 * sol->status: VM_OK; VM_EARG (inconsistent arguments, or windows shorter than vm_march_hmin;
 * nothing marched); VM_ENOMEM; VM_EHMIN, VM_EMAXSTEPS (adaptive: the windows so far are kept);
 * VM_EUNRESOLVED (converged, but Newton's rounding level reached the residual scale:
 * VM_MARCH_ROUND_UNRESOLVED); Newton's code of a failed window (fixed grid); or an action's
 * error.  sol->message says what happened in every case.  Cost: one Newton solve per window and
 * order (plus the repeats) and O(ntot nout) for the output. */
int vm_march (vm_march_action *main, vm_march_action *comp, const double *xa0,
              const vm_march_opts *o, vm_march_sol *sol);

/* Dense output: the trajectory at nq times tq (within [t0, t_end]) by Lagrange interpolation of
 * degree deg (<= N - 1) on the nodes of the window that holds each time (the deg + 1 nodes
 * nearest to it); out is nq x nout column-major (leading dimension nq).  Returns VM_OK or VM_EARG
 * (a time outside the solved interval). */
int vm_march_interp (const vm_march_sol *sol, int deg, const double *tq, int64_t nq, double *out);

#endif
