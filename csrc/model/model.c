/* model.c -- mechanical and first-order systems: built from their formulas (parsed and checked)
 * and compiled to blocks (see model.h); the blocks themselves and their builder are in
 * model_block.c. */
#include "model/model.h"
#include "base/vm_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the builds so far (vm_model_compiles) */
static long vm_model_ncompiles = 0;

long
vm_model_compiles (void)
{
  return vm_model_ncompiles;
}

/* A block under construction (vm_builder, model.h; model_block.c). */
typedef vm_builder builder;

/* ---- name checks ---------------------------------------------------------------------------- */

static int
check_names (const char *what, int n, const char *const *names, vm_symtab *s, const char *kind,
             int var0, int dot0, vm_err *err)
{
  int k;
  for (k = 0; k < n; k++)
    {
      const char *nm = names[k];
      int st;
      if (! nm || ! vm_name_valid (nm))
        {
          err->status = VM_EARG;
          snprintf (err->msg, sizeof err->msg,
                    "%s %d: '%.80s' is not a valid name; expected a letter followed by letters, "
                    "digits or '_' (at most 63 characters)", what, k + 1, nm ? nm : "");
          return VM_EARG;
        }
      if (vm_name_reserved (nm))
        {
          err->status = VM_EARG;
          snprintf (err->msg, sizeof err->msg,
                    "%s %d: '%s' is a reserved name (function names, dot, pi and t are reserved)",
                    what, k + 1, nm);
          return VM_EARG;
        }
      st = vm_symtab_add (s, nm, kind, var0 + k, dot0 >= 0 ? dot0 + k : -1);
      if (st != VM_OK)
        {
          err->status = st;
          if (st == VM_ENOMEM)
            snprintf (err->msg, sizeof err->msg, "out of memory");
          else
            snprintf (err->msg, sizeof err->msg, "%s %d: the name '%s' is used twice; expected "
                      "distinct names for all coordinates (states) and parameters", what, k + 1, nm);
          return st;
        }
    }
  return VM_OK;
}

static int32_t
parse_or_fail (vm_graph *g, vm_symtab *s, const char *text, const char *ctx, vm_err *err)
{
  int32_t r;
  if (! text)
    {
      err->status = VM_EARG;
      snprintf (err->msg, sizeof err->msg, "%s: missing expression", ctx);
      return -1;
    }
  r = vm_parse (g, s, text, ctx, err);
  return r;
}

/* ---- mechanical systems ------------------------------------------------------------------------ */

void
vm_mech_free (vm_mech *m)
{
  if (! m)
    return;
  vm_graph_free (m->g);
  free (m->F);
  free (m->gc);
  free (m->h);
  free (m->FN);
  free (m->FR);
  free (m->hdot);
  free (m->sigma);
  free (m->mu);
  free (m->U);
  memset (m, 0, sizeof *m);
}

#define B2(op, x, y) vm_binary (g, op, x, y)
#define U1(op, x) vm_unary (g, op, x)

/* Contact c: FN = V0/sqrt(2 pi sigma^2) exp(-h^2/(2 sigma^2)) grad h  (pushes towards h > 0),
 * FR = -mu |FN| v_par / sqrt(|v_par|^2 + epsv^2),  v_par = qdot - (qdot . grad h) grad h / |grad h|^2,
 * and the potential of FN, U = V0/2 erfc(h/(sqrt(2) sigma)) (dU/dh = -V0/sqrt(2 pi sigma^2)
 * exp(-h^2/(2 sigma^2)), so FN = -grad U; U -> 0 on the allowed side, V0 deep behind the wall):
 * the energy counts it, so that a soft contact without friction conserves the energy. */
