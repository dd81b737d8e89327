/* test_model_serial.c -- the compiled model to and from a byte array (csrc/model/model_serial.h).
 *
 * Round trips: a mechanical system with parameters, forces, constraints and a contact, and a
 * nonsquare first-order system, are saved and loaded; the loaded graph must equal the built one
 * node by node, the roots and texts must be the built ones, and the blocks compiled from the loaded
 * model must equal those compiled from the built one instruction by instruction (so a solver that
 * loads gets exactly what it got by parsing).  Damage: every truncation, every single-byte change
 * (caught by the checksum), and changes with the checksum repaired that break one structural rule
 * each (an operation code, a forward child, a variable out of range, a root out of range, a node
 * stored twice, a count larger than the blob, a text with a NUL byte): each must be refused with
 * VM_EARG and leave the outputs empty.  Under make check-asan a read outside the blob would be
 * reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"
#include "model/model.h"
#include "model/model_serial.h"
#include "base/vm_status.h"
#include "vmtest.h"

#define HEADER 40

static uint64_t
fnv1a (const uint8_t *p, size_t n)
{
  uint64_t h = 1469598103934665603ULL;
  size_t k;
  for (k = 0; k < n; k++)
    h = (h ^ p[k]) * 1099511628211ULL;
  return h;
}

/* the checksum of a changed blob made right again, so that the structural checks are reached */
static void
reseal (uint8_t *b, size_t len)
{
  uint64_t s = fnv1a (b + HEADER, len - HEADER);
  memcpy (b + 32, &s, sizeof s);
}

static int
same_graph (const vm_graph *a, const vm_graph *b)
{
  size_t k;
  if (vm_graph_size (a) != vm_graph_size (b) || vm_graph_nvar (a) != vm_graph_nvar (b))
    return 0;
  for (k = 0; k < vm_graph_size (a); k++)
    {
      const vm_node *x = vm_graph_node (a, (int32_t) k), *y = vm_graph_node (b, (int32_t) k);
      if (x->op != y->op || x->a != y->a || x->b != y->b || memcmp (&x->c, &y->c, sizeof x->c))
        return 0;
    }
  return 1;
}

static int
same_block (const vm_block *a, const vm_block *b)
{
  int k;
  if (a->nfield != b->nfield || a->tape.ninstr != b->tape.ninstr || a->tape.nout != b->tape.nout
      || a->tape.nslot != b->tape.nslot || a->tape.nvar != b->tape.nvar)
    return 0;
  for (k = 0; k < a->tape.ninstr; k++)
    {
      const vm_instr *x = &a->tape.code[k], *y = &b->tape.code[k];
      if (x->op != y->op || x->dst != y->dst || x->a != y->a || x->b != y->b
          || memcmp (&x->imm, &y->imm, sizeof x->imm))
        return 0;
    }
  for (k = 0; k < a->tape.nout; k++)
    if (a->out_field[k] != b->out_field[k] || a->out_index[k] != b->out_index[k])
      return 0;
  return 1;
}

static int
same_ids (const int32_t *a, const int32_t *b, size_t n)
{
  return n == 0 || memcmp (a, b, n * sizeof *a) == 0;
}

/* a sliding disk on an incline with a wall: parameters, forces, a constraint and a contact */
static const char *coord[] = { "x", "y", "th" };
static const char *param[] = { "g", "c", "sig" };
static const char *force[] = { "-c*dot(x)", "-c*dot(y)", "0" };
static const char *cons[] = { "dot(x)*sin(th) - dot(y)*cos(th)" };
static vm_contact_desc contact[] = { { "1 - x", "sig", "20", "0.3", "1e-3" } };

static void
mech_desc (vm_mech_desc *d)
{
  memset (d, 0, sizeof *d);
  d->n = 3;
  d->coord = coord;
  d->np = 3;
  d->param = param;
  d->lagrangian = "(dot(x)^2 + dot(y)^2)/2 + dot(th)^2/4 - g*y";
  d->nforce = 3;
  d->force = force;
  d->ncons = 1;
  d->cons = cons;
  d->ncontact = 1;
  d->contact = contact;
}

