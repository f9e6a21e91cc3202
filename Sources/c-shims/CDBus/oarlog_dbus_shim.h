/* Oarlog's only window on libdbus-1 (Debian libdbus-1-dev, 1.14). libdbus rather than sd-bus:
 * libdbus-1-3 is on every Debian board already (bluetoothd and dbus-daemon link it), it does not
 * need systemd, and its blocking read/write call suits a reader thread of our own, as libgps and
 * libiio do. Variadic and macro-heavy calls are wrapped here (Swift cannot call C varargs); the
 * message iterator (dbus_message_iter_*) is used from Swift directly. Connections are private
 * (never the shared singleton) and never exit the process when the bus goes away. */
#ifndef OARLOG_DBUS_SHIM_H
#define OARLOG_DBUS_SHIM_H

#include <dbus/dbus.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* libdbus's type codes as plain constants (its macros are casts, which Swift does not import). */
static const int OARLOG_DBUS_INVALID = DBUS_TYPE_INVALID;
static const int OARLOG_DBUS_BYTE = DBUS_TYPE_BYTE;
static const int OARLOG_DBUS_BOOLEAN = DBUS_TYPE_BOOLEAN;
static const int OARLOG_DBUS_INT16 = DBUS_TYPE_INT16;
static const int OARLOG_DBUS_UINT16 = DBUS_TYPE_UINT16;
static const int OARLOG_DBUS_INT32 = DBUS_TYPE_INT32;
static const int OARLOG_DBUS_UINT32 = DBUS_TYPE_UINT32;
static const int OARLOG_DBUS_INT64 = DBUS_TYPE_INT64;
static const int OARLOG_DBUS_UINT64 = DBUS_TYPE_UINT64;
static const int OARLOG_DBUS_STRING = DBUS_TYPE_STRING;
static const int OARLOG_DBUS_OBJECT_PATH = DBUS_TYPE_OBJECT_PATH;
static const int OARLOG_DBUS_SIGNATURE = DBUS_TYPE_SIGNATURE;
static const int OARLOG_DBUS_ARRAY = DBUS_TYPE_ARRAY;
static const int OARLOG_DBUS_VARIANT = DBUS_TYPE_VARIANT;
static const int OARLOG_DBUS_DICT_ENTRY = DBUS_TYPE_DICT_ENTRY;
static const int OARLOG_DBUS_MESSAGE_METHOD_RETURN = DBUS_MESSAGE_TYPE_METHOD_RETURN;
static const int OARLOG_DBUS_MESSAGE_ERROR = DBUS_MESSAGE_TYPE_ERROR;
static const int OARLOG_DBUS_MESSAGE_SIGNAL = DBUS_MESSAGE_TYPE_SIGNAL;

static inline void oarlog_dbus_copy_error(DBusError *e, char *out, size_t size) {
    if (size == 0) return;
    snprintf(out, size, "%s: %s", e->name ? e->name : "error", e->message ? e->message : "");
    dbus_error_free(e);
}

/* Opens a private connection to the bus at `address`, or to the system bus (which honours
 * DBUS_SYSTEM_BUS_ADDRESS) when `address` is NULL, and says hello. NULL and `error` on failure. */
static inline DBusConnection *oarlog_dbus_open(const char *address, char *error, size_t error_size) {
    DBusError e;
    dbus_error_init(&e);
    DBusConnection *c = NULL;
    if (address != NULL) {
        c = dbus_connection_open_private(address, &e);
        if (c != NULL && !dbus_bus_register(c, &e)) {
            dbus_connection_close(c);
            dbus_connection_unref(c);
            c = NULL;
        }
    } else {
        c = dbus_bus_get_private(DBUS_BUS_SYSTEM, &e);
    }
    if (c == NULL) { oarlog_dbus_copy_error(&e, error, error_size); return NULL; }
    dbus_connection_set_exit_on_disconnect(c, FALSE);
    /* Bounded: libdbus stops reading the socket once this many bytes wait unread. */
    dbus_connection_set_max_received_size(c, 1024 * 1024);
    dbus_connection_set_max_message_size(c, 1024 * 1024);
    return c;
}

static inline void oarlog_dbus_close(DBusConnection *c) {
    dbus_connection_close(c);
    dbus_connection_unref(c);
}

/* Adds a match rule (signals we want). 0 on success, else -1 and `error`. */
static inline int oarlog_dbus_add_match(DBusConnection *c, const char *rule, char *error, size_t error_size) {
    DBusError e;
    dbus_error_init(&e);
    dbus_bus_add_match(c, rule, &e);
    if (dbus_error_is_set(&e)) { oarlog_dbus_copy_error(&e, error, error_size); return -1; }
    return 0;
}

