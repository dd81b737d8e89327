/* test_vakonomic.c -- the vakonomic reaction law (csrc/reference/vakonomic.c) and its use by the motion driver
 * (VM_LAW_VAKONOMIC in csrc/reference/motion.c), against hand-derived Euler-Lagrange equations of
 * L + mu a . qdot (no Octave).
 *
 * Pars' particle: a = (x3, -1, 0), W = (v3, 0, -v1),
 *   mudot = (v1 v3 - mu x3 v3)/(1 + x3^2),  qddot = -mudot a - mu (v3, 0, -v1).
 * Knife edge (x, y, th), L = (xdot^2 + ydot^2)/2 + J thdot^2/2 + g x, a = (sin th, -cos th, 0):
 *   W = (cos th thdot, sin th thdot, -(cos th xdot + sin th ydot)),
 *   mudot = g sin th + thdot u,  u = cos th xdot + sin th ydot,
 *   xddot = g - mudot sin th - mu cos th thdot,  yddot = mudot cos th - mu sin th thdot,
 *   J thddot = mu u.
 * Tolerances: point formulas 1e-13 (relative); integrated runs 1e-8 (100 RelTol). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "reference/motion.h"
#include "reference/reaction.h"
#include "reference/vakonomic.h"
#include "base/vm_status.h"
#include "vmtest.h"

/* the arguments of the reaction solvers: the point's data and the workspace */
#define PROB(n, m, k, M, f, A, c, B) \
  (&(vm_reaction_problem) { (n), (m), (k), (M), (f), (A), (c), (B) })
#define WORK(w, iw) (&(vm_reaction_work) { (w), (iw) })

static int
close_to (double a, double b, double tol)
{
  return fabs (a - b) <= tol * (1.0 + fabs (b));
}

typedef struct {
  vm_mech m;
  vm_block eom, mot, vak;
  vm_motion mo;
} model;

static int
build (model *md, vm_mech_desc *d, const double *p, const double *q, const double *qd, int *bad)
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
  CHECK (vm_mech_vakonomic_block (&md->m, &md->vak) == VM_OK, "vakonomic block");
  st = vm_motion_init (&md->mo, &(vm_motion_setup) { d->n, d->ncons, d->np, &md->eom, &md->mot,
                                                     NULL, p, VM_LAW_VAKONOMIC, 0, NULL });
  CHECK (st == VM_OK, "motion init: %s", vm_status_string (st));
  if (st != VM_OK)
    return st;
  return vm_motion_set_vakonomic (&md->mo, &md->vak, 0.0, q, qd, bad);
}

static void
release (model *md)
{
  vm_motion_free (&md->mo);
  vm_block_free (&md->eom);
  vm_block_free (&md->mot);
  vm_block_free (&md->vak);
  vm_mech_free (&md->m);
}

