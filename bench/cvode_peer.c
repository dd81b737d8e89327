/* cvode_peer.c -- the benchmark peer of bench/bench_integrate.m: SUNDIALS CVODE integrating the
 * same reduced first-order equations as gauss_integrate (ideal reaction, Gauss's principle), with
 * the accelerations written out by hand in C.
 *
 * Problems (state y = [q; qdot]):
 *   disk  the rolling disk of Rothkopf and Horowitz: q = (x, y, theta, phi), L = M/2 (xd^2 + yd^2)
 *         + IS/2 thd^2 + ID/2 phd^2 + M g x sin(alpha), constraints g1 = xd^2 + yd^2 - R^2 thd^2,
 *         g2 = xd sin(phi) - yd cos(phi); g = 9.8, alpha = pi/6, M = 1, R = 1, IS = 1/2, ID = 1/4;
 *         q(0) = 0, qdot(0) = (5, 0, 5, 1); t in [0, 2 pi].
 *   pars  the particle of Pars (Acharya and Sengupta eq. 44): unit mass, no force, constraint
 *         x3 v1 - v2 = 0; x(0) = (0.1, -0.2, 0.5), v(0) = (1, 0.5, 0.7); t in [0, 10].
 *
 * Accelerations (derived from Gauss's principle; see bench/disk_rhs.m and bench/pars_rhs.m, which
 * compute the same numbers in the same order): minimize (qdd - M^-1 f)' M (qdd - M^-1 f) subject
 * to the differentiated constraints A qdd = c, A = dg/dqdot, c = -(dg/dq) qdot, so
 *   qdd = M^-1 (f + A' lambda),  (A M^-1 A') lambda = c - A M^-1 f.
 * Disk: M = diag(M, M, IS, ID), f = (M g sin(alpha), 0, 0, 0), A = [2 xd, 2 yd, -2 R^2 thd, 0;
 * sin(phi), -cos(phi), 0, 0], c = (0, -(xd cos(phi) + yd sin(phi)) phd); the 2 x 2 system is
 * solved by Cramer's rule (valid off the constraint manifold too, as varmech's ideal law).
 * Pars: lambda = -v1 v3 / (1 + x3^2), qdd = (x3 lambda, -lambda, 0).
 *
 * Usage:  cvode_peer PROBLEM RTOL ATOL REPEAT [METHOD]
 *   PROBLEM  disk | pars
 *   METHOD   adams (default: Adams-Moulton, fixed-point iteration, the non-stiff setting),
 *            adams-newton (Adams-Moulton, Newton with the dense direct solver) or
 *            bdf (BDF, Newton with the dense direct solver).  Jacobians by CVODE's difference
 *            quotients.
 * One run = create the CVODE memory, vector, solvers, integrate from t0 to tf (stop time tf, so
 * the end state is a step end, not an interpolation) and free everything.  Prints one line
 *   cvode problem=P method=M rtol=R atol=A time_ms=T steps=S nfev=F nfev_ls=FL nniter=NI
 *         netf=E rhs_us=U y=y1,y2,...
 * where time_ms is the best of REPEAT runs (CLOCK_MONOTONIC), nfev the RHS calls of the
 * integrator, nfev_ls those of the difference-quotient Jacobian, and rhs_us the time of one call
 * of the hand-written RHS (microbenchmark of 200000 calls on states near the initial one).  Exit status 1 on
 * bad arguments or a CVODE failure (message on stderr).
 *
 * Build (SUNDIALS >= 6, Debian package libsundials-dev):
 *   gcc -std=c99 -O2 -Wall -Wextra -o cvode_peer bench/cvode_peer.c \
 *       -lsundials_cvode -lsundials_nvecserial -lsundials_sunmatrixdense \
 *       -lsundials_sunlinsoldense -lsundials_sunnonlinsolfixedpoint -lsundials_generic -lm
 */
#define _POSIX_C_SOURCE 200112L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

/* ---- the rolling disk ---- */
static const double DG = 9.8, DM = 1.0, DR = 1.0, DIS = 0.5, DID = 0.25;
#define DALPHA (3.14159265358979323846 / 6.0)

