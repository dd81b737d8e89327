/* test_dual_closed.c -- the closed-form dual node functions (csrc/dual/dual_closed.c): Lorenz,
 * generalized Pars, reduced Pars.
 *
 * Each system is written here a second time, independently, in the general form of dual.h (the
 * paper's eq. 19): F, G and their Jacobians, L_H = -Ddot_d.y_d - D_d.F + D_a.G + H, the residual
 * r = c o (y - ybar) - [Ddot_d; 0] - F_y' D_d + G_y' D_a, A = dr/dy (exact unit-step central
 * differences: r is affine in y), B = [-E_d, -F_y', G_y'].  At random points:
 *   (a) r(y^H) = 0 (normwise, relative to the sum of |terms|), y^H = ybar - A^{-1} r(ybar);
 *   (b) val = L_H(y^H);  grad = (-y^H_d, -F(y^H), G(y^H));
 *   (c) grad against central differences of val, hess against central differences of grad and
 *       against -B' A^{-1} B; hess exactly symmetric;
 *   (d) u = 0: y^H = ybar, val = 0;
 *   (e) VM_EDTP with the index of the first singular point; VM_EARG on invalid arguments;
 * and batches equal point-by-point calls, NULL val/grad/hess accepted, the reduced Pars flow
 * preserves the constraint z v1 - v2 (eq. 44; the printed sign of eq. 48 does not). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dual/dual.h"
#include "dual/dual_closed.h"
#include "base/vm_status.h"
#include "vmtest.h"

#define MAXY 32
#define MAXL 40

/* Call the node function fn on the batch p; bad (may be NULL) is in the value p->bad starts
 * from and out the one the function leaves (it writes it only on failure) */
static int
node_call (vm_dual_node_fn fn, void *ctx, vm_dual_points *p, int64_t *bad)
{
  int st;
  p->bad = bad ? *bad : -1;
  st = fn (ctx, p);
  if (bad)
    *bad = p->bad;
  return st;
}

static unsigned long rng = 2024;
static double
urand (void)
{
  rng = rng * 6364136223846793005UL + 1442695040888963407UL;
  return (double) ((rng >> 11) & ((1UL << 53) - 1)) / 9007199254740992.0;
}
static double
unif (double a, double b)
{
  return a + (b - a) * urand ();
}

/* ---- the systems in the general form ----------------------------------------------------------- */

typedef struct sys
{
  const char *name;
  int ny, nd, ng;
  void *P;
  vm_dual_node_fn fn;
  void (*F) (const struct sys *, double t, const double *y, double *F, double *Fy);  /* Fy nd x ny */
  void (*G) (const struct sys *, double t, const double *y, double *G, double *Gy);  /* Gy ng x ny */
  double c[MAXY];
} sys;

static void
lorenz_F (const sys *S, double t, const double *y, double *F, double *Fy)
{
  const struct vm_dual_lorenz *P = S->P;
  (void) t;
  F[0] = P->A * (y[1] - y[0]);
  F[1] = y[0] * (P->R - y[2]) - y[1];
  F[2] = y[0] * y[1] - P->B * y[2];
  if (Fy)
    {
      const double J[9] = { -P->A, P->A, 0, P->R - y[2], -1, -y[0], y[1], y[0], -P->B };
      memcpy (Fy, J, sizeof J);
    }
}

static void
pars_F (const sys *S, double t, const double *y, double *F, double *Fy)
{
  const struct vm_dual_pars *P = S->P;
  const int M = P->M, ny = S->ny;
  int i;
  (void) t;
  if (Fy)
    memset (Fy, 0, (size_t) (2 * M * ny) * sizeof *Fy);
  for (i = 0; i < M; i++)
    {
      F[i] = y[M + i];              /* xdot = v */
      F[M + i] = -y[2 * M + i];     /* vdot = -Q */
      if (Fy)
        {
          Fy[i * ny + M + i] = 1.0;
          Fy[(M + i) * ny + 2 * M + i] = -1.0;
        }
    }
}

static void
pars_G (const sys *S, double t, const double *y, double *G, double *Gy)
{
  const struct vm_dual_pars *P = S->P;
  const int M = P->M, ny = S->ny;
  const double *x = y, *v = y + M, *Q = y + 2 * M, s = y[3 * M];
  int i, j;
  (void) t;
  G[0] = G[1] = 0.0;
  if (Gy)
    memset (Gy, 0, (size_t) (2 * ny) * sizeof *Gy);
  for (i = 0; i < M; i++)
    {
      double Lx = 0.0;
      for (j = 0; j < M; j++)
        Lx += P->L[i * M + j] * x[j];
      G[0] += (P->b[i] + Lx) * v[i];
      G[1] += Q[i] * v[i];
      if (Gy)
        {
          for (j = 0; j < M; j++)
            Gy[j] += P->L[i * M + j] * v[i];     /* d/dx_j of v_i L_ij x_j */
          Gy[M + i] = P->b[i] + Lx;
          Gy[ny + M + i] = Q[i];
          Gy[ny + 2 * M + i] = v[i];
        }
    }
  G[1] -= 0.5 * s * s;
  if (Gy)
    Gy[ny + 3 * M] = -s;
}

