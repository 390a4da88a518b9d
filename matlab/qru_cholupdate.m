function varargout = qru_cholupdate(varargin)
%QRU_CHOLUPDATE  Rank-k update or downdate of a Cholesky factor.
%   R1 = qru_cholupdate(R, X) with R upper triangular (A = R*R) and X
%   n x k returns the factor of A + X*X (as cholupdate(R, x) does for one
%   column).  R1 = qru_cholupdate(R, X, -) returns the factor of
%   A - X*X; an error is raised if that matrix is not positive definite,
%   unless a second output is requested: [R1, info] = ... then returns
%   R1 = R and info > 0 (the column where definiteness is lost), or info = 0
%   on success.  A trailing option selects the backend.
[varargout{1:max(nargout, 1)}] = qru_mex('cholupdate', varargin{:});
end
