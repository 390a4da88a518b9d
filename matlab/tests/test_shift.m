function nfail = test_shift(backend)
%TEST_SHIFT  qru_qrshift and qru_cholshift against Octave's qrshift and
%   cholshift and against qr / chol of the permuted matrix: i < j, i > j,
%   i = j, at the ends, full and economy factors, a square and a wide A (the
%   fallback), single and double precision; the handle interface
%   F.shift_cols; error cases (Octave's function fails too, qru's message
%   names the argument).
qru_check('reset');
classes = qru_classes(backend);
rand('seed', 13); randn('seed', 13);
n = 20; m = 9;
pairs = [2 7; 7 2; 1 m; m 1; 4 5; 5 4; 3 3];
for c = 1:numel(classes)
  cls = classes{c};
  ep = double(eps(cls));
  A = randn(n, m);
  [Q, R] = qr(A);
  [Qe, Re] = qr(A, 0);
  Qs = cast(Q, cls); Rs = cast(R, cls);
  for t = 1:rows(pairs)
    i = pairs(t, 1); j = pairs(t, 2);
    p = shift_perm(m, i, j);
    name = sprintf('qrshift %s i=%d j=%d', cls, i, j);
    [Q1, R1] = qru_qrshift(Qs, Rs, i, j, backend);
    [Qo, Ro] = qrshift(Q, R, i, j);
    qru_check_factors(name, cls, Q1, R1, zeros(n, 1, cls), A(:, p), zeros(n, 1), Qo, Ro);
    [Q1, R1] = qru_qrshift(cast(Qe, cls), cast(Re, cls), i, j, backend);
    qru_check(isa(Q1, cls) && isequal(size(Q1), [n m]) && isequal(size(R1), [m m]), ...
              'economy %s: class %s, sizes %s %s', name, class(Q1), mat2str(size(Q1)), mat2str(size(R1)));
    berr = norm(A(:, p) - double(Q1) * double(R1), 'fro') / (norm(A, 'fro') * n * ep);
    oerr = norm(eye(m) - double(Q1)' * double(Q1), 'fro') / (n * ep);
    qru_check(berr < 30 && oerr < 30 && all(all(tril(R1, -1) == 0)), ...
              'economy %s: backward error %g, orthogonality %g', name, berr, oerr);
    % Cholesky: the factor of A'A(p, p), chol's (positive diagonal)
    S = A' * A;
    U = chol(S);
    U1 = qru_cholshift(cast(U, cls), cast(i, cls), cast(j, cls), backend);
    Uo = chol(S(p, p));
    ferr = norm(double(U1) - Uo, 'fro') / (norm(Uo, 'fro') * m * ep * cond(S));
    qru_check(isa(U1, cls) && all(all(tril(U1, -1) == 0)) && ferr < 30, ...
              'cholshift %s i=%d j=%d: class %s, error %g against chol', cls, i, j, class(U1), ferr);
    % Octave's, its rows' signs made positive (i, j double: double)
    Uc = cholshift(U, i, j);
    Uc = diag(sign(diag(Uc))) * Uc;
    U1 = qru_cholshift(cast(U, cls), i, j, backend);
    ferr = norm(U1 - Uc, 'fro') / (norm(Uc, 'fro') * m * ep * cond(S));
    qru_check(isa(U1, 'double') && ferr < 30, 'cholshift %s i=%d j=%d, double i: class %s, error %g against cholshift', ...
              cls, i, j, class(U1), ferr);
  end
end
% square and wide A (wide: formed and factorized, as qrshift accepts it)
S = randn(m, m); [Q, R] = qr(S);
[Q1, R1] = qru_qrshift(Q, R, 2, 6, backend);
[Qo, Ro] = qrshift(Q, R, 2, 6);
qru_check_factors('square', 'double', Q1, R1, zeros(m, 1), S(:, shift_perm(m, 2, 6)), zeros(m, 1), Qo, Ro);
W = randn(4, 9); [Q, R] = qr(W);
for t = 1:rows(pairs)
  i = pairs(t, 1); j = pairs(t, 2);
  [Q1, R1] = qru_qrshift(Q, R, i, j, backend);
  [Qo, Ro] = qrshift(Q, R, i, j);
  qru_check_factors(sprintf('wide i=%d j=%d', i, j), 'double', Q1, R1, zeros(4, 1), ...
                    W(:, shift_perm(9, i, j)), zeros(4, 1), Qo, Ro);
end
% the handle interface: d = Q'*b follows the shift, the solution permutes
A = randn(n, m); b = randn(n, 2);
F = qru_lsq(A, b, backend);
F.shift_cols(2, 8);
F.shift_cols(m, 1);
p = shift_perm(m, 2, 8);
p = p(shift_perm(m, m, 1));
[Q1, R1, d1] = F.factors();
qru_check_factors('F.shift_cols', 'double', Q1, R1, d1, A(:, p), b);
x = F.solve();
xo = A \ b;
qru_check(norm(x - xo(p, :), 'fro') < 30 * n * eps * cond(A)^2 * norm(xo, 'fro'), 'F.shift_cols: solution');
qru_expect_error('qru:usage', 'F.shift_cols(0, 1)', @(G) G.shift_cols(0, 1), F);
delete(F);
% error cases: Octave's function fails on the same input, and qru's
% message names the argument and the rule
[Q, R] = qr(randn(n, m));
qru_both_fail('i = 0', 'argument 3: i = 0', @qrshift, @qru_qrshift, {Q, R, 0, 2}, backend);
qru_both_fail('j = m+1', 'argument 4: j = 10', @qrshift, @qru_qrshift, {Q, R, 1, m + 1}, backend);
qru_both_fail('logical Q', 'argument 1', @qrshift, @qru_qrshift, {Q > 0, R, 1, 2}, backend);
qru_both_fail('char i', 'argument 3', @qrshift, @qru_qrshift, {Q, R, 'a', 2}, backend);
qru_both_fail('Q, R mismatch', 'argument 2', @qrshift, @qru_qrshift, {Q, R(1:n-1, :), 1, 2}, backend);
G = randn(n, m);
U = chol(G' * G);
qru_both_fail('cholshift j = 0', 'argument 3: j = 0', @cholshift, @qru_cholshift, {U, 2, 0}, backend);
qru_both_fail('cholshift not square', 'argument 1', @cholshift, @qru_cholshift, {U(:, 1:m-1), 1, 2}, backend);
qru_both_fail('cholshift logical R', 'argument 1', @cholshift, @qru_cholshift, {U > 0, 1, 2}, backend);
Z = U; Z(3, 3) = 0;
qru_expect_error('qru:numerical', 'cholshift of a singular factor', @qru_cholshift, Z, 1, 5, backend);
nfail = qru_check('count');
end

function p = shift_perm(m, i, j)
% column i moves to position j: p = [1:i-1, shift(i:j, -1), j+1:m] for
% i < j, [1:j-1, shift(j:i, 1), i+1:m] for j < i
p = 1:m;
if i < j
  p(i:j) = shift(i:j, -1);
elseif j < i
  p(j:i) = shift(j:i, 1);
end
end
