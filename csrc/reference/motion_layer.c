/* motion_layer.c -- soft contacts: the step check that no step crosses a contact's layer unseen
 * (motion.h, "soft contacts").
 *
 * Contract: vm_motion_layer_travel is a pure function (O(1): three cubics, their turning points,
 * at most 60 bisection steps for the fraction); vm_motion_layer_check evaluates the contacts
 * block once per step end (O(tape + nc n)), keeping the last end's values in mo->lbuf so that the
 * next step's start costs nothing.
 */
#include "reference/motion.h"
#include "reference/motion_impl.h"
#include "reference/reaction.h"
#include "base/vm_status.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static double
hermite (const double *cf, double th)
{
  return cf[0] + th * (cf[1] + th * (cf[2] + th * cf[3]));
}

static double
clip (double x, double b)
{
  return x < -b ? -b : x > b ? b : x;
}

/* the zeros of H' = cf[1] + 2 cf[2] th + 3 cf[3] th^2 inside (0, 1), increasing, into r */
static int
hermite_turns (const double *cf, double *r)
{
  const double a = 3.0 * cf[3], b = 2.0 * cf[2], c = cf[1];
  double z[2], disc, q;
  int nz = 0, k, m = 0;
  if (a == 0.0)
    {
      if (b != 0.0)
        z[nz++] = -c / b;
    }
  else if ((disc = b * b - 4.0 * a * c) >= 0.0)
    {
      q = -0.5 * (b + copysign (sqrt (disc), b));
      if (q != 0.0)
        {
          z[nz++] = q / a;
          z[nz++] = c / q;
        }
    }
  for (k = 0; k < nz; k++)
    if (z[k] > 0.0 && z[k] < 1.0)
      r[m++] = z[k];
  if (m == 2 && r[0] > r[1])
    {
      q = r[0];
      r[0] = r[1];
      r[1] = q;
    }
  return m;
}

/* on a monotone piece [lo, hi] of H starting at the clipped value a: the fraction at which
 * |clip(H) - a| reaches rem (bisection) */
static double
travel_point (const double *cf, double band, double lo, double hi, double a, double rem)
{
  int it;
  for (it = 0; it < 60 && hi - lo > 1e-15; it++)
    {
      const double mid = 0.5 * (lo + hi);
      if (fabs (clip (hermite (cf, mid), band) - a) < rem)
        lo = mid;
      else
        hi = mid;
    }
  return hi;
}

/* the travel of clip(H) for the cubic H = cf[0] + cf[1] th + cf[2] th^2 + cf[3] th^3 on [0, 1], and
 * the fraction at which it reaches target (1 if it stays below) */
static double
cubic_travel (const double *cf, double band, double target, double *theta)
{
  double node[4], val[4], tot = 0.0;
  int nn, k;
  node[0] = 0.0;
  nn = 1 + hermite_turns (cf, node + 1);
  node[nn++] = 1.0;
  for (k = 0; k < nn; k++)
    val[k] = clip (hermite (cf, node[k]), band);
  *theta = 1.0;
  for (k = 0; k + 1 < nn; k++)
    {
      const double v = fabs (val[k + 1] - val[k]);
      if (*theta == 1.0 && tot + v > target)
        *theta = travel_point (cf, band, node[k], node[k + 1], val[k], target - tot);
      tot += v;
    }
  return tot;
}

double
vm_motion_layer_travel (double h0, double hd0, double h1, double hd1, double dt, double band,
                        double target, double *theta)
{
  /* the cubic Hermite interpolant, the line from the start, the line back from the end */
  const double cf[3][4] = { { h0, dt * hd0, 3.0 * (h1 - h0) - dt * (2.0 * hd0 + hd1),
                              2.0 * (h0 - h1) + dt * (hd0 + hd1) },
                            { h0, dt * hd0, 0.0, 0.0 },
                            { h1 - dt * hd1, dt * hd1, 0.0, 0.0 } };
  double tot = 0.0, th, thmin = 1.0;
  int k;
  for (k = 0; k < 3; k++)
    {
      tot = fmax (tot, cubic_travel (cf[k], band, target, &th));
      thmin = fmin (thmin, th);
    }
  if (theta)
    *theta = thmin;
  return tot;
}

