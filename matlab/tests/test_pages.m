function nfail = test_pages(backend)
%TEST_PAGES  The pages (3-D arrays, as pagemtimes) of qru_cholinsert,
%   qru_choldelete, qru_lsq and qru_lsq_solve: every page against Octave's
%   own single-page result (chol of the modified matrix, cholinsert and
%   choldelete for one row and column, qr(A, 0) and A \ b) and against
%   qru's single-page call; orders on both sides of the batched kernels'
%   local-memory bound, j at the start, middle and end, blocks of rows and
%   columns; failed pages (not positive definite, singular, non-finite,
%   rank-deficient, a refused row removal) with the others computed and
%   the failed ones as documented; single and double; empty page sets;
%   bad arguments' error identifiers, and a refused update leaving the
%   object bit-identical.  qru_lsq's pages in the forms 'full', 'thin' and
%   'none', real and complex (where the backend takes them): columns
%   removed and added and rank-k modifications, j at the start, middle
%   and end, p = 1 and p > 1, each page against Octave's qr of the page
%   updated by hand (the moduli of R, Q'*Q = I, A = Q*R, d, the
%   residuals, A \ b); pages that refuse an insertion, a modification or
%   a removal (rank, NaN) left bit-identical; add_rows_solve against
%   add_rows and solve (bit for bit) and A \ b, a rank-deficient page.
qru_check('reset');
classes = qru_classes(backend);
rand('seed', 31); randn('seed', 31);
have_octave = exist('cholinsert') > 0 && exist('choldelete') > 0;
P = 5;
for c = 1:numel(classes)
  cls = classes{c};
  ep = double(eps(cls));
  for n = [12 70]
    [A, R] = spd_pages(n, P);
    Rs = cast(R, cls);
    % ---- insertions: p rows and columns at j, the same j for every page
    for p = [1 3]
      for j = [1 5 n+1]
        [A1, X] = inserted(A, j, p);
        [R1, info] = qru_cholinsert(Rs, j, cast(X, cls), backend);
        tag = sprintf('cholinsert pages %s n=%d j=%d p=%d', cls, n, j, p);
        qru_check(isequal(size(R1), [n+p n+p P]) && isequal(info, zeros(P, 1)) && ...
                  strcmp(class(R1), cls), '%s: size %s, info %s, class %s', tag, ...
                  mat2str(size(R1)), mat2str(info'), class(R1));
        for i = 1:P
          page_check(sprintf('%s page %d', tag, i), R1(:, :, i), A1(:, :, i), ep);
          Ri = qru_cholinsert(Rs(:, :, i), j, cast(X(:, :, i), cls), backend);
          qru_check(norm(double(R1(:, :, i) - Ri), 'fro') <= 30 * n * ep * norm(double(Ri), 'fro'), ...
                    '%s page %d: differs from the single-page qru_cholinsert', tag, i);
          if p == 1 && have_octave && i == 1
            Ro = cholinsert(R(:, :, i), j, X(:, :, i));
            qru_check(norm(qru_rowsign(double(R1(:, :, i))) - qru_rowsign(Ro), 'fro') / norm(Ro, 'fro') < ...
                      30 * n * ep * cond(A1(:, :, i)), '%s: differs from built-in cholinsert', tag);
          end
        end
      end
    end
    % ---- deletions: rows and columns j (an index or a range) of every page
    for p = [1 3]
      for j = [1 5 n-p+1]
        keep = [1:j-1, j+p:n];
        [R1, pp] = qru_choldelete(Rs, j:j+p-1, backend);
        tag = sprintf('choldelete pages %s n=%d j=%d p=%d', cls, n, j, p);
        qru_check(isequal(size(R1), [n-p n-p P]) && isequal(pp, zeros(P, 1)) && ...
                  strcmp(class(R1), cls), '%s: size %s, p %s, class %s', tag, ...
                  mat2str(size(R1)), mat2str(pp'), class(R1));
        for i = 1:P
          page_check(sprintf('%s page %d', tag, i), R1(:, :, i), A(keep, keep, i), ep);
          Ri = qru_choldelete(Rs(:, :, i), j:j+p-1, backend);
          qru_check(norm(double(R1(:, :, i) - Ri), 'fro') <= 30 * n * ep * norm(double(Ri), 'fro'), ...
                    '%s page %d: differs from the single-page qru_choldelete', tag, i);
          if p == 1 && have_octave && i == 1
            Ro = choldelete(R(:, :, i), j);
            qru_check(norm(qru_rowsign(double(R1(:, :, i))) - qru_rowsign(Ro), 'fro') / norm(Ro, 'fro') < ...
                      30 * n * ep * cond(A(:, :, i)), '%s: differs from built-in choldelete', tag);
          end
        end
      end
    end
  end
  % ---- failed pages of an insertion: page 2 not positive definite, page
  % 4 singular; the others inserted, the failed ones R's pages placed
  n = 9; j = 4; p = 2;
  [A, R] = spd_pages(n, P);
  [A1, X] = inserted(A, j, p);
  X(j, 1, 2) = -1;                         % A1(j, j) < 0 on page 2
  R(3, 3, 4) = 0;                          % a singular factor on page 4
  Rs = cast(R, cls);
  [R1, info] = qru_cholinsert(Rs, j, cast(X, cls), backend);
  keep = [1:j-1, j+p:n+p];
  qru_check(isequal(info, [0; 1; 0; 2; 0]), 'cholinsert failed pages %s: info %s', cls, mat2str(info'));
  for i = [2 4]
    Ri = zeros(n + p, cls); Ri(keep, keep) = Rs(:, :, i);
    qru_check(isequal(R1(:, :, i), Ri), 'cholinsert failed page %d %s: not R''s page placed', i, cls);
  end
  for i = [1 3 5]
    page_check(sprintf('cholinsert pages %s beside failed ones, page %d', cls, i), R1(:, :, i), ...
               A1(:, :, i), ep);
  end
  qru_expect_error('qru:cholinsert:notPositiveDefinite', sprintf('cholinsert pages indefinite %s', cls), ...
                   @qru_cholinsert, Rs, j, cast(X, cls), backend);
  qru_expect_error('qru:cholinsert:singular', sprintf('cholinsert pages singular %s', cls), ...
                   @qru_cholinsert, Rs(:, :, 3:5), j, cast(X(:, :, 3:5), cls), backend);
  % ---- failed pages of a deletion: a zero (page 2) and a NaN (page 3) on
  % the diagonal of a row that stays; a zero in the rows removed (page 5)
  % does not matter
  [A, R] = spd_pages(n, P);
  R(6, 6, 2) = 0; R(7, 7, 3) = NaN; R(2, 2, 5) = 0;
  Rs = cast(R, cls);
  [R1, pp] = qru_choldelete(Rs, 2:3, backend);
  keep = [1, 4:n];
  qru_check(isequal(pp, [0; 2; 1; 0; 0]), 'choldelete failed pages %s: p %s', cls, mat2str(pp'));
  for i = [2 3]
    qru_check(isequaln(R1(:, :, i), Rs(keep, keep, i)), 'choldelete failed page %d %s: not R(keep, keep)', i, cls);
  end
  for i = [1 4 5]
    page_check(sprintf('choldelete pages %s beside failed ones, page %d', cls, i), R1(:, :, i), ...
               A(keep, keep, i), ep);
  end
  qru_expect_error('qru:numerical', sprintf('choldelete pages failed %s', cls), ...
                   @qru_choldelete, Rs, 2:3, backend);
  % ---- empty page sets; a single x computes in single
  [R1, info] = qru_cholinsert(zeros(4, 4, 0, cls), 2, zeros(5, 1, 0), backend);
  qru_check(isequal(size(R1), [5 5 0]) && isequal(size(info), [0 1]) && isa(R1, cls), ...
            'cholinsert of no pages %s: %s', cls, mat2str(size(R1)));
  [R1, pp] = qru_choldelete(zeros(4, 4, 0, cls), 2, backend);
  qru_check(isequal(size(R1), [3 3 0]) && isequal(size(pp), [0 1]), 'choldelete of no pages %s', cls);
  [A, R] = spd_pages(6, 2);
  [~, X] = inserted(A, 7, 1);
  R1 = qru_cholinsert(R, 7, single(X), backend);
  qru_check(isa(R1, 'single'), 'cholinsert pages: double R, single x give %s', class(R1));

  % ---- least squares over pages, in both forms
  n = 40; m = 7; r = 2;
  for q = {'none', 'thin'}
    form = q{1};
    tag = sprintf('lsq pages %s %s', form, cls);
    A = cast(randn(n, m, P), cls); b = cast(randn(n, r, P), cls);
    if strcmp(form, 'none')
      F = qru_lsq(A, b, backend);          % Q-less by default over pages
    else
      F = qru_lsq(A, b, 'q', 'thin', backend);
    end
    qru_check(strcmp(F.q, form) && isequal(F.pages, P), '%s: F.q %s, F.pages %s', tag, F.q, mat2str(F.pages));
    lsq_check([tag ' created'], F, A, b, form);
    % rows added: anywhere in the Q-less form, appended in the thin one
    U = cast(randn(3, m, P), cls); e = cast(randn(3, r, P), cls);
    if strcmp(form, 'none')
      F.add_rows(2, U, e);
      A = [A(1, :, :); U; A(2:end, :, :)]; b = [b(1, :, :); e; b(2:end, :, :)];
    else
      F.add_rows(n + 1, U, e);
      A = [A; U]; b = [b; e];
    end
    lsq_check([tag ' add_rows'], F, A, b, form);
    % rows added without e: b gains zeros
    U = cast(randn(1, m, P), cls);
    F.add_rows(size(A, 1) + 1, U);
    A = [A; U]; b = [b; zeros(1, r, P, cls)];
    lsq_check([tag ' add_rows without e'], F, A, b, form);
    if strcmp(form, 'thin')
      % rows removed from every page
      info = F.remove_rows(5, 6);
      A(5:10, :, :) = []; b(5:10, :, :) = [];
      qru_check(isequal(info, zeros(P, 1)), '%s: remove_rows info %s', tag, mat2str(info'));
      lsq_check([tag ' remove_rows'], F, A, b, form);
      F.remove_rows(1, 2);
      A(1:2, :, :) = []; b(1:2, :, :) = [];
      lsq_check([tag ' remove_rows (no info)'], F, A, b, form);
    end
    % a refused update leaves F bit-identical
    [Q0, R0, d0] = F.factors();
    qru_expect_error('qru:usage', [tag ' add_rows U of another P'], ...
                     @() F.add_rows(size(A, 1) + 1, cast(randn(2, m, P - 1), cls)));
    qru_expect_error('qru:usage', [tag ' add_rows e of another size'], ...
                     @() F.add_rows(size(A, 1) + 1, cast(randn(2, m, P), cls), cast(randn(3, r, P), cls)));
    [Q1, R1, d1] = F.factors();
    qru_check(isequal(Q0, Q1) && isequal(R0, R1) && isequal(d0, d1), '%s: F changed by a refused update', tag);
    delete(F);
    % the one-shot solve
    A = cast(randn(n, m, P), cls); b = cast(randn(n, r, P), cls);
    [x, res] = qru_lsq_solve(A, b, 'q', form, backend);
    solution_check([tag ' qru_lsq_solve'], x, res, A, b);
    add_rows_solve_check(backend, cls, form);
  end
  % a Q-less object starts with fewer rows than columns: rank-deficient
  % until rows come
  A = cast(randn(3, 5, 2), cls); b = cast(randn(3, 1, 2), cls);
  F = qru_lsq(A, b, backend);
  [x, ~, info] = F.solve();
  qru_check(all(info > 0) && all(isnan(x(:))), 'lsq pages %s n < m: info %s', cls, mat2str(info'));
  qru_expect_error('qru:numerical', sprintf('lsq pages %s n < m solve', cls), @() F.solve());
  U = cast(randn(6, 5, 2), cls); e = cast(randn(6, 1, 2), cls);
  F.add_rows(4, U, e);
  lsq_check(sprintf('lsq pages none %s rows added to n < m', cls), F, [A; U], [b; e], 'none');
  delete(F);
  % a rank-deficient page: the others solved, its page NaN
  A = cast(randn(20, 4, 3), cls); b = cast(randn(20, 1, 3), cls);
  A(:, 3, 2) = A(:, 1, 2) * 2;
  [x, res, info] = qru_lsq_solve(A, b, backend);
  qru_check(info(1) == 0 && info(2) == 3 && info(3) == 0 && all(isnan(x(:, :, 2))), ...
            'lsq pages %s rank-deficient page: info %s', cls, mat2str(info'));
  for i = [1 3]
    solution_check(sprintf('lsq pages %s beside a rank-deficient page, page %d', cls, i), ...
                   x(:, :, i), res(:, :, i), A(:, :, i), b(:, :, i));
  end
  qru_expect_error('qru:numerical', sprintf('lsq pages %s rank-deficient solve', cls), ...
                   @qru_lsq_solve, A, b, backend);
  % a removal that page 2 refuses (column 3 lives in rows 1:3 there): the
  % others lose the rows, page 2 keeps them
  n = 30;
  A = cast(randn(n, 5, 3), cls); b = cast(randn(n, 2, 3), cls);
  A(4:end, 3, 2) = 0;
  F = qru_lsq(A, b, 'q', 'thin', backend);
  info = F.remove_rows(1, 3);
  qru_check(info(1) == 0 && info(2) > 0 && info(3) == 0 && isequal(rows(F), [n-3; n; n-3]), ...
            'lsq pages %s refused removal: info %s, rows %s', cls, mat2str(info'), mat2str(rows(F)'));
  [nn, mm, PP] = F.size();
  qru_check(nn == n && mm == 5 && PP == 3, 'lsq pages %s refused removal: size %d %d %d', cls, nn, mm, PP);
  [Q, R] = F.factors();
  E = F.residuals();
  qru_check(all(all(Q(n-2:n, :, 1) == 0)) && all(all(E(n-2:n, :, 3) == 0)), ...
            'lsq pages %s refused removal: the rows below a page''s count are not zero', cls);
  page_lsq_check(sprintf('lsq pages thin %s refused page', cls), Q(:, :, 2), R(:, :, 2), ...
                 A(:, :, 2), b(:, :, 2), E(:, :, 2), 'thin');
  for i = [1 3]
    page_lsq_check(sprintf('lsq pages thin %s after the removal, page %d', cls, i), Q(1:n-3, :, i), ...
                   R(:, :, i), A(4:n, :, i), b(4:n, :, i), E(1:n-3, :, i), 'thin');
  end
  qru_expect_error('qru:numerical', sprintf('lsq pages %s refused removal without info', cls), ...
                   @() F.remove_rows(1, 3));
  qru_check(isequal(rows(F), [n-6; n; n-6]), 'lsq pages %s second refused removal: rows %s', ...
            cls, mat2str(rows(F)'));
  delete(F);
end
pages_updates(backend, classes);
% ---- bad arguments
R = repmat(chol(eye(4) * 2), [1 1 3]);
qru_expect_error('qru:cholinsert:x', 'cholinsert pages x of another P', @qru_cholinsert, R, 1, ones(5, 1, 2), backend);
qru_expect_error('qru:cholinsert:x', 'cholinsert pages x rows', @qru_cholinsert, R, 1, ones(4, 1, 3), backend);
qru_expect_error('qru:cholinsert:index', 'cholinsert pages j', @qru_cholinsert, R, 6, ones(5, 1, 3), backend);
qru_expect_error('qru:cholinsert:R', 'cholinsert pages R not square', @qru_cholinsert, R(:, 1:3, :), 1, ones(4, 1, 3), backend);
qru_expect_error('qru:cholinsert:R', 'cholinsert pages R logical', @qru_cholinsert, R > 0, 1, ones(5, 1, 3), backend);
qru_expect_error('qru:cholinsert:x', 'cholinsert pages x 4-D', @qru_cholinsert, R, 1, ones(5, 1, 3, 2), backend);
qru_expect_error('qru:choldelete:index', 'choldelete pages j', @qru_choldelete, R, 5, backend);
qru_expect_error('qru:choldelete:index', 'choldelete pages block', @qru_choldelete, R, 3:5, backend);
qru_expect_error('qru:choldelete:R', 'choldelete pages 4-D', @qru_choldelete, ones(4, 4, 2, 2), 1, backend);
A = randn(10, 3, 2); b = randn(10, 1, 2);
qru_expect_error('qru:lsq:q', 'lsq pages q', @() qru_lsq(A, b, 'q', 'economy', backend));
qru_expect_error('qru:lsq_solve:q', 'lsq_solve pages q', @qru_lsq_solve, A, b, 'q', 'economy', backend);
qru_expect_error('qru:usage', 'lsq pages full wide', @() qru_lsq(randn(2, 3, 2), randn(2, 1, 2), 'q', 'full', backend));
qru_expect_error('qru:usage', 'lsq pages b of another P', @() qru_lsq(A, randn(10, 1, 3), backend));
qru_expect_error('qru:usage', 'lsq pages b of other rows', @() qru_lsq(A, randn(9, 1, 2), backend));
qru_expect_error('qru:usage', 'lsq pages 4-D A', @() qru_lsq(randn(10, 3, 2, 2), randn(10, 1, 2, 2), backend));
qru_expect_error('qru:usage', 'lsq pages thin wide', @() qru_lsq(randn(2, 3, 2), randn(2, 1, 2), 'q', 'thin', backend));
qru_expect_error('qru:usage', 'lsq object of no pages', @() qru_lsq(zeros(10, 3, 0), zeros(10, 1, 0), backend));
[x, res] = qru_lsq_solve(zeros(10, 3, 0), zeros(10, 2, 0), backend);
qru_check(isequal(size(x), [3 2 0]) && isequal(size(res), [1 2 0]), 'lsq_solve of no pages: %s', mat2str(size(x)));
F = qru_lsq(A, b, backend);
qru_expect_error('qru:lsq:pages', 'pages shift_cols', @() F.shift_cols(1, 2));
qru_expect_error('qru:lsq:pages', 'pages error_estimate', @() F.error_estimate());
qru_expect_error('qru:lsq:pages', 'pages downdate_condition', @() F.downdate_condition());
qru_expect_error('qru:lsq:form', 'Q-less pages remove_rows', @() F.remove_rows(1, 1));
qru_expect_error('qru:lsq:form', 'Q-less pages residuals', @() F.residuals());
qru_expect_error('qru:usage', 'pages add_rows j', @() F.add_rows(12, randn(1, 3, 2)));
delete(F);
F = qru_lsq(A, b, 'q', 'thin', backend);
[Q0, R0, d0] = F.factors();
qru_expect_error('qru:lsq:nargin', 'thin pages remove_rows with data', ...
                 @() F.remove_rows(1, 1, A(1, :, :), b(1, :, :)));
qru_expect_error('qru:usage', 'thin pages add_rows not appended', @() F.add_rows(1, randn(1, 3, 2)));
qru_expect_error('qru:usage', 'thin pages remove_rows past the end', @() F.remove_rows(9, 3));
qru_expect_error('qru:badArgument', 'thin pages remove_rows leaving n < m', @() F.remove_rows(1, 8));
[Q1, R1, d1] = F.factors();
qru_check(isequal(Q0, Q1) && isequal(R0, R1) && isequal(d0, d1) && isequal(rows(F), [10; 10]), ...
          'thin pages: F changed by refused calls');
delete(F);
nfail = qru_check('count');
end

function pages_updates(backend, classes)
% The column insertions and removals, the rank-k modifications and the
% full form of qru_lsq over pages, real and complex (every form where the
% backend takes complex data):
% j at the start, the middle and the end, p = 1 and p > 1, each page
% against Octave's qr of the page updated by hand; pages that refuse an
% update (rank, a non-finite entry) left bit-identical; bad arguments.
[~, ~, ~, cplx] = qru_backend(backend);
n = 30; m = 8; r = 2; P = 3;
for c = 1:numel(classes)
  cls = classes{c};
  for cx = [false true]
    if cx && ~cplx
      continue;
    end
    mk = @(varargin) cast(randn(varargin{:}), cls);
    if cx
      mk = @(varargin) cast(complex(randn(varargin{:}), randn(varargin{:})), cls);
    end
    for q = {'full', 'thin', 'none'}
      form = q{1};
      tag = sprintf('lsq pages %s %s%s', form, cls, repmat(' complex', 1, double(cx)));
      A = mk(n, m, P); b = mk(n, r, P);
      try
        F = qru_lsq(A, b, 'q', form, backend);
      catch err
        qru_check(false, '%s: error "%s" (%s)', tag, err.message, ...
                  err.identifier);
        continue;
      end
      update_check([tag ' created'], F, A, b, form);
      % columns removed: j at the start, the middle and the end (0 below),
      % p = 1, 2
      for jp = [1 1; 3 2; 0 1; 0 2]'
        j = jp(1); p = jp(2);
        if j == 0
          j = size(A, 2) - p + 1;
        end
        F.remove_cols(j, p);
        A(:, j:j+p-1, :) = [];
        update_check(sprintf('%s remove_cols j=%d p=%d', tag, j, p), F, A, b, form);
      end
      % columns added: j at the start, the middle and the end, p = 1, 3
      % (the Q-less pages from the current A and b; the forms with Q take
      % them at p > 1 only, which they check and do not read)
      for jp = [1 1; 2 3; 0 2; 0 1]'
        j = jp(1); p = jp(2);
        if j == 0
          j = size(A, 2) + 1;
        end
        U = mk(n, p, P);
        if p > 1
          info = F.add_cols(j, U, A, b);
          qru_check(isequal(info, zeros(P, 1)), '%s add_cols j=%d p=%d: info %s', tag, j, p, mat2str(info'));
        elseif strcmp(form, 'none')
          F.add_cols(j, U, A, b);
        else
          F.add_cols(j, U);
        end
        A = [A(:, 1:j-1, :) U A(:, j:end, :)];
        update_check(sprintf('%s add_cols j=%d p=%d', tag, j, p), F, A, b, form);
      end
      if strcmp(form, 'none')
        % a column that page 2 already holds, a NaN on page 3: no page
        % gains the columns; without A and b: qru:lsq:data
        [Q0, R0, d0] = F.factors();
        U = mk(n, 2, P); U(:, 2, 2) = A(:, 1, 2) * 3;
        info = F.add_cols(2, U, A, b);
        qru_check(info(1) == 0 && info(2) > 0 && info(3) == 0, '%s add_cols dependent: info %s', tag, ...
                  mat2str(info'));
        unchanged([tag ' add_cols refused'], F, Q0, R0, d0, 1:P);
        U = mk(n, 1, P); U(5, 1, 3) = NaN;
        qru_expect_error('qru:numerical', [tag ' add_cols NaN without info'], @() F.add_cols(1, U, A, b));
        unchanged([tag ' add_cols NaN'], F, Q0, R0, d0, 1:P);
        qru_expect_error('qru:lsq:data', [tag ' add_cols without A, b'], @() F.add_cols(1, U));
        qru_expect_error('qru:usage', [tag ' add_cols A of another size'], ...
                         @() F.add_cols(1, U, mk(n, size(A, 2) + 1, P), b));
        qru_expect_error('qru:lsq:form', [tag ' modify'], @() F.modify(U, mk(size(A, 2), 1, P)));
        unchanged([tag ' refused arguments'], F, Q0, R0, d0, 1:P);
        update_check([tag ' after the refusals'], F, A, b, form);
        delete(F);
        continue;
      end
      % rank-k modifications, k = 1 and 3
      for k = [1 3]
        U = mk(n, k, P); V = mk(size(A, 2), k, P);
        if k == 1
          F.modify(U, V);
        else
          info = F.modify(U, V);
          qru_check(isequal(info, zeros(P, 1)), '%s modify k=%d: info %s', tag, k, mat2str(info'));
        end
        for i = 1:P
          A(:, :, i) = A(:, :, i) + U(:, :, i) * V(:, :, i)';
        end
        update_check(sprintf('%s modify k=%d', tag, k), F, A, b, form);
      end
      % rows appended and removed (the thin form's are checked above too)
      U = mk(4, size(A, 2), P); e = mk(4, r, P);
      F.add_rows(n + 1, U, e);
      A = [A; U]; b = [b; e];
      update_check([tag ' add_rows'], F, A, b, form);
      info = F.remove_rows(3, 5);
      A(3:7, :, :) = []; b(3:7, :, :) = [];
      qru_check(isequal(info, zeros(P, 1)), '%s remove_rows: info %s', tag, mat2str(info'));
      update_check([tag ' remove_rows'], F, A, b, form);
      mm = size(A, 2); nn = size(A, 1);
      % a column that page 2 already holds: no page gains the columns
      U = mk(nn, 2, P); U(:, 2, 2) = A(:, 1, 2) * 3;
      [Q0, R0, d0] = F.factors();
      info = F.add_cols(2, U);
      qru_check(info(1) == 0 && info(2) > 0 && info(3) == 0, '%s add_cols dependent: info %s', tag, mat2str(info'));
      unchanged([tag ' add_cols refused'], F, Q0, R0, d0, 1:P);
      % a NaN on page 3 is refused likewise, and without info raises
      U = mk(nn, 1, P); U(5, 1, 3) = NaN;
      qru_expect_error('qru:numerical', [tag ' add_cols NaN without info'], @() F.add_cols(mm + 1, U));
      unchanged([tag ' add_cols NaN'], F, Q0, R0, d0, 1:P);
      % a modification that makes page 2 rank-deficient (its column 3 a
      % copy of column 1) and one with a NaN on page 1: the other pages
      % modified, the refused one bit-identical
      U = mk(nn, 1, P); V = mk(mm, 1, P);
      U(:, 1, 2) = A(:, 1, 2) - A(:, 3, 2); V(:, 1, 2) = 0; V(3, 1, 2) = 1;
      info = F.modify(U, V);
      qru_check(info(1) == 0 && info(2) > 0 && info(3) == 0, '%s modify rank-deficient: info %s', tag, ...
                mat2str(info'));
      unchanged([tag ' modify refused'], F, Q0, R0, d0, 2);
      for i = [1 3]
        A(:, :, i) = A(:, :, i) + U(:, :, i) * V(:, :, i)';
      end
      update_check([tag ' modify beside a refused page'], F, A, b, form, 2);
      [Q0, R0, d0] = F.factors();
      U = mk(nn, 2, P); V = mk(mm, 2, P); V(2, 2, 1) = NaN;
      qru_expect_error('qru:numerical', [tag ' modify NaN without info'], @() F.modify(U, V));
      unchanged([tag ' modify NaN'], F, Q0, R0, d0, 1);
      for i = 2:3
        A(:, :, i) = A(:, :, i) + U(:, :, i) * V(:, :, i)';
      end
      update_check([tag ' modify beside a NaN page'], F, A, b, form, 1);
      % a row removal page 1 refuses (its column 2 lives in rows 1:2)
      delete(F);
      A = mk(n, m, P); b = mk(n, r, P); A(3:end, 2, 1) = 0;
      F = qru_lsq(A, b, 'q', form, backend);
      [Q0, R0, d0] = F.factors();
      info = F.remove_rows(1, 2);
      qru_check(info(1) > 0 && all(info(2:3) == 0) && isequal(rows(F), [n; n-2; n-2]), ...
                '%s refused removal: info %s, rows %s', tag, mat2str(info'), mat2str(rows(F)'));
      [Q1, R1, d1] = F.factors();
      qru_check(isequal(Q1(:, :, 1), Q0(:, :, 1)) && isequal(R1(:, :, 1), R0(:, :, 1)) && ...
                isequal(d1(:, :, 1), d0(:, :, 1)), '%s refused removal: page 1 changed', tag);
      % refused arguments leave F bit-identical
      qru_expect_error('qru:usage', [tag ' remove_cols p = m'], @() F.remove_cols(1, m));
      qru_expect_error('qru:usage', [tag ' remove_cols past the end'], @() F.remove_cols(m, 2));
      qru_expect_error('qru:usage', [tag ' remove_cols j = 0'], @() F.remove_cols(0, 1));
      qru_expect_error('qru:usage', [tag ' add_cols j past the end'], @() F.add_cols(m + 2, mk(n, 1, P)));
      qru_expect_error('qru:usage', [tag ' add_cols U rows'], @() F.add_cols(1, mk(n - 1, 1, P)));
      qru_expect_error('qru:usage', [tag ' add_cols U of another P'], @() F.add_cols(1, mk(n, 1, P - 1)));
      qru_expect_error('qru:usage', [tag ' add_cols making A wide'], @() F.add_cols(1, mk(n, n - 2 - m + 1, P)));
      qru_expect_error('qru:usage', [tag ' add_cols A of another size'], ...
                       @() F.add_cols(1, mk(n, 1, P), mk(n, m + 1, P), mk(n, r, P)));
      qru_expect_error('qru:lsq:nargin', [tag ' add_cols with A only'], ...
                       @() F.add_cols(1, mk(n, 1, P), mk(n, m, P)));
      qru_expect_error('qru:usage', [tag ' modify V rows'], @() F.modify(mk(n, 1, P), mk(m + 1, 1, P)));
      qru_expect_error('qru:usage', [tag ' modify V of another k'], @() F.modify(mk(n, 1, P), mk(m, 2, P)));
      qru_expect_error('qru:usage', [tag ' modify k > n - m'], ...
                       @() F.modify(mk(n, n - 2 - m + 1, P), mk(m, n - 2 - m + 1, P)));
      qru_expect_error('qru:usage', [tag ' add_rows not appended'], @() F.add_rows(1, mk(1, m, P)));
      if ~cx && cplx
        qru_expect_error('qru:usage', [tag ' complex U into real pages'], ...
                         @() F.add_cols(1, complex(randn(n, 1, P), 1)));
      end
      unchanged([tag ' refused arguments'], F, Q1, R1, d1, 1:P);
      % pages of different row counts (page 1 kept its rows): a page of U
      % is read in its first n_i rows
      Ai = {A(:, :, 1), A(3:end, :, 2), A(3:end, :, 3)};
      bi = {b(:, :, 1), b(3:end, :, 2), b(3:end, :, 3)};
      U = mk(n, 2, P); U2 = mk(n, 1, P); V2 = mk(m + 2, 1, P);
      info = [F.add_cols(m + 1, U) F.modify(U2, V2)];
      qru_check(isequal(info, zeros(P, 2)), '%s uneven rows: info %s', tag, mat2str(info));
      [x, res] = F.solve();
      [~, R] = F.factors();
      for i = 1:P
        ni = rows(Ai{i});
        Ai{i} = [Ai{i} U(1:ni, :, i)] + U2(1:ni, :, i) * V2(:, :, i)';
        solve_check(sprintf('%s uneven rows page %d', tag, i), x(:, :, i), res(:, :, i), Ai{i}, bi{i});
        [~, Ro] = qr(double(Ai{i}), 0);
        eR = norm(abs(double(R(1:m+2, :, i))) - abs(Ro), 'fro') / ...
             (norm(Ro, 'fro') * n * double(eps(cls)) * cond(double(Ai{i})));
        qru_check(eR < 30, '%s uneven rows page %d: |R| differs from |qr(A)|''s by %g (scaled)', tag, i, eR);
      end
      delete(F);
      % the one-shot solve in the form
      A = mk(n, m, P); b = mk(n, r, P);
      [x, res] = qru_lsq_solve(A, b, 'q', form, backend);
      for i = 1:P
        solve_check(sprintf('%s qru_lsq_solve page %d', tag, i), x(:, :, i), res(:, :, i), ...
                    A(:, :, i), b(:, :, i));
      end
    end
  end
end
end

function add_rows_solve_check(backend, cls, form)
% F.add_rows_solve(j, U, e) in the form ('none' or 'thin'): over pages p =
% 1 and p = 3 rows (the Q-less pages at j = 2 too) and rows without e,
% each against the same rows added by add_rows and solved by solve on an
% object made from the same data and against F.solve() after it (bit for
% bit), and against A \ b of every grown page (solution_check); a page
% rank-deficient before and after the rows (x NaN, info > 0, the rows
% added; without info qru:numerical, the rows added); refused arguments
% leave F bit-identical; one problem: add_rows, then solve.
n = 25; m = 6; r = 2; P = 4;
mk = @(varargin) cast(randn(varargin{:}), cls);
A = mk(n, m, P); b = mk(n, r, P);
F = qru_lsq(A, b, 'q', form, backend);
G = qru_lsq(A, b, 'q', form, backend);
for jp = [0 1; 0 3; 2 3]'
  j = jp(1); p = jp(2);
  if j == 0
    j = size(A, 1) + 1;
  elseif ~strcmp(form, 'none')
    continue;                              % the thin pages append rows only
  end
  tag = sprintf('lsq pages %s %s add_rows_solve j=%d p=%d', form, cls, j, p);
  U = mk(p, m, P); e = mk(p, r, P);
  [x, res, info] = F.add_rows_solve(j, U, e);
  G.add_rows(j, U, e);
  [xg, resg] = G.solve();
  A = [A(1:j-1, :, :); U; A(j:end, :, :)]; b = [b(1:j-1, :, :); e; b(j:end, :, :)];
  qru_check(isequal(info, zeros(P, 1)) && isequal(rows(F), size(A, 1) * ones(P, 1)), ...
            '%s: info %s, rows %s', tag, mat2str(info'), mat2str(rows(F)'));
  qru_check(isequal(x, xg) && isequal(res, resg), '%s: x or res differs from add_rows, then solve', tag);
  [xs, ress] = F.solve();
  qru_check(isequal(x, xs) && isequal(res, ress), '%s: x or res differs from F.solve() after it', tag);
  solution_check(tag, x, res, A, b);
end
% rows without e (b gains zeros), one output
tag = sprintf('lsq pages %s %s add_rows_solve without e', form, cls);
U = mk(2, m, P);
x = F.add_rows_solve(size(A, 1) + 1, U);
G.add_rows(size(A, 1) + 1, U);
[xg, resg] = G.solve();
A = [A; U]; b = [b; zeros(2, r, P, cls)];
qru_check(isequal(x, xg), '%s: x differs from add_rows, then solve', tag);
solution_check(tag, x, resg, A, b);
% refused arguments leave F bit-identical
[Q0, R0, d0] = F.factors();
qru_expect_error('qru:usage', [tag ' U of another P'], ...
                 @() F.add_rows_solve(size(A, 1) + 1, mk(1, m, P - 1)));
qru_expect_error('qru:usage', [tag ' e of another size'], ...
                 @() F.add_rows_solve(size(A, 1) + 1, mk(1, m, P), mk(2, r, P)));
qru_expect_error('qru:usage', [tag ' j past the end'], @() F.add_rows_solve(size(A, 1) + 2, mk(1, m, P)));
if ~strcmp(form, 'none')
  qru_expect_error('qru:usage', [tag ' rows not appended'], @() F.add_rows_solve(1, mk(1, m, P)));
end
[Q1, R1, d1] = F.factors();
qru_check(isequal(Q0, Q1) && isequal(R0, R1) && isequal(d0, d1) && isequal(rows(F), size(A, 1) * ones(P, 1)), ...
          '%s: F changed by refused arguments', tag);
delete(F); delete(G);
% page 2 rank-deficient before and after its rows (column 3 twice column 1)
A = mk(n, m, 3); b = mk(n, r, 3); A(:, 3, 2) = A(:, 1, 2) * 2;
F = qru_lsq(A, b, 'q', form, backend);
for p = [1 3]
  tag = sprintf('lsq pages %s %s add_rows_solve rank-deficient page p=%d', form, cls, p);
  U = mk(p, m, 3); e = mk(p, r, 3); U(:, 3, 2) = U(:, 1, 2) * 2;
  j = size(A, 1) + 1;
  A = [A; U]; b = [b; e];
  if p == 1
    [x, res, info] = F.add_rows_solve(j, U, e);
    qru_check(isequal(info, [0; 3; 0]) && all(isnan(reshape(x(:, :, 2), [], 1))) && ...
              isequal(rows(F), size(A, 1) * ones(3, 1)), '%s: info %s, rows %s', tag, ...
              mat2str(info'), mat2str(rows(F)'));
    solution_check([tag ' page 1'], x(:, :, 1), res(:, :, 1), A(:, :, 1), b(:, :, 1));
    solution_check([tag ' page 3'], x(:, :, 3), res(:, :, 3), A(:, :, 3), b(:, :, 3));
  else
    qru_expect_error('qru:numerical', [tag ' without info'], @() F.add_rows_solve(j, U, e));
    qru_check(isequal(rows(F), size(A, 1) * ones(3, 1)), '%s without info: rows %s, the rows not added', ...
              tag, mat2str(rows(F)'));
    [x, res, info] = F.solve();
    qru_check(isequal(info, [0; 3; 0]), '%s: solve after it: info %s', tag, mat2str(info'));
    solution_check([tag ' page 3'], x(:, :, 3), res(:, :, 3), A(:, :, 3), b(:, :, 3));
  end
end
delete(F);
% one problem: F.add_rows, then F.solve (rows anywhere in every form)
tag = sprintf('lsq %s %s add_rows_solve of one problem', form, cls);
A = mk(n, m); b = mk(n, r); U = mk(3, m); e = mk(3, r);
F = qru_lsq(A, b, 'q', form, backend);
G = qru_lsq(A, b, 'q', form, backend);
[x, res, info] = F.add_rows_solve(4, U, e);
G.add_rows(4, U, e);
[xg, resg] = G.solve();
qru_check(isequal(x, xg) && isequal(res, resg) && isequal(info, 0), '%s: differs from add_rows, then solve', tag);
solution_check(tag, x, res, [A(1:3, :); U; A(4:end, :)], [b(1:3, :); e; b(4:end, :)]);
qru_expect_error('qru:usage', [tag ' qru_mex addrowssolve'], ...
                 @qru_mex, 'lsq_update', F.h, 'addrowssolve', 1, U);
delete(F); delete(G);
end

function update_check(what, F, A, b, form, skip)
% Every page of F (but those in skip) against Octave's qr of A(:,:,i):
% the moduli of R's entries, Q'*Q = I and A = Q*R (forms with Q), d =
% Q'*b (full), Q1'*b (thin) or R'\(A'*b) (Q-less), the residuals E =
% b - A*(A\b), x = A\b and the residual norms; sizes, class, complexity.
if nargin < 6
  skip = [];
end
cls = class(A); cx = ~isreal(A) || ~isreal(b);
ep = double(eps(cls));
[n, m, P] = size(A); r = size(b, 2);
[n1, m1, P1] = F.size();
qru_check(n1 == n && m1 == m && P1 == P && isequal(rows(F), n * ones(P, 1)), ...
          '%s: F.size() %d x %d x %d, A is %d x %d x %d', what, n1, m1, P1, n, m, P);
[Q, R, d] = F.factors();
full = strcmp(form, 'full');
sz = {[n m P], [m m P], [m r P]};
if full
  sz = {[n n P], [n m P], [n r P]};
elseif strcmp(form, 'none')
  sz{1} = [0 0];
end
got = {size(Q), size(R), size(d)};
qru_check(isequal(got, sz) && isa(R, cls) && isa(d, cls) && iscomplex(R) == cx && iscomplex(d) == cx, ...
          '%s: Q %s, R %s, d %s, class %s, complex %d', what, mat2str(size(Q)), mat2str(size(R)), ...
          mat2str(size(d)), class(R), iscomplex(R));
E = [];
if ~strcmp(form, 'none')
  E = F.residuals();
  qru_check(isequal(size(E), size(b)), '%s: E %s', what, mat2str(size(E)));
end
[x, res] = F.solve();
for i = setdiff(1:P, skip)
  tag = sprintf('%s page %d', what, i);
  Ai = double(A(:, :, i)); bi = double(b(:, :, i));
  Ri = double(R(:, :, i)); di = double(d(:, :, i));
  kappa = cond(Ai);
  [~, Ro] = qr(Ai, 0);
  eR = norm(abs(Ri(1:m, :)) - abs(Ro), 'fro') / (norm(Ro, 'fro') * n * ep * kappa);
  qru_check(eR < 30 && all(all(tril(Ri, -1) == 0)), '%s: |R| differs from |qr(A)|''s by %g (scaled)', tag, eR);
  if strcmp(form, 'none')
    derr = norm(di - Ri' \ (Ai' * bi), 'fro') / (norm(bi, 'fro') * n * ep * kappa);
    qru_check(derr < 30, '%s: d differs from R''\\(A''*b) by %g (scaled)', tag, derr);
  else
    Qi = double(Q(:, :, i)); k = size(Qi, 2);
    berr = norm(Ai - Qi(:, 1:m) * Ri(1:m, :), 'fro') / (norm(Ai, 'fro') * n * ep);
    oerr = norm(eye(k) - Qi' * Qi, 'fro') / (n * ep);
    derr = norm(di - Qi' * bi, 'fro') / (norm(bi, 'fro') * n * ep);
    qru_check(berr < 30 && oerr < 30 && derr < 30, '%s: A - Q*R %g, Q''*Q - I %g, d - Q''*b %g (scaled)', ...
              tag, berr, oerr, derr);
    xo = Ai \ bi;
    eE = norm(double(E(:, :, i)) - (bi - Ai * xo), 'fro') / ...
         ((norm(bi, 'fro') + norm(Ai, 'fro') * norm(xo, 'fro')) * n * ep);
    qru_check(eE < 30, '%s: E differs from b - A*(A\\b) by %g (scaled)', tag, eE);
  end
  solve_check(tag, x(:, :, i), res(:, :, i), A(:, :, i), b(:, :, i));
end
end

function solve_check(what, x, res, A, b)
% x = A \ b (scaled by cond(A)^2) and res(k) = norm(A*x(:,k) - b(:,k)).
ep = double(eps(class(A)));
[n, m] = size(A); r = size(b, 2);
qru_check(isa(x, class(A)) && isequal(size(x), [m r]) && isequal(size(res), [1 r]) && ...
          iscomplex(x) == (~isreal(A) || ~isreal(b)), '%s: x %s %s, res %s', what, class(x), ...
          mat2str(size(x)), mat2str(size(res)));
A = double(A); b = double(b);
xo = A \ b;
xerr = norm(double(x) - xo, 'fro') / (norm(xo, 'fro') * n * ep * cond(A)^2);
ro = sqrt(sum(abs(A * xo - b).^2, 1));
rerr = max(abs(double(res) - ro)) / ((norm(b, 'fro') + norm(A, 'fro') * norm(xo, 'fro')) * n * ep);
qru_check(xerr < 30 && rerr < 30, '%s: x = A\\b error %g, residual norms error %g (scaled)', what, xerr, rerr);
end

function unchanged(what, F, Q0, R0, d0, pages)
% The pages of F's factors are bit for bit Q0, R0, d0.
[Q1, R1, d1] = F.factors();
same = isequal(size(R1), size(R0)) && isequal(size(Q1), size(Q0));
for i = pages
  same = same && isequal(R1(:, :, i), R0(:, :, i)) && isequal(d1(:, :, i), d0(:, :, i));
  if ~isempty(Q0)
    same = same && isequal(Q1(:, :, i), Q0(:, :, i));
  end
end
qru_check(same, '%s: pages %s changed', what, mat2str(pages));
end

function [A, R] = spd_pages(n, P)
% P symmetric positive definite n x n pages A and their factors R.
A = zeros(n, n, P); R = A;
for i = 1:P
  G = randn(n + 8, n);
  A(:, :, i) = G' * G;
  R(:, :, i) = chol(A(:, :, i));
end
end

function [A1, X] = inserted(A, j, p)
% The pages A1 of A with p rows and columns inserted at j, positive
% definite, and their new columns X = A1(:, j:j+p-1, :).
[n, ~, P] = size(A);
A1 = zeros(n + p, n + p, P); X = zeros(n + p, p, P);
keep = [1:j-1, j+p:n+p];
for i = 1:P
  G = randn(n + p + 8, n + p);
  B = G' * G;
  S = chol(A(:, :, i));
  % the Schur complement of A in B stays B's: B(new, new) = C'*inv(A)*C +
  % the new block's own positive part
  C = B(keep, j:j+p-1);
  B(j:j+p-1, j:j+p-1) = (S' \ C)' * (S' \ C) + B(j:j+p-1, j:j+p-1);
  B(keep, keep) = A(:, :, i);
  A1(:, :, i) = B;
  X(:, :, i) = B(:, j:j+p-1);
end
end

function page_check(name, R1, A1, ep)
% R1 upper triangular with R1'*R1 = A1 (relative error below 30 n ep).
n = rows(A1);
qru_check(isequal(size(R1), [n n]) && all(all(tril(R1, -1) == 0)), '%s: size %s or not upper triangular', ...
          name, mat2str(size(R1)));
R1 = double(R1);
err = norm(R1' * R1 - A1, 'fro') / (norm(A1, 'fro') * n * ep);
qru_check(err < 30, '%s: ||R1''*R1 - A1|| error %g', name, err);
end

function lsq_check(what, F, A, b, form)
% Every page of F against Octave's qr(A(:,:,i), 0) and A(:,:,i) \ b(:,:,i).
[n, m, P] = size(A);
[n1, m1, P1] = F.size();
qru_check(n1 == n && m1 == m && P1 == P && isequal(rows(F), n * ones(P, 1)), ...
          '%s: F.size() %d x %d x %d, A is %d x %d x %d', what, n1, m1, P1, n, m, P);
[Q, R, d] = F.factors();
E = [];
if strcmp(form, 'thin')
  E = F.residuals();
  qru_check(isequal(size(Q), [n m P]) && isequal(size(E), size(b)), '%s: Q %s, E %s', what, ...
            mat2str(size(Q)), mat2str(size(E)));
else
  qru_check(isempty(Q), '%s: Q-less Q is %s', what, mat2str(size(Q)));
end
qru_check(isequal(size(R), [m m P]) && isequal(size(d), [m size(b, 2) P]) && isa(R, class(A)) && ...
          isa(d, class(A)), '%s: R %s, d %s', what, mat2str(size(R)), mat2str(size(d)));
[x, res] = F.solve();
for i = 1:P
  Qi = []; Ei = [];
  if strcmp(form, 'thin')
    Qi = Q(:, :, i); Ei = E(:, :, i);
  end
  page_lsq_check(sprintf('%s page %d', what, i), Qi, R(:, :, i), A(:, :, i), b(:, :, i), Ei, form, d(:, :, i));
  solution_check(sprintf('%s page %d', what, i), x(:, :, i), res(:, :, i), A(:, :, i), b(:, :, i));
end
end

function page_lsq_check(what, Q, R, A, b, E, form, d)
% One page's factors against qr(A, 0): R up to the signs of its rows,
% d = R'\(A'*b), Q1*R = A ('thin'), the residuals E = b - A*(A\b).
cls = class(A);
ep = double(eps(cls));
A = double(A); b = double(b);
[n, m] = size(A);
kappa = cond(A);
R = double(R);
[~, Ro] = qr(A, 0);
eR = norm(qru_rowsign(R) - qru_rowsign(Ro), 'fro') / (norm(Ro, 'fro') * max(n, m) * ep * kappa);
qru_check(eR < 30 && all(all(tril(R, -1) == 0)), '%s: R differs from qr(A, 0)''s by %g (scaled)', what, eR);
if nargin >= 8
  derr = norm(double(d) - R' \ (A' * b), 'fro') / (norm(b, 'fro') * max(n, m) * ep * kappa);
  qru_check(derr < 30, '%s: d differs from R''\\(A''*b) by %g (scaled)', what, derr);
end
if strcmp(form, 'thin')
  qru_check_econ(what, Q, R, A, [], []);
  xo = A \ b;
  rscale = (norm(b, 'fro') + norm(A, 'fro') * norm(xo, 'fro')) * max(n, m) * ep;
  eE = norm(double(E) - (b - A * xo), 'fro') / rscale;
  qru_check(eE < 30, '%s: residuals E differ from b - A*(A\\b) by %g (scaled)', what, eE);
end
end

function solution_check(what, x, res, A, b)
% x = A \ b page by page and res(1, k, i) = norm(A(:,:,i)*x(:,k,i) - b(:,k,i)).
cls = class(A);
ep = double(eps(cls));
[n, m, P] = size(A); r = size(b, 2);
qru_check(isa(x, cls) && isequal([size(x, 1) size(x, 2) size(x, 3)], [m r P]) && ...
          isequal([size(res, 1) size(res, 2) size(res, 3)], [1 r P]), ...
          '%s: x class %s size %s, res size %s', what, class(x), mat2str(size(x)), mat2str(size(res)));
for i = 1:P
  Ai = double(A(:, :, i)); bi = double(b(:, :, i));
  xo = Ai \ bi;
  xerr = norm(double(x(:, :, i)) - xo, 'fro') / (norm(xo, 'fro') * max(n, m) * ep * cond(Ai)^2);
  ro = sqrt(sum((Ai * xo - bi).^2, 1));
  rscale = (norm(bi, 'fro') + norm(Ai, 'fro') * norm(xo, 'fro')) * max(n, m) * ep;
  rerr = max(abs(double(res(:, :, i)) - ro)) / rscale;
  qru_check(xerr < 30 && rerr < 30, '%s page %d: x = A\\b error %g, residual norms error %g (scaled)', ...
            what, i, xerr, rerr);
end
end
