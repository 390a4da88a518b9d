"""Arrays in and out: the conversion rules of the package (docs/python.md).

Every public function sends its array arguments through :func:`prepare`,
which picks the producer's framework, the element type, the backend
context (one per backend, device and stream, cached) and a column-major
form of each array that the module ``_qru`` wraps without copying.  The
rules:

* Producers: NumPy (and anything ``numpy.asarray`` takes), CuPy, PyTorch
  and JAX arrays.  All arrays of one call come from one framework and lie
  on one device.
* Element type: float32 stays float32 when every array is float32;
  otherwise the call computes in float64 (integers, booleans and other
  real floats are converted).  Complex and non-numeric arrays raise
  TypeError.  The QR functions take SciPy's rule instead
  (``same_dtype``): all float32, all float64, all complex64 or all
  complex128, ValueError otherwise; the complex types on a backend that
  computes in them (every backend; OpenCL's complex128 with fp64;
  TypeError naming the backend elsewhere).  The Cholesky functions take
  complex arrays too (``allow_complex``): with a complex array among the
  arguments the call computes in complex64 when every array is float32
  or complex64, else in complex128 (NumPy's promotion), on every
  backend.
* Layout: a column-major array (Fortran-contiguous, or columns with unit
  stride and any leading dimension) is used in place; any other layout
  (C order, strided views, negative strides) is copied to column-major
  order by the producer's framework, on its device and stream.
* Device and backend: host arrays go to ``backend='cpu'`` unless another
  backend is named (a device backend then copies them to the device and
  the results back); CUDA arrays go to ``backend='cuda'`` on their own
  device, without copies.  The CUDA context adopts the producer's current
  stream (``stream=`` overrides it; the legacy default stream 0 is passed
  as ``cudaStreamLegacy``), so qru's kernels queue behind the producer's
  work and no host synchronisation is added.
* Results are arrays of the producer's framework on the same device
  (JAX results are JAX arrays, made through DLPack from CuPy or PyTorch,
  whichever is installed).
"""
from __future__ import annotations

import numpy as np

from . import _qru

#: cudaStreamLegacy: what the legacy default stream (0) becomes, since a
#: NULL stream in qru_context_options means "create one".
LEGACY_STREAM = 1

_contexts: dict = {}


def context(backend: str, device: int = -1, stream: int = 0):
    """The cached qru context of (backend, device, stream)."""
    key = (backend, device, stream)
    ctx = _contexts.get(key)
    if ctx is None:
        ctx = _contexts[key] = _qru.context(backend, device, stream)
    return ctx


def colmajor(shape, strides):
    """True for a layout qru wraps as it is: 2-D with unit row stride and a
    column stride (the leading dimension) >= the rows, in elements (a
    length-1 dimension's stride does not matter), or 1-D contiguous."""
    if len(shape) == 1:
        return shape[0] <= 1 or strides[0] == 1
    r, c = shape
    return (r <= 1 or strides[0] == 1) and (c <= 1 or strides[1] >= r)


