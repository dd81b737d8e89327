/* motion_integrate.c -- vm_motion_integrate (motion.h): the motion as segments of vm_ode_solve,
 * with hard-wall impacts (terminal events and a restitution impulse in the metric M) and
 * projection onto the constraints at 101 grid times between them.  The steps are stored as they
 * are without output times; the output times are served apart, by the method's dense output.
 *
 * Contract: see motion.h.  The run's state is one struct (mi_ws) passed to its steps.  Cost: the
 * integrator's, plus per impact one explicit mass solve and, with projection, one projection per
 * output time and impact; the solution arrays grow by doubling.
 */
#include "reference/motion.h"
#include "reference/motion_impl.h"
#include "reference/reaction.h"
#include "base/vm_status.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static int
contact_events (double t, const double *y, double *gv, void *ctx)
{
  vm_motion *mo = ctx;
  int st = vm_motion_eval (mo, t, y, y + mo->n, 1), c, j, n = mo->n, nc = mo->nc;
  if (st != VM_OK)
    return st;
  for (c = 0; c < nc; c++)
    {
      double h = mo->con.field[0][c], hdot = 0;
      if (h <= 0)
        {
          for (j = 0; j < n; j++)
            hdot += mo->con.field[1][c + (size_t) nc * j] * y[n + j];
          /* Just after an impact the state lies on the far side of the zero (by about |hdot|
           * times the event tolerance) and moves inwards: count it as inside, so that the next
           * outward crossing is seen even when the next flight is shorter than one step. */
          if (hdot > 0)
            h = 1e-300;
        }
      gv[c] = h;
    }
  return VM_OK;
}

void
vm_motion_sol_free (vm_motion_sol *s)
{
  if (! s)
    return;
  free (s->t);
  free (s->y);
  free (s->mult);
  free (s->mult_rate);
  free (s->power);
  free (s->energy);
  free (s->contact_energy);
  free (s->phi);
  free (s->gpos);
  free (s->ti);
  free (s->ci);
  free (s->yb);
  free (s->ya);
  free (s->ot);
  free (s->oy);
  free (s->omult);
  memset (s, 0, sizeof *s);
}

static int
grow (void **p, size_t *cap, size_t need, size_t elsize)
{
  if (need > *cap)
    {
      size_t nc = *cap ? *cap : 64;
      void *np;
      while (nc < need)
        nc *= 2;
      np = realloc (*p, nc * elsize);
      if (! np)
        return 0;
      *p = np;
      *cap = nc;
    }
  return 1;
}

/* Restitution impulse at contact c in the metric M: qdot+ = qdot - (1+e) (n.qdot)/(n M^{-1} n) M^{-1} n. */
static int
impulse (vm_motion *mo, double t, double *y, int c, double e)
{
  int n = mo->n, j, st;
  double *zero, *Minv_n, vn = 0, nMn = 0, cc, *nrow;
  double *buf = malloc ((size_t) 3 * n * sizeof *buf);
  if (! buf)
    return VM_ENOMEM;
  zero = buf;
  Minv_n = buf + n;
  nrow = buf + 2 * n;
  memset (zero, 0, (size_t) n * sizeof *zero);
  if ((st = vm_motion_eval (mo, t, y, y + n, 1)) != VM_OK)
    goto done;
  for (j = 0; j < n; j++)
    nrow[j] = mo->con.field[1][c + (size_t) mo->nc * j];
  /* M^{-1} n via the explicit solve with f = n */
  {
    const vm_reaction_problem pr = { n, 0, 0, mo->eom.field[0], nrow, NULL, NULL, NULL };
    st = vm_reaction_explicit (&pr, NULL, NULL, Minv_n, NULL, NULL, &mo->rws);
  }
  if (st != VM_OK)
    goto done;
  for (j = 0; j < n; j++)
    {
      vn += nrow[j] * y[n + j];
      nMn += nrow[j] * Minv_n[j];
    }
  if (! (nMn > 0))
    {
      st = VM_ESINGULAR;
      goto done;
    }
  cc = (1 + e) * vn / nMn;
  for (j = 0; j < n; j++)
    y[n + j] -= cc * Minv_n[j];
done:
  free (buf);
  return st;
}

