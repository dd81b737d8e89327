/* dual_closed.h -- closed-form node functions (vm_dual_node_fn, dual_node.h) for three systems of
 * Acharya & Sengupta, "dual action principles": the Lorenz system (Sec. 3, eqs. 29-31), the
 * generalized Pars system (Sec. 4, eqs. 32-37) and the reduced Pars system (eqs. 44, 48-49 with
 * the sign of eq. 48 corrected).  Plain C99, no Octave headers.
 *
 * Conventions of dual.h: per point, u = (Ddot_d, D_d, D_a) (nl = 2 nd + ng), ybar (ny), out y = y^H
 * (the DtP map, ny), val = LL = L_H(y^H), grad = dLL/du = (-y^H_d, -F(y^H), G(y^H)) (envelope
 * theorem), hess = d2LL/du2 = -B' A^{-1} B (nl x nl row-major, exactly symmetric; may be NULL).
 * val and grad may be NULL too.  L_H = -Ddot_d . y_d - D_d . F + D_a . G + H; every system here has
 * F, G at most quadratic in y, so dL_H/dy is affine in y and the DtP map is one linear solve.
 *
 * Return VM_OK; VM_EDTP with p->bad = the first point where the DtP matrix A is
 * singular or ill-conditioned (relative determinant / pivot <= VM_DUAL_CLOSED_TOL, or not finite):
 * the points before it are filled, the rest are not touched; VM_EARG for a NULL ctx, p, u, ybar, y
 * (or t for the reduced Pars system), npts < 0 or invalid parameters (a weight c not finite or
 * <= 0, M < 1, L or b NULL); VM_ENOMEM (generalized Pars only: its work space is malloc'd per call).
 * The parameter structs are usable as "struct vm_dual_lorenz" or "vm_dual_lorenz" (same for the others).
 * The starting guess in y is not used (the maps are explicit).  t may be NULL except for the reduced
 * Pars system (z(t) = v30 t + x30).
 * Cost: O(1) per point for Lorenz and reduced Pars, O(M^3) per point for generalized Pars (one
 * M x M LU, la/dense_lu.h).  Why closed forms beside the general engine (dual_ode.h): they are the
 * paper's formulas written out, so the tests hold the engine and the assembly against them. */
#ifndef VM_DUAL_CLOSED_H
#define VM_DUAL_CLOSED_H

#include <stdint.h>

#include "dual/dual_node.h"

#define VM_DUAL_CLOSED_TOL 1e-12

/* ---- 1. dual Lorenz (eqs. 29-31) -----------------------------------------------------------------
 * Primal: xdot = A (y - x), ydot = x (R - z) - y, zdot = x y - B z;  ny = nd = 3, ng = 0.
 * D = (lambda, mu, gamma), u = (lambdadot, mudot, gammadot, lambda, mu, gamma) (nl = 6);
 * H = c/2 |U - Ubar|^2.  AA = [c -g m; -g c 0; m 0 c] (g = gamma, m = mu), det = c (c^2 - g^2 - m^2)
 * (VM_EDTP when |1 - (g^2 + m^2)/c^2| <= VM_DUAL_CLOSED_TOL);
 * p = (g ybar - m zbar + lambdadot - A lambda + R mu, g xbar + mudot - mu + A lambda,
 *      -m xbar + gammadot - B gamma);
 * y^H = Ubar + BB p, BB = AA^{-1};  LL = -1/2 p.BB p - Ubar.p - m xbar zbar + g xbar ybar (eq. 31);
 * hess = -[I; F_y] BB [I, F_y'] (F_y at y^H). */
typedef struct vm_dual_lorenz
{
  double A, R, B, c;            /* sigma, rho, beta; the weight c of H (> 0) */
} vm_dual_lorenz;
int vm_dual_lorenz_node (void *ctx, vm_dual_points *p);

/* ---- 2. generalized Pars (eqs. 32-37) -------------------------------------------------------------
 * Primal (M coordinates, unit masses): xdot = v, vdot = -Q, (b + L x).v = 0, Q.v - s^2/2 = 0.
 * y = (x (M), v (M), Q (M), s), ny = 3M + 1; nd = 2M (F = (v, -Q)); ng = 2
 * (G = ((b + L x).v, Q.v - s^2/2)); D = (rho (M), lambda (M), mu, Lambda);
 * u = (rhodot, lambdadot, rho, lambda, mu, Lambda), nl = 4M + 2;
 * H = 1/2 (cx |x - xbar|^2 + cv |v - vbar|^2 + cQ |Q - Qbar|^2 + cs (s - sbar)^2).
 * DtP (eq. 36, index of the x line corrected):
 *   MM = (1 - Lambda^2/(cQ cv)) I - mu^2 L L'/(cx cv)  (Gaussian elimination, partial pivoting;
 *        VM_EDTP when a pivot <= VM_DUAL_CLOSED_TOL max(1, max |MM_ij|), or
 *        |cs - Lambda| <= VM_DUAL_CLOSED_TOL cs),
 *   v = MM^{-1} (vbar + (rho + lambdadot - mu b - mu L xbar - mu L rhodot/cx - Lambda Qbar
 *                        + Lambda lambda/cQ)/cv),
 *   x = xbar + (rhodot - mu L' v)/cx,  Q = Qbar - (lambda + Lambda v)/cQ,  s = cs sbar/(cs - Lambda);
 * LL = eq. 34 at y^H; hess = B' X with X = dy^H/du = -A^{-1} B, each column by the same block
 * elimination (A = [cx I, mu L', 0, 0; mu L, cv I, Lambda I, 0; 0, Lambda I, cQ I, 0; 0 0 0 cs-Lambda]).
 */
typedef struct vm_dual_pars
{
  int M;
  const double *L;              /* M x M, row-major */
  const double *b;              /* M */
  double cx, cv, cQ, cs;        /* weights of H (> 0) */
} vm_dual_pars;
int vm_dual_pars_node (void *ctx, vm_dual_points *p);

/* ---- 3. reduced Pars (eqs. 44, 48-49; the sign of eq. 48's first equation corrected) -------------
 * z(t) = v30 t + x30, k(t) = v30/(1 + z^2);  primal  v1dot = -k z v1,  v2dot = k v1  (eq. 44);
 * y = (v1, v2), nd = 2, ng = 0, D = (lambda1, lambda2), u = (lambda1dot, lambda2dot, lambda1,
 * lambda2) (nl = 4); H = c/2 |v - vbar|^2.  With w = W u, W = [1 0 -k z k; 0 1 0 0]:
 *   v^H = vbar + w/c,  LL = -vbar.w - |w|^2/(2c),  grad = -W' v^H,  hess = -W'W/c.
 * (c = 1, vbar = 0: LL = -1/2 ((lambda1dot - k z lambda1 + k lambda2)^2 + lambda2dot^2), eq. 49
 * with the sign of the lambda1 term corrected.)  The DtP matrix c I is never singular. */
typedef struct vm_dual_pars_reduced
{
  double v30, x30, c;
} vm_dual_pars_reduced;
int vm_dual_pars_reduced_node (void *ctx, vm_dual_points *p);

#endif
