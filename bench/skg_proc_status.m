function kb = skg_proc_status (field)
% SKG_PROC_STATUS  a field of /proc/self/status in kB (Linux), e.g. 'VmHWM' or 'VmRSS'; NaN elsewhere.
  kb = NaN;
  fid = fopen ('/proc/self/status', 'r');
  if (fid < 0)
    return;
  end
  txt = fread (fid, Inf, 'char=>char')';
  fclose (fid);
  tok = regexp (txt, [field ':\s*(\d+)\s*kB'], 'tokens', 'once');
  if (~isempty (tok))
    kb = str2double (tok{1});
  end
end
