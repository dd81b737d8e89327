/* dual_closed.c -- closed-form dual Lagrangians (Lorenz, generalized Pars, reduced Pars); see
 * dual_closed.h for the formulas. */
#include <math.h>
#include <stdlib.h>

#include "dual/dual_closed.h"
#include "base/vm_status.h"
#include "la/dense_lu.h"

#define TOL VM_DUAL_CLOSED_TOL

static int
ok_weight (double c)
{
  return isfinite (c) && c > 0.0;
}

/* hess[i nl + j] for j < i from the upper triangle (exact symmetry) */
static void
mirror (int nl, double *h)
{
  int i, j;
  for (i = 1; i < nl; i++)
    for (j = 0; j < i; j++)
      h[i * nl + j] = h[j * nl + i];
}

/* ---- 1. dual Lorenz -------------------------------------------------------------------------------- */

/* BB = AA^{-1}, AA = c I + [0 -g m; -g 0 0; m 0 0] the DtP matrix at the duals (m, g):
 * gc = g/c, mc = m/c, rel = det AA / c^3 (nonzero). */
static void
lorenz_bb (double c, double gc, double mc, double rel, double BB[3][3])
{
  const double s = 1.0 / (c * rel);
  BB[0][0] = s;
  BB[0][1] = BB[1][0] = s * gc;
  BB[0][2] = BB[2][0] = -s * mc;
  BB[1][1] = s * (1.0 - mc * mc);
  BB[1][2] = BB[2][1] = -s * gc * mc;
  BB[2][2] = s * (1.0 - gc * gc);
}

/* The node Hessian hk (6 x 6) = -J BB J', J = [I; F_y] (6 x 3) at the primal (x, y, z). */
static void
lorenz_hess (double A, double R, double B, double BB[3][3], double x, double yy, double z,
             double *hk)
{
  const double J[6][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 },
                           { -A, A, 0 }, { R - z, -1, -x }, { yy, x, -B } };
  double X[3][6];
  int i, j, r;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 6; j++)
      X[i][j] = BB[i][0] * J[j][0] + BB[i][1] * J[j][1] + BB[i][2] * J[j][2];
  for (i = 0; i < 6; i++)
    for (j = i; j < 6; j++)
      {
        double acc = 0.0;
        for (r = 0; r < 3; r++)
          acc += J[i][r] * X[r][j];
        hk[i * 6 + j] = -acc;
      }
  mirror (6, hk);
}

int
vm_dual_lorenz_node (void *ctx, vm_dual_points *pts)
{
  const struct vm_dual_lorenz *P = ctx;
  const double *t, *u, *ybar;
  double *y, *val, *grad, *hess;
  int64_t npts;
  double A, R, B, c;
  int64_t k;
  if (pts == NULL)
    return VM_EARG;
  npts = pts->npts;
  t = pts->t;
  u = pts->u;
  ybar = pts->ybar;
  y = pts->y;
  val = pts->val;
  grad = pts->grad;
  hess = pts->hess;
  (void) t;
  if (P == NULL || npts < 0 || (npts > 0 && (u == NULL || ybar == NULL || y == NULL)))
    return VM_EARG;
  A = P->A;
  R = P->R;
  B = P->B;
  c = P->c;
  if (!ok_weight (c) || !isfinite (A) || !isfinite (R) || !isfinite (B))
    return VM_EARG;
  for (k = 0; k < npts; k++)
    {
      const double *uk = u + 6 * k, *yb = ybar + 3 * k;
      double *yk = y + 3 * k;
      const double ld = uk[0], md = uk[1], gd = uk[2], l = uk[3], m = uk[4], g = uk[5];
      const double xb = yb[0], ybb = yb[1], zb = yb[2];
      const double gc = g / c, mc = m / c;
      const double rel = 1.0 - gc * gc - mc * mc;   /* det AA / c^3 */
      double p[3], q[3], BB[3][3], x, yy, z;
      int i;
      if (!(fabs (rel) > TOL))
        {
          pts->bad = k;
          return VM_EDTP;
        }
      lorenz_bb (c, gc, mc, rel, BB);
      p[0] = g * ybb - m * zb + ld - A * l + R * m;
      p[1] = g * xb + md - m + A * l;
      p[2] = -m * xb + gd - B * g;
      for (i = 0; i < 3; i++)
        q[i] = BB[i][0] * p[0] + BB[i][1] * p[1] + BB[i][2] * p[2];
      x = yk[0] = xb + q[0];
      yy = yk[1] = ybb + q[1];
      z = yk[2] = zb + q[2];
      if (val)
        val[k] = -0.5 * (p[0] * q[0] + p[1] * q[1] + p[2] * q[2])
                 - (xb * p[0] + ybb * p[1] + zb * p[2]) - m * xb * zb + g * xb * ybb;
      if (grad)
        {
          double *gk = grad + 6 * k;
          gk[0] = -x;
          gk[1] = -yy;
          gk[2] = -z;
          gk[3] = -A * (yy - x);
          gk[4] = -(x * (R - z) - yy);
          gk[5] = -(x * yy - B * z);
        }
      if (hess)
        lorenz_hess (A, R, B, BB, x, yy, z, hess + 36 * k);
    }
  return VM_OK;
}

