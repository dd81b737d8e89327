/* vm_schema.c -- the table of the options of varmech's public functions (see vm_schema.h).
 *
 * Shared rows first: a name has one rule, one default and one doc line for every function that
 * lists it.  A function row follows only where that function differs today (a default such as
 * Tol, a range such as skg_solve's RelTol, or an option of its own); every such difference is a
 * row here, so it is visible in one place. */
#include "base/vm_schema.h"

#include <math.h>
#include <string.h>

#define INF HUGE_VAL
/* rule shorthands: kind, [] accepted, lo, hi, bounds, choices */
#define ANY VM_OPT_ANY, 0, 0, 0, NULL, NULL
#define INT(e, lo, hi) VM_OPT_INT, e, lo, hi, NULL, NULL
#define REAL(e, lo, hi, b) VM_OPT_REAL, e, lo, hi, b, NULL
#define POS REAL (0, 0, INF, "()")
#define CHOICE(c) VM_OPT_CHOICE, 0, 0, 0, NULL, c
#define ORDER VM_OPT_ORDER, 0, 0, 0, NULL, NULL
#define LOGICAL VM_OPT_LOGICAL, 0, 0, 0, NULL, NULL
#define VECTOR(e) VM_OPT_VECTOR, e, 0, 0, NULL, NULL
#define KEEP VM_OPT_INHERIT, 0, 0, 0, NULL, NULL
/* default shorthands: kind, dval, dtext, dmat, drows, dcols */
#define D_EMPTY VM_DEF_EMPTY, 0, NULL, NULL, 0, 0
#define D_REAL(v) VM_DEF_REAL, v, NULL, NULL, 0, 0
#define D_TEXT(s) VM_DEF_TEXT, 0, s, NULL, 0, 0
#define D_FALSE VM_DEF_FALSE, 0, NULL, NULL, 0, 0
#define D_TRUE VM_DEF_TRUE, 0, NULL, NULL, 0, 0
#define D_CELL VM_DEF_CELL, 0, NULL, NULL, 0, 0
#define D_STRUCT VM_DEF_STRUCT, 0, NULL, NULL, 0, 0
#define D_MATRIX(m, r, c) VM_DEF_MATRIX, 0, NULL, m, r, c
#define D_KEEP VM_DEF_INHERIT, 0, NULL, NULL, 0, 0
#define D_IMPLIED(v) VM_DEF_IMPLIED, v, NULL, NULL, 0, 0

/* dual_pars' default Lagrangian matrix (column-major [0 0 1; 0 0 0; 0 0 0]) and b */
static const double pars_L[] = { 0, 0, 0, 0, 0, 0, 1, 0, 0 };
static const double pars_b[] = { 0, -1, 0 };

