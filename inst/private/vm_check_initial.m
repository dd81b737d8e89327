% -*- texinfo -*-
% @deftypefn  {} {} vm_check_initial (@var{fname}, @var{sys}, @var{t0}, @var{q0}, @var{qdot0}, @var{tol})
% @deftypefnx {} {[@var{ok}, @var{msg}, @var{kind}, @var{index}, @var{value}] =} vm_check_initial (@dots{})
% Check the initial state of a @code{mechsys} system against its constraints before a solve.
%
% In this order (@file{csrc/model/initial_check.h} has the details): the velocity-level constraint
% Jacobian @code{A = dphi/dqdot} at (@var{t0}, @var{q0}, @var{qdot0}) must have full row rank (no
% constant constraint such as @code{'1'}, no gradient that vanishes at the initial state, no
% redundant or contradictory constraints such as @code{@{'x', 'x-1'@}}); the holonomic
% constraints @code{g(t, q)} must hold at @var{q0}; every constraint must hold at velocity level
% (@code{dg/dq qdot + dg/dt} for the holonomic ones) at @var{qdot0}; residuals to within
% @var{tol} (gauss_integrate's ConstraintTol, default there 1e-8).
%
% Without output arguments a failure is the error @samp{varmech:@var{fname}:initial_state} with
% the message @samp{@var{fname}: } followed by the report, e.g.
% @samp{skg_solve: the initial state violates constraint 1 (x^2+y^2-1) by 0.75 (ConstraintTol = 1e-08)}.
% With output arguments nothing is raised: @var{ok} is true when the state passes, @var{msg} the
% report with the prefix ('' when ok), @var{kind} the code of the finding (0 ok, 1 constant,
% 2 vanishing gradient, 3 redundant, 4 contradictory, 5 position, 6 velocity, 7 non-finite),
% @var{index} the constraint (0: none) and @var{value} the residual.  Invalid arguments are
% always errors (@samp{varmech:@var{fname}:badarg}).
% @end deftypefn

function [ok, msg, kind, index, value] = vm_check_initial (fname, sys, t0, q0, qdot0, tol)
  try
    [ok, msg, kind, index, value] = vm_model_mex ('check_initial', sys, double (t0), ...
                                                  double (q0(:)), double (qdot0(:)), double (tol), fname);
  catch err
    id = err.identifier;
    if (strcmp (id, 'varmech:badarg'))
      id = ['varmech:' fname ':badarg'];
    end
    vm_rethrow (struct ('message', err.message, 'identifier', id), fname);
  end
  if (~ok)
    msg = [fname ': ' msg];
    if (nargout == 0)
      error (['varmech:' fname ':initial_state'], '%s', msg);
    end
  end
end
