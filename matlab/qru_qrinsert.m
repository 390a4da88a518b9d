function [Q1, R1] = qru_qrinsert(Q, R, j, U, orient, varargin)
%QRU_QRINSERT  Insert a block of columns or rows into a QR factorisation.
%   [Q1, R1] = qru_qrinsert(Q, R, j, U, 'col') with A = Q*R (Q n x n, R
%   n x m, n >= m) and U n x p returns the factorisation of
%   [A(:,1:j-1) U A(:,j:m)] (needs n >= m + p).
%   [Q1, R1] = qru_qrinsert(Q, R, j, U, 'row') with U p x m returns the
%   factorisation of [A(1:j-1,:); U; A(j:n,:)].
%   This is MATLAB's qrinsert for a block of p columns (rows) at once,
%   computed by the block updates of Andrew (2012), chapter 4.  A trailing
%   option selects the backend ('cpu', 'cuda', 'opencl', 'auto').
if nargin < 5
  orient = 'col';
end
[Q1, R1] = qru_mex('qrinsert', Q, R, j, U, orient, varargin{:});
end
