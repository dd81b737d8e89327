/* skg.c -- the construction of the discrete SKG action, boundary formulation F4 (skg.h,
 * doc/skg_boundary.md): the density and boundary tapes compiled from the model, Ds, the point
 * arrays, a new window or origin, the reduced tape, and the freeing.  Its evaluation is
 * skg_eval.c, which calls this file; the plans and patterns (skg_plan.c, skg_pattern.c) sit
 * below both and need only the data (skg_types.h). */
#include "skg/skg.h"
#include "skg/skg_terms.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- active point variables ----------------------------------------------------------------- */

int64_t
vm_skg_index (const vm_skg *s, int64_t k, int kind, int c)
{
  int off = kind == 0 ? 0 : kind == 1 ? s->n : kind == 2 ? 2 * s->n : 2 * s->n + s->m;
  return k * s->nb + off + c;
}

static int
is_zero (const vm_graph *g, int32_t id)
{
  const vm_node *nd = vm_graph_node (g, id);
  return nd && nd->op == VM_OP_CONST && nd->c == 0.0;
}

/* ---- copying the model's roots into the private graph (identity on the model's variables) ---- */

static int
copy_roots (const vm_graph *src, vm_graph *dst, int nroot, const int32_t *roots, int32_t *out)
{
  size_t nn = vm_graph_size (src), id;
  unsigned char *mark = calloc (nn > 0 ? nn : 1, 1);
  int32_t *map = malloc ((nn > 0 ? nn : 1) * sizeof *map);
  int k, st = VM_OK;
  if (! mark || ! map)
    {
      free (mark);
      free (map);
      return VM_ENOMEM;
    }
  for (k = 0; k < nroot; k++)
    {
      if (roots[k] < 0 || (size_t) roots[k] >= nn)
        {
          st = VM_EARG;
          goto done;
        }
      mark[roots[k]] = 1;
    }
  for (id = nn; id-- > 0;)
    if (mark[id])
      {
        const vm_node *nd = vm_graph_node (src, (int32_t) id);
        int ar = vm_op_arity (nd->op);
        if (ar >= 1 && nd->op != VM_OP_VAR)
          mark[nd->a] = 1;
        if (ar == 2)
          mark[nd->b] = 1;
      }
  for (id = 0; id < nn; id++)
    if (mark[id])
      {
        const vm_node *nd = vm_graph_node (src, (int32_t) id);
        if (nd->op == VM_OP_CONST)
          map[id] = vm_const (dst, nd->c);
        else if (nd->op == VM_OP_VAR)
          map[id] = vm_var (dst, nd->a);
        else if (vm_op_arity (nd->op) == 1)
          map[id] = vm_unary (dst, nd->op, map[nd->a]);
        else
          map[id] = vm_binary (dst, nd->op, map[nd->a], map[nd->b]);
        if (map[id] < 0)
          {
            st = vm_graph_status (dst) != VM_OK ? vm_graph_status (dst) : VM_ENOMEM;
            goto done;
          }
      }
  for (k = 0; k < nroot; k++)
    out[k] = map[roots[k]];
done:
  free (mark);
  free (map);
  return st;
}

/* ---- build ---------------------------------------------------------------------------------- */

static int
compile_term (vm_skg *s, int32_t f, vm_tape *tp, int *nh, int **hr, int **hc)
{
  int na = s->na, r, c, cnt = 0, st;
  int32_t *outs = malloc ((size_t) (1 + na + na * (na + 1) / 2) * sizeof *outs);
  int32_t *d = malloc ((size_t) (na > 0 ? na : 1) * sizeof *d);
  *hr = malloc ((size_t) (na * (na + 1) / 2 + 1) * sizeof **hr);
  *hc = malloc ((size_t) (na * (na + 1) / 2 + 1) * sizeof **hc);
  if (! outs || ! d || ! *hr || ! *hc)
    {
      free (outs);
      free (d);
      return VM_ENOMEM;
    }
  outs[0] = f;
  for (r = 0; r < na; r++)
    outs[1 + r] = d[r] = vm_diff (s->g, f, s->base + 1 + r);
  for (r = 0; r < na; r++)
    for (c = 0; c <= r; c++)
      {
        int32_t h = vm_diff (s->g, d[r], s->base + 1 + c);
        if (h < 0)
          {
            free (outs);
            free (d);
            return VM_ENOMEM;
          }
        if (! is_zero (s->g, h))
          {
            (*hr)[cnt] = r;
            (*hc)[cnt] = c;
            outs[1 + na + cnt] = h;
            cnt++;
          }
      }
  *nh = cnt;
  st = vm_graph_status (s->g);
  if (st == VM_OK)
    st = vm_tape_compile (s->g, 1 + na + cnt, outs, tp);
  free (outs);
  free (d);
  return st;
}