/* ---- 2. generalized Pars --------------------------------------------------------------------------- */

/* Solve A z = f in place (f = z, ny = 3M + 1, layout (x, v, Q, s)) by eliminating x and Q:
 *   cv MM z_v = f_v - mu L f_x/cx - Lambda f_Q/cQ,  z_x = (f_x - mu L' z_v)/cx,
 *   z_Q = (f_Q - Lambda z_v)/cQ,  z_s = f_s/(cs - Lambda).
 * lu, piv: the factors of MM; w: M work. */
static void
pars_block_solve (const struct vm_dual_pars *P, double mu, double Lam, const double *lu,
                  const int *piv, double *f, double *w)
{
  const int M = P->M;
  const double *L = P->L;
  double *fx = f, *fv = f + M, *fQ = f + 2 * M;
  int i, j;
  for (i = 0; i < M; i++)
    {
      double s = 0.0;
      for (j = 0; j < M; j++)
        s += L[i * M + j] * fx[j];
      w[i] = (fv[i] - mu * s / P->cx - Lam * fQ[i] / P->cQ) / P->cv;
    }
  vm_dense_lu_solve (M, lu, piv, w);
  for (i = 0; i < M; i++)
    {
      double s = 0.0;
      for (j = 0; j < M; j++)
        s += L[j * M + i] * w[j];
      fx[i] = (fx[i] - mu * s) / P->cx;
      fv[i] = w[i];
      fQ[i] = (fQ[i] - Lam * w[i]) / P->cQ;
    }
  f[3 * M] /= P->cs - Lam;
}

/* work space of vm_dual_pars_node: one malloc per call, shared by all points */
typedef struct
{
  int M, ny, nl;
  double *MM, *Lx, *Ltv, *w, *X, *Bmu, *BLam;
  int *piv;
} pars_ws;

/* one point of vm_dual_pars_node: views into u_k, ybar_k and y_k = y^H */
typedef struct
{
  const double *rhod, *lamd, *rho, *lam, *xb, *vb, *Qb;
  double mu, Lam, sb, s;
  double *yk, *x, *v, *Q;
} pars_pt;

/* VM_EARG unless ctx, the arrays and the parameters are valid (the contract of dual_closed.h) */
static int
pars_check (const struct vm_dual_pars *P, int64_t npts, const double *u, const double *ybar,
            const double *y)
{
  if (P == NULL || npts < 0 || (npts > 0 && (u == NULL || ybar == NULL || y == NULL)))
    return VM_EARG;
  if (P->M < 1 || P->M > 1000000 || P->L == NULL || P->b == NULL || !ok_weight (P->cx)
      || !ok_weight (P->cv) || !ok_weight (P->cQ) || !ok_weight (P->cs))
    return VM_EARG;
  return VM_OK;
}

/* allocate the work space for M coordinates (VM_OK or VM_ENOMEM, nothing left allocated) */
static int
pars_ws_alloc (pars_ws *ws, int M)
{
  const int ny = 3 * M + 1, nl = 4 * M + 2;
  ws->M = M;
  ws->ny = ny;
  ws->nl = nl;
  /* MM (M M), Lx, Ltv, w (M each), X (nl ny, column j of dy/du at X + j ny), Bmu, BLam (ny each) */
  ws->MM = malloc (((size_t) M * M + 3 * (size_t) M + (size_t) nl * ny + 2 * (size_t) ny)
                   * sizeof *ws->MM);
  ws->piv = malloc ((size_t) M * sizeof *ws->piv);
  if (ws->MM == NULL || ws->piv == NULL)
    {
      free (ws->MM);
      free (ws->piv);
      return VM_ENOMEM;
    }
  ws->Lx = ws->MM + (size_t) M * M;
  ws->Ltv = ws->Lx + M;
  ws->w = ws->Ltv + M;
  ws->X = ws->w + M;
  ws->Bmu = ws->X + (size_t) nl * ny;
  ws->BLam = ws->Bmu + ny;
  return VM_OK;
}

