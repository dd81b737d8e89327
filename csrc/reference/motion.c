/* motion.c -- equations of motion of a compiled mechanical system (see motion.h). */
#include "reference/motion.h"
#include "reference/reaction.h"
#include "reference/vakonomic.h"
#include "base/vm_status.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B2(op, x, y) vm_binary (g, op, x, y)

int
vm_mech_motion_block (vm_mech *m, vm_block *blk)
{
  vm_builder b;
  vm_graph *g = m->g;
  int n = m->n, a, j;
  int fphi, fA, fc, fh, fg, fgq;
  vm_builder_init (&b, g);
  fphi = vm_builder_field (&b, "phi", m->m, 1);
  fA = vm_builder_field (&b, "A", m->m, n);
  fc = vm_builder_field (&b, "c", m->m, 1);
  fh = vm_builder_field (&b, "hol", m->m, 1);
  fg = vm_builder_field (&b, "gpos", m->m, 1);
  fgq = vm_builder_field (&b, "gpos_q", m->m, n);
  for (a = 0; a < m->m && b.status == VM_OK; a++)
    {
      int32_t ga = m->gc[a], phi, c;
      int hol = 1;
      for (j = 0; j < n; j++)
        if (vm_depends (g, ga, m->vqd + j))
          hol = 0;
      if (hol)
        {
          phi = vm_diff (g, ga, m->vt);
          for (j = 0; j < n; j++)
            phi = B2 (VM_OP_ADD, phi, B2 (VM_OP_MUL, vm_diff (g, ga, m->vq + j), vm_var (g, m->vqd + j)));
          vm_builder_out (&b, fg, a, 0, ga);
          for (j = 0; j < n; j++)
            vm_builder_out (&b, fgq, a, j, vm_diff (g, ga, m->vq + j));
        }
      else
        phi = ga;
      vm_builder_out (&b, fphi, a, 0, phi);
      vm_builder_out (&b, fh, a, 0, vm_const (g, hol ? 1.0 : 0.0));
      c = vm_diff (g, phi, m->vt);
      for (j = 0; j < n; j++)
        {
          vm_builder_out (&b, fA, a, j, vm_diff (g, phi, m->vqd + j));
          c = B2 (VM_OP_ADD, c, B2 (VM_OP_MUL, vm_diff (g, phi, m->vq + j), vm_var (g, m->vqd + j)));
        }
      vm_builder_out (&b, fc, a, 0, vm_unary (g, VM_OP_NEG, c));
    }
  return vm_builder_finish (&b, blk);
}

/* ---- evaluation at one point ------------------------------------------------------------------- */

static void
pb_free (vm_point_block *pb)
{
  int k;
  if (pb->field && pb->b)
    for (k = 0; k < pb->b->nfield; k++)
      free (pb->field[k]);
  free (pb->field);
  free (pb->out);
  free (pb->work);
  memset (pb, 0, sizeof *pb);
}

static int
pb_init (vm_point_block *pb, const vm_block *b)
{
  int k;
  memset (pb, 0, sizeof *pb);
  pb->b = b;
  if (! b)
    return VM_OK;
  pb->field = calloc ((size_t) (b->nfield > 0 ? b->nfield : 1), sizeof *pb->field);
  pb->out = calloc ((size_t) (b->tape.nout > 0 ? b->tape.nout : 1), sizeof *pb->out);
  pb->work = malloc (vm_tape_work_size (&b->tape) * sizeof *pb->work);
  if (! pb->field || ! pb->out || ! pb->work)
    return VM_ENOMEM;
  for (k = 0; k < b->nfield; k++)
    {
      size_t ne = (size_t) b->field[k].dim[0] * (size_t) b->field[k].dim[1];
      pb->field[k] = calloc (ne > 0 ? ne : 1, sizeof (double));
      if (! pb->field[k])
        return VM_ENOMEM;
    }
  for (k = 0; k < b->tape.nout; k++)
    pb->out[k] = pb->field[b->out_field[k]] + b->out_index[k];
  return VM_OK;
}

static int
pb_eval (vm_point_block *pb, const double *const *in, const int *inc)
{
  return vm_tape_eval (&pb->b->tape, 1, in, inc, pb->out, pb->work);
}

void
vm_motion_free (vm_motion *mo)
{
  if (! mo)
    return;
  pb_free (&mo->eom);
  pb_free (&mo->mot);
  pb_free (&mo->con);
  pb_free (&mo->vak);
  free (mo->fw);
  free ((void *) mo->in);
  free (mo->inc);
  free (mo->x);
  free (mo->rwork);
  free (mo->iwork);
  free (mo->feff);
  free (mo->lbuf);
  memset (mo, 0, sizeof *mo);
}

static int
field_ok (const vm_block *b, int k, const char *name, int d0, int d1)
{
  return b && k < b->nfield && strcmp (b->field[k].name, name) == 0 && b->field[k].dim[0] == d0
         && b->field[k].dim[1] == d1;
}

