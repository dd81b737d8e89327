/* vm_bigalloc.c -- large work arrays in huge pages (vm_bigalloc.h). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS, madvise */
#endif
#include <stdint.h>
#include <stdlib.h>

#include "base/vm_bigalloc.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
#define VM_BIGALLOC_MMAP 1
#else
#define VM_BIGALLOC_MMAP 0
#endif

/* 2 MB, the huge page of x86-64 and of most aarch64 kernels */
#define VM_HUGE ((size_t) 2 << 20)

/* bytes rounded up to whole huge pages; 0 on overflow */
static size_t
huge_length (size_t bytes)
{
  if (bytes > SIZE_MAX - 2 * VM_HUGE)
    return 0;
  return (bytes + VM_HUGE - 1) / VM_HUGE * VM_HUGE;
}

void *
vm_bigalloc_map (size_t bytes)
{
#if VM_BIGALLOC_MMAP
  /* a huge page more than needed, then the unaligned head and the tail unmapped: an aligned
   * mapping whatever the kernel's placement (Linux >= 6.7 aligns large anonymous mappings itself,
   * Debian 12's 6.1 does not) */
  const size_t len = huge_length (bytes > 0 ? bytes : 1);
  size_t lead;
  char *p;
  if (len == 0)
    return NULL;
  p = mmap (NULL, len + VM_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  lead = (VM_HUGE - (size_t) ((uintptr_t) p % VM_HUGE)) % VM_HUGE;
  if (lead > 0)
    (void) munmap (p, lead);
  if (lead < VM_HUGE)
    (void) munmap (p + lead + len, VM_HUGE - lead);
  (void) madvise (p + lead, len, MADV_HUGEPAGE);   /* advice only */
  return p + lead;
#else
  return malloc (bytes > 0 ? bytes : 1);
#endif
}

void
vm_bigalloc_unmap (void *p, size_t bytes)
{
  if (!p)
    return;
#if VM_BIGALLOC_MMAP
  (void) munmap (p, huge_length (bytes > 0 ? bytes : 1));
#else
  (void) bytes;
  free (p);
#endif
}

int
vm_bigalloc_kind (size_t count, size_t size)
{
  if (size != 0 && count > SIZE_MAX / size)
    return VM_BIGALLOC_CALLOC;
  return VM_BIGALLOC_MMAP && count * size >= VM_BIGALLOC_MIN ? VM_BIGALLOC_HUGE
                                                             : VM_BIGALLOC_CALLOC;
}

void *
vm_bigalloc_zero (size_t count, size_t size)
{
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
  /* a fresh mapping is zero */
  return vm_bigalloc_kind (count, size) == VM_BIGALLOC_HUGE ? vm_bigalloc_map (count * size)
                                                            : calloc (count, size);
}

void
vm_bigalloc_free (void *p, size_t count, size_t size)
{
  if (vm_bigalloc_kind (count, size) == VM_BIGALLOC_HUGE)
    vm_bigalloc_unmap (p, count * size);
  else
    free (p);
}
