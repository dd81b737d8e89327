/* test_contact_check.c -- the resolution test of regularized contacts (csrc/skg/contact_check.c) on
 * trajectories made by hand, and the march driver's use of it as the SKG action's window check
 * (vm_march_action.check): the tumbler of Fig. 3 with a thin wall (sigma = 1/1000), which the
 * adaptive march stepped over before the check. */
#include "vmtest.h"
#include "skg/contact_check.h"
#include "skg/skg_solve.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *tb_coord[] = { "x", "y" }, *tb_par[] = { "m", "g", "R", "sig", "V0" };

/* the tumbler: a particle in the unit circle, contact h = R^2 - x^2 - y^2 >= 0 */
static int
build_tumbler (vm_mech *m)
{
  vm_mech_desc d;
  vm_contact_desc c;
  vm_err err;
  int st;
  memset (&d, 0, sizeof d);
  memset (&c, 0, sizeof c);
  c.h = "R^2 - x^2 - y^2";
  c.sigma = "sig";
  c.V0 = "V0";
  c.mu = "0";
  c.epsv = "0";
  d.n = 2;
  d.coord = tb_coord;
  d.np = 5;
  d.param = tb_par;
  d.lagrangian = "m/2*(dot(x)^2 + dot(y)^2) - m*g*y";
  d.ncontact = 1;
  d.contact = &c;
  st = vm_mech_build (&d, m, &err);
  CHECK (st == VM_OK, "tumbler: %s", err.msg);
  return st;
}

/* N nodes of the straight path (x0, y0) + (vx, vy) (t - t0) on [t0, t1]: q and qdot, ld = N */
static void
line (int N, double t0, double t1, double x0, double y0, double vx, double vy, double *t,
      double *q, double *qd)
{
  int k;
  for (k = 0; k < N; k++)
    {
      t[k] = t0 + (t1 - t0) * k / (N - 1);
      q[k] = x0 + vx * (t[k] - t0);
      q[k + N] = y0 + vy * (t[k] - t0);
      qd[k] = vx;
      qd[k + N] = vy;
    }
}

/* (1) hand-made paths: stepping over the layer, resolving it, far from it, a bounce hidden
 * between two nodes of equal h, sliding along the wall */
static void
test_paths (void)
{
  vm_mech m;
  vm_contact_check k;
  const double par[5] = { 1, 9.8, 1, 1e-3, 5 };
  double t[33], q[66], qd[66], f;
  char why[256];
  int ok, st;
  if (build_tumbler (&m) != VM_OK)
    return;
  st = vm_contact_check_init (&k, &m, par);
  CHECK (st == VM_OK, "init: %d", st);
  CHECK (k.layer == 6.0 && k.res == 1.0, "defaults %g %g", k.layer, k.res);
  /* straight down through the bottom of the wall at 3 m/s, nodes 1.5e-3 s apart: dh = 9e-3 */
  line (33, 0, 0.048, 0, -0.95, 0, -3, t, q, qd);
  st = vm_contact_check_eval (&k, &(vm_contact_traj) { 33, t, q, qd, 33 }, &ok, &f, why, sizeof why);
  CHECK (st == VM_OK && ok == 0, "step over: st %d ok %d", st, ok);
  CHECK (f > 0.05 && f < 0.2, "step over: factor %g (sigma/dh = 0.11 at the wall)", f);
  CHECK (strstr (why, "contact 1") != NULL, "why: %s", why);
  /* the same speed, nodes 1e-4 s apart: |dh| <= 2 r v dt = 6e-4 < sigma */
  line (33, 0, 0.0032, 0, -0.999, 0, -3, t, q, qd);
  st = vm_contact_check_eval (&k, &(vm_contact_traj) { 33, t, q, qd, 33 }, &ok, &f, why, sizeof why);
  CHECK (st == VM_OK && ok == 1 && f == 1.0 && why[0] == '\0', "resolved: ok %d f %g %s", ok, f,
         why);
  /* large steps far from the wall (h from 0.19 down to 0.1 = 100 sigma) */
  line (33, 0, 0.016, 0, -0.9, 0, -3, t, q, qd);
  st = vm_contact_check_eval (&k, &(vm_contact_traj) { 33, t, q, qd, 33 }, &ok, &f, why, sizeof why);
  CHECK (st == VM_OK && ok == 1, "far: ok %d %s", ok, why);
  /* two nodes at h = 2 sigma with the normal velocity reversed, 0.01 s apart: a bounce between
   * them (|hdot| dt = 0.06 = 60 sigma) */
  {
    double tt[2] = { 0, 0.01 }, r = sqrt (1 - 2e-3), qq[4] = { 0, 0, -r, -r },
           qq_d[4] = { 0, 0, -3, 3 };
    st = vm_contact_check_eval (&k, &(vm_contact_traj) { 2, tt, qq, qq_d, 2 }, &ok, &f, why, sizeof why);
    CHECK (st == VM_OK && ok == 0 && f < 0.05, "hidden bounce: ok %d f %g", ok, f);
  }
  /* sliding along the wall inside the layer (h = 2 sigma, tangential velocity): no limit */
  {
    int j;
    double r = sqrt (1 - 2e-3);
    for (j = 0; j < 33; j++)
      {
        double a = -1.5 + 0.1 * j;
        t[j] = 0.05 * j;
        q[j] = r * cos (a);
        q[j + 33] = r * sin (a);
        qd[j] = -2 * r * sin (a);
        qd[j + 33] = 2 * r * cos (a);
      }
    st = vm_contact_check_eval (&k, &(vm_contact_traj) { 33, t, q, qd, 33 }, &ok, &f, why, sizeof why);
    CHECK (st == VM_OK && ok == 1, "sliding: ok %d %s", ok, why);
  }
  /* a NaN state fails with the factor 0.5 */
  line (33, 0, 0.0032, 0, -0.999, 0, -3, t, q, qd);
  q[40] = NAN;
  st = vm_contact_check_eval (&k, &(vm_contact_traj) { 33, t, q, qd, 33 }, &ok, &f, why, sizeof why);
  CHECK (st == VM_OK && ok == 0 && f == 0.5, "nan: ok %d f %g", ok, f);
  CHECK (vm_contact_check_eval (&k, &(vm_contact_traj) { 1, t, q, qd, 33 }, &ok, &f, why, sizeof why) == VM_EARG,
         "N = 1");
  vm_contact_check_free (&k);
  vm_contact_check_free (&k);          /* twice: harmless */
  CHECK (vm_contact_check_init (&k, &m, NULL) == VM_EARG, "no parameters");
  vm_mech_free (&m);
}

