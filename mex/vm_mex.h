/* vm_mex.h -- argument validation shared by the varmech MEX gateways (documented mex.h API only).
 * Every check raises an error naming the function, the argument, what was wrong and what was expected. */
#ifndef VM_MEX_H
#define VM_MEX_H

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include "mex.h"

/* The CSC arrays of csrc/ are int64_t; mwIndex must have the same width to be filled in place. */
/* Helpers are static; not every gateway uses all of them. */
#if defined(__GNUC__)
#define VM_MAYBE_UNUSED __attribute__ ((unused))
#else
#define VM_MAYBE_UNUSED
#endif

typedef char vm_mwindex_is_int64[(sizeof (mwIndex) == sizeof (int64_t)) ? 1 : -1];


/* printf-free rendering of a double that spells NaN and Inf the MATLAB way (buf >= 32 chars). */
static VM_MAYBE_UNUSED const char *
vm_num (double v, char *buf)
{
  if (isnan (v))
    return "NaN";
  if (isinf (v))
    return v > 0 ? "Inf" : "-Inf";
  sprintf (buf, "%g", v);
  return buf;
}

/* A real, finite, integer-valued numeric scalar (any numeric class, not logical or char). */
static VM_MAYBE_UNUSED int64_t
vm_get_int (const mxArray *a, const char *fn, const char *name)
{
  double v;
  if (! mxIsNumeric (a) || mxIsComplex (a) || mxIsSparse (a) || mxGetNumberOfElements (a) != 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: %s must be a real numeric scalar", fn, name);
  v = mxGetScalar (a);
  if (! isfinite (v) || v != floor (v) || fabs (v) > 9007199254740992.0)
    {
      char b[32];
      mexErrMsgIdAndTxt ("varmech:badarg", "%s: %s must be a finite integer (got %s)", fn, name,
                         vm_num (v, b));
    }
  return (int64_t) v;
}

/* A real full double vector [t0 tf] with finite t0 < tf. */
static VM_MAYBE_UNUSED void
vm_get_interval (const mxArray *a, const char *fn, const char *name, double *t0, double *tf)
{
  const double *p;
  if (! mxIsDouble (a) || mxIsComplex (a) || mxIsSparse (a) || mxGetNumberOfElements (a) != 2
      || mxGetNumberOfDimensions (a) != 2 || (mxGetM (a) != 1 && mxGetN (a) != 1))
    mexErrMsgIdAndTxt ("varmech:badarg",
                       "%s: %s must be a real double vector [t0 tf] with 2 elements", fn, name);
  p = mxGetPr (a);
  if (! isfinite (p[0]) || ! isfinite (p[1]) || ! (p[1] > p[0]))
    {
      char b0[32], b1[32];
      mexErrMsgIdAndTxt ("varmech:badarg",
                         "%s: %s = [%s %s] must be finite and increasing (t0 < tf)", fn, name,
                         vm_num (p[0], b0), vm_num (p[1], b1));
    }
  *t0 = p[0];
  *tf = p[1];
}

/* A real full double 2-D matrix with finite entries. */
static VM_MAYBE_UNUSED void
vm_check_real_matrix (const mxArray *a, const char *fn, const char *name)
{
  const double *p;
  size_t k, ne;
  if (! mxIsDouble (a) || mxIsComplex (a) || mxIsSparse (a) || mxGetNumberOfDimensions (a) != 2)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: %s must be a real full double matrix", fn, name);
  p = mxGetPr (a);
  ne = mxGetNumberOfElements (a);
  for (k = 0; k < ne; k++)
    if (! isfinite (p[k]))
      {
        char b[32];
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: %s must be finite (element %lu is %s)", fn, name,
                           (unsigned long) (k + 1), vm_num (p[k], b));
      }
}

/* Name of a gateway's command argument, or an error. */
static VM_MAYBE_UNUSED void
vm_get_command (int nrhs, const mxArray *prhs[], const char *gw, char *buf, size_t len)
{
  if (nrhs < 1 || ! mxIsChar (prhs[0]) || mxGetString (prhs[0], buf, (mwSize) len) != 0)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the first argument must be a command string", gw);
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
