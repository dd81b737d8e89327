/* linsolve_umf.c -- the UMFPACK backend of the linear solver (linsolve_umf.h; its contract in
 * linsolve.h, VM_LINSOLVE_UMFPACK): UMFPACK's sparse LU with the 64-bit interface, its symbolic
 * analysis cached per pattern.  Reached only through vm_linsolve_umf_ops. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <umfpack.h>

#include "la/linsolve_umf.h"
#include "base/vm_status.h"

/* UMFPACK's 64-bit index type: SuiteSparse_long (long) up to UMFPACK 5, int64_t from UMFPACK 6.
 * Up to UMFPACK 5 the caller's int64_t pattern is copied once into this type when the two are
 * distinct types of the same width (e.g. long and long long, which may not alias); when configure
 * has proved them the same type (VM_UMF_LONG_IS_INT64: long on LP64 glibc), and from UMFPACK 6 on,
 * it is used as it is: one copy of the pattern, the caller's. */
#if defined(UMFPACK_MAIN_VERSION) && UMFPACK_MAIN_VERSION >= 6
typedef int64_t umf_int;
#define VM_UMF_COPY_PATTERN 0
#elif defined(VM_UMF_LONG_IS_INT64)
typedef int64_t umf_int;
#define VM_UMF_COPY_PATTERN 0
typedef char vm_umf_long_is_int64[sizeof (SuiteSparse_long) == sizeof (int64_t) ? 1 : -1];
#else
typedef SuiteSparse_long umf_int;
#define VM_UMF_COPY_PATTERN 1
#endif
/* linsolve_core.h's copies of the UMFPACK codes */
typedef char vm_umf_codes_match[(VM_UMF_ORDERING_AMD == UMFPACK_ORDERING_AMD
                                 && VM_UMF_ORDERING_METIS == UMFPACK_ORDERING_METIS
                                 && VM_UMF_ORDERING_NONE == UMFPACK_ORDERING_NONE
                                 && VM_UMF_ORDERING_CHOLMOD == UMFPACK_ORDERING_CHOLMOD
                                 && VM_UMF_ORDERING_BEST == UMFPACK_ORDERING_BEST
                                 && VM_UMF_STRATEGY_AUTO == UMFPACK_STRATEGY_AUTO
                                 && VM_UMF_STRATEGY_UNSYMMETRIC == UMFPACK_STRATEGY_UNSYMMETRIC
                                 && VM_UMF_STRATEGY_SYMMETRIC == UMFPACK_STRATEGY_SYMMETRIC)
                                ? 1 : -1];
/* ---- the cache of a symbolic analysis (linsolve.h) ----------------------------------------------- */

void
vm_linsolve_cache_init (vm_linsolve_cache *c)
{
  if (c)
    memset (c, 0, sizeof *c);
}

void
vm_linsolve_cache_free (vm_linsolve_cache *c)
{
  if (!c)
    return;
  if (c->sym)
    umfpack_dl_free_symbolic (&c->sym);
  memset (c, 0, sizeof *c);
}
/* FNV-1a over the pattern */
static uint64_t
pattern_hash (int n, const int64_t *colptr, const int64_t *rowind)
{
  uint64_t h = 1469598103934665603ull;
  int64_t p;
  int j;
  for (j = 0; j <= n; j++)
    h = (h ^ (uint64_t) colptr[j]) * 1099511628211ull;
  for (p = 0; p < colptr[n]; p++)
    h = (h ^ (uint64_t) rowind[p]) * 1099511628211ull;
  return h;
}
/* ---- UMFPACK backend ---------------------------------------------------------------------------- */

static void umf_release (vm_linsolve *ls);

static int
umf_status (vm_linsolve *ls, const char *what, umf_int st)
{
  if (st == UMFPACK_ERROR_out_of_memory)
    {
      vm_ls_setmsg (ls, "%s: UMFPACK ran out of memory", what);
      return VM_ENOMEM;
    }
  vm_ls_setmsg (ls, "%s failed with UMFPACK status %ld", what, (long) st);
  return VM_EUMFPACK;
}

/* Take the analysis from the cache when it matches, else empty it and label it for this pattern
 * (umf_symbolic fills it). */
static void
umf_use_cache (vm_linsolve *ls, const vm_linsolve_opts *o)
{
  vm_linsolve_cache *c = o->cache;
  const uint64_t h = pattern_hash (ls->n, ls->colptr, ls->rowind);
  if (c->sym && c->n == ls->n && c->nnz == ls->nnz && c->hash == h
      && c->ordering == o->umf_ordering && c->strategy == o->umf_strategy)
    {
      ls->sym = c->sym;
      c->nreuse++;
    }
  else
    {
      vm_linsolve_cache_free (c);
      c->n = ls->n;
      c->nnz = ls->nnz;
      c->hash = h;
      c->ordering = o->umf_ordering;
      c->strategy = o->umf_strategy;
    }
  ls->cache = c;
}

