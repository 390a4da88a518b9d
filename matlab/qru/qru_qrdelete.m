function [Q1, R1] = qru_qrdelete(Q, R, j, varargin)
%QRU_QRDELETE  Delete columns or rows from a QR factorization (qrdelete).
%   [Q1, R1] = qru_qrdelete(Q, R, j) with A = Q*R returns the QR
%   factorization of A with column j removed, A(:, [1:j-1, j+1:end]).
%   [Q1, R1] = qru_qrdelete(Q, R, j, 'col') does the same, and
%   [Q1, R1] = qru_qrdelete(Q, R, j, 'row') removes row j instead.
%   As qru's extension j may be a range j0:j1 of consecutive indices,
%   which removes those p = j1 - j0 + 1 columns (rows) in one block update.
%
%   This is MATLAB's qrdelete(Q, R, j, orient), computed by the block
%   updates of Andrew (2012), chapter 4, on a qru backend.  Q and R may be
%   full ([Q, R] = qr(A)) or economy ([Q, R] = qr(A, 0)); Q1 and R1 are of
%   the same kind.  Economy factors are updated in qru's thin form, in
%   O(n m p) (a row removal that leaves the result numerically
%   rank-deficient runs on the completed factors instead, whose Q costs a
%   QR of Q, O(n^3)).  Where the updates do not apply - a wide matrix or
%   result, or no column left - the new matrix is formed (O(n^2 m)) and
%   factorized on the same backend (qru_qr_factor, O(n m min(n, m))).
%   Classes as Octave's qrdelete: Q and R may be double, single or an
%   integer class (logical and char are refused); the result is single if
%   either is single, else double.  j may be of any numeric class or
%   logical.  Complex Q and R are factorized in complex arithmetic, Q1
%   unitary, where the backend takes complex data (the CPU backend; the
%   others raise qru:unsupported, naming the backend).  The signs of the
%   rows of R1 (and columns of Q1; for complex data their phases) may
%   differ from qrdelete's.
%
%   A trailing argument selects the backend: 'cpu', 'cuda', 'opencl' or
%   'auto' (default: getenv('QRU_MEX_BACKEND'), else 'auto').
%   Errors name the argument and the rule, with identifiers
%   qru:qrdelete:<kind> (or the library's qru:badArgument,
%   qru:unsupported, qru:library).
%
%   Example:
%     A = randn(8, 5); [Q, R] = qr(A, 0);
%     [Q1, R1] = qru_qrdelete(Q, R, 2:3);    % columns 2 and 3 removed
%     norm(Q1*R1 - A(:, [1 4 5]))            % about 1e-15
%
%   See also qru_qrinsert, qrdelete, qr.
fn = 'qru_qrdelete';
if nargin < 3
  error('qru:qrdelete:nargin', '%s: needs Q, R and j (got %d arguments)', fn, nargin);
end
[orient, backend] = qru_trailing(fn, 4, varargin, {'col', 'row'});
qru_data_arg(fn, 1, 'Q', Q);
qru_data_arg(fn, 2, 'R', R);
[Q, R] = qru_cast_args(qru_compute_class(false, Q, R), Q, R);
[Qf, Rf, econ] = qru_full_factors(fn, Q, R, false);
n = size(Qf, 1);
m = size(Rf, 2);
if strcmp(orient, 'col')
  [k, p] = qru_index(fn, 3, j, m, sprintf('A has m = %d columns: 1 <= j <= m', m), true);
  if p < m && n >= m
    [Q1, R1] = qru_econ_update(Qf, Rf, econ, 'qrdelete', k, p, 'col', backend);
  else  % a wide matrix, or no column left
    [Q1, R1] = qru_qr_of(Qf * Rf(:, [1:k-1, k+p:m]), backend);
  end
else
  [k, p] = qru_index(fn, 3, j, n, sprintf('A has n = %d rows: 1 <= j <= n', n), true);
  if m >= 1 && n - p >= m
    [Q1, R1] = qru_econ_update(Qf, Rf, econ, 'qrdelete', k, p, 'row', backend);
  else
    A = Qf * Rf;
    [Q1, R1] = qru_qr_of(A([1:k-1, k+p:n], :), backend);
  end
end
[Q1, R1] = qru_result(Q1, R1, econ);
end
