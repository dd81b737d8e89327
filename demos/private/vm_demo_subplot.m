% -*- texinfo -*-
% @deftypefn  {} {@var{ax} =} vm_demo_subplot (@var{nrows}, @var{ncols}, @var{k}, @var{fs})
% @deftypefnx {} {@var{ax} =} vm_demo_subplot (@dots{}, @var{margins})
% Axes @var{k} (counted row by row, as @code{subplot}) of a @var{nrows} by
% @var{ncols} grid, with room around each for its title, tick labels and axis
% labels at the font size @var{fs} (points), so that the x label of one
% panel does not run into the title of the panel below.
%
% The room is measured in text heights of the figure: Octave's gnuplot
% toolkit scales fonts with the width of the printed figure (a font of
% @var{fs} points is drawn @var{fs} W/432 pixels high, W the width in
% pixels), MATLAB prints at 100 dpi (@var{fs} 100/72 pixels).  The figure
% position must be the printed size (@code{vm_demo_png} sets it).
% @var{margins} = [left, right, bottom, top] in text heights (default
% [9.5, 2, 5.6, 3.4]: tick labels and a y label on the left, tick labels and an
% x label below, a title above).
% @seealso{vm_demo_png}
% @end deftypefn

function ax = vm_demo_subplot (nrows, ncols, k, fs, margins)
  if nargin < 5
    margins = [9.5, 2, 5.6, 3.4];
  end
  pos = get (gcf, 'position');
  if exist ('OCTAVE_VERSION', 'builtin') > 0
    px = fs * pos(3) / 432;
  else
    px = fs * 100 / 72;
  end
  tw = px / pos(3);
  th = px / pos(4);
  r = ceil (k / ncols);
  c = k - (r - 1) * ncols;
  cellw = 1 / ncols;
  cellh = 1 / nrows;
  x0 = (c - 1) * cellw + margins(1) * tw;
  y0 = 1 - r * cellh + margins(3) * th;
  w = cellw - (margins(1) + margins(2)) * tw;
  h = cellh - (margins(3) + margins(4)) * th;
  ax = subplot ('position', [x0, y0, w, h]);
end
