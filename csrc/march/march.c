/* march.c -- the time-marching driver of the discrete actions (see march.h). */
#include "march/march.h"
#include "sbp/sbp.h"
#include "base/vm_print.h"
#include "base/vm_schema.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
vm_march_opts_init (vm_march_opts *o)
{
  if (! o)
    return;
  memset (o, 0, sizeof *o);
  o->t0 = 0.0;
  o->tf = 1.0;
  o->windows = 0;
  /* the public defaults of the marching solvers' options: one place, the schema */
  o->rtol = vm_schema_default (NULL, "RelTol");
  o->atol = vm_schema_default (NULL, "AbsTol");
  o->max_windows = (int) vm_schema_default (NULL, "MaxWindows");
  vm_newton_opts_init (&o->newton);
  o->name = "march";
}

int
vm_march_companion_order (int order)
{
  return order < 8 ? order + 2 : order - 2;
}

int64_t
vm_march_min_n (int order, int with_companion)
{
  int64_t a = vm_sbp_min_n (order), b;
  if (a < 0 || ! with_companion)
    return a;
  b = vm_sbp_min_n (vm_march_companion_order (order));
  return a > b ? a : b;
}

void
vm_march_sol_init (vm_march_sol *s)
{
  if (s)
    memset (s, 0, sizeof *s);
}

void
vm_march_sol_free (vm_march_sol *s)
{
  if (! s)
    return;
  vm_scratch_free (s->t);
  vm_scratch_free (s->traj);
  free (s->win_t0);
  free (s->win_t1);
  free (s->win_err);
  free (s->win_iter);
  free (s->win_citer);
  free (s->win_status);
  free (s->win_first);
  free (s->rej_t0);
  free (s->rej_len);
  free (s->rej_err);
  free (s->rej_reason);
  free (s->hist_win);
  free (s->res_hist);
  free (s->step_hist);
  free (s->lambda_hist);
  free (s->kind_hist);
  memset (s, 0, sizeof *s);
}

/* ---- printing ---------------------------------------------------------------------------------- */

/* a progress line to the caller's print callback (stdout without one) */
#define say(o, ...) vm_printf ((o)->print, (o)->print_ctx, __VA_ARGS__)

typedef struct
{
  const vm_march_opts *o;
  const char *what;
} iter_ctx;

static void
on_iter (void *ctx, int k, double res, double step, int kind, double factor)
{
  iter_ctx *c = ctx;
  if (kind == VM_NEWTON_START)
    say (c->o, "%s:   %s  iter %3d  ||r|| %.3e\n", c->o->name, c->what, k, res);
  else if (kind == VM_NEWTON_FULL)
    say (c->o, "%s:   %s  iter %3d  ||r|| %.3e  ||dx|| %.3e  newton\n", c->o->name, c->what, k,
         res, step);
  else
    say (c->o, "%s:   %s  iter %3d  ||r|| %.3e  ||dx|| %.3e  %s %s=%.3g\n", c->o->name, c->what,
         k, res, step, vm_newton_kind_name (kind), kind == VM_NEWTON_LM ? "mu" : "t", factor);
}

/* ---- growable output --------------------------------------------------------------------------- */

typedef struct
{
  int64_t cap;              /* node capacity of rows (node-major, nout per node) and t */
  double *rows, *t;
  int wcap, rcap, hcap;
} grow_t;

/* *p (from vm_scratch.h, or NULL) replaced by a block of cap doubles holding its first used */
static int
grow_block (double **p, size_t used, size_t cap)
{
  double *q = vm_scratch_alloc (cap * sizeof *q);
  if (! q)
    return VM_ENOMEM;
  if (*p && used > 0)
    memcpy (q, *p, used * sizeof *q);
  vm_scratch_free (*p);
  *p = q;
  return VM_OK;
}

/* room for need nodes in g->rows and g->t (from vm_scratch.h: huge pages from 2 MB on) */
static int
grow_nodes (vm_march_sol *s, grow_t *g, int64_t need)
{
  const size_t no = (size_t) (s->nout > 0 ? s->nout : 1);
  int64_t cap = g->cap > 0 ? g->cap : 256;
  if (need <= g->cap)
    return VM_OK;
  while (cap < need)
    cap *= 2;
  if (grow_block (&g->rows, (size_t) s->ntot * no, (size_t) cap * no) != VM_OK
      || grow_block (&g->t, (size_t) s->ntot, (size_t) cap) != VM_OK)
    return VM_ENOMEM;
  g->cap = cap;
  return VM_OK;
}

#define GROW(ptr, n)                                                                        \
  do                                                                                        \
    {                                                                                       \
      void *np_ = realloc ((ptr), (size_t) (n) * sizeof *(ptr));                            \
      if (! np_)                                                                            \
        return VM_ENOMEM;                                                                   \
      (ptr) = np_;                                                                          \
    }                                                                                       \
  while (0)

static int
grow_windows (vm_march_sol *s, grow_t *g, int need)
{
  if (need <= g->wcap)
    return VM_OK;
  {
    int cap = g->wcap > 0 ? 2 * g->wcap : 16;
    while (cap < need)
      cap *= 2;
    GROW (s->win_t0, cap);
    GROW (s->win_t1, cap);
    GROW (s->win_err, cap);
    GROW (s->win_iter, cap);
    GROW (s->win_citer, cap);
    GROW (s->win_status, cap);
    GROW (s->win_first, cap + 1);
    g->wcap = cap;
  }
  return VM_OK;
}

static int
add_rejection (vm_march_sol *s, grow_t *g, double t0, double len, int reason, double err)
{
  if (s->nrej + 1 > g->rcap)
    {
      int cap = g->rcap > 0 ? 2 * g->rcap : 16;
      GROW (s->rej_t0, cap);
      GROW (s->rej_len, cap);
      GROW (s->rej_err, cap);
      GROW (s->rej_reason, cap);
      g->rcap = cap;
    }
  s->rej_t0[s->nrej] = t0;
  s->rej_len[s->nrej] = len;
  s->rej_err[s->nrej] = err;
  s->rej_reason[s->nrej] = reason;
  s->nrej++;
  return VM_OK;
}

