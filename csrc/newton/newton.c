/* newton.c -- the helpers at the bottom of the Newton solver (newton.h, newton_impl.h): the
 * public defaults and the lifetime of the info and symbolic structs, and the small functions that
 * the loop (newton_run.c), the steps (newton_step.c), the fallback (newton_lm.c) and the checks
 * (newton_args.c) share: the counted call of F, the message, the norms, the linear solver's error
 * and the release of a held factorization.
 *
 * Errors: none of their own (newton_call_F passes the callback's code through, newton_ls_error
 * returns the status it is given).  Cost: O(n) for the norms, O(1) otherwise.  Why they sit apart
 * from the loop: every other file of the solver needs them, and the loop needs those files, so
 * each arrow between the files points down. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "newton/newton_impl.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

/* ---- small helpers ------------------------------------------------------------------------------ */

/* F(x) into Fx, timed and counted in inf; the callback's code. */
int
newton_call_F (newton_mem *w, const double *x, double *Fx)
{
  vm_newton_info *inf = w->inf;
  double t0 = vm_wall_time ();
  int st = w->p->F (x, Fx, w->p->ctx);
  inf->t_fun += vm_wall_time () - t0;
  inf->nfev++;
  return st;
}

void
newton_msg (vm_newton_info *inf, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (inf->message, sizeof inf->message, fmt, ap);
  va_end (ap);
}

/* ||v||_2 without spurious overflow or underflow; NaN if any entry is NaN, Inf if any is infinite. */
double
newton_nrm2 (int n, const double *v)
{
  double amax = 0.0, s = 0.0;
  int i;
  for (i = 0; i < n; i++)
    {
      const double a = fabs (v[i]);
      if (a != a)
        return a;
      if (a > amax)
        amax = a;
    }
  if (amax == 0.0 || isinf (amax))
    return amax;
  for (i = 0; i < n; i++)
    {
      const double r = v[i] / amax;
      s += r * r;
    }
  return amax * sqrt (s);
}

/* ||diag(wt) v||_2, as newton_nrm2 (wt > 0). */
double
newton_wnrm2 (int n, const double *wt, const double *v)
{
  double amax = 0.0, s = 0.0;
  int i;
  for (i = 0; i < n; i++)
    {
      const double a = wt[i] * fabs (v[i]);
      if (a != a)
        return a;
      if (a > amax)
        amax = a;
    }
  if (amax == 0.0 || isinf (amax))
    return amax;
  for (i = 0; i < n; i++)
    {
      const double r = wt[i] * v[i] / amax;
      s += r * r;
    }
  return amax * sqrt (s);
}

double
newton_nrminf (int n, const double *v)
{
  double m = 0.0;
  int i;
  for (i = 0; i < n; i++)
    {
      const double a = fabs (v[i]);
      if (a != a)
        return a;
      if (a > m)
        m = a;
    }
  return m;
}

/* A failure of the linear solver: its reason in the message, its status returned. */
int
newton_ls_error (vm_newton_info *inf, const char *what, const vm_linsolve *ls, int st, int iter)
{
  newton_msg (inf, "%s failed at iteration %d (%s): %s", what, iter, vm_linsolve_name (ls->kind),
          ls->message);
  return st;
}

/* Drop the held factorization (UMFPACK's Numeric object) before w->Jx changes or the LM system is
 * factored. */
void
newton_drop_held (newton_mem *w)
{
  if (w->held)
    vm_linsolve_release (&w->ls);
  w->held = 0;
}

/* ---- public helpers ----------------------------------------------------------------------------- */

void
vm_newton_opts_init (vm_newton_opts *o)
{
  if (!o)
    return;
  o->tol_res = 1e-10;
  o->res_scale = 0.0;
  o->res_weight = NULL;
  o->F0 = NULL;
  o->x_offset = NULL;
  o->offset_rows = NULL;
  o->tol_round = 0.0;
  o->tol_step = 1e-12;
  o->step_scale = 1.0;
  o->max_iter = 50;
  o->line_search = 1;
  o->lm_fallback = 1;
  o->verbose = 0;
  o->umf_ordering = -1;
  o->umf_strategy = -1;
  o->umf_irstep = -1;
  o->linsolve = VM_LINSOLVE_AUTO;
  o->block = 0;
  o->lean = VM_LINSOLVE_LEAN_AUTO;
  o->definite = 0;
  o->definite_scale = NULL;
  o->reuse = REUSE_DEFAULT;
  o->reuse_theta = 0.25;
  o->nonmonotone = NONMONOTONE_DEFAULT;
  o->nonmonotone_max = NONMONOTONE_MAX_DEFAULT;
  o->symbolic = NULL;
  o->on_iter = NULL;
  o->on_iter_ctx = NULL;
  o->jac_sumsq = NULL;
}

void
vm_newton_symbolic_init (vm_newton_symbolic *c)
{
  vm_linsolve_cache_init (c);
}

void
vm_newton_symbolic_free (vm_newton_symbolic *c)
{
  vm_linsolve_cache_free (c);
}

void
vm_newton_info_init (vm_newton_info *info)
{
  if (info)
    memset (info, 0, sizeof *info);
}

void
vm_newton_info_free (vm_newton_info *info)
{
  if (!info)
    return;
  free (info->res_hist);
  free (info->step_hist);
  free (info->lambda_hist);
  free (info->kind_hist);
  memset (info, 0, sizeof *info);
}

const char *
vm_newton_kind_name (int kind)
{
  static const char *names[] = { "start", "newton", "damped", "lm", "chord" };
  return kind >= VM_NEWTON_START && kind <= VM_NEWTON_CHORD ? names[kind] : "?";
}
