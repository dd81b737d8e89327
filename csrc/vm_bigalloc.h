/* vm_bigalloc.h -- zeroed allocation of large work arrays (the band of the banded LU) on
 * transparent huge pages where the system offers them (plain C99 interface).
 *
 * Why: the first touch of a fresh page costs a page fault and the kernel's clearing of the page.
 * For the band of the SKG disk at N = 2^20 (4.6 GB, 1.1 million 4 kB pages) those faults took
 * about 6 s of an 11 s factorization (perf, bench/README_band.md "N = 2^20").  On Linux a private
 * anonymous mapping advised with MADV_HUGEPAGE is faulted in 2 MB pages (512 times fewer
 * faults) when transparent huge pages are enabled in "madvise" or "always" mode; where they are
 * not ("never", another system, or a failed mmap) this is calloc, with the same semantics.
 *
 * vm_bigalloc_zero (count, size): count * size zero bytes, aligned for any type, or NULL (also on
 *   overflow of count * size).  Requests below VM_BIGALLOC_MIN bytes always go to calloc: huge
 *   pages only pay for arrays that span many of them.
 * vm_bigalloc_free (p, count, size): frees p, which came from vm_bigalloc_zero with the same
 *   count and size (NULL is ignored).  The caller keeps the count: a mapping is unmapped by its
 *   length. */
#ifndef VM_BIGALLOC_H
#define VM_BIGALLOC_H

#include <stddef.h>

/* 64 MB: below it calloc.  glibc's calloc maps a fresh region for each request above its dynamic
 * mmap threshold (at most 32 MB), so from there on calloc pays the first touch on every call as
 * well and the mapping only makes it cheaper (N = 2^18: the disk's numeric factorization 1.7-3.3 s
 * -> 0.72-1.15 s).  Below, calloc can hand back pages freed by an earlier solve of the same
 * process; with the threshold at 4 MB the disk at N = 4096 (an 18 MB band, 9 solves in one
 * process) factored 10-40 % slower (bench/skg_limit.c). */
#define VM_BIGALLOC_MIN ((size_t) 64 << 20)

void *vm_bigalloc_zero (size_t count, size_t size);
void vm_bigalloc_free (void *p, size_t count, size_t size);
/* 1 when vm_bigalloc_zero (count, size) is served by an advised mapping (Linux, large enough) */
int vm_bigalloc_mapped (size_t count, size_t size);

#endif
