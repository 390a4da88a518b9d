// The Python module _qru: the qru C API for arrays of any DLPack
// producer.  The Python layer (qru/_arrays.py) converts the arguments by
// the documented rules (element type, column-major layout, device) and
// passes 2-D arrays that this file maps onto qru matrices:
//
// - an array in the memory of the context's backend (host memory for the
//   CPU backend, the CUDA device of the context for CUDA) is wrapped with
//   qru_matrix_wrap, without a copy;
// - a host array given to a device backend (CUDA or OpenCL) is staged:
//   uploaded into a device matrix, and downloaded back where the call
//   writes it.
//
// Results are new matrices of the context: for the CPU backend exported as
// NumPy arrays that own the qru matrix, for CUDA as DLPack arrays (the
// Python layer converts them with the producer's from_dlpack), and for
// staged calls downloaded into new NumPy arrays.
//
// Contexts are cached per (backend, device, stream) for the life of the
// process, so a call creates none; a CUDA context adopts the producer's
// stream (qru_context_options.stream) and the library queues its work
// there.  Library statuses become Python exceptions carrying the
// library's message (qru_last_error): ValueError for a bad argument (-i),
// QruNumericalError (the Python layer raises numpy.linalg.LinAlgError) for
// a numerical failure (> 0), RuntimeError for the rest.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <dlfcn.h>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

extern "C" {
#include "qru.h"
// OpenBLAS's thread control, where the BLAS linked is OpenBLAS
__attribute__((weak, visibility("default"))) void
openblas_set_num_threads(int);
__attribute__((weak, visibility("default"))) int
openblas_get_num_threads(void);
}

namespace nb = nanobind;

namespace {

// A numerical failure of the library (status > 0): the column or row
// where rank or definiteness was lost.
struct numerical_failure : std::runtime_error {
    int status;
    numerical_failure(int st, const std::string &m)
        : std::runtime_error(m), status(st) {}
};

// Data the backend or the routine does not take (QRU_ERR_UNSUPPORTED):
// a RuntimeError, which the package turns into TypeError where an
// array's type is the reason (the complex Cholesky updates on a GPU).
struct unsupported_failure : std::runtime_error {
    explicit unsupported_failure(const std::string &m)
        : std::runtime_error(m) {}
};

qru_backend backend_of(const std::string &name)
{
    if (name == "cpu")
        return QRU_BACKEND_CPU;
    if (name == "cuda")
        return QRU_BACKEND_CUDA;
    if (name == "opencl")
        return QRU_BACKEND_OPENCL;
    throw nb::value_error(("qru: unknown backend '" + name +
                           "' (cpu, cuda or opencl)")
                              .c_str());
}

void check(const qru_context *ctx, int st, const char *fn)
{
    if (st == 0)
        return;
    // the library's message names the routine already
    const char *msg = qru_last_error(ctx);
    std::string m = msg && *msg ? std::string(msg)
                                : std::string(fn) + ": " + qru_strerror(st);
    if (st > 0)
        throw numerical_failure(st, m);
    if (st > -1000 || st == QRU_ERR_NO_Q)
        throw nb::value_error(m.c_str());
    if (st == QRU_ERR_UNSUPPORTED)
        throw unsupported_failure(m);
    throw std::runtime_error(m);
}

// A library context for one (backend, device, stream).  Created on first
// use and kept for the process (contexts hold device handles and
// workspace; the arrays a context exported may outlive any Python
// reference to it).
struct Context {
    qru_context *ctx = nullptr;
    qru_backend backend;
    int device;       // CUDA ordinal (-1: the backend's default)
    uintptr_t stream; // the adopted stream, 0: the context's own
    int dl_device;    // DLPack device type of its memory: 1 host, 2 CUDA
    int dl_id;        // its CUDA ordinal

    std::string device_name() const
    {
        const char *s = qru_context_device_name(ctx);
        return s ? s : "";
    }
    void sync() { check(ctx, qru_context_sync(ctx), "qru_context_sync"); }
    // qru_context_supports for complex64 (False: complex128) data
    bool supports_complex(bool single) const
    {
        return qru_context_supports(ctx, single ? QRU_COMPLEX_FLOAT
                                                : QRU_COMPLEX_DOUBLE) != 0;
    }
    std::tuple<long long, long long> stats() const
    {
        qru_context_stats s;
        check(ctx, qru_context_get_stats(ctx, &s), "qru_context_get_stats");
        return {s.calls, s.host_waits};
    }
};

Context &context(const std::string &name, int device, uintptr_t stream)
{
    static std::map<std::tuple<int, int, uintptr_t>, Context *> cache;
    qru_backend b = backend_of(name);
    if (b != QRU_BACKEND_CUDA) // the others take no stream of ours
        stream = 0;
    auto key = std::make_tuple((int)b, device, stream);
    auto it = cache.find(key);
    if (it != cache.end())
        return *it->second;
    qru_context_options opt;
    qru_context_options_init(&opt);
    opt.device = device;
    opt.stream = (void *)stream;
    qru_context *c = nullptr;
    int st = qru_context_create_ex(b, &opt, &c);
    if (st != 0) {
        const char *msg = qru_last_error(nullptr);
        throw std::runtime_error("qru backend '" + name + "': " +
                                 (msg && *msg ? msg : qru_strerror(st)));
    }
    Context *C = new Context{c, b, device, stream, 1, 0};
    if (b == QRU_BACKEND_CUDA) {
        C->dl_device = 2;
        // the device the context runs on: "... (CUDA device N, sm_XY)"
        std::string nm = C->device_name();
        size_t at = nm.find("CUDA device ");
        C->dl_id = at == std::string::npos
                       ? (device < 0 ? 0 : device)
                       : std::atoi(nm.c_str() + at + 12);
    } else if (b == QRU_BACKEND_OPENCL) {
        C->dl_device = 0; // no DLPack device: host arrays are staged
    }
    cache[key] = C;
    return *C;
}

using in_array = nb::ndarray<nb::ro, nb::ndim<2>>;
using io_array = nb::ndarray<nb::ndim<2>>;

qru_dtype dtype_of_dl(nb::dlpack::dtype d, const char *name)
{
    if (d == nb::dtype<double>())
        return QRU_DOUBLE;
    if (d == nb::dtype<float>())
        return QRU_FLOAT;
    if (d == nb::dtype<std::complex<float>>())
        return QRU_COMPLEX_FLOAT;
    if (d == nb::dtype<std::complex<double>>())
        return QRU_COMPLEX_DOUBLE;
    throw nb::type_error(
        (std::string("qru: ") + name +
         ": element type must be float32, float64, complex64 or complex128 "
         "(the Python layer converts others)")
            .c_str());
}

// The DLPack type and the bytes of one element of dt.
nb::dlpack::dtype dl_of(qru_dtype dt)
{
    return dt == QRU_DOUBLE          ? nb::dtype<double>()
           : dt == QRU_FLOAT         ? nb::dtype<float>()
           : dt == QRU_COMPLEX_FLOAT ? nb::dtype<std::complex<float>>()
                                     : nb::dtype<std::complex<double>>();
}
size_t size_of(qru_dtype dt)
{
    return dt == QRU_DOUBLE          ? sizeof(double)
           : dt == QRU_FLOAT         ? sizeof(float)
           : dt == QRU_COMPLEX_FLOAT ? sizeof(std::complex<float>)
                                     : sizeof(std::complex<double>);
}

// The matrices of one library call: arrays wrapped or staged, temporaries
// and results.  Everything not handed out as a result is freed at the end.
struct Call {
    Context &C;
    bool host = false;   // the caller's arrays live on the host
    bool staged = false; // ... and the backend copies them to its device
    int nbound = 0;      // arrays bound so far
    qru_dtype dt = (qru_dtype)0;
    std::vector<qru_matrix *> mats;
    std::vector<std::pair<qru_matrix *, io_array>> writeback;

