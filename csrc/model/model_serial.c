/* model_serial.c -- a compiled model to and from one flat byte array (see model_serial.h).
 *
 * Layout (native byte order, no alignment: every value is copied with memcpy):
 *   header  magic "VMMODEL\0" | u32 version | u32 kind (1 vm_mech, 2 vm_ode) | u32 byte-order
 *           mark 0x01020304 | u32 0 | u64 total length | u64 FNV-1a of the bytes after the header
 *   counts  vm_mech: i32 n, np, m, nc, nforce;  vm_ode: i32 ny, np, nd, na, nonsquare
 *   texts   each u32 length + bytes; vm_mech: coordinates, parameters, lagrangian, forces,
 *           constraints, then per contact h, sigma, V0, mu, epsv; vm_ode: states, parameters,
 *           rhs, algebraic
 *   graph   i32 nvar, i32 nnodes, per node u8 op and its operands: CONST f64, VAR i32 variable,
 *           unary i32 child, binary i32 child i32 child (the canonical fields of expr_graph.c)
 *   roots   i32 node ids; vm_mech: L, F (n), g (m), h (nc), FN (nc n), FR (nc n), hdot (nc),
 *           sigma (nc), mu (nc), U (nc); vm_ode: F (nd), G (na)
 * Operands are written per operation so that a node's unused fields cannot carry damage. */
#include "model/model_serial.h"
#include "base/vm_status.h"

#include <stdlib.h>
#include <string.h>

#define MAGIC "VMMODEL"
#define BLOB_VERSION 2u        /* 2: the contacts' potentials U among the roots */
#define KIND_MECH 1u
#define KIND_ODE 2u
#define BOM 0x01020304u
#define HEADER 40
#define MAX_COUNT 100000       /* coordinates, parameters, constraints, states (model.c's limits) */
#define MAX_CONTACTS 10000
#define MAX_TEXT 100000000u

/* ---- writing ------------------------------------------------------------------------------- */

typedef struct {
  uint8_t *b;
  size_t n, cap;
  int st;
} wbuf;

static void
put (wbuf *w, const void *p, size_t k)
{
  if (w->st != VM_OK)
    return;
  if (w->n + k > w->cap)
    {
      size_t nc = w->cap ? w->cap : 1024;
      uint8_t *nb;
      while (nc < w->n + k)
        nc *= 2;
      if (! (nb = realloc (w->b, nc)))
        {
          w->st = VM_ENOMEM;
          return;
        }
      w->b = nb;
      w->cap = nc;
    }
  memcpy (w->b + w->n, p, k);
  w->n += k;
}

static void
put_i32 (wbuf *w, int32_t v)
{
  put (w, &v, sizeof v);
}

static void
put_text (wbuf *w, const char *s)
{
  size_t k = s ? strlen (s) : 0;
  uint32_t len = (uint32_t) k;
  if (! s || k > MAX_TEXT)
    {
      w->st = w->st != VM_OK ? w->st : VM_EARG;
      return;
    }
  put (w, &len, sizeof len);
  put (w, s, k);
}

static void
put_texts (wbuf *w, int n, const char *const *s)
{
  int k;
  for (k = 0; k < n; k++)
    put_text (w, s[k]);
}

static void
put_ids (wbuf *w, size_t n, const int32_t *id)
{
  size_t k;
  for (k = 0; k < n; k++)
    put_i32 (w, id[k]);
}

static void
put_graph (wbuf *w, const vm_graph *g)
{
  size_t k, nn = vm_graph_size (g);
  put_i32 (w, (int32_t) vm_graph_nvar (g));
  put_i32 (w, (int32_t) nn);
  for (k = 0; k < nn; k++)
    {
      const vm_node *nd = vm_graph_node (g, (int32_t) k);
      uint8_t op = (uint8_t) nd->op;
      int ar = vm_op_arity (nd->op);
      put (w, &op, 1);
      if (nd->op == VM_OP_CONST)
        put (w, &nd->c, sizeof nd->c);
      else
        put_i32 (w, nd->a);
      if (ar == 2)
        put_i32 (w, nd->b);
    }
}

