/* skg_static.c -- the static part of a reduced plan (skg_static.h, vm_skg_plan; used by
 * vm_skg_eval_reduced in skg_eval.c).
 *
 * A Hessian entry of the reduced tape that depends on no point variable and not on t (s->hrs: a
 * constant mass m in m/2 |qdot|^2 gives d2s / dv- dv+ = m) contributes w_k c v1[a] v2[b] at every
 * node, where w_k = H_kk and v1, v2 are the node's Ds row.  In the interior of the grid H_kk and the
 * Ds rows are those of the reference node shifted, so every interior column receives the same
 * static values: they are summed once per window for the tb columns of node kref (the template)
 * and copied to the others, instead of scattering the (stencil length)^2 contributions of each
 * such entry at every node (for a mechanical system with a constant mass matrix most of the
 * contributions are static).  The nodes near the ends, whose weights or stencils differ, keep
 * the scatter.  This file finds where the template applies; skg_eval.c sums it (static_template,
 * with the scatter itself). */
#include "skg/skg_static.h"
#include "skg/skg_terms.h"
#include "base/vm_status.h"

#include <stdlib.h>

/* The skip masks of the two passes of hess_static (skg_eval.c): the dynamic pass skips the static
 * entries, the static pass the others, both what the plan skips anyway.  VM_OK or VM_ENOMEM. */
static int
masks (const vm_skg *s, vm_skg_plan *p)
{
  int e;
  p->edyn = malloc ((size_t) s->nhr + 1);
  p->estat = malloc ((size_t) s->nhr + 1);
  if (! p->edyn || ! p->estat)
    return VM_ENOMEM;
  for (e = 0; e < s->nhr; e++)
    {
      p->edyn[e] = (unsigned char) (p->eskip[e] || s->hrs[e]);
      p->estat[e] = (unsigned char) (p->eskip[e] || ! s->hrs[e]);
    }
  return VM_OK;
}

/* 1 when node k follows the reference table with kref's weight H_kk and Ds row (values too). */
static int
plain (const vm_skg *s, const vm_skg_plan *p, int64_t k)
{
  int64_t a, dk = s->dsp[k], dr = s->dsp[p->kref];
  if (p->xstart[k] >= 0 || s->hw[k] != s->hw[p->kref] || s->dsp[k + 1] - dk != p->lref)
    return 0;
  for (a = 0; a < p->lref; a++)
    if (s->dsv[dk + a] != s->dsv[dr + a] || s->dsj[dk + a] - k != p->dref[a])
      return 0;
  return 1;
}

/* 1 when the tb columns of node kc have the pattern of node kref's, shifted by kc - kref nodes. */
static int
same_columns (const vm_skg_plan *p, int64_t kc)
{
  const int64_t tb = p->tb, j0 = kc * tb, r0 = p->kref * tb, sh = (kc - p->kref) * tb;
  int64_t c, i;
  for (c = 0; c < tb; c++)
    {
      const int64_t len = p->tcp[j0 + c + 1] - p->tcp[j0 + c];
      if (len != p->tcp[r0 + c + 1] - p->tcp[r0 + c])
        return 0;
      for (i = 0; i < len; i++)
        if (p->tri[p->tcp[j0 + c] + i] != p->tri[p->tcp[r0 + c] + i] + sh)
          return 0;
    }
  return 1;
}

int
vm_skg_static_prepare (const vm_skg *s, vm_skg_plan *p, int *fresh)
{
  const int64_t N = s->N, kref = p->kref, tb = p->tb;
  int64_t lo, hi, pl, pr, kc_lo, kc_hi;
  int stat;
  *fresh = 0;
  if (p->edyn && p->tmpl_window == s->window)
    return VM_OK;
  if (! p->edyn && (stat = masks (s, p)) != VM_OK)
    return stat;
  if (! p->tmpl)
    {
      p->ntmpl = p->tcp[(kref + 1) * tb] - p->tcp[kref * tb];
      if (! (p->tmpl = malloc ((size_t) (p->ntmpl + 1) * sizeof *p->tmpl)))
        return VM_ENOMEM;
    }
  p->kc_lo = p->kc_hi = p->ks_lo = p->ks_hi = 0;     /* no template: everything scattered */
  p->tmpl_window = s->window;
  if (p->lref < 1 || ! plain (s, p, kref))
    return VM_OK;
  /* node k's contributions reach the columns of nodes k + lo .. k + hi */
  lo = p->dref[0] < 0 ? p->dref[0] : 0;
  hi = p->dref[p->lref - 1] > 0 ? p->dref[p->lref - 1] : 0;
  for (pl = kref; pl > 0 && plain (s, p, pl - 1); pl--)
    ;
  for (pr = kref; pr < N - 1 && plain (s, p, pr + 1); pr++)
    ;
  /* template columns: all their contributors plain, their pattern kref's shifted */
  if (kref < pl + hi || kref > pr + lo)
    return VM_OK;
  for (kc_lo = kref; kc_lo - 1 >= pl + hi && same_columns (p, kc_lo - 1); kc_lo--)
    ;
  for (kc_hi = kref; kc_hi + 1 <= pr + lo && same_columns (p, kc_hi + 1); kc_hi++)
    ;
  p->kc_lo = kc_lo;
  p->kc_hi = kc_hi + 1;
  /* the nodes whose contributions all land in template columns (plain: inside pl .. pr), and
   * those that reach node kref's columns (the template's contributors) */
  p->ks_lo = kc_lo - lo;
  p->ks_hi = kc_hi - hi + 1 > p->ks_lo ? kc_hi - hi + 1 : p->ks_lo;
  p->tc_lo = kref - hi;
  p->tc_hi = kref - lo + 1;
  *fresh = 1;
  return VM_OK;
}
