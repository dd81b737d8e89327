% -*- texinfo -*-
% @deftypefn  {} {@var{files} =} vm_demo_png (@var{opt}, @var{names}, @var{drawfun})
% @deftypefnx {} {@var{files} =} vm_demo_png (@var{opt}, @var{names}, @var{drawfun}, @var{size})
% Write the figures of a demo as PNG files.
%
% @var{opt} is the result of @code{vm_demo_args}: nothing is done (and
% @var{files} is @code{@{@}}) when @code{@var{opt}.png} is empty.  Otherwise the
% directory @code{@var{opt}.png} is created if missing and, for every name in
% the cell array of strings @var{names}, @code{@var{drawfun} (@var{name})}
% draws into a new invisible figure, which is written to
% @file{@var{demo}_@var{name}.png} (@var{demo} = @code{@var{opt}.demo}; a
% single figure with @var{names} = @code{''} is written to
% @file{@var{demo}.png}) and closed.  @var{size} is the size in pixels
% (default @code{[800, 600]}).  Octave prints with @code{-dpngcairo} under
% the gnuplot toolkit (its @code{-dpng} needs Ghostscript) and with
% @code{-dpng} otherwise; MATLAB with @code{-dpng} at 100 dpi.  Unless
% @code{@var{opt}.quiet}, the written files are listed.  @var{files} is a
% cell array of the file names.
%
% Each figure is created with its position set to the printed size, so that
% @code{vm_demo_subplot} can lay out its panels.  The gnuplot toolkit's
% warning (@code{Octave:gnuplot-graphics}) is switched off while the figures
% are drawn and its state restored afterwards.
%
% A failure closes the figure, restores the figure visibility and the warning
% state and raises an error prefixed with @var{demo}.
% @seealso{vm_demo_args, vm_demo_subplot}
% @end deftypefn

function files = vm_demo_png (opt, names, drawfun, sz)
  files = {};
  if isempty (opt.png)
    return;
  end
  if nargin < 4
    sz = [800, 600];
  end
  if ischar (names)
    names = {names};
  end
  if ~exist (opt.png, 'dir')
    mkdir (opt.png);
  end
  files = cell (1, numel (names));
  for k = 1:numel (names)
    if isempty (names{k})
      files{k} = fullfile (opt.png, [opt.demo, '.png']);
    else
      files{k} = fullfile (opt.png, [opt.demo, '_', names{k}, '.png']);
    end
  end
  % Octave warns on every figure drawn with the gnuplot toolkit (the only one of a headless
  % octave-cli); the warning is switched off before the first figure () and its state restored
  % at the end (MATLAB has no such warning: the call is guarded)
  isoct = exist ('OCTAVE_VERSION', 'builtin') > 0;
  if isoct
    wstate = warning ('query', 'Octave:gnuplot-graphics');
    warning ('off', 'Octave:gnuplot-graphics');
  end
  oldvis = get (0, 'defaultfigurevisible');
  set (0, 'defaultfigurevisible', 'off');
  fig = [];
  k = 1;
  try
    for k = 1:numel (names)
      % the figure's position is the printed size (vm_demo_subplot reads it)
      fig = figure ('position', [50, 50, sz]);
      drawfun (names{k});
      if ~isoct
        set (fig, 'PaperPosition', [0, 0, sz / 100]);
        print (fig, files{k}, '-dpng', '-r100');
      elseif strcmp (get (fig, '__graphics_toolkit__'), 'gnuplot')
        print (fig, files{k}, '-dpngcairo', sprintf ('-S%d,%d', sz));
      else
        print (fig, files{k}, '-dpng', sprintf ('-S%d,%d', sz));
      end
      close (fig);
      fig = [];
    end
  catch err
    if ~isempty (fig) && ishandle (fig)
      close (fig);
    end
    set (0, 'defaultfigurevisible', oldvis);
    if isoct
      warning (wstate.state, 'Octave:gnuplot-graphics');
    end
    error ('%s: could not write %s: %s (headless Octave on Debian needs the fonts-freefont-otf package)', ...
           opt.demo, files{k}, err.message);
  end
  set (0, 'defaultfigurevisible', oldvis);
  if isoct
    warning (wstate.state, 'Octave:gnuplot-graphics');
  end
  if ~opt.quiet
    fprintf ('figures written: %s\n', strjoin (files, ', '));
  end
end
