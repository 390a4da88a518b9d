function [Q1, R1] = qru_qrshift(Q, R, i, j, varargin)
%QRU_QRSHIFT  Shift a column of a QR factorization (Octave's qrshift).
%   [Q1, R1] = qru_qrshift(Q, R, i, j) with A = Q*R returns the QR
%   factorization of A(:, p), where column i moves to position j and the
%   columns between move by one:
%     p = [1:i-1, i+1:j, i, j+1:m]   if i < j,
%     p = [1:j-1, i, j:i-1, i+1:m]   if j < i
%   (Octave's p = [1:i-1, shift(i:j, -1), j+1:m], resp.
%   [1:j-1, shift(j:i, 1), i+1:m]); i = j returns the factors unchanged.
%
%   This is Octave's qrshift(Q, R, i, j), computed on a qru backend by
%   qru_lsq_shift_cols: the moved columns leave R upper triangular except
%   in its rows min(i,j)..max(i,j), which i < j Householder panels of
%   reflectors of length 2 (applied with GEMMs) and i > j one sweep of
%   Givens rotations restore, applied to the same columns of Q:
%   O(|j - i| (m + n)) work besides the panels' blocking.  Q and R may be
%   full ([Q, R] = qr(A)) or economy ([Q, R] = qr(A, 0)); Q1 and R1 are
%   of the same kind.  A wide A (fewer rows than columns), where the
%   library's update does not apply, is formed as Q*R(:, p) (O(n^2 m))
%   and factorized on the same backend (qru_qr_factor, O(n m min(n, m))).
%   Classes as Octave's qrshift: Q and R may be double, single or an
%   integer class (logical and char are refused); the result is single
%   if both Q and R are single, else double.  i and j may be of any
%   numeric class or logical.  The signs of the rows of R1 (and columns
%   of Q1; for complex data their phases) may differ from qrshift's.
%   Complex Q and R compute in complex arithmetic (Q1 unitary) on a
%   backend that takes complex data (the CPU; elsewhere qru:unsupported,
%   naming the backend).
%
%   A trailing argument selects the backend: 'cpu', 'cuda', 'opencl' or
%   'auto' (default: getenv('QRU_MEX_BACKEND'), else 'auto').
%   Errors name the argument and the rule, with identifiers
%   qru:qrshift:<kind> (or the library's qru:badArgument,
%   qru:unsupported, qru:library).
%
%   Example:
%     A = randn(8, 5); [Q, R] = qr(A);
%     [Q1, R1] = qru_qrshift(Q, R, 2, 4);    % column 2 moves to 4
%     norm(Q1*R1 - A(:, [1 3 4 2 5]))        % about 1e-15
%
%   See also qru_qrinsert, qru_qrdelete, qru_cholshift, qrshift, qr.
fn = 'qru_qrshift';
if nargin < 4
  error('qru:qrshift:nargin', '%s: needs Q, R, i and j (got %d arguments)', fn, nargin);
end
[~, backend] = qru_trailing(fn, 5, varargin, {});
qru_data_arg(fn, 1, 'Q', Q);
qru_data_arg(fn, 2, 'R', R);
[Q, R] = qru_cast_args(qru_compute_class(true, Q, R), Q, R);
[Qf, Rf, econ] = qru_full_factors(fn, Q, R, false);
n = size(Qf, 1);
m = size(Rf, 2);
rule = sprintf('A has m = %d columns: 1 <= %%s <= m', m);
i = qru_index(fn, 3, i, m, sprintf(rule, 'i'), false, 'i');
j = qru_index(fn, 4, j, m, sprintf(rule, 'j'), false, 'j');
if n >= m
  [Q1, R1] = qru_econ_update(Qf, Rf, econ, 'qrshift', i, j, backend);
else  % wide
  p = 1:m;
  if i < j
    p(i:j) = [i+1:j, i];
  elseif j < i
    p(j:i) = [i, j:i-1];
  end
  [Q1, R1] = qru_qr_of(Qf * Rf(:, p), backend);
end
[Q1, R1] = qru_result(Q1, R1, econ);
end
