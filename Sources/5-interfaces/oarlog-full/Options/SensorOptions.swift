import ArgumentParser
import OarlogApp
import OarlogGPS
import OarlogIIO

/// The boat's sensors as `record` and `serve` open them: gpsd, an IIO accelerometer and the
/// assigned heart-rate straps, each left out with --no-gps / --no-accel / --no-hr.
struct SensorOptions: ParsableArguments {
    @Option(help: "gpsd as HOST:PORT.")
    var gps: String = "localhost:2947"

    @Flag(name: .customLong("no-gps"), help: "Without GPS.")
    var noGPS = false

    @Option(help: "libiio context of the accelerometer: local: on the board, ip:HOST through iiod.")
    var iio: String = "local:"

    @Option(help: "IIO device name (mpu6050, adxl345), id (iio:device0) or index; default: the first accelerometer.")
    var device: String?

    @Option(help: "Accelerometer sampling frequency to set, Hz (default: leave the device's).")
    var rate: Double?

    @Flag(name: .customLong("no-accel"), help: "Without the accelerometer (GPS only: no strokes).")
    var noAccel = false

    @Flag(name: .customLong("no-hr"), help: "Without the heart-rate straps assigned with `oarlog hr assign`.")
    var noHR = false

    /// A bad --gps or --rate, named.
    func validateValues() throws {
        if !noGPS && LiveSensorChoice.hostPort(gps) == nil { throw ValidationError("--gps '\(gps)': expected HOST:PORT, e.g. localhost:2947") }
        if let rate, !(rate > 0 && rate <= 100_000) { throw ValidationError("--rate must be a positive number of Hz") }
    }

    /// The sensors chosen.
    var choice: LiveSensorChoice {
        var accelerometer: IIOAccelerometerConfiguration?
        if !noAccel {
            var configuration = IIOAccelerometerConfiguration(uri: iio, device: IIODeviceSelector(device), samplingFrequency: rate)
            if let rate { configuration.pollingRate = rate }
            accelerometer = configuration
        }
        let gpsd = noGPS ? nil : LiveSensorChoice.hostPort(gps).map { GPSDSourceConfiguration(host: $0.host, port: $0.port) }
        let heartRate = noHR ? nil : HeartRateStrapChoice.assigned(sessionsPath: SessionStore.default.path)
        return LiveSensorChoice(accelerometer: accelerometer, gpsd: gpsd, heartRate: heartRate)
    }
}
