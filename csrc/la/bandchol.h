/* bandchol.h -- Cholesky factorization A = L L' of a symmetric positive definite banded matrix,
 * and the solve with its factor (plain C99): the algorithm of LAPACK's dpbtf2 / dpbtrs ("L"), in
 * LAPACK's lower band storage, so that the factor is interchangeable with LAPACK's.
 *
 * Storage (LAPACK's "L", 0-based): A is n x n with kd subdiagonals (and as many superdiagonals,
 * by symmetry); column j of the band array ab (leading dimension ldab >= kd + 1) holds A(i, j) at
 * ab[i - j + j ldab] for j <= i <= min (n - 1, j + kd): the diagonal in row 0.  On return ab
 * holds L in the same places.  The upper triangle is never read.
 *
 * Why: the Hessian of a concave or convex action (the dual actions near their solution, dual.h)
 * is symmetric and definite.  Against the LU with partial pivoting of the same band (bandlu.h)
 * the Cholesky factor reads and writes kd + 1 rows instead of 2 kd + kd + 1 (kl = ku = kd) and
 * takes about a quarter of the arithmetic (n kd^2 / 2 multiply-adds against 2 n kd^2), with no
 * pivot search and no row interchanges.  Why not dpbtrf: for kd < 32 LAPACK runs its unblocked
 * dpbtf2, one BLAS call (dsyr) per column; here the rank-one update is a loop over the kd
 * columns (bench/README_band.md has the measurement).
 *
 * vm_band_chol returns 0, or j + 1 for the first column j whose pivot A(j, j) - sum L(j, k)^2 is
 * not positive (or not finite): A is not positive definite (or not finite); the columns from j on
 * are then left partly updated (LAPACK's INFO > 0), and the caller must not solve with them.  -1
 * for an invalid argument (n < 0, kd < 0, ldab < kd + 1, or ab NULL with n > 0).
 * vm_band_chol_solve overwrites b with the solution of A x = b from the factor of a vm_band_chol
 * that returned 0; rdiag NULL, or the n reciprocals 1 / L(j, j), which the solve then multiplies
 * by instead of dividing by L(j, j): 2 n divisions, each on the chain of dependent operations
 * that is a triangular solve, against n once per factorization, off that chain.  Neither
 * allocates memory. */
#ifndef VM_BANDCHOL_H
#define VM_BANDCHOL_H

int vm_band_chol (int n, int kd, double *ab, int ldab);
void vm_band_chol_solve (int n, int kd, const double *ab, int ldab, const double *rdiag,
                         double *b);

/* Steps j0 .. j1 - 1 of vm_band_chol (0 <= j0 <= j1 <= n): column j is factored and its update
 * applied to columns j + 1 .. j + kd, so the band's columns up to min (n, j1 + kd) - 1 must hold
 * their values (updated by the steps before j0) and no later column is read.  Called for
 * consecutive ranges from 0 to n, the same factor as vm_band_chol, bit for bit; a caller that
 * fills the band from another storage can fill a block of columns and factor it while it is in
 * the cache (linsolve_chol.c).  Returns as vm_band_chol (j + 1 for the first step j of the range whose
 * pivot is not positive; -1 also for a range outside [0, n]). */
int vm_band_chol_steps (int n, int kd, double *ab, int ldab, int j0, int j1);

/* The two halves of vm_band_chol_solve (which is vm_band_chol_lower from 0 to n, then
 * vm_band_chol_upper), with its arguments: vm_band_chol_lower applies columns j0 .. j1 - 1 of
 * L^{-1} to b (b[j0 .. min (n, j1 + kd) - 1] change; called for consecutive ranges from 0 to n,
 * the forward substitution of vm_band_chol_solve bit for bit), so that a caller can apply each
 * block of columns as soon as vm_band_chol_steps has made it final, while it is in the cache,
 * and read the factor once less in a factorization with its solve (linsolve_chol.c);
 * vm_band_chol_upper is the back substitution b := L'^{-1} b.  The columns j0 .. j1 - 1 of the
 * factor (and of rdiag, when given) must be final. */
void vm_band_chol_lower (int n, int kd, const double *ab, int ldab, const double *rdiag, double *b,
                         int j0, int j1);
void vm_band_chol_upper (int n, int kd, const double *ab, int ldab, const double *rdiag, double *b);

#endif
