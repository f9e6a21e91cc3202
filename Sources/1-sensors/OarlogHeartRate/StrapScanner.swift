import CDBus
import OarlogCore
import OarlogLive

/// `oarlog hr scan`: asks bluetoothd to discover Bluetooth LE devices offering the Heart Rate
/// service (0x180D) for a while, and lists those it knows then (address, name, signal
/// strength, connected). Blocking; on the caller's thread.
public enum StrapScanner {
    /// Scans for `duration` (0: only what bluetoothd already knows) on the bus at `busAddress`
    /// (`nil`: the system bus), waiting at most `timeout_s` for each of bluetoothd's answers.
    /// Throws when bluetoothd cannot be reached.
    public static func scan(duration: Seconds, busAddress: String? = nil, timeout_s: Double = 5) throws -> [BlueZDevice] {
        let bus = try BlueZBus(address: busAddress)
        for rule in BlueZ.matchRules { try bus.addMatch(rule) }
        var objects = BlueZObjectSet(managedObjects: try bus.call("/", BlueZ.objectManager, "GetManagedObjects", timeout_s: timeout_s).first ?? .other)
        let adapters = objects.adapters.sorted()
        if duration > 0, !adapters.isEmpty {
            let uuid = BlueZ.heartRateService
            for adapter in adapters {
                _ = try bus.call(adapter, BlueZ.adapterInterface, "SetDiscoveryFilter") {
                    oarlog_dbus_append_discovery_filter($0, uuid, "le")
                }
                do { _ = try bus.call(adapter, BlueZ.adapterInterface, "StartDiscovery") } catch {
                    // Already discovering (another client): the devices come all the same.
                }
            }
            let clock = MonotonicClock()
            let end = clock.now() + duration
            while clock.now() < end, bus.pump(timeout_s: min(0.1, end - clock.now())) {
                while let message = bus.receive() { apply(message, to: &objects) }
            }
            for adapter in adapters { _ = bus.send(adapter, BlueZ.adapterInterface, "StopDiscovery") }
            _ = bus.pump(timeout_s: 0)
        }
        return objects.devices.values.filter(\.isHeartRateStrap).sorted { $0.address < $1.address }
    }

    private static func apply(_ message: BusMessage, to objects: inout BlueZObjectSet) {
        let args = message.arguments
        guard message.kind == .signal, args.count >= 2, let first = args[0].string else { return }
        switch message.member {
        case "InterfacesAdded": objects.add(path: first, interfaces: args[1])
        case "InterfacesRemoved": objects.remove(path: first, interfaces: args[1].strings)
        case "PropertiesChanged" where first == BlueZ.deviceInterface: objects.devices[message.path]?.update(args[1])
        default: break
        }
    }
}
