function [hint, cause] = vm_mass_hint (sys, t, q, qdot, ref)
  % [hint, cause] = vm_mass_hint (sys, t, q, qdot, ref): '' when the mass matrix M = d2L/dqdot2
  % of the mechsys sys is regular at (t, q, qdot), else a sentence that leads a failure message:
  % "the mass matrix d2L/dqdot2 is singular at t = .., q = [..] (rcond ..): y has no kinetic term
  % (the Lagrangian does not contain dot(y)): did you mean dot(y)?".  Singular: rcond (M) < 1e-13
  % (csrc/reference/reaction.h VM_REACTION_RCOND_MIN, where gauss_integrate refuses M); or, with
  % ref (a struct; [] for none) holding t0, q0, qdot0 (the initial state), its smallest eigenvalue
  % below sqrt (eps) of the norm of M there (M^-1 then amplifies the rounding of the forces by
  % over 1/sqrt (eps): the accelerations keep less than half their digits); or, when ref also
  % holds tp, qp, qdotp (an earlier state of the same motion) and L (the length of the last step
  % or window), that eigenvalue falling so fast that, extrapolated linearly, it reaches 0 within
  % 10 L: a singular M right ahead, which no step or window crosses (a kinetic energy that
  % degenerates along the motion, L = (1 - x^2) xdot^2/2 at x = 1).  The coordinates named: those
  % whose row of M is zero (a coordinate whose velocity the formula of the Lagrangian never
  % mentions is the usual slip, x^2 for dot(x)^2, named as such), else those of the eigenvector
  % of the smallest eigenvalue.  cause: the part after the parenthesis (": y has no kinetic term
  % ..."), for a caller whose message has its own lead.  An evaluation that fails gives '' (the
  % caller's own message stands).  Cost: up to three evaluations of the eom block and n-by-n
  % eigenvalue problems.  Why: every integrator of the package inverts M, and a singular M
  % surfaces downstream as a step size or window length that collapses; the cause must lead.
  hint = '';
  cause = '';
  if (nargin < 5)
    ref = [];
  end
  try
    M = mass (sys, t, q, qdot);
    r = rcond (M);
    if (r < 1e-13)
      how = sprintf ('rcond %.1e', r);
    elseif (isempty (ref))
      return;
    else
      lam = min (eig ((M + M') / 2));
      M0 = norm (mass (sys, ref.t0, ref.q0, ref.qdot0), 1);
      if (lam < sqrt (eps) * M0)
        how = sprintf ('smallest eigenvalue %.1e, against the norm %.1e at t = %.6g', lam, M0, ref.t0);
      elseif (isfield (ref, 'tp') && t > ref.tp)
        Mp = mass (sys, ref.tp, ref.qp, ref.qdotp);
        lamp = min (eig ((Mp + Mp') / 2));
        tau = lam * (t - ref.tp) / (lamp - lam);   % time to 0 at the present rate
        if (~(lamp > lam && tau < 10 * ref.L))
          return;
        end
        how = sprintf ('smallest eigenvalue %.1e, falling to 0 within %.1e', lam, tau);
      else
        return;
      end
    end
  catch
    return;
  end
  qs = strjoin (arrayfun (@(v) sprintf ('%.6g', v), q(:)', 'UniformOutput', false), ' ');
  hint = sprintf ('the mass matrix d2L/dqdot2 is singular at t = %.6g, q = [%s] (%s)', t, qs, how);
  zero = find (all (M == 0, 2))';
  if (isempty (zero))
    % no zero row: name the coordinates of the null direction
    [V, D] = eig ((M + M') / 2);
    [~, k] = min (diag (D));
    v = abs (V(:, k));
    zero = find (v > 0.5 * max (v))';
    cause = sprintf (': the kinetic energy degenerates along %s (no velocity there costs energy)', ...
                     strjoin (sys.coordinates(zero), ', '));
    hint = [hint, cause];
    return;
  end
  missing = {};
  parts = cell (1, numel (zero));
  for k = 1:numel (zero)
    c = sys.coordinates{zero(k)};
    if (isempty (regexp (sys.lagrangian, ['dot\s*\(\s*' c '\s*\)'], 'once')))
      parts{k} = sprintf ('%s has no kinetic term (the Lagrangian does not contain dot(%s))', c, c);
      missing{end + 1} = sprintf ('dot(%s)', c); %#ok<AGROW>
    else
      parts{k} = sprintf ('%s has no kinetic term here (its row of d2L/dqdot2 is 0)', c);
    end
  end
  cause = [': ', strjoin(parts, '; ')];
  if (~isempty (missing))
    cause = sprintf ('%s: did you mean %s?', cause, strjoin (missing, ', '));
  end
  hint = [hint, cause];
end

function M = mass (sys, t, q, qdot)
  % M = d2L/dqdot2 at one state, n-by-n
  e = mechsys_eval (sys, t, q(:)', qdot(:)', 'blocks', {'eom'});
  M = reshape (e.M, sys.n, sys.n);
end
