function cls = qru_compute_class(all_single, varargin)
%QRU_COMPUTE_CLASS  The class an update function computes in and returns,
%   by Octave's rules: 'single' when any of the arguments given is single
%   (all_single false: qrupdate, qrinsert, qrdelete, cholupdate,
%   cholinsert and choldelete with their matrix arguments) or when all of
%   them are (all_single true: qrshift with Q and R, cholshift with R, i
%   and j), else 'double' (integer arguments compute in double).
s = cellfun('isclass', varargin, 'single');
if (all_single && all(s)) || (~all_single && any(s))
  cls = 'single';
else
  cls = 'double';
end
end
