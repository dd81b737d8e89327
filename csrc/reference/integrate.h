/* integrate.h -- initial value problems y' = F(t, y), y in R^n (plain C99).
 *
 * The sources: integrate.c (entry), erk.c (one adaptive explicit Runge-Kutta driver) with the
 * method tables erk_dopri5.c and erk_dop853.c, ode_fixed.c and gauss_legendre.c (fixed step),
 * ode_accept.c (after an accepted step), ode_events.c, ode_output.c; their shared memory struct
 * is in ode_mem.h.
 *
 * Methods:
 *   VM_ODE_DOPRI5  Dormand-Prince 5(4) with FSAL, Hairer's step-size controller (safety 0.9, factor
 *                  bounds 0.2..10, PI stabilization beta = 0.04, no step increase right after a
 *                  rejection) and Hairer's 4th-order continuous extension (5 dense coefficients).
 *   VM_ODE_GL4     Gauss-Legendre collocation, 2 stages, order 4, fixed step.
 *   VM_ODE_GL6     Gauss-Legendre collocation, 3 stages, order 6, fixed step.
 *   VM_ODE_RK4     the classical Runge-Kutta method, order 4, fixed step.
 *   VM_ODE_DOP853  Dormand-Prince 8(5,3) (Hairer's DOP853): 12 stages, FSAL (F at the new point,
 *                  evaluated after acceptance, is the first stage of the next step), the error
 *                  err = |h| E5^2 / sqrt(n (E5^2 + 0.01 E3^2)) combining the 5th- and 3rd-order
 *                  estimates (E5, E3 weighted sums of squares as in DOPRI5's norm), Hairer's DOP853
 *                  controller defaults (safety 0.9, factor bounds 0.333..6, beta = 0 i.e. no PI
 *                  term, exponent 1/8, no step increase right after a rejection, starting step of
 *                  HINIT with order 8) and Hairer's 7th-order continuous extension CONTD8 (3 more
 *                  evaluations per accepted step, only when dense output is needed).
 *                  Per attempted step 11 evaluations, per accepted step 1 more (+3 dense).
 * The Gauss methods are symplectic and conserve quadratic invariants (up to the Newton tolerance and
 * rounding; the update y0 + h sum b_i F(Y_i) uses F at the converged stages and compensated
 * summation).  Their stage equations are solved by simplified Newton: a forward-difference
 * Jacobian of F once per step, the dense (s n) x (s n) matrix I - h A (x) J factored by LAPACK
 * dgetrf (meant for small and moderate n), starting values extrapolated from the previous step's
 * collocation polynomial (first step: explicit Euler).  When Newton fails (no convergence within
 * newton_maxit iterations, divergence, a singular matrix or non-finite stage values) the step is
 * halved, at most 10 times per step of the grid, the halved steps covering that grid step.
 * Fixed-step grids are t0 + k h (no accumulation of h), the last step shortened to end at tf (a
 * last step within 1e-12 h of h is merged, so (tf - t0)/h integral up to rounding gives no sliver).
 * DOPRI5, DOP853 and RK4 stop at the first non-finite trial value (no retry with a smaller step).
 * Stiffness detection (as in Hairer's code) is not implemented.
 *
 * Step check (opts->step_check, optional): a test of each step that the method has accepted, made
 * before the step is committed, for what an error estimate cannot see (the caller's example: a
 * thin layer of the right-hand side that all stages of a long step jump over, motion.h).  It
 * receives the step's ends (t, y) and (tn, yn) and either accepts (*factor = 1) or rejects
 * (*factor in (0, 1), the suggested fraction of the step).  A rejected step counts in nreject and
 * ncheck_reject.  DOPRI5, DOP853: the step is retried with its length times max(*factor, 1e-6),
 * and, as after an error rejection, the next step does not grow.  GL4, GL6, RK4: the grid step is
 * subdivided into 2^k equal sub-steps, k raised by ceil(log2(1 / *factor)) (at least 1) at each
 * rejection, the sub-steps covering that grid step (as the Newton halvings do; the k of both add
 * up); beyond VM_ODE_CHECK_LEVELS = 30 levels the run fails with VM_ELAYER.  On acceptance the
 * check may bound the next step: *hnext (> 0; HUGE_VAL: no bound) caps the magnitude of the next
 * adaptive step, and the fixed-step methods start the next grid step at the level k that makes
 * the sub-step at most *hnext.  A nonzero return of the check aborts the integration with that code.
 *
 * Dense output (used for output times and for event location): DOPRI5 and DOP853 their continuous
 * extensions (orders 4 and 7), GL4/GL6/RK4 the cubic Hermite interpolant of the step-end values
 * and derivatives.
 *
 * Events: after each accepted step the event functions are evaluated at the step end; an event k
 * fires when g_k changes from a nonzero sign at the step start to zero or the opposite sign at the
 * step end, in the direction allowed by event_dir.  Its time is located on the dense output by the
 * Illinois method to event_tol; the located time is on the far side of the zero (g_k has its new
 * sign or is 0 there), so a restart from the event state does not find the same crossing again.
 * A zero exactly at the start of the step (in particular at t0) is never reported.  Events that fire
 * in one step are recorded in time order; the first terminal one stops the integration there.
 * Two zeros of one g_k inside one step (no sign change at the ends) are not detected.
 *
 * Integration backwards (tf < t0) is supported; output times must then decrease.
 *
 * Return value and sol->status: VM_OK when tf was reached; VM_STOP_EVENT when a terminal event
 * stopped the integration (sol->t_end is the event time and the state there is the last stored
 * point); VM_EHMIN, VM_EMAXSTEPS, VM_ENONFINITE, VM_ENEWTON, VM_ELAYER, VM_ENOMEM, VM_EARG,
 * VM_ETSPAN (see vm_status.h); or the nonzero code returned by the RHS, the event function or the
 * step check, passed through unchanged (use codes that differ from the vm_status values, e.g. negative ones).
 * sol->t_end is the last time reached at which the state and F were finite.
 * The solution is stored up to the point of failure on every path.
 */
