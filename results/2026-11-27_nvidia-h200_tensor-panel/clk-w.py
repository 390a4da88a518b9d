"""clock64() marks inside pc_w<double> (the tensor-core W, a copy for timing
only): Y written + barrier, the mma part and the in-block recurrence summed
over the column blocks, printed by lane 0 of warps 0 and 1 for a 264 x 64
panel (applied after clk-patch.py)."""
import sys
p = sys.argv[1]; s = open(p).read()
def rep(a, b):
    global s
    assert a in s, a
    s = s.replace(a, b, 1)
rep("""            Y[QRU_IDX(oy, i, j, ldy)] = P[i + (long)j * PC_LDP];
    __syncthreads();
    int nt = (m + 7) / 8, g = lane / 4, t = lane % 4;""",
"""            Y[QRU_IDX(oy, i, j, ldy)] = P[i + (long)j * PC_LDP];
    long long c0 = clock64(), cm = 0, cl = 0;
    __syncthreads();
    long long c1 = clock64();
    int nt = (m + 7) / 8, g = lane / 4, t = lane % 4;""")
rep("""        for (int k0 = 0; k0 < j0; k0 += 4) {
            double b = Tm""", """        long long d0 = clock64();
        for (int k0 = 0; k0 < j0; k0 += 4) {
            double b = Tm""")
rep("""        __syncwarp();
        for (int e = lane; e < 8 * PC_WT; e += QRU_TEAM) {""", """        __syncwarp();
        long long d1 = clock64(); cm += d1 - d0;
        for (int e = lane; e < 8 * PC_WT; e += QRU_TEAM) {""")
rep("""        __syncwarp();
    }
}
#endif""", """        __syncwarp();
        cl += clock64() - d1;
    }
    if (lane == 0 && w < 2 && nb == 64 && m == 264 && blockIdx.x == 0) { unsigned k = atomicAdd(&pc_dbg_count3, 1u); if (k >= 60 && k < 62) printf("pc_w warp %d: Y out %lld, barrier %lld, mma+init %lld, in-block %lld\\n", w, c0 - cy, c1 - c0, cm, cl); }
}
#endif""")
rep("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n/* double on the tensor cores: the same recurrence", "__device__ unsigned pc_dbg_count3;\n#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n/* double on the tensor cores: the same recurrence")
rep("""             int lid, int w, int lane)
{
    for (int j = w; j < nb; j += PC_WARPS)""", """             int lid, int w, int lane)
{
    long long cy = clock64();
    for (int j = w; j < nb; j += PC_WARPS)""")
open(p, 'w').write(s)
