/* test_integrate.c -- unit tests of the ODE integrators (csrc/reference/integrate.c), plain C, no Octave.
 *
 * Problems with closed forms: the harmonic oscillator x' = v, v' = -x; y' = -y + cos t; the
 * nonlinear y' = -y^3 (y = 1/sqrt(1 + 2t)); the falling body x'' = -g; y' = 1; the Kepler problem.
 * Tolerances follow from the order of the method: observed orders log2(e(h)/e(h/2)) within 0.2
 * of p for step sizes in the asymptotic range (errors far above rounding); DOPRI5 errors scale
 * like the tolerance; DOP853's coefficients satisfy the order conditions (all 200 rooted trees up
 * to order 8); cubic Hermite interpolation is bounded by h^4/384 max|y''''| plus the
 * nodal errors; Gauss methods conserve quadratic invariants up to rounding.  Measured values are
 * printed as "info:" lines. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference/integrate.h"
#include "base/vm_status.h"
#include "vmtest.h"

#define PI 3.14159265358979323846
#define GRAV 9.81

static const char *mname[] = { "DOPRI5", "GL4", "GL6", "RK4", "DOP853" };
static const int order_of[] = { 5, 4, 6, 4, 8 };
#define NMETHODS 5

/* the system argument of vm_ode_solve: y' = f(t, y) in R^n, event function ev, context ctx */
#define SYS(n, f, ev, ctx) (&(vm_ode_system) { (n), (f), (ev), (ctx) })

static int
adaptive (int m)
{
  return m == VM_ODE_DOPRI5 || m == VM_ODE_DOP853;
}

/* ---- right-hand sides -------------------------------------------------------------------------- */

typedef struct
{
  double tbad;      /* RHS misbehaves for t beyond tbad (in the direction of integration) */
  int code;         /* nonzero: return this code; 0: produce NaN */
  long nrhs;        /* evaluations seen by the RHS (to cross-check nfev) */
} ctx_t;

static int
rhs_osc (double t, const double *y, double *dy, void *c)
{
  (void) t;
  if (c)
    ((ctx_t *) c)->nrhs++;
  dy[0] = y[1];
  dy[1] = -y[0];
  return 0;
}

static int
rhs_pend (double t, const double *y, double *dy, void *c)
{
  (void) t;
  (void) c;
  dy[0] = y[1];
  dy[1] = -sin (y[0]);
  return 0;
}

static int
rhs_lin (double t, const double *y, double *dy, void *c)
{
  (void) c;
  dy[0] = -y[0] + cos (t);
  return 0;
}

static double
exact_lin (double t, double t0, double y0)
{
  const double cc = (y0 - 0.5 * (cos (t0) + sin (t0))) * exp (t0);
  return 0.5 * (cos (t) + sin (t)) + cc * exp (-t);
}

static int
rhs_cube (double t, const double *y, double *dy, void *c)
{
  (void) t;
  (void) c;
  dy[0] = -y[0] * y[0] * y[0];
  return 0;
}

static int
rhs_fall (double t, const double *y, double *dy, void *c)
{
  (void) t;
  (void) c;
  dy[0] = y[1];
  dy[1] = -GRAV;
  return 0;
}

static int
rhs_one (double t, const double *y, double *dy, void *c)
{
  (void) t;
  (void) y;
  (void) c;
  dy[0] = 1.0;
  return 0;
}

static int
rhs_square (double t, const double *y, double *dy, void *c)
{
  (void) t;
  (void) c;
  dy[0] = y[0] * y[0];
  return 0;
}

/* y' = -sign(y): reaches 0 at t = y0 and then chatters: the step size must underflow */
static int
rhs_chatter (double t, const double *y, double *dy, void *c)
{
  (void) t;
  (void) c;
  dy[0] = y[0] > 0.0 ? -1.0 : 1.0;
  return 0;
}

/* oscillator that fails (code or NaN) beyond ctx->tbad */
static int
rhs_bad (double t, const double *y, double *dy, void *c)
{
  ctx_t *x = c;
  dy[0] = y[1];
  dy[1] = -y[0];
  if (t > x->tbad)
    {
      if (x->code != 0)
        return x->code;
      dy[1] = NAN;
    }
  return 0;
}

/* ---- event functions --------------------------------------------------------------------------- */

static int
ev_x (double t, const double *y, double *g, void *c)
{
  (void) t;
  (void) c;
  g[0] = y[0];
  return 0;
}

static int
ev_xhalf (double t, const double *y, double *g, void *c)
{
  (void) t;
  (void) c;
  g[0] = y[0] - 0.5;
  return 0;
}

static int
ev_two (double t, const double *y, double *g, void *c)
{
  (void) t;
  (void) c;
  g[0] = y[0] - 0.7;
  g[1] = y[0] - 0.3;
  return 0;
}

static int
ev_bad (double t, const double *y, double *g, void *c)
{
  ctx_t *x = c;
  g[0] = y[0] - 0.5;
  if (t > x->tbad)
    {
      if (x->code != 0)
        return x->code;
      g[0] = NAN;
    }
  return 0;
}

/* ---- helpers ----------------------------------------------------------------------------------- */

static void
opts_for (vm_ode_opts *o, int method, double h_or_rtol)
{
  vm_ode_opts_init (o, method);
  if (adaptive (method))
    {
      o->rtol = h_or_rtol;
      o->atol = h_or_rtol;
    }
  else
    o->h = h_or_rtol;
}

/* max-norm error at tf of the oscillator (x, v) = (cos t, -sin t) */
static double
err_osc (int method, double hr, double tf, int *status)
{
  vm_ode_opts o;
  vm_ode_sol s;
  const double y0[2] = { 1.0, 0.0 };
  double e = NAN;
  opts_for (&o, method, hr);
  vm_ode_sol_init (&s);
  *status = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, tf, y0, NULL, 0, &o, &s);
  if (*status == VM_OK && s.npts > 0 && s.t[s.npts - 1] == tf)
    {
      const double *y = s.y + 2 * (s.npts - 1);
      e = fmax (fabs (y[0] - cos (tf)), fabs (y[1] + sin (tf)));
    }
  vm_ode_sol_free (&s);
  return e;
}

static double
err_lin (int method, double hr, double t0, double tf, int *status)
{
  vm_ode_opts o;
  vm_ode_sol s;
  const double y0 = 0.3;
  double e = NAN;
  opts_for (&o, method, hr);
  vm_ode_sol_init (&s);
  *status = vm_ode_solve (SYS (1, rhs_lin, NULL, NULL), t0, tf, &y0, NULL, 0, &o, &s);
  if (*status == VM_OK && s.npts > 0 && s.t[s.npts - 1] == tf)
    e = fabs (s.y[s.npts - 1] - exact_lin (tf, t0, y0));
  vm_ode_sol_free (&s);
  return e;
}

static double
err_cube (int method, double hr, double tf, int *status)
{
  vm_ode_opts o;
  vm_ode_sol s;
  const double y0 = 1.0;
  double e = NAN;
  opts_for (&o, method, hr);
  vm_ode_sol_init (&s);
  *status = vm_ode_solve (SYS (1, rhs_cube, NULL, NULL), 0.0, tf, &y0, NULL, 0, &o, &s);
  if (*status == VM_OK && s.npts > 0 && s.t[s.npts - 1] == tf)
    {
      /* maximum over the trajectory: the end-point error of RK4 passes near a zero */
      size_t k;
      e = 0.0;
      for (k = 0; k < s.npts; k++)
        e = fmax (e, fabs (s.y[k] - 1.0 / sqrt (1.0 + 2.0 * s.t[k])));
    }
  vm_ode_sol_free (&s);
  return e;
}

/* ---- observed orders --------------------------------------------------------------------------- */

static void
test_orders (void)
{
  /* step pairs in the asymptotic range, errors far above rounding.  RK4 on y' = -y^3 needs
   * smaller steps: its leading error coefficient is small (the error changes sign between
   * h = 0.2 and h = 0.1), at h = 0.1 the observed "order" is 2.5, at 0.0125 it is 3.9. */
  static const int methods[] = { VM_ODE_RK4, VM_ODE_GL4, VM_ODE_GL6 };
  static const double hcoarse[3][3] = { { 0.1, 0.1, 0.0125 }, { 0.1, 0.1, 0.1 }, { 0.2, 0.2, 0.2 } };
  int im, prob;
  for (im = 0; im < 3; im++)
    {
      const int m = methods[im];
      for (prob = 0; prob < 3; prob++)
        {
          const double h = hcoarse[im][prob];
          int s1, s2;
          double e1, e2, p;
          static const char *pname[] = { "oscillator", "y'=-y+cos t", "y'=-y^3" };
          if (prob == 0)
            {
              e1 = err_osc (m, h, 10.0, &s1);
              e2 = err_osc (m, h / 2, 10.0, &s2);
            }
          else if (prob == 1)
            {
              e1 = err_lin (m, h, 0.0, 10.0, &s1);
              e2 = err_lin (m, h / 2, 0.0, 10.0, &s2);
            }
          else
            {
              e1 = err_cube (m, h, 10.0, &s1);
              e2 = err_cube (m, h / 2, 10.0, &s2);
            }
          p = log2 (e1 / e2);
          printf ("info: %s on %s: err(h=%g) %.3e, err(h/2) %.3e, observed order %.3f\n", mname[m],
                  pname[prob], h, e1, e2, p);
          CHECK (s1 == VM_OK && s2 == VM_OK, "%s: status %d %d", mname[m], s1, s2);
          CHECK (e2 > 1e-13, "%s %s: error %.3e too close to rounding for an order test", mname[m],
                 pname[prob], e2);
          CHECK (fabs (p - order_of[m]) <= 0.2, "%s on %s: observed order %.3f, expected %d",
                 mname[m], pname[prob], p, order_of[m]);
        }
    }

  /* DOPRI5: oscillator over 10 periods; the global error follows the tolerance */
  {
    const double T = 20.0 * PI;
    int s6, s9, s10;
    const double e6 = err_osc (VM_ODE_DOPRI5, 1e-6, T, &s6);
    const double e9 = err_osc (VM_ODE_DOPRI5, 1e-9, T, &s9);
    const double e10 = err_osc (VM_ODE_DOPRI5, 1e-10, T, &s10);
    int sl6, sl9;
    const double l6 = err_lin (VM_ODE_DOPRI5, 1e-6, 0.0, 10.0, &sl6);
    const double l9 = err_lin (VM_ODE_DOPRI5, 1e-9, 0.0, 10.0, &sl9);
    printf ("info: DOPRI5 oscillator 10 periods: err(rtol 1e-6) %.3e, err(1e-9) %.3e, err(1e-10) "
            "%.3e, ratio(1e-6/1e-9) %.1f\n", e6, e9, e10, e6 / e9);
    printf ("info: DOPRI5 y'=-y+cos t: err(rtol 1e-6) %.3e, err(1e-9) %.3e, ratio %.1f\n", l6, l9,
            l6 / l9);
    CHECK (s6 == VM_OK && s9 == VM_OK && s10 == VM_OK && sl6 == VM_OK && sl9 == VM_OK,
           "DOPRI5 status");
    CHECK (e10 < 1e-8, "DOPRI5 rtol 1e-10: error %.3e over 10 periods", e10);
    CHECK (e9 < e6 && e10 < e9, "DOPRI5: errors do not decrease with rtol");
    CHECK (e6 / e9 >= 1e2 && e6 / e9 <= 1e4, "DOPRI5 oscillator tolerance ratio %.1f", e6 / e9);
    CHECK (l6 / l9 >= 1e2 && l6 / l9 <= 1e4, "DOPRI5 y'=-y+cos t tolerance ratio %.1f", l6 / l9);
  }
}

