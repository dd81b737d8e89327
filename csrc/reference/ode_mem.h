/* ode_mem.h -- private to the integrators of integrate.h: the memory of one vm_ode_solve call and
 * the functions the method files share (plain C99).
 *
 * vm_ode_mem holds everything a step needs: the problem (system, span, output times), the current
 * point and the end of the step just taken, the work vectors, the adaptive controller's state and
 * the Gauss-Legendre Newton data.  Every function below takes it and at most a few scalars, as
 * CVODE's functions take CVodeMem: the state lives in one place and a new method adds a table, not
 * a copy of the loop.
 *
 * Files, from the top down: integrate.c (entry, validation, memory), erk.c (the adaptive explicit
 * Runge-Kutta driver), erk_dopri5.c and erk_dop853.c (their method tables), ode_fixed.c (the
 * fixed-step grid, RK4), gauss_legendre.c (the implicit Gauss steps), ode_accept.c (the
 * bookkeeping after an accepted step: step check, events, output, advance), ode_events.c (event
 * location), ode_output.c (solution storage, dense output).
 */
#ifndef VM_ODE_MEM_H
#define VM_ODE_MEM_H

#include <stddef.h>

#include "reference/integrate.h"

#define VM_ERK_MAXSTAGE 16      /* stages of the largest table (DOP853 with its dense stages) */

typedef struct vm_ode_mem vm_ode_mem;

/* An explicit embedded Runge-Kutta method with error estimate and continuous extension, as the
 * adaptive driver (erk.c) uses it.  Stages are numbered from 0: stage 0 is F(t, y), stages
 * 1..nstage-1 make the step, row nstage of a is b (y1 = y + h sum b_j k_j) and stage nstage is
 * F(tn, y1), the first stage of the next step (FSAL); stages beyond nstage (up to nall - 1) serve
 * the dense output only.  A stage with c_j = 1 is evaluated at tn itself. */
typedef struct
{
  int nstage;                 /* s */
  int nall;                   /* stages of the table, dense ones included (<= VM_ERK_MAXSTAGE) */
  int lda;                    /* row length of a: a[i*lda + j] */
  const double *c, *a;
  int fsal_in_step;           /* 1: F(tn, y1) is evaluated with the step (its error needs it);
                                 0: after acceptance */
  int order;                  /* q of the controller's err^(1/q) and of the starting step */
  double beta;                /* PI stabilization: fac = err^(1/q - 0.75 beta) / facold^beta */
  double safe, facmin, facmax;  /* safety factor, bounds of hnew/h */
  int nk;                     /* stage vectors besides F(t, y) and F(tn, y1) */
  int nrc;                    /* dense coefficient vectors */
  /* the weighted error of the step (stages and y1 computed; w->ytmp holds sum b_j k_j) */
  int (*error) (vm_ode_mem *w, double h, double *err);
  /* the dense coefficients of an accepted step of size h (may evaluate F: a nonzero return) */
  int (*dense) (vm_ode_mem *w, double h);
  /* the continuous extension at theta = (tq - t)/h in (0, 1) */
  void (*dense_eval) (const vm_ode_mem *w, double th, double *out);
} vm_erk_method;

struct vm_ode_mem
{
  int n, method, s, nev;
  vm_rhs_fn f;
  vm_event_fn ev;
  void *ctx;
  const vm_ode_opts *o;
  vm_ode_sol *sol;
  double t0, tf, dir;
  const double *tout;
  size_t ntout, iout;
  int dense;                  /* dense output needed (output times or events) */
  double t, tn;               /* current point, end of the step just taken */
  double *y, *fy;             /* state and F at t */
  double *yn, *fn;            /* state and F at tn */
  double *yd, *yev, *ytmp;
  double *k;                  /* stage vectors: explicit RK nk n, RK4 3n */
  double *rc;                 /* dense coefficients (explicit RK) */
  /* adaptive explicit Runge-Kutta */
  const vm_erk_method *erk;   /* NULL for the fixed-step methods */
  double *K[VM_ERK_MAXSTAGE]; /* the stage vectors k_j (K[0] = fy and K[s] = fn set per step) */
  int nnz[VM_ERK_MAXSTAGE];   /* per row of a: its nonzeros, columns and values */
  int nzc[VM_ERK_MAXSTAGE][VM_ERK_MAXSTAGE];
  double nzw[VM_ERK_MAXSTAGE][VM_ERK_MAXSTAGE];
  double h, hmax, facold;     /* trial step, its bound, the last accepted error (PI term) */
  int reject, last;           /* the previous trial was rejected; this trial ends at tf */
  /* Gauss-Legendre */
  const double *gc, *ga, *gb;
  double *Z, *Zp, *Fz, *r, *J, *M, *comp, *compn;
  int *ipiv;
  double hprev;
  int have_prev;
  /* events */
  double *gold, *gnew, *gtmp, *cte;
  int *cidx;
  double event_tol;
  double hlim;                /* the step check's bound on the next step (HUGE_VAL: none) */
};

extern const vm_erk_method vm_erk_dopri5;   /* erk_dopri5.c */
extern const vm_erk_method vm_erk_dop853;   /* erk_dop853.c */

