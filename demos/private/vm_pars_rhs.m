% -*- texinfo -*-
% @deftypefn {} {@var{dy} =} vm_pars_rhs (@var{kind}, @dots{})
% Right-hand sides of the Pars particle (unit mass, constraint x3 v1 - v2 = 0; Acharya &
% Sengupta Sec. 4.1, re-derived by hand from vdot = -Q and the differentiated constraint
% a . vdot + v1 v3 = 0, a = (x3, -1, 0)), shared by the Pars demos:
% @table @code
% @item vm_pars_rhs ('eq44', y)
% eq. 44, the ideal reaction: y = [x; v], lam* = v1 v3/(1 + x3^2), vdot = -lam* (x3, -1, 0).
% @item vm_pars_rhs ('eq47', y, nu)
% eq. 47' (the eq. 45 force lam* a + a x v + nu v, nu >= 0): y = [x; v].
% @item vm_pars_rhs ('eq48', t, y, z0, v30, printed)
% eq. 48, y = [v1; v2], z = z0 + v30 t: as printed (printed true) v1' = +v1 z v30/(1 + z^2),
% corrected (from eq. 44) v1' = -v1 z v30/(1 + z^2); both v2' = v1 v30/(1 + z^2).
% @end table
% @end deftypefn

function dy = vm_pars_rhs (kind, varargin)
  switch kind
    case 'eq44'
      y = varargin{1};
      l = y(4) * y(6) / (1 + y(3) ^ 2);
      dy = [y(4); y(5); y(6); -y(3) * l; l; 0];
    case 'eq47'
      y = varargin{1};
      nu = varargin{2};
      x3 = y(3);
      v1 = y(4);
      v2 = y(5);
      v3 = y(6);
      l = (v1 * v3 + nu * (v2 - x3 * v1)) / (1 + x3 ^ 2);
      dy = [v1; v2; v3; -x3 * l + v3 - nu * v1; l + x3 * v3 - nu * v2; -x3 * v2 - v1 - nu * v3];
    case 'eq48'
      t = varargin{1};
      y = varargin{2};
      z0 = varargin{3};
      v30 = varargin{4};
      z = z0 + v30 * t;
      sg = -1;
      if (varargin{5})
        sg = 1;
      end
      dy = [sg * y(1) * z * v30 / (1 + z ^ 2); y(1) * v30 / (1 + z ^ 2)];
    otherwise
      error ('vm_pars_rhs: unknown kind %s', kind);
  end
end
