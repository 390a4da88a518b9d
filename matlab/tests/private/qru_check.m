function ok = qru_check(cond, fmt, varargin)
%QRU_CHECK  Records one check of a test: prints FAIL and counts it if cond
%   is false.  qru_check('reset') starts counting, n = qru_check('count')
%   returns the number of failed checks.
persistent nfail nchecks
if isempty(nfail)
  nfail = 0; nchecks = 0;
end
if ischar(cond)
  if strcmp(cond, 'reset')
    nfail = 0; nchecks = 0; ok = 0;
  else
    ok = nfail;
    fprintf('  %d checks, %d failed\n', nchecks, nfail);
  end
  return;
end
nchecks = nchecks + 1;
ok = all(cond(:));
if ~ok
  nfail = nfail + 1;
  fprintf('FAIL: %s\n', sprintf(fmt, varargin{:}));
end
end
