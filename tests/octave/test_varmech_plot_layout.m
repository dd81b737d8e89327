% test_varmech_plot_layout.m -- the layout of varmech_plot's figures: one time axis for all
% panels (the same left and right edges, time tick labels and the label t under the bottom
% panel only), few y ticks in one format, line names that do not overlap, units or
% "dimensionless" on the axes, a periodic orbit with its period, and off-screen drawing without
% terminal output with 'Png' or without a display.

%!shared pend, sp, so, six, po
%! pend = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', 'constraints', {'x^2 + y^2 - 1'});
%! sp = skg_solve (pend, [0 1], [1 0], [0 0], 'RelTol', 1e-6);
%! osc = odesys ('states', {'u', 'v'}, 'rhs', {'v', '-u'});
%! so = dual_solve (osc, [0 1], [1 0]);
%! t = linspace (0, 2, 200)';
%! six = struct ('t', t, 'y', exp (-3 * t) * (1:6) / 6, 'names', {{'a', 'b', 'c', 'd', 'e', 'f'}});
%! vdp = odesys ('states', {'x', 'v'}, 'parameters', struct ('mu', 1), ...
%!   'rhs', {'v', 'mu*(1 - x^2)*v - x'});
%! tg = linspace (0, 6.5, 60)';
%! po = periodic_orbit (vdp, tg, [2*cos(2*pi*tg/6.5), -2*sin(2*pi*tg/6.5)]);

%!function names = name_texts (ax)
%!  % the text objects of an axes (the line names), sorted by height
%!  names = findobj (ax, 'type', 'text');
%!  names = names(~cellfun (@isempty, get (names, 'string')));
%!  y = cellfun (@(p) p(2), get (names, 'position'));
%!  [~, k] = sort (y);
%!  names = names(k);
%!endfunction

%!test
%! % one time axis: every panel has the same left and right edges and the same time limits and
%! % ticks; only the bottom panel has time tick labels and the label t
%! h = varmech_plot (sp, 'Visible', 'off');
%! unwind_protect
%!   pos = cell2mat (get (h.axes(:), 'position'));
%!   assert (pos(:, 1), repmat (pos(1, 1), 4, 1));
%!   assert (pos(:, 1) + pos(:, 3), repmat (pos(1, 1) + pos(1, 3), 4, 1), 1e-15);
%!   assert (all (pos(1:end-1, 2) > pos(2:end, 2) + pos(2:end, 4)));   % below one another, apart
%!   for k = 1:4
%!     assert (get (h.axes(k), 'xlim'), [0 1]);
%!     assert (get (h.axes(k), 'xtick'), get (h.axes(4), 'xtick'));
%!     assert (isempty (get (h.axes(k), 'xticklabel')), k < 4);
%!     assert (isempty (get (get (h.axes(k), 'xlabel'), 'string')), k < 4);
%!   end
%!   assert (get (get (h.axes(4), 'xlabel'), 'string'), 't (s)');
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect

