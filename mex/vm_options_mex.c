/* vm_options_mex.c -- the options' schema for the m-files, and the fast path of their checks
 * (inst/private/vm_options.m).  Internal.
 *
 *   defaults = vm_options_mex ("defaults", fname)
 *   rules = vm_options_mex ("rules", fname)
 *   rows = vm_options_mex ("schema", fname)
 *   fnames = vm_options_mex ("functions")
 *   [opts, slow] = vm_options_mex (defaults, fast, args)
 *
 * The first four read the one table of the options (csrc/base/vm_schema.h).  "defaults": the
 * scalar struct of fname's options and their defaults, in the schema's order.  "rules": a scalar
 * struct with a field per option of fname that has a rule, its cell {kind, ...} as
 * inst/private/vm_check_value.m reads it ('?' before kind when [] is accepted).  "schema": a
 * struct array, one element per option: name, kind, empty_ok, lo, hi, bounds, choices, default,
 * implied (the kernel's value when the front end's default [] stands for one, else []) and doc.  "functions": the public functions that the schema describes.  An unknown fname is an
 * internal error.
 *
 * The fast path: defaults as above; fast the scalar struct of vm_option_rule's second output,
 * one row [kind lo hi lc hc (orders)] per option whose value is a real scalar (kind 1 an
 * integer, 2 a real, 3 an SBP order in orders; lo < v < hi, v = lo allowed when lc is nonzero,
 * v = hi when hc is) and [0 0 0 0 0] per option with no rule (kind 0: any value, checked by the
 * front end itself); args: the name/value pairs (a cell with an even number of entries).
 *
 * opts is defaults with every pair that passes the fast test set: its name is a field of defaults
 * and of fast, spelled exactly, and its value any value for kind 0, else a double real non-sparse
 * scalar within its row.  slow
 * lists (1-based, increasing) the positions in args of the names of every other pair: vm_options.m
 * checks those, phrases every refusal, and sets the values that pass.  When two names are equal
 * ignoring case, every pair is slow (the m-code applies them in order; the last one wins), so
 * that the result never depends on which path set a value.
 *
 * Why in C: the schema is read by the gateways and kernels too (one table), and the common case
 * of a check, a real scalar within its range, costs a few statements of the interpreter per
 * option in m-code.  Argument checking, no numerics; only the documented mex.h API. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mex.h"
#include "base/vm_schema.h"

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

/* the schema of fname, or an internal error */
static const char *
names_of (const mxArray *a, char *fn, size_t len)
{
  const char *names;
  if (a == NULL || ! mxIsChar (a) || mxGetString (a, fn, len) != 0)
    bad ("expected a function name");
  names = vm_schema_names (fn);
  if (names == NULL)
    mexErrMsgIdAndTxt ("varmech:badarg", "vm_options_mex: internal: no options schema for '%s'",
                       fn);
  return names;
}

/* the next name of the space-separated list *p into buf (0 at the end) */
static int
next_name (const char **p, char *buf)
{
  size_t len;
  const char *e;
  if (**p == '\0')
    return 0;
  e = strchr (*p, ' ');
  len = e ? (size_t) (e - *p) : strlen (*p);
  if (len > NAME_MAX_LEN)
    len = NAME_MAX_LEN;
  memcpy (buf, *p, len);
  buf[len] = '\0';
  *p = e ? e + 1 : *p + strlen (*p);
  return 1;
}

static mxArray *
default_of (const vm_opt_row *r)
{
  mxArray *a;
  switch (r->dkind)
    {
    case VM_DEF_REAL:
      return mxCreateDoubleScalar (r->dval);
    case VM_DEF_TEXT:
      return r->dtext[0] ? mxCreateString (r->dtext) : mxCreateCharArray (2, (mwSize[]) { 0, 0 });
    case VM_DEF_FALSE:
    case VM_DEF_TRUE:
      return mxCreateLogicalScalar (r->dkind == VM_DEF_TRUE);
    case VM_DEF_CELL:
      return mxCreateCellMatrix (0, 0);
    case VM_DEF_STRUCT:
      return mxCreateStructMatrix (1, 1, 0, NULL);
    case VM_DEF_MATRIX:
      a = mxCreateDoubleMatrix ((mwSize) r->drows, (mwSize) r->dcols, mxREAL);
      memcpy (mxGetPr (a), r->dmat, (size_t) (r->drows * r->dcols) * sizeof (double));
      return a;
    default:
      return mxCreateDoubleMatrix (0, 0, mxREAL);
    }
}

static const char *kind_names[] = { "inherit", "any", "int", "real", "order", "choice",
                                    "logical", "vector" };

/* the choices "a|b|c" as a 1-by-k cell of strings */
static mxArray *
choices_of (const char *c)
{
  char buf[NAME_MAX_LEN + 1];
  const char *p;
  mwSize n = 1, k = 0;
  mxArray *a;
  for (p = c; *p; p++)
    n += *p == '|';
  a = mxCreateCellMatrix (1, n);
  for (p = c; *p; k++)
    {
      const char *e = strchr (p, '|');
      size_t len = e ? (size_t) (e - p) : strlen (p);
      memcpy (buf, p, len);
      buf[len] = '\0';
      mxSetCell (a, k, mxCreateString (buf));
      p = e ? e + 1 : p + len;
    }
  return a;
}

