/* vm_scratch.c -- large work arrays kept between solves for reuse (vm_scratch.h). */
#if (defined(__unix__) || defined(__APPLE__)) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdint.h>
#include <stdlib.h>

#include "base/vm_bigalloc.h"
#include "base/vm_scratch.h"

/* Under AddressSanitizer a kept block is poisoned (a use after vm_scratch_free is reported as
 * with free), and a block handed out is unpoisoned up to the request only (an overrun beyond it
 * is reported as with malloc) */
#if defined(__SANITIZE_ADDRESS__)
#define VM_SCRATCH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VM_SCRATCH_ASAN 1
#endif
#endif
#ifdef VM_SCRATCH_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION ((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION ((p), (n))
#else
#define POISON(p, n) ((void) 0)
#define UNPOISON(p, n) ((void) 0)
#endif

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define VM_SCRATCH_POOL 1
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#define LOCK() pthread_mutex_lock (&lock)
#define UNLOCK() pthread_mutex_unlock (&lock)
#else
#define VM_SCRATCH_POOL 0   /* no mutex: nothing kept */
#define LOCK() ((void) 0)
#define UNLOCK() ((void) 0)
#endif

/* The header before each block: its usable size, and whether it is a mapping of vm_bigalloc_map
 * (else malloc's); aligned as malloc aligns */
typedef union
{
  struct { size_t n; size_t map; } s;
  long double ld;
  long long ll;
  void *p;
} header;

static void *kept[VM_SCRATCH_SLOTS];   /* the kept blocks (their headers), NULL: a free slot */
static size_t kept_bytes;

static size_t
size_of (void *block)
{
  return ((header *) block)->s.n;
}

/* The kept block that fits bytes best (the smallest of size in [bytes, 2 bytes]), taken out of
 * the pool; NULL if none */
static void *
take (size_t bytes)
{
  int i, best = -1;
  void *b;
  for (i = 0; i < VM_SCRATCH_SLOTS; i++)
    if (kept[i] && size_of (kept[i]) >= bytes && size_of (kept[i]) / 2 <= bytes
        && (best < 0 || size_of (kept[i]) < size_of (kept[best])))
      best = i;
  if (best < 0)
    return NULL;
  b = kept[best];
  kept[best] = NULL;
  kept_bytes -= size_of (b);
  return b;
}

/* a block (its header) back to the C library or the system */
static void
give_back (void *block)
{
  header *h = block;
  if (! h)
    return;
  UNPOISON (h + 1, h->s.n);
  if (h->s.map)
    vm_bigalloc_unmap (h, sizeof (header) + h->s.n);
  else
    free (h);
}

void *
vm_scratch_alloc (size_t bytes)
{
  void *b = NULL;
  if (bytes < 1)
    bytes = 1;
  if (bytes > SIZE_MAX - sizeof (header))
    return NULL;
  if (VM_SCRATCH_POOL && bytes >= VM_SCRATCH_MIN && bytes <= VM_SCRATCH_KEEP)
    {
      LOCK ();
      b = take (bytes);
      UNLOCK ();
      if (b)
        UNPOISON ((header *) b + 1, bytes);
    }
  if (! b)
    {
      const int map = bytes >= VM_SCRATCH_MAP_MIN;
      b = map ? vm_bigalloc_map (sizeof (header) + bytes) : malloc (sizeof (header) + bytes);
      if (! b)
        return NULL;
      ((header *) b)->s.n = bytes;
      ((header *) b)->s.map = (size_t) map;
    }
  return (header *) b + 1;
}

void
vm_scratch_free (void *p)
{
  header *b;
  int i;
  if (! p)
    return;
  b = (header *) p - 1;
  if (VM_SCRATCH_POOL && b->s.n >= VM_SCRATCH_MIN && b->s.n <= VM_SCRATCH_KEEP)
    {
      void *evict[VM_SCRATCH_SLOTS];
      int ne = 0;
      LOCK ();
      /* the newest block is kept: while it does not fit (in bytes, or in a free slot), a kept
       * block goes to the C library (after the lock).  Ends: each pass places b or evicts one
       * block, and with none kept b fits (b->s.n <= VM_SCRATCH_KEEP). */
      while (b)
        {
          int slot = -1, victim = -1;
          for (i = 0; i < VM_SCRATCH_SLOTS; i++)
            if (! kept[i])
              slot = slot < 0 ? i : slot;
            else
              victim = victim < 0 ? i : victim;
          if (slot >= 0 && kept_bytes + b->s.n <= VM_SCRATCH_KEEP)
            {
              POISON (b + 1, b->s.n);
              kept[slot] = b;
              kept_bytes += b->s.n;
              b = NULL;
            }
          else
            {
              evict[ne++] = kept[victim];
              kept_bytes -= size_of (kept[victim]);
              kept[victim] = NULL;
            }
        }
      UNLOCK ();
      for (i = 0; i < ne; i++)
        give_back (evict[i]);
    }
  give_back (b);
}

void
vm_scratch_release (void)
{
  int i;
  LOCK ();
  for (i = 0; i < VM_SCRATCH_SLOTS; i++)
    {
      give_back (kept[i]);
      kept[i] = NULL;
    }
  kept_bytes = 0;
  UNLOCK ();
}

size_t
vm_scratch_kept (int *nblocks)
{
  size_t bytes;
  int i, n = 0;
  LOCK ();
  for (i = 0; i < VM_SCRATCH_SLOTS; i++)
    n += kept[i] != NULL;
  bytes = kept_bytes;
  UNLOCK ();
  if (nblocks)
    *nblocks = n;
  return bytes;
}
