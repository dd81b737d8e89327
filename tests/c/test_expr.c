/* test_expr.c -- unit tests of the expression engine and the models (no Octave).
 *
 * References are independent of the code under test: derivatives against Richardson-extrapolated
 * central differences (error O(h^4) + O(eps/h): with h = 1e-3 about 1e-12 relative, so the
 * tolerance 1e-7 leaves five orders for higher derivatives of large size), values of simplified
 * graphs against a plain recursive evaluator of the same random trees written in this file, tapes
 * against the graph evaluator and against themselves point by point, model blocks against
 * hand-derived formulas. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"
#include "model/model.h"
#include "base/vm_status.h"
#include "vmtest.h"

#define PI 3.14159265358979323846

static unsigned long rng_state = 12345;
static double
urand (void)   /* uniform in [0, 1) */
{
  rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
  return (double) ((rng_state >> 11) & ((1UL << 53) - 1)) / 9007199254740992.0;
}

static int
close_to (double a, double b, double tol)
{
  return fabs (a - b) <= tol * (1.0 + fabs (b));
}

/* Richardson central difference of node e in variable v at x. */
static double
rdiff (const vm_graph *g, int32_t e, int v, const double *x0, int nvar, double h)
{
  double x[16], d[2];
  int k;
  for (k = 0; k < 2; k++)
    {
      double hh = k ? h / 2 : h, fp, fm;
      memcpy (x, x0, (size_t) nvar * sizeof *x);
      x[v] = x0[v] + hh;
      fp = vm_graph_eval1 (g, e, x);
      x[v] = x0[v] - hh;
      fm = vm_graph_eval1 (g, e, x);
      d[k] = (fp - fm) / (2 * hh);
    }
  return (4 * d[1] - d[0]) / 3;
}

/* A symbol table with x, y, z (coordinates at 0..2, velocities 3..5), a parameter p (6), t (7). */
static vm_symtab *
std_symtab (void)
{
  vm_symtab *s = vm_symtab_new ();
  vm_symtab_add (s, "x", "coordinate", 0, 3);
  vm_symtab_add (s, "y", "coordinate", 1, 4);
  vm_symtab_add (s, "z", "coordinate", 2, 5);
  vm_symtab_add (s, "p", "parameter", 6, -1);
  vm_symtab_add (s, "t", "time", 7, -1);
  return s;
}
#define NV 8

static int32_t
parse_ok (vm_graph *g, vm_symtab *s, const char *text)
{
  vm_err err;
  int32_t r = vm_parse (g, s, text, "test", &err);
  CHECK (r >= 0, "parse '%s' failed: %s", text, err.msg);
  return r;
}

/* ---- 1. values and precedence ------------------------------------------------------------- */
static void
test_values (void)
{
  static const struct { const char *text; double val; } cases[] = {
    { "1+2*3", 7 }, { "-2^2", -4 }, { "2^3^2", 64 }, { "2^-1", 0.5 }, { "2*-3", -6 },
    { "1e-3*1E3", 1 }, { ".5+5.", 5.5 }, { "2.^2 + 6./3 + 2.*3", 12 }, { "(1+2)*(3-4)/2", -1.5 },
    { "pi", PI }, { "x*y - z", 0.5 * -1.5 - 2 }, { "dot(x) + dot(z)", 3 + 5 }, { "p*t", 6.0 * 7.0 },
    { "atan2(y, x)", 0 /* filled below */ }, { "min(x, y) + max(x, y)", 0.5 + -1.5 },
    { "sign(y) + sign(0) + abs(y)", -1 + 0 + 1.5 }, { "sqrt(4)*exp(0)*log(1)+cos(0)", 1 },
    { "+-+x", -0.5 }, { "x - -y", 0.5 - 1.5 }, { "1/4/2", 0.125 }, { "2^3*2", 16 },
    { "x^2^0.5", 0.5 }, { "-x^2", -0.25 }, { "sinh(0)+cosh(0)+tanh(0)", 1 },
    { "asin(1)+acos(1)+atan(1)", PI / 2 + PI / 4 }, { "tan(pi/4)", 1 }, { " \t1\n+ 1 ", 2 }
  };
  double x[NV] = { 0.5, -1.5, 2, 3, 4, 5, 6, 7 };
  vm_graph *g = vm_graph_new (NV);
  vm_symtab *s = std_symtab ();
  size_t k;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
    {
      int32_t e = parse_ok (g, s, cases[k].text);
      double want = strcmp (cases[k].text, "atan2(y, x)") == 0 ? atan2 (-1.5, 0.5) : cases[k].val;
      if (e >= 0)
        CHECK (close_to (vm_graph_eval1 (g, e, x), want, 1e-15), "'%s' = %.17g, expected %.17g",
               cases[k].text, vm_graph_eval1 (g, e, x), want);
    }
  vm_symtab_free (s);
  vm_graph_free (g);
}

