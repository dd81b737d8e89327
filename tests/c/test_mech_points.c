/* test_mech_points.c -- csrc/reference/mech_points.c: the ideal-reaction multipliers at given states against
 * the closed form of the pendulum's tension, the projection onto a holonomic constraint, a
 * nonholonomic constraint left alone by the projection, the energy and constraint residuals at
 * given states against closed forms, and the arguments. */
#include "vmtest.h"
#include "vmtest_mech.h"
#include "reference/mech_points.h"
#include "base/vm_status.h"

#include <math.h>
#include <string.h>

/* the outputs of vm_mech_points_residuals */
#define RES(e, ph, gp) (&(vm_mech_residuals) { (e), (ph), (gp), NULL })

static const char *xy[] = { "x", "y" };
static const char *pg[] = { "g" };

/* Planar pendulum x^2 + y^2 - 1 = 0, L = |qdot|^2/2 - g y: at q = (sin th, -cos th), qdot = w
 * (cos th, sin th), the radial equation q . qddot = -w^2 with qddot = (0, -g) + 2 lambda q gives
 * lambda = (g y - w^2) / 2 = -(g cos th + w^2) / 2. */
static void
pendulum (void)
{
  const char *c[] = { "x^2 + y^2 - 1" };
  const double g = 9.81, th[3] = { 0.3, -1.2, 2.5 }, w[3] = { 0.0, 1.7, -3.0 };
  double t[3] = { 0, 0.5, 1 }, q[6], v[6], lam[3];
  int64_t nsing = -1;
  vm_mech m;
  vm_mech_points p;
  int k;
  if (build_mech (&m, 2, xy, 1, pg, "(dot(x)^2 + dot(y)^2)/2 - g*y", NULL, 1, c) != VM_OK)
    return;
  CHECK (vm_mech_points_init (&p, &m, &g) == VM_OK, "init");
  CHECK (p.nhol == 1, "one holonomic constraint: %d", p.nhol);
  for (k = 0; k < 3; k++)
    {
      q[k] = sin (th[k]);
      q[k + 3] = -cos (th[k]);
      v[k] = w[k] * cos (th[k]);
      v[k + 3] = w[k] * sin (th[k]);
    }
  CHECK (vm_mech_points_multipliers (&p, 3, t, q, v, 3, lam, &nsing) == VM_OK, "multipliers");
  CHECK (nsing == 0, "no singular point: %lld", (long long) nsing);
  for (k = 0; k < 3; k++)
    CHECK (fabs (lam[k] + (g * cos (th[k]) + w[k] * w[k]) / 2) <= 1e-13,
           "lambda %d: %.17g, closed form %.17g", k, lam[k], -(g * cos (th[k]) + w[k] * w[k]) / 2);
  /* projection: a radial velocity and a position off the circle are removed; the tangential
   * velocity is kept to first order */
  q[0] *= 1.01;
  q[3] *= 1.01;
  v[0] += 0.2 * q[0];
  v[3] += 0.2 * q[3];
  CHECK (vm_mech_points_project (&p, 1, t, q, v, 3, 1e-12) == VM_OK, "project");
  CHECK (fabs (q[0] * q[0] + q[3] * q[3] - 1) <= 1e-12, "position: |q|^2 - 1 = %.3g",
         q[0] * q[0] + q[3] * q[3] - 1);
  CHECK (fabs (q[0] * v[0] + q[3] * v[3]) <= 1e-12, "velocity: q . v = %.3g", q[0] * v[0] + q[3] * v[3]);
  vm_mech_points_free (&p);
  vm_mech_free (&m);
}

/* vm_mech_points_mass_scale: max |M_ij| of M = d2L/dqdot2 at the state, for a mass matrix that
 * depends on q (a double pendulum in angles: M_11 = (m1 + m2) l1^2, M_12 = m2 l1 l2 cos(a - b),
 * M_22 = m2 l2^2), scaled by 1e-12; 1 for a Lagrangian without velocities (M = 0). */
static void
mass_scale (void)
{
  const char *ab[] = { "a", "b" };
  const double q[2] = { 0.3, -0.4 }, v[2] = { 1.0, 2.0 };
  double sc = -1.0;
  vm_mech m;
  vm_mech_points p;
  if (build_mech (&m, 2, ab, 0, NULL, "1e-12*(3*2^2*dot(a)^2/2 + 1*2*1.5*dot(a)*dot(b)*cos(a - b) "
                  "+ 1*1.5^2*dot(b)^2/2) + cos(a)", NULL, 0, NULL) != VM_OK)
    return;
  CHECK (vm_mech_points_init (&p, &m, NULL) == VM_OK, "init");
  CHECK (vm_mech_points_mass_scale (&p, 0.0, q, v, &sc) == VM_OK, "mass scale");
  CHECK (fabs (sc - 12e-12) <= 1e-15 * 12e-12 * 8, "mass scale %.17g, expected 1.2e-11 (M_11)", sc);
  vm_mech_points_free (&p);
  vm_mech_free (&m);
  if (build_mech (&m, 2, ab, 0, NULL, "a*b", NULL, 0, NULL) != VM_OK)
    return;
  CHECK (vm_mech_points_init (&p, &m, NULL) == VM_OK, "init (no velocities)");
  CHECK (vm_mech_points_mass_scale (&p, 0.0, q, v, &sc) == VM_OK && sc == 1.0,
         "M = 0: scale %.17g, expected 1", sc);
  vm_mech_points_free (&p);
  vm_mech_free (&m);
}

