import CIIO
#if canImport(Glibc)
import Glibc
#endif

/// A libiio buffer streaming x/y/z (and the timestamp) of one device. Creating it enables exactly
/// those scan elements (every other channel is disabled) and the kernel buffer; `deinit`
/// disables the buffer and frees it — the one place the C buffer is released.
final class IIOBufferStream: @unchecked Sendable {
    private let pointer: OpaquePointer
    let device: IIODevice
    /// Bytes per scan.
    let step: Int
    let offsets: (x: Int, y: Int, z: Int, timestamp: Int?)
    let formats: (x: IIOScanFormat, y: IIOScanFormat, z: IIOScanFormat, timestamp: IIOScanFormat?)

    init(channels: IIOAccelerometerChannels, device: IIODevice, withTimestamp: Bool, samples: Int) throws {
        let fx = try channels.x.scanFormat(), fy = try channels.y.scanFormat(), fz = try channels.z.scanFormat()
        let timestamp = withTimestamp ? channels.timestamp : nil
        let ft = try timestamp?.scanFormat()
        for channel in device.channels where !channel.isOutput { channel.disable() }
        channels.x.enable(); channels.y.enable(); channels.z.enable()
        timestamp?.enable()
        var error: Int32 = 0
        guard let buffer = oarlog_iio_buffer_open(device.pointer, max(1, samples), &error) else {
            throw IIOError.buffer(device: device.displayName, reason: "cannot create a buffer of \(samples) scans: \(IIOError.text(ofErrno: error))")
        }
        self.pointer = buffer
        self.device = device
        self.step = Int(oarlog_iio_buffer_step(buffer))
        self.offsets = (Int(oarlog_iio_buffer_channel_offset(buffer, channels.x.pointer)),
                        Int(oarlog_iio_buffer_channel_offset(buffer, channels.y.pointer)),
                        Int(oarlog_iio_buffer_channel_offset(buffer, channels.z.pointer)),
                        timestamp.map { Int(oarlog_iio_buffer_channel_offset(buffer, $0.pointer)) })
        self.formats = (fx, fy, fz, ft)
    }

    deinit { oarlog_iio_buffer_close(pointer) }

    /// Waits for the next scans: bytes now in the buffer, or minus an errno (-ETIMEDOUT on a stall).
    func refill() -> Int { Int(oarlog_iio_buffer_refill(pointer)) }

    /// The data of the last refill.
    var bytes: UnsafeRawPointer { UnsafeRawPointer(oarlog_iio_buffer_bytes(pointer)) }

    /// Makes a blocked refill return (from another thread).
    func cancel() { oarlog_iio_buffer_cancel(pointer) }
}
