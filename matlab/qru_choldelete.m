function varargout = qru_choldelete(varargin)
%QRU_CHOLDELETE  Cholesky factor of a matrix with rows and columns removed.
%   R1 = qru_choldelete(R, j) with R upper triangular (A = R*R) returns
%   the factor of A with row and column j removed (Octaves choldelete);
%   R1 = qru_choldelete(R, j, p) removes rows and columns j:j+p-1.
%   A trailing option selects the backend.
[varargout{1:max(nargout, 1)}] = qru_mex('choldelete', varargin{:});
end
