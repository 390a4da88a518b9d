classdef qru_gp < handle
%QRU_GP  Gaussian-process regression on an updatable Cholesky factor.
%   G = qru_gp(x, y) is exact Gaussian-process regression on the training
%   points (x(i), y(i)) (vectors of n real numbers, n >= 0): zero prior
%   mean, the squared-exponential covariance
%   k(x, x') = sf2*exp(-(x - x')^2/(2*ell^2)) and observation noise of
%   variance sn2, held as the Cholesky factor of K on a qru backend:
%     K = sf2*exp(-(x - x').^2/(2*ell^2)) + sn2*eye(n); L = chol(K, 'lower');
%   Adding and removing points updates L (qru_cholinsert, qru_choldelete)
%   instead of factorizing K again.  single x or y compute in single.
%   G = qru_gp(x, y, name, value, ..., backend) sets the options
%     'LengthScale'     ell > 0 (default 1)
%     'SignalVariance'  sf2 > 0 (default 1)
%     'NoiseVariance'   sn2 >= 0 (default 0.01)
%     'Capacity'        points reserved (default 0: n; grows on demand)
%     'BlockSize'       Cholesky block size (default 0: the backend's)
%   and the backend ('cpu', 'cuda', 'opencl', 'auto'; default:
%   getenv('QRU_MEX_BACKEND'), else 'auto').
%
%   Methods (x, y the current training points, K and L as above):
%     G.add_points(xn, yn)       x = [x; xn], y = [y; yn]
%     G.add_points(xn, yn, j)    x = [x(1:j-1); xn; x(j:end)], y likewise
%     G.remove_points(j)         x(j) = [], y(j) = []; j may be a range j0:j1
%     [mu, s2] = G.predict(xs)   Ks = sf2*exp(-(x - xs(:)').^2/(2*ell^2));
%                                mu = Ks'*(K\y); s2 = sf2 - sum((L\Ks).^2, 1)'
%     lml = G.log_likelihood()   lml = -y'*(K\y)/2 - sum(log(diag(L))) - n*log(2*pi)/2
%     L = G.factor()             L = chol(K, 'lower')
%     [x, y] = G.data()          the training points (columns)
%     n = G.size()               n = numel(x)
%   The results are single for a single GP, else double.  The posterior
%   variance s2 is of the latent function (add sn2 for an observation),
%   not clamped at 0.  delete(G), or clearing the last reference to it,
%   frees it.
%
%   Errors: qru:gp:<kind> for bad arguments (x, y, xs, dimensions, index,
%   the option names, option, backend, nargin); qru:numerical when K is
%   not numerically positive definite (e.g. a repeated input with
%   NoiseVariance 0): an update that fails leaves G as it was.
%
%   Example:
%     x = 4 * rand(50, 1); y = sin(x) + 0.1 * randn(50, 1);
%     G = qru_gp(x, y, 'LengthScale', 0.7, 'NoiseVariance', 0.01);
%     G.add_points(4 + rand(5, 1), sin(4 + rand(5, 1)));  % new observations
%     G.remove_points(1:10);                              % drop the oldest
%     [mu, s2] = G.predict(linspace(0, 5, 200));
%     lml = G.log_likelihood();
%     delete(G);
%
%   See also qru_cholinsert, qru_choldelete, chol.
  properties (SetAccess = private)
    backend = ''          % the backend the factor lives on
    precision = ''        % 'double' or 'single'
    LengthScale = 1       % ell
    SignalVariance = 1    % sf2
    NoiseVariance = 0.01  % sn2
  end
  properties (Hidden, SetAccess = private)
    h = []                % the MEX handle
  end
  methods
    function G = qru_gp(x, y, varargin)
      fn = 'qru_gp';
      if nargin < 2
        error('qru:gp:nargin', '%s: needs x and y (got %d arguments)', fn, nargin);
      end
      points(fn, {'x', 'y'}, x, y);
      defaults = struct('LengthScale', 1, 'SignalVariance', 1, 'NoiseVariance', 0.01, ...
                        'Capacity', 0, 'BlockSize', 0);
      [o, backend, at] = qru_options(fn, 3, varargin, defaults);
      hyper(fn, o, at, 'LengthScale', @(v) v > 0, 'ell > 0');
      hyper(fn, o, at, 'SignalVariance', @(v) v > 0, 'sf2 > 0');
      hyper(fn, o, at, 'NoiseVariance', @(v) v >= 0, 'sn2 >= 0');
      hyper(fn, o, at, 'Capacity', @(v) v >= 0 && v == fix(v), 'an integer >= 0');
      hyper(fn, o, at, 'BlockSize', @(v) v >= 0 && v == fix(v), 'an integer >= 0');
      G.precision = qru_compute_class(false, x, y);
      G.h = qru_mex('gp_new', cast(x, G.precision), cast(y, G.precision), ...
                    double([o.LengthScale, o.SignalVariance, o.NoiseVariance, ...
                            o.Capacity, o.BlockSize]), backend);
      G.backend = qru_backend(backend);
      G.LengthScale = double(o.LengthScale);
      G.SignalVariance = double(o.SignalVariance);
      G.NoiseVariance = double(o.NoiseVariance);
    end
    function add_points(G, xn, yn, j)
      %ADD_POINTS  G.add_points(xn, yn, j): x = [x(1:j-1); xn; x(j:end)], y = [y(1:j-1); yn; y(j:end)]
      %   Without j the points are appended (j = n + 1).
      fn = 'qru_gp.add_points';
      if nargin < 3
        error('qru:gp:nargin', '%s: G.add_points(xn, yn) or G.add_points(xn, yn, j)', fn);
      end
      points(fn, {'x', 'y'}, xn, yn);
      n = G.size();
      if nargin < 4
        j = n + 1;
      else
        j = qru_index(fn, 3, j, n + 1, sprintf('G has n = %d points: 1 <= j <= n + 1', n), false);
      end
      qru_mex('gp', G.h, 'insert', j, xn, yn);
    end
    function remove_points(G, j)
      %REMOVE_POINTS  G.remove_points(j): x(j) = [], y(j) = [] (j an index or a range j0:j1)
      fn = 'qru_gp.remove_points';
      if nargin < 2
        error('qru:gp:nargin', '%s: G.remove_points(j)', fn);
      end
      n = G.size();
      [k, p] = qru_index(fn, 1, j, n, sprintf('G has n = %d points: 1 <= j <= n', n), true);
      qru_mex('gp', G.h, 'remove', k, p);
    end
    function [mu, s2] = predict(G, xs)
      %PREDICT  [mu, s2] = G.predict(xs): mu = Ks'*(K\y), s2 = sf2 - sum((L\Ks).^2, 1)', Ks = k(x, xs(:)')
      fn = 'qru_gp.predict';
      if nargin < 2
        error('qru:gp:nargin', '%s: [mu, s2] = G.predict(xs)', fn);
      end
      points(fn, {'xs'}, xs);
      if nargout >= 2
        [mu, s2] = qru_mex('gp', G.h, 'predict', xs);
      else
        mu = qru_mex('gp', G.h, 'predict', xs);
      end
    end
    function lml = log_likelihood(G)
      %LOG_LIKELIHOOD  lml = G.log_likelihood(): lml = -y'*(K\y)/2 - sum(log(diag(L))) - n*log(2*pi)/2
      lml = qru_mex('gp', G.h, 'lml');
    end
    function L = factor(G)
      %FACTOR  L = G.factor(): L = chol(K, 'lower'), K = k(x, x') + sn2*eye(n)
      L = qru_mex('gp', G.h, 'factor');
    end
    function [x, y] = data(G)
      %DATA  [x, y] = G.data(): the training points, as columns
      [x, y] = qru_mex('gp', G.h, 'data');
    end
    function n = size(G)
      %SIZE  n = G.size(): the number of training points, numel(x)
      n = qru_mex('gp', G.h, 'size');
    end
    function delete(G)
      if ~isempty(G.h)
        qru_mex('free', G.h);
        G.h = [];
      end
    end
  end
end

function points(fn, names, varargin)
% Checks the point vectors varargin, arguments 1, 2, ... of fn called
% names{1}, names{2}, ...: real double or single vectors of finite
% values, of equal lengths.
for i = 1:numel(varargin)
  v = varargin{i};
  qru_real_arg(fn, i, names{i}, v);
  if ~isempty(v) && ~isvector(v)
    qru_arg_error(fn, i, names{i}, '%s is %d x %d, but it must be a vector', ...
                  names{i}, size(v, 1), size(v, 2));
  end
  bad = find(~isfinite(v), 1);
  if ~isempty(bad)
    qru_arg_error(fn, i, names{i}, '%s(%d) = %g, but the points must be finite', ...
                  names{i}, bad, v(bad));
  end
end
if numel(varargin) == 2 && numel(varargin{1}) ~= numel(varargin{2})
  qru_arg_error(fn, 2, 'dimensions', 'y has %d elements, but x has %d: one y a point', ...
                numel(varargin{2}), numel(varargin{1}));
end
end

function hyper(fn, o, at, name, ok, rule)
% Checks the option name: a real finite scalar v with ok(v).
v = o.(name);
if ~((isnumeric(v) || islogical(v)) && isscalar(v) && isreal(v) && isfinite(v) && ok(double(v)))
  qru_arg_error(fn, at.(name), name, '%s is %s, but it must be %s', name, qru_shown(v), rule);
end
end