static const char *state[] = { "x", "v", "Q", "s" };
static const char *oparam[] = { "w" };
static const char *rhs[] = { "v", "-w^2*x + Q" };
static const char *alg[] = { "Q*v - s^2/2" };

static void
ode_desc (vm_ode_desc *d)
{
  memset (d, 0, sizeof *d);
  d->ny = 4;
  d->state = state;
  d->np = 1;
  d->param = oparam;
  d->nd = 2;
  d->rhs = rhs;
  d->na = 1;
  d->alg = alg;
  d->nonsquare = 1;
}

static void
test_mech_round_trip (uint8_t **blob, size_t *len)
{
  vm_mech_desc d;
  vm_mech m, l, tonly;
  vm_mech_text t;
  vm_err err;
  long c0;
  int k, nc;
  mech_desc (&d);
  c0 = vm_model_compiles ();
  CHECK (vm_mech_build (&d, &m, &err) == VM_OK, "build: %s", err.msg);
  CHECK (vm_model_compiles () == c0 + 1, "one build counted");
  CHECK (vm_mech_save (&m, &d, blob, len) == VM_OK, "save");
  CHECK (vm_mech_load (*blob, *len, &l, &t) == VM_OK, "load");
  CHECK (vm_model_compiles () == c0 + 1, "loading is no compilation");
  CHECK (same_graph (m.g, l.g), "the same graph");
  CHECK (l.n == 3 && l.np == 3 && l.m == 1 && l.nc == 1 && l.nvar == m.nvar && l.vw == m.vw,
         "sizes and layout");
  nc = m.nc;
  CHECK (l.L == m.L && same_ids (l.F, m.F, 3) && same_ids (l.gc, m.gc, 1)
         && same_ids (l.h, m.h, 1) && same_ids (l.FN, m.FN, 3) && same_ids (l.FR, m.FR, 3)
         && same_ids (l.hdot, m.hdot, 1) && same_ids (l.sigma, m.sigma, 1)
         && same_ids (l.mu, m.mu, (size_t) nc), "the same roots");
  CHECK (vm_mech_desc_diff (&t.d, &d) == NULL, "the same texts");
  CHECK (strcmp (t.d.contact[0].mu, "0.3") == 0 && strcmp (t.d.lagrangian, d.lagrangian) == 0,
         "a contact coefficient and the lagrangian");
  for (k = 0; k < VM_MECH_NBLOCKS; k++)
    {
      vm_block a, b;
      CHECK (vm_mech_block (&m, k, &a) == VM_OK && vm_mech_block (&l, k, &b) == VM_OK,
             "block %d", k);
      CHECK (same_block (&a, &b), "block %s: the same tape", vm_mech_block_name (k));
      vm_block_free (&a);
      vm_block_free (&b);
    }
  CHECK (same_graph (m.g, l.g), "the same graph after the same derivatives");
  /* the texts only */
  vm_mech_text_free (&t);
  CHECK (vm_mech_load (*blob, *len, NULL, &t) == VM_OK && t.d.n == 3
         && strcmp (t.d.cons[0], cons[0]) == 0, "the texts alone");
  vm_mech_text_free (&t);
  CHECK (vm_mech_load (*blob, *len, &tonly, NULL) == VM_OK && tonly.g != NULL, "the model alone");
  vm_mech_free (&tonly);
  /* a description that differs names the part */
  {
    vm_mech_desc e = d;
    const char *cons2[] = { "dot(x)*sin(th) + dot(y)*cos(th)" };
    vm_contact_desc c2 = contact[0];
    e.lagrangian = "dot(x)^2";
    CHECK (vm_mech_desc_diff (&e, &d) && strcmp (vm_mech_desc_diff (&e, &d), "lagrangian") == 0,
           "lagrangian differs");
    e = d;
    e.cons = cons2;
    CHECK (strcmp (vm_mech_desc_diff (&e, &d), "constraints") == 0, "constraints differ");
    e = d;
    c2.sigma = "0.1";
    e.contact = &c2;
    CHECK (strcmp (vm_mech_desc_diff (&e, &d), "contacts") == 0, "contacts differ");
    e = d;
    e.nforce = 0;
    CHECK (strcmp (vm_mech_desc_diff (&e, &d), "forces") == 0, "forces differ");
  }
  vm_mech_free (&m);
  vm_mech_free (&l);
}

