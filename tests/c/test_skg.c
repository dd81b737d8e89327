/* test_skg.c -- the discrete SKG action (csrc/skg/skg.c, skg_eval.c, skg_plan.c, skg_pattern.c):
 * derivatives against finite differences, the Hessian pattern and the patterns of its blocks (vm_skg_pattern), and the Newton step on linear oscillators against an independently
 * assembled SBP-SAT solve and the closed-form solution. */
#include "vmtest.h"
#include "vmtest_mech.h"
#include "skg/skg.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static unsigned long rng = 12345;
static double
urand (void)
{
  rng = rng * 6364136223846793005UL + 1442695040888963407UL;
  return (double) ((rng >> 11) & ((1UL << 53) - 1)) / 9007199254740992.0;
}

/* dense LU with partial pivoting, solves A x = b in place (A n x n column-major); 0 on success */
static int
dense_solve (int n, double *A, double *b)
{
  int i, j, k;
  for (k = 0; k < n; k++)
    {
      int p = k;
      double mx = fabs (A[k + (size_t) n * k]);
      for (i = k + 1; i < n; i++)
        if (fabs (A[i + (size_t) n * k]) > mx)
          {
            mx = fabs (A[i + (size_t) n * k]);
            p = i;
          }
      if (mx == 0.0)
        return 1;
      if (p != k)
        {
          for (j = 0; j < n; j++)
            {
              double t = A[k + (size_t) n * j];
              A[k + (size_t) n * j] = A[p + (size_t) n * j];
              A[p + (size_t) n * j] = t;
            }
          {
            double t = b[k];
            b[k] = b[p];
            b[p] = t;
          }
        }
      for (i = k + 1; i < n; i++)
        {
          double l = A[i + (size_t) n * k] / A[k + (size_t) n * k];
          if (l == 0.0)
            continue;
          for (j = k + 1; j < n; j++)
            A[i + (size_t) n * j] -= l * A[k + (size_t) n * j];
          b[i] -= l * b[k];
        }
    }
  for (k = n - 1; k >= 0; k--)
    {
      double sum = b[k];
      for (j = k + 1; j < n; j++)
        sum -= A[k + (size_t) n * j] * b[j];
      b[k] = sum / A[k + (size_t) n * k];
    }
  return 0;
}

static double *
dense_hess (const vm_skg *s, const double *hval)
{
  int64_t nz = s->nz, j, e;
  double *A = calloc ((size_t) (nz * nz), sizeof *A);
  for (j = 0; j < nz; j++)
    for (e = s->colptr[j]; e < s->colptr[j + 1]; e++)
      A[s->rowind[e] + nz * j] = hval[e];
  return A;
}

static int
in_pattern (const vm_skg *s, int64_t i, int64_t j)
{
  int64_t e;
  for (e = s->colptr[j]; e < s->colptr[j + 1]; e++)
    if (s->rowind[e] == i)
      return 1;
  return 0;
}

/* skg_solve's reduced system: z-component c of a node is row rc[c] (q-, lambda-) and column cc[c]
 * (q+, lambda+) of the block, -1 otherwise. */
static void
reduced_maps (const vm_skg *s, int *rc, int *cc)
{
  int n = s->n, mm = s->m, c;
  for (c = 0; c < s->nb; c++)
    {
      rc[c] = c >= n && c < 2 * n ? c - n : c >= 2 * n + mm ? n + (c - 2 * n - mm) : -1;
      cc[c] = c < n ? c : c >= 2 * n && c < 2 * n + mm ? n + (c - 2 * n) : -1;
    }
}

/* The reduced tape (vm_skg_eval_reduced) against the full one at a random point with q- = lambda-
 * = 0: the gradient (minus components; the plus ones exactly 0) and the Hessian's (minus, plus)
 * block through a plan of VM_SKG_TERM_REDUCED on vm_skg_pattern's pattern (with its static part,
 * skg_static.c), in the window s was built for and then in a second one of another length, which
 * changes H and Ds (the static part is remade); minus components in z are ignored; plans of the
 * other term are refused.  s has its full pattern.  Returns the template's column nodes. */
