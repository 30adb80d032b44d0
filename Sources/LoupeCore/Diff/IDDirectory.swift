/// The integer ids of the identified arrays of one state, each array's in a column beside it
/// (``ArrayIDs``), so that a rebuild applying change after change to large arrays
/// (`items[id: 483].rows[id: 7]`) reads integers lying together to find an element, or to make
/// sure an inserted id is not there yet (it must be sure: an insert of an id already present
/// fails), instead of every element's buffer, a cache miss each.
///
/// It is exact, not a guess: a column is made by reading its array once and is kept right by
/// the changes applied through ``Change/apply(to:at:directory:)``, each of which forgets
/// (before, ``willApply(_:at:)``, and after, ``didApply(at:)``) every column its path may
/// alter other than by the edit a column follows itself (an element inserted, removed or
/// replaced by `[id: X]`): the columns under the value it replaces, an array edited by
/// position (`[3]`), an element whose `id` member changes, an element given an id other than
/// its path's, a member spelled another way that `.name` also reaches. Arrays are told apart
/// by their path of member names and ids; a path through a position (`items[3].rows`) gets
/// no column. A column whose length is not its array's is not trusted (read again).
///
/// One directory follows one value: every change to that value must be applied through it
/// (or, for anything else, ``forget(along:)`` called first), and a caller that goes on with
/// another value (another root, a checkpoint) starts a new directory.
///
/// Not thread-safe: one rebuild at a time.
package final class IDDirectory {
  private enum Step {
    case member(String)
    case int(Int)
    case id(JSON)
  }

  // No dynamic exclusivity checks on the tables looked up for every change applied (a
  // directory belongs to one rebuild or diff, on one thread at a time, and hands nothing
  // out `inout`).
  private final class Node {
    /// By member name, compared by UTF-8 bytes as a path finds a member on the way
    /// (``JSONObject/position(spelled:)``); few, looked through one by one.
    @exclusivity(unchecked) var members: [(name: String, node: Node)] = []
    @exclusivity(unchecked) var ints: [Int: Node] = [:]
    /// By an id that is not an integer (compared as `[id: X]` compares it).
    @exclusivity(unchecked) var others: [JSON: Node] = [:]
    @exclusivity(unchecked) var ids: ArrayIDs?

    subscript(step: Step) -> Node? {
      get {
        switch step {
        case .member(let name): members.first { $0.name.wireEquals(name) }?.node
        case .int(let id): ints[id]
        case .id(let id): others[id]
        }
      }
      set {
        switch step {
        case .member(let name):
          let found = members.firstIndex { $0.name.wireEquals(name) }
          switch (found, newValue) {
          case (let index?, let node?): members[index].node = node
          case (let index?, nil): members.remove(at: index)
          case (nil, let node?):
            if members.count >= 64 { members.removeAll() }  // forgotten, found again as needed
            members.append((name, node))
          case (nil, nil): break
          }
        case .int(let id): ints[id] = newValue
        case .id(let id): others[id] = newValue
        }
      }
    }

    func removeChildren() {
      members = []
      ints = [:]
      others = [:]
    }
  }

  @exclusivity(unchecked) private var root = Node()
  /// Ids put in tables since everything was last forgotten (an upper bound of those held).
  @exclusivity(unchecked) private var tracked = 0
  /// Beyond this many ids tracked, everything is forgotten (and found again as needed).
  static let limit = 1 << 19

  package init() {}

  /// The table of the identified array `array` at `path` (from the value's root); `nil` when
  /// the path goes through a position.
  func ids(ofArrayAt path: ArraySlice<StatePath.Component>, in array: [JSON]) -> ArrayIDs? {
    var node = root
    for component in path {
      guard let step = Self.step(component) else { return nil }
      if let child = node[step] {
        node = child
      } else {
        let child = Node()
        node[step] = child
        node = child
      }
    }
    // Of another length, it would follow another array: only a mistake here can cause that,
    // and the array is read again rather than trusted.
    if let ids = node.ids, ids.count == array.count { return ids }
    let ids = ArrayIDs(array)
    tracked += array.count
    node.ids = ids
    return ids
  }

  /// Forgets what `change`, at `components` (from the value's root), may alter other than by an
  /// edit that ``ArrayIDs`` follows. Called before the change is applied.
  func willApply(_ change: Change, at components: ArraySlice<StatePath.Component>) {
    if tracked > Self.limit {
      root = Node()
      tracked = 0
    }
    var node = root
    var parent: Node?
    for offset in components.indices {
      let component = components[offset]
      guard let step = Self.step(component) else {
        // By position: any element of this array may change, its id included.
        node.ids = nil
        node.removeChildren()
        return
      }
      guard let child = node[step] else {
        if offset + 1 == components.endIndex { forgetEnd(of: change, at: component, under: node) }
        return
      }
      parent = node
      node = child
    }
    // The value at `components` itself is replaced, inserted or removed.
    node.ids = nil
    node.removeChildren()
    if let parent, let last = components.last { forgetEnd(of: change, at: last, under: parent) }
  }

  /// Forgets what `change`, at `components`, altered that the tables made while it was applied
  /// (the arrays on its way) cannot know: an element's `id` member. Called after the change,
  /// whether it was applied or not.
  func didApply(at components: ArraySlice<StatePath.Component>) {
    guard components.contains(where: Self.namesID) else { return }
    var node = root
    for offset in components.indices {
      let component = components[offset]
      if case .id = component, offset + 1 < components.endIndex, Self.namesID(components[offset + 1]) {
        // The array's ids, and the elements its paths reach, are not known any more.
        node.ids = nil
        node.removeChildren()
        return
      }
      guard let step = Self.step(component), let child = node[step] else { return }
      node = child
    }
  }

  /// What an edit of the last component may reach besides the value its step names: a member
  /// spelled another way that `.name` reaches as well (`object[name]` compares canonically),
  /// or an element that gets an id other than the one its path names.
  private func forgetEnd(of change: Change, at last: StatePath.Component, under parent: Node) {
    switch last {
    case .field(let name):
      parent.members.removeAll { $0.name == name }
    case .id(let id):
      if change.op != .remove, !Self.element(change.new, matches: id) {
        parent.removeChildren()
      }
    case .key, .index:
      break
    }
  }

  /// Forgets every table along `components` and under the first element on the way: a change
  /// there was applied (or its containers made) without this directory.
  package func forget(along components: ArraySlice<StatePath.Component>) {
    var node = root
    for component in components {
      node.ids = nil
      guard let step = Self.step(component) else {
        node.removeChildren()
        return
      }
      guard case .member = step else {
        node[step] = nil  // the element on the way, and everything under it
        return
      }
      guard let child = node[step] else { return }
      node = child
    }
    node.ids = nil
    node.removeChildren()
  }

  private static func step(_ component: StatePath.Component) -> Step? {
    switch component {
    case .field(let name), .key(let name): .member(name)
    case .id(.int(let id)): .int(id)
    case .id(let id): .id(id)
    case .index: nil
    }
  }

  /// Whether `component` reaches an element's `id` member (compared as `.name` compares).
  private static func namesID(_ component: StatePath.Component) -> Bool {
    switch component {
    case .field(let name), .key(let name): name == "id"
    case .id, .index: false
    }
  }

  /// Whether `element` is what `[id: id]` finds (``JSONEditing/position(of:in:)``).
  private static func element(_ element: JSON?, matches id: JSON) -> Bool {
    guard case .object(let object)? = element else { return false }
    return object["id"] == id
  }
}
