/* A minimal PNG writer: 8-bit RGB, no interlace, no compression library.
 * Each scanline has the filter 'Sub' (the difference to the pixel on the
 * left), so that a plot's flat areas become runs of zeros, and the zlib
 * stream is one deflate block with the fixed Huffman codes whose only
 * matches are runs (distance 1): small files for plots, valid PNG always.
 * CRC-32 and Adler-32 are computed here. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc_update(uint32_t c, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* One chunk: length, type, data, CRC of type and data. */
static int chunk(FILE *f, const char *type, const unsigned char *data,
                 size_t n)
{
    unsigned char hdr[8];
    put32(hdr, (uint32_t)n);
    memcpy(hdr + 4, type, 4);
    uint32_t c = crc_update(0xffffffffu, hdr + 4, 4);
    c = crc_update(c, data, n) ^ 0xffffffffu;
    unsigned char crc[4];
    put32(crc, c);
    return fwrite(hdr, 1, 8, f) != 8 || (n && fwrite(data, 1, n, f) != n) ||
           fwrite(crc, 1, 4, f) != 4;
}

/* ---- deflate with fixed Huffman codes and run matches ---- */
typedef struct bits {
    unsigned char *p;
    size_t n, cap;
    unsigned acc, nacc;
} bits;

static int put_bits(bits *b, unsigned v, unsigned n) /* LSB first */
{
    b->acc |= v << b->nacc;
    b->nacc += n;
    while (b->nacc >= 8) {
        if (b->n == b->cap)
            return -1;
        b->p[b->n++] = (unsigned char)b->acc;
        b->acc >>= 8;
        b->nacc -= 8;
    }
    return 0;
}

/* a Huffman code of n bits, written from its most significant bit */
static int put_code(bits *b, unsigned code, unsigned n)
{
    unsigned r = 0;
    for (unsigned i = 0; i < n; i++)
        r |= ((code >> i) & 1u) << (n - 1 - i);
    return put_bits(b, r, n);
}

/* literal/length symbol v (0..287) in the fixed code */
static int put_sym(bits *b, unsigned v)
{
    if (v < 144)
        return put_code(b, 0x30 + v, 8);
    if (v < 256)
        return put_code(b, 0x190 + v - 144, 9);
    if (v < 280)
        return put_code(b, v - 256, 7);
    return put_code(b, 0xc0 + v - 280, 8);
}

/* a match of length len (3..258) at distance 1 */
static int put_run(bits *b, unsigned len)
{
    static const unsigned short base[] = {3,  4,  5,  6,  7,  8,  9,  10,
                                          11, 13, 15, 17, 19, 23, 27, 31,
                                          35, 43, 51, 59, 67, 83, 99, 115,
                                          131, 163, 195, 227, 258};
    static const unsigned char extra[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                          1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                          4, 4, 4, 4, 5, 5, 5, 5, 0};
    int k = 28;
    while (base[k] > len)
        k--;
    return put_sym(b, 257 + (unsigned)k) ||
           put_bits(b, len - base[k], extra[k]) ||
           put_code(b, 0, 5); /* distance code 0: distance 1 */
}

/* The deflate stream of r[0 .. n-1] into b; 0 or -1 (out of room). */
static int deflate_runs(bits *b, const unsigned char *r, size_t n)
{
    if (put_bits(b, 1, 1) || put_bits(b, 1, 2)) /* BFINAL, fixed codes */
        return -1;
    for (size_t i = 0; i < n;) {
        size_t len = 0;
        if (i > 0)
            while (len < 258 && i + len < n && r[i + len] == r[i - 1])
                len++;
        if (len >= 3) {
            if (put_run(b, (unsigned)len))
                return -1;
            i += len;
        } else if (put_sym(b, r[i++])) {
            return -1;
        }
    }
    if (put_sym(b, 256)) /* end of block */
        return -1;
    return b->nacc ? put_bits(b, 0, 8 - b->nacc) : 0;
}

int png_write(const char *path, int w, int h, const unsigned char *rgb)
{
    crc_init();
    /* the filtered scanlines: filter byte 1 (Sub), then w RGB pixels as
     * differences to the pixel on the left */
    size_t line = 1 + 3 * (size_t)w, raw = line * (size_t)h;
    unsigned char *r = malloc(raw);
    bits b = {NULL, 0, 2 + raw + raw / 8 + 64, 0, 0};
    b.p = malloc(b.cap);
    if (!r || !b.p) {
        free(r);
        free(b.p);
        return -1;
    }
    for (int y = 0; y < h; y++) {
        const unsigned char *src = rgb + 3 * (size_t)w * y;
        unsigned char *dst = r + y * line;
        dst[0] = 1;
        for (size_t x = 0; x < 3 * (size_t)w; x++)
            dst[1 + x] = (unsigned char)(src[x] - (x >= 3 ? src[x - 3] : 0));
    }
    b.p[b.n++] = 0x78; /* deflate, 32 KiB window */
    b.p[b.n++] = 0x01; /* no dictionary; 0x7801 is a multiple of 31 */
    int bad = deflate_runs(&b, r, raw);
    uint32_t a = 1, s2 = 0; /* Adler-32 of the filtered data */
    for (size_t i = 0; i < raw; i++) {
        a = (a + r[i]) % 65521u;
        s2 = (s2 + a) % 65521u;
    }
    if (!bad && b.n + 4 <= b.cap) {
        put32(b.p + b.n, (s2 << 16) | a);
        b.n += 4;
    } else {
        bad = 1;
    }
    unsigned char ihdr[13];
    put32(ihdr, (uint32_t)w);
    put32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 2;  /* colour type: RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering */
    ihdr[12] = 0; /* no interlace */
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G',
                                         '\r', '\n', 0x1a, '\n'};
    FILE *f = bad ? NULL : fopen(path, "wb");
    bad = bad || !f;
    if (f) {
        bad = fwrite(sig, 1, 8, f) != 8 || chunk(f, "IHDR", ihdr, 13) ||
              chunk(f, "IDAT", b.p, b.n) || chunk(f, "IEND", NULL, 0);
        bad |= fclose(f) != 0;
    }
    free(b.p);
    free(r);
    return bad ? -1 : 0;
}