    Call(Context &c, bool check_finite) : C(c)
    {
        check(C.ctx,
              qru_context_set_option(C.ctx, QRU_OPTION_CHECK_FINITE,
                                     check_finite ? 1 : 0),
              "qru_context_set_option");
    }
    Call(const Call &) = delete;
    ~Call()
    {
        for (auto *m : mats)
            qru_matrix_destroy(m);
    }

    qru_matrix *keep(qru_matrix *M)
    {
        mats.push_back(M);
        return M;
    }

    qru_matrix *tmp(int rows, int cols)
    {
        qru_matrix *M = nullptr;
        check(C.ctx, qru_matrix_create(C.ctx, dt, rows, cols, 0, &M),
              "qru_matrix_create");
        return keep(M);
    }

    // A qru matrix for a caller's column-major array: wrapped where the
    // array lies in the context's memory, else (host array, device
    // backend) uploaded into a new device matrix.
    template <typename A> qru_matrix *bind(const A &a, const char *name)
    {
        qru_dtype d = dtype_of_dl(a.dtype(), name);
        if (dt && d != dt)
            throw nb::type_error(
                (std::string("qru: ") + name +
                 ": element type differs from the other arrays'")
                    .c_str());
        dt = d;
        int rows = (int)a.shape(0), cols = (int)a.shape(1);
        int64_t s0 = a.stride(0), s1 = a.stride(1);
        bool colmajor = (rows <= 1 || s0 == 1) && (cols <= 1 || s1 >= rows);
        if (!colmajor)
            throw nb::value_error(
                (std::string("qru: ") + name + ": strides (" +
                 std::to_string(s0) + ", " + std::to_string(s1) +
                 ") are not column-major (the Python layer converts)")
                    .c_str());
        int ld = cols <= 1 ? (rows > 1 ? rows : 1) : (int)s1;
        if (ld < 1)
            ld = 1;
        int dev = a.device_type();
        bool on_host = dev == nb::device::cpu::value ||
                       dev == nb::device::cuda_host::value;
        if (nbound++ == 0)
            host = on_host;
        else if (host != on_host)
            throw nb::value_error(
                (std::string("qru: ") + name +
                 ": arrays on the host and on a device in one call")
                    .c_str());
        qru_matrix *M = nullptr;
        if (on_host && C.dl_device == 1) {
            check(C.ctx,
                  qru_matrix_wrap(C.ctx, dt, rows, cols, (void *)a.data(),
                                  ld, &M),
                  "qru_matrix_wrap");
            return keep(M);
        }
        if (!on_host && C.dl_device == dev &&
            (int)a.device_id() == C.dl_id) {
            check(C.ctx,
                  qru_matrix_wrap(C.ctx, dt, rows, cols, (void *)a.data(),
                                  ld, &M),
                  "qru_matrix_wrap");
            return keep(M);
        }
        if (!on_host)
            throw nb::value_error(
                (std::string("qru: ") + name + ": an array on device " +
                 std::to_string(dev) + ":" + std::to_string(a.device_id()) +
                 " cannot be used by the '" +
                 qru_backend_name(C.backend) + "' context on " +
                 C.device_name())
                    .c_str());
        staged = true;
        M = tmp(rows, cols);
        if (rows > 0 && cols > 0)
            check(C.ctx, qru_matrix_upload(M, a.data(), ld),
                  "qru_matrix_upload");
        return M;
    }

    qru_matrix *in(const in_array &a, const char *name)
    {
        return bind(a, name);
    }

    // An array the call overwrites: a staged one is downloaded back by
    // commit() (after the call succeeded).
    qru_matrix *inout(const io_array &a, const char *name)
    {
        qru_matrix *M = bind(a, name);
        if (staged && qru_matrix_data(M) != a.data())
            writeback.emplace_back(M, a);
        return M;
    }

    void commit()
    {
        for (auto &w : writeback) {
            int rows = qru_matrix_rows(w.first);
            int cols = qru_matrix_cols(w.first);
            int ld = cols <= 1 ? (rows > 1 ? rows : 1) : (int)w.second.stride(1);
            if (rows > 0 && cols > 0)
                check(C.ctx,
                      qru_matrix_download(w.first, w.second.data(), ld),
                      "qru_matrix_download");
        }
    }

    // A matrix handed to Python as an array: a NumPy array owning the
    // matrix (CPU backend), a DLPack array owning it (CUDA), or for a
    // staged call a new NumPy array it is downloaded into.
    // The strict triangle opposite to a factor's (zero_above 'L': above
    // the diagonal, 'U': below) set to zero, in host memory (a device
    // result is cleared by the Python layer, in the producer's framework).
    void zero_triangle(void *p, int rows, int cols, int ld, char uplo)
    {
        if (!uplo)
            return;
        size_t sz = size_of(dt);
        for (int j = 0; j < cols; j++) {
            int i0 = uplo == 'L' ? 0 : j + 1;
            int i1 = uplo == 'L' ? (j < rows ? j : rows) : rows;
            if (i1 > i0)
                std::memset((char *)p + ((size_t)j * ld + i0) * sz, 0,
                            (size_t)(i1 - i0) * sz);
        }
    }

