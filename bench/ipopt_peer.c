/* ipopt_peer.c -- the IPOPT peer of the SKG solver (issue 15; bench/README_skg.md, "IPOPT peer").
 *
 * The seeds of the SKG papers solved the discrete action's stationarity with IPOPT (through
 * Mathematica's FindMinimum).  This program solves the SAME discrete system as vm_skg_solve in
 * reduced mode (csrc/skg/skg_solve.h): unknowns y = per node [q+ (n), lambda+ (m)], equations
 * dS/dq- = 0, dS/dlambda- = 0 at q- = lambda- = 0, N (n + m) of each.  The equations and their
 * exact sparse Jacobian, the block d2S / d(q-, lambda-) d(q+, lambda+) of the action's Hessian,
 * come from csrc by the same code as skg_solve's (vm_skg_eval_reduced, skg_reduced.h); the
 * block's CSC pattern is given to IPOPT as triplets, column by column.
 *
 * IPOPT formulation: a feasibility problem, objective f = 0, equality constraints
 * c(y) = the reduced gradient = 0 (g_L = g_U = 0), no bounds; Jacobian = the exact Hessian block;
 * Hessian of the Lagrangian: 'limited-memory' (default; the exact one needs third derivatives of
 * S), or with HESS=zero the exact Hessian of the objective (0) with the constraint curvature
 * dropped (nele_hess = 0), which makes IPOPT's step a Newton step of c(y) = 0.  Linear solver:
 * MUMPS, as Debian builds coinor-libipopt-dev.
 *
 * Start (both solvers): skg_solve's default for one window (q_guess = NULL, the 'marching'
 * prediction of the first window): q+ = q_i + v_i (t - t0) at every node, lambda+ = 0.
 * Tolerance: skg_solve is run first with its defaults; its final residual (||c||_inf, the
 * reduced gradient at its solution) is IPOPT's constr_viol_tol and tol, so both stop at the same
 * residual (the achieved residuals are printed, evaluated by the same code).  When that residual
 * is below IPOPT's own rounding floor (IPOPT stops with Search_Direction_Becomes_Too_Small, status
 * 3, above it: the tumbler, 1.2e-13 against 1.5e-13), IPOPT's tolerance is 1.01 times the
 * residual it reached, so that it is not timed on iterations that cannot succeed.
 *
 * Timing: k repetitions, alternating (skg, ipopt, skg, ipopt, ...), in one process; each
 * repetition builds everything from the compiled model (skg: vm_skg_solve; ipopt: vm_skg_build,
 * the pattern conversion, CreateIpoptProblem, the options and IpoptSolve).  Ratio = t_ipopt /
 * t_skg pair by pair; min / median / max printed, the target (>= 10) read on the median, as
 * farm-bench's figures and bench_skg's fsolve rows are (until 2026-11-28 on the smallest pair:
 * one pair slowed by another job decided it).
 *
 * Usage: ipopt_peer [K [HESS]]   K repetitions (default 7), HESS = lbfgs (default) | zero | both
 * Build: make ipopt_peer (needs coinor-libipopt-dev); run all: make bench-ipopt.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <IpStdCInterface.h>

#include "skg_reduced.h"

/* ---- IPOPT callbacks ---------------------------------------------------------------------------- */

static Bool
cb_f (Index n, Number *x, Bool new_x, Number *obj, UserDataPtr ud)
{
  (void) n; (void) x; (void) new_x; (void) ud;
  *obj = 0.0;
  return TRUE;
}

static Bool
cb_grad_f (Index n, Number *x, Bool new_x, Number *g, UserDataPtr ud)
{
  (void) x; (void) new_x; (void) ud;
  memset (g, 0, (size_t) n * sizeof *g);
  return TRUE;
}

static Bool
cb_g (Index n, Number *x, Bool new_x, Index m, Number *g, UserDataPtr ud)
{
  (void) n; (void) new_x; (void) m;
  return red_F (ud, x, g) ? TRUE : FALSE;
}

static Bool
cb_jac_g (Index n, Number *x, Bool new_x, Index m, Index nele, Index *iRow, Index *jCol,
          Number *values, UserDataPtr ud)
{
  red *R = ud;
  (void) n; (void) new_x; (void) m; (void) nele;
  if (! values)
    {
      memcpy (iRow, R->irow, (size_t) R->nnzj * sizeof *iRow);
      memcpy (jCol, R->jcol, (size_t) R->nnzj * sizeof *jCol);
      return TRUE;
    }
  return red_J (R, x, values) ? TRUE : FALSE;
}

