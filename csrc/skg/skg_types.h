/* skg_types.h -- the data of the discrete SKG action (skg.h): the action itself (vm_skg: grid,
 * operator, compiled tapes, work arrays) and a plan of where its Hessian contributions go in a
 * target matrix (vm_skg_plan).  Apart from skg.h so that the files that build plans and patterns
 * (skg_plan.c, skg_pattern.c, skg_static.c) need the data and nothing of skg.c.  Plain C99. */
#ifndef VM_SKG_TYPES_H
#define VM_SKG_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "model/expr.h"
#include "model/model.h"
#include "sbp/sbp.h"

/* Where each Hessian contribution of the discrete action goes in a target sparse matrix: the
 * full Hessian pattern (vm_skg_eval) or any matrix whose unknowns are node-major with tb per node
 * (e.g. skg_solve's reduced Jacobian).  Built once with the pattern (vm_skg_plan_build): at
 * "regular" nodes -- those whose Ds stencil and target columns are the reference node's shifted --
 * a contribution's slot is tcp[k tb + rel] + off with (rel, off) from one table for all of them;
 * the few other nodes (the SBP boundary closures) and the boundary term get explicit slots.  No
 * search during the evaluation; O(N) memory only for the node flags. */
/* The point term whose Hessian a plan scatters (vm_skg_plan_build): the density tape of the full
 * action (vm_skg_eval, vm_skg_eval_plan) or the reduced tape (vm_skg_eval_reduced). */
enum { VM_SKG_TERM_FULL = 0, VM_SKG_TERM_REDUCED = 1 };

typedef struct {
  int term;                     /* VM_SKG_TERM_FULL or VM_SKG_TERM_REDUCED */
  int tb;                       /* target unknowns per node */
  int64_t nt;                   /* target order N tb */
  const int64_t *tcp, *tri;     /* the target pattern (CSC, sorted rows; not owned) */
  int *rc, *cc;                 /* nb: target component of z-component c as a row / a column (-1) */
  unsigned char *eskip;         /* nhs: density Hessian entries with no target contributions */
  int64_t kref;                 /* the reference node */
  int64_t lref;                 /* its Ds row length */
  int64_t *dref;                /* lref: Ds column offsets dsj - kref of the reference row */
  int64_t ncon;                 /* contributions of a regular node (density term) */
  int64_t *rel1, *off1;         /* ncon: direct contribution: target column - k tb, offset in it */
  int64_t *rel2, *off2;         /* ncon: transposed contribution (off < 0: none) */
  int64_t *row1, *row2;         /* ncon: target row - k tb (to check the other nodes at build) */
  int64_t *xstart;              /* N: -1 at regular nodes, else the start of the node's slots */
  int64_t *xslot;               /* 2 per contribution of each irregular node (-1: none) */
  int64_t *bslot;               /* boundary term at node 0, then at node N-1: 2 per contribution */
  int64_t nbcon[2];             /* boundary contributions at node 0 and N-1 */
  int64_t nirregular;           /* irregular nodes */
  /* the static part (reduced term only; skg_static.c): the Hessian entries that depend on no
   * point variable (a constant mass matrix: most of the contributions of a mechanical system)
   * summed once per window into the tb columns of node kref (tmpl, ntmpl values), which are
   * then copied to every column of nodes kc_lo .. kc_hi-1, where all contributors are interior
   * nodes with kref's weight, stencil and column pattern; the nodes ks_lo .. ks_hi-1 contribute
   * to those columns only and skip the static entries */
  unsigned char *edyn, *estat;  /* nh: entries to skip in the dynamic and in the static pass */
  int64_t kc_lo, kc_hi, ks_lo, ks_hi;
  int64_t tc_lo, tc_hi;         /* the nodes whose contributions reach node kref's columns */
  double *tmpl;
  int64_t ntmpl;
  long tmpl_window;             /* s->window tmpl was made for; -1: none */
} vm_skg_plan;

typedef struct {
  int n, m, np, nb;            /* coordinates, constraints, parameters, unknowns per node */
  int64_t N, nz;               /* grid points, unknowns */
  int order;
  double t0, tf;
  vm_sbp op;
  double *hw;                  /* N: diagonal of H */
  double *t;                   /* N: grid */
  int64_t *dsp, *dsj;          /* Ds in compressed-row form: row k has dsj[dsp[k]..dsp[k+1]-1] */
  double *dsv;
  double *qi, *vi, *pi, *par;  /* n, n, n, np */
  double *qo;                  /* n: the origin of the q+ unknowns, z holds q+ - qo
                                  (vm_skg_set_origin; 0 after vm_skg_build) */
  /* symbolic part */
  vm_graph *g;                 /* private graph: model variables, then the point variables */
  int base;                    /* graph index of the point variable t */
  int na;                      /* active point variables: q+ q- v+ v- (n each) lambda+ lambda- (m) */
  vm_tape ts, tb;              /* density s and boundary term b = -q- . p+ */
  int nhs, nhb;                /* structural Hessian nonzeros (lower triangle) of s and of b */
  int *hsr, *hsc, *hbr, *hbc;  /* their (row, col) in active point-variable numbering, row >= col */
  int32_t sfun;                /* graph node of the density s */
  /* the reduced density tape (vm_skg_reduced_init; NULL / 0 until then): at q- = v- = lambda- = 0,
   * the gradient in the minus variables and the Hessian's (minus, plus) block, nothing else */
  vm_tape tr;
  int tr_ok;
  int ngr, *grv;               /* ngr = 2 n + m gradient outputs: active variable of output i */
  int nhr, *hrr, *hrc;         /* its Hessian entries: (minus variable, plus variable) */
  unsigned char *hrs;          /* nhr: 1 when entry e depends on no point variable (nor t) */
  double *outr, **outpr;       /* its outputs (N each) and their pointers */
  /* Hessian pattern of S (full, CSC, sorted rows; NULL and 0 until vm_skg_full_pattern) */
  int64_t nnz;
  int64_t *colptr, *rowind;
  /* work */
  double *x, *out, *xb, *outb, *work;
  const double **in, **inb;
  int *inc, *incb;
  double **outp, **outpb;
  double zero;
  int32_t *pl;                 /* n: graph nodes of dL/dqdot at the point (q+, v+) */
  vm_skg_plan full;            /* the plan of the full Hessian pattern (built at the first use) */
  int full_ok;
  double *zlast;               /* nz: the point of the last tape evaluation */
  int zlast_ok;                /* zlast and the tape outputs (x, out or outr, xb, outb) are valid */
  int zlast_term;              /* ... of this term: VM_SKG_TERM_FULL (out) or _REDUCED (outr) */
  long window;                 /* vm_skg_set_window calls (the plans' static parts follow it) */
  /* statistics of vm_skg_eval (wall-clock seconds) */
  long ntape;                  /* evaluations of the density tape */
  double t_tape, t_grad, t_hess;  /* in the tapes, the gradient and the Hessian assembly */
} vm_skg;

#endif