    nb::object result(qru_matrix *M, char zero_above = 0)
    {
        int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
        int ld = qru_matrix_ld(M);
        size_t shape[2] = {(size_t)rows, (size_t)cols};
        int64_t strides[2] = {1, ld};
        nb::dlpack::dtype d = dl_of(dt);
        if (staged || (host && C.dl_device != 1)) {
            size_t sz = size_of(dt);
            size_t n = (size_t)rows * cols;
            char *buf = new char[(n ? n : 1) * sz];
            nb::capsule owner(buf, [](void *p) noexcept { delete[] (char *)p; });
            if (rows > 0 && cols > 0)
                check(C.ctx, qru_matrix_download(M, buf, rows > 0 ? rows : 1),
                      "qru_matrix_download");
            strides[1] = rows;
            zero_triangle(buf, rows, cols, rows, zero_above);
            return nb::cast(nb::ndarray<nb::numpy, nb::ndim<2>>(
                buf, 2, shape, owner, strides, d));
        }
        for (auto &m : mats)
            if (m == M)
                m = nullptr; // the array owns it now
        nb::capsule owner(M, [](void *p) noexcept {
            qru_matrix_destroy((qru_matrix *)p);
        });
        void *data = qru_matrix_data(M);
        if (C.dl_device == 1)
            zero_triangle(data, rows, cols, ld, zero_above);
        if (C.dl_device == 1)
            return nb::cast(nb::ndarray<nb::numpy, nb::ndim<2>>(
                data, 2, shape, owner, strides, d));
        return nb::cast(nb::ndarray<nb::ndim<2>>(data, 2, shape, owner,
                                                 strides, d, C.dl_device,
                                                 C.dl_id));
    }
};

// ---- the SciPy-shaped QR functions ---------------------------------------

// op: 0 add columns, 1 remove columns, 2 add rows, 3 remove rows (the
// order of the library's updates), 4 the rank-k modification A + U V';
// rank: qru_lsq_options::rank (QRU_RANK_ACCEPT: a rank-deficient A1 is
// factorised where the result is a valid QR, as SciPy's functions do);
// U: the columns, rows or U, e: the rows' right-hand sides or V.  d (R's
// rows x 1) and, for added rows, e (p x 1) are zeros from the caller's
// framework (no host transfer on a device).  Q and R are read, or with
// adopt (QRU_ADOPT_Q, QRU_ADOPT_R) worked in: the object takes their
// buffers (the Python layer passes buffers it may overwrite, column-major
// with the leading dimensions qru_lsq_options::adopt asks for).  The
// result (Q1, R1, n1, m1): None where the factor lies in the adopted
// buffer (its leading block); else an array over the object's own
// storage that keeps the object alive (qru_lsq_view_q / _r: no copy out),
// or for a staged call a downloaded copy.
struct LsqView { // the owner of the factors handed out as views
    qru_lsq *f;
    qru_matrix *V[2];
};

nb::tuple qr_update(Context &C, const in_array &Q, const in_array &R,
                    const in_array &d, int op, int k,
                    std::optional<in_array> U, std::optional<in_array> e,
                    int p, bool check_finite, int adopt, int rank)
{
    Call s(C, check_finite);
    qru_matrix *Qd = s.in(Q, "Q"), *Rd = s.in(R, "R"), *dd = s.in(d, "d");
    qru_matrix *Ud = U ? s.in(*U, "u") : nullptr;
    qru_matrix *ed = e ? s.in(*e, op == 4 ? "v" : "e") : nullptr;
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.adopt = s.staged ? 0 : adopt;
    opt.rank = rank;
    if (!opt.adopt) {
        // room for what the update adds (no growth and copy on the way):
        // rows, and the columns of R (and of an economic Q1, which a row
        // insertion, a row removal and a rank-k modification also take in
        // workspace: p columns of Q1 for the completion of the rows or of
        // U)
        bool econ = Q.shape(0) != Q.shape(1);
        int n = (int)Q.shape(0), m = (int)R.shape(1);
        if (op == 2) {
            opt.row_capacity = n + qru_matrix_rows(Ud);
            if (econ)
                opt.col_capacity = m + qru_matrix_rows(Ud);
        } else if (op == 0 || (op == 4 && econ)) {
            opt.col_capacity = m + qru_matrix_cols(Ud);
        } else if (op == 3 && econ) {
            opt.col_capacity = m + p;
        }
    }
    qru_lsq *f = nullptr;
    check(C.ctx, qru_lsq_create_from_qr(C.ctx, Qd, Rd, dd, &opt, &f),
          "qru_lsq_create_from_qr");
    auto *own = new LsqView{f, {nullptr, nullptr}};
    struct guard { // until the views own it
        LsqView *o;
        ~guard()
        {
            if (!o)
                return;
            qru_matrix_destroy(o->V[0]);
            qru_matrix_destroy(o->V[1]);
            qru_lsq_destroy(o->f);
            delete o;
        }
    } g{own};
    if (op == 0)
        check(C.ctx, qru_lsq_add_cols(f, k, Ud), "qru_lsq_add_cols");
    else if (op == 1)
        check(C.ctx, qru_lsq_remove_cols(f, k, p), "qru_lsq_remove_cols");
    else if (op == 2)
        check(C.ctx, qru_lsq_add_rows(f, k, Ud, ed), "qru_lsq_add_rows");
    else if (op == 3)
        check(C.ctx, qru_lsq_remove_rows(f, k, p), "qru_lsq_remove_rows");
    else
        check(C.ctx, qru_lsq_modify(f, Ud, ed), "qru_lsq_modify");
    int n = qru_lsq_rows(f), m = qru_lsq_cols(f);
    bool econ = qru_lsq_q_form(f) == QRU_Q_THIN;
    if (s.staged) {
        qru_matrix *Q1 = s.tmp(n, econ ? m : n), *R1 = s.tmp(econ ? m : n, m);
        check(C.ctx, qru_lsq_get_q(f, Q1), "qru_lsq_get_q");
        check(C.ctx, qru_lsq_get_r(f, R1), "qru_lsq_get_r");
        return nb::make_tuple(s.result(Q1), s.result(R1), n, m);
    }
    check(C.ctx, qru_lsq_view_q(f, &own->V[0]), "qru_lsq_view_q");
    check(C.ctx, qru_lsq_view_r(f, &own->V[1]), "qru_lsq_view_r");
    bool in_q = (opt.adopt & QRU_ADOPT_Q) &&
                qru_matrix_data(own->V[0]) == qru_matrix_data(Qd);
    bool in_r = (opt.adopt & QRU_ADOPT_R) &&
                qru_matrix_data(own->V[1]) == qru_matrix_data(Rd);
    if (in_q && in_r) // nothing of the object's is handed out
        return nb::make_tuple(nb::none(), nb::none(), n, m);
    // the arrays over the object's storage share one owner
    g.o = nullptr;
    nb::capsule owner(own, [](void *q) noexcept {
        auto *o = (LsqView *)q;
        qru_matrix_destroy(o->V[0]);
        qru_matrix_destroy(o->V[1]);
        qru_lsq_destroy(o->f);
        delete o;
    });
    nb::dlpack::dtype dt = dl_of(s.dt);
    auto view = [&](qru_matrix *V) -> nb::object {
        size_t shape[2] = {(size_t)qru_matrix_rows(V),
                           (size_t)qru_matrix_cols(V)};
        int64_t strides[2] = {1, qru_matrix_ld(V)};
        void *data = qru_matrix_data(V);
        if (C.dl_device == 1)
            return nb::cast(nb::ndarray<nb::numpy, nb::ndim<2>>(
                data, 2, shape, owner, strides, dt));
        return nb::cast(nb::ndarray<nb::ndim<2>>(data, 2, shape, owner,
                                                 strides, dt, C.dl_device,
                                                 C.dl_id));
    };
    return nb::make_tuple(in_q ? nb::none() : view(own->V[0]),
                          in_r ? nb::none() : view(own->V[1]), n, m);
}

// [Q, R] = qr(A) for A of any shape (qru_qr_factor): A is overwritten by R
// (a staged A is downloaded back into the caller's array), and the full Q
// (rows x rows) is returned.
nb::object qr_factor(Context &C, const io_array &A, bool check_finite)
{
    Call s(C, check_finite);
    qru_matrix *Ad = s.inout(A, "A");
    int n = (int)A.shape(0);
    qru_matrix *Q = s.tmp(n, n);
    check(C.ctx, qru_qr_factor(C.ctx, 0, Ad, Q, nullptr), "qru_qr_factor");
    s.commit();
    return s.result(Q);
}

// Moves the leading (rows - dr) x (cols - dc) block of a column-major host
// array to its trailing block, in place (one pass: columns from the last,
// each a memmove).  The full row deletion leaves Q1 and R1 in the leading
// blocks of the buffers it worked in; SciPy returns the trailing ones.
void shift_block(const io_array &A, int dr, int dc)
{
    int dev = A.device_type();
    if (dev != nb::device::cpu::value && dev != nb::device::cuda_host::value)
        throw nb::value_error("qru: shift_block takes host arrays");
    long long rows = (long long)A.shape(0), cols = (long long)A.shape(1);
    if (dr < 0 || dc < 0 || dr > rows || dc > cols)
        throw nb::value_error("qru: shift_block: bad shift");
    if (A.stride(0) != 1 && rows > 1)
        throw nb::value_error("qru: shift_block: not column-major");
    long long ld = cols > 1 ? (long long)A.stride(1) : rows;
    size_t sz = A.itemsize();
    char *p = (char *)A.data();
    long long n1 = rows - dr;
    if (n1 <= 0 || (dr == 0 && dc == 0))
        return;
    for (long long j = cols - dc - 1; j >= 0; j--)
        std::memmove(p + ((j + dc) * ld + dr) * sz, p + j * ld * sz,
                     (size_t)n1 * sz);
}

// ---- BLAS threads -----------------------------------------------------------

// The extension links the system's BLAS (OpenBLAS on Debian), which is not
// the copy NumPy and SciPy bundle: two thread pools in one process.  Where
// it is OpenBLAS, its thread count is read and set here (the weak
// references of the file's head: null with another BLAS, which the
// functions report as -1).
// The file of the OpenBLAS linked ("" where the BLAS is not OpenBLAS).
std::string blas_library()
{
    Dl_info info;
    if (!openblas_get_num_threads ||
        !dladdr((void *)openblas_get_num_threads, &info) || !info.dli_fname)
        return "";
    return info.dli_fname;
}

int blas_threads()
{
    return openblas_get_num_threads ? openblas_get_num_threads() : -1;
}

int set_blas_threads(int n)
{
    if (n < 1)
        throw nb::value_error("qru: set_blas_threads: n must be >= 1");
    if (!openblas_set_num_threads)
        return -1;
    openblas_set_num_threads(n);
    return openblas_get_num_threads ? openblas_get_num_threads() : n;
}

// ---- Cholesky -------------------------------------------------------------

// L = chol(L L' + sign W W'), in place on L (the Python layer passes a
// copy unless the caller allowed the overwrite).
void chol_update(Context &C, char uplo, const io_array &L, const in_array &W,
                 int sign, bool check_finite)
{
    Call s(C, check_finite);
    qru_matrix *Ld = s.inout(L, "R");
    check(C.ctx, qru_chol_update(C.ctx, uplo, Ld, s.in(W, "x"), sign, Ld),
          "qru_chol_update");
    s.commit();
}

// The batch of qru_chol_update_batch, in place: L is n x (count n), its
// page i (an n x n factor) in columns i n .. i n + n - 1; W is
// n x (count k) alike; rank: each problem's rank (empty: all k;
// qru_chol_update_batch_ex).  Returns info (0, or the failing column of
// each problem); a failed problem's page (or one of rank 0) is left as it
// was.
std::vector<int> chol_update_batch(Context &C, char uplo, const io_array &L,
                                   const in_array &W, int count, int sign,
                                   bool check_finite,
                                   const std::vector<int> &rank)
{
    Call s(C, check_finite);
    qru_matrix *Ld = s.inout(L, "R"), *Wd = s.in(W, "x");
    int n = qru_matrix_rows(Ld), ldl = qru_matrix_ld(Ld),
        ldw = qru_matrix_ld(Wd);
    int k = count > 0 ? qru_matrix_cols(Wd) / count : 0;
    qru_matrix *Lb = nullptr, *Wb = nullptr;
    check(C.ctx,
          qru_matrix_wrap_batch(C.ctx, s.dt, n, n, qru_matrix_data(Ld), ldl,
                                count, (long long)ldl * n, &Lb),
          "qru_matrix_wrap_batch");
    s.keep(Lb);
    check(C.ctx,
          qru_matrix_wrap_batch(C.ctx, s.dt, n, k, qru_matrix_data(Wd), ldw,
                                count, (long long)ldw * k, &Wb),
          "qru_matrix_wrap_batch");
    s.keep(Wb);
    std::vector<int> info((size_t)count, 0);
    int st = qru_chol_update_batch_ex(C.ctx, uplo, Lb, Wb, sign, Lb,
                                      info.data(),
                                      rank.empty() ? nullptr : rank.data());
    if (st < 0)
        check(C.ctx, st, "qru_chol_update_batch_ex");
    s.commit();
    return info;
}

// The batches of qru_chol_insert_batch (X: the new columns, n1 x
// (count p), page i in columns i p ..) and qru_chol_delete_batch (X
// null), in place: F is m x (count m), m >= max(n, n1), its page i in
// columns i m .. i m + m - 1 holding the old factor (order n) in its
// leading block, where the new one (order n1) is written.  Returns info
// (0, or the failing column of each problem); a failed problem's page
// is left as it was.
static std::vector<int> chol_insdel_batch(Context &C, char uplo,
                                          const io_array &F, int n, int k,
                                          int p, const in_array *X,
                                          int count, bool check_finite)
{
    Call s(C, check_finite);
    qru_matrix *Fd = s.inout(F, "R");
    qru_matrix *Xd = X ? s.in(*X, "x") : nullptr;
    int m = qru_matrix_rows(Fd), ld = qru_matrix_ld(Fd);
    int n1 = X ? n + p : n - p;
    qru_matrix *Lb = nullptr, *L1b = nullptr, *Xb = nullptr;
    const char *wrap = "qru_matrix_wrap_batch";
    check(C.ctx,
          qru_matrix_wrap_batch(C.ctx, s.dt, n, n, qru_matrix_data(Fd), ld,
                                count, (long long)ld * m, &Lb),
          wrap);
    s.keep(Lb);
    check(C.ctx,
          qru_matrix_wrap_batch(C.ctx, s.dt, n1, n1, qru_matrix_data(Fd), ld,
                                count, (long long)ld * m, &L1b),
          wrap);
    s.keep(L1b);
    if (Xd) {
        int ldx = qru_matrix_ld(Xd);
        check(C.ctx,
              qru_matrix_wrap_batch(C.ctx, s.dt, n1, p, qru_matrix_data(Xd),
                                    ldx, count, (long long)ldx * p, &Xb),
              wrap);
        s.keep(Xb);
    }
    std::vector<int> info((size_t)count, 0);
    int st = Xb ? qru_chol_insert_batch(C.ctx, uplo, Lb, k, Xb, L1b,
                                        info.data())
                : qru_chol_delete_batch(C.ctx, uplo, Lb, k, p, L1b,
                                        info.data());
    if (st < 0)
        check(C.ctx, st,
              Xb ? "qru_chol_insert_batch" : "qru_chol_delete_batch");
    s.commit();
    return info;
}

std::vector<int> chol_insert_batch(Context &C, char uplo, const io_array &F,
                                   int n, int k, const in_array &X,
                                   int count, bool check_finite)
{
    int p = count > 0 ? (int)X.shape(1) / count : 0;
    return chol_insdel_batch(C, uplo, F, n, k, p, &X, count, check_finite);
}

std::vector<int> chol_delete_batch(Context &C, char uplo, const io_array &F,
                                   int n, int k, int p, int count,
                                   bool check_finite)
{
    return chol_insdel_batch(C, uplo, F, n, k, p, nullptr, count,
                             check_finite);
}

nb::object chol_insert(Context &C, char uplo, const in_array &L, int k,
                       const in_array &X, bool check_finite)
{
    Call s(C, check_finite);
    qru_matrix *Ld = s.in(L, "R"), *Xd = s.in(X, "x");
    int n1 = (int)X.shape(0);
    qru_matrix *L1 = s.tmp(n1, n1);
    check(C.ctx, qru_chol_insert(C.ctx, uplo, Ld, k, Xd, L1),
          "qru_chol_insert");
    return s.result(L1, uplo);
}

nb::object chol_delete(Context &C, char uplo, const in_array &L, int k,
                       int p, bool check_finite)
{
    Call s(C, check_finite);
    qru_matrix *Ld = s.in(L, "R");
    int n1 = (int)L.shape(0) - p;
    qru_matrix *L1 = s.tmp(n1, n1);
    check(C.ctx, qru_chol_delete(C.ctx, uplo, Ld, k, p, L1),
          "qru_chol_delete");
    return s.result(L1, uplo);
}

// The C call of chol_update alone, `reps` times on wrapped arrays,
// alternating update and downdate (so L stays what it was), then one
// synchronisation: the seconds a call, for the call-overhead benchmark.
double time_chol_update(Context &C, char uplo, const io_array &L,
                        const in_array &W, int reps)
{
    Call s(C, false);
    qru_matrix *Ld = s.inout(L, "R"), *Wd = s.in(W, "x");
    if (s.staged)
        throw nb::value_error("qru: time_chol_update needs arrays in the "
                              "backend's memory");
    C.sync();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; i++)
        check(C.ctx,
              qru_chol_update(C.ctx, uplo, Ld, Wd, i % 2 ? -1 : 1, Ld),
              "qru_chol_update");
    C.sync();
    std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    return dt.count() / (reps > 0 ? reps : 1);
}

