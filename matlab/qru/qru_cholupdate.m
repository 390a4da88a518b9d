function [R1, p] = qru_cholupdate(R, x, varargin)
%QRU_CHOLUPDATE  Rank-1 (or rank-k) update or downdate of a Cholesky factor.
%   R1 = qru_cholupdate(R, x) with R upper triangular (A = R'*R) and x a
%   column of length n returns the upper triangular factor of A + x*x', as
%   MATLAB's cholupdate(R, x).  As qru's extension x may be an n x k block:
%   R1'*R1 = A + x*x'.
%   R1 = qru_cholupdate(R, x, '+') is the same; R1 = qru_cholupdate(R, x, '-')
%   returns the factor of A - x*x' and raises an error when that matrix is
%   not positive definite.
%   [R1, p] = qru_cholupdate(R, x, '-') raises no such error: p = 0 on
%   success; p = 1 when the downdated matrix is not positive definite and
%   p = 2 when R is singular (a zero on its diagonal; downdates only, as
%   Octave's); for p > 0, R1 = R.
%   Pages: R n x n x P and x n x k x P update the P factors at once (as
%   pagemtimes: page i of R1 is qru_cholupdate(R(:,:,i), x(:,:,i), op));
%   p is then P x 1, one entry a page, and a failed page of R1 is R's.
%   Classes as Octave's cholupdate: R and x may be double, single or an
%   integer class (logical and char are refused); the result is single if
%   either is single, else double.  Complex R or x (A Hermitian, x*x' with
%   the conjugate transpose) compute in complex arithmetic on every
%   backend (one without complex data raises qru:unsupported, naming it);
%   a real argument with a complex one is promoted.
%
%   A trailing argument selects the backend: 'cpu', 'cuda', 'opencl' or
%   'auto' (default: getenv('QRU_MEX_BACKEND'), else 'auto').
%   Errors name the argument and the rule, with identifiers
%   qru:cholupdate:<kind>.
%
%   See also cholupdate, qru_cholinsert, qru_choldelete.
fn = 'qru_cholupdate';
if nargin < 2
  error('qru:cholupdate:nargin', '%s: needs R and x (got %d arguments)', fn, nargin);
end
[op, backend] = qru_trailing(fn, 3, varargin, {'+', '-'});
if ndims(R) > 2 || ndims(x) > 2
  [R1, p] = cholupdate_pages(fn, R, x, op, backend, nargout);
  return;
end
qru_chol_factor_arg(fn, R);
n = size(R, 1);
if ~isnumeric(x) || size(x, 1) ~= n || isempty(x)
  qru_arg_error(fn, 2, 'x', 'x is a %s of size %s, but it must be a column (or block) with n = %d rows', ...
                class(x), mat2str(size(x)), n);
end
[R, x] = qru_cast_args(qru_compute_class(false, R, x), R, x);
if strcmp(op, '-') && any(diag(R) == 0)
  if nargout >= 2
    R1 = R; p = 2;
    return;
  end
  error('qru:cholupdate:singular', '%s: R is singular (R(%d,%d) = 0), so it is not a Cholesky factor', ...
        fn, find(diag(R) == 0, 1), find(diag(R) == 0, 1));
end
[R1, info] = qru_mex('cholupdate', R, x, op, backend);
p = double(info > 0);
if p && nargout < 2
  error('qru:cholupdate:notPositiveDefinite', ...
        '%s: the downdated matrix R''*R - x*x'' is not positive definite (at column %d)', ...
        fn, info);
end
end

function [R1, p] = cholupdate_pages(fn, R, x, op, backend, nout)
% The pages of R (n x n x P) and x (n x k x P) by one batched update.
if ~isnumeric(R) || issparse(R) || ndims(R) > 3 || size(R, 1) ~= size(R, 2)
  qru_arg_error(fn, 1, 'R', 'R is a %s of size %s, but pages must be an n x n x P array', ...
                class(R), mat2str(size(R)));
end
n = size(R, 1); P = size(R, 3);
if ~isnumeric(x) || issparse(x) || ndims(x) > 3 || size(x, 1) ~= n || size(x, 3) ~= P
  qru_arg_error(fn, 2, 'x', 'x is a %s of size %s, but with R''s pages it must be an n x k x P array (n = %d, P = %d)', ...
                class(x), mat2str(size(x)), n, P);
end
[R, x] = qru_cast_args(qru_compute_class(false, R, x), R, x);
[R1, info] = qru_mex('cholupdate', R, x, op, backend);
p = double(info > 0);
if strcmp(op, '-')  % a singular page (a zero on its diagonal): p = 2
  d = reshape(R(repmat(logical(eye(n)), [1 1 P])), n, P);
  p(any(d == 0, 1)) = 2;
end
if any(p) && nout < 2
  error('qru:cholupdate:notPositiveDefinite', ...
        '%s: page %d: the downdated matrix is not positive definite (at column %d)', ...
        fn, find(p, 1), info(find(p, 1)));
end
end
