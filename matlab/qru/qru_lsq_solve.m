function [x, res] = qru_lsq_solve(A, b, varargin)
%QRU_LSQ_SOLVE  Least-squares solution through qru's QR factorization.
%   x = qru_lsq_solve(A, b) returns x = A \ b for A n x m of full column
%   rank, n >= m, via the qru_lsq object (QR factorization, then back
%   substitution).  [x, res] = qru_lsq_solve(A, b) also returns the residual
%   norms res(k) = norm(A*x(:,k) - b(:,k)).
%   x = qru_lsq_solve(A, b, 'q', q) factorizes in the form q: 'full' (the
%   default, Q n x n), 'thin' (Q n x m, as qr(A, 0)) or 'none' (no Q:
%   memory independent of n); the result is the same.  A trailing
%   argument selects the backend ('cpu', 'cuda', 'opencl', 'auto').
%   To update the problem and solve again, use a qru_lsq object.
%   A rank-deficient A raises the error qru:numerical; a bad option
%   qru:lsq_solve:<kind> (q, option, backend).
%
%   See also qru_lsq, mldivide.
fn = 'qru_lsq_solve';
if nargin < 2
  error('qru:lsq_solve:nargin', '%s: needs A and b (got %d arguments)', fn, nargin);
end
[q, backend] = qru_lsq_args(fn, varargin);
res = [];
if nargout >= 2
  [x, res] = qru_mex('lsq_solve', A, b, q, backend);
else
  x = qru_mex('lsq_solve', A, b, q, backend);
end
end
