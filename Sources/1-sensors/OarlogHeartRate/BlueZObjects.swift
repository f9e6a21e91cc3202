/// BlueZ's names (BlueZ 5.66's documented D-Bus API: org.bluez.Adapter1, Device1,
/// GattCharacteristic1 and the ObjectManager on `/`) and what Oarlog keeps of its objects.
enum BlueZ {
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"
    /// The Heart Rate service (0x180D) and its Heart Rate Measurement characteristic (0x2A37).
    static let heartRateService = "0000180d-0000-1000-8000-00805f9b34fb"
    static let heartRateMeasurement = "00002a37-0000-1000-8000-00805f9b34fb"
    /// The signals a client follows: objects appearing and vanishing, properties changing
    /// (a device's Connected, a characteristic's Value), bluetoothd restarting.
    static let matchRules = [
        "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager'",
        "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'",
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.bluez'",
    ]
}

/// A Bluetooth device as BlueZ describes it (org.bluez.Device1).
public struct BlueZDevice: Sendable, Equatable {
    public var path: String
    public var address: String
    public var name: String?
    public var rssi: Int?
    public var uuids: [String]
    public var connected: Bool
    public var servicesResolved: Bool

    /// True when it offers the Heart Rate service.
    public var isHeartRateStrap: Bool { uuids.contains { $0.lowercased() == BlueZ.heartRateService } }

    /// Reads a Device1 property dictionary.
    init(path: String, properties: DBusValue) {
        self.path = path
        address = properties["Address"]?.string?.uppercased() ?? Self.address(fromPath: path) ?? ""
        name = properties["Name"]?.string ?? properties["Alias"]?.string
        rssi = properties["RSSI"]?.number.map { Int(Int16(truncatingIfNeeded: $0)) }
        uuids = properties["UUIDs"]?.strings ?? []
        connected = properties["Connected"]?.bool ?? false
        servicesResolved = properties["ServicesResolved"]?.bool ?? false
    }

    /// Applies a PropertiesChanged's changed values.
    mutating func update(_ changed: DBusValue) {
        if let v = changed["Name"]?.string { name = v }
        if let v = changed["RSSI"]?.number { rssi = Int(Int16(truncatingIfNeeded: v)) }
        if case .array = changed["UUIDs"] { uuids = changed["UUIDs"]?.strings ?? uuids }
        if let v = changed["Connected"]?.bool { connected = v }
        if let v = changed["ServicesResolved"]?.bool { servicesResolved = v }
    }

    /// `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF` → `AA:BB:CC:DD:EE:FF`.
    static func address(fromPath path: String) -> String? {
        guard let range = path.firstRange(of: "/dev_") else { return nil }
        let tail = path[range.upperBound...].prefix(17)
        guard tail.count == 17 else { return nil }
        return String(tail.map { $0 == "_" ? ":" : $0 }).uppercased()
    }
}

/// What one GetManagedObjects (or InterfacesAdded) says: adapters, devices, and the Heart Rate
/// Measurement characteristics (by the device path they sit under).
struct BlueZObjectSet: Sendable {
    var adapters: [String] = []
    var devices: [String: BlueZDevice] = [:]
    /// Device path → its 0x2A37 characteristic's path.
    var measurementCharacteristics: [String: String] = [:]
    /// At most this many devices are kept (a crowded regatta: the rest are ignored).
    static let maximumDevices = 256

    /// Adds one object with its interfaces (`a{sa{sv}}`).
    mutating func add(path: String, interfaces: DBusValue) {
        for (name, properties) in interfaces.entries {
            switch name {
            case BlueZ.adapterInterface:
                if !adapters.contains(path) { adapters.append(path) }
            case BlueZ.deviceInterface:
                if devices[path] != nil || devices.count < Self.maximumDevices {
                    devices[path] = BlueZDevice(path: path, properties: properties)
                }
            case BlueZ.characteristicInterface:
                if properties["UUID"]?.string?.lowercased() == BlueZ.heartRateMeasurement,
                   let device = devices.keys.first(where: { path.hasPrefix($0 + "/") }) ?? Self.devicePath(of: path) {
                    measurementCharacteristics[device] = path
                }
            default:
                break
            }
        }
    }

    /// Removes what `InterfacesRemoved` names; true when a device went.
    @discardableResult
    mutating func remove(path: String, interfaces: [String]) -> Bool {
        if interfaces.contains(BlueZ.adapterInterface) { adapters.removeAll { $0 == path } }
        if interfaces.contains(BlueZ.characteristicInterface) {
            for (device, characteristic) in measurementCharacteristics where characteristic == path {
                measurementCharacteristics[device] = nil
            }
        }
        guard interfaces.contains(BlueZ.deviceInterface), devices[path] != nil else { return false }
        devices[path] = nil
        measurementCharacteristics[path] = nil
        return true
    }

    /// Reads GetManagedObjects' reply (`a{oa{sa{sv}}}`): devices first, so characteristics find them.
    init(managedObjects: DBusValue) {
        let entries = managedObjects.entries
        for (path, interfaces) in entries where interfaces[BlueZ.characteristicInterface] == nil {
            add(path: path, interfaces: interfaces)
        }
        for (path, interfaces) in entries where interfaces[BlueZ.characteristicInterface] != nil {
            add(path: path, interfaces: interfaces)
        }
    }

    init() {}

    /// The device path a characteristic's path sits under (`…/dev_XX_…/serviceNNNN/charNNNN`).
    static func devicePath(of path: String) -> String? {
        guard let range = path.firstRange(of: "/dev_") else { return nil }
        let rest = path[range.upperBound...]
        let end = rest.firstIndex(of: "/") ?? rest.endIndex
        return String(path[..<end])
    }

    /// The device with this address.
    func device(address: String) -> BlueZDevice? {
        let wanted = address.uppercased()
        return devices.values.first { $0.address == wanted }
    }
}
