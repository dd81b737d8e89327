% Tests of the contact forces of mechsys on the tumbler: a point mass in the plane (coordinates
% x, y; L = m/2*(dot(x)^2 + dot(y)^2) - m*g*y) kept inside the circle of radius R by the contact
% h = R^2 - x^2 - y^2 >= 0, with barrier V0, width sigma, friction coefficient mu and slip speed
% epsv.  Closed form written out in the test blocks (help mechsys):
%   FN = V0/sqrt(2*pi*sigma^2) * exp(-h^2/(2*sigma^2)) * grad h,
%   FR = -mu*|FN| * v/sqrt(|v|^2 + epsv^2),  v = qdot - (qdot . grad h) grad h/|grad h|^2.
%
% Derivatives are checked against Richardson-extrapolated central differences
% (4*D(s/2) - D(s))/3.  The Gaussian factor varies on the scale sigma/|grad h| = 0.05 in q, so the
% step is s = 2e-4: truncation about (s/0.05)^4 ~ 3e-10 relative, roundoff about
% 3*eps*|F|/(s/2) ~ 1e-11*|F| with |F| <= 5.  The velocities keep the tangential speed >= 0.2
% (four times epsv), so the friction direction varies on the scale 0.2 in qdot: truncation
% (s/0.2)^4 ~ 1e-12.  Tolerance 1e-7*max(1,|ref|) elementwise; measured at most 5e-10 (with the
% step 1e-3 of the other files the truncation would reach 3e-7 on wF_qq).
%
% The shared helpers (richardson, stack, assert_close, mech_eval) are those of
% test_model_helpers; the test blocks reach them, and the subfunctions contact_eval, closed_form
% and points of this file, through the handles returned by test_model_contacts ().

function h = test_model_contacts ()
  % Return the helpers of the test blocks as a struct of function handles.
  h = test_model_helpers ();
  h.contact_eval = @contact_eval;
  h.closed_form = @closed_form;
  h.points = @points;
end

function o = contact_eval (sys, X, w)
  % The forces, contacts and eom blocks at the points X = [t q qdot] with the w-weighted
  % Jacobians wFq, wFqd of test_model_helpers' mech_eval, and FN, FR, h_q as N-by-n (one
  % contact).
  h = test_model_helpers ();
  n = sys.n;
  N = size (X, 1);
  o = h.mech_eval (sys, X, [], w, 'blocks', {'forces', 'contacts', 'eom'});
  o.FN = reshape (o.FN, N, n);
  o.FR = reshape (o.FR, N, n);
  o.h_q = reshape (o.h_q, N, n);
end

function c = closed_form (p, q, qd)
  % The contact of the tumbler written out: h, grad h, FN, FR and the tangential velocity.
  x = q(:,1);
  y = q(:,2);
  c.h = p.R^2 - x.^2 - y.^2;
  c.gh = [-2*x, -2*y];
  gn2 = sum (c.gh.^2, 2);
  amp = p.V0 / sqrt (2*pi*p.s^2) * exp (-c.h.^2 / (2*p.s^2));
  c.FN = [amp, amp] .* c.gh;
  c.FNabs = amp .* sqrt (gn2);
  vn = sum (qd .* c.gh, 2);
  c.vpar = qd - [vn, vn] .* c.gh ./ [gn2, gn2];
  slip = sqrt (sum (c.vpar.^2, 2) + p.ev^2);
  c.FR = -p.mu * [c.FNabs, c.FNabs] .* c.vpar ./ [slip, slip];
end

function X = points (N, p)
  % N points [t x y dx dy] in the contact layer (h uniform in [-2 sigma, 2 sigma]) with velocity
  % a*(unit tangent) + b*(unit normal), |a| in [0.2, 1], b in [-1, 1].
  hh = (4 * rand (N, 1) - 2) * p.s;
  r = sqrt (p.R^2 - hh);
  th = 2 * pi * rand (N, 1);
  nx = cos (th);
  ny = sin (th);
  a = (0.2 + 0.8 * rand (N, 1)) .* sign (rand (N, 1) - 0.5);
  b = 2 * rand (N, 1) - 1;
  X = [rand(N, 1), r .* nx, r .* ny, -a .* ny + b .* nx, a .* nx + b .* ny];