static void disk_f (const double *y, double *dy)
{
  const double xd = y[4], yd = y[5], thd = y[6], phd = y[7];
  const double s = sin (y[3]), c = cos (y[3]);
  const double gs = DG * sin (DALPHA);
  const double R2 = DR * DR;
  /* G = A M^-1 A', r = c - A M^-1 f */
  const double G11 = 4.0 * (xd * xd + yd * yd) / DM + 4.0 * R2 * R2 * thd * thd / DIS;
  const double G12 = 2.0 * (xd * s - yd * c) / DM;
  const double G22 = 1.0 / DM;
  const double r1 = -2.0 * xd * gs;
  const double r2 = -(xd * c + yd * s) * phd - s * gs;
  const double det = G11 * G22 - G12 * G12;
  const double l1 = (G22 * r1 - G12 * r2) / det;
  const double l2 = (G11 * r2 - G12 * r1) / det;
  (void) DID;  /* phi has no reaction: phidd = 0 whatever ID is */
  dy[0] = xd;
  dy[1] = yd;
  dy[2] = thd;
  dy[3] = phd;
  dy[4] = gs + (2.0 * xd * l1 + s * l2) / DM;
  dy[5] = (2.0 * yd * l1 - c * l2) / DM;
  dy[6] = -2.0 * R2 * thd * l1 / DIS;
  dy[7] = 0.0;
}

/* ---- the Pars particle ---- */
static void pars_f (const double *y, double *dy)
{
  const double x3 = y[2], v1 = y[3], v2 = y[4], v3 = y[5];
  const double lam = -v1 * v3 / (1.0 + x3 * x3);
  dy[0] = v1;
  dy[1] = v2;
  dy[2] = v3;
  dy[3] = x3 * lam;
  dy[4] = -lam;
  dy[5] = 0.0;
}

typedef struct {
  const char *name;
  int n;
  double t0, tf;
  double y0[8];
  void (*f) (const double *, double *);
} problem;

static const problem problems[] = {
  {"disk", 8, 0.0, 2.0 * 3.14159265358979323846, {0, 0, 0, 0, 5, 0, 5, 1}, disk_f},
  {"pars", 6, 0.0, 10.0, {0.1, -0.2, 0.5, 1.0, 0.5, 0.7}, pars_f},
};

static int rhs (realtype t, N_Vector y, N_Vector ydot, void *user)
{
  const problem *pb = (const problem *) user;
  (void) t;
  pb->f (N_VGetArrayPointer (y), N_VGetArrayPointer (ydot));
  return 0;
}

static double now_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

enum { M_ADAMS = 0, M_ADAMS_NEWTON, M_BDF };

typedef struct {
  long steps, nfev, nfev_ls, nniter, netf;
  double y[8];
} run_result;

#define CHECK(call) do { if ((call) < 0) { fprintf (stderr, "cvode_peer: %s failed\n", #call); \
                                            ok = 0; goto done; } } while (0)

static int run_once (SUNContext ctx, const problem *pb, int method, double rtol, double atol,
                     run_result *res)
{
  int ok = 1, i;
  void *mem = NULL;
  N_Vector y = NULL;
  SUNMatrix A = NULL;
  SUNLinearSolver LS = NULL;
  SUNNonlinearSolver NLS = NULL;
  realtype t;

  y = N_VNew_Serial (pb->n, ctx);
  if (y == NULL)
    return 0;
  for (i = 0; i < pb->n; i++)
    NV_Ith_S (y, i) = pb->y0[i];
  mem = CVodeCreate (method == M_BDF ? CV_BDF : CV_ADAMS, ctx);
  if (mem == NULL)
    {
      ok = 0;
      goto done;
    }
  CHECK (CVodeInit (mem, rhs, pb->t0, y));
  CHECK (CVodeSetUserData (mem, (void *) pb));
  CHECK (CVodeSStolerances (mem, rtol, atol));
  CHECK (CVodeSetMaxNumSteps (mem, 10000000L));
  CHECK (CVodeSetStopTime (mem, pb->tf));
  if (method == M_ADAMS)
    {
      NLS = SUNNonlinSol_FixedPoint (y, 0, ctx);
      if (NLS == NULL)
        {
          ok = 0;
          goto done;
        }
      CHECK (CVodeSetNonlinearSolver (mem, NLS));
    }
  else
    {
      A = SUNDenseMatrix (pb->n, pb->n, ctx);
      LS = SUNLinSol_Dense (y, A, ctx);
      if (A == NULL || LS == NULL)
        {
          ok = 0;
          goto done;
        }
      CHECK (CVodeSetLinearSolver (mem, LS, A));
    }
  CHECK (CVode (mem, pb->tf, y, &t, CV_NORMAL));
  CHECK (CVodeGetNumSteps (mem, &res->steps));
  CHECK (CVodeGetNumRhsEvals (mem, &res->nfev));
  res->nfev_ls = 0;
  if (LS != NULL)
    CHECK (CVodeGetNumLinRhsEvals (mem, &res->nfev_ls));
  CHECK (CVodeGetNumNonlinSolvIters (mem, &res->nniter));
  CHECK (CVodeGetNumErrTestFails (mem, &res->netf));
  for (i = 0; i < pb->n; i++)
    res->y[i] = NV_Ith_S (y, i);
done:
  if (mem != NULL)
    CVodeFree (&mem);
  if (NLS != NULL)
    SUNNonlinSolFree (NLS);
  if (LS != NULL)
    SUNLinSolFree (LS);
  if (A != NULL)
    SUNMatDestroy (A);
  N_VDestroy (y);
  return ok;
}

