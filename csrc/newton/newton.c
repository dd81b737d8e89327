/* newton.c -- globalized Newton solver with a sparse Jacobian (linear systems: linsolve.h); see
 * newton.h. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "la/linsolve.h"
#include "newton/newton.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"
#include "base/vm_sumsq.h"

#define ARMIJO_C 1e-4        /* sufficient decrease of 1/2 ||F||^2 */
#define T_MIN 1e-10          /* smallest line-search factor */
#define LM_TAU 1e-3          /* mu_0 = LM_TAU max_j ||J(:,j)||^2 */
#define LM_RHO_MIN 1e-4      /* smallest gain ratio of an accepted LM step */
#define LM_MAX_TRIALS 40     /* mu increases per fallback */
#define MAX_ITER_CAP 1000000 /* the histories are allocated for max_iter + 1 entries */
#ifndef REUSE_DEFAULT
#define REUSE_DEFAULT 2      /* vm_newton_opts.reuse (newton.h) */
#endif
#define NONMONOTONE_DEFAULT 0.0   /* vm_newton_opts.nonmonotone (newton.h): off */
#define NONMONOTONE_MAX_DEFAULT 5 /* vm_newton_opts.nonmonotone_max */
#define NONMONOTONE_FAR 1e3       /* relaxed steps only while ||F|| > this * tol_res * scale */

typedef struct
{
  int n;
  int64_t nnz;
  const int64_t *Ap, *Ai;    /* the caller's pattern of J */
  double *Jx;                /* values of J at the current iterate */
  double *vec;               /* the eight n-vectors below, in one block (vm_scratch.h) */
  double *F, *Ft;            /* F at the current iterate and at the trial point */
  double *dx, *xt, *xbest, *w;
  double *wt;                /* per-equation weights of the residual norm (all 1 when none given) */
  double *jx;                /* |J| |x| (rounding level of F) */
  double wmax;               /* the largest weight */
  double jfro;               /* ||J||_F of the values in Jx (set with them; Inf when it overflows) */
  vm_linsolve_opts lo;       /* the linear solver options of J (from vm_newton_opts) */
  vm_linsolve ls;            /* J's linear solver */
  /* augmented LM system K = [I J; J^T -mu I] of order 2n, interleaved (r_i at 2i, dx_j at
   * 2j+1: banded when J is), built at the first fallback */
  int64_t *Kp, *Ki;
  double *Kx, *kb, *ksol;
  int64_t *kposJ, *kposT, *kposmu;
  vm_linsolve lsK;           /* K's linear solver (lsK.n = 0: not set up) */
  double mu_next;            /* mu for the next consecutive LM step (0: start afresh) */
  int held;                  /* a nonsingular factorization of J(x_m) is held in ls (w->Jx its
                                values): chord steps may use it (newton.h 2') */
  int nchord;                /* chord solves with it so far */
  double fbest;              /* the smallest ||F||_W seen, at iteration kbest (x there: xbest) */
  int kbest;
  double target;             /* tol_res * scale: the residual test's bound */
  int nrelax;                /* steps since the first relaxed step (newton.h 3) without a new best
                                residual (0: no relaxed sequence under way) */
  int relaxed_step;          /* the step being accepted was taken by the non-monotone test */
  int relax_off;             /* the watchdog went back once: monotone from then on */
} ws_t;

/* ---- small helpers ------------------------------------------------------------------------------ */

#define wall vm_wall_time

/* F(x) into Fx, timed and counted in inf; the callback's code. */
static int
call_F (vm_newton_fn Ffn, void *ctx, const double *x, double *Fx, vm_newton_info *inf)
{
  double t0 = wall ();
  int st = Ffn (x, Fx, ctx);
  inf->t_fun += wall () - t0;
  inf->nfev++;
  return st;
}

static void
setmsg (vm_newton_info *inf, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (inf->message, sizeof inf->message, fmt, ap);
  va_end (ap);
}

/* ||v||_2 without spurious overflow or underflow; NaN if any entry is NaN, Inf if any is infinite. */
static double
nrm2 (int n, const double *v)
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

/* ||diag(wt) v||_2, as nrm2 (wt > 0). */
static double
wnrm2 (int n, const double *wt, const double *v)
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

static double
nrminf (int n, const double *v)
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
static int
ls_error (vm_newton_info *inf, const char *what, const vm_linsolve *ls, int st, int iter)
{
  setmsg (inf, "%s failed at iteration %d (%s): %s", what, iter, vm_linsolve_name (ls->kind),
          ls->message);
  return st;
}

/* The number of Jacobian values allocated (at least 1) */
static size_t
jx_count (const ws_t *w)
{
  return (size_t) (w->nnz > 0 ? w->nnz : 1);
}

static void
ws_free (ws_t *w)
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

/* ---- argument checks ---------------------------------------------------------------------------- */

/* The sizes, the callbacks and the pattern (colptr, rowind: CSC, rows sorted in each column):
 * VM_OK or VM_EARG (message set). */