static int64_t
reduced_vs_full (const char *name, vm_skg *s)
{
  int64_t nz = s->nz, N = s->N, i, j, e, *cp = NULL, *ri = NULL, rnnz;
  int n = s->n, mm = s->m, nb = s->nb, tb = n + mm, c, rc[16], cc[16];
  double *z = calloc ((size_t) nz, sizeof *z), *g = malloc ((size_t) nz * sizeof *g);
  double *gr = malloc ((size_t) nz * sizeof *gr), *hv = malloc ((size_t) s->nnz * sizeof *hv);
  double *hr = NULL, gerr = 0, gscale = 1, plus = 0, herr = 0, hscale = 1, dz = 0;
  int64_t ntmpl = 0;
  int w;
  vm_skg_plan plan;
  reduced_maps (s, rc, cc);
  CHECK (vm_skg_plan_build (s, VM_SKG_TERM_REDUCED,
                            &(vm_skg_target) { tb, rc, cc, N * tb, s->colptr, s->rowind }, &plan)
         == VM_EARG, "%s: a reduced plan before vm_skg_reduced_init refused",
         name);
  CHECK (vm_skg_reduced_init (s) == VM_OK && vm_skg_reduced_init (s) == VM_OK,
         "%s: reduced init (twice)", name);
  CHECK (vm_skg_pattern (s, tb, rc, cc, &cp, &ri, &rnnz) == VM_OK
         && vm_skg_plan_build (s, VM_SKG_TERM_REDUCED,
                               &(vm_skg_target) { tb, rc, cc, N * tb, cp, ri }, &plan) == VM_OK,
         "%s: reduced pattern and plan", name);
  hr = malloc ((size_t) (rnnz > 0 ? rnnz : 1) * sizeof *hr);
  for (w = 0; w < 2; w++)
  {
  if (w == 1)
    {
      double q1[8] = { 0 }, v1[8] = { 0 };
      ntmpl = plan.kc_hi - plan.kc_lo;
      for (c = 0; c < n && c < 8; c++)
        {
          q1[c] = urand () - 0.5;
          v1[c] = urand () - 0.5;
        }
      CHECK (vm_skg_set_window (s, 1.25, 1.25 + 0.7 * (s->tf - s->t0), q1, v1) == VM_OK,
             "%s: second window", name);
      gerr = plus = herr = 0;
      gscale = hscale = 1;
    }
  for (i = 0; i < nz; i++)
    z[i] = cc[i % nb] >= 0 ? urand () - 0.5 : 0.0;
  CHECK (vm_skg_eval (s, z, NULL, g, hv) == VM_OK, "%s: full eval", name);
  CHECK (vm_skg_eval_reduced (s, z, gr, &plan, hr) == VM_OK, "%s: reduced eval", name);
  for (i = 0; i < nz; i++)
    {
      gscale = fmax (gscale, fabs (g[i]));
      if (rc[i % nb] >= 0)
        gerr = fmax (gerr, fabs (gr[i] - g[i]));
      else
        plus = fmax (plus, fabs (gr[i]) + fabs (g[i]));
    }
  for (j = 0; j < nz; j++)                 /* the full Hessian's block, entry by entry */
    for (e = s->colptr[j]; e < s->colptr[j + 1]; e++)
      {
        int64_t r = s->rowind[e], col, row, p;
        double v = 0.0;
        hscale = fmax (hscale, fabs (hv[e]));
        if (rc[r % nb] < 0 || cc[j % nb] < 0)
          continue;
        row = r / nb * tb + rc[r % nb];
        col = j / nb * tb + cc[j % nb];
        for (p = cp[col]; p < cp[col + 1]; p++)
          if (ri[p] == row)
            v = hr[p];
        herr = fmax (herr, fabs (v - hv[e]));
      }
  /* the reduced evaluation ignores the minus components */
  for (i = 0; i < nz; i++)
    if (rc[i % nb] >= 0)
      z[i] = urand () - 0.5;
  CHECK (vm_skg_eval_reduced (s, z, g, NULL, NULL) == VM_OK, "%s: reduced eval (minus set)", name);
  for (i = 0; i < nz; i++)
    dz = fmax (dz, fabs (g[i] - gr[i]));
  CHECK (gerr <= 1e-13 * gscale && plus == 0.0,
         "%s: reduced gradient (window %d): err %.2e scale %.2e, plus %.2e", name, w, gerr, gscale,
         plus);
  CHECK (herr <= 1e-13 * hscale, "%s: reduced Hessian block (window %d): err %.2e scale %.2e",
         name, w, herr, hscale);
  }
  CHECK (dz == 0.0, "%s: reduced eval depends on the minus components: %.2e", name, dz);
  CHECK (vm_skg_eval_reduced (s, z, NULL, &s->full, hv) == VM_EARG
         && vm_skg_eval_plan (s, z, NULL, NULL, &plan, hr) == VM_EARG
         && vm_skg_eval_reduced (s, z, NULL, NULL, hr) == VM_EARG,
         "%s: a plan of the other term (or none) refused", name);
  vm_skg_plan_free (&plan);
  vm_scratch_free (cp);
  vm_scratch_free (ri);
  free (z);
  free (g);
  free (gr);
  free (hv);
  free (hr);
  return ntmpl;
}

