/* test_skg_solve.c -- vm_skg_solve (csrc/skg/skg_solve.c): full vs reduced mode, closed-form and RK4
 * references, a nonholonomic constraint, time windows, non-convergence. */
#include "vmtest.h"
#include "vmtest_mech.h"
#include "skg/skg_solve.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846


static int
solve (vm_mech *m, const double *par, const double *qi, const double *vi, int mode,
       int order, int64_t N, int W, double t0, double tf, int max_iter, vm_skg_solution *sol)
{
  vm_skg_solve_opts o;
  int st;
  vm_skg_solve_opts_init (&o);
  o.mode = mode;
  o.order = order;
  o.N = N;
  o.windows = W;
  o.t0 = t0;
  o.tf = tf;
  o.newton.tol_res = 1e-12;
  if (max_iter >= 0)
    o.newton.max_iter = max_iter;
  st = vm_skg_solve (m, par, qi, vi, &o, sol);
  return st;
}

static double
maxdiff (const double *a, const double *b, int64_t len)
{
  double d = 0;
  int64_t i;
  for (i = 0; i < len; i++)
    d = fmax (d, fabs (a[i] - b[i]));
  return d;
}

/* x'' + lam x' + x = 0, x(0) = q0, x'(0) = v0 */
static void
osc_exact (double lam, double q0, double v0, double t, double *x, double *v)
{
  double w = sqrt (1 - lam * lam / 4), A = q0, B = (v0 + lam / 2 * q0) / w, e = exp (-lam * t / 2);
  double c = cos (w * t), s = sin (w * t);
  *x = e * (A * c + B * s);
  *v = e * (-lam / 2 * (A * c + B * s) + w * (-A * s + B * c));
}

/* max over the grid of |q err| and |v err| against the closed form */
static double
osc_err (const vm_skg_solution *s, double lam, double q0, double v0)
{
  double e = 0, x, v;
  int64_t k;
  for (k = 0; k < s->Ntot; k++)
    {
      osc_exact (lam, q0, v0, s->t[k], &x, &v);
      e = fmax (e, fmax (fabs (s->q[k] - x), fabs (s->v[k] - v)));
    }
  return e;
}