#define B2(op, a, b) vm_binary (g, (op), (a), (b))

/* Ds = D + H^{-1} e0 e0' in compressed rows (s->dsp, dsj, dsv: the transpose of D's CSC). */
static int
build_ds (vm_skg *s)
{
  int64_t N = s->N, nnzd = vm_sbp_nnz (&s->op), j, e, *cp, *ri, *fill;
  double *dv;
  int st = VM_ENOMEM;
  cp = vm_scratch_alloc ((size_t) (N + 1) * sizeof *cp);
  ri = vm_scratch_alloc ((size_t) nnzd * sizeof *ri);
  dv = vm_scratch_alloc ((size_t) nnzd * sizeof *dv);
  fill = vm_scratch_alloc ((size_t) N * sizeof *fill);
  s->dsp = vm_scratch_alloc (((size_t) N + 1) * sizeof *s->dsp);
  s->dsj = vm_scratch_alloc ((size_t) nnzd * sizeof *s->dsj);
  s->dsv = vm_scratch_alloc ((size_t) nnzd * sizeof *s->dsv);
  if (! cp || ! ri || ! dv || ! fill || ! s->dsp || ! s->dsj || ! s->dsv)
    goto done;
  memset (fill, 0, (size_t) N * sizeof *fill);
  memset (s->dsp, 0, ((size_t) N + 1) * sizeof *s->dsp);
  vm_sbp_csc (&s->op, 1, cp, ri, dv);
  for (e = 0; e < nnzd; e++)
    s->dsp[ri[e] + 1]++;
  for (j = 0; j < N; j++)
    s->dsp[j + 1] += s->dsp[j];
  for (j = 0; j < N; j++)               /* columns ascending: rows get sorted columns */
    for (e = cp[j]; e < cp[j + 1]; e++)
      {
        int64_t pos = s->dsp[ri[e]] + fill[ri[e]]++;
        s->dsj[pos] = j;
        s->dsv[pos] = dv[e];
        if (ri[e] == 0 && j == 0)
          s->dsv[pos] += 1.0 / s->hw[0];
      }
  /* Q(0,0) = -1/2 is always a structural nonzero */
  st = (s->dsp[1] == 0 || s->dsj[0] != 0) ? VM_EARG : VM_OK;
done:
  vm_scratch_free (cp);
  vm_scratch_free (ri);
  vm_scratch_free (dv);
  vm_scratch_free (fill);
  return st;
}

/* The action's point function s and boundary function b (skg.h) in the private graph s->g, over
 * the model's variables then t | q+ q- v+ v- lambda+ lambda- | p; s->pl[i] = p+_i = dL/dqdot_i
 * (t, q+, v+).  croots: the model's L, F_i, g_a copied into s->g, and n more slots. */
