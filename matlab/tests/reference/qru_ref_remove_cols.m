function [Q, R, d] = qru_ref_remove_cols(Q, R, d, j, p)
%QRU_REF_REMOVE_COLS  Reference: QR update for a block of removed columns.
%   [Q1, R1, d1] = qru_ref_remove_cols(Q, R, d, j, p) takes A = Q*R
%   (R n x m) and d = Q'*b and returns the factorisation of
%       A1 = [A(:,1:j-1), A(:,j+p:m)] = Q1*R1,   d1 = Q1'*b,
%   1 <= j <= m-p+1 (1-based, as MATLAB's qrdelete).  Q is not needed by
%   the update of R and d: pass Q = [] to skip it (Q1 is then []).
%
%   Algorithm (Andrew 2012, section 4.2, QRUpdateRemoveColumns): drop the
%   columns; the part R(j:n, j:m-p) that follows is upper triangular plus
%   p subdiagonals, so column c needs one Householder reflector of length
%   p+1 acting on rows c:c+p, applied to the columns right of it, to d and
%   (if given) to Q from the right.
[n, m] = size(R);
if j < 1 || p < 1 || j + p - 1 > m
  error('qru_ref_remove_cols: need p >= 1 and 1 <= j <= %d', m - p + 1);
end
if isempty(d)
  d = zeros(n, 0, class(R));
end
R = R(:, [1:j-1, j+p:m]);
for c = j:m-p
  last = min(c + p, n);
  if last <= c
    break;
  end
  rows = c:last;
  [v, tau, beta] = qru_ref_house(R(c, c), R(c+1:last, c));
  R(c, c) = beta;
  R(c+1:last, c) = 0;
  u = [1; v];
  R(rows, c+1:end) = R(rows, c+1:end) - tau * u * (u' * R(rows, c+1:end));
  d(rows, :) = d(rows, :) - tau * u * (u' * d(rows, :));
  if ~isempty(Q)
    Q(:, rows) = Q(:, rows) - tau * (Q(:, rows) * u) * u';
  end
end
end
