/* vm_mex.h -- what every varmech MEX gateway includes (documented mex.h API only): the argument
 * checks (vm_mex_args.h, compiled once in vm_mex_args.c) and the live progress printer. */
#ifndef VM_MEX_H
#define VM_MEX_H

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "mex.h"
#include "vm_mex_args.h"

/* The CSC arrays of csrc/ are int64_t; mwIndex must have the same width to be filled in place. */
/* Helpers are static; not every gateway uses all of them. */
#if defined(__GNUC__)
#define VM_MAYBE_UNUSED __attribute__ ((unused))
#else
#define VM_MAYBE_UNUSED
#endif

typedef char vm_mwindex_is_int64[(sizeof (mwIndex) == sizeof (int64_t)) ? 1 : -1];

/* an n-by-1 double column (src may be NULL when n = 0) */
static VM_MAYBE_UNUSED mxArray *
vm_mx_col (const double *src, size_t n)
{
  mxArray *a = mxCreateDoubleMatrix (n, 1, mxREAL);
  if (src && n > 0)
    memcpy (mxGetPr (a), src, n * sizeof (double));
  return a;
}

/* point-major src[k stride + off + j] (k < npts, j < ncol) -> an npts-by-ncol matrix */
static VM_MAYBE_UNUSED mxArray *
vm_mx_point_major (const double *src, int64_t npts, int ncol, int stride, int off)
{
  mxArray *a = mxCreateDoubleMatrix ((mwSize) npts, (mwSize) ncol, mxREAL);
  double *p = mxGetPr (a);
  int64_t k;
  int j;
  for (k = 0; k < npts; k++)
    for (j = 0; j < ncol; j++)
      p[k + npts * j] = src[k * stride + off + j];
  return a;
}

/* Print a line of a kernel's live progress (march.h print callback) and flush it, so that it
 * shows while the solve runs: fflush (stdout) in Octave, drawnow in MATLAB (where fflush does not
 * exist; mexEvalString returns nonzero then). */
static VM_MAYBE_UNUSED void
vm_mex_print (void *ctx, const char *line)
{
  static int matlab = 0;
  (void) ctx;
  mexPrintf ("%s", line);
  if (matlab || mexEvalString ("fflush (stdout);") != 0)
    {
      matlab = 1;
      mexEvalString ("drawnow;");
    }
}

#endif
