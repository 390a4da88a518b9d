function qru_lsq_free(varargin)
%QRU_LSQ_FREE  Frees a factorisation made by qru_lsq_new.
%   qru_lsq_free(h); the handle is invalid afterwards.
qru_mex('lsq_free', varargin{:});
end
