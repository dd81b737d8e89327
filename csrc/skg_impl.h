/* skg_impl.h -- private to the discrete SKG action (skg.c, skg_pattern.c): how the active point
 * variables of the density (skg.h: q+ q- v+ v- (n each), lambda+ lambda- (m each)) map to the
 * unknowns of a node.  Not installed, not part of the API. */
#ifndef VM_SKG_IMPL_H
#define VM_SKG_IMPL_H

#include "skg.h"

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

#endif