/* VM_OK when the arguments and the blocks fit together (*nc: the contacts), else VM_EARG */
static int
motion_args_ok (int n, int m, int np, const vm_block *eom, const vm_block *mot,
                const vm_block *con, const double *p, int law, int k, const double *B, int *ncp)
{
  int nc;
  if (n < 1 || m < 0 || np < 0 || ! eom || ! mot || (np > 0 && ! p)
      || law < VM_LAW_IDEAL || law > VM_LAW_VAKONOMIC || (law == VM_LAW_DIRECTIONS && (k < 1 || ! B)))
    return VM_EARG;
  nc = con ? con->field[0].dim[0] : 0;
  /* the blocks must be the ones of one model: eom (M, f, energy), motion (phi, A, c, hol, gpos,
   * gpos_q), contacts (h, h_q, ...) */
  if (! field_ok (eom, 0, "M", n, n) || ! field_ok (eom, 1, "f", n, 1)
      || ! field_ok (mot, 0, "phi", m, 1) || ! field_ok (mot, 1, "A", m, n)
      || (con && (! field_ok (con, 0, "h", nc, 1) || ! field_ok (con, 1, "h_q", nc, n)
                  || ! field_ok (con, 2, "FN", nc, n) || ! field_ok (con, 3, "FR", nc, n)
                  || ! field_ok (con, 4, "sigma", nc, 1) || ! field_ok (con, 5, "mu", nc, 1)))
      || eom->tape.nvar != 1 + 2 * n + np + m + n || mot->tape.nvar != eom->tape.nvar
      || (con && con->tape.nvar != eom->tape.nvar))
    return VM_EARG;
  *ncp = nc;
  return VM_OK;
}

/* the point blocks and the work arrays of mo (sizes set); on failure the caller frees mo */
static int
motion_alloc (vm_motion *mo, const vm_block *eom, const vm_block *mot, const vm_block *con)
{
  const int n = mo->n, m = mo->m, nc = mo->nc;
  int v, st;
  size_t rw, iw;
  if ((st = pb_init (&mo->eom, eom)) != VM_OK || (st = pb_init (&mo->mot, mot)) != VM_OK
      || (st = pb_init (&mo->con, con)) != VM_OK)
    return st;
  mo->in = calloc ((size_t) mo->nvar, sizeof *mo->in);
  mo->inc = calloc ((size_t) mo->nvar, sizeof *mo->inc);
  mo->x = calloc ((size_t) mo->nvar, sizeof *mo->x);
  mo->feff = calloc ((size_t) n, sizeof *mo->feff);
  mo->lslot = -1;
  if (nc > 0)
    mo->lbuf = malloc ((size_t) 2 * (1 + 2 * (size_t) n + 2 * (size_t) nc) * sizeof *mo->lbuf);
  if (vm_reaction_work_size (n, m > 0 ? m : 1, mo->k, &rw, &iw) != VM_OK)
    return VM_EARG;
  mo->rwork = malloc ((rw > 0 ? rw : 1) * sizeof *mo->rwork);
  mo->iwork = malloc ((iw > 0 ? iw : 1) * sizeof *mo->iwork);
  if (! mo->in || ! mo->inc || ! mo->x || ! mo->rwork || ! mo->iwork || ! mo->feff
      || (nc > 0 && ! mo->lbuf))
    return VM_ENOMEM;
  mo->rws.work = mo->rwork;
  mo->rws.iwork = mo->iwork;
  for (v = 0; v < mo->nvar; v++)
    {
      mo->in[v] = mo->x + v;
      mo->inc[v] = 1;
    }
  return VM_OK;
}

/* constant mass matrix: every output of field 0 (M) of the eom tape is stored from a slot whose
 * value depends on constants and parameters only (t, q and qdot are the variables below
 * 1 + 2n; lambda and w are held at 0 here).  Sets mo->mconst; VM_ENOMEM on failure. */
static int
mass_constant (vm_motion *mo, const vm_block *eom)
{
  const int n = mo->n;
  char *isconst = calloc ((size_t) (eom->tape.nslot > 0 ? eom->tape.nslot : 1), 1);
  int i;
  if (! isconst)
    return VM_ENOMEM;
  mo->mconst = 1;
  for (i = 0; i < eom->tape.ninstr; i++)
    {
      const vm_instr *c = &eom->tape.code[i];
      if (c->op == VM_OP_STORE)
        {
          if (eom->out_field[(int) c->imm] == 0 && ! isconst[c->a])
            mo->mconst = 0;
        }
      else if (c->op == VM_OP_CONST)
        isconst[c->dst] = 1;
      else if (c->op == VM_OP_VAR)
        isconst[c->dst] = c->a >= 1 + 2 * n;
      else
        isconst[c->dst] = isconst[c->a] && (c->b < 0 || isconst[c->b]);
    }
  free (isconst);
  return VM_OK;
}

