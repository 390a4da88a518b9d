function nfail = test_lsqnonneg(backend)
%TEST_LSQNONNEG  qru_lsqnonneg against Octave's lsqnonneg on the same
%   inputs: random tall, square and wide problems (double: the same active
%   set, x, resnorm, residual and lambda; single: the optimality
%   conditions at single's rounding level and the double solution's
%   resnorm), the examples of Octave's own lsqnonneg tests (x, resnorm,
%   residual, lambda), options TolX and MaxIter (the cap: exitflag 0 and a
%   feasible x), Octave's signature with an empty x0, empty problems,
%   integer classes, and the error cases (qru's message names the
%   argument).
qru_check('reset');
classes = qru_classes(backend);
rand('seed', 7); randn('seed', 7);
shapes = [60 20; 30 30; 20 40];
for c = 1:numel(classes)
  cls = classes{c};
  for s = 1:size(shapes, 1)
    n = shapes(s, 1); m = shapes(s, 2);
    C = randn(n, m); d = randn(n, 1);
    Cs = cast(C, cls); ds = cast(d, cls);
    what = sprintf('%s %d x %d', cls, n, m);
    [x, resnorm, residual, exitflag, output, lambda] = qru_lsqnonneg(Cs, ds, backend);
    qru_check(isa(x, cls) && isequal(size(x), [m 1]), '%s: x is %s %s', what, class(x), mat2str(size(x)));
    qru_check(exitflag == 1 && output.iterations >= nnz(x) && strcmp(output.algorithm, 'active-set'), ...
              '%s: exitflag %d, %d iterations', what, exitflag, output.iterations);
    % the data as computed, in double
    Cd = double(Cs); dd = double(ds); xd = double(x);
    [xo, resno, residuo, exito, ~, lambdao] = lsqnonneg(Cd, dd);
    qru_check(exito > 0, '%s: Octave''s lsqnonneg did not converge', what);
    e = double(eps(cls));
    w = Cd' * (dd - Cd * xd);
    sc = 30 * max(n, m) * e * norm(Cd, 'fro') * (norm(dd) + norm(Cd, 'fro') * norm(xd));
    qru_check(all(xd >= 0) && all(abs(w(xd > 0)) <= sc) && all(w(xd == 0) <= sc), ...
              '%s: optimality conditions (scale %g)', what, sc);
    qru_check(abs(resnorm - norm(dd - Cd * xd)^2) <= sc * norm(dd), '%s: resnorm %g', what, resnorm);
    qru_check(norm(double(residual) - (dd - Cd * xd)) <= sc, '%s: residual', what);
    qru_check(all(lambda(xd > 0) == 0) && norm(double(lambda(xd == 0)) - w(xd == 0)) <= sc, ...
              '%s: lambda', what);
    if strcmp(cls, 'double')
      qru_check(isequal(x > 0, xo > 0), '%s: active set %s, Octave %s', what, ...
                mat2str(find(x > 0)'), mat2str(find(xo > 0)'));
      qru_check(norm(x - xo) <= 1e-10 * norm(xo), '%s: |x - xo| / |xo| = %g', what, ...
                norm(x - xo) / norm(xo));
      qru_check(abs(resnorm - resno) <= 1e-10 * resno, '%s: resnorm %.15g, Octave %.15g', what, ...
                resnorm, resno);
      qru_check(norm(residual - residuo) <= 1e-10 * norm(dd), '%s: residual', what);
      qru_check(norm(lambda - lambdao) <= 1e-10 * norm(lambdao), '%s: lambda, Octave''s', what);
    else
      qru_check(abs(resnorm - resno) <= 1e-4 * resno, '%s: resnorm %.8g, Octave (double) %.8g', ...
                what, resnorm, resno);
    end
  end
end
% Octave's own tests of lsqnonneg (its %!test blocks), to 10 eps
C = [1 0; 0 1; 2 1];
cases = {[1; 3; -2], [0; 0.5], 0.0, [];
         [1; 1; 3], [1; 1], 0, [0; 0];
         [1; -1; 1], [0.6; 0], 1.2, [0; -1.2];
         [-1; 1; -1], [0; 0], 3, [-3; 0];
         [-1; -1; -3], [0; 0], 11, [-7; -4]};
