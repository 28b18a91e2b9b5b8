/// Parsers for sizes ("256MiB") and durations ("30s", "10m"), shared by flags and config.json.
public enum ValueParsers {
    /// Bytes from a plain number or a number with a unit: B, KB/KiB, MB/MiB, GB/GiB, TB/TiB
    /// (KB = 1000, KiB = 1024; a bare K/M/G is binary, as in curl).
    public static func size(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let split = trimmed.firstIndex(where: { !($0.isNumber || $0 == ".") }) else {
            return Int64(trimmed).flatMap { $0 >= 0 ? $0 : nil }
        }
        guard let number = Double(trimmed[..<split]), number >= 0 else { return nil }
        let unit = trimmed[split...].trimmingCharacters(in: .whitespaces).lowercased()
        let factors: [String: Double] = [
            "b": 1, "k": 1024, "kb": 1000, "kib": 1024, "m": 1_048_576, "mb": 1e6, "mib": 1_048_576,
            "g": 1_073_741_824, "gb": 1e9, "gib": 1_073_741_824, "t": 1_099_511_627_776, "tb": 1e12, "tib": 1_099_511_627_776,
        ]
        guard let factor = factors[unit] else { return nil }
        let value = number * factor
        return value < 9.0e18 ? Int64(value) : nil
    }

    /// Seconds from a plain number or a number with s, m, h or d.
    public static func duration(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let factors: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let last = trimmed.last, let factor = factors[last] {
            guard let number = Double(trimmed.dropLast()), number >= 0, number.isFinite else { return nil }
            return number * factor
        }
        guard let number = Double(trimmed), number >= 0, number.isFinite else { return nil }
        return number
    }
}

import Foundation
