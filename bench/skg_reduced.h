/* skg_reduced.h -- the benchmark problems of the SKG solver (the rolling disk with its linear
 * constraint form, the tumbler with a soft wall) and the reduced system of csrc/skg/skg_solve.h built
 * on vm_skg (skg.h) outside the package's solver: unknowns y = per node [q+ (n), lambda+ (m)],
 * equations dS/dq- = 0, dS/dlambda- = 0 at q- = lambda- = 0, Jacobian = the block
 * d2S / d(q-, lambda-) d(q+, lambda+) of the exact Hessian as triplets, both from the reduced tape
 * (vm_skg_eval_reduced) that skg_solve evaluates.  Shared by the peers and
 * limits that must see the same discrete system as vm_skg_solve: bench/ipopt_peer.c (IPOPT) and
 * bench/skg_limit.c (one dgbtrf of the same Jacobian).  Header-only (static functions): each
 * bench program is one translation unit. */
#ifndef VM_BENCH_SKG_REDUCED_H
#define VM_BENCH_SKG_REDUCED_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "skg/skg.h"
#include "skg/skg_solve.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#define PI 3.14159265358979323846

typedef struct {
  const char *name;
  vm_mech m;
  double par[8];
  double qi[4], vi[4], t0, tf;
  int64_t N;
} problem;

static int
build_disk (problem *P, int64_t N)
{
  static const char *x[] = { "x", "y", "theta", "phi" };
  static const char *par[] = { "M", "g", "alpha", "R", "IS", "ID" };
  static const char *cons[] = { "dot(x)*cos(phi) + dot(y)*sin(phi) - R*dot(theta)",
                                "dot(x)*sin(phi) - dot(y)*cos(phi)" };
  const double pv[6] = { 1, 9.8, PI / 6, 1, 0.5, 0.25 }, v0[4] = { 5, 0, 5, 1 };
  vm_mech_desc d;
  vm_err err;
  memset (&d, 0, sizeof d);
  d.n = 4; d.coord = x; d.np = 6; d.param = par;
  d.lagrangian = "M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 "
                 "+ M*g*x*sin(alpha)";
  d.ncons = 2; d.cons = cons;
  P->name = "disk";
  memcpy (P->par, pv, sizeof pv);
  memset (P->qi, 0, sizeof P->qi);
  memcpy (P->vi, v0, sizeof v0);
  P->t0 = 0; P->tf = 2 * PI; P->N = N;
  if (vm_mech_build (&d, &P->m, &err) != VM_OK)
    {
      fprintf (stderr, "disk: %s\n", err.msg);
      return 1;
    }
  return 0;
}

static int
build_tumbler (problem *P, int64_t N, double sig)
{
  static const char *x[] = { "x", "y" };
  static const char *par[] = { "m", "g", "R", "sig", "V0" };
  static vm_contact_desc c = { "R^2 - x^2 - y^2", "sig", "V0", "0", "0" }   /* no friction */;
  vm_mech_desc d;
  vm_err err;
  memset (&d, 0, sizeof d);
  d.n = 2; d.coord = x; d.np = 5; d.param = par;
  d.lagrangian = "m/2*(dot(x)^2 + dot(y)^2) - m*g*y";
  d.ncontact = 1; d.contact = &c;
  P->name = "tumbler sigma=1/30";
  P->par[0] = 1; P->par[1] = 9.8; P->par[2] = 1; P->par[3] = sig; P->par[4] = 5;
  P->qi[0] = -0.5; P->qi[1] = -0.75; P->vi[0] = P->vi[1] = 0;
  P->t0 = 0; P->tf = 0.5; P->N = N;
  if (vm_mech_build (&d, &P->m, &err) != VM_OK)
    {
      fprintf (stderr, "tumbler: %s\n", err.msg);
      return 1;
    }
  return 0;
}

/* ---- the reduced system on top of vm_skg ------------------------------------------------------ */

typedef struct {
  vm_skg s;
  int n, m, u;                 /* u = n + m unknowns (and equations) per node */
  int64_t ny;                  /* N u */
  int64_t *ycol, *yrow;        /* ny: full index of reduced unknown / equation */
  int64_t nnzj, *jcp, *jri;    /* the Jacobian's CSC pattern (vm_skg_pattern) */
  int *irow, *jcol;            /* the same as 0-based triplets, column by column */
  vm_skg_plan plan;            /* the reduced tape's Hessian entries -> the Jacobian */
  int plan_ok;
  double *z, *grad;
  long nf, nj;
} red;

/* The reduced system as skg_solve builds it (skg_solve.c red_build): the block's own pattern and
 * the reduced tape (vm_skg_eval_reduced), so that every solver gets the same evaluation code. */