// ---- the solvers on the updates ---------------------------------------------

// Non-negative least squares (qru_nnls): (x (m x 1), w (m x 1), rnorm,
// iterations, active, status) for A (n x m) and b (n x 1); status 0 or the
// cap (> 0: x is the last feasible iterate); maxiter 0 and tol < 0 are the
// library's defaults.  A and b are scanned by the solver itself (a NaN or
// an infinity is a bad argument), so no check_finite.
nb::tuple nnls(Context &C, const in_array &A, const in_array &b, int maxiter,
               double tol)
{
    Call s(C, false);
    qru_matrix *Ad = s.in(A, "A"), *bd = s.in(b, "b");
    int m = (int)A.shape(1);
    qru_matrix *x = s.tmp(m, 1), *w = s.tmp(m, 1);
    qru_solver_info info{};
    int st = qru_nnls(C.ctx, Ad, bd, maxiter, tol, x, w, &info);
    if (st < 0)
        check(C.ctx, st, "qru_nnls");
    return nb::make_tuple(s.result(x), s.result(w), info.rnorm,
                          info.iterations, info.active, st);
}

// ---- the least-squares factorisation --------------------------------------

// A call on an object an earlier call made (Lsq, LsqBatch): the arrays
// must be where the object's first ones were.
template <class O> struct OnObject : Call {
    OnObject(O &L, bool check_finite) : Call(L.C, check_finite)
    {
        host = L.host;
        dt = L.dt;
        nbound = 1;
    }
};