/* ---- DOP853 ---------------------------------------------------------------------------------- */

/* Order conditions over all rooted trees up to order 8 (Butcher): tree t = [t_1, ..., t_m] has
 * the stage vector g(t)_i = prod_k (A g(t_k))_i, the density gamma(t) = |t| prod_k gamma(t_k), and
 * a method of order p satisfies b . g(t) = 1/gamma(t) for |t| <= p.  A dense output of order q
 * satisfies b(theta) . g(t) = theta^|t| / gamma(t) for |t| <= q.  Trees are generated as multisets
 * of subtrees (indices non-increasing), each exactly once: 1, 1, 2, 4, 9, 20, 48, 115 of orders
 * 1..8. */
#define DOP_NS 16
#define MAX_TREES 200
typedef struct
{
  int order;
  double gamma;
  double g[DOP_NS], ag[DOP_NS];
} rtree;

static rtree trees[MAX_TREES];
static int ntrees;

static void
tree_add (const double *a, int order, const int *kids, int nk)
{
  rtree *t;
  int i, j, k;
  if (ntrees >= MAX_TREES)
    {
      ntrees++;                 /* counted, not stored: the count check fails */
      return;
    }
  t = &trees[ntrees++];
  t->order = order;
  t->gamma = order;
  for (i = 0; i < DOP_NS; i++)
    t->g[i] = 1.0;
  for (k = 0; k < nk; k++)
    {
      t->gamma *= trees[kids[k]].gamma;
      for (i = 0; i < DOP_NS; i++)
        t->g[i] *= trees[kids[k]].ag[i];
    }
  for (i = 0; i < DOP_NS; i++)
    {
      double acc = 0.0;
      for (j = 0; j < i; j++)
        acc += a[i * DOP_NS + j] * t->g[j];
      t->ag[i] = acc;
    }
}

static void
tree_gen (const double *a, int order, int rem, int maxidx, int *kids, int nk)
{
  int j;
  if (rem == 0)
    {
      tree_add (a, order, kids, nk);
      return;
    }
  for (j = maxidx; j >= 0; j--)
    if (j < MAX_TREES && trees[j].order <= rem)
      {
        kids[nk] = j;
        tree_gen (a, order, rem - trees[j].order, j, kids, nk + 1);
      }
}

/* max over the trees of order `order` of |w . g(t) - rhs(t)|, rhs = theta^|t|/gamma (theta = 1: the
 * step) or 0 (error weights: zero = 1), over the first ns stages */
static double
cond_residual (const double *wts, int ns, int order, double theta, int zero)
{
  double worst = 0.0;
  int k, i;
  for (k = 0; k < ntrees && k < MAX_TREES; k++)
    if (trees[k].order == order)
      {
        double acc = 0.0;
        for (i = 0; i < ns; i++)
          acc += wts[i] * trees[k].g[i];
        worst = fmax (worst, fabs (acc - (zero ? 0.0 : pow (theta, order) / trees[k].gamma)));
      }
  return worst;
}

static void
test_dop853_coeffs (void)
{
  static const int expected[9] = { 0, 1, 1, 2, 4, 9, 20, 48, 115 };
  const vm_dop853_coeffs *co = vm_ode_dop853_coeffs ();
  /* the residuals are rounding errors of the double coefficients, well below tol; a change of
   * 1e-12 (relative) in one of the large coefficients raises them to 1e-13 .. 1e-11, above it */
  const double tol = 2e-14;
  double worst, w5_low = 0.0, w5_6, w3_low = 0.0, w3_4, rows = 0.0, bsum = 0.0, e3[12];
  int kids[8], order, i, j, count_ok = 1;

  ntrees = 0;
  for (order = 1; order <= 8; order++)
    {
      const int before = ntrees;
      tree_gen (co->a, order, order - 1, before - 1, kids, 0);
      count_ok &= ntrees - before == expected[order];
    }
  CHECK (count_ok && ntrees == 200, "rooted trees up to order 8: %d, expected 200", ntrees);

  /* c = row sums of A (all 16 stages), b is row 12 of A, the step has order 8 */
  for (i = 1; i < DOP_NS; i++)
    {
      double acc = 0.0;
      for (j = 0; j < i; j++)
        acc += co->a[i * DOP_NS + j];
      rows = fmax (rows, fabs (acc - co->c[i]));
    }
  for (i = 0; i < 12; i++)
    bsum += co->b[i];
  CHECK (rows <= tol && co->c[0] == 0.0 && co->c[11] == 1.0 && co->c[12] == 1.0,
         "DOP853 row sums of A differ from c by %.3e", rows);
  CHECK (fabs (bsum - 1.0) <= tol && co->b == co->a + 12 * DOP_NS, "DOP853 sum b = %.17g", bsum);
  for (order = 1; order <= 8; order++)
    {
      /* the bushy tree [., ., ...] alone: sum b c^(k-1) = 1/k */
      double acc = 0.0;
      for (i = 0; i < 12; i++)
        acc += co->b[i] * pow (co->c[i], order - 1);
      CHECK (fabs (acc - 1.0 / order) <= tol, "DOP853 sum b c^%d = %.17g, expected 1/%d",
             order - 1, acc, order);
    }
  worst = 0.0;
  for (order = 1; order <= 8; order++)
    worst = fmax (worst, cond_residual (co->b, 12, order, 1.0, 0));
  printf ("info: DOP853 order conditions, 200 trees up to order 8: max residual %.2e, row sums "
          "%.2e\n", worst, rows);
  CHECK (worst <= tol, "DOP853 order conditions: max residual %.3e", worst);

  /* error weights: er annihilates the trees up to order 5 but not 6 (a 5th-order estimate of
   * the local error); b - bhh up to order 3 but not 4 */
  for (i = 0; i < 12; i++)
    e3[i] = co->b[i] - co->bhh[i];
  for (order = 1; order <= 5; order++)
    w5_low = fmax (w5_low, cond_residual (co->er, 12, order, 1.0, 1));
  w5_6 = cond_residual (co->er, 12, 6, 1.0, 1);
  for (order = 1; order <= 3; order++)
    w3_low = fmax (w3_low, cond_residual (e3, 12, order, 1.0, 1));
  w3_4 = cond_residual (e3, 12, 4, 1.0, 1);
  printf ("info: DOP853 error weights: er on trees <= 5 %.2e (order 6: %.2e), b - bhh on trees "
          "<= 3 %.2e (order 4: %.2e)\n", w5_low, w5_6, w3_low, w3_4);
  CHECK (w5_low <= tol && w5_6 > 1e-6, "DOP853 5th-order estimate: %.3e, %.3e", w5_low, w5_6);
  CHECK (w3_low <= tol && w3_4 > 1e-6, "DOP853 3rd-order estimate: %.3e, %.3e", w3_low, w3_4);
  CHECK (co->bhh[0] != 0.0 && co->bhh[8] != 0.0 && co->bhh[11] != 0.0, "DOP853 bhh stages");

  /* CONTD8: u(theta) = y0 + h sum_i b_i(theta) k_i over the 16 stages, order 7, b(1) = b */
  {
    static const double th[6] = { 0.1, 0.3, 0.5, 0.7, 0.9, 1.0 };
    double wd = 0.0, w8 = 0.0, wb1 = 0.0;
    int it;
    for (it = 0; it < 6; it++)
      {
        const double s = th[it], s1 = 1.0 - s;
        double bt[DOP_NS];
        for (i = 0; i < DOP_NS; i++)
          {
            /* the coefficient vectors of CONTD8's rcont1..rcont8 (k13 = F at the new point) */
            const double r1 = i < 13 ? co->a[12 * DOP_NS + i] : 0.0, r2 = (i == 0) - r1;
            const double r3 = r1 - (i == 12) - r2;
            const double *d = co->d;
            const double conpar = d[i] + s * (d[DOP_NS + i] + s1 * (d[2 * DOP_NS + i]
                                                                  + s * d[3 * DOP_NS + i]));
            bt[i] = s * (r1 + s1 * (r2 + s * (r3 + s1 * conpar)));
          }
        for (order = 1; order <= 7; order++)
          wd = fmax (wd, cond_residual (bt, DOP_NS, order, s, 0));
        if (s < 1.0)
          w8 = fmax (w8, cond_residual (bt, DOP_NS, 8, s, 0));
        else
          for (i = 0; i < DOP_NS; i++)
            wb1 = fmax (wb1, fabs (bt[i] - (i < 12 ? co->b[i] : 0.0)));
      }
    printf ("info: DOP853 dense output conditions (theta 0.1 .. 1, trees <= 7): max residual %.2e "
            "(order 8: %.2e)\n", wd, w8);
    CHECK (wd <= tol, "DOP853 dense output order 7: residual %.3e", wd);
    CHECK (w8 > 1e-8, "DOP853 dense output: order 8 conditions hold (%.3e)?", w8);
    CHECK (wb1 <= tol, "DOP853 dense output at theta = 1 differs from b by %.3e", wb1);
  }
}

static int
rhs_kepler (double t, const double *y, double *dy, void *c)
{
  const double r2 = y[0] * y[0] + y[1] * y[1], r3 = r2 * sqrt (r2);
  (void) t;
  (void) c;
  dy[0] = y[2];
  dy[1] = y[3];
  dy[2] = -y[0] / r3;
  dy[3] = -y[1] / r3;
  return 0;
}

/* fixed steps h through DOP853's controller: h0 = hmax = h and tolerances so loose that every
 * step is accepted and the controller asks for more than hmax */
static void
dop853_fixed (vm_ode_opts *o, double h)
{
  vm_ode_opts_init (o, VM_ODE_DOP853);
  o->rtol = o->atol = 1e3;
  o->h0 = o->hmax = h;
}

