/* dual_impl.h -- private to csrc/dual: what the files of the discrete dual action (dual.h) share.
 *
 * The index map of the unknowns, the look-ups into the Hessian's pattern that both the pattern's
 * construction (dual_pattern.c) and the assembly (dual_hessian.c) use, and the two internal entry
 * points between the files.  Why a header of static inline functions: they sit in the innermost
 * loops of the assembly, and a call through an exported symbol (which code built with -fPIC may
 * interpose) is not inlined. */
#ifndef VM_DUAL_IMPL_H
#define VM_DUAL_IMPL_H

#include <stdint.h>

#include "base/vm_csc.h"
#include "dual/dual.h"

/* Nodes whose node Hessians are made and assembled together (dual_hessian.c): a chunk's node
 * Hessians stay in the L1 cache between the node function and the assembly; d->hess holds one
 * chunk (dual.h). */
#define VM_DUAL_HESS_CHUNK 64

#if defined(__GNUC__)
#define VM_ALWAYS_INLINE inline __attribute__ ((always_inline))
#else
#define VM_ALWAYS_INLINE inline
#endif

/* The loops specialised on nd (dual_hessian.c, dual_eval.c) keep their per-node vectors on the
 * stack up to this many differential duals per node. */
#define VM_DUAL_RUN_ND 16

/* vm_dual_index (dual.h): the unknown of D component i at node k, -1 for the strong mode's fixed
 * D_d at the last node.  O(1). */
static inline int64_t
dual_index (const vm_dual *d, int64_t k, int i)
{
  if (d->weak || k < d->N - 1)
    return k * d->m + i;
  return i < d->nd ? -1 : (d->N - 1) * d->m + (i - d->nd);
}

/* The first unknown of group g of node k (its support s, ns nodes; dual.h): D_d at s[g] for
 * g < ns, else D_a at k; -1 when fixed (the strong mode's D_d at the last node).  O(1). */
static inline int64_t
group_first (const vm_dual *d, const int64_t *s, int ns, int64_t k, int g)
{
  return g < ns ? dual_index (d, s[g], 0) : dual_index (d, k, d->nd);
}

/* The position of row c in column i of the pattern (rows sorted), -1 if it has none: O(1) by
 * d->rowbase for a column of consecutive rows, else by bisection. */
static inline int64_t
lower_entry (const vm_dual *d, int64_t i, int64_t c)
{
  const int64_t *cp = d->colptr, *ri = d->rowind;
  const int64_t lo = cp[i], hi = cp[i + 1];
  if (d->rowbase[i] != INT64_MIN)
    return hi > lo && c >= ri[lo] && c <= ri[hi - 1] ? d->rowbase[i] + c : -1;
  return vm_csc_find (ri, lo, hi, c);
}

/* The first column of node k (k <= N; the strong mode's last node has only its ng columns). */
static inline int64_t
node_column (const vm_dual *d, int64_t k)
{
  return k * d->m < d->nz ? k * d->m : d->nz;
}

/* dual_pattern.c: every node's support, the Hessian's pattern (colptr, rowind, nnz) and the
 * look-up tables of the assembly (rowbase, upper_run, bp, boff, maxns, regular, hess_lag), from
 * d's operator (dp, dj).  VM_OK, VM_EARG (a row of Dm with more than 63 entries), VM_ENOMEM; what
 * it allocated is released by vm_dual_free. */
int vm_dual_build_pattern (vm_dual *d);

/* dual_hessian.c: the node functions at every node (d->val, d->grad, y^H into d->y) and the
 * Hessian values of S (nnz) into hval; d->hess_sumsq their sum of squares.  VM_OK, VM_ENOMEM, or
 * the node function's code (d->bad: the first failing node). */
int vm_dual_eval_hessian (vm_dual *d, double *hval);

#endif