struct Lsq {
    Context &C;
    qru_lsq *f = nullptr;
    bool host = false; // created from host arrays: results go back as NumPy
    qru_dtype dt = (qru_dtype)0;

    Lsq(Context &c, const in_array &A, const in_array &b, int q,
        bool check_finite)
        : C(c)
    {
        Call s(C, check_finite);
        qru_matrix *Ad = s.in(A, "A"), *bd = s.in(b, "b");
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = q;
        check(C.ctx, qru_lsq_create(C.ctx, Ad, bd, &opt, &f),
              "qru_lsq_create");
        host = s.host;
        dt = s.dt;
    }
    Lsq(const Lsq &) = delete;
    ~Lsq() { qru_lsq_destroy(f); }

    using On = OnObject<Lsq>;

    void add_rows(int k, const in_array &U, const in_array &e,
                  bool check_finite)
    {
        On s(*this, check_finite);
        qru_matrix *Ud = s.in(U, "U"), *ed = s.in(e, "e");
        check(C.ctx, qru_lsq_add_rows(f, k, Ud, ed), "qru_lsq_add_rows");
    }
    void remove_rows(int k, int p)
    {
        check(C.ctx, qru_lsq_remove_rows(f, k, p), "qru_lsq_remove_rows");
    }
    void remove_rows_data(int k, const in_array &U, const in_array &e,
                          bool check_finite)
    {
        On s(*this, check_finite);
        qru_matrix *Ud = s.in(U, "U"), *ed = s.in(e, "e");
        check(C.ctx, qru_lsq_remove_rows_data(f, k, Ud, ed),
              "qru_lsq_remove_rows_data");
    }
    void add_cols(int k, const in_array &U, bool check_finite)
    {
        On s(*this, check_finite);
        check(C.ctx, qru_lsq_add_cols(f, k, s.in(U, "U")),
              "qru_lsq_add_cols");
    }
    void add_cols_data(int k, const in_array &U, const in_array &A,
                       const in_array &b, bool check_finite)
    {
        On s(*this, check_finite);
        qru_matrix *Ud = s.in(U, "U"), *Ad = s.in(A, "A"), *bd = s.in(b, "b");
        check(C.ctx, qru_lsq_add_cols_data(f, k, Ud, Ad, bd),
              "qru_lsq_add_cols_data");
    }
    void remove_cols(int k, int p)
    {
        check(C.ctx, qru_lsq_remove_cols(f, k, p), "qru_lsq_remove_cols");
    }
    void modify(const in_array &U, const in_array &V, bool check_finite)
    {
        On s(*this, check_finite);
        qru_matrix *Ud = s.in(U, "U"), *Vd = s.in(V, "V");
        check(C.ctx, qru_lsq_modify(f, Ud, Vd), "qru_lsq_modify");
    }
    nb::object solve()
    {
        On s(*this, false);
        qru_matrix *x = s.tmp(qru_lsq_cols(f), qru_lsq_nrhs(f));
        check(C.ctx, qru_lsq_solve(f, x), "qru_lsq_solve");
        return s.result(x);
    }
    std::vector<double> residual() const
    {
        std::vector<double> r((size_t)qru_lsq_nrhs(f));
        check(C.ctx, qru_lsq_get_residual_norms(f, r.data()), "qru_lsq_get_residual_norms");
        return r;
    }
    // which: 'Q', 'R', 'd', 'E'; full: n rows (Q n x n, R n x m, d n x r)
    // or the economy ones.
    nb::object get(char which, bool full)
    {
        On s(*this, false);
        int n = qru_lsq_rows(f), m = qru_lsq_cols(f), r = qru_lsq_nrhs(f);
        int rows = which == 'E' ? n : which == 'Q' ? n : full ? n : m;
        int cols = which == 'Q' ? (full ? n : m) : which == 'R' ? m : r;
        qru_matrix *M = s.tmp(rows, cols);
        int st = which == 'Q'   ? qru_lsq_get_q(f, M)
                 : which == 'R' ? qru_lsq_get_r(f, M)
                 : which == 'd' ? qru_lsq_get_d(f, M)
                                : qru_lsq_get_residuals(f, M);
        check(C.ctx, st, "qru_lsq_get");
        return s.result(M);
    }
    double error_estimate() const
    {
        double e = 0;
        check(C.ctx, qru_lsq_get_error_estimate(f, &e), "qru_lsq_get_error_estimate");
        return e;
    }
    void set_algorithm(int alg)
    {
        check(C.ctx,
              qru_lsq_set_update_algorithm(f, (qru_update_algorithm)alg),
              "qru_lsq_set_update_algorithm");
    }
};

// ---- batches of least-squares problems -------------------------------------