/* vm_mech_points_constraint_scales: a holonomic constraint 1e6 (x^2 + y^2 - 1) (its force
 * direction 2e6 (x, y): gscale 2e6 max(|x|, |y|), hol 1), a knife edge dot(x) sin(phi) - dot(y)
 * cos(phi) (direction (sin phi, -cos phi, 0): max(|sin|, |cos|), hol 0) and the constraint 0*x
 * (a zero row: 1). */
static void
constraint_scales (void)
{
  const char *c3[] = { "x", "y", "phi" };
  const char *c[] = { "1e6*(x^2 + y^2 - 1)", "dot(x)*sin(phi) - dot(y)*cos(phi)", "0*x" };
  const double q[3] = { 0.6, -0.8, 0.4 }, v[3] = { 0.8, 0.6, 1.0 };
  double gs[3] = { -1, -1, -1 };
  int hol[3] = { -1, -1, -1 };
  vm_mech m;
  vm_mech_points p;
  if (build_mech (&m, 3, c3, 0, NULL, "(dot(x)^2 + dot(y)^2)/2 + dot(phi)^2/10", NULL, 3, c)
      != VM_OK)
    return;
  CHECK (vm_mech_points_init (&p, &m, NULL) == VM_OK, "init");
  CHECK (vm_mech_points_constraint_scales (&p, 0.0, q, v, gs, hol) == VM_OK, "constraint scales");
  CHECK (fabs (gs[0] - 1.6e6) <= 1e-15 * 1.6e6 * 4 && hol[0] == 1,
         "holonomic: %.17g (expected 1.6e6), hol %d", gs[0], hol[0]);
  CHECK (fabs (gs[1] - cos (0.4)) <= 4e-16 && hol[1] == 0, "knife edge: %.17g (expected cos 0.4), "
         "hol %d", gs[1], hol[1]);
  CHECK (gs[2] == 1.0, "zero row: %.17g, expected 1", gs[2]);
  vm_mech_points_free (&p);
  vm_mech_free (&m);
}

/* A knife edge (nonholonomic): nhol = 0; the projection keeps a consistent state unchanged. */
static void
knife (void)
{
  const char *c3[] = { "x", "y", "phi" };
  const char *c[] = { "dot(x)*sin(phi) - dot(y)*cos(phi)" };
  double t = 0, q[3] = { 0.1, 0.2, 0.4 }, v[3], v0[3];
  vm_mech m;
  vm_mech_points p;
  v[0] = 2 * cos (0.4);
  v[1] = 2 * sin (0.4);
  v[2] = 1;
  memcpy (v0, v, sizeof v);
  if (build_mech (&m, 3, c3, 0, NULL, "(dot(x)^2 + dot(y)^2)/2 + dot(phi)^2/10", NULL, 1, c) != VM_OK)
    return;
  CHECK (vm_mech_points_init (&p, &m, NULL) == VM_OK, "init");
  CHECK (p.nhol == 0, "no holonomic constraint: %d", p.nhol);
  CHECK (vm_mech_points_project (&p, 1, &t, q, v, 1, 1e-12) == VM_OK, "project");
  CHECK (fabs (v[0] - v0[0]) + fabs (v[1] - v0[1]) + fabs (v[2] - v0[2]) <= 1e-14, "unchanged");
  vm_mech_points_free (&p);
  vm_mech_free (&m);
  mass_scale ();
  constraint_scales ();
  if (build_mech (&m, 3, c3, 0, NULL, "(dot(x)^2 + dot(y)^2)/2 + dot(phi)^2/10", NULL, 1, c) != VM_OK)
    return;
  CHECK (vm_mech_points_init (&p, NULL, NULL) == VM_EARG, "NULL model");
  CHECK (vm_mech_points_init (NULL, &m, NULL) == VM_EARG, "NULL points");
  vm_mech_free (&m);
}

/* vm_mech_points_residuals: a time-dependent holonomic constraint x^2 + y^2 - 1 - t/2 (position
 * level g, velocity level 2 x xdot + 2 y ydot - 1/2) and a knife edge (velocity level g, position
 * level 0), L = |(xdot, ydot)|^2/2 + phidot^2/10 - g y (energy |(xdot, ydot)|^2/2 + phidot^2/10
 * + g y); a non-finite point gives NaN; without constraints the energy alone. */