static int
add_history (vm_march_sol *s, grow_t *g, int win, const vm_newton_info *info)
{
  int k;
  if (s->nhist + info->nhist > g->hcap)
    {
      int cap = g->hcap > 0 ? 2 * g->hcap : 64;
      while (cap < s->nhist + info->nhist)
        cap *= 2;
      GROW (s->hist_win, cap);
      GROW (s->res_hist, cap);
      GROW (s->step_hist, cap);
      GROW (s->lambda_hist, cap);
      GROW (s->kind_hist, cap);
      g->hcap = cap;
    }
  for (k = 0; k < info->nhist; k++)
    {
      s->hist_win[s->nhist + k] = win;
      s->res_hist[s->nhist + k] = info->res_hist[k];
      s->step_hist[s->nhist + k] = info->step_hist[k];
      s->lambda_hist[s->nhist + k] = info->lambda_hist[k];
      s->kind_hist[s->nhist + k] = info->kind_hist[k];
    }
  s->nhist += info->nhist;
  return VM_OK;
}

/* Append the N x nout window trajectory (column-major, leading dimension N) and its nodes, without
 * its first node when skip0; record the window. */
static int
append_window (vm_march_sol *s, grow_t *g, const vm_march_action *a, const double *t,
               const double *traj, int skip0, double ta, double tb, double err, int iter,
               int citer, int status)
{
  int64_t N = a->N, k, k0 = skip0 ? 1 : 0;
  int c, st;
  if ((st = grow_nodes (s, g, s->ntot + N)) != VM_OK
      || (st = grow_windows (s, g, s->nwin + 1)) != VM_OK)
    return st;
  if (s->nwin == 0)
    s->win_first[0] = 0;
  for (k = k0; k < N; k++)
    {
      g->t[s->ntot] = t[k];
      for (c = 0; c < s->nout; c++)
        g->rows[s->ntot * s->nout + c] = traj[k + N * c];
      s->ntot++;
    }
  s->win_t0[s->nwin] = ta;
  s->win_t1[s->nwin] = tb;
  s->win_err[s->nwin] = err;
  s->win_iter[s->nwin] = iter;
  s->win_citer[s->nwin] = citer;
  s->win_status[s->nwin] = status;
  s->nwin++;
  s->win_first[s->nwin] = s->ntot;
  return VM_OK;
}

/* The rows (node-major) into the column-major output. */
static int
finish_output (vm_march_sol *s, grow_t *g)
{
  int64_t k;
  int c;
  s->t = vm_scratch_alloc ((size_t) (s->ntot > 0 ? s->ntot : 1) * sizeof *s->t);
  s->traj = vm_scratch_alloc ((size_t) (s->ntot > 0 ? s->ntot : 1)
                              * (size_t) (s->nout > 0 ? s->nout : 1) * sizeof *s->traj);
  if (! s->t || ! s->traj)
    return VM_ENOMEM;
  for (k = 0; k < s->ntot; k++)
    {
      s->t[k] = g->t[k];
      for (c = 0; c < s->nout; c++)
        s->traj[k + s->ntot * c] = g->rows[k * s->nout + c];
    }
  return VM_OK;
}

/* ---- one solve --------------------------------------------------------------------------------- */

static int
solve (vm_march_action *a, const vm_march_opts *o, vm_newton_symbolic *sym, double *x,
       vm_newton_info *info, const char *what, vm_march_sol *s, double *t_newton)
{
  vm_newton_opts no = o->newton;
  iter_ctx ic;
  int st;
  double t0 = vm_wall_time ();
  no.symbolic = sym;
  if (o->display >= 2)
    {
      ic.o = o;
      ic.what = what;
      no.on_iter = on_iter;
      no.on_iter_ctx = &ic;
    }
  if ((st = a->newton_setup (a->self, x, &no)) != VM_OK)
    return st;
  if (a->n > INT_MAX)
    return VM_EARG;
  st = vm_newton_solve ((int) a->n, a->colptr, a->rowind, a->F, a->J, a->self, x, &no, info);
  if (st == VM_EARG)
    /* Newton refused its data: the options are checked before the march, so what it refuses is
     * a guess or residual weights that overflowed on this window (too long for the model's
     * scales: [0, 1e300]); counted as a failed solve, so the window is halved */
    st = VM_ENEWTON_NONFINITE;
  if (st == VM_OK && no.tol_res > 0.0 && info->final_res > no.tol_res * info->res_scale)
    {
      s->nround++;
      if (info->final_res / info->res_scale > s->round_res)
        {
          s->round_res = info->final_res / info->res_scale;
          s->round_tol = no.tol_res;
        }
    }
  s->iterations += info->iterations;
  s->nfactor += info->nfactor;
  s->nreuse_factor += info->nreuse_factor;
  s->nchol += info->nchol;
  s->nchol_fail += info->nchol_fail;
  s->t_fun += info->t_fun;
  s->t_jac += info->t_jac;
  s->t_symbolic += info->t_symbolic;
  s->t_numeric += info->t_numeric;
  s->t_solve += info->t_solve;
  *t_newton += vm_wall_time () - t0;
  return st;
}

/* Append to the message when Newton stopped at the rounding level above Tol somewhere; when that
 * level reached the residual scale itself (VM_MARCH_ROUND_UNRESOLVED), say that the error
 * estimate does not bound the error (and vm_march returns VM_EUNRESOLVED).  Why: dual_solve with
 * weights c eight orders of magnitude from the states' sizes (c_x = 10 / 1e-2^2 for x ~ 1e-10 m,
 * the floor AbsTol/RelTol of the automatic weights taken as the size) stopped its solves at 5e4
 * to 4e6 (relative): the two orders' solutions agreed within 0.44 to 0.98 of the tolerance, and
 * v was up to 132 tolerances off (c_v = 10 / 6e3^2); the largest levels of the solves that are
 * right are 0.70 (Robertson at RelTol 1e-10, AbsTol 1e-14) and 0.046 (AbsTol 1e-12) for the
 * dual, 2.5e-5 for skg_solve at N = 2^20 (doc/dual.md, "Limitations"). */
static void
round_note (vm_march_sol *s)
{
  size_t len = strlen (s->message);
  if (s->nround > 0 && len < sizeof s->message)
    snprintf (s->message + len, sizeof s->message - len, "; in %d solve%s Newton stopped at the "
              "rounding level of the residual, %.3g (relative), above its tolerance %.3g, which "
              "cannot be reached there%s", s->nround, s->nround == 1 ? "" : "s", s->round_res,
              s->round_tol, s->round_res >= VM_MARCH_ROUND_UNRESOLVED ? ": that level is not "
              "below the error tolerance, so the error estimate does not bound the error; "
              "loosen RelTol/AbsTol or rescale the states (for dual_solve: the weights c_i ~ 10 "
              "/ X_i^2 with X_i the size of state i, or the default c)" : "");
}

/* The march ended with Newton's rounding level at or above the residual scale somewhere
 * (round_note): not converged to the tolerance.  The message's "converged" becomes "not
 * resolved to the tolerance"; VM_EUNRESOLVED. */