// The batch of count pages that M (rows x (count c), page i in columns
// i c .. i c + c - 1) holds, a view kept by the call.
static qru_matrix *pages(Call &s, qru_matrix *M, int count, const char *name)
{
    int rows = qru_matrix_rows(M), ld = qru_matrix_ld(M);
    int c = count > 0 ? qru_matrix_cols(M) / count : 0;
    qru_matrix *B = nullptr;
    check(s.C.ctx,
          qru_matrix_wrap_batch(s.C.ctx, s.dt, rows, c, qru_matrix_data(M),
                                ld, count, (long long)ld * c, &B),
          name);
    return s.keep(B);
}

// qru_lsq_batch: count factorisations of A's and b's pages in the form q
// (QRU_Q_NONE or QRU_Q_THIN), A n x (count m), b n x (count r) (the
// Python layer packs the batch).
struct LsqBatch {
    Context &C;
    qru_lsq_batch *f = nullptr;
    bool host = false;
    qru_dtype dt = (qru_dtype)0;
    int count = 0;

    LsqBatch(Context &c, const in_array &A, const in_array &b, int cnt,
             int q, bool check_finite)
        : C(c), count(cnt)
    {
        Call s(C, check_finite);
        qru_matrix *Ad = s.in(A, "A"), *bd = s.in(b, "b");
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = q;
        check(C.ctx,
              qru_lsq_batch_create_ex(C.ctx, pages(s, Ad, count, "A"),
                                      pages(s, bd, count, "b"), &opt, &f),
              "qru_lsq_batch_create_ex");
        host = s.host;
        dt = s.dt;
    }
    LsqBatch(const LsqBatch &) = delete;
    ~LsqBatch() { qru_lsq_batch_destroy(f); }

    using On = OnObject<LsqBatch>;

    // rows: each problem's count of U's rows (empty: all of them)
    void add_rows(const in_array &U, const in_array &e, bool check_finite,
                  const std::vector<int> &rows)
    {
        On s(*this, check_finite);
        qru_matrix *Ud = s.in(U, "U"), *ed = s.in(e, "e");
        check(C.ctx,
              qru_lsq_batch_add_rows_ex(f, pages(s, Ud, count, "U"),
                                        pages(s, ed, count, "e"),
                                        rows.empty() ? nullptr : rows.data()),
              "qru_lsq_batch_add_rows_ex");
    }
    // Each problem's info (0, or > 0: its removal refused, the problem
    // unchanged; the others lost the rows k .. k+p-1, or k .. k+rows[i]-1
    // with rows: each problem's count, empty: all p)
    std::vector<int> remove_rows(int k, int p, const std::vector<int> &rows)
    {
        std::vector<int> info((size_t)count, 0);
        int st = qru_lsq_batch_remove_rows_ex(
            f, k, p, info.data(), rows.empty() ? nullptr : rows.data());
        if (st < 0)
            check(C.ctx, st, "qru_lsq_batch_remove_rows_ex");
        return info;
    }
    // The columns k .. k+p-1 removed from every problem (both forms)
    void remove_cols(int k, int p)
    {
        check(C.ctx, qru_lsq_batch_remove_cols(f, k, p),
              "qru_lsq_batch_remove_cols");
    }
    // The columns of V (n x (count p), n the largest row count) inserted
    // after column k of every thin problem; each problem's info (0, or
    // > 0: it refused them, and then no problem changed)
    std::vector<int> add_cols(int k, const in_array &V, bool check_finite)
    {
        On s(*this, check_finite);
        qru_matrix *Vd = s.in(V, "V");
        std::vector<int> info((size_t)count, 0);
        int st = qru_lsq_batch_add_cols(f, k, pages(s, Vd, count, "V"),
                                        info.data());
        if (st < 0)
            check(C.ctx, st, "qru_lsq_batch_add_cols");
        return info;
    }
    // The same in every form with the current A (n x (count m)) and b
    // (n x (count r)) of the problems (the Q-less form inserts from them)
    std::vector<int> add_cols_data(int k, const in_array &V,
                                   const in_array &A, const in_array &b,
                                   bool check_finite)
    {
        On s(*this, check_finite);
        qru_matrix *Vd = s.in(V, "V"), *Ad = s.in(A, "A"), *bd = s.in(b, "b");
        std::vector<int> info((size_t)count, 0);
        int st = qru_lsq_batch_add_cols_data(f, k, pages(s, Vd, count, "V"),
                                             pages(s, Ad, count, "A"),
                                             pages(s, bd, count, "b"),
                                             info.data());
        if (st < 0)
            check(C.ctx, st, "qru_lsq_batch_add_cols_data");
        return info;
    }
    // A + U V' for every problem (U n x (count k), n the largest row
    // count; V m x (count k)), or those of the mask (empty: all); each
    // problem's info (0, or > 0: it refused, unchanged; the others
    // modified)
    std::vector<int> modify(const in_array &U, const in_array &V,
                            bool check_finite, const std::vector<int> &mask)
    {
        On s(*this, check_finite);
        qru_matrix *Ud = s.in(U, "U"), *Vd = s.in(V, "V");
        std::vector<int> info((size_t)count, 0);
        int st = qru_lsq_batch_modify_ex(
            f, pages(s, Ud, count, "U"), pages(s, Vd, count, "V"),
            info.data(), mask.empty() ? nullptr : mask.data());
        if (st < 0)
            check(C.ctx, st, "qru_lsq_batch_modify_ex");
        return info;
    }
    // which: 'Q' (n x (count m); the full form's n x (count n)), 'R' (m x
    // (count m)), 'd' (m x (count r); the full form's n x (count r)), 'E'
    // (n x (count r)); n the largest row count, the rows of a page below
    // its problem's row count unspecified
    nb::object get(char which)
    {
        On s(*this, false);
        int n = 0, m = qru_lsq_batch_cols(f), r = qru_lsq_batch_nrhs(f);
        for (int i = 0; i < count; i++)
            n = std::max(n, qru_lsq_batch_rows(f, i));
        bool full = qru_lsq_batch_q_form(f) == QRU_Q_FULL;
        int rows = which == 'Q' || which == 'E' || (full && which == 'd')
                       ? n
                       : m;
        int cols = which == 'R' ? m : which == 'Q' ? (full ? n : m) : r;
        static int (*const get[])(const qru_lsq_batch *, qru_matrix *) = {
            qru_lsq_batch_get_q, qru_lsq_batch_get_r, qru_lsq_batch_get_d,
            qru_lsq_batch_get_residuals};
        static const char keys[] = "QRdE";
        const char *at = std::strchr(keys, which);
        if (!which || !at)
            throw nb::value_error("qru: LsqBatch.get takes 'Q', 'R', 'd' "
                                  "or 'E'");
        qru_matrix *M = s.tmp(rows, count * cols);
        check(C.ctx, get[at - keys](f, pages(s, M, count, "M")),
              "qru_lsq_batch_get");
        return s.result(M);
    }
    std::vector<int> all_rows() const
    {
        std::vector<int> n((size_t)count);
        for (int i = 0; i < count; i++)
            n[(size_t)i] = qru_lsq_batch_rows(f, i);
        return n;
    }
    // U's and e's rows added to every problem, then X and info as solve's
    nb::tuple add_rows_solve(const in_array &U, const in_array &e,
                             bool check_finite)
    {
        On s(*this, check_finite);
        qru_matrix *Ud = s.in(U, "U"), *ed = s.in(e, "e");
        int m = qru_lsq_batch_cols(f), r = qru_lsq_batch_nrhs(f);
        qru_matrix *X = s.tmp(m, count * r);
        std::vector<int> info((size_t)count, 0);
        int st = qru_lsq_batch_add_rows_solve(f, pages(s, Ud, count, "U"),
                                              pages(s, ed, count, "e"),
                                              pages(s, X, count, "X"),
                                              info.data());
        if (st < 0)
            check(C.ctx, st, "qru_lsq_batch_add_rows_solve");
        return nb::make_tuple(s.result(X), info);
    }
    // X (m x (count r): a failed problem's page unspecified) and each
    // problem's info (0, or its first rank-deficient column, 1-based)
    nb::tuple solve()
    {
        On s(*this, false);
        int m = qru_lsq_batch_cols(f), r = qru_lsq_batch_nrhs(f);
        qru_matrix *X = s.tmp(m, count * r);
        std::vector<int> info((size_t)count, 0);
        int st = qru_lsq_batch_solve(f, pages(s, X, count, "X"), info.data());
        if (st < 0)
            check(C.ctx, st, "qru_lsq_batch_solve");
        return nb::make_tuple(s.result(X), info);
    }
    std::vector<double> residual() const
    {
        std::vector<double> r((size_t)count *
                              (size_t)qru_lsq_batch_nrhs(f));
        check(C.ctx, qru_lsq_batch_residual_norms(f, r.data()),
              "qru_lsq_batch_residual_norms");
        return r;
    }
};

