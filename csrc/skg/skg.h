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
 * pattern from vm_skg_pattern without the full one ever being built. */
#ifndef VM_SKG_H
#define VM_SKG_H

#include <stddef.h>
#include <stdint.h>

#include "model/expr.h"
#include "model/model.h"
#include "sbp/sbp.h"

/* Where each Hessian contribution of the discrete action goes in a target sparse matrix: the
 * full Hessian pattern (vm_skg_eval) or any matrix whose unknowns are node-major with tb per node
 * (e.g. skg_solve's reduced Jacobian).  Built once with the pattern (vm_skg_plan_build): at
 * "regular" nodes -- those whose Ds stencil and target columns are the reference node's shifted --
 * a contribution's slot is tcp[k tb + rel] + off with (rel, off) from one table for all of them;
 * the few other nodes (the SBP boundary closures) and the boundary term get explicit slots.  No
 * search during the evaluation; O(N) memory only for the node flags. */
/* The point term whose Hessian a plan scatters (vm_skg_plan_build): the density tape of the full
 * action (vm_skg_eval, vm_skg_eval_plan) or the reduced tape (vm_skg_eval_reduced). */
enum { VM_SKG_TERM_FULL = 0, VM_SKG_TERM_REDUCED = 1 };

typedef struct {
  int term;                     /* VM_SKG_TERM_FULL or VM_SKG_TERM_REDUCED */
  int tb;                       /* target unknowns per node */
  int64_t nt;                   /* target order N tb */
  const int64_t *tcp, *tri;     /* the target pattern (CSC, sorted rows; not owned) */
  int *rc, *cc;                 /* nb: target component of z-component c as a row / a column (-1) */
  unsigned char *eskip;         /* nhs: density Hessian entries with no target contributions */
  int64_t kref;                 /* the reference node */
  int64_t lref;                 /* its Ds row length */
  int64_t *dref;                /* lref: Ds column offsets dsj - kref of the reference row */
  int64_t ncon;                 /* contributions of a regular node (density term) */
  int64_t *rel1, *off1;         /* ncon: direct contribution: target column - k tb, offset in it */
  int64_t *rel2, *off2;         /* ncon: transposed contribution (off < 0: none) */
  int64_t *row1, *row2;         /* ncon: target row - k tb (to check the other nodes at build) */
  int64_t *xstart;              /* N: -1 at regular nodes, else the start of the node's slots */
  int64_t *xslot;               /* 2 per contribution of each irregular node (-1: none) */
  int64_t *bslot;               /* boundary term at node 0, then at node N-1: 2 per contribution */
  int64_t nbcon[2];             /* boundary contributions at node 0 and N-1 */
  int64_t nirregular;           /* irregular nodes */
  /* the static part (reduced term only; skg_static.c): the Hessian entries that depend on no
   * point variable (a constant mass matrix: most of the contributions of a mechanical system)
   * summed once per window into the tb columns of node kref (tmpl, ntmpl values), which are
   * then copied to every column of nodes kc_lo .. kc_hi-1, where all contributors are interior
   * nodes with kref's weight, stencil and column pattern; the nodes ks_lo .. ks_hi-1 contribute
   * to those columns only and skip the static entries */
  unsigned char *edyn, *estat;  /* nh: entries to skip in the dynamic and in the static pass */
  int64_t kc_lo, kc_hi, ks_lo, ks_hi;
  int64_t tc_lo, tc_hi;         /* the nodes whose contributions reach node kref's columns */
  double *tmpl;
  int64_t ntmpl;
  long tmpl_window;             /* s->window tmpl was made for; -1: none */
} vm_skg_plan;

typedef struct {
  int n, m, np, nb;            /* coordinates, constraints, parameters, unknowns per node */
  int64_t N, nz;               /* grid points, unknowns */
  int order;
  double t0, tf;
  vm_sbp op;
  double *hw;                  /* N: diagonal of H */
  double *t;                   /* N: grid */
  int64_t *dsp, *dsj;          /* Ds in compressed-row form: row k has dsj[dsp[k]..dsp[k+1]-1] */
  double *dsv;
  double *qi, *vi, *pi, *par;  /* n, n, n, np */
  double *qo;                  /* n: the origin of the q+ unknowns, z holds q+ - qo
                                  (vm_skg_set_origin; 0 after vm_skg_build) */
  /* symbolic part */
  vm_graph *g;                 /* private graph: model variables, then the point variables */
  int base;                    /* graph index of the point variable t */
  int na;                      /* active point variables: q+ q- v+ v- (n each) lambda+ lambda- (m) */
  vm_tape ts, tb;              /* density s and boundary term b = -q- . p+ */
  int nhs, nhb;                /* structural Hessian nonzeros (lower triangle) of s and of b */
  int *hsr, *hsc, *hbr, *hbc;  /* their (row, col) in active point-variable numbering, row >= col */
  int32_t sfun;                /* graph node of the density s */
  /* the reduced density tape (vm_skg_reduced_init; NULL / 0 until then): at q- = v- = lambda- = 0,
   * the gradient in the minus variables and the Hessian's (minus, plus) block, nothing else */
  vm_tape tr;
  int tr_ok;
  int ngr, *grv;               /* ngr = 2 n + m gradient outputs: active variable of output i */
  int nhr, *hrr, *hrc;         /* its Hessian entries: (minus variable, plus variable) */
  unsigned char *hrs;          /* nhr: 1 when entry e depends on no point variable (nor t) */
  double *outr, **outpr;       /* its outputs (N each) and their pointers */
  /* Hessian pattern of S (full, CSC, sorted rows; NULL and 0 until vm_skg_full_pattern) */
  int64_t nnz;
  int64_t *colptr, *rowind;
  /* work */
  double *x, *out, *xb, *outb, *work;
  const double **in, **inb;
  int *inc, *incb;
  double **outp, **outpb;
  double zero;
  int32_t *pl;                 /* n: graph nodes of dL/dqdot at the point (q+, v+) */
  vm_skg_plan full;            /* the plan of the full Hessian pattern (built at the first use) */
  int full_ok;
  double *zlast;               /* nz: the point of the last tape evaluation */
  int zlast_ok;                /* zlast and the tape outputs (x, out or outr, xb, outb) are valid */
  int zlast_term;              /* ... of this term: VM_SKG_TERM_FULL (out) or _REDUCED (outr) */
  long window;                 /* vm_skg_set_window calls (the plans' static parts follow it) */
  /* statistics of vm_skg_eval (wall-clock seconds) */
  long ntape;                  /* evaluations of the density tape */
  double t_tape, t_grad, t_hess;  /* in the tapes, the gradient and the Hessian assembly */
} vm_skg;