static int
unresolved (vm_march_sol *s)
{
  static const char now[] = "not resolved to the tolerance";
  char rest[sizeof s->message];
  if (strncmp (s->message, "converged", 9) == 0)
    {
      snprintf (rest, sizeof rest, "%s", s->message + 9);
      snprintf (s->message, sizeof s->message, "%s%.*s", now,
                (int) (sizeof s->message - sizeof now), rest);
    }
  return VM_EUNRESOLVED;
}

/* The error scale of component c of a window's trajectory ta (N nodes): atol + rtol max_k |a_kc|,
 * its size over the window (as ode45 takes max(|y(t)|, |y(t+h)|)), so that a zero crossing inside
 * the window does not demand absolute accuracy atol there. */
static double
comp_scale (const double *ta, int64_t N, int c, double rtol, double atol)
{
  double y = 0.0;
  int64_t k;
  for (k = 0; k < N; k++)
    y = fmax (y, fabs (ta[k + N * c]));
  return atol + rtol * y;
}

/* The larger of e and r, NaN counting as infinite. */
static double
worse (double e, double r)
{
  return r <= e ? e : isnan (r) ? INFINITY : r;
}

/* The defect of the window's initial data, imposed weakly by the actions: max over the first nerr
 * values c of |a_0c - xa_c| / comp_scale.  It is of the order of the window's discretization
 * error when the window resolves the motion; a window far too long for its nodes can meet its
 * equations with a trajectory that ignores its initial data (a harmonic oscillator over 1e20 s
 * comes back as q = 0), which both orders agree on, so the estimate adds it. */
static double
initial_defect (const double *ta, const double *xa, int64_t N, int nerr, double rtol, double atol)
{
  double e = 0.0;
  int c;
  for (c = 0; c < nerr; c++)
    e = worse (e, fabs (ta[N * c] - xa[c]) / comp_scale (ta, N, c, rtol, atol));
  return e;
}

/* err = max over the first nerr values c of max_k |a_kc - b_kc| / comp_scale. */
static double
error_norm (const double *ta, const double *tb, int64_t N, int nerr, double rtol, double atol)
{
  double e = 0.0;
  int64_t k;
  int c;
  for (c = 0; c < nerr; c++)
    {
      double d = 0.0;
      for (k = 0; k < N; k++)
        d = worse (d, fabs (ta[k + N * c] - tb[k + N * c]));
      e = worse (e, d / comp_scale (ta, N, c, rtol, atol));
    }
  return e;
}

typedef struct
{
  double *x, *xc, *tm, *tc, *xa, *xe, *xec, *pt, *ptraj;
  int64_t pn;
} work_t;

static void
work_free (work_t *w)
{
  vm_scratch_free (w->x);
  vm_scratch_free (w->xc);
  vm_scratch_free (w->tm);
  vm_scratch_free (w->tc);
  free (w->xa);
  free (w->xe);
  free (w->xec);
  vm_scratch_free (w->pt);
  vm_scratch_free (w->ptraj);
}

static int
work_alloc (work_t *w, const vm_march_action *a, const vm_march_action *c)
{
  size_t N = (size_t) a->N, no = (size_t) a->nout, ns = (size_t) a->nstate + 1;
  memset (w, 0, sizeof *w);
  (void) c;                 /* x and xc: after the first move (ensure_x), when n is known */
  /* the arrays of N entries and more from vm_scratch.h (huge pages from 2 MB on, kept between
   * solves) */
  w->tm = vm_scratch_alloc (N * no * sizeof *w->tm);
  w->tc = vm_scratch_alloc (N * no * sizeof *w->tc);
  w->xa = malloc (ns * sizeof *w->xa);
  w->xe = malloc (ns * sizeof *w->xe);
  w->xec = malloc (ns * sizeof *w->xec);
  w->pt = vm_scratch_alloc (N * sizeof *w->pt);
  w->ptraj = vm_scratch_alloc (N * no * sizeof *w->ptraj);
  if (! w->tm || ! w->tc || ! w->xa || ! w->xe || ! w->xec || ! w->pt || ! w->ptraj)
    return VM_ENOMEM;
  return VM_OK;
}

/* the unknowns of an action, allocated once its first move has set n */
static int
ensure_x (double **x, const vm_march_action *a)
{
  if (! *x)
    *x = vm_scratch_alloc ((size_t) (a->n > 0 ? a->n : 1) * sizeof **x);
  return *x ? VM_OK : VM_ENOMEM;
}

static const char *
rej_name (int r)
{
  return r == VM_MARCH_REJ_ERROR ? "error estimate above the tolerance"
         : r == VM_MARCH_REJ_NEWTON ? "Newton did not converge"
         : r == VM_MARCH_REJ_CHECK ? "vetoed by the check"
         : "Newton did not converge for the companion order";
}

/* The action's check of a window whose estimate passed: *reason = VM_MARCH_REJ_CHECK and *f the
 * retry's length factor (clamped) on a veto, why the check's text. */
static int
check_window (vm_march_action *a, const work_t *w, int *reason, double *f, char *why, size_t nwhy)
{
  int ok = 1, st;
  double fac = 0.5;
  why[0] = '\0';
  if (! a->check)
    return VM_OK;
  if ((st = a->check (a->self, w->tm, a->N, &ok, &fac, why, nwhy)) != VM_OK || ok)
    return st;
  *reason = VM_MARCH_REJ_CHECK;
  *f = fac > 0.0 && isfinite (fac) ? fmin (0.9, fmax (0.01, fac)) : 0.5;
  return VM_OK;
}

/* ---- the driver -------------------------------------------------------------------------------- */

/* The main solve of a window [ta, tb] from w->xa (the prediction or the caller's guess) into
 * w->tm, w->xe; *reason = VM_MARCH_REJ_NEWTON when Newton failed. */
