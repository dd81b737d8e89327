/* vm_solution_mx.h -- a solver's solution described once and converted once into the struct that
 * the user receives (DESIGN.md section 8, "the solution").
 *
 * A solver's schema is a table of vm_sol_field rows, one per field of the struct, in the order
 * the user sees them: the field's name, its size as two size symbols (VM_SZ_*: rows, columns),
 * where its value is (an offset into the solver's C solution, or a maker for a value that is not
 * one array of the solution), its unit and its meaning.  A field whose VM_SOLF_STRUCT row names a
 * sub-table is a 1-by-1 struct converted by the same rules.  A table ends with a row whose name
 * is NULL.
 *
 *   vm_solution_mx (schema, src)      the struct: every row converted once, in table order; a row
 *                                     whose 'when' size is 0 is left out, and so is a maker's NULL
 *   vm_solution_mx_append (out, schema, src)   the same, added to the struct out after its fields
 *   vm_solution_schema_mx (schema)    the table itself as an N-by-1 struct array (name, rows,
 *                                     cols, unit, meaning, fields), for the tests that hold each
 *                                     solver's struct against its schema
 *
 * Why a table: adding an output field is one row here, not a struct key, a mxSetField and an
 * m-side reshape in three files.  Conversion only: no numerics, no checks of the user's input.
 * Cost: one copy of each array into its mxArray.
 * Errors: only those of the mx allocation functions (which raise). */
#ifndef VM_SOLUTION_MX_H
#define VM_SOLUTION_MX_H

#include <stddef.h>
#include <string.h>

#include "vm_mex.h"

/* The size symbols: what a dimension of a field counts.  Their values are set per solve in
 * vm_sol_src.size; their names (vm_sol_size_name) are what the schema exports. */
enum
{
  VM_SZ_0 = 0,     /* an empty dimension */
  VM_SZ_1,         /* one */
  VM_SZ_NTOT,      /* the solution's nodes (time points) */
  VM_SZ_N,         /* coordinates (skg_solve) */
  VM_SZ_M,         /* constraints (skg_solve), duals per node nd + ng (the dual solvers) */
  VM_SZ_NOUT,      /* the requested output times (OutputTimes) */
  VM_SZ_NHIST,     /* Newton history entries */
  VM_SZ_NWIN,      /* accepted windows */
  VM_SZ_NREJ,      /* rejected window attempts */
  VM_SZ_LEN,       /* a string's length (a row: 1 x len) */
  VM_SZ_NODES,     /* nodes per window (not a dimension of any field: the value of windows.N) */
  VM_SZ_NY,        /* states (the dual solvers) */
  VM_SZ_ND,        /* differential states */
  VM_SZ_NG,        /* algebraic equations */
  VM_SZ_SLABS,     /* slabs */
  VM_SZ_SOLVES,    /* Newton solves (every slab of every pass) */
  VM_SZ_NBASE,     /* base-state iterations (BaseIterations) */
  VM_SZ_NHAM,      /* Ntot when the Hamiltonian is kept, else 0 ... */
  VM_SZ_HAM,       /* ... and 1 or 0 likewise (not kept: []) */
  VM_SZ_NAMES,     /* named states or coordinates (0: a closed form without names) */
  VM_SZ_NLAMBDA,   /* multipliers per point (gauss_integrate: m, or k reaction directions) */
  VM_SZ_NRATE,     /* multiplier rates per point (m under the vakonomic law, else 0) */
  VM_SZ_NIMPACT,   /* impacts */
  VM_SZ_NPRIMAL,   /* nodes with a recovered primal (Ntot, or 0 when it could not be recovered) */
  VM_SZ_COUNT
};

static VM_MAYBE_UNUSED const char *const vm_sol_size_name[VM_SZ_COUNT] = {
  "0", "1", "Ntot", "n", "m", "nout", "nhist", "nwin", "nrej", "len", "N", "ny", "nd", "ng",
  "slabs", "solves", "base_iterations", "nham", "ham", "names", "nlambda", "nrate", "nimpact",
  "nprimal"
};