def _as_is(x):
    """colmajor() for a NumPy or CuPy array (strides in bytes)."""
    if x.flags.f_contiguous:
        return True
    st = x.strides
    return x.ndim <= 2 and all(s > 0 and s % x.itemsize == 0 for s in st) \
        and colmajor(x.shape, [s // x.itemsize for s in st])


class _NumPy:
    name = "numpy"
    device = None

    @staticmethod
    def kind(x):
        return _np_kind(x.dtype)

    @staticmethod
    def convert(x, dt):
        x = np.asarray(x)
        if x.dtype == dt and _as_is(x):
            return x
        return np.asfortranarray(x, dtype=dt)

    @staticmethod
    def copy(x):
        # empty + copyto: a plain copy loop (np.array(x, order="F") is
        # several times slower on large column-major arrays)
        y = np.empty(x.shape, dtype=x.dtype, order="F")
        np.copyto(y, x)
        return y

    @staticmethod
    def reshape2(x, shape):
        return x.reshape(shape, order="F")

    @staticmethod
    def zeros(shape, dt, order="F"):
        return np.zeros(shape, dt, order=order)

    @staticmethod
    def from_host(a):
        """a (a NumPy array) as an array of the framework, on its device."""
        return a

    @staticmethod
    def back(x):
        """x (an array made by convert or copy) as the producer's array."""
        return x

    @staticmethod
    def fresh(orig, conv):
        """True if conv (orig converted) is a new buffer."""
        return not (isinstance(orig, np.ndarray) and
                    np.may_share_memory(orig, conv))

    @staticmethod
    def wrap(r, tri=None):
        return r  # host results come back with the triangle cleared

    @staticmethod
    def stream(device):
        return 0

    @staticmethod
    def exact(x):
        return _exact_np(x.dtype)

    @staticmethod
    def eligible(x, dt, layout):
        """True if x is an array of dtype dt (native byte order) whose
        buffer SciPy's qr functions would overwrite: writable, aligned,
        strides positive multiples of the element size, and the layout
        'any' (that alone), 'seg' (C or Fortran order) or 'F'."""
        if not isinstance(x, np.ndarray) or x.dtype != np.dtype(dt):
            return False
        f = x.flags
        if not (f.writeable and f.aligned) or \
                any(s <= 0 or s % x.itemsize for s in x.strides):
            return False
        return layout == "any" or bool(f.f_contiguous) or \
            (layout == "seg" and bool(f.c_contiguous))

    @staticmethod
    def assign(dst, src):
        dst[...] = src

    @staticmethod
    def finite(x):
        return bool(np.isfinite(x).all())


class _CuPy:
    name = "cupy"
    kind = staticmethod(_NumPy.kind)

    def __init__(self, x):
        import cupy
        self.xp = cupy
        self.device = x.device.id

    def convert(self, x, dt):
        x = x.astype(dt, copy=False)
        return x if _as_is(x) else self.xp.asfortranarray(x)

    def copy(self, x):
        return self.xp.array(x, order="F", copy=True)

    def reshape2(self, x, shape):
        return x.reshape(shape, order="F")

    def fresh(self, orig, conv):
        return orig.data.ptr != conv.data.ptr

    back = staticmethod(_NumPy.back)

    def zeros(self, shape, dt, order="F"):
        with self.xp.cuda.Device(self.device):
            return self.xp.zeros(shape, dt, order=order)

    def from_host(self, a):
        with self.xp.cuda.Device(self.device):
            return self.xp.asarray(a)

    def wrap(self, r, tri=None):
        x = self.xp.from_dlpack(r)
        if tri:
            x[...] = self.xp.tril(x) if tri == "L" else self.xp.triu(x)
        return x

    def stream(self, device):
        try:
            return self.xp.cuda.get_current_stream(device).ptr
        except TypeError:  # a CuPy whose get_current_stream takes no device
            with self.xp.cuda.Device(device):
                return self.xp.cuda.get_current_stream().ptr

    exact = staticmethod(_NumPy.exact)

    def eligible(self, x, dt, layout):
        if not isinstance(x, self.xp.ndarray) or x.dtype != np.dtype(dt) \
                or any(s <= 0 or s % x.itemsize for s in x.strides):
            return False
        return layout == "any" or bool(x.flags.f_contiguous) or \
            (layout == "seg" and bool(x.flags.c_contiguous))

    assign = staticmethod(_NumPy.assign)

    def finite(self, x):
        return bool(self.xp.isfinite(x).all())


class _Torch:
    name = "torch"

    def kind(self, x):
        d = x.dtype
        if d.is_complex:
            return "c", False
        return ("f" if d.is_floating_point else "i"), d == self.torch.float32

    def __init__(self, x):
        import torch
        self.torch = torch
        self.device = x.device.index if x.device.type == "cuda" else None
        self.tdev = x.device

    def tdtype(self, dt):
        """The torch dtype of the NumPy scalar type dt."""
        t = self.torch
        return {np.float32: t.float32, np.complex64: t.complex64,
                np.complex128: t.complex128}.get(dt, t.float64)

    def convert(self, x, dt):
        x = x.detach().to(dtype=self.tdtype(dt))
        if x.dim() == 2 and not colmajor(x.shape, x.stride()):
            x = x.t().contiguous().t()
        elif x.dim() == 1 and not colmajor(x.shape, x.stride()):
            x = x.contiguous()
        return x

    def copy(self, x):
        return x.t().clone(memory_format=self.torch.contiguous_format).t()

    def reshape2(self, x, shape):
        if x.dim() == 1:
            return x.unsqueeze(1) if shape[1] == 1 else x.unsqueeze(0)
        return x.reshape(shape)

    def fresh(self, orig, conv):
        return orig.data_ptr() != conv.data_ptr()

    back = staticmethod(_NumPy.back)

    def zeros(self, shape, dt, order="F"):
        t = self.torch
        dt = self.tdtype(dt)
        if order == "C":
            return t.zeros(shape, device=self.tdev, dtype=dt)
        # column-major: the reversed shape, its dimensions reversed
        return t.zeros(tuple(shape)[::-1], device=self.tdev,
                       dtype=dt).permute(*range(len(shape) - 1, -1, -1))

    def from_host(self, a):
        return self.torch.from_numpy(a).to(self.tdev)

    def wrap(self, r, tri=None):
        if self.device is None:
            return self.torch.from_numpy(r)
        x = self.torch.from_dlpack(r)
        if tri:
            x.tril_() if tri == "L" else x.triu_()
        return x

    def stream(self, device):
        return self.torch.cuda.current_stream(device).cuda_stream

    def exact(self, x):
        t = self.torch
        return {t.float32: np.float32, t.float64: np.float64,
                t.complex64: np.complex64,
                t.complex128: np.complex128}.get(x.dtype)

    def eligible(self, x, dt, layout):
        t = self.torch
        if not isinstance(x, t.Tensor) or x.requires_grad or \
                x.dtype != self.tdtype(dt) or \
                any(s <= 0 for s in x.stride()):
            return False
        f = x.t().is_contiguous() if x.dim() == 2 else x.is_contiguous()
        return layout == "any" or f or (layout == "seg" and x.is_contiguous())

    @staticmethod
    def assign(dst, src):
        dst.copy_(src)

    def finite(self, x):
        return bool(self.torch.isfinite(x).all())


class _Jax:
    """JAX arrays go through CuPy or PyTorch (DLPack, no copy), which make
    the column-major copies JAX's row-major arrays need; results come back
    as JAX arrays through DLPack (C order)."""
    name = "jax"
    kind = staticmethod(_NumPy.kind)

    def __init__(self, x):
        import jax
        self.jax = jax
        dev = next(iter(x.devices()))
        self.on_gpu = dev.platform == "gpu"
        self.device = dev.id if self.on_gpu else None
        if not self.on_gpu:
            self.inner = _NumPy
            return
        try:
            import cupy
            self.inner = _CuPy(cupy.from_dlpack(x))
            self._view = cupy.from_dlpack
        except ImportError:
            import torch
            self._view = torch.from_dlpack
            self.inner = _Torch(torch.from_dlpack(x))

    def view(self, x):
        if not self.on_gpu:
            return np.asarray(x)
        return self._view(x)

    def convert(self, x, dt):
        return self.inner.convert(self.view(x), dt)

    def copy(self, x):
        return self.inner.copy(x)

    def reshape2(self, x, shape):
        return self.inner.reshape2(x, shape)

    def zeros(self, shape, dt, order="F"):
        return self.inner.zeros(shape, dt, order)

    def from_host(self, a):
        return self.back(self.inner.from_host(a))

    def fresh(self, orig, conv):
        return False  # JAX arrays are immutable: always work on a copy

    def wrap(self, r, tri=None):
        return self.back(self.inner.wrap(r, tri))

    def back(self, r):
        if not self.on_gpu:
            return self.jax.numpy.asarray(r)
        if self.inner.name == "cupy":
            r = self.inner.xp.ascontiguousarray(r)
        else:
            r = r.contiguous()
        return self.jax.dlpack.from_dlpack(r)

    def stream(self, device):
        return self.inner.stream(device)

    exact = staticmethod(_NumPy.exact)

    @staticmethod
    def eligible(x, dt, layout):
        return False  # JAX arrays are immutable


_FRAMEWORKS = {"cupy": "cupy", "torch": "torch", "jax": "jax",
               "jaxlib": "jax"}
_names: dict = {}


def _fw_name(x):
    """The framework name of x's type ('numpy' for anything unknown)."""
    t = type(x)
    name = _names.get(t)
    if name is None:
        name = _names[t] = _FRAMEWORKS.get(t.__module__.split(".")[0],
                                           "numpy")
    return name


def framework(x):
    """The adapter of x's framework (NumPy for anything else)."""
    name = _fw_name(x)
    if name == "numpy":
        return _NumPy
    return {"cupy": _CuPy, "torch": _Torch, "jax": _Jax}[name](x)


_COMPLEX = (np.dtype(np.complex64), np.dtype(np.complex128))


def _exact_np(d):
    """np.float32, np.float64, np.complex64 or np.complex128 for those
    dtypes (either byte order), else None."""
    t = d.type
    if t is np.float32 or t is np.float64:
        return t
    d = d.newbyteorder("=")
    return d.type if d in _COMPLEX else None


def _np_kind(d):
    """'f' (real float), 'i' (integer or boolean: converted), 'c'
    (complex) or 'o' (anything else) for a NumPy dtype, and whether it is
    float32."""
    k = d.kind
    kind = "f" if k == "f" else "i" if k in "biu" else "c" if k == "c" else "o"
    return kind, k == "f" and d.itemsize == 4


class Prepared:
    """The arrays of one call, converted, with the context that runs it."""

    def __init__(self, fw, ctx, dtype, arrays):
        self.fw, self.ctx, self.dtype, self.arrays = fw, ctx, dtype, arrays

    def out(self, r, tri=None):
        """A result of _qru as an array of the producer's framework (tri
        'L' or 'U': a factor, its other strict triangle cleared)."""
        return self.fw.wrap(r, tri)

    def part(self, r):
        """A result of _qru as a part of a result assembled from several:
        an array of the framework that computes for the producer (NumPy,
        CuPy or PyTorch: for JAX, which cannot write in place, its CuPy
        or PyTorch), on the device, to be combined by indexing with
        zeros() and copy() of self.fw and handed back by finish()."""
        fw = self.fw
        return (fw.inner if fw.name == "jax" else fw).wrap(r)

    def finish(self, x):
        """An array part() or self.fw's zeros() and copy() made (and
        filled) as an array of the producer's framework."""
        return self.fw.back(x)

    def host_out(self, a):
        """A NumPy array computed on the host as an array of the
        producer's framework (on its device)."""
        return self.fw.from_host(a)


def _given(fw, arrays, names):
    """The (array, name) pairs of the arrays given (not None), each of
    fw's framework (TypeError otherwise)."""
    for a, nm in zip(arrays, names):
        if a is None:
            continue
        if _fw_name(a) != fw.name:
            raise TypeError(f"qru: {nm} is a {type(a).__module__} array, the "
                            f"others are {fw.name} arrays")
        yield a, nm


def _check_kinds(fw, arrays, names):
    """Raises for arrays of another framework or of a type qru does not
    convert; True if every array is float32."""
    f32 = True
    for a, nm in _given(fw, arrays, names):
        kind, is32 = fw.kind(a)
        if kind == "c":
            raise TypeError(f"qru: {nm} is complex: qru computes in float32 "
                            "or float64 only")
        if kind == "o":
            raise TypeError(f"qru: {nm} has dtype {a.dtype}, not a real "
                            "number type")
        f32 = f32 and is32
    return f32


def _same_dtype(fw, arrays, names):
    """SciPy's rule for its qr functions: every array float32, float64,
    complex64 or complex128 (either byte order), all the same; the element
    type, or ValueError for another dtype or a mix."""
    dt = first = None
    for a, nm in _given(fw, arrays, names):
        e = fw.exact(a)
        if e is None:
            raise ValueError(f"qru: {nm} has dtype {a.dtype}: only arrays "
                             "of dtype float32, float64, complex64 or "
                             "complex128 are supported (SciPy's rule)")
        if dt is None:
            dt, first = e, nm
        elif e is not dt:
            raise ValueError(f"qru: {nm} is {np.dtype(e).name} and {first} "
                             f"{np.dtype(dt).name}: Q, R and the update "
                             "must have the same dtype")
    return dt


def _complex_dtype(fw, arrays, names):
    """The element type of a call that takes complex data where one of
    its arrays is complex: complex64 when every array is float32 or
    complex64, else complex128 (NumPy's promotion; complex dtypes other
    than those two, and non-numbers, raise TypeError); None when no array
    is complex (then the conversion rule applies)."""
    given = list(_given(fw, arrays, names))
    if not any(fw.kind(a)[0] == "c" for a, _ in given):
        return None
    single = True
    for a, nm in given:
        kind, is32 = fw.kind(a)
        e = fw.exact(a)
        if kind == "o" or (kind == "c" and not is_complex(e)):
            raise TypeError(f"qru: {nm} has dtype {a.dtype}: qru computes "
                            "in float32, float64, complex64 or complex128")
        single = single and (is32 or e is np.complex64)
    return np.complex64 if single else np.complex128


def is_complex(dt):
    """True for np.complex64 and np.complex128."""
    return dt is np.complex64 or dt is np.complex128


def _check_complex(ctx, dt):
    """TypeError where the context's backend does not compute in the
    complex type dt."""
    if is_complex(dt) and not ctx.supports_complex(dt is np.complex64):
        raise TypeError(f"qru: {np.dtype(dt).name} arrays: the "
                        f"{ctx.backend} backend does not support complex "
                        "data (the cpu backend does)")


def convert_like(fw, dt, arrays, names, check=False):
    """The arrays in fw's column-major form of element type dt.  check:
    the conversion rule's kinds for a real dt (a complex array raises
    TypeError); for a complex dt real and complex arrays of the two
    complex types (_complex_dtype's rule) are converted to it."""
    if fw is _NumPy:
        arrays = [None if a is None else np.asarray(a) for a in arrays]
    if check:
        if is_complex(dt):
            _complex_dtype(fw, arrays, names)
        else:
            for a, nm in _given(fw, arrays, names):
                if fw.kind(a)[0] == "c":
                    raise TypeError(f"qru: {nm} is complex and the object "
                                    f"computes in {np.dtype(dt).name} (one "
                                    "made from complex data takes it)")
            _check_kinds(fw, arrays, names)
    return [None if a is None else fw.convert(a, dt) for a in arrays]


_FLOATS = (np.dtype(np.float64), np.dtype(np.float32))


def _as_is_quick(arrays):
    """The common case, quickly: column-major NumPy (CPU backend), CuPy or
    PyTorch (CUDA, the current stream) arrays of one float type; None for
    anything else (then prepare() applies the rules one by one)."""
    dt = kind = None
    for a in arrays:
        if a is None:
            continue
        if kind is None:
            kind = type(a)
            if kind is not np.ndarray:
                name = _fw_name(a)
                if name == "torch":
                    return _torch_quick(arrays)
                if name != "cupy":
                    return None
            dt = a.dtype
            if dt not in _FLOATS:
                return None
        elif type(a) is not kind or a.dtype != dt:
            return None
        if not a.flags.f_contiguous:
            return None
    if kind is np.ndarray:
        ctx = _contexts.get(("cpu", -1, 0)) or context("cpu", -1, 0)
        return Prepared(_NumPy, ctx, dt.type, list(arrays))
    a0 = next(a for a in arrays if a is not None)
    fw = _cupy_fws.get(a0.data.device_id)  # (a0.device makes an object)
    if fw is None:
        fw = _cupy_fws[a0.data.device_id] = _CuPy(a0)
    stream = fw.stream(fw.device) or LEGACY_STREAM
    ctx = _contexts.get(("cuda", fw.device, stream)) or \
        context("cuda", fw.device, stream)
    return Prepared(fw, ctx, dt.type, list(arrays))


#: the CuPy adapters of the quick path, one a device (they hold no state
#: but the module and the device)
_cupy_fws: dict = {}


def _torch_quick(arrays):
    """_as_is_quick for PyTorch: CUDA tensors of one float type on one
    device, column-major, not requiring grad (no conversion to make)."""
    t0 = next(a for a in arrays if a is not None)
    dt, dev = t0.dtype, t0.device
    if dev.type != "cuda" or not dt.is_floating_point or \
            dt.is_complex or t0.element_size() not in (4, 8):
        return None  # (float16 and bfloat16 take the rules one by one)
    for a in arrays:
        if a is None:
            continue
        if type(a) is not type(t0) or a.dtype != dt or a.device != dev or \
                a.requires_grad or a.dim() != 2 or \
                not colmajor(a.shape, a.stride()):
            return None
    fw = _Torch(t0)
    stream = fw.stream(fw.device) or LEGACY_STREAM
    ctx = _contexts.get(("cuda", fw.device, stream)) or \
        context("cuda", fw.device, stream)
    return Prepared(fw, ctx, np.float32 if t0.element_size() == 4
                    else np.float64, list(arrays))


def prepare(arrays, names, backend=None, stream=None, same_dtype=False,
            allow_complex=False):
    """Converts the arrays of one call (None entries stay None) and picks
    the context that runs it.  same_dtype: SciPy's dtype rule of its qr
    functions (_same_dtype) instead of the conversion rule; allow_complex:
    the conversion rule, complex arrays promoted (_complex_dtype)."""
    if backend is None and stream is None:
        P = _as_is_quick(arrays)
        if P is not None:
            return P
    fw = framework(next(a for a in arrays if a is not None))
    if fw is _NumPy:
        arrays = [a if a is None or type(a) is np.ndarray else np.asarray(a)
                  for a in arrays]
    dt = None
    if same_dtype:
        dt = _same_dtype(fw, arrays, names)
    elif allow_complex:
        dt = _complex_dtype(fw, arrays, names)
    if dt is None:
        dt = np.float32 if _check_kinds(fw, arrays, names) else np.float64
    conv = [None if a is None else fw.convert(a, dt) for a in arrays]
    device = fw.device
    if backend is None:
        backend = "cpu" if device is None else "cuda"
    if device is None:
        if stream is not None:
            raise ValueError("qru: stream= is for arrays on a CUDA device")
        ctx = _contexts.get((backend, -1, 0)) or context(backend, -1, 0)
    else:
        if backend != "cuda":
            raise ValueError(f"qru: the arrays are on CUDA device {device}: "
                             f"backend '{backend}' cannot take them "
                             "(backend='cuda')")
        if stream is None:
            stream = fw.stream(device)
        stream = int(stream) or LEGACY_STREAM
        ctx = _contexts.get(("cuda", device, stream)) or \
            context("cuda", device, stream)
    _check_complex(ctx, dt)
    return Prepared(fw, ctx, dt, conv)


def per_problem(values, lead, hi, name, what):
    """The per-problem counts of a batch call (rows, ranks): integers of
    the batch shape lead, each in 0 .. hi (else ValueError naming what
    hi is), as a flat list of ints for the library; [] for None."""
    if values is None:
        return []
    v = np.asarray(values)
    if v.shape != lead or not (
            v.size == 0 or np.issubdtype(v.dtype, np.integer)):
        raise ValueError(f"{name} must be integers of shape {lead}; it is "
                         f"{v.shape} ({v.dtype})")
    if v.size and (v.min() < 0 or v.max() > hi):
        raise ValueError(f"{name} must lie in 0 .. {hi} ({what})")
    return [int(c) for c in v.reshape(-1)]


def numerical(fn, *args):
    """Calls _qru, a numerical failure raised as LinAlgError."""
    try:
        return fn(*args)
    except _qru.QruNumericalError as e:
        raise np.linalg.LinAlgError(str(e)) from None


def raise_failed_pages(info, lead, what, reasons=None):
    """LinAlgError naming the pages of a batch (leading shape lead) whose
    info is not 0 (the failing column, 1-based): "qru: <count> of <total>
    <what> (<page> at column <c>, ...)"; nothing when none failed.
    reasons (page's flat index -> text; the pages a loop ran one library
    call each): "(<page>: <text>; ...)" instead of the columns."""
    info = np.asarray(info)
    bad = np.flatnonzero(info)
    if bad.size:
        pages = [tuple(int(v) for v in np.unravel_index(b, lead))
                 for b in bad[:5]]
        if reasons is None:
            where = ", ".join(f"{pg} at column {int(info[b])}"
                              for pg, b in zip(pages, bad))
            tail = "; 1-based columns"
        else:
            where = "; ".join(f"{pg}: {reasons[int(b)]}"
                              for pg, b in zip(pages, bad))
            tail = ""
        raise np.linalg.LinAlgError(
            f"qru: {bad.size} of {info.size} {what} ({where}"
            f"{', ...' if bad.size > 5 else ''}{tail})")
