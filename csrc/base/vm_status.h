/* vm_status.h -- status codes shared by the varmech C kernels (plain C99, no Octave headers). */
#ifndef VM_STATUS_H
#define VM_STATUS_H

typedef enum {
  VM_OK = 0,
  VM_EORDER,     /* SBP interior order not in {2, 4, 6, 8} */
  VM_ESIZE,      /* grid too small for the operator */
  VM_EINTERVAL,  /* time interval non-finite or not increasing */
  VM_ESTEP,      /* grid spacing too small: D would overflow */
  VM_EARG,       /* other invalid argument (NULL pointer, negative size) */
  VM_ENOMEM,     /* allocation failed */
  VM_ENOTSPD,    /* mass matrix not symmetric positive definite (or rcond below 1e-13) */
  VM_ESINGULAR,  /* constraint/reaction matrix singular: rcond below 1e-13 */
  VM_EOVERDET,   /* fewer reaction directions than constraints (k < m) */
  VM_STOP_EVENT, /* ODE: integration stopped at a terminal event (not an error) */
  VM_ETSPAN,     /* ODE: t0, tf not finite or equal */
  VM_EHMIN,      /* ODE: step size underflow, |h| < 16 eps |t| */
  VM_EMAXSTEPS,  /* ODE: maximal number of steps exceeded */
  VM_ENONFINITE, /* ODE: non-finite state or derivative */
  VM_ENEWTON,    /* ODE: Newton iteration of implicit stages failed after 10 step halvings */
  VM_EPROJECT,   /* projection onto the constraints did not converge */
  VM_EIMPACTS,   /* too many impacts (more than the allowed number) */
  VM_ECONTACT,   /* the state left the admissible side h >= 0 of a hard-wall contact */
  VM_ENEWTON_MAXIT,     /* vm_newton_solve: no convergence within max_iter steps */
  VM_ENEWTON_STALL,     /* vm_newton_solve: no acceptable step (line search and LM fallback failed) */
  VM_ENEWTON_SINGULAR,  /* vm_newton_solve: singular Jacobian and the LM fallback disabled */
  VM_ENEWTON_NONFINITE, /* vm_newton_solve: non-finite residual or Jacobian */
  VM_EUMFPACK,          /* UMFPACK sparse LU failed (not singularity or memory) */
  VM_EDTP,              /* dual action: the dual-to-primal map has no well-conditioned root */
  VM_ELAYER,            /* ODE: the step check still rejects sub-steps of 2^-30 of the fixed step */
  VM_EUNRESOLVED        /* march: Newton's rounding level reached the error tolerance, so the error
                           estimate does not bound the error (march.h VM_MARCH_ROUND_UNRESOLVED) */
} vm_status;

/* Human-readable description of a status code (static storage; never NULL). */
const char *vm_status_string (int status);

/* Wall-clock seconds from an arbitrary origin (CLOCK_MONOTONIC where available, else processor
 * time): for the timings that the kernels report. */
double vm_wall_time (void);

#endif
