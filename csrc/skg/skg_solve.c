/* skg_solve.c -- Newton solve of the discrete SKG action, full and reduced modes, time windows
 * (see skg_solve.h). */
#include "skg/skg_solve.h"
#include "skg/contact_check.h"
#include "reference/mech_points.h"
#include "march/march.h"
#include "skg/skg.h"
#include "sbp/sbp.h"
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
  o->rtol = 1e-6;
  o->atol = 1e-8;
  o->t0 = 0.0;
  o->tf = 1.0;
  o->q_guess = NULL;
  o->eom_residual = 1;
  vm_newton_opts_init (&o->newton);
  o->newton.tol_round = 1.0;
  /* the non-monotone line search (newton.h 3): the tumbler from a constant start in 10 Newton
   * iterations instead of 33 */
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
  vm_scratch_free (sol->phi);
  vm_scratch_free (sol->gpos);
  free (sol->out);
  free (sol->hist_ptr);
  free (sol->res_hist);
  vm_march_sol_free (&sol->march);
  memset (sol, 0, sizeof *sol);
}

/* ---- Newton callbacks ------------------------------------------------------------------------- */

typedef struct
{
  vm_skg *s;
  double *grad;          /* nz */
  /* reduced mode */
  double *z;             /* nz: full point, q- = lambda- = 0 */
  int64_t nr;            /* reduced unknowns */
  int64_t *plus;         /* nr: full index of reduced unknown r (q+ / lambda+) */
  int64_t *minus;        /* nr: full index of reduced equation r (q- / lambda-) */
  int64_t *rcp, *rri;    /* reduced CSC pattern */
  int64_t rnnz;
  vm_skg_plan plan;      /* Hessian contributions -> reduced Jacobian slots */
  int plan_ok;
  const double *xs;      /* NULL, or the scales of the solver's unknowns (reduced: nr, full: nz):
                            the solver's x is the action's unknowns divided by them (skg_act:
                            act_scales) */
} skg_ctx;

/* The action's unknowns z = x .* xs from the solver's x, into c->z (full mode with scales) */
static const double *
full_point (skg_ctx *c, const double *x)
{
  int64_t i;
  if (! c->xs)
    return x;
  for (i = 0; i < c->s->nz; i++)
    c->z[i] = x[i] * c->xs[i];
  return c->z;
}

/* J's columns times the unknowns' scales (dF/dx = dF/dz diag (xs)) */
static void
scale_columns (const skg_ctx *c, int64_t n, const int64_t *colptr, double *Jx)
{
  int64_t j, p;
  if (! c->xs)
    return;
  for (j = 0; j < n; j++)
    if (c->xs[j] != 1.0)
      for (p = colptr[j]; p < colptr[j + 1]; p++)
        Jx[p] *= c->xs[j];
}

static int
full_F (const double *x, double *F, void *ctx)
{
  skg_ctx *c = ctx;
  return vm_skg_eval (c->s, full_point (c, x), NULL, F, NULL);
}

static int
full_J (const double *x, double *Jx, void *ctx)
{
  skg_ctx *c = ctx;
  int st = vm_skg_eval (c->s, full_point (c, x), NULL, c->grad, Jx);
  if (st == VM_OK)
    scale_columns (c, c->s->nz, c->s->colptr, Jx);
  return st;
}

static void
red_point (skg_ctx *c, const double *y)
{
  int64_t r;
  if (c->xs)
    for (r = 0; r < c->nr; r++)
      c->z[c->plus[r]] = y[r] * c->xs[r];
  else
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
  if ((st = vm_skg_eval_reduced (c->s, c->z, c->grad, NULL, NULL)) != VM_OK)
    return st;
  for (r = 0; r < c->nr; r++)
    F[r] = c->grad[c->minus[r]];
  return VM_OK;
}

static int
red_J (const double *y, double *Jx, void *ctx)
{
  skg_ctx *c = ctx;
  int st;
  red_point (c, y);
  st = vm_skg_eval_reduced (c->s, c->z, NULL, &c->plan, Jx);
  if (st == VM_OK)
    scale_columns (c, c->nr, c->rcp, Jx);
  return st;
}

