/* gauss_legendre.c -- one step of the implicit Gauss-Legendre collocation methods GL4 (2 stages,
 * order 4) and GL6 (3 stages, order 6) for the fixed-step driver ode_fixed.c.
 *
 * Contract: vm_gl_attempt solves the stage equations Z = h (A (x) I) F(t + c h, y + Z) by
 * simplified Newton with the matrix I - h A (x) J (dense (s n) x (s n), LAPACK dgetrf/dgetrs, so
 * meant for small and moderate n: O((s n)^3) per factorization), J the forward-difference
 * Jacobian of F at the step's start (vm_gl_jacobian, n evaluations), starting from the previous
 * step's collocation polynomial extrapolated (first step: explicit Euler).  It stops at
 * |increment|_inf <= newton_tol (1 + |y|_inf) and reports failure (*ok = 0) after newton_maxit
 * iterations, two non-decreasing increments, a singular matrix or non-finite values (*nonfinite).
 * The new state y0 + h sum b_i F(Y_i) uses F at the converged stages with compensated summation,
 * so quadratic invariants drift by rounding only; its rounding error is kept in w->compn until
 * the caller commits the step.  A nonzero return is the RHS's code.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "reference/ode_mem.h"
#include "base/vm_status.h"

/* LAPACK (Fortran 77 interface, 32-bit integers as in Octave's LAPACK_LIBS).  The trailing size_t
 * of dgetrs_ is the hidden length of the character argument (gfortran ABI); a C implementation
 * ignores it. */
