function T = plot_bench(file, xname, ynames, png, varargin)
%PLOT_BENCH  Plots a qru benchmark table (speedups, times) to a PNG file.
%   T = plot_bench(file) reads the table and lists its columns.
%   T = plot_bench(file, xname, ynames, png, ...) plots the columns ynames
%   (a name or a cell array of names) against the column xname and writes
%   the figure to the file png.  A y name of the form 'a/b' plots the ratio
%   of columns a and b, e.g. 'time_full/time_update' for the speedup of an
%   update over a full factorisation.
%
%   The table is a text file as the benchmarks in bench/ write it: comment
%   lines start with '%' or '#'; the column names are the words of the last
%   comment line (or non-numeric line) before the first row of data, e.g.
%       % qru bench: add columns, double, cpu
%       % n m p k time_update time_full
%       1000 500 10 250 0.0123 0.456
%   Fields are separated by blanks, tabs or commas.  Non-numeric fields
%   (e.g. a backend name) are kept as text and can be used with 'group'.
%
%   Options (name, value pairs):
%     'group'  column name: one line per distinct value (e.g. 'p' or 'backend')
%     'where'  {name, value, ...}: keep only the rows with these values
%     'title', 'xlabel', 'ylabel'  strings (defaults from the column names)
%     'logx', 'logy'  true for logarithmic axes (default: logx false,
%                     logy false)
%     'one'    true draws the line y = 1 (break-even of a speedup); default
%              true when a ratio is plotted
%
%   T is a struct with fields names (cellstr), data (numeric matrix, NaN
%   for text fields) and text (cellstr, '' for numeric fields).
%
%   Example:
%     plot_bench('bench_add_cols.txt', 'n', 'time_full/time_update', ...
%                'speedup_add_cols.png', 'group', 'p', 'logx', true);
T = read_table(file);
if nargin < 2
  fprintf('%s: %d rows, columns: %s\n', file, size(T.data, 1), strjoin(T.names, ' '));
  return;
end
if nargin < 4
  error('plot_bench: usage: plot_bench(file, xname, ynames, png, ...)');
end
if ischar(ynames)
  ynames = {ynames};
end
opt = struct('group', '', 'where', {{}}, 'title', '', 'xlabel', xname, ...
             'ylabel', '', 'logx', false, 'logy', false, 'one', []);
for i = 1:2:numel(varargin)
  key = lower(varargin{i});
  if ~isfield(opt, key) || i + 1 > numel(varargin)
    error('plot_bench: unknown option or missing value: %s', varargin{i});
  end
  opt.(key) = varargin{i + 1};
end
% row filter
keep = true(size(T.data, 1), 1);
for i = 1:2:numel(opt.where)
  keep = keep & matches(T, opt.where{i}, opt.where{i + 1});
end
x = column(T, xname);
isratio = any(cellfun(@(s) any(s == '/'), ynames));
if isempty(opt.one)
  opt.one = isratio;
end
if isempty(opt.ylabel)
  if isratio, opt.ylabel = 'speedup'; else opt.ylabel = strjoin(ynames, ', '); end
end
% groups
if isempty(opt.group)
  gvals = {[]};
else
  [g, gtext] = column(T, opt.group);
  if any(~cellfun(@isempty, gtext))
    gvals = unique(gtext(keep));
  else
    gvals = num2cell(unique(g(keep)));
  end
