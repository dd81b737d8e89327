/* vm_block_mx.h -- compiled model blocks <-> Octave structs, shared by the gateways that evaluate
 * models (documented mex.h API only).  A block struct received from Octave is checked completely
 * (classes, shapes, counts, field names and dimensions, vm_block_validate) before use. */
#ifndef VM_BLOCK_MX_H
#define VM_BLOCK_MX_H

#include <math.h>
#include <string.h>
#include "mex.h"
#include "vm_mex.h"
#include "model/model.h"
#include "base/vm_status.h"

static const char *block_keys[] = { "code", "imm", "nprologue", "nslot", "nvar", "nout",
                                    "field_names", "field_dims", "out_field", "out_index" };
#define NKEYS ((int) (sizeof block_keys / sizeof block_keys[0]))

static VM_MAYBE_UNUSED mxArray *
int32_row (const int32_t *v, size_t n, size_t m)
{
  mxArray *a = mxCreateNumericMatrix ((mwSize) m, (mwSize) n, mxINT32_CLASS, mxREAL);
  if (n * m > 0)
    memcpy (mxGetData (a), v, n * m * sizeof (int32_t));
  return a;
}

/* Block -> struct.  Builds into mx arrays only (the block stays owned by the caller). */
static VM_MAYBE_UNUSED mxArray *
block_to_mx (const vm_block *b)
{
  mxArray *s = mxCreateStructMatrix (1, 1, NKEYS, block_keys), *names, *dims, *code, *imm;
  int32_t *c;
  double *im, *dm;
  int k;
  code = mxCreateNumericMatrix (4, (mwSize) b->tape.ninstr, mxINT32_CLASS, mxREAL);
  imm = mxCreateDoubleMatrix (1, (mwSize) b->tape.ninstr, mxREAL);
  c = (int32_t *) mxGetData (code);
  im = mxGetPr (imm);
  for (k = 0; k < b->tape.ninstr; k++)
    {
      c[4 * k] = b->tape.code[k].op;
      c[4 * k + 1] = b->tape.code[k].dst;
      c[4 * k + 2] = b->tape.code[k].a;
      c[4 * k + 3] = b->tape.code[k].b;
      im[k] = b->tape.code[k].imm;
    }
  names = mxCreateCellMatrix (1, (mwSize) b->nfield);
  dims = mxCreateDoubleMatrix ((mwSize) b->nfield, 2, mxREAL);
  dm = mxGetPr (dims);
  for (k = 0; k < b->nfield; k++)
    {
      mxSetCell (names, (mwIndex) k, mxCreateString (b->field[k].name));
      dm[k] = b->field[k].dim[0];
      dm[k + b->nfield] = b->field[k].dim[1];
    }
  mxSetField (s, 0, "code", code);
  mxSetField (s, 0, "imm", imm);
  mxSetField (s, 0, "nprologue", mxCreateDoubleScalar (b->tape.nprologue));
  mxSetField (s, 0, "nslot", mxCreateDoubleScalar (b->tape.nslot));
  mxSetField (s, 0, "nvar", mxCreateDoubleScalar (b->tape.nvar));
  mxSetField (s, 0, "nout", mxCreateDoubleScalar (b->tape.nout));
  mxSetField (s, 0, "field_names", names);
  mxSetField (s, 0, "field_dims", dims);
  mxSetField (s, 0, "out_field", int32_row (b->out_field, (size_t) b->tape.nout, 1));
  mxSetField (s, 0, "out_index", int32_row (b->out_index, (size_t) b->tape.nout, 1));
  return s;
}

static VM_MAYBE_UNUSED double
get_count (const mxArray *s, const char *key, const char *fn, double maxv)
{
  const mxArray *f = mxGetField (s, 0, key);
  double v;
  if (! f || ! mxIsDouble (f) || mxIsComplex (f) || mxGetNumberOfElements (f) != 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model is damaged (field %s); "
                       "rebuild it with mechsys or odesys", fn, key);
  v = mxGetScalar (f);
  if (! (v >= 0 && v <= maxv && v == floor (v)))
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model is damaged (field %s = %g); "
                       "rebuild it with mechsys or odesys", fn, key, v);
  return v;
}

static VM_MAYBE_UNUSED const mxArray *
get_typed (const mxArray *s, const char *key, const char *fn, mxClassID cls, size_t rows,
           size_t cols)
{
  const mxArray *f = mxGetField (s, 0, key);
  if (! f || mxGetClassID (f) != cls || mxIsComplex (f) || mxIsSparse (f)
      || mxGetNumberOfDimensions (f) != 2 || mxGetM (f) != rows || mxGetN (f) != cols)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model is damaged (field %s); "
                       "rebuild it with mechsys or odesys", fn, key);
  return f;
}