static int
check_pattern (int n, const int64_t *colptr, const int64_t *rowind, vm_newton_fn F,
               vm_newton_jac J, const double *x, vm_newton_info *inf)
{
  int j;
  int64_t nnz;
  if (n < 1)
    {
      setmsg (inf, "n = %d: the number of unknowns must be at least 1", n);
      return VM_EARG;
    }
  if (n > INT_MAX / 2 - 1)
    {
      setmsg (inf, "n = %d: too large (the fallback system has order 2n)", n);
      return VM_EARG;
    }
  if (!colptr || !F || !J || !x)
    {
      setmsg (inf, "NULL argument (%s)", !colptr ? "colptr" : !F ? "residual function"
              : !J ? "Jacobian function" : "x");
      return VM_EARG;
    }
  if (colptr[0] != 0)
    {
      setmsg (inf, "colptr[0] = %lld: must be 0", (long long) colptr[0]);
      return VM_EARG;
    }
  for (j = 0; j < n; j++)
    if (colptr[j + 1] < colptr[j])
      {
        setmsg (inf, "colptr decreases at column %d", j);
        return VM_EARG;
      }
  nnz = colptr[n];
  if (nnz > (int64_t) n * (int64_t) n)
    {
      setmsg (inf, "colptr[n] = %lld exceeds n^2", (long long) nnz);
      return VM_EARG;
    }
  if (nnz > 0 && !rowind)
    {
      setmsg (inf, "NULL argument (rowind) with %lld entries", (long long) nnz);
      return VM_EARG;
    }
  if ((uint64_t) nnz > SIZE_MAX / (2 * sizeof (double)))
    {
      setmsg (inf, "%lld entries: too many for this platform", (long long) nnz);
      return VM_EARG;
    }
  for (j = 0; j < n; j++)
    {
      int64_t p;
      for (p = colptr[j]; p < colptr[j + 1]; p++)
        {
          if (rowind[p] < 0 || rowind[p] >= n)
            {
              setmsg (inf, "row index %lld of column %d out of range [0, %d)", (long long) rowind[p],
                      j, n);
              return VM_EARG;
            }
          if (p > colptr[j] && rowind[p] <= rowind[p - 1])
            {
              setmsg (inf, "row indices of column %d not strictly increasing (unsorted or "
                      "duplicate)", j);
              return VM_EARG;
            }
        }
    }
  return VM_OK;
}

/* The options (newton.h): VM_OK or VM_EARG (message set). */
static int
check_opts (int n, const vm_newton_opts *o, vm_newton_info *inf)
{
  int j;
  if (!(o->tol_res >= 0.0 && isfinite (o->tol_res)) || !(o->tol_step >= 0.0 && isfinite (o->tol_step))
      || !(o->res_scale >= 0.0 && isfinite (o->res_scale))
      || !(o->tol_round >= 0.0 && isfinite (o->tol_round)))
    {
      setmsg (inf, "tol_res, tol_step, tol_round and res_scale must be finite and >= 0");
      return VM_EARG;
    }
  if (!(o->step_scale > 0.0 && isfinite (o->step_scale)))
    {
      setmsg (inf, "step_scale must be finite and > 0");
      return VM_EARG;
    }
  if (o->res_weight)
    for (j = 0; j < n; j++)
      if (!(o->res_weight[j] > 0.0 && isfinite (o->res_weight[j])))
        {
          setmsg (inf, "res_weight[%d] = %g: the residual weights must be finite and > 0", j,
                  o->res_weight[j]);
          return VM_EARG;
        }
  if (o->umf_ordering < -1 || o->umf_ordering > VM_UMF_ORDERING_NONE
      || o->umf_strategy < -1 || o->umf_strategy > VM_UMF_STRATEGY_SYMMETRIC
      || o->umf_irstep < -1 || o->umf_irstep > 10)
    {
      setmsg (inf, "umf_ordering = %d, umf_strategy = %d, umf_irstep = %d: must be -1 (default) "
              "or a UMFPACK ordering (0..%d, not USER), strategy (0..%d), number of refinement "
              "steps (0..10)", o->umf_ordering, o->umf_strategy, o->umf_irstep,
              VM_UMF_ORDERING_NONE, VM_UMF_STRATEGY_SYMMETRIC);
      return VM_EARG;
    }
  if (o->linsolve != VM_LINSOLVE_AUTO && o->linsolve != VM_LINSOLVE_UMFPACK
      && o->linsolve != VM_LINSOLVE_BANDED)
    {
      setmsg (inf, "linsolve = %d: must be VM_LINSOLVE_AUTO (%d), _UMFPACK (%d) or _BANDED (%d)",
              o->linsolve, VM_LINSOLVE_AUTO, VM_LINSOLVE_UMFPACK, VM_LINSOLVE_BANDED);
      return VM_EARG;
    }
  if (o->lean != VM_LINSOLVE_LEAN_AUTO && o->lean != 0 && o->lean != 1)
    {
      setmsg (inf, "lean = %d: must be VM_LINSOLVE_LEAN_AUTO (%d), 0 or 1", o->lean,
              VM_LINSOLVE_LEAN_AUTO);
      return VM_EARG;
    }
  if (o->reuse < 0 || o->reuse > MAX_ITER_CAP
      || (o->reuse > 0 && !(o->reuse_theta > 0.0 && o->reuse_theta < 1.0)))
    {
      setmsg (inf, "reuse = %d, reuse_theta = %g: reuse must be in [0, %d] and, when it is "
              "nonzero, reuse_theta in (0, 1)", o->reuse, o->reuse_theta, MAX_ITER_CAP);
      return VM_EARG;
    }
  if (!(o->nonmonotone >= 0.0 && o->nonmonotone <= 1e6) || o->nonmonotone_max < 0
      || o->nonmonotone_max > MAX_ITER_CAP)
    {
      setmsg (inf, "nonmonotone = %g, nonmonotone_max = %d: must be in [0, 1e6] and [0, %d]",
              o->nonmonotone, o->nonmonotone_max, MAX_ITER_CAP);
      return VM_EARG;
    }
  if (o->max_iter < 0 || o->max_iter > MAX_ITER_CAP)
    {
      setmsg (inf, "max_iter = %d: must be in [0, %d]", o->max_iter, MAX_ITER_CAP);
      return VM_EARG;
    }
  if (o->block < 0 || o->block > n)
    {
      setmsg (inf, "block = %d: must be in [0, n = %d]", o->block, n);
      return VM_EARG;
    }
  return VM_OK;
}

static int
check_args (int n, const int64_t *colptr, const int64_t *rowind, vm_newton_fn F, vm_newton_jac J,
            const double *x, const vm_newton_opts *o, vm_newton_info *inf)
{
  int j, st;
  if ((st = check_pattern (n, colptr, rowind, F, J, x, inf)) != VM_OK
      || (st = check_opts (n, o, inf)) != VM_OK)
    return st;
  for (j = 0; j < n; j++)
    if (!isfinite (x[j]))
      {
        setmsg (inf, "initial guess x[%d] is not finite", j);
        return VM_EARG;
      }
  return VM_OK;
}

/* ---- Levenberg-Marquardt fallback --------------------------------------------------------------- */

