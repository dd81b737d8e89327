/* skg_plan.c -- the Hessian scatter plan of the discrete SKG action (skg_plan.h): where
 * each contribution of a point term's Hessian at a node lands in a target sparse matrix (the full
 * Hessian, or skg_solve's reduced Jacobian), as one table for the regular nodes and explicit
 * slots for the SBP closure nodes and the boundary term.  Built once per pattern; the evaluation
 * (skg_eval.c, hess_point) follows it without a search. */
#include "skg/skg_plan.h"
#include "skg/skg_terms.h"
#include "base/vm_csc.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <stdlib.h>
#include <string.h>

/* slot of (row, col) in the target pattern, or -1 */
static int64_t
find_slot (const vm_skg_plan *p, int64_t row, int64_t col)
{
  if (row < 0 || col < 0 || row >= p->nt || col >= p->nt)
    return -1;
  return vm_csc_find (p->tri, p->tcp[col], p->tcp[col + 1], row);
}

/* Number of contributions of a point term (its entries t) at node k. */
static int64_t
count_con (const vm_skg *s, int64_t k, const skg_entries *t)
{
  int64_t cnt = 0, dl = s->dsp[k + 1] - s->dsp[k];
  int e;
  for (e = 0; e < t->nh; e++)
    cnt += (is_vel (s, t->hr[e]) ? dl : 1) * (is_vel (s, t->hc[e]) ? dl : 1);
  return cnt;
}

/* Explicit slots (2 per contribution: direct, transposed; -1: none) of a point term at node k, in
 * the order of hess_point: entries e of t, then a over the support of hr[e], b over that of hc[e].
 * With rows != NULL, also the target rows (relative to k tb) and columns (absolute). */
static void
con_slots (const vm_skg *s, const vm_skg_plan *p, int64_t k, const skg_entries *t, int64_t *slot,
           int64_t *rows, int64_t *cols)
{
  const int nh = t->nh, *hr = t->hr, *hc = t->hc;
  int e, nb = s->nb;
  int64_t idx = 0, kb1, kb2, l1, l2, a, b, kt = k * p->tb;
  double o1, o2;
  const int64_t *j1, *j2;
  const double *v1, *v2;
  for (e = 0; e < nh; e++)
    {
      int r1 = hr[e], r2 = hc[e], c1 = zcomp (s, r1), c2 = zcomp (s, r2);
      support (s, r1, k, &j1, &v1, &l1, &kb1, &o1);
      support (s, r2, k, &j2, &v2, &l2, &kb2, &o2);
      for (a = 0; a < l1; a++)
        for (b = 0; b < l2; b++, idx++)
          {
            int64_t rw1 = -1, cl1 = -1, rw2 = -1, cl2 = -1;
            (void) nb;
            if (p->rc[c1] >= 0 && p->cc[c2] >= 0)
              {
                rw1 = j1[a] * p->tb + p->rc[c1];
                cl1 = j2[b] * p->tb + p->cc[c2];
              }
            if (r1 != r2 && p->rc[c2] >= 0 && p->cc[c1] >= 0)
              {
                rw2 = j2[b] * p->tb + p->rc[c2];
                cl2 = j1[a] * p->tb + p->cc[c1];
              }
            slot[2 * idx] = rw1 >= 0 ? find_slot (p, rw1, cl1) : -1;
            slot[2 * idx + 1] = rw2 >= 0 ? find_slot (p, rw2, cl2) : -1;
            if (rows)
              {
                rows[2 * idx] = rw1 - kt;
                rows[2 * idx + 1] = rw2 - kt;
                cols[2 * idx] = cl1;
                cols[2 * idx + 1] = cl2;
              }
          }
    }
}

void
vm_skg_plan_free (vm_skg_plan *p)
{
  if (! p)
    return;
  free (p->rc);
  free (p->cc);
  free (p->eskip);
  free (p->dref);
  free (p->rel1);
  free (p->off1);
  free (p->rel2);
  free (p->off2);
  free (p->row1);
  free (p->row2);
  vm_scratch_free (p->xstart);
  free (p->xslot);
  free (p->bslot);
  free (p->edyn);
  free (p->estat);
  free (p->tmpl);
  memset (p, 0, sizeof *p);
}

/* 1 when node k has the reference node's Ds stencil (shifted) and every contribution is where the
 * reference table puts it. */