/* h and hdot = grad h . qdot of every contact at (t, y) into a slot: t | y (2n) | h (nc) | hdot */
static int
layer_values (vm_motion *mo, double t, const double *y, double *slot)
{
  const int n = mo->n, nc = mo->nc;
  double *h = slot + 1 + 2 * n, *hd = h + nc;
  int st, c, j;
  vm_motion_set_inputs (mo, t, y, y + n);
  if ((st = vm_point_block_eval (&mo->con, mo->in, mo->inc)) != VM_OK)
    return st;
  slot[0] = t;
  memcpy (slot + 1, y, (size_t) 2 * n * sizeof (double));
  for (c = 0; c < nc; c++)
    {
      h[c] = mo->con.field[0][c];
      hd[c] = 0.0;
      for (j = 0; j < n; j++)
        hd[c] += mo->con.field[1][c + (size_t) nc * j] * y[n + j];
      if (! isfinite (h[c]) || ! isfinite (hd[c]))
        return VM_ENONFINITE;
    }
  return VM_OK;
}

static int
slot_is (const double *slot, double t, const double *y, int n2)
{
  return slot[0] == t && memcmp (slot + 1, y, (size_t) n2 * sizeof (double)) == 0;
}

/* the slots of the step's start (kept from the last call when it ended or started there) and end */
static int
layer_ends (vm_motion *mo, double t, const double *y, double tn, const double *yn, double **s0,
            double **s1)
{
  const int n2 = 2 * mo->n;
  double *a = mo->lbuf + (mo->lslot == 1 ? 1 + n2 + 2 * mo->nc : 0);
  double *b = a == mo->lbuf ? mo->lbuf + 1 + n2 + 2 * mo->nc : mo->lbuf;
  int st = VM_OK;
  *s0 = a;
  *s1 = b;
  if (mo->lslot >= 0 && slot_is (b, t, y, n2))
    {
      *s0 = b;
      *s1 = a;
    }
  else if (! (mo->lslot >= 0 && slot_is (a, t, y, n2)))
    st = layer_values (mo, t, y, a);
  mo->lslot = -1;
  if (st != VM_OK || (st = layer_values (mo, tn, yn, *s1)) != VM_OK)
    return st;
  mo->lslot = *s1 == mo->lbuf ? 0 : 1;
  return VM_OK;
}

int
vm_motion_layer_check (double t, const double *y, double tn, const double *yn, double *factor,
                       double *hnext, void *ctx)
{
  vm_motion *mo = ctx;
  const int nc = mo->nc, off = 1 + 2 * mo->n;
  const double layer = mo->layer > 0 ? mo->layer : VM_CONTACT_LAYER,
               res = mo->layer_res > 0 ? mo->layer_res : VM_CONTACT_RES;
  double *s0, *s1;
  int c, st;
  *factor = 1.0;
  *hnext = HUGE_VAL;
  if (nc == 0 || ! mo->con.b)
    return VM_OK;
  if ((st = layer_ends (mo, t, y, tn, yn, &s0, &s1)) != VM_OK)
    return st;
  for (c = 0; c < nc; c++)
    {
      const double sig = fabs (mo->con.field[4][c]), band = layer * sig, allow = res * sig;
      const double h1 = s1[off + c], hd1 = s1[off + nc + c];
      double th, d;
      if (! (sig > 0.0) || ! isfinite (sig))
        continue;
      if (vm_motion_layer_travel (s0[off + c], s0[off + nc + c], h1, hd1, tn - t, band, 0.8 * allow,
                                  &th) > allow)
        *factor = fmin (*factor, fmin (th, 0.9));
      /* the next step: to the layer (when moving towards it), then 0.8 allow inside it */
      d = fabs (h1) <= band ? 0.0 : h1 * hd1 < 0.0 ? fabs (h1) - band : HUGE_VAL;
      if (hd1 != 0.0 && d < HUGE_VAL)
        *hnext = fmin (*hnext, (d + 0.8 * allow) / fabs (hd1));
    }
  return VM_OK;
}

