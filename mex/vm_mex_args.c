/* vm_mex_args.c -- the argument checks shared by the varmech MEX gateways (vm_mex_args.h).
 * Checks and conversion only; documented mex.h API only. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vm_mex_args.h"
#include "sbp/sbp.h"

#define BADARG "varmech:badarg"

/* 2^53: beyond it a double no longer holds every integer */
#define VM_ARG_EXACT 9007199254740992.0

void
vm_arg_describe (const mxArray *a, char *buf, size_t len)
{
  const mwSize *d = mxGetDimensions (a);
  mwSize nd = mxGetNumberOfDimensions (a), k;
  size_t u;
  snprintf (buf, len, "%s%s%s", mxIsSparse (a) ? "sparse " : "",
            mxIsComplex (a) ? "complex " : "", mxGetClassName (a));
  for (k = 0; k < nd; k++)
    {
      u = strlen (buf);
      if (u + 24 >= len)
        break;
      snprintf (buf + u, len - u, "%s%lu", k ? "x" : " ", (unsigned long) d[k]);
    }
  /* a short string: its text too ("char 1x5 ('euler')") */
  if (mxIsChar (a) && mxGetM (a) == 1 && mxGetNumberOfDimensions (a) == 2 && mxGetN (a) <= 40)
    {
      char t[41];
      u = strlen (buf);
      if (mxGetString (a, t, sizeof t) == 0 && u + 48 < len)
        snprintf (buf + u, len - u, " ('%s')", t);
    }
  /* a numeric scalar: its value too ("double 1x1 (NaN)") */
  if (mxGetNumberOfElements (a) == 1 && (mxIsNumeric (a) || mxIsLogical (a)) && ! mxIsSparse (a)
      && ! mxIsComplex (a))
    {
      double v = mxGetScalar (a);
      u = strlen (buf);
      if (u + 32 < len)
        {
          if (isnan (v))
            snprintf (buf + u, len - u, " (NaN)");
          else if (isinf (v))
            snprintf (buf + u, len - u, " (%sInf)", v < 0 ? "-" : "");
          else
            snprintf (buf + u, len - u, " (%.15g)", v);
        }
    }
}

void
vm_arg_refuse (const mxArray *a, const char *fn, const char *name, const char *expected)
{
  char got[160];
  vm_arg_describe (a, got, sizeof got);
  mexErrMsgIdAndTxt (BADARG, "%s: %s must be %s; got %s", fn, name, expected, got);
}

static int
is_real_full_double (const mxArray *a)
{
  return mxIsDouble (a) && ! mxIsComplex (a) && ! mxIsSparse (a) && mxGetNumberOfDimensions (a) == 2;
}

static void
check_finite (const mxArray *a, const char *fn, const char *name)
{
  const double *p = mxGetPr (a);
  size_t k, ne = mxGetNumberOfElements (a);
  for (k = 0; k < ne; k++)
    if (! isfinite (p[k]))
      mexErrMsgIdAndTxt (BADARG, "%s: %s must be finite; entry %lu is %s", fn, name,
                         (unsigned long) k + 1, isnan (p[k]) ? "NaN" : p[k] > 0 ? "Inf" : "-Inf");
}

const double *
vm_arg_vector (const mxArray *a, const char *fn, const char *name, size_t n)
{
  if (! is_real_full_double (a) || mxGetNumberOfElements (a) != n
      || (n > 0 && mxGetM (a) != 1 && mxGetN (a) != 1))
    {
      char e[96];
      snprintf (e, sizeof e, "a real full double vector with %lu %s", (unsigned long) n,
                n == 1 ? "entry" : "entries");
      vm_arg_refuse (a, fn, name, e);
    }
  check_finite (a, fn, name);
  return mxGetPr (a);
}

int
vm_arg_is_vector (const mxArray *a, size_t n)
{
  const double *p;
  size_t k;
  if (! is_real_full_double (a) || mxGetNumberOfElements (a) != n
      || (n > 0 && mxGetM (a) != 1 && mxGetN (a) != 1))
    return 0;
  p = mxGetPr (a);
  for (k = 0; k < n; k++)
    if (! isfinite (p[k]))
      return 0;
  return 1;
}

