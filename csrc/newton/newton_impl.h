/* newton_impl.h -- the Newton solver's memory (newton_mem) and the functions its files share,
 * private to csrc/newton/ (plain C99).
 *
 * vm_newton_run (newton_run.c) checks the arguments (newton_args.c), fills one newton_mem and
 * iterates; each step (newton_step.c) takes the memory and the iterate, the Levenberg-Marquardt
 * fallback (newton_lm.c) likewise; all of them share the helpers of newton.c.  The calls between
 * these files point one way, from the loop down.  Why one struct: the problem, the options, the statistics, the work
 * arrays, the held factorization and the globalization's state are what every step needs, as
 * CVODE keeps them in CVodeMem.
 */
#ifndef VM_NEWTON_IMPL_H
#define VM_NEWTON_IMPL_H

#include <stdint.h>

#include "la/linsolve.h"
#include "newton/newton.h"

#define ARMIJO_C 1e-4        /* sufficient decrease of 1/2 ||F||^2 */
#define T_MIN 1e-10          /* smallest line-search factor */
#define LM_TAU 1e-3          /* mu_0 = LM_TAU max_j ||J(:,j)||^2 */
#define LM_RHO_MIN 1e-4      /* smallest gain ratio of an accepted LM step */
#define LM_MAX_TRIALS 40     /* mu increases per fallback */
#define MAX_ITER_CAP 1000000 /* the histories are allocated for max_iter + 1 entries */
#ifndef REUSE_DEFAULT
#define REUSE_DEFAULT 2      /* vm_newton_opts.reuse (newton.h) */
#endif
#define NONMONOTONE_DEFAULT 0.0   /* vm_newton_opts.nonmonotone (newton.h): off */
#define NONMONOTONE_MAX_DEFAULT 5 /* vm_newton_opts.nonmonotone_max */
#define NONMONOTONE_FAR 1e3       /* relaxed steps only while ||F|| > this * tol_res * scale */

typedef struct
{
  const vm_newton_problem *p;   /* the caller's problem: pattern, callbacks, their context */
  const vm_newton_opts *o;      /* the options (the defaults when the caller gave none) */
  vm_newton_info *inf;          /* the statistics being built */
  int n;
  int64_t nnz;
  const int64_t *Ap, *Ai;    /* the caller's pattern of J */
  double *Jx;                /* values of J at the current iterate */
  double *vec;               /* the eight n-vectors below, in one block (vm_scratch.h) */
  double *F, *Ft;            /* F at the current iterate and at the trial point */
  double *dx, *xt, *xbest, *w;
  double *wt;                /* per-equation weights of the residual norm (all 1 when none given) */
  double *jx;                /* |J| |x| (rounding level of F) */
  double wmax;               /* the largest weight */
  double jfro;               /* ||J||_F of the values in Jx (set with them; Inf when it overflows) */
  vm_linsolve_opts lo;       /* the linear solver options of J (from vm_newton_opts) */
  vm_linsolve ls;            /* J's linear solver */
  /* augmented LM system K = [I J; J^T -mu I] of order 2n, interleaved (r_i at 2i, dx_j at
   * 2j+1: banded when J is), built at the first fallback */
  int64_t *Kp, *Ki;
  double *Kx, *kb, *ksol;
  int64_t *kposJ, *kposT, *kposmu;
  vm_linsolve lsK;           /* K's linear solver (lsK.n = 0: not set up) */
  double mu_next;            /* mu for the next consecutive LM step (0: start afresh) */
  int held;                  /* a nonsingular factorization of J(x_m) is held in ls (w->Jx its
                                values): chord steps may use it (newton.h 2') */
  int nchord;                /* chord solves with it so far */
  double fbest;              /* the smallest ||F||_W seen, at iteration kbest (x there: xbest) */
  int kbest;
  double target;             /* tol_res * scale: the residual test's bound */
  int nrelax;                /* steps since the first relaxed step (newton.h 3) without a new best
                                residual (0: no relaxed sequence under way) */
  int relaxed_step;          /* the step being accepted was taken by the non-monotone test */
  int relax_off;             /* the watchdog went back once: monotone from then on */
} newton_mem;

/* One iteration's step (the helpers below fill it). */
typedef struct
{
  int accepted;   /* a step to w->xt was accepted (F there in w->Ft, its norm ft) */
  int kind;       /* VM_NEWTON_FULL, _DAMPED, _LM or _CHORD */
  int step_conv;  /* the step test passed: converged after this step */
  int stop;       /* converged at x_k (message set) */
  double t, ft;   /* line-search factor (LM: mu) and ||F(xt)||_W */
} newton_step_t;

/* ---- newton.c: helpers -------------------------------------------------------------------- */

/* F(x) into Fx, timed and counted in w->inf; the callback's code. */
int newton_call_F (newton_mem *w, const double *x, double *Fx);
/* info->message from a printf format. */
void newton_msg (vm_newton_info *inf, const char *fmt, ...);
/* ||v||_2 without spurious overflow or underflow; NaN if an entry is NaN, Inf if one is infinite. */
double newton_nrm2 (int n, const double *v);
/* ||diag(wt) v||_2, as newton_nrm2 (wt > 0). */
double newton_wnrm2 (int n, const double *wt, const double *v);
/* ||v||_inf; NaN if an entry is NaN. */
double newton_nrminf (int n, const double *v);
/* A failure of the linear solver ls: its reason in the message, st returned. */
int newton_ls_error (vm_newton_info *inf, const char *what, const vm_linsolve *ls, int st,
                     int iter);
/* Drop the held factorization of J before J's values change or the LM system is factored. */
void newton_drop_held (newton_mem *w);

/* ---- newton_args.c ------------------------------------------------------------------------ */

/* The problem, the options and the guess: VM_OK or VM_EARG (message set).  Cost: one pass over
 * the pattern. */
int newton_check_args (const vm_newton_problem *pb, const double *x, const vm_newton_opts *o,
                       vm_newton_info *inf);

/* ---- newton_step.c ------------------------------------------------------------------------ */

/* One step from x_k (f = ||F(x_k)||_W): a chord step when allowed and accepted, otherwise J(x_k),
 * its factorization and the Newton step, or the LM fallback.  VM_OK with s->accepted, or s->stop
 * (converged at x_k); another status ends the solve (message set). */
int newton_one_step (newton_mem *w, const double *x, double f, int k, newton_step_t *s);

/* ---- newton_lm.c -------------------------------------------------------------------------- */

/* No Newton step at x_k (J singular or the line search failed): the Levenberg-Marquardt step
 * (s->accepted, kind VM_NEWTON_LM, mu in s->t), or without the fallback the final status
 * (message set). */
int newton_fallback (newton_mem *w, const double *x, double f, int singular, int k,
                     newton_step_t *s);

#endif