static int
build_contact (vm_mech *m, int c, int32_t h, int32_t sigma, int32_t V0, int32_t mu, int32_t epsv)
{
  vm_graph *g = m->g;
  int n = m->n, i;
  int32_t *gh = malloc ((size_t) n * sizeof *gh), amp, gn2 = vm_const (g, 0.0), vn = vm_const (g, 0.0),
          vp2 = vm_const (g, 0.0), fnabs, slip;
  if (! gh)
    return VM_ENOMEM;
  amp = B2 (VM_OP_MUL,
            B2 (VM_OP_DIV, V0, U1 (VM_OP_SQRT, B2 (VM_OP_MUL, vm_const (g, 2 * 3.14159265358979323846),
                                                   B2 (VM_OP_POW, sigma, vm_const (g, 2.0))))),
            U1 (VM_OP_EXP, U1 (VM_OP_NEG, B2 (VM_OP_DIV, B2 (VM_OP_POW, h, vm_const (g, 2.0)),
                                               B2 (VM_OP_MUL, vm_const (g, 2.0),
                                                   B2 (VM_OP_POW, sigma, vm_const (g, 2.0)))))));
  for (i = 0; i < n; i++)
    {
      int32_t qd = vm_var (g, m->vqd + i);
      gh[i] = vm_diff (g, h, m->vq + i);
      gn2 = B2 (VM_OP_ADD, gn2, B2 (VM_OP_POW, gh[i], vm_const (g, 2.0)));
      vn = B2 (VM_OP_ADD, vn, B2 (VM_OP_MUL, qd, gh[i]));
    }
  fnabs = B2 (VM_OP_MUL, U1 (VM_OP_ABS, amp), U1 (VM_OP_SQRT, gn2));   /* |FN|, also for V0 < 0 */
  m->hdot[c] = vn;
  m->U[c] = B2 (VM_OP_MUL, B2 (VM_OP_MUL, vm_const (g, 0.5), V0),
                U1 (VM_OP_ERFC, B2 (VM_OP_DIV, h, B2 (VM_OP_MUL, vm_const (g, 1.4142135623730951),
                                                       sigma))));
  m->sigma[c] = sigma;
  m->mu[c] = mu;
  for (i = 0; i < n; i++)
    {
      int32_t vpi = B2 (VM_OP_SUB, vm_var (g, m->vqd + i),
                        B2 (VM_OP_DIV, B2 (VM_OP_MUL, vn, gh[i]), gn2));
      m->FN[(size_t) c * n + i] = B2 (VM_OP_MUL, amp, gh[i]);
      m->FR[(size_t) c * n + i] = vpi;   /* completed below, once |v_par| is known */
      vp2 = B2 (VM_OP_ADD, vp2, B2 (VM_OP_POW, vpi, vm_const (g, 2.0)));
    }
  slip = U1 (VM_OP_SQRT, B2 (VM_OP_ADD, vp2, B2 (VM_OP_POW, epsv, vm_const (g, 2.0))));
  for (i = 0; i < n; i++)
    m->FR[(size_t) c * n + i] = U1 (VM_OP_NEG, B2 (VM_OP_DIV, B2 (VM_OP_MUL, B2 (VM_OP_MUL, mu, fnabs),
                                                                  m->FR[(size_t) c * n + i]), slip));
  free (gh);
  return vm_graph_status (g);
}

/* A constant contact coefficient inside its domain: sigma > 0 (the layer's width), mu >= 0 (the
 * friction coefficient), epsv > 0 unless mu is the constant 0 (the slip regularization; 0 makes
 * the friction force 0/0 at rest); V0 any finite value.  mu: the node of mu when j is epsv.
 * Coefficients that depend on parameters are checked by the caller with the parameter values
 * (mechsys). */
static int
contact_coef_ok (vm_graph *g, int32_t node, int j, int32_t mu, int k, vm_err *err)
{
  static const char *nm[4] = { "sigma", "V0", "mu", "epsv" };
  static const char *need[4] = { "> 0 (the width of the contact layer)", "",
                                 ">= 0 (the friction coefficient)",
                                 "> 0 (the slip velocity of the friction regularization)" };
  const vm_node *nd = vm_graph_node (g, node);
  double c;
  int ok;
  if (! nd || nd->op != VM_OP_CONST)
    return 1;
  if (j == 3 && vm_graph_node (g, mu)->op == VM_OP_CONST && vm_graph_node (g, mu)->c == 0.0)
    return 1;
  c = nd->c;
  ok = j == 1 || (j == 2 ? c >= 0.0 : c > 0.0);
  if (! ok)
    {
      err->status = VM_EARG;
      err->column = 0;
      snprintf (err->msg, sizeof err->msg, "contact %d: %s = %g; expected a number %s", k + 1,
                nm[j], c, need[j]);
    }
  return ok;
}