/* the state of one run of vm_motion_integrate, shared by its steps */
typedef struct
{
  vm_motion *mo;
  const vm_motion_opts *o;
  vm_motion_sol *sol;
  int n, ny;                   /* q length; state length */
  double t0, tf, t, tol;       /* span; time reached; projection tolerance */
  double *y;                   /* the current state (ny) */
  double *grid;                /* the 101 projection times of a projected run, or NULL */
  int *dir, *term;             /* event directions and terminal flags (hard walls) */
  const double *tt;            /* the projection times (nt; 0 without projection) */
  size_t nt;
  const double *uo;            /* the caller's output times (nuo), the next one not reached iuo */
  size_t nuo, iuo;
  size_t ti_cap, ci_cap, yb_cap, ya_cap, t_cap, y_cap;   /* capacities of sol's arrays */
  size_t ot_cap, oy_cap;
  long max_imp;
  vm_ode_opts oo;              /* the options of vm_ode_solve (events, step check) */
  vm_ode_sol seg;              /* the last segment */
} mi_ws;

/* the projection times, the state y and the event and layer-check options of vm_ode_solve */
static int
mi_setup (mi_ws *w, const double *y0)
{
  vm_motion *mo = w->mo;
  const vm_motion_opts *o = w->o;
  size_t k;
  int c;
  w->y = malloc ((size_t) w->ny * sizeof *w->y);
  if (! w->y)
    return VM_ENOMEM;
  memcpy (w->y, y0, (size_t) w->ny * sizeof *w->y);
  if (o->project)
    {
      w->grid = malloc (101 * sizeof *w->grid);
      if (! w->grid)
        return VM_ENOMEM;
      for (k = 0; k <= 100; k++)
        w->grid[k] = w->t0 + (w->tf - w->t0) * (double) k / 100.0;
      w->grid[100] = w->tf;
      w->tt = w->grid;
      w->nt = 101;
    }
  if (o->hard && mo->nc > 0)
    {
      w->dir = malloc ((size_t) mo->nc * sizeof *w->dir);
      w->term = malloc ((size_t) mo->nc * sizeof *w->term);
      if (! w->dir || ! w->term)
        return VM_ENOMEM;
      for (c = 0; c < mo->nc; c++)
        {
          w->dir[c] = -1;
          w->term[c] = 1;
        }
      w->oo.nevent = mo->nc;
      w->oo.event_dir = w->dir;
      w->oo.event_terminal = w->term;
    }
  else
    w->oo.nevent = 0;
  if (! o->hard && mo->nc > 0)
    {
      w->oo.step_check = vm_motion_layer_check;
      mo->layer = o->layer;
      mo->layer_res = o->layer_res;
      mo->lslot = -1;
    }
  return VM_OK;
}

/* room for one more stored point in sol->t and sol->y */
static int
mi_grow_points (mi_ws *w)
{
  vm_motion_sol *sol = w->sol;
  if (! grow ((void **) &sol->t, &w->t_cap, sol->npts + 1, sizeof (double))
      || ! grow ((void **) &sol->y, &w->y_cap, (sol->npts + 1) * w->ny, sizeof (double)))
    return VM_ENOMEM;
  return VM_OK;
}

/* store (t, yv) as the next point (room made by mi_grow_points) */
static void
mi_put_point (mi_ws *w, double t, const double *yv)
{
  vm_motion_sol *sol = w->sol;
  sol->t[sol->npts] = t;
  memcpy (sol->y + sol->npts * w->ny, yv, (size_t) w->ny * sizeof (double));
  sol->npts++;
}

/* the next segment: the projection times tt[*first ..] (*cnt of them) and its end *tend; *stop = 1
 * when the run is complete (with projection, the current point may be stored here) */
