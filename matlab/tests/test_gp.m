function nfail = test_gp(backend)
%TEST_GP  qru_gp against the direct computation in Octave on the same
%   points: L = chol(K, 'lower') with K = k(x, x') + sn2*eye(n), the
%   posterior mean Ks'*(K\y) and variance sf2 - sum((L\Ks).^2, 1)', and
%   the log marginal likelihood, after creation and through a chain of
%   points added (appended and inserted) and removed (single points and
%   ranges, down to none); single and double; the prior of a GP without
%   points; a failed update leaves the GP as it was; bad inputs raise the
%   documented identifiers.  Errors are scaled by n eps kappa(K) (and a
%   magnitude), as the C tests of qru_gp do.
qru_check('reset');
classes = qru_classes(backend);
rand('seed', 31); randn('seed', 31);
xs = linspace(-1, 4, 41);
for c = 1:numel(classes)
  cls = classes{c};
  o = struct('ell', 0.6, 'sf2', 1.3, 'sn2', 0.01);
  if strcmp(cls, 'single')
    o.sn2 = 0.1;
  end
  n = 40;
  x = cast(3 * rand(n, 1), cls);
  y = cast(sin(2 * x) + 0.3 * x + 0.1 * randn(n, 1), cls);
  G = qru_gp(x, y, 'LengthScale', o.ell, 'SignalVariance', o.sf2, ...
             'NoiseVariance', o.sn2, backend);
  tag = ['gp ' cls];
  qru_check(strcmp(G.precision, cls) && G.LengthScale == o.ell && ...
            G.SignalVariance == o.sf2 && G.NoiseVariance == o.sn2, ...
            '%s: properties %s %g %g %g', tag, G.precision, G.LengthScale, ...
            G.SignalVariance, G.NoiseVariance);
  compare([tag ' created'], G, o, x, y, xs);
  % points appended
  xn = cast(3 + rand(7, 1), cls); yn = cast(randn(7, 1), cls);
  G.add_points(xn, yn);
  x = [x; xn]; y = [y; yn];
  compare([tag ' appended'], G, o, x, y, xs);
  % points inserted before point 5 (row vectors)
  xn = cast(-1 + rand(1, 3), cls); yn = cast(randn(1, 3), cls);
  G.add_points(xn, yn, 5);
  x = [x(1:4); xn(:); x(5:end)]; y = [y(1:4); yn(:); y(5:end)];
  compare([tag ' inserted'], G, o, x, y, xs);
  % a range removed, then the first and the last point
  G.remove_points(6:12);
  x(6:12) = []; y(6:12) = [];
  compare([tag ' range removed'], G, o, x, y, xs);
  G.remove_points(1);
  x(1) = []; y(1) = [];
  G.remove_points(numel(x));
  x(end) = []; y(end) = [];
  compare([tag ' first and last removed'], G, o, x, y, xs);
  % a repeated input without noise makes K singular: refused, G as it was
  % (inputs 0.6 apart, so that K is well conditioned without noise)
  xh = cast(0.6 * (0:7)', cls); yh = cast(randn(8, 1), cls);
  H = qru_gp(xh, yh, 'LengthScale', o.ell, 'SignalVariance', o.sf2, ...
             'NoiseVariance', 0, backend);
  h = struct('ell', o.ell, 'sf2', o.sf2, 'sn2', 0);
  qru_expect_error('qru:numerical', [tag ' repeated input, no noise'], ...
                   @() H.add_points(xh(3), yh(3) + 1));
  compare([tag ' noise-free after the refused update'], H, h, xh, yh, xs);
  delete(H);
  % every point removed: the prior
  G.remove_points(1:numel(x));
  compare([tag ' all removed'], G, o, zeros(0, 1, cls), zeros(0, 1, cls), xs);
  [mu, s2] = G.predict(xs);
  qru_check(all(mu == 0) && all(s2 == cast(o.sf2, cls)) && G.log_likelihood() == 0, ...
            '%s: the prior (0, sf2) without points', tag);
  % and points again
  x = cast(3 * rand(5, 1), cls); y = cast(randn(5, 1), cls);
  G.add_points(x, y);
  compare([tag ' refilled'], G, o, x, y, xs);
  delete(G);
  % a GP created without points, and a capacity and block size given
  G = qru_gp(zeros(0, 1, cls), zeros(0, 1, cls), 'LengthScale', o.ell, ...
             'SignalVariance', o.sf2, 'NoiseVariance', o.sn2, 'Capacity', 64, ...
             'BlockSize', 8, backend);
  compare([tag ' empty'], G, o, zeros(0, 1, cls), zeros(0, 1, cls), xs);
  x = cast(3 * rand(70, 1), cls); y = cast(randn(70, 1), cls);
  G.add_points(x, y);
  compare([tag ' grown past the capacity'], G, o, x, y, xs);
  delete(G);
end
% classes: single with double computes in single
G = qru_gp(single(rand(5, 1)), rand(5, 1), backend);
[mu, s2] = G.predict(0.5);
qru_check(strcmp(G.precision, 'single') && isa(mu, 'single') && isa(s2, 'single') && ...
          isa(G.log_likelihood(), 'single') && isa(G.factor(), 'single'), ...
          'single x: classes %s %s %s', G.precision, class(mu), class(s2));
delete(G);
% bad inputs
x = rand(6, 1); y = rand(6, 1);
qru_expect_error('qru:gp:nargin', 'no y', @() qru_gp(x));
qru_expect_error('qru:gp:x', 'x a matrix', @() qru_gp(rand(3, 2), rand(6, 1), backend));
qru_expect_error('qru:gp:x', 'x int32', @() qru_gp(int32([1; 2]), [1; 2], backend));
qru_expect_error('qru:gp:x', 'x with NaN', @() qru_gp([1; NaN], [1; 2], backend));
qru_expect_error('qru:gp:y', 'y complex', @() qru_gp(x, complex(y, y), backend));
qru_expect_error('qru:gp:y', 'y with Inf', @() qru_gp(x, [y(1:5); Inf], backend));
qru_expect_error('qru:gp:dimensions', 'x and y lengths', @() qru_gp(x, y(1:5), backend));
qru_expect_error('qru:gp:LengthScale', 'LengthScale 0', @() qru_gp(x, y, 'LengthScale', 0, backend));
qru_expect_error('qru:gp:SignalVariance', 'SignalVariance [1 2]', ...
                 @() qru_gp(x, y, 'SignalVariance', [1 2], backend));
qru_expect_error('qru:gp:NoiseVariance', 'NoiseVariance -1', ...
                 @() qru_gp(x, y, 'NoiseVariance', -1, backend));
qru_expect_error('qru:gp:Capacity', 'Capacity 1.5', @() qru_gp(x, y, 'Capacity', 1.5, backend));
qru_expect_error('qru:gp:BlockSize', 'BlockSize ''8''', @() qru_gp(x, y, 'BlockSize', '8', backend));
qru_expect_error('qru:gp:option', 'unknown option', @() qru_gp(x, y, 'Kernel', 'se', backend));
qru_expect_error('qru:gp:option', 'option without a value', @() qru_gp(x, y, 'LengthScale'));
qru_expect_error('qru:gp:backend', 'unknown backend', @() qru_gp(x, y, 'gpu'));
G = qru_gp(x, y, backend);
qru_expect_error('qru:gp:index', 'remove_points(0)', @() G.remove_points(0));
qru_expect_error('qru:gp:index', 'remove_points(7)', @() G.remove_points(7));
qru_expect_error('qru:gp:index', 'remove_points([1 3])', @() G.remove_points([1 3]));
qru_expect_error('qru:gp:index', 'add_points at n + 2', @() G.add_points(1, 1, 8));
qru_expect_error('qru:gp:index', 'add_points at 1.5', @() G.add_points(1, 1, 1.5));
qru_expect_error('qru:gp:dimensions', 'add_points lengths', @() G.add_points([1 2], 1));
qru_expect_error('qru:gp:x', 'add_points char x', @() G.add_points('a', 1));
qru_expect_error('qru:gp:xs', 'predict NaN', @() G.predict([0 NaN]));
qru_expect_error('qru:gp:xs', 'predict matrix', @() G.predict(rand(2)));
qru_expect_error('qru:gp:nargin', 'predict without xs', @() G.predict());
qru_check(G.size() == 6, 'the GP changed under refused calls: n = %d', G.size());
delete(G);
nfail = qru_check('count');
end

function compare(what, G, o, x, y, xs)
% G holds the points x, y (columns, the class of the GP) with the options
% o: its data, factor, predictions and log-likelihood against the direct
% computation in double.
cls = G.precision;
ep = double(eps(cls));
n = numel(x);
[xg, yg] = G.data();
qru_check(G.size() == n && isequal(xg, x) && isequal(yg, y) && isa(xg, cls), ...
          '%s: data (n = %d, expected %d)', what, G.size(), n);
x = double(x); y = double(y);
K = o.sf2 * exp(-(x - x').^2 / (2 * o.ell^2)) + o.sn2 * eye(n);
Ks = o.sf2 * exp(-(x - xs).^2 / (2 * o.ell^2));
if n > 0
  L = chol(K, 'lower');
  kappa = cond(K);
else
  L = zeros(0); kappa = 1;
end
alpha = L' \ (L \ y);
mu_ref = Ks' * alpha;
s2_ref = o.sf2 - sum((L \ Ks).^2, 1)';
lml_ref = -y' * alpha / 2 - sum(log(diag(L))) - n * log(2 * pi) / 2;
[mu, s2] = G.predict(xs);
lml = G.log_likelihood();
Lg = G.factor();
qru_check(isa(mu, cls) && isa(s2, cls) && isa(lml, cls) && isa(Lg, cls) && ...
          isequal(size(mu), [numel(xs) 1]) && isequal(size(s2), [numel(xs) 1]) && ...
          isscalar(lml) && isequal(size(Lg), [n n]), '%s: classes and sizes', what);
scale = max(n, 1) * ep * kappa;
em = max(abs(double(mu) - mu_ref)) / (max([abs(y); 1]) * scale);
ev = max(abs(double(s2) - s2_ref)) / (o.sf2 * scale);
el = abs(double(lml) - lml_ref) / ((abs(lml_ref) + n + 1) * scale);
qru_check(em < 30, '%s: mean error %g (scaled)', what, em);
qru_check(ev < 30, '%s: variance error %g (scaled)', what, ev);
qru_check(el < 30, '%s: log-likelihood error %g (scaled): %.10g vs %.10g', what, el, ...
          double(lml), lml_ref);
if n > 0
  Lg = double(Lg);
  eb = norm(K - Lg * Lg', 'fro') / (norm(K, 'fro') * n * ep);
  qru_check(eb < 30 && all(all(triu(Lg, 1) == 0)) && all(diag(Lg) > 0), ...
            '%s: factor backward error %g (scaled)', what, eb);
end
end
