/* dual_slabs.c -- the dual action on consecutive slabs of a fixed grid (see dual_slabs.h). */
#include "dual_slabs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "march.h"
#include "vm_print.h"
#include "vm_status.h"

void
vm_dual_slabs_opts_init (vm_dual_slabs_opts *o)
{
  memset (o, 0, sizeof *o);
  o->slabs = 1;
  o->base_iterations = 0;
  o->tol = 1e-11;
  o->max_iter = 50;
  o->linsolve = VM_LINSOLVE_AUTO;
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

/* the message of a slab's solve, as the one-slab gateway words it (mex/vm_dual_mex.c "solve") */
static void
solve_message (char *msg, size_t n, int st, const vm_dual *d, const vm_newton_info *info)
{
  if (st == VM_EDTP)
    snprintf (msg, n, "%s at t = %g (node %ld)", vm_status_string (st),
              d->bad >= 0 ? d->t[d->bad] : d->t0, (long) d->bad + 1);
  else if (st == VM_OK)
    snprintf (msg, n, "%s", info->message[0] ? info->message : "converged");
  else
    snprintf (msg, n, "%s", info->message[0] ? info->message : vm_status_string (st));
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

int
vm_dual_slabs (int ny, int nd, int ng, int64_t N, int order, const double *tb, const double *c,
               const double *ybar, const double *y0, vm_dual_node_fn fn, void *ctx,
               const vm_dual_slabs_opts *oin, vm_dual_slabs_sol *sol)
{
  vm_dual_slabs_opts odef;
  const vm_dual_slabs_opts *o = oin;
  vm_dual d;
  vm_newton_symbolic sym;
  vm_newton_info info;
  iter_ctx ic;
  int S, nb, m, s, b, i, j, st = VM_OK, sst, have_d = 0;
  int64_t Ntot, k, hcap = 0;
  double *slab_base = NULL, *z = NULL, *res = NULL, *gres = NULL, *ham = NULL, *ystart = NULL;
  double t_start = vm_wall_time ();
  char why[600];
  if (! sol)
    return VM_EARG;
  vm_dual_slabs_sol_free (sol);
  if (! o)
    {
      vm_dual_slabs_opts_init (&odef);
      o = &odef;
    }
  S = o->slabs;
  nb = o->base_iterations;
  if (! tb || ! c || ! y0 || ! fn || S < 1 || nb < 0 || o->max_iter < 0 || o->max_iter > 1000000
      || ! (o->tol >= 0.0) || ! isfinite (o->tol) || ! (o->jump_tol > 0.0) || N < 2 || ny < 1
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
  m = nd + ng;
  Ntot = (int64_t) S * (N - 1) + 1;
  sol->S = S;
  sol->ny = ny;
  sol->nd = nd;
  sol->ng = ng;
  sol->m = m;
  sol->N = N;
  sol->Ntot = Ntot;
  sol->exitflag = 1;
  vm_newton_symbolic_init (&sym);
  vm_newton_info_init (&info);
  st = VM_ENOMEM;
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
  slab_base = malloc ((size_t) S * N * ny * sizeof *slab_base);
  z = malloc ((size_t) N * m * sizeof *z);
  res = malloc ((size_t) N * nd * sizeof *res);
  gres = malloc ((size_t) (N * ng + 1) * sizeof *gres);
  ham = malloc ((size_t) N * sizeof *ham);
  ystart = malloc ((size_t) nd * sizeof *ystart);
  if (! sol->y || ! sol->D || ! sol->res || ! sol->G || ! sol->ham || ! sol->base || ! sol->end_y
      || ! sol->end_res || ! sol->start_jump || ! sol->base_change || ! sol->slab_iter
      || ! sol->hist_p || ! slab_base || ! z || ! res || ! gres || ! ham || ! ystart)
    goto done;
  /* each slab's own base state: its N rows of the grid */
  for (s = 0; s < S; s++)
    {
      double *sb = slab_base + (size_t) s * N * ny;
      if (ybar)
        memcpy (sb, ybar + (size_t) s * (N - 1) * ny, (size_t) N * ny * sizeof *sb);
      else
        memset (sb, 0, (size_t) N * ny * sizeof *sb);
    }
  /* the one discretization: the pattern is built here, once */
  st = vm_dual_init (&d, ny, nd, ng, N, order, tb[0], tb[1], c, slab_base, y0, o->DT, fn, ctx,
                     o->weak ? VM_DUAL_WEAK_FINAL : 0);
  if (st != VM_OK)
    goto done;
  have_d = 1;
  sol->ninit = 1;
  ic.o = o;
  ic.scale = 1.0 / sqrt ((double) (N * m - nd > 1 ? N * m - nd : 1));
  for (b = 0; b <= nb; b++)
    {
      sol->exitflag = 1;
      sol->message[0] = '\0';
      sol->Sval = 0.0;
      memcpy (ystart, y0, (size_t) nd * sizeof *ystart);
      for (s = 0; s < S; s++)
        {
          const int64_t k0 = (int64_t) s * (N - 1);
          double *sb = slab_base + (size_t) s * N * ny, Sslab = 0.0, jump, ymax;
          st = vm_dual_move (&d, tb[s], tb[s + 1], ystart, sb);
          if (st != VM_OK)
            goto done;
          for (k = 0; k < d.nz; k++)
            z[k] = 0.0;
          if (o->guess && b == 0)
            for (k = 0; k < N; k++)
              for (i = 0; i < m; i++)
                {
                  int64_t q = vm_dual_index (&d, k, i);
                  if (q >= 0)
                    z[q] = o->guess[(k0 + k) * m + i];
                }
          ic.printed = 0;
          if (o->display >= 2)
            say (o, "%s: slab %d of %d, base pass %d: Newton residuals (RMS of the discrete "
                 "equations):\n", o->name, s + 1, S, b);
          sst = vm_dual_solve_ex (&d, z, o->tol, o->max_iter, o->linsolve, &sym,
                                  o->display >= 2 ? on_iter : NULL, &ic, &info);
          if (o->display >= 2)
            for (j = ic.printed; j < info.nhist; j++)
              say (o, "  %3d  %.3e\n", j, info.res_hist[j] * ic.scale);
          solve_message (why, sizeof why, sst, &d, &info);
          if (! d.have_y)
            {
              /* no recovered primal at Newton's best iterate: nothing to record */
              sol->fail_slab = s + 1;
              sol->fail_pass = b;
              sol->exitflag = 0;
              snprintf (sol->message, sizeof sol->message, "slab %d of %d: %s", s + 1, S, why);
              st = sst != VM_OK ? sst : VM_EDTP;
              goto done;
            }
          vm_dual_eval (&d, z, &Sslab, NULL, NULL);
          vm_dual_primal (&d, res, gres, ham);
          /* record: a later slab overwrites the shared node */
          memcpy (sol->y + k0 * ny, d.y, (size_t) N * ny * sizeof *d.y);
          memcpy (sol->D + k0 * m, d.Dfull, (size_t) N * m * sizeof *d.Dfull);
          memcpy (sol->res + k0 * nd, res, (size_t) N * nd * sizeof *res);
          if (ng > 0)
            memcpy (sol->G + k0 * ng, gres, (size_t) N * ng * sizeof *gres);
          memcpy (sol->ham + k0, ham, (size_t) N * sizeof *ham);
          sol->Sval += Sslab;
          sol->slab_iter[s] = info.iterations;
          if ((st = hist_push (sol, &hcap, info.res_hist, info.nhist)) != VM_OK)
            goto done;
          sol->linsolve = info.linsolve;
          sol->kl = info.kl;
          sol->ku = info.ku;
          sol->t_numeric += info.t_numeric;
          sol->t_solve += info.t_solve;
          sol->nsymbolic += info.nsymbolic;
          if (sst != VM_OK && sol->exitflag == 1)
            {
              sol->exitflag = 0;
              snprintf (sol->message, sizeof sol->message, "slab %d of %d: %s", s + 1, S, why);
            }
          /* a critical point whose recovered primal starts far from the slab's initial state is
           * a spurious one */
          jump = 0.0;
          ymax = 1.0;
          for (i = 0; i < nd; i++)
            {
              double e = fabs (d.y[i] - ystart[i]);
              if (e > jump)
                jump = e;
              if (fabs (ystart[i]) > ymax)
                ymax = fabs (ystart[i]);
            }
          sol->start_jump[s] = jump;
          memcpy (sol->end_y + (size_t) s * ny, d.y + (N - 1) * ny, (size_t) ny * sizeof *d.y);
          memcpy (sol->end_res + (size_t) s * nd, res + (N - 1) * nd, (size_t) nd * sizeof *res);
          if (sol->exitflag == 1 && jump > o->jump_tol * ymax)
            {
              sol->exitflag = 0;
              snprintf (sol->message, sizeof sol->message,
                        "slab %d of %d: Newton converged to a spurious critical point: the "
                        "recovered primal starts %.3g away from the initial state; use more "
                        "slabs or a base state closer to the solution", s + 1, S, jump);
            }
          memcpy (ystart, d.y + (N - 1) * ny, (size_t) nd * sizeof *ystart);
          /* the slab's recovered primal is its base state of the next pass (this slab's base
           * is not read again in this pass) */
          if (b < nb)
            {
              double change = sol->base_change[b];
              for (k = 0; k < N * ny; k++)
                {
                  double e = fabs (sb[k] - d.y[k]);
                  if (e > change)
                    change = e;
                }
              sol->base_change[b] = change;
              memcpy (sb, d.y, (size_t) N * ny * sizeof *sb);
            }
        }
      sol->npass = b + 1;
      sol->iterations = 0;
      for (s = 0; s < S; s++)
        sol->iterations += sol->slab_iter[s];
    }
  if (sol->exitflag == 1)
    snprintf (sol->message, sizeof sol->message, "converged (%d slab(s), %d Newton iterations)", S,
              sol->iterations);
  st = VM_OK;
done:
  if (st != VM_OK && sol->fail_slab == 0 && sol->message[0] == '\0')
    snprintf (sol->message, sizeof sol->message, "%s", vm_status_string (st));
  if (sol->base && slab_base)
    for (s = 0; s < S; s++)
      memcpy (sol->base + (size_t) s * (N - 1) * ny, slab_base + (size_t) s * N * ny,
              (size_t) N * ny * sizeof *slab_base);
  if (have_d)
    vm_dual_free (&d);
  vm_newton_symbolic_free (&sym);
  vm_newton_info_free (&info);
  free (slab_base);
  free (z);
  free (res);
  free (gres);
  free (ham);
  free (ystart);
  sol->t_total = vm_wall_time () - t_start;
  return st;
}
