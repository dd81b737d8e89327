/* integrate.c -- ODE integrators: DOPRI5, DOP853, Gauss-Legendre 4/6, RK4, with dense output and
 * events.  See integrate.h.  All work storage is allocated once per call; the only allocations
 * during the integration are the amortized (doubling) growth of the solution arrays. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reference/integrate.h"
#include "base/vm_status.h"

/* LAPACK (Fortran 77 interface, 32-bit integers as in Octave's LAPACK_LIBS).  The trailing size_t
 * of dgetrs_ is the hidden length of the character argument (gfortran ABI); a C implementation
 * ignores it. */
extern void dgetrf_ (const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void dgetrs_ (const char *trans, const int *n, const int *nrhs, const double *a,
                     const int *lda, const int *ipiv, double *b, const int *ldb, int *info,
                     size_t trans_len);

/* ---- Dormand-Prince 5(4) ---------------------------------------------------------------------- */
static const double c2 = 0.2, c3 = 0.3, c4 = 0.8, c5 = 8.0 / 9.0;
static const double a21 = 0.2;
static const double a31 = 3.0 / 40.0, a32 = 9.0 / 40.0;
static const double a41 = 44.0 / 45.0, a42 = -56.0 / 15.0, a43 = 32.0 / 9.0;
static const double a51 = 19372.0 / 6561.0, a52 = -25360.0 / 2187.0, a53 = 64448.0 / 6561.0,
                    a54 = -212.0 / 729.0;
static const double a61 = 9017.0 / 3168.0, a62 = -355.0 / 33.0, a63 = 46732.0 / 5247.0,
                    a64 = 49.0 / 176.0, a65 = -5103.0 / 18656.0;
static const double a71 = 35.0 / 384.0, a73 = 500.0 / 1113.0, a74 = 125.0 / 192.0,
                    a75 = -2187.0 / 6784.0, a76 = 11.0 / 84.0;
static const double e1 = 71.0 / 57600.0, e3 = -71.0 / 16695.0, e4 = 71.0 / 1920.0,
                    e5 = -17253.0 / 339200.0, e6 = 22.0 / 525.0, e7 = -1.0 / 40.0;
/* Hairer's continuous extension (DOPRI5, CONTD5) */
static const double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                    d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                    d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;

/* ---- Dormand-Prince 8(5,3) (DOP853) ------------------------------------------------------------
 * Hairer, Norsett and Wanner, Solving ODEs I (2nd ed., 1993), Sec. II.5/II.6, and the
 * coefficients of Hairer's code dop853.f (version of October 11, 2009).  Stages are numbered from
 * 0: stages 0..11 give the step, row 12 of A is b (stage 12 is the new point, its derivative is
 * reused as stage 0 of the next step: FSAL), stages 13..15 serve the 7th-order dense output only.
 * The order conditions of (c, A, b) up to order 8, of the error weights and of the dense output
 * are checked by tests/c/test_integrate.c. */
static const double dop_c[16] = {
  0.0,
  0.526001519587677318785587544488e-01,
  0.789002279381515978178381316732e-01,
  0.118350341907227396726757197510e+00,
  0.281649658092772603273242802490e+00,
  0.333333333333333333333333333333e+00,
  0.25e+00,
  0.307692307692307692307692307692e+00,
  0.651282051282051282051282051282e+00,
  0.6e+00,
  0.857142857142857142857142857142e+00,
  1.0,
  1.0,
  0.1e+00,
  0.2e+00,
  0.777777777777777777777777777778e+00
};

static const double dop_a[16][16] = {
  [1] = { [0] = 5.26001519587677318785587544488e-2 },
  [2] = { [0] = 1.97250569845378994544595329183e-2, [1] = 5.91751709536136983633785987549e-2 },
  [3] = { [0] = 2.95875854768068491816892993775e-2, [2] = 8.87627564304205475450678981324e-2 },
  [4] = { [0] = 2.41365134159266685502369798665e-1, [2] = -8.84549479328286085344864962717e-1,
          [3] = 9.24834003261792003115737966543e-1 },
  [5] = { [0] = 3.7037037037037037037037037037e-2, [3] = 1.70828608729473871279604482173e-1,
          [4] = 1.25467687566822425016691814123e-1 },
  [6] = { [0] = 3.7109375e-2, [3] = 1.70252211019544039314978060272e-1,
          [4] = 6.02165389804559606850219397283e-2, [5] = -1.7578125e-2 },
  [7] = { [0] = 3.70920001185047927108779319836e-2, [3] = 1.70383925712239993810214054705e-1,
          [4] = 1.07262030446373284651809199168e-1, [5] = -1.53194377486244017527936158236e-2,
          [6] = 8.27378916381402288758473766002e-3 },
  [8] = { [0] = 6.24110958716075717114429577812e-1, [3] = -3.36089262944694129406857109825e0,
          [4] = -8.68219346841726006818189891453e-1, [5] = 2.75920996994467083049415600797e1,
          [6] = 2.01540675504778934086186788979e1, [7] = -4.34898841810699588477366255144e1 },
  [9] = { [0] = 4.77662536438264365890433908527e-1, [3] = -2.48811461997166764192642586468e0,
          [4] = -5.90290826836842996371446475743e-1, [5] = 2.12300514481811942347288949897e1,
          [6] = 1.52792336328824235832596922938e1, [7] = -3.32882109689848629194453265587e1,
          [8] = -2.03312017085086261358222928593e-2 },
  [10] = { [0] = -9.3714243008598732571704021658e-1, [3] = 5.18637242884406370830023853209e0,
           [4] = 1.09143734899672957818500254654e0, [5] = -8.14978701074692612513997267357e0,
           [6] = -1.85200656599969598641566180701e1, [7] = 2.27394870993505042818970056734e1,
           [8] = 2.49360555267965238987089396762e0, [9] = -3.0467644718982195003823669022e0 },
  [11] = { [0] = 2.27331014751653820792359768449e0, [3] = -1.05344954667372501984066689879e1,
           [4] = -2.00087205822486249909675718444e0, [5] = -1.79589318631187989172765950534e1,
           [6] = 2.79488845294199600508499808837e1, [7] = -2.85899827713502369474065508674e0,
           [8] = -8.87285693353062954433549289258e0, [9] = 1.23605671757943030647266201528e1,
           [10] = 6.43392746015763530355970484046e-1 },
  /* b: the 8th-order weights */
  [12] = { [0] = 5.42937341165687622380535766363e-2, [5] = 4.45031289275240888144113950566e0,
           [6] = 1.89151789931450038304281599044e0, [7] = -5.8012039600105847814672114227e0,
           [8] = 3.1116436695781989440891606237e-1, [9] = -1.52160949662516078556178806805e-1,
           [10] = 2.01365400804030348374776537501e-1, [11] = 4.47106157277725905176885569043e-2 },
  [13] = { [0] = 5.61675022830479523392909219681e-2, [6] = 2.53500210216624811088794765333e-1,
           [7] = -2.46239037470802489917441475441e-1, [8] = -1.24191423263816360469010140626e-1,
           [9] = 1.5329179827876569731206322685e-1, [10] = 8.20105229563468988491666602057e-3,
           [11] = 7.56789766054569976138603589584e-3, [12] = -8.298e-3 },
  [14] = { [0] = 3.18346481635021405060768473261e-2, [5] = 2.83009096723667755288322961402e-2,
           [6] = 5.35419883074385676223797384372e-2, [7] = -5.49237485713909884646569340306e-2,
           [10] = -1.08347328697249322858509316994e-4, [11] = 3.82571090835658412954920192323e-4,
           [12] = -3.40465008687404560802977114492e-4, [13] = 1.41312443674632500278074618366e-1 },
  [15] = { [0] = -4.28896301583791923408573538692e-1, [5] = -4.69762141536116384314449447206e0,
           [6] = 7.68342119606259904184240953878e0, [7] = 4.06898981839711007970213554331e0,
           [8] = 3.56727187455281109270669543021e-1, [12] = -1.39902416515901462129418009734e-3,
           [13] = 2.9475147891527723389556272149e0, [14] = -9.15095847217987001081870187138e0 }
};

/* 5th-order error weights (er) and the 3rd-order weights (bhh at stages 0, 8, 11) */
static const double dop_er[12] = {
  [0] = 0.1312004499419488073250102996e-01, [5] = -0.1225156446376204440720569753e+01,
  [6] = -0.4957589496572501915214079952e+00, [7] = 0.1664377182454986536961530415e+01,
  [8] = -0.3503288487499736816886487290e+00, [9] = 0.3341791187130174790297318841e+00,
  [10] = 0.8192320648511571246570742613e-01, [11] = -0.2235530786388629525884427845e-01
};
static const double dop_bhh[12] = {
  [0] = 0.244094488188976377952755905512e+00, [8] = 0.733846688281611857341361741547e+00,
  [11] = 0.220588235294117647058823529412e-01
};

/* dense output (Hairer's CONTD8): rows d4..d7 over the 16 stages */
static const double dop_d[4][16] = {
  { [0] = -0.84289382761090128651353491142e+01, [5] = 0.56671495351937776962531783590e+00,
    [6] = -0.30689499459498916912797304727e+01, [7] = 0.23846676565120698287728149680e+01,
    [8] = 0.21170345824450282767155149946e+01, [9] = -0.87139158377797299206789907490e+00,
    [10] = 0.22404374302607882758541771650e+01, [11] = 0.63157877876946881815570249290e+00,
    [12] = -0.88990336451333310820698117400e-01, [13] = 0.18148505520854727256656404962e+02,
    [14] = -0.91946323924783554000451984436e+01, [15] = -0.44360363875948939664310572000e+01 },
  { [0] = 0.10427508642579134603413151009e+02, [5] = 0.24228349177525818288430175319e+03,
    [6] = 0.16520045171727028198505394887e+03, [7] = -0.37454675472269020279518312152e+03,
    [8] = -0.22113666853125306036270938578e+02, [9] = 0.77334326684722638389603898808e+01,
    [10] = -0.30674084731089398182061213626e+02, [11] = -0.93321305264302278729567221706e+01,
    [12] = 0.15697238121770843886131091075e+02, [13] = -0.31139403219565177677282850411e+02,
    [14] = -0.93529243588444783865713862664e+01, [15] = 0.35816841486394083752465898540e+02 },
  { [0] = 0.19985053242002433820987653617e+02, [5] = -0.38703730874935176555105901742e+03,
    [6] = -0.18917813819516756882830838328e+03, [7] = 0.52780815920542364900561016686e+03,
    [8] = -0.11573902539959630126141871134e+02, [9] = 0.68812326946963000169666922661e+01,
    [10] = -0.10006050966910838403183860980e+01, [11] = 0.77771377980534432092869265740e+00,
    [12] = -0.27782057523535084065932004339e+01, [13] = -0.60196695231264120758267380846e+02,
    [14] = 0.84320405506677161018159903784e+02, [15] = 0.11992291136182789328035130030e+02 },
  { [0] = -0.25693933462703749003312586129e+02, [5] = -0.15418974869023643374053993627e+03,
    [6] = -0.23152937917604549567536039109e+03, [7] = 0.35763911791061412378285349910e+03,
    [8] = 0.93405324183624310003907691704e+02, [9] = -0.37458323136451633156875139351e+02,
    [10] = 0.10409964950896230045147246184e+03, [11] = 0.29840293426660503123344363579e+02,
    [12] = -0.43533456590011143754432175058e+02, [13] = 0.96324553959188282948394950600e+02,
    [14] = -0.39177261675615439165231486172e+02, [15] = -0.14972683625798562581422125276e+03 }
};

/* ---- Gauss-Legendre: A row-major, correctly rounded, except GL4's a12 = 1/2 - a21 (exact by
 * Sterbenz' lemma), so that the stored GL4 coefficients satisfy the symplecticity condition
 * b_i a_ij + b_j a_ji = b_i b_j exactly ------------------------------------------------------------ */
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

#define MAX_HALVINGS 10

typedef struct
{
  int n, method, s, nev;
  vm_rhs_fn f;
  vm_event_fn ev;
  void *ctx;
  const vm_ode_opts *o;
  vm_ode_sol *sol;
  double t0, tf, dir;
  const double *tout;
  size_t ntout, iout;
  int dense;                  /* dense output needed (output times or events) */
  double t, tn;               /* current point, end of the step just taken */
  double *y, *fy;             /* state and F at t */
  double *yn, *fn;            /* state and F at tn */
  double *yd, *yev, *ytmp;
  double *k;                  /* DOPRI5 k2..k6 (5n), DOP853 k2..k12 k14..k16 (14n), RK4 (3n) */
  double *rc;                 /* dense coefficients: DOPRI5 2..5 (4n), DOP853 1..7 (7n) */
  /* Gauss-Legendre */
  const double *gc, *ga, *gb;
  double *Z, *Zp, *Fz, *r, *J, *M, *comp, *compn;
  int *ipiv;
  double hprev;
  int have_prev;
  /* events */
  double *gold, *gnew, *gtmp, *cte;
  int *cidx;
  double event_tol;
  double hlim;                /* the step check's bound on the next step (HUGE_VAL: none) */
} ws;

/* ---- small helpers ---------------------------------------------------------------------------- */

static int
all_finite (int n, const double *x)
{
  int i;
  for (i = 0; i < n; i++)
    if (! isfinite (x[i]))
      return 0;
  return 1;
}

static int
grow (void **p, size_t *cap, size_t need, size_t elsz)
{
  size_t nc;
  void *q;
  if (need <= *cap)
    return VM_OK;
  nc = *cap ? *cap : 64;
  while (nc < need)
    {
      if (nc > SIZE_MAX / 2)
        return VM_ENOMEM;
      nc *= 2;
    }
  if (nc > SIZE_MAX / elsz)
    return VM_ENOMEM;
  q = realloc (*p, nc * elsz);
  if (q == NULL)
    return VM_ENOMEM;
  *p = q;
  *cap = nc;
  return VM_OK;
}

static int
push_point (vm_ode_sol *s, int n, double t, const double *y)
{
  size_t m = s->npts + 1;
  if (m > SIZE_MAX / (size_t) n)
    return VM_ENOMEM;
  if (grow ((void **) &s->t, &s->cap_t, m, sizeof (double))
      || grow ((void **) &s->y, &s->cap_y, m * (size_t) n, sizeof (double)))
    return VM_ENOMEM;
  s->t[s->npts] = t;
  memcpy (s->y + s->npts * (size_t) n, y, (size_t) n * sizeof (double));
  s->npts = m;
  return VM_OK;
}

static int
push_event (vm_ode_sol *s, int n, double t, const double *y, int k)
{
  size_t m = s->nevents + 1;
  if (m > SIZE_MAX / (size_t) n)
    return VM_ENOMEM;
  if (grow ((void **) &s->te, &s->cap_te, m, sizeof (double))
      || grow ((void **) &s->ie, &s->cap_ie, m, sizeof (int))
      || grow ((void **) &s->ye, &s->cap_ye, m * (size_t) n, sizeof (double)))
    return VM_ENOMEM;
  s->te[s->nevents] = t;
  s->ie[s->nevents] = k;
  memcpy (s->ye + s->nevents * (size_t) n, y, (size_t) n * sizeof (double));
  s->nevents = m;
  return VM_OK;
}

static int
rhs (ws *w, double t, const double *y, double *dy)
{
  w->sol->nfev++;
  return w->f (t, y, dy, w->ctx);
}

/* event values into g; nonzero user codes pass through, non-finite values give VM_ENONFINITE */
static int
events_at (ws *w, double t, const double *y, double *g)
{
  int st;
  w->sol->ngev++;
  st = w->ev (t, y, g, w->ctx);
  if (st != 0)
    return st;
  return all_finite (w->nev, g) ? VM_OK : VM_ENONFINITE;
}

/* dense output on the step [w->t, w->tn] at tq */
static void
dense_eval (const ws *w, double tq, double *out)
{
  const int n = w->n;
  const double h = w->tn - w->t;
  const double th = (tq - w->t) / h, th1 = 1.0 - th;
  int i;
  if (tq == w->tn)
    {
      memcpy (out, w->yn, (size_t) n * sizeof (double));
      return;
    }
  if (tq == w->t)
    {
      memcpy (out, w->y, (size_t) n * sizeof (double));
      return;
    }
  if (w->method == VM_ODE_DOPRI5)
    {
      const double *r2 = w->rc, *r3 = w->rc + n, *r4 = w->rc + 2 * n, *r5 = w->rc + 3 * n;
      for (i = 0; i < n; i++)
        out[i] = w->y[i] + th * (r2[i] + th1 * (r3[i] + th * (r4[i] + th1 * r5[i])));
    }
  else if (w->method == VM_ODE_DOP853)
    {
      /* Hairer's CONTD8 */
      const double *r1 = w->rc, *r2 = w->rc + n, *r3 = w->rc + 2 * n, *r4 = w->rc + 3 * n,
                   *r5 = w->rc + 4 * n, *r6 = w->rc + 5 * n, *r7 = w->rc + 6 * n;
      for (i = 0; i < n; i++)
        {
          const double conpar = r4[i] + th * (r5[i] + th1 * (r6[i] + th * r7[i]));
          out[i] = w->y[i] + th * (r1[i] + th1 * (r2[i] + th * (r3[i] + th1 * conpar)));
        }
    }
  else
    {
      /* cubic Hermite: h00 = (1 + 2 th) th1^2, h10 = th th1^2, h01 = th^2 (3 - 2 th), h11 = -th^2 th1 */
      const double h00 = (1.0 + 2.0 * th) * th1 * th1, h10 = th * th1 * th1 * h;
      const double h01 = th * th * (3.0 - 2.0 * th), h11 = -th * th * th1 * h;
      for (i = 0; i < n; i++)
        out[i] = h00 * w->y[i] + h10 * w->fy[i] + h01 * w->yn[i] + h11 * w->fn[i];
    }
}

/* Locate the zero of g_k in the step by the Illinois method on the dense output.  The result is
 * on the far side of the sign change (g_k zero or of the sign it has at the step end). */
static int
locate_event (ws *w, int k, double *te)
{
  double a = w->t, b = w->tn, ga = w->gold[k], gb = w->gnew[k];
  const double dir = w->dir;
  double tol = w->event_tol;
  int side = 0, it, st;
  if (tol <= 0.0)
    tol = 1e-12 * fmax (1.0, fmax (fabs (a), fabs (b)));
  if (gb == 0.0)
    {
      *te = b;
      return VM_OK;
    }
  for (it = 0; it < 400; it++)
    {
      double c, lo, hi, gcv;
      if (fabs (b - a) <= tol)
        break;
      c = a - ga * (b - a) / (gb - ga);
      /* keep c at least tol/2 inside the bracket so that the bracket shrinks to tol */
      lo = a + dir * 0.5 * tol;
      hi = b - dir * 0.5 * tol;
      if (! isfinite (c) || (c - lo) * dir < 0.0)
        c = lo;
      if ((c - hi) * dir > 0.0)
        c = hi;
      dense_eval (w, c, w->yd);
      st = events_at (w, c, w->yd, w->gtmp);
      if (st != VM_OK)
        return st;
      gcv = w->gtmp[k];
      if (gcv == 0.0)
        {
          b = c;
          break;
        }
      if ((gcv > 0.0) == (ga > 0.0))
        {
          a = c;
          ga = gcv;
          if (side == -1)
            gb *= 0.5;
          side = -1;
        }
      else
        {
          b = c;
          gb = gcv;
          if (side == 1)
            ga *= 0.5;
          side = 1;
        }
    }
  *te = b;
  return VM_OK;
}

/* the events with a sign change in the step, located and sorted by time into w->cte, w->cidx */
static int
event_candidates (ws *w, int *ncp)
{
  const vm_ode_opts *o = w->o;
  int st, k, nc = 0, i;
  st = events_at (w, w->tn, w->yn, w->gnew);
  if (st != VM_OK)
    return st;
  for (k = 0; k < w->nev; k++)
    {
      const double go = w->gold[k], gn = w->gnew[k];
      const int dk = o->event_dir ? o->event_dir[k] : 0;
      const int rising = go < 0.0 && gn >= 0.0, falling = go > 0.0 && gn <= 0.0;
      double tk;
      if (! ((rising && dk >= 0) || (falling && dk <= 0)))
        continue;
      st = locate_event (w, k, &tk);
      if (st != VM_OK)
        return st;
      /* insertion into the candidates, ordered by time (stable in k) */
      for (i = nc; i > 0 && (w->cte[i - 1] - tk) * w->dir > 0.0; i--)
        {
          w->cte[i] = w->cte[i - 1];
          w->cidx[i] = w->cidx[i - 1];
        }
      w->cte[i] = tk;
      w->cidx[i] = k;
      nc++;
    }
  *ncp = nc;
  return VM_OK;
}

/* record the nc candidate events up to the first terminal one (*tstop, *ystop: where it stops) */
static int
push_events (ws *w, int nc, int *terminal, double *tstop, const double **ystop)
{
  const vm_ode_opts *o = w->o;
  const int n = w->n;
  int st, j;
  for (j = 0; j < nc; j++)
    {
      const int kk = w->cidx[j];
      if (*terminal && w->cte[j] != *tstop)
        break;
      dense_eval (w, w->cte[j], w->yd);
      st = push_event (w->sol, n, w->cte[j], w->yd, kk);
      if (st != VM_OK)
        return st;
      if (! *terminal && o->event_terminal && o->event_terminal[kk])
        {
          *terminal = 1;
          *tstop = w->cte[j];
          memcpy (w->yev, w->yd, (size_t) n * sizeof (double));
          *ystop = w->yev;
        }
    }
  return VM_OK;
}

/* the output points of the step up to tstop (all w->tout there, else tstop itself) */
static int
push_outputs (ws *w, int terminal, double tstop, const double *ystop)
{
  vm_ode_sol *sol = w->sol;
  const int n = w->n;
  int st;
  if (w->ntout > 0)
    {
      while (w->iout < w->ntout && (w->tout[w->iout] - tstop) * w->dir <= 0.0)
        {
          const double tq = w->tout[w->iout];
          if (tq == tstop)
            st = push_point (sol, n, tq, ystop);
          else
            {
              dense_eval (w, tq, w->yd);
              st = push_point (sol, n, tq, w->yd);
            }
          if (st != VM_OK)
            return st;
          w->iout++;
        }
      if (terminal && ! (sol->npts > 0 && sol->t[sol->npts - 1] == tstop))
        {
          st = push_point (sol, n, tstop, ystop);
          if (st != VM_OK)
            return st;
        }
    }
  else
    {
      st = push_point (sol, n, tstop, ystop);
      if (st != VM_OK)
        return st;
    }
  return VM_OK;
}

/* Bookkeeping after an accepted step [w->t, w->tn]: events, output.  *terminal = 1 when a
 * terminal event stopped the integration (w->tn, w->yn are then left as they are; the event is
 * sol->te[last], and sol->t_end is set). */
static int
after_step (ws *w, int *terminal)
{
  double tstop = w->tn;
  const double *ystop = w->yn;
  int st, nc = 0;
  *terminal = 0;

  if (w->nev > 0)
    {
      st = event_candidates (w, &nc);
      if (st != VM_OK)
        return st;
      st = push_events (w, nc, terminal, &tstop, &ystop);
      if (st != VM_OK)
        return st;
    }
  st = push_outputs (w, *terminal, tstop, ystop);
  if (st != VM_OK)
    return st;
  if (*terminal)
    w->sol->t_end = tstop;
  return VM_OK;
}

/* advance the current point to the end of the accepted step */
static void
advance (ws *w)
{
  double *p;
  p = w->y;
  w->y = w->yn;
  w->yn = p;
  p = w->fy;
  w->fy = w->fn;
  w->fn = p;
  w->t = w->tn;
  if (w->nev > 0)
    {
      p = w->gold;
      w->gold = w->gnew;
      w->gnew = p;
    }
  w->sol->t_end = w->t;
}

/* The step check of a step [w->t, tn] that the method accepted (new state in w->yn).  *ok = 0:
 * rejected, *factor in [1e-6, 1) the suggested fraction of the step (0.5 for NaN).  *ok = 1:
 * accepted, w->hlim the bound on the next step.  Returns the check's nonzero code, else VM_OK. */
static int
check_step (ws *w, double tn, int *ok, double *factor)
{
  double f = 1.0, hn = HUGE_VAL;
  int st;
  *ok = 1;
  *factor = 1.0;
  w->hlim = HUGE_VAL;
  if (w->o->step_check == NULL)
    return VM_OK;
  st = w->o->step_check (w->t, w->y, tn, w->yn, &f, &hn, w->ctx);
  if (st != 0)
    return st;
  if (! (f >= 1.0))
    {
      *ok = 0;
      *factor = isnan (f) ? 0.5 : fmax (f, 1e-6);
      w->sol->nreject++;
      w->sol->ncheck_reject++;
      return VM_OK;
    }
  if (hn > 0.0)
    w->hlim = hn;
  return VM_OK;
}

/* ---- DOPRI5 ------------------------------------------------------------------------------------ */

/* weighted RMS-type norms of Hairer's HINIT use sums; sk = atol + rtol |y_i| (guarded against 0) */
static double
sk_of (double atol, double rtol, double y)
{
  double sk = atol + rtol * fabs (y);
  return sk > 0.0 ? sk : DBL_MIN;
}

/* Hairer's HINIT: h^iord max(|f0|, |f'|) = 0.01 in the weighted norm (iord 5 DOPRI5, 8 DOP853) */
static int
erk_hinit (ws *w, double hmax, int iord, double *hout)
{
  const int n = w->n;
  const double atol = w->o->atol, rtol = w->o->rtol;
  double dnf = 0.0, dny = 0.0, der2 = 0.0, der12, h, h1;
  int i, st;
  for (i = 0; i < n; i++)
    {
      const double sk = sk_of (atol, rtol, w->y[i]);
      dnf += (w->fy[i] / sk) * (w->fy[i] / sk);
      dny += (w->y[i] / sk) * (w->y[i] / sk);
    }
  if (dnf <= 1e-10 || dny <= 1e-10)
    h = 1e-6;
  else
    h = sqrt (dny / dnf) * 0.01;
  h = fmin (h, hmax);
  for (i = 0; i < n; i++)
    w->ytmp[i] = w->y[i] + w->dir * h * w->fy[i];
  st = rhs (w, w->t + w->dir * h, w->ytmp, w->k);
  if (st != 0)
    return st;
  for (i = 0; i < n; i++)
    {
      const double sk = sk_of (atol, rtol, w->y[i]);
      const double q = (w->k[i] - w->fy[i]) / sk;
      der2 += q * q;
    }
  der2 = sqrt (der2) / h;
  der12 = fmax (fabs (der2), sqrt (dnf));
  if (! isfinite (der12) || der12 <= 1e-15)
    h1 = fmax (1e-6, h * 1e-3);
  else
    h1 = pow (0.01 / der12, 1.0 / iord);
  *hout = fmin (fmin (100.0 * h, h1), hmax);
  return VM_OK;
}

/* The common end of an accepted DOPRI5 or DOP853 step (dense coefficients already set): events and
 * output, then the limits on the next step size (hmax; no increase right after a rejection).
 * Returns 1 when the integration must return *st (tf reached, terminal event or an error). */
static int
adaptive_accepted (ws *w, int *terminal, int last, double h, double hmax, int *reject,
                   double *hnew, int *st)
{
  *st = after_step (w, terminal);
  if (*st != VM_OK || *terminal)
    return 1;
  advance (w);
  if (last)
    return 1;
  if (fabs (*hnew) > hmax)
    *hnew = w->dir * hmax;
  if (*reject)
    *hnew = w->dir * fmin (fabs (*hnew), fabs (h));
  if (fabs (*hnew) > w->hlim)
    *hnew = w->dir * w->hlim;
  *reject = 0;
  return 0;
}

/* the stages k2..k6, y1 (w->yn) and k7 = F(tn, y1) (w->fn, FSAL) of a DOPRI5 step of size h */
static int
dopri5_stages (ws *w, double h, double tn)
{
  const int n = w->n;
  const double t = w->t, *y = w->y, *k1 = w->fy;
  double *const k2 = w->k, *const k3 = w->k + n, *const k4 = w->k + 2 * n,
         *const k5 = w->k + 3 * n, *const k6 = w->k + 4 * n;
  double *ys = w->ytmp, *y1 = w->yn, *k7 = w->fn;
  int i, st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * a21 * k1[i];
  if ((st = rhs (w, t + c2 * h, ys, k2)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
  if ((st = rhs (w, t + c3 * h, ys, k3)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
  if ((st = rhs (w, t + c4 * h, ys, k4)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
  if ((st = rhs (w, t + c5 * h, ys, k5)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
  if ((st = rhs (w, tn, ys, k6)) != 0)
    return st;
  for (i = 0; i < n; i++)
    y1[i] = y[i] + h * (a71 * k1[i] + a73 * k3[i] + a74 * k4[i] + a75 * k5[i] + a76 * k6[i]);
  if ((st = rhs (w, tn, y1, k7)) != 0)
    return st;
  if (! all_finite (n, y1) || ! all_finite (n, k7))
    return VM_ENONFINITE;
  return VM_OK;
}

/* the error of a DOPRI5 step of size h (stages computed) into *errp */
static int
dopri5_error (ws *w, double h, double *errp)
{
  const int n = w->n;
  const double rtol = w->o->rtol, atol = w->o->atol, *y = w->y, *k1 = w->fy;
  const double *const k3 = w->k + n, *const k4 = w->k + 2 * n, *const k5 = w->k + 3 * n,
               *const k6 = w->k + 4 * n, *y1 = w->yn, *k7 = w->fn;
  double err = 0.0;
  int i;
  for (i = 0; i < n; i++)
    {
      const double sk = atol + rtol * fmax (fabs (y[i]), fabs (y1[i]));
      const double ei = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i]
                             + e7 * k7[i]);
      const double q = ei / (sk > 0.0 ? sk : DBL_MIN);
      err += q * q;
    }
  err = sqrt (err / n);
  if (isnan (err))
    return VM_ENONFINITE;
  *errp = err;
  return VM_OK;
}

/* the dense coefficients r2..r5 of an accepted DOPRI5 step of size h */
static void
dopri5_dense (ws *w, double h)
{
  const int n = w->n;
  const double *y = w->y, *k1 = w->fy, *y1 = w->yn, *k7 = w->fn;
  const double *const k3 = w->k + n, *const k4 = w->k + 2 * n, *const k5 = w->k + 3 * n,
               *const k6 = w->k + 4 * n;
  double *r2 = w->rc, *r3 = w->rc + n, *r4 = w->rc + 2 * n, *r5 = w->rc + 3 * n;
  int i;
  for (i = 0; i < n; i++)
    {
      const double ydiff = y1[i] - y[i], bspl = h * k1[i] - ydiff;
      r2[i] = ydiff;
      r3[i] = bspl;
      r4[i] = ydiff - h * k7[i] - bspl;
      r5[i] = h * (d1 * k1[i] + d3 * k3[i] + d4 * k4[i] + d5 * k5[i] + d6 * k6[i]
                   + d7 * k7[i]);
    }
}

/* DOPRI5: steps from (w->t, w->y) until tf, a terminal event or a failure */
static int
run_dopri5 (ws *w, int *terminal)
{
  const vm_ode_opts *o = w->o;
  vm_ode_sol *sol = w->sol;
  const double dir = w->dir, tf = w->tf;
  const double hmax = o->hmax > 0.0 ? o->hmax : fabs (w->tf - w->t0);
  const long max_steps = o->max_steps > 0 ? o->max_steps : 10000000L;
  const double safe = 0.9, facc1 = 1.0 / 0.2, facc2 = 1.0 / 10.0, beta = 0.04;
  const double expo1 = 0.2 - beta * 0.75;
  double h, facold = 1e-4, cfac;
  int reject = 0, last = 0, st, ok;

  if (o->h0 > 0.0)
    h = fmin (o->h0, hmax);
  else
    {
      st = erk_hinit (w, hmax, 5, &h);
      if (st != VM_OK)
        return st;
    }
  h *= dir;

  for (;;)
    {
      const double t = w->t;
      double err, fac11, fac, hnew, tn;

      if (sol->nsteps >= max_steps)
        return VM_EMAXSTEPS;
      if (! (fabs (h) >= 16.0 * DBL_EPSILON * fabs (t)) || h == 0.0)
        return VM_EHMIN;
      if ((t + 1.01 * h - tf) * dir >= 0.0)
        {
          h = tf - t;
          last = 1;
        }
      tn = last ? tf : t + h;
      sol->nsteps++;

      if ((st = dopri5_stages (w, h, tn)) != VM_OK || (st = dopri5_error (w, h, &err)) != VM_OK)
        return st;

      /* Hairer's controller with PI stabilization (DOPRI5, beta = 0.04) */
      fac11 = pow (err, expo1);
      fac = fac11 / pow (facold, beta);
      fac = fmax (facc2, fmin (facc1, fac / safe));
      hnew = h / fac;

      ok = 1;
      if (err <= 1.0 && (st = check_step (w, tn, &ok, &cfac)) != VM_OK)
        return st;
      if (err <= 1.0 && ok)
        {
          facold = fmax (err, 1e-4);
          sol->naccept++;
          if (w->dense)
            dopri5_dense (w, h);
          w->tn = tn;
          if (adaptive_accepted (w, terminal, last, h, hmax, &reject, &hnew, &st))
            return st;
        }
      else
        {
          /* the step check's fraction, or Hairer's factor after an error rejection */
          hnew = ok ? h / fmin (facc1, fac11 / safe) : h * cfac;
          reject = 1;
          last = 0;
          if (ok)
            sol->nreject++;
        }
      h = hnew;
    }
}

/* ---- DOP853 ---------------------------------------------------------------------------------- */

/* Hairer's DP86CO without stiffness detection.  Stages (1-based as in Hairer's code) k1 = F(t, y)
 * (w->fy, the FSAL value of the previous step), k2..k12, y1 = y + h sum b_i k_i, k13 = F(tn, y1)
 * (w->fn, computed after acceptance and reused as k1 of the next step), k14..k16 only when dense
 * output is needed.  Error: err = |h| E5^2 / sqrt(n (E5^2 + 0.01 E3^2)) with E5, E3 the weighted
 * sums of squares of the 5th- and 3rd-order estimates.  Controller: Hairer's DOP853 defaults. */
#define DA(i, j) dop_a[i][j]

/* the stages k2..k7 of a DOP853 step of size h from (w->t, w->y), k1 = w->fy */
static int
dop853_stages_low (ws *w, double h)
{
  const int n = w->n;
  const double t = w->t, *y = w->y, *k1 = w->fy;
  double *const k2 = w->k, *const k3 = w->k + n, *const k4 = w->k + 2 * n,
         *const k5 = w->k + 3 * n, *const k6 = w->k + 4 * n, *const k7 = w->k + 5 * n;
  double *ys = w->ytmp;
  int i, st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * DA (1, 0) * k1[i];
  if ((st = rhs (w, t + dop_c[1] * h, ys, k2)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (2, 0) * k1[i] + DA (2, 1) * k2[i]);
  if ((st = rhs (w, t + dop_c[2] * h, ys, k3)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (3, 0) * k1[i] + DA (3, 2) * k3[i]);
  if ((st = rhs (w, t + dop_c[3] * h, ys, k4)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (4, 0) * k1[i] + DA (4, 2) * k3[i] + DA (4, 3) * k4[i]);
  if ((st = rhs (w, t + dop_c[4] * h, ys, k5)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (5, 0) * k1[i] + DA (5, 3) * k4[i] + DA (5, 4) * k5[i]);
  if ((st = rhs (w, t + dop_c[5] * h, ys, k6)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (6, 0) * k1[i] + DA (6, 3) * k4[i] + DA (6, 4) * k5[i]
                        + DA (6, 5) * k6[i]);
  if ((st = rhs (w, t + dop_c[6] * h, ys, k7)) != 0)
    return st;
  return VM_OK;
}

/* the stages k8..k12 of a DOP853 step of size h ending at tn (k1..k7 computed) */
static int
dop853_stages_high (ws *w, double h, double tn)
{
  const int n = w->n;
  const double t = w->t, *y = w->y, *k1 = w->fy;
  double *const k4 = w->k + 2 * n, *const k5 = w->k + 3 * n, *const k6 = w->k + 4 * n,
         *const k7 = w->k + 5 * n, *const k8 = w->k + 6 * n, *const k9 = w->k + 7 * n,
         *const k10 = w->k + 8 * n, *const k11 = w->k + 9 * n, *const k12 = w->k + 10 * n;
  double *ys = w->ytmp;
  int i, st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (7, 0) * k1[i] + DA (7, 3) * k4[i] + DA (7, 4) * k5[i]
                        + DA (7, 5) * k6[i] + DA (7, 6) * k7[i]);
  if ((st = rhs (w, t + dop_c[7] * h, ys, k8)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (8, 0) * k1[i] + DA (8, 3) * k4[i] + DA (8, 4) * k5[i]
                        + DA (8, 5) * k6[i] + DA (8, 6) * k7[i] + DA (8, 7) * k8[i]);
  if ((st = rhs (w, t + dop_c[8] * h, ys, k9)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (9, 0) * k1[i] + DA (9, 3) * k4[i] + DA (9, 4) * k5[i]
                        + DA (9, 5) * k6[i] + DA (9, 6) * k7[i] + DA (9, 7) * k8[i]
                        + DA (9, 8) * k9[i]);
  if ((st = rhs (w, t + dop_c[9] * h, ys, k10)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (10, 0) * k1[i] + DA (10, 3) * k4[i] + DA (10, 4) * k5[i]
                        + DA (10, 5) * k6[i] + DA (10, 6) * k7[i] + DA (10, 7) * k8[i]
                        + DA (10, 8) * k9[i] + DA (10, 9) * k10[i]);
  if ((st = rhs (w, t + dop_c[10] * h, ys, k11)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (11, 0) * k1[i] + DA (11, 3) * k4[i] + DA (11, 4) * k5[i]
                        + DA (11, 5) * k6[i] + DA (11, 6) * k7[i] + DA (11, 7) * k8[i]
                        + DA (11, 8) * k9[i] + DA (11, 9) * k10[i] + DA (11, 10) * k11[i]);
  if ((st = rhs (w, tn, ys, k12)) != 0)
    return st;
  return VM_OK;
}

/* the 8th-order solution y1 (w->yn) and the error of a DOP853 step of size h into *errp */
static int
dop853_error (ws *w, double h, double *errp)
{
  const int n = w->n;
  const double rtol = w->o->rtol, atol = w->o->atol, *y = w->y, *k1 = w->fy;
  const double *const k6 = w->k + 4 * n, *const k7 = w->k + 5 * n, *const k8 = w->k + 6 * n,
               *const k9 = w->k + 7 * n, *const k10 = w->k + 8 * n, *const k11 = w->k + 9 * n,
               *const k12 = w->k + 10 * n;
  double *y1 = w->yn, err, err2, deno;
  int i;
  err = err2 = 0.0;
  for (i = 0; i < n; i++)
    {
      const double inc = DA (12, 0) * k1[i] + DA (12, 5) * k6[i] + DA (12, 6) * k7[i]
                         + DA (12, 7) * k8[i] + DA (12, 8) * k9[i] + DA (12, 9) * k10[i]
                         + DA (12, 10) * k11[i] + DA (12, 11) * k12[i];
      double sk, e3, e5;
      y1[i] = y[i] + h * inc;
      sk = atol + rtol * fmax (fabs (y[i]), fabs (y1[i]));
      if (! (sk > 0.0))
        sk = DBL_MIN;
      e3 = inc - dop_bhh[0] * k1[i] - dop_bhh[8] * k9[i] - dop_bhh[11] * k12[i];
      e5 = dop_er[0] * k1[i] + dop_er[5] * k6[i] + dop_er[6] * k7[i] + dop_er[7] * k8[i]
           + dop_er[8] * k9[i] + dop_er[9] * k10[i] + dop_er[10] * k11[i]
           + dop_er[11] * k12[i];
      err2 += (e3 / sk) * (e3 / sk);
      err += (e5 / sk) * (e5 / sk);
    }
  if (! all_finite (n, y1))
    return VM_ENONFINITE;
  deno = err + 0.01 * err2;
  if (deno <= 0.0)
    deno = 1.0;
  err = fabs (h) * err * sqrt (1.0 / (n * deno));
  if (isnan (err))
    return VM_ENONFINITE;
  *errp = err;
  return VM_OK;
}

/* the dense coefficients r1..r3 and the parts of r4..r7 from the stages k1..k13 */
static void
dop853_dense_base (ws *w, double h)
{
  const int n = w->n;
  const double *y = w->y, *k1 = w->fy, *y1 = w->yn, *k13 = w->fn;
  const double *const k6 = w->k + 4 * n, *const k7 = w->k + 5 * n, *const k8 = w->k + 6 * n,
               *const k9 = w->k + 7 * n, *const k10 = w->k + 8 * n, *const k11 = w->k + 9 * n,
               *const k12 = w->k + 10 * n;
  double *r1 = w->rc, *r2 = w->rc + n, *r3 = w->rc + 2 * n;
  int i, q;
  for (i = 0; i < n; i++)
    {
      const double ydiff = y1[i] - y[i], bspl = h * k1[i] - ydiff;
      r1[i] = ydiff;
      r2[i] = bspl;
      r3[i] = ydiff - h * k13[i] - bspl;
    }
  for (q = 0; q < 4; q++)
    {
      const double *d = dop_d[q];
      double *r = w->rc + (3 + q) * n;
      for (i = 0; i < n; i++)
        r[i] = d[0] * k1[i] + d[5] * k6[i] + d[6] * k7[i] + d[7] * k8[i]
               + d[8] * k9[i] + d[9] * k10[i] + d[10] * k11[i] + d[11] * k12[i]
               + d[12] * k13[i];
    }
}

/* the three extra stages k14..k16 of the continuous extension and the rest of r4..r7 */
static int
dop853_dense_extra (ws *w, double h)
{
  const int n = w->n;
  const double t = w->t, *y = w->y, *k1 = w->fy, *k13 = w->fn;
  const double *const k6 = w->k + 4 * n, *const k7 = w->k + 5 * n, *const k8 = w->k + 6 * n,
               *const k9 = w->k + 7 * n, *const k10 = w->k + 8 * n, *const k11 = w->k + 9 * n,
               *const k12 = w->k + 10 * n;
  double *const k14 = w->k + 11 * n, *const k15 = w->k + 12 * n, *const k16 = w->k + 13 * n;
  double *ys = w->ytmp;
  int i, q, st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (13, 0) * k1[i] + DA (13, 6) * k7[i] + DA (13, 7) * k8[i]
                        + DA (13, 8) * k9[i] + DA (13, 9) * k10[i]
                        + DA (13, 10) * k11[i] + DA (13, 11) * k12[i]
                        + DA (13, 12) * k13[i]);
  if ((st = rhs (w, t + dop_c[13] * h, ys, k14)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (14, 0) * k1[i] + DA (14, 5) * k6[i] + DA (14, 6) * k7[i]
                        + DA (14, 7) * k8[i] + DA (14, 10) * k11[i]
                        + DA (14, 11) * k12[i] + DA (14, 12) * k13[i]
                        + DA (14, 13) * k14[i]);
  if ((st = rhs (w, t + dop_c[14] * h, ys, k15)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + h * (DA (15, 0) * k1[i] + DA (15, 5) * k6[i] + DA (15, 6) * k7[i]
                        + DA (15, 7) * k8[i] + DA (15, 8) * k9[i]
                        + DA (15, 12) * k13[i] + DA (15, 13) * k14[i]
                        + DA (15, 14) * k15[i]);
  if ((st = rhs (w, t + dop_c[15] * h, ys, k16)) != 0)
    return st;
  if (! all_finite (n, k14) || ! all_finite (n, k15) || ! all_finite (n, k16))
    return VM_ENONFINITE;
  for (q = 0; q < 4; q++)
    {
      const double *d = dop_d[q];
      double *r = w->rc + (3 + q) * n;
      for (i = 0; i < n; i++)
        r[i] = h * (r[i] + d[13] * k14[i] + d[14] * k15[i] + d[15] * k16[i]);
    }
  return VM_OK;
}

/* an accepted DOP853 step to tn: k13 = F(tn, y1) (FSAL) and, when needed, the dense output */
static int
dop853_accept (ws *w, double h, double tn)
{
  int st;
  /* F at the new point: needed by the dense output and by the next step (FSAL) */
  if ((st = rhs (w, tn, w->yn, w->fn)) != 0)
    return st;
  if (! all_finite (w->n, w->fn))
    return VM_ENONFINITE;
  w->sol->naccept++;
  if (w->dense)
    {
      dop853_dense_base (w, h);
      if ((st = dop853_dense_extra (w, h)) != VM_OK)
        return st;
    }
  return VM_OK;
}

/* DOP853 (see above): steps from (w->t, w->y) until tf, a terminal event or a failure */
static int
run_dop853 (ws *w, int *terminal)
{
  const vm_ode_opts *o = w->o;
  vm_ode_sol *sol = w->sol;
  const double dir = w->dir, tf = w->tf;
  const double hmax = o->hmax > 0.0 ? o->hmax : fabs (w->tf - w->t0);
  const long max_steps = o->max_steps > 0 ? o->max_steps : 10000000L;
  /* safety 0.9, 0.333 <= hnew/h <= 6, beta = 0 (no PI term), exponent 1/8 */
  const double safe = 0.9, facc1 = 1.0 / 0.333, facc2 = 1.0 / 6.0, expo1 = 1.0 / 8.0;
  double h, cfac;
  int reject = 0, last = 0, st, ok;

  if (o->h0 > 0.0)
    h = fmin (o->h0, hmax);
  else
    {
      st = erk_hinit (w, hmax, 8, &h);
      if (st != VM_OK)
        return st;
    }
  h *= dir;

  for (;;)
    {
      const double t = w->t;
      double err, fac11, fac, hnew, tn;

      if (sol->nsteps >= max_steps)
        return VM_EMAXSTEPS;
      if (! (fabs (h) >= 16.0 * DBL_EPSILON * fabs (t)) || h == 0.0)
        return VM_EHMIN;
      if ((t + 1.01 * h - tf) * dir >= 0.0)
        {
          h = tf - t;
          last = 1;
        }
      tn = last ? tf : t + h;
      sol->nsteps++;

      if ((st = dop853_stages_low (w, h)) != VM_OK || (st = dop853_stages_high (w, h, tn)) != VM_OK
          || (st = dop853_error (w, h, &err)) != VM_OK)
        return st;

      /* Hairer's controller, DOP853 defaults (beta = 0: fac = fac11) */
      fac11 = pow (err, expo1);
      fac = fmax (facc2, fmin (facc1, fac11 / safe));
      hnew = h / fac;

      ok = 1;
      if (err <= 1.0 && (st = check_step (w, tn, &ok, &cfac)) != VM_OK)
        return st;
      if (err <= 1.0 && ok)
        {
          if ((st = dop853_accept (w, h, tn)) != VM_OK)
            return st;
          w->tn = tn;
          if (adaptive_accepted (w, terminal, last, h, hmax, &reject, &hnew, &st))
            return st;
        }
      else
        {
          /* the step check's fraction, or Hairer's factor after an error rejection */
          hnew = ok ? h / fmin (facc1, fac11 / safe) : h * cfac;
          reject = 1;
          last = 0;
          if (ok)
            sol->nreject++;
        }
      h = hnew;
    }
}
#undef DA

/* ---- RK4 and Gauss-Legendre (fixed step) --------------------------------------------------------- */

/* one RK4 step of size hs from (w->t, w->y) to tn into w->yn (F at tn is left to the caller) */
static int
rk4_step (ws *w, double hs, double tn)
{
  const int n = w->n;
  const double t = w->t, *y = w->y, *k1 = w->fy;
  double *k2 = w->k, *k3 = w->k + n, *k4 = w->k + 2 * n, *ys = w->ytmp;
  int i, st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + 0.5 * hs * k1[i];
  if ((st = rhs (w, t + 0.5 * hs, ys, k2)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + 0.5 * hs * k2[i];
  if ((st = rhs (w, t + 0.5 * hs, ys, k3)) != 0)
    return st;
  for (i = 0; i < n; i++)
    ys[i] = y[i] + hs * k3[i];
  if ((st = rhs (w, tn, ys, k4)) != 0)
    return st;
  for (i = 0; i < n; i++)
    w->yn[i] = y[i] + hs / 6.0 * (k1[i] + 2.0 * (k2[i] + k3[i]) + k4[i]);
  if (! all_finite (n, w->yn))
    return VM_ENONFINITE;
  return VM_OK;
}

/* forward-difference Jacobian of F at (w->t, w->y) into w->J (column-major n x n) */
static int
gl_jacobian (ws *w)
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
      st = rhs (w, w->t, yp, fp);
      yp[j] = yj;
      if (st != 0)
        return st;
      if (! all_finite (n, fp))
        return VM_ENONFINITE;
      for (i = 0; i < n; i++)
        w->J[i + (size_t) j * n] = (fp[i] - w->fy[i]) / del;
    }
  w->sol->njac++;
  return VM_OK;
}

/* M = I - hs A (x) J (column-major sn x sn), LU-factorized: 1, or 0 when singular */
static int
gl_matrix (ws *w, double hs)
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
gl_guess (ws *w, double hs)
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
gl_stage_rhs (ws *w, double hs, int *nonfinite)
{
  const int n = w->n, s = w->s;
  int i, p, st;
  for (i = 0; i < s; i++)
    {
      for (p = 0; p < n; p++)
        w->ytmp[p] = w->y[p] + w->Z[i * n + p];
      st = rhs (w, w->t + w->gc[i] * hs, w->ytmp, w->Fz + i * n);
      if (st != 0)
        return st;
      if (! all_finite (n, w->Fz + i * n))
        {
          *nonfinite = 1;
          return VM_OK;
        }
    }
  return VM_OK;
}

/* the simplified Newton iteration for Z (M factorized): *ok = 1 on convergence to tolabs */
static int
gl_newton (ws *w, double hs, double tolabs, int *ok, int *nonfinite)
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
      if (! isfinite (nrm) || ! all_finite (sn, w->Z))
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
static int
gl_attempt (ws *w, double hs, int *ok, int *nonfinite)
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

  /* y1 = y0 + h sum b_i F(t + c_i h, y0 + Z_i) with F at the converged stages (s evaluations more
   * than y0 + sum_i (b^T A^{-1})_i Z_i, but the rounding drift of quadratic invariants is about 15
   * times smaller), compensated summation of the increments */
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

/* One sub-step of a fixed-step method from (w->t, w->y) to tn (length hs), then the step check.
 * *ok = 1: kept (w->yn; w->fn when need_fn; GL: the collocation polynomial and compensation
 * committed).  *ok = 0: not kept; *newton = 1 (2: caused by non-finite values) after a Newton
 * failure, else the step check rejected it with the fraction *factor. */
static int
fixed_substep (ws *w, double hs, double tn, int need_fn, int *ok, int *newton, double *factor)
{
  const int n = w->n;
  int st, nonfinite = 0;
  *ok = 0;
  *newton = 0;
  if (w->s == 0)
    st = rk4_step (w, hs, tn);
  else
    {
      st = gl_attempt (w, hs, ok, &nonfinite);
      if (st == VM_OK && ! *ok)
        {
          *newton = nonfinite ? 2 : 1;
          return VM_OK;
        }
      if (st == VM_OK && ! all_finite (n, w->yn))
        st = VM_ENONFINITE;
    }
  if (st != VM_OK || (st = check_step (w, tn, ok, factor)) != VM_OK || ! *ok)
    return st;
  if (w->s > 0)
    {
      memcpy (w->Zp, w->Z, (size_t) w->s * (size_t) n * sizeof (double));
      memcpy (w->comp, w->compn, (size_t) n * sizeof (double));
      w->hprev = hs;
      w->have_prev = 1;
    }
  if (need_fn)
    {
      if ((st = rhs (w, tn, w->yn, w->fn)) != 0)
        return st;
      if (! all_finite (n, w->fn))
        return VM_ENONFINITE;
    }
  return VM_OK;
}

/* the sub-step level at which a grid step of length hfull starts: sub-steps of at most w->hlim */
static int
start_level (double hfull, double hlim)
{
  int level = 0;
  while (level < VM_ODE_CHECK_LEVELS && fabs (ldexp (hfull, -level)) > hlim)
    level++;
  return level;
}

/* The sub-steps of hfull / 2^level that cover the grid step from w->t to tt; level rises after a
 * Newton failure (by 1, at most MAX_HALVINGS times) or a step check's rejection (by
 * ceil(log2(1/factor)), at most VM_ODE_CHECK_LEVELS levels in all). */
static int
fixed_grid_step (ws *w, double tt, int last, int *terminal)
{
  vm_ode_sol *sol = w->sol;
  const double dir = w->dir, hfull = tt - w->t;
  const long max_steps = w->o->max_steps > 0 ? w->o->max_steps : 10000000L;
  int level = start_level (hfull, w->hlim), nhalve = 0, clevel = level, st;

  while (w->t != tt)
    {
      const double hsub = ldexp (hfull, -level);
      double hs = tt - w->t, tn, factor;
      int sublast = 1, ok, newton;
      if (sol->nsteps >= max_steps)
        return VM_EMAXSTEPS;
      if (level > 0 && ! (fabs (hsub) >= 16.0 * DBL_EPSILON * fabs (w->t)))
        return VM_EHMIN;
      if (level > 0 && (tt - w->t) * dir > fabs (hsub) * (1.0 + 1e-12))
        {
          hs = hsub;
          sublast = 0;
        }
      tn = sublast ? tt : w->t + hs;
      sol->nsteps++;
      st = fixed_substep (w, hs, tn, w->dense || ! (last && sublast), &ok, &newton, &factor);
      if (st != VM_OK)
        return st;
      if (! ok && newton)
        {
          sol->nreject++;
          if (nhalve++ >= MAX_HALVINGS)
            return newton == 2 ? VM_ENONFINITE : VM_ENEWTON;
          level++;
          continue;
        }
      if (! ok)
        {
          const int add = factor > 0.5 ? 1 : (int) ceil (-log2 (factor));
          if (clevel + add > VM_ODE_CHECK_LEVELS)
            return VM_ELAYER;
          clevel += add;
          level += add;
          continue;
        }
      sol->naccept++;
      w->tn = tn;
      st = after_step (w, terminal);
      if (st != VM_OK || *terminal)
        return st;
      advance (w);
      if (w->s > 0 && ! (last && w->t == tt) && (st = gl_jacobian (w)) != VM_OK)
        return st;              /* once per step, at its start */
    }
  return VM_OK;
}

static int
run_fixed (ws *w, int *terminal)
{
  const double dir = w->dir, hnom = w->o->h, t0 = w->t0, tf = w->tf;
  long kgrid = 0;
  int st;

  for (;;)
    {
      /* the nominal step [t, tt] of the grid t0 + k h; the last one ends at tf */
      const double ts = w->t;
      double tt;
      int last;
      if ((tf - ts) * dir <= hnom * (1.0 + 1e-12))
        {
          tt = tf;
          last = 1;
        }
      else
        {
          tt = t0 + dir * (double) (kgrid + 1) * hnom;
          last = 0;
        }
      if (! (hnom >= 16.0 * DBL_EPSILON * fabs (ts)))
        return VM_EHMIN;
      st = fixed_grid_step (w, tt, last, terminal);
      if (st != VM_OK || *terminal || last)
        return st;
      kgrid++;
    }
}

/* ---- driver ------------------------------------------------------------------------------------ */

const vm_dop853_coeffs *
vm_ode_dop853_coeffs (void)
{
  static const vm_dop853_coeffs co = { dop_c, &dop_a[0][0], dop_a[12], dop_er, dop_bhh,
                                       &dop_d[0][0] };
  return &co;
}

void
vm_ode_opts_init (vm_ode_opts *opts, int method)
{
  if (opts == NULL)
    return;
  memset (opts, 0, sizeof *opts);
  opts->method = method;
  opts->rtol = 1e-6;
  opts->atol = 1e-9;
}

void
vm_ode_sol_init (vm_ode_sol *sol)
{
  if (sol != NULL)
    memset (sol, 0, sizeof *sol);
}

void
vm_ode_sol_free (vm_ode_sol *sol)
{
  if (sol == NULL)
    return;
  free (sol->t);
  free (sol->y);
  free (sol->te);
  free (sol->ye);
  free (sol->ie);
  memset (sol, 0, sizeof *sol);
}

static int
validate (int n, vm_rhs_fn f, vm_event_fn ev, double t0, double tf, const double *y0,
          const double *tout, size_t ntout, const vm_ode_opts *o)
{
  const double dir = tf > t0 ? 1.0 : -1.0;
  size_t i;
  int k;
  if (n < 1 || f == NULL || y0 == NULL)
    return VM_EARG;
  if (! isfinite (t0) || ! isfinite (tf) || t0 == tf)
    return VM_ETSPAN;
  if (! all_finite (n, y0))
    return VM_EARG;
  if (o->method < VM_ODE_DOPRI5 || o->method > VM_ODE_DOP853)
    return VM_EARG;
  if (o->method == VM_ODE_DOPRI5 || o->method == VM_ODE_DOP853)
    {
      if (! (o->rtol > 0.0) || ! isfinite (o->rtol) || ! (o->atol >= 0.0) || ! isfinite (o->atol)
          || ! (o->h0 >= 0.0) || ! isfinite (o->h0) || ! (o->hmax >= 0.0) || ! isfinite (o->hmax))
        return VM_EARG;
    }
  else
    {
      if (! (o->h > 0.0) || ! isfinite (o->h))
        return VM_EARG;
      if (o->method != VM_ODE_RK4
          && (! (o->newton_tol >= 0.0) || ! isfinite (o->newton_tol) || o->newton_maxit < 0))
        return VM_EARG;
      if ((o->method == VM_ODE_GL4 && n > 23170) || (o->method == VM_ODE_GL6 && n > 15446))
        return VM_EARG;         /* (s n)^2 must fit the 32-bit LAPACK interface */
    }
  if (o->max_steps < 0 || o->nevent < 0 || ! (o->event_tol >= 0.0) || ! isfinite (o->event_tol))
    return VM_EARG;
  if (o->nevent > 0)
    {
      if (ev == NULL)
        return VM_EARG;
      if (o->event_dir)
        for (k = 0; k < o->nevent; k++)
          if (o->event_dir[k] < -1 || o->event_dir[k] > 1)
            return VM_EARG;
    }
  if (ntout > 0)
    {
      if (tout == NULL)
        return VM_EARG;
      for (i = 0; i < ntout; i++)
        {
          if (! isfinite (tout[i]) || (tout[i] - t0) * dir < 0.0 || (tout[i] - tf) * dir > 0.0)
            return VM_EARG;
          if (i > 0 && ! ((tout[i] - tout[i - 1]) * dir > 0.0))
            return VM_EARG;
        }
    }
  return VM_OK;
}

/* the counters and status of sol, reset for a new solve */
static void
sol_reset (vm_ode_sol *sol, int n, double t0)
{
  sol->npts = 0;
  sol->nevents = 0;
  sol->nsteps = sol->naccept = sol->nreject = sol->nfev = sol->nnewton_iter = 0;
  sol->ncheck_reject = 0;
  sol->njac = sol->nlu = sol->ngev = 0;
  sol->n = n;
  sol->t_end = t0;
}

/* the workspace's problem data and settings (no arrays yet) */
static void
ws_init (ws *w, int n, vm_rhs_fn f, vm_event_fn ev, void *ctx, double t0, double tf,
         const double *tout, size_t ntout, const vm_ode_opts *opts, vm_ode_sol *sol)
{
  memset (w, 0, sizeof *w);
  w->n = n;
  w->method = opts->method;
  w->nev = opts->nevent;
  w->f = f;
  w->ev = ev;
  w->ctx = ctx;
  w->o = opts;
  w->sol = sol;
  w->t0 = t0;
  w->tf = tf;
  w->dir = tf > t0 ? 1.0 : -1.0;
  w->tout = ntout > 0 ? tout : NULL;
  w->ntout = ntout;
  w->dense = ntout > 0 || w->nev > 0;
  w->event_tol = opts->event_tol;
  w->hlim = HUGE_VAL;
  w->s = w->method == VM_ODE_GL4 ? 2 : w->method == VM_ODE_GL6 ? 3 : 0;
}

/* the workspace's arrays, carved from one block of doubles (*mem) and one of ints (*imem):
 * y fy yn fn yd yev ytmp (7n), k (5n; DOP853 14n), rc (4n; DOP853 7n), events (4 nev),
 * Gauss: Z Zp Fz r (4 sn), comp compn (2n), J (n^2), M (sn^2) */
static int
ws_alloc (ws *w, double **mem, int **imem)
{
  const int n = w->n;
  size_t nd, ni, off, sn, nn, nk, nrc;
  sn = (size_t) w->s * (size_t) n;
  nn = (size_t) n * (size_t) n;
  nk = (w->method == VM_ODE_DOP853 ? 14 : 5) * (size_t) n;
  nrc = (w->method == VM_ODE_DOP853 ? 7 : 4) * (size_t) n;
  nd = 7 * (size_t) n + nk + nrc + 4 * (size_t) w->nev;
  if (w->s > 0)
    {
      if ((size_t) n > SIZE_MAX / sizeof (double) / (size_t) n / 16)
        return VM_ENOMEM;
      nd += 4 * sn + 2 * (size_t) n + nn + sn * sn;
    }
  ni = sn + (size_t) w->nev + 1;
  *mem = malloc (nd * sizeof (double));
  *imem = malloc (ni * sizeof (int));
  if (*mem == NULL || *imem == NULL)
    return VM_ENOMEM;
  off = 0;
#define TAKE(ptr, len) (ptr = *mem + off, off += (len))
  TAKE (w->y, n);
  TAKE (w->fy, n);
  TAKE (w->yn, n);
  TAKE (w->fn, n);
  TAKE (w->yd, n);
  TAKE (w->yev, n);
  TAKE (w->ytmp, n);
  TAKE (w->k, nk);
  TAKE (w->rc, nrc);
  TAKE (w->gold, w->nev);
  TAKE (w->gnew, w->nev);
  TAKE (w->gtmp, w->nev);
  TAKE (w->cte, w->nev);
  if (w->s > 0)
    {
      TAKE (w->Z, sn);
      TAKE (w->Zp, sn);
      TAKE (w->Fz, sn);
      TAKE (w->r, sn);
      TAKE (w->comp, n);
      TAKE (w->compn, n);
      TAKE (w->J, nn);
      TAKE (w->M, sn * sn);
      memset (w->comp, 0, (size_t) n * sizeof (double));
      w->gc = w->s == 2 ? gl4_c : gl6_c;
      w->ga = w->s == 2 ? gl4_a : gl6_a;
      w->gb = w->s == 2 ? gl4_b : gl6_b;
    }
#undef TAKE
  w->ipiv = *imem;
  w->cidx = *imem + sn;
  return VM_OK;
}

/* the initial point: stored (unless output times start later), F and the events there */
static int
start_point (ws *w, const double *y0)
{
  const int n = w->n;
  const double t0 = w->t0;
  int st = VM_OK;
  w->t = t0;
  memcpy (w->y, y0, (size_t) n * sizeof (double));
  if (w->ntout == 0)
    st = push_point (w->sol, n, t0, y0);
  else if (w->tout[0] == t0)
    {
      st = push_point (w->sol, n, t0, y0);
      w->iout = 1;
    }
  if (st != VM_OK)
    return st;
  st = rhs (w, t0, w->y, w->fy);
  if (st != 0)
    return st;
  if (! all_finite (n, w->fy))
    return VM_ENONFINITE;
  if (w->nev > 0)
    return events_at (w, t0, w->y, w->gold);
  return VM_OK;
}

/* the integration by the method chosen; VM_STOP_EVENT after a terminal event */
static int
run_method (ws *w)
{
  int st = VM_OK, terminal = 0;
  if (w->method == VM_ODE_DOPRI5)
    st = run_dopri5 (w, &terminal);
  else if (w->method == VM_ODE_DOP853)
    st = run_dop853 (w, &terminal);
  else
    {
      if (w->s > 0)
        st = gl_jacobian (w);
      if (st == VM_OK)
        st = run_fixed (w, &terminal);
    }
  if (st == VM_OK && terminal)
    st = VM_STOP_EVENT;
  return st;
}

int
vm_ode_solve (int n, vm_rhs_fn f, vm_event_fn ev, void *ctx, double t0, double tf,
              const double *y0, const double *tout, size_t ntout, const vm_ode_opts *opts,
              vm_ode_sol *sol)
{
  vm_ode_opts defo;
  ws w;
  double *mem = NULL;
  int *imem = NULL;
  int st;

  if (sol == NULL)
    return VM_EARG;
  sol_reset (sol, n, t0);
  if (opts == NULL)
    {
      vm_ode_opts_init (&defo, VM_ODE_DOPRI5);
      opts = &defo;
    }
  st = validate (n, f, ev, t0, tf, y0, tout, ntout, opts);
  if (st != VM_OK)
    {
      sol->status = st;
      return st;
    }
  ws_init (&w, n, f, ev, ctx, t0, tf, tout, ntout, opts, sol);
  if ((st = ws_alloc (&w, &mem, &imem)) == VM_OK && (st = start_point (&w, y0)) == VM_OK)
    st = run_method (&w);
  free (mem);
  free (imem);
  sol->status = st;
  return st;
}
