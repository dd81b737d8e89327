% -*- texinfo -*-
% @deftypefn {} {[@var{sol}, @var{setup}] =} vm_dual_driver (@var{fname}, @var{kernel}, @var{kpar}, @var{ode}, @var{dims}, @var{tspan}, @var{y0}, @var{opts})
% Shared driver of @code{dual_solve}, @code{dual_lorenz} and @code{dual_pars}: checks the common
% options, solves consecutive time slabs (each starting from the previous slab's recovered end
% state), optionally iterates the base state, and assembles the solution struct.  The fixed-grid
% slab loop runs in C (csrc/dual/dual_slabs.h, through @code{vm_dual_mex ('slabs', ...)}).
% @var{dims} = [ny nd ng]; @var{opts} has the fields N, Order, c, BaseState, DT, Tol, MaxIter,
% Display, Slabs, BaseIterations, Guess and LinearSolver, and optionally RelTol, AbsTol,
% OutputTimes and FinalDual (absent: the strong final dual, fixed grid: @code{dual_lorenz},
% @code{dual_pars}).
% Adaptive mode (@code{dual_solve} without Slabs, and without N unless RelTol or AbsTol is given)
% and Guess 'marching' go through the marching driver (csrc/march/march.h, csrc/dual/dual_march.h).
% @var{setup}: the setup struct given to @code{vm_dual_mex ('march', ...)} when the marching
% driver solved, else [] (@code{dual_solve} keeps it for its calls without options).
% @end deftypefn

function [sol, setup] = vm_dual_driver (fname, kernel, kpar, ode, dims, tspan, y0, opts)
  setup = [];   % the march's setup struct, when the march solved (the second output)
  ny = dims(1);
  nd = dims(2);
  ng = dims(3);
  m = nd + ng;
  % the mode: adaptive unless a grid is given by hand (Slabs, or N without a tolerance)
  % (dual_solve has RelTol and AbsTol; the closed forms have neither: fixed grid)
  adaptive = false;
  if (isfield (opts, 'RelTol'))
    has_tol = ~isempty (opts.RelTol) || (isfield (opts, 'AbsTol') && ~isempty (opts.AbsTol));
    adaptive = isempty (opts.Slabs) && (isempty (opts.N) || has_tol);
  end
  if (isempty (opts.Slabs))
    opts.Slabs = 1;
  end
  if (isempty (opts.N))
    if (adaptive)
      opts.N = 33;
    else
      opts.N = 65;
    end
  end
  % the options' classes and ranges were checked by vm_options (vm_option_rule); here what
  % depends on the system's sizes and the grid
  weak = isfield (opts, 'FinalDual') && strcmpi (opts.FinalDual, 'weak');
  guess = opts.Guess;
  marching = false;
  if (ischar (guess))
    % a 1-by-n char row only (a char N-D array would fail in strcmpi without naming Guess)
    if (~vm_isrow_string (guess) || ~any (strcmpi (guess, {'marching', 'auto'})))
      vm_badarg (fname, 'Guess must be ''marching'', ''auto'' or a matrix of initial duals; got %s', ...
                 vm_describe (guess));
    end
    marching = strcmpi (guess, 'marching') || adaptive;
    guess = [];
  elseif (adaptive && ~isempty (guess))
    vm_badarg (fname, 'Guess must be ''marching'' or ''auto'' in the adaptive mode (a matrix of initial duals needs a fixed grid: give Slabs)');
  end
  if (~adaptive && ~marching && isempty (ode) && opts.Slabs == 1 && numel (tspan) == 2 ...
      && ~isa (opts.BaseState, 'function_handle'))
    % the common case, one slab of a closed form: the arguments go to the gateway as they are, and
    % it checks them (and N, the slab's length and the memory, csrc's facts); when it refuses
    % one, the checks below phrase the refusal (or convert the argument and go on)
    [sol, ok] = one_slab (problem (fname, kernel, kpar, ode, dims), tspan, y0, opts, guess, weak);
    if (ok)
      return;
    end
  end
  % tspan and y0: finite real double vectors of the right sizes are taken as they are (the common
  % case, with builtins only); anything else goes through vm_check_value, which converts or refuses
  if (isa (tspan, 'double') && isreal (tspan) && ~issparse (tspan) && numel (tspan) == 2 ...
      && isvector (tspan) && tspan(2) > tspan(1) && all (isfinite (tspan)))
    tspan = [tspan(1) tspan(2)];
  else
    tspan = vm_check_value (fname, 'tspan', tspan, {'interval'});
  end
  if (isa (y0, 'double') && isreal (y0) && ~issparse (y0) && numel (y0) == nd && isvector (y0) ...
      && all (isfinite (y0)))
    y0 = y0(:)';
  elseif (~isempty (ode) && ny > nd && isnumeric (y0) && isvector (y0) && numel (y0) == ny)
    % the whole state given for a system with algebraic states (the common slip with a DAE)
    vm_badarg (fname, ['y0 must hold the %d differential states (%s) only; got %d entries: the ' ...
               'algebraic states (%s) are not given, they are computed from G(t0, y0, ya) = 0'], ...
               nd, strjoin (ode.states(1:nd), ', '), ny, strjoin (ode.states(nd+1:ny), ', '));
  else
    y0 = vm_check_value (fname, 'y0', y0, {'vector', nd})';
  end
  % the right-hand side at the initial state (check_rhs, a system without algebraic states) is
  % checked by the march's gateway on the model it loads (setup.check_rhs), or just before the
  % slabs' gateway; any refusal on the way runs check_rhs first, so that a right-hand side that
  % is not finite at the start is always what is reported, as when it was checked here first
  defer_rhs = ~isempty (ode) && ode.na == 0;
  if (~isempty (ode))   % a compiled system (the closed forms need no check here)
    check_algebraic (fname, ode, tspan(1), y0);
  end
  try
    opts.Guess = guess;   % [] or the matrix of initial duals
    [sol, setup] = checked_solve (problem (fname, kernel, kpar, ode, dims), tspan, y0, opts, ...
                                  [adaptive, marching, weak, defer_rhs]);
  catch err
    if (defer_rhs)
      check_rhs (fname, ode, tspan(1), y0);
    end
    rethrow (err);
  end
