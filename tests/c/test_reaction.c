/* test_reaction.c -- unit tests of the reaction laws (csrc/reference/reaction.c), plain C, no Octave.
 *
 * References are closed forms derived in the comments below or brute-force solves of the full
 * KKT systems by naive Gaussian elimination (partial pivoting) written here, independent of LAPACK.
 * Tolerances: TOL * (sum of |terms|) of the quantity compared, with TOL = 1e-14 for closed forms
 * of O(1) problems (about 45 eps) and a looser KKT tolerance where a condition number enters.
 * Every call gets a workspace of exactly the size vm_reaction_work_size reports, filled with NaN
 * (doubles) and -1 (ints) so that a read of uninitialized workspace shows up in the results;
 * ASan (the _san build) reports any access beyond it. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference/reaction.h"
#include "base/vm_status.h"
#include "vmtest.h"

/* the arguments of the reaction solvers: the point's data and the workspace */
#define PROB(n, m, k, M, f, A, c, B) \
  (&(vm_reaction_problem) { (n), (m), (k), (M), (f), (A), (c), (B) })
#define WORK(w, iw) (&(vm_reaction_work) { (w), (iw) })

#define TOL 1e-14
#define NMAXT 24

/* ---- helpers ---------------------------------------------------------------------------------- */

typedef struct {
  double *w;
  int *iw;
} ws_t;

static int
ws_alloc (ws_t *ws, int n, int m, int k)
{
  size_t lw = 0, liw = 0, i;
  ws->w = NULL;
  ws->iw = NULL;
  if (vm_reaction_work_size (n, m, k, &lw, &liw) != VM_OK)
    return 0;
  ws->w = malloc (lw * sizeof *ws->w);
  ws->iw = malloc (liw * sizeof *ws->iw);
  if (! ws->w || ! ws->iw)
    {
      free (ws->w);
      free (ws->iw);
      ws->w = NULL;
      ws->iw = NULL;
      return 0;
    }
  for (i = 0; i < lw; i++)
    ws->w[i] = NAN;
  for (i = 0; i < liw; i++)
    ws->iw[i] = -1;
  return 1;
}

static void
ws_free (ws_t *ws)
{
  free (ws->w);
  free (ws->iw);
}

static int
ideal (int n, int m, const double *M, const double *f, const double *A, const double *c,
       double *qdd, double *lam, double *R, double *rc)
{
  ws_t ws;
  int st;
  if (! ws_alloc (&ws, n, m, 0))
    return -1;
  st = vm_reaction_ideal (PROB (n, m, 0, M, f, A, c, NULL), qdd, lam, R, rc, WORK (ws.w, ws.iw));
  ws_free (&ws);
  return st;
}

static int
directions (int n, int m, int k, const double *M, const double *f, const double *A,
            const double *c, const double *B, double *qdd, double *mu, double *R, double *rc)
{
  ws_t ws;
  int st;
  if (! ws_alloc (&ws, n, m, k))
    return -1;
  st = vm_reaction_directions (PROB (n, m, k, M, f, A, c, B), qdd, mu, R, rc, WORK (ws.w, ws.iw));
  ws_free (&ws);
  return st;
}

static int
explicit_r (int n, const double *M, const double *f, const double *Rx, const double *qdot,
            double *qdd,
      double *power, double *rc)
{
  ws_t ws;
  int st;
  if (! ws_alloc (&ws, n, 0, 0))
    return -1;
  st = vm_reaction_explicit (PROB (n, 0, 0, M, f, NULL, NULL, NULL), Rx, qdot, qdd, power, rc,
                             WORK (ws.w, ws.iw));
  ws_free (&ws);
  return st;
}

/* |x - y| <= tol * (|x| + |y| + floor) componentwise; returns the worst ratio */
static double
relerr (int len, const double *x, const double *y, double floor)
{
  double worst = 0.0;
  int i;
  for (i = 0; i < len; i++)
    {
      double e = fabs (x[i] - y[i]) / (fabs (x[i]) + fabs (y[i]) + floor);
      if (! (e <= worst))
        worst = isnan (e) ? INFINITY : e;
    }
  return worst;
}

/* residual of A x = c relative to sum_j |A_aj x_j| + |c_a| (the rounding scale of the product) */
static double
con_resid (int m, int n, const double *A, const double *x, const double *c)
{
  double worst = 0.0;
  int a, j;
  for (a = 0; a < m; a++)
    {
      double s = -c[a], sa = fabs (c[a]);
      for (j = 0; j < n; j++)
        {
          s += A[a + m * j] * x[j];
          sa += fabs (A[a + m * j] * x[j]);
        }
      if (! (fabs (s) / sa <= worst))
        worst = isnan (s) ? INFINITY : fabs (s) / sa;
    }
  return worst;
}

static int
all_nan (int len, const double *x)
{
  int i;
  for (i = 0; i < len; i++)
    if (! isnan (x[i]))
      return 0;
  return 1;
}

/* Solve the N x N system K x = b (K column-major, destroyed) by Gaussian elimination with partial
 * pivoting; b is overwritten by x.  Returns 0 on an exactly zero pivot. */
static int
naive_solve (int N, double *K, double *b)
{
  int i, j, p, col;
  for (col = 0; col < N; col++)
    {
      p = col;
      for (i = col + 1; i < N; i++)
        if (fabs (K[i + N * col]) > fabs (K[p + N * col]))
          p = i;
      if (K[p + N * col] == 0.0)
        return 0;
      if (p != col)
        {
          double t;
          for (j = 0; j < N; j++)
            {
              t = K[col + N * j];
              K[col + N * j] = K[p + N * j];
              K[p + N * j] = t;
            }
          t = b[col];
          b[col] = b[p];
          b[p] = t;
        }
      for (i = col + 1; i < N; i++)
        {
          double l = K[i + N * col] / K[col + N * col];
          for (j = col; j < N; j++)
            K[i + N * j] -= l * K[col + N * j];
          b[i] -= l * b[col];
        }
    }
  for (i = N - 1; i >= 0; i--)
    {
      double s = b[i];
      for (j = i + 1; j < N; j++)
        s -= K[i + N * j] * b[j];
      b[i] = s / K[i + N * i];
    }
  return 1;
}

/* deterministic pseudo-random numbers in [-1, 1) */
static unsigned long lcg_state = 12345UL;
static double
urand (void)
{
  lcg_state = (lcg_state * 1103515245UL + 12345UL) & 0x7fffffffUL;
  return 2.0 * (double) lcg_state / 2147483648.0 - 1.0;
}

/* M = C C^T + n I with C random: SPD and well conditioned */
static void
random_spd (int n, double *M)
{
  double C[NMAXT * NMAXT];
  int i, j, l;
  for (i = 0; i < n * n; i++)
    C[i] = urand ();
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        double s = i == j ? (double) n : 0.0;
        for (l = 0; l < n; l++)
          s += C[i + n * l] * C[j + n * l];
        M[i + n * j] = s;
      }
}

static void
diag_matrix (int n, const double *dv, double *M)
{
  int i;
  for (i = 0; i < n * n; i++)
    M[i] = 0.0;
  for (i = 0; i < n; i++)
    M[i + n * i] = dv[i];
}

/* ---- 1. planar pendulum ---------------------------------------------------------------------------
 * A particle of mass mp at r = (x, y), gravity -g e_y, M = mp I, f = (0, -mp g).  The holonomic
 * constraint x^2 + y^2 - l^2 = 0 at velocity level: phi = x xd + y yd, A = [x y],
 * c = -phi_q qdot = -(xd^2 + yd^2).  With x = l sin(th), y = -l cos(th) (th from the downward
 * vertical), v = l thd (cos th, sin th):
 *   S = A M^{-1} A^T = l^2 / mp,  c - A M^{-1} f = -v^2 + g y = -l^2 thd^2 - g l cos th,
 *   lambda = -mp (l thd^2 + g cos th) / l = -T / l  with the tension T = mp (v^2 / l + g cos th),
 *   R = lambda r = -T r / l (towards the pivot), qddot = R / mp + (0, -g).
 * In polar form qddot = l thdd (cos th, sin th) + l thd^2 (-sin th,
                                                            cos th) with thdd = -g/l sin th,
 * an independent closed form of the same accelerations. */
