function R1 = qru_cholshift(R, i, j, varargin)
%QRU_CHOLSHIFT  Shift a row and column of a Cholesky factor (cholshift).
%   R1 = qru_cholshift(R, i, j) with R upper triangular (A = R'*R, n x n)
%   returns the factor of A(p, p), where row and column i move to
%   position j and those between move by one:
%     p = [1:i-1, i+1:j, i, j+1:n]   if i < j,
%     p = [1:j-1, i, j:i-1, i+1:n]   if j < i,
%   as Octave's cholshift(R, i, j); R1 is chol(A(p, p)): upper triangular
%   with a positive diagonal.
%
%   Computed on a qru backend by qru_chol_shift: the QR column shift of
%   qru_qrshift on R without Q, O(|j - i| n) work besides the Householder
%   panels' blocking (i < j), then the rows of R1 with a negative diagonal
%   element negated.  A factor with a zero, Inf or NaN on its diagonal is
%   refused (qru:numerical).  Classes as Octave's cholshift: R may be
%   double, single or an integer class (logical and char are refused);
%   the result is single if R, i and j are all single, else double.  A
%   complex R (A Hermitian; R1 with a real positive diagonal) computes in
%   complex arithmetic on every backend (one without complex data raises
%   qru:unsupported, naming it).
%
%   A trailing argument selects the backend: 'cpu', 'cuda', 'opencl' or
%   'auto' (default: getenv('QRU_MEX_BACKEND'), else 'auto').
%   Errors name the argument and the rule, with identifiers
%   qru:cholshift:<kind> (or the library's qru:numerical).
%
%   See also cholshift, qru_cholinsert, qru_choldelete, qru_qrshift.
fn = 'qru_cholshift';
if nargin < 3
  error('qru:cholshift:nargin', '%s: needs R, i and j (got %d arguments)', fn, nargin);
end
[~, backend] = qru_trailing(fn, 4, varargin, {});
qru_chol_factor_arg(fn, R);
R = qru_cast_args(qru_compute_class(true, R, i, j), R);
n = size(R, 1);
rule = sprintf('R is %d x %d: 1 <= %%s <= n', n, n);
i = qru_index(fn, 2, i, n, sprintf(rule, 'i'), false, 'i');
j = qru_index(fn, 3, j, n, sprintf(rule, 'j'), false, 'j');
R1 = qru_mex('cholshift', R, i, j, backend);
end
