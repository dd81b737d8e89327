/* test_bigalloc.c -- vm_bigalloc.h: zeroed, writable, freed, for each kind (calloc; on Linux a
 * mapping on huge pages from VM_BIGALLOC_MIN); vm_bigalloc_map: aligned to the huge page on Linux,
 * usable to the last byte of lengths that are not whole huge pages, distinct mappings apart; an
 * overflowing request is refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/vm_bigalloc.h"
#include "vmtest.h"
/* every stride-th entry and the last one are zero; then write them all and read back */
static int
zeroed_and_writable (double *a, size_t n, size_t stride)
{
  size_t i;
  int ok = 1;
  for (i = 0; i < n; i += stride)
    ok = ok && a[i] == 0.0;
  ok = ok && a[n - 1] == 0.0;
  for (i = 0; i < n; i += stride)
    a[i] = (double) i;
  a[n - 1] = -1.0;
  for (i = 0; i < n - 1; i += stride)
    ok = ok && a[i] == (double) i;
  return ok && a[n - 1] == -1.0;
}

int
main (void)
{
  const size_t small = 1000, big = VM_BIGALLOC_MIN / sizeof (double) + 1;
  const size_t mb2 = (size_t) 2 << 20, odd[3] = { 1, mb2 + 3, 3 * mb2 - 5 };
  unsigned char *m[3];
  double *a;
  int k;

  CHECK (vm_bigalloc_kind (small, sizeof (double)) == VM_BIGALLOC_CALLOC,
         "a small request is calloc's");
  CHECK (vm_bigalloc_kind (VM_BIGALLOC_MIN / sizeof (double) - 1, sizeof (double))
         == VM_BIGALLOC_CALLOC, "a request just below VM_BIGALLOC_MIN is calloc's");
#if defined(__linux__)
  CHECK (vm_bigalloc_kind (big, sizeof (double)) == VM_BIGALLOC_HUGE,
         "a request of %zu bytes is mapped on huge pages on Linux", big * sizeof (double));
#endif
  CHECK (vm_bigalloc_kind (SIZE_MAX / 4, 8) == VM_BIGALLOC_CALLOC,
         "an overflowing request is not mapped");
  CHECK (vm_bigalloc_zero (SIZE_MAX / 4, 8) == NULL, "an overflowing request is refused");
  CHECK (vm_bigalloc_map (SIZE_MAX - 10) == NULL, "map: an overflowing request is refused");

  for (k = 0; k < 2; k++)   /* twice: a freed mapping does not leave its values to the next */
    {
      a = vm_bigalloc_zero (small, sizeof *a);
      CHECK (a != NULL, "small allocation");
      if (a)
        CHECK (zeroed_and_writable (a, small, 1), "small: zero on return, writable");
      vm_bigalloc_free (a, small, sizeof *a);

      a = vm_bigalloc_zero (big, sizeof *a);
      CHECK (a != NULL, "large allocation (%zu bytes)", big * sizeof *a);
      if (a)
        CHECK (zeroed_and_writable (a, big, 512), "large: zero on return (every 512th entry), "
               "writable");
      vm_bigalloc_free (a, big, sizeof *a);
    }

  /* three mappings alive at once, of 1 byte, a huge page and 3 bytes, three huge pages less 5
   * bytes: each aligned (Linux), each written to its last byte with its own value and read back
   * after the others were written (the rounding of a length stays inside its own mapping) */
  for (k = 0; k < 3; k++)
    {
      m[k] = vm_bigalloc_map (odd[k]);
      CHECK (m[k] != NULL, "map %zu bytes", odd[k]);
      if (! m[k])
        return vmtest_finish ("test_bigalloc");
#if defined(__linux__)
      CHECK ((uintptr_t) m[k] % mb2 == 0, "map %zu bytes: aligned to 2 MB", odd[k]);
#endif
      memset (m[k], 0x10 + k, odd[k]);
    }
  for (k = 0; k < 3; k++)
    CHECK (m[k][0] == 0x10 + k && m[k][odd[k] / 2] == 0x10 + k && m[k][odd[k] - 1] == 0x10 + k,
           "map %zu bytes: its values kept beside the others", odd[k]);
  for (k = 0; k < 3; k++)
    vm_bigalloc_unmap (m[k], odd[k]);
  vm_bigalloc_unmap (NULL, 1);              /* ignored */
  vm_bigalloc_free (NULL, big, sizeof (double));   /* ignored */
  return vmtest_finish ("test_bigalloc");
}
