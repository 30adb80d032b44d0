import LoupeCore

/// A recording's user actions, to be sent again (CONTRACT §16): each action a program sent
/// itself (origin `send`, not those effects, parents or tools sent), with the state its root
/// store had right after it, rebuilt from the recording (§10). `loupe replay-actions` sends
/// them to a live program, LoupeTesting's replay to a `TestStore`; both compare the state
/// they get after each with ``Step/expected`` the same way, through ``settledPosition(after:in:)``.
///
/// **Right after an action** means once its processing is over: the action, the actions its
/// reducer routed into scoped stores (origin `parent`), and their changes — up to the next
/// action the program received from elsewhere (the user, an effect, a tool). What effects do
/// later is left out on both sides: it depends on time, which a replay does not reproduce.
package struct ActionReplay: Sendable {
  package struct Step: Sendable, Hashable {
    /// The action's `seq` in the recording.
    package var seq: Int
    package var store: String
    /// The store's root, whose state is compared.
    package var root: String
    /// The action's label, e.g. `TodosFeature.Action.queryChanged`.
    package var action: String
    /// The action in its rendered form (`action.received`'s `value`): what is sent.
    package var value: JSON
    /// The root store's state right after the action, in the recording.
    package var expected: RebuiltState?
    /// The root store's state right before the action (what effects had done since the
    /// previous one included), in the recording.
    package var before: RebuiltState?
    /// The `seq` the expected state was taken at.
    package var expectedSeq: Int
    /// When the action was received, in milliseconds since the session started.
    package var time: Double
  }

  /// What effects do between actions: how many actions they sent and how many of them
  /// ended (finished or cancelled), counted from the first step. The replay waits for the
  /// program's to reach the recording's before each action.
  package struct EffectWork: Sendable, Hashable {
    package var actions = 0
    package var ends = 0

    package init(actions: Int = 0, ends: Int = 0) {
      self.actions = actions
      self.ends = ends
    }

    /// Counts the event at `position` of `model`, if it is effects' work.
    package mutating func count(at position: Int, in model: SessionModel) {
      switch model.kind(at: position) {
      case .effectEnded: ends += 1
      case .action:
        if case .actionReceived(let received) = model.event(at: position).payload, received.origin == .effect { actions += 1 }
      default: break
      }
    }

    /// At least as much of both as `other`.
    package func covers(_ other: EffectWork) -> Bool { actions >= other.actions && ends >= other.ends }
  }

  package var steps: [Step]
  /// For each step after the first, the effects' work in the recording between the first
  /// step and it (by the step's seq).
  private var work: [Int: EffectWork] = [:]

  /// What the recording's effects had done before the step at `seq`, since the first step.
  package func effectWork(before seq: Int) -> EffectWork { work[seq] ?? EffectWork() }
  /// Each root store's state right before the first step, in the recording (what a program
  /// must start from for the replay to mean anything).
  package var initialStates: [String: RebuiltState]

  /// The steps of `model`: its actions with origin `send` to stores matching `stores` (all
  /// when `nil`), up to and including `seq` `until`.
  package init(model: SessionModel, stores: Glob? = nil, until: Int? = nil) {
    var steps: [Step] = []
    var initial: [String: RebuiltState] = [:]
    for position in 0..<model.count where model.kind(at: position) == .action {
      let seq = model.seq(at: position)
      if let until, seq > until { break }
      let event = model.event(at: position)
      guard case .actionReceived(let received) = event.payload, received.origin == .send,
        stores?.matches(received.store) ?? true
      else { continue }
      let root = StateRebuilder.rootStore(of: received.store)
      if initial[root] == nil, position > 0, let before = model.state(of: root, at: position - 1) {
        initial[root] = before
      }
      let settled = Self.settledPosition(after: position, in: model)
      steps.append(Step(
        seq: seq, store: received.store, root: root, action: received.action, value: received.value,
        expected: model.state(of: root, at: settled), before: position > 0 ? model.state(of: root, at: position - 1) : nil,
        expectedSeq: model.seq(at: settled), time: event.time))
    }
    self.steps = steps
    self.initialStates = initial
    // One pass from the first step: the counts before each later one.
    guard let first = steps.first, let start = model.index(ofSeq: first.seq) else { return }
    var counted = EffectWork()
    var next = 1
    for position in start..<model.count where next < steps.count {
      while next < steps.count, model.seq(at: position) >= steps[next].seq {
        work[steps[next].seq] = counted
        next += 1
      }
      counted.count(at: position, in: model)
    }
  }

  /// The position where the processing of the action at `position` is over: its last
  /// `state.changed` before the next action that was not routed from a parent store, or the
  /// action itself when it changed nothing.
  package static func settledPosition(after position: Int, in model: SessionModel) -> Int {
    var settled = position
    var next = position + 1
    while next < model.count {
      switch model.kind(at: next) {
      case .action:
        guard case .actionReceived(let routed) = model.event(at: next).payload, routed.origin == .parent else {
          return settled
        }
      case .change:
        settled = next
      default:
        break
      }
      next += 1
    }
    return settled
  }

  /// Where `actual` first differs from `expected` (in the order of the paths of a diff), or
  /// `nil` when they are equal.
  /// A redacted value in the recording (`"<redacted>"`) matches whatever is there now. An
  /// element of an array whose elements have an `id` is named by it (`todos[id: 9]`), as in
  /// `state.changed`, not by its position.
  package static func firstDifference(expected: JSON, actual: JSON) -> Change? {
    guard expected != actual, var change = JSONDiff.diff(expected, masked(actual, like: expected)).first else { return nil }
    if let path = try? StatePath(parsing: change.path) { change.path = identified(path, in: expected).description }
    return change
  }

  /// `path` with each position of an element that has an `id` in `json` replaced by that id.
  private static func identified(_ path: StatePath, in json: JSON) -> StatePath {
    var current: JSON? = json
    var components: [StatePath.Component] = []
    for component in path.components {
      switch (component, current) {
      case (.index(let index), .array(let elements)?) where elements.indices.contains(index):
        let element = elements[index]
        if case .object(let object) = element, let id = object["id"] {
          components.append(.id(id))
        } else {
          components.append(component)
        }
        current = element
      case (.field(let name), .object(let object)?):
        components.append(component)
        current = object[name]
      case (.key(let key), .object(let object)?):
        components.append(component)
        current = object[key]
      default:
        components.append(component)
        current = nil
      }
    }
    return StatePath(components)
  }

  /// `actual` with `"<redacted>"` wherever `expected` has it.
  private static func masked(_ actual: JSON, like expected: JSON) -> JSON {
    switch (expected, actual) {
    case (.string(RenderMarker.redacted), _):
      return expected
    case (.object(let wanted), .object(var object)):
      for member in wanted where object[member.key] != nil {
        object[member.key] = masked(object[member.key]!, like: member.value)
      }
      return .object(object)
    case (.array(let wanted), .array(var elements)):
      for index in elements.indices where index < wanted.count {
        elements[index] = masked(elements[index], like: wanted[index])
      }
      return .array(elements)
    default:
      return actual
    }
  }

  /// One line for a difference: `pages[id: 2].count: recorded 3, now 4`.
  package static func describe(_ change: Change) -> String {
    let path = change.path.isEmpty ? "the whole state" : change.path
    switch change.op {
    case .replace: return "\(path): recorded \(text(change.old)), now \(text(change.new))"
    case .insert: return "\(path): not in the recording, now \(text(change.new))"
    case .remove: return "\(path): recorded \(text(change.old)), now missing"
    }
  }

  private static func text(_ json: JSON?) -> String {
    guard let json else { return "nothing" }
    let text = json.jsonText
    return text.count > 200 ? String(text.prefix(200)) + "…" : text
  }
}
