/* skg_eval.c -- the evaluation of the discrete SKG action (skg.h: vm_skg_eval, vm_skg_eval_plan,
 * vm_skg_eval_reduced): the point variables and the tapes at z, then the action, its gradient and
 * its Hessian summed over the nodes with the quadrature weights and scattered into a target
 * matrix through a plan (skg_plan.h), the boundary terms added.  Apart from skg.c (the action's
 * construction), which it calls, so that the plans and patterns it uses sit below both. */
#include "skg/skg.h"
#include "skg/skg_static.h"
#include "skg/skg_terms.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <stdlib.h>
#include <string.h>

/* ---- evaluation ----------------------------------------------------------------------------- */

/* Add w * gradient of one point term at node k.  d[i] = the point gradient's derivative in active
 * variable vars[i] (stride st), i < nv; vars NULL: in every active variable, nv = na. */
static void
add_grad (const vm_skg *s, int64_t k, double w, const double *d, size_t st, int nv,
          const int *vars, double *grad)
{
  int i, nb = s->nb;
  int64_t kb1, l1, a;
  double o1;
  const int64_t *j1;
  const double *v1;
  for (i = 0; i < nv; i++)
    {
      const int r = vars ? vars[i] : i;
      double dr = w * d[st * i];
      int zc = zcomp (s, r);
      if (dr == 0.0)
        continue;
      support (s, r, k, &j1, &v1, &l1, &kb1, &o1);
      for (a = 0; a < l1; a++)
        grad[j1[a] * nb + zc] += dr * v1[a];
    }
}

/* What one pass of hess_point over the nodes scatters: the point term's entries, the stride st
 * of their values (h[st e] is entry e), the entries left out (skip[e] set; NULL: none) and the
 * target slots left out (slo .. shi-1; none when slo = shi). */
typedef struct
{
  skg_entries ent;
  size_t st;
  const unsigned char *skip;
  int64_t slo, shi;
} hess_pass;

/* Add w * Hessian of one point term at node k (its values h, the pass hp) into tval through the
 * plan: explicit slots xs (2 per contribution) or, xs == NULL, the regular table. */
static void
hess_point (const vm_skg *s, const vm_skg_plan *p, const hess_pass *hp, int64_t k, double w,
            const double *h, const int64_t *xs, double *tval)
{
  const int nh = hp->ent.nh, *hr = hp->ent.hr, *hc = hp->ent.hc;
  const unsigned char *eskip = hp->skip;
  const size_t st = hp->st;
  const int64_t slo = hp->slo, shi = hp->shi;
  int e;
  int64_t idx = 0, kb1, kb2, l1, l2, a, b;
  const int64_t *tcpk = p->tcp + k * p->tb;
  double o1, o2;
  const int64_t *j1, *j2;
  const double *v1, *v2;
#define ADD(slot) do { const int64_t sl_ = (slot); if (sl_ < slo || sl_ >= shi) tval[sl_] += val; } while (0)
  for (e = 0; e < nh; e++)
    {
      const double he = w * h[st * e];
      support (s, hr[e], k, &j1, &v1, &l1, &kb1, &o1);
      support (s, hc[e], k, &j2, &v2, &l2, &kb2, &o2);
      if (he == 0.0 || (eskip && eskip[e]))
        {
          idx += l1 * l2;
          continue;
        }
      if (xs)
        for (a = 0; a < l1; a++)
          for (b = 0; b < l2; b++, idx++)
            {
              const double val = he * v1[a] * v2[b];
              if (xs[2 * idx] >= 0)
                ADD (xs[2 * idx]);
              if (xs[2 * idx + 1] >= 0)
                ADD (xs[2 * idx + 1]);
            }
      else
        for (a = 0; a < l1; a++)
          {
            const double ha = he * v1[a];
            for (b = 0; b < l2; b++, idx++)
              {
                const double val = ha * v2[b];
                if (p->off1[idx] >= 0)
                  ADD (tcpk[p->rel1[idx]] + p->off1[idx]);
                if (p->off2[idx] >= 0)
                  ADD (tcpk[p->rel2[idx]] + p->off2[idx]);
              }
          }
    }
#undef ADD
}

