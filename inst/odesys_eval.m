% -*- texinfo -*-
% @deftypefn  {} {out =} odesys_eval (ode, t, y)
% @deftypefnx {} {out =} odesys_eval (..., name, value)
% Values and exact derivatives of a compiled first-order system at many points.
%
% @var{t} is N-by-1 (or a scalar), @var{y} is N-by-ny (one row per point).  Options
% @code{"wF"} (N-by-nd or 1-by-nd) and @code{"wG"} (N-by-na or 1-by-na) weight the Hessians;
% default 0.  Fields of @var{out} (points first, as in @code{mechsys_eval}):
% @code{F} (N-by-nd), @code{F_y} (N-by-nd-by-ny, @code{F_y(:,i,j)} = dF_i/dy_j), @code{F_t},
% @code{G}, @code{G_y}, @code{G_t}, and the weighted Hessians @code{wF_yy} (of wF . F) and
% @code{wG_yy} (of wG . G), N-by-ny-by-ny.
%
% Numbers of another real class than double (single, int32, ...) are converted to double;
% sparse, complex, logical, char, cell and other arrays where numbers are expected are refused
% with an error that names the argument, what it must be and the class and size received.
% @seealso{odesys, mechsys_eval}
% @end deftypefn

function out = odesys_eval (ode, t, y, varargin)
  fname = 'odesys_eval';
  if (nargin < 3)
    vm_badarg (fname, 'expected at least 3 inputs: ode, t, y (see help odesys_eval)');
  end
  if (~isstruct (ode) || ~isfield (ode, 'type') || ~strcmp (ode.type, 'odesys'))
    vm_badarg (fname, 'ode must be a system made by odesys');
  end
  opts = vm_options (fname, struct ('wF', [], 'wG', []), varargin);
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
    out = vm_model_mex ('eval', ode.blocks.system, N, {t, y, p, wf, wg}, fname, 'full', {'t', 'y', 'parameters', 'wF', 'wG'});
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
