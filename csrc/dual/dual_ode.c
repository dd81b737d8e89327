/* dual_ode.c -- the general node function of the dual action: any compiled vm_ode (dual_ode.h).
 *
 * Takes the compiled system block of a vm_ode; per batch of points it evaluates F, G, their first
 * derivatives and the dual-weighted second derivatives in one tape sweep, solves the DtP map by
 * Newton's method point by point (one step when F and G are at most quadratic), and returns the
 * dual Lagrangian, its gradient (envelope theorem) and its Hessian -B' A^{-1} B.  It also
 * evaluates the primal right-hand side, its Jacobian and the algebraic states for the march.
 * Errors: VM_EDTP (with the failing point), VM_ENOMEM, evaluation errors.  Cost: per point a few
 * ny x ny dense LU factorizations (la/dense_lu.h) and one tape sweep per DtP iteration.  Why one
 * engine for every system: the node function is the only part of the dual action that depends
 * on the model, so a compiled model plugs in where a closed form does (dual_closed.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vm_status.h"
#include "dual/dual_ode.h"
#include "la/dense_lu.h"

#define DTP_RTOL 1e-12

/* Factor the DtP matrix equilibrated, E A E with E = diag (cr), cr_i = 1 / sqrt (c_i) (its
 * diagonal is 1 at D = 0).  Returns 0, or 1 when a pivot is below DTP_RTOL max |(E A E)_ij| (or
 * it is 0 or not finite).  Why equilibrated: the test is then the same in any units of the
 * states, where on A itself a state with a weight far from the others' looks singular.  Solve
 * with dtp_solve. */
static int
dtp_factor (double *a, int n, int *piv, const double *cr)
{
  int i, j;
  double amax = 0.0;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        a[i * n + j] *= cr[i] * cr[j];
        if (fabs (a[i * n + j]) > amax)
          amax = fabs (a[i * n + j]);
      }
  if (! (amax > 0.0) || ! isfinite (amax))
    return 1;
  return vm_dense_lu (n, a, piv, DTP_RTOL * amax);
}

/* A x = b with the factors of dtp_factor: (E A E) (E^-1 x) = E b; b is overwritten by x */
static void
dtp_solve (const double *a, int n, const int *piv, const double *cr, double *b)
{
  int i;
  for (i = 0; i < n; i++)
    b[i] *= cr[i];
  vm_dense_lu_solve (n, a, piv, b);
  for (i = 0; i < n; i++)
    b[i] *= cr[i];
}

static int
field_index (const vm_block *b, const char *name)
{
  int f;
  for (f = 0; f < b->nfield; f++)
    if (strcmp (b->field[f].name, name) == 0)
      return f;
  return -1;
}

/* the fields of the VM_ODE_SYSTEM block that ode_evaluate fills, in vm_dual_ode.fslot's order */
static const char *const ode_fields[8] = { "F", "F_y", "F_t", "G", "G_y", "G_t", "wF_yy",
                                           "wG_yy" };

int
vm_dual_ode_set_weights (void *ctx, const double *c)
{
  vm_dual_ode *e = ctx;
  int i;
  if (! e || ! c)
    return VM_EARG;
  for (i = 0; i < e->ny; i++)
    if (! (c[i] > 0.0) || ! isfinite (c[i]))
      return VM_EARG;
  for (i = 0; i < e->ny; i++)
    if (e->c[i] != c[i])
      {
        e->c[i] = c[i];
        e->cr[i] = 1.0 / sqrt (c[i]);
      }
  return VM_OK;
}

