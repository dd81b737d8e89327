/* newton_lm.c -- the Levenberg-Marquardt fallback of the Newton solver (newton.h step 4): the
 * augmented system [I WJ; (WJ)^T -mu I] (pattern built at the first fallback of a solve), its
 * factorization for each mu, Nielsen's update of mu.
 *
 * Errors: VM_ENEWTON_STALL (no descent possible or 40 trials), VM_ENOMEM, the linear solver's or a
 * callback's status (message set).  Cost per trial: one factorization and solve of order 2n with
 * 2 nnz(J) + 2n entries and one residual.  Why the augmented system: it is nonsingular for every
 * mu > 0 and never squares J's condition number, as J^T J would. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "newton/newton_impl.h"
#include "base/vm_status.h"

/* Build the pattern of K = [I J; J^T -mu I] in the interleaved order (r_i is unknown and equation
 * 2i, dx_j is 2j+1; rows sorted within columns), with the identity's values, and the maps from the
 * entries of J and from mu to their places in K.  Column 2i holds row 2i and the rows 2j+1 of the
 * entries J(i, j) of row i of J; column 2j+1 the rows 2i of column j of J and row 2j+1.  K's
 * bandwidths are at most 2 max (kl, ku) + 1 for those of J. */
static int
build_aug (newton_mem *w)
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
lm_setup (newton_mem *w, vm_newton_info *inf, int iter)
{
  vm_linsolve_opts ko = w->lo;
  int st;
  ko.cache = NULL;
  ko.block = 0;   /* the interleaved LM system is not node-major in J's blocks */
  ko.definite = 0;   /* nor symmetric */
  ko.definite_scale = NULL;
  if (build_aug (w) != VM_OK)
    {
      newton_msg (inf, "out of memory for the Levenberg-Marquardt system at iteration %d", iter);
      return VM_ENOMEM;
    }
  st = vm_linsolve_init (&w->lsK, 2 * w->n, w->Kp, w->Ki, &ko);
  inf->linsolve_lm = w->lsK.kind;
  if (st != VM_OK)
    return newton_ls_error (inf, "setting up the Levenberg-Marquardt system", &w->lsK, st, iter);
  return VM_OK;
}

/* max_j |(J^T W^2 F)_j|, the gradient of 1/2 ||F||_W^2, into *gmax, and the largest squared column
 * norm of W J into *cmax. */
static void
lm_gradient (const newton_mem *w, double *gmax, double *cmax)
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
lm_direction (newton_mem *w, double mu, vm_newton_info *inf, int iter, int *skip)
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
    return newton_ls_error (inf, "factorization of the Levenberg-Marquardt system", &w->lsK, st, iter);
  if (w->lsK.singular)
    return VM_OK;
  st = vm_linsolve_solve (&w->lsK, w->kb, w->ksol);
  vm_linsolve_release (&w->lsK);
  if (st != VM_OK)
    return newton_ls_error (inf, "solve with the Levenberg-Marquardt system", &w->lsK, st, iter);
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
lm_ratio (newton_mem *w, double mu, double f, double ft)
{
  int64_t p;
  int i, j, n = w->n;
  double jdx, pred, actual;
  for (i = 0; i < n; i++)
    w->w[i] = 0.0;
  for (j = 0; j < n; j++)
    for (p = w->Ap[j]; p < w->Ap[j + 1]; p++)
      w->w[w->Ai[p]] += w->Jx[p] * w->dx[j];
  jdx = newton_wnrm2 (n, w->wt, w->w);
  pred = 0.5 * jdx * jdx + mu * newton_nrm2 (n, w->dx) * newton_nrm2 (n, w->dx);
  actual = 0.5 * (f - ft) * (f + ft);
  return pred > 0.0 ? actual / pred : -1.0;
}

/* One Levenberg-Marquardt step from x (F = w->F, f = ||F||, J values w->Jx).  On success returns 0
 * with the accepted point in w->xt, F there in w->Ft, its norm in *ft and mu in *mu_used; otherwise
 * a status (message set). */
static int
lm_step (newton_mem *w, const double *x, double f, double *ft, double *mu_used, int iter)
{
  vm_newton_info *inf = w->inf;
  const int n = w->n;
  double gmax, cmax, mu, nu = 2.0, xn;
  int i, trial, st, skip;

  if (!w->Kp && (st = lm_setup (w, inf, iter)) != VM_OK)
    return st;
  lm_gradient (w, &gmax, &cmax);
  if (!(gmax > 0.0))
    {
      newton_msg (inf, "stalled at iteration %d: the gradient J^T F of ||F||^2/2 vanishes, x is a "
              "stationary point of ||F|| that is not a root (||F|| = %.3e)", iter, f);
      return VM_ENEWTON_STALL;
    }
  mu = w->mu_next > 0.0 ? w->mu_next : LM_TAU * cmax;
  if (!(mu > 0.0) || !isfinite (mu))
    mu = LM_TAU * (isfinite (cmax) && cmax > 0.0 ? cmax : 1.0);
  xn = newton_nrminf (n, x);
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
      dxn = newton_nrminf (n, w->dx);
      if (!isfinite (dxn))
        continue;
      if (dxn <= DBL_EPSILON * (1.0 + xn))
        {
          newton_msg (inf, "stalled at iteration %d: the Levenberg-Marquardt step (mu = %.3e) fell "
                  "below rounding without reducing ||F|| = %.3e", iter, mu, f);
          return VM_ENEWTON_STALL;
        }
      for (i = 0; i < n; i++)
        w->xt[i] = x[i] + w->dx[i];
      st = newton_call_F (w, w->xt, w->Ft);
      if (st != 0)
        {
          newton_msg (inf, "the residual function returned %d at iteration %d (Levenberg-Marquardt "
                  "trial point)", (int) st, iter);
          return (int) st;
        }
      *ft = newton_wnrm2 (n, w->wt, w->Ft);
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
  newton_msg (inf, "stalled at iteration %d: no Levenberg-Marquardt step reduced ||F|| = %.3e "
          "(%d trials, last mu = %.3e)", iter, f, trial, mu);
  return VM_ENEWTON_STALL;
}

/* No Newton step at x_k (J singular or the line search failed): the Levenberg-Marquardt step
 * (s->accepted, kind _LM, mu in s->t), or without the fallback the final status (message set). */
int
newton_fallback (newton_mem *w, const double *x, double f, int singular, int k, newton_step_t *s)
{
  const vm_newton_opts *o = w->o;
  vm_newton_info *inf = w->inf;
  int st;
  if (!o->lm_fallback)
    {
      if (singular)
        {
          newton_msg (inf, "singular Jacobian at iteration %d (%s rcond %.3e) and the "
                  "Levenberg-Marquardt fallback disabled: best ||F|| = %.3e (iteration %d)", k,
                  vm_linsolve_name (w->ls.kind), w->ls.rcond, w->fbest, w->kbest);
          return VM_ENEWTON_SINGULAR;
        }
      newton_msg (inf, "line search failed at iteration %d (no sufficient decrease down to t = %.0e) "
              "and the Levenberg-Marquardt fallback disabled: best ||F|| = %.3e (iteration %d)",
              k, T_MIN, w->fbest, w->kbest);
      return VM_ENEWTON_STALL;
    }
  newton_drop_held (w);
  if ((st = lm_step (w, x, f, &s->ft, &s->t, k)) != VM_OK)
    return st;
  s->accepted = 1;
  s->kind = VM_NEWTON_LM;
  inf->nlm++;
  return VM_OK;
}

