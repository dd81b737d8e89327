% Tests that a problem is compiled once: mechsys and odesys parse the formulas (one compilation
% each), every solver, check, retry and error path loads the compiled model (sys.compiled) and
% parses nothing.  The count is the sum, over the gateways, of the parses done by each gateway's
% copy of the model library (csrc/model/model.h, vm_model_compiles).  A system whose formulas are
% edited after mechsys/odesys is refused by every solver, with a message that says to compile it
% again; a damaged or missing compiled model is refused naming the argument.

function n = test_compile_count ()
  % the parses so far, summed over the gateways
  n = vm_model_mex ('model_compiles') + vm_skg_mex ('model_compiles') ...
      + vm_dual_mex ('model_compiles') + vm_integrate_mex ('model_compiles') ...
      + vm_periodic_mex ('model_compiles');
end

%!shared osc, pend, sph, vdp, lv, count
%! count = @() test_compile_count ();
%! n0 = count ();
%! osc = mechsys ('coordinates', {'x'}, 'parameters', struct ('k', 1), ...
%!   'lagrangian', 'dot(x)^2/2 - k*x^2/2');
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! sph = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2 + dot(z)^2)/2 - g*z', 'constraints', {'x^2 + y^2 + z^2 - 1'});
%! vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), ...
%!   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%! lv = odesys ('states', {'prey', 'pred'}, 'parameters', struct ('a', 1, 'b', 0.5, 'c', 0.75, 'd', 0.25), ...
%!   'rhs', {'a*prey - b*prey*pred', '-c*pred + d*prey*pred'});
%! assert (count () - n0, 5);   % one per mechsys/odesys call
%!test
%! % skg_solve: the default (error control), a fixed grid, and the 'auto' guess's retry from the
%! % integrator after the marching start failed (a second and a third solve, and gauss_integrate)
%! n0 = count ();
%! s = skg_solve (osc, [0 1], 1, 0);
%! assert (s.exitflag, 1);
%! s = skg_solve (pend, [0 1], [1 0], [0 0], 'N', 41, 'Windows', 2);
%! assert (s.exitflag, 1);
%! s = skg_solve (sph, [0 5], [0.6 0 -0.8], [0 1.5 0], 'N', 513, 'Windows', 1);
%! assert (s.guess, 'integrator (after the marching start failed)');
%! s = skg_solve (sph, [0 5], [0.6 0 -0.8], [0 1.5 0], 'N', 1025, 'Windows', 1);
%! assert (~isempty (strfind (s.message, 'on a grid of 129 nodes')));
%! assert (count () - n0, 0);
%!test
%! % skg_solve's initial-data error paths: the gateway's check, and the check that runs when an
%! % error is raised before the solve (here the reference integrator's guess)
%! n0 = count ();
%! try
%!   skg_solve (pend, [0 1], [1 1], [0 0]);
%!   error ('no error');
%! catch err
%!   assert (~isempty (strfind (err.message, 'the initial state violates constraint 1')));
%! end
%! try
%!   skg_solve (pend, [0 1], [1 1], [0 0], 'Guess', 'integrator', 'Windows', 1, 'N', 41);
%!   error ('no error');
%! catch err
%!   assert (~isempty (strfind (err.message, 'the initial state violates constraint 1')));
%! end
%! try
%!   skg_solve (pend, [0 1], [1 1], [0 0], 'Guess', ones (3, 2), 'Windows', 1, 'N', 41);
%!   error ('no error');
%! catch err
%!   assert (~isempty (strfind (err.message, 'the initial state violates constraint 1')));
%! end
%! assert (count () - n0, 0);
%!test
%! % gauss_integrate (with its initial check), skg_action, mechsys_eval
%! n0 = count ();
%! s = gauss_integrate (pend, [0 1], [1 0], [0 0]);
%! assert (s.exitflag, 1);
%! s = gauss_integrate (osc, [0 1], 1, 0);
%! assert (s.exitflag, 1);
%! S = skg_action (osc, [0 1], 1, 0, 9, 4, zeros (18, 1));
%! o = mechsys_eval (pend, 0, [1 0], [0 0]);
%! o = mechsys_eval (pend, 0, [1 0], [0 0], 'layout', 'compact');
%! assert (count () - n0, 0);
%!test
%! % dual_solve (slabs and the march), dual_action, odesys_eval, periodic_orbit (its augmented
%! % system is built from the loaded model), periodic_guesses
%! n0 = count ();
%! s = dual_solve (lv, [0 2], [2 1]);
%! assert (s.exitflag, 1);
%! s = dual_solve (lv, [0 2], [2 1], 'N', 33, 'Slabs', 2);
%! assert (s.exitflag, 1);
%! S = dual_action (lv, [0 1], [2 1], zeros (2 * 17 - 2, 1), 'N', 17);
%! o = odesys_eval (vdp, 0, [1 2]);
%! t = linspace (0, 6.6632868593231, 41)';
%! yg = [2*cos(2*pi*t/t(end)), -2*sin(2*pi*t/t(end))];
%! p = periodic_orbit (vdp, t, yg);
%! assert (p.exitflag, 1);
%! g = periodic_guesses (vdp, [2 0], 30);
%! assert (count () - n0, 0);
%!test
%! % formulas edited after mechsys/odesys: refused by every solver, naming what differs
%! e = osc;  e.lagrangian = 'dot(x)^2/2 - x^4/4';
%! msg = 'sys.lagrangian differs from the formulas sys was compiled from';
%! f = {@() skg_solve (e, [0 1], 1, 0), @() gauss_integrate (e, [0 1], 1, 0), ...
%!      @() skg_action (e, [0 1], 1, 0, 9, 4, zeros (18, 1)), @() mechsys_eval (e, 0, 1, 0)};
%! for k = 1:numel (f)
%!   try
%!     f{k} ();
%!     error ('no error');
%!   catch err
%!     assert (~isempty (strfind (err.message, msg)), err.message);
%!     assert (~isempty (strfind (err.message, 'call mechsys again')), err.message);
%!   end
%! end
%! e = pend;  e.constraints = {'x^2 + y^2 - 4'};
%! try
%!   skg_solve (e, [0 1], [1 0], [0 0]);
%!   error ('no error');
%! catch err
%!   assert (~isempty (strfind (err.message, 'sys.constraints differs')), err.message);
%! end
%! e = lv;  e.rhs{2} = '-c*pred';
%! msg = 'ode.rhs differs from the formulas ode was compiled from';
%! f = {@() dual_solve (e, [0 1], [2 1]), @() odesys_eval (e, 0, [2 1]), ...
%!      @() periodic_guesses (e, [2 1], 5), @() dual_action (e, [0 1], [2 1], zeros (30, 1), 'N', 16)};
%! for k = 1:numel (f)
%!   try
%!     f{k} ();
%!     error ('no error');
%!   catch err
%!     assert (~isempty (strfind (err.message, msg)), err.message);
%!     assert (~isempty (strfind (err.message, 'call odesys again')), err.message);
%!   end
%! end
%!test
%! % parameter values may change without compiling again
%! n0 = count ();
%! e = osc;  e.parameters.k = 4;
%! s = skg_solve (e, [0 1], 1, 0);
%! assert (s.q(end), cos (2), 1e-5);
%! assert (count () - n0, 0);
%!error <sys.compiled is damaged> skg_solve (setfield (osc, 'compiled', osc.compiled(1:end-1)), [0 1], 1, 0)
%!error <sys.compiled is damaged> gauss_integrate (setfield (osc, 'compiled', bitxor (osc.compiled, uint8 (1))), [0 1], 1, 0)
%!error <sys.compiled must be the uint8 row> skg_solve (setfield (osc, 'compiled', double (osc.compiled)), [0 1], 1, 0)
%!error <sys must be a system made by mechsys \(no field compiled\)> skg_solve (rmfield (osc, 'compiled'), [0 1], 1, 0)
%!error <ode.compiled is damaged> dual_solve (setfield (lv, 'compiled', lv.compiled(end:-1:1)), [0 1], [2 1])
%!error <sys.compiled is damaged> skg_solve (setfield (osc, 'compiled', lv.compiled), [0 1], 1, 0)