/* A method call without arguments. NULL when out of memory. */
static inline DBusMessage *oarlog_dbus_method_call(const char *destination, const char *path,
                                                   const char *interface, const char *method) {
    return dbus_message_new_method_call(destination, path, interface, method);
}

/* Appends one string argument. 0 on success. */
static inline int oarlog_dbus_append_string(DBusMessage *m, const char *value) {
    return dbus_message_append_args(m, DBUS_TYPE_STRING, &value, DBUS_TYPE_INVALID) ? 0 : -1;
}

/* Appends Adapter1.SetDiscoveryFilter's argument: {"UUIDs": <as [uuid]>, "Transport": <s "le">}. */
static inline int oarlog_dbus_append_discovery_filter(DBusMessage *m, const char *uuid, const char *transport) {
    DBusMessageIter args, dict, entry, variant, array;
    const char *k_uuids = "UUIDs", *k_transport = "Transport";
    dbus_message_iter_init_append(m, &args);
    if (!dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict)) return -1;
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &k_uuids);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "as", &variant);
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "s", &array);
    dbus_message_iter_append_basic(&array, DBUS_TYPE_STRING, &uuid);
    dbus_message_iter_close_container(&variant, &array);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(&dict, &entry);
    dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &k_transport);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &transport);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(&dict, &entry);
    return dbus_message_iter_close_container(&args, &dict) ? 0 : -1;
}

/* Sends without waiting; the reply comes back through the read loop with this serial. Takes
 * ownership of `m`. 0 (no serial) when it could not be queued. */
static inline uint32_t oarlog_dbus_send(DBusConnection *c, DBusMessage *m) {
    dbus_uint32_t serial = 0;
    if (!dbus_connection_send(c, m, &serial)) serial = 0;
    dbus_message_unref(m);
    return serial;
}

/* Sends and waits at most `timeout_ms` for the reply. Takes ownership of `m`. NULL and `error`
 * on failure (an error reply included). */
static inline DBusMessage *oarlog_dbus_call(DBusConnection *c, DBusMessage *m, int timeout_ms,
                                            char *error, size_t error_size) {
    DBusError e;
    dbus_error_init(&e);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, m, timeout_ms, &e);
    dbus_message_unref(m);
    if (reply == NULL) oarlog_dbus_copy_error(&e, error, error_size);
    return reply;
}

/* Waits at most `timeout_ms` for the socket, reads and writes. 0 while connected, -1 once the
 * bus is gone. */
static inline int oarlog_dbus_read_write(DBusConnection *c, int timeout_ms) {
    if (!dbus_connection_read_write(c, timeout_ms)) return -1;
    return dbus_connection_get_is_connected(c) ? 0 : -1;
}

/* The next message read, or NULL. The caller unrefs it. */
static inline DBusMessage *oarlog_dbus_pop(DBusConnection *c) { return dbus_connection_pop_message(c); }

/* The first string argument of a message (an error's text), or "". Valid while `m` lives. */
static inline const char *oarlog_dbus_first_string(DBusMessage *m) {
    DBusMessageIter it;
    if (!dbus_message_iter_init(m, &it) || dbus_message_iter_get_arg_type(&it) != DBUS_TYPE_STRING) return "";
    const char *s = "";
    dbus_message_iter_get_basic(&it, &s);
    return s;
}

/* Basic values out of an iterator, typed (Swift cannot take a void* out parameter neatly). */
static inline const char *oarlog_dbus_iter_string(DBusMessageIter *it) {
    const char *s = "";
    dbus_message_iter_get_basic(it, &s);
    return s;
}
static inline uint64_t oarlog_dbus_iter_u64(DBusMessageIter *it) {
    DBusBasicValue v;
    memset(&v, 0, sizeof v);
    dbus_message_iter_get_basic(it, &v);
    switch (dbus_message_iter_get_arg_type(it)) {
    case DBUS_TYPE_BYTE: return v.byt;
    case DBUS_TYPE_BOOLEAN: return v.bool_val;
    case DBUS_TYPE_INT16: return (uint64_t)(int64_t)v.i16;
    case DBUS_TYPE_UINT16: return v.u16;
    case DBUS_TYPE_INT32: return (uint64_t)(int64_t)v.i32;
    case DBUS_TYPE_UINT32: return v.u32;
    default: return v.u64;
    }
}
/* A byte array's contents (the iterator is on the array). Sets *count; valid while the message lives. */
static inline const uint8_t *oarlog_dbus_iter_bytes(DBusMessageIter *it, int *count) {
    DBusMessageIter sub;
    const uint8_t *bytes = NULL;
    *count = 0;
    dbus_message_iter_recurse(it, &sub);
    if (dbus_message_iter_get_arg_type(&sub) != DBUS_TYPE_BYTE) return NULL;
    dbus_message_iter_get_fixed_array(&sub, &bytes, count);
    return bytes;
}

#endif
