/* test_scratch.c -- vm_scratch.h: blocks usable and aligned; a freed block of VM_SCRATCH_MIN bytes
 * or more kept and handed out again to a request it fits (at least the request, at most twice
 * it), not to one it does not fit; small and oversized blocks never kept; the pool held within
 * VM_SCRATCH_KEEP bytes and VM_SCRATCH_SLOTS blocks, the newest block kept; release frees all;
 * blocks from VM_SCRATCH_MAP_MIN on start in the first huge page of their mapping (Linux), kept
 * and released like the others. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/vm_scratch.h"
#include "vmtest.h"

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifdef TEST_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* p is aligned for doubles and 64-bit integers, and bytes of it can be written and read back */
static int
usable (void *p, size_t bytes)
{
  unsigned char *c = p;
  if (! p || (uintptr_t) p % sizeof (double) != 0 || (uintptr_t) p % sizeof (int64_t) != 0)
    return 0;
  memset (c, 0xA5, bytes);
  return c[0] == 0xA5 && c[bytes / 2] == 0xA5 && c[bytes - 1] == 0xA5;
}

int
main (void)
{
  const size_t big = VM_SCRATCH_MIN + 1000, small = VM_SCRATCH_MIN - 1;
  void *a, *b, *c, *blocks[VM_SCRATCH_SLOTS + 2];
  size_t kept;
  int n, i;

  vm_scratch_release ();
  CHECK (vm_scratch_kept (&n) == 0 && n == 0, "an empty pool at the start");
  a = vm_scratch_alloc (0);
  CHECK (usable (a, 1), "a request of 0 bytes gives a usable block of 1");
  vm_scratch_free (a);
  vm_scratch_free (NULL);   /* ignored */
  CHECK (vm_scratch_alloc (SIZE_MAX - 8) == NULL, "an overflowing request is refused");

  /* small blocks are the C library's: never kept */
  a = vm_scratch_alloc (small);
  CHECK (usable (a, small), "small block usable");
  vm_scratch_free (a);
  CHECK (vm_scratch_kept (&n) == 0 && n == 0, "a small block is not kept");

  /* a large block is kept, and handed out again to a request it fits */
  a = vm_scratch_alloc (big);
  CHECK (usable (a, big), "large block usable");
  vm_scratch_free (a);
  kept = vm_scratch_kept (&n);
  CHECK (kept == big && n == 1, "a large block is kept: %zu bytes in %d blocks", kept, n);
  b = vm_scratch_alloc (big - 500);
  CHECK (b == a && vm_scratch_kept (&n) == 0 && n == 0, "the kept block serves a request it fits");
  CHECK (usable (b, big - 500), "the reused block is usable to the request (under AddressSanitizer "
         "the rest of it is poisoned)");
  vm_scratch_free (b);
  c = vm_scratch_alloc (big + 1);   /* larger than the kept block */
  CHECK (c != a && vm_scratch_kept (&n) == big && n == 1, "a smaller kept block is not used");
  vm_scratch_free (c);
  CHECK (vm_scratch_kept (&n) == 2 * big + 1 && n == 2, "both kept: %d blocks", n);
  b = vm_scratch_alloc (big);   /* the best fit of the two: a, not c */
  CHECK (b == a, "the smallest block that fits is used");
  vm_scratch_free (b);
  vm_scratch_release ();
  CHECK (vm_scratch_kept (&n) == 0 && n == 0, "release empties the pool");

  /* a block more than twice the request is left for a request it fits better */
  a = vm_scratch_alloc (3 * VM_SCRATCH_MIN);
  vm_scratch_free (a);
  b = vm_scratch_alloc (VM_SCRATCH_MIN + 1);
  CHECK (b != a && vm_scratch_kept (&n) == 3 * VM_SCRATCH_MIN && n == 1,
         "a block of more than twice the request is not used");
  vm_scratch_free (b);
  vm_scratch_release ();

  /* an oversized block is never kept */
  a = vm_scratch_alloc (VM_SCRATCH_KEEP + 1);
  CHECK (a != NULL, "an oversized block is allocated");
  vm_scratch_free (a);
  CHECK (vm_scratch_kept (&n) == 0 && n == 0, "an oversized block is not kept");

  /* more blocks than slots: the pool keeps VM_SCRATCH_SLOTS, the newest among them */
  for (i = 0; i < VM_SCRATCH_SLOTS + 2; i++)
    blocks[i] = vm_scratch_alloc (VM_SCRATCH_MIN);
  for (i = 0; i < VM_SCRATCH_SLOTS + 2; i++)
    vm_scratch_free (blocks[i]);
  kept = vm_scratch_kept (&n);
  CHECK (n == VM_SCRATCH_SLOTS && kept == VM_SCRATCH_SLOTS * VM_SCRATCH_MIN,
         "slots: %d blocks, %zu bytes kept", n, kept);
  a = vm_scratch_alloc (VM_SCRATCH_MIN);
  for (i = 0; i < VM_SCRATCH_SLOTS + 2 && blocks[i] != a; i++)
    ;
  CHECK (i < VM_SCRATCH_SLOTS + 2, "a kept block is one of those freed");
  vm_scratch_free (a);
  vm_scratch_release ();

  /* more bytes than VM_SCRATCH_KEEP: older blocks go, the newest stays */
  a = vm_scratch_alloc (VM_SCRATCH_KEEP / 2 + 1);
  b = vm_scratch_alloc (VM_SCRATCH_KEEP / 2 + 1);
  CHECK (usable (a, VM_SCRATCH_KEEP / 2 + 1) && usable (b, VM_SCRATCH_KEEP / 2 + 1),
         "two half-pool blocks usable");
  vm_scratch_free (a);
  vm_scratch_free (b);
  kept = vm_scratch_kept (&n);
  CHECK (n == 1 && kept == VM_SCRATCH_KEEP / 2 + 1, "within the byte budget: %d blocks, %zu bytes",
         n, kept);
  c = vm_scratch_alloc (VM_SCRATCH_KEEP / 2 + 1);
  CHECK (c == b, "the newest block is the one kept");
  vm_scratch_free (c);
  vm_scratch_release ();

  /* mapped blocks (from VM_SCRATCH_MAP_MIN on): usable to the last byte, their data within 64
   * bytes of a huge page's start (the header before it), kept and handed out again, released;
   * one just below the size, the C library's, usable as well */
  a = vm_scratch_alloc (VM_SCRATCH_MAP_MIN - 1);
  b = vm_scratch_alloc (VM_SCRATCH_MAP_MIN);
  c = vm_scratch_alloc (VM_SCRATCH_KEEP + 1);   /* mapped, never kept */
  CHECK (usable (a, VM_SCRATCH_MAP_MIN - 1) && usable (b, VM_SCRATCH_MAP_MIN)
         && usable (c, VM_SCRATCH_KEEP + 1), "blocks around VM_SCRATCH_MAP_MIN usable");
#if defined(__linux__)
  CHECK ((uintptr_t) b % ((size_t) 2 << 20) < 64 && (uintptr_t) c % ((size_t) 2 << 20) < 64,
         "a mapped block starts in the first 64 bytes of a huge page");
#endif
  vm_scratch_free (c);
  vm_scratch_free (b);
  vm_scratch_free (a);
  CHECK (vm_scratch_kept (&n) == 2 * VM_SCRATCH_MAP_MIN - 1 && n == 2,
         "both kept, the oversized one not: %d blocks", n);
  c = vm_scratch_alloc (VM_SCRATCH_MAP_MIN);
  CHECK (c == b && usable (c, VM_SCRATCH_MAP_MIN), "the kept mapped block serves again");
  vm_scratch_free (c);
#ifdef TEST_ASAN
  /* under AddressSanitizer a kept block is poisoned, a block handed out unpoisoned up to the
   * request only (a use after free and an overrun are reported) */
  CHECK (__asan_address_is_poisoned (c) && __asan_address_is_poisoned ((char *) c + 100),
         "a kept block is poisoned");
  vm_scratch_release ();
  c = vm_scratch_alloc (VM_SCRATCH_MAP_MIN);
  vm_scratch_free (c);
  a = vm_scratch_alloc (VM_SCRATCH_MAP_MIN - 96);
  CHECK (a == c && ! __asan_address_is_poisoned (a)
         && ! __asan_address_is_poisoned ((char *) a + VM_SCRATCH_MAP_MIN - 97)
         && __asan_address_is_poisoned ((char *) a + VM_SCRATCH_MAP_MIN - 96),
         "a block handed out again is unpoisoned up to the request");
  vm_scratch_free (a);
#endif
  vm_scratch_release ();
  CHECK (vm_scratch_kept (&n) == 0 && n == 0, "release at the end");
  return vmtest_finish ("test_scratch");
}
