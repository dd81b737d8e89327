function files = varmech_build (varargin)
% VARMECH_BUILD  Compile the varmech MEX files with mex, in MATLAB or in Octave.
%
%   varmech_build
%   varmech_build ('OutDir', folder)
%   varmech_build ('UmfpackInclude', incdir, 'LibDirs', {libdir}, 'Libs', {'-lumfpack', ...})
%   files = varmech_build (...)
%
% Compiles the C kernels (csrc/*/*.c), the shared argument checks (mex/vm_mex_args.c) and the seven
% gateways (mex/vm_sbp_mex.c, vm_model_mex.c, vm_integrate_mex.c, vm_skg_mex.c, vm_dual_mex.c,
% vm_periodic_mex.c, vm_options_mex.c)
% with the mex command, and puts the MEX files into inst/private next to the .m API, where only
% the functions of inst/ see them.  Run it from anywhere; afterwards add inst/ to the path:
%
%   varmech_build
%   addpath (fullfile (pwd, 'inst'))
%
% Only the documented mex.h API is used, with the separate-complex layout mex builds by default
% (no -R2018a).  The kernels need UMFPACK (SuiteSparse) and LAPACK/BLAS with 32-bit integers.
%
% Options (name/value pairs):
%   'OutDir'          folder for the MEX files (default: inst/private next to this file)
%   'BuildDir'        folder for the object files (default: a temporary folder, removed after)
%   'UmfpackInclude'  folder holding umfpack.h and SuiteSparse_config.h (default: the first of
%                     /usr/include/suitesparse, /usr/local/include/suitesparse,
%                     /opt/homebrew/include/suitesparse, /usr/include that has umfpack.h)
%   'IncludeDirs'     more include folders (cell array of char)
%   'LibDirs'         folders to search for the libraries (cell array of char; -L)
%   'Libs'            link flags (default {'-lumfpack', '-llapack', '-lblas'}; Debian packages
%                     libsuitesparse-dev, liblapack-dev, libblas-dev)
%   'Verbose'         true to show the mex commands (default false)
%
% MATLAB does not ship the UMFPACK headers.  Get SuiteSparse from
% https://github.com/DrTimothyAldenDavis/SuiteSparse (or a system package: Debian/Ubuntu
% libsuitesparse-dev, Homebrew suite-sparse, conda-forge suitesparse) and pass its include and
% library folders.  Do not link MATLAB's own -lmwlapack -lmwblas: they take 64-bit integers and
% the kernels pass 32-bit ones; link a LAPACK/BLAS with 32-bit integers (reference LAPACK,
% OpenBLAS), preferably statically.
%
% See also: README.md, section "Using varmech from MATLAB".

  root = fileparts (mfilename ('fullpath'));
  opt = struct ('OutDir', fullfile (root, 'inst', 'private'), 'BuildDir', '', ...
                'UmfpackInclude', '', 'IncludeDirs', {{}}, 'LibDirs', {{}}, ...
                'Libs', {{'-lumfpack', '-llapack', '-lblas'}}, 'Verbose', false);
  if (mod (numel (varargin), 2) ~= 0)
    error ('varmech_build: options come as name/value pairs');
  end
  names = fieldnames (opt);
  for k = 1:2:numel (varargin)
    hit = strcmpi (varargin{k}, names);
    if (~ischar (varargin{k}) || ~any (hit))
      error ('varmech_build: unknown option %s', num2str (varargin{k}));
    end
    opt.(names{hit}) = varargin{k + 1};
  end
  opt.IncludeDirs = cellstr (opt.IncludeDirs);
  opt.LibDirs = cellstr (opt.LibDirs);
  opt.Libs = cellstr (opt.Libs);

  is_octave = exist ('OCTAVE_VERSION', 'builtin') ~= 0;

  % UMFPACK headers
  umf = opt.UmfpackInclude;
  if (isempty (umf))
    cand = {'/usr/include/suitesparse', '/usr/local/include/suitesparse', ...
            '/opt/homebrew/include/suitesparse', '/usr/include', '/usr/local/include'};
    for k = 1:numel (cand)
      if (exist (fullfile (cand{k}, 'umfpack.h'), 'file'))
        umf = cand{k};
        break;
      end
    end
    if (isempty (umf))
      error (['varmech_build: umfpack.h not found; install SuiteSparse ' ...
              '(https://github.com/DrTimothyAldenDavis/SuiteSparse, or the package ' ...
              'libsuitesparse-dev / suite-sparse) and pass its include folder as ' ...
              '''UmfpackInclude'' and its library folder in ''LibDirs''']);
    end
  elseif (~exist (fullfile (umf, 'umfpack.h'), 'file'))
    error ('varmech_build: no umfpack.h in %s', umf);
  end

  csrc = fullfile (root, 'csrc');
  mexdir = fullfile (root, 'mex');
  incs = [{['-I' csrc], ['-I' mexdir], ['-I' umf]}, strcat('-I', opt.IncludeDirs)];
  ldirs = strcat ('-L', opt.LibDirs);

  builddir = opt.BuildDir;
  cleanup_build = isempty (builddir);
  if (cleanup_build)
    builddir = tempname ();
  end
  if (~exist (builddir, 'dir'))
    mkdir (builddir);
  end
  if (~exist (opt.OutDir, 'dir'))
    mkdir (opt.OutDir);
  end

  % compiler flags: the kernels are C99
  old_cflags = '';
  if (is_octave)
    old_cflags = getenv ('CFLAGS');
    setenv ('CFLAGS', '-std=c99 -O2');
    cflags = {};
  elseif (ispc ())
    cflags = {};
  else
    cflags = {'CFLAGS=$CFLAGS -std=c99'};
  end
  if (ispc () && ~is_octave)
    objext = '.obj';
  else
    objext = '.o';
  end
  verb = {};
  if (opt.Verbose)
    verb = {'-v'};
  end

  here = pwd ();
  try
    cd (builddir);
    % the kernels and the argument checks, compiled once
    % csrc/ holds one folder per module (base, la, sbp, model, ...); every .c file of each
    srcs = {};
    mods = dir (csrc);
    mods = mods([mods.isdir] & ~strncmp ({mods.name}, '.', 1));
    for k = 1:numel (mods)
      fs = dir (fullfile (csrc, mods(k).name, '*.c'));
      srcs = [srcs, cellfun(@(f) fullfile (csrc, mods(k).name, f), {fs.name}, 'UniformOutput', false)];
    end
    srcs{end + 1} = fullfile (mexdir, 'vm_mex_args.c');
    objs = cell (1, numel (srcs));
    for k = 1:numel (srcs)
      [~, base] = fileparts (srcs{k});
      objs{k} = fullfile (builddir, [base objext]);
      if (is_octave)
        mex (verb{:}, '-c', incs{:}, srcs{k}, '-o', objs{k});
      else
        mex (verb{:}, cflags{:}, '-c', incs{:}, '-outdir', builddir, srcs{k});
      end
    end
    % the gateways
    gws = {'vm_sbp_mex', 'vm_model_mex', 'vm_integrate_mex', 'vm_skg_mex', 'vm_dual_mex', ...
           'vm_periodic_mex', 'vm_options_mex'};
    files = cell (1, numel (gws));
    for k = 1:numel (gws)
      gw = fullfile (mexdir, [gws{k} '.c']);
      if (is_octave)
        files{k} = fullfile (opt.OutDir, [gws{k} '.mex']);
        mex (verb{:}, incs{:}, '-o', files{k}, gw, objs{:}, ldirs{:}, opt.Libs{:});
      else
        files{k} = fullfile (opt.OutDir, [gws{k} '.' mexext()]);
        mex (verb{:}, cflags{:}, incs{:}, '-outdir', opt.OutDir, '-output', gws{k}, gw, objs{:}, ...
             ldirs{:}, opt.Libs{:});
      end
    end
  catch err
    cd (here);
    restore_cflags (is_octave, old_cflags);
    rethrow (err);
  end
  cd (here);
  restore_cflags (is_octave, old_cflags);
  if (cleanup_build)
    rmdir (builddir, 's');
  end
  fprintf ('varmech_build: %d MEX files in %s\n', numel (files), opt.OutDir);
  if (nargout == 0)
    clear files
  end
end

function restore_cflags (is_octave, old)
  if (is_octave && isempty (old))
    unsetenv ('CFLAGS');
  elseif (is_octave)
    setenv ('CFLAGS', old);
  end
end
