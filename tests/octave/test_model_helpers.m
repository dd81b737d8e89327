% Helpers shared by the model tests (test_model_derivatives, test_model_ode, test_model_contacts):
% Richardson-extrapolated central differences, the layout of differences as Jacobian blocks, an
% elementwise closeness assertion that names the worst entry, and mechsys_eval with the weighted
% Jacobians whose differences check the Hessian blocks.  The test blocks below check the helpers
% themselves.
%
% The files use them as
%   h = test_model_helpers ();
%   D = h.richardson (@(Y) ..., X, 1e-3);
%   h.assert_close (o.F_q, h.stack (D, 2:4, 'F'), 1e-7, 'F_q');
% and add their own helpers to the struct h.
%
% Error of the differences.  The central difference D(s) = (f(x+s) - f(x-s))/(2s) is
% f' + f'''s^2/6 + f^(5)s^4/120 + O(s^6); the extrapolation (4*D(s/2) - D(s))/3 cancels the s^2
% term and leaves the truncation -f^(5)s^4/480 + O(f^(7)s^6).  Each f(x +- s) carries a rounding
% of about eps*|f| (eps/2 for the value, up to as much again from the library function), so
% D(s) carries about eps*|f|/s and the extrapolation (4/3 + 1/3)*eps*|f|/(s/2) ~ 3.4*eps*|f|/s.

function h = test_model_helpers ()
  % Return the shared helpers as a struct of function handles.
  h = struct ();
  h.richardson = @richardson;
  h.central = @central;
  h.stack = @stack;
  h.stack_gradient = @stack_gradient;
  h.assert_close = @assert_close;
  h.mech_eval = @mech_eval;
end

function D = richardson (fun, X, h)
  % D{k}.(name): Richardson-extrapolated central difference (4*D(h/2) - D(h))/3 of every field
  % of fun (X) with respect to column k of X (one row of X per point).
  nv = size (X, 2);
  D = cell (1, nv);
  for k = 1:nv
    d1 = central (fun, X, k, h);
    d2 = central (fun, X, k, h / 2);
    names = fieldnames (d1);
    r = struct ();
    for j = 1:numel (names)
      r.(names{j}) = (4 * d2.(names{j}) - d1.(names{j})) / 3;
    end
    D{k} = r;
  end
end

function d = central (fun, X, k, h)
  % d.(name): central difference (f(X + h e_k) - f(X - h e_k))/step of every field of fun (X).
  Xp = X;
  Xm = X;
  Xp(:,k) = X(:,k) + h;
  Xm(:,k) = X(:,k) - h;
  % the steps actually taken (x + h - x is not exactly h in floating point)
  step = Xp(:,k) - Xm(:,k);
  fp = fun (Xp);
  fm = fun (Xm);
  names = fieldnames (fp);
  d = struct ();
  for j = 1:numel (names)
    d.(names{j}) = bsxfun (@rdivide, fp.(names{j}) - fm.(names{j}), step);
  end
end

function R = stack (D, idx, name)
  % R(:,i,j) = D{idx(j)}.(name)(:,i): the derivatives of a vector field with respect to the
  % variables idx, laid out as the Jacobian blocks of mechsys_eval and odesys_eval (N-by-k-by-l,
  % also for a field with one component: N-by-1-by-l).
  first = D{idx(1)}.(name);
  R = zeros (size (first, 1), size (first, 2), numel (idx));
  for j = 1:numel (idx)
    R(:,:,j) = D{idx(j)}.(name);
  end
end

function R = stack_gradient (D, idx, name)
  % R(:,j) = D{idx(j)}.(name) for a scalar field (N-by-1): the derivatives laid out as a
  % gradient (N-by-l), like L_q of mechsys_eval.
  R = stack (D, idx, name);
  if (size (R, 2) ~= 1)
    error ('stack_gradient: field %s has %d components, expected 1', name, size (R, 2));
  end
  R = reshape (R, size (R, 1), numel (idx));
end

function assert_close (got, ref, tol, label)
  % Error unless |got - ref| <= tol*max(1, |ref|) elementwise; the message names the worst entry.
  if (~isequal (size (got), size (ref)))
    error ('%s: size [%s], expected [%s]', label, num2str (size (got)), num2str (size (ref)));
  end
  err = abs (got(:) - ref(:)) ./ max (1, abs (ref(:)));
  err(isnan (err)) = Inf;
  if (isempty (err))
    return;
  end
  [e, k] = max (err);
  if (~(e <= tol))
    sub = cell (1, ndims (ref));
    [sub{:}] = ind2sub (size (ref), k);
    error ('%s: error %.3g > %.3g (relative to max(1,|ref|)) at point %d, entry (%s): got %.17g, expected %.17g', ...
           label, e, tol, sub{1}, num2str ([sub{2:end}]), got(k), ref(k));
  end
