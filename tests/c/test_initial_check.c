/* test_initial_check.c -- vm_initial_check (csrc/model/initial_check.c): every verdict on small models,
 * the message words, and a consistent state passing. */
#include "vmtest.h"
#include "vmtest_mech.h"
#include "model/initial_check.h"
#include "base/vm_status.h"

#include <math.h>
#include <string.h>

static const char *xyz[] = { "x", "y", "z" };

/* Build a 3-coordinate particle with the given constraints and check (t0 = 0, tol = 1e-8). */
static void
run (const char *name, int ncons, const char *const *cons, const double *q0, const double *v0,
     int kind, int index, const char *words, vm_initial_report *r)
{
  vm_mech m;
  int st;
  if (build_mech (&m, 3, xyz, 0, NULL, "(dot(x)^2 + dot(y)^2 + dot(z)^2)/2 - 9.81*z", NULL, ncons,
                  cons) != VM_OK)
    return;
  st = vm_initial_check (&m, NULL, 0.0, q0, v0, 1e-8, cons, r);
  CHECK (st == VM_OK, "%s: status %s", name, vm_status_string (st));
  CHECK (r->kind == kind, "%s: kind %d, expected %d (%s)", name, r->kind, kind, r->msg);
  CHECK (r->index == index, "%s: index %d, expected %d (%s)", name, r->index, index, r->msg);
  CHECK (words ? strstr (r->msg, words) != NULL : r->msg[0] == '\0', "%s: message '%s' lacks '%s'",
         name, r->msg, words ? words : "(empty)");
  printf ("%-26s kind %d index %2d value %-10.3g rank %d: %s\n", name, r->kind, r->index, r->value,
          r->rank, r->msg);
  vm_mech_free (&m);
}

