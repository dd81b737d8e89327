/* vm_axpy.h -- the multiply-add loop of the banded factorizations (bandlu.c, bandchol.c), plain
 * C99.  Static inline: the factorizations call it kl + ku times per column with short lengths
 * (m <= kl), where the cost of a function call is a visible part of the factorization. */
#ifndef VM_AXPY_H
#define VM_AXPY_H

/* a[0 .. m-1] -= y x[0 .. m-1]; x and a do not overlap (unrolled by four: vectorized at -O2) */
static inline void
vm_axpy_neg (int m, double y, const double *restrict x, double *restrict a)
{
  int i = 0;
  for (; i + 4 <= m; i += 4)
    {
      a[i] -= y * x[i];
      a[i + 1] -= y * x[i + 1];
      a[i + 2] -= y * x[i + 2];
      a[i + 3] -= y * x[i + 3];
    }
  for (; i < m; i++)
    a[i] -= y * x[i];
}

#endif