/* the views of point k into u, ybar and y */
static void
pars_point (const pars_ws *ws, int64_t k, const double *u, const double *ybar, double *y,
            pars_pt *p)
{
  const int M = ws->M;
  const double *uk = u + (size_t) k * ws->nl, *yb = ybar + (size_t) k * ws->ny;
  p->rhod = uk;
  p->lamd = uk + M;
  p->rho = uk + 2 * M;
  p->lam = uk + 3 * M;
  p->mu = uk[4 * M];
  p->Lam = uk[4 * M + 1];
  p->xb = yb;
  p->vb = yb + M;
  p->Qb = yb + 2 * M;
  p->sb = yb[3 * M];
  p->yk = y + (size_t) k * ws->ny;
  p->x = p->yk;
  p->v = p->yk + M;
  p->Q = p->yk + 2 * M;
}

/* MM = (1 - Lambda^2/(cQ cv)) I - mu^2/(cx cv) L L' and its LU; nonzero if A is singular */
static int
pars_factor (const struct vm_dual_pars *P, pars_ws *ws, double mu, double Lam)
{
  const int M = ws->M;
  const double *L = P->L;
  const double cx = P->cx, cv = P->cv, cQ = P->cQ, cs = P->cs;
  double *MM = ws->MM, scale = 1.0;
  int i, j, jj;
  for (i = 0; i < M; i++)
    for (j = 0; j < M; j++)
      {
        double acc = 0.0;
        for (jj = 0; jj < M; jj++)
          acc += L[i * M + jj] * L[j * M + jj];
        MM[i * M + j] = (i == j ? 1.0 - Lam * Lam / (cQ * cv) : 0.0) - mu * mu * acc / (cx * cv);
        if (fabs (MM[i * M + j]) > scale)
          scale = fabs (MM[i * M + j]);
      }
  return !(fabs (cs - Lam) > TOL * cs) || vm_dense_lu (M, MM, ws->piv, TOL * scale);
}

/* y^H = (x, v, Q, s) by eq. 36 (MM factored), and ws->Ltv = L' v, ws->Lx = L x */
static void
pars_dtp (const struct vm_dual_pars *P, pars_ws *ws, pars_pt *p)
{
  const int M = ws->M;
  const double *L = P->L, *b = P->b;
  const double cx = P->cx, cv = P->cv, cQ = P->cQ, cs = P->cs;
  const double mu = p->mu, Lam = p->Lam;
  int i, j;
  /* eq. 36: v = MM^{-1} (vbar + (rho + lambdadot - mu b - mu L xbar - mu L rhodot/cx
   *                              - Lambda Qbar + Lambda lambda/cQ)/cv) */
  for (i = 0; i < M; i++)
    {
      double Lxb = 0.0, Lrd = 0.0;
      for (j = 0; j < M; j++)
        {
          Lxb += L[i * M + j] * p->xb[j];
          Lrd += L[i * M + j] * p->rhod[j];
        }
      p->v[i] = p->vb[i] + (p->rho[i] + p->lamd[i] - mu * b[i] - mu * Lxb - mu * Lrd / cx
                            - Lam * p->Qb[i] + Lam * p->lam[i] / cQ) / cv;
    }
  vm_dense_lu_solve (M, ws->MM, ws->piv, p->v);
  /* x_i = xbar_i + (rhodot_i - mu L_ki v_k)/cx,  Q = Qbar - (lambda + Lambda v)/cQ */
  for (i = 0; i < M; i++)
    {
      double acc = 0.0;
      for (j = 0; j < M; j++)
        acc += L[j * M + i] * p->v[j];
      ws->Ltv[i] = acc;
      p->x[i] = p->xb[i] + (p->rhod[i] - mu * acc) / cx;
      p->Q[i] = p->Qb[i] - (p->lam[i] + Lam * p->v[i]) / cQ;
    }
  /* = cs sbar/(cs - Lambda), exact at Lambda = 0 */
  p->s = p->yk[3 * M] = p->sb + Lam * p->sb / (cs - Lam);
  for (i = 0; i < M; i++)
    {
      double acc = 0.0;
      for (j = 0; j < M; j++)
        acc += L[i * M + j] * p->x[j];
      ws->Lx[i] = acc;
    }
}

