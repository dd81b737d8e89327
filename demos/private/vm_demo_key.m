% -*- texinfo -*-
% @deftypefn  {} {} vm_demo_key (@var{specs}, @var{labels}, @var{fs}, @var{ncol})
% @deftypefnx {} {} vm_demo_key (@var{specs}, @var{labels}, @var{fs}, @var{ncol}, @var{pos})
% @deftypefnx {} {} vm_demo_key (@var{specs}, @var{labels}, @var{fs}, @var{ncol}, @var{pos}, @var{interp})
% A legend in a strip of its own, off the data.
%
% Invisible axes hold one entry per element of @var{specs}, a cell array of cell arrays of
% @code{plot} arguments (for example @code{@{'--', 'color', [0, 0, 1]@}} or @code{@{'o', 'color',
% 'k', 'linestyle', 'none'@}}): a short sample line (its marker in the middle) followed by the
% string @var{labels}@{k@} at the font size @var{fs}, laid out row by row in @var{ncol} columns,
% each as wide as its longest label needs (0.72 text heights per character, the mean
% width of the default sans font) and the space left
% shared out evenly.  The strip spans the width of the figure at its top, 1.6 text heights per
% row from 0.4 below the top edge (text heights as in @code{vm_demo_subplot}): the panels below
% reserve it with a top margin of 3.4 + 1.6 ceil (numel (@var{specs}) / @var{ncol}) + 1 text
% heights (a title, the rows, a gap).  @var{pos} = [left, bottom, width, height] (normalized figure units) puts the strip
% elsewhere (@code{[]}: the top strip).  The labels are drawn with the TeX interpreter unless
% @var{interp} is @code{'none'} (needed for a literal underscore: Octave's gnuplot toolkit does
% not honour @code{\_}).  The current axes are left as they were.
%
% A legend inside the axes covers curves or forces empty ranges to make room for it; a strip of
% its own does neither, and drawing the entries as lines and text keeps the layout the same under
% every graphics toolkit.
% @seealso{vm_demo_subplot, vm_demo_png}
% @end deftypefn

function vm_demo_key (specs, labels, fs, ncol, pos, interp)
  fig = get (gcf, 'position');
  if exist ('OCTAVE_VERSION', 'builtin') > 0
    px = fs * fig(3) / 432;
  else
    px = fs * 100 / 72;
  end
  n = numel (specs);
  nrow = ceil (n / ncol);
  if nargin < 6
    interp = 'tex';
  end
  if nargin < 5 || isempty (pos)
    th = px / fig(4);
    pos = [0.01, 1 - (0.4 + 1.6 * nrow) * th, 0.98, 1.6 * nrow * th];
  end
  old = get (gcf, 'currentaxes');
  ax = axes ('position', pos);
  hold (ax, 'on');
  % column widths in characters: the longest label of the column and 6 for the sample
  nch = zeros (1, ncol);
  for k = 1:n
    c = k - (ceil (k / ncol) - 1) * ncol;
    nch(c) = max (nch(c), numel (labels{k}) + 6);
  end
  cw = 0.72 * px / (pos(3) * fig(3));
  need = nch * cw;
  spare = max (0, 1 - sum (need)) / ncol;
  x0 = [0, cumsum(need + spare)];
  sl = 4 * cw;
  for k = 1:n
    r = ceil (k / ncol);
    c = k - (r - 1) * ncol;
    xa = x0(c) + 0.5 * cw;
    xb = xa + sl;
    y = 1 - (r - 0.5) / nrow;
    h = plot (ax, [xa, xb], [y, y], specs{k}{:});
    if ~strcmp (get (h, 'marker'), 'none')
      set (h, 'marker', 'none');
      plot (ax, (xa + xb) / 2, y, specs{k}{:}, 'linestyle', 'none');
    end
    text (xb + cw, y, labels{k}, 'parent', ax, 'fontsize', fs, 'verticalalignment', 'middle', ...
          'interpreter', interp);
  end
  hold (ax, 'off');
  set (ax, 'visible', 'off', 'xlim', [0, 1], 'ylim', [0, 1]);
  if ~isempty (old)
    set (gcf, 'currentaxes', old);
  end
end
