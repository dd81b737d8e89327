% -*- texinfo -*-
% @deftypefn  {} {cands =} periodic_guesses (ode, y0, T)
% @deftypefnx {} {cands =} periodic_guesses (ode, y0, T, name, value, ...)
% @deftypefnx {} {[cands, traj] =} periodic_guesses (...)
% Starting guesses for @code{periodic_orbit}: close returns of a long trajectory to a Poincare
% section, from @var{y0} over [0, @var{T}].  Options:
% @multitable @columnfractions .2 .8
% @item "MaxLoops" @tab most section crossings per candidate (default 6)
% @item "ReturnTol" @tab largest return distance / diameter (default 0.02)
% @item "Transient" @tab time skipped before crossings count (default T/20)
% @item "Section" @tab [a, b, dir]: the plane a*y' = b, crossed along dir
% @item "RelTol" @tab the integrator's relative tolerance (default 1e-10)
% @end multitable
% Fields of each candidate @code{cands(k)} (best first): @code{t}, @code{y} (one row per time: a
% nearly closed piece of the trajectory), @code{T} (its duration, a guess of the period),
% @code{loops}, @code{distance} (of the return).  Example (Van der Pol; each candidate is a piece
% of the trajectory: ode45 from y(1,:) over T gives y(end,:)):
% @verbatim
% vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), 'rhs', {'v', 'mu*(1 - x^2)*v - x'});
% cands = periodic_guesses (vdp, [2 0], 50);
% fprintf ('%d candidates; the best: %d loop(s), T ~ %.4f, distance %.1e\n', numel (cands), ...
%          cands(1).loops, cands(1).T, cands(1).distance);
% sol = periodic_orbit (vdp, cands(1));  fprintf ('T = %.10f\n', sol.T);
% @end verbatim
%
% @strong{Reference.}  The trajectory of the autonomous system @var{ode} (an @code{odesys} without algebraic states)
% from @var{y0} is integrated over [0, @var{T}] by the package's DOP853 integrator
% ("RelTol"); after the "Transient" its crossings of the section are located on the dense
% output.  Every pair of crossings i < j with j - i <= "MaxLoops" whose points are closer than
% "ReturnTol" (relative to the diameter of the trajectory) gives a candidate: the piece of the
% trajectory from crossing i to crossing j, which nearly closes after j - i loops.  Candidates
% are ranked by the return distance; a candidate whose section points coincide (as a set, within
% the return tolerance) with those of a better one of the same number of loops, or with those of
% a shorter one (a repetition of a shorter orbit), is dropped.
%
% Example (the Lorenz attractor: guesses with at most 3 loops):
% @verbatim
% lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%   'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
% c = periodic_guesses (lor, [1 1 1], 200, 'MaxLoops', 3);
% fprintf ('%d loops, T ~ %.3f, return distance %.2g\n', [[c.loops]; [c.T]; [c.distance]]);
% sol = periodic_orbit (lor, c(1));
% @end verbatim
%
% Options:
% @table @asis
% @item "Section"
% [a, b, dir]: the plane a . y = b (a has one entry per state) crossed in direction dir (+1
% increasing, -1 decreasing, 0 both).  Default: the last state equal to its mean over the
% trajectory, decreasing (for Lorenz z = mean z crossed downwards: once per loop around a wing).
% @item "Transient"
% the time skipped before crossings count (default T/20).
% @item "MaxLoops"
% the largest number of section crossings per candidate (default 6).
% @item "ReturnTol"
% the largest return distance relative to the trajectory's diameter (default 0.02).
% @item "MaxCandidates"
% at most this many candidates, the closest returns first (default 50).
% @item "Points"
% the number of equispaced points of each candidate's curve (default 200); the integrator's own
% steps, each halved, are added between them, so that fast parts of the trajectory (the jumps of
% a relaxation oscillation) are resolved as well.
% @item "RelTol"
% the integrator's relative tolerance (default 1e-10).
% @end table
%
% Fields of each candidate (a struct array, best first): @code{t} (at least Points times,
% increasing from 0 to the return time), @code{y} (one row per time: the trajectory piece), @code{T} (the return time, a guess
% of the period), @code{loops} (crossings), @code{distance} (|y(T) - y(0)| at the section),
% @code{section_points} (loops-by-n, the crossings).  @var{traj} has the trajectory's section
% crossings (@code{te}, @code{ye}) and the section used.
%
% @seealso{periodic_orbit, odesys}
% @end deftypefn

