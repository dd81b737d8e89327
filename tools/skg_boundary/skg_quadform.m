function [K, g0, Sfun] = skg_quadform (terms, n)
% SKG_QUADFORM  Hessian and gradient at 0 of a quadratic action given as a list of terms.
%
%   [K, g0, Sfun] = skg_quadform (terms, n)
%
% Each term is a struct with fields c (scalar), w (column of weights), A1, a1, A2, a2 and
% stands for   c * sum_k w_k (A1 x + a1)_k (A2 x + a2)_k ,   x of length n.
% The action is S(x) = S(0) + g0' x + x' K x / 2, so its critical point solves K x = -g0.
% Sfun is a handle that evaluates S(x) (used to check K and g0).
  K = sparse (n, n);
  g0 = zeros (n, 1);
  for it = 1:numel (terms)
    t = terms{it};
    W = spdiags (t.w(:), 0, numel (t.w), numel (t.w));
    K = K + t.c * (t.A1' * W * t.A2 + t.A2' * W * t.A1);
    g0 = g0 + t.c * (t.A1' * (W * t.a2) + t.A2' * (W * t.a1));
  end
  Sfun = @(x) eval_action (terms, x);
end

function S = eval_action (terms, x)
  S = 0;
  for it = 1:numel (terms)
    t = terms{it};
    S = S + t.c * sum (t.w(:) .* (t.A1 * x + t.a1) .* (t.A2 * x + t.a2));
  end
end
