/* vmtest_mech.h -- build a vm_mech from names and formulas in the C tests (needs vmtest.h first). */
#ifndef VMTEST_MECH_H
#define VMTEST_MECH_H

#include <string.h>
#include "model/model.h"
#include "base/vm_status.h"

static int
build_mech (vm_mech *m, int n, const char *const *coord, int np, const char *const *param,
            const char *lag, const char *const *force, int ncons, const char *const *cons)
{
  vm_mech_desc d;
  vm_err err;
  int st;
  memset (&d, 0, sizeof d);
  d.n = n;
  d.coord = coord;
  d.np = np;
  d.param = param;
  d.lagrangian = lag;
  d.nforce = force ? n : 0;
  d.force = force;
  d.ncons = ncons;
  d.cons = cons;
  st = vm_mech_build (&d, m, &err);
  CHECK (st == VM_OK, "mech build: %s", err.msg);
  return st;
}

#endif