int
vm_motion_init (vm_motion *mo, int n, int m, int np, const vm_block *eom, const vm_block *mot,
                const vm_block *con, const double *p, int law, int k, const double *B)
{
  int st, nc = 0;
  memset (mo, 0, sizeof *mo);
  if ((st = motion_args_ok (n, m, np, eom, mot, con, p, law, k, B, &nc)) != VM_OK)
    return st;
  mo->n = n;
  mo->m = m;
  mo->nc = nc;
  mo->np = np;
  mo->nvar = eom->tape.nvar;
  mo->law = law;
  mo->k = law == VM_LAW_DIRECTIONS ? k : 0;
  mo->B = B;
  mo->p = p;
  if ((st = motion_alloc (mo, eom, mot, con)) != VM_OK
      || (st = mass_constant (mo, eom)) != VM_OK)
    {
      vm_motion_free (mo);
      return st;
    }
  return VM_OK;
}

/* the tape inputs t | q | qdot | p (lambda and w stay 0: the Hessian blocks are not used here) */
static void
set_inputs (vm_motion *mo, double t, const double *q, const double *qdot)
{
  int n = mo->n;
  mo->x[0] = t;
  memcpy (mo->x + 1, q, (size_t) n * sizeof (double));
  memcpy (mo->x + 1 + n, qdot, (size_t) n * sizeof (double));
  if (mo->np > 0)
    memcpy (mo->x + 1 + 2 * n, mo->p, (size_t) mo->np * sizeof (double));
}

int
vm_motion_eval (vm_motion *mo, double t, const double *q, const double *qdot, int want_contacts)
{
  int st;
  set_inputs (mo, t, q, qdot);
  mo->nrhs++;
  if ((st = pb_eval (&mo->eom, mo->in, mo->inc)) != VM_OK
      || (st = pb_eval (&mo->mot, mo->in, mo->inc)) != VM_OK)
    return st;
  if (want_contacts && mo->con.b)
    return pb_eval (&mo->con, mo->in, mo->inc);
  return VM_OK;
}

int
vm_motion_set_vakonomic (vm_motion *mo, const vm_block *vak, double t, const double *q,
                         const double *qdot, int *bad)
{
  int a, st;
  *bad = -1;
  if (mo->law != VM_LAW_VAKONOMIC || ! field_ok (vak, 0, "W", mo->m, mo->n)
      || ! field_ok (vak, 1, "nonlin", mo->m, 1) || vak->tape.nvar != mo->nvar)
    return VM_EARG;
  pb_free (&mo->vak);
  free (mo->fw);
  mo->fw = malloc ((size_t) mo->n * sizeof *mo->fw);
  if (! mo->fw || (st = pb_init (&mo->vak, vak)) != VM_OK)
    return VM_ENOMEM;
  set_inputs (mo, t, q, qdot);
  if ((st = pb_eval (&mo->vak, mo->in, mo->inc)) != VM_OK)
    return st;
  for (a = 0; a < mo->m; a++)
    if (mo->vak.field[1][a] != 0)
      {
        *bad = a;
        return VM_EARG;
      }
  return VM_OK;
}

/* the vakonomic law at the point evaluated last: R = -A^T mudot - W^T mu */
static int
vakonomic_accel (vm_motion *mo, const double *f, double *qddot, double *mudot)
{
  int st;
  if (! mo->vak.b || ! mo->mu)
    return VM_EARG;
  if ((st = pb_eval (&mo->vak, mo->in, mo->inc)) != VM_OK)
    return st;
  {
    const vm_reaction_problem pr = { mo->n, mo->m, 0, mo->eom.field[0], f, mo->mot.field[1],
                                     mo->mot.field[2], NULL };
    return vm_vakonomic_accel (&pr, mo->vak.field[0], mo->mu, qddot, mudot, &mo->rcond, mo->fw,
                               &mo->rws);
  }
}

