function r = skg_run (form, prob, Ns, order, want_svd)
% SKG_RUN  Solve one formulation on a sequence of grids; errors, rates, Hessian diagnostics.
%
% r.emax: max over the grid of |q - q_ex| and |v - v_ex| (v the velocity variable of the
% formulation); r.efin: the same at t_f; r.efinq: |q_N - q_ex(t_f)|; r.qm: max |q-|;
% r.smin, r.cond: smallest singular value and 2-norm condition number of the Hessian (KKT matrix);
% r.x: solutions; observed orders as in demo_sbp_convergence (finest pair above 1e3 eps max|y|).
  nN = numel (Ns);
  r.form = form;  r.order = order;  r.N = Ns;
  r.h = prob.T ./ (Ns - 1);
  [r.emax, r.efin, r.efinq, r.qm, r.smin, r.cond] = deal (nan (1, nN));
  r.x = cell (1, nN);
  ysize = 0;
  for in = 1:nN
    s = skg_assemble (form, prob, Ns(in), order);
    w = warning (); warning ('off', 'Octave:singular-matrix'); warning ('off', 'Octave:nearly-singular-matrix');
    x = s.K \ s.rhs;
    warning (w);
    [q, v] = skg_exact (prob, s.t);
    qn = x(s.iqp);  vn = s.vel (x);
    r.emax(in) = max (abs ([qn - q; vn - v]));
    r.efin(in) = max (abs ([qn(end) - q(end), vn(end) - v(end)]));
    r.efinq(in) = abs (qn(end) - q(end));
    if ~isempty (s.iqm)
      r.qm(in) = max (abs ([x(s.iqm); x(s.ipm)]));
    end
    if want_svd
      sv = svd (full (s.K));
      r.smin(in) = sv(end);
      r.cond(in) = sv(1) / sv(end);
    end
    r.x{in} = qn;
    ysize = max ([ysize; abs(q); abs(v)]);
  end
  r.floor = 1e3 * eps * ysize;
  [r.rmax, r.omax] = skg_rates (r.h, r.emax, r.floor);
  [r.rfin, r.ofin] = skg_rates (r.h, r.efin, r.floor);
  [r.rfinq, r.ofinq] = skg_rates (r.h, r.efinq, r.floor);
end

function [rt, obs] = skg_rates (h, e, efloor)
  rt = log (e(1:end - 1) ./ e(2:end)) ./ log (h(1:end - 1) ./ h(2:end));
  ok = e(1:end - 1) > efloor & e(2:end) > efloor;
  k = find (ok, 1, 'last');
  if isempty (k)
    obs = NaN;
  else
    obs = rt(k);
  end
end
