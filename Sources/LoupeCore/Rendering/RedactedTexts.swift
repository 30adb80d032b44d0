
/// The texts of the values redaction hid, so that texts the program derives from them (an
/// effect's error, a warning, a mark's label) can be scrubbed before they leave.
///
/// A rendering that replaces a value by `"<redacted>"` (a path `LOUPE_REDACT` names, or a
/// ``LoupeRedacted`` value) tells its session's ledger, through
/// ``RenderOptions/redactedTexts``, the value it hid: every string and number inside it, as the
/// value renders without redaction (not field names, nor case names: they are names, not
/// values). ``scrub(_:)`` then replaces each of
/// those texts in a derived text by `"<redacted>"`:
///
/// ```swift
/// // state.fact = "Cats sleep 16 hours", at a path LOUPE_REDACT='*fact*' names
/// ledger.scrub(#"FactError(message: "no source for Cats sleep 16 hours")"#)
/// // FactError(message: "no source for <redacted>")
/// ```
///
/// The ledger knows a value once a rendering or a diff has met it (with `LOUPE_REDACT` set, a
/// store's initial state is rendered once for this). It keeps the most recent
/// ``maxCount`` texts (and ``maxBytes`` in all): older ones are forgotten first. Texts shorter
/// than ``minLength`` characters (a small number, a one-letter code) are not kept: replacing
/// every `5` in every message would leave nothing readable. Matching is exact (case and
/// Unicode form as rendered), so a derived text that spells the value differently (escaped,
/// upper-cased, formatted as a number with separators) is not recognised; see
/// `protocol/values.md`, "What redaction cannot cover".
public final class RedactedTexts: Sendable, Hashable {
  /// Most texts kept.
  public static let maxCount = 4_096
  /// Most bytes of text kept, all texts together.
  public static let maxBytes = 4 << 20
  /// Shortest text kept, in characters.
  public static let minLength = 3

  private struct Ledger {
    /// Oldest first; `start` is the first live entry (dropped ones are compacted away).
    var order: [String] = []
    var start = 0
    var known: Set<String> = []
    var bytes = 0
  }

  private let ledger = Lock(Ledger())
  /// How many texts are kept: read without the lock, so scrubbing costs one load when empty.
  private let count = AtomicInt(0)

  public init() {}

  /// Whether no text is kept (then ``scrub(_:)`` returns its input).
  public var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

  /// Notes the texts inside `value`, a value that a rendering hid.
  public func note(_ value: Any) {
    var renderer = Renderer(options: Self.revealing)
    renderer.revealsRedacted = true
    var texts: [String] = []
    Self.collect(renderer.render(value), into: &texts)
    guard !texts.isEmpty else { return }
    remember(texts)
  }

  /// Notes `texts` themselves (already the texts a value shows).
  public func remember(_ texts: [String]) {
    let kept = texts.filter { $0.count >= Self.minLength && $0.utf8.count <= Self.maxBytes / 4 }
    guard !kept.isEmpty else { return }
    let total = ledger.withLock { ledger in
      for text in kept where ledger.known.insert(text).inserted {
        ledger.order.append(text)
        ledger.bytes += text.utf8.count
      }
      while ledger.order.count - ledger.start > Self.maxCount || ledger.bytes > Self.maxBytes {
        let old = ledger.order[ledger.start]
        ledger.start += 1
        ledger.known.remove(old)
        ledger.bytes -= old.utf8.count
      }
      if ledger.start > 1_024 && ledger.start * 2 > ledger.order.count {
        ledger.order.removeFirst(ledger.start)
        ledger.start = 0
      }
      return ledger.order.count - ledger.start
    }
    count.store(total, ordering: .releasing)
  }

  /// `text` with every kept text in it replaced by `"<redacted>"` (overlapping matches become
  /// one marker).
  public func scrub(_ text: String) -> String {
    guard !isEmpty, !text.isEmpty else { return text }
    let secrets = ledger.withLock { Array($0.order[$0.start...]) }
    var found: [Range<String.Index>] = []
    for secret in secrets where secret.utf8.count <= text.utf8.count {
      found += text.ranges(of: secret)
    }
    guard !found.isEmpty else { return text }
    found.sort { $0.lowerBound < $1.lowerBound }
    var result = ""
    var position = text.startIndex
    var index = 0
    while index < found.count {
      var range = found[index]
      index += 1
      while index < found.count, found[index].lowerBound <= range.upperBound {
        range = range.lowerBound..<max(range.upperBound, found[index].upperBound)
        index += 1
      }
      result += text[position..<range.lowerBound]
      result += RenderMarker.redacted
      position = range.upperBound
    }
    result += text[position...]
    return result
  }

  /// How a hidden value is rendered to learn its texts: small caps (a secret is a small
  /// value), long strings, no redaction (``Renderer/revealsRedacted`` looks inside
  /// ``LoupeRedacted`` values too).
  private static let revealing = RenderOptions(
    maxDepth: 16, maxCollectionCount: 256, maxStringLength: maxBytes / 4, maxNodes: 1_024, redactedPaths: [])

  private static func collect(_ json: JSON, into texts: inout [String]) {
    switch json {
    case .null, .bool: return
    case .int, .double: texts.append(json.jsonText)
    case .string(let text):
      if !text.hasPrefix("… ") && text != RenderMarker.redacted { texts.append(text) }
    case .array(let elements): for element in elements { collect(element, into: &texts) }
    case .object(let object):
      // Keys are left out: most are field and case names, which say nothing secret.
      for member in object.members { collect(member.value, into: &texts) }
    }
  }

  public static func == (a: RedactedTexts, b: RedactedTexts) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Event.Payload {
  /// The payload with the texts a program derives from values (an effect's `error`, a
  /// warning's `message`, a mark's `label`) scrubbed of `ledger`'s texts. Values are redacted
  /// as they are rendered; ids and names (store ids, identities, cancel ids, action labels)
  /// are left as they are.
  public func scrubbed(of ledger: RedactedTexts) -> Event.Payload {
    switch self {
    case .effectFinished(var event):
      guard let error = event.error else { return self }
      event.error = ledger.scrub(error)
      return .effectFinished(event)
    case .warning(var event):
      event.message = ledger.scrub(event.message)
      return .warning(event)
    case .mark(var event):
      event.label = ledger.scrub(event.label)
      return .mark(event)
    default:
      return self
    }
  }
}
