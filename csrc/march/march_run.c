/* march_run.c -- vm_march (march.h), the march's entry: it checks the arguments, allocates one
 * march_mem (march_impl.h), runs the fixed grid (march_fixed.c) or the error control
 * (march_adaptive.c), and completes the final message (the unresolved status, the blow-up hint).
 *
 * Errors: VM_EARG (inconsistent arguments, windows shorter than vm_march_hmin), VM_ENOMEM, and the
 * drivers' codes (march.h).  Cost: the drivers' plus O(ntot nout) for the output.  Why the checks
 * are here and not in the drivers: vm_march refuses inconsistent arguments before it allocates
 * anything, so the drivers see only valid ones; and why the entry has its own file: it calls both
 * drivers, which call the helpers of march.c, so every call between the files points down. */
#include "march/march_impl.h"
#include "base/vm_scratch.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the notes of the final message ------------------------------------------------------------ */

/* The march ended with Newton's rounding level at or above the residual scale somewhere
 * (march_round_note): not converged to the tolerance.  The message's "converged" becomes "not
 * resolved to the tolerance"; VM_EUNRESOLVED. */
static int
unresolved (vm_march_sol *s)
{
  static const char now[] = "not resolved to the tolerance";
  char rest[sizeof s->message];
  if (strncmp (s->message, "converged", 9) == 0)
    {
      snprintf (rest, sizeof rest, "%s", s->message + 9);
      snprintf (s->message, sizeof s->message, "%s%.*s", now,
                (int) (sizeof s->message - sizeof now), rest);
    }
  return VM_EUNRESOLVED;
}

/* A march that stopped (VM_EHMIN) after its state grew by more than VM_MARCH_BLOWUP times (max
 * |x| at the last accepted window's end against max (1, max |x0|)): the message says so.  Why:
 * the likely cause is then a singularity of the equations (y' = y^2), where the collapse message
 * alone would suggest looser tolerances. */
#define VM_MARCH_BLOWUP 1e6

static void
blowup_hint (vm_march_sol *s, int nstate, const double *x0, const double *x)
{
  double g0 = 1.0, g1 = 0.0;
  size_t len = strlen (s->message);
  int i;
  for (i = 0; i < nstate; i++)
    {
      g0 = fmax (g0, fabs (x0[i]));
      g1 = fmax (g1, fabs (x[i]));
    }
  if (g1 > VM_MARCH_BLOWUP * g0 && len < sizeof s->message)
    snprintf (s->message + len, sizeof s->message - len, "; the state grew by a factor %.3g "
              "since t0 (max |x| %.3g there): the equations may have a singularity (a blow-up) "
              "near that time", g1 / g0, g1);
}

/* ---- the memory ------------------------------------------------------------------------------- */

static void
mem_free (march_mem *m)
{
  vm_scratch_free (m->x);
  vm_scratch_free (m->xc);
  vm_scratch_free (m->tm);
  vm_scratch_free (m->tc);
  free (m->xa);
  free (m->xe);
  free (m->xec);
  vm_scratch_free (m->pt);
  vm_scratch_free (m->ptraj);
  vm_scratch_free (m->rows);
  vm_scratch_free (m->t);
  vm_newton_symbolic_free (&m->sym);
  vm_newton_symbolic_free (&m->csym);
}

/* The work arrays of the window (x and xc come after the first move, when n is known; those of N
 * entries and more from vm_scratch.h, kept between solves).  VM_OK or VM_ENOMEM. */
static int
mem_alloc (march_mem *m)
{
  const vm_march_action *a = m->a;
  size_t N = (size_t) a->N, no = (size_t) a->nout, ns = (size_t) a->nstate + 1;
  m->tm = vm_scratch_alloc (N * no * sizeof *m->tm);
  m->tc = vm_scratch_alloc (N * no * sizeof *m->tc);
  m->xa = malloc (ns * sizeof *m->xa);
  m->xe = malloc (ns * sizeof *m->xe);
  m->xec = malloc (ns * sizeof *m->xec);
  m->pt = vm_scratch_alloc (N * sizeof *m->pt);
  m->ptraj = vm_scratch_alloc (N * no * sizeof *m->ptraj);
  if (! m->tm || ! m->tc || ! m->xa || ! m->xe || ! m->xec || ! m->pt || ! m->ptraj)
    return VM_ENOMEM;
  return VM_OK;
}

/* ---- the checks -------------------------------------------------------------------------------- */