int
vm_motion_accel (vm_motion *mo, double t, const double *q, const double *qdot, double *qddot,
                 double *mult)
{
  int hard = mo->hard && mo->con.b && mo->nc > 0;
  int st = vm_motion_eval (mo, t, q, qdot, hard);
  const double *M = mo->eom.field[0], *f = mo->eom.field[1];
  const double *A = mo->mot.field[1], *c = mo->mot.field[2];
  vm_reaction_problem pr;
  if (st != VM_OK)
    return st;
  if (hard)
    {
      /* f holds the regularized contact forces FN + FR (contacts block fields 2, 3): remove them */
      int i, k, n = mo->n, nc = mo->nc;
      const double *FN = mo->con.field[2], *FR = mo->con.field[3];
      for (i = 0; i < n; i++)
        {
          double s = f[i];
          for (k = 0; k < nc; k++)
            s -= FN[k + (size_t) nc * i] + FR[k + (size_t) nc * i];
          mo->feff[i] = s;
        }
      f = mo->feff;
    }
  mo->rcond = 1.0;
  pr.n = mo->n;
  pr.m = mo->m;
  pr.k = mo->k;
  pr.M = M;
  pr.f = f;
  pr.A = A;
  pr.c = c;
  pr.B = mo->B;
  switch (mo->law)
    {
    case VM_LAW_IDEAL:
      if (mo->mconst && mo->mfactored)
        st = vm_reaction_ideal_fixed_mass (&pr, qddot, mult, NULL, &mo->rcond, &mo->rws);
      else
        st = vm_reaction_ideal (&pr, qddot, mult, NULL, &mo->rcond, &mo->rws);
      mo->mfactored = st == VM_OK;
      break;
    case VM_LAW_DIRECTIONS:
      st = vm_reaction_directions (&pr, qddot, mult, NULL, &mo->rcond, &mo->rws);
      break;
    case VM_LAW_VAKONOMIC:
      st = vakonomic_accel (mo, f, qddot, mult);
      break;
    default:
      st = vm_reaction_explicit (&pr, NULL, NULL, qddot, NULL, &mo->rcond, &mo->rws);
    }
  if (st != VM_OK)
    mo->tfail = t;
  return st;
}

int
vm_motion_check_state (vm_motion *mo, double t, const double *q, const double *qdot, double tol,
                       int hard, int *what, int *index, double *value)
{
  int a, st = vm_motion_eval (mo, t, q, qdot, hard && mo->con.b);
  double worst = 0;
  *what = 0;
  *index = -1;
  *value = 0;
  if (st != VM_OK)
    return st;
  for (a = 0; a < mo->m; a++)
    {
      double r = fabs (mo->mot.field[0][a]);
      if (mo->mot.field[3][a] != 0 && fabs (mo->mot.field[4][a]) > r)
        r = fabs (mo->mot.field[4][a]);
      if (! (r <= worst))
        {
          worst = r;
          *index = a;
        }
    }
  if (! (worst <= tol))
    {
      *what = 1;
      *value = worst;
      return VM_EARG;
    }
  if (hard && mo->con.b)
    for (a = 0; a < mo->nc; a++)
      {
        if (! (mo->con.field[0][a] >= 0))
          {
            *what = 2;
            *index = a;
            *value = mo->con.field[0][a];
            return VM_EARG;
          }
        if (mo->con.field[5][a] != 0)
          {
            *what = 3;
            *index = a;
            *value = mo->con.field[5][a];
            return VM_EARG;
          }
      }
  return VM_OK;
}

int
vm_motion_rhs (double t, const double *y, double *dydt, void *ctx)
{
  vm_motion *mo = ctx;
  int n = mo->n, vak = mo->law == VM_LAW_VAKONOMIC;
  memcpy (dydt, y + n, (size_t) n * sizeof (double));
  if (vak)
    mo->mu = y + 2 * n;
  return vm_motion_accel (mo, t, y, y + n, dydt + n, vak ? dydt + 2 * n : NULL);
}

/* ---- soft contacts: the layer check (see motion.h) --------------------------------------------- */

static double
hermite (const double *cf, double th)
{
  return cf[0] + th * (cf[1] + th * (cf[2] + th * cf[3]));
}

static double
clip (double x, double b)
{
  return x < -b ? -b : x > b ? b : x;
}

/* the zeros of H' = cf[1] + 2 cf[2] th + 3 cf[3] th^2 inside (0, 1), increasing, into r */
static int
hermite_turns (const double *cf, double *r)
{
  const double a = 3.0 * cf[3], b = 2.0 * cf[2], c = cf[1];
  double z[2], disc, q;
  int nz = 0, k, m = 0;
  if (a == 0.0)
    {
      if (b != 0.0)
        z[nz++] = -c / b;
    }
  else if ((disc = b * b - 4.0 * a * c) >= 0.0)
    {
      q = -0.5 * (b + copysign (sqrt (disc), b));
      if (q != 0.0)
        {
          z[nz++] = q / a;
          z[nz++] = c / q;
        }
    }
  for (k = 0; k < nz; k++)
    if (z[k] > 0.0 && z[k] < 1.0)
      r[m++] = z[k];
  if (m == 2 && r[0] > r[1])
    {
      q = r[0];
      r[0] = r[1];
      r[1] = q;
    }
  return m;
}

/* on a monotone piece [lo, hi] of H starting at the clipped value a: the fraction at which
 * |clip(H) - a| reaches rem (bisection) */
static double
travel_point (const double *cf, double band, double lo, double hi, double a, double rem)
{
  int it;
  for (it = 0; it < 60 && hi - lo > 1e-15; it++)
    {
      const double mid = 0.5 * (lo + hi);
      if (fabs (clip (hermite (cf, mid), band) - a) < rem)
        lo = mid;
      else
        hi = mid;
    }
  return hi;
}

