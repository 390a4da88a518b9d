function varargout = qru_lsq_get(varargin)
%QRU_LSQ_GET  Reads a factorisation made by qru_lsq_new.
%   [Q, R, d] = qru_lsq_get(h) returns Q (n x n), R (n x m) and d = Q*b of
%   the current problem.
[varargout{1:max(nargout, 1)}] = qru_mex('lsq_get', varargin{:});
end
