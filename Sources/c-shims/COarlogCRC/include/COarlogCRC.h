// Hardware CRC-32C (Castagnoli) for the session file's frame checksums.
#ifndef COARLOG_CRC_H
#define COARLOG_CRC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when this CPU has the instructions `oarlog_crc32c_hw` uses (x86-64 with SSE4.2 and
/// PCLMULQDQ), else 0. Callers check it once and otherwise use a software CRC.
int oarlog_crc32c_hw_available(void);

/// The CRC-32C of `len` bytes at `buf`, continuing from `crc` (the CRC of the bytes before; 0 to
/// start): the same value as the software slicing-by-8. Only call it when
/// `oarlog_crc32c_hw_available()` returned 1. `buf` may be NULL when `len` is 0.
uint32_t oarlog_crc32c_hw(uint32_t crc, const void *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