/* eq. 44 with x3 = z(t) = v30 t + x30: v1dot = -v1 z v30/(1 + z^2), v2dot = v1 v30/(1 + z^2) */
static void
red_F (const sys *S, double t, const double *y, double *F, double *Fy)
{
  const struct vm_dual_pars_reduced *P = S->P;
  const double z = P->v30 * t + P->x30, k = P->v30 / (1 + z * z);
  F[0] = -y[0] * z * k;
  F[1] = y[0] * k;
  if (Fy)
    {
      Fy[0] = -z * k;
      Fy[1] = 0;
      Fy[2] = k;
      Fy[3] = 0;
    }
}

/* L_H and the sum of |terms| (scale of its rounding) */
static double
LH (const sys *S, double t, const double *y, const double *u, const double *ybar, double *scale)
{
  const int nd = S->nd, ng = S->ng, ny = S->ny;
  double F[MAXY], G[2], Fy[MAXY * MAXY], Gy[2 * MAXY], L = 0, sc = 0;
  int i, j;
  S->F (S, t, y, F, Fy);
  if (ng)
    S->G (S, t, y, G, Gy);
  for (i = 0; i < nd; i++)
    {
      double a = 0;
      for (j = 0; j < ny; j++)
        a += fabs (Fy[i * ny + j] * y[j]);
      L += -u[i] * y[i] - u[nd + i] * F[i];
      sc += fabs (u[i] * y[i]) + fabs (u[nd + i]) * (fabs (F[i]) + a);
    }
  for (i = 0; i < ng; i++)
    {
      double a = 0;
      for (j = 0; j < ny; j++)
        a += fabs (Gy[i * ny + j] * y[j]);
      L += u[2 * nd + i] * G[i];
      sc += fabs (u[2 * nd + i]) * (fabs (G[i]) + a);
    }
  for (i = 0; i < ny; i++)
    {
      const double d = y[i] - ybar[i];
      L += 0.5 * S->c[i] * d * d;
      sc += 0.5 * S->c[i] * d * d;
    }
  if (scale)
    *scale = sc;
  return L;
}

/* r = dL_H/dy (eq. 19 general form) and the max over i of the sum of |terms| */
static void
resid (const sys *S, double t, const double *y, const double *u, const double *ybar, double *r,
       double *scale)
{
  const int nd = S->nd, ng = S->ng, ny = S->ny;
  double F[MAXY], G[2], Fy[MAXY * MAXY], Gy[2 * MAXY], sc = 0;
  int i, j;
  S->F (S, t, y, F, Fy);
  if (ng)
    S->G (S, t, y, G, Gy);
  for (j = 0; j < ny; j++)
    {
      double a = S->c[j] * (y[j] - ybar[j]), s = S->c[j] * (fabs (y[j]) + fabs (ybar[j]));
      if (j < nd)
        {
          a -= u[j];
          s += fabs (u[j]);
        }
      for (i = 0; i < nd; i++)
        {
          a -= Fy[i * ny + j] * u[nd + i];
          s += fabs (Fy[i * ny + j] * u[nd + i]);
        }
      for (i = 0; i < ng; i++)
        {
          a += Gy[i * ny + j] * u[2 * nd + i];
          s += fabs (Gy[i * ny + j] * u[2 * nd + i]);
        }
      r[j] = a;
      sc = fmax (sc, s);
    }
  if (scale)
    *scale = sc;
}

/* solve A X = Bm (A n x n, Bm n x nrhs, both column-major) in place; 0 on success */
static int
dense_solve (int n, int nrhs, double *A, double *Bm)
{
  int i, j, k;
  for (k = 0; k < n; k++)
    {
      int p = k;
      for (i = k + 1; i < n; i++)
        if (fabs (A[i + n * k]) > fabs (A[p + n * k]))
          p = i;
      if (A[p + n * k] == 0.0)
        return 1;
      for (j = 0; j < n; j++)
        {
          double tmp = A[k + n * j];
          A[k + n * j] = A[p + n * j];
          A[p + n * j] = tmp;
        }
      for (j = 0; j < nrhs; j++)
        {
          double tmp = Bm[k + n * j];
          Bm[k + n * j] = Bm[p + n * j];
          Bm[p + n * j] = tmp;
        }
      for (i = k + 1; i < n; i++)
        {
          const double l = A[i + n * k] / A[k + n * k];
          for (j = k + 1; j < n; j++)
            A[i + n * j] -= l * A[k + n * j];
          for (j = 0; j < nrhs; j++)
            Bm[i + n * j] -= l * Bm[k + n * j];
        }
    }
  for (j = 0; j < nrhs; j++)
    for (k = n - 1; k >= 0; k--)
      {
        double s = Bm[k + n * j];
        for (i = k + 1; i < n; i++)
          s -= A[k + n * i] * Bm[i + n * j];
        Bm[k + n * j] = s / A[k + n * k];
      }
  return 0;
}

