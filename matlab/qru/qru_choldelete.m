function R1 = qru_choldelete(R, j, varargin)
%QRU_CHOLDELETE  Cholesky factor with a row and column removed (choldelete).
%   R1 = qru_choldelete(R, j) with R upper triangular (A = R'*R) returns the
%   factor of A with row and column j removed, A([1:j-1 j+1:n], [1:j-1
%   j+1:n]), as Octave's choldelete(R, j).  As qru's extension j may be a
%   range j0:j1: rows and columns j0..j1 are removed in one block update.
%   Classes as Octave's choldelete: R may be double, single or an integer
%   class (logical and char are refused); the result has R's class (double
%   for an integer R); j may be of any numeric class or logical.
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
qru_chol_factor_arg(fn, R);
R = qru_cast_args(qru_compute_class(false, R), R);
n = size(R, 1);
[k, p] = qru_index(fn, 2, j, n, sprintf('R is %d x %d: 1 <= j <= n', n, n), true);
R1 = qru_mex('choldelete', R, k, p, backend);
end
