import Crypto
import Foundation
import RegimenKit
import Synchronization

/// Appends one JSON line per decision for auditors: time, policy, revision, request id, the
/// SHA-256 of the request body (and the element's index in a batch), and the decision.
///
/// SIGHUP reopens the file by its name, so a log rotated by renaming (logrotate's default)
/// goes on in a new file rather than in the renamed one.
final class DecisionLog: Sendable {
    private let file: URL
    private let handle: Mutex<FileHandle>

    /// Opens `file` for appending, creating it when missing.
    init(file: URL) throws {
        self.file = file
        handle = Mutex(try Self.open(file))
    }

    private static func open(_ file: URL) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: file.path) {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: file.path])
            }
        }
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        return handle
    }

    /// Opens the file by its name again; when that fails, lines keep going to the open file.
    /// - Throws: the error opening it.
    func reopen() throws {
        let fresh = try Self.open(file)
        let old = handle.withLock { handle in
            let old = handle
            handle = fresh
            return old
        }
        try? old.close()
    }

    func record(policy: String, revision: String, requestID: String, body: Data, decisions: [Decision]) {
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        let time = ISO8601DateFormatter().string(from: Date())
        var lines = ""
        for (index, decision) in decisions.enumerated() {
            let entry: Value = .map([
                "time": .string(time), "policy": .string(policy), "revision": .string(revision), "request_id": .string(requestID),
                "request_digest": .string("sha256:\(digest)"), "index": .int(Int64(index)),
                "decision": .string(decision.allowed ? "allow" : "deny"), "method": decision.method.map { .string($0.rawValue) } ?? .null,
                "path": .string(decision.path), "reason": .string(decision.summary),
            ])
            lines += entry.jsonString() + "\n"
        }
        let bytes = Data(lines.utf8)
        handle.withLock { handle in
            // A full disk loses log lines, never requests.
            try? handle.write(contentsOf: bytes)
        }
    }
}