static Bool
cb_h (Index n, Number *x, Bool new_x, Number obj_factor, Index m, Number *lambda,
      Bool new_lambda, Index nele, Index *iRow, Index *jCol, Number *values, UserDataPtr ud)
{
  (void) n; (void) x; (void) new_x; (void) obj_factor; (void) m; (void) lambda;
  (void) new_lambda; (void) nele; (void) iRow; (void) jCol; (void) values; (void) ud;
  return TRUE;   /* zero mode: no entries (nele_hess = 0) */
}

typedef struct {
  int status, iter;
  double time, finf, fw;
} ipopt_res;

static int g_iter;
static Bool
cb_iter (Index alg_mod, Index iter, Number obj, Number inf_pr, Number inf_du, Number mu,
         Number d_norm, Number reg, Number alpha_du, Number alpha_pr, Index ls, UserDataPtr ud)
{
  (void) alg_mod; (void) obj; (void) inf_pr; (void) inf_du; (void) mu; (void) d_norm;
  (void) reg; (void) alpha_du; (void) alpha_pr; (void) ls; (void) ud;
  g_iter = iter;
  return TRUE;
}

/* one IPOPT solve from scratch (build the action too); y receives the solution */
static ipopt_res
run_ipopt (const problem *P, int order, int zero_hess, double tol, int print, double *y)
{
  ipopt_res r;
  red R;
  double t = vm_wall_time (), *xl, *xu, *gl, *gu;
  IpoptProblem nlp;
  int64_t i;
  memset (&r, 0, sizeof r);
  if (red_build (&R, P, order))
    {
      r.status = -999;
      return r;
    }
  xl = malloc ((size_t) R.ny * sizeof *xl); xu = malloc ((size_t) R.ny * sizeof *xu);
  gl = calloc ((size_t) R.ny, sizeof *gl); gu = calloc ((size_t) R.ny, sizeof *gu);
  for (i = 0; i < R.ny; i++)
    {
      xl[i] = -1e20;
      xu[i] = 1e20;
    }
  nlp = CreateIpoptProblem ((Index) R.ny, xl, xu, (Index) R.ny, gl, gu, (Index) R.nnzj,
                            0, 0, cb_f, cb_g, cb_grad_f, cb_jac_g, cb_h);
  AddIpoptIntOption (nlp, "print_level", print);
  AddIpoptStrOption (nlp, "sb", "yes");
  AddIpoptStrOption (nlp, "hessian_approximation", zero_hess ? "exact" : "limited-memory");
  AddIpoptStrOption (nlp, "linear_solver", "mumps");
  AddIpoptNumOption (nlp, "tol", tol);
  AddIpoptNumOption (nlp, "constr_viol_tol", tol);
  AddIpoptIntOption (nlp, "max_iter", 500);
  SetIntermediateCallback (nlp, cb_iter);
  red_start (&R, P, y);
  g_iter = -1;
  r.status = IpoptSolve (nlp, y, NULL, NULL, NULL, NULL, NULL, &R);
  r.iter = g_iter;
  FreeIpoptProblem (nlp);
  r.time = vm_wall_time () - t;
  red_norms (&R, y, &r.finf, &r.fw);
  free (xl); free (xu); free (gl); free (gu);
  red_free (&R);
  return r;
}

typedef struct {
  int status, iter;
  double time;
  vm_skg_solution sol;
} skg_res;

static void
run_skg (problem *P, int order, skg_res *r)
{
  vm_skg_solve_opts o;
  double t = vm_wall_time ();
  vm_skg_solve_opts_init (&o);
  o.mode = VM_SKG_REDUCED;
  o.order = order;
  o.N = P->N;
  o.windows = 1;
  o.t0 = P->t0;
  o.tf = P->tf;
  r->status = vm_skg_solve (&P->m, P->par, P->qi, P->vi, &o, &r->sol);
  r->time = vm_wall_time () - t;
  r->iter = r->sol.iterations;
}

