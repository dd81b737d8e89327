/* dual_periodic.c -- the discrete dual action on a circle (see dual_periodic.h). */
#include "dual/dual_periodic.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sbp/sbp.h"
#include "base/vm_csc.h"
#include "base/vm_status.h"

int64_t
vm_dual_periodic_min_n (int order)
{
  vm_sbp op;
  if (vm_sbp_init (&op, order, vm_sbp_min_n (order) > 0 ? vm_sbp_min_n (order) : 2, 0.0, 1.0)
      != VM_OK)
    return -1;
  return 4 * (int64_t) op.w + 3;
}

int64_t
vm_dual_periodic_index (const vm_dual_periodic *d, int64_t k, int i)
{
  int j, before = 0;
  if (k > 0)
    return k * d->m + i - d->ngauge;
  if (d->gauge[i])
    return -1;
  for (j = 0; j < i; j++)
    before += d->gauge[j] != 0;
  return i - before;
}

/* the first global index of the scalars: nu, then the integral conditions' mu_a */
static int64_t
scalar_base (const vm_dual_periodic *d)
{
  return d->N * d->m - d->ngauge;
}

/* node of the expanded variable q (0..2w) of node k */
static int64_t
wrap (int64_t k, int64_t N)
{
  return ((k % N) + N) % N;
}

/* global index of expanded variable a of node k (-1: the gauge-fixed dual) */
static int64_t
expanded_global (const vm_dual_periodic *d, int64_t k, int a)
{
  int nn = (2 * d->w + 1) * d->m;
  if (a >= nn)
    return scalar_base (d) + (a - nn);
  return vm_dual_periodic_index (d, wrap (k + a / d->m - d->w, d->N), a % d->m);
}

/* the pattern: the column of a dual at node l holds the duals of the nodes within 2w of l on the
 * circle (ascending) and nu; nu's column holds every unknown */
static int
build_pattern (vm_dual_periodic *d)
{
  int64_t N = d->N, nz = d->nz, l, j, q, p = 0, sb = scalar_base (d);
  int m = d->m, span = 4 * d->w + 1, i, jc, ns_ = 1 + d->ng;
  int64_t *nodes = malloc ((size_t) span * sizeof *nodes);
  d->colptr = malloc ((size_t) (nz + 1) * sizeof *d->colptr);
  d->nnz = sb * ((int64_t) span * m + ns_) + ns_ * nz;   /* an upper bound (the gauge slots) */
  d->rowind = malloc ((size_t) d->nnz * sizeof *d->rowind);
  if (! nodes || ! d->colptr || ! d->rowind)
    {
      free (nodes);
      return VM_ENOMEM;
    }
  d->colptr[0] = 0;
  for (l = 0; l < N; l++)
    {
      int ns = 0;
      for (q = l - 2 * d->w; q <= l + 2 * d->w; q++)
        nodes[ns++] = wrap (q, N);
      /* ascending: the window is contiguous up to one wrap; rotate it to start at its minimum */
      {
        int start = 0, a;
        int64_t tmp[64];
        for (a = 1; a < ns; a++)
          if (nodes[a] < nodes[start])
            start = a;
        for (a = 0; a < ns; a++)
          tmp[a] = nodes[(start + a) % ns];
        memcpy (nodes, tmp, (size_t) ns * sizeof *nodes);
      }
      for (jc = 0; jc < m; jc++)
        {
          if (vm_dual_periodic_index (d, l, jc) < 0)
            continue;
          for (q = 0; q < ns; q++)
            for (i = 0; i < m; i++)
              if ((j = vm_dual_periodic_index (d, nodes[q], i)) >= 0)
                d->rowind[p++] = j;
          for (j = sb; j < nz; j++)
            d->rowind[p++] = j;
          d->colptr[vm_dual_periodic_index (d, l, jc) + 1] = p;
        }
    }
  for (q = sb; q < nz; q++)
    {
      for (j = 0; j < nz; j++)
        d->rowind[p++] = j;
      d->colptr[q + 1] = p;
    }
  d->nnz = p;
  free (nodes);
  return VM_OK;
}

