function [orient, backend] = qru_trailing(fn, first, args, orients)
%QRU_TRAILING  The optional trailing arguments of a qru function: an
%   orientation (one of the cell array orients, the first being the
%   default; {} when the function has none) and a backend ('cpu', 'cuda',
%   'opencl' or 'auto'; default: getenv('QRU_MEX_BACKEND'), else 'auto'),
%   in this order, each optional.  first is the argument number of args{1}.
backends = {'cpu', 'cuda', 'opencl', 'auto'};
orient = '';
if ~isempty(orients)
  orient = orients{1};
end
backend = '';
k = 1;
if k <= numel(args) && ~isempty(orients) && ischar(args{k}) && ...
   any(strcmpi(args{k}, orients))
  orient = lower(args{k});
  k = k + 1;
end
if k <= numel(args) && ischar(args{k}) && any(strcmpi(args{k}, backends))
  backend = lower(args{k});
  k = k + 1;
end
if k <= numel(args)
  a = args{k};
  shown = qru_shown(a);
  if ~isempty(orients) && k == 1
    qru_arg_error(fn, first + k - 1, 'orient', ...
                  '%s, but it must be %s or a backend (''cpu'', ''cuda'', ''opencl'', ''auto'')', ...
                  shown, strjoin(strcat('''', orients, ''''), ' or '));
  end
  qru_arg_error(fn, first + k - 1, 'backend', ...
                '%s, but it must be a backend: ''cpu'', ''cuda'', ''opencl'' or ''auto''', shown);
end
if isempty(backend)
  backend = getenv('QRU_MEX_BACKEND');
  if isempty(backend)
    backend = 'auto';
  end
end
end
