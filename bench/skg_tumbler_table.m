% -*- texinfo -*-
% @deftypefn {} {@var{T} =} skg_tumbler_table ()
% @deftypefnx {} {@var{T} =} skg_tumbler_table (@var{sigmas}, @var{reltol})
% The contact table of doc/skg.md ("Contact check"): the tumbler of Fig. 3 (a particle falling
% from (-1/2, -3/4) at rest inside the unit circle, g = 9.8, V0 = 5) on [0, 0.5] with the wall
% width @var{sigmas} (default 1/110, 1/300, 1/1000, 1/3000), solved by @code{skg_solve} with its
% defaults and RelTol @var{reltol} (default 1e-8): accepted windows, rejected ones (of which vetoed
% by the contact check), Newton iterations, wall-clock time (best of 3), the final state against
% the hard wall in closed form (free fall and specular reflection), the trajectory against the
% soft-wall reference at the same sigma (gauss_integrate dop853, RelTol = AbsTol = 1e-12,
% MaxStep sigma/20: without a MaxStep it steps over the wall from sigma = 1/1000 on, issue 12),
% the smallest gap h/sigma of the solution and the reference's largest radius.  Run from the build
% tree: @code{addpath ('.', 'inst', 'bench'); skg_tumbler_table}.
% @end deftypefn

function T = skg_tumbler_table (sigmas, reltol)
  if (nargin < 1 || isempty (sigmas))
    sigmas = [1/110 1/300 1/1000 1/3000];
  end
  if (nargin < 2)
    reltol = 1e-8;
  end
  contact = struct ('h', 'R^2 - x^2 - y^2', 'sigma', 'sig', 'V0', 'V0');
  [qh, vh] = tumbler_hard (0.5);
  T = struct ('sigma', {}, 'exitflag', {}, 'windows', {}, 'rejected', {}, 'contact', {}, ...
              'iterations', {}, 'time', {}, 'hard', {}, 'soft', {}, 'hmin', {}, 'rmax', {});
  fprintf ('%8s %4s %6s %5s %5s %6s %7s | %9s %9s | %9s %9s | %8s %9s\n', 'sigma', 'flag', ...
           'win', 'rej', 'cont', 'Newton', 'time', 'hard q', 'hard qd', 'soft q', 'soft qd', ...
           'hmin/sig', '(r-1)/sig');
  for sig = sigmas
    tb = mechsys ('coordinates', {'x', 'y'}, 'parameters', ...
                  struct ('m', 1, 'g', 9.8, 'R', 1, 'sig', sig, 'V0', 5), ...
                  'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', 'contacts', contact);
    el = Inf;
    for rep = 1:3
      tic;
      s = skg_solve (tb, [0 0.5], [-1/2 -3/4], [0 0], 'RelTol', reltol);
      el = min (el, toc);
    end
    r = gauss_integrate (tb, [0 0.5], [-1/2 -3/4], [0 0], 'Method', 'dop853', 'Contacts', ...
                         'soft', 'RelTol', 1e-12, 'AbsTol', 1e-12, 'MaxStep', sig/20, ...
                         'OutputTimes', s.t);
    e = struct ('sigma', sig, 'exitflag', s.exitflag, 'windows', numel (s.windows.t0), ...
                'rejected', numel (s.rejected.t0), ...
                'contact', sum (strcmp (s.rejected.reason, 'contact')), ...
                'iterations', s.iterations, 'time', el, ...
                'hard', [max(abs (s.q(end,:) - qh)), max(abs (s.qdot(end,:) - vh))], ...
                'soft', [max(max (abs (s.q - r.output.q))), max(max (abs (s.qdot - r.output.qdot)))], ...
                'hmin', min (1 - sum (s.q .^ 2, 2)) / sig, ...
                'rmax', max (sqrt (sum (r.output.q .^ 2, 2))) - 1);
    T(end+1) = e;
    fprintf ('1/%-6g %4d %6d %5d %5d %6d %6.3fs | %9.2e %9.2e | %9.2e %9.2e | %8.3f %+9.2f\n', ...
             1/sig, e.exitflag, e.windows, e.rejected, e.contact, e.iterations, e.time, e.hard, ...
             e.soft, e.hmin, e.rmax / sig);
  end
end

function [q, v] = tumbler_hard (t)
  % free fall from (-1/2, -3/4) at rest inside the unit circle with elastic specular impacts; an
  % impact time is the first positive root of |q + v s + a s^2/2|^2 = 1 (one Newton polish)
  a = [0 -9.8];
  ts = 0;  qs = [-0.5 -0.75];  vs = [0 0];
  while true
    p = [dot(a, a)/4, dot(vs(end,:), a), dot(vs(end,:), vs(end,:)) + dot(qs(end,:), a), ...
         2*dot(qs(end,:), vs(end,:)), dot(qs(end,:), qs(end,:)) - 1];
    r = roots (p);
    r = real (r(abs (imag (r)) < 1e-9 & real (r) > 1e-9));
    if (isempty (r) || ts(end) + min (r) > max (t))
      break;
    end
    s = min (r);
    s = s - polyval (p, s) / polyval (polyder (p), s);
    qi = qs(end,:) + vs(end,:) * s + a * s^2/2;
    vi = vs(end,:) + a * s;
    nrm = qi / norm (qi);
    ts(end+1) = ts(end) + s;
    qs(end+1,:) = qi;
    vs(end+1,:) = vi - 2 * dot (vi, nrm) * nrm;
  end
  q = zeros (numel (t), 2);
  v = q;
  for k = 1:numel (t)
    j = find (ts <= t(k), 1, 'last');
    s = t(k) - ts(j);
    q(k,:) = qs(j,:) + vs(j,:) * s + a * s^2/2;
    v(k,:) = vs(j,:) + a * s;
  end
end
