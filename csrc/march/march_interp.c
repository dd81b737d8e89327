/* march_interp.c -- dense output of a march (march.h vm_march_interp): Lagrange interpolation on
 * the nodes of the window that holds each time.
 *
 * Errors: VM_EARG for a time outside the solved interval or a solution without two nodes.  Cost:
 * O(log nwin + N + deg^2 nout) per time.  Why per window: the trajectory is smooth inside a window
 * and only continuous at the junctions, so the interpolant must not straddle one. */
#include "march/march.h"
#include "base/vm_status.h"

#include <math.h>

int
vm_march_interp (const vm_march_sol *s, int deg, const double *tq, int64_t nq, double *out)
{
  int64_t q;
  if (! s || ! tq || ! out || deg < 0 || s->nwin < 1 || s->ntot < 2)
    return VM_EARG;
  for (q = 0; q < nq; q++)
    {
      double tt = tq[q];
      int lo = 0, hi = s->nwin - 1, wi, d, i, j, cc;
      int64_t first, lastn, start, nn;
      if (! (tt >= s->win_t0[0] - 1e-12 * fabs (s->win_t0[0])
             && tt <= s->win_t1[s->nwin - 1] + 1e-12 * fabs (s->win_t1[s->nwin - 1])))
        return VM_EARG;
      while (lo < hi)              /* the last window with win_t0 <= tt */
        {
          int mid = (lo + hi + 1) / 2;
          if (s->win_t0[mid] <= tt)
            lo = mid;
          else
            hi = mid - 1;
        }
      wi = lo;
      first = wi == 0 ? 0 : s->win_first[wi] - 1;
      lastn = s->win_first[wi + 1] - 1;
      nn = lastn - first + 1;
      d = (int) (deg < nn - 1 ? deg : nn - 1);
      {
        /* nearest node, then the d + 1 nodes around it inside the window */
        int64_t near = first;
        double best = fabs (s->t[first] - tt);
        for (start = first; start <= lastn; start++)
          if (fabs (s->t[start] - tt) < best)
            {
              best = fabs (s->t[start] - tt);
              near = start;
            }
        start = near - d / 2;
        if (start < first)
          start = first;
        if (start + d > lastn)
          start = lastn - d;
      }
      for (cc = 0; cc < s->nout; cc++)
        out[q + nq * cc] = 0.0;
      for (i = 0; i <= d; i++)
        {
          double li = 1.0, ti = s->t[start + i];
          for (j = 0; j <= d; j++)
            if (j != i)
              li *= (tt - s->t[start + j]) / (ti - s->t[start + j]);
          for (cc = 0; cc < s->nout; cc++)
            out[q + nq * cc] += li * s->traj[(start + i) + s->ntot * cc];
        }
    }
  return VM_OK;
}
