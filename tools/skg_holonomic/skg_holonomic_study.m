% -*- texinfo -*-
% @deftypefn {} {} skg_holonomic_study ()
% Measurements of doc/skg.md, "Holonomic constraints": skg_solve on the spherical pendulum with the
% constraint at position level (and, for comparison, in velocity form) and on a particle on the
% sphere with an additional nonholonomic constraint, against gauss_integrate (dop853, RelTol =
% AbsTol = 1e-12) on [0, 5] with 50 windows (fixed grid, Newton Tol = 1e-12).  Prints one table per model.  Run from the build tree:
%   octave-cli --eval "addpath ('BUILD'); addpath ('SRC/inst'); addpath ('SRC/tools/skg_holonomic'); skg_holonomic_study"
% @end deftypefn

function skg_holonomic_study ()
  W = 50;
  Ns = [17 33 65 129];
  q0 = [sin(1) 0 -cos(1)];
  v0 = [0 1.5 0];
  L = '(dot(x)^2+dot(y)^2+dot(z)^2)/2 - g*z';
  par = struct ('g', 9.81, 'l', 1);
  sph = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', par, 'lagrangian', L, ...
                 'constraints', {'x^2+y^2+z^2-l^2'});
  sphv = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', par, 'lagrangian', L, ...
                  'constraints', {'x*dot(x)+y*dot(y)+z*dot(z)'});
  % knife edge (sleigh) on an incline, angle as a point (c, s) of the unit circle: a holonomic
  % constraint c^2 + s^2 = 1 and the nonholonomic knife edge xdot s - ydot c = 0 (2 degrees of
  % freedom, the constraint Jacobian has rank 2 everywhere)
  knife = mechsys ('coordinates', {'x', 'y', 'c', 's'}, 'parameters', struct ('g', 9.81, 'alpha', pi / 6, 'I', 0.25), ...
                   'lagrangian', '(dot(x)^2+dot(y)^2)/2 + I/2*(dot(c)^2+dot(s)^2) + g*sin(alpha)*x', ...
                   'constraints', {'c^2+s^2-1', 'dot(x)*s - dot(y)*c'});
  fprintf ('spherical pendulum, constraint x^2+y^2+z^2-1 (position level), [0, 5], %d windows\n', W);
  % the ideal-reaction multiplier recomputed from the solution's (q, qdot) (Gauss: M = I,
  % f = (0, 0, -g), A = 2 q, A qddot = -2 |qdot|^2), for comparison with the action's lambda
  lampost = @(q, qd) (-2 * sum (qd.^2, 2) + 2 * 9.81 * q(:, 3)) ./ (4 * sum (q.^2, 2));
  study (sph, q0, v0, W, Ns, [4 6], @(q, qd) sum (q.^2, 2) - 1, lampost);
  fprintf ('\nthe same, constraint in velocity form x xdot + y ydot + z zdot\n');
  study (sphv, q0, v0, W, Ns, [4 6], @(q, qd) sum (q.^2, 2) - 1, []);
  fprintf ('\nknife edge on an incline, q0 = [0 0 1 0], qdot0 = [1 0 0 2]; g, lambda of constraint 1: c^2+s^2-1 (position level)\n');
  study (knife, [0 0 1 0], [1 0 0 2], W, Ns, [4 6], @(q, qd) q(:, 3).^2 + q(:, 4).^2 - 1, [], 1);
  fprintf ('\nthe same; g, lambda of constraint 2: xdot s - ydot c (velocity)\n');
  study (knife, [0 0 1 0], [1 0 0 2], W, Ns, [4 6], @(q, qd) qd(:, 1) .* q(:, 4) - qd(:, 2) .* q(:, 3), [], 2);
  % full mode against reduced mode
  fprintf ('\nfull mode (order 4, N = 33, %d windows):\n', W);
  r = skg_solve (sph, [0 5], q0, v0, 'N', 33, 'Order', 4, 'Windows', W, 'Tol', 1e-12);
  f = skg_solve (sph, [0 5], q0, v0, 'N', 33, 'Order', 4, 'Windows', W, 'Mode', 'full', 'Tol', 1e-12);
  fprintf ('  exitflag %d, iterations %d, max|q-| %.1e, max|lambda-| %.1e, max|q_full - q_reduced| %.1e, max|lambda diff| %.1e\n', ...
           f.exitflag, f.iterations, f.max_qminus, f.max_lambdaminus, max (abs (f.q(:) - r.q(:))), ...
           max (abs (f.lambda(:) - r.lambda(:))));
  % windows marched by hand: the scheme velocity Da q+ at a window's end has an O(h^p) component
  % normal to the sphere; projected onto the tangent plane (M = I) before the next window or not
  fprintf ('\nmarching by hand, 50 windows of 0.1, order 4, end velocity passed as is / projected:\n');
  ref = gauss_integrate (sph, [0 5], q0, v0, 'Method', 'dop853', 'RelTol', 1e-12, 'AbsTol', 1e-12, ...
                         'OutputTimes', 0:0.1:5);
  for proj = [0 1]
    for N = [17 33]
      q = q0;
      v = v0;
      e = zeros (1, 5);
      for k = 1:50
        s = skg_solve (sph, [(k - 1) * 0.1, k * 0.1], q, v, 'N', N, 'Order', 4, 'Windows', 1, 'Tol', 1e-12);
        lam = physical_lambda (s);
        e(3) = max (e(3), abs (lam(1) - ref.lambda(k)));
        e(4) = max (e(4), abs (lam(end) - ref.lambda(k + 1)));
        e(5) = max (e(5), abs (s.q(end, :) * s.qdot(end, :)'));
        q = s.q(end, :);
        v = s.qdot(end, :);
        if (proj)
          v = v - (q * v') / (q * q') * q;
        end
        e(1) = max (e(1), max (abs (q - ref.q(k + 1, :))));
        e(2) = max (e(2), max (abs (v - ref.qdot(k + 1, :))));
      end
      fprintf ('  projected %d, N = %2d: window-end error q %.2e, qdot %.2e; lambda error at the first node %.2e, the last %.2e; max |q . qdot| at the end %.2e\n', ...
               proj, N, e);
    end
  end
end

function lam = physical_lambda (sol)
  % The physical multiplier (gauss_integrate's convention: M qddot = f + A' lambda).  skg_solve
  % returns it as sol.lambda since it has sol.lambda_plus (the raw lambda+ = -lambda); before
  % that, sol.lambda was lambda+.
  if (isfield (sol, 'lambda_plus'))
    lam = sol.lambda;
  else
    lam = -sol.lambda;
  end
end

function study (sys, q0, v0, W, Ns, orders, gfun, lampost, col)
  if (nargin < 9)
    col = 1;
  end
  nbs = [1 4 6 8];
  fprintf ('%5s %4s %5s %4s | %9s %9s %9s | %9s | %9s %9s %9s | rates q / qdot / lam / lam int / lam post\n', 'order', 'N', ...
           'exit', 'it', 'err q', 'err qdot', 'err q(tf)', 'max|g|', 'err lam', 'lam int', 'lam post');
  for o = orders
    prev = [];
    for N = Ns
      sol = skg_solve (sys, [0 5], q0, v0, 'N', N, 'Order', o, 'Windows', W, 'Tol', 1e-12);
      ref = gauss_integrate (sys, [0 5], q0, v0, 'Method', 'dop853', 'RelTol', 1e-12, 'AbsTol', 1e-12, ...
                             'OutputTimes', sol.t);
      lam = physical_lambda (sol);
      el = abs (lam(:, col) - ref.lambda(:, col));
      pos = mod ((0:numel (sol.t) - 1)', N - 1);
      % nodes outside the reach of the closures in D (Da q) (2 nb rows at either end of a window)
      inner = pos >= 2 * nbs(o / 2) & pos <= N - 1 - 2 * nbs(o / 2);
      eli = NaN;
      if (any (inner))
        eli = max (el(inner));
      end
      elp = NaN;
      if (~isempty (lampost))
        elp = max (abs (lampost (sol.q, sol.qdot) - ref.lambda(:, col)));
      end
      e = [max(abs (sol.q(:) - ref.q(:))), max(abs (sol.qdot(:) - ref.qdot(:))), ...
           max(abs (sol.q(end, :) - ref.q(end, :))), max(abs (reshape (gfun (sol.q, sol.qdot), [], 1))), ...
           max(el), eli, elp];
      fprintf ('%5d %4d %5d %4d | %9.2e %9.2e %9.2e | %9.1e | %9.2e %9.2e %9.2e |', o, N, sol.exitflag, ...
               sol.iterations, e(1), e(2), e(3), e(4), e(5), e(6), e(7));
      if (~isempty (prev))
        rt = log2 (prev([1 2 5 6 7]) ./ e([1 2 5 6 7])) ./ log2 ((N - 1) / (prevN - 1));
        fprintf (' %.2f / %.2f / %.2f / %.2f / %.2f', rt);
      end
      fprintf ('\n');
      prev = e;
      prevN = N;
    end
  end
end
