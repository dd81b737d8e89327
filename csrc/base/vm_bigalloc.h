/* vm_bigalloc.h -- large work arrays in huge pages, where the system allows it (plain C99
 * interface).
 *
 * Why: the first touch of a fresh page costs a page fault and the kernel's clearing of the page.
 * On the virtual machines of this project's CI (Linux 6.18 under Firecracker) a 4 kB fault costs
 * about 11 us, so memory is first touched at 0.33-0.40 GB/s, 2.8 ms per MB, whether faulted page by
 * page or populated by the mmap call (MAP_POPULATE: 0.79 GB/s); a mapping advised MADV_HUGEPAGE is
 * faulted in 2 MB pages, 512 times fewer faults, at 2-17 GB/s (0.04-0.07 ms per MB, mappings of
 * 4 MB to 3 GB; bench/first_touch.c, bench/README_dual.md, "the fifth session of 2026-11-28").  The
 * dual Lorenz at N = 2^18 spent 1.2 s per solve in the kernel (481 000 faults in three solves),
 * more than its arithmetic.  Two uses:
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
 * threshold to the size of a freed mapped block), which a mapping cannot: with every band from
 * 2 MB on mapped, the SKG disk at N = 1024 and 4096 (9 solves in one process, skg_limit) took
 * 2.7 and 2.2 times as long end to end (the band's own first touch was cheaper, but the other
 * arrays of the solve, no longer below a raised threshold, faulted in 4 kB pages on every
 * solve).  (Before: 64 MB, and populated 4 kB pages from 512 MB on, measured on another machine
 * where huge pages had to be made by compaction.) */
#define VM_BIGALLOC_MIN ((size_t) 32 << 20)

void *vm_bigalloc_map (size_t bytes);
void vm_bigalloc_unmap (void *p, size_t bytes);
void *vm_bigalloc_zero (size_t count, size_t size);
void vm_bigalloc_free (void *p, size_t count, size_t size);
int vm_bigalloc_kind (size_t count, size_t size);

#endif