function [cands, traj] = periodic_guesses (ode, y0, T, varargin)
  fname = 'periodic_guesses';
  if (nargin < 3)
    vm_badarg (fname, 'expected at least 3 inputs: ode, y0, T (see help periodic_guesses)');
  end
  y0 = vm_check_flow_system (fname, ode, 'xdot = F(x)', y0);
  n = ode.nd;
  if (~isnumeric (T) || issparse (T) || ~isreal (T) || ~isscalar (T) || ~(T > 0) || ~isfinite (T))
    vm_badarg (fname, 'T must be a positive finite scalar; got %s', vm_describe (T));
  end
  T = vm_double (T);
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  if (isempty (opts.Transient))
    opts.Transient = T / 20;
  end
  if (opts.Transient >= T)
    vm_badarg (fname, 'Transient (%g) must be shorter than T (%g)', opts.Transient, T);
  end
  % the trajectory: sampled (for the default section and the diameter), then its crossings
  ts = linspace (opts.Transient, T, 4001)';
  f = vm_flow (ode, 0, T, y0, ts, [], opts.RelTol);
  if (f.status ~= 0)
    error ('varmech:periodic_guesses:flow', '%s: the integration failed at t = %g: %s', fname, ...
           f.t(end), f.message);
  end
  diam = max (max (f.y) - min (f.y));
  sec = opts.Section;
  if (isempty (sec))
    sec = [zeros(1, n - 1), 1, mean(f.y(:, n)), -1];
  elseif (~isnumeric (sec) || issparse (sec) || ~isreal (sec) || ~isvector (sec) ...
          || numel (sec) ~= n + 2 || ~all (isfinite (sec)) ...
          || ~any (sec(1:n)))
    vm_badarg (fname, 'Section must be [a, b, dir] with %d finite entries and a ~= 0; got %s', ...
               n + 2, vm_describe (sec));
  end
  sec = vm_double (sec(:)');
  f = vm_flow (ode, 0, T, y0, [], sec, opts.RelTol);
  keep = f.te >= opts.Transient;
  te = f.te(keep);
  ye = f.ye(keep, :);
  traj = struct ('te', te, 'ye', ye, 'section', sec, 'diameter', diam);
  cands = find_returns (ode, te, ye, opts, diam * opts.ReturnTol, sec, fname);
end

function cands = find_returns (ode, te, ye, opts, tol, sec, fname)
  ne = numel (te);
  I = [];
  J = [];
  Dd = [];
  for p = 1:opts.MaxLoops
    if (p >= ne)
      break;
    end
    d = sqrt (sum ((ye(1+p:end, :) - ye(1:end-p, :)).^2, 2));
    hit = find (d < tol);
    I = [I; hit];
    J = [J; hit + p];
    Dd = [Dd; d(hit)];
  end
  [~, order] = sort (Dd);
  cands = struct ('t', {}, 'y', {}, 'T', {}, 'loops', {}, 'distance', {}, 'section_points', {});
  for q = order(:)'
    pts = ye(I(q):J(q)-1, :);
    if (duplicate (pts, cands, tol))
      continue;
    end
    Tq = te(J(q)) - te(I(q));
    tq = vm_curve_times (ode, Tq, ye(I(q), :), opts.Points, opts.RelTol);
    f = vm_flow (ode, 0, Tq, ye(I(q), :), tq, [], opts.RelTol);
    if (isempty (tq) || f.status ~= 0 || size (f.y, 1) ~= numel (tq))
      continue;
    end
    % a kept candidate that repeats this one (a multiple of its loops through its section
    % points) goes: a closer return after two loops than after one is common on a stable cycle
    cands = cands(~arrayfun (@(c) repeats (c, pts, tol), cands));
    cands(end + 1) = struct ('t', tq, 'y', f.y, 'T', Tq, 'loops', J(q) - I(q), ...
                             'distance', Dd(q), 'section_points', pts);
    if (numel (cands) >= opts.MaxCandidates)
      break;
    end
  end
  if (isempty (cands))
    warning ('varmech:periodic_guesses:none', ...
             ['%s: no return closer than %.3g in %d section crossings; integrate longer, raise ' ...
              'ReturnTol or MaxLoops, or choose another Section'], fname, tol, ne);
  end
end

% the section points of pts match those of a kept candidate with as many loops (the same orbit
% from another start) or with a number of loops that divides them (a repetition)
function yes = duplicate (pts, cands, tol)
  yes = false;
  p = size (pts, 1);
  for k = 1:numel (cands)
    if (mod (p, cands(k).loops) == 0 && near_all (pts, cands(k).section_points, tol))
      yes = true;
      return;
    end
  end
end

% candidate c repeats the orbit through the section points pts: more loops, a multiple of theirs,
% and every one of its section points near one of pts
function yes = repeats (c, pts, tol)
  p = size (pts, 1);
  yes = c.loops > p && mod (c.loops, p) == 0 && near_all (c.section_points, pts, tol);
end

% every row of a within 2 tol of some row of b
function yes = near_all (a, b, tol)
  yes = true;
  for i = 1:size (a, 1)
    if (min (sqrt (sum ((b - a(i, :)).^2, 2))) > 2 * tol)
      yes = false;
      return;
    end
  end
end

%!shared lor
%! lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%!   'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});

%!test
%! % Lorenz: candidates are pieces of the trajectory that nearly close at the section
%! [c, tr] = periodic_guesses (lor, [1 1 1], 200, 'MaxLoops', 3);
%! assert (numel (c) >= 3);
%! assert (issorted ([c.distance]));
%! assert (all ([c.distance] < 0.02 * tr.diameter));
%! assert (all ([c.loops] >= 1 & [c.loops] <= 3));
%! for k = 1:numel (c)
%!   assert (size (c(k).y, 2), 3);
%!   assert (size (c(k).y, 1), numel (c(k).t));
%!   assert (numel (c(k).t) >= 200);
%!   assert (all (diff (c(k).t) > 0));
%!   assert (c(k).t([1 end]), [0; c(k).T], 1e-12);
%!   % the piece starts at a section crossing and returns within the distance there
%!   assert (abs (c(k).y(1, 3) - tr.section(4)) <= 1e-8);
%!   assert (norm (c(k).y(end, :) - c(k).y(1, :)) <= 1.01 * c(k).distance + 1e-6);
%!   assert (size (c(k).section_points), [c(k).loops, 3]);
%! end
%! % no two candidates with the same section points
%! for i = 1:numel (c)
%!   for j = i+1:numel (c)
%!     if (c(i).loops == c(j).loops)
%!       d = max (min (sqrt (sum ((permute (c(i).section_points, [1 3 2]) ...
%!            - permute (c(j).section_points, [3 1 2])).^2, 3)), [], 2));
%!       assert (d > 0.02 * tr.diameter);
%!     end
%!   end
%! end

%!test
%! % the best 2-loop candidate converges to the shortest Lorenz orbit (AB, T = 1.5586522...)
%! c = periodic_guesses (lor, [1 1 1], 500, 'MaxLoops', 2);
%! k = find ([c.loops] == 2, 1);
%! sol = periodic_orbit (lor, c(k));
%! assert (sol.exitflag, 1);
%! assert (abs (sol.T - 1.5586522107) < 1e-9);
%! % one unstable multiplier (4.71), one 1, one strongly stable
%! assert (abs (sol.floquet(1)), 4.71, 0.01);

%!test
%! % a stable limit cycle (the Brusselator, a = 1, b = 3): a return after two loops is often closer
%! % than after one, and its candidate, a repetition of the one-loop orbit, is dropped whichever
%! % comes first (it used to be kept and ranked first: periodic_orbit then converged to twice the
%! % period).  The period against the spacing of the section crossings of an ode45 trajectory at
%! % RelTol 1e-12 (crossings interpolated linearly between output points 1e-4 apart: error below
%! % 1e-7, so 1e-6 is the bound).
%! bru = odesys ('states', {'x', 'y'}, 'parameters', struct ('a', 1, 'b', 3), ...
%!               'rhs', {'a - (b+1)*x + x^2*y', 'b*x - x^2*y'});
%! c = periodic_guesses (bru, [1 1], 60);
%! assert (numel (c) >= 1);
%! assert (all ([c.loops] == 1));
%! sol = periodic_orbit (bru, c(1));
%! assert (sol.exitflag, 1);
%! f = @(t, u) [1 - 4*u(1) + u(1)^2*u(2); 3*u(1) - u(1)^2*u(2)];
%! t = linspace (40, 60, 200001)';
%! [~, u] = ode45 (f, [0; t], [1 1], odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
%! u = u(2:end, :);
%! x = u(:, 1) - 1;                   % the section x = 1 (the fixed point), crossed upwards
%! k = find (x(1:end-1) < 0 & x(2:end) >= 0);
%! tc = t(k) - x(k) .* (t(k+1) - t(k)) ./ (x(k+1) - x(k));
%! assert (abs (sol.T - mean (diff (tc))) < 1e-6);

%!warning <no return closer> periodic_guesses (lor, [1 1 1], 5, 'ReturnTol', 1e-9);

%!error <expected at least 3 inputs> periodic_guesses (lor, [1 1 1])
%!error <ode must be a system made by odesys> periodic_guesses (1, [1 1 1], 10)
%!error <the system has algebraic states or equations> periodic_guesses (odesys ('states', {'x', 'l'}, 'rhs', {'-x*l'}, 'algebraic', {'l - 1'}), [1 1], 10)
%!error <periodic_guesses: right-hand side 2 .-0.3\*v \+ x - x\^3 \+ 0.5\*cos.1.2\*t.. depends on t; expected an autonomous system> periodic_guesses (odesys ('states', {'x', 'v'}, 'rhs', {'v', '-0.3*v + x - x^3 + 0.5*cos(1.2*t)'}), [1 0], 50)
%!error <y0 must be a real finite vector with 3 entries> periodic_guesses (lor, [1 1], 10)
%!error <T must be a positive finite scalar> periodic_guesses (lor, [1 1 1], -1)
%!error <Transient \(20\) must be shorter than T \(10\)> periodic_guesses (lor, [1 1 1], 10, 'Transient', 20)
%!error <Section must be \[a, b, dir\] with 5 finite entries and a ~= 0> periodic_guesses (lor, [1 1 1], 10, 'Section', [0 0 0 1 1])
%!error <unknown option 'Bogus'> periodic_guesses (lor, [1 1 1], 10, 'Bogus', 1)

%!demo
%! % Lorenz: the section points of a long trajectory and the closest 2- and 3-loop returns
%! lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%!   'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
%! [c, tr] = periodic_guesses (lor, [1 1 1], 300, 'MaxLoops', 3);
%! plot (tr.ye(:, 1), tr.ye(:, 2), '.', 'color', [0.6 0.6 0.6]);  hold on;
%! for k = 1:min (3, numel (c))
%!   plot (c(k).y(:, 1), c(k).y(:, 2));
%!   fprintf ('candidate %d: %d loops, T ~ %.4f, return distance %.2g\n', k, c(k).loops, ...
%!            c(k).T, c(k).distance);
%! end
%! hold off;  xlabel ('x');  ylabel ('y');
%! title ('section z = mean z (downwards) and the closest returns');
