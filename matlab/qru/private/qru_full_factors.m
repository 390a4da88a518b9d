function [Qf, Rf, econ] = qru_full_factors(fn, Q, R, complete)
%QRU_FULL_FACTORS  Checks a factorisation A = Q*R passed to fn (arguments
%   1 and 2): full (Q n x n orthogonal, R n x m) or economy (Q n x k with
%   k < n, R k x m, as qr(A, 0) returns); econ is true for the latter.
%   With complete (default true) an economy factorisation is returned as a
%   full one: Q completed with an orthonormal basis of the complement of
%   its columns (from qr(Q)) and R with zero rows; else it is returned as
%   given.
if nargin < 4
  complete = true;
end
qru_data_arg(fn, 1, 'Q', Q);
qru_data_arg(fn, 2, 'R', R);
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
if econ && complete
  [Qc, ~] = qr(Q);
  Qf = [Q, Qc(:, k+1:n)];
  Rf = [R; zeros(n - k, size(R, 2), class(R))];
else
  Qf = Q;
  Rf = R;
end
end
