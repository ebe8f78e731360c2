// libmosquitto (Debian libmosquitto-dev, pkg-config libmosquitto) for the sources service's MQTT
// source. None of the functions used is variadic, so the header is imported as it is.
#ifndef TICKERD_CMOSQUITTO_SHIM_H
#define TICKERD_CMOSQUITTO_SHIM_H

#include <mosquitto.h>
#include <mqtt_protocol.h>

#endif
