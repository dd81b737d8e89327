/* vm_status.c -- descriptions of the varmech status codes. */
#include "vm_status.h"

const char *
vm_status_string (int status)
{
  switch (status)
    {
    case VM_OK:        return "success";
    case VM_EORDER:    return "order must be one of 2, 4, 6, 8";
    case VM_ESIZE:     return "too few grid points for this operator";
    case VM_EINTERVAL: return "the time interval must be finite with t0 < tf";
    case VM_ESTEP:     return "the grid spacing (tf - t0)/(N - 1) is too small: D would overflow";
    case VM_EARG:      return "invalid argument";
    case VM_ENOMEM:    return "out of memory";
    default:           return "unknown status";
    }
}
