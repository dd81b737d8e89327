/* disk_engines.c -- the rolling-disk derivatives with GNU libmatheval and with varmech's engine,
 * timed in the same process on the same points.
 *
 * Builds one evaluator for
 *   F = M/2*(xd^2+yd^2) + IS/2*thd^2 + ID/2*phd^2 + M*g*x*sin(alpha)
 *       + l1*(xd^2+yd^2-R^2*thd^2) + l2*(xd*sin(phi)-yd*cos(phi))
 * in the 10 variables x y theta phi xd yd thd phd l1 l2 (parameters
 * substituted as numeric constants), its 10 first derivatives
 * (evaluator_derivative) and the 55 second derivatives d2F/dv_i dv_j, i <= j
 * (derivative of the first derivative): 66 evaluators.  It then times the
 * evaluation of all 66 at NPTS random points (deterministic LCG, values in
 * [-1, 1]), best of REPEAT runs, and prints one line
 *   matheval npts=<N> us_per_point=<t> checksum=<sum> chars2=<chars>
 * where chars2 is the total length of the 55 second-derivative strings
 * returned by evaluator_get_string.
 *
 * With MATHEVAL_DISK_CHECK=1 in the environment it first compares a few
 * derivatives at the first point with hand-computed formulas and prints
 * "check ok" (or the mismatch, exit status 1).
 *
 * varmech: the same F is parsed (velocities written dot(x), ...; the parameters are tape inputs,
 * broadcast), its 10 first and 55 second derivatives are built symbolically in one graph and
 * compiled into one tape, which is evaluated over all points at once (structure of arrays; the
 * outputs that are structurally zero are zero-filled once, outside the timing).  It prints
 *   varmech npts=<N> us_per_point=<t> checksum=<sum> tape=<instructions> maxreldiff=<d>
 * where maxreldiff compares all 66 values at every point with libmatheval's.
 *
 * Usage:  disk_engines NPTS [REPEAT [REPEAT_VARMECH]]   (best of REPEAT = 3 runs of libmatheval,
 *         best of REPEAT_VARMECH = 5 runs of varmech; the first varmech run also touches the
 *         output pages for the first time)
 * Build:  gcc -std=c99 -O2 -Wall -Wextra -Icsrc bench/disk_engines.c libvarmech.a -lmatheval -lm
 *         (make bench does this in the build folder)
 */
#define _POSIX_C_SOURCE 200112L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <matheval.h>

#include "model/expr.h"
#include "base/vm_status.h"

#define NV 10                                /* variables */
#define N2 (NV * (NV + 1) / 2)               /* 55 second derivatives */
#define NE (1 + NV + N2)                     /* 66 evaluators */

static char *names[NV] = {"x", "y", "theta", "phi", "xd", "yd", "thd", "phd", "l1", "l2"};
enum { X, Y, THETA, PHI, XD, YD, THD, PHD, L1, L2 };

/* Model parameters. */
static const double PM = 1.0, PG = 9.8, PR = 1.0, PIS = 0.5, PID = 0.25;
#define PALPHA (3.14159265358979323846 / 6.0)

/* Index of d2F/dv_i dv_j (i <= j) in the packed upper triangle, row by row. */
static int tri_index (int i, int j)
{
  return i * NV - i * (i - 1) / 2 + (j - i);
}

static double now_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* 64-bit LCG (Knuth MMIX constants); top 53 bits mapped to [-1, 1]. */
static uint64_t lcg_state = 0x2545F4914F6CDD1DULL;
static double lcg_uniform (void)
{
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return 2.0 * ((double) (lcg_state >> 11) / 9007199254740992.0) - 1.0;
}

static int close_enough (double a, double b)
{
  return fabs (a - b) <= 1e-12 * (1.0 + fabs (b));
}

