% Acceptance test of demos/demo_periodic_catalogue: every Lorenz (10, 28, 8/3) periodic orbit up to
% symbol length 6 (section z = 27 upwards, symbol sign x), against references independent of
% periodic_catalogue and of the dual action:
% (1) the counts per length against the number of prime words counted here by brute force (every
%     binary word of the length, kept when it is the smallest of its rotations and equals none of
%     its proper rotations);
% (2) every period and point on the section against the multiple-shooting table
%     bench/lorenz_periods.txt (bench/po_shoot.m: GBS order 12, T_err below 1e-13), T to
%     2 PeriodTol relative (PeriodTol = 1e-10, periodic_orbit's default) and y0 to 2 PeriodTol mu1
%     max|y0| (the orbit's error, amplified by its unstable multiplier);
% (3) the demo's own verdict (published periods, mirrors, ode45 closure, Liouville) and its figure.

%!shared r, d, ref
%! d = tempname ();
%! mkdir (d);
%! r = demo_periodic_catalogue ('quiet', 'png', d);
%! fid = fopen (fullfile (fileparts (which ('po_shoot')), 'lorenz_periods.txt'));
%! C = textscan (fid, '%s %f %f %f %f %f %f', 'CommentStyle', '#');
%! fclose (fid);
%! ref = struct ('word', C{1}, 'T', num2cell (C{2}), 'x0', num2cell ([C{3} C{4} C{5}], 2), ...
%!               'mu1', num2cell (C{7}));

%!test
%! % (3) the verdict and the figure
%! assert (r.pass);
%! assert (exist (fullfile (d, 'demo_periodic_catalogue.png'), 'file') == 2);

%!test
%! % (1) the counts per length, by brute force
%! for L = 2:6
%!   n = 0;
%!   for v = 0:2^L - 1
%!     w = dec2bin (v, L);
%!     rot = arrayfun (@(q) w([q + 1:L, 1:q]), 1:L - 1, 'UniformOutput', false);
%!     if (~any (strcmp (rot, w)) && all (cellfun (@(x) ~issorted ({x, w}) || strcmp (x, w), rot)))
%!       n = n + 1;
%!     end
%!   end
%!   assert (r.info.found(L - 1), n);
%!   assert (sum (cellfun (@numel, {r.orbits.word}) == L), n);
%! end

%!test
%! % (2) every orbit against the shooting reference
%! tol = 1e-10;
%! assert (all ([r.orbits.exitflag] == 1));
%! for k = 1:numel (r.orbits)
%!   o = r.orbits(k);
%!   j = find (strcmp ({ref.word}, o.word));
%!   assert (numel (j), 1);
%!   assert (abs (o.T - ref(j).T) <= 2 * tol * ref(j).T, '%s: T', o.word);
%!   assert (norm (o.y0 - ref(j).x0, Inf) <= 2 * tol * ref(j).mu1 * norm (ref(j).x0, Inf), ...
%!           '%s: y0', o.word);
%! end
%! assert (numel (r.orbits), 21);
