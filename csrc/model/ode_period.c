/* ode_period.c -- a first-order system with its period as a state (see model.h, vm_ode_period).
 *
 * periodic_orbit solves for an orbit of x' = F(x) on s in [0, 1] with the period P as an unknown:
 * dx/ds = P F(x), dP/ds = 0.  This system is built here from the compiled model of F, so that the
 * search parses no formula: the graph of F is replayed into a new graph with the variables moved
 * to the new layout (vm_graph_push, in the original order, after the variable P, which is the
 * first node as when the text "P*(F)" is parsed), and each right-hand side becomes P * F_i
 * through the simplifying constructor, as the parser builds a product.  Cost: linear in the size
 * of the graph. */
#include "model/model.h"
#include "base/vm_status.h"

#include <stdlib.h>
#include <string.h>

int
vm_ode_period (const vm_ode *o, vm_ode *aug)
{
  size_t nn, k;
  int32_t *id = NULL, P;
  int v, st = VM_ENOMEM, i;
  memset (aug, 0, sizeof *aug);
  if (! o || ! o->g || o->na != 0 || o->nd != o->ny)
    return VM_EARG;
  vm_ode_layout (aug, o->ny + 1, o->np, o->nd + 1, 0);
  nn = vm_graph_size (o->g);
  aug->g = vm_graph_new (aug->nvar);
  aug->F = malloc ((size_t) aug->nd * sizeof *aug->F);
  aug->G = malloc (sizeof *aug->G);
  id = malloc ((nn > 0 ? nn : 1) * sizeof *id);
  if (! aug->g || ! aug->F || ! aug->G || ! id)
    goto done;
  P = vm_var (aug->g, aug->vy + o->ny);
  for (k = 0; k < nn; k++)
    {
      vm_node nd = *vm_graph_node (o->g, (int32_t) k);
      if (nd.op == VM_OP_VAR)
        {
          v = nd.a;   /* t, y, p, wF of o -> the same of aug (o has no wG) */
          if (v >= o->vwf)
            nd.a = aug->vwf + (v - o->vwf);
          else if (v >= o->vp)
            nd.a = aug->vp + (v - o->vp);
        }
      else if (nd.op != VM_OP_CONST)
        {
          nd.a = id[nd.a];
          if (vm_op_arity (nd.op) == 2)
            nd.b = id[nd.b];
        }
      if ((id[k] = vm_graph_push (aug->g, &nd)) < 0)
        goto done;
    }
  for (i = 0; i < o->nd; i++)
    aug->F[i] = vm_binary (aug->g, VM_OP_MUL, P, id[o->F[i]]);
  aug->F[o->nd] = vm_const (aug->g, 0.0);
  st = vm_graph_status (aug->g);
done:
  free (id);
  if (st != VM_OK)
    vm_ode_free (aug);
  return st;
}
