function [Q1, R1] = qru_qrinsert(Q, R, j, x, varargin)
%QRU_QRINSERT  Insert columns or rows into a QR factorization (qrinsert).
%   [Q1, R1] = qru_qrinsert(Q, R, j, x) with A = Q*R returns the QR
%   factorization of [A(:,1:j-1) x A(:,j:end)], where x is a column; as
%   qru's extension x may be a block of p columns.
%   [Q1, R1] = qru_qrinsert(Q, R, j, x, 'col') does the same, and
%   [Q1, R1] = qru_qrinsert(Q, R, j, x, 'row') returns the factorization of
%   [A(1:j-1,:); x; A(j:end,:)], x a row (or a block of p rows).
%
%   This is MATLAB's qrinsert(Q, R, j, x, orient), computed by the block
%   updates of Andrew (2012), chapter 4, on a qru backend.  Q and R may be
%   full ([Q, R] = qr(A)) or economy ([Q, R] = qr(A, 0)); Q1 and R1 are of
%   the same kind.  Economy factors are updated in qru's thin form, in
%   O(n m p).  The result may be rank-deficient (x in the span of the
%   other columns): Q1*R1 is still the new matrix, Q1 orthogonal and R1
%   singular, as Octave's qrinsert returns it (an economy insertion of
%   such a column runs on the completed factors, whose Q costs a QR of Q,
%   O(n^3), and is cut back to economy size).  Where the updates do not
%   apply - a wide result (fewer rows than columns) or A without columns -
%   the new matrix is formed (O(n^2 m)) and factorized on the same
%   backend (qru_qr_factor, O(n m min(n, m))).
%   Classes as Octave's qrinsert: Q, R and x may be double, single or an
%   integer class (logical and char are refused); the result is single if
%   any of them is single, else double.  j may be of any numeric class or
%   logical.  The signs of the rows of R1 (and columns of Q1; for complex
%   data their phases) may differ from qrinsert's.
%   Complex arguments compute in complex arithmetic (real ones with them
%   are promoted, as MATLAB does; ' is the conjugate transpose and Q1
%   unitary) on a backend that supports complex data (the CPU; elsewhere
%   qru:unsupported, naming the backend).
%
%   A trailing argument selects the backend: 'cpu', 'cuda', 'opencl' or
%   'auto' (default: getenv('QRU_MEX_BACKEND'), else 'auto').
%   Errors name the argument and the rule, with identifiers
%   qru:qrinsert:<kind> (or the library's qru:numerical, qru:badArgument,
%   qru:unsupported, qru:library).
%
%   Example:
%     A = randn(8, 3); [Q, R] = qr(A); U = randn(8, 2);
%     [Q1, R1] = qru_qrinsert(Q, R, 2, U);   % two new columns at 2 and 3
%     norm(Q1*R1 - [A(:,1) U A(:,2:3)])      % about 1e-15
%
%   See also qru_qrdelete, qrinsert, qr.
fn = 'qru_qrinsert';
if nargin < 4
  error('qru:qrinsert:nargin', '%s: needs Q, R, j and x (got %d arguments)', fn, nargin);
end
[orient, backend] = qru_trailing(fn, 5, varargin, {'col', 'row'});
qru_data_arg(fn, 1, 'Q', Q);
qru_data_arg(fn, 2, 'R', R);
qru_data_arg(fn, 4, 'x', x);
[Q, R, x] = qru_cast_args(qru_compute_class(false, Q, R, x), Q, R, x);
[Qf, Rf, econ] = qru_full_factors(fn, Q, R, false);
n = size(Qf, 1);
m = size(Rf, 2);
if isempty(x)
  qru_arg_error(fn, 4, 'x', 'x is empty (%s), but it must hold at least one column or row', ...
                mat2str(size(x)));
end
if strcmp(orient, 'col')
  if size(x, 1) ~= n
    qru_arg_error(fn, 4, 'dimensions', 'x has %d rows, but it must have size(A, 1) = %d', ...
                  size(x, 1), n);
  end
  k = qru_index(fn, 3, j, m + 1, sprintf('A has m = %d columns: 1 <= j <= m + 1', m), false);
  p = size(x, 2);
  if m >= 1 && n >= m + p
    [Q1, R1] = qru_econ_update(Qf, Rf, econ, 'qrinsert', k, x, 'col', backend);
  else  % a wide result, or A without columns
    A = Qf * Rf;
    [Q1, R1] = qru_qr_of([A(:, 1:k-1), x, A(:, k:m)], backend);
  end
else
  if size(x, 2) ~= m
    qru_arg_error(fn, 4, 'dimensions', 'x has %d columns, but it must have size(A, 2) = %d', ...
                  size(x, 2), m);
  end
  k = qru_index(fn, 3, j, n + 1, sprintf('A has n = %d rows: 1 <= j <= n + 1', n), false);
  if m >= 1 && n >= m
    [Q1, R1] = qru_econ_update(Qf, Rf, econ, 'qrinsert', k, x, 'row', backend);
  else
    A = Qf * Rf;
    [Q1, R1] = qru_qr_of([A(1:k-1, :); x; A(k:n, :)], backend);
  end
end
[Q1, R1] = qru_result(Q1, R1, econ);
end
