function results = demo_periodic_catalogue (varargin)
% -*- texinfo -*-
% @deftypefn  {} {} demo_periodic_catalogue ()
% @deftypefnx {} {results =} demo_periodic_catalogue (..., "quiet")
% @deftypefnx {} {results =} demo_periodic_catalogue (..., "png", dir)
% @deftypefnx {} {results =} demo_periodic_catalogue (..., "MaxLength", L)
% Every periodic orbit of the Lorenz attractor (s = 10, r = 28, b = 8/3) up to symbol length L
% (default 6), found by @code{periodic_catalogue}: one orbit per prime word, the symbols being
% the sign of x where the orbit crosses z = 27 upwards (A: x < 0, B: x > 0).
% (1) the number of orbits of each length equals the number of prime words of that length,
%     (1/k) sum over d | k of mobius(d) 2^(k/d), computed here from the formula;
% (2) the periods of AB, AAB, AAAB and AABB against the published ones (Viswanath 2003, 13
%     digits), and every period of a word against that of its mirror (A and B swapped: the
%     symmetry (x, y, z) -> (-x, -y, z) of the equations maps one orbit onto the other);
% (3) each orbit integrated by ode45 over T from its point y0 on the section comes back to it
%     (the orbit's error, amplified by its unstable multiplier, plus ode45's), and the product
%     of its Floquet multipliers equals exp (-(s + 1 + b) T) (Liouville: div F = -(s + 1 + b)).
% Options: "MaxLength" (default 6), "png", dir (demo_periodic_catalogue.png: the orbits in the
% (x, z) plane, one panel per length).  @var{results} holds @code{orbits}, @code{info}, the
% table @code{checks} and @code{pass}.
% @seealso{periodic_catalogue, periodic_orbit, demo_dual_periodic_lorenz}
% @end deftypefn

  opt = vm_demo_args ('demo_periodic_catalogue', varargin, struct ('MaxLength', 6));
  tstart = tic;
  lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
                'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
  [orbits, info] = periodic_catalogue (lor, [1 1 1], 'Section', 'z - 27', 'Symbol', 'x', ...
                                       'MaxLength', opt.MaxLength);
  tol = 1e-10;                                   % periodic_orbit's PeriodTol

  % (1) counts per length against the number of prime words
  lengths = 2:opt.MaxLength;
  primes = arrayfun (@prime_word_count, lengths);
  checks = struct ('part', {}, 'name', {}, 'value', {}, 'reference', {}, 'error', {}, ...
                   'tol', {}, 'pass', {});
  for k = 1:numel (lengths)
    checks = vm_demo_check (checks, sprintf ('orbits of length %d', lengths(k)), ...
                            info.found(k), primes(k), 0, 'part', '(1)');
  end

  % (2) the published periods, and each word's mirror
  published = struct ('AB', 1.5586522107162, 'AAB', 2.3059072639399, ...
                      'AAAB', 3.0235837034339, 'AABB', 3.0842767758221);
  words = {orbits.word};
  for w = fieldnames (published)'
    o = orbits(strcmp (words, w{1}));
    checks = vm_demo_check (checks, sprintf ('T of %s, published', w{1}), o.T, ...
                            published.(w{1}), 1e-12, 'part', '(2)');
  end
  worst = 0;
  for k = 1:numel (orbits)
    m = mirror_name (orbits(k).word);
    j = find (strcmp (words, m));
    worst = max (worst, abs (orbits(k).T - orbits(j).T) / orbits(k).T);
  end
  checks = vm_demo_check (checks, 'max |T(word) - T(mirror)| / T', worst, 0, 2 * tol, ...
                          'part', '(2)');

  % (3) each orbit closes under ode45; its multipliers' product is Liouville's
  f = @(t, u) [10 * (u(2) - u(1)); u(1) * (28 - u(3)) - u(2); u(1) * u(2) - 8/3 * u(3)];
  oo = odeset ('RelTol', 1e-12, 'AbsTol', 1e-12);
  closure = zeros (1, numel (orbits));
  bound = closure;
  liouville = closure;
  paths = cell (1, numel (orbits));
  for k = 1:numel (orbits)
    o = orbits(k);
    [~, u] = ode45 (f, linspace (0, o.T, 600), o.y0, oo);
    paths{k} = u;
    closure(k) = norm (u(end, :) - o.y0, Inf);
    % the orbit's error (tol relative) grows by up to mu1 over T, ode45's by as much
    bound(k) = 2 * (tol + 1e-12) * abs (o.floquet(1)) * norm (o.y0, Inf);
    ex = exp (-(10 + 1 + 8/3) * o.T);
    liouville(k) = abs (prod (o.floquet) - ex) / ex;
  end
  checks = vm_demo_check (checks, 'max closure / its bound (ode45 over T from y0)', ...
                          max (closure ./ bound), 0, 1, 'part', '(3)');
  checks = vm_demo_check (checks, 'max |prod(floquet) - exp(-(s+1+b)T)| (rel.)', ...
                          max (liouville), 0, 1e-10, 'part', '(3)');

  results = struct ('orbits', orbits, 'info', info, 'lengths', lengths, 'primes', primes, ...
                    'closure', closure, 'closure_bound', bound, 'liouville', liouville);
  results.checks = checks;
  [results.pass, msg] = vm_demo_verdict (checks);
  results.time = toc (tstart);
  if ~opt.quiet
    fprintf ('Lorenz periodic orbits up to length %d: section z = 27 upwards, symbol sign(x)\n', ...
             opt.MaxLength);
    fprintf ('%-8s %18s %12s %14s\n', 'word', 'T', 'multiplier', 'exponent/T');
    for k = 1:numel (orbits)
      o = orbits(k);
      fprintf ('%-8s %18.13f %12.5g %14.6f\n', o.word, o.T, o.floquet(1), ...
               log (abs (o.floquet(1))) / o.T);
    end
    fprintf ('\n');
    vm_demo_table (checks, '%.13g', 'part');
    fprintf ('%s (%.0f s)\n', msg, results.time);
  end
  vm_demo_png (opt, '', @(what) draw (orbits, paths, lengths), [1000, 700]);
  if nargout == 0
    clear results;
  end
