/* march_record.c -- the march's records (march_impl.h): the output trajectory, the accepted
 * windows, the rejections and the Newton history, grown by doubling as the march runs.
 *
 * Cost: amortized O(1) per value appended; the node arrays come from vm_scratch.h (huge pages
 * from 2 MB on, kept between solves), the small records from malloc.  Errors: VM_ENOMEM (the
 * records hold what they held).  Why node-major rows until the end: a window appends its nodes
 * contiguously, and one transposition at the end gives the column-major output. */
#include "march/march_impl.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <stdlib.h>
#include <string.h>

/* *p (from vm_scratch.h, or NULL) replaced by a block of cap doubles holding its first used */
static int
grow_block (double **p, size_t used, size_t cap)
{
  double *q = vm_scratch_alloc (cap * sizeof *q);
  if (! q)
    return VM_ENOMEM;
  if (*p && used > 0)
    memcpy (q, *p, used * sizeof *q);
  vm_scratch_free (*p);
  *p = q;
  return VM_OK;
}

int
march_grow_nodes (march_mem *m, int64_t need)
{
  vm_march_sol *s = m->s;
  const size_t no = (size_t) (s->nout > 0 ? s->nout : 1);
  int64_t cap = m->cap > 0 ? m->cap : 256;
  if (need <= m->cap)
    return VM_OK;
  while (cap < need)
    cap *= 2;
  if (grow_block (&m->rows, (size_t) s->ntot * no, (size_t) cap * no) != VM_OK
      || grow_block (&m->t, (size_t) s->ntot, (size_t) cap) != VM_OK)
    return VM_ENOMEM;
  m->cap = cap;
  return VM_OK;
}

#define GROW(ptr, n)                                                                        \
  do                                                                                        \
    {                                                                                       \
      void *np_ = realloc ((ptr), (size_t) (n) * sizeof *(ptr));                            \
      if (! np_)                                                                            \
        return VM_ENOMEM;                                                                   \
      (ptr) = np_;                                                                          \
    }                                                                                       \
  while (0)

static int
grow_windows (march_mem *m, int need)
{
  vm_march_sol *s = m->s;
  if (need <= m->wcap)
    return VM_OK;
  {
    int cap = m->wcap > 0 ? 2 * m->wcap : 16;
    while (cap < need)
      cap *= 2;
    GROW (s->win_t0, cap);
    GROW (s->win_t1, cap);
    GROW (s->win_err, cap);
    GROW (s->win_iter, cap);
    GROW (s->win_citer, cap);
    GROW (s->win_status, cap);
    GROW (s->win_first, cap + 1);
    m->wcap = cap;
  }
  return VM_OK;
}

int
march_add_rejection (march_mem *m, double t0, double len, int reason, double err)
{
  vm_march_sol *s = m->s;
  if (s->nrej + 1 > m->rcap)
    {
      int cap = m->rcap > 0 ? 2 * m->rcap : 16;
      GROW (s->rej_t0, cap);
      GROW (s->rej_len, cap);
      GROW (s->rej_err, cap);
      GROW (s->rej_reason, cap);
      m->rcap = cap;
    }
  s->rej_t0[s->nrej] = t0;
  s->rej_len[s->nrej] = len;
  s->rej_err[s->nrej] = err;
  s->rej_reason[s->nrej] = reason;
  s->nrej++;
  return VM_OK;
}

int
march_add_history (march_mem *m, int win, const vm_newton_info *info)
{
  vm_march_sol *s = m->s;
  int k;
  if (s->nhist + info->nhist > m->hcap)
    {
      int cap = m->hcap > 0 ? 2 * m->hcap : 64;
      while (cap < s->nhist + info->nhist)
        cap *= 2;
      GROW (s->hist_win, cap);
      GROW (s->res_hist, cap);
      GROW (s->step_hist, cap);
      GROW (s->lambda_hist, cap);
      GROW (s->kind_hist, cap);
      m->hcap = cap;
    }
  for (k = 0; k < info->nhist; k++)
    {
      s->hist_win[s->nhist + k] = win;
      s->res_hist[s->nhist + k] = info->res_hist[k];
      s->step_hist[s->nhist + k] = info->step_hist[k];
      s->lambda_hist[s->nhist + k] = info->lambda_hist[k];
      s->kind_hist[s->nhist + k] = info->kind_hist[k];
    }
  s->nhist += info->nhist;
  return VM_OK;
}

int
march_append_window (march_mem *m, int iter, int status)
{
  vm_march_sol *s = m->s;
  const vm_march_action *a = m->a;
  int64_t N = a->N, k, k0 = s->nwin > 0 ? 1 : 0;
  int c, st;
  if ((st = march_grow_nodes (m, s->ntot + N)) != VM_OK
      || (st = grow_windows (m, s->nwin + 1)) != VM_OK)
    return st;
  if (s->nwin == 0)
    s->win_first[0] = 0;
  for (k = k0; k < N; k++)
    {
      m->t[s->ntot] = a->t[k];
      for (c = 0; c < s->nout; c++)
        m->rows[s->ntot * s->nout + c] = m->tm[k + N * c];
      s->ntot++;
    }
  s->win_t0[s->nwin] = m->ta;
  s->win_t1[s->nwin] = m->tb;
  s->win_err[s->nwin] = m->err;
  s->win_iter[s->nwin] = iter;
  s->win_citer[s->nwin] = m->citer;
  s->win_status[s->nwin] = status;
  s->nwin++;
  s->win_first[s->nwin] = s->ntot;
  return VM_OK;
}

int
march_finish_output (march_mem *m)
{
  vm_march_sol *s = m->s;
  int64_t k;
  int c;
  s->t = vm_scratch_alloc ((size_t) (s->ntot > 0 ? s->ntot : 1) * sizeof *s->t);
  s->traj = vm_scratch_alloc ((size_t) (s->ntot > 0 ? s->ntot : 1)
                              * (size_t) (s->nout > 0 ? s->nout : 1) * sizeof *s->traj);
  if (! s->t || ! s->traj)
    return VM_ENOMEM;
  for (k = 0; k < s->ntot; k++)
    {
      s->t[k] = m->t[k];
      for (c = 0; c < s->nout; c++)
        s->traj[k + s->ntot * c] = m->rows[k * s->nout + c];
    }
  return VM_OK;
}
