/* dual_slabs.c -- the dual action on consecutive slabs of a fixed grid (see dual_slabs.h). */
#include "dual/dual_slabs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "march/march.h"
#include "base/vm_print.h"
#include "base/vm_status.h"

double
vm_dual_slabs_memory_estimate (int ny, int nd, int ng, int64_t N, int order, int linsolve,
                               int64_t Ntot)
{
  return vm_dual_memory_estimate (nd, ng, N, order, linsolve)
         + 8.0 * 6.0 * (double) Ntot * (double) (ny + nd + ng + 1);
}

void
vm_dual_slabs_opts_init (vm_dual_slabs_opts *o)
{
  vm_dual_solve_opts so;   /* the solver's defaults are vm_dual_solve_ex's */
  vm_dual_solve_opts_init (&so);
  memset (o, 0, sizeof *o);
  o->slabs = 1;
  o->base_iterations = 0;
  o->tol = so.tol;
  o->max_iter = so.max_iter;
  o->linsolve = so.linsolve;
  o->jump_tol = 1e-2;
  o->name = "dual_solve";
}

void
vm_dual_slabs_sol_init (vm_dual_slabs_sol *s)
{
  memset (s, 0, sizeof *s);
}

void
vm_dual_slabs_sol_free (vm_dual_slabs_sol *s)
{
  if (! s)
    return;
  free (s->y);
  free (s->D);
  free (s->res);
  free (s->G);
  free (s->ham);
  free (s->base);
  free (s->end_y);
  free (s->end_res);
  free (s->start_jump);
  free (s->base_change);
  free (s->slab_iter);
  free (s->hist_p);
  free (s->hist);
  memset (s, 0, sizeof *s);
}

/* ---- printing ---------------------------------------------------------------------------------- */

/* a progress line to the caller's print callback (stdout without one) */
#define say(o, ...) vm_printf ((o)->print, (o)->print_ctx, __VA_ARGS__)

typedef struct
{
  const vm_dual_slabs_opts *o;
  double scale;     /* 1 / sqrt(max(1, N m - nd)): ||F||_W -> the RMS of the equations */
  int printed;      /* iterates printed so far */
} iter_ctx;

static void
on_iter (void *ctx, int k, double res, double step, int kind, double factor)
{
  iter_ctx *c = ctx;
  (void) step;
  (void) kind;
  (void) factor;
  say (c->o, "  %3d  %.3e\n", k, res * c->scale);
  c->printed = k + 1;
}

/* append the n values of h to the histories */
static int
hist_push (vm_dual_slabs_sol *s, int64_t *cap, const double *h, int n)
{
  int64_t have = s->hist_p[s->nsolve];
  if (have + n > *cap)
    {
      int64_t nc = 2 * (have + n) + 64;
      double *p = realloc (s->hist, (size_t) nc * sizeof *p);
      if (! p)
        return VM_ENOMEM;
      s->hist = p;
      *cap = nc;
    }
  if (n > 0)
    memcpy (s->hist + have, h, (size_t) n * sizeof *h);
  s->nsolve++;
  s->hist_p[s->nsolve] = have + n;
  return VM_OK;
}

/* the state of one vm_dual_slabs run, shared by its steps */
typedef struct
{
  const vm_dual_slabs_opts *o;
  const vm_dual_problem *p;
  vm_dual_slabs_sol *sol;
  int ny, nd, ng, m, S, nb;
  int64_t N;
  const double *tb, *y0;
  vm_dual d;                   /* the one discretization, moved from slab to slab */
  vm_newton_symbolic sym;      /* the shared symbolic analysis */
  vm_newton_info info;         /* the last slab's Newton */
  iter_ctx ic;
  int64_t hcap;                /* capacity of sol->hist */
  double *slab_base;           /* S N ny: each slab's own base state */
  double *z, *res, *gres, *ham;   /* one slab's duals (d.nz), residuals (N nd, N ng), Hamiltonian */
  double *ystart;              /* nd: the current slab's initial state */
  char why[600];               /* the message of the last slab's solve */
} sl_ws;