/* Build the pattern of K = [I J; J^T -mu I] in the interleaved order (r_i is unknown and equation
 * 2i, dx_j is 2j+1; rows sorted within columns), with the identity's values, and the maps from the
 * entries of J and from mu to their places in K.  Column 2i holds row 2i and the rows 2j+1 of the
 * entries J(i, j) of row i of J; column 2j+1 the rows 2i of column j of J and row 2j+1.  K's
 * bandwidths are at most 2 max (kl, ku) + 1 for those of J. */
static int
build_aug (ws_t *w)
{
  const int n = w->n;
  const int64_t nnz = w->nnz, nk = 2 * nnz + 2 * (int64_t) n;
  int64_t *cnt, *low, p;
  int i, j;
  w->Kp = malloc ((2 * (size_t) n + 1) * sizeof *w->Kp);
  w->Ki = malloc ((size_t) nk * sizeof *w->Ki);
  w->Kx = malloc ((size_t) nk * sizeof *w->Kx);
  w->kb = malloc (2 * (size_t) n * sizeof *w->kb);
  w->ksol = malloc (2 * (size_t) n * sizeof *w->ksol);
  w->kposJ = malloc ((size_t) (nnz > 0 ? nnz : 1) * sizeof *w->kposJ);
  w->kposT = malloc ((size_t) (nnz > 0 ? nnz : 1) * sizeof *w->kposT);
  w->kposmu = malloc ((size_t) n * sizeof *w->kposmu);
  cnt = calloc (2 * (size_t) n, sizeof *cnt);
  if (!w->Kp || !w->Ki || !w->Kx || !w->kb || !w->ksol || !w->kposJ || !w->kposT || !w->kposmu
      || !cnt)
    {
      free (cnt);
      return VM_ENOMEM;
    }
  low = cnt + n;   /* low[i]: entries of row i of J left of the diagonal (j < i) */
  for (j = 0; j < n; j++)
    for (p = w->Ap[j]; p < w->Ap[j + 1]; p++)
      {
        cnt[w->Ai[p]]++;
        if (j < w->Ai[p])
          low[w->Ai[p]]++;
      }
  w->Kp[0] = 0;
  for (i = 0; i < n; i++)
    {
      w->Kp[2 * i + 1] = w->Kp[2 * i] + cnt[i] + 1;
      w->Kp[2 * i + 2] = w->Kp[2 * i + 1] + (w->Ap[i + 1] - w->Ap[i]) + 1;
      w->Ki[w->Kp[2 * i] + low[i]] = 2 * (int64_t) i;
      w->Kx[w->Kp[2 * i] + low[i]] = 1.0;
      cnt[i] = 0;
    }
  for (j = 0; j < n; j++)
    {
      int64_t q = w->Kp[2 * j + 1];
      int diag = 0;
      for (p = w->Ap[j]; p < w->Ap[j + 1]; p++)
        {
          const int64_t r = w->Ai[p];
          /* J(r, j) in column 2j+1 at row 2r, after the diagonal 2j+1 when r > j ... */
          if (r > j && !diag)
            {
              w->kposmu[j] = q++;
              diag = 1;
            }
          w->Ki[q] = 2 * r;
          w->kposJ[p] = q++;
          /* ... and in column 2r at row 2j+1 (columns j ascending: sorted; the identity skipped) */
          w->kposT[p] = w->Kp[2 * r] + cnt[r] + (j >= r ? 1 : 0);
          w->Ki[w->kposT[p]] = 2 * (int64_t) j + 1;
          cnt[r]++;
        }
      if (!diag)
        w->kposmu[j] = q;
      w->Ki[w->kposmu[j]] = 2 * (int64_t) j + 1;
    }
  free (cnt);
  return VM_OK;
}

/* The LM system's pattern and its linear solver, at the first LM step of a solve. */
static int
lm_setup (ws_t *w, vm_newton_info *inf, int iter)
{
  vm_linsolve_opts ko = w->lo;
  int st;
  ko.cache = NULL;
  ko.block = 0;   /* the interleaved LM system is not node-major in J's blocks */
  ko.definite = 0;   /* nor symmetric */
  ko.definite_scale = NULL;
  if (build_aug (w) != VM_OK)
    {
      setmsg (inf, "out of memory for the Levenberg-Marquardt system at iteration %d", iter);
      return VM_ENOMEM;
    }
  st = vm_linsolve_init (&w->lsK, 2 * w->n, w->Kp, w->Ki, &ko);
  inf->linsolve_lm = w->lsK.kind;
  if (st != VM_OK)
    return ls_error (inf, "setting up the Levenberg-Marquardt system", &w->lsK, st, iter);
  return VM_OK;
}

/* max_j |(J^T W^2 F)_j|, the gradient of 1/2 ||F||_W^2, into *gmax, and the largest squared column
 * norm of W J into *cmax. */
static void
lm_gradient (const ws_t *w, double *gmax, double *cmax)
{
  int64_t p;
  int j;
  *gmax = *cmax = 0.0;
  for (j = 0; j < w->n; j++)
    {
      double g = 0.0, c = 0.0;
      for (p = w->Ap[j]; p < w->Ap[j + 1]; p++)
        {
          const double wj = w->wt[w->Ai[p]] * w->Jx[p];
          g += wj * w->wt[w->Ai[p]] * w->F[w->Ai[p]];
          c += wj * wj;
        }
      if (fabs (g) > *gmax)
        *gmax = fabs (g);
      if (c > *cmax)
        *cmax = c;
    }
}

/* The LM step for mu into w->dx: K = [I WJ; (WJ)^T -mu I] filled, factored and solved with the
 * right-hand side w->kb.  VM_OK with *skip = 1 when K is numerically singular (a too small mu);
 * otherwise the linear solver's failure (message set). */