/* the travel of clip(H) for the cubic H = cf[0] + cf[1] th + cf[2] th^2 + cf[3] th^3 on [0, 1], and
 * the fraction at which it reaches target (1 if it stays below) */
static double
cubic_travel (const double *cf, double band, double target, double *theta)
{
  double node[4], val[4], tot = 0.0;
  int nn, k;
  node[0] = 0.0;
  nn = 1 + hermite_turns (cf, node + 1);
  node[nn++] = 1.0;
  for (k = 0; k < nn; k++)
    val[k] = clip (hermite (cf, node[k]), band);
  *theta = 1.0;
  for (k = 0; k + 1 < nn; k++)
    {
      const double v = fabs (val[k + 1] - val[k]);
      if (*theta == 1.0 && tot + v > target)
        *theta = travel_point (cf, band, node[k], node[k + 1], val[k], target - tot);
      tot += v;
    }
  return tot;
}

double
vm_motion_layer_travel (double h0, double hd0, double h1, double hd1, double dt, double band,
                        double target, double *theta)
{
  /* the cubic Hermite interpolant, the line from the start, the line back from the end */
  const double cf[3][4] = { { h0, dt * hd0, 3.0 * (h1 - h0) - dt * (2.0 * hd0 + hd1),
                              2.0 * (h0 - h1) + dt * (hd0 + hd1) },
                            { h0, dt * hd0, 0.0, 0.0 },
                            { h1 - dt * hd1, dt * hd1, 0.0, 0.0 } };
  double tot = 0.0, th, thmin = 1.0;
  int k;
  for (k = 0; k < 3; k++)
    {
      tot = fmax (tot, cubic_travel (cf[k], band, target, &th));
      thmin = fmin (thmin, th);
    }
  if (theta)
    *theta = thmin;
  return tot;
}

/* h and hdot = grad h . qdot of every contact at (t, y) into a slot: t | y (2n) | h (nc) | hdot */
static int
layer_values (vm_motion *mo, double t, const double *y, double *slot)
{
  const int n = mo->n, nc = mo->nc;
  double *h = slot + 1 + 2 * n, *hd = h + nc;
  int st, c, j;
  set_inputs (mo, t, y, y + n);
  if ((st = pb_eval (&mo->con, mo->in, mo->inc)) != VM_OK)
    return st;
  slot[0] = t;
  memcpy (slot + 1, y, (size_t) 2 * n * sizeof (double));
  for (c = 0; c < nc; c++)
    {
      h[c] = mo->con.field[0][c];
      hd[c] = 0.0;
      for (j = 0; j < n; j++)
        hd[c] += mo->con.field[1][c + (size_t) nc * j] * y[n + j];
      if (! isfinite (h[c]) || ! isfinite (hd[c]))
        return VM_ENONFINITE;
    }
  return VM_OK;
}

static int
slot_is (const double *slot, double t, const double *y, int n2)
{
  return slot[0] == t && memcmp (slot + 1, y, (size_t) n2 * sizeof (double)) == 0;
}

/* the slots of the step's start (kept from the last call when it ended or started there) and end */
static int
layer_ends (vm_motion *mo, double t, const double *y, double tn, const double *yn, double **s0,
            double **s1)
{
  const int n2 = 2 * mo->n;
  double *a = mo->lbuf + (mo->lslot == 1 ? 1 + n2 + 2 * mo->nc : 0);
  double *b = a == mo->lbuf ? mo->lbuf + 1 + n2 + 2 * mo->nc : mo->lbuf;
  int st = VM_OK;
  *s0 = a;
  *s1 = b;
  if (mo->lslot >= 0 && slot_is (b, t, y, n2))
    {
      *s0 = b;
      *s1 = a;
    }
  else if (! (mo->lslot >= 0 && slot_is (a, t, y, n2)))
    st = layer_values (mo, t, y, a);
  mo->lslot = -1;
  if (st != VM_OK || (st = layer_values (mo, tn, yn, *s1)) != VM_OK)
    return st;
  mo->lslot = *s1 == mo->lbuf ? 0 : 1;
  return VM_OK;
}

int
vm_motion_layer_check (double t, const double *y, double tn, const double *yn, double *factor,
                       double *hnext, void *ctx)
{
  vm_motion *mo = ctx;
  const int nc = mo->nc, off = 1 + 2 * mo->n;
  const double layer = mo->layer > 0 ? mo->layer : VM_CONTACT_LAYER,
               res = mo->layer_res > 0 ? mo->layer_res : VM_CONTACT_RES;
  double *s0, *s1;
  int c, st;
  *factor = 1.0;
  *hnext = HUGE_VAL;
  if (nc == 0 || ! mo->con.b)
    return VM_OK;
  if ((st = layer_ends (mo, t, y, tn, yn, &s0, &s1)) != VM_OK)
    return st;
  for (c = 0; c < nc; c++)
    {
      const double sig = fabs (mo->con.field[4][c]), band = layer * sig, allow = res * sig;
      const double h1 = s1[off + c], hd1 = s1[off + nc + c];
      double th, d;
      if (! (sig > 0.0) || ! isfinite (sig))
        continue;
      if (vm_motion_layer_travel (s0[off + c], s0[off + nc + c], h1, hd1, tn - t, band, 0.8 * allow,
                                  &th) > allow)
        *factor = fmin (*factor, fmin (th, 0.9));
      /* the next step: to the layer (when moving towards it), then 0.8 allow inside it */
      d = fabs (h1) <= band ? 0.0 : h1 * hd1 < 0.0 ? fabs (h1) - band : HUGE_VAL;
      if (hd1 != 0.0 && d < HUGE_VAL)
        *hnext = fmin (*hnext, (d + 0.8 * allow) / fabs (hd1));
    }
  return VM_OK;
}