end

function [sol, setup] = checked_solve (pb, tspan, y0, opts, flags)
  [fname, kernel, kpar, ode, dims] = unpack (pb);
  % the checks that depend on the grid and the options, then the march or the slabs; opts.Guess
  % is [] or the matrix of initial duals, flags = [adaptive marching weak defer_rhs]; setup: the
  % march's setup struct, [] after the slabs
  setup = [];
  adaptive = flags(1);
  marching = flags(2);
  weak = flags(3);
  defer_rhs = flags(4);
  guess = opts.Guess;
  ny = dims(1);
  nd = dims(2);
  ng = dims(3);
  m = nd + ng;
  N = opts.N;
  % ErrorEstimate 'on' (dual_solve) on a fixed grid: the marching driver on Slabs fixed windows,
  % each also at the companion order (csrc/march/march.h, estimate), as skg_solve's fixed grids
  estimate = ~adaptive && isfield (opts, 'ErrorEstimate') && strcmp (opts.ErrorEstimate, 'on');
  minN = min_n (opts.Order, estimate);   % the fact lives in csrc/march/march.c
  if (N < minN && estimate)
    vm_badarg (fname, 'N must be an integer >= %d for order %d with an error estimate (the companion order of the estimate needs it)', ...
               minN, opts.Order);
  elseif (N < minN)
    vm_badarg (fname, 'N must be an integer >= %d for order %d', minN, opts.Order);
  end
  if (estimate && (~isempty (guess) || ~isempty (opts.BaseState) || ~weak))
    vm_badarg (fname, ['ErrorEstimate ''on'' solves the fixed grid with the marching driver ' ...
                       '(predicted base states, the weak final dual): it excludes BaseState, a ' ...
                       'Guess matrix and FinalDual ''strong''']);
  end
  marching = marching || estimate;
  S = opts.Slabs;
  c = opts.c;
  % c = [] (dual_solve's default): automatic weights in the march of a square system (csrc/
  % dual_march.h, vm_dual_march_set_auto_weights: c_i = 10 / X_i^2 per window), 10 elsewhere
  auto_c = isempty (c) && isnumeric (c) && ~isempty (ode) && ng == ny - nd;
  if (isempty (c) && isnumeric (c))
    c = 10;
  end
  if (isnumeric (c) && isreal (c) && ~issparse (c) && ~isa (c, 'double'))   % vm_double, inline
    c = double (c);
  end
  if (~isnumeric (c) || ~isreal (c) || issparse (c) || ~(isscalar (c) || numel (c) == ny) ...
      || ~all (isfinite (c(:))) || ~all (c(:) > 0))
    vm_badarg (fname, 'c must be a positive scalar or a vector with %d positive entries; got %s', ...
               ny, vm_describe (c));
  end
  c = c(:)' .* ones (1, ny);
  nb = opts.BaseIterations;
  DT = opts.DT;
  if (isempty (DT))
    DT = zeros (1, nd);
  else
    DT = vm_check_value (fname, 'DT', DT, {'vector', nd})';
  end
  % the grid: S slabs of N points sharing their end points
  Ntot = S * (N - 1) + 1;
  lcode = vm_linsolve_code (opts);
  check_memory (fname, nd, ng, N, Ntot, ny, opts, lcode);
  if (~adaptive)
    % each slab's node spacing must stay above the rounding of t and its 1/h finite (the fact
    % lives in csrc/march/march.c, vm_march_hmin)
    L = (tspan(2) - tspan(1)) / S;
    hmin = vm_dual_mex ('hmin', tspan(1), tspan(2) - tspan(1), N);
    if (~(L >= hmin))
      vm_badarg (fname, ['tspan [%.9g, %.9g] is too short for the grid: its %d slab(s) of N = %d ' ...
                         'nodes are %.3g long, below the shortest that %d nodes resolve, %.3g ' ...
                         '(rounding of t, or 1/h overflows); use a longer interval, fewer slabs ' ...
                         'or fewer nodes'], tspan(1), tspan(2), S, N, L, N, hmin);
    end
  end
  t = linspace (tspan(1), tspan(2), Ntot)';
  % base state on the grid
  yb = opts.BaseState;
  const_base = true;
  if (isempty (yb))
    ybar = zeros (Ntot, ny);
  elseif (isa (yb, 'function_handle'))
    ybar = zeros (Ntot, ny);
    for k = 1:Ntot
      v = yb (t(k));
      if (~isnumeric (v) || numel (v) ~= ny || ~all (isfinite (v(:))))
        vm_badarg (fname, 'BaseState(t) must return a finite vector with %d entries (at t = %g it did not)', ny, t(k));
      end
      ybar(k, :) = v(:)';
    end
    const_base = false;
  elseif (isnumeric (yb) && isreal (yb) && ~issparse (yb) && numel (yb) == ny && all (isfinite (yb(:))))
    ybar = repmat (yb(:)', Ntot, 1);
  elseif (isnumeric (yb) && isreal (yb) && ~issparse (yb) && size (yb, 1) == Ntot && size (yb, 2) == ny ...
         && ndims (yb) == 2 && all (isfinite (yb(:))))
    ybar = double (yb);
    const_base = false;
  else
    vm_badarg (fname, ['BaseState must be empty (zero), a vector with %d entries (constant), ' ...
                       'a %d-by-%d matrix on the grid, or a function handle of t; got %s'], ny, Ntot, ny, ...
               vm_describe (yb));
  end
  if (marching || adaptive)
    [sol, setup] = march_path (problem (fname, kernel, kpar, ode, [ny nd ng]), tspan, y0, opts, ...
                               c, [auto_c, adaptive, weak, estimate, defer_rhs], yb);
    return;
  end
  if (~isempty (guess) && (~isnumeric (guess) || ~isreal (guess) || issparse (guess) || ~isequal (size (guess), [Ntot m]) ...
                           || ~all (isfinite (guess(:)))))
    vm_badarg (fname, 'Guess (initial duals) must be a real finite %d-by-%d matrix (one row per grid point); got %s', ...
               Ntot, m, vm_describe (guess));
  end
  % every slab and base-state pass in one C call (csrc/dual/dual_slabs.h): one discretization (the
  % Hessian pattern and the linear solver's analysis built once), the model compiled once; each
  % slab starts from the previous slab's recovered end state, keeps its own base state on its N
  % points (a node shared by two slabs has two values), and the base-state iteration replaces it
  % by the slab's recovered primal
  tb = t(1:(N - 1):end);
  tb(end) = tspan(2);
  disp_code = find (strcmpi (opts.Display, {'off', 'final', 'iter'})) - 1;
  sset = struct ('tb', tb(:)', 'N', N, 'order', opts.Order, 'c', c, 'ybar', ybar, ...
                 'y0', y0(:)', 'DT', DT(:)', 'guess', guess, 'tol', opts.Tol, ...
                 'max_iter', opts.MaxIter, 'kernel', kernel, 'kpar', kpar, ...
                 'weak', double (weak), 'linsolve', lcode, ...
                 'base_iterations', nb, 'display', disp_code, 'name', fname, 'sol', 1, ...
                 'hamiltonian', double (const_base && nb == 0));
  if (defer_rhs)
    check_rhs (fname, ode, tspan(1), y0);
  end
  try
    % every field but the grid t (mex/vm_dual_sol_mx.h), in its order; the Hamiltonian only for
    % a constant base state without base passes
    [sol, failed] = vm_dual_mex ('slabs', ode, sset);
  catch err
    vm_rethrow (err, fname);
  end
  if (failed > 0)
    % a slab left no recovered primal (the DtP map fails at Newton's best iterate)
    error (['varmech:' fname ':dtp'], '%s: %s', fname, sol.message);
  end
  sol.t = t;
  if (~strcmpi (opts.Display, 'off'))
    print_final (fname, sol);
  end
end

function print_final (fname, sol)
  % the last line of Display 'final' and 'iter'
  Rin = sol.residual(1:end-1, :);
  fprintf (['%s: %s; max |discrete primal equations| %.3e; at the slabs'' last nodes ' ...
            '(not equations of the action) max |Dm y - F| %.3e\n'], fname, sol.message, ...
           max ([0; abs(Rin(:))]), max ([0; abs(sol.slab_end_residual(:))]));
end

function [sol, ok] = one_slab (pb, tspan, y0, opts, guess, weak)
  [fname, kernel, kpar, ~, dims] = unpack (pb);
  % one slab of a closed form with the arguments as given: ok is false (sol empty) when the
  % gateway refuses any of them (vm_dual_driver's checks then phrase the refusal); the solution
  % of the same call through those checks otherwise, bit for bit (test_dual_slabs)
  persistent max_bytes   % above it the gateway refuses, and the checks ask the system
  if (isempty (max_bytes))
    max_bytes = vm_check_memory ();
  end
  ny = dims(1);
  % (the user's values in braces: a cell value is a field, not a struct array)
  setup = struct ('tb', {tspan}, 'N', opts.N, 'order', opts.Order, 'c', {opts.c}, ...
                  'ybar', {opts.BaseState}, 'y0', {y0}, 'DT', {opts.DT}, 'guess', {guess}, ...
                  'tol', opts.Tol, 'max_iter', opts.MaxIter, 'kernel', kernel, 'kpar', kpar, ...
                  'weak', double (weak), 'linsolve', vm_linsolve_code (opts), ...
                  'base_iterations', opts.BaseIterations, ...
                  'display', find (strcmpi (opts.Display, {'off', 'final', 'iter'})) - 1, ...
                  'name', fname, 'max_bytes', max_bytes, 'sol', 1, ...
                  'hamiltonian', double (opts.BaseIterations == 0 && numel (opts.BaseState) <= ny));
  try
    [sol, failed] = vm_dual_mex ('slabs', [], setup);
  catch
    sol = [];
    ok = false;
    return;
  end
  if (failed > 0)
    error (['varmech:' fname ':dtp'], '%s: %s', fname, sol.message);
  end
  sol.t = linspace (tspan(1), tspan(2), opts.N)';
  if (~strcmpi (opts.Display, 'off'))
    print_final (fname, sol);
  end
  ok = true;
end

function [sol, setup] = march_path (pb, tspan, y0, opts, c, flags, yb)
  [fname, kernel, kpar, ode, dims] = unpack (pb);
  % the marching driver: adaptive windows, or Slabs fixed windows with predicted base states (and,
  % with estimate, each also at the companion order); flags: [auto_c adaptive weak estimate
  % check_rhs] (check_rhs: the gateway checks the right-hand side at the initial state)
  auto_c = flags(1);
  adaptive = flags(2);
  weak = flags(3);
  estimate = flags(4);
  ny = dims(1);
  nd = dims(2);
  if (~weak)
    vm_badarg (fname, 'the marching driver needs FinalDual ''weak'' (the strong final dual leaves the last node without a primal equation)');
  end
  if (opts.BaseIterations ~= 0 && adaptive)
    vm_badarg (fname, 'BaseIterations needs a fixed grid (Slabs)');
  end
  if (~isempty (opts.DT) && any (opts.DT(:) ~= 0))
    vm_badarg (fname, 'DT must be 0 with the marching driver (the final dual is weak: DT does not enter the primal equations)');
  end
  % RelTol, AbsTol: [] takes the march's defaults (csrc/base/vm_schema.c)
  rt = [];
  at = [];
  if (isfield (opts, 'RelTol'))
    rt = opts.RelTol;
  end
  if (isfield (opts, 'AbsTol'))
    at = opts.AbsTol;
  end
  minN = min_n (opts.Order, adaptive);
  if (adaptive && opts.N < minN)
    vm_badarg (fname, 'N must be at least %d for order %d and the companion order of the error estimate', ...
               minN, opts.Order);
  end
  tout = [];
  if (isfield (opts, 'OutputTimes'))
    tout = opts.OutputTimes;
  end
  if (any (tout < tspan(1)) || any (tout > tspan(2)))
    vm_badarg (fname, 'OutputTimes must be real times within tspan [%.15g, %.15g]', tspan(1), tspan(2));
  end
  windows = 0;
  base = [];
  if (adaptive && ~isempty (yb))
    vm_badarg (fname, 'BaseState needs a fixed grid (give Slabs, or N without RelTol/AbsTol)');
  end
  if (~adaptive)
    windows = opts.Slabs;
    if (~isempty (yb))
      vm_badarg (fname, 'BaseState and Guess ''marching'' exclude each other (the marching guess is a base state)');
    end
  end
  % the memory of this grid (max (windows, 1) * (N - 1) + 1 points) was checked by the caller
  setup = struct ('t0', tspan(1), 'tf', tspan(2), 'N', opts.N, 'order', opts.Order, 'c', c, ...
                  'auto_c', double (auto_c), ...
                  'y0', y0(:)', 'kernel', kernel, 'kpar', kpar, 'windows', windows, ...
                  'RelTol', rt, 'AbsTol', at, 'tol', 1e-3, 'MaxIter', opts.MaxIter, ...
                  'BaseIterations', opts.BaseIterations, 'Display', opts.Display, 'guess', base, ...
                  'output_times', tout(:), 'LinearSolver', opts.LinearSolver, ...
                  'estimate', double (estimate), 'check_rhs', double (flags(5)));
  try
    sol = vm_dual_mex ('march', ode, setup);   % every field (mex/vm_dual_sol_mx.h), in its order
  catch err
    vm_rethrow (err, fname);
  end
  if (adaptive && sol.exitflag == 0)
    sol = stalled (fname, ode, setup, sol, isfield (opts, 'OrderGiven') && ~opts.OrderGiven);
  end
end

function sol = stalled (fname, ode, setup, sol, retry)
  % a stalled adaptive march (window length below its floor, or more windows than MaxWindows
  % allows: vm_march_stall) at the default order is solved again at the next higher order, whose
  % windows are longer at the same tolerance: its solution when it converges, with a message that
  % names the remedy, else its failure with a message that names both orders; when the caller set
  % the order (retry false) the higher order is named as advice only.  setup (the default
  % order's, which dual_solve may keep for its calls without options) is not changed.
  [where, next] = vm_march_stall (sol.message, setup.order);
  if (isempty (where) || isempty (next) || setup.N < min_n (next, 1))
    return;
  end
  if (~retry)
    sol.message = vm_march_retry_message ('advice', sol.message, setup.order, next, where);
    return;
  end
  hi_setup = setup;
  hi_setup.order = next;
  try
    hi = vm_dual_mex ('march', ode, hi_setup);
  catch err
    vm_rethrow (err, fname);
  end
  if (hi.exitflag == 1)
    hi.message = vm_march_retry_message ('solved', hi.message, setup.order, next, where);
  else
    hi.message = vm_march_retry_message ('failed', hi.message, setup.order, next, where);
  end
  sol = hi;
end

function minN = min_n (order, estimate)
  % vm_dual_mex ('min_n', order, estimate), asked once per order and kept (a fact of the library)
  persistent known
  if (isempty (known))
    known = NaN (2, 64);
  end
  minN = known(estimate + 1, order);
  if (isnan (minN))
    minN = vm_dual_mex ('min_n', order, double (estimate));
    known(estimate + 1, order) = minN;
  end
end

function check_rhs (fname, ode, t0, y0)
  % the initial data: without algebraic states y0 is the whole state, and the right-hand side must
  % be real and finite there (as gauss_integrate and skg_solve check theirs); an error names the
  % equation, its value and what to change
  if (isempty (ode) || ode.na > 0)
    return;
  end
  out = odesys_eval (ode, t0, y0(:)');
  F = out.F;
  bad = find (~isfinite (F) | imag (F) ~= 0, 1);
  if (~isempty (bad))
    error (['varmech:' fname ':initial_state'], ['%s: the right-hand side %d (%s) is %s at the ' ...
           'initial state (t0 = %g, y0 = %s): start where it is real and finite'], fname, bad, ...
           ode.rhs{bad}, num2str (F(bad)), t0, mat2str (y0(:)', 6));
  end
end

function check_algebraic (fname, ode, t0, y0)
  % a square system's algebraic equations must determine its algebraic states at t0, so that a
  % failure is an error that says why, before any window.  First what the formulas show: an
  % equation that contains none of the states is a constant (it cannot determine anything); one
  % that contains no algebraic state, or an algebraic state that appears in no equation, leaves
  % dG/dya singular (index above 1: no window could converge).  Then Newton on G(t0, y0, ya) = 0
  % from ya = 0, as the march's prediction does in C (vm_dual_ode_algebraic, which then starts the
  % base state there), and from a few other starts when that fails (a singular dG/dya at ya = 0
  % may be a coincidence, as for a^2 - 1); when none converges the equations have no real
  % solution there (e.g. a^2 + 1 = 0).  Nonsquare systems (odesys 'square', false) are not
  % checked: their algebraic states are not determined (the paper's non-uniqueness).
  if (isempty (ode) || ode.na == 0 || ~ode.square)
    return;
  end
  nd = ode.nd;
  na = ode.na;
  alg_names = ode.states(nd+1:end);
  ystr = mat2str (y0(:)', 6);
  index_hint = ['the system has index above 1; differentiate the algebraic equations in t (as ' ...
                'often as needed) so that they contain the algebraic states (doc/tutorial.md, ' ...
                'section 4)'];
  used = false (1, na);
  for i = 1:na
    ids = regexp (ode.algebraic{i}, '[A-Za-z_]\w*', 'match');
    in_alg = ismember (alg_names, ids);
    used = used | in_alg;
    if (~any (ismember (ode.states, ids)))
      out = odesys_eval (ode, t0, [y0(:)' zeros(1, na)]);
      error (['varmech:' fname ':initial_state'], ['%s: the algebraic equation %d (%s) is a ' ...
             'constant (%g; it contains none of the states), so it cannot determine the algebraic ' ...
             'states %s: remove it from the algebraic equations or write it in the algebraic ' ...
             'states'], fname, i, ode.algebraic{i}, out.G(i), strjoin (alg_names, ', '));
    elseif (~any (in_alg))
      error (['varmech:' fname ':index'], ['%s: the algebraic equations do not determine the ' ...
             'algebraic states at t0 = %g (dG/dya is singular at y0 = %s: the algebraic equation ' ...
             '%d (%s) does not involve the algebraic states %s): %s'], fname, t0, ystr, i, ...
             ode.algebraic{i}, strjoin (alg_names, ', '), index_hint);
    end
  end
  if (~all (used))
    j = find (~used, 1);
    error (['varmech:' fname ':index'], ['%s: the algebraic equations do not determine the ' ...
           'algebraic states at t0 = %g (dG/dya is singular at y0 = %s: the algebraic state %s ' ...
           'appears in no algebraic equation): %s'], fname, t0, ystr, alg_names{j}, index_hint);
  end
  starts = [0 1 -1 0.5 -2 3];
  best_G = Inf;
  best_ya = zeros (1, na);
  singular = true;   % dG/dya singular at every start
  for st = starts
    ya = st * ones (1, na);
    for it = 1:50
      out = odesys_eval (ode, t0, [y0(:)' ya]);
      G = out.G(:);
      J = reshape (out.G_y(1, :, nd+1:end), na, na);
      if (~all (isfinite ([G; J(:)])))
        break;
      end
      if (max (abs (G)) < best_G)
        best_G = max (abs (G));
        best_ya = ya;
      end
      if (all (G == 0))
        return;
      end
      if (rcond (J) < 1e3 * eps)
        break;   % singular: no step from here
      end
      if (it == 1)
        singular = false;
      end
      dya = -(J \ G)';
      ya = ya + dya;
      if (max (abs (dya)) <= 1e-13 * (1 + max (abs (ya))))
        return;
      end
    end
  end
  if (singular)
    error (['varmech:' fname ':index'], ['%s: the algebraic equations do not determine the ' ...
           'algebraic states at t0 = %g (dG/dya is singular at y0 = %s for every ya tried): %s'], ...
           fname, t0, ystr, index_hint);
  end
  error (['varmech:' fname ':initial_state'], ['%s: found no algebraic states with G(t0, y0, ya) = 0 ' ...
         'at t0 = %g: the algebraic equations have no real solution there (Newton from ya = 0 ' ...
         'and from %d other starts did not converge; the smallest |G| was %.3g, at ya = %s): ' ...
         'start where they have one'], fname, t0, numel (starts) - 1, best_G, mat2str (best_ya, 6));
end

function check_memory (fname, nd, ng, N, Ntot, ny, opts, lcode)
  % refuse before allocating: one window (csrc's estimate, for the order and the linear solver) and
  % the arrays on the whole grid (csrc/dual/dual_slabs.h, vm_dual_slabs_memory_estimate)
  need = vm_dual_mex ('memory', nd, ng, N, opts.Order, lcode, ny, Ntot);
  vm_check_memory (fname, need, 'slab', N, Ntot, ['use fewer nodes per slab (N), fewer slabs, ' ...
                   'or the error-controlled default (RelTol)']);
end

function pb = problem (fname, kernel, kpar, ode, dims)
  % what the driver's steps share about the problem: the caller's name, the kernel ('general' or
  % a closed form) with its parameters, the compiled system ([] for a closed form) and the sizes
  % [ny nd ng]; one argument instead of five
  pb.fname = fname;
  pb.kernel = kernel;
  pb.kpar = kpar;
  pb.ode = ode;
  pb.dims = dims;
end

function [fname, kernel, kpar, ode, dims] = unpack (pb)
  fname = pb.fname;
  kernel = pb.kernel;
  kpar = pb.kpar;
  ode = pb.ode;
  dims = pb.dims;
end
