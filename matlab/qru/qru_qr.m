function [Q, R, d] = qru_qr(A, varargin)
%QRU_QR  QR factorization on the qru backends (blocked Householder QR).
%   [Q, R] = qru_qr(A) returns Q (n x n orthogonal) and R (n x m upper
%   trapezoidal) with A = Q*R, like [Q, R] = qr(A).
%   [Q, R] = qru_qr(A, 0) or qru_qr(A, 'econ') returns the economy
%   factorization: Q n x k, R k x m, k = min(n, m), like qr(A, 0).
%   [Q, R, d] = qru_qr(A, b) also returns d = Q'*b (n x r), and
%   [Q, R, d] = qru_qr(A, b, 0) its first k rows.
%   R = qru_qr(A) returns R only (Q is not formed).
%
%   A trailing argument selects the backend: 'cpu', 'cuda', 'opencl' or
%   'auto' (default: getenv('QRU_MEX_BACKEND'), else 'auto').  single
%   input computes in single precision, double in double.  Complex A (or
%   b) computes in complex arithmetic (a real b with a complex A, or the
%   reverse, is promoted as MATLAB does): Q unitary, d = Q'*b with the
%   conjugate transpose, on a backend that supports complex data (the
%   CPU; elsewhere qru:unsupported, naming the backend).  The signs of
%   the rows of R (and columns of Q; for complex data their phases, and
%   R's diagonal is complex) may differ from qr's.
%
%   See also qr, qru_lsq, qru_qrinsert, qru_qrdelete.
fn = 'qru_qr';
if nargin < 1
  error('qru:qr:nargin', '%s: needs A', fn);
end
args = varargin;
b = [];
if ~isempty(args) && isnumeric(args{1}) && ~(isscalar(args{1}) && args{1} == 0 && size(A, 1) ~= 1)
  b = args{1};
  args = args(2:end);
end
econ = false;
if ~isempty(args) && ((isnumeric(args{1}) && isscalar(args{1}) && args{1} == 0) || ...
                      (ischar(args{1}) && strcmpi(args{1}, 'econ')))
  econ = true;
  args = args(2:end);
end
[~, backend] = qru_trailing(fn, nargin - numel(args) + 1, args, {});
qru_real_arg(fn, 1, 'A', A, true);
if ~isempty(b) && size(b, 1) ~= size(A, 1)
  qru_arg_error(fn, 2, 'dimensions', 'b has %d rows, but A has %d', size(b, 1), size(A, 1));
end
if nargout >= 3 && isempty(b)
  error('qru:qr:nargout', '%s: d = Q''*b needs b: [Q, R, d] = qru_qr(A, b)', fn);
end
k = min(size(A));
if nargout <= 1
  Q = qru_mex('qr', A, backend);
  if econ
    Q = Q(1:k, :);
  end
  return;
end
if isempty(b)
  [Q, R] = qru_mex('qr', A, backend);
else
  [Q, R, d] = qru_mex('qr', A, b, backend);
end
if econ
  Q = Q(:, 1:k);
  R = R(1:k, :);
  if nargout >= 3
    d = d(1:k, :);
  end
end
end
