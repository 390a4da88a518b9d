function [Q, R, d] = qru_ref_add_rows(Q, R, d, U, e, j, nb)
%QRU_REF_ADD_ROWS  Reference: QR update for a block of added rows.
%   [Q1, R1, d1] = qru_ref_add_rows(Q, R, d, U, e, j, nb) takes A = Q*R
%   (R n x m, n >= m), d = Q'*b, a p x m block of rows U and the matching
%   p rows e of the right-hand sides, and returns the factorisation of
%       A1 = [A(1:j-1,:); U; A(j:n,:)] = Q1*R1,   d1 = Q1'*[b(1:j-1,:); e; b(j:n,:)]
%   with 1 <= j <= n+1 (1-based, as MATLAB's qrinsert).  Q is not needed
%   by the update of R and d: pass Q = [] to skip it.  nb is the block
%   size (default 32).
%
%   Algorithm (Andrew 2012, section 4.3, QRUpdateAddRows): the new rows
%   can be permuted to the bottom, so R1 comes from [R; U] by m Householder
%   reflectors whose vectors are [e_c; 0; v_c]: they touch row c of R and
%   the p rows of U only.  Reflectors are made one column at a time inside
%   a block of nb columns (phase 1), accumulated as I - V*T*V' with the
%   triangular T of buildT (phase 2), and applied to the trailing columns
%   of R and U and to d and e as one block (phase 3).  Q1 is
%   P' * blkdiag(Q, eye(p)) * H_1 * ... * H_m with P the row permutation.
[n, m] = size(R);
p = size(U, 1);
if n < m || size(U, 2) ~= m || j < 1 || j > n + 1
  error('qru_ref_add_rows: need n >= m, U p x %d and 1 <= j <= %d', m, n + 1);
end
if nargin < 7 || isempty(nb)
  nb = 32;
end
if isempty(d)
  d = zeros(n, 0, class(R));
  e = zeros(p, 0, class(R));
end
if ~isempty(Q)
  Q = [Q, zeros(n, p); zeros(p, n), eye(p)];
end
for jb0 = 1:nb:m
  jb = min(nb, m - jb0 + 1);
  cols = jb0:jb0+jb-1;         % the block of columns
  V = zeros(p, jb, class(R));  % lower parts of the Householder vectors
  tau = zeros(jb, 1, class(R));
  % phase 1: reduce the block column by column
  for i = 1:jb
    c = cols(i);
    [V(:, i), tau(i), R(c, c)] = qru_ref_house(R(c, c), U(:, c));
    U(:, c) = 0;
    rest = c+1:cols(end);
    w = R(c, rest) + V(:, i)' * U(:, rest);
    R(c, rest) = R(c, rest) - tau(i) * w;
    U(:, rest) = U(:, rest) - tau(i) * V(:, i) * w;
  end
  % phase 2: buildT, so that H_1*...*H_jb = I - Vf*T*Vf' with Vf = [I; 0; V]
  T = diag(tau);
  for i = 2:jb
    T(1:i-1, i) = -tau(i) * T(1:i-1, 1:i-1) * (V(:, 1:i-1)' * V(:, i));
  end
  % phase 3: apply (I - Vf*T'*Vf') to the trailing columns, to [d; e], and
  % (I - Vf*T*Vf') to Q from the right
  trail = cols(end)+1:m;
  W = T' * (R(cols, trail) + V' * U(:, trail));
  R(cols, trail) = R(cols, trail) - W;
  U(:, trail) = U(:, trail) - V * W;
  W = T' * (d(cols, :) + V' * e);
  d(cols, :) = d(cols, :) - W;
  e = e - V * W;
  if ~isempty(Q)
    W = (Q(:, cols) + Q(:, n+1:n+p) * V) * T;
    Q(:, cols) = Q(:, cols) - W;
    Q(:, n+1:n+p) = Q(:, n+1:n+p) - W * V';
  end
end
perm = [1:j-1, n+1:n+p, j:n];  % move the new rows to position j
R = [R; U];                    % U is zero now
d = [d; e];
if ~isempty(Q)
  Q = Q(perm, :);
end
end
