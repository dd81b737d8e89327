/* expr.c -- expression graph, simplification, differentiation, parser and tapes (see expr.h). */
#include "expr.h"
#include "vm_status.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VM_PI 3.14159265358979323846

/* ================================================================================================
 * Graph
 * ============================================================================================== */

struct vm_graph {
  int nvar;
  vm_node *nodes;
  size_t n, cap;
  int32_t *htab;              /* open addressing, -1 = empty */
  size_t hcap;                /* power of two */
  int status;
  int32_t **dmemo;            /* dmemo[v][id]: derivative of node id wrt v, -1 unknown */
  size_t *dlen;
  int32_t *stack;             /* scratch stack for the iterative algorithms */
  size_t scap;
};

static const struct { const char *name; int arity; } op_info[VM_OP_COUNT] = {
  { "const", 0 }, { "var", 0 },
  { "-", 1 }, { "+", 2 }, { "-", 2 }, { "*", 2 }, { "/", 2 }, { "^", 2 },
  { "sin", 1 }, { "cos", 1 }, { "tan", 1 }, { "exp", 1 }, { "log", 1 }, { "sqrt", 1 },
  { "abs", 1 }, { "sinh", 1 }, { "cosh", 1 }, { "tanh", 1 }, { "asin", 1 }, { "acos", 1 },
  { "atan", 1 }, { "sign", 1 }, { "atan2", 2 }, { "min", 2 }, { "max", 2 },
  { "powi", -1 }, { "store", -1 }
};

int
vm_op_arity (int op)
{
  if (op < 0 || op >= VM_OP_COUNT)
    return -1;
  return op_info[op].arity;
}

const char *
vm_op_name (int op)
{
  if (op < 0 || op >= VM_OP_COUNT)
    return "?";
  return op_info[op].name;
}

static double
sgn (double x)
{
  if (x > 0)
    return 1.0;
  if (x < 0)
    return -1.0;
  return x == 0 ? 0.0 : x;   /* NaN stays NaN */
}

/* The value of one operation (shared by folding, the reference evaluator and the tape). */
static double
apply_op (int op, double x, double y)
{
  switch (op)
    {
    case VM_OP_NEG: return -x;
    case VM_OP_ADD: return x + y;
    case VM_OP_SUB: return x - y;
    case VM_OP_MUL: return x * y;
    case VM_OP_DIV: return x / y;
    case VM_OP_POW: return pow (x, y);
    case VM_OP_SIN: return sin (x);
    case VM_OP_COS: return cos (x);
    case VM_OP_TAN: return tan (x);
    case VM_OP_EXP: return exp (x);
    case VM_OP_LOG: return log (x);
    case VM_OP_SQRT: return sqrt (x);
    case VM_OP_ABS: return fabs (x);
    case VM_OP_SINH: return sinh (x);
    case VM_OP_COSH: return cosh (x);
    case VM_OP_TANH: return tanh (x);
    case VM_OP_ASIN: return asin (x);
    case VM_OP_ACOS: return acos (x);
    case VM_OP_ATAN: return atan (x);
    case VM_OP_SIGN: return sgn (x);
    case VM_OP_ATAN2: return atan2 (x, y);
    case VM_OP_MIN: return fmin (x, y);
    case VM_OP_MAX: return fmax (x, y);
    default: return NAN;
    }
}

vm_graph *
vm_graph_new (int nvar)
{
  vm_graph *g;
  size_t k;
  if (nvar < 0 || nvar > 1000000)
    return NULL;
  g = calloc (1, sizeof *g);
  if (! g)
    return NULL;
  g->nvar = nvar;
  g->cap = 256;
  g->hcap = 512;
  g->nodes = malloc (g->cap * sizeof *g->nodes);
  g->htab = malloc (g->hcap * sizeof *g->htab);
  g->dmemo = nvar > 0 ? calloc ((size_t) nvar, sizeof *g->dmemo) : NULL;
  g->dlen = nvar > 0 ? calloc ((size_t) nvar, sizeof *g->dlen) : NULL;
  if (! g->nodes || ! g->htab || (nvar > 0 && (! g->dmemo || ! g->dlen)))
    {
      vm_graph_free (g);
      return NULL;
    }
  for (k = 0; k < g->hcap; k++)
    g->htab[k] = -1;
  return g;
}

void
vm_graph_free (vm_graph *g)
{
  int v;
  if (! g)
    return;
  if (g->dmemo)
    for (v = 0; v < g->nvar; v++)
      free (g->dmemo[v]);
  free (g->dmemo);
  free (g->dlen);
  free (g->nodes);
  free (g->htab);
  free (g->stack);
  free (g);
}

int vm_graph_nvar (const vm_graph *g) { return g->nvar; }
size_t vm_graph_size (const vm_graph *g) { return g->n; }
int vm_graph_status (const vm_graph *g) { return g->status; }

const vm_node *
vm_graph_node (const vm_graph *g, int32_t id)
{
  if (id < 0 || (size_t) id >= g->n)
    return NULL;
  return &g->nodes[id];
}

static uint64_t
node_hash (int op, int32_t a, int32_t b, double c)
{
  uint64_t h = 1469598103934665603ULL, bits;
  memcpy (&bits, &c, sizeof bits);
  h = (h ^ (uint64_t) (uint32_t) op) * 1099511628211ULL;
  h = (h ^ (uint64_t) (uint32_t) a) * 1099511628211ULL;
  h = (h ^ (uint64_t) (uint32_t) b) * 1099511628211ULL;
  h = (h ^ bits) * 1099511628211ULL;
  return h ^ (h >> 29);
}

static int
node_eq (const vm_node *n, int op, int32_t a, int32_t b, double c)
{
  return n->op == op && n->a == a && n->b == b && memcmp (&n->c, &c, sizeof c) == 0;
}

static int
grow_hash (vm_graph *g)
{
  size_t ncap = g->hcap * 2, k;
  int32_t *nt = malloc (ncap * sizeof *nt);
  if (! nt)
    return 0;
  for (k = 0; k < ncap; k++)
    nt[k] = -1;
  for (k = 0; k < g->n; k++)
    {
      const vm_node *nd = &g->nodes[k];
      size_t h = (size_t) node_hash (nd->op, nd->a, nd->b, nd->c) & (ncap - 1);
      while (nt[h] >= 0)
        h = (h + 1) & (ncap - 1);
      nt[h] = (int32_t) k;
    }
  free (g->htab);
  g->htab = nt;
  g->hcap = ncap;
  return 1;
}

/* The hash-consing constructor: returns the existing node or appends a new one. */
static int32_t
mk (vm_graph *g, int op, int32_t a, int32_t b, double c)
{
  size_t h;
  if (g->status != VM_OK)
    return -1;
  if (op == VM_OP_CONST && c == 0)
    c = 0.0;   /* one zero: -0.0 and +0.0 share a node */
  h = (size_t) node_hash (op, a, b, c) & (g->hcap - 1);
  while (g->htab[h] >= 0)
    {
      if (node_eq (&g->nodes[g->htab[h]], op, a, b, c))
        return g->htab[h];
      h = (h + 1) & (g->hcap - 1);
    }
  if (g->n >= VM_EXPR_MAX_NODES)
    {
      g->status = VM_ENOMEM;
      return -1;
    }
  if (g->n == g->cap)
    {
      size_t ncap = g->cap * 2;
      vm_node *nn = realloc (g->nodes, ncap * sizeof *nn);
      if (! nn)
        {
          g->status = VM_ENOMEM;
          return -1;
        }
      g->nodes = nn;
      g->cap = ncap;
    }
  g->nodes[g->n].op = op;
  g->nodes[g->n].a = a;
  g->nodes[g->n].b = b;
  g->nodes[g->n].c = c;
  g->htab[h] = (int32_t) g->n;
  g->n++;
  if (2 * g->n > g->hcap && ! grow_hash (g))
    {
      g->status = VM_ENOMEM;
      return -1;
    }
  return (int32_t) (g->n - 1);
}

int32_t
vm_const (vm_graph *g, double c)
{
  return mk (g, VM_OP_CONST, 0, 0, c);
}

int32_t
vm_var (vm_graph *g, int v)
{
  if (v < 0 || v >= g->nvar)
    {
      g->status = VM_EARG;
      return -1;
    }
  return mk (g, VM_OP_VAR, v, 0, 0.0);
}