static int
red_build (red *R, const problem *P, int order)
{
  vm_skg *s = &R->s;
  int64_t N = P->N, k, j, p;
  int c, n, m, nb, rc[64], cc[64];
  memset (R, 0, sizeof *R);
  if (vm_skg_build (s, &P->m, P->par, N, order, &(vm_skg_window) { P->t0, P->tf, P->qi, P->vi })
      != VM_OK
      || s->nb > 64)
    return 1;
  n = R->n = s->n; m = R->m = s->m; nb = s->nb; R->u = n + m;
  R->ny = N * R->u;
  for (c = 0; c < nb; c++)
    rc[c] = cc[c] = -1;
  for (c = 0; c < R->u; c++)
    {
      cc[c < n ? c : 2 * n + (c - n)] = c;             /* q+, lambda+ -> unknown c */
      rc[c < n ? n + c : 2 * n + m + (c - n)] = c;     /* q-, lambda- -> equation c */
    }
  if (vm_skg_pattern (s, R->u, rc, cc, &R->jcp, &R->jri, &R->nnzj) != VM_OK
      || vm_skg_reduced_init (s) != VM_OK
      || vm_skg_plan_build (s, VM_SKG_TERM_REDUCED,
                            &(vm_skg_target) { R->u, rc, cc, R->ny, R->jcp, R->jri }, &R->plan)
         != VM_OK)
    return 1;
  R->plan_ok = 1;
  R->ycol = malloc ((size_t) R->ny * sizeof *R->ycol);
  R->yrow = malloc ((size_t) R->ny * sizeof *R->yrow);
  R->z = calloc ((size_t) s->nz, sizeof *R->z);
  R->grad = malloc ((size_t) s->nz * sizeof *R->grad);
  R->irow = malloc ((size_t) R->nnzj * sizeof *R->irow);
  R->jcol = malloc ((size_t) R->nnzj * sizeof *R->jcol);
  if (! R->ycol || ! R->yrow || ! R->z || ! R->grad || ! R->irow || ! R->jcol)
    return 1;
  for (k = 0; k < N; k++)
    for (c = 0; c < R->u; c++)
      {
        int64_t yi = k * R->u + c;
        R->ycol[yi] = k * nb + (c < n ? c : 2 * n + (c - n));
        R->yrow[yi] = k * nb + (c < n ? n + c : 2 * n + m + (c - n));
      }
  for (j = 0; j < R->ny; j++)
    for (p = R->jcp[j]; p < R->jcp[j + 1]; p++)
      {
        R->irow[p] = (int) R->jri[p];
        R->jcol[p] = (int) j;
      }
  return 0;
}

static void
red_free (red *R)
{
  if (R->plan_ok)
    vm_skg_plan_free (&R->plan);
  vm_skg_free (&R->s);
  free (R->ycol); free (R->yrow); vm_scratch_free (R->jcp); vm_scratch_free (R->jri); free (R->irow); free (R->jcol);
  free (R->z); free (R->grad);
}

static void
red_set (red *R, const double *y)
{
  int64_t i;
  for (i = 0; i < R->ny; i++)
    R->z[R->ycol[i]] = y[i];
}

static int
red_F (red *R, const double *y, double *F)
{
  int64_t i;
  red_set (R, y);
  if (vm_skg_eval_reduced (&R->s, R->z, R->grad, NULL, NULL) != VM_OK)
    return 0;
  for (i = 0; i < R->ny; i++)
    F[i] = R->grad[R->yrow[i]];
  R->nf++;
  return 1;
}

/* The Jacobian's nnzj values at y, in the order of the triplets (irow, jcol) */
static int
red_J (red *R, const double *y, double *values)
{
  red_set (R, y);
  if (vm_skg_eval_reduced (&R->s, R->z, NULL, &R->plan, values) != VM_OK)
    return 0;
  R->nj++;
  return 1;
}

/* ||F||_inf and the H-weighted 2-norm sqrt(sum_k sum_c F_kc^2 / H_kk) (skg_solve's ||.||_W) */
static void
red_norms (red *R, const double *y, double *finf, double *fw)
{
  double *F = malloc ((size_t) R->ny * sizeof *F), a = 0, w = 0;
  int64_t i;
  red_F (R, y, F);
  for (i = 0; i < R->ny; i++)
    {
      a = fmax (a, fabs (F[i]));
      w += F[i] * F[i] / R->s.hw[i / R->u];
    }
  *finf = a;
  *fw = sqrt (w);
  free (F);
}

static void
red_start (const red *R, const problem *P, double *y)
{
  int64_t k;
  int c;
  for (k = 0; k < P->N; k++)
    for (c = 0; c < R->u; c++)
      y[k * R->u + c] = c < R->n ? P->qi[c] + P->vi[c] * (R->s.t[k] - P->t0) : 0.0;
}

/* y = skg_solve's solution (q+ and lambda+ of sol, N nodes, one window) in R's layout */
static void
red_from_solution (const red *R, const vm_skg_solution *sol, int64_t N, double *y)
{
  int64_t i;
  int c;
  for (i = 0; i < N; i++)
    for (c = 0; c < R->u; c++)
      y[i * R->u + c] = c < R->n ? sol->q[i + N * c] : sol->lambda_plus[i + N * (c - R->n)];
}

#endif
