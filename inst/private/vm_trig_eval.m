% -*- texinfo -*-
% @deftypefn {} {[@var{y}, @var{dy}] =} vm_trig_eval (@var{Y}, @var{T}, @var{tq})
% The trigonometric interpolant of a periodic orbit and its time derivative at the times
% @var{tq} (taken modulo @var{T}).  @var{Y}: N-by-n, the states at the equispaced times
% (0:N-1) T/N of one period (the closing row left out).  @var{y}, @var{dy}: numel(tq)-by-n.
% For an even N the Nyquist mode keeps its cosine only, so that the interpolant is real.
% Why: a collocation orbit on N nodes is this interpolant; reading it between the nodes keeps
% the nodes' accuracy (spectral), which a spline of the nodes would not.  Cost: one FFT of Y and
% O(N n) per time.
% @end deftypefn

function [y, dy] = vm_trig_eval (Y, T, tq)
  tq = tq(:);
  N = size (Y, 1);
  C = fft (Y) / N;
  k = [0:floor(N / 2), -ceil(N / 2) + 1:-1]';
  if (mod (N, 2) == 0)
    C(N / 2 + 1, :) = C(N / 2 + 1, :) / 2;
    C = [C; C(N / 2 + 1, :)];
    k = [k; -N / 2];
  end
  s = 2 * pi * mod (tq, T) / T;
  y = zeros (numel (tq), size (Y, 2));
  dy = y;
  nb = max (1, floor (1e6 / numel (k)));   % blocks of times: at most 1e6 entries of E at once
  for j0 = 1:nb:numel (tq)
    j = j0:min (j0 + nb - 1, numel (tq));
    E = exp (1i * s(j) * k');
    y(j, :) = real (E * C);
    if (nargout > 1)
      dy(j, :) = real ((E .* (1i * 2 * pi / T * k')) * C);
    end
  end
end
