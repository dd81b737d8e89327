function t = band_time_matrix (band_time, Jm, umfopts, reps)
% BAND_TIME_MATRIX  time one factorization + solve of a sparse matrix with both backends of
% csrc/la/linsolve.h and one bare dgbtrf of its band, by the compiled timer bench/band_time.c
% (make band_time): the matrix is written to a scratch file (CSC, the structural pattern with
% its explicit zeros, as band_time reads it), band_time runs with the UMFPACK options umfopts
% ('skg' or 'default') and reps repetitions, and its key=value line comes back as the fields of
% t (trf_only: the warm dgbtrf; band_num, umf_num, kl, ku, ...: bench/band_time.c).
% Jm: struct with n, the pattern ii, jj (1-based, column-major, rows sorted within a column) and
% the values vv.  Used by bench_band (all parts) and bench_dual (part b).
  f = [tempname() '_band.bin'];
  write_csc (f, Jm);
  [st, out] = system (sprintf ('%s %s %s %d', band_time, f, umfopts, reps));
  delete (f);
  if (st ~= 0)
    error ('band_time_matrix: %s failed: %s', band_time, out);
  end
  t = struct ();
  kv = regexp (strtrim (out), '(\w+)=(\S+)', 'tokens');
  for k = 1:numel (kv)
    v = str2double (kv{k}{2});
    if (isnan (v) && ~strcmpi (kv{k}{2}, 'nan'))
      v = kv{k}{2};
    end
    t.(kv{k}{1}) = v;
  end
end

function write_csc (f, Jm)
  n = Jm.n;
  cp = [0; cumsum(accumarray (Jm.jj(:), 1, [n 1]))];
  fid = fopen (f, 'wb');
  fwrite (fid, int64 ([n; numel(Jm.ii)]), 'int64');
  fwrite (fid, int64 (cp), 'int64');
  fwrite (fid, int64 (Jm.ii(:) - 1), 'int64');
  fwrite (fid, Jm.vv(:), 'double');
  fclose (fid);
end