end
% Without a display Octave draws with gnuplot, whose cairo PNG terminal
% needs neither Ghostscript (Octave's -dpng route) nor a particular font.
device = '-dpng';
if exist('OCTAVE_VERSION', 'builtin') && isempty(getenv('DISPLAY')) ...
    && any(strcmp(available_graphics_toolkits(), 'gnuplot'))
  warning('off', 'Octave:gnuplot-graphics');
  graphics_toolkit('gnuplot');
  device = '-dpngcairo';
end
fig = figure('visible', 'off');
hold on;
styles = {'-o', '-s', '-^', '-d', '-v', '-x', '-+', '-*'};
legends = {};
xall = [];
k = 0;
for yi = 1:numel(ynames)
  y = ycolumn(T, ynames{yi});
  for gi = 1:numel(gvals)
    sel = keep;
    label = ynames{yi};
    if ~isempty(opt.group)
      sel = sel & matches(T, opt.group, gvals{gi});
      label = sprintf('%s, %s = %s', label, opt.group, val2str(gvals{gi}));
    end
    [xs, order] = sort(x(sel));
    ys = y(sel);
    ys = ys(order);
    if isempty(xs)
      continue;
    end
    k = k + 1;
    plot(xs, ys, styles{mod(k - 1, numel(styles)) + 1}, 'linewidth', 1.5);
    legends{end + 1} = label;
    xall = [xall; xs(:)]; %#ok<AGROW>
  end
end
if k == 0
  close(fig);
  error('plot_bench: no rows to plot in %s', file);
end
if opt.one
  plot([min(xall) max(xall)], [1 1], 'k--');
  legends{end + 1} = 'break-even';
end
hold off;
if opt.logx, set(gca, 'xscale', 'log'); end
if opt.logy, set(gca, 'yscale', 'log'); end
grid on;
xlabel(opt.xlabel, 'interpreter', 'none');
ylabel(opt.ylabel, 'interpreter', 'none');
if isempty(opt.title)
  [~, base, ext] = fileparts(file);
  opt.title = [base ext];
end
title(opt.title, 'interpreter', 'none');
legend(legends, 'interpreter', 'none');
print(fig, png, device, '-r100');
close(fig);
end

function T = read_table(file)
fid = fopen(file, 'r');
if fid < 0
  error('plot_bench: cannot open %s', file);
end
lines = {};
while true
  l = fgetl(fid);
  if ~ischar(l), break; end
  lines{end + 1} = l; %#ok<AGROW>
end
fclose(fid);
names = {};
rowsdata = {};
rowstext = {};
for i = 1:numel(lines)
  l = strtrim(lines{i});
  if isempty(l)
    continue;
  end
  if l(1) == '%' || l(1) == '#'
    if isempty(rowsdata)
      names = split_fields(strtrim(l(2:end)));
    end
    continue;
  end
  f = split_fields(l);
  v = str2double(f);
  if isempty(rowsdata) && all(isnan(v))   % an uncommented header line
    names = f;
    continue;
  end
  rowsdata{end + 1} = v; %#ok<AGROW>
  t = f;
  t(~isnan(v)) = {''};
  rowstext{end + 1} = t; %#ok<AGROW>
end
if isempty(rowsdata)
  error('plot_bench: %s holds no data rows', file);
end
ncol = numel(rowsdata{1});
if any(cellfun(@numel, rowsdata) ~= ncol)
  error('plot_bench: %s: rows have different numbers of fields', file);
end
if numel(names) ~= ncol
  error('plot_bench: %s: %d column names (%s) for %d columns', file, ...
        numel(names), strjoin(names, ' '), ncol);
end
T.names = names;
T.data = vertcat(rowsdata{:});
T.text = vertcat(rowstext{:});
end

function f = split_fields(l)
f = regexp(l, '[\s,;]+', 'split');
f = f(~cellfun(@isempty, f));
end

function [v, t] = column(T, name)
i = find(strcmp(T.names, name));
if isempty(i)
  error('plot_bench: no column "%s" (columns: %s)', name, strjoin(T.names, ' '));
end
v = T.data(:, i);
t = T.text(:, i);
end

function y = ycolumn(T, spec)
parts = strsplit(spec, '/');
y = column(T, strtrim(parts{1}));
for i = 2:numel(parts)
  y = y ./ column(T, strtrim(parts{i}));
end
end

function m = matches(T, name, value)
[v, t] = column(T, name);
if ischar(value)
  m = strcmp(t, value);
else
  m = v == value;
end
end

function s = val2str(v)
if ischar(v), s = v; else s = num2str(v); end
end
