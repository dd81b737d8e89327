/* reaction.h -- constrained accelerations at one point: reaction laws (plain C99, dense LAPACK).
 *
 * Equations of motion M qddot = f + R with constraints at acceleration level A qddot = c, where
 *   M (n x n)  symmetric positive definite mass matrix (d2L/dqdot2),
 *   f (n)      the unconstrained generalized force (dL/dq - L_qdot,q qdot - L_qdot,t + F),
 *   A (m x n)  phi_qdot of the velocity-level constraints phi(t, q, qdot) = 0,
 *   c (m)      -(phi_t + phi_q qdot): the caller forms it,
 * and R the reaction, given by a reaction law (doc/reactions.md):
 *   vm_reaction_ideal       R = A^T lambda: ideal constraints, Gauss's least constraint in the metric
 *                           M, Lagrange-d'Alembert-Chetaev (Zubelevich eq. 1.4);
 *   vm_reaction_directions  R = B^T mu with given reaction directions B (k x n), e.g. the reaction
 *                           confined to chosen velocity components (Acharya & Sengupta eq. 51);
 *   vm_reaction_explicit    R given (Acharya & Sengupta eq. 45 with the multiplier part moved to an
 *                           ideal solve): nothing to solve, qddot = M^{-1} (f + R).
 *
 * Storage: matrices are dense and column-major: M[i + n*j], A[a + m*j], B[s + k*j].  M must be
 * symmetric: entries with |M_ij - M_ji| > VM_REACTION_SYMTOL sqrt(M_ii M_jj) are rejected, and
 * the lower triangle is the one used.  Every input must be finite (NaN or Inf: VM_EARG).
 * Sizes: 1 <= n <= VM_REACTION_NMAX, 0 <= m, k <= VM_REACTION_NMAX.
 *
 * Conditioning.  Each matrix is factored after a diagonal scaling that makes it independent of the
 * units of the coordinates and of the scale of each constraint row and direction row: M is scaled
 * to unit diagonal; the columns of L^{-1} A^T and L^{-1} B^T (M = L L^T) are normalized, so that the
 * constraint matrices have as entries the cosines of the angles, in the metric M^{-1}, between
 * constraint normals and reaction directions.  For each factored matrix X the reported reciprocal
 * condition number is rcond = 1 / (max(1, |X|_1) |X^{-1}|_1), estimated with LAPACK's dpocon or
 * dgecon (for the unit-diagonal matrices this is exactly LAPACK's rcond; for a constraint matrix of
 * cosines it also flags a reaction direction that is almost tangent to the constraint manifold).
 * When any rcond < VM_REACTION_RCOND_MIN the call fails (VM_ENOTSPD for M, VM_ESINGULAR for the
 * constraint matrices) and returns the rcond: nothing is regularized.
 *
 * Workspace: vm_reaction_work_size gives the doubles and ints that suffice for all three solvers
 * with the given n, m, k; the caller allocates them once (vm_reaction_work), so no function here
 * allocates memory.  Sources: reaction.c (the laws), reaction_dense.c (the dense kernels).
 * Outputs must not overlap inputs or the workspace.  On a status other than VM_OK the outputs
 * (qddot, lambda or mu, R, power) are filled with NaN, unless the status is VM_EARG for a bad size
 * or NULL pointer, in which case nothing is written. */
#ifndef VM_REACTION_H
#define VM_REACTION_H

#include <stddef.h>

/* Smallest accepted reciprocal condition estimate: below it the forward error bound eps / rcond
 * (eps = 2.2e-16) exceeds 2e-3, i.e. fewer than about three significant digits would survive. */
#define VM_REACTION_RCOND_MIN 1e-13
/* Relative tolerance of the symmetry check on M. */
#define VM_REACTION_SYMTOL 1e-10
/* Largest n, m or k: every matrix then has fewer than 2^31 entries (LAPACK's int indexing). */
#define VM_REACTION_NMAX 46340

/* The data of one point (inputs, never modified): n coordinates, m constraints, k reaction
 * directions (vm_reaction_directions only; the other solvers ignore k and B, and
 * vm_reaction_explicit also m, A and c). */
typedef struct
{
  int n, m, k;
  const double *M;            /* n x n mass matrix */
  const double *f;            /* n: the unconstrained generalized force */
  const double *A;            /* m x n: phi_qdot (may be NULL when m == 0) */
  const double *c;            /* m: -(phi_t + phi_q qdot) (may be NULL when m == 0) */
  const double *B;            /* k x n: reaction directions as rows (may be NULL when k == 0) */
} vm_reaction_problem;

/* The caller's workspace: work[lwork], iwork[liwork] of vm_reaction_work_size. */
typedef struct
{
  double *work;
  int *iwork;
} vm_reaction_work;

