% test_dual_gateway.m -- the dual-action gateway refuses bad input with a message and never
% crashes Octave (arguments that the .m frontends would already refuse, sent directly).
%!shared ode, setup
%! ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
%!   'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
%! setup = struct ('t0', 0, 'tf', 0.1, 'N', 9, 'order', 2, 'c', [50 50 50], 'ybar', [], ...
%!   'y0', [1 2 3], 'DT', [], 'z', zeros (24, 1), 'tol', 1e-10, 'max_iter', 20, ...
%!   'kernel', 'general', 'kpar', []);
%!test
%! S = __vm_dual__ ('action', ode, setup);
%! assert (isfinite (S));
%!test
%! r = __vm_dual__ ('solve', ode, setup);
%! assert (r.exitflag, 1);
%!error <unknown command> __vm_dual__ ('bogus', ode, setup)
%!error <first argument must be a command> __vm_dual__ (3)
%!error <takes ode and a setup struct> __vm_dual__ ('solve', ode, 3)
%!error <has no field N> __vm_dual__ ('solve', ode, rmfield (setup, 'N'))
%!error <z must be a real full double vector with 24 entries; got double 3x1> __vm_dual__ ('action', ode, setfield (setup, 'z', zeros (3, 1)))
%!error <z must be finite> __vm_dual__ ('action', ode, setfield (setup, 'z', NaN (24, 1)))
%!error <the initial duals \(Guess\) must be a real full double vector with 24 entries; got double 5x1> __vm_dual__ ('solve', ode, setfield (setup, 'z', ones (5, 1)))
%!error <c must be a real full double vector with 3 entries; got double 1x2> __vm_dual__ ('solve', ode, setfield (setup, 'c', [1 2]))
%!error <c must be positive> __vm_dual__ ('solve', ode, setfield (setup, 'c', [1 -2 3]))
%!error <BaseState must be an N-by-ny matrix \(one row per grid point\); got double 2x3> __vm_dual__ ('solve', ode, setfield (setup, 'ybar', ones (2, 3)))
%!error <y0 must be finite; entry 2 is NaN> __vm_dual__ ('solve', ode, setfield (setup, 'y0', [1 NaN 3]))
%!error <N must be an integer> __vm_dual__ ('solve', ode, setfield (setup, 'N', 2.5))
%!error <Order must be one of 2, 4, 6, 8; got double 1x1 \(5\)> __vm_dual__ ('solve', ode, setfield (setup, 'order', 5))
%!error <z must be a real full double vector with 24 entries; got sparse double 24x1> __vm_dual__ ('action', ode, setfield (setup, 'z', sparse (zeros (24, 1))))
%!error <the Pars parameters must be a real full double vector; got sparse double 1x3> __vm_dual__ ('solve', [], setfield (setfield (setup, 'kernel', 'pars'), 'kpar', sparse ([3 1 1])))
%!error <could not be set up> __vm_dual__ ('solve', ode, setfield (setup, 'tf', -1))
%!error <unknown kernel> __vm_dual__ ('solve', ode, setfield (setup, 'kernel', 'nope'))
%!error <ode must be a system made by odesys> __vm_dual__ ('solve', 5, setup)
%!error <Lorenz parameters> __vm_dual__ ('solve', [], setfield (setup, 'kernel', 'lorenz'))
%!error <Pars parameters> __vm_dual__ ('solve', [], setfield (setfield (setup, 'kernel', 'pars'), 'kpar', [3 1 1]))
%!error <ode.states> __vm_dual__ ('solve', setfield (ode, 'states', 5), setup)
%!test
%! % a DtP failure is reported (tiny c, large duals), not a crash or a silent number
%! s2 = setfield (setup, 'c', [1e-3 1e-3 1e-3]);
%! s2.z = 100 * ones (24, 1);
%! try
%!   __vm_dual__ ('action', ode, s2);
%!   ok = true;
%! catch err
%!   ok = ~isempty (strfind (err.message, 'dual-to-primal'));
%! end
%! assert (ok);
