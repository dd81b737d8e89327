/* linsolve.h -- the linear solver of the Newton iterations (newton.h): A x = b for a square sparse
 * matrix A of order n with a fixed pattern in compressed sparse column (CSC) form, factored once
 * per set of values and solved with it, by one of two backends (plain C99).  The code: linsolve.c
 * (this interface, the rule of VM_LINSOLVE_AUTO), linsolve_umf.c (UMFPACK), linsolve_band.c (the
 * banded LU), linsolve_chol.c (its Cholesky path, option definite); linsolve_impl.h between them.
 *
 * Backends
 *   VM_LINSOLVE_UMFPACK  UMFPACK's LU (64-bit interface).  One umfpack_dl_symbolic per pattern --
 *                        none when the cache (vm_linsolve_opts.cache) already holds the analysis of
 *                        this pattern with this ordering and strategy --, one umfpack_dl_numeric per
 *                        factorization, umfpack_dl_solve per solve.  The ordering, strategy and
 *                        iterative refinement are options (UMFPACK's Control; -1: its default).
 *                        Singular: UMFPACK_WARNING_singular_matrix (an exactly zero pivot), or its
 *                        pivot-based estimate of the reciprocal condition number of the scaled
 *                        matrix (Info[UMFPACK_RCOND], min |U_ii| / max |U_ii|) below DBL_EPSILON or
 *                        NaN.  Memory: the Symbolic object, the Numeric object while a
 *                        factorization is held (from vm_linsolve_factor to vm_linsolve_release or
 *                        the next factorization), and a copy of the pattern in UMFPACK's index
 *                        type only when that is a type distinct from int64_t (UMFPACK 5 where
 *                        configure could not prove SuiteSparse_long to be int64_t; none on LP64
 *                        glibc, none from UMFPACK 6 on): otherwise the caller's pattern is the
 *                        only copy.
 *   VM_LINSOLVE_BANDED   LU with partial pivoting of the band of the pattern in its natural order:
 *                        bandlu.h's for kl < VM_BAND_LU_KL_MAX (LAPACK's dgbtf2 / dgbtrs written
 *                        out in C, 1.3-2.3 times faster than dgbtrf on those bands, the same
 *                        pivots and storage), LAPACK's dgbtrf / dgbtrs otherwise; kl = max (i - j) and ku = max (j - i) over
 *                        the entries (i, j) (vm_linsolve_bandwidth, computed once per init), band
 *                        storage of LDAB = 2 kl + ku + 1 rows (kl, ku of the pattern, or of its
 *                        relabeling when option block narrows the band; n LDAB doubles,
 *                        allocated once, with fewer page faults where the system allows it:
 *                        huge pages, or populated from 512 MB, vm_bigalloc.h; the
 *                        kl extra rows hold the fill of the row interchanges).  No symbolic phase.
 *                        The rows are scaled by the reciprocal sums of their absolute values before
 *                        the factorization (as UMFPACK's default scaling, UMFPACK_SCALE_SUM), so
 *                        that both backends test the same scaled matrix R A.  Singular: the LU
 *                        reports an exactly zero pivot (info > 0), or the reciprocal condition
 *                        estimate of R A is below DBL_EPSILON or NaN; the estimate (option cond):
 *                          VM_LINSOLVE_COND_PIVOT (default) min |U_jj| / max |U_jj| of the
 *                            factorization, UMFPACK's own estimate (Info[UMFPACK_RCOND]): the
 *                            same test as the UMFPACK backend, at O(n) cost;
 *                          VM_LINSOLVE_COND_NORM1 the 1-norm reciprocal condition number
 *                            1 / (||R A||_1 est ||(R A)^{-1}||_1), Higham's estimate (LAPACK's
 *                            dlacn2, as dgbcon computes it) from about 5 band solves with dgbtrs.
 *                            Stricter (it is the condition number itself, within a factor of a
 *                            few; the pivot ratio is up to 1000 times larger on the SKG Jacobians
 *                            at n = 10^5) and dearer: the solves stream the band, 0.5 to 1.5 times
 *                            a dgbtrf of the same matrix (bench/README_band.md).  dgbcon itself is
 *                            O(n^2) on these matrices (linsolve_band.c).
 *                        Refused (VM_EARG) when n LDAB exceeds INT_MAX (LAPACK's 32-bit indices).
 *                        With option definite (a symmetric definite matrix, up to a row scaling:
 *                        the Hessians of the dual actions) each matrix is first factored by the
 *                        banded Cholesky factorization of its lower band (times +-definite_scale)
 *                        (bandchol.h; in its own n (kl + 1) doubles), the LU only when that
 *                        fails (its band of LDAB n doubles allocated at the first such failure).
 *   VM_LINSOLVE_AUTO     resolved by vm_linsolve_auto from the pattern at init (the rule and the
 *                        measurement it comes from: linsolve.c, bench/README_band.md).
 *
 * The unknowns of the discrete actions are ordered by time node (skg.h, dual.h), so their
 * Jacobians are banded in the natural order; no permutation is applied here.  A pattern that is
 * not banded (kl or ku of the order of n) is factored by UMFPACK under AUTO.
 *
 * Every function returns VM_OK or a vm_status code and, on failure, leaves a one-line reason in
 * ls->message.  Every path frees what it allocates; vm_linsolve_free frees the rest.
 */
#ifndef VM_LINSOLVE_H
#define VM_LINSOLVE_H

#include <stdint.h>

/* Backends (vm_linsolve_opts.kind, vm_linsolve.kind). */
enum { VM_LINSOLVE_AUTO = 0, VM_LINSOLVE_UMFPACK = 1, VM_LINSOLVE_BANDED = 2 };