end

%!shared h, sys, p, X, w, o, c
%! if (exist ('test_model_contacts', 'file') ~= 2)
%!   addpath (fullfile (pwd (), 'tests', 'octave'));
%! end
%! h = test_model_contacts ();
%! p = struct ('m', 1.3, 'g', 9.8, 'R', 1, 's', 0.1, 'V0', 0.5, 'mu', 0.4, 'ev', 0.05);
%! sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', p, ...
%!   'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', ...
%!   'contacts', struct ('h', 'R^2 - x^2 - y^2', 'sigma', 's', 'V0', 'V0', 'mu', 'mu', 'epsv', 'ev'));
%! rand ('state', 77);
%! X = h.points (60, p);
%! w = 2 * rand (60, 2) - 1;
%! o = h.contact_eval (sys, X, w);
%! c = h.closed_form (p, X(:,2:3), X(:,4:5));

%!test
%! % the contacts block against the closed form: a few dozen roundings on values of order one,
%! % the exponent h^2/(2 sigma^2) <= 2 carrying the rounding of h (about 2e-16) times h/sigma^2
%! % <= 20: errors below 1e-14, checked to 1e-12
%! assert (sys.nc, 1);
%! assert (size (o.FN), [60 2]);
%! h.assert_close (o.h, c.h, 1e-12, 'h');
%! h.assert_close (o.h_q, c.gh, 1e-12, 'h_q');
%! h.assert_close (o.FN, c.FN, 1e-12, 'FN');
%! h.assert_close (o.FR, c.FR, 1e-12, 'FR');
%! % the points are in the contact layer: the forces are not negligible
%! assert (all (abs (o.h) <= 2 * p.s + 1e-12));
%! assert (min (sqrt (sum (o.FN.^2, 2))) > 0.1);

%!test
%! % FN points to the admissible side: parallel to grad h with a positive factor, and h
%! % increases along it
%! d = sum (o.FN .* c.gh, 2);
%! nFN = sqrt (sum (o.FN.^2, 2));
%! ngh = sqrt (sum (c.gh.^2, 2));
%! assert (all (d > 0));
%! assert (all (abs (o.FN(:,1) .* c.gh(:,2) - o.FN(:,2) .* c.gh(:,1)) <= 1e-14 * nFN .* ngh));
%! q1 = X(:,2:3) + 1e-3 * o.FN ./ [nFN, nFN];
%! o1 = mechsys_eval (sys, X(:,1), q1, X(:,4:5), 'blocks', {'contacts'});
%! assert (all (o1.h > o.h));

%!test
%! % FR is tangential (FR . grad h = 0 up to rounding), opposes the tangential velocity (and so
%! % the velocity: FR . qdot = FR . v < 0), is antiparallel to v, and |FR| < mu |FN|
%! nFR = sqrt (sum (o.FR.^2, 2));
%! ngh = sqrt (sum (c.gh.^2, 2));
%! nv = sqrt (sum (c.vpar.^2, 2));
%! nFN = sqrt (sum (o.FN.^2, 2));
%! assert (all (abs (sum (o.FR .* c.gh, 2)) <= 1e-14 * nFR .* ngh));
%! assert (all (sum (o.FR .* X(:,4:5), 2) < 0));
%! assert (all (abs (sum (o.FR .* c.vpar, 2) + nFR .* nv) <= 1e-14 * nFR .* nv));
%! assert (all (nFR < p.mu * nFN));
%! assert (all (nFR > 0.5 * p.mu * nFN));   % |v| >= 0.2 = 4 epsv: nearly full Coulomb friction