/* The component maps of the reduced system: z-component c of a node is reduced equation rc[c]
 * (q- -> 0 .. n-1, lambda- -> n .. n+m-1) and reduced unknown cc[c] (q+ -> 0 .. n-1, lambda+ ->
 * n .. n+m-1), -1 otherwise (nb entries each). */
static void
red_components (const vm_skg *s, int *rc, int *cc)
{
  int c, a, n = s->n, m = s->m;
  for (c = 0; c < s->nb; c++)
    rc[c] = cc[c] = -1;
  for (c = 0; c < n; c++)               /* the layout of a node: vm_skg_index (node 0) */
    {
      cc[vm_skg_index (s, 0, 0, c)] = c;
      rc[vm_skg_index (s, 0, 1, c)] = c;
    }
  for (a = 0; a < m; a++)
    {
      cc[vm_skg_index (s, 0, 2, a)] = n + a;
      rc[vm_skg_index (s, 0, 3, a)] = n + a;
    }
}

/* c->plus[r], c->minus[r]: the full indices of reduced unknown r and reduced equation r */
static void
red_maps (skg_ctx *c, const int *rc, const int *cc)
{
  const vm_skg *s = c->s;
  int64_t nr1 = s->n + s->m, k;
  int cmp;
  for (k = 0; k < s->N; k++)
    for (cmp = 0; cmp < s->nb; cmp++)
      {
        if (cc[cmp] >= 0)
          c->plus[k * nr1 + cc[cmp]] = k * s->nb + cmp;
        if (rc[cmp] >= 0)
          c->minus[k * nr1 + rc[cmp]] = k * s->nb + cmp;
      }
}

/* The reduced system's maps c->plus, c->minus, the pattern c->rcp, c->rri, c->rnnz of
 * d2S / d(q-, lambda-) d(q+, lambda+) (vm_skg_pattern: the full pattern is not built) and the
 * scatter plan of the Hessian's contributions into it (c->plan_ok set on success). */
static int
red_build (skg_ctx *c)
{
  const vm_skg *s = c->s;
  int64_t nr1 = s->n + s->m;
  int *rc = malloc ((size_t) s->nb * sizeof *rc), *cc = malloc ((size_t) s->nb * sizeof *cc);
  int st = VM_ENOMEM;
  c->nr = s->N * nr1;
  c->plus = vm_scratch_alloc ((size_t) c->nr * sizeof *c->plus);
  c->minus = vm_scratch_alloc ((size_t) c->nr * sizeof *c->minus);
  if (rc && cc && c->plus && c->minus)
    {
      red_components (s, rc, cc);
      red_maps (c, rc, cc);
      st = vm_skg_pattern (s, (int) nr1, rc, cc, &c->rcp, &c->rri, &c->rnnz);
      if (st == VM_OK)
        st = vm_skg_reduced_init (c->s);
      if (st == VM_OK)
        st = vm_skg_plan_build (s, VM_SKG_TERM_REDUCED, (int) nr1, rc, cc, c->nr, c->rcp, c->rri,
                                &c->plan);
      c->plan_ok = st == VM_OK;
    }
  free (rc);
  free (cc);
  return st;
}

static void
ctx_free (skg_ctx *c)
{
  vm_scratch_free (c->grad);
  vm_scratch_free (c->z);
  vm_scratch_free (c->plus);
  vm_scratch_free (c->minus);
  if (c->plan_ok)
    vm_skg_plan_free (&c->plan);
  vm_scratch_free (c->rcp);
  vm_scratch_free (c->rri);
  memset (c, 0, sizeof *c);
}

/* ---- one window ------------------------------------------------------------------------------- */