static void
test_pendulum (void)
{
  const double mp = 2.0, l = 1.5, g = 9.81;
  const double ths[] = { 0.0, 0.7, -1.2, 2.5, 3.0 }, thds[] = { 1.3, -0.4, 2.0, 0.1, 5.0 };
  int s;
  for (s = 0; s < 5; s++)
    {
      double th = ths[s], thd = thds[s];
      double x = l * sin (th), y = -l * cos (th), xd = l * thd * cos (th), yd = l * thd * sin (th);
      double M[4] = { mp, 0, 0, mp }, f[2] = { 0, -mp * g }, A[2] = { x, y };
      double c = -(xd * xd + yd * yd), qdd[2], lam, R[2], rc;
      double T = mp * (l * thd * thd + g * cos (th)), lam_ref = -T / l;
      double R_ref[2] = { -T * x / l, -T * y / l };
      double q_ref[2] = { R_ref[0] / mp, R_ref[1] / mp - g };
      double thdd = -g / l * sin (th);
      double q_pol[2] = { l * thdd * cos (th) - l * thd * thd * sin (th),
                          l * thdd * sin (th) + l * thd * thd * cos (th) };
      int st = ideal (2, 1, M, f, A, &c, qdd, &lam, R, &rc);
      CHECK (st == VM_OK, "pendulum %d: status %d", s, st);
      CHECK (relerr (1, &lam, &lam_ref, 1.0) <= TOL, "pendulum %d: lambda %.17g vs %.17g", s, lam,
             lam_ref);
      CHECK (relerr (2, R, R_ref, 1.0) <= TOL, "pendulum %d: R (%g %g) vs (%g %g)", s, R[0], R[1],
             R_ref[0], R_ref[1]);
      CHECK (relerr (2, qdd, q_ref, 1.0) <= TOL,
             "pendulum %d: qddot (%.17g %.17g) vs (%.17g %.17g)",
             s, qdd[0], qdd[1], q_ref[0], q_ref[1]);
      CHECK (relerr (2, qdd, q_pol, 1.0) <= TOL, "pendulum %d: qddot vs polar form: %g", s,
             relerr (2, qdd, q_pol, 1.0));
      /* tension magnitude |R| = T */
      CHECK (fabs (hypot (R[0], R[1]) - fabs (T)) <= TOL * (fabs (T) + 1.0),
             "pendulum %d: |R| = %g, T = %g", s, hypot (R[0], R[1]), T);
      /* constraint acceleration: |A qddot - c| <= 1e-14 relative to its terms, and absolutely
       * (all terms are O(10) here) */
      CHECK (con_resid (1, 2, A, qdd, &c) <= TOL
               && fabs (A[0] * qdd[0] + A[1] * qdd[1] - c) <= 1e-14 * (1.0 + fabs (c)),
             "pendulum %d: A qddot - c = %g", s, A[0] * qdd[0] + A[1] * qdd[1] - c);
      /* one constraint, unit-diagonal scaled S = 1: rcond 1 */
      CHECK (fabs (rc - 1.0) <= 1e-15, "pendulum %d: rcond %g", s, rc);
    }
}

/* ---- 2. rolling disk (Rothkopf & Horowitz eq. 8) ---------------------------------------------------
 * q = (x, y, th, ph), L = Mass/2 (xd^2 + yd^2) + IS/2 thd^2 + ID/2 phd^2 + Mass g x sin(alpha):
 * M = diag(Mass, Mass, IS, ID), f = (Mass g sin(alpha), 0, 0, 0).  Constraints (already at velocity
 * level): g1 = xd^2 + yd^2 - R^2 thd^2, g2 = xd sin(ph) - yd cos(ph), so
 *   A = [2xd 2yd -2R^2 thd 0; sin(ph) -cos(ph) 0 0],  c = -(g_q qdot) = [0; -(xd cos ph + yd sin ph) phd].
 * Checks: A qddot = c; the Chetaev/d'Alembert condition R . v = 0 for the basis of ker A
 *   v1 = (0, 0, 0, 1),  v2 = (cos ph, sin ph, (xd cos ph + yd sin ph) / (R^2 thd), 0);
 * and, independently of the hand-written A and c, d/dt g(q(t), qdot(t)) = 0 at t = 0 along
 * q(t) = q + t qdot + t^2/2 qddot, qdot(t) = qdot + t qddot, by a central difference (O(h^2)). */
static void
disk_g (const double *q, const double *qd, double Rd, double *g)
{
  g[0] = qd[0] * qd[0] + qd[1] * qd[1] - Rd * Rd * qd[2] * qd[2];
  g[1] = qd[0] * sin (q[3]) - qd[1] * cos (q[3]);
}

static void
test_disk (void)
{
  const double Mass = 1.0, Rd = 1.0, IS = 0.5, ID = 0.25, g = 9.8, alpha = 0.52359877559829887 /* pi/6 */;
  /* states: the paper's initial state, and a generic one on the constraint manifold with
   * (xd, yd) = R thd (cos ph, sin ph) */
  double states[3][8] = { { 0, 0, 0, 0, 5, 0, 5, 1 },
                          { 0.3, -0.2, 1.1, 0.4, 0, 0, 3.0, 0.7 },
                          { -1.0, 2.0, -0.5, 2.9, 0, 0, -1.7, -2.3 } };
  int s;
  states[1][4] = Rd * states[1][6] * cos (states[1][3]);
  states[1][5] = Rd * states[1][6] * sin (states[1][3]);
  states[2][4] = Rd * states[2][6] * cos (states[2][3]);
  states[2][5] = Rd * states[2][6] * sin (states[2][3]);
  for (s = 0; s < 3; s++)
    {
      const double *q = states[s], *qd = states[s] + 4;
      double dv[4] = { Mass, Mass, IS, ID }, M[16], f[4] = { Mass * g * sin (alpha), 0, 0, 0 };
      double xd = qd[0], yd = qd[1], thd = qd[2], ph = q[3], phd = qd[3];
      double A[8] = { 2 * xd, sin (ph), 2 * yd, -cos (ph), -2 * Rd * Rd * thd, 0, 0, 0 };
      double c[2] = { 0, -(xd * cos (ph) + yd * sin (ph)) * phd };
      double qdd[4], lam[2], R[4], rc, g0[2];
      double v1[4] = { 0, 0, 0, 1 };
      double v2[4] = { cos (ph), sin (ph), (xd * cos (ph) + yd * sin (ph)) / (Rd * Rd * thd), 0 };
      double Rn, p1, p2, h = 1e-4, worst = 0.0;
      int st, i;
      diag_matrix (4, dv, M);
      disk_g (q, qd, Rd, g0);
      CHECK (fabs (g0[0]) <= 1e-13 && fabs (g0[1]) <= 1e-13, "disk %d: state not consistent", s);
      st = ideal (4, 2, M, f, A, c, qdd, lam, R, &rc);
      CHECK (st == VM_OK, "disk %d: status %d", s, st);
      CHECK (con_resid (2, 4, A, qdd, c) <= TOL, "disk %d: A qddot - c rel %g", s,
             con_resid (2, 4, A, qdd, c));
      Rn = sqrt (R[0] * R[0] + R[1] * R[1] + R[2] * R[2] + R[3] * R[3]);
      p1 = R[0] * v1[0] + R[1] * v1[1] + R[2] * v1[2] + R[3] * v1[3];
      p2 = R[0] * v2[0] + R[1] * v2[1] + R[2] * v2[2] + R[3] * v2[3];
      CHECK (fabs (p1) <= 1e-13 * Rn && fabs (p2) <= 1e-13 * Rn * sqrt (1 + v2[2] * v2[2]),
             "disk %d: R.v1 = %g, R.v2 = %g, |R| = %g", s, p1, p2, Rn);
      for (i = 0; i < 2; i++)
        {
          /* A v = 0 for the basis (checks the basis, not the solver) */
          double Av1 = A[i] * v1[0] + A[i + 2] * v1[1] + A[i + 4] * v1[2] + A[i + 6] * v1[3];
          double Av2 = A[i] * v2[0] + A[i + 2] * v2[1] + A[i + 4] * v2[2] + A[i + 6] * v2[3];
          CHECK (fabs (Av1) <= 1e-14 && fabs (Av2) <= 1e-13, "disk %d: basis not in ker A", s);
        }
      {
        double qp[4], qdp[4], qm[4], qdm[4], gp[2], gm[2];
        for (i = 0; i < 4; i++)
          {
            qp[i] = q[i] + h * qd[i] + 0.5 * h * h * qdd[i];
            qdp[i] = qd[i] + h * qdd[i];
            qm[i] = q[i] - h * qd[i] + 0.5 * h * h * qdd[i];
            qdm[i] = qd[i] - h * qdd[i];
          }
        disk_g (qp, qdp, Rd, gp);
        disk_g (qm, qdm, Rd, gm);
        for (i = 0; i < 2; i++)
          if (fabs (gp[i] - gm[i]) / (2 * h) > worst)
            worst = fabs (gp[i] - gm[i]) / (2 * h);
        CHECK (worst <= 1e-6, "disk %d: dg/dt by central difference = %g", s, worst);
      }
    }
}