static double
maxabs (int n, const double *a)
{
  double m = 0;
  int i;
  for (i = 0; i < n; i++)
    m = fmax (m, fabs (a[i]));
  return m;
}

/* ---- the checks at one point -------------------------------------------------------------------- */

typedef struct
{
  double jac, res, yref, val, env, gfd, hfd, href;
} errs;

static void
upd (double *e, double v)
{
  if (!(v <= *e))
    *e = v;             /* NaN sticks */
}

static void
check_point (const sys *S, double t, const double *u, const double *ybar, errs *E)
{
  const int ny = S->ny, nd = S->nd, ng = S->ng, nl = 2 * nd + ng;
  double y[MAXY], val, grad[MAXL], hess[MAXL * MAXL], r[MAXY], rs, sc;
  double A[MAXY * MAXY], Bm[MAXY * MAXL], X[MAXY * MAXL], yref[MAXY];
  double F[MAXY], G[2], Fy[MAXY * MAXY], Gy[2 * MAXY], up[MAXL], yp[MAXY], rp[MAXY], rm[MAXY];
  double gp[MAXL], gm[MAXL], vp, vm, hsc, gsc;
  int64_t bad = -1;
  int i, j, k, st, sym = 1;

  for (i = 0; i < ny; i++)
    y[i] = NAN;                 /* the guess is not used */
  st = node_call (S->fn, S->P, &(vm_dual_points) { 1, &t, u, ybar, y, &val, grad, hess, -1 }, &bad);
  CHECK (st == VM_OK, "%s: status %d", S->name, st);
  if (st != VM_OK)
    return;

  /* the test's own Jacobians against exact unit-step central differences (F, G quadratic) */
  S->F (S, t, y, F, Fy);
  if (ng)
    S->G (S, t, y, G, Gy);
  for (j = 0; j < ny; j++)
    {
      double Fp[MAXY], Fm[MAXY], Gp[2], Gm[2];
      memcpy (yp, y, (size_t) ny * sizeof *y);
      yp[j] = y[j] + 1;
      S->F (S, t, yp, Fp, NULL);
      if (ng)
        S->G (S, t, yp, Gp, NULL);
      yp[j] = y[j] - 1;
      S->F (S, t, yp, Fm, NULL);
      if (ng)
        S->G (S, t, yp, Gm, NULL);
      for (i = 0; i < nd; i++)
        upd (&E->jac, fabs ((Fp[i] - Fm[i]) / 2 - Fy[i * ny + j])
                        / (1 + fabs (Fy[i * ny + j]) + fabs (Fp[i]) + fabs (Fm[i])));
      for (i = 0; i < ng; i++)
        upd (&E->jac, fabs ((Gp[i] - Gm[i]) / 2 - Gy[i * ny + j])
                        / (1 + fabs (Gy[i * ny + j]) + fabs (Gp[i]) + fabs (Gm[i])));
    }

  /* (a) residual at y^H; y^H against one Newton step from ybar, A by unit-step differences */
  resid (S, t, y, u, ybar, r, &rs);
  upd (&E->res, maxabs (ny, r) / rs);
  for (j = 0; j < ny; j++)
    {
      memcpy (yp, y, (size_t) ny * sizeof *y);
      yp[j] = y[j] + 1;
      resid (S, t, yp, u, ybar, rp, NULL);
      yp[j] = y[j] - 1;
      resid (S, t, yp, u, ybar, rm, NULL);
      for (i = 0; i < ny; i++)
        A[i + ny * j] = (rp[i] - rm[i]) / 2;
    }
  for (i = 0; i < ny * nl; i++)
    Bm[i] = 0;
  for (j = 0; j < nd; j++)
    Bm[j + ny * j] = -1;                              /* d r / d Ddot_d */
  for (j = 0; j < nd; j++)
    for (i = 0; i < ny; i++)
      Bm[i + ny * (nd + j)] = -Fy[j * ny + i];        /* d r / d D_d */
  for (j = 0; j < ng; j++)
    for (i = 0; i < ny; i++)
      Bm[i + ny * (2 * nd + j)] = Gy[j * ny + i];     /* d r / d D_a */
  {
    double Ac[MAXY * MAXY];
    resid (S, t, ybar, u, ybar, yref, NULL);
    memcpy (Ac, A, sizeof Ac);
    memcpy (X, Bm, (size_t) (ny * nl) * sizeof *X);
    CHECK (dense_solve (ny, nl, Ac, X) == 0, "%s: A singular", S->name);
    memcpy (Ac, A, sizeof Ac);
    CHECK (dense_solve (ny, 1, Ac, yref) == 0, "%s: A singular", S->name);
    for (i = 0; i < ny; i++)
      yref[i] = ybar[i] - yref[i];
    for (i = 0; i < ny; i++)
      upd (&E->yref, fabs (y[i] - yref[i]) / (maxabs (ny, y) + maxabs (ny, ybar)));
  }

  /* (b) val = L_H(y^H); grad = (-y_d, -F, G) */
  upd (&E->val, fabs (val - LH (S, t, y, u, ybar, &sc)) / fmax (sc, DBL_MIN));
  gsc = maxabs (nl, grad);
  for (i = 0; i < nd; i++)
    {
      upd (&E->env, fabs (grad[i] + y[i]) / gsc);
      upd (&E->env, fabs (grad[nd + i] + F[i]) / gsc);
    }
  for (i = 0; i < ng; i++)
    upd (&E->env, fabs (grad[2 * nd + i] - G[i]) / gsc);

  /* (c) finite differences; -B' A^{-1} B; symmetry */
  hsc = maxabs (nl * nl, hess);
  for (j = 0; j < nl; j++)
    {
      const double h = 1e-5 * fmax (1, fabs (u[j]));
      memcpy (up, u, (size_t) nl * sizeof *u);
      up[j] = u[j] + h;
      node_call (S->fn, S->P, &(vm_dual_points) { 1, &t, up, ybar, yp, &vp, gp, NULL, -1 }, &bad);
      up[j] = u[j] - h;
      node_call (S->fn, S->P, &(vm_dual_points) { 1, &t, up, ybar, yp, &vm, gm, NULL, -1 }, &bad);
      upd (&E->gfd, fabs ((vp - vm) / (2 * h) - grad[j]) / fmax (gsc, 1e-300));
      for (i = 0; i < nl; i++)
        upd (&E->hfd, fabs ((gp[i] - gm[i]) / (2 * h) - hess[i * nl + j]) / fmax (hsc, 1e-300));
    }
  for (i = 0; i < nl; i++)
    for (j = 0; j < nl; j++)
      {
        double h = 0;
        for (k = 0; k < ny; k++)
          h -= Bm[k + ny * i] * X[k + ny * j];
        upd (&E->href, fabs (h - hess[i * nl + j]) / fmax (hsc, 1e-300));
        sym &= hess[i * nl + j] == hess[j * nl + i];
      }
  CHECK (sym, "%s: hess not symmetric", S->name);
}

