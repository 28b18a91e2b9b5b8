/// The closest known key to a mistyped one, for "did you mean …?".
enum KeySuggestion {
    /// The known key with the smallest edit distance to `key` (case-insensitive), when that
    /// distance is small enough to be a typo: at most 2, and less than half the key's length.
    ///
    /// - Parameters:
    ///   - key: the unknown key as written.
    ///   - candidates: the keys the schema allows at that place.
    static func closest(to key: String, among candidates: [String]) -> String? {
        let lowered = Array(key.lowercased())
        var best: (key: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            if distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        guard let best, best.distance <= 2, best.distance * 2 < max(key.count, 2) || best.distance == 0 else { return nil }
        return best.key
    }

    /// Levenshtein distance: insertions, deletions and substitutions each cost 1.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