/* (2) the tumbler with sigma = 1/1000 through vm_skg_solve (adaptive, RelTol 1e-8): checked
 * windows, the final state of the soft-wall reference (gauss_integrate dop853, RelTol = AbsTol =
 * 1e-13, MaxStep sigma/50) and within 1e-4 of the hard wall (free fall + specular reflection) */
static void
test_tumbler (void)
{
  static const double soft[4] = { -1.708385142924988e-04, -9.191475881223956e-01,
                                  1.807125264424575e+00, 2.226903811975549e-01 };
  static const double hard[4] = { -1.610291950784326e-04, -9.191534786445626e-01,
                                  1.807153310784639e+00, 2.227220077889711e-01 };
  vm_mech m;
  vm_skg_solve_opts o;
  vm_skg_solution s;
  const double par[5] = { 1, 9.8, 1, 1e-3, 5 }, q0[2] = { -0.5, -0.75 }, v0[2] = { 0, 0 };
  double es = 0, eh = 0, hmin = INFINITY;
  int st, c, r, nchk = 0;
  int64_t k;
  if (build_tumbler (&m) != VM_OK)
    return;
  vm_skg_solve_opts_init (&o);
  vm_skg_solution_init (&s);
  o.N = 33;
  o.windows = 0;
  o.rtol = 1e-8;
  o.tf = 0.5;
  o.newton.tol_res = 1e-10;
  o.newton.max_iter = 15;
  st = vm_skg_solve (&m, par, q0, v0, &o, &s);
  CHECK (st == VM_OK, "tumbler: %s", s.message);
  if (st == VM_OK)
    {
      for (c = 0; c < 2; c++)
        {
          double qe = s.q[s.Ntot - 1 + s.Ntot * c], ve = s.v[s.Ntot - 1 + s.Ntot * c];
          es = fmax (es, fmax (fabs (qe - soft[c]), fabs (ve - soft[2 + c])));
          eh = fmax (eh, fmax (fabs (qe - hard[c]), fabs (ve - hard[2 + c])));
        }
      for (k = 0; k < s.Ntot; k++)
        hmin = fmin (hmin, 1 - s.q[k] * s.q[k] - s.q[k + s.Ntot] * s.q[k + s.Ntot]);
      CHECK (es < 1e-7, "final state vs the soft wall %.3g (1.5e-9 measured)", es);
      CHECK (eh < 1e-4, "final state vs the hard wall %.3g (3.2e-5 measured)", eh);
      CHECK (hmin > 0.5e-3, "min h %.3g: never through the wall (0.81 sigma measured)", hmin);
    }
  CHECK (strcmp (s.march.check_name, "contact") == 0, "check name %s", s.march.check_name);
  for (r = 0; r < s.march.nrej; r++)
    if (s.march.rej_reason[r] == VM_MARCH_REJ_CHECK)
      {
        /* vetoed after an accepted estimate; the retry from the same time is 0.01 .. 0.9 times
         * as long: the next attempt there is a later rejection or an accepted window */
        double t0 = s.march.rej_t0[r], len = -1;
        int j;
        nchk++;
        CHECK (s.march.rej_err[r] <= 1.0, "vetoed estimate %g", s.march.rej_err[r]);
        for (j = r + 1; j < s.march.nrej && len < 0; j++)
          if (s.march.rej_t0[j] == t0)
            len = s.march.rej_len[j];
        for (j = 0; j < s.march.nwin && len < 0; j++)
          if (s.march.win_t0[j] == t0)
            len = s.march.win_t1[j] - t0;
        CHECK (len >= 0.01 * s.march.rej_len[r] * (1 - 1e-12)
               && len <= 0.9 * s.march.rej_len[r] * (1 + 1e-12), "retry %g after %g", len,
               s.march.rej_len[r]);
      }
  CHECK (nchk >= 1, "the check vetoed no window (the first impact's window steps over the wall)");
  vm_skg_solution_free (&s);
  vm_mech_free (&m);
}

int
main (void)
{
  test_paths ();
  test_tumbler ();
  return vmtest_finish ("test_contact_check");
}
