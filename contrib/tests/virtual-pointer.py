#!/usr/bin/env python3
"""Plugs a mouse into a headless wlroots compositor (sway) for as long as it runs.

A headless sway has no input devices, so its seat offers no pointer and no client (swaybar) gets
pointer events, not even from `swaymsg seat seat0 cursor ...`. This client creates one virtual
pointer (the wlr-virtual-pointer-unstable-v1 protocol, which sway offers) on the default seat,
prints "ready" once the compositor has it, and keeps it until it is terminated or the compositor
goes away. It speaks the Wayland wire format itself (no client library needed).

Usage: WAYLAND_DISPLAY=... XDG_RUNTIME_DIR=... virtual-pointer.py
"""
import os
import socket
import struct
import sys

DISPLAY, REGISTRY, MANAGER, POINTER = 1, 2, 4, 5
MANAGER_INTERFACE = "zwlr_virtual_pointer_manager_v1"


def encode_string(text):
    data = text.encode() + b"\0"
    return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)


def request(connection, object_id, opcode, payload=b""):
    connection.sendall(struct.pack("<II", object_id, (8 + len(payload)) << 16 | opcode) + payload)


class Events:
    """Reads events from the compositor, one message at a time."""

    def __init__(self, connection):
        self.connection, self.buffer = connection, b""

    def next(self):
        while True:
            if len(self.buffer) >= 8:
                object_id, word = struct.unpack_from("<II", self.buffer)
                size = word >> 16
                if len(self.buffer) >= size:
                    message, self.buffer = self.buffer[8:size], self.buffer[size:]
                    return object_id, word & 0xFFFF, message
            chunk = self.connection.recv(4096)
            if not chunk:
                raise SystemExit("virtual-pointer: the compositor closed the connection")
            self.buffer += chunk


def roundtrip(connection, events, callback_id, on_event):
    """wl_display.sync: every request sent before it has been handled once its callback is done."""
    request(connection, DISPLAY, 0, struct.pack("<I", callback_id))
    while True:
        object_id, opcode, message = events.next()
        if object_id == DISPLAY and opcode == 0:  # wl_display.error
            _, code, length = struct.unpack_from("<III", message)
            raise SystemExit(f"virtual-pointer: protocol error {code}: {message[12:12 + length - 1].decode()}")
        if object_id == callback_id:
            return
        on_event(object_id, opcode, message)


def main():
    path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    events = Events(connection)
    request(connection, DISPLAY, 1, struct.pack("<I", REGISTRY))  # wl_display.get_registry
    globals_seen = {}

    def on_global(object_id, opcode, message):
        if object_id == REGISTRY and opcode == 0:  # wl_registry.global(name, interface, version)
            name, length = struct.unpack_from("<II", message)
            interface = message[8:8 + length - 1].decode()
            version = struct.unpack_from("<I", message, 8 + length + (-length % 4))[0]
            globals_seen[interface] = (name, version)

    roundtrip(connection, events, 3, on_global)
    if MANAGER_INTERFACE not in globals_seen:
        raise SystemExit(f"virtual-pointer: the compositor offers no {MANAGER_INTERFACE}")
    name, _ = globals_seen[MANAGER_INTERFACE]
    # wl_registry.bind(name, interface, version 1, id); then create_virtual_pointer(no seat: the
    # default one, id).
    request(connection, REGISTRY, 0, struct.pack("<I", name) + encode_string(MANAGER_INTERFACE)
            + struct.pack("<II", 1, MANAGER))
    request(connection, MANAGER, 0, struct.pack("<II", 0, POINTER))
    roundtrip(connection, events, 6, lambda *_: None)
    print("ready", flush=True)
    while connection.recv(4096):
        pass  # events for objects this client does not act on
    return 0


if __name__ == "__main__":
    sys.exit(main())
