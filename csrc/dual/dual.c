/* dual.c -- the discrete dual action of Acharya & Sengupta (see dual.h for the mathematics). */
#include "dual/dual.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vm_csc.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"
#include "base/vm_sumsq.h"

#define DTP_RTOL 1e-12

/* Nodes whose node Hessians are made and assembled together (eval_hessian): 64 nodes of the
 * dual Lorenz (nl = 6) are 18 kB of node Hessians, which stay in the L1 cache between d->fn and
 * the assembly; d->hess holds one such chunk (dual.h) */
#define VM_DUAL_HESS_CHUNK 64

/* ---- small dense LU with partial pivoting (row-major n x n; shared with dual_closed.c) -------- */

int
vm_dense_lu (int n, double *a, int *piv, double tol)
{
  int i, j, k;
  for (k = 0; k < n; k++)
    {
      int p = k;
      double mx = fabs (a[k * n + k]);
      for (i = k + 1; i < n; i++)
        if (fabs (a[i * n + k]) > mx)
          {
            mx = fabs (a[i * n + k]);
            p = i;
          }
      if (!(mx > tol) || !isfinite (mx))
        return 1;
      piv[k] = p;
      if (p != k)
        for (j = 0; j < n; j++)
          {
            const double tmp = a[k * n + j];
            a[k * n + j] = a[p * n + j];
            a[p * n + j] = tmp;
          }
      for (i = k + 1; i < n; i++)
        {
          const double lik = a[i * n + k] /= a[k * n + k];
          if (lik != 0.0)
            for (j = k + 1; j < n; j++)
              a[i * n + j] -= lik * a[k * n + j];
        }
    }
  return 0;
}

void
vm_dense_lu_solve (int n, const double *a, const int *piv, double *b)
{
  int i, j, k;
  for (k = 0; k < n; k++)   /* the row interchanges, then the two triangular solves */
    if (piv[k] != k)
      {
        const double tmp = b[k];
        b[k] = b[piv[k]];
        b[piv[k]] = tmp;
      }
  for (i = 1; i < n; i++)
    for (j = 0; j < i; j++)
      if (a[i * n + j] != 0.0)
        b[i] -= a[i * n + j] * b[j];
  for (i = n - 1; i >= 0; i--)
    {
      for (j = i + 1; j < n; j++)
        if (a[i * n + j] != 0.0)
          b[i] -= a[i * n + j] * b[j];
      b[i] /= a[i * n + i];
    }
}

/* Factor the DtP matrix A = diag (c) - (second derivatives) equilibrated, E A E with E =
 * diag (cr), cr_i = 1 / sqrt (c_i) (its diagonal is 1 at D = 0): singular when a pivot is below
 * DTP_RTOL max |(E A E)_ij| (or it is 0 or not finite); returns 0 on success.  Equilibrated, the
 * test is the same in any units of the states: on A itself, weights c of a state in units of
 * 1e6 (c ~ 1e-12) beside one of order 1 made the first pivot look singular (periodic_orbit on
 * Van der Pol in time units of 1e-6 s, doc/periodic.md).  Solve with dtp_solve. */
static int
dtp_factor (double *a, int n, int *piv, const double *cr)
{
  int i, j;
  double amax = 0.0;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        a[i * n + j] *= cr[i] * cr[j];
        if (fabs (a[i * n + j]) > amax)
          amax = fabs (a[i * n + j]);
      }
  if (! (amax > 0.0) || ! isfinite (amax))
    return 1;
  return vm_dense_lu (n, a, piv, DTP_RTOL * amax);
}

/* A x = b with the factors of dtp_factor: (E A E) (E^-1 x) = E b; b is overwritten by x */
static void
dtp_solve (const double *a, int n, const int *piv, const double *cr, double *b)
{
  int i;
  for (i = 0; i < n; i++)
    b[i] *= cr[i];
  vm_dense_lu_solve (n, a, piv, b);
  for (i = 0; i < n; i++)
    b[i] *= cr[i];
}

/* ---- discretization ------------------------------------------------------------------------- */

/* vm_dual_index, for this file's loops: a static function the compiler inlines (a call to the
 * exported one from code built with -fPIC goes through the symbol, which may be interposed, and
 * is not inlined: 3 % of a dual Lorenz solve at N = 4096) */
static int64_t
dual_index (const vm_dual *d, int64_t k, int i)
{
  if (d->weak || k < d->N - 1)
    return k * d->m + i;
  return i < d->nd ? -1 : (d->N - 1) * d->m + (i - d->nd);
}

int64_t
vm_dual_index (const vm_dual *d, int64_t k, int i)
{
  return dual_index (d, k, i);
}

/* node k's support: sorted unique {k} U columns of Dm row k, into s (returns its length) */
static int
node_support (const vm_dual *d, int64_t k, int64_t *s)
{
  int len = 0, i, j;
  int64_t p;
  s[len++] = k;
  for (p = d->dp[k]; p < d->dp[k + 1]; p++)
    s[len++] = d->dj[p];
  for (i = 1; i < len; i++)   /* insertion sort, then unique */
    {
      int64_t v = s[i];
      for (j = i; j > 0 && s[j - 1] > v; j--)
        s[j] = s[j - 1];
      s[j] = v;
    }
  for (i = 1, j = 1; i < len; i++)
    if (s[i] != s[j - 1])
      s[j++] = s[i];
  return j;
}

/* d->hess_lag (dual.h): the last node whose support holds node j, maximized over the nodes up
 * to j, minus j, maximized over j (the columns of nodes <= j are complete when that node has been
 * added) */
static int
build_lag (vm_dual *d)
{
  int64_t *last = malloc ((size_t) (d->N > 0 ? d->N : 1) * sizeof *last), k, q, run = 0, lag = 0;
  if (! last)
    return VM_ENOMEM;
  for (k = 0; k < d->N; k++)
    last[k] = k;
  for (k = 0; k < d->N; k++)
    for (q = d->sup_p[k]; q < d->sup_p[k + 1]; q++)
      last[d->sup[q]] = k;   /* k increases: the last assignment is the largest */
  for (k = 0; k < d->N; k++)
    {
      run = last[k] > run ? last[k] : run;
      lag = run - k > lag ? run - k : lag;
    }
  free (last);
  d->hess_lag = lag;
  return VM_OK;
}

/* Every node's support, once: sup[sup_p[k] .. sup_p[k+1]-1], the position of node k in it
 * (kpos[k]) and of every entry of Dm's row k in it (dpos[p]). */
static int
build_supports (vm_dual *d)
{
  int64_t N = d->N, k, p, s[64];
  int ns, q;
  d->sup_p = vm_scratch_alloc ((size_t) (N + 1) * sizeof *d->sup_p);
  d->kpos = vm_scratch_alloc ((size_t) (N > 0 ? N : 1) * sizeof *d->kpos);
  d->dpos = vm_scratch_alloc ((size_t) (d->dp[N] > 0 ? d->dp[N] : 1) * sizeof *d->dpos);
  if (! d->sup_p || ! d->kpos || ! d->dpos)
    return VM_ENOMEM;
  d->sup_p[0] = 0;
  for (k = 0; k < N; k++)
    {
      if (d->dp[k + 1] - d->dp[k] + 1 > 64)
        return VM_EARG;
      d->sup_p[k + 1] = d->sup_p[k] + node_support (d, k, s);
    }
  d->sup = vm_scratch_alloc ((size_t) (d->sup_p[N] > 0 ? d->sup_p[N] : 1) * sizeof *d->sup);
  if (! d->sup)
    return VM_ENOMEM;
  for (k = 0; k < N; k++)
    {
      int64_t *sk = d->sup + d->sup_p[k];
      ns = node_support (d, k, s);   /* s: room for the row before deduplication */
      memcpy (sk, s, (size_t) ns * sizeof *sk);
      for (q = 0; q < ns; q++)
        if (sk[q] == k)
          d->kpos[k] = q;
      for (p = d->dp[k]; p < d->dp[k + 1]; p++)
        for (q = 0; q < ns; q++)
          if (sk[q] == d->dj[p])
            d->dpos[p] = q;
    }
  return build_lag (d);
}

