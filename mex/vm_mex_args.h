/* vm_mex_args.h -- the argument checks of every varmech MEX gateway, compiled once
 * (mex/vm_mex_args.c) and linked into each gateway.  Documented mex.h API only (mxGetPr, mwSize,
 * mxGetClassName), so that the same sources build with MATLAB's mex.
 *
 * Each function either returns the converted value or refuses the argument with the error
 * varmech:badarg and a message that names the user-facing function FN, the argument NAME (as the
 * user knows it: 'q0', 'tspan', 'MaxIter', ...), what is expected, and what was received:
 *
 *   skg_action: z must be a real full double vector with 20 entries; got sparse double 20x1
 *   skg_action: order must be an integer in [1, 64]; got 4294967300
 *   skg_solve: q0 must be finite; entry 2 is NaN
 *
 * Sparse, complex, non-double, cell, struct, char and logical arrays are never read as data: the
 * callers in inst/ convert what they accept (integer and single classes) before the gateway. */
#ifndef VM_MEX_ARGS_H
#define VM_MEX_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include "mex.h"
#include "base/vm_schema.h"

/* the largest N (points per window or slab) and count of windows any gateway accepts */
#define VM_ARG_NMAX VM_SCHEMA_NMAX
#define VM_ARG_WINDOWS_MAX VM_SCHEMA_WINDOWS_MAX

/* "sparse double 20x1", "complex double 1x2", "int32 1x1", "cell 0x0", ... into buf */
void vm_arg_describe (const mxArray *a, char *buf, size_t len);

/* Refuse a: "FN: NAME must be EXPECTED; got <description of a>".  Does not return. */
void vm_arg_refuse (const mxArray *a, const char *fn, const char *name, const char *expected);

/* a real full double vector (1-by-n or n-by-1; any empty array when n = 0) of n finite entries */
const double *vm_arg_vector (const mxArray *a, const char *fn, const char *name, size_t n);

/* 1 when a would pass vm_arg_vector (a, ..., n), 0 otherwise (nothing raised: for a gateway
 * that must free C objects before it refuses) */
int vm_arg_is_vector (const mxArray *a, size_t n);

/* a real full double vector of any length (*n entries), finite */
const double *vm_arg_vector_any (const mxArray *a, const char *fn, const char *name, size_t *n);

/* a real full double 2-D matrix of any size, finite */
const double *vm_arg_matrix (const mxArray *a, const char *fn, const char *name);

/* a real finite scalar of any numeric class except logical and char (single, int32, ... too) */
double vm_arg_real (const mxArray *a, const char *fn, const char *name);

/* an integer-valued real scalar of any numeric class in [lo, hi]: a value outside is refused with
 * the range, never cast (2^32 + 4 is not 4) */
int64_t vm_arg_int (const mxArray *a, const char *fn, const char *name, int64_t lo, int64_t hi);

/* a real full double vector [t0 tf] of 2 finite entries, t0 < tf (increasing != 0) or t0 ~= tf */
void vm_arg_interval (const mxArray *a, const char *fn, const char *name, int increasing,
                      double *t0, double *tf);

/* a 1x1 struct */
void vm_arg_struct (const mxArray *a, const char *fn, const char *name);

/* 1 when a is a 1-by-n character row (2-D, one row, n >= 0) that fits in buf (len bytes with
 * the NUL) and was copied into it; 0 otherwise (a column, a matrix, an N-D array, another class),
 * for the caller to refuse it with its own wording */
int vm_arg_get_string (const mxArray *a, char *buf, size_t len);

/* a 1-by-n character row that fits in buf (len bytes with the NUL), else refused */
void vm_arg_string (const mxArray *a, const char *fn, const char *name, char *buf, size_t len);

/* field KEY of the 1x1 struct s; refused as "FN: WHAT has no field KEY" when absent */
const mxArray *vm_arg_field (const mxArray *s, const char *key, const char *fn, const char *what);

/* field KEY of s, or NULL when it is absent or empty (an optional setting) */
const mxArray *vm_arg_field_opt (const mxArray *s, const char *key);

/* Optional settings of a setup struct made by an m-file: field KEY, checked under the user-facing
 * NAME as vm_arg_real / vm_arg_int, or dflt when the field is absent or empty. */
double vm_arg_field_real (const mxArray *s, const char *key, const char *fn, const char *name,
                          double dflt);
int64_t vm_arg_field_int (const mxArray *s, const char *key, const char *fn, const char *name,
                          int64_t lo, int64_t hi, int64_t dflt);

/* The command name of a gateway (its first argument), or an error naming the gateway. */
void vm_arg_command (int nrhs, const mxArray *prhs[], const char *gw, char *buf, size_t len);

/* A parameter struct of a compiled system: the np values named by names[k], each a real finite
 * scalar (numeric or logical), into par[k].  WHAT is the system's argument name ("sys", "ode"). */
void vm_arg_params (const mxArray *params, const char *const *names, int np, const char *fn,
                    const char *what, double *par);

/* formula text: a character row vector without NUL, mxMalloc'd (released by the MEX API) */
char *vm_arg_text (const mxArray *a, const char *fn, const char *name);

/* a cell array of formula texts ({} or [] for none): *n strings, mxMalloc'd */
char **vm_arg_cellstr (const mxArray *a, const char *fn, const char *name, int *n);

/* an SBP interior order that csrc/sbp/sbp.c supports (vm_sbp_min_n > 0); refused with the list of the
 * supported orders, asked from csrc */
int vm_arg_order (const mxArray *a, const char *fn, const char *name);

#endif
