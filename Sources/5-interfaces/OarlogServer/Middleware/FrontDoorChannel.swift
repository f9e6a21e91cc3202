import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 + WebSocket channel with the front door in front of it: `SocketGate`
/// at the socket (the connection count, the request line's length) and `RequestGuard` right
/// after the HTTP decoder (the time a request may take, Host and Origin, parse errors answered
/// with JSON). Hummingbird alone holds a half-sent first request forever and leaves a head over
/// its limits unanswered and open.
struct FrontDoorChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let base: HTTP1WebSocketUpgradeChannel
    let door: FrontDoor

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let notes = ConnectionNotes()
        do {
            try channel.pipeline.syncOperations.addHandler(SocketGate(door: door, notes: notes))
            let value = base.setup(channel: channel, logger: logger)
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(RequestGuard(door: door, notes: notes), position: .after(decoder))
            return value
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension WebServer {
    /// HTTP/1 with WebSocket upgrades behind the front door (FrontDoorChannel): the idle
    /// timeout, the connection caps, the head limits, Host and Origin.
    static func frontDoorServer(_ router: Router<BasicWebSocketRequestContext>, _ configuration: ServerConfiguration,
                                access: ServerAccess) -> HTTPServerBuilder {
        let limits = configuration.limits
        let door = FrontDoor(limits: limits, hosts: HostAllowance(listenHost: configuration.host, extra: configuration.allowedHosts),
                             playbackGate: PlaybackGate(access: access))
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: limits.maximumLineBytes, maxHeaderListSize: limits.maximumHeadBytes, maxHeaderFieldCount: limits.maximumHeaderCount)
        let http1 = HTTP1Channel.Configuration(idleTimeout: .milliseconds(Int64(limits.idleTimeout * 1000)), httpDecoderConfiguration: decoder)
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(http1: http1, ws: .init())
        let webSocketResponder = router.buildResponder()
        return HTTPServerBuilder { responder in
            FrontDoorChannel(base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channel),
                             door: door)
        }
    }
}

/// What the two handlers of one connection tell each other (both run on its event loop).
final class ConnectionNotes {
    /// A WebSocket now: the bytes are frames, no longer looked at.
    var upgraded = false
    /// Bytes received since the last answer ended (a request has begun when above 0).
    var bytesSinceAnswer = 0
    /// The length of the latest request line, so far: a head refused for it is 414, not 431.
    var requestLineBytes = 0
    private var lineBytes = 0
    private var inRequestLine = true

    /// Follows the lines of the request heads: a line after an empty one is a request line.
    func scan(_ buffer: ByteBuffer) {
        bytesSinceAnswer += buffer.readableBytes
        for byte in buffer.readableBytesView {
            if byte == UInt8(ascii: "\n") {
                inRequestLine = lineBytes == 0
                lineBytes = 0
                continue
            }
            if byte != UInt8(ascii: "\r") { lineBytes += 1 }
            if inRequestLine { requestLineBytes = lineBytes }
        }
    }
}

/// First at the socket: counts the connection (over a limit it is answered 503 and closed before
/// anything reads it) and notes the request lines' lengths.
final class SocketGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let door: FrontDoor
    private let notes: ConnectionNotes
    private var admitted = false
    private var refused = false

    init(door: FrontDoor, notes: ConnectionNotes) {
        self.door = door
        self.notes = notes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !admitted else { return }
        admitted = true
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        if let reason = door.open(address) {
            refused = true
            let answer = RequestGuard.rawAnswer(status: .serviceUnavailable, message: reason, allocator: context.channel.allocator)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in bound.value.close(promise: nil) }
            return
        }
        let door = door
        context.channel.closeFuture.whenComplete { _ in door.close(address) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        if !notes.upgraded { notes.scan(unwrapInboundIn(data)) }
        context.fireChannelRead(data)
    }
}