#define OPOF(id) (g->nodes[id].op)
#define ISC(id) (g->nodes[id].op == VM_OP_CONST)
#define CV(id) (g->nodes[id].c)
#define ISCV(id, v) (ISC (id) && CV (id) == (v))

static int
is_int (double c)
{
  return c == floor (c) && fabs (c) <= 1048576.0;
}

/* Constant folding: only when the result is finite, so 1/0 or log(0) stay symbolic. */
static int32_t
fold (vm_graph *g, int op, int32_t a, int32_t b)
{
  double r = apply_op (op, CV (a), b >= 0 ? CV (b) : 0.0);
  if (! isfinite (r))
    return -2;
  return vm_const (g, r);
}

/* Commutative operations: constants first, then by node id. */
static void
order2 (const vm_graph *g, int32_t *a, int32_t *b)
{
  int ca = ISC (*a), cb = ISC (*b);
  if ((cb && ! ca) || (ca == cb && *b < *a))
    {
      int32_t t = *a;
      *a = *b;
      *b = t;
    }
}

static int32_t simp_binary (vm_graph *g, int op, int32_t a, int32_t b);

static int32_t
simp_unary (vm_graph *g, int op, int32_t a)
{
  int32_t r;
  if (ISC (a) && (r = fold (g, op, a, -1)) != -2)
    return r;
  switch (op)
    {
    case VM_OP_NEG:
      if (OPOF (a) == VM_OP_NEG)
        return g->nodes[a].a;
      if (OPOF (a) == VM_OP_SUB)
        return simp_binary (g, VM_OP_SUB, g->nodes[a].b, g->nodes[a].a);
      break;
    case VM_OP_ABS:
      if (OPOF (a) == VM_OP_NEG || OPOF (a) == VM_OP_ABS)
        return simp_unary (g, VM_OP_ABS, g->nodes[a].a);
      break;
    case VM_OP_COS:
    case VM_OP_COSH:
      if (OPOF (a) == VM_OP_NEG)
        return simp_unary (g, op, g->nodes[a].a);
      break;
    case VM_OP_SIN:
    case VM_OP_TAN:
    case VM_OP_SINH:
    case VM_OP_TANH:
    case VM_OP_ASIN:
    case VM_OP_ATAN:
    case VM_OP_SIGN:
      if (OPOF (a) == VM_OP_NEG)
        return simp_unary (g, VM_OP_NEG, simp_unary (g, op, g->nodes[a].a));
      break;
    default:
      break;
    }
  return mk (g, op, a, -1, 0.0);
}

static int32_t
simp_binary (vm_graph *g, int op, int32_t a, int32_t b)
{
  int32_t r;
  if (a < 0 || b < 0)
    return -1;
  if (ISC (a) && ISC (b) && (r = fold (g, op, a, b)) != -2)
    return r;
  switch (op)
    {
    case VM_OP_ADD:
      if (ISCV (a, 0))
        return b;
      if (ISCV (b, 0))
        return a;
      if (a == b)
        return simp_binary (g, VM_OP_MUL, vm_const (g, 2.0), a);
      if (OPOF (b) == VM_OP_NEG)
        return simp_binary (g, VM_OP_SUB, a, g->nodes[b].a);
      if (OPOF (a) == VM_OP_NEG)
        return simp_binary (g, VM_OP_SUB, b, g->nodes[a].a);
      order2 (g, &a, &b);
      if (ISC (a) && OPOF (b) == VM_OP_ADD && ISC (g->nodes[b].a)
          && isfinite (CV (a) + CV (g->nodes[b].a)))
        return simp_binary (g, VM_OP_ADD, vm_const (g, CV (a) + CV (g->nodes[b].a)),
                            g->nodes[b].b);
      break;
    case VM_OP_SUB:
      if (ISCV (b, 0))
        return a;
      if (ISCV (a, 0))
        return simp_unary (g, VM_OP_NEG, b);
      if (a == b)
        return vm_const (g, 0.0);
      if (OPOF (b) == VM_OP_NEG)
        return simp_binary (g, VM_OP_ADD, a, g->nodes[b].a);
      if (ISC (b))
        return simp_binary (g, VM_OP_ADD, vm_const (g, -CV (b)), a);
      break;
    case VM_OP_MUL:
      if (ISCV (a, 0) || ISCV (b, 0))
        return vm_const (g, 0.0);
      if (ISCV (a, 1))
        return b;
      if (ISCV (b, 1))
        return a;
      if (ISCV (a, -1))
        return simp_unary (g, VM_OP_NEG, b);
      if (ISCV (b, -1))
        return simp_unary (g, VM_OP_NEG, a);
      if (OPOF (a) == VM_OP_NEG)
        return simp_unary (g, VM_OP_NEG, simp_binary (g, VM_OP_MUL, g->nodes[a].a, b));
      if (OPOF (b) == VM_OP_NEG)
        return simp_unary (g, VM_OP_NEG, simp_binary (g, VM_OP_MUL, a, g->nodes[b].a));
      if (a == b)
        return simp_binary (g, VM_OP_POW, a, vm_const (g, 2.0));
      /* x^m * x^k -> x^(m+k) for integer exponents */
      {
        int32_t xa = a, xb = b;
        double ea = 1, eb = 1;
        if (OPOF (a) == VM_OP_POW && ISC (g->nodes[a].b) && is_int (CV (g->nodes[a].b)))
          {
            xa = g->nodes[a].a;
            ea = CV (g->nodes[a].b);
          }
        if (OPOF (b) == VM_OP_POW && ISC (g->nodes[b].b) && is_int (CV (g->nodes[b].b)))
          {
            xb = g->nodes[b].a;
            eb = CV (g->nodes[b].b);
          }
        if (xa == xb && (xa != a || xb != b))
          return simp_binary (g, VM_OP_POW, xa, vm_const (g, ea + eb));
      }
      order2 (g, &a, &b);
      if (ISC (a) && OPOF (b) == VM_OP_MUL && ISC (g->nodes[b].a)
          && isfinite (CV (a) * CV (g->nodes[b].a)))
        return simp_binary (g, VM_OP_MUL, vm_const (g, CV (a) * CV (g->nodes[b].a)),
                            g->nodes[b].b);
      break;
    case VM_OP_DIV:
      if (ISCV (b, 1))
        return a;
      if (ISCV (b, -1))
        return simp_unary (g, VM_OP_NEG, a);
      if (ISCV (a, 0) && ! ISCV (b, 0))   /* 0/x -> 0, but 0/0 stays (NaN) */
        return vm_const (g, 0.0);
      if (a == b && ! ISCV (b, 0))
        return vm_const (g, 1.0);
      if (OPOF (a) == VM_OP_NEG)
        return simp_unary (g, VM_OP_NEG, simp_binary (g, VM_OP_DIV, g->nodes[a].a, b));
      if (OPOF (b) == VM_OP_NEG)
        return simp_unary (g, VM_OP_NEG, simp_binary (g, VM_OP_DIV, a, g->nodes[b].a));
      break;
    case VM_OP_POW:
      if (ISC (b))
        {
          double c = CV (b);
          if (c == 0)
            return vm_const (g, 1.0);
          if (c == 1)
            return a;
          if (c == 0.5)
            return simp_unary (g, VM_OP_SQRT, a);
          if (is_int (c) && OPOF (a) == VM_OP_POW && ISC (g->nodes[a].b)
              && isfinite (c * CV (g->nodes[a].b)))
            return simp_binary (g, VM_OP_POW, g->nodes[a].a, vm_const (g, c * CV (g->nodes[a].b)));
          if (is_int (c) && OPOF (a) == VM_OP_NEG)
            {
              r = simp_binary (g, VM_OP_POW, g->nodes[a].a, b);
              return fmod (c, 2.0) == 0 ? r : simp_unary (g, VM_OP_NEG, r);
            }
        }
      if (ISCV (a, 1))
        return vm_const (g, 1.0);
      break;
    case VM_OP_MIN:
    case VM_OP_MAX:
      if (a == b)
        return a;
      order2 (g, &a, &b);
      break;
    default:
      break;
    }
  return mk (g, op, a, b, 0.0);
}