/* (1) harmonic and damped oscillators */
static void
test_oscillators (void)
{
  vm_mech m;
  const char *x[] = { "x" }, *par[] = { "m", "k", "c" }, *f[] = { "-c*dot(x)" };
  static const int64_t Ns[4] = { 41, 81, 161, 321 };
  /* F4 table of doc/skg_boundary.md, order 4, T = 4 pi, max error */
  static const double ref[2][4] = { { 1.73e-2, 2.10e-3, 2.55e-4, 3.14e-5 },
                                    { 1.01e-2, 1.33e-3, 1.68e-4, 2.11e-5 } };
  const double q0 = 1, v0 = 0.5;
  int c, r;
  build_mech (&m, 1, x, 3, par, "m*dot(x)^2/2 - k*x^2/2", f, 0, NULL);
  for (c = 0; c < 2; c++)
    {
      double lam = c ? 0.25 : 0.0, pv[3] = { 1, 1, lam }, err[4];
      for (r = 0; r < 4; r++)
        {
          vm_skg_solution sf, sr;
          int stf, str;
          double dq, dv;
          vm_skg_solution_init (&sf);
          vm_skg_solution_init (&sr);
          stf = solve (&m, pv, &q0, &v0, VM_SKG_FULL, 4, Ns[r], 1, 0.0, 4 * PI, -1, &sf);
          str = solve (&m, pv, &q0, &v0, VM_SKG_REDUCED, 4, Ns[r], 1, 0.0, 4 * PI, -1, &sr);
          CHECK (stf == VM_OK && str == VM_OK, "osc solve: %s / %s", sf.message, sr.message);
          dq = maxdiff (sf.q, sr.q, sf.Ntot);
          dv = maxdiff (sf.v, sr.v, sf.Ntot);
          err[r] = osc_err (&sr, lam, q0, v0);
          /* both modes stop at Newton's rounding-level test (|F| <= eps || |J| |x| ||), which
           * leaves each iterate about cond(J) eps N |q| from the exact discrete root: 1e-12 at
           * N = 321 (measured), hence 1e-11 */
          CHECK (dq <= 1e-11 && dv <= 1e-10, "%s N %ld: full vs reduced q %.2e v %.2e",
                 c ? "damped" : "harmonic", (long) Ns[r], dq, dv);
          CHECK (sf.max_qm <= 1e-12, "full |q-| = %.2e", sf.max_qm);
          CHECK (sf.max_grad <= 1e-11 && sr.max_grad <= 1e-11, "|grad S| %.2e %.2e", sf.max_grad,
                 sr.max_grad);
          CHECK (fabs (err[r] / ref[c][r] - 1) < 0.03, "error %.3e vs doc %.3e", err[r], ref[c][r]);
          printf ("%-8s order 4 N %3ld: full %d it, reduced %d it, |full-red| %.1e, |q-| %.1e, "
                  "|grad| %.1e, max err %.3e (doc %.2e)",
                  c ? "damped" : "harmonic", (long) Ns[r], sf.iterations, sr.iterations, dq,
                  sf.max_qm, sf.max_grad, err[r], ref[c][r]);
          if (r > 0)
            {
              double rate = log2 (err[r - 1] / err[r]);
              printf ("  rate %.2f", rate);
              CHECK (rate > 2.9 && rate < 3.2, "order 4 max rate %.2f", rate);
            }
          printf ("\n");
          vm_skg_solution_free (&sf);
          vm_skg_solution_free (&sr);
        }
    }
  vm_mech_free (&m);
}

/* RK4 for th'' = -sin th, sampled on the grid t (t[0] = t0), substeps of at most hmax */
static void
pendulum_rk4 (double q0, double v0, const double *t, int64_t N, double hmax, double *q, double *v)
{
  double y0 = q0, y1 = v0, tc = t[0];
  int64_t k;
  q[0] = y0;
  v[0] = y1;
  for (k = 1; k < N; k++)
    {
      int nsub = (int) ceil ((t[k] - tc) / hmax), i;
      double h = (t[k] - tc) / nsub;
      for (i = 0; i < nsub; i++)
        {
          double k1q = y1, k1v = -sin (y0);
          double k2q = y1 + h / 2 * k1v, k2v = -sin (y0 + h / 2 * k1q);
          double k3q = y1 + h / 2 * k2v, k3v = -sin (y0 + h / 2 * k2q);
          double k4q = y1 + h * k3v, k4v = -sin (y0 + h * k3q);
          y0 += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
          y1 += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
        }
      tc = t[k];
      q[k] = y0;
      v[k] = y1;
    }
}