/* The point variables of z into s->x (q+ = qo + z, q-, lambda+- and the velocities Ds z, with
 * the affine part of Da on the + branch, H^{-1} e_0 (qo - q_i): vm_skg_set_origin), and the
 * density's tape (term: the full one, or the reduced one, which reads no minus variable: those are
 * not filled, and 0 for the boundary) and the boundary's evaluated (points and the two boundary
 * points). */
static int
eval_points (vm_skg *s, const double *z, int term)
{
  int64_t N = s->N, k, e;
  int n = s->n, m = s->m, nb = s->nb, na = s->na, c, r, st;
  const int red = term == VM_SKG_TERM_REDUCED;
  for (k = 0; k < N; k++)
    {
      for (c = 0; c < 2 * n; c++)
        if (! red || c < n)
          s->x[(size_t) N * c + k] = c < n ? s->qo[c] + z[k * nb + c] : z[k * nb + c];
      for (c = 0; c < 2 * m; c++)
        if (! red || c < m)
          s->x[(size_t) N * (4 * n + c) + k] = z[k * nb + 2 * n + c];
    }
  for (c = 0; c < (red ? n : 2 * n); c++)
    {
      double *vc = s->x + (size_t) N * (2 * n + c);
      for (k = 0; k < N; k++)
        {
          double sum = 0.0;
          for (e = s->dsp[k]; e < s->dsp[k + 1]; e++)
            sum += s->dsv[e] * z[s->dsj[e] * nb + c];
          vc[k] = sum;
        }
      if (c < n)
        vc[0] += (s->qo[c] - s->qi[c]) / s->hw[0];   /* affine part of Da on the + branch */
    }
  st = red ? vm_tape_eval (&s->tr, (size_t) N, s->in, s->inc, s->outpr, s->work)
            : vm_tape_eval (&s->ts, (size_t) N, s->in, s->inc, s->outp, s->work);
  if (st != VM_OK)
    return st;
  s->ntape++;
  for (r = 0; r < na; r++)
    {
      s->xb[2 * r] = red && is_minus (s, r) ? 0.0 : s->x[(size_t) N * r];
      s->xb[2 * r + 1] = red && is_minus (s, r) ? 0.0 : s->x[(size_t) N * r + N - 1];
    }
  return vm_tape_eval (&s->tb, 2, s->inb, s->incb, s->outpb, s->work);
}

/* The boundary terms b(0) + b(N-1) + q-_0 . p_i added to *acc, grad and hval. */
static void
add_boundary (const vm_skg *s, const double *z, const vm_skg_plan *p, double *acc, double *grad,
              double *hval)
{
  const hess_pass hb = { boundary_entries (s), 2, NULL, 0, 0 };
  int64_t N = s->N;
  int n = s->n, na = s->na, c;
  *acc += s->outb[0] + s->outb[1];
  if (grad)
    {
      add_grad (s, 0, 1.0, s->outb + 2, 2, s->na, NULL, grad);
      add_grad (s, N - 1, 1.0, s->outb + 3, 2, s->na, NULL, grad);
    }
  if (hval)
    {
      hess_point (s, p, &hb, 0, 1.0, s->outb + 2 * (1 + na), p->bslot, hval);
      hess_point (s, p, &hb, N - 1, 1.0, s->outb + 2 * (1 + na) + 1, p->bslot + 2 * p->nbcon[0],
                  hval);
    }
  for (c = 0; c < n; c++)
    {
      *acc += z[n + c] * s->pi[c];
      if (grad)
        grad[n + c] += s->pi[c];
    }
}

/* The tapes' outputs at z for the term (eval_points), unless they are there already: a Jacobian
 * at the point of the previous residual (Newton's accepted trial point) reuses them.  *t1: the
 * wall-clock time after it. */
