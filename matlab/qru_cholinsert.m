function varargout = qru_cholinsert(varargin)
%QRU_CHOLINSERT  Cholesky factor of a matrix with rows and columns inserted.
%   R1 = qru_cholinsert(R, j, X) with R upper triangular (A = R*R, n x n)
%   and X (n+p) x p returns the factor of A1 (n+p x n+p) with
%   A1(i, i) = A for i = [1:j-1, j+p:n+p] and A1(:, j:j+p-1) = X (p = 1 is
%   Octaves cholinsert(R, j, x)).  [R1, info] = ... returns info > 0 and
%   R1 = R instead of raising an error when A1 is not positive definite.
%   A trailing option selects the backend.
[varargout{1:max(nargout, 1)}] = qru_mex('cholinsert', varargin{:});
end