int
vm_dual_ode_init (vm_dual_ode *e, vm_ode *o, const double *par, const double *c)
{
  int st, r, i, j, v;
  if (! e)
    return VM_EARG;
  memset (e, 0, sizeof *e);
  if (! o || ! o->g || ! c || (o->np > 0 && ! par))
    return VM_EARG;
  e->ny = o->ny;
  e->nd = o->nd;
  e->ng = o->na;
  e->np = o->np;
  e->tol = 1e-13;
  e->max_iter = 50;
  if (e->nd < 1)
    return VM_EARG;
  e->par = malloc ((size_t) (o->np + 1) * sizeof *e->par);
  e->c = malloc ((size_t) o->ny * sizeof *e->c);
  e->cr = malloc ((size_t) o->ny * sizeof *e->cr);
  if (! e->par || ! e->c || ! e->cr)
    {
      vm_dual_ode_free (e);
      return VM_ENOMEM;
    }
  if (o->np > 0)
    memcpy (e->par, par, (size_t) o->np * sizeof *par);
  memcpy (e->c, c, (size_t) o->ny * sizeof *c);
  for (i = 0; i < o->ny; i++)
    {
      if (! (c[i] > 0.0) || ! isfinite (c[i]))
        {
          vm_dual_ode_free (e);
          return VM_EARG;
        }
      e->cr[i] = 1.0 / sqrt (c[i]);
    }
  /* linear DtP map: no second derivative of F or G depends on y */
  e->linear = 1;
  for (r = 0; r < o->nd + o->na && e->linear; r++)
    {
      int32_t f = r < o->nd ? o->F[r] : o->G[r - o->nd];
      for (i = 0; i < o->ny && e->linear; i++)
        {
          int32_t di = vm_diff (o->g, f, o->vy + i);
          for (j = 0; j <= i && e->linear; j++)
            {
              int32_t dij = vm_diff (o->g, di, o->vy + j);
              if (dij < 0)
                {
                  vm_dual_ode_free (e);
                  return VM_ENOMEM;
                }
              for (v = 0; v < o->ny; v++)
                if (vm_depends (o->g, dij, o->vy + v))
                  {
                    e->linear = 0;
                    break;
                  }
            }
        }
    }
  if ((st = vm_ode_block (o, VM_ODE_SYSTEM, &e->blk)) != VM_OK)
    {
      vm_dual_ode_free (e);
      return st;
    }
  for (i = 0; i < 8; i++)
    e->fslot[i] = field_index (&e->blk, ode_fields[i]);
  e->in = malloc ((size_t) (e->blk.tape.nvar + 1) * sizeof *e->in);
  e->inc = malloc ((size_t) (e->blk.tape.nvar + 1) * sizeof *e->inc);
  if (! e->in || ! e->inc)
    {
      vm_dual_ode_free (e);
      return VM_ENOMEM;
    }
  return VM_OK;
}

void
vm_dual_ode_free (vm_dual_ode *e)
{
  if (! e)
    return;
  vm_block_free (&e->blk);
  free (e->par);
  free (e->c);
  free (e->cr);
  free (e->fF);
  free (e->work);
  free (e->A);
  free (e->piv);
  free ((void *) e->in);
  free (e->inc);
  memset (e, 0, sizeof *e);
}

