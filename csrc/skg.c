/* skg.c -- discrete SKG action, boundary formulation F4 (see skg.h and doc/skg_boundary.md). */
#include "skg.h"
#include "vm_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- active point variables ----------------------------------------------------------------- */

/* 1 when active point variable r is a velocity (enters through Ds), else 0 (identity). */
static int
is_vel (const vm_skg *s, int r)
{
  return r >= 2 * s->n && r < 4 * s->n;
}

/* Component of z (within a node) that active point variable r depends on. */
static int
zcomp (const vm_skg *s, int r)
{
  int n = s->n;
  if (r < 2 * n)
    return r;                        /* q+, q- */
  if (r < 4 * n)
    return r - 2 * n;                /* v+ -> q+, v- -> q- */
  return r - 2 * n;                  /* lambda+, lambda- */
}

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

/* ---- pattern -------------------------------------------------------------------------------- */

static int
cmp_i64 (const void *a, const void *b)
{
  int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
  return x < y ? -1 : x > y;
}

typedef struct {
  int64_t *v;
  size_t n, cap;
} i64vec;

static int
push2 (i64vec *l, int64_t a, int64_t b)
{
  if (l->n + 2 > l->cap)
    {
      size_t nc = l->cap ? 2 * l->cap : 1024;
      int64_t *p = realloc (l->v, nc * sizeof *p);
      if (! p)
        return VM_ENOMEM;
      l->v = p;
      l->cap = nc;
    }
  l->v[l->n++] = a;
  l->v[l->n++] = b;
  return VM_OK;
}

/* Node pairs (j1, j2) coupled by a point Hessian entry whose row variable has type t1 and column
 * variable type t2 (0 = identity, 1 = Ds): type index 2 t1 + t2. */
static int
node_pairs (const vm_skg *s, int type, i64vec *l)
{
  int64_t k, a, b, N = s->N;
  for (k = 0; k < N; k++)
    switch (type)
      {
      case 0:
        if (push2 (l, k, k)) return VM_ENOMEM;
        break;
      case 1:
        for (b = s->dsp[k]; b < s->dsp[k + 1]; b++)
          if (push2 (l, k, s->dsj[b])) return VM_ENOMEM;
        break;
      case 2:
        for (a = s->dsp[k]; a < s->dsp[k + 1]; a++)
          if (push2 (l, s->dsj[a], k)) return VM_ENOMEM;
        break;
      default:
        for (a = s->dsp[k]; a < s->dsp[k + 1]; a++)
          for (b = s->dsp[k]; b < s->dsp[k + 1]; b++)
            if (push2 (l, s->dsj[a], s->dsj[b])) return VM_ENOMEM;
      }
  return VM_OK;
}

