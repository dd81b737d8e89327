% -*- texinfo -*-
% @deftypefn {} {@var{P} =} dual_march_problems ()
% The five acceptance problems of the marching dual solver (doc/dual.md, "Marching"): each entry
% has name, ode (odesys), f (the same field as a function handle for ode45), tspan, y0 and the
% reference solution ref (a function of a column of times starting at tspan(1): ode45 with
% RelTol = AbsTol = reftol, 1e-12, for Lorenz on [0, 10] 1e-13) and chaotic (true for Lorenz on
% [0, 10]).
% @end deftypefn

function P = dual_march_problems ()
  lz = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
               'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
  flz = @(t, y) [10*(y(2) - y(1)); y(1)*(28 - y(3)) - y(2); y(1)*y(2) - 8/3*y(3)];
  pe = odesys ('states', {'th', 'w'}, 'parameters', struct ('k', 10), ...
               'rhs', {'w', '-k*sin(th)'});
  fpe = @(t, y) [y(2); -10*sin(y(1))];
  hp = struct ('R', 0.5, 'g', 9.81, 'Om', 6);
  bh = odesys ('states', {'th', 'w'}, 'parameters', hp, ...
               'rhs', {'w', '(Om^2*cos(th) - g/R)*sin(th)'});
  fbh = @(t, y) [y(2); (36*cos(y(1)) - 9.81/0.5)*sin(y(1))];
  vp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 5), ...
               'rhs', {'v', 'mu*(1 - x^2)*v - x'});
  fvp = @(t, y) [y(2); 5*(1 - y(1)^2)*y(2) - y(1)];
  P = struct ('name', {'Lorenz [0,1]', 'Lorenz [0,10]', 'pendulum', 'bead on a hoop', ...
                       'Van der Pol mu=5'}, ...
              'ode', {lz, lz, pe, bh, vp}, 'f', {flz, flz, fpe, fbh, fvp}, ...
              'tspan', {[0 1], [0 10], [0 20], [0 4], [0 20]}, ...
              'y0', {[1 1 1], [1 1 1], [2 0], [0.3 0], [2 0]}, ...
              'chaotic', {false, true, false, false, false}, 'reftol', {1e-12, 1e-13, 1e-12, 1e-12, 1e-12});
  for k = 1:numel (P)
    P(k).ref = @(t) ode_ref (P(k).f, P(k).y0, t, P(k).reftol);
  end
end

function y = ode_ref (f, y0, t, tol)
  % ode45 at RelTol = AbsTol = tol on the times t (its output at requested times)
  t = t(:);
  [tt, y] = ode45 (f, t, y0(:), odeset ('RelTol', tol, 'AbsTol', tol));
  if (numel (t) == 2)
    y = y([1 end], :);
  end
end
