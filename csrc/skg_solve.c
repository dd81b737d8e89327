/* skg_solve.c -- Newton solve of the discrete SKG action, full and reduced modes, time windows
 * (see skg_solve.h). */
#include "skg_solve.h"
#include "skg.h"
#include "sbp.h"
#include "vm_status.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
vm_skg_solve_opts_init (vm_skg_solve_opts *o)
{
  if (! o)
    return;
  memset (o, 0, sizeof *o);
  o->mode = VM_SKG_REDUCED;
  o->order = 4;
  o->N = 81;
  o->windows = 1;
  o->t0 = 0.0;
  o->tf = 1.0;
  o->q_guess = NULL;
  o->eom_residual = 1;
  vm_newton_opts_init (&o->newton);
  o->newton.tol_round = 1.0;
  /* the unknowns are node-major, so the Jacobian is banded: the natural order keeps the band
   * (bench/README_skg.md compares AMD, METIS and the symmetric strategy) */
  o->newton.umf_ordering = VM_UMF_ORDERING_NONE;
  o->newton.umf_strategy = VM_UMF_STRATEGY_UNSYMMETRIC;
  o->newton.umf_irstep = 0;
}

void
vm_skg_solution_init (vm_skg_solution *sol)
{
  if (sol)
    memset (sol, 0, sizeof *sol);
}

void
vm_skg_solution_free (vm_skg_solution *sol)
{
  if (! sol)
    return;
  free (sol->t);
  free (sol->q);
  free (sol->v);
  free (sol->lambda);
  free (sol->win_iter);
  free (sol->win_status);
  free (sol->win_res);
  free (sol->hist_ptr);
  free (sol->res_hist);
  free (sol->step_hist);
  free (sol->lambda_hist);
  free (sol->kind_hist);
  memset (sol, 0, sizeof *sol);
}

/* ---- Newton callbacks ------------------------------------------------------------------------- */

typedef struct
{
  vm_skg *s;
  double *grad;          /* nz */
  double *hval;          /* s->nnz */
  /* reduced mode */
  double *z;             /* nz: full point, q- = lambda- = 0 */
  int64_t nr;            /* reduced unknowns */
  int64_t *plus;         /* nr: full index of reduced unknown r (q+ / lambda+) */
  int64_t *minus;        /* nr: full index of reduced equation r (q- / lambda-) */
  int64_t *rcp, *rri;    /* reduced CSC pattern */
  int64_t rnnz;
  vm_skg_plan plan;      /* Hessian contributions -> reduced Jacobian slots */
  int plan_ok;
} skg_ctx;

static int
full_F (const double *x, double *F, void *ctx)
{
  skg_ctx *c = ctx;
  return vm_skg_eval (c->s, x, NULL, F, NULL);
}

static int
full_J (const double *x, double *Jx, void *ctx)
{
  skg_ctx *c = ctx;
  return vm_skg_eval (c->s, x, NULL, c->grad, Jx);
}

static void
red_point (skg_ctx *c, const double *y)
{
  int64_t r;
  for (r = 0; r < c->nr; r++)
    c->z[c->plus[r]] = y[r];
}

static int
red_F (const double *y, double *F, void *ctx)
{
  skg_ctx *c = ctx;
  int64_t r;
  int st;
  red_point (c, y);
  if ((st = vm_skg_eval (c->s, c->z, NULL, c->grad, NULL)) != VM_OK)
    return st;
  for (r = 0; r < c->nr; r++)
    F[r] = c->grad[c->minus[r]];
  return VM_OK;
}

static int
red_J (const double *y, double *Jx, void *ctx)
{
  skg_ctx *c = ctx;
  red_point (c, y);
  return vm_skg_eval_plan (c->s, c->z, NULL, NULL, &c->plan, Jx);
}

/* Reduced index maps and the pattern of d2S / d(q-, lambda-) d(q+, lambda+) taken from the full
 * pattern.  pmap[i] = reduced unknown of full index i (q+ / lambda+) or -1; mmap[i] = reduced
 * equation of full index i (q- / lambda-) or -1.  Both are monotone in i, so the reduced columns
 * come in order and the rows stay sorted. */
