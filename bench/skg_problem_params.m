function [P, sys, tspan, q0, qdot0] = skg_problem_params (problem, sig)
% SKG_PROBLEM_PARAMS  the two benchmark problems of bench_skg, as parameters and a mechsys.
%   'tumbler': demo_tumbler's soft wall (m = R = 1, g = 9.8, V0 = 5, no friction; sigma = sig,
%              default 1/10, the widest of the paper's three), start at rest at (-1/2, -3/4),
%              0 <= t <= 1/2.
%   'disk':    demo_skg_rolling_disk (paper footnote 2) with the linear constraint form
%              g1lin = xdot cos(phi) + ydot sin(phi) - R thetadot, g2 = xdot sin(phi) - ydot cos(phi);
%              q0 = 0, qdot0 = (5, 0, 5, 1), 0 <= t <= 2 pi.
  switch problem
    case 'tumbler'
      if (nargin < 2 || isempty (sig))
        sig = 1/10;
      end
      P = struct ('m', 1, 'g', 9.8, 'R', 1, 'sig', sig, 'V0', 5);
      tspan = [0 0.5];  q0 = [-1/2 -3/4];  qdot0 = [0 0];
      if (nargout > 1)
        contact = struct ('h', 'R^2 - x^2 - y^2', 'sigma', 'sig', 'V0', 'V0');
        sys = mechsys ('coordinates', {'x', 'y'}, 'parameters', P, ...
                       'lagrangian', 'm/2*(dot(x)^2 + dot(y)^2) - m*g*y', 'contacts', contact);
      end
    case 'disk'
      P = struct ('M', 1, 'g', 9.8, 'alpha', pi/6, 'R', 1, 'IS', 1/2, 'ID', 1/4);
      tspan = [0 2*pi];  q0 = [0 0 0 0];  qdot0 = [5 0 5 1];
      if (nargout > 1)
        sys = mechsys ('coordinates', {'x', 'y', 'theta', 'phi'}, 'parameters', P, ...
          'lagrangian', 'M/2*(dot(x)^2 + dot(y)^2) + IS/2*dot(theta)^2 + ID/2*dot(phi)^2 + M*g*x*sin(alpha)', ...
          'constraints', {'dot(x)*cos(phi) + dot(y)*sin(phi) - R*dot(theta)', 'dot(x)*sin(phi) - dot(y)*cos(phi)'});
      end
    otherwise
      error ('skg_problem_params: unknown problem %s', problem);
  end
end