static int
action_terms (vm_skg *s, const vm_mech *model, int32_t *croots, int32_t *sfun, int32_t *bfun)
{
  int n = s->n, m = s->m, np = s->np, na = s->na, base = s->base, nvar = base + 1 + na + np;
  int i, a, st = VM_ENOMEM;
  vm_graph *g = s->g;
  int32_t *map1 = malloc ((size_t) nvar * sizeof *map1);
  int32_t *map2 = malloc ((size_t) nvar * sizeof *map2);
  int32_t *mapp = malloc ((size_t) nvar * sizeof *mapp);
  int32_t *pl = s->pl, half, T, sf, bf;
  if (! map1 || ! map2 || ! mapp)
    goto done;
  /* dL/dqdot_i, in the model variables, in the private graph */
  for (i = 0; i < n; i++)
    croots[1 + n + m + i] = vm_diff (g, croots[0], model->vqd + i);
  half = vm_const (g, 0.5);   /* after the derivatives: creation order fixes the tapes' order */
  T = vm_var (g, base);
#define PV(r) vm_var (g, base + 1 + (r))
  for (i = 0; i < nvar; i++)
    map1[i] = map2[i] = mapp[i] = -1;
  map1[model->vt] = map2[model->vt] = mapp[model->vt] = T;
  for (i = 0; i < n; i++)
    {
      int32_t qp = PV (i), qm = PV (n + i), vp = PV (2 * n + i), vmn = PV (3 * n + i);
      map1[model->vq + i] = B2 (VM_OP_ADD, qp, B2 (VM_OP_MUL, half, qm));
      map2[model->vq + i] = B2 (VM_OP_SUB, qp, B2 (VM_OP_MUL, half, qm));
      map1[model->vqd + i] = B2 (VM_OP_ADD, vp, B2 (VM_OP_MUL, half, vmn));
      map2[model->vqd + i] = B2 (VM_OP_SUB, vp, B2 (VM_OP_MUL, half, vmn));
      mapp[model->vq + i] = qp;
      mapp[model->vqd + i] = vp;
    }
  for (i = 0; i < np; i++)
    map1[model->vp + i] = map2[model->vp + i] = mapp[model->vp + i] = vm_var (g, base + 1 + na + i);
  /* s = L(q1, v1) - L(q2, v2) + q- . F(q+, v+) + sum_a [lam-_a g_a - lam+_a q- . G_a],
   * G_a = dg_a/dqdot, or dg_a/dq for a holonomic constraint (no velocity in g_a): the
   * linearization at q- = 0 of -lam+ (g(q1) - g(q2)) + lam- (g(q1) + g(q2))/2 (skg.h) */
  sf = B2 (VM_OP_SUB, vm_subst (g, croots[0], map1), vm_subst (g, croots[0], map2));
  for (i = 0; i < n; i++)
    sf = B2 (VM_OP_ADD, sf, B2 (VM_OP_MUL, PV (n + i), vm_subst (g, croots[1 + i], mapp)));
  for (a = 0; a < m; a++)
    {
      int32_t ga = croots[1 + n + a];
      int hol = 1;
      for (i = 0; i < n; i++)
        if (vm_depends (g, ga, model->vqd + i))
          hol = 0;
      sf = B2 (VM_OP_ADD, sf, B2 (VM_OP_MUL, PV (4 * n + m + a), vm_subst (g, ga, mapp)));
      for (i = 0; i < n; i++)
        {
          int32_t dg = vm_subst (g, vm_diff (g, ga, (hol ? model->vq : model->vqd) + i), mapp);
          sf = B2 (VM_OP_SUB, sf, B2 (VM_OP_MUL, PV (4 * n + a), B2 (VM_OP_MUL, PV (n + i), dg)));
        }
    }
  /* b = - q- . p+,  p+ = dL/dqdot(t, q+, v+) */
  bf = vm_const (g, 0.0);
  for (i = 0; i < n; i++)
    {
      pl[i] = vm_subst (g, croots[1 + n + m + i], mapp);
      bf = B2 (VM_OP_SUB, bf, B2 (VM_OP_MUL, PV (n + i), pl[i]));
    }
#undef PV
  *sfun = sf;
  *bfun = bf;
  if (sf < 0 || bf < 0 || vm_graph_status (g) != VM_OK)
    st = vm_graph_status (g) != VM_OK ? vm_graph_status (g) : VM_ENOMEM;
  else
    st = VM_OK;
done:
  free (map1);
  free (map2);
  free (mapp);
  return st;
}

/* The private graph s->g with the action's terms, the momentum p_i = dL/dqdot(t0, q_i, v_i) in
 * s->pi, and the tapes of s and b with their Hessian entries (compile_term). */
