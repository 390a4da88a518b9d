function nfail = test_chol(backend)
%TEST_CHOL  qru_cholupdate, qru_cholinsert and qru_choldelete against
%   Octave's cholupdate, cholinsert, choldelete (MATLAB: cholupdate; the
%   others are checked against chol of the updated matrix everywhere),
%   blocks at several positions, single and double precision; error cases.
qru_check('reset');
classes = qru_classes(backend);
have_octave = exist('cholinsert') > 0 && exist('choldelete') > 0;
rand('seed', 11); randn('seed', 11);
n = 25;
for c = 1:numel(classes)
  cls = classes{c};
  ep = double(eps(cls));
  G = randn(n + 8, n); A = G' * G;          % symmetric positive definite
  R = chol(A);
  Rs = cast(R, cls);
  % ---- rank-1 and rank-k update / downdate
  for k = [1 3]
    X = randn(n, k) / 2;
    R1 = qru_cholupdate(Rs, cast(X, cls), '+', backend);
    chol_check(sprintf('cholupdate + %s k=%d', cls, k), cls, R1, A + X * X', ep);
    if k == 1
      Ro = cholupdate(R, X, '+');
      qru_check(norm(qru_rowsign(double(R1)) - qru_rowsign(Ro), 'fro') / norm(Ro, 'fro') < 30 * n * ep * cond(A), ...
                'cholupdate + %s: differs from built-in cholupdate', cls);
    end
    R1 = qru_cholupdate(Rs, cast(X, cls), backend);  % '+' is the default
    chol_check(sprintf('cholupdate default %s k=%d', cls, k), cls, R1, A + X * X', ep);
    % downdate of the matrix just updated
    Ru = chol(A + X * X');
    R1 = qru_cholupdate(cast(Ru, cls), cast(X, cls), '-', backend);
    chol_check(sprintf('cholupdate - %s k=%d', cls, k), cls, R1, A, ep * cond(A));
    if k == 1
      Ro = cholupdate(Ru, X, '-');
      qru_check(norm(qru_rowsign(double(R1)) - qru_rowsign(Ro), 'fro') / norm(Ro, 'fro') < 30 * n * ep * cond(A), ...
                'cholupdate - %s: differs from built-in cholupdate', cls);
    end
  end
  % a downdate that loses definiteness: error, or info > 0 and R unchanged
  X = zeros(n, 1); X(3) = sqrt(2 * A(3, 3));   % A - X*X' has (3,3) entry < 0
  qru_expect_error('qru:cholupdate:notPositiveDefinite', sprintf('cholupdate - indefinite %s', cls), ...
                   @qru_cholupdate, Rs, cast(X, cls), '-', backend);
  [R1, info] = qru_cholupdate(Rs, cast(X, cls), '-', backend);
  qru_check(info > 0 && isequal(R1, Rs), 'cholupdate - indefinite %s: info %d, R changed %d', ...
            cls, info, ~isequal(R1, Rs));
  [R1, info] = qru_cholupdate(Rs, cast(randn(n, 1), cls), '+', backend);
  qru_check(info == 0, 'cholupdate + %s: info %d on success', cls, info);
  % ---- pages: P factors updated at once, each against the single update
  P = 6; Rp = zeros(n, n, P); Xp = randn(n, 2, P) / 2; Ap = zeros(n, n, P);
  for q = 1:P
    Gq = randn(n + 8, n); Ap(:, :, q) = Gq' * Gq; Rp(:, :, q) = chol(Ap(:, :, q));
  end
  [R1, pp] = qru_cholupdate(cast(Rp, cls), cast(Xp, cls), '+', backend);
  qru_check(isequal(size(R1), [n n P]) && isequal(pp, zeros(P, 1)), ...
            'cholupdate pages %s: size %s, p %s', cls, mat2str(size(R1)), mat2str(pp'));
  for q = 1:P
    chol_check(sprintf('cholupdate pages %s page %d', cls, q), cls, R1(:, :, q), ...
               Ap(:, :, q) + Xp(:, :, q) * Xp(:, :, q)', ep);
  end
  % a downdate that loses definiteness on page 2 only
  Xd = Xp / 4; Xd(:, :, 2) = 0; Xd(3, 1, 2) = sqrt(2 * Ap(3, 3, 2));
  [R1, pp] = qru_cholupdate(cast(Rp, cls), cast(Xd, cls), '-', backend);
  qru_check(isequal(pp, [0; 1; 0; 0; 0; 0]) && isequal(R1(:, :, 2), cast(Rp(:, :, 2), cls)), ...
            'cholupdate pages - %s: p %s, failed page changed %d', cls, mat2str(pp'), ...
            ~isequal(R1(:, :, 2), cast(Rp(:, :, 2), cls)));
  for q = [1 3:P]
    chol_check(sprintf('cholupdate pages - %s page %d', cls, q), cls, R1(:, :, q), ...
               Ap(:, :, q) - Xd(:, :, q) * Xd(:, :, q)', ep * cond(Ap(:, :, q)));
  end
  qru_expect_error('qru:cholupdate:notPositiveDefinite', sprintf('cholupdate pages - %s', cls), ...
                   @qru_cholupdate, cast(Rp, cls), cast(Xd, cls), '-', backend);
  qru_expect_error('qru:cholupdate:x', sprintf('cholupdate pages size %s', cls), ...
                   @qru_cholupdate, cast(Rp, cls), cast(Xp(:, :, 1:P-1), cls), backend);
  % ---- insert p rows/columns at position j
  for p = [1 4]
    for j = [1 9 n+1]
      G1 = [G(:, 1:j-1), randn(n + 8, p), G(:, j:n)];
      A1 = G1' * G1;
      Xc = A1(:, j:j+p-1);
      R1 = qru_cholinsert(Rs, j, cast(Xc, cls), backend);
      name = sprintf('cholinsert %s j=%d p=%d', cls, j, p);
      chol_check(name, cls, R1, A1, ep * cond(A1) / cond(A));
      Rf = chol(A1);
      qru_check(norm(qru_rowsign(double(R1)) - Rf, 'fro') / norm(Rf, 'fro') < 30 * n * ep * cond(A1), ...
                '%s: differs from chol(A1)', name);
      if p == 1 && have_octave
        Ro = cholinsert(R, j, Xc);
        qru_check(norm(qru_rowsign(double(R1)) - qru_rowsign(Ro), 'fro') / norm(Ro, 'fro') < 30 * n * ep * cond(A1), ...
                  '%s: differs from built-in cholinsert', name);
      end
    end
  end
  % inserting a column that makes A1 indefinite
  Xc = [A(:, 1); -1];                      % A1(n+1, n+1) = -1
  qru_expect_error('qru:cholinsert:notPositiveDefinite', sprintf('cholinsert indefinite %s', cls), ...
                   @qru_cholinsert, Rs, n + 1, cast(Xc, cls), backend);
  [R1, info] = qru_cholinsert(Rs, n + 1, cast(Xc, cls), backend);
  qru_check(info > 0 && isequal(R1, Rs), 'cholinsert indefinite %s: info %d', cls, info);
  % ---- delete p rows/columns at position j
  for p = [1 4]
    for j = [1 9 n-p+1]
      keep = [1:j-1, j+p:n];
      if p == 1
        R1 = qru_choldelete(Rs, j, backend);
      else
        R1 = qru_choldelete(Rs, j:j+p-1, backend);
      end
      name = sprintf('choldelete %s j=%d p=%d', cls, j, p);
      chol_check(name, cls, R1, A(keep, keep), ep);
      Rf = chol(A(keep, keep));
      qru_check(norm(qru_rowsign(double(R1)) - Rf, 'fro') / norm(Rf, 'fro') < 30 * n * ep * cond(A), ...
                '%s: differs from chol(A1)', name);
      if p == 1 && have_octave
        Ro = choldelete(R, j);
        qru_check(norm(qru_rowsign(double(R1)) - qru_rowsign(Ro), 'fro') / norm(Ro, 'fro') < 30 * n * ep * cond(A), ...
                  '%s: differs from built-in choldelete', name);
      end
    end
  end
end
% argument errors
R = chol(eye(4) * 2);
qru_expect_error('qru:*', 'cholupdate R not square', @qru_cholupdate, R(:, 1:3), ones(4, 1), backend);
qru_expect_error('qru:*', 'cholupdate X rows', @qru_cholupdate, R, ones(3, 1), backend);
qru_expect_error('qru:*', 'cholupdate op', @qru_cholupdate, R, ones(4, 1), '*', backend);
qru_expect_error('qru:*', 'cholinsert X size', @qru_cholinsert, R, 1, ones(4, 1), backend);
qru_expect_error('qru:*', 'cholinsert j', @qru_cholinsert, R, 6, ones(5, 1), backend);
qru_expect_error('qru:*', 'choldelete j', @qru_choldelete, R, 5, backend);
qru_expect_error('qru:*', 'choldelete block', @qru_choldelete, R, 3:5, backend);
% MATLAB's p outputs against Octave's cholupdate / cholinsert on the same
% inputs: 1 when definiteness is lost, 2 when R is singular
R = chol(gallery('minij', 5)); x = 5 * ones(5, 1);
[~, po] = cholupdate(R, x, '-');
[R1, pq] = qru_cholupdate(R, x, '-', backend);
qru_check(po == 1 && pq == po && isequal(R1, R), 'cholupdate p = %d, Octave %d', pq, po);
Rz = R; Rz(3, 3) = 0;
[~, po] = cholupdate(Rz, ones(5, 1), '-');
[R1, pq] = qru_cholupdate(Rz, ones(5, 1), '-', backend);
qru_check(po == 2 && pq == po && isequal(R1, Rz), 'singular cholupdate p = %d, Octave %d', pq, po);
xi = [1; -100; 1; 1; 1; 1];
[~, io] = cholinsert(R, 2, xi);
[R1, iq] = qru_cholinsert(R, 2, xi, backend);
qru_check(io == 1 && iq == io && isequal(R1, R), 'cholinsert info = %d, Octave %d', iq, io);
[~, io] = cholinsert(Rz, 2, ones(6, 1));
[~, iq] = qru_cholinsert(Rz, 2, ones(6, 1), backend);
qru_check(io == 2 && iq == io, 'singular cholinsert info = %d, Octave %d', iq, io);
% results of 4096 elements and more (n = 80), which the MEX file has the
% interpreter make: the lower triangle zero even for entries of R below
% its diagonal, R itself unchanged, the failed downdate's R1 = triu(R)
n = 80;
G = randn(n + 8, n); A = G' * G; R = chol(A); x = randn(n, 1);
for c = 1:numel(classes)
  cls = classes{c};
  ep = double(eps(cls));
  Rj = cast(R + triu(ones(n), 1)', cls); R0 = Rj;
  R1 = qru_cholupdate(Rj, cast(x, cls), '+', backend);
  chol_check(sprintf('cholupdate + %s n=%d', cls, n), cls, R1, A + x * x', ep);
  qru_check(isequal(Rj, R0), 'cholupdate + %s n=%d: R changed', cls, n);
  [R1, info] = qru_cholupdate(Rj, cast(1e3 * x, cls), '-', backend);
  qru_check(info == 1 && isequal(R1, triu(R0)), 'cholupdate - %s n=%d: info %d, R1 ~= triu(R)', ...
            cls, n, info);
  R1 = qru_cholinsert(cast(R, cls), n + 1, cast([A(:, 1); 2 * A(1, 1)], cls), backend);
  chol_check(sprintf('cholinsert %s n=%d', cls, n), cls, R1, [A, A(:, 1); A(1, :), 2 * A(1, 1)], ep * cond(A));
  R1 = qru_choldelete(cast(R, cls), 1, backend);
  chol_check(sprintf('choldelete %s n=%d', cls, n), cls, R1, A(2:n, 2:n), ep);
end
% the help text keeps its apostrophes (R'*R)
h = help('qru_cholupdate');
qru_check(~isempty(strfind(h, 'A = R''*R')) && ~isempty(strfind(h, 'x*x''')), ...
          'help qru_cholupdate lost its apostrophes');
nfail = qru_check('count');
end

function chol_check(name, cls, R1, A1, ep)
% R1 must be upper triangular of class cls with R1'*R1 = A1 (relative
% error below 30 n ep, ep already scaled where conditioning matters).
n = rows(A1);
qru_check(strcmp(class(R1), cls) && isequal(size(R1), [n n]), '%s: class %s size %dx%d', ...
          name, class(R1), size(R1));
if ~isequal(size(R1), [n n])
  return;
end
qru_check(all(all(tril(R1, -1) == 0)), '%s: R1 not upper triangular', name);
R1 = double(R1);
err = norm(R1' * R1 - A1, 'fro') / (norm(A1, 'fro') * n * ep);
qru_check(err < 30, '%s: ||R1''*R1 - A1|| error %g', name, err);
end
