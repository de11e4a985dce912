import CFuzzDriver
import Foundation

/// A libFuzzer test function: the input's bytes and their count; returns 0.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs libFuzzer with the process's arguments and `test` as the target (a target's entry point).
///
/// First every input in the corpus directories named on the command line runs once, outside
/// libFuzzer: that initializes the globals and caches the code under test keeps for the process
/// (loaded rules, compiled helper tables). LeakSanitizer cannot follow Swift's tagged enum
/// pointers, so such once-per-process memory, first reached during a fuzzed input, would be
/// reported as that input's leak; after the warm-up, memory an input keeps is a real leak.
public func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ test: FuzzTest) -> CInt {
    let arguments = (0..<Int(argc)).compactMap { argv?[$0].map { String(cString: $0) } }
    _ = test(nil, 0)
    for argument in arguments.dropFirst() where !argument.hasPrefix("-") {
        let directory = URL(fileURLWithPath: argument)
        for file in (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [] {
            guard let data = try? Data(contentsOf: file) else { continue }
            _ = data.withUnsafeBytes { raw in test(raw.bindMemory(to: UInt8.self).baseAddress, raw.count) }
        }
    }
    var count = argc
    var pointer = argv
    return LLVMFuzzerRunDriver(&count, &pointer, test)
}

/// The bytes libFuzzer hands a target, with the helpers every target shares.
public struct FuzzInput {
    public let bytes: UnsafeBufferPointer<UInt8>

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    }

    /// The input as text; invalid UTF-8 becomes U+FFFD, as it would reading a file leniently.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The input split at its first NUL byte: the document before, the steering bytes after.
    public var documentAndTail: (document: String, tail: ArraySlice<UInt8>) {
        guard let split = bytes.firstIndex(of: 0) else { return (text, []) }
        return (String(decoding: bytes[..<split], as: UTF8.self), ArraySlice(bytes[(split + 1)...]))
    }

    /// The repository root: `REGIMEN_ROOT`, or the working directory (scripts/fuzz.sh runs there).
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.environment["REGIMEN_ROOT"] ?? FileManager.default.currentDirectoryPath)
    }
}

/// Steering bytes as a stream of small choices.
public struct Choices {
    var bytes: ArraySlice<UInt8>

    public init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// One of `options`, chosen by the next byte (the first option when the bytes run out).
    public mutating func pick<T>(_ options: [T]) -> T {
        guard let byte = bytes.popFirst(), !options.isEmpty else { return options[0] }
        return options[Int(byte) % options.count]
    }

    public var isEmpty: Bool { bytes.isEmpty }
}
