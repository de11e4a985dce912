/// `rules/student-progress.yaml`: totals, percent and the streak definition.
package struct ProgressRules: Sendable {
    var daysPerWeek: Int
    /// Variables: `duration_weeks`, `days_per_week`.
    var totalDays: Formula
    var defaultDurationWeeks: Int
    /// Variables: `completed`, `total`.
    var percentComplete: Formula
    /// Whether a day is a rest day. Variables: `day` (1 = startDate), `weekday` (1 = Monday).
    var restDay: Formula
    /// Whether a completed rest day extends a streak.
    var restDayExtends: Bool
    /// Whether an unfinished today breaks the current streak.
    var todayBreaksWhenPending: Bool
    package var upload: UploadRules

    init(daysPerWeek: Int, totalDays: Formula, defaultDurationWeeks: Int, percentComplete: Formula, restDay: Formula,
                restDayExtends: Bool, todayBreaksWhenPending: Bool, upload: UploadRules) {
        self.daysPerWeek = daysPerWeek
        self.totalDays = totalDays
        self.defaultDurationWeeks = defaultDurationWeeks
        self.percentComplete = percentComplete
        self.restDay = restDay
        self.restDayExtends = restDayExtends
        self.todayBreaksWhenPending = todayBreaksWhenPending
        self.upload = upload
    }
}

/// What a trainer's upload must be: a PDF of at most 10 MB (docs/requirements.md#trainer-uploads).
///
/// The Storage rules (rules/security/trainer-student/storage.rules) are the source for what the
/// upload's metadata may be: its content type (compared exactly, as the rule's `==` does) and its
/// size. ``metadataProblems(contentType:size:)`` restates them, and a generated test requires the
/// same verdict as the rule on every upload. The file name's extension and the `%PDF-` signature
/// are checks the rules cannot see (the object is always stored as `workout.pdf`, and rules read
/// no file contents); they are made here only.
package struct UploadRules: Sendable, Hashable {
    var contentTypes: [String]
    var extensions: [String]
    var signature: String
    var minBytes: Int
    var maxBytes: Int

    init(contentTypes: [String], extensions: [String], signature: String, minBytes: Int = 1, maxBytes: Int) {
        self.contentTypes = contentTypes
        self.extensions = extensions
        self.signature = signature
        self.minBytes = minBytes
        self.maxBytes = maxBytes
    }

    /// The content type an upload of `fileName` carries when the client declares none: the
    /// client SDKs infer it from the extension, `application/octet-stream` otherwise.
    func inferredContentType(fileName: String) -> String {
        let lowerName = fileName.lowercased()
        if let first = contentTypes.first, extensions.contains(where: { lowerName.hasSuffix(".\($0.lowercased())") }) {
            return first
        }
        return "application/octet-stream"
    }

    /// What the Storage rule decides on: every reason the metadata is refused; empty when allowed.
    func metadataProblems(contentType: String, size: Int) -> [String] {
        var problems: [String] = []
        if !contentTypes.contains(contentType) {
            problems.append("content type '\(contentType)' is not allowed; upload \(contentTypes.joined(separator: " or ")) (compared exactly, as the Storage rule does)")
        }
        if size < minBytes {
            problems.append(size == 0 ? "the file is empty" : "the file is \(size) bytes; the least is \(minBytes)")
        }
        if size > maxBytes {
            problems.append("the file is \(Self.megabytes(size)) (\(size) bytes); the limit is \(Self.megabytes(maxBytes)) (\(maxBytes) bytes)")
        }
        return problems
    }

    /// Checks the Storage rules cannot make: the name's extension and the file's signature.
    func fileProblems(fileName: String, size: Int, leadingBytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let allowed = extensions.map { ".\($0)" }.joined(separator: " or ")
        let lowerName = fileName.lowercased()
        if !extensions.contains(where: { lowerName.hasSuffix(".\($0.lowercased())") }) {
            problems.append("'\(fileName)' is not a PDF: the name must end in \(allowed)")
        }
        if size > 0, !leadingBytes.starts(with: Array(signature.utf8)) {
            problems.append("the file does not start with the PDF signature '\(signature)'")
        }
        return problems
    }

    /// Every reason the file cannot be uploaded; empty when it can.
    /// - Parameters:
    ///   - contentType: the declared MIME type; when `nil`, the one the SDKs infer from the name.
    ///   - leadingBytes: the file's first bytes (at least the signature's length when the file is that long).
    package func problems(fileName: String, contentType: String?, size: Int, leadingBytes: [UInt8]) -> [String] {
        fileProblems(fileName: fileName, size: size, leadingBytes: leadingBytes)
            + metadataProblems(contentType: contentType ?? inferredContentType(fileName: fileName), size: size)
    }

    private static func megabytes(_ bytes: Int) -> String {
        // Whole mebibytes and the rounded tenth apart: `bytes * 10` overflows for the largest sizes.
        let tenths = bytes / 1_048_576 * 10 + (bytes % 1_048_576 * 10 + 524_288) / 1_048_576
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }
}
