% test_solution_schema.m -- each solver's solution struct against the schema its gateway converts
% it by (mex/vm_solution_mx.h; DESIGN.md section 8): the same field names in the same order, each
% field of the size its schema row states, a struct field's own fields likewise, and a field
% with a 'when' size there exactly when that size is not 0.

%!function check_schema (s, schema, sz, where)
%!  % s: a solution struct; schema: the gateway's table; sz: the value of each size symbol
%!  present = arrayfun (@(r) strcmp (r.when, '1') || sz.(r.when) > 0, schema);
%!  if (~isequal (fieldnames (s), {schema(present).name}'))
%!    error ('%s: fields {%s}, the schema''s {%s}', where, strjoin (fieldnames (s)', ', '), ...
%!           strjoin ({schema(present).name}, ', '));
%!  end
%!  for k = find (present(:)')
%!    r = schema(k);
%!    v = s.(r.name);
%!    what = sprintf ('%s.%s', where, r.name);
%!    if (strcmp (r.cols, 'len'))
%!      assert (ischar (v) && (isempty (v) || rows (v) == str2double (r.rows)), [what ': a string']);
%!    else
%!      if (~isequal (size (v), [sz.(r.rows), sz.(r.cols)]))
%!        error ('%s is %s, its schema row says %s x %s = %s', what, mat2str (size (v)), r.rows, ...
%!               r.cols, mat2str ([sz.(r.rows), sz.(r.cols)]));
%!      end
%!    end
%!    if (~isempty (r.fields))
%!      assert (isstruct (v), [what ': a struct']);
%!      check_schema (v, r.fields, sz, what);
%!    end
%!  end
%!endfunction

%!function sz = skg_sizes (sys, sol, N, tout)
%!  % the size symbols of an skg_solve solution, each from its definition
%!  sz = struct ('n', sys.n, 'm', sys.m, 'nout', numel (tout), ...
%!               'nwin', numel (sol.window_iterations), 'nrej', numel (sol.rejected.t0), ...
%!               'nhist', numel (sol.residual_history));
%!  sz.Ntot = sz.nwin * (N - 1) + 1 * (sz.nwin > 0);
%!  sz.('1') = 1;
%!  sz.('0') = 0;
%!endfunction

%!function sz = dual_sizes (ny, nd, ng, sol, names)
%!  % the size symbols of a dual_solve, dual_lorenz or dual_pars solution
%!  sz = struct ('ny', ny, 'nd', nd, 'ng', ng, 'm', nd + ng, 'names', names * ny);
%!  sz.('1') = 1;
%!  sz.('0') = 0;
%!  if (isfield (sol, 'windows'))   % the march
%!    sz.nwin = numel (sol.windows.t0);
%!    sz.nrej = numel (sol.rejected.t0);
%!    sz.nhist = numel (sol.residual_history);
%!    sz.Ntot = sz.nwin * (sol.N - 1) + 1 * (sz.nwin > 0);
%!    sz.nout = 0;
%!    if (isfield (sol, 'output'))
%!      sz.nout = numel (sol.output.t);
%!    end
%!  else                            % the slabs
%!    sz.Ntot = numel (sol.t);
%!    sz.slabs = numel (sol.slab_iterations);
%!    sz.solves = numel (sol.residual_history);
%!    sz.base_iterations = numel (sol.base_change);
%!    sz.ham = double (~isempty (sol.hamiltonian));
%!    sz.nham = sz.ham * sz.Ntot;
%!  end
%!endfunction

%!function sz = integrate_sizes (sys, sol, nlambda, nrate, tout)
%!  % the size symbols of a gauss_integrate solution (tout: its OutputTimes, if any)
%!  if (nargin < 5)
%!    tout = [];
%!  end
%!  sz = struct ('Ntot', numel (sol.t), 'n', sys.n, 'm', sys.m, 'nlambda', nlambda, ...
%!               'nrate', nrate, 'nimpact', numel (sol.impacts.t), 'nout', numel (tout));
%!  sz.('1') = 1;
%!  sz.('0') = 0;
%!endfunction

%!shared s3, osc, o1, lor
%! s3 = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2+dot(y)^2+dot(z)^2)/2 - g*y', ...
%!   'constraints', {'x^2+y^2-1-t^2/10', 'dot(z)-x*dot(y)'});
%! osc = mechsys ('coordinates', {'q'}, 'lagrangian', 'dot(q)^2/2 - q^2/2');
%! o1 = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'});
%! lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('A', 10, 'R', 28, 'B', 8/3), ...
%!   'rhs', {'A*(y - x)', 'x*(R - z) - y', 'x*y - B*z'});

%!test
%! % skg_solve: the schema's rows, sizes in the size symbols, one line of meaning each
%! schema = vm_skg_mex ('solution_schema');
%! names = {schema.name};
%! assert (names(1:5), {'t', 'q', 'qdot', 'lambda', 'lambda_plus'});
%! assert (numel (unique (names)), numel (names));
%! assert (all (cellfun (@(x) ischar (x) && ~isempty (x), {schema.meaning})));
%! o = schema(strcmp (names, 'output'));
%! assert (o.when, 'nout');
%! assert ({o.fields.name}, {'t', 'q', 'qdot', 'lambda'});

%!test
%! % skg_solve on a fixed grid with OutputTimes: every field as the schema says
%! tout = [0 0.25 0.5 1];
%! sol = skg_solve (s3, [0 1], [1 0 0], [0 0 0], 'N', 33, 'Windows', 2, 'OutputTimes', tout);
%! assert (sol.exitflag, 1);
%! check_schema (sol, vm_skg_mex ('solution_schema'), skg_sizes (s3, sol, 33, tout), 'sol');
%! assert (sol.output.t, tout(:));

%!test
%! % skg_solve with error control and no OutputTimes: no output field
%! sol = skg_solve (s3, [0 1], [1 0 0], [0 0 0], 'RelTol', 1e-6);
%! assert (sol.exitflag, 1);
%! assert (~isfield (sol, 'output'));
%! check_schema (sol, vm_skg_mex ('solution_schema'), skg_sizes (s3, sol, 33, []), 'sol');

%!test
%! % a failed skg_solve: the same fields, output of NaN at the requested times
%! tout = [0.5 0.6];
%! sol = skg_solve (osc, [0 20], 1, 0, 'RelTol', 1e-8, 'MaxWindows', 2, 'OutputTimes', tout);
%! assert (sol.exitflag, 0);
%! check_schema (sol, vm_skg_mex ('solution_schema'), skg_sizes (osc, sol, 33, tout), 'sol');
%! assert (all (isnan ([sol.output.q(:); sol.output.qdot(:)])));

%!test
%! % dual_solve's march (error control, OutputTimes): every field as the schema says
%! tout = [0 0.5 1.7];
%! sol = dual_solve (o1, [0 2], [1 0], 'RelTol', 1e-6, 'OutputTimes', tout);
%! assert (sol.exitflag, 1);
%! assert (sol.mode, 'adaptive');
%! assert (sol.output.t, tout(:));
%! check_schema (sol, vm_dual_mex ('solution_schema', 'march'), dual_sizes (2, 2, 0, sol, 1), 'sol');

%!test
%! % the march on fixed windows without OutputTimes, and a failed march with them
%! sol = dual_solve (o1, [0 2], [1 0], 'N', 41, 'Slabs', 2, 'Guess', 'marching');
%! assert (sol.mode, 'fixed');
%! assert (~isfield (sol, 'output'));
%! check_schema (sol, vm_dual_mex ('solution_schema', 'march'), dual_sizes (2, 2, 0, sol, 1), 'sol');
%! sol = dual_solve (o1, [0 20], [1 0], 'RelTol', 1e-8, 'MaxIter', 2, 'OutputTimes', [1 2]);
%! check_schema (sol, vm_dual_mex ('solution_schema', 'march'), dual_sizes (2, 2, 0, sol, 1), 'sol');

%!test
%! % dual_solve's fixed slabs: with and without the Hamiltonian (a constant base state, no
%! % base pass), and the closed forms' solutions, which have no names
%! schema = vm_dual_mex ('solution_schema', 'slabs');
%! sol = dual_solve (lor, [0 0.2], [1 2 3], 'N', 33, 'c', 50, 'Slabs', 4);
%! assert (numel (sol.t), 4 * 32 + 1);
%! assert (size (sol.hamiltonian), [129 1]);
%! check_schema (sol, schema, dual_sizes (3, 3, 0, sol, 1), 'sol');
%! sol = dual_solve (lor, [0 0.2], [1 2 3], 'N', 33, 'c', 50, 'Slabs', 2, 'BaseIterations', 2);
%! assert (isempty (sol.hamiltonian));
%! check_schema (sol, schema, dual_sizes (3, 3, 0, sol, 1), 'sol');
%! sol = dual_lorenz ([0 0.1], [1 2 3], 'N', 33, 'c', 40, 'BaseState', [0.5 1 2]);
%! check_schema (sol, schema, dual_sizes (3, 3, 0, sol, 0), 'sol');
%! sol = dual_lorenz ([0 0.2], [1 2 3], 'N', 33, 'Slabs', 2);
%! check_schema (sol, schema, dual_sizes (3, 3, 0, sol, 0), 'sol');