/* ---- 3. Gauss's principle against a brute-force KKT solve -----------------------------------------
 * qddot minimizes J(a) = (a - M^{-1} f)^T M (a - M^{-1} f) subject to A a = c.  Its KKT system is
 *   [M  -A^T] [a     ]   [f]
 *   [A   0  ] [lambda] = [c],
 * solved here by naive Gaussian elimination.  Also: J(qddot + t v) > J(qddot) for v in ker A. */
static double
gauss_J (int n, const double *M, const double *a, const double *u)
{
  double s = 0.0;
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      s += (a[i] - u[i]) * M[i + n * j] * (a[j] - u[j]);
  return s;
}

static void
kkt_ideal (int n, int m, const double *M, const double *f, const double *A, const double *c,
           double *sol)
{
  int N = n + m, i, j;
  double K[(NMAXT + NMAXT) * (NMAXT + NMAXT)];
  for (i = 0; i < N * N; i++)
    K[i] = 0.0;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      K[i + N * j] = M[i + n * j];
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      {
        K[j + N * (n + i)] = -A[i + m * j];
        K[(n + i) + N * j] = A[i + m * j];
      }
  for (i = 0; i < n; i++)
    sol[i] = f[i];
  for (i = 0; i < m; i++)
    sol[n + i] = c[i];
  naive_solve (N, K, sol);
}

static void
test_gauss (void)
{
  /* sizes on both sides of VM_REACTION_SMALL (12): inline kernels and LAPACK */
  static const int sizes[][2] = { { 3, 1 }, { 4, 2 }, { 5, 3 }, { 6, 1 }, { 16, 5 }, { 20, 14 } };
  int trial;
  for (trial = 0; trial < 6; trial++)
    {
      int n = sizes[trial][0], m = sizes[trial][1], i, j, st;
      double M[NMAXT * NMAXT], f[NMAXT], A[NMAXT * NMAXT], c[NMAXT], qdd[NMAXT], lam[NMAXT],
             R[NMAXT], rc, sol[2 * NMAXT], u[NMAXT], Mc[NMAXT * NMAXT], v[NMAXT], Rv = 0, Rn = 0,
             vn = 0, J0;
      random_spd (n, M);
      for (i = 0; i < n; i++)
        f[i] = 3 * urand ();
      for (i = 0; i < m * n; i++)
        A[i] = urand ();
      for (i = 0; i < m; i++)
        c[i] = urand ();
      st = ideal (n, m, M, f, A, c, qdd, lam, R, &rc);
      CHECK (st == VM_OK, "gauss %d: status %d", trial, st);
      kkt_ideal (n, m, M, f, A, c, sol);
      CHECK (relerr (n, qdd, sol, 1.0) <= 1e-13, "gauss %d: qddot vs KKT: %g", trial,
             relerr (n, qdd, sol, 1.0));
      CHECK (relerr (m, lam, sol + n, 1.0) <= 1e-13, "gauss %d: lambda vs KKT: %g", trial,
             relerr (m, lam, sol + n, 1.0));
      CHECK (con_resid (m, n, A, qdd, c) <= TOL, "gauss %d: A qddot - c: %g", trial,
             con_resid (m, n, A, qdd, c));
      CHECK (rc > 1e-3 && rc <= 1.0, "gauss %d: rcond %g", trial, rc);
      /* u = M^{-1} f, naive */
      memcpy (Mc, M, sizeof (double) * n * n);
      memcpy (u, f, sizeof (double) * n);
      naive_solve (n, Mc, u);
      /* v in ker A: v = w - A^T (A A^T)^{-1} A w */
      {
        double w[NMAXT], AAt[NMAXT * NMAXT], y[NMAXT];
        int a, b;
        for (i = 0; i < n; i++)
          w[i] = urand ();
        for (a = 0; a < m; a++)
          {
            y[a] = 0;
            for (j = 0; j < n; j++)
              y[a] += A[a + m * j] * w[j];
            for (b = 0; b < m; b++)
              {
                AAt[a + m * b] = 0;
                for (j = 0; j < n; j++)
                  AAt[a + m * b] += A[a + m * j] * A[b + m * j];
              }
          }
        naive_solve (m, AAt, y);
        for (i = 0; i < n; i++)
          {
            v[i] = w[i];
            for (a = 0; a < m; a++)
              v[i] -= A[a + m * i] * y[a];
          }
      }
      for (i = 0; i < n; i++)
        {
          Rv += R[i] * v[i];
          Rn += R[i] * R[i];
          vn += v[i] * v[i];
        }
      /* the gradient of J at qddot along v is 2 (M qddot - f) . v = 2 R . v = 0 */
      CHECK (fabs (Rv) <= 1e-13 * sqrt (Rn * vn), "gauss %d: R.v = %g", trial, Rv);
      J0 = gauss_J (n, M, qdd, u);
      for (j = -1; j <= 1; j += 2)
        {
          double a2[NMAXT];
          for (i = 0; i < n; i++)
            a2[i] = qdd[i] + 0.1 * j * v[i];
          CHECK (gauss_J (n, M, a2, u) > J0, "gauss %d: J not minimal along ker A", trial);
        }
    }
}

/* Invariance under the scale of a constraint row (same manifold) and of the coordinate units:
 * the accelerations and the rcond must not change. */
static void
test_scaling (void)
{
  double M[9] = { 2.0, 0.3, 0.1, 0.3, 1.5, -0.2, 0.1, -0.2, 1.0 }, f[3] = { 1.0, -2.0, 0.5 };
  double A[6] = { 1.0, 0.2, -0.5, 1.0, 0.3, 0.7 }, c[2] = { 0.4, -1.1 };
  double A2[6], c2[2], qdd[3], qdd2[3], lam[2], lam2[2], rc, rc2;
  double dv[3] = { 1e8, 1e-8, 1.0 }, Md[9], Ad[6] = { 1, 0, 0, 1, 0, 0 }, cd[2] = { 0, 0 };
  int st, st2;
  memcpy (A2, A, sizeof A);
  memcpy (c2, c, sizeof c);
  A2[0] *= 1e6;
  A2[2] *= 1e6;
  A2[4] *= 1e6;
  c2[0] *= 1e6;
  st = ideal (3, 2, M, f, A, c, qdd, lam, NULL, &rc);
  st2 = ideal (3, 2, M, f, A2, c2, qdd2, lam2, NULL, &rc2);
  CHECK (st == VM_OK && st2 == VM_OK, "scaling: status %d %d", st, st2);
  CHECK (relerr (3, qdd, qdd2, 1.0) <= 1e-13, "scaling: row scale changed qddot by %g",
         relerr (3, qdd, qdd2, 1.0));
  lam2[0] *= 1e6;
  CHECK (relerr (2, lam, lam2, 1.0) <= 1e-13, "scaling: lambda not scaled by 1e-6");
  CHECK (fabs (rc - rc2) <= 1e-12 * rc, "scaling: rcond %g vs %g", rc, rc2);
  /* coordinate units: M = diag(1e8, 1e-8, 1) with the constraints q1dd = 0, q2dd = 0 is perfectly
   * conditioned once scaled (scaled M = I, scaled S = I) */
  diag_matrix (3, dv, Md);
  st = ideal (3, 2, Md, f, Ad, cd, qdd, lam, NULL, &rc);
  CHECK (st == VM_OK && fabs (rc - 1.0) <= 1e-15, "scaling: diag(1e8,1e-8,1): status %d rcond %g",
         st, rc);
  CHECK (qdd[0] == 0.0 && qdd[1] == 0.0 && fabs (qdd[2] - f[2]) <= 1e-16,
         "scaling: diag(1e8,1e-8,1): qddot (%g %g %g)", qdd[0], qdd[1], qdd[2]);
  CHECK (fabs (lam[0] + f[0]) <= 1e-16 * fabs (f[0]) * 4 && fabs (lam[1] + f[1]) <= 4e-16 * fabs (f[1]),
         "scaling: lambda = -f on the constrained coordinates");
}