const double *
vm_arg_vector_any (const mxArray *a, const char *fn, const char *name, size_t *n)
{
  if (! is_real_full_double (a) || (! mxIsEmpty (a) && mxGetM (a) != 1 && mxGetN (a) != 1))
    vm_arg_refuse (a, fn, name, "a real full double vector");
  check_finite (a, fn, name);
  *n = mxGetNumberOfElements (a);
  return mxGetPr (a);
}

const double *
vm_arg_matrix (const mxArray *a, const char *fn, const char *name)
{
  if (! is_real_full_double (a))
    vm_arg_refuse (a, fn, name, "a real full double matrix");
  check_finite (a, fn, name);
  return mxGetPr (a);
}

double
vm_arg_real (const mxArray *a, const char *fn, const char *name)
{
  double v;
  if (! mxIsNumeric (a) || mxIsComplex (a) || mxIsSparse (a) || mxGetNumberOfElements (a) != 1)
    vm_arg_refuse (a, fn, name, "a real finite scalar");
  v = mxGetScalar (a);
  if (! isfinite (v))
    vm_arg_refuse (a, fn, name, "a real finite scalar");
  return v;
}

int64_t
vm_arg_int (const mxArray *a, const char *fn, const char *name, int64_t lo, int64_t hi)
{
  char e[96];
  double v;
  snprintf (e, sizeof e, "an integer in [%lld, %lld]", (long long) lo, (long long) hi);
  if (! mxIsNumeric (a) || mxIsComplex (a) || mxIsSparse (a) || mxGetNumberOfElements (a) != 1)
    vm_arg_refuse (a, fn, name, e);
  v = mxGetScalar (a);
  /* compared as doubles first: no cast of a value that does not fit */
  if (! isfinite (v) || v != floor (v) || fabs (v) > VM_ARG_EXACT || v < (double) lo
      || v > (double) hi)
    vm_arg_refuse (a, fn, name, e);
  return (int64_t) v;
}

void
vm_arg_interval (const mxArray *a, const char *fn, const char *name, int increasing, double *t0,
                 double *tf)
{
  const double *p;
  const char *e = increasing ? "a real full double vector [t0 tf] with t0 < tf"
                             : "a real full double vector [t0 tf] with t0 ~= tf";
  if (! is_real_full_double (a) || mxGetNumberOfElements (a) != 2)
    vm_arg_refuse (a, fn, name, e);
  check_finite (a, fn, name);
  p = mxGetPr (a);
  if (increasing ? ! (p[1] > p[0]) : p[1] == p[0])
    mexErrMsgIdAndTxt (BADARG, "%s: %s must be %s; got [%.15g %.15g]", fn, name, e, p[0], p[1]);
  *t0 = p[0];
  *tf = p[1];
}

void
vm_arg_struct (const mxArray *a, const char *fn, const char *name)
{
  if (! mxIsStruct (a) || mxGetNumberOfElements (a) != 1)
    vm_arg_refuse (a, fn, name, "a 1x1 struct");
}

int
vm_arg_get_string (const mxArray *a, char *buf, size_t len)
{
  if (! a || ! mxIsChar (a) || mxGetNumberOfDimensions (a) != 2 || mxGetM (a) != 1
      || len < 1 || mxGetN (a) >= len)
    return 0;
  return mxGetString (a, buf, (mwSize) len) == 0;
}

void
vm_arg_string (const mxArray *a, const char *fn, const char *name, char *buf, size_t len)
{
  if (! vm_arg_get_string (a, buf, len))
    {
      char e[64];
      snprintf (e, sizeof e, "a string of at most %lu characters", (unsigned long) len - 1);
      vm_arg_refuse (a, fn, name, e);
    }
}

const mxArray *
vm_arg_field (const mxArray *s, const char *key, const char *fn, const char *what)
{
  const mxArray *f = mxGetField (s, 0, key);
  if (! f)
    mexErrMsgIdAndTxt (BADARG, "%s: %s has no field %s", fn, what, key);
  return f;
}

const mxArray *
vm_arg_field_opt (const mxArray *s, const char *key)
{
  const mxArray *f = mxGetField (s, 0, key);
  return (f && ! mxIsEmpty (f)) ? f : NULL;
}

