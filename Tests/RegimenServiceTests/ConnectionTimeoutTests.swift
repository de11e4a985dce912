import Foundation
import HummingbirdTesting
@testable import RegimenService
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client that keeps a connection without finishing its request is disconnected: idle,
/// slow headers (slowloris), slow bodies. Each test waits for the server to close the socket;
/// on a server without the timeout the read gives up after a minute and the test fails.
@Suite struct ConnectionTimeoutTests {
    typealias Support = ServiceTestSupport

    /// A blocking TCP client on 127.0.0.1.
    private struct RawClient {
        let socket: Int32

        init(port: Int) throws {
            #if canImport(Glibc)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(connected == 0)
            // A server that never closes fails the test after a minute instead of hanging it.
            var limit = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }

        func send(_ text: String) {
            _ = text.withCString { write(socket, $0, strlen($0)) }
        }

        /// Reads until the server closes (true) or the read gives up (false); the bytes read.
        func readUntilClosed() -> (closed: Bool, text: String) {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(socket, &buffer, buffer.count)
                if count == 0 { return (true, String(decoding: bytes, as: UTF8.self)) }
                if count < 0 { return (errno == ECONNRESET, String(decoding: bytes, as: UTF8.self)) }
                bytes += buffer[0..<count]
            }
        }

        func close() { closeDescriptor(socket) }
    }

    private static let short = ConnectionTimeouts(idle: .milliseconds(300), header: .milliseconds(300), body: .milliseconds(300))

    private func closes(after sending: String) async throws -> (closed: Bool, text: String) {
        let server = try Support.server(Support.configuration(timeouts: Self.short))
        return try await server.application(.public).test(.live) { live in
            let port = try #require(live.port)
            // The blocking socket reads run on a Dispatch thread: a task waiting on them would hold
            // one of the cooperative pool's threads, which the served routes need to answer.
            return try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    do {
                        let client = try RawClient(port: port)
                        defer { client.close() }
                        client.send(sending)
                        continuation.resume(returning: client.readUntilClosed())
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        }
    }

    @Test func anIdleConnectionIsClosed() async throws {
        let outcome = try await closes(after: "")
        #expect(outcome.closed)
    }

    @Test func aConnectionThatNeverFinishesItsHeadersIsClosed() async throws {
        let outcome = try await closes(after: "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        #expect(outcome.closed)
        #expect(outcome.text.isEmpty)
    }

    @Test func aConnectionThatNeverFinishesItsBodyIsClosed() async throws {
        let outcome = try await closes(after: "POST /v1/plans HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"sex\":")
        #expect(outcome.closed)
    }

    @Test func aRequestAnsweredInTimeKeepsItsConnectionForTheNext() async throws {
        let outcome = try await closes(after: "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(outcome.closed)
        #expect(outcome.text.components(separatedBy: "HTTP/1.1 200").count == 3, "\(outcome.text)")
    }
}

/// The C library's `close`, which ``RawClient``'s own `close()` hides.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
