function A = qru_cast_like(A, varargin)
%QRU_CAST_LIKE  A as single if any of the other arguments is single
%   (MATLAB's rule for mixed single and double inputs), else as it is.
if any(cellfun(@(a) isa(a, 'single'), varargin))
  A = single(A);
end
end
