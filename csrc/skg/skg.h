/* skg.h -- the discrete SKG (Galley) action of a compiled mechanical system, boundary formulation
 * F4 of doc/skg_boundary.md (plain C99, no Octave headers).
 *
 * Grid t_k = t0 + k h, k = 0..N-1 (0-based here; the doc counts 1..N), SBP operator D = H^{-1} Q,
 * Ds = D + H^{-1} e_0 e_0' (SAT-regularized), Da q = Ds q - H^{-1} e_0 q_i (affine SAT derivative).
 *
 *   S = sum_k H_kk s_k  -  q-_0 . (p+_0 - p_i)  -  q-_{N-1} . p+_{N-1}
 *
 *   s = L(t, q1, v1) - L(t, q2, v2) + q- . F(t, q+, v+)
 *       + sum_a [ lambda-_a g_a(t, q+, v+) - lambda+_a q- . G_a(t, q+, v+) ]
 *   G_a = dg_a/dqdot  for a constraint that depends on the velocities (nonholonomic),
 *   G_a = dg_a/dq     for a holonomic constraint g_a(t, q) (dg_a/dqdot structurally zero,
 *                     vm_depends): the linearization at q- = 0 of the doubled constraint term
 *                     -lambda+ (g(q1) - g(q2)) + lambda- (g(q1) + g(q2))/2 (doc/skg.md,
 *                     "Holonomic constraints"); the constraint is imposed at position level,
 *                     g(t_k, q+_k) = 0, at every node;
 *   q1,2 = q+ +- q-/2,  v1,2 = v+ +- v-/2,  v+ = Da q+ (affine, initial position q_i),
 *   v- = Ds q- (linear),  p+ = dL/dqdot(t, q+, v+),  p_i = dL/dqdot(t0, q_i, v_i).
 *
 * F is the model's force vector (user forces plus contact forces).  At q- = 0 the q- equations
 * read D p = dL/dq + F - sum_a lambda+_a G_a - SAT: for both kinds of constraint the physical
 * multiplier of M qddot = ... + lambda G (gauss_integrate's sol.lambda) is lambda = -lambda+.
 * A constraint with G_a = 0 (a constant, e.g. "1") leaves lambda+_a out of S: the Hessian is
 * singular (vm_check_initial, csrc/model/initial_check.h, reports it).
 *
 * The density s is built symbolically: the model's root nodes (L, F, gc) are copied into a private
 * graph that has extra "point" variables (the model's graph has a fixed variable count), and the
 * branch / + / - substitutions are done there with vm_subst; s, its gradient and the nonzeros of its
 * lower-triangular Hessian in the point variables are compiled into one tape; the boundary term
 * -q- . p+ likewise into a second tape.  skg_solve's reduced mode uses a third one (the reduced
 * tape, vm_skg_reduced_init): only what the q- and lambda- equations at q- = lambda- = 0 and
 * their Jacobian need, compiled with the minus variables set to 0.
 *
 * Unknown layout, time-point major (bandwidth of the Hessian = O(stencil width x nb)):
 *   z[k*nb + c]            q+_k component c          c = 0..n-1
 *   z[k*nb + n + c]        q-_k component c
 *   z[k*nb + 2n + a]       lambda+_k constraint a    a = 0..m-1
 *   z[k*nb + 2n + m + a]   lambda-_k constraint a
 *   nb = 2n + 2m, nz = N nb.
 *
 * The Hessian is the exact second derivative (chain rule through the linear part of Da), stored
 * full (both triangles, symmetric) in compressed-column form with sorted row indices; its pattern
 * is structural, built at its first use (vm_skg_full_pattern, vm_skg_eval with hval) and kept;
 * a block of the Hessian in another numbering (skg_solve.c's reduced Jacobian) gets its own
 * pattern from vm_skg_pattern without the full one ever being built.
 *
 * The code: skg_types.h (the structs), skg.c (construction), skg_eval.c (evaluation and
 * assembly), skg_plan.h/.c (where the Hessian contributions go), skg_pattern.h/.c (the Hessian
 * patterns), skg_static.c (the static part of a reduced plan), skg_terms.h (the private helpers
 * on the point variables). */
#ifndef VM_SKG_H
#define VM_SKG_H

#include "skg/skg_types.h"
#include "skg/skg_plan.h"
#include "skg/skg_pattern.h"

/* A time window of the action: the interval [t0, tf] and the initial positions and velocities
 * q_i, v_i (n values each) there. */