static void
residuals (void)
{
  const char *c3[] = { "x", "y", "phi" };
  const char *c[] = { "x^2 + y^2 - 1 - t/2", "dot(x)*sin(phi) - dot(y)*cos(phi)" };
  const double g = 9.81;
  const int ld = 4;   /* 3 points in a leading dimension of 4 */
  double t[4] = { 0.0, 0.7, -1.3, 0.0 }, q[12], v[12], e[4], ph[8], gp[8];
  vm_mech m;
  vm_mech_points p;
  int k;
  for (k = 0; k < 12; k++)
    {
      q[k] = 0.3 + 0.1 * k - 0.02 * k * k;
      v[k] = -1.1 + 0.37 * k;
    }
  q[2 + ld] = NAN;   /* point 2: y not finite */
  for (k = 0; k < 4; k++)
    e[k] = ph[k] = ph[k + 4] = gp[k] = gp[k + 4] = -7.0;
  if (build_mech (&m, 3, c3, 1, pg, "(dot(x)^2 + dot(y)^2)/2 + dot(phi)^2/10 - g*y", NULL, 2, c)
      != VM_OK)
    return;
  CHECK (vm_mech_points_init (&p, &m, &g) == VM_OK, "init");
  CHECK (vm_mech_points_residuals (&p, 3, t, q, v, ld, RES (e, ph, gp)) == VM_OK, "residuals");
  for (k = 0; k < 3; k++)
    {
      const double x = q[k], y = q[k + ld], f = q[k + 2 * ld];
      const double xd = v[k], yd = v[k + ld], fd = v[k + 2 * ld];
      const double ee = (xd * xd + yd * yd) / 2 + fd * fd / 10 + g * y;
      const double g1 = x * x + y * y - 1 - t[k] / 2, p1 = 2 * x * xd + 2 * y * yd - 0.5;
      const double p2 = xd * sin (f) - yd * cos (f);
      if (k == 2)
        {
          CHECK (isnan (e[k]) && isnan (ph[k]) && isnan (ph[k + ld]) && isnan (gp[k])
                 && isnan (gp[k + ld]), "non-finite point: NaN row");
          continue;
        }
      CHECK (fabs (e[k] - ee) <= 1e-14 * (1 + fabs (ee)), "energy %d: %.17g, closed form %.17g", k,
             e[k], ee);
      CHECK (fabs (ph[k] - p1) <= 1e-14 * 4, "phi 1 at %d: %.17g vs %.17g", k, ph[k], p1);
      CHECK (fabs (gp[k] - g1) <= 1e-14 * 4, "gpos 1 at %d: %.17g vs %.17g", k, gp[k], g1);
      CHECK (fabs (ph[k + ld] - p2) <= 1e-14 * 4, "phi 2 at %d: %.17g vs %.17g", k, ph[k + ld], p2);
      CHECK (gp[k + ld] == 0.0, "gpos 2 at %d (a velocity constraint): %.17g", k, gp[k + ld]);
    }
  CHECK (e[3] == -7.0 && ph[3] == -7.0 && gp[3 + ld] == -7.0, "rows beyond npts untouched");
  CHECK (vm_mech_points_residuals (&p, 3, t, q, v, ld, RES (NULL, ph, NULL)) == VM_OK, "phi only");
  CHECK (vm_mech_points_residuals (&p, 0, t, q, v, ld, RES (e, ph, gp)) == VM_OK, "no points");
  vm_mech_points_free (&p);
  vm_mech_free (&m);
  /* without constraints: the energy */
  if (build_mech (&m, 3, c3, 1, pg, "(dot(x)^2 + dot(y)^2)/2 + dot(phi)^2/10 - g*y", NULL, 0, NULL)
      != VM_OK)
    return;
  CHECK (vm_mech_points_init (&p, &m, &g) == VM_OK, "init (m = 0)");
  CHECK (vm_mech_points_residuals (&p, 2, t, q, v, ld, RES (e, NULL, NULL)) == VM_OK,
         "energy (m = 0)");
  for (k = 0; k < 2; k++)
    {
      const double ee = (v[k] * v[k] + v[k + ld] * v[k + ld]) / 2 + v[k + 2 * ld] * v[k + 2 * ld] / 10
                        + g * q[k + ld];
      CHECK (fabs (e[k] - ee) <= 1e-14 * (1 + fabs (ee)), "energy (m = 0) %d: %.17g vs %.17g", k,
             e[k], ee);
    }
  vm_mech_points_free (&p);
  vm_mech_free (&m);
}

int
main (void)
{
  pendulum ();
  knife ();
  residuals ();
  return vmtest_finish ("test_mech_points");
}