static int
red_build (skg_ctx *c)
{
  const vm_skg *s = c->s;
  int64_t nz = s->nz, i, j, e, cnt, nr1 = s->n + s->m;
  int64_t *pmap = NULL, *mmap = NULL;
  int st = VM_ENOMEM;
  c->nr = s->N * nr1;
  pmap = malloc ((size_t) nz * sizeof *pmap);
  mmap = malloc ((size_t) nz * sizeof *mmap);
  c->plus = malloc ((size_t) c->nr * sizeof *c->plus);
  c->minus = malloc ((size_t) c->nr * sizeof *c->minus);
  c->rcp = malloc ((size_t) (c->nr + 1) * sizeof *c->rcp);
  if (! pmap || ! mmap || ! c->plus || ! c->minus || ! c->rcp)
    goto done;
  for (i = 0; i < nz; i++)
    {
      int64_t k = i / s->nb;
      int off = (int) (i % s->nb), n = s->n, m = s->m;
      pmap[i] = mmap[i] = -1;
      if (off < n)
        pmap[i] = k * nr1 + off;
      else if (off < 2 * n)
        mmap[i] = k * nr1 + (off - n);
      else if (off < 2 * n + m)
        pmap[i] = k * nr1 + n + (off - 2 * n);
      else
        mmap[i] = k * nr1 + n + (off - 2 * n - m);
      if (pmap[i] >= 0)
        c->plus[pmap[i]] = i;
      if (mmap[i] >= 0)
        c->minus[mmap[i]] = i;
    }
  cnt = 0;
  for (j = 0; j < nz; j++)
    if (pmap[j] >= 0)
      for (e = s->colptr[j]; e < s->colptr[j + 1]; e++)
        if (mmap[s->rowind[e]] >= 0)
          cnt++;
  c->rnnz = cnt;
  c->rri = malloc ((size_t) (cnt > 0 ? cnt : 1) * sizeof *c->rri);
  if (! c->rri)
    goto done;
  cnt = 0;
  c->rcp[0] = 0;
  for (j = 0; j < nz; j++)
    if (pmap[j] >= 0)
      {
        for (e = s->colptr[j]; e < s->colptr[j + 1]; e++)
          if (mmap[s->rowind[e]] >= 0)
            {
              c->rri[cnt] = mmap[s->rowind[e]];
              cnt++;
            }
        c->rcp[pmap[j] + 1] = cnt;
      }
  /* the scatter plan: row components q-, lambda- and column components q+, lambda+ of a node */
  {
    int rowc[4 * 64], colc[4 * 64], *rc = rowc, *cc = colc, cmp, n = s->n, m = s->m;
    if (s->nb > 4 * 64)
      {
        rc = malloc ((size_t) s->nb * sizeof *rc);
        cc = malloc ((size_t) s->nb * sizeof *cc);
      }
    if (rc && cc)
      {
        for (cmp = 0; cmp < s->nb; cmp++)
          {
            rc[cmp] = cmp >= n && cmp < 2 * n ? cmp - n
                      : cmp >= 2 * n + m ? n + (cmp - 2 * n - m) : -1;
            cc[cmp] = cmp < n ? cmp : cmp >= 2 * n && cmp < 2 * n + m ? n + (cmp - 2 * n) : -1;
          }
        st = vm_skg_plan_build (s, (int) nr1, rc, cc, c->nr, c->rcp, c->rri, &c->plan);
        c->plan_ok = st == VM_OK;
      }
    if (rc != rowc)
      {
        free (rc);
        free (cc);
      }
    if (! c->plan_ok)
      goto done;
  }
  st = VM_OK;
done:
  free (pmap);
  free (mmap);
  return st;
}

static void
ctx_free (skg_ctx *c)
{
  free (c->grad);
  free (c->hval);
  free (c->z);
  free (c->plus);
  free (c->minus);
  if (c->plan_ok)
    vm_skg_plan_free (&c->plan);
  free (c->rcp);
  free (c->rri);
  memset (c, 0, sizeof *c);
}

/* ---- one window ------------------------------------------------------------------------------- */