static int64_t
slot_of (const vm_dual_periodic *d, int64_t row, int64_t col)
{
  return vm_csc_find (d->rowind, d->colptr[col], d->colptr[col + 1], row);
}

/* ys_i, the scale of component i of the initial base state: its peak-to-peak amplitude over
 * the nodes; its modulus for a gauge component (the period P: a base state interpolated from
 * the grid before carries rounding noise of 1e-16 P there, not an amplitude) and for a component
 * whose amplitude is below 1e-8 of its modulus; 1 for a component that is 0 (an unfolding
 * parameter).  0 when ybar is not finite. */
static int
state_scales (vm_dual_periodic *d, const double *ybar)
{
  int64_t k;
  int i;
  for (i = 0; i < d->m; i++)
    {
      double lo = HUGE_VAL, hi = -HUGE_VAL, mx = 0.0;
      for (k = 0; k < d->N; k++)
        {
          double v = ybar[k * d->m + i];
          if (! isfinite (v))
            return 0;
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
          mx = fabs (v) > mx ? fabs (v) : mx;
        }
      if (! d->gauge[i] && hi - lo > 1e-8 * mx)
        d->ys[i] = hi - lo;
      else
        d->ys[i] = mx > 0.0 ? mx : 1.0;
    }
  return 1;
}

int
vm_dual_periodic_set_base (vm_dual_periodic *d, const double *ybar)
{
  int64_t N = d->N, k, q;
  int m = d->m, i, dd;
  double nrm = 0.0;
  if (! ybar)
    return VM_EARG;
  for (q = 0; q < N * m; q++)
    if (! isfinite (ybar[q]))
      return VM_EARG;
  memcpy (d->ybar, ybar, (size_t) (N * m) * sizeof *ybar);
  /* w = (d ybar/ds) / ys, normalized in L2, divided by ys once more: phi(y) = int w . y is the
   * phase condition in the scaled states y / ys (the same in any units of the states) */
  for (k = 0; k < N; k++)
    for (i = 0; i < m; i++)
      {
        double acc = 0.0;
        if (! d->gauge[i])
          for (dd = 1; dd <= d->w; dd++)
            acc += d->cst[dd - 1] * (ybar[wrap (k + dd, N) * m + i] - ybar[wrap (k - dd, N) * m + i]);
        d->wph[k * m + i] = acc / (d->h * d->ys[i]);
        nrm += d->h * d->wph[k * m + i] * d->wph[k * m + i];
      }
  if (! (nrm > 0.0) || ! isfinite (nrm))
    return VM_EARG;
  nrm = sqrt (nrm);
  for (q = 0; q < N * m; q++)
    d->wph[q] /= nrm * d->ys[q % m];
  d->have_y = 0;
  return VM_OK;
}

int
vm_dual_periodic_set_scales (vm_dual_periodic *d, const double *ys)
{
  int i;
  double *yb;
  if (! d || ! ys)
    return VM_EARG;
  for (i = 0; i < d->m; i++)
    if (! (ys[i] > 0.0) || ! isfinite (ys[i]))
      return VM_EARG;
  yb = malloc ((size_t) (d->N * d->m) * sizeof *yb);
  if (! yb)
    return VM_ENOMEM;
  memcpy (d->ys, ys, (size_t) d->m * sizeof *ys);
  memcpy (yb, d->ybar, (size_t) (d->N * d->m) * sizeof *yb);
  i = vm_dual_periodic_set_base (d, yb);   /* the phase weights in the new scales */
  free (yb);
  return i;
}

int
vm_dual_periodic_rebase (vm_dual_periodic *d, double *change)
{
  int64_t q;
  double mx = 0.0, *y;
  int st;
  if (! d->have_y)
    return VM_EARG;
  for (q = 0; q < d->N * d->m; q++)
    if (fabs (d->y[q] - d->ybar[q]) > mx)
      mx = fabs (d->y[q] - d->ybar[q]);
  y = malloc ((size_t) (d->N * d->m) * sizeof *y);
  if (! y)
    return VM_ENOMEM;
  memcpy (y, d->y, (size_t) (d->N * d->m) * sizeof *y);
  st = vm_dual_periodic_set_base (d, y);
  free (y);
  if (change)
    *change = mx;
  return st;
}

