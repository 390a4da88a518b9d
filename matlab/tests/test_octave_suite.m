function nfail = test_octave_suite(backend)
%TEST_OCTAVE_SUITE  Octave's own tests of its QR and Cholesky update
%   functions, run against qru's.  The test blocks of the installed
%   qr.cc-tst and chol.cc-tst (under OCTAVE_HOME/share/octave/<version>/
%   etc/tests, else any /usr/share/octave/*/etc/tests) that call qrupdate,
%   qrinsert, qrdelete, qrshift, cholupdate, cholinsert, choldelete or
%   cholshift are taken as they are, with only those names replaced by
%   qru_qrupdate, qru_qrinsert, ... (whole words), and each is run by
%   Octave's test() in a file of its own, with the source file's
%   %!function blocks and the %!shared block it belongs to, on the
%   backend (QRU_MEX_BACKEND).  Blocks with complex data - an imaginary
%   literal (1i, 0.5i, ...), complex(), the imaginary units I, J, i, j
%   used unassigned, or a %!shared variable whose value is complex - run
%   like the real ones where the backend takes complex data (qru_backend's
%   fourth output: every backend of this build); elsewhere they are
%   skipped (the backend does not support complex data), counted and
%   listed.  A complex block that fails with the error qru:unsupported
%   raised by a Cholesky routine of the library (the error's identifier
%   and its message naming qru_chol_...: a library that does not take
%   complex Cholesky updates; every backend of this one does) is skipped
%   too, with the reason "complex
%   Cholesky updates not supported by the <backend> backend".  A testif block whose feature
%   this Octave lacks is skipped as test() skips it.
%
%   nfail = test_octave_suite('cpu') returns the number of blocks that
%   failed (1 as well when no real block was found), or -1 (skip) when
%   the test files are not installed or this is not Octave.
fns = {'qrupdate', 'qrinsert', 'qrdelete', 'qrshift', ...
       'cholupdate', 'cholinsert', 'choldelete', 'cholshift'};
if ~exist('OCTAVE_VERSION', 'builtin')
  fprintf('SKIP: Octave''s test blocks run with Octave''s test()\n');
  nfail = -1;
  return;
end
dir = suite_dir();
if isempty(dir)
  fprintf(['SKIP: Octave''s qr.cc-tst and chol.cc-tst are not installed ' ...
           '(looked in %s and /usr/share/octave/*/etc/tests)\n'], ...
          fullfile(OCTAVE_HOME(), 'share', 'octave', OCTAVE_VERSION(), 'etc', 'tests'));
  nfail = -1;
  return;
end
work = tempname();
mkdir(work);
cleanup = onCleanup(@() remove_dir(work));
pat = ['(?<![\w.])(' strjoin(fns, '|') ')(?!\w)'];
[~, ~, ~, run_complex] = qru_backend(backend);
no_complex = sprintf('the %s backend does not support complex data', backend);
no_zchol = sprintf('complex Cholesky updates not supported by the %s backend', backend);
npass = 0; nfail = 0; ncomplex = 0; complex_list = {}; skipped = {};
for f = {'qr.cc-tst', 'chol.cc-tst'}
  file = fullfile(dir, f{1});
  blocks = read_blocks(file);
  funcs = blocks(ismember({blocks.type}, {'function', 'endfunction'}));
  shared = [];
  for b = 1:numel(blocks)
    blk = blocks(b);
    if strcmp(blk.type, 'shared')
      shared = blk;
      shared.complex = [];  % its complex variables, found when needed
      continue;
    end
    if any(strcmp(blk.type, {'function', 'endfunction', 'demo'})) || ...
       isempty(regexp(blk.code, pat, 'once'))
      continue;
    end
    called = regexp(blk.code, pat, 'tokens');
    called = strjoin(unique(cellfun(@(c) c{1}, called, 'UniformOutput', false)), ', ');
    where = sprintf('%s:%d (%s)', f{1}, blk.line, called);
    if ~isempty(shared) && isnumeric(shared.complex)
      shared.complex = complex_vars(shared);
    end
    why = complex_reason(blk, shared);
    if ~isempty(why) && ~run_complex
      complex_list{end+1} = sprintf('%s: %s; %s', where, why, no_complex);
      continue;
    end
    % the block, the file's functions and its shared block, renamed
    parts = {funcs.text};
    if ~isempty(shared)
      parts{end+1} = shared.text;
    end
    parts{end+1} = blk.text;
    code = regexprep(strjoin(parts, ''), pat, 'qru_$1');
    tfile = fullfile(work, sprintf('block_%s_%d.m', strrep(f{1}, '.', '_'), blk.line));
    log = [tfile '.log'];
    write_file(tfile, code);
    fid = fopen(log, 'w');
    lasterr('', '');
    [n, nmax, ~, ~, nskip] = test(tfile, 'quiet', fid);
    [msg, id] = lasterr();
    fclose(fid);
    if ~isempty(why)
      why = sprintf(' (complex: %s)', why);
    end
    if nskip > 0 && nmax == 0
      skipped{end+1} = sprintf('%s: testif feature missing', where);
      fprintf('SKIP %s (its testif feature is missing)\n', where);
    elseif nmax >= 1 && n == nmax
      npass = npass + 1;
      ncomplex = ncomplex + ~isempty(why);
      fprintf('PASS %s%s\n', where, why);
    elseif ~isempty(why) && strcmp(id, 'qru:unsupported') && ...
           ~isempty(regexp(msg, '\<qru_chol_\w+: complex', 'once'))
      complex_list{end+1} = sprintf('%s: %s', where, no_zchol);
      fprintf('SKIP %s%s: %s (%s)\n', where, why, no_zchol, msg);
    else
      nfail = nfail + 1;
      fprintf('FAIL %s%s: %d of %d passed\n', where, why, n, nmax);
      fprintf('%s', fileread(log));
    end
  end
