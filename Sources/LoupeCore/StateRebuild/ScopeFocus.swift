/// One scoped store's part of its root's state, for a rebuild that answers for that store only
/// (`loupe state` about one store, asked once): which changes of the root's other stores
/// cannot reach it, so they need not be decoded nor applied.
///
/// A change lands at its store's scope path followed by its own path. One that lands under a
/// sibling of the focused scope — another member of an object on the scope's path, or another
/// `[id: X]` element of an array on it — leaves the scope's value as it is, provided:
/// - the container the two paths share (the scope path up to where they part) is there, of
///   the kind the change expects (an object, or an array), found the way the applier finds
///   it (members as spelled, elements by id), and so is the sibling element `[id: X]`: then
///   neither applying the change nor placing it (``place(_:at:in:)``) makes, removes or
///   replaces anything along the shared part, nor adds an element (the arrays on the way keep
///   their elements, so positions and inserts at an index read the same);
/// - members part by names that differ as strings (`==`), not only as spelled: a member a
///   change sets at the end of its path is found by `==`;
/// - elements part by ids that differ (`!=`, as every search by id compares), and the change
///   lies inside the sibling element without touching its `id` member (a value or a new `id`
///   for the element could make it the first element with the focused id);
/// - no change applied gives an element of an array on the scope's path a new `id`
///   (``mayRename(_:)``): a sibling whose changes were left out would then be found in the
///   scope's place. The caller rebuilds in full when one does.
/// Anything else (an ancestor of the scope, the scope itself or inside it, positions, a path
/// that does not parse) reaches it. Only a rebuild whose state is approximate anyway (no
/// snapshot: a change left out could only have marked it so) may leave changes out, and its
/// result holds for the focused store alone.
package final class ScopeFocus {
  /// Where another store's changes land, from the focused scope's point of view.
  package enum Reach: Equatable, Sendable {
    /// They may change the focused value: apply them.
    case reaches
    /// They land beside the scope, under the container at the scope's first `depth`
    /// components: an array holding the sibling element `[id: element]` when the paths part
    /// by id, else an object. `pathsMatter`: the store's scope ends at the sibling element, so
    /// each change's own path must start with a member other than `id`
    /// (``pathLeavesIDAlone(_:)``).
    case beside(depth: Int, element: JSON?, pathsMatter: Bool)
  }

  /// The focused store's id, and its scope path in its root's state.
  package let store: String
  let scope: [StatePath.Component]
  /// Reaches already worked out, by a hash of the store id's bytes (FNV-1a: a line's store is
  /// looked up without making an array or a string of it).
  private var reaches: [UInt64: (store: [UInt8], reach: Reach)] = [:]

  /// `nil` for a root store (every change reaches it) or a store id whose scope does not parse.
  package init?(store: String) {
    guard let path = StateRebuilder.scopePath(of: store), !path.isRoot else { return nil }
    self.store = store
    scope = path.components
  }

  /// Where the changes of the store whose id is the UTF-8 `bytes` land.
  package func reach(ofStore bytes: UnsafeBufferPointer<UInt8>) -> Reach {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    if let known = reaches[hash], Self.same(known.store, bytes) { return known.reach }
    let text = String(decoding: bytes, as: UTF8.self)
    // Bytes that are not UTF-8 are read otherwise by the decoder: never left out.
    let reach = text.utf8.elementsEqual(bytes) ? self.reach(ofStore: text) : .reaches
    if reaches.count >= 4_096 { reaches.removeAll(keepingCapacity: true) }
    // Of two ids with one hash, the first is kept (the other is worked out each time).
    if reaches[hash] == nil { reaches[hash] = (Array(bytes), reach) }
    return reach
  }

  private static func same(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.count == b.count && a.withUnsafeBufferPointer { a in a.isEmpty || LibC.memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
  }

  /// Where the changes of `other` land.
  package func reach(ofStore other: String) -> Reach {
    guard let path = StateRebuilder.scopePath(of: other) else { return .reaches }
    let theirs = path.components
    for depth in 0..<min(theirs.count, scope.count) {
      switch (theirs[depth], scope[depth]) {
      case (.field(let a), .field(let b)), (.field(let a), .key(let b)), (.key(let a), .field(let b)), (.key(let a), .key(let b)):
        if a.utf8.elementsEqual(b.utf8) { continue }
        // Names that are equal strings but spelled otherwise may be one member.
        return a == b ? .reaches : .beside(depth: depth, element: nil, pathsMatter: false)
      case (.id(let a), .id(let b)):
        if a == b { continue }
        guard depth + 1 < theirs.count else { return .beside(depth: depth, element: a, pathsMatter: true) }
        return Self.namesID(theirs[depth + 1]) ? .reaches : .beside(depth: depth, element: a, pathsMatter: false)
      case (.index(let a), .index(let b)) where a == b:
        continue
      default:
        return .reaches
      }
    }
    // One scope holds the other.
    return .reaches
  }

  /// Whether a change path (the UTF-8 bytes of the JSON string, without escapes) starts with
  /// a member other than `id` (``StatePath/init(parsing:)``: a path not starting with `[`
  /// starts with the member named by the bytes before the first `.` or `[`). `false` for an
  /// empty path (the sibling element itself), one starting with `[` or `.`, and a name that
  /// is not plain ASCII.
  package static func pathLeavesIDAlone(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = path.first, first != UInt8(ascii: "["), first != UInt8(ascii: ".") else { return false }
    var end = 0
    while end < path.count, path[end] != UInt8(ascii: "."), path[end] != UInt8(ascii: "[") {
      guard path[end] < 0x80 else { return false }
      end += 1
    }
    return !(end == 2 && path[0] == UInt8(ascii: "i") && path[1] == UInt8(ascii: "d"))
  }

  /// Whether `value` (the root's state) holds the container at the scope's first `depth`
  /// components, found as the applier finds it, and it is an array holding an element
  /// `[id: element]` or (`element` `nil`) an object. `directory`: the ids of `value`'s
  /// identified arrays, to find the element by.
  package func holdsSibling(_ value: JSON, depth: Int, element: JSON?, directory: IDDirectory?) -> Bool {
    var current = value
    for component in scope[..<depth] {
      switch (component, current) {
      case (.field(let name), .object(let object)), (.key(let name), .object(let object)):
        guard let position = object.position(spelled: name) else { return false }
        current = object.members[position].value
      case (.index(let index), .array(let elements)):
        guard index < elements.count else { return false }
        current = elements[index]
      case (.id(let id), .array(let elements)):
        guard let position = JSONEditing.position(of: id, in: elements) else { return false }
        current = elements[position]
      default:
        return false
      }
    }
    switch (current, element) {
    case (.object, nil):
      return true
    case (.array(let elements), let id?):
      if case .int(let wanted) = id, let ids = directory?.ids(ofArrayAt: scope[..<depth], in: elements) {
        return ids.position(of: wanted, in: elements) != nil
      }
      return JSONEditing.position(of: id, in: elements) != nil
    default:
      return false
    }
  }

  /// Whether a change of `event` may give an element of an array on the scope's path a new
  /// `id`: its path (under its store's scope) names a member `id` of an element (`[id: X]`
  /// or `[i]`) no deeper than the scope's own value. Errs towards `true` (any array at those
  /// depths, whatever the path before it).
  package func mayRename(_ event: StateChanged) -> Bool {
    guard let prefix = StateRebuilder.scopePath(of: event.store) else { return false }
    for change in event.changes {
      guard let inner = try? StatePath(parsing: change.path) else { continue }
      let path = prefix.components + inner.components
      for depth in path.indices.dropFirst() where depth <= scope.count && Self.namesID(path[depth]) {
        switch path[depth - 1] {
        case .id, .index: return true
        default: continue
        }
      }
    }
    return false
  }

  private static func namesID(_ component: StatePath.Component) -> Bool {
    switch component {
    case .field(let name), .key(let name): name == "id"
    default: false
    }
  }
}