static int
build_terms (vm_skg *s, const vm_mech *model, const double *q_i, const double *v_i)
{
  int n = s->n, m = s->m, np = s->np, na = s->na, i, st = VM_ENOMEM;
  int nroot = 1 + 2 * n + m, base = s->base = model->nvar, nvar = base + 1 + na + np;
  int32_t *roots = malloc ((size_t) nroot * sizeof *roots);
  int32_t *croots = malloc ((size_t) nroot * sizeof *croots);
  int32_t sfun, bfun;
  double *xx = calloc ((size_t) nvar, sizeof *xx);
  s->g = vm_graph_new (nvar);
  s->pl = malloc ((size_t) (n + 1) * sizeof *s->pl);
  if (! s->g || ! roots || ! croots || ! s->pl || ! xx)
    goto done;
  roots[0] = model->L;
  for (i = 0; i < n; i++)
    roots[1 + i] = model->F[i];
  for (i = 0; i < m; i++)
    roots[1 + n + i] = model->gc[i];
  if ((st = copy_roots (model->g, s->g, 1 + n + m, roots, croots)) != VM_OK
      || (st = action_terms (s, model, croots, &sfun, &bfun)) != VM_OK)
    goto done;
  /* p_i = dL/dqdot(t0, q_i, v_i) */
  xx[base] = s->t0;
  for (i = 0; i < n; i++)
    {
      xx[base + 1 + i] = q_i[i];
      xx[base + 1 + 2 * n + i] = v_i[i];
    }
  for (i = 0; i < np; i++)
    xx[base + 1 + na + i] = s->par[i];
  for (i = 0; i < n; i++)
    s->pi[i] = vm_graph_eval1 (s->g, s->pl[i], xx);
  s->sfun = sfun;
  if ((st = compile_term (s, sfun, &s->ts, &s->nhs, &s->hsr, &s->hsc)) == VM_OK)
    st = compile_term (s, bfun, &s->tb, &s->nhb, &s->hbr, &s->hbc);
done:
  free (roots);
  free (croots);
  free (xx);
  return st;
}

/* The tapes' work: the point arrays (N x na, t in s->t), the outputs, the boundary's two points
 * (t in slot na), and the input and output pointers of both tapes. */
static int
alloc_points (vm_skg *s)
{
  int64_t N = s->N;
  int na = s->na, base = s->base, nvar = base + 1 + na + s->np, i;
  size_t ws = vm_tape_work_size (&s->ts), wb = vm_tape_work_size (&s->tb);
  int nos = s->ts.nout, nob = s->tb.nout;
  s->x = vm_scratch_alloc ((size_t) N * (size_t) (na + 1) * sizeof *s->x);
  s->out = vm_scratch_alloc ((size_t) N * (size_t) (nos + 1) * sizeof *s->out);
  s->xb = malloc ((size_t) 2 * (size_t) (na + 1) * sizeof *s->xb);
  s->outb = malloc ((size_t) 2 * (size_t) (nob + 1) * sizeof *s->outb);
  s->work = malloc ((ws > wb ? ws : wb) * sizeof *s->work + 16);
  s->in = malloc ((size_t) nvar * sizeof *s->in);
  s->inb = malloc ((size_t) nvar * sizeof *s->inb);
  s->inc = malloc ((size_t) nvar * sizeof *s->inc);
  s->incb = malloc ((size_t) nvar * sizeof *s->incb);
  s->outp = malloc ((size_t) (nos + 1) * sizeof *s->outp);
  s->outpb = malloc ((size_t) (nob + 1) * sizeof *s->outpb);
  s->zlast = vm_scratch_alloc ((size_t) s->nz * sizeof *s->zlast);
  s->zlast_ok = 0;
  if (! s->zlast || ! s->x || ! s->out || ! s->xb || ! s->outb || ! s->work || ! s->in || ! s->inb || ! s->inc
      || ! s->incb || ! s->outp || ! s->outpb)
    return VM_ENOMEM;
  s->zero = 0.0;
  for (i = 0; i < nvar; i++)
    {
      s->in[i] = s->inb[i] = &s->zero;
      s->inc[i] = s->incb[i] = 0;
    }
  /* t: the boundary arrays hold t in slot na */
  s->in[base] = s->t;
  s->inc[base] = 1;
  s->inb[base] = s->xb + 2 * (size_t) na;
  s->incb[base] = 1;
  s->xb[2 * na] = s->t0;
  s->xb[2 * na + 1] = s->tf;
  for (i = 0; i < na; i++)
    {
      s->in[base + 1 + i] = s->x + (size_t) N * i;
      s->inc[base + 1 + i] = 1;
      s->inb[base + 1 + i] = s->xb + 2 * (size_t) i;
      s->incb[base + 1 + i] = 1;
    }
  for (i = 0; i < s->np; i++)
    s->in[base + 1 + na + i] = s->inb[base + 1 + na + i] = s->par + i;
  for (i = 0; i < nos; i++)
    s->outp[i] = s->out + (size_t) N * i;
  for (i = 0; i < nob; i++)
    s->outpb[i] = s->outb + 2 * (size_t) i;
  return VM_OK;
}

