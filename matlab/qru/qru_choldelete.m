function [R1, p] = qru_choldelete(R, j, varargin)
%QRU_CHOLDELETE  Cholesky factor with a row and column removed (choldelete).
%   R1 = qru_choldelete(R, j) with R upper triangular (A = R'*R) returns the
%   factor of A with row and column j removed, A([1:j-1 j+1:n], [1:j-1
%   j+1:n]), as Octave's choldelete(R, j).  As qru's extension j may be a
%   range j0:j1: rows and columns j0..j1 are removed in one block update.
%   Pages: R n x n x P removes the same rows and columns j from the P
%   factors at once (as pagemtimes: page i of R1 is qru_choldelete(R(:,:,i),
%   j)), in one batched call.  [R1, p] = qru_choldelete(R, j) then raises
%   no error for a page that fails (R not a valid factor: p(i) = 2 for a
%   zero on the diagonal of a row that stays, 1 for a pivot that is not
%   finite or too small), p P x 1, and a failed page of R1 holds R's page
%   without the rows and columns j (R1(:,:,i) = R(keep, keep, i), keep =
%   [1:j0-1, j1+1:n]); without p such a page raises qru:numerical.  For a
%   single R, p = 0 (a failure raises qru:numerical).
%   Classes as Octave's choldelete: R may be double, single or an integer
%   class (logical and char are refused); the result has R's class (double
%   for an integer R); j may be of any numeric class or logical.  A
%   complex R (A Hermitian) computes in complex arithmetic on every
%   backend (one without complex data raises qru:unsupported, naming
%   it).
%
%   A trailing argument selects the backend: 'cpu', 'cuda', 'opencl' or
%   'auto' (default: getenv('QRU_MEX_BACKEND'), else 'auto').
%   Errors name the argument and the rule, with identifiers
%   qru:choldelete:<kind>.
%
%   See also choldelete, qru_cholinsert, qru_cholupdate.
fn = 'qru_choldelete';
if nargin < 2
  error('qru:choldelete:nargin', '%s: needs R and j (got %d arguments)', fn, nargin);
end
[~, backend] = qru_trailing(fn, 3, varargin, {});
if ndims(R) > 2
  [R1, p] = choldelete_pages(fn, R, j, backend, nargout);
  return;
end
qru_chol_factor_arg(fn, R);
R = qru_cast_args(qru_compute_class(false, R), R);
n = size(R, 1);
[k, q] = qru_index(fn, 2, j, n, sprintf('R is %d x %d: 1 <= j <= n', n, n), true);
R1 = qru_mex('choldelete', R, k, q, backend);
p = 0;
end

function [R1, p] = choldelete_pages(fn, R, j, backend, nout)
% The pages of R (n x n x P) by one batched deletion.
if ~isnumeric(R) || issparse(R) || ndims(R) > 3 || size(R, 1) ~= size(R, 2)
  qru_arg_error(fn, 1, 'R', 'R is a %s of size %s, but pages must be an n x n x P array', ...
                class(R), mat2str(size(R)));
end
R = qru_cast_args(qru_compute_class(false, R), R);
n = size(R, 1); P = size(R, 3);
[k, q] = qru_index(fn, 2, j, n, sprintf('R is %d x %d x %d: 1 <= j <= n', n, n, P), true);
[R1, st] = qru_mex('choldelete', R, k, q, backend);
p = double(st > 0);
d = reshape(R(repmat(logical(eye(n)), [1 1 P])), n, P);
p(p > 0 & any(d([1:k-1, k+q:n], :) == 0, 1)') = 2;
if any(p) && nout < 2
  i = find(p, 1);
  error('qru:numerical', '%s: page %d: R is not a valid Cholesky factor (%s; at column %d of the new factor)', ...
        fn, i, failure_text(p(i)), st(i));
end
end

function t = failure_text(p)
if p == 2
  t = 'a zero on its diagonal';
else
  t = 'a pivot not finite or too small';
end
end
