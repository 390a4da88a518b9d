function [A, b] = qru_apply_update(A, b, what, j, X, e)
%QRU_APPLY_UPDATE  The matrix and right-hand sides after an update (the
%   MATLAB specification of each qru_lsq_add_cols / remove_cols / add_rows / remove_rows function).
switch what
  case 'addcols'
    A = [A(:, 1:j-1), X, A(:, j:end)];
  case 'removecols'
    A(:, j:j+X-1) = [];
  case 'addrows'
    A = [A(1:j-1, :); X; A(j:end, :)];
    b = [b(1:j-1, :); e; b(j:end, :)];
  case 'removerows'
    A(j:j+X-1, :) = [];
    b(j:j+X-1, :) = [];
end
end