static void
test_ode_round_trip (uint8_t **blob, size_t *len)
{
  vm_ode_desc d;
  vm_ode o, l;
  vm_ode_text t;
  vm_err err;
  vm_block a, b;
  ode_desc (&d);
  CHECK (vm_ode_build (&d, &o, &err) == VM_OK, "ode build: %s", err.msg);
  CHECK (vm_ode_save (&o, &d, blob, len) == VM_OK, "ode save");
  CHECK (vm_ode_load (*blob, *len, &l, &t) == VM_OK, "ode load");
  CHECK (same_graph (o.g, l.g), "ode: the same graph");
  CHECK (l.ny == 4 && l.nd == 2 && l.na == 1 && l.nvar == o.nvar && same_ids (l.F, o.F, 2)
         && same_ids (l.G, o.G, 1), "ode: sizes and roots");
  CHECK (vm_ode_desc_diff (&t.d, &d) == NULL && t.d.nonsquare, "ode: the same texts");
  CHECK (vm_ode_block (&o, VM_ODE_SYSTEM, &a) == VM_OK && vm_ode_block (&l, VM_ODE_SYSTEM, &b)
         == VM_OK && same_block (&a, &b), "ode: the same system block");
  vm_block_free (&a);
  vm_block_free (&b);
  {
    vm_ode_desc e = d;
    e.nonsquare = 0;
    CHECK (strcmp (vm_ode_desc_diff (&e, &d), "square") == 0, "square differs");
    e = d;
    e.rhs = alg;
    CHECK (strcmp (vm_ode_desc_diff (&e, &d), "rhs") == 0, "rhs differs");
  }
  /* a vm_mech blob is no vm_ode blob */
  vm_ode_text_free (&t);
  vm_ode_free (&o);
  vm_ode_free (&l);
}

/* load b (len bytes) as the given kind: the status, outputs empty on refusal */
static int
load_any (const uint8_t *b, size_t len, int mech)
{
  int st;
  if (mech)
    {
      vm_mech m;
      vm_mech_text t;
      st = vm_mech_load (b, len, &m, &t);
      if (st != VM_OK)
        {
          CHECK (m.g == NULL && m.F == NULL && t.store == NULL && t.ptr == NULL, "left empty");
          return st;
        }
      vm_mech_free (&m);
      vm_mech_text_free (&t);
    }
  else
    {
      vm_ode o;
      vm_ode_text t;
      st = vm_ode_load (b, len, &o, &t);
      if (st != VM_OK)
        {
          CHECK (o.g == NULL && o.F == NULL && t.store == NULL, "left empty");
          return st;
        }
      vm_ode_free (&o);
      vm_ode_text_free (&t);
    }
  return st;
}

