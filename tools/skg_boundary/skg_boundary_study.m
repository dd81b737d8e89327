function res = skg_boundary_study ()
% SKG_BOUNDARY_STUDY  Boundary formulations of the discrete SKG action: convergence and Hessians.
%
%   addpath ('/work/main/tools/skg_boundary'); skg_boundary_study
%
% Prints, for the harmonic oscillator (L = qdot^2/2 - q^2/2) and Galley's damped oscillator
% (q'' + q = -lam q', lam = 1/4), T = 4 pi, N = 41..641, orders 2, 4, 6, 8, the max-norm and
% final-time errors and observed orders of every formulation in skg_assemble (F0 = SBP-SAT
% reference), the Hessian's smallest singular value and condition number, max |q-|, a T sweep,
% the check that F3/F4 reproduce F0 to rounding, F1 with v0 = 0, and the constrained test
% (skg_constrained).  See doc/skg_boundary.md.
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, '..', '..'), fullfile (here, '..', '..', 'inst'));
  Ns = [41, 81, 161, 321, 641];
  orders = [2, 4, 6, 8];
  forms = {'F0', 'F1', 'F2', 'F2b', 'F2c', 'F3', 'F4', 'F5'};
  probs = {struct('name', 'harmonic', 'm', 1, 'k', 1, 'lam', 0, 'q0', 1, 'v0', 0.5, 'T', 4 * pi), ...
           struct('name', 'damped (lam = 1/4)', 'm', 1, 'k', 1, 'lam', 0.25, 'q0', 1, 'v0', 0.5, 'T', 4 * pi)};
  res = struct ();
  for ip = 1:numel (probs)
    prob = probs{ip};
    fprintf ('\n==== %s oscillator, T = %.4g, q0 = %g, v0 = %g ====\n', prob.name, prob.T, prob.q0, prob.v0);
    fprintf ('errors: max = max over grid of |q err|, |v err|; fin = same at t_f; finq = |q err| at t_f\n');
    fprintf ('obs = rate of the finest N pair above the floor 1e3 eps max|y|; rates between consecutive N in ()\n');
    for io = 1:numel (orders)
      order = orders(io);
      fprintf ('\n-- order %d (SBP-SAT design: max %d, final %d) --\n', order, order / 2 + 1, order);
      fprintf ('%-4s %-5s', 'form', 'norm');
      fprintf (' %9d', Ns);
      fprintf ('   %s\n', 'rates / observed');
      for ifm = 1:numel (forms)
        r = skg_run (forms{ifm}, prob, Ns, order, ip == 1);
        res.(sprintf ('p%d', ip)).(forms{ifm})(io) = r;
        print_row (r.form, 'max', r.emax, r.rmax, r.omax);
        print_row ('', 'fin', r.efin, r.rfin, r.ofin);
        print_row ('', 'finq', r.efinq, r.rfinq, r.ofinq);
        if any (strcmp (forms{ifm}, {'F3', 'F4'}))
          r0 = res.(sprintf ('p%d', ip)).F0(io);
          fprintf ('%-10s max |q(%s) - q(F0)| = %.1e,  max |q-| = %.1e\n', '', forms{ifm}, ...
                   max (cellfun (@(a, b) max (abs (a - b)), r.x, r0.x)), max (r.qm));
        end
      end
    end
  end

  fprintf ('\n==== Hessian (KKT matrix) of the harmonic oscillator: smallest singular value, condition ====\n');
  for io = 1:numel (orders)
    fprintf ('\n-- order %d --\n%-4s %-5s', orders(io), 'form', '');
    fprintf (' %9d', Ns);
    fprintf ('\n');
    for ifm = 1:numel (forms)
      r = res.p1.(forms{ifm})(io);
      fprintf ('%-4s %-5s', forms{ifm}, 'smin');
      fprintf (' %9.2e', r.smin);
      fprintf ('\n%-4s %-5s', '', 'cond');
      fprintf (' %9.2e', r.cond);
      fprintf ('\n');
    end
  end

  fprintf ('\n==== other T (observed orders max/fin; F0 = SBP-SAT, F2 = DESIGN reading, F4 = recommended) ====\n');
  for T = [2 * pi, 20]
    for ip = 1:2
      prob = probs{ip};
      prob.T = T;
      fprintf ('%-20s T = %6.3f:', prob.name, T);
      for order = [2, 4, 6]
        for f = {'F0', 'F2', 'F4'}
          r = skg_run (f{1}, prob, Ns, order, false);
          fprintf (' o%d %s %4.2f/%4.2f', order, f{1}, r.omax, r.ofin);
        end
        fprintf (' |');
      end
      fprintf ('\n');
    end
  end

  fprintf ('\n==== F1 (papers'' appendix, literal) with v0 = 0: the only obstruction is the initial velocity ====\n');
  prob = probs{1};  prob.v0 = 0;
  for order = [2, 4, 6]
    r = skg_run ('F1', prob, Ns, order, false);
    print_row (sprintf ('F1 o%d', order), 'max', r.emax, r.rmax, r.omax);
    print_row ('', 'finq', r.efinq, r.rfinq, r.ofinq);
  end

  fprintf ('\n==== linear velocity constraint c''qdot + d''q = 0 with multiplier pairs (F4 + lambda+-) ====\n');
  fprintf ('err_q, err_v, err_lam (max over grid), err_qfin; |q-|, |lam-|, max|g|; smin of Hessian\n');
  for lam_bc = [false, true]
    if lam_bc
      fprintf ('with the papers'' boundary multipliers on lambda-_1, lambda-_N:\n');
    else
      fprintf ('without boundary multipliers on lambda (recommended):\n');
    end
    for order = [2, 4, 6]
      e = zeros (numel (Ns), 9);
      for in = 1:numel (Ns)
        w = warning (); warning ('off', 'Octave:singular-matrix'); warning ('off', 'Octave:nearly-singular-matrix');
        rc = skg_constrained (Ns(in), order, lam_bc);
        warning (w);
        e(in, :) = [rc.err_q, rc.err_v, rc.err_lam, rc.err_qfin, rc.qm, rc.lm, rc.g, rc.smin, rc.cond];
        fprintf (' o%d N=%4d  q %8.2e  v %8.2e  lam %8.2e  qfin %8.2e | q- %7.1e lam- %7.1e g %7.1e | smin %8.2e\n', ...
                 order, Ns(in), e(in, 1:8));
      end
      hr = log (Ns(end - 1) - 1) - log (Ns(end) - 1);
      rt = log (e(end - 1, 1:4) ./ e(end, 1:4)) / -hr;
      fprintf (' o%d rates (N %d/%d): q %.2f  v %.2f  lam %.2f  qfin %.2f\n', order, Ns(end - 1), Ns(end), rt);
    end
  end
  if nargout == 0
    clear res;
  end
end

function print_row (name, nrm, e, rt, obs)
  fprintf ('%-4s %-5s', name, nrm);
  fprintf (' %9.2e', e);
  fprintf ('   (');
  fprintf ('%5.2f ', rt);
  fprintf (') %5.2f\n', obs);
end