/* 1 when the description is usable; else 0 with err filled (VM_EARG) */
static int
mech_desc_ok (const vm_mech_desc *d, vm_err *err)
{
  if (! d || d->n < 1 || d->np < 0 || d->ncons < 0 || d->ncontact < 0 || ! d->coord
      || (d->np > 0 && ! d->param) || (d->ncons > 0 && ! d->cons)
      || (d->ncontact > 0 && ! d->contact) || (d->nforce != 0 && d->nforce != d->n)
      || (d->nforce > 0 && ! d->force) || d->n > 100000 || d->np > 100000 || d->ncons > 100000
      || d->ncontact > 10000)
    {
      err->status = VM_EARG;
      if (d && d->n < 1)
        snprintf (err->msg, sizeof err->msg, "no coordinates; expected at least one coordinate name");
      else if (d && d->nforce != 0 && d->nforce != d->n)
        snprintf (err->msg, sizeof err->msg, "%d forces for %d coordinates; expected one generalized "
                  "force per coordinate", d->nforce, d->n);
      else
        snprintf (err->msg, sizeof err->msg, "invalid system description");
      return 0;
    }
  return 1;
}

void
vm_mech_layout (vm_mech *m, int n, int np, int ncons, int ncontact)
{
  m->n = n;
  m->np = np;
  m->m = ncons;
  m->nc = ncontact;
  m->vt = 0;
  m->vq = 1;
  m->vqd = 1 + n;
  m->vp = 1 + 2 * n;
  m->vlam = m->vp + np;
  m->vw = m->vlam + ncons;
  m->nvar = m->vw + n;
}

/* the variable layout, the graph, the symbol table *s and the node arrays of m; 0 when out of
 * memory (the caller frees what was allocated) */
static int
mech_alloc (vm_mech *m, const vm_mech_desc *d, vm_symtab **s)
{
  int n = d->n;
  vm_mech_layout (m, d->n, d->np, d->ncons, d->ncontact);
  m->g = vm_graph_new (m->nvar);
  *s = vm_symtab_new ();
  m->F = malloc ((size_t) n * sizeof *m->F);
  m->gc = malloc ((size_t) (m->m > 0 ? m->m : 1) * sizeof *m->gc);
  m->h = malloc ((size_t) (m->nc > 0 ? m->nc : 1) * sizeof *m->h);
  m->FN = malloc ((size_t) (m->nc > 0 ? m->nc : 1) * n * sizeof *m->FN);
  m->FR = malloc ((size_t) (m->nc > 0 ? m->nc : 1) * n * sizeof *m->FR);
  m->hdot = malloc ((size_t) (m->nc > 0 ? m->nc : 1) * sizeof *m->hdot);
  m->sigma = malloc ((size_t) (m->nc > 0 ? m->nc : 1) * sizeof *m->sigma);
  m->mu = malloc ((size_t) (m->nc > 0 ? m->nc : 1) * sizeof *m->mu);
  m->U = malloc ((size_t) (m->nc > 0 ? m->nc : 1) * sizeof *m->U);
  return m->g && *s && m->F && m->gc && m->h && m->FN && m->FR && m->hdot && m->sigma && m->mu
         && m->U;
}

/* parse the lagrangian, the forces (the constant 0 without them) and the constraints, in this
 * order (VM_OK or VM_EARG) */
static int
mech_parse_terms (vm_mech *m, const vm_mech_desc *d, vm_symtab *s, vm_err *err)
{
  vm_graph *g = m->g;
  char ctx[96];
  int i, k;
  m->L = parse_or_fail (g, s, d->lagrangian, "lagrangian", err);
  if (m->L < 0)
    return VM_EARG;
  for (i = 0; i < m->n; i++)
    {
      if (d->nforce > 0)
        {
          snprintf (ctx, sizeof ctx, "force %d (on %s)", i + 1, d->coord[i]);
          m->F[i] = parse_or_fail (g, s, d->force[i], ctx, err);
          if (m->F[i] < 0)
            return VM_EARG;
        }
      else
        m->F[i] = vm_const (g, 0.0);
    }
  for (k = 0; k < m->m; k++)
    {
      snprintf (ctx, sizeof ctx, "constraint %d", k + 1);
      m->gc[k] = parse_or_fail (g, s, d->cons[k], ctx, err);
      if (m->gc[k] < 0)
        return VM_EARG;
    }
  return VM_OK;
}

