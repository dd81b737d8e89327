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

%!shared s3, osc
%! s3 = mechsys ('coordinates', {'x', 'y', 'z'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2+dot(y)^2+dot(z)^2)/2 - g*y', ...
%!   'constraints', {'x^2+y^2-1-t^2/10', 'dot(z)-x*dot(y)'});
%! osc = mechsys ('coordinates', {'q'}, 'lagrangian', 'dot(q)^2/2 - q^2/2');

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
