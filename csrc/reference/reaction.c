/* reaction.c -- constrained accelerations at one point: the reaction laws of reaction.h (see also
 * doc/reactions.md).
 *
 * Notation: D = diag(M_ii^{-1/2}); Mh = D M D (unit diagonal) = Lh Lh^T (Cholesky), so that
 * M^{-1} = D Lh^{-T} Lh^{-1} D.  Z = Lh^{-1} D A^T (n x m) and Y = Lh^{-1} D B^T (n x k), with
 * column norms ea (m) and eb (k); Zn, Yn the normalized columns.  Then
 *   A M^{-1} A^T = diag(ea) Zn^T Zn diag(ea),   A M^{-1} B^T = diag(ea) Zn^T Yn diag(eb),
 *   B M^{-1} B^T = diag(eb) Yn^T Yn diag(eb),   A M^{-1} f = diag(ea) Zn^T g,  g = Lh^{-1} D f.
 * The matrices factored are the scaled ones Sh = Zn^T Zn, Gh = Zn^T Yn, Wh = Yn^T Yn: their
 * condition numbers do not depend on the units of the coordinates or the scale of the rows.
 * The dense kernels are in reaction_dense.c. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "reference/reaction.h"
#include "reference/reaction_dense.h"
#include "base/vm_status.h"

/* LAPACK for the square direction matrix (no small-size path: k == m is rare) */
typedef size_t vm_flen;
extern void dgetrf_ (const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void dgetrs_ (const char *trans, const int *n, const int *nrhs, const double *a,
                     const int *lda, const int *ipiv, double *b, const int *ldb, int *info,
                     vm_flen ltrans);
extern void dgecon_ (const char *norm, const int *n, const double *a, const int *lda,
                     const double *anorm, double *rcond, double *work, int *iwork, int *info,
                     vm_flen lnorm);
extern double dlange_ (const char *norm, const int *m, const int *n, const double *a,
                       const int *lda, double *work, vm_flen lnorm);
extern void dgemm_ (const char *transa, const char *transb, const int *m, const int *n,
                    const int *k, const double *alpha, const double *a, const int *lda,
                    const double *b, const int *ldb, const double *beta, double *c,
                    const int *ldc, vm_flen l1, vm_flen l2);

static const int ione = 1;
static const double one = 1.0, zero = 0.0;

/* ---- workspace layout --------------------------------------------------------------------------- */

typedef struct {
  size_t L, d, rcm, g, t, Z, Y, G, W, H, S, ea, eb, r, nu, mu, con, total;
  size_t ipiv, icon, itotal;
} layout;

static size_t
imax3 (int a, int b, int c)
{
  int x = a > b ? a : b;
  return (size_t) (x > c ? x : c);
}

static void
make_layout (int n, int m, int k, layout *l)
{
  size_t N = (size_t) n, Mm = (size_t) m, K = (size_t) k, p = imax3 (n, m, k), o = 0;
  l->L = o;   o += N * N;
  l->d = o;   o += N;
  l->rcm = o; o += 1;            /* rcond of the scaled M (kept for vm_reaction_ideal_fixed_mass) */
  l->g = o;   o += N;
  l->t = o;   o += N;
  l->Z = o;   o += N * Mm;
  l->Y = o;   o += N * K;
  l->G = o;   o += Mm * K;
  l->W = o;   o += K * K;
  l->H = o;   o += K * Mm;
  l->S = o;   o += Mm * Mm;
  l->ea = o;  o += Mm;
  l->eb = o;  o += K;
  l->r = o;   o += Mm;
  l->nu = o;  o += Mm;
  l->mu = o;  o += K;
  l->con = o; o += 4 * p;        /* dpocon: 3 p, dgecon: 4 p, dlansy: p */
  l->total = o > 0 ? o : 1;
  l->ipiv = 0;
  l->icon = Mm;
  l->itotal = Mm + p > 0 ? Mm + p : 1;
}

int
vm_reaction_work_size (int n, int m, int k, size_t *lwork, size_t *liwork)
{
  layout l;
  if (! lwork || ! liwork || n < 1 || m < 0 || k < 0 || n > VM_REACTION_NMAX
      || m > VM_REACTION_NMAX || k > VM_REACTION_NMAX)
    return VM_EARG;
  /* with sizes <= 46340 the total is below 2^35 doubles: it fits a 64-bit size_t; refuse where
   * size_t is narrower and the count would wrap */
  if ((double) n * n + (double) n * (m + k + 7) + 3.0 * m * k + (double) k * k + (double) m * m
          + 4.0 * (m + k)
      > (double) (SIZE_MAX / sizeof (double)))
    return VM_EARG;
  make_layout (n, m, k, &l);
  *lwork = l.total;
  *liwork = l.itotal;
  return VM_OK;
}

/* ---- helpers ---------------------------------------------------------------------------------- */

static int
all_finite (size_t len, const double *x)
{
  size_t i;
  for (i = 0; i < len; i++)
    if (! isfinite (x[i]))
      return 0;
  return 1;
}

static void
fill_nan (size_t len, double *x)
{
  size_t i;
  if (x)
    for (i = 0; i < len; i++)
      x[i] = NAN;
}

static void
set_rcond (double *rcond, double v)
{
  if (rcond)
    *rcond = v;
}

/* LAPACK's rcond of X, turned into 1 / (max(1, |X|_1) |X^{-1}|_1) */
static double
rcond_unit (double rc, double anorm)
{
  return anorm < 1.0 ? rc * anorm : rc;
}

/* The memory of one solve: the problem, the workspace carved by its layout, the factor of the
 * scaled mass matrix. */
typedef struct
{
  const vm_reaction_problem *p;
  layout l;
  double *work;
  int *iwork;
  double *Lh, *d;
} rx_mem;

static void
rx_init (rx_mem *x, const vm_reaction_problem *p, const vm_reaction_work *ws, int m, int k)
{
  x->p = p;
  make_layout (p->n, m, k, &x->l);
  x->work = ws->work;
  x->iwork = ws->iwork;
  x->Lh = ws->work + x->l.L;
  x->d = ws->work + x->l.d;
}

/* Cholesky of the symmetric (lower) m x m matrix S with the rcond check. */
static int
factor_spd (rx_mem *x, int m, double *S, double *rc)
{
  double *cwork = x->work + x->l.con, anorm = vm_rd_sym_norm1 (m, S, cwork), r = 0.0;
  *rc = 0.0;
  if (vm_rd_chol (m, S) != 0)
    return VM_ESINGULAR;
  if (vm_rd_chol_rcond (m, S, anorm, &r, cwork, x->iwork + x->l.icon) != 0)
    return VM_ESINGULAR;
  *rc = rcond_unit (r, anorm);
  return *rc >= VM_REACTION_RCOND_MIN ? VM_OK : VM_ESINGULAR;
}

/* Factor the scaled mass matrix: d = M_ii^{-1/2}, Lh = chol (D M D) (lower).  Returns VM_OK,
 * VM_ENOTSPD (non-positive diagonal, asymmetry, Cholesky breakdown, rcond below the threshold);
 * *rc receives the reciprocal condition estimate (0 on breakdown). */
static int
factor_mass (rx_mem *x, double *rc)
{
  const int n = x->p->n;
  const double *M = x->p->M;
  double *Lh = x->Lh, *d = x->d;
  int i, j;
  *rc = 0.0;
  for (i = 0; i < n; i++)
    {
      double mii = M[i + (size_t) n * i];
      if (! (mii > 0.0))
        return VM_ENOTSPD;
      d[i] = 1.0 / sqrt (mii);
    }
  for (j = 0; j < n; j++)
    for (i = j; i < n; i++)
      {
        double a = M[i + (size_t) n * j], b = M[j + (size_t) n * i];
        /* |M_ij - M_ji| <= tol sqrt(M_ii M_jj), i.e. tol / (d_i d_j) */
        if (fabs (a - b) * d[i] * d[j] > VM_REACTION_SYMTOL)
          return VM_ENOTSPD;
        Lh[i + (size_t) n * j] = i == j ? 1.0 : a * d[i] * d[j];
      }
  return factor_spd (x, n, Lh, rc) == VM_OK ? VM_OK : VM_ENOTSPD;
}

/* v <- M^{-1} v with the factor of factor_mass */
static void
mass_solve (const rx_mem *x, double *v)
{
  const int n = x->p->n;
  int i;
  for (i = 0; i < n; i++)
    v[i] *= x->d[i];
  vm_rd_chol_solve (n, x->Lh, v);
  for (i = 0; i < n; i++)
    v[i] *= x->d[i];
}

/* X = Lh^{-1} D C^T for C (rows x n) column-major; then normalize the columns of X, norms in e.
 * Returns VM_OK, VM_ESINGULAR (a zero column: a zero constraint row or direction), VM_EARG
 * (overflow). */
static int
transform_rows (const rx_mem *x, int rows, const double *C, double *X, double *e)
{
  const int n = x->p->n;
  int i, a;
  for (a = 0; a < rows; a++)
    for (i = 0; i < n; i++)
      X[i + (size_t) n * a] = x->d[i] * C[a + (size_t) rows * i];
  vm_rd_lower_solve_cols (n, rows, x->Lh, X);
  for (a = 0; a < rows; a++)
    {
      double nrm = vm_rd_norm2 (n, X + (size_t) n * a);
      if (! isfinite (nrm))
        return VM_EARG;
      if (nrm == 0.0)
        return VM_ESINGULAR;
      e[a] = nrm;
      for (i = 0; i < n; i++)
        X[i + (size_t) n * a] /= nrm;
    }
  return VM_OK;
}

/* r = (c - A M^{-1} f) ./ ea = c ./ ea - Zn^T g, with g = Lh^{-1} D f computed into the work */
static void
scaled_rhs (const rx_mem *x, const double *Zn, const double *ea, double *r)
{
  const int n = x->p->n, m = x->p->m;
  double *g = x->work + x->l.g;
  int i;
  for (i = 0; i < n; i++)
    g[i] = x->d[i] * x->p->f[i];
  vm_rd_lower_solve ('N', n, x->Lh, g);
  for (i = 0; i < m; i++)
    r[i] = x->p->c[i] / ea[i];
  vm_rd_gemv ('T', n, m, -1.0, Zn, g, 1.0, r);
}

/* qddot = M^{-1} (f + C^T v), C (rows x n); R = C^T v when R != NULL */
static void
finish (const rx_mem *x, int rows, const double *C, const double *v, double *qddot, double *R)
{
  const int n = x->p->n;
  double *t = x->work + x->l.t;
  int i;
  if (rows > 0)
    vm_rd_gemv ('T', rows, n, 1.0, C, v, 0.0, t);
  else
    for (i = 0; i < n; i++)
      t[i] = 0.0;
  if (R)
    memcpy (R, t, (size_t) n * sizeof *R);
  for (i = 0; i < n; i++)
    qddot[i] = x->p->f[i] + t[i];
  mass_solve (x, qddot);
}

static int
sizes_ok (int n, int m, int k)
{
  return n >= 1 && m >= 0 && k >= 0 && n <= VM_REACTION_NMAX && m <= VM_REACTION_NMAX
         && k <= VM_REACTION_NMAX;
}

/* the workspace is given (a NULL array is VM_EARG) */
static int
work_ok (const vm_reaction_work *ws)
{
  return ws && ws->work && ws->iwork;
}

/* ---- ideal reaction --------------------------------------------------------------------------- */

static int
ideal_core (const vm_reaction_problem *p, double *qddot, double *lambda, double *R, double *rcond,
            const vm_reaction_work *ws, int reuse)
{
  rx_mem x;
  size_t N;
  double *Z, *S, *ea, *r, rc = 1.0, rc2;
  int st, i, n, m;

  if (! p || ! sizes_ok (p->n, p->m, 0) || ! p->M || ! p->f || ! qddot || ! work_ok (ws)
      || (p->m > 0 && (! p->A || ! p->c)))
    return VM_EARG;
  n = p->n;
  m = p->m;
  N = (size_t) n;
  set_rcond (rcond, NAN);
  if (! all_finite (N * N, p->M) || ! all_finite (N, p->f)
      || (m > 0 && (! all_finite ((size_t) m * N, p->A) || ! all_finite ((size_t) m, p->c))))
    {
      st = VM_EARG;
      goto fail;
    }
  rx_init (&x, p, ws, m, 0);
  if (reuse)
    rc = x.work[x.l.rcm];
  else
    {
      st = factor_mass (&x, &rc);
      x.work[x.l.rcm] = rc;
      if (st != VM_OK)
        goto fail;
    }
  if (m == 0)
    {
      finish (&x, 0, NULL, NULL, qddot, R);
      set_rcond (rcond, rc);
      return VM_OK;
    }
  Z = x.work + x.l.Z;
  S = x.work + x.l.S;
  ea = x.work + x.l.ea;
  r = x.work + x.l.r;
  if ((st = transform_rows (&x, m, p->A, Z, ea)) != VM_OK)
    {
      rc = 0.0;
      goto fail;
    }
  vm_rd_gram (m, n, Z, S);
  st = factor_spd (&x, m, S, &rc2);
  rc = rc2 < rc ? rc2 : rc;
  if (st != VM_OK)
    goto fail;
  scaled_rhs (&x, Z, ea, r);
  vm_rd_chol_solve (m, S, r);
  for (i = 0; i < m; i++)
    r[i] /= ea[i];              /* lambda */
  finish (&x, m, p->A, r, qddot, R);
  if (lambda)
    memcpy (lambda, r, (size_t) m * sizeof *lambda);
  set_rcond (rcond, rc);
  return VM_OK;

fail:
  fill_nan (N, qddot);
  fill_nan ((size_t) m, lambda);
  fill_nan (N, R);
  if (st != VM_EARG)
    set_rcond (rcond, rc);
  return st;
}

int
vm_reaction_ideal (const vm_reaction_problem *p, double *qddot, double *lambda, double *R,
                   double *rcond, const vm_reaction_work *ws)
{
  return ideal_core (p, qddot, lambda, R, rcond, ws, 0);
}

int
vm_reaction_ideal_fixed_mass (const vm_reaction_problem *p, double *qddot, double *lambda,
                              double *R, double *rcond, const vm_reaction_work *ws)
{
  return ideal_core (p, qddot, lambda, R, rcond, ws, 1);
}

/* ---- reaction along given directions ------------------------------------------------------------ */

/* the inputs of vm_reaction_directions are finite and k >= m: VM_OK, VM_EARG or VM_EOVERDET */
static int
directions_inputs_ok (const vm_reaction_problem *p)
{
  const int m = p->m, k = p->k;
  size_t N = (size_t) p->n;
  if (! all_finite (N * N, p->M) || ! all_finite (N, p->f)
      || (m > 0 && (! all_finite ((size_t) m * N, p->A) || ! all_finite ((size_t) m, p->c)))
      || (k > 0 && ! all_finite ((size_t) k * N, p->B)))
    return VM_EARG;
  if (k < m)
    return VM_EOVERDET;
  return VM_OK;
}

/* m == 0 (no constraint): the least reaction is none, mu = 0 (v: k work) */
static void
directions_none (const rx_mem *x, double *v, double *qddot, double *mu, double *R)
{
  const int k = x->p->k;
  int j;
  for (j = 0; j < k; j++)
    v[j] = 0.0;
  finish (x, 0, NULL, NULL, qddot, R);
  if (mu)
    memcpy (mu, v, (size_t) k * sizeof *mu);
}

/* k == m: muh = Gh^{-1} r into v by LU (G and r overwritten); *rc lowered to Gh's rcond (0 when
 * the LU breaks down).  VM_OK or VM_ESINGULAR */
static int
directions_square (const rx_mem *x, double *G, double *r, double *v, double *rc)
{
  int m = x->p->m;
  const int k = x->p->k;
  double anorm = dlange_ ("1", &m, &m, G, &m, NULL, 1), r1 = 0.0, rc2;
  int *ipiv = x->iwork + x->l.ipiv;
  int info = 0, j;
  dgetrf_ (&m, &m, G, &m, ipiv, &info);
  if (info != 0)
    {
      *rc = 0.0;
      return VM_ESINGULAR;
    }
  dgecon_ ("1", &m, G, &m, &anorm, &r1, x->work + x->l.con, x->iwork + x->l.icon, &info, 1);
  rc2 = rcond_unit (r1, anorm);
  *rc = rc2 < *rc ? rc2 : *rc;
  if (info != 0 || rc2 < VM_REACTION_RCOND_MIN)
    return VM_ESINGULAR;
  dgetrs_ ("N", &m, &ione, G, &m, ipiv, r, &m, &info, 1);
  for (j = 0; j < k; j++)
    v[j] = r[j];
  return VM_OK;
}

/* k > m: min muh^T Wh muh subject to Gh muh = r:  muh = Wh^{-1} Gh^T nu,  (Gh Wh^{-1} Gh^T) nu = r,
 * into v; *rc lowered to the rconds of Wh and S.  VM_OK or factor_spd's status */
static int
directions_least (rx_mem *x, const double *Y, const double *G, const double *r, double *v,
                  double *rc)
{
  const int n = x->p->n, m = x->p->m, k = x->p->k;
  double *W = x->work + x->l.W, *H = x->work + x->l.H, *S = x->work + x->l.S;
  double *nu = x->work + x->l.nu, rc2;
  int st, i, j;
  vm_rd_gram (k, n, Y, W);                                  /* Wh = Yn^T Yn */
  st = factor_spd (x, k, W, &rc2);
  *rc = rc2 < *rc ? rc2 : *rc;
  if (st != VM_OK)
    return st;
  for (i = 0; i < m; i++)
    for (j = 0; j < k; j++)
      H[j + (size_t) k * i] = G[i + (size_t) m * j];        /* H = Gh^T */
  vm_rd_lower_solve_cols (k, m, W, H);                      /* H = Lw^{-1} Gh^T */
  vm_rd_gram (m, k, H, S);                                  /* S = H^T H */
  st = factor_spd (x, m, S, &rc2);
  *rc = rc2 < *rc ? rc2 : *rc;
  if (st != VM_OK)
    return st;
  memcpy (nu, r, (size_t) m * sizeof *nu);
  vm_rd_chol_solve (m, S, nu);
  vm_rd_gemv ('N', k, m, 1.0, H, nu, 0.0, v);               /* H nu */
  vm_rd_lower_solve ('T', k, W, v);                         /* Lw^{-T} H nu */
  return VM_OK;
}

int
vm_reaction_directions (const vm_reaction_problem *p, double *qddot, double *mu, double *R,
                        double *rcond, const vm_reaction_work *ws)
{
  rx_mem x;
  size_t N;
  double *Z, *Y, *G, *ea, *eb, *r, *v, rc = 1.0;
  int st, j, n, m, k;

  if (! p || ! sizes_ok (p->n, p->m, p->k) || ! p->M || ! p->f || ! qddot || ! work_ok (ws)
      || (p->m > 0 && (! p->A || ! p->c)) || (p->k > 0 && ! p->B))
    return VM_EARG;
  n = p->n;
  m = p->m;
  k = p->k;
  N = (size_t) n;
  set_rcond (rcond, NAN);
  if ((st = directions_inputs_ok (p)) != VM_OK)
    goto fail;
  rx_init (&x, p, ws, m, k);
  st = factor_mass (&x, &rc);
  x.work[x.l.rcm] = rc;
  if (st != VM_OK)
    goto fail;
  v = x.work + x.l.mu;
  if (m == 0)
    {
      directions_none (&x, v, qddot, mu, R);
      set_rcond (rcond, rc);
      return VM_OK;
    }
  Z = x.work + x.l.Z;
  Y = x.work + x.l.Y;
  G = x.work + x.l.G;
  ea = x.work + x.l.ea;
  eb = x.work + x.l.eb;
  r = x.work + x.l.r;
  if ((st = transform_rows (&x, m, p->A, Z, ea)) != VM_OK
      || (st = transform_rows (&x, k, p->B, Y, eb)) != VM_OK)
    {
      rc = 0.0;
      goto fail;
    }
  dgemm_ ("T", "N", &m, &k, &n, &one, Z, &n, Y, &n, &zero, G, &m, 1, 1);   /* Gh = Zn^T Yn */
  scaled_rhs (&x, Z, ea, r);
  st = k == m ? directions_square (&x, G, r, v, &rc) : directions_least (&x, Y, G, r, v, &rc);
  if (st != VM_OK)
    goto fail;
  for (j = 0; j < k; j++)
    v[j] /= eb[j];              /* mu */
  finish (&x, k, p->B, v, qddot, R);
  if (mu)
    memcpy (mu, v, (size_t) k * sizeof *mu);
  set_rcond (rcond, rc);
  return VM_OK;

fail:
  fill_nan (N, qddot);
  fill_nan ((size_t) k, mu);
  fill_nan (N, R);
  if (st != VM_EARG && st != VM_EOVERDET)
    set_rcond (rcond, rc);
  return st;
}

/* ---- explicit reaction ------------------------------------------------------------------------ */

int
vm_reaction_explicit (const vm_reaction_problem *p, const double *Rx, const double *qdot,
                      double *qddot, double *power, double *rcond, const vm_reaction_work *ws)
{
  rx_mem x;
  size_t N;
  double rc = 0.0;
  int st, i, n;

  if (! p || ! sizes_ok (p->n, 0, 0) || ! p->M || ! p->f || ! qddot || ! work_ok (ws)
      || (power && ! qdot))
    return VM_EARG;
  n = p->n;
  N = (size_t) n;
  set_rcond (rcond, NAN);
  if (! all_finite (N * N, p->M) || ! all_finite (N, p->f) || (Rx && ! all_finite (N, Rx))
      || (qdot && ! all_finite (N, qdot)))
    {
      st = VM_EARG;
      goto fail;
    }
  rx_init (&x, p, ws, 0, 0);
  st = factor_mass (&x, &rc);
  x.work[x.l.rcm] = rc;
  if (st != VM_OK)
    goto fail;
  for (i = 0; i < n; i++)
    qddot[i] = p->f[i] + (Rx ? Rx[i] : 0.0);
  mass_solve (&x, qddot);
  if (power)
    {
      double s = 0.0;
      if (Rx)
        for (i = 0; i < n; i++)
          s += Rx[i] * qdot[i];
      *power = s;
    }
  set_rcond (rcond, rc);
  return VM_OK;

fail:
  fill_nan (N, qddot);
  if (power)
    *power = NAN;
  if (st != VM_EARG)
    set_rcond (rcond, rc);
  return st;
}

/* ---- selection of velocity components --------------------------------------------------------- */

int
vm_reaction_select (int n, int k, const int *idx, const double *M, double *B)
{
  int s, t, j;
  if (! sizes_ok (n, 0, k) || k > n || (k > 0 && (! idx || ! B)))
    return VM_EARG;
  for (s = 0; s < k; s++)
    {
      if (idx[s] < 0 || idx[s] >= n)
        return VM_EARG;
      for (t = 0; t < s; t++)
        if (idx[t] == idx[s])
          return VM_EARG;
    }
  if (M && ! all_finite ((size_t) n * (size_t) n, M))
    return VM_EARG;
  for (s = 0; s < k; s++)
    for (j = 0; j < n; j++)
      B[s + (size_t) k * j] = M ? M[idx[s] + (size_t) n * j] : (j == idx[s] ? 1.0 : 0.0);
  return VM_OK;
}
