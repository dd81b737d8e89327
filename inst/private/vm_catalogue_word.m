% -*- texinfo -*-
% @deftypefn {} {@var{po} =} vm_catalogue_word (@var{ode}, @var{marks}, @var{word}, @var{itin}, @var{opts})
% The periodic orbit whose itinerary is the prime word @var{word}, for @code{periodic_catalogue}.
% @var{itin}: the itinerary of a long trajectory (@code{te}, @code{ye}: its section crossings;
% @code{sym}: their symbols, a char row).  @var{opts}: the catalogue's options (Tries,
% PeriodTol, FlowTol, RelTol, Points).
%
% Guesses: the stretches of the trajectory from a crossing i to crossing i + L (L the word's
% length) whose symbols spell a rotation of the word, ranked by how far the itinerary around
% them repeats that rotation periodically (the smaller of the matching letters before and
% after: a trajectory that follows the orbit for m more loops on both sides is close to it, by
% the flow's contraction along the stable and its expansion along the unstable directions), then
% by how nearly they close.  For the best "Tries" in turn, the word's orbit is first found by
% multiple shooting between the stretch's crossings with the nodes held on the section
% (@code{vm_section_shoot}: the word cannot change on the way), and that orbit is handed to
% @code{periodic_orbit}; when the shooting fails from every stretch, the best stretch itself is
% (periodic_orbit's own search).  An orbit is accepted when it converged (exitflag 1), closes once in T and its own upward
% crossings spell a rotation of the word.
%
% @var{po}: a struct with @code{word}, @code{T}, @code{y0} (the orbit's point on the section
% where @var{word} starts), @code{floquet} (multipliers, leading first), @code{exitflag} (1
% found, 0 not), @code{message} (why not, or "found"), @code{period_error}, @code{tries}
% (stretches tried) and @code{time} (seconds).  Cost: one to Tries solves of periodic_orbit.
% @end deftypefn

function po = vm_catalogue_word (ode, marks, word, itin, opts)
  t_start = tic;
  L = numel (word);
  n = size (itin.ye, 2);
  po = struct ('word', word, 'T', NaN, 'y0', NaN (1, n), 'floquet', zeros (0, 1), ...
               'exitflag', 0, 'message', '', 'period_error', NaN, 'tries', 0, 'time', 0);
  [start, score] = occurrences (word, itin.sym);
  if (isempty (start))
    po.message = sprintf (['not in the itinerary of the trajectory (%d crossings): no stretch ' ...
                           'to start from; raise Duration'], numel (itin.sym));
    po.time = toc (t_start);
    return;
  end
  gap = sqrt (sum ((itin.ye(start + L, :) - itin.ye(start, :)).^2, 2));
  [~, o] = sortrows ([-score(:), gap(:)]);
  start = start(o);
  why = {};
  raw = {};
  shot = false;
  for k = 1:min (opts.Tries, numel (start))
    i = start(k);
    po.tries = k;
    Tq = itin.te(i + L) - itin.te(i);
    tq = vm_curve_times (ode, Tq, itin.ye(i, :), opts.Points, opts.RelTol);
    f = vm_flow (ode, 0, Tq, itin.ye(i, :), tq, [], opts.RelTol);
    if (isempty (tq) || f.status ~= 0)
      why{end + 1} = 'the stretch could not be integrated'; %#ok<AGROW>
      continue;
    end
    if (isempty (raw))
      raw = {tq, f.y};
    end
    % the word's orbit by shooting between the stretch's crossings, the nodes held on the section
    [ts, ys, info] = vm_section_shoot (ode, marks, itin.ye(i:i + L - 1, :), ...
                                       diff (itin.te(i:i + L))', max (f.y) - min (f.y), opts);
    if (isempty (ts))
      why{end + 1} = ['shooting between its crossings: ' info.reason]; %#ok<AGROW>
      continue;
    end
    shot = true;
    [po, why] = solve (po, ode, marks, word, ts, ys, 'off', opts, why);
    if (po.exitflag == 1)
      po.time = toc (t_start);
      return;
    end
  end
  if (~shot && ~isempty (raw))        % no shooting converged: the dual solve from the best stretch
    [po, why] = solve (po, ode, marks, word, raw{1}, raw{2}, 'on', opts, why);
    if (po.exitflag == 1)
      po.time = toc (t_start);
      return;
    end
  end
  po.message = sprintf ('not found from %d stretch(es) of the trajectory: %s', po.tries, ...
                        strjoin (unique (why, 'stable'), '; '));
  po.time = toc (t_start);
end

% periodic_orbit from the curve (tq, yq), its own warm start on or off (off for an orbit already
% shot); po filled when the result is the word's orbit, else the reason appended to why
function [po, why] = solve (po, ode, marks, word, tq, yq, warm, opts, why)
  sol = periodic_orbit (ode, tq, yq, 'PeriodTol', opts.PeriodTol, 'FlowTol', opts.FlowTol, ...
                        'WarmStart', warm);
  [ok, reason, y0] = accept (sol, marks, word);
  if (ok)
    po.T = sol.T;
    po.y0 = y0;
    po.floquet = sol.floquet(:);
    po.exitflag = 1;
    po.message = 'found';
    po.period_error = sol.period_error;
  else
    why{end + 1} = reason;
  end
end

% The crossings i at which the symbols i .. i+L-1 spell a rotation of word (with a crossing
% i + L after them), and the score of each: the smaller of the numbers of letters before and
% after that continue the rotation periodically (at most 3 L each way)
function [start, score] = occurrences (word, sym)
  L = numel (word);
  ns = numel (sym);
  start = [];
  score = [];
  for r = 0:L - 1
    w = word([r + 1:L, 1:r]);
    i = strfind (sym(1:max (0, ns - 1)), w);
    i = i(i + L <= ns);
    if (isempty (i))
      continue;
    end
    back = count_matches (sym, w, i, -1, L);
    fwd = count_matches (sym, w, i, +1, L);
    start = [start, i]; %#ok<AGROW>
    score = [score, min(back, fwd)]; %#ok<AGROW>
  end
end

% for each start i, how many letters before (dir -1) or after the word (dir +1) continue the
% periodic extension of w, up to 3 L
function c = count_matches (sym, w, i, dir, L)
  ns = numel (sym);
  c = zeros (size (i));
  going = true (size (i));
  for m = 1:3 * L
    if (dir < 0)
      pos = i - m;
      letter = w(mod (-m, L) + 1);
    else
      pos = i + L - 1 + m;
      letter = w(mod (m - 1, L) + 1);
    end
    inside = pos >= 1 & pos <= ns;
    hit = false (size (i));
    hit(inside) = sym(pos(inside)) == letter;
    going = going & hit;
    c = c + going;
    if (~any (going))
      break;
    end
  end
end

% whether sol is the orbit of word: converged, one traversal, and its crossings spell a rotation
% of word; y0 is then its crossing where word starts
function [ok, reason, y0] = accept (sol, marks, word)
  ok = false;
  y0 = [];
  if (sol.exitflag ~= 1)
    reason = sol.message;
    return;
  end
  if (sol.repetitions > 1)
    reason = sprintf ('periodic_orbit converged to an orbit that closes %d times in T', ...
                      sol.repetitions);
    return;
  end
  N = size (sol.y, 1) - 1;
  [~, yc, sym] = vm_orbit_crossings (marks, sol.y(1:N, :), sol.T);
  L = numel (word);
  r = [];
  if (numel (sym) == L)
    r = find (arrayfun (@(q) strcmp (sym([q:L, 1:q - 1]), word), 1:L), 1);
  end
  if (isempty (r))
    reason = sprintf ('periodic_orbit converged to the orbit of itinerary %s', cyclic_min (sym));
    return;
  end
  ok = true;
  reason = '';
  y0 = yc(r, :);
end

% the smallest rotation of a cyclic word (its name in the catalogue's order); '-' when empty
function w = cyclic_min (sym)
  if (isempty (sym))
    w = '- (no crossing)';
    return;
  end
  L = numel (sym);
  w = sym;
  for q = 2:L
    c = sym([q:L, 1:q - 1]);
    if (lt_word (c, w))
      w = c;
    end
  end
end

function yes = lt_word (a, b)
  d = find (a ~= b, 1);
  yes = ~isempty (d) && a(d) < b(d);
end