/* a batch equals point-by-point calls; NULL outputs accepted; u = 0 gives y^H = ybar, val = 0 */
static void
check_batch (const sys *S, int npts, const double *t, const double *u, const double *ybar)
{
  const int ny = S->ny, nl = 2 * S->nd + S->ng;
  double *y = malloc ((size_t) (npts * ny) * sizeof *y), *val = malloc ((size_t) npts * sizeof *val);
  double *g = malloc ((size_t) (npts * nl) * sizeof *g);
  double *h = malloc ((size_t) (npts * nl * nl) * sizeof *h);
  double y1[MAXY], v1, g1[MAXL], h1[MAXL * MAXL], z[MAXL];
  int64_t bad = -1;
  int k, i, same = 1, st;
  st = node_call (S->fn, S->P, &(vm_dual_points) { npts, t, u, ybar, y, val, g, h, -1 }, &bad);
  CHECK (st == VM_OK, "%s: batch status %d", S->name, st);
  for (k = 0; k < npts; k++)
    {
      node_call (S->fn, S->P, &(vm_dual_points) { 1, t + k, u + k * nl, ybar + k * ny, y1, &v1, g1,
                 h1, -1 }, &bad);
      same &= v1 == val[k] && !memcmp (y1, y + k * ny, (size_t) ny * sizeof *y1)
              && !memcmp (g1, g + k * nl, (size_t) nl * sizeof *g1)
              && !memcmp (h1, h + k * nl * nl, (size_t) (nl * nl) * sizeof *h1);
    }
  CHECK (same, "%s: batch differs from point-by-point", S->name);
  st = node_call (S->fn, S->P, &(vm_dual_points) { npts, t, u, ybar, y, NULL, NULL, NULL, -1 },
                  NULL);
  CHECK (st == VM_OK && !memcmp (y1, y + (npts - 1) * ny, (size_t) ny * sizeof *y1),
         "%s: NULL outputs", S->name);
  st = node_call (S->fn, S->P, &(vm_dual_points) { 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                  -1 }, NULL);
  CHECK (st == VM_OK, "%s: npts = 0 status %d", S->name, st);
  /* (d) */
  for (i = 0; i < nl; i++)
    z[i] = 0;
  st = node_call (S->fn, S->P, &(vm_dual_points) { 1, t, z, ybar, y1, &v1, g1, NULL, -1 }, &bad);
  CHECK (st == VM_OK && !memcmp (y1, ybar, (size_t) ny * sizeof *y1) && v1 == 0,
         "%s: u = 0: y^H != ybar or val = %g", S->name, v1);
  free (y);
  free (val);
  free (g);
  free (h);
}