/* ---- projection -------------------------------------------------------------------------------- */

static double
maxabs (const double *x, int n)
{
  double r = 0;
  int i;
  for (i = 0; i < n; i++)
    if (! (fabs (x[i]) <= r))
      r = fabs (x[i]);
  return r;
}

/* The holonomic rows of the constraints, -g(t, q), into g (nh of them) and their gradients into
 * G (nh x n, column-major) from the motion's last evaluation; the count nh. */
static int
holonomic_rows (const vm_motion *mo, double *G, double *g)
{
  const double *hol = mo->mot.field[3], *gp = mo->mot.field[4], *gq = mo->mot.field[5];
  int n = mo->n, m = mo->m, a, j, nh = 0, r = 0;
  for (a = 0; a < m; a++)
    if (hol[a] != 0)
      nh++;
  for (a = 0; a < m; a++)
    if (hol[a] != 0)
      {
        g[r] = -gp[a];
        for (j = 0; j < n; j++)
          G[r + (size_t) nh * j] = gq[a + (size_t) m * j];
        r++;
      }
  return nh;
}

/* The projection's last correction dx of x is at the rounding level of x (every |dx_j| <= 8 eps
 * max (1, ||x||_inf)): the residual cannot be reduced further, whatever tol asked.  A constraint
 * written in large units (x^2 + y^2 - l^2 with l = 1e3: |g| ~ eps l^2 = 2e-10 at best) never
 * meets an absolute tol of 1e-12, and without this stop every projection of skg_solve failed
 * (20 steps, VM_EPROJECT), which left its window ends unprojected and cost it ten times the
 * windows (doc/skg.md, "Stopping", units). */
static int
at_rounding (const double *dx, const double *x, int n)
{
  const double lim = 8.0 * DBL_EPSILON * fmax (1.0, maxabs (x, n));
  int j;
  for (j = 0; j < n; j++)
    if (! (fabs (dx[j]) <= lim))
      return 0;
  return 1;
}

/* Positions onto the holonomic constraints: at most 20 mass-weighted projections (the ideal
 * reaction with zero force), until max |g| <= tol or the correction is at rounding
 * (at_rounding); VM_EPROJECT when they do not get there. */
static int
project_positions (vm_motion *mo, double t, double *q, const double *qdot, double tol,
                   const double *zero, double *G, double *g, double *dq)
{
  int n = mo->n, it, j, nh, st;
  for (it = 0; it < 20; it++)
    {
      if ((st = vm_motion_eval (mo, t, q, qdot, 0)) != VM_OK)
        return st;
      nh = holonomic_rows (mo, G, g);
      if (nh == 0 || maxabs (g, nh) <= tol)
        return VM_OK;
      {
        const vm_reaction_problem pr = { n, nh, 0, mo->eom.field[0], zero, G, g, NULL };
        st = vm_reaction_ideal (&pr, dq, NULL, NULL, &mo->rcond, &mo->rws);
      }
      if (st != VM_OK)
        return st;
      for (j = 0; j < n; j++)
        q[j] += dq[j];
      if (at_rounding (dq, q, n))
        return VM_OK;
    }
  return VM_EPROJECT;
}

/* Velocities onto every constraint row, as project_positions. */
static int
project_velocities (vm_motion *mo, double t, const double *q, double *qdot, double tol,
                    const double *zero, double *g, double *dq)
{
  int n = mo->n, m = mo->m, it, a, j, st;
  for (it = 0; it < 20; it++)
    {
      if ((st = vm_motion_eval (mo, t, q, qdot, 0)) != VM_OK)
        return st;
      for (a = 0; a < m; a++)
        g[a] = -mo->mot.field[0][a];
      if (maxabs (g, m) <= tol)
        return VM_OK;
      {
        const vm_reaction_problem pr = { n, m, 0, mo->eom.field[0], zero, mo->mot.field[1], g,
                                         NULL };
        st = vm_reaction_ideal (&pr, dq, NULL, NULL, &mo->rcond, &mo->rws);
      }
      if (st != VM_OK)
        return st;
      for (j = 0; j < n; j++)
        qdot[j] += dq[j];
      if (at_rounding (dq, qdot, n))
        return VM_OK;
    }
  return VM_EPROJECT;
}