/* Residual weight of equation i (full numbering; doc/skg.md, "Stopping").  Equation i of node k is
 * a quadrature sum: H_kk times the residual r of the discrete (SBP-SAT) equation of motion or
 * constraint at node k, so it gets rw[c] / sqrt(H_kk) (c its component in the node, rw the unit of
 * that kind of equation: act_scales) and sum_i (w_i F_i)^2 = sum_k H_kk (rw r_k)^2, the
 * L2(t0, tf) norm of r, which does not change with N for the same continuous residual.  With
 * momentum != 0, the q equations of node 0 also hold the momentum condition p+_0 - p_i (the SAT,
 * not multiplied by H_00), which this norm counts as a force of size (p+_0 - p_i) / H_00;
 * scale_weight counts it as a momentum, with 1/sqrt(tf - t0), for the scale of the relative test
 * (the default guess has a momentum jump at t0 whose ||.||_W grows like sqrt(N)). */
static double
eq_weight (const vm_skg *s, int64_t i, int momentum, const double *rw)
{
  int64_t k = i / s->nb;
  int c = (int) (i % s->nb);
  const double q = rw[c];
  if (momentum && k == 0 && c < 2 * s->n)
    return q / sqrt (s->tf - s->t0);
  return q / sqrt (s->hw[k]);
}

/* The size of the window's initial state, ell = max_c max(|q_i,c|, tau |v_i,c|) (tau = tf - t0):
 * the length in which Newton's tests are absolute (0 when the state is zero or not finite). */
static double
state_size (const vm_skg *s)
{
  const double tau = s->tf - s->t0;
  double ell = 0.0;
  int c;
  for (c = 0; c < s->n; c++)
    ell = fmax (ell, fmax (fabs (s->qi[c]), tau * fabs (s->vi[c])));
  return ell <= DBL_MAX ? ell : 0.0;
}

/* The floor of the relative residual test's scale: min(1, ell / tau^(3/2)) (ell = state_size).
 * ell / tau^(3/2) is the L2 norm over the window of the acceleration ell / tau^2 that moves a
 * position by ell in the window: with it alone Newton's absolute target tol ell / tau^(3/2) would
 * be a displacement of about tol ell whatever the units of length and time; the old floor, an
 * absolute 1, is a displacement of tau^2 and was loose for long windows (a pendulum in units of
 * 10 us, tau ~ 1e3: every guess accepted, a wrong motion with exitflag 1) but is the stricter one
 * for windows shorter than ell^(2/3) (an SI pendulum), where tol ell alone falls short of
 * RelTol 1e-9 over hundreds of windows.  The smaller of the two is taken: never looser than
 * before.  1 when ell = 0. */
static double
res_floor (const vm_skg *s)
{
  const double tau = s->tf - s->t0;
  double f = state_size (s) / (tau * sqrt (tau));
  return f > 0.0 && f < 1.0 ? f : 1.0;
}

/* F = F(x0), and max(res_floor, ||F(x0)||) with the momentum-aware weights: the scale of the
 * relative residual test.  F is left unweighted, for Newton (vm_newton_opts.F0). */
static int
res_scale0 (skg_ctx *c, int reduced, const double *x, double *F, int64_t n, const double *rw,
            double *scale)
{
  int64_t i;
  double amax = 0.0, sum = 0.0;
  int st = reduced ? red_F (x, F, c) : full_F (x, F, c);
  if (st != VM_OK)
    return st;
  for (i = 0; i < n; i++)
    amax = fmax (amax, fabs (F[i] * eq_weight (c->s, reduced ? c->minus[i] : i, 1, rw)));
  if (amax > 0.0 && isfinite (amax))
    for (i = 0; i < n; i++)
      {
        double fw = F[i] * eq_weight (c->s, reduced ? c->minus[i] : i, 1, rw) / amax;
        sum += fw * fw;
      }
  *scale = fmax (res_floor (c->s), amax * sqrt (sum));
  if (! isfinite (*scale))
    *scale = res_floor (c->s);   /* Newton reports the non-finite residual itself */
  return VM_OK;
}

/* ---- the SKG action as a vm_march_action ------------------------------------------------------- */

/* Residual of the projection onto holonomic constraints (position and velocity level): 0, i.e. to
 * its rounding stop (vm_motion_project), since an absolute tolerance has the constraint's units
 * (1e-12 on x^2 + y^2 - l^2 with l = 2e-6 left the ends unprojected; doc/skg.md, "Units"). */
