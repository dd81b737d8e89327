/* dense_lu.h -- LU factorization of a small dense matrix with partial pivoting (plain C99).
 *
 * Takes a row-major n x n matrix (a[i n + j]); factors it in place (L below the diagonal with a
 * unit diagonal, U on and above it) with the row interchanges in piv.  Cost: n^3 / 3 multiply-adds
 * to factor, n^2 per solve; no allocation.  Why: the dual action's node functions factor one
 * n x n matrix per time node (n = the states of a system, a few to a few dozen), where a call into
 * LAPACK costs more than the arithmetic. */
#ifndef VM_DENSE_LU_H
#define VM_DENSE_LU_H

/* Factor a in place, piv (n) the pivot rows.  Returns 0, or 1 when a pivot is <= tol in absolute
 * value or not finite (a and piv then hold a partial factorization). */
int vm_dense_lu (int n, double *a, int *piv, double tol);

/* Solve A x = b with the factors of vm_dense_lu; b (n) is overwritten by x. */
void vm_dense_lu_solve (int n, const double *a, const int *piv, double *b);

#endif
