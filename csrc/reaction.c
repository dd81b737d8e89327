/* reaction.c -- constrained accelerations at one point (see reaction.h and doc/reactions.md).
 *
 * Notation: D = diag(M_ii^{-1/2}); Mh = D M D (unit diagonal) = Lh Lh^T (Cholesky), so that
 * M^{-1} = D Lh^{-T} Lh^{-1} D.  Z = Lh^{-1} D A^T (n x m) and Y = Lh^{-1} D B^T (n x k), with
 * column norms ea (m) and eb (k); Zn, Yn the normalized columns.  Then
 *   A M^{-1} A^T = diag(ea) Zn^T Zn diag(ea),   A M^{-1} B^T = diag(ea) Zn^T Yn diag(eb),
 *   B M^{-1} B^T = diag(eb) Yn^T Yn diag(eb),   A M^{-1} f = diag(ea) Zn^T g,  g = Lh^{-1} D f.
 * The matrices factored are the scaled ones Sh = Zn^T Zn, Gh = Zn^T Yn, Wh = Yn^T Yn. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "reaction.h"
#include "vm_status.h"

/* ---- BLAS / LAPACK (Fortran, LP64 integers; hidden lengths of CHARACTER arguments last) ------- */

typedef size_t vm_flen;

extern void dpotrf_ (const char *uplo, const int *n, double *a, const int *lda, int *info,
                     vm_flen luplo);
extern void dpotrs_ (const char *uplo, const int *n, const int *nrhs, const double *a,
                     const int *lda, double *b, const int *ldb, int *info, vm_flen luplo);
extern void dpocon_ (const char *uplo, const int *n, const double *a, const int *lda,
                     const double *anorm, double *rcond, double *work, int *iwork, int *info,
                     vm_flen luplo);