end

function o = mech_eval (sys, X, lam, w, varargin)
  % mechsys_eval at the points X = [t q qdot] (further options, e.g. 'blocks', passed on), plus
  % the gradients of the weighted sums: wFq(:,i) = sum_k w_k dF_k/dq_i, wFqd (same in qdot),
  % lgq(:,i) = sum_a lambda_a dg_a/dq_i, lgqd.
  n = sys.n;
  N = size (X, 1);
  args = {};
  if (sys.m > 0)
    args = [args, {'lambda', lam}];
  end
  if (~isempty (sys.forces) || sys.nc > 0)
    args = [args, {'weights', w}];
  end
  o = mechsys_eval (sys, X(:,1), X(:,2:n+1), X(:,n+2:2*n+1), args{:}, varargin{:});
  if (isfield (o, 'F_q'))
    o.wFq = reshape (sum (bsxfun (@times, w, o.F_q), 2), N, n);
    o.wFqd = reshape (sum (bsxfun (@times, w, o.F_qdot), 2), N, n);
  end
  if (isfield (o, 'g_q'))
    o.lgq = reshape (sum (bsxfun (@times, lam, o.g_q), 2), N, n);
    o.lgqd = reshape (sum (bsxfun (@times, lam, o.g_qdot), 2), N, n);
  end
end

%!shared h
%! if (exist ('test_model_helpers', 'file') ~= 2)
%!   addpath (fullfile (pwd (), 'tests', 'octave'));
%! end
%! h = test_model_helpers ();

%!test
%! % richardson against exact derivatives: sin -> cos, exp -> exp at points in [-2, 2], step
%! % 1e-3.  Truncation |f^(5)| s^4/480 <= 7.4e-12/480 ~ 2e-14; roundoff 3.4*eps*|f|/s with
%! % |f| <= e^2 = 7.4: about 6e-12 absolute, i.e. below 1e-12 relative to max(1, |f'|) (here
%! % f' = f for exp).  Checked to 1e-11; the plain central difference (error s^2/6*|f'''|, up to
%! % 1.2e-6) fails that tolerance, so the extrapolation is really in effect.
%! x = [-2; -1.3; -0.4; 0; 0.7; 1.5; 2];
%! fun = @(Y) struct ('s', sin (Y), 'e', exp (Y));
%! D = h.richardson (fun, x, 1e-3);
%! assert (numel (D), 1);
%! h.assert_close (D{1}.s, cos (x), 1e-11, 'd sin');
%! h.assert_close (D{1}.e, exp (x), 1e-11, 'd exp');
%! d = h.central (fun, x, 1, 1e-3);
%! assert (max (abs (d.e - exp (x)) ./ max (1, exp (x))) > 1e-8);
%! assert (max (abs (d.s - cos (x))) > 1e-8);

%!test
%! % the error is the predicted -f^(5) s^4/480 (f^(5) = cos for sin): at s = 0.1 and 0.05 the
%! % truncation (2e-7, 1.3e-8) is far above the roundoff (1e-14), and the next term
%! % 0.3125*|f^(7)| s^6/5040 is below 1e-3 of it; checked to 1 percent, so the order is 4
%! x = [-1.2; -0.5; 0.3; 0.9];   % |cos x| >= 0.36
%! fun = @(Y) struct ('s', sin (Y));
%! for s = [0.1, 0.05]
%!   D = h.richardson (fun, x, s);
%!   pred = -cos (x) * s^4 / 480;
%!   assert (all (abs ((D{1}.s - cos (x)) - pred) <= 1e-2 * abs (pred)));
%! end

%!test
%! % several columns and multi-column fields: f = [sin(x) exp(y), x y^2] (the second component
%! % is a polynomial of degree 2 in y and 1 in x: no truncation), points with |x|, |y| <= 1
%! % (|f| <= e: roundoff below 1e-12, as above); the derivative with respect to a column that f
%! % does not depend on is exactly 0
%! rand ('state', 3);
%! X = [2 * rand(20, 2) - 1, rand(20, 1)];
%! x = X(:,1);
%! y = X(:,2);
%! D = h.richardson (@(Y) struct ('f', [sin(Y(:,1)) .* exp(Y(:,2)), Y(:,1) .* Y(:,2).^2]), X, 1e-3);
%! assert (numel (D), 3);
%! h.assert_close (D{1}.f, [cos(x) .* exp(y), y.^2], 1e-11, 'df/dx');
%! h.assert_close (D{2}.f, [sin(x) .* exp(y), 2 * x .* y], 1e-11, 'df/dy');
%! assert (isequal (D{3}.f, zeros (20, 2)));

