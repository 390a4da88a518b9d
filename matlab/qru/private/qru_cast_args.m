function varargout = qru_cast_args(cls, varargin)
%QRU_CAST_ARGS  The arguments (checked by qru_data_arg) as full matrices
%   of class cls, 'double' or 'single' (from qru_compute_class).
varargout = cellfun(@(X) cast(full(X), cls), varargin, 'UniformOutput', false);
end
