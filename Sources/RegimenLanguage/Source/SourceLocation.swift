/// A position in a source file.
///
/// Lines and columns are **1-based**; columns count Unicode scalars, the same convention as
/// Yams' `Mark` (libyaml), so a YAML node's mark converts without adjustment.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file path as given to the loader (usually relative to the working directory).
    public var file: String
    /// Line number, starting at 1.
    public var line: Int
    /// Column number in Unicode scalars, starting at 1.
    public var column: Int

    /// The location `line`:`column` (both from 1) in `file`.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }

    /// The location `count` scalars further along the same line.
    public func advanced(byColumns count: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + count)
    }
}