static int64_t
expanded_global (const vm_dual *d, const int64_t *s, int ns, int64_t k, int e)
{
  if (e < ns * d->nd)
    return dual_index (d, s[e / d->nd], e % d->nd);
  return dual_index (d, k, d->nd + (e - ns * d->nd));
}

/* The first global index of group g of node k (its support s, ns nodes; dual.h): D_d at s[g] for
 * g < ns, else D_a at k; -1 when fixed (the strong mode's D_d at the last node) */
static int64_t
group_first (const vm_dual *d, const int64_t *s, int ns, int64_t k, int g)
{
  return g < ns ? dual_index (d, s[g], 0) : dual_index (d, k, d->nd);
}

/* d->regular (dual.h): without algebraic duals, node k's blocks (q, r), q >= r, lie one below
 * the other in each column of group r (every node but those next to a fixed one) */
static int
build_regular (vm_dual *d)
{
  const int64_t N = d->N;
  int64_t k;
  int q, r;
  d->regular = calloc ((size_t) (N > 0 ? N : 1), 1);
  if (! d->regular)
    return VM_ENOMEM;
  if (d->ng > 0)
    return VM_OK;
  for (k = 0; k < N; k++)
    {
      const int ns = (int) (d->sup_p[k + 1] - d->sup_p[k]);
      const int *bo = d->boff + d->bp[k];
      int ok = 1;
      for (r = 0; r < ns && ok; r++)
        for (q = r; q < ns && ok; q++)
          ok = bo[r * ns + r] >= 0 && bo[q * ns + r] == bo[r * ns + r] + (q - r) * d->nd;
      d->regular[k] = (unsigned char) ok;
    }
  return VM_OK;
}

/* The position of row c in column i of the pattern (rows sorted), -1 if it has none: by
 * d->rowbase for a column of consecutive rows, else by bisection */
static int64_t
lower_entry (const vm_dual *d, int64_t i, int64_t c)
{
  const int64_t *cp = d->colptr, *ri = d->rowind;
  const int64_t lo = cp[i], hi = cp[i + 1];
  if (d->rowbase[i] != INT64_MIN)
    return hi > lo && c >= ri[lo] && c <= ri[hi - 1] ? d->rowbase[i] + c : -1;
  return vm_csc_find (ri, lo, hi, c);
}

/* Every node's block offsets (dual.h: bp, boff, maxns) from the pattern and d->rowbase: the
 * position of the first row of group A in the first column of group B, relative to the column's
 * start (every row of the block is in the column by construction): from the column's base, or by
 * lower_entry's bisection for a column with gaps. */
static int
build_blocks (vm_dual *d)
{
  const int64_t N = d->N;
  const int ga = d->ng > 0;
  int64_t k;
  int A, B;
  d->bp = vm_scratch_alloc ((size_t) (N + 1) * sizeof *d->bp);
  if (! d->bp)
    return VM_ENOMEM;
  d->bp[0] = 0;
  d->maxns = 0;
  for (k = 0; k < N; k++)
    {
      const int ns = (int) (d->sup_p[k + 1] - d->sup_p[k]);
      d->bp[k + 1] = d->bp[k] + (int64_t) (ns + ga) * (ns + ga);
      if (ns > d->maxns)
        d->maxns = ns;
    }
  d->boff = vm_scratch_alloc ((size_t) (d->bp[N] > 0 ? d->bp[N] : 1) * sizeof *d->boff);
  if (! d->boff)
    return VM_ENOMEM;
  for (k = 0; k < N; k++)
    {
      const int64_t *s = d->sup + d->sup_p[k];
      const int ns = (int) (d->sup_p[k + 1] - d->sup_p[k]), G = ns + ga;
      int *bo = d->boff + d->bp[k];
      for (B = 0; B < G; B++)
        {
          const int64_t cb = group_first (d, s, ns, k, B);
          const int64_t c0 = cb < 0 ? 0 : d->colptr[cb], rb = cb < 0 ? 0 : d->rowbase[cb];
          for (A = 0; A < G; A++)
            {
              const int64_t ra = group_first (d, s, ns, k, A);
              bo[A * G + B] = cb < 0 || ra < 0 ? -1 : rb != INT64_MIN ? (int) (rb + ra - c0)
                              : (int) (lower_entry (d, cb, ra) - c0);
            }
        }
    }
  return build_regular (d);
}

/* Node and component of unknown j (the inverse of vm_dual_index) */
static void
unknown_of (const vm_dual *d, int64_t j, int64_t *node, int *comp)
{
  if (d->weak || j < (d->N - 1) * d->m)
    {
      *node = j / d->m;
      *comp = (int) (j % d->m);
    }
  else
    {
      *node = d->N - 1;
      *comp = d->nd + (int) (j - (d->N - 1) * d->m);
    }
}

/* The rows of a column of the Hessian, unsorted, into rows (NULL: count only); returns their
 * number.  The column of D_d at node s (dd nonzero) couples the expanded variables of the nodes
 * whose support holds s (inc[icp[s] .. icp[s+1]-1]), that of D_a at s those of s; e + ep[k]: node
 * k's expanded variables as global indices.  mark (nz): rows already seen carry tag. */
static int64_t
column_rows (const vm_dual *d, int64_t s, int dd, const int64_t *icp, const int64_t *inc,
             const int64_t *ep, const int64_t *e, int64_t *mark, int64_t tag, int64_t *rows)
{
  const int64_t q0 = dd ? icp[s] : 0, q1 = dd ? icp[s + 1] : 1;
  int64_t q, x, cnt = 0;
  (void) d;
  for (q = q0; q < q1; q++)
    {
      const int64_t kk = dd ? inc[q] : s;
      for (x = ep[kk]; x < ep[kk + 1]; x++)
        {
          const int64_t r = e[x];
          if (r < 0 || mark[r] == tag)
            continue;
          mark[r] = tag;
          if (rows)
            rows[cnt] = r;
          cnt++;
        }
    }
  return cnt;
}

/* insertion sort (a short column) */
static void
sort_rows (int64_t *rr, int64_t cnt)
{
  int64_t x, y;
  for (x = 1; x < cnt; x++)
    {
      const int64_t v = rr[x];
      for (y = x; y > 0 && rr[y - 1] > v; y--)
        rr[y] = rr[y - 1];
      rr[y] = v;
    }
}

/* The work of build_pattern (freed at its end). */
typedef struct
{
  int64_t *icp, *inc;          /* inverse incidence: the nodes inc[icp[s] .. icp[s+1]-1] have s
                                  in their support */
  int64_t *mark, *fill;        /* nz row tags; N fill positions into inc */
  int64_t *ep, *e;             /* node k's expanded variables as global indices: e + ep[k] */
} pattern_ws;

