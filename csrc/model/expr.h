/* expr.h -- the varmech expression engine (plain C99, no Octave headers).
 *
 * An expression graph (vm_graph) holds hash-consed nodes: two structurally equal expressions are
 * one node, so common subexpressions are shared across every output built in the same graph.
 * Nodes are built through simplifying constructors (constant folding, 0/1 identities, powers,
 * negations; see doc/language.md), so derivatives come out simplified.  Leaves are numeric
 * constants and variables 0..nvar-1; what a variable means (coordinate, velocity, parameter, time)
 * is up to the caller -- the parser maps names to variables through a vm_symtab.
 *
 * A list of output nodes compiles to a flat tape (vm_tape): instructions over numbered slots with
 * slot reuse after last use.  A tape is evaluated over arrays of points in blocks, with no
 * allocation per point: the caller provides the work buffer (vm_tape_work_size doubles).
 *
 * Every function reports failure through a vm_status code; the parser also fills a vm_err with a
 * message that quotes the expression and the column.  All algorithms on graphs are iterative, so
 * deeply nested input cannot exhaust the C stack.
 *
 * Implementation, one concept per file: expr_graph.c (graph, hash-consing, simplifying
 * constructors, vm_op_*, vm_graph_eval1), expr_diff.c (vm_diff, vm_subst, vm_depends),
 * expr_parse.c (symbol table, lexer, parser: vm_symtab_*, vm_name_*, vm_parse), expr_tape.c
 * (vm_tape_*); the private header expr_impl.h holds what they share. */
#ifndef VM_EXPR_H
#define VM_EXPR_H

#include <stddef.h>
#include <stdint.h>

/* Operation codes of graph nodes and tape instructions (stable numbering: tapes are serialized). */
enum {
  VM_OP_CONST = 0, VM_OP_VAR,
  VM_OP_NEG, VM_OP_ADD, VM_OP_SUB, VM_OP_MUL, VM_OP_DIV, VM_OP_POW,
  VM_OP_SIN, VM_OP_COS, VM_OP_TAN, VM_OP_EXP, VM_OP_LOG, VM_OP_SQRT, VM_OP_ABS,
  VM_OP_SINH, VM_OP_COSH, VM_OP_TANH, VM_OP_ASIN, VM_OP_ACOS, VM_OP_ATAN, VM_OP_SIGN,
  VM_OP_ATAN2, VM_OP_MIN, VM_OP_MAX,
  VM_OP_POWI,      /* tape only: x^k for a small integer k (imm) */
  VM_OP_STORE,     /* tape only: copy slot a to output imm */
  VM_OP_ERFC,      /* erfc, internal (the parser has no name for it): the contacts' potential */
  VM_OP_COUNT
};

#define VM_EXPR_MAX_DEPTH 500        /* parser nesting limit (parentheses, unary operators) */
#define VM_EXPR_MAX_NODES 20000000   /* graph size limit */
#define VM_ERR_LEN 1024

typedef struct {
  int status;                  /* vm_status code, VM_OK when no error */
  int column;                  /* 1-based column of the error in the expression, 0 if none */
  char msg[VM_ERR_LEN];        /* complete message, quoting the expression */
} vm_err;

typedef struct {
  int op;
  int32_t a, b;                /* children (node ids); for VM_OP_VAR, a = variable index */
  double c;                    /* value of a VM_OP_CONST node */
} vm_node;

typedef struct vm_graph vm_graph;

vm_graph *vm_graph_new (int nvar);
void vm_graph_free (vm_graph *g);
int vm_graph_nvar (const vm_graph *g);
size_t vm_graph_size (const vm_graph *g);
const vm_node *vm_graph_node (const vm_graph *g, int32_t id);
/* A node limit below VM_EXPR_MAX_NODES (larger values are taken as VM_EXPR_MAX_NODES): a
 * constructor that would make the graph larger fails (-1, status VM_ENOMEM).  For callers that
 * bound the memory of a graph, and for tests of the failure paths. */
void vm_graph_set_max_nodes (vm_graph *g, size_t max_nodes);

/* Constructors.  Each returns a node id >= 0, or -1 after an allocation failure or when the graph
 * limit is reached (and then the graph's status is set: vm_graph_status).  Passing -1 as a child
 * returns -1, so a chain of constructors needs one check at its end. */
