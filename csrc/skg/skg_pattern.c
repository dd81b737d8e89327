/* skg_pattern.c -- the sparsity pattern of the discrete SKG action's Hessian (skg_pattern.h), or
 * of a block of it in another numbering of the unknowns (the reduced Jacobian of skg_solve.c),
 * built column by column from the SBP stencil and the structural couplings of the density:
 * O(nnz) work and memory, no sort of all entries, no full pattern on the way to a block of it. */
#include "skg/skg_pattern.h"
#include "skg/skg_terms.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <stdlib.h>
#include <string.h>

/* Component mask: bit 2 t1 + t2 of mask[c1 * nb + c2] is set when a point Hessian entry couples
 * z-component c1 through a variable of type t1 (0 = identity, 1 = Ds) with c2 through type t2. */
static unsigned char *
component_mask (const vm_skg *s)
{
  int nb = s->nb, t, e;
  unsigned char *mask = calloc ((size_t) nb * nb, 1);
  if (! mask)
    return NULL;
  for (t = 0; t < 2; t++)
    {
      int nh = t ? s->nhb : s->nhs;
      const int *hr = t ? s->hbr : s->hsr, *hc = t ? s->hbc : s->hsc;
      for (e = 0; e < nh; e++)
        {
          int r = hr[e], c = hc[e];
          int tr = is_vel (s, r), tc = is_vel (s, c);
          mask[zcomp (s, r) * nb + zcomp (s, c)] |= (unsigned char) (1u << (2 * tr + tc));
          mask[zcomp (s, c) * nb + zcomp (s, r)] |= (unsigned char) (1u << (2 * tc + tr));
        }
    }
  return mask;
}

/* vm_skg_pattern's work: Ds by columns, the nodes a column of the Hessian touches and how, and
 * per target column component the target row components coupled to it. */
typedef struct
{
  int tb;                    /* target unknowns per node */
  unsigned char *tmask;      /* N: per node, how column node j2 reaches it (bits 1, 2, 4, 8) */
  int64_t *dcp, *dci;        /* Ds by columns: rows dci[dcp[j] .. dcp[j+1]-1] (ascending) */
  int64_t *nodes, nnodes;    /* the nodes of the current column (sorted), and their number */
  int *rlist, *rcnt;         /* tb x tb, tb: per target column component t2, the target row
                                components t1 coupled to it (ascending) ... */
  unsigned char *rbits;      /* tb x tb: ... and how (component_mask's bits of the pair) */
  int *tcnt, *tlist;         /* per t2 and tmask value m (16 tb): the rows l of rlist with
                                rbits & m, their number and (16 tb tb) the components rl[l] */
} pat_ws;

/* Ds by columns into w->dcp, w->dci (fill: N scratch). */
static void
ds_columns (const vm_skg *s, pat_ws *w, int64_t *fill)
{
  int64_t N = s->N, nnzd = s->dsp[N], j2, e, k;
  for (e = 0; e < nnzd; e++)
    w->dcp[s->dsj[e] + 1]++;
  for (j2 = 0; j2 < N; j2++)
    {
      w->dcp[j2 + 1] += w->dcp[j2];
      fill[j2] = w->dcp[j2];
    }
  for (k = 0; k < N; k++)
    for (e = s->dsp[k]; e < s->dsp[k + 1]; e++)
      w->dci[fill[s->dsj[e]]++] = k;
}

/* The node list's size: at most 1 + |col| + |row| + sum over k in col of |row k| nodes. */
static int64_t
max_nodes (const vm_skg *s, const pat_ws *w)
{
  int64_t maxn = 1, j2, e;
  for (j2 = 0; j2 < s->N; j2++)
    {
      int64_t m = 1 + (w->dcp[j2 + 1] - w->dcp[j2]) + (s->dsp[j2 + 1] - s->dsp[j2]);
      for (e = w->dcp[j2]; e < w->dcp[j2 + 1]; e++)
        m += s->dsp[w->dci[e] + 1] - s->dsp[w->dci[e]];
      if (m > maxn)
        maxn = m;
    }
  return maxn;
}

/* The nodes j1 that node j2's columns reach, sorted, in w->nodes, with how in w->tmask: bit 1
 * j1 = j2, 2 Ds(j1, j2) != 0, 4 Ds(j2, j1) != 0, 8 Ds(k, j1) Ds(k, j2) != 0 for some k. */
