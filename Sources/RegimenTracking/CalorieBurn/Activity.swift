/// The four categories the activity library is organised by (docs/requirements.md#calorie-burn).
package enum ActivityCategory: String, Sendable, Hashable, CaseIterable {
    case cardio, strength, sports, flexibility
}

/// One row of the 2011 Adult Compendium of Physical Activities, as an intensity level of an
/// activity uses it.
package struct CompendiumRow: Sendable, Hashable {
    /// The intensity level of the calorie-burn rules this row serves (`light`, `moderate`, `vigorous`).
    package var level: String
    /// The five-digit Compendium code, e.g. `12050`.
    package var code: String
    package var met: Double
    /// The Compendium's description of the row.
    package var description: String

}

/// One activity of `catalogs/activity-catalog.yaml`.
package struct Activity: Sendable, Hashable {
    /// The catalog key, e.g. `running`.
    package var id: String
    package var name: String
    package var category: ActivityCategory
    /// The Compendium row of each intensity level the activity has one for, lowest MET first.
    package var rows: [CompendiumRow]
    /// The level of the activity's usual form.
    package var usualLevel: String

    init(id: String, name: String, category: ActivityCategory, rows: [CompendiumRow], usualLevel: String) {
        self.id = id
        self.name = name
        self.category = category
        self.rows = rows.sorted { ($0.met, $0.level) < ($1.met, $1.level) }
        self.usualLevel = usualLevel
    }

    /// The row of `level`, when the activity has one.
    package func row(_ level: String) -> CompendiumRow? { rows.first { $0.level == level } }

    /// The row of the usual form.
    var usualRow: CompendiumRow? { row(usualLevel) ?? rows.first }

    /// The levels the activity has Compendium rows for, lowest first.
    var intensities: [String] { rows.map(\.level) }
}

/// The activity library.
package struct ActivityCatalog: Sendable, Hashable {
    /// By id.
    package let activities: [Activity]
    private let byId: [String: Activity]

    init(activities: [Activity]) {
        self.activities = activities.sorted { $0.id < $1.id }
        self.byId = Dictionary(activities.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    package func activity(_ id: String) -> Activity? { byId[id] }

    /// Activities whose id or name contains `text`, ignoring case (requirement 1.3).
    package func search(_ text: String, category: ActivityCategory? = nil) -> [Activity] {
        let needle = text.lowercased()
        return activities.filter {
            (category == nil || $0.category == category)
                && (needle.isEmpty || $0.id.lowercased().contains(needle) || $0.name.lowercased().contains(needle))
        }
    }

    /// The id closest to `text` by edit distance, when it is close enough to be a typo.
    func suggestion(for text: String) -> String? {
        let scored = activities.map { (id: $0.id, distance: editDistance($0.id, text.lowercased())) }
        guard let best = scored.min(by: { ($0.distance, $0.id) < ($1.distance, $1.id) }),
              best.distance <= max(2, text.count / 3) else { return nil }
        return best.id
    }
}

/// Levenshtein distance over characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
