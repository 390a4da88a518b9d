function [eR, eQ] = qru_qrdiff(Q1, R1, Q2, R2)
%QRU_QRDIFF  Distance between two QR factorisations of the same n x m
%   matrix of full column rank, up to the signs of R's rows (for complex
%   data their phases): relative Frobenius differences of R and of the
%   first min(n,m) columns of Q (the rest of a full Q is not unique).  Each
%   factorisation is normalised to a positive real diagonal of R:
%   diag(s')*R and Q*diag(s), s the signs (phases) of R's diagonal.
k = min(size(R1));
s1 = sign(diag(R1(1:k, 1:k))); s1(s1 == 0) = 1;
s2 = sign(diag(R2(1:k, 1:k))); s2(s2 == 0) = 1;
eR = norm(double(diag(conj(s1)) * R1(1:k, :) - diag(conj(s2)) * R2(1:k, :)), 'fro') / ...
     max(norm(double(R2), 'fro'), realmin);
eQ = norm(double(Q1(:, 1:k) * diag(s1) - Q2(:, 1:k) * diag(s2)), 'fro') / sqrt(k);
end