static void
report (const sys *S, const errs *E)
{
  printf ("  %-22s jac %.1e  res %.1e  yref %.1e  val %.1e  env %.1e  gfd %.1e  hfd %.1e  "
          "href %.1e\n", S->name, E->jac, E->res, E->yref, E->val, E->env, E->gfd, E->hfd, E->href);
  CHECK (E->jac <= 1e-14, "%s: test Jacobians %g", S->name, E->jac);
  CHECK (E->res <= 1e-13, "%s: DtP residual %g", S->name, E->res);
  CHECK (E->yref <= 1e-13, "%s: y^H vs Newton step %g", S->name, E->yref);
  CHECK (E->val <= 1e-13, "%s: val vs L_H(y^H) %g", S->name, E->val);
  CHECK (E->env <= 1e-14, "%s: grad vs (-y_d, -F, G) %g", S->name, E->env);
  CHECK (E->gfd <= 1e-8, "%s: grad vs FD %g", S->name, E->gfd);
  CHECK (E->hfd <= 1e-7, "%s: hess vs FD %g", S->name, E->hfd);
  CHECK (E->href <= 1e-12, "%s: hess vs -B'A^-1 B %g", S->name, E->href);
}

/* random points: t in [0, 3], u in [-ua, ua], ybar in [-yb, yb] */
static void
run_random (sys *S, int npts, double ua, double yb)
{
  const int ny = S->ny, nl = 2 * S->nd + S->ng;
  double *t = malloc ((size_t) npts * sizeof *t), *u = malloc ((size_t) (npts * nl) * sizeof *u);
  double *ybar = malloc ((size_t) (npts * ny) * sizeof *ybar);
  errs E = { 0, 0, 0, 0, 0, 0, 0, 0 };
  int k, i;
  for (k = 0; k < npts; k++)
    {
      t[k] = unif (0, 3);
      for (i = 0; i < nl; i++)
        u[k * nl + i] = unif (-ua, ua);
      for (i = 0; i < ny; i++)
        ybar[k * ny + i] = unif (-yb, yb);
      check_point (S, t[k], u + k * nl, ybar + k * ny, &E);
    }
  report (S, &E);
  check_batch (S, npts, t, u, ybar);
  free (t);
  free (u);
  free (ybar);
}

/* ---- the systems ---------------------------------------------------------------------------------- */

