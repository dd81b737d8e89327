/* newton_run.c -- vm_newton_run (newton.h), the Newton solver's entry and loop: it checks the
 * arguments (newton_args.c), sets up the memory (newton_impl.h) once per solve, iterates with the
 * convergence and watchdog tests, takes each accepted step, and ends with the best iterate and
 * the statistics.
 *
 * Errors: VM_EARG, VM_ENOMEM, a callback's code, VM_ENEWTON_* and the linear solver's status
 * (info->message says which).  Cost: see newton.h.  Why the loop is here and the steps elsewhere:
 * the loop decides when the iteration ends (newton.h 1, 5, max_iter, the watchdog of 3); the steps
 * (newton_step.c, newton_lm.c) only propose x_{k+1}. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "newton/newton_impl.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

/* ---- the memory and the statistics ------------------------------------------------------------- */

/* The number of Jacobian values allocated (at least 1) */
static size_t
jx_count (const newton_mem *w)
{
  return (size_t) (w->nnz > 0 ? w->nnz : 1);
}

static void
ws_free (newton_mem *w)
{
  vm_linsolve_free (&w->ls);
  vm_linsolve_free (&w->lsK);
  vm_scratch_free (w->Jx);
  vm_scratch_free (w->vec);
  free (w->Kp);
  free (w->Ki);
  free (w->Kx);
  free (w->kb);
  free (w->ksol);
  free (w->kposJ);
  free (w->kposT);
  free (w->kposmu);
  memset (w, 0, sizeof *w);
}

static void
add_linsolve_stats (vm_newton_info *inf, const vm_linsolve *ls)
{
  inf->nfactor += ls->nfactor;
  inf->nchol += ls->nchol;
  inf->nchol_fail += ls->nchol_fail;
  inf->nsymbolic += ls->nsymbolic;
  inf->t_symbolic += ls->t_symbolic;
  inf->t_numeric += ls->t_numeric;
  inf->t_solve += ls->t_solve;
}

/* ---- the loop ---------------------------------------------------------------------------------- */

/* Take x_{k+1} = w->xt (F there in w->Ft): the histories, the best iterate, the progress output. */
static void
accept_step (newton_mem *w, double *x, const newton_step_t *s, const vm_newton_opts *o, vm_newton_info *inf,
             int k)
{
  double stepn = 0.0, *tmp;
  int i;
  for (i = 0; i < w->n; i++)
    {
      const double d = fabs (w->xt[i] - x[i]);
      if (d > stepn)
        stepn = d;
      x[i] = w->xt[i];
    }
  tmp = w->F;
  w->F = w->Ft;
  w->Ft = tmp;
  k++;
  inf->iterations = k;
  inf->nhist = k + 1;
  inf->res_hist[k] = s->ft;
  inf->step_hist[k] = stepn;
  inf->lambda_hist[k] = s->t;
  inf->kind_hist[k] = s->kind;
  if (s->ft < w->fbest)
    w->nrelax = 0;   /* a new best ends a relaxed sequence */
  else if (w->relaxed_step || w->nrelax > 0)
    w->nrelax++;
  w->relaxed_step = 0;
  if (s->ft < w->fbest)
    {
      w->fbest = s->ft;
      w->kbest = k;
      memcpy (w->xbest, x, (size_t) w->n * sizeof *x);
    }
  if (o->verbose)
    fprintf (stderr, "newton: %4d  ||F|| = %.6e  ||dx||_inf = %.3e  %-6s %s = %.3e\n", k, s->ft,
             stepn, vm_newton_kind_name (s->kind), s->kind == VM_NEWTON_LM ? "mu" : "t", s->t);
  if (o->on_iter)
    o->on_iter (o->on_iter_ctx, k, s->ft, stepn, s->kind, s->t);
}