/* ---- 2. derivatives of every function ------------------------------------------------------ */
static void
test_function_derivatives (void)
{
  static const char *fx[] = {
    "sin(x)", "cos(x)", "tan(x)", "exp(x)", "log(x)", "sqrt(x)", "abs(x)", "sinh(x)", "cosh(x)",
    "tanh(x)", "asin(x/2)", "acos(x/2)", "atan(x)", "sign(x)", "atan2(x, y)", "atan2(y, x)",
    "min(x, y)", "max(x, y)", "x^y", "y^x", "x^3", "x^-2", "x^0.5", "x^2.5", "x/y", "y/x",
    "x*y", "x-y", "-x", "exp(-x^2/2)/sqrt(2*pi)", "log(1+x^2)*cos(y)"
  };
  vm_graph *g = vm_graph_new (NV);
  vm_symtab *s = std_symtab ();
  size_t k;
  int trial;
  for (k = 0; k < sizeof fx / sizeof fx[0]; k++)
    for (trial = 0; trial < 5; trial++)
      {
        double x[NV] = { 0 };
        int32_t e = parse_ok (g, s, fx[k]), d1[2], d2;
        int v, w;
        x[0] = 0.2 + 1.5 * urand ();   /* x in (0.2, 1.7): inside every domain, away from kinks */
        x[1] = x[0] + 0.3 + urand ();  /* y > x, so min/max/sign are smooth here */
        if (e < 0)
          continue;
        for (v = 0; v < 2; v++)
          {
            double ref, got;
            d1[v] = vm_diff (g, e, v);
            got = vm_graph_eval1 (g, d1[v], x);
            ref = rdiff (g, e, v, x, NV, 1e-3);
            CHECK (close_to (got, ref, 1e-7), "d(%s)/d%c at x=%g y=%g: %.15g vs FD %.15g", fx[k],
                   "xy"[v], x[0], x[1], got, ref);
          }
        for (v = 0; v < 2; v++)
          for (w = 0; w < 2; w++)
            {
              double ref, got;
              d2 = vm_diff (g, d1[v], w);
              got = vm_graph_eval1 (g, d2, x);
              ref = rdiff (g, d1[v], w, x, NV, 1e-3);
              CHECK (close_to (got, ref, 1e-7), "d2(%s)/d%cd%c: %.15g vs FD %.15g", fx[k], "xy"[v],
                     "xy"[w], got, ref);
            }
      }
  /* documented conventions at the kinks */
  {
    double x[NV] = { 0 };
    int32_t e;
    e = parse_ok (g, s, "abs(x)");
    CHECK (vm_graph_eval1 (g, vm_diff (g, e, 0), x) == 0, "abs'(0) = sign(0) = 0");
    e = parse_ok (g, s, "sign(x)");
    CHECK (vm_graph_eval1 (g, vm_diff (g, e, 0), x) == 0, "sign' = 0");
    x[0] = x[1] = 0.7;
    e = parse_ok (g, s, "min(x, y)");
    CHECK (vm_graph_eval1 (g, vm_diff (g, e, 0), x) == 0.5
           && vm_graph_eval1 (g, vm_diff (g, e, 1), x) == 0.5, "min at a tie: 1/2 each");
    e = parse_ok (g, s, "max(x, y)");
    CHECK (vm_graph_eval1 (g, vm_diff (g, e, 0), x) == 0.5
           && vm_graph_eval1 (g, vm_diff (g, e, 1), x) == 0.5, "max at a tie: 1/2 each");
    x[1] = 1.0;
    e = parse_ok (g, s, "max(x, y)");
    CHECK (vm_graph_eval1 (g, vm_diff (g, e, 0), x) == 0
           && vm_graph_eval1 (g, vm_diff (g, e, 1), x) == 1, "max with y > x");
  }
  /* erfc (internal: the contacts' potential, model.c): value, and its derivative
   * -2/sqrt(pi) exp(-a^2) a' against Richardson differences (step 1e-3: truncation ~1e-12) */
  {
    double x[NV] = { 0 };
    int32_t e = vm_unary (g, VM_OP_ERFC, parse_ok (g, s, "x*y - 0.3"));
    x[0] = 0.8;
    x[1] = 1.1;
    CHECK (vm_graph_eval1 (g, e, x) == erfc (0.8 * 1.1 - 0.3), "erfc value");
    CHECK (close_to (vm_graph_eval1 (g, vm_diff (g, e, 0), x), rdiff (g, e, 0, x, NV, 1e-3), 1e-9)
           && close_to (vm_graph_eval1 (g, vm_diff (g, e, 1), x), rdiff (g, e, 1, x, NV, 1e-3), 1e-9),
           "erfc derivative");
  }
  vm_symtab_free (s);
  vm_graph_free (g);
}

/* ---- 3. random composed expressions: independent evaluator, gradient and Hessian ----------- */
typedef struct ast { int kind; int op; double c; int v; struct ast *a, *b; } ast;
enum { A_NUM, A_VAR, A_UN, A_BIN };

static ast *
gen (int depth)
{
  ast *n = calloc (1, sizeof *n);
  double r = urand ();
  if (depth <= 0 || r < 0.25)
    {
      if (urand () < 0.3)
        {
          n->kind = A_NUM;
          n->c = floor (urand () * 40) / 8 - 1;   /* exact in binary and in decimal */
        }
      else
        {
          n->kind = A_VAR;
          n->v = (int) (urand () * 4);   /* x, y, z, dot(x) */
        }
      return n;
    }
  if (r < 0.5)
    {
      static const int ops[] = { VM_OP_SIN, VM_OP_COS, VM_OP_EXP, VM_OP_ATAN, VM_OP_TANH,
                                 VM_OP_NEG, VM_OP_SQRT, VM_OP_LOG, VM_OP_SINH };
      n->kind = A_UN;
      n->op = ops[(int) (urand () * 9)];
      n->a = gen (depth - 1);
      return n;
    }
  {
    static const int ops[] = { VM_OP_ADD, VM_OP_SUB, VM_OP_MUL, VM_OP_DIV, VM_OP_POW, VM_OP_MUL,
                               VM_OP_ADD, VM_OP_ATAN2 };
    n->kind = A_BIN;
    n->op = ops[(int) (urand () * 8)];
    n->a = gen (depth - 1);
    n->b = gen (depth - 1);
  }
  return n;
}

static void
ast_free (ast *n)
{
  if (! n)
    return;
  ast_free (n->a);
  ast_free (n->b);
  free (n);
}

/* Text with safe domains: sqrt(1+u^2), log(2+u^2), u/(1+v^2)... written out literally. */
static void
ast_text (const ast *n, char *buf, size_t len)
{
  char a[4096], b[4096];
  static const char *vn[] = { "x", "y", "z", "dot(x)" };
  switch (n->kind)
    {
    case A_NUM: snprintf (buf, len, "(%.17g)", n->c); return;
    case A_VAR: snprintf (buf, len, "%s", vn[n->v]); return;
    case A_UN:
      ast_text (n->a, a, sizeof a);
      switch (n->op)
        {
        case VM_OP_NEG: snprintf (buf, len, "(-%s)", a); return;
        case VM_OP_SQRT: snprintf (buf, len, "sqrt(1+(%s)^2)", a); return;
        case VM_OP_LOG: snprintf (buf, len, "log(2+(%s)^2)", a); return;
        case VM_OP_EXP: snprintf (buf, len, "exp(sin(%s))", a); return;
        case VM_OP_SINH: snprintf (buf, len, "sinh(atan(%s))", a); return;
        default: snprintf (buf, len, "%s(%s)", vm_op_name (n->op), a); return;
        }
    default:
      ast_text (n->a, a, sizeof a);
      ast_text (n->b, b, sizeof b);
      switch (n->op)
        {
        case VM_OP_DIV: snprintf (buf, len, "((%s)/(1+(%s)^2))", a, b); return;
        case VM_OP_POW: snprintf (buf, len, "((1.5+sin(%s))^(cos(%s)))", a, b); return;
        case VM_OP_ATAN2: snprintf (buf, len, "atan2(%s, 2+(%s)^2)", a, b); return;
        default: snprintf (buf, len, "(%s%s%s)", a, vm_op_name (n->op), b); return;
        }
    }
}

static double
ast_eval (const ast *n, const double *x)
{
  double a, b;
  static const int vi[] = { 0, 1, 2, 3 };
  switch (n->kind)
    {
    case A_NUM: return n->c;
    case A_VAR: return x[vi[n->v]];
    case A_UN:
      a = ast_eval (n->a, x);
      switch (n->op)
        {
        case VM_OP_NEG: return -a;
        case VM_OP_SQRT: return sqrt (1 + a * a);
        case VM_OP_LOG: return log (2 + a * a);
        case VM_OP_EXP: return exp (sin (a));
        case VM_OP_SINH: return sinh (atan (a));
        case VM_OP_SIN: return sin (a);
        case VM_OP_COS: return cos (a);
        case VM_OP_ATAN: return atan (a);
        default: return tanh (a);
        }
    default:
      a = ast_eval (n->a, x);
      b = ast_eval (n->b, x);
      switch (n->op)
        {
        case VM_OP_ADD: return a + b;
        case VM_OP_SUB: return a - b;
        case VM_OP_MUL: return a * b;
        case VM_OP_DIV: return a / (1 + b * b);
        case VM_OP_POW: return pow (1.5 + sin (a), cos (b));
        default: return atan2 (a, 2 + b * b);
        }
    }
}

