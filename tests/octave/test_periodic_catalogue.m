% Tests of periodic_catalogue: the Lorenz (10, 28, 8/3) orbits up to length 4 against the
% independent multiple-shooting reference (bench/lorenz_periods.txt, bench/po_shoot.m) and the
% published periods; the split of a catalogue into chunks run as separate processes, merged,
% against one run; resuming from a Checkpoint folder; the refusals of a folder of another
% catalogue and of a merge with a chunk missing.
%
% Tolerances: periodic_orbit reaches PeriodTol (1e-10) in T; the reference's T is accurate to its
% T_err (below 1e-13).  The orbit's point on the section comes from its nodes, which converge
% with the period at the same order, an error that the flow amplifies along the orbit by up to
% its unstable multiplier mu1: the bound 2 PeriodTol mu1 max|x0|.  Floquet: the product within
% 1e-10 of exp (-(s + 1 + b) T) (Liouville), the accuracy periodic_orbit's product QR claims
% (tests/octave/test_floquet.m); the trivial multiplier within 2 PeriodTol mu1 of 1 (it is
% computed at the orbit's point, whose error the flow amplifies by up to mu1); the leading one
% within 2 PeriodTol mu1 relative of the reference's.

%!function lor = lorenz ()
%!  lor = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('s', 10, 'r', 28, 'b', 8/3), ...
%!                'rhs', {'s*(y - x)', 'x*(r - z) - y', 'x*y - b*z'});
%!endfunction

%!function ref = reference ()
%!  fid = fopen (fullfile (fileparts (which ('po_shoot')), 'lorenz_periods.txt'));
%!  C = textscan (fid, '%s %f %f %f %f %f %f', 'CommentStyle', '#');
%!  fclose (fid);
%!  ref = struct ('word', C{1}, 'T', num2cell (C{2}), 'x0', num2cell ([C{3} C{4} C{5}], 2), ...
%!                'mu1', num2cell (C{7}));
%!endfunction

%!function args = lorenz_args (L)
%!  args = {'Section', 'z - 27', 'Symbol', 'x', 'MaxLength', L};
%!endfunction

%!function yes = same_catalogue (a, b)
%!  yes = isequal ({a.word}, {b.word}) && isequal ([a.exitflag], [b.exitflag]) ...
%!        && isequaln ([a.T], [b.T]) && isequaln (vertcat (a.y0), vertcat (b.y0)) ...
%!        && isequal ({a.floquet}, {b.floquet});
%!endfunction

