function qru_check_factors(what, cls, Q, R, d, A, b, Qo, Ro)
%QRU_CHECK_FACTORS  Checks a QR factorisation Q, R, d of A (and b) made by
%   qru in class cls: sizes and class, backward error, orthogonality, exact
%   zeros below the diagonal, d = Q'*b, and (if Qo, Ro are given) agreement
%   with a reference factorisation up to the signs of R's rows.
[n, m] = size(A);
ep = double(eps(cls));
qru_check(strcmp(class(Q), cls) && strcmp(class(R), cls) && strcmp(class(d), cls), ...
          '%s: output class %s/%s/%s', what, class(Q), class(R), class(d));
if ~(isequal(size(Q), [n n]) && isequal(size(R), [n m]) && isequal(size(d), size(b)))
  qru_check(false, '%s: output sizes Q %dx%d R %dx%d d %dx%d', what, size(Q), size(R), size(d));
  return;
end
Q = double(Q); R = double(R); d = double(d);
berr = norm(A - Q * R, 'fro') / (norm(A, 'fro') * max(n, m) * ep);
oerr = norm(eye(n) - Q' * Q, 'fro') / (n * ep);
derr = norm(d - Q' * b, 'fro') / (max(norm(b, 'fro'), realmin) * n * ep);
qru_check(berr < 30, '%s: backward error %g', what, berr);
qru_check(oerr < 30, '%s: orthogonality %g', what, oerr);
qru_check(all(all(tril(R, -1) == 0)), '%s: R has nonzeros below the diagonal', what);
qru_check(derr < 30, '%s: d = Q''*b error %g', what, derr);
if nargin >= 9
  [eR, eQ] = qru_qrdiff(Q, R, Qo, Ro);
  tol = 30 * max(n, m) * ep * cond(A);
  qru_check(eR < tol && eQ < tol, '%s: differs from the reference: R %g, Q %g (tol %g)', ...
            what, eR, eQ, tol);
end
end