/* (1) gradient, (2) Hessian, (3) pattern, all against central differences at a random z. */
static void
fd_checks (const char *name, const vm_mech *m, const double *par, int64_t N, int order, double tf,
           const double *qi, const double *vi)
{
  vm_skg s;
  int st = vm_skg_build (&s, m, par, N, order, &(vm_skg_window) { 0.3, tf, qi, vi });
  int64_t nz, i, j;
  double *z, *g, *hv, *gp, *gm, *A, *Hfd, Sv, Sp, Sm, gscale = 1, hscale = 1, gerr = 0, herr = 0,
    asym = 0;
  int miss = 0;
  const double eps = 1e-5;
  CHECK (st == VM_OK, "%s: build: %s", name, vm_status_string (st));
  if (st != VM_OK)
    return;
  st = vm_skg_full_pattern (&s);
  CHECK (st == VM_OK, "%s: full pattern: %s", name, vm_status_string (st));
  if (st != VM_OK)
    {
      vm_skg_free (&s);
      return;
    }
  nz = s.nz;
  z = malloc ((size_t) nz * sizeof *z);
  g = malloc ((size_t) nz * sizeof *g);
  gp = malloc ((size_t) nz * sizeof *gp);
  gm = malloc ((size_t) nz * sizeof *gm);
  hv = malloc ((size_t) s.nnz * sizeof *hv);
  Hfd = malloc ((size_t) (nz * nz) * sizeof *Hfd);
  for (i = 0; i < nz; i++)
    z[i] = urand () - 0.5;
  CHECK (vm_skg_eval (&s, z, &Sv, g, hv) == VM_OK, "%s: eval", name);
  A = dense_hess (&s, hv);
  for (i = 0; i < nz; i++)
    {
      double zi = z[i];
      z[i] = zi + eps;
      vm_skg_eval (&s, z, &Sp, gp, NULL);
      z[i] = zi - eps;
      vm_skg_eval (&s, z, &Sm, gm, NULL);
      z[i] = zi;
      gerr = fmax (gerr, fabs ((Sp - Sm) / (2 * eps) - g[i]));
      gscale = fmax (gscale, fabs (g[i]));
      for (j = 0; j < nz; j++)
        Hfd[j + nz * i] = (gp[j] - gm[j]) / (2 * eps);
    }
  for (i = 0; i < nz * nz; i++)
    {
      herr = fmax (herr, fabs (Hfd[i] - A[i]));
      hscale = fmax (hscale, fabs (A[i]));
    }
  for (i = 0; i < nz; i++)
    for (j = 0; j < nz; j++)
      {
        asym = fmax (asym, fabs (A[i + nz * j] - A[j + nz * i]));
        if (fabs (Hfd[i + nz * j]) > 1e-7 * hscale && ! in_pattern (&s, i, j))
          miss++;
      }
  CHECK (gerr <= 1e-6 * gscale, "%s: gradient vs FD: err %.3e scale %.3e", name, gerr, gscale);
  CHECK (herr <= 1e-6 * hscale, "%s: Hessian vs FD: err %.3e scale %.3e", name, herr, hscale);
  CHECK (asym <= 1e-12 * hscale, "%s: Hessian symmetric: %.3e", name, asym);
  CHECK (miss == 0, "%s: %d FD Hessian nonzeros outside the pattern", name, miss);
  printf ("%-26s order %d N %3ld nz %4ld nnz %6ld  grad err %.1e/%.1e  hess err %.1e/%.1e\n", name,
          order, (long) N, (long) nz, (long) s.nnz, gerr, gscale, herr, hscale);
  reduced_vs_full (name, &s);
  free (z);
  free (g);
  free (gp);
  free (gm);
  free (hv);
  free (Hfd);
  free (A);
  vm_skg_free (&s);
}


static void
test_fd (void)
{
  static const int orders[3] = { 2, 4, 6 };
  static const int64_t Ns[3] = { 10, 18, 26 };
  int o;
  vm_mech m1, m2, m3, m4, m5, m6;
  const char *x[] = { "x" }, *th[] = { "th" }, *xy[] = { "x", "y" };
  const char *p1[] = { "m", "k" }, *p2[] = { "m", "k", "c", "a" }, *p4[] = { "m", "gr" };
  const char *f2[] = { "-c*dot(x) + a*cos(t)" };
  const char *c4[] = { "x*dot(x) + y*dot(y)" };
  const char *c5[] = { "dot(x) + dot(y) + 0.3*x - 0.3*y" };
  double par1[] = { 1.3, 0.7 }, par2[] = { 1.0, 1.0, 0.25, 0.5 }, par4[] = { 1.2, 9.81 };
  double q1[] = { 1.0 }, v1[] = { 0.5 }, q4[] = { 0.6, -0.8 }, v4[] = { 0.8, 0.6 };
  double q5[] = { 0.2, 0.1 }, v5[] = { 0.5, -0.5 };
  build_mech (&m1, 1, x, 2, p1, "m*dot(x)^2/2 - k*x^2/2", NULL, 0, NULL);
  build_mech (&m2, 1, x, 4, p2, "m*dot(x)^2/2 - k*x^2/2", f2, 0, NULL);
  build_mech (&m3, 1, th, 0, NULL, "dot(th)^2/2 + cos(th)", NULL, 0, NULL);
  build_mech (&m4, 2, xy, 2, p4, "m/2*(dot(x)^2 + dot(y)^2) - m*gr*y", NULL, 1, c4);
  build_mech (&m5, 2, xy, 0, NULL, "(dot(x)^2 + dot(y)^2)/2 - (x^2 + 2*y^2)/2", NULL, 1, c5);
  build_mech (&m6, 1, x, 0, NULL, "(1 + x^2)*dot(x)^2/2 - x^2/2 + t*x*dot(x)^3/10", NULL, 0, NULL);
  for (o = 0; o < 3; o++)
    {
      fd_checks ("harmonic", &m1, par1, Ns[o], orders[o], 2.0, q1, v1);
      fd_checks ("damped+forced", &m2, par2, Ns[o], orders[o], 2.0, q1, v1);
      fd_checks ("pendulum (angle)", &m3, NULL, Ns[o], orders[o], 2.0, q1, v1);
      fd_checks ("pendulum (x,y), cons", &m4, par4, Ns[o], orders[o], 2.0, q4, v4);
      fd_checks ("nonholonomic linear", &m5, NULL, Ns[o], orders[o], 2.0, q5, v5);
      fd_checks ("nonlinear mass, t", &m6, NULL, Ns[o], orders[o], 2.0, q1, v1);
    }
  vm_mech_free (&m1);
  vm_mech_free (&m2);
  vm_mech_free (&m3);
  vm_mech_free (&m4);
  vm_mech_free (&m5);
  vm_mech_free (&m6);
}

