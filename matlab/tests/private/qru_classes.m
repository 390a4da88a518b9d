function classes = qru_classes(backend)
%QRU_CLASSES  The classes a test runs on the backend: {'double', 'single'}
%   where the device computes in double, else {'single'}.
[~, ~, fp64] = qru_backend(backend);
classes = {'single'};
if fp64
  classes = {'double', 'single'};
end
end
