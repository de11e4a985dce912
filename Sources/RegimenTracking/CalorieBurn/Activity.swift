/// The categories of the activity library (seed 002, requirement 1.2).
public enum ActivityCategory: String, Sendable, Hashable, CaseIterable {
    case cardio, strength, sports, flexibility
}

/// One activity of `catalogs/activities.yaml`.
public struct Activity: Sendable, Hashable {
    /// The catalog key, e.g. `running`.
    public var id: String
    public var name: String
    public var category: ActivityCategory
    /// The Adult Compendium of Physical Activities code the base MET is read from.
    public var compendiumCode: String
    /// MET of the activity's usual form.
    public var baseMET: Double
    /// Ids of the intensity levels the activity is typically done at, lowest first.
    public var intensities: [String]

    public init(id: String, name: String, category: ActivityCategory, compendiumCode: String, baseMET: Double, intensities: [String]) {
        self.id = id
        self.name = name
        self.category = category
        self.compendiumCode = compendiumCode
        self.baseMET = baseMET
        self.intensities = intensities
    }
}

/// The activity library.
public struct ActivityCatalog: Sendable, Hashable {
    /// By id.
    public let activities: [Activity]
    private let byId: [String: Activity]

    public init(activities: [Activity]) {
        self.activities = activities.sorted { $0.id < $1.id }
        self.byId = Dictionary(activities.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func activity(_ id: String) -> Activity? { byId[id] }

    /// Activities whose id or name contains `text`, ignoring case (requirement 1.3).
    public func search(_ text: String, category: ActivityCategory? = nil) -> [Activity] {
        let needle = text.lowercased()
        return activities.filter {
            (category == nil || $0.category == category)
                && (needle.isEmpty || $0.id.lowercased().contains(needle) || $0.name.lowercased().contains(needle))
        }
    }

    /// The id closest to `text` by edit distance, when it is close enough to be a typo.
    public func suggestion(for text: String) -> String? {
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