/* Holonomic constraints (position level, dg/dqdot structurally zero): the same checks on the
 * spherical pendulum, a time-dependent constraint with a nonlinear mass, and a model that mixes a
 * holonomic and a nonholonomic constraint; then the density at q- = 0 against the hand-written
 * form lambda- g(q+) - lambda+ q- . dg/dq (checked through the gradient in q- and lambda-). */
static void
test_fd_holonomic (void)
{
  static const int orders[3] = { 2, 4, 6 };
  static const int64_t Ns[3] = { 10, 18, 26 };
  int o;
  vm_mech m1, m2, m3;
  const char *xyz[] = { "x", "y", "z" }, *xy[] = { "x", "y" }, *p1[] = { "gr", "l" };
  const char *c1[] = { "x^2 + y^2 + z^2 - l^2" };
  const char *c2[] = { "x^2 - y*cos(t) + 0.5" };
  const char *c3[] = { "x^2 + y^2 + z^2 - 1", "y*dot(x) - x*dot(y) + 0.5*dot(z)" };
  double par1[] = { 9.81, 1.0 };
  double q1[] = { 0.84, 0.0, -0.54 }, v1[] = { 0.0, 1.5, 0.0 }, q2[] = { 0.3, 0.7 }, v2[] = { 0.2, -0.1 };
  build_mech (&m1, 3, xyz, 2, p1, "(dot(x)^2 + dot(y)^2 + dot(z)^2)/2 - gr*z", NULL, 1, c1);
  build_mech (&m2, 2, xy, 0, NULL, "(1 + x^2)*dot(x)^2/2 + dot(y)^2/2 - cos(x) + t*y", NULL, 1, c2);
  build_mech (&m3, 3, xyz, 0, NULL, "(dot(x)^2 + dot(y)^2 + dot(z)^2)/2 - 9.81*z", NULL, 2, c3);
  for (o = 0; o < 3; o++)
    {
      fd_checks ("spherical pendulum", &m1, par1, Ns[o], orders[o], 2.0, q1, v1);
      fd_checks ("holonomic g(t, q)", &m2, NULL, Ns[o], orders[o], 2.0, q2, v2);
      fd_checks ("sphere + nonholonomic", &m3, NULL, Ns[o], orders[o], 2.0, q1, v1);
    }
  /* the gradient at q- = 0: dS/dlambda-_k = H_kk g(q+_k), dS/dq-_k contains -H_kk lambda+_k g_q */
  {
    vm_skg s;
    int64_t N = 12, k, i;
    int st = vm_skg_build (&s, &m3, NULL, N, 4, &(vm_skg_window) { 0.0, 1.0, q1, v1 });
    double *z, *g0, *g1, err = 0, scale = 0;
    CHECK (st == VM_OK, "build sphere + nonholonomic");
    if (st == VM_OK)
      {
        z = calloc ((size_t) s.nz, sizeof *z);
        g0 = malloc ((size_t) s.nz * sizeof *g0);
        g1 = malloc ((size_t) s.nz * sizeof *g1);
        for (k = 0; k < N; k++)
          for (i = 0; i < 3; i++)
            z[vm_skg_index (&s, k, 0, (int) i)] = urand () - 0.5;
        vm_skg_eval (&s, z, NULL, g0, NULL);
        for (k = 0; k < N; k++)       /* lambda+ of the holonomic constraint only */
          z[vm_skg_index (&s, k, 2, 0)] = urand () - 0.5;
        vm_skg_eval (&s, z, NULL, g1, NULL);
        for (k = 0; k < N; k++)
          {
            const double *qp = z + vm_skg_index (&s, k, 0, 0);
            double gk = qp[0] * qp[0] + qp[1] * qp[1] + qp[2] * qp[2] - 1, lp = z[vm_skg_index (&s, k, 2, 0)];
            err = fmax (err, fabs (g1[vm_skg_index (&s, k, 3, 0)] - s.hw[k] * gk));
            scale = fmax (scale, fabs (s.hw[k] * gk));
            for (i = 0; i < 3; i++)
              {
                double d = g1[vm_skg_index (&s, k, 1, (int) i)] - g0[vm_skg_index (&s, k, 1, (int) i)];
                err = fmax (err, fabs (d - (-s.hw[k] * lp * 2 * qp[i])));
              }
          }
        CHECK (err <= 1e-14 * fmax (1, scale), "holonomic term at q- = 0: err %.2e", err);
        printf ("holonomic term at q- = 0 (lambda- g, -lambda+ q- . g_q): err %.1e\n", err);
        free (z);
        free (g0);
        free (g1);
        vm_skg_free (&s);
      }
  }
  vm_mech_free (&m1);
  vm_mech_free (&m2);
  vm_mech_free (&m3);
}

