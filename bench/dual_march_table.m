% -*- texinfo -*-
% @deftypefn {} {@var{T} =} dual_march_table ()
% The table of doc/dual.md ("Marching"): the five problems of @code{dual_march_problems} solved by
% @code{dual_solve} with its defaults (adaptive, N = 33, order 4 / companion 6) at RelTol 1e-6 and
% 1e-9 (AbsTol = RelTol/100), and by ode45 at the same tolerances: max error over the dual's grid
% (against the ode45 reference), error at tf, accepted and rejected windows, Newton iterations,
% wall-clock time.  Run from the build tree: @code{addpath ('.', 'inst', 'bench'); dual_march_table}.
% @end deftypefn

function T = dual_march_table ()
  P = dual_march_problems ();
  rts = [1e-6 1e-9];
  T = struct ('name', {}, 'rtol', {}, 'exitflag', {}, 'maxerr', {}, 'enderr', {}, 'ymax', {}, ...
              'windows', {}, 'rejected', {}, 'iterations', {}, 'time', {}, 'ode45_enderr', {}, ...
              'ode45_maxerr', {});
  fprintf ('%-18s %6s %4s %9s %9s %9s %6s %5s %6s %7s | %9s %9s\n', 'problem', 'RelTol', 'flag', ...
           'max err', 'err(tf)', 'tol', 'win', 'rej', 'Newton', 'time', 'ode45 max', 'ode45 tf');
  for k = 1:numel (P)
    for j = 1:2
      rt = rts(j);
      tic;
      s = dual_solve (P(k).ode, P(k).tspan, P(k).y0, 'RelTol', rt, 'AbsTol', rt/100);
      el = toc;
      yr = P(k).ref (s.t);
      [to, yo] = ode45 (P(k).f, P(k).tspan, P(k).y0(:), odeset ('RelTol', rt, 'AbsTol', rt/100));
      yro = P(k).ref (to);
      r = struct ('name', P(k).name, 'rtol', rt, 'exitflag', s.exitflag, ...
                  'maxerr', max (max (abs (s.y - yr))), 'enderr', max (abs (s.y(end, :) - yr(end, :))), ...
                  'ymax', max (abs (yr(:))), 'windows', numel (s.windows.t0), ...
                  'rejected', numel (s.rejected.t0), 'iterations', s.iterations, 'time', el, ...
                  'ode45_enderr', max (abs (yo(end, :) - yro(end, :))), ...
                  'ode45_maxerr', max (max (abs (yo - yro))));
      T(end+1) = r;
      fprintf ('%-18s %6.0e %4d %9.2e %9.2e %9.2e %6d %5d %6d %6.2fs | %9.2e %9.2e\n', r.name, rt, ...
               r.exitflag, r.maxerr, r.enderr, rt * r.ymax + rt/100, r.windows, r.rejected, ...
               r.iterations, r.time, r.ode45_maxerr, r.ode45_enderr);
    end
  end
end