static int
mi_next_segment (mi_ws *w, size_t *first, size_t *cnt, double *tend, int *stop)
{
  vm_motion_sol *sol = w->sol;
  const double *tt = w->tt;
  size_t nt = w->nt;
  double t = w->t, t0 = w->t0, tf = w->tf;
  int st;
  *first = 0;
  *cnt = nt;
  *tend = tf;
  *stop = 0;
  while (*first < nt && (tf > t0 ? tt[*first] < t : tt[*first] > t))
    (*first)++;
  if (nt > 0 && *first == nt)
    *cnt = 0;
  else if (nt > 0)
    *cnt = nt - *first;
  if (w->o->project && *cnt > 0)
    {
      *tend = tt[*first];
      if (*tend == t && sol->npts > 0 && sol->t[sol->npts - 1] == t)
        {
          /* the current point was stored (and projected) when the last segment ended here */
          if (*first + 1 >= nt || t == tf)
            return *stop = 1, VM_OK;
          (*first)++;
          *tend = tt[*first];
        }
      else if (*tend == t)
        {
          /* output at the current point */
          if ((st = mi_grow_points (w)) != VM_OK)
            return st;
          if ((st = vm_motion_project (w->mo, t, w->y, w->y + w->n, w->tol)) != VM_OK)
            return st;
          mi_put_point (w, t, w->y);
          if (*first + 1 >= nt || t == tf)
            return *stop = 1, VM_OK;
          *tend = tt[*first + 1];
          (*first)++;
        }
      *cnt = 1;
    }
  if (t == *tend)
    *stop = 1;
  return VM_OK;
}

/* add the counters of the last segment to the solution's */
static void
mi_add_counts (vm_motion_sol *sol, const vm_ode_sol *seg)
{
  sol->nsteps += seg->nsteps;
  sol->naccept += seg->naccept;
  sol->nreject += seg->nreject;
  sol->nfev += seg->nfev;
  sol->nnewton_iter += seg->nnewton_iter;
  sol->nlayer += seg->ncheck_reject;
}

/* room for one more output point in sol->ot and sol->oy */
static int
mi_grow_outputs (mi_ws *w)
{
  vm_motion_sol *sol = w->sol;
  if (! grow ((void **) &sol->ot, &w->ot_cap, sol->nout + 1, sizeof (double))
      || ! grow ((void **) &sol->oy, &w->oy_cap, (sol->nout + 1) * w->ny, sizeof (double)))
    return VM_ENOMEM;
  return VM_OK;
}

/* append the segment's steps (dropping a repeated start point; with projection only its end,
 * tend, when reached) and its output points */
static int
mi_append_segment (mi_ws *w, double tend)
{
  vm_motion_sol *sol = w->sol;
  const vm_ode_sol *seg = &w->seg;
  size_t ny = (size_t) w->ny, j, j0 = 0;
  int st;
  if (w->o->project)
    j0 = seg->status == VM_OK && seg->npts > 0 && seg->t[seg->npts - 1] == tend ? seg->npts - 1
                                                                                : seg->npts;
  else if (sol->npts > 0 && seg->npts > 0 && sol->t[sol->npts - 1] == seg->t[0]
           && memcmp (sol->y + (sol->npts - 1) * ny, seg->y, ny * sizeof (double)) == 0)
    j0 = 1;
  for (j = j0; j < seg->npts; j++)
    {
      if ((st = mi_grow_points (w)) != VM_OK)
        return st;
      mi_put_point (w, seg->t[j], seg->y + j * ny);
    }
  for (j = 0; j < seg->nout; j++)
    {
      if ((st = mi_grow_outputs (w)) != VM_OK)
        return st;
      sol->ot[sol->nout] = seg->tq[j];
      memcpy (sol->oy + sol->nout * ny, seg->yq + j * ny, ny * sizeof (double));
      sol->nout++;
    }
  w->iuo += seg->nout;
  return VM_OK;
}