/* ---- 4. The Pars particle (Acharya & Sengupta Sec. 4.1 and Sec. 5) ---------------------------------
 * One particle in R^3, M = I (the paper absorbs the mass), applied force per mass F, the constraint
 * x3 v1 - v2 = 0:  A = n = (x3, -1, 0), c = -(phi_q qdot) = -v1 v3 (the paper's w = v3 v1 in
 * n . xdd + w = 0, eq. 43).  The paper writes vdot = -Q (eq. 42b); here M qddot = f + R, so R = -Q.
 *
 * Ideal (Gauss) reaction, F = 0: lambda* = v3 v1 / (1 + x3^2) and eq. 44,
 *   xdd1 = -v1 x3 v3 / (1 + x3^2),  xdd2 = v1 v3 / (1 + x3^2),  xdd3 = 0;  here lambda = -lambda*.
 *
 * Eq. 51, reaction confined to v2 (s = {2}: v2 = vhat2(x, v1) = x3 v1, r = {1, 3}):
 *   vdot_r = F_r,  vdot2 = d/dt (x3 v1) = v3 v1 + x3 F1,  F^(c)(s) = vdot2 - F2 = v3 v1 + x3 F1 - F2,
 * so qddot = (F1, v1 v3 + x3 F1, F3) and mu = v1 v3 + x3 F1 - F2 with B = e2^T.  For F = 0 this is
 * (0, v1 v3, 0), unlike eq. 44: a different motion, as the paper says of its alternatives.
 * Reaction confined to v1 (s = {1}, vhat1 = v2 / x3, x3 != 0): vdot1 = F2 / x3 - v2 v3 / x3^2,
 * i.e. on the manifold (v2 = x3 v1) qddot = ((F2 - v1 v3) / x3, F2, F3), mu = qdd1 - F1;
 * singular at x3 = 0 (the constraint does not involve v1 there), where the status is VM_ESINGULAR. */
