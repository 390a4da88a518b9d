function [x, resnorm, residual, exitflag, output, lambda] = qru_lsqnonneg(C, d, varargin)
%QRU_LSQNONNEG  Non-negative least squares on qru's column updates (lsqnonneg).
%   x = qru_lsqnonneg(C, d) returns the x >= 0 that minimizes
%   norm(C*x - d), C n x m of any shape and d a vector of n elements, by
%   the active-set algorithm of Lawson and Hanson: the columns allowed to
%   be positive are held as a thin QR factorization (qr(C(:, P), 0)) that
%   is updated, not recomputed, as columns enter and leave P (qru_nnls in
%   the C API).
%   [x, resnorm, residual, exitflag, output, lambda] = qru_lsqnonneg(...)
%   also returns, as MATLAB's lsqnonneg:
%     resnorm   norm(d - C*x)^2;
%     residual  d - C*x;
%     exitflag  1 when x satisfies the optimality conditions, 0 when
%               options.MaxIter steps were taken first (x is then the last
%               iterate, which is feasible);
%     output    a struct with fields iterations (the steps: columns
%               entering plus columns leaving P), algorithm
%               ('active-set') and message;
%     lambda    the Lagrange multipliers C'*(d - C*x), set to 0 where
%               x > 0 (as Octave's lsqnonneg): lambda <= TolX where x = 0.
%   qru_lsqnonneg(C, d, options) takes an options struct (optimset, or a
%   struct with these fields; others are ignored):
%     TolX      a column enters while its multiplier exceeds TolX; default
%               10*eps(class)*norm(C, 1)*max(n, m), MATLAB's (eps of the
%               computed class);
%     MaxIter   the most steps; default 3*m (SciPy's nnls).  Octave's
%               lsqnonneg counts passes and defaults to 1e5.
%   qru_lsqnonneg(C, d, [], options) is accepted for Octave's signature
%   with an empty x0; an initial guess is not supported (Lawson and Hanson
%   start from x = 0).
%   Classes: C and d double or single (an integer class computes in
%   double); single if either is single.  A trailing argument selects the
%   backend: 'cpu', 'cuda', 'opencl' or 'auto' (default:
%   getenv('QRU_MEX_BACKEND'), else 'auto').  Errors name the argument and
%   the rule, with identifiers qru:lsqnonneg:<kind> (or the library's
%   qru:badArgument for a NaN or an infinity in C or d).
%
%   Example:
%     C = [1 0; 0 1; 2 1]; d = [1; -1; 1];
%     [x, resnorm, ~, ~, ~, lambda] = qru_lsqnonneg(C, d)
%     % x = [0.6; 0], resnorm = 1.2, lambda = [0; -1.2]
%
%   See also lsqnonneg, qru_lsq.
fn = 'qru_lsqnonneg';
if nargin < 2
  error('qru:lsqnonneg:nargin', '%s: needs C and d (got %d arguments)', fn, nargin);
end
qru_data_arg(fn, 1, 'C', C, true);
qru_data_arg(fn, 2, 'd', d, true);
if issparse(C) || issparse(d)
  [C, d] = deal(full(C), full(d));
end
[n, m] = size(C);
if ~(isvector(d) || isempty(d)) || numel(d) ~= n
  qru_arg_error(fn, 2, 'd', 'd is %s, but it must be a vector of n = %d elements (the rows of C)', ...
                mat2str(size(d)), n);
end
args = varargin;
first = 3;
if numel(args) >= 1 && isnumeric(args{1})
  if ~isempty(args{1})
    qru_arg_error(fn, 3, 'x0', ['x0 is %s, but an initial guess is not supported ' ...
                  '(Lawson and Hanson start from x = 0): pass [] or omit it'], mat2str(size(args{1})));
  end
  args = args(2:end);
  first = 4;
end
options = struct();
if numel(args) >= 1 && (isstruct(args{1}) || (isnumeric(args{1}) && isempty(args{1})))
  if isstruct(args{1})
    options = args{1};
  end
  args = args(2:end);
  first = first + 1;
end
[~, backend] = qru_trailing(fn, first, args, {});
cls = qru_compute_class(false, C, d);
[C, d] = qru_cast_args(cls, C, d(:));
tolx = -1;
maxiter = 0;
if isfield(options, 'TolX') && ~isempty(options.TolX)
  tolx = options.TolX;
  if ~isnumeric(tolx) || ~isscalar(tolx) || ~isreal(tolx) || ~(tolx >= 0) || isinf(tolx)
    qru_arg_error(fn, first - 1, 'options', ...
                  'options.TolX is %s, but it must be a finite number >= 0', qru_shown(tolx));
  end
  tolx = double(tolx);
elseif n > 0 && m > 0
  tolx = 10 * double(eps(cls)) * norm(double(C), 1) * max(n, m);
end
if isfield(options, 'MaxIter') && ~isempty(options.MaxIter)
  maxiter = options.MaxIter;
  if ~isnumeric(maxiter) || ~isscalar(maxiter) || ~isreal(maxiter) || ...
     maxiter ~= fix(maxiter) || maxiter < 1 || maxiter > 1e9
    qru_arg_error(fn, first - 1, 'options', ...
                  'options.MaxIter is %s, but it must be an integer >= 1', qru_shown(maxiter));
  end
end
if n == 0 || m == 0
  % no rows: x = 0 fits exactly; no columns: x is empty, the residual d
  x = zeros(m, 1, cls);
  w = zeros(m, 1, cls);
  rnorm = double(norm(d));
  iterations = 0;
  status = 0;
else
  [x, w, rnorm, iterations, status] = qru_mex('nnls', C, d, double(maxiter), tolx, backend);
end
resnorm = rnorm^2;
if nargout >= 3
  residual = d - C * x;
end
exitflag = double(status == 0);
if nargout >= 5
  if status == 0
    msg = 'The optimality conditions hold (lambda <= TolX where x = 0).';
  else
    msg = sprintf('The iteration cap was reached (%d steps): x is the last feasible iterate.', ...
                  iterations);
  end
  output = struct('iterations', iterations, 'algorithm', 'active-set', 'message', msg);
end
if nargout >= 6
  lambda = w;
  lambda(x > 0) = 0;
end
end