int
vm_dual_periodic_init (vm_dual_periodic *d, const vm_dual_problem *p, const double *ybar,
                       const int *gauge)
{
  vm_sbp op;
  int64_t nmin, k, N;
  int i, st, m, ng, order;
  const double *c;
  if (! d)
    return VM_EARG;
  memset (d, 0, sizeof *d);
  if (! p)
    return VM_EARG;
  m = p->nd;
  ng = p->ng;
  N = p->N;
  order = p->order;
  c = p->c;
  nmin = vm_dual_periodic_min_n (order);
  if (nmin < 0)
    return VM_EORDER;
  if (p->ny != m || m < 1 || m > VM_DUAL_PERIODIC_MAXM || ng < 0 || N < nmin || N % 2 == 0 || ! c
      || ! ybar || ! p->fn || ! gauge)
    return VM_EARG;
  for (i = 0; i < m; i++)
    {
      d->gauge[i] = gauge[i] != 0;
      d->ngauge += d->gauge[i];
    }
  if (d->ngauge == m)
    return VM_EARG;   /* no phase reference */
  for (i = 0; i < m; i++)
    if (! (c[i] > 0.0) || ! isfinite (c[i]))
      return VM_EARG;
  vm_sbp_init (&op, order, vm_sbp_min_n (order), 0.0, 1.0);
  d->m = m;
  d->ng = ng;
  d->nl = 2 * m + ng;
  d->w = op.w;
  d->cst = op.c;
  d->ne = (2 * d->w + 1) * m + 1 + ng;
  d->N = N;
  d->nz = N * m - d->ngauge + 1 + ng;
  d->order = order;
  d->h = 2.0 * 3.14159265358979323846 / (double) N;
  d->fn = p->fn;
  d->ctx = p->ctx;
  st = VM_ENOMEM;
  d->s = malloc ((size_t) N * sizeof *d->s);
  d->ybar = malloc ((size_t) (N * m) * sizeof *d->ybar);
  d->wph = malloc ((size_t) (N * m) * sizeof *d->wph);
  d->c = malloc ((size_t) m * sizeof *d->c);
  d->ys = malloc ((size_t) m * sizeof *d->ys);
  d->y = malloc ((size_t) (N * m) * sizeof *d->y);
  d->u = malloc ((size_t) (N * d->nl) * sizeof *d->u);
  d->val = malloc ((size_t) N * sizeof *d->val);
  d->grad = malloc ((size_t) (N * d->nl) * sizeof *d->grad);
  d->hess = malloc ((size_t) (N * d->nl * d->nl) * sizeof *d->hess);
  d->Dfull = malloc ((size_t) (N * m) * sizeof *d->Dfull);
  if (! d->s || ! d->ybar || ! d->wph || ! d->c || ! d->ys || ! d->y || ! d->u || ! d->val
      || ! d->grad || ! d->hess || ! d->Dfull)
    goto fail;
  memcpy (d->c, c, (size_t) m * sizeof *c);
  st = VM_EARG;
  if (! state_scales (d, ybar))
    goto fail;
  for (k = 0; k < N; k++)
    d->s[k] = (double) k * d->h;
  if ((st = vm_dual_periodic_set_base (d, ybar)) != VM_OK)
    goto fail;
  if ((st = build_pattern (d)) != VM_OK)
    goto fail;
  return VM_OK;
fail:
  vm_dual_periodic_free (d);
  return st;
}

void
vm_dual_periodic_free (vm_dual_periodic *d)
{
  if (! d)
    return;
  free (d->s);
  free (d->ybar);
  free (d->wph);
  free (d->c);
  free (d->ys);
  free (d->y);
  free (d->u);
  free (d->val);
  free (d->grad);
  free (d->hess);
  free (d->Dfull);
  free (d->colptr);
  free (d->rowind);
  vm_newton_symbolic_free (&d->sym);
  memset (d, 0, sizeof *d);
}