%!test
%! % the total force of the forces block is FN + FR (no other forces: one addition, exact to
%! % rounding), and the equations of motion add it to dL/dq = [0, -m g]
%! h.assert_close (o.F, o.FN + o.FR, 1e-15, 'F = FN + FR');
%! h.assert_close (o.f, [zeros(60, 1), -p.m * p.g * ones(60, 1)] + o.F, 1e-14, 'f');
%! h.assert_close (squeeze (o.M(7,:,:)), p.m * eye (2), 1e-15, 'M');

%!test
%! % F_q, F_qdot and the Hessian blocks of w . F against Richardson differences, step 2e-4
%! % (tolerance: see the head of the file)
%! D = h.richardson (@(Y) h.contact_eval (sys, Y, w), X, 2e-4);
%! h.assert_close (o.F_q, h.stack (D, 2:3, 'F'), 1e-7, 'F_q');
%! h.assert_close (o.F_qdot, h.stack (D, 4:5, 'F'), 1e-7, 'F_qdot');
%! h.assert_close (o.wF_qq, h.stack (D, 2:3, 'wFq'), 1e-7, 'wF_qq');
%! h.assert_close (o.wF_qqdot, h.stack (D, 4:5, 'wFq'), 1e-7, 'wF_qqdot');
%! h.assert_close (o.wF_qdotqdot, h.stack (D, 4:5, 'wFqd'), 1e-7, 'wF_qdotqdot');

%!test
%! % parameters changed without recompiling: no friction (mu = 0) leaves FN alone and FR = 0
%! s2 = sys;
%! s2.parameters.mu = 0;
%! o2 = h.contact_eval (s2, X, w);
%! assert (isequal (s2.blocks, sys.blocks));
%! assert (all (o2.FR(:) == 0));
%! h.assert_close (o2.FN, o.FN, 0, 'FN (mu = 0)');
%! h.assert_close (o2.F, o.FN, 0, 'F (mu = 0)');
%! % a barrier twice as high doubles FN and FR
%! s2 = sys;
%! s2.parameters.V0 = 2 * p.V0;
%! o2 = h.contact_eval (s2, X, w);
%! h.assert_close (o2.FN, 2 * o.FN, 1e-14, 'FN (2 V0)');
%! h.assert_close (o2.FR, 2 * o.FR, 1e-14, 'FR (2 V0)');

%!test
%! % a purely normal velocity has no tangential part: no friction, and no division by zero
%! % (the slip speed is smoothed by epsv); the rounding of v is about eps*|qdot|, so |FR| is
%! % below mu*|FN|*1e-15/epsv
%! q = X(:,2:3);
%! qd = [0.7 * q(:,1), 0.7 * q(:,2)];
%! o2 = mechsys_eval (sys, X(:,1), q, qd, 'blocks', {'contacts'});
%! FR = reshape (o2.FR, 60, 2);
%! FN = reshape (o2.FN, 60, 2);
%! assert (all (isfinite (FR(:))));
%! assert (all (sqrt (sum (FR.^2, 2)) <= p.mu * sqrt (sum (FN.^2, 2)) * 1e-15 / p.ev));

%!test
%! % contact coefficients given as numbers, with the defaults mu = 0 and epsv = 1e-3
%! s3 = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', 'dot(x)^2/2 + dot(y)^2/2', ...
%!   'contacts', struct ('h', '1 - x^2 - y^2', 'sigma', 0.1, 'V0', 0.5));
%! assert (s3.contacts.mu, '0');
%! assert (s3.contacts.epsv, '1e-3');
%! o3 = mechsys_eval (s3, 0, X(:,2:3), X(:,4:5), 'blocks', {'contacts', 'forces'});
%! assert (all (o3.FR(:) == 0));
%! h.assert_close (reshape (o3.FN, 60, 2), c.FN, 1e-12, 'FN (numeric coefficients)');
%! h.assert_close (o3.F, c.FN, 1e-12, 'F (numeric coefficients)');