#define VM_SKG_PROJECT_TOL 0.0

/* One order of the discrete action on a window of N nodes.  The trajectory of a window has, per
 * node, q+ (n), the scheme velocity Da q+ (n) and lambda+ (m), the raw multiplier of the action;
 * with holonomic constraints (q+, Da q+) are projected onto the constraints (mech_points.h; a
 * failed projection leaves them as they are, for the error estimate to judge);
 * the state passed on is (q+, Da q+) at the last node, so the next window's momentum SAT
 * p_i = dL/dqdot(q_i, v_i) equals the previous p+_N (skg_solve.h). */
typedef struct
{
  vm_march_action act;
  const vm_mech *model;
  const double *par;
  vm_mech_points *pts;     /* NULL, or the projector onto holonomic constraints (shared) */
  int mode, eom_residual, built;
  vm_skg s;
  skg_ctx c;
  double *wt, *f0;
  double *xs;              /* the unknowns' scales (skg_ctx.xs; act_scales) */
  double *xoff;            /* the unknowns' origin for Newton's rounding level (newton.h
                              x_offset): q+ entries the window's initial position / xs, else 0 */
  unsigned char *orow;     /* the equations evaluated at the positions without differencing
                              them (newton.h offset_rows): the constraints' (lambda-) rows */
  double *rw;              /* 2 nb: the residual weight of each component's equation, then the
                              scale of each component's unknown (act_scales) */
  double mscale;           /* the mass scale of the model (vm_skg_solve: max |M_ij| at the
                              initial state, else 1): the equations of motion and the
                              multipliers are measured per unit of it */
  const double *gscale;    /* m: the constraints' scales max_j |A_aj| at the initial state, and */
  const int *hol;          /* m: 1 for a holonomic constraint (vm_mech_points_constraint_scales;
                              NULL: 1 and 0) */
  /* diagnostics of the last extract, and their maxima over the accepted windows */
  double last_qm, last_lm, last_grad;
  double max_qm, max_lm, max_grad;
  double t_build;
  long ntape;
  double t_tape, t_hess;
  vm_contact_check cc;   /* the contacts' resolution check (main order only; built at first use) */
  int cc_ok;
} skg_act;

static int
act_F (const double *x, double *F, void *self)
{
  skg_act *A = self;
  return A->mode == VM_SKG_REDUCED ? red_F (x, F, &A->c) : full_F (x, F, &A->c);
}

static int
act_J (const double *x, double *Jx, void *self)
{
  skg_act *A = self;
  return A->mode == VM_SKG_REDUCED ? red_J (x, Jx, &A->c) : full_J (x, Jx, &A->c);
}

/* The units of the window's unknowns and equations (doc/skg.md, "Units"), from the window's length
 * tau = tf - t0, the mass scale and the constraints' scales gscale_a (A->gscale; 1 without them):
 * the positions are solved for as they are, the multipliers (lambda+-) of constraint a as
 * lambda / xs_a with xs_a = mscale / (gscale_a tau^2), the displacement over the window that its
 * force would cause, a length like the positions; the equations of motion are weighted per unit
 * mass (1 / mscale), constraint a's equations by 1 / (gscale_a tau^p), p = 2 for a holonomic one
 * (g, a position) and 1 for the others (a velocity), so that every residual is an acceleration.
 * Then the unknowns, Newton's tests and the columns of J have the same size whatever the units of
 * mass, length, time and the constraints (a pendulum in units of 1e-6 s had multiplier columns
 * 1e16 times smaller than the positions', every step a Levenberg-Marquardt step and a wrong motion
 * with exitflag 1; one of mass 1e10 an LU with a pivot ratio below eps). */
