% test_options_gateway.m -- the fast path of the options' checks (mex/vm_options_mex.c): the pairs
% it sets, the pairs it leaves to vm_options.m, repeated names, and its refusals of malformed
% internal calls (never a crash).
%!shared d, f
%! d = struct ('N', 65, 'Order', 4, 'Tol', 1e-11, 'Display', 'off', 'BaseState', []);
%! f = struct ('N', [1 2 1e8 1 1], 'Order', [3 2 8 1 1 2 4 6 8], 'Tol', [2 0 Inf 0 0]);
%!test
%! [o, s] = vm_options_mex (d, f, {'N', 33, 'Tol', 1e-9, 'Order', 6});
%! assert ([o.N o.Tol o.Order], [33 1e-9 6]);
%! assert (o.Display, 'off');
%! assert (isempty (s) && size (s, 1) == 1);
%!test
%! % not fast: a name not spelled as in defaults, a value outside its row or not a double scalar,
%! % a name with no row, a name that is not a string; their positions in args, in order
%! [o, s] = vm_options_mex (d, f, {'n', 33, 'Order', 5, 'Tol', 0, 'N', int32(9), ...
%!                                 'Display', 'iter', 3, 4, 'BaseState', 2});
%! assert (s, [1 3 5 7 9 11 13]);
%! assert (o, d);
%!test
%! % the bounds: N >= 2 (closed), Tol > 0 (open), an integer N, NaN and Inf refused
%! [~, s] = vm_options_mex (d, f, {'N', 2, 'N', 1});
%! assert (s, [1 3]);   % a repeated name: every pair to the m-code
%! [o, s] = vm_options_mex (d, f, {'N', 2});
%! assert (o.N, 2);  assert (isempty (s));
%! sp = sparse (2);  cx = complex (2, 1);
%! for v = {1, 2.5, NaN, Inf, 1e9, [2 3], cx, sp, true}
%!   [o, s] = vm_options_mex (d, f, {'N', v{1}});
%!   assert (s, 1);  assert (o.N, 65);
%! end
%! for v = {0, -1, NaN, Inf}
%!   [~, s] = vm_options_mex (d, f, {'Tol', v{1}});
%!   assert (s, 1);
%! end
%!test
%! % repeated names (ignoring case) go to the m-code as a whole, where the last one wins
%! [o, s] = vm_options_mex (d, f, {'Tol', 1e-3, 'N', 33, 'TOL', 1e-4});
%! assert (s, [1 3 5]);  assert (o, d);
%! sol = dual_lorenz ([0 0.1], [1 1 1], 'N', 17, 'Tol', 1e-9, 'n', 21);
%! assert (numel (sol.t), 21);
%! sol = dual_lorenz ([0 0.1], [1 1 1], 'n', 21, 'N', 17);
%! assert (numel (sol.t), 17);
%!test
%! % kind 0 (an option with no rule, checked by its function): any value is set as it is, when
%! % spelled exactly; the options' table adds these rows for the options of a front end
%! f0 = f;  f0.BaseState = [0 0 0 0 0];
%! v = {magic(3), @sin, 'abc', {1, 2}, struct('a', 1), [], int8(3), NaN, sparse(2), 1i};
%! for k = 1:numel (v)
%!   [o, s] = vm_options_mex (d, f0, {'BaseState', v{k}, 'N', 9});
%!   assert (isempty (s));  assert (isequaln (o.BaseState, v{k}));  assert (o.N, 9);
%! end
%! [o, s] = vm_options_mex (d, f0, {'basestate', 2});
%! assert (s, 1);  assert (o, d);
%! [o, s] = vm_options_mex (d, f, {'BaseState', 2});   % no row: slow
%! assert (s, 1);
%! sol1 = dual_lorenz ([0 0.1], [1 1 1], 'N', 17, 'BaseState', [1 2 3]);
%! sol2 = dual_lorenz ([0 0.1], [1 1 1], 'N', 17, 'basestate', [1 2 3]);
%! assert (sol1.y, sol2.y);  assert (sol1.base(1, :), [1 2 3]);
%!error <internal: expected> vm_options_mex (d, f)
%!error <internal: expected> [a, b, c] = vm_options_mex (d, f, {})
%!error <defaults must be a scalar struct> vm_options_mex (3, f, {})
%!error <defaults must be a scalar struct> vm_options_mex ([d d], f, {})
%!error <fast must be a scalar struct> vm_options_mex (d, {}, {})
%!error <args must be a cell of name/value pairs> vm_options_mex (d, f, {'N'})
%!error <args must be a cell of name/value pairs> vm_options_mex (d, f, 'N')
%!test
%! % a row of fast that is not a real row of 5 or more entries: the pair is slow (no crash)
%! [o, s] = vm_options_mex (d, struct ('N', [1 2]), {'N', 33});
%! assert (s, 1);  assert (o.N, 65);
%! [o, s] = vm_options_mex (d, struct ('N', 'abcde'), {'N', 33});
%! assert (s, 1);
%! [o, s] = vm_options_mex (d, f, {repmat('N', 1, 200), 33, ['N'; 'N'], 3});
%! assert (s, [1 3]);