/* icp: the number of supports that hold each node, as compressed pointers (icp[N] in all) */
static void
pattern_icp (const vm_dual *d, int64_t *icp)
{
  const int64_t N = d->N;
  int64_t k;
  for (k = 0; k < N; k++)
    {
      const int ns = (int) (d->sup_p[k + 1] - d->sup_p[k]);
      const int64_t *s = d->sup + d->sup_p[k];
      int q;
      for (q = 0; q < ns; q++)
        icp[s[q] + 1]++;
    }
  for (k = 0; k < N; k++)
    icp[k + 1] += icp[k];
}

/* every node's expanded variables as global indices, once: w->e + w->ep[k] (VM_OK or
 * VM_ENOMEM) */
static int
pattern_expanded (const vm_dual *d, pattern_ws *w)
{
  const int64_t N = d->N;
  int64_t k;
  int a;
  w->ep[0] = 0;
  for (k = 0; k < N; k++)
    w->ep[k + 1] = w->ep[k] + (d->sup_p[k + 1] - d->sup_p[k]) * d->nd + d->ng;
  w->e = malloc ((size_t) (w->ep[N] > 0 ? w->ep[N] : 1) * sizeof *w->e);
  if (! w->e)
    return VM_ENOMEM;
  for (k = 0; k < N; k++)
    {
      const int ns = (int) (d->sup_p[k + 1] - d->sup_p[k]);
      const int64_t *s = d->sup + d->sup_p[k];
      for (a = 0; a < (int) (w->ep[k + 1] - w->ep[k]); a++)
        w->e[w->ep[k] + a] = expanded_global (d, s, ns, k, a);
    }
  return VM_OK;
}

/* inc: the inverse incidence itself, in node order (fill as the running positions) */
static void
pattern_inc (const vm_dual *d, pattern_ws *w)
{
  const int64_t N = d->N;
  int64_t k;
  memcpy (w->fill, w->icp, (size_t) N * sizeof *w->fill);
  for (k = 0; k < N; k++)
    {
      const int ns = (int) (d->sup_p[k + 1] - d->sup_p[k]);
      const int64_t *s = d->sup + d->sup_p[k];
      int q;
      for (q = 0; q < ns; q++)
        w->inc[w->fill[s[q]]++] = k;
    }
}

/* column j of the pattern: in pass 0 its row count into colptr[j + 1], in pass 1 its sorted rows
 * into rowind */
static void
pattern_column (vm_dual *d, const pattern_ws *w, int64_t j, int pass)
{
  const int nd = d->nd;
  int64_t node, cnt;
  int comp;
  unknown_of (d, j, &node, &comp);
  if (comp != 0 && comp != nd)
    {
      /* a group's columns have the same rows: those of column j - 1 */
      if (pass == 0)
        d->colptr[j + 1] = d->colptr[j];
      else
        memcpy (d->rowind + d->colptr[j], d->rowind + d->colptr[j - 1],
                (size_t) (d->colptr[j] - d->colptr[j - 1]) * sizeof *d->rowind);
      return;
    }
  cnt = column_rows (d, node, comp < nd, w->icp, w->inc, w->ep, w->e, w->mark, j + pass * d->nz,
                     pass ? d->rowind + d->colptr[j] : NULL);
  if (pass == 0)
    d->colptr[j + 1] = cnt;
  else
    sort_rows (d->rowind + d->colptr[j], cnt);
}

/* colptr, nnz and rowind in two passes over the columns: count, then fill (rows deduplicated
 * with mark); VM_OK or VM_ENOMEM */
static int
pattern_columns (vm_dual *d, pattern_ws *w)
{
  const int64_t nz = d->nz;
  int64_t j;
  int pass;
  for (j = 0; j < nz; j++)
    w->mark[j] = -1;
  for (pass = 0; pass < 2; pass++)
    {
      for (j = 0; j < nz; j++)
        pattern_column (d, w, j, pass);
      if (pass == 0)
        {
          for (j = 0; j < nz; j++)
            d->colptr[j + 1] += d->colptr[j];
          d->nnz = d->colptr[nz];
          d->rowind = vm_scratch_alloc ((size_t) (d->nnz > 0 ? d->nnz : 1) * sizeof *d->rowind);
          if (! d->rowind)
            return VM_ENOMEM;
        }
    }
  return VM_OK;
}

/* U(s), the union of the supports of the nodes that hold node s (w->inc[w->icp[s] ..]), below
 * node last, sorted, into u (mark: N node tags, s marks U(s)); returns its size */
static int64_t
node_union (const vm_dual *d, const pattern_ws *w, int64_t s, int64_t last, int64_t *mark,
            int64_t *u)
{
  int64_t q, t, cnt = 0;
  for (q = w->icp[s]; q < w->icp[s + 1]; q++)
    for (t = d->sup_p[w->inc[q]]; t < d->sup_p[w->inc[q] + 1]; t++)
      {
        const int64_t v = d->sup[t];
        if (v < last && mark[v] != s)
          {
            mark[v] = s;
            u[cnt++] = v;
          }
      }
  sort_rows (u, cnt);
  return cnt;
}

/* The pattern without algebraic duals (ng = 0: the dual Lorenz, every order and mode), node by
 * node: the unknowns are D_d(s, i) at s m + i for the nodes s below last (all but the strong
 * mode's last node), and the rows of each of node s's m columns are the unknowns of the nodes of
 * U(s) (node_union) -- the union of build_pattern taken over nodes, not over expanded variables:
 * m^2 times fewer marks and a sort of nodes, not of rows.  *done = 0 (nothing built) for ng > 0;
 * VM_OK or VM_ENOMEM. */
static int
pattern_nodes (vm_dual *d, const pattern_ws *w, int *done)
{
  const int64_t N = d->N, m = d->m, last = d->weak ? N : N - 1;
  int64_t *mark, *u, s, j, x, cnt;
  int i;
  *done = 0;
  if (d->ng > 0)
    return VM_OK;
  mark = malloc ((size_t) (N > 0 ? N : 1) * sizeof *mark);
  u = malloc ((size_t) (N > 0 ? N : 1) * sizeof *u);
  if (! mark || ! u)
    goto fail;
  for (s = 0; s < N; s++)
    mark[s] = -1;
  for (s = 0; s < last; s++)   /* the column counts */
    for (cnt = node_union (d, w, s, last, mark, u) * m, i = 0; i < m; i++)
      d->colptr[s * m + i + 1] = d->colptr[s * m + i] + cnt;
  d->nnz = d->colptr[d->nz];
  d->rowind = vm_scratch_alloc ((size_t) (d->nnz > 0 ? d->nnz : 1) * sizeof *d->rowind);
  if (! d->rowind)
    goto fail;
  for (s = 0; s < N; s++)
    mark[s] = -1;
  for (s = 0; s < last; s++)
    {
      int64_t *r = d->rowind + d->colptr[s * m];
      cnt = node_union (d, w, s, last, mark, u);
      for (x = 0; x < cnt; x++)
        for (i = 0; i < m; i++)
          r[x * m + i] = u[x] * m + i;
      for (j = 1; j < m; j++)   /* the node's other columns: the same rows */
        memcpy (r + j * cnt * m, r, (size_t) (cnt * m) * sizeof *r);
    }
  free (mark);
  free (u);
  *done = 1;
  return VM_OK;
fail:
  free (mark);
  free (u);
  return VM_ENOMEM;
}