int32_t
vm_unary (vm_graph *g, int op, int32_t a)
{
  if (a < 0 || (size_t) a >= g->n || g->status != VM_OK)
    return -1;
  if (vm_op_arity (op) != 1)
    {
      g->status = VM_EARG;
      return -1;
    }
  return simp_unary (g, op, a);
}

int32_t
vm_binary (vm_graph *g, int op, int32_t a, int32_t b)
{
  if (a < 0 || b < 0 || (size_t) a >= g->n || (size_t) b >= g->n || g->status != VM_OK)
    return -1;
  if (vm_op_arity (op) != 2)
    {
      g->status = VM_EARG;
      return -1;
    }
  return simp_binary (g, op, a, b);
}

/* ---- scratch stack ---------------------------------------------------------------------------- */

static int
push (vm_graph *g, size_t *sp, int32_t x)
{
  if (*sp == g->scap)
    {
      size_t ncap = g->scap ? 2 * g->scap : 256;
      int32_t *ns = realloc (g->stack, ncap * sizeof *ns);
      if (! ns)
        {
          g->status = VM_ENOMEM;
          return 0;
        }
      g->stack = ns;
      g->scap = ncap;
    }
  g->stack[(*sp)++] = x;
  return 1;
}

/* ---- differentiation -------------------------------------------------------------------------- */

static int
memo_fit (vm_graph *g, int v)
{
  if (g->dlen[v] < g->n)
    {
      size_t nl = g->cap, k;
      int32_t *nm = realloc (g->dmemo[v], nl * sizeof *nm);
      if (! nm)
        {
          g->status = VM_ENOMEM;
          return 0;
        }
      for (k = g->dlen[v]; k < nl; k++)
        nm[k] = -1;
      g->dmemo[v] = nm;
      g->dlen[v] = nl;
    }
  return 1;
}

#define U(op, x) simp_unary (g, op, x)
#define B(op, x, y) simp_binary (g, op, x, y)
#define K(c) vm_const (g, c)

/* The derivative rule of node x given the derivatives da, db of its children. */
static int32_t
diff_rule (vm_graph *g, int32_t x, int32_t da, int32_t db)
{
  const vm_node nd = g->nodes[x];
  int32_t a = nd.a, b = nd.b, zero = K (0.0), half;
  int dz = (da == zero);
  if (da < 0 || (vm_op_arity (nd.op) == 2 && db < 0) || zero < 0)
    return -1;
  if (vm_op_arity (nd.op) == 1 && dz)
    return zero;
  switch (nd.op)
    {
    case VM_OP_NEG: return U (VM_OP_NEG, da);
    case VM_OP_ADD: return B (VM_OP_ADD, da, db);
    case VM_OP_SUB: return B (VM_OP_SUB, da, db);
    case VM_OP_MUL: return B (VM_OP_ADD, B (VM_OP_MUL, da, b), B (VM_OP_MUL, a, db));
    case VM_OP_DIV: /* (da - x db) / b */
      return B (VM_OP_DIV, B (VM_OP_SUB, da, B (VM_OP_MUL, x, db)), b);
    case VM_OP_POW:
      if (db == zero)   /* b does not depend on v: b a^(b-1) da */
        {
          int32_t bm1 = B (VM_OP_SUB, b, K (1.0));   /* folds for a constant b */
          if (dz)
            return zero;
          return B (VM_OP_MUL, B (VM_OP_MUL, b, B (VM_OP_POW, a, bm1)), da);
        }
      /* x (db log a + b da / a) */
      return B (VM_OP_MUL, x, B (VM_OP_ADD, B (VM_OP_MUL, db, U (VM_OP_LOG, a)),
                                 B (VM_OP_DIV, B (VM_OP_MUL, b, da), a)));
    case VM_OP_SIN: return B (VM_OP_MUL, U (VM_OP_COS, a), da);
    case VM_OP_COS: return U (VM_OP_NEG, B (VM_OP_MUL, U (VM_OP_SIN, a), da));
    case VM_OP_TAN: return B (VM_OP_MUL, B (VM_OP_ADD, K (1.0), B (VM_OP_POW, x, K (2.0))), da);
    case VM_OP_EXP: return B (VM_OP_MUL, x, da);
    case VM_OP_LOG: return B (VM_OP_DIV, da, a);
    case VM_OP_SQRT: return B (VM_OP_DIV, da, B (VM_OP_MUL, K (2.0), x));
    case VM_OP_ABS: return B (VM_OP_MUL, U (VM_OP_SIGN, a), da);
    case VM_OP_SINH: return B (VM_OP_MUL, U (VM_OP_COSH, a), da);
    case VM_OP_COSH: return B (VM_OP_MUL, U (VM_OP_SINH, a), da);
    case VM_OP_TANH: return B (VM_OP_MUL, B (VM_OP_SUB, K (1.0), B (VM_OP_POW, x, K (2.0))), da);
    case VM_OP_ASIN:
      return B (VM_OP_DIV, da, U (VM_OP_SQRT, B (VM_OP_SUB, K (1.0), B (VM_OP_POW, a, K (2.0)))));
    case VM_OP_ACOS:
      return U (VM_OP_NEG, B (VM_OP_DIV, da, U (VM_OP_SQRT, B (VM_OP_SUB, K (1.0),
                                                              B (VM_OP_POW, a, K (2.0))))));
    case VM_OP_ATAN: return B (VM_OP_DIV, da, B (VM_OP_ADD, K (1.0), B (VM_OP_POW, a, K (2.0))));
    case VM_OP_SIGN: return zero;
    case VM_OP_ATAN2: /* atan2(a, b): (b da - a db) / (a^2 + b^2) */
      return B (VM_OP_DIV, B (VM_OP_SUB, B (VM_OP_MUL, b, da), B (VM_OP_MUL, a, db)),
                B (VM_OP_ADD, B (VM_OP_POW, a, K (2.0)), B (VM_OP_POW, b, K (2.0))));
    case VM_OP_MIN:
    case VM_OP_MAX:
      /* weights H(b - a), H(a - b) with H(s) = (1 + sign s)/2: the two weights are 1/2 at a = b */
      half = K (0.5);
      {
        int32_t wa, wb, s = U (VM_OP_SIGN, B (VM_OP_SUB, b, a));
        if (nd.op == VM_OP_MAX)
          s = U (VM_OP_NEG, s);
        wa = B (VM_OP_MUL, half, B (VM_OP_ADD, K (1.0), s));
        wb = B (VM_OP_MUL, half, B (VM_OP_SUB, K (1.0), s));
        return B (VM_OP_ADD, B (VM_OP_MUL, wa, da), B (VM_OP_MUL, wb, db));
      }
    default:
      g->status = VM_EARG;
      return -1;
    }
}

int32_t
vm_diff (vm_graph *g, int32_t node, int v)
{
  size_t sp = 0;
  if (node < 0 || (size_t) node >= g->n || v < 0 || v >= g->nvar || g->status != VM_OK)
    return -1;
  if (! memo_fit (g, v) || ! push (g, &sp, node))
    return -1;
  while (sp > 0)
    {
      int32_t x = g->stack[sp - 1], r, da = -1, db = -1;
      vm_node nd;
      int ar;
      if (g->dmemo[v][x] >= 0)
        {
          sp--;
          continue;
        }
      nd = g->nodes[x];
      ar = vm_op_arity (nd.op);
      if (ar == 0)
        r = (nd.op == VM_OP_VAR && nd.a == v) ? K (1.0) : K (0.0);
      else
        {
          int need = 0;
          da = g->dmemo[v][nd.a];
          if (da < 0)
            need = push (g, &sp, nd.a) ? 1 : -1;
          if (ar == 2)
            {
              db = g->dmemo[v][nd.b];
              if (db < 0 && need >= 0)
                need = push (g, &sp, nd.b) ? 1 : -1;
            }
          if (need < 0)
            return -1;
          if (need)
            continue;
          r = diff_rule (g, x, da, db);
        }
      if (r < 0 || ! memo_fit (g, v))
        return -1;
      g->dmemo[v][x] = r;
      sp--;
    }
  return g->dmemo[v][node];
}

