/* test_sbp.c -- unit tests of the SBP kernel (csrc/sbp/sbp.c), plain C, no Octave.
 *
 * For every order and several n: the CSC structure; Q + Q^T = B; D = H^{-1} Q; rows of D sum to 0;
 * D exact on polynomials up to degree p on all rows and up to 2p on interior rows; the H quadrature
 * exact up to degree 2p - 1; matrix-free D x and D^T x equal the CSC products; argument validation.
 * Tolerances are rounding bounds: TOLF * eps * (sum of |terms|) of the quantity checked, TOLF = 64.
 *
 * Which operator each order is: the order-8 closure has the free parameters (Q_67, Q_68, Q_78) =
 * (0.51482342, -0.05836005, 0.74573169) of doc/sbp.md (with the accuracy conditions, which the
 * checks above verify and which have full rank, they determine the block), and the spectral facts
 * doc/sbp.md states at N = 64, to the digits printed there: h rho(D) and the smallest |eigenvalue|
 * of h (D + H^{-1} e1 e1'), eigenvalues by a small Hessenberg QR written here (no LAPACK). */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sbp/sbp.h"
#include "base/vm_status.h"
#include "vmtest.h"

#define TOLF 64.0

static double
ipow (double x, int k)
{
  double r = 1.0;
  while (k-- > 0)
    r *= x;
  return r;
}

/* dense n x n column-major copy of a CSC matrix */
static double *
dense_from_csc (int64_t n, const int64_t *cp, const int64_t *ri, const double *v)
{
  double *a = calloc ((size_t) (n * n), sizeof (double));
  int64_t j, k;
  if (a == NULL)
    return NULL;
  for (j = 0; j < n; j++)
    for (k = cp[j]; k < cp[j + 1]; k++)
      a[ri[k] + j * n] = v[k];
  return a;
}

