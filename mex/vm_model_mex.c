/* vm_model_mex.c -- MEX gateway of the model language (csrc/expr, csrc/model).
 *
 *   [blocks, compiled] = vm_model_mex ("mech", coords, params, lagrangian, forces, constraints,
 *                                      contacts)
 *   [blocks, compiled] = vm_model_mex ("ode", states, params, rhs, algebraic [, square])
 *   [blocks, compiled] = vm_model_mex ("period", ode, states, rhs)   (periodic_orbit's system
 *                        dx/ds = P F(x), dP/ds = 0 from ode's compiled model, not parsed)
 *   out    = vm_model_mex ("eval", block, npts, {A1, A2, ...} [, caller [, layout [, names [, sys]]]])
 *   [ok, msg, kind, index, value] = vm_model_mex ("check_initial", sys, t0, q0, qdot0, tol [, caller])
 *   n      = vm_model_mex ("model_compiles")   (texts parsed by this gateway's model library)
 *
 * "mech" and "ode" are the only commands that parse: they return the compiled blocks and the
 * model itself serialized (compiled, a uint8 row: csrc/model/model_serial.h), which mechsys and
 * odesys store and every other command and gateway loads instead of parsing the text again.
 * "eval" with sys (a mechsys or odesys struct whose blocks are evaluated) first checks that its
 * formulas are the compiled ones.
 * layout "full" (default): a struct of the block's fields (points first, structural zeros
 * included); "compact": one npts x nout matrix whose column k is tape output k; in the compact
 * layout block may be a cell array of blocks of one model, whose outputs are concatenated.
 *
 * coords, params, states, forces, constraints, rhs, algebraic: cell arrays of char row vectors
 * ({} for none); contacts: a struct array with char fields h, sigma, V0, mu, epsv (or []).
 * A compiled block is a struct (code, imm, nprologue, nslot, nvar, nout, field_names, field_dims,
 * out_field, out_index) that "eval" checks completely before use.  "eval" maps the columns of
 * A1, A2, ... to the tape's variables in order; each Ai is npts x ki or 1 x ki (broadcast).
 * "check_initial" runs vm_initial_check (csrc/model/initial_check.h) on a mechsys struct (its model
 * loaded from sys.compiled, parameter values from sys.parameters) at (t0, q0, qdot0) with tolerance tol >= 0:
 * ok (logical) is true when the state passes, msg the report without a caller prefix ('' when
 * ok), kind the VM_INITIAL_* code, index the 1-based constraint (0: none), value the residual.
 * Invalid arguments are errors varmech:badarg naming caller (default "vm_check_initial").
 * Memory from mxMalloc/mxArrayToString is released by the MEX API on error; C library objects are
 * freed before every error is raised. */
#include <string.h>

#include "vm_mex.h"
#include "vm_block_mx.h"
#include "vm_mech_mx.h"
#include "vm_ode_mx.h"
#include "model/expr.h"
#include "model/model.h"
#include "reference/motion.h"
#include "reference/vakonomic.h"
#include "model/initial_check.h"
#include "base/vm_status.h"

#define GW "vm_model_mex"

static void
raise_model_error (const char *fn, const vm_err *err)
{
  /* err lives on the caller's stack: copy into an mxMalloc'd buffer is not needed, mexErrMsg
   * formats immediately. */
  if (err->status == VM_ENOMEM)
    mexErrMsgIdAndTxt ("varmech:nomem", "%s: %s", fn, err->msg);
  mexErrMsgIdAndTxt ("varmech:model", "%s: %s", fn, err->msg);
}

/* a serialized model (malloc'd, freed here) as a 1 x len uint8 row */
static mxArray *
blob_to_mx (uint8_t *blob, size_t len)
{
  mxArray *a = mxCreateNumericMatrix (1, len, mxUINT8_CLASS, mxREAL);
  memcpy (mxGetData (a), blob, len);
  free (blob);
  return a;
}

