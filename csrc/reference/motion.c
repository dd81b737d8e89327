/* motion.c -- the equations of motion of a compiled mechanical system at one point (motion.h): the
 * motion block, the evaluation of the blocks, the accelerations under each reaction law, the
 * check of an initial state and the right-hand side for vm_ode_solve.
 *
 * Contract: see motion.h.  vm_motion_init allocates everything a point needs once, so an
 * evaluation (one tape run per block, O(tape)) and a reaction solve (reaction.h) allocate nothing.
 * The soft-contact layer check is in motion_layer.c, the projection in motion_project.c, the
 * integration with impacts in motion_integrate.c and its post-processing in motion_post.c.
 */
#include "reference/motion.h"
#include "reference/motion_impl.h"
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

int
vm_point_block_eval (vm_point_block *pb, const double *const *in, const int *inc)
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
motion_args_ok (const vm_motion_setup *s, int *ncp)
{
  const int n = s->n, m = s->m, np = s->np, law = s->law, k = s->k;
  const vm_block *eom = s->eom, *mot = s->mot, *con = s->con;
  const double *p = s->p, *B = s->B;
  int nc;
  if (n < 1 || m < 0 || np < 0 || ! eom || ! mot || (np > 0 && ! p)
      || law < VM_LAW_IDEAL || law > VM_LAW_VAKONOMIC || (law == VM_LAW_DIRECTIONS && (k < 1 || ! B)))
    return VM_EARG;
  nc = con ? con->field[0].dim[0] : 0;
  /* the blocks must be the ones of one model: eom (M, f, energy, contact_energy), motion (phi, A,
   * c, hol, gpos, gpos_q), contacts (h, h_q, ...) */
  if (! field_ok (eom, 0, "M", n, n) || ! field_ok (eom, 1, "f", n, 1)
      || ! field_ok (eom, 2, "energy", 1, 1) || ! field_ok (eom, 3, "contact_energy", 1, 1)
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
vm_motion_init (vm_motion *mo, const vm_motion_setup *s)
{
  int st, nc = 0;
  memset (mo, 0, sizeof *mo);
  if (! s)
    return VM_EARG;
  if ((st = motion_args_ok (s, &nc)) != VM_OK)
    return st;
  mo->n = s->n;
  mo->m = s->m;
  mo->nc = nc;
  mo->np = s->np;
  mo->nvar = s->eom->tape.nvar;
  mo->law = s->law;
  mo->k = s->law == VM_LAW_DIRECTIONS ? s->k : 0;
  mo->B = s->B;
  mo->p = s->p;
  if ((st = motion_alloc (mo, s->eom, s->mot, s->con)) != VM_OK
      || (st = mass_constant (mo, s->eom)) != VM_OK)
    {
      vm_motion_free (mo);
      return st;
    }
  return VM_OK;
}

/* the tape inputs t | q | qdot | p (lambda and w stay 0: the Hessian blocks are not used here) */
void
vm_motion_set_inputs (vm_motion *mo, double t, const double *q, const double *qdot)
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
  vm_motion_set_inputs (mo, t, q, qdot);
  mo->nrhs++;
  if ((st = vm_point_block_eval (&mo->eom, mo->in, mo->inc)) != VM_OK
      || (st = vm_point_block_eval (&mo->mot, mo->in, mo->inc)) != VM_OK)
    return st;
  if (want_contacts && mo->con.b)
    return vm_point_block_eval (&mo->con, mo->in, mo->inc);
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
  vm_motion_set_inputs (mo, t, q, qdot);
  if ((st = vm_point_block_eval (&mo->vak, mo->in, mo->inc)) != VM_OK)
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
  if ((st = vm_point_block_eval (&mo->vak, mo->in, mo->inc)) != VM_OK)
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
                       int hard, vm_motion_violation *v)
{
  int *what = &v->what, *index = &v->index;
  double *value = &v->value;
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

