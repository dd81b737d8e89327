function dy = pars_rhs (t, y)
% -*- texinfo -*-
% @deftypefn {} {@var{dy} =} pars_rhs (@var{t}, @var{y})
% Right-hand side of the particle of Pars for @code{ode45}, written by hand as a user would today
% (benchmark peer of @code{gauss_integrate} in @file{bench/bench_integrate.m}).
%
% State @code{y = [x1; x2; x3; v1; v2; v3]}: a particle of unit mass, no applied force, under the
% constraint @code{x3 v1 - v2 = 0} (Pars 1954; Acharya and Sengupta, eq. 42c).  Gauss's principle
% with @code{M = I}, @code{A = (x3, -1, 0)}, @code{c = -(dg/dx) v = -v3 v1}: @code{qdd = A' lambda},
% @code{(A A') lambda = c}, so
% @example
% lambda = -v1 v3/(1 + x3^2),  x1dd = x3 lambda,  x2dd = -lambda,  x3dd = 0
% @end example
% which is Acharya and Sengupta's eq. 44 (their multiplier is @code{-lambda}, with
% @code{vdot = -Q}).  The same formulas are in @file{bench/cvode_peer.c}.
% @seealso{bench_integrate, disk_rhs}
% @end deftypefn

  x3 = y(3);
  v1 = y(4);
  v3 = y(6);
  lam = -v1 * v3 / (1 + x3^2);
  dy = [y(4); y(5); v3; x3 * lam; -lam; 0];
end