/* The blocks of a first-order system as odesys keeps them, struct ("system", block); b freed. */
static mxArray *
system_blocks (vm_block *b)
{
  mxArray *out = mxCreateStructMatrix (1, 1, 0, NULL);
  mxAddField (out, "system");
  mxSetField (out, 0, "system", block_to_mx (b));
  vm_block_free (b);
  return out;
}

static void
cmd_mech (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "mechsys";
  int k, st;
  vm_mech_desc d;
  vm_mech m;
  vm_err err;
  mxArray *out;
  uint8_t *blob;
  size_t blen;
  if (nrhs != 7)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: \"mech\" takes 6 arguments", fn);
  mech_desc_from_args (prhs + 1, fn, &d);
  st = vm_mech_build (&d, &m, &err);
  if (st != VM_OK)
    raise_model_error (fn, &err);
  /* saved before any block adds derivatives to the graph: a load is the build's state */
  st = vm_mech_save (&m, &d, &blob, &blen);
  if (st != VM_OK)
    {
      vm_mech_free (&m);
      mexErrMsgIdAndTxt ("varmech:nomem", "%s: saving the compiled model failed: %s", fn,
                         vm_status_string (st));
    }
  if (nlhs > 1)
    plhs[1] = blob_to_mx (blob, blen);
  else
    free (blob);
  out = mxCreateStructMatrix (1, 1, 0, NULL);
  for (k = 0; k < VM_MECH_NBLOCKS; k++)
    {
      vm_block b;
      st = vm_mech_block (&m, k, &b);
      if (st != VM_OK)
        {
          vm_mech_free (&m);
          mexErrMsgIdAndTxt ("varmech:nomem", "%s: compiling the %s block failed: %s", fn,
                             vm_mech_block_name (k), vm_status_string (st));
        }
      mxAddField (out, vm_mech_block_name (k));
      mxSetField (out, 0, vm_mech_block_name (k), block_to_mx (&b));
      vm_block_free (&b);
    }
  {
    vm_block b;
    st = vm_mech_motion_block (&m, &b);
    if (st != VM_OK)
      {
        vm_mech_free (&m);
        mexErrMsgIdAndTxt ("varmech:nomem", "%s: compiling the motion block failed: %s", fn,
                           vm_status_string (st));
      }
    mxAddField (out, "motion");
    mxSetField (out, 0, "motion", block_to_mx (&b));
    vm_block_free (&b);
  }
  {
    vm_block b;
    st = vm_mech_vakonomic_block (&m, &b);
    if (st != VM_OK)
      {
        vm_mech_free (&m);
        mexErrMsgIdAndTxt ("varmech:nomem", "%s: compiling the vakonomic block failed: %s", fn,
                           vm_status_string (st));
      }
    mxAddField (out, "vakonomic");
    mxSetField (out, 0, "vakonomic", block_to_mx (&b));
    vm_block_free (&b);
  }
  vm_mech_free (&m);
  plhs[0] = out;
}

static void
cmd_ode (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "odesys";
  char **state, **param, **rhs, **alg;
  int ny, np, nd, na, st;
  vm_ode_desc d;
  vm_ode o;
  vm_err err;
  vm_block b;
  uint8_t *blob;
  size_t blen;
  if (nrhs != 5 && nrhs != 6)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: \"ode\" takes 4 or 5 arguments", fn);
  state = vm_arg_cellstr (prhs[1], fn, "states", &ny);
  param = vm_arg_cellstr (prhs[2], fn, "parameter names", &np);
  rhs = vm_arg_cellstr (prhs[3], fn, "rhs", &nd);
  alg = vm_arg_cellstr (prhs[4], fn, "algebraic", &na);
  memset (&d, 0, sizeof d);
  d.ny = ny;
  d.state = (const char *const *) state;
  d.np = np;
  d.param = (const char *const *) param;
  d.nd = nd;
  d.rhs = (const char *const *) rhs;
  d.na = na;
  d.alg = (const char *const *) alg;
  d.nonsquare = nrhs == 6 && mxGetNumberOfElements (prhs[5]) == 1 && mxGetScalar (prhs[5]) == 0.0;
  st = vm_ode_build (&d, &o, &err);
  if (st != VM_OK)
    raise_model_error (fn, &err);
  /* saved before the block adds derivatives to the graph: a load is the build's state */
  st = vm_ode_save (&o, &d, &blob, &blen);
  if (st != VM_OK)
    {
      vm_ode_free (&o);
      mexErrMsgIdAndTxt ("varmech:nomem", "%s: saving the compiled model failed: %s", fn,
                         vm_status_string (st));
    }
  if (nlhs > 1)
    plhs[1] = blob_to_mx (blob, blen);
  else
    free (blob);
  st = vm_ode_block (&o, VM_ODE_SYSTEM, &b);
  vm_ode_free (&o);
  if (st != VM_OK)
    mexErrMsgIdAndTxt ("varmech:nomem", "%s: compiling the system failed: %s", fn,
                       vm_status_string (st));
  plhs[0] = system_blocks (&b);
}

