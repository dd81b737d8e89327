% Tests of odesys/odesys_eval: values against closed forms written out here, exact derivatives
% (F_y, F_t, G_y, G_t, and the weighted Hessians wF_yy, wG_yy) against finite differences, and
% parameter changes through ode.parameters without recompiling.
%
% References for the derivatives are Richardson-extrapolated central differences
% (4*D(h/2) - D(h))/3 with h = 1e-3: truncation O(h^4) (zero for the Lorenz polynomials of degree
% two), roundoff about 3*eps*|F|/(h/2) ~ 1e-12*|F|.  The Hessians are checked against differences
% of the exact Jacobians weighted as in their definition (sum_i wF_i F_y(:,i,:)), which are checked
% against the values first.  Tolerance 1e-7*max(1,|ref|) elementwise: far above these errors
% (|F| <= 1e3 at the Lorenz points gives roundoff <= 1e-9) and far below a wrong derivative.
% Measured: at most 5e-11.
%
% The shared helpers (richardson, stack, assert_close) are those of test_model_helpers; the test
% blocks reach them, and the subfunction ode_eval of this file, through the handles returned by
% test_model_ode ().

function h = test_model_ode ()
  % Return the helpers of the test blocks as a struct of function handles.
  h = test_model_helpers ();
  h.ode_eval = @ode_eval;
end

function o = ode_eval (ode, X, wf, wg)
  % odesys_eval at the points X = [t y], plus the weighted Jacobians
  % wFy(:,j) = sum_i wF_i dF_i/dy_j and wGy(:,j) = sum_a wG_a dG_a/dy_j.
  N = size (X, 1);
  args = {};
  if (ode.nd > 0)
    args = [args, {'wF', wf}];
  end
  if (ode.na > 0)
    args = [args, {'wG', wg}];
  end
  o = odesys_eval (ode, X(:,1), X(:,2:end), args{:});
  if (ode.nd > 0)
    o.wFy = reshape (sum (bsxfun (@times, wf, o.F_y), 2), N, ode.ny);
  end
  if (ode.na > 0)
    o.wGy = reshape (sum (bsxfun (@times, wg, o.G_y), 2), N, ode.ny);
  end
end

%!shared h, ode, X, wf, o, D
%! if (exist ('test_model_ode', 'file') ~= 2)
%!   addpath (fullfile (pwd (), 'tests', 'octave'));
%! end
%! h = test_model_ode ();
%! ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('sigma', 10, 'rho', 28, 'beta', 8/3), ...
%!   'rhs', {'sigma*(y - x)', 'x*(rho - z) - y', 'x*y - beta*z'});
%! rand ('state', 31);
%! N = 40;
%! X = [10 * rand(N, 1), 40 * rand(N, 2) - 20, 50 * rand(N, 1)];   % [t x y z] on the attractor's scale
%! wf = 2 * rand (N, 3) - 1;
%! o = h.ode_eval (ode, X, wf, []);
%! D = h.richardson (@(Y) h.ode_eval (ode, Y, wf, []), X, 1e-3);

%!test
%! % Lorenz values and Jacobian against the closed form (a few roundings: 1e-13 relative)
%! x = X(:,2);  y = X(:,3);  z = X(:,4);
%! h.assert_close (o.F, [10*(y - x), x.*(28 - z) - y, x.*y - 8/3*z], 1e-13, 'F');
%! N = size (X, 1);
%! J = zeros (N, 3, 3);
%! J(:,1,1) = -10;  J(:,1,2) = 10;
%! J(:,2,1) = 28 - z;  J(:,2,2) = -1;  J(:,2,3) = -x;
%! J(:,3,1) = y;  J(:,3,2) = x;  J(:,3,3) = -8/3;
%! h.assert_close (o.F_y, J, 1e-13, 'F_y (closed form)');
%! assert (size (o.G), [N 0]);

