/* test_motion.c -- the equations of motion of compiled models and the reference-integration driver
 * (csrc/reference/motion.c), against closed forms (no Octave).
 *
 * Tolerances: single-point quantities are exact formulas evaluated in double precision (1e-13
 * relative); integrated quantities are checked against closed forms with a margin of 100 over the
 * requested tolerance (DOPRI5's global error is a modest multiple of RelTol on these short runs),
 * event times against the event tolerance of the integrator (1e-12) plus the integration error. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "reference/motion.h"
#include "base/vm_status.h"
#include "vmtest.h"

static int
close_to (double a, double b, double tol)
{
  return fabs (a - b) <= tol * (1.0 + fabs (b));
}

typedef struct {
  vm_mech m;
  vm_block eom, mot, con;
  int have_con;
  vm_motion mo;
} model;

static int
build (model *md, vm_mech_desc *d, const double *p, int law, int k, const double *B)
{
  vm_err err;
  int st;
  memset (md, 0, sizeof *md);
  st = vm_mech_build (d, &md->m, &err);
  CHECK (st == VM_OK, "build: %s", err.msg);
  if (st != VM_OK)
    return st;
  CHECK (vm_mech_block (&md->m, VM_MECH_EOM, &md->eom) == VM_OK, "eom block");
  CHECK (vm_mech_motion_block (&md->m, &md->mot) == VM_OK, "motion block");
  md->have_con = d->ncontact > 0;
  if (md->have_con)
    CHECK (vm_mech_block (&md->m, VM_MECH_CONTACTS, &md->con) == VM_OK, "contacts block");
  st = vm_motion_init (&md->mo, &(vm_motion_setup) { d->n, d->ncons, d->np, &md->eom, &md->mot,
                                                     md->have_con ? &md->con : NULL, p, law, k,
                                                     B });
  CHECK (st == VM_OK, "motion init: %s", vm_status_string (st));
  return st;
}

static void
release (model *md)
{
  vm_motion_free (&md->mo);
  vm_block_free (&md->eom);
  vm_block_free (&md->mot);
  vm_block_free (&md->con);
  vm_mech_free (&md->m);
}

/* a particle in the plane (x, y) under gravity g (the first parameter, of np) with one contact c,
 * the ideal law: the tumbler of the tests below */
static int
build_particle (model *md, int np, const char **param, const double *p, const vm_contact_desc *c)
{
  static const char *coord[] = { "x", "y" };
  vm_mech_desc d;
  memset (&d, 0, sizeof d);
  d.n = 2;
  d.coord = coord;
  d.np = np;
  d.param = param;
  d.lagrangian = "(dot(x)^2 + dot(y)^2)/2 - g*y";
  d.ncontact = 1;
  d.contact = c;
  return build (md, &d, p, VM_LAW_IDEAL, 0, NULL);
}

