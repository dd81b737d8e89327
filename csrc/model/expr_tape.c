/* expr_tape.c -- tapes (see expr.h): the compiler from output nodes of a graph to a flat list of
 * instructions over numbered slots (constants and variables first, slots reused after their last
 * use, small integer powers as POWI), the validator of tapes received from outside, and the
 * evaluator over arrays of points in blocks, with work memory from the caller and a scalar path for
 * one point that gives bitwise the same results. */
#include "model/expr.h"
#include "model/expr_impl.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Points per block: large blocks amortize the switch per instruction and the change of output
 * stream; the work memory (nslot blocks) is kept within 512 KiB so that it stays in cache. */
static int
block_size (const vm_tape *tp)
{
  int bs = 1024;
  while (bs > 64 && (size_t) (tp->nslot > 0 ? tp->nslot : 1) * (size_t) bs * sizeof (double) > 524288)
    bs /= 2;
  return bs;
}

void
vm_tape_free (vm_tape *tp)
{
  if (! tp)
    return;
  free (tp->code);
  tp->code = NULL;
  tp->ninstr = tp->nprologue = tp->nslot = 0;
}

/* The nodes the outputs need (mark) and, per node, its outputs in increasing order (firstout[node],
 * then nextout[output], -1 at the end) and their number (outcnt, zeroed by the caller). */
static void
mark_needed (const vm_graph *g, int nout, const int32_t *outputs, char *mark, int32_t *outcnt,
             int32_t *firstout, int32_t *nextout)
{
  size_t n = g->n, k;
  int i;
  for (k = 0; k < n; k++)
    firstout[k] = -1;
  for (i = nout; i-- > 0;)   /* per node, its outputs in increasing order */
    {
      mark[outputs[i]] = 1;
      outcnt[outputs[i]]++;
      nextout[i] = firstout[outputs[i]];
      firstout[outputs[i]] = i;
    }
  for (k = n; k-- > 0;)   /* children have smaller ids: one backward sweep marks what is needed */
    if (mark[k])
      {
        int ar = vm_op_arity (g->nodes[k].op);
        if (ar >= 1)
          mark[g->nodes[k].a] = 1;
        if (ar == 2)
          mark[g->nodes[k].b] = 1;
      }
}

/* Last use (as an operand) of every node the outputs need, by node id of the user (-1: none).  The
 * exponent of a power compiled to POWI is not read. */
static void
last_use (const vm_graph *g, const char *mark, int32_t *last)
{
  size_t n = g->n, k;
  for (k = 0; k < n; k++)
    last[k] = -1;
  for (k = 0; k < n; k++)
    if (mark[k])
      {
        const vm_node *nd = &g->nodes[k];
        int ar = vm_op_arity (nd->op);
        if (ar >= 1)
          last[nd->a] = (int32_t) k;
        if (ar == 2 && ! (nd->op == VM_OP_POW && ISC (nd->b) && vm_expr_is_int (CV (nd->b))
                          && fabs (CV (nd->b)) <= 64))
          last[nd->b] = (int32_t) k;
      }
}

/* The compiler's work: per graph node its slot, last use, marks and outputs; the code so far and
 * the free list of slots. */
typedef struct
{
  int32_t *slot, *last, *freel, *outcnt, *firstout, *nextout;
  char *mark;
  vm_instr *code;
  int nfree, nslot, ni;
} compile_ws;

/* free the compiler's work (the code too, unless taken) */
static void
compile_ws_free (compile_ws *w)
{
  free (w->code);
  free (w->freel);
  free (w->mark);
  free (w->slot);
  free (w->last);
  free (w->outcnt);
  free (w->firstout);
  free (w->nextout);
}