static void
test_random_expressions (void)
{
  int trial, bad_val = 0, bad_grad = 0, bad_hess = 0, nchk = 0;
  char *text = malloc (65536);
  for (trial = 0; trial < 300; trial++)
    {
      vm_graph *g = vm_graph_new (NV);
      vm_symtab *s = std_symtab ();
      ast *t = gen (5);
      int32_t e, d1[4];
      double x[NV] = { 0 };
      int v, w, k;
      ast_text (t, text, 65536);
      e = parse_ok (g, s, text);
      for (k = 0; k < 4; k++)
        x[k] = 2 * urand () - 1;
      if (e >= 0)
        {
          double got = vm_graph_eval1 (g, e, x), ref = ast_eval (t, x);
          nchk++;
          if (! close_to (got, ref, 1e-12))
            {
              bad_val++;
              fprintf (stderr, "value of %s: %.17g vs %.17g\n", text, got, ref);
            }
          for (v = 0; v < 4; v++)
            {
              double gd, rf;
              d1[v] = vm_diff (g, e, v);
              gd = vm_graph_eval1 (g, d1[v], x);
              rf = rdiff (g, e, v, x, NV, 1e-3);
              if (! close_to (gd, rf, 1e-6))
                {
                  bad_grad++;
                  fprintf (stderr, "d/dv%d of %s: %.15g vs %.15g\n", v, text, gd, rf);
                }
            }
          for (v = 0; v < 4; v++)
            for (w = 0; w <= v; w++)
              {
                int32_t d2 = vm_diff (g, d1[v], w), d2t = vm_diff (g, d1[w], v);
                double gd = vm_graph_eval1 (g, d2, x), rf = rdiff (g, d1[v], w, x, NV, 1e-3);
                if (! close_to (gd, rf, 1e-6) || ! close_to (vm_graph_eval1 (g, d2t, x), gd, 1e-12))
                  {
                    bad_hess++;
                    fprintf (stderr, "d2/dv%ddv%d of %s: %.15g vs %.15g\n", v, w, text, gd, rf);
                  }
              }
        }
      ast_free (t);
      vm_symtab_free (s);
      vm_graph_free (g);
    }
  CHECK (nchk == 300, "all 300 random expressions parsed (%d)", nchk);
  CHECK (bad_val == 0, "%d simplified values differ from the plain evaluator", bad_val);
  CHECK (bad_grad == 0, "%d gradient entries differ from differences", bad_grad);
  CHECK (bad_hess == 0, "%d Hessian entries differ from differences or are not symmetric", bad_hess);
  free (text);
}

/* ---- 4. simplification and sharing ---------------------------------------------------------- */
static void
test_simplify (void)
{
  vm_graph *g = vm_graph_new (NV);
  vm_symtab *s = std_symtab ();
  int32_t a, b, d;
  const vm_node *nd;
  a = parse_ok (g, s, "x*0 + 0*sin(y) + (z - z)");
  nd = vm_graph_node (g, a);
  CHECK (nd && nd->op == VM_OP_CONST && nd->c == 0, "zero identities fold to 0");
  a = parse_ok (g, s, "1*x + 0 - 0");
  CHECK (a == parse_ok (g, s, "x"), "one and zero identities");
  a = parse_ok (g, s, "sin(x)*cos(y) + exp(x*y)");
  b = parse_ok (g, s, "(sin(x))*(cos(y)) + exp((x)*(y))");
  CHECK (a == b, "equal expressions are one node (hash-consing)");
  a = parse_ok (g, s, "y*x");
  CHECK (a == parse_ok (g, s, "x*y"), "commutative operands are ordered");
  a = parse_ok (g, s, "x*x*x");
  nd = vm_graph_node (g, a);
  CHECK (nd->op == VM_OP_POW && vm_graph_node (g, nd->b)->c == 3, "x*x*x -> x^3");
  d = vm_diff (g, a, 0);
  CHECK (d == parse_ok (g, s, "3*x^2"), "d(x^3)/dx is 3*x^2");
  CHECK (parse_ok (g, s, "2*3*x") == parse_ok (g, s, "6*x"), "constant coefficients fold");
  CHECK (parse_ok (g, s, "(x^2)^3") == parse_ok (g, s, "x^6"), "(x^2)^3 -> x^6");
  CHECK (parse_ok (g, s, "x^0.5") == parse_ok (g, s, "sqrt(x)"), "x^0.5 -> sqrt(x)");
  CHECK (parse_ok (g, s, "--x") == parse_ok (g, s, "x"), "double negation");
  CHECK (parse_ok (g, s, "x + -y") == parse_ok (g, s, "x - y"), "x + -y -> x - y");
  CHECK (parse_ok (g, s, "cos(-x)") == parse_ok (g, s, "cos(x)"), "cos is even");
  d = vm_diff (g, parse_ok (g, s, "p*y^2 + t"), 0);
  nd = vm_graph_node (g, d);
  CHECK (nd->op == VM_OP_CONST && nd->c == 0, "derivative of an expression without x is 0");
  CHECK (! vm_depends (g, parse_ok (g, s, "x - x + y"), 0) && vm_depends (g, parse_ok (g, s, "x*y"), 1),
         "dependence");
  {   /* x/0 (not constant) is not folded into Inf: it stays symbolic and evaluates to Inf;
       constant ones are parse errors (test_errors) */
    double x[NV] = { 1 };
    a = parse_ok (g, s, "x/0");
    CHECK (vm_graph_node (g, a)->op == VM_OP_DIV && isinf (vm_graph_eval1 (g, a, x)), "x/0 kept");
  }
  {   /* substitution */
    int32_t map[NV];
    int k;
    for (k = 0; k < NV; k++)
      map[k] = -1;
    map[0] = parse_ok (g, s, "y+1");
    a = vm_subst (g, parse_ok (g, s, "x^2 + sin(x)*z"), map);
    CHECK (a == parse_ok (g, s, "(y+1)^2 + sin(y+1)*z"), "substitution");
  }
  vm_symtab_free (s);
  vm_graph_free (g);
}

