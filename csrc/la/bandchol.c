/* bandchol.c -- banded Cholesky factorization and its solve (bandchol.h): LAPACK's dpbtf2 and
 * dpbtrs ("L") written out, with the rank-one update of the trailing kd x kd triangle as a loop
 * over its columns. */
#include <math.h>
#include <stddef.h>

#include "la/bandchol.h"
#include "base/vm_axpy.h"

int
vm_band_chol (int n, int kd, double *ab, int ldab)
{
  return vm_band_chol_steps (n, kd, ab, ldab, 0, n);
}

int
vm_band_chol_steps (int n, int kd, double *ab, int ldab, int j0, int j1)
{
  int j, c;
  if (n < 0 || kd < 0 || ldab < kd + 1 || j0 < 0 || j1 > n || (j0 < j1 && ! ab))
    return -1;
  for (j = j0; j < j1; j++)
    {
      double *cj = ab + (size_t) j * (size_t) ldab;   /* A(j .. j + kn, j) */
      const int kn = kd < n - 1 - j ? kd : n - 1 - j;
      double ajj = cj[0], r;
      int i;
      if (! (ajj > 0.0) || ! (ajj <= HUGE_VAL))   /* not positive, NaN or infinite */
        return j + 1;
      ajj = sqrt (ajj);
      cj[0] = ajj;
      r = 1.0 / ajj;
      for (i = 1; i <= kn; i++)
        cj[i] *= r;
      /* A(j + c .. j + kn, j + c) -= L(j + c .. j + kn, j) L(j + c, j), c = 1 .. kn (dsyr) */
      for (c = 1; c <= kn; c++)
        if (cj[c] != 0.0)
          vm_axpy_neg (kn - c + 1, cj[c], cj + c, cj + (size_t) c * (size_t) ldab);
    }
  return 0;
}

void
vm_band_chol_solve (int n, int kd, const double *ab, int ldab, const double *rdiag, double *b)
{
  vm_band_chol_lower (n, kd, ab, ldab, rdiag, b, 0, n);
  vm_band_chol_upper (n, kd, ab, ldab, rdiag, b);
}

void
vm_band_chol_lower (int n, int kd, const double *ab, int ldab, const double *rdiag, double *b,
                    int j0, int j1)
{
  int j;
  for (j = j0; j < j1; j++)   /* b := L^{-1} b, columns j0 .. j1 - 1 */
    {
      const double *cj = ab + (size_t) j * (size_t) ldab;
      const int kn = kd < n - 1 - j ? kd : n - 1 - j;
      b[j] = rdiag ? b[j] * rdiag[j] : b[j] / cj[0];
      if (b[j] != 0.0)
        vm_axpy_neg (kn, b[j], cj + 1, b + j + 1);
    }
}

void
vm_band_chol_upper (int n, int kd, const double *ab, int ldab, const double *rdiag, double *b)
{
  int j, i;
  for (j = n - 1; j >= 0; j--)   /* b := L'^{-1} b, by rows of L' (columns of L) */
    {
      const double *cj = ab + (size_t) j * (size_t) ldab;
      const int kn = kd < n - 1 - j ? kd : n - 1 - j;
      double t0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0, t;   /* four chains of additions */
      /* rows j + 2 .. j + kn first: they do not wait for b[j + 1], computed just before */
      for (i = 2; i + 3 <= kn; i += 4)
        {
          t0 += cj[i] * b[j + i];
          t1 += cj[i + 1] * b[j + i + 1];
          t2 += cj[i + 2] * b[j + i + 2];
          t3 += cj[i + 3] * b[j + i + 3];
        }
      for (; i <= kn; i++)
        t0 += cj[i] * b[j + i];
      t = (b[j] - ((t0 + t1) + (t2 + t3))) - (kn >= 1 ? cj[1] * b[j + 1] : 0.0);
      b[j] = rdiag ? t * rdiag[j] : t / cj[0];
    }
}
