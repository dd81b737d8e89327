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

#include "reference/reaction.h"
#include "base/vm_status.h"

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

/* ---- small sizes ------------------------------------------------------------------------------
 * For the tiny matrices of mechanical models (n, m <= VM_REACTION_SMALL) the cost of a LAPACK/BLAS
 * call (argument checks, OpenBLAS's buffer allocation and locking in the triangular solves of
 * dpocon) is many times the arithmetic, and dominates the right-hand side of the integrators.
 * These wrappers have the Fortran signatures of the calls used here (uplo "L" only) and do the
 * work inline below that size; above it they call LAPACK/BLAS.  For the condition number the small
 * path computes rcond = 1 / (|X|_1 |X^{-1}|_1) exactly from the Cholesky factor (LAPACK's dpocon
 * estimates the same quantity). */
#define VM_REACTION_SMALL 12

static void
vpotrf_ (const char *uplo, const int *n, double *a, const int *lda, int *info, size_t ul)
{
  int i, j, k, N = *n, L = *lda;
  if (N > VM_REACTION_SMALL)
    {
      dpotrf_ (uplo, n, a, lda, info, ul);
      return;
    }
  *info = 0;
  for (j = 0; j < N; j++)
    {
      double djj = a[j + L * j];
      for (k = 0; k < j; k++)
        djj -= a[j + L * k] * a[j + L * k];
      if (! (djj > 0))
        {
          *info = j + 1;
          return;
        }
      djj = sqrt (djj);
      a[j + L * j] = djj;
      for (i = j + 1; i < N; i++)
        {
          double v = a[i + L * j];
          for (k = 0; k < j; k++)
            v -= a[i + L * k] * a[j + L * k];
          a[i + L * j] = v / djj;
        }
    }
}

/* x <- L^{-1} x (trans "N") or L^{-T} x (trans "T"), L lower with leading dimension L */
static void
small_trsv (const char *trans, int N, const double *a, int L, double *x, int inc)
{
  int i, k;
  if (trans[0] == 'N')
    for (i = 0; i < N; i++)
      {
        double v = x[i * inc];
        for (k = 0; k < i; k++)
          v -= a[i + L * k] * x[k * inc];
        x[i * inc] = v / a[i + L * i];
      }
  else
    for (i = N - 1; i >= 0; i--)
      {
        double v = x[i * inc];
        for (k = i + 1; k < N; k++)
          v -= a[k + L * i] * x[k * inc];
        x[i * inc] = v / a[i + L * i];
      }
}

static void
vtrsv_ (const char *uplo, const char *trans, const char *diag, const int *n, const double *a,
        const int *lda, double *x, const int *incx, size_t l1, size_t l2, size_t l3)
{
  if (*n > VM_REACTION_SMALL)
    {
      dtrsv_ (uplo, trans, diag, n, a, lda, x, incx, l1, l2, l3);
      return;
    }
  small_trsv (trans, *n, a, *lda, x, *incx);
}

static void
vpotrs_ (const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
         double *b, const int *ldb, int *info, size_t ul)
{
  int r;
  if (*n > VM_REACTION_SMALL)
    {
      dpotrs_ (uplo, n, nrhs, a, lda, b, ldb, info, ul);
      return;
    }
  *info = 0;
  for (r = 0; r < *nrhs; r++)
    {
      small_trsv ("N", *n, a, *lda, b + (size_t) *ldb * r, 1);
      small_trsv ("T", *n, a, *lda, b + (size_t) *ldb * r, 1);
    }
}

/* only side "L", uplo "L", trans "N", diag "N" is used here */
static void
vtrsm_ (const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
        const int *n, const double *alpha, const double *a, const int *lda, double *b,
        const int *ldb, size_t l1, size_t l2, size_t l3, size_t l4)
{
  int c, i;
  if (*m > VM_REACTION_SMALL)
    {
      dtrsm_ (side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, l1, l2, l3, l4);
      return;
    }
  for (c = 0; c < *n; c++)
    {
      double *x = b + (size_t) *ldb * c;
      for (i = 0; i < *m; i++)
        x[i] *= *alpha;
      small_trsv ("N", *m, a, *lda, x, 1);
    }
}

