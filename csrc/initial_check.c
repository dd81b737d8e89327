/* initial_check.c -- the initial data of a mechanical system checked before a solve (see
 * initial_check.h). */
#include "initial_check.h"
#include "vm_status.h"

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

int
vm_initial_check (vm_mech *model, const double *par, double t0, const double *q0,
                  const double *qdot0, double tol, const char *const *expr,
                  vm_initial_report *r)
{
  int n, m, a, i, j, k, nq = 0, st = VM_ENOMEM, nonfinite = 0;
  double *x = NULL, *A = NULL, *Q = NULL, *T = NULL, *d = NULL, *w = NULL, *res = NULL;
  double *phi = NULL, *gpos = NULL;
  int *hol = NULL, *cst = NULL;
  vm_graph *g;
  if (r)
    {
      memset (r, 0, sizeof *r);
      r->index = -1;
    }
  if (! model || ! model->g || ! q0 || ! qdot0 || ! r || (model->np > 0 && ! par) || ! (tol >= 0))
    return VM_EARG;
  g = model->g;
  n = model->n;
  m = model->m;
  r->rank = m;
  if (m == 0)
    return VM_OK;
  x = calloc ((size_t) model->nvar, sizeof *x);
  A = calloc ((size_t) m * n + 1, sizeof *A);
  Q = calloc ((size_t) m * n + 1, sizeof *Q);
  T = calloc ((size_t) m * m, sizeof *T);
  d = calloc ((size_t) m, sizeof *d);
  w = calloc ((size_t) m, sizeof *w);
  res = calloc ((size_t) n + 1, sizeof *res);
  phi = calloc ((size_t) m, sizeof *phi);
  gpos = calloc ((size_t) m, sizeof *gpos);
  hol = calloc ((size_t) m, sizeof *hol);
  cst = calloc ((size_t) m, sizeof *cst);
  if (! x || ! A || ! Q || ! T || ! d || ! w || ! res || ! phi || ! gpos || ! hol || ! cst)
    goto done;
  x[model->vt] = t0;
  for (i = 0; i < n; i++)
    {
      x[model->vq + i] = q0[i];
      x[model->vqd + i] = qdot0[i];
    }
  for (i = 0; i < model->np; i++)
    x[model->vp + i] = par[i];

  /* A, phi, gpos at the initial state */
  for (a = 0; a < m; a++)
    {
      int32_t ga = model->gc[a], dn;
      hol[a] = 1;
      for (j = 0; j < n; j++)
        if (vm_depends (g, ga, model->vqd + j))
          hol[a] = 0;
      cst[a] = hol[a];
      for (j = 0; j < n && cst[a]; j++)
        if (vm_depends (g, ga, model->vq + j))
          cst[a] = 0;
      for (j = 0; j < n; j++)
        {
          if ((dn = vm_diff (g, ga, (hol[a] ? model->vq : model->vqd) + j)) < 0)
            goto done;
          A[a + (size_t) m * j] = vm_graph_eval1 (g, dn, x);
        }
      if (hol[a])
        {
          if ((dn = vm_diff (g, ga, model->vt)) < 0)
            goto done;
          gpos[a] = vm_graph_eval1 (g, ga, x);
          phi[a] = vm_graph_eval1 (g, dn, x);
          for (j = 0; j < n; j++)
            phi[a] += A[a + (size_t) m * j] * qdot0[j];
        }
      else
        phi[a] = vm_graph_eval1 (g, ga, x);
      nonfinite |= ! isfinite (phi[a]) || ! isfinite (gpos[a]);
      for (j = 0; j < n; j++)
        nonfinite |= ! isfinite (A[a + (size_t) m * j]);
    }
  if (vm_graph_status (g) != VM_OK)
    goto done;
  st = VM_OK;
  if (nonfinite)
    {
      r->kind = VM_INITIAL_NONFINITE;
      put (r, "the model cannot be evaluated at the initial state (non-finite values)");
      goto done;
    }

  /* 1. rank: constant rows, then vanishing rows, then dependencies (in row order) */
  for (a = 0; a < m; a++)
    if (cst[a])
      {
        r->kind = VM_INITIAL_CONSTANT;
        r->index = a;
        put (r, "the constraint Jacobian is rank-deficient: ");
        put_constraint (r, expr, a, 1);
        put (r, " is a constant (it contains neither the coordinates nor their velocities); "
                "remove it from the constraints");
        goto done;
      }
  for (a = 0; a < m; a++)
    {
      double nrm = 0, nr;
      int p;
      for (j = 0; j < n; j++)
        {
          res[j] = A[a + (size_t) m * j];
          nrm += res[j] * res[j];
        }
      nrm = sqrt (nrm);
      if (nrm == 0)
        {
          r->kind = VM_INITIAL_ZERO_ROW;
          r->index = a;
          r->rank = nq;
          put (r, "the constraint Jacobian is rank-deficient at the initial state: the gradient of ");
          put_constraint (r, expr, a, 1);
          put (r, hol[a] ? " vanishes there (dg/dq = 0)" : " vanishes there (dg/dqdot = 0)");
          put (r, ", so its reaction is undefined; write the constraint so that its gradient does "
                  "not vanish at the initial state (e.g. x instead of x^2%s), or start elsewhere",
               hol[a] ? "" : ", or linear in the velocities");
          goto done;
        }
      /* orthogonalize against the basis Q_0..Q_{nq-1} (Q_k = sum_j T[k, j] A_j), twice */
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
      nr = sqrt (dot (res, res, n));
      if (nr > VM_INITIAL_RANK_TOL * nrm)
        {
          for (j = 0; j < n; j++)
            Q[nq + (size_t) m * j] = res[j] / nr;
          for (i = 0; i < m; i++)
            {
              double c = i == a ? 1.0 : 0.0;
              for (k = 0; k < nq; k++)
                c -= d[k] * T[k + (size_t) m * i];
              T[nq + (size_t) m * i] = c / nr;
            }
          nq++;
          continue;
        }
      /* A_a = sum_k d_k Q_k = sum_i (sum_k d_k T[k, i]) A_i: w = e_a - that, w' A = 0 */
      {
        double wmax = 0, vg = 0, vphi = 0;
        int allhol = 1, ni = 0;
        for (i = 0; i < m; i++)
          {
            double c = i == a ? 1.0 : 0.0;
            for (k = 0; k < nq; k++)
              c -= d[k] * T[k + (size_t) m * i];
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
                allhol &= hol[i];
                vg += w[i] * gpos[i];
                vphi += w[i] * phi[i];
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
        put_list (r, expr, ni);
        if (r->kind == VM_INITIAL_CONTRADICTORY)
          put (r, " are contradictory (their gradients are linearly dependent, but a combination "
                  "of them is %g, not 0: no %s satisfies all of them); remove or correct one of "
                  "them", r->value, allhol && ! (vg <= tol) ? "position" : "velocity");
        else
          put (r, " are redundant (their gradients are linearly dependent and they state the same "
                  "condition); remove one of them");
        goto done;
      }
    }

  /* 2. position level, 3. velocity level: the largest residual above tol */
  for (k = 0; k < 2; k++)
    {
      double worst = 0;
      int iw = -1;
      for (a = 0; a < m; a++)
        {
          double v = fabs (k == 0 ? gpos[a] : phi[a]);
          if ((k == 1 || hol[a]) && ! (v <= worst))
            {
              worst = v;
              iw = a;
            }
        }
      if (iw >= 0 && ! (worst <= tol))
        {
          r->kind = k == 0 ? VM_INITIAL_POSITION : VM_INITIAL_VELOCITY;
          r->index = iw;
          r->value = worst;
          put (r, "the initial state violates ");
          put_constraint (r, expr, iw, 1);
          if (k == 1 && hol[iw])
            put (r, " at velocity level (dg/dq qdot + dg/dt)");
          put (r, " by %g (ConstraintTol = %g)", worst, tol);
          goto done;
        }
    }
done:
  free (x);
  free (A);
  free (Q);
  free (T);
  free (d);
  free (w);
  free (res);
  free (phi);
  free (gpos);
  free (hol);
  free (cst);
  if (st != VM_OK)
    {
      r->kind = VM_INITIAL_OK;
      r->index = -1;
      r->msg[0] = '\0';
    }
  return st;
}