static void
pars_cross (const double *a, const double *b, double *r)
{
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

static void
test_pars_confined (void)
{
  const double xs[3][3] = { { 0.3, -1.0, 0.8 }, { 1.0, 2.0, -1.7 }, { -0.5, 0.25, 0.0 } };
  const double vs[3][2] = { { 1.2, 0.9 }, { -0.7, 2.1 }, { 0.4, -1.5 } };   /* v1, v3 */
  const double Fs[2][3] = { { 0, 0, 0 }, { 0.6, -1.3, 0.25 } };
  double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  int s, fi;
  for (s = 0; s < 3; s++)
    for (fi = 0; fi < 2; fi++)
      {
        double x3 = xs[s][2], v1 = vs[s][0], v3 = vs[s][1];
        const double *F = Fs[fi];
        double A[3] = { x3, -1.0, 0.0 }, c = -v1 * v3, qdd[3], mu[3], R[3], rc, B[3];
        double ref[3] = { F[0], v1 * v3 + x3 * F[0], F[2] }, mu_ref = v1 * v3 + x3 * F[0] - F[1];
        int idx2 = 1, idx1 = 0, st;
        CHECK (vm_reaction_select (3, 1, &idx2, NULL, B) == VM_OK && B[0] == 0 && B[1] == 1
                 && B[2] == 0, "pars: select e2");
        st = directions (3, 1, 1, I3, F, A, &c, B, qdd, mu, R, &rc);
        CHECK (st == VM_OK, "pars eq51 s=2, state %d F %d: status %d", s, fi, st);
        CHECK (relerr (3, qdd, ref, 1.0) <= TOL, "pars eq51 s=2, state %d F %d: qddot %g", s, fi,
               relerr (3, qdd, ref, 1.0));
        CHECK (relerr (1, mu, &mu_ref, 1.0) <= TOL && R[0] == 0.0 && R[2] == 0.0
                 && relerr (1, R + 1, &mu_ref, 1.0) <= TOL,
               "pars eq51 s=2, state %d F %d: mu %g vs %g", s, fi, mu[0], mu_ref);
        CHECK (con_resid (1, 3, A, qdd, &c) <= TOL, "pars eq51 s=2: constraint");
        if (fi == 0)
          {
            /* differs from the Gauss motion eq. 44 unless v1 v3 = 0 */
            double q44[3] = { -v1 * x3 * v3 / (1 + x3 * x3), v1 * v3 / (1 + x3 * x3), 0.0 };
            double qi[3], lam, lam_ref = -v3 * v1 / (1 + x3 * x3);
            int sti = ideal (3, 1, I3, F, A, &c, qi, &lam, NULL, NULL);
            CHECK (sti == VM_OK && relerr (3, qi, q44, 1.0) <= TOL
                     && relerr (1, &lam, &lam_ref, 1.0) <= TOL,
                   "pars eq44 state %d: ideal qddot %g, lambda %g vs %g", s,
                   relerr (3, qi, q44, 1.0), lam, lam_ref);
            /* they differ by v1 v3 x3^2 / (1 + x3^2) in xdd2; at x3 = 0, n = -e2 and the ideal
             * reaction is itself confined to v2 */
            CHECK (fabs ((qdd[1] - qi[1]) - v1 * v3 * x3 * x3 / (1 + x3 * x3)) <= TOL * (1 + fabs (v1 * v3)),
                   "pars: eq51 (s=2) - eq44 at state %d", s);
          }
        CHECK (vm_reaction_select (3, 1, &idx1, NULL, B) == VM_OK, "pars: select e1");
        st = directions (3, 1, 1, I3, F, A, &c, B, qdd, mu, R, &rc);
        if (x3 != 0.0)
          {
            double ref1[3] = { (F[1] - v1 * v3) / x3, F[1], F[2] };
            double mu1 = ref1[0] - F[0];
            CHECK (st == VM_OK && relerr (3, qdd, ref1, 1.0) <= TOL
                     && relerr (1, mu, &mu1, 1.0) <= TOL,
                   "pars eq51 s=1, state %d F %d: status %d, err %g", s, fi, st,
                   relerr (3, qdd, ref1, 1.0));
            /* Gh = cos(n, e1) = x3 / sqrt(1 + x3^2), a 1 x 1 matrix: rcond = |Gh| */
            CHECK (fabs (rc - fabs (x3) / sqrt (1 + x3 * x3)) <= 1e-15, "pars s=1: rcond %g", rc);
          }
        else
          CHECK (st == VM_ESINGULAR && rc == 0.0 && all_nan (3, qdd) && all_nan (1, mu),
                 "pars eq51 s=1 at x3 = 0: status %d rcond %g", st, rc);
      }
  /* v1 is an almost tangent reaction direction when |x3| is tiny: rcond = |x3| (1 x 1 case) */
  {
    double F[3] = { 0, 0, 0 }, B[3] = { 1, 0, 0 }, qdd[3], rc;
    double A1[3] = { 1e-6, -1.0, 0.0 }, A2[3] = { 1e-15, -1.0, 0.0 }, c = -0.3;
    int st = directions (3, 1, 1, I3, F, A1, &c, B, qdd, NULL, NULL, &rc);
    CHECK (st == VM_OK && fabs (rc - 1e-6) <= 1e-17, "pars x3=1e-6: status %d rcond %g", st, rc);
    st = directions (3, 1, 1, I3, F, A2, &c, B, qdd, NULL, NULL, &rc);
    CHECK (st == VM_ESINGULAR && fabs (rc - 1e-15) <= 1e-26,
           "pars x3=1e-15: status %d rcond %g (threshold 1e-13)", st, rc);
  }
  /* k > m: B = I (all directions allowed) and B = [A; e3] reproduce the ideal reaction, eq. 44 */
  {
    double x3 = 0.8, v1 = 1.2, v3 = 0.9, F[3] = { 0, 0, 0 }, A[3] = { x3, -1.0, 0.0 },
           c = -v1 * v3, qdd[3], mu[3], R[3], rc;
    double q44[3] = { -v1 * x3 * v3 / (1 + x3 * x3), v1 * v3 / (1 + x3 * x3), 0.0 };
    double B2[6] = { x3, 0, -1, 0, 0, 1 };          /* rows (x3, -1, 0) and (0, 0, 1) */
    double lam_ref = -v3 * v1 / (1 + x3 * x3);
    int st = directions (3, 1, 3, I3, F, A, &c, I3, qdd, mu, R, &rc);
    CHECK (st == VM_OK && relerr (3, qdd, q44, 1.0) <= TOL, "pars B=I: status %d err %g", st,
           relerr (3, qdd, q44, 1.0));
    CHECK (relerr (3, R, mu, 1.0) == 0.0, "pars B=I: R = mu");
    st = directions (3, 1, 2, I3, F, A, &c, B2, qdd, mu, R, &rc);
    CHECK (st == VM_OK && relerr (3, qdd, q44, 1.0) <= TOL && relerr (1, mu, &lam_ref, 1.0) <= TOL
             && fabs (mu[1]) <= TOL,
           "pars B=[A;e3]: status %d err %g mu (%g %g)", st, relerr (3, qdd, q44, 1.0), mu[0],
           mu[1]);
  }
}

/* ---- 5. Acharya & Sengupta eqs. 45-47: extra reaction a x v + nu v --------------------------------
 * Q = lambda* a + a x v + nu v (eq. 45), vdot = -Q (eq. 46b), with n = a = (x3, -1, 0),
 * n x v = (-v3, -x3 v3, x3 v2 + v1) and, from n . vdot + w = 0 (eq. 43),
 *   lambda*(x, v; nu) = (v3 v1 + nu (v2 - x3 v1)) / (x3^2 + 1).
 * Here: (i) the multiplier part as an ideal solve with the extra force f = -(a x v + nu v) gives
 * lambda = -lambda*(nu) at any state (also off the manifold, where the nu term matters), and for
 * nu = 0 the accelerations of eq. 47
 *   xdd1 = -v1 x3 v3 / (1 + x3^2) + v3,  xdd2 = v1 v3 / (1 + x3^2) + x3 v3,  xdd3 = -x3 v2 - v1;
 * (ii) the whole Q as an explicit reaction R = -Q: qddot = -Q, and the power R . v = -nu v . v on
 * the manifold (Q . v = s^2 / 2 with s^2 = 2 nu v . v, eq. 46d), 0 for nu = 0. */
static void
test_pars_extra (void)
{
  double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  const double nus[3] = { 0.0, 0.3, 2.0 };
  const double st8[2][6] = { { 0.1, 0.2, 0.8, 1.2, 0.96, 0.9 },       /* on: v2 = x3 v1 */
                             { 0.1, 0.2, -0.6, 0.7, 1.9, -1.4 } };    /* off the manifold */
  int k, s;
  for (s = 0; s < 2; s++)
    for (k = 0; k < 3; k++)
      {
        const double *x = st8[s], *v = st8[s] + 3;
        double nu = nus[k], x3 = x[2], v1 = v[0], v2 = v[1], v3 = v[2];
        double a[3] = { x3, -1.0, 0.0 }, axv[3], f[3], c = -v1 * v3, qdd[3], lam, rc, pw;
        double lstar = (v3 * v1 + nu * (v2 - x3 * v1)) / (x3 * x3 + 1), mlstar = -lstar;
        double Q[3], Rx[3], mQ[3];
        int i, st;
        pars_cross (a, v, axv);
        CHECK (axv[0] == -v3 && axv[1] == -x3 * v3 && axv[2] == x3 * v2 + v1,
               "pars: n x v as printed in the paper");
        for (i = 0; i < 3; i++)
          f[i] = -(axv[i] + nu * v[i]);
        st = ideal (3, 1, I3, f, a, &c, qdd, &lam, NULL, &rc);
        CHECK (st == VM_OK && relerr (1, &lam, &mlstar, 1.0) <= TOL,
               "pars eq45 state %d nu %g: lambda %.17g vs -lambda* %.17g", s, nu, lam, mlstar);
        if (nu == 0.0 && s == 0)
          {
            double q47[3] = { -v1 * x3 * v3 / (1 + x3 * x3) + v3, v1 * v3 / (1 + x3 * x3) + x3 * v3,
                              -x3 * v2 - v1 };
            CHECK (relerr (3, qdd, q47, 1.0) <= TOL, "pars eq47: qddot err %g",
                   relerr (3, qdd, q47, 1.0));
          }
        for (i = 0; i < 3; i++)
          {
            Q[i] = lstar * a[i] + axv[i] + nu * v[i];
            Rx[i] = -Q[i];
            mQ[i] = -Q[i];
          }
        {
          double zero3[3] = { 0, 0, 0 };
          st = explicit_r (3, I3, zero3, Rx, v, qdd, &pw, &rc);
        }
        CHECK (st == VM_OK && relerr (3, qdd, mQ, 1.0) == 0.0 && rc == 1.0,
               "pars explicit state %d nu %g: status %d", s, nu, st);
        /* the paper's lambda* keeps the constraint: n . qddot = c */
        CHECK (con_resid (1, 3, a, qdd, &c) <= TOL, "pars explicit: n . vdot + w = %g",
               a[0] * qdd[0] + a[1] * qdd[1] - c);
        if (s == 0)
          {
            double ref = -nu * (v1 * v1 + v2 * v2 + v3 * v3);
            CHECK (fabs (pw - ref) <= TOL * (fabs (ref) + 1.0),
                   "pars explicit nu %g: power %.17g vs %.17g",
                   nu, pw, ref);
          }
      }
}

/* explicit reaction with a general M: qddot against a naive solve, power = Rx . qdot */
static void
test_explicit_general (void)
{
  int n = 5, i, st;
  double M[25], f[5], Rx[5], qd[5], qdd[5], ref[5], Mc[25], pw, pref = 0, rc;
  random_spd (n, M);
  for (i = 0; i < n; i++)
    {
      f[i] = urand ();
      Rx[i] = urand ();
      qd[i] = urand ();
      ref[i] = f[i] + Rx[i];
      pref += Rx[i] * qd[i];
    }
  memcpy (Mc, M, sizeof M);
  naive_solve (n, Mc, ref);
  st = explicit_r (n, M, f, Rx, qd, qdd, &pw, &rc);
  CHECK (st == VM_OK && relerr (n, qdd, ref, 1.0) <= 1e-14, "explicit: qddot err %g",
         relerr (n, qdd, ref, 1.0));
  CHECK (fabs (pw - pref) <= 1e-15 * 5, "explicit: power %g vs %g", pw, pref);
  CHECK (rc > 1e-3, "explicit: rcond %g", rc);
  /* Rx NULL: no reaction, power 0 */
  memcpy (ref, f, sizeof f);
  memcpy (Mc, M, sizeof M);
  naive_solve (n, Mc, ref);
  st = explicit_r (n, M, f, NULL, qd, qdd, &pw, NULL);
  CHECK (st == VM_OK && relerr (n, qdd, ref, 1.0) <= 1e-14 && pw == 0.0, "explicit: Rx NULL");
  /* qdot and power may both be NULL */
  st = explicit_r (n, M, f, Rx, NULL, qdd, NULL, NULL);
  CHECK (st == VM_OK, "explicit: no power wanted: status %d", st);
}

/* ---- 6. reaction directions, general: brute force, k > m and eq. 51 with a full M ----------------
 * For k > m the reaction is mu minimizing mu^T W mu subject to G mu = r, W = B M^{-1} B^T,
 * G = A M^{-1} B^T, r = c - A M^{-1} f; KKT:  [W  -G^T; G  0] [mu; nu] = [0; r], solved naively
 * with M^{-1} by naive solves. */
static void
test_directions_general (void)
{
  int n = 5, m = 2, k = 3, i, j, a, st;
  double M[25], f[5], A[10], c[2], B[15], qdd[5], mu[5], R[5], rc;
  double MiBt[15], MiAt[10], Mif[5], Mc[25], W[9], G[6], r[2], K[25], sol[5], ref[5];
  random_spd (n, M);
  for (i = 0; i < n; i++)
    f[i] = urand ();
  for (i = 0; i < m * n; i++)
    A[i] = urand ();
  for (i = 0; i < k * n; i++)
    B[i] = urand ();
  c[0] = 0.3;
  c[1] = -0.8;
  /* M^{-1} B^T, M^{-1} A^T, M^{-1} f column by column */
  for (j = 0; j < k; j++)
    {
      for (i = 0; i < n; i++)
        MiBt[i + n * j] = B[j + k * i];
      memcpy (Mc, M, sizeof M);
      naive_solve (n, Mc, MiBt + n * j);
    }
  for (j = 0; j < m; j++)
    {
      for (i = 0; i < n; i++)
        MiAt[i + n * j] = A[j + m * i];
      memcpy (Mc, M, sizeof M);
      naive_solve (n, Mc, MiAt + n * j);
    }
  memcpy (Mif, f, sizeof f);
  memcpy (Mc, M, sizeof M);
  naive_solve (n, Mc, Mif);
  for (a = 0; a < k; a++)
    for (j = 0; j < k; j++)
      {
        W[a + k * j] = 0;
        for (i = 0; i < n; i++)
          W[a + k * j] += B[a + k * i] * MiBt[i + n * j];
      }
  for (a = 0; a < m; a++)
    {
      r[a] = c[a];
      for (i = 0; i < n; i++)
        r[a] -= A[a + m * i] * Mif[i];
      for (j = 0; j < k; j++)
        {
          G[a + m * j] = 0;
          for (i = 0; i < n; i++)
            G[a + m * j] += A[a + m * i] * MiBt[i + n * j];
        }
    }
  for (i = 0; i < 25; i++)
    K[i] = 0;
  for (a = 0; a < k; a++)
    for (j = 0; j < k; j++)
      K[a + 5 * j] = W[a + k * j];
  for (a = 0; a < m; a++)
    for (j = 0; j < k; j++)
      {
        K[(k + a) + 5 * j] = G[a + m * j];
        K[j + 5 * (k + a)] = -G[a + m * j];
      }
  for (i = 0; i < k; i++)
    sol[i] = 0;
  for (a = 0; a < m; a++)
    sol[k + a] = r[a];
  naive_solve (k + m, K, sol);
  st = directions (n, m, k, M, f, A, c, B, qdd, mu, R, &rc);
  CHECK (st == VM_OK, "directions k>m: status %d", st);
  CHECK (relerr (k, mu, sol, 1.0) <= 1e-13, "directions k>m: mu vs KKT %g", relerr (k, mu, sol,
                                                                                    1.0));
  for (i = 0; i < n; i++)
    {
      ref[i] = Mif[i];
      for (j = 0; j < k; j++)
        ref[i] += MiBt[i + n * j] * sol[j];
    }
  CHECK (relerr (n, qdd, ref, 1.0) <= 1e-13, "directions k>m: qddot vs KKT %g",
         relerr (n, qdd, ref, 1.0));
  CHECK (con_resid (m, n, A, qdd, c) <= TOL, "directions k>m: A qddot - c %g",
         con_resid (m, n, A, qdd, c));
  /* k == m with the first two rows of B: G mu = r by naive solve */
  {
    double B2[10], G2[4], mu2[2], r2[2];
    for (i = 0; i < n; i++)
      for (a = 0; a < 2; a++)
        B2[a + 2 * i] = B[a + k * i];
    for (a = 0; a < 2; a++)
      for (j = 0; j < 2; j++)
        G2[a + 2 * j] = G[a + m * j];
    memcpy (r2, r, sizeof r);
    naive_solve (2, G2, r2);
    st = directions (n, m, 2, M, f, A, c, B2, qdd, mu2, R, &rc);
    CHECK (st == VM_OK && relerr (2, mu2, r2, 1.0) <= 1e-13, "directions k==m: status %d err %g",
           st, relerr (2, mu2, r2, 1.0));
    CHECK (con_resid (m, n, A, qdd, c) <= TOL, "directions k==m: constraint");
  }
  /* B = I_n (k = n > m): the ideal reaction; B = rows of A plus extra rows: the ideal reaction */
  {
    double In[25], qi[5], li[2], Ri[5], BA[20];
    for (i = 0; i < 25; i++)
      In[i] = (i % 6 == 0) ? 1.0 : 0.0;
    CHECK (ideal (n, m, M, f, A, c, qi, li, Ri, NULL) == VM_OK, "ideal for comparison");
    st = directions (n, m, n, M, f, A, c, In, qdd, mu, R, &rc);
    CHECK (st == VM_OK && relerr (n, qdd, qi, 1.0) <= 1e-13 && relerr (n, R, Ri, 1.0) <= 1e-13,
           "directions B=I: status %d err %g", st, relerr (n, qdd, qi, 1.0));
    for (i = 0; i < n; i++)
      {
        BA[0 + 4 * i] = A[0 + m * i];
        BA[1 + 4 * i] = urand ();
        BA[2 + 4 * i] = A[1 + m * i];
        BA[3 + 4 * i] = urand ();
      }
    st = directions (n, m, 4, M, f, A, c, BA, qdd, mu, R, &rc);
    CHECK (st == VM_OK && relerr (n, qdd, qi, 1.0) <= 1e-13 && fabs (mu[1]) <= 1e-13
             && fabs (mu[3]) <= 1e-13 && relerr (1, mu, li, 1.0) <= 1e-13
             && relerr (1, mu + 2, li + 1, 1.0) <= 1e-13,
           "directions B=[a1;*;a2;*]: status %d err %g mu (%g %g %g %g)", st,
           relerr (n, qdd, qi, 1.0), mu[0], mu[1], mu[2], mu[3]);
  }
  /* eq. 51 with a full M: B = rows idx of M keeps the unconstrained accelerations M^{-1} f on the
   * other components; B = rows idx of I makes the reaction force vanish there */
  {
    int idx[2] = { 3, 1 };
    double Bs[10];
    CHECK (vm_reaction_select (n, 2, idx, M, Bs) == VM_OK, "select with M");
    st = directions (n, m, 2, M, f, A, c, Bs, qdd, mu, R, &rc);
    CHECK (st == VM_OK, "eq51 full M: status %d", st);
    CHECK (relerr (1, qdd + 0, Mif + 0, 1.0) <= 1e-13 && relerr (1, qdd + 2, Mif + 2, 1.0) <= 1e-13
             && relerr (1, qdd + 4, Mif + 4, 1.0) <= 1e-13,
           "eq51 full M: free components do not keep M^-1 f");
    CHECK (con_resid (m, n, A, qdd, c) <= TOL, "eq51 full M: constraint");
    CHECK (vm_reaction_select (n, 2, idx, NULL, Bs) == VM_OK, "select without M");
    st = directions (n, m, 2, M, f, A, c, Bs, qdd, mu, R, &rc);
    CHECK (st == VM_OK && R[0] == 0.0 && R[2] == 0.0 && R[4] == 0.0 && R[3] == mu[0]
             && R[1] == mu[1],
           "select without M: R vanishes off idx (status %d)", st);
    CHECK (con_resid (m, n, A, qdd, c) <= TOL, "select without M: constraint");
  }
}

/* ---- 7. singular and invalid cases ------------------------------------------------------------- */
static void
test_singular (void)
{
  double I2[4] = { 1, 0, 0, 1 }, I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, f3[3] = { 1, 2, 3 };
  double qdd[3], lam[3], R[3], rc, mu[3];
  int st;
  /* two identical constraint rows */
  {
    double A[6] = { 1, 1, 2, 2, -1, -1 }, c[2] = { 0.5, 0.5 };
    st = ideal (3, 2, I3, f3, A, c, qdd, lam, R, &rc);
    CHECK (st == VM_ESINGULAR && rc < VM_REACTION_RCOND_MIN, "identical rows: status %d rcond %g",
           st, rc);
    CHECK (all_nan (3, qdd) && all_nan (2, lam) && all_nan (3, R), "identical rows: NaN outputs");
  }
  /* nearly dependent rows (1, 0, 0) and (1, delta, 0): scaled S has smallest eigenvalue
   * 1 - cos(angle) ~ delta^2 / 2, and its rcond ~ delta^2 / 4:  delta = 1e-4 passes (2.5e-9),
   * delta = 1e-8 fails (2.5e-17 < 1e-13) */
  {
    double d1 = 1e-4, d2 = 1e-8;
    double A1[6] = { 1, 1, 0, d1, 0, 0 }, A2[6] = { 1, 1, 0, d2, 0, 0 }, c[2] = { 0.1, 0.2 };
    double ref[3] = { 0.1, (0.2 - 0.1) / d1, 3 };
    st = ideal (3, 2, I3, f3, A1, c, qdd, lam, NULL, &rc);
    CHECK (st == VM_OK && rc > 0.5 * d1 * d1 / 4 && rc < 2 * d1 * d1 / 4,
           "near-dependent 1e-4: status %d rcond %g", st, rc);
    /* the normal equations lose eps / rcond ~ 1e-7 relative accuracy here */
    CHECK (relerr (3, qdd, ref, 1.0) <= 1e-6, "near-dependent 1e-4: qddot err %g",
           relerr (3, qdd, ref, 1.0));
    st = ideal (3, 2, I3, f3, A2, c, qdd, lam, NULL, &rc);
    CHECK (st == VM_ESINGULAR && rc < VM_REACTION_RCOND_MIN,
           "near-dependent 1e-8: status %d rcond %g",
           st, rc);
  }
  /* more constraints than coordinates, and a zero constraint row */
  {
    double A[6] = { 1, 0, 1, 0, 1, 1 }, c[3] = { 0, 0, 0 }, f2[2] = { 1, 1 }, A0[4] = { 1, 0, 0, 0 };
    st = ideal (2, 3, I2, f2, A, c, qdd, lam, NULL, &rc);
    CHECK (st == VM_ESINGULAR && rc < VM_REACTION_RCOND_MIN, "m > n: status %d rcond %g", st, rc);
    st = ideal (2, 2, I2, f2, A0, c, qdd, lam, NULL, &rc);
    CHECK (st == VM_ESINGULAR && rc == 0.0, "zero row: status %d rcond %g", st, rc);
  }
  /* mass matrix not SPD */
  {
    double A[2] = { 1, 1 }, c = 0, f2[2] = { 1, 1 };
    double Mneg[4] = { 1, 0, 0, -1 }, Mind[4] = { 1, 2, 2, 1 }, Masym[4] = { 1, 0.5, 0.2, 1 };
    double Mnear[4] = { 1, 1 - 1e-15, 1 - 1e-15, 1 }, Mzero[4] = { 0, 0, 0, 1 };
    st = ideal (2, 1, Mneg, f2, A, &c, qdd, lam, NULL, &rc);
    CHECK (st == VM_ENOTSPD && all_nan (2, qdd), "M negative diagonal: status %d", st);
    st = ideal (2, 1, Mind, f2, A, &c, qdd, lam, NULL, &rc);
    CHECK (st == VM_ENOTSPD && rc == 0.0, "M indefinite: status %d rcond %g", st, rc);
    st = ideal (2, 1, Masym, f2, A, &c, qdd, lam, NULL, &rc);
    CHECK (st == VM_ENOTSPD, "M not symmetric: status %d", st);
    st = ideal (2, 1, Mnear, f2, A, &c, qdd, lam, NULL, &rc);
    CHECK (st == VM_ENOTSPD && rc < VM_REACTION_RCOND_MIN, "M nearly singular: status %d rcond %g",
           st, rc);
    st = ideal (2, 1, Mzero, f2, A, &c, qdd, lam, NULL, &rc);
    CHECK (st == VM_ENOTSPD, "M zero diagonal: status %d", st);
    st = directions (2, 1, 1, Mind, f2, A, &c, A, qdd, mu, NULL, &rc);
    CHECK (st == VM_ENOTSPD, "directions, M indefinite: status %d", st);
    st = explicit_r (2, Mind, f2, NULL, NULL, qdd, NULL, &rc);
    CHECK (st == VM_ENOTSPD && all_nan (2, qdd), "explicit, M indefinite: status %d", st);
    /* asymmetry below the tolerance is accepted (lower triangle used) */
    {
      double Mok[4] = { 2, 0.5, 0.5 * (1 + 1e-13), 1 };
      st = ideal (2, 1, Mok, f2, A, &c, qdd, lam, NULL, &rc);
      CHECK (st == VM_OK, "M asymmetric by 1e-13 relative: status %d", st);
    }
  }
  /* fewer reaction directions than constraints; dependent directions with k > m */
  {
    double A[6] = { 1, 0, 0, 1, 0, 0 }, c[2] = { 0, 0 }, B1[3] = { 1, 0, 0 };
    double Bdup[9] = { 1, 1, 0, 0, 0, 1, 0, 0, 0 };   /* rows e1, e1, e2 */
    st = directions (3, 2, 1, I3, f3, A, c, B1, qdd, mu, R, &rc);
    CHECK (st == VM_EOVERDET && all_nan (3, qdd) && all_nan (1, mu), "k < m: status %d", st);
    st = directions (3, 2, 3, I3, f3, A, c, Bdup, qdd, mu, R, &rc);
    CHECK (st == VM_ESINGULAR && rc < VM_REACTION_RCOND_MIN,
           "dependent directions: status %d rcond %g",
           st, rc);
    /* directions orthogonal (in M^{-1}) to a constraint normal: G = 0 rows, k > m */
    {
      double Bz[6] = { 0, 1, 0, 0, 1, 0 };   /* rows (0, 0, 1) and (1, 0, 0): G = [0 1; 0 0] */
      st = directions (3, 2, 2, I3, f3, A, c, Bz, qdd, mu, R, &rc);
      CHECK (st == VM_ESINGULAR, "directions missing constraint 2: status %d rcond %g", st, rc);
    }
  }
  /* m = 0: qddot = M^{-1} f, no reaction; k > m = 0: mu = 0 */
  {
    double M[4] = { 2, 0, 0, 4 }, f2[2] = { 1, 2 }, B[2] = { 1, 0 };
    st = ideal (2, 0, M, f2, NULL, NULL, qdd, NULL, R, &rc);
    CHECK (st == VM_OK && fabs (qdd[0] - 0.5) <= 2 * DBL_EPSILON && fabs (qdd[1] - 0.5) <= 2 * DBL_EPSILON && R[0] == 0
             && R[1] == 0 && rc == 1.0,
           "m = 0: status %d qddot (%.17g %.17g) rcond %.17g", st, qdd[0], qdd[1], rc);
    st = directions (2, 0, 1, M, f2, NULL, NULL, B, qdd, mu, R, &rc);
    CHECK (st == VM_OK && fabs (qdd[0] - 0.5) <= 2 * DBL_EPSILON && mu[0] == 0.0 && R[0] == 0.0,
           "m = 0, k = 1: status %d", st);
  }
}

static void
test_arguments (void)
{
  double I2[4] = { 1, 0, 0, 1 }, f[2] = { 1, 1 }, A[2] = { 1, 0 }, c = 0, qdd[2], lam, rc, pw;
  double bad[4];
  size_t lw, liw, lw2, liw2;
  int st, i, idx[2] = { 0, 0 };
  ws_t ws;
  CHECK (ws_alloc (&ws, 2, 1, 2), "workspace");
  /* NaN and Inf in each input */
  for (i = 0; i < 2; i++)
    {
      double v = i == 0 ? NAN : INFINITY;
      memcpy (bad, I2, sizeof I2);
      bad[1] = v;
      bad[2] = v;
      st = vm_reaction_ideal (PROB (2, 1, 0, bad, f, A, &c, NULL), qdd, &lam, NULL, &rc,
                              WORK (ws.w, ws.iw));
      CHECK (st == VM_EARG && all_nan (2, qdd) && isnan (rc), "non-finite M: status %d", st);
      bad[0] = f[0];
      bad[1] = v;
      st = vm_reaction_ideal (PROB (2, 1, 0, I2, bad, A, &c, NULL), qdd, &lam, NULL, &rc,
                              WORK (ws.w, ws.iw));
      CHECK (st == VM_EARG, "non-finite f: status %d", st);
      bad[0] = v;
      bad[1] = 0;
      st = vm_reaction_ideal (PROB (2, 1, 0, I2, f, bad, &c, NULL), qdd, &lam, NULL, &rc,
                              WORK (ws.w, ws.iw));
      CHECK (st == VM_EARG, "non-finite A: status %d", st);
      st = vm_reaction_ideal (PROB (2, 1, 0, I2, f, A, &v, NULL), qdd, &lam, NULL, &rc,
                              WORK (ws.w, ws.iw));
      CHECK (st == VM_EARG, "non-finite c: status %d", st);
      st = vm_reaction_directions (PROB (2, 1, 1, I2, f, A, &c, bad), qdd, &lam, NULL, &rc,
                                   WORK (ws.w, ws.iw));
      CHECK (st == VM_EARG && all_nan (2, qdd), "non-finite B: status %d", st);
      st = vm_reaction_explicit (PROB (2, 0, 0, I2, f, NULL, NULL, NULL), bad, NULL, qdd, NULL,
                                 &rc, WORK (ws.w, ws.iw));
      CHECK (st == VM_EARG, "non-finite Rx: status %d", st);
      st = vm_reaction_explicit (PROB (2, 0, 0, I2, f, NULL, NULL, NULL), A, bad, qdd, &pw, &rc,
                                 WORK (ws.w, ws.iw));
      CHECK (st == VM_EARG && isnan (pw), "non-finite qdot: status %d", st);
    }
  /* NULL pointers and sizes */
  CHECK (vm_reaction_ideal (PROB (2, 1, 0, NULL, f, A, &c, NULL), qdd, NULL, NULL, NULL,
                            WORK (ws.w, ws.iw)) == VM_EARG,
         "M NULL");
  CHECK (vm_reaction_ideal (PROB (2, 1, 0, I2, f, NULL, &c, NULL), qdd, NULL, NULL, NULL,
                            WORK (ws.w, ws.iw)) == VM_EARG,
         "A NULL with m > 0");
  CHECK (vm_reaction_ideal (PROB (2, 1, 0, I2, f, A, &c, NULL), NULL, NULL, NULL, NULL,
                            WORK (ws.w, ws.iw)) == VM_EARG,
         "qddot NULL");
  CHECK (vm_reaction_ideal (PROB (2, 1, 0, I2, f, A, &c, NULL), qdd, NULL, NULL, NULL, WORK (NULL,
                                                                                             ws.iw)) == VM_EARG,
         "work NULL");
  CHECK (vm_reaction_ideal (PROB (0, 0, 0, I2, f, A, &c, NULL), qdd, NULL, NULL, NULL, WORK (ws.w,
                                                                                             ws.iw)) == VM_EARG,
         "n = 0");
  CHECK (vm_reaction_ideal (PROB (2, -1, 0, I2, f, A, &c, NULL), qdd, NULL, NULL, NULL,
                            WORK (ws.w, ws.iw)) == VM_EARG,
         "m < 0");
  CHECK (vm_reaction_directions (PROB (2, 1, 1, I2, f, A, &c, NULL), qdd, NULL, NULL, NULL,
                                 WORK (ws.w, ws.iw))
           == VM_EARG, "B NULL");
  CHECK (vm_reaction_directions (PROB (2, 1, -1, I2, f, A, &c, A), qdd, NULL, NULL, NULL,
                                 WORK (ws.w, ws.iw))
           == VM_EARG, "k < 0");
  CHECK (vm_reaction_explicit (PROB (2, 0, 0, I2, f, NULL, NULL, NULL), A, NULL, qdd, &pw, NULL,
                               WORK (ws.w, ws.iw)) == VM_EARG,
         "power without qdot");
  CHECK (vm_reaction_work_size (0, 0, 0, &lw, &liw) == VM_EARG
           && vm_reaction_work_size (1, -1, 0, &lw, &liw) == VM_EARG
           && vm_reaction_work_size (1, 0, VM_REACTION_NMAX + 1, &lw, &liw) == VM_EARG
           && vm_reaction_work_size (1, 0, 0, NULL, &liw) == VM_EARG,
         "work_size: bad arguments");
  CHECK (vm_reaction_work_size (1, 0, 0, &lw, &liw) == VM_OK && lw >= 1 && liw >= 1,
         "work_size n = 1");
  CHECK (vm_reaction_work_size (10, 3, 4, &lw, &liw) == VM_OK
           && vm_reaction_work_size (10, 3, 0, &lw2, &liw2) == VM_OK && lw >= lw2 && liw >= liw2,
         "work_size monotone in k");
  CHECK (vm_reaction_work_size (VM_REACTION_NMAX, VM_REACTION_NMAX, VM_REACTION_NMAX, &lw, &liw)
           == (sizeof (size_t) >= 8 ? VM_OK : VM_EARG), "work_size at NMAX");
  CHECK (vm_reaction_select (2, 2, idx, NULL, bad) == VM_EARG, "select: repeated index");
  idx[1] = 2;
  CHECK (vm_reaction_select (2, 2, idx, NULL, bad) == VM_EARG, "select: index out of range");
  CHECK (vm_reaction_select (2, 3, idx, NULL, bad) == VM_EARG, "select: k > n");
  ws_free (&ws);
  /* status strings */
  {
    const char *s1 = vm_status_string (VM_ENOTSPD), *s2 = vm_status_string (VM_ESINGULAR),
               *s3 = vm_status_string (VM_EOVERDET), *u = vm_status_string (-12345);
    CHECK (s1 && s2 && s3 && strcmp (s1, u) && strcmp (s2, u) && strcmp (s3, u) && strcmp (s1, s2)
             && strcmp (s2, s3),
           "status strings");
  }
}

/* The workspace is reused across calls without clearing: results are identical */
static void
test_reuse (void)
{
  double M[16], f[4], A[8], c[2], B[12], q1[4], q2[4], m1[3], m2[3];
  int i;
  ws_t ws;
  random_spd (4, M);
  for (i = 0; i < 4; i++)
    f[i] = urand ();
  for (i = 0; i < 8; i++)
    A[i] = urand ();
  for (i = 0; i < 12; i++)
    B[i] = urand ();
  c[0] = 1;
  c[1] = -1;
  CHECK (ws_alloc (&ws, 4, 2, 3), "workspace");
  CHECK (vm_reaction_directions (PROB (4, 2, 3, M, f, A, c, B), q1, m1, NULL, NULL, WORK (ws.w,
                                                                                          ws.iw)) == VM_OK
           && vm_reaction_ideal (PROB (4, 2, 0, M, f, A, c, NULL), q2, m2, NULL, NULL, WORK (ws.w,
                                                                                             ws.iw)) == VM_OK
           && vm_reaction_explicit (PROB (4, 0, 0, M, f, NULL, NULL, NULL), NULL, NULL, q2, NULL,
                                    NULL, WORK (ws.w, ws.iw)) == VM_OK
           && vm_reaction_directions (PROB (4, 2, 3, M, f, A, c, B), q2, m2, NULL, NULL,
                                      WORK (ws.w, ws.iw))
                == VM_OK,
         "reuse: statuses");
  CHECK (memcmp (q1, q2, sizeof q1) == 0 && memcmp (m1, m2, sizeof m1) == 0,
         "reuse: results differ");
  /* a constant mass matrix: the factor left by any solver is reused, with identical results, also
   * after a call with other sizes m, k on the same workspace */
  {
    double q3[4], l3[2], q4[4], l4[2], r3, r4, f2[4];
    for (i = 0; i < 4; i++)
      f2[i] = f[i] + 0.5;
    CHECK (vm_reaction_ideal (PROB (4, 2, 0, M, f2, A, c, NULL), q3, l3, NULL, &r3, WORK (ws.w,
                                                                                          ws.iw)) == VM_OK, "ideal");
    CHECK (vm_reaction_directions (PROB (4, 2, 3, M, f, A, c, B), q1, m1, NULL, NULL, WORK (ws.w,
                                                                                            ws.iw)) == VM_OK,
           "directions in between");
    CHECK (vm_reaction_ideal_fixed_mass (PROB (4, 2, 0, M, f2, A, c, NULL), q4, l4, NULL, &r4,
                                         WORK (ws.w, ws.iw)) == VM_OK
           && memcmp (q3, q4, sizeof q3) == 0 && memcmp (l3, l4, sizeof l3) == 0 && r3 == r4,
           "fixed mass: same results as a full solve");
  }
  ws_free (&ws);
}

int
main (void)
{
  test_pendulum ();
  test_disk ();
  test_gauss ();
  test_scaling ();
  test_pars_confined ();
  test_pars_extra ();
  test_explicit_general ();
  test_directions_general ();
  test_singular ();
  test_arguments ();
  test_reuse ();
  return vmtest_finish ("test_reaction");
}