extern void dgetrf_ (const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void dgetrs_ (const char *trans, const int *n, const int *nrhs, const double *a,
                     const int *lda, const int *ipiv, double *b, const int *ldb, int *info,
                     size_t trans_len);

/* A row-major, correctly rounded, except GL4's a12 = 1/2 - a21 (exact by Sterbenz' lemma), so
 * that the stored GL4 coefficients satisfy the symplecticity condition b_i a_ij + b_j a_ji =
 * b_i b_j exactly */
static const double gl4_c[2] = { 0.2113248654051871177454, 0.7886751345948128822546 };
static const double gl4_a[4] = { 0.25, 0.5 - 0.5386751345948128822546,
                                 0.5386751345948128822546, 0.25 };
static const double gl4_b[2] = { 0.5, 0.5 };
static const double gl6_c[3] = { 0.1127016653792583114821, 0.5, 0.8872983346207416885179 };
static const double gl6_a[9] = { 0.1388888888888888888889, -0.0359766675249389034564,
                                 0.00978944401530832604958,
                                 0.300263194980864592438, 0.2222222222222222222222,
                                 -0.02248541720308681466025,
                                 0.2679883337624694517282, 0.4804211119693833479008,
                                 0.1388888888888888888889 };
static const double gl6_b[3] = { 5.0 / 18.0, 4.0 / 9.0, 5.0 / 18.0 };

void
vm_gl_setup (vm_ode_mem *w)
{
  w->gc = w->s == 2 ? gl4_c : gl6_c;
  w->ga = w->s == 2 ? gl4_a : gl6_a;
  w->gb = w->s == 2 ? gl4_b : gl6_b;
}

/* forward-difference Jacobian of F at (w->t, w->y) into w->J (column-major n x n) */
int
vm_gl_jacobian (vm_ode_mem *w)
{
  const int n = w->n;
  int i, j, st;
  double *yp = w->ytmp, *fp = w->r;     /* r (s n >= n) is free here */
  memcpy (yp, w->y, (size_t) n * sizeof (double));
  for (j = 0; j < n; j++)
    {
      const double yj = w->y[j];
      double del = sqrt (DBL_EPSILON) * fmax (fabs (yj), 1.0);
      yp[j] = yj + del;
      del = yp[j] - yj;
      st = vm_ode_rhs (w, w->t, yp, fp);
      yp[j] = yj;
      if (st != 0)
        return st;
      if (! vm_ode_all_finite (n, fp))
        return VM_ENONFINITE;
      for (i = 0; i < n; i++)
        w->J[i + (size_t) j * n] = (fp[i] - w->fy[i]) / del;
    }
  w->sol->njac++;
  return VM_OK;
}

/* M = I - hs A (x) J (column-major sn x sn), LU-factorized: 1, or 0 when singular */
static int
gl_matrix (vm_ode_mem *w, double hs)
{
  const int n = w->n, s = w->s;
  int sn = s * n, i, j, p, q, info;
  const double *A = w->ga;
  for (j = 0; j < s; j++)
    for (q = 0; q < n; q++)
      {
        double *col = w->M + (size_t) (j * n + q) * (size_t) sn;
        for (i = 0; i < s; i++)
          {
            const double ha = hs * A[i * s + j];
            for (p = 0; p < n; p++)
              col[i * n + p] = -ha * w->J[p + (size_t) q * n];
          }
        col[j * n + q] += 1.0;
      }
  dgetrf_ (&sn, &sn, w->M, &sn, w->ipiv, &info);
  w->sol->nlu++;
  return info == 0;
}

/* the starting guess Z: extrapolated collocation polynomial of the previous step, else Euler */
static void
gl_guess (vm_ode_mem *w, double hs)
{
  const int n = w->n, s = w->s;
  const double *c = w->gc;
  int i, j, p;
  if (! w->have_prev)
    {
      for (j = 0; j < s; j++)
        for (p = 0; p < n; p++)
          w->Z[j * n + p] = c[j] * hs * w->fy[p];
      return;
    }
  {
    const double rr = hs / w->hprev;
    for (j = 0; j < s; j++)
      {
        const double x = 1.0 + c[j] * rr;
        double *zj = w->Z + j * n;
        for (p = 0; p < n; p++)
          zj[p] = 0.0;
        for (i = 0; i < s; i++)
          {
            /* Lagrange basis on the nodes {0, c_1..c_s}: L_i(x) - L_i(1) */
            double lx = 1.0, l1 = 1.0, wgt;
            int m;
            lx *= x / c[i];
            l1 *= 1.0 / c[i];
            for (m = 0; m < s; m++)
              if (m != i)
                {
                  lx *= (x - c[m]) / (c[i] - c[m]);
                  l1 *= (1.0 - c[m]) / (c[i] - c[m]);
                }
            wgt = lx - l1;
            for (p = 0; p < n; p++)
              zj[p] += wgt * w->Zp[i * n + p];
          }
      }
  }
}

/* F at the stages, Fz_i = F(t + c_i hs, y + Z_i); *nonfinite = 1 (and VM_OK) at a non-finite
 * value; a nonzero return is the RHS code */
static int
gl_stage_rhs (vm_ode_mem *w, double hs, int *nonfinite)
{
  const int n = w->n, s = w->s;
  int i, p, st;
  for (i = 0; i < s; i++)
    {
      for (p = 0; p < n; p++)
        w->ytmp[p] = w->y[p] + w->Z[i * n + p];
      st = vm_ode_rhs (w, w->t + w->gc[i] * hs, w->ytmp, w->Fz + i * n);
      if (st != 0)
        return st;
      if (! vm_ode_all_finite (n, w->Fz + i * n))
        {
          *nonfinite = 1;
          return VM_OK;
        }
    }
  return VM_OK;
}

/* the simplified Newton iteration for Z (M factorized): *ok = 1 on convergence to tolabs */
static int
gl_newton (vm_ode_mem *w, double hs, double tolabs, int *ok, int *nonfinite)
{
  const int n = w->n, s = w->s, maxit = w->o->newton_maxit > 0 ? w->o->newton_maxit : 50;
  const double *A = w->ga;
  double nrm_prev = 0.0;
  int sn = s * n, i, j, p, it, info, st, nrhs = 1, ndiv = 0;
  for (it = 0; it < maxit; it++)
    {
      double nrm = 0.0;
      if ((st = gl_stage_rhs (w, hs, nonfinite)) != 0 || *nonfinite)
        return st;
      for (i = 0; i < s; i++)
        for (p = 0; p < n; p++)
          {
            double acc = 0.0;
            for (j = 0; j < s; j++)
              acc += A[i * s + j] * w->Fz[j * n + p];
            w->r[i * n + p] = hs * acc - w->Z[i * n + p];
          }
      dgetrs_ ("N", &sn, &nrhs, w->M, &sn, w->ipiv, w->r, &sn, &info, 1);
      w->sol->nnewton_iter++;
      for (i = 0; i < sn; i++)
        {
          w->Z[i] += w->r[i];
          nrm = fmax (nrm, fabs (w->r[i]));
        }
      if (! isfinite (nrm) || ! vm_ode_all_finite (sn, w->Z))
        {
          *nonfinite = 1;
          return VM_OK;
        }
      if (nrm <= tolabs)
        {
          *ok = 1;
          break;
        }
      if (it > 0 && nrm >= nrm_prev)
        {
          if (++ndiv >= 2)
            return VM_OK;       /* diverging */
        }
      else
        ndiv = 0;
      nrm_prev = nrm;
    }
  return VM_OK;
}

/* One attempt of a Gauss step of size hs from (w->t, w->y) to tn.  *ok = 1 on convergence (then
 * w->yn holds the new state and w->compn its compensation, to be committed to w->comp when the
 * step is kept); *ok = 0 on Newton failure, *nonfinite = 1 if it was caused by non-finite values.
 * A nonzero return is a fatal status (RHS code). */
int
vm_gl_attempt (vm_ode_mem *w, double hs, int *ok, int *nonfinite)
{
  const int n = w->n, s = w->s;
  const double ntol = fmax (w->o->newton_tol > 0.0 ? w->o->newton_tol : 1e-14, 4.0 * DBL_EPSILON);
  const double *b = w->gb;
  double ynorm = 0.0, tolabs;
  int i, p, st;

  *ok = 0;
  *nonfinite = 0;
  for (i = 0; i < n; i++)
    ynorm = fmax (ynorm, fabs (w->y[i]));
  tolabs = ntol * (1.0 + ynorm);

  if (! gl_matrix (w, hs))
    return VM_OK;               /* singular: treated as a Newton failure */
  gl_guess (w, hs);
  if ((st = gl_newton (w, hs, tolabs, ok, nonfinite)) != 0 || ! *ok)
    return st;

  /* y1 = y0 + h sum b_i F(t + c_i h, y0 + Z_i) with F at the converged stages and compensated
   * summation of the increments: s evaluations more than y0 + sum_i (b^T A^{-1})_i Z_i, taken
   * because it keeps the rounding drift of quadratic invariants smaller */
  if ((st = gl_stage_rhs (w, hs, nonfinite)) != 0)
    return st;
  if (*nonfinite)
    {
      *ok = 0;
      return VM_OK;
    }
  for (p = 0; p < n; p++)
    {
      double inc = w->comp[p], ynew;
      for (i = 0; i < s; i++)
        inc += hs * b[i] * w->Fz[i * n + p];
      ynew = w->y[p] + inc;
      w->compn[p] = (w->y[p] - ynew) + inc;
      w->yn[p] = ynew;
    }
  return VM_OK;
}