static void
test_lorenz (void)
{
  struct vm_dual_lorenz P = { 10.0, 28.0, 8.0 / 3.0, 0 };
  sys S = { "lorenz", 3, 3, 0, &P, vm_dual_lorenz_node, lorenz_F, NULL, { 0 } };
  const double cs[3] = { 8.0, 100.0, 1000.0 };
  const double uas[3] = { 2.0, 5.0, 20.0 };
  char name[3][32];
  int ic, i;
  for (ic = 0; ic < 3; ic++)
    {
      P.c = cs[ic];
      for (i = 0; i < 3; i++)
        S.c[i] = P.c;
      snprintf (name[ic], sizeof name[ic], "lorenz c=%g", P.c);
      S.name = name[ic];
      run_random (&S, 40, uas[ic], 20.0);
    }

  /* eq. 31 written out at one point: y^H from eq. 30 with the paper's BB */
  {
    double u[6] = { 0.3, -0.7, 1.1, -0.4, 2.5, -1.5 }, yb[3] = { 1.5, -2.0, 20.0 }, y[3], val;
    const double c = 30, A = 10, R = 28, B = 8.0 / 3.0, l = u[3], m = u[4], g = u[5];
    const double p[3] = { g * yb[1] - m * yb[2] + u[0] - A * l + R * m,
                          g * yb[0] + u[1] - m + A * l, -m * yb[0] + u[2] - B * g };
    const double d = c * (1 - g * g / (c * c) - m * m / (c * c));
    const double BB[3][3] = { { 1 / d, g / c / d, -m / c / d },
                              { g / c / d, (1 - m * m / (c * c)) / d, -g * m / (c * c) / d },
                              { -m / c / d, -g * m / (c * c) / d, (1 - g * g / (c * c)) / d } };
    double q[3], LL;
    int64_t bad;
    P.c = c;
    for (i = 0; i < 3; i++)
      q[i] = BB[i][0] * p[0] + BB[i][1] * p[1] + BB[i][2] * p[2];
    LL = -0.5 * (p[0] * q[0] + p[1] * q[1] + p[2] * q[2]) - (yb[0] * p[0] + yb[1] * p[1] + yb[2] * p[2])
         - m * yb[0] * yb[2] + g * yb[0] * yb[1];
    node_call (vm_dual_lorenz_node, &P, &(vm_dual_points) { 1, NULL, u, yb, y, &val, NULL, NULL,
               -1 }, &bad);
    CHECK (fabs (val - LL) <= 1e-13 * fabs (LL) && fabs (y[0] - yb[0] - q[0]) <= 1e-14 * 20
           && fabs (y[1] - yb[1] - q[1]) <= 1e-14 * 20 && fabs (y[2] - yb[2] - q[2]) <= 1e-14 * 20,
           "lorenz: eqs. 30-31 literally: val %.17g vs %.17g", val, LL);
  }

  /* (e) singular: gamma^2 + mu^2 = c^2 at point 2 of 4; points 0, 1 filled, 3 untouched */
  {
    double u[24], yb[12], y[12], val[4], g[24], h[144];
    int64_t bad = -1;
    int st;
    P.c = 50;
    for (i = 0; i < 24; i++)
      u[i] = unif (-3, 3);
    for (i = 0; i < 12; i++)
      {
        yb[i] = unif (-10, 10);
        y[i] = -777;
      }
    u[2 * 6 + 4] = P.c * sin (0.7);
    u[2 * 6 + 5] = P.c * cos (0.7);
    st = node_call (vm_dual_lorenz_node, &P, &(vm_dual_points) { 4, NULL, u, yb, y, val, g, h, -1 },
                    &bad);
    CHECK (st == VM_EDTP && bad == 2, "lorenz singular: status %d bad %lld", st, (long long) bad);
    CHECK (y[3] != -777 && y[9] == -777, "lorenz singular: fill");
    u[2 * 6 + 5] = -P.c * cos (0.7);
    st = node_call (vm_dual_lorenz_node, &P, &(vm_dual_points) { 4, NULL, u, yb, y, val, g, h, -1 },
                    &bad);
    CHECK (st == VM_EDTP && bad == 2, "lorenz singular (-gamma): status %d", st);
    u[2 * 6 + 5] = P.c * cos (0.7) * (1 - 1e-8);   /* close, but well above the threshold */
    st = node_call (vm_dual_lorenz_node, &P, &(vm_dual_points) { 4, NULL, u, yb, y, val, g, h, -1 },
                    &bad);
    CHECK (st == VM_OK, "lorenz near-singular: status %d", st);
    u[2 * 6 + 5] = NAN;
    bad = -1;
    st = node_call (vm_dual_lorenz_node, &P, &(vm_dual_points) { 4, NULL, u, yb, y, val, g, h, -1 },
                    &bad);
    CHECK (st == VM_EDTP && bad == 2, "lorenz NaN dual: status %d", st);
    P.c = 0;
    CHECK (node_call (vm_dual_lorenz_node, &P, &(vm_dual_points) { 4, NULL, u, yb, y, val, g, h,
                      -1 }, &bad) == VM_EARG, "lorenz c = 0");
    CHECK (node_call (vm_dual_lorenz_node, NULL, &(vm_dual_points) { 4, NULL, u, yb, y, val, g, h,
                      -1 }, &bad) == VM_EARG, "NULL ctx");
    P.c = 50;
    CHECK (node_call (vm_dual_lorenz_node, &P, &(vm_dual_points) { 4, NULL, NULL, yb, y, val, g, h,
                      -1 }, &bad) == VM_EARG, "NULL u");
    CHECK (node_call (vm_dual_lorenz_node, &P, &(vm_dual_points) { -1, NULL, u, yb, y, val, g, h,
                      -1 }, &bad) == VM_EARG, "npts < 0");
  }
}

static void
pars_sys (sys *S, struct vm_dual_pars *P, const char *name)
{
  const int M = P->M;
  int i;
  S->name = name;
  S->ny = 3 * M + 1;
  S->nd = 2 * M;
  S->ng = 2;
  S->P = P;
  S->fn = vm_dual_pars_node;
  S->F = pars_F;
  S->G = pars_G;
  for (i = 0; i < M; i++)
    {
      S->c[i] = P->cx;
      S->c[M + i] = P->cv;
      S->c[2 * M + i] = P->cQ;
    }
  S->c[3 * M] = P->cs;
}