static uint64_t
fnv1a (const uint8_t *p, size_t n)
{
  uint64_t h = 1469598103934665603ULL;
  size_t k;
  for (k = 0; k < n; k++)
    h = (h ^ p[k]) * 1099511628211ULL;
  return h;
}

static void
put_header (wbuf *w, uint32_t kind)
{
  const uint32_t u[4] = { BLOB_VERSION, kind, BOM, 0u };
  const uint64_t z[2] = { 0, 0 };
  put (w, MAGIC, 8);   /* with its NUL */
  put (w, u, sizeof u);
  put (w, z, sizeof z);
}

/* the length and the checksum into the header; the blob to the caller */
static int
finish (wbuf *w, uint8_t **blob, size_t *len)
{
  uint64_t total = (uint64_t) w->n, sum;
  if (w->st != VM_OK)
    {
      free (w->b);
      return w->st;
    }
  sum = fnv1a (w->b + HEADER, w->n - HEADER);
  memcpy (w->b + 24, &total, sizeof total);
  memcpy (w->b + 32, &sum, sizeof sum);
  *blob = w->b;
  *len = w->n;
  return VM_OK;
}

int
vm_mech_save (const vm_mech *m, const vm_mech_desc *d, uint8_t **blob, size_t *len)
{
  wbuf w;
  int k, nc;
  size_t ncn;
  if (! m || ! d || ! blob || ! len || ! m->g || m->n != d->n || m->np != d->np
      || m->m != d->ncons || m->nc != d->ncontact || (d->nforce != 0 && d->nforce != d->n))
    return VM_EARG;
  memset (&w, 0, sizeof w);
  nc = m->nc;
  ncn = (size_t) nc * (size_t) m->n;
  put_header (&w, KIND_MECH);
  put_i32 (&w, m->n);
  put_i32 (&w, m->np);
  put_i32 (&w, m->m);
  put_i32 (&w, nc);
  put_i32 (&w, d->nforce);
  put_texts (&w, d->n, d->coord);
  put_texts (&w, d->np, d->param);
  put_text (&w, d->lagrangian);
  put_texts (&w, d->nforce, d->force);
  put_texts (&w, d->ncons, d->cons);
  for (k = 0; k < nc; k++)
    {
      put_text (&w, d->contact[k].h);
      put_text (&w, d->contact[k].sigma);
      put_text (&w, d->contact[k].V0);
      put_text (&w, d->contact[k].mu);
      put_text (&w, d->contact[k].epsv);
    }
  put_graph (&w, m->g);
  put_i32 (&w, m->L);
  put_ids (&w, (size_t) m->n, m->F);
  put_ids (&w, (size_t) m->m, m->gc);
  put_ids (&w, (size_t) nc, m->h);
  put_ids (&w, ncn, m->FN);
  put_ids (&w, ncn, m->FR);
  put_ids (&w, (size_t) nc, m->hdot);
  put_ids (&w, (size_t) nc, m->sigma);
  put_ids (&w, (size_t) nc, m->mu);
  put_ids (&w, (size_t) nc, m->U);
  return finish (&w, blob, len);
}

int
vm_ode_save (const vm_ode *o, const vm_ode_desc *d, uint8_t **blob, size_t *len)
{
  wbuf w;
  if (! o || ! d || ! blob || ! len || ! o->g || o->ny != d->ny || o->np != d->np
      || o->nd != d->nd || o->na != d->na)
    return VM_EARG;
  memset (&w, 0, sizeof w);
  put_header (&w, KIND_ODE);
  put_i32 (&w, o->ny);
  put_i32 (&w, o->np);
  put_i32 (&w, o->nd);
  put_i32 (&w, o->na);
  put_i32 (&w, d->nonsquare ? 1 : 0);
  put_texts (&w, d->ny, d->state);
  put_texts (&w, d->np, d->param);
  put_texts (&w, d->nd, d->rhs);
  put_texts (&w, d->na, d->alg);
  put_graph (&w, o->g);
  put_ids (&w, (size_t) o->nd, o->F);
  put_ids (&w, (size_t) o->na, o->G);
  return finish (&w, blob, len);
}

