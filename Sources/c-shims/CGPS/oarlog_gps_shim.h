/* Oarlog's only window on libgps. Everything that differs between gpsd API versions lives here,
 * so the Swift side compiles unchanged against Debian 12's gpsd 3.22 (API 11) and newer ones.
 * Unknown values are NaN (doubles) or 0 / -1 as documented per helper. */
#ifndef OARLOG_GPS_SHIM_H
#define OARLOG_GPS_SHIM_H

#include <gps.h>
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

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

/* Sends one command to gpsd ("?DEVICES;"). gps_send is printf-like (variadic), which Swift
 * cannot call. 0 on success, -1 on failure (errno says why). */
static inline int oarlog_gps_send(struct gps_data_t *data, const char *command) {
    return gps_send(data, "%s", command);
}

/* The receivers of the latest DEVICES report libgps parsed (at most MAXUSERDEVS). */
static inline int oarlog_gps_device_count(const struct gps_data_t *data) {
    int n = data->devices.ndevices;
    if (n < 0) return 0;
    return n > MAXUSERDEVS ? MAXUSERDEVS : n;
}

static inline const struct devconfig_t *oarlog_gps_device_at(const struct gps_data_t *data, int index) {
    return &data->devices.list[index];
}

/* The text fields of a device, always NUL-terminated. subtype1 (firmware, API >= 9) is "" before. */
static inline const char *oarlog_gps_device_path(const struct devconfig_t *dev) { return dev->path; }
static inline const char *oarlog_gps_device_driver(const struct devconfig_t *dev) { return dev->driver; }
static inline const char *oarlog_gps_device_subtype(const struct devconfig_t *dev) { return dev->subtype; }
static inline const char *oarlog_gps_device_subtype1(const struct devconfig_t *dev) {
#if GPSD_API_MAJOR_VERSION >= 9
    return dev->subtype1;
#else
    (void)dev;
    return "";
#endif
}

/* Serial speed in bit/s (0 when gpsd gave none, e.g. a network source). */
static inline unsigned int oarlog_gps_device_bps(const struct devconfig_t *dev) { return dev->baudrate; }

/* 1 when gpsd has the device active (its "activated" time is set). API >= 9 keeps a timespec,
 * older APIs a double of seconds. */
static inline int oarlog_gps_device_active(const struct devconfig_t *dev) {
#if GPSD_API_MAJOR_VERSION >= 9
    return dev->activated.tv_sec != 0 || dev->activated.tv_nsec != 0;
#else
    return isfinite(dev->activated) && dev->activated > 0;
#endif
}

/* The device's reporting cycle in seconds; NaN when unknown.
 * libgps of gpsd 3.22 (Debian 12) parses a DEVICES report's "cycle" as a double (t_real, default
 * NaN) into the timespec_t field, so the double's bits sit in tv_sec (1.00 s reads as
 * tv_sec 0x3ff0000000000000); later libgps parse it as a timespec (default 0). A plausible
 * timespec (0 <= tv_sec <= 1 h) is taken as one, anything else as those double bits. */
static inline double oarlog_gps_device_cycle(const struct devconfig_t *dev) {
    double seconds = NAN;
#if GPSD_API_MAJOR_VERSION >= 9
    if (dev->cycle.tv_sec >= 0 && dev->cycle.tv_sec <= 3600
        && dev->cycle.tv_nsec >= 0 && dev->cycle.tv_nsec < 1000000000L) {
        seconds = (double)dev->cycle.tv_sec + (double)dev->cycle.tv_nsec * 1e-9;
    } else if (sizeof(dev->cycle.tv_sec) == sizeof(double)) {
        memcpy(&seconds, &dev->cycle.tv_sec, sizeof seconds);
    }
#else
    seconds = dev->cycle;
#endif
    return (isfinite(seconds) && seconds > 0 && seconds <= 3600) ? seconds : NAN;
}

#endif