/* (4) one Newton step from z = 0 for L = m qdot^2/2 - k q^2/2, F = -lam qdot on [0, T]:
 * returns max |q+ - q_sbpsat|, max |q-|, and the max / final errors against the closed form
 * (harmonic only, lam = 0). */
static void
newton_linear (const vm_mech *mech, double lam, int64_t N, int order, double T, double *dsat,
               double *dqm, double *emax, double *efin)
{
  const double mm = 1, kk = 1, q0 = 1, v0 = 0.5, p0 = mm * v0;
  double par[4] = { mm, kk, lam, 0.0 };
  vm_skg s;
  int64_t nz, i, j, e, nnzd;
  double *z, *g, *hv, *K, *M, *b, *hw, *dv;
  int64_t *cp, *ri;
  vm_sbp op;
  int st;
  *dsat = *dqm = *emax = *efin = HUGE_VAL;
  st = vm_skg_build (&s, mech, par, N, order, &(vm_skg_window) { 0.0, T, &q0, &v0 });
  if (st == VM_OK && (st = vm_skg_full_pattern (&s)) != VM_OK)
    vm_skg_free (&s);
  CHECK (st == VM_OK, "newton build");
  if (st != VM_OK)
    return;
  nz = s.nz;
  z = calloc ((size_t) nz, sizeof *z);
  g = malloc ((size_t) nz * sizeof *g);
  hv = malloc ((size_t) s.nnz * sizeof *hv);
  vm_skg_eval (&s, z, NULL, g, hv);
  K = dense_hess (&s, hv);
  for (i = 0; i < nz; i++)
    z[i] = -g[i];
  CHECK (dense_solve ((int) nz, K, z) == 0, "Newton matrix singular");
  free (K);
  /* S is quadratic here: one Newton step from a random z lands on the same point */
  {
    double *z2 = malloc ((size_t) nz * sizeof *z2), *g2 = malloc ((size_t) nz * sizeof *g2), d = 0;
    for (i = 0; i < nz; i++)
      z2[i] = urand () - 0.5;
    vm_skg_eval (&s, z2, NULL, g2, hv);
    K = dense_hess (&s, hv);
    for (i = 0; i < nz; i++)
      g2[i] = -g2[i];
    CHECK (dense_solve ((int) nz, K, g2) == 0, "Newton matrix singular (random z)");
    for (i = 0; i < nz; i++)
      d = fmax (d, fabs (z2[i] + g2[i] - z[i]));
    CHECK (d <= 1e-10, "order %d N %ld: Newton step from random z differs by %.2e", order, (long) N, d);
    free (z2);
    free (g2);
  }
  /* independent SBP-SAT for y = [q; p]: (D + H^-1 e1 e1') q - p/m = H^-1 e1 q0,
   * (D + H^-1 e1 e1') p + k q + lam/m p = H^-1 e1 p0 */
  vm_sbp_init (&op, order, N, 0.0, T);
  nnzd = vm_sbp_nnz (&op);
  cp = malloc ((size_t) (N + 1) * sizeof *cp);
  ri = malloc ((size_t) nnzd * sizeof *ri);
  dv = malloc ((size_t) nnzd * sizeof *dv);
  hw = malloc ((size_t) N * sizeof *hw);
  vm_sbp_csc (&op, 1, cp, ri, dv);
  vm_sbp_weights (&op, hw);
  M = calloc ((size_t) (4 * N * N), sizeof *M);
  b = calloc ((size_t) (2 * N), sizeof *b);
#define MM(r, c) M[(r) + 2 * N * (c)]
  for (j = 0; j < N; j++)
    for (e = cp[j]; e < cp[j + 1]; e++)
      {
        MM (ri[e], j) += dv[e];
        MM (N + ri[e], N + j) += dv[e];
      }
  MM (0, 0) += 1 / hw[0];
  MM (N, N) += 1 / hw[0];
  for (i = 0; i < N; i++)
    {
      MM (i, N + i) -= 1 / mm;
      MM (N + i, i) += kk;
      MM (N + i, N + i) += lam / mm;
    }
#undef MM
  b[0] = q0 / hw[0];
  b[N] = p0 / hw[0];
  CHECK (dense_solve ((int) (2 * N), M, b) == 0, "SBP-SAT matrix singular");
  *dsat = *dqm = *emax = 0;
  for (i = 0; i < N; i++)
    {
      double t = i == N - 1 ? T : i * op.h, ex = q0 * cos (t) + v0 * sin (t);
      *dsat = fmax (*dsat, fabs (z[vm_skg_index (&s, i, 0, 0)] - b[i]));
      *dqm = fmax (*dqm, fabs (z[vm_skg_index (&s, i, 1, 0)]));
      *emax = fmax (*emax, fabs (b[i] - ex));
      *emax = fmax (*emax, fabs (b[N + i] / mm - (-q0 * sin (t) + v0 * cos (t))));
      if (i == N - 1)
        *efin = fabs (z[vm_skg_index (&s, i, 0, 0)] - ex);
    }
  free (z);
  free (g);
  free (hv);
  free (K);
  free (M);
  free (b);
  free (hw);
  free (dv);
  free (cp);
  free (ri);
  vm_skg_free (&s);
}

