/* vm_bigalloc.h -- large work arrays in huge pages, where the system allows it (plain C99
 * interface).
 *
 * Why: the first touch of a fresh page costs a page fault and the kernel's clearing of the page;
 * on virtual machines a 4 kB fault is dear enough that touching a large band page by page can
 * cost more than the arithmetic done on it.  A mapping advised MADV_HUGEPAGE is faulted in 2 MB
 * pages, 512 times fewer faults (bench/first_touch.c; figures in bench/README_dual.md).  Two uses:
 *   - vm_bigalloc_map (bytes) / vm_bigalloc_unmap (p, bytes): bytes of memory (not zeroed by
 *     contract; fresh pages are), in a private anonymous mapping aligned to 2 MB, its length
 *     rounded up to 2 MB, advised MADV_HUGEPAGE (with transparent huge pages "always" or
 *     "madvise" it is faulted in 2 MB pages; with "never" in 4 kB pages, as malloc's).  NULL on
 *     failure or overflow.  malloc / free on systems other than Linux.  vm_scratch.h takes its
 *     blocks from VM_SCRATCH_MAP_MIN (2 MB) on from here.
 *   - vm_bigalloc_zero (count, size) / vm_bigalloc_free (p, count, size): count * size zero
 *     bytes, aligned for any type, or NULL (also on overflow of count * size).  From
 *     VM_BIGALLOC_MIN on (Linux) a mapping of vm_bigalloc_map, below it calloc.  The caller keeps
 *     the count: a mapping is unmapped by its length.  vm_bigalloc_kind (count, size) tells which
 *     (VM_BIGALLOC_CALLOC on an overflowing request: it is refused).  The banded LU's band
 *     (linsolve_band.c). */
#ifndef VM_BIGALLOC_H
#define VM_BIGALLOC_H

#include <stddef.h>

enum { VM_BIGALLOC_CALLOC = 0, VM_BIGALLOC_HUGE = 1 };

/* 32 MB, glibc's largest dynamic mmap threshold (64-bit): from there on calloc maps fresh 4 kB
 * pages on every call, and a huge-page mapping only makes the first touch cheaper.  Below it
 * calloc can hand back pages freed by an earlier solve of the same process (glibc raises its
 * threshold to the size of a freed mapped block), which a mapping cannot: mapping smaller bands
 * as well made repeated small solves slower, since the solve's other arrays, no longer below a
 * raised threshold, then faulted in 4 kB pages on every solve (bench/skg_limit.c). */
#define VM_BIGALLOC_MIN ((size_t) 32 << 20)

void *vm_bigalloc_map (size_t bytes);
void vm_bigalloc_unmap (void *p, size_t bytes);
void *vm_bigalloc_zero (size_t count, size_t size);
void vm_bigalloc_free (void *p, size_t count, size_t size);
int vm_bigalloc_kind (size_t count, size_t size);

#endif