int vm_graph_status (const vm_graph *g);
int32_t vm_const (vm_graph *g, double c);
int32_t vm_var (vm_graph *g, int v);
int32_t vm_unary (vm_graph *g, int op, int32_t a);
int32_t vm_binary (vm_graph *g, int op, int32_t a, int32_t b);
/* Append node nd verbatim (no simplification; hash-consed like every node), for the loader of a
 * serialized graph (model_serial.h), which replays a saved graph node by node so that every id
 * is the saved one.  The caller has checked op, children and variable index.  Returns the node's
 * id (an existing one when nd equals an earlier node), or -1 (status set) when out of memory. */
int32_t vm_graph_push (vm_graph *g, const vm_node *nd);
int vm_op_arity (int op);          /* 0, 1 or 2; -1 for tape-only or invalid codes */
const char *vm_op_name (int op);   /* "sin", "+", ...; "?" when invalid */

/* d(node)/d(variable v), simplified.  Results are memoized per variable inside the graph. */
int32_t vm_diff (vm_graph *g, int32_t node, int v);

/* Replace variables by nodes: map[v] is the node standing for variable v, or -1 to keep it. */
int32_t vm_subst (vm_graph *g, int32_t node, const int32_t *map);

/* 1 when node depends on variable v. */
int vm_depends (vm_graph *g, int32_t node, int v);

/* Evaluate one node at one point (reference implementation, used by tests): x[nvar]. */
double vm_graph_eval1 (const vm_graph *g, int32_t node, const double *x);

/* ---- parser ------------------------------------------------------------------------------- */

/* Names the parser resolves: plain names -> variable index, and names that may appear inside
 * dot(...) -> velocity variable index.  Names not in the table and not a function, pi or a number
 * are errors.  The table copies the names. */
typedef struct vm_symtab vm_symtab;
vm_symtab *vm_symtab_new (void);
void vm_symtab_free (vm_symtab *s);
/* kind: a short word used in messages ("coordinate", "parameter", "time", "state", ...).
 * dotvar: variable index of its velocity, or -1 when dot(name) is not allowed. */
int vm_symtab_add (vm_symtab *s, const char *name, const char *kind, int var, int dotvar);
/* Refuse names of a given kind in the next parse (for example velocities in a contact function)
 * with the given reason; pass NULL to allow again. */
void vm_symtab_forbid_dot (vm_symtab *s, const char *reason);
void vm_symtab_forbid_kind (vm_symtab *s, const char *kind, const char *reason);

/* 1 when name is reserved by the language (function names, dot, pi, and the time variable t). */
int vm_name_reserved (const char *name);
/* 1 when name is a valid identifier: [A-Za-z][A-Za-z0-9_]* of at most 63 characters. */
int vm_name_valid (const char *name);

/* Parse text (context names the expression in messages, e.g. "lagrangian") into graph g.
 * Returns the node id, or -1 with err filled. */
int32_t vm_parse (vm_graph *g, const vm_symtab *s, const char *text, const char *context,
                  vm_err *err);

/* ---- tapes -------------------------------------------------------------------------------- */

typedef struct {
  int32_t op, dst, a, b;       /* slot numbers; for STORE, dst = -1 and imm = output index */
  double imm;                  /* constant value (CONST), exponent (POWI), output index (STORE) */
} vm_instr;

typedef struct {
  int nvar;                    /* inputs 0..nvar-1 */
  int nout;                    /* outputs 0..nout-1 */
  int nslot;                   /* work slots */
  int ninstr;
  vm_instr *code;              /* CONST/VAR instructions first (the prologue, nprologue of them) */
  int nprologue;
} vm_tape;

/* Compile outputs[0..nout-1] (node ids of g) into a tape.  Returns VM_OK or an error code. */
int vm_tape_compile (const vm_graph *g, int nout, const int32_t *outputs, vm_tape *tp);
void vm_tape_free (vm_tape *tp);

/* Check a tape received from outside (e.g. deserialized): op codes, slot and output ranges, every
 * slot written before it is read.  Returns VM_OK or VM_EARG. */
int vm_tape_validate (const vm_tape *tp);

/* Number of doubles of work memory vm_tape_eval needs (evaluation allocates nothing). */
size_t vm_tape_work_size (const vm_tape *tp);

/* Evaluate at npts points.  in[v] points to npts values of variable v when inc[v] = 1, or to a
 * single value broadcast to all points when inc[v] = 0.  out[k] receives npts values of output k
 * (out[k] may be NULL to discard it).  work: vm_tape_work_size doubles. */
int vm_tape_eval (const vm_tape *tp, size_t npts, const double *const *in, const int *inc,
                  double *const *out, double *work);

#endif
