/* vm_status.c -- descriptions of the varmech status codes; a wall clock for the kernels' timings. */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#endif
#include <string.h>
#include <time.h>

#include "base/vm_status.h"
#include "sbp/sbp.h"

double
vm_wall_time (void)
{
#if defined(CLOCK_MONOTONIC)
  struct timespec ts;
  if (clock_gettime (CLOCK_MONOTONIC, &ts) == 0)
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
#endif
  return (double) clock () / CLOCKS_PER_SEC;
}

/* "order must be one of " and the SBP orders (sbp.h, the one list); rebuilt on each call, always
 * to the same text, so that concurrent callers read consistent bytes. */
static const char *
order_message (void)
{
  static char msg[96];
  static const char head[] = "order must be one of ";
  memcpy (msg, head, sizeof head);
  vm_sbp_orders_text (msg + sizeof head - 1, sizeof msg - (sizeof head - 1));
  return msg;
}

const char *
vm_status_string (int status)
{
  switch (status)
    {
    case VM_OK:        return "success";
    case VM_EORDER:    return order_message ();
    case VM_ESIZE:     return "too few grid points for this operator";
    case VM_EINTERVAL: return "the time interval must be finite with t0 < tf";
    case VM_ESTEP:     return "the grid spacing (tf - t0)/(N - 1) is too small: D would overflow";
    case VM_EARG:      return "invalid argument";
    case VM_ENOMEM:    return "out of memory";
    case VM_ENOTSPD:   return "mass matrix not symmetric positive definite "
                              "(Cholesky failed or reciprocal condition below 1e-13)";
    case VM_ESINGULAR: return "constraint matrix singular: reciprocal condition below 1e-13 "
                              "(dependent constraints or degenerate reaction directions)";
    case VM_EOVERDET:  return "fewer reaction directions than constraints: overdetermined";
    case VM_STOP_EVENT: return "integration stopped at a terminal event";
    case VM_ETSPAN:    return "the time span must have finite t0 and tf with tf != t0";
    case VM_EHMIN:     return "step size underflow: |h| < 16 eps |t|";
    case VM_EMAXSTEPS: return "maximal number of integration steps exceeded";
    case VM_ENONFINITE: return "non-finite state or derivative during integration";
    case VM_ENEWTON:   return "Newton iteration of the implicit stage equations failed to converge "
                              "after 10 step halvings";
    case VM_EPROJECT:  return "projection onto the constraints did not converge in 20 Newton steps";
    case VM_EIMPACTS:  return "too many impacts (the contact chatters: lower the restitution or end earlier)";
    case VM_ECONTACT:  return "the state left the admissible side h >= 0 of a hard-wall contact (impacts "
                              "accumulate, as for a ball coming to rest, or the contact was grazed)";
    case VM_ENEWTON_MAXIT: return "nonlinear solver: no convergence within the maximal number of "
                                  "iterations (the best iterate is returned)";
    case VM_ENEWTON_STALL: return "nonlinear solver: no step reduces the residual (line search and "
                                  "Levenberg-Marquardt fallback failed; the best iterate is returned)";
    case VM_ENEWTON_SINGULAR: return "nonlinear solver: singular Jacobian and the Levenberg-Marquardt "
                                     "fallback is disabled (the best iterate is returned)";
    case VM_ENEWTON_NONFINITE: return "nonlinear solver: non-finite residual or Jacobian";
    case VM_EUMFPACK:  return "UMFPACK sparse LU factorization or solve failed";
    case VM_EDTP:      return "dual-to-primal map: no well-conditioned root (increase c or move the base state closer)";
    case VM_ELAYER:    return "a soft contact's layer is not resolved even by sub-steps of 2^-30 of the "
                              "fixed step (use a smaller Step, or dopri5 or dop853)";
    case VM_EUNRESOLVED: return "the rounding level of the discrete equations is not below the error "
                                "tolerance: the error estimate does not bound the error";
    default:           return "unknown status";
    }
}
