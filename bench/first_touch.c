/* first_touch.c -- what the first touch of fresh memory costs on this machine: an anonymous
 * mapping of S MB, one write per 4 kB page, unmapped; three rounds per kind in one process (the
 * first round of a kind can also pay for memory the machine has not used before).  Kinds: 4 kB
 * pages faulted one by one, 4 kB pages populated by the mmap call (MAP_POPULATE), and 2 MB
 * pages (the mapping aligned to 2 MB and advised MADV_HUGEPAGE, as csrc/base/vm_bigalloc.c maps).
 * Why: the allocation strategy of csrc/base/vm_scratch.h and csrc/base/vm_bigalloc.h follows from these
 * figures (bench/README_dual.md, "the fifth session of 2026-11-28": on the CI's virtual machines
 * 2.6-3.0 ms per MB in 4 kB pages, 0.04-0.07 ms per MB in huge pages).  Linux only.
 *
 * Usage: first_touch [S ...]   (sizes in MB, default 4 16 64 512)
 * Build: make first_touch */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double
wall (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* seconds to map bytes of the given kind (0: 4 kB, 1: populated, 2: huge), touch and unmap */
static double
touch (size_t bytes, int kind)
{
  const size_t huge = (size_t) 2 << 20;
  size_t i, len = bytes + (kind == 2 ? huge : 0);
  double t = wall ();
  char *p = mmap (NULL, len, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | (kind == 1 ? MAP_POPULATE : 0), -1, 0), *a;
  if (p == MAP_FAILED)
    return -1.0;
  a = kind == 2 ? p + (huge - (uintptr_t) p % huge) % huge : p;
  if (kind == 2)
    (void) madvise (a, bytes, MADV_HUGEPAGE);
  for (i = 0; i < bytes; i += 4096)
    a[i] = 1;
  t = wall () - t;
  munmap (p, len);
  return t;
}

int
main (int argc, char **argv)
{
  static const char *name[3] = { "4 kB pages", "4 kB, MAP_POPULATE", "2 MB pages (advised)" };
  static const double dflt[4] = { 4, 16, 64, 512 };
  const int ns = argc > 1 ? argc - 1 : 4;
  int s, k, r;
  printf ("%-22s %8s   ms per MB in rounds 1, 2, 3\n", "kind", "MB");
  for (s = 0; s < ns; s++)
    {
      const double mb = argc > 1 ? atof (argv[s + 1]) : dflt[s];
      const size_t bytes = (size_t) (mb * 1048576.0);
      if (! (mb > 0))
        {
          fprintf (stderr, "first_touch: %s: the sizes are positive numbers of MB\n", argv[s + 1]);
          return 1;
        }
      for (k = 0; k < 3; k++)
        {
          printf ("%-22s %8.0f  ", name[k], mb);
          for (r = 0; r < 3; r++)
            {
              const double t = touch (bytes, k);
              if (t < 0)
                printf ("  (mmap failed)");
              else
                printf ("  %6.3f", 1e3 * t / mb);
            }
          printf ("\n");
        }
    }
  return 0;
}