static void
check_operator (int order, int64_t n, double t0, double tf)
{
  vm_sbp op;
  const int p = order / 2;
  int st = vm_sbp_init (&op, order, n, t0, tf);
  int64_t nnz, i, j, k;
  int64_t *cp = NULL, *ri = NULL, *cpd = NULL, *rid = NULL;
  double *qv = NULL, *dv = NULL, *Q = NULL, *D = NULL, *hd = NULL, *t = NULL, *x = NULL, *y = NULL,
         *z = NULL;
  double maxerr;
  int deg, ok;

  CHECK (st == VM_OK, "order %d n %lld: init status %d", order, (long long) n, st);
  if (st != VM_OK)
    return;
  nnz = vm_sbp_nnz (&op);
  cp = malloc ((size_t) (n + 1) * sizeof *cp);
  cpd = malloc ((size_t) (n + 1) * sizeof *cpd);
  ri = malloc ((size_t) nnz * sizeof *ri);
  rid = malloc ((size_t) nnz * sizeof *rid);
  qv = malloc ((size_t) nnz * sizeof *qv);
  dv = malloc ((size_t) nnz * sizeof *dv);
  hd = malloc ((size_t) n * sizeof *hd);
  t = malloc ((size_t) n * sizeof *t);
  x = malloc ((size_t) n * 2 * sizeof *x);
  y = malloc ((size_t) n * 2 * sizeof *y);
  z = malloc ((size_t) n * 2 * sizeof *z);
  if (! cp || ! cpd || ! ri || ! rid || ! qv || ! dv || ! hd || ! t || ! x || ! y || ! z)
    {
      CHECK (0, "allocation failed");
      goto done;
    }
  vm_sbp_csc (&op, 0, cp, ri, qv);
  vm_sbp_csc (&op, 1, cpd, rid, dv);
  vm_sbp_weights (&op, hd);

  /* CSC structure: monotone column pointers, sorted in-range rows, identical patterns for Q and D */
  ok = cp[0] == 0 && cp[n] == nnz && memcmp (cp, cpd, (size_t) (n + 1) * sizeof *cp) == 0
       && memcmp (ri, rid, (size_t) nnz * sizeof *ri) == 0;
  for (j = 0; j < n && ok; j++)
    for (k = cp[j]; k < cp[j + 1]; k++)
      if (ri[k] < 0 || ri[k] >= n || (k > cp[j] && ri[k] <= ri[k - 1]) || qv[k] == 0.0)
        ok = 0;
  CHECK (ok, "order %d n %lld: malformed CSC", order, (long long) n);

  Q = dense_from_csc (n, cp, ri, qv);
  D = dense_from_csc (n, cpd, rid, dv);
  if (! Q || ! D)
    {
      CHECK (0, "allocation failed");
      goto done;
    }

  /* Q + Q^T = B; Q entries are O(1), so the sum of two entries is exact to ~eps */
  maxerr = 0.0;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      {
        double b = (i == j) ? (i == 0 ? -1.0 : (i == n - 1 ? 1.0 : 0.0)) : 0.0;
        double e = fabs (Q[i + j * n] + Q[j + i * n] - b);
        if (e > maxerr)
          maxerr = e;
      }
  CHECK (maxerr <= TOLF * DBL_EPSILON, "order %d n %lld: |Q + Q' - B| = %g", order, (long long) n,
         maxerr);

  /* D = H^{-1} Q entrywise, and rows of D sum to zero */
  ok = 1;
  for (i = 0; i < n; i++)
    {
      double s = 0.0, sa = 0.0;
      for (j = 0; j < n; j++)
        {
          double dij = D[i + j * n], ref = Q[i + j * n] / hd[i];
          if (fabs (dij - ref) > 4 * DBL_EPSILON * fabs (ref))
            ok = 0;
          s += dij;
          sa += fabs (dij);
        }
      if (fabs (s) > TOLF * DBL_EPSILON * sa)
        ok = 0;
    }
  CHECK (ok, "order %d n %lld: D ~= H\\Q or a row sum of D is not zero", order, (long long) n);

  /* polynomial exactness of D; grid on [t0, tf] */
  for (i = 0; i < n; i++)
    t[i] = t0 + (double) i * op.h;
  for (deg = 0; deg <= order; deg++)
    {
      double worst = 0.0;
      for (i = 0; i < n; i++)
        {
          int interior = i >= op.nb && i < n - op.nb;
          double s = 0.0, sa = 0.0, exact = deg ? deg * ipow (t[i], deg - 1) : 0.0;
          if (deg > p && ! interior)
            continue;
          for (j = 0; j < n; j++)
            {
              double term = D[i + j * n] * ipow (t[j], deg);
              s += term;
              sa += fabs (term);
            }
          sa += fabs (exact);
          if (fabs (s - exact) / sa > worst)
            worst = fabs (s - exact) / sa;
        }
      CHECK (worst <= TOLF * DBL_EPSILON, "order %d n %lld: D t^%d inexact (rel %g)", order,
             (long long) n, deg, worst);
    }

  /* quadrature exact up to degree 2p - 1 */
  for (deg = 0; deg <= 2 * p - 1; deg++)
    {
      double s = 0.0, sa = 0.0,
             exact = (ipow (tf, deg + 1) - ipow (t0, deg + 1)) / (deg + 1);
      for (i = 0; i < n; i++)
        {
          s += hd[i] * ipow (t[i], deg);
          sa += fabs (hd[i] * ipow (t[i], deg));
        }
      CHECK (fabs (s - exact) <= TOLF * DBL_EPSILON * (sa + fabs (exact)),
             "order %d n %lld: quadrature of t^%d: %.17g vs %.17g", order, (long long) n, deg, s,
             exact);
    }

  /* matrix-free apply (two columns, padded leading dimension) vs dense products */
  for (k = 0; k < 2; k++)
    for (i = 0; i < n; i++)
      x[i + k * n] = sin (3.0 * t[i] + (double) k) + 0.25 * (double) ((i * 7 + k) % 5);
  {
    int trans;
    for (trans = 0; trans <= 1; trans++)
      {
        double worst = 0.0;
        vm_sbp_apply (&op, trans, 2, x, n, y, n);
        for (k = 0; k < 2; k++)
          for (i = 0; i < n; i++)
            {
              double s = 0.0, sa = 0.0;
              for (j = 0; j < n; j++)
                {
                  double a = trans ? D[j + i * n] : D[i + j * n];
                  s += a * x[j + k * n];
                  sa += fabs (a * x[j + k * n]);
                }
              z[i + k * n] = s;
              if (fabs (y[i + k * n] - s) / (sa > 0 ? sa : 1.0) > worst)
                worst = fabs (y[i + k * n] - s) / (sa > 0 ? sa : 1.0);
            }
        CHECK (worst <= TOLF * DBL_EPSILON, "order %d n %lld trans %d: apply differs (rel %g)",
               order, (long long) n, trans, worst);
      }
  }

done:
  free (cp); free (cpd); free (ri); free (rid); free (qv); free (dv); free (Q); free (D);
  free (hd); free (t); free (x); free (y); free (z);
}

