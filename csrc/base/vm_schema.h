/* vm_schema.h -- the options of every public function of varmech, described once.
 *
 * One table (vm_schema.c) holds a row per option: its public name, its kind and range, its
 * default and one line of documentation.  A row without a function name is shared by every
 * function that lists the name; a row with one (fn "skg_solve") applies to that function only
 * and replaces the shared row's rule, default or doc where it sets them (VM_OPT_INHERIT,
 * VM_DEF_INHERIT, a NULL doc: take the shared row's).  vm_schema_names gives each function's
 * options in the order of its help text and error messages.
 *
 * Readers: the options gateway (mex/vm_options_mex.c) converts a name/value list by these rows
 * and hands the .m front ends their defaults and rules; the solver gateways and the kernels'
 * init functions (vm_skg_solve_opts_init, vm_march_opts_init) take their defaults from here; the
 * test tests/octave/test_option_schema.m holds every help text against it.  Why in C: the
 * gateways and the kernels read it without a round trip through Octave, and one table leaves
 * no second place for a default or a range to drift.  Lookups are linear in the table's
 * length (about 100 rows, a string compare each): for set-up, not for inner loops. */
#ifndef VM_SCHEMA_H
#define VM_SCHEMA_H

/* the largest N (points per window or slab) and count of windows any gateway accepts */
#define VM_SCHEMA_NMAX 100000000
#define VM_SCHEMA_WINDOWS_MAX 1000000

typedef enum
{
  VM_OPT_INHERIT = 0,   /* a function row that keeps the shared row's rule */
  VM_OPT_ANY,           /* any value: the function checks it (it depends on other arguments) */
  VM_OPT_INT,           /* an integer-valued real scalar in [lo, hi] */
  VM_OPT_REAL,          /* a real finite scalar between lo and hi, brackets in bounds */
  VM_OPT_ORDER,         /* an SBP interior order that csrc/sbp supports */
  VM_OPT_CHOICE,        /* one of the '|'-separated words of choices, any case */
  VM_OPT_LOGICAL,       /* true or false */
  VM_OPT_VECTOR         /* a real full finite vector, any length */
} vm_opt_kind;

typedef enum
{
  VM_DEF_INHERIT = 0,   /* a function row that keeps the shared row's default */
  VM_DEF_EMPTY,         /* [] (the function decides, from other options) */
  VM_DEF_REAL,          /* the number dval */
  VM_DEF_TEXT,          /* the string dtext ('' when "") */
  VM_DEF_FALSE,
  VM_DEF_TRUE,
  VM_DEF_CELL,          /* {} */
  VM_DEF_STRUCT,        /* struct () */
  VM_DEF_MATRIX,        /* the drows-by-dcols matrix dmat, column-major */
  VM_DEF_IMPLIED        /* [] in the front end's options (given or not decides the grid's kind:
                           error control when given), the number dval in the kernel */
} vm_def_kind;

typedef struct
{
  const char *fn;       /* NULL: shared by every function that lists the name */
  const char *name;     /* the public name, spelled as the user reads it */
  vm_opt_kind kind;
  int empty_ok;         /* [] is accepted (and kept: the function's default applies) */
  double lo, hi;        /* range of VM_OPT_INT and VM_OPT_REAL */
  const char *bounds;   /* VM_OPT_REAL: "[]", "[)", "(]" or "()" */
  const char *choices;  /* VM_OPT_CHOICE: "off|final|iter" */
  vm_def_kind dkind;
  double dval;
  const char *dtext;
  const double *dmat;
  int drows, dcols;
  const char *doc;      /* one line: what the option sets */
} vm_opt_row;

/* The k-th public function of the schema (k from 0), or NULL past the last one. */
const char *vm_schema_function (int k);

/* The options of the public function fn, in order, separated by single spaces; NULL when fn has
 * no options in the schema. */
const char *vm_schema_names (const char *fn);

/* The row that gives the rule (want 0), the default (want 1) or the doc (want 2) of option name
 * (exact spelling) of fn: fn's own row when it sets that part, else the shared row; NULL when
 * name is not an option of fn. */
const vm_opt_row *vm_schema_row (const char *fn, const char *name, int want);

/* The default of a numeric option of fn (VM_DEF_REAL, VM_DEF_IMPLIED); fn NULL: the shared
 * row's (the kernels shared by several functions).  NaN when it has none (a programming error:
 * the kernels' init functions ask only for numeric defaults). */
double vm_schema_default (const char *fn, const char *name);

/* 1 when the double v passes the rule r of kind VM_OPT_INT or VM_OPT_REAL (range, brackets,
 * integer-ness), 0 otherwise (also for NaN). */
int vm_schema_accepts (const vm_opt_row *r, double v);

#endif