/* ode_output.c */
int vm_ode_all_finite (int n, const double *x);
/* F(t, y) into dy, counted in sol->nfev; the RHS's code */
int vm_ode_rhs (vm_ode_mem *w, double t, const double *y, double *dy);
int vm_ode_push_point (vm_ode_sol *s, int n, double t, const double *y);
/* a state at an output time into tq, yq (opts->keep_steps) */
int vm_ode_push_output (vm_ode_sol *s, int n, double t, const double *y);
int vm_ode_push_event (vm_ode_sol *s, int n, double t, const double *y, int k);
/* the dense output of the step [w->t, w->tn] at tq (the step's ends exactly at its ends) */
void vm_ode_dense_eval (const vm_ode_mem *w, double tq, double *out);

/* ode_events.c */
/* event values into g; nonzero user codes pass through, non-finite values give VM_ENONFINITE */
int vm_ode_events_at (vm_ode_mem *w, double t, const double *y, double *g);
/* the events of the accepted step, located and sorted by time into w->cte, w->cidx (*ncp) */
int vm_ode_event_candidates (vm_ode_mem *w, int *ncp);
/* record the candidates up to the first terminal one (*tstop, *ystop: where it stops) */
int vm_ode_push_events (vm_ode_mem *w, int nc, int *terminal, double *tstop, const double **ystop);

/* ode_accept.c */
/* events and output of an accepted step [w->t, w->tn]; *terminal = 1 after a terminal event */
int vm_ode_after_step (vm_ode_mem *w, int *terminal);
/* the current point moves to the end of the accepted step */
void vm_ode_advance (vm_ode_mem *w);
/* the step check of an accepted step to tn (w->yn); *ok = 0 with *factor on rejection */
int vm_ode_check_step (vm_ode_mem *w, double tn, int *ok, double *factor);

/* erk.c: the adaptive explicit Runge-Kutta driver with the method w->erk (its arrays allocated) */
int vm_erk_run (vm_ode_mem *w, int *terminal);
/* the stage vectors k_j, j0 <= j < j1, with nonzero weight wt[j]: pointers into kp, weights into
 * cw (VM_ERK_MAXSTAGE each); returns their number */
int vm_erk_gather (const vm_ode_mem *w, const double *wt, int j0, int j1, const double **kp,
                   double *cw);
/* y + h sum_j a[row][j] k_j into out (and sum_j a[row][j] k_j into inc unless NULL) */
void vm_erk_combine (vm_ode_mem *w, int row, double h, double *out, double *inc);
/* stage j: F(t + c_j h, y + h sum_l a_jl k_l) into k_j */
int vm_erk_eval_stage (vm_ode_mem *w, int j, double h, double tn);

/* ode_fixed.c: GL4, GL6, RK4 on the grid t0 + k h */
int vm_ode_run_fixed (vm_ode_mem *w, int *terminal);

/* gauss_legendre.c */
void vm_gl_setup (vm_ode_mem *w);
int vm_gl_jacobian (vm_ode_mem *w);
int vm_gl_attempt (vm_ode_mem *w, double hs, int *ok, int *nonfinite);

/* sum_l cw[l] kp[l][i] for m >= 1 terms, summed in the order given; the rows of the tables have
 * at most 9 nonzero terms, written out so that a short vector costs what an explicit formula
 * costs */
#define VM_ERK_T(l) (cw[l] * kp[l][i])
static inline double
vm_erk_wsum (int m, const double *cw, const double *const *kp, int i)
{
  double acc;
  int l;
  switch (m)
    {
    case 1:
      return VM_ERK_T (0);
    case 2:
      return VM_ERK_T (0) + VM_ERK_T (1);
    case 3:
      return VM_ERK_T (0) + VM_ERK_T (1) + VM_ERK_T (2);
    case 4:
      return VM_ERK_T (0) + VM_ERK_T (1) + VM_ERK_T (2) + VM_ERK_T (3);
    case 5:
      return VM_ERK_T (0) + VM_ERK_T (1) + VM_ERK_T (2) + VM_ERK_T (3) + VM_ERK_T (4);
    case 6:
      return VM_ERK_T (0) + VM_ERK_T (1) + VM_ERK_T (2) + VM_ERK_T (3) + VM_ERK_T (4)
             + VM_ERK_T (5);
    case 7:
      return VM_ERK_T (0) + VM_ERK_T (1) + VM_ERK_T (2) + VM_ERK_T (3) + VM_ERK_T (4)
             + VM_ERK_T (5) + VM_ERK_T (6);
    case 8:
      return VM_ERK_T (0) + VM_ERK_T (1) + VM_ERK_T (2) + VM_ERK_T (3) + VM_ERK_T (4)
             + VM_ERK_T (5) + VM_ERK_T (6) + VM_ERK_T (7);
    case 9:
      return VM_ERK_T (0) + VM_ERK_T (1) + VM_ERK_T (2) + VM_ERK_T (3) + VM_ERK_T (4)
             + VM_ERK_T (5) + VM_ERK_T (6) + VM_ERK_T (7) + VM_ERK_T (8);
    default:
      acc = VM_ERK_T (0);
      for (l = 1; l < m; l++)
        acc += VM_ERK_T (l);
      return acc;
    }
}
#undef VM_ERK_T

#endif
