/* vm_print.h -- progress lines of the solvers (plain C99).
 *
 * The drivers (march_run.c, dual_slabs.c) print their progress through a caller's callback, so that a
 * gateway can route it to Octave's or MATLAB's command window (mexPrintf, flushed) and a C program
 * to stdout. */
#ifndef VM_PRINT_H
#define VM_PRINT_H

/* Where a line goes: called with the caller's context and one formatted line (with its '\n'). */
typedef void (*vm_print_fn) (void *ctx, const char *line);

/* Format one line (at most VM_PRINT_LINE - 1 characters; longer ones are cut) and hand it to
 * print with ctx, or, when print is NULL, write it to stdout and flush. */
void vm_printf (vm_print_fn print, void *ctx, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__ ((format (printf, 3, 4)))
#endif
  ;

#define VM_PRINT_LINE 600

#endif
