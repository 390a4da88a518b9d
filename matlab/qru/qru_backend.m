function varargout = qru_backend(varargin)
%QRU_BACKEND  The backend and device the qru MEX functions run on.
%   [name, device, fp64] = qru_backend() for the default backend,
%   [name, device, fp64] = qru_backend(b) for b = 'cpu', 'cuda', 'opencl'
%   or 'auto'; fp64 is 1 if the device computes in double precision.
%   Raises qru:library if the backend cannot be used here.
[varargout{1:max(nargout, 1)}] = qru_mex('backend', varargin{:});
end
