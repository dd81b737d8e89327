/* march_impl.h -- the march's memory (march_mem) and the functions of its files, private to
 * csrc/march/ (plain C99).
 *
 * vm_march (march_run.c) fills one march_mem and hands it to the fixed-grid driver (march_fixed.c)
 * or to the error control (march_adaptive.c); both solve windows through march_window.c, record
 * them through march_record.c and ask march.c for the shared helpers (defaults, messages).  The
 * calls between these files point one way, from the entry down.  Every internal function takes
 * the memory and at most a few arguments.  Why one struct: the options, the two actions, the work arrays, the symbolic
 * factorizations, the solution being built, the window being solved and the step-size state are
 * what every step needs, as CVODE keeps them in CVodeMem.
 */
#ifndef VM_MARCH_IMPL_H
#define VM_MARCH_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "march/march.h"
#include "newton/newton.h"
#include "base/vm_print.h"

/* a progress line to the caller's print callback (stdout without one) */
#define say(o, ...) vm_printf ((o)->print, (o)->print_ctx, __VA_ARGS__)

/* The last rejection, for the message when the window length collapses. */
typedef struct
{
  int reason;
  double err;
  char why[320];
  double ta;                   /* start of the window being retried (NaN: none yet) */
  double min_err, min_len;     /* its smallest error estimate over the retries, and that length */
} march_last_rej;

typedef struct
{
  /* the problem: the two actions, the options, the solution being built */
  vm_march_action *a;          /* the main action (the order returned) */
  vm_march_action *c;          /* the companion action (NULL: none) */
  const vm_march_opts *o;
  vm_march_sol *s;
  /* work: the unknowns of both actions (allocated at their first move), the trajectories of the
   * window (main tm, companion tc, N x nout), its start xa and end states xe, xec (nstate), the
   * previous accepted window's nodes pt and trajectory ptraj (pn nodes, 0 before the first) */
  double *x, *xc, *tm, *tc, *xa, *xe, *xec, *pt, *ptraj;
  int64_t pn;
  /* the output, node-major (nout per node) until march_finish_output: node capacity cap of rows
   * and t, and the capacities of the window, rejection and history records */
  int64_t cap;
  double *rows, *t;
  int wcap, rcap, hcap;
  /* the symbolic factorizations kept between the windows of each action */
  vm_newton_symbolic sym, csym;
  /* the window being solved: [ta, tb], its number in messages, the main solve's info, the
   * companion's Newton steps, the error estimate (NaN without one) and the VM_MARCH_REJ_* code of a
   * failed solve (0 otherwise) */
  double ta, tb;
  int wnum;
  vm_newton_info info;
  int citer;
  double err;
  int reason;
  /* the step-size state of the error control (march_adaptive.c) */
  double tnow;                 /* the start of the next window */
  double L;                    /* the next length */
  double hmax, expo;           /* longest length; exponent 1/(p+2) of the controller */
  double lcap;                 /* length bound after a failed Newton solve (march.h) */
  double lbig, lbig_check;     /* longest accepted window: now, at the last checkpoint */
  double t_check;              /* the time at the last checkpoint */
  int attempts, rejected;      /* windows attempted; the last attempt was rejected */
  march_last_rej lr;
} march_mem;

/* ---- march_record.c: the solution's records, growing as the march runs ---------------------- */

/* Room for need nodes in m->rows, m->t.  VM_OK or VM_ENOMEM. */
int march_grow_nodes (march_mem *m, int64_t need);
/* Record the rejection of the window [t0, t0 + len].  VM_OK or VM_ENOMEM. */
int march_add_rejection (march_mem *m, double t0, double len, int reason, double err);
/* Append info's Newton history as that of accepted window win.  VM_OK or VM_ENOMEM. */
int march_add_history (march_mem *m, int win, const vm_newton_info *info);
/* Append the window [m->ta, m->tb]: its nodes a->t and trajectory m->tm (without its first node
 * after the first window), its estimate m->err, Newton steps and status.  VM_OK or VM_ENOMEM. */
int march_append_window (march_mem *m, int iter, int status);
/* The node-major rows into the column-major s->t, s->traj.  VM_OK or VM_ENOMEM. */
int march_finish_output (march_mem *m);

/* ---- march_window.c: one window ------------------------------------------------------------- */

/* Solve the window [m->ta, m->tb] from m->xa: the main solve from the prediction (or from guess,
 * a trajectory with leading dimension ldg), then with comp != NULL the companion solve and the
 * estimate, then o->repeat repeats.  Sets m->info, m->citer, m->err, m->reason.  Returns VM_OK
 * (a failed Newton solve is m->reason) or an error of the action. */
int march_window (march_mem *m, vm_march_action *comp, const double *guess, int64_t ldg);
/* The main action's check of the window in m->tm: on a veto *reason = VM_MARCH_REJ_CHECK, *f the
 * retry's length factor (clamped), why (nwhy bytes) the check's text.  VM_OK or the check's
 * status. */
int march_check_window (march_mem *m, int *reason, double *f, char *why, size_t nwhy);
/* Keep the accepted window for the next prediction (and tell the action). */
void march_keep_previous (march_mem *m);
/* A VM_MARCH_REJ_* code in words. */
const char *march_rej_name (int reason);

/* ---- march.c: messages ---------------------------------------------------------------------- */

/* Append the rounding-level note to s->message when Newton stopped above Tol somewhere. */
void march_round_note (vm_march_sol *s);

/* ---- the two drivers ------------------------------------------------------------------------ */

/* Fixed grid: o->windows equal windows, stopping at the first failure (march_fixed.c). */
int march_fixed (march_mem *m);
/* Error control: windows of adapted length from o->t0 to o->tf (march_adaptive.c). */
int march_adaptive (march_mem *m);

#endif
