/* Oarlog's only window on libgps. Everything that differs between gpsd API versions lives here,
 * so the Swift side compiles unchanged against Debian 12's gpsd 3.22 (API 11) and newer ones.
 * Unknown values are NaN (doubles) or 0 / -1 as documented per helper. */
#ifndef OARLOG_GPS_SHIM_H
#define OARLOG_GPS_SHIM_H

#include <gps.h>
#include <math.h>
#include <stdint.h>
#include <stddef.h>

/* Time of the fix in whole nanoseconds since 1970-01-01 UTC; 0 when gpsd has no time yet.
 * API >= 9 keeps a timespec (exact); older APIs a double of seconds (0 or NaN = unknown). */
static inline int64_t oarlog_gps_fix_time_ns(const struct gps_fix_t *fix) {
#if GPSD_API_MAJOR_VERSION >= 9
    if (fix->time.tv_sec == 0 && fix->time.tv_nsec == 0) return 0;
    return (int64_t)fix->time.tv_sec * 1000000000LL + (int64_t)fix->time.tv_nsec;
#else
    if (!isfinite(fix->time) || fix->time <= 0) return 0;
    return (int64_t)llround(fix->time * 1e9);
#endif
}

/* Altitude above mean sea level in metres (NaN when unknown). API >= 9 splits MSL and HAE. */
static inline double oarlog_gps_fix_altitude_msl(const struct gps_fix_t *fix) {
#if GPSD_API_MAJOR_VERSION >= 9
    return fix->altMSL;
#else
    return fix->altitude;
#endif
}

/* Satellites used in the solution, valid right after a SKY report was read. */
static inline int oarlog_gps_satellites_used(const struct gps_data_t *data) {
    return data->satellites_used;
}

/* Reads one report. Copies up to `length - 1` bytes of the raw JSON line into `message`
 * (API >= 7; older APIs leave it empty). Returns -1 on error or end of stream, 0 when no
 * complete report was waiting, otherwise the length of the report. */
static inline int oarlog_gps_read(struct gps_data_t *data, char *message, int length) {
#if GPSD_API_MAJOR_VERSION >= 7
    return gps_read(data, message, length);
#else
    if (message && length > 0) message[0] = 0;
    return gps_read(data);
#endif
}

/* Asks gpsd for JSON reports (of one device when `device` is not NULL). 0 on success. */
static inline int oarlog_gps_watch(struct gps_data_t *data, const char *device) {
    unsigned int flags = WATCH_ENABLE | WATCH_JSON;
    if (device != NULL) flags |= WATCH_DEVICE;
    return gps_stream(data, flags, (void *)device);
}

/* Stops the reports (best effort, before closing). */
static inline void oarlog_gps_unwatch(struct gps_data_t *data) {
    (void)gps_stream(data, WATCH_DISABLE, NULL);
}

/* The gpsd API version this was compiled against, for diagnostics. */
static inline int oarlog_gps_api_major(void) { return GPSD_API_MAJOR_VERSION; }
static inline int oarlog_gps_api_minor(void) { return GPSD_API_MINOR_VERSION; }

#endif
