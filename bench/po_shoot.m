% -*- texinfo -*-
% @deftypefn  {} {@var{po} =} po_shoot (@var{f}, @var{J}, @var{X0}, @var{t0}, @var{sec})
% @deftypefnx {} {@var{po} =} po_shoot (@var{f}, @var{J}, @var{X0}, @var{t0}, @var{sec}, @var{opt})
% Periodic orbit of x' = f(x) by multiple shooting between the upward crossings of a Poincare
% section n'x = c: a reference for periods and orbits, written independently of the package
% (neither the dual action nor the package's integrators), so that it can check them.
%
% Unknowns: m nodes x_1, ..., x_m on the section (the columns of @var{X0}, moved inside the
% section only) and the m segment times t_1, ..., t_m (@var{t0}; with m = 1 this is single
% shooting, and @var{t0} the period).  Equations: phi(t_i, x_i) - x_(i+1) = 0, i = 1..m, x_(m+1) =
% x_1; the phase is fixed by the section.  That is n m equations in m (n - 1) + m unknowns; the
% Jacobian row block i has [M_i P, f(phi(t_i, x_i))] at node i and [-P, 0] at node i + 1, with
% M_i = d phi / dx from the variational equations and P an orthonormal basis of the section's
% plane (for m = 1 the classic bordered matrix [M - I, f; n', 0] with the phase row eliminated).
% The nodes are the section crossings, so that each segment is one loop and the Newton matrix
% stays well conditioned for long words (Viswanath's method).  Newton with the exact derivative
% of the discrete flow; steps longer than a quarter of the shortest segment or a tenth of max|x|
% are shortened, and halved until every node lies where the flow crosses the section upward and,
% while the residual is above 1e-6 max|x|, until the residual decreases.
%
% The flow is @code{po_flow} (Gragg-Bulirsch-Stoer, order 12, fixed steps of at most
% @code{opt.H}, default 0.02).  After convergence Newton is repeated from the solution with
% steps of half the size: the result returned is that finer one, and @code{po.T_err} =
% |T(H) - T(H/2)| bounds its error from the integration (order 12: the finer T is about 4000
% times closer to the exact one than the difference, unless rounding dominates).
%
% Inputs: @var{f}, @var{J} as for @code{po_flow} (J may be vectorized, n-by-n-by-m); @var{X0}
% n-by-m; @var{t0} 1-by-m; @var{sec} a struct with @code{normal} and @code{value} (and
% @code{symbol}, unused here); @var{opt} a struct with any of @code{H} (0.02), @code{tol}
% (Newton's stop: the step below @var{tol} relative, default 1e-11; the next error is about
% its square), @code{maxit} (40).
%
% Output @var{po}: @code{T} (the period, sum of @code{t}), @code{t} (1-by-m), @code{x} (n-by-m
% nodes, @code{x(:,1)} the orbit's point on the section where the word starts), @code{T_err},
% @code{converged} (both Newton runs converged), @code{iterations}, @code{residual} (max-norm of
% the equations at the solution, relative to max |x|), @code{multipliers} (eigenvalues of the
% monodromy M_m ... M_1, largest modulus first; the smallest is not accurate where it is below
% eps times the largest), @code{monodromy} (that product), @code{M} (n-by-n-by-m, the M_i),
% @code{det} (product of det M_i; Liouville: exp(integral of div f)),
% @code{N} (steps per segment of the finer run).  A guess far from an orbit gives
% @code{converged} false, no error.
%
% Cost: per Newton iteration 37 N m evaluations of @var{f} and @var{J}, N = ceil (max t / H),
% and one solve of size n m.
% @end deftypefn

function po = po_shoot (f, J, X0, t0, sec, opt)
  if (nargin < 6)
    opt = struct ();
  end
  H = getopt (opt, 'H', 0.02);
  tol = getopt (opt, 'tol', 1e-11);
  maxit = getopt (opt, 'maxit', 40);
  nv = sec.normal(:) / norm (sec.normal);
  c = sec.value / norm (sec.normal);
  P = null (nv');
  X = X0 - nv * (nv' * X0 - c);        % onto the section
  t = reshape (t0, 1, []);
  [X, t, ok1, it1] = newton (f, J, X, t, P, nv, c, H, tol, maxit);
  T1 = sum (t);
  [X, t, ok2, it2, F, Ms] = newton (f, J, X, t, P, nv, c, H / 2, tol, maxit);
  n = size (X, 1);
  m = size (X, 2);
  Mon = eye (n);
  dets = 1;
  for i = 1:m
    Mon = Ms(:, :, i) * Mon;
    dets = dets * det (Ms(:, :, i));
  end
  mu = eig (Mon);
  [~, o] = sort (abs (mu), 'descend');
  po = struct ('T', sum (t), 't', t, 'x', X, 'T_err', abs (sum (t) - T1), ...
               'converged', ok1 && ok2, 'iterations', it1 + it2, ...
               'residual', max (abs (F(:))) / max (1, max (abs (X(:)))), ...
               'multipliers', mu(o), 'monodromy', Mon, 'M', Ms, 'det', dets, ...
               'N', ceil (max (t) / (H / 2)));
end

function [X, t, ok, it, F, Ms] = newton (f, J, X, t, P, nv, c, H, tol, maxit)
  [n, m] = size (X);
  nxt = [2:m, 1];
  ok = false;
  scale = max (1, max (abs (X(:))));
  for it = 1:maxit
    N = ceil (max (t) / H);
    [xe, Ms] = po_flow (f, J, X, t, N);
    F = xe - X(:, nxt);
    if (ok)
      break;                           % the residual and the M of the accepted solution
    end
    fe = f (xe);
    A = zeros (n * m);
    for i = 1:m
      r = (i - 1) * n + (1:n);
      ci = (i - 1) * n + (1:n);
      cj = (nxt(i) - 1) * n + (1:n - 1);
      A(r, ci) = A(r, ci) + [Ms(:, :, i) * P, fe(:, i)];
      A(r, cj) = A(r, cj) - P;
    end
    d = -reshape (A \ F(:), n, m);
    dt = d(n, :);
    dx = P * d(1:n - 1, :);
    lam = min (1, 0.25 * min (t) / max (abs (dt)));
    lam = min (lam, 0.1 * scale / max (max (abs (dx(:))), realmin));
    % backtracking: every node stays where the flow crosses upward, and far from the solution
    % the residual decreases
    r0 = max (abs (F(:)));
    for k = 1:30
      Xn = X + lam * dx;
      Xn = Xn - nv * (nv' * Xn - c);
      tn = t + lam * dt;
      if (all (nv' * f (Xn) > 0) && all (tn > 0))
        if (r0 <= 1e-6 * scale)
          break;
        end
        Fn = po_flow (f, [], Xn, tn, ceil (max (tn) / H)) - Xn(:, nxt);
        if (max (abs (Fn(:))) < r0)
          break;
        end
      end
      lam = lam / 2;
    end
    X = Xn;
    t = tn;
    if (any (~isfinite (X(:))) || any (t <= 0))
      return;
    end
    ok = lam == 1 && max (abs (dx(:))) <= tol * scale && max (abs (dt)) <= tol * sum (t);
    if (it == maxit)
      [xe, Ms] = po_flow (f, J, X, t, N);
      F = xe - X(:, nxt);
    end
  end
end

function v = getopt (opt, name, def)
  if (isfield (opt, name))
    v = opt.(name);
  else
    v = def;
  end
end
