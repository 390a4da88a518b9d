function qru_data_arg(fn, i, name, X, real_only)
%QRU_DATA_ARG  Argument i of the update function fn, called name, must be
%   a numeric matrix as Octave's update functions take it: double, single
%   or an integer class (which computes in double), full or sparse, real
%   or complex (complex data computes in the complex type, on a backend
%   that supports it).  Logical and char arrays are refused, as Octave
%   refuses them; with real_only (default false) complex data is refused
%   too (qru_lsqnonneg).  qru_cast_args converts the accepted ones.
if ~isnumeric(X) || ~ismatrix(X)
  qru_arg_error(fn, i, name, ['%s is a %s of size %s, but it must be a numeric ' ...
                'matrix (double, single or an integer class)'], name, class(X), mat2str(size(X)));
elseif nargin >= 5 && real_only && ~isreal(X)
  qru_arg_error(fn, i, name, '%s is complex, but %s computes in real arithmetic', name, fn);
end
end
