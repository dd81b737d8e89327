% -*- texinfo -*-
% @deftypefn  {} {} vm_check_flow_system (@var{fname}, @var{ode}, @var{form})
% @deftypefnx {} {@var{y0} =} vm_check_flow_system (@var{fname}, @var{ode}, @var{form}, @var{y0})
% Refuse, as errors of @var{fname}, an @var{ode} that is not an autonomous @code{odesys} without
% algebraic states (the systems whose flow the periodic-orbit functions integrate), and with
% @var{y0} a start that is not a real finite vector of one entry per state; @var{y0} is then
% returned as a double row.  @var{form} ends the message on algebraic states (for example
% 'xdot = F(x)').  Why one place: periodic_orbit, periodic_guesses, periodic_catalogue and
% periodic_continue take the same kind of system.
% @end deftypefn

function y0 = vm_check_flow_system (fname, ode, form, y0)
  if (~isstruct (ode) || ~isscalar (ode) || ~isfield (ode, 'type') || ~strcmp (ode.type, 'odesys'))
    vm_badarg (fname, 'ode must be a system made by odesys');
  end
  if (ode.ny ~= ode.nd || ode.na ~= 0)
    vm_badarg (fname, 'the system has algebraic states or equations; expected an ODE %s', form);
  end
  vm_check_autonomous (fname, ode);
  if (nargin < 4)
    return;
  end
  n = ode.nd;
  if (~isnumeric (y0) || issparse (y0) || ~isreal (y0) || ~isvector (y0) || numel (y0) ~= n ...
      || ~all (isfinite (y0(:))))
    vm_badarg (fname, 'y0 must be a real finite vector with %d entries; got %s', n, vm_describe (y0));
  end
  y0 = vm_double (y0(:)');
end
