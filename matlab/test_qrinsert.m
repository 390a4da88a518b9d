function nfail = test_qrinsert(backend)
%TEST_QRINSERT  qru_qrinsert / qru_qrdelete (MATLAB's calling convention:
%   the caller's Q and R in, Q1 and R1 out) against the built-in qrinsert
%   and qrdelete, blocks of columns/rows at several positions, single and
%   double precision; error cases.  Skipped (returns -1) when this build of
%   qru cannot create a factorisation from an existing Q and R.
qru_check('reset');
try
  qru_qrinsert(eye(3), [1 0; 0 1; 0 0], 1, [1; 1; 1], 'col', backend);
catch err
  if strcmp(err.identifier, 'qru:unsupported')
    fprintf('SKIP: %s\n', err.message);
    nfail = -1;
    return;
  end
end
[~, ~, fp64] = qru_backend(backend);
classes = {'single'};
if fp64
  classes = {'double', 'single'};
end
rand('seed', 5); randn('seed', 5);
n = 24; m = 10;
for c = 1:numel(classes)
  cls = classes{c};
  A = randn(n, m);
  [Q, R] = qr(A);
  Qs = cast(Q, cls); Rs = cast(R, cls);
  for p = [1 3]
    for j = [1 4 m+1]
      U = randn(n, p);
      [Q1, R1] = qru_qrinsert(Qs, Rs, j, cast(U, cls), 'col', backend);
      A1 = qru_apply_update(A, zeros(n, 1), 'addcols', j, U, []);
      [Qo, Ro] = qru_octave_update(Q, R, 'addcols', j, U);
      qru_check_factors(sprintf('qrinsert col %s j=%d p=%d', cls, j, p), cls, Q1, R1, ...
                        zeros(n, 1, cls), A1, zeros(n, 1), Qo, Ro);
    end
    for j = [1 4 n+1]
      U = randn(p, m);
      [Q1, R1] = qru_qrinsert(Qs, Rs, j, cast(U, cls), 'row', backend);
      A1 = qru_apply_update(A, zeros(n, 1), 'addrows', j, U, zeros(p, 1));
      [Qo, Ro] = qru_octave_update(Q, R, 'addrows', j, U);
      qru_check_factors(sprintf('qrinsert row %s j=%d p=%d', cls, j, p), cls, Q1, R1, ...
                        zeros(n + p, 1, cls), A1, zeros(n + p, 1), Qo, Ro);
    end
    for j = [1 4 m-p+1]
      [Q1, R1] = qru_qrdelete(Qs, Rs, j, p, 'col', backend);
      A1 = qru_apply_update(A, zeros(n, 1), 'removecols', j, p, []);
      [Qo, Ro] = qru_octave_update(Q, R, 'removecols', j, p);
      qru_check_factors(sprintf('qrdelete col %s j=%d p=%d', cls, j, p), cls, Q1, R1, ...
                        zeros(n, 1, cls), A1, zeros(n, 1), Qo, Ro);
    end
    for j = [1 4 n-p+1]
      [Q1, R1] = qru_qrdelete(Qs, Rs, j, p, 'row', backend);
      A1 = qru_apply_update(A, zeros(n, 1), 'removerows', j, p, []);
      [Qo, Ro] = qru_octave_update(Q, R, 'removerows', j, p);
      qru_check_factors(sprintf('qrdelete row %s j=%d p=%d', cls, j, p), cls, Q1, R1, ...
                        zeros(n - p, 1, cls), A1, zeros(n - p, 1), Qo, Ro);
    end
  end
end
[Q, R] = qr(randn(n, m));
qru_expect_error('qru:usage', 'economy Q', @qru_qrinsert, Q(:, 1:m), R(1:m, :), 1, randn(n, 1), 'col', backend);
qru_expect_error('qru:usage', 'bad orient', @qru_qrinsert, Q, R, 1, randn(n, 1), 'diag', backend);
qru_expect_error('qru:usage', 'j = m+2', @qru_qrinsert, Q, R, m + 2, randn(n, 1), 'col', backend);
qru_expect_error('qru:usage', 'row U width', @qru_qrinsert, Q, R, 1, randn(1, m + 1), 'row', backend);
qru_expect_error('qru:usage', 'delete j = 0', @qru_qrdelete, Q, R, 0, 1, 'col', backend);
qru_expect_error('qru:badArgument', 'delete too many rows', @qru_qrdelete, Q, R, 1, n - m + 1, 'row', backend);
qru_expect_error('qru:numerical', 'insert a dependent column', @qru_qrinsert, Q, R, 2, Q * R(:, 1), 'col', backend);
nfail = qru_check('count');
end