/* u_k = ((Dm D)_k - nu w_k, D_k) for every node */
static void
local_variables (vm_dual_periodic *d, const double *z)
{
  int64_t N = d->N, k;
  int m = d->m, i, dd;
  for (k = 0; k < N; k++)
    for (i = 0; i < m; i++)
      {
        int64_t g = vm_dual_periodic_index (d, k, i);
        d->Dfull[k * m + i] = g < 0 ? 0.0 : z[g];
      }
  d->nu = z[scalar_base (d)];
  for (k = 0; k < N; k++)
    {
      double *u = d->u + k * d->nl;
      for (i = 0; i < d->ng; i++)
        u[2 * m + i] = z[scalar_base (d) + 1 + i];
      for (i = 0; i < m; i++)
        {
          double acc = 0.0;
          for (dd = 1; dd <= d->w; dd++)
            acc += d->cst[dd - 1] * (d->Dfull[wrap (k + dd, N) * m + i]
                                     - d->Dfull[wrap (k - dd, N) * m + i]);
          u[i] = acc / d->h - d->nu * d->wph[k * m + i];
          u[m + i] = d->Dfull[k * m + i];
        }
    }
}

/* M_k' x for x in R^nl (the local gradient/row to the expanded variables, ne values) */
static void
expand_row (const vm_dual_periodic *d, int64_t k, const double *x, double *out)
{
  int m = d->m, w = d->w, i, dd;
  memset (out, 0, (size_t) d->ne * sizeof *out);
  for (i = 0; i < m; i++)
    {
      for (dd = 1; dd <= w; dd++)
        {
          out[(w + dd) * m + i] += d->cst[dd - 1] / d->h * x[i];
          out[(w - dd) * m + i] -= d->cst[dd - 1] / d->h * x[i];
        }
      out[(2 * w + 1) * m] -= d->wph[k * m + i] * x[i];
      out[w * m + i] += x[m + i];
    }
  for (i = 0; i < d->ng; i++)
    out[(2 * w + 1) * m + 1 + i] += x[2 * m + i];
}

static int
assemble_hessian (vm_dual_periodic *d, double *hval)
{
  int nl = d->nl, ne = d->ne, a, b;
  int64_t k;
  double *KM = malloc ((size_t) (nl * ne + ne * ne + ne + nl) * sizeof *KM);
  double *T, *col, *x;
  if (! KM)
    return VM_ENOMEM;
  T = KM + nl * ne;
  col = T + ne * ne;
  x = col + ne;
  memset (hval, 0, (size_t) d->nnz * sizeof *hval);
  for (k = 0; k < d->N; k++)
    {
      const double *K = d->hess + k * nl * nl;
      /* KM = K M (nl x ne): row a of KM is M' K(a, :)' since K is symmetric */
      for (a = 0; a < nl; a++)
        expand_row (d, k, K + a * nl, KM + a * ne);
      /* T = M' KM, column by column */
      for (b = 0; b < ne; b++)
        {
          for (a = 0; a < nl; a++)
            x[a] = KM[a * ne + b];
          expand_row (d, k, x, col);
          for (a = 0; a < ne; a++)
            T[a * ne + b] = col[a];
        }
      for (b = 0; b < ne; b++)
        {
          int64_t gb = expanded_global (d, k, b);
          if (gb < 0)
            continue;
          for (a = 0; a < ne; a++)
            {
              int64_t ga = expanded_global (d, k, a), sl;
              if (ga < 0 || T[a * ne + b] == 0.0)
                continue;
              sl = slot_of (d, ga, gb);
              if (sl < 0)
                {
                  free (KM);
                  return VM_EARG;   /* cannot happen: the pattern holds every coupling */
                }
              hval[sl] += d->h * T[a * ne + b];
            }
        }
    }
  free (KM);
  return VM_OK;
}

