/* model_block.c -- compiled blocks (a tape and the placement of its outputs in named per-point
 * fields: validation, evaluation) and the builder that makes them from output nodes of a graph
 * (see model.h).  Kept apart from model.c, which builds the systems, because the solvers build
 * their own blocks (the SKG and dual actions) with the same builder. */
#include "model/model.h"
#include "base/vm_status.h"

#include <stdlib.h>
#include <string.h>

/* ---- blocks ------------------------------------------------------------------------------------ */

void
vm_block_free (vm_block *b)
{
  if (! b)
    return;
  vm_tape_free (&b->tape);
  free (b->field);
  free (b->out_field);
  free (b->out_index);
  memset (b, 0, sizeof *b);
}

int
vm_block_validate (const vm_block *b)
{
  int k, st;
  if (! b || b->nfield < 0 || (b->nfield > 0 && ! b->field))
    return VM_EARG;
  st = vm_tape_validate (&b->tape);
  if (st != VM_OK)
    return st;
  if (b->tape.nout > 0 && (! b->out_field || ! b->out_index))
    return VM_EARG;
  for (k = 0; k < b->nfield; k++)
    if (b->field[k].dim[0] < 0 || b->field[k].dim[1] < 0
        || (double) b->field[k].dim[0] * b->field[k].dim[1] > 1e8)
      return VM_EARG;
  for (k = 0; k < b->tape.nout; k++)
    {
      int f = b->out_field[k];
      if (f < 0 || f >= b->nfield || b->out_index[k] < 0
          || b->out_index[k] >= b->field[f].dim[0] * b->field[f].dim[1])
        return VM_EARG;
    }
  return VM_OK;
}

int
vm_block_eval (const vm_block *b, size_t npts, const double *const *in, const int *inc,
               double *const *fields, double *work)
{
  double **out;
  char *covered;
  size_t tot = 0, off;
  int k, f, st;
  if (! b || (b->nfield > 0 && ! fields))
    return VM_EARG;
  for (f = 0; f < b->nfield; f++)
    tot += (size_t) b->field[f].dim[0] * (size_t) b->field[f].dim[1];
  out = malloc ((size_t) (b->tape.nout > 0 ? b->tape.nout : 1) * sizeof *out);
  covered = calloc (tot > 0 ? tot : 1, 1);
  if (! out || ! covered)
    {
      free (out);
      free (covered);
      return VM_ENOMEM;
    }
  for (k = 0; k < b->tape.nout; k++)
    {
      double *fp = fields[b->out_field[k]];
      out[k] = fp ? fp + npts * (size_t) b->out_index[k] : NULL;
      for (f = 0, off = 0; f < b->out_field[k]; f++)
        off += (size_t) b->field[f].dim[0] * (size_t) b->field[f].dim[1];
      covered[off + (size_t) b->out_index[k]] = 1;
    }
  /* structural zeros: written here, once */
  for (f = 0, off = 0; f < b->nfield; f++)
    {
      size_t ne = (size_t) b->field[f].dim[0] * (size_t) b->field[f].dim[1], e;
      if (fields[f])
        for (e = 0; e < ne; e++)
          if (! covered[off + e])
            memset (fields[f] + npts * e, 0, npts * sizeof (double));
      off += ne;
    }
  free (covered);
  st = vm_tape_eval (&b->tape, npts, in, inc, (double *const *) out, work);
  free (out);
  return st;
}

/* A block under construction (vm_builder, model.h). */
typedef vm_builder builder;

static int
bld_field (builder *b, const char *name, int d0, int d1)
{
  if (b->status != VM_OK)
    return -1;
  if (b->nfield == b->fcap)
    {
      int nc = b->fcap ? 2 * b->fcap : 8;
      vm_field *nf = realloc (b->field, (size_t) nc * sizeof *nf);
      if (! nf)
        {
          b->status = VM_ENOMEM;
          return -1;
        }
      b->field = nf;
      b->fcap = nc;
    }
  memset (&b->field[b->nfield], 0, sizeof b->field[b->nfield]);
  strncpy (b->field[b->nfield].name, name, VM_FIELD_NAME - 1);
  b->field[b->nfield].dim[0] = d0 > 0 ? d0 : 0;
  b->field[b->nfield].dim[1] = d1 > 0 ? d1 : 0;
  return b->nfield++;
}

