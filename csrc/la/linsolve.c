/* linsolve.c -- the linear solver's dispatcher (linsolve.h): the rule of VM_LINSOLVE_AUTO, the
 * small public helpers, the checks of the options, and the calls through the operations table
 * of the backend in use (linsolve_core.h; UMFPACK: linsolve_umf.h, banded: linsolve_band.h).
 * The backends never call back here. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "la/linsolve.h"
#include "base/vm_status.h"

/* ---- the rule of VM_LINSOLVE_AUTO --------------------------------------------------------------- */

/* The rule: banded when the band is at least 1/16 full, nnz >= n (kl + ku + 1) / 16, UMFPACK
 * otherwise, and UMFPACK when the band exceeds LAPACK's 32-bit indices.  Why the density of the
 * band decides: UMFPACK factors only the entries the elimination fills, at a high cost per entry,
 * the banded LU the whole band at a low cost per flop; 1/16 is where the two times cross on the
 * Jacobians of the SKG and dual actions (the comparison, and the command that repeats it:
 * bench/README_band.md, part (a) "Where the switch is").  UMFPACK's symbolic analysis, once per
 * pattern, is not counted, so the rule leans towards UMFPACK. */
int
vm_linsolve_auto (int n, int64_t nnz, int kl, int ku)
{
  const double band = (double) n * (double) (kl + ku + 1);
  if ((double) n * (double) (2.0 * kl + ku + 1.0) > (double) INT_MAX)
    return VM_LINSOLVE_UMFPACK;
  return 16.0 * (double) nnz >= band ? VM_LINSOLVE_BANDED : VM_LINSOLVE_UMFPACK;
}

double
vm_linsolve_memory_model (int kind, double u, double umfpack, double banded)
{
  if (kind == VM_LINSOLVE_UMFPACK)
    return umfpack;
  if (kind == VM_LINSOLVE_BANDED || (kind == VM_LINSOLVE_AUTO && u <= 12.0))
    return banded;
  if (kind == VM_LINSOLVE_AUTO)
    return umfpack > banded ? umfpack : banded;
  return 0.0;
}

/* ---- small public helpers ----------------------------------------------------------------------- */

void
vm_linsolve_opts_init (vm_linsolve_opts *o)
{
  if (!o)
    return;
  o->kind = VM_LINSOLVE_AUTO;
  o->umf_ordering = -1;
  o->umf_strategy = -1;
  o->umf_irstep = -1;
  o->cache = NULL;
  o->cond = VM_LINSOLVE_COND_PIVOT;
  o->block = 0;
  o->lean = 0;
  o->definite = 0;
  o->definite_scale = NULL;
}

const char *
vm_linsolve_name (int kind)
{
  switch (kind)
    {
    case VM_LINSOLVE_AUTO: return "auto";
    case VM_LINSOLVE_UMFPACK: return "umfpack";
    case VM_LINSOLVE_BANDED: return "banded";
    default: return "?";
    }
}

void
vm_linsolve_bandwidth (int n, const int64_t *colptr, const int64_t *rowind, int *kl, int *ku)
{
  int64_t lo = 0, up = 0;
  int j;
  for (j = 0; j < n; j++)   /* rows sorted: the first and the last row of each column */
    if (colptr[j + 1] > colptr[j])
      {
        const int64_t dl = rowind[colptr[j + 1] - 1] - j, du = j - rowind[colptr[j]];
        if (dl > lo)
          lo = dl;
        if (du > up)
          up = du;
      }
  *kl = (int) lo;
  *ku = (int) up;
}
/* A call on a solver whose vm_linsolve_init failed before it picked a backend */
static int
not_set_up (vm_linsolve *ls)
{
  vm_ls_setmsg (ls, "the linear solver is not set up (vm_linsolve_init failed)");
  return VM_EARG;
}

/* ---- the interface ------------------------------------------------------------------------------ */

int
vm_linsolve_init (vm_linsolve *ls, int n, const int64_t *colptr, const int64_t *rowind,
                  const vm_linsolve_opts *o)
{
  vm_linsolve_opts defaults;
  memset (ls, 0, sizeof *ls);
  if (!o)
    {
      vm_linsolve_opts_init (&defaults);
      o = &defaults;
    }
  ls->n = n;
  ls->colptr = colptr;
  ls->rowind = rowind;
  ls->rcond = NAN;
  if (n < 1 || !colptr || (colptr[n] > 0 && !rowind))
    {
      vm_ls_setmsg (ls, "n = %d or the pattern is not valid", n);
      return VM_EARG;
    }
  ls->nnz = colptr[n];
  vm_linsolve_bandwidth (n, colptr, rowind, &ls->kl, &ls->ku);
  ls->cond = o->cond;
  if (o->cond != VM_LINSOLVE_COND_PIVOT && o->cond != VM_LINSOLVE_COND_NORM1)
    {
      vm_ls_setmsg (ls, "condition estimate %d: must be VM_LINSOLVE_COND_PIVOT or _NORM1", o->cond);
      return VM_EARG;
    }
  if (o->kind == VM_LINSOLVE_AUTO)
    ls->kind = vm_linsolve_auto (n, ls->nnz, ls->kl, ls->ku);
  else if (o->kind == VM_LINSOLVE_UMFPACK || o->kind == VM_LINSOLVE_BANDED)
    ls->kind = o->kind;
  else
    {
      vm_ls_setmsg (ls, "linear solver %d: must be VM_LINSOLVE_AUTO, _UMFPACK or _BANDED", o->kind);
      return VM_EARG;
    }
  if (o->lean != 0 && o->lean != 1 && o->lean != VM_LINSOLVE_LEAN_AUTO)
    {
      vm_ls_setmsg (ls, "option lean %d: must be 0, 1 or VM_LINSOLVE_LEAN_AUTO", o->lean);
      return VM_EARG;
    }
  if (o->definite != 0 && o->definite != 1 && o->definite != -1)
    {
      vm_ls_setmsg (ls, "option definite %d: must be 0, 1 or -1", o->definite);
      return VM_EARG;
    }
  ls->ops = ls->kind == VM_LINSOLVE_BANDED ? &vm_linsolve_band_ops : &vm_linsolve_umf_ops;
  return ls->ops->init (ls, o);
}

int
vm_linsolve_factor (vm_linsolve *ls, const double *Ax)
{
  if (!ls->ops)
    return not_set_up (ls);
  ls->singular = 1;
  ls->Ax = Ax;
  return ls->ops->factor (ls, Ax);
}

int
vm_linsolve_solve (vm_linsolve *ls, const double *b, double *x)
{
  if (!ls->ops)
    return not_set_up (ls);
  return ls->ops->solve (ls, b, x);
}

int
vm_linsolve_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x)
{
  if (!ls->ops)
    return not_set_up (ls);
  ls->singular = 1;
  ls->Ax = Ax;
  return ls->ops->factor_solve (ls, Ax, b, x);
}

void
vm_linsolve_release (vm_linsolve *ls)
{
  if (ls && ls->ops && ls->ops->release)
    ls->ops->release (ls);
}

void
vm_linsolve_free (vm_linsolve *ls)
{
  if (!ls)
    return;
  if (ls->ops)
    ls->ops->free (ls);
  memset (ls, 0, sizeof *ls);
}
