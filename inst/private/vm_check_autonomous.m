% -*- texinfo -*-
% @deftypefn {} {} vm_check_autonomous (fname, ode)
% Refuse an @code{odesys} whose right-hand sides depend on t (periodic_orbit and
% periodic_guesses need an autonomous system xdot = F(x)): the error names the first such
% right-hand side and says what to do with a periodic forcing.  t is found as a name in the
% formula (not as part of a longer name, nor a function name).
% @end deftypefn

function vm_check_autonomous (fname, ode)
  for i = 1:ode.nd
    if (~isempty (regexp (ode.rhs{i}, '(^|[^A-Za-z0-9_.])t([^A-Za-z0-9_(]|$)', 'once')))
      vm_badarg (fname, ['right-hand side %d (%s) depends on t; expected an autonomous system ' ...
                         '(add a phase state for a periodic forcing)'], i, ode.rhs{i});
    end
  end
end