int
vm_skg_build (vm_skg *s, const vm_mech *model, const double *par, int64_t N, int order,
              const vm_skg_window *w)
{
  int n, np, st;
  int64_t k;
  double t0, tf;
  const double *q_i, *v_i;
  if (! s)
    return VM_EARG;
  memset (s, 0, sizeof *s);
  if (! w || ! model || ! model->g || ! w->q_i || ! w->v_i || (model->np > 0 && ! par))
    return VM_EARG;
  t0 = w->t0;
  tf = w->tf;
  q_i = w->q_i;
  v_i = w->v_i;
  n = s->n = model->n;
  s->m = model->m;
  np = s->np = model->np;
  s->nb = 2 * n + 2 * s->m;
  s->N = N;
  s->order = order;
  s->t0 = t0;
  s->tf = tf;
  if ((st = vm_sbp_init (&s->op, order, N, t0, tf)) != VM_OK)
    return st;
  s->nz = N * s->nb;
  s->na = 4 * n + 2 * s->m;
  st = VM_ENOMEM;
  s->hw = vm_scratch_alloc ((size_t) N * sizeof *s->hw);
  s->t = vm_scratch_alloc ((size_t) N * sizeof *s->t);
  s->qi = malloc ((size_t) (n + 1) * sizeof (double));
  s->vi = malloc ((size_t) (n + 1) * sizeof (double));
  s->pi = malloc ((size_t) (n + 1) * sizeof (double));
  s->par = malloc ((size_t) (np + 1) * sizeof (double));
  s->qo = calloc ((size_t) (n + 1), sizeof (double));
  if (! s->hw || ! s->t || ! s->qi || ! s->vi || ! s->pi || ! s->par || ! s->qo)
    goto fail;
  memcpy (s->qi, q_i, (size_t) n * sizeof (double));
  memcpy (s->vi, v_i, (size_t) n * sizeof (double));
  if (np > 0)
    memcpy (s->par, par, (size_t) np * sizeof (double));
  vm_sbp_weights (&s->op, s->hw);
  for (k = 0; k < N; k++)
    s->t[k] = k == N - 1 ? tf : t0 + (double) k * s->op.h;
  if ((st = build_ds (s)) != VM_OK || (st = build_terms (s, model, q_i, v_i)) != VM_OK)
    goto fail;
  st = alloc_points (s);
fail:
  if (st != VM_OK)
    vm_skg_free (s);
  return st;
}

/* The reduced tape and its arrays (vm_skg_reduced_init) freed; s->tr_ok cleared. */
static void
reduced_free (vm_skg *s)
{
  vm_tape_free (&s->tr);
  free (s->grv);
  free (s->hrr);
  free (s->hrc);
  free (s->hrs);
  vm_scratch_free (s->outr);
  free (s->outpr);
  s->grv = s->hrr = s->hrc = NULL;
  s->hrs = NULL;
  s->outr = NULL;
  s->outpr = NULL;
  s->ngr = s->nhr = 0;
  s->tr_ok = 0;
}

