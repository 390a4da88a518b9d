function varargout = qru_backend(varargin)
%QRU_BACKEND  The backend and device the qru MEX functions run on.
%   [name, device, fp64, cplx] = qru_backend() for the default backend,
%   [name, device, fp64, cplx] = qru_backend(b) for b = 'cpu', 'cuda',
%   'opencl' or 'auto'; fp64 is 1 if the device computes in double
%   precision, cplx 1 if the backend takes complex data (the QR
%   factorization, least squares, the QR and Cholesky updates; the CPU
%   backend, with a MEX file built with the interleaved complex API).
%   Raises qru:library if the backend cannot be used here.
[varargout{1:max(nargout, 1)}] = qru_mex('backend', varargin{:});
end