/* The work arrays, the histories and J's linear solver, once per solve (message set on failure). */
static int
ws_setup (newton_mem *w)
{
  const int n = w->p->n;
  const int64_t *colptr = w->p->colptr, *rowind = w->p->rowind;
  const vm_newton_opts *o = w->o;
  vm_newton_info *inf = w->inf;
  const size_t nh = (size_t) o->max_iter + 1;
  int i, st;
  w->n = n;
  w->nnz = colptr[n];
  w->Ap = colptr;
  w->Ai = rowind;
  /* the largest work array (nnz values), kept for the next solve up to VM_SCRATCH_KEEP, in huge
   * pages from 2 MB on (vm_scratch.h): every pass over it (the Jacobian's sums, the band's fill,
   * the sum of squares) streams through it, and in 4 kB pages the hardware prefetch stops at
   * each page (bench/README_dual.md, "The physical limit") */
  w->Jx = vm_scratch_alloc (jx_count (w) * sizeof *w->Jx);
  /* the eight n-vectors in one block, kept for the next solve (vm_scratch.h) */
  w->vec = vm_scratch_alloc (8 * (size_t) n * sizeof *w->vec);
  if (w->vec)
    {
      w->F = w->vec;
      w->Ft = w->F + n;
      w->dx = w->Ft + n;
      w->xt = w->dx + n;
      w->xbest = w->xt + n;
      w->w = w->xbest + n;
      w->wt = w->w + n;
      w->jx = w->wt + n;
    }
  inf->res_hist = malloc (nh * sizeof *inf->res_hist);
  inf->step_hist = malloc (nh * sizeof *inf->step_hist);
  inf->lambda_hist = malloc (nh * sizeof *inf->lambda_hist);
  inf->kind_hist = malloc (nh * sizeof *inf->kind_hist);
  if (!w->Jx || !w->vec || !inf->res_hist || !inf->step_hist || !inf->lambda_hist || !inf->kind_hist)
    {
      newton_msg (inf, "out of memory for the work arrays (n = %d, nnz = %lld)", n,
              (long long) colptr[n]);
      return VM_ENOMEM;
    }
  for (i = 0; i < n; i++)
    {
      w->wt[i] = o->res_weight ? o->res_weight[i] : 1.0;
      if (w->wt[i] > w->wmax)
        w->wmax = w->wt[i];
    }
  /* the linear solver of J: the backend chosen (or resolved from the pattern) once */
  w->lo.kind = o->linsolve;
  w->lo.umf_ordering = o->umf_ordering;
  w->lo.umf_strategy = o->umf_strategy;
  w->lo.umf_irstep = o->umf_irstep;
  w->lo.cache = o->symbolic;
  w->lo.block = o->block;
  w->lo.definite = o->definite;
  w->lo.definite_scale = o->definite_scale;
  w->lo.lean = o->lean != VM_LINSOLVE_LEAN_AUTO ? o->lean
               : o->linsolve == VM_LINSOLVE_AUTO ? VM_LINSOLVE_LEAN_AUTO : 0;
  st = vm_linsolve_init (&w->ls, n, colptr, rowind, &w->lo);
  inf->linsolve = w->ls.kind;
  inf->lean = w->ls.lean;
  inf->kl = w->ls.kl;
  inf->ku = w->ls.ku;
  if (st != VM_OK)
    newton_msg (inf, "setting up the linear solver (%s): %s", vm_linsolve_name (w->ls.kind),
            w->ls.message);
  return st;
}


/* F(x0) (the caller's o->F0, or a call of F), the histories' first entry, the scale and target
 * of the residual test (w->target, inf->res_scale).  VM_OK with *f = ||F(x0)||_W; otherwise the
 * callback's code or VM_ENEWTON_NONFINITE (message set). */
static int
start (newton_mem *w, const double *x, double *f)
{
  const vm_newton_opts *o = w->o;
  vm_newton_info *inf = w->inf;
  int st, n = w->n;
  double scale;
  if (o->F0)
    {
      memcpy (w->F, o->F0, (size_t) n * sizeof *w->F);
      st = 0;
    }
  else
    {
      st = newton_call_F (w, x, w->F);
    }
  if (st != 0)
    {
      newton_msg (inf, "the residual function returned %d at the initial guess", st);
      return st;
    }
  *f = newton_wnrm2 (n, w->wt, w->F);
  inf->res_hist[0] = *f;
  inf->step_hist[0] = 0.0;
  inf->lambda_hist[0] = 0.0;
  inf->kind_hist[0] = VM_NEWTON_START;
  inf->nhist = 1;
  inf->final_res = *f;
  if (!isfinite (*f))
    {
      newton_msg (inf, "the residual at the initial guess is not finite");
      return VM_ENEWTON_NONFINITE;
    }
  w->fbest = *f;
  scale = o->res_scale > 0.0 ? o->res_scale : (*f > 1.0 ? *f : 1.0);
  w->target = o->tol_res * scale;
  inf->res_scale = scale;
  if (o->verbose)
    fprintf (stderr, "newton: n = %d, nnz = %lld, ||F(x0)||_2 = %.6e, target %.3e\n", n,
             (long long) w->nnz, *f, w->target);
  if (o->on_iter)
    o->on_iter (o->on_iter_ctx, 0, *f, 0.0, VM_NEWTON_START, 0.0);
  return VM_OK;
}

/* The tests at the top of iteration k (newton.h 1, 4 and max_iter): 1 when the solve ends at x_k
 * with *status (message set), else 0. */