/* the rule of r as vm_check_value reads it: {kind, lo, hi[, bounds]} */
static mxArray *
rule_of (const vm_opt_row *r)
{
  char kind[16];
  mxArray *c;
  snprintf (kind, sizeof kind, "%s%s", r->empty_ok ? "?" : "", kind_names[r->kind]);
  switch (r->kind)
    {
    case VM_OPT_INT:
      c = mxCreateCellMatrix (1, 3);
      mxSetCell (c, 1, mxCreateDoubleScalar (r->lo));
      mxSetCell (c, 2, mxCreateDoubleScalar (r->hi));
      break;
    case VM_OPT_REAL:
      c = mxCreateCellMatrix (1, 4);
      mxSetCell (c, 1, mxCreateDoubleScalar (r->lo));
      mxSetCell (c, 2, mxCreateDoubleScalar (r->hi));
      mxSetCell (c, 3, mxCreateString (r->bounds));
      break;
    case VM_OPT_CHOICE:
      c = mxCreateCellMatrix (1, 2);
      mxSetCell (c, 1, choices_of (r->choices));
      break;
    case VM_OPT_VECTOR:
      c = mxCreateCellMatrix (1, 2);
      mxSetCell (c, 1, mxCreateDoubleMatrix (0, 0, mxREAL));
      break;
    default:
      c = mxCreateCellMatrix (1, 1);
    }
  mxSetCell (c, 0, mxCreateString (kind));
  return c;
}

/* "defaults", "rules" and "schema" of fname */
static mxArray *
schema_struct (const char *cmd, const char *fn, const char *names)
{
  static const char *keys[] = { "name", "kind", "empty_ok", "lo", "hi", "bounds", "choices",
                                "default", "implied", "doc" };
  char name[NAME_MAX_LEN + 1];
  const char *p = names;
  mxArray *out;
  mwSize n = 0, k = 0;
  int rows = strcmp (cmd, "schema") == 0;
  while (next_name (&p, name))
    n++;
  out = rows ? mxCreateStructMatrix (n, 1, 10, keys) : mxCreateStructMatrix (1, 1, 0, NULL);
  for (p = names; next_name (&p, name); k++)
    {
      const vm_opt_row *r = vm_schema_row (fn, name, 0), *d = vm_schema_row (fn, name, 1),
                       *doc = vm_schema_row (fn, name, 2);
      if (! rows && (strcmp (cmd, "defaults") == 0 || r->kind != VM_OPT_ANY))
        mxSetFieldByNumber (out, 0, mxAddField (out, name),
                            strcmp (cmd, "defaults") == 0 ? default_of (d) : rule_of (r));
      if (! rows)
        continue;
      mxSetField (out, k, "name", mxCreateString (name));
      mxSetField (out, k, "kind", mxCreateString (kind_names[r->kind]));
      mxSetField (out, k, "empty_ok", mxCreateLogicalScalar (r->empty_ok != 0));
      mxSetField (out, k, "lo", mxCreateDoubleScalar (r->lo));
      mxSetField (out, k, "hi", mxCreateDoubleScalar (r->hi));
      mxSetField (out, k, "bounds", mxCreateString (r->bounds ? r->bounds : ""));
      mxSetField (out, k, "choices", r->choices ? choices_of (r->choices)
                                                : mxCreateCellMatrix (1, 0));
      mxSetField (out, k, "default", default_of (d));
      mxSetField (out, k, "implied", d->dkind == VM_DEF_IMPLIED ? mxCreateDoubleScalar (d->dval)
                                                                : mxCreateDoubleMatrix (0, 0, mxREAL));
      mxSetField (out, k, "doc", mxCreateString (doc && doc->doc ? doc->doc : ""));
    }
  return out;
}

static void
schema_command (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char cmd[16], fn[NAME_MAX_LEN + 1];
  const char *names;
  if (nlhs > 1 || mxGetString (prhs[0], cmd, sizeof cmd) != 0)
    bad ("expected a command: defaults, rules, schema or functions");
  if (strcmp (cmd, "functions") == 0)
    {
      int k = 0;
      while (vm_schema_function (k))
        k++;
      plhs[0] = mxCreateCellMatrix (1, (mwSize) k);
      for (k = 0; vm_schema_function (k); k++)
        mxSetCell (plhs[0], (mwIndex) k, mxCreateString (vm_schema_function (k)));
      return;
    }
  if (nrhs != 2 || (strcmp (cmd, "defaults") != 0 && strcmp (cmd, "rules") != 0
                    && strcmp (cmd, "schema") != 0))
    bad ("expected vm_options_mex (\"defaults\"|\"rules\"|\"schema\", fname)");
  names = names_of (prhs[1], fn, sizeof fn);
  plhs[0] = schema_struct (cmd, fn, names);
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
  if (nrhs >= 1 && mxIsChar (prhs[0]))
    {
      schema_command (nlhs, plhs, nrhs, prhs);
      return;
    }
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