static int
main_solve (vm_march_action *a, const vm_march_opts *o, work_t *w, double ta, double tb,
            const double *guess, int64_t ldg, vm_newton_symbolic *sym, vm_march_sol *s,
            vm_newton_info *info, int *reason, int wnum)
{
  int st, r;
  char what[64];
  if ((st = a->move (a->self, ta, tb, w->xa)) != VM_OK || (st = ensure_x (&w->x, a)) != VM_OK)
    return st;
  if (guess)
    st = a->from_traj (a->self, guess, ldg, w->x);
  else
    st = a->predict (a->self, w->xa, w->pt, w->ptraj, w->pn, a->N, w->x);
  if (st != VM_OK)
    return st;
  snprintf (what, sizeof what, "window %d [%.6g, %.6g] order %d", wnum, ta, tb, a->order);
  st = solve (a, o, sym, w->x, info, what, s, &s->t_newton);
  if (! s->linsolve)
    {
      s->linsolve = info->linsolve;
      s->kl = info->kl;
      s->ku = info->ku;
      s->lean = info->lean;
    }
  if ((r = a->extract (a->self, w->x, w->tm, a->N, w->xe)) != VM_OK)
    return r;
  if (st != VM_OK)
    {
      if (st >= VM_ENEWTON_MAXIT && st <= VM_ENEWTON_NONFINITE)
        {
          *reason = VM_MARCH_REJ_NEWTON;
          return VM_OK;
        }
      return st;
    }
  return VM_OK;
}

/* The companion solve of the window from the main trajectory and the estimate *err;
 * *reason = VM_MARCH_REJ_COMPANION when its Newton failed. */
static int
companion_solve (vm_march_action *a, vm_march_action *c, const vm_march_opts *o, work_t *w,
                 double ta, double tb, vm_newton_symbolic *csym, vm_march_sol *s, int *citer,
                 double *err, int *reason, int wnum)
{
  int st;
  char what[64];
  vm_newton_info cinfo;
  vm_newton_info_init (&cinfo);
  if ((st = c->move (c->self, ta, tb, w->xa)) != VM_OK || (st = ensure_x (&w->xc, c)) != VM_OK
      || (st = c->from_traj (c->self, w->tm, a->N, w->xc)) != VM_OK)
    return st;
  snprintf (what, sizeof what, "window %d companion order %d", wnum, c->order);
  st = solve (c, o, csym, w->xc, &cinfo, what, s, &s->t_newton);
  *citer = cinfo.iterations;
  vm_newton_info_free (&cinfo);
  if (st == VM_OK)
    st = c->extract (c->self, w->xc, w->tc, c->N, w->xec);
  else if (st >= VM_ENEWTON_MAXIT && st <= VM_ENEWTON_NONFINITE)
    {
      *reason = VM_MARCH_REJ_COMPANION;
      return VM_OK;
    }
  if (st != VM_OK)
    return st;
  *err = error_norm (w->tm, w->tc, a->N, a->nerr, o->rtol, o->atol);
  if (! isnan (*err))
    *err = fmax (*err, initial_defect (w->tm, w->xa, a->N, a->nerr < a->nstate ? a->nerr
                                       : a->nstate, o->rtol, o->atol));
  return VM_OK;
}

/* The o->repeat solves of the window from its own trajectory; *reason = VM_MARCH_REJ_NEWTON
 * when one failed. */
static int
repeat_solves (vm_march_action *a, const vm_march_opts *o, work_t *w, vm_newton_symbolic *sym,
               vm_march_sol *s, int *reason, int wnum)
{
  int st, r;
  char what[64];
  for (r = 0; r < o->repeat; r++)
    {
      vm_newton_info rinfo;
      vm_newton_info_init (&rinfo);
      if ((st = a->from_traj (a->self, w->tm, a->N, w->x)) != VM_OK)
        return st;
      snprintf (what, sizeof what, "window %d repeat %d", wnum, r + 1);
      st = solve (a, o, sym, w->x, &rinfo, what, s, &s->t_newton);
      vm_newton_info_free (&rinfo);
      if (st != VM_OK)
        {
          *reason = VM_MARCH_REJ_NEWTON;
          return VM_OK;
        }
      if ((st = a->extract (a->self, w->x, w->tm, a->N, w->xe)) != VM_OK)
        return st;
    }
  return VM_OK;
}

/* One window [ta, tb] from w->xa: main solve from the prediction (or the caller's guess), the
 * companion solve and the estimate (when comp), the repeats.  *err gets the estimate (NaN
 * without comp); *reason a VM_MARCH_REJ_* code when a Newton solve failed (0 otherwise). */
static int
window (vm_march_action *a, vm_march_action *c, const vm_march_opts *o, work_t *w, double ta,
        double tb, const double *guess, int64_t ldg, vm_newton_symbolic *sym,
        vm_newton_symbolic *csym, vm_march_sol *s, vm_newton_info *info, int *citer, double *err,
        int *reason, int wnum)
{
  int st;
  *err = NAN;
  *reason = 0;
  *citer = 0;
  if ((st = main_solve (a, o, w, ta, tb, guess, ldg, sym, s, info, reason, wnum)) != VM_OK
      || *reason)
    return st;
  if (c && ((st = companion_solve (a, c, o, w, ta, tb, csym, s, citer, err, reason, wnum))
            != VM_OK || *reason))
    return st;
  return repeat_solves (a, o, w, sym, s, reason, wnum);
}

/* Keep the accepted window for the next prediction. */
static void
keep_previous (work_t *w, const vm_march_action *a)
{
  if (a->accepted)
    a->accepted (a->self);
  memcpy (w->pt, a->t, (size_t) a->N * sizeof *w->pt);
  memcpy (w->ptraj, w->tm, (size_t) a->N * (size_t) a->nout * sizeof *w->ptraj);
  w->pn = a->N;
  memcpy (w->xa, w->xe, (size_t) a->nstate * sizeof *w->xa);
}

/* Fixed grid: the action's check of window k, recorded (the first veto's text kept in check_why)
 * but not rejected. */
static int
fixed_check (vm_march_action *a, const work_t *w, vm_march_sol *s, int k)
{
  int reason = 0, st;
  double f;
  char why[160];
  st = check_window (a, w, &reason, &f, why, sizeof why);
  if (st == VM_OK && reason == VM_MARCH_REJ_CHECK)
    {
      if (s->nunresolved == 0)
        snprintf (s->check_why, sizeof s->check_why, "window %d: %s", k + 1, why);
      s->nunresolved++;
    }
  return st;
}