/* (2) nonlinear pendulum, (5) non-convergence */
static void
test_pendulum (void)
{
  vm_mech m;
  const char *th[] = { "th" };
  static const int64_t Ns[3] = { 41, 81, 161 };
  const double q0 = 1, v0 = 0, T = 10;
  double err[3];
  int r;
  build_mech (&m, 1, th, 0, NULL, "dot(th)^2/2 + cos(th)", NULL, 0, NULL);
  for (r = 0; r < 3; r++)
    {
      vm_skg_solution sf, sr;
      int stf, str, k, nq = 0;
      double *qr, *vr, dq;
      vm_skg_solution_init (&sf);
      vm_skg_solution_init (&sr);
      stf = solve (&m, NULL, &q0, &v0, VM_SKG_FULL, 4, Ns[r], 1, 0.0, T, -1, &sf);
      str = solve (&m, NULL, &q0, &v0, VM_SKG_REDUCED, 4, Ns[r], 1, 0.0, T, -1, &sr);
      CHECK (stf == VM_OK && str == VM_OK, "pendulum: %s / %s", sf.message, sr.message);
      CHECK (sf.iterations >= 2, "pendulum: nonlinear, %d iterations", sf.iterations);
      dq = maxdiff (sf.q, sr.q, sf.Ntot);
      CHECK (dq <= 1e-12, "pendulum N %ld: full vs reduced %.2e", (long) Ns[r], dq);
      CHECK (sf.max_qm <= 1e-12, "pendulum |q-| %.2e", sf.max_qm);
      /* quadratic convergence: in the last steps res_{k+1} <= C res_k^2 while res_k is not at
       * rounding level; count such steps */
      for (k = 1; k < sr.nhist; k++)
        {
          double a = sr.res_hist[k - 1], b = sr.res_hist[k];
          if (a < 1e-2 && a > 1e-9 && b <= 10 * a * a)
            nq++;
        }
      printf ("pendulum order 4 N %3ld: full %d it, reduced %d it, res hist:", (long) Ns[r],
              sf.iterations, sr.iterations);
      for (k = 0; k < sr.nhist; k++)
        printf (" %.1e", sr.res_hist[k]);
      CHECK (nq >= 1, "pendulum: no quadratic step seen");
      qr = malloc ((size_t) sr.Ntot * sizeof *qr);
      vr = malloc ((size_t) sr.Ntot * sizeof *vr);
      pendulum_rk4 (q0, v0, sr.t, sr.Ntot, 1e-3, qr, vr);
      err[r] = fmax (maxdiff (sr.q, qr, sr.Ntot), maxdiff (sr.v, vr, sr.Ntot));
      printf ("\n    |full-red| %.1e  |q-| %.1e  max err vs RK4 %.3e", dq, sf.max_qm, err[r]);
      if (r > 0)
        {
          printf ("  rate %.2f", log2 (err[r - 1] / err[r]));
          CHECK (err[r] < err[r - 1] / 6, "pendulum error does not decrease: %.2e -> %.2e",
                 err[r - 1], err[r]);
        }
      printf ("\n");
      CHECK (err[r] < (r == 0 ? 5e-2 : r == 1 ? 6e-3 : 8e-4), "pendulum error %.2e", err[r]);
      free (qr);
      free (vr);
      vm_skg_solution_free (&sf);
      vm_skg_solution_free (&sr);
    }
  /* (5) max_iter = 1: not converged, best iterate returned */
  {
    vm_skg_solution s;
    int st, mode;
    for (mode = 0; mode < 2; mode++)
      {
        vm_skg_solution_init (&s);
        st = solve (&m, NULL, &q0, &v0, mode, 4, 81, 1, 0.0, T, 1, &s);
        CHECK (st == VM_ENEWTON_MAXIT && s.status == st, "max_iter 1: status %d (%s)", st,
               s.message);
        CHECK (s.iterations == 1 && s.nhist == 2, "max_iter 1: %d iterations, %d hist",
               s.iterations, s.nhist);
        CHECK (s.nhist == 2 && s.res_hist[1] < s.res_hist[0] && isfinite (s.q[40])
               && s.march.nwin == 1 && s.march.win_status[0] == st,
               "max_iter 1: best iterate");
        printf ("max_iter 1 (%s): status %d, message: %s\n", mode ? "reduced" : "full", st,
                s.message);
        vm_skg_solution_free (&s);
      }
    /* windows: the first window fails, the solve stops there, later nodes are NaN */
    vm_skg_solution_init (&s);
    st = solve (&m, NULL, &q0, &v0, VM_SKG_REDUCED, 4, 21, 4, 0.0, T, 1, &s);
    CHECK (st == VM_ENEWTON_MAXIT && s.nwin_done == 1 && s.march.win_status[0] == st
           && s.Ntot == 81 && isfinite (s.q[20]) && isnan (s.q[21])
           && s.hist_ptr[1] == s.nhist, "windows, max_iter 1: status %d, %d windows", st,
           s.nwin_done);
    printf ("windows, max_iter 1: status %d after %d window(s): %s\n", st, s.nwin_done, s.message);
    vm_skg_solution_free (&s);
  }
  /* caller's guess: the converged trajectory needs no step */
  {
    vm_skg_solution s, s2;
    vm_skg_solve_opts o;
    int st;
    vm_skg_solution_init (&s);
    vm_skg_solution_init (&s2);
    st = solve (&m, NULL, &q0, &v0, VM_SKG_FULL, 4, 21, 3, 0.0, T, -1, &s);
    vm_skg_solve_opts_init (&o);
    o.mode = VM_SKG_FULL;
    o.N = 21;
    o.windows = 3;
    o.tf = T;
    o.newton.tol_res = 1e-10;
    o.q_guess = s.q;
    st = st == VM_OK ? vm_skg_solve (&m, NULL, &q0, &v0, &o, &s2) : st;
    /* window 0 starts at its solution; windows 1, 2 only differ at their node 0 (the junction
     * keeps the previous window's end node, while a window's own node 0 satisfies q+_0 = q_i
     * weakly (SAT)), so they need a couple of steps */
    CHECK (st == VM_OK && s2.march.win_iter[0] == 0 && s2.iterations < s.iterations
           && maxdiff (s.q, s2.q, s.Ntot) <= 1e-10, "guess: status %d, %d iterations", st,
           s2.iterations);
    printf ("caller's guess (3 windows, converged q+): %d iterations (%d %d %d; from q_i: %d)\n",
            s2.iterations, s2.march.win_iter[0], s2.march.win_iter[1], s2.march.win_iter[2], s.iterations);
    vm_skg_solution_free (&s);
    vm_skg_solution_free (&s2);
  }
  vm_mech_free (&m);
}