/* Eigenvalues of a real n x n matrix a (column-major, overwritten): reduction to Hessenberg form by
 * stabilized elementary similarity transformations, then the complex single-shift QR algorithm
 * (Wilkinson shift, Givens rotations, deflation on negligible subdiagonals).  Returns 0 on success. */
static int
eigvals (int n, double *a, double complex *ev)
{
  double complex *h = malloc ((size_t) n * (size_t) n * sizeof *h),
                 *cs = malloc ((size_t) n * sizeof *cs), *sn = malloc ((size_t) n * sizeof *sn);
  int i, j, m, lo, hi, its = 0, nev = 0;
#define A(r, c) a[(r) + (c) * n]
#define Hc(r, c) h[(r) + (c) * n]
  if (h == NULL || cs == NULL || sn == NULL)
    {
      free (h); free (cs); free (sn);
      return -1;
    }
  for (m = 1; m < n - 1; m++)
    {
      int piv = m;
      for (i = m + 1; i < n; i++)
        if (fabs (A (i, m - 1)) > fabs (A (piv, m - 1)))
          piv = i;
      if (A (piv, m - 1) == 0.0)
        continue;
      if (piv != m)
        {
          for (j = 0; j < n; j++)
            {
              double s = A (piv, j); A (piv, j) = A (m, j); A (m, j) = s;
            }
          for (i = 0; i < n; i++)
            {
              double s = A (i, piv); A (i, piv) = A (i, m); A (i, m) = s;
            }
        }
      for (i = m + 1; i < n; i++)
        {
          double f = A (i, m - 1) / A (m, m - 1);
          if (f == 0.0)
            continue;
          for (j = m - 1; j < n; j++)
            A (i, j) -= f * A (m, j);
          for (j = 0; j < n; j++)
            A (j, m) += f * A (j, i);
        }
    }
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      Hc (i, j) = A (i, j);
  hi = n - 1;
  while (hi >= 0)
    {
      double complex mu;
      int k;
      lo = hi;
      while (lo > 0 && cabs (Hc (lo, lo - 1)) > DBL_EPSILON * (cabs (Hc (lo - 1, lo - 1)) + cabs (Hc (lo, lo))))
        lo--;
      if (lo > 0)
        Hc (lo, lo - 1) = 0.0;
      if (lo == hi)
        {
          ev[nev++] = Hc (hi, hi);
          hi--;
          its = 0;
          continue;
        }
      if (++its > 60 * n)
        {
          free (h); free (cs); free (sn);
          return -1;
        }
      if (its % 11 == 0)
        mu = Hc (hi, hi) + cabs (Hc (hi, hi - 1));   /* exceptional shift */
      else
        {
          double complex ta = Hc (hi - 1, hi - 1), tb = Hc (hi - 1, hi), tc = Hc (hi, hi - 1),
                         td = Hc (hi, hi), tr = ta + td, s = csqrt (tr * tr / 4.0 - (ta * td - tb * tc)),
                         m1 = tr / 2.0 + s, m2 = tr / 2.0 - s;
          mu = cabs (m1 - td) < cabs (m2 - td) ? m1 : m2;
        }
      for (k = lo; k <= hi; k++)
        Hc (k, k) -= mu;
      {
        for (k = lo; k < hi; k++)
          {
            double complex x = Hc (k, k), y = Hc (k + 1, k);
            double r = hypot (cabs (x), cabs (y));
            cs[k - lo] = r == 0.0 ? 1.0 : x / r;
            sn[k - lo] = r == 0.0 ? 0.0 : y / r;
            for (j = k; j <= hi; j++)
              {
                double complex u = Hc (k, j), v = Hc (k + 1, j);
                Hc (k, j) = conj (cs[k - lo]) * u + conj (sn[k - lo]) * v;
                Hc (k + 1, j) = -sn[k - lo] * u + cs[k - lo] * v;
              }
          }
        for (k = lo; k < hi; k++)
          for (i = lo; i <= (k + 2 < hi ? k + 2 : hi); i++)
            {
              double complex u = Hc (i, k), v = Hc (i, k + 1);
              Hc (i, k) = u * cs[k - lo] + v * sn[k - lo];
              Hc (i, k + 1) = -u * conj (sn[k - lo]) + v * conj (cs[k - lo]);
            }
      }
      for (k = lo; k <= hi; k++)
        Hc (k, k) += mu;
    }
#undef A
#undef Hc
  free (h); free (cs); free (sn);
  return 0;
}

