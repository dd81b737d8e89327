/* test_schema.c -- the options' table (csrc/base/vm_schema.h): every option a function lists
 * has a rule, a default and a doc line; a shared option has one row; the kernels' defaults;
 * the range test of vm_schema_accepts. */
#include <math.h>
#include <string.h>

#include "base/vm_schema.h"
#include "vmtest.h"

/* every name of fn's list resolves to a complete row */
static void
check_function (const char *fn)
{
  const char *p = vm_schema_names (fn);
  char name[64];
  CHECK (p != NULL && *p, "%s has options", fn);
  while (p && *p)
    {
      size_t len = strcspn (p, " ");
      const vm_opt_row *r, *d, *doc;
      CHECK (len < sizeof name, "%s: a name fits", fn);
      memcpy (name, p, len);
      name[len] = '\0';
      r = vm_schema_row (fn, name, 0);
      d = vm_schema_row (fn, name, 1);
      doc = vm_schema_row (fn, name, 2);
      CHECK (r && r->kind != VM_OPT_INHERIT, "%s.%s has a rule", fn, name);
      CHECK (d && d->dkind != VM_DEF_INHERIT, "%s.%s has a default", fn, name);
      CHECK (doc && doc->doc && *doc->doc, "%s.%s has a doc line", fn, name);
      if (r && r->kind == VM_OPT_REAL)
        CHECK (r->bounds && strlen (r->bounds) == 2, "%s.%s has brackets", fn, name);
      if (r && r->kind == VM_OPT_CHOICE)
        CHECK (r->choices && *r->choices, "%s.%s has choices", fn, name);
      p += len + (p[len] == ' ');
    }
}

int
main (void)
{
  int k;
  const vm_opt_row *a, *b;
  for (k = 0; vm_schema_function (k); k++)
    check_function (vm_schema_function (k));
  CHECK (k >= 12, "the schema describes %d functions", k);
  CHECK (vm_schema_function (-1) == NULL, "no function before the first");
  /* one row for a shared option: dual_solve and dual_lorenz read the same RelTol */
  a = vm_schema_row ("dual_solve", "RelTol", 0);
  b = vm_schema_row ("dual_lorenz", "RelTol", 0);
  CHECK (a != NULL && a == b, "RelTol: one shared row");
  CHECK (vm_schema_row ("skg_solve", "RelTol", 0) != a, "skg_solve's own range of RelTol");
  CHECK (vm_schema_row ("skg_solve", "RelTol", 1) == vm_schema_row ("dual_solve", "RelTol", 1),
         "skg_solve shares the default of RelTol");
  /* the kernels' defaults */
  CHECK (vm_schema_default (NULL, "RelTol") == 1e-6, "RelTol 1e-6");
  CHECK (vm_schema_default (NULL, "AbsTol") == 1e-8, "AbsTol 1e-8");
  CHECK (vm_schema_default ("skg_solve", "RelTol") == 1e-6, "skg_solve RelTol 1e-6");
  CHECK (vm_schema_default ("gauss_integrate", "RelTol") == 1e-8, "gauss_integrate RelTol 1e-8");
  CHECK (vm_schema_default ("skg_solve", "Tol") == 1e-10, "skg_solve Tol 1e-10");
  CHECK (vm_schema_default (NULL, "MaxWindows") == 100000, "MaxWindows 100000");
  CHECK (isnan (vm_schema_default ("skg_solve", "Display")), "no number for a word");
  CHECK (isnan (vm_schema_default ("no_such", "RelTol")), "no function");
  CHECK (vm_schema_row ("dual_solve", "MaxWindow", 0) == NULL, "not an option of dual_solve");
  CHECK (vm_schema_names ("no_such") == NULL, "no such function");
  /* the range test */
  a = vm_schema_row ("skg_solve", "RelTol", 0);
  CHECK (vm_schema_accepts (a, 1e-14) && ! vm_schema_accepts (a, 1) && ! vm_schema_accepts (a, 0),
         "[1e-14, 1)");
  CHECK (! vm_schema_accepts (a, NAN) && ! vm_schema_accepts (a, HUGE_VAL), "NaN, Inf");
  a = vm_schema_row ("skg_solve", "MaxWindows", 0);
  CHECK (vm_schema_accepts (a, 1) && ! vm_schema_accepts (a, 0) && ! vm_schema_accepts (a, 1.5)
         && vm_schema_accepts (a, 2147483647.0), "an integer in [1, 2^31 - 1]");
  CHECK (! vm_schema_accepts (vm_schema_row ("skg_solve", "Display", 0), 1), "not a number");
  return vmtest_finish ("test_schema");
}
