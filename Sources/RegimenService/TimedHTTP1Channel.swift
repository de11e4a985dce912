import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import NIOSSL

/// How long a connection may take over each part of a request before it is closed.
package struct ConnectionTimeouts: Sendable, Equatable {
    /// A connection with no request in progress that sends nothing for this long is closed.
    var idle: Duration?
    /// From the first byte of a request to the end of its head (slow headers: slowloris).
    var header: Duration?
    /// From the end of a request's head to the end of its body.
    package var body: Duration?

    package init(idle: Duration? = .seconds(60), header: Duration? = .seconds(10), body: Duration? = .seconds(30)) {
        self.idle = idle
        self.header = header
        self.body = body
    }
}

/// Hummingbird's HTTP/1.1 channel with a header and a body-read timeout in front of it (its
/// own idle timeout covers the time between requests). A client that trickles its head or its
/// body is disconnected, so it cannot hold a connection slot for as long as it likes.
struct TimedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let timeouts: ConnectionTimeouts
    /// TLS in front of everything, when the listener serves HTTPS.
    var tls: ReloadableTLS? = nil

    static func builder(_ timeouts: ConnectionTimeouts, tls: ReloadableTLS? = nil) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in TimedHTTP1Channel(responder: responder, timeouts: timeouts, tls: tls) }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let clock = NIOLoopBound(RequestClock(channel: channel, timeouts: timeouts), eventLoop: channel.eventLoop)
        let configured = HTTP1Channel(
            responder: responder,
            configuration: .init(additionalChannelHandlers: [RequestPartsWatch(clock: clock)], idleTimeout: timeouts.idle.map(TimeAmount.init)))
        return channel.eventLoop.makeCompletedFuture {
            // First in the pipeline: it sees a request's first byte, before the HTTP decoder.
            try channel.pipeline.syncOperations.addHandler(FirstByteWatch(clock: clock), position: .first)
            // TLS before it, so that the watches and the HTTP decoder see the decrypted bytes.
            if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls.context), position: .first) }
        }.flatMap {
            configured.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// Where a connection is in its current request, and the one timer that bounds that phase.
/// Confined to the connection's event loop (``NIOLoopBound``).
private final class RequestClock {
    enum Phase { case waiting, head, body, answering }

    private let channel: any Channel
    private let timeouts: ConnectionTimeouts
    private(set) var phase = Phase.waiting
    private var timer: Scheduled<Void>?

    init(channel: any Channel, timeouts: ConnectionTimeouts) {
        self.channel = channel
        self.timeouts = timeouts
    }

    func enter(_ phase: Phase) {
        self.phase = phase
        timer?.cancel()
        timer = nil
        let limit: Duration? = switch phase {
        case .head: timeouts.header
        case .body: timeouts.body
        case .waiting, .answering: nil
        }
        guard let limit else { return }
        let channel = channel
        timer = channel.eventLoop.scheduleTask(in: TimeAmount(limit)) {
            channel.close(promise: nil)
        }
    }
}

/// Starts the header timer at a request's first byte.
private final class FirstByteWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let clock: NIOLoopBound<RequestClock>

    init(clock: NIOLoopBound<RequestClock>) {
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if clock.value.phase == .waiting { clock.value.enter(.head) }
        context.fireChannelRead(data)
    }
}

/// Moves the clock on as the decoded request and its response pass: head → body timer, end of
/// the body → no timer while the service answers, end of the response → waiting again.
private final class RequestPartsWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let clock: NIOLoopBound<RequestClock>

    init(clock: NIOLoopBound<RequestClock>) {
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: clock.value.enter(.body)
        case .end: clock.value.enter(.answering)
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { clock.value.enter(.waiting) }
        context.write(data, promise: promise)
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        // Timeouts are at most days (the options are checked): nanoseconds never overflow.
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(min(seconds, Int64.max / 1_000_000_000 - 1) * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