/* h rho(D) and min |eig (h (D + H^{-1} e1 e1'))| at n points (h = 1) */
static int
spectral (int order, int n, double *rho, double *lmin)
{
  vm_sbp op;
  int64_t *cp = malloc ((size_t) (n + 1) * sizeof *cp), *ri = NULL, nnz;
  double *v = NULL, *d = NULL;
  double complex *ev = malloc ((size_t) n * sizeof *ev);
  int st = -1, pass, k;
  if (cp == NULL || ev == NULL || vm_sbp_init (&op, order, n, 0.0, (double) (n - 1)) != VM_OK)
    goto out;
  nnz = vm_sbp_nnz (&op);
  ri = malloc ((size_t) nnz * sizeof *ri);
  v = malloc ((size_t) nnz * sizeof *v);
  if (ri == NULL || v == NULL)
    goto out;
  vm_sbp_csc (&op, 1, cp, ri, v);
  for (pass = 0; pass < 2; pass++)
    {
      double r = 0.0, l = INFINITY;
      free (d);
      d = dense_from_csc (n, cp, ri, v);
      if (d == NULL)
        goto out;
      if (pass == 1)
        d[0] += 1.0 / op.wb[0];   /* h = 1: H_11 = w_1 */
      if (eigvals (n, d, ev) != 0)
        goto out;
      for (k = 0; k < n; k++)
        {
          r = fmax (r, cabs (ev[k]));
          l = fmin (l, cabs (ev[k]));
        }
      if (pass == 0)
        *rho = r;
      else
        *lmin = l;
    }
  st = 0;
out:
  free (cp); free (ri); free (v); free (d); free (ev);
  return st;
}