int32_t
vm_subst (vm_graph *g, int32_t node, const int32_t *map)
{
  size_t n0, sp = 0;
  int32_t *memo, r;
  if (node < 0 || (size_t) node >= g->n || g->status != VM_OK)
    return -1;
  n0 = (size_t) node + 1;
  memo = malloc (n0 * sizeof *memo);
  if (! memo)
    {
      g->status = VM_ENOMEM;
      return -1;
    }
  memset (memo, 0xff, n0 * sizeof *memo);   /* all -1 */
  if (! push (g, &sp, node))
    {
      free (memo);
      return -1;
    }
  while (sp > 0)
    {
      int32_t x = g->stack[sp - 1];
      vm_node nd;
      int ar, need = 0;
      if (memo[x] >= 0)
        {
          sp--;
          continue;
        }
      nd = g->nodes[x];
      ar = vm_op_arity (nd.op);
      if (ar == 0)
        {
          if (nd.op == VM_OP_VAR && map[nd.a] >= 0 && (size_t) map[nd.a] < g->n)
            r = map[nd.a];
          else
            r = x;
        }
      else
        {
          if (memo[nd.a] < 0)
            need = push (g, &sp, nd.a) ? 1 : -1;
          if (ar == 2 && memo[nd.b] < 0 && need >= 0)
            need = push (g, &sp, nd.b) ? 1 : -1;
          if (need < 0)
            {
              free (memo);
              return -1;
            }
          if (need)
            continue;
          r = ar == 1 ? simp_unary (g, nd.op, memo[nd.a])
                      : simp_binary (g, nd.op, memo[nd.a], memo[nd.b]);
        }
      if (r < 0)
        {
          free (memo);
          return -1;
        }
      memo[x] = r;
      sp--;
    }
  r = memo[node];
  free (memo);
  return r;
}

int
vm_depends (vm_graph *g, int32_t node, int v)
{
  int32_t d = vm_diff (g, node, v);
  /* a derivative that simplifies to the constant 0 means no (structural) dependence */
  return d >= 0 && ! ISCV (d, 0);
}

double
vm_graph_eval1 (const vm_graph *g, int32_t node, const double *x)
{
  double *val, r;
  int32_t k;
  if (node < 0 || (size_t) node >= g->n)
    return NAN;
  val = malloc (((size_t) node + 1) * sizeof *val);
  if (! val)
    return NAN;
  for (k = 0; k <= node; k++)
    {
      const vm_node *nd = &g->nodes[k];
      switch (vm_op_arity (nd->op))
        {
        case 0:
          val[k] = nd->op == VM_OP_CONST ? nd->c : x[nd->a];
          break;
        case 1:
          val[k] = apply_op (nd->op, val[nd->a], 0.0);
          break;
        default:
          val[k] = apply_op (nd->op, val[nd->a], val[nd->b]);
        }
    }
  r = val[node];
  free (val);
  return r;
}

/* ================================================================================================
 * Symbol table and parser
 * ============================================================================================== */

#define VM_NAME_MAX 63

typedef struct {
  char name[VM_NAME_MAX + 1];
  char kind[24];
  int var, dotvar;
} vm_sym;

struct vm_symtab {
  vm_sym *e;
  int n, cap;
  const char *dot_reason;
  char forbid_kind[2][24];
  const char *forbid_reason[2];
};

static const struct { const char *name; int op; } funcs[] = {
  { "sin", VM_OP_SIN }, { "cos", VM_OP_COS }, { "tan", VM_OP_TAN }, { "exp", VM_OP_EXP },
  { "log", VM_OP_LOG }, { "sqrt", VM_OP_SQRT }, { "abs", VM_OP_ABS }, { "sinh", VM_OP_SINH },
  { "cosh", VM_OP_COSH }, { "tanh", VM_OP_TANH }, { "asin", VM_OP_ASIN }, { "acos", VM_OP_ACOS },
  { "atan", VM_OP_ATAN }, { "atan2", VM_OP_ATAN2 }, { "sign", VM_OP_SIGN }, { "min", VM_OP_MIN },
  { "max", VM_OP_MAX }
};
#define NFUNCS ((int) (sizeof funcs / sizeof funcs[0]))
#define FUNC_LIST "sin cos tan exp log sqrt abs sinh cosh tanh asin acos atan atan2 sign min max"

static int
func_lookup (const char *name)
{
  int k;
  for (k = 0; k < NFUNCS; k++)
    if (strcmp (funcs[k].name, name) == 0)
      return funcs[k].op;
  return -1;
}

int
vm_name_reserved (const char *name)
{
  return func_lookup (name) >= 0 || strcmp (name, "dot") == 0 || strcmp (name, "pi") == 0
         || strcmp (name, "t") == 0;
}

int
vm_name_valid (const char *name)
{
  size_t k;
  if (! name || ! isalpha ((unsigned char) name[0]))
    return 0;
  for (k = 1; name[k]; k++)
    if (! isalnum ((unsigned char) name[k]) && name[k] != '_')
      return 0;
  return k <= VM_NAME_MAX;
}

vm_symtab *
vm_symtab_new (void)
{
  return calloc (1, sizeof (vm_symtab));
}

void
vm_symtab_free (vm_symtab *s)
{
  if (! s)
    return;
  free (s->e);
  free (s);
}

static const vm_sym *
sym_find (const vm_symtab *s, const char *name)
{
  int k;
  for (k = 0; k < s->n; k++)
    if (strcmp (s->e[k].name, name) == 0)
      return &s->e[k];
  return NULL;
}

int
vm_symtab_add (vm_symtab *s, const char *name, const char *kind, int var, int dotvar)
{
  vm_sym *e;
  if (! s || ! name || strlen (name) > VM_NAME_MAX || ! kind || var < 0)
    return VM_EARG;
  if (sym_find (s, name))
    return VM_EARG;
  if (s->n == s->cap)
    {
      int ncap = s->cap ? 2 * s->cap : 16;
      vm_sym *ne = realloc (s->e, (size_t) ncap * sizeof *ne);
      if (! ne)
        return VM_ENOMEM;
      s->e = ne;
      s->cap = ncap;
    }
  e = &s->e[s->n++];
  strcpy (e->name, name);
  strncpy (e->kind, kind, sizeof e->kind - 1);
  e->kind[sizeof e->kind - 1] = '\0';
  e->var = var;
  e->dotvar = dotvar;
  return VM_OK;
}

void
vm_symtab_forbid_dot (vm_symtab *s, const char *reason)
{
  s->dot_reason = reason;
}

void
vm_symtab_forbid_kind (vm_symtab *s, const char *kind, const char *reason)
{
  int k, empty = -1;
  if (! s || ! kind)
    return;
  for (k = 0; k < 2; k++)
    {
      if (s->forbid_reason[k] && strcmp (s->forbid_kind[k], kind) == 0)
        {
          s->forbid_reason[k] = reason;   /* update, or clear with NULL */
          return;
        }
      if (! s->forbid_reason[k] && empty < 0)
        empty = k;
    }
  if (! reason || empty < 0)
    return;
  strncpy (s->forbid_kind[empty], kind, sizeof s->forbid_kind[empty] - 1);
  s->forbid_kind[empty][sizeof s->forbid_kind[empty] - 1] = '\0';
  s->forbid_reason[empty] = reason;
}

static const char *
kind_forbidden (const vm_symtab *s, const char *kind)
{
  int k;
  for (k = 0; k < 2; k++)
    if (s->forbid_reason[k] && strcmp (s->forbid_kind[k], kind) == 0)
      return s->forbid_reason[k];
  return NULL;
}

/* ---- tokens ---------------------------------------------------------------------------------- */

enum { T_END, T_NUM, T_NAME, T_OP, T_LP, T_RP, T_COMMA, T_BAD };

typedef struct {
  vm_graph *g;
  const vm_symtab *s;
  const char *text, *context;
  size_t pos;          /* start of the current token */
  size_t next;         /* position after it */
  int tok;
  char op;             /* + - * / ^ for T_OP */
  double num;
  char name[VM_NAME_MAX + 1];
  int depth;
  vm_err *err;
  int failed;
} parser;

