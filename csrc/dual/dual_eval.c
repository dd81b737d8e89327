/* dual_eval.c -- the discrete dual action S, its gradient and the recovered primal (dual.h).
 *
 * vm_dual_eval takes the unknowns z; it forms every node's inputs u = (Ddot_d, D_d, D_a) through
 * the operator, calls the node function (with the Hessian: dual_hessian.c), and returns S, grad S
 * and the Hessian values, leaving y^H in the struct.  vm_dual_primal reads the primal residuals,
 * G and the dual Hamiltonian from that state.  Errors: VM_EARG (NULL z), the node function's
 * (d->bad).  Cost: O(N nnz(Dm row) m) besides the node function.  Why the gradient by the chain
 * rule through Dm, node by node: each node's gradient is used once, while it is in the cache.
 */
#include <string.h>

#include "base/vm_status.h"
#include "dual/dual_impl.h"

/* The point inputs d->u (N x nl) from z: at node k, (Ddot_d D)_k (the SAT's data DT at the last
 * node in the weak mode) and D_k itself (d->Dfull, the full duals with the fixed DT). */
static void
eval_inputs (vm_dual *d, const double *z)
{
  const int64_t N = d->N;
  const int nd = d->nd, m = d->m, nl = d->nl;
  const int64_t nfree = d->weak ? N : N - 1;   /* nodes whose m duals are all unknowns */
  int64_t k, p;
  int i;
  /* D with the fixed values: z as it is up to the last node (dual.h: the unknowns' layout), whose
   * D_d is DT in the strong mode */
  memcpy (d->Dfull, z, (size_t) (nfree * m) * sizeof *z);
  for (k = nfree; k < N; k++)
    for (i = 0; i < m; i++)
      {
        int64_t g = dual_index (d, k, i);
        d->Dfull[k * m + i] = g < 0 ? d->DT[i] : z[g];
      }
  for (k = 0; k < N; k++)
    {
      double *u = d->u + k * nl;
      for (i = 0; i < nd; i++)
        {
          double acc = 0.0;
          for (p = d->dp[k]; p < d->dp[k + 1]; p++)
            acc += d->dvs[p] * d->Dfull[d->dj[p] * m + i];
          if (d->weak && k == N - 1)   /* the SAT's data: + H^{-1} e_N DT */
            acc += d->DT[i] / d->hw[N - 1];
          u[i] = acc;
        }
      for (i = 0; i < m; i++)
        u[nd + i] = d->Dfull[k * m + i];
    }
}

/* Node k's terms of grad S: w_k times the point gradient's D_d part at (k, i) and its Ddot_d
 * part through Dm's row k, one component at a time (with dual_index: any node) */
static void
gradient_node (const vm_dual *d, int64_t k, double *grad)
{
  const int nd = d->nd;
  const double *g = d->grad + k * d->nl, w = d->hw[k];
  int64_t p;
  int i;
  for (i = 0; i < nd; i++)
    {
      int64_t gi = dual_index (d, k, i);
      if (gi >= 0)
        grad[gi] += w * g[nd + i];
      for (p = d->dp[k]; p < d->dp[k + 1]; p++)
        {
          int64_t gj = dual_index (d, d->dj[p], i);
          if (gj >= 0)
            grad[gj] += w * g[i] * d->dvs[p];
        }
    }
}

/* gradient_node for a node with all its unknowns at k m + i (below the strong mode's last
 * node), nd a constant (inlined: the loops over i unrolled): the D_d terms, then each entry of
 * row k for all components -- every sum gets its terms in the same order as in gradient_node */
static VM_ALWAYS_INLINE void
gradient_node_nd (const vm_dual *d, int64_t k, int64_t last, double *restrict grad, const int nd)
{
  const int m = d->m;
  const double *g = d->grad + k * d->nl, w = d->hw[k];
  double wg[VM_DUAL_RUN_ND];
  int64_t p;
  int i;
  for (i = 0; i < nd; i++)
    {
      grad[k * m + i] += w * g[nd + i];
      wg[i] = w * g[i];
    }
  for (p = d->dp[k]; p < d->dp[k + 1]; p++)
    {
      const int64_t j = d->dj[p];
      const double v = d->dvs[p];
      if (j < last)   /* else the strong mode's fixed D_d (dual_index -1) */
        for (i = 0; i < nd; i++)
          grad[j * m + i] += wg[i] * v;
    }
}

