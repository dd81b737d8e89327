/* vm_bigalloc.c -- zeroed large allocations with fewer page faults (vm_bigalloc.h). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS, MAP_POPULATE, madvise */
#endif
#include <stdint.h>
#include <stdlib.h>

#include "vm_bigalloc.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS) && defined(MAP_POPULATE)
#define VM_BIGALLOC_MMAP 1
#else
#define VM_BIGALLOC_MMAP 0
#endif

int
vm_bigalloc_kind (size_t count, size_t size)
{
  size_t bytes;
  if (size != 0 && count > SIZE_MAX / size)
    return VM_BIGALLOC_CALLOC;
  bytes = count * size;
  if (!VM_BIGALLOC_MMAP || bytes < VM_BIGALLOC_MIN)
    return VM_BIGALLOC_CALLOC;
  return bytes < VM_BIGALLOC_POPULATE_MIN ? VM_BIGALLOC_HUGE : VM_BIGALLOC_POPULATE;
}

/* count * size zero bytes of the given kind (never VM_BIGALLOC_CALLOC on a mapping: calloc) */
static void *
alloc_kind (size_t count, size_t size, int kind)
{
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
#if VM_BIGALLOC_MMAP
  if (kind != VM_BIGALLOC_CALLOC)
    {
      const int flags = MAP_PRIVATE | MAP_ANONYMOUS
                        | (kind == VM_BIGALLOC_POPULATE ? MAP_POPULATE : 0);
      void *p = mmap (NULL, count * size, PROT_READ | PROT_WRITE, flags, -1, 0);
      if (p == MAP_FAILED)
        return NULL;
      if (kind == VM_BIGALLOC_HUGE)   /* advice only: without huge pages, 4 kB pages */
        (void) madvise (p, count * size, MADV_HUGEPAGE);
      return p;
    }
#else
  (void) kind;
#endif
  return calloc (count, size);
}

void *
vm_bigalloc_zero (size_t count, size_t size)
{
  return alloc_kind (count, size, vm_bigalloc_kind (count, size));
}

void *
vm_bigalloc_lazy (size_t count, size_t size)
{
  /* a mapping faulted in at first touch, never populated */
  return alloc_kind (count, size, vm_bigalloc_kind (count, size) == VM_BIGALLOC_CALLOC
                                  ? VM_BIGALLOC_CALLOC : VM_BIGALLOC_HUGE);
}

void
vm_bigalloc_free (void *p, size_t count, size_t size)
{
  if (!p)
    return;
#if VM_BIGALLOC_MMAP
  if (vm_bigalloc_kind (count, size) != VM_BIGALLOC_CALLOC)
    {
      munmap (p, count * size);
      return;
    }
#endif
  free (p);
}
