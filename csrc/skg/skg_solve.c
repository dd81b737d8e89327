/* skg_solve.c -- the driver of vm_skg_solve (skg_solve.h): the defaults, the argument checks, the
 * two actions (skg_action.c) handed to the march (march.h), and the solution built from the
 * march's record: the state multipliers, the energy and constraint residuals, the dense output.
 *
 * Why the multipliers are recomputed from the states: the action's lambda+ converges at a lower
 * order at each window's closure nodes, the states' multipliers at the states' order. */
#include "skg/skg_solve_impl.h"
#include "sbp/sbp.h"
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
vm_skg_solve_opts_init (vm_skg_solve_opts *o)
{
  if (! o)
    return;
  memset (o, 0, sizeof *o);
  o->mode = VM_SKG_REDUCED;
  o->order = 4;
  o->N = 81;
  o->windows = 1;
  /* the public defaults of skg_solve's options: one place, the schema */
  o->rtol = vm_schema_default ("skg_solve", "RelTol");
  o->atol = vm_schema_default ("skg_solve", "AbsTol");
  o->t0 = 0.0;
  o->tf = 1.0;
  o->q_guess = NULL;
  o->eom_residual = 1;
  vm_newton_opts_init (&o->newton);
  o->newton.tol_round = 1.0;
  /* the non-monotone line search (newton.h 3): stiff contacts raise ||F|| along right Newton
   * directions */
  o->newton.nonmonotone = VM_SKG_NONMONOTONE;
  /* the unknowns are node-major, so the Jacobian is banded: the natural order keeps the band
   * (bench/README_skg.md compares AMD, METIS and the symmetric strategy) */
  o->newton.umf_ordering = VM_UMF_ORDERING_NONE;
  o->newton.umf_strategy = VM_UMF_STRATEGY_UNSYMMETRIC;
  o->newton.umf_irstep = 0;
}

double
vm_skg_memory_estimate (int n, int m, int64_t N, int order, int mode, int linsolve)
{
  double u = (double) (n + m) * (mode == VM_SKG_FULL ? 2.0 : 1.0);
  double f = fmax (0.75, 1.0 + (order - 4) / 8.0);
  /* 9 bytes per unknown: Newton's x_offset and offset_rows (act_newton_setup), after the fits */
  double umf = (744.0 + 1106.0 * u + 74.0 * u * u) * f + 9.0 * u;
  double b = (1.5 * order - 0.5) * u;   /* kl = ku of the Jacobian, at most */
  /* the factors: L and U, or U only (linsolve.h option lean, which AUTO takes for large bands) */
  double rows = linsolve == VM_LINSOLVE_AUTO && vm_linsolve_lean_auto ((int) b, (int) b, u * (double) N)
                ? 2.0 * b + 1.0 : 3.0 * b + 1.0;
  double band = (744.0 + 350.0 * u) * f + 8.0 * u * rows + 9.0 * u;
  return vm_linsolve_memory_model (linsolve, u, umf, band) * (double) N;
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
  /* t, q, v and lambda_plus are the march record's (to_solution): freed with it */
  vm_scratch_free (sol->lambda);
  vm_scratch_free (sol->energy);
  vm_scratch_free (sol->contact_energy);
  vm_scratch_free (sol->phi);
  vm_scratch_free (sol->gpos);
  free (sol->out);
  free (sol->hist_ptr);
  free (sol->res_hist);
  vm_march_sol_free (&sol->march);
  memset (sol, 0, sizeof *sol);
}

/* ---- the solver -------------------------------------------------------------------------------- */

/* The solution's arrays from the march's record: t, q, v and lambda_plus are the record's own
 * (its trajectory is Ntot x (2n + m) column-major, leading dimension Ntot: the columns of q, then
 * v, then lambda+), so that nothing is copied between the march and the gateway; lambda is new. */