/* Fixed grid: window k of o->windows (Ntot nodes in all), recorded; a failure sets the message. */
static int
fixed_window (vm_march_action *a, vm_march_action *c, const vm_march_opts *o, work_t *w,
              vm_newton_symbolic *sym, vm_newton_symbolic *csym, vm_march_sol *s, grow_t *g,
              int k, int64_t Ntot)
{
  int W = o->windows, st, citer, reason;
  double T = o->tf - o->t0, err;
  double ta = o->t0 + T * k / W, tb = k == W - 1 ? o->tf : o->t0 + T * (k + 1) / W;
  const double *guess = o->guess ? o->guess + (int64_t) k * (a->N - 1) : NULL;
  vm_newton_info info;
  vm_newton_info_init (&info);
  st = window (a, o->estimate ? c : NULL, o, w, ta, tb, guess, Ntot, sym, csym, s, &info,
               &citer, &err, &reason, k + 1);
  if (st == VM_OK && reason == VM_MARCH_REJ_COMPANION)
    {
      reason = 0;            /* fixed grid: no estimate for this window, not a failure */
      err = NAN;
    }
  if (st == VM_OK)
    st = add_history (s, g, s->nwin, &info);
  if (st == VM_OK)
    st = append_window (s, g, a, a->t, w->tm, k > 0, ta, tb, err, info.iterations, citer,
                        reason ? info.status : VM_OK);
  if (st == VM_OK && ! reason)
    st = fixed_check (a, w, s, k);
  if (st == VM_OK && reason)
    {
      st = reason == VM_MARCH_REJ_NEWTON ? info.status : VM_ENEWTON_STALL;
      snprintf (s->message, sizeof s->message, "window %d of %d [%.6g, %.6g]: %s: %s", k + 1,
                W, ta, tb, rej_name (reason), info.message);
    }
  if (st == VM_OK && o->display >= 2)
    {
      char est[64] = "";
      if (! isnan (err))
        snprintf (est, sizeof est, ", error estimate %.3g of the tolerance", err);
      say (o, "%s: window %d of %d [%.6g, %.6g]: %d Newton iterations%s\n", o->name, k + 1, W,
           ta, tb, info.iterations, est);
    }
  vm_newton_info_free (&info);
  if (st != VM_OK && ! s->message[0])
    snprintf (s->message, sizeof s->message, "window %d of %d [%.6g, %.6g]: %s", k + 1, W, ta,
              tb, vm_status_string (st));
  return st;
}

/* Fixed grid, after a failed window: the nodes up to Ntot on the grid, with NaN values. */
static int
fill_failed (const vm_march_opts *o, vm_march_sol *s, grow_t *g, int64_t Ntot)
{
  double T = o->tf - o->t0;
  int64_t k0 = s->ntot, kk;
  int cc;
  if (grow_nodes (s, g, Ntot) != VM_OK)
    return VM_ENOMEM;
  for (kk = k0; kk < Ntot; kk++)
    {
      g->t[kk] = o->t0 + T * (double) kk / (double) (Ntot - 1);
      for (cc = 0; cc < s->nout; cc++)
        g->rows[kk * s->nout + cc] = NAN;
    }
  s->ntot = Ntot;
  return VM_OK;
}

/* Fixed grid: the message of a converged march (with the unresolved checks and rounding). */
static void
fixed_message (const vm_march_action *a, const vm_march_opts *o, vm_march_sol *s)
{
  int W = o->windows;
  snprintf (s->message, sizeof s->message, "converged: %d window%s of %lld nodes, %d Newton "
            "iterations", W, W == 1 ? "" : "s", (long long) a->N, s->iterations);
  {
    size_t len = strlen (s->message);
    double emax = -1.0;
    int k;
    for (k = 0; k < s->nwin; k++)
      if (! isnan (s->win_err[k]))
        emax = fmax (emax, s->win_err[k]);
    if (! o->estimate)
      snprintf (s->message + len, sizeof s->message - len, "; no error estimate (a fixed grid: "
                "ErrorEstimate 'on' gives one; error control, the default without N, Windows or "
                "Slabs, controls the error)");
    else if (emax < 0.0)
      snprintf (s->message + len, sizeof s->message - len, "; no error estimate (the companion "
                "order did not converge)");
    else
      snprintf (s->message + len, sizeof s->message - len, "; largest error estimate %.3g of "
                "the tolerance (RelTol %g, AbsTol %g)%s", emax, o->rtol, o->atol,
                emax > 1.0 ? ": the grid does not resolve the motion to the tolerance; give "
                "more nodes or windows, or use the error control (RelTol without N)" : "");
  }
  if (s->nunresolved > 0)
    {
      size_t len = strlen (s->message);
      snprintf (s->message + len, sizeof s->message - len, "; the %s check fails in %d of "
                "the %d windows (first %s): the grid does not resolve it, give more nodes or "
                "use error control", s->check_name, s->nunresolved, W, s->check_why);
    }
  round_note (s);
}

/* Fixed grid: o->windows equal windows, stopping at the first failure. */
static int
march_fixed (vm_march_action *a, vm_march_action *c, const vm_march_opts *o, work_t *w,
             vm_newton_symbolic *sym, vm_newton_symbolic *csym, vm_march_sol *s, grow_t *g)
{
  int W = o->windows, k, st = VM_OK;
  int64_t Ntot = (int64_t) W * (a->N - 1) + 1;
  for (k = 0; k < W; k++)
    {
      st = fixed_window (a, c, o, w, sym, csym, s, g, k, Ntot);
      if (st != VM_OK)
        break;
      keep_previous (w, a);
    }
  if (st != VM_OK && s->nwin > 0 && s->nwin < W)
    {
      if (fill_failed (o, s, g, Ntot) != VM_OK)
        return VM_ENOMEM;
    }
  if (st == VM_OK)
    fixed_message (a, o, s);
  return st;
}

/* The last rejection, for the message when the window length collapses. */
typedef struct
{
  int reason;
  double err;
  char why[320];
  double ta;                   /* start of the window being retried (NaN: none yet) */
  double min_err, min_len;     /* its smallest error estimate over the retries, and that length */
} last_rej;

static void
collapse_message (vm_march_sol *s, int order, double t, double L, double hmin, const last_rej *lr)
{
  char why[400] = "none rejected";
  /* the advice for a floor: a higher order while there is one (8 is the largest) */
  const char *advice = order < 6 ? "Raise Order (6 or 8) or loosen RelTol/AbsTol"
                       : order < 8 ? "Raise Order (8) or loosen RelTol/AbsTol"
                       : "Loosen RelTol/AbsTol";
  if (lr->reason == VM_MARCH_REJ_ERROR)
    snprintf (why, sizeof why, "%s (estimate %.3g of the tolerance)", rej_name (lr->reason),
              lr->err);
  else if (lr->reason == VM_MARCH_REJ_CHECK)
    snprintf (why, sizeof why, "%s check: %s", s->check_name, lr->why);
  else if (lr->reason)
    snprintf (why, sizeof why, "%s", rej_name (lr->reason));
  if (lr->reason == VM_MARCH_REJ_ERROR && lr->ta == t && lr->min_err < 0.5 * lr->err)
    /* shorter windows made the estimate worse: not a resolution problem but a floor */
    snprintf (s->message, sizeof s->message, "stopped at t = %.9g: the window length fell to "
              "%.3g, below the minimum %.3g; the last attempt: %s. The error estimate grew as the "
              "window shrank (smallest %.3g of the tolerance, at length %.3g): the tolerance is "
              "below the accuracy floor of this order on N nodes (rounding). %s", t, L, hmin,
              why, lr->min_err, lr->min_len, advice);
  else
    snprintf (s->message, sizeof s->message, "stopped at t = %.9g: the window length fell to "
              "%.3g, below the minimum %.3g; the last attempt: %s. Loosen RelTol/AbsTol, give "
              "more nodes per window (N), or check the model near this time", t, L, hmin, why);
}