static int
lm_direction (ws_t *w, double mu, vm_newton_info *inf, int iter, int *skip)
{
  int64_t p;
  int i, j, st;
  *skip = 1;
  for (p = 0; p < w->nnz; p++)
    {
      const double wj = w->wt[w->Ai[p]] * w->Jx[p];
      w->Kx[w->kposJ[p]] = wj;
      w->Kx[w->kposT[p]] = wj;
    }
  for (j = 0; j < w->n; j++)
    w->Kx[w->kposmu[j]] = -mu;
  /* K is nonsingular for mu > 0: a factorization that fails the singularity test is a
   * (numerically) too small mu */
  if ((st = vm_linsolve_factor (&w->lsK, w->Kx)) != VM_OK)
    return ls_error (inf, "factorization of the Levenberg-Marquardt system", &w->lsK, st, iter);
  if (w->lsK.singular)
    return VM_OK;
  st = vm_linsolve_solve (&w->lsK, w->kb, w->ksol);
  vm_linsolve_release (&w->lsK);
  if (st != VM_OK)
    return ls_error (inf, "solve with the Levenberg-Marquardt system", &w->lsK, st, iter);
  if (w->lsK.singular)
    return VM_OK;
  for (i = 0; i < w->n; i++)
    w->dx[i] = w->ksol[2 * i + 1];
  *skip = 0;
  return VM_OK;
}

/* The ratio of the actual to the predicted decrease of 1/2 ||F||_W^2 for the step w->dx with mu
 * (the prediction 1/2 ||W J dx||^2 + mu ||dx||^2), from f = ||F(x)||_W to ft = ||F(x + dx)||_W;
 * -1 when nothing is predicted. */
static double
lm_ratio (ws_t *w, double mu, double f, double ft)
{
  int64_t p;
  int i, j, n = w->n;
  double jdx, pred, actual;
  for (i = 0; i < n; i++)
    w->w[i] = 0.0;
  for (j = 0; j < n; j++)
    for (p = w->Ap[j]; p < w->Ap[j + 1]; p++)
      w->w[w->Ai[p]] += w->Jx[p] * w->dx[j];
  jdx = wnrm2 (n, w->wt, w->w);
  pred = 0.5 * jdx * jdx + mu * nrm2 (n, w->dx) * nrm2 (n, w->dx);
  actual = 0.5 * (f - ft) * (f + ft);
  return pred > 0.0 ? actual / pred : -1.0;
}

/* One Levenberg-Marquardt step from x (F = w->F, f = ||F||, J values w->Jx).  On success returns 0
 * with the accepted point in w->xt, F there in w->Ft, its norm in *ft and mu in *mu_used; otherwise
 * a status (message set). */
static int
lm_step (ws_t *w, vm_newton_fn Ffn, void *ctx, const double *x, double f, double *ft,
         double *mu_used, vm_newton_info *inf, int iter)
{
  const int n = w->n;
  double gmax, cmax, mu, nu = 2.0, xn;
  int i, trial, st, skip;

  if (!w->Kp && (st = lm_setup (w, inf, iter)) != VM_OK)
    return st;
  lm_gradient (w, &gmax, &cmax);
  if (!(gmax > 0.0))
    {
      setmsg (inf, "stalled at iteration %d: the gradient J^T F of ||F||^2/2 vanishes, x is a "
              "stationary point of ||F|| that is not a root (||F|| = %.3e)", iter, f);
      return VM_ENEWTON_STALL;
    }
  mu = w->mu_next > 0.0 ? w->mu_next : LM_TAU * cmax;
  if (!(mu > 0.0) || !isfinite (mu))
    mu = LM_TAU * (isfinite (cmax) && cmax > 0.0 ? cmax : 1.0);
  xn = nrminf (n, x);
  for (i = 0; i < n; i++)
    {
      w->kb[2 * i] = -w->wt[i] * w->F[i];
      w->kb[2 * i + 1] = 0.0;
    }
  for (trial = 0; trial < LM_MAX_TRIALS && isfinite (mu); trial++, mu *= nu, nu *= 2.0)
    {
      double dxn, rho;
      if ((st = lm_direction (w, mu, inf, iter, &skip)) != VM_OK)
        return st;
      if (skip)
        continue;
      dxn = nrminf (n, w->dx);
      if (!isfinite (dxn))
        continue;
      if (dxn <= DBL_EPSILON * (1.0 + xn))
        {
          setmsg (inf, "stalled at iteration %d: the Levenberg-Marquardt step (mu = %.3e) fell "
                  "below rounding without reducing ||F|| = %.3e", iter, mu, f);
          return VM_ENEWTON_STALL;
        }
      for (i = 0; i < n; i++)
        w->xt[i] = x[i] + w->dx[i];
      st = call_F (Ffn, ctx, w->xt, w->Ft, inf);
      if (st != 0)
        {
          setmsg (inf, "the residual function returned %d at iteration %d (Levenberg-Marquardt "
                  "trial point)", (int) st, iter);
          return (int) st;
        }
      *ft = wnrm2 (n, w->wt, w->Ft);
      if (!isfinite (*ft))
        continue;
      rho = lm_ratio (w, mu, f, *ft);
      if (rho > LM_RHO_MIN)
        {
          const double s = 2.0 * rho - 1.0, fac = 1.0 - s * s * s;
          *mu_used = mu;
          w->mu_next = mu * (fac > 1.0 / 3.0 ? fac : 1.0 / 3.0);
          return VM_OK;
        }
    }
  setmsg (inf, "stalled at iteration %d: no Levenberg-Marquardt step reduced ||F|| = %.3e "
          "(%d trials, last mu = %.3e)", iter, f, trial, mu);
  return VM_ENEWTON_STALL;
}

/* ---- the solver --------------------------------------------------------------------------------- */

/* The Newton direction: factor J (the values w->Jx) and solve J dx = -F.  VM_OK with *singular
 * set when J fails the backend's singularity test (linsolve.h) or dx is not finite; otherwise the
 * linear solver's failure (message set).  keep: a nonsingular factorization is held for chord
 * steps (w->held; newton.h 2'), otherwise it is released at once. */
