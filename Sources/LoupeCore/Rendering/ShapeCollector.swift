/// Collects a ``ValueShape`` while a ``Renderer`` walks a value: the renderer calls
/// ``mark(_:at:)`` where it renders an enum case or a tuple, and brackets each collection
/// with ``beginCollection(at:)``, ``endElement(_:)`` and ``endCollection(at:remap:)``.
///
/// The elements of a collection usually share their shape (`[Row]`, each row's `status` an
/// enum): their shapes are compared as they come, and when every element's is the same the
/// collection contributes it once, under `[*]` — a 5,000-row array adds one path, not 5,000.
/// When they differ (an `[Any]`, an optional enum that is `nil` in some rows) each element
/// with a shape is named by its own position or key, so a shape never claims more than is
/// true. Paths are built only at marks, so a value without enums or tuples costs a few
/// comparisons per collection element and nothing else.
struct ShapeCollector {
  typealias Lists = (enums: [String], tuples: [String])

  enum Mark { case enumCase, tuple }

  private var enums: [String] = []
  private var tuples: [String] = []
  /// Path depth of the value the current lists are relative to: the rendering's start, or
  /// the element being rendered in the innermost collection.
  private var origin: Int
  private var frames: [Frame] = []
  /// While positive, nothing is collected (a set re-renders an element it already saw).
  private var suspended = 0
  /// The value itself is a case (every action is): kept as a flag, so the common shape
  /// `{"enums": [""]}` is one shared value and costs no allocation.
  private var rootIsEnum = false

  private struct Frame {
    var outer: Lists
    var outerOrigin: Int
    /// The first element's shape; every element's when `uniform`.
    var first: Lists?
    var uniform = true
    /// Elements with a shape, and that shape when it is not `first`'s.
    var entries: [(component: StatePath.Component, lists: Lists?)] = []
  }

  init(origin: Int) {
    self.origin = origin
  }

  var shape: ValueShape {
    guard rootIsEnum else { return ValueShape(enums: enums, tuples: tuples) }
    if enums.isEmpty && tuples.isEmpty { return .rootEnum }
    return ValueShape(enums: [""] + enums, tuples: tuples)
  }

  mutating func suspend() { suspended += 1 }
  mutating func resume() { suspended -= 1 }

  /// The value at `path` is an enum case or a tuple.
  mutating func mark(_ mark: Mark, at path: PathStack) {
    guard suspended == 0 else { return }
    // The root is visited first, before any collection: "" leads the list.
    if mark == .enumCase, frames.isEmpty, path.count == origin, enums.isEmpty {
      rootIsEnum = true
      return
    }
    let text = Self.text(path.components, from: origin)
    switch mark {
    case .enumCase: enums.append(text)
    case .tuple: tuples.append(text)
    }
  }

  /// A collection at `path` begins; its elements will sit one component below.
  mutating func beginCollection(at path: PathStack) {
    guard suspended == 0 else { return }
    frames.append(Frame(outer: (enums, tuples), outerOrigin: origin))
    enums = []
    tuples = []
    origin = path.count + 1
  }

  /// The element at `component` of the innermost collection has been rendered.
  mutating func endElement(_ component: StatePath.Component) {
    guard suspended == 0, !frames.isEmpty else { return }
    let index = frames.count - 1
    defer {
      enums.removeAll(keepingCapacity: true)
      tuples.removeAll(keepingCapacity: true)
    }
    guard let first = frames[index].first else {
      frames[index].first = (enums, tuples)
      if !enums.isEmpty || !tuples.isEmpty { frames[index].entries.append((component, nil)) }
      return
    }
    let same = first.enums == enums && first.tuples == tuples
    if !same { frames[index].uniform = false }
    if !enums.isEmpty || !tuples.isEmpty { frames[index].entries.append((component, same ? nil : (enums, tuples))) }
  }

  /// The innermost collection, at `path`, is done: its elements' shapes join the enclosing
  /// value's, under `[*]` when they are all the same. `remap` gives an element's final
  /// component (a set sorts its elements after rendering them), `nil` for one not shown.
  mutating func endCollection(at path: PathStack, remap: ((StatePath.Component) -> StatePath.Component?)? = nil) {
    guard suspended == 0, let frame = frames.popLast() else { return }
    enums = frame.outer.enums
    tuples = frame.outer.tuples
    origin = frame.outerOrigin
    guard let first = frame.first, !frame.entries.isEmpty else { return }
    let prefix = Self.text(path.components, from: origin)
    // Every element alike (shown or not): `[*]` holds for the shown ones, in any order.
    if frame.uniform {
      let all = ShapeCollector.join(prefix, "[*]")
      for path in first.enums { enums.append(ValueShape.join(all, path)) }
      for path in first.tuples { tuples.append(ValueShape.join(all, path)) }
      return
    }
    for entry in frame.entries {
      guard let component = remap.map({ $0(entry.component) }) ?? entry.component else { continue }
      var element = ""
      StatePath.append(component, to: &element)
      let at = ShapeCollector.join(prefix, element)
      let lists = entry.lists ?? first
      for path in lists.enums { enums.append(ValueShape.join(at, path)) }
      for path in lists.tuples { tuples.append(ValueShape.join(at, path)) }
    }
  }

  private static func join(_ prefix: String, _ element: String) -> String { prefix + element }

  /// The text of `components` from position `start` on.
  private static func text(_ components: [StatePath.Component], from start: Int) -> String {
    var text = ""
    var index = start
    while index < components.count {
      StatePath.append(components[index], to: &text)
      index += 1
    }
    return text
  }
}
