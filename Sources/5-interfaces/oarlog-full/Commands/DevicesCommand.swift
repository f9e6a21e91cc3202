import ArgumentParser
import OarlogGPS
import OarlogIIO
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog devices`: the IIO devices (accelerometers) and the GPS receivers gpsd has, with what
/// each can do — the first thing to run after wiring a board.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List IIO devices (accelerometers), gpsd's GPS receivers and the heart-rate straps, with what each can do.",
        discussion: """
            IIO devices come from libiio (--uri local: on the board, ip:HOST through iiod); for each: \
            whether it is an accelerometer, its scale, buffered reads and scan types, the timestamp \
            channel and its clock, the sampling frequency. GPS receivers come from gpsd's ?DEVICES \
            (path, driver, speed, cycle). Exits non-zero when no accelerometer was found.
            """
    )

    @Option(help: "libiio context: local: on the board, ip:HOST (iiod) from another machine.")
    var uri = "local:"

    @Option(help: "gpsd host.")
    var gpsdHost = "localhost"

    @Option(help: "gpsd port.")
    var gpsdPort = 2947

    func validate() throws {
        guard (1...65535).contains(gpsdPort) else { throw ValidationError("--gpsd-port must be 1–65535") }
    }

    func run() throws {
        var accelerometers = 0
        StandardStreams.write("IIO devices at \(uri) (libiio \(IIOContext.libraryVersion)):\n")
        do {
            let devices = try IIODeviceSummary.list(uri: uri)
            if devices.isEmpty {
                StandardStreams.write("  none (is the sensor's device-tree overlay loaded? see hardware/SETUP.md)\n")
            }
            for d in devices {
                if d.isAccelerometer { accelerometers += 1 }
                for line in d.lines { StandardStreams.write("  " + line + "\n") }
            }
        } catch {
            StandardStreams.write("  \(error)\n")
        }

        StandardStreams.write("GPS receivers in gpsd at \(gpsdHost):\(gpsdPort):\n")
        do {
            let receivers = try GPSDDevices.list(host: gpsdHost, port: gpsdPort, timeout: 3)
            if receivers.isEmpty { StandardStreams.write("  none (gpsd runs but has no device: check /etc/default/gpsd DEVICES=)\n") }
            for r in receivers { StandardStreams.write("  \(r)\n") }
        } catch {
            StandardStreams.write("  \(error)\n")
        }
        StandardStreams.write("Heart-rate straps (oarlog hr):\n")
        do {
            let straps = try HeartRateStraps.status(book: SessionStore.default.straps)
            if straps.isEmpty { StandardStreams.write("  none assigned or known to bluetoothd (oarlog hr scan)\n") }
            for s in straps {
                let answers = s.seat == nil ? "" : (s.name != nil || s.rssi != nil || s.connected ? "  answers" : "  not seen by bluetoothd")
                StandardStreams.write("  \(HeartRateCommand.line(s))\(answers)\n")
            }
        } catch {
            StandardStreams.write("  \(error)\n")
        }
        if accelerometers == 0 { throw ExitCode(1) }
    }
}
