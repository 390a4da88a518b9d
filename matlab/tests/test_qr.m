function nfail = test_qr(backend)
%TEST_QR  qru_qr and qru_lsq_solve against Octave/MATLAB's qr and \.
%   nfail = test_qr(backend) returns the number of failed checks.
qru_check('reset');
classes = qru_classes(backend);
rand('seed', 42); randn('seed', 42);
sizes = [1 1; 5 3; 40 17; 64 64; 130 33; 7 12];
for c = 1:numel(classes)
  cls = classes{c};
  ep = double(eps(cls));
  for t = 1:rows(sizes)
    n = sizes(t, 1); m = sizes(t, 2);
    A = cast(randn(n, m), cls); b = cast(randn(n, 2), cls);
    [Q, R, d] = qru_qr(A, b, backend);
    what = sprintf('qr %s %dx%d', cls, n, m);
    qru_check(strcmp(class(Q), cls) && strcmp(class(R), cls) && strcmp(class(d), cls), ...
              '%s: output class', what);
    qru_check(isequal(size(Q), [n n]) && isequal(size(R), [n m]) && isequal(size(d), [n 2]), ...
              '%s: output sizes', what);
    Ad = double(A); Qd = double(Q); Rd = double(R);
    berr = norm(Ad - Qd * Rd, 'fro') / (norm(Ad, 'fro') * max(n, m) * ep);
    oerr = norm(eye(n) - Qd' * Qd, 'fro') / (n * ep);
    qru_check(berr < 30, '%s: backward error %g', what, berr);
    qru_check(oerr < 30, '%s: orthogonality %g', what, oerr);
    qru_check(all(all(tril(R, -1) == 0)), '%s: R not upper triangular', what);
    derr = norm(double(d) - Qd' * double(b), 'fro') / (norm(double(b), 'fro') * n * ep);
    qru_check(derr < 30, '%s: d = Q''*b error %g', what, derr);
    % against the built-in qr, up to the signs of R's rows
    [Qo, Ro] = qr(Ad);
    if n >= m
      [eR, eQ] = qru_qrdiff(Qd, Rd, Qo, Ro);
      tol = 30 * max(n, m) * ep * cond(Ad);
      qru_check(eR < tol && eQ < tol, '%s: differs from qr: R %g, Q %g (tol %g)', ...
                what, eR, eQ, tol);
    end
    % R only
    R2 = qru_qr(A, backend);
    qru_check(isequal(size(R2), [n m]) && norm(double(R2) - Rd, 'fro') <= 10 * ep * norm(Rd, 'fro'), ...
              '%s: R = qru_qr(A) differs from [Q, R] = qru_qr(A)', what);
    % least squares
    if n >= m
      [x, res] = qru_lsq_solve(A, b, backend);
      xo = Ad \ double(b);
      xerr = norm(double(x) - xo, 'fro') / (norm(xo, 'fro') * max(n, m) * ep * cond(Ad)^2);
      qru_check(strcmp(class(x), cls) && isequal(size(x), [m 2]), '%s: x class/size', what);
      qru_check(xerr < 30, '%s: x = A\\b error %g', what, xerr);
      ro = sqrt(sum((Ad * xo - double(b)).^2, 1));
      % both residuals are computed to about (||b|| + ||A|| ||x||) eps
      rscale = (norm(double(b), 'fro') + norm(Ad, 'fro') * norm(xo, 'fro')) * max(n, m) * ep;
      rerr = max(abs(res - ro)) / rscale;
      qru_check(isequal(size(res), [1 2]) && rerr < 30, '%s: residual norms error %g', what, rerr);
    end
  end
end
% mixed classes compute in single
x = qru_lsq_solve(single(randn(6, 3)), randn(6, 1), backend);
qru_check(strcmp(class(x), 'single'), 'single/double mix gives %s', class(x));
% error cases
A = randn(6, 3); b = randn(6, 1);
qru_expect_error('qru:*', 'sparse A', @qru_qr, sparse(A), backend);
qru_expect_error('qru:*', 'int A', @qru_qr, int32(A), backend);
qru_expect_error('qru:*', 'b rows', @qru_qr, A, randn(5, 1), backend);
qru_expect_error('qru:*', 'bad backend', @qru_qr, A, 'gpu');
qru_expect_error('qru:usage', 'lsq b rows', @qru_lsq_solve, A, randn(5, 1), backend);
qru_expect_error('qru:usage', 'lsq underdetermined', @qru_lsq_solve, A', randn(3, 1), backend);
Z = A; Z(:, 2) = 0;
qru_expect_error('qru:numerical', 'rank-deficient A\\b', @qru_lsq_solve, Z, b, backend);
qru_expect_error('qru:usage', 'unknown command', @qru_mex, 'nonsense');
nfail = qru_check('count');
end
