/* expr_parse.c -- the model language's text front end (see expr.h, doc/language.md): the symbol
 * table that maps names to variables (vm_symtab_*), the reserved and valid names, the lexer
 * (next_token) and the recursive-descent parser (parse_*, vm_parse) that builds an expression in a
 * graph through the simplifying constructors.  Errors quote the expression with a caret at the
 * column.  Nesting is capped at VM_EXPR_MAX_DEPTH, so the recursion cannot exhaust the C stack. */
#include "model/expr.h"
#include "model/expr_impl.h"
#include "base/vm_status.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VM_PI 3.14159265358979323846

/* ---- symbol table ----------------------------------------------------------------------------- */

#define VM_NAME_MAX 63

typedef struct {
  char name[VM_NAME_MAX + 1];
  char kind[24];
  int var, dotvar;
} vm_sym;

struct vm_symtab {
  vm_sym *e;
  int n, cap;
  const char *dot_reason;
  char forbid_kind[2][24];
  const char *forbid_reason[2];
};

static const struct { const char *name; int op; } funcs[] = {
  { "sin", VM_OP_SIN }, { "cos", VM_OP_COS }, { "tan", VM_OP_TAN }, { "exp", VM_OP_EXP },
  { "log", VM_OP_LOG }, { "sqrt", VM_OP_SQRT }, { "abs", VM_OP_ABS }, { "sinh", VM_OP_SINH },
  { "cosh", VM_OP_COSH }, { "tanh", VM_OP_TANH }, { "asin", VM_OP_ASIN }, { "acos", VM_OP_ACOS },
  { "atan", VM_OP_ATAN }, { "atan2", VM_OP_ATAN2 }, { "sign", VM_OP_SIGN }, { "min", VM_OP_MIN },
  { "max", VM_OP_MAX }
};
#define NFUNCS ((int) (sizeof funcs / sizeof funcs[0]))
#define FUNC_LIST "sin cos tan exp log sqrt abs sinh cosh tanh asin acos atan atan2 sign min max"

static int
func_lookup (const char *name)
{
  int k;
  for (k = 0; k < NFUNCS; k++)
    if (strcmp (funcs[k].name, name) == 0)
      return funcs[k].op;
  return -1;
}

int
vm_name_reserved (const char *name)
{
  return func_lookup (name) >= 0 || strcmp (name, "dot") == 0 || strcmp (name, "pi") == 0
         || strcmp (name, "t") == 0;
}

int
vm_name_valid (const char *name)
{
  size_t k;
  if (! name || ! isalpha ((unsigned char) name[0]))
    return 0;
  for (k = 1; name[k]; k++)
    if (! isalnum ((unsigned char) name[k]) && name[k] != '_')
      return 0;
  return k <= VM_NAME_MAX;
}

vm_symtab *
vm_symtab_new (void)
{
  return calloc (1, sizeof (vm_symtab));
}

void
vm_symtab_free (vm_symtab *s)
{
  if (! s)
    return;
  free (s->e);
  free (s);
}

static const vm_sym *
sym_find (const vm_symtab *s, const char *name)
{
  int k;
  for (k = 0; k < s->n; k++)
    if (strcmp (s->e[k].name, name) == 0)
      return &s->e[k];
  return NULL;
}

int
vm_symtab_add (vm_symtab *s, const char *name, const char *kind, int var, int dotvar)
{
  vm_sym *e;
  if (! s || ! name || strlen (name) > VM_NAME_MAX || ! kind || var < 0)
    return VM_EARG;
  if (sym_find (s, name))
    return VM_EARG;
  if (s->n == s->cap)
    {
      int ncap = s->cap ? 2 * s->cap : 16;
      vm_sym *ne = realloc (s->e, (size_t) ncap * sizeof *ne);
      if (! ne)
        return VM_ENOMEM;
      s->e = ne;
      s->cap = ncap;
    }
  e = &s->e[s->n++];
  strcpy (e->name, name);
  strncpy (e->kind, kind, sizeof e->kind - 1);
  e->kind[sizeof e->kind - 1] = '\0';
  e->var = var;
  e->dotvar = dotvar;
  return VM_OK;
}