/* Compare a few derivatives at point v with hand-computed formulas. */
static int check_point (const double *out, const double *v)
{
  const double xd = v[XD], yd = v[YD], thd = v[THD], phd = v[PHD];
  const double phi = v[PHI], x = v[X], l1 = v[L1], l2 = v[L2];
  const double s = sin (phi), c = cos (phi);
  struct { const char *what; double got, want; } t[] = {
    {"F", out[0],
     PM / 2 * (xd * xd + yd * yd) + PIS / 2 * thd * thd + PID / 2 * phd * phd
     + PM * PG * x * sin (PALPHA) + l1 * (xd * xd + yd * yd - PR * PR * thd * thd)
     + l2 * (xd * s - yd * c)},
    {"dF/dx", out[1 + X], PM * PG * sin (PALPHA)},
    {"dF/dy", out[1 + Y], 0.0},
    {"dF/dphi", out[1 + PHI], l2 * (xd * c + yd * s)},
    {"dF/dxd", out[1 + XD], PM * xd + 2 * l1 * xd + l2 * s},
    {"dF/dyd", out[1 + YD], PM * yd + 2 * l1 * yd - l2 * c},
    {"dF/dthd", out[1 + THD], PIS * thd - 2 * l1 * PR * PR * thd},
    {"dF/dphd", out[1 + PHD], PID * phd},
    {"dF/dl1", out[1 + L1], xd * xd + yd * yd - PR * PR * thd * thd},
    {"dF/dl2", out[1 + L2], xd * s - yd * c},
    {"d2F/dxd2", out[1 + NV + tri_index (XD, XD)], PM + 2 * l1},
    {"d2F/dthd2", out[1 + NV + tri_index (THD, THD)], PIS - 2 * l1 * PR * PR},
    {"d2F/dphi dxd", out[1 + NV + tri_index (PHI, XD)], l2 * c},
    {"d2F/dphi dyd", out[1 + NV + tri_index (PHI, YD)], l2 * s},
    {"d2F/dphi2", out[1 + NV + tri_index (PHI, PHI)], l2 * (-xd * s + yd * c)},
    {"d2F/dxd dl1", out[1 + NV + tri_index (XD, L1)], 2 * xd},
    {"d2F/dphi dl2", out[1 + NV + tri_index (PHI, L2)], xd * c + yd * s},
    {"d2F/dx dxd", out[1 + NV + tri_index (X, XD)], 0.0},
  };
  int ok = 1;
  for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
    if (!close_enough (t[k].got, t[k].want))
      {
        printf ("check mismatch %s: matheval %.17g, hand %.17g\n",
                t[k].what, t[k].got, t[k].want);
        ok = 0;
      }
  return ok;
}

/* varmech: same F, same derivatives, same points; compares every value with libmatheval's. */
static int varmech_run (size_t n, long repeat, const double *in, const double *ref)
{
  /* variables: x y theta phi | xd yd thd phd | l1 l2 | M g alpha R IS ID (broadcast) */
  static const char *vm_text =
    "M/2*(dot(x)^2+dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)"
    " + l1*(dot(x)^2+dot(y)^2-R^2*dot(theta)^2) + l2*(dot(x)*sin(phi)-dot(y)*cos(phi))";
  static const char *coord[4] = {"x", "y", "theta", "phi"};
  static const char *pn[8] = {"l1", "l2", "M", "g", "alpha", "R", "IS", "ID"};
  const double pv[6] = {PM, PG, PALPHA, PR, PIS, PID};
  vm_graph *g = vm_graph_new (NV + 6);
  vm_symtab *s = vm_symtab_new ();
  vm_tape tp;
  vm_err err;
  int32_t outs[NE], e, d1[NV];
  double *soa = NULL, *res = NULL, *work = NULL, **pout = NULL, best = HUGE_VAL, checksum = 0,
         maxrel = 0;
  const double *pin[NV + 6];
  int inc[NV + 6], st = 1, i, j, k;
  size_t p;
  memset (&tp, 0, sizeof tp);
  if (!g || !s)
    goto out;
  for (i = 0; i < 4; i++)
    vm_symtab_add (s, coord[i], "coordinate", i, 4 + i);
  for (i = 0; i < 8; i++)
    vm_symtab_add (s, pn[i], "parameter", 8 + i, -1);
  e = vm_parse (g, s, vm_text, "disk", &err);
  if (e < 0)
    {
      fprintf (stderr, "disk_engines: %s\n", err.msg);
      goto out;
    }
  outs[0] = e;
  for (i = 0; i < NV; i++)
    outs[1 + i] = d1[i] = vm_diff (g, e, i);
  for (i = 0; i < NV; i++)
    for (j = i; j < NV; j++)
      outs[1 + NV + tri_index (i, j)] = vm_diff (g, d1[i], j);
  for (k = 0; k < NE; k++)
    if (outs[k] < 0)
      goto out;
  if (vm_tape_compile (g, NE, outs, &tp) != VM_OK)
    goto out;
  soa = malloc (n * NV * sizeof *soa);
  res = calloc (n * NE, sizeof *res);
  work = malloc (vm_tape_work_size (&tp) * sizeof *work);
  pout = malloc (NE * sizeof *pout);
  if (!soa || !res || !work || !pout)
    {
      fprintf (stderr, "disk_engines: out of memory\n");
      goto out;
    }
  for (i = 0; i < NV; i++)
    {
      for (p = 0; p < n; p++)
        soa[i * n + p] = in[p * NV + i];
      pin[i] = soa + i * n;
      inc[i] = 1;
    }
  for (i = 0; i < 6; i++)
    {
      pin[NV + i] = pv + i;
      inc[NV + i] = 0;
    }
  for (k = 0; k < NE; k++)
    pout[k] = res + (size_t) k * n;
  for (long r = 0; r < repeat; r++)
    {
      double t0 = now_seconds (), t;
      if (vm_tape_eval (&tp, n, pin, inc, pout, work) != VM_OK)
        goto out;
      t = now_seconds () - t0;
      if (t < best)
        best = t;
    }
  for (p = 0; p < n; p++)
    for (k = 0; k < NE; k++)
      {
        double a = res[(size_t) k * n + p], b = ref[p * NE + k];
        double rel = fabs (a - b) / (1.0 + fabs (b));
        checksum += a;
        if (!(rel <= maxrel))
          maxrel = rel;
      }
  printf ("varmech npts=%zu us_per_point=%.4f checksum=%.17g tape=%d maxreldiff=%.3g\n",
          n, 1e6 * best / (double) n, checksum, tp.ninstr, maxrel);
  st = maxrel <= 1e-12 ? 0 : 1;
  if (st)
    fprintf (stderr, "disk_engines: the engines disagree (max relative difference %.3g)\n", maxrel);
out:
  vm_tape_free (&tp);
  free (soa);
  free (res);
  free (work);
  free (pout);
  vm_symtab_free (s);
  vm_graph_free (g);
  return st;
}