static int
direction (ws_t *w, vm_newton_info *inf, int k, int verbose, int keep, int *singular)
{
  double t0 = wall ();
  int i, st;
  *singular = 1;
  w->held = 0;
  w->nchord = 0;
  for (i = 0; i < w->n; i++)
    w->w[i] = -w->F[i];
  st = vm_linsolve_factor_solve (&w->ls, w->Jx, w->w, w->dx);
  if (st != VM_OK)
    {
      vm_linsolve_release (&w->ls);
      return ls_error (inf, "factorization of the Jacobian and the solve with it", &w->ls, st, k);
    }
  if (verbose && k == 0)
    fprintf (stderr, "newton: linear solver %s%s (kl = %d, ku = %d): first factorization %.3f s, "
             "rcond %.3e\n", vm_linsolve_name (w->ls.kind), w->ls.lean ? " (U only)" : "",
             w->ls.kl, w->ls.ku, wall () - t0, w->ls.rcond);
  *singular = w->ls.singular || !isfinite (nrminf (w->n, w->dx));
  if (keep && (!w->ls.lean || w->ls.chol) && !*singular)   /* a U-only LU serves one solve */
    w->held = 1;
  else
    vm_linsolve_release (&w->ls);
  return VM_OK;
}

/* Drop the held factorization (UMFPACK's Numeric object) before w->Jx changes or the LM system is
 * factored. */
static void
drop_held (ws_t *w)
{
  if (w->held)
    vm_linsolve_release (&w->ls);
  w->held = 0;
}

/* An upper bound of round_level (below) that costs one pass over x instead of one over J: by
 * Cauchy-Schwarz (|J| |x|)_i <= ||J(i,:)||_2 ||x||_2, so || W |J| |x| ||_2 <= max_i w_i ||J||_F
 * ||x||_2; the factor 1.001 covers the rounding of both (relative errors of order nnz eps).  A
 * residual above it cannot pass the rounding-level test, and the pass over J is skipped. */
static double
round_bound (const ws_t *w, const double *x, const vm_newton_opts *o)
{
  double s = 0.0;
  int i;
  for (i = 0; i < w->n; i++)
    {
      const double a = fabs (x[i]) + (o->x_offset ? fabs (o->x_offset[i]) : 0.0);
      s += a * a;
    }
  return 1.001 * o->tol_round * DBL_EPSILON * w->wmax * w->jfro * sqrt (s);
}

/* jx[r0 + q] += |a[q]| ax, q < len (a column of consecutive rows: no index, vectorized) */
static void
abs_axpy (int64_t len, double ax, const double *restrict a, double *restrict jx)
{
  int64_t q;
  for (q = 0; q < len; q++)
    jx[q] += fabs (a[q]) * ax;
}

/* The rounding level of F at x (newton.h 1'), tol_round eps || W |J| |x| ||_2, with the values
 * J in w->Jx (w->jx is overwritten).  A column whose rows are consecutive (its last row minus its
 * first is its length minus 1: the rows are sorted, check_pattern) is added without reading its
 * row indices: the dual Lorenz's Hessian, every column but near a fixed node, half the bytes of
 * the pass (2.9 % of a solve at N = 2^18 before). */
static double
round_level (ws_t *w, const double *x, const vm_newton_opts *o)
{
  int64_t p;
  int i, j;
  for (i = 0; i < w->n; i++)
    w->jx[i] = 0.0;
  for (j = 0; j < w->n; j++)
    {
      const int64_t p0 = w->Ap[j], p1 = w->Ap[j + 1];
      const double ax = fabs (x[j]), ao = o->x_offset ? fabs (o->x_offset[j]) : 0.0;
      if (ao > 0.0)             /* the rows that evaluate at x + x_offset (newton.h) */
        for (p = p0; p < p1; p++)
          w->jx[w->Ai[p]] += fabs (w->Jx[p])
                             * (! o->offset_rows || o->offset_rows[w->Ai[p]] ? ax + ao : ax);
      else if (p1 > p0 && w->Ai[p1 - 1] - w->Ai[p0] == p1 - 1 - p0)
        abs_axpy (p1 - p0, ax, w->Jx + p0, w->jx + w->Ai[p0]);
      else
        for (p = p0; p < p1; p++)
          w->jx[w->Ai[p]] += fabs (w->Jx[p]) * ax;
    }
  return o->tol_round * DBL_EPSILON * wnrm2 (w->n, w->wt, w->jx);
}

/* J(x_k) into w->Jx, checked finite, then the rounding-level test (newton.h 1').  VM_OK with
 * *stop = 1: converged at the rounding level (message set); otherwise VM_OK, the callback's code
 * or VM_ENEWTON_NONFINITE (message set). */
static int
jacobian (ws_t *w, vm_newton_jac Jfn, void *ctx, const double *x, double f, double target,
          const vm_newton_opts *o, vm_newton_info *inf, int k, int *stop)
{
  double t0, rl, s2 = 0.0;
  int64_t p;
  int st;
  drop_held (w);
  if (o->jac_sumsq)
    *o->jac_sumsq = -1.0;
  t0 = wall ();
  st = Jfn (x, w->Jx, ctx);
  inf->t_jac += wall () - t0;
  inf->njev++;
  if (st != 0)
    {
      setmsg (inf, "the Jacobian function returned %d at iteration %d", st, k);
      return st;
    }
  /* not finite when an entry is not (or on overflow); the callback's, when it made it */
  s2 = o->jac_sumsq && *o->jac_sumsq != -1.0 ? *o->jac_sumsq : vm_sum_squares (w->nnz, w->Jx);
  if (!isfinite (s2))
    for (p = 0; p < w->nnz; p++)
      if (!isfinite (w->Jx[p]))
        {
          setmsg (inf, "Jacobian entry %lld not finite at iteration %d (||F|| = %.3e)",
                  (long long) p, k, f);
          return VM_ENEWTON_NONFINITE;
        }
  if (!(o->tol_round > 0.0))
    return VM_OK;
  w->jfro = sqrt (s2);
  if (f > round_bound (w, x, o))
    return VM_OK;   /* the rounding-level test cannot pass */
  rl = round_level (w, x, o);
  inf->round_level = rl;
  if (o->verbose)
    fprintf (stderr, "newton: %4d  rounding level %.3e\n", k, rl);
  if (f <= rl)
    {
      setmsg (inf, "converged at the rounding level: ||F|| = %.3e <= tol_round*eps*"
              "|| |J| |x| || = %.3e after %d iterations (tol_res*scale = %.3e)", f, rl, k, target);
      *stop = 1;
    }
  return VM_OK;
}

