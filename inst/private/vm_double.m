% -*- texinfo -*-
% @deftypefn {} {@var{x} =} vm_double (@var{x})
% A real full numeric array of another class (single, int32, uint8, ...) converted to double;
% anything else (double, sparse, complex, logical, char, cell, struct, ...) returned unchanged,
% for the gateway's check to name it with its class.
% @end deftypefn

function x = vm_double (x)
  if (isnumeric (x) && isreal (x) && ~issparse (x) && ~isa (x, 'double'))
    x = double (x);
  end
end
