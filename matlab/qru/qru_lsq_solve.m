function [x, res, info] = qru_lsq_solve(A, b, varargin)
%QRU_LSQ_SOLVE  Least-squares solution through qru's QR factorization.
%   x = qru_lsq_solve(A, b) returns x = A \ b for A n x m of full column
%   rank, n >= m, via the qru_lsq object (QR factorization, then back
%   substitution).  [x, res] = qru_lsq_solve(A, b) also returns the residual
%   norms res(k) = norm(A*x(:,k) - b(:,k)).
%   x = qru_lsq_solve(A, b, 'q', q) factorizes in the form q: 'full' (the
%   default, Q n x n), 'thin' (Q n x m, as qr(A, 0)) or 'none' (no Q:
%   memory independent of n); the result is the same.  A trailing
%   argument selects the backend ('cpu', 'cuda', 'opencl', 'auto').
%   Pages: A n x m x P and b n x r x P solve the P problems at once (as
%   pagemtimes: x(:,:,i) = A(:,:,i) \ b(:,:,i), x m x r x P, res 1 x r x P)
%   in the form 'none' (the default), 'thin' or 'full'; a rank-deficient page
%   raises qru:numerical, except that [x, res, info] = qru_lsq_solve(A, b)
%   returns info P x 1 (0, or the first column where the page loses rank;
%   the page of x is then NaN).
%   Complex A or b compute in complex arithmetic on a backend that
%   supports complex data (qru_backend's fourth output; elsewhere
%   qru:unsupported), pages too.
%   To update the problem and solve again, use a qru_lsq object.
%   A rank-deficient A raises the error qru:numerical; a bad option
%   qru:lsq_solve:<kind> (q, option, backend).
%
%   See also qru_lsq, mldivide.
fn = 'qru_lsq_solve';
if nargin < 2
  error('qru:lsq_solve:nargin', '%s: needs A and b (got %d arguments)', fn, nargin);
end
pages = ndims(A) > 2 || ndims(b) > 2;
[q, backend] = qru_lsq_args(fn, varargin, pages);
res = []; info = 0;
if nargout >= 3 && pages
  [x, res, info] = qru_mex('lsq_solve', A, b, q, backend);
elseif nargout >= 2
  [x, res] = qru_mex('lsq_solve', A, b, q, backend);
else
  x = qru_mex('lsq_solve', A, b, q, backend);
end
end
