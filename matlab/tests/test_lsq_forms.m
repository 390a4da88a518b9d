function nfail = test_lsq_forms(backend)
%TEST_LSQ_FORMS  The three forms of qru_lsq ('full', 'thin', 'none')
%   through a chain of updates (columns added, rows removed, rows added,
%   columns removed, A + U*V', a column shift, a column appended, the last
%   rows removed), each state checked against Octave's qr(A, 0) and A\b
%   of the updated matrix: the factors (thin: Q1*R = A, Q1 orthonormal,
%   R as qr(A, 0)'s up to the signs of its rows; Q-less: R likewise and
%   d = R'\(A'*b)), the solution, the residual norms and residuals, the
%   downdate condition of the row removals and the Q-less error estimate;
%   qru_lsq_solve in each form; single and double; a failed update leaves
%   the object as it was; bad inputs raise the documented identifiers.
qru_check('reset');
classes = qru_classes(backend);
rand('seed', 23); randn('seed', 23);
n = 60; m = 12; r = 2;
for c = 1:numel(classes)
  cls = classes{c};
  for q = {'full', 'thin', 'none'}
    form = q{1};
    A = cast(randn(n, m), cls); b = cast(randn(n, r), cls);
    F = qru_lsq(A, b, 'q', form, backend);
    qru_check(strcmp(F.q, form), '%s: F.q is %s', form, F.q);
    tag = sprintf('%s %s', form, cls);
    check_state([tag ' created'], F, A, b, form);
    % columns added (the Q-less form with the current A and b)
    U = cast(randn(n, 3), cls);
    if strcmp(form, 'none')
      F.add_cols(4, U, A, b);
    else
      F.add_cols(4, U);
    end
    A = [A(:, 1:3), U, A(:, 4:end)];
    check_state([tag ' add_cols'], F, A, b, form);
    % rows removed (the Q-less form with the rows)
    Qk = orth_rows(A, 5:10);
    if strcmp(form, 'none')
      F.remove_rows(5, 6, A(5:10, :), b(5:10, :));
    else
      F.remove_rows(5, 6);
    end
    A(5:10, :) = []; b(5:10, :) = [];
    check_state([tag ' remove_rows'], F, A, b, form);
    check_downdate([tag ' remove_rows'], F, form, Qk, A);
    % rows added
    U = cast(randn(4, size(A, 2)), cls); e = cast(randn(4, r), cls);
    F.add_rows(2, U, e);
    A = [A(1:1, :); U; A(2:end, :)]; b = [b(1:1, :); e; b(2:end, :)];
    check_state([tag ' add_rows'], F, A, b, form);
    % columns removed
    F.remove_cols(2, 2);
    A(:, 2:3) = [];
    check_state([tag ' remove_cols'], F, A, b, form);
    % A + U*V' (the forms that hold Q)
    if ~strcmp(form, 'none')
      U = cast(randn(size(A, 1), 2), cls); V = cast(randn(size(A, 2), 2), cls);
      F.modify(U, V);
      A = cast(double(A) + double(U) * double(V'), cls);
      check_state([tag ' modify'], F, A, b, form);
    end
    % the column shift
    F.shift_cols(2, 7);
    A = A(:, [1, 3:7, 2, 8:end]);
    check_state([tag ' shift_cols'], F, A, b, form);
    % a column appended, then the last rows removed
    U = cast(randn(size(A, 1), 1), cls);
    if strcmp(form, 'none')
      F.add_cols(size(A, 2) + 1, U, A, b);
    else
      F.add_cols(size(A, 2) + 1, U);
    end
    A = [A, U];
    nn = size(A, 1);
    Qk = orth_rows(A, nn-2:nn);
    if strcmp(form, 'none')
      F.remove_rows(nn - 2, 3, A(nn-2:nn, :), b(nn-2:nn, :));
    else
      F.remove_rows(nn - 2, 3);
    end
    A(nn-2:nn, :) = []; b(nn-2:nn, :) = [];
    check_state([tag ' remove_rows (last)'], F, A, b, form);
    check_downdate([tag ' remove_rows (last)'], F, form, Qk, A);
    % a dependent column is refused, and F stays as it was
    [n1, m1] = F.size();
    x1 = F.solve();
    if strcmp(form, 'none')
      qru_expect_error('qru:numerical', [tag ' dependent column'], ...
                       @() F.add_cols(2, A(:, 1:2) * [1; 2], A, b));
    else
      qru_expect_error('qru:numerical', [tag ' dependent column'], ...
                       @() F.add_cols(2, A(:, 1:2) * [1; 2]));
    end
    [n2, m2] = F.size();
    qru_check(n2 == n1 && m2 == m1 && isequal(F.solve(), x1), ...
              '%s: F changed by the refused update', tag);
    check_state([tag ' after the refused update'], F, A, b, form);
    delete(F);
    % one-shot solve in the form
    A = cast(randn(n, m), cls); b = cast(randn(n, r), cls);
    [x, res] = qru_lsq_solve(A, b, 'q', form, backend);
    check_solution([tag ' qru_lsq_solve'], x, res, A, b);
  end
  % a row removal that loses rank: column 3 lives in rows 1:3 only
  % (the thin and Q-less forms refuse it; the full form returns the QR)
  A = randn(n, m); A(4:end, 3) = 0; A = cast(A, cls); b = cast(randn(n, 1), cls);
  for q = {'thin', 'none'}
    F = qru_lsq(A, b, 'q', q{1}, backend);
    if strcmp(q{1}, 'none')
      qru_expect_error('qru:numerical', ['rank-losing removal ' q{1}], ...
                       @() F.remove_rows(1, 3, A(1:3, :), b(1:3)));
    else
      qru_expect_error('qru:numerical', ['rank-losing removal ' q{1}], @() F.remove_rows(1, 3));
    end
    check_state(sprintf('%s %s after the refused removal', q{1}, cls), F, A, b, q{1});
    delete(F);
  end
end
% classes: single with double computes in single
A = randn(20, 5); b = randn(20, 1);
F = qru_lsq(single(A), b, 'q', 'thin', backend);
[Q, R, d] = F.factors();
qru_check(isa(Q, 'single') && isa(R, 'single') && isa(d, 'single') && isa(F.solve(), 'single'), ...
          'single A: classes %s %s %s', class(Q), class(R), class(d));
delete(F);
% bad inputs
qru_expect_error('qru:lsq:q', 'q = ''econ''', @() qru_lsq(A, b, 'q', 'econ', backend));
qru_expect_error('qru:lsq:q', 'q = 0', @() qru_lsq(A, b, 'q', 0, backend));
qru_expect_error('qru:lsq:option', 'q without a value', @() qru_lsq(A, b, 'q'));
qru_expect_error('qru:lsq:option', 'unknown option', @() qru_lsq(A, b, 'form', 'thin', backend));
qru_expect_error('qru:lsq:backend', 'unknown backend', @() qru_lsq(A, b, 'q', 'thin', 'gpu'));
qru_expect_error('qru:lsq:nargin', 'no b', @() qru_lsq(A));
qru_expect_error('qru:lsq_solve:q', 'qru_lsq_solve q = 3', @qru_lsq_solve, A, b, 'q', 3, backend);
qru_expect_error('qru:lsq_solve:nargin', 'qru_lsq_solve without b', @qru_lsq_solve, A);
G = qru_lsq(A, b, 'q', 'none', backend);
qru_expect_error('qru:lsq:data', 'Q-less remove_rows without the rows', @() G.remove_rows(1, 2));
qru_expect_error('qru:lsq:data', 'Q-less add_cols without A and b', @() G.add_cols(1, randn(20, 1)));
qru_expect_error('qru:lsq:nargin', 'add_cols with A but not b', @() G.add_cols(1, randn(20, 1), A));
qru_expect_error('qru:lsq:nargin', 'remove_rows with U but not e', @() G.remove_rows(1, 2, A(1:2, :)));
qru_expect_error('qru:lsq:form', 'Q-less modify', @() G.modify(randn(20, 1), randn(5, 1)));
qru_expect_error('qru:lsq:form', 'Q-less residuals', @() G.residuals());
qru_expect_error('qru:usage', 'Q-less remove_rows, U with 3 rows for p = 2', ...
                 @() G.remove_rows(1, 2, A(1:3, :), b(1:3)));
qru_expect_error('qru:badArgument', 'Q-less add_cols, A of the wrong size', ...
                 @() G.add_cols(1, randn(20, 1), A(:, 1:4), b));
delete(G);
G = qru_lsq(A, b, 'q', 'full', backend);
qru_expect_error('qru:lsq:form', 'full error_estimate', @() G.error_estimate());
c = G.downdate_condition();
qru_check(c == 0, 'full form: downdate condition %g, not 0', c);
delete(G);
nfail = qru_check('count');
end

function check_state(what, F, A, b, form)
% F factorizes A (n x m) and b in its form: the factors against qr(A, 0)
% and A\b in double, errors scaled by the precision of A's class.
cls = class(A);
ep = double(eps(cls));
A = double(A); b = double(b);
[n, m] = size(A);
[n1, m1] = F.size();
qru_check(n1 == n && m1 == m, '%s: F.size() %d x %d, A is %d x %d', what, n1, m1, n, m);
[Q, R, d] = F.factors();
qru_check(isa(R, cls) && isa(d, cls) && isa(Q, cls), '%s: classes %s %s %s', what, ...
          class(Q), class(R), class(d));
if strcmp(form, 'full')
  qru_check_factors(what, cls, Q, R, d, A, b);
  R = R(1:m, :);
  Q = Q(:, 1:m);
  d = d(1:m, :);
elseif strcmp(form, 'thin')
  qru_check_econ(what, Q, R, A, [], []);
  qru_check(isequal(size(d), [m size(b, 2)]), '%s: d is %s', what, mat2str(size(d)));
else
  qru_check(isempty(Q) && isequal(size(R), [m m]) && isequal(size(d), [m size(b, 2)]) && ...
            all(all(tril(R, -1) == 0)), '%s: Q-less sizes Q %s R %s d %s', what, ...
            mat2str(size(Q)), mat2str(size(R)), mat2str(size(d)));
end
R = double(R); d = double(d);
kappa = cond(A);
% R as qr(A, 0)'s, up to the signs of the rows
[~, Ro] = qr(A, 0);
eR = norm(qru_rowsign(R) - qru_rowsign(Ro), 'fro') / (norm(Ro, 'fro') * max(n, m) * ep * kappa);
qru_check(eR < 30, '%s: R differs from qr(A, 0)''s by %g (scaled)', what, eR);
% d = Q1'*b, with Q1 = A / R for every form (the signs follow R's)
dref = R' \ (A' * b);
derr = norm(d - dref, 'fro') / (norm(b, 'fro') * max(n, m) * ep * kappa);
qru_check(derr < 30, '%s: d differs from R''\\(A''*b) by %g (scaled)', what, derr);
[x, res] = F.solve();
check_solution(what, x, res, A, b, cls);
if ~strcmp(form, 'none')
  E = double(F.residuals());
  xo = A \ b;
  rscale = (norm(b, 'fro') + norm(A, 'fro') * norm(xo, 'fro')) * max(n, m) * ep;
  eE = norm(E - (b - A * xo), 'fro') / rscale;
  qru_check(isa(F.residuals(), cls) && isequal(size(E), size(b)) && eE < 30, ...
            '%s: residuals E differ from b - A*(A\\b) by %g (scaled)', what, eE);
