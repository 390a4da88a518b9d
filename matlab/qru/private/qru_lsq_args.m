function [q, backend] = qru_lsq_args(fn, args, pages)
%QRU_LSQ_ARGS  The arguments of qru_lsq and qru_lsq_solve after A and b
%   (args, from argument 3): the option 'q', the form the factorization is
%   held in ('full', the default, 'thin' or 'none', any case), and a
%   backend.  With pages true (A n x m x P) the default is 'none'.
if nargin < 3
  pages = false;
end
defaults = {'full', 'none'};
[o, backend, at] = qru_options(fn, 3, args, struct('q', defaults{1 + pages}));
q = o.q;
if ~ischar(q) || ~any(strcmpi(q, {'full', 'thin', 'none'}))
  qru_arg_error(fn, at.q, 'q', ...
                'q is %s, but it must be ''full'' (qr(A)), ''thin'' (qr(A, 0)) or ''none'' (Q-less)', ...
                qru_shown(q));
end
q = lower(q);
end