%!test
%! % F_y(:,i,j) = dF_i/dy_j and F_t (zero: the system is autonomous) against differences
%! h.assert_close (o.F_y, h.stack (D, 2:4, 'F'), 1e-7, 'F_y');
%! h.assert_close (o.F_t, D{1}.F, 1e-7, 'F_t');
%! assert (all (o.F_t(:) == 0));

%!test
%! % wF_yy: Hessian of wF . F, against differences of sum_i wF_i F_y(:,i,:); for Lorenz it does
%! % not depend on y: [0 w3 -w2; w3 0 0; -w2 0 0] (exact: no rounding, checked to 1e-15)
%! h.assert_close (o.wF_yy, h.stack (D, 2:4, 'wFy'), 1e-7, 'wF_yy');
%! N = size (X, 1);
%! H = zeros (N, 3, 3);
%! H(:,1,3) = -wf(:,2);  H(:,3,1) = -wf(:,2);   % w2 * x*(rho - z)
%! H(:,1,2) = wf(:,3);   H(:,2,1) = wf(:,3);    % w3 * x*y
%! h.assert_close (o.wF_yy, H, 1e-15, 'wF_yy (closed form)');

%!test
%! % changing a parameter through ode.parameters changes the results without recompiling
%! ode2 = ode;
%! ode2.parameters.rho = 10;
%! ode2.parameters.beta = 1.5;
%! o2 = odesys_eval (ode2, X(:,1), X(:,2:4));
%! assert (isequal (ode2.blocks, ode.blocks));
%! x = X(:,2);  y = X(:,3);  z = X(:,4);
%! h.assert_close (o2.F, [10*(y - x), x.*(10 - z) - y, x.*y - 1.5*z], 1e-13, 'F (rho = 10, beta = 1.5)');
%! h.assert_close (o2.F_y(:,2,1), 10 - z, 1e-13, 'dF_2/dx (rho = 10)');
%! h.assert_close (o2.F_y(:,3,3), -1.5 + zeros (size (z)), 1e-15, 'dF_3/dz (beta = 1.5)');
%! % the original system still has rho = 28
%! o1 = odesys_eval (ode, X(:,1), X(:,2:4));
%! h.assert_close (o1.F(:,2), x.*(28 - z) - y, 1e-13, 'F_2 (rho = 28)');

%!shared h, dae, X, wf, wg, o, D, ref
%! if (exist ('test_model_ode', 'file') ~= 2)
%!   addpath (fullfile (pwd (), 'tests', 'octave'));
%! end
%! h = test_model_ode ();
%! % A small DAE: the pendulum in Cartesian coordinates with quadratic drag and a periodic
%! % horizontal force; the multiplier lam is the algebraic state, given by the index-1 condition
%! % d2/dt2 (px^2 + py^2)/2 = 0.
%! dae = odesys ('states', {'px', 'py', 'vx', 'vy', 'lam'}, ...
%!   'parameters', struct ('g', 9.81, 'c', 0.3, 'A', 0.8, 'om', 2.5), ...
%!   'rhs', {'vx', 'vy', '-lam*px - c*vx*sqrt(vx^2 + vy^2) + A*sin(om*t)', ...
%!           '-lam*py - c*vy*sqrt(vx^2 + vy^2) - g'}, ...
%!   'algebraic', {['vx^2 + vy^2 - lam*(px^2 + py^2) - g*py + A*px*sin(om*t)' ...
%!                  ' - c*(px*vx + py*vy)*sqrt(vx^2 + vy^2)']});
%! ref.F = @(t, px, py, vx, vy, lam, g, c, A, om) [vx, vy, ...
%!   -lam.*px - c*vx.*sqrt(vx.^2 + vy.^2) + A*sin(om*t), -lam.*py - c*vy.*sqrt(vx.^2 + vy.^2) - g];
%! ref.G = @(t, px, py, vx, vy, lam, g, c, A, om) vx.^2 + vy.^2 - lam.*(px.^2 + py.^2) - g*py ...
%!   + A*px.*sin(om*t) - c*(px.*vx + py.*vy).*sqrt(vx.^2 + vy.^2);
%! rand ('state', 32);
%! N = 40;
%! X = [4 * rand(N, 1), 4 * rand(N, 5) - 2];
%! X(:,4:5) = sign (X(:,4:5)) .* (0.3 + abs (X(:,4:5)));   % speed >= 0.3: sqrt(vx^2 + vy^2) is smooth
%! wf = 2 * rand (N, 4) - 1;
%! wg = 2 * rand (N, 1) - 1;
%! o = h.ode_eval (dae, X, wf, wg);
%! D = h.richardson (@(Y) h.ode_eval (dae, Y, wf, wg), X, 1e-3);