typedef struct
{
  double t0, tf;
  const double *q_i, *v_i;
} vm_skg_window;

/* Build the discrete action of N nodes and SBP order order on the window w (its interval and
 * initial data).  par: np parameter values (may be NULL when np = 0).  The model is only read
 * (its graph is not modified).  Returns VM_OK or a vm_status code (VM_EARG, also for a NULL w,
 * VM_ENOMEM, or the vm_sbp_init errors). */
int vm_skg_build (vm_skg *s, const vm_mech *model, const double *par, int64_t N, int order,
                  const vm_skg_window *w);
void vm_skg_free (vm_skg *s);

/* Move s to the interval [t0, tf] with initial data q_i, v_i (a time window), keeping everything
 * that depends only on the model, N and the order: the compiled tapes, the Hessian pattern and
 * the plans (vm_skg_plan_build) stay valid.  The grid, H, the values of Ds and p_i are recomputed
 * (O(N)).  Returns VM_OK, VM_EARG, VM_ENOMEM or a vm_sbp_init error (s unchanged on those before
 * any recomputation; VM_EARG after it only for an inconsistent operator, which cannot happen). */
int vm_skg_set_window (vm_skg *s, double t0, double tf, const double *q_i, const double *v_i);

/* Set the origin qo (n values) of the q+ unknowns: from then on z[k nb + c] holds q+_k,c - qo_c
 * (0 after vm_skg_build, when z holds q+ itself; vm_skg_set_window keeps it).  Mathematically
 * nothing changes: q+ = qo + z enters L, F and g, and v+ = Da q+ = Ds z + H^{-1} e_0 (qo - q_i)
 * (Ds 1 = H^{-1} e_0: D differentiates constants exactly).  In floating point the velocities no
 * longer carry the rounding of |q+| amplified by 1/h: with qo = q_i a window of length L that
 * moves q by a small amount d has unknowns of size d, not |q|, and Ds z is exact to rounding of
 * d / h, which matters when short windows make |q| eps / h^2 exceed the precision that stiff
 * forces (contacts) need.  The gradient and the Hessian do not depend on qo.  Returns VM_OK or
 * VM_EARG (NULL arguments). */
int vm_skg_set_origin (vm_skg *s, const double *qo);

/* Evaluate at z (nz): *S (may be NULL), grad (nz, may be NULL), hval (s->nnz values in the
 * pattern colptr/rowind, may be NULL; the first call with hval builds the pattern, as
 * vm_skg_full_pattern, and its plan). */
int vm_skg_eval (vm_skg *s, const double *z, double *S, double *grad, double *hval);

/* As vm_skg_eval, with the Hessian values assembled into tval (p->tcp[nt] values) of the plan's
 * target matrix instead of the full pattern (tval may be NULL; p a plan of VM_SKG_TERM_FULL). */
int vm_skg_eval_plan (vm_skg *s, const double *z, double *S, double *grad, const vm_skg_plan *p,
                      double *tval);

/* The reduced tape (s->tr): the density's gradient in the minus variables (q-, v-, lambda-) and
 * its Hessian entries (minus, plus), with the minus variables replaced by 0 before compiling, so
 * that the constant folding removes what vanishes at q- = lambda- = 0 (the two branches L(q1) and
 * L(q2) become one: a tape of a fraction of the full one's length).  Built once
 * (a second call does nothing).  Returns VM_OK or VM_ENOMEM. */
int vm_skg_reduced_init (vm_skg *s);

/* The gradient and Hessian of S at the point z whose minus components (q-, lambda-) are taken as
 * 0, whatever z holds there -- skg_solve's reduced mode (skg_solve.h) -- from the reduced tape
 * (built at the first call, vm_skg_reduced_init): grad (nz, may be NULL) receives the minus
 * components of the gradient and 0 in the plus ones (which vanish: S is identically 0 on q- =
 * lambda- = 0); tval (may be NULL) the Hessian's (minus, plus) block
 * through p, a plan of VM_SKG_TERM_REDUCED, whose static part (above) is made at the first call in
 * each window.  S itself is 0 there and not returned.  Returns VM_OK,
 * VM_EARG (tval without such a plan), VM_ENOMEM or the tape's status. */
int vm_skg_eval_reduced (vm_skg *s, const double *z, double *grad, vm_skg_plan *p,
                         double *tval);

/* Index in z of node k (0-based) for kind 0 = q+, 1 = q-, 2 = lambda+, 3 = lambda-, component c. */
int64_t vm_skg_index (const vm_skg *s, int64_t k, int kind, int c);

#endif