static const vm_opt_row rows[] = {
  /* the grid and Newton's iteration */
  { NULL, "N", INT (1, 2, VM_SCHEMA_NMAX), D_EMPTY, "nodes per window or slab" },
  { "skg_solve", "N", INT (1, 2, 9007199254740992.0), D_KEEP,
    NULL },   /* a large N is refused by the memory estimate, with figures */
  { "dual_action", "N", KEEP, D_REAL (65), NULL },
  { "dual_lorenz", "N", KEEP, D_REAL (65), NULL },
  { "dual_pars", "N", KEEP, D_REAL (65), NULL },
  { NULL, "Order", ORDER, D_REAL (4), "interior order of the SBP operator" },
  { "periodic_orbit", "Order", KEEP, D_REAL (8), NULL },
  { NULL, "Windows", INT (1, 1, VM_SCHEMA_WINDOWS_MAX), D_EMPTY, "a fixed grid of this many windows" },
  { NULL, "Slabs", INT (1, 1, VM_SCHEMA_WINDOWS_MAX), D_EMPTY, "a fixed grid of this many slabs" },
  { "dual_lorenz", "Slabs", KEEP, D_REAL (1), NULL },
  { "dual_pars", "Slabs", KEEP, D_REAL (1), NULL },
  { NULL, "MaxWindows", INT (0, 1, 2147483647.0), D_REAL (100000), "the most windows a march takes" },
  { NULL, "BaseIterations", INT (0, 0, 1e6), D_REAL (0), "passes of the base state" },
  { "periodic_orbit", "BaseIterations", KEEP, D_REAL (1), NULL },
  { NULL, "Tol", POS, D_REAL (1e-11), "Newton's tolerance on the discrete equations" },
  { "skg_solve", "Tol", KEEP, D_REAL (1e-10), NULL },
  { "periodic_orbit", "Tol", KEEP, D_REAL (1e-12), NULL },
  { NULL, "MaxIter", INT (1, 0, 1e6), D_REAL (50), "Newton iterations per window" },
  { "skg_solve", "MaxIter", KEEP, D_EMPTY, NULL },   /* 50, or 15 with error control */
  { NULL, "Display", CHOICE ("off|final|iter"), D_TEXT ("off"), "what is printed while it runs" },
  { NULL, "Mode", CHOICE ("full|reduced"), D_TEXT ("reduced"), "the unknowns of the discrete action" },
  { NULL, "ErrorEstimate", CHOICE ("off|on"), D_TEXT ("off"), "an error estimate on a fixed grid" },
  { NULL, "FinalDual", CHOICE ("weak|strong"), D_TEXT ("weak"), "the final dual condition" },
  { NULL, "LinearSolver", CHOICE ("auto|umfpack|banded"), D_TEXT ("auto"),
    "the sparse solver of Newton's steps" },   /* the gateways' codes 0, 1, 2 */
  { NULL, "ReuseFactorization", INT (1, 0, 1e6), D_EMPTY, "Newton steps on one factorization" },
  { NULL, "Guess", ANY, D_EMPTY, "the start of Newton's iteration" },
  { "dual_solve", "Guess", KEEP, D_TEXT ("auto"), NULL },
  /* error control */
  { NULL, "RelTol", REAL (1, 0, INF, "[)"), D_IMPLIED (1e-6), "relative error tolerance" },
  { "skg_solve", "RelTol", REAL (1, 1e-14, 1, "[)"), D_KEEP, NULL },
  { "periodic_guesses", "RelTol", REAL (0, 1e-14, 1e-3, "[]"), D_REAL (1e-10),
    "relative tolerance of the integration" },
  { NULL, "AbsTol", REAL (1, 0, INF, "()"), D_IMPLIED (1e-8), "absolute error tolerance" },
  { NULL, "InitialWindow", REAL (1, 0, INF, "()"), D_EMPTY, "the first window's length" },
  { NULL, "MaxWindow", REAL (1, 0, INF, "()"), D_EMPTY, "the longest window" },
  { NULL, "OutputTimes", VECTOR (1), D_EMPTY, "times of the dense output" },
  { "periodic_orbit", "OutputTimes", KEEP, D_KEEP, "times of the orbit, taken modulo the period" },
  { NULL, "ConstraintTol", POS, D_REAL (1e-8), "tolerance of the initial constraint residuals" },
  /* gauss_integrate (its gateway checks them, mex/vm_integrate_mex.c) */
  { NULL, "Method", CHOICE ("dopri5|gl4|gl6|rk4|dop853"), D_TEXT ("dopri5"), "the integrator" },
  { "gauss_integrate", "RelTol", REAL (0, 0, INF, "()"), D_REAL (1e-8), NULL },
  { "gauss_integrate", "AbsTol", REAL (0, 0, INF, "[)"), D_REAL (1e-10), NULL },
  { NULL, "Step", REAL (1, 0, INF, "()"), D_EMPTY, "the fixed step ((tf - t0)/1000 when [])" },
  { NULL, "InitialStep", REAL (0, 0, INF, "[)"), D_REAL (0), "the first step (0: automatic)" },
  { NULL, "MaxStep", REAL (0, 0, INF, "[)"), D_REAL (0), "the longest step (0: automatic)" },
  { NULL, "MaxSteps", INT (0, 0, 1e15), D_REAL (0), "the most steps (0: automatic)" },
  { NULL, "Reaction", ANY, D_TEXT ("ideal"), "the reaction law" },
  { NULL, "Contacts", CHOICE ("hard|soft"), D_TEXT ("hard"), "hard walls or soft contacts" },
  { NULL, "Restitution", REAL (0, 0, 1, "[]"), D_REAL (1), "the coefficient of the impacts" },
  { NULL, "Projection", CHOICE ("off|on"), D_TEXT ("off"), "projection onto the constraints" },
  { NULL, "Multiplier0", ANY, D_EMPTY, "the initial multipliers of the vakonomic law" },
  /* the dual formulation */
  { NULL, "c", ANY, D_EMPTY, "the weights of H" },
  { "dual_action", "c", KEEP, D_REAL (10), NULL },
  { "dual_lorenz", "c", POS, D_REAL (50), NULL },
  { NULL, "BaseState", ANY, D_EMPTY, "the base state ybar" },
  { NULL, "DT", ANY, D_EMPTY, "the final differential duals" },
  { "dual_lorenz", "A", REAL (0, -INF, INF, "()"), D_REAL (10), "Lorenz's sigma" },
  { "dual_lorenz", "R", REAL (0, -INF, INF, "()"), D_REAL (28), "Lorenz's rho" },
  { "dual_lorenz", "B", REAL (0, -INF, INF, "()"), D_REAL (8.0 / 3.0), "Lorenz's beta" },
  { "dual_pars", "L", ANY, D_MATRIX (pars_L, 3, 3), "the matrix of the quadratic Lagrangian" },
  { "dual_pars", "b", ANY, D_MATRIX (pars_b, 1, 3), "the linear term of the Lagrangian" },
  { "dual_pars", "Reduced", LOGICAL, D_FALSE, "the reduced formulation" },
  /* periodic orbits */
  { NULL, "PeriodTol", REAL (0, 1e-15, 1, "[]"), D_REAL (1e-10), "tolerance of the period" },
  { NULL, "FlowTol", REAL (0, 1e-14, 1e-3, "[]"), D_REAL (1e-12), "tolerance of the flow" },
  { "periodic_orbit", "WarmStart", CHOICE ("on|off"), D_TEXT ("on"),
    "multiple shooting from the guess before the dual solve" },
  { NULL, "Level", REAL (0, -INF, INF, "()"), D_REAL (0), "the level of the first integral" },
  { NULL, "Integral", ANY, D_TEXT (""), "a first integral to hold at Level" },
  { NULL, "Unfolding", ANY, D_CELL, "the unfolding terms" },
  { NULL, "Section", ANY, D_EMPTY, "the Poincare section" },
  { NULL, "Transient", REAL (1, 0, INF, "[)"), D_EMPTY, "time integrated before the search" },
  { NULL, "MaxLoops", INT (0, 1, 1000), D_REAL (6), "the most loops of a candidate" },
  { NULL, "ReturnTol", POS, D_REAL (0.02), "tolerance of a return to the section" },
  { NULL, "MaxCandidates", INT (0, 1, 1e6), D_REAL (50), "the most candidates returned" },
  { NULL, "Points", INT (0, 4, 1e7), D_REAL (200), "points per period" },
  { "periodic_catalogue", "Section", ANY, D_TEXT (""), "the section h(x) = 0, crossed upward" },
  { "periodic_catalogue", "Symbol", ANY, D_TEXT (""), "the symbol: A where negative, B where positive" },
  { "periodic_catalogue", "MaxLength", INT (0, 2, 24), D_REAL (6), "the longest word" },
  { "periodic_catalogue", "Duration", REAL (1, 0, INF, "()"), D_EMPTY,
    "the time of the trajectory whose itinerary gives the guesses" },
  { "periodic_catalogue", "RelTol", REAL (0, 1e-14, 1e-3, "[]"), D_REAL (1e-10),
    "relative tolerance of the integration" },
  { "periodic_catalogue", "Tries", INT (0, 1, 1000), D_REAL (3), "stretches tried per word" },
  { "periodic_catalogue", "Chunks", INT (0, 1, 1e6), D_REAL (8), "the chunks the words are dealt into" },
  { "periodic_catalogue", "Chunk", ANY, D_EMPTY, "[k n]: run chunk k of n alone" },
  { "periodic_catalogue", "Checkpoint", ANY, D_TEXT (""), "a folder for each chunk's result" },
  { "periodic_catalogue", "Parallel", CHOICE ("auto|off"), D_TEXT ("auto"),
    "chunks in parallel with parcellfun when available" },
  /* continuation of periodic orbits: steps in the scaled arclength (periodic_continue) */
  { "periodic_continue", "InitialStep", REAL (0, 0, 1, "(]"), D_REAL (0.02), "the first step" },
  { "periodic_continue", "MaxStep", REAL (0, 0, 1, "(]"), D_REAL (0.1), "the longest step" },
  { "periodic_continue", "MinStep", REAL (0, 0, 1, "(]"), D_REAL (1e-4), "the shortest step" },
  { "periodic_continue", "MaxSteps", INT (0, 1, 1e6), D_REAL (200), "the most steps" },
  { "periodic_continue", "SpecialTol", REAL (0, 1e-12, 0.1, "[]"), D_REAL (1e-6),
    "the width of a special point's final bracket" },
  /* models: compilation and evaluation */
  { NULL, "coordinates", ANY, D_CELL, "the generalized coordinates" },
  { NULL, "parameters", ANY, D_STRUCT, "the parameters and their values" },
  { NULL, "lagrangian", ANY, D_TEXT (""), "the Lagrangian" },
  { NULL, "forces", ANY, D_CELL, "the generalized forces" },
  { NULL, "constraints", ANY, D_CELL, "the constraints" },
  { NULL, "contacts", ANY, D_EMPTY, "the contacts" },
  { NULL, "states", ANY, D_CELL, "the states" },
  { NULL, "rhs", ANY, D_CELL, "the right-hand sides" },
  { NULL, "algebraic", ANY, D_CELL, "the algebraic equations" },
  { "odesys", "square", LOGICAL, D_TRUE, "as many algebraic equations as algebraic states" },
  { NULL, "lambda", ANY, D_EMPTY, "the multipliers" },
  { NULL, "weights", ANY, D_EMPTY, "the weights of the blocks" },
  { NULL, "blocks", ANY, D_CELL, "the blocks evaluated" },
  { NULL, "layout", CHOICE ("full|compact"), D_TEXT ("full"), "the layout of the derivatives" },
  { NULL, "wF", ANY, D_EMPTY, "the weights of F" },
  { NULL, "wG", ANY, D_EMPTY, "the weights of G" },
  /* plotting */
  { NULL, "Panels", ANY, D_CELL, "the panels drawn" },
  { NULL, "Labels", ANY, D_CELL, "the legend labels" },
  { NULL, "Units", ANY, D_CELL, "the units of the components" },
  { NULL, "TimeUnit", ANY, D_TEXT (""), "the unit of time ('': s for mechanical solutions, else none)" },
  { NULL, "EnergyUnit", ANY, D_TEXT (""), "the unit of energy" },
  { NULL, "Title", ANY, D_TEXT (""), "the figure's title" },
  { NULL, "Png", ANY, D_TEXT (""), "a PNG file to write" },
  { "varmech_plot", "Visible", CHOICE ("on|off"), D_TEXT ("on"), "whether the figure is shown" },
  { NULL, "Figure", ANY, D_EMPTY, "the figure to draw in" },
};