// ---- orthogonal matching pursuit -----------------------------------------

// The context's QRU_TUNE_OMP_GRAM for one element type set for the
// lifetime of the guard (value < 0: left as it is), then restored.
struct OmpForm {
    qru_context *ctx;
    qru_dtype dt;
    int old = -1;
    OmpForm(qru_context *c, qru_dtype d, int value) : ctx(c), dt(d)
    {
        if (value < 0)
            return;
        check(ctx, qru_context_get_tuning(ctx, dt, QRU_TUNE_OMP_GRAM, &old),
              "qru_context_get_tuning");
        check(ctx, qru_context_set_tuning(ctx, dt, QRU_TUNE_OMP_GRAM, value),
              "qru_context_set_tuning");
    }
    OmpForm(const OmpForm &) = delete;
    ~OmpForm()
    {
        if (old >= 0)
            (void)qru_context_set_tuning(ctx, dt, QRU_TUNE_OMP_GRAM, old);
    }
};

// qru_omp on one X for each right-hand side ys[t] (n x 1): per target
// (status, coef (m x 1), path (ncoef x ncoef) or None, the columns chosen
// in order, ||y - X coef||, the reason of an early stop or "").  A status
// > 0 (the pursuit ended early, the outputs hold its result) is returned,
// not raised: the Python layer warns as scikit-learn does.  form: the
// QRU_TUNE_OMP_GRAM of the calls (0 the cost model's choice, 1 the
// residual form, 2 the Gram form; < 0 the context's).
std::vector<nb::tuple> omp(Context &C, const in_array &X,
                           const std::vector<in_array> &ys, int ncoef,
                           double tol, bool want_path, bool check_finite,
                           int form)
{
    Call s(C, check_finite);
    qru_matrix *Xd = s.in(X, "X");
    OmpForm guard(C.ctx, qru_matrix_dtype(Xd), form);
    int m = (int)X.shape(1);
    std::vector<nb::tuple> out;
    for (const in_array &y : ys) {
        qru_matrix *yd = s.in(y, "y");
        qru_matrix *coef = s.tmp(m, 1);
        qru_matrix *path = want_path ? s.tmp(ncoef, ncoef) : nullptr;
        std::vector<int> sup((size_t)(ncoef > 0 ? ncoef : 1));
        qru_solver_info info = {0, 0, 0.0};
        int st = qru_omp(C.ctx, Xd, yd, ncoef, tol, coef, path, sup.data(),
                         &info);
        if (st < 0)
            check(C.ctx, st, "qru_omp");
        std::string why = st > 0 ? qru_last_error(C.ctx) : "";
        sup.resize((size_t)info.active);
        nb::object P = path ? s.result(path) : nb::none();
        out.push_back(nb::make_tuple(st, s.result(coef), P, sup, info.rnorm,
                                     why));
    }
    return out;
}

// ---- least angle regression and the Lasso path --------------------------

// qru_lars on X (n x m) and y (n x 1): (status, alphas (nsteps + 1),
// the final active set in order of entry, coefs (m x (max_iter + 1), the
// first nsteps + 1 columns the path), nsteps, the reason of a status 1 or
// "", the columns dropped as degenerate).  A status 1 (the equiangular direction not defined; the path up to
// the step before returned) is returned, not raised: the Python layer
// warns.  X and y are scanned by the solver itself, so no check_finite.
nb::tuple lars(Context &C, const in_array &X, const in_array &y, bool lasso,
               bool positive, int max_iter, double alpha_min)
{
    Call s(C, false);
    qru_matrix *Xd = s.in(X, "X"), *yd = s.in(y, "y");
    int n = (int)X.shape(0), m = (int)X.shape(1);
    int kmax = n < m ? n : m;
    qru_matrix *coefs = s.tmp(m, max_iter + 1);
    std::vector<double> alphas((size_t)max_iter + 1);
    std::vector<int> active((size_t)(kmax > 0 ? kmax : 1));
    int nsteps = 0;
    qru_solver_info info{};
    int st = qru_lars(C.ctx, Xd, yd, lasso ? 1 : 0, positive ? 1 : 0,
                      max_iter, alpha_min, alphas.data(), active.data(),
                      coefs, &nsteps, &info);
    if (st < 0)
        check(C.ctx, st, "qru_lars");
    std::string why = st > 0 ? qru_last_error(C.ctx) : "";
    alphas.resize((size_t)nsteps + 1);
    size_t na = 0;
    while (na < (size_t)kmax && active[na] >= 0)
        ++na;
    active.resize(na);
    return nb::make_tuple(st, alphas, active, s.result(coefs), nsteps, why,
                          info.dropped);
}

// (status, line) of qru_backend_info: 0 and what the backend runs on, or
// its status and why it cannot run here.
std::tuple<int, std::string> backend_info(const std::string &name)
{
    char line[512];
    qru_backend b = name == "auto" ? QRU_BACKEND_AUTO : backend_of(name);
    int st = qru_backend_info(b, line, sizeof line);
    return {st, std::string(line)};
}

std::vector<std::string> backends()
{
    std::vector<std::string> out;
    const qru_backend all[] = {QRU_BACKEND_CPU, QRU_BACKEND_CUDA,
                               QRU_BACKEND_OPENCL};
    for (qru_backend b : all)
        if (qru_backend_compiled(b))
            out.push_back(qru_backend_name(b));
    return out;
}

} // namespace

