// libmosquitto (Debian libmosquitto-dev, 2.0) as Oarlog's MQTT client library. The shim keeps
// the one include in one place and names the constants Swift needs as plain ints.
#ifndef OARLOG_MOSQUITTO_SHIM_H
#define OARLOG_MOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>

static inline int oarlog_mqtt_protocol_v5(void) { return MQTT_PROTOCOL_V5; }
static inline int oarlog_mqtt_opt_protocol_version(void) { return MOSQ_OPT_PROTOCOL_VERSION; }
static inline int oarlog_mqtt_prop_session_expiry_interval(void) { return MQTT_PROP_SESSION_EXPIRY_INTERVAL; }
#endif
