% test_contact_energy.m -- the energy of a mechanical solution counts the soft contacts' potential.
%
% A contact (help mechsys) adds the normal force FN = V0/sqrt(2 pi sigma^2) exp(-h^2/(2 sigma^2))
% grad h.  It is -grad U with U(h) = V0/2 erfc(h/(sqrt(2) sigma)): d/dh erfc(h/(sqrt(2) sigma)) =
% -2/sqrt(pi) exp(-h^2/(2 sigma^2)) / (sqrt(2) sigma), so dU/dh = -V0/sqrt(2 pi sigma^2)
% exp(-h^2/(2 sigma^2)) and -grad U = -dU/dh grad h = FN; U -> 0 on the allowed side (h >> sigma)
% and V0 deep behind the wall.  sol.energy = qdot . dL/dqdot - L + sum_c U_c is then constant along
% a motion without friction and drag, and sol.contact_energy = sum_c U_c.
%
% The bound on the energy's change.  The exact flow keeps E, so a state error d made in one step
% (window) is carried without change of E: the energy at any point differs from E(0) by at most
% the sum over the steps so far of |grad E . d|.  Each step's error is within the solver's own
% tolerance per component, sc_i = AbsTol + RelTol max|y_i| (max over the run, at least the
% solver's scale): skg_solve's estimate is a max-norm <= 1 over the window's nodes; gauss_integrate's
% (Hairer's) an RMS norm <= 1 over the 2n components, so each |d_i| <= sqrt(2n) sc_i.  Hence
% |E - E(0)| <= nsteps sum_i max|dE/dy_i| c sc_i with c = 1 (skg) or sqrt(2n) (gauss_integrate),
% dE/dqdot = qdot and dE/dy = g - FN_y for the ball below.

%!shared ball, g
%! % a ball bouncing on the soft floor y >= 0: no drag, no friction (mu = 0), conservative
%! g = 9.81;
%! ball = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', g), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', ...
%!   'contacts', struct ('h', 'y', 'sigma', 1e-2, 'V0', 20));

%!function E0 = old_energy (sys, sol)
%!  % qdot . dL/dqdot - L, the energy without the contacts' potential, from mechsys_eval
%!  o = mechsys_eval (sys, sol.t, sol.q, sol.qdot, 'blocks', {'lagrangian'});
%!  E0 = sum (sol.qdot .* o.L_qdot, 2) - o.L;
%!endfunction

%!function b = energy_bound (sys, sol, g, nsteps, rtol, atol, c)
%!  % the bound of the header: nsteps sum_i max|dE/dy_i| c (AbsTol + RelTol max|y_i|)
%!  o = mechsys_eval (sys, sol.t, sol.q, sol.qdot, 'blocks', {'contacts'});
%!  dE = [zeros(size (sol.t)), g - o.FN(:, 1, 2), sol.qdot];   % d/dx, d/dy, d/dxdot, d/dydot
%!  y = [sol.q, sol.qdot];
%!  b = nsteps * sum (max (abs (dE), [], 1) .* c .* (atol + rtol * max (abs (y), [], 1)));
%!endfunction

%!test
%! % dU/dq by central differences against -FN, on a curved gap with two contacts of different
%! % widths; Richardson's (4 D(s/2) - D(s))/3 with the difference of the two as its error bound
%! s = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('V0', 3, 'w', 0.2), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2', ...
%!   'contacts', struct ('h', {'1 - x^2 - y^2', 'y + 0.3*x'}, 'sigma', {'w', 0.5}, 'V0', {'V0', 2}));
%! q = [0.6 0.75; 0.5 -0.1; -0.9 0.35];
%! o = mechsys_eval (s, 0, q, zeros (size (q)));
%! FN = squeeze (sum (o.FN, 2));                        % the sum of the contacts' normal forces
%! for i = 1:2
%!   e = zeros (1, 2);
%!   e(i) = 1;
%!   D = @(h) (mechsys_eval (s, 0, q + h * e, 0 * q, 'blocks', {'eom'}).contact_energy ...
%!             - mechsys_eval (s, 0, q - h * e, 0 * q, 'blocks', {'eom'}).contact_energy) / (2 * h);
%!   h = 1e-3;
%!   d1 = D (h);
%!   d2 = D (h / 2);
%!   rich = (4 * d2 - d1) / 3;
%!   err = abs (d2 - d1) + 10 * eps * max (abs (o.contact_energy)) / h;
%!   assert (abs (rich + FN(:, i)) <= err);
%! end
%! % the potential itself: V0/2 erfc(h/(sqrt(2) sigma)) summed over the contacts
%! h1 = 1 - sum (q .^ 2, 2);
%! h2 = q(:, 2) + 0.3 * q(:, 1);
%! U = 3/2 * erfc (h1 / (sqrt (2) * 0.2)) + 2/2 * erfc (h2 / (sqrt (2) * 0.5));
%! assert (o.contact_energy, U, 10 * eps * max (U));
%! assert (o.energy, o.contact_energy, 10 * eps * max (U));   % at rest: the potential only