/* (3) nonholonomic linear velocity constraint */
static void
test_nonholonomic (void)
{
  vm_mech m;
  const char *xy[] = { "x", "y" };
  const char *c5[] = { "dot(x) + dot(y) + 0.3*x - 0.3*y" };
  const double qi[2] = { 0.2, 0.1 }, vi[2] = { 0.5, -0.53 };   /* consistent: g = 0 */
  vm_skg_solution sf, sr;
  int stf, str, o;
  build_mech (&m, 2, xy, 0, NULL, "(dot(x)^2 + dot(y)^2)/2 - (x^2 + 2*y^2)/2", NULL, 1, c5);
  for (o = 2; o <= 6; o += 2)
    {
      int64_t k, N = 81;
      double gmax = 0, dq, dl;
      vm_skg_solution_init (&sf);
      vm_skg_solution_init (&sr);
      stf = solve (&m, NULL, qi, vi, VM_SKG_FULL, o, N, 1, 0.0, 5.0, -1, &sf);
      str = solve (&m, NULL, qi, vi, VM_SKG_REDUCED, o, N, 1, 0.0, 5.0, -1, &sr);
      CHECK (stf == VM_OK && str == VM_OK, "nonholonomic: %s / %s", sf.message, sr.message);
      for (k = 0; k < N; k++)
        {
          double g = sr.v[k] + sr.v[k + N] + 0.3 * sr.q[k] - 0.3 * sr.q[k + N];
          double gf = sf.v[k] + sf.v[k + N] + 0.3 * sf.q[k] - 0.3 * sf.q[k + N];
          gmax = fmax (gmax, fmax (fabs (g), fabs (gf)));
        }
      dq = maxdiff (sf.q, sr.q, 2 * N);
      dl = maxdiff (sf.lambda, sr.lambda, N);
      CHECK (gmax <= 1e-10, "nonholonomic order %d: max |g| %.2e", o, gmax);
      /* as for the oscillators: two rounding-level stops (lambda carries 1/h: 3e-12 measured) */
      CHECK (dq <= 1e-11 && dl <= 1e-10, "nonholonomic: full vs reduced q %.2e lambda %.2e", dq, dl);
      CHECK (sf.max_qm <= 1e-12 && sf.max_lm <= 1e-12, "nonholonomic: |q-| %.2e |lambda-| %.2e",
             sf.max_qm, sf.max_lm);
      printf ("nonholonomic order %d N %ld: it %d/%d  max |g| %.1e  |full-red| q %.1e lambda %.1e  "
              "|q-| %.1e |lambda-| %.1e  lambda(0) %.4f lambda(T) %.4f\n",
              o, (long) N, sf.iterations, sr.iterations, gmax, dq, dl, sf.max_qm, sf.max_lm,
              sr.lambda[0], sr.lambda[N - 1]);
      vm_skg_solution_free (&sf);
      vm_skg_solution_free (&sr);
    }
  vm_mech_free (&m);
}

