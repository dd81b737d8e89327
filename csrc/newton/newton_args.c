/* newton_args.c -- the argument checks of the Newton solver (newton.h vm_newton_run): the
 * pattern, the callbacks, the options and the initial guess.
 *
 * Returns VM_OK or VM_EARG with info->message naming the first offending value.  Cost: one pass
 * over the pattern and one over x.  Why before anything is allocated: a refused call leaves x and
 * the caller's caches untouched. */
#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "newton/newton_impl.h"
#include "base/vm_status.h"

/* The sizes, the callbacks and the pattern (colptr, rowind: CSC, rows sorted in each column):
 * VM_OK or VM_EARG (message set). */
static int
check_pattern (const vm_newton_problem *pb, const double *x, vm_newton_info *inf)
{
  const int n = pb->n;
  const int64_t *colptr = pb->colptr, *rowind = pb->rowind;
  const vm_newton_fn F = pb->F;
  const vm_newton_jac J = pb->J;
  int j;
  int64_t nnz;
  if (n < 1)
    {
      newton_msg (inf, "n = %d: the number of unknowns must be at least 1", n);
      return VM_EARG;
    }
  if (n > INT_MAX / 2 - 1)
    {
      newton_msg (inf, "n = %d: too large (the fallback system has order 2n)", n);
      return VM_EARG;
    }
  if (!colptr || !F || !J || !x)
    {
      newton_msg (inf, "NULL argument (%s)", !colptr ? "colptr" : !F ? "residual function"
              : !J ? "Jacobian function" : "x");
      return VM_EARG;
    }
  if (colptr[0] != 0)
    {
      newton_msg (inf, "colptr[0] = %lld: must be 0", (long long) colptr[0]);
      return VM_EARG;
    }
  for (j = 0; j < n; j++)
    if (colptr[j + 1] < colptr[j])
      {
        newton_msg (inf, "colptr decreases at column %d", j);
        return VM_EARG;
      }
  nnz = colptr[n];
  if (nnz > (int64_t) n * (int64_t) n)
    {
      newton_msg (inf, "colptr[n] = %lld exceeds n^2", (long long) nnz);
      return VM_EARG;
    }
  if (nnz > 0 && !rowind)
    {
      newton_msg (inf, "NULL argument (rowind) with %lld entries", (long long) nnz);
      return VM_EARG;
    }
  if ((uint64_t) nnz > SIZE_MAX / (2 * sizeof (double)))
    {
      newton_msg (inf, "%lld entries: too many for this platform", (long long) nnz);
      return VM_EARG;
    }
  for (j = 0; j < n; j++)
    {
      int64_t p;
      for (p = colptr[j]; p < colptr[j + 1]; p++)
        {
          if (rowind[p] < 0 || rowind[p] >= n)
            {
              newton_msg (inf, "row index %lld of column %d out of range [0, %d)", (long long) rowind[p],
                      j, n);
              return VM_EARG;
            }
          if (p > colptr[j] && rowind[p] <= rowind[p - 1])
            {
              newton_msg (inf, "row indices of column %d not strictly increasing (unsorted or "
                      "duplicate)", j);
              return VM_EARG;
            }
        }
    }
  return VM_OK;
}

