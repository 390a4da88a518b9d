function [x, res] = qru_lsq_solve(varargin)
%QRU_LSQ_SOLVE  Least-squares solution through qru's QR factorisation.
%   x = qru_lsq_solve(A, b) returns x = A \ b for A n x m of full column
%   rank, n >= m, via the qru_lsq object (QR factorisation, then back
%   substitution).  [x, res] = qru_lsq_solve(A, b) also returns the residual
%   norms res(k) = norm(A*x(:,k) - b(:,k)).  A trailing option selects the
%   backend ('cpu', 'cuda', 'opencl', 'auto').
%   [x, res] = qru_lsq_solve(h) solves the problem held by a handle from
%   qru_lsq_new (after its updates).
%   A rank-deficient A raises the error qru:numerical.
if nargin >= 1 && isa(varargin{1}, 'uint64')
  [x, res] = deal_out(nargout, 'lsq_solve_h', varargin{:});
else
  [x, res] = deal_out(nargout, 'lsq_solve', varargin{:});
end
end

function [x, res] = deal_out(nout, cmd, varargin)
res = [];
if nout >= 2
  [x, res] = qru_mex(cmd, varargin{:});
else
  x = qru_mex(cmd, varargin{:});
end
end
