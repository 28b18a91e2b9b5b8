/// One token of CSS Syntax Level 3 (§4 "Tokenization"), as byte ranges into the source.
///
/// Comments are not tokens. Ranges index the buffer given to ``CSSTokenizer``.
struct CSSToken: Equatable {
    /// The token types of CSS Syntax Level 3.
    enum Kind: Equatable {
        case ident, function, atKeyword, hash, string, badString, url, badURL, delim
        case number, percentage, dimension, whitespace, cdo, cdc, colon, semicolon, comma
        case openSquare, closeSquare, openParen, closeParen, openCurly, closeCurly
    }

    /// The token type.
    var kind: Kind
    /// All bytes of the token.
    var range: Range<Int>
    /// The meaningful part: a string's text without quotes, a `url(` token's URL without
    /// surrounding whitespace, a function's or at-keyword's name, an ident itself.
    var content: Range<Int>
    /// The quote of a string token; `.none` otherwise.
    var quote: Reference.Quote = .none
}
