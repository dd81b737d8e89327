% -*- texinfo -*-
% @deftypefn {} {@var{s} =} vm_demo_yesno (@var{tf})
% @samp{yes} when @var{tf} is true, @samp{NO} otherwise: the verdict of one
% check as the demos print it.
% @seealso{vm_demo_table}
% @end deftypefn

function s = vm_demo_yesno (tf)
  if tf
    s = 'yes';
  else
    s = 'NO';
  end
end