/* each public function's options, in the order of its help text and messages */
static const struct
{
  const char *fn, *names;
} fns[] = {
  { "skg_solve", "N Order Mode Windows RelTol AbsTol Tol MaxIter Guess Display OutputTimes "
                 "MaxWindow InitialWindow MaxWindows ConstraintTol LinearSolver "
                 "ReuseFactorization ErrorEstimate" },
  { "dual_solve", "N Order c BaseState DT Slabs BaseIterations Guess Tol MaxIter Display RelTol "
                  "AbsTol OutputTimes FinalDual LinearSolver ErrorEstimate" },
  { "dual_lorenz", "A R B c N Order BaseState DT Slabs BaseIterations Guess Tol MaxIter Display "
                   "LinearSolver RelTol AbsTol" },
  { "dual_pars", "L b c Reduced N Order BaseState DT Slabs BaseIterations Guess Tol MaxIter "
                 "Display LinearSolver RelTol AbsTol" },
  { "dual_action", "N Order c BaseState DT" },
  { "gauss_integrate", "Method RelTol AbsTol Step InitialStep MaxStep MaxSteps OutputTimes "
                       "Reaction Contacts Restitution Projection ConstraintTol Multiplier0" },
  { "mechsys", "coordinates parameters lagrangian forces constraints contacts" },
  { "mechsys_eval", "lambda weights blocks layout" },
  { "odesys", "states parameters rhs algebraic square" },
  { "odesys_eval", "wF wG" },
  { "periodic_guesses", "Section Transient MaxLoops ReturnTol MaxCandidates Points RelTol" },
  { "periodic_catalogue", "Section Symbol MaxLength Duration Transient RelTol Tries Points "
                          "PeriodTol FlowTol Chunks Chunk Checkpoint Parallel Display" },
  { "periodic_orbit", "N Order PeriodTol Tol MaxIter c BaseIterations FlowTol Display Integral "
                      "Level Unfolding OutputTimes WarmStart" },
  { "periodic_continue", "InitialStep MaxStep MinStep MaxSteps SpecialTol PeriodTol FlowTol "
                         "Display" },
  { "varmech_plot", "Panels Labels Units TimeUnit EnergyUnit Title Png Visible Figure" },
};

