function [q, v] = skg_exact (prob, t)
% SKG_EXACT  Closed-form solution of m q'' + lam q' + k q = 0, q(0) = q0, q'(0) = v0 (underdamped).
  g = prob.lam / (2 * prob.m);
  w = sqrt (prob.k / prob.m - g^2);
  A = prob.q0;
  B = (prob.v0 + g * prob.q0) / w;
  c = cos (w * t);  s = sin (w * t);  e = exp (-g * t);
  q = e .* (A * c + B * s);
  v = e .* ((-g * A + w * B) * c + (-g * B - w * A) * s);
end
