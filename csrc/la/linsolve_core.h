/* linsolve_core.h -- what the linear solver's dispatcher (linsolve.c) and its backends
 * (linsolve_umf.c, linsolve_band.c with linsolve_chol.c) share: the option, cache and solver
 * structs, the constants, the operations table of a backend (vm_linsolve_ops) and the setting of
 * a failure's message.  A backend includes this header and never the dispatcher's (linsolve.h),
 * so that the calls run one way only: dispatcher -> operations table -> backend.  Plain C99. */
#ifndef VM_LINSOLVE_CORE_H
#define VM_LINSOLVE_CORE_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "base/vm_status.h"

/* Backends (vm_linsolve_opts.kind, vm_linsolve.kind). */
enum { VM_LINSOLVE_AUTO = 0, VM_LINSOLVE_UMFPACK = 1, VM_LINSOLVE_BANDED = 2 };

/* Option lean (vm_linsolve_opts.lean): VM_LINSOLVE_LEAN_AUTO keeps U only when the band of
 * (2 kl + ku + 1) n doubles would take VM_LINSOLVE_LEAN_MIN bytes or more (1 GiB): the U-only
 * variant gives up the second solve with a factorization for memory, a trade worth making only
 * for bands that large. */
enum { VM_LINSOLVE_LEAN_AUTO = -1 };
#define VM_LINSOLVE_LEAN_MIN ((double) (1L << 30))

/* The banded backend's condition estimates (vm_linsolve_opts.cond). */
enum { VM_LINSOLVE_COND_PIVOT = 0, VM_LINSOLVE_COND_NORM1 = 1 };

/* UMFPACK's ordering and strategy codes (the values of umfpack.h; linsolve_umf.c checks them), for
 * callers that do not include umfpack.h. */
enum { VM_UMF_ORDERING_CHOLMOD = 0, VM_UMF_ORDERING_AMD = 1, VM_UMF_ORDERING_METIS = 3,
       VM_UMF_ORDERING_BEST = 4, VM_UMF_ORDERING_NONE = 5 };
enum { VM_UMF_STRATEGY_AUTO = 0, VM_UMF_STRATEGY_UNSYMMETRIC = 1, VM_UMF_STRATEGY_SYMMETRIC = 3 };

/* A UMFPACK symbolic analysis of a pattern kept between solves (vm_linsolve_opts.cache). */
typedef struct
{
  void *sym;           /* UMFPACK Symbolic object (NULL: empty) */
  int n, ordering, strategy;
  int64_t nnz;
  uint64_t hash;
  long nreuse;         /* inits that reused it */
} vm_linsolve_cache;