/* prologue: constants and variables in permanent slots */
static void
emit_prologue (const vm_graph *g, compile_ws *w)
{
  size_t n = g->n, k;
  for (k = 0; k < n; k++)
    if (w->mark[k] && vm_op_arity (g->nodes[k].op) == 0)
      {
        const vm_node *nd = &g->nodes[k];
        vm_instr *in = &w->code[w->ni];
        if (nd->op == VM_OP_CONST && w->last[k] < 0 && w->outcnt[k] == 0)
          continue;   /* a constant only used as a POWI exponent */
        w->slot[k] = w->nslot++;
        in->op = nd->op;
        in->dst = w->slot[k];
        in->a = nd->op == VM_OP_VAR ? nd->a : -1;
        in->b = -1;
        in->imm = nd->op == VM_OP_CONST ? nd->c : 0.0;
        w->ni++;
      }
}

/* the instruction of needed node k (operation nodes; slots freed after their last use here) and
 * the stores of its outputs */
static void
emit_node (const vm_graph *g, compile_ws *w, size_t k)
{
  const vm_node *nd = &g->nodes[k];
  int ar = vm_op_arity (nd->op), i;
  if (ar > 0)
    {
      vm_instr *in = &w->code[w->ni++];
      int powi = nd->op == VM_OP_POW && ISC (nd->b) && vm_expr_is_int (CV (nd->b))
                 && fabs (CV (nd->b)) <= 64;
      in->op = powi ? VM_OP_POWI : nd->op;
      in->a = w->slot[nd->a];
      in->b = (ar == 2 && ! powi) ? w->slot[nd->b] : -1;
      in->imm = powi ? CV (nd->b) : 0.0;
      /* free operands whose last use is here (not prologue slots) */
      if (w->last[nd->a] == (int32_t) k && vm_op_arity (g->nodes[nd->a].op) > 0)
        w->freel[w->nfree++] = w->slot[nd->a];
      if (in->b >= 0 && nd->b != nd->a && w->last[nd->b] == (int32_t) k
          && vm_op_arity (g->nodes[nd->b].op) > 0)
        w->freel[w->nfree++] = w->slot[nd->b];
      w->slot[k] = w->nfree > 0 ? w->freel[--w->nfree] : w->nslot++;
      in->dst = w->slot[k];
    }
  for (i = w->firstout[k]; i >= 0; i = w->nextout[i])
    {
      vm_instr *st = &w->code[w->ni++];
      st->op = VM_OP_STORE;
      st->dst = -1;
      st->a = w->slot[k];
      st->b = -1;
      st->imm = (double) i;
    }
  if (ar > 0 && w->last[k] < 0)   /* an output nobody else reads */
    w->freel[w->nfree++] = w->slot[k];
}

int
vm_tape_compile (const vm_graph *g, int nout, const int32_t *outputs, vm_tape *tp)
{
  size_t n = g->n, k;
  compile_ws w;
  int cap, st = VM_ENOMEM, i;

  memset (tp, 0, sizeof *tp);
  memset (&w, 0, sizeof w);
  if (nout < 0 || (nout > 0 && ! outputs))
    return VM_EARG;
  for (i = 0; i < nout; i++)
    if (outputs[i] < 0 || (size_t) outputs[i] >= n)
      return VM_EARG;
  w.mark = calloc (n ? n : 1, 1);
  w.slot = malloc ((n ? n : 1) * sizeof *w.slot);
  w.last = malloc ((n ? n : 1) * sizeof *w.last);
  w.outcnt = calloc (n ? n : 1, sizeof *w.outcnt);
  w.firstout = malloc ((n ? n : 1) * sizeof *w.firstout);
  w.nextout = malloc ((size_t) (nout > 0 ? nout : 1) * sizeof *w.nextout);
  if (! w.mark || ! w.slot || ! w.last || ! w.outcnt || ! w.firstout || ! w.nextout)
    goto done;
  mark_needed (g, nout, outputs, w.mark, w.outcnt, w.firstout, w.nextout);
  last_use (g, w.mark, w.last);
  cap = 16;
  for (k = 0; k < n; k++)
    cap += w.mark[k] ? 1 : 0;
  cap += nout;
  w.code = malloc ((size_t) cap * sizeof *w.code);
  w.freel = malloc ((size_t) cap * sizeof *w.freel);
  if (! w.code || ! w.freel)
    goto done;
  emit_prologue (g, &w);
  tp->nprologue = w.ni;
  for (k = 0; k < n; k++)
    if (w.mark[k])
      emit_node (g, &w, k);
  tp->nvar = g->nvar;
  tp->nout = nout;
  tp->nslot = w.nslot;
  tp->ninstr = w.ni;
  tp->code = w.code;
  w.code = NULL;
  st = VM_OK;
done:
  compile_ws_free (&w);
  return st;
}