/* d->rowbase and d->upper_run (dual.h) */
static int
build_rowbase (vm_dual *d)
{
  const int64_t *cp = d->colptr, *ri = d->rowind;
  int64_t j, bad;
  d->rowbase = vm_scratch_alloc ((size_t) (d->nz > 0 ? d->nz : 1) * sizeof *d->rowbase);
  d->upper_run = malloc ((size_t) (d->nz > 0 ? d->nz : 1));
  if (! d->rowbase || ! d->upper_run)
    return VM_ENOMEM;
  for (j = 0; j < d->nz; j++)
    d->rowbase[j] = cp[j + 1] > cp[j] && ri[cp[j + 1] - 1] - ri[cp[j]] == cp[j + 1] - cp[j] - 1
                    ? cp[j] - ri[cp[j]] : INT64_MIN;
  /* column j of consecutive rows r0 .. r1 with r1 >= j: its upper entries are rows r0 .. j - 1,
   * whose columns hold row j (the pattern is symmetric by construction), all of consecutive rows
   * unless one of them is at or after the last column that is not */
  for (j = 0, bad = -1; j < d->nz; j++)
    {
      d->upper_run[j] = (unsigned char) (d->rowbase[j] != INT64_MIN && bad < ri[cp[j]]
                                         && ri[cp[j + 1] - 1] >= j);
      if (d->rowbase[j] == INT64_MIN)
        bad = j;
    }
  return VM_OK;
}

/* The Hessian pattern: column by column, without a global sort.  Node k's local block couples all
 * of its expanded variables E_k (D_d at the nodes of its support S_k, D_a at k) densely, so the
 * rows of the column of D_d(s, i) are the union of E_k over the nodes k whose support holds s, and
 * the rows of the column of D_a(s, a) are E_s: node by node without algebraic duals
 * (pattern_nodes; the dual Lorenz's set-up at N = 4096: 2.03 -> 1.65 ms, 256: 0.088 -> 0.046 ms),
 * over the expanded variables with them (pattern_columns).  Then the columns' bases
 * (build_rowbase) and the blocks' offsets (build_blocks). */