void
vm_symtab_forbid_dot (vm_symtab *s, const char *reason)
{
  s->dot_reason = reason;
}

void
vm_symtab_forbid_kind (vm_symtab *s, const char *kind, const char *reason)
{
  int k, empty = -1;
  if (! s || ! kind)
    return;
  for (k = 0; k < 2; k++)
    {
      if (s->forbid_reason[k] && strcmp (s->forbid_kind[k], kind) == 0)
        {
          s->forbid_reason[k] = reason;   /* update, or clear with NULL */
          return;
        }
      if (! s->forbid_reason[k] && empty < 0)
        empty = k;
    }
  if (! reason || empty < 0)
    return;
  strncpy (s->forbid_kind[empty], kind, sizeof s->forbid_kind[empty] - 1);
  s->forbid_kind[empty][sizeof s->forbid_kind[empty] - 1] = '\0';
  s->forbid_reason[empty] = reason;
}

static const char *
kind_forbidden (const vm_symtab *s, const char *kind)
{
  int k;
  for (k = 0; k < 2; k++)
    if (s->forbid_reason[k] && strcmp (s->forbid_kind[k], kind) == 0)
      return s->forbid_reason[k];
  return NULL;
}

/* ---- tokens ---------------------------------------------------------------------------------- */

enum { T_END, T_NUM, T_NAME, T_OP, T_LP, T_RP, T_COMMA, T_BAD };

typedef struct {
  vm_graph *g;
  const vm_symtab *s;
  const char *text, *context;
  size_t pos;          /* start of the current token */
  size_t next;         /* position after it */
  int tok;
  char op;             /* + - * / ^ for T_OP */
  double num;
  char name[VM_NAME_MAX + 1];
  int depth;
  vm_err *err;
  int failed;
} parser;

/* Format the error: "<context>: column C: <message>\n  <text window>\n  <caret>". */
static void
perr (parser *p, size_t col0, const char *fmt, ...)
{
  va_list ap;
  char head[512], win[200], caret[200];
  size_t len = strlen (p->text), w0 = 0, w1 = len, k, m = 0;
  if (p->failed)
    return;
  p->failed = 1;
  va_start (ap, fmt);
  vsnprintf (head, sizeof head, fmt, ap);
  va_end (ap);
  if (col0 > len)
    col0 = len;
  if (len > 120)
    {
      w0 = col0 > 60 ? col0 - 60 : 0;
      w1 = w0 + 120 < len ? w0 + 120 : len;
    }
  for (k = w0; k < w1 && m < sizeof win - 1; k++, m++)
    {
      unsigned char ch = (unsigned char) p->text[k];
      win[m] = (ch >= 32 && ch < 127) ? (char) ch : ' ';
    }
  win[m] = '\0';
  m = 0;
  for (k = w0; k < col0 && m < sizeof caret - 2; k++)
    caret[m++] = ' ';
  caret[m++] = '^';
  caret[m] = '\0';
  p->err->status = VM_EARG;
  p->err->column = (int) col0 + 1;
  snprintf (p->err->msg, sizeof p->err->msg, "%s: column %d: %s\n    %s%s%s\n    %s%s",
            p->context, (int) col0 + 1, head, w0 > 0 ? "..." : "", win, w1 < len ? "..." : "",
            w0 > 0 ? "   " : "", caret);
}

static const char *
tok_desc (parser *p, char *buf, size_t n)
{
  switch (p->tok)
    {
    case T_END: return "the end of the expression";
    case T_NUM: snprintf (buf, n, "the number %.*s", (int) (p->next - p->pos > 40 ? 40 : p->next - p->pos),
                          p->text + p->pos); return buf;
    case T_NAME: snprintf (buf, n, "the name '%s'", p->name); return buf;
    case T_OP: snprintf (buf, n, "'%c'", p->op); return buf;
    case T_LP: return "'('";
    case T_RP: return "')'";
    case T_COMMA: return "','";
    default: return "an invalid character";
    }
}

