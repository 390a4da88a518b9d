function nfail = test_qrupdate(backend)
%TEST_QRUPDATE  The four block QR updates through the qru_lsq object
%   (add_cols, remove_cols, add_rows, remove_rows, factors, solve) against
%   Octave/MATLAB's qrinsert and qrdelete and against qr of the updated
%   matrix, blocks of several rows/columns at several positions, single and
%   double precision; error cases.
qru_check('reset');
classes = qru_classes(backend);
rand('seed', 7); randn('seed', 7);
n = 30; m = 12; r = 2;
cases = { ...
  'addcols',    [1 5 m+1], [1 4]; ...
  'removecols', [1 5 -1],  [1 3]; ...
  'addrows',    [1 10 n+1], [1 5]; ...
  'removerows', [1 10 -1], [1 5]};
for c = 1:numel(classes)
  cls = classes{c};
  ep = double(eps(cls));
  A = cast(randn(n, m), cls); b = cast(randn(n, r), cls);
  Ad = double(A); bd = double(b);
  [Qa, Ra] = qr(Ad);
  for t = 1:rows(cases)
    what = cases{t, 1};
    for p = cases{t, 3}
      for j = cases{t, 2}
        if j < 0   % the last possible position
          if strcmp(what, 'removecols'), j = m - p + 1; else j = n - p + 1; end
        end
        switch what
          case 'addcols',    X = cast(randn(n, p), cls); e = [];
          case 'addrows',    X = cast(randn(p, m), cls); e = cast(randn(p, r), cls);
          otherwise,         X = p; e = [];
        end
        name = sprintf('%s %s j=%d p=%d', what, cls, j, p);
        F = qru_lsq(A, b, backend);
        if strcmp(what, 'addrows')
          upd(F, what, j, X, e);
        else
          upd(F, what, j, X);
        end
        [Q1, R1, d1] = F.factors();
        [x, res] = F.solve();
        delete(F);
        [A1, b1] = qru_apply_update(Ad, bd, what, j, double(X), double(e));
        [Qo, Ro] = qru_octave_update(Qa, Ra, what, j, double(X));
        qru_check_factors(name, cls, Q1, R1, d1, A1, b1, Qo, Ro);
        % and against qr of the updated matrix
        [Qf, Rf] = qr(A1);
        [eR, eQ] = qru_qrdiff(double(Q1), double(R1), Qf, Rf);
        tol = 30 * max(size(A1)) * ep * cond(A1);
        qru_check(eR < tol && eQ < tol, '%s: differs from qr(A1): R %g Q %g', name, eR, eQ);
        xo = A1 \ b1;
        xerr = norm(double(x) - xo, 'fro') / (norm(xo, 'fro') * max(size(A1)) * ep * cond(A1)^2);
        qru_check(xerr < 30, '%s: solve error %g', name, xerr);
        ro = sqrt(sum((A1 * xo - b1).^2, 1));
        rscale = (norm(b1, 'fro') + norm(A1, 'fro') * norm(xo, 'fro')) * max(size(A1)) * ep;
        qru_check(max(abs(res - ro)) / rscale < 30, '%s: residual norms', name);
      end
    end
  end
  % a chain of updates on one factorisation
  F = qru_lsq(A, b, backend);
  A1 = Ad; b1 = bd;
  U = cast(randn(n, 3), cls);
  upd(F, 'addcols', 4, U);          [A1, b1] = qru_apply_update(A1, b1, 'addcols', 4, double(U), []);
  V = cast(randn(6, m + 3), cls); e = cast(randn(6, r), cls);
  upd(F, 'addrows', 8, V, e);       [A1, b1] = qru_apply_update(A1, b1, 'addrows', 8, double(V), double(e));
  upd(F, 'removecols', 2, 5);       [A1, b1] = qru_apply_update(A1, b1, 'removecols', 2, 5, []);
  upd(F, 'removerows', 1, 10);      [A1, b1] = qru_apply_update(A1, b1, 'removerows', 1, 10, []);
  upd(F, 'addrows', size(A1, 1) + 1, V(1:2, 1:size(A1, 2)));  % e defaults to zeros
  [A1, b1] = qru_apply_update(A1, b1, 'addrows', size(A1, 1) + 1, double(V(1:2, 1:size(A1, 2))), zeros(2, r));
  [Q1, R1, d1] = F.factors();
  [Qf, Rf] = qr(A1);
  qru_check_factors(sprintf('chain %s', cls), cls, Q1, R1, d1, A1, b1, Qf, Rf);
  delete(F);
end
% error cases: each leaves the factorisation unchanged
A = randn(n, m); b = randn(n, r);
F = qru_lsq(A, b, backend);
[Q0, R0, d0] = F.factors();
qru_expect_error('qru:numerical', 'add a dependent column', @upd, F, 'addcols', 3, A(:, 1) + A(:, 2));
qru_expect_error('qru:badArgument', 'add too many columns', @upd, F, 'addcols', 1, randn(n, n - m + 1));
qru_expect_error('qru:badArgument', 'remove too many rows', @upd, F, 'removerows', 1, n - m + 1);
qru_expect_error('qru:usage', 'remove every column', @upd, F, 'removecols', 1, m + 1);
qru_expect_error('qru:usage', 'column position 0', @upd, F, 'addcols', 0, randn(n, 1));
qru_expect_error('qru:usage', 'column position m+2', @upd, F, 'addcols', m + 2, randn(n, 1));
qru_expect_error('qru:usage', 'row position n+2', @upd, F, 'addrows', n + 2, randn(1, m));
qru_expect_error('qru:usage', 'U with wrong rows', @upd, F, 'addcols', 1, randn(n + 1, 1));
qru_expect_error('qru:usage', 'U with wrong columns', @upd, F, 'addrows', 1, randn(1, m + 1));
qru_expect_error('qru:usage', 'e with wrong size', @upd, F, 'addrows', 1, randn(1, m), randn(1, r + 1));
qru_expect_error('qru:usage', 'non-integer j', @upd, F, 'removerows', 1.5, 1);
qru_expect_error('qru:usage', 'unknown update', @upd, F, 'shuffle', 1, 1);
[Q2, R2, d2] = F.factors();
qru_check(isequal(Q0, Q2) && isequal(R0, R2) && isequal(d0, d2), ...
          'a failed update changed the factorisation');
% the object's size, and delete frees it
[n1, m1] = F.size();
qru_check(n1 == n && m1 == m, 'size: %d x %d, expected %d x %d', n1, m1, n, m);
delete(F);
qru_expect_error('qru:*', 'deleted object', @(G) G.factors(), F);
% clearing the last reference frees the factorization too (then the
% handle is unknown to the MEX file)
G = qru_lsq(A, b, backend);
ws = warning('off', 'all');
hid = struct(G).h;
warning(ws);
clear G
qru_expect_error('qru:usage', 'cleared object', @qru_mex, 'lsq_get', hid);
nfail = qru_check('count');
end

function upd(F, what, varargin)
% the update 'what' (the MEX file's names) through the object's methods
switch what
  case 'addcols',    F.add_cols(varargin{:});
  case 'removecols', F.remove_cols(varargin{:});
  case 'addrows',    F.add_rows(varargin{:});
  case 'removerows', F.remove_rows(varargin{:});
  otherwise,         error('qru:usage', 'unknown update %s', what);
end
end