static double
osc_err_at (const vm_ode_sol *s, size_t k)
{
  const double *y = s->y + 2 * k;
  return fmax (fabs (y[0] - cos (s->t[k])), fabs (y[1] + sin (s->t[k])));
}

static void
test_dop853_accuracy (void)
{
  /* observed order with fixed steps: oscillator, y' = -y + cos t forwards and backwards */
  {
    static const char *pname[3] = { "oscillator", "y'=-y+cos t", "y'=-y+cos t backwards" };
    const double h = 0.5;
    int prob;
    for (prob = 0; prob < 3; prob++)
      {
        double e[2];
        long nacc[2], nrej[2];
        int st[2], r;
        for (r = 0; r < 2; r++)
          {
            vm_ode_opts o;
            vm_ode_sol s;
            const double hh = r == 0 ? h : h / 2;
            dop853_fixed (&o, hh);
            vm_ode_sol_init (&s);
            if (prob == 0)
              {
                const double y0[2] = { 1.0, 0.0 };
                st[r] = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 10.0, y0, NULL, 0, &o, &s);
                e[r] = s.npts ? osc_err_at (&s, s.npts - 1) : NAN;
              }
            else
              {
                const double y0 = 0.3, t0 = prob == 1 ? 0.0 : 3.0, tf = prob == 1 ? 10.0 : 0.0;
                st[r] = vm_ode_solve (SYS (1, rhs_lin, NULL, NULL), t0, tf, &y0, NULL, 0, &o, &s);
                e[r] = s.npts ? fabs (s.y[s.npts - 1] - exact_lin (tf, t0, y0)) : NAN;
              }
            nacc[r] = s.naccept;
            nrej[r] = s.nreject;
            vm_ode_sol_free (&s);
          }
        {
          const double p = log2 (e[0] / e[1]);
          const long n0 = prob == 2 ? 6 : 20;
          printf ("info: DOP853 fixed steps on %s: err(h=%g) %.3e, err(h/2) %.3e, observed order "
                  "%.3f\n", pname[prob], h, e[0], e[1], p);
          CHECK (st[0] == VM_OK && st[1] == VM_OK && nrej[0] == 0 && nrej[1] == 0
                 && nacc[0] == n0 && nacc[1] == 2 * n0, "DOP853 fixed steps on %s: status %d %d, "
                 "%ld/%ld steps, %ld/%ld rejected", pname[prob], st[0], st[1], nacc[0], nacc[1],
                 nrej[0], nrej[1]);
          CHECK (e[1] > 1e-13, "DOP853 %s: error %.3e too close to rounding", pname[prob], e[1]);
          CHECK (fabs (p - 8.0) <= 0.2, "DOP853 on %s: observed order %.3f, expected 8",
                 pname[prob], p);
        }
      }
  }

  /* adaptive: oscillator over 10 periods.  Hairer's estimate behaves like h^8, so the global
   * error follows the tolerance and the number of steps grows like rtol^(-1/8) (DOPRI5: -1/5) */
  {
    const double T = 20.0 * PI;
    static const double rt[3] = { 1e-6, 1e-9, 1e-12 };
    double e[3];
    long nacc[3], nacc5[2];
    int st[3], st5[2], r;
    for (r = 0; r < 3; r++)
      {
        vm_ode_opts o;
        vm_ode_sol s;
        const double y0[2] = { 1.0, 0.0 };
        opts_for (&o, VM_ODE_DOP853, rt[r]);
        vm_ode_sol_init (&s);
        st[r] = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, T, y0, NULL, 0, &o, &s);
        e[r] = s.npts && s.t[s.npts - 1] == T ? osc_err_at (&s, s.npts - 1) : NAN;
        nacc[r] = s.naccept;
        if (r != 1)
          {
            opts_for (&o, VM_ODE_DOPRI5, rt[r]);
            st5[r / 2] = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, T, y0, NULL, 0, &o, &s);
            nacc5[r / 2] = s.naccept;
          }
        vm_ode_sol_free (&s);
      }
    {
      const double p853 = 6.0 / log10 ((double) nacc[2] / (double) nacc[0]);
      const double p5 = 6.0 / log10 ((double) nacc5[1] / (double) nacc5[0]);
      printf ("info: DOP853 oscillator 10 periods: err(rtol 1e-6) %.3e, err(1e-9) %.3e, err(1e-12) "
              "%.3e; steps %ld, %ld, %ld\n", e[0], e[1], e[2], nacc[0], nacc[1], nacc[2]);
      printf ("info: order from the step counts rtol 1e-6 -> 1e-12 (6 / log10 ratio): DOP853 %.2f, "
              "DOPRI5 %.2f\n", p853, p5);
      CHECK (st[0] == VM_OK && st[1] == VM_OK && st[2] == VM_OK && st5[0] == VM_OK
             && st5[1] == VM_OK, "DOP853 tolerance runs: status");
      CHECK (e[2] < 1e-10, "DOP853 rtol 1e-12: error %.3e over 10 periods", e[2]);
      CHECK (e[0] / e[1] >= 1e2 && e[0] / e[1] <= 1e4 && e[1] / e[2] >= 1e2 && e[1] / e[2] <= 1e4,
             "DOP853 tolerance ratios %.1f %.1f", e[0] / e[1], e[1] / e[2]);
      CHECK (fabs (p853 - 8.0) <= 0.5, "DOP853 step-count order %.2f", p853);
      CHECK (fabs (p5 - 5.0) <= 0.5, "DOPRI5 step-count order %.2f", p5);
    }
  }
}

/* DOP853 against DOPRI5 at rtol = atol = 1e-10: oscillator and Kepler (e = 0.5), 10 periods */
static void
test_dop853_nfev (void)
{
  const double T = 20.0 * PI, ecc = 0.5;
  int prob, im;
  for (prob = 0; prob < 2; prob++)
    {
      long nfev[2];
      double err[2];
      for (im = 0; im < 2; im++)
        {
          const int m = im == 0 ? VM_ODE_DOPRI5 : VM_ODE_DOP853;
          vm_ode_opts o;
          vm_ode_sol s;
          int st, i;
          opts_for (&o, m, 1e-10);
          vm_ode_sol_init (&s);
          if (prob == 0)
            {
              const double y0[2] = { 1.0, 0.0 };
              st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, T, y0, NULL, 0, &o, &s);
              err[im] = s.npts ? osc_err_at (&s, s.npts - 1) : NAN;
            }
          else
            {
              /* after whole periods the exact state is the initial one */
              const double y0[4] = { 1.0 - ecc, 0.0, 0.0, sqrt ((1.0 + ecc) / (1.0 - ecc)) };
              st = vm_ode_solve (SYS (4, rhs_kepler, NULL, NULL), 0.0, T, y0, NULL, 0, &o, &s);
              err[im] = 0.0;
              for (i = 0; i < 4 && s.npts; i++)
                err[im] = fmax (err[im], fabs (s.y[4 * (s.npts - 1) + i] - y0[i]));
            }
          nfev[im] = s.nfev;
          printf ("info: %s %s rtol 1e-10, 10 periods: nfev %ld (%ld steps, %ld rejected), error "
                  "%.3e\n", mname[m], prob == 0 ? "oscillator" : "Kepler e=0.5", s.nfev, s.naccept,
                  s.nreject, err[im]);
          CHECK (st == VM_OK, "%s nfev run: status %d", mname[m], st);
          vm_ode_sol_free (&s);
        }
      CHECK (nfev[1] < nfev[0], "DOP853 nfev %ld not below DOPRI5's %ld on %s", nfev[1], nfev[0],
             prob == 0 ? "the oscillator" : "Kepler");
      /* comparable accuracy: DOP853 is not cheaper by being sloppier (Kepler: the phase error
       * over 10 periods, about 1e-6 for both) */
      CHECK (err[1] <= 3.0 * err[0] && err[1] < 1e-5, "DOP853 error %.3e vs DOPRI5 %.3e", err[1],
             err[0]);
    }
}

/* dense output at fixed steps: interpolation error at the step midpoints vs the step-end error */
static void
test_dense_dop853_fixed (void)
{
  const double T = 10.0;
  double ei[2], en[2];
  int r;
  for (r = 0; r < 2; r++)
    {
      const double h = r == 0 ? 0.5 : 0.25;
      const size_t nt = (size_t) floor (T / h + 0.5);
      double tout[40];
      vm_ode_opts o;
      vm_ode_sol s;
      const double y0[2] = { 1.0, 0.0 };
      size_t k;
      int st;
      for (k = 0; k < nt; k++)
        tout[k] = ((double) k + 0.5) * h;
      dop853_fixed (&o, h);
      vm_ode_sol_init (&s);
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, T, y0, tout, nt, &o, &s);
      CHECK (st == VM_OK && s.npts == nt, "DOP853 fixed dense: status %d, npts %zu", st, s.npts);
      ei[r] = 0.0;
      for (k = 0; k < s.npts; k++)
        ei[r] = fmax (ei[r], osc_err_at (&s, k));
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, T, y0, NULL, 0, &o, &s);
      en[r] = 0.0;
      for (k = 0; k < s.npts; k++)
        en[r] = fmax (en[r], osc_err_at (&s, k));
      vm_ode_sol_free (&s);
    }
  printf ("info: DOP853 dense output at step midpoints, fixed h = 0.5: %.3e (steps %.3e), "
          "h = 0.25: %.3e (steps %.3e), observed order %.3f\n", ei[0], en[0], ei[1], en[1],
          log2 (ei[0] / ei[1]));
  /* the 7th-order interpolant adds O(h^8) locally: comparable to the global step error */
  CHECK (ei[0] <= 2.0 * en[0] && ei[1] <= 2.0 * en[1],
         "DOP853 midpoint error above 2x the step error");
  CHECK (log2 (ei[0] / ei[1]) >= 7.0 - 0.2, "DOP853 dense output order %.3f", log2 (ei[0] / ei[1]));
}

/* keep_steps: output times beside the steps.  Every method, forward and backward, with and
 * without a terminal event: the steps (t, y) are bit for bit those of the run without output
 * times, and tq, yq bit for bit the states that the run without keep_steps stores there. */