/* (4) windows: 4 windows of 21 points vs 1 window of 81 (same grid) */
static void
test_windows (void)
{
  vm_mech m;
  const char *x[] = { "x" }, *par[] = { "m", "k", "c" }, *f[] = { "-c*dot(x)" };
  const double q0 = 1, v0 = 0.5;
  int c, mode;
  build_mech (&m, 1, x, 3, par, "m*dot(x)^2/2 - k*x^2/2", f, 0, NULL);
  for (c = 0; c < 2; c++)
    for (mode = 0; mode < 2; mode++)
      {
        double pv[3] = { 1, 1, c ? 0.25 : 0.0 }, e1, e4, dt;
        vm_skg_solution s1, s4;
        int st1, st4;
        vm_skg_solution_init (&s1);
        vm_skg_solution_init (&s4);
        st1 = solve (&m, pv, &q0, &v0, mode, 4, 81, 1, 0.0, 4 * PI, -1, &s1);
        st4 = solve (&m, pv, &q0, &v0, mode, 4, 21, 4, 0.0, 4 * PI, -1, &s4);
        CHECK (st1 == VM_OK && st4 == VM_OK, "windows: %s / %s", s1.message, s4.message);
        CHECK (s4.Ntot == 81 && s4.nwin_done == 4 && s4.hist_ptr[4] == s4.nhist, "windows: sizes");
        dt = maxdiff (s1.t, s4.t, 81);
        CHECK (dt <= 1e-13, "windows: grids differ by %.2e", dt);
        e1 = osc_err (&s1, pv[2], q0, v0);
        e4 = osc_err (&s4, pv[2], q0, v0);
        CHECK (e1 < 2.2e-3 && e4 < 1e-2, "windows: errors %.2e %.2e", e1, e4);
        printf ("windows %s %s: 1 x 81 err %.3e (%d it), 4 x 21 err %.3e (%d it, per window %d %d "
                "%d %d), |q1 - q4| %.2e\n",
                c ? "damped  " : "harmonic", mode ? "reduced" : "full   ", e1, s1.iterations, e4,
                s4.iterations, s4.march.win_iter[0], s4.march.win_iter[1], s4.march.win_iter[2], s4.march.win_iter[3],
                maxdiff (s1.q, s4.q, 81));
        vm_skg_solution_free (&s1);
        vm_skg_solution_free (&s4);
      }
  vm_mech_free (&m);
}

/* (5) N-independent stopping: the rolling disk (linear constraint form) at N = 4096, tol_res
 * 1e-12, tol_step 1e-13.  The 2-norm of the action gradient has a rounding floor that grows like
 * N^1.5 (eps |q| / h per equation, sqrt(N) equations): about 5e-11 here, 10 times the old target
 * 1e-12 ||F(x0)||_2; the Newton corrections at that floor (eps N |q|) are above the step test.
 * With the old test (plain 2-norm, no rounding-level test) Newton stalls there (32 iterations,
 * LM fallback, VM_ENEWTON_STALL; capped at 6 iterations here); with the residual of the
 * discrete equations of motion in the H-weighted norm and the rounding-level test it converges
 * in 3 full Newton steps.  The same happens at the default tolerances from N = 32768 on. */