/* "period": the system of periodic_orbit, dx/ds = P F(x), dP/ds = 0, built from the compiled model
 * of ode (an odesys struct of an ODE) without parsing (vm_ode_period); states and rhs: the names
 * and formulas of the new system, which its compiled model keeps (they describe it; the caller
 * writes them as the products the system is). */
static void
cmd_period (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  const char *fn = "periodic_orbit";
  vm_ode o, aug;
  vm_ode_desc d;
  vm_block b;
  double *par;
  char **state, **rhs;
  int ny, nd, st;
  uint8_t *blob;
  size_t blen;
  if (nrhs != 4)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: \"period\" takes 3 arguments", fn);
  state = vm_arg_cellstr (prhs[2], fn, "states", &ny);
  rhs = vm_arg_cellstr (prhs[3], fn, "rhs", &nd);
  vm_mx_ode_build (prhs[1], fn, &o, &par);
  st = vm_ode_period (&o, &aug);
  if (st == VM_OK && (aug.ny != ny || aug.nd != nd))
    {
      vm_ode_free (&aug);
      st = VM_ESIZE;
    }
  if (st != VM_OK)
    {
      vm_ode_free (&o);
      mexErrMsgIdAndTxt (st == VM_ENOMEM ? "varmech:nomem" : "varmech:badarg", "%s: internal: "
                         "the system with the period could not be built: %s", fn,
                         vm_status_string (st));
    }
  ode_desc_from_sys (prhs[1], fn, &d);
  d.ny = ny;
  d.state = (const char *const *) state;
  d.nd = nd;
  d.rhs = (const char *const *) rhs;
  d.na = 0;
  d.nonsquare = 0;
  vm_ode_free (&o);
  st = vm_ode_save (&aug, &d, &blob, &blen);
  if (st == VM_OK)
    {
      if (nlhs > 1)
        plhs[1] = blob_to_mx (blob, blen);
      else
        free (blob);
      st = vm_ode_block (&aug, VM_ODE_SYSTEM, &b);
    }
  vm_ode_free (&aug);
  if (st != VM_OK)
    mexErrMsgIdAndTxt ("varmech:nomem", "%s: compiling the system with the period failed: %s", fn,
                       vm_status_string (st));
  plhs[0] = system_blocks (&b);
}

/* "eval": block (a struct, or in the compact layout a cell array of structs of one model). */
/* the state of one "eval" call: options, blocks, inputs and work space */
typedef struct
{
  const char *fn;
  int compact, nvar;
  size_t nb, npts, wsize, totout;
  vm_block *bl;
  const char ***fnames;
  const double **in;
  int *inc;
  double *work;
} eval_ctx;