static void
test_keep_steps (void)
{
  int m, back, evr;
  for (m = 0; m < NMETHODS; m++)
    for (back = 0; back < 2; back++)
      for (evr = 0; evr < 2; evr++)
        {
          const double t0 = back ? 3.0 : 0.0, tf = back ? 0.0 : 3.0;
          const double y0[2] = { 1.0, 0.0 };
          const int dir = -1, term = 1;
          double tout[7];
          vm_ode_opts o;
          vm_ode_sol s, s0, s1;
          size_t k, nt = 7;
          int st, st0, st1, same;
          for (k = 0; k < nt; k++)
            tout[k] = t0 + (tf - t0) * (double) k / 6.0;   /* t0 and tf included */
          opts_for (&o, m, adaptive (m) ? 1e-8 : 0.01);
          if (evr)
            {
              /* x = cos (t - t0) falls through 1/2 at t0 + pi/3 (forward) and rises through it
               * at t0 - pi/3 going back (either direction backward): both stop the run early */
              o.nevent = 1;
              o.event_dir = back ? NULL : &dir;
              o.event_terminal = &term;
            }
          vm_ode_sol_init (&s);
          vm_ode_sol_init (&s0);
          vm_ode_sol_init (&s1);
          st0 = vm_ode_solve (SYS (2, rhs_osc, evr ? ev_xhalf : NULL, NULL), t0, tf, y0, NULL, 0,
                              &o, &s0);
          st1 = vm_ode_solve (SYS (2, rhs_osc, evr ? ev_xhalf : NULL, NULL), t0, tf, y0, tout, nt,
                              &o, &s1);
          o.keep_steps = 1;
          st = vm_ode_solve (SYS (2, rhs_osc, evr ? ev_xhalf : NULL, NULL), t0, tf, y0, tout, nt,
                             &o, &s);
          same = st == st0 && st == st1 && s.npts == s0.npts && s.naccept == s0.naccept
                 && memcmp (s.t, s0.t, s.npts * sizeof (double)) == 0
                 && memcmp (s.y, s0.y, 2 * s.npts * sizeof (double)) == 0;
          CHECK (same, "%s keep_steps (back %d, event %d): steps differ from the run without "
                 "output times (status %d/%d, npts %zu/%zu)", mname[m], back, evr, st, st0,
                 s.npts, s0.npts);
          /* without the event every output time is reached; with it those before the event (the
           * run without keep_steps also stores the event point after them) */
          CHECK (evr ? (s.nout < nt && s.nout + 1 == s1.npts) : (s.nout == nt && s1.npts == nt),
                 "%s keep_steps (back %d, event %d): %zu output points, %zu without keep_steps",
                 mname[m], back, evr, s.nout, s1.npts);
          CHECK (s.nout <= s1.npts && memcmp (s.tq, tout, s.nout * sizeof (double)) == 0
                 && memcmp (s.yq, s1.y, 2 * s.nout * sizeof (double)) == 0,
                 "%s keep_steps (back %d, event %d): output points differ", mname[m], back, evr);
          vm_ode_sol_free (&s);
          vm_ode_sol_free (&s0);
          vm_ode_sol_free (&s1);
        }
}

/* ---- dense output ------------------------------------------------------------------------------ */

/* DOPRI5 and DOP853: 1001 output times over one period of the oscillator */
static void
test_dense_adaptive (int m, double rtol)
{
  const double T = 2.0 * PI;
  const size_t nt = 1001;
  double *tout = malloc (nt * sizeof *tout);
  vm_ode_opts o;
  vm_ode_sol s, s0;
  const double y0[2] = { 1.0, 0.0 };
  double emax = 0.0, enode = 0.0;
  size_t k;
  int st, st0, ok = 1;
  if (tout == NULL)
    {
      CHECK (0, "allocation");
      return;
    }
  for (k = 0; k < nt; k++)
    tout[k] = T * (double) k / (double) (nt - 1);
  tout[nt - 1] = T;
  opts_for (&o, m, rtol);
  vm_ode_sol_init (&s);
  vm_ode_sol_init (&s0);
  st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, T, y0, tout, nt, &o, &s);
  st0 = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, T, y0, NULL, 0, &o, &s0);
  CHECK (st == VM_OK && st0 == VM_OK, "status %d %d", st, st0);
  CHECK (s.npts == nt, "npts %zu, expected %zu", s.npts, nt);
  for (k = 0; k < s.npts && k < nt; k++)
    {
      const double *y = s.y + 2 * k;
      ok &= s.t[k] == tout[k];
      emax = fmax (emax, fmax (fabs (y[0] - cos (tout[k])), fabs (y[1] + sin (tout[k]))));
    }
  for (k = 0; k < s0.npts; k++)
    {
      const double *y = s0.y + 2 * k;
      enode = fmax (enode, fmax (fabs (y[0] - cos (s0.t[k])), fabs (y[1] + sin (s0.t[k]))));
    }
  printf ("info: %s dense output rtol %g, %ld steps, %zu output times: max error %.3e "
          "(max error at the steps %.3e)\n", mname[m], rtol, s0.naccept, nt, emax, enode);
  CHECK (ok, "%s: output times not reproduced exactly", mname[m]);
  /* the continuous extension (order 4 resp. 7) is as accurate as the step values (global error
   * ~ rtol).  DOP853's steps are long: the local error of its 7th-order interpolant, O(h^8), is
   * well above the local error of the 8th-order step, so its dense error is a few times the error
   * at the step ends (both scale like rtol), hence the larger factor */
  CHECK (emax <= 10.0 * rtol, "%s dense error %.3e above 10 rtol", mname[m], emax);
  CHECK (emax <= (m == VM_ODE_DOP853 ? 5.0 : 3.0) * enode,
         "%s dense error %.3e above %gx the step error %.3e", mname[m], emax,
         m == VM_ODE_DOP853 ? 5.0 : 3.0, enode);
  /* end points: t0 gives y0 exactly, tf the step value bit for bit (dense output does not change
   * the steps) */
  CHECK (s.npts == nt && s.y[0] == 1.0 && s.y[1] == 0.0, "%s y(t0)", mname[m]);
  CHECK (s.npts == nt && s0.npts > 0
         && memcmp (s.y + 2 * (nt - 1), s0.y + 2 * (s0.npts - 1), 2 * sizeof (double)) == 0,
         "%s y(tf) differs from the run without output times", mname[m]);
  /* DOPRI5's dense output is free; DOP853's costs 3 evaluations per accepted step */
  CHECK (s.nfev == s0.nfev + (m == VM_ODE_DOP853 ? 3 * s0.naccept : 0) && s.naccept == s0.naccept,
         "%s nfev %ld with output times, %ld without", mname[m], s.nfev, s0.nfev);
  vm_ode_sol_free (&s);
  vm_ode_sol_free (&s0);
  free (tout);
}

/* max error of the Hermite interpolant at step midpoints, and of the step values, oscillator */
static void
hermite_errors (int m, double h, double T, double *eint, double *enode)
{
  const size_t nt = (size_t) floor (T / h + 0.5);
  double *tout = malloc (nt * sizeof *tout);
  vm_ode_opts o;
  vm_ode_sol s;
  const double y0[2] = { 1.0, 0.0 };
  size_t k;
  int st;
  *eint = *enode = NAN;
  if (tout == NULL)
    return;
  for (k = 0; k < nt; k++)
    tout[k] = ((double) k + 0.5) * h;
  opts_for (&o, m, h);
  vm_ode_sol_init (&s);
  st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, T, y0, tout, nt, &o, &s);
  CHECK (st == VM_OK && s.npts == nt, "%s Hermite: status %d npts %zu", mname[m], st, s.npts);
  *eint = 0.0;
  for (k = 0; k < s.npts; k++)
    *eint = fmax (*eint, fmax (fabs (s.y[2 * k] - cos (s.t[k])), fabs (s.y[2 * k + 1] + sin (s.t[k]))));
  st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, T, y0, NULL, 0, &o, &s);
  *enode = 0.0;
  for (k = 0; k < s.npts; k++)
    *enode = fmax (*enode,
                   fmax (fabs (s.y[2 * k] - cos (s.t[k])), fabs (s.y[2 * k + 1] + sin (s.t[k]))));
  vm_ode_sol_free (&s);
  free (tout);
}

static void
test_dense_hermite (void)
{
  static const int methods[] = { VM_ODE_RK4, VM_ODE_GL4, VM_ODE_GL6 };
  const double T = 10.0;
  int im;
  for (im = 0; im < 3; im++)
    {
      const int m = methods[im];
      double ei1, en1, ei2, en2;
      const double h = 0.2;
      hermite_errors (m, h, T, &ei1, &en1);
      hermite_errors (m, h / 2, T, &ei2, &en2);
      printf ("info: %s Hermite midpoint error h=%g: %.3e (nodes %.3e), h=%g: %.3e (nodes %.3e)\n",
              mname[m], h, ei1, en1, h / 2, ei2, en2);
      /* |p - y| <= h^4/384 max|y''''| + nodal errors (weights h00 + h01 = 1, |h10|,|h11| <= 4h/27,
       * derivative errors <= nodal errors since |F_y| = 1); max|y''''| = 1 */
      CHECK (ei1 <= pow (h, 4) / 384.0 * 1.01 + en1 * (1.0 + 8.0 * h / 27.0) * 1.01,
             "%s Hermite error %.3e above its bound", mname[m], ei1);
      CHECK (ei2 <= pow (h / 2, 4) / 384.0 * 1.01 + en2 * (1.0 + 4.0 * h / 27.0) * 1.01,
             "%s Hermite error %.3e above its bound", mname[m], ei2);
      if (m == VM_ODE_GL6)
        {
          /* nodal errors negligible: the interpolation error itself shows order 4 */
          const double p = log2 (ei1 / ei2);
          printf ("info: GL6 Hermite interpolation observed order %.3f\n", p);
          CHECK (fabs (p - 4.0) <= 0.2, "GL6 Hermite interpolation order %.3f", p);
        }
    }
}

/* ---- Gauss methods: symplecticity, quadratic invariants --------------------------------------- */

static double
agm (double a, double b)
{
  int i;
  for (i = 0; i < 60 && fabs (a - b) > 1e-16 * a; i++)
    {
      const double an = 0.5 * (a + b);
      b = sqrt (a * b);
      a = an;
    }
  return a;
}

/* max relative energy error over the first and the last tenth of [0, T] */
static void
energy_drift (int m, int pend, double h, double T, double *first, double *last, double *all)
{
  vm_ode_opts o;
  vm_ode_sol s;
  const double y0[2] = { pend ? 1.5 : 1.0, 0.0 };
  const double E0 = pend ? -cos (y0[0]) : 0.5 * (y0[0] * y0[0] + y0[1] * y0[1]);
  size_t k;
  int st;
  opts_for (&o, m, h);
  vm_ode_sol_init (&s);
  st = vm_ode_solve (SYS (2, pend ? rhs_pend : rhs_osc, NULL, NULL), 0.0, T, y0, NULL, 0, &o, &s);
  CHECK (st == VM_OK, "%s energy run: status %d", mname[m], st);
  *first = *last = *all = 0.0;
  for (k = 0; k < s.npts; k++)
    {
      const double *y = s.y + 2 * k;
      const double E = pend ? 0.5 * y[1] * y[1] - cos (y[0]) : 0.5 * (y[0] * y[0] + y[1] * y[1]);
      const double e = fabs (E - E0) / fabs (E0);
      if (s.t[k] <= 0.1 * T)
        *first = fmax (*first, e);
      if (s.t[k] >= 0.9 * T)
        *last = fmax (*last, e);
      *all = fmax (*all, e);
    }
  vm_ode_sol_free (&s);
}

