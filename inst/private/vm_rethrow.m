% -*- texinfo -*-
% @deftypefn {} {} vm_rethrow (@var{err}, @var{fname})
% Re-raise an error from a varmech MEX gateway without the gateway's name.
%
% Octave prefixes errors raised in a MEX file with the file's name (@samp{vm_sbp_mex: }); the
% messages of the gateways already start with the user-facing function's name, so the prefix is
% removed and the identifier kept (@samp{varmech:badarg}, the gateways' refusal of an argument,
% becomes @samp{varmech:@var{fname}:badarg} as raised by @code{vm_badarg}).  Errors raised by Octave itself inside the gateway (for example
% when memory for a result cannot be allocated) get the prefix @var{fname} and the identifier
% @samp{varmech:@var{fname}:failed}.
% @end deftypefn

function vm_rethrow (err, fname)
  msg = regexprep (err.message, '^vm_\w+_mex:\s*', '');
  id = err.identifier;
  if (~strncmp (msg, [fname ':'], numel (fname) + 1))
    msg = [fname ': ' msg];
  end
  if (isempty (id))
    id = ['varmech:' fname ':failed'];
  elseif (strcmp (id, 'varmech:badarg'))
    id = ['varmech:' fname ':badarg'];
  end
  error (id, '%s', msg);
end