for k = 1:size(cases, 1)
  d = cases{k, 1};
  [x, resnorm, residual, ~, ~, lambda] = qru_lsqnonneg(C, d, backend);
  [xo, ~, ~, ~, ~, lambdao] = lsqnonneg(C, d);
  qru_check(norm(x - cases{k, 2}) <= 10 * eps * 10 && norm(x - xo) <= 100 * eps, ...
            'Octave''s example %d: x = %s', k, mat2str(x', 6));
  if k > 1
    qru_check(abs(resnorm - cases{k, 3}) <= 20 * eps * max(1, cases{k, 3}), ...
              'Octave''s example %d: resnorm %.17g', k, resnorm);
    qru_check(norm(lambda - cases{k, 4}) <= 100 * eps && norm(lambda - lambdao) <= 100 * eps, ...
              'Octave''s example %d: lambda %s', k, mat2str(lambda', 6));
    qru_check(norm(residual - (d - C * x)) <= 10 * eps * norm(d), 'Octave''s example %d: residual', k);
    qru_check(all(x .* lambda == 0), 'Octave''s example %d: x .* lambda = 0', k);
  end
end
C = [0.0372 0.2869; 0.6861 0.7071; 0.6233 0.6245; 0.6344 0.6170];
d = [0.8587; 0.1781; 0.0747; 0.8405];
x = qru_lsqnonneg(C, d, backend);
qru_check(norm(x - [0; 0.6929]) <= 1e-4, 'Octave''s example 2: x = %s', mat2str(x', 6));
% options: a TolX above every multiplier of x = 0 lets nothing enter,
% as in Octave's lsqnonneg with the same TolX; MaxIter caps the steps
C = randn(40, 25); d = randn(40, 1);
tol = max(C' * d) * 1.01;
[x, resnorm, ~, exitflag] = qru_lsqnonneg(C, d, optimset('TolX', tol), backend);
xo = lsqnonneg(C, d, [], optimset('TolX', tol));
qru_check(all(x == 0) && all(xo == 0) && exitflag == 1 && abs(resnorm - norm(d)^2) <= 1e-12 * norm(d)^2, ...
          'TolX above every multiplier: x = 0');
for cap = 1:3
  [x, resnorm, ~, exitflag, output] = qru_lsqnonneg(C, d, struct('MaxIter', cap), backend);
  qru_check(exitflag == 0 && output.iterations == cap && all(x >= 0) && nnz(x) <= cap && ...
            abs(resnorm - norm(d - C * x)^2) <= 1e-10 * norm(d)^2, ...
            'MaxIter %d: exitflag %d, %d iterations, %d positive', cap, exitflag, ...
            output.iterations, nnz(x));
end
x1 = qru_lsqnonneg(C, d, [], struct('MaxIter', 1000), backend);
x2 = qru_lsqnonneg(C, d, [], [], backend);
qru_check(isequal(x1, x2) && norm(x1 - lsqnonneg(C, d)) <= 1e-10 * norm(x1), ...
          'Octave''s signature (empty x0)');
% integer classes compute in double; a row vector d is taken as a column
x = qru_lsqnonneg(int32([1 0; 0 1; 2 1]), [1 -1 1], backend);
qru_check(isa(x, 'double') && norm(x - [0.6; 0]) <= 100 * eps, 'int32 C, row d: x = %s', mat2str(x'));
% empty problems
[x, resnorm, residual, exitflag] = qru_lsqnonneg(zeros(3, 0), [3; 4; 0], backend);
qru_check(isequal(size(x), [0 1]) && resnorm == 25 && isequal(residual, [3; 4; 0]) && exitflag == 1, ...
          'no columns');
[x, resnorm] = qru_lsqnonneg(zeros(0, 2), zeros(0, 1), backend);
qru_check(isequal(x, [0; 0]) && resnorm == 0, 'no rows');
% errors: the argument and the rule
C = randn(6, 3); d = randn(6, 1);
qru_expect_error('qru:lsqnonneg:nargin', 'one argument', @qru_lsqnonneg, C);
qru_expect_error('qru:lsqnonneg:C', 'C a cell', @qru_lsqnonneg, {C}, d, backend);
qru_expect_error('qru:lsqnonneg:d', 'd of 5 elements', @qru_lsqnonneg, C, d(1:5), backend);
qru_expect_error('qru:lsqnonneg:d', 'd a matrix', @qru_lsqnonneg, C, [d d], backend);
qru_expect_error('qru:lsqnonneg:x0', 'x0 given', @qru_lsqnonneg, C, d, ones(3, 1), backend);
qru_expect_error('qru:lsqnonneg:options', 'TolX < 0', @qru_lsqnonneg, C, d, struct('TolX', -1), backend);
qru_expect_error('qru:lsqnonneg:options', 'MaxIter 0', @qru_lsqnonneg, C, d, struct('MaxIter', 0), backend);
qru_expect_error('qru:lsqnonneg:backend', 'bad backend', @qru_lsqnonneg, C, d, struct(), 'gpu');
Cn = C; Cn(2, 2) = NaN;
qru_expect_error('qru:badArgument', 'NaN in C', @qru_lsqnonneg, Cn, d, backend);
dn = d; dn(6) = Inf;
qru_expect_error('qru:badArgument', 'Inf in d', @qru_lsqnonneg, C, dn, backend);
try
  qru_lsqnonneg(Cn, d, backend);
catch err
  qru_check(~isempty(strfind(err.message, 'argument 2')), 'NaN in C: message "%s"', err.message);
end
nfail = qru_check('count');
end
