/* vm_options_mex.c -- the fast path of the options' checks (inst/private/vm_options.m).  Internal.
 *
 *   [opts, slow] = vm_options_mex (defaults, fast, args)
 *
 * defaults: the front end's scalar struct of options and their defaults; fast: the scalar struct
 * of vm_option_rule's second output, one row [kind lo hi lc hc (orders)] per option whose value is
 * a real scalar (kind 1 an integer, 2 a real, 3 an SBP order in orders; lo < v < hi, v = lo
 * allowed when lc is nonzero, v = hi when hc is) and [0 0 0 0 0] per option with no rule (kind 0:
 * any value, checked by the front end itself); args: the name/value pairs (a cell with an even
 * number of entries).
 *
 * opts is defaults with every pair that passes the fast test set: its name is a field of defaults
 * and of fast, spelled exactly, and its value any value for kind 0, else a double real non-sparse
 * scalar within its row.  slow
 * lists (1-based, increasing) the positions in args of the names of every other pair: vm_options.m
 * checks those, phrases every refusal, and sets the values that pass.  When two names are equal
 * ignoring case, every pair is slow (the m-code applies them in order; the last one wins), so
 * that the result never depends on which path set a value.
 *
 * Why in C: in Octave 7 each statement of the m-code path costs 1-3 us (isfield on a struct of
 * 35 fields 6 us); the seven options of a dual_lorenz call took 0.4 ms there, a fifth of the
 * call at N = 256 (bench/README_dual.md).  The rules stay in vm_option_rule.m: this file only
 * reads the rows.  Argument checking, no numerics; only the documented mex.h API. */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "mex.h"

#define NAME_MAX_LEN 63   /* longer names take the slow path */

static void
bad (const char *what)
{
  mexErrMsgIdAndTxt ("varmech:badarg", "vm_options_mex: internal: %s", what);
}

/* a char row vector that fits into buf: its text; otherwise 0 (a slow name) */
static int
name_of (const mxArray *a, char *buf)
{
  if (a == NULL || ! mxIsChar (a) || mxGetNumberOfDimensions (a) != 2 || mxGetM (a) != 1
      || mxGetN (a) > NAME_MAX_LEN)
    return 0;
  return mxGetString (a, buf, NAME_MAX_LEN + 1) == 0;
}

static int
same_ignoring_case (const char *a, const char *b)
{
  for (; *a && *b; a++, b++)
    if (tolower ((unsigned char) *a) != tolower ((unsigned char) *b))
      return 0;
  return *a == *b;
}

/* the fast test of value v against the row r of n entries (vm_option_rule.m, fast_of) */
static int
passes (const mxArray *v, const double *r, size_t n)
{
  double x;
  size_t i;
  if (r[0] == 0.0)
    return 1;   /* no rule */
  if (! mxIsDouble (v) || mxIsComplex (v) || mxIsSparse (v) || mxGetNumberOfElements (v) != 1)
    return 0;
  x = mxGetScalar (v);
  if (! ((x > r[1] || (r[3] != 0.0 && x == r[1])) && (x < r[2] || (r[4] != 0.0 && x == r[2]))))
    return 0;   /* also NaN */
  if (r[0] != 2.0 && x != floor (x))
    return 0;
  if (r[0] == 3.0)
    {
      for (i = 5; i < n; i++)
        if (x == r[i])
          return 1;
      return 0;
    }
  return 1;
}

/* the row of fast for name, or NULL (no row, or not a real row of at least 5 entries) */
static const double *
row_of (const mxArray *fast, const char *name, size_t *n)
{
  const mxArray *r = mxGetField (fast, 0, name);
  if (r == NULL || ! mxIsDouble (r) || mxIsComplex (r) || mxIsSparse (r)
      || mxGetNumberOfElements (r) < 5)
    return NULL;
  *n = mxGetNumberOfElements (r);
  return mxGetPr (r);
}

/* 1 when two of the np names are equal ignoring case (names[k] "" for a slow name) */
static int
repeated (char (*names)[NAME_MAX_LEN + 1], size_t np)
{
  size_t i, j;
  for (i = 0; i < np; i++)
    for (j = i + 1; j < np; j++)
      if (names[i][0] != '\0' && same_ignoring_case (names[i], names[j]))
        return 1;
  return 0;
}

void
mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const mxArray *defaults, *fast, *args;
  mxArray *opts, *slow;
  char (*names)[NAME_MAX_LEN + 1];
  unsigned char *is_fast;
  size_t np, k, nslow = 0;
  double *ps;
  if (nrhs != 3 || nlhs > 2)
    bad ("expected [opts, slow] = vm_options_mex (defaults, fast, args)");
  defaults = prhs[0];
  fast = prhs[1];
  args = prhs[2];
  if (! mxIsStruct (defaults) || mxGetNumberOfElements (defaults) != 1)
    bad ("defaults must be a scalar struct");
  if (! mxIsStruct (fast) || mxGetNumberOfElements (fast) != 1)
    bad ("fast must be a scalar struct");
  if (! mxIsCell (args) || mxGetNumberOfElements (args) % 2 != 0)
    bad ("args must be a cell of name/value pairs");
  np = mxGetNumberOfElements (args) / 2;
  names = mxCalloc (np > 0 ? np : 1, sizeof *names);
  is_fast = mxCalloc (np > 0 ? np : 1, 1);
  for (k = 0; k < np; k++)
    if (! name_of (mxGetCell (args, (mwIndex) (2 * k)), names[k]))
      names[k][0] = '\0';
  opts = mxDuplicateArray (defaults);
  if (! repeated (names, np))
    for (k = 0; k < np; k++)
      {
        const mxArray *v = mxGetCell (args, (mwIndex) (2 * k + 1));
        const double *r;
        size_t n = 0;
        int f;
        if (names[k][0] == '\0' || (f = mxGetFieldNumber (opts, names[k])) < 0
            || (r = row_of (fast, names[k], &n)) == NULL || v == NULL || ! passes (v, r, n))
          continue;
        if (mxGetFieldByNumber (opts, 0, f) != NULL)
          mxDestroyArray (mxGetFieldByNumber (opts, 0, f));
        mxSetFieldByNumber (opts, 0, f, r[0] == 0.0 ? mxDuplicateArray (v)
                                                     : mxCreateDoubleScalar (mxGetScalar (v)));
        is_fast[k] = 1;
      }
  for (k = 0; k < np; k++)
    nslow += ! is_fast[k];
  slow = mxCreateDoubleMatrix (1, (mwSize) nslow, mxREAL);
  ps = mxGetPr (slow);
  for (k = 0; k < np; k++)
    if (! is_fast[k])
      *ps++ = (double) (2 * k + 1);
  mxFree (names);
  mxFree (is_fast);
  plhs[0] = opts;
  if (nlhs > 1)
    plhs[1] = slow;
  else
    mxDestroyArray (slow);
}
