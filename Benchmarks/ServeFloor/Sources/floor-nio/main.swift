// The floor without Hummingbird: swift-nio's HTTP/1 server upgraded to a WebSocket on any path
// that sends a small JSON text ten times a second to each client (as /api/live does). No
// Foundation anywhere in the program.
//
//   floor-nio [PORT]
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

final class LiveHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame
    private var task: RepeatedTask?
    private var count = 0
    func handlerAdded(context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let boundContext = NIOLoopBound(context, eventLoop: loop)
        task = loop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(100)) { [self] _ in
            let context = boundContext.value
            count += 1
            let text = "{\"t\":\(count),\"split_s\":121.4,\"rate_spm\":24.0,\"distance_m\":\(count * 4)}"
            var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
            buffer.writeString(text)
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: buffer)), promise: nil)
        }
    }
    func handlerRemoved(context: ChannelHandlerContext) { task?.cancel() }
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if frame.opcode == .connectionClose { context.close(promise: nil) }
    }
}

let port = Int(CommandLine.arguments.dropFirst().first ?? "8098") ?? 8098
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let upgrader = NIOWebSocketServerUpgrader(
    shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
    upgradePipelineHandler: { channel, _ in channel.pipeline.addHandler(LiveHandler()) })
let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
    }
let channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
try channel.closeFuture.wait()
