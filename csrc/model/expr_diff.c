/* expr_diff.c -- symbolic differentiation (vm_diff, memoized per variable inside the graph),
 * substitution of variables (vm_subst) and structural dependence (vm_depends) on the expression
 * graph (see expr.h).  All three are iterative over the graph's scratch stack, so deep expressions
 * cannot exhaust the C stack; results are built through the simplifying constructors of
 * expr_graph.c (expr_impl.h). */
#include "model/expr.h"
#include "model/expr_impl.h"
#include "base/vm_status.h"

#include <stdlib.h>
#include <string.h>

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

#define U(op, x) vm_expr_simp_unary (g, op, x)
#define B(op, x, y) vm_expr_simp_binary (g, op, x, y)
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
    case VM_OP_ERFC: /* -2/sqrt(pi) exp(-a^2) da */
      return B (VM_OP_MUL, B (VM_OP_MUL, K (-1.1283791670955126), U (VM_OP_EXP, U (VM_OP_NEG,
                                                     B (VM_OP_POW, a, K (2.0))))), da);
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

/* ---- substitution and dependence ------------------------------------------------------------ */

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
          r = ar == 1 ? vm_expr_simp_unary (g, nd.op, memo[nd.a])
                      : vm_expr_simp_binary (g, nd.op, memo[nd.a], memo[nd.b]);
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
