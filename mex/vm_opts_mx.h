/* vm_opts_mx.h -- a solver gateway reads its options struct by the schema (csrc/base/vm_schema.h).
 *
 * The struct is the one the front end made with vm_options (inst/private/vm_options.m): its
 * fields are the public names, its values already checked against the schema's rules (that
 * check is the only one; it is not repeated here).  Each reader takes the field NAME of the
 * options struct o of the public function FN: absent or [] gives the kernel's default dflt (the
 * default the kernel's init function took from the schema); a value of another shape than the
 * rule's is an internal error "FN: internal: option NAME ..." (the struct was not made by
 * vm_options).  A choice is returned as its index in the row's list of choices (Display "off",
 * "final", "iter": 0, 1, 2).  Why: the names, the ranges and the defaults stay in the schema;
 * a gateway neither renames an option nor checks it a second time.  Conversion only. */
#ifndef VM_OPTS_MX_H
#define VM_OPTS_MX_H

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "mex.h"
#include "base/vm_schema.h"

static inline void
vm_opt_internal (const char *fn, const char *name, const char *what)
{
  mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: option %s %s (the options struct must come "
                     "from vm_options)", fn, name, what);
}

/* field NAME of o, or NULL when absent or [] */
static inline const mxArray *
vm_opt_get (const mxArray *o, const char *fn, const char *name)
{
  const mxArray *v = mxGetField (o, 0, name);
  if (! vm_schema_row (fn, name, 0))
    vm_opt_internal (fn, name, "is not in the schema");
  return v == NULL || mxIsEmpty (v) ? NULL : v;
}

/* a numeric option (kind int, real or order) */
static inline double
vm_opt_real (const mxArray *o, const char *fn, const char *name, double dflt)
{
  const mxArray *v = vm_opt_get (o, fn, name);
  if (! v)
    return dflt;
  if (! mxIsDouble (v) || mxIsComplex (v) || mxGetNumberOfElements (v) != 1)
    vm_opt_internal (fn, name, "must be a double scalar");
  return mxGetScalar (v);
}

static inline int64_t
vm_opt_int (const mxArray *o, const char *fn, const char *name, int64_t dflt)
{
  return (int64_t) vm_opt_real (o, fn, name, (double) dflt);
}

/* a choice option: the index of its value in the schema row's choices */
static inline int
vm_opt_choice (const mxArray *o, const char *fn, const char *name, int dflt)
{
  const mxArray *v = vm_opt_get (o, fn, name);
  const vm_opt_row *r = vm_schema_row (fn, name, 0);
  char buf[32];
  const char *p;
  int k;
  if (! v)
    return dflt;
  if (r->kind != VM_OPT_CHOICE || ! mxIsChar (v) || mxGetString (v, buf, sizeof buf) != 0)
    vm_opt_internal (fn, name, "must be one of its choices");
  for (p = r->choices, k = 0; *p; k++)
    {
      size_t len = strcspn (p, "|"), j;
      for (j = 0; j < len && buf[j] && tolower ((unsigned char) buf[j]) == p[j]; j++)
        ;
      if (j == len && buf[j] == '\0')
        return k;
      p += len + (p[len] == '|');
    }
  vm_opt_internal (fn, name, "must be one of its choices");
  return dflt;
}

#endif