/* vm_skg_pattern: the pattern of a block of the Hessian in another numbering (the reduced
 * Jacobian's maps, and maps that reverse and skip components) against the block cut out of the
 * full pattern (same entries, rows sorted, every column); bad maps refused. */
static void
block_pattern (const char *name, const vm_mech *m, const double *par, int64_t N, int order,
               const double *qi, const double *vi)
{
  vm_skg s;
  int st = vm_skg_build (&s, m, par, N, order, &(vm_skg_window) { 0.0, 1.0, qi, vi });
  int v, c, nb, tb;
  int rc[16], cc[16];
  int64_t *cp, *ri, nnz, i, j, e, miss, extra, unsorted;
  unsigned char *want;
  CHECK (st == VM_OK && s.colptr == NULL, "%s: build without the full pattern", name);
  if (st != VM_OK)
    return;
  CHECK (vm_skg_full_pattern (&s) == VM_OK, "%s: full pattern", name);
  nb = s.nb;
  for (v = 0; v < 2; v++)
    {
      int n = s.n, mm = s.m;
      tb = n + mm;
      if (v == 0)              /* skg_solve's reduced system: rows q-, lambda-; columns q+, lambda+ */
        reduced_maps (&s, rc, cc);
      else                     /* all components, rows reversed; columns: every other one */
        for (c = 0; c < nb; c++)
          {
            rc[c] = nb - 1 - c;
            cc[c] = c % 2 ? c / 2 : -1;
          }
      if (v == 1)
        tb = nb;
      st = vm_skg_pattern (&s, tb, rc, cc, &cp, &ri, &nnz);
      CHECK (st == VM_OK, "%s: block pattern %d: %s", name, v, vm_status_string (st));
      if (st != VM_OK)
        continue;
      want = calloc ((size_t) (N * tb) * (size_t) (N * tb), 1);
      for (j = 0; j < s.nz; j++)
        for (e = s.colptr[j]; e < s.colptr[j + 1]; e++)
          {
            int64_t r = s.rowind[e];
            if (rc[r % nb] >= 0 && cc[j % nb] >= 0)
              want[(r / nb * tb + rc[r % nb]) + N * tb * (j / nb * tb + cc[j % nb])] = 1;
          }
      miss = extra = unsorted = 0;
      for (j = 0; j < N * tb; j++)
        for (e = cp[j]; e < cp[j + 1]; e++)
          {
            if (! want[ri[e] + N * tb * j])
              extra++;
            else
              want[ri[e] + N * tb * j] = 2;
            if (e > cp[j] && ri[e] <= ri[e - 1])
              unsorted++;
          }
      for (i = 0; i < (N * tb) * (N * tb); i++)
        miss += want[i] == 1;
      CHECK (cp[N * tb] == nnz && miss == 0 && extra == 0 && unsorted == 0,
             "%s: block pattern %d: nnz %ld, %ld missing, %ld extra, %ld unsorted", name, v,
             (long) nnz, (long) miss, (long) extra, (long) unsorted);
      free (want);
      vm_scratch_free (cp);
      vm_scratch_free (ri);
    }
  rc[0] = rc[1] = 0;           /* a target component twice */
  for (c = 2; c < nb; c++)
    rc[c] = -1;
  st = vm_skg_pattern (&s, nb, rc, rc, &cp, &ri, &nnz);
  CHECK (st == VM_EARG && cp == NULL && ri == NULL, "%s: a map with a duplicate refused", name);
  rc[1] = nb;                  /* out of range */
  st = vm_skg_pattern (&s, nb, rc, rc, &cp, &ri, &nnz);
  CHECK (st == VM_EARG && cp == NULL && ri == NULL, "%s: a map out of range refused", name);
  CHECK (vm_skg_pattern (&s, 0, rc, rc, &cp, &ri, &nnz) == VM_EARG, "%s: tb = 0 refused", name);
  vm_skg_free (&s);
}