static int
finished (newton_mem *w, const vm_newton_opts *o, vm_newton_info *inf, int k, double f, int step_conv,
          int *status)
{
  *status = VM_OK;
  if (f <= w->target)
    newton_msg (inf, "converged: ||F|| = %.3e <= tol_res*scale = %.3e after %d iterations", f,
            w->target, k);
  else if (step_conv)
    newton_msg (inf, "converged: %s correction %.3e <= tol_step*(step_scale + ||x||_inf) and "
            "contracting (previous step %.3e) after %d iterations (||F|| = %.3e)",
            inf->kind_hist[k] == VM_NEWTON_CHORD ? "chord" : "Newton", inf->step_hist[k],
            inf->step_hist[k - 1], k, f);
  else if (k >= o->max_iter)
    {
      *status = VM_ENEWTON_MAXIT;
      newton_msg (inf, "no convergence in %d iterations: best ||F|| = %.3e (iteration %d), "
              "target %.3e", k, w->fbest, w->kbest, w->target);
    }
  else
    return 0;
  return 1;
}

/* The watchdog (newton.h 3): nonmonotone_max steps after a relaxed one found no better point, so
 * go on from the best iterate x <- xbest, monotone from there on; *f = its residual.  VM_OK or the
 * callback's code (message set). */
static int
watchdog (newton_mem *w, double *x, double *f)
{
  vm_newton_info *inf = w->inf;
  int st;
  memcpy (x, w->xbest, (size_t) w->n * sizeof *x);
  w->nrelax = 0;
  w->relax_off = 1;
  newton_drop_held (w);
  st = newton_call_F (w, x, w->F);
  if (st != 0)
    {
      newton_msg (inf, "the residual function returned %d at the best iterate (iteration %d)", st,
              w->kbest);
      return st;
    }
  *f = w->fbest;
  inf->nwatchdog++;
  return VM_OK;
}

/* The end of a solve that started: x <- xbest, final_res the smallest residual of the history. */
static void
finish (newton_mem *w, double *x, vm_newton_info *inf)
{
  int j;
  memcpy (x, w->xbest, (size_t) w->n * sizeof *x);
  if (inf->nhist > 0)
    {
      double m = inf->res_hist[0];
      for (j = 1; j < inf->nhist; j++)
        if (inf->res_hist[j] < m)
          m = inf->res_hist[j];
      inf->final_res = m;
    }
}

int
vm_newton_run (const vm_newton_problem *pb, double *x, const vm_newton_opts *o,
               vm_newton_info *info)
{
  vm_newton_info local;
  vm_newton_info *inf = info ? info : &local;
  vm_newton_opts defaults;
  newton_mem ws, *w = &ws;
  int status = VM_OK, k = 0, step_conv = 0, started = 0;
  double f;

  if (info)
    vm_newton_info_free (info);
  else
    vm_newton_info_init (&local);
  memset (w, 0, sizeof *w);
  if (!o)
    {
      vm_newton_opts_init (&defaults);
      o = &defaults;
    }
  inf->final_res = NAN;
  w->p = pb;
  w->o = o;
  w->inf = inf;
  if (!pb)
    {
      newton_msg (inf, "NULL argument (problem)");
      status = VM_EARG;
      goto done;
    }
  status = newton_check_args (pb, x, o, inf);
  if (status != VM_OK)
    goto done;
  status = ws_setup (w);
  if (status != VM_OK)
    goto done;
  memcpy (w->xbest, x, (size_t) pb->n * sizeof *x);
  started = 1;
  status = start (w, x, &f);
  if (status != VM_OK)
    goto done;

  while (!finished (w, o, inf, k, f, step_conv, &status))
    {
      newton_step_t s = { 0, VM_NEWTON_FULL, 0, 0, 1.0, NAN };
      if (w->nrelax >= o->nonmonotone_max && w->kbest < k
          && (status = watchdog (w, x, &f)) != VM_OK)
        break;
      status = newton_one_step (w, x, f, k, &s);
      if (status != VM_OK || s.stop)
        break;
      if (s.kind != VM_NEWTON_LM)
        w->mu_next = 0.0;
      if (s.kind == VM_NEWTON_DAMPED)
        inf->ndamped++;
      accept_step (w, x, &s, o, inf, k);
      f = s.ft;
      step_conv = s.step_conv;
      k++;
    }

done:
  add_linsolve_stats (inf, &w->ls);
  add_linsolve_stats (inf, &w->lsK);
  if (started)
    finish (w, x, inf);
  if (o->verbose && started)
    fprintf (stderr, "newton: %s (%s)\n", inf->message, vm_status_string (status));
  ws_free (w);
  inf->status = status;
  if (!info)
    vm_newton_info_free (&local);
  return status;
}
