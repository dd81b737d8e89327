/* vm_scratch.h -- large work arrays kept between solves of one process for reuse (plain C99; a
 * POSIX mutex where available).
 *
 * Why: a solve allocates its large arrays afresh and frees them at its end, and the C library
 * returns memory of that size to the system at once (glibc: a block above its mmap threshold is
 * unmapped when freed, and free memory at the top of the heap beyond its trim threshold is
 * trimmed), so the next solve touches fresh pages again: a page fault and the kernel's clearing
 * for every 4 kB.  A process that solves many times (a parameter sweep, the marching windows, a
 * benchmark) would pay that on every solve.  The arrays of a solve whose size grows with N come
 * from here instead: the dual's discretization (csrc/dual: the Hessian pattern, the per-node
 * arrays), Newton's Jacobian values and vectors (newton_run.c), the Cholesky band (linsolve_chol.c),
 * the banded LU's scales, pivots and relabeling (linsolve_band.c), the SKG discretization's
 * per-node arrays, tape points and pattern (skg.c, skg_pattern.c, skg_plan.c, skg_system.c), the
 * march's windows and output (march_run.c, march_record.c) and the SKG solution's arrays (vm_skg_solution_free gives
 * them back).  A block freed to the pool is kept (up to VM_SCRATCH_KEEP bytes in all,
 * VM_SCRATCH_SLOTS blocks) and handed out again to a request it fits (its size at least the
 * request and at most twice it), with its pages already mapped.  An array moves here only
 * together with the other arrays of its solve: one array alone here no longer raises glibc's
 * dynamic mmap threshold when it is freed, and the solve's remaining arrays then fault on every
 * solve.  The band itself and the banded LU's U stay vm_bigalloc.h's (not kept: up to gigabytes,
 * touched only in part).  Measurements: bench/README_dual.md and bench/README_skg.md
 * (bench/dual_faults.m, bench/dual_limit.c, bench/skg_limit.c).
 *
 * Under AddressSanitizer a kept block is poisoned and a block handed out is unpoisoned up to the
 * request only, so that a use after vm_scratch_free and an overrun of the request are reported as
 * with malloc and free (tests/c/test_scratch.c).
 *
 * vm_scratch_alloc (bytes): a block of at least bytes (at least 1), aligned for any type, not
 *   zeroed; NULL when out of memory.  Below VM_SCRATCH_MIN bytes, or above VM_SCRATCH_KEEP, it is
 *   never kept.  A new block (none kept fits) is the C library's (with a small header) below
 *   VM_SCRATCH_MAP_MIN bytes, and from there on a mapping in huge pages (vm_bigalloc_map), whose
 *   first touch costs a fault per 2 MB instead of per 4 kB.
 * vm_scratch_free (p): keeps p (from vm_scratch_alloc; NULL is ignored) in the pool, the newest
 *   block first: when it would hold more than VM_SCRATCH_KEEP bytes or VM_SCRATCH_SLOTS blocks,
 *   kept blocks go back to the C library until p fits.  A block below VM_SCRATCH_MIN bytes or
 *   above VM_SCRATCH_KEEP goes back to the C library at once.
 * vm_scratch_release (): frees every kept block (the gateways call it when they are unloaded,
 *   mexAtExit; a long-running C program may call it after its solves).
 * vm_scratch_kept (&nblocks): the bytes kept in the pool now (nblocks: NULL, or receives the
 *   number of blocks).
 *
 * Memory: after a solve the pool holds up to VM_SCRATCH_KEEP bytes until the next solve reuses
 * them or vm_scratch_release frees them; a request larger than that is never kept.  Thread safety:
 * the pool is shared by the threads of the process, behind a mutex on POSIX systems; without
 * POSIX threads nothing is kept (every call is the C library's). */
#ifndef VM_SCRATCH_H
#define VM_SCRATCH_H

#include <stddef.h>

/* 64 kB: smaller blocks come from the C library's free lists, which keep them (below glibc's
 * mmap threshold, 128 kB at least, and the trimming of the heap's top) */
#define VM_SCRATCH_MIN ((size_t) 64 << 10)
/* 256 MB in all: enough to keep every large array of a solve up to N = 65536 of the dual Lorenz
 * (all but those from 64 MB on, which are vm_bigalloc.h's), so that repeated solves of that size
 * reuse their Jacobian values and Cholesky band instead of faulting them in afresh.  The price:
 * that memory stays allocated until the next solve or vm_scratch_release. */
#define VM_SCRATCH_KEEP ((size_t) 256 << 20)
/* 2 MB, one huge page: from here on a new block is mapped in huge pages (vm_bigalloc.h), whose
 * first touch costs one fault per 2 MB.  Blocks of the C library below: glibc serves those from
 * its heap or from fresh 4 kB mappings. */
#define VM_SCRATCH_MAP_MIN ((size_t) 2 << 20)
#define VM_SCRATCH_SLOTS 64

void *vm_scratch_alloc (size_t bytes);
void vm_scratch_free (void *p);
void vm_scratch_release (void);
size_t vm_scratch_kept (int *nblocks);

#endif
