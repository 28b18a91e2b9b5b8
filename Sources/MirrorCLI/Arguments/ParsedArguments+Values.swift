/// Typed readers for option values, each failing with a message that names the option and
/// the form it takes.
extension ParsedArguments {
    func int(_ name: String) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw UsageError("--\(name) needs a whole number ≥ 0, not \"\(text)\"")
        }
        return number
    }

    func double(_ name: String) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number > 0, number.isFinite else {
            throw UsageError("--\(name) needs a positive number, not \"\(text)\"")
        }
        return number
    }

    /// A number of 0 or more (`double` takes only positive ones).
    func nonNegativeDouble(_ name: String) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number >= 0, number.isFinite else {
            throw UsageError("--\(name) needs a number of 0 or more, not \"\(text)\"")
        }
        return number
    }

    func size(_ name: String) throws(UsageError) -> Int64? {
        guard let text = value(name) else { return nil }
        guard let bytes = ConfigQuantity.bytes(text) else {
            throw UsageError("--\(name) needs a size such as 500000, 64MiB or 2GiB, not \"\(text)\"")
        }
        return bytes
    }

    /// A duration: seconds (`90`) or with a unit (`90s`, `30m`, `2h`, `1d`).
    func duration(_ name: String) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let seconds = ConfigQuantity.seconds(text), seconds > 0 else {
            throw UsageError("--\(name) needs a duration such as 90, 90s, 30m or 2h, not \"\(text)\"")
        }
        return seconds
    }

    /// A limit that can be switched off: a whole number ≥ `minimum`, or `off` (also `inf`,
    /// `none`, as wget spells an unlimited depth). Returns nil when the option is absent, and
    /// `.some(nil)` for off.
    func limit(_ name: String, minimum: Int = 1) throws(UsageError) -> Int?? {
        guard let text = value(name) else { return nil }
        if ["off", "inf", "none"].contains(text.lowercased()) { return .some(nil) }
        guard let number = Int(text), number >= minimum else {
            throw UsageError("--\(name) needs a whole number ≥ \(minimum) or \"off\", not \"\(text)\"")
        }
        return .some(number)
    }
}
