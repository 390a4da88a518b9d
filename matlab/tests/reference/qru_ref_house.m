function [v, tau, beta] = qru_ref_house(alpha, x)
%QRU_REF_HOUSE  Householder reflector (LAPACK larfg conventions).
%   [v, tau, beta] = qru_ref_house(alpha, x) returns the tail v of the
%   vector u = [1; v] and the scalar tau such that
%       (eye(1+numel(x)) - tau*u*u') * [alpha; x] = [beta; zeros(size(x))].
%   If x is zero, tau = 0 and the reflector is the identity.
%
%   This is the houseKernel of Andrew (2012), section 3.1, written as the
%   executable specification that the qru backends implement.
x = x(:);
xnorm = norm(x);
if xnorm == 0
  v = zeros(size(x), class(x));
  tau = zeros(1, class(x));
  beta = alpha;
  return;
end
beta = -sign_nonzero(alpha) * hypot(alpha, xnorm);
tau = (beta - alpha) / beta;
v = x / (alpha - beta);
end

function s = sign_nonzero(a)
% sign(a) with sign(0) = 1
if a < 0
  s = -1;
else
  s = 1;
end
end