/* A march that stopped (VM_EHMIN) after its state grew by more than VM_MARCH_BLOWUP times (max
 * |x| at the last accepted window's end against max (1, max |x0|)): the message says so, since
 * the likely cause is a singularity of the equations there (y' = y^2 from y0 = 1: |y| ~ 1e9 at
 * the stop, where the message alone suggested looser tolerances) */
#define VM_MARCH_BLOWUP 1e6

static void
blowup_hint (vm_march_sol *s, int nstate, const double *x0, const double *x)
{
  double g0 = 1.0, g1 = 0.0;
  size_t len = strlen (s->message);
  int i;
  for (i = 0; i < nstate; i++)
    {
      g0 = fmax (g0, fabs (x0[i]));
      g1 = fmax (g1, fabs (x[i]));
    }
  if (g1 > VM_MARCH_BLOWUP * g0 && len < sizeof s->message)
    snprintf (s->message + len, sizeof s->message - len, "; the state grew by a factor %.3g "
              "since t0 (max |x| %.3g there): the equations may have a singularity (a blow-up) "
              "near that time", g1 / g0, g1);
}

/* Record the rejection of [ta, tb] and return the retry's length: the check's factor fchk, or
 * from the estimate, or half after a failed Newton solve. */
static int
reject (const vm_march_opts *o, vm_march_sol *s, grow_t *g, double ta, double tb, int reason,
        double err, double fchk, const char *why, double expo, last_rej *lr, double *L)
{
  double f = reason == VM_MARCH_REJ_CHECK ? fchk
             : reason == VM_MARCH_REJ_ERROR && isfinite (err) ? fmax (0.1, 0.9 * pow (err, -expo))
             : 0.5;
  if (o->display >= 2)
    say (o, "%s: window [%.6g, %.6g] rejected: %s%s%s (estimate %.3g of the tolerance); "
         "length %.3g -> %.3g\n", o->name, ta, tb,
         reason == VM_MARCH_REJ_CHECK ? s->check_name : rej_name (reason),
         reason == VM_MARCH_REJ_CHECK ? " check: " : "",
         reason == VM_MARCH_REJ_CHECK ? why : "", err, tb - ta, (tb - ta) * fmin (f, 0.9));
  snprintf (lr->why, sizeof lr->why, "%s", reason == VM_MARCH_REJ_CHECK ? why : "");
  lr->reason = reason;
  lr->err = err;
  if (reason == VM_MARCH_REJ_ERROR && isfinite (err) && (lr->ta != ta || err < lr->min_err))
    {
      lr->ta = ta;             /* a new window start, or a smaller estimate for this one */
      lr->min_err = err;
      lr->min_len = tb - ta;
    }
  *L = (tb - ta) * fmin (f, 0.9);
  return add_rejection (s, g, ta, tb - ta, reason, err);
}

/* Accept [ta, tb]: output, history, the next length (at most L after a rejection). */
static int
accept (vm_march_action *a, const vm_march_opts *o, work_t *w, vm_march_sol *s, grow_t *g,
        double ta, double tb, double err, const vm_newton_info *info, int citer, int rejected,
        double expo, double hmax, double *L)
{
  int st;
  double f = err > 0.0 ? 0.9 * pow (err, -expo) : 4.0;
  if ((st = add_history (s, g, s->nwin, info)) != VM_OK
      || (st = append_window (s, g, a, a->t, w->tm, s->nwin > 0, ta, tb, err, info->iterations,
                              citer, VM_OK)) != VM_OK)
    return st;
  if (o->display >= 2)
    say (o, "%s: window %d [%.6g, %.6g] accepted: error estimate %.3g of the tolerance, "
         "Newton iterations %d + %d (companion)\n", o->name, s->nwin, ta, tb, err,
         info->iterations, citer);
  keep_previous (w, a);
  f = fmin (4.0, fmax (0.2, f));
  if (rejected)
    f = fmin (f, 1.0);
  *L = fmin ((tb - ta) * f, hmax);
  return VM_OK;
}

/* Adaptive march: the stops before an attempt at t with length L (MaxWindows, a stall, a length
 * below hmin), with their messages; *lbig_check the longest length and *t_check the time at the
 * last checkpoint. */
static int
adaptive_guard (const vm_march_action *a, const vm_march_opts *o, vm_march_sol *s, double t,
                int attempts, double L, double lbig, double *lbig_check, double *t_check,
                const last_rej *lr)
{
  double T = o->tf - o->t0;
  double hmin = o->hmin > 0.0 ? o->hmin : vm_march_hmin (t, T, a->N);
  if (attempts >= o->max_windows)
    {
      snprintf (s->message, sizeof s->message, "stopped at t = %.9g after %d windows "
                "(accepted and rejected; MaxWindows): at the present window length %.3g the "
                "rest of the interval needs about %.3g more; the problem needs more windows "
                "than allowed, or is too stiff for the tolerance", t, attempts, L,
                (o->tf - t) / L);
      return VM_EMAXSTEPS;
    }
  if (attempts > 0 && attempts % VM_MARCH_STALL_WINDOWS == 0)
    {
      /* fail fast: the window length has not doubled over the last VM_MARCH_STALL_WINDOWS
       * attempts, and the rest of the interval needs more than VM_MARCH_STALL_FACTOR times the
       * windows that MaxWindows leaves, at the longest length accepted so far (an oscillator
       * over [0, 1e300] would otherwise run 1e5 windows to say so) or at the pace of those
       * attempts (windows that stay far below the longest one, and rejections: the Pars
       * system through dual_solve's defaults took 99000 windows and 166 s to stop, its longest
       * window 160 times its mean) */
      const double left = VM_MARCH_STALL_FACTOR * (double) (o->max_windows - attempts);
      const double need = (o->tf - t) / fmax (lbig, L);
      const double pace = t > *t_check ? (o->tf - t) / (t - *t_check) * VM_MARCH_STALL_WINDOWS
                                       : INFINITY;
      if (lbig < 2.0 * *lbig_check && (need > left || pace > left))
        {
          if (need > left)
            snprintf (s->message, sizeof s->message, "stopped early at t = %.9g after %d "
                      "windows: the window length has stayed at most %.3g over the last %d "
                      "windows, and at that length the rest of the interval needs about %.3g "
                      "more windows, over %d times the %d that MaxWindows (%d) leaves: the "
                      "problem needs more windows than allowed; shorten tspan or loosen "
                      "RelTol/AbsTol", t, attempts, fmax (lbig, L), VM_MARCH_STALL_WINDOWS,
                      need, VM_MARCH_STALL_FACTOR, o->max_windows - attempts, o->max_windows);
          else
            snprintf (s->message, sizeof s->message, "stopped early at t = %.9g after %d "
                      "windows: the last %d windows advanced t by %.3g (the longest window "
                      "%.3g), and at that pace the rest of the interval needs about %.3g more, "
                      "over %d times the %d that MaxWindows (%d) leaves: the problem needs more "
                      "windows than allowed; shorten tspan or loosen RelTol/AbsTol", t,
                      attempts, VM_MARCH_STALL_WINDOWS, t - *t_check, fmax (lbig, L), pace,
                      VM_MARCH_STALL_FACTOR, o->max_windows - attempts, o->max_windows);
          return VM_EMAXSTEPS;
        }
      *lbig_check = lbig;
      *t_check = t;
    }
  if (L < hmin)
    {
      collapse_message (s, a->order, t, L, hmin, lr);
      return VM_EHMIN;
    }
  return VM_OK;
}