/* work arrays for npts points */
static int
ode_reserve (vm_dual_ode *e, int64_t npts)
{
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng;
  size_t per, tot;
  if (npts <= e->cap)
    return VM_OK;
  free (e->fF);
  free (e->work);
  free (e->A);
  free (e->piv);
  e->fF = NULL;
  e->work = NULL;
  e->A = NULL;
  e->piv = NULL;
  e->cap = 0;
  /* fields F, F_y, F_t, G, G_y, G_t, wF_yy, wG_yy; then the variable-major inputs t y wF wG */
  per = (size_t) nd + (size_t) nd * ny + nd + ng + (size_t) ng * ny + ng + 2 * (size_t) ny * ny
        + 1 + ny + nd + ng;
  tot = per * (size_t) npts;
  e->fF = malloc ((tot > 0 ? tot : 1) * sizeof *e->fF);
  e->work = malloc ((vm_tape_work_size (&e->blk.tape) + 1) * sizeof *e->work);
  e->A = malloc ((size_t) (ny * ny + ny * nl + nl + 2 * ny + 1) * sizeof *e->A);
  e->piv = malloc ((size_t) (ny + 1) * sizeof *e->piv);
  if (! e->fF || ! e->work || ! e->A || ! e->piv)
    return VM_ENOMEM;
  e->fFy = e->fF + (size_t) nd * npts;
  e->fFt = e->fFy + (size_t) nd * ny * npts;
  e->fG = e->fFt + (size_t) nd * npts;
  e->fGy = e->fG + (size_t) ng * npts;
  e->fGt = e->fGy + (size_t) ng * ny * npts;
  e->fWF = e->fGt + (size_t) ng * npts;
  e->fWG = e->fWF + (size_t) ny * ny * npts;
  e->B = e->A + ny * ny;
  e->X = e->B + ny * nl;
  e->r = e->X + nl;
  e->s = e->r + ny;
  e->cap = npts;
  return VM_OK;
}

static int
ode_evaluate (vm_dual_ode *e, int64_t npts, const double *t, const double *u, const double *y)
{
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng, nvar = e->blk.tape.nvar, v, i;
  int64_t k;
  double *in0 = e->fWG + (size_t) ny * ny * npts;   /* t, y, wF, wG variable-major */
  const double **in = e->in;
  int *inc = e->inc;
  double *fields[8], *dst[8];
  dst[0] = e->fF;
  dst[1] = e->fFy;
  dst[2] = e->fFt;
  dst[3] = e->fG;
  dst[4] = e->fGy;
  dst[5] = e->fGt;
  dst[6] = e->fWF;
  dst[7] = e->fWG;
  memcpy (in0, t, (size_t) npts * sizeof *t);
  for (i = 0; i < ny; i++)
    for (k = 0; k < npts; k++)
      in0[(size_t) (1 + i) * npts + k] = y[k * ny + i];
  for (i = 0; i < nd + ng; i++)
    for (k = 0; k < npts; k++)
      in0[(size_t) (1 + ny + i) * npts + k] = u[k * nl + nd + i];
  /* vm_ode layout: t | y (ny) | p (np) | wF (nd) | wG (ng) */
  for (v = 0; v < nvar; v++)
    {
      if (v == 0)
        {
          in[v] = in0;
          inc[v] = 1;
        }
      else if (v <= ny)
        {
          in[v] = in0 + (size_t) v * npts;
          inc[v] = 1;
        }
      else if (v <= ny + e->np)
        {
          in[v] = e->par + (v - 1 - ny);
          inc[v] = 0;
        }
      else
        {
          in[v] = in0 + (size_t) (1 + ny + (v - 1 - ny - e->np)) * npts;
          inc[v] = 1;
        }
    }
  for (i = 0; i < e->blk.nfield && i < 8; i++)
    fields[i] = NULL;
  for (i = 0; i < 8; i++)
    if (e->fslot[i] >= 0 && e->fslot[i] < 8)
      fields[e->fslot[i]] = dst[i];
  return vm_block_eval (&e->blk, (size_t) npts, in, inc, fields, e->work);
}

/* A (e->A, ny x ny) and r (e->r, ny) at point k of the batch p from the evaluated fields; with
 * sizes also s (e->s), s_i = the sum of the moduli of r_i's terms (the scale of its rounding, for
 * the DtP test) */
