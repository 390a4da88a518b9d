function [Qf, Rf, econ] = qru_full_factors(fn, Q, R)
%QRU_FULL_FACTORS  Checks a factorisation A = Q*R passed to fn (arguments
%   1 and 2) and returns it as a full one: Q n x n orthogonal, R n x m.
%   An economy factorisation (Q n x k with k < n, R k x m, as qr(A, 0)
%   returns) is completed with an orthonormal basis of the complement of
%   Q's columns (from qr(Q)) and zero rows of R; econ is then true.
qru_real_arg(fn, 1, 'Q', Q);
qru_real_arg(fn, 2, 'R', R);
[n, k] = size(Q);
if size(R, 1) ~= k
  qru_arg_error(fn, 2, 'dimensions', ...
                'R is %d x %d, but Q is %d x %d: R must have size(Q, 2) = %d rows', ...
                size(R, 1), size(R, 2), n, k, k);
end
if k > n
  qru_arg_error(fn, 1, 'dimensions', 'Q is %d x %d, but it must not have more columns than rows', n, k);
end
econ = k < n;
if econ
  [Qc, ~] = qr(Q);
  Qf = [Q, Qc(:, k+1:n)];
  Rf = [R; zeros(n - k, size(R, 2), class(R))];
else
  Qf = Q;
  Rf = R;
end
end
