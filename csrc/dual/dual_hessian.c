/* dual_hessian.c -- the Hessian values of the discrete dual action S (dual.h, dual_impl.h).
 *
 * Takes a vm_dual with its point inputs d->u set (dual_eval.c); calls the node function on
 * chunks of VM_DUAL_HESS_CHUNK nodes and adds each node's w_k P' K_k P into the values of the
 * pattern (dual_pattern.c).  Returns the values, the node values and gradients, y^H, and the
 * values' sum of squares.  Errors: VM_ENOMEM, the node function's (d->bad).  Cost: one sweep over
 * the nnz values, O(N (ns nd)^2) flops.  Why in chunks and in one sweep: a chunk's node Hessians
 * are still in the cache when they are added, and zeroing, mirroring the lower triangle and
 * summing the squares in the same sweep reads the values once instead of four times.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vm_status.h"
#include "base/vm_sumsq.h"
#include "dual/dual_impl.h"

/* KP = K P (nl x ne, ne = ns nd + ng) of one node: P maps its expanded variables (D_d at its
 * support, D_a at the node) to u = (Ddot_d, D_d, D_a); pk: the node's position in its support;
 * dv[q]: the entry of the node's Dm row at support position q (0 if none).  A zero product
 * K_aj dv_q may carry either sign: the sums into H do not see it (+0 + -0 = +0). */
static void
node_kp (const vm_dual *d, const double *K, int ns, int pk, const double *dv, double *KP)
{
  const int nd = d->nd, ng = d->ng, nl = d->nl, ne = ns * nd + ng;
  int a, q, j;
  for (a = 0; a < nl; a++)
    {
      const double *Ka = K + a * nl;
      double *row = KP + a * ne;
      for (q = 0; q < ns; q++)
        for (j = 0; j < nd; j++)
          row[q * nd + j] = Ka[j] * dv[q];
      for (j = 0; j < nd; j++)
        row[pk * nd + j] += Ka[nd + j];
      for (j = 0; j < ng; j++)
        row[ns * nd + j] = Ka[2 * nd + j];
    }
}

/* Tc = (P' KP)' (ne x ne, column c of the node's block at Tc + c ne) */
static void
node_block (const vm_dual *d, const double *KP, int ns, int pk, const double *dv, double *Tc)
{
  const int nd = d->nd, ng = d->ng, ne = ns * nd + ng;
  int q, i, c;
  for (q = 0; q < ns; q++)
    for (i = 0; i < nd; i++)
      {
        const double *src = KP + i * ne, *src2 = KP + (nd + i) * ne, s = dv[q];
        double *dst = Tc + q * nd + i;
        if (q == pk)
          for (c = 0; c < ne; c++)
            dst[c * ne] = s * src[c] + src2[c];
        else
          for (c = 0; c < ne; c++)
            dst[c * ne] = s * src[c];
      }
  for (i = 0; i < ng; i++)
    for (c = 0; c < ne; c++)
      Tc[c * ne + ns * nd + i] = KP[(2 * nd + i) * ne + c];
}

/* y[0 .. n-1] += w x[0 .. n-1] (x, y distinct: the node's block and the Hessian's values).
 * Unrolled by four because gcc -O2 vectorizes it then, and it is the assembly's inner loop. */
static void
add_scaled (int n, double w, const double *restrict x, double *restrict y)
{
  int i = 0;
  for (; i + 4 <= n; i += 4)
    {
      y[i] += w * x[i];
      y[i + 1] += w * x[i + 1];
      y[i + 2] += w * x[i + 2];
      y[i + 3] += w * x[i + 3];
    }
  for (; i < n; i++)
    y[i] += w * x[i];
}

/* Node k's w_k P' K_k P added into hval, block by block (dual.h: bp, boff); dv as for node_kp,
 * work: nl ne + ne ne */
