/* initial_check.c -- the initial data of a mechanical system checked before a solve (see
 * initial_check.h). */
#include "model/initial_check.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the message ------------------------------------------------------------------------------ */

static void
put (vm_initial_report *r, const char *fmt, ...)
{
  size_t len = strlen (r->msg);
  va_list ap;
  if (len + 1 >= sizeof r->msg)
    return;
  va_start (ap, fmt);
  vsnprintf (r->msg + len, sizeof r->msg - len, fmt, ap);
  va_end (ap);
}

/* "constraint k (expr)" or "k (expr)" (with_word = 0) */
static void
put_constraint (vm_initial_report *r, const char *const *expr, int a, int with_word)
{
  const char *e = expr ? expr[a] : NULL;
  put (r, "%s%d", with_word ? "constraint " : "", a + 1);
  if (! e)
    return;
  if (strlen (e) <= VM_INITIAL_EXPR)
    put (r, " (%s)", e);
  else
    put (r, " (%.*s...)", VM_INITIAL_EXPR - 3, e);
}

/* "constraints 1 (x) and 2 (x-1)", "constraints 1 (a), 2 (b) and 3 (c)" */
static void
put_list (vm_initial_report *r, const char *const *expr, int ntot)
{
  int k, nl = ntot < VM_INITIAL_MAXLIST ? ntot : VM_INITIAL_MAXLIST;
  put (r, "constraints ");
  for (k = 0; k < nl; k++)
    {
      if (k > 0)
        put (r, k == nl - 1 && nl == ntot ? " and " : ", ");
      put_constraint (r, expr, r->involved[k], 0);
    }
  if (nl < ntot)
    put (r, " and %d more", ntot - nl);
}

/* ---- the check -------------------------------------------------------------------------------- */

