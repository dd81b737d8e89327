/* vm_print.c -- progress lines of the solvers (vm_print.h). */
#include <stdarg.h>
#include <stdio.h>

#include "base/vm_print.h"

void
vm_printf (vm_print_fn print, void *ctx, const char *fmt, ...)
{
  char line[VM_PRINT_LINE];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  if (print)
    print (ctx, line);
  else
    {
      fputs (line, stdout);
      fflush (stdout);
    }
}
