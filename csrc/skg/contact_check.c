/* contact_check.c -- the resolution test of regularized contacts along a trajectory (see
 * contact_check.h). */
#include "skg/contact_check.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
vm_contact_check_free (vm_contact_check *k)
{
  if (! k)
    return;
  vm_tape_free (&k->tape);
  free (k->in);
  free (k->inc);
  free (k->out);
  free (k->val);
  free (k->work);
  memset (k, 0, sizeof *k);
}

int
vm_contact_check_init (vm_contact_check *k, const vm_mech *model, const double *par)
{
  int32_t *outs;
  int c, v, st;
  if (! k)
    return VM_EARG;
  memset (k, 0, sizeof *k);
  if (! model || model->nc < 1 || (model->np > 0 && ! par))
    return VM_EARG;
  k->nc = model->nc;
  k->n = model->n;
  k->nvar = model->nvar;
  k->layer = VM_CONTACT_LAYER;
  k->res = VM_CONTACT_RES;
  k->par = par;
  outs = malloc ((size_t) (3 * k->nc) * sizeof *outs);
  k->in = malloc ((size_t) k->nvar * sizeof *k->in);
  k->inc = calloc ((size_t) k->nvar, sizeof *k->inc);
  k->out = malloc ((size_t) (3 * k->nc) * sizeof *k->out);
  if (! outs || ! k->in || ! k->inc || ! k->out)
    {
      free (outs);
      vm_contact_check_free (k);
      return VM_ENOMEM;
    }
  for (c = 0; c < k->nc; c++)
    {
      outs[3 * c] = model->h[c];
      outs[3 * c + 1] = model->hdot[c];
      outs[3 * c + 2] = model->sigma[c];
    }
  /* the tape reads the model's graph only (vm_tape_compile takes it const) */
  st = vm_tape_compile (model->g, 3 * k->nc, outs, &k->tape);
  free (outs);
  if (st == VM_OK)
    {
      k->work = malloc ((vm_tape_work_size (&k->tape) + 1) * sizeof *k->work);
      if (! k->work)
        st = VM_ENOMEM;
    }
  if (st != VM_OK)
    {
      vm_contact_check_free (k);
      return st;
    }
  for (v = 0; v < k->nvar; v++)
    k->in[v] = &k->zero;             /* t, lambda, w: not read by h, hdot, sigma */
  for (v = 0; v < model->np; v++)
    k->in[model->vp + v] = par + v;
  return VM_OK;
}

/* h, hdot and sigma of every contact at the N nodes into k->val (3 nc columns of N). */
static int
eval_nodes (vm_contact_check *k, int64_t N, const double *q, const double *qdot, int64_t ld)
{
  int c, i;
  if (N > k->cap)
    {
      double *nv = realloc (k->val, (size_t) N * (size_t) (3 * k->nc) * sizeof *nv);
      if (! nv)
        return VM_ENOMEM;
      k->val = nv;
      k->cap = N;
    }
  for (i = 0; i < k->n; i++)
    {
      k->in[1 + i] = q + ld * i;             /* model variable layout: t | q | qdot | p | ... */
      k->inc[1 + i] = 1;
      k->in[1 + k->n + i] = qdot + ld * i;
      k->inc[1 + k->n + i] = 1;
    }
  for (c = 0; c < 3 * k->nc; c++)
    k->out[c] = k->val + N * c;
  return vm_tape_eval (&k->tape, (size_t) N, k->in, k->inc, k->out, k->work);
}

int
vm_contact_check_eval (vm_contact_check *k, const vm_contact_traj *tr, int *ok, double *factor,
                       char *why, size_t nwhy)
{
  const int64_t N = tr ? tr->N : 0, ld = tr ? tr->ld : 0;
  const double *t = tr ? tr->t : NULL, *q = tr ? tr->q : NULL, *qdot = tr ? tr->qdot : NULL;
  int c, st, worst_c = -1;
  int64_t j, worst_j = 0;
  double fmin_ = 1.0, worst_dh = 0.0, worst_sig = 0.0;
  if (! k || ! t || ! q || ! qdot || ! ok || ! factor || N < 2 || ld < N)
    return VM_EARG;
  *ok = 1;
  *factor = 1.0;
  if (why && nwhy > 0)
    why[0] = '\0';
  if ((st = eval_nodes (k, N, q, qdot, ld)) != VM_OK)
    return st;
  for (c = 0; c < k->nc; c++)
    {
      const double *h = k->val + N * (3 * c), *hd = h + N, *sg = hd + N;
      for (j = 0; j + 1 < N; j++)
        {
          double sig = fabs (sg[j]), lo = fmin (h[j], h[j + 1]), hi = fmax (h[j], h[j + 1]);
          double dh = fmax (hi - lo, (t[j + 1] - t[j]) * fmax (fabs (hd[j]), fabs (hd[j + 1])));
          double f;
          if (sig == 0.0)
            continue;
          if (! isfinite (h[j] + h[j + 1] + hd[j] + hd[j + 1] + sig + t[j + 1] - t[j]))
            f = 0.5;                       /* (fmin and fmax drop a NaN) */
          else if (lo - dh > k->layer * sig || hi + dh < -k->layer * sig || dh <= k->res * sig)
            continue;
          else
            f = k->res * sig / dh;
          if (f < fmin_)
            {
              fmin_ = f;
              worst_c = c;
              worst_j = j;
              worst_dh = dh;
              worst_sig = sig;
            }
        }
    }
  if (worst_c < 0)
    return VM_OK;
  *ok = 0;
  *factor = fmin_;
  if (why && nwhy > 0)
    snprintf (why, nwhy, "contact %d: h changes by %.3g sigma between the nodes at t = %.9g and "
              "%.9g (h = %.3g sigma there; at most %g sigma within %g sigma of h = 0)",
              worst_c + 1, worst_dh / worst_sig, t[worst_j], t[worst_j + 1],
              k->val[N * (3 * worst_c) + worst_j] / worst_sig, k->res, k->layer);
  return VM_OK;
}
