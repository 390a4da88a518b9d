function [Q1, R1] = qru_econ_update(Q, R, econ, what, varargin)
%QRU_ECON_UPDATE  [Q1, R1] = qru_mex(what, Q, R, varargin{:}) on the
%   factors as given: economy ones (econ true: Q n x m, R m x m) are held
%   by the library in its thin form and updated there, and come back as
%   economy factors.  The MEX file accepts rank-deficient results
%   (QRU_RANK_ACCEPT), but the thin form still refuses two of them
%   (qru:numerical), which qrinsert and qrdelete allow: added columns in
%   the span of Q (their new column of Q1 cannot be formed from the data)
%   and a row removal that loses rank.  Such an update runs on the
%   completed (full) factors and its result is cut back to economy shape:
%   Q1 n x m1 with orthonormal columns, R1 singular.
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
