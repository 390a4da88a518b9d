function [Q1, R1] = qru_qrdelete(Q, R, j, p, orient, varargin)
%QRU_QRDELETE  Delete a block of columns or rows from a QR factorisation.
%   [Q1, R1] = qru_qrdelete(Q, R, j, p, 'col') with A = Q*R (Q n x n, R
%   n x m) returns the factorisation of A(:, [1:j-1, j+p:m]).
%   [Q1, R1] = qru_qrdelete(Q, R, j, p, 'row') returns the factorisation of
%   A([1:j-1, j+p:n], :) (needs n - p >= m).
%   This is MATLAB's qrdelete for a block of p columns (rows) at once,
%   computed by the block updates of Andrew (2012), chapter 4.  A trailing
%   option selects the backend ('cpu', 'cuda', 'opencl', 'auto').
if nargin < 5
  orient = 'col';
end
[Q1, R1] = qru_mex('qrdelete', Q, R, j, p, orient, varargin{:});
end
