/* ode_flow.h -- the flow of a compiled first-order system and its variational equations (plain C99).
 *
 * For a system xdot = F(t, x) without algebraic states (a vm_dual_ode with ng = 0 and nd = ny = n),
 * integrate x alone (variational = 0) or x together with the fundamental matrix Phi (n x n,
 * column-major after x: state[n + i + n j] = Phi_ij), Phi' = F_x(t, x) Phi, Phi(t0) = I
 * (variational = 1; F_x is the exact derivative of the compiled formulas).  Over a period T of a
 * periodic orbit Phi(T) is the monodromy matrix; its eigenvalues are the Floquet multipliers.
 * Method: DOP853 (integrate.h) with the caller's rtol and atol (the error control covers Phi too).
 *
 * Optional Poincare section (nsec = 1): the event g = a . x - b, crossings in direction dir (+1
 * rising, -1 falling, 0 both), located to 1e-13 max(1, |t|) on DOP853's 7th-order dense output and
 * recorded in sol (te, ye); never terminal.
 * Cost: DOP853's steps, each 12 evaluations of F (and of F_x Phi, n^3 more flops, with the
 * variational equations).  Why here: periodic_orbit checks an orbit found by the dual action
 * (dual_periodic.h) against the flow of the same compiled system, and its Floquet multipliers
 * need the exact F_x of that engine. */
#ifndef VM_ODE_FLOW_H
#define VM_ODE_FLOW_H

#include <stddef.h>

#include "dual/dual.h"
#include "reference/integrate.h"

typedef struct {
  double rtol, atol;       /* DOP853 tolerances (> 0) */
  int variational;         /* 0: x only; 1: x and Phi */
  int nsec;                /* 0: no section; 1: the section below */
  const double *sec_a;     /* n: the section's normal */
  double sec_b;            /* its offset */
  int sec_dir;             /* +1, -1 or 0 */
  long max_steps;          /* 0: integrate.h's default */
} vm_ode_flow_opts;

/* Integrate from (t0, x0) to tf; tout/ntout as in vm_ode_solve (NULL: every step).  e: the compiled
 * system (ng = 0, nd = ny).  sol: initialized by vm_ode_sol_init; its state dimension is n, or
 * n + n^2 with the variational equations.  Returns the status of vm_ode_solve, or VM_EARG (a system
 * with algebraic states, NULL arguments, tolerances not > 0, a section without a normal) or
 * VM_ENOMEM. */
int vm_ode_flow (vm_dual_ode *e, double t0, double tf, const double *x0, const double *tout,
                 size_t ntout, const vm_ode_flow_opts *opts, vm_ode_sol *sol);

#endif