/* Workspace, in doubles (*lwork) and ints (*liwork), sufficient for vm_reaction_ideal (n, m),
 * vm_reaction_directions (n, m, k) and vm_reaction_explicit (n).  Returns VM_OK or VM_EARG (sizes
 * out of range or NULL pointers).  Both counts are at least 1. */
int vm_reaction_work_size (int n, int m, int k, size_t *lwork, size_t *liwork);

/* Ideal reaction.  Solves M qddot = f + A^T lambda, A qddot = c:
 *   (A M^{-1} A^T) lambda = c - A M^{-1} f,   qddot = M^{-1} (f + A^T lambda),   R = A^T lambda.
 * Outputs: qddot (n); lambda (m) and R (n) may be NULL; rcond (may be NULL) receives the smallest
 * reciprocal condition estimate of the scaled M and the scaled S = A M^{-1} A^T (0 when a Cholesky
 * factorization broke down, 1 when there is nothing to factor).
 * Status: VM_OK, VM_EARG, VM_ENOTSPD (M), VM_ESINGULAR (S; e.g. dependent constraint rows, m > n).
 * Cost: O(n^3 + n^2 m + n m^2 + m^3). */
int vm_reaction_ideal (const vm_reaction_problem *p, double *qddot, double *lambda, double *R,
                       double *rcond, const vm_reaction_work *ws);

/* vm_reaction_ideal for a constant mass matrix: the factorization of M left in the workspace by
 * the last call of any solver here with the same n, the same M and the same workspace is reused
 * (its rcond too), which saves the O(n^3) factorization.  The caller guarantees that such a call
 * succeeded; the result is then the same as vm_reaction_ideal's. */
int vm_reaction_ideal_fixed_mass (const vm_reaction_problem *p, double *qddot, double *lambda,
                                  double *R, double *rcond, const vm_reaction_work *ws);

/* Reaction along given directions: R = B^T mu, B (k x n) with the allowed reaction directions as
 * rows.  Solves M qddot = f + B^T mu, A qddot = c, i.e. with G = A M^{-1} B^T (m x k):
 *   G mu = c - A M^{-1} f,   qddot = M^{-1} (f + B^T mu).
 *   k == m: G is square; LU (dgetrf) with dgecon.
 *   k >  m: mu is the solution of minimum norm |B^T mu|_{M^{-1}}^2 = mu^T (B M^{-1} B^T) mu, which
 *           is the M^{-1}-norm of the reaction: Gauss's least constraint restricted to reactions in
 *           the row space of B.  B must have full row rank (W = B M^{-1} B^T is factored by
 *           Cholesky and its rcond checked); mu = W^{-1} G^T nu with (G W^{-1} G^T) nu = rhs.
 *           When the row space of B contains the rows of A (e.g. B = I), this is the ideal
 *           reaction.
 *   k <  m: VM_EOVERDET (k reactions cannot enforce m independent constraints).
 * Outputs: qddot (n); mu (k) and R (n) may be NULL; rcond as for vm_reaction_ideal (smallest of
 * the scaled M, G or G W^{-1} G^T, and W).
 * Status: VM_OK, VM_EARG, VM_ENOTSPD, VM_ESINGULAR, VM_EOVERDET.
 * To confine the reaction to velocity components s (Acharya & Sengupta eq. 51, where the
 * accelerations of the other components are the unconstrained ones) use vm_reaction_select. */
int vm_reaction_directions (const vm_reaction_problem *p, double *qddot, double *mu, double *R,
                            double *rcond, const vm_reaction_work *ws);

/* Explicit reaction: qddot = M^{-1} (f + Rx) (Cholesky of M; p->n, p->M, p->f are used).  Rx (n)
 * may be NULL (no reaction).  When power is not NULL, *power = Rx . qdot (qdot must then be
 * given; 0 when Rx is NULL).  rcond (may be NULL): the scaled reciprocal condition estimate of M.
 * Status: VM_OK, VM_EARG, VM_ENOTSPD. */
int vm_reaction_explicit (const vm_reaction_problem *p, const double *Rx, const double *qdot,
                          double *qddot, double *power, double *rcond, const vm_reaction_work *ws);

/* Reaction directions confining the reaction to the velocity components idx[0..k-1] (0-based,
 * distinct, in range): writes B (k x n, column-major).  With M == NULL, B = rows idx of the
 * identity: the generalized reaction force vanishes outside idx.  With M given, B = rows idx of
 * M: the reaction acceleration M^{-1} R vanishes outside idx, so the other components keep their
 * unconstrained accelerations M^{-1} f -- Acharya & Sengupta's eq. 51 (F^(c)(r) = 0) for a
 * general mass matrix.  Both coincide when M is diagonal.  Returns VM_OK or VM_EARG. */
int vm_reaction_select (int n, int k, const int *idx, const double *M, double *B);

#endif