/* ---- reading ------------------------------------------------------------------------------- */

/* A cursor over the blob: every read checks the bytes left; after a failure ok is 0 and reads
 * return zeros. */
typedef struct {
  const uint8_t *b;
  size_t n, pos;
  int ok;
} rbuf;

static void
get (rbuf *r, void *p, size_t k)
{
  if (! r->ok || k > r->n - r->pos)
    {
      r->ok = 0;
      memset (p, 0, k);
      return;
    }
  memcpy (p, r->b + r->pos, k);
  r->pos += k;
}

static int32_t
get_i32 (rbuf *r)
{
  int32_t v;
  get (r, &v, sizeof v);
  return v;
}

/* a count in [lo, hi] that the bytes left can hold at min_bytes each */
static int
get_count (rbuf *r, int lo, int hi, size_t min_bytes)
{
  int32_t v = get_i32 (r);
  if (v < lo || v > hi || (size_t) v * min_bytes > r->n - r->pos)
    r->ok = 0;
  return r->ok ? v : 0;
}

/* The header: magic, version, kind, byte order, length and checksum; the cursor after it. */
static int
check_header (const uint8_t *blob, size_t len, uint32_t kind, rbuf *r)
{
  uint32_t u[4];
  uint64_t total, sum;
  memset (r, 0, sizeof *r);
  if (! blob || len < HEADER || memcmp (blob, MAGIC, 8) != 0)
    return VM_EARG;
  memcpy (u, blob + 8, sizeof u);
  memcpy (&total, blob + 24, sizeof total);
  memcpy (&sum, blob + 32, sizeof sum);
  if (u[0] != BLOB_VERSION || u[1] != kind || u[2] != BOM || u[3] != 0u || total != (uint64_t) len
      || sum != fnv1a (blob + HEADER, len - HEADER))
    return VM_EARG;
  r->b = blob;
  r->n = len;
  r->pos = HEADER;
  r->ok = 1;
  return VM_OK;
}

/* ntext texts: their places in the blob (off[k], ln[k]), checked (no NUL byte) */
static void
scan_texts (rbuf *r, size_t ntext, size_t *off, uint32_t *ln, size_t *total)
{
  size_t k;
  *total = 0;
  for (k = 0; k < ntext && r->ok; k++)
    {
      get (r, &ln[k], sizeof ln[k]);
      if (! r->ok || ln[k] > r->n - r->pos || memchr (r->b + r->pos, 0, ln[k]))
        {
          r->ok = 0;
          return;
        }
      off[k] = r->pos;
      r->pos += ln[k];
      *total += (size_t) ln[k] + 1;
    }
}

/* Read ntext texts into one store (NUL-terminated) and ptr[0..ntext-1]; with want 0 only checked.
 * VM_OK, VM_EARG (damaged) or VM_ENOMEM. */
static int
read_texts (rbuf *r, size_t ntext, int want, char **store, const char ***ptr)
{
  size_t *off = malloc ((ntext ? ntext : 1) * sizeof *off), total, k, at = 0;
  uint32_t *ln = malloc ((ntext ? ntext : 1) * sizeof *ln);
  int st = VM_OK;
  *store = NULL;
  *ptr = NULL;
  if (! off || ! ln)
    st = VM_ENOMEM;
  else
    {
      scan_texts (r, ntext, off, ln, &total);
      if (! r->ok)
        st = VM_EARG;
      else if (want)
        {
          *store = malloc (total ? total : 1);
          *ptr = malloc ((ntext ? ntext : 1) * sizeof **ptr);
          if (! *store || ! *ptr)
            st = VM_ENOMEM;
          for (k = 0; k < ntext && st == VM_OK; k++)
            {
              memcpy (*store + at, r->b + off[k], ln[k]);
              (*store)[at + ln[k]] = '\0';
              (*ptr)[k] = *store + at;
              at += (size_t) ln[k] + 1;
            }
        }
    }
  free (off);
  free (ln);
  if (st != VM_OK)
    {
      free (*store);
      free ((void *) *ptr);
      *store = NULL;
      *ptr = NULL;
    }
  return st;
}