/* the arguments of vm_march are consistent (see march.h) */
static int
march_args_ok (const vm_march_action *a, const vm_march_action *c, const double *xa0,
               const vm_march_opts *o)
{
  return ! (! a || ! xa0 || ! o || ! a->move || ! a->predict || ! a->from_traj
            || ! a->newton_setup || ! a->extract || a->N < 2 || a->nout < 1 || a->nerr < 0
            || a->nerr > a->nout || a->nstate < 1 || ! isfinite (o->t0) || ! isfinite (o->tf)
            || ! (o->tf > o->t0) || o->windows < 0 || ((o->windows == 0 || o->estimate) && ! c)
            || (c && (c->N != a->N || c->nout != a->nout || c->nstate != a->nstate))
            || (o->windows == 0 && ! (o->atol > 0.0 && o->rtol >= 0.0)) || o->repeat < 0
            || (o->guess && o->windows == 0));
}

/* VM_EARG with the message when the windows (or tspan) are shorter than N nodes can resolve */
static int
march_span_ok (const vm_march_action *a, const vm_march_opts *o, vm_march_sol *s)
{
  if (o->windows > 0 && (o->tf - o->t0) / o->windows < vm_march_hmin (o->t0, o->tf - o->t0, a->N))
    {
      /* the node spacing would be lost to rounding of t, or the equations' 1/h overflow */
      snprintf (s->message, sizeof s->message, "the windows of [%.9g, %.9g] are %.3g long, below "
                "the shortest that %lld nodes can resolve, %.3g (rounding of t, or 1/h overflows): "
                "use a longer interval or fewer windows", o->t0, o->tf,
                (o->tf - o->t0) / o->windows, (long long) a->N,
                vm_march_hmin (o->t0, o->tf - o->t0, a->N));
      return VM_EARG;
    }
  if (o->windows == 0 && (o->tf - o->t0) < vm_march_hmin (o->t0, o->tf - o->t0, a->N))
    {
      /* error control cannot shrink a window below hmin: refuse before the first window */
      snprintf (s->message, sizeof s->message, "tspan = [%.9g, %.9g] is %.3g long, below "
                "the shortest window that %lld nodes can resolve, %.3g (rounding of t, or 1/h "
                "overflows): use a longer interval", o->t0, o->tf, o->tf - o->t0,
                (long long) a->N, vm_march_hmin (o->t0, o->tf - o->t0, a->N));
      return VM_EARG;
    }
  return VM_OK;
}

/* ---- the driver -------------------------------------------------------------------------------- */

int
vm_march (vm_march_action *a, vm_march_action *c, const double *xa0, const vm_march_opts *o,
          vm_march_sol *s)
{
  march_mem mem, *m = &mem;
  int st;
  double t_start = vm_wall_time ();
  if (! s)
    return VM_EARG;
  vm_march_sol_free (s);
  memset (m, 0, sizeof *m);
  s->status = VM_EARG;
  if (! march_args_ok (a, c, xa0, o))
    {
      snprintf (s->message, sizeof s->message, "vm_march: invalid argument");
      return VM_EARG;
    }
  s->nout = a->nout;
  if (march_span_ok (a, o, s) != VM_OK)
    return VM_EARG;
  snprintf (s->check_name, sizeof s->check_name, "%s", a->check_name ? a->check_name : "check");
  m->a = a;
  m->c = c;
  m->o = o;
  m->s = s;
  vm_newton_symbolic_init (&m->sym);
  vm_newton_symbolic_init (&m->csym);
  st = mem_alloc (m);
  if (st == VM_OK)
    {
      memcpy (m->xa, xa0, (size_t) a->nstate * sizeof *m->xa);
      st = o->windows > 0 ? march_fixed (m) : march_adaptive (m);
      if (st == VM_EHMIN)
        blowup_hint (s, a->nstate, xa0, m->xa);
      if (st == VM_OK && s->nround > 0 && s->round_res >= VM_MARCH_ROUND_UNRESOLVED)
        st = unresolved (s);
    }
  else
    snprintf (s->message, sizeof s->message, "out of memory");
  if (march_finish_output (m) != VM_OK && st == VM_OK)
    {
      st = VM_ENOMEM;
      snprintf (s->message, sizeof s->message, "out of memory");
    }
  if (st == VM_ENOMEM && ! s->message[0])
    snprintf (s->message, sizeof s->message, "out of memory");
  mem_free (m);
  s->status = st;
  s->t_total = vm_wall_time () - t_start;
  if (o->display >= 1)
    say (o, "%s: %s\n", o->name, s->message);
  return st;
}
