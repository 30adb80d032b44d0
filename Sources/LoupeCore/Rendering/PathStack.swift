/// The path of the value being visited, kept as a stack while rendering or diffing.
///
/// The text of each prefix is kept alongside only when redaction globs need it, so a
/// rendering without redaction never builds path strings.
struct PathStack {
  private(set) var components: [StatePath.Component]
  /// `texts[i]` is the text of `components.prefix(i)`; empty unless `tracksText`.
  private var texts: [String]
  let tracksText: Bool

  init(_ base: StatePath, tracksText: Bool) {
    components = base.components
    self.tracksText = tracksText
    texts = []
    if tracksText {
      var text = ""
      texts.reserveCapacity(components.count + 8)
      texts.append(text)
      for component in components {
        StatePath.append(component, to: &text)
        texts.append(text)
      }
    }
  }

  var count: Int { components.count }

  /// Takes `buffer`'s storage (emptied, as ``PathTexts/takeComponents()`` gives it) for the
  /// components, when no prefix texts are kept: the walk's pushes then allocate nothing.
  mutating func adopt(_ buffer: consuming [StatePath.Component]) {
    guard !tracksText, buffer.capacity >= components.count + 8 else { return }
    buffer.append(contentsOf: components)
    components = buffer
  }

  /// Gives the components' storage away (emptied), for the next walk.
  mutating func takeBuffer() -> [StatePath.Component] {
    var buffer: [StatePath.Component] = []
    swap(&buffer, &components)
    PathTexts.empty(&buffer)
    return buffer
  }

  mutating func push(_ component: StatePath.Component) {
    // Room for a typical depth at once, not grown one step at a time.
    if components.capacity == components.count { components.reserveCapacity(max(8, components.count * 2)) }
    components.append(component)
    if tracksText {
      var text = texts[texts.count - 1]
      StatePath.append(component, to: &text)
      texts.append(text)
    }
  }

  mutating func pop() {
    components.removeLast()
    if tracksText { texts.removeLast() }
  }

  /// The text of the whole path.
  var text: String { tracksText ? texts[texts.count - 1] : StatePath(components).description }

  /// ``text``, found in `cache` when it was made before (when no prefix texts are kept).
  func text(using cache: PathTexts) -> String {
    tracksText ? texts[texts.count - 1] : cache.text(of: components)
  }

  /// The text of the first `count` components.
  func text(prefix count: Int) -> String {
    tracksText ? texts[count] : StatePath(Array(components.prefix(count))).description
  }

  var path: StatePath { StatePath(components) }
}