/* grad (nl) = (-x, -v, -v, Q, (b + L x).v, Q.v - s^2/2) */
static void
pars_grad (const struct vm_dual_pars *P, const pars_ws *ws, const pars_pt *p, double *gk)
{
  const int M = ws->M;
  double g1 = 0.0, g2 = 0.0;
  int i;
  for (i = 0; i < M; i++)
    {
      gk[i] = -p->x[i];
      gk[M + i] = -p->v[i];
      gk[2 * M + i] = -p->v[i];
      gk[3 * M + i] = p->Q[i];
      g1 += (P->b[i] + ws->Lx[i]) * p->v[i];
      g2 += p->Q[i] * p->v[i];
    }
  gk[4 * M] = g1;
  gk[4 * M + 1] = g2 - 0.5 * p->s * p->s;
}

/* LL = L_H(y^H), eq. 34 */
static double
pars_val (const struct vm_dual_pars *P, const pars_ws *ws, const pars_pt *p)
{
  const double *b = P->b, *Lx = ws->Lx;
  const double cx = P->cx, cv = P->cv, cQ = P->cQ, cs = P->cs;
  const double mu = p->mu, Lam = p->Lam, s = p->s;
  const double *x = p->x, *v = p->v, *Q = p->Q;
  double LL, dx, dv, dQ, ds;
  int i;
  LL = -0.5 * Lam * s * s;
  ds = s - p->sb;
  LL += 0.5 * cs * ds * ds;
  for (i = 0; i < ws->M; i++)
    {
      dx = x[i] - p->xb[i];
      dv = v[i] - p->vb[i];
      dQ = Q[i] - p->Qb[i];
      LL += -x[i] * p->rhod[i] - v[i] * p->rho[i] - v[i] * p->lamd[i] + p->lam[i] * Q[i]
            + mu * v[i] * Lx[i] + mu * b[i] * v[i] + Lam * Q[i] * v[i]
            + 0.5 * (cx * dx * dx + cv * dv * dv + cQ * dQ * dQ);
    }
  return LL;
}

/* X = dy^H/du = -A^{-1} B column by column (ws->X), with the mu and Lambda columns of B in
 * ws->Bmu, ws->BLam.  B = dr/du: columns rhodot_i: -e_x_i; lambdadot_i, rho_i: -e_v_i;
 * lambda_i: +e_Q_i; mu: (L'v, b + L x, 0, 0); Lambda: (0, Q, v, -s). */
static void
pars_dydu (const struct vm_dual_pars *P, pars_ws *ws, const pars_pt *p)
{
  const int M = ws->M, ny = ws->ny;
  double *Bmu = ws->Bmu, *BLam = ws->BLam;
  int i, j;
  for (i = 0; i < M; i++)
    {
      Bmu[i] = ws->Ltv[i];
      Bmu[M + i] = P->b[i] + ws->Lx[i];
      Bmu[2 * M + i] = 0.0;
      BLam[i] = 0.0;
      BLam[M + i] = p->Q[i];
      BLam[2 * M + i] = p->v[i];
    }
  Bmu[3 * M] = 0.0;
  BLam[3 * M] = -p->s;
  for (j = 0; j < ws->nl; j++)
    {
      double *Xj = ws->X + (size_t) j * ny;
      for (i = 0; i < ny; i++)
        Xj[i] = 0.0;
      if (j < M)
        Xj[j] = 1.0;                    /* rhodot_j */
      else if (j < 3 * M)
        Xj[M + j % M] = 1.0;            /* lambdadot, rho */
      else if (j < 4 * M)
        Xj[2 * M + j - 3 * M] = -1.0;   /* lambda */
      else
        {
          const double *Bj = j == 4 * M ? Bmu : BLam;
          for (i = 0; i < ny; i++)
            Xj[i] = -Bj[i];
        }
      pars_block_solve (P, p->mu, p->Lam, ws->MM, ws->piv, Xj, ws->w);
    }
}

