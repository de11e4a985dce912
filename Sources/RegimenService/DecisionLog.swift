import Crypto
import Foundation
import RegimenKit
import Synchronization

/// Appends one JSON line per decision for auditors: time, decision id (the answer's
/// `Regimen-Decision-Id`, and the element's index in a batch), policy, revision, request id, the
/// SHA-256 of the request body, who asked (where `request.auth` came from, its uid, the caller's
/// key id), the decision and the statement that granted it. Fields named in `masked` are
/// written as a digest.
///
/// SIGHUP reopens the file by its name, so a log rotated by renaming (logrotate's default)
/// goes on in a new file rather than in the renamed one.
final class DecisionLog: Sendable {
    private let file: URL
    private let handle: Mutex<FileHandle>
    private let masked: Set<MaskedField>

    /// Opens `file` for appending, creating it when missing.
    init(file: URL, masked: Set<MaskedField> = []) throws {
        self.file = file
        self.masked = masked
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

    func record(
        policy: String, revision: String, requestID: String, decisionID: String, body: Data, decisions: [Decision], askers: [DecisionAsker]
    ) {
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        let time = ISO8601DateFormatter().string(from: Date())
        func field(_ name: MaskedField, _ value: String?) -> Value {
            guard let value else { return .null }
            return .string(masked.contains(name) ? DecisionAudit.mask(value) : value)
        }
        var lines = ""
        for (index, decision) in decisions.enumerated() {
            let asker = index < askers.count ? askers[index] : DecisionAsker(source: .signedOut)
            let entry: Value = .map([
                "time": .string(time), "decision_id": .string(decisionID), "index": .int(Int64(index)),
                "policy": .string(policy), "revision": .string(revision), "request_id": .string(requestID),
                "request_digest": .string("sha256:\(digest)"),
                "auth_source": .string(asker.source.rawValue), "uid": field(.uid, asker.uid), "caller": field(.caller, asker.caller),
                "decision": .string(decision.allowed ? "allow" : "deny"), "method": decision.method.map { .string($0.rawValue) } ?? .null,
                "path": field(.path, decision.path), "statement": decision.grantedBy.map { .string($0.location.description) } ?? .null,
                "reason": field(.reason, decision.summary),
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
