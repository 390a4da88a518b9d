function nfail = test_reference()
%TEST_REFERENCE  The reference scripts of the four block updates
%   (reference/qru_ref_*.m, written from Andrew 2012, chapter 4) against
%   the built-in qrinsert/qrdelete and against qr of the updated matrix.
%   Needs no MEX file.
qru_check('reset');
here = fileparts(mfilename('fullpath'));
addpath(fullfile(here, 'reference'));
rand('seed', 3); randn('seed', 3);
for sz = [20 8; 9 4; 12 12]'
  n = sz(1); m = sz(2); r = 2;
  A = randn(n, m); b = randn(n, r);
  [Q, R] = qr(A); d = Q' * b;
  % adding columns (needs n >= m + p)
  for p = [1 3]
    if n < m + p, continue; end
    for j = unique([1, 3, m + 1])
      U = randn(n, p);
      [Q1, R1, d1] = qru_ref_add_cols(Q, R, d, U, j);
      [A1, b1] = qru_apply_update(A, b, 'addcols', j, U, []);
      [Qo, Ro] = qru_octave_update(Q, R, 'addcols', j, U);
      qru_check_factors(sprintf('ref add_cols %dx%d j=%d p=%d', n, m, j, p), 'double', ...
                        Q1, R1, d1, A1, b1, Qo, Ro);
    end
  end
  % removing columns
  for p = [1 3]
    if p >= m, continue; end
    for j = unique([1, 2, m - p + 1])
      [Q1, R1, d1] = qru_ref_remove_cols(Q, R, d, j, p);
      [A1, b1] = qru_apply_update(A, b, 'removecols', j, p, []);
      [Qo, Ro] = qru_octave_update(Q, R, 'removecols', j, p);
      qru_check_factors(sprintf('ref remove_cols %dx%d j=%d p=%d', n, m, j, p), 'double', ...
                        Q1, R1, d1, A1, b1, Qo, Ro);
      [Qx, R2, d2] = qru_ref_remove_cols([], R, d, j, p);
      qru_check(isempty(Qx) && isequal(R2, R1) && isequal(d2, d1), ...
                'ref remove_cols without Q differs');
    end
  end
  % adding rows, several block sizes
  for p = [1 4]
    for j = unique([1, 5, n + 1])
      for nb = [1 3 32]
        U = randn(p, m); e = randn(p, r);
        [Q1, R1, d1] = qru_ref_add_rows(Q, R, d, U, e, j, nb);
        [A1, b1] = qru_apply_update(A, b, 'addrows', j, U, e);
        [Qo, Ro] = qru_octave_update(Q, R, 'addrows', j, U);
        qru_check_factors(sprintf('ref add_rows %dx%d j=%d p=%d nb=%d', n, m, j, p, nb), ...
                          'double', Q1, R1, d1, A1, b1, Qo, Ro);
      end
    end
  end
  % removing rows (needs n - p >= m)
  for p = [1 4]
    if n - p < m, continue; end
    for j = unique([1, 4, n - p + 1])
      [Q1, R1, d1] = qru_ref_remove_rows(Q, R, d, j, p);
      [A1, b1] = qru_apply_update(A, b, 'removerows', j, p, []);
      [Qo, Ro] = qru_octave_update(Q, R, 'removerows', j, p);
      qru_check_factors(sprintf('ref remove_rows %dx%d j=%d p=%d', n, m, j, p), 'double', ...
                        Q1, R1, d1, A1, b1, Qo, Ro);
    end
  end
end
% the reference scripts reject bad positions
qru_expect_error_any('ref add_cols j = m+2', @qru_ref_add_cols, Q, R, d, randn(rows(R), 1), columns(R) + 2);
qru_expect_error_any('ref remove_rows p too big', @qru_ref_remove_rows, Q, R, d, 1, rows(R) + 1);
nfail = qru_check('count');
end

function qru_expect_error_any(what, fn, varargin)
try
  fn(varargin{:});
  qru_check(false, '%s: no error raised', what);
catch
  qru_check(true, '');
end
end
