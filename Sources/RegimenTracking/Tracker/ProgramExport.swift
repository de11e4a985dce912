package import RegimenLanguage

extension TrackerTree {
    /// The tree cut down to one document: its ancestors (without their other children) and its
    /// whole subtree, so an exported week still says which program it belongs to.
    public func selecting(_ level: TrackerLevel, id: String) -> TrackerTree? {
        func cut(_ documents: [TrackerDocument]) -> [TrackerDocument]? {
            for document in documents {
                if document.level == level, document.id == id { return [document] }
                if document.level < level, let below = cut(document.children) {
                    var ancestor = document
                    ancestor.children = below
                    return [ancestor]
                }
            }
            return nil
        }
        return cut(programs).map { TrackerTree(userId: userId, programs: $0) }
    }
}

/// Exports a tree as CSV, one row per set, and reads such a CSV back: an export keeps the ids and
/// timestamps a re-import needs (docs/requirements.md#tracker-analytics-and-export).
///
/// Columns are `<level>.id` and `<level>.<field>` for every field found at each level, in
/// hierarchy order then field name. A document without children gets a row of its own with the
/// columns below it empty, so empty weeks and workouts survive the round trip. Cells hold
/// strings as written, numbers (floats always with a decimal point), `true`/`false`, RFC 3339
/// timestamps and `null`; an empty cell is a field the document does not have.
package enum TrackerCSV {
    /// The tree as CSV text, rows in tree order.
    package static func export(_ tree: TrackerTree) -> String {
        var fieldNames: [TrackerLevel: Set<String>] = [:]
        tree.forEach { document, _ in fieldNames[document.level, default: []].formUnion(document.fields.keys) }
        var columns: [(level: TrackerLevel, field: String?)] = []
        for level in TrackerLevel.allCases {
            columns.append((level, nil))
            if level == .program, tree.userId != nil { columns.append((level, "userId")) }
            for name in (fieldNames[level] ?? []).sorted() where !(level == .program && name == "userId" && tree.userId != nil) {
                columns.append((level, name))
            }
        }
        var lines = [columns.map { quote("\($0.level.rawValue).\($0.field ?? "id")") }.joined(separator: ",")]
        func emit(_ document: TrackerDocument, ancestors: [TrackerDocument]) {
            let chain = ancestors + [document]
            if document.children.isEmpty {
                let cells = columns.map { column -> String in
                    guard let owner = chain.first(where: { $0.level == column.level }) else { return "" }
                    guard let field = column.field else { return quote(owner.id) }
                    if column.level == .program, field == "userId", owner.fields[field] == nil, let userId = tree.userId {
                        return quote(userId)
                    }
                    return owner.fields[field].map { quote(cell($0)) } ?? ""
                }
                lines.append(cells.joined(separator: ","))
            }
            for child in document.children { emit(child, ancestors: chain) }
        }
        for program in tree.programs { emit(program, ancestors: []) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads CSV written by ``export(_:)`` back into a tree, typing cells by `policy`'s field
    /// types (a field the policy does not know is read as a number, a bool or a string).
    package static func `import`(_ text: String, policy: ValidationPolicy) throws -> TrackerTree {
        let rows = try parse(text)
        guard let header = rows.first else { throw CSVError(line: 1, message: "the CSV has no header row") }
        var columns: [(level: TrackerLevel, field: String)] = []
        for (index, name) in header.enumerated() {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let level = TrackerLevel(rawValue: parts[0]) else {
                throw CSVError(line: 1, message: "column \(index + 1) '\(name)' is not '<level>.<field>'")
            }
            columns.append((level, parts[1]))
        }
        var root = TrackerDocument(level: .program, id: "")
        var userIds: Set<String> = []
        for (rowIndex, row) in rows.dropFirst().enumerated() {
            guard row.count == columns.count else {
                throw CSVError(line: rowIndex + 2, message: "expected \(columns.count) cells, found \(row.count)")
            }
            var chain: [(level: TrackerLevel, id: String, fields: [String: Value])] = []
            for level in TrackerLevel.allCases {
                var id: String?
                var fields: [String: Value] = [:]
                for (index, column) in columns.enumerated() where column.level == level {
                    let text = row[index]
                    if column.field == "id" {
                        id = text.isEmpty ? nil : text
                    } else if !text.isEmpty {
                        fields[column.field] = value(of: text, type: policy.levels[level]?.fields[column.field]?.type)
                    }
                }
                guard let id else { break }
                if level == .program, case .string(let user)? = fields["userId"] { userIds.insert(user) }
                chain.append((level, id, fields))
            }
            guard !chain.isEmpty else { throw CSVError(line: rowIndex + 2, message: "the row has no program.id") }
            insert(chain[...], into: &root.children)
        }
        guard userIds.count <= 1 else {
            throw CSVError(line: 2, message: "rows belong to several users: \(userIds.sorted().joined(separator: ", "))")
        }
        return TrackerTree(userId: userIds.first, programs: root.children)
    }

    private static func insert(_ chain: ArraySlice<(level: TrackerLevel, id: String, fields: [String: Value])>,
                               into documents: inout [TrackerDocument]) {
        guard let head = chain.first else { return }
        let index: Int
        if let existing = documents.firstIndex(where: { $0.id == head.id }) {
            index = existing
        } else {
            documents.append(TrackerDocument(level: head.level, id: head.id, fields: head.fields))
            index = documents.count - 1
        }
        insert(chain.dropFirst(), into: &documents[index].children)
    }

    private static func cell(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .float(let f): String(f)
        case .string(let s): s
        case .timestamp(let t): t.description
        default: value.jsonString()
        }
    }

    private static func value(of text: String, type: ValidationPolicy.FieldType?) -> Value {
        if text == "null" { return .null }
        switch type {
        case .string?: return .string(text)
        case .timestamp?: return Timestamp(iso8601: text).map(Value.timestamp) ?? .string(text)
        case .bool?: return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case .int?, .number?, nil:
            if let int = Int64(text) { return .int(int) }
            if let float = Double(text), float.isFinite { return .float(float) }
            if type == nil, text == "true" || text == "false" { return .bool(text == "true") }
            return .string(text)
        }
    }

    /// Quoted when a cell holds a comma, a quote, CR or LF (RFC 4180). Tested on scalars: Swift's
    /// `Character` makes CR LF one character, equal to neither CR nor LF, which left it unquoted.
    private static func quote(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in text.unicodeScalars {
            out.append(scalar)
            if scalar == "\"" { out.append("\"") }
        }
        out.append("\"")
        return String(out)
    }

    /// RFC 4180 rows: quoted cells may hold commas, doubled quotes, CR and LF; a row ends at LF,
    /// CR LF or a lone CR. Read by Unicode scalar: as `Character`s, a combining mark after a comma
    /// or quote would fuse with it and hide it.
    static func parse(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var cell = String.UnicodeScalarView()
        var quoted = false
        var atCellStart = true
        var line = 1
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func endRow() {
            row.append(String(cell))
            rows.append(row)
            row = []
            cell = String.UnicodeScalarView()
            atCellStart = true
            line += 1
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if quoted {
                if scalar == "\"" {
                    if index < scalars.count, scalars[index] == "\"" {
                        cell.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    // A line break inside a cell still moves the line count on (CR LF once).
                    if scalar == "\n" || (scalar == "\r" && !(index < scalars.count && scalars[index] == "\n")) { line += 1 }
                    cell.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where atCellStart:
                quoted = true
                atCellStart = false
            case ",":
                row.append(String(cell))
                cell = String.UnicodeScalarView()
                atCellStart = true
            case "\r":
                if index < scalars.count, scalars[index] == "\n" { index += 1 }
                endRow()
            case "\n":
                endRow()
            default:
                cell.append(scalar)
                atCellStart = false
            }
        }
        if quoted { throw CSVError(line: line, message: "a quoted cell is not closed") }
        if !cell.isEmpty || !row.isEmpty {
            row.append(String(cell))
            rows.append(row)
        }
        return rows
    }
}

/// A CSV that cannot be read back into a tree.
package struct CSVError: DiagnosticError, Hashable {
    package var line: Int
    package var message: String
    package var description: String { "line \(line): \(message)" }
    /// The caller's CSV file.
    package var kind: ErrorKind { .input }
    package var diagnostics: [Diagnostic] { [.error("csv.input", description, at: nil)] }
}
