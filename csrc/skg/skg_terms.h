/* skg_terms.h -- private to the discrete SKG action (skg.c, skg_eval.c, skg_pattern.c,
 * skg_plan.c, skg_static.c): how the active point variables of the density (skg.h: q+ q- v+ v-
 * (n each), lambda+ lambda- (m each)) map to the unknowns of a node, and which Hessian entries a
 * point term has.  Static inline, and apart from skg.c, so that every file that needs them
 * depends on the data (skg_types.h) only.  Not installed, not part of the API. */
#ifndef VM_SKG_TERMS_H
#define VM_SKG_TERMS_H

#include "skg/skg_types.h"

/* 1 when active point variable r is a velocity (enters through Ds), else 0 (identity). */
static inline int
is_vel (const vm_skg *s, int r)
{
  return r >= 2 * s->n && r < 4 * s->n;
}

/* 1 when active point variable r is a minus variable (q-, v-, lambda-), else 0. */
static inline int
is_minus (const vm_skg *s, int r)
{
  int n = s->n;
  return (r >= n && r < 2 * n) || (r >= 3 * n && r < 4 * n) || r >= 4 * n + s->m;
}

/* Component of z (within a node) that active point variable r depends on. */
static inline int
zcomp (const vm_skg *s, int r)
{
  int n = s->n;
  if (r < 2 * n)
    return r;                        /* q+, q- */
  if (r < 4 * n)
    return r - 2 * n;                /* v+ -> q+, v- -> q- */
  return r - 2 * n;                  /* lambda+, lambda- */
}

/* Support of active variable r at node k: identity or row k of Ds. */
static inline void
support (const vm_skg *s, int r, int64_t k, const int64_t **j, const double **v, int64_t *len,
         int64_t *kbuf, double *one)
{
  if (is_vel (s, r))
    {
      *j = s->dsj + s->dsp[k];
      *v = s->dsv + s->dsp[k];
      *len = s->dsp[k + 1] - s->dsp[k];
    }
  else
    {
      *kbuf = k;
      *one = 1.0;
      *j = kbuf;
      *v = one;
      *len = 1;
    }
}

/* The structural Hessian entries of one point term: nh pairs (hr[e], hc[e]), hr[e] >= hc[e], in
 * the active point-variable numbering (the density's s->hsr/hsc, the boundary's s->hbr/hbc or
 * the reduced tape's s->hrr/hrc). */
typedef struct
{
  int nh;
  const int *hr, *hc;
} skg_entries;

/* The boundary term's entries */
static inline skg_entries
boundary_entries (const vm_skg *s)
{
  skg_entries t;
  t.nh = s->nhb;
  t.hr = s->hbr;
  t.hc = s->hbc;
  return t;
}

/* The Hessian entries of the point term the plan scatters: the density tape's or the reduced
 * tape's (vm_skg_plan.term). */
static inline skg_entries
term_entries (const vm_skg *s, const vm_skg_plan *p)
{
  const int red = p->term == VM_SKG_TERM_REDUCED;
  skg_entries t;
  t.nh = red ? s->nhr : s->nhs;
  t.hr = red ? s->hrr : s->hsr;
  t.hc = red ? s->hrc : s->hsc;
  return t;
}

#endif