/* the arguments: VM_EARG, or VM_ESTEP (with the message) for a slab too short for N nodes */
static int
sl_check (const vm_dual_problem *p, const double *tb, const double *y0,
          const vm_dual_slabs_opts *o, vm_dual_slabs_sol *sol)
{
  int S = o->slabs, nb = o->base_iterations, s, ny, nd, ng;
  int64_t N;
  if (! p)
    return VM_EARG;
  ny = p->ny;
  nd = p->nd;
  ng = p->ng;
  N = p->N;
  if (! tb || ! p->c || ! y0 || ! p->fn || S < 1 || nb < 0 || o->max_iter < 0
      || o->max_iter > 1000000 || ! (o->tol >= 0.0) || ! isfinite (o->tol) || ! (o->jump_tol > 0.0) || N < 2 || ny < 1
      || nd < 1 || nd > ny || ng < 0)
    return VM_EARG;
  for (s = 0; s <= S; s++)
    if (! isfinite (tb[s]) || (s > 0 && ! (tb[s] > tb[s - 1])))
      return VM_EARG;
  for (s = 0; s < S; s++)
    if (tb[s + 1] - tb[s] < vm_march_hmin (tb[s], tb[S] - tb[0], N))
      {
        snprintf (sol->message, sizeof sol->message, "slab %d of [%.9g, %.9g] is %.3g long, below "
                  "the shortest that %lld nodes resolve, %.3g (rounding of t, or 1/h overflows)",
                  s + 1, tb[0], tb[S], tb[s + 1] - tb[s], (long long) N,
                  vm_march_hmin (tb[s], tb[S] - tb[0], N));
        return VM_ESTEP;
      }
  return VM_OK;
}

/* the result's arrays and the per-slab work arrays (1: all allocated) */
static int
sl_alloc (sl_ws *w)
{
  vm_dual_slabs_sol *sol = w->sol;
  const int64_t N = w->N, Ntot = sol->Ntot;
  const int ny = w->ny, nd = w->nd, ng = w->ng, m = w->m, S = w->S, nb = w->nb;
  sol->y = calloc ((size_t) (Ntot * ny), sizeof *sol->y);
  sol->D = calloc ((size_t) (Ntot * m), sizeof *sol->D);
  sol->res = calloc ((size_t) (Ntot * nd), sizeof *sol->res);
  sol->G = calloc ((size_t) (Ntot * ng + 1), sizeof *sol->G);
  sol->ham = calloc ((size_t) Ntot, sizeof *sol->ham);
  sol->base = calloc ((size_t) (Ntot * ny), sizeof *sol->base);
  sol->end_y = calloc ((size_t) S * ny, sizeof *sol->end_y);
  sol->end_res = calloc ((size_t) S * nd, sizeof *sol->end_res);
  sol->start_jump = calloc ((size_t) S, sizeof *sol->start_jump);
  sol->base_change = calloc ((size_t) nb + 1, sizeof *sol->base_change);
  sol->slab_iter = calloc ((size_t) S, sizeof *sol->slab_iter);
  sol->hist_p = calloc ((size_t) S * (nb + 1) + 1, sizeof *sol->hist_p);
  w->slab_base = malloc ((size_t) S * N * ny * sizeof *w->slab_base);
  w->z = malloc ((size_t) N * m * sizeof *w->z);
  w->res = malloc ((size_t) N * nd * sizeof *w->res);
  w->gres = malloc ((size_t) (N * ng + 1) * sizeof *w->gres);
  w->ham = malloc ((size_t) N * sizeof *w->ham);
  w->ystart = malloc ((size_t) nd * sizeof *w->ystart);
  return sol->y && sol->D && sol->res && sol->G && sol->ham && sol->base && sol->end_y
         && sol->end_res && sol->start_jump && sol->base_change && sol->slab_iter && sol->hist_p
         && w->slab_base && w->z && w->res && w->gres && w->ham && w->ystart;
}

