/* vm_march_mx.h -- the record of a time march (csrc/march/march.h) as Octave/MATLAB values, shared by
 * the gateways of the action solvers (vm_skg_mex, vm_dual_mex).  Conversion only. */
#ifndef VM_MARCH_MX_H
#define VM_MARCH_MX_H

#include <string.h>

#include "vm_mex.h"
#include "march/march.h"

/* an n-by-1 double column of ints */
static mxArray *
vm_mx_int_col (const int *src, size_t n)
{
  mxArray *a = mxCreateDoubleMatrix (n, 1, mxREAL);
  size_t k;
  for (k = 0; k < n; k++)
    mxGetPr (a)[k] = src[k];
  return a;
}

/* out.unresolved_windows: fixed grid, the windows the action's check vetoes (kept);
 * out.windows: t0, t1, N, error, iterations, companion_iterations of each accepted window;
 * out.rejected: t0, length, reason ("error", "newton", "companion", or the check_name of the
 * action's check, e.g. "contact"), error of each rejected attempt.  N: nodes per window. */
static void
vm_march_mx_windows (mxArray *out, const vm_march_sol *ms, int64_t N)
{
  static const char *wk[] = { "t0", "t1", "N", "error", "iterations", "companion_iterations" };
  static const char *rk[] = { "t0", "length", "reason", "error" };
  mxArray *w = mxCreateStructMatrix (1, 1, 6, wk), *r = mxCreateStructMatrix (1, 1, 4, rk), *nn,
          *reason;
  size_t k, nw = (size_t) ms->nwin, nr = (size_t) ms->nrej;
  mxSetField (w, 0, "t0", vm_mx_col (ms->win_t0, nw));
  mxSetField (w, 0, "t1", vm_mx_col (ms->win_t1, nw));
  nn = mxCreateDoubleMatrix (nw, 1, mxREAL);
  for (k = 0; k < nw; k++)
    mxGetPr (nn)[k] = (double) N;
  mxSetField (w, 0, "N", nn);
  mxSetField (w, 0, "error", vm_mx_col (ms->win_err, nw));
  mxSetField (w, 0, "iterations", vm_mx_int_col (ms->win_iter, nw));
  mxSetField (w, 0, "companion_iterations", vm_mx_int_col (ms->win_citer, nw));
  mxSetField (out, 0, "windows", w);
  mxSetField (r, 0, "t0", vm_mx_col (ms->rej_t0, nr));
  mxSetField (r, 0, "length", vm_mx_col (ms->rej_len, nr));
  mxSetField (r, 0, "error", vm_mx_col (ms->rej_err, nr));
  reason = mxCreateCellMatrix (nr, 1);
  for (k = 0; k < nr; k++)
    mxSetCell (reason, k, mxCreateString (ms->rej_reason[k] == VM_MARCH_REJ_ERROR ? "error"
                                          : ms->rej_reason[k] == VM_MARCH_REJ_NEWTON ? "newton"
                                          : ms->rej_reason[k] == VM_MARCH_REJ_CHECK
                                          ? ms->check_name : "companion"));
  mxSetField (r, 0, "reason", reason);
  mxSetField (out, 0, "rejected", r);
  mxAddField (out, "unresolved_windows");
  mxSetField (out, 0, "unresolved_windows", mxCreateDoubleScalar ((double) ms->nunresolved));
}

#endif
