#!/usr/bin/python3
"""A stand-in for bluetoothd's D-Bus API (org.bluez), written from BlueZ 5.66's API documents
(Debian 12's bluez 5.66: doc/adapter-api.txt, device-api.txt, gatt-api.txt — org.bluez.Adapter1,
org.bluez.Device1, org.bluez.GattService1, org.bluez.GattCharacteristic1 — and the D-Bus
ObjectManager on "/"; later releases renamed them org.bluez.Adapter.rst and so on). It has no
radio: heart-rate straps are made up, told what to do by the test through a control FIFO.

Usage: bluez_standin.py BUS_ADDRESS CONTROL_FIFO
Prints one line per event to stdout ("ready", "discovering", "connect ADDR", "notify ADDR",
"streamed ADDR N", ...) for the test to wait on.

Control lines (one per line):
  add ADDR NAME            a strap in range (seen once discovery runs with a 0x180D filter)
  stream ADDR COUNT HZ FMT COUNT notifications at HZ a second; FMT: 8, 16 or rr (8-bit rate,
                           energy, two RR intervals). The k-th (k = 0…) has a rate of
                           40 + k % 200 bpm; rr: energy k, RR intervals 500 + k % 500 and 1000 + k % 24
  raw ADDR HEX             one notification with these bytes
  stop ADDR                stop streaming
  disconnect ADDR          Connected becomes false (the device stays)
  vanish ADDR              out of range: disconnected, and its objects removed (InterfacesRemoved)
  comeback ADDR            in range again (re-added while discovery runs)
"""
import sys, os
import dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib

BLUEZ_VERSION = "5.66"
HRS = "0000180d-0000-1000-8000-00805f9b34fb"
HRM = "00002a37-0000-1000-8000-00805f9b34fb"
PROPS = "org.freedesktop.DBus.Properties"
OM = "org.freedesktop.DBus.ObjectManager"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
SERVICE = "org.bluez.GattService1"
CHAR = "org.bluez.GattCharacteristic1"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Failed(dbus.DBusException):
    _dbus_error_name = "org.bluez.Error.Failed"


class NotConnected(dbus.DBusException):
    _dbus_error_name = "org.bluez.Error.NotConnected"


class InProgress(dbus.DBusException):
    _dbus_error_name = "org.bluez.Error.InProgress"


class Obj(dbus.service.Object):
    """An exported object with org.freedesktop.DBus.Properties over `self.props`."""

    def __init__(self, bus, path, interface, props):
        self.path, self.interface, self.props = path, interface, props
        dbus.service.Object.__init__(self, bus, path)

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.props[name]

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.props

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def set(self, **changed):
        self.props.update(changed)
        self.PropertiesChanged(self.interface, changed, dbus.Array([], signature="s"))