/* the optional layout (prhs[5]) and caller name (prhs[4], copied into fnbuf) of "eval" */
static void
eval_options (int nrhs, const mxArray *prhs[], char *fnbuf, mwSize fnlen, eval_ctx *c)
{
  if (nrhs >= 6)
    {
      char lay[16];
      if (! mxIsChar (prhs[5]) || mxGetString (prhs[5], lay, sizeof lay) != 0
          || (strcmp (lay, "full") != 0 && strcmp (lay, "compact") != 0))
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: layout must be full or compact", c->fn);
      c->compact = strcmp (lay, "compact") == 0;
    }
  if (nrhs >= 5)
    {
      if (! mxIsChar (prhs[4]) || mxGetString (prhs[4], fnbuf, fnlen) != 0)
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: the caller's name must be a short string",
                           c->fn);
      c->fn = fnbuf;
    }
}

/* load the block (a struct) or blocks (a cell array, compact layout only) of one model */
static void
eval_blocks (const mxArray *blocks, eval_ctx *c)
{
  const char *fn = c->fn;
  size_t k;
  if (mxIsCell (blocks))
    {
      c->nb = mxGetNumberOfElements (blocks);
      if (! c->compact || c->nb < 1 || c->nb > 64)
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: several blocks need the compact layout", fn);
    }
  else
    c->nb = 1;
  c->bl = mxMalloc (c->nb * sizeof *c->bl);
  c->fnames = mxMalloc (c->nb * sizeof *c->fnames);
  for (k = 0; k < c->nb; k++)
    {
      const mxArray *bs = mxIsCell (blocks) ? mxGetCell (blocks, (mwIndex) k) : blocks;
      vm_block *b = &c->bl[k];
      if (! bs)
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: block %lu is missing", fn,
                           (unsigned long) k + 1);
      load_block (bs, fn, b, &c->fnames[k]);
      if (b->tape.nvar != c->bl[0].tape.nvar)
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: the blocks belong to different models", fn);
      if (vm_tape_work_size (&b->tape) > c->wsize)
        c->wsize = vm_tape_work_size (&b->tape);
      c->totout += (size_t) b->tape.nout;
    }
  c->nvar = c->bl[0].tape.nvar;
}

/* the name of input k in messages: names{k} (a char cell entry) or "input k" */
static void
input_label (const mxArray *names, size_t k, char *what, mwSize len)
{
  const mxArray *nm = names && mxIsCell (names) && k < mxGetNumberOfElements (names)
                      ? mxGetCell (names, (mwIndex) k) : NULL;
  if (! nm || ! mxIsChar (nm) || mxGetString (nm, what, len) != 0)
    sprintf (what, "input %lu", (unsigned long) k + 1);
}

/* map the columns of input a (npts x ki or 1 x ki) to the next tape variables (*nv counts them) */
static void
add_input (eval_ctx *c, size_t *nv, const mxArray *a, const char *what)
{
  const char *fn = c->fn;
  size_t rows, cols, j;
  int bc;
  vm_arg_matrix (a, fn, what);
  rows = mxGetM (a);
  cols = mxGetN (a);
  if (cols == 0)
    return;
  bc = (rows == 1 && c->npts != 1);
  if (rows != c->npts && ! bc)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: %s has %lu rows; expected %lu (one per point) "
                       "or 1", fn, what, (unsigned long) rows, (unsigned long) c->npts);
  for (j = 0; j < cols; j++)
    {
      if (*nv >= (size_t) c->nvar)
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: more input columns than the "
                           "model's %d variables", fn, c->nvar);
      c->in[*nv] = mxGetPr (a) + j * rows;
      c->inc[*nv] = bc ? 0 : 1;
      (*nv)++;
    }
}

