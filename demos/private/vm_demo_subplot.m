% -*- texinfo -*-
% @deftypefn  {} {[@var{ax}, @var{th}] =} vm_demo_subplot (@var{nrows}, @var{ncols}, @var{k}, @var{fs})
% @deftypefnx {} {@var{ax} =} vm_demo_subplot (@dots{}, @var{margins})
% @deftypefnx {} {@var{ax} =} vm_demo_subplot (@dots{}, @var{margins}, @var{top})
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
% x label below, a title above).  @var{top} (default 0) text heights at the top of the figure are
% left free for a key (@code{vm_demo_key}); the grid fills the rest.  @var{th} is the text height
% in normalized figure units (to place a key above a panel).
% @seealso{vm_demo_png}
% @end deftypefn

function [ax, th] = vm_demo_subplot (nrows, ncols, k, fs, margins, top)
  if nargin < 5 || isempty (margins)
    margins = [9.5, 2, 5.6, 3.4];
  end
  if nargin < 6
    top = 0;
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
  hgrid = 1 - top * th;
  cellh = hgrid / nrows;
  x0 = (c - 1) * cellw + margins(1) * tw;
  y0 = hgrid - r * cellh + margins(3) * th;
  w = cellw - (margins(1) + margins(2)) * tw;
  h = cellh - (margins(3) + margins(4)) * th;
  ax = subplot ('position', [x0, y0, w, h]);
end
