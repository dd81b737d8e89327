/* vm_march_mx.h -- the record of a time march (csrc/march/march.h) as Octave/MATLAB values, shared by
 * the gateways of the action solvers (vm_skg_mex, vm_dual_mex): the schemas (vm_solution_mx.h) of
 * its windows' table and of its rejected attempts, whose offsets count from a vm_march_sol, and
 * the makers of the fields that are no single array of it.  Conversion only. */
#ifndef VM_MARCH_MX_H
#define VM_MARCH_MX_H

#include <stddef.h>
#include <string.h>

#include "vm_mex.h"
#include "vm_solution_mx.h"
#include "march/march.h"

/* The makers below read the vm_march_sol at the row's offset (0 in the tables of this file; in a
 * solver's table, the offset of its march record). */
#define VM_MARCH_MX_AT(s, f) ((const vm_march_sol *) (const void *) ((const char *) (s)->sol + (f)->off))

/* windows.N: the nodes per window (size symbol VM_SZ_NODES), once per accepted window */
static VM_MAYBE_UNUSED mxArray *
vm_march_mx_nodes (const vm_sol_src *s, const vm_sol_field *f)
{
  size_t k, nw = vm_sol_dim (s, f->rows);
  mxArray *a = mxCreateDoubleMatrix (nw, 1, mxREAL);
  for (k = 0; k < nw; k++)
    mxGetPr (a)[k] = (double) s->size[VM_SZ_NODES];
  return a;
}

/* rejected.reason: "error", "newton", "companion", or the check_name of the action's check */
static VM_MAYBE_UNUSED mxArray *
vm_march_mx_reasons (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_march_sol *ms = VM_MARCH_MX_AT (s, f);
  size_t k, nr = vm_sol_dim (s, f->rows);
  mxArray *reason = mxCreateCellMatrix (nr, 1);
  for (k = 0; k < nr; k++)
    mxSetCell (reason, k, mxCreateString (ms->rej_reason[k] == VM_MARCH_REJ_ERROR ? "error"
                                          : ms->rej_reason[k] == VM_MARCH_REJ_NEWTON ? "newton"
                                          : ms->rej_reason[k] == VM_MARCH_REJ_CHECK
                                          ? ms->check_name : "companion"));
  return reason;
}

/* step_kind: the kind of each Newton step of the history (newton.h vm_newton_kind_name) */
static VM_MAYBE_UNUSED mxArray *
vm_march_mx_step_kinds (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_march_sol *ms = VM_MARCH_MX_AT (s, f);
  size_t h, nh = vm_sol_dim (s, f->rows);
  mxArray *kd = mxCreateCellMatrix (nh, 1);
  for (h = 0; h < nh; h++)
    mxSetCell (kd, h, mxCreateString (vm_newton_kind_name (ms->kind_hist[h])));
  return kd;
}

/* history_window: the accepted window (1-based) of each history entry */
static VM_MAYBE_UNUSED mxArray *
vm_march_mx_history_window (const vm_sol_src *s, const vm_sol_field *f)
{
  const vm_march_sol *ms = VM_MARCH_MX_AT (s, f);
  size_t h, nh = vm_sol_dim (s, f->rows);
  mxArray *hw = mxCreateDoubleMatrix (nh, 1, mxREAL);
  for (h = 0; h < nh; h++)
    mxGetPr (hw)[h] = ms->hist_win[h] + 1;
  return hw;
}

#define VM_MARCH_ROW(name, kind, rows, member, unit, meaning) \
  { name, kind, rows, VM_SZ_1, 0, offsetof (vm_march_sol, member), NULL, NULL, unit, meaning }
#define VM_MARCH_MAKE(name, rows, make, unit, meaning) \
  { name, VM_SOLF_MAKE, rows, VM_SZ_1, 0, 0, make, NULL, unit, meaning }

/* out.windows: one row per accepted window */
static VM_MAYBE_UNUSED const vm_sol_field vm_march_windows_schema[] = {
  VM_MARCH_ROW ("t0", VM_SOLF_REAL, VM_SZ_NWIN, win_t0, "[t]", "start of each window"),
  VM_MARCH_ROW ("t1", VM_SOLF_REAL, VM_SZ_NWIN, win_t1, "[t]", "end of each window"),
  VM_MARCH_MAKE ("N", VM_SZ_NWIN, vm_march_mx_nodes, "1", "nodes of each window"),
  VM_MARCH_ROW ("error", VM_SOLF_REAL, VM_SZ_NWIN, win_err, "1",
                "error estimate relative to the tolerance (NaN when not estimated)"),
  VM_MARCH_ROW ("iterations", VM_SOLF_INTS, VM_SZ_NWIN, win_iter, "1",
                "Newton steps of the main solve"),
  VM_MARCH_ROW ("companion_iterations", VM_SOLF_INTS, VM_SZ_NWIN, win_citer, "1",
                "Newton steps of the companion order's solve (0 when none)"),
  { NULL, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL }
};

/* out.rejected: one row per rejected attempt */
static VM_MAYBE_UNUSED const vm_sol_field vm_march_rejected_schema[] = {
  VM_MARCH_ROW ("t0", VM_SOLF_REAL, VM_SZ_NREJ, rej_t0, "[t]", "start of the attempt"),
  VM_MARCH_ROW ("length", VM_SOLF_REAL, VM_SZ_NREJ, rej_len, "[t]",
                "length of the attempted window"),
  VM_MARCH_MAKE ("reason", VM_SZ_NREJ, vm_march_mx_reasons, "",
                 "'error', 'newton', 'companion' or the name of the action's check ('contact')"),
  VM_MARCH_ROW ("error", VM_SOLF_REAL, VM_SZ_NREJ, rej_err, "1",
                "error estimate relative to the tolerance (NaN when none)"),
  { NULL, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL }
};

#undef VM_MARCH_ROW
#undef VM_MARCH_MAKE

/* The size symbols of a march record: accepted windows, rejected attempts, history entries,
 * nodes per window N. */
static VM_MAYBE_UNUSED void
vm_march_mx_sizes (vm_sol_src *s, const vm_march_sol *ms, int64_t N)
{
  s->size[VM_SZ_NWIN] = ms->nwin;
  s->size[VM_SZ_NREJ] = ms->nrej;
  s->size[VM_SZ_NHIST] = ms->nhist;
  s->size[VM_SZ_NODES] = N;
}

/* out.windows, out.rejected (the schemas above) and out.unresolved_windows (fixed grid: the
 * windows the action's check vetoes, kept) of the march record ms.  N: nodes per window. */
static VM_MAYBE_UNUSED void
vm_march_mx_windows (mxArray *out, const vm_march_sol *ms, int64_t N)
{
  vm_sol_src s;
  memset (&s, 0, sizeof s);
  s.sol = ms;
  vm_march_mx_sizes (&s, ms, N);
  mxSetField (out, 0, "windows", vm_solution_mx (vm_march_windows_schema, &s));
  mxSetField (out, 0, "rejected", vm_solution_mx (vm_march_rejected_schema, &s));
  mxAddField (out, "unresolved_windows");
  mxSetField (out, 0, "unresolved_windows", mxCreateDoubleScalar ((double) ms->nunresolved));
}

#endif