/* parse contact k's coefficients (sigma, V0, mu, epsv: parameters only) into coef, each checked
 * by contact_coef_ok (VM_OK or VM_EARG) */
static int
contact_coefs (vm_graph *g, vm_symtab *s, const vm_contact_desc *cd, int k, int32_t *coef,
               vm_err *err)
{
  static const char *nm[4] = { "sigma", "V0", "mu", "epsv" };
  const char *txt[4];
  char ctx[96];
  int j;
  txt[0] = cd->sigma;
  txt[1] = cd->V0;
  txt[2] = cd->mu;
  txt[3] = cd->epsv;
  vm_symtab_forbid_dot (s, "contact coefficients depend on the parameters only");
  vm_symtab_forbid_kind (s, "coordinate", "contact coefficients depend on the parameters only");
  vm_symtab_forbid_kind (s, "time", "contact coefficients depend on the parameters only");
  for (j = 0; j < 4; j++)
    {
      snprintf (ctx, sizeof ctx, "contact %d: %s", k + 1, nm[j]);
      coef[j] = parse_or_fail (g, s, txt[j], ctx, err);
      if (coef[j] < 0)
        return VM_EARG;
      if (! contact_coef_ok (g, coef[j], j, j == 3 ? coef[2] : -1, k, err))
        return VM_EARG;
    }
  return VM_OK;
}

/* contact k: parse its gap h and coefficients, build FN, FR and add them to F (VM_OK, VM_EARG or
 * build_contact's status) */
static int
mech_contact (vm_mech *m, const vm_mech_desc *d, vm_symtab *s, int k, vm_err *err)
{
  vm_graph *g = m->g;
  const vm_contact_desc *cd = &d->contact[k];
  int32_t coef[4];
  char ctx[96];
  int i, n = m->n, st;
  snprintf (ctx, sizeof ctx, "contact %d: h", k + 1);
  vm_symtab_forbid_dot (s, "a contact gap h depends on the coordinates and parameters only");
  vm_symtab_forbid_kind (s, "time", "a contact gap h depends on the coordinates and parameters only");
  m->h[k] = parse_or_fail (g, s, cd->h, ctx, err);
  if (m->h[k] < 0)
    return VM_EARG;
  if (contact_coefs (g, s, cd, k, coef, err) != VM_OK)
    return VM_EARG;
  vm_symtab_forbid_dot (s, NULL);
  vm_symtab_forbid_kind (s, "coordinate", NULL);
  vm_symtab_forbid_kind (s, "time", NULL);
  if ((st = build_contact (m, k, m->h[k], coef[0], coef[1], coef[2], coef[3])) != VM_OK)
    {
      snprintf (err->msg, sizeof err->msg, "contact %d: out of memory", k + 1);
      return st;
    }
  for (i = 0; i < n; i++)
    m->F[i] = B2 (VM_OP_ADD, m->F[i], B2 (VM_OP_ADD, m->FN[(size_t) k * n + i],
                                               m->FR[(size_t) k * n + i]));
  return VM_OK;
}

int
vm_mech_build (const vm_mech_desc *d, vm_mech *m, vm_err *err)
{
  vm_symtab *s = NULL;
  int st = VM_ENOMEM, k;
  vm_err dummy;
  if (! err)
    err = &dummy;
  memset (m, 0, sizeof *m);
  vm_model_ncompiles++;
  err->status = VM_OK;
  err->column = 0;
  err->msg[0] = '\0';
  if (! mech_desc_ok (d, err))
    return VM_EARG;
  if (! mech_alloc (m, d, &s))
    {
      snprintf (err->msg, sizeof err->msg, "out of memory");
      goto fail;
    }
  st = check_names ("coordinate", m->n, d->coord, s, "coordinate", m->vq, m->vqd, err);
  if (st != VM_OK
      || (st = check_names ("parameter", d->np, d->param, s, "parameter", m->vp, -1, err)) != VM_OK)
    goto fail;
  if ((st = vm_symtab_add (s, "t", "time", m->vt, -1)) != VM_OK)
    goto fail;
  if ((st = mech_parse_terms (m, d, s, err)) != VM_OK)
    goto fail;
  for (k = 0; k < m->nc; k++)
    if ((st = mech_contact (m, d, s, k, err)) != VM_OK)
      goto fail;
  if (vm_graph_status (m->g) != VM_OK)
    {
      st = vm_graph_status (m->g);
      snprintf (err->msg, sizeof err->msg, "model too large (out of memory or over the node limit)");
      goto fail;
    }
  vm_symtab_free (s);
  return VM_OK;
fail:
  if (err->status == VM_OK)
    err->status = st;
  st = err->status;
  vm_symtab_free (s);
  vm_mech_free (m);
  return st;
}

