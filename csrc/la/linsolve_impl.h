/* linsolve_impl.h -- what the files of the linear solver share, not part of its interface
 * (linsolve.h): linsolve.c holds the interface and the rule of VM_LINSOLVE_AUTO, linsolve_umf.c
 * the UMFPACK backend, linsolve_band.c the banded LU (with its U-only variant, option lean), and
 * linsolve_chol.c the banded Cholesky path of option definite.  Plain C99. */
#ifndef VM_LINSOLVE_IMPL_H
#define VM_LINSOLVE_IMPL_H

#include <stdarg.h>
#include <stdio.h>

#include "la/linsolve.h"

/* ls->message from a printf format (truncated to its size); here, so that the backends need
 * nothing of linsolve.c */
static inline void
vm_ls_setmsg (vm_linsolve *ls, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (ls->message, sizeof ls->message, fmt, ap);
  va_end (ap);
}

/* UMFPACK (linsolve_umf.c): set-up (the symbolic analysis, or the cache's), numeric
 * factorization, solve with the values Ax of that factorization (iterative refinement reads
 * them), the Numeric object dropped, everything freed but a cached analysis. */
int vm_ls_umf_init (vm_linsolve *ls, const vm_linsolve_opts *o);
int vm_ls_umf_factor (vm_linsolve *ls, const double *Ax);
int vm_ls_umf_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x);
void vm_ls_umf_release (vm_linsolve *ls);
void vm_ls_umf_free (vm_linsolve *ls);

/* The banded backend (linsolve_band.c): set-up (the relabeling of option block, the band or the
 * U-only storage of option lean; defer: the band left for the first LU, as with option definite,
 * whose Cholesky factor has its own), factorization (the Cholesky path first with option
 * definite), solve, the U-only factorization with its one solve, its arrays freed. */
int vm_ls_band_init (vm_linsolve *ls, int block, int lean, int cond, int defer);
int vm_ls_band_factor (vm_linsolve *ls, const double *Ax);
int vm_ls_band_factor_lu (vm_linsolve *ls, const double *Ax);   /* the LU alone (no Cholesky) */
int vm_ls_band_solve (vm_linsolve *ls, const double *b, double *x);
int vm_ls_band_factor_solve_lean (vm_linsolve *ls, const double *Ax, const double *b, double *x);
void vm_ls_band_free (vm_linsolve *ls);

/* The Cholesky path of option definite (linsolve_chol.c), with its own band: set-up after
 * vm_ls_band_init (kl = ku checked, the band and the scales' arrays); factorization: 1 when
 * the Cholesky factor is held (ls->chol, singular and rcond set), 0 when the matrix is not
 * definite (the caller factors the LU); the factorization with its solve (as the two, x
 * computed unless singular; x and b distinct, b not written: the caller's LU solves with it
 * after a 0); solve with the held factor; its arrays freed. */
int vm_ls_chol_init (vm_linsolve *ls, const vm_linsolve_opts *o);
int vm_ls_chol_factor (vm_linsolve *ls, const double *Ax);
int vm_ls_chol_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x);
int vm_ls_chol_solve (vm_linsolve *ls, const double *b, double *x);
void vm_ls_chol_free (vm_linsolve *ls);

#endif