static void
add_node (const vm_dual *d, int64_t k, const double *K, const double *dv, double *work,
          double *hval)
{
  const int nd = d->nd, ng = d->ng, ns = (int) (d->sup_p[k + 1] - d->sup_p[k]);
  const int G = ns + (ng > 0), pk = d->kpos[k], ne = ns * nd + ng;
  const int64_t *s = d->sup + d->sup_p[k];
  const int *bo = d->boff + d->bp[k];
  const double w = d->hw[k];
  double *KP = work, *Tc = work + d->nl * ne;
  int A, B, jb;
  node_kp (d, K, ns, pk, dv, KP);
  node_block (d, KP, ns, pk, dv, Tc);
  for (B = 0; B < G; B++)
    {
      const int64_t cb = group_first (d, s, ns, k, B);
      const int nb = B < ns ? nd : ng;
      if (cb < 0)
        continue;
      for (jb = 0; jb < nb; jb++)
        {
          double *col = hval + d->colptr[cb + jb];
          const double *tc = Tc + (B * nd + jb) * ne;
          if (ng == 0 && bo[B] >= 0 && bo[(ns - 1) * G + B] - bo[B] == (ns - 1) * nd)
            {
              /* the support's rows fill one stretch of the column (consecutive nodes) */
              add_scaled (ns * nd, w, tc, col + bo[B]);
              continue;
            }
          for (A = 0; A < G; A++)
            {
              const int na = A < ns ? nd : ng, off = bo[A * G + B];
              if (off >= 0)
                add_scaled (na, w, tc + A * nd, col + off);
            }
        }
    }
}

/* add_node without algebraic duals (ng = 0, u = (Ddot_d, D_d)): the block's column (r, j) is
 * P' K P e_(r,j), with entries (q, i) = dv_q a_i + [q = pk] b_i, where a = K11 e_j dv_r + [r = pk]
 * K12 e_j and b = K21 e_j dv_r + [r = pk] K22 e_j are rows 0 .. nd-1 and nd .. 2nd-1 of the
 * column (r, j) of K P.  Added straight into the Hessian's column, with no dense ne x ne block
 * (node_kp, node_block); w_k applied to a and b once per column (w dq a_i + w b_i instead of
 * w (dq a_i + b_i): one multiplication per entry, the same sums to rounding).  ab: 2 nd doubles.
 * Why: the dense block of add_node costs more than the columns it fills when ng = 0. */
static VM_ALWAYS_INLINE void
node_direct (const vm_dual *d, int64_t k, const double *K, const double *dv,
             double *restrict ab, double *restrict hval, const int nd)
{
  const int nl = d->nl, ns = (int) (d->sup_p[k + 1] - d->sup_p[k]);
  const int pk = d->kpos[k];
  const int64_t *s = d->sup + d->sup_p[k];
  const int *bo = d->boff + d->bp[k];
  const double w = d->hw[k];
  double *a = ab, *b = ab + nd;
  int q, r, i, j;
  for (r = 0; r < ns; r++)
    {
      const int64_t cb = dual_index (d, s[r], 0);
      if (cb < 0)
        continue;
      for (j = 0; j < nd; j++)
        {
          double *col = hval + d->colptr[cb + j];
          for (i = 0; i < nd; i++)
            {
              a[i] = K[i * nl + j] * dv[r];
              b[i] = K[(nd + i) * nl + j] * dv[r];
            }
          if (r == pk)
            for (i = 0; i < nd; i++)
              {
                a[i] += K[i * nl + nd + j];
                b[i] += K[(nd + i) * nl + nd + j];
              }
          for (i = 0; i < nd; i++)   /* the weight once per column, not per entry */
            {
              a[i] *= w;
              b[i] *= w;
            }
          /* the lower triangle only: rows of the nodes from s[r] on, in s[r] from
           * component j on (mirror_upper copies the rest) */
          for (q = r; q < ns; q++)
            {
              const double dq = dv[q];
              double *h;
              if (bo[q * ns + r] < 0)
                continue;
              h = col + bo[q * ns + r];
              for (i = q == r ? j : 0; i < nd; i++)
                h[i] += dq * a[i];
            }
          if (pk >= r && bo[pk * ns + r] >= 0)
            {
              double *h = col + bo[pk * ns + r];
              for (i = pk == r ? j : 0; i < nd; i++)
                h[i] += b[i];
            }
        }
    }
}

/* node_direct for a regular node (dual.h: regular): the blocks (q, r), q >= r, of column (r, j)
 * are one stretch of (ns - r) nd rows from boff (r, r), updated in one pass, with the diagonal
 * block's rows above row j as well (strictly upper: mirror_upper overwrites them) */
