/* vmtest.h -- a minimal unit-test harness for the varmech C library (no Octave involved).
 * Each CHECK counts one passed or failed check; vmtest_finish prints "N passed, N failed" and
 * returns the exit status (non-zero on any failure). */
#ifndef VMTEST_H
#define VMTEST_H

#include <stdio.h>

static long vmtest_passed = 0, vmtest_failed = 0;

#define CHECK(cond, ...)                                                        \
  do {                                                                          \
    if (cond)                                                                   \
      vmtest_passed++;                                                          \
    else                                                                        \
      {                                                                         \
        vmtest_failed++;                                                        \
        fprintf (stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);        \
        fprintf (stderr, __VA_ARGS__);                                          \
        fputc ('\n', stderr);                                                   \
      }                                                                         \
  } while (0)

static int
vmtest_finish (const char *name)
{
  printf ("%s: %ld passed, %ld failed\n", name, vmtest_passed, vmtest_failed);
  return vmtest_failed ? 1 : 0;
}

#endif
