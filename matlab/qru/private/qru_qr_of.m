function [Q1, R1] = qru_qr_of(A1, backend)
%QRU_QR_OF  [Q1, R1] = qr(A1) for an A1 of any shape, computed on the
%   backend by qru_qr_factor (qru_mex('qr', ...)).  The update functions
%   take it where the library's updatable factorization, which keeps its
%   matrix tall (n >= m >= 1), does not apply: a wide matrix, or one
%   without rows or columns; it costs the product that formed A1 and a
%   QR of A1 with its square Q, O(n m min(n, m) + n^2 min(n, m)) flops.
[n, m] = size(A1);
if n == 0 || m == 0
  Q1 = eye(n, class(A1));
  R1 = zeros(n, m, class(A1));
else
  [Q1, R1] = qru_mex('qr', A1, backend);
end
end