/* npts (prhs[2]) and the inputs (cell prhs[3], names prhs[6]): one column per tape variable */
static void
eval_inputs (int nrhs, const mxArray *prhs[], eval_ctx *c)
{
  const char *fn = c->fn;
  const mxArray *cin;
  size_t k, nv;
  const int nvar = c->nvar;
  c->npts = (size_t) vm_arg_int (prhs[2], fn, "the number of points", 0, 10000000000LL);
  cin = prhs[3];
  if (! mxIsCell (cin))
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: inputs must be a cell array", fn);
  nv = 0;
  c->in = mxMalloc ((size_t) (nvar ? nvar : 1) * sizeof *c->in);
  c->inc = mxMalloc ((size_t) (nvar ? nvar : 1) * sizeof *c->inc);
  for (k = 0; k < mxGetNumberOfElements (cin); k++)
    {
      const mxArray *a = mxGetCell (cin, (mwIndex) k);
      char what[48];
      input_label (nrhs >= 7 ? prhs[6] : NULL, k, what, sizeof what);
      if (! a)
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: %s is missing", fn, what);
      add_input (c, &nv, a, what);
    }
  if (nv != (size_t) nvar)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: %lu input columns for %d variables", fn,
                       (unsigned long) nv, nvar);
}

/* compact layout: one npts x (sum of nout) matrix, the tape outputs of the blocks in order */
static mxArray *
eval_compact (const eval_ctx *c)
{
  double **cols = mxMalloc ((c->totout ? c->totout : 1) * sizeof *cols);
  size_t c0 = 0, k;
  int st;
  mxArray *out = mxCreateUninitNumericMatrix (c->npts, c->totout, mxDOUBLE_CLASS, mxREAL);
  for (k = 0; k < c->totout; k++)
    cols[k] = mxGetPr (out) + k * c->npts;
  for (k = 0; k < c->nb; k++)
    {
      st = vm_tape_eval (&c->bl[k].tape, c->npts, c->in, c->inc, cols + c0, c->work);
      if (st != VM_OK)
        mexErrMsgIdAndTxt ("varmech:failed", "%s: evaluation failed: %s", c->fn,
                           vm_status_string (st));
      c0 += (size_t) c->bl[k].tape.nout;
    }
  mxFree (cols);
  return out;
}

/* an uninitialized npts x dim[0] (x dim[1] if > 1) array for a block field (vm_block_eval
 * writes every entry, structural zeros included) */
static mxArray *
field_array (size_t npts, const int *dim)
{
  mwSize d3[3];
  if (dim[1] == 1)
    return mxCreateUninitNumericMatrix (npts, (size_t) dim[0], mxDOUBLE_CLASS, mxREAL);
  d3[0] = (mwSize) npts;
  d3[1] = (mwSize) dim[0];
  d3[2] = (mwSize) dim[1];
  return mxCreateUninitNumericArray (3, d3, mxDOUBLE_CLASS, mxREAL);
}

/* full layout: a struct of the block's fields (points first) */
static mxArray *
eval_full (const eval_ctx *c)
{
  const vm_block *b = &c->bl[0];
  double **fields = mxMalloc ((size_t) (b->nfield ? b->nfield : 1) * sizeof *fields);
  mxArray *out = mxCreateStructMatrix (1, 1, b->nfield, c->fnames[0]);
  size_t k;
  int st;
  for (k = 0; k < (size_t) b->nfield; k++)
    {
      mxArray *f = field_array (c->npts, b->field[k].dim);
      fields[k] = mxGetPr (f);
      mxSetFieldByNumber (out, 0, (int) k, f);
    }
  st = vm_block_eval (b, c->npts, c->in, c->inc, fields, c->work);
  if (st != VM_OK)
    mexErrMsgIdAndTxt ("varmech:failed", "%s: evaluation failed: %s", c->fn, vm_status_string (st));
  mxFree (fields);
  return out;
}

/* "eval"'s optional system: its formulas must be the ones its blocks were compiled from */
static void
eval_current (const mxArray *sys, const char *fn)
{
  const mxArray *ty = mxIsStruct (sys) && mxGetNumberOfElements (sys) == 1
                      ? mxGetField (sys, 0, "type") : NULL;
  char t[16];
  if (! ty || ! mxIsChar (ty) || mxGetString (ty, t, sizeof t) != 0)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: the system must be a mechsys or odesys "
                       "struct", fn);
  if (strcmp (t, "odesys") == 0)
    vm_mx_ode_current (sys, fn, "varmech:badarg");
  else
    vm_mx_mech_current (sys, fn, "varmech:badarg");
}

