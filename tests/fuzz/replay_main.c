/* replay_main.c -- run the fuzzing target on files (a corpus replay without libFuzzer).
 * Usage: replay FILE...   Prints "replay: N passed, 0 failed" (a crash aborts the process). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
main (int argc, char **argv)
{
  int k, n = 0;
  for (k = 1; k < argc; k++)
    {
      FILE *f = fopen (argv[k], "rb");
      uint8_t *buf;
      long len;
      if (! f)
        {
          fprintf (stderr, "replay: cannot open %s\n", argv[k]);
          return 1;
        }
      fseek (f, 0, SEEK_END);
      len = ftell (f);
      fseek (f, 0, SEEK_SET);
      buf = malloc (len > 0 ? (size_t) len : 1);
      if (! buf || (len > 0 && fread (buf, 1, (size_t) len, f) != (size_t) len))
        {
          fprintf (stderr, "replay: cannot read %s\n", argv[k]);
          fclose (f);
          free (buf);
          return 1;
        }
      fclose (f);
      LLVMFuzzerTestOneInput (buf, (size_t) len);
      free (buf);
      n++;
    }
  printf ("fuzz corpus replay: %d passed, 0 failed\n", n);
  return 0;
}