/* pendulum as a point mass on a circle: holonomic constraint used at velocity level */
static void
test_pendulum (void)
{
  const char *coord[] = { "x", "y" }, *param[] = { "m", "g", "l" };
  const char *cons[] = { "x^2 + y^2 - l^2" };
  double p[3] = { 2.0, 9.81, 1.5 };
  vm_mech_desc d;
  model md;
  double q[2], qd[2], qdd[2], lam[1], th = 0.7, w = 1.3;
  memset (&d, 0, sizeof d);
  d.n = 2;
  d.coord = coord;
  d.np = 3;
  d.param = param;
  d.lagrangian = "m/2*(dot(x)^2 + dot(y)^2) - m*g*y";
  d.ncons = 1;
  d.cons = cons;
  if (build (&md, &d, p, VM_LAW_IDEAL, 0, NULL) != VM_OK)
    return;
  q[0] = p[2] * sin (th);
  q[1] = -p[2] * cos (th);
  qd[0] = p[2] * w * cos (th);
  qd[1] = p[2] * w * sin (th);
  CHECK (vm_motion_eval (&md.mo, 0.0, q, qd, 0) == VM_OK, "eval");
  {
    const double *phi = md.mo.mot.field[0], *A = md.mo.mot.field[1], *c = md.mo.mot.field[2],
                 *hol = md.mo.mot.field[3], *gp = md.mo.mot.field[4];
    CHECK (hol[0] == 1, "holonomic detected");
    CHECK (fabs (phi[0]) < 1e-13 && fabs (gp[0]) < 1e-13, "consistent state");
    CHECK (close_to (A[0], 2 * q[0], 1e-14) && close_to (A[1], 2 * q[1], 1e-14), "A = 2 (x, y)");
    CHECK (close_to (c[0], -2 * (qd[0] * qd[0] + qd[1] * qd[1]), 1e-14), "c = -2 |v|^2");
  }
  CHECK (vm_motion_accel (&md.mo, 0.0, q, qd, qdd, lam) == VM_OK, "accel");
  {
    /* closed form: thetaddot = -g/l sin(theta); tension T = m (g cos(theta) + l w^2) along -r:
     * R = A' lambda = 2 lambda (x, y) = -T (x, y)/l  ->  lambda = -T/(2 l) */
    double thdd = -p[1] / p[2] * sin (th), T = p[0] * (p[1] * cos (th) + p[2] * w * w);
    double ax = p[2] * (thdd * cos (th) - w * w * sin (th));
    double ay = p[2] * (thdd * sin (th) + w * w * cos (th));
    CHECK (close_to (qdd[0], ax, 1e-13) && close_to (qdd[1], ay, 1e-13), "pendulum accelerations "
           "(%g, %g) vs (%g, %g)", qdd[0], qdd[1], ax, ay);
    CHECK (close_to (lam[0], -T / (2 * p[2]), 1e-13), "multiplier %g vs %g", lam[0], -T / (2 * p[2]));
  }
  /* integration: energy and constraint, small-amplitude period against the closed form */
  {
    vm_motion_opts o;
    vm_motion_sol sol;
    double y0[4], th0 = 1e-3, per = 2 * 3.14159265358979323846 * sqrt (p[2] / p[1]), emax = 0, gmax = 0;
    double tout[2];
    size_t k;
    memset (&o, 0, sizeof o);
    vm_ode_opts_init (&o.ode, VM_ODE_DOPRI5);
    o.ode.rtol = 1e-11;
    o.ode.atol = 1e-13;
    y0[0] = p[2] * sin (th0);
    y0[1] = -p[2] * cos (th0);
    y0[2] = y0[3] = 0;
    tout[0] = 0;
    tout[1] = per;
    CHECK (vm_motion_integrate (&md.mo, &o, 0.0, per, y0, tout, 2, &sol) == VM_OK, "integrate: %s",
           vm_status_string (sol.status));
    for (k = 0; k < sol.npts; k++)
      {
        if (fabs (sol.energy[k] - sol.energy[0]) > emax)
          emax = fabs (sol.energy[k] - sol.energy[0]);
        if (fabs (sol.gpos[k]) > gmax)
          gmax = fabs (sol.gpos[k]);
      }
    /* after one small-amplitude period the angle is back to th0 up to the amplitude correction
     * th0^3/16 relative in the period (th0 = 1e-3: 6e-8 of the period, i.e. x error ~ 1e-10) */
    CHECK (sol.nout == 2 && sol.ot[1] == per && fabs (sol.oy[4] - y0[0]) < 1e-9,
           "one period: x = %g, expected %g", sol.nout == 2 ? sol.oy[4] : NAN, y0[0]);
    CHECK (emax < 1e-9 && gmax < 1e-9, "energy drift %g, constraint %g", emax, gmax);
    CHECK (sol.mult != NULL && close_to (sol.mult[0], -p[0] * p[1] * cos (th0) / (2 * p[2]), 1e-9),
           "multiplier at rest %g", sol.mult ? sol.mult[0] : NAN);
    /* the output points' multipliers are the steps': at t0 both are the state's */
    CHECK (sol.omult != NULL && sol.ot[0] == 0 && sol.omult[0] == sol.mult[0],
           "multiplier at the output time 0: %g", sol.omult ? sol.omult[0] : NAN);
    vm_motion_sol_free (&sol);
  }
  /* the drift note: released horizontal, at RelTol 1e-8 over 100 s (dopri5, no projection) the
   * circle drifts by far more than 100 tolerances (about 700), and the note is set; with
   * projection it is not (residuals 1e-12); a short run (1 s) stays below it */
  {
    vm_motion_opts o;
    vm_motion_sol sol;
    double y0[4] = { 0, 0, 0, 0 };
    y0[0] = p[2];
    memset (&o, 0, sizeof o);
    vm_ode_opts_init (&o.ode, VM_ODE_DOPRI5);
    o.ode.rtol = 1e-8;
    o.ode.atol = 1e-10;
    CHECK (vm_motion_integrate (&md.mo, &o, 0.0, 100.0, y0, NULL, 0, &sol) == VM_OK
           && sol.drift > VM_MOTION_DRIFT_NOTE && sol.drift_note == 1, "drift over 100 s: %g "
           "tolerances, note %d", sol.drift, sol.drift_note);
    vm_motion_sol_free (&sol);
    o.project = 1;
    CHECK (vm_motion_integrate (&md.mo, &o, 0.0, 100.0, y0, NULL, 0, &sol) == VM_OK
           && sol.drift < 1 && sol.drift_note == 0, "projected: drift %g, note %d", sol.drift,
           sol.drift_note);
    vm_motion_sol_free (&sol);
    o.project = 0;
    CHECK (vm_motion_integrate (&md.mo, &o, 0.0, 1.0, y0, NULL, 0, &sol) == VM_OK
           && sol.drift_note == 0, "1 s: drift %g, note %d", sol.drift, sol.drift_note);
    vm_motion_sol_free (&sol);
  }
  /* projection: a perturbed state is pulled back onto the circle and its tangent */
  {
    double qq[2] = { 0.1, -1.6 }, vv[2] = { 1.0, 0.3 };
    CHECK (vm_motion_project (&md.mo, 0.0, qq, vv, 1e-13) == VM_OK, "project");
    CHECK (fabs (qq[0] * qq[0] + qq[1] * qq[1] - p[2] * p[2]) < 1e-12
           && fabs (qq[0] * vv[0] + qq[1] * vv[1]) < 1e-12, "projected state on the constraint");
  }
  /* a tolerance below the rounding of the constraint's evaluation (1e-300): the projection stops
   * when its correction is at the rounding level of q (VM_EPROJECT after 20 steps before), with
   * the residuals at that level (as a constraint x^2 + y^2 - l^2 with l = 1e5 meets 1e-12) */
  {
    double qq[2] = { 0.1, -1.6 }, vv[2] = { 1.0, 0.3 };
    CHECK (vm_motion_project (&md.mo, 0.0, qq, vv, 1e-300) == VM_OK, "project to rounding");
    CHECK (fabs (qq[0] * qq[0] + qq[1] * qq[1] - p[2] * p[2]) <= 64 * DBL_EPSILON * p[2] * p[2]
           && fabs (qq[0] * vv[0] + qq[1] * vv[1]) <= 64 * DBL_EPSILON * p[2],
           "projected to rounding: residuals %.3g, %.3g", qq[0] * qq[0] + qq[1] * qq[1] - p[2] * p[2],
           qq[0] * vv[0] + qq[1] * vv[1]);
  }
  release (&md);
}