/* Residual weight of equation i (full numbering; doc/skg.md, "Stopping").  Equation i of node k is
 * a quadrature sum: H_kk times the residual r of the discrete (SBP-SAT) equation of motion or
 * constraint at node k, so it gets 1/sqrt(H_kk) and sum_i (w_i F_i)^2 = sum_k H_kk r_k^2, the
 * L2(t0, tf) norm of r, which does not change with N for the same continuous residual.  With
 * momentum != 0, the q equations of node 0 also hold the momentum condition p+_0 - p_i (the SAT,
 * not multiplied by H_00), which this norm counts as a force of size (p+_0 - p_i) / H_00;
 * scale_weight counts it as a momentum, with 1/sqrt(tf - t0), for the scale of the relative test
 * (the default guess has a momentum jump at t0 whose ||.||_W grows like sqrt(N)). */
static double
eq_weight (const vm_skg *s, int64_t i, int momentum)
{
  int64_t k = i / s->nb;
  int c = (int) (i % s->nb);
  if (momentum && k == 0 && c < 2 * s->n)
    return 1.0 / sqrt (s->tf - s->t0);
  return 1.0 / sqrt (s->hw[k]);
}

/* max(1, ||F(x0)||) with the momentum-aware weights: the scale of the relative residual test. */
static int
res_scale0 (skg_ctx *c, int reduced, const double *x, double *F, int64_t n, double *scale)
{
  int64_t i;
  double amax = 0.0, sum = 0.0;
  int st = reduced ? red_F (x, F, c) : full_F (x, F, c);
  if (st != VM_OK)
    return st;
  for (i = 0; i < n; i++)
    F[i] *= eq_weight (c->s, reduced ? c->minus[i] : i, 1);
  for (i = 0; i < n; i++)
    amax = fmax (amax, fabs (F[i]));
  if (amax > 0.0 && isfinite (amax))
    for (i = 0; i < n; i++)
      sum += (F[i] / amax) * (F[i] / amax);
  *scale = fmax (1.0, amax * sqrt (sum));
  if (! isfinite (*scale))
    *scale = 1.0;   /* Newton reports the non-finite residual itself */
  return VM_OK;
}

/* What the windows share: the action (built for the first window, moved to the next ones with
 * vm_skg_set_window), the reduced pattern and its plan, the work arrays and the symbolic analysis
 * of the Jacobian (one for all windows: same pattern). */
typedef struct
{
  vm_skg s;
  skg_ctx c;
  double *x, *wt, *f0;
  vm_newton_symbolic sym;
  int built;
} win_t;

static void
win_free (win_t *W)
{
  free (W->x);
  free (W->wt);
  free (W->f0);
  ctx_free (&W->c);
  vm_newton_symbolic_free (&W->sym);
  if (W->built)
    vm_skg_free (&W->s);
  memset (W, 0, sizeof *W);
}

/* Solve one window; write its nodes k0.. (skipping its node 0 when skip0) into sol; qend, vend
 * receive q+ and Da q+ at its last node.  Returns the status; *iters and the history are
 * appended to sol. */