const char *
vm_schema_function (int k)
{
  return k >= 0 && (size_t) k < sizeof fns / sizeof fns[0] ? fns[k].fn : NULL;
}

const char *
vm_schema_names (const char *fn)
{
  size_t k;
  for (k = 0; fn && k < sizeof fns / sizeof fns[0]; k++)
    if (strcmp (fns[k].fn, fn) == 0)
      return fns[k].names;
  return NULL;
}

/* the shared row of name, or NULL */
static const vm_opt_row *
shared_row (const char *name)
{
  size_t k;
  for (k = 0; k < sizeof rows / sizeof rows[0]; k++)
    if (rows[k].fn == NULL && strcmp (rows[k].name, name) == 0)
      return &rows[k];
  return NULL;
}

/* 1 when name is one of the words of the space-separated list */
static int
listed (const char *list, const char *name)
{
  size_t n = strlen (name);
  const char *p = list;
  while (p && *p)
    {
      const char *e = strchr (p, ' ');
      size_t len = e ? (size_t) (e - p) : strlen (p);
      if (len == n && strncmp (p, name, n) == 0)
        return 1;
      p = e ? e + 1 : NULL;
    }
  return 0;
}

/* 1 when row r sets the part want (0 rule, 1 default, 2 doc) */
static int
sets (const vm_opt_row *r, int want)
{
  return want == 0 ? r->kind != VM_OPT_INHERIT : want == 1 ? r->dkind != VM_DEF_INHERIT
                                                           : r->doc != NULL;
}