/* Deserialize and check a compiled block (a struct made by block_to_mx).  The arrays of b are
 * mxMalloc'd (released by the caller with free_block, or by the MEX API on error); fnames receives
 * pointers to the field names inside b. */
static VM_MAYBE_UNUSED void
load_block (const mxArray *bs, const char *fn, vm_block *b, const char ***fnames)
{
  const mxArray *names, *dims;
  const int32_t *c;
  const double *im, *dm;
  size_t ni, nf, k;
  if (! mxIsStruct (bs) || mxGetNumberOfElements (bs) != 1)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled block must be a 1x1 struct", fn);
  for (k = 0; k < (size_t) NKEYS; k++)
    if (! mxGetField (bs, 0, block_keys[k]))
      mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model is damaged (no field %s); "
                         "rebuild it with mechsys or odesys", fn, block_keys[k]);
  memset (b, 0, sizeof *b);
  b->tape.nprologue = (int) get_count (bs, "nprologue", fn, 1e9);
  b->tape.nslot = (int) get_count (bs, "nslot", fn, 1e8);
  b->tape.nvar = (int) get_count (bs, "nvar", fn, 1e7);
  b->tape.nout = (int) get_count (bs, "nout", fn, 1e9);
  ni = mxGetN (mxGetField (bs, 0, "code"));
  if (ni > 1000000000)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model is damaged (tape too long)", fn);
  c = (const int32_t *) mxGetData (get_typed (bs, "code", fn, mxINT32_CLASS, 4, ni));
  im = mxGetPr (get_typed (bs, "imm", fn, mxDOUBLE_CLASS, 1, ni));
  names = mxGetField (bs, 0, "field_names");
  if (! mxIsCell (names))
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model is damaged (field_names)", fn);
  nf = mxGetNumberOfElements (names);
  dims = get_typed (bs, "field_dims", fn, mxDOUBLE_CLASS, nf, 2);
  dm = mxGetPr (dims);
  b->out_field = (int32_t *) mxGetData (get_typed (bs, "out_field", fn, mxINT32_CLASS, 1,
                                                    (size_t) b->tape.nout));
  b->out_index = (int32_t *) mxGetData (get_typed (bs, "out_index", fn, mxINT32_CLASS, 1,
                                                    (size_t) b->tape.nout));
  b->tape.ninstr = (int) ni;
  b->tape.code = mxMalloc ((ni ? ni : 1) * sizeof *b->tape.code);
  for (k = 0; k < ni; k++)
    {
      b->tape.code[k].op = c[4 * k];
      b->tape.code[k].dst = c[4 * k + 1];
      b->tape.code[k].a = c[4 * k + 2];
      b->tape.code[k].b = c[4 * k + 3];
      b->tape.code[k].imm = im[k];
    }
  b->nfield = (int) nf;
  b->field = mxMalloc ((nf ? nf : 1) * sizeof *b->field);
  *fnames = mxMalloc ((nf ? nf : 1) * sizeof **fnames);
  for (k = 0; k < nf; k++)
    {
      const mxArray *nm = mxGetCell (names, (mwIndex) k);
      if (! nm || ! mxIsChar (nm) || mxGetNumberOfElements (nm) >= VM_FIELD_NAME
          || mxGetString (nm, b->field[k].name, VM_FIELD_NAME) != 0
          || ! vm_name_valid (b->field[k].name)
          || ! (dm[k] >= 0 && dm[k] <= 1e5 && dm[k] == floor (dm[k]))
          || ! (dm[k + nf] >= 0 && dm[k + nf] <= 1e5 && dm[k + nf] == floor (dm[k + nf])))
        mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model is damaged (field %lu)", fn,
                           (unsigned long) k + 1);
      b->field[k].dim[0] = (int) dm[k];
      b->field[k].dim[1] = (int) dm[k + nf];
      (*fnames)[k] = b->field[k].name;
    }
  if (vm_block_validate (b) != VM_OK)
    mexErrMsgIdAndTxt ("varmech:badarg", "%s: the compiled model is damaged (invalid tape); "
                       "rebuild it with mechsys or odesys", fn);
}

static VM_MAYBE_UNUSED void
free_block (vm_block *b, const char **fnames)
{
  mxFree (b->tape.code);
  mxFree (b->field);
  mxFree ((void *) fnames);
}

#endif