extern void dgetrf_ (const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void dgetrs_ (const char *trans, const int *n, const int *nrhs, const double *a,
                     const int *lda, const int *ipiv, double *b, const int *ldb, int *info,
                     vm_flen ltrans);
extern void dgecon_ (const char *norm, const int *n, const double *a, const int *lda,
                     const double *anorm, double *rcond, double *work, int *iwork, int *info,
                     vm_flen lnorm);
extern double dlange_ (const char *norm, const int *m, const int *n, const double *a,
                       const int *lda, double *work, vm_flen lnorm);
extern double dlansy_ (const char *norm, const char *uplo, const int *n, const double *a,
                       const int *lda, double *work, vm_flen lnorm, vm_flen luplo);
extern void dtrsm_ (const char *side, const char *uplo, const char *transa, const char *diag,
                    const int *m, const int *n, const double *alpha, const double *a,
                    const int *lda, double *b, const int *ldb, vm_flen l1, vm_flen l2, vm_flen l3,
                    vm_flen l4);
extern void dtrsv_ (const char *uplo, const char *trans, const char *diag, const int *n,
                    const double *a, const int *lda, double *x, const int *incx, vm_flen l1,
                    vm_flen l2, vm_flen l3);
extern void dsyrk_ (const char *uplo, const char *trans, const int *n, const int *k,
                    const double *alpha, const double *a, const int *lda, const double *beta,
                    double *c, const int *ldc, vm_flen l1, vm_flen l2);
extern void dgemm_ (const char *transa, const char *transb, const int *m, const int *n,
                    const int *k, const double *alpha, const double *a, const int *lda,
                    const double *b, const int *ldb, const double *beta, double *c,
                    const int *ldc, vm_flen l1, vm_flen l2);
extern void dgemv_ (const char *trans, const int *m, const int *n, const double *alpha,
                    const double *a, const int *lda, const double *x, const int *incx,
                    const double *beta, double *y, const int *incy, vm_flen l1);
extern double dnrm2_ (const int *n, const double *x, const int *incx);

static const int ione = 1;
static const double one = 1.0, zero = 0.0;

/* ---- workspace layout --------------------------------------------------------------------------- */

typedef struct {
  size_t L, d, g, t, Z, Y, G, W, H, S, ea, eb, r, nu, mu, con, total;
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

/* Factor the scaled mass matrix: d = M_ii^{-1/2}, Lh = chol (D M D) (lower).  Returns VM_OK,
 * VM_ENOTSPD (non-positive diagonal, asymmetry, Cholesky breakdown, rcond below the threshold);
 * *rc receives the reciprocal condition estimate (0 on breakdown). */
static int
factor_mass (int n, const double *M, double *Lh, double *d, double *cwork, int *ciwork, double *rc)
{
  int i, j, info = 0;
  double anorm, r = 0.0;
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
  anorm = dlansy_ ("1", "L", &n, Lh, &n, cwork, 1, 1);
  dpotrf_ ("L", &n, Lh, &n, &info, 1);
  if (info != 0)
    return VM_ENOTSPD;
  dpocon_ ("L", &n, Lh, &n, &anorm, &r, cwork, ciwork, &info, 1);
  if (info != 0)
    return VM_ENOTSPD;
  *rc = rcond_unit (r, anorm);
  return *rc >= VM_REACTION_RCOND_MIN ? VM_OK : VM_ENOTSPD;
}

/* x <- M^{-1} x with the factor of factor_mass */
static void
mass_solve (int n, const double *Lh, const double *d, double *x)
{
  int i, info = 0;
  for (i = 0; i < n; i++)
    x[i] *= d[i];
  dpotrs_ ("L", &n, &ione, Lh, &n, x, &n, &info, 1);
  for (i = 0; i < n; i++)
    x[i] *= d[i];
}

/* X = Lh^{-1} D C^T for C (rows x n) column-major; then normalize the columns of X, norms in e.
 * Returns VM_OK, VM_ESINGULAR (a zero column: a zero constraint row or direction), VM_EARG
 * (overflow). */
static int
transform_rows (int n, int rows, const double *C, const double *Lh, const double *d, double *X,
                double *e)
{
  int i, a;
  for (a = 0; a < rows; a++)
    for (i = 0; i < n; i++)
      X[i + (size_t) n * a] = d[i] * C[a + (size_t) rows * i];
  dtrsm_ ("L", "L", "N", "N", &n, &rows, &one, Lh, &n, X, &n, 1, 1, 1, 1);
  for (a = 0; a < rows; a++)
    {
      double nrm = dnrm2_ (&n, X + (size_t) n * a, &ione);
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

/* Cholesky of the symmetric (lower) m x m matrix S with the rcond check. */
static int
factor_spd (int m, double *S, double *cwork, int *ciwork, double *rc)
{
  int info = 0;
  double anorm = dlansy_ ("1", "L", &m, S, &m, cwork, 1, 1), r = 0.0;
  *rc = 0.0;
  dpotrf_ ("L", &m, S, &m, &info, 1);
  if (info != 0)
    return VM_ESINGULAR;
  dpocon_ ("L", &m, S, &m, &anorm, &r, cwork, ciwork, &info, 1);
  if (info != 0)
    return VM_ESINGULAR;
  *rc = rcond_unit (r, anorm);
  return *rc >= VM_REACTION_RCOND_MIN ? VM_OK : VM_ESINGULAR;
}

/* r = (c - A M^{-1} f) ./ ea = c ./ ea - Zn^T g, with g = Lh^{-1} D f computed into g */
static void
scaled_rhs (int n, int m, const double *f, const double *c, const double *Lh, const double *d,
            const double *Zn, const double *ea, double *g, double *r)
{
  int i;
  const double mone = -1.0;
  for (i = 0; i < n; i++)
    g[i] = d[i] * f[i];
  dtrsv_ ("L", "N", "N", &n, Lh, &n, g, &ione, 1, 1, 1);
  for (i = 0; i < m; i++)
    r[i] = c[i] / ea[i];
  dgemv_ ("T", &n, &m, &mone, Zn, &n, g, &ione, &one, r, &ione, 1);
}

/* qddot = M^{-1} (f + C^T x), C (rows x n); R = C^T x when R != NULL; t (n) is scratch */
static void
finish (int n, int rows, const double *C, const double *x, const double *f, const double *Lh,
        const double *d, double *t, double *qddot, double *R)
{
  int i;
  if (rows > 0)
    dgemv_ ("T", &rows, &n, &one, C, &rows, x, &ione, &zero, t, &ione, 1);
  else
    for (i = 0; i < n; i++)
      t[i] = 0.0;
  if (R)
    memcpy (R, t, (size_t) n * sizeof *R);
  for (i = 0; i < n; i++)
    qddot[i] = f[i] + t[i];
  mass_solve (n, Lh, d, qddot);
}

static int
sizes_ok (int n, int m, int k)
{
  return n >= 1 && m >= 0 && k >= 0 && n <= VM_REACTION_NMAX && m <= VM_REACTION_NMAX
         && k <= VM_REACTION_NMAX;
}

/* ---- ideal reaction --------------------------------------------------------------------------- */

int
vm_reaction_ideal (int n, int m, const double *M, const double *f, const double *A,
                   const double *c, double *qddot, double *lambda, double *R, double *rcond,
                   double *work, int *iwork)
{
  layout l;
  size_t N;
  double *Lh, *d, *Z, *S, *ea, *r, rc = 1.0, rc2;
  int st, i, info = 0;

  if (! sizes_ok (n, m, 0) || ! M || ! f || ! qddot || ! work || ! iwork
      || (m > 0 && (! A || ! c)))
    return VM_EARG;
  N = (size_t) n;
  set_rcond (rcond, NAN);
  if (! all_finite (N * N, M) || ! all_finite (N, f)
      || (m > 0 && (! all_finite ((size_t) m * N, A) || ! all_finite ((size_t) m, c))))
    {
      st = VM_EARG;
      goto fail;
    }
  make_layout (n, m, 0, &l);
  Lh = work + l.L;
  d = work + l.d;
  if ((st = factor_mass (n, M, Lh, d, work + l.con, iwork + l.icon, &rc)) != VM_OK)
    goto fail;
  if (m == 0)
    {
      finish (n, 0, NULL, NULL, f, Lh, d, work + l.t, qddot, R);
      set_rcond (rcond, rc);
      return VM_OK;
    }
  Z = work + l.Z;
  S = work + l.S;
  ea = work + l.ea;
  r = work + l.r;
  if ((st = transform_rows (n, m, A, Lh, d, Z, ea)) != VM_OK)
    {
      rc = 0.0;
      goto fail;
    }
  dsyrk_ ("L", "T", &m, &n, &one, Z, &n, &zero, S, &m, 1, 1);
  st = factor_spd (m, S, work + l.con, iwork + l.icon, &rc2);
  rc = rc2 < rc ? rc2 : rc;
  if (st != VM_OK)
    goto fail;
  scaled_rhs (n, m, f, c, Lh, d, Z, ea, work + l.g, r);
  dpotrs_ ("L", &m, &ione, S, &m, r, &m, &info, 1);
  for (i = 0; i < m; i++)
    r[i] /= ea[i];              /* lambda */
  finish (n, m, A, r, f, Lh, d, work + l.t, qddot, R);
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

/* ---- reaction along given directions ------------------------------------------------------------ */

int
vm_reaction_directions (int n, int m, int k, const double *M, const double *f,
                        const double *A, const double *c, const double *B, double *qddot,
                        double *mu, double *R, double *rcond, double *work, int *iwork)
{
  layout l;
  size_t N;
  double *Lh, *d, *Z, *Y, *G, *ea, *eb, *r, *x, rc = 1.0, rc2;
  int st, i, j, info = 0;

  if (! sizes_ok (n, m, k) || ! M || ! f || ! qddot || ! work || ! iwork
      || (m > 0 && (! A || ! c)) || (k > 0 && ! B))
    return VM_EARG;
  N = (size_t) n;
  set_rcond (rcond, NAN);
  if (! all_finite (N * N, M) || ! all_finite (N, f)
      || (m > 0 && (! all_finite ((size_t) m * N, A) || ! all_finite ((size_t) m, c)))
      || (k > 0 && ! all_finite ((size_t) k * N, B)))
    {
      st = VM_EARG;
      goto fail;
    }
  if (k < m)
    {
      st = VM_EOVERDET;
      goto fail;
    }
  make_layout (n, m, k, &l);
  Lh = work + l.L;
  d = work + l.d;
  if ((st = factor_mass (n, M, Lh, d, work + l.con, iwork + l.icon, &rc)) != VM_OK)
    goto fail;
  x = work + l.mu;
  if (m == 0)
    {
      /* no constraint: the least reaction is none */
      for (j = 0; j < k; j++)
        x[j] = 0.0;
      finish (n, 0, NULL, NULL, f, Lh, d, work + l.t, qddot, R);
      if (mu)
        memcpy (mu, x, (size_t) k * sizeof *mu);
      set_rcond (rcond, rc);
      return VM_OK;
    }
  Z = work + l.Z;
  Y = work + l.Y;
  G = work + l.G;
  ea = work + l.ea;
  eb = work + l.eb;
  r = work + l.r;
  if ((st = transform_rows (n, m, A, Lh, d, Z, ea)) != VM_OK
      || (st = transform_rows (n, k, B, Lh, d, Y, eb)) != VM_OK)
    {
      rc = 0.0;
      goto fail;
    }
  dgemm_ ("T", "N", &m, &k, &n, &one, Z, &n, Y, &n, &zero, G, &m, 1, 1);   /* Gh = Zn^T Yn */
  scaled_rhs (n, m, f, c, Lh, d, Z, ea, work + l.g, r);
  if (k == m)
    {
      double anorm = dlange_ ("1", &m, &m, G, &m, NULL, 1), r1 = 0.0;
      int *ipiv = iwork + l.ipiv;
      dgetrf_ (&m, &m, G, &m, ipiv, &info);
      if (info != 0)
        {
          rc = 0.0;
          st = VM_ESINGULAR;
          goto fail;
        }
      dgecon_ ("1", &m, G, &m, &anorm, &r1, work + l.con, iwork + l.icon, &info, 1);
      rc2 = rcond_unit (r1, anorm);
      rc = rc2 < rc ? rc2 : rc;
      if (info != 0 || rc2 < VM_REACTION_RCOND_MIN)
        {
          st = VM_ESINGULAR;
          goto fail;
        }
      dgetrs_ ("N", &m, &ione, G, &m, ipiv, r, &m, &info, 1);
      for (j = 0; j < k; j++)
        x[j] = r[j];
    }
  else
    {
      /* min muh^T Wh muh subject to Gh muh = r:  muh = Wh^{-1} Gh^T nu,  (Gh Wh^{-1} Gh^T) nu = r */
      double *W = work + l.W, *H = work + l.H, *S = work + l.S, *nu = work + l.nu;
      dsyrk_ ("L", "T", &k, &n, &one, Y, &n, &zero, W, &k, 1, 1);           /* Wh = Yn^T Yn */
      st = factor_spd (k, W, work + l.con, iwork + l.icon, &rc2);
      rc = rc2 < rc ? rc2 : rc;
      if (st != VM_OK)
        goto fail;
      for (i = 0; i < m; i++)
        for (j = 0; j < k; j++)
          H[j + (size_t) k * i] = G[i + (size_t) m * j];                    /* H = Gh^T */
      dtrsm_ ("L", "L", "N", "N", &k, &m, &one, W, &k, H, &k, 1, 1, 1, 1);  /* H = Lw^{-1} Gh^T */
      dsyrk_ ("L", "T", &m, &k, &one, H, &k, &zero, S, &m, 1, 1);           /* S = H^T H */
      st = factor_spd (m, S, work + l.con, iwork + l.icon, &rc2);
      rc = rc2 < rc ? rc2 : rc;
      if (st != VM_OK)
        goto fail;
      memcpy (nu, r, (size_t) m * sizeof *nu);
      dpotrs_ ("L", &m, &ione, S, &m, nu, &m, &info, 1);
      dgemv_ ("N", &k, &m, &one, H, &k, nu, &ione, &zero, x, &ione, 1);     /* H nu */
      dtrsv_ ("L", "T", "N", &k, W, &k, x, &ione, 1, 1, 1);                 /* Lw^{-T} H nu */
    }
  for (j = 0; j < k; j++)
    x[j] /= eb[j];              /* mu */
  finish (n, k, B, x, f, Lh, d, work + l.t, qddot, R);
  if (mu)
    memcpy (mu, x, (size_t) k * sizeof *mu);
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
vm_reaction_explicit (int n, const double *M, const double *f, const double *Rx,
                      const double *qdot, double *qddot, double *power, double *rcond,
                      double *work, int *iwork)
{
  layout l;
  size_t N;
  double rc = 0.0;
  int st, i;

  if (! sizes_ok (n, 0, 0) || ! M || ! f || ! qddot || ! work || ! iwork || (power && ! qdot))
    return VM_EARG;
  N = (size_t) n;
  set_rcond (rcond, NAN);
  if (! all_finite (N * N, M) || ! all_finite (N, f) || (Rx && ! all_finite (N, Rx))
      || (qdot && ! all_finite (N, qdot)))
    {
      st = VM_EARG;
      goto fail;
    }
  make_layout (n, 0, 0, &l);
  if ((st = factor_mass (n, M, work + l.L, work + l.d, work + l.con, iwork + l.icon, &rc))
      != VM_OK)
    goto fail;
  for (i = 0; i < n; i++)
    qddot[i] = f[i] + (Rx ? Rx[i] : 0.0);
  mass_solve (n, work + l.L, work + l.d, qddot);
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
