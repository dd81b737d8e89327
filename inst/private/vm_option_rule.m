% -*- texinfo -*-
% @deftypefn {} {[@var{rules}, @var{fast}] =} vm_option_rule (@var{fname})
% The rules (@code{vm_check_value}) of the options of the public function @var{fname}: a struct
% with one field per option name of the one table of the options of varmech.  A row
% @samp{fname.Name} applies to that function only and comes before a row @samp{Name} shared by
% every function with an option of that name.  A name with no row has no field: its option is
% checked by its function (options whose check depends on other arguments, sizes of the system
% or of the grid).  The ceilings of N and of the number of windows are those of the gateways,
% asked from them (@code{vm_sbp_mex ('orders')}).  The struct of each function is made at its
% first call and kept (an option check costs a field lookup, not a search of the table).
% @var{fast} holds the 'int', 'real' and 'order' rules (with or without '?') as numeric rows
% [kind lo hi lc hc ...]: kind 1 for 'int', 2 for 'real', 3 for 'order' (lo, hi the smallest
% and largest order, followed by the list of orders); lc, hc 1 where lo, hi are included.  With
% @var{defaults} (the struct of the options of @var{fname} and their defaults, as
% @code{vm_options} has it), @var{fast} holds the rows of the options of @var{defaults} only, and
% the row [0 0 0 0 0] (kind 0: any value) for each of them with no rule, whose value @var{fname}
% checks itself; the rows are made at the first call for @var{fname} (its options are always the
% same).
% @end deftypefn

function [rules, fast] = vm_option_rule (fname, defaults)
  persistent byfn fastfn
  if (isempty (byfn))
    byfn = struct ();
    fastfn = struct ();
  end
  if (~isfield (byfn, fname))
    byfn.(fname) = rules_of (make_table (), fname);
    fastfn.(fname) = fast_of (byfn.(fname));
    if (nargin > 1)
      % the rows of fname's own options only (vm_options_mex converts the whole struct)
      names = fieldnames (defaults);
      all_fast = fastfn.(fname);
      own = struct ();
      for k = 1:numel (names)
        if (isfield (all_fast, names{k}))
          own.(names{k}) = all_fast.(names{k});
        elseif (~isfield (byfn.(fname), names{k}))
          own.(names{k}) = [0 0 0 0 0];   % no rule: checked by fname
        end
      end
      fastfn.(fname) = own;
    end
  end
  rules = byfn.(fname);
  fast = fastfn.(fname);
end

function fast = fast_of (rules)
  % the 'int' and 'real' rules as rows [kind lo hi lc hc] (kind 1 int, 2 real; lc, hc: the bounds
  % are included), for vm_options' accepting test of a double scalar without a function call
  fast = struct ();
  keys = fieldnames (rules);
  for k = 1:numel (keys)
    r = rules.(keys{k});
    kind = r{1};
    if (kind(1) == '?')
      kind = kind(2:end);
    end
    if (strcmp (kind, 'int'))
      fast.(keys{k}) = [1 r{2} r{3} isfinite(r{2}) isfinite(r{3})];
    elseif (strcmp (kind, 'real'))
      % a closed infinite bound admits nothing more than an open one (the values are finite)
      fast.(keys{k}) = [2 r{2} r{3} (r{4}(1) == '[' && isfinite (r{2})) ...
                        (r{4}(2) == ']' && isfinite (r{3}))];
    elseif (strcmp (kind, 'order'))
      orders = vm_sbp_mex ('orders');
      fast.(keys{k}) = [3 min(orders) max(orders) 1 1 orders(:)'];
    end
  end
end

function rules = rules_of (t, fname)
  % the shared rows first, then the rows of fname (which replace them)
  rules = struct ();
  pre = [fname '.'];
  for k = 1:size (t, 1)
    if (~any (t{k, 1} == '.'))
      rules.(t{k, 1}) = t{k, 2};
    end
  end
  for k = 1:size (t, 1)
    if (strncmp (t{k, 1}, pre, numel (pre)))
      rules.(t{k, 1}(numel (pre) + 1:end)) = t{k, 2};
    end
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
    'ErrorEstimate',     {'choice', {'off', 'on'}}
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
