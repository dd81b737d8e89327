/* dual_pattern.c -- the Hessian pattern of the discrete dual action and the tables of its
 * assembly (dual.h, dual_impl.h).
 *
 * Takes a vm_dual whose operator (dp, dj) is set; builds every node's support, the pattern of the
 * Hessian of S (CSC, both triangles, sorted rows) and the look-up tables of the assembly (rowbase,
 * upper_run, bp, boff, maxns, regular, hess_lag).  Errors: VM_ENOMEM, VM_EARG (a row of Dm wider
 * than a support can hold).  Cost: O(nnz) time and memory, once per vm_dual_init (vm_dual_move
 * keeps the pattern).  Why column by column and node by node: a global sort of the nnz entries
 * costs more than the rest of the set-up together.
 */
#include <stdlib.h>
#include <string.h>

#include "base/vm_scratch.h"
#include "base/vm_status.h"
#include "dual/dual_impl.h"


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

/* The work of build_pattern (freed at its end). */
typedef struct
{
  int64_t *icp, *inc;          /* inverse incidence: the nodes inc[icp[s] .. icp[s+1]-1] have s
                                  in their support */
  int64_t *mark, *fill;        /* nz row tags; N fill positions into inc */
  int64_t *ep, *e;             /* node k's expanded variables as global indices: e + ep[k] */
} pattern_ws;

/* The rows of a column of the Hessian, unsorted, into rows (NULL: count only); returns their
 * number.  The column of D_d at node s (dd nonzero) couples the expanded variables of the nodes
 * whose support holds s (w->inc[w->icp[s] .. w->icp[s+1]-1]), that of D_a at s those of s;
 * w->e + w->ep[k]: node k's expanded variables as global indices.  w->mark (nz): rows already
 * seen carry tag. */
static int64_t
column_rows (const pattern_ws *w, int64_t s, int dd, int64_t tag, int64_t *rows)
{
  const int64_t q0 = dd ? w->icp[s] : 0, q1 = dd ? w->icp[s + 1] : 1;
  int64_t q, x, cnt = 0;
  for (q = q0; q < q1; q++)
    {
      const int64_t kk = dd ? w->inc[q] : s;
      for (x = w->ep[kk]; x < w->ep[kk + 1]; x++)
        {
          const int64_t r = w->e[x];
          if (r < 0 || w->mark[r] == tag)
            continue;
          w->mark[r] = tag;
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
  cnt = column_rows (w, node, comp < nd, j + pass * d->nz, pass ? d->rowind + d->colptr[j] : NULL);
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
 * (pattern_nodes, m^2 times fewer marks), over the expanded variables with them
 * (pattern_columns).  Then the columns' bases
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

int
vm_dual_build_pattern (vm_dual *d)
{
  int st = build_supports (d);
  return st == VM_OK ? build_pattern (d) : st;
}
