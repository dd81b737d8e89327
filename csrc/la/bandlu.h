/* bandlu.h -- LU factorization with partial pivoting of a banded matrix, and the solve with its
 * factors (plain C99): the algorithm of LAPACK's dgbtf2 / dgbtrs ("N"), in LAPACK's band storage,
 * so that the factors are interchangeable with LAPACK's (linsolve_band.c solves with A^T by dgbtrs on
 * them for its 1-norm condition estimate).
 *
 * Storage (LAPACK's, 0-based): A is n x n with kl subdiagonals and ku superdiagonals; column j of
 * the band array ab (leading dimension ldab >= 2 kl + ku + 1) holds A(i, j) at
 * ab[kl + ku + i - j + j ldab] for max (0, j - ku) <= i <= min (n - 1, j + kl).  The first kl rows
 * of ab receive the fill of the row interchanges (U has kl + ku superdiagonals); they need not
 * be set on entry.  On return ab holds U (rows 0 .. kl + ku) and the multipliers of L (rows
 * kl + ku + 1 .. 2 kl + ku), and ipiv[j] (1-based, as LAPACK's IPIV) the row interchanged with row
 * j at step j.
 *
 * Why not dgbtrf: for bands with kl < 32 LAPACK runs its unblocked dgbtf2, one BLAS call (dger)
 * per column with a rank-one update of kl x (kl + ku) entries.  Here the update is a loop over the
 * columns of that block that skips a column whose entry in the pivot row is zero (most of them:
 * the bands of the action Jacobians are sparse inside), with no call per column: faster than
 * dgbtrf on those bands (bench/README_band.md), with the same pivots; the factors agree to
 * rounding (dgbtf2's BLAS may fuse the multiply-add, this loop need not).
 *
 * vm_band_lu returns 0, or j + 1 when U(j, j) is exactly zero (the first such j; the
 * factorization is completed, as dgbtf2's INFO > 0), or -1 for an invalid argument (n < 0,
 * kl < 0, ku < 0, ldab < 2 kl + ku + 1, or a NULL array with n > 0).  vm_band_solve overwrites b
 * with the solution of A x = b from the factors of a vm_band_lu that returned 0.  Neither
 * allocates memory. */
#ifndef VM_BANDLU_H
#define VM_BANDLU_H

#include <stdint.h>

/* linsolve_band.c factors with vm_band_lu when kl < VM_BAND_LU_KL_MAX, with LAPACK's dgbtrf
 * otherwise.  Below 32 dgbtrf runs its unblocked dgbtf2, which vm_band_lu replaces; from 32 on
 * dgbtrf is blocked (dgemm updates) and not slower on the wide bands, so LAPACK keeps those
 * (bench/README_band.md part (a) has the comparison). */
#define VM_BAND_LU_KL_MAX 32

int vm_band_lu (int n, int kl, int ku, double *ab, int ldab, int *ipiv);
void vm_band_solve (int n, int kl, int ku, const double *ab, int ldab, const int *ipiv, double *b);

/* The factorization and the forward half of the solve in one pass, keeping U only: steps
 * j0 .. j1 - 1 of vm_band_lu on a window of the band, each step followed by vm_band_solve's
 * forward step on b (the row interchange and the multipliers applied as they are made, so that
 * L need not be kept), and column j of U packed: its rows from the first nonzero one (at most
 * kl + ku above the diagonal, and not above row 0) down to the diagonal, h_j + 1 values, at
 * u[up[j] .. up[j + 1] - 1], up[j + 1] = up[j] + h_j + 1 (the caller sets up[0] = 0).  Row
 * interchanges fill U up to kl + ku above the diagonal only where they happen, so the packed
 * columns are mostly shorter than kl + ku + 1.  Called for consecutive
 * ranges from j0 = 0 to j1 = n, it makes the same U and the same b = U x as vm_band_lu and
 * vm_band_solve's forward half, bit for bit; vm_band_solve_u then overwrites b with x (the same
 * x, up to the sign of zero entries: it skips the updates by U's zero rows above a column's
 * first nonzero).
 *
 * The factor's shape and arrays are in f (vm_band_u, NULL refused), the same for every range.
 * The window: ab (leading dimension f->ldab >= 2 kl + ku + 1) holds column j0 of the band at ab and
 * the columns after it contiguously, in LAPACK's layout, up to column min (n, j1 + kl + ku) - 1,
 * all of them filled in rows kl .. ldab - 1 and zero in their first kl rows (the fill) before
 * the steps that reach them.  *ju: 0 before step 0, then carried from call to call (the last
 * column that U's rows reach so far).  b: the n values of the right-hand side (row scaled as the
 * matrix), u: room for n (kl + ku + 1) doubles, of which up[n] are written (allocated lazily,
 * only those pages are touched), up: n + 1.  Returns 0, or j + 1 for the first step j of the
 * range with an exactly zero pivot column (the steps go on, as vm_band_lu's), or -1 for an
 * invalid argument.  Memory: the factors take up[n] <= (kl + ku + 1) n doubles instead of
 * (2 kl + ku + 1) n, and the window is the caller's (linsolve_band.c: a few times kl + ku columns);
 * the price is one solve per factorization. */
typedef struct
{
  int n, kl, ku;       /* the band's order and bandwidths */
  int ldab;            /* the window's leading dimension, >= 2 kl + ku + 1 */
  double *b;           /* n: the right-hand side (row scaled as the matrix), L applied to it */
  double *u;           /* U's packed columns: room for n (kl + ku + 1) doubles */
  int64_t *up;         /* n + 1: where each column of U starts in u (up[0] = 0 set by the caller) */
} vm_band_u;

int vm_band_lu_window (const vm_band_u *f, double *ab, int j0, int j1, int *ju);
void vm_band_solve_u (int n, const double *u, const int64_t *up, double *b);

#endif
