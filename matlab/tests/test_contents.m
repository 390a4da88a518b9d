function nfail = test_contents()
%TEST_CONTENTS  The toolbox's Contents.m lists every function of the
%   toolbox folder once, with its H1 line as the summary, names no other,
%   and its Version line is the library's version (QRU_VERSION_MAJOR,
%   _MINOR, _PATCH of include/qru.h).  Needs no MEX file.
qru_check('reset');
here = fileparts(mfilename('fullpath'));
toolbox = fullfile(here, '..', 'qru');
lines = regexp(fileread(fullfile(toolbox, 'Contents.m')), '\r?\n', 'split');
% the version
hdr = fileread(fullfile(here, '..', '..', 'include', 'qru.h'));
v = cellfun(@(p) regexp(hdr, ['#define QRU_VERSION_' p ' +(\d+)'], 'tokens', 'once'), ...
            {'MAJOR', 'MINOR', 'PATCH'});
version = strjoin(v, '.');
vl = lines(strncmp(lines, '% Version ', 10));
qru_check(numel(vl) == 1 && strcmp(strtrim(vl{1}(11:end)), version), ...
          'Contents.m: Version line %s, the library is %s', strjoin(vl, ' | '), version);
% the listing: '%   name - summary'
listed = cell(0, 2);
for k = 1:numel(lines)
  t = regexp(lines{k}, '^%\s+(qru_\w+)\s+- (.*)$', 'tokens', 'once');
  if ~isempty(t)
    listed(end + 1, :) = {t{1}, strtrim(t{2})};
  end
end
files = dir(fullfile(toolbox, 'qru_*.m'));
names = regexprep({files.name}, '\.m$', '');
qru_check(numel(names) > 0, 'no functions in %s', toolbox);
for k = 1:numel(names)
  row = strcmp(listed(:, 1), names{k});
  if sum(row) ~= 1
    qru_check(false, 'Contents.m lists %s %d times', names{k}, sum(row));
    continue;
  end
  h1 = h1_line(fullfile(toolbox, [names{k} '.m']));
  qru_check(strcmp(listed{row, 2}, h1), 'Contents.m: %s - "%s", but its H1 line is "%s"', ...
            names{k}, listed{row, 2}, h1);
end
extra = setdiff(listed(:, 1), names);
qru_check(isempty(extra), 'Contents.m lists functions the toolbox lacks: %s', strjoin(extra, ' '));
nfail = qru_check('count');
end

function h1 = h1_line(file)
% the first comment line '%NAME  summary' of a function or class file
txt = regexp(fileread(file), '\r?\n', 'split');
c = txt(strncmp(strtrim(txt), '%', 1));
h1 = '';
if ~isempty(c)
  t = regexp(strtrim(c{1}), '^%[A-Z_0-9]+\s+(.*)$', 'tokens', 'once');
  if ~isempty(t)
    h1 = strtrim(t{1});
  end
end
end
