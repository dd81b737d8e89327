% -*- texinfo -*-
% @deftypefn  {} {@var{c} =} periodic_rough_cases (@var{name})
% @deftypefnx {} {@var{c} =} periodic_rough_cases (@var{name}, @var{which})
% The rough-guess cases of @file{tests/octave/test_periodic_rough.m} and
% @file{bench/bench_periodic_rough.m}, in one place so that both measure the same thing.
%
% @var{name}: @code{'lorenz'} (s, r, b) = (10, 28, 8/3), @code{'rossler'} (a, b, c) = (0.2, 0.2,
% 5.7) or @code{'hyperrossler'}, the 4-state hyperchaotic Rossler system x' = -y - z, y' = x + a y
% + w, z' = b + x z, w' = -c z + d w, (a, b, c, d) = (0.25, 3, 0.5, 0.05).  @var{c}: a struct with
% @code{sys} (the @code{odesys}), @code{f} (the same right-hand side for @code{ode45}),
% @code{size} (the attractor's size, for the offsets), @code{refs} (a cell array of reference
% orbits, those numbered @var{which} (default all): @code{name}, @code{T}, @code{t}, @code{y}, N + 1
% equispaced times over one period (N = 2000; 20000 for the hyperchaotic system, whose z spikes
% the polygon through the points must follow) and the states there, closed, from @code{ode45} at
% RelTol = AbsTol = 1e-10), @code{guess} and
% @code{dT} (below).
%
% The references: Lorenz, every orbit of @file{bench/lorenz_periods.txt} (prime words of length 2
% to 8, by the multiple-shooting reference @code{po_shoot}), @code{name} its word; Rossler and the
% hyperchaotic system, orbits converged by @code{periodic_orbit} from candidates of
% @code{periodic_guesses}: Rossler, candidates 1 and 3 from (1, 1, 1) over 500, each confirmed by
% @code{po_shoot} from its crossings of x = 0 (x increasing) as nodes (the period and the first
% node below are po_shoot's; the two periods agree to 1e-13 relative); the hyperchaotic system,
% candidate 5 from (-10, -6, 0, 10) over 3000 with ReturnTol 0.05 (two unstable multipliers,
% 28.7 and 1.67), confirmed by ode45 (RelTol = AbsTol = 1e-12) from its first point over T: it
% returns within 6e-9 (the amplitude is 121).
%
% @code{[tg, yg, far] = c.guess (ref, phase, j, dT, eps0)}: the rough guess, a stretch of
% trajectory (@code{ode45}, RelTol = AbsTol = 1e-8, at least 300 times and 40 per unit time)
% over (1 + @var{dT}) T from the orbit's point at the fraction @var{phase} of its period, moved in
% the unit direction (cos j, sin j, cos 2j, sin 2j) (its first n entries, normalized).  With
% @var{eps0} given, the offset is @var{eps0} times the attractor's size (the stretch then strays
% from the orbit by up to the orbit's unstable multiplier times that).  Without it, the offset is
% chosen so that the stretch's largest distance from the orbit, @var{far}, is 1e-3 of the
% attractor's size (the issue's rough guess: every state within 1e-3 of the attractor's size of
% its orbit): the offset is rescaled linearly (at most 4 times) until @var{far} is within [0.5,
% 1] times that.  @code{c.dT (phase, j)}: the deterministic period error 0.02 cos (2.4 j + 7
% phase), in [-0.02, 0.02].  The stretch overshoots its start (dT > 0) or stops short of it
% (dT < 0): it does not close.
% Cost: one ode45 integration per reference orbit.
% @end deftypefn