int
vm_dual_periodic_eval (vm_dual_periodic *d, const double *z, double *S, double *grad,
                       double *hval)
{
  int64_t N = d->N, k;
  int nl = d->nl, ne = d->ne, a, st;
  if (! z)
    return VM_EARG;
  local_variables (d, z);
  /* the DtP map's Newton always starts from the base state: its root is then the one connected
   * to ybar (z = 0), whatever point was evaluated before (a warm start from a rejected trial of
   * the line search can land on another root) */
  memcpy (d->y, d->ybar, (size_t) (N * d->m) * sizeof *d->y);
  d->bad = -1;
  {
    vm_dual_points pts = { N, d->s, d->u, d->ybar, d->y, d->val, d->grad, hval ? d->hess : NULL,
                           -1 };
    st = d->fn (d->ctx, &pts);
    d->bad = pts.bad;
  }
  if (st != VM_OK)
    {
      d->have_y = 0;
      return st;
    }
  d->have_y = 1;
  if (S)
    {
      double acc = 0.0;
      for (k = 0; k < N; k++)
        acc += d->h * d->val[k];
      *S = acc;
    }
  if (grad)
    {
      double *e = malloc ((size_t) ne * sizeof *e);
      if (! e)
        return VM_ENOMEM;
      memset (grad, 0, (size_t) d->nz * sizeof *grad);
      for (k = 0; k < N; k++)
        {
          expand_row (d, k, d->grad + k * nl, e);
          for (a = 0; a < ne; a++)
            {
              int64_t g = expanded_global (d, k, a);
              if (g >= 0)
                grad[g] += d->h * e[a];
            }
        }
      free (e);
    }
  if (hval)
    return assemble_hessian (d, hval);
  return VM_OK;
}

void
vm_dual_periodic_primal (const vm_dual_periodic *d, double *res, double *phase, double *integral)
{
  int64_t N = d->N, k;
  int m = d->m, nl = d->nl, i, dd;
  double ph = 0.0;
  if (integral)
    for (i = 0; i < d->ng; i++)
      {
        double acc = 0.0;
        for (k = 0; k < N; k++)
          acc += d->grad[k * nl + 2 * m + i];
        integral[i] = acc / (double) N;   /* h sum / (2 pi) */
      }
  for (k = 0; k < N; k++)
    for (i = 0; i < m; i++)
      {
        double acc = 0.0;
        for (dd = 1; dd <= d->w; dd++)
          acc += d->cst[dd - 1] * (d->y[wrap (k + dd, N) * m + i] - d->y[wrap (k - dd, N) * m + i]);
        if (res)
          res[k * m + i] = acc / d->h + d->grad[k * nl + m + i];   /* grad = -G */
        ph += d->h * d->wph[k * m + i] * d->y[k * m + i];
      }
  if (phase)
    *phase = ph;
}

/* ---- Newton ------------------------------------------------------------------------------------ */

/* Newton runs on the scaled unknowns zt = z / zc and the weighted equations rw o grad S (both
 * from the state scales ys and the weights c, vm_dual_periodic_solve), so that its tests, line
 * search and Levenberg-Marquardt steps mean the same in any units of time and of the states */
typedef struct {
  vm_dual_periodic *d;
  double *rw, *zc, *z, *g;
} solve_ctx;

/* z = zc o zt */
static const double *
unscaled (solve_ctx *c, const double *zt)
{
  int64_t j;
  for (j = 0; j < c->d->nz; j++)
    c->z[j] = c->zc[j] * zt[j];
  return c->z;
}

static int
solve_F (const double *zt, double *F, void *vctx)
{
  solve_ctx *c = vctx;
  int64_t j;
  int st = vm_dual_periodic_eval (c->d, unscaled (c, zt), NULL, F, NULL);
  if (st == VM_EDTP)
    {
      /* no DtP root at this trial point: let the line search reject it */
      c->d->dtp_fail++;
      for (j = 0; j < c->d->nz; j++)
        F[j] = NAN;
      return 0;
    }
  if (st != VM_OK)
    return -1000 - st;
  for (j = 0; j < c->d->nz; j++)
    F[j] *= c->rw[j];
  return 0;
}