int
vm_motion_project (vm_motion *mo, double t, double *q, double *qdot, double tol)
{
  int n = mo->n, m = mo->m, st;
  double *zero, *G, *g, *dq, *buf;
  if (m == 0)
    return VM_OK;
  buf = malloc ((size_t) (n + (size_t) m * n + m + n) * sizeof *buf);
  if (! buf)
    return VM_ENOMEM;
  zero = buf;
  G = zero + n;
  g = G + (size_t) m * n;
  dq = g + m;
  memset (zero, 0, (size_t) n * sizeof *zero);
  st = project_positions (mo, t, q, qdot, tol, zero, G, g, dq);
  if (st == VM_OK)
    st = project_velocities (mo, t, q, qdot, tol, zero, g, dq);
  free (buf);
  return st;
}

/* ---- integration with impacts ---------------------------------------------------------------- */

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
  free (s->phi);
  free (s->gpos);
  free (s->ti);
  free (s->ci);
  free (s->yb);
  free (s->ya);
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

/* the reaction's power R . qdot, R = M qddot - f, with the f of the last vm_motion_accel */
static double
reaction_power (const vm_motion *mo, const double *qdot, const double *qdd)
{
  int i, j, n = mo->n;
  const double *M = mo->eom.field[0];
  const double *f = mo->hard && mo->con.b && mo->nc > 0 ? mo->feff : mo->eom.field[1];
  double p = 0;
  for (i = 0; i < n; i++)
    {
      double r = -f[i];
      for (j = 0; j < n; j++)
        r += M[i + (size_t) n * j] * qdd[j];
      p += r * qdot[i];
    }
  return p;
}

/* The tolerances of the positions and of the velocities over the stored points, atol + rtol
 * max_k ||q_k||_inf and the same with qdot (the scales of vm_motion_sol.drift). */
static void
drift_scales (const vm_motion_opts *o, const vm_motion_sol *sol, int n, int ny, double *tq,
              double *tv)
{
  double qmax = 0.0, vmax = 0.0;
  size_t k;
  int j;
  for (k = 0; k < sol->npts; k++)
    for (j = 0; j < n; j++)
      {
        qmax = fmax (qmax, fabs (sol->y[k * (size_t) ny + j]));
        vmax = fmax (vmax, fabs (sol->y[k * (size_t) ny + n + j]));
      }
  *tq = o->ode.atol + o->ode.rtol * qmax;
  *tv = o->ode.atol + o->ode.rtol * vmax;
}

/* The drift at stored point k (vm_motion_sol.drift), from the motion block evaluated there: each
 * residual against the change a state error at the tolerance makes in it, |g_a| / (tq
 * ||dg_a/dq||_1) (holonomic rows) and |phi_a| / (tv ||A_a||_1) (all rows). */
static double
drift_at (const vm_motion *mo, const vm_motion_sol *sol, size_t k, double tq, double tv)
{
  const int n = mo->n, m = mo->m;
  const double *A = mo->mot.field[1], *hol = mo->mot.field[3], *gq = mo->mot.field[5];
  double d = 0.0;
  int a, j;
  for (a = 0; a < m; a++)
    {
      double na = 0.0, ng = 0.0;
      for (j = 0; j < n; j++)
        {
          na += fabs (A[a + (size_t) m * j]);
          ng += fabs (gq[a + (size_t) m * j]);
        }
      if (na > 0.0)
        d = fmax (d, fabs (sol->phi[k * m + a]) / (tv * na));
      if (hol[a] != 0 && ng > 0.0)
        d = fmax (d, fabs (sol->gpos[k * m + a]) / (tq * ng));
    }
  return d;
}

/* multipliers (vakonomic: mu and mudot), energy, residuals, power and the constraints' drift
 * (drift, drift_note) at the stored points; a failed allocation sets VM_ENOMEM unless the run
 * failed already */
