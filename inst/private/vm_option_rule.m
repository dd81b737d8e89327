% -*- texinfo -*-
% @deftypefn {} {@var{rule} =} vm_option_rule (@var{fname}, @var{name})
% The rule (@code{vm_check_value}) of option @var{name} of the public function @var{fname}: the
% one table of the options of varmech.  A row @samp{fname.Name} applies to that function only
% and comes before a row @samp{Name} shared by every function with an option of that name.
% Options whose check depends on other arguments (sizes of the system, the grid) have the rule
% @code{@{'any'@}} here and are checked by their function.  The ceilings of N and of the
% number of windows are those of the gateways, asked from them (@code{vm_sbp_mex ('orders')}).
% @end deftypefn

function rule = vm_option_rule (fname, name)
  persistent table
  if (isempty (table))
    table = make_table ();
  end
  hit = find (strcmp ([fname '.' name], table(:, 1)), 1);
  if (isempty (hit))
    hit = find (strcmp (name, table(:, 1)), 1);
  end
  if (isempty (hit))
    rule = {'any'};
  else
    rule = table{hit, 2};
  end
end

function t = make_table ()
  [~, ~, lim] = vm_sbp_mex ('orders');   % [largest N, most windows] the gateways accept
  nmax = lim(1);
  wmax = lim(2);
  pos = {'real', 0, Inf, '()'};
  t = {
    % solvers: grid and Newton
    'skg_solve.N',       {'?int', 2, 2^53}   % large N: refused by the memory estimate, with figures
    'N',                 {'?int', 2, nmax}
    'Order',             {'order'}
    'Windows',           {'?int', 1, wmax}
    'Slabs',             {'?int', 1, wmax}
    'MaxWindows',        {'int', 1, 2^31 - 1}
    'BaseIterations',    {'int', 0, 1e6}
    'Tol',               pos
    'MaxIter',           {'?int', 0, 1e6}
    'Display',           {'choice', {'off', 'final', 'iter'}}
    'Mode',              {'choice', {'full', 'reduced'}}
    'FinalDual',         {'choice', {'weak', 'strong'}}
    'LinearSolver',      {'choice', {'auto', 'umfpack', 'banded'}}   % the gateways' codes 0, 1, 2
    'ReuseFactorization', {'?int', 0, 1e6}
    % error control
    'skg_solve.RelTol',  {'?real', 1e-14, 1, '[)'}
    'RelTol',            {'?real', 0, Inf, '[)'}
    'AbsTol',            {'?real', 0, Inf, '()'}
    'InitialWindow',     {'?real', 0, Inf, '()'}
    'MaxWindow',         {'?real', 0, Inf, '()'}
    'OutputTimes',       {'?vector', []}
    'ConstraintTol',     pos
    'PeriodTol',         {'real', 1e-15, 1, '[]'}
    'FlowTol',           {'real', 1e-14, 1e-3, '[]'}
    'Level',             {'real', -Inf, Inf, '()'}
    'periodic_guesses.RelTol', {'real', 1e-14, 1e-3, '[]'}
    'Transient',         {'?real', 0, Inf, '[)'}
    'MaxLoops',          {'int', 1, 1000}
    'ReturnTol',         pos
    'MaxCandidates',     {'int', 1, 1e6}
    'Points',            {'int', 4, 1e7}
    % the closed-form dual systems
    'dual_lorenz.A',     {'real', -Inf, Inf, '()'}
    'dual_lorenz.R',     {'real', -Inf, Inf, '()'}
    'dual_lorenz.B',     {'real', -Inf, Inf, '()'}
    'dual_lorenz.c',     pos
    'dual_pars.Reduced', {'logical'}
    % model evaluation and compilation
    'layout',            {'choice', {'full', 'compact'}}
    'odesys.square',     {'logical'}
    % plotting
    'varmech_plot.Visible', {'choice', {'on', 'off'}}
  };
end
