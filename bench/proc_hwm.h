/* proc_hwm.h -- the process's peak resident memory for the benchmarks' C drivers (skg_limit.c,
 * dual_limit.c): VmHWM of /proc/self/status in kB (Linux), or -1 elsewhere. */
#ifndef VM_BENCH_PROC_HWM_H
#define VM_BENCH_PROC_HWM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long
vm_hwm_kb (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  if (! f)
    return -1;
  while (fgets (line, sizeof line, f))
    if (! strncmp (line, "VmHWM:", 6))
      kb = atol (line + 6);
  fclose (f);
  return kb;
}

#endif
