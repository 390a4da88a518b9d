function qru_lsq_update(varargin)
%QRU_LSQ_UPDATE  Block update of a factorisation made by qru_lsq_new.
%   qru_lsq_update(h, addcols, j, U)      A = [A(:,1:j-1) U A(:,j:end)]
%   qru_lsq_update(h, removecols, j, p)   A(:, j:j+p-1) = []
%   qru_lsq_update(h, addrows, j, U, e)   A = [A(1:j-1,:); U; A(j:end,:)],
%                                           b = [b(1:j-1,:); e; b(j:end,:)]
%                                           (e = zeros if not given)
%   qru_lsq_update(h, removerows, j, p)   A(j:j+p-1,:) = [], b(j:j+p-1,:) = []
%   j is 1-based; the factorisation of the new A stays behind h.  The
%   problem must stay overdetermined (rows >= columns >= 1).  The updates
%   are the block algorithms of Andrew (2012), chapter 4.
qru_mex('lsq_update', varargin{:});
end
