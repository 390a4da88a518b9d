function qru_both_fail(what, text, octave_fn, qru_fn, args, backend)
%QRU_BOTH_FAIL  Octave's function octave_fn and qru's qru_fn reject the
%   same input args (qru_fn with the trailing backend); qru's message
%   contains text and its identifier starts with qru:
ok_octave = false;
try
  octave_fn(args{:});
catch
  ok_octave = true;
end
qru_check(ok_octave, '%s: Octave''s function accepted the input', what);
try
  qru_fn(args{:}, backend);
  qru_check(false, '%s: qru accepted the input', what);
catch err
  qru_check(strncmp(err.identifier, 'qru:', 4) && ~isempty(strfind(err.message, text)), ...
            '%s: error "%s" (%s) lacks "%s"', what, err.message, err.identifier, text);
end
end
