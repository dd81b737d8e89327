% -*- texinfo -*-
% @deftypefn  {} {orbits =} periodic_catalogue (ode, y0, 'Section', h, 'Symbol', s, 'MaxLength', L)
% @deftypefnx {} {orbits =} periodic_catalogue (..., name, value, ...)
% @deftypefnx {} {[orbits, info] =} periodic_catalogue (...)
% @deftypefnx {} {[orbits, info] =} periodic_catalogue ('merge', folder)
% Every periodic orbit of an autonomous ODE whose itinerary is a prime word of length 2 to L:
% the orbits a chaotic attractor holds, found one per word by @code{periodic_orbit}.  Options:
% @multitable @columnfractions .2 .8
% @item "Section" @tab h(x), crossed where h goes from negative to positive (required)
% @item "Symbol" @tab s(x): a crossing is A where s < 0, B where s > 0 (required)
% @item "MaxLength" @tab the longest word (default 6)
% @item "Checkpoint" @tab a folder: each chunk's result written there, a rerun resumes
% @item "Chunk" @tab [k n]: run chunk k of n alone (a cluster's job array)
% @item "Parallel" @tab "auto" (default: parcellfun when installed) or "off"
% @end multitable
% Each element of @var{orbits} is one word, in the order of length and then A < B:
% @code{word}, @code{T} (the period), @code{y0} (the orbit's point on the section where the word
% starts), @code{floquet} (multipliers, leading first), @code{exitflag} (1 found, 0 not) and
% @code{message} (why not).  @var{info} counts the words and the orbits found per length and
% names the words not found.  Example (Lorenz, section z = 27, symbol x; the orbits AB, AAB,
% ABB, AAAB, AABB, ABBB):
% @verbatim
% lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%   'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
% [orbits, info] = periodic_catalogue (lor, [1 1 1], 'Section', 'z - 27', 'Symbol', 'x', ...
%   'MaxLength', 4);
% for k = 1:numel (orbits)
%   fprintf ('%-5s T = %.13f  leading multiplier %.6g\n', orbits(k).word, orbits(k).T, ...
%            orbits(k).floquet(1));
% end
% @end verbatim
%
% @strong{Symbols and words.}  A trajectory of @var{ode} (an @code{odesys} with differential
% states only, right-hand sides free of t) crosses the section upwards again and again; the
% symbols of its crossings, read in order, are its itinerary.  A periodic orbit has a periodic
% itinerary: a prime word (not a power of a shorter one) read round and round.  A word and its
% rotations are one orbit, named by its smallest rotation (a Lyndon word: AB, AAB, ABB, ...); a
% word and its mirror (A and B swapped) are two orbits.  There are (1/k) sum over d | k of
% mobius(d) 2^(k/d) prime words of length k: 1, 2, 3, 6, 9, 18, 30, 56, 99 for k = 2 to 10.
% Which of them a flow realizes depends on the flow; on Lorenz (10, 28, 8/3) with the section
% z = 27 and the symbol x, every one up to length 10 is an orbit.
%
% @strong{Method.}  The trajectory from @var{y0} is integrated by the package's DOP853 integrator
% ("RelTol"); after the "Transient" its crossings are located (cubic Hermite interpolation of
% the steps, Newton on h) and read.  With "Duration" empty (default) it is integrated in
% pieces until every prime word up to MaxLength occurs in the itinerary and it has at least
% max (2000, 16 2^MaxLength) crossings (so that the best stretch of a word follows its orbit for
% some loops before and after), or until max (8000, 64 2^MaxLength) crossings.  For each word, the stretches
% of the trajectory whose symbols spell a rotation of it are ranked by how long the
% itinerary around them keeps repeating that rotation (a trajectory that follows an orbit for
% more loops before and after is closer to it), and the best "Tries" are handed in turn to
% @code{periodic_orbit} (with "PeriodTol" and "FlowTol").  A result is kept when it converged,
% closes once in its period, and its own crossings (on its trigonometric interpolant) spell a
% rotation of the word; @code{y0} is its crossing where the word starts.  The same
% @var{y0}, options and system give the same trajectory, the same guesses and the same orbits
% in any process, which is what lets a catalogue be split.
%
% @strong{Runs that split.}  The words are dealt into "Chunks" chunks (word j into chunk
% mod (j - 1, Chunks) + 1, so each chunk has words of every length).  With the Octave package
% @code{parallel} installed (Debian: @code{octave-parallel}), the chunks run in parallel with
% @code{parcellfun} on all cores; without it, or with "Parallel" "off", one by one.  With
% "Checkpoint" set to a folder, each chunk's result is written there as it finishes
% (@file{chunk_K_of_N.mat}), and a rerun with the same folder, system and options loads the
% chunks already done and computes the rest.  "Chunk" [k n] runs chunk k of n alone (and writes
% it to the Checkpoint folder when one is given): one task of a job array.  The call
% @code{periodic_catalogue ('merge', folder)} gathers the n chunk files of a folder into the
% catalogue, as one run would have returned it, and says which chunks are missing.  A job script
% for SLURM is in README.md.
%
% Options:
% @table @asis
% @item "Section"
% the expression h(x) in the states and parameters; a crossing is where h goes from negative to
% non-negative along the trajectory (required).
% @item "Symbol"
% the expression s(x): the symbol of a crossing is A where s < 0 and B where s >= 0 (required).
% @item "MaxLength"
% the longest word, 2 to 24 (default 6).
% @item "Duration", "Transient"
% the time integrated for the itinerary after the transient, and the transient (defaults:
% chosen as above; the transient is 1000 times the flow's time scale 1/max|eig(dF/dx(y0))|).
% @item "RelTol"
% relative tolerance of the integration of the trajectory and the guesses (default 1e-10).
% @item "Tries"
% the stretches tried per word, best first (default 3).
% @item "Points"
% equispaced points of each stretch handed to periodic_orbit, besides the integrator's steps
% (default 200).
% @item "PeriodTol", "FlowTol"
% passed to @code{periodic_orbit} (defaults 1e-10 and 1e-12).
% @item "Chunks", "Chunk", "Checkpoint", "Parallel"
% the number of chunks (default 8); [k n] to run chunk k of n alone (default []: all); a folder
% for the chunks' results (default '': none); "auto" or "off" (above).
% @item "Display"
% "off" (default), "final" (a summary), "iter" (one line per word as it ends, and the summary).
% @end table
%
% Fields of each element of @var{orbits}: @code{word}, @code{T}, @code{y0}, @code{floquet},
% @code{exitflag}, @code{message} (above); @code{period_error} (periodic_orbit's estimate),
% @code{tries} (stretches tried) and @code{time} (seconds).  Words not found have T = NaN.
% Fields of @var{info}: @code{length} (2:L), @code{words} and @code{found} (per length),
% @code{missing} (a cell array, "WORD: why" for each word not found), @code{crossings} and
% @code{duration} (of the itinerary; NaN when every chunk was loaded), @code{chunks} (n), @code{computed} and
% @code{loaded} (the chunks computed by this call and those read from the folder),
% @code{processes}, @code{time} (seconds).
%
% Errors: a missing or empty Section or Symbol, one that does not compile as an expression in
% the states and parameters, a trajectory that crosses the section fewer than 20 times, a
% Checkpoint folder that holds chunks of another catalogue (another system, y0 or options),
% and a merge with chunks missing, each say what to change.
% @seealso{periodic_orbit, periodic_guesses, odesys}
% @end deftypefn

function [orbits, info] = periodic_catalogue (ode, y0, varargin)
  fname = 'periodic_catalogue';
  t_start = tic;
  if (nargin >= 1 && ischar (ode) && strcmp (ode, 'merge'))
    if (nargin ~= 2 || ~vm_isrow_string (y0))
      vm_badarg (fname, 'merge takes one folder: periodic_catalogue (''merge'', folder)');
    end
    [orbits, info] = merge_chunks (fname, y0, t_start);
    return;
  end
  if (nargin < 2)
    vm_badarg (fname, 'expected at least 2 inputs: ode, y0 (see help periodic_catalogue)');
  end
  y0 = vm_check_flow_system (fname, ode, 'xdot = F(x)', y0);
  n = ode.nd;
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  [nchunks, only] = check_chunks (fname, opts, vm_option_given (varargin, 'Chunks'));
  marks = compile_marks (fname, ode, opts);
  [words, count] = vm_prime_words (opts.MaxLength);
  key = problem_key (ode, y0, opts, nchunks);
  folder = opts.Checkpoint;
  if (~vm_isrow_string (folder) && ~isempty (folder))
    vm_badarg (fname, 'Checkpoint must be a folder name (a string); got %s', vm_describe (folder));
  end
  runs = only;
  if (isempty (runs))
    runs = 1:nchunks;
  end
  results = cell (1, nchunks);
  loaded = [];
  if (~isempty (folder))
    if (~exist (folder, 'dir') && ~mkdir (folder))
      error ('varmech:periodic_catalogue:checkpoint', ...
             '%s: the Checkpoint folder %s cannot be made; give a writable folder', fname, folder);
    end
    for k = runs
      [res, ok] = load_chunk (fname, folder, k, nchunks, key);
      if (ok)
        results{k} = res;
        loaded(end + 1) = k; %#ok<AGROW>
      end
    end
  end
  todo = setdiff (runs, loaded);
  info = struct ('length', 2:opts.MaxLength, 'words', count(2:end), 'found', [], ...
                 'missing', {{}}, 'crossings', NaN, 'duration', NaN, 'chunks', nchunks, ...
                 'computed', todo, 'loaded', loaded, 'processes', 1, 'time', 0);
  if (~isempty (todo))
    itin = itinerary (fname, ode, marks, y0, opts, words);
    info.crossings = numel (itin.sym);
    info.duration = itin.duration;
    files = repmat ({''}, 1, nchunks);
    if (~isempty (folder))
      files = arrayfun (@(k) chunk_file (folder, k, nchunks), 1:nchunks, 'UniformOutput', false);
    end
    chunk = @vm_catalogue_chunk;   % bound here: parcellfun calls it from outside inst/private
    job = @(k) chunk (ode, marks, words(k:nchunks:end), itin, opts, files{k}, key);
    np = processes (opts, numel (todo));
    info.processes = np;
    if (np > 1)
      out = feval ('parcellfun', np, job, num2cell (todo), 'UniformOutput', false, ...
                   'VerboseLevel', 0, 'ErrorHandler', @(e, varargin) {e.message});
    else
      out = cell (1, numel (todo));
      for j = 1:numel (todo)
        out{j} = job (todo(j));
      end
    end
    for j = 1:numel (todo)
      if (iscell (out{j}))            % the ErrorHandler's mark of a chunk that failed
        error ('varmech:periodic_catalogue:chunk', '%s: chunk %d of %d failed: %s', fname, ...
               todo(j), nchunks, out{j}{1});
      end
    end
    results(todo) = out;
  end
  orbits = gather (results(runs), words, nchunks, runs);
  info = summary (info, orbits, words, opts, toc (t_start));
end

% 'Chunk' [k n] (one chunk) or 'Chunks' n (all): the number of chunks and the one to run ([] all)
function [nchunks, only] = check_chunks (fname, opts, gave_chunks)
  nchunks = opts.Chunks;
  only = [];
  c = opts.Chunk;
  if (isempty (c))
    return;
  end
  if (~isnumeric (c) || issparse (c) || ~isreal (c) || numel (c) ~= 2 || any (~isfinite (c)) ...
      || any (c ~= round (c)) ...
      || c(2) < 1 || c(1) < 1 || c(1) > c(2))
    vm_badarg (fname, 'Chunk must be [k n] with integers 1 <= k <= n; got %s', vm_describe (c));
  end
  if (gave_chunks && opts.Chunks ~= c(2))
    vm_badarg (fname, 'Chunk [%d %d] has %d chunks but Chunks is %d; give one of them', ...
               c(1), c(2), c(2), opts.Chunks);
  end
  nchunks = double (c(2));
  only = double (c(1));
end

% an odesys in the same states and parameters whose first right-hand sides are h and s
function marks = compile_marks (fname, ode, opts)
  for name = {'Section', 'Symbol'}
    e = opts.(name{1});
    if (~vm_isrow_string (e) || isempty (strtrim (e)))
      vm_badarg (fname, ['%s must be an expression in the states (%s), as a string; got %s ' ...
                         '(for Lorenz: ''Section'', ''z - 27'', ''Symbol'', ''x'')'], name{1}, ...
                 strjoin (ode.states, ', '), vm_describe (e));
    end
  end
  rhs = [{opts.Section, opts.Symbol}, repmat({'0'}, 1, max (0, ode.nd - 2))];
  try
    marks = odesys ('states', ode.states, 'parameters', ode.parameters, 'rhs', rhs(1:max (2, ode.nd)));
  catch err
    vm_badarg (fname, ['the Section ''%s'' or the Symbol ''%s'' is not an expression in the ' ...
                       'states and parameters: %s'], opts.Section, opts.Symbol, err.message);
  end
end

% What makes two runs the same catalogue: a chunk file is reused only for an equal key
function key = problem_key (ode, y0, opts, nchunks)
  key = struct ('model', ode.compiled, 'parameters', vm_param_vector (ode, 'periodic_catalogue', 'ode'), ...
                'y0', y0, 'Section', opts.Section, 'Symbol', opts.Symbol, ...
                'MaxLength', opts.MaxLength, 'Duration', opts.Duration, 'Transient', opts.Transient, ...
                'RelTol', opts.RelTol, 'Tries', opts.Tries, 'Points', opts.Points, ...
                'PeriodTol', opts.PeriodTol, 'FlowTol', opts.FlowTol, 'Chunks', nchunks);
end

% The itinerary: the trajectory from y0 integrated in pieces, its crossings located and read
function itin = itinerary (fname, ode, marks, y0, opts, words)
  J = odesys_eval (ode, 0, y0);
  rate = max (abs (eig (reshape (J.F_y, ode.nd, ode.nd))));
  if (~(rate > 0) || ~isfinite (rate))
    vm_badarg (fname, 'y0 is an equilibrium with a zero Jacobian (no time scale); start off it');
  end
  piece = 2000 / rate;
  transient = opts.Transient;
  if (isempty (transient))
    transient = piece / 2;
  end
  L = opts.MaxLength;
  te = zeros (0, 1);
  ye = zeros (0, ode.nd);
  sym = '';
  t = 0;
  x = y0;
  seen = false (1, numel (words));
  while (true)
    if (~isempty (opts.Duration))
      t1 = min (t + piece, transient + opts.Duration);
    else
      t1 = t + piece;
    end
    f = vm_flow (ode, t, t1, x, [], [], opts.RelTol);
    if (f.status ~= 0)
      error ('varmech:periodic_catalogue:flow', ['%s: the integration of the trajectory from y0 ' ...
             'failed at t = %g: %s; start y0 on the attractor or loosen RelTol'], fname, f.t(end), ...
             f.message);
    end
    F = odesys_eval (ode, 0, f.y);
    [tc, yc, sc] = vm_section_crossings (marks, f.t(:), f.y, F.F);
    keep = tc >= transient;
    te = [te; tc(keep)]; %#ok<AGROW>
    ye = [ye; yc(keep, :)]; %#ok<AGROW>
    sym = [sym, sc(keep)]; %#ok<AGROW>
    t = t1;
    x = f.y(end, :);
    if (~isempty (opts.Duration))
      if (t >= transient + opts.Duration)
        break;
      end
    elseif (t > transient)
      nc = numel (sym);
      if (nc >= max (2000, 16 * 2^L))
        seen = occurring (words, sym, seen);
      end
      if (nc >= max (8000, 64 * 2^L) || all (seen))
        break;
      end
      if (t > transient + 4 * piece && nc < 20)
        break;
      end
    end
  end
  if (numel (sym) < 20)
    error ('varmech:periodic_catalogue:section', ['%s: the trajectory crosses the Section %s ' ...
           'upwards only %d times in t = %g; choose a Section that the attractor crosses, or ' ...
           'start y0 on the attractor'], fname, opts.Section, numel (sym), t);
  end
  itin = struct ('te', te, 'ye', ye, 'sym', sym, 'duration', t - transient);
end

% seen(j): some rotation of words{j} occurs in sym with a crossing after it (the words not yet
% seen are searched for again)
function seen = occurring (words, sym, seen)
  s = sym(1:end-1);
  for j = find (~seen)
    w = words{j};
    L = numel (w);
    for r = 0:L - 1
      if (~isempty (strfind (s, w([r + 1:L, 1:r]))))
        seen(j) = true;
        break;
      end
    end
  end
end

function file = chunk_file (folder, k, nchunks)
  file = fullfile (folder, sprintf ('chunk_%d_of_%d.mat', k, nchunks));
end

% a chunk's file: ok when it exists; an error when it was made for another catalogue
function [res, ok] = load_chunk (fname, folder, k, nchunks, key)
  res = [];
  file = chunk_file (folder, k, nchunks);
  ok = exist (file, 'file') == 2;
  if (~ok)
    return;
  end
  s = load (file);
  if (~isfield (s, 'key') || ~isfield (s, 'res') || ~isequal (s.key, key))
    error ('varmech:periodic_catalogue:checkpoint', ['%s: %s holds a chunk of another catalogue ' ...
           '(another system, y0 or options); give another Checkpoint folder or delete it'], ...
           fname, file);
  end
  res = s.res;
end

% parcellfun's processes: all cores when the parallel package loads and there is more than one
% chunk to run, else 1 (MATLAB, or Octave without the package, runs the chunks one by one)
function np = processes (opts, ntodo)
  np = 1;
  if (strcmp (opts.Parallel, 'off') || ntodo < 2 || ~exist ('OCTAVE_VERSION', 'builtin'))
    return;
  end
  try
    feval ('pkg', 'load', 'parallel');
  catch
    return;
  end
  if (exist ('parcellfun') ~= 2 && exist ('parcellfun') ~= 3)
    return;
  end
  np = min (feval ('nproc'), ntodo);
end

% the chunks' elements back in the order of the words
function orbits = gather (results, words, nchunks, runs)
  idx = [];
  for k = runs
    idx = [idx, k:nchunks:numel(words)]; %#ok<AGROW>
  end
  orbits = [results{:}];
  [~, o] = sort (idx);
  orbits = orbits(o);
end

function info = summary (info, orbits, words, opts, elapsed)
  len = cellfun (@numel, {orbits.word});
  info.found = arrayfun (@(L) sum ([orbits(len == L).exitflag] == 1), info.length);
  miss = orbits([orbits.exitflag] ~= 1);
  info.missing = arrayfun (@(p) sprintf ('%s: %s', p.word, p.message), miss, 'UniformOutput', false);
  info.time = elapsed;
  if (~strcmp (opts.Display, 'off'))
    fprintf ('periodic_catalogue: %d of %d words found in %.1f s\n', sum (info.found), ...
             numel (orbits), elapsed);
    fprintf ('  length %2d: %3d of %3d\n', [info.length; info.found; info.words]);
    if (~isempty (info.missing))
      fprintf ('  %s\n', info.missing{:});
    end
  end
end

% 'merge': the n chunk files of a folder, gathered
function [orbits, info] = merge_chunks (fname, folder, t_start)
  files = dir (fullfile (folder, 'chunk_*_of_*.mat'));
  if (isempty (files))
    error ('varmech:periodic_catalogue:merge', ['%s: %s holds no chunk files (chunk_K_of_N.mat); ' ...
           'run the chunks with ''Checkpoint'', ''%s'' first'], fname, folder, folder);
  end
  kn = cellfun (@(f) sscanf (f, 'chunk_%d_of_%d.mat'), {files.name}, 'UniformOutput', false);
  kn = [kn{:}];
  nchunks = kn(2, 1);
  if (any (kn(2, :) ~= nchunks))
    error ('varmech:periodic_catalogue:merge', ['%s: %s holds chunks of different splits (%s); ' ...
           'keep the files of one split in a folder'], fname, folder, ...
           strjoin (unique ({files.name}), ', '));
  end
  absent = setdiff (1:nchunks, kn(1, :));
  if (~isempty (absent))
    error ('varmech:periodic_catalogue:merge', ['%s: chunk(s) %s of %d missing in %s; run them ' ...
           'with ''Chunk'', [k %d] and the same Checkpoint folder, then merge again'], fname, ...
           mat2str (absent), nchunks, folder, nchunks);
  end
  results = cell (1, nchunks);
  key = [];
  for k = 1:nchunks
    s = load (chunk_file (folder, k, nchunks));
    if (k == 1)
      key = s.key;
    elseif (~isequal (s.key, key))
      error ('varmech:periodic_catalogue:merge', ['%s: chunk %d in %s belongs to another ' ...
             'catalogue than chunk 1 (another system, y0 or options); keep one catalogue per folder'], ...
             fname, k, folder);
    end
    results{k} = s.res;
  end
  [words, count] = vm_prime_words (key.MaxLength);
  orbits = gather (results, words, nchunks, 1:nchunks);
  info = struct ('length', 2:key.MaxLength, 'words', count(2:end), 'found', [], ...
                 'missing', {{}}, 'crossings', NaN, 'duration', NaN, 'chunks', nchunks, ...
                 'computed', [], 'loaded', 1:nchunks, 'processes', 1, 'time', 0);
  info = summary (info, orbits, words, struct ('Display', 'off'), toc (t_start));
end

%!demo
%! % Lorenz: the orbits of length 2 to 4, each integrated by ode45 from its point on z = 27
%! lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%!   'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
%! orbits = periodic_catalogue (lor, [1 1 1], 'Section', 'z - 27', 'Symbol', 'x', 'MaxLength', 4);
%! f = @(t, u) [10 * (u(2) - u(1)); u(1) * (28 - u(3)) - u(2); u(1) * u(2) - 8/3 * u(3)];
%! for k = 1:numel (orbits)
%!   [~, u] = ode45 (f, linspace (0, orbits(k).T, 400), orbits(k).y0, ...
%!                   odeset ('RelTol', 1e-10, 'AbsTol', 1e-10));
%!   subplot (2, 3, k);
%!   plot (u(:, 1), u(:, 3));
%!   title (sprintf ('%s, T = %.6f', orbits(k).word, orbits(k).T));
%!   xlabel ('x');  ylabel ('z');
%! end

%!shared lor, args
%! lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%!   'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
%! args = {'Section', 'z - 27', 'Symbol', 'x'};

%!test
%! % the two shortest orbits; the mirror AB -> BA is a rotation of AB (one orbit)
%! [o, info] = periodic_catalogue (lor, [1 1 1], args{:}, 'MaxLength', 2);
%! assert ({o.word}, {'AB'});
%! assert ([info.words, info.found], [1 1]);
%! assert (o.T, 1.5586522107162, 2e-10 * o.T);
%! assert (abs (o.y0(3) - 27) < 1e-10);
%! assert (o.y0(1) < 0);                 % the word starts with A: x < 0

%!test
%! % one chunk alone: chunk 2 of 2 holds the second word of AB, AAB, ABB
%! [o, info] = periodic_catalogue (lor, [1 1 1], args{:}, 'MaxLength', 3, 'Chunk', [2 2]);
%! assert ({o.word}, {'AAB'});
%! assert ([info.chunks, info.computed], [2 2]);
%! assert (o.T, 2.3059072639399, 2e-10 * o.T);

%!error <expected at least 2 inputs> periodic_catalogue (lor)
%!error <ode must be a system made by odesys> periodic_catalogue (struct ('a', 1), [1 1 1], args{:})
%!error <y0 must be a real finite vector with 3 entries> periodic_catalogue (lor, [1 1], args{:})
%!error <Section must be an expression in the states \(x, y, z\)> periodic_catalogue (lor, [1 1 1], 'Symbol', 'x')
%!error <Symbol must be an expression in the states> periodic_catalogue (lor, [1 1 1], 'Section', 'z - 27', 'Symbol', 3)
%!error <is not an expression in the states and parameters> periodic_catalogue (lor, [1 1 1], 'Section', 'z - q', 'Symbol', 'x')
%!error <Chunk must be \[k n\] with integers 1 <= k <= n> periodic_catalogue (lor, [1 1 1], args{:}, 'Chunk', [3 2])
%!error <Chunk \[1 2\] has 2 chunks but Chunks is 4> periodic_catalogue (lor, [1 1 1], args{:}, 'Chunk', [1 2], 'Chunks', 4)
%!error <Checkpoint must be a folder name> periodic_catalogue (lor, [1 1 1], args{:}, 'Checkpoint', 3)
%!error <MaxLength> periodic_catalogue (lor, [1 1 1], args{:}, 'MaxLength', 1)
%!error <merge takes one folder> periodic_catalogue ('merge')
%!error <holds no chunk files> periodic_catalogue ('merge', tempname ())
%!error <crosses the Section z - 60 upwards only 0 times> periodic_catalogue (lor, [1 1 1], 'Section', 'z - 60', 'Symbol', 'x')
