function qru_check_econ(what, Q1, R1, A1, Qo, Ro)
%QRU_CHECK_ECON  Q1, R1 (double or single) are an economy factorization of
%   A1 (double) in their precision: sizes (and those of Octave's Qo, Ro
%   unless empty), backward error, orthogonality and exact zeros below the
%   diagonal.
[n, m] = size(A1); k = min(n, m);
ep = double(eps(class(Q1)));
qru_check(isequal(size(Q1), [n k]) && isequal(size(R1), [k m]), '%s: sizes Q %s R %s', ...
          what, mat2str(size(Q1)), mat2str(size(R1)));
if ~isempty(Qo)
  qru_check(isequal(size(Q1), size(Qo)) && isequal(size(R1), size(Ro)), '%s: sizes differ from Octave''s', what);
end
Q1 = double(Q1); R1 = double(R1);
berr = norm(A1 - Q1 * R1, 'fro') / (norm(A1, 'fro') * max(n, m) * ep);
oerr = norm(eye(k) - Q1' * Q1, 'fro') / (n * ep);
qru_check(berr < 30 && oerr < 30 && all(all(tril(R1, -1) == 0)), ...
          '%s: backward error %g, orthogonality %g', what, berr, oerr);
end