static void usage (void)
{
  fprintf (stderr, "usage: cvode_peer PROBLEM RTOL ATOL REPEAT [METHOD]\n"
           "  PROBLEM disk | pars; METHOD adams (default) | adams-newton | bdf\n");
}

int main (int argc, char **argv)
{
  const problem *pb = NULL;
  const char *mnames[] = {"adams", "adams-newton", "bdf"};
  int method = M_ADAMS, repeat, k, i;
  double rtol, atol, best = HUGE_VAL, rhs_us;
  char *end;
  SUNContext ctx;
  run_result res;

  if (argc < 5 || argc > 6)
    {
      usage ();
      return 1;
    }
  for (k = 0; k < (int) (sizeof problems / sizeof problems[0]); k++)
    if (strcmp (argv[1], problems[k].name) == 0)
      pb = &problems[k];
  rtol = strtod (argv[2], &end);
  if (*end != '\0' || !(rtol > 0.0))
    pb = NULL;
  atol = strtod (argv[3], &end);
  if (*end != '\0' || !(atol >= 0.0))
    pb = NULL;
  repeat = atoi (argv[4]);
  if (argc == 6)
    {
      method = -1;
      for (k = 0; k < 3; k++)
        if (strcmp (argv[5], mnames[k]) == 0)
          method = k;
    }
  if (pb == NULL || repeat < 1 || method < 0)
    {
      usage ();
      return 1;
    }
  if (SUNContext_Create (NULL, &ctx) != 0)
    {
      fprintf (stderr, "cvode_peer: SUNContext_Create failed\n");
      return 1;
    }
  for (k = 0; k < repeat; k++)
    {
      double t1 = now_seconds (), t2;
      if (!run_once (ctx, pb, method, rtol, atol, &res))
        {
          SUNContext_Free (&ctx);
          return 1;
        }
      t2 = now_seconds ();
      if (t2 - t1 < best)
        best = t2 - t1;
    }
  /* cost of one hand-written RHS call */
  {
    double y[8], dy[8], acc = 0.0, t1, t2;
    const long ncall = 200000;
    long c;
    for (i = 0; i < pb->n; i++)
      y[i] = pb->y0[i];
    t1 = now_seconds ();
    for (c = 0; c < ncall; c++)
      {
        y[0] = 1e-5 * (double) c;    /* a dependence, so the call is not hoisted; angles and */
        y[2] = 0.5 + y[0];           /* x3 range over [0, 2] and [0.5, 2.5] */
        y[3] = y[0];
        pb->f (y, dy);
        acc += dy[4];
      }
    t2 = now_seconds ();
    rhs_us = 1e6 * (t2 - t1) / (double) ncall;
    if (acc == 42.0)                 /* keep acc alive */
      fprintf (stderr, " ");
  }
  printf ("cvode problem=%s method=%s rtol=%.3g atol=%.3g time_ms=%.6f steps=%ld nfev=%ld "
          "nfev_ls=%ld nniter=%ld netf=%ld rhs_us=%.5f y=", pb->name, mnames[method], rtol, atol,
          1e3 * best, res.steps, res.nfev, res.nfev_ls, res.nniter, res.netf, rhs_us);
  for (i = 0; i < pb->n; i++)
    printf ("%s%.17g", i ? "," : "", res.y[i]);
  printf ("\n");
  SUNContext_Free (&ctx);
  return 0;
}
