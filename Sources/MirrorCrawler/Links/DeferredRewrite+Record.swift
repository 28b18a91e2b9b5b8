import MirrorCore
import MirrorDocument

extension DeferredRewrite {
    /// Appends the rewrite to a spilled record (``MirrorCore/ByteRecord``): the parsed length,
    /// the charset, the sites (start offsets as distances, see
    /// ``MirrorDocument/ReferenceSite/write(to:previousEnd:)``), the targets, the fragments,
    /// the `<base>` deletions and the target URLs. About 6 bytes a reference plus each distinct
    /// URL once, where the values in memory took 24 bytes a reference.
    func write(to writer: inout ByteRecord.Writer) {
        writer.number(length)
        charset.write(to: &writer)
        writer.number(sites.count)
        var previousEnd: UInt32 = 0
        for site in sites {
            site.write(to: &writer, previousEnd: previousEnd)
            previousEnd = UInt32(site.span.upperBound)
        }
        // 0: invalid; otherwise (number << 1 | absolute) + 1.
        for target in targets {
            if target == Self.invalid {
                writer.number(0)
            } else {
                writer.number((UInt64(target & ~Self.absoluteBit) << 1 | (target & Self.absoluteBit != 0 ? 1 : 0)) + 1)
            }
        }
        writer.number(fragments.count)
        for (index, fragment) in fragments.sorted(by: { $0.key < $1.key }) {
            writer.number(index)
            writer.text(fragment)
        }
        writer.number(deletions.count)
        for deletion in deletions {
            writer.number(deletion.lowerBound)
            writer.number(deletion.count)
        }
        writer.number(keys.count)
        for key in keys { writer.text(key) }
    }

    /// Reads a rewrite written by ``write(to:)``; nil for a damaged record (the caller then
    /// parses the document again, as for a document without a draft).
    static func read(from reader: inout ByteRecord.Reader) -> DeferredRewrite? {
        guard let length = reader.int(), let charset = Charset.read(from: &reader),
              let siteCount = reader.int(limit: length + 1) else { return nil }
        var sites: [ReferenceSite] = []
        sites.reserveCapacity(siteCount)
        var previousEnd: UInt32 = 0
        for _ in 0..<siteCount {
            guard let site = ReferenceSite.read(from: &reader, previousEnd: previousEnd) else { return nil }
            sites.append(site)
            previousEnd = UInt32(site.span.upperBound)
        }
        var targets: [UInt32] = []
        targets.reserveCapacity(siteCount)
        for _ in 0..<siteCount {
            guard let code = reader.number() else { return nil }
            if code == 0 {
                targets.append(Self.invalid)
            } else {
                guard let number = UInt32(exactly: (code - 1) >> 1), number < Self.absoluteBit else { return nil }
                targets.append((code - 1) & 1 == 1 ? number | Self.absoluteBit : number)
            }
        }
        guard let fragmentCount = reader.int(limit: siteCount) else { return nil }
        var fragments: [Int: String] = [:]
        for _ in 0..<fragmentCount {
            guard let index = reader.int(limit: siteCount), let text = reader.text() else { return nil }
            fragments[index] = text
        }
        guard let deletionCount = reader.int(limit: length + 1) else { return nil }
        var deletions: [Range<Int>] = []
        for _ in 0..<deletionCount {
            guard let start = reader.int(limit: length), let count = reader.int(limit: length - start) else { return nil }
            deletions.append(start..<start + count)
        }
        guard let keyCount = reader.int(limit: siteCount) else { return nil }
        var keys: [String] = []
        keys.reserveCapacity(keyCount)
        for _ in 0..<keyCount {
            guard let key = reader.text() else { return nil }
            keys.append(key)
        }
        for target in targets where target != Self.invalid && Int(target & ~Self.absoluteBit) >= keyCount {
            return nil
        }
        return DeferredRewrite(sites: sites, targets: targets, fragments: fragments, deletions: deletions, charset: charset,
                               length: length, keys: keys)
    }
}
