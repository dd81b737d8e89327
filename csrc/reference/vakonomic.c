/* vakonomic.c -- the vakonomic reaction law (vakonomic.h; doc/reactions.md, section 8): the block W
 * built symbolically in the model's graph, and the accelerations at one point.
 *
 * Contract: vm_mech_vakonomic_block differentiates each constraint row once (O(m n) graph nodes);
 * vm_vakonomic_accel is one ideal reaction solve with the force f - W^T mu (O(n m) more), because
 * the pair (qddot, mudot) of the vakonomic equations is the ideal system's (qddot, -lambda).
 */
#include "reference/vakonomic.h"
#include "reference/reaction.h"
#include "base/vm_status.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#define B2(op, x, y) vm_binary (g, op, x, y)

/* 1 when phi (a velocity-level constraint) is not linear in qdot: some dphi/dqdot_j depends on qdot */
static int
nonlinear_in_qdot (vm_mech *m, const int32_t *arow)
{
  int j, k;
  for (j = 0; j < m->n; j++)
    for (k = 0; k < m->n; k++)
      if (vm_depends (m->g, arow[j], m->vqd + k))
        return 1;
  return 0;
}

/* W_ai = sum_j dA_ai/dq_j qdot_j + dA_ai/dt - dphi/dq_i for one constraint row */
static int32_t
w_entry (vm_mech *m, int32_t phi, int32_t aij, int i)
{
  vm_graph *g = m->g;
  int32_t w = vm_diff (g, aij, m->vt);
  int j;
  for (j = 0; j < m->n; j++)
    w = B2 (VM_OP_ADD, w, B2 (VM_OP_MUL, vm_diff (g, aij, m->vq + j), vm_var (g, m->vqd + j)));
  return B2 (VM_OP_SUB, w, vm_diff (g, phi, m->vq + i));
}

/* phi of constraint a as the motion block uses it: g itself, or g_q qdot + g_t when holonomic */
static int32_t
velocity_level (vm_mech *m, int a, int *hol)
{
  vm_graph *g = m->g;
  int32_t ga = m->gc[a], phi;
  int j;
  *hol = 1;
  for (j = 0; j < m->n; j++)
    if (vm_depends (g, ga, m->vqd + j))
      *hol = 0;
  if (! *hol)
    return ga;
  phi = vm_diff (g, ga, m->vt);
  for (j = 0; j < m->n; j++)
    phi = B2 (VM_OP_ADD, phi, B2 (VM_OP_MUL, vm_diff (g, ga, m->vq + j), vm_var (g, m->vqd + j)));
  return phi;
}

int
vm_mech_vakonomic_block (vm_mech *m, vm_block *blk)
{
  vm_builder b;
  vm_graph *g = m->g;
  int n = m->n, a, i, hol, fW, fnl;
  int32_t *arow = malloc ((size_t) (n > 0 ? n : 1) * sizeof *arow);
  if (! arow)
    return VM_ENOMEM;
  vm_builder_init (&b, g);
  fW = vm_builder_field (&b, "W", m->m, n);
  fnl = vm_builder_field (&b, "nonlin", m->m, 1);
  for (a = 0; a < m->m && b.status == VM_OK; a++)
    {
      int32_t phi = velocity_level (m, a, &hol);
      if (hol)
        continue;   /* W = 0 exactly; linear */
      for (i = 0; i < n; i++)
        arow[i] = vm_diff (g, phi, m->vqd + i);
      if (nonlinear_in_qdot (m, arow))
        {
          vm_builder_out (&b, fnl, a, 0, vm_const (g, 1.0));
          continue;
        }
      for (i = 0; i < n; i++)
        vm_builder_out (&b, fW, a, i, w_entry (m, phi, arow[i], i));
    }
  free (arow);
  return vm_builder_finish (&b, blk);
}

int
vm_vakonomic_accel (const vm_reaction_problem *p, const double *W, const double *mu, double *qddot,
                    double *mudot, double *rcond, double *fw, const vm_reaction_work *ws)
{
  vm_reaction_problem q;
  int i, a, st, n, m;
  if (! p || p->n < 1 || p->m < 0 || ! p->f || ! fw || ! qddot || (p->m > 0 && (! W || ! mu)))
    return VM_EARG;
  n = p->n;
  m = p->m;
  for (i = 0; i < n; i++)
    {
      double s = p->f[i];
      for (a = 0; a < m; a++)
        s -= W[a + (size_t) m * i] * mu[a];
      fw[i] = s;
    }
  for (a = 0; a < m; a++)
    if (! isfinite (mu[a]))
      return VM_EARG;
  /* the ideal solve with f - W^T mu: lambda = -mudot */
  q = *p;
  q.f = fw;
  st = vm_reaction_ideal (&q, qddot, mudot, NULL, rcond, ws);
  if (mudot)
    for (a = 0; a < m; a++)
      mudot[a] = -mudot[a];
  return st;
}
