/* skg_system.c -- the Newton system of one window of the SKG action (skg_solve_impl.h): F and J
 * in full mode (all unknowns) and in reduced mode (q+, lambda+ only, at q- = lambda- = 0), with
 * the reduced pattern and its scatter plan built once per action.
 *
 * Errors: the status of vm_skg_eval / vm_skg_eval_reduced, VM_ENOMEM (red_build).  Cost: one
 * evaluation of the action's gradient (and Hessian for J) per call, O(nr) for the maps.  Why the
 * reduced system: at the critical point q- = lambda- = 0, so half the unknowns give the same
 * q+, lambda+ (skg_solve.h). */
#include "skg/skg_solve_impl.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The action's unknowns z = x .* xs from the solver's x, into c->z (full mode with scales) */
const double *
skg_full_point (skg_ctx *c, const double *x)
{
  int64_t i;
  if (! c->xs)
    return x;
  for (i = 0; i < c->s->nz; i++)
    c->z[i] = x[i] * c->xs[i];
  return c->z;
}

/* J's columns times the unknowns' scales (dF/dx = dF/dz diag (xs)) */
static void
scale_columns (const skg_ctx *c, int64_t n, const int64_t *colptr, double *Jx)
{
  int64_t j, p;
  if (! c->xs)
    return;
  for (j = 0; j < n; j++)
    if (c->xs[j] != 1.0)
      for (p = colptr[j]; p < colptr[j + 1]; p++)
        Jx[p] *= c->xs[j];
}

int
skg_full_F (const double *x, double *F, void *ctx)
{
  skg_ctx *c = ctx;
  return vm_skg_eval (c->s, skg_full_point (c, x), NULL, F, NULL);
}

int
skg_full_J (const double *x, double *Jx, void *ctx)
{
  skg_ctx *c = ctx;
  int st = vm_skg_eval (c->s, skg_full_point (c, x), NULL, c->grad, Jx);
  if (st == VM_OK)
    scale_columns (c, c->s->nz, c->s->colptr, Jx);
  return st;
}

void
skg_red_point (skg_ctx *c, const double *y)
{
  int64_t r;
  if (c->xs)
    for (r = 0; r < c->nr; r++)
      c->z[c->plus[r]] = y[r] * c->xs[r];
  else
    for (r = 0; r < c->nr; r++)
      c->z[c->plus[r]] = y[r];
}

int
skg_red_F (const double *y, double *F, void *ctx)
{
  skg_ctx *c = ctx;
  int64_t r;
  int st;
  skg_red_point (c, y);
  if ((st = vm_skg_eval_reduced (c->s, c->z, c->grad, NULL, NULL)) != VM_OK)
    return st;
  for (r = 0; r < c->nr; r++)
    F[r] = c->grad[c->minus[r]];
  return VM_OK;
}

int
skg_red_J (const double *y, double *Jx, void *ctx)
{
  skg_ctx *c = ctx;
  int st;
  skg_red_point (c, y);
  st = vm_skg_eval_reduced (c->s, c->z, NULL, &c->plan, Jx);
  if (st == VM_OK)
    scale_columns (c, c->nr, c->rcp, Jx);
  return st;
}

/* The component maps of the reduced system: z-component c of a node is reduced equation rc[c]
 * (q- -> 0 .. n-1, lambda- -> n .. n+m-1) and reduced unknown cc[c] (q+ -> 0 .. n-1, lambda+ ->
 * n .. n+m-1), -1 otherwise (nb entries each). */
static void
red_components (const vm_skg *s, int *rc, int *cc)
{
  int c, a, n = s->n, m = s->m;
  for (c = 0; c < s->nb; c++)
    rc[c] = cc[c] = -1;
  for (c = 0; c < n; c++)               /* the layout of a node: vm_skg_index (node 0) */
    {
      cc[vm_skg_index (s, 0, 0, c)] = c;
      rc[vm_skg_index (s, 0, 1, c)] = c;
    }
  for (a = 0; a < m; a++)
    {
      cc[vm_skg_index (s, 0, 2, a)] = n + a;
      rc[vm_skg_index (s, 0, 3, a)] = n + a;
    }
}

/* c->plus[r], c->minus[r]: the full indices of reduced unknown r and reduced equation r */
static void
red_maps (skg_ctx *c, const int *rc, const int *cc)
{
  const vm_skg *s = c->s;
  int64_t nr1 = s->n + s->m, k;
  int cmp;
  for (k = 0; k < s->N; k++)
    for (cmp = 0; cmp < s->nb; cmp++)
      {
        if (cc[cmp] >= 0)
          c->plus[k * nr1 + cc[cmp]] = k * s->nb + cmp;
        if (rc[cmp] >= 0)
          c->minus[k * nr1 + rc[cmp]] = k * s->nb + cmp;
      }
}

/* The reduced system's maps c->plus, c->minus, the pattern c->rcp, c->rri, c->rnnz of
 * d2S / d(q-, lambda-) d(q+, lambda+) (vm_skg_pattern: the full pattern is not built) and the
 * scatter plan of the Hessian's contributions into it (c->plan_ok set on success). */
int
skg_red_build (skg_ctx *c)
{
  const vm_skg *s = c->s;
  int64_t nr1 = s->n + s->m;
  int *rc = malloc ((size_t) s->nb * sizeof *rc), *cc = malloc ((size_t) s->nb * sizeof *cc);
  int st = VM_ENOMEM;
  c->nr = s->N * nr1;
  c->plus = vm_scratch_alloc ((size_t) c->nr * sizeof *c->plus);
  c->minus = vm_scratch_alloc ((size_t) c->nr * sizeof *c->minus);
  if (rc && cc && c->plus && c->minus)
    {
      red_components (s, rc, cc);
      red_maps (c, rc, cc);
      st = vm_skg_pattern (s, (int) nr1, rc, cc, &c->rcp, &c->rri, &c->rnnz);
      if (st == VM_OK)
        st = vm_skg_reduced_init (c->s);
      if (st == VM_OK)
        st = vm_skg_plan_build (s, VM_SKG_TERM_REDUCED,
                                &(vm_skg_target) { (int) nr1, rc, cc, c->nr, c->rcp, c->rri },
                                &c->plan);
      c->plan_ok = st == VM_OK;
    }
  free (rc);
  free (cc);
  return st;
}

void
skg_ctx_free (skg_ctx *c)
{
  vm_scratch_free (c->grad);
  vm_scratch_free (c->z);
  vm_scratch_free (c->plus);
  vm_scratch_free (c->minus);
  if (c->plan_ok)
    vm_skg_plan_free (&c->plan);
  vm_scratch_free (c->rcp);
  vm_scratch_free (c->rri);
  memset (c, 0, sizeof *c);
}

