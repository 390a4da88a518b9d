function nfail = test_classes(backend)
%TEST_CLASSES  The class rules of the update functions against Octave's:
%   each matrix argument of qrupdate, qrinsert ('col' and 'row'),
%   qrdelete ('col' and 'row'), qrshift, cholupdate ('+' and '-'),
%   cholinsert, choldelete and cholshift given as double, single, int32,
%   uint8, logical, char or sparse, and each index argument as double,
%   single, int32, uint8, logical or char, one argument at a time, and
%   all matrix arguments (and for qrshift / cholshift all of them) single:
%   qru's function must accept exactly what Octave's accepts and return
%   the same class.  The inputs hold small integers, so every conversion
%   is exact and both functions compute on the same matrices.
qru_check('reset');
[~, ~, fp64] = qru_backend(backend);
P = eye(4);
Q = P(:, [2 1 4 3]);
R = [2 1 3; 0 3 1; 0 0 2; 0 0 0];      % A = Q*R, 4 x 3
Rc = [2 1 0; 0 3 1; 0 0 2];            % A = Rc'*Rc
% name, Octave's function, qru's, arguments, matrix arguments, indices,
% single rule ('any' matrix argument single, or 'all' arguments single)
cases = {
  'qrupdate',     @qrupdate,   @qru_qrupdate,   {Q, R, [1; 2; 0; 1], [1; 0; 2]}, 1:4,   [],    'any'
  'qrinsert',     @qrinsert,   @qru_qrinsert,   {Q, R, 2, [1; 2; 3; 1]},         [1 2 4], 3,   'any'
  'qrinsert row', @qrinsert,   @qru_qrinsert,   {Q, R, 2, [1 2 1], 'row'},       [1 2 4], 3,   'any'
  'qrdelete',     @qrdelete,   @qru_qrdelete,   {Q, R, 2},                       [1 2], 3,     'any'
  'qrdelete row', @qrdelete,   @qru_qrdelete,   {Q, R, 2, 'row'},                [1 2], 3,     'any'
  'qrshift',      @qrshift,    @qru_qrshift,    {Q, R, 1, 3},                    [1 2], [3 4], 'all'
  'cholupdate',   @cholupdate, @qru_cholupdate, {Rc, [1; 1; 0]},                 [1 2], [],    'any'
  'cholupdate -', @cholupdate, @qru_cholupdate, {Rc, [1; 0; 0], '-'},            [1 2], [],    'any'
  'cholinsert',   @cholinsert, @qru_cholinsert, {Rc, 2, [1; 9; 1; 0]},           [1 3], 2,     'any'
  'choldelete',   @choldelete, @qru_choldelete, {Rc, 2},                         1,     2,     'any'
  'cholshift',    @cholshift,  @qru_cholshift,  {Rc, 1, 3},                      1,     [2 3], 'all'
};
mat_classes = {'double', 'single', 'int32', 'uint8', 'logical', 'char', 'sparse'};
idx_classes = {'double', 'single', 'int32', 'uint8', 'logical', 'char'};
for c = 1:rows(cases)
  [name, fo, fq, args, mats, idx, rule] = cases{c, :};
  for a = [mats, idx]
    if any(a == mats)
      cls = mat_classes;
    else
      cls = idx_classes;
    end
    for k = 1:numel(cls)
      if ~fp64 && ~strcmp(cls{k}, 'single')
        continue;  % double results need a double device
      end
      x = args;
      x{a} = convert(x{a}, cls{k});
      compare(sprintf('%s, argument %d %s', name, a, cls{k}), fo, fq, x, backend);
    end
  end
  x = args;
  single_args = mats;
  if strcmp(rule, 'all')
    single_args = [mats, idx];
  end
  for a = single_args
    x{a} = single(x{a});
  end
  compare(sprintf('%s, all single', name), fo, fq, x, backend);
end
nfail = qru_check('count');
end

function X = convert(X, cls)
if strcmp(cls, 'sparse')
  X = sparse(X);
else
  X = cast(X, cls);
end
end

function compare(what, fo, fq, args, backend)
% the same outcome: an error from both, or results of the same class
[ko, ro] = outcome(fo, args);
[kq, rq] = outcome(fq, [args, {backend}]);
qru_check(strcmp(ko, kq), '%s: Octave %s (%s), qru %s (%s)', what, ko, ro, kq, rq);
end

function [kind, text] = outcome(f, args)
try
  r = f(args{:});
  kind = class(r);
  text = mat2str(size(r));
catch err
  kind = 'error';
  text = strtok(err.message, char(10));
end
end
