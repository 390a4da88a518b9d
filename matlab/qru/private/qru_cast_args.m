function varargout = qru_cast_args(cls, varargin)
%QRU_CAST_ARGS  The arguments (checked by qru_data_arg) as full matrices
%   of class cls, 'double' or 'single' (from qru_compute_class); those
%   that already are pass through without a call of cast.
varargout = varargin;
for i = 1:numel(varargin)
  X = varargin{i};
  if issparse(X) || ~isa(X, cls)
    varargout{i} = cast(full(X), cls);
  end
end
end