#ifndef VM_INTEGRATE_H
#define VM_INTEGRATE_H

#include <stddef.h>

/* F(t, y) into dydt (n values).  0 = ok; a nonzero return aborts the integration with that code. */
typedef int (*vm_rhs_fn) (double t, const double *y, double *dydt, void *ctx);
/* nevent values g_k(t, y) into g.  0 = ok; a nonzero return aborts with that code. */
typedef int (*vm_event_fn) (double t, const double *y, double *g, void *ctx);
/* Step check (see above): *factor = 1 accepts the step from (t, y) to (tn, yn) (n values each),
 * *factor in (0, 1) rejects it; *hnext: on acceptance, a bound on the magnitude of the next step
 * (HUGE_VAL: none).  0 = ok; a nonzero return aborts with that code. */
typedef int (*vm_step_check_fn) (double t, const double *y, double tn, const double *yn,
                                 double *factor, double *hnext, void *ctx);

/* The system y' = F(t, y): its dimension, F, the event function (NULL: none) and the context
 * passed to both (and to the step check). */
typedef struct
{
  int n;
  vm_rhs_fn f;
  vm_event_fn ev;
  void *ctx;
} vm_ode_system;

#define VM_ODE_CHECK_LEVELS 30  /* fixed-step methods: sub-step levels for the step check */

enum { VM_ODE_DOPRI5 = 0, VM_ODE_GL4, VM_ODE_GL6, VM_ODE_RK4, VM_ODE_DOP853 };

typedef struct
{
  int method;
  double rtol, atol;          /* DOPRI5, DOP853: err_i / (atol + rtol*max(|y_i|,|ynew_i|)) */
  double h0;                  /* DOPRI5, DOP853 initial step magnitude (0: Hairer's algorithm) */
  double hmax;                /* DOPRI5, DOP853 maximal step magnitude (0: |tf - t0|) */
  double h;                   /* fixed step magnitude of GL4, GL6, RK4 (> 0) */
  long max_steps;             /* attempted steps, rejected ones included (0: 10^7) */
  int nevent;                 /* number of event functions (0: none) */
  const int *event_dir;       /* per event: +1 rising zeros only, -1 falling only, 0 both (NULL: 0) */
  const int *event_terminal;  /* per event: nonzero stops the integration there (NULL: none) */
  double event_tol;           /* time tolerance of event location (0: 1e-12*max(1,|t|)) */
  double newton_tol;          /* GL: |Newton increment|_inf <= newton_tol*(1 + |y|_inf) (0: 1e-14) */
  int newton_maxit;           /* GL: Newton iterations per attempt (0: 50) */
  vm_step_check_fn step_check;  /* test of accepted steps, called with ctx (NULL: none) */
  int keep_steps;             /* with output times: the steps still in t, y; the output times in
                                 tq, yq (0: the output times replace the steps in t, y) */
} vm_ode_opts;