static int
solve_J (const double *zt, double *Jx, void *vctx)
{
  solve_ctx *c = vctx;
  vm_dual_periodic *d = c->d;
  int64_t p, j;
  int st = vm_dual_periodic_eval (d, unscaled (c, zt), NULL, c->g, Jx);
  if (st != VM_OK)
    return -1000 - st;
  for (j = 0; j < d->nz; j++)
    for (p = d->colptr[j]; p < d->colptr[j + 1]; p++)
      Jx[p] *= c->rw[d->rowind[p]] * c->zc[j];
  return 0;
}

/* The weights of the equations and the scales of the unknowns.  The collocation equation of
 * component i at a node, (Dm y)_i - G_i = dS/dD_i / h, is divided by ys_i: a relative residual
 * (the equations of a state in micrometres weigh as much as those of one in metres).  The phase
 * condition is already dimensionless (set_base); the integral conditions' means get 1 / (2 pi).
 * The dual of component i has the size c_i ys_i (per unit of relative deviation of y^H from
 * ybar: c_i (y - ybar) = Ddot + ...), nu and the mu_a that of c_i ys_i^2 (the Lagrangian's),
 * averaged over the components that are not gauges. */
static void
solve_scales (const vm_dual_periodic *d, double *rw, double *zc)
{
  int64_t k, j, sb = scalar_base (d);
  int i, nf = 0;
  double znu = 0.0;
  for (i = 0; i < d->m; i++)
    if (! d->gauge[i])
      {
        znu += d->c[i] * d->ys[i] * d->ys[i];
        nf++;
      }
  znu /= nf;
  for (k = 0; k < d->N; k++)
    for (i = 0; i < d->m; i++)
      if ((j = vm_dual_periodic_index (d, k, i)) >= 0)
        {
          rw[j] = 1.0 / (d->h * d->ys[i]);
          zc[j] = d->c[i] * d->ys[i];
        }
  for (j = sb; j < d->nz; j++)
    {
      rw[j] = j == sb ? 1.0 : 0.5 / 3.14159265358979323846;
      zc[j] = znu;
    }
}

/* the RMS of G(ybar) / ys and Dm ybar / ys: the size of the weighted equations' terms at the
 * base state */
static int
base_scale (vm_dual_periodic *d, double *r0, double *floor)
{
  int64_t N = d->N, k;
  int m = d->m, i, st;
  double *z = calloc ((size_t) d->nz, sizeof *z), sg = 0.0, sd = 0.0;
  if (! z)
    return VM_ENOMEM;
  d->have_y = 0;
  st = vm_dual_periodic_eval (d, z, NULL, NULL, NULL);
  free (z);
  if (st != VM_OK)
    return st;
  for (k = 0; k < N; k++)
    for (i = 0; i < m; i++)
      {
        double g = d->grad[k * d->nl + m + i], dy = 0.0;
        int dd;
        for (dd = 1; dd <= d->w; dd++)
          dy += d->cst[dd - 1] * (d->ybar[wrap (k + dd, N) * m + i]
                                  - d->ybar[wrap (k - dd, N) * m + i]);
        dy /= d->h * d->ys[i];
        g /= d->ys[i];
        sg += g * g;
        sd += dy * dy;
      }
  sg = sqrt (sg / (double) (N * m));
  sd = sqrt (sd / (double) (N * m));
  *r0 = sg > sd ? sg : sd;
  /* the rounding level of the equations: Dm has entries up to c_d / h and the DtP map returns
   * y^H to about eps |y| */
  {
    double ymax = 0.0, csum = 0.0;
    int dd;
    for (k = 0; k < N * m; k++)
      if (fabs (d->ybar[k]) / d->ys[k % m] > ymax)
        ymax = fabs (d->ybar[k]) / d->ys[k % m];
    for (dd = 0; dd < d->w; dd++)
      csum += fabs (d->cst[dd]);
    *floor = VM_DUAL_PERIODIC_FLOOR * DBL_EPSILON * (2.0 * csum * ymax / d->h + *r0);
  }
  return VM_OK;
}

