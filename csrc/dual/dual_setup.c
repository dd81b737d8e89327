/* dual_setup.c -- set-up, move and release of the discrete dual action (dual.h).
 *
 * vm_dual_init takes the problem (dimensions, order, weights, node function) and the interval's
 * data; it builds the grid, the SBP operator in compressed rows and, once, the Hessian's pattern
 * (dual_pattern.c).  vm_dual_move puts the same discretization on another interval.  Errors: see
 * dual.h.  Cost: O(N nnz(Dm row)) for the operator, O(nnz) for the pattern.  Why the pattern is
 * kept across moves: it depends on N, the order and the mode only, and it is the costly part.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vm_scratch.h"
#include "base/vm_status.h"
#include "dual/dual_impl.h"

int64_t
vm_dual_index (const vm_dual *d, int64_t k, int i)
{
  return dual_index (d, k, i);
}

/* The grid, the weights and Dm (compressed rows) on [t0, tf]; dvs = Dm_s, the operator of the
 * action's Ddot_d (Dm, or Dm - H^{-1} e_N e_N' in the weak final mode).  The pattern (dp, dj) is
 * the same for every interval; dp, dj, dv, dvs, hw and t are allocated by the caller. */
static int
set_operator (vm_dual *d, double t0, double tf)
{
  int64_t N = d->N, nnzd, *cp, *ri, *next, k, p, j;
  double *val;
  int st;
  if ((st = vm_sbp_init (&d->op, d->order, N, t0, tf)) != VM_OK)
    return st;
  d->t0 = t0;
  d->tf = tf;
  nnzd = vm_sbp_nnz (&d->op);
  cp = vm_scratch_alloc ((size_t) (N + 1) * sizeof *cp);
  ri = vm_scratch_alloc ((size_t) nnzd * sizeof *ri);
  val = vm_scratch_alloc ((size_t) nnzd * sizeof *val);
  next = vm_scratch_alloc ((size_t) N * sizeof *next);
  st = VM_ENOMEM;
  if (! cp || ! ri || ! val || ! next)
    goto done;
  vm_sbp_weights (&d->op, d->hw);
  for (k = 0; k < N; k++)
    d->t[k] = k == N - 1 ? tf : t0 + (double) k * d->op.h;
  /* Dm: CSC -> compressed rows */
  vm_sbp_csc (&d->op, 1, cp, ri, val);
  memset (d->dp, 0, (size_t) (N + 1) * sizeof *d->dp);
  for (p = 0; p < nnzd; p++)
    d->dp[ri[p] + 1]++;
  for (k = 0; k < N; k++)
    d->dp[k + 1] += d->dp[k];
  memcpy (next, d->dp, (size_t) N * sizeof *next);
  for (j = 0; j < N; j++)
    for (p = cp[j]; p < cp[j + 1]; p++)
      {
        int64_t q = next[ri[p]]++;
        d->dj[q] = j;
        d->dv[q] = val[p];
      }
  memcpy (d->dvs, d->dv, (size_t) nnzd * sizeof *d->dvs);
  st = VM_OK;
  if (d->weak)
    {
      st = VM_EARG;   /* Dm's last row holds its diagonal entry (Q_NN = 1/2) */
      for (p = d->dp[N - 1]; p < d->dp[N]; p++)
        if (d->dj[p] == N - 1)
          {
            d->dvs[p] -= 1.0 / d->hw[N - 1];
            st = VM_OK;
          }
    }
done:
  vm_scratch_free (cp);
  vm_scratch_free (ri);
  vm_scratch_free (val);
  vm_scratch_free (next);
  return st;
}

int
vm_dual_move (vm_dual *d, double t0, double tf, const double *y0, const double *ybar)
{
  int st;
  if (! d || ! d->hw || ! y0 || ! (tf > t0) || ! isfinite (t0) || ! isfinite (tf))
    return VM_EARG;
  if ((st = set_operator (d, t0, tf)) != VM_OK)
    return st;
  memcpy (d->y0, y0, (size_t) d->nd * sizeof *y0);
  if (ybar)
    memcpy (d->ybar, ybar, (size_t) d->N * d->ny * sizeof *ybar);
  d->have_y = 0;
  return VM_OK;
}

double
vm_dual_memory_estimate (int nd, int ng, int64_t N, int order, int linsolve)
{
  const double u = (double) nd + (double) ng, kl = 1.5 * order * u;
  const double umf = 2.5 * (750.0 + 878.0 * u * u), band = 1.1 * (750.0 + u * (660.0 + 224.0 * kl));
  return vm_linsolve_memory_model (linsolve, u, umf, band) * (double) N;
}

