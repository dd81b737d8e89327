% -*- texinfo -*-
% @deftypefn {} {[@var{refs}, @var{guess}] =} periodic_rough_cases (@var{lor}, @var{nref})
% The rough-guess cases of @file{tests/octave/test_periodic_rough.m} and
% @file{bench/bench_periodic_rough.m}, in one place so that both measure the same thing.
%
% @var{lor}: the Lorenz system (s, r, b) = (10, 28, 8/3) made by @code{odesys}.  @var{refs}: the
% @var{nref} shortest distinct orbits (cell array of @code{periodic_orbit} solutions, by period)
% from the candidates of @code{periodic_guesses (lor, [1 1 1], 4000, 'MaxLoops', 6)}, each converged
% with exitflag 1 and traversed once; fewer when fewer are found.  @var{guess}: a function
% @code{[tg, yg] = guess (ref, phase, j)}, the rough guess: @code{ode45} (RelTol = AbsTol = 1e-8,
% 200 times) over 1.01 @code{ref.T} from the orbit's point at the fraction @var{phase} of its
% period, moved by 1e-3 of the attractor's size (40) in the unit direction
% (cos j, sin j, cos 2j) / norm.  The stretch overshoots its start and does not close.
% Cost: the candidates' solves (about 20 of them, seconds each).
% @end deftypefn

function [refs, guess] = periodic_rough_cases (lor, nref)
  cands = periodic_guesses (lor, [1 1 1], 4000, 'MaxLoops', 6);
  refs = {};
  Ts = [];
  for k = 1:numel (cands)
    s = periodic_orbit (lor, cands(k));
    if (s.exitflag == 1 && s.repetitions == 1 && all (abs (Ts - s.T) > 1e-6 * s.T))
      refs{end + 1} = s;
      Ts(end + 1) = s.T;
    end
  end
  [~, order] = sort (Ts);
  refs = refs(order(1:min (nref, numel (order))));
  guess = @rough_guess;
end

function [tg, yg] = rough_guess (ref, phase, j)
  f = @(t, y) [10 * (y(2) - y(1)); y(1) * (28 - y(3)) - y(2); y(1) * y(2) - 8 / 3 * y(3)];
  N = size (ref.y, 1) - 1;
  k0 = 1 + floor (phase * N);
  d = [cos(j); sin(j); cos(2 * j)];
  x0 = ref.y(k0, :)' + 40e-3 * d / norm (d);
  tg = linspace (0, 1.01 * ref.T, 200)';
  [tg, yg] = ode45 (f, tg, x0, odeset ('RelTol', 1e-8, 'AbsTol', 1e-8));
end
