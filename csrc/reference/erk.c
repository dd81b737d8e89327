/* erk.c -- the adaptive explicit Runge-Kutta driver of vm_ode_solve: one loop for every embedded
 * pair given by a method table (vm_erk_method, ode_mem.h), as Octave's ode45 hands its stepper to
 * one driver; DOPRI5 and DOP853 are two tables (erk_dopri5.c, erk_dop853.c).
 *
 * Contract: vm_erk_run steps from (w->t, w->y), F(t, y) in w->fy, to w->tf with Hairer's
 * step-size controller: fac = err^(1/q - 0.75 beta) / facold^beta, hnew = h / clamp(fac / safe)
 * between 1/facmax and 1/facmin, no growth right after a rejection, |h| <= hmax and the step
 * check's bound, starting step from Hairer's HINIT unless opts->h0 is given.  Each trial costs the
 * table's stages (nstage - 1 evaluations of F, one more for F(tn, y1)) and O(stages n) flops; an
 * accepted step with dense output adds the table's dense routine.  Returns VM_OK at tf (or
 * *terminal = 1 at a terminal event), VM_EMAXSTEPS, VM_EHMIN, VM_ENONFINITE (a non-finite trial
 * value stops the run: no retry), VM_ENOMEM, or a user code.
 */
#include <float.h>
#include <math.h>

#include "reference/ode_mem.h"
#include "base/vm_status.h"

int
vm_erk_gather (const vm_ode_mem *w, const double *wt, int j0, int j1, const double **kp, double *cw)
{
  int j, m = 0;
  for (j = j0; j < j1; j++)
    if (wt[j] != 0.0)
      {
        kp[m] = w->K[j];
        cw[m] = wt[j];
        m++;
      }
  return m;
}

/* the stage pointers other than K[0], K[s] and the nonzero pattern of a, once per solve, so that
 * a step scans no zero coefficient */
static void
erk_setup (vm_ode_mem *w)
{
  const vm_erk_method *me = w->erk;
  const int s = me->nstage;
  int i, j;
  for (j = 1; j < me->nall; j++)
    if (j != s)
      w->K[j] = w->k + (size_t) (j < s ? j - 1 : j - 2) * (size_t) w->n;
  for (i = 0; i < me->nall; i++)
    {
      const double *arow = me->a + (size_t) i * me->lda;
      w->nnz[i] = 0;
      for (j = 0; j < i; j++)
        if (arow[j] != 0.0)
          {
            w->nzc[i][w->nnz[i]] = j;
            w->nzw[i][w->nnz[i]] = arow[j];
            w->nnz[i]++;
          }
    }
}

/* A row with a single coefficient is formed as (h a) k, the others as h (sum a k), the order of
 * Hairer's Fortran codes, so that the results are theirs to the last bit. */
void
vm_erk_combine (vm_ode_mem *w, int row, double h, double *out, double *inc)
{
  const double *kp[VM_ERK_MAXSTAGE], *y = w->y, *cw = w->nzw[row];
  const int n = w->n, m = w->nnz[row];
  int i, l;
  for (l = 0; l < m; l++)
    kp[l] = w->K[w->nzc[row][l]];
  if (m == 1 && inc == NULL)
    {
      const double ha = h * cw[0];
      for (i = 0; i < n; i++)
        out[i] = y[i] + ha * kp[0][i];
      return;
    }
  for (i = 0; i < n; i++)
    {
      const double acc = vm_erk_wsum (m, cw, kp, i);
      if (inc != NULL)
        inc[i] = acc;
      out[i] = y[i] + h * acc;
    }
}

int
vm_erk_eval_stage (vm_ode_mem *w, int j, double h, double tn)
{
  const double cj = w->erk->c[j];
  vm_erk_combine (w, j, h, w->ytmp, NULL);
  return vm_ode_rhs (w, cj == 1.0 ? tn : w->t + cj * h, w->ytmp, w->K[j]);
}

/* weighted norms of Hairer's HINIT use sums; sk = atol + rtol |y_i| (guarded against 0) */
static double
sk_of (double atol, double rtol, double y)
{
  double sk = atol + rtol * fabs (y);
  return sk > 0.0 ? sk : DBL_MIN;
}

/* Hairer's HINIT: h^q max(|f0|, |f'|) = 0.01 in the weighted norm, one evaluation of F (into the
 * stage vector k_1, free before the first step) */