int
main (void)
{
  static const double q0[3] = { 0.6, 0.0, -0.8 }, v0[3] = { 0.0, 1.5, 0.0 };
  static const double vbad[3] = { 0.0, 1.5, 0.5 }, qbad[3] = { 0.6, 0.0, -0.9 }, zero[3] = { 0 };
  vm_initial_report r;
  {
    const char *c[] = { "x^2 + y^2 + z^2 - 1" };
    run ("sphere, consistent", 1, c, q0, v0, VM_INITIAL_OK, -1, NULL, &r);
    run ("sphere, velocity", 1, c, q0, vbad, VM_INITIAL_VELOCITY, 0,
         "the initial state violates constraint 1 (x^2 + y^2 + z^2 - 1) at velocity level "
         "(dg/dq qdot + dg/dt) by 0.8 (ConstraintTol = 1e-08)", &r);
    CHECK (fabs (r.value - 0.8) <= 1e-15, "phi = 2 z zdot = -0.8: %.17g", r.value);
    run ("sphere, position", 1, c, qbad, v0, VM_INITIAL_POSITION, 0,
         "the initial state violates constraint 1 (x^2 + y^2 + z^2 - 1) by 0.17 (ConstraintTol = 1e-08)",
         &r);
    CHECK (fabs (r.value - 0.17) <= 1e-15, "g = 0.36 + 0.81 - 1: %.17g", r.value);
    CHECK (r.rank == 1, "rank %d", r.rank);
  }
  {
    const char *c[] = { "x^2 + y^2 + z^2 - 1", "y*dot(x) - x*dot(y) + 0.5*dot(z)" };
    double v[3] = { 0.0, 1.5, 1.8 };   /* zdot = 2 x ydot = 1.8; x xdot + z zdot = -1.44 != 0 */
    double vok[3] = { 2.4, 1.5, 1.8 }; /* xdot = -z zdot / x */
    run ("sphere + nonholonomic", 2, c, q0, vok, VM_INITIAL_OK, -1, NULL, &r);
    run ("sphere + nonhol., phi_1", 2, c, q0, v, VM_INITIAL_VELOCITY, 0, "at velocity level", &r);
    run ("sphere + nonhol., phi_2", 2, c, q0, v0, VM_INITIAL_VELOCITY, 1,
         "violates constraint 2 (y*dot(x) - x*dot(y) + 0.5*dot(z)) by 0.9 (ConstraintTol", &r);
  }
  {
    const char *c[] = { "x", "x-1" };
    run ("{x, x-1}", 2, c, q0, v0, VM_INITIAL_CONTRADICTORY, 1,
         "rank-deficient at the initial state: constraints 1 (x) and 2 (x-1) are contradictory", &r);
    CHECK (r.ninvolved == 2 && r.involved[0] == 0 && r.involved[1] == 1, "involved %d", r.ninvolved);
    CHECK (fabs (r.value - 1) <= 1e-15, "w . g = 1: %g", r.value);
    CHECK (r.rank == 1, "rank %d", r.rank);
  }
  {
    const char *c[] = { "x^2+y^2+z^2-1", "1" };
    run ("constant", 2, c, q0, v0, VM_INITIAL_CONSTANT, 1,
         "rank-deficient: constraint 2 (1) is a constant", &r);
  }
  {
    const char *c[] = { "t - 1" };
    run ("constant in t", 1, c, q0, v0, VM_INITIAL_CONSTANT, 0, "constraint 1 (t - 1) is a constant", &r);
  }
  {
    const char *c[] = { "y", "x^2+y^2+z^2-1", "2*y" };
    run ("redundant pair", 3, c, q0, v0, VM_INITIAL_REDUNDANT, 2,
         "constraints 1 (y) and 3 (2*y) are redundant", &r);
    CHECK (r.rank == 2, "rank %d", r.rank);
  }
  {
    const char *c[] = { "x - y", "y - z", "x - z + 0.1" };
    double q[3] = { 0.5, 0.5, 0.5 };
    run ("three, contradictory", 3, c, q, zero, VM_INITIAL_CONTRADICTORY, 2,
         "constraints 1 (x - y), 2 (y - z) and 3 (x - z + 0.1) are contradictory", &r);
  }
  {
    const char *c[] = { "dot(x) + dot(y)", "2*dot(x) + 2*dot(y) - 1" };
    run ("velocity contradictory", 2, c, q0, zero, VM_INITIAL_CONTRADICTORY, 1,
         "no velocity satisfies all of them", &r);
  }
  {
    const char *c[] = { "x^2" };
    double q[3] = { 0.0, 0.0, -1.0 };
    run ("zero row", 1, c, q, v0, VM_INITIAL_ZERO_ROW, 0,
         "rank-deficient at the initial state: the gradient of constraint 1 (x^2) vanishes there", &r);
  }
  {
    const char *c[] = { "dot(x)^2 + dot(y)^2 - dot(z)^2" };
    run ("zero row (velocity)", 1, c, q0, zero, VM_INITIAL_ZERO_ROW, 0, "(dg/dqdot = 0)", &r);
  }
  {
    const char *c[] = { "log(x)" };
    double q[3] = { -1.0, 0.0, 0.0 };
    run ("non-finite", 1, c, q, zero, VM_INITIAL_NONFINITE, -1, "non-finite values", &r);
  }
  {
    const char *c[] = { "x + y + z + x*y*z + sin(x)*cos(y)*exp(z) + sqrt(1 + x^2 + y^2 + z^2) - 10" };
    run ("long expression", 1, c, q0, v0, VM_INITIAL_POSITION, 0, "...) by ", &r);
  }
  /* expr = NULL: numbers only (the words of gauss_integrate's message) */
  {
    vm_mech m;
    const char *c[] = { "x^2 + y^2 + z^2 - 1" };
    build_mech (&m, 3, xyz, 0, NULL, "(dot(x)^2 + dot(y)^2 + dot(z)^2)/2", NULL, 1, c);
    CHECK (vm_initial_check (&m, NULL, 0.0, qbad, v0, 1e-8, NULL, &r) == VM_OK, "no expr");
    CHECK (strcmp (r.msg, "the initial state violates constraint 1 by 0.17 (ConstraintTol = 1e-08)") == 0,
           "no expr: '%s'", r.msg);
    CHECK (vm_initial_check (&m, NULL, 0.0, qbad, v0, -1, NULL, &r) == VM_EARG, "tol < 0");
    CHECK (vm_initial_check (&m, NULL, 0.0, qbad, v0, NAN, NULL, &r) == VM_EARG, "tol NaN");
    CHECK (vm_initial_check (&m, NULL, 0.0, NULL, v0, 1e-8, NULL, &r) == VM_EARG, "q0 NULL");
    CHECK (vm_initial_check (&m, NULL, 0.0, qbad, v0, 1e-8, NULL, NULL) == VM_EARG, "r NULL");
    /* tolerance: |g| = 0.17 passes with tol = 0.17 (<=), fails just below */
    CHECK (vm_initial_check (&m, NULL, 0.0, qbad, zero, 0.17 + 1e-15, NULL, &r) == VM_OK
           && r.kind == VM_INITIAL_OK, "tol 0.17: kind %d", r.kind);
    CHECK (vm_initial_check (&m, NULL, 0.0, qbad, zero, 0.169, NULL, &r) == VM_OK
           && r.kind == VM_INITIAL_POSITION, "tol 0.169: kind %d", r.kind);
    vm_mech_free (&m);
  }
  /* a parameter and time: g = x - a t, phi = xdot - a */
  {
    vm_mech m;
    const char *c[] = { "x - a*t" }, *par[] = { "a" };
    double a = 0.5, q[3] = { 1.0, 0, 0 }, v[3] = { 0.5, 0, 0 }, vb[3] = { 0.25, 0, 0 };
    build_mech (&m, 3, xyz, 1, par, "(dot(x)^2 + dot(y)^2 + dot(z)^2)/2", NULL, 1, c);
    CHECK (vm_initial_check (&m, &a, 2.0, q, v, 1e-8, c, &r) == VM_OK && r.kind == VM_INITIAL_OK,
           "x - a t at t = 2: %s", r.msg);
    CHECK (vm_initial_check (&m, &a, 2.0, q, vb, 1e-8, c, &r) == VM_OK && r.kind == VM_INITIAL_VELOCITY
           && fabs (r.value - 0.25) <= 1e-15, "phi = xdot - a: %s", r.msg);
    CHECK (vm_initial_check (&m, &a, 1.0, q, v, 1e-8, c, &r) == VM_OK && r.kind == VM_INITIAL_POSITION
           && fabs (r.value - 0.5) <= 1e-15, "g at t = 1: %s", r.msg);
    CHECK (vm_initial_check (&m, NULL, 2.0, q, v, 1e-8, c, &r) == VM_EARG, "par NULL");
    vm_mech_free (&m);
  }
  return vmtest_finish ("test_initial_check");
}
