function s = qru_shown(a)
%QRU_SHOWN  An argument's value as the error messages show it: a string
%   in quotes, a real scalar as its value, anything else as its class and
%   size ('a cell of size [1 2]').
if ischar(a) && size(a, 1) <= 1
  s = ['''' a ''''];
elseif (isnumeric(a) || islogical(a)) && isscalar(a) && isreal(a)
  s = mat2str(a);
else
  s = sprintf('a %s of size %s', class(a), mat2str(size(a)));
end
end
