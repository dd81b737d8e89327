% -*- texinfo -*-
% @deftypefn {} {@var{bytes} =} vm_available_memory ()
% The memory available to the process in bytes: MemAvailable of @file{/proc/meminfo} (Linux; a
% read of a few microseconds), else @code{memory} (Octave elsewhere; MATLAB on Windows; about
% 4 ms in Octave), else Inf (unknown: nothing is refused).
% @end deftypefn

function bytes = vm_available_memory ()
  bytes = Inf;
  fid = fopen ('/proc/meminfo', 'r');
  if (fid >= 0)
    txt = fread (fid, Inf, 'char=>char')';
    fclose (fid);
    tok = regexp (txt, 'MemAvailable:\s*(\d+)\s*kB', 'tokens', 'once');
    if (~isempty (tok))
      bytes = 1024 * str2double (tok{1});
      return;
    end
  end
  try
    [~, sys] = memory ();
    bytes = sys.PhysicalMemory.Available;
  catch
  end
end