static void
vgemv_ (const char *trans, const int *m, const int *n, const double *alpha, const double *a,
        const int *lda, const double *x, const int *incx, const double *beta, double *y,
        const int *incy, size_t lt)
{
  int i, j, M = *m, N = *n, L = *lda;
  if (M > VM_REACTION_SMALL || N > VM_REACTION_SMALL)
    {
      dgemv_ (trans, m, n, alpha, a, lda, x, incx, beta, y, incy, lt);
      return;
    }
  if (trans[0] == 'N')
    for (i = 0; i < M; i++)
      {
        double v = 0;
        for (j = 0; j < N; j++)
          v += a[i + L * j] * x[j * *incx];
        y[i * *incy] = *alpha * v + (*beta == 0 ? 0 : *beta * y[i * *incy]);
      }
  else
    for (j = 0; j < N; j++)
      {
        double v = 0;
        for (i = 0; i < M; i++)
          v += a[i + L * j] * x[i * *incx];
        y[j * *incy] = *alpha * v + (*beta == 0 ? 0 : *beta * y[j * *incy]);
      }
}

/* only uplo "L", trans "T" (C = alpha A^T A + beta C, A k x n) is used here */
static void
vsyrk_ (const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
        const double *a, const int *lda, const double *beta, double *c, const int *ldc,
        size_t l1, size_t l2)
{
  int i, j, p;
  if (*n > VM_REACTION_SMALL || *k > VM_REACTION_SMALL)
    {
      dsyrk_ (uplo, trans, n, k, alpha, a, lda, beta, c, ldc, l1, l2);
      return;
    }
  for (j = 0; j < *n; j++)
    for (i = j; i < *n; i++)
      {
        double v = 0;
        for (p = 0; p < *k; p++)
          v += a[p + *lda * i] * a[p + *lda * j];
        c[i + *ldc * j] = *alpha * v + (*beta == 0 ? 0 : *beta * c[i + *ldc * j]);
      }
}

static double
vnrm2_ (const int *n, const double *x, const int *incx)
{
  int i;
  double scale = 0, v = 0;
  if (*n > VM_REACTION_SMALL)
    return dnrm2_ (n, x, incx);
  for (i = 0; i < *n; i++)
    if (! (fabs (x[i * *incx]) <= scale))
      scale = fabs (x[i * *incx]);
  if (scale == 0 || ! isfinite (scale))
    return scale;
  for (i = 0; i < *n; i++)
    {
      double u = x[i * *incx] / scale;
      v += u * u;
    }
  return scale * sqrt (v);
}

/* 1-norm of a symmetric matrix stored in its lower triangle */
static double
vlansy_ (const char *norm, const char *uplo, const int *n, const double *a, const int *lda,
         double *work, size_t l1, size_t l2)
{
  int i, j, N = *n, L = *lda;
  double best = 0;
  if (N > VM_REACTION_SMALL)
    return dlansy_ (norm, uplo, n, a, lda, work, l1, l2);
  for (j = 0; j < N; j++)
    {
      double s = 0;
      for (i = 0; i < N; i++)
        s += fabs (i >= j ? a[i + L * j] : a[j + L * i]);
      if (! (s <= best))
        best = s;
    }
  return best;
}

/* rcond of the SPD matrix with Cholesky factor a (lower) and 1-norm anorm: exact for small n
 * (work: at least n doubles) */