static void
ode_system (vm_dual_ode *e, const vm_dual_points *p, int64_t k, int sizes)
{
  const int64_t npts = p->npts;
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng, i, j, a;
  const double *uk = p->u + k * nl, *yk = p->y + k * ny, *yb = p->ybar + k * ny;
  double *A = e->A, *r = e->r, *s = sizes ? e->s : NULL;
  for (i = 0; i < ny; i++)
    {
      double acc = e->c[i] * (yk[i] - yb[i]) - (i < nd ? uk[i] : 0.0);
      double sz = fabs (e->c[i]) * (fabs (yk[i]) + fabs (yb[i])) + (i < nd ? fabs (uk[i]) : 0.0);
      for (a = 0; a < nd; a++)   /* - F_y' D_d */
        {
          double term = e->fFy[k + npts * (a + nd * i)] * uk[nd + a];
          acc -= term;
          sz += fabs (term);
        }
      for (a = 0; a < ng; a++)   /* + G_y' D_a */
        {
          double term = e->fGy[k + npts * (a + ng * i)] * uk[2 * nd + a];
          acc += term;
          sz += fabs (term);
        }
      r[i] = acc;
      if (s)
        s[i] = sz;
      for (j = 0; j < ny; j++)
        A[i * ny + j] = (i == j ? e->c[i] : 0.0) - e->fWF[k + npts * (i + ny * j)]
                        + e->fWG[k + npts * (i + ny * j)];
    }
}

/* One Newton step of the DtP map at every point whose residual is above the tolerance (every
 * point when linear); p->y is updated in place, *done cleared and *first set to the first point
 * stepped.  VM_OK, or VM_EDTP with p->bad (a non-finite residual, a singular A).  Each residual
 * is tested against the size of its own terms, so that a state much smaller than the others is
 * solved to its own relative accuracy; a linear map takes one step and no test. */
static int
ode_newton_sweep (vm_dual_ode *e, vm_dual_points *p, int *done, int64_t *first)
{
  int ny = e->ny, i;
  int64_t k;
  for (k = 0; k < p->npts; k++)
    {
      double *A = e->A, *r = e->r, *s = e->s;
      int conv = 1;
      ode_system (e, p, k, ! e->linear);
      for (i = 0; i < ny; i++)
        {
          if (! isfinite (r[i]))
            {
              p->bad = k;
              return VM_EDTP;
            }
          if (! e->linear && ! (fabs (r[i]) <= e->tol * s[i]))
            conv = 0;
        }
      if (! e->linear && conv)
        continue;
      *done = 0;
      if (*first < 0)
        *first = k;
      if (dtp_factor (A, ny, e->piv, e->cr))
        {
          p->bad = k;
          return VM_EDTP;
        }
      dtp_solve (A, ny, e->piv, e->cr, r);
      for (i = 0; i < ny; i++)
        p->y[k * ny + i] -= r[i];
    }
  return VM_OK;
}

/* p->y = y^H, the DtP map, by Newton's method at all points (one step when linear); the fields
 * are left evaluated at y^H.  VM_OK, VM_EDTP with p->bad, or an evaluation error. */
static int
ode_dtp (vm_dual_ode *e, vm_dual_points *p)
{
  int it, st;
  for (it = 0;; it++)
    {
      int done = 1;
      int64_t first = -1;
      if ((st = ode_evaluate (e, p->npts, p->t, p->u, p->y)) != VM_OK)
        return st;
      if (e->linear && it == 1)
        break;
      if ((st = ode_newton_sweep (e, p, &done, &first)) != VM_OK)
        return st;
      e->dtp_iters++;
      if (done)
        break;
      if (it >= e->max_iter)
        {
          p->bad = first;
          return VM_EDTP;
        }
    }
  return VM_OK;
}

/* LL = L_H(y^H) at point k (returned) and its gradient (-y_d, -F, G) into p->grad + k nl */
static double
ode_point_value (const vm_dual_ode *e, const vm_dual_points *p, int64_t k)
{
  const int64_t npts = p->npts;
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng, i, a;
  const double *uk = p->u + k * nl, *yk = p->y + k * ny, *yb = p->ybar + k * ny;
  double L = 0.0;
  double *gk = p->grad + k * nl;
  for (i = 0; i < nd; i++)
    {
      double F = e->fF[k + npts * i];
      L -= uk[i] * yk[i] + uk[nd + i] * F;
      gk[i] = -yk[i];
      gk[nd + i] = -F;
    }
  for (a = 0; a < ng; a++)
    {
      double G = e->fG[k + npts * a];
      L += uk[2 * nd + a] * G;
      gk[2 * nd + a] = G;
    }
  for (i = 0; i < ny; i++)
    L += 0.5 * e->c[i] * (yk[i] - yb[i]) * (yk[i] - yb[i]);
  return L;
}

