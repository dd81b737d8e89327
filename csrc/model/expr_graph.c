/* expr_graph.c -- the expression graph (see expr.h): node storage with hash-consing, so that equal
 * expressions are one node; the simplifying constructors every node is made by (constant folding,
 * 0/1 identities, powers, negations, ordering of commutative operands); the names and arities of
 * the operations; and the reference evaluator vm_graph_eval1.  Differentiation is in expr_diff.c,
 * the parser in expr_parse.c, tapes in expr_tape.c (expr_impl.h: what they share). */
#include "model/expr.h"
#include "model/expr_impl.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *name; int arity; } op_info[VM_OP_COUNT] = {
  { "const", 0 }, { "var", 0 },
  { "-", 1 }, { "+", 2 }, { "-", 2 }, { "*", 2 }, { "/", 2 }, { "^", 2 },
  { "sin", 1 }, { "cos", 1 }, { "tan", 1 }, { "exp", 1 }, { "log", 1 }, { "sqrt", 1 },
  { "abs", 1 }, { "sinh", 1 }, { "cosh", 1 }, { "tanh", 1 }, { "asin", 1 }, { "acos", 1 },
  { "atan", 1 }, { "sign", 1 }, { "atan2", 2 }, { "min", 2 }, { "max", 2 },
  { "powi", -1 }, { "store", -1 }, { "erfc", 1 }
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
  g->max_nodes = VM_EXPR_MAX_NODES;
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
vm_graph_set_max_nodes (vm_graph *g, size_t max_nodes)
{
  if (g)
    g->max_nodes = max_nodes < VM_EXPR_MAX_NODES ? max_nodes : VM_EXPR_MAX_NODES;
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
  if (g->n >= g->max_nodes)
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
vm_graph_push (vm_graph *g, const vm_node *nd)
{
  return mk (g, nd->op, nd->a, nd->b, nd->c);
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

/* Constant folding: only when the result is finite, so 1/0 or log(0) stay symbolic. */
static int32_t
fold (vm_graph *g, int op, int32_t a, int32_t b)
{
  double r = vm_expr_apply_op (op, CV (a), b >= 0 ? CV (b) : 0.0);
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

int32_t
vm_expr_simp_unary (vm_graph *g, int op, int32_t a)
{
  int32_t r;
  if (a < 0)
    return -1;   /* a failed inner constructor (the derivative rules nest them) */
  if (ISC (a) && (r = fold (g, op, a, -1)) != -2)
    return r;
  switch (op)
    {
    case VM_OP_NEG:
      if (OPOF (a) == VM_OP_NEG)
        return g->nodes[a].a;
      if (OPOF (a) == VM_OP_SUB)
        return vm_expr_simp_binary (g, VM_OP_SUB, g->nodes[a].b, g->nodes[a].a);
      break;
    case VM_OP_ABS:
      if (OPOF (a) == VM_OP_NEG || OPOF (a) == VM_OP_ABS)
        return vm_expr_simp_unary (g, VM_OP_ABS, g->nodes[a].a);
      break;
    case VM_OP_COS:
    case VM_OP_COSH:
      if (OPOF (a) == VM_OP_NEG)
        return vm_expr_simp_unary (g, op, g->nodes[a].a);
      break;
    case VM_OP_SIN:
    case VM_OP_TAN:
    case VM_OP_SINH:
    case VM_OP_TANH:
    case VM_OP_ASIN:
    case VM_OP_ATAN:
    case VM_OP_SIGN:
      if (OPOF (a) == VM_OP_NEG)
        return vm_expr_simp_unary (g, VM_OP_NEG, vm_expr_simp_unary (g, op, g->nodes[a].a));
      break;
    default:
      break;
    }
  return mk (g, op, a, -1, 0.0);
}

/* The rules of vm_expr_simp_binary, one helper per operator: each returns the simplified node, or
 * -2 when no rule applies (the caller then makes the node op(a, b); a helper that puts the
 * operands of a commutative operation in order stores them back through pa, pb).  No rule returns
 * -2 otherwise: constructors give a node id or -1. */
#define SIMP_NONE (-2)

/* a + b */
static int32_t
simp_add (vm_graph *g, int32_t *pa, int32_t *pb)
{
  int32_t a = *pa, b = *pb;
  if (ISCV (a, 0))
    return b;
  if (ISCV (b, 0))
    return a;
  if (a == b)
    return vm_expr_simp_binary (g, VM_OP_MUL, vm_const (g, 2.0), a);
  if (OPOF (b) == VM_OP_NEG)
    return vm_expr_simp_binary (g, VM_OP_SUB, a, g->nodes[b].a);
  if (OPOF (a) == VM_OP_NEG)
    return vm_expr_simp_binary (g, VM_OP_SUB, b, g->nodes[a].a);
  order2 (g, &a, &b);
  *pa = a;
  *pb = b;
  if (ISC (a) && OPOF (b) == VM_OP_ADD && ISC (g->nodes[b].a)
      && isfinite (CV (a) + CV (g->nodes[b].a)))
    return vm_expr_simp_binary (g, VM_OP_ADD, vm_const (g, CV (a) + CV (g->nodes[b].a)),
                                g->nodes[b].b);
  return SIMP_NONE;
}

/* a - b */
static int32_t
simp_sub (vm_graph *g, int32_t a, int32_t b)
{
  if (ISCV (b, 0))
    return a;
  if (ISCV (a, 0))
    return vm_expr_simp_unary (g, VM_OP_NEG, b);
  if (a == b)
    return vm_const (g, 0.0);
  if (OPOF (b) == VM_OP_NEG)
    return vm_expr_simp_binary (g, VM_OP_ADD, a, g->nodes[b].a);
  if (ISC (b))
    return vm_expr_simp_binary (g, VM_OP_ADD, vm_const (g, -CV (b)), a);
  return SIMP_NONE;
}

/* a * b as x^m * x^k -> x^(m+k) for integer exponents */
static int32_t
simp_mul_pow (vm_graph *g, int32_t a, int32_t b)
{
  int32_t xa = a, xb = b;
  double ea = 1, eb = 1;
  if (OPOF (a) == VM_OP_POW && ISC (g->nodes[a].b) && vm_expr_is_int (CV (g->nodes[a].b)))
    {
      xa = g->nodes[a].a;
      ea = CV (g->nodes[a].b);
    }
  if (OPOF (b) == VM_OP_POW && ISC (g->nodes[b].b) && vm_expr_is_int (CV (g->nodes[b].b)))
    {
      xb = g->nodes[b].a;
      eb = CV (g->nodes[b].b);
    }
  if (xa == xb && (xa != a || xb != b))
    return vm_expr_simp_binary (g, VM_OP_POW, xa, vm_const (g, ea + eb));
  return SIMP_NONE;
}

/* a * b */
static int32_t
simp_mul (vm_graph *g, int32_t *pa, int32_t *pb)
{
  int32_t a = *pa, b = *pb, r;
  if (ISCV (a, 0) || ISCV (b, 0))
    return vm_const (g, 0.0);
  if (ISCV (a, 1))
    return b;
  if (ISCV (b, 1))
    return a;
  if (ISCV (a, -1))
    return vm_expr_simp_unary (g, VM_OP_NEG, b);
  if (ISCV (b, -1))
    return vm_expr_simp_unary (g, VM_OP_NEG, a);
  if (OPOF (a) == VM_OP_NEG)
    return vm_expr_simp_unary (g, VM_OP_NEG,
                               vm_expr_simp_binary (g, VM_OP_MUL, g->nodes[a].a, b));
  if (OPOF (b) == VM_OP_NEG)
    return vm_expr_simp_unary (g, VM_OP_NEG,
                               vm_expr_simp_binary (g, VM_OP_MUL, a, g->nodes[b].a));
  if (a == b)
    return vm_expr_simp_binary (g, VM_OP_POW, a, vm_const (g, 2.0));
  if ((r = simp_mul_pow (g, a, b)) != SIMP_NONE)
    return r;
  order2 (g, &a, &b);
  *pa = a;
  *pb = b;
  if (ISC (a) && OPOF (b) == VM_OP_MUL && ISC (g->nodes[b].a)
      && isfinite (CV (a) * CV (g->nodes[b].a)))
    return vm_expr_simp_binary (g, VM_OP_MUL, vm_const (g, CV (a) * CV (g->nodes[b].a)),
                                g->nodes[b].b);
  return SIMP_NONE;
}

/* a / b */
static int32_t
simp_div (vm_graph *g, int32_t a, int32_t b)
{
  if (ISCV (b, 1))
    return a;
  if (ISCV (b, -1))
    return vm_expr_simp_unary (g, VM_OP_NEG, a);
  if (ISCV (a, 0) && ! ISCV (b, 0))   /* 0/x -> 0, but 0/0 stays (NaN) */
    return vm_const (g, 0.0);
  if (a == b && ! ISCV (b, 0))
    return vm_const (g, 1.0);
  if (OPOF (a) == VM_OP_NEG)
    return vm_expr_simp_unary (g, VM_OP_NEG,
                               vm_expr_simp_binary (g, VM_OP_DIV, g->nodes[a].a, b));
  if (OPOF (b) == VM_OP_NEG)
    return vm_expr_simp_unary (g, VM_OP_NEG,
                               vm_expr_simp_binary (g, VM_OP_DIV, a, g->nodes[b].a));
  return SIMP_NONE;
}

/* a ^ b */
static int32_t
simp_pow (vm_graph *g, int32_t a, int32_t b)
{
  int32_t r;
  if (ISC (b))
    {
      double c = CV (b);
      if (c == 0)
        return vm_const (g, 1.0);
      if (c == 1)
        return a;
      if (c == 0.5)
        return vm_expr_simp_unary (g, VM_OP_SQRT, a);
      if (vm_expr_is_int (c) && OPOF (a) == VM_OP_POW && ISC (g->nodes[a].b)
          && isfinite (c * CV (g->nodes[a].b)))
        return vm_expr_simp_binary (g, VM_OP_POW, g->nodes[a].a,
                                    vm_const (g, c * CV (g->nodes[a].b)));
      if (vm_expr_is_int (c) && OPOF (a) == VM_OP_NEG)
        {
          r = vm_expr_simp_binary (g, VM_OP_POW, g->nodes[a].a, b);
          return fmod (c, 2.0) == 0 ? r : vm_expr_simp_unary (g, VM_OP_NEG, r);
        }
    }
  if (ISCV (a, 1))
    return vm_const (g, 1.0);
  return SIMP_NONE;
}

int32_t
vm_expr_simp_binary (vm_graph *g, int op, int32_t a, int32_t b)
{
  int32_t r;
  if (a < 0 || b < 0)
    return -1;
  if (ISC (a) && ISC (b) && (r = fold (g, op, a, b)) != -2)
    return r;
  switch (op)
    {
    case VM_OP_ADD:
      r = simp_add (g, &a, &b);
      break;
    case VM_OP_SUB:
      r = simp_sub (g, a, b);
      break;
    case VM_OP_MUL:
      r = simp_mul (g, &a, &b);
      break;
    case VM_OP_DIV:
      r = simp_div (g, a, b);
      break;
    case VM_OP_POW:
      r = simp_pow (g, a, b);
      break;
    case VM_OP_MIN:
    case VM_OP_MAX:
      if (a == b)
        return a;
      order2 (g, &a, &b);
      r = SIMP_NONE;
      break;
    default:
      r = SIMP_NONE;
      break;
    }
  if (r != SIMP_NONE)
    return r;
  return mk (g, op, a, b, 0.0);
}
#undef SIMP_NONE

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
  return vm_expr_simp_unary (g, op, a);
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
  return vm_expr_simp_binary (g, op, a, b);
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
          val[k] = vm_expr_apply_op (nd->op, val[nd->a], 0.0);
          break;
        default:
          val[k] = vm_expr_apply_op (nd->op, val[nd->a], val[nd->b]);
        }
    }
  r = val[node];
  free (val);
  return r;
}
