/* expr_impl.h -- what the files of the expression engine share (private: not installed, not
 * included outside csrc/expr_*.c).
 *
 * The public interface is expr.h.  Its implementation is split by concept: expr_graph.c (the
 * hash-consed graph, the simplifying constructors, the reference evaluator), expr_diff.c
 * (differentiation, substitution, dependence), expr_parse.c (the symbol table, the lexer and the
 * parser) and expr_tape.c (the tape compiler, validator and evaluator).  This header holds the
 * definition of struct vm_graph, the node accessor macros (which expect a vm_graph *g in scope),
 * the value of one operation (static inline: the tape evaluator calls it per point) and the two
 * simplifying constructors that differentiation and substitution build with. */
#ifndef VM_EXPR_IMPL_H
#define VM_EXPR_IMPL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "model/expr.h"

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
  size_t max_nodes;           /* the node limit (VM_EXPR_MAX_NODES; vm_graph_set_max_nodes) */
};

/* Node accessors: g must be the vm_graph * in scope. */
#define OPOF(id) (g->nodes[id].op)
#define ISC(id) (g->nodes[id].op == VM_OP_CONST)
#define CV(id) (g->nodes[id].c)
#define ISCV(id, v) (ISC (id) && CV (id) == (v))

static inline double
vm_expr_sgn (double x)
{
  if (x > 0)
    return 1.0;
  if (x < 0)
    return -1.0;
  return x == 0 ? 0.0 : x;   /* NaN stays NaN */
}

/* The value of one operation (shared by folding, the reference evaluator and the tape). */
static inline double
vm_expr_apply_op (int op, double x, double y)
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
    case VM_OP_SIGN: return vm_expr_sgn (x);
    case VM_OP_ATAN2: return atan2 (x, y);
    case VM_OP_MIN: return fmin (x, y);
    case VM_OP_MAX: return fmax (x, y);
    case VM_OP_ERFC: return erfc (x);
    default: return NAN;
    }
}

/* 1 when c is an integer of magnitude at most 2^20 (exponents kept as integer powers). */
static inline int
vm_expr_is_int (double c)
{
  return c == floor (c) && fabs (c) <= 1048576.0;
}

/* The simplifying constructors (expr_graph.c): constant folding, 0/1 identities, powers,
 * negations.  They return a node id, or -1 once the graph's status is not VM_OK.
 * Both return -1 when a child is -1 (a failed inner call: the derivative rules nest them). */
int32_t vm_expr_simp_unary (vm_graph *g, int op, int32_t a);
int32_t vm_expr_simp_binary (vm_graph *g, int op, int32_t a, int32_t b);

#endif