static void
act_scales (skg_act *A)
{
  const vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  const int n = sp->n, m = sp->m;
  const double tau = sp->tf - sp->t0;
  double *xc = A->rw + sp->nb;          /* the unknowns' scale per component */
  int c;
  int64_t i;
  for (c = 0; c < 2 * n; c++)
    {
      A->rw[c] = 1.0 / A->mscale;
      xc[c] = 1.0;
    }
  for (c = 2 * n; c < sp->nb; c++)     /* lambda+ and lambda- of constraint a */
    {
      int a = (c - 2 * n) % m;
      double g = A->gscale ? A->gscale[a] : 1.0;
      int hol = A->hol ? A->hol[a] : 0;
      A->rw[c] = 1.0 / (g * (hol ? tau * tau : tau));
      xc[c] = A->mscale / (g * tau * tau);
    }
  for (i = 0; i < A->act.n; i++)
    A->xs[i] = xc[(A->mode == VM_SKG_REDUCED ? cp->plus[i] : i) % sp->nb];
  cp->xs = m > 0 ? A->xs : NULL;
}

static int
act_move (void *self, double ta, double tb, const double *xa)
{
  skg_act *A = self;
  vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  int n = A->model->n, st;
  int64_t nsol;
  double t0 = vm_wall_time ();
  if (! A->built)
    {
      if ((st = vm_skg_build (sp, A->model, A->par, A->act.N, A->act.order, ta, tb, xa, xa + n))
          != VM_OK)
        return st;
      A->built = 1;
      if (sp->nz > INT_MAX)
        return VM_EARG;
      cp->s = sp;
      cp->grad = vm_scratch_alloc ((size_t) sp->nz * sizeof *cp->grad);
      cp->z = vm_scratch_alloc ((size_t) sp->nz * sizeof *cp->z);
      /* the solver's unknowns: N (n + m) in reduced mode (the predictor's q and lambda fit in
       * f0 in either mode), nz in full mode */
      nsol = A->mode == VM_SKG_REDUCED ? sp->N * (sp->n + sp->m) : sp->nz;
      A->wt = vm_scratch_alloc ((size_t) nsol * sizeof *A->wt);
      A->f0 = vm_scratch_alloc ((size_t) nsol * sizeof *A->f0);
      A->xs = vm_scratch_alloc ((size_t) nsol * sizeof *A->xs);
      A->xoff = vm_scratch_alloc ((size_t) nsol * sizeof *A->xoff);
      A->orow = vm_scratch_alloc ((size_t) nsol * sizeof *A->orow);
      A->rw = malloc ((size_t) (2 * sp->nb) * sizeof *A->rw);
      if (! cp->grad || ! cp->z || ! A->wt || ! A->f0 || ! A->xs || ! A->xoff || ! A->orow
          || ! A->rw)
        return VM_ENOMEM;
      memset (cp->z, 0, (size_t) sp->nz * sizeof *cp->z);
      if (A->mode == VM_SKG_REDUCED)
        {
          if ((st = red_build (cp)) != VM_OK)
            return st;
          A->act.n = cp->nr;
          A->act.colptr = cp->rcp;
          A->act.rowind = cp->rri;
        }
      else
        {
          if ((st = vm_skg_full_pattern (sp)) != VM_OK)
            return st;
          A->act.n = sp->nz;
          A->act.colptr = sp->colptr;
          A->act.rowind = sp->rowind;
        }
    }
  else if ((st = vm_skg_set_window (sp, ta, tb, xa, xa + n)) != VM_OK)
    return st;
  /* the q+ unknowns are displacements from the window's initial position (vm_skg_set_origin) */
  if ((st = vm_skg_set_origin (sp, xa)) != VM_OK)
    return st;
  act_scales (A);
  A->act.t = sp->t;
  A->t_build += vm_wall_time () - t0;
  return VM_OK;
}

/* The start x from q+ (N x n) and lambda+ (N x m, or NULL: 0) on the window's nodes, column-major
 * with leading dimension ld; q- = lambda- = 0.  q holds positions (origin: the action's origin
 * sp->qo, subtracted here) or, with origin NULL, displacements from sp->qo already. */
