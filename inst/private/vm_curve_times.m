% -*- texinfo -*-
% @deftypefn {} {@var{tq} =} vm_curve_times (@var{ode}, @var{Tq}, @var{y0}, @var{points}, @var{rtol})
% The times at which a stretch of trajectory from @var{y0} over [0, @var{Tq}] is sampled as a
% guess for @code{periodic_orbit}: @var{points} equispaced times and, between them, the
% integrator's own steps, each halved (a column, from 0 to @var{Tq}; empty when the integration
% fails).  The steps crowd where the trajectory turns fast, so the curve resolves what
% equispaced points miss: a relaxation oscillation (jumps of width 1/mu) sampled at equispaced
% points gives a spline that rings at the jumps, and periodic_orbit then starts on a needlessly
% fine grid from a poor guess.  No two times are closer than 1e-9 Tq (a step that ends at an
% equispaced time up to rounding would make the spline ring).  Cost: one integration over Tq.
% @end deftypefn

function tq = vm_curve_times (ode, Tq, y0, points, rtol)
  f = vm_flow (ode, 0, Tq, y0, [], [], rtol);
  tq = [];
  if (f.status ~= 0)
    return;
  end
  ts = f.t(:);
  mid = ts(1:end-1) + diff (ts) / 2;
  tq = unique ([linspace(0, Tq, points)'; ts; mid]);
  tq = tq(tq >= 0 & tq <= Tq);
  tq = tq([true; diff(tq) > 1e-9 * Tq]);
  tq(end) = Tq;
end
