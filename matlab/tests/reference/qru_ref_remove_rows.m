function [Q, R, d] = qru_ref_remove_rows(Q, R, d, j, p)
%QRU_REF_REMOVE_ROWS  Reference: QR update for a block of removed rows.
%   [Q1, R1, d1] = qru_ref_remove_rows(Q, R, d, j, p) takes A = Q*R
%   (Q n x n, R n x m) and d = Q'*b and returns the factorisation of
%       A1 = [A(1:j-1,:); A(j+p:n,:)] = Q1*R1,   d1 = Q1'*b1
%   where b1 is b without the same rows, 1 <= j <= n-p+1 (1-based, as
%   MATLAB's qrdelete).  Q is required.
%
%   Algorithm (Andrew 2012, section 4.4, QRUpdateRemoveRows): permute the
%   removed rows of Q to the top (the strip Z = Q(j:j+p-1,:)); Givens
%   rotations of adjacent columns, from the right, reduce row i of Z to
%   +-e_i'.  They are applied to the columns of Q and to the rows of R and
%   d, which keeps Q*R and Q'*b.  As Q stays orthogonal, P*Q*G is then
%   [D 0; 0 Q1] with D = diag(+-1), and G'*R = [S; R1] with R1 upper
%   trapezoidal, so A1 = Q1*R1.
[n, m] = size(R);
if size(Q, 1) ~= n || size(Q, 2) ~= n || p < 1 || j < 1 || j + p - 1 > n
  error('qru_ref_remove_rows: need Q %d x %d, p >= 1 and 1 <= j <= %d', n, n, n - p + 1);
end
if isempty(d)
  d = zeros(n, 0, class(R));
end
Q = Q([j:j+p-1, 1:j-1, j+p:n], :);
for i = 1:p
  for c = n:-1:i+1
    [cs, sn] = qru_ref_givens(Q(i, c-1), Q(i, c));
    % [Q(i,c-1) Q(i,c)] * G' = [r 0] with G = [cs sn; -sn cs]
    G = [cs sn; -sn cs];
    Q(:, [c-1 c]) = Q(:, [c-1 c]) * G';
    Q(i, c) = 0;
    R([c-1 c], :) = G * R([c-1 c], :);
    d([c-1 c], :) = G * d([c-1 c], :);
  end
end
Q = Q(p+1:n, p+1:n);
R = R(p+1:n, :);
d = d(p+1:n, :);
end
