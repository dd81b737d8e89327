% -*- texinfo -*-
% @deftypefn  {} {h =} varmech_plot (sol)
% @deftypefnx {} {h =} varmech_plot (sol, sol2)
% @deftypefnx {} {h =} varmech_plot (..., name, value, ...)
% Plot a solution of @code{skg_solve}, @code{gauss_integrate}, @code{dual_solve} or
% @code{periodic_orbit} as panels over time, or two solutions together for comparison.
%
% A mechanical solution (@code{skg_solve}, @code{gauss_integrate}, or any struct with fields
% @code{t} and @code{q}) is drawn the way Fig. 2 of the rolling-disk paper is: one panel below
% the other, all over the time t,
% @table @code
% @item "q"
% the coordinates (one line each; @code{sol.q});
% @item "qdot"
% the velocities (@code{sol.qdot});
% @item "lambda"
% the constraint multipliers (@code{sol.lambda}), in the convention of every varmech solver
% (eq. 3 of the rolling-disk paper):
% @code{M qddot = dL/dq + F + sum_a lambda_a dg_a/dqdot} (@code{+ lambda_a dg_a/dq} for a
% position constraint g(t, q)); their unit is that of a generalized force divided by that of
% dg_a/dqdot (dg_a/dq);
% @item "residual"
% the absolute constraint residuals as log10 |g_a| (exact zeros are not drawn): at position level for a
% holonomic constraint (@code{sol.residual_position}), at velocity level for the others
% (@code{sol.residual});
% @item "energy"
% the change of the total energy from its value at the first time, @code{E = qdot . dL/dqdot - L}
% plus the potentials of the soft contacts (@code{sol.energy}; the contacts' part is
% @code{sol.contact_energy}): its drift for a conservative system (a soft bounce included), its
% decay for a damped one or one with friction.
% @end table
% The default panels are "q", then "lambda" and "residual" when the solution has constraints,
% then "energy" when it has one.  A first-order solution (@code{dual_solve}, or any struct with
% @code{t} and @code{y}) has the panels @code{"y"} (the states), @code{"D"} (the duals of the
% action: drawn only when named in "Panels") and @code{"residual"} (log10 |Dm y - F| of a
% fixed-grid solve, when present); default "y" and, when present, "residual".  Its states are
% "dimensionless" on the axis unless "Units" are given.  A @code{periodic_orbit} solution (fields
% @code{T}, @code{t}, @code{y}) is drawn over its period, named with it in the title
% ("periodic_orbit, T = 6.6633").
%
% With two solutions (both mechanical, or both first order, with the same number of
% components) each component has one colour, the first solution is drawn solid and the second
% dashed (in a residual panel, drawn as marks: dots and open circles); they may have different
% time grids.  Components are named by @code{sol.names} (which
% the solvers return) or numbered, each at the right of its panel in its colour, level with its
% last value (names that would overlap are moved apart; no legend box hides data); solutions by
% @code{sol.solver}, in the title.  The panels share one time axis: the same left and right
% edges, the time tick labels and the label t under the bottom panel only, and a few y ticks
% in one format per panel.
%
% Options:
% @table @asis
% @item "Panels"
% a cell array of panel names, in the order drawn (default: see above).
% @item "Labels"
% the names of the solutions in the title (default @code{sol.solver}, or "solution 1", "2").
% @item "Units"
% the unit of each coordinate (or state), a cell array of strings (default: none shown; a
% first-order system's states "dimensionless"); the velocities get unit/TimeUnit.  The axis shows
% the unit the components share, or "mixed units" with each name followed by its unit.
% @item "TimeUnit"
% the unit of t (default: "s" for a mechanical solution, none for a first-order one or a
% periodic orbit).
% @item "EnergyUnit"
% the unit of the energy (default: none shown).
% @item "Title"
% the title above the first panel (default: the solutions' labels and line styles).
% @item "Png"
% a file name: the figure is written there as a PNG of the size of a new figure (800 pixels
% wide, 190 per panel and 110 more), drawn off-screen (not shown).
% @item "Visible"
% "on" (default) or "off" (draw without showing).  Without a display (no DISPLAY on Unix, as
% octave-cli in a terminal or a batch job, or the graphics toolkit "none") and with "Png" the
% figure is drawn off-screen whatever this says, and nothing is printed to the terminal.
% @item "Figure"
% the handle of a figure to draw into (it is cleared); default a new figure.
% @end table
%
% @var{h} is a struct: @code{figure} (the handle), @code{axes} (one handle per panel),
% @code{panels} (their names), @code{lines} (one array of line handles per panel: the
% components of the first solution, then those of the second) and @code{png} (the file
% written, or '').
%
% Example (a pendulum in Cartesian coordinates, the action against the reference integrator):
% @verbatim
% pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
% s = skg_solve (pend, [0 3], [1 0], [0 0], 'RelTol', 1e-8);
% r = gauss_integrate (pend, [0 3], [1 0], [0 0]);
% h = varmech_plot (s, r, 'Units', {'m', 'm'});
% @end verbatim
% @seealso{skg_solve, gauss_integrate, dual_solve}
% @end deftypefn

function h = varmech_plot (varargin)
  fname = 'varmech_plot';
  [~, ~, defaults] = vm_option_rule (fname);   % names, defaults, rules: csrc/base/vm_schema.c
  [sols, args] = split_solutions (fname, varargin, fieldnames (defaults)');
  opts = vm_options (fname, args);
  kind = solution_kind (fname, sols);
  ncomp = check_components (fname, sols, kind);
  panels = choose_panels (fname, sols, kind, opts.Panels);
  names = component_names (sols{1}, kind, ncomp);
  units = string_list (fname, 'Units', opts.Units, ncomp, repmat ({''}, 1, ncomp));
  check_string (fname, 'TimeUnit', opts.TimeUnit);
  check_string (fname, 'EnergyUnit', opts.EnergyUnit);
  check_string (fname, 'Title', opts.Title);
  check_string (fname, 'Png', opts.Png);
  if (isempty (opts.TimeUnit) && strcmp (kind, 'mech'))
    opts.TimeUnit = 's';   % the mechanical models are in physical units; first order: none
  end
  labels = string_list (fname, 'Labels', opts.Labels, numel (sols), default_labels (sols));
  labels = with_periods (labels, sols, opts.TimeUnit);
  if (isempty (opts.Title))
    opts.Title = default_title (labels);
  end
  quiet = quiet_toolkit_warning ();
  visible = opts.Visible;
  if (~isempty (opts.Png) || no_display ())
    visible = 'off';   % off-screen: nothing on a screen, nothing printed to the terminal
  end
  fig = open_figure (fname, opts, visible, numel (panels));
  data = cell (1, numel (panels));
  for k = 1:numel (panels)
    data{k} = panel_values (panels{k}, sols, kind, names, units, opts);
  end
  lay = layout (fig, opts, data, sols);
  axs = zeros (1, numel (panels));
  lines = cell (1, numel (panels));
  for k = 1:numel (panels)
    axs(k) = axes ('parent', fig, 'position', lay.pos(k, :));
    lines{k} = draw_panel (axs(k), data{k}, sols, lay, k);
  end
  h = struct ('figure', fig, 'axes', axs, 'panels', {panels}, 'lines', {lines}, 'png', '');
  title (axs(1), opts.Title, 'interpreter', 'none', 'fontsize', lay.title_fs);
  xlabel (axs(end), time_label (opts.TimeUnit), 'interpreter', 'none');
  if (~isempty (opts.Png))
    h.png = write_png (fname, fig, opts.Png, numel (panels));
  end
  restore_toolkit_warning (quiet);
end

function [sols, args] = split_solutions (fname, in, names)
  % one or two solution structs, then name/value pairs (names: the option names)
  if (isempty (in))
    vm_badarg (fname, 'expected a solution struct sol (of skg_solve, gauss_integrate or dual_solve) as the first argument');
  end
  if (~isstruct (in{1}) || ~isscalar (in{1}))
    vm_badarg (fname, 'sol (the first argument) must be a solution struct (of skg_solve, gauss_integrate or dual_solve); got %s', ...
               vm_describe (in{1}));
  end
  nsol = 1;
  if (numel (in) >= 2 && isstruct (in{2}))
    if (~isscalar (in{2}))
      vm_badarg (fname, 'sol2 (the second solution) must be a scalar struct; got a %s struct array', ...
                 size_string (in{2}));
    end
    nsol = 2;
  elseif (numel (in) >= 2 && vm_isrow_string (in{2}) && ~any (strcmpi (in{2}, names)))
    vm_badarg (fname, 'unknown option ''%s''; expected one of: %s (or a solution struct sol2 as the second argument)', ...
               in{2}, strjoin (names, ', '));
  elseif (numel (in) >= 2 && ~vm_isrow_string (in{2}))
    % neither a second solution nor an option name
    vm_badarg (fname, 'sol2 (the second argument) must be a solution struct or an option name (%s); got %s', ...
               strjoin (names, ', '), vm_describe (in{2}));
  end
  sols = in(1:nsol);
  args = in(nsol+1:end);
end

function kind = solution_kind (fname, sols)
  % 'mech' (fields t, q) or 'ode' (fields t, y); both solutions of one kind
  kinds = cell (1, numel (sols));
  for s = 1:numel (sols)
    sol = sols{s};
    if (isfield (sol, 't') && isfield (sol, 'q'))
      kinds{s} = 'mech';
    elseif (isfield (sol, 't') && isfield (sol, 'y'))
      kinds{s} = 'ode';
    else
      vm_badarg (fname, 'solution %d has no fields t and q (skg_solve, gauss_integrate) or t and y (dual_solve)', s);
    end
  end
  if (numel (kinds) == 2 && ~strcmp (kinds{1}, kinds{2}))
    vm_badarg (fname, ['solution 1 has %s and solution 2 has %s: compare solutions of one kind ' ...
                       '(for a dual solution of a mechanical system, make a struct with t, q ' ...
                       'and lambda from its states)'], field_of (kinds{1}), field_of (kinds{2}));
  end
  kind = kinds{1};
end

function f = field_of (kind)
  if (strcmp (kind, 'mech'))
    f = 'q';
  else
    f = 'y';
  end
end

function ncomp = check_components (fname, sols, kind)
  % t a vector, the main field one row per time, the same number of columns in both solutions
  f = field_of (kind);
  ncomp = 0;
  for s = 1:numel (sols)
    t = sols{s}.t;
    x = sols{s}.(f);
    if (~isnumeric (t) || ~isreal (t) || ~isvector (t) || ~isnumeric (x) || ~isreal (x) ...
        || ndims (x) > 2 || size (x, 1) ~= numel (t))
      vm_badarg (fname, 'solution %d: %s must be a real matrix with one row per entry of t; got %s and t %s', ...
                 s, f, vm_describe (x), size_string (t));
    end
    if (s == 2 && size (x, 2) ~= ncomp)
      vm_badarg (fname, 'solution 2 has %d columns in %s, solution 1 has %d: compare solutions of one system', ...
                 size (x, 2), f, ncomp);
    end
    ncomp = size (x, 2);
  end
end

function str = size_string (x)
  str = sprintf ('%dx%d', size (x, 1), size (x, 2));
end

function panels = choose_panels (fname, sols, kind, req)
  if (strcmp (kind, 'mech'))
    all_panels = {'q', 'qdot', 'lambda', 'residual', 'energy'};
    dflt = {'q', 'lambda', 'residual', 'energy'};
  else
    all_panels = {'y', 'D', 'residual'};
    dflt = {'y', 'residual'};   % the duals (noise about 0 for a solved problem) on request
  end
  if (isempty (req))
    panels = dflt(cellfun (@(p) has_panel (sols{1}, kind, p), dflt));
    return;
  end
  if (ischar (req))
    req = {req};
  end
  if (~iscell (req) || ~all (cellfun (@(p) ischar (p) && size (p, 1) == 1, req(:)')))
    vm_badarg (fname, 'Panels must be a cell array of panel names (%s); got %s', ...
               strjoin (all_panels, ', '), vm_describe (req));
  end
  panels = reshape (req, 1, []);
  for k = 1:numel (panels)
    hit = find (strcmpi (panels{k}, all_panels));
    if (isempty (hit))
      vm_badarg (fname, 'unknown panel ''%s'' for a solution with %s; expected one of: %s', ...
                 panels{k}, field_of (kind), strjoin (all_panels, ', '));
    end
    panels{k} = all_panels{hit};
    for s = 1:numel (sols)
      if (~has_panel (sols{s}, kind, panels{k}))
        vm_badarg (fname, 'panel ''%s'': solution %d has no %s', panels{k}, s, panel_source (kind, panels{k}));
      end
    end
  end
end

function src = panel_source (kind, panel)
  % the fields a panel is drawn from, as named in messages
  switch (panel)
    case 'lambda'
      src = 'multipliers (field lambda with columns)';
    case 'residual'
      if (strcmp (kind, 'mech'))
        src = 'constraint residuals (fields residual and residual_position with columns)';
      else
        src = 'field residual (a fixed-grid dual_solve has one)';
      end
    otherwise
      src = ['field ' panel];
  end
end

function ok = has_panel (sol, kind, panel)
  % the data of a panel are present, one row per time, with at least one column
  n = numel (sol.t);
  switch (panel)
    case 'residual'
      ok = isfield (sol, 'residual') && has_rows (sol.residual, n, 1);
      if (strcmp (kind, 'mech'))
        ok = ok && isfield (sol, 'residual_position') && has_rows (sol.residual_position, n, 1);
      end
    case 'energy'
      ok = isfield (sol, 'energy') && has_rows (sol.energy, n, 1) && size (sol.energy, 2) == 1;
    otherwise
      ok = isfield (sol, panel) && has_rows (sol.(panel), n, 1);
  end
end

function ok = has_rows (x, n, mincols)
  ok = isnumeric (x) && isreal (x) && ndims (x) == 2 && size (x, 1) == n && size (x, 2) >= mincols;
end

function names = component_names (sol, kind, ncomp)
  names = {};
  if (isfield (sol, 'names') && iscellstr (sol.names) && numel (sol.names) == ncomp)
    names = reshape (sol.names, 1, []);
  end
  if (isempty (names))
    names = arrayfun (@(k) sprintf ('%s%d', field_of (kind), k), 1:ncomp, 'UniformOutput', false);
  end
end

function labels = default_labels (sols)
  labels = cell (1, numel (sols));
  for s = 1:numel (sols)
    if (isfield (sols{s}, 'solver') && ischar (sols{s}.solver) && ~isempty (sols{s}.solver))
      labels{s} = sols{s}.solver;
    else
      labels{s} = sprintf ('solution %d', s);
    end
  end
  if (numel (sols) == 2 && strcmp (labels{1}, labels{2}))
    labels = {[labels{1} ' (1)'], [labels{2} ' (2)']};
  end
end

function str = default_title (labels)
  if (numel (labels) == 1)
    str = labels{1};
  else
    str = sprintf ('%s (solid) and %s (dashed)', labels{1}, labels{2});
  end
end

function list = string_list (fname, name, value, count, dflt)
  % a cell array of count strings (one string when count is 1), or the default when empty
  if (isempty (value))
    list = dflt;
    return;
  end
  if (ischar (value) && count == 1)
    value = {value};
  end
  if (~iscell (value) || numel (value) ~= count || ~all (cellfun (@(v) ischar (v) && size (v, 1) <= 1, value(:)')))
    vm_badarg (fname, '%s must be a cell array of %d strings; got %s', name, count, ...
               vm_describe (value));
  end
  list = reshape (value, 1, []);
end

function check_string (fname, name, value)
  if (~(ischar (value) && size (value, 1) <= 1 && ndims (value) == 2))
    vm_badarg (fname, '%s must be a string; got %s', name, vm_describe (value));
  end
end

function labels = with_periods (labels, sols, tunit)
  % the label of a periodic orbit (periodic_orbit's solution: solver, T) names its period
  for s = 1:numel (sols)
    sol = sols{s};
    if (isfield (sol, 'solver') && ischar (sol.solver) && strcmp (sol.solver, 'periodic_orbit') ...
        && isfield (sol, 'T') && isnumeric (sol.T) && isscalar (sol.T) && isreal (sol.T))
      labels{s} = sprintf ('%s, T = %.5g', labels{s}, sol.T);
      if (~isempty (tunit))
        labels{s} = sprintf ('%s %s', labels{s}, tunit);
      end
    end
  end
end

function lab = time_label (tunit)
  lab = 't';
  if (~isempty (tunit))
    lab = sprintf ('t (%s)', tunit);
  end
end

function tf = no_display ()
  % no screen to show a figure on: Octave without a graphics toolkit that draws (none), or a
  % Unix session without DISPLAY (octave-cli in a terminal or a batch job; gnuplot would draw a
  % visible figure as text on the terminal)
  tf = false;
  if (exist ('OCTAVE_VERSION', 'builtin') > 0 && strcmp (graphics_toolkit (), 'none'))
    tf = true;
  elseif (isunix () && ~ismac () && isempty (getenv ('DISPLAY')) && isempty (getenv ('WAYLAND_DISPLAY')))
    tf = true;
  end
end

function fig = open_figure (fname, opts, visible, npanels)
  % a new figure of the size of the PNG (the layout is computed for it); a given one as it is
  if (isempty (opts.Figure))
    fig = figure ('visible', visible);
    pos = get (fig, 'position');
    sz = figure_size (npanels);
    set (fig, 'position', [pos(1), max(pos(2) + pos(4) - sz(2), 0), sz]);
    return;
  end
  fig = opts.Figure;
  if (~(isscalar (fig) && isnumeric (fig) && isreal (fig) && ~issparse (fig) || isscalar (fig) && isobject (fig)) ...
      || ~ishandle (fig) || ~strcmp (get (fig, 'type'), 'figure'))
    vm_badarg (fname, 'Figure must be the handle of an open figure; got %s', vm_describe (fig));
  end
  if (isnumeric (fig))
    fig = double (fig);
  end
  clf (fig);
  set (fig, 'visible', visible);
end

function d = panel_values (panel, sols, kind, names, units, opts)
  % what one panel draws: the values of each solution (d.y{s}), the names of the components, the
  % axis label, whether the values are log10 (integer ticks) and their finite range
  d = struct ('panel', panel, 'y', {cell(1, numel (sols))}, 'comp', {{}}, 'ylab', '', ...
              'integer', strcmp (panel, 'residual'), 'lo', Inf, 'hi', -Inf);
  for s = 1:numel (sols)
    [y, comp, ylab] = panel_data (sols{s}, panel, kind, names, units, opts);
    d.y{s} = y;
    if (s == 1)
      d.comp = comp;
      d.ylab = ylab;
    end
    v = y(isfinite (y));
    if (~isempty (v))
      d.lo = min (d.lo, min (v));
      d.hi = max (d.hi, max (v));
    end
  end
end

function lay = layout (fig, opts, data, sols)
  % fixed axes positions (normalized) of the panels, one below the other, with the same left and
  % right edges: the margins hold the widest tick labels and line names at the font sizes (in
  % pixels of the figure or of the PNG), so that every panel's time axis is the same; the ticks
  % of each panel (few, one format per axis) and of the shared time axis
  np = numel (data);
  if (~isempty (opts.Png) || isempty (opts.Figure))
    sz = figure_size (np);
  else
    u = get (fig, 'units');
    set (fig, 'units', 'pixels');
    p = get (fig, 'position');
    set (fig, 'units', u);
    sz = max (p(3:4), [300, 150]);
  end
  fs = 8;
  cw = 1.6 * fs;                     % pixels per digit (gnuplot's PNG; other toolkits less)
  lh = 2.4 * fs;                     % pixels per line of text
  top = 2 * lh + 22;                 % the title
  bottom = 3 * lh + 16;              % the time tick labels and the time label
  gap = round (1.5 * lh);            % the outer tick labels of two panels apart
  ph = (sz(2) - top - bottom - (np - 1) * gap) / np;
  nmax = max (3, min (5, floor (ph / (1.8 * lh)) + 1));   % tick labels 1.8 lines apart
  lay = struct ('fs', fs, 'lh', lh, 'ph', ph, 'gap', gap, 'title_fs', 10, 'pos', zeros (np, 4));
  lay.ylim = cell (1, np);
  lay.ytick = cell (1, np);
  lay.ylabels = cell (1, np);
  wtick = 1;
  wname = 1;
  for k = 1:np
    [lay.ylim{k}, lay.ytick{k}, lay.ylabels{k}] = nice_ticks (data{k}.lo, data{k}.hi, nmax, ...
                                                               data{k}.integer, false);
    wtick = max ([wtick, cellfun(@numel, lay.ylabels{k})]);
    wname = max ([wname, cellfun(@numel, data{k}.comp)]);
  end
  left = wtick * cw + 2 * lh + 16;   % tick labels and the axis label beside them
  right = min (wname * 1.3 * fs + 22, 0.35 * sz(1));   % letters are narrower than digits
  aw = sz(1) - left - right;
  t = [];
  for s = 1:numel (sols)
    t = [t; sols{s}.t(:)];   %#ok<AGROW>
  end
  t = t(isfinite (t));
  if (isempty (t))
    t = [0; 1];
  end
  [lay.xlim, lay.xtick, lay.xlabels] = nice_ticks (min (t), max (t), ...
                                                   max (3, min (11, floor (aw / (5 * cw)) + 1)), false, true);
  for k = 1:np
    lay.pos(k, :) = [left, bottom + (np - k) * (ph + gap), aw, ph] ./ [sz, sz];
  end
  lay.aw = aw;
  nt = numel (opts.Title);
  if (nt * 1.6 * lay.title_fs > sz(1) - 20)
    lay.title_fs = max (6, floor ((sz(1) - 20) / (1.6 * nt)));
  end
end

function [lim, ticks, labs] = nice_ticks (lo, hi, nmax, integer, inside)
  % at most nmax (>= 3) ticks at multiples of 1, 2, 2.5 or 5 times a power of ten (integers for
  % log10 values: 1, 2 or 5 times one), the limits at the outer ticks (inside: the limits are
  % [lo, hi] and the ticks those within them), and the tick labels in one format.  (Three ticks
  % always fit once the step exceeds max(|lo|, |hi|): -step, 0, step or two neighbours.)
  if (~(isfinite (lo) && isfinite (hi)))
    lo = 0;
    hi = 0;
  end
  if (hi - lo <= 8 * eps * max (abs ([lo, hi])))
    pad = abs (lo) / 10;
    if (pad == 0 || integer)
      pad = 1;
    end
    lo = lo - pad;
    hi = hi + pad;
  end
  mult = [1, 2, 2.5, 5];
  if (integer || inside)
    mult = [1, 2, 5];
  end
  e = floor (log10 ((hi - lo) / nmax)) - 1;
  found = false;
  while (~found && e < 400)
    for m = mult
      step = m * 10 ^ e;
      if (integer && step < 1)
        continue;
      end
      if (inside)
        n0 = ceil (lo / step - 1e-9);
        n1 = floor (hi / step + 1e-9);
      else
        n0 = floor (lo / step + 1e-9);
        n1 = ceil (hi / step - 1e-9);
      end
      if (n1 - n0 + 1 <= nmax)
        found = true;
        break;
      end
    end
    e = e + 1;
  end
  if (~found)   % beyond the doubles: the data's own limits
    lim = [lo, hi];
    ticks = lim;
    labs = {sprintf('%.3g', lo), sprintf('%.3g', hi)};
    return;
  end
  ticks = (n0:n1) * step;
  ticks(abs (ticks) < 1e-9 * step) = 0;
  if (inside)
    lim = [lo, hi];
  else
    lim = [n0, n1] * step;
  end
  labs = tick_labels (ticks, step);
end

function labs = tick_labels (ticks, step)
  % one format for all the ticks of an axis: fixed decimals, or a mantissa with the exponent of
  % the largest tick (1.5e-6) when that is below 1e-3 or at least 1e5
  big = max (abs (ticks));
  labs = cell (1, numel (ticks));
  if (big > 0 && (big < 1e-3 || big >= 1e5))
    ex = floor (log10 (big));
    d = decimals (step / 10 ^ ex);
    for k = 1:numel (ticks)
      if (ticks(k) == 0)
        labs{k} = '0';
      else
        labs{k} = sprintf ('%.*fe%d', d, ticks(k) / 10 ^ ex, ex);
      end
    end
  else
    d = decimals (step);
    for k = 1:numel (ticks)
      labs{k} = sprintf ('%.*f', d, ticks(k));
    end
  end
end

function d = decimals (step)
  % the decimals that write step exactly (to 1e-6 of itself)
  for d = 0:15
    v = step * 10 ^ d;
    if (abs (v - round (v)) <= 1e-6 * max (1, v))
      return;
    end
  end
end

function lines = draw_panel (ax, d, sols, lay, k)
  % panel k: the components of every solution, one colour per component, a line style per
  % solution; the axis limits and ticks of the layout (time tick labels on the bottom panel
  % only); the names at the right
  styles = {'-', '--'};
  lines = [];
  hold (ax, 'on');
  for s = 1:numel (sols)
    y = d.y{s};
    colors = lines_colors (size (y, 2));
    for c = 1:size (y, 2)
      hl = plot (ax, sols{s}.t(:), y(:, c), styles{s}, 'color', colors(c, :), 'linewidth', 1.5);
      if (d.integer)
        % a value between two exact zeros is a mark; dense marks hide the line style, so the
        % second solution gets open circles
        marks = {'.', 'o'};
        sizes = [4, 2];
        set (hl, 'marker', marks{s}, 'markersize', sizes(s));
      end
      lines(end + 1) = hl;   %#ok<AGROW>
    end
  end
  hold (ax, 'off');
  grid (ax, 'on');
  set (ax, 'fontsize', lay.fs, 'box', 'on', 'ylim', lay.ylim{k}, 'ytick', lay.ytick{k}, ...
       'yticklabel', lay.ylabels{k}, 'xlim', lay.xlim, 'xtick', lay.xtick);
  if (k == size (lay.pos, 1))
    set (ax, 'xticklabel', lay.xlabels);
  else
    set (ax, 'xticklabel', {});
  end
  ylabel (ax, d.ylab, 'interpreter', 'none');
  name_lines (ax, lines(1:numel (d.comp)), d.comp, lay);
end

function name_lines (ax, hl, names, lay)
  % the name of each line at the right edge of the axes, in its colour, level with its last
  % finite value; names closer than a line of text are moved apart (keeping their order) within
  % the panel and half the gaps beside it, in a smaller font when many share the height
  yl = get (ax, 'ylim');
  n = numel (hl);
  yn = zeros (1, n);
  for c = 1:n
    y = get (hl(c), 'ydata');
    y = y(isfinite (y));
    if (isempty (y))
      yn(c) = 0.5;
    else
      yn(c) = (y(end) - yl(1)) / (yl(2) - yl(1));
    end
  end
  fs = lay.fs;
  d = lay.lh / lay.ph;
  lo = -0.5 * lay.gap / lay.ph;
  hi = 1 + 0.5 * lay.gap / lay.ph;
  if (n * d > hi - lo)
    fs = max (5, fs * (hi - lo) / (n * d));
    d = d * fs / lay.fs;
  end
  yn = spread (min (max (yn, 0), 1), d, lo, hi);
  for c = 1:n
    text (1 + 8 / lay.aw, yn(c), names{c}, 'parent', ax, 'units', 'normalized', ...
          'color', get (hl(c), 'color'), 'interpreter', 'none', 'horizontalalignment', 'left', ...
          'verticalalignment', 'middle', 'fontsize', fs);
  end
end

function y = spread (y, d, lo, hi)
  % the positions y moved apart to a distance of at least d, in their order, each within
  % [lo + d/2, hi - d/2] (a name is a line of text centred on its position)
  [ys, order] = sort (y);
  lo = lo + d / 2;
  hi = hi - d / 2;
  ys = min (max (ys, lo), hi);
  for k = 2:numel (ys)
    ys(k) = max (ys(k), ys(k - 1) + d);
  end
  if (~isempty (ys) && ys(end) > hi)
    ys(end) = hi;
    for k = numel (ys) - 1:-1:1
      ys(k) = min (ys(k), ys(k + 1) - d);
    end
  end
  y(order) = ys;
end

function colors = lines_colors (n)
  base = [0 0.447 0.741; 0.850 0.325 0.098; 0.466 0.674 0.188; 0.494 0.184 0.556; ...
          0.929 0.694 0.125; 0.301 0.745 0.933; 0.635 0.078 0.184; 0 0 0];
  colors = base(mod (0:n-1, size (base, 1)) + 1, :);
end

function [y, comp, ylab] = panel_data (sol, panel, kind, names, units, opts)
  % the values drawn in a panel, the legend entries and the axis label
  n = numel (names);
  switch (panel)
    case {'q', 'y'}
      y = sol.(panel);
      comp = with_units (names, units);
      ylab = common_label (panel, units, strcmp (kind, 'ode'));
    case 'qdot'
      y = sol.qdot;
      vunits = cellfun (@(u) rate_unit (u, opts.TimeUnit), units, 'UniformOutput', false);
      comp = with_units (cellfun (@(s) ['d' s '/dt'], names, 'UniformOutput', false), vunits);
      ylab = common_label ('qdot', vunits, false);
    case 'D'
      y = sol.D;
      comp = arrayfun (@(k) sprintf ('D%d', k), 1:size (y, 2), 'UniformOutput', false);
      ylab = 'duals D';
    case 'lambda'
      y = sol.lambda;
      comp = arrayfun (@(k) sprintf ('lambda_%d', k), 1:size (y, 2), 'UniformOutput', false);
      ylab = 'lambda';
    case 'energy'
      y = sol.energy - sol.energy(find (isfinite (sol.energy), 1));
      comp = {'E - E(t0)'};
      ylab = common_label ('E - E(t0)', {opts.EnergyUnit}, false);
    case 'residual'
      [y, comp] = residual_data (sol, kind, n);
      % log10 on a linear axis: the gnuplot toolkit draws no tick labels below 1e-15 on a
      % logarithmic one, and warns when a logarithmic panel follows one with negative data
      ylab = 'log10 |g|';
      if (strcmp (kind, 'ode'))
        ylab = 'log10 |Dm y - F|';
      end
      y = abs (y);
      y(y == 0) = NaN;   % an exact zero has no logarithm: not drawn
      y = log10 (y);
  end
end

function [y, comp] = residual_data (sol, kind, n)
  if (strcmp (kind, 'ode'))
    y = sol.residual;
    comp = arrayfun (@(k) sprintf ('equation %d', k), 1:size (y, 2), 'UniformOutput', false);
    return;
  end
  % holonomic constraints at position level (residual_position is 0 for the others)
  y = sol.residual;
  pos = any (sol.residual_position ~= 0 & ~isnan (sol.residual_position), 1);
  y(:, pos) = sol.residual_position(:, pos);
  comp = cell (1, size (y, 2));
  for a = 1:size (y, 2)
    if (pos(a))
      comp{a} = sprintf ('g_%d (position)', a);
    else
      comp{a} = sprintf ('g_%d (velocity)', a);
    end
  end
end

function u = rate_unit (unit, tunit)
  % the unit of a velocity (that of the coordinate without a unit of time)
  if (isempty (unit) || isempty (tunit))
    u = unit;
  else
    u = [unit '/' tunit];
  end
end

function comp = with_units (names, units)
  % "x (m)" when the units differ between components, else the names alone
  comp = names;
  if (numel (unique (units)) > 1)
    for k = 1:numel (names)
      if (~isempty (units{k}))
        comp{k} = sprintf ('%s (%s)', names{k}, units{k});
      end
    end
  end
end

function lab = common_label (what, units, dimless)
  % the unit on the axis when all components share one; "mixed units" when they differ (each
  % name then carries its unit); "dimensionless" for the states of a first-order system given
  % no units (dimless)
  lab = what;
  u = unique (units);
  if (numel (u) == 1 && ~isempty (u{1}))
    lab = sprintf ('%s (%s)', what, u{1});
  elseif (numel (u) > 1)
    lab = sprintf ('%s (mixed units)', what);
  elseif (dimless)
    lab = sprintf ('%s (dimensionless)', what);
  end
end

function sz = figure_size (npanels)
  % pixels: 800 wide, 190 per panel and 110 for the title and the time axis
  sz = [800, 110 + 190 * npanels];
end

function file = write_png (fname, fig, file, npanels)
  sz = figure_size (npanels);
  try
    if (exist ('OCTAVE_VERSION', 'builtin') == 0)
      set (fig, 'PaperPosition', [0, 0, sz / 100]);
      print (fig, file, '-dpng', '-r100');
    elseif (strcmp (get (fig, '__graphics_toolkit__'), 'gnuplot'))
      print (fig, file, '-dpngcairo', sprintf ('-S%d,%d', sz));
    else
      print (fig, file, '-dpng', sprintf ('-S%d,%d', sz));
    end
  catch err
    error ('varmech:varmech_plot:png', ['varmech_plot: could not write %s: %s (headless Octave on ' ...
           'Debian needs the packages gnuplot-nox and fonts-freefont-otf)'], file, err.message);
  end
end

function state = quiet_toolkit_warning ()
  % Octave warns that the gnuplot toolkit is discouraged at every figure made with it (the only
  % toolkit of octave-cli); silenced while drawing, restored afterwards
  state = [];
  if (exist ('OCTAVE_VERSION', 'builtin') > 0)
    state = warning ('query', 'Octave:gnuplot-graphics');
    warning ('off', 'Octave:gnuplot-graphics');
  end
end

function restore_toolkit_warning (state)
  if (~isempty (state))
    warning (state.state, 'Octave:gnuplot-graphics');
  end
end

%!shared pend, free, osc, sp, sr, so, vis
%! vis = get (0, 'defaultfigurevisible');
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! free = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2 - x^2/2');
%! sp = skg_solve (pend, [0 1], [1 0], [0 0], 'RelTol', 1e-6);
%! sr = gauss_integrate (pend, [0 1], [1 0], [0 0]);
%! osc = odesys ('states', {'u', 'v'}, 'rhs', {'v', '-u'});
%! so = dual_solve (osc, [0 1], [1 0]);
%!test
%! % the default panels of a constrained solution; one line per coordinate with its data
%! h = varmech_plot (sp, 'Visible', 'off');
%! unwind_protect
%!   assert (h.panels, {'q', 'lambda', 'residual', 'energy'});
%!   assert (numel (h.axes), 4);
%!   assert (all (ishandle (h.axes)));
%!   assert (ishandle (h.figure));
%!   assert (numel (h.lines{1}), 2);
%!   assert (get (h.lines{1}(2), 'ydata')(:), sp.q(:, 2));
%!   assert (get (h.lines{2}(1), 'ydata')(:), sp.lambda);
%!   assert (get (h.lines{4}(1), 'ydata')(:), sp.energy - sp.energy(1));
%!   assert (get (get (h.axes(3), 'ylabel'), 'string'), 'log10 |g|');
%!   assert (get (get (h.axes(4), 'xlabel'), 'string'), 't (s)');
%!   assert (h.png, '');
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect
%!test
%! % the residual panel: the holonomic constraint at position level
%! h = varmech_plot (sr, 'Panels', {'residual'}, 'Visible', 'off');
%! unwind_protect
%!   y = get (h.lines{1}(1), 'ydata')(:);
%!   r = abs (sr.residual_position(:, 1));
%!   r(r == 0) = NaN;
%!   assert (y, log10 (r));
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect
%!test
%! % two solutions: one colour per component, the second dashed; a solution without
%! % constraints has no lambda and residual panels; units on the axis
%! h = varmech_plot (sp, sr, 'Panels', {'q', 'qdot', 'lambda'}, 'Units', {'m', 'm'}, 'Visible', 'off');
%! unwind_protect
%!   assert (numel (h.lines{1}), 4);
%!   assert (get (h.lines{1}(1), 'color'), get (h.lines{1}(3), 'color'));
%!   assert (get (h.lines{1}(3), 'linestyle'), '--');
%!   assert (get (h.lines{2}(4), 'ydata')(:), sr.qdot(:, 2));
%!   assert (get (get (h.axes(1), 'ylabel'), 'string'), 'q (m)');
%!   assert (get (get (h.axes(2), 'ylabel'), 'string'), 'qdot (m/s)');
%!   assert (get (get (h.axes(1), 'title'), 'string'), 'skg_solve (solid) and gauss_integrate (dashed)');
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect
%! s = skg_solve (free, [0 1], 1, 0);
%! h = varmech_plot (s, 'Visible', 'off');
%! assert (h.panels, {'q', 'energy'});
%! close (h.figure);
%!test
%! % a dual_solve solution: states and duals; a plain struct with t and y works too
%! h = varmech_plot (so, struct ('t', so.t, 'y', [cos(so.t) -sin(so.t)]), 'Panels', {'y'}, ...
%!                   'Labels', {'dual', 'exact'}, 'Visible', 'off');
%! unwind_protect
%!   assert (h.panels, {'y'});
%!   assert (numel (h.lines{1}), 4);
%!   assert (get (get (h.axes(1), 'title'), 'string'), 'dual (solid) and exact (dashed)');
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect
%! h = varmech_plot (so, 'Visible', 'off');
%! assert (h.panels, {'y'});   % the duals only on request
%! assert (get (get (h.axes(1), 'ylabel'), 'string'), 'y (dimensionless)');
%! assert (get (get (h.axes(1), 'xlabel'), 'string'), 't');
%! close (h.figure);
%! h = varmech_plot (so, 'Panels', {'y', 'D'}, 'Units', {'m', 'm/s'}, 'Visible', 'off');
%! assert (h.panels, {'y', 'D'});
%! assert (get (get (h.axes(1), 'ylabel'), 'string'), 'y (mixed units)');
%! close (h.figure);
%!test
%! % a PNG is written, into a given figure
%! f = figure ('visible', 'off');
%! file = [tempname() '.png'];
%! unwind_protect
%!   h = varmech_plot (sp, 'Figure', f, 'Png', file, 'Visible', 'off', 'Title', 'pendulum');
%!   assert (h.figure, f);
%!   assert (h.png, file);
%!   fid = fopen (file, 'r');
%!   magic = fread (fid, 8, 'uint8')';
%!   fclose (fid);
%!   assert (magic, [137 80 78 71 13 10 26 10]);
%!   info = imfinfo (file);
%!   assert ([info.Width info.Height], [800, 110 + 190*4]);
%! unwind_protect_cleanup
%!   close (f);
%!   if (exist (file, 'file'))
%!     delete (file);
%!   end
%! end_unwind_protect
%!error <expected a solution struct sol .of skg_solve, gauss_integrate or dual_solve. as the first argument> varmech_plot ()
%!error <sol .the first argument. must be a solution struct .of skg_solve, gauss_integrate or dual_solve.; got double 1x1 .1.> varmech_plot (1)
%!error <sol2 .the second argument. must be a solution struct or an option name .Panels, Labels, Units, TimeUnit, EnergyUnit, Title, Png, Visible, Figure.; got cell 1x1> varmech_plot (struct ('t', 1, 'q', 1), {1})
%!error <unknown option 'abc'; expected one of: Panels, .*, Figure .or a solution struct sol2 as the second argument.> varmech_plot (struct ('t', 1, 'q', 1), 'abc', 1)
%!error <TimeUnit must be a string; got char 1x1x2> varmech_plot (struct ('t', 1, 'q', 1), 'TimeUnit', cat (3, 's', 's'))
%!error <Figure must be the handle of an open figure; got sparse double 1x1> varmech_plot (struct ('t', 1, 'q', 1), 'Figure', sparse (1))
%!error <sol2 .the second solution. must be a scalar struct; got a 1x2 struct array> varmech_plot (struct ('t', 1, 'q', 1), struct ('t', {1, 2}))
%!error <solution 1 has no fields t and q .skg_solve, gauss_integrate. or t and y .dual_solve.> varmech_plot (struct ('x', 1))
%!error <solution 1 has q and solution 2 has y: compare solutions of one kind> varmech_plot (sr, so)
%!error <solution 1: q must be a real matrix with one row per entry of t; got double 3x1 and t 2x1> varmech_plot (struct ('t', [0; 1], 'q', [1; 2; 3]))
%!error <solution 2 has 1 columns in q, solution 1 has 2: compare solutions of one system> varmech_plot (sr, struct ('t', [0; 1], 'q', [1; 2]))
%!error <Panels must be a cell array of panel names .q, qdot, lambda, residual, energy.; got double 1x1> varmech_plot (sr, 'Panels', 1)
%!error <unknown panel 'D' for a solution with q; expected one of: q, qdot, lambda, residual, energy> varmech_plot (sr, 'Panels', {'D'})
%!error <panel 'lambda': solution 1 has no multipliers .field lambda with columns.> varmech_plot (struct ('t', [0; 1], 'q', [1; 2]), 'Panels', {'lambda'})
%!error <panel 'residual': solution 1 has no field residual .a fixed-grid dual_solve has one.> varmech_plot (so, 'Panels', {'residual'})
%!error <Units must be a cell array of 2 strings; got cell 1x1> varmech_plot (sr, 'Units', {'m'})
%!error <Labels must be a cell array of 2 strings; got double 1x1> varmech_plot (sr, sp, 'Labels', 3)
%!error <TimeUnit must be a string; got double 1x1> varmech_plot (sr, 'TimeUnit', 1)
%!error <EnergyUnit must be a string; got cell 1x1> varmech_plot (sr, 'EnergyUnit', {'J'})
%!error <Title must be a string; got double 1x1> varmech_plot (sr, 'Title', 2)
%!error <Png must be a string; got double 1x1> varmech_plot (sr, 'Png', 2)
%!error <Visible must be one of 'on', 'off'> varmech_plot (sr, 'Visible', 'maybe')
%!error <Figure must be the handle of an open figure> varmech_plot (sr, 'Figure', -17, 'Visible', 'off')
%!error <unknown option 'Colour'> varmech_plot (sr, 'Colour', 'red')
%!error <could not write /nonexistent-folder/x.png> varmech_plot (sr, 'Png', '/nonexistent-folder/x.png', 'Visible', 'off')
%!demo
%! % a pendulum in Cartesian coordinates: the SKG action against the reference integrator
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! s = skg_solve (pend, [0 3], [1 0], [0 0], 'RelTol', 1e-8);
%! r = gauss_integrate (pend, [0 3], [1 0], [0 0]);
%! varmech_plot (s, r, 'Units', {'m', 'm'}, 'EnergyUnit', 'J/kg');
%!demo
%! % Van der Pol through the dual action: states and duals
%! vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), ...
%!   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%! varmech_plot (dual_solve (vdp, [0 10], [2 0]));
