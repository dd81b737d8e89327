% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} bench_periodic_catalogue ()
% @deftypefnx {} {@var{r} =} bench_periodic_catalogue (@var{L}, @var{Lpeer})
% The Lorenz (10, 28, 8/3) catalogue of @code{periodic_catalogue} up to symbol length @var{L}
% (default 10: 224 orbits; section z = 27 upwards, symbol x), its time, and the time per orbit
% against a shooting peer measured in the same run.
%
% (1) @code{periodic_catalogue} with its defaults (chunks in parallel where the parallel package
%     loads): the wall time, the orbits found per length against the number of prime words, and
%     every period against the multiple-shooting tables @file{bench/lorenz_periods.txt} (lengths
%     2 to 8) and @file{bench/lorenz_periods_9_10.txt} (9 and 10) where they have the word (the
%     largest relative difference is printed).
% (2) Per orbit, for every word up to length @var{Lpeer} (default 7): the catalogue's time for
%     the word (@code{orbits(k).time}: its guesses, @code{periodic_orbit} with the Floquet
%     multipliers, the check of the word) against the shooting peer @code{po_shoot} (multiple
%     shooting between the section crossings, Gragg-Bulirsch-Stoer order 12, Newton with the
%     variational equations, then again on steps of half the size for its error estimate) from
%     the best stretch of its own itinerary (@code{po_crossings} over 3000 time units,
%     @code{po_guess}), one process, the itinerary's time left out of both.  Printed: the median
%     ratio peer/catalogue per length and overall.  The peer stops at a step below 1e-11 relative;
%     the catalogue at PeriodTol 1e-10 of T and then integrates the period once more for the
%     closure and the multipliers.
% No timing is asserted.  @var{r}: @code{orbits}, @code{info}, @code{wall} (s), @code{maxdiff},
% @code{peer} (word, t_catalogue, t_shoot, T difference).
% @end deftypefn

function r = bench_periodic_catalogue (L, Lpeer)
  if (nargin < 1 || isempty (L))
    L = 10;
  end
  if (nargin < 2 || isempty (Lpeer))
    Lpeer = 7;
  end
  lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
                'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
  t0 = tic;
  [orbits, info] = periodic_catalogue (lor, [1 1 1], 'Section', 'z - 27', 'Symbol', 'x', ...
                                       'MaxLength', L, 'Display', 'final');
  wall = toc (t0);
  fprintf ('catalogue up to length %d: %d of %d orbits in %.1f s wall (%d processes), %.1f s of solves\n', ...
           L, sum (info.found), numel (orbits), wall, info.processes, sum ([orbits.time]));

  % (1) periods against the shooting table
  C = {{}, []};
  for name = {'lorenz_periods.txt', 'lorenz_periods_9_10.txt'}
    file = fullfile (fileparts (mfilename ('fullpath')), name{1});
    if (exist (file, 'file') ~= 2)
      continue;
    end
    fid = fopen (file);
    D = textscan (fid, '%s %f %f %f %f %f %f', 'CommentStyle', '#');
    fclose (fid);
    C = {[C{1}; D{1}], [C{2}; D{2}]};
  end
  maxdiff = 0;
  compared = 0;
  for k = 1:numel (orbits)
    j = find (strcmp (C{1}, orbits(k).word));
    if (~isempty (j) && orbits(k).exitflag == 1)
      maxdiff = max (maxdiff, abs (orbits(k).T - C{2}(j)) / C{2}(j));
      compared = compared + 1;
    end
  end
  fprintf ('periods against the shooting table: %d compared, largest relative difference %.2g\n', ...
           compared, maxdiff);

  % (2) per orbit against the shooting peer
  [f, J, sec] = po_lorenz ();
  x = po_flow (f, [], [1; 1; 1], 10, 200);
  [tc, xc, w] = po_crossings (f, x, 3000, sec);
  peer = struct ('word', {}, 't_catalogue', {}, 't_shoot', {}, 'dT', {});
  for k = find (cellfun (@numel, {orbits.word}) <= Lpeer & [orbits.exitflag] == 1)
    o = orbits(k);
    t1 = tic;
    [X0, tt0] = po_guess (o.word, tc, xc, w, 1);
    po = po_shoot (f, J, X0, tt0, sec);
    ts = toc (t1);
    peer(end + 1) = struct ('word', o.word, 't_catalogue', o.time, 't_shoot', ts, ...
                            'dT', abs (po.T - o.T) / o.T); %#ok<AGROW>
  end
  fprintf ('\nper orbit: the catalogue against po_shoot (same process, itineraries left out)\n');
  fprintf ('%7s %7s %14s %14s %12s %12s\n', 'length', 'orbits', 'catalogue s', 'shooting s', ...
           'ratio (med)', 'max dT/T');
  len = cellfun (@numel, {peer.word});
  for q = unique (len)
    in = len == q;
    fprintf ('%7d %7d %14.2f %14.2f %12.2f %12.2g\n', q, sum (in), median ([peer(in).t_catalogue]), ...
             median ([peer(in).t_shoot]), median ([peer(in).t_shoot] ./ [peer(in).t_catalogue]), ...
             max ([peer(in).dT]));
  end
  fprintf ('%7s %7d %14.2f %14.2f %12.2f %12.2g\n', 'all', numel (peer), ...
           median ([peer.t_catalogue]), median ([peer.t_shoot]), ...
           median ([peer.t_shoot] ./ [peer.t_catalogue]), max ([peer.dT]));
  r = struct ('orbits', orbits, 'info', info, 'wall', wall, 'maxdiff', maxdiff, 'peer', peer);
end