/* Adaptive march: one attempt at [ta, tb], accepted or rejected (*reason), *L the next length,
 * *err the estimate. */
static int
adaptive_attempt (vm_march_action *a, vm_march_action *c, const vm_march_opts *o, work_t *w,
                  vm_newton_symbolic *sym, vm_newton_symbolic *csym, vm_march_sol *s, grow_t *g,
                  double ta, double tb, int rejected, double expo, double hmax, last_rej *lr,
                  double *L, double *err, int *reason)
{
  double fchk = 0.5;
  int citer, st;
  char why[320] = "";
  vm_newton_info info;
  vm_newton_info_init (&info);
  st = window (a, c, o, w, ta, tb, NULL, 0, sym, csym, s, &info, &citer, err, reason,
               s->nwin + 1);
  if (st == VM_OK && ! *reason && ! (*err <= 1.0))
    *reason = VM_MARCH_REJ_ERROR;
  if (st == VM_OK && ! *reason)
    st = check_window (a, w, reason, &fchk, why, sizeof why);
  if (st != VM_OK)
    snprintf (s->message, sizeof s->message, "window [%.9g, %.9g]: %s", ta, tb,
              vm_status_string (st));
  else if (*reason)
    st = reject (o, s, g, ta, tb, *reason, *err, fchk, why, expo, lr, L);
  else
    st = accept (a, o, w, s, g, ta, tb, *err, &info, citer, rejected, expo, hmax, L);
  vm_newton_info_free (&info);
  return st;
}

/* The next length L after an attempt, bounded after a failed Newton solve: the retry's length
 * (half the failed one) becomes a cap, which grows by VM_MARCH_NEWTON_CAP_GROWTH with each
 * accepted window (march.h).  Without it a problem whose Newton solves fail above some length
 * while the error estimate allows 4 times more (a stiff one on its slow manifold, where the
 * estimate is near 0) cycles: two accepted windows at L, the growth to 4 L, two failures. */
static double
newton_cap (int reason, double L, double *lcap)
{
  if (reason == VM_MARCH_REJ_NEWTON || reason == VM_MARCH_REJ_COMPANION)
    *lcap = L;
  else if (! reason)
    *lcap *= VM_MARCH_NEWTON_CAP_GROWTH;
  return fmin (L, *lcap);
}

/* Error control: windows of adapted length from o->t0 to o->tf. */
static int
march_adaptive (vm_march_action *a, vm_march_action *c, const vm_march_opts *o, work_t *w,
                vm_newton_symbolic *sym, vm_newton_symbolic *csym, vm_march_sol *s, grow_t *g)
{
  double T = o->tf - o->t0, t = o->t0, L, hmax, expo = 1.0 / (a->order + 2), emax = 0.0;
  double lbig = 0.0, lbig_check = 0.0;   /* longest accepted window: now, at the last checkpoint */
  double t_check = o->t0;                 /* the time at the last checkpoint */
  double lcap = INFINITY;      /* length bound after a failed Newton solve (march.h) */
  int attempts = 0, rejected = 0, st = VM_OK;
  last_rej lr;
  memset (&lr, 0, sizeof lr);
  lr.ta = NAN;
  hmax = o->hmax > 0.0 ? fmin (o->hmax, T) : T;
  L = fmin (o->h0 > 0.0 ? o->h0 : T / 16.0, hmax);
  while (t < o->tf)
    {
      double ta = t, tb, err;
      int reason;
      if ((st = adaptive_guard (a, o, s, t, attempts, L, lbig, &lbig_check, &t_check, &lr))
          != VM_OK)
        return st;
      tb = o->tf - t <= 1.1 * L ? o->tf : t + L;
      attempts++;
      st = adaptive_attempt (a, c, o, w, sym, csym, s, g, ta, tb, rejected, expo, hmax, &lr, &L,
                             &err, &reason);
      if (st != VM_OK)
        return st;
      if (! reason)
        {
          emax = fmax (emax, err);
          lbig = fmax (lbig, tb - ta);
          t = tb;
        }
      rejected = reason != 0;
      L = newton_cap (reason, L, &lcap);
    }
  snprintf (s->message, sizeof s->message, "converged: %d windows of %lld nodes (%d rejected), "
            "%d Newton iterations, largest error estimate %.3g of the tolerance", s->nwin,
            (long long) a->N, s->nrej, s->iterations, emax);
  round_note (s);
  return VM_OK;
}

double
vm_march_hmin (double t, double T, int64_t N)
{
  double h = 1e-12 * (fabs (t) + fmin (1.0, T)) * (double) (N - 1);
  return fmax (h, 1e-100 * (double) (N - 1));
}

