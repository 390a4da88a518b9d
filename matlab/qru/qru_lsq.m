classdef qru_lsq < handle
%QRU_LSQ  A least-squares problem held as an updatable QR factorization.
%   F = qru_lsq(A, b) factorizes A (n x m, n >= m >= 1) with its right-hand
%   sides b (n x r) on a qru backend: F holds the factorization in the
%   backend's memory (GPU memory for 'cuda' and 'opencl'), where it stays
%   between calls.  single A or b compute in single precision; complex A
%   or b in complex arithmetic (Q unitary, ' the conjugate transpose), on
%   every backend (one without complex data raises qru:unsupported).  F
%   keeps its element type: complex data given to a
%   real F raises qru:usage.  Pages take complex data in every form on
%   every backend.
%   F = qru_lsq(A, b, 'q', q) chooses what F holds (F.q):
%     'full' (default)  [Q, R] = qr(A); d = Q'*b         Q n x n, R n x m
%     'thin'            [Q, R] = qr(A, 0); d = Q'*b      Q n x m, R m x m,
%                       and the residuals E = b - A*(A\b)
%     'none'            R = triu(qr(A, 0)); d = R'\(A'*b)   (Q-less: R, d
%                       and the residual norms, memory independent of n)
%   F = qru_lsq(A, b, ..., backend) selects the backend ('cpu', 'cuda',
%   'opencl', 'auto'; default: getenv('QRU_MEX_BACKEND'), else 'auto').
%
%   The block updates (Andrew 2012, chapter 4), j 1-based, in every form:
%     F.add_cols(j, U)       A = [A(:,1:j-1) U A(:,j:end)]
%     F.add_cols(j, U, A, b) the same, given the current A and b (the
%                            Q-less form needs them)
%     F.remove_cols(j, p)    A(:, j:j+p-1) = []
%     F.add_rows(j, U, e)    A = [A(1:j-1,:); U; A(j:end,:)],
%                            b = [b(1:j-1,:); e; b(j:end,:)] (e = 0 if omitted)
%     F.remove_rows(j, p)    A(j:j+p-1, :) = [], b(j:j+p-1, :) = []
%     F.remove_rows(j, p, U, e)  the same, given the rows removed,
%                            U = A(j:j+p-1, :), e = b(j:j+p-1, :) (the
%                            Q-less form needs them)
%   the rank-k modification (qrupdate; forms 'full' and 'thin'), U n x k,
%   V m x k:
%     F.modify(U, V)         A = A + U*V' (b unchanged)
%   the column shift (qrshift): column i moves to position j
%     F.shift_cols(i, j)     A = A(:, p), p = [1:i-1, i+1:j, i, j+1:m]
%                            (i < j) or [1:j-1, i, j:i-1, i+1:m] (i > j)
%   and
%     [x, res] = F.solve()   x = A \ b, res(k) = norm(A*x(:,k) - b(:,k))
%     [x, res] = F.add_rows_solve(j, U, e)   A = [A; U], b = [b; e],
%                            x = A \ b (U and e at row j, as add_rows;
%                            e = 0 if omitted): F.add_rows, then F.solve
%     [Q, R, d] = F.factors()   the factors F holds ('none': Q = [])
%     E = F.residuals()      E = b - A*x ('full' and 'thin')
%     c = F.downdate_condition()   the accuracy estimate of the last row
%                            removal ('thin' and 'none'; 0 if none)
%     est = F.error_estimate()   the relative error the updates of a
%                            Q-less factorization have left in x
%     [n, m] = F.size()
%   The problem must stay overdetermined (n >= m >= 1).  An update that
%   fails leaves F as it was.  The factorization is freed by delete(F),
%   and when the last reference to F is cleared.
%
%   Pages: F = qru_lsq(A, b) with A n x m x P and b n x r x P holds the P
%   problems A(:,:,i), b(:,:,i) (as pagemtimes; F.pages = P), updated and
%   solved in one batched call each, in the form 'none' (the default),
%   'thin' or 'full' (n >= m); n may be below m in the form 'none' until
%   rows are added.  Of the calls above they take (U, e, V: a page each)
%     F.add_rows(j, U, e)    U p x m x P, e p x r x P (0 if omitted): the
%                            rows go after each page's last row, j = n + 1
%                            ('thin', 'full'), or anywhere ('none' keeps
%                            no order)
%     info = F.remove_rows(j, p)   ('thin', 'full') a page whose A would
%                            lose rank refuses the removal and keeps its
%                            rows (info(i) > 0, P x 1); without info that
%                            raises qru:numerical after the other pages
%                            lost them
%     F.remove_cols(j, p)    A(:, j:j+p-1, :) = [] (every form; p < m)
%     info = F.add_cols(j, U)   ('thin', 'full') U n x p x P, A(:,:,i) =
%                            [A(:,1:j-1,i) U(:,:,i) A(:,j:end,i)]; if a page
%                            would lose rank (info(i) > 0, the first column
%                            that fails, P x 1) no page gains the columns;
%                            without info that raises qru:numerical (F
%                            unchanged).  info = F.add_cols(j, U, A, b)
%                            the same in every form, given the current A
%                            n x m x P and b n x r x P: the Q-less pages
%                            insert from them (the corrected semi-normal
%                            equations), the others only check them
%     info = F.modify(U, V)  ('thin', 'full') U n x k x P, V m x k x P,
%                            A(:,:,i) = A(:,:,i) + U(:,:,i)*V(:,:,i)',
%                            k <= n - m; a page whose new A loses rank
%                            keeps its factorization (info(i) > 0, P x 1);
%                            without info that raises qru:numerical after
%                            the other pages were modified
%     [x, res, info] = F.solve()   x m x r x P, res 1 x r x P; info P x 1:
%                            0, or the first column where the page loses
%                            rank (its page of x is NaN); without info a
%                            rank-deficient page raises qru:numerical
%     [x, res, info] = F.add_rows_solve(j, U, e)   the rows of add_rows
%                            (the same j) and the solve after them, in one
%                            batched call: x, res and info as F.solve()
%                            gives them; every page gains the rows, also
%                            one that then loses rank (without info that
%                            raises qru:numerical after the rows were
%                            added)
%     [Q, R, d] = F.factors()  'thin': Q n x m x P, R m x m x P, d m x r x P;
%                            'full': Q n x n x P, R n x m x P, d n x r x P
%                            (as qr(A)); 'none': Q = [], R m x m x P,
%                            d m x r x P
%     E = F.residuals()      E n x r x P ('thin', 'full')
%     [n, m, P] = F.size()   n the most rows of a page; rows(F) P x 1,
%                            each page's rows (they differ only after a
%                            removal some pages refused; a page's rows
%                            below its count are zero in Q, d and E)
%   and the other calls (shift_cols, downdate_condition, error_estimate)
%   raise qru:lsq:pages.  In the form 'full' each update recomputes the
%   last n - m columns of every changed page's Q (about n^3 flops a page):
%   'thin' is the cheaper form where Q1 serves.
%
%   Errors: qru:lsq:<kind> for the arguments the class checks (q, option,
%   backend, data, form, pages, nargin), qru:usage for the sizes and indices the
%   MEX file checks, qru:numerical when rank is lost (e.g. a dependent
%   column added), qru:badArgument, qru:unsupported and qru:library from
%   the library.
%
%   Example:
%     A = randn(1000, 200); b = randn(1000, 1);
%     F = qru_lsq(A, b);               % factorize once
%     F.add_cols(51, randn(1000, 10)); % 10 new regressors
%     F.remove_rows(1, 100);           % drop the oldest observations
%     x = F.solve();                   % least squares of the new problem
%     delete(F);
%     G = qru_lsq(A, b, 'q', 'none');  % Q-less: R and d only
%     G.remove_rows(1, 100, A(1:100, :), b(1:100));   % with the rows removed
%     x = G.solve();                   % A(101:end, :) \ b(101:end)
%
%   See also qru_lsq_solve, qru_qrinsert, qru_qrdelete, qru_qrupdate.
  properties (SetAccess = private)
    backend = ''   % the backend the factorization lives on
    q = ''         % what it holds: 'full', 'thin' or 'none'
    pages = []     % P for the pages of A n x m x P, [] for one problem
  end
  properties (Hidden, SetAccess = private)
    h = []         % the MEX handle
  end
  methods
    function F = qru_lsq(A, b, varargin)
      if nargin < 2
        error('qru:lsq:nargin', 'qru_lsq: needs A and b (got %d arguments)', nargin);
      end
      pages = ndims(A) > 2 || ndims(b) > 2;
      [q, backend] = qru_lsq_args('qru_lsq', varargin, pages);
      F.h = qru_mex('lsq_new', A, b, q, backend);
      F.q = q;
      F.backend = qru_backend(backend);
      if pages
        F.pages = size(A, 3);
      end
    end
    function info = add_cols(F, j, U, A, b)
      %ADD_COLS  F.add_cols(j, U) or F.add_cols(j, U, A, b): A = [A(:,1:j-1) U A(:,j:end)]
      %   Pages: info = F.add_cols(j, U) ('full', 'thin') or
      %   info = F.add_cols(j, U, A, b) (every form), U n x p x P;
      %   info(i) > 0 where page i refuses the columns (rank), and then no
      %   page gains them.
      info = 0;
      if ~isempty(F.pages)
        if nargin ~= 3 && nargin ~= 5
          error('qru:lsq:nargin', ['qru_lsq.add_cols: over pages info = F.add_cols(j, U) ' ...
                'or info = F.add_cols(j, U, A, b)']);
        end
        if nargin == 3
          need_q(F, 'qru_lsq.add_cols', 'the current A and b: F.add_cols(j, U, A, b)');
        end
        args = {j, U};
        if nargin == 5
          args = {j, U, A, b};
        end
        if nargout >= 1
          info = qru_mex('lsq_update', F.h, 'addcols', args{:});
        else
          qru_mex('lsq_update', F.h, 'addcols', args{:});
        end
        return;
      end
      if nargin == 5
        qru_mex('lsq_update', F.h, 'addcols', j, U, A, b);
      elseif nargin == 3
        need_q(F, 'qru_lsq.add_cols', 'the current A and b: F.add_cols(j, U, A, b)');
        qru_mex('lsq_update', F.h, 'addcols', j, U);
      else
        error('qru:lsq:nargin', 'qru_lsq.add_cols: F.add_cols(j, U) or F.add_cols(j, U, A, b)');
      end
    end
    function remove_cols(F, j, p)
      %REMOVE_COLS  F.remove_cols(j, p): A(:, j:j+p-1) = []
      qru_mex('lsq_update', F.h, 'removecols', j, p);
    end
    function add_rows(F, j, U, e)
      %ADD_ROWS  F.add_rows(j, U, e): A = [A(1:j-1,:); U; A(j:end,:)], b = [b(1:j-1,:); e; b(j:end,:)]
      if nargin < 4
        qru_mex('lsq_update', F.h, 'addrows', j, U);
      else
        qru_mex('lsq_update', F.h, 'addrows', j, U, e);
      end
    end
    function [x, res, info] = add_rows_solve(F, j, U, e)
      %ADD_ROWS_SOLVE  [x, res] = F.add_rows_solve(j, U, e): A = [A; U], b = [b; e], x = A \ b
      %   The rows go in at row j as F.add_rows(j, U, e) puts them (e = 0
      %   if omitted), and x and res are F.solve()'s of the grown problem.
      %   One problem: F.add_rows(j, U, e), then F.solve() (info = 0).
      %   Pages: one batched call for the addition and the solve; x
      %   m x r x P, res 1 x r x P and info P x 1 as F.solve() gives them
      %   (info(i) > 0: page i rank-deficient, its page of x NaN; without
      %   info such a page raises qru:numerical).  Every page gains the
      %   rows, also one that is then rank-deficient.
      info = 0;
      if isempty(F.pages)
        if nargin < 4
          F.add_rows(j, U);
        else
          F.add_rows(j, U, e);
        end
        if nargout >= 2
          [x, res] = F.solve();
        else
          x = F.solve();
        end
        return;
      end
      args = {j, U};
      if nargin >= 4
        args{3} = e;
      end
      if nargout >= 3
        [x, res, info] = qru_mex('lsq_update', F.h, 'addrowssolve', args{:});
      elseif nargout >= 2
        [x, res] = qru_mex('lsq_update', F.h, 'addrowssolve', args{:});
      else
        x = qru_mex('lsq_update', F.h, 'addrowssolve', args{:});
      end
    end
    function info = remove_rows(F, j, p, U, e)
      %REMOVE_ROWS  F.remove_rows(j, p) or F.remove_rows(j, p, U, e): A(j:j+p-1, :) = [], b(j:j+p-1, :) = []
      %   Pages ('full', 'thin'): info = F.remove_rows(j, p), info(i) > 0
      %   where page i refused the removal (rank) and kept its rows.
      info = 0;
      if ~isempty(F.pages)
        need_form(F, 'qru_lsq.remove_rows', {'full', 'thin'}, ...
                  'over pages rows are removed from the thin form (the Q-less pages keep no Q)');
        if nargin ~= 3
          error('qru:lsq:nargin', 'qru_lsq.remove_rows: over pages info = F.remove_rows(j, p)');
        end
        if nargout >= 1
          info = qru_mex('lsq_update', F.h, 'removerows', j, p);
        else
          qru_mex('lsq_update', F.h, 'removerows', j, p);
        end
        return;
      end
      if nargin == 5
        qru_mex('lsq_update', F.h, 'removerows', j, p, U, e);
      elseif nargin == 3
        need_q(F, 'qru_lsq.remove_rows', ...
               'the rows removed: F.remove_rows(j, p, A(j:j+p-1, :), b(j:j+p-1, :))');
        qru_mex('lsq_update', F.h, 'removerows', j, p);
      else
        error('qru:lsq:nargin', 'qru_lsq.remove_rows: F.remove_rows(j, p) or F.remove_rows(j, p, U, e)');
      end
    end
    function info = modify(F, U, V)
      %MODIFY  F.modify(U, V): A = A + U*V' (forms 'full' and 'thin')
      %   Pages: info = F.modify(U, V), U n x k x P, V m x k x P; info(i) > 0
      %   where page i's A + U*V' loses rank (page i then kept as it was).
      info = 0;
      need_form(F, 'qru_lsq.modify', {'full', 'thin'}, 'A + U*V'' needs Q');
      if nargout >= 1 && ~isempty(F.pages)
        info = qru_mex('lsq_update', F.h, 'modify', U, V);
      else
        qru_mex('lsq_update', F.h, 'modify', U, V);
      end
    end
    function shift_cols(F, i, j)
      %SHIFT_COLS  F.shift_cols(i, j): A = A(:, p), column i moved to position j
      need_one(F, 'qru_lsq.shift_cols');
      qru_mex('lsq_update', F.h, 'shiftcols', i, j);
    end
    function [x, res, info] = solve(F)
      %SOLVE  [x, res] = F.solve(): x = A \ b, res(k) = norm(A*x(:,k) - b(:,k))
      %   Pages: x m x r x P, res 1 x r x P, and [x, res, info] = F.solve()
      %   returns info P x 1 (0, or the first column where the page loses
      %   rank; its page of x is NaN) instead of raising qru:numerical.
      %   One problem: info = 0 (a rank-deficient A raises qru:numerical).
      info = 0;
      if nargout >= 3 && ~isempty(F.pages)
        [x, res, info] = qru_mex('lsq_solve_h', F.h);
      elseif nargout >= 2
        [x, res] = qru_mex('lsq_solve_h', F.h);
      else
        x = qru_mex('lsq_solve_h', F.h);
      end
    end
    function [Q, R, d] = factors(F)
      %FACTORS  [Q, R, d] = F.factors(): [Q, R] = qr(A) ('full'), qr(A, 0) ('thin'), Q = [] ('none'); d = Q'*b
      [Q, R, d] = qru_mex('lsq_get', F.h);
    end
    function E = residuals(F)
      %RESIDUALS  E = F.residuals(): E = b - A*(A\b) (forms 'full' and 'thin')
      need_form(F, 'qru_lsq.residuals', {'full', 'thin'}, ...
                'it keeps the residual norms only: [x, res] = F.solve()');
      E = qru_mex('lsq_query', F.h, 'residuals');
    end
    function c = downdate_condition(F)
      %DOWNDATE_CONDITION  c = F.downdate_condition(): c = 1 / min(abs(diag(chol(eye(p) - Qk*Qk')))), Qk = Q(rows removed, 1:m)
      %   The accuracy estimate of the last row removal in the forms 'thin'
      %   and 'none' (c >= 1; large: the removed rows carried much of A);
      %   0 if no rows have been removed in these forms.
      need_one(F, 'qru_lsq.downdate_condition');
      c = qru_mex('lsq_query', F.h, 'downdate');
    end
    function est = error_estimate(F)
      %ERROR_ESTIMATE  est = F.error_estimate(): dx = R \ (R' \ (A'*b - A'*A*x)); est = max(vecnorm(dx) ./ vecnorm(x))
      %   The relative error that the updates of a Q-less factorization
      %   have accumulated in x = F.solve() (form 'none'), estimated from
      %   the Gram matrix A'*A and A'*b it keeps; refactorize when it
      %   exceeds the accuracy the application needs.
      need_one(F, 'qru_lsq.error_estimate');
      need_form(F, 'qru_lsq.error_estimate', {'none'}, ...
                'it is the Q-less form''s estimate (the others keep Q orthogonal)');
      est = qru_mex('lsq_query', F.h, 'estimate');
    end
    function [n, m, P] = size(F)
      %SIZE  [n, m] = F.size(): [n, m] = size(A); [n, m, P] = F.size() over pages
      [n, m, P] = qru_mex('lsq_size', F.h);
    end
    function n = rows(F)
      %ROWS  n = rows(F): the rows of A; over pages P x 1, each page's rows
      [~, ~, ~, n] = qru_mex('lsq_size', F.h);
    end
    function delete(F)
      if ~isempty(F.h)
        qru_mex('free', F.h);
        F.h = [];
      end
    end
  end
  methods (Access = private)
    function need_one(F, fn)
      if ~isempty(F.pages)
        error('qru:lsq:pages', ['%s: F holds %d pages, and over pages the calls are ' ...
              'add_rows, add_rows_solve, remove_rows, add_cols, remove_cols, modify, ' ...
              'solve, factors, residuals, size and rows'], fn, F.pages);
      end
    end
    function need_form(F, fn, forms, why)
      if ~any(strcmp(F.q, forms))
        error('qru:lsq:form', '%s: F holds the form ''%s'', but %s needs %s: %s', ...
              fn, F.q, fn, strjoin(strcat('''', forms, ''''), ' or '), why);
      end
    end
    function need_q(F, fn, what)
      if strcmp(F.q, 'none')
        error('qru:lsq:data', '%s: the Q-less form (q = ''none'') needs %s', fn, what);
      end
    end
  end
end