int main (int argc, char **argv)
{
  if (argc < 2 || argc > 4)
    {
      fprintf (stderr, "usage: %s NPTS [REPEAT [REPEAT_VARMECH]]\n", argv[0]);
      return 1;
    }
  char *end;
  errno = 0;
  long npts = strtol (argv[1], &end, 10);
  if (errno || *end || npts < 1)
    {
      fprintf (stderr, "disk_engines: NPTS must be a positive integer\n");
      return 1;
    }
  long repeat = 3;
  long repeat_vm = 5;
  if (argc == 4)
    {
      errno = 0;
      repeat_vm = strtol (argv[3], &end, 10);
      if (errno || *end || repeat_vm < 1)
        {
          fprintf (stderr, "disk_engines: REPEAT_VARMECH must be a positive integer\n");
          return 1;
        }
    }
  if (argc >= 3)
    {
      errno = 0;
      repeat = strtol (argv[2], &end, 10);
      if (errno || *end || repeat < 1)
        {
          fprintf (stderr, "disk_engines: REPEAT must be a positive integer\n");
          return 1;
        }
    }
  const char *chk = getenv ("MATHEVAL_DISK_CHECK");
  int do_check = chk != NULL && strcmp (chk, "1") == 0;

  /* F with the parameters written in as numeric constants. */
  char expr[1024];
  int len = snprintf (expr, sizeof expr,
                      "%.17g/2*(xd^2+yd^2) + %.17g/2*thd^2 + %.17g/2*phd^2"
                      " + %.17g*%.17g*x*sin(%.17g)"
                      " + l1*(xd^2+yd^2-%.17g^2*thd^2)"
                      " + l2*(xd*sin(phi)-yd*cos(phi))",
                      PM, PIS, PID, PM, PG, PALPHA, PR);
  if (len < 0 || (size_t) len >= sizeof expr)
    {
      fprintf (stderr, "disk_engines: expression buffer too small\n");
      return 1;
    }

  void *ev[NE] = {NULL};
  int status = 1;
  double *in = NULL, *out = NULL;

  ev[0] = evaluator_create (expr);
  if (!ev[0])
    {
      fprintf (stderr, "disk_engines: evaluator_create failed for: %s\n", expr);
      goto done;
    }
  for (int i = 0; i < NV; i++)
    if (!(ev[1 + i] = evaluator_derivative (ev[0], names[i])))
      {
        fprintf (stderr, "disk_engines: evaluator_derivative failed (d/d%s)\n", names[i]);
        goto done;
      }
  for (int i = 0; i < NV; i++)
    for (int j = i; j < NV; j++)
      if (!(ev[1 + NV + tri_index (i, j)] = evaluator_derivative (ev[1 + i], names[j])))
        {
          fprintf (stderr, "disk_engines: evaluator_derivative failed (d2/d%s d%s)\n",
                   names[i], names[j]);
          goto done;
        }

  size_t chars2 = 0;
  for (int k = 0; k < N2; k++)
    chars2 += strlen (evaluator_get_string (ev[1 + NV + k]));

  size_t n = (size_t) npts;
  in = malloc (n * NV * sizeof *in);
  out = malloc (n * NE * sizeof *out);
  if (!in || !out)
    {
      fprintf (stderr, "disk_engines: out of memory (npts = %ld)\n", npts);
      goto done;
    }
  for (size_t k = 0; k < n * NV; k++)
    in[k] = lcg_uniform ();

  double best = HUGE_VAL;
  for (long r = 0; r < repeat; r++)
    {
      double t0 = now_seconds ();
      for (size_t p = 0; p < n; p++)
        {
          double *v = in + p * NV, *o = out + p * NE;
          for (int e = 0; e < NE; e++)
            o[e] = evaluator_evaluate (ev[e], NV, names, v);
        }
      double t = now_seconds () - t0;
      if (t < best)
        best = t;
    }

  if (do_check)
    {
      if (!check_point (out, in))
        goto done;
      printf ("check ok\n");
    }

  double checksum = 0.0;
  for (size_t k = 0; k < n * NE; k++)
    checksum += out[k];
  printf ("matheval npts=%ld us_per_point=%.4f checksum=%.17g chars2=%zu\n",
          npts, 1e6 * best / (double) n, checksum, chars2);
  if (varmech_run (n, repeat_vm, in, out) != 0)
    goto done;
  status = 0;

done:
  free (in);
  free (out);
  for (int e = 0; e < NE; e++)
    if (ev[e])
      evaluator_destroy (ev[e]);
  return status;
}
