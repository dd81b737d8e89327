% -*- texinfo -*-
% @deftypefn  {} {[@var{opts}, @var{unused}] =} vm_fixed_grid_tolerances (@var{opts})
% @deftypefnx {} {@var{message} =} vm_fixed_grid_tolerances (@var{fname}, @var{message}, @var{unused})
% The error-control options of a solver that has none (@code{dual_lorenz}, @code{dual_pars}:
% a fixed grid with the strong final dual).  They take RelTol and AbsTol with the rules of
% @code{dual_solve}, so that every marching solver takes the same accuracy options; the first
% form removes them from @var{opts} (the fixed grid does not depend on them) and returns the
% names of those given in @var{unused}; the second appends to the solution's @var{message} that
% they are not used, naming them, as the message of a fixed grid of @code{dual_solve} says that
% it has no error estimate.
% @end deftypefn

function [out, unused] = vm_fixed_grid_tolerances (a, message, unused)
  if (nargin == 1)
    unused = {};
    if (~isempty (a.RelTol))
      unused{end + 1} = 'RelTol';
    end
    if (~isempty (a.AbsTol))
      unused{end + 1} = 'AbsTol';
    end
    out = rmfield (a, {'RelTol', 'AbsTol'});
    return;
  end
  verb = 'is';
  if (numel (unused) > 1)
    verb = 'are';
  end
  out = sprintf (['%s; %s %s not used: %s has no error control (a fixed grid with the strong ' ...
                  'final dual; dual_solve on the same equations controls the error)'], ...
                 message, strjoin (unused, ' and '), verb, a);
end