/* ball dropped in a circular tumbler with hard walls: impact time, reflection, energy */
static void
test_tumbler (void)
{
  const char *param[] = { "g" };
  vm_contact_desc c = { "1 - x^2 - y^2", "0.01", "10", "0", "1e-3" };
  double p[1] = { 9.81 };
  model md;
  vm_motion_opts o;
  vm_motion_sol sol;
  double y0[4] = { 0, 0, 0, 0 }, ti = sqrt (2 / p[0]);
  if (build_particle (&md, 1, param, p, &c) != VM_OK)
    return;
  memset (&o, 0, sizeof o);
  vm_ode_opts_init (&o.ode, VM_ODE_DOPRI5);
  o.ode.rtol = 1e-10;
  o.ode.atol = 1e-12;
  o.hard = 1;
  o.restitution = 1;
  CHECK (vm_motion_integrate (&md.mo, &o, 0.0, 2.5 * ti, y0, NULL, 0, &sol) == VM_OK, "integrate: %s",
         vm_status_string (sol.status));
  /* free fall from the centre: hits (0, -1) at sqrt(2/g) with speed sqrt(2 g), reflected straight
   * up, back at the centre at rest at 2 sqrt(2/g), hits again at 3 sqrt(2/g) (outside the run) */
  CHECK (sol.nimpact == 1, "one impact (%lu)", (unsigned long) sol.nimpact);
  if (sol.nimpact >= 1)
    {
      CHECK (fabs (sol.ti[0] - ti) < 1e-9, "impact time %.15g vs %.15g", sol.ti[0], ti);
      CHECK (close_to (sol.yb[3], -sqrt (2 * p[0]), 1e-8) && close_to (sol.ya[3], sqrt (2 * p[0]), 1e-8),
             "velocity reversed: %g -> %g", sol.yb[3], sol.ya[3]);
    }
  {
    size_t k, last = sol.npts - 1;
    double emax = 0;
    for (k = 0; k < sol.npts; k++)
      if (fabs (sol.energy[k] - sol.energy[0]) > emax)
        emax = fabs (sol.energy[k] - sol.energy[0]);
    CHECK (emax < 1e-8, "energy conserved across the impact (%g)", emax);
    /* at 2.5 ti: y = -1 + v (t - ti) - g (t - ti)^2 / 2 with v = sqrt(2 g) */
    {
      double s = 1.5 * ti, yex = -1 + sqrt (2 * p[0]) * s - p[0] * s * s / 2;
      CHECK (fabs (sol.t[last] - 2.5 * ti) < 1e-14 && fabs (sol.y[last * 4 + 1] - yex) < 1e-8,
             "position after the bounce %g vs %g", sol.y[last * 4 + 1], yex);
    }
  }
  vm_motion_sol_free (&sol);
  /* restitution 0.5: the rebound speed halves */
  o.restitution = 0.5;
  CHECK (vm_motion_integrate (&md.mo, &o, 0.0, 1.5 * ti, y0, NULL, 0, &sol) == VM_OK, "integrate e=0.5");
  CHECK (sol.nimpact == 1 && close_to (sol.ya[3], 0.5 * sqrt (2 * p[0]), 1e-8), "e = 0.5 rebound");
  vm_motion_sol_free (&sol);
  release (&md);
}

