function qru_arg_error(fn, i, kind, fmt, varargin)
%QRU_ARG_ERROR  Raises the error of a bad argument of a qru function: the
%   identifier qru:<fn without qru_>:<kind> and the message
%   '<fn>: argument <i>: <text>', the text naming the argument, its value
%   and the rule it broke, e.g.
%   qru_qrdelete: argument 3: j = 9, but 1 <= j <= 4 must hold (columns of A)
%   For a method, fn is 'class.method' (qru_gp.predict) and the identifier
%   that of the class, qru:gp:<kind>; its arguments are counted after the
%   object.
id = sprintf('qru:%s:%s', regexprep(fn, '^qru_|\..*$', ''), kind);
error(id, '%s: argument %d: %s', fn, i, sprintf(fmt, varargin{:}));
end