/* One iteration's step (the helpers below fill it). */
typedef struct
{
  int accepted;   /* a step to w->xt was accepted (F there in w->Ft, its norm ft) */
  int kind;       /* VM_NEWTON_FULL, _DAMPED, _LM or _CHORD */
  int step_conv;  /* the step test passed: converged after this step */
  int stop;       /* converged at x_k (message set) */
  double t, ft;   /* line-search factor (LM: mu) and ||F(xt)||_W */
} step_t;

/* The trial point x + t dx into w->xt, F there into w->Ft and its norm into *ft; the callback's
 * code. */
static int
trial (ws_t *w, vm_newton_fn Ffn, void *ctx, const double *x, double t, vm_newton_info *inf,
       double *ft)
{
  int i, st;
  for (i = 0; i < w->n; i++)
    w->xt[i] = x[i] + t * w->dx[i];
  st = call_F (Ffn, ctx, w->xt, w->Ft, inf);
  *ft = st == 0 ? wnrm2 (w->n, w->wt, w->Ft) : NAN;
  return st;
}

/* The premise of the step test (newton.h 5) for the correction w->dx at x_k (||dx||_inf = dxn):
 * small, and at most half the previous step, which was a full step (Newton or chord). */
static int
step_small (const ws_t *w, const vm_newton_opts *o, const vm_newton_info *inf, int k,
            const double *x, double dxn)
{
  int kp;
  if (!(o->tol_step > 0.0) || k == 0)
    return 0;
  kp = inf->kind_hist[k];
  return (kp == VM_NEWTON_FULL || kp == VM_NEWTON_CHORD)
         && dxn <= o->tol_step * (o->step_scale + nrminf (w->n, x))
         && dxn <= 0.5 * inf->step_hist[k];
}

/* The step test passed for the full step to w->xt (s->ft evaluated): taken when it does not
 * increase ||F|| (s->step_conv), otherwise x_k is returned (s->stop, message set). */
static void
step_converged (vm_newton_info *inf, int k, double f, double dxn, const char *what, step_t *s)
{
  if (!(s->ft <= f))
    {
      setmsg (inf, "converged: %s correction %.3e <= tol_step*(step_scale + ||x||_inf) and "
              "contracting (previous step %.3e) after %d iterations; not applied since it does "
              "not reduce ||F|| = %.3e (rounding level)", what, dxn, inf->step_hist[k], k, f);
      s->stop = 1;
      return;
    }
  s->step_conv = 1;
  s->accepted = 1;
}

/* The non-monotone test of the full Newton step (newton.h 3): far from the residual test's
 * bound, a full step to ||F||_W = ft <= nonmonotone fbest is taken although it fails Armijo's
 * test, at most nonmonotone_max times in a row without a new best residual.  Updates the count. */
static int
relaxed (ws_t *w, const vm_newton_opts *o, vm_newton_info *inf, double f, double ft)
{
  if (!(o->nonmonotone > 1.0) || w->relax_off || !isfinite (ft)
      || !(f > NONMONOTONE_FAR * w->target))
    return 0;
  if (ft <= sqrt (1.0 - 2.0 * ARMIJO_C) * w->fbest)
    return 1;   /* a new best by Armijo's margin (accept_step ends the sequence) */
  if (ft > o->nonmonotone * w->fbest || w->nrelax >= o->nonmonotone_max)
    return 0;
  w->relaxed_step = 1;
  inf->nrelaxed++;
  return 1;
}

/* The Newton step from x_k along w->dx (J nonsingular): full (no line search, or when the step
 * test's premise holds) or by backtracking.  VM_OK with s->accepted or not (the line search
 * failed), or s->stop; otherwise a callback's code or VM_ENEWTON_NONFINITE (message set). */
static int
newton_step (ws_t *w, vm_newton_fn Ffn, void *ctx, const double *x, double f,
             const vm_newton_opts *o, vm_newton_info *inf, int k, step_t *s)
{
  const double dxn = nrminf (w->n, w->dx);
  const int small = step_small (w, o, inf, k, x, dxn);
  int st;
  if (!o->line_search || small)
    {
      if ((st = trial (w, Ffn, ctx, x, 1.0, inf, &s->ft)) != 0)
        {
          setmsg (inf, "the residual function returned %d at iteration %d", st, k);
          return st;
        }
      if (small)
        step_converged (inf, k, f, dxn, "Newton", s);
      else if (!isfinite (s->ft))
        {
          setmsg (inf, "non-finite residual after the Newton step of iteration %d (no line "
                  "search): best ||F|| = %.3e (iteration %d)", k, w->fbest, w->kbest);
          return VM_ENEWTON_NONFINITE;
        }
      else
        s->accepted = 1;
      return VM_OK;
    }
  for (s->t = 1.0; s->t >= T_MIN; s->t *= 0.5)
    {
      if ((st = trial (w, Ffn, ctx, x, s->t, inf, &s->ft)) != 0)
        {
          setmsg (inf, "the residual function returned %d at iteration %d (line search)", st, k);
          return st;
        }
      if ((isfinite (s->ft) && s->ft <= sqrt (1.0 - 2.0 * ARMIJO_C * s->t) * f)
          || (s->t == 1.0 && relaxed (w, o, inf, f, s->ft)))
        {
          s->accepted = 1;
          break;
        }
    }
  s->kind = s->t == 1.0 ? VM_NEWTON_FULL : VM_NEWTON_DAMPED;
  return VM_OK;
}

/* 1'' (newton.h): at most this fraction of the rounding level estimated with the held J(x_m)
 * ends the solve without J(x_k) */
#define ROUND_HELD 0.5