/* the operator of each order is the documented one (doc/sbp.md) */
static void
check_identity (void)
{
  /* doc/sbp.md, N = 64: h rho(D) and min |eig h D_sat| to the printed digits (half a unit of the
     last printed digit: 0.005 and 0.0005) */
  static const int orders[] = { 2, 4, 6, 8 };
  static const double rho_doc[] = { 1.00, 1.37, 1.80, 2.00 };
  static const double lmin_doc[] = { 0.098, 0.144, 0.165, 0.205 };
  vm_sbp op;
  int o;
  vm_sbp_init (&op, 8, 16, 0.0, 1.0);
  /* 1-based Q_67, Q_68, Q_78 of the boundary block (h = 1): the decimals of doc/sbp.md; every
     table entry is the double nearest the exact rational, so equality is exact */
  CHECK (op.qb[5 * 8 + 6] == 0.51482342 && op.qb[5 * 8 + 7] == -0.05836005
         && op.qb[6 * 8 + 7] == 0.74573169,
         "order 8: free parameters (Q_67, Q_68, Q_78) = (%.17g, %.17g, %.17g), expected "
         "(0.51482342, -0.05836005, 0.74573169)", op.qb[5 * 8 + 6], op.qb[5 * 8 + 7], op.qb[6 * 8 + 7]);
  for (o = 0; o < 4; o++)
    {
      double rho = NAN, lmin = NAN;
      int st = spectral (orders[o], 64, &rho, &lmin);
      CHECK (st == 0, "order %d: eigenvalues failed", orders[o]);
      CHECK (fabs (rho - rho_doc[o]) <= 0.005, "order %d, N = 64: h rho(D) = %.4f, doc/sbp.md: %.2f",
             orders[o], rho, rho_doc[o]);
      CHECK (fabs (lmin - lmin_doc[o]) <= 0.0005,
             "order %d, N = 64: min |eig h (D + H^-1 e1 e1')| = %.4f, doc/sbp.md: %.3f", orders[o],
             lmin, lmin_doc[o]);
    }
}

static void
check_validation (void)
{
  vm_sbp op;
  static const int bad_orders[] = { -2, 0, 1, 3, 5, 10 };
  size_t k;
  CHECK (vm_sbp_min_n (2) == 2 && vm_sbp_min_n (4) == 8 && vm_sbp_min_n (6) == 12
         && vm_sbp_min_n (8) == 16 && vm_sbp_min_n (3) == -1, "minimum sizes");
  {
    char text[32];
    CHECK (vm_sbp_order_count () == 4 && vm_sbp_order_at (0) == 2 && vm_sbp_order_at (3) == 8
           && vm_sbp_order_at (4) == -1 && vm_sbp_order_at (-1) == -1 && vm_sbp_max_order () == 8,
           "the list of orders");
    CHECK (vm_sbp_companion_order (2) == 4 && vm_sbp_companion_order (6) == 8
           && vm_sbp_companion_order (8) == 6 && vm_sbp_companion_order (5) == -1,
           "companion orders");
    CHECK (vm_sbp_orders_text (text, sizeof text) == 10 && strcmp (text, "2, 4, 6, 8") == 0
           && vm_sbp_orders_text (NULL, 0) == 10, "the list as text");
    CHECK (vm_sbp_orders_text (text, 5) == 10 && text[0] == '\0', "the list does not fit");
    CHECK (strcmp (vm_status_string (VM_EORDER), "order must be one of 2, 4, 6, 8") == 0,
           "the order message");
  }
  for (k = 0; k < sizeof bad_orders / sizeof bad_orders[0]; k++)
    CHECK (vm_sbp_init (&op, bad_orders[k], 100, 0, 1) == VM_EORDER, "order %d accepted",
           bad_orders[k]);
  CHECK (vm_sbp_init (&op, 4, 7, 0, 1) == VM_ESIZE, "n = 7 accepted for order 4");
  CHECK (vm_sbp_init (&op, 8, 15, 0, 1) == VM_ESIZE, "n = 15 accepted for order 8");
  CHECK (vm_sbp_init (&op, 2, 1, 0, 1) == VM_ESIZE, "n = 1 accepted");
  CHECK (vm_sbp_init (&op, 2, -5, 0, 1) == VM_ESIZE, "n = -5 accepted");
  CHECK (vm_sbp_init (&op, 2, 10, 1, 1) == VM_EINTERVAL, "empty interval accepted");
  CHECK (vm_sbp_init (&op, 2, 10, 1, 0) == VM_EINTERVAL, "reversed interval accepted");
  CHECK (vm_sbp_init (&op, 2, 10, NAN, 1) == VM_EINTERVAL, "NaN t0 accepted");
  CHECK (vm_sbp_init (&op, 2, 10, 0, INFINITY) == VM_EINTERVAL, "Inf tf accepted");
  CHECK (vm_sbp_init (&op, 2, 10, -1e308, 1e308) == VM_EINTERVAL, "overflowing interval accepted");
  CHECK (vm_sbp_init (&op, 8, 1000, 0, 1e-305) == VM_ESTEP, "underflowing step accepted");
  CHECK (vm_sbp_init (&op, 8, 1000, 0, 1e-290) == VM_OK, "tiny but representable step rejected");
  CHECK (vm_sbp_init (NULL, 2, 10, 0, 1) == VM_EARG, "NULL operator accepted");
  CHECK (strcmp (vm_status_string (VM_EORDER), "order must be one of 2, 4, 6, 8") == 0
         && vm_status_string (12345) != NULL, "status strings");
}