/* the segment ended at an impact: record it and apply the restitution impulse (and projection) */
static int
mi_impact (mi_ws *w)
{
  vm_motion_sol *sol = w->sol;
  const vm_ode_sol *seg = &w->seg;
  size_t e = seg->nevents - 1, ny = (size_t) w->ny;
  double *y = w->y;
  int st;
  if ((long) sol->nimpact >= w->max_imp)
    {
      w->t = seg->t_end;
      return VM_EIMPACTS;
    }
  w->t = seg->te[e];
  memcpy (y, seg->ye + e * ny, ny * sizeof (double));
  if (! grow ((void **) &sol->ti, &w->ti_cap, sol->nimpact + 1, sizeof (double))
      || ! grow ((void **) &sol->ci, &w->ci_cap, sol->nimpact + 1, sizeof (int))
      || ! grow ((void **) &sol->yb, &w->yb_cap, (sol->nimpact + 1) * ny, sizeof (double))
      || ! grow ((void **) &sol->ya, &w->ya_cap, (sol->nimpact + 1) * ny, sizeof (double)))
    return VM_ENOMEM;
  sol->ti[sol->nimpact] = w->t;
  sol->ci[sol->nimpact] = seg->ie[e];
  memcpy (sol->yb + sol->nimpact * ny, y, ny * sizeof (double));
  if ((st = impulse (w->mo, w->t, y, seg->ie[e], w->o->restitution)) != VM_OK)
    return st;
  if (w->o->project && (st = vm_motion_project (w->mo, w->t, y, y + w->n, w->tol)) != VM_OK)
    return st;
  memcpy (sol->ya + sol->nimpact * ny, y, ny * sizeof (double));
  sol->nimpact++;
  return VM_OK;
}

/* the segment ended at tend (or failed): continue from its last point, projected at an output
 * time; *stop = 1 when the run is complete */
static int
mi_segment_end (mi_ws *w, double tend, int *stop)
{
  vm_motion_sol *sol = w->sol;
  const vm_ode_sol *seg = &w->seg;
  size_t ny = (size_t) w->ny;
  int st;
  *stop = 0;
  if (seg->status != VM_OK)
    {
      st = seg->status;
      w->t = seg->t_end;
      if (st == VM_ESINGULAR || st == VM_ENOTSPD)
        w->t = w->mo->tfail;
      return st;
    }
  w->t = tend;
  if (seg->npts > 0)
    memcpy (w->y, seg->y + (seg->npts - 1) * ny, ny * sizeof (double));
  if (! w->o->project)
    return *stop = 1, VM_OK;
  /* the segment ended at an output time: project the stored point and continue from it */
  if ((st = vm_motion_project (w->mo, w->t, w->y, w->y + w->n, w->tol)) != VM_OK)
    return st;
  if (sol->npts > 0)
    memcpy (sol->y + (sol->npts - 1) * ny, w->y, ny * sizeof (double));
  /* an output time on the projection time gets the projected state, as the step does */
  if (sol->nout > 0 && sol->ot[sol->nout - 1] == w->t)
    memcpy (sol->oy + (sol->nout - 1) * ny, w->y, ny * sizeof (double));
  if (w->t == w->tf)
    *stop = 1;
  return VM_OK;
}

/* the segments from t0 to tf, with impacts between them */
static int
mi_run (mi_ws *w)
{
  vm_motion_sol *sol = w->sol;
  vm_ode_system sys;
  int st, stop;
  /* the state at t0 is the first output when there are no output times, or when tout[0] == t0 */
  for (;;)
    {
      /* one segment: to tf, or with projection to the next projection time */
      size_t first, cnt, nu = 0;
      double tend;
      if ((st = mi_next_segment (w, &first, &cnt, &tend, &stop)) != VM_OK)
        return st;
      if (stop)
        break;
      /* its status is the segment's, w->seg.status */
      sys.n = w->ny;
      sys.f = vm_motion_rhs;
      sys.ev = w->oo.nevent > 0 ? contact_events : NULL;
      sys.ctx = w->mo;
      /* the caller's output times up to tend */
      while (w->iuo + nu < w->nuo && (w->uo[w->iuo + nu] - tend) * (w->tf > w->t0 ? 1 : -1) <= 0)
        nu++;
      vm_ode_solve (&sys, w->t, tend, w->y, nu > 0 ? w->uo + w->iuo : NULL, nu, &w->oo,
                    &w->seg);
      mi_add_counts (sol, &w->seg);
      if ((st = mi_append_segment (w, tend)) != VM_OK)
        return st;
      if (w->seg.status == VM_STOP_EVENT)
        {
          if ((st = mi_impact (w)) != VM_OK)
            return st;
          continue;
        }
      if ((st = mi_segment_end (w, tend, &stop)) != VM_OK)
        return st;
      if (stop)
        break;
    }
  w->t = w->tf;
  return VM_OK;
}

/* hard walls: the stored states must lie on the admissible side; the first one that does not
 * ends the solution there (impacts that accumulate in finite time are not resolved) */