/* The chord phase at x_k (newton.h 2', 1''): a factorization of J(x_m) is held (tol_round > 0)
 * and the step to x_k was a full (Newton or chord) step that contracted by reuse_theta.  Then
 * ||F(x_k)||_W above the rounding level estimated with J(x_m) allows a chord step while the
 * factorization has served fewer than reuse of them (returns 1); at or below ROUND_HELD times it
 * x_k is converged (returns 2, message and round_level set); otherwise 0: J(x_k) is evaluated. */
static int
chord_phase (ws_t *w, const double *x, const vm_newton_opts *o, vm_newton_info *inf, int k)
{
  const double f = inf->res_hist[k];
  double rl;
  int kp;
  if (!(o->tol_round > 0.0) || !w->held || k == 0)
    return 0;
  kp = inf->kind_hist[k];
  if (!((kp == VM_NEWTON_FULL || kp == VM_NEWTON_CHORD) && f <= o->reuse_theta * inf->res_hist[k - 1]))
    return 0;
  if (f > round_bound (w, x, o) || f > (rl = round_level (w, x, o)))
    return w->nchord < o->reuse;
  if (!(f <= ROUND_HELD * rl))
    return 0;
  inf->round_level = rl;
  if (o->verbose)
    fprintf (stderr, "newton: %4d  rounding level %.3e (the held factorization's J)\n", k, rl);
  setmsg (inf, "converged at the rounding level: ||F|| = %.3e <= %g tol_round*eps*|| |J| |x| || "
          "= %.3e (J of the held factorization) after %d iterations (tol_res*scale = %.3e)", f,
          ROUND_HELD, ROUND_HELD * rl, k, w->target);
  return 2;
}

/* The chord step from x_k (newton.h 2'): dx = -J(x_m)^{-1} F(x_k) with the held factorization,
 * taken in full when ||F(x_k + dx)||_W <= reuse_theta ||F(x_k)||_W or when the step test passes
 * (s->step_conv or s->stop, as for a Newton step).  Otherwise (also for a non-finite dx) rejected:
 * VM_OK with s->accepted = 0, and the caller evaluates and factors J(x_k).  Another status: a
 * callback's code or the linear solver's failure (message set). */
static int
chord_step (ws_t *w, vm_newton_fn Ffn, void *ctx, const double *x, double f,
            const vm_newton_opts *o, vm_newton_info *inf, int k, step_t *s)
{
  double dxn;
  int i, st;
  for (i = 0; i < w->n; i++)
    w->w[i] = -w->F[i];
  if ((st = vm_linsolve_solve (&w->ls, w->w, w->dx)) != VM_OK)
    return ls_error (inf, "chord solve with the held factorization", &w->ls, st, k);
  w->nchord++;
  dxn = nrminf (w->n, w->dx);
  if (!w->ls.singular && isfinite (dxn))
    {
      const int small = step_small (w, o, inf, k, x, dxn);
      if ((st = trial (w, Ffn, ctx, x, 1.0, inf, &s->ft)) != 0)
        {
          setmsg (inf, "the residual function returned %d at iteration %d (chord step)", st, k);
          return st;
        }
      if (small)
        step_converged (inf, k, f, dxn, "chord", s);
      else if (isfinite (s->ft) && s->ft <= o->reuse_theta * f)
        s->accepted = 1;
      if (s->accepted)
        {
          s->kind = VM_NEWTON_CHORD;
          inf->nreuse_factor++;
        }
      if (s->accepted || s->stop)
        return VM_OK;
    }
  inf->nreuse_reject++;
  return VM_OK;
}

/* No Newton step at x_k (J singular or the line search failed): the Levenberg-Marquardt step
 * (s->accepted, kind _LM, mu in s->t), or without the fallback the final status (message set). */