static int
build_pattern (vm_skg *s)
{
  int nb = s->nb, c1, c2, t, e, st = VM_OK;
  unsigned char *mask = calloc ((size_t) nb * nb, 1);
  i64vec np[4];
  int64_t *keys = NULL, nk = 0, i, j;
  memset (np, 0, sizeof np);
  if (! mask)
    return VM_ENOMEM;
  for (t = 0; t < 2; t++)
    {
      int nh = t ? s->nhb : s->nhs;
      const int *hr = t ? s->hbr : s->hsr, *hc = t ? s->hbc : s->hsc;
      for (e = 0; e < nh; e++)
        {
          int r = hr[e], c = hc[e];
          int tr = is_vel (s, r), tc = is_vel (s, c);
          mask[zcomp (s, r) * nb + zcomp (s, c)] |= (unsigned char) (1u << (2 * tr + tc));
          mask[zcomp (s, c) * nb + zcomp (s, r)] |= (unsigned char) (1u << (2 * tc + tr));
        }
    }
  for (t = 0; t < 4; t++)
    if ((st = node_pairs (s, t, &np[t])) != VM_OK)
      goto done;
  {
    size_t tot = 0;
    for (c1 = 0; c1 < nb; c1++)
      for (c2 = 0; c2 < nb; c2++)
        for (t = 0; t < 4; t++)
          if (mask[c1 * nb + c2] & (1u << t))
            tot += np[t].n / 2;
    keys = malloc ((tot > 0 ? tot : 1) * sizeof *keys);
    if (! keys)
      {
        st = VM_ENOMEM;
        goto done;
      }
  }
  for (c1 = 0; c1 < nb; c1++)
    for (c2 = 0; c2 < nb; c2++)
      for (t = 0; t < 4; t++)
        if (mask[c1 * nb + c2] & (1u << t))
          {
            size_t q;
            for (q = 0; q < np[t].n; q += 2)
              {
                int64_t row = np[t].v[q] * nb + c1, col = np[t].v[q + 1] * nb + c2;
                keys[nk++] = col * s->nz + row;
              }
          }
  qsort (keys, (size_t) nk, sizeof *keys, cmp_i64);
  for (i = 0, j = 0; i < nk; i++)
    if (j == 0 || keys[i] != keys[j - 1])
      keys[j++] = keys[i];
  s->nnz = j;
  s->colptr = calloc ((size_t) s->nz + 1, sizeof *s->colptr);
  s->rowind = malloc ((size_t) (j > 0 ? j : 1) * sizeof *s->rowind);
  if (! s->colptr || ! s->rowind)
    {
      st = VM_ENOMEM;
      goto done;
    }
  for (i = 0; i < j; i++)
    {
      s->rowind[i] = keys[i] % s->nz;
      s->colptr[keys[i] / s->nz + 1]++;
    }
  for (i = 0; i < s->nz; i++)
    s->colptr[i + 1] += s->colptr[i];
done:
  for (t = 0; t < 4; t++)
    free (np[t].v);
  free (keys);
  free (mask);
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

int
vm_skg_build (vm_skg *s, const vm_mech *model, const double *par, int64_t N, int order,
              double t0, double tf, const double *q_i, const double *v_i)
{
  int n, m, np, na, i, a, st, nroot, nvar, base;
  int32_t *roots = NULL, *croots = NULL, *map1 = NULL, *map2 = NULL, *mapp = NULL;
  int32_t *pl = NULL, sfun, bfun;
  vm_graph *g;
  int64_t k, nnzd, *cp = NULL, *ri = NULL;
  double *dv = NULL, *xx = NULL;
  if (! s)
    return VM_EARG;
  memset (s, 0, sizeof *s);
  if (! model || ! model->g || ! q_i || ! v_i || (model->np > 0 && ! par))
    return VM_EARG;
  n = s->n = model->n;
  m = s->m = model->m;
  np = s->np = model->np;
  s->nb = 2 * n + 2 * m;
  s->N = N;
  s->order = order;
  s->t0 = t0;
  s->tf = tf;
  if ((st = vm_sbp_init (&s->op, order, N, t0, tf)) != VM_OK)
    return st;
  s->nz = N * s->nb;
  na = s->na = 4 * n + 2 * m;
  st = VM_ENOMEM;
  s->hw = malloc ((size_t) N * sizeof *s->hw);
  s->t = malloc ((size_t) N * sizeof *s->t);
  s->qi = malloc ((size_t) (n + 1) * sizeof (double));
  s->vi = malloc ((size_t) (n + 1) * sizeof (double));
  s->pi = malloc ((size_t) (n + 1) * sizeof (double));
  s->par = malloc ((size_t) (np + 1) * sizeof (double));
  if (! s->hw || ! s->t || ! s->qi || ! s->vi || ! s->pi || ! s->par)
    goto fail;
  memcpy (s->qi, q_i, (size_t) n * sizeof (double));
  memcpy (s->vi, v_i, (size_t) n * sizeof (double));
  if (np > 0)
    memcpy (s->par, par, (size_t) np * sizeof (double));
  vm_sbp_weights (&s->op, s->hw);
  for (k = 0; k < N; k++)
    s->t[k] = k == N - 1 ? tf : t0 + (double) k * s->op.h;

  /* Ds = D + H^{-1} e0 e0' in compressed rows (transpose of D's CSC) */
  nnzd = vm_sbp_nnz (&s->op);
  cp = malloc ((size_t) (N + 1) * sizeof *cp);
  ri = malloc ((size_t) nnzd * sizeof *ri);
  dv = malloc ((size_t) nnzd * sizeof *dv);
  s->dsp = calloc ((size_t) N + 1, sizeof *s->dsp);
  s->dsj = malloc ((size_t) nnzd * sizeof *s->dsj);
  s->dsv = malloc ((size_t) nnzd * sizeof *s->dsv);
  if (! cp || ! ri || ! dv || ! s->dsp || ! s->dsj || ! s->dsv)
    goto fail;
  vm_sbp_csc (&s->op, 1, cp, ri, dv);
  {
    int64_t j, e, *fill = calloc ((size_t) N, sizeof *fill);
    if (! fill)
      goto fail;
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
    free (fill);
    if (s->dsp[1] == 0 || s->dsj[0] != 0)   /* Q(0,0) = -1/2 is always a structural nonzero */
      {
        st = VM_EARG;
        goto fail;
      }
  }

  /* private graph: the model's variables, then t | q+ q- v+ v- lambda+ lambda- | p */
  base = s->base = model->nvar;
  nvar = base + 1 + na + np;
  g = s->g = vm_graph_new (nvar);
  nroot = 1 + 2 * n + m;
  roots = malloc ((size_t) nroot * sizeof *roots);
  croots = malloc ((size_t) nroot * sizeof *croots);
  map1 = malloc ((size_t) nvar * sizeof *map1);
  map2 = malloc ((size_t) nvar * sizeof *map2);
  mapp = malloc ((size_t) nvar * sizeof *mapp);
  pl = malloc ((size_t) (n + 1) * sizeof *pl);
  if (! g || ! roots || ! croots || ! map1 || ! map2 || ! mapp || ! pl)
    goto fail;
  roots[0] = model->L;
  for (i = 0; i < n; i++)
    roots[1 + i] = model->F[i];
  for (a = 0; a < m; a++)
    roots[1 + n + a] = model->gc[a];
  if ((st = copy_roots (model->g, g, 1 + n + m, roots, croots)) != VM_OK)
    goto fail;
  /* dL/dqdot_i, in the model variables, in the private graph */
  for (i = 0; i < n; i++)
    croots[1 + n + m + i] = vm_diff (g, croots[0], model->vqd + i);
  {
    int32_t half = vm_const (g, 0.5);
    int32_t T = vm_var (g, base);
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
    /* s = L(q1, v1) - L(q2, v2) + q- . F(q+, v+) + sum_a [lam-_a g_a - lam+_a q- . dg_a/dqdot] */
    sfun = B2 (VM_OP_SUB, vm_subst (g, croots[0], map1), vm_subst (g, croots[0], map2));
    for (i = 0; i < n; i++)
      sfun = B2 (VM_OP_ADD, sfun, B2 (VM_OP_MUL, PV (n + i), vm_subst (g, croots[1 + i], mapp)));
    for (a = 0; a < m; a++)
      {
        int32_t ga = croots[1 + n + a];
        sfun = B2 (VM_OP_ADD, sfun, B2 (VM_OP_MUL, PV (4 * n + m + a), vm_subst (g, ga, mapp)));
        for (i = 0; i < n; i++)
          {
            int32_t dg = vm_subst (g, vm_diff (g, ga, model->vqd + i), mapp);
            sfun = B2 (VM_OP_SUB, sfun,
                       B2 (VM_OP_MUL, PV (4 * n + a), B2 (VM_OP_MUL, PV (n + i), dg)));
          }
      }
    /* b = - q- . p+,  p+ = dL/dqdot(t, q+, v+) */
    bfun = vm_const (g, 0.0);
    for (i = 0; i < n; i++)
      {
        pl[i] = vm_subst (g, croots[1 + n + m + i], mapp);
        bfun = B2 (VM_OP_SUB, bfun, B2 (VM_OP_MUL, PV (n + i), pl[i]));
      }
#undef PV
  }
  if (sfun < 0 || bfun < 0 || vm_graph_status (g) != VM_OK)
    {
      st = vm_graph_status (g) != VM_OK ? vm_graph_status (g) : VM_ENOMEM;
      goto fail;
    }
  /* p_i = dL/dqdot(t0, q_i, v_i) */
  xx = calloc ((size_t) nvar, sizeof *xx);
  if (! xx)
    goto fail;
  xx[base] = t0;
  for (i = 0; i < n; i++)
    {
      xx[base + 1 + i] = q_i[i];
      xx[base + 1 + 2 * n + i] = v_i[i];
    }
  for (i = 0; i < np; i++)
    xx[base + 1 + na + i] = par[i];
  for (i = 0; i < n; i++)
    s->pi[i] = vm_graph_eval1 (g, pl[i], xx);

  if ((st = compile_term (s, sfun, &s->ts, &s->nhs, &s->hsr, &s->hsc)) != VM_OK
      || (st = compile_term (s, bfun, &s->tb, &s->nhb, &s->hbr, &s->hbc)) != VM_OK)
    goto fail;
  if ((st = build_pattern (s)) != VM_OK)
    goto fail;

  /* work: point arrays (N x na), outputs, boundary (2 points) */
  st = VM_ENOMEM;
  {
    size_t ws = vm_tape_work_size (&s->ts), wb = vm_tape_work_size (&s->tb);
    int nos = s->ts.nout, nob = s->tb.nout;
    s->x = malloc ((size_t) N * (size_t) (na + 1) * sizeof *s->x);
    s->out = malloc ((size_t) N * (size_t) (nos + 1) * sizeof *s->out);
    s->xb = malloc ((size_t) 2 * (size_t) (na + 1) * sizeof *s->xb);
    s->outb = malloc ((size_t) 2 * (size_t) (nob + 1) * sizeof *s->outb);
    s->work = malloc ((ws > wb ? ws : wb) * sizeof *s->work + 16);
    s->in = malloc ((size_t) nvar * sizeof *s->in);
    s->inb = malloc ((size_t) nvar * sizeof *s->inb);
    s->inc = malloc ((size_t) nvar * sizeof *s->inc);
    s->incb = malloc ((size_t) nvar * sizeof *s->incb);
    s->outp = malloc ((size_t) (nos + 1) * sizeof *s->outp);
    s->outpb = malloc ((size_t) (nob + 1) * sizeof *s->outpb);
    s->zlast = malloc ((size_t) s->nz * sizeof *s->zlast);
    s->zlast_ok = 0;
    if (! s->zlast || ! s->x || ! s->out || ! s->xb || ! s->outb || ! s->work || ! s->in || ! s->inb || ! s->inc
        || ! s->incb || ! s->outp || ! s->outpb)
      goto fail;
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
    s->xb[2 * na] = t0;
    s->xb[2 * na + 1] = tf;
    for (i = 0; i < na; i++)
      {
        s->in[base + 1 + i] = s->x + (size_t) N * i;
        s->inc[base + 1 + i] = 1;
        s->inb[base + 1 + i] = s->xb + 2 * (size_t) i;
        s->incb[base + 1 + i] = 1;
      }
    for (i = 0; i < np; i++)
      s->in[base + 1 + na + i] = s->inb[base + 1 + na + i] = s->par + i;
    for (i = 0; i < nos; i++)
      s->outp[i] = s->out + (size_t) N * i;
    for (i = 0; i < nob; i++)
      s->outpb[i] = s->outb + 2 * (size_t) i;
  }
  st = VM_OK;
fail:
  free (roots);
  free (croots);
  free (map1);
  free (map2);
  free (mapp);
  free (pl);
  free (cp);
  free (ri);
  free (dv);
  free (xx);
  if (st != VM_OK)
    vm_skg_free (s);
  return st;
}

void
vm_skg_free (vm_skg *s)
{
  if (! s)
    return;
  free (s->hw);
  free (s->t);
  free (s->dsp);
  free (s->dsj);
  free (s->dsv);
  free (s->qi);
  free (s->vi);
  free (s->pi);
  free (s->par);
  if (s->g)
    vm_graph_free (s->g);
  vm_tape_free (&s->ts);
  vm_tape_free (&s->tb);
  free (s->hsr);
  free (s->hsc);
  free (s->hbr);
  free (s->hbc);
  free (s->colptr);
  free (s->rowind);
  free (s->x);
  free (s->out);
  free (s->xb);
  free (s->outb);
  free (s->work);
  free ((void *) s->in);
  free ((void *) s->inb);
  free (s->inc);
  free (s->incb);
  free (s->outp);
  free (s->outpb);
  free (s->zlast);
  memset (s, 0, sizeof *s);
}

/* ---- evaluation ----------------------------------------------------------------------------- */

static void
hadd (const vm_skg *s, double *hval, int64_t row, int64_t col, double v)
{
  int64_t lo = s->colptr[col], hi = s->colptr[col + 1] - 1;
  while (lo <= hi)
    {
      int64_t mid = lo + (hi - lo) / 2;
      if (s->rowind[mid] == row)
        {
          hval[mid] += v;
          return;
        }
      if (s->rowind[mid] < row)
        lo = mid + 1;
      else
        hi = mid - 1;
    }
  /* not in the pattern: cannot happen (the pattern is built from the same structure) */
}

/* Support of active variable r at node k: identity or row k of Ds. */
static void
support (const vm_skg *s, int r, int64_t k, const int64_t **j, const double **v, int64_t *len,
         int64_t *kbuf, double *one)
{
  if (is_vel (s, r))
    {
      *j = s->dsj + s->dsp[k];
      *v = s->dsv + s->dsp[k];
      *len = s->dsp[k + 1] - s->dsp[k];
    }
  else
    {
      *kbuf = k;
      *one = 1.0;
      *j = kbuf;
      *v = one;
      *len = 1;
    }
}

/* Add w * (gradient, Hessian) of one point term at node k.  d[r] = point gradient (stride st),
 * h[e] = point Hessian nonzero e (stride st). */
static void
add_point (const vm_skg *s, int64_t k, double w, const double *d, const double *h, size_t st,
           int nh, const int *hr, const int *hc, double *grad, double *hval)
{
  int r, e, nb = s->nb;
  int64_t kb1, kb2, l1, l2, a, b;
  double o1, o2;
  const int64_t *j1, *j2;
  const double *v1, *v2;
  if (grad)
    for (r = 0; r < s->na; r++)
      {
        double dr = w * d[st * r];
        int zc = zcomp (s, r);
        if (dr == 0.0)
          continue;
        support (s, r, k, &j1, &v1, &l1, &kb1, &o1);
        for (a = 0; a < l1; a++)
          grad[j1[a] * nb + zc] += dr * v1[a];
      }
  if (hval)
    for (e = 0; e < nh; e++)
      {
        double he = w * h[st * e];
        int r1 = hr[e], r2 = hc[e], c1 = zcomp (s, r1), c2 = zcomp (s, r2);
        if (he == 0.0)
          continue;
        support (s, r1, k, &j1, &v1, &l1, &kb1, &o1);
        support (s, r2, k, &j2, &v2, &l2, &kb2, &o2);
        for (a = 0; a < l1; a++)
          for (b = 0; b < l2; b++)
            {
              double val = he * v1[a] * v2[b];
              int64_t i1 = j1[a] * nb + c1, i2 = j2[b] * nb + c2;
              hadd (s, hval, i1, i2, val);
              if (r1 != r2)
                hadd (s, hval, i2, i1, val);
            }
      }
}

int
vm_skg_eval (vm_skg *s, const double *z, double *S, double *grad, double *hval)
{
  int64_t N, k, e;
  int n, m, na, nb, c, r, st;
  double acc, t0, t1;
  if (! s || ! s->g || ! z)
    return VM_EARG;
  N = s->N;
  n = s->n;
  m = s->m;
  na = s->na;
  nb = s->nb;
  /* the tapes' outputs are kept: a Jacobian at the point of the previous residual (Newton's
   * accepted trial point) reuses them */
  if (s->zlast_ok && memcmp (s->zlast, z, (size_t) s->nz * sizeof *z) == 0)
    {
      t1 = vm_wall_time ();
      goto assemble;
    }
  s->zlast_ok = 0;
  /* point variables */
  for (k = 0; k < N; k++)
    {
      for (c = 0; c < 2 * n; c++)
        s->x[(size_t) N * c + k] = z[k * nb + c];
      for (c = 0; c < 2 * m; c++)
        s->x[(size_t) N * (4 * n + c) + k] = z[k * nb + 2 * n + c];
    }
  for (c = 0; c < 2 * n; c++)
    {
      const double *xc = s->x + (size_t) N * c;
      double *vc = s->x + (size_t) N * (2 * n + c);
      for (k = 0; k < N; k++)
        {
          double sum = 0.0;
          for (e = s->dsp[k]; e < s->dsp[k + 1]; e++)
            sum += s->dsv[e] * xc[s->dsj[e]];
          vc[k] = sum;
        }
      if (c < n)
        vc[0] -= s->qi[c] / s->hw[0];       /* affine part of Da on the + branch */
    }
  t0 = vm_wall_time ();
  st = vm_tape_eval (&s->ts, (size_t) N, s->in, s->inc, s->outp, s->work);
  if (st != VM_OK)
    return st;
  s->ntape++;
  for (r = 0; r < na; r++)
    {
      s->xb[2 * r] = s->x[(size_t) N * r];
      s->xb[2 * r + 1] = s->x[(size_t) N * r + N - 1];
    }
  st = vm_tape_eval (&s->tb, 2, s->inb, s->incb, s->outpb, s->work);
  if (st != VM_OK)
    return st;
  t1 = vm_wall_time ();
  s->t_tape += t1 - t0;
  memcpy (s->zlast, z, (size_t) s->nz * sizeof *z);
  s->zlast_ok = 1;
assemble:
  if (grad)
    memset (grad, 0, (size_t) s->nz * sizeof *grad);
  if (hval)
    memset (hval, 0, (size_t) s->nnz * sizeof *hval);
  acc = 0.0;
  for (k = 0; k < N; k++)
    {
      acc += s->hw[k] * s->out[k];
      add_point (s, k, s->hw[k], s->out + N + k, s->out + (size_t) N * (1 + na) + k, (size_t) N,
                 s->nhs, s->hsr, s->hsc, grad, hval);
    }
  t0 = vm_wall_time ();
  if (hval)
    s->t_hess += t0 - t1;
  else
    s->t_grad += t0 - t1;
  /* boundary: b(0) + b(N-1) + q-_0 . p_i */
  acc += s->outb[0] + s->outb[1];
  add_point (s, 0, 1.0, s->outb + 2, s->outb + 2 * (1 + na), 2, s->nhb, s->hbr, s->hbc, grad, hval);
  add_point (s, N - 1, 1.0, s->outb + 3, s->outb + 2 * (1 + na) + 1, 2, s->nhb, s->hbr, s->hbc,
             grad, hval);
  for (c = 0; c < n; c++)
    {
      acc += z[n + c] * s->pi[c];
      if (grad)
        grad[n + c] += s->pi[c];
    }
  if (S)
    *S = acc;
  return VM_OK;
}
