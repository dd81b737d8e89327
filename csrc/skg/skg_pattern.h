/* skg_pattern.h -- the structural Hessian patterns of the discrete SKG action (skg_pattern.c):
 * the full one and that of a block in another numbering.  Plain C99. */
#ifndef VM_SKG_PATTERN_H
#define VM_SKG_PATTERN_H

#include "skg/skg_types.h"

/* The full Hessian pattern into s->colptr (nz + 1), s->rowind and s->nnz, unless it is there
 * already (built once per vm_skg_build; vm_skg_set_window keeps it).  Callers that read colptr,
 * rowind or nnz call this first.  Returns VM_OK, VM_EARG or VM_ENOMEM (s->colptr NULL then). */
int vm_skg_full_pattern (vm_skg *s);

/* The CSC pattern (sorted rows) of the target matrix of order nt = N tb in which z-component c of
 * node k is row k tb + rowc[c] and column k tb + colc[c] (-1: not in the target; rowc, colc have
 * nb entries, each target component at most once): the structural nonzeros of that block of the
 * Hessian, what vm_skg_plan_build needs, and nothing else (the full pattern is not built).  Into
 * *colptr (nt + 1 entries) and *rowind (*nnz), from vm_scratch_alloc: the caller frees them with
 * vm_scratch_free (vm_scratch.h).  Returns VM_OK,
 * VM_EARG (a NULL argument, tb < 1, a map with an entry outside -1 .. tb-1 or a target component
 * twice) or VM_ENOMEM; *colptr and *rowind are NULL on failure.  O(nnz + N) time and memory. */
int vm_skg_pattern (const vm_skg *s, int tb, const int *rowc, const int *colc, int64_t **colptr,
                    int64_t **rowind, int64_t *nnz);

#endif
