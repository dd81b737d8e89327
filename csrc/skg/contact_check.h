/* contact_check.h -- is a trajectory sampled finely enough for the regularized contacts of a
 * vm_mech?  The acceptance check of skg_solve's windows (march.h, vm_march_action.check)
 * (plain C99, no Octave headers).
 *
 * The normal force of contact c is a Gaussian of width sigma_c in its gap h_c (model.h;
 * csrc/model/model.c, build_contact): FN = V0/sqrt(2 pi sigma^2) exp(-h^2/(2 sigma^2)) grad h.  It acts
 * where |h| is a few sigma and is negligible beyond (exp(-18) = 1.5e-8 of its peak at 6 sigma).
 * A discretization whose nodes step over that layer does not see the force at all: the SBP
 * solution of any order, and an error estimate made by comparing two orders, agree on a
 * trajectory that passes through the wall.  Error control cannot see this; a resolution test can.
 *
 * The test.  For each interval [t_k, t_k+1] between consecutive nodes and each contact, with
 * hdot = grad h . qdot at the nodes,
 *   dh_k = max (|h_k+1 - h_k|, (t_k+1 - t_k) max (|hdot_k|, |hdot_k+1|))
 * bounds the change of h over the interval, also when h turns around inside it (a bounce between
 * two nodes with equal h).  The interval is in the layer when [min h - dh_k, max h + dh_k] meets
 * [-layer sigma, layer sigma]; an interval in the layer must have dh_k <= res sigma.  When some
 * do not, the check fails and suggests the factor min_k (res sigma / dh_k) over the failing
 * intervals of all contacts (by how much the window must shrink for dh to come down to
 * res sigma at the same speed); its text names the contact and interval of that minimum.  An interval away from the
 * layer is not restricted, nor is a long stay in the layer at small normal speed (sliding on a
 * wall): dh is small there.  The test needs no bound on the energy: a particle that has the
 * energy to cross the barrier crosses it resolved.  Non-finite h, hdot or sigma fail the check
 * (factor 0.5); a contact with sigma = 0 has no layer to resolve (its force is not finite).
 */
#ifndef VM_CONTACT_CHECK_H
#define VM_CONTACT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "model/expr.h"
#include "model/model.h"

typedef struct
{
  int nc, n, nvar;
  double layer;             /* half-width of the layer in units of sigma (default
                               VM_CONTACT_LAYER, 6, model.h) */
  double res;               /* largest change of h between two nodes in the layer, in units of
                               sigma (default VM_CONTACT_RES, 1) */
  vm_tape tape;             /* per contact: h, hdot, |sigma| */
  const double *par;        /* np parameters (not owned) */
  const double **in;        /* nvar tape inputs */
  int *inc;
  double **out;             /* 3 nc tape outputs */
  double *val, *work, zero;
  int64_t cap;              /* points that val holds */
} vm_contact_check;

/* Compile the check of the model's contacts (model->nc >= 1; the model is only read; par: its
 * np parameters, kept by reference).  Defaults layer 6, res 1.  Returns VM_OK, VM_EARG or
 * VM_ENOMEM (k is then empty, and vm_contact_check_free may still be called). */
int vm_contact_check_init (vm_contact_check *k, const vm_mech *model, const double *par);
void vm_contact_check_free (vm_contact_check *k);

/* A trajectory to check: N >= 2 increasing nodes t, q and qdot column-major (component i at
 * q[j + ld i], j = 0..N-1, ld >= N). */
typedef struct {
  int64_t N;
  const double *t, *q, *qdot;
  int64_t ld;
} vm_contact_traj;

/* Check the trajectory tr.  *ok = 1: resolved (*factor = 1).  *ok = 0: not; *factor in (0, 1)
 * is the suggested shrink factor of the window, why (nwhy bytes, may be NULL) says which
 * contact, where and by how much.  Returns VM_OK, VM_EARG or VM_ENOMEM.  Cost: one tape sweep
 * over the N nodes and one pass over the nc contacts' values. */
int vm_contact_check_eval (vm_contact_check *k, const vm_contact_traj *tr, int *ok, double *factor,
                           char *why, size_t nwhy);

#endif