static int
build_pattern (vm_dual *d)
{
  const int64_t N = d->N, nz = d->nz;
  pattern_ws w;
  int st = VM_ENOMEM, done = 0;
  memset (&w, 0, sizeof w);
  d->colptr = vm_scratch_alloc (((size_t) nz + 1) * sizeof *d->colptr);
  w.icp = calloc ((size_t) N + 1, sizeof *w.icp);
  if (! d->colptr || ! w.icp)
    goto done;
  memset (d->colptr, 0, ((size_t) nz + 1) * sizeof *d->colptr);
  pattern_icp (d, w.icp);
  w.inc = malloc ((size_t) (w.icp[N] > 0 ? w.icp[N] : 1) * sizeof *w.inc);
  w.fill = malloc ((size_t) (N > 0 ? N : 1) * sizeof *w.fill);
  if (! w.inc || ! w.fill)
    goto done;
  pattern_inc (d, &w);
  if (pattern_nodes (d, &w, &done) != VM_OK)
    goto done;
  if (! done)
    {
      w.mark = vm_scratch_alloc ((size_t) (nz > 0 ? nz : 1) * sizeof *w.mark);
      w.ep = malloc ((size_t) (N + 1) * sizeof *w.ep);
      if (! w.mark || ! w.ep || pattern_expanded (d, &w) != VM_OK
          || pattern_columns (d, &w) != VM_OK)
        goto done;
    }
  st = build_rowbase (d);
  if (st == VM_OK)
    st = build_blocks (d);
done:
  free (w.icp);
  free (w.inc);
  vm_scratch_free (w.mark);
  free (w.fill);
  free (w.e);
  free (w.ep);
  return st;
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
vm_dual_init (vm_dual *d, int ny, int nd, int ng, int64_t N, int order, double t0, double tf,
              const double *c, const double *ybar, const double *y0, const double *DT,
              vm_dual_node_fn fn, void *ctx, int flags)
{
  int st, i;
  int64_t nnzd;
  if (! d)
    return VM_EARG;
  memset (d, 0, sizeof *d);
  if (ny < 1 || nd < 1 || nd > ny || ng < 0 || ! c || ! y0 || ! fn
      || (flags & ~VM_DUAL_WEAK_FINAL) != 0)
    return VM_EARG;
  for (i = 0; i < ny; i++)
    if (! (c[i] > 0.0) || ! isfinite (c[i]))
      return VM_EARG;
  if ((st = vm_sbp_init (&d->op, order, N, t0, tf)) != VM_OK)
    return st;
  d->ny = ny;
  d->nd = nd;
  d->ng = ng;
  d->m = nd + ng;
  d->nl = 2 * nd + ng;
  d->N = N;
  d->weak = (flags & VM_DUAL_WEAK_FINAL) != 0;
  d->nz = d->weak ? N * d->m : N * d->m - nd;
  d->order = order;
  d->fn = fn;
  d->ctx = ctx;
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
  if ((st = build_supports (d)) != VM_OK || (st = build_pattern (d)) != VM_OK)
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

/* y[0 .. n-1] += w x[0 .. n-1] (x, y distinct: the node's block and the Hessian's values;
 * unrolled by four, which gcc -O2 vectorizes: 10-20 % of the Hessian's assembly) */
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
 * w (dq a_i + b_i): one multiplication per entry, the same sums to rounding); one Hessian of the
 * dual Lorenz at N = 4096 1.44 -> 1.26 ms (against add_node).  ab: 2 nd doubles. */
#if defined(__GNUC__)
#define VM_ALWAYS_INLINE inline __attribute__ ((always_inline))
#else
#define VM_ALWAYS_INLINE inline
#endif

/* node_run's a and b on the stack up to this many differential duals per node */
#define VM_DUAL_RUN_ND 16

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

/* node_direct with nd a constant for the common sizes (inlined: the compiler unrolls the loops
 * over i; with restrict, a and b need not be reloaded after each store into the Hessian): one
 * Hessian of the dual Lorenz at N = 4096 1.33-1.42 -> 1.27 ms (bench/README_dual.md) */
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
           * of the pattern per column, a load the prefetcher does not see coming (the copy of
           * the dual Lorenz at N = 4096 waited on it for 0.2 of its 0.25 ms) */
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

/* The first column of node k (k <= N; the strong mode's last node has only its ng columns) */
static int64_t
node_column (const vm_dual *d, int64_t k)
{
  return k * d->m < d->nz ? k * d->m : d->nz;
}

/* Where the assembly of the Hessian values stands (eval_hessian): the columns of the nodes before
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
 * from the lower one (ng = 0) and their squares summed (hess_complete).  One pass over the values
 * instead of four (memset, sums, mirror_upper, Newton's sum of squares): the dual Lorenz at
 * N = 2^20 moves 0.68 GB once per Hessian, not about 2.7 GB (bench/README_dual.md). */
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
 * mirror_upper copies it: half the sums, and the matrix exactly symmetric (one Hessian of the
 * dual Lorenz at N = 4096 1.27 -> 1.22 ms: the copy takes most of what the sums save).  Returns
 * VM_OK, VM_ENOMEM, or d->fn's code (d->bad: the first failing node) at the first chunk that
 * fails, whose later nodes are not evaluated. */
static int
eval_hessian (vm_dual *d, double *hval)
{
  const int maxne = d->maxns * d->nd + d->ng, nl = d->nl, ny = d->ny;
  double *dv = malloc ((size_t) (d->maxns + (nl + maxne) * maxne) * sizeof *dv);
  int64_t k0, bad;
  int st = VM_OK;
  hess_front f = { 0, 0, 0.0 };
  if (! dv)
    return VM_ENOMEM;
  for (k0 = 0; k0 < d->N && st == VM_OK; k0 += VM_DUAL_HESS_CHUNK)
    {
      const int64_t len = d->N - k0 < VM_DUAL_HESS_CHUNK ? d->N - k0 : VM_DUAL_HESS_CHUNK;
      bad = -1;
      st = d->fn (d->ctx, len, d->t + k0, d->u + k0 * nl, d->ybar + k0 * ny, d->y + k0 * ny,
                  d->val + k0, d->grad + k0 * nl, d->hess, &bad);
      if (st != VM_OK)
        d->bad = bad >= 0 ? k0 + bad : -1;
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
  st = hval ? eval_hessian (d, hval)
            : d->fn (d->ctx, N, d->t, d->u, d->ybar, d->y, d->val, d->grad, NULL, &d->bad);
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

/* ---- Newton on the gradient, its norms weighted by 1 / H_kk ----------------------------------- */

/* F = grad S and J = its Hessian, with Newton's residual weights rw = 1 / H_kk of the unknown's
 * node (vm_newton_opts.res_weight): the norms of the row-scaled equations, the discrete primal
 * residuals (dual.h), whose Newton steps are the same; J stays symmetric for the Cholesky
 * factorization (option definite) and needs no scaling pass (0.25 ms of a 1.7 ms Hessian of the
 * dual Lorenz at N = 4096). */
typedef struct {
  vm_dual *d;
  double *rw;     /* nz: 1 / H_kk of the unknown's node */
  double *g;
  double ss;      /* Newton's jac_sumsq: the Hessian's sum of squares, made in its sweep */
} solve_ctx;

static int
solve_F (const double *z, double *F, void *vctx)
{
  solve_ctx *c = vctx;
  int st = vm_dual_eval (c->d, z, NULL, F, NULL);
  return st != VM_OK ? -1000 - st : 0;
}

static int
solve_J (const double *z, double *Jx, void *vctx)
{
  solve_ctx *c = vctx;
  int st = vm_dual_eval (c->d, z, NULL, NULL, Jx);   /* the gradient: solve_F's */
  c->ss = c->d->hess_sumsq;
  return st != VM_OK ? -1000 - st : 0;
}

int
vm_dual_solve (vm_dual *d, double *z, double tol, int max_iter, int linsolve,
               vm_newton_info *info)
{
  return vm_dual_solve_ex (d, z, tol, max_iter, linsolve, NULL, NULL, NULL, info);
}

/* rw[j] = 1 / H_kk of unknown j's node k */
static void
row_weights (const vm_dual *d, double *rw)
{
  int64_t k, j;
  int i;
  for (k = 0; k < d->N; k++)
    for (i = 0; i < d->m; i++)
      if ((j = dual_index (d, k, i)) >= 0)
        rw[j] = 1.0 / d->hw[k];
}

/* the larger of the RMS of F (in g0, the gradient at D = 0) and of Dm ybar_d */
static double
base_rms (const vm_dual *d, const double *g0)
{
  const int64_t N = d->N;
  double sf = 0.0, sd = 0.0;
  int64_t k, p;
  int i;
  for (k = 0; k < N; k++)
    for (i = 0; i < d->nd; i++)
      {
        double f = g0[k * d->nl + d->nd + i], dy = 0.0;
        for (p = d->dp[k]; p < d->dp[k + 1]; p++)
          dy += d->dv[p] * d->ybar[d->dj[p] * d->ny + i];
        sf += f * f;
        sd += dy * dy;
      }
  sf = sqrt (sf / (double) (N * d->nd));
  sd = sqrt (sd / (double) (N * d->nd));
  return sf > sd ? sf : sd;
}

/* the scale of the equations, from the problem and not from the guess: the RMS of F and of
 * Dm ybar_d at the base state (the DtP map at D = 0 is ybar); 0 when the base state is outside
 * the domain (or out of memory): the absolute test */
static double
base_scale (const vm_dual *d)
{
  int64_t N = d->N;
  double *u0 = vm_scratch_alloc ((size_t) N * d->nl * sizeof *u0);
  double *y0 = vm_scratch_alloc ((size_t) N * d->ny * sizeof *y0);
  double *v0 = vm_scratch_alloc ((size_t) N * sizeof *v0);
  double *g0 = vm_scratch_alloc ((size_t) N * d->nl * sizeof *g0);
  double r0 = 0.0;
  int64_t bad = -1;
  int st;
  if (! u0 || ! y0 || ! v0 || ! g0)
    st = VM_ENOMEM;
  else
    {
      memset (u0, 0, (size_t) N * d->nl * sizeof *u0);
      memcpy (y0, d->ybar, (size_t) N * d->ny * sizeof *y0);
      st = d->fn (d->ctx, N, d->t, u0, d->ybar, y0, v0, g0, NULL, &bad);
    }
  if (st == VM_OK)
    r0 = base_rms (d, g0);
  vm_scratch_free (u0);
  vm_scratch_free (y0);
  vm_scratch_free (v0);
  vm_scratch_free (g0);
  return st != VM_OK ? 0.0 : r0;
}

/* the rounding level of the equations, about eps |y| / h (Dm has entries 1/h), relative to tol:
 * the test must be reachable on fine grids */
static double
rounding_floor (const vm_dual *d, double tol)
{
  double ymax = 0.0;
  int64_t q;
  int i;
  for (i = 0; i < d->nd; i++)
    if (fabs (d->y0[i]) > ymax)
      ymax = fabs (d->y0[i]);
  for (q = 0; q < d->N * d->ny; q++)
    if (fabs (d->ybar[q]) > ymax)
      ymax = fabs (d->ybar[q]);
  return (tol > 0.0) ? 10.0 * DBL_EPSILON * ymax / (d->op.h * tol) : 0.0;
}

/* Newton's chord steps (newton.h 2') in vm_dual_solve_ex: at most this many per factorization.
 * The dual Lorenz of bench/bench_dual.m (one slab from a base state 2 % off, the time of
 * dual_lorenz, best of 7): N = 1024 12.9 -> 10.5 ms, 4096 47.7 -> 40.0 ms, 16384 239 -> 199 ms
 * with 4 (7 Newton iterations -> 9, of which 4 chord steps: 7 factorizations -> 5); 2, 3 and 5
 * save less (44.5, 44.1, 39.5 ms at 4096); the errors (against ode45) within 2 %; from a base state
 * 3 % off (24-39 iterations) within 1-5 % either way.  The adaptive march (its own Newton,
 * march.c) and slabs of 1-2 iterations do not reach a chord step. */
#define VM_DUAL_REUSE 4

int
vm_dual_solve_ex (vm_dual *d, double *z, double tol, int max_iter, int linsolve,
                  vm_newton_symbolic *sym,
                  void (*on_iter) (void *ctx, int k, double res, double step, int kind,
                                   double factor),
                  void *on_iter_ctx, vm_newton_info *info)
{
  solve_ctx c;
  vm_newton_opts o;
  int st;
  double r0, fl;
  c.d = d;
  c.rw = vm_scratch_alloc ((size_t) d->nz * sizeof *c.rw);
  c.g = vm_scratch_alloc ((size_t) d->nz * sizeof *c.g);
  if (! c.rw || ! c.g)
    {
      vm_scratch_free (c.rw);
      vm_scratch_free (c.g);
      return VM_ENOMEM;
    }
  row_weights (d, c.rw);
  /* the scale of the equations, and never below their rounding level */
  r0 = base_scale (d);
  fl = rounding_floor (d, tol);
  if (fl > r0)
    r0 = fl;
  vm_newton_opts_init (&o);
  o.tol_res = tol;
  o.res_scale = sqrt ((double) d->nz) * (r0 > 1.0 ? r0 : 1.0);
  o.max_iter = max_iter;
  o.linsolve = linsolve;
  o.symbolic = sym;
  o.on_iter = on_iter;
  o.on_iter_ctx = on_iter_ctx;
  o.tol_round = 1.0;        /* the rounding-level test, which chord steps need (newton.h 2') */
  o.reuse = VM_DUAL_REUSE;
  o.res_weight = c.rw;
  o.definite = -1;          /* S is concave where the DtP matrices are definite (dual.h) */
  o.jac_sumsq = &c.ss;
  st = vm_newton_solve ((int) d->nz, d->colptr, d->rowind, solve_F, solve_J, &c, z, &o, info);
  if (st <= -1000)
    st = -st - 1000;
  /* leave the struct's state at the returned iterate */
  if (vm_dual_eval (d, z, NULL, c.g, NULL) != VM_OK && st == VM_OK)
    st = VM_EDTP;
  vm_scratch_free (c.rw);
  vm_scratch_free (c.g);
  return st;
}

void
vm_dual_solve_message (char *msg, size_t n, int st, const vm_dual *d, const vm_newton_info *info)
{
  if (st == VM_EDTP)
    snprintf (msg, n, "%s at t = %g (node %ld)", vm_status_string (st),
              d->bad >= 0 ? d->t[d->bad] : d->t0, (long) d->bad + 1);
  else if (st == VM_OK)
    snprintf (msg, n, "%s", info->message[0] ? info->message : "converged");
  else
    snprintf (msg, n, "%s%s", info->message[0] ? info->message : vm_status_string (st),
              /* what to change: the duals grow with the slab's length and the base state's
               * distance from the solution (doc/dual.md), and Newton fails once they do (a
               * Lorenz system over [0, 1] from the zero base state: one slab fails, 20 converge) */
              st == VM_ENEWTON_MAXIT || st == VM_ENEWTON_STALL
              ? "; use more slabs or a base state closer to the solution" : "");
}

/* ---- the general engine ------------------------------------------------------------------------ */

static int
field_index (const vm_block *b, const char *name)
{
  int f;
  for (f = 0; f < b->nfield; f++)
    if (strcmp (b->field[f].name, name) == 0)
      return f;
  return -1;
}

/* the fields of the VM_ODE_SYSTEM block that ode_evaluate fills, in vm_dual_ode.fslot's order */
static const char *const ode_fields[8] = { "F", "F_y", "F_t", "G", "G_y", "G_t", "wF_yy",
                                           "wG_yy" };

int
vm_dual_ode_set_weights (void *ctx, const double *c)
{
  vm_dual_ode *e = ctx;
  int i;
  if (! e || ! c)
    return VM_EARG;
  for (i = 0; i < e->ny; i++)
    if (! (c[i] > 0.0) || ! isfinite (c[i]))
      return VM_EARG;
  for (i = 0; i < e->ny; i++)
    if (e->c[i] != c[i])
      {
        e->c[i] = c[i];
        e->cr[i] = 1.0 / sqrt (c[i]);
      }
  return VM_OK;
}

int
vm_dual_ode_init (vm_dual_ode *e, vm_ode *o, const double *par, const double *c)
{
  int st, r, i, j, v;
  if (! e)
    return VM_EARG;
  memset (e, 0, sizeof *e);
  if (! o || ! o->g || ! c || (o->np > 0 && ! par))
    return VM_EARG;
  e->ny = o->ny;
  e->nd = o->nd;
  e->ng = o->na;
  e->np = o->np;
  e->tol = 1e-13;
  e->max_iter = 50;
  if (e->nd < 1)
    return VM_EARG;
  e->par = malloc ((size_t) (o->np + 1) * sizeof *e->par);
  e->c = malloc ((size_t) o->ny * sizeof *e->c);
  e->cr = malloc ((size_t) o->ny * sizeof *e->cr);
  if (! e->par || ! e->c || ! e->cr)
    {
      vm_dual_ode_free (e);
      return VM_ENOMEM;
    }
  if (o->np > 0)
    memcpy (e->par, par, (size_t) o->np * sizeof *par);
  memcpy (e->c, c, (size_t) o->ny * sizeof *c);
  for (i = 0; i < o->ny; i++)
    {
      if (! (c[i] > 0.0) || ! isfinite (c[i]))
        {
          vm_dual_ode_free (e);
          return VM_EARG;
        }
      e->cr[i] = 1.0 / sqrt (c[i]);
    }
  /* linear DtP map: no second derivative of F or G depends on y */
  e->linear = 1;
  for (r = 0; r < o->nd + o->na && e->linear; r++)
    {
      int32_t f = r < o->nd ? o->F[r] : o->G[r - o->nd];
      for (i = 0; i < o->ny && e->linear; i++)
        {
          int32_t di = vm_diff (o->g, f, o->vy + i);
          for (j = 0; j <= i && e->linear; j++)
            {
              int32_t dij = vm_diff (o->g, di, o->vy + j);
              if (dij < 0)
                {
                  vm_dual_ode_free (e);
                  return VM_ENOMEM;
                }
              for (v = 0; v < o->ny; v++)
                if (vm_depends (o->g, dij, o->vy + v))
                  {
                    e->linear = 0;
                    break;
                  }
            }
        }
    }
  if ((st = vm_ode_block (o, VM_ODE_SYSTEM, &e->blk)) != VM_OK)
    {
      vm_dual_ode_free (e);
      return st;
    }
  for (i = 0; i < 8; i++)
    e->fslot[i] = field_index (&e->blk, ode_fields[i]);
  e->in = malloc ((size_t) (e->blk.tape.nvar + 1) * sizeof *e->in);
  e->inc = malloc ((size_t) (e->blk.tape.nvar + 1) * sizeof *e->inc);
  if (! e->in || ! e->inc)
    {
      vm_dual_ode_free (e);
      return VM_ENOMEM;
    }
  return VM_OK;
}

void
vm_dual_ode_free (vm_dual_ode *e)
{
  if (! e)
    return;
  vm_block_free (&e->blk);
  free (e->par);
  free (e->c);
  free (e->cr);
  free (e->fF);
  free (e->work);
  free (e->A);
  free (e->piv);
  free ((void *) e->in);
  free (e->inc);
  memset (e, 0, sizeof *e);
}

/* work arrays for npts points */
static int
ode_reserve (vm_dual_ode *e, int64_t npts)
{
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng;
  size_t per, tot;
  if (npts <= e->cap)
    return VM_OK;
  free (e->fF);
  free (e->work);
  free (e->A);
  free (e->piv);
  e->fF = NULL;
  e->work = NULL;
  e->A = NULL;
  e->piv = NULL;
  e->cap = 0;
  /* fields F, F_y, F_t, G, G_y, G_t, wF_yy, wG_yy; then the variable-major inputs t y wF wG */
  per = (size_t) nd + (size_t) nd * ny + nd + ng + (size_t) ng * ny + ng + 2 * (size_t) ny * ny
        + 1 + ny + nd + ng;
  tot = per * (size_t) npts;
  e->fF = malloc ((tot > 0 ? tot : 1) * sizeof *e->fF);
  e->work = malloc ((vm_tape_work_size (&e->blk.tape) + 1) * sizeof *e->work);
  e->A = malloc ((size_t) (ny * ny + ny * nl + nl + 2 * ny + 1) * sizeof *e->A);
  e->piv = malloc ((size_t) (ny + 1) * sizeof *e->piv);
  if (! e->fF || ! e->work || ! e->A || ! e->piv)
    return VM_ENOMEM;
  e->fFy = e->fF + (size_t) nd * npts;
  e->fFt = e->fFy + (size_t) nd * ny * npts;
  e->fG = e->fFt + (size_t) nd * npts;
  e->fGy = e->fG + (size_t) ng * npts;
  e->fGt = e->fGy + (size_t) ng * ny * npts;
  e->fWF = e->fGt + (size_t) ng * npts;
  e->fWG = e->fWF + (size_t) ny * ny * npts;
  e->B = e->A + ny * ny;
  e->X = e->B + ny * nl;
  e->r = e->X + nl;
  e->s = e->r + ny;
  e->cap = npts;
  return VM_OK;
}

static int
ode_evaluate (vm_dual_ode *e, int64_t npts, const double *t, const double *u, const double *y)
{
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng, nvar = e->blk.tape.nvar, v, i;
  int64_t k;
  double *in0 = e->fWG + (size_t) ny * ny * npts;   /* t, y, wF, wG variable-major */
  const double **in = e->in;
  int *inc = e->inc;
  double *fields[8], *dst[8];
  dst[0] = e->fF;
  dst[1] = e->fFy;
  dst[2] = e->fFt;
  dst[3] = e->fG;
  dst[4] = e->fGy;
  dst[5] = e->fGt;
  dst[6] = e->fWF;
  dst[7] = e->fWG;
  memcpy (in0, t, (size_t) npts * sizeof *t);
  for (i = 0; i < ny; i++)
    for (k = 0; k < npts; k++)
      in0[(size_t) (1 + i) * npts + k] = y[k * ny + i];
  for (i = 0; i < nd + ng; i++)
    for (k = 0; k < npts; k++)
      in0[(size_t) (1 + ny + i) * npts + k] = u[k * nl + nd + i];
  /* vm_ode layout: t | y (ny) | p (np) | wF (nd) | wG (ng) */
  for (v = 0; v < nvar; v++)
    {
      if (v == 0)
        {
          in[v] = in0;
          inc[v] = 1;
        }
      else if (v <= ny)
        {
          in[v] = in0 + (size_t) v * npts;
          inc[v] = 1;
        }
      else if (v <= ny + e->np)
        {
          in[v] = e->par + (v - 1 - ny);
          inc[v] = 0;
        }
      else
        {
          in[v] = in0 + (size_t) (1 + ny + (v - 1 - ny - e->np)) * npts;
          inc[v] = 1;
        }
    }
  for (i = 0; i < e->blk.nfield && i < 8; i++)
    fields[i] = NULL;
  for (i = 0; i < 8; i++)
    if (e->fslot[i] >= 0 && e->fslot[i] < 8)
      fields[e->fslot[i]] = dst[i];
  return vm_block_eval (&e->blk, (size_t) npts, in, inc, fields, e->work);
}

/* A (ny x ny) and r (ny) at point k of npts from the evaluated fields; with s != NULL also
 * s_i = the sum of the moduli of r_i's terms (the scale of its rounding, for the DtP test) */
static void
ode_system (const vm_dual_ode *e, int64_t npts, int64_t k, const double *u, const double *ybar,
            const double *y, double *A, double *r, double *s)
{
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng, i, j, a;
  const double *uk = u + k * nl, *yk = y + k * ny, *yb = ybar + k * ny;
  for (i = 0; i < ny; i++)
    {
      double acc = e->c[i] * (yk[i] - yb[i]) - (i < nd ? uk[i] : 0.0);
      double sz = fabs (e->c[i]) * (fabs (yk[i]) + fabs (yb[i])) + (i < nd ? fabs (uk[i]) : 0.0);
      for (a = 0; a < nd; a++)   /* - F_y' D_d */
        {
          double term = e->fFy[k + npts * (a + nd * i)] * uk[nd + a];
          acc -= term;
          sz += fabs (term);
        }
      for (a = 0; a < ng; a++)   /* + G_y' D_a */
        {
          double term = e->fGy[k + npts * (a + ng * i)] * uk[2 * nd + a];
          acc += term;
          sz += fabs (term);
        }
      r[i] = acc;
      if (s)
        s[i] = sz;
      for (j = 0; j < ny; j++)
        A[i * ny + j] = (i == j ? e->c[i] : 0.0) - e->fWF[k + npts * (i + ny * j)]
                        + e->fWG[k + npts * (i + ny * j)];
    }
}

/* One Newton step of the DtP map at every point whose residual is above the tolerance (every
 * point when linear); y is updated in place, *done cleared and *first set to the first point
 * stepped.  VM_OK, or VM_EDTP with *bad (a non-finite residual, a singular A). */
static int
ode_newton_sweep (vm_dual_ode *e, int64_t npts, const double *u, const double *ybar, double *y,
                  int *done, int64_t *first, int64_t *bad)
{
  int ny = e->ny, i;
  int64_t k;
  for (k = 0; k < npts; k++)
    {
      double *A = e->A, *r = e->r, *s = e->s;
      int conv = 1;
      ode_system (e, npts, k, u, ybar, y, A, r, e->linear ? NULL : s);
      for (i = 0; i < ny; i++)
        {
          if (! isfinite (r[i]))
            {
              *bad = k;
              return VM_EDTP;
            }
          /* each residual relative to the size of its own terms: with 1e-13 (1 + max_i |c_i
           * y_i|), a state much smaller than the others (a velocity in units of 1e-6 s) was
           * solved to a fraction of its size only, and dual_solve stalled (linear: one step,
           * no test) */
          if (! e->linear && ! (fabs (r[i]) <= e->tol * s[i]))
            conv = 0;
        }
      if (! e->linear && conv)
        continue;
      *done = 0;
      if (*first < 0)
        *first = k;
      if (dtp_factor (A, ny, e->piv, e->cr))
        {
          *bad = k;
          return VM_EDTP;
        }
      dtp_solve (A, ny, e->piv, e->cr, r);
      for (i = 0; i < ny; i++)
        y[k * ny + i] -= r[i];
    }
  return VM_OK;
}

/* y = y^H, the DtP map, by Newton's method at all points (one step when linear); the fields are
 * left evaluated at y^H.  VM_OK, VM_EDTP with *bad, or an evaluation error. */
static int
ode_dtp (vm_dual_ode *e, int64_t npts, const double *t, const double *u, const double *ybar,
         double *y, int64_t *bad)
{
  int it, st;
  for (it = 0;; it++)
    {
      int done = 1;
      int64_t first = -1;
      if ((st = ode_evaluate (e, npts, t, u, y)) != VM_OK)
        return st;
      if (e->linear && it == 1)
        break;
      if ((st = ode_newton_sweep (e, npts, u, ybar, y, &done, &first, bad)) != VM_OK)
        return st;
      e->dtp_iters++;
      if (done)
        break;
      if (it >= e->max_iter)
        {
          *bad = first;
          return VM_EDTP;
        }
    }
  return VM_OK;
}

/* LL = L_H(y^H) at point k (returned) and its gradient (-y_d, -F, G) into grad + k nl */
static double
ode_point_value (const vm_dual_ode *e, int64_t npts, int64_t k, const double *u,
                 const double *ybar, const double *y, double *grad)
{
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng, i, a;
  const double *uk = u + k * nl, *yk = y + k * ny, *yb = ybar + k * ny;
  double L = 0.0;
  double *gk = grad + k * nl;
  for (i = 0; i < nd; i++)
    {
      double F = e->fF[k + npts * i];
      L -= uk[i] * yk[i] + uk[nd + i] * F;
      gk[i] = -yk[i];
      gk[nd + i] = -F;
    }
  for (a = 0; a < ng; a++)
    {
      double G = e->fG[k + npts * a];
      L += uk[2 * nd + a] * G;
      gk[2 * nd + a] = G;
    }
  for (i = 0; i < ny; i++)
    L += 0.5 * e->c[i] * (yk[i] - yb[i]) * (yk[i] - yb[i]);
  return L;
}

/* B = dr/du = [-E_d, -F_y', G_y'] (ny x nl, row-major) at point k */
static void
ode_dr_du (const vm_dual_ode *e, int64_t npts, int64_t k, double *B)
{
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng, i, j, a;
  for (i = 0; i < ny; i++)
    {
      for (j = 0; j < nd; j++)
        B[i * nl + j] = i == j ? -1.0 : 0.0;
      for (a = 0; a < nd; a++)
        B[i * nl + nd + a] = -e->fFy[k + npts * (a + nd * i)];
      for (a = 0; a < ng; a++)
        B[i * nl + 2 * nd + a] = e->fGy[k + npts * (a + ng * i)];
    }
}

/* H (nl x nl) = -B' A^{-1} B at point k, exactly symmetric; 1 when A is singular, else 0 */
static int
ode_point_hess (vm_dual_ode *e, int64_t npts, int64_t k, const double *u, const double *ybar,
                const double *y, double *H)
{
  int ny = e->ny, nl = 2 * e->nd + e->ng, i, j;
  double *A = e->A, *B = e->B, *r = e->r;
  ode_system (e, npts, k, u, ybar, y, A, r, NULL);
  if (dtp_factor (A, ny, e->piv, e->cr))
    return 1;
  ode_dr_du (e, npts, k, B);
  /* H = -B' A^{-1} B, column by column of B */
  for (j = 0; j < nl; j++)
    {
      double *x = r;   /* ny scratch */
      int q;
      for (i = 0; i < ny; i++)
        x[i] = B[i * nl + j];
      dtp_solve (A, ny, e->piv, e->cr, x);
      for (q = 0; q < nl; q++)
        {
          double acc = 0.0;
          for (i = 0; i < ny; i++)
            acc += B[i * nl + q] * x[i];
          H[q * nl + j] = -acc;
        }
    }
  for (i = 0; i < nl; i++)   /* exact symmetry */
    for (j = 0; j < i; j++)
      {
        double s = 0.5 * (H[i * nl + j] + H[j * nl + i]);
        H[i * nl + j] = H[j * nl + i] = s;
      }
  return 0;
}

int
vm_dual_ode_node (void *ctx, int64_t npts, const double *t, const double *u, const double *ybar,
                  double *y, double *val, double *grad, double *hess, int64_t *bad)
{
  vm_dual_ode *e = ctx;
  int nl = 2 * e->nd + e->ng, st;
  int64_t k;
  if ((st = ode_reserve (e, npts)) != VM_OK)
    return st;
  if ((st = ode_dtp (e, npts, t, u, ybar, y, bad)) != VM_OK)
    return st;
  /* values at y^H */
  for (k = 0; k < npts; k++)
    {
      double L = ode_point_value (e, npts, k, u, ybar, y, grad);
      val[k] = L;
      if (! isfinite (L))
        {
          *bad = k;
          return VM_EDTP;
        }
      if (hess && ode_point_hess (e, npts, k, u, ybar, y, hess + k * nl * nl))
        {
          *bad = k;
          return VM_EDTP;
        }
    }
  return VM_OK;
}

int
vm_dual_ode_rhs (void *ctx, int64_t npts, const double *t, const double *y, double *F)
{
  vm_dual_ode *e = ctx;
  int nd, nl, i, st;
  int64_t k;
  double *u;
  if (! e || ! t || ! y || ! F || npts < 0)
    return VM_EARG;
  if (npts == 0)
    return VM_OK;
  nd = e->nd;
  nl = 2 * nd + e->ng;
  if ((st = ode_reserve (e, npts)) != VM_OK)
    return st;
  u = calloc ((size_t) npts * nl, sizeof *u);   /* the weights of the second derivatives: 0 */
  if (! u)
    return VM_ENOMEM;
  st = ode_evaluate (e, npts, t, u, y);
  free (u);
  if (st != VM_OK)
    return st;
  for (k = 0; k < npts; k++)
    for (i = 0; i < nd; i++)
      F[k * nd + i] = e->fF[k + npts * i];
  return VM_OK;
}

int
vm_dual_ode_jac (void *ctx, double t, const double *y, double *F, double *Fy)
{
  vm_dual_ode *e = ctx;
  int nd, ny, i, st;
  double *u;
  if (! e || ! y || ! F)
    return VM_EARG;
  nd = e->nd;
  ny = e->ny;
  if ((st = ode_reserve (e, 1)) != VM_OK)
    return st;
  u = calloc ((size_t) (2 * nd + e->ng), sizeof *u);
  if (! u)
    return VM_ENOMEM;
  st = ode_evaluate (e, 1, &t, u, y);
  free (u);
  if (st != VM_OK)
    return st;
  memcpy (F, e->fF, (size_t) nd * sizeof *F);
  if (Fy)
    for (i = 0; i < nd * ny; i++)
      Fy[i] = e->fFy[i];
  return VM_OK;
}

int
vm_dual_ode_algebraic (void *ctx, double t, double *y)
{
  vm_dual_ode *e = ctx;
  int nd, na, i, j, it, st = VM_ENEWTON_MAXIT, *piv;
  double *u, *J, *dya, *y1;
  if (! e || ! y)
    return VM_EARG;
  nd = e->nd;
  na = e->ny - nd;
  if (na == 0)
    return VM_OK;
  if (e->ng != na)
    return VM_EARG;
  if ((st = ode_reserve (e, 1)) != VM_OK)
    return st;
  u = calloc ((size_t) (2 * nd + e->ng), sizeof *u);   /* no second derivatives needed */
  J = malloc ((size_t) na * na * sizeof *J);
  dya = malloc ((size_t) na * sizeof *dya);
  y1 = malloc ((size_t) e->ny * sizeof *y1);
  piv = malloc ((size_t) na * sizeof *piv);
  st = (u && J && dya && y1 && piv) ? VM_ENEWTON_MAXIT : VM_ENOMEM;
  if (st != VM_ENOMEM)
    memcpy (y1, y, (size_t) e->ny * sizeof *y1);
  for (it = 0; it < VM_DUAL_ALG_MAXIT && st == VM_ENEWTON_MAXIT; it++)
    {
      double step = 0.0, size = 0.0;
      int ev = ode_evaluate (e, 1, &t, u, y1);
      if (ev != VM_OK)
        {
          st = ev;
          break;
        }
      for (i = 0; i < na; i++)   /* J(i, j) = dG_i / dya_j (fGy: point, then equation, then state) */
        {
          dya[i] = -e->fG[i];
          for (j = 0; j < na; j++)
            J[i * na + j] = e->fGy[i + na * (nd + j)];
        }
      if (vm_dense_lu (na, J, piv, 0.0) != 0)
        {
          st = VM_ESINGULAR;
          break;
        }
      vm_dense_lu_solve (na, J, piv, dya);
      for (i = 0; i < na; i++)
        {
          y1[nd + i] += dya[i];
          step = fmax (step, fabs (dya[i]));
          size = fmax (size, fabs (y1[nd + i]));
        }
      if (! isfinite (step))
        st = VM_ENONFINITE;
      else if (step <= VM_DUAL_ALG_TOL * (1.0 + size))
        st = VM_OK;
    }
  if (st == VM_OK)
    memcpy (y, y1, (size_t) e->ny * sizeof *y);
  free (u);
  free (J);
  free (dya);
  free (y1);
  free (piv);
  return st;
}
