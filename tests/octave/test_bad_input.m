% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} test_bad_input ()
% @deftypefnx {} {@var{r} =} test_bad_input (@var{fname})
% The table-driven bad-input test of every public function (issue 12): run by @code{make check}
% through its test block below, or by hand, e.g. @code{test_bad_input ('skg_solve')}.
%
% For every public function the table below holds a valid baseline call (small and fast) and,
% for every positional argument and every documented option, the argument's user-facing name
% and the replacements that are valid for it.  Each argument is then replaced, one at a time,
% by
% @itemize
% @item each class: double, sparse, complex, single, int32, logical (the baseline's numbers, or
% 1, converted; sparse also all zeros, with no stored entry), char ('abc'), cell (@{baseline@}),
% struct (struct ('a', 1)), function handle (@@sin);
% @item each shape: empty ([]), scalar, row, column, matrix (of 1 + numel (baseline) numbers,
% so never the baseline's count), the baseline transposed and the baseline stacked into a 3-D
% array;
% @item NaN and Inf (the baseline's first entry replaced, or a scalar);
% @item for integer arguments a non-integer and a negative value, for orders and iteration
% limits the baseline + 2^32 (which a cast to int would wrap back to the baseline), for
% positive numbers the negative; for system arguments a system of the other kind;
% @item for functions with options, an unknown option name, a non-string name and a name
% without value.
% @end itemize
% A replacement that is not in the argument's allow-list is invalid and must raise an error
% (not crash, not return) whose message names the argument: its name (or one of the listed
% alternative names) as a whole word, case-insensitive.  A replacement in the allow-list may be
% accepted; if it is refused, the message must name the argument too.  The allow-lists are
% commented where the table declares them; throughout, single and int32 numbers that convert to
% a valid value may be accepted and converted (the gateways convert or refuse by class), and an
% empty option value may mean the option's default (the odeset convention).
%
% @var{r} has the counts (@code{ncases}, @code{ninvalid}, @code{nallowed}, @code{nfail}), the
% counts per function (@code{functions}), @code{failed} (one field per function: its number of
% failures) and @code{failures} (a cell of lines).  The report printed lists the failures
% grouped by function and argument.  With the environment variable VM_BAD_INPUT_TRACE set, each
% case is written to stderr before it runs, so that a crash or a sanitizer report in the log
% follows the name of the case that caused it (make check-asan sets it).
% @end deftypefn

function r = test_bad_input (only)
  if (nargin < 1)
    only = '';
  end
  trace = ~isempty (getenv ('VM_BAD_INPUT_TRACE'));
  ws = warning ();
  warning ('off', 'all');
  cleanup = onCleanup (@() warning (ws));
  fx = fixtures ();
  F = bad_input_table (fx);
  r = struct ('ncases', 0, 'ninvalid', 0, 'nallowed', 0, 'nfail', 0, 'functions', [], ...
              'failed', struct (), 'failures', {{}}, 'cases', {{}});
  fn_rows = struct ('name', {}, 'ncases', {}, 'ninvalid', {}, 'nallowed', {}, 'nfail', {});
  for f = 1:numel (F)
    if (~isempty (only) && ~strcmp (F(f).fn, only))
      continue;
    end
    row = struct ('name', F(f).fn, 'ncases', 0, 'ninvalid', 0, 'nallowed', 0, 'nfail', 0);
    specs = F(f).specs;
    for s = 1:numel (specs)
      sp = specs(s);
      % the baseline with this argument's valid value must run: else the table is wrong
      [args, opts] = build_call (F(f), sp, sp.value, false);
      [ok, msg] = run_call (F(f).fn, args, opts, trace, sprintf ('%s %s baseline', F(f).fn, sp.name));
      if (~ok)
        row.nfail = row.nfail + 1;
        r.failures{end+1} = sprintf ('%s | %s | baseline (valid value) | refused: %s', F(f).fn, ...
                                     sp.name, oneline (msg));
      end
      reps = replacements (sp);
      for k = 1:numel (reps)
        label = reps(k).label;
        allowed = any (strcmp (label, sp.valid)) || (sp.pos == 0 && strcmp (label, 'empty'));
        [args, opts] = build_call (F(f), sp, reps(k).value, reps(k).raw);
        tag = sprintf ('%s %s <- %s', F(f).fn, sp.name, label);
        [ok, msg] = run_call (F(f).fn, args, opts, trace, tag);
        row.ncases = row.ncases + 1;
        if (allowed)
          row.nallowed = row.nallowed + 1;
        else
          row.ninvalid = row.ninvalid + 1;
        end
        names = [sp.names, alt_names(sp, label)];
        r.cases{end+1} = sprintf ('%s | %s | %s | %d | %s', F(f).fn, sp.name, label, allowed, ...
                                  oneline (msg));
        if (ok)
          if (allowed)
            continue;
          end
          why = 'returned without an error';
        elseif (names_arg (msg, names))
          continue;
        else
          why = sprintf ('error does not name %s: %s', sp.name, oneline (msg));
        end
        row.nfail = row.nfail + 1;
        kind = 'invalid';
        if (allowed)
          kind = 'allowed';
        end
        r.failures{end+1} = sprintf ('%s | %s | %s (%s) | %s', F(f).fn, sp.name, label, kind, why);
      end
    end
    fn_rows(end+1) = row;
    r.failed.(F(f).fn) = row.nfail;
    r.ncases = r.ncases + row.ncases;
    r.ninvalid = r.ninvalid + row.ninvalid;
    r.nallowed = r.nallowed + row.nallowed;
    r.nfail = r.nfail + row.nfail;
  end
  r.functions = fn_rows;
  report (r);
end

% ---------------------------------------------------------------------------------------------
% The fixtures: small systems whose baseline calls take milliseconds.
function fx = fixtures ()
  fx.OSC = mechsys ('coordinates', {'x'}, 'parameters', struct ('k', 1), ...
                    'lagrangian', 'dot(x)^2/2 - k*x^2/2');
  % a pendulum in Cartesian coordinates, its constraint at velocity level
  fx.PEND = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 1), ...
                     'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', ...
                     'constraints', {'x*dot(x) + y*dot(y)'});
  fx.ODE1 = odesys ('states', {'y'}, 'parameters', struct ('a', -1), 'rhs', {'a*y'});
  % a differential-algebraic system: 2 differential states, 1 algebraic
  fx.DAE = odesys ('states', {'x', 'v', 'lam'}, 'parameters', struct ('w', 1), ...
                   'rhs', {'v', '-w*x + lam*x'}, 'algebraic', {'x*v'});
  % Van der Pol (mu = 1) and a rough guess of its limit cycle, for periodic_orbit
  fx.VDP = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), ...
                   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
  fx.TG = linspace (0, 6.5, 30)';
  fx.YG = [2*cos(2*pi*fx.TG/6.5), -2*sin(2*pi*fx.TG/6.5)];
  % a fold of periodic orbits in closed form (periodic_continue's tests) and its orbit at mu = 0.1
  f = 'mu + (x^2+y^2) - (x^2+y^2)^2';
  fx.FOLD = odesys ('states', {'x', 'y'}, 'parameters', struct ('mu', 0.1), 'rhs', ...
                    {['x*(' f ') - y*(1 + x^2+y^2)'], ['y*(' f ') + x*(1 + x^2+y^2)']});
  t = linspace (0, 3, 40)';
  fx.FOLDPO = periodic_orbit (fx.FOLD, t, sqrt ((1 + sqrt (1.4)) / 2) * [cos(2*pi*t/3), sin(2*pi*t/3)]);
  % two solutions of the pendulum for varmech_plot (the SKG action and the reference
  % integrator), and an invisible figure to draw into (option Figure)
  fx.SOL1 = skg_solve (fx.PEND, [0 0.2], [0 -1], [1 0], 'N', 12, 'Windows', 1);
  fx.SOL2 = gauss_integrate (fx.PEND, [0 0.2], [0 -1], [1 0]);
  fx.FIG = figure ('visible', 'off');
end

% ---------------------------------------------------------------------------------------------
% The table.  fun (name, positional baseline, baseline options) starts a function; arg (F, name,
% kind, valid) declares positional argument k (in order), opt (F, name, value, kind, valid, ctx)
% an option with a valid value (ctx: further options that the value needs).  kind adds
% replacements: 'int' (non-integer, negative), 'order' and 'iter' (those and the baseline +
% 2^32), 'pos' (negative), 'sys' / 'ode' (a system of the other kind).  valid is the allow-list:
% the replacements (by label) that may be accepted.  Options of mechsys and odesys are their
% arguments: their values are in the baseline options and opt replaces them in place.
function F = bad_input_table (fx)
  conv = {'single', 'int32'};   % numbers of another class: may be converted
  yb = [0 0 0.5 1 0.5 0 0 0 0 0.1];   % a base state of the Pars system near its solution
  F = [];

  % --- sbp_operator (N, order, tspan) ---
  T = fun ('sbp_operator', {12, 4, [0 1]}, {});
  T = arg (T, 'N', 'int', conv);
  T = arg (T, 'order', 'order', conv);
  % [] is the default [0 1]; either orientation of [t0 tf]
  T = arg (T, 'tspan', '', [conv, {'empty', 'transposed'}]);
  F = [F, T];

  % --- sbp_apply (X, order, tspan, mode) ---
  T = fun ('sbp_apply', {linspace(0, 1, 12)', 4, [0 1], 'transpose'}, {});
  % 'column' is a 13-by-1 X: a longer grid, valid
  T = arg (T, 'X', '', [conv, {'column'}]);
  T = arg (T, 'order', 'order', conv);
  T = arg (T, 'tspan', '', [conv, {'empty', 'transposed'}]);
  T = arg (T, 'mode', '', {});
  F = [F, T];

  % --- skg_action (sys, tspan, q0, qdot0, N, order, z) ---
  % PEND: n = 2, m = 1: 6 unknowns per point, 48 at N = 8
  T = fun ('skg_action', {fx.PEND, [0 1], [0 -1], [1 0], 8, 4, (1:48)' / 480}, {});
  T = arg (T, 'sys', 'sys', {});
  T = arg (T, 'tspan', '', [conv, {'transposed'}]);
  T = arg (T, 'q0', '', [conv, {'transposed'}]);
  T = arg (T, 'qdot0', '', [conv, {'transposed'}]);
  T = arg (T, 'N', 'int', conv);
  T = arg (T, 'order', 'order', conv);
  T = arg (T, 'z', '', [conv, {'transposed'}]);
  F = [F, T];

  % --- skg_solve (sys, tspan, q0, qdot0, options) ---
  T = fun ('skg_solve', {fx.OSC, [0 0.5], 1, 0}, {});
  T = arg (T, 'sys', 'sys', {});
  T = arg (T, 'tspan', '', [conv, {'transposed'}]);
  T = arg (T, 'q0', '', conv);
  T = arg (T, 'qdot0', '', conv);
  T = opt (T, 'N', 12, 'int', conv, {});
  T = opt (T, 'Order', 4, 'order', conv, {});
  T = opt (T, 'Mode', 'full', '', {}, {});
  T = opt (T, 'Windows', 2, 'int', conv, {});
  T = opt (T, 'RelTol', 1e-6, 'pos', conv, {});
  T = opt (T, 'AbsTol', 1e-8, 'pos', conv, {});
  T = opt (T, 'Tol', 1e-10, 'pos', conv, {});
  T = opt (T, 'MaxIter', 15, 'iter', conv, {});
  T = opt (T, 'Guess', 'marching', '', {}, {});
  T = opt (T, 'Display', 'off', '', {}, {});
  % one output time is a valid list of output times
  T = opt (T, 'OutputTimes', [0.1 0.2], '', [conv, {'transposed', 'scalar'}], {});
  T = opt (T, 'MaxWindow', 0.5, 'pos', conv, {});
  T = opt (T, 'InitialWindow', 0.1, 'pos', conv, {});
  T = opt (T, 'MaxWindows', 1000, 'int', conv, {});
  T = opt (T, 'ConstraintTol', 1e-8, 'pos', conv, {});
  T = opt (T, 'ErrorEstimate', 'on', '', {}, {'N', 12});
  T = option_names (T);
  F = [F, T];

  % --- gauss_integrate (sys, tspan, q0, qdot0, options) ---
  T = fun ('gauss_integrate', {fx.PEND, [0 0.1], [0 -1], [1 0]}, {});
  T = arg (T, 'sys', 'sys', {});
  T = arg (T, 'tspan', '', [conv, {'transposed'}]);
  T = arg (T, 'q0', '', [conv, {'transposed'}]);
  T = arg (T, 'qdot0', '', [conv, {'transposed'}]);
  T = opt (T, 'Method', 'rk4', '', {}, {});
  T = opt (T, 'RelTol', 1e-6, 'pos', conv, {});
  T = opt (T, 'AbsTol', 1e-8, 'pos', conv, {});
  T = opt (T, 'Step', 0.01, 'pos', conv, {'Method', 'rk4'});
  T = opt (T, 'InitialStep', 0.01, 'pos', conv, {});
  T = opt (T, 'MaxStep', 0.05, 'pos', conv, {});
  T = opt (T, 'MaxSteps', 1000, 'int', conv, {});
  % OutputTimes: either orientation; one time (the scalar 0 = t0) is a valid list
  T = opt (T, 'OutputTimes', [0 0.05 0.1], '', [conv, {'transposed', 'scalar'}], {});
  % Reaction: a k-by-2 matrix of reaction directions is valid: the row [1 2] (k = 1) and the
  % matrix [1 3; 2 4] (k = 2); a number is a 1-by-1 matrix (refused for n = 2, or converted)
  T = opt (T, 'Reaction', 'ideal', '', {'row', 'matrix'}, {});
  T = opt (T, 'Contacts', 'soft', '', {}, {});
  T = opt (T, 'Restitution', 0.5, '', conv, {});
  T = opt (T, 'Projection', 'on', '', {}, {});
  T = opt (T, 'ConstraintTol', 1e-8, 'pos', conv, {});
  T = option_names (T);
  F = [F, T];

  % --- mechsys (name/value pairs: its arguments) ---
  T = fun ('mechsys', {}, {'coordinates', {'x', 'y'}, 'parameters', struct('g', 1), ...
           'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'forces', {'0', '-0.1*dot(y)'}, ...
           'constraints', {'x*dot(x) + y*dot(y)'}, ...
           'contacts', struct('h', 'y + 2', 'sigma', 0.1, 'V0', 1)});
  % a string is one coordinate: the lagrangian's 'x' and 'y' are then unknown names, and saying
  % so names the lagrangian
  T = opt (T, 'coordinates', [], '', {}, {}, {'coordinate'}, {'char', {'lagrangian'}});
  % without the parameter g the lagrangian's g is an unknown name: naming g names the parameter
  T = opt (T, 'parameters', [], '', {}, {}, {'parameter', 'g'});
  % a real number is a (constant) formula, converted by mechsys
  T = opt (T, 'lagrangian', [], '', {'double', 'single', 'int32', 'scalar'}, {});
  % no forces (empty) is valid
  T = opt (T, 'forces', [], '', {'empty'}, {}, {'force'});
  % no constraints (empty) is valid; a string is one constraint (here an unknown name)
  T = opt (T, 'constraints', [], '', {'empty'}, {}, {'constraint'});
  % no contacts (empty) is valid; a cell array of contact structs is documented
  T = opt (T, 'contacts', [], '', {'empty', 'cell'}, {}, {'contact'});
  T = option_names (T);
  F = [F, T];

  % --- odesys (name/value pairs: its arguments) ---
  T = fun ('odesys', {}, {'states', {'x', 'v', 'lam'}, 'parameters', struct('w', 1), ...
           'rhs', {'v', '-w*x + lam*x'}, 'algebraic', {'x*v'}, 'square', true});
  T = opt (T, 'states', [], '', {}, {}, {'state'});
  T = opt (T, 'parameters', [], '', {}, {}, {'parameter', 'w'});
  T = opt (T, 'rhs', [], '', {}, {}, {'right-hand side', 'right-hand sides'});
  T = opt (T, 'algebraic', [], '', {}, {});
  % square is true or false: a real number (1) of any class is true
  T = opt (T, 'square', [], 'bool', {'double', 'single', 'int32', 'scalar'}, {});
  T = option_names (T);
  F = [F, T];

  % --- mechsys_eval (sys, t, q, qdot, options) ---
  T = fun ('mechsys_eval', {fx.PEND, 0, [0 -1], [1 0]}, {});
  T = arg (T, 'sys', 'sys', {});
  T = arg (T, 't', '', conv);
  T = arg (T, 'q', '', conv);
  T = arg (T, 'qdot', '', conv);
  T = opt (T, 'lambda', 0.5, '', conv, {});
  T = opt (T, 'weights', [1 2], '', conv, {});
  % a string is one block name (then unknown: 'unknown block')
  T = opt (T, 'blocks', {'lagrangian', 'eom'}, '', {}, {}, {'block'});
  T = opt (T, 'layout', 'full', '', {}, {});
  T = option_names (T);
  F = [F, T];

  % --- odesys_eval (ode, t, y, options) ---
  T = fun ('odesys_eval', {fx.DAE, 0, [1 0 0]}, {});
  T = arg (T, 'ode', 'ode', {});
  T = arg (T, 't', '', conv);
  T = arg (T, 'y', '', conv);
  T = opt (T, 'wF', [1 2], '', conv, {});
  T = opt (T, 'wG', 1, '', conv, {});
  T = option_names (T);
  F = [F, T];

  % --- dual_action (ode, tspan, y0, z, options) ---
  % ODE1 at N = 8: numel (z) = N*(nd+ng) - nd = 7
  T = fun ('dual_action', {fx.ODE1, [0 1], 1, (1:7)' / 70}, {'N', 8});
  T = arg (T, 'ode', 'ode', {});
  T = arg (T, 'tspan', '', [conv, {'transposed'}]);
  T = arg (T, 'y0', '', conv);
  T = arg (T, 'z', '', [conv, {'transposed'}]);
  T = opt (T, 'N', 8, 'int', conv, {});
  T = opt (T, 'Order', 4, 'order', conv, {});
  T = opt (T, 'c', 10, 'pos', conv, {});
  T = opt (T, 'BaseState', 0, '', conv, {});
  T = opt (T, 'DT', 0, '', conv, {});
  T = option_names (T);
  F = [F, T];

  % --- dual_solve (ode, tspan, y0, options) ---
  T = fun ('dual_solve', {fx.ODE1, [0 0.5], 1}, {});
  T = arg (T, 'ode', 'ode', {});
  T = arg (T, 'tspan', '', [conv, {'transposed'}]);
  T = arg (T, 'y0', '', conv);
  T = opt (T, 'N', 16, 'int', conv, {});
  T = opt (T, 'Order', 4, 'order', conv, {});
  T = opt (T, 'c', 10, 'pos', conv, {});
  % BaseState needs a fixed grid; a function handle of t is documented (@sin: one value, ny = 1)
  T = opt (T, 'BaseState', 0, '', [conv, {'function handle'}], {'Slabs', 1});
  T = opt (T, 'DT', 0, '', conv, {'Slabs', 1, 'FinalDual', 'strong'});
  T = opt (T, 'Slabs', 2, 'int', conv, {});
  T = opt (T, 'BaseIterations', 1, 'int', conv, {'Slabs', 1});
  T = opt (T, 'Guess', 'marching', '', {}, {});
  T = opt (T, 'Tol', 1e-11, 'pos', conv, {'Slabs', 1});
  T = opt (T, 'MaxIter', 50, 'iter', conv, {});
  T = opt (T, 'Display', 'off', '', {}, {});
  T = opt (T, 'RelTol', 1e-6, 'pos', conv, {});
  T = opt (T, 'AbsTol', 1e-8, 'pos', conv, {});
  % one output time is a valid list of output times
  T = opt (T, 'OutputTimes', [0.1 0.2], '', [conv, {'transposed', 'scalar'}], {});
  T = opt (T, 'FinalDual', 'weak', '', {}, {});
  T = opt (T, 'ErrorEstimate', 'on', '', {}, {'N', 16});
  T = option_names (T);
  F = [F, T];

  % --- periodic_orbit (ode, t_guess, y_guess, options) ---
  T = fun ('periodic_orbit', {fx.VDP, fx.TG, fx.YG}, {'N', 41});
  T = arg (T, 'ode', 'ode', {});
  % a row of times is a vector of times
  T = arg (T, 't_guess', '', [conv, {'transposed'}]);
  T = arg (T, 'y_guess', '', conv);
  T = opt (T, 'N', 41, 'int', conv, {});
  T = opt (T, 'Order', 8, 'order', conv, {});
  T = opt (T, 'PeriodTol', 1e-10, 'pos', conv, {});
  T = opt (T, 'Tol', 1e-12, 'pos', conv, {});
  T = opt (T, 'MaxIter', 50, 'iter', conv, {});
  % c: a scalar or one per state and P (3): the scalar replacement is valid
  T = opt (T, 'c', [1 1 1], 'pos', [conv, {'transposed', 'scalar', 'column', 'row'}], {});
  T = opt (T, 'BaseIterations', 1, 'int', conv, {});
  T = opt (T, 'FlowTol', 1e-12, 'pos', conv, {});
  T = opt (T, 'Display', 'off', '', {}, {});
  T = opt (T, 'Integral', 'x^2 + v^2', '', {}, {'Unfolding', {'x', 'v'}, 'Level', 4, 'MaxIter', 4});
  T = opt (T, 'Level', 4, '', conv, {'Integral', 'x^2 + v^2', 'Unfolding', {'x', 'v'}, 'MaxIter', 4});
  T = opt (T, 'Unfolding', {'x', 'v'}, '', {'transposed'}, {'Integral', 'x^2 + v^2', 'Level', 4, 'MaxIter', 4});
  T = option_names (T);
  F = [F, T];

  % --- periodic_guesses (ode, y0, T, options) ---
  T = fun ('periodic_guesses', {fx.VDP, [2 0], 30}, {});
  T = arg (T, 'ode', 'ode', {});
  T = arg (T, 'y0', '', [conv, {'transposed'}]);
  T = arg (T, 'T', 'pos', conv);
  T = opt (T, 'Section', [0 1 0 -1], '', [conv, {'transposed'}], {});
  T = opt (T, 'Transient', 1, 'pos', [conv, {'empty'}], {});
  T = opt (T, 'MaxLoops', 2, 'int', conv, {});
  T = opt (T, 'ReturnTol', 0.02, 'pos', conv, {});
  T = opt (T, 'MaxCandidates', 5, 'int', conv, {});
  T = opt (T, 'Points', 50, 'int', conv, {});
  T = opt (T, 'RelTol', 1e-10, 'pos', conv, {});
  T = option_names (T);
  F = [F, T];

  % --- periodic_catalogue (ode, y0, options): Van der Pol, whose one orbit crosses v = 0 upwards
  % with x < 0 only, so the word AB is absent and each call ends after the itinerary ---
  T = fun ('periodic_catalogue', {fx.VDP, [2 0]}, {'Section', 'v', 'Symbol', 'x', 'MaxLength', 2, ...
           'Transient', 10, 'Duration', 200, 'Parallel', 'off'});
  T = arg (T, 'ode', 'ode', {});
  T = arg (T, 'y0', '', [conv, {'transposed'}]);
  T = opt (T, 'Section', 'v', '', {}, {});
  T = opt (T, 'Symbol', 'x', '', {}, {});
  T = opt (T, 'MaxLength', 2, 'int', conv, {});
  T = opt (T, 'Duration', 200, 'pos', [conv, {'empty'}], {});
  T = opt (T, 'Transient', 10, 'pos', [conv, {'empty'}], {});
  T = opt (T, 'RelTol', 1e-10, 'pos', conv, {});
  T = opt (T, 'Tries', 3, 'int', conv, {});
  T = opt (T, 'Points', 200, 'int', conv, {});
  T = opt (T, 'PeriodTol', 1e-10, 'pos', conv, {});
  T = opt (T, 'FlowTol', 1e-12, 'pos', conv, {});
  T = opt (T, 'Chunks', 8, 'int', conv, {});
  % Chunk [k n]: a column is as good as a row; [] runs every chunk
  T = opt (T, 'Chunk', [1 1], 'int', [conv, {'transposed', 'empty'}], {});
  % Checkpoint: a folder name; a string replacement would write a folder into the current
  % directory, so its values are tested in test_periodic_catalogue (a folder of tempname)
  T = opt (T, 'Parallel', 'off', '', {}, {});
  T = opt (T, 'Display', 'off', '', {}, {});
  T = option_names (T);
  F = [F, T];

  % --- periodic_continue (ode, po, name, [p0 p1], options): one step of the fold system ---
  T = fun ('periodic_continue', {fx.FOLD, fx.FOLDPO, 'mu', [0.1 0.09]}, {'MaxSteps', 1});
  T = arg (T, 'ode', 'ode', {});
  T = arg (T, 'po', '', {});
  T = arg (T, 'name', '', {});
  T = arg (T, 'range', '', [conv, {'transposed'}], {'p0', 'p1'});
  T = opt (T, 'InitialStep', 0.02, 'pos', conv, {});
  T = opt (T, 'MaxStep', 0.1, 'pos', conv, {});
  T = opt (T, 'MinStep', 1e-4, 'pos', conv, {});
  T = opt (T, 'MaxSteps', 1, 'int', conv, {});
  T = opt (T, 'SpecialTol', 1e-6, 'pos', conv, {});
  T = opt (T, 'PeriodTol', 1e-10, 'pos', conv, {});
  T = opt (T, 'FlowTol', 1e-12, 'pos', conv, {});
  T = opt (T, 'Display', 'off', '', {}, {});
  T = option_names (T);
  F = [F, T];

  % --- dual_lorenz (tspan, y0, options) ---
  T = fun ('dual_lorenz', {[0 0.05], [1 1 1]}, {'N', 12});
  T = arg (T, 'tspan', '', [conv, {'transposed'}]);
  T = arg (T, 'y0', '', [conv, {'transposed'}]);
  % A, R, B: any real numbers (a negative value is a valid parameter)
  T = opt (T, 'A', 10, '', conv, {});
  T = opt (T, 'R', 28, '', conv, {});
  T = opt (T, 'B', 8/3, '', conv, {});
  T = opt (T, 'c', 50, 'pos', conv, {});
  T = opt (T, 'N', 12, 'int', conv, {});
  T = opt (T, 'Order', 4, 'order', conv, {});
  T = opt (T, 'BaseState', [1 1 1], '', [conv, {'transposed'}], {});
  T = opt (T, 'DT', [0 0 0], '', [conv, {'transposed'}], {});
  T = opt (T, 'Slabs', 2, 'int', conv, {});
  T = opt (T, 'BaseIterations', 1, 'int', conv, {});
  % dual_lorenz has the strong final dual only, so no marching guess: 'auto' or a matrix
  T = opt (T, 'Guess', 'auto', '', {}, {});
  T = opt (T, 'Tol', 1e-11, 'pos', conv, {});
  T = opt (T, 'MaxIter', 50, 'iter', conv, {});
  T = opt (T, 'Display', 'off', '', {}, {});
  T = option_names (T);
  F = [F, T];

  % --- dual_pars (tspan, x0, v0, options) ---
  T = fun ('dual_pars', {[0 0.05], [0 0 0.5], [1 0.5 0]}, {'N', 12, 'BaseState', yb});
  T = arg (T, 'tspan', '', [conv, {'transposed'}]);
  T = arg (T, 'x0', '', [conv, {'transposed'}]);
  T = arg (T, 'v0', '', [conv, {'transposed'}]);
  T = opt (T, 'L', [0 0 1; 0 0 0; 0 0 0], '', conv, {});
  T = opt (T, 'b', [0 -1 0], '', [conv, {'transposed'}], {});
  T = opt (T, 'c', [20 20 20 20], '', [conv, {'transposed'}], {});
  % Reduced is true or false: a real number of any class (here 0) is false
  T = opt (T, 'Reduced', false, 'bool', {'double', 'single', 'int32', 'scalar'}, {});
  T = opt (T, 'N', 12, 'int', conv, {});
  T = opt (T, 'Order', 4, 'order', conv, {});
  T = opt (T, 'BaseState', yb, '', [conv, {'transposed'}], {});
  T = opt (T, 'DT', zeros (1, 6), '', [conv, {'transposed'}], {});
  T = opt (T, 'Slabs', 2, 'int', conv, {});
  T = opt (T, 'BaseIterations', 1, 'int', conv, {});
  T = opt (T, 'Guess', 'auto', '', {}, {});
  T = opt (T, 'Tol', 1e-11, 'pos', conv, {});
  T = opt (T, 'MaxIter', 50, 'iter', conv, {});
  T = opt (T, 'Display', 'off', '', {}, {});
  T = option_names (T);
  F = [F, T];

  % --- varmech_plot (sol, sol2, options) ---
  % invisible, into the fixture's figure (each call clears it; run_call closes any other figure
  % a call opens); Png: '' writes nothing, a file name (the char 'abc') writes into the scratch
  % folder that run_call works in
  T = fun ('varmech_plot', {fx.SOL1, fx.SOL2}, {'Visible', 'off', 'Figure', fx.FIG});
  % the messages speak of "solution 1" and "solution 2" (as in the title)
  T = arg (T, 'sol', '', {}, {'solution 1'});
  T = arg (T, 'sol2', '', {}, {'solution 2'});
  % a string is one panel name; the column of names is the same list
  T = opt (T, 'Panels', {'q', 'lambda'}, '', {}, {}, {'panel'});
  T = opt (T, 'Labels', {'SKG', 'reference'}, '', {}, {});
  T = opt (T, 'Units', {'m', 'm'}, '', {}, {});
  % any string is a unit, a title or a file name
  T = opt (T, 'TimeUnit', 's', '', {'char'}, {});
  T = opt (T, 'EnergyUnit', 'J', '', {'char'}, {});
  T = opt (T, 'Title', 'pendulum', '', {'char'}, {});
  T = opt (T, 'Png', '', '', {'char'}, {});
  T = opt (T, 'Visible', 'off', '', {}, {});
  % a figure handle of another numeric class that converts to the same handle
  T = opt (T, 'Figure', [], '', conv, {});
  T = option_names (T);
  F = [F, T];
end

function T = fun (fn, args, opts)
  T = struct ('fn', fn, 'args', {args}, 'opts', {opts}, 'specs', spec_row ());
  T.specs(1) = [];
end

function s = spec_row ()
  s = struct ('name', '', 'pos', 0, 'value', [], 'kind', '', 'valid', {{}}, 'ctx', {{}}, ...
              'names', {{}}, 'alt', {{}}, 'extras', {{}});
end

% positional argument (the next one in order); names, alt: as for opt
function T = arg (T, name, kind, valid, names, alt)
  if (nargin < 5)
    names = {};
  end
  if (nargin < 6)
    alt = {};
  end
  s = spec_row ();
  s.name = name;
  s.pos = numel (T.specs) + 1;
  s.value = T.args{s.pos};
  s.kind = kind;
  s.valid = valid;
  s.names = [{name}, names];
  s.alt = alt;
  T.specs(end+1) = add_kind (s);
end

% option: value [] takes the baseline options' value (mechsys, odesys); names: alternative
% names that a message may use; alt: {label, {names}} further names for one replacement
function T = opt (T, name, value, kind, valid, ctx, names, alt)
  if (nargin < 7)
    names = {};
  end
  if (nargin < 8)
    alt = {};
  end
  s = spec_row ();
  s.name = name;
  s.pos = 0;
  if (isnumeric (value) && isempty (value))
    k = find (strcmp (T.opts(1:2:end), name), 1);
    value = T.opts{2*k};
  end
  s.value = value;
  s.kind = kind;
  s.valid = valid;
  s.ctx = ctx;
  s.names = [{name}, names];
  s.alt = alt;
  T.specs(end+1) = add_kind (s);
end

% the option names themselves: an unknown name, a name that is not a string, a missing value
function T = option_names (T)
  s = spec_row ();
  s.name = '(option name)';
  s.pos = -1;
  s.names = {'option', 'options', 'NoSuchOption'};
  s.extras = {'unknown name', {'NoSuchOption', 1}; 'numeric name', {1, 1}; ...
              'name without value', {'NoSuchOption'}};
  T.specs(end+1) = s;
end

function s = add_kind (s)
  b = s.value;
  switch (s.kind)
    case 'int'
      s.extras = {'non-integer', b + 0.5; 'negative', -b};
    case {'order', 'iter'}
      s.extras = {'non-integer', b + 0.5; 'negative', -b; 'baseline + 2^32', b + 2^32};
    case 'pos'
      s.extras = {'negative', -b};
    case 'sys'
      s.extras = {'odesys', odesys('states', {'y'}, 'rhs', {'-y'})};
    case 'ode'
      s.extras = {'mechsys', mechsys('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2')};
  end
end

% ---------------------------------------------------------------------------------------------
% The replacements of one argument: struct array (label, value, raw); raw: value is a list of
% arguments appended to the call (option names) instead of the argument's value.
function reps = replacements (sp)
  reps = struct ('label', {}, 'value', {}, 'raw', {});
  if (sp.pos >= 0)
    b = sp.value;
    if ((isnumeric (b) || islogical (b)) && ~isempty (b))
      num = double (full (real (b)));
    else
      num = 1;
    end
    k = numel (num);
    v = num(1);
    row = v + (0:k);
    % sparse: the baseline's numbers, and all zeros (no stored entry: a gateway that reads a
    % sparse array as full reads past its data, which ASan reports)
    c = {'double', num; 'sparse', sparse(num); 'sparse zeros', sparse(size (num, 1), size (num, 2)); ...
         'complex', complex(num, ones (size (num))); ...
         'single', single(num); 'int32', int32(num); 'logical', logical(num); ...
         'char', 'abc'; 'cell', {b}; 'struct', struct('a', 1); 'function handle', @sin; ...
         'empty', []; 'scalar', v; 'row', row; 'column', row'; ...
         'matrix', reshape(v + (0:2*(k+1)-1), 2, k+1)};
    if ((isnumeric (b) || islogical (b) || ischar (b)) && numel (b) > 1)
      c(end+1, :) = {'transposed', b.'};
    end
    if ((isnumeric (b) || islogical (b) || ischar (b)) && ~isempty (b))
      c(end+1, :) = {'3-D array', cat(3, b, b)};
    end
    if ((isnumeric (b) || islogical (b)) && ~isempty (b))
      bn = double (b);
      bn(1) = NaN;
      bi = double (b);
      bi(1) = Inf;
    else
      bn = NaN;
      bi = Inf;
    end
    c = [c; {'NaN', bn; 'Inf', bi}; sp.extras];
    for j = 1:size (c, 1)
      if (same_value (c{j, 2}, b))
        continue;
      end
      reps(end+1) = struct ('label', c{j, 1}, 'value', {c{j, 2}}, 'raw', false);
    end
  else
    for j = 1:size (sp.extras, 1)
      reps(end+1) = struct ('label', sp.extras{j, 1}, 'value', {sp.extras{j, 2}}, 'raw', true);
    end
  end
end

function t = same_value (a, b)
  t = strcmp (class (a), class (b)) && isequal (size (a), size (b)) && isequal (a, b) ...
      && (~isnumeric (a) || (issparse (a) == issparse (b) && isreal (a) == isreal (b)));
end

% the call with the argument replaced
function [args, opts] = build_call (F, sp, value, raw)
  args = F.args;
  opts = F.opts;
  if (sp.pos > 0)
    args{sp.pos} = value;
  elseif (sp.pos == 0)
    for j = 1:2:numel (sp.ctx)
      opts = set_opt (opts, sp.ctx{j}, sp.ctx{j+1});
    end
    opts = set_opt (opts, sp.name, value);
  elseif (raw)
    opts = [opts, value];
  end
end

function opts = set_opt (opts, name, value)
  k = find (strcmp (opts(1:2:end), name), 1);
  if (isempty (k))
    opts(end+1:end+2) = {name, value};
  else
    opts{2*k} = value;
  end
end

% run one call; ok: it returned
function [ok, msg] = run_call (fn, args, opts, trace, tag)
  if (trace)
    fprintf (2, 'bad-input case: %s\n', tag);
    if (exist ('OCTAVE_VERSION', 'builtin'))
      fflush (stderr);
    end
  end
  a = [args, opts];
  msg = '';
  plot = strcmp (fn, 'varmech_plot');
  if (plot)
    % in a scratch folder (a PNG file name is written there); figures opened by the call closed
    figs = findall (0, 'type', 'figure');
    here = pwd ();
    scratch = tempname ();
    mkdir (scratch);
    cd (scratch);
  end
  try
    out = evalc ('x = feval (fn, a{:});'); %#ok<NASGU>
    ok = true;
  catch err
    ok = false;
    msg = err.message;
  end
  if (plot)
    cd (here);
    rmdir (scratch, 's');
    close (setdiff (findall (0, 'type', 'figure'), figs));
  end
end

% whether msg names one of names: as a whole word, case-insensitive
function t = names_arg (msg, names)
  t = false;
  for k = 1:numel (names)
    pat = ['(^|[^A-Za-z0-9_])' regexptranslate('escape', names{k}) '($|[^A-Za-z0-9_])'];
    if (~isempty (regexpi (msg, pat, 'once')))
      t = true;
      return;
    end
  end
end

function n = alt_names (sp, label)
  n = {};
  for k = 1:2:numel (sp.alt)
    if (strcmp (sp.alt{k}, label))
      n = sp.alt{k+1};
    end
  end
end

function s = oneline (msg)
  s = regexprep (msg, '\s*\n\s*', ' ');
  if (numel (s) > 200)
    s = [s(1:197) '...'];
  end
end

function report (r)
  fprintf ('bad-input table: %d cases in %d functions (%d invalid: refused naming the argument; %d allowed: may be accepted); %d failed\n', ...
           r.ncases, numel (r.functions), r.ninvalid, r.nallowed, r.nfail);
  for f = 1:numel (r.functions)
    g = r.functions(f);
    fprintf ('  %-16s %5d cases (%4d invalid, %3d allowed)  %4d failed\n', g.name, g.ncases, ...
             g.ninvalid, g.nallowed, g.nfail);
  end
  if (r.nfail == 0)
    return;
  end
  fprintf ('bad-input failures (function | argument | replacement | what happened):\n');
  last = '';
  for k = 1:numel (r.failures)
    parts = strsplit (r.failures{k}, ' | ');
    if (~strcmp (parts{1}, last))
      fprintf ('  %s:\n', parts{1});
      last = parts{1};
    end
    fprintf ('    %s <- %s: %s\n', parts{2}, parts{3}, strjoin (parts(4:end), ' | '));
  end
end

%!shared failed, ncases
%! % the report (counts per function, failures grouped) is printed; each function is one test
%! r = test_bad_input ();
%! failed = r.failed;
%! ncases = r.ncases;
%!assert (ncases > 2000)
%!assert (failed.sbp_operator, 0)
%!assert (failed.sbp_apply, 0)
%!assert (failed.skg_action, 0)
%!assert (failed.skg_solve, 0)
%!assert (failed.gauss_integrate, 0)
%!assert (failed.mechsys, 0)
%!assert (failed.odesys, 0)
%!assert (failed.mechsys_eval, 0)
%!assert (failed.odesys_eval, 0)
%!assert (failed.dual_action, 0)
%!assert (failed.dual_solve, 0)
%!assert (failed.dual_lorenz, 0)
%!assert (failed.dual_pars, 0)
%!assert (failed.periodic_orbit, 0)
%!assert (failed.periodic_guesses, 0)
%!assert (failed.periodic_catalogue, 0)
%!assert (failed.periodic_continue, 0)
%!assert (failed.varmech_plot, 0)
%!test
%! % every public function of inst/ has its rows in the table (and its assert above)
%! d = dir (fullfile (fileparts (which ('skg_solve')), '*.m'));
%! pub = regexprep ({d.name}, '\.m$', '');
%! pub = pub(~strncmp (pub, 'vm_', 3));
%! missing = setdiff (pub, fieldnames (failed));
%! assert (missing, cell (1, 0));