int
vm_dual_init (vm_dual *d, const vm_dual_problem *pb, double t0, double tf, const double *ybar,
              const double *y0, const double *DT, int flags)
{
  int st, i, ny, nd, ng;
  int64_t nnzd, N;
  const double *c;
  if (! d)
    return VM_EARG;
  memset (d, 0, sizeof *d);
  if (! pb)
    return VM_EARG;
  ny = pb->ny;
  nd = pb->nd;
  ng = pb->ng;
  N = pb->N;
  c = pb->c;
  if (ny < 1 || nd < 1 || nd > ny || ng < 0 || ! c || ! y0 || ! pb->fn
      || (flags & ~VM_DUAL_WEAK_FINAL) != 0)
    return VM_EARG;
  for (i = 0; i < ny; i++)
    if (! (c[i] > 0.0) || ! isfinite (c[i]))
      return VM_EARG;
  if ((st = vm_sbp_init (&d->op, pb->order, N, t0, tf)) != VM_OK)
    return st;
  d->ny = ny;
  d->nd = nd;
  d->ng = ng;
  d->m = nd + ng;
  d->nl = 2 * nd + ng;
  d->N = N;
  d->weak = (flags & VM_DUAL_WEAK_FINAL) != 0;
  d->nz = d->weak ? N * d->m : N * d->m - nd;
  d->order = pb->order;
  d->fn = pb->fn;
  d->ctx = pb->ctx;
  st = VM_ENOMEM;
  d->hw = vm_scratch_alloc ((size_t) N * sizeof *d->hw);
  d->t = vm_scratch_alloc ((size_t) N * sizeof *d->t);
  d->ybar = vm_scratch_alloc ((size_t) N * ny * sizeof *d->ybar);
  d->c = malloc ((size_t) ny * sizeof *d->c);
  d->y0 = malloc ((size_t) nd * sizeof *d->y0);
  d->DT = calloc ((size_t) nd, sizeof *d->DT);
  d->y = vm_scratch_alloc ((size_t) N * ny * sizeof *d->y);
  d->u = vm_scratch_alloc ((size_t) N * d->nl * sizeof *d->u);
  d->val = vm_scratch_alloc ((size_t) N * sizeof *d->val);
  d->grad = vm_scratch_alloc ((size_t) N * d->nl * sizeof *d->grad);
  d->hess = malloc ((size_t) (N < VM_DUAL_HESS_CHUNK ? N : VM_DUAL_HESS_CHUNK) * d->nl * d->nl
                   * sizeof *d->hess);
  d->Dfull = vm_scratch_alloc ((size_t) N * d->m * sizeof *d->Dfull);
  nnzd = vm_sbp_nnz (&d->op);
  d->dp = vm_scratch_alloc (((size_t) N + 1) * sizeof *d->dp);   /* set by set_operator */
  d->dj = vm_scratch_alloc ((size_t) nnzd * sizeof *d->dj);
  d->dv = vm_scratch_alloc ((size_t) nnzd * sizeof *d->dv);
  d->dvs = vm_scratch_alloc ((size_t) nnzd * sizeof *d->dvs);
  if (! d->hw || ! d->t || ! d->ybar || ! d->c || ! d->y0 || ! d->DT || ! d->y || ! d->u
      || ! d->val || ! d->grad || ! d->hess || ! d->Dfull || ! d->dp || ! d->dj || ! d->dv
      || ! d->dvs)
    goto fail;
  memcpy (d->c, c, (size_t) ny * sizeof *c);
  memcpy (d->y0, y0, (size_t) nd * sizeof *y0);
  if (DT)
    memcpy (d->DT, DT, (size_t) nd * sizeof *DT);
  if (ybar)
    memcpy (d->ybar, ybar, (size_t) N * ny * sizeof *ybar);
  else
    memset (d->ybar, 0, (size_t) N * ny * sizeof *d->ybar);
  if ((st = set_operator (d, t0, tf)) != VM_OK)
    goto fail;
  if ((st = vm_dual_build_pattern (d)) != VM_OK)
    goto fail;
  return VM_OK;
fail:
  vm_dual_free (d);
  return st;
}

void
vm_dual_free (vm_dual *d)
{
  if (! d)
    return;
  /* the arrays of N or more entries came from vm_scratch.h: kept for the next discretization */
  vm_scratch_free (d->hw);
  vm_scratch_free (d->t);
  vm_scratch_free (d->dp);
  vm_scratch_free (d->dj);
  vm_scratch_free (d->dv);
  vm_scratch_free (d->dvs);
  vm_scratch_free (d->ybar);
  free (d->c);
  free (d->y0);
  free (d->DT);
  vm_scratch_free (d->colptr);
  vm_scratch_free (d->rowind);
  vm_scratch_free (d->rowbase);
  free (d->upper_run);
  vm_scratch_free (d->bp);
  vm_scratch_free (d->boff);
  free (d->regular);
  vm_scratch_free (d->sup_p);
  vm_scratch_free (d->sup);
  vm_scratch_free (d->kpos);
  vm_scratch_free (d->dpos);
  vm_scratch_free (d->y);
  vm_scratch_free (d->u);
  vm_scratch_free (d->val);
  vm_scratch_free (d->grad);
  free (d->hess);
  vm_scratch_free (d->Dfull);
  memset (d, 0, sizeof *d);
}