static void
test_symplectic (void)
{
  const double Tosc = 1000.0 * 2.0 * PI;
  /* pendulum x'' = -sin x from amplitude 1.5: period 2 pi / agm(1, cos(1.5/2)) */
  const double Tpend = 1000.0 * 2.0 * PI / agm (1.0, cos (0.75));
  double f, l, a;
  int m;
  for (m = VM_ODE_GL4; m <= VM_ODE_GL6; m++)
    {
      /* oscillator: x^2 + v^2 is a quadratic invariant: conserved up to rounding over 64000 steps */
      energy_drift (m, 0, 2.0 * PI / 64.0, Tosc, &f, &l, &a);
      printf ("info: %s oscillator 1000 periods, h = 2pi/64: |dE|/E first 100 periods %.2e, last "
              "100 %.2e, max %.2e\n", mname[m], f, l, a);
      CHECK (a <= 1e-13, "%s: quadratic invariant error %.3e", mname[m], a);
      /* the energy error is rounding only: no drift beyond rounding accumulation */
      CHECK (l <= 2.0 * f + 64000 * DBL_EPSILON / 8, "%s oscillator: drift %.3e -> %.3e",
             mname[m], f, l);
      /* pendulum: non-quadratic energy, error O(h^p) and bounded (no drift) */
      energy_drift (m, 1, 0.2, Tpend, &f, &l, &a);
      printf ("info: %s pendulum 1000 periods, h = 0.2: |dE|/E first 100 periods %.2e, last 100 "
              "%.2e\n", mname[m], f, l);
      CHECK (l <= 2.0 * f, "%s pendulum: energy drift %.3e -> %.3e", mname[m], f, l);
    }
  /* the same criterion detects the drift of the non-symplectic RK4 */
  energy_drift (VM_ODE_RK4, 0, 2.0 * PI / 64.0, Tosc, &f, &l, &a);
  printf ("info: RK4 oscillator (control): first %.2e, last %.2e\n", f, l);
  CHECK (l > 5.0 * f, "RK4 oscillator: expected an energy drift, %.3e -> %.3e", f, l);
  energy_drift (VM_ODE_RK4, 1, 0.2, Tpend, &f, &l, &a);
  printf ("info: RK4 pendulum (control): first %.2e, last %.2e\n", f, l);
  CHECK (l > 5.0 * f, "RK4 pendulum: expected an energy drift, %.3e -> %.3e", f, l);
}

/* ---- events ------------------------------------------------------------------------------------ */

static void
test_events_falling (void)
{
  const double T1 = sqrt (2.0 / GRAV);
  int m;
  for (m = 0; m < NMETHODS; m++)
    {
      vm_ode_opts o;
      vm_ode_sol s;
      const double y0[2] = { 1.0, 0.0 };
      int st;
      opts_for (&o, m, adaptive (m) ? 1e-8 : 0.1);
      o.nevent = 1;
      vm_ode_sol_init (&s);
      st = vm_ode_solve (SYS (2, rhs_fall, ev_x, NULL), 0.0, 0.6, y0, NULL, 0, &o, &s);
      CHECK (st == VM_OK && s.nevents == 1, "%s falling body: status %d, %zu events", mname[m], st,
             s.nevents);
      if (s.nevents >= 1)
        {
          /* the solution is quadratic: every method and interpolant is exact up to rounding */
          CHECK (fabs (s.te[0] - T1) <= 1e-10, "%s falling body: te %.17g, expected %.17g",
                 mname[m], s.te[0], T1);
          CHECK (s.ie[0] == 0 && fabs (s.ye[0]) <= 1e-10 && fabs (s.ye[1] + GRAV * T1) <= 1e-9,
                 "%s falling body: ye (%g, %g)", mname[m], s.ye[0], s.ye[1]);
          /* the located time is past the zero: g(te) <= 0 */
          CHECK (s.ye[0] <= 0.0, "%s: event state on the near side, x = %g", mname[m], s.ye[0]);
        }
      vm_ode_sol_free (&s);
    }
}

static void
test_events_direction (void)
{
  /* x = cos t on [0, 4 pi]; x = 1/2 at pi/3 (falling), 5pi/3 (rising), 7pi/3 (falling),
   * 11pi/3 (rising) */
  const double tf = 4.0 * PI;
  static const double tr[2] = { 5.0 * PI / 3.0, 11.0 * PI / 3.0 };
  static const double tfall[2] = { PI / 3.0, 7.0 * PI / 3.0 };
  int m, d;
  for (m = 0; m < NMETHODS; m++)
    for (d = -1; d <= 1; d++)
      {
        vm_ode_opts o;
        vm_ode_sol s;
        const double y0[2] = { 1.0, 0.0 };
        const int dir = d;
        size_t k;
        int st, ok = 1;
        double emax = 0.0;
        /* event time error ~ (state error) / |x'| (|x'| = sin(pi/3)): DOPRI5/DOP853 rtol 1e-10 and
         * RK4/GL with h = 0.02 (nodal error <= 4pi h^4/120 ~ 2e-8, Hermite h^4/384 ~ 4e-10) */
        opts_for (&o, m, adaptive (m) ? 1e-10 : 0.02);
        o.nevent = 1;
        o.event_dir = &dir;
        vm_ode_sol_init (&s);
        st = vm_ode_solve (SYS (2, rhs_osc, ev_xhalf, NULL), 0.0, tf, y0, NULL, 0, &o, &s);
        CHECK (st == VM_OK, "%s dir %d: status %d", mname[m], d, st);
        if (d != 0)
          {
            const double *ex = d > 0 ? tr : tfall;
            ok = s.nevents == 2;
            for (k = 0; ok && k < 2; k++)
              emax = fmax (emax, fabs (s.te[k] - ex[k]));
          }
        else
          {
            const double ex[4] = { tfall[0], tr[0], tfall[1], tr[1] };
            ok = s.nevents == 4;
            for (k = 0; ok && k < 4; k++)
              emax = fmax (emax, fabs (s.te[k] - ex[k]));
          }
        CHECK (ok && emax <= 1e-6, "%s dir %d: %zu events, max time error %.3e", mname[m], d,
               s.nevents, emax);
        vm_ode_sol_free (&s);
      }
}

static void
test_events_terminal (void)
{
  const double T1 = sqrt (2.0 / GRAV);
  static const int methods[] = { VM_ODE_DOPRI5, VM_ODE_GL4, VM_ODE_RK4, VM_ODE_DOP853 };
  int im;
  for (im = 0; im < 4; im++)
    {
      const int m = methods[im];
      vm_ode_opts o;
      vm_ode_sol s;
      const int dir = -1, term = 1, dir0 = 0;
      double y0[2] = { 1.0, 0.0 }, yr[2], te, tb;
      int st;
      opts_for (&o, m, adaptive (m) ? 1e-8 : 0.1);
      o.nevent = 1;
      o.event_dir = &dir;
      o.event_terminal = &term;
      vm_ode_sol_init (&s);
      st = vm_ode_solve (SYS (2, rhs_fall, ev_x, NULL), 0.0, 5.0, y0, NULL, 0, &o, &s);
      CHECK (st == VM_STOP_EVENT, "%s terminal: status %d", mname[m], st);
      CHECK (s.nevents == 1 && fabs (s.te[0] - T1) <= 1e-10, "%s terminal: event", mname[m]);
      if (s.nevents != 1 || s.npts < 2)
        {
          vm_ode_sol_free (&s);
          continue;
        }
      te = s.te[0];
      CHECK (s.t_end == te && s.t[s.npts - 1] == te
             && memcmp (s.y + 2 * (s.npts - 1), s.ye, 2 * sizeof (double)) == 0,
             "%s terminal: the event is not the last stored point", mname[m]);
      /* bounce: v -> -0.8 v; the next impact is 2 * 0.8 * T1 later (x(te) ~ 0) */
      yr[0] = s.ye[0];
      yr[1] = -0.8 * s.ye[1];
      tb = te + 1.6 * T1;
      st = vm_ode_solve (SYS (2, rhs_fall, ev_x, NULL), te, 5.0, yr, NULL, 0, &o, &s);
      CHECK (st == VM_STOP_EVENT && s.nevents == 1 && fabs (s.te[0] - tb) <= 1e-9,
             "%s restart: status %d, %zu events, te %.17g (expected %.17g)", mname[m], st,
             s.nevents, s.nevents ? s.te[0] : NAN, tb);
      /* a zero exactly at the start point is not reported, whatever the direction */
      yr[0] = 0.0;
      o.event_dir = &dir0;
      st = vm_ode_solve (SYS (2, rhs_fall, ev_x, NULL), te, 5.0, yr, NULL, 0, &o, &s);
      CHECK (st == VM_STOP_EVENT && s.nevents == 1 && fabs (s.te[0] - tb) <= 1e-9,
             "%s restart at g = 0: status %d, %zu events, te %.17g (expected %.17g)", mname[m], st,
             s.nevents, s.nevents ? s.te[0] : NAN, tb);
      /* with output times: those before the event, then the event point */
      {
        double tout[101];
        int k;
        for (k = 0; k <= 100; k++)
          tout[k] = 0.05 * k;
        o.event_dir = &dir;
        st = vm_ode_solve (SYS (2, rhs_fall, ev_x, NULL), 0.0, 5.0, y0, tout, 101, &o, &s);
        CHECK (st == VM_STOP_EVENT && s.npts == (size_t) floor (T1 / 0.05) + 2
               && s.t[s.npts - 1] == s.te[0] && s.t[s.npts - 2] == 0.05 * floor (T1 / 0.05),
               "%s terminal with tout: status %d, npts %zu", mname[m], st, s.npts);
        for (k = 0; k + 1 < (int) s.npts; k++)
          CHECK (fabs (s.y[2 * k] - (1.0 - 0.5 * GRAV * s.t[k] * s.t[k])) <= 1e-12,
                 "%s: tout value at %g", mname[m], s.t[k]);
      }
      vm_ode_sol_free (&s);
    }
}

