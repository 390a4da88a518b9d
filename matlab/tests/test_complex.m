function nfail = test_complex(backend)
%TEST_COMPLEX  Complex single and double data through the MEX file.  On a
%   backend that takes complex data (qru_backend's fourth output): qru_qr
%   (full, economy, d = Q'*b), qru_qrinsert and qru_qrdelete (columns and
%   rows, one and a block, j at the start, the middle and the end, full
%   and economy factors), qru_qrupdate (rank 1 and rank k, full and
%   economy), qru_qrshift (wide, and tall with full and economy factors,
%   i and j at the ends and inside), qru_lsq_solve and qru_lsq in its
%   three forms, each against Octave's own qr, qrinsert, qrdelete,
%   qrupdate and mldivide on the same data (the peer's answer is the
%   reference, up to the phases of R's rows): scaled residuals
%   norm(A1 - Q1*R1) / (norm(A1) max(n,m) eps), Q1'*Q1 = I, R1 exactly
%   upper triangular, the class and complexity of the result; real
%   arguments mixed with complex ones promoted as MATLAB promotes them.
%   The Cholesky functions (rank 1 and 3 updates, a downdate and one that
%   is not positive definite, deletions of one and of a block, insertions
%   and shifts at the ends and inside, pages of the three batched ones)
%   against Octave's cholupdate, cholinsert, choldelete and chol:
%   norm(R1'*R1 - A1) / (norm(A1) n eps), R1 exactly upper triangular
%   with a real positive diagonal, on every backend.  Least squares
%   over pages, which the
%   library does not take complex data for yet, must give the right
%   result or raise qru:unsupported naming the routine.  On a backend
%   without complex data: every entry point raises qru:unsupported with
%   a message naming the backend.
qru_check('reset');
[name, ~, ~, cplx] = qru_backend(backend);
rand('seed', 11); randn('seed', 11);
n = 14; m = 6;
crandn = @(varargin) complex(randn(varargin{:}), randn(varargin{:}));
if ~cplx
  A = crandn(n, m); [Q, R] = qr(A);
  refused(name, 'qr', @qru_qr, A, backend);
  refused(name, 'qrinsert', @qru_qrinsert, Q, R, 2, crandn(n, 1), backend);
  refused(name, 'qrinsert real factors', @qru_qrinsert, real(Q), real(R), 2, crandn(n, 1), backend);
  refused(name, 'qrdelete', @qru_qrdelete, Q, R, 2, backend);
  refused(name, 'qrupdate', @qru_qrupdate, Q, R, crandn(n, 1), crandn(m, 1), backend);
  refused(name, 'lsq_solve', @qru_lsq_solve, A, crandn(n, 1), backend);
  refused(name, 'lsq', @() qru_lsq(A, crandn(n, 1), backend));
  nfail = qru_check('count');
  return;
end
for cls = qru_classes(backend)
  cls = cls{1};
  ep = double(eps(cls));
  A = crandn(n, m); b = crandn(n, 2);
  As = cast(A, cls);
  % the factorisation
  [Q, R, d] = qru_qr(As, cast(b, cls), backend);
  [Qo, Ro] = qr(A);
  check(sprintf('qr %s', cls), cls, Q, R, A, Qo, Ro);
  derr = norm(double(d) - double(Q)' * b, 'fro') / (norm(b, 'fro') * n * ep);
  qru_check(derr < 30, 'qr %s: d = Q''*b error %g', cls, derr);
  [Q, R] = qru_qr(As, 0, backend);
  check(sprintf('qr econ %s', cls), cls, Q, R, A, Qo, Ro);
  R = qru_qr(As, backend);
  qru_check(iscomplex(R) && isequal(size(R), [n m]) && all(all(tril(R, -1) == 0)), ...
            'qr %s: R only', cls);
  % the updates, full (Qf, Rf) and economy (Qe, Re) factors of A
  [Qf, Rf] = qr(A); [Qe, Re] = qr(A, 0);
  for econ = [false true]
    if econ
      Qs = cast(Qe, cls); Rs = cast(Re, cls); form = 'econ';
    else
      Qs = cast(Qf, cls); Rs = cast(Rf, cls); form = 'full';
    end
    for p = [1 3]
      for j = [1 3 m+1]
        U = crandn(n, p);
        [Q1, R1] = qru_qrinsert(Qs, Rs, j, cast(U, cls), 'col', backend);
        [Qo, Ro] = qru_octave_update(Qf, Rf, 'addcols', j, U);
        check(sprintf('qrinsert col %s %s j=%d p=%d', form, cls, j, p), cls, Q1, R1, ...
              [A(:, 1:j-1) U A(:, j:m)], Qo, Ro);
      end
      for j = [1 7 n+1]
        U = crandn(p, m);
        [Q1, R1] = qru_qrinsert(Qs, Rs, j, cast(U, cls), 'row', backend);
        [Qo, Ro] = qru_octave_update(Qf, Rf, 'addrows', j, U);
        check(sprintf('qrinsert row %s %s j=%d p=%d', form, cls, j, p), cls, Q1, R1, ...
              [A(1:j-1, :); U; A(j:n, :)], Qo, Ro);
      end
      for j = [1 3 m-p+1]
        [Q1, R1] = qru_qrdelete(Qs, Rs, j:j+p-1, 'col', backend);
        [Qo, Ro] = qru_octave_update(Qf, Rf, 'removecols', j, p);
        check(sprintf('qrdelete col %s %s j=%d p=%d', form, cls, j, p), cls, Q1, R1, ...
              A(:, [1:j-1, j+p:m]), Qo, Ro);
      end
      for j = [1 7 n-p+1]
        [Q1, R1] = qru_qrdelete(Qs, Rs, j:j+p-1, 'row', backend);
        [Qo, Ro] = qru_octave_update(Qf, Rf, 'removerows', j, p);
        check(sprintf('qrdelete row %s %s j=%d p=%d', form, cls, j, p), cls, Q1, R1, ...
              A([1:j-1, j+p:n], :), Qo, Ro);
      end
      U = crandn(n, p); V = crandn(m, p);
      [Q1, R1] = qru_qrupdate(Qs, Rs, cast(U, cls), cast(V, cls), backend);
      [Qo, Ro] = qrupdate(Qf, Rf, U, V);
      check(sprintf('qrupdate %s %s k=%d', form, cls, p), cls, Q1, R1, A + U * V', Qo, Ro);
    end
  end
  % real arguments with complex ones: promoted, as MATLAB does
  x = randn(n, 1);
  [Q1, R1] = qru_qrinsert(Qs, Rs, 2, cast(x, cls), backend);
  [Qo, Ro] = qrinsert(Qf, Rf, 2, x);
  check(sprintf('qrinsert real column into complex factors %s', cls), cls, Q1, R1, ...
        [A(:, 1) x A(:, 2:m)], Qo, Ro);
  Ar = randn(n, m); [Qr, Rr] = qr(Ar); x = crandn(n, 1);
  [Q1, R1] = qru_qrinsert(cast(Qr, cls), cast(Rr, cls), 4, x, backend);
  [Qo, Ro] = qrinsert(Qr, Rr, 4, x);
  check(sprintf('qrinsert complex column into real factors %s', cls), cls, Q1, R1, ...
        [Ar(:, 1:3) x Ar(:, 4:m)], Qo, Ro);
  U = crandn(n, 2); V = randn(m, 2);
  [Q1, R1] = qru_qrupdate(cast(Qr, cls), cast(Rr, cls), U, cast(V, cls), backend);
  [Qo, Ro] = qrupdate(Qr, Rr, U, V);
  check(sprintf('qrupdate real factors, complex u %s', cls), cls, Q1, R1, Ar + U * V', Qo, Ro);
  % the column shift: a wide matrix is factorized (complex), a tall one is
  % the library's qru_lsq_shift_cols (full and economy)
  W = crandn(m, n); [Qw, Rw] = qr(W);
  [Q1, R1] = qru_qrshift(cast(Qw, cls), cast(Rw, cls), 2, 5, backend);
  check(sprintf('qrshift wide %s', cls), cls, Q1, R1, W(:, [1, 3, 4, 5, 2, 6:n]), [], []);
  for ij = [2 5; 5 2; 1 m; m 1]'
    i = ij(1); j = ij(2);
    pt = 1:m;
    if i < j, pt(i:j) = [i+1:j, i]; else pt(j:i) = [i, j:i-1]; end
    [Q1, R1] = qru_qrshift(cast(Qf, cls), cast(Rf, cls), i, j, backend);
    [Qo, Ro] = qr(A(:, pt));
    check(sprintf('qrshift full %s i=%d j=%d', cls, i, j), cls, Q1, R1, A(:, pt), Qo, Ro);
    [Q1, R1] = qru_qrshift(cast(Qe, cls), cast(Re, cls), i, j, backend);
    check(sprintf('qrshift econ %s i=%d j=%d', cls, i, j), cls, Q1, R1, A(:, pt), Qo, Ro);
  end
  % least squares: A \ b in the three forms, and a qru_lsq object updated
  xo = A \ b;
  tol = 30 * n * ep * cond(A)^2;
  for q = {'full', 'thin', 'none'}
    [x, res] = qru_lsq_solve(As, cast(b, cls), 'q', q{1}, backend);
    xerr = norm(double(x) - xo, 'fro') / norm(xo, 'fro');
    ro = sqrt(sum(abs(A * xo - b).^2, 1));
    qru_check(iscomplex(x) && strcmp(class(x), cls) && xerr < tol && ...
              max(abs(res - ro)) < 30 * n * ep * norm(b, 'fro') * cond(A), ...
              'lsq_solve %s %s: x error %g (tol %g), residual norms %s', ...
              q{1}, cls, xerr, tol, mat2str(res - ro, 3));
  end
  x = qru_lsq_solve(As, cast(real(b), cls), backend);
  qru_check(iscomplex(x), 'lsq_solve %s: complex A, real b gives a real x', cls);
  F = qru_lsq(As, cast(b, cls), 'q', 'thin', backend);
  U = crandn(n, 2); Ur = crandn(2, m + 2); er = crandn(2, 2);
  F.add_cols(3, cast(U, cls));
  F.add_rows(n + 1, cast(Ur, cls), cast(er, cls));
  F.remove_rows(1, 3);
  A1 = [A(:, 1:2) U A(:, 3:m); Ur]; b1 = [b; er];
  A1 = A1(4:end, :); b1 = b1(4:end, :);
  [Q1, R1] = F.factors();
  check(sprintf('qru_lsq thin updates %s', cls), cls, Q1, R1, A1, [], []);
  x = F.solve();
  xo = A1 \ b1;
  xerr = norm(double(x) - xo, 'fro') / norm(xo, 'fro');
  qru_check(xerr < 30 * n * ep * cond(A1)^2, 'qru_lsq thin updates %s: x error %g', cls, xerr);
  qru_expect_error('qru:usage', sprintf('qru_lsq %s: real data into complex F is fine, complex into real is not', cls), ...
                   @() feval(@(G) G.add_cols(1, crandn(n, 1)), qru_lsq(randn(n, m), randn(n, 1), backend)));
  delete(F);
  % Cholesky, A = R'*R Hermitian: against Octave's cholupdate,
  % cholinsert, choldelete and chol of the permuted matrix (cholshift's
  % diagonal may be negative), single factors and pages
  k = 8;
  B = crandn(k, k); H = B' * B + k * eye(k); R = chol(H); Rc = cast(R, cls);
  for p = [1 3]
    x = crandn(k, p);
    Ro = R;
    for c = 1:p
      Ro = cholupdate(Ro, x(:, c));
    end
    [R1, info] = qru_cholupdate(Rc, cast(x, cls), backend);
    chol_check(sprintf('cholupdate %s k=%d', cls, p), cls, R1, H + x * x', Ro);
    qru_check(info == 0, 'cholupdate %s k=%d: p = %d', cls, p, info);
  end
  x = crandn(k, 1) / 4;
  R1 = qru_cholupdate(Rc, cast(x, cls), '-', backend);
  chol_check(sprintf('cholupdate - %s', cls), cls, R1, H - x * x', cholupdate(R, x, '-'));
  [R1, info] = qru_cholupdate(Rc, cast(10 * B(:, 1), cls), '-', backend);
  qru_check(info == 1 && isequal(R1, Rc), 'cholupdate - %s: not positive definite gives p = %d', cls, info);
  for j = [1 4 k]
    keep = [1:j-1, j+1:k];
    R1 = qru_choldelete(Rc, j, backend);
    chol_check(sprintf('choldelete %s j=%d', cls, j), cls, R1, H(keep, keep), choldelete(R, j));
  end
  R1 = qru_choldelete(Rc, 3:5, backend);
  chol_check(sprintf('choldelete %s j=3:5', cls), cls, R1, H([1:2 6:k], [1:2 6:k]), chol(H([1:2 6:k], [1:2 6:k])));
  for j = [1 4 k+1]
    keep = [1:j-1, j+1:k+1];
    H1 = zeros(k + 1); H1(keep, keep) = H;
    v = crandn(k + 1, 1); v(j) = 0;
    H1(:, j) = v; H1(j, :) = v'; H1(j, j) = norm(v)^2 + k;
    R1 = qru_cholinsert(Rc, j, cast(H1(:, j), cls), backend);
    chol_check(sprintf('cholinsert %s j=%d', cls, j), cls, R1, H1, cholinsert(R, j, H1(:, j)));
  end
  for ij = [2 6; 6 2; 1 k; k 1]'
    i = ij(1); j = ij(2);
    ps = 1:k;
    if i < j, ps(i:j) = [i+1:j, i]; else ps(j:i) = [i, j:i-1]; end
    R1 = qru_cholshift(Rc, cast(i, cls), cast(j, cls), backend);   % single if all are
    chol_check(sprintf('cholshift %s i=%d j=%d', cls, i, j), cls, R1, H(ps, ps), chol(H(ps, ps)));
    qru_check(all(real(diag(R1)) > 0), 'cholshift %s i=%d j=%d: diagonal not positive', cls, i, j);
  end
  % pages
  Hp = cat(3, H, H(k:-1:1, k:-1:1));
  Rp = cat(3, R, chol(Hp(:, :, 2)));
  xp = crandn(k, 2, 2);
  [R1, info] = qru_cholupdate(cast(Rp, cls), cast(xp, cls), backend);
  qru_check(isequal(info, [0; 0]), 'cholupdate pages %s: p = %s', cls, mat2str(info));
  for i = 1:2
    chol_check(sprintf('cholupdate pages %s page %d', cls, i), cls, R1(:, :, i), ...
               Hp(:, :, i) + xp(:, :, i) * xp(:, :, i)', []);
  end
  [R1, info] = qru_choldelete(cast(Rp, cls), 3, backend);
  qru_check(isequal(info, [0; 0]), 'choldelete pages %s: p = %s', cls, mat2str(info));
  for i = 1:2
    chol_check(sprintf('choldelete pages %s page %d', cls, i), cls, R1(:, :, i), ...
               Hp([1:2 4:k], [1:2 4:k], i), choldelete(Rp(:, :, i), 3));
  end
  H1 = zeros(k + 1); H1([1:3 5:k+1], [1:3 5:k+1]) = H;
  v = crandn(k + 1, 1); v(4) = 0;
  H1(:, 4) = v; H1(4, :) = v'; H1(4, 4) = norm(v)^2 + k;
  [R1, info] = qru_cholinsert(cast(cat(3, R, R), cls), 4, cast(cat(3, H1(:, 4), H1(:, 4)), cls), backend);
  qru_check(isequal(info, [0; 0]), 'cholinsert pages %s: info = %s', cls, mat2str(info));
  for i = 1:2
    chol_check(sprintf('cholinsert pages %s page %d', cls, i), cls, R1(:, :, i), H1, cholinsert(R, 4, H1(:, 4)));
  end
  % least squares over pages: the Q-less batches (complex data on every backend)
  Ap = cast(crandn(n, m, 3), cls); bp = cast(crandn(n, 1, 3), cls);
  either(sprintf('lsq_solve pages %s', cls), 'qru_lsq_batch', @() qru_lsq_solve(Ap, bp, backend), ...
         @(X) qru_check(all(arrayfun(@(i) norm(double(X(:, :, i)) - double(Ap(:, :, i)) \ double(bp(:, :, i))) / ...
                                     norm(double(Ap(:, :, i)) \ double(bp(:, :, i))), 1:3) ...
                            < 30 * n * ep * cond(double(Ap(:, :, 1)))^2), 'lsq_solve pages %s: x', cls));
end
nfail = qru_check('count');
end

function check(what, cls, Q1, R1, A1, Qo, Ro)
% Q1, R1 a complex factorisation of A1 in class cls: class, complexity and
% sizes (full or economy, as Qo and Ro if given), the scaled residual,
% Q1'*Q1 = I, exact zeros below R1's diagonal, and the distance to the
% peer's Qo, Ro up to the phases of R's rows.
[n, m] = size(A1);
ep = double(eps(cls));
qru_check(strcmp(class(Q1), cls) && strcmp(class(R1), cls) && iscomplex(Q1) && iscomplex(R1), ...
          '%s: output class %s/%s, complex %d/%d', what, class(Q1), class(R1), iscomplex(Q1), iscomplex(R1));
k = size(Q1, 2);
if ~(size(Q1, 1) == n && size(R1, 1) == k && size(R1, 2) == m && (k == n || k == min(n, m)))
  qru_check(false, '%s: sizes Q %s R %s for A %s', what, mat2str(size(Q1)), mat2str(size(R1)), mat2str(size(A1)));
  return;
end
Q1 = double(Q1); R1 = double(R1);
berr = norm(A1 - Q1 * R1, 'fro') / (norm(A1, 'fro') * max(n, m) * ep);
oerr = norm(eye(k) - Q1' * Q1, 'fro') / (n * ep);
qru_check(berr < 30, '%s: scaled residual %g', what, berr);
qru_check(oerr < 30, '%s: Q''*Q - I %g', what, oerr);
qru_check(all(all(tril(R1, -1) == 0)), '%s: R has nonzeros below the diagonal', what);
if ~isempty(Qo)
  [eR, eQ] = qru_qrdiff(Q1, R1, Qo, Ro);
  tol = 30 * max(n, m) * ep * cond(A1);
  qru_check(eR < tol && eQ < tol, '%s: differs from Octave''s: R %g, Q %g (tol %g)', what, eR, eQ, tol);
end
end

function chol_check(what, cls, R1, H, Ro)
% R1 a complex Cholesky factor of the Hermitian H in class cls: class and
% complexity, exact zeros below the diagonal, a real positive diagonal,
% the scaled residual norm(R1'*R1 - H) / (norm(H) n eps), and (Ro given)
% the distance to the peer's factor up to the phases of its rows.
n = size(H, 1);
ep = double(eps(cls));
qru_check(strcmp(class(R1), cls) && iscomplex(R1) && isequal(size(R1), [n n]), ...
          '%s: output %s %s, complex %d', what, class(R1), mat2str(size(R1)), iscomplex(R1));
R1 = double(R1);
qru_check(all(all(tril(R1, -1) == 0)), '%s: R1 has nonzeros below the diagonal', what);
d = diag(R1);
qru_check(all(real(d) > 0) && all(abs(imag(d)) <= 30 * ep * abs(d)), ...
          '%s: diagonal not real positive: %s', what, mat2str(d, 3));
err = norm(R1' * R1 - H, 'fro') / (norm(H, 'fro') * n * ep);
qru_check(err < 30, '%s: scaled residual %g', what, err);
if ~isempty(Ro)
  eR = qru_qrdiff(eye(n), R1, eye(n), Ro);
  tol = 30 * n * ep * cond(H);
  qru_check(eR < tol, '%s: differs from Octave''s: %g (tol %g)', what, eR, tol);
end
end

function either(what, routine, call, verify)
% call() gives results that verify() checks, or raises qru:unsupported
% from the library's routine (a routine without complex data yet).
out = cell(1, nargin(verify));
try
  [out{:}] = call();
catch err
  qru_check(strcmp(err.identifier, 'qru:unsupported') && ~isempty(strfind(err.message, routine)), ...
            '%s: error "%s" (%s), expected a result or qru:unsupported from %s', ...
            what, err.message, err.identifier, routine);
  return;
end
verify(out{:});
end

function refused(backend, what, fn, varargin)
% fn(varargin{:}) raises qru:unsupported naming the backend
refused_routine(backend, what, '', fn, varargin{:});
end

function refused_routine(backend, what, routine, fn, varargin)
% fn(varargin{:}) raises qru:unsupported naming the backend and the
% library's routine
try
  fn(varargin{:});
  qru_check(false, '%s: complex data on the %s backend raised no error', what, backend);
catch err
  qru_check(strcmp(err.identifier, 'qru:unsupported') && ~isempty(strfind(err.message, backend)) && ...
            ~isempty(strfind(err.message, routine)), ...
            '%s: error "%s" (%s), expected qru:unsupported naming %s %s', ...
            what, err.message, err.identifier, backend, routine);
end
end