static void
column_nodes (const vm_skg *s, pat_ws *w, int64_t j2, int sort)
{
  int64_t e, a, k, i, q;
#define MARK(j, bit) do { if (! w->tmask[j]) w->nodes[w->nnodes++] = (j); w->tmask[j] |= (unsigned char) (bit); } while (0)
  w->nnodes = 0;
  MARK (j2, 1);
  for (e = w->dcp[j2]; e < w->dcp[j2 + 1]; e++)
    {
      k = w->dci[e];
      MARK (k, 2);
      for (a = s->dsp[k]; a < s->dsp[k + 1]; a++)
        MARK (s->dsj[a], 8);
    }
  for (a = s->dsp[j2]; a < s->dsp[j2 + 1]; a++)
    MARK (s->dsj[a], 4);
#undef MARK
  for (i = 1; i < w->nnodes && sort; i++)  /* insertion sort: a stencil's worth of nodes */
    {
      int64_t v = w->nodes[i];
      for (q = i; q > 0 && w->nodes[q - 1] > v; q--)
        w->nodes[q] = w->nodes[q - 1];
      w->nodes[q] = v;
    }
}

/* w->tcnt, w->tlist from w->rlist, w->rcnt, w->rbits: for each target column component t2 and
 * each value m of a node's tmask, the row components coupled through one of m's ways (in rlist's
 * ascending order). */
static void
mask_tables (pat_ws *w)
{
  int tb = w->tb, t2, m, l;
  for (t2 = 0; t2 < tb; t2++)
    for (m = 0; m < 16; m++)
      {
        int *cnt = w->tcnt + t2 * 16 + m, *lst = w->tlist + (size_t) (t2 * 16 + m) * tb;
        *cnt = 0;
        for (l = 0; l < w->rcnt[t2]; l++)
          if (w->rbits[t2 * tb + l] & m)
            lst[(*cnt)++] = w->rlist[t2 * tb + l];
      }
}

/* One pass over the target columns: pass 0 counts (colptr; the nodes need no sorting for it),
 * pass 1 writes rowind.  The count. */
static int64_t
pattern_pass (const vm_skg *s, pat_ws *w, int pass, int64_t *colptr, int64_t *rowind)
{
  int tb = w->tb, t2, l;
  int64_t pos = 0, j2, i;
  for (j2 = 0; j2 < s->N; j2++)
    {
      column_nodes (s, w, j2, pass);
      for (t2 = 0; t2 < tb; t2++)
        {
          const int *cnt = w->tcnt + t2 * 16;
          if (! pass)
            {
              for (i = 0; i < w->nnodes; i++)
                pos += cnt[w->tmask[w->nodes[i]]];
              colptr[j2 * tb + t2 + 1] = pos;
              continue;
            }
          for (i = 0; i < w->nnodes; i++)
            {
              const int tm = w->tmask[w->nodes[i]];
              const int *lst = w->tlist + (size_t) (t2 * 16 + tm) * tb;
              const int64_t base = w->nodes[i] * tb;
              for (l = 0; l < cnt[tm]; l++)
                rowind[pos++] = base + lst[l];
            }
        }
      for (i = 0; i < w->nnodes; i++)
        w->tmask[w->nodes[i]] = 0;
    }
  return pos;
}

/* The inverse of a component map (inv[t] = c with map[c] = t, or -1), 0 when map is one (every
 * entry -1 or in 0 .. tb-1, no target component twice), -1 otherwise. */
static int
invert_map (int nb, int tb, const int *map, int *inv)
{
  int c;
  for (c = 0; c < tb; c++)
    inv[c] = -1;
  for (c = 0; c < nb; c++)
    {
      if (map[c] < -1 || map[c] >= tb || (map[c] >= 0 && inv[map[c]] >= 0))
        return -1;
      if (map[c] >= 0)
        inv[map[c]] = c;
    }
  return 0;
}

/* w->rlist, w->rcnt, w->rbits from the component mask and the maps (VM_EARG for a bad map). */
static int
target_couplings (const vm_skg *s, pat_ws *w, const int *rowc, const int *colc)
{
  int nb = s->nb, tb = w->tb, t1, t2, st = VM_ENOMEM;
  unsigned char *mask = component_mask (s);
  int *rinv = malloc ((size_t) tb * sizeof *rinv), *cinv = malloc ((size_t) tb * sizeof *cinv);
  if (mask && rinv && cinv)
    {
      st = VM_EARG;
      if (invert_map (nb, tb, rowc, rinv) == 0 && invert_map (nb, tb, colc, cinv) == 0)
        {
          for (t2 = 0; t2 < tb; t2++)
            for (t1 = 0; t1 < tb && cinv[t2] >= 0; t1++)
              if (rinv[t1] >= 0 && mask[rinv[t1] * nb + cinv[t2]])
                {
                  w->rlist[t2 * tb + w->rcnt[t2]] = t1;
                  w->rbits[t2 * tb + w->rcnt[t2]++] = mask[rinv[t1] * nb + cinv[t2]];
                }
          st = VM_OK;
        }
    }
  free (mask);
  free (rinv);
  free (cinv);
  return st;
}

