/* vm_bigalloc.h -- zeroed allocation of large work arrays (the band of the banded LU) with fewer
 * page faults at their first touch, where the system allows it (plain C99 interface).
 *
 * Why: the first touch of a fresh page costs a page fault and the kernel's clearing of the page.
 * For the band of the SKG disk at N = 2^20 (4.6 GB before the end nodes' exchange, 1.1 million
 * 4 kB pages) those faults took about 6 s of an 11 s factorization (perf, bench/README_band.md
 * "N = 2^20").  Three kinds of allocation (vm_bigalloc_kind):
 *   VM_BIGALLOC_CALLOC    calloc: below VM_BIGALLOC_MIN, and on systems other than Linux;
 *   VM_BIGALLOC_HUGE      from VM_BIGALLOC_MIN to below VM_BIGALLOC_POPULATE_MIN (Linux): a private
 *                         anonymous mapping advised MADV_HUGEPAGE, faulted in 2 MB pages (512 times
 *                         fewer faults) when transparent huge pages are enabled ("madvise" or
 *                         "always"; otherwise it is one of 4 kB pages);
 *   VM_BIGALLOC_POPULATE  from VM_BIGALLOC_POPULATE_MIN on (Linux): a mapping of 4 kB pages that the
 *                         kernel populates (zeroes and maps) in the mmap call, MAP_POPULATE, with
 *                         no fault per page later.  Huge pages of that size often have to be made
 *                         by compacting memory first, which the faulting thread does itself under
 *                         the "madvise" defrag setting: measured here, a first touch of 3.7 GB
 *                         took 1.7-6.1 s on huge pages and 1.3-1.4 s populated.
 * Every kind returns zeroed memory, and the same memory to the caller.
 *
 * vm_bigalloc_zero (count, size): count * size zero bytes, aligned for any type, or NULL (also on
 *   overflow of count * size, or a failed mapping).
 * vm_bigalloc_free (p, count, size): frees p, which came from vm_bigalloc_zero with the same
 *   count and size (NULL is ignored).  The caller keeps the count: a mapping is unmapped by its
 *   length.
 * vm_bigalloc_kind (count, size): the kind vm_bigalloc_zero uses for that request (0 on an
 *   overflowing request: it is refused). */
#ifndef VM_BIGALLOC_H
#define VM_BIGALLOC_H

#include <stddef.h>

enum { VM_BIGALLOC_CALLOC = 0, VM_BIGALLOC_HUGE = 1, VM_BIGALLOC_POPULATE = 2 };

/* 64 MB: below it calloc.  glibc's calloc maps a fresh region for each request above its dynamic
 * mmap threshold (at most 32 MB), so from there on calloc pays the first touch on every call as
 * well and a mapping only makes it cheaper (N = 2^18: the disk's numeric factorization 1.7-3.3 s
 * -> 0.72-1.15 s).  Below, calloc can hand back pages freed by an earlier solve of the same
 * process; with the threshold at 4 MB the disk at N = 4096 (an 18 MB band, 9 solves in one
 * process) factored 10-40 % slower (bench/skg_limit.c). */
#define VM_BIGALLOC_MIN ((size_t) 64 << 20)
/* 512 MB: from here on populated 4 kB pages.  The disk in C (vm_skg_solve, everything from
 * 64 MB on either on huge pages or populated), alternating runs: at N = 2^16 (a 230 MB band)
 * huge pages 0.62 s against 0.68-0.69 s populated; at 2^18 (0.92 GB) 2.73-3.72 s against
 * 2.81-2.88 s; at 2^20 (3.7 GB) 16.5-19.9 s against 14.8-15.1 s. */
#define VM_BIGALLOC_POPULATE_MIN ((size_t) 512 << 20)

void *vm_bigalloc_zero (size_t count, size_t size);
/* vm_bigalloc_lazy (count, size): as vm_bigalloc_zero, but from VM_BIGALLOC_MIN on always a
 * mapping whose pages come at their first touch (huge pages advised), never populated: for an
 * array of which only a part may be written (the packed U of linsolve_band.c's U-only band), whose
 * untouched pages cost neither memory nor clearing.  Freed by vm_bigalloc_free. */
void *vm_bigalloc_lazy (size_t count, size_t size);
void vm_bigalloc_free (void *p, size_t count, size_t size);
int vm_bigalloc_kind (size_t count, size_t size);

#endif
