/* model.h -- mechanical systems and first-order systems compiled to tapes (plain C99).
 *
 * A mechanical system (vm_mech) has coordinates q (n), parameters p (np), a Lagrangian L(t,q,qdot),
 * optional generalized forces F(t,q,qdot) (n), equality constraints g(t,q,qdot) (m) and contacts
 * (inequalities h(q) >= 0 with a regularized normal force and Coulomb friction, added to F).
 * A first-order system (vm_ode) has states y (ny), parameters, right-hand sides ydot_i = F_i(t,y)
 * for the first nd states and algebraic equations G(t,y) = 0 (na = ny - nd, or any na >= 0 for a
 * "nonsquare" system, e.g. the Pars system of Acharya & Sengupta, underdetermined on purpose).
 *
 * Both are parsed into one expression graph whose variables have a fixed layout (below); every
 * derivative the solvers need is built symbolically in that graph and compiled into blocks: a block
 * is one tape plus the placement of each tape output in named per-point fields (arrays of shape
 * dim[0] x dim[1] at every point).  Parameter values are inputs of the tapes, so changing a value
 * needs no recompilation.  Solvers that need other derived quantities (the SKG and dual actions)
 * build them from the graph and the root nodes with vm_diff / vm_subst and compile their own tapes.
 *
 * Variable layout (vm_mech): t | q (n) | qdot (n) | p (np) | lambda (m) | w (n)
 *   lambda weights the constraint Hessian (sum_a lambda_a g_a), w the force Hessian (w . F).
 * Variable layout (vm_ode):  t | y (ny) | p (np) | wF (nd) | wG (na). */
#ifndef VM_MODEL_H
#define VM_MODEL_H

#include "model/expr.h"

/* ---- blocks ---------------------------------------------------------------------------------- */

#define VM_FIELD_NAME 24

typedef struct {
  char name[VM_FIELD_NAME];
  int dim[2];                  /* per-point shape; scalars are 1 x 1, vectors k x 1 */
} vm_field;

typedef struct {
  vm_tape tape;
  int nfield;
  vm_field *field;
  int32_t *out_field;          /* per tape output: its field ... */
  int32_t *out_index;          /* ... and its column-major index in the per-point shape */
} vm_block;

void vm_block_free (vm_block *b);
/* Check a block received from outside: the tape (vm_tape_validate) and the output placement. */
int vm_block_validate (const vm_block *b);

/* Evaluate a block at npts points.  in[v], inc[v]: as vm_tape_eval.  fields[f] points to a
 * array of npts * dim[0] * dim[1] doubles laid out "points first": entry (i, j) of the per-point
 * shape at point k is fields[f][k + npts * (i + dim[0] * j)].  Every entry is written (structural
 * zeros with 0), so the arrays need no initialization.  fields[f] may be NULL to skip a field. */
int vm_block_eval (const vm_block *b, size_t npts, const double *const *in, const int *inc,
                   double *const *fields, double *work);

/* Building a block: fields, then outputs (node, field, entry); outputs that are the constant 0 are
 * dropped (structural zeros).  vm_builder_finish compiles the tape and releases the builder. */
typedef struct {
  vm_graph *g;
  vm_field *field;
  int nfield, fcap;
  int32_t *node, *of, *oi;
  int nout, ocap;
  int status;
} vm_builder;

void vm_builder_init (vm_builder *b, vm_graph *g);
int vm_builder_field (vm_builder *b, const char *name, int d0, int d1);   /* field index */
void vm_builder_out (vm_builder *b, int f, int i, int j, int32_t node);
int vm_builder_finish (vm_builder *b, vm_block *blk);
/* Outputs (i, j) of field f (n x n): the Hessian d2 e / dx_i dy_j for the variable ranges
 * x = vx.., y = vy..; sym = 1 when the ranges coincide (lower triangle computed, mirrored). */
void vm_builder_hess (vm_builder *b, int f, int32_t e, int vx, int vy, int n, int sym);

/* ---- mechanical systems ---------------------------------------------------------------------- */

typedef struct {
  const char *h;               /* gap function h(q, p) >= 0 */
  const char *sigma;           /* width of the Gaussian regularization (expression in p) */
  const char *V0;              /* barrier height (expression in p) */
  const char *mu;              /* kinetic friction coefficient (expression in p) */
  const char *epsv;            /* slip speed below which friction is smoothed (expression in p) */
} vm_contact_desc;