/* slab s of pass b: the discretization moved to it, the initial duals (the guess's rows in the
 * first pass, else 0) */
static int
sl_slab_start (sl_ws *w, int b, int s, double *sb)
{
  const int64_t k0 = (int64_t) s * (w->N - 1);
  int64_t k;
  int i, st;
  st = vm_dual_move (&w->d, w->tb[s], w->tb[s + 1], w->ystart, sb);
  if (st != VM_OK)
    return st;
  for (k = 0; k < w->d.nz; k++)
    w->z[k] = 0.0;
  if (w->o->guess && b == 0)
    for (k = 0; k < w->N; k++)
      for (i = 0; i < w->m; i++)
        {
          int64_t q = vm_dual_index (&w->d, k, i);
          if (q >= 0)
            w->z[q] = w->o->guess[(k0 + k) * w->m + i];
        }
  return VM_OK;
}

/* Newton on slab s of pass b (printing its residuals with display 2): its status; w->why says it */
static int
sl_solve (sl_ws *w, int b, int s)
{
  const vm_dual_slabs_opts *o = w->o;
  vm_dual_solve_opts so;
  int j, sst;
  w->ic.printed = 0;
  if (o->display >= 2)
    say (o, "%s: slab %d of %d, base pass %d: Newton residuals (RMS of the discrete "
         "equations):\n", o->name, s + 1, w->S, b);
  vm_dual_solve_opts_init (&so);
  so.tol = o->tol;
  so.max_iter = o->max_iter;
  so.linsolve = o->linsolve;
  so.sym = &w->sym;
  so.on_iter = o->display >= 2 ? on_iter : NULL;
  so.on_iter_ctx = &w->ic;
  sst = vm_dual_solve_ex (&w->d, w->z, &so, &w->info);
  if (o->display >= 2)
    for (j = w->ic.printed; j < w->info.nhist; j++)
      say (o, "  %3d  %.3e\n", j, w->info.res_hist[j] * w->ic.scale);
  vm_dual_solve_message (w->why, sizeof w->why, sst, &w->d, &w->info);
  return sst;
}

/* slab s's results (its solve returned sst) into the grid arrays, the histories and the linear
 * solver's statistics; a later slab overwrites the shared node */
static int
sl_record (sl_ws *w, int s, int sst)
{
  vm_dual_slabs_sol *sol = w->sol;
  const vm_newton_info *info = &w->info;
  const int64_t N = w->N, k0 = (int64_t) s * (N - 1);
  const int ny = w->ny, nd = w->nd, ng = w->ng, m = w->m;
  double Sslab = 0.0;
  int st;
  vm_dual_eval (&w->d, w->z, &Sslab, NULL, NULL);
  vm_dual_primal (&w->d, w->res, w->gres, w->ham);
  memcpy (sol->y + k0 * ny, w->d.y, (size_t) N * ny * sizeof *w->d.y);
  memcpy (sol->D + k0 * m, w->d.Dfull, (size_t) N * m * sizeof *w->d.Dfull);
  memcpy (sol->res + k0 * nd, w->res, (size_t) N * nd * sizeof *w->res);
  if (ng > 0)
    memcpy (sol->G + k0 * ng, w->gres, (size_t) N * ng * sizeof *w->gres);
  memcpy (sol->ham + k0, w->ham, (size_t) N * sizeof *w->ham);
  sol->Sval += Sslab;
  sol->slab_iter[s] = info->iterations;
  if ((st = hist_push (sol, &w->hcap, info->res_hist, info->nhist)) != VM_OK)
    return st;
  sol->linsolve = info->linsolve;
  sol->kl = info->kl;
  sol->ku = info->ku;
  sol->lean = info->lean;
  sol->t_numeric += info->t_numeric;
  sol->t_solve += info->t_solve;
  sol->nchol += info->nchol;
  sol->nchol_fail += info->nchol_fail;
  sol->nsymbolic += info->nsymbolic;
  if (sst != VM_OK && sol->exitflag == 1)
    {
      sol->exitflag = 0;
      snprintf (sol->message, sizeof sol->message, "slab %d of %d: %s", s + 1, w->S, w->why);
    }
  return VM_OK;
}

