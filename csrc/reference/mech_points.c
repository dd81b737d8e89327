/* mech_points.c -- the equations of motion at given states, for the action solvers' output
 * (mech_points.h).
 *
 * Contract: see mech_points.h.  One vm_motion (motion.h, ideal law) is prepared at init; each
 * point then costs one evaluation of the blocks (and one ideal reaction solve for the
 * multipliers, up to 40 for a projection) and small O(n m) allocations, so the solvers'
 * outputs use the same equations as gauss_integrate.
 */
#include "reference/mech_points.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vm_status.h"

void
vm_mech_points_free (vm_mech_points *p)
{
  int k;
  if (! p)
    return;
  vm_motion_free (&p->mo);
  for (k = 0; k < p->nb; k++)
    vm_block_free (&p->b[k]);
  memset (p, 0, sizeof *p);
}

static int
compile (vm_mech_points *p, vm_mech *model)
{
  int st;
  if ((st = vm_mech_block (model, VM_MECH_EOM, &p->b[0])) != VM_OK)
    return st;
  p->nb = 1;
  if ((st = vm_mech_motion_block (model, &p->b[1])) != VM_OK)
    return st;
  p->nb = 2;
  if (model->nc > 0)
    {
      if ((st = vm_mech_block (model, VM_MECH_CONTACTS, &p->b[2])) != VM_OK)
        return st;
      p->nb = 3;
    }
  return VM_OK;
}

int
vm_mech_points_init (vm_mech_points *p, vm_mech *model, const double *par)
{
  int st, a;
  if (! p)
    return VM_EARG;
  memset (p, 0, sizeof *p);
  if (! model || ! model->g || (model->np > 0 && ! par))
    return VM_EARG;
  st = compile (p, model);
  if (st == VM_OK)
    {
      const vm_motion_setup ms = { model->n, model->m, model->np, &p->b[0], &p->b[1],
                                   p->nb == 3 ? &p->b[2] : NULL, par, VM_LAW_IDEAL, 0, NULL };
      st = vm_motion_init (&p->mo, &ms);
    }
  if (st != VM_OK)
    {
      vm_mech_points_free (p);
      return st;
    }
  for (a = 0; a < model->m; a++)
    {
      int j, hol = 1;
      for (j = 0; j < model->n && hol; j++)
        hol = ! vm_depends (model->g, model->gc[a], model->vqd + j);
      p->nhol += hol;
    }
  return VM_OK;
}

int
vm_mech_points_multipliers (vm_mech_points *p, int64_t npts, const double *t, const double *q,
                            const double *qdot, int64_t ld, double *lambda, int64_t *nsingular)
{
  int n = p->mo.n, m = p->mo.m, i, st = VM_OK;
  int64_t k;
  double *qk, *vk, *acc, *lk;
  if (nsingular)
    *nsingular = 0;
  if (m == 0 || npts <= 0)
    return VM_OK;
  if ((qk = malloc ((size_t) (3 * n + m) * sizeof *qk)) == NULL)
    return VM_ENOMEM;
  vk = qk + n;
  acc = vk + n;
  lk = acc + n;
  for (k = 0; k < npts && st == VM_OK; k++)
    {
      for (i = 0; i < n; i++)
        {
          qk[i] = q[k + ld * i];
          vk[i] = qdot[k + ld * i];
        }
      st = vm_motion_accel (&p->mo, t[k], qk, vk, acc, lk);
      if (st == VM_ESINGULAR)
        {
          for (i = 0; i < m; i++)
            lk[i] = NAN;
          if (nsingular)
            (*nsingular)++;
          st = VM_OK;
        }
      for (i = 0; i < m && st == VM_OK; i++)
        lambda[k + ld * i] = lk[i];
    }
  free (qk);
  return st;
}

