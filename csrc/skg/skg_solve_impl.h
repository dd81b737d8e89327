/* skg_solve_impl.h -- the pieces of vm_skg_solve (skg_solve.h), private to its files: the Newton
 * system of a window (skg_system.c) and one order of the action as a march action
 * (skg_action.c); the driver is skg_solve.c (plain C99).
 */
#ifndef VM_SKG_SOLVE_IMPL_H
#define VM_SKG_SOLVE_IMPL_H

#include <stdint.h>

#include "skg/skg_solve.h"
#include "skg/skg.h"
#include "skg/contact_check.h"
#include "march/march.h"
#include "reference/mech_points.h"

/* The Newton system of one window: the action, and in reduced mode the maps between the reduced
 * and the full unknowns, the reduced pattern and the plan that scatters the Hessian into it. */
typedef struct
{
  vm_skg *s;
  double *grad;          /* nz */
  /* reduced mode */
  double *z;             /* nz: full point, q- = lambda- = 0 */
  int64_t nr;            /* reduced unknowns */
  int64_t *plus;         /* nr: full index of reduced unknown r (q+ / lambda+) */
  int64_t *minus;        /* nr: full index of reduced equation r (q- / lambda-) */
  int64_t *rcp, *rri;    /* reduced CSC pattern */
  int64_t rnnz;
  vm_skg_plan plan;      /* Hessian contributions -> reduced Jacobian slots */
  int plan_ok;
  const double *xs;      /* NULL, or the scales of the solver's unknowns (reduced: nr, full: nz):
                            the solver's x is the action's unknowns divided by them (skg_act:
                            act_scales) */
} skg_ctx;

/* F and J of the full system (x: all unknowns, scaled by c->xs when set); the status of the
 * action's evaluation. */
int skg_full_F (const double *x, double *F, void *ctx);
int skg_full_J (const double *x, double *Jx, void *ctx);
/* F and J of the reduced system (y: q+, lambda+ per node). */
int skg_red_F (const double *y, double *F, void *ctx);
int skg_red_J (const double *y, double *Jx, void *ctx);
/* The action's unknowns z (in c->z) from the solver's x: full mode, z = x .* xs (returns x itself
 * without scales); reduced mode, q+ and lambda+ from y, q- = lambda- = 0. */
const double *skg_full_point (skg_ctx *c, const double *x);
void skg_red_point (skg_ctx *c, const double *y);
/* The reduced maps, pattern and plan (c->s built).  VM_OK, VM_ENOMEM or the build's status. */
int skg_red_build (skg_ctx *c);
/* Free what skg_red_build and the callbacks allocated; c zeroed. */
void skg_ctx_free (skg_ctx *c);

/* One order of the discrete action on a window of N nodes.  The trajectory of a window has, per
 * node, q+ (n), the scheme velocity Da q+ (n) and lambda+ (m), the raw multiplier of the action;
 * with holonomic constraints (q+, Da q+) are projected onto the constraints (mech_points.h; a
 * failed projection leaves them as they are, for the error estimate to judge);
 * the state passed on is (q+, Da q+) at the last node, so the next window's momentum SAT
 * p_i = dL/dqdot(q_i, v_i) equals the previous p+_N (skg_solve.h). */
typedef struct
{
  vm_march_action act;
  const vm_mech *model;
  const double *par;
  vm_mech_points *pts;     /* NULL, or the projector onto holonomic constraints (shared) */
  int mode, eom_residual, built;
  vm_skg s;
  skg_ctx c;
  double *wt, *f0;
  double *xs;              /* the unknowns' scales (skg_ctx.xs; act_scales) */
  double *xoff;            /* the unknowns' origin for Newton's rounding level (newton.h
                              x_offset): q+ entries the window's initial position / xs, else 0 */
  unsigned char *orow;     /* the equations evaluated at the positions without differencing
                              them (newton.h offset_rows): the constraints' (lambda-) rows */
  double *rw;              /* 2 nb: the residual weight of each component's equation, then the
                              scale of each component's unknown (act_scales) */
  double mscale;           /* the mass scale of the model (vm_skg_solve: max |M_ij| at the
                              initial state, else 1): the equations of motion and the
                              multipliers are measured per unit of it */
  const double *gscale;    /* m: the constraints' scales max_j |A_aj| at the initial state, and */
  const int *hol;          /* m: 1 for a holonomic constraint (vm_mech_points_constraint_scales;
                              NULL: 1 and 0) */
  /* diagnostics of the last extract, and their maxima over the accepted windows */
  double last_qm, last_lm, last_grad;
  double max_qm, max_lm, max_grad;
  double t_build;
  long ntape;
  double t_tape, t_hess;
  vm_contact_check cc;   /* the contacts' resolution check (main order only; built at first use) */
  int cc_ok;
} skg_act;

/* An action of the given order on N nodes per window, not yet built (the first move builds it).
 * Cannot fail. */
void skg_act_init (skg_act *A, const vm_mech *model, const double *par, int order, int64_t N,
                   int mode, int eom_residual);
/* Free the action; A zeroed. */
void skg_act_free (skg_act *A);

#endif
