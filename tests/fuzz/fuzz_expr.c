/* fuzz_expr.c -- fuzzing target for the parser, differentiation, tape compiler and the model.
 *
 * Input: text.  Lines are split at '\n'.  Graph level: line 1 alone is parsed over x, y (velocities
 * dot(x), dot(y)), a parameter a and time t; its first and second derivatives are compiled into a
 * tape that is validated and evaluated.  Model level: line 1 is a Lagrangian over coordinates x, y,
 * parameters a, b and t; further lines are constraints, except lines starting with '@', which are
 * contact gap functions (at most 8 lines); every block is compiled, validated and evaluated.  Oracle: besides memory safety, a tape evaluated at
 * N points must equal, bit for bit, the same tape evaluated point by point.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined for libFuzzer, or with replay_main.c and any
 * C compiler to replay a corpus (make check does that). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"
#include "model/model.h"
#include "base/vm_status.h"

#define NPTS 5

static int
same (double u, double v)
{
  return (isnan (u) && isnan (v)) || memcmp (&u, &v, sizeof u) == 0;
}

/* Evaluate tape at NPTS points at once and one by one; abort on any difference. */
static void
check_tape (const vm_tape *tp, int nvar)
{
  double *in = NULL, *out = NULL, *out1 = NULL, *work = NULL;
  const double **pin = NULL;
  double **pout = NULL;
  int *inc = NULL, v, k;
  size_t p;
  if (vm_tape_validate (tp) != VM_OK)
    abort ();   /* a freshly compiled tape must validate */
  in = malloc (sizeof *in * (size_t) (nvar ? nvar : 1) * NPTS);
  pin = malloc (sizeof *pin * (size_t) (nvar ? nvar : 1));
  inc = malloc (sizeof *inc * (size_t) (nvar ? nvar : 1));
  out = malloc (sizeof *out * (size_t) (tp->nout ? tp->nout : 1) * NPTS);
  out1 = malloc (sizeof *out1 * (size_t) (tp->nout ? tp->nout : 1));
  pout = malloc (sizeof *pout * (size_t) (tp->nout ? tp->nout : 1));
  work = malloc (sizeof *work * vm_tape_work_size (tp));
  if (! in || ! pin || ! inc || ! out || ! out1 || ! pout || ! work)
    goto done;
  for (v = 0; v < nvar; v++)
    {
      for (p = 0; p < NPTS; p++)
        in[v * NPTS + p] = 0.3 + 0.7 * v - 0.45 * (double) p + 0.1 * (double) (v * p % 3);
      pin[v] = in + v * NPTS;
      inc[v] = (v % 4 == 3) ? 0 : 1;   /* some broadcast inputs */
    }
  for (k = 0; k < tp->nout; k++)
    pout[k] = out + (size_t) k * NPTS;
  if (vm_tape_eval (tp, NPTS, pin, inc, pout, work) != VM_OK)
    abort ();
  for (p = 0; p < NPTS; p++)
    {
      for (v = 0; v < nvar; v++)
        pin[v] = inc[v] ? in + v * NPTS + p : in + v * NPTS;
      for (k = 0; k < tp->nout; k++)
        pout[k] = out1 + k;
      if (vm_tape_eval (tp, 1, pin, inc, pout, work) != VM_OK)
        abort ();
      for (k = 0; k < tp->nout; k++)
        if (! same (out1[k], out[(size_t) k * NPTS + p]))
          abort ();
    }
done:
  free (in);
  free (pin);
  free (inc);
  free (out);
  free (out1);
  free (pout);
  free (work);
}

static void
graph_level (const char *text)
{
  vm_graph *g = vm_graph_new (6);
  vm_symtab *s = vm_symtab_new ();
  vm_err err;
  int32_t e, outs[1 + 5 + 15];
  int no = 0, i, j;
  vm_tape tp;
  if (! g || ! s)
    goto done;
  vm_symtab_add (s, "x", "coordinate", 1, 3);
  vm_symtab_add (s, "y", "coordinate", 2, 4);
  vm_symtab_add (s, "a", "parameter", 5, -1);
  vm_symtab_add (s, "t", "time", 0, -1);
  e = vm_parse (g, s, text, "fuzz", &err);
  if (e < 0)
    {
      if (err.msg[0] == '\0' || err.status == VM_OK)
        abort ();   /* every failure must explain itself */
      goto done;
    }
  outs[no++] = e;
  for (i = 0; i < 5; i++)
    {
      int32_t d = vm_diff (g, e, i + 1);
      if (d < 0)
        goto done;
      outs[no++] = d;
      for (j = 0; j <= i && no < 21; j++)
        {
          int32_t d2 = vm_diff (g, d, j + 1);
          if (d2 < 0)
            goto done;
          outs[no++] = d2;
        }
    }
  if (vm_tape_compile (g, no, outs, &tp) == VM_OK)
    {
      check_tape (&tp, 6);
      vm_tape_free (&tp);
    }
done:
  vm_symtab_free (s);
  vm_graph_free (g);
}

static void
model_level (const char *text)
{
  char *buf = malloc (strlen (text) + 1), *line[9];
  const char *cons[8];
  vm_contact_desc con[8];
  const char *coord[2] = { "x", "y" }, *param[2] = { "a", "b" };
  int nl = 0, nc = 0, ncon = 0, k;
  vm_mech_desc d;
  vm_mech m;
  vm_err err;
  char *p;
  if (! buf)
    return;
  strcpy (buf, text);
  for (p = buf, line[nl++] = p; *p && nl < 9; p++)
    if (*p == '\n')
      {
        *p = '\0';
        line[nl++] = p + 1;
      }
  for (k = 1; k < nl; k++)
    {
      if (line[k][0] == '@')
        {
          con[nc].h = line[k] + 1;
          con[nc].sigma = "0.1";
          con[nc].V0 = "a";
          con[nc].mu = "b/2";
          con[nc].epsv = "1e-3";
          nc++;
        }
      else
        cons[ncon++] = line[k];
    }
  memset (&d, 0, sizeof d);
  d.n = 2;
  d.coord = coord;
  d.np = 2;
  d.param = param;
  d.lagrangian = line[0];
  d.ncons = ncon;
  d.cons = cons;
  d.ncontact = nc;
  d.contact = con;
  if (vm_mech_build (&d, &m, &err) == VM_OK)
    {
      for (k = 0; k < VM_MECH_NBLOCKS; k++)
        {
          vm_block b;
          if (vm_mech_block (&m, k, &b) == VM_OK)
            {
              if (vm_block_validate (&b) != VM_OK)
                abort ();
              check_tape (&b.tape, m.nvar);
              vm_block_free (&b);
            }
        }
      vm_mech_free (&m);
    }
  else if (err.msg[0] == '\0')
    abort ();
  free (buf);
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *text;
  if (size > 4096)
    return 0;
  text = malloc (size + 1);
  if (! text)
    return 0;
  memcpy (text, data, size);
  text[size] = '\0';
  {
    char *nl = strchr (text, '\n');
    if (nl)
      *nl = '\0';
    graph_level (text);
    if (nl)
      *nl = '\n';
  }
  model_level (text);
  free (text);
  return 0;
}
