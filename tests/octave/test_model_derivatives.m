% Tests of the exact derivatives of mechsys_eval against finite differences, and of the values
% of the compiled formulas against the same formulas evaluated by Octave.
%
% References.  Values: each formula is also written as a vectorized Octave expression and
% evaluated here.  First derivatives: Richardson-extrapolated central differences of the values.
% Second derivatives: Richardson differences of the exact first derivatives (which are themselves
% checked against the values), so every block is tied to the formula through an independent path.
%
% Tolerance of the differences.  The central difference D(h) = (f(x+h) - f(x-h))/(2h) has
% truncation error f'''h^2/6 + O(h^4) and roundoff about eps*|f|/h.  The extrapolation
% (4*D(h/2) - D(h))/3 cancels the h^2 term, leaving truncation O(f^(5) h^4) ~ 1e-12 for h = 1e-3
% and functions whose derivatives are of order one (the points and formulas below are chosen so:
% bounded arguments, points at least 0.05 away from every kink and domain boundary), and roundoff
% about 3*eps*|f|/(h/2) ~ 1e-12*|f|.  The tests require |exact - reference| <= 1e-7*max(1,|ref|)
% elementwise: five orders above the expected error, and far below the error of any wrong
% derivative rule (a missing chain factor or a sign error is an O(1) relative error).  Measured:
% at most 1e-9 (wF_qq, whose x^-2 term has large fifth derivatives near x = 0.2), 1e-11 for the
% random Lagrangians.
%
% The shared helpers (richardson, stack, stack_gradient, assert_close, mech_eval) are those of
% test_model_helpers; the test blocks reach them, and the subfunctions of this file, through the
% handles that test_model_derivatives () returns.

function h = test_model_derivatives ()
  % Return the helpers of the test blocks as a struct of function handles.
  h = test_model_helpers ();
  h.random_formula = @random_formula;
  h.kink_free_points = @kink_free_points;
  h.check_lagrangian_blocks = @check_lagrangian_blocks;
end

function X = kink_free_points (N)
  % N points [t x y z dx dy dz] for the all-functions system: x, y, z in [0.2, 0.9] (inside the
  % domains of log, sqrt, asin(x/2), acos(z/2), x^-2, y^z) and at least 0.05 away from the kinks
  % x = 0.5 (abs), x = y (min), y = z (max), z = 0.5 (sign); velocities in [-1, 1], t in [0, 1].
  X = zeros (N, 7);
  k = 0;
  while (k < N)
    q = 0.2 + 0.7 * rand (1, 3);
    if (abs (q(1) - 0.5) > 0.05 && abs (q(1) - q(2)) > 0.05 && abs (q(2) - q(3)) > 0.05 ...
        && abs (q(3) - 0.5) > 0.05)
      k = k + 1;
      X(k,:) = [rand(), q, 2 * rand(1, 3) - 1];
    end
  end
end

function check_lagrangian_blocks (o, D, n, tol, label)
  % The gradient and Hessian blocks of the Lagrangian against the differences D of
  % mechsys_eval at the same points (columns of X: t, q, qdot).
  h = test_model_helpers ();
  iq = 1 + (1:n);
  iv = 1 + n + (1:n);
  h.assert_close (o.L_q, h.stack_gradient (D, iq, 'L'), tol, [label 'L_q']);
  h.assert_close (o.L_qdot, h.stack_gradient (D, iv, 'L'), tol, [label 'L_qdot']);
  h.assert_close (o.L_t, D{1}.L, tol, [label 'L_t']);
  h.assert_close (o.L_qq, h.stack (D, iq, 'L_q'), tol, [label 'L_qq']);
  % L_qqdot(:,i,j) = d2L/dq_i dqdot_j, from both orders of differentiation
  h.assert_close (o.L_qqdot, h.stack (D, iv, 'L_q'), tol, [label 'L_qqdot (d/dqdot_j of L_q)']);
  h.assert_close (o.L_qqdot, permute (h.stack (D, iq, 'L_qdot'), [1 3 2]), tol, ...
                  [label 'L_qqdot (d/dq_i of L_qdot)']);
  h.assert_close (o.L_qdotqdot, h.stack (D, iv, 'L_qdot'), tol, [label 'L_qdotqdot']);
  h.assert_close (o.L_qdott, D{1}.L_qdot, tol, [label 'L_qdott']);
end

function [m, o, atomic] = random_formula (depth)
  % A random formula of the given nesting depth, as model text m and as the same expression o
  % in vectorized Octave/MATLAB syntax over the column vectors x, y, z, vx, vy, vz, t and the
  % scalar p.  atomic: true when the text needs no parentheses as an operand.
  % The forms keep values and derivatives of moderate size: bounded or slowly growing functions
  % (sin, cos, atan, tanh, exp(sin u), log(2 + u^2), sqrt(1 + u^2)), sums, products, and the
  % quotient u/(1 + v^2).
  if (depth == 0)
    lm = {'x', 'y', 'z', 'dot(x)', 'dot(y)', 'dot(z)', 't', 'p', 'x', 'dot(y)', 'z', 'dot(x)', ...
          '0.5', '1.5', '2', 'pi/4'};
    lo = {'x', 'y', 'z', 'vx', 'vy', 'vz', 't', 'p', 'x', 'vy', 'z', 'vx', ...
          '0.5', '1.5', '2', 'pi/4'};
    k = pick (numel (lm));
    m = lm{k};
    o = lo{k};
    atomic = ~strcmp (m, 'pi/4');
    return;
  end
  if (rand () < 0.5)
    um = {'sin(%s)', 'cos(%s)', 'atan(%s)', 'tanh(%s)', 'exp(sin(%s))', 'log(2 + %s^2)', ...
          'sqrt(1 + %s^2)', '-%s'};
    uo = {'sin(%s)', 'cos(%s)', 'atan(%s)', 'tanh(%s)', 'exp(sin(%s))', 'log(2 + %s.^2)', ...
          'sqrt(1 + %s.^2)', '-%s'};
    k = pick (numel (um));
    [am, ao, aa] = random_formula (depth - 1);
    if (k >= 6)   % the argument is an operand of ^ or of unary minus
      [am, ao] = paren (am, ao, aa);
    end
    m = sprintf (um{k}, am);
    o = sprintf (uo{k}, ao);
    atomic = k <= 7;
  else
    bm = {'%s + %s', '%s - %s', '%s*%s', '%s/(1 + %s^2)'};
    bo = {'%s + %s', '%s - %s', '%s.*%s', '%s./(1 + %s.^2)'};
    k = pick (numel (bm));
    % one operand reaches the full depth, the other a random smaller one
    [am, ao, aa] = random_formula (depth - 1);
    [bm2, bo2, ba] = random_formula (floor (rand () * depth));
    if (rand () < 0.5)
      [am, ao, aa, bm2, bo2, ba] = deal (bm2, bo2, ba, am, ao, aa);
    end
    [am, ao] = paren (am, ao, aa);
    [bm2, bo2] = paren (bm2, bo2, ba);
    m = sprintf (bm{k}, am, bm2);
    o = sprintf (bo{k}, ao, bo2);
    atomic = false;
  end
end

function k = pick (n)
  k = min (n, 1 + floor (rand () * n));
end

function [m, o] = paren (m, o, atomic)
  if (~atomic)
    m = ['(' m ')'];
    o = ['(' o ')'];
  end
end

%!shared h, sys, X, lam, w, o, D, ref
%! if (exist ('test_model_derivatives', 'file') ~= 2)
%!   addpath (fullfile (pwd (), 'tests', 'octave'));
%! end
%! h = test_model_derivatives ();
%! % Every function of the language, ^ with constant (integer, negative, fractional) and variable
%! % exponents, /, unary minus, t, pi and parameters, spread over L, F and g.
%! sys = mechsys ('coordinates', {'x', 'y', 'z'}, ...
%!   'parameters', struct ('a', 1.3, 'b', 0.7, 'c', 2.1), ...
%!   'lagrangian', ['a/2*(dot(x)^2 + (1 + sin(x)^2)*dot(y)^2 + cosh(y)*dot(z)^2)' ...
%!                  ' + dot(x)*dot(y)*atan(z) - b*exp(-x*y/3)*cos(z + c*t)' ...
%!                  ' + log(2 + dot(z)^2)*sqrt(1 + x^2) + abs(x - 0.5)*dot(y)' ...
%!                  ' + y^z*dot(x)*t - 2^(-x) - x^2*dot(z)'], ...
%!   'forces', {'-c*dot(x)*tanh(dot(y)) + sinh(y/2)*asin(x/2)', ...
%!              'min(x, y)*dot(z) - max(y, z)^2*dot(x)/3 + sign(z - 0.5)*dot(y)^2', ...
%!              'atan2(y, x + 1)*dot(z)^3 - pi*acos(z/2)*tan(x/2) + x^-2*dot(y)'}, ...
%!   'constraints', {'dot(x)*cos(y) + dot(y)*x^1.5 - dot(z).*exp(t/4) + dot(x)^2*dot(y)/(1 + z^2)', ...
%!                   'sqrt(x^2 + y^2 + 1) - z + sin(pi*t)*log(1 + z) + a*x*y'});
%! % the same formulas in Octave, independently of the library
%! ref.L = @(x, y, z, vx, vy, vz, t, a, b, c) a/2*(vx.^2 + (1 + sin(x).^2).*vy.^2 + cosh(y).*vz.^2) ...
%!   + vx.*vy.*atan(z) - b*exp(-x.*y/3).*cos(z + c*t) + log(2 + vz.^2).*sqrt(1 + x.^2) ...
%!   + abs(x - 0.5).*vy + y.^z.*vx.*t - 2.^(-x) - x.^2.*vz;
%! ref.F = @(x, y, z, vx, vy, vz, t, a, b, c) [-c*vx.*tanh(vy) + sinh(y/2).*asin(x/2), ...
%!   min(x, y).*vz - max(y, z).^2.*vx/3 + sign(z - 0.5).*vy.^2, ...
%!   atan2(y, x + 1).*vz.^3 - pi*acos(z/2).*tan(x/2) + x.^-2.*vy];
%! ref.g = @(x, y, z, vx, vy, vz, t, a, b, c) [vx.*cos(y) + vy.*x.^1.5 - vz.*exp(t/4) + vx.^2.*vy./(1 + z.^2), ...
%!   sqrt(x.^2 + y.^2 + 1) - z + sin(pi*t).*log(1 + z) + a*x.*y];
%! rand ('state', 20240611);
%! X = h.kink_free_points (50);
%! lam = 2 * rand (50, 2) - 1;
%! w = 2 * rand (50, 3) - 1;
%! o = h.mech_eval (sys, X, lam, w);
%! D = h.richardson (@(Y) h.mech_eval (sys, Y, lam, w), X, 1e-3);

%!test
%! % values against the Octave formulas: a few roundings per operation on terms of order one
%! % (at most about 1e-14), checked to 1e-12 relative to max(1,|value|)
%! args = {X(:,2), X(:,3), X(:,4), X(:,5), X(:,6), X(:,7), X(:,1), 1.3, 0.7, 2.1};
%! h.assert_close (o.L, ref.L (args{:}), 1e-12, 'L');
%! h.assert_close (o.F, ref.F (args{:}), 1e-12, 'F');
%! h.assert_close (o.g, ref.g (args{:}), 1e-12, 'g');
%! assert (size (o.L), [50 1]);
%! assert (size (o.L_qqdot), [50 3 3]);
%! assert (size (o.g_q), [50 2 3]);

%!test
%! % all gradient and Hessian blocks of L (tolerance: see the head of the file)
%! h.check_lagrangian_blocks (o, D, 3, 1e-7, '');

%!test
%! % F_q(:,i,j) = dF_i/dq_j, F_qdot(:,i,j) = dF_i/dqdot_j
%! h.assert_close (o.F_q, h.stack (D, 2:4, 'F'), 1e-7, 'F_q');
%! h.assert_close (o.F_qdot, h.stack (D, 5:7, 'F'), 1e-7, 'F_qdot');

%!test
%! % Hessian blocks of w . F: differences of the w-weighted exact Jacobians sum_k w_k F_q(:,k,:)
%! h.assert_close (o.wF_qq, h.stack (D, 2:4, 'wFq'), 1e-7, 'wF_qq');
%! h.assert_close (o.wF_qqdot, h.stack (D, 5:7, 'wFq'), 1e-7, 'wF_qqdot');
%! h.assert_close (o.wF_qdotqdot, h.stack (D, 5:7, 'wFqd'), 1e-7, 'wF_qdotqdot');
%! h.assert_close (o.wF_qqdot, permute (h.stack (D, 2:4, 'wFqd'), [1 3 2]), 1e-7, 'wF_qqdot (other order)');

%!test
%! % g_q(:,a,j) = dg_a/dq_j, g_qdot, g_t
%! h.assert_close (o.g_q, h.stack (D, 2:4, 'g'), 1e-7, 'g_q');
%! h.assert_close (o.g_qdot, h.stack (D, 5:7, 'g'), 1e-7, 'g_qdot');
%! h.assert_close (o.g_t, D{1}.g, 1e-7, 'g_t');

%!test
%! % Hessian blocks of lambda . g: differences of sum_a lambda_a g_q(:,a,:)
%! h.assert_close (o.lg_qq, h.stack (D, 2:4, 'lgq'), 1e-7, 'lg_qq');
%! h.assert_close (o.lg_qqdot, h.stack (D, 5:7, 'lgq'), 1e-7, 'lg_qqdot');
%! h.assert_close (o.lg_qdotqdot, h.stack (D, 5:7, 'lgqd'), 1e-7, 'lg_qdotqdot');
%! h.assert_close (o.lg_qqdot, permute (h.stack (D, 2:4, 'lgqd'), [1 3 2]), 1e-7, 'lg_qqdot (other order)');

%!test
%! % the equations of motion from the checked blocks: M = L_qdotqdot;
%! % f_i = L_q_i - sum_j d2L/(dqdot_i dq_j) qdot_j - d2L/(dqdot_i dt) + F_i, where
%! % d2L/(dqdot_i dq_j) = L_qqdot(:,j,i); energy = qdot . L_qdot - L.  The library sums the same
%! % terms possibly in another order: rounding only, 1e-12 relative to the size of the terms.
%! N = size (X, 1);
%! qd = X(:,5:7);
%! h.assert_close (o.M, o.L_qdotqdot, 1e-13, 'M');
%! f = o.L_q - o.L_qdott + o.F;
%! scale = abs (o.L_q) + abs (o.L_qdott) + abs (o.F);
%! for i = 1:3
%!   for j = 1:3
%!     f(:,i) = f(:,i) - o.L_qqdot(:,j,i) .* qd(:,j);
%!     scale(:,i) = scale(:,i) + abs (o.L_qqdot(:,j,i) .* qd(:,j));
%!   end
%! end
%! h.assert_close (o.f ./ scale, f ./ scale, 1e-13, 'f');
%! e = sum (qd .* o.L_qdot, 2) - o.L;
%! h.assert_close (o.energy ./ (sum (abs (qd .* o.L_qdot), 2) + abs (o.L)), ...
%!                 e ./ (sum (abs (qd .* o.L_qdot), 2) + abs (o.L)), 1e-13, 'energy');

%!shared h, forms, P
%! if (exist ('test_model_derivatives', 'file') ~= 2)
%!   addpath (fullfile (pwd (), 'tests', 'octave'));
%! end
%! h = test_model_derivatives ();
%! % 30 random Lagrangians of nesting depth 3 (the first 15) and 4, with a fixed seed
%! rand ('state', 4711);
%! % (kept only when they use a coordinate and a velocity, so that every block is exercised)
%! forms = cell (30, 2);
%! k = 0;
%! while (k < 30)
%!   [m, e] = h.random_formula (3 + (k >= 15));
%!   if (~isempty (regexp (e, '\<[xyz]\>', 'once')) && ~isempty (regexp (e, '\<v[xyz]\>', 'once')))
%!     k = k + 1;
%!     forms(k,:) = {m, e};
%!   end
%! end
%! P = 0.7;
%!test
%! % the generator makes what it claims: 30 distinct formulas, each with a coordinate and a
%! % velocity, the model text and the Octave expression with the same structure
%! assert (numel (unique (forms(:,1))), 30);
%! assert (all (~cellfun (@isempty, strfind (forms(:,1), 'dot('))));
%! for k = 1:30
%!   e = strrep (strrep (strrep (forms{k,2}, '.*', '*'), './', '/'), '.^', '^');
%!   assert (regexprep (forms{k,1}, 'dot\(([xyz])\)', 'v$1'), e);
%! end

%!test
%! warning ('off', 'varmech:mechsys:nokinetic', 'local');   % random Lagrangians leave out velocities
%! % gradient and Hessian blocks of each random Lagrangian against Richardson differences at 20
%! % random points (t in [0,1], q and qdot in [-1,1]); the forms keep the derivatives of order one
%! % (bounded, Lipschitz functions), so the tolerance argument of the head of the file holds.
%! rand ('state', 99);
%! for k = 1:size (forms, 1)
%!   sys = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', struct ('p', P), ...
%!                  'lagrangian', forms{k,1});
%!   X = [rand(20, 1), 2 * rand(20, 6) - 1];
%!   o = h.mech_eval (sys, X, [], []);
%!   D = h.richardson (@(Y) h.mech_eval (sys, Y, [], []), X, 1e-3);
%!   try
%!     h.check_lagrangian_blocks (o, D, 3, 1e-7, '');
%!   catch err
%!     error ('random Lagrangian %d, L = %s\n%s', k, forms{k,1}, err.message);
%!   end
%! end

%!test
%! warning ('off', 'varmech:mechsys:nokinetic', 'local');   % random Lagrangians leave out velocities
%! % simplification keeps values: out.L against the formula evaluated by Octave, to 1e-12
%! % relative to max(1,|L|) (a few dozen operations with intermediate values of order one: the
%! % rounding of either side is below 1e-14)
%! rand ('state', 5);
%! N = 40;
%! X = [rand(N, 1), 2 * rand(N, 6) - 1];
%! for k = 1:size (forms, 1)
%!   sys = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', struct ('p', P), ...
%!                  'lagrangian', forms{k,1});
%!   o = mechsys_eval (sys, X(:,1), X(:,2:4), X(:,5:7), 'blocks', {'lagrangian'});
%!   f = str2func (['@(x, y, z, vx, vy, vz, t, p) ' forms{k,2}]);
%!   v = f (X(:,2), X(:,3), X(:,4), X(:,5), X(:,6), X(:,7), X(:,1), P) + zeros (N, 1);
%!   try
%!     h.assert_close (o.L, v, 1e-12, 'L');
%!   catch err
%!     error ('random Lagrangian %d, L = %s\n%s', k, forms{k,1}, err.message);
%!   end
%! end

%!test
%! warning ('off', 'varmech:mechsys:nokinetic', 'local');   % random Lagrangians leave out velocities
%! % formulas aimed at the simplification rules (0 and 1 identities, x + x, x*x, x^m*x^k,
%! % (x^m)^k, (-x)^k, double negation, constant folding, powers of negative numbers, x^0.5 =
%! % sqrt), against Octave at points where x, y, z take both signs (and are not zero)
%! forms = { ...
%!   '0*dot(x) + 1*x^1 - (-y) + z^0*2 + x/1 + (x - x)*dot(y)', '0*vx + 1*x.^1 - (-y) + z.^0*2 + x/1 + (x - x).*vy'; ...
%!   'dot(x)^2*dot(x)^3 + x*x + x + x + --y - -(-z)', 'vx.^2.*vx.^3 + x.*x + x + x + y - z'; ...
%!   '(x^2)^3 + (x^3)^2 + (y^-1)^2 + y^-3 - x^2^3', '(x.^2).^3 + (x.^3).^2 + (y.^-1).^2 + y.^-3 - (x.^2).^3'; ...
%!   '(x^2)^0.5 + (y^2)^1.5 + (-x)^2 + (-x)^3 + (-dot(z))^4', '(x.^2).^0.5 + (y.^2).^1.5 + (-x).^2 + (-x).^3 + (-vz).^4'; ...
%!   '-x^2 + 2^-x + 2^-2 + 3*4*x*5 + 2 + (3 + x) + 4 - y - 1', '-x.^2 + 2.^-x + 2^-2 + 3*4*x*5 + 2 + (3 + x) + 4 - y - 1'; ...
%!   'x/y/z + x - y - z - (x - (y - z)) + x^-1*x^2', 'x./y./z + x - y - z - (x - (y - z)) + x.^-1.*x.^2'; ...
%!   'cos(-x) + sin(-y) + tan(-z/2) + abs(-x) + abs(abs(y)) + sign(-z) + cosh(-x) + sinh(-y) + tanh(-z)', ...
%!     'cos(-x) + sin(-y) + tan(-z/2) + abs(-x) + abs(abs(y)) + sign(-z) + cosh(-x) + sinh(-y) + tanh(-z)'; ...
%!   'asin(-x/2) + atan(-y) + min(x, x) + max(y, y) + min(x, y) + max(z, x) + atan2(-y, x)', ...
%!     'asin(-x/2) + atan(-y) + x + y + min(x, y) + max(z, x) + atan2(-y, x)'; ...
%!   'x^7 + y^-5*z^2 + dot(y)^12/4 + (x*y)^2*(x*y)^-2 + exp(log(2)*x) - 2^x', ...
%!     'x.^7 + y.^-5.*z.^2 + vy.^12/4 + (x.*y).^2.*(x.*y).^-2 + exp(log(2)*x) - 2.^x'; ...
%!   'pi*t - t*pi + 1e-3*x + 1.5e+2*y - .25*z + 2.^x.*y./z', 'pi*t - t*pi + 1e-3*x + 1.5e+2*y - .25*z + 2.^x.*y./z'};
%! rand ('state', 6);
%! N = 40;
%! X = [rand(N, 1), 2 * rand(N, 6) - 1];
%! X(:,2:4) = sign (X(:,2:4)) .* (0.2 + 0.8 * abs (X(:,2:4)));   % |x|, |y|, |z| >= 0.2
%! for k = 1:size (forms, 1)
%!   sys = mechsys ('coordinates', {'x', 'y', 'z'}, 'lagrangian', forms{k,1});
%!   o = mechsys_eval (sys, X(:,1), X(:,2:4), X(:,5:7), 'blocks', {'lagrangian'});
%!   f = str2func (['@(x, y, z, vx, vy, vz, t) ' forms{k,2}]);
%!   v = f (X(:,2), X(:,3), X(:,4), X(:,5), X(:,6), X(:,7), X(:,1)) + zeros (N, 1);
%!   try
%!     h.assert_close (o.L, v, 1e-12, 'L');
%!   catch err
%!     error ('formula %d, L = %s\n%s', k, forms{k,1}, err.message);
%!   end
%! end

%!test
%! warning ('off', 'varmech:mechsys:nokinetic', 'local');   % random Lagrangians leave out velocities
%! % non-smooth conventions: d/dx abs(x) = sign(x), which is 0 at x = 0; d/dx sign(x) = 0
%! % everywhere (so the second derivative of abs is 0); sign(0) = 0
%! sys = mechsys ('coordinates', {'x', 'y'}, ...
%!                'lagrangian', 'abs(x) + sign(y)*dot(x) + abs(y^2 - 1)*dot(y)');
%! o = mechsys_eval (sys, 0, [0 0; 0.3 -0.2; -0.3 0.2; 0.5 1], [1 1; 1 1; 1 1; 1 1]);
%! assert (o.L_q(:,1), [0; 1; -1; 1]);
%! assert (o.L_q(:,2), [0; -2*0.2*sign(0.2^2 - 1); 2*0.2*sign(0.2^2 - 1); 0], 1e-15);
%! assert (o.L_qdot(:,1), [0; -1; 1; 1]);
%! assert (o.L_qq(:,1,1), [0; 0; 0; 0]);
%! assert (o.L_qqdot(:,2,1), [0; 0; 0; 0]);
%! assert (o.L_qqdot(:,2,2), [0; -0.4*sign(0.04 - 1); 0.4*sign(0.04 - 1); 0], 1e-15);

%!test
%! warning ('off', 'varmech:mechsys:nokinetic', 'local');   % random Lagrangians leave out velocities
%! % at a tie, min(x, y) and max(x, y) have derivative 1/2 in each argument; elsewhere 1 and 0
%! sys = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'min(x, y) + 10*max(x, y) + min(dot(x), dot(y))');
%! o = mechsys_eval (sys, 0, [0.4 0.4; 0.3 0.5; 0.5 0.3; -1 -1], [2 2; 1 3; 3 1; 0 0]);
%! assert (o.L, [0.4 + 4 + 2; 0.3 + 5 + 1; 0.3 + 5 + 1; -1 - 10 + 0], 1e-15);
%! assert (o.L_q, [5.5 5.5; 1 10; 10 1; 5.5 5.5]);
%! assert (o.L_qdot, [0.5 0.5; 1 0; 0 1; 0.5 0.5]);
%! assert (o.L_qq, zeros (4, 2, 2));
%! assert (o.L_qdotqdot, zeros (4, 2, 2));