/* grad S (nz) from the point gradients d->grad: the chain rule through Ddot_d and the boundary
 * term -D_0 . y0. */
static void
eval_gradient (const vm_dual *d, double *grad)
{
  const int64_t N = d->N, last = d->weak ? N : N - 1;   /* the nodes with all m unknowns */
  int64_t k;
  int nd = d->nd, ng = d->ng, i;
  memset (grad, 0, (size_t) d->nz * sizeof *grad);
  for (k = 0; k < N; k++)
    {
      const double *g = d->grad + k * d->nl, w = d->hw[k];
      if (k >= last)
        gradient_node (d, k, grad);
      else if (nd == 3)
        gradient_node_nd (d, k, last, grad, 3);
      else if (nd == 2)
        gradient_node_nd (d, k, last, grad, 2);
      else if (nd <= VM_DUAL_RUN_ND)
        gradient_node_nd (d, k, last, grad, nd);
      else
        gradient_node (d, k, grad);
      for (i = 0; i < ng; i++)
        grad[dual_index (d, k, nd + i)] += w * g[2 * nd + i];
    }
  for (i = 0; i < nd; i++)
    if (N > 1)
      grad[dual_index (d, 0, i)] -= d->y0[i];
}

int
vm_dual_eval (vm_dual *d, const double *z, double *S, double *grad, double *hval)
{
  int64_t N = d->N, k;
  int nd = d->nd, i, st;
  if (! z)
    return VM_EARG;
  eval_inputs (d, z);
  if (! d->have_y)
    memcpy (d->y, d->ybar, (size_t) N * d->ny * sizeof *d->y);
  d->bad = -1;
  if (hval)
    st = vm_dual_eval_hessian (d, hval);
  else
    {
      vm_dual_points pts = { N, d->t, d->u, d->ybar, d->y, d->val, d->grad, NULL, -1 };
      st = d->fn (d->ctx, &pts);
      d->bad = pts.bad;
    }
  if (st != VM_OK)
    {
      d->have_y = 0;
      return st;
    }
  d->have_y = 1;
  if (S)
    {
      double acc = 0.0;
      for (k = 0; k < N; k++)
        acc += d->hw[k] * d->val[k];
      for (i = 0; i < nd; i++)
        acc -= d->Dfull[i] * d->y0[i];
      *S = acc;
    }
  if (grad)
    eval_gradient (d, grad);
  return VM_OK;
}

void
vm_dual_primal (const vm_dual *d, double *res, double *gres, double *ham)
{
  int64_t N = d->N, k, p;
  int nd = d->nd, ng = d->ng, nl = d->nl, ny = d->ny, i;
  for (k = 0; k < N; k++)
    {
      const double *g = d->grad + k * nl, *y = d->y + k * ny, *D = d->Dfull + k * d->m,
                   *yb = d->ybar + k * ny;
      if (res)
        for (i = 0; i < nd; i++)
          {
            double acc = 0.0;
            for (p = d->dp[k]; p < d->dp[k + 1]; p++)
              acc += d->dv[p] * d->y[d->dj[p] * ny + i];
            acc += g[nd + i];   /* - F */
            if (k == 0)
              acc += (y[i] - d->y0[i]) / d->hw[0];
            res[k * nd + i] = acc;
          }
      if (gres)
        for (i = 0; i < ng; i++)
          gres[k * ng + i] = g[2 * nd + i];
      if (ham)
        {
          double h = 0.0;
          for (i = 0; i < nd; i++)
            h -= D[i] * g[nd + i];             /* D_d . F */
          for (i = 0; i < ng; i++)
            h -= D[nd + i] * g[2 * nd + i];    /* - D_a . G */
          for (i = 0; i < ny; i++)
            h -= 0.5 * d->c[i] * (y[i] - yb[i]) * (y[i] - yb[i]);
          ham[k] = h;
        }
    }
}