static int
mi_check_walls (mi_ws *w, int st)
{
  vm_motion *mo = w->mo;
  vm_motion_sol *sol = w->sol;
  size_t k;
  int n = w->n, c, j;
  for (k = 0; k < sol->npts; k++)
    {
      const double *yk = sol->y + k * (size_t) w->ny;
      int bad = 0;
      if (vm_motion_eval (mo, sol->t[k], yk, yk + n, 1) != VM_OK)
        break;
      for (c = 0; c < mo->nc; c++)
        {
          double gn = 0, qn = 0;
          for (j = 0; j < n; j++)
            {
              double gj = mo->con.field[1][c + (size_t) mo->nc * j];
              gn += gj * gj;
              qn += yk[j] * yk[j];
            }
          if (mo->con.field[0][c] < -1e-8 * (1 + sqrt (gn * qn)))
            bad = 1;
        }
      if (bad)
        {
          if (st == VM_OK || st == VM_STOP_EVENT)
            {
              st = VM_ECONTACT;
              mo->tfail = sol->t[k];
              memcpy (mo->x + 1, yk, (size_t) 2 * n * sizeof (double));
              mo->x[0] = sol->t[k];
            }
          w->t = sol->t[k];
          sol->npts = k;
          /* the output points from there on go with it */
          while (sol->nout > 0 && (sol->ot[sol->nout - 1] - w->t) * (w->tf > w->t0 ? 1 : -1) >= 0)
            sol->nout--;
          break;
        }
    }
  return st;
}

/* the end of the run in sol: time reached, status, rcond and the failing point */
static void
mi_finish (mi_ws *w, int st)
{
  vm_motion *mo = w->mo;
  vm_motion_sol *sol = w->sol;
  int n = w->n, nn = n < 64 ? n : 64;
  sol->t_end = w->t;
  sol->status = st;
  sol->rcond = mo->rcond;
  sol->fail[0] = mo->x[0];
  memcpy (sol->fail + 1, mo->x + 1, (size_t) nn * sizeof (double));
  memcpy (sol->fail + 1 + nn, mo->x + 1 + n, (size_t) nn * sizeof (double));
}

int
vm_motion_integrate (vm_motion *mo, const vm_motion_opts *o, double t0, double tf,
                     const double *y0, const double *tout, size_t ntout, vm_motion_sol *sol)
{
  int vak = mo->law == VM_LAW_VAKONOMIC, nm, st;
  mi_ws w;
  memset (&w, 0, sizeof w);
  memset (sol, 0, sizeof *sol);
  w.mo = mo;
  w.o = o;
  w.sol = sol;
  w.n = mo->n;
  w.ny = 2 * mo->n + (vak ? mo->m : 0);
  w.t0 = t0;
  w.tf = tf;
  w.t = t0;
  w.tol = o->project_tol > 0 ? o->project_tol : 1e-12;
  w.uo = tout;
  w.nuo = ntout;
  w.max_imp = o->max_impacts > 0 ? o->max_impacts : 100000;
  w.oo = o->ode;
  w.oo.keep_steps = 1;
  vm_ode_sol_init (&w.seg);
  mo->hard = o->hard;
  sol->n = w.n;
  sol->m = mo->m;
  sol->ny = w.ny;
  nm = mo->law == VM_LAW_DIRECTIONS ? mo->k : mo->m;
  if (o->restitution < 0 || o->restitution > 1 || ! isfinite (t0) || ! isfinite (tf)
      || (vak && (! mo->vak.b || (o->hard && mo->nc > 0))))
    return sol->status = VM_EARG;
  st = mi_setup (&w, y0);
  if (! w.y)
    return sol->status = st;
  if (st == VM_OK)
    st = mi_run (&w);
  if (o->hard && mo->nc > 0)
    st = mi_check_walls (&w, st);
  mi_finish (&w, st);
  /* post-processing at the stored points: multipliers, energy, residuals, power */
  if (sol->npts > 0)
    vm_motion_post_process (mo, o, sol, nm, w.ny);
  if (sol->nout > 0)
    vm_motion_post_output (mo, sol, nm, w.ny);
  free (w.y);
  free (w.grid);
  free (w.dir);
  free (w.term);
  vm_ode_sol_free (&w.seg);
  return sol->status;
}

