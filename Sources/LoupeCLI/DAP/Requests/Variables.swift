import LoupeCore

/// `variables` (lazy, paged with `start`/`count`) and `evaluate` (state paths).
extension DAPSession {
  func variables(_ request: DAPRequest) throws(DAPError) {
    _ = try requireStop(request.command)
    let arguments = request.arguments
    let id = try arguments.requiredInt("variablesReference")
    guard let node = references.node(id) else {
      throw DAPError(.unknownReference, "No variables \(id) here: references are valid only until the view moves.")
    }
    let start = max(0, try arguments.int("start") ?? 0)
    let count = max(0, try arguments.int("count") ?? 0)
    let filter = try arguments.string("filter")
    var rows: [DAPVariable] = []
    switch node {
    case .list(let list):
      rows = filter == "indexed" ? [] : Array(page(list, start: start, count: count))
    case .value(.array(let array), let shape, let store, let path):
      if filter != "named" {
        for offset in page(array.indices, start: start, count: count) {
          let element = array[offset]
          let component = Self.component(for: element, at: offset)
          let childPath = path.map { $0.appending(component) }
          let childShape = shape?.descending([component])
          rows.append(DAPScopes.variable(named: "[\(offset)]", element, shape: childShape, store: store, path: childPath, references: &references))
        }
      }
    case .value(.object(let object), let shape, let store, let path):
      if filter != "indexed" {
        for member in page(object.members, start: start, count: count) {
          let component = Self.component(forKey: member.key)
          let childPath = path.map { $0.appending(component) }
          let childShape = shape?.descending([component])
          rows.append(DAPScopes.variable(named: member.key, member.value, shape: childShape, store: store, path: childPath, references: &references))
        }
      }
    case .value:
      break
    }
    channel.respond(to: request, body: ["variables": .array(rows.map(\.json))])
  }

  private func page<C: RandomAccessCollection>(_ collection: C, start: Int, count: Int) -> C.SubSequence where C.Index == Int {
    let lower = min(collection.startIndex + start, collection.endIndex)
    let upper = count > 0 ? min(lower + count, collection.endIndex) : collection.endIndex
    return collection[lower..<upper]
  }

  /// The path component of an array element: `[id: 2]` for an element with an `id` (an
  /// identified collection renders its elements that way), `[3]` otherwise.
  static func component(for element: JSON, at offset: Int) -> StatePath.Component {
    if let id = element["id"], !id.isNull { return .id(id) }
    return .index(offset)
  }

  /// A member's component: a field for a Swift identifier, a key (`["two words"]`) otherwise.
  static func component(forKey key: String) -> StatePath.Component {
    let isIdentifier = key.first.map { $0.isLetter || $0 == "_" } == true && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    return isIdentifier ? .field(key) : .key(key)
  }

  /// `evaluate` takes a state path (`count`, `pages[id: 2].count`; empty or `.` for the whole
  /// state) in the store of the selected frame (or of the thread stopped at) after its event —
  /// for the Watch and Debug Console views and for hovers alike.
  func evaluate(_ request: DAPRequest) throws(DAPError) {
    let stop = try requireStop(request.command)
    let arguments = request.arguments
    let expression = try arguments.requiredString("expression").trimmingCharacters(in: .whitespaces)
    let (store, index) = try storeAndIndex(frameID: try arguments.int("frameId"), stop: stop)
    guard let state = model.state(of: store, at: index) else {
      throw DAPError(.notAvailable, "\(store) has no state recorded at #\(model.event(at: index).seq).")
    }
    let path = try Self.parsePath(expression)
    guard let value = StateRebuilder.value(in: state.value, at: path) else {
      throw DAPError(.notAvailable, "\(store) has no '\(expression)' at #\(model.event(at: index).seq).")
    }
    let shape = state.shape?.descending(path.components)
    let row = DAPScopes.variable(named: expression, value, shape: shape, store: store, path: path, references: &references)
    var body: JSONObject = ["result": .string(row.value), "variablesReference": .int(row.variablesReference), "type": .string(value.typeName)]
    if let named = row.namedVariables { body["namedVariables"] = .int(named) }
    if let indexed = row.indexedVariables { body["indexedVariables"] = .int(indexed) }
    channel.respond(to: request, body: .object(body))
  }

  static func parsePath(_ expression: String) throws(DAPError) -> StatePath {
    var text = expression
    if text == "." || text == "state" { text = "" }
    if text.hasPrefix("state.") { text.removeFirst("state.".count) }
    do {
      return try StatePath(parsing: text)
    } catch {
      throw DAPError(.notAvailable, "'\(expression)' is not a state path (\(error)); write one like count or pages[id: 2].count.")
    }
  }

  /// The store and event a request is about: its frame's, or the stopped thread's.
  func storeAndIndex(frameID: Int?, stop: StopPoint) throws(DAPError) -> (store: String, index: Int) {
    if let frameID {
      guard let frame = references.frame(frameID) else {
        throw DAPError(.unknownReference, "No frame \(frameID) here: frames are valid only until the view moves.")
      }
      guard let store = model.event(at: frame.index).store ?? threads.store(of: frame.thread) else {
        throw DAPError(.notAvailable, "Frame \(frameID) is not about a store: select a store's frame.")
      }
      return (store, frame.index)
    }
    guard let store = threads.store(of: stop.thread) ?? model.event(at: stop.index).store else {
      throw DAPError(.notAvailable, "The view is stopped at an event of no store: select a store's frame.")
    }
    return (store, stop.index)
  }
}
