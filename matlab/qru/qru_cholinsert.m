function [R1, info] = qru_cholinsert(R, j, x, varargin)
%QRU_CHOLINSERT  Cholesky factor with a row and column inserted (cholinsert).
%   R1 = qru_cholinsert(R, j, x) with R upper triangular (A = R'*R, n x n)
%   and x a column of length n + 1 returns the factor of A1 (n+1 x n+1),
%   A1 = A with the row and column x inserted at j: A1(:, j) = x',
%   A1(j, :) = x', A1([1:j-1 j+1:n+1], [1:j-1 j+1:n+1]) = A, as Octave's
%   cholinsert(R, j, x).  As qru's extension x may be (n + p) x p: p rows
%   and columns inserted at j .. j+p-1 (x = A1(:, j:j+p-1)).
%   [R1, info] = qru_cholinsert(R, j, x) raises no error for a matrix that
%   is not positive definite: info = 0 on success, 1 when A1 is not
%   positive definite, 2 when R is singular; for info > 0, R1 = R.
%   Pages: R n x n x P and x (n+p) x p x P insert at the same j in the P
%   factors at once (as pagemtimes: page i of R1 is qru_cholinsert(R(:,:,i),
%   j, x(:,:,i))), in one batched call; info is then P x 1, one entry a
%   page, and a failed page of R1 holds R's page in the new order (zeros
%   in the rows and columns inserted: R1(keep, keep, i) = R(:,:,i),
%   keep = [1:j-1, j+p:n+p]).
%   Classes as Octave's cholinsert: R and x may be double, single or an
%   integer class (logical and char are refused); the result is single if
%   either is single, else double; j may be of any numeric class or
%   logical.  Complex R or x (A1 Hermitian: x(j) real) compute in complex
%   arithmetic on every backend (one without complex data raises
%   qru:unsupported, naming it); a real argument with a complex one is
%   promoted.
%
%   A trailing argument selects the backend: 'cpu', 'cuda', 'opencl' or
%   'auto' (default: getenv('QRU_MEX_BACKEND'), else 'auto').
%   Errors name the argument and the rule, with identifiers
%   qru:cholinsert:<kind>.
%
%   See also cholinsert, qru_choldelete, qru_cholupdate.
fn = 'qru_cholinsert';
if nargin < 3
  error('qru:cholinsert:nargin', '%s: needs R, j and x (got %d arguments)', fn, nargin);
end
[~, backend] = qru_trailing(fn, 4, varargin, {});
if ndims(R) > 2 || ndims(x) > 2
  [R1, info] = cholinsert_pages(fn, R, j, x, backend, nargout);
  return;
end
qru_chol_factor_arg(fn, R);
n = size(R, 1);
p = size(x, 2);
if ~isnumeric(x) || p < 1 || size(x, 1) ~= n + p
  qru_arg_error(fn, 3, 'x', 'x is a %s of size %s, but it must be (n+p) x p with n = %d, p >= 1', ...
                class(x), mat2str(size(x)), n);
end
[R, x] = qru_cast_args(qru_compute_class(false, R, x), R, x);
k = qru_index(fn, 2, j, n + 1, sprintf('R is %d x %d: 1 <= j <= n + 1 = %d', n, n, n + 1), false);
if any(diag(R) == 0)
  R1 = R; info = 2;
  if nargout < 2
    error('qru:cholinsert:singular', '%s: R is singular, so it is not a Cholesky factor', fn);
  end
  return;
end
[R1, st] = qru_mex('cholinsert', R, k, x, backend);
info = double(st > 0);
if info && nargout < 2
  error('qru:cholinsert:notPositiveDefinite', ...
        '%s: the matrix with the inserted rows and columns is not positive definite (at column %d)', ...
        fn, st);
end
end

function [R1, info] = cholinsert_pages(fn, R, j, x, backend, nout)
% The pages of R (n x n x P) and x ((n+p) x p x P) by one batched insertion.
if ~isnumeric(R) || issparse(R) || ndims(R) > 3 || size(R, 1) ~= size(R, 2)
  qru_arg_error(fn, 1, 'R', 'R is a %s of size %s, but pages must be an n x n x P array', ...
                class(R), mat2str(size(R)));
end
n = size(R, 1); P = size(R, 3); p = size(x, 2);
if ~isnumeric(x) || issparse(x) || ndims(x) > 3 || p < 1 || ...
   size(x, 1) ~= n + p || size(x, 3) ~= P
  qru_arg_error(fn, 3, 'x', 'x is a %s of size %s, but with R''s pages it must be an (n+p) x p x P array (n = %d, P = %d, p >= 1)', ...
                class(x), mat2str(size(x)), n, P);
end
[R, x] = qru_cast_args(qru_compute_class(false, R, x), R, x);
k = qru_index(fn, 2, j, n + 1, sprintf('R is %d x %d x %d: 1 <= j <= n + 1 = %d', n, n, P, n + 1), false);
[R1, st] = qru_mex('cholinsert', R, k, x, backend);
info = double(st > 0);
% a singular page (a zero on its diagonal): info = 2, R1 R's page placed
d = reshape(R(repmat(logical(eye(n)), [1 1 P])), n, P);
keep = [1:k-1, k+p:n+p];
for i = find(any(d == 0, 1))
  Ri = zeros(n + p, class(R1));
  Ri(keep, keep) = triu(R(:, :, i));
  R1(:, :, i) = Ri;
  info(i) = 2;
end
if any(info) && nout < 2
  i = find(info, 1);
  if info(i) == 2
    error('qru:cholinsert:singular', '%s: page %d: R is singular, so it is not a Cholesky factor', fn, i);
  end
  error('qru:cholinsert:notPositiveDefinite', ...
        '%s: page %d: the matrix with the inserted rows and columns is not positive definite (at column %d)', ...
        fn, i, st(i));
end
end