/* one node, checked: a graph operation, children before index k, a variable below nvar */
static int
read_node (rbuf *r, int32_t k, int nvar, vm_node *nd)
{
  uint8_t op;
  int ar;
  get (r, &op, 1);
  ar = vm_op_arity (op);
  nd->op = op;
  nd->a = nd->b = 0;
  nd->c = 0.0;
  if (! r->ok || ar < 0)
    return 0;
  if (op == VM_OP_CONST)
    get (r, &nd->c, sizeof nd->c);
  else if (op == VM_OP_VAR)
    {
      nd->a = get_i32 (r);
      return r->ok && nd->a >= 0 && nd->a < nvar;
    }
  else
    {
      nd->a = get_i32 (r);
      nd->b = ar == 2 ? get_i32 (r) : -1;
      return r->ok && nd->a >= 0 && nd->a < k && (ar == 1 || (nd->b >= 0 && nd->b < k));
    }
  return r->ok;
}

/* The graph, replayed node by node (vm_graph_push): each must get its saved id, so a node stored
 * twice is damage.  VM_OK, VM_EARG or VM_ENOMEM; *g NULL unless VM_OK. */
static int
read_graph (rbuf *r, int nvar, vm_graph **gout)
{
  vm_graph *g;
  int32_t nn, k;
  vm_node nd;
  *gout = NULL;
  if (get_i32 (r) != nvar || ! r->ok)
    return VM_EARG;
  nn = (int32_t) get_count (r, 0, VM_EXPR_MAX_NODES, 5);
  if (! r->ok)
    return VM_EARG;
  if (! (g = vm_graph_new (nvar)))
    return VM_ENOMEM;
  for (k = 0; k < nn; k++)
    {
      int32_t id;
      if (! read_node (r, k, nvar, &nd))
        {
          vm_graph_free (g);
          return VM_EARG;
        }
      id = vm_graph_push (g, &nd);
      if (id != k)
        {
          int st = id < 0 ? vm_graph_status (g) : VM_EARG;
          vm_graph_free (g);
          return st == VM_ENOMEM ? VM_ENOMEM : VM_EARG;
        }
    }
  *gout = g;
  return VM_OK;
}

/* n root ids into a fresh array (of at least one entry), each an existing node */
static int32_t *
read_roots (rbuf *r, size_t n, int32_t nnodes, int *st)
{
  int32_t *a;
  size_t k;
  if (! r->ok || n > (r->n - r->pos) / 4)
    {
      r->ok = 0;
      *st = VM_EARG;
      return NULL;
    }
  a = malloc ((n ? n : 1) * sizeof *a);
  if (! a)
    {
      *st = VM_ENOMEM;
      return NULL;
    }
  for (k = 0; k < n; k++)
    {
      a[k] = get_i32 (r);
      if (! r->ok || a[k] < 0 || a[k] >= nnodes)
        {
          r->ok = 0;
          *st = VM_EARG;
        }
    }
  return a;
}

void
vm_mech_text_free (vm_mech_text *t)
{
  if (! t)
    return;
  free (t->store);
  free ((void *) t->ptr);
  free (t->con);
  memset (t, 0, sizeof *t);
}

void
vm_ode_text_free (vm_ode_text *t)
{
  if (! t)
    return;
  free (t->store);
  free ((void *) t->ptr);
  memset (t, 0, sizeof *t);
}

