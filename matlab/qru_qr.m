function varargout = qru_qr(varargin)
%QRU_QR  QR factorisation on the qru backends (blocked Householder QR).
%   [Q, R] = qru_qr(A) returns Q (n x n orthogonal) and R (n x m upper
%   trapezoidal) with A = Q*R, like [Q, R] = qr(A).
%   [Q, R, d] = qru_qr(A, b) also returns d = Q*b.
%   R = qru_qr(A) returns R only (Q is not formed).
%   A trailing option selects the backend: cpu, cuda, opencl or
%   auto (default: getenv(QRU_MEX_BACKEND), else auto).
%   single input computes in single precision, double in double.
%   The signs of the rows of R (and columns of Q) may differ from qrs.
%
%   See also qru_lsq_solve, qru_qrinsert, qru_qrdelete.
[varargout{1:max(nargout, 1)}] = qru_mex('qr', varargin{:});
end
