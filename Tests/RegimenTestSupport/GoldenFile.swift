public import Foundation

/// A file of expected output kept in the repository (under `Tests/Goldens/`). A test compares what
/// it produced with the file; with `REGIMEN_RECORD_GOLDENS=1` in the environment it writes the file
/// instead, so a deliberate change of output is re-recorded in one run and reviewed as a diff.
public struct GoldenFile: Sendable {
    /// The variable that switches comparing to recording.
    public static let recordVariable = "REGIMEN_RECORD_GOLDENS"

    /// The folder every golden lives under.
    public static let folder = RepositoryRoot.appending("Tests/Goldens")

    /// True when the environment asks to re-record.
    public static var isRecording: Bool {
        guard let value = ProcessInfo.processInfo.environment[recordVariable] else { return false }
        return !value.isEmpty && value != "0"
    }

    /// The golden's path relative to ``folder``, such as `commands/plan-minimal.txt`.
    public let name: String

    public init(_ name: String) { self.name = name }

    public var url: URL { Self.folder.appendingPathComponent(name) }

    /// Compares `actual` with the recorded text (or records it). Returns nil when they agree,
    /// otherwise a message naming the first line that differs.
    public func check(_ actual: String) -> String? {
        if Self.isRecording {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try actual.write(to: url, atomically: true, encoding: .utf8)
                return nil
            } catch {
                return "could not record \(name): \(error)"
            }
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return "no golden \(name); run the tests with \(Self.recordVariable)=1 to record it"
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected == actual { return nil }
        return Self.firstDifference(expected: expected, actual: actual, name: name)
    }

    /// The first differing line, shown both ways, so a failure says what changed without a diff tool.
    static func firstDifference(expected: String, actual: String, name: String) -> String {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let old = index < expectedLines.count ? String(expectedLines[index]) : "<end of file>"
            let new = index < actualLines.count ? String(actualLines[index]) : "<end of file>"
            if old != new {
                return "\(name) differs at line \(index + 1):\n  golden: \(old)\n  actual: \(new)\n(re-record with \(recordVariable)=1 if the change is intended)"
            }
        }
        return "\(name) differs (line endings)"
    }
}
