/* linsolve.c -- the linear solver's interface (linsolve.h): the rule of VM_LINSOLVE_AUTO, the
 * small public helpers, and the calls into the backends (linsolve_impl.h: UMFPACK in
 * linsolve_umf.c, the banded LU in linsolve_band.c, its Cholesky path in linsolve_chol.c). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "la/linsolve.h"
#include "la/linsolve_impl.h"
#include "base/vm_status.h"

/* ---- the rule of VM_LINSOLVE_AUTO --------------------------------------------------------------- */

/* The rule, from the measurement of bench/README_band.md, part (a) "Where the switch is": one
 * factorization + solve of each backend on the Jacobians of the SKG rolling disk (reduced and
 * full mode, orders 4 and 8), the tumbler, chains of 8 and 16 masses and the dual Lorenz action,
 * N = 64 .. 16384 (n = 128 .. 524288).  What decides is the density of the band,
 * nnz / (n (kl + ku + 1)): UMFPACK factors only the entries the elimination fills (for the disk
 * 0.15-0.35 of the band storage) at 20-100 ns per entry of L + U, dgbtrf the whole band at
 * 0.04-0.5 ns per flop.  Time ratios UMFPACK / banded (over N; nearly constant in N):
 *   density 0.03 (chain16 full) 0.40-0.87, 0.06 (chain8 full) 0.57-1.32       -> UMFPACK
 *   0.066 (chain16 reduced) 1.04-1.24, 0.08 (disk full, order 8) 1.03-2.11,
 *   0.10 (disk full) 1.06-1.83, 0.13-0.18 (disk and chain8 reduced) 1.23-3.26,
 *   0.24-0.48 (tumbler) 3.3-5.3, 0.7-0.77 (dual Lorenz) 5.4-11.8             -> banded
 * so banded from a density of 1/16 on: the faster backend in 59 of the 60 cases (not chain8 full
 * at N = 64), and around the threshold the two are within 0.6 .. 1.7 of each other.  UMFPACK's
 * symbolic analysis (a quarter to a half of a numeric factorization, once per pattern) is not
 * counted: the rule leans towards UMFPACK.  Also UMFPACK when the band exceeds LAPACK's 32-bit
 * indices.  (These ratios were measured with dgbtrf for every band.  Since then the bands with
 * kl < 32 -- all of them above the threshold -- are factored by vm_band_lu, 1.3-2.3 times faster:
 * the rule's choices stand, with a wider margin; bench/README_band.md, the run with bandlu.) */
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
/* ---- the interface ------------------------------------------------------------------------------ */

int
vm_linsolve_init (vm_linsolve *ls, int n, const int64_t *colptr, const int64_t *rowind,
                  const vm_linsolve_opts *o)
{
  vm_linsolve_opts defaults;
  int st, chol;
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
  if (ls->kind == VM_LINSOLVE_UMFPACK)
    return vm_ls_umf_init (ls, o);
  chol = o->definite != 0 && o->cond == VM_LINSOLVE_COND_PIVOT;
  st = vm_ls_band_init (ls, o->block, o->lean, o->cond, chol);
  if (st == VM_OK && chol)   /* with lean too: the Cholesky band is (kl + 1) n, U only the fallback */
    st = vm_ls_chol_init (ls, o);
  return st;
}

int
vm_linsolve_factor (vm_linsolve *ls, const double *Ax)
{
  ls->singular = 1;
  ls->Ax = Ax;
  if (ls->lean && ls->definite && vm_ls_chol_factor (ls, Ax))
    return VM_OK;   /* a Cholesky factor, held as without lean */
  if (ls->lean)
    {
      vm_ls_setmsg (ls, "the U-only band (option lean) factors with its solve: vm_linsolve_factor_solve");
      return VM_EARG;
    }
  return ls->kind == VM_LINSOLVE_BANDED ? vm_ls_band_factor (ls, Ax) : vm_ls_umf_factor (ls, Ax);
}

int
vm_linsolve_solve (vm_linsolve *ls, const double *b, double *x)
{
  if (ls->singular || (ls->lean && !ls->chol) || (ls->kind == VM_LINSOLVE_UMFPACK && !ls->num)
      || (ls->kind == VM_LINSOLVE_BANDED && ls->nfactor == 0))
    {
      vm_ls_setmsg (ls, ls->lean ? "a second solve with a U-only factorization (option lean)"
              : "solve without a nonsingular factorization");
      return VM_EARG;
    }
  return ls->kind == VM_LINSOLVE_BANDED ? vm_ls_band_solve (ls, b, x)
                                        : vm_ls_umf_solve (ls, ls->Ax, b, x);
}

int
vm_linsolve_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x)
{
  int st;
  if (ls->kind == VM_LINSOLVE_BANDED && ls->definite)
    {
      /* the Cholesky factor (held, with lean too) with its solve, else the LU of the same values */
      ls->singular = 1;
      ls->Ax = Ax;
      if (vm_ls_chol_factor_solve (ls, Ax, b, x))
        return VM_OK;
      if (ls->lean)
        return vm_ls_band_factor_solve_lean (ls, Ax, b, x);
      if ((st = vm_ls_band_factor_lu (ls, Ax)) != VM_OK || ls->singular)
        return st;
      return vm_ls_band_solve (ls, b, x);
    }
  if (ls->lean)
    {
      ls->Ax = Ax;
      ls->singular = 1;
      return vm_ls_band_factor_solve_lean (ls, Ax, b, x);
    }
  if ((st = vm_linsolve_factor (ls, Ax)) != VM_OK || ls->singular)
    return st;
  return vm_linsolve_solve (ls, b, x);
}

void
vm_linsolve_release (vm_linsolve *ls)
{
  if (ls && ls->kind == VM_LINSOLVE_UMFPACK)
    vm_ls_umf_release (ls);
}

void
vm_linsolve_free (vm_linsolve *ls)
{
  if (!ls)
    return;
  vm_ls_umf_free (ls);
  vm_ls_band_free (ls);
  vm_ls_chol_free (ls);
  memset (ls, 0, sizeof *ls);
}