static int
erk_hinit (vm_ode_mem *w, int iord, double *hout)
{
  const int n = w->n;
  const double atol = w->o->atol, rtol = w->o->rtol, hmax = w->hmax;
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
  st = vm_ode_rhs (w, w->t + w->dir * h, w->ytmp, w->k);
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

/* the trial's limits: step count, smallest step, the last step shortened to end at tf */
static int
erk_limits (vm_ode_mem *w, long max_steps)
{
  const double t = w->t, h = w->h;
  if (w->sol->nsteps >= max_steps)
    return VM_EMAXSTEPS;
  if (! (fabs (h) >= 16.0 * DBL_EPSILON * fabs (t)) || h == 0.0)
    return VM_EHMIN;
  if ((t + 1.01 * h - w->tf) * w->dir >= 0.0)
    {
      w->h = w->tf - t;
      w->last = 1;
    }
  return VM_OK;
}

/* one trial step of size w->h to tn: the stages, y1 (w->yn), F(tn, y1) when the table evaluates it
 * with the step, and the error into *err */
static int
erk_step (vm_ode_mem *w, double tn, double *err)
{
  const vm_erk_method *me = w->erk;
  const double h = w->h;
  int j, st;
  w->K[0] = w->fy;
  w->K[me->nstage] = w->fn;
  for (j = 1; j < me->nstage; j++)
    if ((st = vm_erk_eval_stage (w, j, h, tn)) != 0)
      return st;
  vm_erk_combine (w, me->nstage, h, w->yn, w->ytmp);
  if (me->fsal_in_step)
    {
      if ((st = vm_ode_rhs (w, tn, w->yn, w->fn)) != 0)
        return st;
      if (! vm_ode_all_finite (w->n, w->yn) || ! vm_ode_all_finite (w->n, w->fn))
        return VM_ENONFINITE;
    }
  else if (! vm_ode_all_finite (w->n, w->yn))
    return VM_ENONFINITE;
  return me->error (w, h, err);
}

/* an accepted step to w->tn: F(tn, y1) (FSAL) unless the step made it, the dense coefficients */
static int
erk_accept (vm_ode_mem *w)
{
  const vm_erk_method *me = w->erk;
  int st;
  if (! me->fsal_in_step)
    {
      if ((st = vm_ode_rhs (w, w->tn, w->yn, w->fn)) != 0)
        return st;
      if (! vm_ode_all_finite (w->n, w->fn))
        return VM_ENONFINITE;
    }
  w->sol->naccept++;
  if (w->dense)
    return me->dense (w, w->h);
  return VM_OK;
}

/* Events and output of the accepted step, then the limits on the next step (hmax; no increase
 * right after a rejection; the step check's bound).  Returns 1 when the run must return *st (tf
 * reached, terminal event or an error). */
static int
erk_accepted (vm_ode_mem *w, int *terminal, double *hnew, int *st)
{
  *st = vm_ode_after_step (w, terminal);
  if (*st != VM_OK || *terminal)
    return 1;
  vm_ode_advance (w);
  if (w->last)
    return 1;
  if (fabs (*hnew) > w->hmax)
    *hnew = w->dir * w->hmax;
  if (w->reject)
    *hnew = w->dir * fmin (fabs (*hnew), fabs (w->h));
  if (fabs (*hnew) > w->hlim)
    *hnew = w->dir * w->hlim;
  w->reject = 0;
  return 0;
}

int
vm_erk_run (vm_ode_mem *w, int *terminal)
{
  const vm_erk_method *me = w->erk;
  const vm_ode_opts *o = w->o;
  vm_ode_sol *sol = w->sol;
  const long max_steps = o->max_steps > 0 ? o->max_steps : 10000000L;
  const double safe = me->safe, facc1 = 1.0 / me->facmin, facc2 = 1.0 / me->facmax;
  const double beta = me->beta, expo1 = 1.0 / me->order - 0.75 * beta;
  int st;

  erk_setup (w);
  w->hmax = o->hmax > 0.0 ? o->hmax : fabs (w->tf - w->t0);
  w->facold = 1e-4;
  w->reject = w->last = 0;
  if (o->h0 > 0.0)
    w->h = fmin (o->h0, w->hmax);
  else if ((st = erk_hinit (w, me->order, &w->h)) != VM_OK)
    return st;
  w->h *= w->dir;

  for (;;)
    {
      double err, fac11, fac, hnew, tn, cfac;
      int ok = 1;
      if ((st = erk_limits (w, max_steps)) != VM_OK)
        return st;
      tn = w->last ? w->tf : w->t + w->h;
      sol->nsteps++;
      if ((st = erk_step (w, tn, &err)) != VM_OK)
        return st;

      fac11 = pow (err, expo1);
      fac = fac11 / pow (w->facold, beta);
      fac = fmax (facc2, fmin (facc1, fac / safe));
      hnew = w->h / fac;

      if (err <= 1.0 && (st = vm_ode_check_step (w, tn, &ok, &cfac)) != VM_OK)
        return st;
      if (err <= 1.0 && ok)
        {
          w->facold = fmax (err, 1e-4);
          w->tn = tn;
          if ((st = erk_accept (w)) != VM_OK)
            return st;
          if (erk_accepted (w, terminal, &hnew, &st))
            return st;
        }
      else
        {
          /* the step check's fraction, or Hairer's factor after an error rejection */
          hnew = ok ? w->h / fmin (facc1, fac11 / safe) : w->h * cfac;
          w->reject = 1;
          w->last = 0;
          if (ok)
            sol->nreject++;
        }
      w->h = hnew;
    }
}