/* The options (newton.h): VM_OK or VM_EARG (message set). */
static int
check_opts (int n, const vm_newton_opts *o, vm_newton_info *inf)
{
  int j;
  if (!(o->tol_res >= 0.0 && isfinite (o->tol_res)) || !(o->tol_step >= 0.0 && isfinite (o->tol_step))
      || !(o->res_scale >= 0.0 && isfinite (o->res_scale))
      || !(o->tol_round >= 0.0 && isfinite (o->tol_round)))
    {
      newton_msg (inf, "tol_res, tol_step, tol_round and res_scale must be finite and >= 0");
      return VM_EARG;
    }
  if (!(o->step_scale > 0.0 && isfinite (o->step_scale)))
    {
      newton_msg (inf, "step_scale must be finite and > 0");
      return VM_EARG;
    }
  if (o->res_weight)
    for (j = 0; j < n; j++)
      if (!(o->res_weight[j] > 0.0 && isfinite (o->res_weight[j])))
        {
          newton_msg (inf, "res_weight[%d] = %g: the residual weights must be finite and > 0", j,
                  o->res_weight[j]);
          return VM_EARG;
        }
  if (o->umf_ordering < -1 || o->umf_ordering > VM_UMF_ORDERING_NONE
      || o->umf_strategy < -1 || o->umf_strategy > VM_UMF_STRATEGY_SYMMETRIC
      || o->umf_irstep < -1 || o->umf_irstep > 10)
    {
      newton_msg (inf, "umf_ordering = %d, umf_strategy = %d, umf_irstep = %d: must be -1 (default) "
              "or a UMFPACK ordering (0..%d, not USER), strategy (0..%d), number of refinement "
              "steps (0..10)", o->umf_ordering, o->umf_strategy, o->umf_irstep,
              VM_UMF_ORDERING_NONE, VM_UMF_STRATEGY_SYMMETRIC);
      return VM_EARG;
    }
  if (o->linsolve != VM_LINSOLVE_AUTO && o->linsolve != VM_LINSOLVE_UMFPACK
      && o->linsolve != VM_LINSOLVE_BANDED)
    {
      newton_msg (inf, "linsolve = %d: must be VM_LINSOLVE_AUTO (%d), _UMFPACK (%d) or _BANDED (%d)",
              o->linsolve, VM_LINSOLVE_AUTO, VM_LINSOLVE_UMFPACK, VM_LINSOLVE_BANDED);
      return VM_EARG;
    }
  if (o->lean != VM_LINSOLVE_LEAN_AUTO && o->lean != 0 && o->lean != 1)
    {
      newton_msg (inf, "lean = %d: must be VM_LINSOLVE_LEAN_AUTO (%d), 0 or 1", o->lean,
              VM_LINSOLVE_LEAN_AUTO);
      return VM_EARG;
    }
  if (o->reuse < 0 || o->reuse > MAX_ITER_CAP
      || (o->reuse > 0 && !(o->reuse_theta > 0.0 && o->reuse_theta < 1.0)))
    {
      newton_msg (inf, "reuse = %d, reuse_theta = %g: reuse must be in [0, %d] and, when it is "
              "nonzero, reuse_theta in (0, 1)", o->reuse, o->reuse_theta, MAX_ITER_CAP);
      return VM_EARG;
    }
  if (!(o->nonmonotone >= 0.0 && o->nonmonotone <= 1e6) || o->nonmonotone_max < 0
      || o->nonmonotone_max > MAX_ITER_CAP)
    {
      newton_msg (inf, "nonmonotone = %g, nonmonotone_max = %d: must be in [0, 1e6] and [0, %d]",
              o->nonmonotone, o->nonmonotone_max, MAX_ITER_CAP);
      return VM_EARG;
    }
  if (o->max_iter < 0 || o->max_iter > MAX_ITER_CAP)
    {
      newton_msg (inf, "max_iter = %d: must be in [0, %d]", o->max_iter, MAX_ITER_CAP);
      return VM_EARG;
    }
  if (o->block < 0 || o->block > n)
    {
      newton_msg (inf, "block = %d: must be in [0, n = %d]", o->block, n);
      return VM_EARG;
    }
  return VM_OK;
}

int
newton_check_args (const vm_newton_problem *pb, const double *x, const vm_newton_opts *o,
                   vm_newton_info *inf)
{
  int j, st;
  if ((st = check_pattern (pb, x, inf)) != VM_OK || (st = check_opts (pb->n, o, inf)) != VM_OK)
    return st;
  for (j = 0; j < pb->n; j++)
    if (!isfinite (x[j]))
      {
        newton_msg (inf, "initial guess x[%d] is not finite", j);
        return VM_EARG;
      }
  return VM_OK;
}