static void
test_pars (void)
{
  /* Pars' example (Sec. 4.1): M = 3, L_13 = 1, b_2 = -1 */
  const double L3[9] = { 0, 0, 1, 0, 0, 0, 0, 0, 0 }, b3[3] = { 0, -1, 0 };
  double L4[16], b4[4], L1[1] = { 0.8 }, b1[1] = { -0.3 };
  struct vm_dual_pars P;
  sys S;
  int i, st;

  P = (struct vm_dual_pars) { 3, L3, b3, 20, 30, 25, 40 };
  pars_sys (&S, &P, "pars M=3 (Pars)");
  run_random (&S, 30, 2.0, 2.0);
  P = (struct vm_dual_pars) { 3, L3, b3, 200, 300, 250, 400 };
  pars_sys (&S, &P, "pars M=3 c~300");
  run_random (&S, 20, 5.0, 3.0);

  for (i = 0; i < 16; i++)
    L4[i] = unif (-1.5, 1.5);
  for (i = 0; i < 4; i++)
    b4[i] = unif (-1, 1);
  P = (struct vm_dual_pars) { 4, L4, b4, 15, 25, 12, 30 };
  pars_sys (&S, &P, "pars M=4 random L");
  run_random (&S, 30, 2.0, 2.0);

  P = (struct vm_dual_pars) { 1, L1, b1, 6, 5, 7, 9 };
  pars_sys (&S, &P, "pars M=1");
  run_random (&S, 30, 2.0, 2.0);

  /* the paper's eq. 36 (x line read with the index fixed, x = xbar + (rhodot - mu L' v)/cx) at a
   * non-symmetric L: the literal reading with L in place of L' leaves r_x != 0 */
  {
    double u[18], yb[13], y[13], r[13], rs, x2[4];
    int64_t bad;
    P = (struct vm_dual_pars) { 4, L4, b4, 15, 25, 12, 30 };
    pars_sys (&S, &P, "pars eq. 36");
    for (i = 0; i < 18; i++)
      u[i] = unif (-2, 2);
    for (i = 0; i < 13; i++)
      yb[i] = unif (-2, 2);
    node_call (vm_dual_pars_node, &P, &(vm_dual_points) { 1, NULL, u, yb, y, NULL, NULL, NULL, -1 },
               &bad);
    for (i = 0; i < 4; i++)
      {
        double Lv = 0;
        int j;
        for (j = 0; j < 4; j++)
          Lv += L4[i * 4 + j] * y[4 + j];
        x2[i] = yb[i] + (u[i] - u[16] * Lv) / P.cx;
      }
    memcpy (y, x2, sizeof x2);
    resid (&S, 0, y, u, yb, r, &rs);
    CHECK (maxabs (13, r) / rs > 1e-6, "pars: the literal x line of eq. 36 should fail");
  }

  /* (e) singular DtP: Lambda = cs; Lambda^2 = cQ cv (MM = 0); mu^2 L L' = cx cv (M = 1, M = 2
   * with a zero row in L) */
  {
    const double L2[4] = { 1, 0, 0, 0 }, b2[2] = { 0.5, -1 };
    double u[3 * 10], yb[3 * 7], y[3 * 7], val[3], g[30], h[300];
    int64_t bad = -1;
    for (i = 0; i < 30; i++)
      u[i] = unif (-1, 1);
    for (i = 0; i < 21; i++)
      yb[i] = unif (-1, 1);
    P = (struct vm_dual_pars) { 2, L2, b2, 6, 5, 7, 9 };
    u[10 + 9] = P.cs;     /* point 1: Lambda = cs */
    st = node_call (vm_dual_pars_node, &P, &(vm_dual_points) { 3, NULL, u, yb, y, val, g, h, -1 },
                    &bad);
    CHECK (st == VM_EDTP && bad == 1, "pars Lambda = cs: status %d bad %lld", st, (long long) bad);
    u[10 + 9] = sqrt (P.cQ * P.cv);   /* Lambda^2 = cQ cv */
    u[10 + 8] = 0;
    st = node_call (vm_dual_pars_node, &P, &(vm_dual_points) { 3, NULL, u, yb, y, val, g, h, -1 },
                    &bad);
    CHECK (st == VM_EDTP && bad == 1, "pars Lambda^2 = cQ cv: status %d", st);
    u[10 + 9] = 0;
    u[10 + 8] = -sqrt (P.cx * P.cv);   /* mu^2 (L L')_11 = cx cv: MM = diag (0, 1) */
    st = node_call (vm_dual_pars_node, &P, &(vm_dual_points) { 3, NULL, u, yb, y, val, g, h, -1 },
                    &bad);
    CHECK (st == VM_EDTP && bad == 1, "pars mu^2 LL' = cx cv (M = 2): status %d", st);
    u[10 + 8] *= 1 - 1e-6;
    st = node_call (vm_dual_pars_node, &P, &(vm_dual_points) { 3, NULL, u, yb, y, val, g, h, -1 },
                    &bad);
    CHECK (st == VM_OK, "pars near-singular: status %d", st);
    P = (struct vm_dual_pars) { 1, L1, b1, 6, 5, 7, 9 };
    u[0 + 4] = 0.3 * sqrt (P.cx * P.cv) / L1[0];   /* M = 1: u = 6 per point, point 0 */
    u[0 + 5] = sqrt ((1 - 0.09) * P.cQ * P.cv);     /* mu^2 l^2/(cx cv) + Lambda^2/(cQ cv) = 1 */
    st = node_call (vm_dual_pars_node, &P, &(vm_dual_points) { 1, NULL, u, yb, y, val, g, h, -1 },
                    &bad);
    CHECK (st == VM_EDTP && bad == 0, "pars M = 1 mixed singular: status %d", st);
    P.M = 0;
    CHECK (node_call (vm_dual_pars_node, &P, &(vm_dual_points) { 1, NULL, u, yb, y, val, g, h, -1 },
                      &bad) == VM_EARG, "pars M = 0");
    P.M = 1;
    P.cs = -1;
    CHECK (node_call (vm_dual_pars_node, &P, &(vm_dual_points) { 1, NULL, u, yb, y, val, g, h, -1 },
                      &bad) == VM_EARG, "pars cs < 0");
  }
}

