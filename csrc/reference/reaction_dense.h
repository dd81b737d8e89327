/* reaction_dense.h -- private to reaction.c: the dense kernels of the reaction laws (plain C99).
 *
 * Every matrix is column-major with its leading dimension equal to its row count, every vector
 * contiguous, and only lower triangles are used.  Each kernel works inline up to
 * VM_REACTION_SMALL rows and columns and calls BLAS/LAPACK above: for the tiny matrices of
 * mechanical models the overhead of a library call (argument checks, buffer allocation and
 * locking in OpenBLAS's triangular solves) is many times the arithmetic and would dominate the
 * right-hand side of the integrators.
 */
#ifndef VM_REACTION_DENSE_H
#define VM_REACTION_DENSE_H

#define VM_REACTION_SMALL 12

/* Cholesky a = L L^T in place (n x n, lower); LAPACK's info (0, or the failing column + 1) */
int vm_rd_chol (int n, double *a);
/* x <- L^{-1} x (trans 'N') or L^{-T} x (trans 'T'), L (n x n) lower */
void vm_rd_lower_solve (char trans, int n, const double *L, double *x);
/* X <- L^{-1} X for the ncol columns of X (n x ncol) */
void vm_rd_lower_solve_cols (int n, int ncol, const double *L, double *X);
/* x <- (L L^T)^{-1} x */
void vm_rd_chol_solve (int n, const double *L, double *x);
/* y <- alpha op(a) x + beta y, a (m x n), op 'N' or 'T'; beta == 0 ignores y's old values */
void vm_rd_gemv (char trans, int m, int n, double alpha, const double *a, const double *x,
                 double beta, double *y);
/* C (n x n, lower triangle) = A^T A, A (k x n) */
void vm_rd_gram (int n, int k, const double *A, double *C);
/* the Euclidean norm of x (n), without overflow */
double vm_rd_norm2 (int n, const double *x);
/* the 1-norm of the symmetric a (n x n, lower triangle); work: n doubles */
double vm_rd_sym_norm1 (int n, const double *a, double *work);
/* the reciprocal condition number 1 / (anorm |X^{-1}|_1) of X = L L^T: exact up to
 * VM_REACTION_SMALL, LAPACK's dpocon estimate above.  work: 3 n doubles, iwork: n ints.
 * Returns LAPACK's info. */
int vm_rd_chol_rcond (int n, const double *L, double anorm, double *rcond, double *work,
                      int *iwork);

#endif