static int
act_start (skg_act *A, const double *q, const double *origin, const double *lam, int64_t ld,
           double *x)
{
  vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  int64_t k, i;
  int cc, a;
  memset (cp->z, 0, (size_t) sp->nz * sizeof *cp->z);
  for (k = 0; k < sp->N; k++)
    {
      for (cc = 0; cc < sp->n; cc++)
        cp->z[vm_skg_index (sp, k, 0, cc)] = q[k + ld * cc] - (origin ? origin[cc] : 0.0);
      for (a = 0; a < sp->m; a++)
        cp->z[vm_skg_index (sp, k, 2, a)] = lam ? lam[k + ld * a] : 0.0;
    }
  if (A->mode == VM_SKG_REDUCED)
    for (i = 0; i < cp->nr; i++)
      x[i] = cp->z[cp->plus[i]] / (cp->xs ? cp->xs[i] : 1.0);
  else
    for (i = 0; i < sp->nz; i++)
      x[i] = cp->z[i] / (cp->xs ? cp->xs[i] : 1.0);
  return VM_OK;
}

/* Guess 'marching': the first window from the initial state at constant velocity; a later one
 * from the end state of the previous window (q, v) with the acceleration of its last quarter
 * (a quadratic Taylor step), and its last multipliers held constant. */
static int
act_predict (void *self, const double *xa, const double *pt, const double *ptraj, int64_t pn,
             int64_t ldp, double *x)
{
  skg_act *A = self;
  vm_skg *sp = &A->s;
  int n = sp->n, m = sp->m, cc, a;
  int64_t N = sp->N, k, j = 0;
  double *q = A->f0, *lam = A->f0 + N * n;     /* f0 has at least N (n + m) entries */
  for (k = 0; k < N; k++)
    {
      double tau = sp->t[k] - sp->t[0];
      for (cc = 0; cc < n; cc++)
        {
          double acc = 0.0;
          if (pn > 1)
            {
              int64_t last = pn - 1;
              j = last - (last + 3) / 4;
              acc = (ptraj[last + ldp * (n + cc)] - ptraj[j + ldp * (n + cc)])
                    / (pt[last] - pt[j]);
            }
          /* the displacement from xa, the origin of the unknowns (act_move) */
          q[k + N * cc] = (xa[cc] - sp->qo[cc]) + xa[n + cc] * tau + 0.5 * acc * tau * tau;
        }
      for (a = 0; a < m; a++)
        lam[k + N * a] = pn > 0 ? ptraj[(pn - 1) + ldp * (2 * n + a)] : 0.0;
    }
  return act_start (A, q, NULL, lam, N, x);
}

static int
act_from_traj (void *self, const double *traj, int64_t ld, double *x)
{
  skg_act *A = self;
  return act_start (A, traj, A->s.qo, A->s.m > 0 ? traj + ld * 2 * A->s.n : NULL, ld, x);
}

static int
act_newton_setup (void *self, const double *x, vm_newton_opts *o)
{
  skg_act *A = self;
  vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  int64_t i, nsol = A->act.n;
  double ell;
  int reduced = A->mode == VM_SKG_REDUCED;
  sp->ntape = 0;
  sp->t_tape = sp->t_hess = sp->t_grad = 0.0;
  /* node-major unknowns: the banded LU may exchange the end nodes (kl 30 -> 24 for the disk) */
  o->block = reduced ? sp->n + sp->m : sp->nb;
  /* the step test's absolute part no larger than the state (positions and, per act_scales,
   * multipliers are lengths): 1e-12 (1 + ||x||) was 1e-6 of a pendulum in um, above its AbsTol (a
   * stall); as res_floor, never looser than 1 */
  ell = state_size (sp);
  o->step_scale = ell > 0.0 ? fmin (1.0, ell) : 1.0;
  /* the rounding level of the constraints' rows: g is evaluated at the positions qo + z, whose
   * rounding (eps |qo|) the displacements z do not show (vm_skg_set_origin); the equations of
   * motion difference z (Ds z) and round at eps |J| |z| */
  for (i = 0; i < nsol; i++)
    {
      int64_t zu = reduced ? cp->plus[i] : i, ze = reduced ? cp->minus[i] : i;
      int cu = (int) (zu % sp->nb), ce = (int) (ze % sp->nb);
      A->xoff[i] = cu < sp->n ? sp->qo[cu] / (cp->xs ? cp->xs[i] : 1.0) : 0.0;
      A->orow[i] = ce >= 2 * sp->n + sp->m;
    }
  o->x_offset = A->xoff;
  o->offset_rows = A->orow;
  if (! A->eom_residual)
    return VM_OK;
  for (i = 0; i < nsol; i++)
    A->wt[i] = eq_weight (sp, reduced ? cp->minus[i] : i, 0, A->rw);
  o->res_weight = A->wt;
  if (! (o->res_scale > 0.0))
    {
      /* F(x0) is evaluated for the scale; Newton takes it as its first residual */
      int st = res_scale0 (cp, reduced, x, A->f0, nsol, A->rw, &o->res_scale);
      if (st == VM_OK)
        o->F0 = A->f0;
      return st;
    }
  return VM_OK;
}