/* ---- 5. tapes --------------------------------------------------------------------------------- */
static void
test_tapes (void)
{
  vm_graph *g = vm_graph_new (NV);
  vm_symtab *s = std_symtab ();
  const char *texts[] = { "sin(x)*y^2 + p*exp(-t) + x^-3", "atan2(y, x) + min(x, dot(y))*p",
                          "sqrt(x^2+y^2+z^2) + abs(z)^5 + sign(y)*x^7", "3", "x", "p" };
  int32_t outs[32];
  int no = 0, k, v, mism = 0, mism1 = 0;
  size_t npts = 1000, pt;   /* not a multiple of the block size */
  vm_tape tp;
  double *in, *out, *work, **pout, x[NV];
  const double *pin[NV];
  int inc[NV];
  for (k = 0; k < 6; k++)
    {
      int32_t e = parse_ok (g, s, texts[k]);
      outs[no++] = e;
      outs[no++] = vm_diff (g, e, 0);
      outs[no++] = vm_diff (g, vm_diff (g, e, 0), 1);
    }
  outs[no++] = outs[0];   /* the same node twice */
  CHECK (vm_tape_compile (g, no, outs, &tp) == VM_OK, "compile");
  CHECK (vm_tape_validate (&tp) == VM_OK, "a compiled tape validates");
  in = malloc (NV * npts * sizeof *in);
  out = calloc ((size_t) no * npts, sizeof *out);
  pout = malloc ((size_t) no * sizeof *pout);
  work = malloc (vm_tape_work_size (&tp) * sizeof *work);
  for (v = 0; v < NV; v++)
    {
      for (pt = 0; pt < npts; pt++)
        in[v * npts + pt] = 0.1 + 2 * urand ();
      pin[v] = in + v * npts;
      inc[v] = v == 6 ? 0 : 1;   /* the parameter is broadcast */
    }
  for (k = 0; k < no; k++)
    pout[k] = out + (size_t) k * npts;
  CHECK (vm_tape_eval (&tp, npts, pin, inc, pout, work) == VM_OK, "eval");
  for (pt = 0; pt < npts; pt++)
    {
      double one[32], *p1[32];
      const double *pin1[NV];
      for (v = 0; v < NV; v++)
        {
          x[v] = inc[v] ? in[v * npts + pt] : in[v * npts];
          pin1[v] = inc[v] ? in + v * npts + pt : in + v * npts;
        }
      for (k = 0; k < no; k++)
        {
          p1[k] = one + k;
          if (! close_to (out[(size_t) k * npts + pt], vm_graph_eval1 (g, outs[k], x), 1e-13))
            mism++;
        }
      vm_tape_eval (&tp, 1, pin1, inc, p1, work);
      for (k = 0; k < no; k++)
        if (memcmp (&one[k], &out[(size_t) k * npts + pt], sizeof (double)) != 0)
          mism1++;
    }
  CHECK (mism == 0, "%d tape values differ from the graph evaluator", mism);
  CHECK (mism1 == 0, "%d values at 1000 points differ from 1000 single evaluations", mism1);
  /* corrupted tapes are refused */
  {
    vm_tape bad = tp;
    vm_instr *c = malloc ((size_t) tp.ninstr * sizeof *c);
    int last = tp.ninstr - 1, firstmain = tp.nprologue;
    while (tp.code[firstmain].op == VM_OP_STORE)   /* the first computing instruction */
      firstmain++;
    memcpy (c, tp.code, (size_t) tp.ninstr * sizeof *c);
    bad.code = c;
    c[firstmain].op = 999;
    CHECK (vm_tape_validate (&bad) == VM_EARG, "bad op code refused");
    c[firstmain] = tp.code[firstmain];
    c[firstmain].a = tp.nslot;
    CHECK (vm_tape_validate (&bad) == VM_EARG, "operand slot out of range refused");
    c[firstmain] = tp.code[firstmain];
    c[firstmain].dst = c[0].dst;
    CHECK (vm_tape_validate (&bad) == VM_EARG, "write into a prologue slot refused");
    c[firstmain] = tp.code[firstmain];
    c[last].imm = tp.nout;
    CHECK (c[last].op != VM_OP_STORE || vm_tape_validate (&bad) == VM_EARG, "output out of range");
    c[last] = tp.code[last];
    {   /* a unary instruction with an operand b (read by the evaluator when b >= 0): refused */
      int k;
      for (k = firstmain; k < tp.ninstr && ! (c[k].op != VM_OP_STORE && vm_op_arity (c[k].op) == 1
                                             && c[k].op != VM_OP_POWI); k++)
        ;
      if (k < tp.ninstr)
        {
          c[k].b = 1000000;
          CHECK (vm_tape_validate (&bad) == VM_EARG, "unary instruction with an operand b refused");
          c[k] = tp.code[k];
        }
    }
    c[0].a = NV;
    CHECK (c[0].op != VM_OP_VAR || vm_tape_validate (&bad) == VM_EARG, "variable out of range");
    c[0] = tp.code[0];
    bad.nslot = tp.nslot + 1;
    c[firstmain].a = tp.nslot;   /* in range now but never written */
    CHECK (vm_tape_validate (&bad) == VM_EARG, "read before write refused");
    free (c);
  }
  vm_tape_free (&tp);
  free (in);
  free (out);
  free (pout);
  free (work);
  vm_symtab_free (s);
  vm_graph_free (g);
}

