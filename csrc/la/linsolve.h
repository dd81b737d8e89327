/* linsolve.h -- the linear solver of the Newton iterations (newton.h): A x = b for a square sparse
 * matrix A of order n with a fixed pattern in compressed sparse column (CSC) form, factored once
 * per set of values and solved with it, by one of two backends (plain C99).  The code: linsolve.c
 * (this interface, the rule of VM_LINSOLVE_AUTO), which calls the backend in use through its
 * operations table (linsolve_core.h): linsolve_umf.c (UMFPACK), linsolve_band.c (the banded LU)
 * with linsolve_chol.c (its Cholesky path, option definite).  The backends include
 * linsolve_core.h, never this header: the calls run one way.
 *
 * Backends
 *   VM_LINSOLVE_UMFPACK  UMFPACK's LU (64-bit interface).  One umfpack_dl_symbolic per pattern --
 *                        none when the cache (vm_linsolve_opts.cache) already holds the analysis of
 *                        this pattern with this ordering and strategy --, one umfpack_dl_numeric per
 *                        factorization, umfpack_dl_solve per solve.  The ordering, strategy and
 *                        iterative refinement are options (UMFPACK's Control; -1: its default).
 *                        Singular: UMFPACK_WARNING_singular_matrix (an exactly zero pivot), or its
 *                        pivot-based estimate of the reciprocal condition number of the scaled
 *                        matrix (Info[UMFPACK_RCOND], min |U_ii| / max |U_ii|) below DBL_EPSILON or
 *                        NaN.  Memory: the Symbolic object, the Numeric object while a
 *                        factorization is held (from vm_linsolve_factor to vm_linsolve_release or
 *                        the next factorization), and a copy of the pattern in UMFPACK's index
 *                        type only when that is a type distinct from int64_t (UMFPACK 5 where
 *                        configure could not prove SuiteSparse_long to be int64_t; none on LP64
 *                        glibc, none from UMFPACK 6 on): otherwise the caller's pattern is the
 *                        only copy.
 *   VM_LINSOLVE_BANDED   LU with partial pivoting of the band of the pattern in its natural order:
 *                        bandlu.h's for kl < VM_BAND_LU_KL_MAX (LAPACK's dgbtf2 / dgbtrs written
 *                        out in C, faster than dgbtrf on those bands, the same pivots and
 *                        storage), LAPACK's dgbtrf / dgbtrs otherwise; kl = max (i - j) and ku = max (j - i) over
 *                        the entries (i, j) (vm_linsolve_bandwidth, computed once per init), band
 *                        storage of LDAB = 2 kl + ku + 1 rows (kl, ku of the pattern, or of its
 *                        relabeling when option block narrows the band; n LDAB doubles,
 *                        allocated once, with fewer page faults where the system allows it:
 *                        huge pages, or populated from 512 MB, vm_bigalloc.h; the
 *                        kl extra rows hold the fill of the row interchanges).  No symbolic phase.
 *                        The rows are scaled by the reciprocal sums of their absolute values before
 *                        the factorization (as UMFPACK's default scaling, UMFPACK_SCALE_SUM), so
 *                        that both backends test the same scaled matrix R A.  Singular: the LU
 *                        reports an exactly zero pivot (info > 0), or the reciprocal condition
 *                        estimate of R A is below DBL_EPSILON or NaN; the estimate (option cond):
 *                          VM_LINSOLVE_COND_PIVOT (default) min |U_jj| / max |U_jj| of the
 *                            factorization, UMFPACK's own estimate (Info[UMFPACK_RCOND]): the
 *                            same test as the UMFPACK backend, at O(n) cost;
 *                          VM_LINSOLVE_COND_NORM1 the 1-norm reciprocal condition number
 *                            1 / (||R A||_1 est ||(R A)^{-1}||_1), Higham's estimate (LAPACK's
 *                            dlacn2, as dgbcon computes it) from about 5 band solves with dgbtrs.
 *                            Stricter (it is the condition number itself, within a factor of a
 *                            few, where the pivot ratio can be far larger) and dearer: the solves
 *                            stream the band, about as much as a factorization.  dgbcon itself
 *                            is O(n^2) on these matrices (linsolve_band.c).
 *                        Refused (VM_EARG) when n LDAB exceeds INT_MAX (LAPACK's 32-bit indices).
 *                        With option definite (a symmetric definite matrix, up to a row scaling:
 *                        the Hessians of the dual actions) each matrix is first factored by the
 *                        banded Cholesky factorization of its lower band (times +-definite_scale)
 *                        (bandchol.h; in its own n (kl + 1) doubles), the LU only when that
 *                        fails (its band of LDAB n doubles allocated at the first such failure).
 *   VM_LINSOLVE_AUTO     resolved by vm_linsolve_auto from the pattern at init (the rule:
 *                        linsolve.c; the comparison behind it: bench/README_band.md).
 *
 * The unknowns of the discrete actions are ordered by time node (skg.h, dual.h), so their
 * Jacobians are banded in the natural order; no permutation is applied here.  A pattern that is
 * not banded (kl or ku of the order of n) is factored by UMFPACK under AUTO.
 *
 * Every function returns VM_OK or a vm_status code and, on failure, leaves a one-line reason in
 * ls->message.  Every path frees what it allocates; vm_linsolve_free frees the rest.
 */