end
fprintf('%s backend: %d blocks passed (%d of them complex), %d failed; %d complex blocks skipped', ...
        backend, npass, ncomplex, nfail, numel(complex_list));
if ~isempty(skipped)
  fprintf(', %d skipped by testif', numel(skipped));
end
fprintf('\n');
for c = 1:numel(complex_list)
  fprintf('  skipped: %s\n', complex_list{c});
end
if npass - ncomplex + nfail == 0
  fprintf('FAIL: no real update block was found in %s\n', dir);
  nfail = 1;
end
end

function dir = suite_dir()
% the folder of the running Octave's test files, else the first installed
sub = fullfile('etc', 'tests', 'libinterp', 'corefcn');
cands = {fullfile(OCTAVE_HOME(), 'share', 'octave', OCTAVE_VERSION(), sub)};
found = glob(fullfile('/usr/share/octave', '*', sub));
cands = [cands, found(:)'];
dir = '';
for c = 1:numel(cands)
  if exist(fullfile(cands{c}, 'qr.cc-tst'), 'file') && ...
     exist(fullfile(cands{c}, 'chol.cc-tst'), 'file')
    dir = cands{c};
    return;
  end
end
end

function blocks = read_blocks(file)
% The %! blocks of a test file as test() splits them: a block starts at a
% %! line whose third character is not blank; type is its first word,
% text its lines as in the file, code the lines without %!, line the
% first line's number in the file.
lines = strsplit(fileread(file), "\n");
blocks = struct('type', {}, 'text', {}, 'code', {}, 'line', {});
for k = 1:numel(lines)
  ln = lines{k};
  if numel(ln) < 2 || ~strcmp(ln(1:2), '%!')
    continue;
  end
  body = ln(3:end);
  if ~isempty(body) && ~isspace(body(1))
    blocks(end+1).type = regexp(body, '^\w+', 'match', 'once');
    blocks(end).text = '';
    blocks(end).code = '';
    blocks(end).line = k;
  elseif isempty(blocks)
    continue;
  end
  blocks(end).text = [blocks(end).text ln "\n"];
  blocks(end).code = [blocks(end).code body "\n"];
end
end

function names = complex_vars(blk)
% the variables of a %!shared block whose initial values are complex
names = {};
decl = regexp(blk.code, '^shared\s+([^\n]*)', 'tokens', 'once');
if isempty(decl)
  return;
end
vars = strtrim(strsplit(decl{1}, ','));
init = regexprep(blk.code, '^[^\n]*\n?', '', 'once');
vals = eval_shared(init, vars);
for v = 1:numel(vars)
  if isfield(vals, vars{v}) && isnumeric(vals.(vars{v})) && iscomplex(vals.(vars{v}))
    names{end+1} = vars{v};
  end
end
end

function vals = eval_shared(init__, vars__)
% the shared variables after the block's initialisation code
vals = struct();
try
  eval(init__);
catch
end
for v__ = 1:numel(vars__)
  if exist(vars__{v__}, 'var')
    vals.(vars__{v__}) = eval(vars__{v__});
  end
end
end

function why = complex_reason(blk, shared)
% why the block uses complex data, or '' if it does not
code = blk.code;
why = '';
lit = regexp(code, '(?<![\w.])(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[ijIJ](?!\w)', 'match', 'once');
if ~isempty(lit)
  why = sprintf('imaginary literal %s', lit);
  return;
end
if ~isempty(regexp(code, '(?<![\w.])complex\s*\(', 'once'))
  why = 'complex()';
  return;
end
for u = {'I', 'J', 'i', 'j'}
  used = regexp(code, ['(?<![\w.])' u{1} '(?!\w)'], 'once');
  assigned = regexp(code, ['(?<![\w.])' u{1} '\s*=(?!=)'], 'once');
  if ~isempty(used) && isempty(assigned)
    why = sprintf('the imaginary unit %s', u{1});
    return;
  end
end
if ~isempty(shared)
  uses = {};
  for v = 1:numel(shared.complex)
    if ~isempty(regexp(code, ['(?<![\w.])' shared.complex{v} '(?!\w)'], 'once'))
      uses{end+1} = shared.complex{v};
    end
  end
  if ~isempty(uses)
    why = sprintf('complex shared data %s', strjoin(uses, ', '));
  end
end
end

function remove_dir(d)
confirm_recursive_rmdir(false, 'local');
rmdir(d, 's');
end

function write_file(name, text)
fid = fopen(name, 'w');
fprintf(fid, '%s', text);
fclose(fid);
end