/* the texts of a vm_mech blob into t (pointers into t's storage) */
static int
mech_texts (rbuf *r, vm_mech_desc *d, vm_mech_text *t)
{
  size_t nt = (size_t) d->n + (size_t) d->np + 1 + (size_t) d->nforce + (size_t) d->ncons
              + 5 * (size_t) d->ncontact, at = 0;
  char *store;
  const char **p;
  int k, st = read_texts (r, nt, t != NULL, &store, &p);
  if (st != VM_OK || ! t)
    return st;
  t->store = store;
  t->ptr = p;
  t->con = malloc ((size_t) (d->ncontact > 0 ? d->ncontact : 1) * sizeof *t->con);
  if (! t->con)
    return VM_ENOMEM;
  d->coord = p + at;
  at += (size_t) d->n;
  d->param = p + at;
  at += (size_t) d->np;
  d->lagrangian = p[at++];
  d->force = p + at;
  at += (size_t) d->nforce;
  d->cons = p + at;
  at += (size_t) d->ncons;
  for (k = 0; k < d->ncontact; k++, at += 5)
    {
      t->con[k].h = p[at];
      t->con[k].sigma = p[at + 1];
      t->con[k].V0 = p[at + 2];
      t->con[k].mu = p[at + 3];
      t->con[k].epsv = p[at + 4];
    }
  d->contact = t->con;
  t->d = *d;
  return VM_OK;
}

/* the graph and the roots of a vm_mech blob into m (its layout set) */
static int
mech_graph (rbuf *r, vm_mech *m)
{
  size_t nc = (size_t) m->nc, ncn = nc * (size_t) m->n;
  int32_t nn;
  int st = read_graph (r, m->nvar, &m->g);
  if (st != VM_OK)
    return st;
  nn = (int32_t) vm_graph_size (m->g);
  m->L = get_i32 (r);
  if (! r->ok || m->L < 0 || m->L >= nn)
    return VM_EARG;
  m->F = read_roots (r, (size_t) m->n, nn, &st);
  m->gc = read_roots (r, (size_t) m->m, nn, &st);
  m->h = read_roots (r, nc, nn, &st);
  m->FN = read_roots (r, ncn, nn, &st);
  m->FR = read_roots (r, ncn, nn, &st);
  m->hdot = read_roots (r, nc, nn, &st);
  m->sigma = read_roots (r, nc, nn, &st);
  m->mu = read_roots (r, nc, nn, &st);
  m->U = read_roots (r, nc, nn, &st);
  if (st == VM_OK && (! m->F || ! m->gc || ! m->h || ! m->FN || ! m->FR || ! m->hdot
                      || ! m->sigma || ! m->mu || ! m->U))
    st = VM_ENOMEM;
  return st;
}

int
vm_mech_load (const uint8_t *blob, size_t len, vm_mech *m, vm_mech_text *t)
{
  rbuf r;
  vm_mech_desc d;
  vm_mech tmp;
  int st;
  if (m)
    memset (m, 0, sizeof *m);
  if (t)
    memset (t, 0, sizeof *t);
  if ((st = check_header (blob, len, KIND_MECH, &r)) != VM_OK)
    return st;
  memset (&d, 0, sizeof d);
  d.n = get_count (&r, 1, MAX_COUNT, 4);
  d.np = get_count (&r, 0, MAX_COUNT, 4);
  d.ncons = get_count (&r, 0, MAX_COUNT, 4);
  d.ncontact = get_count (&r, 0, MAX_CONTACTS, 20);
  d.nforce = get_count (&r, 0, MAX_COUNT, 4);
  if (! r.ok || (d.nforce != 0 && d.nforce != d.n))
    return VM_EARG;
  st = mech_texts (&r, &d, t);
  if (st == VM_OK && m)
    {
      memset (&tmp, 0, sizeof tmp);
      vm_mech_layout (&tmp, d.n, d.np, d.ncons, d.ncontact);
      st = mech_graph (&r, &tmp);
      if (st == VM_OK && (! r.ok || r.pos != r.n))
        st = VM_EARG;
      if (st == VM_OK)
        *m = tmp;
      else
        vm_mech_free (&tmp);
    }
  if (st != VM_OK)
    vm_mech_text_free (t);
  return st;
}