static int
points_at (vm_skg *s, const double *z, int term, double *t1)
{
  double t0;
  int st;
  if (s->zlast_ok && s->zlast_term == term && memcmp (s->zlast, z, (size_t) s->nz * sizeof *z) == 0)
    {
      *t1 = vm_wall_time ();
      return VM_OK;
    }
  s->zlast_ok = 0;
  t0 = vm_wall_time ();
  if ((st = eval_points (s, z, term)) != VM_OK)
    return st;
  *t1 = vm_wall_time ();
  s->t_tape += *t1 - t0;
  memcpy (s->zlast, z, (size_t) s->nz * sizeof *z);
  s->zlast_ok = 1;
  s->zlast_term = term;
  return VM_OK;
}

/* p->tmpl: the static entries' contributions of the nodes tc_lo .. tc_hi-1 (all that reach node
 * kref's columns) to those columns, scattered by hess_point into hval (the slots of those columns
 * zeroed first; hval's other slots are left as they come and rewritten by hess_static). */
static void
static_template (const vm_skg *s, vm_skg_plan *p, const double *h, double *hval)
{
  const int64_t N = s->N, base = p->tcp[p->kref * p->tb];
  const hess_pass hs = { { s->nhr, s->hrr, s->hrc }, (size_t) N, p->estat, 0, 0 };
  int64_t k;
  memset (hval + base, 0, (size_t) p->ntmpl * sizeof *hval);
  for (k = p->tc_lo; k < p->tc_hi; k++)
    hess_point (s, p, &hs, k, s->hw[k], h + k, p->xstart[k] >= 0 ? p->xslot + p->xstart[k] : NULL,
                hval);
  memcpy (p->tmpl, hval + base, (size_t) p->ntmpl * sizeof *hval);
}

/* The reduced Hessian with the plan's static part (vm_skg_static_prepare, made before): zeros
 * outside the template columns, the template copied into them, the dynamic entries of every node,
 * the static entries of the nodes outside ks_lo .. ks_hi-1 where they do not land in the template
 * columns. */
static void
hess_static (const vm_skg *s, const vm_skg_plan *p, const double *h, double *hval)
{
  int64_t N = s->N, k, tb = p->tb, nnz = p->tcp[p->nt];
  const int64_t slo = p->tcp[p->kc_lo * tb], shi = p->tcp[p->kc_hi * tb];
  const hess_pass hd = { { s->nhr, s->hrr, s->hrc }, (size_t) N, p->edyn, 0, 0 };
  const hess_pass hs = { { s->nhr, s->hrr, s->hrc }, (size_t) N, p->estat, slo, shi };
  memset (hval, 0, (size_t) slo * sizeof *hval);
  memset (hval + shi, 0, (size_t) (nnz - shi) * sizeof *hval);
  for (k = p->kc_lo; k < p->kc_hi; k++)
    memcpy (hval + p->tcp[k * tb], p->tmpl, (size_t) p->ntmpl * sizeof *hval);
  for (k = 0; k < N; k++)
    {
      const int64_t *xs = p->xstart[k] >= 0 ? p->xslot + p->xstart[k] : NULL;
      hess_point (s, p, &hd, k, s->hw[k], h + k, xs, hval);
      if (k < p->ks_lo || k >= p->ks_hi)
        hess_point (s, p, &hs, k, s->hw[k], h + k, xs, hval);
    }
}

/* The density tape's outputs that assemble sums, N values each: the gradient's nv outputs d (of
 * the active variables vars; NULL: all na) and the Hessian's h (the plan's term's entries). */
typedef struct
{
  const double *d;
  int nv;
  const int *vars;
  const double *h;
} tape_outputs;

/* The density's gradient and Hessian summed over the nodes (quadrature weights H_kk) from the
 * tape outputs o, then the boundary terms; grad and hval zeroed first.  t1: the time the tapes
 * ended (statistics). */