NB_MODULE(_qru, mod)
{
    mod.doc() = "qru's C API for DLPack arrays (the qru package wraps it)";
    static nb::exception<numerical_failure> exc(mod, "QruNumericalError");
    static nb::exception<unsupported_failure> uexc(mod,
                                                   "QruUnsupportedError");
    mod.def("version", [] { return std::string(qru_version()); });
    mod.def("backends", &backends,
            "The backends this build of qru has (compiled in).");
    mod.def("backend_info", &backend_info, nb::arg("backend"),
            "qru_backend_info: (0, what the backend runs on) or (status, "
            "why it cannot run here); backend 'auto' names the one it "
            "picks.");

    nb::class_<Context>(mod, "Context")
        .def_prop_ro("device_name", &Context::device_name)
        .def_prop_ro("backend",
                     [](const Context &c) {
                         return std::string(qru_backend_name(c.backend));
                     })
        .def_ro("stream", &Context::stream)
        .def_ro("dl_device", &Context::dl_device)
        .def_ro("dl_id", &Context::dl_id)
        .def("sync", &Context::sync)
        .def("supports_complex", &Context::supports_complex,
             nb::arg("single"))
        .def("stats", &Context::stats);
    mod.def("context", &context, nb::arg("backend"), nb::arg("device"),
            nb::arg("stream"), nb::rv_policy::reference,
            "The cached context of (backend, device, stream); stream is a "
            "cudaStream_t as an integer (0: the context's own).");

    mod.def("qr_update", &qr_update, nb::arg("ctx"), nb::arg("Q"),
            nb::arg("R"), nb::arg("d"), nb::arg("op"), nb::arg("k"),
            nb::arg("U").none(), nb::arg("e").none(), nb::arg("p"),
            nb::arg("check_finite"), nb::arg("adopt"), nb::arg("rank"));
    mod.def("qr_factor", &qr_factor, nb::arg("ctx"), nb::arg("A"),
            nb::arg("check_finite"));
    mod.def("shift_block", &shift_block, nb::arg("A"), nb::arg("dr"),
            nb::arg("dc"));
    mod.def("blas_library", &blas_library,
            "The file of the OpenBLAS the library links, or ''.");
    mod.def("blas_threads", &blas_threads,
            "The thread count of the BLAS the library links (OpenBLAS), "
            "or -1 where it cannot be read.");
    mod.def("set_blas_threads", &set_blas_threads, nb::arg("n"),
            "Sets the thread count of the BLAS the library links "
            "(OpenBLAS); returns the count now, or -1 where it cannot be "
            "set.");
    mod.def("chol_update", &chol_update, nb::arg("ctx"), nb::arg("uplo"),
            nb::arg("L"), nb::arg("W"), nb::arg("sign"),
            nb::arg("check_finite"));
    mod.def("chol_update_batch", &chol_update_batch, nb::arg("ctx"),
            nb::arg("uplo"), nb::arg("L"), nb::arg("W"), nb::arg("count"),
            nb::arg("sign"), nb::arg("check_finite"), nb::arg("rank"));
    mod.def("chol_insert_batch", &chol_insert_batch, nb::arg("ctx"),
            nb::arg("uplo"), nb::arg("F"), nb::arg("n"), nb::arg("k"),
            nb::arg("X"), nb::arg("count"), nb::arg("check_finite"));
    mod.def("chol_delete_batch", &chol_delete_batch, nb::arg("ctx"),
            nb::arg("uplo"), nb::arg("F"), nb::arg("n"), nb::arg("k"),
            nb::arg("p"), nb::arg("count"), nb::arg("check_finite"));
    mod.def("chol_insert", &chol_insert, nb::arg("ctx"), nb::arg("uplo"),
            nb::arg("L"), nb::arg("k"), nb::arg("X"),
            nb::arg("check_finite"));
    mod.def("chol_delete", &chol_delete, nb::arg("ctx"), nb::arg("uplo"),
            nb::arg("L"), nb::arg("k"), nb::arg("p"),
            nb::arg("check_finite"));
    mod.def("time_chol_update", &time_chol_update, nb::arg("ctx"),
            nb::arg("uplo"), nb::arg("L"), nb::arg("W"), nb::arg("reps"));

    mod.def("nnls", &nnls, nb::arg("ctx"), nb::arg("A"), nb::arg("b"),
            nb::arg("maxiter"), nb::arg("tol"));

    nb::class_<LsqBatch>(mod, "LsqBatch")
        .def(nb::init<Context &, const in_array &, const in_array &, int,
                      int, bool>(),
             nb::arg("ctx"), nb::arg("A"), nb::arg("b"), nb::arg("count"),
             nb::arg("q"), nb::arg("check_finite"), nb::keep_alive<1, 2>())
        .def("add_rows", &LsqBatch::add_rows)
        .def("remove_rows", &LsqBatch::remove_rows)
        .def("remove_cols", &LsqBatch::remove_cols)
        .def("add_cols", &LsqBatch::add_cols)
        .def("add_cols_data", &LsqBatch::add_cols_data)
        .def("modify", &LsqBatch::modify)
        .def("solve", &LsqBatch::solve)
        .def("add_rows_solve", &LsqBatch::add_rows_solve)
        .def("residual", &LsqBatch::residual)
        .def("get", &LsqBatch::get)
        .def("all_rows", &LsqBatch::all_rows)
        .def_prop_ro("q_form",
                     [](const LsqBatch &b) { return qru_lsq_batch_q_form(b.f); });
    nb::class_<Lsq>(mod, "Lsq")
        .def(nb::init<Context &, const in_array &, const in_array &, int,
                      bool>(),
             nb::arg("ctx"), nb::arg("A"), nb::arg("b"), nb::arg("q"),
             nb::arg("check_finite"), nb::keep_alive<1, 2>())
        .def("add_rows", &Lsq::add_rows)
        .def("remove_rows", &Lsq::remove_rows)
        .def("remove_rows_data", &Lsq::remove_rows_data)
        .def("add_cols", &Lsq::add_cols)
        .def("add_cols_data", &Lsq::add_cols_data)
        .def("remove_cols", &Lsq::remove_cols)
        .def("modify", &Lsq::modify)
        .def("solve", &Lsq::solve)
        .def("residual", &Lsq::residual)
        .def("get", &Lsq::get)
        .def("error_estimate", &Lsq::error_estimate)
        .def("set_algorithm", &Lsq::set_algorithm)
        .def_prop_ro("rows", [](const Lsq &l) { return qru_lsq_rows(l.f); })
        .def_prop_ro("cols", [](const Lsq &l) { return qru_lsq_cols(l.f); })
        .def_prop_ro("nrhs", [](const Lsq &l) { return qru_lsq_nrhs(l.f); })
        .def_prop_ro("q_form",
                     [](const Lsq &l) { return qru_lsq_q_form(l.f); })
        .def_prop_ro("downdate_condition",
                     [](const Lsq &l) {
                         double c = 0.0; // 0 for a closed factorisation
                         qru_lsq_get_downdate_condition(l.f, &c);
                         return c;
                     })
        .def_prop_ro("last_update_path", [](const Lsq &l) {
            return qru_lsq_last_update_path(l.f);
        });

    mod.def("omp", &omp, nb::arg("ctx"), nb::arg("X"), nb::arg("ys"),
            nb::arg("ncoef"), nb::arg("tol"), nb::arg("want_path"),
            nb::arg("check_finite"), nb::arg("form") = -1,
            "qru_omp on X for each y of ys: (status, coef, path or None, "
            "support, rnorm, reason) a y; form: QRU_TUNE_OMP_GRAM for the "
            "calls (0 auto, 1 residual, 2 Gram; -1 the context's).");
    mod.def("lars", &lars, nb::arg("ctx"), nb::arg("X"), nb::arg("y"),
            nb::arg("lasso"), nb::arg("positive"), nb::arg("max_iter"),
            nb::arg("alpha_min"),
            "qru_lars on X and y: (status, alphas, active, coefs (m x "
            "max_iter + 1), nsteps, reason, dropped).");
}