static void
pat_ws_free (pat_ws *w)
{
  vm_scratch_free (w->tmask);
  vm_scratch_free (w->dcp);
  vm_scratch_free (w->dci);
  free (w->nodes);
  free (w->rlist);
  free (w->rcnt);
  free (w->rbits);
  free (w->tcnt);
  free (w->tlist);
}

/* The pattern column by column, without sorting all entries: for column node j2 the nodes j1
 * coupled to it by each type (0: j1 = j2; 1: Ds(j1, j2) != 0; 2: Ds(j2, j1) != 0; 3: Ds(k, j1)
 * Ds(k, j2) != 0 for some k) are marked in tmask (a few nodes: the stencil), sorted, and the rows
 * j1 tb + t1 of column j2 tb + t2 follow from the component mask.  Two passes (count, fill). */
int
vm_skg_pattern (const vm_skg *s, int tb, const int *rowc, const int *colc, int64_t **colptr,
                int64_t **rowind, int64_t *nnz)
{
  int64_t N, nnzd, *fill = NULL;
  int st = VM_ENOMEM;
  pat_ws w;
  if (colptr)
    *colptr = NULL;
  if (rowind)
    *rowind = NULL;
  if (! s || ! s->dsp || tb < 1 || ! rowc || ! colc || ! colptr || ! rowind || ! nnz)
    return VM_EARG;
  N = s->N;
  nnzd = s->dsp[N];
  memset (&w, 0, sizeof w);
  w.tb = tb;
  /* the arrays of N entries and more from vm_scratch.h (huge pages from 2 MB on) */
  w.dcp = vm_scratch_alloc (((size_t) N + 1) * sizeof *w.dcp);
  w.dci = vm_scratch_alloc ((size_t) (nnzd > 0 ? nnzd : 1) * sizeof *w.dci);
  fill = vm_scratch_alloc ((size_t) N * sizeof *fill);
  w.tmask = vm_scratch_alloc ((size_t) N);
  if (w.dcp)
    memset (w.dcp, 0, ((size_t) N + 1) * sizeof *w.dcp);
  if (w.tmask)
    memset (w.tmask, 0, (size_t) N);
  w.rlist = malloc ((size_t) tb * tb * sizeof *w.rlist);
  w.rcnt = calloc ((size_t) tb, sizeof *w.rcnt);
  w.rbits = malloc ((size_t) tb * tb);
  w.tcnt = malloc ((size_t) tb * 16 * sizeof *w.tcnt);
  w.tlist = malloc ((size_t) tb * 16 * tb * sizeof *w.tlist);
  /* the two arrays of the result from vm_scratch.h: huge pages from 2 MB on, kept for the next
   * solve, so that a large pattern does not pay a page fault per 4 kB page at every solve */
  *colptr = vm_scratch_alloc (((size_t) (N * tb) + 1) * sizeof **colptr);
  if (*colptr)
    memset (*colptr, 0, ((size_t) (N * tb) + 1) * sizeof **colptr);
  if (! w.dcp || ! w.dci || ! fill || ! w.tmask || ! w.rlist || ! w.rcnt || ! w.rbits || ! w.tcnt
      || ! w.tlist || ! *colptr)
    goto done;
  if ((st = target_couplings (s, &w, rowc, colc)) != VM_OK)
    goto done;
  mask_tables (&w);
  st = VM_ENOMEM;
  ds_columns (s, &w, fill);
  w.nodes = malloc ((size_t) max_nodes (s, &w) * sizeof *w.nodes);
  if (! w.nodes)
    goto done;
  *nnz = pattern_pass (s, &w, 0, *colptr, NULL);
  *rowind = vm_scratch_alloc ((size_t) (*nnz > 0 ? *nnz : 1) * sizeof **rowind);
  if (! *rowind)
    goto done;
  pattern_pass (s, &w, 1, *colptr, *rowind);
  st = VM_OK;
done:
  pat_ws_free (&w);
  vm_scratch_free (fill);
  if (st != VM_OK)
    {
      vm_scratch_free (*colptr);
      *colptr = NULL;
    }
  return st;
}

int
vm_skg_full_pattern (vm_skg *s)
{
  int c, st, *id;
  if (! s || ! s->dsp)
    return VM_EARG;
  if (s->colptr)
    return VM_OK;
  id = malloc ((size_t) s->nb * sizeof *id);
  if (! id)
    return VM_ENOMEM;
  for (c = 0; c < s->nb; c++)
    id[c] = c;
  st = vm_skg_pattern (s, s->nb, id, id, &s->colptr, &s->rowind, &s->nnz);
  free (id);
  return st;
}
