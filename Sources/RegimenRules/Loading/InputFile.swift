package import Foundation
package import RegimenLanguage

/// Reads one input file (rule file, policy, profile, plan, check-ins, test file) as UTF-8 text.
///
/// Every file Regimen reads goes through here, so every one gets the same three guarantees:
/// - only a regular file (or a symbolic link to one) is opened: a directory, FIFO, socket or
///   device is refused before it is opened, so a FIFO named `profile.yaml` cannot stall a command
///   and `/dev/zero` is never read;
/// - a file larger than ``maximumBytes`` is refused before it is read whole (the YAML parser
///   holds a tree many times the size of its text, so a 50 MB list would need gigabytes);
/// - text that is not UTF-8 is an error at the line and column of its first bad byte, not a
///   bare "cannot read".
package enum InputFile {
    /// The most bytes one input file may hold: 8 MiB, about 40 times the largest shipped file
    /// (README, "Limits").
    static let maximumBytes = 8 * 1024 * 1024

    /// The text of the file at `url`; `displayPath` names it in the error.
    /// - Throws: ``DiagnosticsError`` with one located error: missing, unreadable, too large or
    ///   not UTF-8.
    package static func read(_ url: URL, displayPath: String) throws(DiagnosticsError) -> String {
        let start = SourceLocation(file: displayPath, line: 1, column: 1)
        if let problem = notRegular(url) { throw DiagnosticsError([.error("file.unreadable", problem, at: start)]) }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // One byte past the limit tells "too large" apart without reading the rest.
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            let message = !exists ? "file does not exist" : isDirectory.boolValue ? "is a directory, not a file" : "cannot read file"
            throw DiagnosticsError([.error(exists ? "file.unreadable" : "file.missing", message, at: start)])
        }
        return try checkedText(data, displayPath: displayPath)
    }

    /// Why the file at `url` is not one Regimen reads (it is a directory, FIFO, socket or
    /// device), or `nil` for a regular file and for a path that does not exist (opening it then
    /// reports that). `stat` follows symbolic links, so a link to a regular file is read.
    static func notRegular(_ url: URL) -> String? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a directory, not a file"
        case S_IFIFO: return "is a FIFO (named pipe), not a regular file; Regimen reads only regular files"
        case S_IFSOCK: return "is a socket, not a regular file; Regimen reads only regular files"
        case S_IFCHR, S_IFBLK: return "is a device, not a regular file; Regimen reads only regular files"
        default: return "is not a regular file; Regimen reads only regular files"
        }
    }

    /// `data` (an input given in memory, such as a request body) as UTF-8 text, refused when it
    /// is larger than ``maximumBytes``, as a file would be.
    package static func checkedText(_ data: Data, displayPath: String) throws(DiagnosticsError) -> String {
        guard data.count <= maximumBytes else {
            let start = SourceLocation(file: displayPath, line: 1, column: 1)
            throw DiagnosticsError([
                .error("file.too-large", "file is larger than \(maximumBytes / (1024 * 1024)) MiB (\(maximumBytes) bytes); Regimen reads input files up to that size", at: start),
            ])
        }
        return try text(data, displayPath: displayPath)
    }

    /// The text of the file at `path` (as given on the command line, also used in locations).
    package static func read(path: String) throws(DiagnosticsError) -> String {
        try read(URL(fileURLWithPath: path), displayPath: path)
    }

    /// `data` as UTF-8 text, or an error at the first byte that is not UTF-8.
    package static func text(_ data: Data, displayPath: String) throws(DiagnosticsError) -> String {
        if let text = String(validating: data, as: UTF8.self) { return text }
        var line = 1
        var column = 1
        var bytes = data.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                break decoding
            case .error:
                break decoding
            }
        }
        throw DiagnosticsError([
            .error("file.encoding", "the file is not UTF-8 text (an invalid byte here); save it as UTF-8",
                   at: SourceLocation(file: displayPath, line: line, column: column)),
        ])
    }
}
