"""The package as installed: `import qru` maps no CUDA or OpenCL library,
qru.show_config() says for every backend whether it runs here and why not,
and without the backend modules (a copy of the package without them) the
GPU backends are refused with the reason.  Each check runs in a fresh
Python process that reads its own /proc/self/maps (this process has
loaded modules already: conftest creates contexts)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

import qru

CUDA_LIBS = ("libcudart", "libcublas", "libcusolver", "libcusparse",
             "libnvJitLink", "libcuda.so", "libqru_cuda")
OPENCL_LIBS = ("libOpenCL", "libclblast", "libqru_opencl")

# run in the child: the libraries mapped after `import qru`, after
# show_config(), and show_config's dict
CHILD = r"""
import json, os, sys
def libs():
    with open("/proc/self/maps") as f:
        return sorted({l.split()[-1] for l in f if "/" in l})
import qru
after_import = libs()
config = qru.show_config("dicts")
after_config = libs()
json.dump({"import": after_import, "config": after_config,
           "show": config, "file": qru.__file__}, sys.stdout)
"""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="/proc/self/maps is Linux's")


def run_child(path=None):
    env = dict(os.environ)
    env.pop("QRU_MODULE_DIR", None)
    if path is not None:
        env["PYTHONPATH"] = path
    out = subprocess.run([sys.executable, "-c", CHILD], env=env,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def hits(paths, names):
    return [p for p in paths if os.path.basename(p).startswith(names)]


@pytest.fixture(scope="module")
def child():
    return run_child()


def test_import_maps_no_gpu_library(child):
    assert hits(child["import"], CUDA_LIBS) == []
    assert hits(child["import"], OPENCL_LIBS) == []


def test_show_config_says_why(child):
    c = child["show"]
    assert c["version"] == qru.__version__
    assert set(c["backends"]) == {"cpu", "cuda", "opencl"}
    assert c["backends"]["cpu"]["usable"]
    assert "BLAS" in c["backends"]["cpu"]["info"]
    assert "LAPACKE" in c["backends"]["cpu"]["info"]
    for b, v in c["backends"].items():
        assert v["built"] == (b in qru.backends())
        assert v["info"]
        if not v["built"]:
            assert "not compiled" in v["info"]
        elif v["usable"] and b != "cpu":
            assert "module " in v["info"] and f"libqru_{b}" in v["info"]
    assert c["auto"].split(":")[0] in qru.backends()
    cuda = c["backends"]["cuda"]
    if not cuda["usable"]:
        # the reason; and without a driver nothing of CUDA was loaded
        assert any(w in cuda["info"] for w in (
            "not compiled", "driver", "not found", "cannot be loaded",
            "device", "another qru")), cuda["info"]
        if "no CUDA driver" in cuda["info"] or "not compiled" in cuda["info"]:
            assert hits(child["config"], CUDA_LIBS) == []


def test_show_config_prints(capsys):
    assert qru.show_config() is None
    lines = capsys.readouterr().out.splitlines()
    c = qru.show_config("dicts")
    assert lines[0] == f"qru {qru.__version__}"
    assert lines[1] == "backends compiled in: " + " ".join(qru.backends())
    for line, b in zip(lines[2:5], ("cpu", "cuda", "opencl")):
        state = "usable" if c["backends"][b]["usable"] else "unavailable"
        assert line == f"  {b:<7} {state}: {c['backends'][b]['info']}"
    assert lines[5] == f"auto picks {c['auto']}"
    with pytest.raises(ValueError):
        qru.show_config("text")


def test_without_modules(child, tmp_path):
    """A copy of the package without libqru_cuda / libqru_opencl: the
    built GPU backends are refused, by show_config and by a call."""
    gpu = [b for b in ("cuda", "opencl") if b in qru.backends()]
    if not gpu:
        pytest.skip("no GPU backend built")
    pkg = os.path.dirname(child["file"])
    shutil.copytree(pkg, tmp_path / "qru",
                    ignore=shutil.ignore_patterns("libqru_*", "__pycache__"))
    c = run_child(str(tmp_path))
    assert os.path.dirname(c["file"]) == str(tmp_path / "qru")
    for b in gpu:
        v = c["show"]["backends"][b]
        assert v["built"] and not v["usable"]
        assert ("was not found" in v["info"] and str(tmp_path) in v["info"]) \
            or "no " in v["info"], v["info"]
    assert c["show"]["backends"]["cpu"]["usable"]
    # a call on such a backend raises with the library's reason
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("QRU_MODULE_DIR", None)
    r = subprocess.run([sys.executable, "-c",
                        f"import qru; qru.device_name({gpu[-1]!r})"],
                       env=env, capture_output=True, text=True)
    assert r.returncode != 0
    assert "RuntimeError" in r.stderr
    assert c["show"]["backends"][gpu[-1]]["info"] in r.stderr
