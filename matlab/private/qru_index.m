function [j0, p] = qru_index(fn, i, j, hi, what, range)
%QRU_INDEX  Checks the index argument i of fn: a positive integer j with
%   j <= hi, or (range true) a range j0:j0+p-1 of consecutive increasing
%   integers in 1..hi (qru's block extension); what states the rule.
if ~isnumeric(j) || isempty(j) || ~isvector(j) || any(j ~= fix(j)) || ...
   any(~isfinite(j)) || (~range && numel(j) > 1)
  if range
    qru_arg_error(fn, i, 'index', ...
                  'j is %s, but it must be an integer (or a range j0:j1 of integers)', ...
                  mat2str(j));
  end
  qru_arg_error(fn, i, 'index', 'j is %s, but it must be an integer scalar', mat2str(j));
end
j = double(j(:)');
j0 = j(1);
p = numel(j);
if p > 1 && any(diff(j) ~= 1)
  qru_arg_error(fn, i, 'index', ...
                'j = %s, but a block must be consecutive increasing indices j0:j1', mat2str(j));
end
if j0 < 1 || j(end) > hi
  if p == 1
    qru_arg_error(fn, i, 'index', 'j = %d, but %s', j0, what);
  end
  qru_arg_error(fn, i, 'index', 'j = %d:%d, but %s (for every index)', ...
                j0, j(end), what);
end
end