static int
node_regular (const vm_skg *s, const vm_skg_plan *p, int64_t k)
{
  int64_t a, idx, kt = k * p->tb;
  if (s->dsp[k + 1] - s->dsp[k] != p->lref)
    return 0;
  for (a = 0; a < p->lref; a++)
    if (s->dsj[s->dsp[k] + a] - k != p->dref[a])
      return 0;
  for (idx = 0; idx < p->ncon; idx++)
    {
      int t;
      for (t = 0; t < 2; t++)
        {
          const int64_t rel = t ? p->rel2[idx] : p->rel1[idx], off = t ? p->off2[idx] : p->off1[idx];
          const int64_t row = (t ? p->row2[idx] : p->row1[idx]) + kt, col = kt + rel;
          if (off == -2)
            continue;                       /* not a target row/column at any node */
          if (off == -1)
            {
              if (find_slot (p, row, col) >= 0)
                return 0;
              continue;
            }
          if (col < 0 || col >= p->nt || p->tcp[col] + off >= p->tcp[col + 1]
              || p->tri[p->tcp[col] + off] != row)
            return 0;
        }
    }
  return 1;
}

/* The target's component maps (p->rc, p->cc: -1 for a component the target drops) and the point
 * Hessian entries no target entry receives (p->eskip).  VM_OK, VM_EARG or VM_ENOMEM. */
static int
plan_components (const vm_skg *s, int tb, const int *rowc, const int *colc, vm_skg_plan *p)
{
  const skg_entries t = term_entries (s, p);
  const int nh = t.nh, *hr = t.hr, *hc = t.hc;
  int c, e;
  p->rc = malloc ((size_t) s->nb * sizeof *p->rc);
  p->cc = malloc ((size_t) s->nb * sizeof *p->cc);
  p->eskip = malloc ((size_t) (nh > 0 ? nh : 1));
  if (! p->rc || ! p->cc || ! p->eskip)
    return VM_ENOMEM;
  for (c = 0; c < s->nb; c++)
    {
      if (rowc[c] >= tb || colc[c] >= tb)
        return VM_EARG;
      p->rc[c] = rowc[c] >= 0 ? rowc[c] : -1;
      p->cc[c] = colc[c] >= 0 ? colc[c] : -1;
    }
  for (e = 0; e < nh; e++)
    {
      int c1 = zcomp (s, hr[e]), c2 = zcomp (s, hc[e]);
      int direct = p->rc[c1] >= 0 && p->cc[c2] >= 0;
      int transp = hr[e] != hc[e] && p->rc[c2] >= 0 && p->cc[c1] >= 0;
      p->eskip[e] = (unsigned char) ! (direct || transp);
    }
  return VM_OK;
}

/* The reference node's table (p->kref = N/2): its stencil p->dref, and per contribution the
 * target rows and the column offsets and slot offsets relative to node kref (p->rel*, off*,
 * row*), from con_slots' slots, rows and cols (scratch of 2 nmax + 2 entries each). */
static void
ref_table (const vm_skg *s, vm_skg_plan *p, int64_t *slot, int64_t *rows, int64_t *cols)
{
  int64_t k, idx;
  const skg_entries te = term_entries (s, p);
  int t;
  for (k = 0; k < p->lref; k++)
    p->dref[k] = s->dsj[s->dsp[p->kref] + k] - p->kref;
  con_slots (s, p, p->kref, &te, slot, rows, cols);
  for (idx = 0; idx < p->ncon; idx++)
    for (t = 0; t < 2; t++)
      {
        const int64_t sl = slot[2 * idx + t], cl = cols[2 * idx + t];
        int64_t *rel = t ? p->rel2 : p->rel1, *off = t ? p->off2 : p->off1;
        int64_t *row = t ? p->row2 : p->row1;
        row[idx] = rows[2 * idx + t];
        if (cl < 0)
          {
            rel[idx] = 0;
            off[idx] = -2;
          }
        else
          {
            rel[idx] = cl - p->kref * p->tb;
            off[idx] = sl >= 0 ? sl - p->tcp[cl] : -1;
          }
      }
}

/* Explicit slots for the nodes that do not follow the reference node (p->xstart, p->xslot) and
 * for the boundary terms (p->nbcon, p->bslot).  VM_OK or VM_ENOMEM. */