/* Format the error: "<context>: column C: <message>\n  <text window>\n  <caret>". */
static void
perr (parser *p, size_t col0, const char *fmt, ...)
{
  va_list ap;
  char head[512], win[200], caret[200];
  size_t len = strlen (p->text), w0 = 0, w1 = len, k, m = 0;
  if (p->failed)
    return;
  p->failed = 1;
  va_start (ap, fmt);
  vsnprintf (head, sizeof head, fmt, ap);
  va_end (ap);
  if (col0 > len)
    col0 = len;
  if (len > 120)
    {
      w0 = col0 > 60 ? col0 - 60 : 0;
      w1 = w0 + 120 < len ? w0 + 120 : len;
    }
  for (k = w0; k < w1 && m < sizeof win - 1; k++, m++)
    {
      unsigned char ch = (unsigned char) p->text[k];
      win[m] = (ch >= 32 && ch < 127) ? (char) ch : ' ';
    }
  win[m] = '\0';
  m = 0;
  for (k = w0; k < col0 && m < sizeof caret - 2; k++)
    caret[m++] = ' ';
  caret[m++] = '^';
  caret[m] = '\0';
  p->err->status = VM_EARG;
  p->err->column = (int) col0 + 1;
  snprintf (p->err->msg, sizeof p->err->msg, "%s: column %d: %s\n    %s%s%s\n    %s%s",
            p->context, (int) col0 + 1, head, w0 > 0 ? "..." : "", win, w1 < len ? "..." : "",
            w0 > 0 ? "   " : "", caret);
}

static const char *
tok_desc (parser *p, char *buf, size_t n)
{
  switch (p->tok)
    {
    case T_END: return "the end of the expression";
    case T_NUM: snprintf (buf, n, "the number %.*s", (int) (p->next - p->pos > 40 ? 40 : p->next - p->pos),
                          p->text + p->pos); return buf;
    case T_NAME: snprintf (buf, n, "the name '%s'", p->name); return buf;
    case T_OP: snprintf (buf, n, "'%c'", p->op); return buf;
    case T_LP: return "'('";
    case T_RP: return "')'";
    case T_COMMA: return "','";
    default: return "an invalid character";
    }
}

