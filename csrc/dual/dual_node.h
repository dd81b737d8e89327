/* dual_node.h -- the node function of the discrete dual action: the dual Lagrangian at many time
 * points (plain C99).
 *
 * Contract.  A node function takes its context and a batch of points (vm_dual_points: npts of
 * them, every array point-major and contiguous per point, nl = 2 nd + ng local variables):
 *   in   t[k]; u[k nl + j], u = (Ddot_d, D_d, D_a); ybar[k ny + i], the base state;
 *   y    y[k ny + i]: in, a starting guess for the DtP map (the previous y^H); out, y^H;
 *   out  val[k] = LL; grad[k nl + j] = dLL/du_j; hess[k nl nl + i nl + j] = d2LL/du_i du_j
 *        (hess may be NULL: then only val, grad and y are made);
 *   bad  out: the first failing point, or -1.
 * Returns VM_OK, or VM_EDTP (with bad set) when the DtP map has no well-conditioned root at a
 * point, VM_EARG, VM_ENOMEM or an evaluation error.  Cost: the implementation's (a few small dense
 * solves per point).  Why one struct for the batch: the general engine (dual_ode.h), the closed
 * forms (dual_closed.h) and a test's synthetic Lagrangian plug into the action (dual.h), the
 * periodic action (dual_periodic.h) and the march (dual_march.h) through this one signature. */
#ifndef VM_DUAL_NODE_H
#define VM_DUAL_NODE_H

#include <stdint.h>

typedef struct
{
  int64_t npts;          /* points in the batch (>= 0) */
  const double *t;       /* npts times (the closed forms that do not use t accept NULL) */
  const double *u;       /* npts nl local variables (Ddot_d, D_d, D_a) */
  const double *ybar;    /* npts ny base states */
  double *y;             /* npts ny: in the DtP map's starting guess, out y^H */
  double *val;           /* npts dual Lagrangians (may be NULL where the implementation says) */
  double *grad;          /* npts nl gradients (likewise) */
  double *hess;          /* npts nl nl Hessians, row-major (NULL: not wanted) */
  int64_t bad;           /* out: the first failing point, -1 when none */
} vm_dual_points;

typedef int (*vm_dual_node_fn) (void *ctx, vm_dual_points *p);

#endif