%!test
%! % skg_solve: the soft bounce keeps its energy to the tolerance's bound; energy - contact_energy
%! % is the old quantity qdot . dL/dqdot - L
%! rtol = 1e-8;
%! atol = 1e-10;
%! sol = skg_solve (ball, [0 1.5], [0 1], [0.5 0], 'RelTol', rtol, 'AbsTol', atol);
%! assert (sol.exitflag, 1);
%! assert (size (sol.contact_energy), size (sol.energy));
%! assert (max (sol.contact_energy) > 0.5 * g);         % the bounce went through the layer
%! assert (min (sol.q(:, 2)) < 1e-2);
%! b = energy_bound (ball, sol, g, numel (sol.window_iterations), rtol, atol, 1);
%! assert (max (abs (sol.energy - sol.energy(1))) <= b);
%! E0 = old_energy (ball, sol);
%! assert (sol.energy - sol.contact_energy, E0, 10 * eps * max (abs (sol.energy) + sol.contact_energy));
%! % without the potential the energy drops by about m g h0 at the contact: what the field fixes
%! assert (max (abs (E0 - E0(1))) > 0.5 * g);

%!test
%! % gauss_integrate, 'Contacts', 'soft': the same; with hard walls the potential is no part of the
%! % motion: contact_energy zeros and the energy as before
%! rtol = 1e-9;
%! atol = 1e-11;
%! sol = gauss_integrate (ball, [0 1.5], [0 1], [0.5 0], 'Contacts', 'soft', 'RelTol', rtol, ...
%!                        'AbsTol', atol);
%! assert (sol.exitflag, 1);
%! assert (max (sol.contact_energy) > 0.5 * g);
%! b = energy_bound (ball, sol, g, sol.stats.naccept, rtol, atol, sqrt (4));
%! assert (max (abs (sol.energy - sol.energy(1))) <= b);
%! E0 = old_energy (ball, sol);
%! assert (sol.energy - sol.contact_energy, E0, 10 * eps * max (abs (sol.energy) + sol.contact_energy));
%! hard = gauss_integrate (ball, [0 1.5], [0 1], [0.5 0]);
%! assert (hard.contact_energy, zeros (numel (hard.t), 1));
%! assert (hard.energy, old_energy (ball, hard), 10 * eps * max (abs (hard.energy)));

%!test
%! % friction dissipates: with mu > 0 and a sliding contact the energy (potential included) decays
%! sl = mechsys ('coordinates', {'x', 'y'}, 'parameters', struct ('g', 9.81), ...
%!   'lagrangian', '(dot(x)^2 + dot(y)^2)/2 - g*y', ...
%!   'contacts', struct ('h', 'y', 'sigma', 1e-3, 'V0', 20, 'mu', 0.3));
%! y0 = 1e-3 * sqrt (2 * log (20 / (sqrt (2 * pi) * 1e-3 * 9.81)));   % FN = g: resting in the layer
%! sol = gauss_integrate (sl, [0 0.3], [0 y0], [2 0], 'Contacts', 'soft', 'RelTol', 1e-9, ...
%!                        'AbsTol', 1e-11);
%! assert (sol.exitflag, 1);
%! assert (all (sol.contact_energy > 0 & sol.contact_energy < 0.1));
%! assert (all (diff (sol.energy) < 0));                % mu g (2 - 0.3 * 9.81 t) per unit time
%! assert (sol.energy(end) < sol.energy(1) - 0.5);

%!test
%! % no contacts: contact_energy is zeros, energy as before, in both solvers
%! osc = mechsys ('coordinates', {'q'}, 'lagrangian', 'dot(q)^2/2 - q^2/2');
%! s1 = skg_solve (osc, [0 1], 1, 0);
%! s2 = gauss_integrate (osc, [0 1], 1, 0);
%! assert (s1.contact_energy, zeros (size (s1.t)));
%! assert (s2.contact_energy, zeros (size (s2.t)));
%! assert (s2.energy, (s2.qdot .^ 2 + s2.q .^ 2) / 2, 10 * eps);