static void
test_large_n_stopping (void)
{
  vm_mech m;
  const char *x[] = { "x", "y", "theta", "phi" };
  const char *par[] = { "M", "g", "alpha", "R", "IS", "ID" };
  const char *cons[] = { "dot(x)*cos(phi) + dot(y)*sin(phi) - R*dot(theta)",
                         "dot(x)*sin(phi) - dot(y)*cos(phi)" };
  const double pv[6] = { 1, 9.8, PI / 6, 1, 0.5, 0.25 }, q0[4] = { 0, 0, 0, 0 };
  const double v0[4] = { 5, 0, 5, 1 };
  vm_skg_solve_opts o;
  vm_skg_solution sn, so, sb;
  int stn, sto, stb, k;
  double gerr = 0;
  build_mech (&m, 4, x, 6, par, "M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 "
              "+ ID/2*dot(phi)^2 + M*g*x*sin(alpha)", NULL, 2, cons);
  vm_skg_solve_opts_init (&o);
  o.N = 4096;
  o.tf = 2 * PI;
  o.newton.tol_res = 1e-12;
  o.newton.tol_step = 1e-13;
  vm_skg_solution_init (&sn);
  vm_skg_solution_init (&so);
  vm_skg_solution_init (&sb);
  /* the banded LU (the choice of VM_LINSOLVE_AUTO here) solves each Newton step more accurately
   * than UMFPACK without refinement, and reaches the rounding level of the residual in 1 step;
   * the history below is UMFPACK's, so that it checks that backend's iteration */
  stb = vm_skg_solve (&m, pv, q0, v0, &o, &sb);
  o.newton.linsolve = VM_LINSOLVE_UMFPACK;
  stn = vm_skg_solve (&m, pv, q0, v0, &o, &sn);         /* defaults: EOM residual, rounding test */
  o.eom_residual = 0;
  o.newton.tol_round = 0;
  o.newton.max_iter = 6;
  sto = vm_skg_solve (&m, pv, q0, v0, &o, &so);         /* the old criterion */
  printf ("disk N 4096 tol 1e-12: old criterion: status %d (%s) after %d it: %s\n", sto,
          vm_status_string (sto), so.iterations, so.message);
  printf ("disk N 4096 tol 1e-12: new criterion: status %d after %d it: %s\n", stn,
          sn.iterations, sn.message);
  for (k = 0; k < sn.nhist; k++)
    printf ("  k %d  ||F||_W %.3e  ||dx||_inf %.3e  kind %d\n", k, sn.res_hist[k],
            sn.march.step_hist[k], sn.march.kind_hist[k]);
  CHECK (stn == VM_OK && sn.iterations <= 4, "large N: %s", sn.message);
  CHECK (sto != VM_OK, "large N: the old criterion converged: %s", so.message);
  /* a full step: Newton's, or (factorization reuse, newton.h 2') a chord step with the previous
   * iterate's factorization */
  CHECK (sn.nhist >= 3 && (sn.march.kind_hist[sn.nhist - 1] == VM_NEWTON_FULL
                           || sn.march.kind_hist[sn.nhist - 1] == VM_NEWTON_CHORD)
         && sn.march.step_hist[sn.nhist - 1] <= 1e-6 * sn.march.step_hist[sn.nhist - 2],
         "large N: the last step is not a contracting full (Newton or chord) step");
  /* the constraint g2 = xdot sin(phi) - ydot cos(phi) holds to rounding, and both criteria
   * agree on the solution where the old one got (its stall is at the rounding level) */
  for (k = 0; k < sn.Ntot; k++)
    {
      double ph = sn.q[k + 3 * sn.Ntot];
      gerr = fmax (gerr, fabs (sn.v[k] * sin (ph) - sn.v[k + sn.Ntot] * cos (ph)));
    }
  CHECK (gerr <= 1e-8, "large N: max |g2| = %.2e", gerr);
  CHECK (maxdiff (sn.q, so.q, 4 * sn.Ntot) <= 1e-8, "large N: old and new iterates differ by %.2e",
         maxdiff (sn.q, so.q, 4 * sn.Ntot));
  printf ("disk N 4096 tol 1e-12: banded: status %d after %d it (kl %d, ku %d): %s; max |q_band - "
          "q_umfpack| = %.2e\n", stb, sb.iterations, sb.march.kl, sb.march.ku, sb.message,
          maxdiff (sn.q, sb.q, 4 * sn.Ntot));
  CHECK (stb == VM_OK && sb.march.linsolve == VM_LINSOLVE_BANDED && sn.march.linsolve
         == VM_LINSOLVE_UMFPACK && sb.iterations <= 4, "large N, banded: %s", sb.message);
  CHECK (maxdiff (sn.q, sb.q, 4 * sn.Ntot) <= 1e-8, "large N: banded and UMFPACK iterates differ "
         "by %.2e", maxdiff (sn.q, sb.q, 4 * sn.Ntot));
  vm_skg_solution_free (&sb);
  vm_skg_solution_free (&sn);
  vm_skg_solution_free (&so);
  vm_mech_free (&m);
}