/* B = dr/du = [-E_d, -F_y', G_y'] (ny x nl, row-major) at point k of npts */
static void
ode_dr_du (const vm_dual_ode *e, int64_t npts, int64_t k, double *B)
{
  int ny = e->ny, nd = e->nd, ng = e->ng, nl = 2 * nd + ng, i, j, a;
  for (i = 0; i < ny; i++)
    {
      for (j = 0; j < nd; j++)
        B[i * nl + j] = i == j ? -1.0 : 0.0;
      for (a = 0; a < nd; a++)
        B[i * nl + nd + a] = -e->fFy[k + npts * (a + nd * i)];
      for (a = 0; a < ng; a++)
        B[i * nl + 2 * nd + a] = e->fGy[k + npts * (a + ng * i)];
    }
}

/* H (nl x nl, at p->hess + k nl nl) = -B' A^{-1} B at point k, exactly symmetric; 1 when A is
 * singular, else 0 */
static int
ode_point_hess (vm_dual_ode *e, const vm_dual_points *p, int64_t k)
{
  int ny = e->ny, nl = 2 * e->nd + e->ng, i, j;
  double *A = e->A, *B = e->B, *r = e->r, *H = p->hess + k * nl * nl;
  ode_system (e, p, k, 0);
  if (dtp_factor (A, ny, e->piv, e->cr))
    return 1;
  ode_dr_du (e, p->npts, k, B);
  /* H = -B' A^{-1} B, column by column of B */
  for (j = 0; j < nl; j++)
    {
      double *x = r;   /* ny scratch */
      int q;
      for (i = 0; i < ny; i++)
        x[i] = B[i * nl + j];
      dtp_solve (A, ny, e->piv, e->cr, x);
      for (q = 0; q < nl; q++)
        {
          double acc = 0.0;
          for (i = 0; i < ny; i++)
            acc += B[i * nl + q] * x[i];
          H[q * nl + j] = -acc;
        }
    }
  for (i = 0; i < nl; i++)   /* exact symmetry */
    for (j = 0; j < i; j++)
      {
        double s = 0.5 * (H[i * nl + j] + H[j * nl + i]);
        H[i * nl + j] = H[j * nl + i] = s;
      }
  return 0;
}

int
vm_dual_ode_node (void *ctx, vm_dual_points *p)
{
  vm_dual_ode *e = ctx;
  int st;
  int64_t k;
  if ((st = ode_reserve (e, p->npts)) != VM_OK)
    return st;
  if ((st = ode_dtp (e, p)) != VM_OK)
    return st;
  /* values at y^H */
  for (k = 0; k < p->npts; k++)
    {
      double L = ode_point_value (e, p, k);
      p->val[k] = L;
      if (! isfinite (L))
        {
          p->bad = k;
          return VM_EDTP;
        }
      if (p->hess && ode_point_hess (e, p, k))
        {
          p->bad = k;
          return VM_EDTP;
        }
    }
  return VM_OK;
}

