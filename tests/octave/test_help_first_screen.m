% test_help_first_screen.m -- the first screen of help of the functions a student meets first
% (the solvers skg_solve, gauss_integrate, dual_solve, periodic_orbit, and mechsys, odesys,
% periodic_guesses): within the first 25 lines, as Octave's help prints them (Texinfo rendered, the
% "is a function from the file" line included) and as MATLAB's help prints them (the raw comment
% lines), there are a usage line, at least five option names that are options of the function
% (read from the options' schema, csrc/base/vm_schema.c, so a renamed option fails here), the main
% output fields, and a complete runnable example.  The example is run in a fresh workspace and
% its result is checked against an independent reference: ode45 at a tight tolerance for the
% damped pendulum and the Lorenz system, for the periodic orbit the flow of ode45 from its first
% point over the period.  The tolerances follow from the solvers' own (RelTol, PeriodTol) and the
% number of steps or windows over which their local errors add up.  Last, one "student script" per
% solver, written only with the option and field names that its first screen shows, runs and is
% checked the same way.

%!function names = fs_functions ()
%!  names = {'skg_solve', 'gauss_integrate', 'dual_solve', 'periodic_orbit', 'mechsys', ...
%!           'odesys', 'periodic_guesses'};
%!endfunction

%!function [var, fields, exvar] = fs_fields (name)
%!  % the main output fields that the first screen must show: the variable they are written on
%!  % (empty: written as 'X' / @code{X}), the names, and the example's variable that holds them
%!  switch (name)
%!    case 'skg_solve'
%!      var = 'sol';  exvar = 'sol';
%!      fields = {'t', 'q', 'qdot', 'lambda', 'energy', 'exitflag', 'message'};
%!    case 'gauss_integrate'
%!      var = 'sol';  exvar = 'sol';
%!      fields = {'t', 'q', 'qdot', 'lambda', 'energy', 'impacts', 'exitflag', 'message'};
%!    case 'dual_solve'
%!      var = 'sol';  exvar = 'sol';
%!      fields = {'t', 'y', 'D', 'exitflag', 'message'};
%!    case 'periodic_orbit'
%!      var = 'sol';  exvar = 'sol';
%!      fields = {'T', 't', 'y', 'floquet', 'exitflag', 'message'};
%!    case 'mechsys'
%!      var = 'sys';  exvar = 'pend';
%!      fields = {'coordinates', 'parameters', 'n', 'm'};
%!    case 'odesys'
%!      var = 'ode';  exvar = 'lor';
%!      fields = {'states', 'parameters', 'ny', 'nd'};
%!    case 'periodic_guesses'
%!      var = '';  exvar = 'cands';
%!      fields = {'t', 'y', 'T', 'loops', 'distance'};
%!  end
%!endfunction

%!function lines = fs_rendered (name)
%!  % the first 25 lines that help NAME prints in Octave
%!  lines = strsplit (evalc (sprintf ('help %s', name)), "\n");
%!  lines = lines(1:min (25, numel (lines)));
%!endfunction

%!function lines = fs_raw (name)
%!  % the first 25 lines of the leading comment block without the comment signs: what MATLAB's
%!  % help prints
%!  all = strsplit (fileread (which (name)), "\n");
%!  lines = {};
%!  for k = 1:numel (all)
%!    if (~isempty (regexp (all{k}, '^\s*function\>', 'once')))
%!      break;
%!    end
%!    if (~isempty (regexp (all{k}, '^\s*%', 'once')))
%!      lines{end+1} = regexprep (all{k}, '^\s*% ?', '');
%!    end
%!  end
%!  lines = lines(1:min (25, numel (lines)));
%!endfunction

%!function code = fs_example (raw)
%!  % the first @verbatim block of the raw first screen (it must end there)
%!  a = find (strcmp (strtrim (raw), '@verbatim'), 1);
%!  b = find (strcmp (strtrim (raw), '@end verbatim'), 1);
%!  if (isempty (a) || isempty (b) || b < a)
%!    code = '';
%!  else
%!    code = strjoin (raw(a+1:b-1), "\n");
%!  end
%!endfunction

%!function [rows, quoted] = fs_option_rows (lines, rendered)
%!  % the option list: the name that leads each row, and every quoted word in the rows
%!  if (rendered)
%!    pat = '^\s+"(\w+)"\s';
%!  else
%!    pat = '^@item\s+"(\w+)"\s+@tab';
%!  end
%!  rows = {};  quoted = {};
%!  for k = 1:numel (lines)
%!    t = regexp (lines{k}, pat, 'tokens', 'once');
%!    if (~isempty (t))
%!      rows{end+1} = t{1};
%!      q = regexp (lines{k}, '"(\w+)"', 'tokens');
%!      quoted = [quoted, cellfun(@(c) c{1}, q, 'UniformOutput', false)];
%!    end
%!  end
%!endfunction

%!function bad = fs_check_screen (name, lines, rendered)
%!  % the checks of one first screen; a cell of what fails
%!  bad = {};
%!  view = {'raw', 'rendered'}{rendered + 1};
%!  txt = strjoin (lines, "\n");
%!  % a usage line
%!  if (rendered)
%!    usage = ['^ -- .*\<' name ' \('];
%!  else
%!    usage = ['^@deftypefnx?\s.*\<' name ' \('];
%!  end
%!  if (~any (~cellfun (@isempty, regexp (lines, usage, 'once'))))
%!    bad{end+1} = sprintf ('%s (%s): no usage line', name, view);
%!  end
%!  % the options: every row's name is an option of the schema, every quoted word in the rows an
%!  % option or one of an option's values, and at least five options are named
%!  schema = vm_options_mex ('schema', name);
%!  opts = {schema.name};
%!  values = [schema.choices];
%!  [rows, quoted] = fs_option_rows (lines, rendered);
%!  for r = setdiff (rows, opts)
%!    bad{end+1} = sprintf ('%s (%s): the option list names "%s", not an option', name, view, r{1});
%!  end
%!  for r = setdiff (quoted, [opts, values])
%!    bad{end+1} = sprintf ('%s (%s): the option list quotes "%s", not an option or a value', ...
%!                          name, view, r{1});
%!  end
%!  if (numel (unique (intersect (quoted, opts))) < 5)
%!    bad{end+1} = sprintf ('%s (%s): fewer than five options in the first 25 lines (%s)', ...
%!                          name, view, strjoin (intersect (quoted, opts), ', '));
%!  end
%!  % the main output fields
%!  [var, fields] = fs_fields (name);
%!  for f = fields
%!    if (isempty (var))
%!      pat = {['''' f{1} ''''], ['@code{' f{1} '}']}{2 - rendered};
%!      ok = ~isempty (strfind (txt, pat));
%!    else
%!      ok = ~isempty (regexp (txt, ['\<' var '\.' f{1} '\>'], 'once'));
%!    end
%!    if (~ok)
%!      bad{end+1} = sprintf ('%s (%s): field %s is not in the first 25 lines', name, view, f{1});
%!    end
%!  end
%!  % an example, announced and complete
%!  if (isempty (strfind (txt, 'Example')))
%!    bad{end+1} = sprintf ('%s (%s): no line with ''Example''', name, view);
%!  end
%!  if (~rendered && isempty (fs_example (lines)))
%!    bad{end+1} = sprintf ('%s (raw): no complete @verbatim example in the first 25 lines', name);
%!  end
%!endfunction

%!function ws__ = fs_run (code__)
%!  % run CODE__ in this fresh function workspace (printing kept out of the test's output) and
%!  % return its variables as a struct
%!  evalc (code__);
%!  names__ = who ();
%!  ws__ = struct ();
%!  for k__ = 1:numel (names__)
%!    if (isempty (regexp (names__{k__}, '__$', 'once')))
%!      ws__.(names__{k__}) = eval (names__{k__});
%!    end
%!  end
%!endfunction

%!function ws = fs_run_example (name)
%!  old = get (0, 'defaultfigurevisible');
%!  set (0, 'defaultfigurevisible', 'off');
%!  unwind_protect
%!    code = fs_example (fs_raw (name));
%!    assert (~isempty (code), sprintf ('%s: no example in the first screen', name));
%!    ws = fs_run (code);
%!    % the fields the first screen names are fields of the example's result
%!    [~, fields, exvar] = fs_fields (name);
%!    missing = fields(~isfield (ws.(exvar), fields));
%!    assert (isempty (missing), sprintf ('%s: the example''s %s has no field %s', name, exvar, ...
%!            strjoin (missing, ', ')));
%!  unwind_protect_cleanup
%!    close all;
%!    set (0, 'defaultfigurevisible', old);
%!  end_unwind_protect
%!endfunction

%!function v = fs_option_value (code, opt, name)
%!  % the value of option OPT in CODE, else its default in the schema
%!  t = regexp (code, ['''' opt '''\s*,\s*([-+.eE0-9]+)'], 'tokens', 'once');
%!  if (~isempty (t))
%!    v = str2double (t{1});
%!  else
%!    d = vm_options_mex ('defaults', name);
%!    v = d.(opt);
%!    if (isempty (v))
%!      s = vm_options_mex ('schema', name);
%!      v = s(strcmp ({s.name}, opt)).implied;
%!    end
%!  end
%!endfunction

%!function y = fs_ode45 (f, t, y0)
%!  % the reference: ode45 at a tight tolerance, at the times t (a column)
%!  if (numel (t) == 2)
%!    [~, y] = ode45 (f, [t(1), (t(1) + t(2))/2, t(2)], y0(:), odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
%!    y = y([1 3], :);
%!  else
%!    [~, y] = ode45 (f, t, y0(:), odeset ('RelTol', 1e-12, 'AbsTol', 1e-12));
%!  end
%!endfunction

%!function f = fs_pendulum (g, l, c)
%!  % the damped pendulum in its angle th from the downward vertical: th'' = -g/l sin th - c th'
%!  f = @(t, u) [u(2); -g / l * sin(u(1)) - c * u(2)];
%!endfunction

%!function f = fs_lorenz (p)
%!  f = @(t, u) [p.s * (u(2) - u(1)); u(1) * (p.r - u(3)) - u(2); u(1) * u(2) - p.b * u(3)];
%!endfunction

%!function G = fs_lorenz_growth (p, t, y0)
%!  % max over t of ||Phi(t, t0)||_inf, Phi the fundamental matrix of the linearized Lorenz
%!  % equations along the trajectory from y0: how much a perturbation of the state grows over the
%!  % interval (the local errors of a march are carried along the trajectory like it)
%!  J = @(u) [-p.s, p.s, 0; p.r - u(3), -1, -u(1); u(2), u(1), -p.b];
%!  f = fs_lorenz (p);
%!  rhs = @(s, w) [f(s, w(1:3)); reshape(J (w(1:3)) * reshape (w(4:12), 3, 3), 9, 1)];
%!  [~, w] = ode45 (rhs, t, [y0(:); reshape(eye (3), 9, 1)], odeset ('RelTol', 1e-10, 'AbsTol', 1e-12));
%!  G = 1;
%!  for k = 1:rows (w)
%!    G = max (G, norm (reshape (w(k, 4:12), 3, 3), inf));
%!  end
%!endfunction

%!function check_names_shown (name, script)
%!  % every option name and every field of sol that SCRIPT uses is in NAME's rendered first screen
%!  txt = strjoin (fs_rendered (name), "\n");
%!  s = vm_options_mex ('schema', name);
%!  used = regexp (script, '''(\w+)''', 'tokens');
%!  used = intersect (cellfun (@(c) c{1}, used, 'UniformOutput', false), {s.name});
%!  for u = used
%!    assert (~isempty (strfind (txt, ['"' u{1} '"'])), ...
%!            sprintf ('%s: the student script uses option %s, not on the first screen', name, u{1}));
%!  end
%!  f = regexp (script, '\<sol\.(\w+)(\.\w+)?', 'tokens');
%!  for k = 1:numel (f)
%!    assert (~isempty (regexp (txt, ['\<sol\.' f{k}{1} '\>'], 'once')), ...
%!            sprintf ('%s: the student script uses sol.%s, not on the first screen', name, f{k}{1}));
%!    if (numel (f{k}) > 1 && ~isempty (f{k}{2}))
%!      assert (~isempty (strfind (txt, f{k}{2})), ...
%!              sprintf ('%s: the student script uses sol.%s%s, not on the first screen', name, ...
%!                       f{k}{1}, f{k}{2}));
%!    end
%!  end
%!endfunction

%!test
%! % the first 25 lines, as Octave's help prints them and as the raw comment (MATLAB's help)
%! bad = {};
%! for name = fs_functions ()
%!   rendered = fs_rendered (name{1});
%!   bad = [bad, fs_check_screen(name{1}, rendered, true), ...
%!          fs_check_screen(name{1}, fs_raw (name{1}), false)];
%!   % the example's code is shown in Octave's first 25 lines too
%!   code = strsplit (fs_example (fs_raw (name{1})), "\n");
%!   shown = strtrim (rendered);
%!   for c = code
%!     if (~any (strcmp (strtrim (c{1}), shown)))
%!       bad{end+1} = sprintf ('%s (rendered): example line not in the first 25 lines: %s', ...
%!                             name{1}, c{1});
%!     end
%!   end
%! end
%! assert (bad, {});

%!test
%! % a renamed option fails the check: the same screen with an option misspelt is reported (the
%! % check reads the rows against the schema, not against a list of its own)
%! lines = fs_rendered ('skg_solve');
%! [rows, quoted] = fs_option_rows (lines, true);
%! assert (numel (rows) >= 5);
%! assert (all (ismember ({'RelTol', 'AbsTol', 'Order', 'OutputTimes'}, quoted)));
%! assert (fs_check_screen ('skg_solve', lines, true), {});
%! bad = fs_check_screen ('skg_solve', strrep (lines, '"Order"', '"Ordre"'), true);
%! assert (any (~cellfun (@isempty, strfind (bad, '"Ordre", not an option'))));
%! bad = fs_check_screen ('skg_solve', strrep (lines, '"AbsTol"', '"AbsTolerance"'), true);
%! assert (any (~cellfun (@isempty, strfind (bad, '"AbsTolerance", not an option or a value'))));

%!test
%! % skg_solve: the damped pendulum against ode45 on th'' = -g sin th - c th'; the local error of
%! % each window is within the tolerance, and a dissipative motion does not amplify them, so the
%! % error is at most their sum over the windows
%! ws = fs_run_example ('skg_solve');
%! code = fs_example (fs_raw ('skg_solve'));
%! sol = ws.sol;  p = ws.pend.parameters;
%! assert (sol.exitflag, 1);
%! ref = fs_ode45 (fs_pendulum (p.g, 1, p.c), sol.t, [1 0]);
%! tol = numel (sol.windows.t0) * (fs_option_value (code, 'RelTol', 'skg_solve') * max (abs (sol.q)) ...
%!                                 + fs_option_value (code, 'AbsTol', 'skg_solve'));
%! assert (max (abs (sol.q - ref(:,1))) < tol);
%! assert (max (abs (sol.qdot - ref(:,2))) < tol * max (abs (ref(:,2))) / max (abs (sol.q)) + tol);
%! % damped: the energy falls
%! assert (sol.energy(end) < sol.energy(1));

%!test
%! % gauss_integrate: the Cartesian damped pendulum; its angle against ode45, the local errors of
%! % the accepted steps summed
%! ws = fs_run_example ('gauss_integrate');
%! code = fs_example (fs_raw ('gauss_integrate'));
%! sol = ws.sol;  p = ws.pend.parameters;
%! assert (sol.exitflag, 1);
%! ref = fs_ode45 (fs_pendulum (p.g, p.l, p.c), sol.t, [1 0]);
%! tol = sol.stats.naccept * (fs_option_value (code, 'RelTol', 'gauss_integrate') * p.l ...
%!                            + fs_option_value (code, 'AbsTol', 'gauss_integrate'));
%! assert (max (abs (ws.th - ref(:,1))) < tol);
%! % the rod: the tension at rest is g cos(1) per mass (lambda's convention: T = -2 l lambda)
%! assert (-2 * p.l * sol.lambda(1), p.g * cos (1), 1e3 * eps * p.g);

%!test
%! % dual_solve: the Lorenz system against ode45; the windows' local errors, carried along the
%! % trajectory, grow at most as a perturbation of the state does (the linearized flow)
%! ws = fs_run_example ('dual_solve');
%! code = fs_example (fs_raw ('dual_solve'));
%! sol = ws.sol;  p = ws.lor.parameters;
%! assert (sol.exitflag, 1);
%! ref = fs_ode45 (fs_lorenz (p), sol.t, [1 1 1]);
%! G = fs_lorenz_growth (p, sol.t, [1 1 1]);
%! tol = G * numel (sol.windows.t0) * (fs_option_value (code, 'RelTol', 'dual_solve') ...
%!                                     * max (abs (sol.y(:))) + fs_option_value (code, 'AbsTol', 'dual_solve'));
%! assert (max (abs (sol.y(:) - ref(:))) < tol);

%!test
%! % periodic_orbit: Van der Pol; ode45 from the orbit's first point over the period comes back
%! % to it, within the change that the period's error (PeriodTol) and the orbit's estimated error
%! % (carried over one period by the monodromy matrix) make, and ode45's own error
%! ws = fs_run_example ('periodic_orbit');
%! code = fs_example (fs_raw ('periodic_orbit'));
%! sol = ws.sol;  mu = ws.vdp.parameters.mu;
%! assert (sol.exitflag, 1);
%! f = @(t, u) [u(2); mu * (1 - u(1)^2) * u(2) - u(1)];
%! z = fs_ode45 (f, [0; sol.T], sol.y(1,:));
%! F = cell2mat (arrayfun (@(k) f(0, sol.y(k,:))', (1:rows (sol.y))', 'UniformOutput', false));
%! ptol = fs_option_value (code, 'PeriodTol', 'periodic_orbit');
%! tol = max (abs (F(:))) * ptol * sol.T + norm (sol.monodromy, inf) * sol.state_error ...
%!       + 1e-12 * max (abs (sol.y(:))) * numel (sol.t);
%! assert (max (abs (z(end,:) - sol.y(1,:))) < tol);
%! assert (abs (sol.period_error) <= ptol * sol.T);
%! % the candidate it started from
%! assert (ws.cands(1).loops, 1);

%!test
%! % mechsys: M = 1 and f = -g sin(th) - c dth/dt at the point of the example; the run with the
%! % damping changed in sys.parameters (no recompilation) against ode45
%! ws = fs_run_example ('mechsys');
%! p = ws.pend.parameters;
%! assert (ws.out.M, 1, 10 * eps);
%! assert (ws.out.f, -p.g * sin (1) - 0.5 * 0.5, 10 * eps * p.g);   % at c = 0.5, dth/dt = 0.5
%! assert (p.c, 0.2);
%! sol = ws.sol;
%! ref = fs_ode45 (fs_pendulum (p.g, 1, p.c), sol.t, [1 0]);
%! d = vm_options_mex ('defaults', 'gauss_integrate');
%! assert (max (abs (sol.q - ref(:,1))) < sol.stats.naccept * (d.RelTol + d.AbsTol));

%!test
%! % odesys: F of the Lorenz system at (1, 2, 3), and the run with r changed in ode.parameters
%! % (no recompilation) against ode45 at that r
%! ws = fs_run_example ('odesys');
%! assert (ws.out.F(:)', [10 * (2 - 1), 1 * (28 - 3) - 2, 1 * 2 - 8/3 * 3], 1e-12);
%! p = ws.lor.parameters;
%! assert (p.r, 20);
%! sol = ws.sol;
%! assert (sol.exitflag, 1);
%! ref = fs_ode45 (fs_lorenz (p), sol.t, [1 1 1]);
%! G = fs_lorenz_growth (p, sol.t, [1 1 1]);
%! rt = fs_option_value ('', 'RelTol', 'dual_solve');
%! at = fs_option_value ('', 'AbsTol', 'dual_solve');
%! assert (max (abs (sol.y(:) - ref(:))) < G * numel (sol.windows.t0) * (rt * max (abs (sol.y(:))) + at));

%!test
%! % periodic_guesses: the best candidate is a piece of the trajectory (ode45 from its first
%! % point over its duration reaches its last, within the integrator's RelTol summed over its
%! % steps, fewer than its points), nearly closed (distance within ReturnTol of the diameter)
%! ws = fs_run_example ('periodic_guesses');
%! c = ws.cands(1);
%! mu = ws.vdp.parameters.mu;
%! f = @(t, u) [u(2); mu * (1 - u(1)^2) * u(2) - u(1)];
%! z = fs_ode45 (f, [0; c.T], c.y(1,:));
%! d = vm_options_mex ('defaults', 'periodic_guesses');
%! assert (max (abs (z(end,:) - c.y(end,:))) < numel (c.t) * d.RelTol * max (abs (c.y(:))));
%! diam = max (max (c.y) - min (c.y));
%! assert (c.distance <= d.ReturnTol * diam);
%! assert (ws.sol.exitflag, 1);

%!test
%! % a student's skg_solve: less damping, a larger swing, a higher order, output times
%! script = [ ...
%!   'p = struct (''g'', 9.81, ''c'', 0.2);' 10 ...
%!   'pend = mechsys (''coordinates'', {''th''}, ''parameters'', p, ...' 10 ...
%!   '  ''lagrangian'', ''dot(th)^2/2 + g*cos(th)'', ''forces'', {''-c*dot(th)''});' 10 ...
%!   'sol = skg_solve (pend, [0 6], 2, 0, ''RelTol'', 1e-9, ''Order'', 6, ''OutputTimes'', 0:0.5:6);' 10 ...
%!   'th = sol.q;  t = sol.t;  th_out = sol.output.q;  ok = sol.exitflag;'];
%! check_names_shown ('skg_solve', script);
%! ws = fs_run (script);
%! assert (ws.ok, 1);
%! ref = fs_ode45 (fs_pendulum (9.81, 1, 0.2), ws.t, [2 0]);
%! tol = numel (ws.sol.windows.t0) * (1e-9 * max (abs (ws.th)) + fs_option_value ('', 'AbsTol', 'skg_solve'));
%! assert (max (abs (ws.th - ref(:,1))) < tol);
%! ref = fs_ode45 (fs_pendulum (9.81, 1, 0.2), (0:0.5:6)', [2 0]);
%! assert (max (abs (ws.th_out - ref(:,1))) < tol);

%!test
%! % a student's gauss_integrate: a longer rod, less damping, another method
%! script = [ ...
%!   'pend = mechsys (''coordinates'', {''x'', ''y''}, ''parameters'', struct (''g'', 9.81, ''l'', 2, ''c'', 0.1), ...' 10 ...
%!   '  ''lagrangian'', ''(dot(x)^2 + dot(y)^2)/2 - g*y'', ''forces'', {''-c*dot(x)'', ''-c*dot(y)''}, ...' 10 ...
%!   '  ''constraints'', {''x^2 + y^2 - l^2''});' 10 ...
%!   'sol = gauss_integrate (pend, [0 8], 2*[sin(0.5) -cos(0.5)], [0 0], ''Method'', ''dop853'', ''RelTol'', 1e-10);' 10 ...
%!   'th = atan2 (sol.q(:,1), -sol.q(:,2));  t = sol.t;  ok = sol.exitflag;'];
%! check_names_shown ('gauss_integrate', script);
%! ws = fs_run (script);
%! assert (ws.ok, 1);
%! ref = fs_ode45 (fs_pendulum (9.81, 2, 0.1), ws.t, [0.5 0]);
%! tol = ws.sol.stats.naccept * (1e-10 * 2 + fs_option_value ('', 'AbsTol', 'gauss_integrate'));
%! assert (max (abs (ws.th - ref(:,1))) < tol);

%!test
%! % a student's dual_solve: the Lorenz system at other parameters, a higher order
%! script = [ ...
%!   'lor = odesys (''states'', {''x'', ''y'', ''z''}, ''parameters'', struct (''s'', 8, ''r'', 24, ''b'', 2), ...' 10 ...
%!   '  ''rhs'', {''s*(y - x)'', ''x*(r - z) - y'', ''x*y - b*z''});' 10 ...
%!   'sol = dual_solve (lor, [0 3], [2 -1 10], ''RelTol'', 1e-9, ''Order'', 6);' 10 ...
%!   'y = sol.y;  t = sol.t;  ok = sol.exitflag;'];
%! check_names_shown ('dual_solve', script);
%! ws = fs_run (script);
%! assert (ws.ok, 1);
%! p = struct ('s', 8, 'r', 24, 'b', 2);
%! ref = fs_ode45 (fs_lorenz (p), ws.t, [2 -1 10]);
%! G = fs_lorenz_growth (p, ws.t, [2 -1 10]);
%! tol = G * numel (ws.sol.windows.t0) * (1e-9 * max (abs (ws.y(:))) + fs_option_value ('', 'AbsTol', 'dual_solve'));
%! assert (max (abs (ws.y(:) - ref(:))) < tol);

%!test
%! % a student's periodic_orbit: Van der Pol at mu = 2 from a rough circle, another order
%! script = [ ...
%!   'vdp = odesys (''states'', {''x'', ''v''}, ''parameters'', struct (''mu'', 2), ''rhs'', {''v'', ''mu*(1 - x^2)*v - x''});' 10 ...
%!   't = linspace (0, 7.5, 80)'';' 10 ...
%!   'sol = periodic_orbit (vdp, t, [2*cos(2*pi*t/7.5), -2*sin(2*pi*t/7.5)], ''Order'', 6, ''PeriodTol'', 1e-9);' 10 ...
%!   'T = sol.T;  y = sol.y;  ok = sol.exitflag;'];
%! check_names_shown ('periodic_orbit', script);
%! ws = fs_run (script);
%! assert (ws.ok, 1);
%! f = @(t, u) [u(2); 2 * (1 - u(1)^2) * u(2) - u(1)];
%! z = fs_ode45 (f, [0; ws.T], ws.y(1,:));
%! F = cell2mat (arrayfun (@(k) f(0, ws.y(k,:))', (1:rows (ws.y))', 'UniformOutput', false));
%! tol = max (abs (F(:))) * 1e-9 * ws.T + norm (ws.sol.monodromy, inf) * ws.sol.state_error ...
%!       + 1e-12 * max (abs (ws.y(:))) * numel (ws.sol.t);
%! assert (max (abs (z(end,:) - ws.y(1,:))) < tol);