%!test
%! % the differences divide by the steps actually taken: for f(x) = x the quotients are exactly
%! % 1 even where x + s is not representable (x = 0.1, 1e3 + 1/3)
%! D = h.richardson (@(Y) struct ('f', Y), [0.1; 1e3 + 1/3; -7.7], 1e-3);
%! assert (isequal (D{1}.f, ones (3, 1)));

%!test
%! % stack lays the differences out as Jacobians, R(:,i,j) = D{idx(j)}.(name)(:,i);
%! % stack_gradient does so for a scalar field as an N-by-l gradient
%! D = cell (1, 4);
%! for k = 1:4
%!   D{k} = struct ('F', [10*k + (1:3); 100*k + (1:3)], 'L', [k; -k]);
%! end
%! R = h.stack (D, [2 4], 'F');
%! assert (size (R), [2 3 2]);
%! assert (squeeze (R(1,:,:)), [21 41; 22 42; 23 43]);
%! assert (squeeze (R(2,:,:)), [201 401; 202 402; 203 403]);
%! assert (size (h.stack (D, 1:3, 'L')), [2 1 3]);
%! assert (h.stack_gradient (D, 1:3, 'L'), [1 2 3; -1 -2 -3]);

%!error <stack_gradient: field F has 3 components, expected 1>
%! D = {struct('F', [1 2 3])};
%! h.stack_gradient (D, 1, 'F');

%!test
%! % assert_close passes within tol*max(1, |ref|): absolute below 1, relative above; exact
%! % equality with tol 0; empty arrays
%! ref = [0.5; -3; 1e6];
%! h.assert_close (ref + [0.9e-8; -2.7e-8; 0.9e-2], ref, 1e-8, 'within');
%! h.assert_close (ref, ref, 0, 'exact');
%! h.assert_close (zeros (0, 3), zeros (0, 3), 0, 'empty');

%!error <absolute: error 2e-08 . 1e-08 .relative to max.1,.ref... at point 1, entry .1.>
%! % |ref| < 1: the error is absolute
%! h.assert_close (0.5 + 2e-8, 0.5, 1e-8, 'absolute');

%!error <relative: error 2e-08 . 1e-08 .* at point 3, entry .1.>
%! % |ref| > 1: the error is relative (2e-2 on 1e6); the message names the worst entry
%! h.assert_close ([0.5; -3; 1e6 + 2e-2], [0.5; -3; 1e6], 1e-8, 'relative');

%!error <worst: .* at point 2, entry .3  2.: got 1.5, expected 1>
%! % the worst entry of an N-by-k-by-l array, with its point and entry (i j)
%! ref = ones (3, 3, 2);
%! got = ref;
%! got(1,1,1) = 1 + 1e-3;
%! got(2,3,2) = 1.5;
%! h.assert_close (got, ref, 1e-6, 'worst');

%!error <nan: error Inf>
%! % a NaN is never close
%! h.assert_close ([1; NaN], [1; 2], 1e10, 'nan');

%!error <shape: size \[2  3\], expected \[3  2\]>
%! h.assert_close (zeros (2, 3), zeros (3, 2), 1, 'shape');

%!test
%! % mech_eval: the weighted Jacobians against the closed form of a small system with a force and
%! % a constraint; F = [x*y*dot(y), sin(x) + y^2*dot(x)], g = x^2*dot(y) + y.  A few roundings on
%! % values of order one: checked to 1e-14
%! sys = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', ...
%!   'forces', {'x*y*dot(y)', 'sin(x) + y^2*dot(x)'}, 'constraints', {'x^2*dot(y) + y'});
%! rand ('state', 8);
%! X = 2 * rand (10, 5) - 1;
%! lam = 2 * rand (10, 1) - 1;
%! w = 2 * rand (10, 2) - 1;
%! o = h.mech_eval (sys, X, lam, w);
%! x = X(:,2);  y = X(:,3);  vx = X(:,4);  vy = X(:,5);
%! w1 = w(:,1);  w2 = w(:,2);
%! h.assert_close (o.F, [x .* y .* vy, sin(x) + y.^2 .* vx], 1e-14, 'F');
%! h.assert_close (o.wFq, [w1 .* y .* vy + w2 .* cos(x), w1 .* x .* vy + w2 .* 2 .* y .* vx], 1e-14, 'wFq');
%! h.assert_close (o.wFqd, [w2 .* y.^2, w1 .* x .* y], 1e-14, 'wFqd');
%! h.assert_close (o.lgq, [lam .* 2 .* x .* vy, lam], 1e-14, 'lgq');
%! h.assert_close (o.lgqd, [zeros(10, 1), lam .* x.^2], 1e-14, 'lgqd');
%! % options are passed on: only the blocks asked for
%! o2 = h.mech_eval (sys, X, lam, w, 'blocks', {'forces'});
%! assert (isfield (o2, 'wFq') && ~isfield (o2, 'L') && ~isfield (o2, 'lgq'));
%! assert (isequal (o2.wFq, o.wFq));
