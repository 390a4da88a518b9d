function [Q1, R1] = qru_qrupdate(Q, R, u, v, varargin)
%QRU_QRUPDATE  Rank-k update of a QR factorization (qrupdate).
%   [Q1, R1] = qru_qrupdate(Q, R, u, v) with A = Q*R returns the QR
%   factorization of A + u*v', u and v columns (rank 1) or, as in
%   Octave's qrupdate, matrices with the same number k of columns
%   (rank k): Q1*R1 = A + u*v'.
%
%   This is MATLAB's qrupdate(Q, R, u, v), computed on a qru backend by
%   qru_lsq_modify: Q'*u reduced to a k x k triangle by blocked
%   Householder reflectors from the bottom up, then the band this leaves
%   in R reduced from the top down, everything applied with GEMMs.  Q and
%   R may be full ([Q, R] = qr(A)) or economy ([Q, R] = qr(A, 0)); Q1 and
%   R1 are of the same kind.  Economy factors are updated in qru's thin
%   form, in O(n m k) (for k > n - m on the completed factors, whose Q
%   costs a QR of Q, O(n^3)).  A + u*v' may be rank-deficient: Q1*R1 is
%   still A + u*v', Q1 orthogonal and R1 singular, as qrupdate returns it.
%   A wide A (fewer rows than columns) or one without columns, where the
%   update does not apply, is formed as Q*R + u*v' (O(n^2 m)) and
%   factorized on the same backend (qru_qr_factor, O(n m min(n, m))).
%   Classes as Octave's qrupdate: Q, R, u and v may be double, single or
%   an integer class (logical and char are refused); the result is single
%   if any of them is single, else double.  The signs of the rows of R1
%   (and columns of Q1; for complex data their phases) may differ from
%   qrupdate's.
%   Complex arguments compute in complex arithmetic (real ones with them
%   are promoted, as MATLAB does; ' is the conjugate transpose and Q1
%   unitary) on a backend that supports complex data (the CPU; elsewhere
%   qru:unsupported, naming the backend).
%
%   A trailing argument selects the backend: 'cpu', 'cuda', 'opencl' or
%   'auto' (default: getenv('QRU_MEX_BACKEND'), else 'auto').
%   Errors name the argument and the rule, with identifiers
%   qru:qrupdate:<kind> (or the library's qru:badArgument,
%   qru:unsupported, qru:library).
%
%   Example:
%     A = randn(8, 5); [Q, R] = qr(A); u = randn(8, 2); v = randn(5, 2);
%     [Q1, R1] = qru_qrupdate(Q, R, u, v);   % rank-2 update
%     norm(Q1*R1 - (A + u*v'))               % about 1e-15
%
%   See also qru_qrinsert, qru_qrdelete, qrupdate, qr.
fn = 'qru_qrupdate';
if nargin < 4
  error('qru:qrupdate:nargin', '%s: needs Q, R, u and v (got %d arguments)', fn, nargin);
end
[~, backend] = qru_trailing(fn, 5, varargin, {});
qru_data_arg(fn, 1, 'Q', Q);
qru_data_arg(fn, 2, 'R', R);
qru_data_arg(fn, 3, 'u', u);
qru_data_arg(fn, 4, 'v', v);
[Q, R, u, v] = qru_cast_args(qru_compute_class(false, Q, R, u, v), Q, R, u, v);
[Qf, Rf, econ] = qru_full_factors(fn, Q, R, false);
n = size(Qf, 1);
m = size(Rf, 2);
if size(u, 1) ~= n || size(u, 2) < 1
  qru_arg_error(fn, 3, 'dimensions', 'u is %d x %d, but it must have size(Q, 1) = %d rows and at least one column', ...
                size(u, 1), size(u, 2), n);
end
k = size(u, 2);
if size(v, 1) ~= m || size(v, 2) ~= k
  qru_arg_error(fn, 4, 'dimensions', 'v is %d x %d, but it must be size(R, 2) x size(u, 2) = %d x %d', ...
                size(v, 1), size(v, 2), m, k);
end
if n < m || m < 1   % wide, or no columns
  [Q1, R1] = qru_qr_of(Qf * Rf + u * v', backend);
else
  thin = econ && k <= n - m;
  if econ && ~thin   % more columns than the thin form takes
    [Qf, Rf] = qru_full_factors(fn, Q, R, true);
  end
  [Q1, R1] = qru_econ_update(Qf, Rf, thin, 'qrupdate', u, v, backend);
end
[Q1, R1] = qru_result(Q1, R1, econ);
end
