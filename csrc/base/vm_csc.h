/* vm_csc.h -- the position of an entry in a compressed sparse column pattern (plain C99).
 *
 * vm_csc_find (rowind, lo, hi, row): the position p in [lo, hi) with rowind[p] == row, the rows
 * rowind[lo .. hi - 1] of one column sorted increasing; -1 if the column has no such row.  By
 * bisection, O(log (hi - lo)).  One place for the search that the assemblies of the discrete
 * actions make to place a local contribution in the pattern they built (skg_plan.c, dual_hessian.c,
 * dual_periodic.c). */
#ifndef VM_CSC_H
#define VM_CSC_H

#include <stdint.h>

static inline int64_t
vm_csc_find (const int64_t *rowind, int64_t lo, int64_t hi, int64_t row)
{
  int64_t a = lo, b = hi;   /* the first row >= row is in [a, b] */
  while (a < b)
    {
      const int64_t mid = a + (b - a) / 2;
      if (rowind[mid] < row)
        a = mid + 1;
      else
        b = mid;
    }
  return a < hi && rowind[a] == row ? a : -1;
}

#endif
