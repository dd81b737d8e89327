% test_dual_gateway.m -- the dual-action gateway refuses bad input with a message and never
% crashes Octave (arguments that the .m frontends would already refuse, sent directly).
%!shared ode, setup
%! ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
%!   'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
%! setup = struct ('t0', 0, 'tf', 0.1, 'N', 9, 'order', 2, 'c', [50 50 50], 'ybar', [], ...
%!   'y0', [1 2 3], 'DT', [], 'z', zeros (24, 1), 'tol', 1e-10, 'max_iter', 20, ...
%!   'kernel', 'general', 'kpar', []);
%!test
%! S = vm_dual_mex ('action', ode, setup);
%! assert (isfinite (S));
%!test
%! r = vm_dual_mex ('solve', ode, setup);
%! assert (r.exitflag, 1);
%!error <unknown command> vm_dual_mex ('bogus', ode, setup)
%!error <first argument must be a command> vm_dual_mex (3)
%!error <takes ode and a setup struct> vm_dual_mex ('solve', ode, 3)
%!error <has no field N> vm_dual_mex ('solve', ode, rmfield (setup, 'N'))
%!error <has no field z> vm_dual_mex ('solve', ode, rmfield (setup, 'z'))
%!error <has no field z> vm_dual_mex ('action', ode, rmfield (setup, 'z'))
%!error <z must be a real full double vector with 24 entries; got double 3x1> vm_dual_mex ('action', ode, setfield (setup, 'z', zeros (3, 1)))
%!error <z must be finite> vm_dual_mex ('action', ode, setfield (setup, 'z', NaN (24, 1)))
%!error <the initial duals \(Guess\) must be a real full double vector with 24 entries; got double 5x1> vm_dual_mex ('solve', ode, setfield (setup, 'z', ones (5, 1)))
%!error <c must be a real full double vector with 3 entries; got double 1x2> vm_dual_mex ('solve', ode, setfield (setup, 'c', [1 2]))
%!error <c must be positive> vm_dual_mex ('solve', ode, setfield (setup, 'c', [1 -2 3]))
%!error <BaseState must be an N-by-ny matrix \(one row per grid point\); got double 2x3> vm_dual_mex ('solve', ode, setfield (setup, 'ybar', ones (2, 3)))
%!error <y0 must be finite; entry 2 is NaN> vm_dual_mex ('solve', ode, setfield (setup, 'y0', [1 NaN 3]))
%!error <N must be an integer> vm_dual_mex ('solve', ode, setfield (setup, 'N', 2.5))
%!error <Order must be one of 2, 4, 6, 8; got double 1x1 \(5\)> vm_dual_mex ('solve', ode, setfield (setup, 'order', 5))
%!error <z must be a real full double vector with 24 entries; got sparse double 24x1> vm_dual_mex ('action', ode, setfield (setup, 'z', sparse (zeros (24, 1))))
%!error <the Pars parameters must be a real full double vector; got sparse double 1x3> vm_dual_mex ('solve', [], setfield (setfield (setup, 'kernel', 'pars'), 'kpar', sparse ([3 1 1])))
%!error <could not be set up> vm_dual_mex ('solve', ode, setfield (setup, 'tf', -1))
%!error <unknown kernel> vm_dual_mex ('solve', ode, setfield (setup, 'kernel', 'nope'))
%!error <ode must be a system made by odesys> vm_dual_mex ('solve', 5, setup)
%!error <Lorenz parameters> vm_dual_mex ('solve', [], setfield (setup, 'kernel', 'lorenz'))
%!error <Pars parameters> vm_dual_mex ('solve', [], setfield (setfield (setup, 'kernel', 'pars'), 'kpar', [3 1 1]))
%!error <ode.states> vm_dual_mex ('solve', setfield (ode, 'states', 5), setup)
%!test
%! % a DtP failure is reported (tiny c, large duals), not a crash or a silent number
%! s2 = setfield (setup, 'c', [1e-3 1e-3 1e-3]);
%! s2.z = 100 * ones (24, 1);
%! try
%!   vm_dual_mex ('action', ode, s2);
%!   ok = true;
%! catch err
%!   ok = ~isempty (strfind (err.message, 'dual-to-primal'));
%! end
%! assert (ok);