/* ---- 6. parse errors -------------------------------------------------------------------------- */
static void
test_errors (void)
{
  static const struct { const char *text; int col; const char *sub; } cases[] = {
    { "", 1, "empty expression" }, { "   ", 4, "empty expression" },
    { "x +", 4, "expected a number, a name" }, { "x + * y", 5, "found '*'" },
    { "(x + y", 7, "expected ')' to close the '(' at column 1" }, { "x + y)", 6, "unmatched ')'" },
    { "foo + 1", 1, "unknown name 'foo'" }, { "foo(x)", 1, "unknown function 'foo'" },
    { "x(2)", 1, "'x' is a coordinate, not a function; write dot(x)" },
    { "p(1)", 1, "'p' is a parameter, not a function" }, { "dot(p)", 5, "'p' is a parameter" },
    { "dot(2)", 5, "dot() takes a coordinate name" }, { "dot x", 1, "expected dot(<coordinate>)" },
    { "x'", 2, "quote characters" }, { "sin x", 1, "'sin' is a function" },
    { "atan2(x)", 8, "atan2 takes 2 arguments" }, { "sin(x, y)", 6, "too many arguments" },
    { "min()", 5, "min() has no argument" }, { "1e+", 4, "exponent has no digits" },
    { "2x", 2, "a letter follows the digits" }, { "x $ y", 3, "unexpected character '$'" },
    { "1e999", 1, "out of the range" }, { "x y", 3, "found the name 'y'" },
    { "pi(2)", 1, "'pi' is a constant" }, { "_a", 1, "cannot start with '_'" },
    { "x = 1", 3, "unexpected character '='" }, { "x\x01", 2, "unexpected byte 0x01" },
    { "1/0*x", 2, "evaluates to Inf" }, { "x + log(0)", 5, "evaluates to -Inf" },
    { "0^-1", 2, "evaluates to Inf" }, { "x*sqrt(-1)", 3, "evaluates to NaN" },
    { "-(1/0)", 4, "evaluates to Inf" }, { "2 - 1/0 + x", 6, "evaluates to Inf" }
  };
  vm_graph *g = vm_graph_new (NV);
  vm_symtab *s = std_symtab ();
  size_t k;
  char deep[4000];
  vm_err err;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
    {
      int32_t r = vm_parse (g, s, cases[k].text, "lagrangian", &err);
      CHECK (r < 0 && err.status == VM_EARG, "'%s' must fail", cases[k].text);
      CHECK (err.column == cases[k].col, "'%s': column %d, expected %d (%s)", cases[k].text,
             err.column, cases[k].col, err.msg);
      CHECK (strstr (err.msg, cases[k].sub) != NULL, "'%s': message '%s' lacks '%s'", cases[k].text,
             err.msg, cases[k].sub);
      CHECK (strncmp (err.msg, "lagrangian: column ", 19) == 0, "message names the expression: %s",
             err.msg);
    }
  /* the message quotes the expression with a caret under the column */
  vm_parse (g, s, "x + * y", "constraint 2", &err);
  CHECK (strstr (err.msg, "\n    x + * y\n        ^") != NULL, "caret: %s", err.msg);
  /* deep nesting is an error, not a stack overflow */
  memset (deep, '(', 3000);
  strcpy (deep + 3000, "x");
  CHECK (vm_parse (g, s, deep, "deep", &err) < 0 && strstr (err.msg, "nested deeper"), "%s", err.msg);
  memset (deep, '-', 3000);
  CHECK (vm_parse (g, s, deep, "deep", &err) < 0 && strstr (err.msg, "nested deeper"), "%s", err.msg);
  /* a long flat chain is fine (iterative algorithms) */
  {
    size_t n = 200000, i;
    char *chain = malloc (2 * n + 2);
    int32_t e, d;
    double x[NV] = { 1, 0, 0, 0, 0, 0, 0, 0 };
    for (i = 0; i < n; i++)
      {
        chain[2 * i] = 'x';
        chain[2 * i + 1] = '*';
      }
    chain[2 * n - 1] = '\0';
    e = vm_parse (g, s, chain, "chain", &err);
    d = e >= 0 ? vm_diff (g, e, 0) : -1;
    CHECK (e >= 0 && d >= 0 && vm_graph_eval1 (g, d, x) == (double) n, "x*x*...*x (%lu factors)",
           (unsigned long) n);
    for (i = 0; i < n; i++)
      chain[2 * i + 1] = '+';
    chain[2 * n - 1] = '\0';
    chain[0] = 'y';
    e = vm_parse (g, s, chain, "chain", &err);
    d = e >= 0 ? vm_diff (g, vm_diff (g, e, 1), 1) : -1;
    CHECK (d >= 0, "y+x+x+...: second derivative");
    free (chain);
  }
  /* forbidden kinds */
  vm_symtab_forbid_dot (s, "contact gaps depend on positions");
  CHECK (vm_parse (g, s, "x + dot(y)", "contact 1: h", &err) < 0
         && strstr (err.msg, "velocities are not allowed here (contact gaps depend on positions)")
         && err.column == 5, "%s", err.msg);
  vm_symtab_forbid_dot (s, NULL);
  vm_symtab_forbid_kind (s, "time", "no time here");
  CHECK (vm_parse (g, s, "x + t", "h", &err) < 0 && strstr (err.msg, "the time 't' is not allowed here")
         && err.column == 5, "%s", err.msg);
  vm_symtab_forbid_kind (s, "time", NULL);
  CHECK (vm_parse (g, s, "x + t", "h", &err) >= 0, "allowed again");
  CHECK (vm_name_reserved ("sin") && vm_name_reserved ("dot") && vm_name_reserved ("pi")
         && vm_name_reserved ("t") && ! vm_name_reserved ("x"), "reserved names");
  CHECK (vm_name_valid ("theta_2") && ! vm_name_valid ("2x") && ! vm_name_valid ("")
         && ! vm_name_valid ("a b") && ! vm_name_valid ("_x"), "valid names");
  vm_symtab_free (s);
  vm_graph_free (g);
}

/* ---- 7. models -------------------------------------------------------------------------------- */

/* Evaluate block b of a model with nvar variables at one point x; returns the field values in
 * fields (each allocated, zero-filled); caller frees. */
static double **
eval_point (const vm_block *b, int nvar, const double *x)
{
  const double *in[64];
  int inc[64], k;
  double **f = calloc ((size_t) b->nfield, sizeof *f), *work;
  for (k = 0; k < nvar; k++)
    {
      in[k] = x + k;
      inc[k] = 1;
    }
  for (k = 0; k < b->nfield; k++)
    {
      int e, ne = b->field[k].dim[0] * b->field[k].dim[1];
      f[k] = malloc ((size_t) (ne + 1) * sizeof (double));
      for (e = 0; e < ne; e++)
        f[k][e] = NAN;   /* vm_block_eval must write every entry, structural zeros included */
    }
  work = malloc (vm_tape_work_size (&b->tape) * sizeof *work);
  CHECK (vm_block_eval (b, 1, in, inc, f, work) == VM_OK, "block eval");
  for (k = 0; k < b->nfield; k++)
    {
      int e, ne = b->field[k].dim[0] * b->field[k].dim[1], nan = 0;
      for (e = 0; e < ne; e++)
        nan += isnan (f[k][e]) ? 1 : 0;
      CHECK (nan == 0, "field %s: %d entries not written", b->field[k].name, nan);
    }
  free (work);
  return f;
}

static void
free_fields (double **f, int n)
{
  int k;
  for (k = 0; k < n; k++)
    free (f[k]);
  free (f);
}

static int
field_index (const vm_block *b, const char *name)
{
  int k;
  for (k = 0; k < b->nfield; k++)
    if (strcmp (b->field[k].name, name) == 0)
      return k;
  return -1;
}