/* slab s's start jump (a critical point whose recovered primal starts far from the slab's
 * initial state is a spurious one), its end state and end residual; the next slab's ystart */
static void
sl_slab_end (sl_ws *w, int s)
{
  vm_dual_slabs_sol *sol = w->sol;
  const int64_t N = w->N;
  const int ny = w->ny, nd = w->nd;
  const double *ystart = w->ystart, *dy = w->d.y;
  double jump = 0.0, ymax = 1.0;
  int i;
  for (i = 0; i < nd; i++)
    {
      double e = fabs (dy[i] - ystart[i]);
      if (e > jump)
        jump = e;
      if (fabs (ystart[i]) > ymax)
        ymax = fabs (ystart[i]);
    }
  sol->start_jump[s] = jump;
  memcpy (sol->end_y + (size_t) s * ny, dy + (N - 1) * ny, (size_t) ny * sizeof *dy);
  memcpy (sol->end_res + (size_t) s * nd, w->res + (N - 1) * nd, (size_t) nd * sizeof *w->res);
  if (sol->exitflag == 1 && jump > w->o->jump_tol * ymax)
    {
      sol->exitflag = 0;
      snprintf (sol->message, sizeof sol->message,
                "slab %d of %d: Newton converged to a spurious critical point: the "
                "recovered primal starts %.3g away from the initial state; use more "
                "slabs or a base state closer to the solution", s + 1, w->S, jump);
    }
  memcpy (w->ystart, dy + (N - 1) * ny, (size_t) nd * sizeof *w->ystart);
}

/* the slab's recovered primal is its base state of the next pass (this slab's base is not read
 * again in this pass); base_change[b] its largest change */
static void
sl_rebase (sl_ws *w, int b, double *sb)
{
  double change = w->sol->base_change[b];
  int64_t k;
  for (k = 0; k < w->N * w->ny; k++)
    {
      double e = fabs (sb[k] - w->d.y[k]);
      if (e > change)
        change = e;
    }
  w->sol->base_change[b] = change;
  memcpy (sb, w->d.y, (size_t) w->N * w->ny * sizeof *sb);
}

/* pass b over the slabs */
static int
sl_pass (sl_ws *w, int b)
{
  vm_dual_slabs_sol *sol = w->sol;
  int s, st, sst;
  sol->exitflag = 1;
  sol->message[0] = '\0';
  sol->Sval = 0.0;
  memcpy (w->ystart, w->y0, (size_t) w->nd * sizeof *w->ystart);
  for (s = 0; s < w->S; s++)
    {
      double *sb = w->slab_base + (size_t) s * w->N * w->ny;
      if ((st = sl_slab_start (w, b, s, sb)) != VM_OK)
        return st;
      sst = sl_solve (w, b, s);
      if (! w->d.have_y)
        {
          /* no recovered primal at Newton's best iterate: nothing to record */
          sol->fail_slab = s + 1;
          sol->fail_pass = b;
          sol->exitflag = 0;
          snprintf (sol->message, sizeof sol->message, "slab %d of %d: %s", s + 1, w->S, w->why);
          return sst != VM_OK ? sst : VM_EDTP;
        }
      if ((st = sl_record (w, s, sst)) != VM_OK)
        return st;
      sl_slab_end (w, s);
      if (b < w->nb)
        sl_rebase (w, b, sb);
    }
  return VM_OK;
}

/* the one discretization (the pattern is built here, once) from each slab's own base state, its
 * N rows of the grid */
static int
sl_init (sl_ws *w, const double *ybar)
{
  const int64_t N = w->N;
  const int ny = w->ny;
  int s;
  for (s = 0; s < w->S; s++)
    {
      double *sb = w->slab_base + (size_t) s * N * ny;
      if (ybar)
        memcpy (sb, ybar + (size_t) s * (N - 1) * ny, (size_t) N * ny * sizeof *sb);
      else
        memset (sb, 0, (size_t) N * ny * sizeof *sb);
    }
  return vm_dual_init (&w->d, w->p, w->tb[0], w->tb[1], w->slab_base, w->y0, w->o->DT,
                       w->o->weak ? VM_DUAL_WEAK_FINAL : 0);
}