static void
cmd_eval (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char fnbuf[32];
  eval_ctx c;
  mxArray *out;
  size_t k;
  (void) nlhs;
  memset (&c, 0, sizeof c);
  c.fn = "mechsys_eval";
  c.wsize = 1;
  if (nrhs < 4 || nrhs > 8)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: \"eval\" takes 3 to 7 arguments", c.fn);
  eval_options (nrhs, prhs, fnbuf, sizeof fnbuf, &c);
  if (nrhs == 8)
    eval_current (prhs[7], c.fn);
  eval_blocks (prhs[1], &c);
  eval_inputs (nrhs, prhs, &c);
  c.work = mxMalloc (c.wsize * sizeof *c.work);
  out = c.compact ? eval_compact (&c) : eval_full (&c);
  mxFree (c.work);
  mxFree (c.in);
  mxFree (c.inc);
  for (k = 0; k < c.nb; k++)
    free_block (&c.bl[k], c.fnames[k]);
  mxFree (c.bl);
  mxFree (c.fnames);
  plhs[0] = out;
}

/* "check_initial": the initial data of a mechsys struct (csrc/model/initial_check.h). */
static void
cmd_check_initial (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char fn[64] = "vm_check_initial";
  vm_mech_desc d;
  vm_mech m;
  vm_initial_report r;
  vm_mx_initial_at at;
  double *par, t0, tol;
  if (nrhs != 6 && nrhs != 7)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: \"check_initial\" takes 5 or 6 arguments",
                       GW);
  if (nrhs == 7 && (! mxIsChar (prhs[6]) || mxGetString (prhs[6], fn, sizeof fn) != 0))
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: internal: caller must be a short string", GW);
  vm_mech_from_sys (prhs[1], fn, &d, &par);
  t0 = vm_arg_real (prhs[2], fn, "t0");
  vm_arg_vector (prhs[3], fn, "q0", (size_t) d.n);
  vm_arg_vector (prhs[4], fn, "qdot0", (size_t) d.n);
  tol = vm_arg_real (prhs[5], fn, "ConstraintTol");
  if (! (tol >= 0))
    vm_arg_refuse (prhs[5], fn, "ConstraintTol", "a finite scalar >= 0");
  vm_mx_mech_compiled (prhs[1], &d, fn, "varmech:badarg", &m);   /* last: m freed below */
  at.par = par;
  at.t0 = t0;
  at.q0 = mxGetPr (prhs[3]);
  at.qdot0 = mxGetPr (prhs[4]);
  at.tol = tol;
  vm_mx_initial_check (&m, &d, &at, fn, &r);
  vm_mech_free (&m);
  plhs[0] = mxCreateLogicalScalar (r.kind == VM_INITIAL_OK);
  if (nlhs > 1)
    plhs[1] = mxCreateString (r.msg);
  if (nlhs > 2)
    plhs[2] = mxCreateDoubleScalar (r.kind);
  if (nlhs > 3)
    plhs[3] = mxCreateDoubleScalar (r.index + 1);
  if (nlhs > 4)
    plhs[4] = mxCreateDoubleScalar (r.value);
}

void
mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char cmd[16];
  vm_arg_command (nrhs, prhs, GW, cmd, sizeof cmd);
  if (strcmp (cmd, "mech") == 0)
    cmd_mech (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "ode") == 0)
    cmd_ode (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "eval") == 0)
    cmd_eval (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "check_initial") == 0)
    cmd_check_initial (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "period") == 0)
    cmd_period (nlhs, plhs, nrhs, prhs);
  else if (strcmp (cmd, "model_compiles") == 0)
    plhs[0] = mxCreateDoubleScalar ((double) vm_model_compiles ());
  else
    mexErrMsgIdAndTxt ("varmech:badarg",
                       "%s: unknown command '%s'; expected mech, ode, period, eval, check_initial or "
                       "model_compiles",
                       GW, cmd);
}