/* hard walls have no friction law: vm_motion_check_state refuses a contact whose mu is not 0 when
 * the walls are hard (*what = 3, the contact and its mu), not when they are soft, nor mu = 0 */
static void
test_hard_friction (void)
{
  const char *param[] = { "g", "mu" };
  vm_contact_desc c = { "1 - x^2 - y^2", "0.01", "10", "mu", "1e-3" };
  double p[2] = { 9.81, 0.25 }, q[2] = { 0, 0 }, qd[2] = { 1, 0 };
  model md;
  vm_motion_violation v;
  if (build_particle (&md, 2, param, p, &c) != VM_OK)
    return;
  CHECK (vm_motion_check_state (&md.mo, 0.0, q, qd, 1e-8, 1, &v) == VM_EARG
         && v.what == 3 && v.index == 0 && v.value == 0.25, "hard wall with mu = 0.25 refused "
         "(what %d, contact %d, mu %g)", v.what, v.index, v.value);
  CHECK (vm_motion_check_state (&md.mo, 0.0, q, qd, 1e-8, 0, &v) == VM_OK
         && v.what == 0, "soft wall with friction accepted");
  p[1] = 0;
  CHECK (vm_motion_check_state (&md.mo, 0.0, q, qd, 1e-8, 1, &v) == VM_OK
         && v.what == 0, "hard wall with mu = 0 accepted");
  release (&md);
}

