% test_dual_slabs.m -- the fixed-grid slab loop of dual_solve, dual_lorenz and dual_pars runs in C
% (csrc/dual/dual_slabs.h, vm_dual_mex ('slabs')): the model is compiled once per call, one Hessian
% pattern serves every slab and base-state pass, and the results equal those of the .m loop it
% replaced (recorded values, and that loop kept below as old_loop, one vm_dual_mex ('solve') per
% slab and pass).  One slab of the closed forms goes to the gateway with the arguments as given
% (vm_dual_driver.m, one_slab): the same solution as through the driver's checks, bit for bit.
%!function same_solution (a, b)
%!  % every field of two solutions, bitwise, but the wall-clock times
%!  assert (fieldnames (a), fieldnames (b));
%!  ls = {'factor_time', 'solve_time'};
%!  assert (rmfield (a.linear_solver, ls), rmfield (b.linear_solver, ls));
%!  assert (rmfield (a, {'time', 'linear_solver'}), rmfield (b, {'time', 'linear_solver'}), 0);
%!endfunction
%!function compare (sol, ref)
%!  f = fieldnames (ref);
%!  assert (all (isfield (sol, f)));   % dual_solve adds its own fields (mode, ...)
%!  for i = 1:numel (f)
%!    if (strcmp (f{i}, 'time'))
%!      continue;
%!    elseif (strcmp (f{i}, 'linear_solver'))
%!      % times and counts: over all solves in C, the last solve's in the .m loop
%!      sums = {'factor_time', 'solve_time', 'cholesky', 'not_definite', 'factors'};
%!      assert (rmfield (sol.(f{i}), sums), rmfield (ref.(f{i}), sums));
%!      assert (sol.(f{i}).cholesky >= ref.(f{i}).cholesky);
%!      assert (sol.(f{i}).not_definite >= ref.(f{i}).not_definite);
%!    else
%!      assert (sol.(f{i}), ref.(f{i}), 0);   % the same arithmetic: bitwise
%!    end
%!  end
%!endfunction
%!function sol = old_loop (ode, tspan, y0, varargin)
%!  % the .m slab loop of vm_dual_driver.m before csrc/dual/dual_slabs.c (dual_solve's defaults)
%!  o = struct ('N', 65, 'Order', 4, 'c', 1, 'BaseState', [], 'DT', [], 'Tol', 1e-11, ...
%!              'MaxIter', 50, 'Slabs', 1, 'BaseIterations', 0, 'Guess', [], 'FinalDual', 'weak');
%!  for i = 1:2:numel (varargin)
%!    o.(varargin{i}) = varargin{i+1};
%!  end
%!  ny = 3; nd = 3; m = 3; N = o.N; S = o.Slabs; nb = o.BaseIterations;
%!  weak = strcmpi (o.FinalDual, 'weak');
%!  c = o.c(:)' .* ones (1, ny);
%!  DT = o.DT;
%!  if (isempty (DT))
%!    DT = zeros (1, nd);
%!  end
%!  Ntot = S * (N - 1) + 1;
%!  t = linspace (tspan(1), tspan(2), Ntot)';
%!  if (isempty (o.BaseState))
%!    ybar = zeros (Ntot, ny);
%!  else
%!    ybar = repmat (o.BaseState(:)', Ntot, 1);
%!  end
%!  const_base = true;
%!  setup = struct ('t0', 0, 'tf', 0, 'N', N, 'order', o.Order, 'c', c, 'ybar', [], ...
%!                  'y0', y0(:)', 'DT', DT(:)', 'z', [], 'tol', o.Tol, 'max_iter', o.MaxIter, ...
%!                  'kernel', 'general', 'kpar', [], 'weak', double (weak), 'linsolve', 0);
%!  history = {};
%!  lin_all = {};
%!  base_change = zeros (nb, 1);
%!  slab_base = cell (1, S);
%!  for s = 1:S
%!    slab_base{s} = ybar((s - 1) * (N - 1) + (1:N), :);
%!  end
%!  end_y = zeros (S, ny);
%!  end_res = zeros (S, nd);
%!  start_jump = zeros (S, 1);
%!  Ycell = cell (1, S);
%!  for b = 0:nb
%!    Y = zeros (Ntot, ny); Dd = zeros (Ntot, m); R = zeros (Ntot, nd); Gr = zeros (Ntot, 0);
%!    Hm = zeros (Ntot, 1); Sv = 0; iters = zeros (1, S); exitflag = 1; message = '';
%!    ystart = y0(:)';
%!    for s = 1:S
%!      idx = (s - 1) * (N - 1) + (1:N);
%!      setup.t0 = t(idx(1));
%!      setup.tf = t(idx(end));
%!      if (s == S)
%!        setup.tf = tspan(2);
%!      end
%!      setup.ybar = slab_base{s};
%!      setup.y0 = ystart;
%!      setup.z = [];
%!      if (~isempty (o.Guess) && b == 0)
%!        z = reshape (o.Guess(idx, :)', [], 1);
%!        if (~weak)
%!          z(end - m + (1:nd)) = [];
%!        end
%!        setup.z = z;
%!      end
%!      r = vm_dual_mex ('solve', ode, setup);
%!      Y(idx, :) = r.y; Dd(idx, :) = r.D; R(idx, :) = r.residual; Gr(idx, :) = r.G;
%!      Hm(idx) = r.hamiltonian; Sv = Sv + r.S; iters(s) = r.iterations;
%!      history{end+1} = r.residual_history;
%!      lin_all{end+1} = r.linear_solver;
%!      if (r.exitflag ~= 1 && exitflag == 1)
%!        exitflag = 0;
%!        message = sprintf ('slab %d of %d: %s', s, S, r.message);
%!      end
%!      start_jump(s) = max (abs (r.y(1, 1:nd) - ystart));
%!      end_y(s, :) = r.y(end, :);
%!      end_res(s, :) = r.residual(end, :);
%!      Ycell{s} = r.y;
%!      if (exitflag == 1 && start_jump(s) > 1e-2 * max (1, max (abs (ystart))))
%!        exitflag = 0;
%!        message = sprintf (['slab %d of %d: Newton converged to a spurious critical point: the ' ...
%!                            'recovered primal starts %.3g away from the initial state; use more ' ...
%!                            'slabs or a base state closer to the solution'], s, S, start_jump(s));
%!      end
%!      ystart = r.y(end, 1:nd);
%!    end
%!    if (b < nb)
%!      change = 0;
%!      for s = 1:S
%!        change = max (change, max (max (abs (slab_base{s} - Ycell{s}))));
%!        slab_base{s} = Ycell{s};
%!      end
%!      base_change(b+1) = change;
%!      const_base = false;
%!    end
%!  end
%!  ybar = zeros (Ntot, ny);
%!  for s = 1:S
%!    ybar((s - 1) * (N - 1) + (1:N), :) = slab_base{s};
%!  end
%!  if (exitflag == 1)
%!    message = sprintf (['converged (%d slab(s), %d Newton iterations; a fixed grid, no error ' ...
%!                        'estimate: dual_solve without N or Slabs controls the error, and dual_solve''s ' ...
%!                        'ErrorEstimate ''on'' gives one)'], S, sum (iters));
%!  end
%!  sol = struct ('t', t, 'y', Y, 'D', Dd, 'residual', R, 'G', Gr);
%!  if (const_base)
%!    sol.hamiltonian = Hm;
%!  else
%!    sol.hamiltonian = [];
%!  end
%!  sol.S = Sv;
%!  sol.base = ybar;
%!  sol.slab_end_y = end_y;
%!  sol.slab_end_residual = end_res;
%!  sol.slab_start_jump = start_jump;
%!  sol.base_change = base_change;
%!  sol.iterations = sum (iters);
%!  sol.slab_iterations = iters;
%!  sol.residual_history = history;
%!  sol.linear_solver = r.linear_solver;
%!  sol.exitflag = exitflag;
%!  sol.message = message;
%!  sol.time = 0;
%!endfunction
%!shared ode
%! ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
%!   'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});
%!test
%! % one compile for 4 slabs x 3 base-state passes (the .m loop compiled 12 times)
%! n0 = vm_dual_mex ('compiles');
%! sol = dual_solve (ode, [0 0.4], [1 2 3], 'N', 33, 'c', 50, 'Slabs', 4, 'BaseIterations', 2);
%! assert (vm_dual_mex ('compiles') - n0, 1);
%! assert (sol.exitflag, 1);
%! assert (numel (sol.residual_history), 12);
%!test
%! % the gateway's counters: one model, one pattern, one symbolic analysis for all the solves
%! N = 33; S = 4; t = linspace (0, 0.2, S * (N - 1) + 1)';
%! tb = t(1:(N - 1):end)';
%! setup = struct ('tb', tb, 'N', N, 'order', 4, 'c', [50 50 50], 'ybar', [], 'y0', [1 2 3], ...
%!   'DT', [], 'guess', [], 'tol', 1e-11, 'max_iter', 50, 'kernel', 'general', 'kpar', [], ...
%!   'weak', 0, 'linsolve', 1, 'base_iterations', 1, 'display', 0, 'name', 'dual_solve');
%! r = vm_dual_mex ('slabs', ode, setup);
%! assert ([r.compiles r.patterns r.symbolic_analyses r.failed_slab r.exitflag], [1 1 1 0 1]);
%! assert (r.setup_time >= 0 && r.setup_time <= r.time);
%! assert (r.linear_solver.kind, 'umfpack');
%! assert (numel (r.residual_history), 8);
%!test
%! % values recorded with the .m loop before it moved to C
%! sol = dual_solve (ode, [0 0.4], [1 2 3], 'N', 33, 'c', 50, 'Slabs', 4, 'BaseIterations', 2);
%! assert (sol.y(end, :), [11.828387479540835 -3.1704793904383073 42.883080871212542], -1e-12);
%! assert (sol.base_change, [46.698447467563518; 0], 1e-10);
%! % the jumps are differences of y, whose entries (|y| <= 50) are checked to 1e-12 relative: the
%! % same absolute accuracy, 5e-11 (not 1e-9 relative: 1e-9 of 3e-4 is below y's rounding)
%! assert (sol.slab_start_jump', [0.00013231059809371004 0.00033873122506022924 ...
%!   0.00088770266530602271 0.0014837913158700644], 5e-11);
%! assert (sol.slab_iterations, [0 0 0 0]);
%! assert (sol.message, ['converged (4 slab(s), 0 Newton iterations; a fixed grid, no error ' ...
%!                       'estimate: dual_solve without N or Slabs controls the error, and dual_solve''s ' ...
%!                       'ErrorEstimate ''on'' gives one)']);
%! sol = dual_solve (ode, [0 0.3], [1 2 3], 'N', 17, 'c', 50, 'Slabs', 3, 'BaseState', @(t) [t 0 0]);
%! assert (sol.y(end, :), [18.23821935878674 24.349557140427656 34.933899209667224], -1e-12);
%! assert (sol.S, 3422.2470718138179, -1e-12);
%! assert (sol.D(1, :), [-33.914498268078958 -31.754250456250343 -10.581887527535232], -1e-10);
%! % 6 10 18 before Newton's chord steps in the dual's solves (csrc/dual/dual_solve.c, VM_DUAL_REUSE: 2 more
%! % cheaper iterations where a factorization is saved; the same solution to the digits above)
%! assert (sol.slab_iterations, [8 12 19]);
%! sol = dual_lorenz ([0 0.5], [1 1 1], 'Slabs', 5, 'N', 33, 'BaseIterations', 1);
%! assert (sol.exitflag, 0);
%! assert (sol.message, ['slab 5 of 5: Newton converged to a spurious critical point: the ' ...
%!   'recovered primal starts 14.6 away from the initial state; use more slabs or a base ' ...
%!   'state closer to the solution']);
%! assert (sol.base_change, 52.421516268959955, -1e-10);
%! sol = dual_lorenz ([0 2], [1 1 1], 'Slabs', 2, 'N', 33);
%! assert (sol.message, ['slab 1 of 2: no convergence in 50 iterations: best ||F|| = ' ...
%!   '1.402e+02 (iteration 50), target 9.798e-11; use more slabs or a base state closer to ' ...
%!   'the solution']);
%! assert (sol.iterations, 56);   % 53 before the chord steps (above)
%!test
%! % every field equal to the .m loop's (run here through the one-slab gateway)
%! tests = {{[0 0.4], [1 2 3], {'N', 33, 'c', 50, 'Slabs', 4, 'BaseIterations', 2}}, ...
%!          {[0 0.3], [1 2 3], {'N', 17, 'c', 50, 'Slabs', 3, 'BaseState', [1 2 3]}}, ...
%!          {[0 0.4], [1 2 3], {'N', 33, 'c', 50, 'Slabs', 4, 'FinalDual', 'weak', 'MaxIter', 2}}, ...
%!          {[0 0.2], [1 2 3], {'N', 17, 'c', [40 50 60], 'Slabs', 2, 'DT', [0.1 0 -0.1], 'Order', 6}}};
%! for k = 1:numel (tests)
%!   a = tests{k};
%!   sol = dual_solve (ode, a{1}, a{2}, a{3}{:});
%!   ref = old_loop (ode, a{1}, a{2}, a{3}{:});
%!   compare (sol, ref);
%! end
%! % with a guess of initial duals (first pass only)
%! g = sol.D + 0.01;
%! sol = dual_solve (ode, [0 0.2], [1 2 3], 'N', 17, 'c', 50, 'Slabs', 2, 'Guess', g, 'BaseIterations', 1);
%! ref = old_loop (ode, [0 0.2], [1 2 3], 'N', 17, 'c', 50, 'Slabs', 2, 'Guess', g, 'BaseIterations', 1);
%! compare (sol, ref);
%!test
%! % Display 'iter' prints each slab's Newton residuals (live, from C), then the final line
%! out = evalc ("dual_lorenz ([0 0.2], [1 2 3], 'N', 17, 'Slabs', 2, 'Display', 'iter');");
%! assert (numel (strfind (out, 'dual_lorenz: slab ')), 2);
%! assert (~isempty (strfind (out, 'dual_lorenz: slab 2 of 2, base pass 0: Newton residuals (RMS of the discrete equations):')));
%! assert (~isempty (regexp (out, '\n    0  \d\.\d{3}e[+-]\d\d\n    1  ', 'once')));
%! assert (~isempty (strfind (out, 'dual_lorenz: converged (2 slab(s), ')));
%!test
%! % one slab of a closed form: the gateway checks the arguments as given (vm_dual_driver's
%! % one_slab); a tspan in single (exact: 0 and 0.25) is refused there and goes through the
%! % driver's checks, which convert it: every field the same, bit for bit
%! N = 33;
%! t = linspace (0, 0.25, N)';
%! yb = [1 + t, 2 - t, 3 + t.^2];
%! calls = {{'N', N}, ...
%!          {'N', N, 'BaseState', [0.5 1 2], 'c', 40, 'DT', [0.1 0 -0.1]}, ...
%!          {'N', N, 'BaseState', [0.5; 1; 2], 'Order', 6, 'LinearSolver', 'umfpack'}, ...
%!          {'N', N, 'BaseState', yb, 'BaseIterations', 1, 'Guess', 'auto'}, ...
%!          {'N', N, 'Guess', 0.01 * ones(N, 3), 'MaxIter', 3, 'Tol', 1e-9}};
%! % which path each call takes (the profiler's list of the functions called)
%! profile clear;  profile on;
%! s = dual_lorenz ([0 0.25], [1 2 3], 'N', N);
%! profile off;  p1 = {profile('info').FunctionTable.FunctionName};
%! profile clear;  profile on;
%! s = dual_lorenz (single ([0 0.25]), [1 2 3], 'N', N);
%! profile off;  p2 = {profile('info').FunctionTable.FunctionName};
%! profile clear;
%! assert (any (strcmp (p1, 'vm_dual_driver>one_slab')) && ~any (strcmp (p1, 'vm_dual_driver>check_memory')));
%! assert (any (strcmp (p2, 'vm_dual_driver>one_slab')) && any (strcmp (p2, 'vm_dual_driver>check_memory')));
%! for k = 1:numel (calls)
%!   fast = dual_lorenz ([0 0.25], [1 2 3], calls{k}{:});
%!   slow = dual_lorenz (single ([0 0.25]), [1 2 3], calls{k}{:});
%!   same_solution (fast, slow);
%! end
%! assert (isempty (dual_lorenz ([0 0.25], [1 2 3], 'N', N, 'BaseState', yb).hamiltonian));
%! assert (numel (dual_lorenz ([0 0.25], [1 2 3], 'N', N).hamiltonian), N);
%! % the Pars dual (full and reduced)
%! for red = [false true]
%!   a = {'N', 17, 'Reduced', red};
%!   fast = dual_pars ([0 0.125], [0 0 0.5], [1 0.5 0], a{:});
%!   slow = dual_pars (single ([0 0.125]), [0 0 0.5], [1 0.5 0], a{:});
%!   same_solution (fast, slow);
%! end
%!test
%! % the gateway refuses, before allocating, a slab below csrc's facts and work above max_bytes
%! setup = struct ('tb', [0 0.1], 'N', 33, 'order', 4, 'c', 50, 'ybar', [], 'y0', [1 1 1], ...
%!   'DT', [], 'guess', [], 'tol', 1e-11, 'max_iter', 50, 'kernel', 'lorenz', 'kpar', [10 28 8/3 50], ...
%!   'weak', 0, 'linsolve', 0, 'base_iterations', 0, 'display', 0, 'name', 'dual_lorenz');
%! nmin = vm_dual_mex ('min_n', 6, 0);
%! fail ('vm_dual_mex (''slabs'', [], setfield (setfield (setup, ''order'', 6), ''N'', nmin - 1))', ...
%!       sprintf ('N must be an integer >= %d for order 6', nmin));
%! fail ('vm_dual_mex (''slabs'', [], setfield (setup, ''tb'', [1e6 1e6 + 1e-9]))', ...
%!       'shorter than the shortest');
%! need = vm_dual_mex ('memory', 3, 0, 33, 4, 0, 3, 33);
%! assert (need > vm_dual_mex ('memory', 3, 0, 33, 4, 0));
%! fail ('vm_dual_mex (''slabs'', [], setfield (setup, ''max_bytes'', need))', 'max_bytes');
%! [sol, failed] = vm_dual_mex ('slabs', [], setfield (setfield (setup, 'max_bytes', need + 1), 'sol', 1));
%! assert (failed, 0);  assert (sol.exitflag, 1);  assert (isempty (sol.t));
%! % c: one weight for all, or ny; the base state: constant (ny entries) or on the grid
%! r1 = vm_dual_mex ('slabs', [], setfield (setfield (setup, 'c', [50 50 50]), 'ybar', repmat ([1 2 3], 33, 1)));
%! r2 = vm_dual_mex ('slabs', [], setfield (setup, 'ybar', [1; 2; 3]));
%! assert (r1.y, r2.y, 0);
%! fail ('vm_dual_mex (''slabs'', [], setfield (setup, ''c'', [50 50]))', 'c must be');
%! fail ('vm_dual_mex (''slabs'', [], setfield (setup, ''c'', -1))', 'c must be positive');
%! fail ('vm_dual_mex (''slabs'', [], setfield (setup, ''ybar'', [1 2]))', 'BaseState');
%! fail ('vm_dual_mex (''slabs'', [], [setup setup])', 'setup struct');
