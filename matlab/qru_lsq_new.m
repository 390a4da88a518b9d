function varargout = qru_lsq_new(varargin)
%QRU_LSQ_NEW  Least-squares problem held as an updatable QR factorisation.
%   h = qru_lsq_new(A, b) factorises A (n x m, n >= m >= 1) and b (n x r)
%   on a qru backend and returns a handle to the factorisation, which stays
%   in the backends memory (GPU memory for cuda and opencl) between
%   calls.  h = qru_lsq_new(A, b, backend) selects the backend.
%   Update it with qru_lsq_update, read it with qru_lsq_get, solve it with
%   qru_lsq_solve(h) and free it with qru_lsq_free(h).
%
%   Example:
%     h = qru_lsq_new(A, b);
%     qru_lsq_update(h, addcols, 3, U);   % A = [A(:,1:2) U A(:,3:end)]
%     qru_lsq_update(h, removerows, 1, 5); % A(1:5,:) = [], b(1:5,:) = []
%     x = qru_lsq_solve(h);                   % x = A \ b of the updated A, b
%     qru_lsq_free(h);
[varargout{1:max(nargout, 1)}] = qru_mex('lsq_new', varargin{:});
end