/* A number starting at t[i] (a digit, or '.' and a digit): T_NUM, or T_BAD after the error. */
static void
lex_number (parser *p, size_t i)
{
  const char *t = p->text;
  size_t j = i;
  char buf[128];
  char *end;
  while (isdigit ((unsigned char) t[j]))
    j++;
  if (t[j] == '.' && ! (t[j + 1] == '*' || t[j + 1] == '/' || t[j + 1] == '^'))
    {
      j++;
      while (isdigit ((unsigned char) t[j]))
        j++;
    }
  if (t[j] == 'e' || t[j] == 'E')
    {
      size_t k = j + 1;
      if (t[k] == '+' || t[k] == '-')
        k++;
      if (! isdigit ((unsigned char) t[k]))
        {
          p->next = j;
          perr (p, k, "malformed number: the exponent has no digits; expected a number "
                "such as 1.5e-3");
          p->tok = T_BAD;
          return;
        }
      while (isdigit ((unsigned char) t[k]))
        k++;
      j = k;
    }
  if (isalpha ((unsigned char) t[j]) || t[j] == '_')
    {
      p->next = j;
      perr (p, j, "malformed number: a letter follows the digits; expected an operator "
            "between a number and a name (for example 2*x)");
      p->tok = T_BAD;
      return;
    }
  if (j - i >= sizeof buf)
    {
      p->next = j;
      perr (p, i, "number too long (%d characters); expected at most %d", (int) (j - i),
            (int) sizeof buf - 1);
      p->tok = T_BAD;
      return;
    }
  memcpy (buf, t + i, j - i);
  buf[j - i] = '\0';
  p->num = strtod (buf, &end);
  if ((size_t) (end - buf) != j - i)
    {
      p->next = j;
      perr (p, i, "the number could not be read (C locale decimal point expected)");
      p->tok = T_BAD;
      return;
    }
  if (! isfinite (p->num))
    {
      p->next = j;
      perr (p, i, "number out of the range of doubles; expected a finite number");
      p->tok = T_BAD;
      return;
    }
  p->tok = T_NUM;
  p->next = j;
}

/* A name starting at t[i] (a letter or '_'): T_NAME, or T_BAD after the error. */
static void
lex_name (parser *p, size_t i)
{
  const char *t = p->text;
  size_t j = i;
  while (isalnum ((unsigned char) t[j]) || t[j] == '_')
    j++;
  p->next = j;
  if (t[i] == '_')
    {
      perr (p, i, "a name cannot start with '_'; expected a letter");
      p->tok = T_BAD;
      return;
    }
  if (j - i > VM_NAME_MAX)
    {
      perr (p, i, "name longer than %d characters", VM_NAME_MAX);
      p->tok = T_BAD;
      return;
    }
  memcpy (p->name, t + i, j - i);
  p->name[j - i] = '\0';
  p->tok = T_NAME;
}

