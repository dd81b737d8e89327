/* reaction_dense.c -- the dense kernels of the reaction laws (reaction_dense.h): inline below
 * VM_REACTION_SMALL, BLAS/LAPACK above.
 *
 * Contract: see reaction_dense.h.  Cost: the textbook operation counts (Cholesky n^3/3, a
 * triangular solve n^2, the Gram matrix n^2 k); the small path of vm_rd_chol_rcond computes
 * |X^{-1}|_1 exactly from n solves (O(n^3)), which LAPACK's dpocon only estimates.
 */
#include <math.h>
#include <stddef.h>

#include "reference/reaction_dense.h"

/* BLAS / LAPACK (Fortran, LP64 integers; hidden lengths of CHARACTER arguments last) */
typedef size_t vm_flen;

extern void dpotrf_ (const char *uplo, const int *n, double *a, const int *lda, int *info,
                     vm_flen luplo);
extern void dpotrs_ (const char *uplo, const int *n, const int *nrhs, const double *a,
                     const int *lda, double *b, const int *ldb, int *info, vm_flen luplo);
extern void dpocon_ (const char *uplo, const int *n, const double *a, const int *lda,
                     const double *anorm, double *rcond, double *work, int *iwork, int *info,
                     vm_flen luplo);
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
extern void dgemv_ (const char *trans, const int *m, const int *n, const double *alpha,
                    const double *a, const int *lda, const double *x, const int *incx,
                    const double *beta, double *y, const int *incy, vm_flen l1);
extern double dnrm2_ (const int *n, const double *x, const int *incx);

static const int ione = 1;
static const double one = 1.0, zero = 0.0;

int
vm_rd_chol (int n, double *a)
{
  int i, j, k, info = 0;
  if (n > VM_REACTION_SMALL)
    {
      dpotrf_ ("L", &n, a, &n, &info, 1);
      return info;
    }
  for (j = 0; j < n; j++)
    {
      double djj = a[j + n * j];
      for (k = 0; k < j; k++)
        djj -= a[j + n * k] * a[j + n * k];
      if (! (djj > 0))
        return j + 1;
      djj = sqrt (djj);
      a[j + n * j] = djj;
      for (i = j + 1; i < n; i++)
        {
          double v = a[i + n * j];
          for (k = 0; k < j; k++)
            v -= a[i + n * k] * a[j + n * k];
          a[i + n * j] = v / djj;
        }
    }
  return 0;
}

/* the inline triangular solve with L of leading dimension n */
static void
small_trsv (char trans, int n, const double *a, double *x)
{
  int i, k;
  if (trans == 'N')
    for (i = 0; i < n; i++)
      {
        double v = x[i];
        for (k = 0; k < i; k++)
          v -= a[i + n * k] * x[k];
        x[i] = v / a[i + n * i];
      }
  else
    for (i = n - 1; i >= 0; i--)
      {
        double v = x[i];
        for (k = i + 1; k < n; k++)
          v -= a[k + n * i] * x[k];
        x[i] = v / a[i + n * i];
      }
}

void
vm_rd_lower_solve (char trans, int n, const double *L, double *x)
{
  const char tr[2] = { trans, '\0' };
  if (n > VM_REACTION_SMALL)
    {
      dtrsv_ ("L", tr, "N", &n, L, &n, x, &ione, 1, 1, 1);
      return;
    }
  small_trsv (trans, n, L, x);
}

void
vm_rd_lower_solve_cols (int n, int ncol, const double *L, double *X)
{
  int c;
  if (n > VM_REACTION_SMALL)
    {
      dtrsm_ ("L", "L", "N", "N", &n, &ncol, &one, L, &n, X, &n, 1, 1, 1, 1);
      return;
    }
  for (c = 0; c < ncol; c++)
    small_trsv ('N', n, L, X + (size_t) n * c);
}

void
vm_rd_chol_solve (int n, const double *L, double *x)
{
  int info = 0;
  if (n > VM_REACTION_SMALL)
    {
      dpotrs_ ("L", &n, &ione, L, &n, x, &n, &info, 1);
      return;
    }
  small_trsv ('N', n, L, x);
  small_trsv ('T', n, L, x);
}

void
vm_rd_gemv (char trans, int m, int n, double alpha, const double *a, const double *x,
            double beta, double *y)
{
  int i, j;
  if (m > VM_REACTION_SMALL || n > VM_REACTION_SMALL)
    {
      const char tr[2] = { trans, '\0' };
      dgemv_ (tr, &m, &n, &alpha, a, &m, x, &ione, &beta, y, &ione, 1);
      return;
    }
  if (trans == 'N')
    for (i = 0; i < m; i++)
      {
        double v = 0;
        for (j = 0; j < n; j++)
          v += a[i + m * j] * x[j];
        y[i] = alpha * v + (beta == 0 ? 0 : beta * y[i]);
      }
  else
    for (j = 0; j < n; j++)
      {
        double v = 0;
        for (i = 0; i < m; i++)
          v += a[i + m * j] * x[i];
        y[j] = alpha * v + (beta == 0 ? 0 : beta * y[j]);
      }
}

void
vm_rd_gram (int n, int k, const double *A, double *C)
{
  int i, j, p;
  if (n > VM_REACTION_SMALL || k > VM_REACTION_SMALL)
    {
      dsyrk_ ("L", "T", &n, &k, &one, A, &k, &zero, C, &n, 1, 1);
      return;
    }
  for (j = 0; j < n; j++)
    for (i = j; i < n; i++)
      {
        double v = 0;
        for (p = 0; p < k; p++)
          v += A[p + k * i] * A[p + k * j];
        C[i + n * j] = v + 0.0;     /* as alpha v + beta c with beta = 0: -0 becomes +0 */
      }
}

double
vm_rd_norm2 (int n, const double *x)
{
  int i;
  double scale = 0, v = 0;
  if (n > VM_REACTION_SMALL)
    return dnrm2_ (&n, x, &ione);
  for (i = 0; i < n; i++)
    if (! (fabs (x[i]) <= scale))
      scale = fabs (x[i]);
  if (scale == 0 || ! isfinite (scale))
    return scale;
  for (i = 0; i < n; i++)
    {
      double u = x[i] / scale;
      v += u * u;
    }
  return scale * sqrt (v);
}

double
vm_rd_sym_norm1 (int n, const double *a, double *work)
{
  int i, j;
  double best = 0;
  if (n > VM_REACTION_SMALL)
    return dlansy_ ("1", "L", &n, a, &n, work, 1, 1);
  for (j = 0; j < n; j++)
    {
      double s = 0;
      for (i = 0; i < n; i++)
        s += fabs (i >= j ? a[i + n * j] : a[j + n * i]);
      if (! (s <= best))
        best = s;
    }
  return best;
}

int
vm_rd_chol_rcond (int n, const double *L, double anorm, double *rcond, double *work, int *iwork)
{
  int i, j, info = 0;
  double inorm = 0;
  if (n > VM_REACTION_SMALL)
    {
      dpocon_ ("L", &n, L, &n, &anorm, rcond, work, iwork, &info, 1);
      return info;
    }
  for (j = 0; j < n; j++)
    {
      double s = 0;
      for (i = 0; i < n; i++)
        work[i] = i == j ? 1.0 : 0.0;
      small_trsv ('N', n, L, work);
      small_trsv ('T', n, L, work);
      for (i = 0; i < n; i++)
        s += fabs (work[i]);
      if (! (s <= inorm))
        inorm = s;
    }
  *rcond = (anorm > 0 && inorm > 0 && isfinite (inorm)) ? 1.0 / (anorm * inorm) : 0.0;
  return 0;
}