/* How a row's value is found (off: offsetof into the C solution that vm_sol_src.sol points to). */
enum
{
  VM_SOLF_REAL = 1,   /* double * at off: rows x cols column-major (NULL: zeros) */
  VM_SOLF_REAL_NAN,   /* double * at off: as REAL, NULL (not computed): NaN */
  VM_SOLF_POINTS,     /* double * at off: point-major (row k at [k cols .. k cols + cols - 1]) */
  VM_SOLF_INTS,       /* int * at off: rows x cols, as doubles */
  VM_SOLF_DOUBLE,     /* double at off: a scalar */
  VM_SOLF_INT,        /* int at off: a scalar */
  VM_SOLF_LONG,       /* long at off: a scalar */
  VM_SOLF_TEXT,       /* char[] at off: a string */
  VM_SOLF_STRUCT,     /* a 1-by-1 struct of the rows of sub, whose offsets count from off */
  VM_SOLF_MAKE,       /* make (src, row): a value that is no single array of the solution */
  VM_SOLF_FRONT,      /* [] here: the .m front end sets it (a choice only it knows) */
  VM_SOLF_AUX = 0x100 /* or-ed with REAL .. TEXT: off addresses vm_sol_src.aux, not .sol */
};

typedef struct vm_sol_src vm_sol_src;
typedef struct vm_sol_field vm_sol_field;

/* One solve's data for the conversion: the C solution, the solver's extras its makers read (its
 * options, the model's names, ...), and the value of every size symbol. */
struct vm_sol_src
{
  const void *sol;
  const void *aux;
  int64_t size[VM_SZ_COUNT];
};

struct vm_sol_field
{
  const char *name;          /* the field's name (NULL ends the table) */
  int kind;                  /* VM_SOLF_* */
  int rows, cols;            /* VM_SZ_* */
  int when;                  /* 0: always there; a VM_SZ_*: there only when that size is not 0 */
  size_t off;                /* REAL .. TEXT: offsetof in the C solution */
  mxArray *(*make) (const vm_sol_src *src, const vm_sol_field *f);   /* VM_SOLF_MAKE */
  const vm_sol_field *sub;   /* VM_SOLF_STRUCT */
  const char *unit;          /* [t], [q], [q]/[t], ... (the user's units), s, or "" */
  const char *meaning;       /* one line */
};

/* a row's dimension */
static VM_MAYBE_UNUSED size_t
vm_sol_dim (const vm_sol_src *s, int sym)
{
  return sym == VM_SZ_0 ? 0 : sym == VM_SZ_1 ? 1 : (size_t) s->size[sym];
}

/* the member of the C solution at off */
#define VM_SOL_AT(s, f, type) (*(const type *) ((const char *) (s)->sol + (f)->off))

static VM_MAYBE_UNUSED mxArray *vm_solution_mx (const vm_sol_field *schema, const vm_sol_src *s);

/* The value of row f. */
static VM_MAYBE_UNUSED mxArray *
vm_sol_value (const vm_sol_src *s, const vm_sol_field *f)
{
  size_t r = vm_sol_dim (s, f->rows), c = vm_sol_dim (s, f->cols), k;
  mxArray *a;
  if (f->kind & VM_SOLF_AUX)
    {
      vm_sol_src in = *s;
      vm_sol_field g = *f;
      in.sol = s->aux;
      g.kind &= ~VM_SOLF_AUX;
      return vm_sol_value (&in, &g);
    }
  switch (f->kind)
    {
    case VM_SOLF_REAL:
    case VM_SOLF_REAL_NAN:
      {
        const double *p = VM_SOL_AT (s, f, double *);
        a = mxCreateDoubleMatrix (r, c, mxREAL);
        if (p && r * c > 0)
          memcpy (mxGetPr (a), p, r * c * sizeof (double));
        else if (f->kind == VM_SOLF_REAL_NAN)
          for (k = 0; k < r * c; k++)
            mxGetPr (a)[k] = mxGetNaN ();
        return a;
      }
    case VM_SOLF_POINTS:
      {
        const double *p = VM_SOL_AT (s, f, double *);
        size_t j;
        a = mxCreateDoubleMatrix (r, c, mxREAL);
        for (k = 0; p && k < r; k++)
          for (j = 0; j < c; j++)
            mxGetPr (a)[k + r * j] = p[k * c + j];
        return a;
      }
    case VM_SOLF_INTS:
      {
        const int *p = VM_SOL_AT (s, f, int *);
        a = mxCreateDoubleMatrix (r, c, mxREAL);
        for (k = 0; p && k < r * c; k++)
          mxGetPr (a)[k] = p[k];
        return a;
      }
    case VM_SOLF_DOUBLE:
      return mxCreateDoubleScalar (VM_SOL_AT (s, f, double));
    case VM_SOLF_INT:
      return mxCreateDoubleScalar ((double) VM_SOL_AT (s, f, int));
    case VM_SOLF_LONG:
      return mxCreateDoubleScalar ((double) VM_SOL_AT (s, f, long));
    case VM_SOLF_TEXT:
      return mxCreateString ((const char *) s->sol + f->off);
    case VM_SOLF_STRUCT:
      {
        vm_sol_src in = *s;   /* the sub-table's offsets count from the member at off */
        in.sol = (const char *) s->sol + f->off;
        return vm_solution_mx (f->sub, &in);
      }
    case VM_SOLF_MAKE:
      return f->make (s, f);
    default:
      return mxCreateDoubleMatrix (0, 0, mxREAL);
    }
}