static int
act_extract (void *self, const double *x, double *traj, int64_t ld, double *xend)
{
  skg_act *A = self;
  vm_skg *sp = &A->s;
  skg_ctx *cp = &A->c;
  int n = sp->n, m = sp->m, cc, a;
  int64_t N = sp->N, k, e, i;
  A->ntape += sp->ntape;
  A->t_tape += sp->t_tape;
  A->t_hess += sp->t_hess;
  sp->ntape = 0;
  sp->t_tape = sp->t_hess = 0.0;
  if (A->mode == VM_SKG_REDUCED)
    red_point (cp, x);         /* q- = lambda- = 0 */
  else if (cp->xs)
    full_point (cp, x);        /* z = x .* xs */
  else
    memcpy (cp->z, x, (size_t) sp->nz * sizeof *x);
  for (k = 0; k < N; k++)
    {
      for (cc = 0; cc < n; cc++)
        {
          double sum = 0.0;
          for (e = sp->dsp[k]; e < sp->dsp[k + 1]; e++)
            sum += sp->dsv[e] * cp->z[vm_skg_index (sp, sp->dsj[e], 0, cc)];
          if (k == 0)
            sum += (sp->qo[cc] - sp->qi[cc]) / sp->hw[0];
          traj[k + ld * cc] = sp->qo[cc] + cp->z[vm_skg_index (sp, k, 0, cc)];
          traj[k + ld * (n + cc)] = sum;
          if (k == N - 1)
            {
              xend[cc] = traj[k + ld * cc];
              xend[n + cc] = sum;
            }
        }
      for (a = 0; a < m; a++)
        traj[k + ld * (2 * n + a)] = cp->z[vm_skg_index (sp, k, 2, a)];
    }
  if (A->pts && vm_mech_points_project (A->pts, N, sp->t, traj, traj + ld * n, ld,
                                        VM_SKG_PROJECT_TOL) == VM_OK)
    for (cc = 0; cc < n; cc++)
      {
        xend[cc] = traj[N - 1 + ld * cc];
        xend[n + cc] = traj[N - 1 + ld * (n + cc)];
      }
  A->last_qm = A->last_lm = A->last_grad = 0.0;
  for (k = 0; k < N; k++)
    {
      for (cc = 0; cc < n; cc++)
        A->last_qm = fmax (A->last_qm, fabs (cp->z[vm_skg_index (sp, k, 1, cc)]));
      for (a = 0; a < m; a++)
        A->last_lm = fmax (A->last_lm, fabs (cp->z[vm_skg_index (sp, k, 3, a)]));
    }
  /* cross-check: the full gradient at the returned point (reduced mode: from the reduced tape,
   * whose zero plus components are those of the full gradient at q- = lambda- = 0, skg.h) */
  if ((A->mode == VM_SKG_REDUCED ? vm_skg_eval_reduced (sp, cp->z, cp->grad, NULL, NULL)
       : vm_skg_eval (sp, cp->z, NULL, cp->grad, NULL)) == VM_OK)
    for (i = 0; i < sp->nz; i++)
      A->last_grad = fmax (A->last_grad, fabs (cp->grad[i]));
  else
    A->last_grad = NAN;
  return VM_OK;
}