static int
irregular_slots (const vm_skg *s, vm_skg_plan *p)
{
  int64_t N = s->N, k, nx = 0;
  const skg_entries t = term_entries (s, p), tb = boundary_entries (s);
  for (k = 0; k < N; k++)
    if (k != p->kref && ! node_regular (s, p, k))
      {
        p->xstart[k] = nx;
        nx += 2 * count_con (s, k, &t);
        p->nirregular++;
      }
    else
      p->xstart[k] = -1;
  p->nbcon[0] = count_con (s, 0, &tb);
  p->nbcon[1] = count_con (s, N - 1, &tb);
  p->xslot = malloc ((size_t) (nx > 0 ? nx : 1) * sizeof *p->xslot);
  p->bslot = malloc ((size_t) (2 * (p->nbcon[0] + p->nbcon[1]) + 1) * sizeof *p->bslot);
  if (! p->xslot || ! p->bslot)
    return VM_ENOMEM;
  for (k = 0; k < N; k++)
    if (p->xstart[k] >= 0)
      con_slots (s, p, k, &t, p->xslot + p->xstart[k], NULL, NULL);
  con_slots (s, p, 0, &tb, p->bslot, NULL, NULL);
  con_slots (s, p, N - 1, &tb, p->bslot + 2 * p->nbcon[0], NULL, NULL);
  return VM_OK;
}

int
vm_skg_plan_build (const vm_skg *s, int term, const vm_skg_target *t, vm_skg_plan *p)
{
  int64_t N, k, *slot = NULL, *rows = NULL, *cols = NULL, nmax;
  size_t nc;
  int st;
  skg_entries te;
  if (! p)
    return VM_EARG;
  memset (p, 0, sizeof *p);
  if (! s || ! s->g || ! t || t->tb < 1 || ! t->rowc || ! t->colc || ! t->tcp
      || t->nt != s->N * t->tb
      || (term != VM_SKG_TERM_FULL && term != VM_SKG_TERM_REDUCED)
      || (term == VM_SKG_TERM_REDUCED && ! s->tr_ok))
    return VM_EARG;
  N = s->N;
  p->term = term;
  p->tmpl_window = -1;
  te = term_entries (s, p);
  p->tb = t->tb;
  p->nt = t->nt;
  p->tcp = t->tcp;
  p->tri = t->tri;
  if ((st = plan_components (s, t->tb, t->rowc, t->colc, p)) != VM_OK)
    goto fail;
  /* the reference node and its table */
  p->kref = N / 2;
  p->lref = s->dsp[p->kref + 1] - s->dsp[p->kref];
  p->ncon = count_con (s, p->kref, &te);
  nmax = p->ncon;
  for (k = 0; k < N; k++)
    {
      int64_t cn = count_con (s, k, &te);
      if (cn > nmax)
        nmax = cn;
    }
  nmax = nmax > s->nhb * 64 ? nmax : s->nhb * 64;   /* also room for the boundary term */
  nc = (size_t) (p->ncon > 0 ? p->ncon : 1);
  st = VM_ENOMEM;
  p->dref = malloc ((size_t) (p->lref > 0 ? p->lref : 1) * sizeof *p->dref);
  p->rel1 = malloc (nc * sizeof (int64_t));
  p->off1 = malloc (nc * sizeof (int64_t));
  p->rel2 = malloc (nc * sizeof (int64_t));
  p->off2 = malloc (nc * sizeof (int64_t));
  p->row1 = malloc (nc * sizeof (int64_t));
  p->row2 = malloc (nc * sizeof (int64_t));
  p->xstart = vm_scratch_alloc ((size_t) N * sizeof *p->xstart);
  slot = malloc ((size_t) (2 * nmax + 2) * sizeof *slot);
  rows = malloc ((size_t) (2 * nmax + 2) * sizeof *rows);
  cols = malloc ((size_t) (2 * nmax + 2) * sizeof *cols);
  if (! p->dref || ! p->rel1 || ! p->off1 || ! p->rel2 || ! p->off2 || ! p->row1 || ! p->row2
      || ! p->xstart || ! slot || ! rows || ! cols)
    goto fail;
  ref_table (s, p, slot, rows, cols);
  st = irregular_slots (s, p);
fail:
  free (slot);
  free (rows);
  free (cols);
  if (st != VM_OK)
    vm_skg_plan_free (p);
  return st;
}
