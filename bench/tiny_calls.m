% -*- texinfo -*-
% @deftypefn  {} {@var{r} =} tiny_calls ()
% @deftypefnx {} {@var{r} =} tiny_calls (@var{reps})
% The cost of a public call on a tiny problem: a 1-dof oscillator (x'' = -x) on [0, 0.1], solved
% by @code{skg_solve} and @code{gauss_integrate} (the mechsys system) and by @code{dual_solve}
% (the same oscillator as an odesys system), in one process.  Each call runs once as a warm-up,
% then @var{reps} times (default 20); @var{r} has the median of each (seconds: @code{skg},
% @code{dual}, @code{gauss}) and the ratios @code{skg_ratio} = skg / gauss and
% @code{dual_ratio} = dual / gauss, which are printed.  What is measured is the fixed cost of a
% call (argument checks, options, loading the model, the crossing between m-code and C), since
% the kernels have almost nothing to do.  Run from the build folder:
% @verbatim
% octave-cli --no-gui --norc --quiet --eval "addpath('.', 'inst', 'bench'); tiny_calls ();"
% @end verbatim
% @end deftypefn

function r = tiny_calls (reps)
  if (nargin < 1)
    reps = 20;
  end
  sys = mechsys ('coordinates', {'x'}, 'lagrangian', 'dot(x)^2/2 - x^2/2');
  ode = odesys ('states', {'x', 'v'}, 'rhs', {'v', '-x'});
  tspan = [0 0.1];
  calls = {@() skg_solve (sys, tspan, 1, 0), @() dual_solve (ode, tspan, [1 0]), ...
           @() gauss_integrate (sys, tspan, 1, 0)};
  names = {'skg', 'dual', 'gauss'};
  r = struct ();
  for k = 1:numel (calls)
    f = calls{k};
    f ();   % warm-up: the gateway loaded, the function parsed
    t = zeros (reps, 1);
    for j = 1:reps
      t0 = tic ();
      f ();
      t(j) = toc (t0);
    end
    r.(names{k}) = median (t);
  end
  r.skg_ratio = r.skg / r.gauss;
  r.dual_ratio = r.dual / r.gauss;
  fprintf ('tiny calls (1-dof oscillator on [0, 0.1], median of %d): skg_solve %.3g ms, ', reps, 1e3 * r.skg);
  fprintf ('dual_solve %.3g ms, gauss_integrate %.3g ms; skg/gauss %.2f, dual/gauss %.2f\n', ...
           1e3 * r.dual, 1e3 * r.gauss, r.skg_ratio, r.dual_ratio);
end