static void
assemble (vm_skg *s, const double *z, const vm_skg_plan *p, const tape_outputs *o, double *acc,
          double *grad, double *hval, double t1)
{
  const double *d = o->d, *h = o->h;
  const int nv = o->nv, *vars = o->vars;
  int64_t N = s->N, k;
  double t0;
  if (grad)
    {
      memset (grad, 0, (size_t) s->nz * sizeof *grad);
      for (k = 0; k < N; k++)
        add_grad (s, k, s->hw[k], d + k, (size_t) N, nv, vars, grad);
    }
  if (hval && p->term == VM_SKG_TERM_REDUCED)
    hess_static (s, p, h, hval);
  else if (hval)
    {
      const hess_pass hf = { term_entries (s, p), (size_t) N, p->eskip, 0, 0 };
      memset (hval, 0, (size_t) p->tcp[p->nt] * sizeof *hval);
      for (k = 0; k < N; k++)
        hess_point (s, p, &hf, k, s->hw[k], h + k,
                    p->xstart[k] >= 0 ? p->xslot + p->xstart[k] : NULL, hval);
    }
  t0 = vm_wall_time ();
  if (hval)
    s->t_hess += t0 - t1;
  else
    s->t_grad += t0 - t1;
  add_boundary (s, z, p, acc, grad, hval);
}

int
vm_skg_eval_plan (vm_skg *s, const double *z, double *S, double *grad, const vm_skg_plan *p,
                  double *hval)
{
  int64_t N, k;
  int na, st;
  double acc = 0.0, t1;
  if (! s || ! s->g || ! z || (hval && (! p || p->term != VM_SKG_TERM_FULL)))
    return VM_EARG;
  N = s->N;
  na = s->na;
  if ((st = points_at (s, z, VM_SKG_TERM_FULL, &t1)) != VM_OK)
    return st;
  for (k = 0; k < N; k++)
    acc += s->hw[k] * s->out[k];
  {
    const tape_outputs o = { s->out + N, na, NULL, s->out + (size_t) N * (1 + na) };
    assemble (s, z, p, &o, &acc, grad, hval, t1);
  }
  if (S)
    *S = acc;
  return VM_OK;
}

int
vm_skg_eval_reduced (vm_skg *s, const double *z, double *grad, vm_skg_plan *p, double *hval)
{
  int st;
  double acc = 0.0, t1;
  if (! s || ! s->g || ! z || (hval && (! p || p->term != VM_SKG_TERM_REDUCED)))
    return VM_EARG;
  if ((st = vm_skg_reduced_init (s)) != VM_OK
      || (st = points_at (s, z, VM_SKG_TERM_REDUCED, &t1)) != VM_OK)
    return st;
  if (hval)
    {
      int fresh;
      if ((st = vm_skg_static_prepare (s, p, &fresh)) != VM_OK)
        return st;
      if (fresh)
        static_template (s, p, s->outr + (size_t) s->N * s->ngr, hval);
    }
  {
    const tape_outputs o = { s->outr, s->ngr, s->grv, s->outr + (size_t) s->N * s->ngr };
    assemble (s, z, p, &o, &acc, grad, hval, t1);
  }
  return VM_OK;
}

int
vm_skg_eval (vm_skg *s, const double *z, double *S, double *grad, double *hval)
{
  if (! s || ! s->g || ! z)
    return VM_EARG;
  if (hval && ! s->full_ok)
    {
      int c, st, *id = malloc ((size_t) s->nb * sizeof *id);
      if (! id)
        return VM_ENOMEM;
      for (c = 0; c < s->nb; c++)
        id[c] = c;
      st = vm_skg_full_pattern (s);
      if (st == VM_OK)
        {
          const vm_skg_target t = { s->nb, id, id, s->nz, s->colptr, s->rowind };
          st = vm_skg_plan_build (s, VM_SKG_TERM_FULL, &t, &s->full);
        }
      free (id);
      if (st != VM_OK)
        return st;
      s->full_ok = 1;
    }
  return vm_skg_eval_plan (s, z, S, grad, hval ? &s->full : NULL, hval);
}