static void
post_process (vm_motion *mo, const vm_motion_opts *o, vm_motion_sol *sol, int nm, int ny)
{
  size_t np = sol->npts, k;
  int n = mo->n, m = mo->m, vak = mo->law == VM_LAW_VAKONOMIC, a;
  double *qdd = malloc ((size_t) n * sizeof *qdd), tq, tv, drift = 0.0;
  drift_scales (o, sol, n, ny, &tq, &tv);
  sol->mult = calloc (np * (size_t) (nm > 0 ? nm : 1), sizeof (double));
  sol->mult_rate = vak ? calloc (np * (size_t) (m > 0 ? m : 1), sizeof (double)) : NULL;
  sol->power = calloc (np, sizeof (double));
  sol->energy = calloc (np, sizeof (double));
  sol->phi = calloc (np * (size_t) (m > 0 ? m : 1), sizeof (double));
  sol->gpos = calloc (np * (size_t) (m > 0 ? m : 1), sizeof (double));
  if (! qdd || ! sol->mult || (vak && ! sol->mult_rate) || ! sol->power || ! sol->energy
      || ! sol->phi || ! sol->gpos)
    {
      if (sol->status == VM_OK)
        sol->status = VM_ENOMEM;
      free (qdd);
      return;
    }
  for (k = 0; k < np; k++)
    {
      const double *yk = sol->y + k * (size_t) ny;
      double *mk = nm > 0 ? sol->mult + k * nm : NULL;
      double *out = vak ? (m > 0 ? sol->mult_rate + k * m : NULL) : mk;
      int s2;
      if (vak)
        {
          mo->mu = yk + 2 * n;
          if (m > 0)
            memcpy (mk, yk + 2 * n, (size_t) m * sizeof (double));
        }
      s2 = vm_motion_accel (mo, sol->t[k], yk, yk + n, qdd, out);
      if (s2 != VM_OK)   /* keep NaN where the reaction could not be computed */
        {
          for (a = 0; a < nm; a++)
            out[a] = NAN;
          sol->power[k] = NAN;
          if (vm_motion_eval (mo, sol->t[k], yk, yk + n, 0) != VM_OK)
            continue;
        }
      else
        sol->power[k] = reaction_power (mo, yk + n, qdd);
      sol->energy[k] = mo->eom.field[2][0];
      for (a = 0; a < m; a++)
        {
          sol->phi[k * m + a] = mo->mot.field[0][a];
          sol->gpos[k * m + a] = mo->mot.field[4][a];
        }
      drift = fmax (drift, drift_at (mo, sol, k, tq, tv));
    }
  free (qdd);
  sol->drift = drift;
  sol->drift_note = sol->status == VM_OK && ! o->project && mo->law != VM_LAW_EXPLICIT
                    && drift > VM_MOTION_DRIFT_NOTE;
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
  double *grid;                /* 101 output times of a projected run without tout, or NULL */
  int *dir, *term;             /* event directions and terminal flags (hard walls) */
  const double *tt;            /* output times (nt) */
  size_t nt;
  size_t ti_cap, ci_cap, yb_cap, ya_cap, t_cap, y_cap;   /* capacities of sol's arrays */
  long max_imp;
  vm_ode_opts oo;              /* the options of vm_ode_solve (events, step check) */
  vm_ode_sol seg;              /* the last segment */
} mi_ws;

/* the output times, the state y and the event and layer-check options of vm_ode_solve */
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
  if (o->project && w->nt == 0)
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

/* the next segment: the output times tt[*first ..] (*cnt of them) and its end *tend; *stop = 1
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

/* append the segment's points; drop a repeated start point and, with output times, the event
 * point */
static int
mi_append_segment (mi_ws *w, size_t first, size_t cnt)
{
  vm_motion_sol *sol = w->sol;
  const vm_ode_sol *seg = &w->seg;
  const double *tt = w->tt;
  size_t nt = w->nt, ny = (size_t) w->ny, j, nkeep;
  double t0 = w->t0, tf = w->tf;
  int stored_start, st;
  stored_start = nt == 0 && sol->npts > 0 && seg->npts > 0 && sol->t[sol->npts - 1] == seg->t[0]
                 && memcmp (sol->y + (sol->npts - 1) * ny, seg->y, ny * sizeof (double)) == 0;
  /* with output times, a terminal event appends the event point unless it falls on an output
   * time: keep only the points at output times */
  nkeep = seg->npts;
  if (nt > 0 && seg->status == VM_STOP_EVENT && seg->npts > 0)
    {
      size_t r = 0;
      while (r < cnt && (tf > t0 ? tt[first + r] <= seg->t_end : tt[first + r] >= seg->t_end))
        r++;
      if (seg->npts > r)
        nkeep = r;
    }
  for (j = stored_start ? 1 : 0; j < nkeep; j++)
    {
      if ((st = mi_grow_points (w)) != VM_OK)
        return st;
      mi_put_point (w, seg->t[j], seg->y + j * ny);
    }
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
      /* one segment: to tf, or with projection to the next output time */
      size_t first, cnt, nt = w->nt;
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
      vm_ode_solve (&sys, w->t, tend, w->y, nt > 0 ? w->tt + first : NULL, nt > 0 ? cnt : 0,
                    &w->oo, &w->seg);
      mi_add_counts (sol, &w->seg);
      if ((st = mi_append_segment (w, first, cnt)) != VM_OK)
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
  w.tt = tout;
  w.nt = ntout;
  w.max_imp = o->max_impacts > 0 ? o->max_impacts : 100000;
  w.oo = o->ode;
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
    post_process (mo, o, sol, nm, w.ny);
  free (w.y);
  free (w.grid);
  free (w.dir);
  free (w.term);
  vm_ode_sol_free (&w.seg);
  return sol->status;
}
