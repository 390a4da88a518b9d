function [Q1, R1] = qru_result(Q1, R1, econ)
%QRU_RESULT  The factors to return: economy ones (Q1 n x k, R1 k x m,
%   k = min(n, m)) when the input was economy, else the full ones.
if econ
  k = min(size(R1));
  Q1 = Q1(:, 1:k);
  R1 = R1(1:k, :);
end
end
