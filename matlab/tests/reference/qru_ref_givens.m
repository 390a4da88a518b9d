function [c, s, r] = qru_ref_givens(a, b)
%QRU_REF_GIVENS  Givens rotation that zeros the second of two numbers.
%   [c, s, r] = qru_ref_givens(a, b) returns c, s with c^2 + s^2 = 1 and
%       G = [c s; -s c],   G * [a; b] = [r; 0].
%   Applied to rows i-1, i of a matrix M:   M([i-1 i],:) = G * M([i-1 i],:)
%   and to the matching columns of Q:       Q(:,[i-1 i]) = Q(:,[i-1 i]) * G'
%   so that Q*M is unchanged.  (makeGivens, Andrew 2012, section 3.2.)
if b == 0
  c = ones(1, class(a)); s = zeros(1, class(a)); r = a;
  return;
end
r = hypot(a, b);
c = a / r;
s = b / r;
end
