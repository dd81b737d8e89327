% -*- texinfo -*-
% @deftypefn  {} {out =} mechsys_eval (sys, t, q, qdot)
% @deftypefnx {} {out =} mechsys_eval (sys, t, q, qdot, name, value, ...)
% @deftypefnx {} {out =} mechsys_eval (sys, t, q, qdot, opts)
% Values and exact derivatives of a compiled mechanical system at many points.
%
% @var{t} is N-by-1 (or a scalar used at every point), @var{q} and @var{qdot} are N-by-n (one row
% per point, one column per coordinate, as returned by ode45 and the solvers).  Options are
% name/value pairs or one struct @var{opts}:
% @table @asis
% @item "lambda"
% N-by-m (or 1-by-m) constraint multipliers weighting the constraint Hessian: the fields
% @code{lg_*} are the second derivatives of @code{+ sum_a lambda_a g_a} (a plus sign, no other
% factor); default 0.  With the multipliers of a solver (@code{sol.lambda}, the convention of
% eq. 3 of the rolling-disk paper, @code{M qddot = f + sum_a lambda_a dg_a/dqdot}) they are the
% derivatives of the ideal reaction @code{sum_a lambda_a dg_a/dqdot}: e.g.
% @code{lg_qqdot(:,i,j)} = d/dq_i of its component j, lambda held fixed.  (The SKG action's own
% multiplier lambda+ is about -lambda.)
% @item "weights"
% N-by-n (or 1-by-n) weights w of the force Hessian (the Hessian of @code{+ w . F}); default 0.
% @item "blocks"
% a cell array naming the blocks to evaluate, of @code{"lagrangian"}, @code{"forces"},
% @code{"constraints"}, @code{"eom"}, @code{"contacts"}; default all that the system has.
% @item "layout"
% @code{"full"} (default): the fields below, structural zeros included; @code{"compact"}: one
% matrix @code{out.values} (N-by-k) of the entries of all requested blocks that are not
% identically zero, and for column c its place: @code{out.block@{c@}}, @code{out.field@{c@}},
% @code{out.row(c)}, @code{out.col(c)} (the entry of the field's per-point shape).  The compact
% layout evaluates all blocks in one pass and allocates no zeros.
% @end table
% Parameter values are read from @code{sys.parameters} at every call.
%
% Results are laid out points first: a scalar per point is N-by-1, a vector N-by-k, a matrix
% N-by-k-by-l (@code{squeeze (out.M(p,:,:))} is the mass matrix at point p).  Fields:
% @table @asis
% @item lagrangian
% @code{L}, @code{L_q}, @code{L_qdot}, @code{L_t}, @code{L_qq}, @code{L_qqdot}
% (@code{L_qqdot(:,i,j)} = d2L/dq_i dqdot_j), @code{L_qdotqdot}, @code{L_qdott}
% (d2L/dqdot_i dt).
% @item forces
% @code{F} (user forces plus contact forces), @code{F_q}, @code{F_qdot} (@code{F_q(:,i,j)} =
% dF_i/dq_j), and the Hessian blocks of w . F: @code{wF_qq}, @code{wF_qqdot}, @code{wF_qdotqdot}.
% @item constraints
% @code{g}, @code{g_q}, @code{g_qdot} (m-by-n Jacobians), @code{g_t}, and the Hessian blocks of
% lambda . g: @code{lg_qq}, @code{lg_qqdot}, @code{lg_qdotqdot}.
% @item eom
% the terms of the equations of motion @code{M qddot = f + sum_a lambda_a dg_a/dqdot} (for a
% position constraint g(t, q): @code{+ lambda_a dg_a/dq}; lambda as the solvers report it):
% @code{M} = d2L/dqdot2, @code{f} = dL/dq - (d2L/dqdot dq) qdot - d2L/dqdot dt + F (the forces
% F, contact forces included, are @emph{added}: a positive F_i pushes q_i up),
% @code{energy} = qdot . dL/dqdot - L + contact_energy and @code{contact_energy} = sum_c V0/2
% erfc(h_c/(sqrt(2) sigma_c)), the potential of the contacts' normal forces (FN = -grad of it;
% 0 without contacts).  Without constraints the accelerations at point p are
% @code{squeeze (out.M(p,:,:)) \ out.f(p,:)'}.
% @item contacts
% @code{h} (h >= 0 is the allowed side), @code{h_q}, and the contact forces @code{FN} (along
% +grad h, into the allowed side), @code{FR} (friction, against the sliding velocity), nc-by-n per
% point; @code{sigma}, the width of each contact (nc per point).
% @end table
%
% Example (a double pendulum, unit masses and lengths, angles a and b from the downward
% vertical: the mass matrix against its closed form, and the accelerations of one state):
% @verbatim
% dp = mechsys ('coordinates', {'a', 'b'}, 'parameters', struct ('g', 9.81), ...
%   'lagrangian', ['dot(a)^2 + dot(a)*dot(b)*cos(a-b) + dot(b)^2/2' ...
%                  ' + 2*g*cos(a) + g*cos(b)']);
% out = mechsys_eval (dp, 0, [0.3 -0.2], [1 0]);
% M = squeeze (out.M);                      % 2-by-2 at this one point
% fprintf ('max |M - [2 cos(a-b); cos(a-b) 1]| = %.1e\n', ...
%          max (max (abs (M - [2 cos(0.5); cos(0.5) 1]))));
% qddot = M \ out.f'                        % the accelerations (no constraints)
% @end verbatim
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{mechsys, gauss_integrate, skg_solve, skg_action, odesys_eval}
% @end deftypefn

function out = mechsys_eval (sys, t, q, qdot, varargin)
  fname = 'mechsys_eval';
  if (nargin < 4)
    vm_badarg (fname, 'expected at least 4 inputs: sys, t, q, qdot (see help mechsys_eval)');
  end
  if (~isstruct (sys) || ~isfield (sys, 'type') || ~strcmp (sys.type, 'mechsys'))
    vm_badarg (fname, 'sys must be a system made by mechsys');
  end
  all_blocks = {'lagrangian', 'forces', 'constraints', 'eom', 'contacts'};
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  n = sys.n;
  q = vm_points (q, fname, 'q', n, []);
  N = size (q, 1);
  qdot = vm_points (qdot, fname, 'qdot', n, N);
  t = vm_points (t, fname, 't', 1, N);
  if (isempty (opts.lambda))
    lam = zeros (1, sys.m);
  else
    lam = vm_points (opts.lambda, fname, 'lambda', sys.m, N);
  end
  if (isempty (opts.weights))
    w = zeros (1, n);
  else
    w = vm_points (opts.weights, fname, 'weights', n, N);
  end
  p = vm_param_vector (sys, fname, 'sys');
  if (isempty (opts.blocks))
    blocks = {'lagrangian', 'eom'};
    if (~isempty (sys.forces) || sys.nc > 0)
      blocks{end+1} = 'forces';
    end
    if (sys.m > 0)
      blocks{end+1} = 'constraints';
    end
    if (sys.nc > 0)
      blocks{end+1} = 'contacts';
    end
  else
    blocks = vm_cellstr (opts.blocks, fname, 'blocks');
    for k = 1:numel (blocks)
      if (~any (strcmp (blocks{k}, all_blocks)))
        vm_badarg (fname, 'unknown block ''%s''; expected one of: %s', blocks{k}, strjoin (all_blocks, ', '));
      end
    end
  end
  names = {'t', 'q', 'qdot', 'parameters', 'lambda', 'weights'};
  out = struct ();
  try
    if (strcmp (opts.layout, 'compact'))
      blks = cell (1, numel (blocks));
      out.block = {};  out.field = {};  out.row = [];  out.col = [];
      for k = 1:numel (blocks)
        blk = sys.blocks.(blocks{k});
        blks{k} = blk;
        of = double (blk.out_field) + 1;
        d0 = max (blk.field_dims(of, 1)', 1);
        idx = double (blk.out_index);
        out.block = [out.block, repmat(blocks(k), 1, numel (of))];
        out.field = [out.field, blk.field_names(of)];
        out.row = [out.row, mod(idx, d0) + 1];
        out.col = [out.col, floor(idx ./ d0) + 1];
      end
      % sys is passed so that the gateway refuses formulas edited after mechsys (stale blocks)
      out.values = vm_model_mex ('eval', blks, N, {t, q, qdot, p, lam, w}, fname, 'compact', names, sys);
    else
      for k = 1:numel (blocks)
        if (k == 1)
          r = vm_model_mex ('eval', sys.blocks.(blocks{k}), N, {t, q, qdot, p, lam, w}, fname, 'full', names, sys);
        else
          r = vm_model_mex ('eval', sys.blocks.(blocks{k}), N, {t, q, qdot, p, lam, w}, fname, 'full', names);
        end
        f = fieldnames (r);
        for j = 1:numel (f)
          out.(f{j}) = r.(f{j});
        end
      end
    end
  catch err
    vm_rethrow (err, fname);
  end
end

%!shared sys, x, th
%! sys = mechsys ('coordinates', {'x', 'y', 'theta', 'phi'}, ...
%!   'parameters', struct ('M', 1, 'g', 9.8, 'alpha', pi/6, 'R', 1, 'IS', 1/2, 'ID', 1/4), ...
%!   'lagrangian', 'M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)', ...
%!   'constraints', {'dot(x)^2 + dot(y)^2 - R^2*dot(theta)^2', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
%!test
%! q = [0.1 0.2 0.3 0.4; 1 2 3 4];  qd = [5 0 5 1; -1 1 2 0.5];  lam = [0.3 -0.2; 1 2];
%! o = mechsys_eval (sys, [0; 1], q, qd, 'lambda', lam);
%! assert (o.L, 0.5*(qd(:,1).^2 + qd(:,2).^2) + 0.25*qd(:,3).^2 + 0.125*qd(:,4).^2 + 9.8*q(:,1)*sin(pi/6), 1e-13);
%! assert (size (o.M), [2 4 4]);
%! assert (squeeze (o.M(2,:,:)), diag ([1 1 0.5 0.25]));
%! assert (o.f, repmat ([9.8*sin(pi/6) 0 0 0], 2, 1), 1e-14);
%! assert (o.g(:,2), qd(:,1).*sin(q(:,4)) - qd(:,2).*cos(q(:,4)), 1e-14);
%! assert (squeeze (o.g_qdot(1,2,:))', [sin(0.4) -cos(0.4) 0 0], 1e-15);
%! assert (o.lg_qqdot(:,4,1), lam(:,2).*cos(q(:,4)), 1e-14);
%!test
%! % changing a parameter value changes the result without recompiling
%! o1 = mechsys_eval (sys, 0, [1 0 0 0], [0 0 0 0], 'blocks', {'lagrangian'});
%! s2 = sys;  s2.parameters.g = 3.7;
%! o2 = mechsys_eval (s2, 0, [1 0 0 0], [0 0 0 0], 'blocks', {'lagrangian'});
%! assert (isequal (s2.blocks, sys.blocks));
%! assert ([o1.L o2.L], [9.8 3.7]*sin(pi/6), 1e-14);
%!test
%! % evaluation at N points equals N single evaluations
%! N = 300;  q = rand (N, 4);  qd = rand (N, 4);  lam = rand (N, 2);  t = rand (N, 1);
%! o = mechsys_eval (sys, t, q, qd, 'lambda', lam);
%! for k = [1 77 128 129 300]
%!   o1 = mechsys_eval (sys, t(k), q(k,:), qd(k,:), 'lambda', lam(k,:));
%!   assert (o1.lg_qdotqdot, o.lg_qdotqdot(k,:,:));
%!   assert (o1.L_q, o.L_q(k,:));
%!   assert (o1.energy, o.energy(k));
%! end
%!test
%! % the compact layout holds exactly the entries of the full layout that are not identically zero
%! N = 50;  q = rand (N, 4);  qd = rand (N, 4);  lam = rand (N, 2);
%! o = mechsys_eval (sys, 0, q, qd, 'lambda', lam);
%! c = mechsys_eval (sys, 0, q, qd, 'lambda', lam, 'layout', 'compact');
%! for k = 1:numel (c.field)
%!   full = o.(c.field{k});
%!   assert (c.values(:,k), full(:, c.row(k), c.col(k)));
%! end
%! assert (sum (strcmp (c.block, 'constraints')), 14);
%! assert (size (c.values), [N numel(c.field)]);
%!error <layout must be one of 'full', 'compact'; got char 1x6 \('sparse'\)> mechsys_eval (sys, 0, [1 2 3 4], [1 2 3 4], 'layout', 'sparse')
%!error <layout must be one of 'full', 'compact'; got char 1x4x2> mechsys_eval (sys, 0, [1 2 3 4], [1 2 3 4], 'layout', repmat ('full', [1 1 2]))
%!error <mechsys_eval: q has 3 columns; expected 4> mechsys_eval (sys, 0, [1 2 3], [1 2 3 4])
%!error <qdot has 2 rows; expected 1> mechsys_eval (sys, 0, [1 2 3 4], [1 2 3 4; 1 2 3 4])
%!error <mechsys_eval: lambda has 3 columns; expected 1 per point> mechsys_eval (mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', 'constraints', {'x*dot(x) + y*dot(y)'}), 0, [1 2], [1 2], 'lambda', [1 2 3])
%!error <mechsys_eval: q must be a real full matrix; got sparse double 1x4> mechsys_eval (sys, 0, sparse ([1 2 3 4]), [1 2 3 4])
%!error <mechsys_eval: qdot must be a real full matrix; got complex double 1x4> mechsys_eval (sys, 0, [1 2 3 4], [1 2 3 4i])
%!error <mechsys_eval: q must be a real full matrix; got logical 1x4> mechsys_eval (sys, 0, true (1, 4), [1 2 3 4])
%!error <mechsys_eval: t must be a real full matrix; got cell 1x1> mechsys_eval (sys, {0}, [1 2 3 4], [1 2 3 4])
%!error <mechsys_eval: t has 2 columns; expected 1 per point> mechsys_eval (sys, [0 1], [1 2 3 4], [1 2 3 4])
%!test
%! % integer and single classes are converted; a lambda column of one multiplier per point
%! o1 = mechsys_eval (sys, 0, [1 2 3 4], [1 2 3 4], 'blocks', {'lagrangian'});
%! o2 = mechsys_eval (sys, int32 (0), int8 ([1 2 3 4]), single ([1 2 3 4]), 'blocks', {'lagrangian'});
%! assert (o1.L, o2.L);
%! one = mechsys ('coordinates', {'x', 'y'}, 'lagrangian', '(dot(x)^2 + dot(y)^2)/2', 'constraints', {'x*dot(x) + y*dot(y)'});
%! o = mechsys_eval (one, [0 1 2], [1 2; 3 4; 5 6], [1 2; 3 4; 5 6], 'lambda', [1 2 3], 'blocks', {'constraints'});
%! assert (o.lg_qqdot(:, 1, 1), [1; 2; 3]);
%!error <lambda has 1 columns; expected 2> mechsys_eval (sys, 0, [1 2 3 4], [1 2 3 4], 'lambda', 1)
%!error <q must be finite> mechsys_eval (sys, 0, [1 2 NaN 4], [1 2 3 4])
%!error <unknown block 'lagr'> mechsys_eval (sys, 0, [1 2 3 4], [1 2 3 4], 'blocks', {'lagr'})
%!error <sys must be a system made by mechsys> mechsys_eval (struct (), 0, 1, 1)
%!error <sys.parameters must have the fields> mechsys_eval (setfield (sys, 'parameters', struct ('M', 1)), 0, [1 2 3 4], [1 2 3 4])
%!error <the compiled model is damaged> mechsys_eval (setfield (sys, 'blocks', setfield (sys.blocks, 'eom', setfield (sys.blocks.eom, 'nslot', 1))), 0, [1 2 3 4], [1 2 3 4])
%!demo
%! % The bead on a hoop (R = 0.5 m) spinning at w about its vertical diameter, evaluated at 401
%! % angles in one call: the generalized force f(th) = R^2 w^2 sin cos - g R sin (M = R^2), whose
%! % zeros are the relative equilibria, and the effective potential -L at rest.  Above the critical
%! % rate sqrt(g/R) = 4.43 rad/s the bottom th = 0 becomes a maximum of -L (unstable).
%! hoop = mechsys ('coordinates', {'th'}, 'parameters', struct ('R', 0.5, 'w', 3, 'g', 9.81), ...
%!   'lagrangian', 'R^2/2*(dot(th)^2 + w^2*sin(th)^2) + g*R*cos(th)');
%! th = linspace (-pi/2, pi/2, 401)';
%! rates = [3 4.43 7];
%! f = zeros (numel (th), 3);  V = f;
%! for k = 1:3
%!   hoop.parameters.w = rates(k);
%!   out = mechsys_eval (hoop, 0, th, zeros (size (th)), 'blocks', {'lagrangian', 'eom'});
%!   f(:, k) = out.f;
%!   V(:, k) = -out.L;
%! end
%! figure ();
%! subplot (2, 1, 1);
%! plot (th, f);
%! ylabel ('f (N m)');  legend ('w = 3 rad/s', 'w = 4.43 rad/s', 'w = 7 rad/s');
%! title ('mechsys_eval: the bead on a spinning hoop at 401 angles', 'Interpreter', 'none');
%! subplot (2, 1, 2);
%! plot (th, V);
%! xlabel ('th (rad)');  ylabel ('-L at rest (J)');
%! legend ('w = 3 rad/s', 'w = 4.43 rad/s', 'w = 7 rad/s');