static void
test_block_pattern (void)
{
  vm_mech m4, m5;
  const char *xy[] = { "x", "y" }, *p4[] = { "m", "gr" };
  const char *c4[] = { "x*dot(x) + y*dot(y)" }, *c5[] = { "dot(x) + dot(y) + 0.3*x - 0.3*y" };
  double par4[] = { 1.2, 9.81 }, q4[] = { 0.6, -0.8 }, v4[] = { 0.8, 0.6 };
  int o;
  build_mech (&m4, 2, xy, 2, p4, "m/2*(dot(x)^2 + dot(y)^2) - m*gr*y", NULL, 1, c4);
  build_mech (&m5, 2, xy, 0, NULL, "(dot(x)^2 + dot(y)^2)/2 - (x^2 + 2*y^2)/2", NULL, 1, c5);
  for (o = 2; o <= 6; o += 2)
    {
      block_pattern ("pendulum (x,y), cons", &m4, par4, 6 * o, o, q4, v4);
      block_pattern ("nonholonomic linear", &m5, NULL, 6 * o, o, q4, v4);
    }
  /* the reduced tape's static part on grids long enough for an interior (skg_static.c) */
  for (o = 2; o <= 8; o += 2)
    {
      vm_skg s;
      const vm_mech *mm[2] = { &m4, &m5 };
      int k;
      for (k = 0; k < 2; k++)
        {
          int64_t nt;
          int st = vm_skg_build (&s, mm[k], k ? NULL : par4, 16 * o, o,
                                 &(vm_skg_window) { 0.0, 1.0, q4, v4 });
          CHECK (st == VM_OK && vm_skg_full_pattern (&s) == VM_OK, "static part: build");
          if (st != VM_OK)
            continue;
          nt = reduced_vs_full (k ? "nonholonomic linear, long" : "pendulum (x,y), long", &s);
          CHECK (nt > 16 * o / 2, "order %d N %d: template on %ld of the column nodes", o, 16 * o,
                 (long) nt);
          vm_skg_free (&s);
        }
    }
  vm_mech_free (&m4);
  vm_mech_free (&m5);
}

static void
test_newton (void)
{
  vm_mech m;
  const char *x[] = { "x" }, *par[] = { "m", "k", "c", "a" }, *f[] = { "-c*dot(x)" };
  static const int64_t Ns[4] = { 41, 81, 161, 321 };
  double emax[4], efin[4];
  int o, r, c;
  build_mech (&m, 1, x, 4, par, "m*dot(x)^2/2 - k*x^2/2", f, 0, NULL);
  for (o = 2; o <= 6; o += 2)
    for (c = 0; c < 2; c++)
      for (r = 0; r < 4; r++)
        {
          double dsat, dqm;
          if (o != 4 && r == 3)
            continue;
          newton_linear (&m, c ? 0.25 : 0.0, Ns[r], o, 4 * PI, &dsat, &dqm, &emax[r], &efin[r]);
          CHECK (dsat <= 1e-10, "order %d %s N %ld: |q+ - SBP-SAT| = %.2e", o, c ? "damped" : "harmonic",
                 (long) Ns[r], dsat);
          CHECK (dqm <= 1e-10, "order %d N %ld: |q-| = %.2e", o, (long) Ns[r], dqm);
          printf ("order %d %-8s N %3ld: |q+ - sbpsat| %.1e  |q-| %.1e", o, c ? "damped" : "harmonic",
                  (long) Ns[r], dsat, dqm);
          if (! c)
            {
              printf ("  max err %.3e  final q err %.3e", emax[r], efin[r]);
              if (r > 0)
                printf ("  rates %.2f / %.2f", log2 (emax[r - 1] / emax[r]), log2 (efin[r - 1] / efin[r]));
            }
          printf ("\n");
          if (! c && o == 4 && r > 0)
            {
              CHECK (log2 (emax[r - 1] / emax[r]) > 2.8, "order 4 max-norm rate %.2f",
                     log2 (emax[r - 1] / emax[r]));
              CHECK (log2 (efin[r - 1] / efin[r]) > 3.7, "order 4 final-time rate %.2f",
                     log2 (efin[r - 1] / efin[r]));
            }
        }
  vm_mech_free (&m);
}

/* vm_skg_set_origin: with the q+ unknowns written as displacements from qo the action, its
 * gradient and its Hessian are those at the positions qo + z (Ds 1 = H^-1 e_0, exact), to
 * rounding of the positions' size; and the velocities lose the rounding of |q| amplified by 1/h:
 * a particle at x ~ 1e4 moving uniformly over a window of 1e-6 has the action's gradient of a
 * free particle (zero at the straight line) to rounding of its displacement with the origin, to
 * eps 1e4 / h^2 without it. */
