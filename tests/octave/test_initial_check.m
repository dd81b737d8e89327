% The initial-data check vm_check_initial (inst/private; C: csrc/model/initial_check.c, gateway
% vm_model_mex ('check_initial', ...)): one %!error per message, the error identifier
% varmech:<fname>:initial_state, the outputs without an error, and consistent states passing.
% The helper is private to inst/, so the tests call it through chk, which puts inst/private on the
% path only for the call.

%!function varargout = chk (varargin)
%!  p = fullfile (fileparts (which ('mechsys')), 'private');
%!  addpath (p);
%!  unwind_protect
%!    [varargout{1:nargout}] = vm_check_initial (varargin{:});
%!  unwind_protect_cleanup
%!    rmpath (p);
%!  end_unwind_protect
%!endfunction

%!shared sph, mix, L, c
%! L = '(dot(x)^2+dot(y)^2+dot(z)^2)/2 - g*z';
%! c = {'coordinates', {'x', 'y', 'z'}, 'parameters', struct('g', 9.81), 'lagrangian', L};
%! sph = mechsys (c{:}, 'constraints', {'x^2+y^2+z^2-1'});
%! mix = mechsys (c{:}, 'constraints', {'x^2+y^2+z^2-1', 'y*dot(x) - x*dot(y) + 0.5*dot(z)'});

%!test
%! % consistent states pass: no error, ok true, empty message
%! chk ('skg_solve', sph, 0, [0.6 0 -0.8], [0 1.5 0], 1e-8);
%! [ok, msg, kind, idx] = chk ('skg_solve', sph, 0, [0.6 0 -0.8], [0 1.5 0], 1e-8);
%! assert (ok && isempty (msg) && kind == 0 && idx == 0);
%! [ok, msg] = chk ('skg_solve', mix, 0, [0.6 0 -0.8], [2.4 1.5 1.8], 1e-8);
%! assert (ok && isempty (msg));
%! % the tolerance: |g(q0)| = 0.17 passes with tol = 0.2
%! assert (chk ('skg_solve', sph, 0, [0.6 0 -0.9], [0 0 0], 0.2));

%!test
%! % outputs instead of an error when asked for; the identifier otherwise
%! [ok, msg, kind, idx, val] = chk ('skg_solve', sph, 0, [0.6 0 -0.9], [0 1.5 0], 1e-8);
%! assert (~ok && kind == 5 && idx == 1);
%! assert (val, 0.17, 1e-15);
%! assert (msg, 'skg_solve: the initial state violates constraint 1 (x^2+y^2+z^2-1) by 0.17 (ConstraintTol = 1e-08)');
%! try
%!   chk ('my_solver', sph, 0, [0.6 0 -0.9], [0 1.5 0], 1e-8);
%!   error ('no error raised');
%! catch err
%!   assert (err.identifier, 'varmech:my_solver:initial_state');
%!   assert (err.message, ['my_solver' msg(10:end)]);
%! end
%! try
%!   chk ('my_solver', sph, 0, [0.6 0], [0 1.5 0], 1e-8);
%!   error ('no error raised');
%! catch err
%!   assert (err.identifier, 'varmech:my_solver:badarg');
%! end

%!error <skg_solve: the initial state violates constraint 1 \(x\^2\+y\^2\+z\^2-1\) at velocity level \(dg/dq qdot \+ dg/dt\) by 0.8 \(ConstraintTol = 1e-08\)> chk ('skg_solve', sph, 0, [0.6 0 -0.8], [0 1.5 0.5], 1e-8)
%!error <skg_solve: the initial state violates constraint 1 \(x\^2\+y\^2\+z\^2-1\) by 0.17 \(ConstraintTol = 1e-08\)> chk ('skg_solve', sph, 0, [0.6 0 -0.9], [0 1.5 0], 1e-8)
%!error <skg_solve: the initial state violates constraint 2 \(y\*dot\(x\) - x\*dot\(y\) \+ 0.5\*dot\(z\)\) by 0.9 \(ConstraintTol = 1e-08\)> chk ('skg_solve', mix, 0, [0.6 0 -0.8], [0 1.5 0], 1e-8)
%!error <skg_solve: the constraint Jacobian is rank-deficient at the initial state: constraints 1 \(x\) and 2 \(x-1\) are contradictory .* no position satisfies all of them\); remove or correct one of them> chk ('skg_solve', mechsys (c{:}, 'constraints', {'x', 'x-1'}), 0, [0 0 0], [0 0 0], 1e-8)
%!error <skg_solve: the constraint Jacobian is rank-deficient: constraint 2 \(1\) is a constant .*; remove it from the constraints> chk ('skg_solve', mechsys (c{:}, 'constraints', {'x^2+y^2+z^2-1', '1'}), 0, [0.6 0 -0.8], [0 1.5 0], 1e-8)
%!error <skg_solve: the constraint Jacobian is rank-deficient at the initial state: constraints 1 \(y\) and 3 \(2\*y\) are redundant .*; remove one of them> chk ('skg_solve', mechsys (c{:}, 'constraints', {'y', 'x^2+y^2+z^2-1', '2*y'}), 0, [0.6 0 -0.8], [0 0 0], 1e-8)
%!error <skg_solve: the constraint Jacobian is rank-deficient at the initial state: the gradient of constraint 1 \(x\^2\) vanishes there \(dg/dq = 0\)> chk ('skg_solve', mechsys (c{:}, 'constraints', {'x^2'}), 0, [0 0 0], [0 1 0], 1e-8)
%!error <skg_solve: the constraint Jacobian is rank-deficient at the initial state: constraints 1 \(dot\(x\)\+dot\(y\)\) and 2 \(2\*dot\(x\)\+2\*dot\(y\)-1\) are contradictory .* no velocity satisfies> chk ('skg_solve', mechsys (c{:}, 'constraints', {'dot(x)+dot(y)', '2*dot(x)+2*dot(y)-1'}), 0, [0 0 0], [0 0 0], 1e-8)
%!error <skg_solve: the model cannot be evaluated at the initial state \(non-finite values\)> chk ('skg_solve', mechsys (c{:}, 'constraints', {'log(x)'}), 0, [-1 0 0], [0 0 0], 1e-8)
%!error <skg_solve: q0 must be a real full double vector with 3 entries; got double 2x1> chk ('skg_solve', sph, 0, [0.6 0], [0 1.5 0], 1e-8)
%!error <skg_solve: qdot0 must be finite> chk ('skg_solve', sph, 0, [0.6 0 -0.8], [0 NaN 0], 1e-8)
%!error <skg_solve: t0 must be a real finite scalar> chk ('skg_solve', sph, Inf, [0.6 0 -0.8], [0 1.5 0], 1e-8)
%!error <skg_solve: ConstraintTol must be a finite scalar .= 0; got double 1x1 \(-1\)> chk ('skg_solve', sph, 0, [0.6 0 -0.8], [0 1.5 0], -1)
%!error <skg_solve: sys must be a system made by mechsys> chk ('skg_solve', 3, 0, [0.6 0 -0.8], [0 1.5 0], 1e-8)