const char *
vm_mech_block_name (int kind)
{
  static const char *names[VM_MECH_NBLOCKS] = { "lagrangian", "forces", "constraints", "eom",
                                                "contacts" };
  return kind >= 0 && kind < VM_MECH_NBLOCKS ? names[kind] : "?";
}

/* the block "lagrangian": L, its first derivatives, Hessians and L_qdott */
static void
mech_lagrangian (builder *b, vm_mech *m)
{
  vm_graph *g = m->g;
  int n = m->n, i, f;
  f = vm_builder_field (b, "L", 1, 1);
  vm_builder_out (b, f, 0, 0, m->L);
  f = vm_builder_field (b, "L_q", n, 1);
  for (i = 0; i < n; i++)
    vm_builder_out (b, f, i, 0, vm_diff (g, m->L, m->vq + i));
  f = vm_builder_field (b, "L_qdot", n, 1);
  for (i = 0; i < n; i++)
    vm_builder_out (b, f, i, 0, vm_diff (g, m->L, m->vqd + i));
  f = vm_builder_field (b, "L_t", 1, 1);
  vm_builder_out (b, f, 0, 0, vm_diff (g, m->L, m->vt));
  vm_builder_hess (b, vm_builder_field (b, "L_qq", n, n), m->L, m->vq, m->vq, n, 1);
  vm_builder_hess (b, vm_builder_field (b, "L_qqdot", n, n), m->L, m->vq, m->vqd, n, 0);
  vm_builder_hess (b, vm_builder_field (b, "L_qdotqdot", n, n), m->L, m->vqd, m->vqd, n, 1);
  f = vm_builder_field (b, "L_qdott", n, 1);
  for (i = 0; i < n; i++)
    vm_builder_out (b, f, i, 0, vm_diff (g, vm_diff (g, m->L, m->vqd + i), m->vt));
}

/* the block "forces": F, its Jacobians and the Hessians of w . F */
static void
mech_forces (builder *b, vm_mech *m)
{
  vm_graph *g = m->g;
  int n = m->n, i, j, f, fq, fqd;
  int32_t wf = vm_const (g, 0.0);
  f = vm_builder_field (b, "F", n, 1);
  fq = vm_builder_field (b, "F_q", n, n);
  fqd = vm_builder_field (b, "F_qdot", n, n);
  for (i = 0; i < n; i++)
    {
      vm_builder_out (b, f, i, 0, m->F[i]);
      for (j = 0; j < n; j++)
        {
          vm_builder_out (b, fq, i, j, vm_diff (g, m->F[i], m->vq + j));
          vm_builder_out (b, fqd, i, j, vm_diff (g, m->F[i], m->vqd + j));
        }
      wf = B2 (VM_OP_ADD, wf, B2 (VM_OP_MUL, vm_var (g, m->vw + i), m->F[i]));
    }
  vm_builder_hess (b, vm_builder_field (b, "wF_qq", n, n), wf, m->vq, m->vq, n, 1);
  vm_builder_hess (b, vm_builder_field (b, "wF_qqdot", n, n), wf, m->vq, m->vqd, n, 0);
  vm_builder_hess (b, vm_builder_field (b, "wF_qdotqdot", n, n), wf, m->vqd, m->vqd, n, 1);
}

