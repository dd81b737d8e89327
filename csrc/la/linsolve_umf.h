/* linsolve_umf.h -- the UMFPACK backend of the linear solver (linsolve.h describes it under
 * VM_LINSOLVE_UMFPACK): its operations table and the cache of a symbolic analysis
 * (vm_linsolve_opts.cache).  Plain C99. */
#ifndef VM_LINSOLVE_UMF_H
#define VM_LINSOLVE_UMF_H

#include "la/linsolve_core.h"

/* init: the symbolic analysis (or the cache's); factor: the numeric factorization; solve: with
 * the values Ax of that factorization (iterative refinement reads them); factor_solve: the two;
 * release: the Numeric object dropped; free: everything but a cached analysis. */
extern const vm_linsolve_ops vm_linsolve_umf_ops;

/* An empty cache (or zero the struct). */
void vm_linsolve_cache_init (vm_linsolve_cache *c);
/* Free the analysis and leave the cache empty.  NULL is ignored. */
void vm_linsolve_cache_free (vm_linsolve_cache *c);

#endif
