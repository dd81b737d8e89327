/* vm_bigalloc.c -- zeroed large allocations on transparent huge pages (vm_bigalloc.h). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS, madvise */
#endif
#include <stdint.h>
#include <stdlib.h>

#include "vm_bigalloc.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
#define VM_BIGALLOC_MMAP 1
#else
#define VM_BIGALLOC_MMAP 0
#endif

int
vm_bigalloc_mapped (size_t count, size_t size)
{
  if (size != 0 && count > SIZE_MAX / size)
    return 0;
  return VM_BIGALLOC_MMAP && count * size >= VM_BIGALLOC_MIN;
}

void *
vm_bigalloc_zero (size_t count, size_t size)
{
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
#if VM_BIGALLOC_MMAP
  if (count * size >= VM_BIGALLOC_MIN)
    {
      void *p = mmap (NULL, count * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
      if (p == MAP_FAILED)
        return NULL;
      /* advice only: without transparent huge pages the mapping is one of 4 kB pages */
      (void) madvise (p, count * size, MADV_HUGEPAGE);
      return p;
    }
#endif
  return calloc (count, size);
}

void
vm_bigalloc_free (void *p, size_t count, size_t size)
{
  if (!p)
    return;
#if VM_BIGALLOC_MMAP
  if (vm_bigalloc_mapped (count, size))
    {
      munmap (p, count * size);
      return;
    }
#endif
  free (p);
}