int
vm_tape_validate (const vm_tape *tp)
{
  char *written;
  int i, st = VM_EARG;
  if (! tp || tp->nvar < 0 || tp->nout < 0 || tp->nslot < 0 || tp->ninstr < 0
      || tp->nprologue < 0 || tp->nprologue > tp->ninstr || (tp->ninstr > 0 && ! tp->code))
    return VM_EARG;
  written = calloc ((size_t) tp->nslot + 1, 1);   /* 0 unwritten, 1 written, 2 prologue */
  if (! written)
    return VM_ENOMEM;
  for (i = 0; i < tp->ninstr; i++)
    {
      const vm_instr *in = &tp->code[i];
      int prol = i < tp->nprologue, ar;
      if (prol != (in->op == VM_OP_CONST || in->op == VM_OP_VAR))
        goto done;
      if (in->op == VM_OP_STORE)
        {
          if (in->a < 0 || in->a >= tp->nslot || ! written[in->a] || ! (in->imm >= 0)
              || in->imm >= tp->nout || in->imm != floor (in->imm))
            goto done;
          continue;
        }
      if (in->op < 0 || in->op >= VM_OP_COUNT)
        goto done;
      if (in->dst < 0 || in->dst >= tp->nslot)
        goto done;
      if (prol)
        {
          if (written[in->dst])
            goto done;
          if (in->op == VM_OP_VAR && (in->a < 0 || in->a >= tp->nvar))
            goto done;
          written[in->dst] = 2;
          continue;
        }
      ar = in->op == VM_OP_POWI ? 1 : vm_op_arity (in->op);
      if (ar < 1)
        goto done;
      if (in->a < 0 || in->a >= tp->nslot || ! written[in->a])
        goto done;
      if (ar == 2 && (in->b < 0 || in->b >= tp->nslot || ! written[in->b]))
        goto done;
      if (ar == 1 && in->b != -1)
        goto done;   /* the compiler writes -1; evaluation reads slot b whenever b >= 0 */
      if (in->op == VM_OP_POWI && (in->imm != floor (in->imm) || fabs (in->imm) > 64))
        goto done;
      if (written[in->dst] == 2)
        goto done;
      written[in->dst] = 1;
    }
  st = VM_OK;
done:
  free (written);
  return st;
}

/* Work memory: nslot blocks of doubles, then one flag byte per instruction and per slot (rounded
 * up to whole doubles), so that evaluation allocates nothing. */
static size_t
flag_bytes (const vm_tape *tp)
{
  return (size_t) (tp->ninstr > 0 ? tp->ninstr : 1) + (size_t) (tp->nslot > 0 ? tp->nslot : 1);
}

size_t
vm_tape_work_size (const vm_tape *tp)
{
  return (size_t) (tp->nslot > 0 ? tp->nslot : 1) * (size_t) block_size (tp)
         + (flag_bytes (tp) + sizeof (double) - 1) / sizeof (double);
}

static void
powi_block (double *r, const double *x, int k, int bn)
{
  int i, m = k < 0 ? -k : k;
  switch (k)
    {
    case 2: for (i = 0; i < bn; i++) r[i] = x[i] * x[i]; return;
    case 3: for (i = 0; i < bn; i++) r[i] = x[i] * x[i] * x[i]; return;
    case -1: for (i = 0; i < bn; i++) r[i] = 1.0 / x[i]; return;
    case -2: for (i = 0; i < bn; i++) r[i] = 1.0 / (x[i] * x[i]); return;
    default: break;
    }
  for (i = 0; i < bn; i++)
    {
      double b = x[i], acc = 1.0;
      int e = m;
      while (e)
        {
          if (e & 1)
            acc *= b;
          b *= b;
          e >>= 1;
        }
      r[i] = k < 0 ? 1.0 / acc : acc;
    }
}