/* vm_skg_memory_estimate: the backend's fit (UMFPACK's or the band's), AUTO the band's while u = n + m
 * <= 12 (reduced) and the larger beyond, linear in N, 0 for an unknown backend. */
static void
test_memory_estimate (void)
{
  const int64_t N = 65536;
  double a, u, b;
  a = vm_skg_memory_estimate (4, 2, N, 4, VM_SKG_REDUCED, VM_LINSOLVE_AUTO);
  u = vm_skg_memory_estimate (4, 2, N, 4, VM_SKG_REDUCED, VM_LINSOLVE_UMFPACK);
  b = vm_skg_memory_estimate (4, 2, N, 4, VM_SKG_REDUCED, VM_LINSOLVE_BANDED);
  CHECK (a == b && u > b && b > 0, "disk, reduced: auto %.0f umfpack %.0f banded %.0f", a, u, b);
  CHECK (vm_skg_memory_estimate (4, 2, 2 * N, 4, VM_SKG_REDUCED, VM_LINSOLVE_AUTO) == 2 * a,
         "estimate linear in N");
  /* full mode: u = 2 (n + m) = 12 still the band's; 14 the larger */
  CHECK (vm_skg_memory_estimate (4, 2, N, 8, VM_SKG_FULL, VM_LINSOLVE_AUTO)
         == vm_skg_memory_estimate (4, 2, N, 8, VM_SKG_FULL, VM_LINSOLVE_BANDED), "full u = 12: band");
  a = vm_skg_memory_estimate (5, 2, N, 4, VM_SKG_FULL, VM_LINSOLVE_AUTO);
  u = vm_skg_memory_estimate (5, 2, N, 4, VM_SKG_FULL, VM_LINSOLVE_UMFPACK);
  b = vm_skg_memory_estimate (5, 2, N, 4, VM_SKG_FULL, VM_LINSOLVE_BANDED);
  CHECK (a == fmax (u, b), "full u = 14: the larger of %.0f and %.0f, got %.0f", u, b, a);
  CHECK (vm_skg_memory_estimate (4, 2, N, 4, VM_SKG_REDUCED, 7) == 0.0, "unknown backend: 0");
}

int
main (void)
{
  test_memory_estimate ();
  test_oscillators ();
  test_pendulum ();
  test_nonholonomic ();
  test_windows ();
  test_large_n_stopping ();
  return vmtest_finish ("test_skg_solve");
}
