% -*- texinfo -*-
% @deftypefn {} {[@var{phi}, @var{gpos}, @var{energy}] =} vm_constraint_residuals (@var{sys}, @var{t}, @var{q}, @var{qdot})
% The constraint residuals and the energy of a @code{mechsys} system at the points of a
% solution, in the definitions of @code{gauss_integrate}.
%
% @var{t} is N-by-1, @var{q} and @var{qdot} N-by-n.  @var{phi} (N-by-m) holds every constraint
% at velocity level: g(t, q, qdot) for a constraint that depends on the velocities, and
% @code{dg/dq qdot + dg/dt} for a holonomic one g(t, q).  @var{gpos} (N-by-m) holds the holonomic
% constraints at position level, g(t, q), and 0 in the columns of the others.  @var{energy}
% (N-by-1) is @code{qdot . dL/dqdot - L}.  Rows whose point is not finite are NaN.  A constraint
% is holonomic when its compiled velocity gradient has no entry that is not identically zero
% (the compact layout of @code{mechsys_eval}).
% @end deftypefn

function [phi, gpos, energy] = vm_constraint_residuals (sys, t, q, qdot)
  npts = numel (t);
  m = sys.m;
  phi = NaN (npts, m);
  gpos = NaN (npts, m);
  energy = NaN (npts, 1);
  ok = all (isfinite ([t(:) q qdot]), 2);
  if (~any (ok))
    return;
  end
  if (m == 0)
    e = mechsys_eval (sys, t(ok), q(ok, :), qdot(ok, :), 'blocks', {'eom'});
    energy(ok) = e.energy;
    return;
  end
  e = mechsys_eval (sys, t(ok), q(ok, :), qdot(ok, :), 'blocks', {'eom', 'constraints'});
  energy(ok) = e.energy;
  % which constraints depend on the velocities: the structure of the compiled g_qdot
  s = mechsys_eval (sys, t(find (ok, 1)), q(find (ok, 1), :), qdot(find (ok, 1), :), ...
                    'blocks', {'constraints'}, 'layout', 'compact');
  vel = false (1, m);
  vel(s.row(strcmp (s.field, 'g_qdot'))) = true;
  k = find (ok);
  for a = 1:m
    if (vel(a))
      phi(k, a) = e.g(:, a);
      gpos(k, a) = 0;
    else
      ga_q = reshape (e.g_q(:, a, :), numel (k), sys.n);
      phi(k, a) = sum (ga_q .* qdot(k, :), 2) + e.g_t(:, a);
      gpos(k, a) = e.g(:, a);
    end
  end
end