/* the arguments of vm_march are consistent (see march.h) */
static int
march_args_ok (const vm_march_action *a, const vm_march_action *c, const double *xa0,
               const vm_march_opts *o)
{
  return ! (! a || ! xa0 || ! o || ! a->move || ! a->predict || ! a->from_traj
            || ! a->newton_setup || ! a->extract || a->N < 2 || a->nout < 1 || a->nerr < 0
            || a->nerr > a->nout || a->nstate < 1 || ! isfinite (o->t0) || ! isfinite (o->tf)
            || ! (o->tf > o->t0) || o->windows < 0 || ((o->windows == 0 || o->estimate) && ! c)
            || (c && (c->N != a->N || c->nout != a->nout || c->nstate != a->nstate))
            || (o->windows == 0 && ! (o->atol > 0.0 && o->rtol >= 0.0)) || o->repeat < 0
            || (o->guess && o->windows == 0));
}

/* VM_EARG with the message when the windows (or tspan) are shorter than N nodes can resolve */
static int
march_span_ok (const vm_march_action *a, const vm_march_opts *o, vm_march_sol *s)
{
  if (o->windows > 0 && (o->tf - o->t0) / o->windows < vm_march_hmin (o->t0, o->tf - o->t0, a->N))
    {
      /* the node spacing would be lost to rounding of t, or the equations' 1/h overflow */
      snprintf (s->message, sizeof s->message, "the windows of [%.9g, %.9g] are %.3g long, below "
                "the shortest that %lld nodes can resolve, %.3g (rounding of t, or 1/h overflows): "
                "use a longer interval or fewer windows", o->t0, o->tf,
                (o->tf - o->t0) / o->windows, (long long) a->N,
                vm_march_hmin (o->t0, o->tf - o->t0, a->N));
      return VM_EARG;
    }
  if (o->windows == 0 && (o->tf - o->t0) < vm_march_hmin (o->t0, o->tf - o->t0, a->N))
    {
      /* error control cannot shrink a window below hmin: refuse before the first window */
      snprintf (s->message, sizeof s->message, "tspan = [%.9g, %.9g] is %.3g long, below "
                "the shortest window that %lld nodes can resolve, %.3g (rounding of t, or 1/h "
                "overflows): use a longer interval", o->t0, o->tf, o->tf - o->t0,
                (long long) a->N, vm_march_hmin (o->t0, o->tf - o->t0, a->N));
      return VM_EARG;
    }
  return VM_OK;
}

int
vm_march (vm_march_action *a, vm_march_action *c, const double *xa0, const vm_march_opts *o,
          vm_march_sol *s)
{
  work_t w;
  grow_t g;
  vm_newton_symbolic sym, csym;
  int st;
  double t_start = vm_wall_time ();
  if (! s)
    return VM_EARG;
  vm_march_sol_free (s);
  memset (&w, 0, sizeof w);
  memset (&g, 0, sizeof g);
  s->status = VM_EARG;
  if (! march_args_ok (a, c, xa0, o))
    {
      snprintf (s->message, sizeof s->message, "vm_march: invalid argument");
      return VM_EARG;
    }
  s->nout = a->nout;
  if (march_span_ok (a, o, s) != VM_OK)
    return VM_EARG;
  snprintf (s->check_name, sizeof s->check_name, "%s", a->check_name ? a->check_name : "check");
  vm_newton_symbolic_init (&sym);
  vm_newton_symbolic_init (&csym);
  st = work_alloc (&w, a, c);
  if (st == VM_OK)
    {
      memcpy (w.xa, xa0, (size_t) a->nstate * sizeof *w.xa);
      st = o->windows > 0 ? march_fixed (a, c, o, &w, &sym, &csym, s, &g)
                          : march_adaptive (a, c, o, &w, &sym, &csym, s, &g);
      if (st == VM_EHMIN)
        blowup_hint (s, a->nstate, xa0, w.xa);
      if (st == VM_OK && s->nround > 0 && s->round_res >= VM_MARCH_ROUND_UNRESOLVED)
        st = unresolved (s);
    }
  else
    snprintf (s->message, sizeof s->message, "out of memory");
  if (finish_output (s, &g) != VM_OK && st == VM_OK)
    {
      st = VM_ENOMEM;
      snprintf (s->message, sizeof s->message, "out of memory");
    }
  if (st == VM_ENOMEM && ! s->message[0])
    snprintf (s->message, sizeof s->message, "out of memory");
  vm_scratch_free (g.rows);
  vm_scratch_free (g.t);
  work_free (&w);
  vm_newton_symbolic_free (&sym);
  vm_newton_symbolic_free (&csym);
  s->status = st;
  s->t_total = vm_wall_time () - t_start;
  if (o->display >= 1)
    say (o, "%s: %s\n", o->name, s->message);
  return st;
}

/* ---- dense output ------------------------------------------------------------------------------ */

int
vm_march_interp (const vm_march_sol *s, int deg, const double *tq, int64_t nq, double *out)
{
  int64_t q;
  if (! s || ! tq || ! out || deg < 0 || s->nwin < 1 || s->ntot < 2)
    return VM_EARG;
  for (q = 0; q < nq; q++)
    {
      double tt = tq[q];
      int lo = 0, hi = s->nwin - 1, wi, d, i, j, cc;
      int64_t first, lastn, start, nn;
      if (! (tt >= s->win_t0[0] - 1e-12 * fabs (s->win_t0[0])
             && tt <= s->win_t1[s->nwin - 1] + 1e-12 * fabs (s->win_t1[s->nwin - 1])))
        return VM_EARG;
      while (lo < hi)              /* the last window with win_t0 <= tt */
        {
          int mid = (lo + hi + 1) / 2;
          if (s->win_t0[mid] <= tt)
            lo = mid;
          else
            hi = mid - 1;
        }
      wi = lo;
      first = wi == 0 ? 0 : s->win_first[wi] - 1;
      lastn = s->win_first[wi + 1] - 1;
      nn = lastn - first + 1;
      d = (int) (deg < nn - 1 ? deg : nn - 1);
      {
        /* nearest node, then the d + 1 nodes around it inside the window */
        int64_t near = first;
        double best = fabs (s->t[first] - tt);
        for (start = first; start <= lastn; start++)
          if (fabs (s->t[start] - tt) < best)
            {
              best = fabs (s->t[start] - tt);
              near = start;
            }
        start = near - d / 2;
        if (start < first)
          start = first;
        if (start + d > lastn)
          start = lastn - d;
      }
      for (cc = 0; cc < s->nout; cc++)
        out[q + nq * cc] = 0.0;
      for (i = 0; i <= d; i++)
        {
          double li = 1.0, ti = s->t[start + i];
          for (j = 0; j <= d; j++)
            if (j != i)
              li *= (tt - s->t[start + j]) / (ti - s->t[start + j]);
          for (cc = 0; cc < s->nout; cc++)
            out[q + nq * cc] += li * s->traj[(start + i) + s->ntot * cc];
        }
    }
  return VM_OK;
}