/* the block "constraints": g, its derivatives and the Hessians of lambda . g */
static void
mech_constraints (builder *b, vm_mech *m)
{
  vm_graph *g = m->g;
  int n = m->n, i, j;
  int32_t lg = vm_const (g, 0.0);
  int fg = vm_builder_field (b, "g", m->m, 1), fq = vm_builder_field (b, "g_q", m->m, n),
      fqd = vm_builder_field (b, "g_qdot", m->m, n), ft = vm_builder_field (b, "g_t", m->m, 1);
  for (i = 0; i < m->m; i++)
    {
      vm_builder_out (b, fg, i, 0, m->gc[i]);
      for (j = 0; j < n; j++)
        {
          vm_builder_out (b, fq, i, j, vm_diff (g, m->gc[i], m->vq + j));
          vm_builder_out (b, fqd, i, j, vm_diff (g, m->gc[i], m->vqd + j));
        }
      vm_builder_out (b, ft, i, 0, vm_diff (g, m->gc[i], m->vt));
      lg = B2 (VM_OP_ADD, lg, B2 (VM_OP_MUL, vm_var (g, m->vlam + i), m->gc[i]));
    }
  vm_builder_hess (b, vm_builder_field (b, "lg_qq", n, n), lg, m->vq, m->vq, n, 1);
  vm_builder_hess (b, vm_builder_field (b, "lg_qqdot", n, n), lg, m->vq, m->vqd, n, 0);
  vm_builder_hess (b, vm_builder_field (b, "lg_qdotqdot", n, n), lg, m->vqd, m->vqd, n, 1);
}

/* the block "eom": mass matrix M, f = L_q - d/dt L_qdot (explicit part) + F, the energy
 * qdot . dL/dqdot - L + sum_c U_c and the contacts' part of it, contact_energy = sum_c U_c (0
 * without contacts; a solver that treats the contacts as hard walls subtracts it) */
static void
mech_eom (builder *b, vm_mech *m)
{
  vm_graph *g = m->g;
  int n = m->n, i, j, c;
  int fm = vm_builder_field (b, "M", n, n), ff = vm_builder_field (b, "f", n, 1),
      fe = vm_builder_field (b, "energy", 1, 1), fu = vm_builder_field (b, "contact_energy", 1, 1);
  int32_t e = U1 (VM_OP_NEG, m->L), u = vm_const (g, 0.0);
  vm_builder_hess (b, fm, m->L, m->vqd, m->vqd, n, 1);
  for (i = 0; i < n; i++)
    {
      int32_t pi = vm_diff (g, m->L, m->vqd + i);
      int32_t fi = B2 (VM_OP_SUB, vm_diff (g, m->L, m->vq + i), vm_diff (g, pi, m->vt));
      for (j = 0; j < n; j++)
        fi = B2 (VM_OP_SUB, fi, B2 (VM_OP_MUL, vm_diff (g, pi, m->vq + j), vm_var (g, m->vqd + j)));
      vm_builder_out (b, ff, i, 0, B2 (VM_OP_ADD, fi, m->F[i]));
      e = B2 (VM_OP_ADD, e, B2 (VM_OP_MUL, vm_var (g, m->vqd + i), pi));
    }
  for (c = 0; c < m->nc; c++)
    u = B2 (VM_OP_ADD, u, m->U[c]);
  vm_builder_out (b, fe, 0, 0, B2 (VM_OP_ADD, e, u));
  vm_builder_out (b, fu, 0, 0, u);
}

/* the block "contacts": gaps h, h_q, the contact forces FN, FR, the widths sigma and the friction
 * coefficients mu */
static void
mech_contacts (builder *b, vm_mech *m)
{
  vm_graph *g = m->g;
  int n = m->n, i, j;
  int fh = vm_builder_field (b, "h", m->nc, 1), fq = vm_builder_field (b, "h_q", m->nc, n),
      fn = vm_builder_field (b, "FN", m->nc, n), fr = vm_builder_field (b, "FR", m->nc, n),
      fs = vm_builder_field (b, "sigma", m->nc, 1), fm = vm_builder_field (b, "mu", m->nc, 1);
  for (i = 0; i < m->nc; i++)
    {
      vm_builder_out (b, fh, i, 0, m->h[i]);
      vm_builder_out (b, fs, i, 0, m->sigma[i]);
      vm_builder_out (b, fm, i, 0, m->mu[i]);
      for (j = 0; j < n; j++)
        {
          vm_builder_out (b, fq, i, j, vm_diff (g, m->h[i], m->vq + j));
          vm_builder_out (b, fn, i, j, m->FN[(size_t) i * n + j]);
          vm_builder_out (b, fr, i, j, m->FR[(size_t) i * n + j]);
        }
    }
}

