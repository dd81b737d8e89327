/* linsolve_chol.h -- the Cholesky path of the banded backend (option definite of linsolve.h), on
 * the band that linsolve_band.c has set up (ls->bkl, bku, pos); the banded backend's operations
 * call it, nothing else does.  Plain C99. */
#ifndef VM_LINSOLVE_CHOL_H
#define VM_LINSOLVE_CHOL_H

#include "la/linsolve_core.h"

/* Set-up after the band's (kl = ku checked, definite_scale checked, the Cholesky band and its
 * arrays): VM_OK, VM_EARG or VM_ENOMEM. */
int vm_ls_chol_init (vm_linsolve *ls, const vm_linsolve_opts *o);

/* The factorization: 1 when the Cholesky factor is held (ls->chol, singular and rcond set), 0
 * when the matrix is not definite (the caller then factors the LU of the same values). */
int vm_ls_chol_factor (vm_linsolve *ls, const double *Ax);

/* The factorization with its solve: as the two (x computed unless singular; x and b distinct, b
 * not written: the caller's LU solves with it after a 0). */
int vm_ls_chol_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x);

/* x = A^{-1} b with the held factor: VM_OK. */
int vm_ls_chol_solve (vm_linsolve *ls, const double *b, double *x);

/* Its arrays freed (NULL ones ignored). */
void vm_ls_chol_free (vm_linsolve *ls);

#endif