typedef struct
{
  int n;                      /* state dimension of the last solve */
  size_t npts;                /* stored points */
  double *t;                  /* t[k], k < npts */
  double *y;                  /* y[k*n + i] */
  size_t nevents;             /* recorded events, in the order of occurrence */
  double *te;                 /* te[k] */
  double *ye;                 /* ye[k*n + i] */
  int *ie;                    /* ie[k]: index of the event function, 0-based */
  size_t nout;                /* keep_steps: the output times reached ... */
  double *tq;                 /* ... tq[k] (the requested times), k < nout */
  double *yq;                 /* ... and the dense output there, yq[k*n + i] */
  long nsteps;                /* attempted steps (accepted + rejected / Newton failures) */
  long naccept, nreject;      /* nreject includes the step check's rejections */
  long ncheck_reject;         /* steps rejected by the step check */
  long nfev;                  /* RHS evaluations (Jacobian columns included) */
  long nnewton_iter;          /* GL: simplified Newton iterations */
  long njac, nlu;             /* GL: Jacobians, LU factorizations */
  long ngev;                  /* event function evaluations */
  int status;                 /* the value returned by vm_ode_solve */
  double t_end;               /* time reached (event time after a terminal event) */
  size_t cap_t, cap_y, cap_te, cap_ye, cap_ie, cap_tq, cap_yq;  /* private: allocated lengths */
} vm_ode_sol;

/* The DOP853 coefficients used by the integrator (for tests).  Stages numbered from 0; stages 0..11
 * make the step, stage 12 is the new point (row 12 of a is b), stages 13..15 serve the dense
 * output only.  c[16]; a[16*16] row-major, a[i*16 + j] for j < i; b[12] (order 8); er[12] (the
 * 5th-order error estimate is h sum er_i k_i); bhh[12] (order 3, nonzero at stages 0, 8, 11: the
 * 3rd-order estimate is h sum (b_i - bhh_i) k_i); d[4*16] the rows d4..d7 of CONTD8. */
typedef struct
{
  const double *c, *a, *b, *er, *bhh, *d;
} vm_dop853_coeffs;
const vm_dop853_coeffs *vm_ode_dop853_coeffs (void);

/* Defaults for a method: rtol 1e-6, atol 1e-9, everything else 0 (automatic); h must be set
 * for the fixed-step methods. */
void vm_ode_opts_init (vm_ode_opts *opts, int method);

/* An empty solution (all pointers NULL).  Call once before the first vm_ode_solve. */
void vm_ode_sol_init (vm_ode_sol *sol);

/* Free the arrays of a solution and leave it empty (reusable). */
void vm_ode_sol_free (vm_ode_sol *sol);

/* Integrate from (t0, y0) to tf.  sol must have been initialized by vm_ode_sol_init (or zeroed) or
 * used before: its previous contents are discarded, its storage reused.
 * tout == NULL or ntout == 0: sol holds (t0, y0) and the end point of every accepted step.
 * Otherwise sol holds the states at tout[0..ntout-1] (strictly monotone in the direction of
 * integration, inside [t0, tf]) reached before the integration stopped, plus, after a terminal
 * event, the event point (not repeated when the last output time equals the event time).
 * With opts->keep_steps the steps stay where they are without output times (t, y: t0 and every
 * accepted step end) and the states at the output times reached go to tq, yq (nout of them), so
 * that asking for output times does not change the steps the caller sees (the step sequence
 * itself never depends on them: they are served by the dense output).
 * opts == NULL: vm_ode_opts_init (opts, VM_ODE_DOPRI5).  sys->ev may be NULL when
 * opts->nevent == 0.  Returns sol->status (see above); VM_EARG when sys or sol is NULL. */
int vm_ode_solve (const vm_ode_system *sys, double t0, double tf, const double *y0,
                  const double *tout, size_t ntout, const vm_ode_opts *opts, vm_ode_sol *sol);

#endif