/* The struct of the rows of schema (see the top of the file). */
static VM_MAYBE_UNUSED mxArray *
vm_solution_mx (const vm_sol_field *schema, const vm_sol_src *s)
{
  size_t nf = 0, k, np = 0;
  const char **names;
  mxArray **vals, *out;
  while (schema[nf].name)
    nf++;
  names = mxMalloc ((nf + 1) * sizeof *names);
  vals = mxMalloc ((nf + 1) * sizeof *vals);
  for (k = 0; k < nf; k++)
    {
      const vm_sol_field *f = &schema[k];
      mxArray *v;
      if (f->when != VM_SZ_0 && vm_sol_dim (s, f->when) == 0)
        continue;
      v = vm_sol_value (s, f);
      if (! v)
        continue;
      names[np] = f->name;
      vals[np++] = v;
    }
  out = mxCreateStructMatrix (1, 1, (int) np, names);
  for (k = 0; k < np; k++)
    mxSetFieldByNumber (out, 0, (int) k, vals[k]);
  mxFree (names);
  mxFree (vals);
  return out;
}

/* The rows of schema added to the 1-by-1 struct out after its fields (the same rules). */
static VM_MAYBE_UNUSED void
vm_solution_mx_append (mxArray *out, const vm_sol_field *schema, const vm_sol_src *s)
{
  mxArray *more = vm_solution_mx (schema, s);
  int k, nf = mxGetNumberOfFields (more);
  for (k = 0; k < nf; k++)
    {
      const char *name = mxGetFieldNameByNumber (more, k);
      mxAddField (out, name);
      mxSetField (out, 0, name, mxGetFieldByNumber (more, 0, k));
      mxSetFieldByNumber (more, 0, k, NULL);
    }
  mxDestroyArray (more);
}

/* The table as an N-by-1 struct array: name, rows, cols (size symbols' names), unit, meaning,
 * when ("1" when always there, else the size that must not be 0), fields (the sub-table of a
 * struct field, [] otherwise). */
static VM_MAYBE_UNUSED mxArray *
vm_solution_schema_mx (const vm_sol_field *schema)
{
  static const char *keys[] = { "name", "rows", "cols", "unit", "meaning", "when", "fields" };
  size_t nf = 0, k;
  mxArray *out;
  while (schema[nf].name)
    nf++;
  out = mxCreateStructMatrix (nf, 1, 7, keys);
  for (k = 0; k < nf; k++)
    {
      const vm_sol_field *f = &schema[k];
      mxSetField (out, k, "name", mxCreateString (f->name));
      mxSetField (out, k, "rows", mxCreateString (vm_sol_size_name[f->rows]));
      mxSetField (out, k, "cols", mxCreateString (vm_sol_size_name[f->cols]));
      mxSetField (out, k, "unit", mxCreateString (f->unit));
      mxSetField (out, k, "meaning", mxCreateString (f->meaning));
      mxSetField (out, k, "when", mxCreateString (vm_sol_size_name[f->when == VM_SZ_0 ? VM_SZ_1
                                                                               : f->when]));
      mxSetField (out, k, "fields", f->kind == VM_SOLF_STRUCT ? vm_solution_schema_mx (f->sub)
                                                              : mxCreateDoubleMatrix (0, 0, mxREAL));
    }
  return out;
}

#endif