int
vm_mech_points_residuals (vm_mech_points *p, int64_t npts, const double *t, const double *q,
                          const double *qdot, int64_t ld, const vm_mech_residuals *out)
{
  double *energy = out->energy, *phi = out->phi, *gpos = out->gpos, *ucon = out->contact_energy;
  int n = p->mo.n, m = p->mo.m, i, st = VM_OK;
  int64_t k;
  double *qk, *vk;
  if (npts <= 0)
    return VM_OK;
  if ((qk = malloc ((size_t) (2 * n) * sizeof *qk)) == NULL)
    return VM_ENOMEM;
  vk = qk + n;
  for (k = 0; k < npts && st == VM_OK; k++)
    {
      int ok = isfinite (t[k]);
      for (i = 0; i < n; i++)
        {
          qk[i] = q[k + ld * i];
          vk[i] = qdot[k + ld * i];
          ok = ok && isfinite (qk[i]) && isfinite (vk[i]);
        }
      if (ok)
        st = vm_motion_eval (&p->mo, t[k], qk, vk, 0);
      if (st != VM_OK)
        break;
      /* eom: M, f, energy, contact_energy; motion: phi, A, c, hol, gpos, gpos_q (motion.h) */
      if (energy)
        energy[k] = ok ? p->mo.eom.field[2][0] : NAN;
      if (ucon)
        ucon[k] = ok ? p->mo.eom.field[3][0] : NAN;
      for (i = 0; i < m; i++)
        {
          if (phi)
            phi[k + ld * i] = ok ? p->mo.mot.field[0][i] : NAN;
          if (gpos)
            gpos[k + ld * i] = ok ? p->mo.mot.field[4][i] : NAN;
        }
    }
  free (qk);
  return st;
}

int
vm_mech_points_project (vm_mech_points *p, int64_t npts, const double *t, double *q,
                        double *qdot, int64_t ld, double tol)
{
  int n = p->mo.n, i, st = VM_OK;
  int64_t k;
  double *qk, *vk;
  if (p->mo.m == 0 || npts <= 0)
    return VM_OK;
  if ((qk = malloc ((size_t) (2 * n) * sizeof *qk)) == NULL)
    return VM_ENOMEM;
  vk = qk + n;
  for (k = 0; k < npts && st == VM_OK; k++)
    {
      for (i = 0; i < n; i++)
        {
          qk[i] = q[k + ld * i];
          vk[i] = qdot[k + ld * i];
        }
      st = vm_motion_project (&p->mo, t[k], qk, vk, tol);
      for (i = 0; i < n && st == VM_OK; i++)
        {
          q[k + ld * i] = qk[i];
          qdot[k + ld * i] = vk[i];
        }
    }
  free (qk);
  return st;
}

int
vm_mech_points_mass_scale (vm_mech_points *p, double t, const double *q, const double *qdot,
                           double *scale)
{
  const int n = p->mo.n;
  const double *M;
  double s = 0.0;
  int st, i;
  *scale = 1.0;
  if ((st = vm_motion_eval (&p->mo, t, q, qdot, 0)) != VM_OK)
    return st;
  M = p->mo.eom.field[0];
  for (i = 0; i < n * n; i++)
    s = fmax (s, fabs (M[i]));
  if (s > 0.0 && s <= DBL_MAX)
    *scale = s;
  return VM_OK;
}

int
vm_mech_points_constraint_scales (vm_mech_points *p, double t, const double *q,
                                  const double *qdot, double *gscale, int *hol)
{
  const int n = p->mo.n, m = p->mo.m;
  const double *A, *h;
  int st, a, j;
  for (a = 0; a < m; a++)
    {
      gscale[a] = 1.0;
      hol[a] = 0;
    }
  if ((st = vm_motion_eval (&p->mo, t, q, qdot, 0)) != VM_OK)
    return st;
  A = p->mo.mot.field[1];
  h = p->mo.mot.field[3];
  for (a = 0; a < m; a++)
    {
      double s = 0.0;
      for (j = 0; j < n; j++)
        s = fmax (s, fabs (A[a + (size_t) m * j]));
      if (s > 0.0 && s <= DBL_MAX)
        gscale[a] = s;
      hol[a] = h[a] != 0;
    }
  return VM_OK;
}