/* every truncation and every single-byte change is refused */
static void
test_damage_everywhere (const uint8_t *blob, size_t len, int mech)
{
  uint8_t *c = malloc (len);
  size_t k, bad = 0;
  for (k = 0; k < len; k++)
    {
      memcpy (c, blob, len);   /* a truncated copy: exactly k bytes */
      if (load_any (c, k, mech) != VM_EARG)
        bad++;
    }
  CHECK (bad == 0, "%lu truncations accepted", (unsigned long) bad);
  for (k = 0, bad = 0; k < len; k++)
    {
      memcpy (c, blob, len);
      c[k] ^= 0x5a;
      if (load_any (c, len, mech) != VM_EARG)
        bad++;
    }
  CHECK (bad == 0, "%lu changed bytes accepted", (unsigned long) bad);
  /* changes with the checksum repaired: never a crash; refused or a valid model */
  for (k = HEADER; k < len; k++)
    {
      int st;
      memcpy (c, blob, len);
      c[k] ^= 0xff;
      reseal (c, len);
      st = load_any (c, len, mech);
      if (st != VM_OK && st != VM_EARG)
        bad++;
    }
  CHECK (bad == 0, "%lu resealed changes gave another status", (unsigned long) bad);
  CHECK (load_any (blob, len, ! mech) == VM_EARG, "a blob of the other kind is refused");
  CHECK (load_any (NULL, 0, mech) == VM_EARG, "no blob");
  free (c);
}

/* The offset of the graph's node count in a blob: after the counts and the texts. */
static size_t
graph_at (const uint8_t *b, size_t ntext)
{
  size_t at = HEADER + 5 * 4, k;
  for (k = 0; k < ntext; k++)
    {
      uint32_t ln;
      memcpy (&ln, b + at, 4);
      at += 4 + ln;
    }
  return at;   /* i32 nvar, then i32 nnodes */
}

