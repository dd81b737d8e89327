% -*- texinfo -*-
% @deftypefn {} {[F, x, msg] =} vm_periodic_factors (ode, x0, T, flowtol, amp)
% The transfer matrices of one period of an orbit of the @code{odesys} @var{ode}: the point
% @var{x0} (1-by-n) is integrated over [0, @var{T}] (DOP853 at relative tolerance
% @var{flowtol}, with the variational equations) in K chained pieces (each starts where the
% previous ended, the variational part from the identity), so that the monodromy is
% M = F(:,:,K) ... F(:,:,1).  @var{x} is the end point (1-by-n); @var{msg} is '' or, when an
% integration fails, its message (F and x are then incomplete).  @var{amp} (1-by-n) are the
% states' amplitudes on the orbit.
%
% Each F(:,:,k) has a condition number of about ctarget = 10: a piece above 1e2 is redone
% shorter (down to T/1024), and the next piece's length is scaled so that its log condition
% number is log 10 (by at most 2 or 1/4 from the last).  The absolute tolerance is
% flowtol/ctarget times the smallest amplitude (at most 1): an entry of F(:,:,k) then has its
% tolerance's relative error down to 1/ctarget of the column's size, so a multiplier computed
% from the factors (vm_periodic_eig) has a relative error of about flowtol per piece.  Why
% pieces rather than one run: factors of moderate condition keep the directions of small growth
% that one run over T rounds away.  Cost: one integration over T (the rejected pieces extra).
% Shared by periodic_orbit (its Floquet multipliers and closure) and periodic_continue (the
% multipliers of each point of a branch).
% @end deftypefn

function [F, x, msg] = vm_periodic_factors (ode, x0, T, flowtol, amp)
  n = numel (x0);
  ctarget = 10;
  creject = ctarget^2;
  setup = struct ('t0', 0, 'tf', T, 'x0', x0, 'tout', [], 'rtol', flowtol, ...
                  'atol', flowtol * min ([amp(:)', 1]) / ctarget, ...
                  'variational', 1, ...
                  'section', [], 'max_steps', 0);
  hmin = T / 1024;
  F = zeros (n, n, 0);
  msg = '';
  t = 0;
  x = x0;
  h = T / 8;
  while (t < T)
    tf = t + h;
    if (tf >= T - 0.25 * h)
      tf = T;
    end
    setup.t0 = t;
    setup.tf = tf;
    setup.x0 = x;
    f = vm_periodic_mex ('flow', ode, setup);
    if (f.status ~= 0 || ~all (isfinite (f.monodromy(:))))
      msg = f.message;
      return;
    end
    c = cond (f.monodromy);
    grow = log (max (c, 1 + eps));
    if (c > creject && tf - t > 1.01 * hmin)
      h = max (hmin, (tf - t) * log (ctarget) / grow);   % redo the piece shorter
      continue;
    end
    F(:, :, end + 1) = f.monodromy; %#ok<AGROW>
    x = f.y(end, :);
    h = max (hmin, (tf - t) * min (2, max (0.25, log (ctarget) / grow)));
    t = tf;
  end
end
