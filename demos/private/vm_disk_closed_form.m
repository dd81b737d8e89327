% -*- texinfo -*-
% @deftypefn {} {@var{ref} =} vm_disk_closed_form (@var{P}, @var{q0}, @var{qdot0}, @var{t})
% Closed-form motion of the rolling-spinning disk on an incline (Rothkopf & Horowitz eq. 10 with
% the ideal reaction of the linear form g1lin = v - R thetadot, g2 = xdot sin(phi) - ydot cos(phi),
% v = xdot cos(phi) + ydot sin(phi)): ID phiddot = 0 gives phi = phi0 + Omega t; projecting the
% x, y equations on (cos phi, sin phi) and (sin phi, -cos phi) with mu1 = -IS thetaddot/R gives
% (M + IS/R^2) vdot = M g sin(alpha) cos(phi) for the rolling speed v = R thetadot, hence
% v = c + (k/Omega) sin(phi), k = M g sin(alpha)/(M + IS/R^2), c = v0 - (k/Omega) sin(phi0), and
% x, y by integrating v cos(phi), v sin(phi).  The multipliers of the quadratic form are
% lambda1 = mu1/(2 v), lambda2 = mu2.  @var{P} has
% the fields M, g, alpha, R, IS, ID; @var{t} is a column.  Returns @var{ref}.q, @var{ref}.qdot
% (columns x, y, theta, phi), @var{ref}.mu (multipliers of the semi-holonomic form) and
% @var{ref}.lambda (of the quadratic form).
% @end deftypefn

function ref = vm_disk_closed_form (P, q0, qdot0, t)
  M = P.M;
  R = P.R;
  Om = qdot0(4);
  phi0 = q0(4);
  kk = M * P.g * sin (P.alpha) / (M + P.IS / R ^ 2);
  v0 = qdot0(1) * cos (phi0) + qdot0(2) * sin (phi0);
  phi = phi0 + Om * t;
  cc = v0 - kk / Om * sin (phi0);
  v = cc + kk / Om * sin (phi);
  x = q0(1) + cc * (sin (phi) - sin (phi0)) / Om + kk * (sin (phi) .^ 2 - sin (phi0) ^ 2) / (2 * Om ^ 2);
  y = q0(2) + cc * (cos (phi0) - cos (phi)) / Om ...
      + kk / Om * (t / 2 - (sin (2 * phi) - sin (2 * phi0)) / (4 * Om));
  th = q0(3) + (cc * t + kk * (cos (phi0) - cos (phi)) / Om ^ 2) / R;
  ref.q = [x, y, th, phi];
  ref.qdot = [v .* cos(phi), v .* sin(phi), v / R, Om * ones(size (t))];
  mu1 = -P.IS * kk * cos (phi) / R ^ 2;
  mu2 = -M * Om * v - M * P.g * sin (P.alpha) * sin (phi);
  ref.mu = [mu1, mu2];
  ref.lambda = [mu1 ./ (2 * v), mu2];
end
