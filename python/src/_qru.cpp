// The Python module _qru: the qru C API for NumPy arrays on the host
// (issue 17).  The Python layer (qru/__init__.py) checks and converts the
// arguments (SciPy's names and rules) and calls qr_update with
// Fortran-ordered float64 or float32 arrays; this file maps them onto a
// qru_lsq factorisation (qru_lsq_create_from_qr), runs one block update and
// returns the new factors.  Library statuses become Python exceptions
// carrying the library's message: ValueError for a bad argument (-i),
// LinAlgError (raised by the Python layer from QruLinAlgError) for a
// numerical failure (> 0), RuntimeError for the rest.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include "qru.h"
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

qru_backend backend_of(const std::string &name)
{
    if (name == "cpu")
        return QRU_BACKEND_CPU;
    if (name == "cuda")
        return QRU_BACKEND_CUDA;
    if (name == "opencl")
        return QRU_BACKEND_OPENCL;
    throw nb::value_error(("unknown backend '" + name +
                           "' (cpu, cuda or opencl)")
                              .c_str());
}

// One context per backend, created on first use and kept for the
// process (contexts hold device handles and workspace).
qru_context *context(const std::string &name)
{
    static std::map<std::string, qru_context *> ctxs;
    auto it = ctxs.find(name);
    if (it != ctxs.end())
        return it->second;
    qru_context *ctx = nullptr;
    int st = qru_context_create(backend_of(name), &ctx);
    if (st != 0)
        throw std::runtime_error("qru backend '" + name + "': " +
                                 qru_strerror(st));
    ctxs[name] = ctx;
    return ctx;
}

void check(qru_context *ctx, int st, const char *fn)
{
    if (st == 0)
        return;
    const char *msg = qru_last_error(ctx);
    std::string m = std::string(fn) + ": " +
                    (msg && *msg ? msg : qru_strerror(st));
    if (st > 0)
        throw numerical_failure(st, m);
    if (st > -100)
        throw nb::value_error(m.c_str());
    throw std::runtime_error(m);
}

// Owns the library objects of one call.
struct scope {
    qru_context *ctx;
    std::vector<qru_matrix *> mats;
    qru_lsq *f = nullptr;
    ~scope()
    {
        for (auto *m : mats)
            qru_matrix_destroy(m);
        qru_lsq_destroy(f);
    }
    qru_matrix *matrix(qru_dtype dt, int rows, int cols)
    {
        qru_matrix *M = nullptr;
        check(ctx, qru_matrix_create(ctx, dt, rows, cols, 0, &M),
              "qru_matrix_create");
        mats.push_back(M);
        return M;
    }
};

template <typename T>
using farray = nb::ndarray<T, nb::numpy, nb::ndim<2>, nb::f_contig,
                           nb::device::cpu>;

template <typename T> constexpr qru_dtype dtype_of()
{
    return sizeof(T) == 8 ? QRU_DOUBLE : QRU_FLOAT;
}

template <typename T>
qru_matrix *upload(scope &s, const farray<T> &a)
{
    int rows = (int)a.shape(0), cols = (int)a.shape(1);
    qru_matrix *M = s.matrix(dtype_of<T>(), rows, cols);
    if (rows > 0 && cols > 0)
        check(s.ctx, qru_matrix_upload(M, a.data(), rows),
              "qru_matrix_upload");
    return M;
}

// A new Fortran-ordered NumPy array holding M.
template <typename T> nb::object download(scope &s, const qru_matrix *M)
{
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
    T *buf = new T[(size_t)rows * cols > 0 ? (size_t)rows * cols : 1];
    nb::capsule owner(buf, [](void *p) noexcept { delete[] (T *)p; });
    if (rows > 0 && cols > 0)
        check(s.ctx, qru_matrix_download(M, buf, rows),
              "qru_matrix_download");
    size_t shape[2] = {(size_t)rows, (size_t)cols};
    int64_t strides[2] = {1, rows};
    return nb::cast(
        nb::ndarray<T, nb::numpy, nb::ndim<2>>(buf, 2, shape, owner, strides));
}

// op: 0 add columns, 1 remove columns, 2 add rows, 3 remove rows (the
// order of the library's updates); U the new columns (n x p) or rows
// (p x m), p the count of removed ones.
template <typename T>
nb::tuple qr_update_t(const std::string &backend, farray<T> Q, farray<T> R,
                      int op, int k, std::optional<farray<T>> U, int p)
{
    scope s{context(backend)};
    qru_dtype dt = dtype_of<T>();
    int n = (int)Q.shape(0), m = (int)R.shape(1);
    int rr = (int)R.shape(0); // n (full) or m (economy)
    qru_matrix *Qd = upload(s, Q), *Rd = upload(s, R);
    qru_matrix *d = s.matrix(dt, rr, 1);
    {
        std::vector<T> z((size_t)rr, (T)0);
        check(s.ctx, qru_matrix_upload(d, z.data(), rr), "qru_matrix_upload");
    }
    check(s.ctx, qru_lsq_create_from_qr(s.ctx, Qd, Rd, d, nullptr, &s.f),
          "qru_lsq_create_from_qr");
    if (op == 0) {
        check(s.ctx, qru_lsq_add_cols(s.f, k, upload(s, *U)),
              "qru_lsq_add_cols");
    } else if (op == 1) {
        check(s.ctx, qru_lsq_remove_cols(s.f, k, p), "qru_lsq_remove_cols");
    } else if (op == 2) {
        int pr = (int)U->shape(0);
        qru_matrix *e = s.matrix(dt, pr, 1);
        std::vector<T> z((size_t)pr, (T)0);
        check(s.ctx, qru_matrix_upload(e, z.data(), pr), "qru_matrix_upload");
        check(s.ctx, qru_lsq_add_rows(s.f, k, upload(s, *U), e),
              "qru_lsq_add_rows");
    } else {
        check(s.ctx, qru_lsq_remove_rows(s.f, k, p), "qru_lsq_remove_rows");
    }
    n = qru_lsq_rows(s.f);
    m = qru_lsq_cols(s.f);
    int econ = qru_lsq_q_form(s.f) == QRU_Q_THIN;
    qru_matrix *Q1 = s.matrix(dt, n, econ ? m : n);
    qru_matrix *R1 = s.matrix(dt, econ ? m : n, m);
    check(s.ctx, qru_lsq_get_q(s.f, Q1), "qru_lsq_get_q");
    check(s.ctx, qru_lsq_get_r(s.f, R1), "qru_lsq_get_r");
    return nb::make_tuple(download<T>(s, Q1), download<T>(s, R1));
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

std::string device_name(const std::string &backend)
{
    const char *s = qru_context_device_name(context(backend));
    return s ? s : "";
}

} // namespace

NB_MODULE(_qru, mod)
{
    mod.doc() = "qru's C API for NumPy arrays (the qru package wraps it)";
    static nb::exception<numerical_failure> exc(mod, "QruNumericalError");
    mod.def("version", [] { return std::string(qru_version()); });
    mod.def("backends", &backends,
            "The backends this build of qru has (compiled in).");
    mod.def("device_name", &device_name, nb::arg("backend"),
            "The device of a backend's context (created on first use).");
    mod.def("qr_update", &qr_update_t<double>, nb::arg("backend"),
            nb::arg("Q"), nb::arg("R"), nb::arg("op"), nb::arg("k"),
            nb::arg("U").none(), nb::arg("p"));
    mod.def("qr_update", &qr_update_t<float>, nb::arg("backend"),
            nb::arg("Q"), nb::arg("R"), nb::arg("op"), nb::arg("k"),
            nb::arg("U").none(), nb::arg("p"));
}