static void
to_solution (const vm_march_sol *ms, int n, int m, vm_skg_solution *sol)
{
  int64_t Ntot = ms->ntot, k;
  int c, w;
  sol->Ntot = Ntot;
  sol->t = ms->t;
  sol->q = ms->traj;
  sol->v = ms->traj ? ms->traj + Ntot * n : NULL;
  sol->lambda_plus = ms->traj ? ms->traj + Ntot * 2 * n : NULL;
  sol->lambda = vm_scratch_alloc ((size_t) (Ntot * m + 1) * sizeof *sol->lambda);
  sol->hist_ptr = calloc ((size_t) sol->windows + 1, sizeof *sol->hist_ptr);
  if (! sol->lambda || ! sol->hist_ptr)
    {
      sol->status = VM_ENOMEM;
      snprintf (sol->message, sizeof sol->message, "out of memory");
      return;
    }
  /* the convention of M qddot = dL/dq + lambda dg/dqdot (+ lambda dg/dq): lambda = -lambda+ */
  for (c = 0; c < m; c++)
    for (k = 0; k < Ntot; k++)
      sol->lambda[k + Ntot * c] = -sol->lambda_plus[k + Ntot * c];
  sol->nhist = ms->nhist;
  sol->res_hist = malloc ((size_t) (ms->nhist + 1) * sizeof *sol->res_hist);
  if (! sol->res_hist)
    {
      sol->status = VM_ENOMEM;
      return;
    }
  if (ms->nhist > 0)
    memcpy (sol->res_hist, ms->res_hist, (size_t) ms->nhist * sizeof *sol->res_hist);
  for (k = 0; k < ms->nhist; k++)
    for (w = ms->hist_win[k] + 1; w <= sol->windows; w++)
      sol->hist_ptr[w] = (int) k + 1;
}

/* sol->lambda from the states (multipliers.h), and the gap to -lambda+ at the nodes of each window
 * at least order + 1 nodes from its ends; on failure lambda stays -lambda+. */
static void
state_multipliers (vm_mech_points *pts, int order, vm_skg_solution *sol)
{
  const vm_march_sol *ms = &sol->march;
  int64_t Ntot = sol->Ntot, k, nsing = 0;
  double *lam, gap = NAN;
  int c, w;
  if (sol->m == 0 || Ntot == 0)
    return;
  lam = vm_scratch_alloc ((size_t) (Ntot * sol->m) * sizeof *lam);
  if (! lam || vm_mech_points_multipliers (pts, Ntot, sol->t, sol->q, sol->v, Ntot, lam, &nsing)
               != VM_OK)
    {
      vm_scratch_free (lam);
      return;
    }
  for (w = 0; w < ms->nwin; w++)
    {
      int64_t first = w > 0 ? ms->win_first[w] - 1 : 0, last = ms->win_first[w + 1] - 1;
      for (k = first + order + 1; k <= last - order - 1; k++)
        for (c = 0; c < sol->m; c++)
          {
            double d = fabs (lam[k + Ntot * c] + sol->lambda_plus[k + Ntot * c]);
            gap = isnan (gap) || d > gap ? d : gap;
          }
    }
  memcpy (sol->lambda, lam, (size_t) (Ntot * sol->m) * sizeof *lam);
  vm_scratch_free (lam);
  sol->lambda_state = 1;
  sol->lambda_gap = gap;
}

/* sol->energy, contact_energy, phi and gpos at the nodes (left NULL on failure) */
static void
state_residuals (vm_mech_points *pts, vm_skg_solution *sol)
{
  int64_t Ntot = sol->Ntot;
  size_t nm = (size_t) (Ntot * sol->m);
  if (Ntot == 0)
    return;
  sol->energy = vm_scratch_alloc ((size_t) Ntot * sizeof *sol->energy);
  sol->contact_energy = vm_scratch_alloc ((size_t) Ntot * sizeof *sol->contact_energy);
  sol->phi = vm_scratch_alloc ((nm > 0 ? nm : 1) * sizeof *sol->phi);
  sol->gpos = vm_scratch_alloc ((nm > 0 ? nm : 1) * sizeof *sol->gpos);
  if (! sol->energy || ! sol->contact_energy || ! sol->phi || ! sol->gpos
      || vm_mech_points_residuals (pts, Ntot, sol->t, sol->q, sol->v, Ntot,
                                   &(vm_mech_residuals) { sol->energy, sol->phi, sol->gpos,
                                                          sol->contact_energy })
             != VM_OK)
    {
      vm_scratch_free (sol->energy);
      vm_scratch_free (sol->contact_energy);
      vm_scratch_free (sol->phi);
      vm_scratch_free (sol->gpos);
      sol->energy = sol->contact_energy = sol->phi = sol->gpos = NULL;
    }
}

/* Dense output at o->t_out (sol->status VM_OK only): the interpolated trajectory, then the
 * multipliers from its states. */
