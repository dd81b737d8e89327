% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} bench_periodic_rough ()
% @deftypefnx {} {@var{r} =} bench_periodic_rough (@var{phases})
% @code{periodic_orbit} (defaults) from rough guesses on Lorenz (10, 28, 8/3): for each of the 10
% shortest orbits found from the candidates of @code{periodic_guesses}, and for each start phase
% in @var{phases} (default [0.1 0.35 0.6 0.85], fractions of the period), a stretch of
% trajectory (@code{ode45}) started 1e-3 of the attractor's size off the orbit and run for 1.01 T
% (@file{bench/periodic_rough_cases.m}).  A case converges when exitflag is 1 and the period
% agrees with the candidate's to 2 PeriodTol.  Printed per case: the period, the phase, whether
% it converged, the seconds, the guess's largest distance from the orbit and the message; then
% the count.  The larger set of @file{tests/octave/test_periodic_rough.m} (one phase per orbit).
% @var{r}: a struct array with fields @code{T}, @code{phase}, @code{ok}, @code{time}, @code{far},
% @code{message}.  No timing is asserted.
% @end deftypefn

function r = bench_periodic_rough (phases)
  if (nargin < 1 || isempty (phases))
    phases = [0.1 0.35 0.6 0.85];
  end
  lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
                'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
  [refs, guess] = periodic_rough_cases (lor, 10);
  r = struct ('T', {}, 'phase', {}, 'ok', {}, 'time', {}, 'far', {}, 'message', {});
  for j = 1:numel (refs)
    for ph = phases
      [tg, yg] = guess (refs{j}, ph, j);
      s = periodic_orbit (lor, tg, yg);
      far = 0;
      for i = 1:numel (tg)
        far = max (far, min (sqrt (sum ((refs{j}.y - yg(i, :)).^2, 2))));
      end
      ok = s.exitflag == 1 && abs (s.T - refs{j}.T) <= 2 * 1e-10 * refs{j}.T;
      r(end + 1) = struct ('T', refs{j}.T, 'phase', ph, 'ok', ok, 'time', s.time, 'far', far, ...
                           'message', s.message);
      fprintf ('T = %.10f  phase %.2f  %-9s %6.1f s  guess off by up to %.3g: %s\n', refs{j}.T, ...
               ph, ifelse_str (ok), s.time, far, s.message(1:min (end, 100)));
    end
  end
  fprintf ('bench_periodic_rough: %d of %d converged\n', sum ([r.ok]), numel (r));
end

function s = ifelse_str (ok)
  if (ok)
    s = 'converged';
  else
    s = 'FAILED';
  end
end