static void
test_events_same_step (void)
{
  /* y = t; g0 = y - 0.7, g1 = y - 0.3 change sign in the same (single) step */
  int m;
  for (m = 0; m < NMETHODS; m++)
    {
      vm_ode_opts o;
      vm_ode_sol s;
      const double y0 = 0.0;
      const int both[2] = { 1, 1 }, first_only[2] = { 1, 0 };
      int st;
      opts_for (&o, m, adaptive (m) ? 1e-6 : 1.0);
      if (adaptive (m))
        o.h0 = 1.0;
      o.nevent = 2;
      vm_ode_sol_init (&s);
      st = vm_ode_solve (SYS (1, rhs_one, ev_two, NULL), 0.0, 1.0, &y0, NULL, 0, &o, &s);
      CHECK (st == VM_OK && s.naccept == 1 && s.nevents == 2, "%s two events: status %d, %ld "
             "steps, %zu events", mname[m], st, s.naccept, s.nevents);
      CHECK (s.nevents == 2 && s.ie[0] == 1 && s.ie[1] == 0 && fabs (s.te[0] - 0.3) <= 1e-12
             && fabs (s.te[1] - 0.7) <= 1e-12, "%s two events: order/times", mname[m]);
      o.event_terminal = both;
      st = vm_ode_solve (SYS (1, rhs_one, ev_two, NULL), 0.0, 1.0, &y0, NULL, 0, &o, &s);
      CHECK (st == VM_STOP_EVENT && s.nevents == 1 && s.ie[0] == 1
             && fabs (s.t_end - 0.3) <= 1e-12 && fabs (s.y[s.npts - 1] - 0.3) <= 1e-12,
             "%s two terminal events: the earliest must stop (status %d, t_end %g)", mname[m], st,
             s.t_end);
      /* only g0 terminal: g1 at 0.3 is recorded, the integration stops at 0.7 */
      o.event_terminal = first_only;
      st = vm_ode_solve (SYS (1, rhs_one, ev_two, NULL), 0.0, 1.0, &y0, NULL, 0, &o, &s);
      CHECK (st == VM_STOP_EVENT && s.nevents == 2 && s.ie[0] == 1 && s.ie[1] == 0
             && fabs (s.t_end - 0.7) <= 1e-12, "%s: non-terminal then terminal", mname[m]);
      vm_ode_sol_free (&s);
    }
}

/* ---- backwards --------------------------------------------------------------------------------- */

static void
test_backward (void)
{
  /* y' = -y + cos t from t0 = 3 back to 0 */
  int m, im;
  for (m = VM_ODE_GL4; m <= VM_ODE_RK4; m++)
    {
      const double h = m == VM_ODE_GL6 ? 0.2 : 0.1;
      int s1, s2;
      const double e1 = err_lin (m, h, 3.0, 0.0, &s1), e2 = err_lin (m, h / 2, 3.0, 0.0, &s2);
      const double p = log2 (e1 / e2);
      printf ("info: %s backwards: err(h=%g) %.3e, err(h/2) %.3e, observed order %.3f\n", mname[m],
              h, e1, e2, p);
      CHECK (s1 == VM_OK && s2 == VM_OK && fabs (p - order_of[m]) <= 0.2,
             "%s backwards: status %d %d, observed order %.3f", mname[m], s1, s2, p);
    }
  for (im = 0; im < 2; im++)
  {
    vm_ode_opts o;
    vm_ode_sol s;
    const double y0 = 0.3;
    double tout[31], emax = 0.0;
    int k, st, ok = 1;
    m = im == 0 ? VM_ODE_DOPRI5 : VM_ODE_DOP853;
    for (k = 0; k <= 30; k++)
      tout[k] = 3.0 - 0.1 * k;
    tout[30] = 0.0;
    opts_for (&o, m, 1e-10);
    vm_ode_sol_init (&s);
    st = vm_ode_solve (SYS (1, rhs_lin, NULL, NULL), 3.0, 0.0, &y0, tout, 31, &o, &s);
    CHECK (st == VM_OK && s.npts == 31, "%s backwards: status %d, npts %zu", mname[m], st, s.npts);
    for (k = 0; k < (int) s.npts; k++)
      {
        ok &= s.t[k] == tout[k];
        emax = fmax (emax, fabs (s.y[k] - exact_lin (s.t[k], 3.0, y0)));
      }
    printf ("info: %s backwards rtol 1e-10: max error at 31 output times %.3e (%ld steps)\n",
            mname[m], emax, s.naccept);
    /* backwards, errors grow like e^{3}: still far below 1e-8 */
    CHECK (ok && emax <= 1e-8, "%s backwards: error %.3e", mname[m], emax);
    /* increasing output times are invalid backwards */
    tout[0] = 0.0;
    tout[1] = 1.0;
    st = vm_ode_solve (SYS (1, rhs_lin, NULL, NULL), 3.0, 0.0, &y0, tout, 2, &o, &s);
    CHECK (st == VM_EARG, "%s increasing tout backwards: status %d", mname[m], st);
    vm_ode_sol_free (&s);
  }
  for (im = 0; im < 2; im++)
  {
    /* events backwards: x = cos t from 2 pi down to 0; x - 1/2 falls (along the integration) at
     * 5pi/3 and rises at pi/3 */
    vm_ode_opts o;
    vm_ode_sol s;
    const double y0[2] = { 1.0, 0.0 };
    const int up = 1;
    int st;
    m = im == 0 ? VM_ODE_DOPRI5 : VM_ODE_DOP853;
    opts_for (&o, m, 1e-10);
    o.nevent = 1;
    o.event_dir = &up;
    vm_ode_sol_init (&s);
    st = vm_ode_solve (SYS (2, rhs_osc, ev_xhalf, NULL), 2.0 * PI, 0.0, y0, NULL, 0, &o, &s);
    CHECK (st == VM_OK && s.nevents == 1 && fabs (s.te[0] - PI / 3.0) <= 1e-7,
           "%s backwards rising event: status %d, %zu events", mname[m], st, s.nevents);
    CHECK (s.npts > 2 && s.t[0] == 2.0 * PI && s.t[s.npts - 1] == 0.0 && s.t[1] < s.t[0],
           "%s backwards step times", mname[m]);
    vm_ode_sol_free (&s);
  }
}

/* ---- failures and argument errors -------------------------------------------------------------- */

static void
test_args (void)
{
  vm_ode_opts o, b;
  vm_ode_sol s;
  const double y0[2] = { 1.0, 0.0 };
  double ynan[2] = { NAN, 0.0 };
  const double tout_bad[3] = { 0.0, 0.5, 0.4 }, tout_out[2] = { 0.5, 1.5 };
  const int dir_bad = 2;
  int m;
  vm_ode_sol_init (&s);
  opts_for (&b, VM_ODE_DOPRI5, 1e-6);
#define SOLVE(oo) vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, y0, NULL, 0, oo, &s)
  CHECK (vm_ode_solve (SYS (0, rhs_osc, NULL, NULL), 0.0, 1.0, y0, NULL, 0, &b, &s) == VM_EARG, "n = 0");
  CHECK (vm_ode_solve (SYS (-3, rhs_osc, NULL, NULL), 0.0, 1.0, y0, NULL, 0, &b, &s) == VM_EARG, "n < 0");
  CHECK (vm_ode_solve (SYS (2, NULL, NULL, NULL), 0.0, 1.0, y0, NULL, 0, &b, &s) == VM_EARG, "f NULL");
  CHECK (vm_ode_solve (NULL, 0.0, 1.0, y0, NULL, 0, &b, &s) == VM_EARG, "system NULL");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, NULL, NULL, 0, &b, &s) == VM_EARG,
         "y0 NULL");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, y0, NULL, 0, &b, NULL) == VM_EARG,
         "sol NULL");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, ynan, NULL, 0, &b, &s) == VM_EARG,
         "y0 NaN");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), NAN, 1.0, y0, NULL, 0, &b, &s) == VM_ETSPAN,
         "t0 NaN");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, INFINITY, y0, NULL, 0, &b, &s) == VM_ETSPAN,
         "tf inf");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 1.0, 1.0, y0, NULL, 0, &b, &s) == VM_ETSPAN,
         "tf == t0");
  CHECK (s.status == VM_ETSPAN && s.npts == 0, "sol after an argument error");
  o = b;
  o.rtol = 0.0;
  CHECK (SOLVE (&o) == VM_EARG, "rtol 0");
  o.rtol = NAN;
  CHECK (SOLVE (&o) == VM_EARG, "rtol NaN");
  o = b;
  o.atol = -1e-9;
  CHECK (SOLVE (&o) == VM_EARG, "atol < 0");
  o = b;
  o.h0 = -1.0;
  CHECK (SOLVE (&o) == VM_EARG, "h0 < 0");
  o = b;
  o.hmax = -1.0;
  CHECK (SOLVE (&o) == VM_EARG, "hmax < 0");
  o = b;
  o.method = VM_ODE_DOP853 + 1;
  CHECK (SOLVE (&o) == VM_EARG, "method 5");
  o.method = -1;
  CHECK (SOLVE (&o) == VM_EARG, "method -1");
  o = b;
  o.max_steps = -1;
  CHECK (SOLVE (&o) == VM_EARG, "max_steps < 0");
  o = b;
  o.event_tol = -1.0;
  CHECK (SOLVE (&o) == VM_EARG, "event_tol < 0");
  o = b;
  o.nevent = -1;
  CHECK (SOLVE (&o) == VM_EARG, "nevent < 0");
  o.nevent = 1;
  CHECK (SOLVE (&o) == VM_EARG, "nevent 1 without an event function");
  o.event_dir = &dir_bad;
  CHECK (vm_ode_solve (SYS (2, rhs_osc, ev_x, NULL), 0.0, 1.0, y0, NULL, 0, &o, &s) == VM_EARG,
         "event_dir 2");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, y0, tout_bad, 3, &b, &s) == VM_EARG,
         "tout not monotone");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, y0, tout_out, 2, &b, &s) == VM_EARG,
         "tout outside [t0, tf]");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, y0, NULL, 2, &b, &s) == VM_EARG,
         "tout NULL with ntout 2");
  CHECK (vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, y0, tout_out, 0, &b, &s) == VM_OK,
         "ntout 0 ignores tout");
  /* DOP853 checks the same step-control options as DOPRI5 and ignores h */
  opts_for (&o, VM_ODE_DOP853, 1e-6);
  CHECK (SOLVE (&o) == VM_OK && s.t[s.npts - 1] == 1.0, "DOP853 valid options (h = 0)");
  o.rtol = 0.0;
  CHECK (SOLVE (&o) == VM_EARG, "DOP853 rtol 0");
  o.rtol = INFINITY;
  CHECK (SOLVE (&o) == VM_EARG, "DOP853 rtol inf");
  opts_for (&o, VM_ODE_DOP853, 1e-6);
  o.atol = NAN;
  CHECK (SOLVE (&o) == VM_EARG, "DOP853 atol NaN");
  opts_for (&o, VM_ODE_DOP853, 1e-6);
  o.h0 = -1.0;
  CHECK (SOLVE (&o) == VM_EARG, "DOP853 h0 < 0");
  opts_for (&o, VM_ODE_DOP853, 1e-6);
  o.hmax = INFINITY;
  CHECK (SOLVE (&o) == VM_EARG, "DOP853 hmax inf");
  opts_for (&o, VM_ODE_DOP853, 1e-6);
  o.hmax = 0.01;
  CHECK (SOLVE (&o) == VM_OK && s.naccept >= 100, "DOP853 hmax 0.01: %ld steps", s.naccept);
  o.hmax = 0.0;
  o.h0 = 0.3;
  CHECK (SOLVE (&o) == VM_OK && s.npts > 1 && fabs (s.t[1] - 0.3) <= 1e-15,
         "DOP853 h0 0.3: t1 = %g", s.npts > 1 ? s.t[1] : NAN);
  for (m = VM_ODE_GL4; m <= VM_ODE_RK4; m++)
    {
      opts_for (&o, m, 0.0);
      CHECK (SOLVE (&o) == VM_EARG, "%s h = 0", mname[m]);
      o.h = -0.1;
      CHECK (SOLVE (&o) == VM_EARG, "%s h < 0", mname[m]);
      o.h = INFINITY;
      CHECK (SOLVE (&o) == VM_EARG, "%s h inf", mname[m]);
      o.h = 0.1;
      o.rtol = 0.0;             /* tolerances are not used by the fixed-step methods */
      CHECK (SOLVE (&o) == VM_OK, "%s ignores rtol", mname[m]);
      if (m != VM_ODE_RK4)
        {
          o.newton_tol = -1.0;
          CHECK (SOLVE (&o) == VM_EARG, "%s newton_tol < 0", mname[m]);
          o.newton_tol = 0.0;
          o.newton_maxit = -1;
          CHECK (SOLVE (&o) == VM_EARG, "%s newton_maxit < 0", mname[m]);
        }
    }
  /* opts NULL: DOPRI5 defaults */
  CHECK (SOLVE (NULL) == VM_OK && fabs (s.y[2 * (s.npts - 1)] - cos (1.0)) < 1e-5, "opts NULL");