static void
test_disk (void)
{
  const char *coord[] = { "x", "y", "theta", "phi" };
  const char *param[] = { "M", "g", "alpha", "R", "IS", "ID" };
  const char *cons[] = { "dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2", "dot(x)*sin(phi) - dot(y)*cos(phi)" };
  vm_mech_desc d;
  vm_mech m;
  vm_err err;
  vm_block bl, bc, be;
  double x[32], **fl, **fc, **fe;
  double M = 1, gg = 9.8, al = PI / 6, R = 1, IS = 0.5, ID = 0.25;
  double xd, yd, thd, phd, l1, l2, phi;
  int k, n = 4, tapelen;
  memset (&d, 0, sizeof d);
  d.n = 4;
  d.coord = coord;
  d.np = 6;
  d.param = param;
  d.lagrangian = "M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)";
  d.ncons = 2;
  d.cons = cons;
  CHECK (vm_mech_build (&d, &m, &err) == VM_OK, "disk: %s", err.msg);
  CHECK (m.nvar == 1 + 4 + 4 + 6 + 2 + 4, "layout");
  CHECK (vm_mech_block (&m, VM_MECH_LAGRANGIAN, &bl) == VM_OK, "lagrangian block");
  CHECK (vm_mech_block (&m, VM_MECH_CONSTRAINTS, &bc) == VM_OK, "constraints block");
  CHECK (vm_mech_block (&m, VM_MECH_EOM, &be) == VM_OK, "eom block");
  for (k = 0; k < m.nvar; k++)
    x[k] = 2 * urand () - 1;
  x[m.vp] = M; x[m.vp + 1] = gg; x[m.vp + 2] = al; x[m.vp + 3] = R; x[m.vp + 4] = IS;
  x[m.vp + 5] = ID;
  xd = x[m.vqd]; yd = x[m.vqd + 1]; thd = x[m.vqd + 2]; phd = x[m.vqd + 3];
  phi = x[m.vq + 3]; l1 = x[m.vlam]; l2 = x[m.vlam + 1];
  fl = eval_point (&bl, m.nvar, x);
  fc = eval_point (&bc, m.nvar, x);
  fe = eval_point (&be, m.nvar, x);
  CHECK (close_to (fl[field_index (&bl, "L")][0], M / 2 * (xd * xd + yd * yd) + IS / 2 * thd * thd
                   + ID / 2 * phd * phd + M * gg * x[m.vq] * sin (al), 1e-14), "L");
  CHECK (close_to (fl[field_index (&bl, "L_q")][0], M * gg * sin (al), 1e-14), "L_x");
  CHECK (close_to (fl[field_index (&bl, "L_qdot")][2], IS * thd, 1e-14), "L_thetadot");
  {
    double *Mq = fl[field_index (&bl, "L_qdotqdot")], *Me = fe[field_index (&be, "M")];
    double want[4] = { M, M, IS, ID };
    int i, j, ok = 1;
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        ok = ok && Mq[i + n * j] == (i == j ? want[i] : 0) && Me[i + n * j] == Mq[i + n * j];
    CHECK (ok, "mass matrix diag(M, M, IS, ID)");
  }
  CHECK (close_to (fe[field_index (&be, "f")][0], M * gg * sin (al), 1e-14)
         && fe[field_index (&be, "f")][1] == 0 && fe[field_index (&be, "f")][3] == 0, "f");
  CHECK (close_to (fe[field_index (&be, "energy")][0], M / 2 * (xd * xd + yd * yd) + IS / 2 * thd * thd
                   + ID / 2 * phd * phd - M * gg * x[m.vq] * sin (al), 1e-14), "energy");
  {
    double *gv = fc[field_index (&bc, "g")], *gqd = fc[field_index (&bc, "g_qdot")],
           *gq = fc[field_index (&bc, "g_q")], *h = fc[field_index (&bc, "lg_qdotqdot")],
           *hx = fc[field_index (&bc, "lg_qqdot")];
    CHECK (close_to (gv[0], xd * xd + yd * yd - R * R * thd * thd, 1e-14)
           && close_to (gv[1], xd * sin (phi) - yd * cos (phi), 1e-14), "g");
    /* g_qdot is 2 x 4, column-major */
    CHECK (close_to (gqd[0 + 2 * 0], 2 * xd, 1e-14) && close_to (gqd[0 + 2 * 2], -2 * R * R * thd, 1e-14)
           && close_to (gqd[1 + 2 * 0], sin (phi), 1e-14) && close_to (gqd[1 + 2 * 1], -cos (phi), 1e-14),
           "g_qdot");
    CHECK (close_to (gq[1 + 2 * 3], xd * cos (phi) + yd * sin (phi), 1e-14) && gq[0] == 0, "g_q");
    CHECK (close_to (h[0], 2 * l1, 1e-14) && close_to (h[2 + 4 * 2], -2 * l1 * R * R, 1e-14)
           && h[1] == 0, "lambda-weighted Hessian in qdot");
    /* d2(l2*g2)/dphi dxdot = l2 cos(phi): row phi (3), column xdot (0) of lg_qqdot */
    CHECK (close_to (hx[3 + 4 * 0], l2 * cos (phi), 1e-14)
           && close_to (hx[3 + 4 * 1], l2 * sin (phi), 1e-14), "lg_qqdot");
  }
  /* CSE is real: the whole value/gradient/Hessian of L + lambda.g in 10 variables compiles to a
   * short tape.  Bound: 110 instructions in all, loads and stores included (measured: 102, of
   * which 59 arithmetic; libmatheval's 66 separate trees hold 41,881 characters). */
  tapelen = bl.tape.ninstr + bc.tape.ninstr;
  CHECK (tapelen <= 110, "disk tape length %d (lagrangian %d + constraints %d) exceeds 110", tapelen,
         bl.tape.ninstr, bc.tape.ninstr);
  printf ("disk: lagrangian tape %d instructions, constraints tape %d, eom tape %d\n",
          bl.tape.ninstr, bc.tape.ninstr, be.tape.ninstr);
  free_fields (fl, bl.nfield);
  free_fields (fc, bc.nfield);
  free_fields (fe, be.nfield);
  vm_block_free (&bl);
  vm_block_free (&bc);
  vm_block_free (&be);
  vm_mech_free (&m);
}

static void
test_tumbler_contact (void)
{
  const char *coord[] = { "x", "y" };
  const char *param[] = { "m", "g", "R", "V0", "sig", "mu" };
  vm_contact_desc c = { "R^2 - x^2 - y^2", "sig", "V0", "mu", "1e-3" };
  vm_mech_desc d;
  vm_mech m;
  vm_err err;
  vm_block b, bf;
  double x[32], **f, **ff;
  int k;
  memset (&d, 0, sizeof d);
  d.n = 2;
  d.coord = coord;
  d.np = 6;
  d.param = param;
  d.lagrangian = "m/2*(dot(x)^2 + dot(y)^2) - m*g*y";
  d.ncontact = 1;
  d.contact = &c;
  CHECK (vm_mech_build (&d, &m, &err) == VM_OK, "tumbler: %s", err.msg);
  CHECK (vm_mech_block (&m, VM_MECH_CONTACTS, &b) == VM_OK, "contacts block");
  CHECK (vm_mech_block (&m, VM_MECH_FORCES, &bf) == VM_OK, "forces block");
  for (k = 0; k < m.nvar; k++)
    x[k] = 0;
  x[m.vq] = 0.6; x[m.vq + 1] = -0.78;   /* near the wall R = 1 */
  x[m.vqd] = 0.3; x[m.vqd + 1] = -0.5;
  x[m.vp] = 1; x[m.vp + 1] = 9.8; x[m.vp + 2] = 1; x[m.vp + 3] = 10; x[m.vp + 4] = 0.1;
  x[m.vp + 5] = 0.4;
  f = eval_point (&b, m.nvar, x);
  ff = eval_point (&bf, m.nvar, x);
  {
    double X = 0.6, Y = -0.78, h = 1 - X * X - Y * Y, sg = 0.1, V0 = 10, mu = 0.4;
    double amp = V0 / sqrt (2 * PI * sg * sg) * exp (-h * h / (2 * sg * sg));
    double gx = -2 * X, gy = -2 * Y, vn = (0.3 * gx - 0.5 * gy) / (gx * gx + gy * gy);
    double vpx = 0.3 - vn * gx, vpy = -0.5 - vn * gy, sl = sqrt (vpx * vpx + vpy * vpy + 1e-6);
    double fn = amp * sqrt (gx * gx + gy * gy);
    double *FN = f[field_index (&b, "FN")], *FR = f[field_index (&b, "FR")], *F = ff[field_index (&bf, "F")];
    CHECK (close_to (f[field_index (&b, "h")][0], h, 1e-14), "h");
    CHECK (close_to (FN[0], amp * gx, 1e-13) && close_to (FN[1], amp * gy, 1e-13),
           "normal force points into h > 0 (towards the centre)");
    CHECK (FN[0] * X + FN[1] * Y < 0, "inward");
    CHECK (close_to (FR[0], -mu * fn * vpx / sl, 1e-13) && close_to (FR[1], -mu * fn * vpy / sl, 1e-13),
           "friction");
    CHECK (fabs (FR[0] * gx + FR[1] * gy) < 1e-12 * fn, "friction is tangential");
    CHECK (close_to (F[0], FN[0] + FR[0], 1e-14) && close_to (F[1], FN[1] + FR[1], 1e-14),
           "total force = normal + friction");
  }
  free_fields (f, b.nfield);
  free_fields (ff, bf.nfield);
  vm_block_free (&b);
  vm_block_free (&bf);
  vm_mech_free (&m);
}

