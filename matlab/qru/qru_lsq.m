classdef qru_lsq < handle
%QRU_LSQ  A least-squares problem held as an updatable QR factorization.
%   F = qru_lsq(A, b) factorizes A (n x m, n >= m >= 1) with its right-hand
%   sides b (n x r) on a qru backend: F holds Q (n x n), R (n x m) and
%   d = Q'*b in the backend's memory (GPU memory for 'cuda' and 'opencl'),
%   where they stay between calls.  F = qru_lsq(A, b, backend) selects the
%   backend ('cpu', 'cuda', 'opencl', 'auto'; default:
%   getenv('QRU_MEX_BACKEND'), else 'auto').  single A and b compute in
%   single precision.
%
%   The block updates (Andrew 2012, chapter 4), j 1-based:
%     F.add_cols(j, U)       A = [A(:,1:j-1) U A(:,j:end)]
%     F.remove_cols(j, p)    A(:, j:j+p-1) = []
%     F.add_rows(j, U, e)    A = [A(1:j-1,:); U; A(j:end,:)],
%                            b = [b(1:j-1,:); e; b(j:end,:)] (e = 0 if omitted)
%     F.remove_rows(j, p)    A(j:j+p-1, :) = [], b(j:j+p-1, :) = []
%   the rank-k modification (qrupdate), U n x k, V m x k:
%     F.modify(U, V)         A = A + U*V' (b unchanged)
%   and the column shift (qrshift): column i moves to position j
%     F.shift_cols(i, j)     A = A(:, p), p = [1:i-1, i+1:j, i, j+1:m]
%                            (i < j) or [1:j-1, i, j:i-1, i+1:m] (i > j)
%   and
%     [x, res] = F.solve()   x = A \ b, res(k) = norm(A*x(:,k) - b(:,k))
%     [Q, R, d] = F.factors()
%     [n, m] = F.size()
%   The problem must stay overdetermined (n >= m >= 1).  The factorization
%   is freed by delete(F), and when the last reference to F is cleared.
%
%   Example:
%     A = randn(1000, 200); b = randn(1000, 1);
%     F = qru_lsq(A, b);               % factorize once
%     F.add_cols(51, randn(1000, 10)); % 10 new regressors
%     F.remove_rows(1, 100);           % drop the oldest observations
%     x = F.solve();                   % least squares of the new problem
%     delete(F);
%
%   See also qru_lsq_solve, qru_qrinsert, qru_qrdelete, qru_qrupdate.
  properties (SetAccess = private)
    backend = ''   % the backend the factorization lives on
  end
  properties (Access = private)
    h = []         % the MEX handle
  end
  methods
    function F = qru_lsq(A, b, backend)
      if nargin < 2
        error('qru:lsq:nargin', 'qru_lsq: needs A and b (got %d arguments)', nargin);
      end
      if nargin < 3
        backend = getenv('QRU_MEX_BACKEND');
        if isempty(backend)
          backend = 'auto';
        end
      end
      F.h = qru_mex('lsq_new', A, b, backend);
      F.backend = qru_backend(backend);
    end
    function add_cols(F, j, U)
      qru_mex('lsq_update', F.h, 'addcols', j, U);
    end
    function remove_cols(F, j, p)
      qru_mex('lsq_update', F.h, 'removecols', j, p);
    end
    function add_rows(F, j, U, e)
      if nargin < 4
        qru_mex('lsq_update', F.h, 'addrows', j, U);
      else
        qru_mex('lsq_update', F.h, 'addrows', j, U, e);
      end
    end
    function remove_rows(F, j, p)
      qru_mex('lsq_update', F.h, 'removerows', j, p);
    end
    function modify(F, U, V)
      qru_mex('lsq_update', F.h, 'modify', U, V);
    end
    function shift_cols(F, i, j)
      qru_mex('lsq_update', F.h, 'shiftcols', i, j);
    end
    function [x, res] = solve(F)
      if nargout >= 2
        [x, res] = qru_mex('lsq_solve_h', F.h);
      else
        x = qru_mex('lsq_solve_h', F.h);
      end
    end
    function [Q, R, d] = factors(F)
      [Q, R, d] = qru_mex('lsq_get', F.h);
    end
    function [n, m] = size(F)
      [n, m] = qru_mex('lsq_size', F.h);
    end
    function delete(F)
      if ~isempty(F.h)
        qru_mex('lsq_free', F.h);
        F.h = [];
      end
    end
  end
end
