/* test_bigalloc.c -- vm_bigalloc.h: zeroed, writable, freed, for each kind (calloc; on Linux a
 * mapping on huge pages, and a populated one from 512 MB; the lazy mapping, partly written); an
 * overflowing request is refused. */
#include <stdint.h>
#include <stdlib.h>

#include "vm_bigalloc.h"
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
  const size_t huge = VM_BIGALLOC_POPULATE_MIN / sizeof (double);
  double *a;
  int k;

  CHECK (vm_bigalloc_kind (small, sizeof (double)) == VM_BIGALLOC_CALLOC,
         "a small request is calloc's");
#if defined(__linux__)
  CHECK (vm_bigalloc_kind (big, sizeof (double)) == VM_BIGALLOC_HUGE,
         "a request of %zu bytes is mapped on huge pages on Linux", big * sizeof (double));
  CHECK (vm_bigalloc_kind (huge, sizeof (double)) == VM_BIGALLOC_POPULATE,
         "a request of %zu bytes is mapped populated on Linux", huge * sizeof (double));
#endif
  CHECK (vm_bigalloc_kind (SIZE_MAX / 4, 8) == VM_BIGALLOC_CALLOC,
         "an overflowing request is not mapped");
  CHECK (vm_bigalloc_zero (SIZE_MAX / 4, 8) == NULL, "an overflowing request is refused");

  /* the populated kind once (512 MB, 0.2-0.7 s here) */
  a = vm_bigalloc_zero (huge, sizeof *a);
  CHECK (a != NULL, "512 MB allocation");
  if (a)
    CHECK (zeroed_and_writable (a, huge, 4096), "512 MB: zero on return (every 4096th entry), "
           "writable");
  vm_bigalloc_free (a, huge, sizeof *a);

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
  /* the lazy kind: 512 MB of which the first 8 MB are written (the rest never touched) */
  CHECK (vm_bigalloc_lazy (SIZE_MAX / 4, 8) == NULL, "lazy: an overflowing request is refused");
  for (k = 0; k < 2; k++)
    {
      a = vm_bigalloc_lazy (k == 0 ? small : huge, sizeof *a);
      CHECK (a != NULL, "lazy allocation %d", k);
      if (a)
        CHECK (zeroed_and_writable (a, k == 0 ? small : huge / 64, 1) && a[huge / 2 * k] == 0.0,
               "lazy %d: zero on return, writable", k);
      vm_bigalloc_free (a, k == 0 ? small : huge, sizeof *a);
    }
  vm_bigalloc_free (NULL, big, sizeof (double));   /* ignored */
  return vmtest_finish ("test_bigalloc");
}
