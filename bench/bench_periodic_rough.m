% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} bench_periodic_rough ()
% @deftypefnx {} {@var{r} =} bench_periodic_rough (@var{phases})
% @deftypefnx {} {@var{r} =} bench_periodic_rough (@var{phases}, @var{systems})
% @deftypefnx {} {@var{r} =} bench_periodic_rough (@var{phases}, @var{systems}, @var{eps0})
% @deftypefnx {} {@var{r} =} bench_periodic_rough (@var{phases}, @var{systems}, @var{eps0}, @var{which})
% @code{periodic_orbit} (defaults) from rough guesses (@file{bench/periodic_rough_cases.m}): for
% each reference orbit of each system in @var{systems} (default @code{@{'lorenz', 'rossler',
% 'hyperrossler'@}}: the 69 Lorenz orbits of symbol length 2 to 8, three Rossler orbits, two of
% the 4-state hyperchaotic Rossler system) and each start phase in @var{phases} (default [0.1
% 0.35 0.6 0.85], fractions of the period), a stretch of trajectory (@code{ode45}) from the
% orbit's point there, moved off it, run for (1 + dT) T with dT = 0.02 cos (2.4 j + 7 phase).
% The offset: without @var{eps0}, such that every state of the stretch is within 1e-3 of the
% attractor's size of the orbit (the issue's rough guess); with @var{eps0}, @var{eps0} times the
% attractor's size at the start (the stretch then strays by up to the orbit's unstable
% multiplier times that).  @var{which}: the reference orbits taken (indices, default all; the ten
% shortest distinct Lorenz periods are [1 2 4 5 7 8 9 13 14 16]).  A case converges when exitflag
% is 1 and the period agrees with the reference to 2 PeriodTol.  Printed per case: the orbit, the
% phase, dT, the guess's largest
% distance from the orbit, whether it converged, the seconds and the message; then the count
% per system (and, for Lorenz, per symbol length) and the mean and largest time.
% @var{r}: a struct array with fields @code{system}, @code{name}, @code{T}, @code{phase},
% @code{dT}, @code{ok}, @code{time}, @code{far}, @code{message}.  No timing is asserted.
% @end deftypefn

function r = bench_periodic_rough (phases, systems, eps0, which)
  if (nargin < 1 || isempty (phases))
    phases = [0.1 0.35 0.6 0.85];
  end
  if (nargin < 2 || isempty (systems))
    systems = {'lorenz', 'rossler', 'hyperrossler'};
  end
  extra = {};
  if (nargin >= 3 && ~isempty (eps0))
    extra = {eps0};
  end
  r = struct ('system', {}, 'name', {}, 'T', {}, 'phase', {}, 'dT', {}, 'ok', {}, 'time', {}, ...
              'far', {}, 'message', {});
  for q = 1:numel (systems)
    if (nargin >= 4 && ~isempty (which))
      c = periodic_rough_cases (systems{q}, which);
    else
      c = periodic_rough_cases (systems{q});
    end
    for j = 1:numel (c.refs)
      ref = c.refs{j};
      for ph = phases
        dT = c.dT (ph, j);
        [tg, yg, far] = c.guess (ref, ph, j, dT, extra{:});
        s = periodic_orbit (c.sys, tg, yg);
        ok = s.exitflag == 1 && abs (s.T - ref.T) <= 2 * 1e-10 * ref.T;
        r(end + 1) = struct ('system', systems{q}, 'name', ref.name, 'T', ref.T, 'phase', ph, ...
                             'dT', dT, 'ok', ok, 'time', s.time, 'far', far, ...
                             'message', s.message); %#ok<AGROW>
        fprintf ('%-12s %-9s phase %.2f dT %+.3f off %.2g  %-9s %6.1f s: %s\n', systems{q}, ...
                 ref.name, ph, dT, far, ifelse_str (ok), s.time, s.message(1:min (end, 80)));
      end
    end
    in = strcmp ({r.system}, systems{q});
    fprintf ('bench_periodic_rough: %s: %d of %d converged (%.1f %%), %.2f s mean, %.1f s largest\n', ...
             systems{q}, sum ([r(in).ok]), sum (in), 100 * mean ([r(in).ok]), mean ([r(in).time]), ...
             max ([r(in).time]));
    if (strcmp (systems{q}, 'lorenz'))
      len = cellfun (@numel, {r.name});
      for L = unique (len(in))
        k = in & len == L;
        fprintf ('  length %d: %d of %d\n', L, sum ([r(k).ok]), sum (k));
      end
    end
  end
end

function s = ifelse_str (ok)
  if (ok)
    s = 'converged';
  else
    s = 'FAILED';
  end
end