double
vm_arg_field_real (const mxArray *s, const char *key, const char *fn, const char *name, double dflt)
{
  const mxArray *f = vm_arg_field_opt (s, key);
  return f ? vm_arg_real (f, fn, name) : dflt;
}

int64_t
vm_arg_field_int (const mxArray *s, const char *key, const char *fn, const char *name, int64_t lo,
                  int64_t hi, int64_t dflt)
{
  const mxArray *f = vm_arg_field_opt (s, key);
  return f ? vm_arg_int (f, fn, name, lo, hi) : dflt;
}

void
vm_arg_command (int nrhs, const mxArray *prhs[], const char *gw, char *buf, size_t len)
{
  if (nrhs < 1 || ! mxIsChar (prhs[0]) || mxGetString (prhs[0], buf, (mwSize) len) != 0)
    mexErrMsgIdAndTxt (BADARG, "%s: the first argument must be a command string", gw);
}

void
vm_arg_params (const mxArray *params, const char *const *names, int np, const char *fn,
               const char *what, double *par)
{
  int k;
  if (! mxIsStruct (params) || mxGetNumberOfElements (params) != 1)
    mexErrMsgIdAndTxt (BADARG, "%s: %s.parameters must be a scalar struct of name = value", fn,
                       what);
  for (k = 0; k < np; k++)
    {
      const mxArray *v = mxGetField (params, 0, names[k]);
      if (! v)
        mexErrMsgIdAndTxt (BADARG, "%s: %s.parameters has no field '%s' (the system was compiled "
                           "with it)", fn, what, names[k]);
      if (! (mxIsNumeric (v) || mxIsLogical (v)) || mxIsComplex (v) || mxIsSparse (v)
          || mxGetNumberOfElements (v) != 1 || ! isfinite (mxGetScalar (v)))
        {
          char got[160];
          vm_arg_describe (v, got, sizeof got);
          mexErrMsgIdAndTxt (BADARG, "%s: parameter '%s' must be a real finite scalar; got %s", fn,
                             names[k], got);
        }
      par[k] = mxGetScalar (v);
    }
}

char *
vm_arg_text (const mxArray *a, const char *fn, const char *name)
{
  char *s;
  if (! mxIsChar (a) || mxGetM (a) > 1 || mxGetNumberOfDimensions (a) != 2)
    vm_arg_refuse (a, fn, name, "a character row vector");
  s = mxArrayToString (a);
  if (! s)
    mexErrMsgIdAndTxt (BADARG, "%s: %s could not be read as text", fn, name);
  if (strlen (s) != mxGetNumberOfElements (a))
    mexErrMsgIdAndTxt (BADARG, "%s: %s contains a NUL character", fn, name);
  return s;
}

char **
vm_arg_cellstr (const mxArray *a, const char *fn, const char *name, int *n)
{
  mwSize k, ne;
  char **s;
  if (mxIsEmpty (a) && (mxIsCell (a) || mxIsDouble (a)))
    {
      *n = 0;
      return NULL;
    }
  if (! mxIsCell (a))
    vm_arg_refuse (a, fn, name, "a cell array of strings");
  ne = mxGetNumberOfElements (a);
  if (ne > 100000)
    mexErrMsgIdAndTxt (BADARG, "%s: %s has %lu entries; expected at most 100000", fn, name,
                       (unsigned long) ne);
  s = mxMalloc ((ne ? ne : 1) * sizeof *s);
  for (k = 0; k < ne; k++)
    {
      const mxArray *c = mxGetCell (a, k);
      char what[96];
      snprintf (what, sizeof what, "%s{%lu}", name, (unsigned long) k + 1);
      if (! c)
        mexErrMsgIdAndTxt (BADARG, "%s: %s must be a character row vector", fn, what);
      s[k] = vm_arg_text (c, fn, what);
    }
  *n = (int) ne;
  return s;
}

int
vm_arg_order (const mxArray *a, const char *fn, const char *name)
{
  char e[96] = "one of ";
  int64_t v = vm_arg_int (a, fn, name, 1, 64);
  if (vm_sbp_min_n ((int) v) > 0)
    return (int) v;
  vm_sbp_orders_text (e + strlen (e), sizeof e - strlen (e));
  vm_arg_refuse (a, fn, name, e);
  return 0;
}