/* the kernel alone at one point of Pars' particle */
static void
test_kernel_pars (void)
{
  double M[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, f[3] = { 0, 0, 0 };
  double x3 = -0.7, v1 = 0.8, v3 = 0.4, v2 = x3 * v1, mu = 0.3;
  double A[3] = { x3, -1, 0 }, c[1] = { -v1 * v3 }, W[3] = { v3, 0, -v1 };
  double qdd[3], md, fw[3], rc, work[256], md_ref, ref[3];
  int iwork[64], st;
  size_t lw, liw;
  CHECK (vm_reaction_work_size (3, 1, 0, &lw, &liw) == VM_OK && lw <= 256 && liw <= 64,
         "work size");
  st = vm_vakonomic_accel (PROB (3, 1, 0, M, f, A, c, NULL), W, &mu, qdd, &md, &rc, fw,
                           WORK (work, iwork));
  md_ref = (v1 * v3 - mu * x3 * v3) / (1 + x3 * x3);
  ref[0] = -md_ref * x3 - mu * v3;
  ref[1] = md_ref;
  ref[2] = mu * v1;
  CHECK (st == VM_OK && close_to (md, md_ref, 1e-13), "Pars mudot %g vs %g", md, md_ref);
  CHECK (close_to (qdd[0], ref[0], 1e-13) && close_to (qdd[1], ref[1], 1e-13)
         && close_to (qdd[2], ref[2], 1e-13), "Pars qddot");
  CHECK (fabs (x3 * qdd[0] + v1 * v3 - qdd[1]) < 1e-14, "d/dt (a . v) = 0");
  /* the reaction does no work on v with a . v = 0: R . v = -mudot (a . v) - mu v' K v = 0 */
  CHECK (fabs (qdd[0] * v1 + qdd[1] * v2 + qdd[2] * v3) < 1e-14, "no work");
  mu = NAN;
  CHECK (vm_vakonomic_accel (PROB (3, 1, 0, M, f, A, c, NULL), W, &mu, qdd, &md, &rc, fw,
                             WORK (work, iwork)) == VM_EARG,
         "non-finite mu refused");
  CHECK (vm_vakonomic_accel (PROB (3, 1, 0, M, f, A, c, NULL), NULL, &mu, qdd, &md, &rc, fw,
                             WORK (work, iwork)) == VM_EARG,
         "missing W refused");
}

/* the knife edge through the compiled blocks: W, the accelerations, an integration */
static void
test_knife (void)
{
  const char *coord[] = { "x", "y", "th" }, *param[] = { "g", "J" };
  const char *cons[] = { "sin(th)*dot(x) - cos(th)*dot(y)" };
  double p[2] = { 0.5, 0.5 }, th = 0.3, u = 1.0, w = 0.5, mu = 0.3;
  double q[3] = { 0.1, -0.2, 0.3 }, qd[3], qdd[3], md;
  vm_mech_desc d;
  model md_;
  int bad, st;
  qd[0] = u * cos (th);
  qd[1] = u * sin (th);
  qd[2] = w;
  memset (&d, 0, sizeof d);
  d.n = 3;
  d.coord = coord;
  d.np = 2;
  d.param = param;
  d.lagrangian = "(dot(x)^2 + dot(y)^2)/2 + J/2*dot(th)^2 + g*x";
  d.ncons = 1;
  d.cons = cons;
  st = build (&md_, &d, p, q, qd, &bad);
  CHECK (st == VM_OK, "set_vakonomic: %s", vm_status_string (st));
  if (st != VM_OK)
    {
      release (&md_);
      return;
    }
  md_.mo.mu = &mu;
  CHECK (vm_motion_accel (&md_.mo, 0.0, q, qd, qdd, &md) == VM_OK, "accel");
  {
    const double *W = md_.mo.vak.field[0], g = p[0], J = p[1];
    double uu = cos (th) * qd[0] + sin (th) * qd[1], mdr = g * sin (th) + w * uu;
    CHECK (close_to (W[0], cos (th) * w, 1e-14) && close_to (W[1], sin (th) * w, 1e-14)
           && close_to (W[2], -uu, 1e-14), "W of the knife edge");
    CHECK (close_to (md, mdr, 1e-13), "mudot %g vs %g", md, mdr);
    CHECK (close_to (qdd[0], g - mdr * sin (th) - mu * cos (th) * w, 1e-13)
           && close_to (qdd[1], mdr * cos (th) - mu * sin (th) * w, 1e-13)
           && close_to (qdd[2], mu * uu / J, 1e-13), "knife edge accelerations");
  }
  /* integration: y = [q; qdot; mu], output mu and mudot, the constraint kept, no work done */
  {
    vm_motion_opts o;
    vm_motion_sol sol;
    double y0[7], tout[3] = { 0, 1, 2 }, rmax = 0, pmax = 0;
    size_t k;
    memset (&o, 0, sizeof o);
    vm_ode_opts_init (&o.ode, VM_ODE_DOPRI5);
    o.ode.rtol = 1e-10;
    o.ode.atol = 1e-12;
    memcpy (y0, q, sizeof q);
    memcpy (y0 + 3, qd, sizeof qd);
    y0[6] = mu;
    CHECK (vm_motion_integrate (&md_.mo, &o, 0.0, 2.0, y0, tout, 3, &sol) == VM_OK, "integrate: %s",
           vm_status_string (sol.status));
    CHECK (sol.ny == 7 && sol.nout == 3 && sol.npts >= 3 && sol.mult_rate && sol.power
           && sol.omult, "solution layout");
    for (k = 0; k < sol.nout && sol.ny == 7; k++)
      CHECK (sol.ot[k] == tout[k] && sol.omult[k] == sol.oy[7 * k + 6], "output: mult = mu");
    for (k = 0; k < sol.npts && sol.ny == 7; k++)
      {
        const double *yk = sol.y + 7 * k;
        double uu = cos (yk[2]) * yk[3] + sin (yk[2]) * yk[4];
        CHECK (sol.mult[k] == yk[6], "mult = mu");
        CHECK (close_to (sol.mult_rate[k], p[0] * sin (yk[2]) + yk[5] * uu, 1e-12),
               "mult_rate = mudot");
        rmax = fmax (rmax, fabs (sol.phi[k]));
        pmax = fmax (pmax, fabs (sol.power[k]));
      }
    CHECK (sol.y[6] == mu && rmax < 1e-8 && pmax < 1e-8, "mu(0), residual %g, power %g", rmax,
           pmax);
    /* energy (J thdot^2 + |v|^2)/2 - g x is conserved: the reaction does no work */
    CHECK (fabs (sol.energy[sol.npts - 1] - sol.energy[0]) < 1e-8, "energy drift %g",
           fabs (sol.energy[sol.npts - 1] - sol.energy[0]));
    vm_motion_sol_free (&sol);
  }
  release (&md_);
}

/* a holonomic constraint has W = 0; a constraint not linear in qdot is refused */
static void
test_holonomic_and_nonlinear (void)
{
  const char *coord[] = { "x", "y" };
  const char *c1[] = { "x^2 + y^2 - 1" }, *c2[] = { "x*dot(y) - 1", "dot(x)^2 + dot(y)^2 - 1" };
  double q[2] = { 0.6, -0.8 }, qd[2] = { 0.8, 0.6 };
  vm_mech_desc d;
  model md;
  int bad = -2, st;
  memset (&d, 0, sizeof d);
  d.n = 2;
  d.coord = coord;
  d.lagrangian = "(dot(x)^2 + dot(y)^2)/2 - y";
  d.ncons = 1;
  d.cons = c1;
  st = build (&md, &d, NULL, q, qd, &bad);
  CHECK (st == VM_OK && bad == -1, "holonomic accepted");
  if (st == VM_OK)
    CHECK (md.mo.vak.field[0][0] == 0 && md.mo.vak.field[0][1] == 0, "holonomic: W = 0");
  release (&md);
  d.ncons = 2;
  d.cons = c2;
  st = build (&md, &d, NULL, q, qd, &bad);
  CHECK (st == VM_EARG && bad == 1, "constraint 2 not linear in qdot: status %d, index %d", st,
         bad);
  release (&md);
}

/* the integrator refuses the vakonomic law without its block */
static void
test_no_block (void)
{
  const char *coord[] = { "x" };
  vm_mech_desc d;
  vm_mech m;
  vm_block eom, mot;
  vm_motion mo;
  vm_motion_opts o;
  vm_motion_sol sol;
  vm_err err;
  double y0[2] = { 0, 1 };
  memset (&d, 0, sizeof d);
  d.n = 1;
  d.coord = coord;
  d.lagrangian = "dot(x)^2/2";
  CHECK (vm_mech_build (&d, &m, &err) == VM_OK, "build");
  CHECK (vm_mech_block (&m, VM_MECH_EOM, &eom) == VM_OK && vm_mech_motion_block (&m, &mot) == VM_OK,
         "blocks");
  CHECK (vm_motion_init (&mo, &(vm_motion_setup) { 1, 0, 0, &eom, &mot, NULL, NULL,
                                                    VM_LAW_VAKONOMIC, 0, NULL }) == VM_OK,
         "init");
  memset (&o, 0, sizeof o);
  vm_ode_opts_init (&o.ode, VM_ODE_DOPRI5);
  CHECK (vm_motion_integrate (&mo, &o, 0, 1, y0, NULL, 0, &sol) == VM_EARG, "no vakonomic block");
  vm_motion_sol_free (&sol);
  vm_motion_free (&mo);
  vm_block_free (&eom);
  vm_block_free (&mot);
  vm_mech_free (&m);
}

int
main (void)
{
  test_kernel_pars ();
  test_knife ();
  test_holonomic_and_nonlinear ();
  test_no_block ();
  return vmtest_finish ("test_vakonomic");
}