/* Build the discrete action.  par: np parameter values (may be NULL when np = 0); q_i, v_i: n
 * initial positions and velocities.  The model is only read (its graph is not modified).
 * Returns VM_OK or a vm_status code (VM_EARG, VM_ENOMEM, or the vm_sbp_init errors). */
int vm_skg_build (vm_skg *s, const vm_mech *model, const double *par, int64_t N, int order,
                  double t0, double tf, const double *q_i, const double *v_i);
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
 * d / h (a ball bouncing on a soft floor with friction at x = 0.9 m stalled at windows of 1e-6 s,
 * where |q| eps / h^2 was above the contact forces' precision; at x = 0 it passed).  The
 * gradient and the Hessian do not depend on qo.  Returns VM_OK or VM_EARG (NULL arguments). */
int vm_skg_set_origin (vm_skg *s, const double *qo);

/* Evaluate at z (nz): *S (may be NULL), grad (nz, may be NULL), hval (s->nnz values in the
 * pattern colptr/rowind, may be NULL; the first call with hval builds the pattern, as
 * vm_skg_full_pattern, and its plan). */
int vm_skg_eval (vm_skg *s, const double *z, double *S, double *grad, double *hval);

/* The plan of a target matrix of order nt = N tb with the CSC pattern tcp/tri: z-component c of
 * node k is target row k tb + rowc[c] and target column k tb + colc[c] (-1: not in the target;
 * rowc, colc have nb entries and are copied).  term: the tape whose Hessian entries it scatters,
 * VM_SKG_TERM_FULL (for vm_skg_eval_plan) or VM_SKG_TERM_REDUCED (for vm_skg_eval_reduced; needs
 * vm_skg_reduced_init first, and only the (minus row, plus column) contributions exist).
 * Contributions missing from the pattern are dropped (the pattern must hold those of the target's
 * rows and columns).  Returns VM_OK, VM_EARG or VM_ENOMEM. */
int vm_skg_plan_build (const vm_skg *s, int term, int tb, const int *rowc, const int *colc,
                       int64_t nt, const int64_t *tcp, const int64_t *tri, vm_skg_plan *p);
void vm_skg_plan_free (vm_skg_plan *p);

/* As vm_skg_eval, with the Hessian values assembled into tval (p->tcp[nt] values) of the plan's
 * target matrix instead of the full pattern (tval may be NULL; p a plan of VM_SKG_TERM_FULL). */
int vm_skg_eval_plan (vm_skg *s, const double *z, double *S, double *grad, const vm_skg_plan *p,
                      double *tval);

/* The reduced tape (s->tr): the density's gradient in the minus variables (q-, v-, lambda-) and
 * its Hessian entries (minus, plus), with the minus variables replaced by 0 before compiling, so
 * that the constant folding removes what vanishes at q- = lambda- = 0 (the two branches L(q1) and
 * L(q2) become one; the tumbler's tape 184 -> 74 instructions, the disk's 245 -> 91).  Built once
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

/* The full Hessian pattern into s->colptr (nz + 1), s->rowind and s->nnz, unless it is there
 * already (built once per vm_skg_build; vm_skg_set_window keeps it).  Callers that read colptr,
 * rowind or nnz call this first.  Returns VM_OK, VM_EARG or VM_ENOMEM (s->colptr NULL then). */
int vm_skg_full_pattern (vm_skg *s);

/* The CSC pattern (sorted rows) of the target matrix of order nt = N tb in which z-component c of
 * node k is row k tb + rowc[c] and column k tb + colc[c] (-1: not in the target; rowc, colc have
 * nb entries, each target component at most once): the structural nonzeros of that block of the
 * Hessian, what vm_skg_plan_build needs, and nothing else (the full pattern is not built).  Into
 * *colptr (nt + 1 entries) and *rowind (*nnz), from vm_scratch_alloc: the caller frees them with
 * vm_scratch_free (vm_scratch.h).  Returns VM_OK,
 * VM_EARG (a NULL argument, tb < 1, a map with an entry outside -1 .. tb-1 or a target component
 * twice) or VM_ENOMEM; *colptr and *rowind are NULL on failure.  O(nnz + N) time and memory. */
int vm_skg_pattern (const vm_skg *s, int tb, const int *rowc, const int *colc, int64_t **colptr,
                    int64_t **rowind, int64_t *nnz);

/* Index in z of node k (0-based) for kind 0 = q+, 1 = q-, 2 = lambda+, 3 = lambda-, component c. */
int64_t vm_skg_index (const vm_skg *s, int64_t k, int kind, int c);

#endif