function c = periodic_rough_cases (name, which)
  switch (name)
    case 'lorenz'
      c.sys = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
                      'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
      c.f = @(t, y) [10 * (y(2) - y(1)); y(1) * (28 - y(3)) - y(2); y(1) * y(2) - 8 / 3 * y(3)];
      c.size = 40;
      N = 2000;
      fid = fopen (fullfile (fileparts (mfilename ('fullpath')), 'lorenz_periods.txt'));
      C = textscan (fid, '%s %f %f %f %f %f %f', 'CommentStyle', '#');
      fclose (fid);
      names = C{1};
      T = C{2};
      X0 = [C{3}, C{4}, C{5}];
    case 'rossler'
      c.sys = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('a', 0.2, 'b', 0.2, 'c', 5.7), ...
                      'rhs', {'-y - z', 'x + a*y', 'b + z*(x - c)'});
      c.f = @(t, y) [-y(2) - y(3); y(1) + 0.2 * y(2); 0.2 + y(3) * (y(1) - 5.7)];
      c.size = 25;
      N = 2000;
      names = {'cand1'; 'cand3'};
      T = [17.515791070335659; 29.381070003763625];
      X0 = [0, -3.4223213856519359, 0.032311794731591209; 0, -4.5950301398986468, 0.031564501117244369];
    case 'hyperrossler'
      c.sys = odesys ('states', {'x', 'y', 'z', 'w'}, 'parameters', ...
                      struct ('a', 0.25, 'b', 3, 'c', 0.5, 'd', 0.05), ...
                      'rhs', {'-y - z', 'x + a*y + w', 'b + x*z', '-c*z + d*w'});
      c.f = @(t, y) [-y(2) - y(3); y(1) + 0.25 * y(2) + y(4); 3 + y(1) * y(3); -0.5 * y(3) + 0.05 * y(4)];
      c.size = 100;
      N = 20000;   % the z spikes: the polygon through the points must follow them to 1e-4 of 100
      names = {'cand5'};
      T = 26.911944797116799;
      X0 = [-1.618769556804061, -15.890439698886857, 119.41048965807052, 25.294092119283224];
    otherwise
      error ('periodic_rough_cases: unknown system %s', name);
  end
  if (nargin < 2)
    which = 1:numel (T);
  end
  o = odeset ('RelTol', 1e-10, 'AbsTol', 1e-10);
  c.refs = cell (1, numel (which));
  for i = 1:numel (which)
    j = which(i);
    t = T(j) * (0:N)' / N;
    [~, y] = ode45 (c.f, t, X0(j, :)', o);
    c.refs{i} = struct ('name', names{j}, 'T', T(j), 't', t, 'y', y);
  end
  f = c.f;
  sz = c.size;
  c.guess = @(ref, phase, j, dT, varargin) rough_guess (f, sz, ref, phase, j, dT, varargin{:});
  c.dT = @(phase, j) 0.02 * cos (2.4 * j + 7 * phase);
end

function [tg, yg, far] = rough_guess (f, sz, ref, phase, j, dT, eps0)
  n = size (ref.y, 2);
  d = [cos(j); sin(j); cos(2 * j); sin(2 * j)];
  d = d(1:n) / norm (d(1:n));
  xs = interp1 (ref.t, ref.y, phase * ref.T, 'spline')';
  np = max (300, ceil (40 * ref.T));
  tg = linspace (0, (1 + dT) * ref.T, np)';
  o = odeset ('RelTol', 1e-8, 'AbsTol', 1e-8);
  fixed = nargin >= 7;
  if (fixed)
    e = eps0 * sz;
  else
    e = 1e-3 * sz;
  end
  for k = 1:5
    [tg, yg] = ode45 (f, tg, xs + e * d, o);
    far = distance (ref.y, yg);
    if (fixed || (far <= 1e-3 * sz && far >= 0.5e-3 * sz))
      break;
    end
    e = e * 0.75e-3 * sz / far;
  end
end

% the largest distance of the points yg from the closed polygon through the orbit's points Y
function far = distance (Y, yg)
  A = Y(1:end-1, :);
  B = Y(2:end, :) - A;
  L2 = max (sum (B.^2, 2), realmin);
  far = 0;
  for i = 1:size (yg, 1)
    P = yg(i, :) - A;
    u = min (1, max (0, sum (P .* B, 2) ./ L2));
    far = max (far, sqrt (min (sum ((P - u .* B).^2, 2))));
  end
end