static int
fallback (ws_t *w, vm_newton_fn Ffn, void *ctx, const double *x, double f, int singular,
          const vm_newton_opts *o, vm_newton_info *inf, int k, step_t *s)
{
  int st;
  if (!o->lm_fallback)
    {
      if (singular)
        {
          setmsg (inf, "singular Jacobian at iteration %d (%s rcond %.3e) and the "
                  "Levenberg-Marquardt fallback disabled: best ||F|| = %.3e (iteration %d)", k,
                  vm_linsolve_name (w->ls.kind), w->ls.rcond, w->fbest, w->kbest);
          return VM_ENEWTON_SINGULAR;
        }
      setmsg (inf, "line search failed at iteration %d (no sufficient decrease down to t = %.0e) "
              "and the Levenberg-Marquardt fallback disabled: best ||F|| = %.3e (iteration %d)",
              k, T_MIN, w->fbest, w->kbest);
      return VM_ENEWTON_STALL;
    }
  drop_held (w);
  if ((st = lm_step (w, Ffn, ctx, x, f, &s->ft, &s->t, inf, k)) != VM_OK)
    return st;
  s->accepted = 1;
  s->kind = VM_NEWTON_LM;
  inf->nlm++;
  return VM_OK;
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

const char *
vm_newton_kind_name (int kind)
{
  static const char *names[] = { "start", "newton", "damped", "lm", "chord" };
  return kind >= VM_NEWTON_START && kind <= VM_NEWTON_CHORD ? names[kind] : "?";
}

/* Take x_{k+1} = w->xt (F there in w->Ft): the histories, the best iterate, the progress output. */
static void
accept_step (ws_t *w, double *x, const step_t *s, const vm_newton_opts *o, vm_newton_info *inf,
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
ws_setup (ws_t *w, int n, const int64_t *colptr, const int64_t *rowind, const vm_newton_opts *o,
          vm_newton_info *inf)
{
  const size_t nh = (size_t) o->max_iter + 1;
  int i, st;
  w->n = n;
  w->nnz = colptr[n];
  w->Ap = colptr;
  w->Ai = rowind;
  /* the largest work array (nnz values; 0.55 GB for the disk at N = 2^20), kept for the next
   * solve up to VM_SCRATCH_KEEP, in huge pages from 2 MB on (vm_scratch.h): every pass over it
   * (the Jacobian's sums, the band's fill, the sum of squares) streams through it, and in 4 kB
   * pages the hardware prefetch stops at each page (at N = 2^20 the dual Lorenz's 0.68 GB: Newton
   * 0.70-0.82 -> 0.65-0.68 s per iteration; the disk's 0.55 GB: skg_limit 8.3-10.0 -> 6.9-7.4 s
   * end to end, bench/README_dual.md, "The physical limit") */
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
      setmsg (inf, "out of memory for the work arrays (n = %d, nnz = %lld)", n,
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
    setmsg (inf, "setting up the linear solver (%s): %s", vm_linsolve_name (w->ls.kind),
            w->ls.message);
  return st;
}

/* One step from x_k: a chord step when allowed and accepted, otherwise J(x_k), its factorization
 * and the Newton step, or the LM fallback.  VM_OK with s->accepted, or s->stop (converged at
 * x_k); another status ends the solve (message set). */
static int
one_step (ws_t *w, vm_newton_fn Ffn, vm_newton_jac Jfn, void *ctx, const double *x, double f,
          double target, const vm_newton_opts *o, vm_newton_info *inf, int k, step_t *s)
{
  const int phase = chord_phase (w, x, o, inf, k);
  int singular = 1, st;
  if (phase == 2)
    {
      s->stop = 1;
      return VM_OK;
    }
  if (phase == 1
      && ((st = chord_step (w, Ffn, ctx, x, f, o, inf, k, s)) != VM_OK || s->accepted || s->stop))
    return st;
  if ((st = jacobian (w, Jfn, ctx, x, f, target, o, inf, k, &s->stop)) != VM_OK || s->stop)
    return st;
  if ((st = direction (w, inf, k, o->verbose, o->reuse > 0, &singular)) != VM_OK)
    return st;
  if (!singular && ((st = newton_step (w, Ffn, ctx, x, f, o, inf, k, s)) != VM_OK
                    || s->accepted || s->stop))
    return st;
  return fallback (w, Ffn, ctx, x, f, singular, o, inf, k, s);
}

/* F(x0) (the caller's o->F0, or a call of F), the histories' first entry, the scale and target
 * of the residual test (w->target, inf->res_scale).  VM_OK with *f = ||F(x0)||_W; otherwise the
 * callback's code or VM_ENEWTON_NONFINITE (message set). */
static int
start (ws_t *w, vm_newton_fn Ffn, void *ctx, const double *x, const vm_newton_opts *o,
       vm_newton_info *inf, double *f)
{
  int st, n = w->n;
  double scale;
  if (o->F0)
    {
      memcpy (w->F, o->F0, (size_t) n * sizeof *w->F);
      st = 0;
    }
  else
    {
      st = call_F (Ffn, ctx, x, w->F, inf);
    }
  if (st != 0)
    {
      setmsg (inf, "the residual function returned %d at the initial guess", st);
      return st;
    }
  *f = wnrm2 (n, w->wt, w->F);
  inf->res_hist[0] = *f;
  inf->step_hist[0] = 0.0;
  inf->lambda_hist[0] = 0.0;
  inf->kind_hist[0] = VM_NEWTON_START;
  inf->nhist = 1;
  inf->final_res = *f;
  if (!isfinite (*f))
    {
      setmsg (inf, "the residual at the initial guess is not finite");
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
finished (ws_t *w, const vm_newton_opts *o, vm_newton_info *inf, int k, double f, int step_conv,
          int *status)
{
  *status = VM_OK;
  if (f <= w->target)
    setmsg (inf, "converged: ||F|| = %.3e <= tol_res*scale = %.3e after %d iterations", f,
            w->target, k);
  else if (step_conv)
    setmsg (inf, "converged: %s correction %.3e <= tol_step*(step_scale + ||x||_inf) and "
            "contracting (previous step %.3e) after %d iterations (||F|| = %.3e)",
            inf->kind_hist[k] == VM_NEWTON_CHORD ? "chord" : "Newton", inf->step_hist[k],
            inf->step_hist[k - 1], k, f);
  else if (k >= o->max_iter)
    {
      *status = VM_ENEWTON_MAXIT;
      setmsg (inf, "no convergence in %d iterations: best ||F|| = %.3e (iteration %d), "
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
watchdog (ws_t *w, vm_newton_fn Ffn, void *ctx, double *x, vm_newton_info *inf, double *f)
{
  int st;
  memcpy (x, w->xbest, (size_t) w->n * sizeof *x);
  w->nrelax = 0;
  w->relax_off = 1;
  drop_held (w);
  st = call_F (Ffn, ctx, x, w->F, inf);
  if (st != 0)
    {
      setmsg (inf, "the residual function returned %d at the best iterate (iteration %d)", st,
              w->kbest);
      return st;
    }
  *f = w->fbest;
  inf->nwatchdog++;
  return VM_OK;
}

/* The end of a solve that started: x <- xbest, final_res the smallest residual of the history. */
static void
finish (ws_t *w, double *x, vm_newton_info *inf)
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
vm_newton_solve (int n, const int64_t *colptr, const int64_t *rowind, vm_newton_fn Ffn,
                 vm_newton_jac Jfn, void *ctx, double *x, const vm_newton_opts *o,
                 vm_newton_info *info)
{
  vm_newton_info local;
  vm_newton_info *inf = info ? info : &local;
  vm_newton_opts defaults;
  ws_t ws, *w = &ws;
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
  status = check_args (n, colptr, rowind, Ffn, Jfn, x, o, inf);
  if (status != VM_OK)
    goto done;
  status = ws_setup (w, n, colptr, rowind, o, inf);
  if (status != VM_OK)
    goto done;
  memcpy (w->xbest, x, (size_t) n * sizeof *x);
  started = 1;
  status = start (w, Ffn, ctx, x, o, inf, &f);
  if (status != VM_OK)
    goto done;

  while (!finished (w, o, inf, k, f, step_conv, &status))
    {
      step_t s = { 0, VM_NEWTON_FULL, 0, 0, 1.0, NAN };
      if (w->nrelax >= o->nonmonotone_max && w->kbest < k
          && (status = watchdog (w, Ffn, ctx, x, inf, &f)) != VM_OK)
        break;
      status = one_step (w, Ffn, Jfn, ctx, x, f, w->target, o, inf, k, &s);
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