/* The token after p->next (blanks skipped): sets p->pos, p->tok, p->next and the value. */
static void
next_token (parser *p)
{
  const char *t = p->text;
  size_t i = p->next;
  while (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')
    i++;
  p->pos = i;
  if (t[i] == '\0')
    {
      p->tok = T_END;
      p->next = i;
      return;
    }
  if (isdigit ((unsigned char) t[i]) || (t[i] == '.' && isdigit ((unsigned char) t[i + 1])))
    {
      lex_number (p, i);
      return;
    }
  if (isalpha ((unsigned char) t[i]) || t[i] == '_')
    {
      lex_name (p, i);
      return;
    }
  p->next = i + 1;
  switch (t[i])
    {
    case '+': case '-': case '*': case '/': case '^':
      p->tok = T_OP;
      p->op = t[i];
      return;
    case '.':
      if (t[i + 1] == '*' || t[i + 1] == '/' || t[i + 1] == '^')
        {
          p->tok = T_OP;
          p->op = t[i + 1];
          p->next = i + 2;
          return;
        }
      break;
    case '(': p->tok = T_LP; return;
    case ')': p->tok = T_RP; return;
    case ',': p->tok = T_COMMA; return;
    case '\'':
    case '"':
      perr (p, i, "quote characters are not part of the language; velocities are written "
            "dot(x), not x'");
      p->tok = T_BAD;
      return;
    default:
      break;
    }
  if ((unsigned char) t[i] >= 32 && (unsigned char) t[i] < 127)
    perr (p, i, "unexpected character '%c'; expected a number, a name, an operator "
          "(+ - * / ^) or a parenthesis", t[i]);
  else
    perr (p, i, "unexpected byte 0x%02x; expected printable ASCII", (unsigned char) t[i]);
  p->tok = T_BAD;
}

static int32_t parse_expr (parser *p);

/* op applied to parsed operands (b < 0: unary); an operation on constants whose value is not
 * finite (1/0, log(0), 0^-1, sqrt(-1)) is an error at column col: a model never needs it, and
 * folded or not it would make every evaluation NaN or Inf. */
static int32_t
apply_checked (parser *p, size_t col, int op, int32_t a, int32_t b)
{
  vm_graph *g = p->g;
  if (ISC (a) && (b < 0 || ISC (b)))
    {
      double r = vm_expr_apply_op (op, CV (a), b >= 0 ? CV (b) : 0.0);
      if (! isfinite (r))
        {
          perr (p, col, "this constant expression evaluates to %s; expected a finite value (a "
                "division by zero, a logarithm of 0, a negative power of 0, a root of a negative "
                "number?)", isnan (r) ? "NaN" : r > 0 ? "Inf" : "-Inf");
          return -1;
        }
    }
  return b < 0 ? vm_unary (g, op, a) : vm_binary (g, op, a, b);
}

/* dot(name): the velocity of a coordinate.  The name dot (at column at) has been read. */
static int32_t
parse_dot (parser *p, size_t at)
{
  char buf[96];
  const vm_sym *sym;
  size_t argat;
  if (p->tok != T_LP)
    {
      perr (p, at, "'dot' is the velocity operator; expected dot(<coordinate>)");
      return -1;
    }
  next_token (p);
  argat = p->pos;
  if (p->tok != T_NAME)
    {
      perr (p, argat, "found %s; dot() takes a coordinate name, e.g. dot(x)",
            tok_desc (p, buf, sizeof buf));
      return -1;
    }
  sym = sym_find (p->s, p->name);
  if (p->s->dot_reason)
    {
      perr (p, at, "velocities are not allowed here (%s)", p->s->dot_reason);
      return -1;
    }
  if (! sym)
    {
      perr (p, argat, "unknown name '%s' in dot(); expected a coordinate", p->name);
      return -1;
    }
  if (sym->dotvar < 0)
    {
      perr (p, argat, "'%s' is a %s; dot() takes a coordinate", p->name, sym->kind);
      return -1;
    }
  next_token (p);
  if (p->tok != T_RP)
    {
      perr (p, p->pos, "found %s; expected ')' after dot(%s", tok_desc (p, buf, sizeof buf),
            sym->name);
      return -1;
    }
  next_token (p);
  return vm_var (p->g, sym->dotvar);
}

/* name(arguments): a call of the function fop.  The name (at column at) has been read. */
static int32_t
parse_call (parser *p, const char *name, int fop, size_t at)
{
  char buf[96];
  int32_t a, b = -1;
  int ar = vm_op_arity (fop);
  size_t open = p->pos;
  if (p->tok != T_LP)
    {
      perr (p, at, "'%s' is a function; expected %s(...)", name, name);
      return -1;
    }
  if (++p->depth > VM_EXPR_MAX_DEPTH)
    {
      perr (p, p->pos, "expression nested deeper than %d levels", VM_EXPR_MAX_DEPTH);
      return -1;
    }
  next_token (p);
  if (p->tok == T_RP)
    {
      perr (p, p->pos, "%s() has no argument; expected %d argument%s", name, ar,
            ar == 1 ? "" : "s");
      return -1;
    }
  a = parse_expr (p);
  if (a < 0)
    return -1;
  if (ar == 2)
    {
      if (p->tok != T_COMMA)
        {
          perr (p, p->pos, "found %s; %s takes 2 arguments, expected ','", tok_desc (p, buf, sizeof buf), name);
          return -1;
        }
      next_token (p);
      b = parse_expr (p);
      if (b < 0)
        return -1;
    }
  p->depth--;
  if (p->tok == T_COMMA)
    {
      perr (p, p->pos, "too many arguments: %s takes %d argument%s", name, ar,
            ar == 1 ? "" : "s");
      return -1;
    }
  if (p->tok != T_RP)
    {
      perr (p, p->pos, "found %s; expected ')' to close %s( at column %d",
            tok_desc (p, buf, sizeof buf), name, (int) open + 1);
      return -1;
    }
  next_token (p);
  return apply_checked (p, at, fop, a, ar == 1 ? -1 : b);
}

/* pi, or a name of the symbol table.  The name (at column at) has been read. */
static int32_t
parse_name (parser *p, const char *name, size_t at)
{
  const vm_sym *sym;
  if (strcmp (name, "pi") == 0)
    {
      if (p->tok == T_LP)
        {
          perr (p, at, "'pi' is a constant, not a function");
          return -1;
        }
      return vm_const (p->g, VM_PI);
    }
  sym = sym_find (p->s, name);
  if (! sym)
    {
      if (p->tok == T_LP)
        perr (p, at, "unknown function '%s'; expected one of " FUNC_LIST ", or dot", name);
      else if (strcmp (name, "t") == 0)
        perr (p, at, "time 't' is not allowed here");
      else
        perr (p, at, "unknown name '%s'; expected a declared name, t, pi, a function or a number", name);
      return -1;
    }
  if (kind_forbidden (p->s, sym->kind))
    {
      if (strcmp (sym->kind, "time") == 0)
        perr (p, at, "the time '%s' is not allowed here (%s)", name, kind_forbidden (p->s, sym->kind));
      else
        perr (p, at, "'%s' is a %s, not allowed here (%s)", name, sym->kind,
              kind_forbidden (p->s, sym->kind));
      return -1;
    }
  if (p->tok == T_LP)
    {
      if (sym->dotvar >= 0)
        perr (p, at, "'%s' is a %s, not a function; write dot(%s) for its velocity", name,
              sym->kind, name);
      else
        perr (p, at, "'%s' is a %s, not a function; expected an operator after it", name,
              sym->kind);
      return -1;
    }
  return vm_var (p->g, sym->var);
}

static int32_t
parse_primary (parser *p)
{
  char buf[96];
  if (p->tok == T_NUM)
    {
      int32_t r = vm_const (p->g, p->num);
      next_token (p);
      return r;
    }
  if (p->tok == T_LP)
    {
      size_t open = p->pos;
      int32_t r;
      if (++p->depth > VM_EXPR_MAX_DEPTH)
        {
          perr (p, p->pos, "expression nested deeper than %d levels", VM_EXPR_MAX_DEPTH);
          return -1;
        }
      next_token (p);
      r = parse_expr (p);
      p->depth--;
      if (r < 0)
        return -1;
      if (p->tok != T_RP)
        {
          perr (p, p->pos, "found %s; expected ')' to close the '(' at column %d",
                tok_desc (p, buf, sizeof buf), (int) open + 1);
          return -1;
        }
      next_token (p);
      return r;
    }
  if (p->tok == T_NAME)
    {
      char name[VM_NAME_MAX + 1];
      size_t at = p->pos;
      int fop;
      strcpy (name, p->name);
      next_token (p);
      if (p->tok == T_BAD)
        return -1;
      if (strcmp (name, "dot") == 0)
        return parse_dot (p, at);
      fop = func_lookup (name);
      if (fop >= 0)
        return parse_call (p, name, fop, at);
      return parse_name (p, name, at);
    }
  if (p->tok == T_BAD)
    return -1;
  perr (p, p->pos, "found %s; expected a number, a name, a function call or '('",
        tok_desc (p, buf, sizeof buf));
  return -1;
}

/* Signs in front of an operand: ('+'|'-') signed | operand.  Each sign is one level of nesting. */
static int32_t
parse_signed (parser *p, int32_t (*operand) (parser *))
{
  if (p->tok == T_OP && (p->op == '-' || p->op == '+'))
    {
      char op = p->op;
      size_t at = p->pos;
      int32_t a;
      if (++p->depth > VM_EXPR_MAX_DEPTH)
        {
          perr (p, p->pos, "expression nested deeper than %d levels", VM_EXPR_MAX_DEPTH);
          return -1;
        }
      next_token (p);
      a = parse_signed (p, operand);
      p->depth--;
      if (a < 0)
        return -1;
      return op == '-' ? apply_checked (p, at, VM_OP_NEG, a, -1) : a;
    }
  return operand (p);
}

/* One left-associative level: left (op right)*, op the character c1 (VM code o1) or c2 (o2). */
static int32_t
parse_level (parser *p, int32_t (*left) (parser *), int32_t (*right) (parser *), int c1, int o1,
             int c2, int o2)
{
  int32_t a = left (p);
  while (a >= 0 && p->tok == T_OP && (p->op == c1 || p->op == c2))
    {
      int op = p->op == c1 ? o1 : o2;
      int32_t b;
      size_t at = p->pos;
      next_token (p);
      b = right (p);
      if (b < 0)
        return -1;
      a = apply_checked (p, at, op, a, b);
    }
  return a;
}

/* powarg := ('+'|'-') powarg | primary */
static int32_t
parse_powarg (parser *p)
{
  return parse_signed (p, parse_primary);
}

/* power := primary { '^' powarg }   (left associative) */
static int32_t
parse_power (parser *p)
{
  return parse_level (p, parse_primary, parse_powarg, '^', VM_OP_POW, '^', VM_OP_POW);
}

/* unary := ('+'|'-') unary | power */
static int32_t
parse_unary (parser *p)
{
  return parse_signed (p, parse_power);
}

/* term := unary { ('*'|'/') unary } */
static int32_t
parse_term (parser *p)
{
  return parse_level (p, parse_unary, parse_unary, '*', VM_OP_MUL, '/', VM_OP_DIV);
}

/* expr := term { ('+'|'-') term } */
static int32_t
parse_expr (parser *p)
{
  return parse_level (p, parse_term, parse_term, '+', VM_OP_ADD, '-', VM_OP_SUB);
}

int32_t
vm_parse (vm_graph *g, const vm_symtab *s, const char *text, const char *context, vm_err *err)
{
  parser p;
  int32_t r;
  char buf[96];
  vm_err dummy;
  if (! err)
    err = &dummy;
  err->status = VM_OK;
  err->column = 0;
  err->msg[0] = '\0';
  if (! g || ! s || ! text)
    {
      err->status = VM_EARG;
      snprintf (err->msg, sizeof err->msg, "%s: no expression", context ? context : "expression");
      return -1;
    }
  memset (&p, 0, sizeof p);
  p.g = g;
  p.s = s;
  p.text = text;
  p.context = context ? context : "expression";
  p.err = err;
  next_token (&p);
  if (p.tok == T_END)
    {
      perr (&p, p.pos, "empty expression; expected a formula");
      return -1;
    }
  r = parse_expr (&p);
  if (r >= 0 && p.tok != T_END)
    {
      if (p.tok == T_RP)
        perr (&p, p.pos, "unmatched ')'; expected an operator or the end of the expression");
      else if (p.tok != T_BAD)
        perr (&p, p.pos, "found %s; expected an operator (+ - * / ^) or the end of the expression",
              tok_desc (&p, buf, sizeof buf));
      r = -1;
    }
  if (r < 0 && ! p.failed)
    {
      err->status = vm_graph_status (g) != VM_OK ? vm_graph_status (g) : VM_EARG;
      snprintf (err->msg, sizeof err->msg, "%s: %s", p.context,
                err->status == VM_ENOMEM ? "expression too large (out of memory or over the node limit)"
                                         : "invalid expression");
    }
  return r < 0 ? -1 : r;
}