static void
test_model_errors (void)
{
  static const struct { const char *coords[3]; int n; const char *params[2]; int np;
                        const char *lag; const char *cons; const char *sub; } cases[] = {
    { { "x", "x" }, 2, { 0 }, 0, "dot(x)^2", 0, "coordinate 2: the name 'x' is used twice" },
    { { "x" }, 1, { "x" }, 1, "dot(x)^2", 0, "parameter 1: the name 'x' is used twice" },
    { { "sin" }, 1, { 0 }, 0, "1", 0, "coordinate 1: 'sin' is a reserved name" },
    { { "t" }, 1, { 0 }, 0, "1", 0, "'t' is a reserved name" },
    { { "x" }, 1, { "dot" }, 1, "1", 0, "parameter 1: 'dot' is a reserved name" },
    { { "2x" }, 1, { 0 }, 0, "1", 0, "'2x' is not a valid name" },
    { { "x" }, 1, { 0 }, 0, "  ", 0, "lagrangian: column 3: empty expression" },
    { { "x" }, 1, { 0 }, 0, "x(1)^2", 0, "write dot(x) for its velocity" },
    { { "x" }, 1, { 0 }, 0, "dot(x)^2", "dot(x) + q", "constraint 1: column 10: unknown name 'q'" },
  };
  size_t k;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
    {
      vm_mech_desc d;
      vm_mech m;
      vm_err err;
      const char *cons[1];
      memset (&d, 0, sizeof d);
      d.n = cases[k].n;
      d.coord = cases[k].coords;
      d.np = cases[k].np;
      d.param = cases[k].params;
      d.lagrangian = cases[k].lag;
      if (cases[k].cons)
        {
          cons[0] = cases[k].cons;
          d.ncons = 1;
          d.cons = cons;
        }
      CHECK (vm_mech_build (&d, &m, &err) == VM_EARG && strstr (err.msg, cases[k].sub),
             "case %d: '%s' lacks '%s'", (int) k, err.msg, cases[k].sub);
    }
  {
    const char *coord[] = { "x" };
    vm_contact_desc c1 = { "x + dot(x)", "0.1", "1", "0", "1e-3" }, c2 = { "x*t", "0.1", "1", "0", "1e-3" },
                    c3 = { "x", "x", "1", "0", "1e-3" };
    vm_mech_desc d;
    vm_mech m;
    vm_err err;
    memset (&d, 0, sizeof d);
    d.n = 1;
    d.coord = coord;
    d.lagrangian = "dot(x)^2/2";
    d.ncontact = 1;
    d.contact = &c1;
    CHECK (vm_mech_build (&d, &m, &err) == VM_EARG && strstr (err.msg, "contact 1: h: column 5: velocities"),
           "%s", err.msg);
    d.contact = &c2;
    CHECK (vm_mech_build (&d, &m, &err) == VM_EARG && strstr (err.msg, "the time 't' is not allowed here"),
           "%s", err.msg);
    d.contact = &c3;
    CHECK (vm_mech_build (&d, &m, &err) == VM_EARG
           && strstr (err.msg, "contact 1: sigma: column 1: 'x' is a coordinate, not allowed here"),
           "%s", err.msg);
    d.ncontact = 0;
    d.nforce = 2;
    d.force = coord;
    CHECK (vm_mech_build (&d, &m, &err) == VM_EARG && strstr (err.msg, "2 forces for 1 coordinates"),
           "%s", err.msg);
  }
}

static void
test_lorenz (void)
{
  const char *st[] = { "x", "y", "z" }, *pa[] = { "sigma", "rho", "beta" };
  const char *rhs[] = { "sigma*(y - x)", "x*(rho - z) - y", "x*y - beta*z" };
  vm_ode_desc d;
  vm_ode o;
  vm_err err;
  vm_block b;
  double x[32], **f;
  int k;
  memset (&d, 0, sizeof d);
  d.ny = 3;
  d.state = st;
  d.np = 3;
  d.param = pa;
  d.nd = 3;
  d.rhs = rhs;
  CHECK (vm_ode_build (&d, &o, &err) == VM_OK, "lorenz: %s", err.msg);
  CHECK (vm_ode_block (&o, VM_ODE_SYSTEM, &b) == VM_OK, "ode block");
  for (k = 0; k < o.nvar; k++)
    x[k] = 2 * urand () - 1;
  f = eval_point (&b, o.nvar, x);
  {
    double X = x[o.vy], Y = x[o.vy + 1], Z = x[o.vy + 2], s = x[o.vp], r = x[o.vp + 1], be = x[o.vp + 2];
    double w0 = x[o.vwf], w1 = x[o.vwf + 1], w2 = x[o.vwf + 2];
    double *F = f[field_index (&b, "F")], *J = f[field_index (&b, "F_y")], *H = f[field_index (&b, "wF_yy")];
    double Jw[9] = { -s, r - Z, Y, s, -1, X, 0, -X, -be };   /* column-major */
    double Hw[9] = { 0, w2, -w1, w2, 0, 0, -w1, 0, 0 };
    int ok = 1;
    (void) w0;
    CHECK (close_to (F[0], s * (Y - X), 1e-14) && close_to (F[1], X * (r - Z) - Y, 1e-14)
           && close_to (F[2], X * Y - be * Z, 1e-14), "Lorenz F");
    for (k = 0; k < 9; k++)
      ok = ok && close_to (J[k], Jw[k], 1e-14) && close_to (H[k], Hw[k], 1e-14);
    CHECK (ok, "Lorenz Jacobian and weighted Hessian");
  }
  free_fields (f, b.nfield);
  vm_block_free (&b);
  vm_ode_free (&o);
  {
    const char *alg[] = { "x + y" };
    d.na = 1;
    d.alg = alg;
    CHECK (vm_ode_build (&d, &o, &err) == VM_EARG && strstr (err.msg, "3 states but 3 right-hand sides and 1"),
           "%s", err.msg);
    d.na = 0;
    rhs[1] = "dot(x)";
    CHECK (vm_ode_build (&d, &o, &err) == VM_EARG && strstr (err.msg, "right-hand side 2 (dy/dt): column 1"),
           "%s", err.msg);
    rhs[1] = "x*(rho - z) - y";
  }
}