void
vm_skg_free (vm_skg *s)
{
  if (! s)
    return;
  vm_scratch_free (s->hw);
  vm_scratch_free (s->t);
  vm_scratch_free (s->dsp);
  vm_scratch_free (s->dsj);
  vm_scratch_free (s->dsv);
  free (s->qi);
  free (s->vi);
  free (s->pi);
  free (s->par);
  free (s->qo);
  if (s->g)
    vm_graph_free (s->g);
  vm_tape_free (&s->ts);
  vm_tape_free (&s->tb);
  free (s->hsr);
  free (s->hsc);
  free (s->hbr);
  free (s->hbc);
  vm_scratch_free (s->colptr);
  vm_scratch_free (s->rowind);
  vm_scratch_free (s->x);
  vm_scratch_free (s->out);
  free (s->xb);
  free (s->outb);
  free (s->work);
  free ((void *) s->in);
  free ((void *) s->inb);
  free (s->inc);
  free (s->incb);
  free (s->outp);
  free (s->outpb);
  vm_scratch_free (s->zlast);
  free (s->pl);
  reduced_free (s);
  vm_skg_plan_free (&s->full);
  memset (s, 0, sizeof *s);
}

/* ---- a new window with the same structure -------------------------------------------------- */

int
vm_skg_set_origin (vm_skg *s, const double *qo)
{
  if (! s || ! s->qo || ! qo)
    return VM_EARG;
  memcpy (s->qo, qo, (size_t) s->n * sizeof *qo);
  s->zlast_ok = 0;
  return VM_OK;
}

int
vm_skg_set_window (vm_skg *s, double t0, double tf, const double *q_i, const double *v_i)
{
  vm_sbp op;
  int64_t N, nnzd, j, e, k, *cp = NULL, *ri = NULL, *fill = NULL;
  double *dv = NULL, *xx = NULL;
  int st, i, n, na, nvar;
  if (! s || ! s->g || ! q_i || ! v_i)
    return VM_EARG;
  N = s->N;
  n = s->n;
  na = s->na;
  if ((st = vm_sbp_init (&op, s->order, N, t0, tf)) != VM_OK)
    return st;
  nnzd = vm_sbp_nnz (&op);
  if (nnzd != s->dsp[N])
    return VM_EARG;
  st = VM_ENOMEM;
  nvar = s->base + 1 + na + s->np;
  cp = vm_scratch_alloc ((size_t) (N + 1) * sizeof *cp);
  ri = vm_scratch_alloc ((size_t) nnzd * sizeof *ri);
  dv = vm_scratch_alloc ((size_t) nnzd * sizeof *dv);
  fill = vm_scratch_alloc ((size_t) N * sizeof *fill);
  xx = calloc ((size_t) nvar, sizeof *xx);
  if (! cp || ! ri || ! dv || ! fill || ! xx)
    goto done;
  memset (fill, 0, (size_t) N * sizeof *fill);
  vm_sbp_csc (&op, 1, cp, ri, dv);
  s->op = op;
  s->t0 = t0;
  s->tf = tf;
  vm_sbp_weights (&s->op, s->hw);
  for (k = 0; k < N; k++)
    s->t[k] = k == N - 1 ? tf : t0 + (double) k * s->op.h;
  st = VM_EARG;
  for (j = 0; j < N; j++)        /* as in vm_skg_build: columns ascending within each row */
    for (e = cp[j]; e < cp[j + 1]; e++)
      {
        int64_t pos = s->dsp[ri[e]] + fill[ri[e]]++;
        if (pos >= s->dsp[ri[e] + 1] || s->dsj[pos] != j)
          goto done;
        s->dsv[pos] = dv[e] + (ri[e] == 0 && j == 0 ? 1.0 / s->hw[0] : 0.0);
      }
  memcpy (s->qi, q_i, (size_t) n * sizeof *q_i);
  memcpy (s->vi, v_i, (size_t) n * sizeof *v_i);
  xx[s->base] = t0;
  for (i = 0; i < n; i++)
    {
      xx[s->base + 1 + i] = q_i[i];
      xx[s->base + 1 + 2 * n + i] = v_i[i];
    }
  for (i = 0; i < s->np; i++)
    xx[s->base + 1 + na + i] = s->par[i];
  for (i = 0; i < n; i++)
    s->pi[i] = vm_graph_eval1 (s->g, s->pl[i], xx);
  s->xb[2 * na] = t0;
  s->xb[2 * na + 1] = tf;
  s->zlast_ok = 0;
  s->window++;
  st = VM_OK;
done:
  vm_scratch_free (cp);
  vm_scratch_free (ri);
  vm_scratch_free (dv);
  vm_scratch_free (fill);
  free (xx);
  return st;
}

