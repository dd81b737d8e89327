/* motion_project.c -- projection of a state onto the constraints in the metric M
 * (vm_motion_project, motion.h).
 *
 * Contract: at most 20 Newton steps at position level and 20 at velocity level, each one
 * evaluation of the blocks and one ideal reaction solve with zero force (reaction.h); one
 * allocation of O(n m) scratch per call.  The Newton step of a projection in the metric M is the
 * ideal reaction's correction, which is why the reaction solver does the work.
 */
#include "reference/motion.h"
#include "reference/motion_impl.h"
#include "reference/reaction.h"
#include "base/vm_status.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the scratch of one projection: a zero force (n), the holonomic rows G (m x n) and residuals g
 * (m), the correction dq (n) */
typedef struct
{
  const double *zero;
  double *G, *g, *dq;
} proj_buf;


static double
maxabs (const double *x, int n)
{
  double r = 0;
  int i;
  for (i = 0; i < n; i++)
    if (! (fabs (x[i]) <= r))
      r = fabs (x[i]);
  return r;
}

/* The holonomic rows of the constraints, -g(t, q), into g (nh of them) and their gradients into
 * G (nh x n, column-major) from the motion's last evaluation; the count nh. */
static int
holonomic_rows (const vm_motion *mo, double *G, double *g)
{
  const double *hol = mo->mot.field[3], *gp = mo->mot.field[4], *gq = mo->mot.field[5];
  int n = mo->n, m = mo->m, a, j, nh = 0, r = 0;
  for (a = 0; a < m; a++)
    if (hol[a] != 0)
      nh++;
  for (a = 0; a < m; a++)
    if (hol[a] != 0)
      {
        g[r] = -gp[a];
        for (j = 0; j < n; j++)
          G[r + (size_t) nh * j] = gq[a + (size_t) m * j];
        r++;
      }
  return nh;
}

/* The projection's last correction dx of x is at the rounding level of x (every |dx_j| <= 8 eps
 * max (1, ||x||_inf)): the residual cannot be reduced further, whatever tol asked.  This stop is
 * needed because a constraint written in large units (x^2 + y^2 - l^2 with l = 1e3: |g| ~ eps l^2
 * at best) never meets a small absolute tol (doc/skg.md, "Stopping", units). */
static int
at_rounding (const double *dx, const double *x, int n)
{
  const double lim = 8.0 * DBL_EPSILON * fmax (1.0, maxabs (x, n));
  int j;
  for (j = 0; j < n; j++)
    if (! (fabs (dx[j]) <= lim))
      return 0;
  return 1;
}

/* Positions onto the holonomic constraints: at most 20 mass-weighted projections (the ideal
 * reaction with zero force), until max |g| <= tol or the correction is at rounding
 * (at_rounding); VM_EPROJECT when they do not get there. */
static int
project_positions (vm_motion *mo, double t, double *q, const double *qdot, double tol,
                   const proj_buf *b)
{
  const double *zero = b->zero;
  double *G = b->G, *g = b->g, *dq = b->dq;
  int n = mo->n, it, j, nh, st;
  for (it = 0; it < 20; it++)
    {
      if ((st = vm_motion_eval (mo, t, q, qdot, 0)) != VM_OK)
        return st;
      nh = holonomic_rows (mo, G, g);
      if (nh == 0 || maxabs (g, nh) <= tol)
        return VM_OK;
      {
        const vm_reaction_problem pr = { n, nh, 0, mo->eom.field[0], zero, G, g, NULL };
        st = vm_reaction_ideal (&pr, dq, NULL, NULL, &mo->rcond, &mo->rws);
      }
      if (st != VM_OK)
        return st;
      for (j = 0; j < n; j++)
        q[j] += dq[j];
      if (at_rounding (dq, q, n))
        return VM_OK;
    }
  return VM_EPROJECT;
}

/* Velocities onto every constraint row, as project_positions. */
static int
project_velocities (vm_motion *mo, double t, const double *q, double *qdot, double tol,
                    const proj_buf *b)
{
  const double *zero = b->zero;
  double *g = b->g, *dq = b->dq;
  int n = mo->n, m = mo->m, it, a, j, st;
  for (it = 0; it < 20; it++)
    {
      if ((st = vm_motion_eval (mo, t, q, qdot, 0)) != VM_OK)
        return st;
      for (a = 0; a < m; a++)
        g[a] = -mo->mot.field[0][a];
      if (maxabs (g, m) <= tol)
        return VM_OK;
      {
        const vm_reaction_problem pr = { n, m, 0, mo->eom.field[0], zero, mo->mot.field[1], g,
                                         NULL };
        st = vm_reaction_ideal (&pr, dq, NULL, NULL, &mo->rcond, &mo->rws);
      }
      if (st != VM_OK)
        return st;
      for (j = 0; j < n; j++)
        qdot[j] += dq[j];
      if (at_rounding (dq, qdot, n))
        return VM_OK;
    }
  return VM_EPROJECT;
}

int
vm_motion_project (vm_motion *mo, double t, double *q, double *qdot, double tol)
{
  int n = mo->n, m = mo->m, st;
  double *buf;
  proj_buf b;
  if (m == 0)
    return VM_OK;
  buf = malloc ((size_t) (n + (size_t) m * n + m + n) * sizeof *buf);
  if (! buf)
    return VM_ENOMEM;
  b.zero = buf;
  b.G = buf + n;
  b.g = b.G + (size_t) m * n;
  b.dq = b.g + m;
  memset (buf, 0, (size_t) n * sizeof *buf);
  st = project_positions (mo, t, q, qdot, tol, &b);
  if (st == VM_OK)
    st = project_velocities (mo, t, q, qdot, tol, &b);
  free (buf);
  return st;
}