/* one structural rule broken at a time (the ODE blob: its graph is small and known) */
static void
test_structural (const uint8_t *blob, size_t len)
{
  uint8_t *c = malloc (len + 64);
  size_t g = graph_at (blob, 4 + 1 + 2 + 1), first, k;
  int32_t nn, v;
  uint8_t op;
  memcpy (&nn, blob + g + 4, 4);
  first = g + 8;   /* the first node */
  CHECK (nn > 4, "the ode graph has nodes (%d)", (int) nn);
  /* walk to the first unary or binary node, remembering the layout */
  {
    size_t at = first, nodeat[4096];
    int32_t i, kbin = -1, kvar = -1;
    for (i = 0; i < nn && i < 4096; i++)
      {
        nodeat[i] = at;
        op = blob[at];
        if (op == VM_OP_CONST)
          at += 9;
        else if (op == VM_OP_VAR)
          {
            if (kvar < 0)
              kvar = i;
            at += 5;
          }
        else
          {
            if (kbin < 0 && vm_op_arity (op) == 2)
              kbin = i;
            at += 1 + 4 * (size_t) vm_op_arity (op);
          }
      }
    CHECK (kbin > 0 && kvar >= 0, "found a binary node and a variable");
    /* an invalid operation code, and a tape-only one */
    memcpy (c, blob, len);
    c[nodeat[kbin]] = 200;
    reseal (c, len);
    CHECK (load_any (c, len, 0) == VM_EARG, "op 200");
    memcpy (c, blob, len);
    c[nodeat[kbin]] = VM_OP_POWI;
    reseal (c, len);
    CHECK (load_any (c, len, 0) == VM_EARG, "op powi");
    /* a child that is not before the node: itself, and a later one */
    memcpy (c, blob, len);
    v = kbin;
    memcpy (c + nodeat[kbin] + 1, &v, 4);
    reseal (c, len);
    CHECK (load_any (c, len, 0) == VM_EARG, "a child equal to the node");
    memcpy (c, blob, len);
    v = nn + 7;
    memcpy (c + nodeat[kbin] + 5, &v, 4);
    reseal (c, len);
    CHECK (load_any (c, len, 0) == VM_EARG, "a forward child");
    memcpy (c, blob, len);
    v = -1;
    memcpy (c + nodeat[kbin] + 5, &v, 4);
    reseal (c, len);
    CHECK (load_any (c, len, 0) == VM_EARG, "a negative child");
    /* a variable outside the layout */
    memcpy (c, blob, len);
    v = 1000;
    memcpy (c + nodeat[kvar] + 1, &v, 4);
    reseal (c, len);
    CHECK (load_any (c, len, 0) == VM_EARG, "a variable out of range");
    /* a node stored twice: the binary node made a copy of the node before it */
    if (kbin >= 1 && blob[nodeat[kbin - 1]] == VM_OP_VAR)
      {
        memcpy (c, blob, len);
        memcpy (c + nodeat[kbin], blob + nodeat[kbin - 1], 5);
        /* the rest shifts: keep the length by padding the node's second operand into nothing */
        memmove (c + nodeat[kbin] + 5, blob + nodeat[kbin] + 9, len - nodeat[kbin] - 9);
        reseal (c, len - 4);
        memcpy (c + 24, &(uint64_t) { (uint64_t) (len - 4) }, 8);
        reseal (c, len - 4);
        CHECK (load_any (c, len - 4, 0) == VM_EARG, "a node stored twice");
      }
    /* a root outside the graph: the last i32 is G[0] */
    memcpy (c, blob, len);
    v = nn;
    memcpy (c + len - 4, &v, 4);
    reseal (c, len);
    CHECK (load_any (c, len, 0) == VM_EARG, "a root out of range");
  }
  /* a node count larger than the bytes left */
  memcpy (c, blob, len);
  v = 100000000;
  memcpy (c + g + 4, &v, 4);
  reseal (c, len);
  CHECK (load_any (c, len, 0) == VM_EARG, "a node count beyond the blob");
  /* a wrong nvar */
  memcpy (c, blob, len);
  memcpy (&v, blob + g, 4);
  v++;
  memcpy (c + g, &v, 4);
  reseal (c, len);
  CHECK (load_any (c, len, 0) == VM_EARG, "nvar of another layout");
  /* counts: more states than the blob holds, a negative count, nd > ny */
  memcpy (c, blob, len);
  v = 99999;
  memcpy (c + HEADER, &v, 4);
  reseal (c, len);
  CHECK (load_any (c, len, 0) == VM_EARG, "a state count beyond the blob");
  memcpy (c, blob, len);
  v = -1;
  memcpy (c + HEADER + 4, &v, 4);
  reseal (c, len);
  CHECK (load_any (c, len, 0) == VM_EARG, "a negative count");
  memcpy (c, blob, len);
  v = 5;
  memcpy (c + HEADER + 8, &v, 4);
  reseal (c, len);
  CHECK (load_any (c, len, 0) == VM_EARG, "more right-hand sides than states");
  /* a text with a NUL byte (the first state's name "x") */
  memcpy (c, blob, len);
  c[HEADER + 20 + 4] = 0;
  reseal (c, len);
  CHECK (load_any (c, len, 0) == VM_EARG, "a NUL byte in a text");
  /* a text longer than the blob */
  memcpy (c, blob, len);
  v = (int32_t) len;
  memcpy (c + HEADER + 20, &v, 4);
  reseal (c, len);
  CHECK (load_any (c, len, 0) == VM_EARG, "a text beyond the blob");
  /* trailing bytes */
  memcpy (c, blob, len);
  memset (c + len, 0, 8);
  {
    uint64_t tl = (uint64_t) (len + 8);
    memcpy (c + 24, &tl, 8);
  }
  reseal (c, len + 8);
  CHECK (load_any (c, len + 8, 0) == VM_EARG, "trailing bytes");
  /* the header: version, byte order, length */
  for (k = 8; k < 32; k++)
    {
      memcpy (c, blob, len);
      c[k] ^= 1;
      CHECK (load_any (c, len, 0) == VM_EARG, "header byte %lu", (unsigned long) k);
    }
  free (c);
  (void) first;
}

int
main (void)
{
  uint8_t *mb = NULL, *ob = NULL;
  size_t ml = 0, ol = 0;
  test_mech_round_trip (&mb, &ml);
  test_ode_round_trip (&ob, &ol);
  if (mb)
    test_damage_everywhere (mb, ml, 1);
  if (ob)
    {
      test_damage_everywhere (ob, ol, 0);
      test_structural (ob, ol);
    }
  free (mb);
  free (ob);
  return vmtest_finish ("test_model_serial");
}