static int
solve_window (const vm_mech *model, const double *par, const double *qi, const double *vi,
              const vm_skg_solve_opts *o, double ta, double tb, const double *guess,
              int64_t ldg, vm_skg_solution *sol, int w, int64_t k0, int skip0, double *qend,
              double *vend, win_t *W)
{
  vm_skg *sp = &W->s;
  skg_ctx *cp = &W->c;
  vm_newton_info info;
  vm_newton_opts nopt = o->newton;
  int n = model->n, m = model->m, st, cc, a, nsol;
  int64_t N = o->N, k, i, e, kout;
  double *x, *wt, *f0;
  double tb0 = vm_wall_time ();
  vm_newton_info_init (&info);
  if (! W->built)
    {
      st = vm_skg_build (sp, model, par, N, o->order, ta, tb, qi, vi);
      if (st == VM_OK)
        W->built = 1;
    }
  else
    st = vm_skg_set_window (sp, ta, tb, qi, vi);
  if (st != VM_OK)
    {
      sol->t_build += vm_wall_time () - tb0;
      sol->win_status[w] = st;
      snprintf (sol->message, sizeof sol->message, "window %d: %s: %s", w + 1,
                w == 0 ? "vm_skg_build" : "vm_skg_set_window", vm_status_string (st));
      return st;
    }
  if (sp->nz > INT_MAX)
    {
      snprintf (sol->message, sizeof sol->message, "window %d: too many unknowns", w + 1);
      return VM_EARG;
    }
  sp->ntape = 0;
  sp->t_tape = sp->t_hess = sp->t_grad = 0.0;
  st = VM_ENOMEM;
  if (! W->x)
    {
      cp->s = sp;
      cp->grad = malloc ((size_t) sp->nz * sizeof *cp->grad);
      cp->hval = o->mode == VM_SKG_REDUCED ? NULL : malloc ((size_t) sp->nnz * sizeof *cp->hval);
      cp->z = malloc ((size_t) sp->nz * sizeof *cp->z);
      W->x = malloc ((size_t) sp->nz * sizeof *W->x);
      W->wt = malloc ((size_t) sp->nz * sizeof *W->wt);
      W->f0 = malloc ((size_t) sp->nz * sizeof *W->f0);
      if (! cp->grad || (o->mode != VM_SKG_REDUCED && ! cp->hval) || ! cp->z || ! W->x || ! W->wt
          || ! W->f0)
        goto done;
      if (o->mode == VM_SKG_REDUCED)
        {
          if ((st = red_build (cp)) != VM_OK)
            goto done;
          vm_skg_drop_pattern (sp);      /* the reduced pattern and its plan replace it */
        }
      st = VM_ENOMEM;
    }
  sol->t_build += vm_wall_time () - tb0;
  x = W->x;
  wt = W->wt;
  f0 = W->f0;
  if (! nopt.symbolic)
    nopt.symbolic = &W->sym;
  memset (cp->z, 0, (size_t) sp->nz * sizeof *cp->z);
  for (i = 0; i < sp->nz; i++)
    wt[i] = eq_weight (sp, i, 0);
  /* initial guess, full layout in cp->z */
  for (k = 0; k < N; k++)
    for (cc = 0; cc < n; cc++)
      cp->z[vm_skg_index (sp, k, 0, cc)] = guess ? guess[k + ldg * cc] : qi[cc];
  if (o->mode == VM_SKG_REDUCED)
    {
      for (i = 0; i < cp->nr; i++)
        x[i] = cp->z[cp->plus[i]];
      nsol = (int) cp->nr;
      for (i = 0; i < cp->nr; i++)
        wt[i] = eq_weight (sp, cp->minus[i], 0);
      if (o->eom_residual)
        {
          nopt.res_weight = wt;
          if (! (nopt.res_scale > 0.0)
              && (st = res_scale0 (cp, 1, x, f0, cp->nr, &nopt.res_scale)) != VM_OK)
            goto eval_failed;
        }
      st = vm_newton_solve (nsol, cp->rcp, cp->rri, red_F, red_J, cp, x, &nopt, &info);
      red_point (cp, x);         /* the best iterate, q- = lambda- = 0 */
    }
  else
    {
      memcpy (x, cp->z, (size_t) sp->nz * sizeof *x);
      nsol = (int) sp->nz;
      if (o->eom_residual)
        {
          nopt.res_weight = wt;
          if (! (nopt.res_scale > 0.0)
              && (st = res_scale0 (cp, 0, x, f0, sp->nz, &nopt.res_scale)) != VM_OK)
            goto eval_failed;
        }
      st = vm_newton_solve (nsol, sp->colptr, sp->rowind, full_F, full_J, cp, x, &nopt, &info);
      memcpy (cp->z, x, (size_t) sp->nz * sizeof *x);
    }
  /* statistics */
  sol->nfactor += info.nfactor;
  sol->ntape += sp->ntape;
  sol->t_fun += info.t_fun;
  sol->t_jac += info.t_jac;
  sol->t_tape += sp->t_tape;
  sol->t_hess += sp->t_hess;
  sol->t_symbolic += info.t_symbolic;
  sol->t_numeric += info.t_numeric;
  sol->t_solve += info.t_solve;
  sol->win_status[w] = st;
  sol->win_iter[w] = info.iterations;
  sol->win_res[w] = info.final_res;
  sol->iterations += info.iterations;
  if (info.nhist > 0 && info.res_hist)
    {
      size_t nh = (size_t) (sol->nhist + info.nhist);
      double *h = realloc (sol->res_hist, nh * sizeof *h);
      double *hs = h ? realloc (sol->step_hist, nh * sizeof *hs) : NULL;
      double *hl = hs ? realloc (sol->lambda_hist, nh * sizeof *hl) : NULL;
      int *hk = hl ? realloc (sol->kind_hist, nh * sizeof *hk) : NULL;
      if (h)
        sol->res_hist = h;
      if (hs)
        sol->step_hist = hs;
      if (hl)
        sol->lambda_hist = hl;
      if (hk)
        sol->kind_hist = hk;
      if (! hk)
        {
          st = VM_ENOMEM;
          goto done;
        }
      memcpy (h + sol->nhist, info.res_hist, (size_t) info.nhist * sizeof *h);
      memcpy (hs + sol->nhist, info.step_hist, (size_t) info.nhist * sizeof *hs);
      memcpy (hl + sol->nhist, info.lambda_hist, (size_t) info.nhist * sizeof *hl);
      memcpy (hk + sol->nhist, info.kind_hist, (size_t) info.nhist * sizeof *hk);
      sol->nhist += info.nhist;
    }
  sol->hist_ptr[w + 1] = sol->nhist;
  if (st != VM_OK)
    snprintf (sol->message, sizeof sol->message, "window %d/%d (%s mode): %s", w + 1,
              sol->windows, o->mode == VM_SKG_REDUCED ? "reduced" : "full", info.message);
  /* cross-check: full gradient at the returned point */
  if (vm_skg_eval (sp, cp->z, NULL, cp->grad, NULL) == VM_OK)
    for (i = 0; i < sp->nz; i++)
      sol->max_grad = fmax (sol->max_grad, fabs (cp->grad[i]));
  else
    sol->max_grad = NAN;
  /* output */
  for (k = skip0 ? 1 : 0, kout = k0; k < N; k++, kout++)
    {
      sol->t[kout] = sp->t[k];
      for (cc = 0; cc < n; cc++)
        {
          double sum = 0.0;
          for (e = sp->dsp[k]; e < sp->dsp[k + 1]; e++)
            sum += sp->dsv[e] * cp->z[vm_skg_index (sp, sp->dsj[e], 0, cc)];
          if (k == 0)
            sum -= sp->qi[cc] / sp->hw[0];
          sol->q[kout + sol->Ntot * cc] = cp->z[vm_skg_index (sp, k, 0, cc)];
          sol->v[kout + sol->Ntot * cc] = sum;
          if (k == N - 1)
            {
              qend[cc] = cp->z[vm_skg_index (sp, k, 0, cc)];
              vend[cc] = sum;
            }
        }
      for (a = 0; a < m; a++)
        sol->lambda[kout + sol->Ntot * a] = cp->z[vm_skg_index (sp, k, 2, a)];
    }
  for (k = 0; k < N; k++)
    {
      for (cc = 0; cc < n; cc++)
        sol->max_qm = fmax (sol->max_qm, fabs (cp->z[vm_skg_index (sp, k, 1, cc)]));
      for (a = 0; a < m; a++)
        sol->max_lm = fmax (sol->max_lm, fabs (cp->z[vm_skg_index (sp, k, 3, a)]));
    }
  if (0)
    {
    eval_failed:
      sol->win_status[w] = st;
      snprintf (sol->message, sizeof sol->message, "window %d: the residual at the initial guess "
                "could not be evaluated: %s", w + 1, vm_status_string (st));
    }
done:
  if (st == VM_ENOMEM)
    snprintf (sol->message, sizeof sol->message, "window %d: out of memory", w + 1);
  vm_newton_info_free (&info);
  return st;
}

