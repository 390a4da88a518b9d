function [x, res] = qru_lsq_solve(varargin)
%QRU_LSQ_SOLVE  Least-squares solution through qru's QR factorisation.
%   x = qru_lsq_solve(A, b) returns x = A \ b for A n x m of full column
%   rank, n >= m, via the qru_lsq object (QR factorisation, then back
%   substitution).  [x, res] = qru_lsq_solve(A, b) also returns the residual
%   norms res(k) = norm(A*x(:,k) - b(:,k)).  A trailing option selects the
%   backend ('cpu', 'cuda', 'opencl', 'auto').
%   To update the problem and solve again, use a qru_lsq object.
%   A rank-deficient A raises the error qru:numerical.
%
%   See also qru_lsq, mldivide.
[x, res] = deal_out(nargout, 'lsq_solve', varargin{:});
end

function [x, res] = deal_out(nout, cmd, varargin)
res = [];
if nout >= 2
  [x, res] = qru_mex(cmd, varargin{:});
else
  x = qru_mex(cmd, varargin{:});
end
end
