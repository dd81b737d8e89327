% -*- texinfo -*-
% @deftypefn  {} {out =} odesys_eval (ode, t, y)
% @deftypefnx {} {out =} odesys_eval (ode, t, y, name, value, ...)
% @deftypefnx {} {out =} odesys_eval (ode, t, y, opts)
% Values and exact derivatives of a compiled first-order system at many points.
%
% @var{ode} is made by @code{odesys} (ny states, nd right-hand sides F, na algebraic equations G,
% with the parameter values in @code{ode.parameters} now).  @var{y} is N-by-ny (one row per
% point, columns in the order of @code{ode.states}); @var{t} is N-by-1 or a scalar (the same time
% for every point).  Options (name/value pairs or one struct @var{opts}): @code{"wF"} (N-by-nd or
% 1-by-nd) and @code{"wG"} (N-by-na or 1-by-na) weight the Hessians; default 0.  The values are
% the formulas as written: G is reported with the sign given in @code{odesys}.
%
% Fields of @var{out} (points first, as in @code{mechsys_eval}):
% @table @code
% @item F
% the right-hand sides, N-by-nd (unit of y_i per unit of t).
% @item F_y
% N-by-nd-by-ny: @code{F_y(:,i,j)} = dF_i/dy_j.
% @item F_t
% N-by-nd: dF_i/dt at fixed y.
% @item G, G_y, G_t
% the algebraic equations (N-by-na), dG_i/dy_j (N-by-na-by-ny) and dG_i/dt (N-by-na); empty
% (N-by-0) without algebraic equations.
% @item wF_yy
% N-by-ny-by-ny: the Hessian of the weighted sum wF . F, @code{wF_yy(:,j,k)} =
% sum_i wF_i d2F_i/dy_j dy_k (zero when "wF" is not given).
% @item wG_yy
% N-by-ny-by-ny: the Hessian of wG . G, likewise.
% @end table
% The weighted Hessians are what the dual-to-primal map of @code{dual_solve} needs
% (d2L_H/dy2 = diag (c) - D_d . F_yy + D_a . G_yy: wF = -D_d, wG = D_a).
%
% Example (a damped pendulum written first order; the Jacobian and a Hessian against hand
% formulas):
% @verbatim
% ode = odesys ('states', {'th', 'w'}, 'parameters', struct ('g', 9.81, 'l', 1, 'k', 0.3), ...
%   'rhs', {'w', '-g/l*sin(th) - k*w'});
% th = linspace (-pi, pi, 7)';  w = 0.5 * ones (7, 1);
% out = odesys_eval (ode, 0, [th w], 'wF', [0 1]);   % wF picks the Hessian of F_2
% fprintf ('max |dF_2/dth + g cos(th)| = %.1e, max |d2F_2/dth2 - g sin(th)| = %.1e\n', ...
%   max (abs (out.F_y(:,2,1) + 9.81*cos (th))), max (abs (out.wF_yy(:,1,1) - 9.81*sin (th))));
% @end verbatim
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{odesys, dual_solve, mechsys_eval}
% @end deftypefn

function out = odesys_eval (ode, t, y, varargin)
  fname = 'odesys_eval';
  if (nargin < 3)
    vm_badarg (fname, 'expected at least 3 inputs: ode, t, y (see help odesys_eval)');
  end
  if (~isstruct (ode) || ~isfield (ode, 'type') || ~strcmp (ode.type, 'odesys'))
    vm_badarg (fname, 'ode must be a system made by odesys');
  end
  opts = vm_options (fname, varargin);   % names, defaults, rules: csrc/base/vm_schema.c
  y = vm_points (y, fname, 'y', ode.ny, []);
  N = size (y, 1);
  t = vm_points (t, fname, 't', 1, N);
  if (isempty (opts.wF))
    wf = zeros (1, ode.nd);
  else
    wf = vm_points (opts.wF, fname, 'wF', ode.nd, N);
  end
  if (isempty (opts.wG))
    wg = zeros (1, ode.na);
  else
    wg = vm_points (opts.wG, fname, 'wG', ode.na, N);
  end
  p = vm_param_vector (ode, fname, 'ode');
  try
    % ode is passed so that the gateway refuses formulas edited after odesys (stale blocks)
    out = vm_model_mex ('eval', ode.blocks.system, N, {t, y, p, wf, wg}, fname, 'full', ...
                        {'t', 'y', 'parameters', 'wF', 'wG'}, ode);
  catch err
    vm_rethrow (err, fname);
  end
