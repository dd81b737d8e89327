% -*- texinfo -*-
% @deftypefn {} {} vm_badarg (@var{fname}, @var{template}, @dots{})
% Raise the error @samp{varmech:@var{fname}:badarg} with the message
% @samp{@var{fname}: } followed by @var{template} formatted with the further arguments.
% @end deftypefn

function vm_badarg (fname, template, varargin)
  error (['varmech:' fname ':badarg'], ['%s: ' template], fname, varargin{:});
end