end

% the number of prime (aperiodic) binary necklaces of length k: (1/k) sum_{d | k} mobius(d) 2^(k/d)
function c = prime_word_count (k)
  c = 0;
  for d = 1:k
    if mod (k, d) == 0
      c = c + mobius (d) * 2^(k / d);
    end
  end
  c = c / k;
end

function m = mobius (d)
  p = factor (d);
  if d == 1
    m = 1;
  elseif numel (unique (p)) < numel (p)
    m = 0;
  else
    m = (-1)^numel (p);
  end
end

% the catalogue's name of the mirror orbit: A and B swapped, then the smallest rotation
function m = mirror_name (w)
  s = char ('A' + 'B' - w);
  m = s;
  for q = 2:numel (s)
    r = s([q:end, 1:q - 1]);
    if ~issorted ({m, r})        % r comes before m alphabetically
      m = r;
    end
  end
end

function draw (orbits, paths, lengths)
  len = cellfun (@numel, {orbits.word});
  fs = 5;
  ncol = min (3, numel (lengths));
  nrow = ceil (numel (lengths) / ncol);
  for k = 1:numel (lengths)
    vm_demo_subplot (nrow, ncol, k, fs);
    hold on;
    for j = find (len == lengths(k))
      plot (paths{j}(:, 1), paths{j}(:, 3));
    end
    hold off;
    title (sprintf ('length %d: %d orbits', lengths(k), sum (len == lengths(k))), 'fontsize', fs);
    xlabel ('x');
    ylabel ('z');
    axis ([-22 22 0 50]);
    set (gca, 'fontsize', fs, 'xtick', [-20 0 20], 'ytick', [0 25 50]);
  end
end