static int
cmpd (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
one (problem *P, int K, int zero_hess)
{
  const int order = 4;
  skg_res s;
  ipopt_res ip;
  red R;
  double *ys, *yi, sinf, sw, tol, *ratio, *ts, *ti, dq = 0;
  int k;
  int64_t i;
  vm_skg_solution_init (&s.sol);
  red_build (&R, P, order);
  ys = malloc ((size_t) R.ny * sizeof *ys);
  yi = malloc ((size_t) R.ny * sizeof *yi);
  ratio = malloc ((size_t) K * sizeof *ratio);
  ts = malloc ((size_t) K * sizeof *ts);
  ti = malloc ((size_t) K * sizeof *ti);
  /* the package's solve (defaults), its residual in the same measure as IPOPT's */
  run_skg (P, order, &s);
  red_from_solution (&R, &s.sol, P->N, ys);
  red_norms (&R, ys, &sinf, &sw);
  tol = sinf;
  ip = run_ipopt (P, order, zero_hess, tol, 0, yi);
  if (ip.status == 3 && ip.finf > tol)
    {
      /* Search_Direction_Becomes_Too_Small: skg's residual is below IPOPT's rounding floor here;
       * IPOPT is asked for the residual it reaches, not for iterations that cannot reach ours */
      tol = 1.01 * ip.finf;
      ip = run_ipopt (P, order, zero_hess, tol, 0, yi);
    }
  for (i = 0; i < R.ny; i++)
    dq = fmax (dq, fabs (yi[i] - ys[i]));
  for (k = 0; k < K; k++)
    {
      run_skg (P, order, &s);
      ts[k] = s.time;
      ip = run_ipopt (P, order, zero_hess, tol, 0, yi);
      ti[k] = ip.time;
      ratio[k] = ti[k] / ts[k];
    }
  qsort (ratio, (size_t) K, sizeof *ratio, cmpd);
  qsort (ts, (size_t) K, sizeof *ts, cmpd);
  qsort (ti, (size_t) K, sizeof *ti, cmpd);
  printf ("%-19s %5ld %-6s | %9.4f %3d %2d %8.1e %8.1e | %9.4f %4d %3d %8.1e %8.1e | %8.1e | %7.1f %7.1f %7.1f %s\n",
          P->name, (long) P->N, zero_hess ? "zero" : "lbfgs", ts[K / 2], s.iter, s.status == VM_OK,
          sinf, sw, ti[K / 2], ip.iter, ip.status, ip.finf, ip.fw, dq, ratio[0], ratio[K / 2],
          ratio[K - 1], ratio[K / 2] >= 10 ? "met" : "not met");
  fflush (stdout);
  vm_skg_solution_free (&s.sol);
  red_free (&R);
  free (ys); free (yi); free (ratio); free (ts); free (ti);
}

int
main (int argc, char **argv)
{
  int K = argc > 1 ? atoi (argv[1]) : 7, h, hlo = 0, hhi = 0;
  const char *hess = argc > 2 ? argv[2] : "lbfgs";
  problem P[3];
  int p;
  if (K < 1)
    K = 1;
  if (! strcmp (hess, "zero"))
    hlo = hhi = 1;
  else if (! strcmp (hess, "both"))
    hhi = 1;
  if (build_disk (&P[0], 64) || build_disk (&P[1], 1024) || build_tumbler (&P[2], 256, 1.0 / 30))
    return 1;
  printf ("IPOPT peer: reduced SKG, order 4, one window; K = %d alternating pairs; times median [s]\n"
          "IPOPT status 0 = Solve_Succeeded, 1 = Solved_To_Acceptable_Level; |F| = reduced gradient, "
          "inf-norm and H-weighted 2-norm\n", K);
  printf ("%-19s %5s %-6s | %9s %3s %2s %8s %8s | %9s %4s %3s %8s %8s | %8s | %7s %7s %7s %s\n",
          "problem", "N", "hess", "skg [s]", "it", "ok", "|F|inf", "|F|W", "ipopt[s]", "it", "st",
          "|F|inf", "|F|W", "max dy", "r min", "r med", "r max", "(>= 10x)");
  for (h = hlo; h <= hhi; h++)
    for (p = 0; p < 3; p++)
      one (&P[p], K, h);
  for (p = 0; p < 3; p++)
    vm_mech_free (&P[p].m);
  return 0;
}