int
vm_ode_load (const uint8_t *blob, size_t len, vm_ode *o, vm_ode_text *t)
{
  rbuf r;
  vm_ode_desc d;
  vm_ode tmp;
  char *store;
  const char **p;
  int st;
  if (o)
    memset (o, 0, sizeof *o);
  if (t)
    memset (t, 0, sizeof *t);
  if ((st = check_header (blob, len, KIND_ODE, &r)) != VM_OK)
    return st;
  memset (&d, 0, sizeof d);
  d.ny = get_count (&r, 1, MAX_COUNT, 4);
  d.np = get_count (&r, 0, MAX_COUNT, 4);
  d.nd = get_count (&r, 0, MAX_COUNT, 4);
  d.na = get_count (&r, 0, MAX_COUNT, 4);
  d.nonsquare = get_count (&r, 0, 1, 0);
  if (! r.ok || d.nd > d.ny || (! d.nonsquare && d.nd + d.na != d.ny))
    return VM_EARG;
  st = read_texts (&r, (size_t) d.ny + (size_t) d.np + (size_t) d.nd + (size_t) d.na, t != NULL,
                   &store, &p);
  if (st == VM_OK && t)
    {
      t->store = store;
      t->ptr = p;
      d.state = p;
      d.param = p + d.ny;
      d.rhs = p + d.ny + d.np;
      d.alg = p + d.ny + d.np + d.nd;
      t->d = d;
    }
  if (st == VM_OK && o)
    {
      memset (&tmp, 0, sizeof tmp);
      vm_ode_layout (&tmp, d.ny, d.np, d.nd, d.na);
      st = read_graph (&r, tmp.nvar, &tmp.g);
      if (st == VM_OK)
        {
          int32_t nn = (int32_t) vm_graph_size (tmp.g);
          tmp.F = read_roots (&r, (size_t) d.nd, nn, &st);
          tmp.G = read_roots (&r, (size_t) d.na, nn, &st);
          if (st == VM_OK && (! tmp.F || ! tmp.G))
            st = VM_ENOMEM;
          if (st == VM_OK && (! r.ok || r.pos != r.n))
            st = VM_EARG;
        }
      if (st == VM_OK)
        *o = tmp;
      else
        vm_ode_free (&tmp);
    }
  if (st != VM_OK)
    vm_ode_text_free (t);
  return st;
}

/* ---- comparing descriptions ------------------------------------------------------------------ */

static int
same_text (const char *a, const char *b)
{
  return a && b ? strcmp (a, b) == 0 : a == b;
}

static int
same_texts (int na, const char *const *a, int nb, const char *const *b)
{
  int k;
  if (na != nb)
    return 0;
  for (k = 0; k < na; k++)
    if (! same_text (a[k], b[k]))
      return 0;
  return 1;
}

const char *
vm_mech_desc_diff (const vm_mech_desc *a, const vm_mech_desc *b)
{
  int k;
  if (! same_texts (a->n, a->coord, b->n, b->coord))
    return "coordinates";
  if (! same_texts (a->np, a->param, b->np, b->param))
    return "parameter_names";
  if (! same_text (a->lagrangian, b->lagrangian))
    return "lagrangian";
  if (! same_texts (a->nforce, a->force, b->nforce, b->force))
    return "forces";
  if (! same_texts (a->ncons, a->cons, b->ncons, b->cons))
    return "constraints";
  if (a->ncontact != b->ncontact)
    return "contacts";
  for (k = 0; k < a->ncontact; k++)
    {
      const vm_contact_desc *x = &a->contact[k], *y = &b->contact[k];
      if (! same_text (x->h, y->h) || ! same_text (x->sigma, y->sigma) || ! same_text (x->V0, y->V0)
          || ! same_text (x->mu, y->mu) || ! same_text (x->epsv, y->epsv))
        return "contacts";
    }
  return NULL;
}

const char *
vm_ode_desc_diff (const vm_ode_desc *a, const vm_ode_desc *b)
{
  if (! same_texts (a->ny, a->state, b->ny, b->state))
    return "states";
  if (! same_texts (a->np, a->param, b->np, b->param))
    return "parameter_names";
  if (! same_texts (a->nd, a->rhs, b->nd, b->rhs))
    return "rhs";
  if (! same_texts (a->na, a->alg, b->na, b->alg))
    return "algebraic";
  if ((a->nonsquare != 0) != (b->nonsquare != 0))
    return "square";
  return NULL;
}
