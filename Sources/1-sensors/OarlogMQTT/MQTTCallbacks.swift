import CMosquitto

// libmosquitto's callbacks, as free functions (a closure literal in a @MainActor context would be
// inferred main-actor-isolated and trap on the network thread). `userData` is the MQTTClient,
// retained from `start` until `stop`.

private func client(_ userData: UnsafeMutableRawPointer?) -> MQTTClient? {
    userData.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
}

func oarlogMQTTConnected(_ m: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ rc: Int32, _ flags: Int32,
                         _ properties: OpaquePointer?) {
    client(userData)?.didConnect(reasonCode: rc)
}

func oarlogMQTTDisconnected(_ m: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ rc: Int32, _ properties: OpaquePointer?) {
    client(userData)?.didDisconnect(reasonCode: rc)
}

func oarlogMQTTPublished(_ m: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ mid: Int32, _ reasonCode: Int32,
                         _ properties: OpaquePointer?) {
    client(userData)?.didPublish(id: mid, reasonCode: reasonCode)
}

func oarlogMQTTMessage(_ m: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ message: UnsafePointer<mosquitto_message>?,
                       _ properties: OpaquePointer?) {
    guard let message, let topic = message.pointee.topic else { return }
    let count = Int(message.pointee.payloadlen)
    let payload: [UInt8] = count > 0 && message.pointee.payload != nil
        ? Array(UnsafeRawBufferPointer(start: message.pointee.payload, count: count)) : []
    client(userData)?.didReceive(topic: String(cString: topic), payload: payload)
}

func oarlogMQTTSubscribed(_ m: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ mid: Int32, _ count: Int32,
                          _ granted: UnsafePointer<Int32>?, _ properties: OpaquePointer?) {
    let qos = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, count)))) } ?? []
    client(userData)?.didSubscribe(id: mid, grantedQoS: qos)
}
