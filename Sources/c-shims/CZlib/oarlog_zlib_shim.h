/* Oarlog's only window on zlib (Debian zlib1g-dev): raw deflate streams inflated for a zip's
 * entries (`oarlog import`, the web app's import), and the CRC-32 a zip entry is checked by.
 * inflateInit2 is a macro in zlib.h, which Swift cannot call: a function here stands for it. */
#ifndef OARLOG_ZLIB_SHIM_H
#define OARLOG_ZLIB_SHIM_H

#include <zlib.h>

/* Starts inflating a raw deflate stream (no zlib or gzip header: as a zip entry holds it). */
static inline int oarlog_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

#endif
