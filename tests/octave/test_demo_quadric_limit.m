% Acceptance test of demos/demo_quadric_limit: geodesics on the quadric sum_k W_k x_k^2 = 1 in l2
% (Zubelevich Sec. 2.1, eq. 2.4) through the truncations n = 4, 8, ..., 256, W_k = 2 - 1/j in pairs
% (bounded, as the paper requires), data a_k = 1/k, b_k = (-1)^k/k.  References: exact conservation
% of the first integrals L_j = (x, Omega_j xdot) and phi = (W x, xdot), conservation of T = |xdot|^2/2
% and g on the constraint; dop853 at RelTol 1e-13 and gl6 step halving for the integration errors;
% the convergence rates of the demo's help (window of the first 4 components: 2p - 1 = 1,
% full l2: p - 1/2 = 1/2).  The tolerances are explained where the demo computes them.

%!shared r
%! r = demo_quadric_limit ('quiet');

%!test
%! % the truncations, the data on the quadric, W bounded and increasing
%! assert (r.ns, 2.^(2:8));
%! assert (all (diff (r.w) > 0) && max (r.w) < 2 && min (r.w) == 1);
%! for k = 1:numel (r.runs)
%!   n = r.runs(k).n;
%!   w = kron (2 - 1 ./ (1:n/2), [1 1])';
%!   x0 = r.runs(k).x0;
%!   v0 = r.runs(k).xdot0;
%!   assert (x0' * (w .* x0), 1, 1e-14);
%!   assert (abs ((w .* x0)' * v0) < 1e-14);
%!   assert (norm (v0), 1, 1e-14);
%! end

%!test
%! % every comparison within its justified tolerance
%! c = r.checks(~[r.checks.info]);
%! assert (numel (c) >= 60);
%! for j = 1:numel (c)
%!   if ~(c(j).error <= c(j).tol)
%!     error ('%s %s: error %g > tol %g', c(j).part, c(j).name, c(j).error, c(j).tol);
%!   end
%! end
%! assert (r.pass);

%!test
%! % the central claims, by name
%! c = r.checks;
%! names = {c.name};
%! parts = {c.part};
%! pick = @(part, prefix) c(strcmp (parts, part) & strncmp (names, prefix, numel (prefix)));
%! % first integrals for every n: dop853, and gl6 up to n = 128 (quadratic invariants to rounding)
%! for n = r.ns
%!   part = sprintf ('n = %d', n);
%!   assert (numel (pick (part, 'dop853: ')), 4);
%!   if n <= 128
%!     g = [pick(part, 'gl6 h = 0.1: phi'), pick(part, 'gl6 h = 0.1: max_j')];
%!     assert (numel (g), 2);
%!     assert (all ([g.value] < 1e-14));
%!     assert (numel (pick (part, 'gl6 vs dop853')), 1);
%!   end
%! end
%! % rates: window -> 1, full l2 -> 1/2
%! g = pick ('limit', 'window rate (RMS)');
%! assert (abs (g.value - 1) <= g.tol && g.tol < 0.01);
%! g = pick ('limit', 'full l2 rate (RMS)');
%! assert (abs (g.value - 0.5) <= g.tol && g.tol < 0.01);
%! d = r.dist;
%! assert (all (diff (d.window_rms) < 0) && all (diff (d.full_rms) < 0));
%! assert (abs (d.rate_window_sup(end) - 1) < 0.01 && abs (d.rate_full_sup(end) - 0.5) < 0.01);
%! % the integration errors are far below the distances between truncations
%! g = pick ('limit', 'dop853 error / smallest distance');
%! assert (g.value < 1e-6);
%! % long gl6 run: L_j and phi to rounding; T, g bounded; dop853 drifts
%! g = pick ('long n = 16', 'gl6: max_j');
%! assert (g.value < 1e-13);
%! g = pick ('long n = 16', 'gl6: max |T - T0|');
%! assert (g.error <= g.tol && g.value < 1e-9);
%! g = pick ('long n = 16', 'gl6: |T - T0| drift ratio');
%! assert (g.value < 9);
%! g = pick ('long n = 16', 'dop853 1e-8: |T - T0| drift ratio');
%! assert (g.value >= 9);
%! % misprint (Sec. 2.1): |x|^2/2 is not conserved, |xdot|^2/2 is
%! g = pick ('n = 256', 'misprint');
%! assert (g.value > 0.01);

%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   demo_quadric_limit ('quiet', 'png', d, 'NMax', 32, 'GL6Max', 8);
%!   f = dir (fullfile (d, '*.png'));
%!   assert (numel (f), 2);
%!   assert (all ([f.bytes] > 1000));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect

%!error <NMax must be a power of 2> demo_quadric_limit ('quiet', 'NMax', 100)
