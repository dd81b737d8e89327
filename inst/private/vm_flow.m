% -*- texinfo -*-
% @deftypefn {} {@var{f} =} vm_flow (@var{ode}, @var{t0}, @var{tf}, @var{x0}, @var{tout}, @var{sec}, @var{rtol})
% The trajectory of an autonomous @code{odesys} from @var{x0} over [@var{t0}, @var{tf}] by the
% package's DOP853 integrator (@code{vm_periodic_mex ("flow")}), without variational equations.
% @var{tout}: [] (the integrator's own steps in @code{f.t}, @code{f.y}) or the output times;
% @var{sec}: [] or a plane [a, b, dir] whose crossings are located (@code{f.te}, @code{f.ye});
% relative tolerance @var{rtol}, absolute @var{rtol} max (1, max |x0|).  @code{f.status} is 0 on
% success, else @code{f.message} says why.  Cost: the integration.
% @end deftypefn

function f = vm_flow (ode, t0, tf, x0, tout, sec, rtol)
  setup = struct ('t0', t0, 'tf', tf, 'x0', x0, 'tout', tout, 'rtol', rtol, ...
                  'atol', rtol * max (1, max (abs (x0))), 'variational', 0, 'section', sec, ...
                  'max_steps', 0);
  f = vm_periodic_mex ('flow', ode, setup);
end