static void
dense_output (vm_mech_points *pts, const vm_skg_solve_opts *o, vm_skg_solution *sol)
{
  int64_t nq = o->n_out, k;
  int n = sol->n, m = sol->m, c;
  sol->out = malloc ((size_t) (nq * (2 * n + m)) * sizeof *sol->out);
  if (! sol->out)
    {
      sol->status = VM_ENOMEM;
      snprintf (sol->message, sizeof sol->message, "vm_skg_solve: out of memory (dense output)");
      return;
    }
  /* the march's columns: q+, Da q+, lambda+ */
  if (vm_march_interp (&sol->march, o->order + 1, o->t_out, nq, sol->out) != VM_OK)
    {
      sol->status = VM_EARG;
      snprintf (sol->message, sizeof sol->message, "vm_skg_solve: output times outside [t0, tf]");
      return;
    }
  sol->n_out = nq;
  for (c = 0; c < m; c++)
    for (k = 0; k < nq; k++)
      sol->out[k + nq * (2 * n + c)] = -sol->out[k + nq * (2 * n + c)];
  if (m > 0 && sol->lambda_state)
    vm_mech_points_multipliers (pts, nq, o->t_out, sol->out, sol->out + nq * n, nq,
                                sol->out + nq * 2 * n, NULL);
}

/* The arguments vm_skg_solve refuses (message set): VM_OK, VM_EARG, VM_EORDER or VM_ESIZE. */
static int
check_solve_args (const vm_mech *model, const double *par, const double *q_i, const double *v_i,
                  const vm_skg_solve_opts *o, vm_skg_solution *sol)
{
  int est;
  int64_t nmin;
  if (! model || ! o || ! q_i || ! v_i || (model->np > 0 && ! par) || o->windows < 0
      || (o->mode != VM_SKG_FULL && o->mode != VM_SKG_REDUCED) || ! isfinite (o->t0)
      || ! isfinite (o->tf) || ! (o->tf > o->t0) || (o->q_guess && o->windows < 1)
      || o->n_out < 0 || (o->n_out > 0 && ! o->t_out))
    {
      snprintf (sol->message, sizeof sol->message, "vm_skg_solve: invalid argument");
      return VM_EARG;
    }
  est = o->windows == 0 || o->estimate;
  nmin = vm_march_min_n (o->order, est);
  if (nmin < 0 || o->N < nmin)
    {
      int st = nmin < 0 ? VM_EORDER : VM_ESIZE;
      snprintf (sol->message, sizeof sol->message, "vm_skg_solve: %s (N = %lld, at least %lld "
                "for order %d%s)", vm_status_string (st), (long long) o->N,
                (long long) nmin, o->order, est ? " and its companion order" : "");
      return st;
    }
  if (o->windows > 0 && (o->N - 1) > (INT64_MAX / 4) / o->windows)
    {
      snprintf (sol->message, sizeof sol->message, "vm_skg_solve: too many points");
      return VM_EARG;
    }
  return VM_OK;
}

/* The march's options from skg_solve's. */
static void
march_opts (const vm_skg_solve_opts *o, vm_march_opts *mo)
{
  vm_march_opts_init (mo);
  mo->t0 = o->t0;
  mo->tf = o->tf;
  mo->windows = o->windows;
  mo->rtol = o->rtol;
  mo->atol = o->atol;
  mo->estimate = o->estimate;
  mo->h0 = o->h0;
  mo->hmax = o->hmax;
  mo->max_windows = o->max_windows > 0 ? o->max_windows : mo->max_windows;
  mo->newton = o->newton;
  mo->display = o->display;
  mo->print = o->print;
  mo->print_ctx = o->print_ctx;
  mo->name = "skg_solve";
}

/* The caller's q+ on the whole grid (o->q_guess) as a trajectory of the action A (v and lambda+
 * columns 0), in *guess (allocated; the caller frees it). */
static int
guess_traj (const skg_act *A, const vm_skg_solve_opts *o, int n, double **guess)
{
  int64_t k, Ntot = (int64_t) o->windows * (o->N - 1) + 1;
  int c;
  *guess = calloc ((size_t) (Ntot * A->act.nout), sizeof **guess);
  if (! *guess)
    return VM_ENOMEM;
  for (c = 0; c < n; c++)
    for (k = 0; k < Ntot; k++)
      (*guess)[k + Ntot * c] = o->q_guess[k + Ntot * c];
  return VM_OK;
}

/* After the march: the solution's arrays, the state multipliers, the energy and constraint
 * residuals, the dense output, the diagnostics and timings.  The status of the solve. */
