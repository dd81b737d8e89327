% -*- texinfo -*-
% @deftypefn {} {[@var{lag}, @var{con}] =} disk_handwritten_compact (@var{q}, @var{qdot}, @var{lambda}, @var{p})
% Benchmark peer: the rolling-disk derivatives that are not identically zero, written by hand as
% vectorized Octave expressions, one column each, in the column order of
% @code{mechsys_eval (..., 'blocks', @{'lagrangian', 'constraints'@}, 'layout', 'compact')}
% (checked by the test below).
%
% @var{lag} (N-by-10): L, dL/dx, dL/dqdot (4), d2L/dqdot_i^2 (4).
% @var{con} (N-by-14): g1, dg1/dqdot (x y theta), g2, dg2/dqdot (x y), dg2/dphi,
% d2(lambda.g)/dphi^2, d2(lambda.g)/dphi dqdot (x y), d2(lambda.g)/dqdot_i^2 (x y theta).
% @end deftypefn

function [lag, con] = disk_handwritten_compact (q, qdot, lambda, p)
  phi = q(:,4);
  xd = qdot(:,1);  yd = qdot(:,2);  thd = qdot(:,3);  phd = qdot(:,4);
  l1 = lambda(:,1);  l2 = lambda(:,2);
  N = size (q, 1);
  s = sin (phi);  c = cos (phi);
  v2 = xd.^2 + yd.^2;
  o = ones (N, 1);
  lag = [p.M/2*v2 + p.IS/2*thd.^2 + p.ID/2*phd.^2 + p.M*p.g*sin(p.alpha)*q(:,1), ...
         p.M*p.g*sin(p.alpha)*o, p.M*xd, p.M*yd, p.IS*thd, p.ID*phd, ...
         p.M*o, p.M*o, p.IS*o, p.ID*o];
  g2 = xd.*s - yd.*c;
  con = [v2 - p.R^2*thd.^2, 2*xd, 2*yd, -2*p.R^2*thd, ...
         g2, s, -c, xd.*c + yd.*s, ...
         -l2.*g2, l2.*c, l2.*s, 2*l1, 2*l1, -2*p.R^2*l1];
end

%!test
%! addpath (fullfile (fileparts (mfilename ('fullpath'))));
%! sys = mechsys ('coordinates', {'x', 'y', 'theta', 'phi'}, ...
%!   'parameters', struct ('M', 1.5, 'g', 9.8, 'alpha', pi/6, 'R', 0.7, 'IS', 1/2, 'ID', 1/4), ...
%!   'lagrangian', 'M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)', ...
%!   'constraints', {'dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
%! N = 20;  q = rand (N, 4);  qd = rand (N, 4);  lam = rand (N, 2);
%! c = mechsys_eval (sys, 0, q, qd, 'lambda', lam, 'layout', 'compact', 'blocks', {'lagrangian', 'constraints'});
%! [lag, con] = disk_handwritten_compact (q, qd, lam, sys.parameters);
%! assert ([lag con], c.values, 1e-13);
