/* erk_dopri5.c -- the method table of Dormand-Prince 5(4) (DOPRI5) for the adaptive driver erk.c.
 *
 * Contract: 6 stages and F(tn, y1) with the step (7 evaluations per trial, FSAL: the last is the
 * first of the next step); error err = sqrt(sum_i (h e.k / sk_i)^2 / n), sk_i = atol + rtol
 * max(|y_i|, |y1_i|); Hairer's controller (safety 0.9, hnew/h in [0.2, 10], PI term beta = 0.04,
 * exponent of order 5) and starting step; Hairer's 4th-order continuous extension CONTD5 (4 dense
 * vectors, no extra evaluation).  Coefficients: Hairer, Norsett and Wanner, Solving ODEs I, II.5.
 */
#include <float.h>
#include <math.h>

#include "reference/ode_mem.h"
#include "base/vm_status.h"

static const double dp5_c[7] = { 0.0, 0.2, 0.3, 0.8, 8.0 / 9.0, 1.0, 1.0 };

/* rows 1..5 the stages, row 6 the 5th-order weights b */
static const double dp5_a[7][7] = {
  [1] = { 0.2 },
  [2] = { 3.0 / 40.0, 9.0 / 40.0 },
  [3] = { 44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0 },
  [4] = { 19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0 },
  [5] = { 9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0 },
  [6] = { 35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0 }
};

/* the error weights b - bhat over the stages 0..6 (stage 6: F(tn, y1)) */
static const double dp5_e[7] = { 71.0 / 57600.0, 0.0, -71.0 / 16695.0, 71.0 / 1920.0,
                                 -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0 };

/* the continuous extension's 5th coefficient (Hairer's CONTD5) over the stages 0..6 */
static const double dp5_d[7] = { -12715105075.0 / 11282082432.0, 0.0,
                                 87487479700.0 / 32700410799.0, -10690763975.0 / 1880347072.0,
                                 701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
                                 69997945.0 / 29380423.0 };

static int
dp5_error (vm_ode_mem *w, double h, double *errp)
{
  const int n = w->n;
  const double rtol = w->o->rtol, atol = w->o->atol, *y = w->y, *y1 = w->yn;
  const double *kp[VM_ERK_MAXSTAGE];
  double cw[VM_ERK_MAXSTAGE], err = 0.0;
  const int m = vm_erk_gather (w, dp5_e, 0, 7, kp, cw);
  int i;
  for (i = 0; i < n; i++)
    {
      const double sk = atol + rtol * fmax (fabs (y[i]), fabs (y1[i]));
      const double ei = h * vm_erk_wsum (m, cw, kp, i);
      const double q = ei / (sk > 0.0 ? sk : DBL_MIN);
      err += q * q;
    }
  err = sqrt (err / n);
  if (isnan (err))
    return VM_ENONFINITE;
  *errp = err;
  return VM_OK;
}

/* the dense coefficients r2..r5 of an accepted step of size h */
static int
dp5_dense (vm_ode_mem *w, double h)
{
  const int n = w->n;
  const double *y = w->y, *k1 = w->fy, *y1 = w->yn, *k7 = w->fn;
  const double *kp[VM_ERK_MAXSTAGE];
  double cw[VM_ERK_MAXSTAGE];
  double *r2 = w->rc, *r3 = w->rc + n, *r4 = w->rc + 2 * n, *r5 = w->rc + 3 * n;
  const int m = vm_erk_gather (w, dp5_d, 0, 7, kp, cw);
  int i;
  for (i = 0; i < n; i++)
    {
      const double ydiff = y1[i] - y[i], bspl = h * k1[i] - ydiff;
      r2[i] = ydiff;
      r3[i] = bspl;
      r4[i] = ydiff - h * k7[i] - bspl;
      r5[i] = h * vm_erk_wsum (m, cw, kp, i);
    }
  return VM_OK;
}

static void
dp5_dense_eval (const vm_ode_mem *w, double th, double *out)
{
  const int n = w->n;
  const double th1 = 1.0 - th;
  const double *r2 = w->rc, *r3 = w->rc + n, *r4 = w->rc + 2 * n, *r5 = w->rc + 3 * n;
  int i;
  for (i = 0; i < n; i++)
    out[i] = w->y[i] + th * (r2[i] + th1 * (r3[i] + th * (r4[i] + th1 * r5[i])));
}

const vm_erk_method vm_erk_dopri5 = {
  6, 7, 7, dp5_c, &dp5_a[0][0],
  1,                            /* F(tn, y1) with the step: the error weights use it */
  5, 0.04, 0.9, 0.2, 10.0,
  5, 4,
  dp5_error, dp5_dense, dp5_dense_eval
};
