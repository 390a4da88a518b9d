% QRU  QR and Cholesky factorization updates on CPUs and GPUs.
% Version 0.2.0
%
% QR factorization and least squares
%   qru_qr         - QR factorization on the qru backends (blocked Householder QR).
%   qru_lsq_solve  - Least-squares solution through qru's QR factorization.
%   qru_lsq        - A least-squares problem held as an updatable QR factorization.
%                    (forms 'full', 'thin' = qr(A, 0), 'none' = Q-less)
%   qru_lsq_solve and qru_lsq take pages, A n x m x P and b n x r x P (as
%   pagemtimes): P problems in one batched call each, forms 'none' (the
%   default), 'thin' and 'full', through rows and columns added and
%   removed and A + U*V'.
%
% QR updates (MATLAB's and Octave's functions)
%   qru_qrinsert   - Insert columns or rows into a QR factorization (qrinsert).
%   qru_qrdelete   - Delete columns or rows from a QR factorization (qrdelete).
%   qru_qrupdate   - Rank-k update of a QR factorization (qrupdate).
%   qru_qrshift    - Shift a column of a QR factorization (Octave's qrshift).
%
% Cholesky updates
%   qru_cholupdate - Rank-1 (or rank-k) update or downdate of a Cholesky factor.
%   qru_cholinsert - Cholesky factor with a row and column inserted (cholinsert).
%   qru_choldelete - Cholesky factor with a row and column removed (choldelete).
%   qru_cholshift  - Shift a row and column of a Cholesky factor (cholshift).
%   qru_cholupdate, qru_cholinsert and qru_choldelete take pages, R n x n x P
%   (as pagemtimes): P factors in one batched call, p / info P x 1.
%
% Solvers on the updates
%   qru_lsqnonneg  - Non-negative least squares on qru's column updates (lsqnonneg).
%
% Gaussian processes
%   qru_gp         - Gaussian-process regression on an updatable Cholesky factor.
%
% Backends
%   qru_backend    - The backend and device the qru MEX functions run on.
%
% The functions run on a qru backend ('cpu', 'cuda', 'opencl'; a trailing
% argument, default getenv('QRU_MEX_BACKEND'), else 'auto') through the
% MEX gateway qru_mex (source qru_mex.c in this folder; build it with the
% interleaved complex API: mex -R2018a, mkoctfile --mex -R2018a).
%
% Complex data: the QR factorization, least squares, the QR and Cholesky
% updates take complex single and double arrays where the backend does
% (the CPU; qru_backend's fourth output), with ' the conjugate transpose;
% real arguments with complex ones are promoted.  Elsewhere, and in the
% routines without complex data yet (qru_lsqnonneg, qru_gp), the error
% is qru:unsupported.
