"""(2026-11-27 tensor-panel: the s1-timeline script adapted to pc_dots / pc_w.)
clock64() marks in the warp-chain panel (a copy, for timing only): the
chain step's parts (as dev9 of the warp-panel record) and the kernel's
phases, printed once for a 264 x 64 double panel."""
import sys
p = sys.argv[1]; s = open(p).read()
def rep(a, b):
    global s
    assert a in s, a
    s = s.replace(a, b, 1)
rep("template <typename T>\n__global__ void __launch_bounds__(PC_THREADS, 1)",
    "__device__ unsigned pc_dbg_count, pc_dbg_count2;\ntemplate <typename T>\n__global__ void __launch_bounds__(PC_THREADS, 1)")
rep("    extern __shared__ __align__(16) unsigned char qru_panel_smem_[];",
    "    long long k0 = clock64(), k1 = 0;\n    extern __shared__ __align__(16) unsigned char qru_panel_smem_[];")
rep("        for (int j = 0;;) {", "        long long a01 = 0, a12 = 0, a23 = 0, tw = 0;\n        for (int j = 0;;) { long long q0 = clock64();")
rep("            pc_wait(&hand[j], 1);", "            long long qw = clock64(); pc_wait(&hand[j], 1); long long q1 = clock64(); a01 += q1 - q0; tw += q1 - qw;")
rep("            T pd = x1 + al * vj + xv;", "            T pd = x1 + al * vj + xv; long long q2 = clock64(); a12 += q2 - q1;")
rep("                t = qru_preg_house<T>(m, j, x, vo, tv, lane);\n            }", "                t = qru_preg_house<T>(m, j, x, vo, tv, lane);\n            }\n            a23 += clock64() - q2;")
rep("    } else if (w <= PC_HELPERS) { /* a helper", "        k1 = clock64();\n        if (lane == 0 && nb == 64 && m == 264) { unsigned k = atomicAdd(&pc_dbg_count, 1u); if (k == 30 || k == 31) printf(\"chain cycles a step (%d bytes T): top to hand-off %lld (of it waiting %lld), loads + sums %lld, the rest %lld\\n\", (int)sizeof(T), a01 / (nb - 1), tw / (nb - 1), a12 / (nb - 1), a23 / (nb - 1)); }\n    } else if (w <= PC_HELPERS) { /* a helper")
rep("    __syncthreads();\n    pc_dots<T>", "    __syncthreads(); long long k2 = clock64();\n    pc_dots<T>")
if "qru_panel_tbuild<T>(nb" in s:  # dev14: T built, then W = -Y T
    rep("    __syncthreads();\n    qru_panel_tbuild<T>(nb, Tm, PC_NB, tv, lid, PC_THREADS);\n",
        "    __syncthreads(); long long k3 = clock64();\n    qru_panel_tbuild<T>(nb, Tm, PC_NB, tv, lid, PC_THREADS);\n    long long k4 = clock64();\n")
else:  # dev15: W by the recurrence (k4 = k3: no T build)
    rep("    __syncthreads();\n    pc_w<T>(",
        "    __syncthreads(); long long k3 = clock64(), k4 = k3;\n    pc_w<T>(")
rep("    /* A (R with exact zeros), tau */", "    long long k5 = clock64();\n    /* A (R with exact zeros), tau */")
rep("        tau[ot + j] = tv[j];\n}", "        tau[ot + j] = tv[j];\n    if (lid == 0 && nb == 64 && m == 264) { unsigned k = atomicAdd(&pc_dbg_count2, 1u); if (k == 30 || k == 31) printf(\"phases (cycles, %d bytes T): start to chain end %lld, to barrier %lld, Z %lld, tbuild %lld, W %lld, out %lld\\n\", (int)sizeof(T), k1 - k0, k2 - k1, k3 - k2, k4 - k3, k5 - k4, clock64() - k5); }\n}")
open(p, 'w').write(s)