static int
finish_solution (const skg_act *A, const skg_act *C, vm_mech_points *pts, int pts_ok,
                 const vm_skg_solve_opts *o, int st, vm_skg_solution *sol)
{
  sol->windows = sol->march.nwin;
  sol->nwin_done = sol->march.nwin;
  sol->iterations = sol->march.iterations;
  sol->nfactor = sol->march.nfactor;
  sol->nreuse_factor = sol->march.nreuse_factor;
  snprintf (sol->message, sizeof sol->message, "%s (%s mode)", sol->march.message,
            o->mode == VM_SKG_REDUCED ? "reduced" : "full");
  sol->status = st;
  to_solution (&sol->march, sol->n, sol->m, sol);
  if (sol->status == VM_ENOMEM)
    st = VM_ENOMEM;
  else
    {
      sol->lambda_gap = NAN;
      if (pts_ok && sol->m > 0)
        state_multipliers (pts, o->order, sol);
      if (pts_ok)
        state_residuals (pts, sol);
      if ((st == VM_OK || st == VM_EUNRESOLVED) && o->n_out > 0)
        {
          dense_output (pts, o, sol);
          st = sol->status;
        }
    }
  sol->max_qm = A->max_qm;
  sol->max_lm = A->max_lm;
  sol->max_grad = A->max_grad;
  if (st != VM_OK)
    {
      sol->max_qm = fmax (sol->max_qm, A->last_qm);
      sol->max_lm = fmax (sol->max_lm, A->last_lm);
      sol->max_grad = fmax (sol->max_grad, A->last_grad);
    }
  sol->t_fun = sol->march.t_fun;
  sol->t_jac = sol->march.t_jac;
  sol->t_symbolic = sol->march.t_symbolic;
  sol->t_numeric = sol->march.t_numeric;
  sol->t_solve = sol->march.t_solve;
  sol->ntape = A->ntape + C->ntape;
  sol->t_build = A->t_build + C->t_build;
  sol->t_tape = A->t_tape + C->t_tape;
  sol->t_hess = A->t_hess + C->t_hess;
  return st;
}

int
vm_skg_solve (vm_mech *model, const double *par, const double *q_i, const double *v_i,
              const vm_skg_solve_opts *o, vm_skg_solution *sol)
{
  skg_act A, C;
  vm_mech_points pts;
  vm_march_opts mo;
  double *xa = NULL, *guess = NULL, *gscale = NULL, t_start = vm_wall_time ();
  int *hol = NULL;
  int n, st, est, pts_ok = 0;
  memset (&A, 0, sizeof A);
  memset (&pts, 0, sizeof pts);
  memset (&C, 0, sizeof C);
  if (! sol)
    return VM_EARG;
  vm_skg_solution_free (sol);
  sol->status = VM_EARG;
  if ((st = check_solve_args (model, par, q_i, v_i, o, sol)) != VM_OK)
    {
      sol->status = st;
      return st;
    }
  est = o->windows == 0 || o->estimate;
  n = sol->n = model->n;
  sol->m = model->m;
  /* the equations of motion at points: multipliers, projection onto holonomic constraints */
  /* ... and the energy and constraint residuals of the solution (also without constraints) */
  pts_ok = vm_mech_points_init (&pts, model, par) == VM_OK;
  skg_act_init (&A, model, par, o->order, o->N, o->mode, o->eom_residual);
  if (est)
    skg_act_init (&C, model, par, vm_march_companion_order (o->order), o->N, o->mode, o->eom_residual);
  if (pts_ok && pts.nhol > 0)
    A.pts = C.pts = &pts;
  if (pts_ok && vm_mech_points_mass_scale (&pts, o->t0, q_i, v_i, &A.mscale) != VM_OK)
    A.mscale = 1.0;
  C.mscale = A.mscale;
  march_opts (o, &mo);
  st = VM_ENOMEM;
  xa = malloc ((size_t) (2 * n) * sizeof *xa);
  gscale = malloc ((size_t) (model->m + 1) * sizeof *gscale);
  hol = malloc ((size_t) (model->m + 1) * sizeof *hol);
  if (! xa || ! gscale || ! hol || (o->q_guess && guess_traj (&A, o, n, &guess) != VM_OK))
    goto done;
  if (pts_ok)
    {
      vm_mech_points_constraint_scales (&pts, o->t0, q_i, v_i, gscale, hol);  /* 1, 0 on failure */
      A.gscale = C.gscale = gscale;
      A.hol = C.hol = hol;
    }
  mo.guess = guess;
  memcpy (xa, q_i, (size_t) n * sizeof *xa);
  memcpy (xa + n, v_i, (size_t) n * sizeof *xa);
  st = vm_march (&A.act, est ? &C.act : NULL, xa, &mo, &sol->march);
  st = finish_solution (&A, &C, &pts, pts_ok, o, st, sol);
done:
  if (st == VM_ENOMEM && ! sol->message[0])
    snprintf (sol->message, sizeof sol->message, "vm_skg_solve: out of memory");
  free (xa);
  free (guess);
  skg_act_free (&A);
  if (est)
    skg_act_free (&C);
  if (pts_ok)
    vm_mech_points_free (&pts);
  free (gscale);
  free (hol);
  sol->status = st;
  sol->t_total = vm_wall_time () - t_start;
  return st;
}

