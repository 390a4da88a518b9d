function R = qru_rowsign(R)
%QRU_ROWSIGN  Flips the signs of the rows of the triangular factor R so
%   that its diagonal is nonnegative (QR factors are unique up to these
%   signs for a matrix of full column rank).
k = min(size(R));
s = sign(diag(R(1:k, 1:k)));
s(s == 0) = 1;
R(1:k, :) = diag(s) * R(1:k, :);
end
