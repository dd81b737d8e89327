/* dual_ode.h -- the general node function of the dual action: any compiled first-order system
 * (plain C99).
 *
 * For a vm_ode (model.h) with differential states y_d (nd), algebraic states (ny - nd) and ng
 * algebraic equations, the engine evaluates the dual Lagrangian of dual.h at batches of points
 * (vm_dual_ode_node, a vm_dual_node_fn of dual_node.h): the DtP map y^H by Newton's method on
 * r(y) = c o (y - ybar) - [Ddot_d; 0] - F_y' D_d + G_y' D_a = 0 (one step when F and G are at most
 * quadratic in y), LL, its gradient (-y^H_d, -F, G) and its Hessian -B' A^{-1} B.  It also gives
 * the march (dual_march.h) the primal right-hand side, its Jacobian and the algebraic states.
 * Cost per point: one tape sweep and one ny x ny LU per DtP iteration, and nl more solves for the
 * Hessian.  Why one engine: the node function is the only part of the action that depends on the
 * model; the closed forms of dual_closed.h are this engine's results written out by hand. */
#ifndef VM_DUAL_ODE_H
#define VM_DUAL_ODE_H

#include <stdint.h>

#include "dual/dual_node.h"
#include "model/model.h"

typedef struct {
  int ny, nd, ng, np;
  vm_block blk;                /* VM_ODE_SYSTEM block */
  int linear;                  /* 1: F and G at most quadratic in y (r is affine in y): one step */
  double *par, *c;
  double *cr;                  /* ny: 1 / sqrt (c_i), the DtP matrix's equilibration */
  double tol;                  /* DtP Newton: |r_i| <= tol s_i for every i, s_i the sum of the
                                  moduli of r_i's terms (default 1e-13) */
  int max_iter;
  /* work for npts points */
  int64_t cap;
  double *fF, *fFy, *fG, *fGy, *fWF, *fWG, *fFt, *fGt, *work;
  double *A, *B, *X, *r, *s;   /* per-point dense work (s: the sizes of r's terms) */
  int *piv;
  const double **in;           /* the block's inputs (one per tape variable) and their strides */
  int *inc;
  int fslot[8];                /* the block's fields F, F_y, F_t, G, G_y, G_t, wF_yy, wG_yy (-1) */
  long dtp_iters;              /* total DtP Newton iterations (statistics) */
} vm_dual_ode;

/* Compile the system block of o and detect linearity (o's graph gains the derivative nodes).
 * par: o->np parameter values (NULL when np = 0); c: the ny weights of H, each > 0 and finite.
 * Returns VM_OK, VM_EARG (NULL e, o or c, no differential state, a weight not > 0 or not finite),
 * VM_ENOMEM or the codes of vm_ode_block; on failure nothing stays allocated. */
int vm_dual_ode_init (vm_dual_ode *e, vm_ode *o, const double *par, const double *c);
void vm_dual_ode_free (vm_dual_ode *e);

/* The node function (dual_node.h; ctx: a vm_dual_ode).  The DtP map's Newton stops when every
 * residual is at most e->tol times the sum of the moduli of its terms, or fails (VM_EDTP) after
 * e->max_iter steps, at a non-finite residual or a singular DtP matrix (a pivot below 1e-12 of
 * the equilibrated matrix's largest entry). */
int vm_dual_ode_node (void *ctx, vm_dual_points *p);

/* The primal right-hand side of the compiled system (ctx: a vm_dual_ode) at npts points:
 * t[k], y[k ny + i] -> F[k nd + i] (point-major).  Returns VM_OK, VM_EARG (NULL arguments,
 * npts < 0), VM_ENOMEM or an evaluation error; the values may be non-finite (the caller checks). */
int vm_dual_ode_rhs (void *ctx, int64_t npts, const double *t, const double *y, double *F);

/* F (nd) and F_y (Fy[a + nd i] = dF_a/dy_i, nd x ny column-major) of the compiled system (ctx: a
 * vm_dual_ode) at one point (t, y).  Fy may be NULL.  Returns VM_OK, VM_EARG (NULL ctx, y or F),
 * VM_ENOMEM or an evaluation error; the values may be non-finite (the caller checks). */
int vm_dual_ode_jac (void *ctx, double t, const double *y, double *F, double *Fy);

/* Replace the weights of H of the engine (ctx: a vm_dual_ode): c, ny values, each > 0 and
 * finite.  Returns VM_OK, or VM_EARG (NULL arguments, a weight not > 0 or not finite: nothing is
 * changed).  Used by the march's automatic weights (dual_march.h). */
int vm_dual_ode_set_weights (void *ctx, const double *c);

/* The algebraic states of a square system (ng = ny - nd) at one point: y[nd .. ny-1] is replaced
 * by the solution of G(t, y) = 0 in them, by Newton's method from the given values with the exact
 * dG/dya (at most VM_DUAL_ALG_MAXIT steps, converged when a step is at most VM_DUAL_ALG_TOL
 * (1 + |ya|_inf)).  The differential states are not changed.  ctx: a vm_dual_ode.  Returns VM_OK
 * (also when ny = nd), VM_EARG (NULL arguments, a nonsquare system), VM_ESINGULAR (dG/dya has a
 * zero pivot: the equations do not determine the algebraic states), VM_ENONFINITE,
 * VM_ENEWTON_MAXIT, VM_ENOMEM or an evaluation error; y is unchanged on failure. */
#define VM_DUAL_ALG_MAXIT 20
#define VM_DUAL_ALG_TOL 1e-12
int vm_dual_ode_algebraic (void *ctx, double t, double *y);

#endif