static VM_ALWAYS_INLINE void
node_run (const vm_dual *d, int64_t k, const double *K, const double *dv, double *restrict hval,
          const int nd)
{
  const int nl = d->nl, ns = (int) (d->sup_p[k + 1] - d->sup_p[k]);
  const int pk = d->kpos[k];
  const int64_t *s = d->sup + d->sup_p[k];
  const int *bo = d->boff + d->bp[k];
  const double w = d->hw[k];
  double a[VM_DUAL_RUN_ND], b[VM_DUAL_RUN_ND];
  int q, r, i, j;
  for (r = 0; r < ns; r++)
    {
      const int64_t cb = dual_index (d, s[r], 0);
      const double wr = w * dv[r];
      for (j = 0; j < nd; j++)
        {
          double *restrict h = hval + d->colptr[cb + j] + bo[r * ns + r];
          for (i = 0; i < nd; i++)
            {
              a[i] = K[i * nl + j] * wr;
              b[i] = K[(nd + i) * nl + j] * wr;
            }
          if (r == pk)
            for (i = 0; i < nd; i++)
              {
                a[i] += w * K[i * nl + nd + j];
                b[i] += w * K[(nd + i) * nl + nd + j];
              }
          for (q = r; q < ns; q++)
            {
              const double dq = dv[q];
              for (i = 0; i < nd; i++)
                h[(q - r) * nd + i] += dq * a[i];
            }
          if (pk >= r)
            for (i = 0; i < nd; i++)
              h[(pk - r) * nd + i] += b[i];
        }
    }
}

/* node_direct (or node_run for a regular node) with nd a constant for the common sizes.  Why:
 * inlined with a constant nd, the compiler unrolls the loops over i, and with restrict a and b
 * need not be reloaded after each store into the Hessian. */
static void
add_node_direct (const vm_dual *d, int64_t k, const double *K, const double *dv, double *ab,
                 double *hval)
{
  if (d->regular[k] && d->nd <= VM_DUAL_RUN_ND)
    switch (d->nd)
      {
      case 2: node_run (d, k, K, dv, hval, 2); return;
      case 3: node_run (d, k, K, dv, hval, 3); return;
      default: node_run (d, k, K, dv, hval, d->nd); return;
      }
  switch (d->nd)
    {
    case 2: node_direct (d, k, K, dv, ab, hval, 2); break;
    case 3: node_direct (d, k, K, dv, ab, hval, 3); break;
    default: node_direct (d, k, K, dv, ab, hval, d->nd); break;
    }
}

/* The strict upper triangle of the Hessian from its lower triangle (the pattern is symmetric,
 * rows sorted): entry (i, c), i < c, from (c, i).  In a column c of consecutive rows from r0, the
 * upper entries are rows r0 .. c - 1 in order, and where their columns i are of consecutive rows
 * too (every column of the dual Lorenz but near a fixed node) each source is rowbase[i] + c, with
 * no search and no state.  Columns c0 .. c1 - 1, whose sources (columns < c1) must be complete.
 * VM_EARG if the pattern is not symmetric (a bug). */
static int
mirror_upper (const vm_dual *d, double *hval, int64_t c0, int64_t c1)
{
  const int64_t *cp = d->colptr, *ri = d->rowind, *rb = d->rowbase;
  int64_t c, p;
  for (c = c0; c < c1; c++)
    {
      const int64_t p0 = cp[c];
      if (d->upper_run[c])   /* rows r0 .. c - 1 at p0 .. p0 + c - r0 - 1 */
        {
          /* r0 from the streamed colptr and rowbase, not from ri[p0]: that is one cache line
           * of the pattern per column, a load the prefetcher does not see coming */
          const int64_t r0 = p0 - rb[c];
          for (p = 0; p < c - r0; p++)
            hval[p0 + p] = hval[rb[r0 + p] + c];
        }
      else
        for (p = p0; p < cp[c + 1] && ri[p] < c; p++)
          {
            const int64_t q = lower_entry (d, ri[p], c);
            if (q < 0)
              return VM_EARG;
            hval[p] = hval[q];
          }
    }
  return VM_OK;
}

/* Where the assembly of the Hessian values stands (vm_dual_eval_hessian): the columns of the nodes before
 * zeroed are zeroed; those of the nodes before done are complete (their strict upper triangle
 * copied when ng = 0), and ss is the sum of squares of their values */
typedef struct
{
  int64_t zeroed, done;
  double ss;
} hess_front;

/* The columns of nodes f->done .. to - 1 are complete: the strict upper triangle copied (ng = 0),
 * their squares summed into f->ss (dual.h: hess_sumsq) */
static int
hess_complete (const vm_dual *d, double *hval, hess_front *f, int64_t to)
{
  const int64_t c0 = node_column (d, f->done), c1 = node_column (d, to);
  if (d->ng == 0 && mirror_upper (d, hval, c0, c1) != VM_OK)
    return VM_EARG;
  f->ss += vm_sum_squares (d->colptr[c1] - d->colptr[c0], hval + d->colptr[c0]);
  f->done = to;
  return VM_OK;
}