%!test
%! % the gateway's own result of "slabs": the solution's fields, then its diagnostics
%! N = 33; S = 2; t = linspace (0, 0.2, S * (N - 1) + 1)';
%! setup = struct ('tb', t(1:(N - 1):end)', 'N', N, 'order', 4, 'c', [50 50 50], 'ybar', [], ...
%!   'y0', [1 2 3], 'DT', [], 'guess', [], 'tol', 1e-11, 'max_iter', 50, 'kernel', 'general', ...
%!   'kpar', [], 'weak', 0, 'linsolve', 0, 'base_iterations', 1, 'display', 0, 'name', 'dual_solve');
%! r = vm_dual_mex ('slabs', lor, setup);
%! d = vm_dual_mex ('solution_schema', 'slabs_diagnostics');
%! f = fieldnames (r);
%! assert (f(end - numel (d) + 1:end), {d.name}');
%! r = rmfield (r, {d.name});
%! r.t = t;
%! check_schema (r, vm_dual_mex ('solution_schema', 'slabs'), dual_sizes (3, 3, 0, r, 1), 'r');

%!test
%! % gauss_integrate: the ideal law, OutputTimes, impacts of a hard contact, the vakonomic law and
%! % reaction directions; every field as the schema says
%! schema = vm_integrate_mex ('solution_schema');
%! assert ({schema(end - 2:end).name}, {'time', 'solver', 'names'});
%! sol = gauss_integrate (s3, [0 1], [1 0 0], [0 0 0], 'OutputTimes', [0 0.5 1]);
%! assert (sol.output.t, [0; 0.5; 1]);
%! check_schema (sol, schema, integrate_sizes (s3, sol, 2, 0, [0 0.5 1]), 'sol');
%! tum = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', ...
%!   'contacts', struct ('h', '1 - x^2 - y^2', 'sigma', 0.01, 'V0', 10));
%! sol = gauss_integrate (tum, [0 1], [0 0], [0 0]);
%! assert (numel (sol.impacts.t) > 0);
%! check_schema (sol, schema, integrate_sizes (tum, sol, 0, 0), 'sol');
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! sol = gauss_integrate (pend, [0 1], [sin(0.3) -cos(0.3)], [0 0], 'Reaction', 'vakonomic', ...
%!                        'Multiplier0', 2);
%! check_schema (sol, schema, integrate_sizes (pend, sol, 1, 1), 'sol');
%! sol = gauss_integrate (pend, [0 1], [sin(0.3) -cos(0.3)], [0 0], 'Reaction', [1 0; 0 1]);
%! check_schema (sol, schema, integrate_sizes (pend, sol, 2, 0), 'sol');

%!test
%! % the dual gateway's one-grid solve (for tests and benchmarks)
%! setup = struct ('t0', 0, 'tf', 0.1, 'N', 9, 'order', 2, 'c', [50 50 50], 'ybar', [], ...
%!   'y0', [1 2 3], 'DT', [], 'z', zeros (24, 1), 'tol', 1e-10, 'max_iter', 20, ...
%!   'kernel', 'general', 'kpar', []);
%! r = vm_dual_mex ('solve', lor, setup);
%! sz = struct ('Ntot', 9, 'nprimal', 9, 'ny', 3, 'nd', 3, 'ng', 0, 'm', 3, ...
%!              'nhist', r.iterations + 1);
%! sz.('1') = 1;
%! sz.('0') = 0;
%! check_schema (r, vm_dual_mex ('solution_schema', 'solve'), sz, 'r');
