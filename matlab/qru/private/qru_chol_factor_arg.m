function qru_chol_factor_arg(fn, R)
%QRU_CHOL_FACTOR_ARG  Checks argument 1 of a Cholesky function: a
%   square numeric R, real or complex (A = R'*R).
qru_data_arg(fn, 1, 'R', R);
if size(R, 1) ~= size(R, 2)
  qru_arg_error(fn, 1, 'R', 'R is %d x %d, but it must be square', size(R, 1), size(R, 2));
end
end