/* Nodes k0 .. k1 - 1 added into the Hessian values hval, their node Hessians in d->hess (node k
 * at d->hess + (k - k0) nl nl); dv: work of maxns + (nl + maxne) maxne doubles.  In the same
 * sweep, while they are in the cache: the columns of a node are zeroed just before the first node
 * that adds to them, and as soon as hess_lag later nodes have been added (build_lag: they and
 * every source of their upper triangle are complete then) their strict upper triangle is copied
 * from the lower one (ng = 0) and their squares summed (hess_complete).  Why: one pass over the
 * values instead of four (memset, sums, mirror_upper, Newton's sum of squares), which on long
 * grids is memory traffic, not arithmetic. */
static int
add_nodes (const vm_dual *d, int64_t k0, int64_t k1, double *dv, double *hval, hess_front *f)
{
  const int nl2 = d->nl * d->nl;
  int64_t k, p;
  int q;
  for (k = k0; k < k1; k++)
    {
      const int ns = (int) (d->sup_p[k + 1] - d->sup_p[k]);
      const double *K = d->hess + (k - k0) * nl2;
      const int64_t reach = d->sup[d->sup_p[k + 1] - 1] + 1;   /* the support is sorted */
      if (reach > f->zeroed)
        {
          const int64_t p0 = d->colptr[node_column (d, f->zeroed)];
          memset (hval + p0, 0, (size_t) (d->colptr[node_column (d, reach)] - p0) * sizeof *hval);
          f->zeroed = reach;
        }
      for (q = 0; q < ns; q++)
        dv[q] = 0.0;
      for (p = d->dp[k]; p < d->dp[k + 1]; p++)
        dv[d->dpos[p]] = d->dvs[p];
      if (d->ng == 0)
        add_node_direct (d, k, K, dv, dv + d->maxns, hval);
      else
        add_node (d, k, K, dv, dv + d->maxns, hval);
      if (k - d->hess_lag + 1 > f->done && hess_complete (d, hval, f, k - d->hess_lag + 1) != VM_OK)
        return VM_EARG;
    }
  return VM_OK;
}

/* The node Lagrangians at every node (d->val, d->grad, y^H into d->y) and the Hessian values of S
 * (nnz) from the node Hessians, VM_DUAL_HESS_CHUNK nodes at a time: each chunk's node Hessians
 * are made by d->fn into d->hess and added while they are in the cache (dual.h: hess), so d->hess
 * holds one chunk, not N nodes.  The values are those of one call of d->fn for all nodes (each
 * node's function depends on that node's data only) followed by the assembly in node order,
 * bit for bit.  Without algebraic duals the node blocks add the lower triangle only and
 * mirror_upper copies it: half the sums, and the matrix exactly symmetric.  Returns
 * VM_OK, VM_ENOMEM, or d->fn's code (d->bad: the first failing node) at the first chunk that
 * fails, whose later nodes are not evaluated. */
int
vm_dual_eval_hessian (vm_dual *d, double *hval)
{
  const int maxne = d->maxns * d->nd + d->ng, nl = d->nl, ny = d->ny;
  double *dv = malloc ((size_t) (d->maxns + (nl + maxne) * maxne) * sizeof *dv);
  int64_t k0;
  int st = VM_OK;
  hess_front f = { 0, 0, 0.0 };
  if (! dv)
    return VM_ENOMEM;
  for (k0 = 0; k0 < d->N && st == VM_OK; k0 += VM_DUAL_HESS_CHUNK)
    {
      const int64_t len = d->N - k0 < VM_DUAL_HESS_CHUNK ? d->N - k0 : VM_DUAL_HESS_CHUNK;
      vm_dual_points pts = { len, d->t + k0, d->u + k0 * nl, d->ybar + k0 * ny, d->y + k0 * ny,
                             d->val + k0, d->grad + k0 * nl, d->hess, -1 };
      st = d->fn (d->ctx, &pts);
      if (st != VM_OK)
        d->bad = pts.bad >= 0 ? k0 + pts.bad : -1;
      else
        st = add_nodes (d, k0, k0 + len, dv, hval, &f);
    }
  free (dv);
  if (st == VM_OK && f.zeroed < d->N)   /* columns no node adds to (none in a valid pattern) */
    memset (hval + d->colptr[node_column (d, f.zeroed)], 0,
            (size_t) (d->nnz - d->colptr[node_column (d, f.zeroed)]) * sizeof *hval);
  if (st == VM_OK)
    st = hess_complete (d, hval, &f, d->N);
  d->hess_sumsq = st == VM_OK ? f.ss : NAN;
  return st;
}