/* the travel of h inside the layer over one step, on hand-made ends (units of sigma = 1, dt = 1,
 * layer 6): the largest total variation of the clipped path over the Hermite cubic and the lines
 * from the start and back from the end */
static void
test_layer_travel (void)
{
  double th;
  /* stepping over the whole layer: 2 layer, entered 0.8 deep at (20 - 5.2) / 40 of the step */
  CHECK (fabs (vm_motion_layer_travel (20, -40, -20, -40, 1, 6, 0.8, &th) - 12) < 1e-12
         && fabs (th - 14.8 / 40) < 1e-12, "step over: travel 12, theta %g", th);
  /* resolved: 0.8 inside the layer */
  CHECK (fabs (vm_motion_layer_travel (0.5, -0.8, -0.3, -0.8, 1, 6, 0.8, &th) - 0.8) < 1e-12
         && th == 1, "resolved step: travel 0.8");
  /* far from the layer, and backwards in time (dt < 0) */
  CHECK (vm_motion_layer_travel (100, -50, 50, -50, 1, 6, 0.8, &th) == 0 && th == 1
         && vm_motion_layer_travel (50, -50, 100, -50, -1, 6, 0.8, NULL) == 0, "far from the layer");
  /* a bounce between equal end values: the Hermite cubic dips to -2 (twice 8 of travel) */
  CHECK (fabs (vm_motion_layer_travel (8, -40, 8, 40, 1, 6, 0.8, &th) - 16) < 1e-12,
         "hidden bounce: travel 16");
  /* a kick: a stage fell into the layer, the end is far out and fast; the Hermite cubic stays
   * outside the layer, the line from the start crosses it (12) */
  CHECK (fabs (vm_motion_layer_travel (10, -20, 80, 160, 1, 6, 0.8, &th) - 12) < 1e-12
         && fabs (th - 4.8 / 20) < 1e-12, "kicked end: travel 12, theta %g", th);
  /* sliding in the layer at small normal speed */
  CHECK (fabs (vm_motion_layer_travel (0.2, 0.05, 0.25, 0.05, 1, 6, 0.8, NULL) - 0.05) < 1e-12,
         "sliding: travel 0.05");
}

/* a point mass dropped in the tumbler h = 1 - x^2 - y^2 with a soft wall (sigma = 1/1000, V0 = 5):
 * with the layer check no method steps over the wall; without it (layer_res huge) dopri5 did */
