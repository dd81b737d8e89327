% -*- texinfo -*-
% @deftypefn {} {} vm_rethrow (@var{err})
% Re-raise an error from a varmech MEX gateway without the gateway's name.
%
% Octave prefixes errors raised in a MEX file with the file's name (@samp{__vm_sbp__: }); the
% messages of the gateways already start with the user-facing function's name, so the prefix is
% removed and the identifier kept.
% @end deftypefn

function vm_rethrow (err)
  msg = regexprep (err.message, '^__vm_\w+__:\s*', '');
  if (isempty (err.identifier))
    error ('%s', msg);
  else
    error (err.identifier, '%s', msg);
  end
end