int
vm_skg_solve (const vm_mech *model, const double *par, const double *q_i, const double *v_i,
              const vm_skg_solve_opts *o, vm_skg_solution *sol)
{
  int n, m, W, w, st = VM_OK, cc;
  int64_t N, Ntot, k, nmin;
  double *qa = NULL, *va = NULL, *qb = NULL, *vb = NULL, T, t_start = vm_wall_time ();
  win_t win;
  memset (&win, 0, sizeof win);
  if (! sol)
    return VM_EARG;
  vm_skg_solution_free (sol);
  sol->status = VM_EARG;
  if (! model || ! o || ! q_i || ! v_i || (model->np > 0 && ! par) || o->windows < 1
      || (o->mode != VM_SKG_FULL && o->mode != VM_SKG_REDUCED) || ! isfinite (o->t0)
      || ! isfinite (o->tf) || ! (o->tf > o->t0))
    {
      snprintf (sol->message, sizeof sol->message, "vm_skg_solve: invalid argument");
      return VM_EARG;
    }
  nmin = vm_sbp_min_n (o->order);
  if (nmin < 0 || o->N < nmin)
    {
      sol->status = nmin < 0 ? VM_EORDER : VM_ESIZE;
      snprintf (sol->message, sizeof sol->message, "vm_skg_solve: %s",
                vm_status_string (sol->status));
      return sol->status;
    }
  n = model->n;
  m = model->m;
  W = o->windows;
  N = o->N;
  if ((N - 1) > (INT64_MAX / 4) / W)
    {
      snprintf (sol->message, sizeof sol->message, "vm_skg_solve: too many points");
      return VM_EARG;
    }
  Ntot = (int64_t) W * (N - 1) + 1;
  sol->n = n;
  sol->m = m;
  sol->windows = W;
  sol->Ntot = Ntot;
  sol->status = VM_ENOMEM;
  sol->t = malloc ((size_t) Ntot * sizeof *sol->t);
  sol->q = malloc ((size_t) (Ntot * n + 1) * sizeof *sol->q);
  sol->v = malloc ((size_t) (Ntot * n + 1) * sizeof *sol->v);
  sol->lambda = m > 0 ? malloc ((size_t) (Ntot * m) * sizeof *sol->lambda) : NULL;
  sol->win_iter = calloc ((size_t) W, sizeof *sol->win_iter);
  sol->win_status = malloc ((size_t) W * sizeof *sol->win_status);
  sol->win_res = malloc ((size_t) W * sizeof *sol->win_res);
  sol->hist_ptr = calloc ((size_t) W + 1, sizeof *sol->hist_ptr);
  qa = malloc ((size_t) (n + 1) * sizeof *qa);
  va = malloc ((size_t) (n + 1) * sizeof *va);
  qb = malloc ((size_t) (n + 1) * sizeof *qb);
  vb = malloc ((size_t) (n + 1) * sizeof *vb);
  if (! sol->t || ! sol->q || ! sol->v || (m > 0 && ! sol->lambda) || ! sol->win_iter
      || ! sol->win_status || ! sol->win_res || ! sol->hist_ptr || ! qa || ! va || ! qb || ! vb)
    {
      snprintf (sol->message, sizeof sol->message, "vm_skg_solve: out of memory");
      st = VM_ENOMEM;
      goto done;
    }
  for (k = 0; k < Ntot; k++)
    {
      sol->t[k] = NAN;
      for (cc = 0; cc < n; cc++)
        sol->q[k + Ntot * cc] = sol->v[k + Ntot * cc] = NAN;
      for (cc = 0; cc < m; cc++)
        sol->lambda[k + Ntot * cc] = NAN;
    }
  for (w = 0; w < W; w++)
    {
      sol->win_status[w] = -1;
      sol->win_res[w] = NAN;
    }
  memcpy (qa, q_i, (size_t) n * sizeof *qa);
  memcpy (va, v_i, (size_t) n * sizeof *va);
  T = o->tf - o->t0;
  for (w = 0; w < W; w++)
    {
      double ta = o->t0 + T * w / W, tb = w == W - 1 ? o->tf : o->t0 + T * (w + 1) / W;
      int64_t k0 = w == 0 ? 0 : (int64_t) w * (N - 1) + 1;
      const double *guess = o->q_guess ? o->q_guess + (int64_t) w * (N - 1) : NULL;
      double *tmp;
      sol->nwin_done = w + 1;
      st = solve_window (model, par, qa, va, o, ta, tb, guess, Ntot, sol, w, k0, w > 0, qb, vb,
                         &win);
      if (st != VM_OK)
        goto done;
      tmp = qa, qa = qb, qb = tmp;
      tmp = va, va = vb, vb = tmp;
    }
  snprintf (sol->message, sizeof sol->message,
            "converged: %d window%s, %d Newton steps, final residual %.3g (%s mode)", W,
            W == 1 ? "" : "s", sol->iterations, sol->win_res[W - 1],
            o->mode == VM_SKG_REDUCED ? "reduced" : "full");
done:
  if (sol->hist_ptr)
    for (w = sol->nwin_done; w < W; w++)
      sol->hist_ptr[w + 1] = sol->nhist;
  win_free (&win);
  free (qa);
  free (va);
  free (qb);
  free (vb);
  sol->status = st;
  sol->t_total = vm_wall_time () - t_start;
  return st;
}