static void
test_tumbler_soft (void)
{
  const char *param[] = { "g", "sig" };
  vm_contact_desc c = { "1 - x^2 - y^2", "sig", "5", "0", "1e-3" };
  double p[2] = { 9.8, 1e-3 };
  const double y0[4] = { -0.5, -0.75, 0, 0 }, tf = 0.5;
  static const struct { int method; double tol_or_h, err; } run[] = {
    { VM_ODE_DOPRI5, 1e-8, 1e-8 }, { VM_ODE_DOP853, 1e-8, 1e-8 }, { VM_ODE_RK4, 5e-4, 1e-2 },
    { VM_ODE_RK4, 1e-2, 5e-3 }, { VM_ODE_GL6, 1e-2, 1e-5 } };
  model md;
  vm_motion_opts o;
  vm_motion_sol ref, sol;
  double rmax, err;
  size_t k, i;
  if (build_particle (&md, 2, param, p, &c) != VM_OK)
    return;
  /* the reference: dop853 at 1e-12 with steps below sigma/4 (h moves less than sigma per step),
   * the check switched off */
  memset (&o, 0, sizeof o);
  vm_ode_opts_init (&o.ode, VM_ODE_DOP853);
  o.ode.rtol = 1e-12;
  o.ode.atol = 1e-14;
  o.ode.hmax = p[1] / 4;
  o.layer_res = 1e300;
  CHECK (vm_motion_integrate (&md.mo, &o, 0, tf, y0, NULL, 0, &ref) == VM_OK && ref.nlayer == 0,
         "soft reference");
  /* the failure mode: dopri5 at 1e-8 without the check ends outside the wall */
  vm_ode_opts_init (&o.ode, VM_ODE_DOPRI5);
  o.ode.rtol = 1e-8;
  o.ode.atol = 1e-10;
  CHECK (vm_motion_integrate (&md.mo, &o, 0, tf, y0, NULL, 0, &sol) == VM_OK
         && hypot (sol.y[4 * (sol.npts - 1)], sol.y[4 * (sol.npts - 1) + 1]) > 1.5,
         "without the check dopri5 steps over the wall (%ld steps)", sol.nsteps);
  vm_motion_sol_free (&sol);
  o.layer_res = 0;
  for (i = 0; i < sizeof run / sizeof run[0]; i++)
    {
      vm_ode_opts_init (&o.ode, run[i].method);
      o.ode.rtol = run[i].tol_or_h;
      o.ode.atol = run[i].tol_or_h / 100;
      o.ode.h = run[i].tol_or_h;
      CHECK (vm_motion_integrate (&md.mo, &o, 0, tf, y0, NULL, 0, &sol) == VM_OK, "soft run %lu",
             (unsigned long) i);
      for (rmax = 0, k = 0; k < sol.npts; k++)
        rmax = fmax (rmax, hypot (sol.y[4 * k], sol.y[4 * k + 1]));
      k = sol.npts - 1;
      err = fmax (fabs (sol.y[4 * k] - ref.y[4 * (ref.npts - 1)]),
                  fabs (sol.y[4 * k + 1] - ref.y[4 * (ref.npts - 1) + 1]));
      CHECK (sol.t[k] == tf && rmax < 1 + 3 * p[1] && err < run[i].err && sol.nlayer > 0,
             "soft run %lu: max r = 1 %+.2g sigma, error %.3g, %ld steps, %ld rejected by the "
             "layer check", (unsigned long) i, (rmax - 1) / p[1], err, sol.nsteps, sol.nlayer);
      vm_motion_sol_free (&sol);
    }
  vm_motion_sol_free (&ref);
  release (&md);
}

/* a singular constraint matrix is reported with the time */
static void
test_singular (void)
{
  const char *coord[] = { "x", "y" }, *cons[] = { "dot(x) - dot(y)", "2*dot(x) - 2*dot(y)" };
  vm_mech_desc d;
  model md;
  double q[2] = { 0, 0 }, qd[2] = { 1, 1 }, qdd[2];
  memset (&d, 0, sizeof d);
  d.n = 2;
  d.coord = coord;
  d.lagrangian = "(dot(x)^2 + dot(y)^2)/2";
  d.ncons = 2;
  d.cons = cons;
  if (build (&md, &d, NULL, VM_LAW_IDEAL, 0, NULL) != VM_OK)
    return;
  CHECK (vm_motion_accel (&md.mo, 1.25, q, qd, qdd, NULL) == VM_ESINGULAR && md.mo.tfail == 1.25
         && md.mo.rcond < 1e-13, "dependent constraints: singular at t = 1.25 (rcond %g)", md.mo.rcond);
  release (&md);
}

int
main (void)
{
  test_pendulum ();
  test_tumbler ();
  test_hard_friction ();
  test_layer_travel ();
  test_tumbler_soft ();
  test_singular ();
  return vmtest_finish ("test_motion");
}