/* Option lean (vm_linsolve_opts.lean): VM_LINSOLVE_LEAN_AUTO keeps U only when the band of
 * (2 kl + ku + 1) n doubles would take VM_LINSOLVE_LEAN_MIN bytes or more: 1 GiB, the SKG disk
 * of order 4 in reduced mode from N = 2^19 on (bench/README_skg.md, "U only"). */
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

/* An empty cache (or zero the struct). */
void vm_linsolve_cache_init (vm_linsolve_cache *c);
/* Free the analysis and leave the cache empty.  NULL is ignored. */
void vm_linsolve_cache_free (vm_linsolve_cache *c);

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
                        the SKG disk's U takes 22 of the 49 rows) instead of the band's
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

typedef struct
{
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

/* Defaults (see vm_linsolve_opts). */
void vm_linsolve_opts_init (vm_linsolve_opts *o);

/* The bandwidths of a CSC pattern (rows in [0, n), sorted within each column, as vm_linsolve_init
 * requires): *kl = max (0, max (i - j)), *ku = max (0, max (j - i)), from the first and the last
 * row of each column, O(n). */
void vm_linsolve_bandwidth (int n, const int64_t *colptr, const int64_t *rowind, int *kl, int *ku);

/* The backend that VM_LINSOLVE_AUTO picks for a pattern of order n with nnz entries and
 * bandwidths kl, ku: VM_LINSOLVE_BANDED or VM_LINSOLVE_UMFPACK (the rule: linsolve.c). */
int vm_linsolve_auto (int n, int64_t nnz, int kl, int ku);

/* Of two models of a solve's memory per node -- umfpack with UMFPACK, banded with the banded LU --
 * the one for the backend of option kind, before any pattern exists, for a node-major Jacobian
 * of an action discretized by SBP operators with u unknowns per node (skg_solve, the duals):
 * UMFPACK: umfpack; BANDED: banded; AUTO: banded while u <= 12, where vm_linsolve_auto gives
 * these Jacobians to the band (it did for every one measured, and it must when each unknown's
 * column holds its own 2 p + 1 stencil entries and kl = ku ~ p u: 16 (2 p + 1) >= 2 p u + 1 for
 * u up to 16), else the larger of the two (the backend then depends on the model's couplings);
 * 0 for another kind. */
double vm_linsolve_memory_model (int kind, double u, double umfpack, double banded);

/* Nonzero when option lean VM_LINSOLVE_LEAN_AUTO keeps U only for a band of n columns with the
 * bandwidths kl, ku (kl < VM_BAND_LU_KL_MAX and (2 kl + ku + 1) n doubles of at least
 * VM_LINSOLVE_LEAN_MIN bytes; with the condition estimate VM_LINSOLVE_COND_PIVOT): the rule of
 * vm_linsolve_init and of the memory estimates (skg_solve.h). */
int vm_linsolve_lean_auto (int kl, int ku, double n);

/* "umfpack", "banded" or "auto" (static storage; "?" for another value). */
const char *vm_linsolve_name (int kind);

/* Set up a solver for the pattern (n >= 1; colptr[n + 1], rowind[colptr[n]] sorted within the
 * columns, as vm_newton_solve checks them; not copied: they must outlive ls).  o: NULL for the
 * defaults.  ls is always left freeable (vm_linsolve_free), also on failure.  Returns VM_OK,
 * VM_EARG (bad kind or UMFPACK option, or a band too large for LAPACK's indices), VM_ENOMEM,
 * VM_EUMFPACK (the symbolic analysis failed; its status in the message). */
int vm_linsolve_init (vm_linsolve *ls, int n, const int64_t *colptr, const int64_t *rowind,
                      const vm_linsolve_opts *o);

/* Factor the matrix with the values Ax (colptr[n] of them, finite) in the pattern; sets
 * ls->singular and ls->rcond.  Ax must stay unchanged until the last solve with this
 * factorization.  A singular matrix is not an error.  Returns VM_OK, VM_ENOMEM,
 * VM_EUMFPACK (UMFPACK failed otherwise), VM_EARG (LAPACK refused an argument: a bug). */
int vm_linsolve_factor (vm_linsolve *ls, const double *Ax);

/* x = A^{-1} b with the last factorization (b and x of n values, distinct arrays).  Returns VM_OK,
 * VM_EARG (no nonsingular factorization held), VM_ENOMEM, VM_EUMFPACK (UMFPACK failed; a
 * singular-matrix warning of the solve sets ls->singular and returns VM_OK).  x may hold
 * non-finite values when A is nearly singular: the caller checks. */
int vm_linsolve_solve (vm_linsolve *ls, const double *b, double *x);

/* x = A^{-1} b for the values Ax: vm_linsolve_factor then vm_linsolve_solve, or the U-only
 * factorization with its solve in one pass (option lean).  Sets ls->singular and ls->rcond as
 * vm_linsolve_factor; a singular matrix is not an error (x is then not computed, or, lean, not
 * meaningful).  Returns as vm_linsolve_factor and vm_linsolve_solve. */
int vm_linsolve_factor_solve (vm_linsolve *ls, const double *Ax, const double *b, double *x);

/* Drop the numeric factorization (UMFPACK's Numeric object; nothing for the banded backend, whose
 * arrays are kept for the next factorization). */
void vm_linsolve_release (vm_linsolve *ls);

/* Free everything except a cached symbolic analysis, and leave ls zeroed.  NULL is ignored. */
void vm_linsolve_free (vm_linsolve *ls);

#endif