end

%!shared ode
%! ode = odesys ('states', {'x', 'y', 'z'}, 'parameters', struct ('sigma', 10, 'rho', 28, 'beta', 8/3), ...
%!   'rhs', {'sigma*(y - x)', 'x*(rho - z) - y', 'x*y - beta*z'});
%!test
%! Y = [1 2 3; -1 0.5 2];  w = [0.1 0.2 0.3; 1 -1 2];
%! o = odesys_eval (ode, [0; 1], Y, 'wF', w);
%! assert (o.F, [10*(Y(:,2)-Y(:,1)), Y(:,1).*(28-Y(:,3))-Y(:,2), Y(:,1).*Y(:,2)-8/3*Y(:,3)], 1e-13);
%! assert (squeeze (o.F_y(1,:,:)), [-10 10 0; 28-3 -1 -1; 2 1 -8/3], 1e-14);
%! assert (squeeze (o.wF_yy(2,:,:)), [0 2 1; 2 0 0; 1 0 0], 1e-15);
%! assert (size (o.G), [2 0]);
%!test
%! ode2 = ode;  ode2.parameters.rho = 0;
%! o = odesys_eval (ode2, 0, [1 0 2]);
%! assert (o.F(2), -2, 1e-15);
%!error <odesys_eval: y has 2 columns; expected 3> odesys_eval (ode, 0, [1 2])
%!error <wF has 2 columns> odesys_eval (ode, 0, [1 2 3], 'wF', [1 2])
%!error <ode must be a system made by odesys> odesys_eval (1, 0, 1)
%!error <odesys_eval: y must be a real full matrix; got sparse double 1x3> odesys_eval (ode, 0, sparse ([1 2 3]))
%!error <odesys_eval: y must be a real full matrix; got complex double 1x3> odesys_eval (ode, 0, [1 2 3i])
%!error <odesys_eval: y must be a real full matrix; got cell 1x3> odesys_eval (ode, 0, {1 2 3})
%!error <odesys_eval: t must be a real full matrix; got logical 1x1> odesys_eval (ode, true, [1 2 3])
%!error <odesys_eval: y must be finite; entry 2 is NaN> odesys_eval (ode, 0, [1 NaN 3])
%!test
%! % integer and single classes are converted
%! o1 = odesys_eval (ode, 0, int32 ([1 2 3]));
%! o2 = odesys_eval (ode, 0, [1 2 3]);
%! assert (o1.F, o2.F);

%!demo
%! % the vector field of a damped pendulum, evaluated on a grid of the phase plane at once
%! ode = odesys ('states', {'th', 'w'}, 'parameters', struct ('g', 9.81, 'l', 1, 'k', 0.5), ...
%!   'rhs', {'w', '-g/l*sin(th) - k*w'});
%! [TH, W] = meshgrid (linspace (-2*pi, 2*pi, 25), linspace (-8, 8, 21));
%! out = odesys_eval (ode, 0, [TH(:) W(:)]);
%! % the trace of the Jacobian (the divergence of the flow) is -k everywhere
%! fprintf ('trace of F_y: min %g, max %g\n', min (out.F_y(:,1,1) + out.F_y(:,2,2)), ...
%!   max (out.F_y(:,1,1) + out.F_y(:,2,2)));
%! sol = dual_solve (ode, [0 10], [-2*pi 7.5]);   % one trajectory, for comparison
%! figure ();
%! quiver (TH, W, reshape (out.F(:,1), size (TH)), reshape (out.F(:,2), size (TH)));
%! hold on;
%! h = plot (sol.y(:,1), sol.y(:,2), 'r', 'linewidth', 1.5);
%! hold off;
%! xlabel ('theta (rad)');  ylabel ('omega (rad/s)');  axis tight;
%! legend (h, 'a trajectory', 'location', 'southeast');
%! title ('odesys_eval: damped pendulum, g/l = 9.81 s^-2, k = 0.5 s^-1', 'interpreter', 'none');
