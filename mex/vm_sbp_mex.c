/* vm_sbp_mex.c -- MEX gateway of the SBP kernel family (csrc/sbp/sbp.c). Internal: use sbp_operator.m
 * and sbp_apply.m.
 *
 *   [D, H, Q] = vm_sbp_mex ("operator", N, order, [t0 tf])
 *   Y         = vm_sbp_mex ("apply", X, order, [t0 tf], trans)
 *   [orders, nmin, lim] = vm_sbp_mex ("orders")
 *
 * "orders": the supported interior orders and their smallest N (rows), and lim = [the largest N,
 * the most windows or slabs] that the gateways accept (vm_mex_args.h).
 *
 * Validates, converts, calls csrc/, converts back.  No numerics here. */
#include <string.h>

#include "mex.h"
#include "vm_mex.h"
#include "sbp/sbp.h"
#include "base/vm_status.h"

/* Initialise *op with csrc/'s validation; turn its status into a message naming the argument. */
static void
init_or_error (vm_sbp *op, const char *fn, int order, int64_t n, double t0, double tf)
{
  int st = vm_sbp_init (op, order, n, t0, tf);
  if (st == VM_ESIZE && strcmp (fn, "sbp_apply") == 0)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: X has %lld rows; the order-%d operator needs at "
                       "least %lld (one row per grid point)", fn, (long long) n, order,
                       (long long) vm_sbp_min_n (order));
  if (st == VM_ESIZE)
    mexErrMsgIdAndTxt ("varmech:badarg",
                       "%s: N = %lld is too small: the order-%d operator needs N >= %lld", fn,
                       (long long) n, order, (long long) vm_sbp_min_n (order));
  if (st != VM_OK)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: %s", fn, vm_status_string (st));
}

static mxArray *
csc_to_sparse (const vm_sbp *op, int want_d, int64_t nnz)
{
  mxArray *s = mxCreateSparse ((mwSize) op->n, (mwSize) op->n, (mwSize) nnz, mxREAL);
  vm_sbp_csc (op, want_d, (int64_t *) mxGetJc (s), (int64_t *) mxGetIr (s), mxGetPr (s));
  return s;
}

static void
cmd_operator (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "sbp_operator";
  vm_sbp op;
  int64_t n, nnz, i;
  int order;
  double t0, tf;
  if (nrhs != 4)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: expected N, ORDER and [t0 tf]", fn);
  if (nlhs > 3)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: at most 3 outputs [D, H, Q]", fn);
  n = vm_arg_int (prhs[1], fn, "N", 1, VM_ARG_NMAX);
  order = vm_arg_order (prhs[2], fn, "ORDER");
  vm_arg_interval (prhs[3], fn, "TSPAN", 1, &t0, &tf);
  init_or_error (&op, fn, order, n, t0, tf);

  nnz = vm_sbp_nnz (&op);
  plhs[0] = csc_to_sparse (&op, 1, nnz);
  if (nlhs > 1)
    {
      mwIndex *jc, *ir;
      plhs[1] = mxCreateSparse ((mwSize) n, (mwSize) n, (mwSize) n, mxREAL);
      jc = mxGetJc (plhs[1]);
      ir = mxGetIr (plhs[1]);
      for (i = 0; i < n; i++)
        {
          jc[i] = (mwIndex) i;
          ir[i] = (mwIndex) i;
        }
      jc[n] = (mwIndex) n;
      vm_sbp_weights (&op, mxGetPr (plhs[1]));
    }
  if (nlhs > 2)
    plhs[2] = csc_to_sparse (&op, 0, nnz);
}

static void
cmd_apply (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "sbp_apply";
  vm_sbp op;
  int64_t trans, n, ncol;
  int order;
  double t0, tf;
  if (nrhs != 5)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: expected X, ORDER, [t0 tf] and TRANS", fn);
  if (nlhs > 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: one output Y", fn);
  vm_arg_matrix (prhs[1], fn, "X");
  order = vm_arg_order (prhs[2], fn, "ORDER");
  vm_arg_interval (prhs[3], fn, "TSPAN", 1, &t0, &tf);
  trans = vm_arg_int (prhs[4], fn, "TRANS", 0, 1);
  n = (int64_t) mxGetM (prhs[1]);
  ncol = (int64_t) mxGetN (prhs[1]);
  init_or_error (&op, fn, order, n, t0, tf);
  plhs[0] = mxCreateDoubleMatrix ((mwSize) n, (mwSize) ncol, mxREAL);
  vm_sbp_apply (&op, (int) trans, ncol, mxGetPr (prhs[1]), n, mxGetPr (plhs[0]), n);
}

/* the supported orders, their smallest N and the gateways' ceilings, asked by the m-files (one
 * place for each fact) */
static void
cmd_orders (int nlhs, mxArray *plhs[], int nrhs)
{
  mxArray *o, *nmin;
  int k, no = 0;
  if (nrhs != 1 || nlhs > 3)
    mexErrMsgIdAndTxt ("varmech:badarg", "vm_sbp_mex: \"orders\" takes no argument");
  no = vm_sbp_order_count ();
  o = mxCreateDoubleMatrix (1, (mwSize) no, mxREAL);
  nmin = mxCreateDoubleMatrix (1, (mwSize) no, mxREAL);
  for (k = 0; k < no; k++)
    {
      mxGetPr (o)[k] = vm_sbp_order_at (k);
      mxGetPr (nmin)[k] = (double) vm_sbp_min_n (vm_sbp_order_at (k));
    }
  plhs[0] = o;
  if (nlhs > 1)
    plhs[1] = nmin;
  else
    mxDestroyArray (nmin);
  if (nlhs > 2)
    {
      plhs[2] = mxCreateDoubleMatrix (1, 2, mxREAL);
      mxGetPr (plhs[2])[0] = VM_ARG_NMAX;
      mxGetPr (plhs[2])[1] = VM_ARG_WINDOWS_MAX;
    }
}

void
mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char cmd[16];
  vm_arg_command (nrhs, prhs, "vm_sbp_mex", cmd, sizeof cmd);
  if (strcmp (cmd, "operator") == 0)
    cmd_operator (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "apply") == 0)
    cmd_apply (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "orders") == 0)
    cmd_orders (nlhs, plhs, nrhs);
  else
    mexErrMsgIdAndTxt ("varmech:badarg",
                       "vm_sbp_mex: unknown command '%s' (expected 'operator', 'apply' or 'orders')",
                       cmd);
}
