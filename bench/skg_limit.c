/* skg_limit.c -- a Newton iteration of the SKG solver against the physical limit of its linear
 * algebra: one LAPACK dgbtrf of the same matrix (issue 15; bench/README_skg.md, "The physical
 * limit").
 *
 * For the disk of bench_skg (rolling disk, linear constraint form, order 4, t in [0, 2 pi]) at N
 * nodes in one window:
 *   1. vm_skg_solve with its defaults (reduced mode, LinearSolver auto, Guess: the marching
 *      prediction) from the compiled model, R times (the fastest solve is reported: a single
 *      millisecond solve in a fresh process varies 3-fold): end-to-end time, Newton iterations,
 *      factorizations, the kernel's split (sol.t_fun, t_jac, t_symbolic, t_numeric, t_solve), and
 *      the process's peak resident memory after the first solve (VmHWM of /proc/self/status, Linux; -1 elsewhere).  A
 *      Newton iteration's time is (t_fun + t_jac + t_symbolic + t_numeric + t_solve) / it: the
 *      residuals with their line search, the Jacobians, the factorizations (with the band's fill
 *      and, for the first, the first touch of its pages) and the solves.
 *   2. The reduced Jacobian at the solution (bench/skg_reduced.h: the block of the exact Hessian
 *      that the solver factors), in LAPACK's band storage (LDAB = 2 kl + ku + 1, kl and ku from
 *      its pattern), and dgbtrf of it: once cold (fresh pages), then max(R, 3) times warm (the
 *      band refilled outside the timing, the minimum taken).  The limit is the warm dgbtrf: the
 *      factorization alone, with no evaluation, fill, page fault or solve.
 * Printed: one line per N, "ratio" = Newton time per iteration / warm dgbtrf (target <= 1.5),
 * and newton_first, ratio_first: those of the first solve, whose arrays are all touched for the
 * first time (on the CI's virtual machines the first solve at 2^18 after a pause took 3.2 s per
 * iteration against 1.2-1.3 s in the next runs: the host backs the memory again,
 * bench/README_dual.md, "the fifth session of 2026-11-28").
 *
 * Usage: skg_limit N [R]   (R solves and warm dgbtrf repetitions, default 3)
 * Build: make skg_limit; run: make bench-skg (part c of bench_skg calls it per N). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>

#include "proc_hwm.h"
#include "skg_reduced.h"

extern void dgbtrf_ (const int *m, const int *n, const int *kl, const int *ku, double *ab,
                     const int *ldab, int *ipiv, int *info);

/* the band (unscaled) of the triplets (irow, jcol, v) in LAPACK's storage, rows kl .. ldab-1 */
static void
band_fill (double *ab, int n, int kl, int ku, int ldab, const red *R, const double *v)
{
  int64_t p;
  memset (ab, 0, (size_t) n * (size_t) ldab * sizeof *ab);
  for (p = 0; p < R->nnzj; p++)
    ab[(size_t) (kl + ku + R->irow[p] - R->jcol[p]) + (size_t) R->jcol[p] * (size_t) ldab] = v[p];
}

int
main (int argc, char **argv)
{
  const int order = 4;
  int64_t N = argc > 1 ? atol (argv[1]) : 1024, p;
  int reps = argc > 2 ? atoi (argv[2]) : 3, kl = 0, ku = 0, ldab, n, info, r, it;
  problem P;
  red R;
  vm_skg_solve_opts o;
  vm_skg_solution sol;
  double t, t_e2e, t_newton, t_num, t_sol, t_cold, t_warm = 1e300, t_first = 0, *y, *v, *ab;
  int *ipiv;
  long hwm = -1;
  if (N < 16 || reps < 1)
    {
      fprintf (stderr, "usage: skg_limit N [R]  (N >= 16, R >= 1)\n");
      return 2;
    }
  if (build_disk (&P, N))
    return 1;

  /* 1. the package's solve */
  vm_skg_solve_opts_init (&o);
  o.mode = VM_SKG_REDUCED;
  o.order = order;
  o.N = N;
  o.windows = 1;
  o.t0 = P.t0;
  o.tf = P.tf;
  vm_skg_solution_init (&sol);
  t_e2e = t_newton = t_num = t_sol = 1e300;
  for (r = 0; r < reps; r++)   /* the best of R solves (the first one's peak memory) */
    {
      t = vm_wall_time ();
      if (vm_skg_solve (&P.m, P.par, P.qi, P.vi, &o, &sol) != VM_OK)
        {
          fprintf (stderr, "skg_limit: vm_skg_solve: %s\n", sol.message);
          return 1;
        }
      t = vm_wall_time () - t;
      it = sol.iterations > 0 ? sol.iterations : 1;
      if (r == 0)
        {
          hwm = vm_hwm_kb ();
          t_first = (sol.t_fun + sol.t_jac + sol.t_symbolic + sol.t_numeric + sol.t_solve) / it;
        }
      if (t < t_e2e)
        {
          t_e2e = t;
          t_newton = (sol.t_fun + sol.t_jac + sol.t_symbolic + sol.t_numeric + sol.t_solve) / it;
          t_num = sol.t_numeric;
          t_sol = sol.t_solve;
        }
    }

  /* 2. the same Jacobian at the solution, one dgbtrf */
  if (red_build (&R, &P, order))
    return 1;
  y = malloc ((size_t) R.ny * sizeof *y);
  v = malloc ((size_t) R.nnzj * sizeof *v);
  red_from_solution (&R, &sol, N, y);
  if (! y || ! v || ! red_J (&R, y, v))
    return 1;
  for (p = 0; p < R.nnzj; p++)
    {
      if (R.irow[p] - R.jcol[p] > kl)
        kl = R.irow[p] - R.jcol[p];
      if (R.jcol[p] - R.irow[p] > ku)
        ku = R.jcol[p] - R.irow[p];
    }
  n = (int) R.ny;
  ldab = 2 * kl + ku + 1;
  ab = malloc ((size_t) n * (size_t) ldab * sizeof *ab);
  ipiv = malloc ((size_t) n * sizeof *ipiv);
  if (! ab || ! ipiv)
    {
      fprintf (stderr, "skg_limit: out of memory for the band (%d x %d)\n", ldab, n);
      return 1;
    }
  band_fill (ab, n, kl, ku, ldab, &R, v);
  t = vm_wall_time ();
  dgbtrf_ (&n, &n, &kl, &ku, ab, &ldab, ipiv, &info);
  t_cold = vm_wall_time () - t;
  for (r = 0; r < (reps > 3 ? reps : 3); r++)   /* at least 3: a steady reference */
    {
      band_fill (ab, n, kl, ku, ldab, &R, v);
      t = vm_wall_time ();
      dgbtrf_ (&n, &n, &kl, &ku, ab, &ldab, ipiv, &info);
      t = vm_wall_time () - t;
      if (t < t_warm)
        t_warm = t;
    }
  printf ("SKGLIMIT N %ld unknowns %d kl %d ku %d it %d fact %ld e2e %.6f newton_it %.6f "
          "numeric %.6f solve %.6f dgbtrf_cold %.6f dgbtrf %.6f ratio %.3f hwm_kb %ld info %d "
          "newton_first %.6f ratio_first %.3f\n",
          (long) N, n, kl, ku, sol.iterations, sol.nfactor, t_e2e,
          t_newton, t_num, t_sol, t_cold, t_warm, t_newton / t_warm, hwm, info, t_first,
          t_first / t_warm);
  free (ab);
  free (ipiv);
  free (y);
  free (v);
  red_free (&R);
  vm_skg_solution_free (&sol);
  vm_mech_free (&P.m);
  return 0;
}
