"""Batch dimensions of the factor functions, by SciPy's rules for its
batched linear algebra (``scipy.linalg``'s ``_apply_over_batch``, which
SciPy >= 1.16 applies to ``qr_insert``, ``qr_delete`` and ``qr_update``).

Each array argument has a number of core dimensions (2 for a matrix, 1
for a vector, 0 for a position such as ``k``; "1|2": 2 when the array has
two dimensions or more, else 1); the dimensions left of the core are the
batch.  The batch shapes broadcast against each other as NumPy's
(ValueError where they do not), every argument is broadcast to the common
batch shape, and the call runs once a page; the results are stacked into
arrays of shape ``batch + core``.  A call none of whose arguments has
batch dimensions is not a batch (the function runs as it is).

Differences from SciPy's loop: the pages whose library call fails with a
numerical failure (``LinAlgError``) do not stop the loop; after it one
``LinAlgError`` names every failed page and its reason
(``raise_failed_pages``).  Other errors (a bad shape or position of a
page) are raised at the first page they occur in, as SciPy's.  Batches
take NumPy arrays (anything ``numpy.asarray`` takes); a batch of another
framework's arrays raises TypeError.
"""
from __future__ import annotations

import math

import numpy as np

from ._arrays import _fw_name, raise_failed_pages


def _shape(a):
    return tuple(a.shape) if hasattr(a, "shape") else np.shape(a)


def batch_of(arrays, cores):
    """The broadcast batch shape of the arrays (core dimensions cores), or
    None when none of them has batch dimensions."""
    lead = []
    for a, nd in zip(arrays, cores):
        shape = _shape(a)
        if nd == "1|2":
            nd = 2 if len(shape) >= 2 else 1
        lead.append(shape[:len(shape) - nd] if len(shape) > nd else ())
    if not any(lead):
        return None
    return np.broadcast_shapes(*lead)


def over_pages(fn, name, arrays, cores, what, empty=None):
    """fn(*page arrays) for every page of the batch (batch_of(arrays,
    cores) must not be None): the results (one array or a tuple) stacked
    to batch + core shape.  A zero-size batch returns empty(batch) where
    empty is given and otherwise raises ValueError, as SciPy's.  Pages
    that raise LinAlgError are named after the loop (what: the words
    for them)."""
    for a in arrays:
        if _fw_name(a) != "numpy":
            raise TypeError(f"qru: batched {name} (arguments with batch "
                            f"dimensions) takes NumPy arrays, not "
                            f"{type(a).__module__} arrays")
    arrays = [np.asarray(a) for a in arrays]
    lead = batch_of(arrays, cores)
    if math.prod(lead) == 0:
        if empty is None:
            raise ValueError(f"`{name}` does not support zero-size batches.")
        return empty(lead)
    pages = []
    for a, nd in zip(arrays, cores):
        if nd == "1|2":
            nd = 2 if a.ndim >= 2 else 1
        core = a.shape[a.ndim - nd:] if nd else ()
        pages.append(np.broadcast_to(a, lead + core))
    results, reasons = [], {}
    info = np.zeros(math.prod(lead), np.int32)
    for i, index in enumerate(np.ndindex(lead)):
        try:
            r = fn(*(p[index] for p in pages))
        except np.linalg.LinAlgError as e:
            info[i], reasons[i] = 1, str(e)
            continue
        results.append(r if isinstance(r, tuple) else (r,))
    raise_failed_pages(info, lead, what, reasons)
    out = [np.stack(rs).reshape(lead + rs[0].shape) for rs in zip(*results)]
    return out[0] if len(out) == 1 else tuple(out)
