function qru_expect_error(id, what, fn, varargin)
%QRU_EXPECT_ERROR  Checks that fn(varargin{:}) raises an error with the
%   identifier id (any identifier starting with 'qru:' if id is 'qru:*').
try
  fn(varargin{:});
  qru_check(false, '%s: no error raised (expected %s)', what, id);
catch err
  if strcmp(id, 'qru:*')
    good = strncmp(err.identifier, 'qru:', 4);
  else
    good = strcmp(err.identifier, id);
  end
  qru_check(good, '%s: error "%s" (%s), expected %s', what, err.message, ...
            err.identifier, id);
end
end