else
  est = F.error_estimate();
  qru_check(est >= 0 && est / (max(n, m) * ep * kappa^2) < 30, ...
            '%s: error estimate %g (scaled %g)', what, est, est / (max(n, m) * ep * kappa^2));
end
end

function check_solution(what, x, res, A, b, cls)
% x = A \ b and res(k) = norm(A*x(:,k) - b(:,k)) in the class of A.
if nargin < 6
  cls = class(A);
end
ep = double(eps(cls));
A = double(A); b = double(b);
[n, m] = size(A);
xo = A \ b;
xerr = norm(double(x) - xo, 'fro') / (norm(xo, 'fro') * max(n, m) * ep * cond(A)^2);
qru_check(isa(x, cls) && isequal(size(x), [m size(b, 2)]) && xerr < 30, ...
          '%s: x = A\\b: class %s, size %s, error %g (scaled)', what, class(x), mat2str(size(x)), xerr);
ro = sqrt(sum((A * xo - b).^2, 1));
rscale = (norm(b, 'fro') + norm(A, 'fro') * norm(xo, 'fro')) * max(n, m) * ep;
rerr = max(abs(double(res) - ro)) / rscale;
qru_check(isequal(size(res), [1 size(b, 2)]) && rerr < 30, '%s: residual norms error %g', what, rerr);
end

function Qk = orth_rows(A, rows)
% The rows of Q1 (qr(A, 0), in double) that a row removal takes away.
[Q1, ~] = qr(double(A), 0);
Qk = Q1(rows, :);
end

function check_downdate(what, F, form, Qk, A1)
% The downdate condition of the last row removal: 1 / min |diag(Rz)|,
% Rz'*Rz = I - Qk*Qk' (thin and Q-less; 0 in the full form).
c = F.downdate_condition();
if strcmp(form, 'full')
  qru_check(c == 0, '%s: downdate condition %g in the full form', what, c);
  return;
end
p = size(Qk, 1);
cref = 1 / min(abs(diag(chol(eye(p) - Qk * Qk'))));
ep = double(eps(class(A1)));
err = abs(c - cref) / (cref * max(size(A1)) * ep * cond(double(A1)));
qru_check(c >= 1 && err < 30, '%s: downdate condition %g, reference %g (scaled error %g)', ...
          what, c, cref, err);
end