%!test
%! % sizes and values against the closed form
%! N = size (X, 1);
%! assert ([dae.ny dae.nd dae.na], [5 4 1]);
%! assert (size (o.F_y), [N 4 5]);
%! assert (size (o.G_y), [N 1 5]);
%! assert (size (o.wF_yy), [N 5 5]);
%! assert (size (o.wG_yy), [N 5 5]);
%! args = [{X(:,1)}, num2cell(X(:,2:6), 1), {9.81, 0.3, 0.8, 2.5}];
%! h.assert_close (o.F, ref.F (args{:}), 1e-13, 'F');
%! h.assert_close (o.G, ref.G (args{:}), 1e-13, 'G');

%!test
%! % Jacobians and time derivatives against differences (state columns 2..6 of X, time column 1)
%! h.assert_close (o.F_y, h.stack (D, 2:6, 'F'), 1e-7, 'F_y');
%! h.assert_close (o.F_t, D{1}.F, 1e-7, 'F_t');
%! h.assert_close (o.G_y, h.stack (D, 2:6, 'G'), 1e-7, 'G_y');
%! h.assert_close (o.G_t, D{1}.G, 1e-7, 'G_t');
%! % the forcing is the only time dependence
%! h.assert_close (o.F_t, [zeros(size (X, 1), 2), 0.8*2.5*cos(2.5*X(:,1)), zeros(size (X, 1), 1)], ...
%!                 1e-13, 'F_t (closed form)');

%!test
%! % weighted Hessians against differences of the weighted exact Jacobians
%! h.assert_close (o.wF_yy, h.stack (D, 2:6, 'wFy'), 1e-7, 'wF_yy');
%! h.assert_close (o.wG_yy, h.stack (D, 2:6, 'wGy'), 1e-7, 'wG_yy');
%! % the weights enter linearly: doubling them doubles the Hessians
%! o2 = odesys_eval (dae, X(:,1), X(:,2:6), 'wF', 2*wf, 'wG', 2*wg);
%! h.assert_close (o2.wF_yy, 2*o.wF_yy, 1e-15, 'wF_yy (2 w)');
%! h.assert_close (o2.wG_yy, 2*o.wG_yy, 1e-15, 'wG_yy (2 w)');

%!test
%! % parameters of the DAE changed without recompiling: the forcing amplitude and frequency
%! dae2 = dae;
%! dae2.parameters.A = -1.7;
%! dae2.parameters.om = 0.5;
%! o2 = odesys_eval (dae2, X(:,1), X(:,2:6));
%! assert (isequal (dae2.blocks, dae.blocks));
%! args = [{X(:,1)}, num2cell(X(:,2:6), 1), {9.81, 0.3, -1.7, 0.5}];
%! h.assert_close (o2.F, ref.F (args{:}), 1e-13, 'F (A = -1.7, om = 0.5)');
%! h.assert_close (o2.G, ref.G (args{:}), 1e-13, 'G (A = -1.7, om = 0.5)');
%! h.assert_close (o2.F_t(:,3), -1.7*0.5*cos(0.5*X(:,1)), 1e-13, 'F_t (A = -1.7, om = 0.5)');
%! h.assert_close (o2.G_t, -1.7*0.5*X(:,2).*cos(0.5*X(:,1)), 1e-13, 'G_t (A = -1.7, om = 0.5)');