/* Output node at (i, j) of field f (column-major), unless it is the constant 0. */
static void
bld_out (builder *b, int f, int i, int j, int32_t node)
{
  const vm_node *nd;
  if (b->status != VM_OK || f < 0)
    return;
  if (node < 0)
    {
      b->status = vm_graph_status (b->g) != VM_OK ? vm_graph_status (b->g) : VM_ENOMEM;
      return;
    }
  nd = vm_graph_node (b->g, node);
  if (nd->op == VM_OP_CONST && nd->c == 0)
    return;
  if (b->nout == b->ocap)
    {
      int nc = b->ocap ? 2 * b->ocap : 64;
      int32_t *n1 = realloc (b->node, (size_t) nc * sizeof *n1);
      int32_t *n2 = n1 ? realloc (b->of, (size_t) nc * sizeof *n2) : NULL;
      int32_t *n3 = n2 ? realloc (b->oi, (size_t) nc * sizeof *n3) : NULL;
      if (n1)
        b->node = n1;
      if (n2)
        b->of = n2;
      if (! n1 || ! n2 || ! n3)
        {
          b->status = VM_ENOMEM;
          return;
        }
      b->oi = n3;
      b->ocap = nc;
    }
  b->node[b->nout] = node;
  b->of[b->nout] = f;
  b->oi[b->nout] = i + b->field[f].dim[0] * j;
  b->nout++;
}

static int
bld_finish (builder *b, vm_block *blk)
{
  int st = b->status;
  memset (blk, 0, sizeof *blk);
  if (st == VM_OK)
    st = vm_tape_compile (b->g, b->nout, b->node, &blk->tape);
  if (st == VM_OK)
    {
      blk->nfield = b->nfield;
      blk->field = b->field;
      blk->out_field = b->of;
      blk->out_index = b->oi;
      b->field = NULL;
      b->of = b->oi = NULL;
    }
  free (b->field);
  free (b->node);
  free (b->of);
  free (b->oi);
  return st;
}

/* Symmetric Hessian block d2 e / dx_i dy_j for variable ranges x = vx.., y = vy.. (n x n);
 * sym = 1 when the two ranges coincide (lower triangle computed, mirrored). */
static void
bld_hess (builder *b, int f, int32_t e, int vx, int vy, int n, int sym)
{
  int i, j;
  for (i = 0; i < n && b->status == VM_OK; i++)
    {
      int32_t di = vm_diff (b->g, e, vx + i);
      for (j = 0; j < (sym ? i + 1 : n) && b->status == VM_OK; j++)
        {
          int32_t dij = di >= 0 ? vm_diff (b->g, di, vy + j) : -1;
          bld_out (b, f, i, j, dij);
          if (sym && j < i)
            bld_out (b, f, j, i, dij);
        }
    }
}

/* ---- public builder ---------------------------------------------------------------------------- */

void
vm_builder_init (vm_builder *b, vm_graph *g)
{
  memset (b, 0, sizeof *b);
  b->g = g;
}

int
vm_builder_field (vm_builder *b, const char *name, int d0, int d1)
{
  return bld_field (b, name, d0, d1);
}

void
vm_builder_out (vm_builder *b, int f, int i, int j, int32_t node)
{
  bld_out (b, f, i, j, node);
}

int
vm_builder_finish (vm_builder *b, vm_block *blk)
{
  return bld_finish (b, blk);
}

void
vm_builder_hess (vm_builder *b, int f, int32_t e, int vx, int vy, int n, int sym)
{
  bld_hess (b, f, e, vx, vy, n, sym);
}