static void
vpocon_ (const char *uplo, const int *n, const double *a, const int *lda, const double *anorm,
         double *rcond, double *work, int *iwork, int *info, size_t ul)
{
  int i, j, N = *n;
  double inorm = 0;
  if (N > VM_REACTION_SMALL)
    {
      dpocon_ (uplo, n, a, lda, anorm, rcond, work, iwork, info, ul);
      return;
    }
  *info = 0;
  for (j = 0; j < N; j++)
    {
      double s = 0;
      for (i = 0; i < N; i++)
        work[i] = i == j ? 1.0 : 0.0;
      small_trsv ("N", N, a, *lda, work, 1);
      small_trsv ("T", N, a, *lda, work, 1);
      for (i = 0; i < N; i++)
        s += fabs (work[i]);
      if (! (s <= inorm))
        inorm = s;
    }
  *rcond = (*anorm > 0 && inorm > 0 && isfinite (inorm)) ? 1.0 / (*anorm * inorm) : 0.0;
}

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

/* Cholesky of the symmetric (lower) m x m matrix S with the rcond check. */
static int
factor_spd (int m, double *S, double *cwork, int *ciwork, double *rc)
{
  int info = 0;
  double anorm = vlansy_ ("1", "L", &m, S, &m, cwork, 1, 1), r = 0.0;
  *rc = 0.0;
  vpotrf_ ("L", &m, S, &m, &info, 1);
  if (info != 0)
    return VM_ESINGULAR;
  vpocon_ ("L", &m, S, &m, &anorm, &r, cwork, ciwork, &info, 1);
  if (info != 0)
    return VM_ESINGULAR;
  *rc = rcond_unit (r, anorm);
  return *rc >= VM_REACTION_RCOND_MIN ? VM_OK : VM_ESINGULAR;
}

/* Factor the scaled mass matrix: d = M_ii^{-1/2}, Lh = chol (D M D) (lower).  Returns VM_OK,
 * VM_ENOTSPD (non-positive diagonal, asymmetry, Cholesky breakdown, rcond below the threshold);
 * *rc receives the reciprocal condition estimate (0 on breakdown). */
static int
factor_mass (int n, const double *M, double *Lh, double *d, double *cwork, int *ciwork, double *rc)
{
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
  return factor_spd (n, Lh, cwork, ciwork, rc) == VM_OK ? VM_OK : VM_ENOTSPD;
}