#undef SOLVE
  vm_ode_sol_free (&s);
  CHECK (s.t == NULL && s.npts == 0, "sol_free");
  vm_ode_sol_free (&s);         /* idempotent */
}

static void
test_failures (void)
{
  int m;
  for (m = 0; m < NMETHODS; m++)
    {
      vm_ode_opts o;
      vm_ode_sol s;
      const double y0[2] = { 1.0, 0.0 };
      ctx_t c = { 0.5, -42, 0 };
      const int term = 0;
      size_t k;
      int st, ok = 1;
      opts_for (&o, m, adaptive (m) ? 1e-6 : 0.1);
      if (m == VM_ODE_DOP853)
        o.hmax = 0.1;           /* several steps before t = 0.5 (its steps grow 6-fold) */
      vm_ode_sol_init (&s);
      /* the RHS's code propagates; the solution holds the points reached before */
      st = vm_ode_solve (SYS (2, rhs_bad, NULL, &c), 0.0, 1.0, y0, NULL, 0, &o, &s);
      for (k = 0; k < s.npts; k++)
        ok &= s.t[k] <= 0.5;
      CHECK (st == -42 && s.status == -42 && s.t_end <= 0.5 && s.t_end > 0.3 && ok && s.npts > 1
             && s.t[s.npts - 1] == s.t_end, "%s RHS code: status %d, t_end %g", mname[m], st,
             s.t_end);
      /* NaN from the RHS: non-finite status, stopped before the NaN */
      c.code = 0;
      st = vm_ode_solve (SYS (2, rhs_bad, NULL, &c), 0.0, 1.0, y0, NULL, 0, &o, &s);
      ok = 1;
      for (k = 0; k < s.npts; k++)
        ok &= s.t[k] <= 0.5 && isfinite (s.y[2 * k]) && isfinite (s.y[2 * k + 1]);
      CHECK (st == VM_ENONFINITE && s.t_end <= 0.5 && s.t_end > 0.3 && ok,
             "%s NaN: status %d, t_end %g", mname[m], st, s.t_end);
      /* the event function's code and NaN */
      c.code = -7;
      o.nevent = 1;
      o.event_terminal = &term;
      st = vm_ode_solve (SYS (2, rhs_osc, ev_bad, &c), 0.0, 1.0, y0, NULL, 0, &o, &s);
      CHECK (st == -7, "%s event code: status %d", mname[m], st);
      c.code = 0;
      st = vm_ode_solve (SYS (2, rhs_osc, ev_bad, &c), 0.0, 1.0, y0, NULL, 0, &o, &s);
      CHECK (st == VM_ENONFINITE, "%s event NaN: status %d", mname[m], st);
      /* max_steps */
      o.nevent = 0;
      o.max_steps = 5;
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 100.0, y0, NULL, 0, &o, &s);
      CHECK (st == VM_EMAXSTEPS && s.nsteps == 5 && s.npts == (size_t) s.naccept + 1,
             "%s max_steps: status %d, %ld steps", mname[m], st, s.nsteps);
      vm_ode_sol_free (&s);
    }
  {
    /* step size underflow: DOPRI5/DOP853 on a chattering right-hand side; fixed step below
     * 16 eps |t| */
    vm_ode_opts o;
    vm_ode_sol s;
    const double y0 = 1.0;
    int st;
    opts_for (&o, VM_ODE_DOPRI5, 1e-12);
    o.atol = 1e-30;
    vm_ode_sol_init (&s);
    st = vm_ode_solve (SYS (1, rhs_chatter, NULL, NULL), 0.0, 3.0, &y0, NULL, 0, &o, &s);
    CHECK (st == VM_EHMIN && fabs (s.t_end - 1.0) < 1e-6, "chatter: status %d at %g", st, s.t_end);
    opts_for (&o, VM_ODE_DOP853, 1e-12);
    o.atol = 1e-30;
    st = vm_ode_solve (SYS (1, rhs_chatter, NULL, NULL), 0.0, 3.0, &y0, NULL, 0, &o, &s);
    CHECK (st == VM_EHMIN && fabs (s.t_end - 1.0) < 1e-6, "DOP853 chatter: status %d at %g", st,
           s.t_end);
    opts_for (&o, VM_ODE_RK4, 1e-16);
    st = vm_ode_solve (SYS (1, rhs_one, NULL, NULL), 1.0, 2.0, &y0, NULL, 0, &o, &s);
    CHECK (st == VM_EHMIN && s.t_end == 1.0, "RK4 h 1e-16 at t = 1: status %d", st);
    vm_ode_sol_free (&s);
  }
  for (m = VM_ODE_GL4; m <= VM_ODE_GL6; m++)
    {
      /* Newton: one iteration never reaches 1e-14 on a nonlinear problem: 10 halvings, then fail */
      vm_ode_opts o;
      vm_ode_sol s;
      const double y0 = 1.0;
      int st;
      opts_for (&o, m, 0.1);
      o.newton_maxit = 1;
      vm_ode_sol_init (&s);
      st = vm_ode_solve (SYS (1, rhs_square, NULL, NULL), 0.0, 0.5, &y0, NULL, 0, &o, &s);
      CHECK (st == VM_ENEWTON && s.nreject == 11 && s.t_end == 0.0 && s.naccept == 0,
             "%s Newton failure: status %d, %ld rejections", mname[m], st, s.nreject);
      /* y' = y^2 up to t = 0.9 (y = 10) in one step of 0.9: the stage equations have no solution
       * near the start value, halving the step rescues the integration */
      o.newton_maxit = 0;
      o.h = 0.9;
      st = vm_ode_solve (SYS (1, rhs_square, NULL, NULL), 0.0, 0.9, &y0, NULL, 0, &o, &s);
      printf ("info: %s y'=y^2, one step of 0.9: %ld halvings, %ld sub-steps, y(0.9) = %.6f "
              "(exact 10)\n", mname[m], s.nreject, s.naccept, s.npts ? s.y[s.npts - 1] : NAN);
      CHECK (st == VM_OK && s.nreject >= 1 && s.t[s.npts - 1] == 0.9
             && fabs (s.y[s.npts - 1] - 10.0) < 0.5, "%s halving rescue: status %d", mname[m], st);
      vm_ode_sol_free (&s);
    }
}

/* ---- grid, statistics, reuse ------------------------------------------------------------------- */

