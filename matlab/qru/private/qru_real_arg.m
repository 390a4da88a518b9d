function qru_real_arg(fn, i, name, X, cplx)
%QRU_REAL_ARG  Argument i of fn, called name, must be a real full numeric
%   (double or single) matrix; with cplx true (default false) a complex one
%   is taken too (qru_qr).  Otherwise the error says what it is.
if ~isnumeric(X) || ~ismatrix(X)
  qru_arg_error(fn, i, name, '%s is a %s of size %s, but it must be a numeric matrix', ...
                name, class(X), mat2str(size(X)));
elseif ~isa(X, 'double') && ~isa(X, 'single')
  qru_arg_error(fn, i, name, '%s is %s, but it must be double or single', name, class(X));
elseif ~isreal(X) && ~(nargin >= 5 && cplx)
  qru_arg_error(fn, i, name, '%s is complex, but %s computes in real arithmetic', name, fn);
elseif issparse(X)
  qru_arg_error(fn, i, name, '%s is sparse; pass full(%s)', name, name);
end
end
