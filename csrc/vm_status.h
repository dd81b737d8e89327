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
  VM_ENOMEM      /* allocation failed */
} vm_status;

/* Human-readable description of a status code (static storage; never NULL). */
const char *vm_status_string (int status);

#endif