/// Right after the HTTP decoder: a request must arrive whole within the idle timeout; a head
/// with a Host or Origin not allowed, or one the decoder refuses, is answered with JSON and the
/// connection closed; an empty error answer gets a JSON body; every request is told who sent it.
final class RequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Phase { case waiting, reading, answering, closing, upgraded }
    private let door: FrontDoor
    private let notes: ConnectionNotes
    private var phase = Phase.waiting
    private var timer: Scheduled<Void>?

    init(door: FrontDoor, notes: ConnectionNotes) {
        self.door = door
        self.notes = notes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startClock(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { stopClock() }

    func channelActive(context: ChannelHandlerContext) {
        startClock(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopClock()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .upgraded: return context.fireChannelRead(data)
        case .closing: return
        case .waiting, .reading, .answering: break
        }
        switch unwrapInboundIn(data) {
        case .head(var head):
            phase = .reading
            startClock(context)
            if let (status, message) = refusal(head) { return refuse(context, status: status, message: message) }
            head.headers.replaceOrAdd(name: FrontDoor.peerHeaderName, value: context.channel.remoteAddress?.ipAddress ?? "unknown")
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            phase = .answering
            stopClock()  // a long answer (an export) is not the client's fault
            context.fireChannelRead(data)
        }
    }

    private func refusal(_ head: HTTPRequestHead) -> (HTTPResponseStatus, String)? {
        if head.uri.utf8.count > door.limits.maximumURLBytes {
            return (.uriTooLong, "the URL is over \(door.limits.maximumURLBytes) bytes")
        }
        let isWebSocket = head.headers["upgrade"].contains { $0.lowercased() == "websocket" }
        if let (code, message) = door.hosts.refusal(host: head.headers["host"].first, origin: head.headers["origin"].first,
                                                    isWebSocket: isWebSocket) {
            return (HTTPResponseStatus(statusCode: code), message)
        }
        if isWebSocket, let why = door.playbackGate?.refusal(uri: head.uri, headers: head.headers) { return (.unauthorized, why) }
        return nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if phase == .upgraded { return context.write(data, promise: promise) }
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if head.status == .switchingProtocols {
                phase = .upgraded
                notes.upgraded = true
                stopClock()
            } else if head.status.code >= 400, head.headers["content-length"] == ["0"] {
                // Hummingbird's own answers without a body (a refused WebSocket upgrade): say why.
                let body = ByteBuffer(string: FrontDoor.errorJSON(Self.reason(head.status)))
                head.headers.replaceOrAdd(name: "content-length", value: String(body.readableBytes))
                head.headers.replaceOrAdd(name: "content-type", value: "application/json; charset=utf-8")
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                return context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: promise)
            }
        case .body:
            break
        case .end:
            notes.bytesSinceAnswer = 0
            if phase == .answering {
                phase = .waiting
                startClock(context)
            }
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError, phase == .waiting || phase == .reading else {
            return context.fireErrorCaught(error)
        }
        let limits = door.limits
        if notes.requestLineBytes > limits.maximumLineBytes {
            refuse(context, status: .uriTooLong, message: "the URL is over \(limits.maximumURLBytes) bytes")
        } else if parse == .headerOverflow {
            refuse(context, status: .requestHeaderFieldsTooLarge, message: """
                the request's headers are too large: at most \(limits.maximumHeaderCount) fields, \
                \(limits.maximumLineBytes) bytes each, \(limits.maximumHeadBytes) bytes in all
                """)
        } else {
            refuse(context, status: .badRequest, message: "not an HTTP/1.1 request (\(parse))")
        }
    }

    /// Answers `status` with the JSON error and closes; nothing more is read.
    private func refuse(_ context: ChannelHandlerContext, status: HTTPResponseStatus, message: String) {
        phase = .closing
        stopClock()
        let body = ByteBuffer(string: FrontDoor.errorJSON(message))
        let headers = HTTPHeaders([("Content-Type", "application/json; charset=utf-8"), ("Content-Length", String(body.readableBytes)),
                                   ("Connection", "close"), ("Cache-Control", "no-store")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    /// The idle clock: when it runs out the connection is closed, with a 408 if part of a
    /// request had come.
    private func startClock(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: .milliseconds(Int64(door.limits.idleTimeout * 1000))) {
            let (handler, context) = bound.value
            handler.timer = nil
            guard handler.phase == .waiting || handler.phase == .reading else { return }
            if handler.notes.bytesSinceAnswer > 0 {
                handler.refuse(context, status: .requestTimeout,
                               message: "the request did not arrive within \(Int(handler.door.limits.idleTimeout)) s")
            } else {
                handler.phase = .closing
                context.close(promise: nil)
            }
        }
    }

    private func stopClock() {
        timer?.cancel()
        timer = nil
    }

    static func reason(_ status: HTTPResponseStatus) -> String {
        status == .badRequest ? "refused: this WebSocket does not exist here, or may not be opened now" : status.reasonPhrase.lowercased()
    }

    /// A whole HTTP answer as bytes, for the socket before any HTTP handler.
    static func rawAnswer(status: HTTPResponseStatus, message: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        let body = FrontDoor.errorJSON(message)
        return allocator.buffer(string: """
            HTTP/1.1 \(status.code) \(status.reasonPhrase)\r
            Content-Type: application/json; charset=utf-8\r
            Content-Length: \(body.utf8.count)\r
            Connection: close\r
            Cache-Control: no-store\r
            \r
            \(body)
            """)
    }
}