const vm_opt_row *
vm_schema_row (const char *fn, const char *name, int want)
{
  const char *names = vm_schema_names (fn);
  size_t k;
  if (! names || ! name || ! listed (names, name))
    return NULL;
  for (k = 0; k < sizeof rows / sizeof rows[0]; k++)
    if (rows[k].fn && strcmp (rows[k].name, name) == 0 && strcmp (rows[k].fn, fn) == 0
        && sets (&rows[k], want))
      return &rows[k];
  return shared_row (name);
}

double
vm_schema_default (const char *fn, const char *name)
{
  const vm_opt_row *r = fn ? vm_schema_row (fn, name, 1) : shared_row (name);
  return r && (r->dkind == VM_DEF_REAL || r->dkind == VM_DEF_IMPLIED) ? r->dval : NAN;
}

int
vm_schema_accepts (const vm_opt_row *r, double v)
{
  if (! r || ! isfinite (v))
    return 0;
  if (r->kind == VM_OPT_INT)
    return v == floor (v) && v >= r->lo && v <= r->hi;
  if (r->kind != VM_OPT_REAL)
    return 0;
  return (v > r->lo || (r->bounds[0] == '[' && v == r->lo))
         && (v < r->hi || (r->bounds[1] == ']' && v == r->hi));
}
