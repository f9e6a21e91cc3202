import CDBus
import OarlogCore
import OarlogLive

/// The straps' side of BlueZ on one bus connection, driven by the reader thread: it reads the
/// object tree, discovers (filtered on the Heart Rate service), connects each assigned strap,
/// starts notifications on its Heart Rate Measurement, and turns notifications into heart rates
/// for its seat. Drops (Connected false, InterfacesRemoved, 5 s of silence, bluetoothd gone)
/// reconnect with backoff; the first heart rate after one comes with the gap.
///
/// Nothing grows with input: at most 8 links, 256 devices, one pending call per link; libdbus
/// holds at most 1 MiB unread; a flooding strap's excess is counted and skipped.
final class StrapSession {
    let configuration: HeartRateStrapConfiguration
    var links: [StrapLink]
    private(set) var bus: BlueZBus?
    private(set) var objects = BlueZObjectSet()
    private var adapter: String?
    private var discovering = false
    /// Characteristic path → link index.
    var linkByCharacteristic: [String: Int] = [:]
    private let emit: (TraceRecord) -> Void
    let log: (String) -> Void

    init(configuration: HeartRateStrapConfiguration, emit: @escaping (TraceRecord) -> Void, log: @escaping (String) -> Void) {
        self.configuration = configuration
        links = configuration.straps.map { StrapLink($0, configuration: configuration) }
        self.emit = emit
        self.log = log
    }

    // MARK: - The bus

    /// Takes a freshly opened bus: subscribes, reads the object tree, starts discovery.
    func attach(_ bus: BlueZBus, now: Seconds) throws {
        self.bus = bus
        for rule in BlueZ.matchRules { try bus.addMatch(rule) }
        try reload(now: now)
    }

    /// Reads the whole tree again (after attaching, or bluetoothd restarting).
    private func reload(now: Seconds) throws {
        guard let bus else { return }
        let reply = try bus.call("/", BlueZ.objectManager, "GetManagedObjects")
        objects = BlueZObjectSet(managedObjects: reply.first ?? .other)
        adapter = objects.adapters.sorted().first
        discovering = false
        for i in links.indices { relocate(i) }
        if adapter == nil { log("heart rate: bluetoothd has no Bluetooth adapter") }
        updateDiscovery()
    }

    /// The bus went away: every strap is dropped until it is back.
    func detach(reason: String, now: Seconds) {
        bus = nil
        objects = BlueZObjectSet()
        linkByCharacteristic = [:]
        for i in links.indices {
            if !links[i].isWaiting || links[i].statistics.connected { links[i].drop(reason, now: now, log: log) }
            links[i].devicePath = nil
            links[i].characteristicPath = nil
        }
    }

    /// Finds the link's device and characteristic in the tree.
    private func relocate(_ i: Int) {
        let device = objects.device(address: links[i].assignment.address)
        links[i].devicePath = device?.path
        if let name = device?.name { links[i].statistics.name = name }
        let characteristic = device.flatMap { objects.measurementCharacteristics[$0.path] }
        if let old = links[i].characteristicPath, old != characteristic { linkByCharacteristic[old] = nil }
        links[i].characteristicPath = characteristic
        if let characteristic { linkByCharacteristic[characteristic] = i }
    }

    /// Discovery runs while an assigned strap is not in the tree (filtered on 0x180D, LE only).
    private func updateDiscovery() {
        guard let bus, let adapter else { return }
        let needed = links.contains { $0.devicePath == nil }
        guard needed != discovering else { return }
        discovering = needed
        if needed {
            let uuid = BlueZ.heartRateService
            _ = bus.send(adapter, BlueZ.adapterInterface, "SetDiscoveryFilter") { oarlog_dbus_append_discovery_filter($0, uuid, "le") }
            _ = bus.send(adapter, BlueZ.adapterInterface, "StartDiscovery")
        } else {
            _ = bus.send(adapter, BlueZ.adapterInterface, "StopDiscovery")
        }
    }

    // MARK: - Messages

    /// One message from the bus.
    func handle(_ message: BusMessage, now: Seconds) throws {
        switch message.kind {
        case .reply, .error: answer(message, now: now)
        case .signal: try signal(message, now: now)
        case .other: break
        }
    }

