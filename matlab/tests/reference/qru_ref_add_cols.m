function [Q, R, d] = qru_ref_add_cols(Q, R, d, U, j)
%QRU_REF_ADD_COLS  Reference: QR update for a block of added columns.
%   [Q1, R1, d1] = qru_ref_add_cols(Q, R, d, U, j) takes A = Q*R (Q n x n
%   orthogonal, R n x m upper trapezoidal), d = Q'*b and an n x p block U,
%   and returns the factorisation of
%       A1 = [A(:,1:j-1), U, A(:,j:m)] = Q1*R1,   d1 = Q1'*b.
%   j is 1-based as in MATLAB's qrinsert: U becomes columns j:j+p-1 of A1,
%   1 <= j <= m+1.  d may be empty (n x 0).
%
%   Algorithm (Andrew 2012, section 4.1, QRUpdateAddColumns):
%     phase 0: make room and put Q'*U into columns j:j+p-1 of R;
%     phase 1: Householder QR of the rows m+1:n of that block (those rows
%              of the old R are zero, so no other column changes), applied
%              to Q from the right and to d from the left;
%     phase 2: Givens rotations remove the rest of the block below the
%              diagonal, column by column and from the bottom up, applied
%              to R, Q and d.  Nothing to do when the block is appended on
%              the right (j = m+1).
[n, m] = size(R);
p = size(U, 2);
if size(U, 1) ~= n || j < 1 || j > m + 1
  error('qru_ref_add_cols: U must have %d rows and 1 <= j <= %d', n, m + 1);
end
if isempty(d)
  d = zeros(n, 0, class(R));
end
% phase 0
R = [R(:, 1:j-1), Q' * U, R(:, j:m)];
blk = j:j+p-1;
% phase 1: Householder on R(m+1:n, blk)
for c = 1:p
  row = m + c;                 % pivot row of this column of the block
  if row >= n
    break;
  end
  col = blk(c);
  [v, tau, beta] = qru_ref_house(R(row, col), R(row+1:n, col));
  R(row, col) = beta;
  R(row+1:n, col) = 0;
  u = [1; v];
  rows = row:n;
  R(rows, blk(c+1:end)) = R(rows, blk(c+1:end)) - tau * u * (u' * R(rows, blk(c+1:end)));
  d(rows, :) = d(rows, :) - tau * u * (u' * d(rows, :));
  Q(:, rows) = Q(:, rows) - tau * (Q(:, rows) * u) * u';
end
% phase 2: Givens rotations, column c of the block, rows bottom-up
for c = 1:p
  col = blk(c);
  for i = min(n, m + c):-1:col+1
    [cs, sn, r] = qru_ref_givens(R(i-1, col), R(i, col));
    G = [cs sn; -sn cs];
    R([i-1 i], col+1:end) = G * R([i-1 i], col+1:end);
    R(i-1, col) = r;
    R(i, col) = 0;
    d([i-1 i], :) = G * d([i-1 i], :);
    Q(:, [i-1 i]) = Q(:, [i-1 i]) * G';
  end
end
end
