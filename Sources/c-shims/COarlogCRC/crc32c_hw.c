// CRC-32C with the SSE4.2 `crc32` instruction, three streams at once.
//
// One `crc32` has a latency of 3 cycles and a throughput of 1 per cycle, so a single stream
// runs at a third of the possible speed. The buffer is cut into three consecutive blocks of B
// bytes; each block gets its own CRC register, the three run interleaved, and the registers are
// combined at the end: crc(A|B|C) = shift(a, 2B) ^ shift(b, B) ^ c, where shift(s, n) = s * x^(8n)
// mod P. The shift is one carry-less multiply (PCLMULQDQ) by the constant x^(8n-33) mod P and one
// `crc32` of the 64-bit product (the -33 accounts for the bit reflection and the 32-bit shift of
// the instruction). Blocks of 4096, 512, 128 and 32 bytes each have their two constants; what is
// left after the blocks goes through one stream, 8 bytes and then 1 byte at a time.
//
// The functions carry `target("sse4.2,pclmul")` instead of compiler flags, so the rest of the
// package is built for the baseline CPU; `oarlog_crc32c_hw_available` checks at run time.

#include "COarlogCRC.h"

#if defined(__x86_64__)

#include <nmmintrin.h>
#include <string.h>
#include <wmmintrin.h>

int oarlog_crc32c_hw_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("pclmul");
}

static inline uint64_t load64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/// s * x^(8n) mod P, given k = x^(8n-33) mod P (bit-reflected).
__attribute__((target("sse4.2,pclmul")))
static inline uint64_t shift(uint64_t s, uint32_t k) {
    __m128i product = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)s), _mm_cvtsi32_si128((int)k), 0);
    return _mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(product));
}

/// Block length and the constants that shift a CRC by one and by two blocks (computed from
/// the polynomial 0x82F63B78; the tests check every length 0…1024 and more against software).
struct Level {
    size_t block;
    uint32_t shiftOne;
    uint32_t shiftTwo;
};

static const struct Level levels[] = {
    {4096, 0x82f89c77u, 0x54a86326u},
    {512, 0xdd7e3b0cu, 0x170076fau},
    {128, 0x0d3b6092u, 0xb9e02b86u},
    {32, 0xba4fc28eu, 0x9e4addf8u},
};

__attribute__((target("sse4.2,pclmul")))
uint32_t oarlog_crc32c_hw(uint32_t crc, const void *buf, size_t len) {
    const unsigned char *p = (const unsigned char *)buf;
    uint64_t c0 = (uint32_t)~crc;
    for (size_t level = 0; level < sizeof levels / sizeof levels[0]; level++) {
        const size_t block = levels[level].block;
        while (len >= 3 * block) {
            uint64_t c1 = 0, c2 = 0;
            const unsigned char *end = p + block;
            while (p < end) {
                c0 = _mm_crc32_u64(c0, load64(p));
                c1 = _mm_crc32_u64(c1, load64(p + block));
                c2 = _mm_crc32_u64(c2, load64(p + 2 * block));
                p += 8;
            }
            c0 = shift(c0, levels[level].shiftTwo) ^ shift(c1, levels[level].shiftOne) ^ c2;
            p += 2 * block;
            len -= 3 * block;
        }
    }
    while (len >= 8) {
        c0 = _mm_crc32_u64(c0, load64(p));
        p += 8;
        len -= 8;
    }
    uint32_t c = (uint32_t)c0;
    while (len > 0) {
        c = _mm_crc32_u8(c, *p++);
        len--;
    }
    return ~c;
}

#else

// Other CPUs: no hardware path (the caller uses its software CRC). A bitwise CRC keeps the
// function correct should it be called anyway.
int oarlog_crc32c_hw_available(void) { return 0; }

uint32_t oarlog_crc32c_hw(uint32_t crc, const void *buf, size_t len) {
    const unsigned char *p = (const unsigned char *)buf;
    uint32_t c = ~crc;
    while (len-- > 0) {
        c ^= *p++;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
    }
    return ~c;
}

#endif