static void
red_sys (sys *S, struct vm_dual_pars_reduced *P, const char *name)
{
  *S = (sys) { name, 2, 2, 0, P, vm_dual_pars_reduced_node, red_F, NULL, { P->c, P->c } };
}

static void
test_reduced (void)
{
  struct vm_dual_pars_reduced P = { 0.7, -0.4, 1.0 };
  sys S;
  int k, i;
  red_sys (&S, &P, "reduced c=1");
  run_random (&S, 40, 2.0, 2.0);
  P = (struct vm_dual_pars_reduced) { -1.3, 0.9, 3.5 };
  red_sys (&S, &P, "reduced c=3.5");
  run_random (&S, 40, 2.0, 2.0);
  P = (struct vm_dual_pars_reduced) { 2.0, 0.1, 0.25 };
  red_sys (&S, &P, "reduced c=0.25");
  run_random (&S, 40, 2.0, 2.0);

  /* c = 1, vbar = 0: LL = -1/2 ((l1dot - l1 z k + l2 k)^2 + l2dot^2) (eq. 49, sign corrected); the
   * flow F = -grad(D part) keeps the constraint z v1 - v2: v30 v1 + z F1 - F2 = 0 */
  P = (struct vm_dual_pars_reduced) { 0.7, -0.4, 1.0 };
  for (k = 0; k < 20; k++)
    {
      double t = unif (0, 3), u[4], yb[2] = { 0, 0 }, v[2], val, g[4], h[16], w1;
      const double z = P.v30 * t + P.x30, kk = P.v30 / (1 + z * z);
      int64_t bad;
      for (i = 0; i < 4; i++)
        u[i] = unif (-2, 2);
      node_call (vm_dual_pars_reduced_node, &P, &(vm_dual_points) { 1, &t, u, yb, v, &val, g, h,
                 -1 }, &bad);
      w1 = u[0] - u[2] * z * kk + u[3] * kk;
      CHECK (fabs (val + 0.5 * (w1 * w1 + u[1] * u[1])) <= 1e-14 * (1 + fabs (val)),
             "reduced eq. 49: %g vs %g", val, -0.5 * (w1 * w1 + u[1] * u[1]));
      CHECK (fabs (P.v30 * v[0] + z * (-g[2]) - (-g[3])) <= 1e-14 * (1 + fabs (v[0])),
             "reduced: constraint z v1 - v2 not preserved");
      /* the printed eq. 48 (v1dot = +v1 z k) does not preserve it */
      CHECK (fabs (P.v30 * v[0] + z * (v[0] * z * kk) - v[0] * kk) > 1e-3 * fabs (v[0] * z * z * kk)
             || fabs (v[0] * z) < 1e-3, "reduced: printed eq. 48 unexpectedly consistent");
    }
  {
    double t = 1, u[4] = { 1, 2, 3, 4 }, yb[2] = { 0, 0 }, v[2];
    int64_t bad;
    P.c = 0;
    CHECK (node_call (vm_dual_pars_reduced_node, &P, &(vm_dual_points) { 1, &t, u, yb, v, NULL,
                      NULL, NULL, -1 }, &bad) == VM_EARG,
           "reduced c = 0");
    P.c = 1;
    CHECK (node_call (vm_dual_pars_reduced_node, &P, &(vm_dual_points) { 1, NULL, u, yb, v, NULL,
                      NULL, NULL, -1 }, &bad) == VM_EARG,
           "reduced t = NULL");
  }
}

int
main (void)
{
  /* the node functions have the engine's signature */
  vm_dual_node_fn f[3] = { vm_dual_lorenz_node, vm_dual_pars_node, vm_dual_pars_reduced_node };
  (void) f;
  printf ("max relative errors (jac: the test's own F_y, G_y; res: r(y^H); yref: y^H vs Newton step;\n"
          "  val: LL vs L_H(y^H); env: grad vs (-y_d,-F,G); gfd/hfd: FD; href: hess vs -B'A^-1 B):\n");
  test_lorenz ();
  test_pars ();
  test_reduced ();
  return vmtest_finish ("test_dual_closed");
}
