/// `rules/student-progress.yaml`: totals, percent and the streak definition.
public struct ProgressRules: Sendable {
    public var daysPerWeek: Int
    /// Variables: `duration_weeks`, `days_per_week`.
    public var totalDays: Formula
    public var defaultDurationWeeks: Int
    /// Variables: `completed`, `total`.
    public var percentComplete: Formula
    /// Whether a day is a rest day. Variables: `day` (1 = startDate), `weekday` (1 = Monday).
    public var restDay: Formula
    /// Whether a completed rest day extends a streak.
    public var restDayExtends: Bool
    /// Whether an unfinished today breaks the current streak.
    public var todayBreaksWhenPending: Bool
    public var upload: UploadRules

    public init(daysPerWeek: Int, totalDays: Formula, defaultDurationWeeks: Int, percentComplete: Formula, restDay: Formula,
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

/// What a trainer's upload must be (seed 001: PDF only, at most 10 MB).
public struct UploadRules: Sendable, Hashable {
    public var contentTypes: [String]
    public var extensions: [String]
    public var signature: String
    public var maxBytes: Int

    public init(contentTypes: [String], extensions: [String], signature: String, maxBytes: Int) {
        self.contentTypes = contentTypes
        self.extensions = extensions
        self.signature = signature
        self.maxBytes = maxBytes
    }

    /// Every reason the file cannot be uploaded; empty when it can.
    /// - Parameters:
    ///   - contentType: the declared MIME type, when the client sent one.
    ///   - leadingBytes: the file's first bytes (at least the signature's length when the file is that long).
    public func problems(fileName: String, contentType: String?, size: Int, leadingBytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let allowed = extensions.map { ".\($0)" }.joined(separator: " or ")
        let lowerName = fileName.lowercased()
        if !extensions.contains(where: { lowerName.hasSuffix(".\($0.lowercased())") }) {
            problems.append("'\(fileName)' is not a PDF: the name must end in \(allowed)")
        }
        if let contentType, !contentTypes.contains(contentType.lowercased()) {
            problems.append("content type '\(contentType)' is not allowed; upload \(contentTypes.joined(separator: " or "))")
        }
        if size == 0 {
            problems.append("the file is empty")
        } else if !leadingBytes.starts(with: Array(signature.utf8)) {
            problems.append("the file does not start with the PDF signature '\(signature)'")
        }
        if size > maxBytes {
            problems.append("the file is \(Self.megabytes(size)) (\(size) bytes); the limit is \(Self.megabytes(maxBytes)) (\(maxBytes) bytes)")
        }
        return problems
    }

    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }
}
