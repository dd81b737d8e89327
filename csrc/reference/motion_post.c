/* motion_post.c -- the post-processing of vm_motion_integrate at the stored points: multipliers,
 * energy, constraint residuals, the reaction's power and the constraints' drift (vm_motion_sol,
 * motion.h).
 *
 * Contract: one vm_motion_accel per stored point (O(npts (tape + reaction solve))), the arrays of
 * sol allocated here; a point where the reaction cannot be computed keeps NaN multipliers and
 * power and its residuals.  The drift is measured against the tolerances of the state, so that
 * the note it sets means the same in any units.
 */
#include "reference/motion.h"
#include "reference/motion_impl.h"
#include "reference/reaction.h"
#include "base/vm_status.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the reaction's power R . qdot, R = M qddot - f, with the f of the last vm_motion_accel */
static double
reaction_power (const vm_motion *mo, const double *qdot, const double *qdd)
{
  int i, j, n = mo->n;
  const double *M = mo->eom.field[0];
  const double *f = mo->hard && mo->con.b && mo->nc > 0 ? mo->feff : mo->eom.field[1];
  double p = 0;
  for (i = 0; i < n; i++)
    {
      double r = -f[i];
      for (j = 0; j < n; j++)
        r += M[i + (size_t) n * j] * qdd[j];
      p += r * qdot[i];
    }
  return p;
}

/* The tolerances of the positions and of the velocities over the stored points, atol + rtol
 * max_k ||q_k||_inf and the same with qdot (the scales of vm_motion_sol.drift). */
static void
drift_scales (const vm_motion_opts *o, const vm_motion_sol *sol, int n, int ny, double *tq,
              double *tv)
{
  double qmax = 0.0, vmax = 0.0;
  size_t k;
  int j;
  for (k = 0; k < sol->npts; k++)
    for (j = 0; j < n; j++)
      {
        qmax = fmax (qmax, fabs (sol->y[k * (size_t) ny + j]));
        vmax = fmax (vmax, fabs (sol->y[k * (size_t) ny + n + j]));
      }
  *tq = o->ode.atol + o->ode.rtol * qmax;
  *tv = o->ode.atol + o->ode.rtol * vmax;
}

/* The drift at stored point k (vm_motion_sol.drift), from the motion block evaluated there: each
 * residual against the change a state error at the tolerance makes in it, |g_a| / (tq
 * ||dg_a/dq||_1) (holonomic rows) and |phi_a| / (tv ||A_a||_1) (all rows). */
static double
drift_at (const vm_motion *mo, const vm_motion_sol *sol, size_t k, double tq, double tv)
{
  const int n = mo->n, m = mo->m;
  const double *A = mo->mot.field[1], *hol = mo->mot.field[3], *gq = mo->mot.field[5];
  double d = 0.0;
  int a, j;
  for (a = 0; a < m; a++)
    {
      double na = 0.0, ng = 0.0;
      for (j = 0; j < n; j++)
        {
          na += fabs (A[a + (size_t) m * j]);
          ng += fabs (gq[a + (size_t) m * j]);
        }
      if (na > 0.0)
        d = fmax (d, fabs (sol->phi[k * m + a]) / (tv * na));
      if (hol[a] != 0 && ng > 0.0)
        d = fmax (d, fabs (sol->gpos[k * m + a]) / (tq * ng));
    }
  return d;
}

/* multipliers (vakonomic: mu and mudot), energy, residuals, power and the constraints' drift
 * (drift, drift_note) at the stored points; a failed allocation sets VM_ENOMEM unless the run
 * failed already */