%!function run_chunk_process (k, n, folder, L)
%!  % one chunk in a separate Octave process, as one task of a job array would run it
%!  mexdir = fileparts (which ('vm_periodic_mex'));
%!  instdir = fileparts (which ('periodic_catalogue'));
%!  code = sprintf (['addpath (''%s''); addpath (''%s''); ' ...
%!    'lor = odesys (''states'', {''x'', ''y'', ''z''}, ''parameters'', struct (''s'', 10, ''r'', 28, ''b'', 8/3), ' ...
%!    '''rhs'', {''s*(y - x)'', ''x*(r - z) - y'', ''x*y - b*z''}); ' ...
%!    'periodic_catalogue (lor, [1 1 1], ''Section'', ''z - 27'', ''Symbol'', ''x'', ''MaxLength'', %d, ' ...
%!    '''Chunk'', [%d %d], ''Checkpoint'', ''%s'');'], mexdir, instdir, L, k, n, folder);
%!  exe = fullfile (OCTAVE_HOME (), 'bin', 'octave-cli');
%!  [st, out] = system (sprintf ('"%s" --no-gui --norc --no-history --quiet --eval "%s"', exe, code));
%!  assert (st, 0, out);
%!endfunction

%!function np = ifelse_np (haspar)
%!  np = 1;
%!  if (haspar)
%!    np = min (nproc (), 2);
%!  end
%!endfunction

%!test
%! % every word of length 2 to 4 is an orbit, the periods and points on z = 27 as the shooting
%! % reference's, the multipliers as the reference's and Liouville's
%! tol = 1e-10;
%! [orbits, info] = periodic_catalogue (lorenz (), [1 1 1], lorenz_args (4){:});
%! assert ({orbits.word}, {'AB', 'AAB', 'ABB', 'AAAB', 'AABB', 'ABBB'});
%! assert (info.words, [1 2 3]);
%! assert (info.found, [1 2 3]);
%! assert (isempty (info.missing));
%! ref = reference ();
%! for k = 1:numel (orbits)
%!   o = orbits(k);
%!   r = ref(strcmp ({ref.word}, o.word));
%!   assert (o.exitflag, 1);
%!   assert (abs (o.T - r.T) <= 2 * tol * r.T, '%s: T %.15g, reference %.15g', o.word, o.T, r.T);
%!   assert (norm (o.y0 - r.x0, Inf) <= 2 * tol * r.mu1 * norm (r.x0, Inf), '%s: y0 off the reference', o.word);
%!   assert (abs (o.y0(3) - 27) <= 1e-12 * 27);
%!   assert (abs (o.floquet(1) - r.mu1) <= 2 * tol * r.mu1 * r.mu1);
%!   assert (min (abs (o.floquet - 1)) <= 2 * tol * r.mu1);
%!   liou = exp (-(10 + 1 + 8/3) * o.T);
%!   assert (abs (prod (o.floquet) - liou) <= 1e-10 * liou);
%! end
%! % the published periods (Viswanath)
%! pub = struct ('AB', 1.5586522107162, 'AAB', 2.3059072639399, 'AAAB', 3.0235837034339, ...
%!               'AABB', 3.0842767758221);
%! for w = fieldnames (pub)'
%!   assert (orbits(strcmp ({orbits.word}, w{1})).T, pub.(w{1}), 1e-12);
%! end
%! % the mirror of a word is another orbit with the same period (Lorenz's symmetry x, y -> -x, -y)
%! T = containers.Map ({orbits.word}, {orbits.T});
%! assert (abs (T('AAB') - T('ABB')) <= 2 * tol * T('AAB'));
%! assert (abs (T('AAAB') - T('ABBB')) <= 2 * tol * T('AAAB'));

%!test
%! % two chunks as two separate processes, merged, equal one run; a rerun resumes from the folder
%! L = 3;
%! folder = tempname ();
%! unwind_protect
%!   run_chunk_process (1, 2, folder, L);
%!   run_chunk_process (2, 2, folder, L);
%!   [merged, mi] = periodic_catalogue ('merge', folder);
%!   [one, oi] = periodic_catalogue (lorenz (), [1 1 1], lorenz_args (L){:}, 'Chunks', 2, ...
%!                                   'Parallel', 'off');
%!   assert (same_catalogue (merged, one));
%!   assert (mi.found, oi.found);
%!   assert (all ([one.exitflag] == 1));
%!   % resume: both chunks are read, none computed
%!   [again, ai] = periodic_catalogue (lorenz (), [1 1 1], lorenz_args (L){:}, 'Chunks', 2, ...
%!                                     'Checkpoint', folder);
%!   assert (ai.loaded, [1 2]);
%!   assert (isempty (ai.computed));
%!   assert (same_catalogue (again, one));
%!   % a chunk lost: only it is computed again
%!   delete (fullfile (folder, 'chunk_2_of_2.mat'));
%!   [again, ai] = periodic_catalogue (lorenz (), [1 1 1], lorenz_args (L){:}, 'Chunks', 2, ...
%!                                     'Checkpoint', folder, 'Parallel', 'off');
%!   assert (ai.loaded, 1);
%!   assert (ai.computed, 2);
%!   assert (same_catalogue (again, one));
%!   % the folder refuses another catalogue, and a merge with a chunk missing names it
%!   try
%!     periodic_catalogue (lorenz (), [1 1 1], lorenz_args (2){:}, 'Chunks', 2, 'Checkpoint', folder);
%!     error ('no error');
%!   catch err
%!     assert (err.identifier, 'varmech:periodic_catalogue:checkpoint');
%!     assert (~isempty (strfind (err.message, 'holds a chunk of another catalogue')));
%!   end
%!   delete (fullfile (folder, 'chunk_1_of_2.mat'));
%!   try
%!     periodic_catalogue ('merge', folder);
%!     error ('no error');
%!   catch err
%!     assert (err.identifier, 'varmech:periodic_catalogue:merge');
%!     assert (~isempty (strfind (err.message, 'chunk(s) 1 of 2 missing')));
%!   end
%! unwind_protect_cleanup
%!   if (exist (folder, 'dir'))
%!     confirm_recursive_rmdir (false, 'local');
%!     rmdir (folder, 's');
%!   end
%! end_unwind_protect

%!test
%! % in parallel (parcellfun) where the parallel package loads, else one by one: the same orbits
%! haspar = false;
%! try
%!   pkg ('load', 'parallel');
%!   haspar = exist ('parcellfun') == 2 || exist ('parcellfun') == 3;
%! catch
%! end
%! L = 3;
%! [p, pi_] = periodic_catalogue (lorenz (), [1 1 1], lorenz_args (L){:}, 'Chunks', 2);
%! [s, si] = periodic_catalogue (lorenz (), [1 1 1], lorenz_args (L){:}, 'Chunks', 2, ...
%!                               'Parallel', 'off');
%! assert (pi_.processes, ifelse_np (haspar));
%! assert (si.processes, 1);
%! assert (same_catalogue (p, s));