/* One point (the integrators' right-hand sides): a scalar interpreter over a dense slot array v;
 * the same operations as the blocked path, so the results are bitwise equal. */
static void
eval_point (const vm_tape *tp, const double *const *in, double *const *out, double *v)
{
  int i;
  for (i = 0; i < tp->ninstr; i++)
    {
      const vm_instr *c = &tp->code[i];
      switch (c->op)
        {
        case VM_OP_CONST: v[c->dst] = c->imm; break;
        case VM_OP_VAR: v[c->dst] = in[c->a][0]; break;
        case VM_OP_STORE:
          if (out[(int) c->imm])
            out[(int) c->imm][0] = v[c->a];
          break;
        case VM_OP_NEG: v[c->dst] = -v[c->a]; break;
        case VM_OP_ADD: v[c->dst] = v[c->a] + v[c->b]; break;
        case VM_OP_SUB: v[c->dst] = v[c->a] - v[c->b]; break;
        case VM_OP_MUL: v[c->dst] = v[c->a] * v[c->b]; break;
        case VM_OP_DIV: v[c->dst] = v[c->a] / v[c->b]; break;
        case VM_OP_POWI: powi_block (v + c->dst, v + c->a, (int) c->imm, 1); break;
        default:
          v[c->dst] = vm_expr_apply_op (c->op, v[c->a], c->b >= 0 ? v[c->b] : 0.0);
        }
    }
}

/* Instructions whose operands are the same at every point (constants, broadcast inputs and what
 * is computed from them only) are evaluated once per block and their value copied: a function of
 * the parameters costs one call, not one per point.  uni[i] flags instruction i, suni[s] the
 * value in slot s (inc: the input increments of vm_tape_eval). */
static void
mark_uniform (const vm_tape *tp, const int *inc, unsigned char *uni, unsigned char *suni)
{
  int i;
  for (i = 0; i < tp->ninstr; i++)
    {
      const vm_instr *c = &tp->code[i];
      if (c->op == VM_OP_STORE)
        uni[i] = 0;
      else if (c->op == VM_OP_CONST)
        uni[i] = 1;
      else if (c->op == VM_OP_VAR)
        uni[i] = ! inc[c->a];
      else
        uni[i] = suni[c->a] && (c->b < 0 || suni[c->b]);
      if (c->op != VM_OP_STORE)
        suni[c->dst] = uni[i];
    }
}

/* prologue: constants and broadcast variables once per call, into the first fill points */
static void
fill_prologue (const vm_tape *tp, const double *const *in, const int *inc, double *work,
               size_t bsz, size_t fill)
{
  int i;
  for (i = 0; i < tp->nprologue; i++)
    {
      const vm_instr *c = &tp->code[i];
      double *r = work + (size_t) c->dst * bsz, v;
      size_t j;
      if (c->op == VM_OP_VAR && inc[c->a])
        continue;
      v = c->op == VM_OP_CONST ? c->imm : in[c->a][0];
      for (j = 0; j < fill; j++)
        r[j] = v;
    }
}