typedef struct
{
  int kind;            /* VM_LINSOLVE_AUTO, _UMFPACK or _BANDED (default VM_LINSOLVE_AUTO) */
  int umf_ordering;    /* UMFPACK Control[UMFPACK_ORDERING]; -1: UMFPACK's default (default -1) */
  int umf_strategy;    /* UMFPACK Control[UMFPACK_STRATEGY]; -1: UMFPACK's default (default -1) */
  int umf_irstep;      /* UMFPACK Control[UMFPACK_IRSTEP]; -1: UMFPACK's default (default -1) */
  vm_linsolve_cache *cache;  /* NULL, or a caller-owned cache of the UMFPACK symbolic analysis:
                        reused when it was made for the same pattern (n, nnz and a hash of colptr
                        and rowind) and the same ordering and strategy, otherwise replaced; the
                        banded backend does not touch it (default NULL) */
  int cond;            /* the banded backend's condition estimate: VM_LINSOLVE_COND_PIVOT or
                        VM_LINSOLVE_COND_NORM1 (see above) (default VM_LINSOLVE_COND_PIVOT) */
  int block;           /* 0, or the unknowns per time node of a node-major pattern (n a multiple
                        of it, at least 4 nodes): the banded backend then also tries the
                        relabeling that exchanges the first two nodes and the last two, and
                        factors the relabeled matrix P A P' when its band is narrower (a smaller
                        2 kl + ku).  The SBP boundary closures couple farther than the interior
                        stencil: the SKG Jacobians of order 4 couple node 0 with node 5, which the
                        exchange brings to a distance of 4 like the interior (disk, reduced:
                        kl = ku = 30 -> 24; full: 64 -> 52).  UMFPACK ignores it (default 0) */
  int lean;            /* the banded backend with kl < VM_BAND_LU_KL_MAX and cond
                        VM_LINSOLVE_COND_PIVOT: keep U only (bandlu.h, vm_band_lu_window: L applied
                        to the right-hand side as it is made), U's columns packed from their first
                        nonzero row (at most (kl + ku + 1) n doubles, in pages touched as written:
                        mostly fewer than kl + ku + 1 rows) instead of the band's
                        (2 kl + ku + 1) n, and no copy of the band: a window of 10 (kl + ku) + 1
                        columns.  A factorization then serves the one solve it is
                        made with (vm_linsolve_factor_solve; vm_linsolve_factor and
                        vm_linsolve_solve refuse), except a Cholesky factor of option definite,
                        which is held as without lean (the U-only LU is then the fallback for a
                        matrix that is not definite).  0: off, 1: on, VM_LINSOLVE_LEAN_AUTO: on when
                        the full band would take VM_LINSOLVE_LEAN_MIN bytes or more; ignored by
                        UMFPACK and where the conditions fail (default 0) */
  int definite;        /* 0, or +1 / -1 when the caller knows that diag (definite_scale) A is
                        symmetric and expects it to be positive / negative definite (the Hessian
                        of a convex / concave function, row-scaled): the banded backend then
                        factors each matrix first by the Cholesky factorization B = L L'
                        (bandchol.h) of B = +-diag (definite_scale) A (its lower triangle only),
                        and falls back to the LU of R A for a matrix that is not definite (a pivot
                        not positive; counted in nchol_fail).  The singularity test is the LU's
                        for the equilibrated C = S B S (S the diagonal that makes C's diagonal
                        1), whose factor is S L: the pivot ratio of C's LU without pivoting,
                        min / max of L_jj^2 / B_jj, below DBL_EPSILON.  The
                        pattern must have kl = ku (VM_EARG otherwise); A's symmetry is the
                        caller's promise (the upper triangle is not read).  With option lean the
                        fallback is the U-only LU.  Ignored by UMFPACK and with cond
                        VM_LINSOLVE_COND_NORM1 (default 0) */
  const double *definite_scale; /* NULL (all 1), or n values > 0 and finite (checked at init),
                        read at every factorization: they must outlive the solver (default NULL) */
} vm_linsolve_opts;