/* x <- M^{-1} x with the factor of factor_mass */
static void
mass_solve (int n, const double *Lh, const double *d, double *x)
{
  int i, info = 0;
  for (i = 0; i < n; i++)
    x[i] *= d[i];
  vpotrs_ ("L", &n, &ione, Lh, &n, x, &n, &info, 1);
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
  vtrsm_ ("L", "L", "N", "N", &n, &rows, &one, Lh, &n, X, &n, 1, 1, 1, 1);
  for (a = 0; a < rows; a++)
    {
      double nrm = vnrm2_ (&n, X + (size_t) n * a, &ione);
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

/* r = (c - A M^{-1} f) ./ ea = c ./ ea - Zn^T g, with g = Lh^{-1} D f computed into g */
static void
scaled_rhs (int n, int m, const double *f, const double *c, const double *Lh, const double *d,
            const double *Zn, const double *ea, double *g, double *r)
{
  int i;
  const double mone = -1.0;
  for (i = 0; i < n; i++)
    g[i] = d[i] * f[i];
  vtrsv_ ("L", "N", "N", &n, Lh, &n, g, &ione, 1, 1, 1);
  for (i = 0; i < m; i++)
    r[i] = c[i] / ea[i];
  vgemv_ ("T", &n, &m, &mone, Zn, &n, g, &ione, &one, r, &ione, 1);
}

/* qddot = M^{-1} (f + C^T x), C (rows x n); R = C^T x when R != NULL; t (n) is scratch */
static void
finish (int n, int rows, const double *C, const double *x, const double *f, const double *Lh,
        const double *d, double *t, double *qddot, double *R)
{
  int i;
  if (rows > 0)
    vgemv_ ("T", &rows, &n, &one, C, &rows, x, &ione, &zero, t, &ione, 1);
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

static int ideal_core (int n, int m, const double *M, const double *f, const double *A,
                       const double *c, double *qddot, double *lambda, double *R, double *rcond,
                       double *work, int *iwork, int reuse);

int
vm_reaction_ideal (int n, int m, const double *M, const double *f, const double *A,
                   const double *c, double *qddot, double *lambda, double *R, double *rcond,
                   double *work, int *iwork)
{
  return ideal_core (n, m, M, f, A, c, qddot, lambda, R, rcond, work, iwork, 0);
}

int
vm_reaction_ideal_fixed_mass (int n, int m, const double *M, const double *f, const double *A,
                              const double *c, double *qddot, double *lambda, double *R,
                              double *rcond, double *work, int *iwork)
{
  return ideal_core (n, m, M, f, A, c, qddot, lambda, R, rcond, work, iwork, 1);
}

static int
ideal_core (int n, int m, const double *M, const double *f, const double *A,
            const double *c, double *qddot, double *lambda, double *R, double *rcond,
            double *work, int *iwork, int reuse)
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
  if (reuse)
    rc = work[l.rcm];
  else
    {
      st = factor_mass (n, M, Lh, d, work + l.con, iwork + l.icon, &rc);
      work[l.rcm] = rc;
      if (st != VM_OK)
        goto fail;
    }
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
  vsyrk_ ("L", "T", &m, &n, &one, Z, &n, &zero, S, &m, 1, 1);
  st = factor_spd (m, S, work + l.con, iwork + l.icon, &rc2);
  rc = rc2 < rc ? rc2 : rc;
  if (st != VM_OK)
    goto fail;
  scaled_rhs (n, m, f, c, Lh, d, Z, ea, work + l.g, r);
  vpotrs_ ("L", &m, &ione, S, &m, r, &m, &info, 1);
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

/* the inputs of vm_reaction_directions are finite and k >= m: VM_OK, VM_EARG or VM_EOVERDET */
static int
directions_inputs_ok (int n, int m, int k, const double *M, const double *f, const double *A,
                      const double *c, const double *B)
{
  size_t N = (size_t) n;
  if (! all_finite (N * N, M) || ! all_finite (N, f)
      || (m > 0 && (! all_finite ((size_t) m * N, A) || ! all_finite ((size_t) m, c)))
      || (k > 0 && ! all_finite ((size_t) k * N, B)))
    return VM_EARG;
  if (k < m)
    return VM_EOVERDET;
  return VM_OK;
}

/* m == 0 (no constraint): the least reaction is none, mu = 0 (x: k work) */
static void
directions_none (int n, int k, const double *f, const double *Lh, const double *d, double *x,
                 double *t, double *qddot, double *mu, double *R)
{
  int j;
  for (j = 0; j < k; j++)
    x[j] = 0.0;
  finish (n, 0, NULL, NULL, f, Lh, d, t, qddot, R);
  if (mu)
    memcpy (mu, x, (size_t) k * sizeof *mu);
}

/* k == m: muh = Gh^{-1} r into x by LU (G and r overwritten); *rc lowered to Gh's rcond (0 when
 * the LU breaks down).  VM_OK or VM_ESINGULAR */
static int
directions_square (int m, int k, double *G, double *r, double *x, double *work, int *iwork,
                   const layout *l, double *rc)
{
  double anorm = dlange_ ("1", &m, &m, G, &m, NULL, 1), r1 = 0.0, rc2;
  int *ipiv = iwork + l->ipiv;
  int info = 0, j;
  dgetrf_ (&m, &m, G, &m, ipiv, &info);
  if (info != 0)
    {
      *rc = 0.0;
      return VM_ESINGULAR;
    }
  dgecon_ ("1", &m, G, &m, &anorm, &r1, work + l->con, iwork + l->icon, &info, 1);
  rc2 = rcond_unit (r1, anorm);
  *rc = rc2 < *rc ? rc2 : *rc;
  if (info != 0 || rc2 < VM_REACTION_RCOND_MIN)
    return VM_ESINGULAR;
  dgetrs_ ("N", &m, &ione, G, &m, ipiv, r, &m, &info, 1);
  for (j = 0; j < k; j++)
    x[j] = r[j];
  return VM_OK;
}

/* k > m: min muh^T Wh muh subject to Gh muh = r:  muh = Wh^{-1} Gh^T nu,  (Gh Wh^{-1} Gh^T) nu = r,
 * into x; *rc lowered to the rconds of Wh and S.  VM_OK or factor_spd's status */
static int
directions_least (int n, int m, int k, const double *Y, const double *G, const double *r,
                  double *x, double *work, int *iwork, const layout *l, double *rc)
{
  double *W = work + l->W, *H = work + l->H, *S = work + l->S, *nu = work + l->nu, rc2;
  int st, i, j, info = 0;
  vsyrk_ ("L", "T", &k, &n, &one, Y, &n, &zero, W, &k, 1, 1);           /* Wh = Yn^T Yn */
  st = factor_spd (k, W, work + l->con, iwork + l->icon, &rc2);
  *rc = rc2 < *rc ? rc2 : *rc;
  if (st != VM_OK)
    return st;
  for (i = 0; i < m; i++)
    for (j = 0; j < k; j++)
      H[j + (size_t) k * i] = G[i + (size_t) m * j];                    /* H = Gh^T */
  vtrsm_ ("L", "L", "N", "N", &k, &m, &one, W, &k, H, &k, 1, 1, 1, 1);  /* H = Lw^{-1} Gh^T */
  vsyrk_ ("L", "T", &m, &k, &one, H, &k, &zero, S, &m, 1, 1);           /* S = H^T H */
  st = factor_spd (m, S, work + l->con, iwork + l->icon, &rc2);
  *rc = rc2 < *rc ? rc2 : *rc;
  if (st != VM_OK)
    return st;
  memcpy (nu, r, (size_t) m * sizeof *nu);
  vpotrs_ ("L", &m, &ione, S, &m, nu, &m, &info, 1);
  vgemv_ ("N", &k, &m, &one, H, &k, nu, &ione, &zero, x, &ione, 1);     /* H nu */
  vtrsv_ ("L", "T", "N", &k, W, &k, x, &ione, 1, 1, 1);                 /* Lw^{-T} H nu */
  return VM_OK;
}

int
vm_reaction_directions (int n, int m, int k, const double *M, const double *f,
                        const double *A, const double *c, const double *B, double *qddot,
                        double *mu, double *R, double *rcond, double *work, int *iwork)
{
  layout l;
  size_t N;
  double *Lh, *d, *Z, *Y, *G, *ea, *eb, *r, *x, rc = 1.0;
  int st, j;

  if (! sizes_ok (n, m, k) || ! M || ! f || ! qddot || ! work || ! iwork
      || (m > 0 && (! A || ! c)) || (k > 0 && ! B))
    return VM_EARG;
  N = (size_t) n;
  set_rcond (rcond, NAN);
  if ((st = directions_inputs_ok (n, m, k, M, f, A, c, B)) != VM_OK)
    goto fail;
  make_layout (n, m, k, &l);
  Lh = work + l.L;
  d = work + l.d;
  st = factor_mass (n, M, Lh, d, work + l.con, iwork + l.icon, &rc);
  work[l.rcm] = rc;
  if (st != VM_OK)
    goto fail;
  x = work + l.mu;
  if (m == 0)
    {
      directions_none (n, k, f, Lh, d, x, work + l.t, qddot, mu, R);
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
  st = k == m ? directions_square (m, k, G, r, x, work, iwork, &l, &rc)
              : directions_least (n, m, k, Y, G, r, x, work, iwork, &l, &rc);
  if (st != VM_OK)
    goto fail;
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
  st = factor_mass (n, M, work + l.L, work + l.d, work + l.con, iwork + l.icon, &rc);
  work[l.rcm] = rc;
  if (st != VM_OK)
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