static void
act_accepted (void *self)
{
  skg_act *A = self;
  A->max_qm = fmax (A->max_qm, A->last_qm);
  A->max_lm = fmax (A->max_lm, A->last_lm);
  A->max_grad = isnan (A->last_grad) ? NAN : fmax (A->max_grad, A->last_grad);
}

/* The window's contact layers resolved (contact_check.h): q and Da q+ of the trajectory. */
static int
act_check (void *self, const double *traj, int64_t ld, int *ok, double *factor, char *why,
           size_t nwhy)
{
  skg_act *A = self;
  int st;
  if (! A->cc_ok)
    {
      if ((st = vm_contact_check_init (&A->cc, A->model, A->par)) != VM_OK)
        return st;
      A->cc_ok = 1;
    }
  return vm_contact_check_eval (&A->cc, A->s.N, A->s.t, traj, traj + ld * A->s.n, ld, ok, factor,
                                why, nwhy);
}

static void
act_init (skg_act *A, const vm_mech *model, const double *par, int order, int64_t N, int mode,
          int eom_residual)
{
  memset (A, 0, sizeof *A);
  A->model = model;
  A->par = par;
  A->mode = mode;
  A->eom_residual = eom_residual;
  A->mscale = 1.0;
  A->act.self = A;
  A->act.nstate = 2 * model->n;
  A->act.nout = 2 * model->n + model->m;
  A->act.nerr = 2 * model->n;    /* q and qdot: the multipliers of a window disagree between orders at its first nodes (the weak initial data) whatever its length */
  A->act.order = order;
  A->act.N = N;
  A->act.F = act_F;
  A->act.J = act_J;
  A->act.move = act_move;
  A->act.predict = act_predict;
  A->act.from_traj = act_from_traj;
  A->act.newton_setup = act_newton_setup;
  A->act.extract = act_extract;
  A->act.accepted = act_accepted;
  A->act.check = model->nc > 0 ? act_check : NULL;
  A->act.check_name = "contact";
}

static void
act_free (skg_act *A)
{
  ctx_free (&A->c);
  if (A->cc_ok)
    vm_contact_check_free (&A->cc);
  vm_scratch_free (A->wt);
  vm_scratch_free (A->f0);
  vm_scratch_free (A->xs);
  vm_scratch_free (A->xoff);
  vm_scratch_free (A->orow);
  free (A->rw);
  if (A->built)
    vm_skg_free (&A->s);
  memset (A, 0, sizeof *A);
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

/* sol->energy, phi and gpos at the nodes (left NULL on failure) */
static void
state_residuals (vm_mech_points *pts, vm_skg_solution *sol)
{
  int64_t Ntot = sol->Ntot;
  size_t nm = (size_t) (Ntot * sol->m);
  if (Ntot == 0)
    return;
  sol->energy = vm_scratch_alloc ((size_t) Ntot * sizeof *sol->energy);
  sol->phi = vm_scratch_alloc ((nm > 0 ? nm : 1) * sizeof *sol->phi);
  sol->gpos = vm_scratch_alloc ((nm > 0 ? nm : 1) * sizeof *sol->gpos);
  if (! sol->energy || ! sol->phi || ! sol->gpos
      || vm_mech_points_residuals (pts, Ntot, sol->t, sol->q, sol->v, Ntot, sol->energy, sol->phi,
                                   sol->gpos) != VM_OK)
    {
      vm_scratch_free (sol->energy);
      vm_scratch_free (sol->phi);
      vm_scratch_free (sol->gpos);
      sol->energy = sol->phi = sol->gpos = NULL;
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
  act_init (&A, model, par, o->order, o->N, o->mode, o->eom_residual);
  if (est)
    act_init (&C, model, par, vm_march_companion_order (o->order), o->N, o->mode, o->eom_residual);
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
  act_free (&A);
  if (est)
    act_free (&C);
  if (pts_ok)
    vm_mech_points_free (&pts);
  free (gscale);
  free (hol);
  sol->status = st;
  sol->t_total = vm_wall_time () - t_start;
  return st;
}
