/* vm_scratch.h -- large work arrays kept between solves of one process for reuse (plain C99; a
 * POSIX mutex where available).
 *
 * Why: a solve allocates its large arrays afresh and frees them at its end, and the C library
 * returns memory of that size to the system at once (glibc: a block above its mmap threshold is
 * unmapped when freed, and free memory at the top of the heap beyond its trim threshold is
 * trimmed), so the next solve touches fresh pages again: a page fault and the kernel's clearing
 * for every 4 kB.  The dual Lorenz at N = 4096 in Octave: 2664 faults per solve, 3.5-4 ms of
 * 21 ms (bench/README_dual.md, "the second session of 2026-11-28").  A process that solves many times (a parameter
 * sweep, the marching windows, a benchmark) pays it on every solve.  The arrays of a solve whose
 * size grows with N come from here instead: the dual's discretization (dual.c: the Hessian
 * pattern, the per-node arrays), Newton's Jacobian values and vectors (newton.c), the Cholesky band
 * (linsolve_chol.c), the banded LU's scales, pivots and relabeling (linsolve_band.c), the SKG
 * discretization's per-node arrays, tape points and pattern (skg.c, skg_pattern.c, skg_plan.c,
 * skg_solve.c), the march's windows and output (march.c) and the SKG solution's arrays
 * (vm_skg_solution_free gives them back).  A block freed to the pool is kept (up to
 * VM_SCRATCH_KEEP bytes in all, VM_SCRATCH_SLOTS blocks) and handed out again to a request it fits
 * (its size at least the request and at most twice it), with its pages already mapped.  An array
 * moves here only together with the arrays that share its solve, and measured: the band alone
 * here (before the SKG arrays) no longer raised glibc's dynamic mmap threshold when freed, and the
 * SKG disk's other arrays at N = 4096 then faulted on every solve (27429 against 16892 faults in
 * 10 solves of bench/skg_limit.c, 20.4 against 17.3 ms).  With all of the SKG solve's arrays
 * here: the disk at N = 16384 0.124 -> 0.074 s, 65536 0.52-0.54 -> 0.30 s (skg_limit, best of 9),
 * at 2^18 the best of 3 4.0 -> 1.4-2.0 s, at 2^20 one solve 16.4-18.5 -> 11.2-14.0 s with the
 * peak 3.73 -> 3.83 GB (blocks kept in the pool during the solve); 1024 and 4096 unchanged
 * (bench/README_skg.md, "the sixth session of 2026-11-28").  The band itself and the banded LU's
 * U stay vm_bigalloc.h's (not kept: up to gigabytes, touched only in part).
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
/* 256 MB in all: after a solve of the dual Lorenz the pool holds 10 MB in 21 blocks at N = 4096
 * (its pattern 2.7, Jacobian values 2.7, Cholesky band 1.8, Newton's vectors 0.8, the per-node
 * arrays of the discretization), 0.4 MB at N = 256, 165 MB in 30 blocks at N = 65536 (all of a
 * solve's large arrays but those from 64 MB on, vm_bigalloc.h), 149 MB at N = 2^18.  With 64 MB
 * (before) it kept 36 MB at N = 65536, and every solve there faulted its Jacobian values and
 * Cholesky band in afresh: 9.7 % of the solve's time in page faults, a Newton iteration 50.0 ->
 * 46.3 ms with 256 MB (bench/dual_limit.c, the fastest of 4 solves; bench/README_dual.md, "the
 * fourth session of 2026-11-28").  The peaks: the dual at N = 2^20 2.77 -> 2.85 GB (blocks kept
 * during the solve that a later request does not fit), the SKG disk at 2^20 unchanged (3.73 GB). */
#define VM_SCRATCH_KEEP ((size_t) 256 << 20)
/* 2 MB, one huge page: from here on a new block is mapped in huge pages (vm_bigalloc.h).  The dual
 * Lorenz at N = 2^18, one solve in a fresh process (dual_limit 262144 1, alternating builds):
 * 2.9-4.3 -> 1.4-1.6 s end to end, 0.29-0.46 -> 0.18-0.21 s per Newton iteration; the SKG disk
 * at N = 16384 (skg_limit) 0.31-0.33 -> 0.15-0.16 s, and at 1024 and 4096, whose blocks are kept
 * between its solves, unchanged (bench/README_dual.md, "the fifth session of 2026-11-28").
 * Blocks of the C library below: glibc serves those from its heap or from fresh 4 kB mappings. */
#define VM_SCRATCH_MAP_MIN ((size_t) 2 << 20)
#define VM_SCRATCH_SLOTS 64

void *vm_scratch_alloc (size_t bytes);
void vm_scratch_free (void *p);
void vm_scratch_release (void);
size_t vm_scratch_kept (int *nblocks);

#endif
