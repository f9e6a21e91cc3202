/* Oarlog's only window on libiio. Debian 12 ships libiio 0.24; upstream libiio 1.0 replaced the
 * buffer API (iio_device_create_buffer/iio_buffer_refill became iio_buffer_create, iio_block and
 * iio_stream) and moved the header to <iio/iio.h>. Everything that touches a buffer or creates a
 * context goes through the oarlog_iio_* functions below, so a port to 1.0 changes this file only.
 * Errors come back as positive errno values. */
#ifndef OARLOG_IIO_SHIM_H
#define OARLOG_IIO_SHIM_H

#if defined(__has_include)
#if __has_include(<iio/iio.h>)
#error "libiio 1.x found: port the oarlog_iio_* buffer and context functions in oarlog_iio_shim.h to its iio_buffer/iio_block API"
#endif
#endif

#include <iio.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>

/* Opens the context at `uri` ("local:", "ip:host", "ip:host:port"). NULL and *error set on failure. */
static inline struct iio_context *oarlog_iio_context_open(const char *uri, int *error) {
    errno = 0;
    struct iio_context *ctx = iio_create_context_from_uri(uri);
    if (ctx == NULL) *error = errno != 0 ? errno : ENODEV;
    return ctx;
}

/* Sets how long a buffer refill (and any network operation) may block. 0 on success. */
static inline int oarlog_iio_context_set_timeout_ms(struct iio_context *ctx, unsigned int ms) {
    int ret = iio_context_set_timeout(ctx, ms);
    return ret < 0 ? -ret : 0;
}

/* Creates a buffer of `samples` scans for the enabled channels (this also enables the kernel
 * buffer). Non-cyclic. NULL and *error set on failure. */
static inline struct iio_buffer *oarlog_iio_buffer_open(const struct iio_device *dev, size_t samples, int *error) {
    errno = 0;
    struct iio_buffer *buf = iio_device_create_buffer(dev, samples, false);
    if (buf == NULL) *error = errno != 0 ? errno : EIO;
    return buf;
}

/* Blocks until the buffer holds new scans or the context timeout expires. Returns the number of
 * bytes now in the buffer, or minus an errno value (-ETIMEDOUT on timeout). */
static inline ssize_t oarlog_iio_buffer_refill(struct iio_buffer *buf) {
    return iio_buffer_refill(buf);
}

/* First byte of the data the last refill delivered. */
static inline const uint8_t *oarlog_iio_buffer_bytes(const struct iio_buffer *buf) {
    return (const uint8_t *)iio_buffer_start(buf);
}

/* Bytes from one scan to the next. */
static inline ptrdiff_t oarlog_iio_buffer_step(const struct iio_buffer *buf) {
    return iio_buffer_step(buf);
}

/* Offset of an enabled channel's value inside each scan. */
static inline ptrdiff_t oarlog_iio_buffer_channel_offset(const struct iio_buffer *buf, const struct iio_channel *chn) {
    return (const char *)iio_buffer_first(buf, chn) - (const char *)iio_buffer_start(buf);
}

/* Makes a blocked refill return at once (safe from another thread). */
static inline void oarlog_iio_buffer_cancel(struct iio_buffer *buf) {
    iio_buffer_cancel(buf);
}

/* Disables the kernel buffer and frees it. */
static inline void oarlog_iio_buffer_close(struct iio_buffer *buf) {
    iio_buffer_destroy(buf);
}

/* The scan-element format libiio parsed from the channel's `_type` file (or iiod's XML). */
static inline void oarlog_iio_channel_format(const struct iio_channel *chn, unsigned int *length_bits,
                                             unsigned int *bits, unsigned int *shift, bool *is_signed,
                                             bool *is_big_endian, unsigned int *repeat) {
    const struct iio_data_format *f = iio_channel_get_data_format(chn);
    *length_bits = f->length;
    *bits = f->bits;
    *shift = f->shift;
    *is_signed = f->is_signed;
    *is_big_endian = f->is_be;
    *repeat = f->repeat;
}

/* libiio's version, for diagnostics. */
static inline void oarlog_iio_library_version(unsigned int *major, unsigned int *minor) {
    iio_library_get_version(major, minor, NULL);
}

#endif
