/* linsolve_band.h -- the banded backend of the linear solver (linsolve.h describes it under
 * VM_LINSOLVE_BANDED; its Cholesky path of option definite is linsolve_chol.h): its operations
 * table and the rule of option lean VM_LINSOLVE_LEAN_AUTO, which the memory estimates ask too.
 * Plain C99. */
#ifndef VM_LINSOLVE_BAND_H
#define VM_LINSOLVE_BAND_H

#include "la/linsolve_core.h"

/* init: the relabeling of option block, the band or the U-only storage of option lean, the
 * Cholesky path's arrays with option definite (kl = ku checked); factor: the Cholesky factor
 * first with option definite, else the LU (refused with option lean but for a Cholesky factor:
 * the U-only LU serves one solve, made by factor_solve); solve: with the factor held;
 * factor_solve: the two in one pass where the variant allows it. */
extern const vm_linsolve_ops vm_linsolve_band_ops;

/* Nonzero when option lean VM_LINSOLVE_LEAN_AUTO keeps U only for a band of n columns with the
 * bandwidths kl, ku (kl < VM_BAND_LU_KL_MAX and (2 kl + ku + 1) n doubles of at least
 * VM_LINSOLVE_LEAN_MIN bytes; with the condition estimate VM_LINSOLVE_COND_PIVOT): the rule of
 * vm_linsolve_init and of the memory estimates (skg_solve.h). */
int vm_linsolve_lean_auto (int kl, int ku, double n);

#endif
