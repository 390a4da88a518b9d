function [Q1, R1] = qru_econ_update(Q, R, econ, what, varargin)
%QRU_ECON_UPDATE  [Q1, R1] = qru_mex(what, Q, R, varargin{:}) on the
%   factors as given: economy ones (econ true: Q n x m, R m x m) are held
%   by the library in its thin form and updated there, and come back as
%   economy factors.  The thin form refuses an update that leaves the
%   result numerically rank-deficient (qru:numerical), which qrinsert and
%   qrdelete allow; such an update runs on the completed (full) factors
%   and its result is cut back to economy shape.
if econ
  try
    [Q1, R1] = qru_mex(what, Q, R, varargin{:});
    return;
  catch err
    if ~strcmp(err.identifier, 'qru:numerical')
      rethrow(err);
    end
  end
  [Q, R] = qru_full_factors(what, Q, R, true);
end
[Q1, R1] = qru_mex(what, Q, R, varargin{:});
[Q1, R1] = qru_result(Q1, R1, econ);
end