static double
dot (const double *x, const double *y, int n)
{
  double s = 0;
  int i;
  for (i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

/* the state of one vm_initial_check, shared by its steps */
typedef struct
{
  vm_mech *model;
  int n, m;
  double tol;
  const char *const *expr;
  vm_initial_report *r;
  double *x;                   /* the graph's variables at the initial state (nvar) */
  double *A, *Q, *T;           /* A (m x n); orthonormal basis Q (nq rows) = T A */
  double *d, *w, *res;         /* coefficients on Q (m); the dependency (m); the orthogonal part (n) */
  double *phi, *gpos;          /* velocity- and position-level residuals (m) */
  int *hol, *cst;              /* holonomic, constant rows (m) */
  int nq;                      /* rows in the basis */
} ic_ws;

/* the workspace's arrays (1: all allocated) */
static int
ic_alloc (ic_ws *s)
{
  int n = s->n, m = s->m;
  s->x = calloc ((size_t) s->model->nvar, sizeof *s->x);
  s->A = calloc ((size_t) m * n + 1, sizeof *s->A);
  s->Q = calloc ((size_t) m * n + 1, sizeof *s->Q);
  s->T = calloc ((size_t) m * m, sizeof *s->T);
  s->d = calloc ((size_t) m, sizeof *s->d);
  s->w = calloc ((size_t) m, sizeof *s->w);
  s->res = calloc ((size_t) n + 1, sizeof *s->res);
  s->phi = calloc ((size_t) m, sizeof *s->phi);
  s->gpos = calloc ((size_t) m, sizeof *s->gpos);
  s->hol = calloc ((size_t) m, sizeof *s->hol);
  s->cst = calloc ((size_t) m, sizeof *s->cst);
  return s->x && s->A && s->Q && s->T && s->d && s->w && s->res && s->phi && s->gpos && s->hol
         && s->cst;
}

/* free the workspace's arrays */
static void
ic_free (ic_ws *s)
{
  free (s->x);
  free (s->A);
  free (s->Q);
  free (s->T);
  free (s->d);
  free (s->w);
  free (s->res);
  free (s->phi);
  free (s->gpos);
  free (s->hol);
  free (s->cst);
}

/* row a of A, phi[a], gpos[a], hol[a] and cst[a] at the state in x; *nonfinite |= a non-finite
 * value; 0, or -1 when a derivative cannot be built */
static int
ic_row (ic_ws *s, int a, const double *qdot0, int *nonfinite)
{
  vm_mech *model = s->model;
  vm_graph *g = model->g;
  int n = s->n, m = s->m, j;
  int32_t ga = model->gc[a], dn;
  double *A = s->A, *x = s->x;
  s->hol[a] = 1;
  for (j = 0; j < n; j++)
    if (vm_depends (g, ga, model->vqd + j))
      s->hol[a] = 0;
  s->cst[a] = s->hol[a];
  for (j = 0; j < n && s->cst[a]; j++)
    if (vm_depends (g, ga, model->vq + j))
      s->cst[a] = 0;
  for (j = 0; j < n; j++)
    {
      if ((dn = vm_diff (g, ga, (s->hol[a] ? model->vq : model->vqd) + j)) < 0)
        return -1;
      A[a + (size_t) m * j] = vm_graph_eval1 (g, dn, x);
    }
  if (s->hol[a])
    {
      if ((dn = vm_diff (g, ga, model->vt)) < 0)
        return -1;
      s->gpos[a] = vm_graph_eval1 (g, ga, x);
      s->phi[a] = vm_graph_eval1 (g, dn, x);
      for (j = 0; j < n; j++)
        s->phi[a] += A[a + (size_t) m * j] * qdot0[j];
    }
  else
    s->phi[a] = vm_graph_eval1 (g, ga, x);
  *nonfinite |= ! isfinite (s->phi[a]) || ! isfinite (s->gpos[a]);
  for (j = 0; j < n; j++)
    *nonfinite |= ! isfinite (A[a + (size_t) m * j]);
  return 0;
}

/* A, phi, gpos at the initial state; VM_OK (the report says when a value is not finite) or
 * VM_ENOMEM */
static int
ic_evaluate (ic_ws *s, const double *par, double t0, const double *q0, const double *qdot0)
{
  vm_mech *model = s->model;
  int a, i, nonfinite = 0;
  s->x[model->vt] = t0;
  for (i = 0; i < s->n; i++)
    {
      s->x[model->vq + i] = q0[i];
      s->x[model->vqd + i] = qdot0[i];
    }
  for (i = 0; i < model->np; i++)
    s->x[model->vp + i] = par[i];
  for (a = 0; a < s->m; a++)
    if (ic_row (s, a, qdot0, &nonfinite) < 0)
      return VM_ENOMEM;
  if (vm_graph_status (model->g) != VM_OK)
    return VM_ENOMEM;
  if (nonfinite)
    {
      s->r->kind = VM_INITIAL_NONFINITE;
      put (s->r, "the model cannot be evaluated at the initial state (non-finite values)");
    }
  return VM_OK;
}

/* a constant row (reported; 1) or none (0) */
static int
ic_constant_row (ic_ws *s)
{
  vm_initial_report *r = s->r;
  int a;
  for (a = 0; a < s->m; a++)
    if (s->cst[a])
      {
        r->kind = VM_INITIAL_CONSTANT;
        r->index = a;
        put (r, "the constraint Jacobian is rank-deficient: ");
        put_constraint (r, s->expr, a, 1);
        put (r, " is a constant (it contains neither the coordinates nor their velocities); "
                "remove it from the constraints");
        return 1;
      }
  return 0;
}

/* report row a, whose gradient vanishes at the initial state */
static void
ic_zero_row (ic_ws *s, int a)
{
  vm_initial_report *r = s->r;
  int hol = s->hol[a];
  r->kind = VM_INITIAL_ZERO_ROW;
  r->index = a;
  r->rank = s->nq;
  put (r, "the constraint Jacobian is rank-deficient at the initial state: the gradient of ");
  put_constraint (r, s->expr, a, 1);
  put (r, hol ? " vanishes there (dg/dq = 0)" : " vanishes there (dg/dqdot = 0)");
  put (r, ", so its reaction is undefined; write the constraint so that its gradient does "
          "not vanish at the initial state (e.g. x instead of x^2%s), or start elsewhere",
       hol ? "" : ", or linear in the velocities");
}

/* orthogonalize res against the basis Q_0..Q_{nq-1} (Q_k = sum_j T[k, j] A_j), twice: its
 * coefficients in d */
static void
ic_orthogonalize (ic_ws *s)
{
  int n = s->n, m = s->m, nq = s->nq, j, k, p;
  double *Q = s->Q, *res = s->res, *d = s->d;
  for (k = 0; k < nq; k++)
    d[k] = 0;
  for (p = 0; p < 2; p++)
    for (k = 0; k < nq; k++)
      {
        double c = 0;
        for (j = 0; j < n; j++)
          c += Q[k + (size_t) m * j] * res[j];
        d[k] += c;
        for (j = 0; j < n; j++)
          res[j] -= c * Q[k + (size_t) m * j];
      }
}

/* add row a to the basis: Q_nq = res / nr, T row nq = (e_a - sum_k d_k T_k) / nr */
static void
ic_add_basis (ic_ws *s, int a, double nr)
{
  int n = s->n, m = s->m, nq = s->nq, i, j, k;
  for (j = 0; j < n; j++)
    s->Q[nq + (size_t) m * j] = s->res[j] / nr;
  for (i = 0; i < m; i++)
    {
      double c = i == a ? 1.0 : 0.0;
      for (k = 0; k < nq; k++)
        c -= s->d[k] * s->T[k + (size_t) m * i];
      s->T[nq + (size_t) m * i] = c / nr;
    }
  s->nq++;
}

/* report the dependency of row a on the rows before it: A_a = sum_k d_k Q_k
 * = sum_i (sum_k d_k T[k, i]) A_i: w = e_a - that, w' A = 0 */
static void
ic_dependency (ic_ws *s, int a)
{
  vm_initial_report *r = s->r;
  int m = s->m, nq = s->nq, i, k, allhol = 1, ni = 0;
  double *w = s->w, wmax = 0, vg = 0, vphi = 0, tol = s->tol;
  for (i = 0; i < m; i++)
    {
      double c = i == a ? 1.0 : 0.0;
      for (k = 0; k < nq; k++)
        c -= s->d[k] * s->T[k + (size_t) m * i];
      w[i] = c;
      wmax = fmax (wmax, fabs (c));
    }
  for (i = 0; i < m; i++)
    {
      w[i] /= wmax;
      if (fabs (w[i]) > 1e-8)
        {
          if (ni < VM_INITIAL_MAXLIST)
            r->involved[ni] = i;
          ni++;
          allhol &= s->hol[i];
          vg += w[i] * s->gpos[i];
          vphi += w[i] * s->phi[i];
        }
    }
  r->ninvolved = ni;
  r->index = a;
  r->rank = nq;
  vg = fabs (vg);
  vphi = fabs (vphi);
  if ((allhol && ! (vg <= tol)) || ! (vphi <= tol))
    {
      r->kind = VM_INITIAL_CONTRADICTORY;
      r->value = allhol && ! (vg <= tol) ? vg : vphi;
    }
  else
    {
      r->kind = VM_INITIAL_REDUNDANT;
      r->value = allhol ? fmax (vg, vphi) : vphi;
    }
  put (r, "the constraint Jacobian is rank-deficient at the initial state: ");
  put_list (r, s->expr, ni);
  if (r->kind == VM_INITIAL_CONTRADICTORY)
    put (r, " are contradictory (their gradients are linearly dependent, but a combination "
            "of them is %g, not 0: no %s satisfies all of them); remove or correct one of "
            "them", r->value, allhol && ! (vg <= tol) ? "position" : "velocity");
  else
    put (r, " are redundant (their gradients are linearly dependent and they state the same "
            "condition); remove one of them");
}

/* vanishing rows, then dependencies, in row order: the first one reported (1) or none (0) */
static int
ic_rank (ic_ws *s)
{
  int n = s->n, m = s->m, a, j;
  for (a = 0; a < m; a++)
    {
      double nrm = 0, nr;
      for (j = 0; j < n; j++)
        {
          s->res[j] = s->A[a + (size_t) m * j];
          nrm += s->res[j] * s->res[j];
        }
      nrm = sqrt (nrm);
      if (nrm == 0)
        {
          ic_zero_row (s, a);
          return 1;
        }
      ic_orthogonalize (s);
      nr = sqrt (dot (s->res, s->res, n));
      if (nr > VM_INITIAL_RANK_TOL * nrm)
        {
          ic_add_basis (s, a, nr);
          continue;
        }
      ic_dependency (s, a);
      return 1;
    }
  return 0;
}

/* 2. position level, 3. velocity level: the largest residual above tol (reported) */
static void
ic_residuals (ic_ws *s)
{
  vm_initial_report *r = s->r;
  int a, k;
  for (k = 0; k < 2; k++)
    {
      double worst = 0;
      int iw = -1;
      for (a = 0; a < s->m; a++)
        {
          double v = fabs (k == 0 ? s->gpos[a] : s->phi[a]);
          if ((k == 1 || s->hol[a]) && ! (v <= worst))
            {
              worst = v;
              iw = a;
            }
        }
      if (iw >= 0 && ! (worst <= s->tol))
        {
          r->kind = k == 0 ? VM_INITIAL_POSITION : VM_INITIAL_VELOCITY;
          r->index = iw;
          r->value = worst;
          put (r, "the initial state violates ");
          put_constraint (r, s->expr, iw, 1);
          if (k == 1 && s->hol[iw])
            put (r, " at velocity level (dg/dq qdot + dg/dt)");
          put (r, " by %g (ConstraintTol = %g)", worst, s->tol);
          return;
        }
    }
}

int
vm_initial_check (vm_mech *model, const double *par, double t0, const double *q0,
                  const double *qdot0, double tol, const char *const *expr,
                  vm_initial_report *r)
{
  int st = VM_ENOMEM;
  ic_ws s;
  if (r)
    {
      memset (r, 0, sizeof *r);
      r->index = -1;
    }
  if (! model || ! model->g || ! q0 || ! qdot0 || ! r || (model->np > 0 && ! par) || ! (tol >= 0))
    return VM_EARG;
  r->rank = model->m;
  if (model->m == 0)
    return VM_OK;
  memset (&s, 0, sizeof s);
  s.model = model;
  s.n = model->n;
  s.m = model->m;
  s.tol = tol;
  s.expr = expr;
  s.r = r;
  if (! ic_alloc (&s))
    goto done;
  if ((st = ic_evaluate (&s, par, t0, q0, qdot0)) != VM_OK || r->kind == VM_INITIAL_NONFINITE)
    goto done;
  /* 1. rank: constant rows, then vanishing rows, then dependencies (in row order) */
  if (ic_constant_row (&s) || ic_rank (&s))
    goto done;
  ic_residuals (&s);
done:
  ic_free (&s);
  if (st != VM_OK)
    {
      r->kind = VM_INITIAL_OK;
      r->index = -1;
      r->msg[0] = '\0';
    }
  return st;
}
