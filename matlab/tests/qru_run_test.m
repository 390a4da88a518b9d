function qru_run_test(name, backend)
%QRU_RUN_TEST  Runs one test_*.m of qru's MATLAB interface and exits Octave.
%   qru_run_test('test_qr', 'cpu') runs test_qr('cpu') and exits with
%   status 0 when every check passed, 1 when one failed or an unexpected
%   error occurred, and 77 (skipped) when the backend cannot be used here.
%   backend '' runs a test that needs no MEX file (test_reference).
%   Used by the CTest tests matlab/<backend>/<name>; from a MATLAB prompt,
%   call the test function itself: nfail = test_qr('cpu').
status = 1;
try
  if ~isempty(backend)
    setenv('QRU_MEX_BACKEND', backend);
    try
      [bname, dev] = qru_backend(backend);
      fprintf('%s: backend %s, device %s\n', name, bname, dev);
    catch err
      fprintf('SKIP: %s: %s\n', backend, err.message);
      exit(77);
    end
    nfail = feval(name, backend);
  else
    nfail = feval(name);
  end
  if nfail == 0
    fprintf('%s: all checks passed\n', name);
    status = 0;
  elseif nfail < 0
    status = 77;  % the test printed its SKIP reason
  else
    fprintf('%s: %d checks FAILED\n', name, nfail);
  end
catch err
  fprintf('%s: unexpected error: %s (%s)\n', name, err.message, err.identifier);
  for k = 1:numel(err.stack)
    fprintf('  at %s line %d\n', err.stack(k).name, err.stack(k).line);
  end
end
exit(status);
end