int
vm_mech_block (vm_mech *m, int kind, vm_block *blk)
{
  builder b;
  memset (&b, 0, sizeof b);
  b.g = m->g;
  memset (blk, 0, sizeof *blk);
  switch (kind)
    {
    case VM_MECH_LAGRANGIAN:
      mech_lagrangian (&b, m);
      break;
    case VM_MECH_FORCES:
      mech_forces (&b, m);
      break;
    case VM_MECH_CONSTRAINTS:
      mech_constraints (&b, m);
      break;
    case VM_MECH_EOM:
      mech_eom (&b, m);
      break;
    case VM_MECH_CONTACTS:
      mech_contacts (&b, m);
      break;
    default:
      b.status = VM_EARG;
    }
  return vm_builder_finish (&b, blk);
}

/* ---- first-order systems ---------------------------------------------------------------------- */

void
vm_ode_free (vm_ode *o)
{
  if (! o)
    return;
  vm_graph_free (o->g);
  free (o->F);
  free (o->G);
  memset (o, 0, sizeof *o);
}

/* The description's counts and arrays are consistent: VM_OK, or VM_EARG with err's message. */
static int
ode_desc_check (const vm_ode_desc *d, vm_err *err)
{
  if (d && d->ny >= 1 && d->np >= 0 && d->nd >= 0 && d->na >= 0 && d->nd <= d->ny
      && (d->nonsquare || d->nd + d->na == d->ny) && d->state && (d->np == 0 || d->param)
      && (d->nd == 0 || d->rhs) && (d->na == 0 || d->alg) && d->ny <= 100000 && d->np <= 100000)
    return VM_OK;
  err->status = VM_EARG;
  if (d && d->ny < 1)
    snprintf (err->msg, sizeof err->msg, "no states; expected at least one state name");
  else if (d && d->nd > d->ny)
    snprintf (err->msg, sizeof err->msg, "%d states but %d right-hand sides; expected at most "
              "one right-hand side per state", d->ny, d->nd);
  else if (d && d->nd + d->na != d->ny)
    snprintf (err->msg, sizeof err->msg, "%d states but %d right-hand sides and %d algebraic "
              "equations; expected one equation per state (the first %d states are "
              "differential)", d->ny, d->nd, d->na, d->nd);
  else
    snprintf (err->msg, sizeof err->msg, "invalid system description");
  return VM_EARG;
}

/* The right-hand sides into o->F and the algebraic equations into o->G, parsed in g with the
 * names of s; VM_EARG with err's message on the first that does not parse. */
static int
ode_parse_equations (const vm_ode_desc *d, vm_ode *o, vm_graph *g, vm_symtab *s, vm_err *err)
{
  char ctx[96];
  int k;
  for (k = 0; k < o->nd; k++)
    {
      snprintf (ctx, sizeof ctx, "right-hand side %d (d%s/dt)", k + 1, d->state[k]);
      if ((o->F[k] = parse_or_fail (g, s, d->rhs[k], ctx, err)) < 0)
        return VM_EARG;
    }
  for (k = 0; k < o->na; k++)
    {
      snprintf (ctx, sizeof ctx, "algebraic equation %d", k + 1);
      if ((o->G[k] = parse_or_fail (g, s, d->alg[k], ctx, err)) < 0)
        return VM_EARG;
    }
  return VM_OK;
}

void
vm_ode_layout (vm_ode *o, int ny, int np, int nd, int na)
{
  o->ny = ny;
  o->np = np;
  o->nd = nd;
  o->na = na;
  o->vt = 0;
  o->vy = 1;
  o->vp = 1 + ny;
  o->vwf = o->vp + np;
  o->vwg = o->vwf + nd;
  o->nvar = o->vwg + na;
}

