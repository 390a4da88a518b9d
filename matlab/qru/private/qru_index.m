function [j0, p] = qru_index(fn, i, j, hi, what, range, name)
%QRU_INDEX  Checks the index argument i of fn, called name (default 'j'):
%   a positive integer j with j <= hi, or (range true) a range j0:j0+p-1
%   of consecutive increasing integers in 1..hi (qru's block extension);
%   what states the rule.  Any numeric class or logical holds it, as
%   Octave's update functions take their indices (char does not); unlike
%   Octave, a value that is not an integer is refused, not truncated.
if nargin < 7
  name = 'j';
end
if ~(isnumeric(j) || islogical(j)) || isempty(j) || ~isvector(j) || ...
   ~isreal(j) || any(j ~= fix(j)) || any(~isfinite(j)) || (~range && numel(j) > 1)
  if ischar(j)
    shown = [ j ];
  elseif isnumeric(j) || islogical(j)
    shown = mat2str(j);
  else
    shown = sprintf('a %s of size %s', class(j), mat2str(size(j)));
  end
  if range
    qru_arg_error(fn, i, 'index', ...
                  '%s is %s, but it must be an integer (or a range %s0:%s1 of integers)', ...
                  name, shown, name, name);
  end
  qru_arg_error(fn, i, 'index', '%s is %s, but it must be an integer scalar', name, shown);
end
j = double(j(:)');
j0 = j(1);
p = numel(j);
if p > 1 && any(diff(j) ~= 1)
  qru_arg_error(fn, i, 'index', ...
                '%s = %s, but a block must be consecutive increasing indices %s0:%s1', ...
                name, mat2str(j), name, name);
end
if j0 < 1 || j(end) > hi
  if p == 1
    qru_arg_error(fn, i, 'index', '%s = %d, but %s', name, j0, what);
  end
  qru_arg_error(fn, i, 'index', '%s = %d:%d, but %s (for every index)', ...
                name, j0, j(end), what);
end
end
