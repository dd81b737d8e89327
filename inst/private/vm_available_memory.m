% -*- texinfo -*-
% @deftypefn {} {@var{bytes} =} vm_available_memory ()
% The memory available to the process in bytes: @code{memory} (Octave; MATLAB on Windows), else
% MemAvailable of @file{/proc/meminfo} (Linux), else Inf (unknown: nothing is refused).
% @end deftypefn

function bytes = vm_available_memory ()
  bytes = Inf;
  try
    [~, sys] = memory ();
    bytes = sys.PhysicalMemory.Available;
    return;
  catch
  end
  fid = fopen ('/proc/meminfo', 'r');
  if (fid < 0)
    return;
  end
  txt = fread (fid, Inf, 'char=>char')';
  fclose (fid);
  tok = regexp (txt, 'MemAvailable:\s*(\d+)\s*kB', 'tokens', 'once');
  if (~isempty (tok))
    bytes = 1024 * str2double (tok{1});
  end
end
