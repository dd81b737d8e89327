/* vm_sumsq.h -- the sum of squares of an array, plain C99: Newton's pass over J's values
 * (newton.c) and the dual's over its Hessian's columns as they are completed (dual_hessian.c, handed to
 * Newton as option jac_sumsq). */
#ifndef VM_SUMSQ_H
#define VM_SUMSQ_H

#include <stdint.h>

/* sum_p a[p]^2, p < m, in eight partial sums: eight independent chains of additions in registers
 * (one chain waits several cycles for each addition while two additions can issue per cycle,
 * so fewer chains leave the adder idle).  Not finite when an entry is not, or when the sum
 * overflows.  Cost: m multiply-adds, one pass over a. */
static inline double
vm_sum_squares (int64_t m, const double *a)
{
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0, s6 = 0.0, s7 = 0.0;
  int64_t p = 0;
  for (; p + 8 <= m; p += 8)
    {
      s0 += a[p] * a[p];
      s1 += a[p + 1] * a[p + 1];
      s2 += a[p + 2] * a[p + 2];
      s3 += a[p + 3] * a[p + 3];
      s4 += a[p + 4] * a[p + 4];
      s5 += a[p + 5] * a[p + 5];
      s6 += a[p + 6] * a[p + 6];
      s7 += a[p + 7] * a[p + 7];
    }
  for (; p < m; p++)
    s0 += a[p] * a[p];
  return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
}

#endif