static void
test_grid_stats (void)
{
  vm_ode_opts o;
  vm_ode_sol s;
  const double y0[2] = { 1.0, 0.0 };
  ctx_t c = { 0.0, 0, 0 };
  int st, k, m;
  vm_ode_sol_init (&s);
  for (m = VM_ODE_GL4; m <= VM_ODE_RK4; m++)
    {
      int ok;
      /* grid t0 + k h, last step shortened to tf; forwards and backwards */
      opts_for (&o, m, 0.3);
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, y0, NULL, 0, &o, &s);
      ok = st == VM_OK && s.npts == 5;
      for (k = 0; ok && k < 4; k++)
        ok = s.t[k] == 0.3 * k;
      CHECK (ok && s.t[4] == 1.0, "%s grid", mname[m]);
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 1.0, 0.0, y0, NULL, 0, &o, &s);
      ok = st == VM_OK && s.npts == 5;
      for (k = 0; ok && k < 4; k++)
        ok = s.t[k] == 1.0 - 0.3 * k;
      CHECK (ok && s.t[4] == 0.0, "%s backwards grid", mname[m]);
      /* a step that divides the interval up to rounding: no sliver step */
      opts_for (&o, m, 0.1);
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 0.7, y0, NULL, 0, &o, &s);
      CHECK (st == VM_OK && s.npts == 8 && s.t[7] == 0.7, "%s: 0.7 / 0.1 steps: npts %zu", mname[m],
             s.npts);
    }
  /* RK4: 3 new evaluations per step plus the FSAL derivative at every step end but the last */
  opts_for (&o, VM_ODE_RK4, 0.01);
  c.nrhs = 0;
  st = vm_ode_solve (SYS (2, rhs_osc, NULL, &c), 0.0, 1.0, y0, NULL, 0, &o, &s);
  CHECK (st == VM_OK && s.naccept == 100 && s.nfev == 400 && c.nrhs == 400, "RK4 nfev %ld", s.nfev);
  /* DOPRI5: 1 initial + 1 starting-step + 6 per attempted step */
  opts_for (&o, VM_ODE_DOPRI5, 1e-8);
  c.nrhs = 0;
  st = vm_ode_solve (SYS (2, rhs_osc, NULL, &c), 0.0, 10.0, y0, NULL, 0, &o, &s);
  CHECK (st == VM_OK && s.nfev == 2 + 6 * s.nsteps && c.nrhs == s.nfev
         && s.nsteps == s.naccept + s.nreject && s.npts == (size_t) s.naccept + 1,
         "DOPRI5 counters: nfev %ld nsteps %ld", s.nfev, s.nsteps);
  /* DOP853: 1 initial + 1 starting-step + 11 per attempted step + 1 per accepted step (F at the
   * new point, reused as the first stage of the next step), + 3 per accepted step with dense
   * output.  h0 = 5 forces rejections (nsteps != naccept). */
  opts_for (&o, VM_ODE_DOP853, 1e-8);
  c.nrhs = 0;
  st = vm_ode_solve (SYS (2, rhs_osc, NULL, &c), 0.0, 10.0, y0, NULL, 0, &o, &s);
  CHECK (st == VM_OK && s.nfev == 2 + 11 * s.nsteps + s.naccept && c.nrhs == s.nfev
         && s.nsteps == s.naccept + s.nreject && s.npts == (size_t) s.naccept + 1,
         "DOP853 counters: nfev %ld nsteps %ld naccept %ld", s.nfev, s.nsteps, s.naccept);
  o.h0 = 5.0;
  c.nrhs = 0;
  st = vm_ode_solve (SYS (2, rhs_osc, NULL, &c), 0.0, 10.0, y0, NULL, 0, &o, &s);
  CHECK (st == VM_OK && s.nreject > 0 && s.nfev == 1 + 11 * s.nsteps + s.naccept
         && c.nrhs == s.nfev && s.nsteps == s.naccept + s.nreject,
         "DOP853 counters with rejections: nfev %ld nsteps %ld naccept %ld nreject %ld", s.nfev,
         s.nsteps, s.naccept, s.nreject);
  {
    const double tout[3] = { 1.0, 2.5, 10.0 };
    o.h0 = 0.0;
    c.nrhs = 0;
    st = vm_ode_solve (SYS (2, rhs_osc, NULL, &c), 0.0, 10.0, y0, tout, 3, &o, &s);
    CHECK (st == VM_OK && s.npts == 3 && s.nfev == 2 + 11 * s.nsteps + 4 * s.naccept
           && c.nrhs == s.nfev, "DOP853 dense counters: nfev %ld nsteps %ld naccept %ld", s.nfev,
           s.nsteps, s.naccept);
  }
  /* GL: Jacobian (n evaluations) once per step, s per Newton iteration plus s for the update */
  opts_for (&o, VM_ODE_GL6, 0.1);
  c.nrhs = 0;
  st = vm_ode_solve (SYS (2, rhs_osc, NULL, &c), 0.0, 1.0, y0, NULL, 0, &o, &s);
  CHECK (st == VM_OK && s.naccept == 10 && s.njac == 10 && s.nlu == 10
         && s.nfev == 1 + 10 * 2 + 3 * s.nnewton_iter + 3 * 10 + 9 && c.nrhs == s.nfev,
         "GL6 counters: nfev %ld, newton %ld, jac %ld", s.nfev, s.nnewton_iter, s.njac);
  printf ("info: GL6 oscillator h = 0.1: %.2f Newton iterations per step\n",
          (double) s.nnewton_iter / (double) s.naccept);
  /* the solution object is reused: a long run after a short one, different n */
  {
    const double z = 0.3;
    opts_for (&o, VM_ODE_RK4, 0.001);
    st = vm_ode_solve (SYS (1, rhs_lin, NULL, NULL), 0.0, 10.0, &z, NULL, 0, &o, &s);
    CHECK (st == VM_OK && s.n == 1 && s.npts == 10001
           && fabs (s.y[10000] - exact_lin (10.0, 0.0, z)) < 1e-12, "reuse with n = 1");
  }
  vm_ode_sol_free (&s);
}

/* ---- the step check (integrate.h) ---------------------------------------------------------------
 * A mock check on the oscillator: a step may change x = y[0] by at most dmax (mode 0), or it is
 * always accepted (mode 3: the run must equal the one without a check, bit for bit), always
 * rejected (mode 1: fixed step VM_ELAYER after VM_ODE_CHECK_LEVELS levels, adaptive step-size
 * underflow; the levels 0 .. VM_ODE_CHECK_LEVELS are tried), or the check fails with code -7
 * (mode 2: passed through). */
typedef struct
{
  ctx_t c;          /* first: rhs_osc counts its evaluations there */
  double dmax;
  int mode;
  long ncalls;
} chk_t;

static int
mock_check (double t, const double *y, double tn, const double *yn, double *factor, double *hnext,
            void *ctx)
{
  chk_t *k = ctx;
  const double d = fabs (yn[0] - y[0]);
  (void) t;
  (void) tn;
  k->ncalls++;
  *factor = 1.0;
  *hnext = HUGE_VAL;
  if (k->mode == 2)
    return -7;
  if (k->mode == 1 || (k->mode == 0 && d > k->dmax))
    *factor = k->mode == 1 ? 0.5 : 0.9 * k->dmax / d;
  return 0;
}

static void
test_step_check (void)
{
  vm_ode_opts o;
  vm_ode_sol s, r;
  const double y0[2] = { 1.0, 0.0 };
  chk_t k;
  int m, st;
  size_t j;
  vm_ode_sol_init (&s);
  vm_ode_sol_init (&r);
  for (m = 0; m < NMETHODS; m++)
    {
      double dx = 0.0, hr = adaptive (m) ? 1e-8 : 0.3;
      memset (&k, 0, sizeof k);
      k.dmax = 0.05;
      opts_for (&o, m, hr);
      o.step_check = mock_check;
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, &k), 0.0, 10.0, y0, NULL, 0, &o, &s);
      for (j = 1; j < s.npts; j++)
        dx = fmax (dx, fabs (s.y[2 * j] - s.y[2 * j - 2]));
      CHECK (st == VM_OK && dx <= k.dmax && s.ncheck_reject > 0 && s.nreject >= s.ncheck_reject
             && s.nsteps == s.naccept + s.nreject && k.ncalls == s.naccept + s.ncheck_reject
             && fabs (s.y[2 * (s.npts - 1)] - cos (10.0)) < 1e-4,
             "%s: step check |dx| <= 0.05: %s, max |dx| %g, %ld rejected of %ld", mname[m],
             vm_status_string (st), dx, s.ncheck_reject, s.nsteps);
      /* a check that accepts everything changes nothing */
      k.mode = 3;
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, &k), 0.0, 10.0, y0, NULL, 0, &o, &s);
      o.step_check = NULL;
      vm_ode_solve (SYS (2, rhs_osc, NULL, &k), 0.0, 10.0, y0, NULL, 0, &o, &r);
      CHECK (st == VM_OK && s.npts == r.npts && s.nfev == r.nfev
             && memcmp (s.y, r.y, 2 * s.npts * sizeof (double)) == 0,
             "%s: an accepting check changes nothing", mname[m]);
      o.step_check = mock_check;
      k.mode = 1;
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, &k), 1.0, 10.0, y0, NULL, 0, &o, &s);
      CHECK (st == (adaptive (m) ? VM_EHMIN : VM_ELAYER) && s.naccept == 0
             && (adaptive (m) || s.ncheck_reject == VM_ODE_CHECK_LEVELS + 1),
             "%s: a check that always rejects: %s after %ld rejections", mname[m],
             vm_status_string (st), s.ncheck_reject);
      k.mode = 2;
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, &k), 0.0, 10.0, y0, NULL, 0, &o, &s);
      CHECK (st == -7 && s.npts == 1, "%s: the check's code is passed through", mname[m]);
    }
  vm_ode_sol_free (&s);
  vm_ode_sol_free (&r);
}

/* A fixed step longer than the interval is the interval: one step that lands on tf, equal to the
 * run with the step tf - t0, forwards and backwards; output times inside it are hit. */
static void
test_step_beyond_interval (void)
{
  vm_ode_opts o;
  vm_ode_sol s, r;
  const double y0[2] = { 1.0, 0.0 }, tout[3] = { 0.25, 0.5, 1.0 };
  int m, st, dir;
  vm_ode_sol_init (&s);
  vm_ode_sol_init (&r);
  for (m = VM_ODE_GL4; m <= VM_ODE_RK4; m++)
    for (dir = 1; dir >= -1; dir -= 2)
      {
        const double t0 = dir > 0 ? 0.0 : 1.0, tf = 1.0 - t0;
        opts_for (&o, m, 10.0);
        st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), t0, tf, y0, NULL, 0, &o, &s);
        opts_for (&o, m, 1.0);
        vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), t0, tf, y0, NULL, 0, &o, &r);
        CHECK (st == VM_OK && s.nsteps == 1 && s.npts == 2 && s.t[1] == tf && r.npts == 2
               && memcmp (s.y, r.y, 4 * sizeof (double)) == 0,
               "%s: step 10 on [%g, %g] is the step %g", mname[m], t0, tf, tf - t0);
      }
  for (m = VM_ODE_GL4; m <= VM_ODE_RK4; m++)
    {
      opts_for (&o, m, 10.0);
      st = vm_ode_solve (SYS (2, rhs_osc, NULL, NULL), 0.0, 1.0, y0, tout, 3, &o, &s);
      CHECK (st == VM_OK && s.nsteps == 1 && s.npts == 3 && s.t[0] == 0.25 && s.t[1] == 0.5
             && s.t[2] == 1.0,
             "%s: output times inside one step", mname[m]);
    }
  vm_ode_sol_free (&s);
  vm_ode_sol_free (&r);
}

int
main (void)
{
  test_orders ();
  test_dop853_coeffs ();
  test_dop853_accuracy ();
  test_dop853_nfev ();
  test_dense_adaptive (VM_ODE_DOPRI5, 1e-8);
  test_dense_adaptive (VM_ODE_DOP853, 1e-8);
  test_dense_adaptive (VM_ODE_DOP853, 1e-12);
  test_dense_dop853_fixed ();
  test_dense_hermite ();
  test_keep_steps ();
  test_symplectic ();
  test_events_falling ();
  test_events_direction ();
  test_events_terminal ();
  test_events_same_step ();
  test_backward ();
  test_args ();
  test_failures ();
  test_grid_stats ();
  test_step_check ();
  test_step_beyond_interval ();
  CHECK (strcmp (vm_status_string (VM_ENEWTON), "unknown status") != 0
         && strcmp (vm_status_string (VM_STOP_EVENT), "unknown status") != 0, "status strings");
  return vmtest_finish ("test_integrate");
}
