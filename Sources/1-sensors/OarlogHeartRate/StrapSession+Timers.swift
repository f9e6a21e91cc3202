import OarlogCore

extension StrapSession {
    /// Moves each strap on by time: connect when its wait is over, start notifications once its
    /// services are resolved, give up calls unanswered too long, drop a strap silent too long.
    func tick(now: Seconds) {
        guard let bus else { return }
        for i in links.indices {
            let link = links[i]
            let device = link.devicePath.flatMap { objects.devices[$0] }
            switch link.phase {
            case .waiting(let retryAt):
                guard let device, now >= retryAt else { continue }
                if device.connected {
                    links[i].phase = .connected(since: now)
                    links[i].statistics.connected = true
                    links[i].statistics.connections += 1
                } else {
                    let serial = bus.send(device.path, BlueZ.deviceInterface, "Connect")
                    links[i].phase = serial == 0 ? .waiting(retryAt: now + link.backoff.delay) : .connecting(serial: serial, since: now)
                }
            case .connecting(_, let since):
                if now - since > configuration.callTimeout { links[i].drop("no answer to Connect", now: now, log: log) }
            case .connected(let since):
                if let characteristic = link.characteristicPath {
                    let serial = bus.send(characteristic, BlueZ.characteristicInterface, "StartNotify")
                    if serial != 0 { links[i].phase = .starting(serial: serial, since: now) }
                } else if now - since > configuration.callTimeout {
                    links[i].drop("no Heart Rate Measurement characteristic (0x2A37) found", now: now, log: log)
                }
            case .starting(_, let since):
                if now - since > configuration.callTimeout { links[i].drop("no answer to StartNotify", now: now, log: log) }
            case .notifying(let since):
                let last = link.lastNotificationAt ?? since
                if now - last > configuration.silenceTimeout {
                    links[i].drop("silent for \(Int(configuration.silenceTimeout.rounded())) s", now: now, log: log)
                    if let path = link.devicePath { _ = bus.send(path, BlueZ.deviceInterface, "Disconnect") }
                }
            }
        }
    }

    /// A snapshot of every strap's counts.
    var statistics: [StrapStatistics] { links.map(\.statistics) }
}
