/* march_window.c -- one window of the march (march_impl.h): the main solve from the prediction
 * or a guess, the companion solve and the error estimate, the repeats, the action's check.
 *
 * Errors: a failed Newton solve is not an error but m->reason (the driver rejects or stops); an
 * error of the action's callbacks is returned.  Cost: one Newton solve per order and repeat, and
 * O(N nout) for the estimate.  Why the companion starts from the main trajectory: both orders
 * solve the same problem on the same nodes, so the first is a near-converged start for the second. */
#include "march/march_impl.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

/* Newton on action a from x (the unknowns, overwritten by the best iterate) with the symbolic
 * cache sym; the statistics into m->s.  Newton's status (VM_EARG counted as a failed solve). */
static int
solve (march_mem *m, vm_march_action *a, vm_newton_symbolic *sym, double *x, vm_newton_info *info,
       const char *what)
{
  const vm_march_opts *o = m->o;
  vm_march_sol *s = m->s;
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
  {
    const vm_newton_problem pb = { (int) a->n, a->colptr, a->rowind, a->F, a->J, a->self };
    st = vm_newton_run (&pb, x, &no, info);
  }
  if (st == VM_EARG)
    /* Newton refused its data: the options are checked before the march, so what it refuses is
     * a guess or residual weights that overflowed on this window (too long for the model's
     * scales); counted as a failed solve, so the window is halved */
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
  s->t_newton += vm_wall_time () - t0;
  return st;
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
 * values c of |a_0c - xa_c| / comp_scale.  Why: it is of the order of the window's
 * discretization error when the window resolves the motion, but a window far too long for its
 * nodes can meet its equations with a trajectory that ignores its initial data (an oscillator
 * over a huge interval comes back as q = 0), which both orders agree on. */
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

/* the unknowns of an action, allocated once its first move has set n */
static int
ensure_x (double **x, const vm_march_action *a)
{
  if (! *x)
    *x = vm_scratch_alloc ((size_t) (a->n > 0 ? a->n : 1) * sizeof **x);
  return *x ? VM_OK : VM_ENOMEM;
}

const char *
march_rej_name (int r)
{
  return r == VM_MARCH_REJ_ERROR ? "error estimate above the tolerance"
         : r == VM_MARCH_REJ_NEWTON ? "Newton did not converge"
         : r == VM_MARCH_REJ_CHECK ? "vetoed by the check"
         : "Newton did not converge for the companion order";
}

int
march_check_window (march_mem *m, int *reason, double *f, char *why, size_t nwhy)
{
  vm_march_action *a = m->a;
  int ok = 1, st;
  double fac = 0.5;
  why[0] = '\0';
  if (! a->check)
    return VM_OK;
  if ((st = a->check (a->self, m->tm, a->N, &ok, &fac, why, nwhy)) != VM_OK || ok)
    return st;
  *reason = VM_MARCH_REJ_CHECK;
  *f = fac > 0.0 && isfinite (fac) ? fmin (0.9, fmax (0.01, fac)) : 0.5;
  return VM_OK;
}

/* The main solve of the window from m->xa (the prediction or the caller's guess) into m->tm,
 * m->xe; m->reason = VM_MARCH_REJ_NEWTON when Newton failed. */
static int
main_solve (march_mem *m, const double *guess, int64_t ldg)
{
  vm_march_action *a = m->a;
  vm_march_sol *s = m->s;
  int st, r;
  char what[64];
  if ((st = a->move (a->self, m->ta, m->tb, m->xa)) != VM_OK
      || (st = ensure_x (&m->x, a)) != VM_OK)
    return st;
  if (guess)
    st = a->from_traj (a->self, guess, ldg, m->x);
  else
    st = a->predict (a->self, m->xa, m->pt, m->ptraj, m->pn, a->N, m->x);
  if (st != VM_OK)
    return st;
  snprintf (what, sizeof what, "window %d [%.6g, %.6g] order %d", m->wnum, m->ta, m->tb,
            a->order);
  st = solve (m, a, &m->sym, m->x, &m->info, what);
  if (! s->linsolve)
    {
      s->linsolve = m->info.linsolve;
      s->kl = m->info.kl;
      s->ku = m->info.ku;
      s->lean = m->info.lean;
    }
  if ((r = a->extract (a->self, m->x, m->tm, a->N, m->xe)) != VM_OK)
    return r;
  if (st != VM_OK)
    {
      if (st >= VM_ENEWTON_MAXIT && st <= VM_ENEWTON_NONFINITE)
        {
          m->reason = VM_MARCH_REJ_NEWTON;
          return VM_OK;
        }
      return st;
    }
  return VM_OK;
}

/* The companion solve of the window from the main trajectory, and the estimate m->err;
 * m->reason = VM_MARCH_REJ_COMPANION when its Newton failed. */
static int
companion_solve (march_mem *m, vm_march_action *c)
{
  const vm_march_action *a = m->a;
  const vm_march_opts *o = m->o;
  int st;
  char what[64];
  vm_newton_info cinfo;
  vm_newton_info_init (&cinfo);
  if ((st = c->move (c->self, m->ta, m->tb, m->xa)) != VM_OK
      || (st = ensure_x (&m->xc, c)) != VM_OK
      || (st = c->from_traj (c->self, m->tm, a->N, m->xc)) != VM_OK)
    return st;
  snprintf (what, sizeof what, "window %d companion order %d", m->wnum, c->order);
  st = solve (m, c, &m->csym, m->xc, &cinfo, what);
  m->citer = cinfo.iterations;
  vm_newton_info_free (&cinfo);
  if (st == VM_OK)
    st = c->extract (c->self, m->xc, m->tc, c->N, m->xec);
  else if (st >= VM_ENEWTON_MAXIT && st <= VM_ENEWTON_NONFINITE)
    {
      m->reason = VM_MARCH_REJ_COMPANION;
      return VM_OK;
    }
  if (st != VM_OK)
    return st;
  m->err = error_norm (m->tm, m->tc, a->N, a->nerr, o->rtol, o->atol);
  if (! isnan (m->err))
    m->err = fmax (m->err, initial_defect (m->tm, m->xa, a->N, a->nerr < a->nstate ? a->nerr
                                           : a->nstate, o->rtol, o->atol));
  return VM_OK;
}

/* The o->repeat solves of the window from its own trajectory; m->reason = VM_MARCH_REJ_NEWTON
 * when one failed. */
static int
repeat_solves (march_mem *m)
{
  vm_march_action *a = m->a;
  int st, r;
  char what[64];
  for (r = 0; r < m->o->repeat; r++)
    {
      vm_newton_info rinfo;
      vm_newton_info_init (&rinfo);
      if ((st = a->from_traj (a->self, m->tm, a->N, m->x)) != VM_OK)
        return st;
      snprintf (what, sizeof what, "window %d repeat %d", m->wnum, r + 1);
      st = solve (m, a, &m->sym, m->x, &rinfo, what);
      vm_newton_info_free (&rinfo);
      if (st != VM_OK)
        {
          m->reason = VM_MARCH_REJ_NEWTON;
          return VM_OK;
        }
      if ((st = a->extract (a->self, m->x, m->tm, a->N, m->xe)) != VM_OK)
        return st;
    }
  return VM_OK;
}

int
march_window (march_mem *m, vm_march_action *comp, const double *guess, int64_t ldg)
{
  int st;
  m->err = NAN;
  m->reason = 0;
  m->citer = 0;
  if ((st = main_solve (m, guess, ldg)) != VM_OK || m->reason)
    return st;
  if (comp && ((st = companion_solve (m, comp)) != VM_OK || m->reason))
    return st;
  return repeat_solves (m);
}

void
march_keep_previous (march_mem *m)
{
  const vm_march_action *a = m->a;
  if (a->accepted)
    a->accepted (a->self);
  memcpy (m->pt, a->t, (size_t) a->N * sizeof *m->pt);
  memcpy (m->ptraj, m->tm, (size_t) a->N * (size_t) a->nout * sizeof *m->ptraj);
  m->pn = a->N;
  memcpy (m->xa, m->xe, (size_t) a->nstate * sizeof *m->xa);
}
