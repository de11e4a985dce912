import RegimenLanguage

/// Records the shape a decode function accepts by running it in *describing mode*: the schema
/// comes from the very calls that decode, so a kind's shape is declared once.
///
/// In describing mode (a context made by ``DecodingContext/describing()``) every mapping the
/// decoder opens is an empty placeholder. Each `required`/`optional`/`mapping`/`list` call records
/// its key, whether it is required, and the shape of the type it decodes (leaf types record
/// themselves: text, integer, number, boolean, enum words, expression; a range given with `in:`
/// becomes `minimum`/`maximum`). A list describes its element by calling the element closure once
/// on a placeholder. A decoder that walks a mapping's own keys (`for key in map.keys`) sees one
/// placeholder key, ``MappingDecoder/anyKey``, whose shape becomes the shape of every key the
/// decoder does not name. Keys never asked for are not allowed, exactly as the loader reports
/// them as unknown.
///
/// Data-dependent branches, and why the recording is sound:
/// - A value call returns a *sample* (the range's lower bound, the first enum word, an empty list,
///   a word), so a decoder that stops when a value is missing (`guard let id = …`) still goes on
///   to ask for the rest of its keys, as it does on a real file.
/// - A raw node (``MappingDecoder/node(_:)``) is a placeholder of its own: whatever the decoder then
///   does with it (decode it as a type, open it as a mapping or list, compile it) is recorded as
///   that key's shape. A decoder that only inspects the node itself (`if let pairs = node.mapping`)
///   records nothing, and the key is `anything`, with a note that the loader checks it: the
///   schema is then looser than the loader there, never stricter. The mutation check
///   (scripts/schema-check.py) measures how often the two disagree.
/// - Expressions, cross-file references, duplicates and rules between values (one below another)
///   are the loader's alone.
final class ShapeRecorder {
    private var slots: [[NodeShape]] = [[]]
    /// Shapes recorded for the raw-node placeholders handed out by ``newPlaceholder()``, by
    /// the placeholder's number.
    private var keyed: [Int: [NodeShape]] = [:]
    private var nextKey = 2

    init() {}

    /// Records a shape for `node`: the key it stands for when it is a raw-node placeholder,
    /// otherwise the current place.
    func record(_ shape: NodeShape, for node: LocatedNode) {
        if node.location.file == Self.file, node.location.line >= 2 {
            keyed[node.location.line, default: []].append(shape)
        } else {
            slots[slots.count - 1].append(shape)
        }
    }

    /// A fresh placeholder for a raw node (each is told apart by its line number, whatever key
    /// it stands for); what is recorded for it is ``takeShape(of:)``.
    func newPlaceholder() -> LocatedNode {
        defer { nextKey += 1 }
        return LocatedNode(.mapping([]), at: SourceLocation(file: Self.file, line: nextKey, column: 1))
    }

    /// The shape recorded for a raw-node placeholder, `anything` when none was.
    func takeShape(of node: LocatedNode) -> NodeShape {
        let shapes = keyed.removeValue(forKey: node.location.line) ?? []
        return Self.combined(shapes)
    }

    /// The shape `body` records: `anything` when it records none (a decoder that inspects the
    /// node itself), one shape, or `anyOf` the distinct shapes it records.
    func capture(_ body: () -> Void) -> NodeShape {
        slots.append([])
        body()
        return Self.combined(slots.removeLast())
    }

    private static func combined(_ shapes: [NodeShape]) -> NodeShape {
        var distinct: [NodeShape] = []
        for shape in shapes where !distinct.contains(shape) { distinct.append(shape) }
        switch distinct.count {
        case 0: return .anything(note: "Checked by the loader (regimen check).")
        case 1: return distinct[0]
        default: return .anyOf(distinct)
        }
    }

    /// The empty mapping every describing decoder reads.
    static let placeholder = LocatedNode(.mapping([]), at: SourceLocation(file: file, line: 1, column: 1))
    private static let file = "<schema>"
}

extension DecodingContext {
    /// A context in describing mode: decoders record the shape they accept instead of reading a
    /// file (see ``ShapeRecorder``).
    package static func describing() -> DecodingContext {
        let context = DecodingContext()
        context.recorder = ShapeRecorder()
        return context
    }

    /// Whether this context describes shapes instead of decoding.
    package var isDescribing: Bool { recorder != nil }

    /// In describing mode, records `shape` as what `node` accepts and returns `true` (the caller
    /// then returns `nil`); otherwise returns `false`. A custom leaf decoder calls it first:
    /// `if context.describe(.text, for: node) { return nil }`.
    package func describe(_ shape: NodeShape, for node: LocatedNode) -> Bool {
        guard let recorder else { return false }
        recorder.record(shape, for: node)
        return true
    }

    /// The shape `body` accepts, when `body` decodes ``placeholder`` through this context.
    /// Only meaningful in describing mode.
    package func shape(of body: (LocatedNode) -> Void) -> NodeShape {
        guard let recorder else { return .anything(note: nil) }
        return recorder.capture { body(ShapeRecorder.placeholder) }
    }

    /// The shape of `T` as its decoder accepts it.
    package func shape<T: NodeDecodable>(of type: T.Type, at path: DecodingPath) -> NodeShape {
        shape { node in _ = T.decode(from: node, at: path, in: self) }
    }
}
