/* vakonomic.h -- the vakonomic (calculus-of-variations) reaction law for constraints linear in the
 * velocities (plain C99, no Octave headers).  doc/reactions.md, section 8.
 *
 * Constraints phi_a(t, q, qdot) = A_a(t, q) . qdot + b_a(t, q) = 0 (a = 1..m).  The vakonomic
 * motions are the Euler-Lagrange equations of the Lagrangian L + sum_a mu_a phi_a, with the
 * multipliers mu_a(t) varied as well (Acharya & Sengupta, eq. 7; Cronstrom & Raita 2009):
 *
 *   M qddot = f - A^T mudot - W^T mu,        A qddot = c,
 *   W_ai = d/dt (A_ai) - dphi_a/dq_i = sum_j dA_ai/dq_j qdot_j + dA_ai/dt - dphi_a/dq_i,
 *
 * with M, f, A, c as in reaction.h.  Written out for b = 0 and A = A(q):
 *   (W^T mu)_i = sum_a mu_a (d_j A_ai - d_i A_aj) qdot_j,
 * an antisymmetric ("curl") matrix times qdot, so W^T mu does no work on any qdot and R . qdot =
 * -mudot . (A qdot) vanishes on every motion that keeps the constraint.
 *
 * Index 1: for given (t, q, qdot, mu) the pair (qddot, mudot) solves the ideal (Gauss) system with
 * the force f - W^T mu, and mudot = -lambda, lambda the ideal multiplier of that system
 * (M qddot = f' + A^T lambda).  So mu is a state of the motion, (q, qdot, mu) in R^(2n+m), and its
 * initial value mu(0) is free: every mu(0) in R^m gives a vakonomic motion from the same (q0,
 * qdot0).  mu(0) = 0 makes qddot(0) the d'Alembert (ideal) acceleration: the two motions agree to
 * O(t^2) in qdot and O(t^3) in q, and part after that.
 *
 * For a holonomic constraint g(t, q) used as phi = g_q qdot + g_t, W = 0 (the Hessian of g is
 * symmetric), and the vakonomic and ideal motions coincide: the block stores W = 0 for those rows. */
#ifndef VM_VAKONOMIC_H
#define VM_VAKONOMIC_H

#include "model/model.h"
#include "reference/reaction.h"

/* The vakonomic block of a mechanical system, in the variable layout of model.h:
 *   W (m x n)       d/dt(A) - phi_q as above (rows of holonomic constraints: 0),
 *   nonlin (m x 1)  1 for a constraint that is not linear in the velocities (A depends on qdot):
 *                   the vakonomic law does not apply to it (the caller refuses it), else 0.
 * Returns VM_OK or the builder's status (VM_ENOMEM). */
int vm_mech_vakonomic_block (vm_mech *m, vm_block *blk);

/* The vakonomic accelerations at one point: qddot (n) and mudot (m) from the point's data p (n, m,
 * M, f, A, c as in reaction.h; k and B unused), W (m x n, column-major) and mu (m).  fw: n doubles
 * of scratch (f - W^T mu on return); ws: vm_reaction_work_size (n, m, 0).  mudot and rcond may be
 * NULL.  Status: VM_OK, VM_EARG (NULL pointers, sizes, non-finite input), and those of
 * vm_reaction_ideal (VM_ENOTSPD, VM_ESINGULAR; outputs NaN).  Cost: one ideal solve and O(n m). */
int vm_vakonomic_accel (const vm_reaction_problem *p, const double *W, const double *mu,
                        double *qddot, double *mudot, double *rcond, double *fw,
                        const vm_reaction_work *ws);

#endif