/* ---- 8. corrupted tapes: whatever the validator accepts must evaluate without memory errors ---- */
static void
test_corrupted_blocks (void)
{
  const char *coord[] = { "x", "y" }, *param[] = { "a" }, *cons[] = { "dot(x)*y - dot(y)*x" };
  vm_mech_desc d;
  vm_mech m;
  vm_err err;
  int kind, trial, accepted = 0, refused = 0;
  memset (&d, 0, sizeof d);
  d.n = 2;
  d.coord = coord;
  d.np = 1;
  d.param = param;
  d.lagrangian = "a/2*(dot(x)^2 + dot(y)^2) - sin(x)*cos(y) + x^3";
  d.ncons = 1;
  d.cons = cons;
  if (vm_mech_build (&d, &m, &err) != VM_OK)
    {
      CHECK (0, "build: %s", err.msg);
      return;
    }
  for (kind = 0; kind < VM_MECH_NBLOCKS; kind++)
    {
      vm_block b;
      if (vm_mech_block (&m, kind, &b) != VM_OK)
        continue;
      for (trial = 0; trial < 400; trial++)
        {
          vm_block c = b;
          vm_instr *code = malloc ((size_t) (b.tape.ninstr > 0 ? b.tape.ninstr : 1) * sizeof *code);
          int32_t *of = malloc ((size_t) (b.tape.nout > 0 ? b.tape.nout : 1) * sizeof *of);
          int32_t *oi = malloc ((size_t) (b.tape.nout > 0 ? b.tape.nout : 1) * sizeof *oi);
          int r = (int) (urand () * 8), k;
          memcpy (code, b.tape.code, (size_t) b.tape.ninstr * sizeof *code);
          if (b.tape.nout > 0)
            {
              memcpy (of, b.out_field, (size_t) b.tape.nout * sizeof *of);
              memcpy (oi, b.out_index, (size_t) b.tape.nout * sizeof *oi);
            }
          c.tape.code = code;
          c.out_field = of;
          c.out_index = oi;
          k = b.tape.ninstr > 0 ? (int) (urand () * b.tape.ninstr) : 0;
          switch (r)
            {
            case 0: code[k].op = (int32_t) (urand () * 40) - 5; break;
            case 1: code[k].dst = (int32_t) (urand () * (b.tape.nslot + 4)) - 2; break;
            case 2: code[k].a = (int32_t) (urand () * (b.tape.nslot + 4)) - 2; break;
            case 3: code[k].b = (int32_t) (urand () * (b.tape.nslot + 4)) - 2; break;
            case 4: code[k].imm = (urand () - 0.3) * 100; break;
            case 5: c.tape.nslot = (int) (urand () * (b.tape.nslot + 2)); break;
            case 6: c.tape.nprologue = (int) (urand () * (b.tape.ninstr + 2)); break;
            default:
              if (b.tape.nout > 0)
                {
                  int o = (int) (urand () * b.tape.nout);
                  of[o] = (int32_t) (urand () * (b.nfield + 2)) - 1;
                  oi[o] = (int32_t) (urand () * 40) - 3;
                }
            }
          if (vm_block_validate (&c) == VM_OK)
            {
              /* evaluate at 3 points and at 1 point: ASan (the _san build) reports any overrun */
              double x[3 * 32], **f = calloc ((size_t) c.nfield, sizeof *f), *work;
              const double *in[32];
              int inc[32], v, fi;
              for (v = 0; v < m.nvar && v < 32; v++)
                {
                  x[3 * v] = 0.3 + v;
                  x[3 * v + 1] = -0.2 * v;
                  x[3 * v + 2] = 0.7;
                  in[v] = x + 3 * v;
                  inc[v] = 1;
                }
              for (fi = 0; fi < c.nfield; fi++)
                f[fi] = malloc ((size_t) (3 * c.field[fi].dim[0] * c.field[fi].dim[1] + 1) * sizeof (double));
              work = malloc (vm_tape_work_size (&c.tape) * sizeof *work);
              vm_block_eval (&c, 3, in, inc, f, work);
              vm_block_eval (&c, 1, in, inc, f, work);
              for (fi = 0; fi < c.nfield; fi++)
                free (f[fi]);
              free (f);
              free (work);
              accepted++;
            }
          else
            refused++;
          free (code);
          free (of);
          free (oi);
        }
      vm_block_free (&b);
    }
  CHECK (refused > 0 && accepted > 0, "corruptions: %d refused, %d accepted", refused, accepted);
  vm_mech_free (&m);
}

/* ---- node limit: every constructor of a derivative may fail, the failure propagates ------------ */
static void
test_node_limit (void)
{
  static const char *texts[] = { "sin(x*y) + exp(x)/(1 + y^2) - sqrt(x^2 + z^2)*atan2(y, x)",
                                 "cosh(x - y)^3 * log(1 + x^2) / tanh(z + p*x) + abs(x*y - t)",
                                 "asin(x/4) * acos(y/4) - min(x, y)*max(z, x) + x^(p+1)" };
  const double x[NV] = { 0.3, -0.7, 1.1, 0.2, 0.1, -0.4, 1.3, 0.5 };
  int k, fails = 0, oks = 0;
  for (k = 0; k < 3; k++)
    {
      vm_graph *g0 = vm_graph_new (NV);
      vm_symtab *s0 = std_symtab ();
      int32_t e0 = parse_ok (g0, s0, texts[k]), d0 = vm_diff (g0, vm_diff (g0, e0, 0), 1);
      double ref = vm_graph_eval1 (g0, d0, x);
      size_t base, extra;
      CHECK (d0 >= 0, "node limit %d: reference second derivative", k);
      for (extra = 0; ; extra++)
        {
          vm_graph *g = vm_graph_new (NV);
          vm_symtab *s = std_symtab ();
          int32_t e = parse_ok (g, s, texts[k]), d;
          base = vm_graph_size (g);
          vm_graph_set_max_nodes (g, base + extra);
          d = vm_diff (g, vm_diff (g, e, 0), 1);
          if (d < 0)
            {
              fails++;
              CHECK (vm_graph_status (g) == VM_ENOMEM && vm_graph_size (g) <= base + extra,
                     "node limit %d (+%lu): status %d, %lu nodes", k, (unsigned long) extra,
                     vm_graph_status (g), (unsigned long) vm_graph_size (g));
            }
          else
            {
              oks++;
              CHECK (vm_graph_status (g) == VM_OK && vm_graph_eval1 (g, d, x) == ref,
                     "node limit %d (+%lu): the derivative %.17g against %.17g", k,
                     (unsigned long) extra, vm_graph_eval1 (g, d, x), ref);
            }
          vm_symtab_free (s);
          vm_graph_free (g);
          if (d >= 0)
            break;
        }
      vm_symtab_free (s0);
      vm_graph_free (g0);
    }
  /* every limit from the parsed size up to the size the derivatives need was tried */
  CHECK (fails >= 20 && oks == 3, "node limit: %d failed derivatives, %d complete", fails, oks);
}

int
main (void)
{
  test_values ();
  test_function_derivatives ();
  test_random_expressions ();
  test_simplify ();
  test_tapes ();
  test_errors ();
  test_disk ();
  test_tumbler_contact ();
  test_model_errors ();
  test_lorenz ();
  test_corrupted_blocks ();
  test_node_limit ();
  return vmtest_finish ("test_expr");
}