void
vm_motion_post_process (vm_motion *mo, const vm_motion_opts *o, vm_motion_sol *sol, int nm, int ny)
{
  size_t np = sol->npts, k;
  int n = mo->n, m = mo->m, vak = mo->law == VM_LAW_VAKONOMIC, a;
  double *qdd = malloc ((size_t) n * sizeof *qdd), tq, tv, drift = 0.0;
  drift_scales (o, sol, n, ny, &tq, &tv);
  sol->mult = calloc (np * (size_t) (nm > 0 ? nm : 1), sizeof (double));
  sol->mult_rate = vak ? calloc (np * (size_t) (m > 0 ? m : 1), sizeof (double)) : NULL;
  sol->power = calloc (np, sizeof (double));
  sol->energy = calloc (np, sizeof (double));
  sol->contact_energy = calloc (np, sizeof (double));
  sol->phi = calloc (np * (size_t) (m > 0 ? m : 1), sizeof (double));
  sol->gpos = calloc (np * (size_t) (m > 0 ? m : 1), sizeof (double));
  if (! qdd || ! sol->mult || (vak && ! sol->mult_rate) || ! sol->power || ! sol->energy
      || ! sol->contact_energy || ! sol->phi || ! sol->gpos)
    {
      if (sol->status == VM_OK)
        sol->status = VM_ENOMEM;
      free (qdd);
      return;
    }
  for (k = 0; k < np; k++)
    {
      const double *yk = sol->y + k * (size_t) ny;
      double *mk = nm > 0 ? sol->mult + k * nm : NULL;
      double *out = vak ? (m > 0 ? sol->mult_rate + k * m : NULL) : mk;
      int s2;
      if (vak)
        {
          mo->mu = yk + 2 * n;
          if (m > 0)
            memcpy (mk, yk + 2 * n, (size_t) m * sizeof (double));
        }
      s2 = vm_motion_accel (mo, sol->t[k], yk, yk + n, qdd, out);
      if (s2 != VM_OK)   /* keep NaN where the reaction could not be computed */
        {
          for (a = 0; a < nm; a++)
            out[a] = NAN;
          sol->power[k] = NAN;
          if (vm_motion_eval (mo, sol->t[k], yk, yk + n, 0) != VM_OK)
            continue;
        }
      else
        sol->power[k] = reaction_power (mo, yk + n, qdd);
      /* eom: energy (contacts' potentials included), contact_energy; hard walls are no part of
       * the model's forces (motion.h): their potential is not counted */
      sol->contact_energy[k] = mo->hard ? 0.0 : mo->eom.field[3][0];
      sol->energy[k] = mo->eom.field[2][0] - (mo->hard ? mo->eom.field[3][0] : 0.0);
      for (a = 0; a < m; a++)
        {
          sol->phi[k * m + a] = mo->mot.field[0][a];
          sol->gpos[k * m + a] = mo->mot.field[4][a];
        }
      drift = fmax (drift, drift_at (mo, sol, k, tq, tv));
    }
  free (qdd);
  sol->drift = drift;
  sol->drift_note = sol->status == VM_OK && ! o->project && mo->law != VM_LAW_EXPLICIT
                    && drift > VM_MOTION_DRIFT_NOTE;
}

/* the multipliers at the output points, as vm_motion_post_process computes them at the steps
 * (the vakonomic law: mu, a part of the state) */
void
vm_motion_post_output (vm_motion *mo, vm_motion_sol *sol, int nm, int ny)
{
  size_t np = sol->nout, k;
  int n = mo->n, vak = mo->law == VM_LAW_VAKONOMIC, a;
  double *qdd = malloc ((size_t) n * sizeof *qdd);
  sol->omult = calloc (np * (size_t) (nm > 0 ? nm : 1), sizeof (double));
  if (! qdd || ! sol->omult)
    {
      if (sol->status == VM_OK)
        sol->status = VM_ENOMEM;
      free (qdd);
      return;
    }
  for (k = 0; k < np; k++)
    {
      const double *yk = sol->oy + k * (size_t) ny;
      double *mk = nm > 0 ? sol->omult + k * nm : NULL;
      if (vak)
        {
          if (nm > 0)
            memcpy (mk, yk + 2 * n, (size_t) nm * sizeof (double));
          continue;
        }
      if (vm_motion_accel (mo, sol->ot[k], yk, yk + n, qdd, mk) != VM_OK)
        for (a = 0; a < nm; a++)
          mk[a] = NAN;
    }
  free (qdd);
}
