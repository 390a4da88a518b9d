function [Q, R] = qru_octave_update(Q, R, what, j, X)
%QRU_OCTAVE_UPDATE  The block update 'what' done by the built-in qrinsert
%   and qrdelete one column/row at a time (works in MATLAB and Octave):
%   'addcols' (X = U, n x p), 'removecols' (X = p), 'addrows' (X = U,
%   p x m), 'removerows' (X = p); j is 1-based.
switch what
  case 'addcols'
    for i = 1:size(X, 2)
      [Q, R] = qrinsert(Q, R, j + i - 1, X(:, i), 'col');
    end
  case 'removecols'
    for i = 1:X
      [Q, R] = qrdelete(Q, R, j, 'col');
    end
  case 'addrows'
    for i = 1:size(X, 1)
      [Q, R] = qrinsert(Q, R, j + i - 1, X(i, :), 'row');
    end
  case 'removerows'
    for i = 1:X
      [Q, R] = qrdelete(Q, R, j, 'row');
    end
  otherwise
    error('qru_octave_update: unknown update %s', what);
end
end