    private func answer(_ message: BusMessage, now: Seconds) {
        guard let i = links.firstIndex(where: { link in
            switch link.phase {
            case .connecting(let s, _), .starting(let s, _): return s == message.replySerial
            default: return false
            }
        }) else { return }
        if message.kind == .error && !Self.meansDone(message.errorName) {
            let text = message.arguments.first?.string ?? ""
            links[i].drop("\(message.errorName)\(text.isEmpty ? "" : " (\(text))")", now: now, log: log)
            return
        }
        switch links[i].phase {
        case .connecting:
            links[i].phase = .connected(since: now)
            links[i].statistics.connected = true
            links[i].statistics.connections += 1
            links[i].backoff.recordOpen()
            log("heart rate: \(links[i].label) connected")
        case .starting:
            links[i].phase = .notifying(since: now)
        default:
            break
        }
    }

    /// BlueZ's errors that mean the call's aim is met: Connect on a device already connected
    /// (AlreadyConnected), StartNotify by a client already notified (InProgress, BlueZ 5.66's
    /// gatt-client for a second StartNotify from the same sender).
    static func meansDone(_ errorName: String) -> Bool {
        errorName == "org.bluez.Error.AlreadyConnected" || errorName == "org.bluez.Error.InProgress"
    }

    private func signal(_ message: BusMessage, now: Seconds) throws {
        let args = message.arguments
        switch (message.interface, message.member) {
        case (BlueZ.properties, "PropertiesChanged"):
            guard let interface = args.first?.string, args.count >= 2 else { return }
            if interface == BlueZ.characteristicInterface, let bytes = args[1]["Value"]?.bytes {
                if let i = linkByCharacteristic[message.path] { notification(i, bytes, now: now) }
            } else if interface == BlueZ.deviceInterface, objects.devices[message.path] != nil {
                objects.devices[message.path]?.update(args[1])
                deviceChanged(message.path, now: now)
            }
        case (BlueZ.objectManager, "InterfacesAdded"):
            guard args.count >= 2, let path = args[0].string else { return }
            objects.add(path: path, interfaces: args[1])
            for i in links.indices where links[i].devicePath == nil || links[i].devicePath == path || path.hasPrefix((links[i].devicePath ?? "\u{0}") + "/") {
                relocate(i)
            }
            updateDiscovery()
        case (BlueZ.objectManager, "InterfacesRemoved"):
            guard args.count >= 2, let path = args[0].string else { return }
            let deviceGone = objects.remove(path: path, interfaces: args[1].strings)
            for i in links.indices where links[i].devicePath == path || links[i].characteristicPath == path {
                if deviceGone || !links[i].isWaiting { links[i].drop("vanished (InterfacesRemoved)", now: now, log: log) }
                relocate(i)
            }
            updateDiscovery()
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            guard args.count >= 3, args[0].string == BlueZBus.service else { return }
            let current = bus
            detach(reason: "bluetoothd left the bus", now: now)
            bus = current
            if args[2].string?.isEmpty == false { try reload(now: now) }
        default:
            break
        }
    }

    private func deviceChanged(_ path: String, now: Seconds) {
        guard let device = objects.devices[path], let i = links.firstIndex(where: { $0.devicePath == path }) else { return }
        if let name = device.name { links[i].statistics.name = name }
        if !device.connected, !links[i].isWaiting {
            links[i].drop("disconnected", now: now, log: log)
        } else if device.connected, links[i].isWaiting {
            // BlueZ reconnected it on its own (auto-connect): carry on from there.
            links[i].phase = .connected(since: now)
            links[i].statistics.connected = true
            links[i].statistics.connections += 1
        }
    }

    /// One notification of a strap's Heart Rate Measurement.
    private func notification(_ i: Int, _ bytes: [UInt8], now: Seconds) {
        links[i].statistics.notifications += 1
        links[i].lastNotificationAt = now
        guard links[i].flood.admit(at: now) else {
            links[i].statistics.flooded += 1
            return
        }
        switch HeartRateMeasurement.parse(bytes) {
        case .failure(let rejection):
            links[i].statistics.rejected += 1
            links[i].statistics.lastRejection = rejection.description
        case .success(let measurement):
            let seat = links[i].assignment.seat
            if let gap = links[i].outages.dataArrived(at: now) {
                links[i].statistics.gaps += 1
                log("heart rate: \(links[i].label): back after \(tenthsOfSecondText(gap.duration)) s")
                emit(.gap(gap))
            }
            links[i].backoff.reset()
            links[i].statistics.delivered += 1
            links[i].statistics.lastBeatsPerMinute = measurement.beatsPerMinute
            configuration.measurementTap?(seat, measurement, now)
            emit(.heartRate(HeartRateSample(time: now, bpm: BeatsPerMinute(measurement.beatsPerMinute), sensor: seat)))
        }
    }
}
