function nfail = test_qrinsert(backend)
%TEST_QRINSERT  qru_qrinsert / qru_qrdelete in MATLAB's calling convention
%   (qrinsert(Q,R,j,x,orient), qrdelete(Q,R,j,orient)) against Octave's
%   qrinsert and qrdelete on the same inputs: blocks of columns/rows at
%   several positions, single and double, full and economy factors, wide
%   matrices and empty ones, a dependent column (a valid QR of the
%   rank-deficient result), the 'col' default, and the error cases (both
%   must fail; qru's message names the argument).
qru_check('reset');
classes = qru_classes(backend);
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
      [Q1, R1] = qru_qrdelete(Qs, Rs, j:j+p-1, 'col', backend);
      A1 = qru_apply_update(A, zeros(n, 1), 'removecols', j, p, []);
      [Qo, Ro] = qru_octave_update(Q, R, 'removecols', j, p);
      qru_check_factors(sprintf('qrdelete col %s j=%d p=%d', cls, j, p), cls, Q1, R1, ...
                        zeros(n, 1, cls), A1, zeros(n, 1), Qo, Ro);
    end
    for j = [1 4 n-p+1]
      [Q1, R1] = qru_qrdelete(Qs, Rs, j:j+p-1, 'row', backend);
      A1 = qru_apply_update(A, zeros(n, 1), 'removerows', j, p, []);
      [Qo, Ro] = qru_octave_update(Q, R, 'removerows', j, p);
      qru_check_factors(sprintf('qrdelete row %s j=%d p=%d', cls, j, p), cls, Q1, R1, ...
                        zeros(n - p, 1, cls), A1, zeros(n - p, 1), Qo, Ro);
    end
  end
end
% MATLAB's defaults: qrinsert/qrdelete without orient work on columns
A = randn(n, m); [Q, R] = qr(A); x = randn(n, 1);
[Q1, R1] = qru_qrinsert(Q, R, 3, x, backend);
[Qo, Ro] = qrinsert(Q, R, 3, x);
qru_check_factors('qrinsert default col', 'double', Q1, R1, zeros(n, 1), [A(:,1:2) x A(:,3:m)], zeros(n, 1), Qo, Ro);
[Q1, R1] = qru_qrdelete(Q, R, 3, backend);
[Qo, Ro] = qrdelete(Q, R, 3);
qru_check_factors('qrdelete default col', 'double', Q1, R1, zeros(n, 1), A(:, [1:2 4:m]), zeros(n, 1), Qo, Ro);
[Q1, R1] = qru_qrdelete(Q, R, 5, 'row', backend);
[Qo, Ro] = qrdelete(Q, R, 5, 'row');
qru_check_factors('qrdelete row', 'double', Q1, R1, zeros(n - 1, 1), A([1:4 6:n], :), zeros(n - 1, 1), Qo, Ro);
% economy factors (qr(A, 0)): the results are economy too, as Octave's
[Qe, Re] = qr(A, 0);
[Q1, R1] = qru_qrinsert(Qe, Re, 2, x, 'col', backend);
[Qo, Ro] = qrinsert(Qe, Re, 2, x, 'col');
qru_check_econ('economy qrinsert col', Q1, R1, [A(:,1) x A(:,2:m)], Qo, Ro);
[Q1, R1] = qru_qrdelete(Qe, Re, 4, 'col', backend);
[Qo, Ro] = qrdelete(Qe, Re, 4, 'col');
qru_check_econ('economy qrdelete col', Q1, R1, A(:, [1:3 5:m]), Qo, Ro);
[Q1, R1] = qru_qrinsert(Qe, Re, 7, randn(2, m), 'row', backend);
qru_check(isequal(size(Q1), [n+2 m]) && isequal(size(R1), [m m]), 'economy qrinsert row: sizes %s %s', mat2str(size(Q1)), mat2str(size(R1)));
[Q1, R1] = qru_qrdelete(Qe, Re, 7:8, 'row', backend);
qru_check_econ('economy qrdelete rows (block)', Q1, R1, A([1:6 9:n], :), [], []);
% an economy removal that leaves A1 rank-deficient (column 3 of A is
% nonzero in rows 5 and 6 only): the thin form refuses it, the completed
% factors take it, as Octave's qrdelete does
Ad = A; Ad([1:4 7:n], 3) = 0;
[Qe, Re] = qr(Ad, 0);
[Q1, R1] = qru_qrdelete(Qe, Re, 5:6, 'row', backend);
qru_check(isequal(size(Q1), [n-2 m]) && isequal(size(R1), [m m]), 'economy rank-losing qrdelete: sizes %s %s', mat2str(size(Q1)), mat2str(size(R1)));
berr = norm(Q1 * R1 - Ad([1:4 7:n], :), 'fro') / (norm(Ad, 'fro') * n * eps);
qru_check(berr < 30, 'economy rank-losing qrdelete: backward error %g', berr);
% wide matrices, which MATLAB and Octave accept
W = randn(5, 9); [Q, R] = qr(W); x = randn(5, 1);
[Q1, R1] = qru_qrinsert(Q, R, 4, x, 'col', backend);
[Qo, Ro] = qrinsert(Q, R, 4, x, 'col');
qru_check_factors('wide qrinsert col', 'double', Q1, R1, zeros(5, 1), [W(:,1:3) x W(:,4:9)], zeros(5, 1), Qo, Ro);
[Q1, R1] = qru_qrdelete(Q, R, 2, 'row', backend);
[Qo, Ro] = qrdelete(Q, R, 2, 'row');
qru_check_factors('wide qrdelete row', 'double', Q1, R1, zeros(4, 1), W([1 3:5], :), zeros(4, 1), Qo, Ro);
[Q1, R1] = qru_qrdelete(Q, R, 9, 'col', backend);
[Qo, Ro] = qrdelete(Q, R, 9, 'col');
qru_check_factors('wide qrdelete col', 'double', Q1, R1, zeros(5, 1), W(:, 1:8), zeros(5, 1), Qo, Ro);
% error cases: Octave's function fails on the same input, and qru's
% message names the argument and the rule
[Q, R] = qr(randn(n, m));
qru_both_fail('bad orient', 'argument 5', @qrinsert, @qru_qrinsert, {Q, R, 1, randn(n, 1), 'diag'}, backend);
qru_both_fail('j = m+2', 'argument 3: j = 12, but', @qrinsert, @qru_qrinsert, {Q, R, m + 2, randn(n, 1), 'col'}, backend);
qru_both_fail('j = 0', 'argument 3: j = 0', @qrinsert, @qru_qrinsert, {Q, R, 0, randn(n, 1)}, backend);
qru_both_fail('row x width', 'argument 4: x has 11 columns', @qrinsert, @qru_qrinsert, {Q, R, 1, randn(1, m + 1), 'row'}, backend);
qru_both_fail('col x height', 'argument 4: x has 25 rows', @qrinsert, @qru_qrinsert, {Q, R, 1, randn(n + 1, 1)}, backend);
qru_both_fail('delete j = 0', 'argument 3: j = 0', @qrdelete, @qru_qrdelete, {Q, R, 0}, backend);
qru_both_fail('delete j = m+1', 'argument 3: j = 11', @qrdelete, @qru_qrdelete, {Q, R, m + 1, 'col'}, backend);
qru_both_fail('delete row n+1', 'argument 3: j = 25', @qrdelete, @qru_qrdelete, {Q, R, n + 1, 'row'}, backend);
qru_both_fail('Q, R mismatch', 'argument 2', @qrdelete, @qru_qrdelete, {Q, R(1:n-1, :), 1}, backend);
% a dependent column: a valid QR of the rank-deficient result, as
% Octave's qrinsert returns one (full: the library with QRU_RANK_ACCEPT;
% economy: the completed factors, Q1 n x (m+1) with orthonormal columns
% where Octave's last column is not orthogonal to the others)
A = Q * R; x = A(:, 1) - 2 * A(:, 5);  % then column 6 of A1 depends
A1 = [A(:, 1) x A(:, 2:m)];
for econ = [false true]
  if econ
    [Qx, Rx] = qr(A, 0); what = 'economy';
  else
    Qx = Q; Rx = R; what = 'full';
  end
  [Q1, R1] = qru_qrinsert(Qx, Rx, 2, x, 'col', backend);
  [Qo, Ro] = qrinsert(Qx, Rx, 2, x, 'col');
  k = size(Q1, 2);
  berr = norm(Q1 * R1 - A1, 'fro') / (norm(A1, 'fro') * n * eps);
  oerr = norm(Q1' * Q1 - eye(k), 'fro') / (n * eps);
  qru_check(isequal(size(Q1), size(Qo)) && isequal(size(R1), size(Ro)) && ...
            berr < 30 && oerr < 30 && all(all(tril(R1, -1) == 0)) && ...
            abs(R1(6, 6)) < 30 * n * eps * norm(A1), ...
            '%s dependent column: sizes %s %s, backward error %g, orthogonality %g, |R1(6,6)| %g', ...
            what, mat2str(size(Q1)), mat2str(size(R1)), berr, oerr, abs(R1(6, 6)));
end
% no column before, none after: the factorization of the result
[Q1, R1] = qru_qrinsert(eye(4), zeros(4, 0), 1, [1; 2; 3; 4], backend);
[Qo, Ro] = qrinsert(eye(4), zeros(4, 0), 1, [1; 2; 3; 4]);
qru_check_factors('insert into no columns', 'double', Q1, R1, zeros(4, 1), [1; 2; 3; 4], zeros(4, 1), Qo, Ro);
[Qe, Re] = qr(randn(6, 1), 0);
[Q1, R1] = qru_qrdelete(Qe, Re, 1, backend);
[Qo, Ro] = qrdelete(Qe, Re, 1);
qru_check(isequal(size(Q1), size(Qo)) && isequal(size(R1), size(Ro)), ...
          'economy, last column deleted: sizes %s %s, Octave %s %s', mat2str(size(Q1)), ...
          mat2str(size(R1)), mat2str(size(Qo)), mat2str(size(Ro)));
nfail = qru_check('count');
end