/* The resolution of a contact's layer, shared by the solvers that check it (skg_solve's window
 * check, contact_check.h; gauss_integrate's step check, motion.h): the Gaussian normal force acts
 * within VM_CONTACT_LAYER sigma of h = 0 (beyond it it is below 1.5e-8 of its peak), and inside
 * that layer h may change by at most VM_CONTACT_RES sigma between two samples. */
#define VM_CONTACT_LAYER 6.0
#define VM_CONTACT_RES 1.0

typedef struct {
  int n;
  const char *const *coord;
  int np;
  const char *const *param;
  const char *lagrangian;
  int nforce;                  /* 0 (no forces) or n */
  const char *const *force;
  int ncons;
  const char *const *cons;
  int ncontact;
  const vm_contact_desc *contact;
} vm_mech_desc;

enum { VM_MECH_LAGRANGIAN = 0, VM_MECH_FORCES, VM_MECH_CONSTRAINTS, VM_MECH_EOM, VM_MECH_CONTACTS,
       VM_MECH_NBLOCKS };

typedef struct {
  int n, np, m, nc;
  int vt, vq, vqd, vp, vlam, vw, nvar;   /* variable layout */
  vm_graph *g;
  int32_t L;                   /* root nodes */
  int32_t *F;                  /* n: user forces plus contact forces */
  int32_t *gc;                 /* m: constraints */
  int32_t *h;                  /* nc: gap functions */
  int32_t *FN, *FR;            /* nc x n (row-major by contact): normal and friction forces */
  int32_t *hdot;               /* nc: dh/dt = grad h . qdot */
  int32_t *sigma;              /* nc: the width of the Gaussian regularization (expression in p) */
  int32_t *mu;                 /* nc: the friction coefficient (expression in p) */
  int32_t *U;                  /* nc: the contact potential V0/2 erfc(h/(sqrt(2) sigma)), whose
                                  -grad is FN (the energy the normal force stores) */
} vm_mech;

/* Parse and check a system.  On error returns a status, fills err (message quotes the expression
 * and names it, e.g. "constraint 2") and leaves *out empty.  Counted by vm_model_compiles. */
int vm_mech_build (const vm_mech_desc *d, vm_mech *out, vm_err *err);
/* The counts and the variable layout of m (above) for these sizes; nothing is allocated. */
void vm_mech_layout (vm_mech *m, int n, int np, int ncons, int ncontact);
void vm_mech_free (vm_mech *m);
/* Compile one block (VM_MECH_*). */
int vm_mech_block (vm_mech *m, int kind, vm_block *b);
const char *vm_mech_block_name (int kind);

/* ---- first-order systems --------------------------------------------------------------------- */

typedef struct {
  int ny;
  const char *const *state;
  int np;
  const char *const *param;
  int nd;                      /* number of right-hand sides: ydot_i = rhs_i for i < nd */
  const char *const *rhs;
  int na;                      /* algebraic equations; nd + na == ny unless nonsquare */
  const char *const *alg;
  int nonsquare;               /* nonzero: any number of algebraic equations (the states after the
                                  differential ones need not be as many as the equations: the dual
                                  action's potential H selects a solution) */
} vm_ode_desc;

enum { VM_ODE_SYSTEM = 0, VM_ODE_NBLOCKS };

typedef struct {
  int ny, np, nd, na;
  int vt, vy, vp, vwf, vwg, nvar;
  vm_graph *g;
  int32_t *F, *G;
} vm_ode;

/* Parse and check a first-order system (as vm_mech_build; counted by vm_model_compiles). */
int vm_ode_build (const vm_ode_desc *d, vm_ode *out, vm_err *err);
/* The counts and the variable layout of o for these sizes; nothing is allocated. */
void vm_ode_layout (vm_ode *o, int ny, int np, int nd, int na);
/* The system with the period as a state, for periodic orbits (ode_period.c): from o, an ODE
 * (no algebraic states or equations), aug has the states y and P (last) and the right-hand sides
 * P F_i(t, y) and 0, built from o's graph without parsing.  VM_OK, VM_EARG (o not an ODE) or
 * VM_ENOMEM; aug is empty unless VM_OK. */
int vm_ode_period (const vm_ode *o, vm_ode *aug);
void vm_ode_free (vm_ode *o);
int vm_ode_block (vm_ode *o, int kind, vm_block *b);

/* ---- compilations ---------------------------------------------------------------------------- */

/* The number of calls of vm_mech_build and vm_ode_build (the parse of the text and its checks)
 * in this copy of the library since it was loaded: a solver that loads the compiled model
 * (model_serial.h) adds none, which tests assert through the gateways. */
long vm_model_compiles (void);

#endif