#ifndef VM_LINSOLVE_H
#define VM_LINSOLVE_H

#include <stdint.h>

#include "la/linsolve_core.h"
#include "la/linsolve_band.h"
#include "la/linsolve_umf.h"

/* Defaults (see vm_linsolve_opts, linsolve_core.h). */
void vm_linsolve_opts_init (vm_linsolve_opts *o);

/* The bandwidths of a CSC pattern (rows in [0, n), sorted within each column, as vm_linsolve_init
 * requires): *kl = max (0, max (i - j)), *ku = max (0, max (j - i)), from the first and the last
 * row of each column, O(n). */
void vm_linsolve_bandwidth (int n, const int64_t *colptr, const int64_t *rowind, int *kl, int *ku);

/* The backend that VM_LINSOLVE_AUTO picks for a pattern of order n with nnz entries and
 * bandwidths kl, ku: VM_LINSOLVE_BANDED or VM_LINSOLVE_UMFPACK (the rule: linsolve.c). */
int vm_linsolve_auto (int n, int64_t nnz, int kl, int ku);

/* Of two models of a solve's memory per node -- umfpack with UMFPACK, banded with the banded LU --
 * the one for the backend of option kind, before any pattern exists, for a node-major Jacobian
 * of an action discretized by SBP operators with u unknowns per node (skg_solve, the duals):
 * UMFPACK: umfpack; BANDED: banded; AUTO: banded while u <= 12, where vm_linsolve_auto gives
 * these Jacobians to the band (it must when each unknown's
 * column holds its own 2 p + 1 stencil entries and kl = ku ~ p u: 16 (2 p + 1) >= 2 p u + 1 for
 * u up to 16), else the larger of the two (the backend then depends on the model's couplings);
 * 0 for another kind. */
double vm_linsolve_memory_model (int kind, double u, double umfpack, double banded);

/* "umfpack", "banded" or "auto" (static storage; "?" for another value). */
const char *vm_linsolve_name (int kind);

/* Set up a solver for the pattern (n >= 1; colptr[n + 1], rowind[colptr[n]] sorted within the
 * columns, as vm_newton_solve checks them; not copied: they must outlive ls).  o: NULL for the
 * defaults.  ls is always left freeable (vm_linsolve_free), also on failure.  Returns VM_OK,
 * VM_EARG (bad kind or UMFPACK option, or a band too large for LAPACK's indices), VM_ENOMEM,
 * VM_EUMFPACK (the symbolic analysis failed; its status in the message). */
int vm_linsolve_init (vm_linsolve *ls, int n, const int64_t *colptr, const int64_t *rowind,
                      const vm_linsolve_opts *o);

/* Factor the matrix with the values Ax (colptr[n] of them, finite) in the pattern; sets
 * ls->singular and ls->rcond.  Ax must stay unchanged until the last solve with this
 * factorization.  A singular matrix is not an error.  Returns VM_OK, VM_ENOMEM,
 * VM_EUMFPACK (UMFPACK failed otherwise), VM_EARG (LAPACK refused an argument: a bug). */
int vm_linsolve_factor (vm_linsolve *ls, const double *Ax);

/* x = A^{-1} b with the last factorization (b and x of n values, distinct arrays).  Returns VM_OK,
 * VM_EARG (no nonsingular factorization held), VM_ENOMEM, VM_EUMFPACK (UMFPACK failed; a
 * singular-matrix warning of the solve sets ls->singular and returns VM_OK).  x may hold
 * non-finite values when A is nearly singular: the caller checks. */
int vm_linsolve_solve (vm_linsolve *ls, const double *b, double *x);

/* x = A^{-1} b for the values Ax: vm_linsolve_factor then vm_linsolve_solve, or the U-only
 * factorization with its solve in one pass (option lean).  Sets ls->singular and ls->rcond as
 * vm_linsolve_factor; a singular matrix is not an error (x is then not computed, or, lean, not
 * meaningful).  Returns as vm_linsolve_factor and vm_linsolve_solve. */
int vm_linsolve_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x);

/* Drop the numeric factorization (UMFPACK's Numeric object; nothing for the banded backend, whose
 * arrays are kept for the next factorization). */
void vm_linsolve_release (vm_linsolve *ls);

/* Free everything except a cached symbolic analysis, and leave ls zeroed.  NULL is ignored. */
void vm_linsolve_free (vm_linsolve *ls);

#endif
