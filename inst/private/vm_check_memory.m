% -*- texinfo -*-
% @deftypefn  {} {} vm_check_memory (@var{fname}, @var{need}, @var{unit}, @var{N}, @var{Ntot}, @var{advice})
% @deftypefnx {} {@var{bytes} =} vm_check_memory ()
% Refuse work that cannot fit before it is allocated: when the estimate @var{need} (bytes) exceeds
% a quarter of a GB and the memory available, raise @samp{varmech:@var{fname}:memory} with both
% figures, @var{N} nodes per @var{unit} ("window", "slab"), @var{Ntot} grid points and what to
% change (@var{advice}).  The memory available: MemAvailable of @file{/proc/meminfo} (Linux; a
% read of microseconds), else @code{memory} (Octave elsewhere; MATLAB on Windows; about 4 ms in
% Octave), else unknown (nothing is refused).  With no argument: the size from which it asks (a
% gateway given it refuses larger work itself, and its front end then calls this check).
% @end deftypefn

function bytes = vm_check_memory (fname, need, unit, N, Ntot, advice)
  ask = 2^28;   % a quarter of a GB: below it, not worth asking the system
  if (nargin == 0)
    bytes = ask;
    return;
  end
  if (need < ask)
    return;
  end
  avail = available ();
  if (need > avail)
    error (['varmech:' fname ':memory'], ['%s: N = %d nodes per %s (%d grid points) need about ' ...
           '%.3g GB (an estimate), more than the %.3g GB available; %s'], fname, N, unit, Ntot, ...
           need / 2^30, avail / 2^30, advice);
  end
end

function bytes = available ()
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
