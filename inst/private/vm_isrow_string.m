% -*- texinfo -*-
% @deftypefn {} {@var{tf} =} vm_isrow_string (@var{x})
% True when @var{x} is a string as the options take it: a 1-by-n char row (2-D, one row).
% A char column, matrix or N-D array is not (Octave's string functions would convert a
% char N-D array with an error that names nothing).
% @end deftypefn

function tf = vm_isrow_string (x)
  tf = ischar (x) && ndims (x) == 2 && size (x, 1) == 1;
end