%!test
%! % y ticks: at most 5, the limits at the outer ticks, every label in one format (as many
%! % decimals, or one exponent)
%! h = varmech_plot (sp, 'Visible', 'off');
%! unwind_protect
%!   for k = 1:4
%!     tk = get (h.axes(k), 'ytick');
%!     lab = get (h.axes(k), 'yticklabel');
%!     assert (numel (tk) >= 2 && numel (tk) <= 5);
%!     assert (get (h.axes(k), 'ylim'), tk([1 end]), 1e-12 * max (abs (tk)));
%!     assert (numel (lab), numel (tk));
%!     assert (str2double (lab(:)'), tk, 1e-9 * max (abs (tk)));
%!     nz = lab(tk ~= 0);
%!     ex = regexp (nz, 'e-?\d+$', 'match', 'once');
%!     assert (numel (unique (ex)), 1);                     % one exponent (or none) per axis
%!     dec = cellfun (@(s) numel (regexp (s, '(?<=\.)\d+', 'match', 'once')), nz);
%!     assert (numel (unique (dec)), 1);                    % as many decimals on every label
%!   end
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect

%!test
%! % six names that end at one value are spread at least a text line apart, in their order
%! h = varmech_plot (six, 'Visible', 'off');
%! unwind_protect
%!   t = name_texts (h.axes(1));
%!   assert (get (t, 'string')', {'a', 'b', 'c', 'd', 'e', 'f'});
%!   y = cellfun (@(p) p(2), get (t, 'position'));
%!   fs = get (t(1), 'fontsize');
%!   pos = get (h.axes(1), 'position');
%!   fig = get (h.figure, 'position');
%!   line_h = 2.4 * fs / (pos(4) * fig(4));                 % a text line, in axes units
%!   assert (all (diff (y) >= line_h * (1 - 1e-9)));
%!   % the names stay beside their panel: within half the gaps above and below it
%!   assert (y(1) >= -0.5 && y(end) <= 1.5);
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect

%!test
%! % two coordinates with different units ending at one value: "mixed units" on the axis, each
%! % name with its unit, the two names apart
%! two = struct ('t', six.t, 'q', [sin(six.t), sin(six.t) + 1e-3], 'names', {{'x', 'y'}});
%! h = varmech_plot (two, 'Units', {'m', 'rad'}, 'Visible', 'off');
%! unwind_protect
%!   assert (get (get (h.axes(1), 'ylabel'), 'string'), 'q (mixed units)');
%!   t = name_texts (h.axes(1));
%!   assert (sort (get (t, 'string'))', {'x (m)', 'y (rad)'});
%!   y = cellfun (@(p) p(2), get (t, 'position'));
%!   assert (abs (diff (y)) > 0.05);
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect

%!test
%! % first order: states dimensionless unless Units are given, no unit of time, the duals only
%! % on request
%! h = varmech_plot (so, 'Visible', 'off');
%! unwind_protect
%!   assert (h.panels, {'y'});
%!   assert (get (get (h.axes(1), 'ylabel'), 'string'), 'y (dimensionless)');
%!   assert (get (get (h.axes(1), 'xlabel'), 'string'), 't');
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect
%! h = varmech_plot (so, 'Units', {'m', 'm'}, 'TimeUnit', 'ms', 'Panels', {'y', 'D'}, 'Visible', 'off');
%! unwind_protect
%!   assert (get (get (h.axes(1), 'ylabel'), 'string'), 'y (m)');
%!   assert (get (get (h.axes(2), 'ylabel'), 'string'), 'duals D');
%!   assert (get (get (h.axes(2), 'xlabel'), 'string'), 't (ms)');
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect

%!test
%! % a periodic orbit: its period in the title, no unit of time unless one is given
%! assert (po.exitflag, 1);
%! h = varmech_plot (po, 'Visible', 'off');
%! unwind_protect
%!   assert (get (get (h.axes(1), 'title'), 'string'), sprintf ('periodic_orbit, T = %.5g', po.T));
%!   assert (get (get (h.axes(1), 'xlabel'), 'string'), 't');
%!   assert (get (h.axes(1), 'xlim'), [po.t(1), po.t(end)]);
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect
%! h = varmech_plot (po, 'TimeUnit', 's', 'Labels', {'Van der Pol'}, 'Visible', 'off');
%! unwind_protect
%!   assert (get (get (h.axes(1), 'title'), 'string'), sprintf ('Van der Pol, T = %.5g s', po.T));
%!   assert (get (get (h.axes(1), 'xlabel'), 'string'), 't (s)');
%! unwind_protect_cleanup
%!   close (h.figure);
%! end_unwind_protect

%!test
%! % with 'Png' the figure is drawn off-screen even when 'Visible' is 'on'
%! file = [tempname() '.png'];
%! h = varmech_plot (sp, 'Png', file, 'Visible', 'on');
%! unwind_protect
%!   assert (get (h.figure, 'visible'), 'off');
%!   assert (exist (file, 'file'), 2);
%! unwind_protect_cleanup
%!   close (h.figure);
%!   delete (file);
%! end_unwind_protect

%!test
%! % headless octave-cli (no DISPLAY): nothing printed to the terminal, with 'Png' and without
%! % (the gnuplot toolkit draws a visible figure as text on a terminal without a display)
%! if (~isunix ())
%!   return;
%! end
%! file = [tempname() '.png'];
%! code = sprintf (['addpath (''%s''); addpath (''%s''); ' ...
%!   's = struct (''t'', (0:0.1:1)'', ''q'', (0:0.1:1)''); ' ...
%!   'varmech_plot (s, ''Png'', ''%s''); varmech_plot (s); disp (''DONE'')'], ...
%!   fileparts (which ('varmech_plot')), fileparts (which ('vm_options_mex')), file);
%! exe = fullfile (OCTAVE_HOME (), 'bin', 'octave-cli');
%! if (~exist (exe, 'file'))
%!   exe = 'octave-cli';
%! end
%! [st, out] = system (sprintf ('env -u DISPLAY -u WAYLAND_DISPLAY "%s" --no-gui --norc --quiet --eval "%s" 2>/dev/null', ...
%!                              exe, code));
%! unwind_protect
%!   assert (st, 0);
%!   assert (strtrim (out), 'DONE');
%!   assert (exist (file, 'file'), 2);
%! unwind_protect_cleanup
%!   if (exist (file, 'file'))
%!     delete (file);
%!   end
%! end_unwind_protect