int
vm_ode_build (const vm_ode_desc *d, vm_ode *o, vm_err *err)
{
  vm_symtab *s = NULL;
  vm_graph *g;
  int st = VM_ENOMEM;
  vm_err dummy;
  if (! err)
    err = &dummy;
  memset (o, 0, sizeof *o);
  err->status = VM_OK;
  err->column = 0;
  err->msg[0] = '\0';
  vm_model_ncompiles++;
  if (ode_desc_check (d, err) != VM_OK)
    return VM_EARG;
  vm_ode_layout (o, d->ny, d->np, d->nd, d->na);
  o->g = g = vm_graph_new (o->nvar);
  s = vm_symtab_new ();
  o->F = malloc ((size_t) (o->nd > 0 ? o->nd : 1) * sizeof *o->F);
  o->G = malloc ((size_t) (o->na > 0 ? o->na : 1) * sizeof *o->G);
  if (! g || ! s || ! o->F || ! o->G)
    {
      snprintf (err->msg, sizeof err->msg, "out of memory");
      goto fail;
    }
  if ((st = check_names ("state", o->ny, d->state, s, "state", o->vy, -1, err)) != VM_OK
      || (st = check_names ("parameter", d->np, d->param, s, "parameter", o->vp, -1, err)) != VM_OK)
    goto fail;
  if ((st = vm_symtab_add (s, "t", "time", o->vt, -1)) != VM_OK)
    goto fail;
  vm_symtab_forbid_dot (s, "a first-order system's equations depend on t, the states and the "
                        "parameters; the time derivative of state i is right-hand side i");
  if ((st = ode_parse_equations (d, o, g, s, err)) != VM_OK)
    goto fail;
  vm_symtab_free (s);
  return VM_OK;
fail:
  if (err->status == VM_OK)
    err->status = st;
  st = err->status;
  vm_symtab_free (s);
  vm_ode_free (o);
  return st;
}

int
vm_ode_block (vm_ode *o, int kind, vm_block *blk)
{
  builder b;
  vm_graph *g = o->g;
  int i, j;
  memset (&b, 0, sizeof b);
  b.g = g;
  memset (blk, 0, sizeof *blk);
  if (kind != VM_ODE_SYSTEM)
    b.status = VM_EARG;
  else
    {
      int ff = vm_builder_field (&b, "F", o->nd, 1),
          fy = vm_builder_field (&b, "F_y", o->nd, o->ny),
          ft = vm_builder_field (&b, "F_t", o->nd, 1);
      int fg = vm_builder_field (&b, "G", o->na, 1),
          gy = vm_builder_field (&b, "G_y", o->na, o->ny),
          gt = vm_builder_field (&b, "G_t", o->na, 1);
      int32_t wf = vm_const (g, 0.0), wg = vm_const (g, 0.0);
      for (i = 0; i < o->nd; i++)
        {
          vm_builder_out (&b, ff, i, 0, o->F[i]);
          for (j = 0; j < o->ny; j++)
            vm_builder_out (&b, fy, i, j, vm_diff (g, o->F[i], o->vy + j));
          vm_builder_out (&b, ft, i, 0, vm_diff (g, o->F[i], o->vt));
          wf = B2 (VM_OP_ADD, wf, B2 (VM_OP_MUL, vm_var (g, o->vwf + i), o->F[i]));
        }
      for (i = 0; i < o->na; i++)
        {
          vm_builder_out (&b, fg, i, 0, o->G[i]);
          for (j = 0; j < o->ny; j++)
            vm_builder_out (&b, gy, i, j, vm_diff (g, o->G[i], o->vy + j));
          vm_builder_out (&b, gt, i, 0, vm_diff (g, o->G[i], o->vt));
          wg = B2 (VM_OP_ADD, wg, B2 (VM_OP_MUL, vm_var (g, o->vwg + i), o->G[i]));
        }
      vm_builder_hess (&b, vm_builder_field (&b, "wF_yy", o->ny, o->ny), wf, o->vy, o->vy,
                       o->ny, 1);
      vm_builder_hess (&b, vm_builder_field (&b, "wG_yy", o->ny, o->ny), wg, o->vy, o->vy,
                       o->ny, 1);
    }
  return vm_builder_finish (&b, blk);
}
