function dy = disk_rhs (t, y, p)
% -*- texinfo -*-
% @deftypefn {} {@var{dy} =} disk_rhs (@var{t}, @var{y}, @var{p})
% Right-hand side of the rolling disk for @code{ode45}, written by hand as a user would today
% (benchmark peer of @code{gauss_integrate} in @file{bench/bench_integrate.m}).
%
% State @code{y = [x; y; theta; phi; xd; yd; thd; phd]}; @var{p} has the fields @code{M},
% @code{g}, @code{alpha}, @code{R}, @code{IS}, @code{ID}.  Lagrangian
% @code{L = M/2 (xd^2 + yd^2) + IS/2 thd^2 + ID/2 phd^2 + M g x sin(alpha)}, constraints
% @code{g1 = xd^2 + yd^2 - R^2 thd^2} and @code{g2 = xd sin(phi) - yd cos(phi)}.
%
% Gauss's principle (ideal reaction): minimize @code{(qdd - M^-1 f)' M (qdd - M^-1 f)} subject to
% the differentiated constraints @code{A qdd = c}, with @code{M = diag(M, M, IS, ID)},
% @code{f = (M g sin(alpha), 0, 0, 0)}, @code{A = dg/dqdot = [2 xd, 2 yd, -2 R^2 thd, 0;
% sin(phi), -cos(phi), 0, 0]} and @code{c = -(dg/dq) qdot = (0, -(xd cos(phi) + yd sin(phi)) phd)}.
% Hence @code{qdd = M^-1 (f + A' lambda)} with @code{(A M^-1 A') lambda = c - A M^-1 f}; the
% 2-by-2 system is solved by Cramer's rule:
% @example
% G11 = 4 (xd^2 + yd^2)/M + 4 R^4 thd^2/IS,  G12 = 2 (xd sin(phi) - yd cos(phi))/M,  G22 = 1/M
% r1 = -2 xd g sin(alpha),  r2 = -(xd cos(phi) + yd sin(phi)) phd - sin(phi) g sin(alpha)
% lambda1 = (G22 r1 - G12 r2)/D,  lambda2 = (G11 r2 - G12 r1)/D,  D = G11 G22 - G12^2
% xdd = g sin(alpha) + (2 xd lambda1 + sin(phi) lambda2)/M
% ydd = (2 yd lambda1 - cos(phi) lambda2)/M
% thdd = -2 R^2 thd lambda1/IS,  phdd = 0
% @end example
% These are the same formulas as in @file{bench/cvode_peer.c} (and valid off the constraint
% manifold, as @code{gauss_integrate}'s ideal law).  On the manifold, with @code{phi(0) = 0} and
% @code{phd = 1}, the speed is @code{v = 5 + k sin(t)}, @code{k = g sin(alpha) M R^2/(IS + M R^2)}
% (checked in @file{bench/bench_integrate.m}).
% @seealso{bench_integrate, pars_rhs}
% @end deftypefn

  xd = y(5);
  yd = y(6);
  thd = y(7);
  phd = y(8);
  s = sin (y(4));
  c = cos (y(4));
  gs = p.g * sin (p.alpha);
  R2 = p.R^2;
  G11 = 4 * (xd^2 + yd^2) / p.M + 4 * R2^2 * thd^2 / p.IS;
  G12 = 2 * (xd * s - yd * c) / p.M;
  G22 = 1 / p.M;
  r1 = -2 * xd * gs;
  r2 = -(xd * c + yd * s) * phd - s * gs;
  detG = G11 * G22 - G12^2;
  l1 = (G22 * r1 - G12 * r2) / detG;
  l2 = (G11 * r2 - G12 * r1) / detG;
  dy = [xd; yd; thd; phd; ...
        gs + (2 * xd * l1 + s * l2) / p.M; ...
        (2 * yd * l1 - c * l2) / p.M; ...
        -2 * R2 * thd * l1 / p.IS; ...
        0];
end
