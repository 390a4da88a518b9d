function nfail = test_plot_bench()
%TEST_PLOT_BENCH  plot_bench reads a benchmark table (comment header,
%   numeric and text columns) and writes PNG files; bad input is rejected.
%   plot_bench.m lies with the benchmark plot scripts, in scripts/.
qru_check('reset');
addpath(fullfile(fileparts(mfilename('fullpath')), '..', '..', 'scripts'));
if exist('OCTAVE_VERSION', 'builtin') && isempty(getenv('DISPLAY')) ...
    && (system('command -v gnuplot >/dev/null 2>&1') ~= 0 ...
        || ~any(strcmp(available_graphics_toolkits(), 'gnuplot')))
  fprintf('SKIP: no display and no gnuplot to draw PNG files headless (Debian: gnuplot-nox)\n');
  nfail = -1;
  return;
end
dir = tempname();
mkdir(dir);
file = fullfile(dir, 'bench.txt');
fid = fopen(file, 'w');
fprintf(fid, '%% qru bench: add columns, double\n%% backend n m p time_update time_full\n');
fprintf(fid, 'cpu 100 50 1 0.001 0.004\ncpu 200 100 1 0.003 0.02\n');
fprintf(fid, 'opencl,100,50,1,0.002,0.003\nopencl 200 100 1 0.004 0.012\n');
fclose(fid);
T = plot_bench(file);
qru_check(isequal(T.names, {'backend', 'n', 'm', 'p', 'time_update', 'time_full'}), ...
          'column names: %s', strjoin(T.names, ' '));
qru_check(isequal(size(T.data), [4 6]) && isequal(T.data(:, 2)', [100 200 100 200]) ...
          && isequal(T.text(:, 1)', {'cpu', 'cpu', 'opencl', 'opencl'}), 'table contents');
png = fullfile(dir, 'speedup.png');
plot_bench(file, 'n', 'time_full/time_update', png, 'group', 'backend', 'logx', true);
info = dir_bytes(png);
qru_check(info > 1000, 'speedup PNG has %d bytes', info);
png2 = fullfile(dir, 'times.png');
plot_bench(file, 'n', {'time_update', 'time_full'}, png2, 'where', {'backend', 'cpu'});
qru_check(dir_bytes(png2) > 1000, 'times PNG not written');
try
  plot_bench(file, 'n', 'no_such_column', fullfile(dir, 'x.png'));
  qru_check(false, 'unknown column accepted');
catch err
  qru_check(~isempty(strfind(err.message, 'no_such_column')), 'message: %s', err.message);
end
try
  plot_bench(fullfile(dir, 'missing.txt'));
  qru_check(false, 'missing file accepted');
catch
end
delete(file); delete(png); delete(png2);
rmdir(dir);
nfail = qru_check('count');
end

function b = dir_bytes(f)
d = dir(f);
if isempty(d), b = 0; else b = d.bytes; end
end