static int
umf_init (vm_linsolve *ls, const vm_linsolve_opts *o)
{
  const int n = ls->n;
  double *ctl;
  if (o->umf_ordering < -1 || o->umf_ordering > UMFPACK_ORDERING_NONE
      || o->umf_strategy < -1 || o->umf_strategy > UMFPACK_STRATEGY_SYMMETRIC
      || o->umf_irstep < -1 || o->umf_irstep > 10)
    {
      vm_ls_setmsg (ls, "umf_ordering = %d, umf_strategy = %d, umf_irstep = %d: must be -1 (default) "
              "or a UMFPACK ordering (0..%d), strategy (0..%d), number of refinement steps "
              "(0..10)", o->umf_ordering, o->umf_strategy, o->umf_irstep, UMFPACK_ORDERING_NONE,
              UMFPACK_STRATEGY_SYMMETRIC);
      return VM_EARG;
    }
  ls->control = malloc (UMFPACK_CONTROL * sizeof *ls->control);
  ls->info = malloc (UMFPACK_INFO * sizeof *ls->info);
  if (VM_UMF_COPY_PATTERN)
    {
      ls->Ap = malloc ((size_t) (n + 1) * sizeof (umf_int));
      ls->Ai = malloc ((size_t) (ls->nnz > 0 ? ls->nnz : 1) * sizeof (umf_int));
    }
  if (!ls->control || !ls->info || (VM_UMF_COPY_PATTERN && (!ls->Ap || !ls->Ai)))
    {
      vm_ls_setmsg (ls, "out of memory for UMFPACK's pattern (n = %d, nnz = %lld)", n,
              (long long) ls->nnz);
      return VM_ENOMEM;
    }
  if (VM_UMF_COPY_PATTERN)
    {
      umf_int *ap = ls->Ap, *ai = ls->Ai;
      int64_t p;
      int j;
      for (j = 0; j <= n; j++)
        ap[j] = (umf_int) ls->colptr[j];
      for (p = 0; p < ls->nnz; p++)
        ai[p] = (umf_int) ls->rowind[p];
    }
  ctl = ls->control;
  umfpack_dl_defaults (ctl);
  if (o->umf_ordering >= 0)
    ctl[UMFPACK_ORDERING] = o->umf_ordering;
  if (o->umf_strategy >= 0)
    ctl[UMFPACK_STRATEGY] = o->umf_strategy;
  if (o->umf_irstep >= 0)
    ctl[UMFPACK_IRSTEP] = o->umf_irstep;
  if (o->cache)
    umf_use_cache (ls, o);
  return VM_OK;
}

static const umf_int *
umf_ap (const vm_linsolve *ls)
{
  return VM_UMF_COPY_PATTERN ? (const umf_int *) ls->Ap : (const umf_int *) (const void *) ls->colptr;
}

/* UMFPACK refuses a NULL Ai even with no entries: an empty pattern's rowind may be NULL */
static const umf_int umf_no_rows[1] = { 0 };

static const umf_int *
umf_ai (const vm_linsolve *ls)
{
  if (VM_UMF_COPY_PATTERN)
    return (const umf_int *) ls->Ai;
  return ls->rowind ? (const umf_int *) (const void *) ls->rowind : umf_no_rows;
}

/* The symbolic analysis, at the first factorization (a solve that needs none analyses nothing),
 * into the cache when there is one. */
static int
umf_symbolic (vm_linsolve *ls)
{
  double t0 = vm_wall_time ();
  umf_int st = umfpack_dl_symbolic (ls->n, ls->n, umf_ap (ls), umf_ai (ls), NULL, &ls->sym,
                                    ls->control, ls->info);
  ls->t_symbolic += vm_wall_time () - t0;
  ls->nsymbolic++;
  if (st != UMFPACK_OK)
    {
      ls->sym = NULL;
      return umf_status (ls, "symbolic analysis", st);
    }
  if (ls->cache)
    ls->cache->sym = ls->sym;
  return VM_OK;
}

static int
umf_factor (vm_linsolve *ls, const double *Ax)
{
  umf_int st;
  double t0;
  int rc;
  if (!ls->sym && (rc = umf_symbolic (ls)) != VM_OK)
    return rc;
  umf_release (ls);
  t0 = vm_wall_time ();
  st = umfpack_dl_numeric (umf_ap (ls), umf_ai (ls), Ax, ls->sym, &ls->num, ls->control, ls->info);
  ls->t_numeric += vm_wall_time () - t0;
  ls->nfactor++;
  if (st < 0)
    {
      umf_release (ls);
      return umf_status (ls, "numeric factorization", st);
    }
  ls->rcond = ls->info[UMFPACK_RCOND];
  ls->singular = st == UMFPACK_WARNING_singular_matrix || !(ls->rcond >= DBL_EPSILON);
  return VM_OK;
}

static int
umf_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x)
{
  double t0 = vm_wall_time ();
  umf_int st = umfpack_dl_solve (UMFPACK_A, umf_ap (ls), umf_ai (ls), Ax, x, b, ls->num,
                                 ls->control, ls->info);
  ls->t_solve += vm_wall_time () - t0;
  ls->nsolve++;
  if (st < 0)
    return umf_status (ls, "solve", st);
  if (st != UMFPACK_OK)
    ls->singular = 1;
  return VM_OK;
}

static void
umf_release (vm_linsolve *ls)
{
  if (ls->num)
    umfpack_dl_free_numeric (&ls->num);
}

static void
umf_free (vm_linsolve *ls)
{
  umf_release (ls);
  if (ls->sym && !ls->cache)
    umfpack_dl_free_symbolic (&ls->sym);
  free (ls->Ap);
  free (ls->Ai);
  free (ls->control);
  free (ls->info);
}
/* ---- the operations (linsolve_umf.h) ------------------------------------------------------------ */

static int
umf_op_solve (vm_linsolve *ls, const double *b, double *x)
{
  if (ls->singular || !ls->num)
    return vm_ls_refuse_solve (ls);
  return umf_solve (ls, ls->Ax, b, x);
}

static int
umf_op_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x)
{
  int st;
  if ((st = umf_factor (ls, Ax)) != VM_OK || ls->singular)
    return st;
  return umf_op_solve (ls, b, x);
}

const vm_linsolve_ops vm_linsolve_umf_ops = {
  umf_init, umf_factor, umf_op_solve, umf_op_factor_solve, umf_release, umf_free
};
