package import Foundation
import RegimenCoaching
import RegimenLanguage

// What the `regimen` commands need beside the public API, so that they read their inputs and
// print their reports through the engine instead of loading the rules themselves.
extension RegimenEngine {
    /// A profile file read as `regimen plan PROFILE` reads it: within the input-file limits,
    /// every problem naming its field, line and column in `displayPath`.
    package func profile(contentsOf url: URL, displayPath: String) throws(RegimenError) -> Profile {
        do {
            return try planner.nutrition.profileDecoder.decode(contentsOf: url, displayPath: displayPath)
        } catch {
            throw .profile(error.problems)
        }
    }

    /// The catalog's name for an ingredient id, for reports people read.
    package func ingredientName(_ id: String) -> String? {
        planner.nutrition.catalog.ingredient(id)?.name
    }
}