/* the end of a run (status st): the message of a failure, the base states of the last pass, the
 * work arrays freed */
static void
sl_finish (sl_ws *w, int st, int have_d)
{
  vm_dual_slabs_sol *sol = w->sol;
  int s;
  if (st != VM_OK && sol->fail_slab == 0 && sol->message[0] == '\0')
    snprintf (sol->message, sizeof sol->message, "%s", vm_status_string (st));
  if (sol->base && w->slab_base)
    for (s = 0; s < w->S; s++)
      memcpy (sol->base + (size_t) s * (w->N - 1) * w->ny, w->slab_base + (size_t) s * w->N * w->ny,
              (size_t) w->N * w->ny * sizeof *w->slab_base);
  if (have_d)
    vm_dual_free (&w->d);
  vm_newton_symbolic_free (&w->sym);
  vm_newton_info_free (&w->info);
  free (w->slab_base);
  free (w->z);
  free (w->res);
  free (w->gres);
  free (w->ham);
  free (w->ystart);
}

int
vm_dual_slabs (const vm_dual_problem *p, const double *tb, const double *ybar, const double *y0,
               const vm_dual_slabs_opts *oin, vm_dual_slabs_sol *sol)
{
  vm_dual_slabs_opts odef;
  const vm_dual_slabs_opts *o = oin;
  sl_ws w;
  int b, s, st = VM_OK, have_d = 0, ny, nd, ng;
  int64_t N;
  double t_start = vm_wall_time ();
  if (! sol)
    return VM_EARG;
  vm_dual_slabs_sol_free (sol);
  if (! o)
    {
      vm_dual_slabs_opts_init (&odef);
      o = &odef;
    }
  if ((st = sl_check (p, tb, y0, o, sol)) != VM_OK)
    return st;
  ny = p->ny;
  nd = p->nd;
  ng = p->ng;
  N = p->N;
  memset (&w, 0, sizeof w);
  w.o = o;
  w.p = p;
  w.sol = sol;
  w.ny = ny;
  w.nd = nd;
  w.ng = ng;
  w.m = nd + ng;
  w.S = o->slabs;
  w.nb = o->base_iterations;
  w.N = N;
  w.tb = tb;
  w.y0 = y0;
  sol->S = w.S;
  sol->ny = ny;
  sol->nd = nd;
  sol->ng = ng;
  sol->m = w.m;
  sol->N = N;
  sol->Ntot = (int64_t) w.S * (N - 1) + 1;
  sol->exitflag = 1;
  vm_newton_symbolic_init (&w.sym);
  vm_newton_info_init (&w.info);
  st = VM_ENOMEM;
  if (! sl_alloc (&w))
    goto done;
  if ((st = sl_init (&w, ybar)) != VM_OK)
    goto done;
  have_d = 1;
  sol->ninit = 1;
  w.ic.o = o;
  w.ic.scale = 1.0 / sqrt ((double) (N * w.m - nd > 1 ? N * w.m - nd : 1));
  for (b = 0; b <= w.nb; b++)
    {
      if ((st = sl_pass (&w, b)) != VM_OK)
        goto done;
      sol->npass = b + 1;
      sol->iterations = 0;
      for (s = 0; s < w.S; s++)
        sol->iterations += sol->slab_iter[s];
    }
  if (sol->exitflag == 1)
    snprintf (sol->message, sizeof sol->message, "converged (%d slab(s), %d Newton iterations; "
              "a fixed grid, no error estimate: dual_solve without N or Slabs controls the "
              "error, and dual_solve's ErrorEstimate 'on' gives one)", w.S, sol->iterations);
  st = VM_OK;
done:
  sl_finish (&w, st, have_d);
  sol->t_total = vm_wall_time () - t_start;
  return st;
}
