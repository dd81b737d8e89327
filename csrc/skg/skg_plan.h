/* skg_plan.h -- the plan of a target matrix (vm_skg_plan, skg_types.h): where each Hessian
 * contribution of the discrete SKG action goes, built once per pattern (skg_plan.c) and read by
 * the assembly (skg_eval.c).  Plain C99. */
#ifndef VM_SKG_PLAN_H
#define VM_SKG_PLAN_H

#include "skg/skg_types.h"

/* The target of a plan: a matrix of order nt = N tb whose unknowns are node-major with tb per
 * node, with the CSC pattern tcp/tri (sorted rows; not copied: it must outlive the plan), in
 * which z-component c of node k is row k tb + rowc[c] and column k tb + colc[c] (-1: not in the
 * target; rowc, colc have nb entries and are copied). */
typedef struct
{
  int tb;
  const int *rowc, *colc;
  int64_t nt;
  const int64_t *tcp, *tri;
} vm_skg_target;

/* The plan of the target t into p.
 * term: the tape whose Hessian entries it scatters,
 * VM_SKG_TERM_FULL (for vm_skg_eval_plan) or VM_SKG_TERM_REDUCED (for vm_skg_eval_reduced; needs
 * vm_skg_reduced_init first, and only the (minus row, plus column) contributions exist).
 * Contributions missing from the pattern are dropped (the pattern must hold those of the target's
 * rows and columns).  Returns VM_OK, VM_EARG or VM_ENOMEM. */
int vm_skg_plan_build (const vm_skg *s, int term, const vm_skg_target *t, vm_skg_plan *p);
void vm_skg_plan_free (vm_skg_plan *p);

#endif