/* the instructions after the prologue on the block of bn points from p0 (inputs loaded) */
static void
eval_block (const vm_tape *tp, const unsigned char *uni, double *const *out, double *work,
            size_t bsz, size_t p0, int bn)
{
  int i, j;
  for (i = tp->nprologue; i < tp->ninstr; i++)
    {
      const vm_instr *c = &tp->code[i];
      double *r = c->dst >= 0 ? work + (size_t) c->dst * bsz : NULL;
      const double *x = work + (size_t) c->a * bsz;
      const double *y = c->b >= 0 ? work + (size_t) c->b * bsz : NULL;
      if (uni[i])
        {
          if (c->op == VM_OP_POWI)
            powi_block (r, x, (int) c->imm, 1);
          else
            r[0] = vm_expr_apply_op (c->op, x[0], y ? y[0] : 0.0);
          for (j = 1; j < bn; j++)
            r[j] = r[0];
          continue;
        }
      switch (c->op)
        {
        case VM_OP_STORE:
          if (out[(int) c->imm])
            memcpy (out[(int) c->imm] + p0, x, (size_t) bn * sizeof (double));
          break;
        case VM_OP_NEG: for (j = 0; j < bn; j++) r[j] = -x[j]; break;
        case VM_OP_ADD: for (j = 0; j < bn; j++) r[j] = x[j] + y[j]; break;
        case VM_OP_SUB: for (j = 0; j < bn; j++) r[j] = x[j] - y[j]; break;
        case VM_OP_MUL: for (j = 0; j < bn; j++) r[j] = x[j] * y[j]; break;
        case VM_OP_DIV: for (j = 0; j < bn; j++) r[j] = x[j] / y[j]; break;
        case VM_OP_POWI: powi_block (r, x, (int) c->imm, bn); break;
        case VM_OP_SQRT: for (j = 0; j < bn; j++) r[j] = sqrt (x[j]); break;
        case VM_OP_ABS: for (j = 0; j < bn; j++) r[j] = fabs (x[j]); break;
        case VM_OP_SIGN: for (j = 0; j < bn; j++) r[j] = vm_expr_sgn (x[j]); break;
        case VM_OP_SIN: for (j = 0; j < bn; j++) r[j] = sin (x[j]); break;
        case VM_OP_COS: for (j = 0; j < bn; j++) r[j] = cos (x[j]); break;
        case VM_OP_EXP: for (j = 0; j < bn; j++) r[j] = exp (x[j]); break;
        case VM_OP_LOG: for (j = 0; j < bn; j++) r[j] = log (x[j]); break;
        case VM_OP_TANH: for (j = 0; j < bn; j++) r[j] = tanh (x[j]); break;
        case VM_OP_MIN: for (j = 0; j < bn; j++) r[j] = fmin (x[j], y[j]); break;
        case VM_OP_MAX: for (j = 0; j < bn; j++) r[j] = fmax (x[j], y[j]); break;
        default:
          if (y)
            for (j = 0; j < bn; j++) r[j] = vm_expr_apply_op (c->op, x[j], y[j]);
          else
            for (j = 0; j < bn; j++) r[j] = vm_expr_apply_op (c->op, x[j], 0.0);
        }
    }
}

int
vm_tape_eval (const vm_tape *tp, size_t npts, const double *const *in, const int *inc,
              double *const *out, double *work)
{
  size_t p0, fill;
  int i;
  unsigned char *uni, *suni;
  const size_t bsz = tp ? (size_t) block_size (tp) : 1;
  if (! tp || (npts > 0 && (! work || (tp->nvar > 0 && (! in || ! inc)) || (tp->nout > 0 && ! out))))
    return VM_EARG;
  if (npts == 0)
    return VM_OK;
  if (npts == 1)
    {
      eval_point (tp, in, out, work);
      return VM_OK;
    }
  /* uni: the instructions whose value is the same at every point (mark_uniform) */
  uni = (unsigned char *) (work + (size_t) (tp->nslot > 0 ? tp->nslot : 1) * bsz);
  suni = uni + (tp->ninstr > 0 ? tp->ninstr : 1);
  fill = npts < bsz ? npts : bsz;
  mark_uniform (tp, inc, uni, suni);
  fill_prologue (tp, in, inc, work, bsz, fill);
  for (p0 = 0; p0 < npts; p0 += bsz)
    {
      int bn = (int) (npts - p0 < bsz ? npts - p0 : bsz);
      for (i = 0; i < tp->nprologue; i++)
        {
          const vm_instr *c = &tp->code[i];
          if (c->op == VM_OP_VAR && inc[c->a])
            memcpy (work + (size_t) c->dst * bsz, in[c->a] + p0, (size_t) bn * sizeof (double));
        }
      eval_block (tp, uni, out, work, bsz, p0, bn);
    }
  return VM_OK;
}