/* ---- the reduced tape ------------------------------------------------------------------------ */

/* The outputs of the reduced tape in s->g: into outs the gradient in the minus variables (their
 * variables into s->grv) then the nonzero (minus, plus) Hessian entries (into s->hrr, s->hrc),
 * every one with the minus variables replaced by the constant 0; the count into *nout. */
static int
reduced_outputs (vm_skg *s, int32_t *outs, int *nout)
{
  vm_graph *g = s->g;
  int na = s->na, nvar = s->base + 1 + na + s->np, r, c, i, cnt = 0;
  int32_t *map = malloc ((size_t) nvar * sizeof *map), z0 = vm_const (g, 0.0);
  if (! map)
    return VM_ENOMEM;
  for (r = 0; r < nvar; r++)
    map[r] = -1;
  for (r = 0; r < na; r++)
    if (is_minus (s, r))
      map[s->base + 1 + r] = z0;
  s->ngr = 0;
  for (r = 0; r < na; r++)
    if (is_minus (s, r))
      {
        s->grv[s->ngr++] = r;
        outs[cnt++] = vm_subst (g, vm_diff (g, s->sfun, s->base + 1 + r), map);
      }
  s->nhr = 0;
  for (i = 0; i < s->ngr; i++)
    {
      const int r = s->grv[i];
      const int32_t d = vm_diff (g, s->sfun, s->base + 1 + r);
      for (c = 0; c < na; c++)
        {
          int32_t h;
          int v, dep = 0;
          if (is_minus (s, c))
            continue;
          h = vm_subst (g, vm_diff (g, d, s->base + 1 + c), map);
          if (h < 0 || is_zero (g, h))
            continue;                              /* h < 0: the graph's status says why */
          for (v = 0; v <= na && ! dep; v++)       /* t and the point variables */
            dep = vm_depends (g, h, s->base + v);
          s->hrs[s->nhr] = (unsigned char) ! dep;
          s->hrr[s->nhr] = r;
          s->hrc[s->nhr++] = c;
          outs[cnt++] = h;
        }
    }
  free (map);
  *nout = cnt;
  return vm_graph_status (g);
}

int
vm_skg_reduced_init (vm_skg *s)
{
  int na, nout, i, st = VM_ENOMEM;
  size_t nmax, ws;
  int32_t *outs;
  if (! s || ! s->g)
    return VM_EARG;
  if (s->tr_ok)
    return VM_OK;
  na = s->na;
  nmax = (size_t) na + (size_t) na * (size_t) na;
  outs = malloc (nmax * sizeof *outs);
  s->grv = malloc ((size_t) na * sizeof *s->grv);
  s->hrr = malloc ((size_t) na * (size_t) na * sizeof *s->hrr);
  s->hrc = malloc ((size_t) na * (size_t) na * sizeof *s->hrc);
  s->hrs = malloc ((size_t) na * (size_t) na + 1);
  if (! outs || ! s->grv || ! s->hrr || ! s->hrc || ! s->hrs)
    goto done;
  if ((st = reduced_outputs (s, outs, &nout)) != VM_OK
      || (st = vm_tape_compile (s->g, nout, outs, &s->tr)) != VM_OK)
    goto done;
  st = VM_ENOMEM;
  ws = vm_tape_work_size (&s->tr);
  if (ws > vm_tape_work_size (&s->ts) && ws > vm_tape_work_size (&s->tb))
    {
      double *w = realloc (s->work, ws * sizeof *w + 16);
      if (! w)
        goto done;
      s->work = w;
    }
  s->outr = vm_scratch_alloc ((size_t) s->N * (size_t) (nout + 1) * sizeof *s->outr);
  s->outpr = malloc ((size_t) (nout + 1) * sizeof *s->outpr);
  if (! s->outr || ! s->outpr)
    goto done;
  for (i = 0; i < nout; i++)
    s->outpr[i] = s->outr + (size_t) s->N * i;
  s->tr_ok = 1;
  st = VM_OK;
done:
  free (outs);
  if (st != VM_OK)
    reduced_free (s);
  return st;
}