/* the O(n) nnz count and fill agree with the pattern obtained entry by entry */
/* at the smallest representable steps, every entry of D is finite or init refuses the grid */
static void
check_tiny_step (int order)
{
  static const double lens[] = { 1e-300, 1e-305, 1e-307, 4e-308 };
  size_t k;
  for (k = 0; k < sizeof lens / sizeof lens[0]; k++)
    {
      vm_sbp op;
      int64_t n = 3 * vm_sbp_min_n (order), nnz, i;
      int64_t *cp, *ri;
      double *v;
      int st = vm_sbp_init (&op, order, n, 0.0, lens[k] * (double) (n - 1)), ok = 1;
      if (st != VM_OK)
        {
          CHECK (st == VM_ESTEP, "order %d: status %d for a tiny step", order, st);
          continue;
        }
      nnz = vm_sbp_nnz (&op);
      cp = malloc ((size_t) (n + 1) * sizeof *cp);
      ri = malloc ((size_t) nnz * sizeof *ri);
      v = malloc ((size_t) nnz * sizeof *v);
      if (cp && ri && v)
        {
          vm_sbp_csc (&op, 1, cp, ri, v);
          for (i = 0; i < nnz; i++)
            if (! isfinite (v[i]))
              ok = 0;
          CHECK (ok, "order %d: accepted h = %g but D has a non-finite entry", order, op.h);
        }
      else
        CHECK (0, "allocation failed");
      free (cp);
      free (ri);
      free (v);
    }
}

static void
check_large (int order, int64_t n)
{
  vm_sbp op;
  int64_t nnz, cnt = 0, i, j;
  vm_sbp_init (&op, order, n, -2.0, 3.0);
  nnz = vm_sbp_nnz (&op);
  for (j = 0; j < n; j++)
    for (i = j - op.bw; i <= j + op.bw; i++)
      if (i >= 0 && i < n && vm_sbp_q (&op, i, j) != 0.0)
        cnt++;
  CHECK (nnz == cnt, "order %d n %lld: nnz %lld vs pattern %lld", order, (long long) n,
         (long long) nnz, (long long) cnt);
}

int
main (void)
{
  static const int orders[] = { 2, 4, 6, 8 };
  int o;
  check_validation ();
  check_identity ();
  for (o = 0; o < 4; o++)
    {
      int64_t nmin = vm_sbp_min_n (orders[o]);
      int64_t ns[] = { nmin, nmin + 1, 2 * nmin + 3, 41, 100 };
      size_t k;
      for (k = 0; k < sizeof ns / sizeof ns[0]; k++)
        check_operator (orders[o], ns[k], -0.7, 1.3);
      check_operator (orders[o], 64, 0.0, 2.0 * 3.141592653589793);
      check_large (orders[o], 1000);
      check_tiny_step (orders[o]);
    }
  return vmtest_finish ("test_sbp");
}
