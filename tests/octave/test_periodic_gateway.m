% test_periodic_gateway.m -- the periodic-orbit gateway refuses bad input with a message and never
% crashes Octave (arguments that periodic_orbit and periodic_guesses would already refuse, sent
% directly).
%!shared aug, ode, setup, flow
%! ode = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), ...
%!   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%! aug = odesys ('states', {'x', 'v', 'P'}, 'parameters', struct ('mu', 1), ...
%!   'rhs', {'P*(v)', 'P*(mu*(1 - x^2)*v - x)', '0'});
%! s = 2*pi*(0:20)'/21;
%! setup = struct ('N', 21, 'order', 4, 'c', [1 1 1], 'ybar', [2*cos(s), -2*sin(s), ones(21, 1)], ...
%!   'gauge', 3, 'tol', 1e-12, 'max_iter', 20, 'base_iterations', 1, 'inner', 2, 'display', 0, ...
%!   'z', zeros (63, 1));
%! flow = struct ('t0', 0, 'tf', 1, 'x0', [2 0], 'tout', [], 'rtol', 1e-8, 'atol', 1e-8, ...
%!   'variational', 1, 'section', [], 'max_steps', 0);
%!test
%! S = vm_periodic_mex ('action', aug, setup);
%! assert (isfinite (S));
%! r = vm_periodic_mex ('solve', aug, setup);
%! assert (r.exitflag, 1);
%! f = vm_periodic_mex ('flow', ode, flow);
%! assert (f.status, 0);
%! assert (size (f.monodromy), [2 2]);
%! assert (vm_periodic_mex ('min_n', 8), 19);
%!error <unknown command> vm_periodic_mex ('bogus', aug, setup)
%!error <first argument must be a command> vm_periodic_mex (3)
%!error <takes ode and a setup struct> vm_periodic_mex ('solve', aug, 3)
%!error <has no field N> vm_periodic_mex ('solve', aug, rmfield (setup, 'N'))
%!error <N must be odd and at least the order's minimum> vm_periodic_mex ('solve', aug, setfield (setfield (setup, 'N', 20), 'ybar', ones (20, 3)))
%!error <the base state must be an N-by-m matrix> vm_periodic_mex ('solve', aug, setfield (setup, 'ybar', ones (5, 3)))
%!error <c must be positive> vm_periodic_mex ('solve', aug, setfield (setup, 'c', [1 -1 1]))
%!error <gauge entries must be state indices 1..3> vm_periodic_mex ('solve', aug, setfield (setup, 'gauge', 4))
%!error <z must be a real full double vector with 63 entries> vm_periodic_mex ('action', aug, setfield (setup, 'z', zeros (5, 1)))
%!error <x0 must be a real full double vector with 2 entries> vm_periodic_mex ('flow', ode, setfield (flow, 'x0', [1 2 3]))
%!error <section must be a real full double vector with 4 entries> vm_periodic_mex ('flow', ode, setfield (flow, 'section', [1 2]))
%!error <the system has algebraic states or equations> vm_periodic_mex ('flow', odesys ('states', {'x', 'l'}, 'rhs', {'-x*l'}, 'algebraic', {'l - 1'}), flow)
%!error <flow needs rtol, atol> vm_periodic_mex ('flow', ode, setfield (flow, 'rtol', 0))