typedef struct vm_linsolve
{
  const struct vm_linsolve_ops *ops;  /* the backend's operations (vm_linsolve_init picks them) */
  int kind;            /* the backend in use: VM_LINSOLVE_UMFPACK or _BANDED */
  int definite;        /* option definite in use (0: off, or not applicable) */
  const double *dscale; /* option definite_scale */
  int chol;            /* the factorization held is the Cholesky factor of B (cb) */
  long nchol, nchol_fail; /* Cholesky factorizations made, and tried but not definite (each
                          followed by an LU; both count in nfactor once) */
  double *bdiag;       /* definite: n, B's diagonal (band labels), for C's pivots */
  double *cb;          /* definite: (bkl + 1) x n, B's lower band (LAPACK's "L" storage), then
                          its Cholesky factor (from vm_scratch.h: kept after the solve) */
  double *rdiag;       /* definite: n, the factor's 1 / L_jj (bandchol.h) */
  int64_t *dpos;       /* definite: n, the position of A(j, j) in the pattern (-1: none) */
  unsigned char *drun; /* definite: n, 1 where column j's rows from the diagonal on are
                          consecutive (j, j + 1, ...: filled by a scaled copy) */
  int n;
  int64_t nnz;
  const int64_t *colptr, *rowind;   /* the pattern (the caller's; must outlive the solver) */
  int kl, ku;          /* lower and upper bandwidth of the pattern (both backends) */
  int bkl, bku;        /* banded: the bandwidths of the factored band (kl, ku, or those of the
                          relabeled pattern, option block) */
  int cond;            /* the banded backend's condition estimate (VM_LINSOLVE_COND_*) */
  int singular;        /* the last factorization is singular (see above); its solves refused */
  double rcond;        /* the last factorization's reciprocal condition estimate (UMFPACK:
                          Info[UMFPACK_RCOND]; banded: see cond; 0 after a zero pivot) */
  long nfactor, nsymbolic, nsolve;
  double t_symbolic, t_numeric, t_solve;  /* wall-clock seconds: symbolic analyses, numeric
                          factorizations (banded: filling the band, the LU and the condition
                          estimate), solves */
  double t_rcond;      /* banded LU: the part of t_numeric in the condition estimate (the
                          Cholesky path makes its pivot ratio with its steps: not counted apart) */
  char message[200];   /* why the last call failed */
  const double *Ax;    /* the values of the last factorization (the caller's: UMFPACK's iterative
                          refinement reads them in the solves) */
  /* UMFPACK */
  void *Ap, *Ai;       /* the pattern in UMFPACK's index type (NULL when no copy is needed) */
  void *sym, *num;
  vm_linsolve_cache *cache;  /* NULL, or the caller's cache, which owns sym */
  double *control, *info;
  /* banded */
  int ldab;
  double *ab;          /* ldab x n: the band of R A, then its LU factors (with option definite
                          NULL until the first matrix that is not definite) */
  int ab_zero;         /* ab is all zero (fresh from calloc) */
  double *rs;          /* n: the row scales R */
  double *work;        /* 2 n: the 1-norm condition estimate; with pos, the relabeled right-hand
                          side of a solve */
  int *ipiv, *iwork;   /* n, n */
  int *pos;            /* NULL, or n: the position of unknown i in the relabeled band (block) */
  int lean;            /* the U-only variant is in use (option lean): ab, ipiv, iwork are NULL */
  double *u;           /* lean: U's packed columns (bandlu.h, vm_band_lu_window), room for
                          (kl + ku + 1) n (bkl, bku) */
  int64_t *up;         /* lean: n + 1, where each column of U starts in u */
  double *win;         /* lean: ldab x winw, the window of the band */
  int winw;
} vm_linsolve;

/* The operations of one backend, the table that vm_linsolve_init picks by ls->kind (as SUNDIALS'
 * SUNLinearSolver_Ops): the dispatcher (linsolve.c) checks the options, sets ls->singular = 1 and
 * ls->Ax before factor and factor_solve, and calls these; each returns as the linsolve.h function
 * of its name.  release may be NULL (nothing to drop); free frees what init allocated, also after
 * a failed init. */
typedef struct vm_linsolve_ops
{
  int (*init) (vm_linsolve *ls, const vm_linsolve_opts *o);
  int (*factor) (vm_linsolve *ls, const double *Ax);
  int (*solve) (vm_linsolve *ls, const double *b, double *x);
  int (*factor_solve) (vm_linsolve *ls, const double *Ax, const double *b, double *x);
  void (*release) (vm_linsolve *ls);
  void (*free) (vm_linsolve *ls);
} vm_linsolve_ops;

/* ls->message from a printf format (truncated to its size) */
static inline void
vm_ls_setmsg (vm_linsolve *ls, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (ls->message, sizeof ls->message, fmt, ap);
  va_end (ap);
}

/* The refusal of a solve without a factorization that serves it (no nonsingular one held, or a
 * U-only one already used, option lean): the message, and VM_EARG */
static inline int
vm_ls_refuse_solve (vm_linsolve *ls)
{
  vm_ls_setmsg (ls, ls->lean ? "a second solve with a U-only factorization (option lean)"
                : "solve without a nonsingular factorization");
  return VM_EARG;
}

#endif
