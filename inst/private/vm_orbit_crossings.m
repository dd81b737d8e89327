% -*- texinfo -*-
% @deftypefn {} {[@var{tc}, @var{yc}, @var{sym}] =} vm_orbit_crossings (@var{marks}, @var{Y}, @var{T})
% The upward crossings of the section h(x) = 0 by a periodic orbit given at N equispaced times
% (0:N-1) T/N (@var{Y}, N-by-n, the closing row left out), in order of time in [0, T), and their
% symbols.  @var{marks}: an @code{odesys} whose first right-hand side is h and second the
% symbol's expression s.  Each crossing is bracketed by two nodes where h goes from negative to
% non-negative (cyclically) and solved for on the trigonometric interpolant of the nodes
% (@code{vm_trig_eval}) by Newton's method, to the accuracy of the nodes; @var{sym}: 'A' where
% s < 0, 'B' where s >= 0.  Cost: N evaluations of h, then a few of the interpolant per crossing.
% @end deftypefn

function [tc, yc, sym] = vm_orbit_crossings (marks, Y, T)
  N = size (Y, 1);
  out = odesys_eval (marks, 0, Y);
  h = out.F(:, 1);
  hn = h([2:N, 1]);
  j = find (h < 0 & hn >= 0);
  dt = T / N;
  if (isempty (j))
    tc = zeros (0, 1);
    yc = zeros (0, size (Y, 2));
    sym = '';
    return;
  end
  tc = ((j - 1) + h(j) ./ (h(j) - hn(j))) * dt;
  for it = 1:8
    [y, dy] = vm_trig_eval (Y, T, tc);
    o = odesys_eval (marks, 0, y);
    g = sum (reshape (o.F_y(:, 1, :), numel (j), []) .* dy, 2);
    step = o.F(:, 1) ./ g;
    step(~isfinite (step)) = 0;
    step = min (max (step, -dt), dt);          % stay near the bracket
    tc = tc - step;
    if (all (abs (step) <= 1e-15 * T))
      break;
    end
  end
  tc = mod (tc, T);
  tc = sort (tc);
  yc = vm_trig_eval (Y, T, tc);
  s = odesys_eval (marks, 0, yc);
  sym = char ('A' + (s.F(:, 2) >= 0)');
end
