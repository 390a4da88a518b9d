function nfail = test_rankupdate(backend)
%TEST_RANKUPDATE  The rank-k update qru_qrupdate (qru_lsq_modify) against
%   Octave/MATLAB's qrupdate and against qr of A + u*v': full and economy
%   factors, rank 1 and rank k (k = 1, 3, 8; k > n - m on economy
%   factors), single and double precision, square and wide A, a
%   numerically rank-deficient A + u*v' (factorized as qrupdate does);
%   the handle interface F.modify with d = Q'*b; error cases.
qru_check('reset');
classes = qru_classes(backend);
rand('seed', 11); randn('seed', 11);
n = 30; m = 12;
for c = 1:numel(classes)
  cls = classes{c};
  A = cast(randn(n, m), cls);
  [Q, R] = qr(A);
  [Qe, Re] = qr(A, 0);
  for k = [1 3 8 20]
    u = cast(randn(n, k), cls); v = cast(randn(m, k), cls);
    A1 = double(A) + double(u) * double(v');
    name = sprintf('qrupdate %s k=%d', cls, k);
    % full factors, against Octave's qrupdate (on the double inputs)
    [Q1, R1] = qru_qrupdate(Q, R, u, v, backend);
    [Qo, Ro] = qrupdate(double(Q), double(R), double(u), double(v));
    qru_check_factors(name, cls, Q1, R1, zeros(n, 1, cls), A1, zeros(n, 1), Qo, Ro);
    % economy factors: the thin form (k <= n - m), else the completed ones
    [Q1, R1] = qru_qrupdate(Qe, Re, u, v, backend);
    [Qo, Ro] = qrupdate(double(Qe), double(Re), double(u), double(v));
    qru_check(isa(Q1, cls) && isa(R1, cls), 'economy %s: class %s', name, class(Q1));
    qru_check_econ(['economy ' name], Q1, R1, A1, Qo, Ro);
  end
end
% the handle interface: d = Q1' * b after F.modify
A = randn(n, m); b = randn(n, 2); u = randn(n, 4); v = randn(m, 4);
F = qru_lsq(A, b, backend);
F.modify(u, v);
[Q1, R1, d1] = F.factors();
qru_check_factors('F.modify', 'double', Q1, R1, d1, A + u * v', b);
x = F.solve();
xerr = norm(x - (A + u * v') \ b, 'fro') / (norm(x, 'fro') * cond(A + u * v') * n * eps);
qru_check(xerr < 30, 'F.modify: solution error %g', xerr);
delete(F);
% square and wide A (wide: factorized with qr, as qrupdate accepts it)
S = randn(m, m); [Q, R] = qr(S); u = randn(m, 2); v = randn(m, 2);
[Q1, R1] = qru_qrupdate(Q, R, u, v, backend);
[Qo, Ro] = qrupdate(Q, R, u, v);
qru_check_factors('square', 'double', Q1, R1, zeros(m, 1), S + u * v', zeros(m, 1), Qo, Ro);
W = randn(5, 9); [Q, R] = qr(W); u = randn(5, 1); v = randn(9, 1);
[Q1, R1] = qru_qrupdate(Q, R, u, v, backend);
[Qo, Ro] = qrupdate(Q, R, u, v);
qru_check_factors('wide', 'double', Q1, R1, zeros(5, 1), W + u * v', zeros(5, 1), Qo, Ro);
% A + u*v' with column 4 zeroed: qru_qrupdate returns its factorization
% as qrupdate does, computed by the update with QRU_RANK_ACCEPT (full and
% economy: the thin form, Q1 with orthonormal columns); the least-squares
% object, which keeps the default rule, refuses it
A = randn(n, m); [Q, R] = qr(A); [Qe, Re] = qr(A, 0);
u = -A(:, 4); v = zeros(m, 1); v(4) = 1;
[Q1, R1] = qru_qrupdate(Q, R, u, v, backend);
A1 = A + u * v';
berr = norm(Q1 * R1 - A1, 'fro') / (norm(A1, 'fro') * n * eps);
qru_check(berr < 30 && isequal(size(Q1), [n n]) && abs(R1(4, 4)) < 100 * n * eps * norm(A1), ...
          'rank-deficient: backward error %g, |R1(4,4)| %g', berr, abs(R1(4, 4)));
[Q1, R1] = qru_qrupdate(Qe, Re, u, v, backend);
qru_check_econ('rank-deficient economy', Q1, R1, A1, [], []);
qru_expect_error('qru:numerical', 'F.modify rank-deficient', @(F) F.modify(u, v), qru_lsq(A, b(:, 1), backend));
% error cases: Octave's qrupdate fails on the same input, and qru's
% message names the argument and the rule
[Q, R] = qr(randn(n, m));
qru_both_fail('u height', 'argument 3: u is 31 x 1', @qrupdate, @qru_qrupdate, {Q, R, randn(n + 1, 1), randn(m, 1)}, backend);
qru_both_fail('v height', 'argument 4: v is 11 x 1', @qrupdate, @qru_qrupdate, {Q, R, randn(n, 1), randn(m - 1, 1)}, backend);
qru_both_fail('k mismatch', 'argument 4: v is 12 x 2', @qrupdate, @qru_qrupdate, {Q, R, randn(n, 1), randn(m, 2)}, backend);
qru_both_fail('Q, R mismatch', 'argument 2', @qrupdate, @qru_qrupdate, {Q, R(1:n-1, :), randn(n, 1), randn(m, 1)}, backend);
try
  qru_qrupdate(Q, R, 'x', randn(m, 1), backend);
  qru_check(false, 'a char u was accepted');
catch err
  qru_check(strcmp(err.identifier, 'qru:qrupdate:u'), 'char u: %s', err.identifier);
end
nfail = qru_check('count');
end