static void
test_origin (void)
{
  vm_mech m, mf;
  const char *xy[] = { "x", "y" }, *p4[] = { "m", "gr" }, *c4[] = { "x*dot(x) + y*dot(y)" };
  const char *x1[] = { "x" };
  double par4[] = { 1.2, 9.81 }, q4[] = { 0.6, -0.8 }, v4[] = { 0.8, 0.6 }, qo[2] = { 0.55, -0.7 };
  vm_skg s;
  int64_t nz, i, k, N = 26;
  double *z, *zo, *g0, *g1, *h0, *h1, S0, S1, gs = 0, ge = 0, hs = 0, he = 0;
  int st;
  build_mech (&m, 2, xy, 2, p4, "m/2*(dot(x)^2 + dot(y)^2) - m*gr*y", NULL, 1, c4);
  st = vm_skg_build (&s, &m, par4, N, 4, &(vm_skg_window) { 0.3, 2.0, q4, v4 });
  CHECK (st == VM_OK, "origin: build");
  if (st != VM_OK)
    return;
  nz = s.nz;
  z = malloc ((size_t) nz * sizeof *z);
  zo = malloc ((size_t) nz * sizeof *zo);
  g0 = malloc ((size_t) nz * sizeof *g0);
  g1 = malloc ((size_t) nz * sizeof *g1);
  CHECK (vm_skg_full_pattern (&s) == VM_OK, "origin: pattern");
  h0 = malloc ((size_t) s.nnz * sizeof *h0);
  h1 = malloc ((size_t) s.nnz * sizeof *h1);
  for (i = 0; i < nz; i++)
    z[i] = urand () - 0.5;
  for (i = 0; i < nz; i++)
    zo[i] = z[i] - ((i % s.nb) < s.n ? qo[i % s.nb] : 0.0);
  CHECK (vm_skg_eval (&s, z, &S0, g0, h0) == VM_OK, "origin: eval at 0");
  CHECK (vm_skg_set_origin (&s, qo) == VM_OK, "origin: set");
  CHECK (vm_skg_eval (&s, zo, &S1, g1, h1) == VM_OK, "origin: eval at qo");
  for (i = 0; i < nz; i++)
    {
      gs = fmax (gs, fabs (g0[i]));
      ge = fmax (ge, fabs (g1[i] - g0[i]));
    }
  for (i = 0; i < s.nnz; i++)
    {
      hs = fmax (hs, fabs (h0[i]));
      he = fmax (he, fabs (h1[i] - h0[i]));
    }
  CHECK (fabs (S1 - S0) <= 1e-12 * (1 + fabs (S0)) && ge <= 1e-12 * gs && he <= 1e-12 * hs,
         "origin: S %.3g vs %.3g, gradient %.3g of %.3g, Hessian %.3g of %.3g", S1, S0, ge, gs, he,
         hs);
  CHECK (vm_skg_set_origin (&s, NULL) == VM_EARG, "origin: NULL refused");
  vm_skg_free (&s);
  vm_mech_free (&m);
  free (h0);
  free (h1);
  /* a free particle at x = 1e4 + v t on a window of 1e-6: the straight line is the critical point */
  build_mech (&mf, 1, x1, 0, NULL, "dot(x)^2/2", NULL, 0, NULL);
  {
    double xi = 1e4, vi = 3.0, L = 1e-6, e0 = 0, e1 = 0, tk;
    st = vm_skg_build (&s, &mf, NULL, N, 4, &(vm_skg_window) { 0.5, 0.5 + L, &xi, &vi });
    CHECK (st == VM_OK, "origin: free particle build");
    if (st == VM_OK)
      {
        for (k = 0; k < N; k++)
          {
            tk = (double) k * s.op.h;
            for (i = 0; i < s.nb; i++)
              z[k * s.nb + i] = i == 0 ? xi + vi * tk : 0.0;
          }
        vm_skg_eval (&s, z, NULL, g0, NULL);
        for (k = 0; k < N; k++)       /* the displacements themselves, not (xi + d) - xi */
          z[k * s.nb] = vi * (double) k * s.op.h;
        vm_skg_set_origin (&s, &xi);
        vm_skg_eval (&s, z, NULL, g1, NULL);
        for (i = 0; i < s.nz; i++)
          {
            e0 = fmax (e0, fabs (g0[i]));
            e1 = fmax (e1, fabs (g1[i]));
          }
        /* the gradient's entries are momenta (~ vi) times weights, differences of velocities:
         * without the origin the velocities carry eps xi / h = 5e-6 ... */
        CHECK (e1 <= 1e-13 && e0 > 100 * e1, "origin: free particle at 1e4: gradient %.3g with "
               "the origin, %.3g without", e1, e0);
        printf ("origin: free particle at x = 1e4, window 1e-6: |grad S| %.1e with the origin, "
                "%.1e without\n", e1, e0);
        vm_skg_free (&s);
      }
  }
  vm_mech_free (&mf);
  free (z);
  free (zo);
  free (g0);
  free (g1);
}

int
main (void)
{
  test_fd ();
  test_origin ();
  test_fd_holonomic ();
  test_block_pattern ();
  test_newton ();
  return vmtest_finish ("test_skg");
}
