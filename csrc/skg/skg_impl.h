/* skg_impl.h -- private to the discrete SKG action (skg.c, skg_pattern.c): how the active point
 * variables of the density (skg.h: q+ q- v+ v- (n each), lambda+ lambda- (m each)) map to the
 * unknowns of a node.  Not installed, not part of the API. */
#ifndef VM_SKG_IMPL_H
#define VM_SKG_IMPL_H

#include "skg/skg.h"

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

/* The Hessian entries of the point term the plan scatters: the density tape's or the reduced
 * tape's (vm_skg_plan.term). */
static inline void
term_entries (const vm_skg *s, const vm_skg_plan *p, int *nh, const int **hr, const int **hc)
{
  int red = p->term == VM_SKG_TERM_REDUCED;
  *nh = red ? s->nhr : s->nhs;
  *hr = red ? s->hrr : s->hsr;
  *hc = red ? s->hrc : s->hsc;
}

/* The static part of a reduced plan for the current window (skg_static.c; skg.h, vm_skg_plan):
 * the masks at the first call, then, when p->tmpl_window != s->window, the column and node ranges
 * and the template's contributors; *fresh = 1 when the template (p->tmpl) is then to be summed
 * anew (skg.c, static_template), 0 otherwise.  VM_OK or VM_ENOMEM. */
int vm_skg_static_prepare (const vm_skg *s, vm_skg_plan *p, int *fresh);

#endif
