% Robustness of the vm_model_mex gateway against damaged compiled models: sys.blocks is a plain
% struct that users can save, load and edit, so every field of a block is validated before the
% tape runs.  Each damaged block must either raise an error that says the model is damaged (or
% names the bad argument), or -- when the change happens to keep the tape valid, e.g. a changed
% constant -- return finite-size results; it must never crash Octave.  A crash here would take the
% whole test run down, which make check counts as a failure.

%!shared sys, args
%! sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('m', 1, 'g', 9.8), ...
%!   'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y + sin(x)*cos(y)', ...
%!   'constraints', {'dot(x)*y - dot(y)*x'});
%! args = {0, [0.1 0.2; 0.3 0.4], [1 2; 3 4]};

%!test
%! % every field of every block replaced by wrong types and shapes
%! bad_values = {[], 'text', {1}, int32(5), -1, NaN, 1e12, struct('a', 1), zeros(3,3,3), 1+2i};
%! names = fieldnames (sys.blocks);
%! nerr = 0;  nok = 0;
%! for b = 1:numel (names)
%!   blk = sys.blocks.(names{b});
%!   keys = fieldnames (blk);
%!   for k = 1:numel (keys)
%!     for v = 1:numel (bad_values)
%!       s = sys;
%!       s.blocks.(names{b}).(keys{k}) = bad_values{v};
%!       try
%!         mechsys_eval (s, args{:}, 'blocks', names(b));
%!         nok = nok + 1;
%!       catch err
%!         assert (~isempty (strfind (err.message, 'mechsys_eval: ')), err.message);
%!         nerr = nerr + 1;
%!       end
%!     end
%!   end
%! end
%! assert (nerr > 0.9 * (nerr + nok));

%!test
%! % random corruption of the tape's instruction words and placement indices
%! rand ('seed', 7);
%! names = fieldnames (sys.blocks);
%! nerr = 0;
%! for trial = 1:400
%!   b = names{1 + mod (trial, numel (names))};
%!   blk = sys.blocks.(b);
%!   s = sys;
%!   switch (mod (trial, 4))
%!     case 0
%!       c = blk.code;
%!       if (isempty (c)), continue; end
%!       c(randi (numel (c))) = int32 (randi ([-5 200]));
%!       s.blocks.(b).code = c;
%!     case 1
%!       o = blk.out_index;
%!       if (isempty (o)), continue; end
%!       o(randi (numel (o))) = int32 (randi ([-3 50]));
%!       s.blocks.(b).out_index = o;
%!     case 2
%!       o = blk.out_field;
%!       if (isempty (o)), continue; end
%!       o(randi (numel (o))) = int32 (randi ([-3 20]));
%!       s.blocks.(b).out_field = o;
%!     otherwise
%!       s.blocks.(b).nslot = randi ([0 3]);
%!       s.blocks.(b).nprologue = randi ([0 40]);
%!   end
%!   try
%!     r = mechsys_eval (s, args{:}, 'blocks', {b});
%!     assert (isstruct (r));
%!   catch err
%!     assert (~isempty (regexp (err.message, '^mechsys_eval: ', 'once')), err.message);
%!     nerr = nerr + 1;
%!   end
%! end
%! assert (nerr > 0);

%!test
%! % the same system still evaluates after all of the above (nothing was corrupted in place)
%! o = mechsys_eval (sys, args{:});
%! assert (o.M(1,:,:), reshape ([1 0; 0 1], 1, 2, 2));

%!error <contains a NUL character> mechsys ('coordinates', {'x'}, 'lagrangian', ['dot(x)^2' char(0) '+1'])
%!error <column 12: unexpected byte 0xc3> mechsys ('coordinates', {'x'}, 'lagrangian', ['dot(x)^2 + ' char([195 169])])
%!error <expression nested deeper than 500 levels> mechsys ('coordinates', {'x'}, 'lagrangian', [repmat('(', 1, 600) 'x' repmat(')', 1, 600)])
%!test
%! % a long formula: 20000 terms, compiled and evaluated
%! terms = sprintf ('+%d*x^%d', [1:20000; mod(1:20000, 7)]);
%! s = mechsys ('coordinates', {'x'}, 'lagrangian', ['dot(x)^2/2' terms]);
%! o = mechsys_eval (s, 0, 0.5, 1, 'blocks', {'lagrangian'});
%! k = 1:20000;
%! assert (o.L, 0.5 + sum (k .* 0.5 .^ mod (k, 7)), 1e-9 * abs (o.L));