int
vm_dual_ode_rhs (void *ctx, int64_t npts, const double *t, const double *y, double *F)
{
  vm_dual_ode *e = ctx;
  int nd, nl, i, st;
  int64_t k;
  double *u;
  if (! e || ! t || ! y || ! F || npts < 0)
    return VM_EARG;
  if (npts == 0)
    return VM_OK;
  nd = e->nd;
  nl = 2 * nd + e->ng;
  if ((st = ode_reserve (e, npts)) != VM_OK)
    return st;
  u = calloc ((size_t) npts * nl, sizeof *u);   /* the weights of the second derivatives: 0 */
  if (! u)
    return VM_ENOMEM;
  st = ode_evaluate (e, npts, t, u, y);
  free (u);
  if (st != VM_OK)
    return st;
  for (k = 0; k < npts; k++)
    for (i = 0; i < nd; i++)
      F[k * nd + i] = e->fF[k + npts * i];
  return VM_OK;
}

int
vm_dual_ode_jac (void *ctx, double t, const double *y, double *F, double *Fy)
{
  vm_dual_ode *e = ctx;
  int nd, ny, i, st;
  double *u;
  if (! e || ! y || ! F)
    return VM_EARG;
  nd = e->nd;
  ny = e->ny;
  if ((st = ode_reserve (e, 1)) != VM_OK)
    return st;
  u = calloc ((size_t) (2 * nd + e->ng), sizeof *u);
  if (! u)
    return VM_ENOMEM;
  st = ode_evaluate (e, 1, &t, u, y);
  free (u);
  if (st != VM_OK)
    return st;
  memcpy (F, e->fF, (size_t) nd * sizeof *F);
  if (Fy)
    for (i = 0; i < nd * ny; i++)
      Fy[i] = e->fFy[i];
  return VM_OK;
}

int
vm_dual_ode_algebraic (void *ctx, double t, double *y)
{
  vm_dual_ode *e = ctx;
  int nd, na, i, j, it, st = VM_ENEWTON_MAXIT, *piv;
  double *u, *J, *dya, *y1;
  if (! e || ! y)
    return VM_EARG;
  nd = e->nd;
  na = e->ny - nd;
  if (na == 0)
    return VM_OK;
  if (e->ng != na)
    return VM_EARG;
  if ((st = ode_reserve (e, 1)) != VM_OK)
    return st;
  u = calloc ((size_t) (2 * nd + e->ng), sizeof *u);   /* no second derivatives needed */
  J = malloc ((size_t) na * na * sizeof *J);
  dya = malloc ((size_t) na * sizeof *dya);
  y1 = malloc ((size_t) e->ny * sizeof *y1);
  piv = malloc ((size_t) na * sizeof *piv);
  st = (u && J && dya && y1 && piv) ? VM_ENEWTON_MAXIT : VM_ENOMEM;
  if (st != VM_ENOMEM)
    memcpy (y1, y, (size_t) e->ny * sizeof *y1);
  for (it = 0; it < VM_DUAL_ALG_MAXIT && st == VM_ENEWTON_MAXIT; it++)
    {
      double step = 0.0, size = 0.0;
      int ev = ode_evaluate (e, 1, &t, u, y1);
      if (ev != VM_OK)
        {
          st = ev;
          break;
        }
      for (i = 0; i < na; i++)   /* J(i, j) = dG_i / dya_j (fGy: point, then equation, then state) */
        {
          dya[i] = -e->fG[i];
          for (j = 0; j < na; j++)
            J[i * na + j] = e->fGy[i + na * (nd + j)];
        }
      if (vm_dense_lu (na, J, piv, 0.0) != 0)
        {
          st = VM_ESINGULAR;
          break;
        }
      vm_dense_lu_solve (na, J, piv, dya);
      for (i = 0; i < na; i++)
        {
          y1[nd + i] += dya[i];
          step = fmax (step, fabs (dya[i]));
          size = fmax (size, fabs (y1[nd + i]));
        }
      if (! isfinite (step))
        st = VM_ENONFINITE;
      else if (step <= VM_DUAL_ALG_TOL * (1.0 + size))
        st = VM_OK;
    }
  if (st == VM_OK)
    memcpy (y, y1, (size_t) e->ny * sizeof *y);
  free (u);
  free (J);
  free (dya);
  free (y1);
  free (piv);
  return st;
}