int
vm_dual_periodic_solve (vm_dual_periodic *d, double *z, double tol, int max_iter,
                        vm_newton_info *info)
{
  solve_ctx c;
  vm_newton_opts o;
  int64_t j;
  int st;
  double r0 = 0.0, fl = 0.0;
  if ((st = base_scale (d, &r0, &fl)) != VM_OK)
    return st;
  if (tol > 0.0 && fl / tol > r0)
    r0 = fl / tol;
  c.d = d;
  c.rw = malloc ((size_t) (4 * d->nz) * sizeof *c.rw);
  if (! c.rw)
    return VM_ENOMEM;
  c.zc = c.rw + d->nz;
  c.z = c.zc + d->nz;
  c.g = c.z + d->nz;
  solve_scales (d, c.rw, c.zc);
  d->dtp_fail = 0;
  d->have_y = 0;
  if (vm_dual_periodic_eval (d, z, NULL, NULL, NULL) == VM_EDTP)
    {
      free (c.rw);
      return VM_EDTP;
    }
  for (j = 0; j < d->nz; j++)
    z[j] /= c.zc[j];
  vm_newton_opts_init (&o);
  o.tol_res = tol;
  o.res_scale = sqrt ((double) d->nz) * (r0 > 1.0 ? r0 : 1.0);
  o.tol_round = 10.0;
  o.max_iter = max_iter;
  o.linsolve = VM_LINSOLVE_UMFPACK;
  o.symbolic = &d->sym;
  o.on_iter = d->on_iter;
  o.on_iter_ctx = d->on_iter_ctx;
  st = vm_newton_solve ((int) d->nz, d->colptr, d->rowind, solve_F, solve_J, &c, z, &o, info);
  if (st <= -1000)
    st = -st - 1000;
  for (j = 0; j < d->nz; j++)
    z[j] *= c.zc[j];
  /* leave the struct's state at the returned iterate */
  if (vm_dual_periodic_eval (d, z, NULL, c.g, NULL) != VM_OK && st == VM_OK)
    st = VM_EDTP;
  free (c.rw);
  return st;
}

int
vm_dual_periodic_search (vm_dual_periodic *d, double *z, const vm_dual_periodic_opts *o,
                         vm_dual_periodic_trace *tr, vm_newton_info *info)
{
  int st = VM_EARG, left = o->max_iter, pol = 0, conv = 0;
  int *iterations = &tr->iterations, *passes = &tr->passes, *nhist = &tr->nhist,
      *nchange = &tr->nchange;
  double *hist = tr->hist, *change = tr->change;
  double prev = HUGE_VAL, ch;
  *iterations = *passes = *nhist = *nchange = 0;
  if (o->inner < 1 || o->max_iter < 0 || o->polish < 0)
    return VM_EARG;
  for (;;)
    {
      int budget = conv ? left : (o->inner < left ? o->inner : left);
      memset (z, 0, (size_t) d->nz * sizeof *z);
      vm_newton_info_free (info);
      vm_newton_info_init (info);
      st = vm_dual_periodic_solve (d, z, o->tol, budget, info);
      (*passes)++;
      *iterations += info->iterations;
      left -= info->iterations;
      if (hist && info->nhist > 0)
        hist[(*nhist)++] = info->res_hist[0];
      if (st == VM_OK)
        conv = 1;
      else if (st == VM_EDTP || st == VM_ENOMEM || st == VM_EARG || left <= 0)
        break;
      else if (! (info->final_res < prev)
               || (hist && *nhist > VM_DUAL_PERIODIC_WINDOW
                   && ! (info->final_res <= 0.5 * hist[*nhist - 1 - VM_DUAL_PERIODIC_WINDOW])))
        {
          st = VM_ENEWTON_STALL;   /* a replacement did not lower the residual, or the last
                                      VM_DUAL_PERIODIC_WINDOW passes did not halve it */
          break;
        }
      if (conv && pol++ >= o->polish)
        break;
      prev = info->final_res;
      if (vm_dual_periodic_rebase (d, &ch) != VM_OK)
        {
          st = VM_EDTP;
          break;
        }
      if (change)
        change[(*nchange)++] = ch;
    }
  if (hist && info->nhist > 0)
    hist[(*nhist)++] = info->final_res;
  return st;
}