class Root(dbus.service.Object):
    def __init__(self, bus, world):
        self.world = world
        dbus.service.Object.__init__(self, bus, "/")

    @dbus.service.method(OM, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return {o.path: {o.interface: o.props} for o in self.world.exported()}

    @dbus.service.signal(OM, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OM, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass


class Adapter(Obj):
    def __init__(self, bus, world):
        self.world = world
        Obj.__init__(self, bus, "/org/bluez/hci0", ADAPTER, {
            "Address": "00:1A:7D:DA:71:13", "Name": "oarlog", "Powered": True, "Discovering": False,
            "UUIDs": dbus.Array([], signature="s")})
        self.filter_uuids = []

    @dbus.service.method(ADAPTER, in_signature="a{sv}")
    def SetDiscoveryFilter(self, f):
        self.filter_uuids = [str(u).lower() for u in f.get("UUIDs", [])]
        say("filter %s %s" % (",".join(self.filter_uuids), f.get("Transport", "auto")))

    @dbus.service.method(ADAPTER)
    def StartDiscovery(self):
        self.set(Discovering=True)
        say("discovering")
        for strap in self.world.straps.values():
            self.world.show(strap)

    @dbus.service.method(ADAPTER)
    def StopDiscovery(self):
        self.set(Discovering=False)
        say("discovery-stopped")

    def wants(self, uuid):
        return not self.filter_uuids or uuid in self.filter_uuids


class Strap:
    """One made-up strap: its Device1, GattService1 and GattCharacteristic1 when exported."""

    def __init__(self, world, address, name):
        self.world, self.address, self.name = world, address, name
        self.in_range, self.device, self.service, self.char = True, None, None, None
        self.timer, self.k, self.left = None, 0, 0
        self.notify_senders = set()

    @property
    def base(self):
        return "/org/bluez/hci0/dev_" + self.address.replace(":", "_")


class Device(Obj):
    def __init__(self, bus, strap):
        self.strap = strap
        Obj.__init__(self, bus, strap.base, DEVICE, {
            "Address": strap.address, "AddressType": "random", "Name": strap.name, "Alias": strap.name,
            "RSSI": dbus.Int16(-60), "UUIDs": dbus.Array([HRS], signature="s"), "Paired": False,
            "Connected": False, "ServicesResolved": False, "Adapter": dbus.ObjectPath("/org/bluez/hci0")})

    @dbus.service.method(DEVICE)
    def Connect(self):
        if not self.strap.in_range:
            raise Failed("le-connection-abort-by-local")
        say("connect " + self.strap.address)
        self.set(Connected=True)
        self.strap.world.resolve(self.strap)

    @dbus.service.method(DEVICE)
    def Disconnect(self):
        say("disconnect " + self.strap.address)
        self.strap.world.disconnect(self.strap)


class Characteristic(Obj):
    def __init__(self, bus, strap, path):
        self.strap = strap
        Obj.__init__(self, bus, path, CHAR, {
            "UUID": HRM, "Service": dbus.ObjectPath(strap.base + "/service000c"),
            "Flags": dbus.Array(["notify"], signature="s"), "Notifying": False,
            "Value": dbus.Array([], signature="y")})

    @dbus.service.method(CHAR, sender_keyword="sender")
    def StartNotify(self, sender=None):
        if not self.strap.device.props["Connected"]:
            raise NotConnected("Not Connected")
        if self.props["Notifying"] and sender in self.strap.notify_senders:
            # gatt-api.txt: "Possible Errors: ... org.bluez.Error.InProgress" (a second StartNotify).
            raise InProgress("In Progress")
        self.strap.notify_senders.add(sender)
        self.props["Notifying"] = True
        say("notify " + self.strap.address)

    @dbus.service.method(CHAR, sender_keyword="sender")
    def StopNotify(self, sender=None):
        self.strap.notify_senders.discard(sender)
        self.props["Notifying"] = bool(self.strap.notify_senders)

    @dbus.service.method(CHAR, in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, options):
        raise dbus.DBusException("Read not permitted", name="org.bluez.Error.NotPermitted")

    def notify(self, payload):
        if self.props["Notifying"]:
            self.PropertiesChanged(CHAR, {"Value": dbus.Array(payload, signature="y")}, dbus.Array([], signature="s"))
            return True
        return False


def payload(k, fmt):
    bpm = 40 + k % 200
    if fmt == "16":
        return [0x07, bpm & 0xFF, bpm >> 8]
    if fmt == "rr":
        rr1, rr2 = 500 + k % 500, 1000 + k % 24
        return [0x1E, bpm, k & 0xFF, (k >> 8) & 0xFF, rr1 & 0xFF, rr1 >> 8, rr2 & 0xFF, rr2 >> 8]
    return [0x06, bpm]


class World:
    def __init__(self, bus):
        self.bus, self.straps = bus, {}
        self.root = Root(bus, self)
        self.adapter = Adapter(bus, self)

    def exported(self):
        objs = [self.adapter]
        for s in self.straps.values():
            objs += [o for o in (s.device, s.service, s.char) if o is not None]
        return objs

    def show(self, strap):
        if strap.device is None and strap.in_range and self.adapter.props["Discovering"] and self.adapter.wants(HRS):
            strap.device = Device(self.bus, strap)
            self.root.InterfacesAdded(strap.device.path, {DEVICE: strap.device.props})
            say("found " + strap.address)

    def resolve(self, strap):
        if strap.char is None:
            strap.service = Obj(self.bus, strap.base + "/service000c", SERVICE, {
                "UUID": HRS, "Primary": True, "Device": dbus.ObjectPath(strap.base)})
            self.root.InterfacesAdded(strap.service.path, {SERVICE: strap.service.props})
            strap.char = Characteristic(self.bus, strap, strap.base + "/service000c/char000d")
            self.root.InterfacesAdded(strap.char.path, {CHAR: strap.char.props})
        strap.device.set(ServicesResolved=True)

    def disconnect(self, strap):
        strap.notify_senders.clear()
        if strap.char is not None:
            strap.char.props["Notifying"] = False
        if strap.device is not None and strap.device.props["Connected"]:
            strap.device.set(Connected=False, ServicesResolved=False)

    def vanish(self, strap):
        self.disconnect(strap)
        strap.in_range = False
        for o, iface in ((strap.char, CHAR), (strap.service, SERVICE), (strap.device, DEVICE)):
            if o is not None:
                self.root.InterfacesRemoved(o.path, [iface])
                o.remove_from_connection()
        strap.device = strap.service = strap.char = None

    def stream(self, strap, count, hz, fmt):
        if strap.timer is not None:
            GLib.source_remove(strap.timer)
        strap.k, strap.left, sent = 0, count, [0]
        per_tick = max(1, hz // 100)
        period = max(1, int(1000 * per_tick / hz))

        def tick():
            for _ in range(per_tick):
                if strap.left <= 0:
                    break
                if strap.char is not None and strap.char.notify(payload(strap.k, fmt)):
                    sent[0] += 1
                strap.k += 1
                strap.left -= 1
            if strap.left <= 0:
                strap.timer = None
                say("streamed %s %d" % (strap.address, sent[0]))
                return False
            return True
        strap.timer = GLib.timeout_add(period, tick)

    def command(self, line):
        words = line.split()
        if not words:
            return
        op, address = words[0], words[1].upper() if len(words) > 1 else ""
        strap = self.straps.get(address)
        if op == "add":
            strap = self.straps[address] = Strap(self, address, words[2] if len(words) > 2 else "HRM")
            self.show(strap)
        elif strap is None:
            say("unknown " + address)
        elif op == "stream":
            self.stream(strap, int(words[2]), int(words[3]), words[4] if len(words) > 4 else "8")
        elif op == "raw":
            ok = strap.char is not None and strap.char.notify(list(bytes.fromhex(words[2])))
            say("raw %s %s" % (address, "sent" if ok else "dropped"))
        elif op == "stop" and strap.timer is not None:
            GLib.source_remove(strap.timer)
            strap.timer = None
        elif op == "disconnect":
            self.disconnect(strap)
        elif op == "vanish":
            self.vanish(strap)
            say("vanished " + address)
        elif op == "comeback":
            strap.in_range = True
            self.show(strap)


def main():
    address, fifo = sys.argv[1], sys.argv[2]
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    world = World(bus)
    name = dbus.service.BusName("org.bluez", bus)
    fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    pending = [b""]

    def readable(_fd, _cond):
        try:
            pending[0] += os.read(fd, 65536)
        except BlockingIOError:
            return True
        *lines, pending[0] = pending[0].split(b"\n")
        for line in lines:
            world.command(line.decode())
        return True
    GLib.io_add_watch(fd, GLib.IO_IN, readable)
    say("ready bluez %s %s" % (BLUEZ_VERSION, name.get_name()))
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