static void
next_token (parser *p)
{
  const char *t = p->text;
  size_t i = p->next;
  while (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')
    i++;
  p->pos = i;
  if (t[i] == '\0')
    {
      p->tok = T_END;
      p->next = i;
      return;
    }
  if (isdigit ((unsigned char) t[i]) || (t[i] == '.' && isdigit ((unsigned char) t[i + 1])))
    {
      size_t j = i;
      char buf[128];
      char *end;
      while (isdigit ((unsigned char) t[j]))
        j++;
      if (t[j] == '.' && ! (t[j + 1] == '*' || t[j + 1] == '/' || t[j + 1] == '^'))
        {
          j++;
          while (isdigit ((unsigned char) t[j]))
            j++;
        }
      if (t[j] == 'e' || t[j] == 'E')
        {
          size_t k = j + 1;
          if (t[k] == '+' || t[k] == '-')
            k++;
          if (! isdigit ((unsigned char) t[k]))
            {
              p->next = j;
              perr (p, k, "malformed number: the exponent has no digits; expected a number "
                    "such as 1.5e-3");
              p->tok = T_BAD;
              return;
            }
          while (isdigit ((unsigned char) t[k]))
            k++;
          j = k;
        }
      if (isalpha ((unsigned char) t[j]) || t[j] == '_')
        {
          p->next = j;
          perr (p, j, "malformed number: a letter follows the digits; expected an operator "
                "between a number and a name (for example 2*x)");
          p->tok = T_BAD;
          return;
        }
      if (j - i >= sizeof buf)
        {
          p->next = j;
          perr (p, i, "number too long (%d characters); expected at most %d", (int) (j - i),
                (int) sizeof buf - 1);
          p->tok = T_BAD;
          return;
        }
      memcpy (buf, t + i, j - i);
      buf[j - i] = '\0';
      p->num = strtod (buf, &end);
      if ((size_t) (end - buf) != j - i)
        {
          p->next = j;
          perr (p, i, "the number could not be read (C locale decimal point expected)");
          p->tok = T_BAD;
          return;
        }
      if (! isfinite (p->num))
        {
          p->next = j;
          perr (p, i, "number out of the range of doubles; expected a finite number");
          p->tok = T_BAD;
          return;
        }
      p->tok = T_NUM;
      p->next = j;
      return;
    }
  if (isalpha ((unsigned char) t[i]) || t[i] == '_')
    {
      size_t j = i;
      while (isalnum ((unsigned char) t[j]) || t[j] == '_')
        j++;
      p->next = j;
      if (t[i] == '_')
        {
          perr (p, i, "a name cannot start with '_'; expected a letter");
          p->tok = T_BAD;
          return;
        }
      if (j - i > VM_NAME_MAX)
        {
          perr (p, i, "name longer than %d characters", VM_NAME_MAX);
          p->tok = T_BAD;
          return;
        }
      memcpy (p->name, t + i, j - i);
      p->name[j - i] = '\0';
      p->tok = T_NAME;
      return;
    }
  p->next = i + 1;
  switch (t[i])
    {
    case '+': case '-': case '*': case '/': case '^':
      p->tok = T_OP;
      p->op = t[i];
      return;
    case '.':
      if (t[i + 1] == '*' || t[i + 1] == '/' || t[i + 1] == '^')
        {
          p->tok = T_OP;
          p->op = t[i + 1];
          p->next = i + 2;
          return;
        }
      break;
    case '(': p->tok = T_LP; return;
    case ')': p->tok = T_RP; return;
    case ',': p->tok = T_COMMA; return;
    case '\'':
    case '"':
      perr (p, i, "quote characters are not part of the language; velocities are written "
            "dot(x), not x'");
      p->tok = T_BAD;
      return;
    default:
      break;
    }
  if ((unsigned char) t[i] >= 32 && (unsigned char) t[i] < 127)
    perr (p, i, "unexpected character '%c'; expected a number, a name, an operator "
          "(+ - * / ^) or a parenthesis", t[i]);
  else
    perr (p, i, "unexpected byte 0x%02x; expected printable ASCII", (unsigned char) t[i]);
  p->tok = T_BAD;
}

static int32_t parse_expr (parser *p);

/* op applied to parsed operands (b < 0: unary); an operation on constants whose value is not
 * finite (1/0, log(0), 0^-1, sqrt(-1)) is an error at column col: a model never needs it, and
 * folded or not it would make every evaluation NaN or Inf. */
static int32_t
apply_checked (parser *p, size_t col, int op, int32_t a, int32_t b)
{
  vm_graph *g = p->g;
  if (ISC (a) && (b < 0 || ISC (b)))
    {
      double r = apply_op (op, CV (a), b >= 0 ? CV (b) : 0.0);
      if (! isfinite (r))
        {
          perr (p, col, "this constant expression evaluates to %s; expected a finite value (a "
                "division by zero, a logarithm of 0, a negative power of 0, a root of a negative "
                "number?)", isnan (r) ? "NaN" : r > 0 ? "Inf" : "-Inf");
          return -1;
        }
    }
  return b < 0 ? vm_unary (g, op, a) : vm_binary (g, op, a, b);
}

static int32_t
parse_primary (parser *p)
{
  char buf[96];
  if (p->tok == T_NUM)
    {
      int32_t r = vm_const (p->g, p->num);
      next_token (p);
      return r;
    }
  if (p->tok == T_LP)
    {
      size_t open = p->pos;
      int32_t r;
      if (++p->depth > VM_EXPR_MAX_DEPTH)
        {
          perr (p, p->pos, "expression nested deeper than %d levels", VM_EXPR_MAX_DEPTH);
          return -1;
        }
      next_token (p);
      r = parse_expr (p);
      p->depth--;
      if (r < 0)
        return -1;
      if (p->tok != T_RP)
        {
          perr (p, p->pos, "found %s; expected ')' to close the '(' at column %d",
                tok_desc (p, buf, sizeof buf), (int) open + 1);
          return -1;
        }
      next_token (p);
      return r;
    }
  if (p->tok == T_NAME)
    {
      char name[VM_NAME_MAX + 1];
      size_t at = p->pos;
      const vm_sym *sym;
      int fop;
      strcpy (name, p->name);
      next_token (p);
      if (p->tok == T_BAD)
        return -1;
      if (strcmp (name, "dot") == 0)
        {
          size_t argat;
          if (p->tok != T_LP)
            {
              perr (p, at, "'dot' is the velocity operator; expected dot(<coordinate>)");
              return -1;
            }
          next_token (p);
          argat = p->pos;
          if (p->tok != T_NAME)
            {
              perr (p, argat, "found %s; dot() takes a coordinate name, e.g. dot(x)",
                    tok_desc (p, buf, sizeof buf));
              return -1;
            }
          sym = sym_find (p->s, p->name);
          if (p->s->dot_reason)
            {
              perr (p, at, "velocities are not allowed here (%s)", p->s->dot_reason);
              return -1;
            }
          if (! sym)
            {
              perr (p, argat, "unknown name '%s' in dot(); expected a coordinate", p->name);
              return -1;
            }
          if (sym->dotvar < 0)
            {
              perr (p, argat, "'%s' is a %s; dot() takes a coordinate", p->name, sym->kind);
              return -1;
            }
          next_token (p);
          if (p->tok != T_RP)
            {
              perr (p, p->pos, "found %s; expected ')' after dot(%s", tok_desc (p, buf, sizeof buf),
                    sym->name);
              return -1;
            }
          next_token (p);
          return vm_var (p->g, sym->dotvar);
        }
      fop = func_lookup (name);
      if (fop >= 0)
        {
          int32_t a, b = -1;
          int ar = vm_op_arity (fop);
          size_t open = p->pos;
          if (p->tok != T_LP)
            {
              perr (p, at, "'%s' is a function; expected %s(...)", name, name);
              return -1;
            }
          if (++p->depth > VM_EXPR_MAX_DEPTH)
            {
              perr (p, p->pos, "expression nested deeper than %d levels", VM_EXPR_MAX_DEPTH);
              return -1;
            }
          next_token (p);
          if (p->tok == T_RP)
            {
              perr (p, p->pos, "%s() has no argument; expected %d argument%s", name, ar,
                    ar == 1 ? "" : "s");
              return -1;
            }
          a = parse_expr (p);
          if (a < 0)
            return -1;
          if (ar == 2)
            {
              if (p->tok != T_COMMA)
                {
                  perr (p, p->pos, "found %s; %s takes 2 arguments, expected ','", tok_desc (p, buf, sizeof buf), name);
                  return -1;
                }
              next_token (p);
              b = parse_expr (p);
              if (b < 0)
                return -1;
            }
          p->depth--;
          if (p->tok == T_COMMA)
            {
              perr (p, p->pos, "too many arguments: %s takes %d argument%s", name, ar,
                    ar == 1 ? "" : "s");
              return -1;
            }
          if (p->tok != T_RP)
            {
              perr (p, p->pos, "found %s; expected ')' to close %s( at column %d",
                    tok_desc (p, buf, sizeof buf), name, (int) open + 1);
              return -1;
            }
          next_token (p);
          return apply_checked (p, at, fop, a, ar == 1 ? -1 : b);
        }
      if (strcmp (name, "pi") == 0)
        {
          if (p->tok == T_LP)
            {
              perr (p, at, "'pi' is a constant, not a function");
              return -1;
            }
          return vm_const (p->g, VM_PI);
        }
      sym = sym_find (p->s, name);
      if (! sym)
        {
          if (p->tok == T_LP)
            perr (p, at, "unknown function '%s'; expected one of " FUNC_LIST ", or dot", name);
          else if (strcmp (name, "t") == 0)
            perr (p, at, "time 't' is not allowed here");
          else
            perr (p, at, "unknown name '%s'; expected a declared name, t, pi, a function or a number", name);
          return -1;
        }
      if (kind_forbidden (p->s, sym->kind))
        {
          if (strcmp (sym->kind, "time") == 0)
            perr (p, at, "the time '%s' is not allowed here (%s)", name, kind_forbidden (p->s, sym->kind));
          else
            perr (p, at, "'%s' is a %s, not allowed here (%s)", name, sym->kind,
                  kind_forbidden (p->s, sym->kind));
          return -1;
        }
      if (p->tok == T_LP)
        {
          if (sym->dotvar >= 0)
            perr (p, at, "'%s' is a %s, not a function; write dot(%s) for its velocity", name,
                  sym->kind, name);
          else
            perr (p, at, "'%s' is a %s, not a function; expected an operator after it", name,
                  sym->kind);
          return -1;
        }
      return vm_var (p->g, sym->var);
    }
  if (p->tok == T_BAD)
    return -1;
  perr (p, p->pos, "found %s; expected a number, a name, a function call or '('",
        tok_desc (p, buf, sizeof buf));
  return -1;
}


/* Signs in front of an operand: ('+'|'-') signed | operand.  Each sign is one level of nesting. */
static int32_t
parse_signed (parser *p, int32_t (*operand) (parser *))
{
  if (p->tok == T_OP && (p->op == '-' || p->op == '+'))
    {
      char op = p->op;
      size_t at = p->pos;
      int32_t a;
      if (++p->depth > VM_EXPR_MAX_DEPTH)
        {
          perr (p, p->pos, "expression nested deeper than %d levels", VM_EXPR_MAX_DEPTH);
          return -1;
        }
      next_token (p);
      a = parse_signed (p, operand);
      p->depth--;
      if (a < 0)
        return -1;
      return op == '-' ? apply_checked (p, at, VM_OP_NEG, a, -1) : a;
    }
  return operand (p);
}

/* power := primary { '^' powarg },  powarg := ('+'|'-') powarg | primary   (left associative) */
static int32_t
parse_power (parser *p)
{
  int32_t a = parse_primary (p);
  while (a >= 0 && p->tok == T_OP && p->op == '^')
    {
      int32_t b;
      size_t at = p->pos;
      next_token (p);
      b = parse_signed (p, parse_primary);
      if (b < 0)
        return -1;
      a = apply_checked (p, at, VM_OP_POW, a, b);
    }
  return a;
}

/* unary := ('+'|'-') unary | power */
static int32_t
parse_unary (parser *p)
{
  return parse_signed (p, parse_power);
}

static int32_t
parse_term (parser *p)
{
  int32_t a = parse_unary (p);
  while (a >= 0 && p->tok == T_OP && (p->op == '*' || p->op == '/'))
    {
      int op = p->op == '*' ? VM_OP_MUL : VM_OP_DIV;
      int32_t b;
      size_t at = p->pos;
      next_token (p);
      b = parse_unary (p);
      if (b < 0)
        return -1;
      a = apply_checked (p, at, op, a, b);
    }
  return a;
}

static int32_t
parse_expr (parser *p)
{
  int32_t a = parse_term (p);
  while (a >= 0 && p->tok == T_OP && (p->op == '+' || p->op == '-'))
    {
      int op = p->op == '+' ? VM_OP_ADD : VM_OP_SUB;
      int32_t b;
      size_t at = p->pos;
      next_token (p);
      b = parse_term (p);
      if (b < 0)
        return -1;
      a = apply_checked (p, at, op, a, b);
    }
  return a;
}

int32_t
vm_parse (vm_graph *g, const vm_symtab *s, const char *text, const char *context, vm_err *err)
{
  parser p;
  int32_t r;
  char buf[96];
  vm_err dummy;
  if (! err)
    err = &dummy;
  err->status = VM_OK;
  err->column = 0;
  err->msg[0] = '\0';
  if (! g || ! s || ! text)
    {
      err->status = VM_EARG;
      snprintf (err->msg, sizeof err->msg, "%s: no expression", context ? context : "expression");
      return -1;
    }
  memset (&p, 0, sizeof p);
  p.g = g;
  p.s = s;
  p.text = text;
  p.context = context ? context : "expression";
  p.err = err;
  next_token (&p);
  if (p.tok == T_END)
    {
      perr (&p, p.pos, "empty expression; expected a formula");
      return -1;
    }
  r = parse_expr (&p);
  if (r >= 0 && p.tok != T_END)
    {
      if (p.tok == T_RP)
        perr (&p, p.pos, "unmatched ')'; expected an operator or the end of the expression");
      else if (p.tok != T_BAD)
        perr (&p, p.pos, "found %s; expected an operator (+ - * / ^) or the end of the expression",
              tok_desc (&p, buf, sizeof buf));
      r = -1;
    }
  if (r < 0 && ! p.failed)
    {
      err->status = vm_graph_status (g) != VM_OK ? vm_graph_status (g) : VM_EARG;
      snprintf (err->msg, sizeof err->msg, "%s: %s", p.context,
                err->status == VM_ENOMEM ? "expression too large (out of memory or over the node limit)"
                                         : "invalid expression");
    }
  return r < 0 ? -1 : r;
}

/* ================================================================================================
 * Tapes
 * ============================================================================================== */

/* Points per block: large blocks amortize the switch per instruction and the change of output
 * stream; the work memory (nslot blocks) is kept within 512 KiB so that it stays in cache. */
static int
block_size (const vm_tape *tp)
{
  int bs = 1024;
  while (bs > 64 && (size_t) (tp->nslot > 0 ? tp->nslot : 1) * (size_t) bs * sizeof (double) > 524288)
    bs /= 2;
  return bs;
}

void
vm_tape_free (vm_tape *tp)
{
  if (! tp)
    return;
  free (tp->code);
  tp->code = NULL;
  tp->ninstr = tp->nprologue = tp->nslot = 0;
}

int
vm_tape_compile (const vm_graph *g, int nout, const int32_t *outputs, vm_tape *tp)
{
  size_t n = g->n, k;
  int32_t *slot = NULL, *last = NULL, *freel = NULL, *outcnt = NULL, *firstout = NULL, *nextout = NULL;
  char *mark = NULL;
  int nfree = 0, nslot = 0, ni = 0, cap, st = VM_ENOMEM, i;
  vm_instr *code = NULL;

  memset (tp, 0, sizeof *tp);
  if (nout < 0 || (nout > 0 && ! outputs))
    return VM_EARG;
  for (i = 0; i < nout; i++)
    if (outputs[i] < 0 || (size_t) outputs[i] >= n)
      return VM_EARG;
  mark = calloc (n ? n : 1, 1);
  slot = malloc ((n ? n : 1) * sizeof *slot);
  last = malloc ((n ? n : 1) * sizeof *last);
  outcnt = calloc (n ? n : 1, sizeof *outcnt);
  firstout = malloc ((n ? n : 1) * sizeof *firstout);
  nextout = malloc ((size_t) (nout > 0 ? nout : 1) * sizeof *nextout);
  if (! mark || ! slot || ! last || ! outcnt || ! firstout || ! nextout)
    goto done;
  for (k = 0; k < n; k++)
    firstout[k] = -1;
  for (i = nout; i-- > 0;)   /* per node, its outputs in increasing order */
    {
      mark[outputs[i]] = 1;
      outcnt[outputs[i]]++;
      nextout[i] = firstout[outputs[i]];
      firstout[outputs[i]] = i;
    }
  for (k = n; k-- > 0;)   /* children have smaller ids: one backward sweep marks what is needed */
    if (mark[k])
      {
        int ar = vm_op_arity (g->nodes[k].op);
        if (ar >= 1)
          mark[g->nodes[k].a] = 1;
        if (ar == 2)
          mark[g->nodes[k].b] = 1;
      }
  /* last use (as an operand) of every node, by node id of the user */
  for (k = 0; k < n; k++)
    last[k] = -1;
  for (k = 0; k < n; k++)
    if (mark[k])
      {
        const vm_node *nd = &g->nodes[k];
        int ar = vm_op_arity (nd->op);
        if (ar >= 1)
          last[nd->a] = (int32_t) k;
        if (ar == 2 && ! (nd->op == VM_OP_POW && ISC (nd->b) && is_int (CV (nd->b))
                          && fabs (CV (nd->b)) <= 64))
          last[nd->b] = (int32_t) k;
      }
  cap = 16;
  for (k = 0; k < n; k++)
    cap += mark[k] ? 1 : 0;
  cap += nout;
  code = malloc ((size_t) cap * sizeof *code);
  freel = malloc ((size_t) cap * sizeof *freel);
  if (! code || ! freel)
    goto done;
  /* prologue: constants and variables in permanent slots */
  for (k = 0; k < n; k++)
    if (mark[k] && vm_op_arity (g->nodes[k].op) == 0)
      {
        const vm_node *nd = &g->nodes[k];
        if (nd->op == VM_OP_CONST && last[k] < 0 && outcnt[k] == 0)
          continue;   /* a constant only used as a POWI exponent */
        slot[k] = nslot++;
        code[ni].op = nd->op;
        code[ni].dst = slot[k];
        code[ni].a = nd->op == VM_OP_VAR ? nd->a : -1;
        code[ni].b = -1;
        code[ni].imm = nd->op == VM_OP_CONST ? nd->c : 0.0;
        ni++;
      }
  tp->nprologue = ni;
  for (k = 0; k < n; k++)
    {
      const vm_node *nd = &g->nodes[k];
      int ar;
      if (! mark[k])
        continue;
      ar = vm_op_arity (nd->op);
      if (ar > 0)
        {
          vm_instr *in = &code[ni++];
          int powi = nd->op == VM_OP_POW && ISC (nd->b) && is_int (CV (nd->b))
                     && fabs (CV (nd->b)) <= 64;
          in->op = powi ? VM_OP_POWI : nd->op;
          in->a = slot[nd->a];
          in->b = (ar == 2 && ! powi) ? slot[nd->b] : -1;
          in->imm = powi ? CV (nd->b) : 0.0;
          /* free operands whose last use is here (not prologue slots) */
          if (last[nd->a] == (int32_t) k && vm_op_arity (g->nodes[nd->a].op) > 0)
            freel[nfree++] = slot[nd->a];
          if (in->b >= 0 && nd->b != nd->a && last[nd->b] == (int32_t) k
              && vm_op_arity (g->nodes[nd->b].op) > 0)
            freel[nfree++] = slot[nd->b];
          slot[k] = nfree > 0 ? freel[--nfree] : nslot++;
          in->dst = slot[k];
        }
      for (i = firstout[k]; i >= 0; i = nextout[i])
          {
            code[ni].op = VM_OP_STORE;
            code[ni].dst = -1;
            code[ni].a = slot[k];
            code[ni].b = -1;
            code[ni].imm = (double) i;
            ni++;
          }
      if (ar > 0 && last[k] < 0)   /* an output nobody else reads */
        freel[nfree++] = slot[k];
    }
  tp->nvar = g->nvar;
  tp->nout = nout;
  tp->nslot = nslot;
  tp->ninstr = ni;
  tp->code = code;
  code = NULL;
  st = VM_OK;
done:
  free (code);
  free (freel);
  free (mark);
  free (slot);
  free (last);
  free (outcnt);
  free (firstout);
  free (nextout);
  return st;
}

int
vm_tape_validate (const vm_tape *tp)
{
  char *written;
  int i, st = VM_EARG;
  if (! tp || tp->nvar < 0 || tp->nout < 0 || tp->nslot < 0 || tp->ninstr < 0
      || tp->nprologue < 0 || tp->nprologue > tp->ninstr || (tp->ninstr > 0 && ! tp->code))
    return VM_EARG;
  written = calloc ((size_t) tp->nslot + 1, 1);   /* 0 unwritten, 1 written, 2 prologue */
  if (! written)
    return VM_ENOMEM;
  for (i = 0; i < tp->ninstr; i++)
    {
      const vm_instr *in = &tp->code[i];
      int prol = i < tp->nprologue, ar;
      if (prol != (in->op == VM_OP_CONST || in->op == VM_OP_VAR))
        goto done;
      if (in->op == VM_OP_STORE)
        {
          if (in->a < 0 || in->a >= tp->nslot || ! written[in->a] || ! (in->imm >= 0)
              || in->imm >= tp->nout || in->imm != floor (in->imm))
            goto done;
          continue;
        }
      if (in->op < 0 || in->op >= VM_OP_COUNT)
        goto done;
      if (in->dst < 0 || in->dst >= tp->nslot)
        goto done;
      if (prol)
        {
          if (written[in->dst])
            goto done;
          if (in->op == VM_OP_VAR && (in->a < 0 || in->a >= tp->nvar))
            goto done;
          written[in->dst] = 2;
          continue;
        }
      ar = in->op == VM_OP_POWI ? 1 : vm_op_arity (in->op);
      if (ar < 1)
        goto done;
      if (in->a < 0 || in->a >= tp->nslot || ! written[in->a])
        goto done;
      if (ar == 2 && (in->b < 0 || in->b >= tp->nslot || ! written[in->b]))
        goto done;
      if (ar == 1 && in->b != -1)
        goto done;   /* the compiler writes -1; evaluation reads slot b whenever b >= 0 */
      if (in->op == VM_OP_POWI && (in->imm != floor (in->imm) || fabs (in->imm) > 64))
        goto done;
      if (written[in->dst] == 2)
        goto done;
      written[in->dst] = 1;
    }
  st = VM_OK;
done:
  free (written);
  return st;
}

/* Work memory: nslot blocks of doubles, then one flag byte per instruction and per slot (rounded
 * up to whole doubles), so that evaluation allocates nothing. */
static size_t
flag_bytes (const vm_tape *tp)
{
  return (size_t) (tp->ninstr > 0 ? tp->ninstr : 1) + (size_t) (tp->nslot > 0 ? tp->nslot : 1);
}

size_t
vm_tape_work_size (const vm_tape *tp)
{
  return (size_t) (tp->nslot > 0 ? tp->nslot : 1) * (size_t) block_size (tp)
         + (flag_bytes (tp) + sizeof (double) - 1) / sizeof (double);
}

static void
powi_block (double *r, const double *x, int k, int bn)
{
  int i, m = k < 0 ? -k : k;
  switch (k)
    {
    case 2: for (i = 0; i < bn; i++) r[i] = x[i] * x[i]; return;
    case 3: for (i = 0; i < bn; i++) r[i] = x[i] * x[i] * x[i]; return;
    case -1: for (i = 0; i < bn; i++) r[i] = 1.0 / x[i]; return;
    case -2: for (i = 0; i < bn; i++) r[i] = 1.0 / (x[i] * x[i]); return;
    default: break;
    }
  for (i = 0; i < bn; i++)
    {
      double b = x[i], acc = 1.0;
      int e = m;
      while (e)
        {
          if (e & 1)
            acc *= b;
          b *= b;
          e >>= 1;
        }
      r[i] = k < 0 ? 1.0 / acc : acc;
    }
}

int
vm_tape_eval (const vm_tape *tp, size_t npts, const double *const *in, const int *inc,
              double *const *out, double *work)
{
  size_t p0, fill;
  int i;
  unsigned char *uni, *suni;
  const size_t bsz = tp ? (size_t) block_size (tp) : 1;
  if (! tp || (npts > 0 && (! work || (tp->nvar > 0 && (! in || ! inc)) || (tp->nout > 0 && ! out))))
    return VM_EARG;
  if (npts == 0)
    return VM_OK;
  if (npts == 1)
    {
      /* one point (the integrators' right-hand sides): a scalar interpreter over a dense slot
       * array; the same operations as the blocked path, so the results are bitwise equal */
      double *v = work;
      for (i = 0; i < tp->ninstr; i++)
        {
          const vm_instr *c = &tp->code[i];
          switch (c->op)
            {
            case VM_OP_CONST: v[c->dst] = c->imm; break;
            case VM_OP_VAR: v[c->dst] = in[c->a][0]; break;
            case VM_OP_STORE:
              if (out[(int) c->imm])
                out[(int) c->imm][0] = v[c->a];
              break;
            case VM_OP_NEG: v[c->dst] = -v[c->a]; break;
            case VM_OP_ADD: v[c->dst] = v[c->a] + v[c->b]; break;
            case VM_OP_SUB: v[c->dst] = v[c->a] - v[c->b]; break;
            case VM_OP_MUL: v[c->dst] = v[c->a] * v[c->b]; break;
            case VM_OP_DIV: v[c->dst] = v[c->a] / v[c->b]; break;
            case VM_OP_POWI: powi_block (v + c->dst, v + c->a, (int) c->imm, 1); break;
            default:
              v[c->dst] = apply_op (c->op, v[c->a], c->b >= 0 ? v[c->b] : 0.0);
            }
        }
      return VM_OK;
    }
  /* Instructions whose operands are the same at every point (constants, broadcast inputs and what
   * is computed from them only) are evaluated once per block and their value copied: a function of
   * the parameters costs one call, not one per point. */
  uni = (unsigned char *) (work + (size_t) (tp->nslot > 0 ? tp->nslot : 1) * bsz);
  suni = uni + (tp->ninstr > 0 ? tp->ninstr : 1);
  fill = npts < bsz ? npts : bsz;
  for (i = 0; i < tp->ninstr; i++)
    {
      const vm_instr *c = &tp->code[i];
      if (c->op == VM_OP_STORE)
        uni[i] = 0;
      else if (c->op == VM_OP_CONST)
        uni[i] = 1;
      else if (c->op == VM_OP_VAR)
        uni[i] = ! inc[c->a];
      else
        uni[i] = suni[c->a] && (c->b < 0 || suni[c->b]);
      if (c->op != VM_OP_STORE)
        suni[c->dst] = uni[i];
    }
  /* prologue: constants and broadcast variables once per call */
  for (i = 0; i < tp->nprologue; i++)
    {
      const vm_instr *c = &tp->code[i];
      double *r = work + (size_t) c->dst * bsz, v;
      size_t j;
      if (c->op == VM_OP_VAR && inc[c->a])
        continue;
      v = c->op == VM_OP_CONST ? c->imm : in[c->a][0];
      for (j = 0; j < fill; j++)
        r[j] = v;
    }
  for (p0 = 0; p0 < npts; p0 += bsz)
    {
      int bn = (int) (npts - p0 < bsz ? npts - p0 : bsz), j;
      for (i = 0; i < tp->nprologue; i++)
        {
          const vm_instr *c = &tp->code[i];
          if (c->op == VM_OP_VAR && inc[c->a])
            memcpy (work + (size_t) c->dst * bsz, in[c->a] + p0, (size_t) bn * sizeof (double));
        }
      for (i = tp->nprologue; i < tp->ninstr; i++)
        {
          const vm_instr *c = &tp->code[i];
          double *r = c->dst >= 0 ? work + (size_t) c->dst * bsz : NULL;
          const double *x = work + (size_t) c->a * bsz;
          const double *y = c->b >= 0 ? work + (size_t) c->b * bsz : NULL;
          if (uni[i])
            {
              if (c->op == VM_OP_POWI)
                powi_block (r, x, (int) c->imm, 1);
              else
                r[0] = apply_op (c->op, x[0], y ? y[0] : 0.0);
              for (j = 1; j < bn; j++)
                r[j] = r[0];
              continue;
            }
          switch (c->op)
            {
            case VM_OP_STORE:
              if (out[(int) c->imm])
                memcpy (out[(int) c->imm] + p0, x, (size_t) bn * sizeof (double));
              break;
            case VM_OP_NEG: for (j = 0; j < bn; j++) r[j] = -x[j]; break;
            case VM_OP_ADD: for (j = 0; j < bn; j++) r[j] = x[j] + y[j]; break;
            case VM_OP_SUB: for (j = 0; j < bn; j++) r[j] = x[j] - y[j]; break;
            case VM_OP_MUL: for (j = 0; j < bn; j++) r[j] = x[j] * y[j]; break;
            case VM_OP_DIV: for (j = 0; j < bn; j++) r[j] = x[j] / y[j]; break;
            case VM_OP_POWI: powi_block (r, x, (int) c->imm, bn); break;
            case VM_OP_SQRT: for (j = 0; j < bn; j++) r[j] = sqrt (x[j]); break;
            case VM_OP_ABS: for (j = 0; j < bn; j++) r[j] = fabs (x[j]); break;
            case VM_OP_SIGN: for (j = 0; j < bn; j++) r[j] = sgn (x[j]); break;
            case VM_OP_SIN: for (j = 0; j < bn; j++) r[j] = sin (x[j]); break;
            case VM_OP_COS: for (j = 0; j < bn; j++) r[j] = cos (x[j]); break;
            case VM_OP_EXP: for (j = 0; j < bn; j++) r[j] = exp (x[j]); break;
            case VM_OP_LOG: for (j = 0; j < bn; j++) r[j] = log (x[j]); break;
            case VM_OP_TANH: for (j = 0; j < bn; j++) r[j] = tanh (x[j]); break;
            case VM_OP_MIN: for (j = 0; j < bn; j++) r[j] = fmin (x[j], y[j]); break;
            case VM_OP_MAX: for (j = 0; j < bn; j++) r[j] = fmax (x[j], y[j]); break;
            default:
              if (y)
                for (j = 0; j < bn; j++) r[j] = apply_op (c->op, x[j], y[j]);
              else
                for (j = 0; j < bn; j++) r[j] = apply_op (c->op, x[j], 0.0);
            }
        }
    }
  return VM_OK;
}
