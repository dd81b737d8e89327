/* dense_lu.c -- LU factorization with partial pivoting of a small dense matrix (see dense_lu.h). */
#include "la/dense_lu.h"

#include <math.h>

int
vm_dense_lu (int n, double *a, int *piv, double tol)
{
  int i, j, k;
  for (k = 0; k < n; k++)
    {
      int p = k;
      double mx = fabs (a[k * n + k]);
      for (i = k + 1; i < n; i++)
        if (fabs (a[i * n + k]) > mx)
          {
            mx = fabs (a[i * n + k]);
            p = i;
          }
      if (!(mx > tol) || !isfinite (mx))
        return 1;
      piv[k] = p;
      if (p != k)
        for (j = 0; j < n; j++)
          {
            const double tmp = a[k * n + j];
            a[k * n + j] = a[p * n + j];
            a[p * n + j] = tmp;
          }
      for (i = k + 1; i < n; i++)
        {
          const double lik = a[i * n + k] /= a[k * n + k];
          if (lik != 0.0)
            for (j = k + 1; j < n; j++)
              a[i * n + j] -= lik * a[k * n + j];
        }
    }
  return 0;
}

void
vm_dense_lu_solve (int n, const double *a, const int *piv, double *b)
{
  int i, j, k;
  for (k = 0; k < n; k++)   /* the row interchanges, then the two triangular solves */
    if (piv[k] != k)
      {
        const double tmp = b[k];
        b[k] = b[piv[k]];
        b[piv[k]] = tmp;
      }
  for (i = 1; i < n; i++)
    for (j = 0; j < i; j++)
      if (a[i * n + j] != 0.0)
        b[i] -= a[i * n + j] * b[j];
  for (i = n - 1; i >= 0; i--)
    {
      for (j = i + 1; j < n; j++)
        if (a[i * n + j] != 0.0)
          b[i] -= a[i * n + j] * b[j];
      b[i] /= a[i * n + i];
    }
}
