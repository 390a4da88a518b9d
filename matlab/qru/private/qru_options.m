function [opts, backend, at] = qru_options(fn, first, args, opts)
%QRU_OPTIONS  The optional trailing arguments of a qru function that takes
%   name-value options: pairs name, value, the names those of the fields of
%   the struct opts (the defaults; matched case-insensitively), then a
%   backend as the last argument (qru_trailing: 'cpu', 'cuda', 'opencl' or
%   'auto'; default getenv('QRU_MEX_BACKEND'), else 'auto'), each optional.
%   first is the argument number of args{1}.  The values come back as given
%   (the caller checks them), and at.<name> is the argument number of the
%   value of each option given (0 for a default).
names = fieldnames(opts);
at = cell2struct(num2cell(zeros(numel(names), 1)), names, 1);
k = 1;
while k <= numel(args) && ischar(args{k}) && any(strcmpi(args{k}, names))
  if k == numel(args)
    qru_arg_error(fn, first + k - 1, 'option', 'option ''%s'' has no value', args{k});
  end
  name = names{strcmpi(args{k}, names)};
  opts.(name) = args{k + 1};
  at.(name) = first + k;
  k = k + 2;
end
if k < numel(args)
  a = args{k};
  shown = qru_shown(a);
  qru_arg_error(fn, first + k - 1, 'option', ...
                '%s, but it must be an option name (%s) or, last, a backend', ...
                shown, strjoin(strcat('''', names', ''''), ', '));
end
[~, backend] = qru_trailing(fn, first + k - 1, args(k:end), {});
end