/* hess (nl x nl) = B' X, X = -A^{-1} B (pars_dydu) */
static void
pars_hess (const struct vm_dual_pars *P, pars_ws *ws, const pars_pt *p, double *hk)
{
  const int M = ws->M, ny = ws->ny, nl = ws->nl;
  int i, j;
  pars_dydu (P, ws, p);
  for (i = 0; i < nl; i++)
    for (j = i; j < nl; j++)
      {
        const double *Xj = ws->X + (size_t) j * ny;
        double h;
        if (i < M)
          h = -Xj[i];
        else if (i < 3 * M)
          h = -Xj[M + i % M];
        else if (i < 4 * M)
          h = Xj[2 * M + i - 3 * M];
        else
          {
            const double *Bi = i == 4 * M ? ws->Bmu : ws->BLam;
            int r;
            h = 0.0;
            for (r = 0; r < ny; r++)
              h += Bi[r] * Xj[r];
          }
        hk[i * nl + j] = h;
      }
  mirror (nl, hk);
}

int
vm_dual_pars_node (void *ctx, vm_dual_points *pts)
{
  const struct vm_dual_pars *P = ctx;
  const double *t, *u, *ybar;
  double *y, *val, *grad, *hess;
  int64_t npts;
  pars_ws ws;
  int64_t k;
  int st;
  if (pts == NULL)
    return VM_EARG;
  npts = pts->npts;
  t = pts->t;
  u = pts->u;
  ybar = pts->ybar;
  y = pts->y;
  val = pts->val;
  grad = pts->grad;
  hess = pts->hess;
  (void) t;
  st = pars_check (P, npts, u, ybar, y);
  if (st != VM_OK || npts == 0)
    return st;
  st = pars_ws_alloc (&ws, P->M);
  if (st != VM_OK)
    return st;
  for (k = 0; k < npts && st == VM_OK; k++)
    {
      pars_pt p;
      pars_point (&ws, k, u, ybar, y, &p);
      if (pars_factor (P, &ws, p.mu, p.Lam))
        {
          pts->bad = k;
          st = VM_EDTP;
          break;
        }
      pars_dtp (P, &ws, &p);
      if (grad)
        pars_grad (P, &ws, &p, grad + (size_t) k * ws.nl);
      if (val)
        val[k] = pars_val (P, &ws, &p);
      if (hess)
        pars_hess (P, &ws, &p, hess + (size_t) k * ws.nl * ws.nl);
    }
  free (ws.MM);
  free (ws.piv);
  return st;
}

/* ---- 3. reduced Pars ------------------------------------------------------------------------------- */

int
vm_dual_pars_reduced_node (void *ctx, vm_dual_points *pts)
{
  const struct vm_dual_pars_reduced *P = ctx;
  const double *t, *u, *ybar;
  double *y, *val, *grad, *hess;
  int64_t npts;
  double c;
  int64_t k;
  if (pts == NULL)
    return VM_EARG;
  npts = pts->npts;
  t = pts->t;
  u = pts->u;
  ybar = pts->ybar;
  y = pts->y;
  val = pts->val;
  grad = pts->grad;
  hess = pts->hess;
  if (P == NULL || npts < 0
      || (npts > 0 && (t == NULL || u == NULL || ybar == NULL || y == NULL)))
    return VM_EARG;
  c = P->c;
  if (!ok_weight (c) || !isfinite (P->v30) || !isfinite (P->x30))
    return VM_EARG;
  for (k = 0; k < npts; k++)
    {
      const double z = P->v30 * t[k] + P->x30, kk = P->v30 / (1.0 + z * z);
      const double *uk = u + 4 * k, *vb = ybar + 2 * k;
      double *v = y + 2 * k;
      /* W = [1 0 -k z k; 0 1 0 0] */
      const double W[2][4] = { { 1.0, 0.0, -kk * z, kk }, { 0.0, 1.0, 0.0, 0.0 } };
      const double w0 = uk[0] - kk * z * uk[2] + kk * uk[3], w1 = uk[1];
      int i, j;
      v[0] = vb[0] + w0 / c;
      v[1] = vb[1] + w1 / c;
      if (val)
        val[k] = -(vb[0] * w0 + vb[1] * w1) - 0.5 * (w0 * w0 + w1 * w1) / c;
      if (grad)
        for (i = 0; i < 4; i++)
          grad[4 * k + i] = -(W[0][i] * v[0] + W[1][i] * v[1]);
      if (hess)
        {
          double *hk = hess + 16 * k;
          for (i = 0; i < 4; i++)
            for (j = i; j < 4; j++)
              hk[i * 4 + j] = -(W[0][i] * W[0][j] + W[1][i] * W[1][j]) / c;
          mirror (4, hk);
        }
    }
  return VM_OK;
}
