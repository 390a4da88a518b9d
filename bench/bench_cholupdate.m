function T = bench_cholupdate(ns, reps)
%BENCH_CHOLUPDATE  qru_cholupdate against Octave's (or MATLAB's) cholupdate.
%   T = bench_cholupdate(ns, reps) times R1 = qru_cholupdate(R, x, op) and
%   R1 = cholupdate(R, x, op) for op '+' and '-', double, at the orders ns
%   (default [500 1000 2000 4000]), the two interleaved in the same process,
%   the median of reps runs each (default 9) after one warm-up, and prints
%   a Markdown table: n, op, qru ms, peer ms, peer / qru, and the largest
%   difference of the two results relative to norm(R1, 'fro').  T holds
%   the same rows [n sign qru_s peer_s].
%
%   The backend is qru's default for the MEX file (QRU_MEX_BACKEND, else
%   'auto'); set QRU_MEX_BACKEND=cpu for the CPU backend.  Run from the
%   repository's root after a build:
%     octave --eval "addpath('matlab/qru'); addpath('build/matlab'); \
%                    addpath('bench'); bench_cholupdate"
if nargin < 1 || isempty(ns)
  ns = [500 1000 2000 4000];
end
if nargin < 2
  reps = 9;
end
[~, device] = qru_backend();
printf('qru_cholupdate against cholupdate, double, %s; median of %d\n', device, reps);
printf('| n | op | qru ms | cholupdate ms | cholupdate / qru | difference |\n');
printf('| ---: | --- | ---: | ---: | ---: | ---: |\n');
T = zeros(0, 4);
rand('seed', 7); randn('seed', 7);
for n = ns
  A = randn(n);
  A = A' * A + n * eye(n);
  R = chol(A);
  x = randn(n, 1);
  for op = '+-'
    Rin = R;
    if op == '-'  % a downdate that stays definite: of the factor of A + x x'
      Rin = cholupdate(R, x, '+');
    end
    a = zeros(1, reps);
    b = a;
    for r = 0:reps
      tic; R1 = qru_cholupdate(Rin, x, op); ta = toc;
      tic; R2 = cholupdate(Rin, x, op); tb = toc;
      if r > 0
        a(r) = ta;
        b(r) = tb;
      end
    end
    d = norm(R1 - R2, 'fro') / norm(R2, 'fro');
    printf('| %d | %s | %.2f | %.2f | %.2f | %.1e |\n', n, op, 1e3 * median(a), ...
           1e3 * median(b), median(b) / median(a), d);
    T(end + 1, :) = [n, 44 - double(op), median(a), median(b)];
  end
end
end
